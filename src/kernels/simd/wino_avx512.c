/*
 * Winograd input tile transform B^T d B (see wino_avx2.c) for AVX-512 CPUs:
 * a whole 16-channel block per __m512, so one call covers what the AVX2
 * build does in two halves; same tile layout (16 consecutive channels of
 * each transformed point at v + k * tstride). m is 2 or 4.
 */
#include <immintrin.h>

#include "kernels/wino.h"

#define V16 __m512
#define ADD _mm512_add_ps
#define SUB _mm512_sub_ps
#define MUL(a, s) _mm512_mul_ps((a), _mm512_set1_ps(s))
#define FMA(a, s, c) _mm512_fmadd_ps((a), _mm512_set1_ps(s), (c))

static inline void bt4(const V16 *d, int sd, V16 *r, int sr)
{
    V16 d0 = d[0], d1 = d[sd], d2 = d[2 * sd], d3 = d[3 * sd], d4 = d[4 * sd], d5 = d[5 * sd];
    r[0] = FMA(d2, -5.0f, FMA(d0, 4.0f, d4));
    V16 a = FMA(d2, -4.0f, d4), b = FMA(d1, -4.0f, d3);
    r[sr] = ADD(a, b);
    r[2 * sr] = SUB(a, b);
    V16 c = SUB(d4, d2), e = MUL(SUB(d3, d1), 2.0f);
    r[3 * sr] = ADD(c, e);
    r[4 * sr] = SUB(c, e);
    r[5 * sr] = FMA(d3, -5.0f, FMA(d1, 4.0f, d5));
}

static inline void bt2(const V16 *d, int sd, V16 *r, int sr)
{
    V16 d0 = d[0], d1 = d[sd], d2 = d[2 * sd], d3 = d[3 * sd];
    r[0] = SUB(d0, d2);
    r[sr] = ADD(d1, d2);
    r[2 * sr] = SUB(d2, d1);
    r[3 * sr] = SUB(d1, d3);
}

void oa_kwino_in_avx512(int m, const float *x, int64_t H, int64_t W, int64_t iy0, int64_t ix0, float *v,
                        int64_t tstride)
{
    const int n = m + 2;
    V16 d[36], t[36];
    if (iy0 >= 0 && ix0 >= 0 && iy0 + n <= H && ix0 + n <= W) {
        for (int i = 0; i < n; i++) {
            const float *row = x + ((iy0 + i) * W + ix0) * 16;
            for (int j = 0; j < n; j++) {
                d[i * n + j] = _mm512_loadu_ps(row + j * 16);
            }
        }
    } else {
        for (int i = 0; i < n; i++) {
            int64_t yy = iy0 + i;
            for (int j = 0; j < n; j++) {
                int64_t xx = ix0 + j;
                d[i * n + j] = yy >= 0 && yy < H && xx >= 0 && xx < W ? _mm512_loadu_ps(x + (yy * W + xx) * 16)
                                                                       : _mm512_setzero_ps();
            }
        }
    }
    if (m == 4) {
        for (int j = 0; j < 6; j++) {
            bt4(d + j, 6, t + j, 6); /* columns */
        }
        for (int i = 0; i < 6; i++) {
            bt4(t + i * 6, 1, d + i * 6, 1); /* rows */
        }
    } else {
        for (int j = 0; j < 4; j++) {
            bt2(d + j, 4, t + j, 4);
        }
        for (int i = 0; i < 4; i++) {
            bt2(t + i * 4, 1, d + i * 4, 1);
        }
    }
    for (int k = 0; k < n * n; k++) {
        _mm512_storeu_ps(v + k * tstride, d[k]);
    }
}

/*
 * m0/m1[r][8] = sum_k v[r * vs + k] * u[k][0..7 / 8..15] for nt rows r, one
 * 16-channel column per __m512 (the weight row is one load, the tile values
 * embedded broadcasts). NT is a constant at each call site below, so the
 * accumulators stay in registers and no missing row is computed.
 */
static inline __attribute__((always_inline)) void gemm_rows(const float *u, const float *v, int64_t k, int64_t vs,
                                                            float *m0, float *m1, const int NT)
{
    V16 a[12];
#pragma GCC unroll 12
    for (int r = 0; r < NT; r++) {
        a[r] = _mm512_setzero_ps();
    }
    for (int64_t i = 0; i < k; i++) {
        V16 w = _mm512_loadu_ps(u + i * 16);
        _mm_prefetch((const char *)(u + i * 16) + OA_KWINO_PREFETCH, _MM_HINT_T0);
#pragma GCC unroll 12
        for (int r = 0; r < NT; r++) {
            a[r] = _mm512_fmadd_ps(_mm512_set1_ps(v[r * vs + i]), w, a[r]);
        }
    }
#pragma GCC unroll 12
    for (int r = 0; r < NT; r++) {
        _mm256_storeu_ps(m0 + r * 8, _mm512_castps512_ps256(a[r]));
        _mm256_storeu_ps(m1 + r * 8, _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(a[r]), 1)));
    }
}

void oa_kwino_gemm_avx512(const float *u, const float *v, int64_t k, int64_t vs, int nt, float *m0, float *m1)
{
    switch (nt) {
    case 1: gemm_rows(u, v, k, vs, m0, m1, 1); break;
    case 2: gemm_rows(u, v, k, vs, m0, m1, 2); break;
    case 3: gemm_rows(u, v, k, vs, m0, m1, 3); break;
    case 4: gemm_rows(u, v, k, vs, m0, m1, 4); break;
    case 5: gemm_rows(u, v, k, vs, m0, m1, 5); break;
    case 6: gemm_rows(u, v, k, vs, m0, m1, 6); break;
    case 7: gemm_rows(u, v, k, vs, m0, m1, 7); break;
    case 8: gemm_rows(u, v, k, vs, m0, m1, 8); break;
    case 9: gemm_rows(u, v, k, vs, m0, m1, 9); break;
    case 10: gemm_rows(u, v, k, vs, m0, m1, 10); break;
    case 11: gemm_rows(u, v, k, vs, m0, m1, 11); break;
    default: gemm_rows(u, v, k, vs, m0, m1, 12); break;
    }
}

/*
 * Two 16-channel columns at once (u0 and u0 + us, consecutive in the filter): 2 weight loads and NT broadcasts
 * per step feed 2 * NT FMAs, where one column is one load and NT broadcasts for NT FMAs, as many loads as
 * FMAs (bench/KERNELS.md "Winograd: two columns per step"). The four 8-channel halves go to m + h * ms. The
 * next pair's columns are prefetched while this one runs, into L2: into L1 they crowded out the pair in use
 * (a 14x14 x 256 layer's GEMMs with the filters from memory: 111 -> 118 GFLOP/s stand-alone).
 */
static inline __attribute__((always_inline)) void gemm_rows2(const float *u0, int64_t us, const float *v, int64_t k,
                                                             int64_t vs, float *m, int64_t ms, const int NT)
{
    V16 a[12], b[12];
    const float *u1 = u0 + us;
#pragma GCC unroll 12
    for (int r = 0; r < NT; r++) {
        a[r] = _mm512_setzero_ps();
        b[r] = _mm512_setzero_ps();
    }
    const char *pf = (const char *)(u0 + 2 * us);
    for (int64_t i = 0; i < k; i++) {
        V16 w0 = _mm512_loadu_ps(u0 + i * 16), w1 = _mm512_loadu_ps(u1 + i * 16);
        _mm_prefetch(pf + i * 64, _MM_HINT_T1);
        _mm_prefetch(pf + us * 4 + i * 64, _MM_HINT_T1);
#pragma GCC unroll 12
        for (int r = 0; r < NT; r++) {
            const V16 x = _mm512_set1_ps(v[r * vs + i]);
            a[r] = _mm512_fmadd_ps(x, w0, a[r]);
            b[r] = _mm512_fmadd_ps(x, w1, b[r]);
        }
    }
#pragma GCC unroll 12
    for (int r = 0; r < NT; r++) {
        _mm256_storeu_ps(m + r * 8, _mm512_castps512_ps256(a[r]));
        _mm256_storeu_ps(m + ms + r * 8, _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(a[r]), 1)));
        _mm256_storeu_ps(m + 2 * ms + r * 8, _mm512_castps512_ps256(b[r]));
        _mm256_storeu_ps(m + 3 * ms + r * 8, _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(b[r]), 1)));
    }
}

void oa_kwino_gemm2_avx512(const float *u, int64_t us, const float *v, int64_t k, int64_t vs, int nt, float *m,
                           int64_t ms)
{
    switch (nt) {
    case 1: gemm_rows2(u, us, v, k, vs, m, ms, 1); break;
    case 2: gemm_rows2(u, us, v, k, vs, m, ms, 2); break;
    case 3: gemm_rows2(u, us, v, k, vs, m, ms, 3); break;
    case 4: gemm_rows2(u, us, v, k, vs, m, ms, 4); break;
    case 5: gemm_rows2(u, us, v, k, vs, m, ms, 5); break;
    case 6: gemm_rows2(u, us, v, k, vs, m, ms, 6); break;
    case 7: gemm_rows2(u, us, v, k, vs, m, ms, 7); break;
    case 8: gemm_rows2(u, us, v, k, vs, m, ms, 8); break;
    case 9: gemm_rows2(u, us, v, k, vs, m, ms, 9); break;
    case 10: gemm_rows2(u, us, v, k, vs, m, ms, 10); break;
    case 11: gemm_rows2(u, us, v, k, vs, m, ms, 11); break;
    default: gemm_rows2(u, us, v, k, vs, m, ms, 12); break;
    }
}

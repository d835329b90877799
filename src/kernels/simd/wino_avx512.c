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
 * m0/m1[r][8] = sum_k v[r * vs + k] * u[k][0..7 / 8..15] for nt <= 12 tiles r,
 * one 16-channel column per __m512 (12 accumulators; the weight row is one
 * load, the tile values embedded broadcasts). A short chunk's missing rows
 * recompute row 0 and are not stored. Both halves are stored (m1 not NULL).
 */
void oa_kwino_gemm_avx512(const float *u, const float *v, int64_t k, int64_t vs, int nt, float *m0, float *m1)
{
    const float *p[12];
    for (int r = 0; r < 12; r++) {
        p[r] = r < nt ? v + r * vs : v;
    }
    V16 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0, a8 = a0, a9 = a0,
        a10 = a0, a11 = a0;
    for (int64_t i = 0; i < k; i++) {
        V16 w = _mm512_loadu_ps(u + i * 16);
        a0 = _mm512_fmadd_ps(_mm512_set1_ps(p[0][i]), w, a0);
        a1 = _mm512_fmadd_ps(_mm512_set1_ps(p[1][i]), w, a1);
        a2 = _mm512_fmadd_ps(_mm512_set1_ps(p[2][i]), w, a2);
        a3 = _mm512_fmadd_ps(_mm512_set1_ps(p[3][i]), w, a3);
        a4 = _mm512_fmadd_ps(_mm512_set1_ps(p[4][i]), w, a4);
        a5 = _mm512_fmadd_ps(_mm512_set1_ps(p[5][i]), w, a5);
        a6 = _mm512_fmadd_ps(_mm512_set1_ps(p[6][i]), w, a6);
        a7 = _mm512_fmadd_ps(_mm512_set1_ps(p[7][i]), w, a7);
        a8 = _mm512_fmadd_ps(_mm512_set1_ps(p[8][i]), w, a8);
        a9 = _mm512_fmadd_ps(_mm512_set1_ps(p[9][i]), w, a9);
        a10 = _mm512_fmadd_ps(_mm512_set1_ps(p[10][i]), w, a10);
        a11 = _mm512_fmadd_ps(_mm512_set1_ps(p[11][i]), w, a11);
    }
    V16 r[12] = {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11};
    for (int j = 0; j < nt; j++) {
        _mm256_storeu_ps(m0 + j * 8, _mm512_castps512_ps256(r[j]));
        _mm256_storeu_ps(m1 + j * 8, _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(r[j]), 1)));
    }
}

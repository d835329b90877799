/*
 * Winograd F(m x m, 3x3) pieces for the NCHWc conv path (conv.c), AVX2+FMA,
 * 8 channels per __m256 (an 8-channel block, or one half of a 16-channel
 * block: pixels `ps` floats apart): the input tile transform B^T d B, the
 * output transform A^T M A with bias and simple post-ops, and the GEMM
 * microkernel that multiplies the transformed filters by the transformed
 * tiles at each of the (m+2)^2 points. m is 2 or 4 (Lavin & Gray's
 * matrices with the interpolation points 0, +-1, +-2).
 */
#include <immintrin.h>

#include "kernels/wino.h"

#define V8 __m256
#define ADD _mm256_add_ps
#define SUB _mm256_sub_ps
#define MUL(a, s) _mm256_mul_ps((a), _mm256_set1_ps(s))
#define FMA(a, s, c) _mm256_fmadd_ps((a), _mm256_set1_ps(s), (c))

/* 1-D B^T transforms over n inputs at stride sd into outputs at stride sr. */
static inline void bt4(const V8 *d, int sd, V8 *r, int sr)
{
    V8 d0 = d[0], d1 = d[sd], d2 = d[2 * sd], d3 = d[3 * sd], d4 = d[4 * sd], d5 = d[5 * sd];
    r[0] = FMA(d2, -5.0f, FMA(d0, 4.0f, d4));
    V8 a = FMA(d2, -4.0f, d4), b = FMA(d1, -4.0f, d3);
    r[sr] = ADD(a, b);
    r[2 * sr] = SUB(a, b);
    V8 c = SUB(d4, d2), e = MUL(SUB(d3, d1), 2.0f);
    r[3 * sr] = ADD(c, e);
    r[4 * sr] = SUB(c, e);
    r[5 * sr] = FMA(d3, -5.0f, FMA(d1, 4.0f, d5));
}

static inline void bt2(const V8 *d, int sd, V8 *r, int sr)
{
    V8 d0 = d[0], d1 = d[sd], d2 = d[2 * sd], d3 = d[3 * sd];
    r[0] = SUB(d0, d2);
    r[sr] = ADD(d1, d2);
    r[2 * sr] = SUB(d2, d1);
    r[3 * sr] = SUB(d1, d3);
}

/* 1-D A^T transforms: n = m + 2 inputs to m outputs. */
static inline void at4(const V8 *s, int ss, V8 *o, int so)
{
    V8 a = ADD(s[ss], s[2 * ss]), b = SUB(s[ss], s[2 * ss]);
    V8 c = ADD(s[3 * ss], s[4 * ss]), e = SUB(s[3 * ss], s[4 * ss]);
    o[0] = ADD(ADD(s[0], a), c);
    o[so] = FMA(e, 2.0f, b);
    o[2 * so] = FMA(c, 4.0f, a);
    o[3 * so] = ADD(FMA(e, 8.0f, b), s[5 * ss]);
}

static inline void at2(const V8 *s, int ss, V8 *o, int so)
{
    o[0] = ADD(ADD(s[0], s[ss]), s[2 * ss]);
    o[so] = SUB(SUB(s[ss], s[2 * ss]), s[3 * ss]);
}

void oa_kwino_in_avx2(int m, const float *x, int64_t H, int64_t W, int64_t ps, int64_t iy0, int64_t ix0, float *v,
                      int64_t tstride)
{
    const int n = m + 2;
    V8 d[36], t[36];
    if (iy0 >= 0 && ix0 >= 0 && iy0 + n <= H && ix0 + n <= W) {
        for (int i = 0; i < n; i++) {
            const float *row = x + ((iy0 + i) * W + ix0) * ps;
            for (int j = 0; j < n; j++) {
                d[i * n + j] = _mm256_loadu_ps(row + j * ps);
            }
        }
    } else {
        for (int i = 0; i < n; i++) {
            int64_t yy = iy0 + i;
            for (int j = 0; j < n; j++) {
                int64_t xx = ix0 + j;
                d[i * n + j] = yy >= 0 && yy < H && xx >= 0 && xx < W ? _mm256_loadu_ps(x + (yy * W + xx) * ps)
                                                                       : _mm256_setzero_ps();
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
        _mm256_storeu_ps(v + k * tstride, d[k]);
    }
}

void oa_kwino_out_avx2(int m, const float *mt, int64_t tstride, const float *bias, float *y, int64_t ow, int64_t ps,
                       int nr, int nc, const oa_kwino_post *post, const float *const *res)
{
    const int n = m + 2;
    V8 s[36], t[24], o[16];
    for (int k = 0; k < n * n; k++) {
        s[k] = _mm256_loadu_ps(mt + k * tstride);
    }
    if (m == 4) {
        for (int j = 0; j < 6; j++) {
            at4(s + j, 6, t + j, 6); /* columns: 4 rows of 6 */
        }
        for (int i = 0; i < 4; i++) {
            at4(t + i * 6, 1, o + i * 4, 1);
        }
    } else {
        for (int j = 0; j < 4; j++) {
            at2(s + j, 4, t + j, 4);
        }
        for (int i = 0; i < 2; i++) {
            at2(t + i * 4, 1, o + i * 2, 1);
        }
    }
    V8 b = _mm256_loadu_ps(bias), zero = _mm256_setzero_ps();
    for (int i = 0; i < nr; i++) {
        for (int j = 0; j < nc; j++) {
            int64_t off = (i * ow + j) * ps;
            V8 r = ADD(o[i * m + j], b);
            for (int k = 0; k < post->n; k++) {
                if (post->kind[k] == OA_KWINO_ADD) {
                    r = ADD(r, _mm256_loadu_ps(res[post->res[k]] + off));
                } else if (post->kind[k] == OA_KWINO_RELU) {
                    r = _mm256_max_ps(r, zero);
                }
            }
            _mm256_storeu_ps(y + off, r);
        }
    }
}

/*
 * m0/m1[r][8] = sum_k v[r * vs + k] * u[k][0..7 / 8..15] for nt <= 6 tiles r.
 * m1 == NULL: only the first 8 output channels exist.
 */
/* The last 8 channels of an odd block count: half the FMAs (det's 24-channel convs). */
static void gemm8(const float *u, const float *v0, const float *v1, const float *v2, const float *v3,
                  const float *v4, const float *v5, int64_t k, int nt, float *m0)
{
    V8 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0;
    for (int64_t i = 0; i < k; i++) {
        V8 u0 = _mm256_loadu_ps(u + i * 16);
        _mm_prefetch((const char *)(u + i * 16) + OA_KWINO_PREFETCH, _MM_HINT_T0);
        a0 = _mm256_fmadd_ps(_mm256_broadcast_ss(v0 + i), u0, a0);
        a1 = _mm256_fmadd_ps(_mm256_broadcast_ss(v1 + i), u0, a1);
        a2 = _mm256_fmadd_ps(_mm256_broadcast_ss(v2 + i), u0, a2);
        a3 = _mm256_fmadd_ps(_mm256_broadcast_ss(v3 + i), u0, a3);
        a4 = _mm256_fmadd_ps(_mm256_broadcast_ss(v4 + i), u0, a4);
        a5 = _mm256_fmadd_ps(_mm256_broadcast_ss(v5 + i), u0, a5);
    }
    V8 r[6] = {a0, a1, a2, a3, a4, a5};
    for (int j = 0; j < nt; j++) {
        _mm256_storeu_ps(m0 + j * 8, r[j]);
    }
}

void oa_kwino_gemm_avx2(const float *u, const float *v, int64_t k, int64_t vs, int nt, float *m0, float *m1)
{
    V8 a00 = _mm256_setzero_ps(), a01 = a00, a10 = a00, a11 = a00, a20 = a00, a21 = a00, a30 = a00, a31 = a00,
       a40 = a00, a41 = a00, a50 = a00, a51 = a00;
    /* a short chunk's missing rows recompute row 0 and are not stored */
    const float *v0 = v, *v1 = nt > 1 ? v + vs : v, *v2 = nt > 2 ? v + 2 * vs : v, *v3 = nt > 3 ? v + 3 * vs : v,
                *v4 = nt > 4 ? v + 4 * vs : v, *v5 = nt > 5 ? v + 5 * vs : v;
    if (m1 == NULL) {
        gemm8(u, v0, v1, v2, v3, v4, v5, k, nt, m0);
        return;
    }
    for (int64_t i = 0; i < k; i++) {
        V8 u0 = _mm256_loadu_ps(u + i * 16), u1 = _mm256_loadu_ps(u + i * 16 + 8), b;
        _mm_prefetch((const char *)(u + i * 16) + OA_KWINO_PREFETCH, _MM_HINT_T0);
        b = _mm256_broadcast_ss(v0 + i);
        a00 = _mm256_fmadd_ps(b, u0, a00);
        a01 = _mm256_fmadd_ps(b, u1, a01);
        b = _mm256_broadcast_ss(v1 + i);
        a10 = _mm256_fmadd_ps(b, u0, a10);
        a11 = _mm256_fmadd_ps(b, u1, a11);
        b = _mm256_broadcast_ss(v2 + i);
        a20 = _mm256_fmadd_ps(b, u0, a20);
        a21 = _mm256_fmadd_ps(b, u1, a21);
        b = _mm256_broadcast_ss(v3 + i);
        a30 = _mm256_fmadd_ps(b, u0, a30);
        a31 = _mm256_fmadd_ps(b, u1, a31);
        b = _mm256_broadcast_ss(v4 + i);
        a40 = _mm256_fmadd_ps(b, u0, a40);
        a41 = _mm256_fmadd_ps(b, u1, a41);
        b = _mm256_broadcast_ss(v5 + i);
        a50 = _mm256_fmadd_ps(b, u0, a50);
        a51 = _mm256_fmadd_ps(b, u1, a51);
    }
    V8 r0[6] = {a00, a10, a20, a30, a40, a50}, r1[6] = {a01, a11, a21, a31, a41, a51};
    for (int r = 0; r < nt; r++) {
        _mm256_storeu_ps(m0 + r * 8, r0[r]);
        if (m1 != NULL) {
            _mm256_storeu_ps(m1 + r * 8, r1[r]);
        }
    }
}

/*
 * AVX2 tile of the streamed-filter products (pw_product.h; the contract is simd/pw_avx512.c's): the same
 * 16-output blocks, filter layout and prefetch, in 256-bit registers. A block is two vectors; with 16
 * registers a pass holds one block x np rows (up to 12 accumulators, two filter vectors and the broadcast
 * input), so the tile runs its ob blocks one after the other over the steps, each pass reading its block's
 * 64 bytes of every step (the group's filter stays in L1/L2 between passes) and broadcasting the rows'
 * values again. The next piece's lines are prefetched during the first pass. Used by the MatMul with a
 * constant or batched b on the avx2 tier (docs/isa.md); the NCHWc convs keep 8-channel blocks there.
 */
#include <immintrin.h>
#include <stdbool.h>

#include "kernels/kernel_internal.h"
#include "kernels/simd/acts_avx2.inc"

/* The lanes of an 8-bit mask as a vector for _mm256_maskload_ps / _mm256_maskstore_ps. */
static inline __m256i lanes_of(unsigned bits)
{
    const __m256i sel = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)bits), sel), sel);
}

#define PW2_TILE(NP)                                                                                                 \
    static void pw2_##NP(const oa_kpw_tile *t, const float *bias, const float *res, float *y, const char *pf)     \
    {                                                                                                                \
        const int64_t ycs = t->ycs, ys = t->ys, wstep = (int64_t)t->ob * 16;                                        \
        const float *xp[NP];                                                                                         \
        for (int j = 0; j < NP; j++) {                                                                               \
            xp[j] = t->x + t->off[j];                                                                                \
        }                                                                                                            \
        const int32_t *xoff = t->xoff;                                                                               \
        const int64_t pf_mask = ((int64_t)1 << t->pf_shift) - 1;                                                     \
        for (int o = 0; o < t->ob; o++) {                                                                            \
            const bool last = o == t->ob - 1;                                                                        \
            const unsigned lanes = last ? t->last_lanes : 0xffffu, zero = last ? t->last_zero : 0u;                 \
            const __m256i m0 = lanes_of(lanes & 0xffu), m1 = lanes_of(lanes >> 8);                                   \
            __m256 acc[2][NP];                                                                                       \
            for (int j = 0; j < NP; j++) {                                                                           \
                const float *s = bias != NULL ? bias + o * 16 : y + o * ycs + j * ys;                                \
                acc[0][j] = _mm256_maskload_ps(s, m0);                                                               \
                acc[1][j] = _mm256_maskload_ps(s + 8, m1);                                                           \
            }                                                                                                        \
            const char *opf = o == 0 ? pf : NULL; /* the next piece's lines: once, in the first pass */              \
            const float *wr = t->w + t->r0 * wstep + o * 16;                                                         \
            for (int64_t r = t->r0; r < t->r1; r++, wr += wstep) {                                                   \
                const __m256 w0 = _mm256_loadu_ps(wr), w1 = _mm256_loadu_ps(wr + 8);                                \
                if (opf != NULL && ((r - t->r0) & pf_mask) == 0) {                                                   \
                    _mm_prefetch(opf + ((r - t->r0) >> t->pf_shift) * 64, _MM_HINT_T1);                              \
                }                                                                                                    \
                const int64_t xo = xoff[r];                                                                          \
                _Pragma("GCC unroll 8") for (int j = 0; j < NP; j++)                                                 \
                {                                                                                                    \
                    const __m256 xv = _mm256_broadcast_ss(xp[j] + xo);                                               \
                    acc[0][j] = _mm256_fmadd_ps(xv, w0, acc[0][j]);                                                  \
                    acc[1][j] = _mm256_fmadd_ps(xv, w1, acc[1][j]);                                                  \
                }                                                                                                    \
            }                                                                                                        \
            if (res != NULL) {                                                                                       \
                for (int j = 0; j < NP; j++) {                                                                       \
                    const float *q = res + o * ycs + j * ys;                                                         \
                    acc[0][j] = _mm256_add_ps(acc[0][j], _mm256_maskload_ps(q, m0));                                 \
                    acc[1][j] = _mm256_add_ps(acc[1][j], _mm256_maskload_ps(q + 8, m1));                             \
                }                                                                                                    \
            }                                                                                                        \
            if (t->acts != NULL) {                                                                                   \
                acts_apply(acc[0], NP, t->acts);                                                                     \
                acts_apply(acc[1], NP, t->acts);                                                                     \
            }                                                                                                        \
            const __m256 z0 = _mm256_castsi256_ps(lanes_of(zero & 0xffu));                                          \
            const __m256 z1 = _mm256_castsi256_ps(lanes_of(zero >> 8));                                              \
            for (int j = 0; j < NP; j++) {                                                                           \
                float *q = y + o * ycs + j * ys;                                                                     \
                _mm256_maskstore_ps(q, m0, _mm256_andnot_ps(z0, acc[0][j]));                                         \
                _mm256_maskstore_ps(q + 8, m1, _mm256_andnot_ps(z1, acc[1][j]));                                     \
            }                                                                                                        \
        }                                                                                                            \
    }

PW2_TILE(1)
PW2_TILE(2)
PW2_TILE(3)
PW2_TILE(4)
PW2_TILE(5)
PW2_TILE(6)

typedef void (*pw2_fn)(const oa_kpw_tile *t, const float *bias, const float *res, float *y, const char *pf);
static const pw2_fn k_tiles[OA_KPW_MAX_NP] = {pw2_1, pw2_2, pw2_3, pw2_4, pw2_5, pw2_6};

void oa_kpw_avx2(const oa_kpw_tile *t, const float *bias, const float *res, float *y, const void *pf)
{
    if (t->ob < 1 || t->ob > OA_KPW_MAX_OB || t->np < 1 || t->np > OA_KPW_MAX_NP) {
        return; /* conv_pw.c and matmul.c never ask for more */
    }
    k_tiles[t->np - 1](t, bias, res, y, (const char *)pf);
}

/*
 * AVX-512F tile of the small-plane convolution on 16-channel blocks
 * (conv_pw.c): ob output channel blocks (1..4) x np output pixels (1..6),
 * up to 24 accumulators, summed over a range of the reduction (4 x 7 would
 * need 33 vector registers: GCC kept one accumulator on the stack, 243
 * against 256 GFLOP/s for 4 x 6). A reduction step is one input channel
 * (of one tap) or one column of a: its ob filter vectors are loaded once and
 * each pixel's (row's) value is broadcast once, ob * np FMAs for ob + np
 * loads (the shape of oneDNN's 1x1 kernel). Where a step's input value sits
 * is a table (xoff), so one tile serves NCHWc convs and row-major MatMuls.
 *
 * What it adds: each channel step also prefetches one cache line of pf, the
 * filter of the next piece of work, so that filters streamed from memory
 * (ResNet-50's last stage: 4-9 MiB per layer, none of it in cache when the
 * layer starts) arrive while this piece computes (bench/KERNELS.md
 * "Convolutions on small planes").
 *
 * Contract (oa_kpw_tile, offsets in floats): output pixel (or row) j of block o is
 *   y[o * ycs + j * ys] (16 lanes) = start + sum over steps r in [r0, r1) of
 *   x[off[j] + xoff[r]] * w[r][o][16 lanes]
 * where start is bias[o * 16 ..] or, with bias NULL, y itself (a later reduction range); res, when
 * not NULL, is a residual laid out as y, added before the store (it may be y itself: each value is
 * read before its place is written); pf, when not NULL, is one cache line to prefetch per step
 * (64 bytes apart).
 */
#include <immintrin.h>

#include "kernels/kernel_internal.h"

#define PW_TILE(OB, NP)                                                                                               \
    static void pw_##OB##x##NP(const oa_kpw_tile *t, const float *bias, const float *res, float *y, const char *pf) \
    {                                                                                                                \
        const int64_t ycs = t->ycs, ys = t->ys;                                                                      \
        __m512 acc[OB][NP];                                                                                          \
        for (int o = 0; o < OB; o++) {                                                                               \
            for (int j = 0; j < NP; j++) {                                                                           \
                acc[o][j] = bias != NULL ? _mm512_loadu_ps(bias + o * 16) : _mm512_loadu_ps(y + o * ycs + j * ys);  \
            }                                                                                                        \
        }                                                                                                            \
        const float *xp[NP];                                                                                         \
        for (int j = 0; j < NP; j++) {                                                                               \
            xp[j] = t->x + t->off[j];                                                                                \
        }                                                                                                            \
        const int32_t *xoff = t->xoff;                                                                               \
        const float *wr = t->w + t->r0 * (OB * 16);                                                                  \
        for (int64_t r = t->r0; r < t->r1; r++, wr += OB * 16) {                                                     \
            __m512 wv[OB];                                                                                           \
            for (int o = 0; o < OB; o++) {                                                                           \
                wv[o] = _mm512_loadu_ps(wr + o * 16);                                                                \
            }                                                                                                        \
            if (pf != NULL) {                                                                                        \
                _mm_prefetch(pf + (r - t->r0) * 64, _MM_HINT_T1);                                                    \
            }                                                                                                        \
            const int64_t xo = xoff[r];                                                                              \
            _Pragma("GCC unroll 8") for (int j = 0; j < NP; j++)                                                     \
            {                                                                                                        \
                const __m512 xv = _mm512_set1_ps(xp[j][xo]);                                                         \
                for (int o = 0; o < OB; o++) {                                                                       \
                    acc[o][j] = _mm512_fmadd_ps(xv, wv[o], acc[o][j]);                                               \
                }                                                                                                    \
            }                                                                                                        \
        }                                                                                                            \
        for (int o = 0; o < OB; o++) {                                                                               \
            for (int j = 0; j < NP; j++) {                                                                           \
                __m512 v = acc[o][j];                                                                                \
                if (res != NULL) {                                                                                   \
                    v = _mm512_add_ps(v, _mm512_loadu_ps(res + o * ycs + j * ys));                                   \
                }                                                                                                    \
                _mm512_storeu_ps(y + o * ycs + j * ys, v);                                                           \
            }                                                                                                        \
        }                                                                                                            \
    }

#define PW_ROW(OB) PW_TILE(OB, 1) PW_TILE(OB, 2) PW_TILE(OB, 3) PW_TILE(OB, 4) PW_TILE(OB, 5) PW_TILE(OB, 6)
PW_ROW(1)
PW_ROW(2)
PW_ROW(3)
PW_ROW(4)

typedef void (*pw_tile_fn)(const oa_kpw_tile *t, const float *bias, const float *res, float *y, const char *pf);

#define PW_FNS(OB) {pw_##OB##x1, pw_##OB##x2, pw_##OB##x3, pw_##OB##x4, pw_##OB##x5, pw_##OB##x6}
static const pw_tile_fn k_tiles[OA_KPW_MAX_OB][OA_KPW_MAX_NP] = {PW_FNS(1), PW_FNS(2), PW_FNS(3), PW_FNS(4)};

void oa_kpw_avx512(const oa_kpw_tile *t, const float *bias, const float *res, float *y, const void *pf)
{
    if (t->ob < 1 || t->ob > OA_KPW_MAX_OB || t->np < 1 || t->np > OA_KPW_MAX_NP) {
        return; /* conv_pw.c and matmul.c never ask for more */
    }
    k_tiles[t->ob - 1][t->np - 1](t, bias, res, y, (const char *)pf);
}

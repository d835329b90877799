/*
 * AVX-512F tile of the small-plane convolution on 16-channel blocks
 * (conv_pw.c): ob output channel blocks (1..4) x np output pixels (1..6),
 * up to 24 accumulators, summed over a range of the reduction (4 x 7 would
 * need 33 vector registers: GCC kept one accumulator on the stack, 243
 * against 256 GFLOP/s for 4 x 6). The
 * reduction runs over (tap, input block) pairs r = tap * icbs + block, 16
 * input channels each: per channel the ob filter vectors are loaded once
 * and each pixel's input value is broadcast once, ob * np FMAs for ob + np
 * loads (the shape of oneDNN's 1x1 kernel).
 *
 * What it adds: each channel step also prefetches one cache line of pf, the
 * filter of the next piece of work, so that filters streamed from memory
 * (ResNet-50's last stage: 4-9 MiB per layer, none of it in cache when the
 * layer starts) arrive while this piece computes (bench/KERNELS.md
 * "Convolutions on small planes").
 *
 * Contract (all offsets in floats):
 *   x      the image's input (zero-padded when the conv pads) at channel block 0;
 *          input block k starts at x + k * xcs
 *   off    the np pixels' offsets in an input block for tap 0 (pixel index * 16)
 *   shift  each tap's offset added to off
 *   icbs   input blocks per tap; [r0, r1) the reduction range
 *   w      the group's filter [r][16][ob][16] from r = 0
 *   bias   ob * 16 values to start from, or NULL: start from y (a later range)
 *   res    NULL, or a residual laid out as y: added before the store (it may be y itself)
 *   y      output at the tile's first block and pixel; block o at y + o * ycs, pixels 16 apart
 *   pf     NULL, or one cache line to prefetch per channel step (64 bytes apart)
 */
#include <immintrin.h>

#include "kernels/kernel_internal.h"

#define PW_TILE(OB, NP)                                                                                               \
    static void pw_##OB##x##NP(const float *x, int64_t xcs, const int32_t *off, const int32_t *shift, int64_t icbs, \
                               int64_t r0, int64_t r1, const float *w, const float *bias, const float *res, float *y, \
                               int64_t ycs, const char *pf)                                                          \
    {                                                                                                                \
        __m512 acc[OB][NP];                                                                                          \
        for (int o = 0; o < OB; o++) {                                                                               \
            for (int j = 0; j < NP; j++) {                                                                           \
                acc[o][j] = bias != NULL ? _mm512_loadu_ps(bias + o * 16) : _mm512_loadu_ps(y + o * ycs + j * 16);  \
            }                                                                                                        \
        }                                                                                                            \
        int32_t po[NP];                                                                                              \
        for (int j = 0; j < NP; j++) {                                                                               \
            po[j] = off[j];                                                                                          \
        }                                                                                                            \
        for (int64_t r = r0; r < r1; r++) {                                                                          \
            const float *xb = x + shift[r / icbs] + (r % icbs) * xcs;                                                \
            const float *wr = w + r * (16 * OB * 16);                                                                \
            const char *pr = pf != NULL ? pf + (r - r0) * 16 * 64 : NULL;                                            \
            for (int l = 0; l < 16; l++) {                                                                           \
                __m512 wv[OB];                                                                                       \
                for (int o = 0; o < OB; o++) {                                                                       \
                    wv[o] = _mm512_loadu_ps(wr + (l * OB + o) * 16);                                                 \
                }                                                                                                    \
                if (pr != NULL) {                                                                                    \
                    _mm_prefetch(pr + l * 64, _MM_HINT_T1);                                                          \
                }                                                                                                    \
                _Pragma("GCC unroll 8") for (int j = 0; j < NP; j++)                                                 \
                {                                                                                                    \
                    const __m512 xv = _mm512_set1_ps(xb[po[j] + l]);                                                 \
                    for (int o = 0; o < OB; o++) {                                                                   \
                        acc[o][j] = _mm512_fmadd_ps(xv, wv[o], acc[o][j]);                                           \
                    }                                                                                                \
                }                                                                                                    \
            }                                                                                                        \
        }                                                                                                            \
        for (int o = 0; o < OB; o++) {                                                                               \
            for (int j = 0; j < NP; j++) {                                                                           \
                __m512 v = acc[o][j];                                                                                \
                if (res != NULL) {                                                                                   \
                    v = _mm512_add_ps(v, _mm512_loadu_ps(res + o * ycs + j * 16));                                   \
                }                                                                                                    \
                _mm512_storeu_ps(y + o * ycs + j * 16, v);                                                           \
            }                                                                                                        \
        }                                                                                                            \
    }

#define PW_ROW(OB) PW_TILE(OB, 1) PW_TILE(OB, 2) PW_TILE(OB, 3) PW_TILE(OB, 4) PW_TILE(OB, 5) PW_TILE(OB, 6)
PW_ROW(1)
PW_ROW(2)
PW_ROW(3)
PW_ROW(4)

typedef void (*pw_tile_fn)(const float *x, int64_t xcs, const int32_t *off, const int32_t *shift, int64_t icbs,
                           int64_t r0, int64_t r1, const float *w, const float *bias, const float *res, float *y,
                           int64_t ycs, const char *pf);

#define PW_FNS(OB) {pw_##OB##x1, pw_##OB##x2, pw_##OB##x3, pw_##OB##x4, pw_##OB##x5, pw_##OB##x6}
static const pw_tile_fn k_tiles[OA_KPW_MAX_OB][OA_KPW_MAX_NP] = {PW_FNS(1), PW_FNS(2), PW_FNS(3), PW_FNS(4)};

void oa_kpw_avx512(const oa_kpw_tile *t, const float *bias, const float *res, float *y, const void *pf)
{
    if (t->ob < 1 || t->ob > OA_KPW_MAX_OB || t->np < 1 || t->np > OA_KPW_MAX_NP || t->icbs < 1) {
        return; /* conv_pw.c never asks for more */
    }
    k_tiles[t->ob - 1][t->np - 1](t->x, t->xcs, t->off, t->shift, t->icbs, t->r0, t->r1, t->w, bias, res, y, t->ycs,
                                  (const char *)pf);
}

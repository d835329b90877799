/*
 * AVX-512F tile of the pointwise (1x1) convolution on 16-channel blocks
 * (conv_pw.c): ob output channel blocks (1..4) x np output pixels (1..7),
 * up to 28 accumulators, summed over ic input channels. Per input channel
 * the ob filter vectors are loaded once and each pixel's input value is
 * broadcast once, so a step is ob*np FMAs for ob + np loads (oneDNN's 1x1
 * kernel, which conv.c otherwise uses, has the same shape).
 *
 * What it adds: each step also prefetches one cache line of pf, the next
 * tile group's filter, so that filters streamed from memory (ResNet-50's
 * last stage: 4-8 MiB per layer, none of it in cache when the layer
 * starts) arrive while this group computes (bench/KERNELS.md "Pointwise
 * convolutions on small planes").
 *
 * Contract (all in floats):
 *   x    image's input at channel block 0; input block k starts at x + k * xcs
 *   off  the np pixels' offsets in an input block (pixel index * 16)
 *   w    filter [ic][ob][16]
 *   bias ob * 16 values
 *   res  NULL, or a residual laid out as y: added before the store (it may be y itself)
 *   y    output at the tile's first block and pixel; block o at y + o * ycs, pixels 16 apart
 *   pf   NULL, or ic cache lines to prefetch (64 bytes apart)
 */
#include <immintrin.h>

#include "kernels/kernel_internal.h"

#define PW_TILE(OB, NP)                                                                                               \
    static void pw_##OB##x##NP(const float *x, int64_t xcs, const int32_t *off, const float *w, int64_t ic,         \
                               const float *bias, const float *res, float *y, int64_t ycs, const char *pf)        \
    {                                                                                                                \
        __m512 acc[OB][NP];                                                                                          \
        for (int o = 0; o < OB; o++) {                                                                               \
            const __m512 b = _mm512_loadu_ps(bias + o * 16);                                                         \
            for (int j = 0; j < NP; j++) {                                                                           \
                acc[o][j] = b;                                                                                       \
            }                                                                                                        \
        }                                                                                                            \
        int32_t po[NP];                                                                                              \
        for (int j = 0; j < NP; j++) {                                                                               \
            po[j] = off[j];                                                                                          \
        }                                                                                                            \
        for (int64_t c = 0; c < ic; c++) {                                                                           \
            const float *wc = w + c * (OB * 16);                                                                     \
            __m512 wv[OB];                                                                                           \
            for (int o = 0; o < OB; o++) {                                                                           \
                wv[o] = _mm512_loadu_ps(wc + o * 16);                                                                \
            }                                                                                                        \
            if (pf != NULL) {                                                                                        \
                _mm_prefetch(pf + c * 64, _MM_HINT_T1);                                                              \
            }                                                                                                        \
            const float *xc = x + (c >> 4) * xcs + (c & 15);                                                         \
            _Pragma("GCC unroll 8") for (int j = 0; j < NP; j++)                                                     \
            {                                                                                                        \
                const __m512 xv = _mm512_set1_ps(xc[po[j]]);                                                         \
                for (int o = 0; o < OB; o++) {                                                                       \
                    acc[o][j] = _mm512_fmadd_ps(xv, wv[o], acc[o][j]);                                               \
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

#define PW_ROW(OB) PW_TILE(OB, 1) PW_TILE(OB, 2) PW_TILE(OB, 3) PW_TILE(OB, 4) PW_TILE(OB, 5) PW_TILE(OB, 6) PW_TILE(OB, 7)
PW_ROW(1)
PW_ROW(2)
PW_ROW(3)
PW_ROW(4)

typedef void (*pw_tile_fn)(const float *x, int64_t xcs, const int32_t *off, const float *w, int64_t ic,
                           const float *bias, const float *res, float *y, int64_t ycs, const char *pf);

#define PW_FNS(OB) {pw_##OB##x1, pw_##OB##x2, pw_##OB##x3, pw_##OB##x4, pw_##OB##x5, pw_##OB##x6, pw_##OB##x7}
static const pw_tile_fn k_tiles[4][7] = {PW_FNS(1), PW_FNS(2), PW_FNS(3), PW_FNS(4)};

void oa_kpw_avx512(const float *x, int64_t xcs, const int32_t *off, int np, const float *w, int64_t ic, int ob,
                   const float *bias, const float *res, float *y, int64_t ycs, const void *pf)
{
    if (ob < 1 || ob > OA_KPW_MAX_OB || np < 1 || np > OA_KPW_MAX_NP) {
        return; /* conv_pw.c never asks for more */
    }
    k_tiles[ob - 1][np - 1](x, xcs, off, w, ic, bias, res, y, ycs, (const char *)pf);
}

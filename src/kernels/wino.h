/*
 * Winograd F(m x m, 3x3) building blocks (simd/wino_avx2.c) used by the
 * NCHWc conv path in conv.c. The transforms take 8 channels at a time: an
 * 8-channel block, or either half of a 16-channel block (AVX-512 CPUs);
 * consecutive pixels are `ps` (the block) floats apart. A transformed tile
 * is (m+2)^2 vectors of 8, `tstride` floats apart.
 */
#ifndef OA_KERNELS_WINO_H
#define OA_KERNELS_WINO_H

#include <stdint.h>

enum { OA_KWINO_ADD = 1, OA_KWINO_RELU = 2 };

/*
 * The GEMMs read the transformed filters (up to 4x the layer's weights) once
 * per chunk as one sequential stream, on small planes (ResNet's 14x14 and
 * 7x7) from DRAM; the hardware prefetcher alone left them waiting on memory
 * (bench/KERNELS.md, "Winograd filter prefetch"). Each k step reads one
 * 64-byte line of filters and asks for the line this many bytes ahead.
 */
enum { OA_KWINO_PREFETCH = 8192 };

/* Post-ops the output transform applies itself: residual adds and ReLU. */
typedef struct oa_kwino_post {
    int n;
    int kind[8]; /* OA_KWINO_ADD / OA_KWINO_RELU */
    int res[8];  /* ADD: index into the residual pointer list */
} oa_kwino_post;

/* Input tile with top-left corner (iy0, ix0) (may lie in the padding) of an
 * [H][W][ps] plane (8 channels read at each pixel); out-of-image pixels read as 0. */
void oa_kwino_in_avx2(int m, const float *x, int64_t H, int64_t W, int64_t ps, int64_t iy0, int64_t ix0, float *v,
                      int64_t tstride);
/* The same for a whole 16-channel block (AVX-512 CPUs, simd/wino_avx512.c): pixels 16 floats
 * apart, 16 channels written per transformed point. */
void oa_kwino_in_avx512(int m, const float *x, int64_t H, int64_t W, int64_t iy0, int64_t ix0, float *v,
                        int64_t tstride);
/* Output tile: nr x nc pixels (clipped) written at y (row stride ow pixels of
 * ps floats, 8 written per pixel), plus bias[8] and the post-ops; res[i]
 * points at the same pixel as y, same layout. */
void oa_kwino_out_avx2(int m, const float *mt, int64_t tstride, const float *bias, float *y, int64_t ow, int64_t ps,
                       int nr, int nc, const oa_kwino_post *post, const float *const *res);
/* nt <= 6 tiles x 16 output channels: m0/m1 [nt][8] = v[nt rows of stride vs][k] * u[k][16]
 * (m1 NULL: only 8 channels are stored). */
void oa_kwino_gemm_avx2(const float *u, const float *v, int64_t k, int64_t vs, int nt, float *m0, float *m1);
/* nt <= 12 tiles x 16 output channels in 512-bit registers (simd/wino_avx512.c), both halves stored. */
void oa_kwino_gemm_avx512(const float *u, const float *v, int64_t k, int64_t vs, int nt, float *m0, float *m1);
/* The same for two columns of 16 output channels, u and u + us: the four 8-channel halves at m + h * ms. */
void oa_kwino_gemm2_avx512(const float *u, int64_t us, const float *v, int64_t k, int64_t vs, int nt, float *m,
                           int64_t ms);

#endif /* OA_KERNELS_WINO_H */

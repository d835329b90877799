/*
 * AVX2/FMA few-position convolution GEMV (kernels/conv_gemv.h): 8-channel
 * blocks, tiles of 3 blocks x 4 columns (12 accumulators, 3 filter vectors
 * and a broadcast in the 16 ymm registers).
 */
#include <immintrin.h>

#include "kernels/conv_gemv.h"

#define VEC __m256
#define VLOAD(p) _mm256_loadu_ps(p)
#define VSTORE(p, v) _mm256_storeu_ps((p), (v))
#define VSET1(f) _mm256_set1_ps(f)
#define VFMA(a, b, c) _mm256_fmadd_ps((a), (b), (c))
#define BLK 8
#define NBM 3
#define CGEMV_NAME oa_kcgemv_avx2
#include "cgemv_impl.inc"

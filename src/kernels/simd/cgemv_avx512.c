/*
 * AVX-512F few-position convolution GEMV (kernels/conv_gemv.h): 16-channel
 * blocks, tiles of 4 blocks x 4 columns (16 of the 32 zmm registers).
 */
#include <immintrin.h>

#include "kernels/conv_gemv.h"

#define VEC __m512
#define VLOAD(p) _mm512_loadu_ps(p)
#define VSTORE(p, v) _mm512_storeu_ps((p), (v))
#define VSET1(f) _mm512_set1_ps(f)
#define VFMA(a, b, c) _mm512_fmadd_ps((a), (b), (c))
#define BLK 16
#define NBM 4
#define CGEMV_NAME oa_kcgemv_avx512
#include "cgemv_impl.inc"

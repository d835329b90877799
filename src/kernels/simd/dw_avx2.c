/* AVX2 build of the depthwise row kernel (dw_impl.inc): 8-channel blocks. */
#include <immintrin.h>

#include "kernels/kernel_internal.h"

#define VW 8
#define VT __m256
#define VLOAD(p) _mm256_loadu_ps(p)
#define VSTORE(p, v) _mm256_storeu_ps((p), (v))
#define VFMA(a, b, c) _mm256_fmadd_ps((a), (b), (c))
#define AV_T __m256
#define AV_SET1(s) _mm256_set1_ps(s)
#define AV_MAX(a, b) _mm256_max_ps((a), (b))
#define AV_MIN(a, b) _mm256_min_ps((a), (b))
#define AV_MUL(a, b) _mm256_mul_ps((a), (b))
#define AV_FMA(a, b, c) _mm256_fmadd_ps((a), (b), (c))
#define AV_LEAKY(x, a) _mm256_blendv_ps((x), _mm256_mul_ps((x), (a)), _mm256_cmp_ps((x), _mm256_setzero_ps(), _CMP_LT_OQ))
#define DW_NP 8 /* pixels per register block (16 registers) */
#define DW_NAME oa_kdw_avx2

#include "kernels/simd/dw_impl.inc"

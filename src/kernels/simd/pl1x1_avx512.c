/* AVX-512F NCHW 1x1 convolution tile (contract in simd/pl1x1_impl.inc): 6 output channels x 4 vectors of 16
 * pixels, 24 accumulators. */
#include <immintrin.h>

#include "kernels/kernel_internal.h"

#define PL_NAME oa_kpl1x1_avx512
#define PL_V __m512
#define PL_L 16
#define PL_OB 6
#define PL_PV 4
#define PL_LOAD(p) _mm512_loadu_ps(p)
#define PL_STORE(p, v) _mm512_storeu_ps((p), (v))
#define PL_SET1(f) _mm512_set1_ps(f)
#define PL_FMA(a, b, c) _mm512_fmadd_ps((a), (b), (c))
#define PL_MLOAD(p, n) _mm512_maskz_loadu_ps((__mmask16)((1u << (n)) - 1u), (p))
#define PL_MSTORE(p, v, n) _mm512_mask_storeu_ps((p), (__mmask16)((1u << (n)) - 1u), (v))

#define AV_T __m512
#define AV_SET1(s) _mm512_set1_ps(s)
#define AV_MAX(a, b) _mm512_max_ps((a), (b))
#define AV_MIN(a, b) _mm512_min_ps((a), (b))
#define AV_MUL(a, b) _mm512_mul_ps((a), (b))
#define AV_FMA(a, b, c) _mm512_fmadd_ps((a), (b), (c))
#define AV_LEAKY(x, a) _mm512_mask_mul_ps((x), _mm512_cmp_ps_mask((x), _mm512_setzero_ps(), _CMP_LT_OQ), (x), (a))

#include "kernels/simd/pl1x1_impl.inc"

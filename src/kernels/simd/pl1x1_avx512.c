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

#include "kernels/simd/acts_avx512.inc"

#include "kernels/simd/pl1x1_impl.inc"

/* AVX-512F NCHW depthwise plane (contract in simd/dwpl_impl.inc): 4 vectors of 16 output columns per step
 * (4 FMA chains). */
#include <immintrin.h>

#include "kernels/kernel_internal.h"

static inline __m512 dp_even512(const float *p)
{
    static const int32_t idx[16] = {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30};
    return _mm512_permutex2var_ps(_mm512_loadu_ps(p), _mm512_loadu_si512(idx), _mm512_loadu_ps(p + 16));
}

#define DP_NAME oa_kdwpl_avx512
#define DP_V __m512
#define DP_L 16
#define DP_NV 4
#define DP_LOAD(p) _mm512_loadu_ps(p)
#define DP_SET1(f) _mm512_set1_ps(f)
#define DP_FMA(a, b, c) _mm512_fmadd_ps((a), (b), (c))
#define DP_STORE(p, v) _mm512_storeu_ps((p), (v))
#define DP_MLOAD(p, n) _mm512_maskz_loadu_ps((__mmask16)((1u << (n)) - 1u), (p))
#define DP_MSTORE(p, v, n) _mm512_mask_storeu_ps((p), (__mmask16)((1u << (n)) - 1u), (v))
#define DP_EVEN(p) dp_even512(p)

#include "kernels/simd/acts_avx512.inc"

#include "kernels/simd/dwpl_impl.inc"

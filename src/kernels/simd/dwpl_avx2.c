/* AVX2+FMA NCHW depthwise plane (contract in simd/dwpl_impl.inc): 4 vectors of 8 output columns per step
 * (4 FMA chains). */
#include <immintrin.h>

#include "kernels/kernel_internal.h"

/* the even elements of 16 floats: per 128-bit lane shuffle, then the two middle quarters swapped */
static inline __m256 dp_even256(const float *p)
{
    const __m256 e = _mm256_shuffle_ps(_mm256_loadu_ps(p), _mm256_loadu_ps(p + 8), _MM_SHUFFLE(2, 0, 2, 0));
    return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(e), _MM_SHUFFLE(3, 1, 2, 0)));
}

#include "kernels/simd/acts_avx2.inc"

#define DP_NAME oa_kdwpl_avx2
#define DP_V __m256
#define DP_L 8
#define DP_NV 4
#define DP_LOAD(p) _mm256_loadu_ps(p)
#define DP_SET1(f) _mm256_set1_ps(f)
#define DP_FMA(a, b, c) _mm256_fmadd_ps((a), (b), (c))
#define DP_STORE(p, v) _mm256_storeu_ps((p), (v))
#define DP_MLOAD(p, n) _mm256_maskload_ps((p), avx2_first_lanes(n))
#define DP_MSTORE(p, v, n) _mm256_maskstore_ps((p), avx2_first_lanes(n), (v))
#define DP_EVEN(p) dp_even256(p)

#include "kernels/simd/dwpl_impl.inc"

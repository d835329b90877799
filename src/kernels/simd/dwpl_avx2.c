/* AVX2+FMA NCHW depthwise plane (contract in simd/dwpl_impl.inc): 8 vectors of 8 output columns per step (8 FMA chains). */
#include <immintrin.h>

#include "kernels/kernel_internal.h"

/* the even elements of 16 floats: per 128-bit lane shuffle, then the two middle quarters swapped */
static inline __m256 dp_even256(const float *p)
{
    const __m256 e = _mm256_shuffle_ps(_mm256_loadu_ps(p), _mm256_loadu_ps(p + 8), _MM_SHUFFLE(2, 0, 2, 0));
    return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(e), _MM_SHUFFLE(3, 1, 2, 0)));
}

/* lanes [0, n) of a maskload / maskstore mask */
static inline __m256i dp_mask256(int64_t n)
{
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

#define DP_NAME oa_kdwpl_avx2
#define DP_V __m256
#define DP_L 8
#define DP_NV 8
#define DP_LOAD(p) _mm256_loadu_ps(p)
#define DP_SET1(f) _mm256_set1_ps(f)
#define DP_FMA(a, b, c) _mm256_fmadd_ps((a), (b), (c))
#define DP_STORE(p, v) _mm256_storeu_ps((p), (v))
#define DP_MLOAD(p, n) _mm256_maskload_ps((p), dp_mask256(n))
#define DP_MSTORE(p, v, n) _mm256_maskstore_ps((p), dp_mask256(n), (v))
#define DP_EVEN(p) dp_even256(p)

#define AV_T __m256
#define AV_SET1(s) _mm256_set1_ps(s)
#define AV_MAX(a, b) _mm256_max_ps((a), (b))
#define AV_MIN(a, b) _mm256_min_ps((a), (b))
#define AV_MUL(a, b) _mm256_mul_ps((a), (b))
#define AV_FMA(a, b, c) _mm256_fmadd_ps((a), (b), (c))
#define AV_LEAKY(x, a) _mm256_blendv_ps((x), _mm256_mul_ps((x), (a)), _mm256_cmp_ps((x), _mm256_setzero_ps(), _CMP_LT_OQ))

#include "kernels/simd/dwpl_impl.inc"

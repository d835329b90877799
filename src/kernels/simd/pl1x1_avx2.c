/* AVX2+FMA NCHW 1x1 convolution tile (contract in simd/pl1x1_impl.inc): 4 output channels x 3 vectors of 8
 * pixels, 12 accumulators of the 16 registers. */
#include <immintrin.h>

#include "kernels/kernel_internal.h"

/* lanes [0, n) of a maskload / maskstore mask */
static inline __m256i pl_mask(int64_t n)
{
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

#define PL_NAME oa_kpl1x1_avx2
#define PL_V __m256
#define PL_L 8
#define PL_OB 4
#define PL_PV 3
#define PL_LOAD(p) _mm256_loadu_ps(p)
#define PL_STORE(p, v) _mm256_storeu_ps((p), (v))
#define PL_SET1(f) _mm256_set1_ps(f)
#define PL_FMA(a, b, c) _mm256_fmadd_ps((a), (b), (c))
#define PL_MLOAD(p, n) _mm256_maskload_ps((p), pl_mask(n))
#define PL_MSTORE(p, v, n) _mm256_maskstore_ps((p), pl_mask(n), (v))

#define AV_T __m256
#define AV_SET1(s) _mm256_set1_ps(s)
#define AV_MAX(a, b) _mm256_max_ps((a), (b))
#define AV_MIN(a, b) _mm256_min_ps((a), (b))
#define AV_MUL(a, b) _mm256_mul_ps((a), (b))
#define AV_FMA(a, b, c) _mm256_fmadd_ps((a), (b), (c))
#define AV_LEAKY(x, a) _mm256_blendv_ps((x), _mm256_mul_ps((x), (a)), _mm256_cmp_ps((x), _mm256_setzero_ps(), _CMP_LT_OQ))

#include "kernels/simd/pl1x1_impl.inc"

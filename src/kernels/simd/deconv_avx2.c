/* AVX2+FMA build of the direct 2x2 / stride-2 transposed convolution (deconv_impl.inc). */
#include <immintrin.h>

#include "kernels/kernel_internal.h"

#define VW 8
#define VT __m256
#define VMAXNC 3 /* 12 accumulators of the 16 ymm registers */
#define VMASK __m256i
#define VZERO() _mm256_setzero_ps()
#define VSET1(s) _mm256_set1_ps(s)
#define VLOAD(p) _mm256_loadu_ps(p)
#define VSTORE(p, v) _mm256_storeu_ps((p), (v))
#define VLOADM(mk, p) _mm256_maskload_ps((p), (mk))
#define VSTOREM(p, mk, v) _mm256_maskstore_ps((p), (mk), (v))
#define VFMA(a, b, c) _mm256_fmadd_ps((a), (b), (c))
#define DC_NAME oa_kdeconv2x2_avx2

/* lanes of the first n (clamped to 0..8) set */
static inline __m256i VMK(int64_t n)
{
    static const int32_t t[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
    n = n < 0 ? 0 : n > 8 ? 8 : n;
    return _mm256_loadu_si256((const __m256i *)(const void *)(t + 8 - n));
}

/* lo = a0 b0 a1 b1 a2 b2 a3 b3, hi = a4 b4 ... a7 b7 */
#define VZIP(a, b, lo, hi)                                                                                         \
    do {                                                                                                           \
        __m256 ul = _mm256_unpacklo_ps((a), (b)), uh = _mm256_unpackhi_ps((a), (b));                              \
        (lo) = _mm256_permute2f128_ps(ul, uh, 0x20);                                                               \
        (hi) = _mm256_permute2f128_ps(ul, uh, 0x31);                                                               \
    } while (0)

#include "kernels/simd/deconv_impl.inc"

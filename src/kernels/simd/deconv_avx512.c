/* AVX-512F build of the direct 2x2 / stride-2 transposed convolution (deconv_impl.inc). */
#include <immintrin.h>

#include "kernels/kernel_internal.h"

#define VW 16
#define VT __m512
#define VMAXNC 4
#define VMASK __mmask16
#define VZERO() _mm512_setzero_ps()
#define VSET1(s) _mm512_set1_ps(s)
#define VLOAD(p) _mm512_loadu_ps(p)
#define VSTORE(p, v) _mm512_storeu_ps((p), (v))
#define VLOADM(mk, p) _mm512_maskz_loadu_ps((mk), (p))
#define VSTOREM(p, mk, v) _mm512_mask_storeu_ps((p), (mk), (v))
#define VFMA(a, b, c) _mm512_fmadd_ps((a), (b), (c))
#define DC_NAME oa_kdeconv2x2_avx512

/* lanes of the first n (clamped to 0..16) */
static inline __mmask16 VMK(int64_t n)
{
    return n >= 16 ? (__mmask16)0xFFFF : n <= 0 ? (__mmask16)0 : (__mmask16)((1u << (unsigned)n) - 1u);
}

/* lo = a0 b0 a1 b1 ... a7 b7, hi = a8 b8 ... a15 b15 */
#define VZIP(a, b, lo, hi)                                                                                         \
    do {                                                                                                           \
        const __m512i il = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);            \
        const __m512i ih = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);      \
        (lo) = _mm512_permutex2var_ps((a), il, (b));                                                               \
        (hi) = _mm512_permutex2var_ps((a), ih, (b));                                                               \
    } while (0)

#include "kernels/simd/deconv_impl.inc"

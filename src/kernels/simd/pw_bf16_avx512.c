/*
 * AVX512-BF16 build of the streamed-filter tile (pw_impl.inc; contract in
 * pw_avx512.c) for bf16 requests (docs/precision.md): a reduction step is a
 * pair of input channels, x and the filter hold bf16 pairs (the first channel
 * in the low half), offsets count 32-bit pairs, and VDPBF16PS adds both
 * products of a pair to the f32 accumulators.
 */
#include <immintrin.h>
#include <string.h>

#include "kernels/kernel_internal.h"

static inline __m512bh pw_bcast_pair(const float *p)
{
    int32_t v;
    memcpy(&v, p, sizeof v); /* two bf16 values, read as one 32-bit element */
    return (__m512bh)_mm512_set1_epi32(v);
}

#define PW_NAME oa_kpw_bf16_avx512
#define PW_WT __m512bh
#define PW_WLOAD(p) ((__m512bh)_mm512_loadu_si512(p))
#define PW_BCAST(p) pw_bcast_pair(p)
#define PW_MAC(a, x, w) _mm512_dpbf16_ps((a), (x), (w))

#include "kernels/simd/pw_impl.inc"

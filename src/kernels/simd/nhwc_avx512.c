/*
 * AVX-512F: a conv slice's dense NHWC output back into NCHWc (16-channel
 * blocks), with a residual add and simple activations (acts_impl.inc) applied
 * in registers on the way (conv.c, the NHWC oneDNN paths).
 */
#include <immintrin.h>

#include "kernels/kernel_internal.h"

#include "kernels/simd/acts_avx512.inc"

void oa_knhwc_to_blk16_avx512(const float *ys, int64_t soc, int64_t ohw, float *y, const float *res,
                              const oa_kacts *acts)
{
    const int64_t blocks = soc / 16, plane = ohw * 16;
    for (int64_t q = 0; q < ohw; q++) {
        const float *src = ys + q * soc;
        for (int64_t k = 0; k < blocks; k++) {
            const int64_t at = k * plane + q * 16;
            __m512 v = _mm512_loadu_ps(src + k * 16);
            if (res != NULL) { /* read before y's element is written: res may be y */
                v = _mm512_add_ps(v, _mm512_loadu_ps(res + at));
            }
            acts_apply(&v, 1, acts);
            _mm512_storeu_ps(y + at, v);
        }
    }
}

/*
 * f32 -> bf16 with round-to-nearest-even (VCVTNEPS2BF16), 16 values per
 * instruction, masked tail; and the same from NCHWc (16-channel blocks) into
 * NHWC rows. Compiled with AVX512-BF16; called only when the CPU has it
 * (lowp.c).
 */
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

void oa_kbf16_from_f32_avx512(const float *x, uint16_t *y, size_t n);
void oa_kbf16_blk16_to_nhwc_avx512(const float *x, uint16_t *y, int64_t cb, int64_t hw, int64_t q0, int64_t q1);

void oa_kbf16_from_f32_avx512(const float *x, uint16_t *y, size_t n)
{
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m512bh h = _mm512_cvtne2ps_pbh(_mm512_loadu_ps(x + i + 16), _mm512_loadu_ps(x + i));
        _mm512_storeu_si512((void *)(y + i), (__m512i)h);
    }
    for (; i < n; i += 16) {
        const size_t left = n - i < 16 ? n - i : 16;
        const __mmask16 m = (__mmask16)((1u << left) - 1u);
        __m256bh h = _mm512_cvtneps_pbh(_mm512_maskz_loadu_ps(m, x + i));
        _mm256_mask_storeu_epi16((void *)(y + i), m, (__m256i)h);
    }
}

/* Pixels [q0, q1) of one image: x holds cb blocks of hw pixels x 16 channels, y is NHWC with cb * 16 channels. */
void oa_kbf16_blk16_to_nhwc_avx512(const float *x, uint16_t *y, int64_t cb, int64_t hw, int64_t q0, int64_t q1)
{
    for (int64_t q = q0; q < q1; q++) {
        uint16_t *yq = y + q * cb * 16;
        int64_t k = 0;
        for (; k + 2 <= cb; k += 2) {
            __m512bh h = _mm512_cvtne2ps_pbh(_mm512_loadu_ps(x + ((k + 1) * hw + q) * 16),
                                             _mm512_loadu_ps(x + (k * hw + q) * 16));
            _mm512_storeu_si512((void *)(yq + k * 16), (__m512i)h);
        }
        if (k < cb) {
            __m256bh h = _mm512_cvtneps_pbh(_mm512_loadu_ps(x + (k * hw + q) * 16));
            _mm256_storeu_si256((void *)(yq + k * 16), (__m256i)h);
        }
    }
}

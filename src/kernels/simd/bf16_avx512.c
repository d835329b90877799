/*
 * f32 -> bf16 with round-to-nearest-even (VCVTNEPS2BF16), 16 values per
 * instruction, masked tail. Compiled with AVX512-BF16; called only when the
 * CPU has it (lowp.c).
 */
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

void oa_kbf16_from_f32_avx512(const float *x, uint16_t *y, size_t n);

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

/*
 * AVX-512F row-dot GEMV, y[r] += A[r,:] . x (A row-major, rows x k): the
 * AVX-512 counterpart of gemv_avx2.c for CommonLSTM's recurrent products.
 * Eight rows at a time share each 16-float load of x; the k % 16 tail is one
 * masked load (masked-out lanes are not read), so no scalar tail loop.
 */
#include <immintrin.h>

#include "kernels/kernel_internal.h"

void oa_kgemv_avx512(const float *A, int64_t rows, int64_t k, const float *x, float *y)
{
    const int64_t k16 = k & ~(int64_t)15;
    const __mmask16 tail = (__mmask16)((1u << (unsigned)(k - k16)) - 1u);
    int64_t r = 0;
    for (; r + 8 <= rows; r += 8) {
        const float *a = A + r * k;
        __m512 s[8];
        for (int q = 0; q < 8; q++) {
            s[q] = _mm512_setzero_ps();
        }
        for (int64_t i = 0; i < k16; i += 16) {
            __m512 xv = _mm512_loadu_ps(x + i);
            for (int q = 0; q < 8; q++) {
                s[q] = _mm512_fmadd_ps(_mm512_loadu_ps(a + q * k + i), xv, s[q]);
            }
        }
        if (tail != 0) {
            __m512 xv = _mm512_maskz_loadu_ps(tail, x + k16);
            for (int q = 0; q < 8; q++) {
                s[q] = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(tail, a + q * k + k16), xv, s[q]);
            }
        }
        for (int q = 0; q < 8; q++) {
            y[r + q] += _mm512_reduce_add_ps(s[q]);
        }
    }
    for (; r < rows; r++) {
        const float *a = A + r * k;
        __m512 s = _mm512_setzero_ps();
        for (int64_t i = 0; i < k16; i += 16) {
            s = _mm512_fmadd_ps(_mm512_loadu_ps(a + i), _mm512_loadu_ps(x + i), s);
        }
        if (tail != 0) {
            s = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(tail, a + k16), _mm512_maskz_loadu_ps(tail, x + k16), s);
        }
        y[r] += _mm512_reduce_add_ps(s);
    }
}

/*
 * AVX2+FMA row-dot GEMV, y[r] += A[r,:] . x (A row-major, rows x k): the
 * recurrent kernels' small matrix-vector products (CommonLSTM's gates),
 * where a GEMM call costs more than the work. Eight rows at a time share
 * each load of x and give eight independent FMA chains.
 */
#include <immintrin.h>

#include "kernels/kernel_internal.h"

/* The four lane sums of a..d as one vector [sum a, sum b, sum c, sum d]. */
static inline __m128 hsum4(__m256 a, __m256 b, __m256 c, __m256 d)
{
    __m256 h = _mm256_hadd_ps(_mm256_hadd_ps(a, b), _mm256_hadd_ps(c, d));
    return _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
}

void oa_kgemv_avx2(const float *A, int64_t rows, int64_t k, const float *x, float *y)
{
    const int64_t k8 = k & ~(int64_t)7;
    int64_t r = 0;
    for (; r + 8 <= rows; r += 8) {
        const float *a = A + r * k;
        __m256 s[8];
        for (int q = 0; q < 8; q++) {
            s[q] = _mm256_setzero_ps();
        }
        for (int64_t i = 0; i < k8; i += 8) {
            __m256 xv = _mm256_loadu_ps(x + i);
            for (int q = 0; q < 8; q++) {
                s[q] = _mm256_fmadd_ps(_mm256_loadu_ps(a + q * k + i), xv, s[q]);
            }
        }
        float t[8];
        _mm_storeu_ps(t, hsum4(s[0], s[1], s[2], s[3]));
        _mm_storeu_ps(t + 4, hsum4(s[4], s[5], s[6], s[7]));
        for (int64_t i = k8; i < k; i++) {
            for (int q = 0; q < 8; q++) {
                t[q] += a[q * k + i] * x[i];
            }
        }
        for (int q = 0; q < 8; q++) {
            y[r + q] += t[q];
        }
    }
    for (; r < rows; r++) {
        const float *a = A + r * k;
        __m256 s = _mm256_setzero_ps();
        for (int64_t i = 0; i < k8; i += 8) {
            s = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(x + i), s);
        }
        float t[4];
        _mm_storeu_ps(t, hsum4(s, _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()));
        float acc = t[0];
        for (int64_t i = k8; i < k; i++) {
            acc += a[i] * x[i];
        }
        y[r] += acc;
    }
}

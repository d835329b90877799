/* AVX2+FMA build of the stem convolution (stem_impl.inc): 8-channel blocks. */
#include <immintrin.h>

#include "kernels/kernel_internal.h"

#define VW 8
#define VT __m256
#define VSET1(s) _mm256_set1_ps(s)
#define VLOAD(p) _mm256_loadu_ps(p)
#define VSTORE(p, v) _mm256_storeu_ps((p), (v))
#define VFMA(a, b, c) _mm256_fmadd_ps((a), (b), (c))
#define STEM_NP 12 /* pixels per register block (16 registers) */
#define STEM_NAME oa_kstem_avx2

#include "kernels/simd/stem_impl.inc"

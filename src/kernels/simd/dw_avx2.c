/* AVX2 build of the depthwise row kernel (dw_impl.inc): 8-channel blocks. */
#include <immintrin.h>

#include "kernels/kernel_internal.h"

#define VW 8
#define VT __m256
#define VLOAD(p) _mm256_loadu_ps(p)
#define VSTORE(p, v) _mm256_storeu_ps((p), (v))
#define VFMA(a, b, c) _mm256_fmadd_ps((a), (b), (c))
#define DW_NP 8 /* pixels per register block (16 registers) */
#define DW_NAME oa_kdw_avx2

#include "kernels/simd/acts_avx2.inc"

#include "kernels/simd/dw_impl.inc"

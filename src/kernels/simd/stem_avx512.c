/* AVX-512F build of the stem convolution (stem_impl.inc): 16-channel blocks. */
#include <immintrin.h>

#include "kernels/kernel_internal.h"

#define VW 16
#define VT __m512
#define VSET1(s) _mm512_set1_ps(s)
#define VLOAD(p) _mm512_loadu_ps(p)
#define VSTORE(p, v) _mm512_storeu_ps((p), (v))
#define VFMA(a, b, c) _mm512_fmadd_ps((a), (b), (c))
#define STEM_NP 16 /* pixels per register block (32 registers) */
#define STEM_NAME oa_kstem_avx512

#include "kernels/simd/stem_impl.inc"

/* AVX-512F build of the depthwise row kernel (dw_impl.inc): 16-channel blocks. */
#include <immintrin.h>

#include "kernels/kernel_internal.h"

#define VW 16
#define VT __m512
#define VLOAD(p) _mm512_loadu_ps(p)
#define VSTORE(p, v) _mm512_storeu_ps((p), (v))
#define VFMA(a, b, c) _mm512_fmadd_ps((a), (b), (c))
#define DW_NP 16 /* pixels per register block (16 FMA chains; AVX2 has registers for 8) */
#define DW_NAME oa_kdw_avx512
#include "kernels/simd/acts_avx512.inc"

#include "kernels/simd/dw_impl.inc"

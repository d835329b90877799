/* AVX-512F build of the depthwise row kernel (dw_impl.inc): 16-channel blocks. */
#include <immintrin.h>

#include "kernels/kernel_internal.h"

#define VW 16
#define VT __m512
#define VLOAD(p) _mm512_loadu_ps(p)
#define VSTORE(p, v) _mm512_storeu_ps((p), (v))
#define VFMA(a, b, c) _mm512_fmadd_ps((a), (b), (c))
#define AV_T __m512
#define AV_SET1(s) _mm512_set1_ps(s)
#define AV_MAX(a, b) _mm512_max_ps((a), (b))
#define AV_MIN(a, b) _mm512_min_ps((a), (b))
#define AV_MUL(a, b) _mm512_mul_ps((a), (b))
#define AV_FMA(a, b, c) _mm512_fmadd_ps((a), (b), (c))
#define AV_LEAKY(x, a) _mm512_mask_mul_ps((x), _mm512_cmp_ps_mask((x), _mm512_setzero_ps(), _CMP_LT_OQ), (x), (a))
#define DW_NP 16 /* pixels per register block (16 FMA chains; AVX2 has registers for 8) */
#define DW_NAME oa_kdw_avx512

#include "kernels/simd/dw_impl.inc"

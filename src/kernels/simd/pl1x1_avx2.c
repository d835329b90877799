/* AVX2+FMA NCHW 1x1 convolution tile (contract in simd/pl1x1_impl.inc): 4 output channels x 3 vectors of 8
 * pixels, 12 accumulators of the 16 registers. */
#include <immintrin.h>

#include "kernels/kernel_internal.h"

#include "kernels/simd/acts_avx2.inc"

#define PL_NAME oa_kpl1x1_avx2
#define PL_V __m256
#define PL_L 8
#define PL_OB 4
#define PL_PV 3
#define PL_LOAD(p) _mm256_loadu_ps(p)
#define PL_STORE(p, v) _mm256_storeu_ps((p), (v))
#define PL_SET1(f) _mm256_set1_ps(f)
#define PL_FMA(a, b, c) _mm256_fmadd_ps((a), (b), (c))
#define PL_MLOAD(p, n) _mm256_maskload_ps((p), avx2_first_lanes(n))
#define PL_MSTORE(p, v, n) _mm256_maskstore_ps((p), avx2_first_lanes(n), (v))

#include "kernels/simd/pl1x1_impl.inc"

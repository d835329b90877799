/* AVX2+FMA build of the elementwise loops (compiled with -mavx2 -mfma -mf16c). */
#define OA_EW_TABLE oa_kew_avx2
#define OA_EW_POLY 1
#include "kernels/simd/ew_impl.inc"

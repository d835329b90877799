/* AVX-512F build of the elementwise loops (compiled with -mavx512f -mavx512bw -mavx512vl -mfma). */
#define OA_EW_TABLE oa_kew_avx512
#define OA_EW_POLY 1
#include "kernels/simd/ew_impl.inc"

/* Baseline (SSE2) build of the elementwise loops, libm transcendentals. */
#define OA_EW_TABLE oa_kew_ref
#include "kernels/simd/ew_impl.inc"

/* AVX2 build of the NCHW <-> NCHWc block moves (8x8 register transposes). */
#define OA_RO_PACK oa_kblk_pack_avx2
#define OA_RO_PACK_ROWS oa_kblk_pack_rows_avx2
#define OA_RO_UNPACK oa_kblk_unpack_avx2
#define OA_RO_T2D oa_kt2d_avx2
#define OA_RO_TO_ROWS oa_kblk_to_rows_avx2
#include "kernels/simd/reorder_impl.inc"

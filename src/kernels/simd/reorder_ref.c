/* Baseline build of the NCHW <-> NCHWc block moves. */
#define OA_RO_PACK oa_kblk_pack_ref
#define OA_RO_PACK_ROWS oa_kblk_pack_rows_ref
#define OA_RO_UNPACK oa_kblk_unpack_ref
#define OA_RO_T2D oa_kt2d_ref
#define OA_RO_TO_ROWS oa_kblk_to_rows_ref
#include "kernels/simd/reorder_impl.inc"

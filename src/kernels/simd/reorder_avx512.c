/* AVX-512 (F/BW/VL) build of the NCHW <-> NCHWc block moves (block 16 on these CPUs). */
#define OA_RO_PACK oa_kblk_pack_avx512
#define OA_RO_PACK_ROWS oa_kblk_pack_rows_avx512
#define OA_RO_UNPACK oa_kblk_unpack_avx512
#define OA_RO_T2D oa_kt2d_avx512
#define OA_RO_TO_ROWS oa_kblk_to_rows_avx512
#include "kernels/simd/reorder_impl.inc"

/*
 * AIPP (in-model image pre-processing): the parameter set of one AIPP block
 * (CANN's AippOpParams, field by field) and the one CPU kernel that applies it.
 *
 * The arithmetic (stage order, CSC fixed-point form, rounding, clamping,
 * fp16 rounding of the normalisation) is written down in docs/aipp.md; this
 * file and aipp.c follow it.
 */
#ifndef OA_KERNELS_AIPP_H
#define OA_KERNELS_AIPP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "kernels/threadpool.h"

/* aipp_mode (proto numbering). */
enum { OA_AIPP_MODE_UNDEFINED = 0, OA_AIPP_MODE_STATIC = 1, OA_AIPP_MODE_DYNAMIC = 2 };

/* input_format (proto / ACL numbering, docs/aipp.md "Input formats"). */
enum {
    OA_AIPP_FMT_UNDEFINED = 0,
    OA_AIPP_FMT_YUV420SP_U8 = 1,
    OA_AIPP_FMT_XRGB8888_U8 = 2,
    OA_AIPP_FMT_RGB888_U8 = 3,
    OA_AIPP_FMT_YUV400_U8 = 4,
    OA_AIPP_FMT_NC1HWC0DI_FP16 = 5,
    OA_AIPP_FMT_NC1HWC0DI_S8 = 6,
    OA_AIPP_FMT_ARGB8888_U8 = 7,
    OA_AIPP_FMT_YUYV_U8 = 8,
    OA_AIPP_FMT_YUV422SP_U8 = 9,
    OA_AIPP_FMT_AYUV444_U8 = 10,
    OA_AIPP_FMT_RAW10 = 11,
    OA_AIPP_FMT_RAW12 = 12,
    OA_AIPP_FMT_RAW16 = 13,
    OA_AIPP_FMT_RAW24 = 14,
    OA_AIPP_FMT_RGB16 = 15,
    OA_AIPP_FMT_RGB20 = 16,
    OA_AIPP_FMT_RGB24 = 17,
    OA_AIPP_FMT_RGB8_IR = 18,
    OA_AIPP_FMT_RGB16_IR = 19,
    OA_AIPP_FMT_RGB24_IR = 20,
    OA_AIPP_FMT_COUNT
};

#define OA_AIPP_MAX_EDGES 16
#define OA_AIPP_NAME_MAX 256

/* One aipp_op block. Repeated proto fields hold their first value. */
typedef struct oa_aipp_params {
    int32_t aipp_mode;
    uint32_t related_input_rank;
    char related_input_name[OA_AIPP_NAME_MAX]; /* "" = unset */
    uint32_t input_edge_idx[OA_AIPP_MAX_EDGES];
    uint32_t n_input_edge_idx;
    uint32_t max_src_image_size;
    bool support_rotation;
    int32_t input_format;
    bool csc_switch;
    float cpadding_value;
    bool rbuv_swap_switch;
    bool ax_swap_switch;
    bool single_line_mode;
    int32_t src_image_size_w, src_image_size_h;
    bool crop;
    int32_t load_start_pos_w, load_start_pos_h, crop_size_w, crop_size_h;
    bool resize;
    int32_t resize_output_w, resize_output_h;
    bool padding;
    int32_t left_padding_size, right_padding_size, top_padding_size, bottom_padding_size;
    float padding_value;
    int32_t mean_chn[4];
    float min_chn[4];
    float var_reci_chn[4];
    int32_t matrix[3][3]; /* matrix_r<r>c<c>, Q8: 256 = 1.0 */
    int32_t output_bias[3];
    int32_t input_bias[3];
    uint32_t raw_rgbir_to_f16_n;
} oa_aipp_params;

/* Bytes of one raw image of `fmt`, w x h (0 for formats the kernel does not read, or on overflow). */
size_t oa_aipp_image_bytes(int32_t fmt, int64_t w, int64_t h);

/* Name of an input_format value ("YUV420SP_U8"), NULL when out of range. */
const char *oa_aipp_format_name(int32_t fmt);

/* Output channels the kernel produces for `fmt` (1 for YUV400, 4 for the 4-byte formats, else 3; 0 unsupported). */
int oa_aipp_format_channels(int32_t fmt);

/*
 * Output height/width of p applied to an image of src_w x src_h:
 * crop size (or the source) plus the paddings.
 */
void oa_aipp_output_hw(const oa_aipp_params *p, int32_t src_w, int32_t src_h, int32_t *out_h, int32_t *out_w);

/*
 * Checks that p can be applied by oa_aipp_run to src_w x src_h images:
 * supported format, crop inside the image (even starts for the subsampled
 * formats), no resize (docs/aipp.md "Resize"), CSC off for YUV400.
 */
oa_status oa_aipp_check(const oa_aipp_params *p, int32_t src_w, int32_t src_h) OA_MUST_CHECK;

/*
 * Applies p to `batch` raw images (each oa_aipp_image_bytes(fmt, src_w, src_h)
 * bytes, back to back) and writes float32 into dst, NCHW (nhwc false) or NHWC,
 * with out_c channels (1..4, <= oa_aipp_format_channels) and the output H/W of
 * oa_aipp_output_hw. Rows are spread over pool (NULL: calling thread).
 */
oa_status oa_aipp_run(const oa_aipp_params *p, int32_t src_w, int32_t src_h, int64_t batch, const uint8_t *src,
                      int out_c, bool nhwc, float *dst, oa_threadpool *pool) OA_MUST_CHECK;

/*
 * As oa_aipp_run, written in the blocked layout NCHWc with one block of
 * `block` channels (kernels.h "Blocked layout"; block >= out_c): dst is
 * [batch][1][H][W][block], channels out_c..block-1 zero. This is what a
 * first convolution running on NCHWc reads, so no reorder is needed.
 */
oa_status oa_aipp_run_nchwc(const oa_aipp_params *p, int32_t src_w, int32_t src_h, int64_t batch,
                            const uint8_t *src, int out_c, int block, float *dst, oa_threadpool *pool) OA_MUST_CHECK;

/* The dynamic AIPP parameter block (the AippData input): a head and one part per image (docs/aipp.md). */
#define OA_AIPP_BLOCK_HEAD 64
#define OA_AIPP_BLOCK_IMAGE 96

/*
 * Decodes image `image` of a dynamic parameter block of len bytes into *out
 * (aipp_mode dynamic, src_image_size_w/h from the head, padding value 0).
 * OA_E_PARAM: block too short, image >= batchNum, unknown format code,
 * switches other than 0/1; OA_E_FEATURE_UNSUPPORTED: scf (resize) or rotation on.
 */
oa_status oa_aipp_params_from_block(const uint8_t *blk, size_t len, int64_t image, oa_aipp_params *out) OA_MUST_CHECK;

/*
 * Dynamic AIPP over `batch` images: image b uses image b of the parameter
 * block (format, CSC, swaps and source size from the head). Every image's
 * output H/W must equal image 0's and must be out_h x out_w (the model's
 * input after AIPP); src_w/src_h are the head's source size. OA_E_PARAM
 * otherwise, nothing written.
 */
oa_status oa_aipp_run_dynamic(const uint8_t *blk, size_t len, int64_t batch, const uint8_t *src, size_t src_len,
                              int out_c, int32_t out_h, int32_t out_w, bool nhwc, float *dst,
                              oa_threadpool *pool) OA_MUST_CHECK;

#endif /* OA_KERNELS_AIPP_H */

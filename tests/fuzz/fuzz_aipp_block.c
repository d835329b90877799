/*
 * libFuzzer harness for the dynamic AIPP parameter block (the AippData
 * input, src/kernels/aipp.c; docs/aipp.md "Dynamic parameter block") and the
 * kernel it drives. One input:
 *   byte 0   bit 0: NHWC output, bits 1-2: output channels - 1;
 *   byte 1   the batch the model runs (1 + value % 4);
 *   byte 2   the block's length: 64 + 96 * (value % 5) bytes, or what is left;
 *   then the block, then the images (the rest of the input).
 * Block and images are copied into buffers of exactly their length, so a
 * read past either is an AddressSanitizer report. Every image index of the
 * block is decoded (and one past batchNum), then oa_aipp_run_dynamic runs
 * into an output of exactly the size the model input after AIPP has (the
 * H/W image 0 of the block gives, as a model converted for it would).
 * Any status is fine; crashes, leaks, undefined behaviour and out-of-bounds
 * accesses are not.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "kernels/aipp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_OUT_FLOATS (1u << 20) /* keeps one run fast; the kernel's code is the same for larger outputs */

static uint8_t *copy(const uint8_t *p, size_t n)
{
    uint8_t *c = malloc(n ? n : 1);
    if (c != NULL && n) {
        memcpy(c, p, n);
    }
    return c;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3) {
        return 0;
    }
    const bool nhwc = data[0] & 1;
    const int out_c = 1 + ((data[0] >> 1) & 3);
    const int64_t batch = 1 + data[1] % 4;
    size_t blen = OA_AIPP_BLOCK_HEAD + OA_AIPP_BLOCK_IMAGE * (size_t)(data[2] % 5);
    data += 3;
    size -= 3;
    if (blen > size) {
        blen = size;
    }
    uint8_t *blk = copy(data, blen), *img = copy(data + blen, size - blen);
    if (blk == NULL || img == NULL) {
        free(blk);
        free(img);
        return 0;
    }
    oa_aipp_params p;
    int32_t oh = 2, ow = 2;
    for (int64_t i = 0; i <= 5; i++) {
        if (oa_aipp_params_from_block(blk, blen, i, &p) == OA_OK && i == 0 &&
            oa_aipp_check(&p, p.src_image_size_w, p.src_image_size_h) == OA_OK) {
            oa_aipp_output_hw(&p, p.src_image_size_w, p.src_image_size_h, &oh, &ow);
        }
    }
    if (oh > 0 && ow > 0 && (uint64_t)oh * (uint64_t)ow * (uint64_t)out_c * (uint64_t)batch <= MAX_OUT_FLOATS) {
        const size_t n = (size_t)oh * (size_t)ow * (size_t)out_c * (size_t)batch;
        float *dst = malloc(n * sizeof(float));
        if (dst != NULL) {
            (void)oa_aipp_run_dynamic(blk, blen, batch, img, size - blen, out_c, oh, ow, nhwc, dst, NULL);
            free(dst);
        }
    }
    free(blk);
    free(img);
    oa_error_clear();
    (void)oa_error_take_last();
    return 0;
}

/*
 * libFuzzer harness for the AIPP config reader (atc --insert_op_conf,
 * src/compiler/aipp_config.c; docs/aipp.md "Config file"). One input is the
 * config text, exactly `size` bytes (no terminating NUL, so a read past the
 * end is an AddressSanitizer report). A config the reader accepts then goes
 * where atc sends it: the model input it makes of a 4-D input (NCHW and
 * NHWC, the H/W its crop and padding give), and, for a static block the
 * kernel takes, the AIPP kernel itself on a small image of exactly the bytes
 * the format needs into an output of exactly the planned size (NCHW, NHWC
 * and the blocked NCHWc). Any status is fine; crashes, leaks, undefined
 * behaviour and out-of-bounds accesses are not.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "compiler/aipp_config.h"
#include "kernels/aipp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_IMAGE_BYTES (1u << 20) /* keeps one run fast; the kernel's code is the same for larger images */
#define MAX_OUT_FLOATS (1u << 20)

static void run_kernel(const oa_aipp_params *p, int32_t sw, int32_t sh, uint8_t fill)
{
    if (oa_aipp_check(p, sw, sh) != OA_OK) {
        return;
    }
    const size_t img = oa_aipp_image_bytes(p->input_format, sw, sh);
    int32_t oh = 0, ow = 0;
    oa_aipp_output_hw(p, sw, sh, &oh, &ow);
    const int oc = oa_aipp_format_channels(p->input_format);
    if (img == 0 || img > MAX_IMAGE_BYTES || oh <= 0 || ow <= 0 || oc <= 0 ||
        (uint64_t)oh * (uint64_t)ow * 8u > MAX_OUT_FLOATS) {
        return;
    }
    uint8_t *src = malloc(img);
    float *dst = malloc((size_t)oh * (size_t)ow * 8u * sizeof(float));
    if (src != NULL && dst != NULL) {
        for (size_t i = 0; i < img; i++) {
            src[i] = (uint8_t)(fill + i * 37u);
        }
        float *exact = malloc((size_t)oh * (size_t)ow * (size_t)oc * sizeof(float));
        if (exact != NULL) {
            (void)oa_aipp_run(p, sw, sh, 1, src, oc, false, exact, NULL);
            (void)oa_aipp_run(p, sw, sh, 1, src, oc, true, exact, NULL);
            free(exact);
        }
        (void)oa_aipp_run_nchwc(p, sw, sh, 1, src, oc, 8, dst, NULL);
    }
    free(src);
    free(dst);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static oa_aipp_config cfg;
    char *text = malloc(size ? size : 1); /* exactly size bytes, no terminator */
    if (text == NULL) {
        return 0;
    }
    memcpy(text, data, size);
    if (oa_aipp_config_parse(text, size, "fuzz.cfg", &cfg) == OA_OK) {
        for (int i = 0; i < cfg.n_ops; i++) {
            const oa_aipp_params *p = &cfg.ops[i];
            const int32_t sw = p->src_image_size_w > 0 ? p->src_image_size_w : 16;
            const int32_t sh = p->src_image_size_h > 0 ? p->src_image_size_h : 16;
            oa_aipp_params q = *p;
            if (q.crop && (q.crop_size_w == 0 || q.crop_size_h == 0)) {
                q.crop_size_w = sw;
                q.crop_size_h = sh;
            }
            int32_t oh = 0, ow = 0;
            oa_aipp_output_hw(&q, sw, sh, &oh, &ow);
            const int fc = oa_aipp_format_channels(p->input_format);
            const int64_t c = fc > 0 ? fc : 3;
            const int64_t nchw[4] = {1 + i % 2, c, oh, ow}, nhwc[4] = {1, oh, ow, c};
            int64_t raw[4];
            size_t bytes = 0;
            (void)oa_aipp_model_input(p, "x", nchw, true, raw, &bytes);
            (void)oa_aipp_model_input(p, "x", nhwc, false, raw, &bytes);
            if (p->aipp_mode == OA_AIPP_MODE_STATIC) {
                run_kernel(&q, sw, sh, (uint8_t)i);
            }
        }
    }
    free(text);
    oa_error_clear();
    (void)oa_error_take_last();
    return 0;
}

/*
 * libFuzzer harness for the DVPP decoder entry points: the JPEG and PNG
 * header readers and the public info / size helpers on every input, and,
 * when the headers plan an output, the decoders themselves into a heap
 * buffer of exactly the bytes the checked geometry needs (AddressSanitizer
 * reports any byte written past it). Any status is fine; crashes, leaks and
 * out-of-bounds accesses are not.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "dvpp/dvpp_jpeg.h"
#include "dvpp/dvpp_png.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The decoders' files also hold the asynchronous entry points; the harness never queues tasks. */
oa_status oa_dvpp_submit(aclrtStream stream, oa_dvpp_job_run run, void *job)
{
    (void)stream;
    (void)run;
    free(job);
    return OA_E_INTERNAL;
}

#define MAX_PIXELS (1024u * 1024u) /* keeps one run fast; the geometry code is the same for larger images */

static void decode_into(const oa_dvpp_fmt *f, uint32_t w, uint32_t h, uint32_t wa, uint32_t ha, uint32_t bpp,
                        int png, const uint8_t *data, size_t size, const void *info)
{
    if ((uint64_t)w * h > MAX_PIXELS) {
        return;
    }
    oa_dvpp_pic pic = {NULL, 0, f, w, h, oa_dvpp_align(w, wa) * bpp, oa_dvpp_align(h, ha)};
    if (!oa_dvpp_fmt_bytes(f, pic.ws, pic.hs, &pic.bytes)) {
        return;
    }
    pic.data = malloc(pic.bytes);
    if (pic.data == NULL) {
        return;
    }
    if (png) {
        (void)oa_pngd_decode(data, size, info, &pic);
    } else {
        (void)oa_jpegd_decode(data, size, info, &pic);
    }
    free(pic.data);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint32_t w = 0, h = 0, dec = 0;
    int32_t comps = 0;
    acldvppJpegFormat css = ACL_JPEG_CSS_UNKNOWN;
    (void)acldvppJpegGetImageInfoV2(data, (uint32_t)size, &w, &h, &comps, &css);
    (void)acldvppJpegPredictDecSize(data, (uint32_t)size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, &dec);
    (void)acldvppPngGetImageInfo(data, (uint32_t)size, &w, &h, &comps);
    (void)acldvppPngPredictDecSize(data, (uint32_t)size, PIXEL_FORMAT_UNKNOWN, &dec);

    oa_jpeg_info ji;
    if (oa_jpeg_parse(data, size, &ji) == OA_OK) {
        static const uint32_t outs[3] = {PIXEL_FORMAT_YUV_SEMIPLANAR_420, PIXEL_FORMAT_YVU_SEMIPLANAR_420,
                                         PIXEL_FORMAT_UNKNOWN};
        for (int i = 0; i < 3; ++i) {
            const oa_dvpp_fmt *f = NULL;
            if (oa_jpegd_plan(&ji, outs[i], &f, &w, &h) == OA_OK) {
                decode_into(f, w, h, OA_JPEGD_WS_ALIGN, OA_JPEGD_HS_ALIGN, 1, 0, data, size, &ji);
            }
        }
    }
    oa_png_info pi;
    const oa_dvpp_fmt *f = NULL;
    if (oa_png_parse(data, size, &pi) == OA_OK && oa_pngd_plan(&pi, PIXEL_FORMAT_UNKNOWN, &f) == OA_OK) {
        decode_into(f, pi.width, pi.height, 128, 16, f->bpp, 1, data, size, &pi);
    }
    oa_error_clear();
    (void)oa_error_take_last();
    return 0;
}

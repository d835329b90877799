/* PNG headers and decoding for the PNGD engine (docs/dvpp.md "PNGD"). */
#ifndef OA_DVPP_DVPP_PNG_H
#define OA_DVPP_DVPP_PNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dvpp/dvpp_internal.h"

typedef struct oa_png_info {
    uint32_t width, height;
    uint8_t bit_depth, color_type;
    int32_t components; /* channels after expanding a palette / tRNS */
    bool alpha;
} oa_png_info;

/* Reads the signature, IHDR and any tRNS chunk; OA_E_PARAM (reported) when the data is not a PNG. */
oa_status oa_png_parse(const uint8_t *data, size_t size, oa_png_info *out) OA_MUST_CHECK;

/* Checks the PNGD size range and resolves the output format (UNKNOWN = RGB888 or RGBA8888 by alpha). */
oa_status oa_pngd_plan(const oa_png_info *info, uint32_t requested, const oa_dvpp_fmt **fmt) OA_MUST_CHECK;

/* Decodes into a checked output picture (synchronous: the task body and the fuzz target's entry). */
oa_status oa_pngd_decode(const uint8_t *data, size_t size, const oa_png_info *info, const oa_dvpp_pic *out)
    OA_MUST_CHECK;

#endif /* OA_DVPP_DVPP_PNG_H */

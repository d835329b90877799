/*
 * JPEG headers for the JPEGD engine: what the frame header says, whether
 * the JPEGD engine decodes it, and which output format it produces
 * (docs/dvpp.md "JPEGD").
 */
#ifndef OA_DVPP_DVPP_JPEG_H
#define OA_DVPP_DVPP_JPEG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dvpp/dvpp_internal.h"

typedef struct oa_jpeg_info {
    uint32_t width, height;
    int32_t components;
    acldvppJpegFormat css;
    bool decodable;      /* baseline / extended Huffman, 8-bit, a subsampling the engine knows */
    char why[96];        /* when not decodable: the reason */
} oa_jpeg_info;

/*
 * Reads the markers of data[0..size) up to the frame header. Fails with
 * OA_E_PARAM (reported) when there is no JPEG frame header in the data.
 */
oa_status oa_jpeg_parse(const uint8_t *data, size_t size, oa_jpeg_info *out) OA_MUST_CHECK;

/* JPEGD size range (docs/dvpp.md "JPEGD"). */
#define OA_JPEGD_MIN_SIZE 32u
#define OA_JPEGD_MAX_SIZE 8192u
/* JPEGD output strides on the 310P profile: widthStride multiple of 64, heightStride multiple of 16. */
#define OA_JPEGD_WS_ALIGN 64u
#define OA_JPEGD_HS_ALIGN 16u

/*
 * Checks that the image is decodable (OA_E_UNSUPPORTED_JPEG otherwise) and in
 * the JPEGD size range, resolves the requested output format
 * (PIXEL_FORMAT_UNKNOWN = keep the source subsampling) and refuses a
 * combination the engine does not produce. [out] *fmt, *w, *h: output
 * format and the output size (odd sizes rounded down for subsampled output).
 */
oa_status oa_jpegd_plan(const oa_jpeg_info *info, uint32_t requested, const oa_dvpp_fmt **fmt, uint32_t *w,
                        uint32_t *h) OA_MUST_CHECK;

/*
 * Decodes a JPEG into a checked output picture geometry (synchronous, the
 * task body and the fuzz target's entry). out->w/h are the planned output
 * size; the buffer holds out->bytes bytes.
 */
oa_status oa_jpegd_decode(const uint8_t *data, size_t size, const oa_jpeg_info *info, const oa_dvpp_pic *out)
    OA_MUST_CHECK;

#endif /* OA_DVPP_DVPP_JPEG_H */

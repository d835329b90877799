/*
 * JPEG header reading: acldvppJpegGetImageInfo(V2), acldvppJpegPredictDecSize
 * and the output-format plan the decoder shares (docs/dvpp.md "JPEGD").
 * The parser walks the marker segments with bounds checks on every length.
 */
#include <stdio.h>
#include <string.h>

#define OA_LOG_MODULE "ASCENDCL"
#include "base/acl_check.h"
#include "dvpp/dvpp_jpeg.h"

static uint32_t be16(const uint8_t *p)
{
    return ((uint32_t)p[0] << 8) | p[1];
}

static acldvppJpegFormat css_of(const uint8_t *hv, int n)
{
    if (n == 1) {
        return ACL_JPEG_CSS_GRAY;
    }
    if (n != 3 || hv[1] != 0x11 || hv[2] != 0x11) {
        return ACL_JPEG_CSS_UNKNOWN;
    }
    switch (hv[0]) {
    case 0x11:
        return ACL_JPEG_CSS_444;
    case 0x21:
        return ACL_JPEG_CSS_422;
    case 0x22:
        return ACL_JPEG_CSS_420;
    case 0x12:
        return ACL_JPEG_CSS_440;
    case 0x41:
        return ACL_JPEG_CSS_411;
    default:
        return ACL_JPEG_CSS_UNKNOWN;
    }
}

static void read_frame(uint8_t marker, const uint8_t *seg, uint32_t len, oa_jpeg_info *out)
{
    const uint32_t precision = seg[0];
    const int n = seg[5];
    uint8_t hv[4] = {0, 0, 0, 0};
    for (int i = 0; i < n && i < 4 && 6u + 3u * (uint32_t)i + 1u < len; ++i) { /* within the segment only */
        hv[i] = seg[6 + 3 * i + 1];
    }
    out->height = be16(seg + 1);
    out->width = be16(seg + 3);
    out->components = n;
    out->css = css_of(hv, n);
    out->decodable = false;
    if (len < 6u + 3u * (uint32_t)n) {
        (void)snprintf(out->why, sizeof(out->why), "truncated frame header");
    } else if (marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE) {
        (void)snprintf(out->why, sizeof(out->why), "progressive JPEG (SOF%u)", marker - 0xC0u);
    } else if (marker >= 0xC9) {
        (void)snprintf(out->why, sizeof(out->why), "arithmetic-coded JPEG (SOF%u)", marker - 0xC0u);
    } else if (marker != 0xC0 && marker != 0xC1) {
        (void)snprintf(out->why, sizeof(out->why), "lossless or hierarchical JPEG (SOF%u)", marker - 0xC0u);
    } else if (precision != 8) {
        (void)snprintf(out->why, sizeof(out->why), "%u-bit samples (only 8-bit)", precision);
    } else if (out->height == 0) {
        (void)snprintf(out->why, sizeof(out->why), "height defined by a DNL marker");
    } else if (out->css == ACL_JPEG_CSS_UNKNOWN || out->css == ACL_JPEG_CSS_411) {
        (void)snprintf(out->why, sizeof(out->why), "%d components with sampling %02x %02x %02x", n, hv[0], hv[1],
                       hv[2]);
    } else {
        out->decodable = true;
    }
}

oa_status oa_jpeg_parse(const uint8_t *d, size_t n, oa_jpeg_info *out)
{
    memset(out, 0, sizeof(*out));
    if (n < 4 || d[0] != 0xFF || d[1] != 0xD8) {
        return OA_FAIL(OA_E_PARAM, "the data (%zu bytes) does not start with a JPEG SOI marker", n);
    }
    size_t pos = 2;
    int adobe_transform = -1;
    while (pos + 1 < n) {
        if (d[pos] != 0xFF) {
            return OA_FAIL(OA_E_PARAM, "JPEG data: expected a marker at byte %zu", pos);
        }
        while (pos < n && d[pos] == 0xFF) {
            ++pos; /* fill bytes */
        }
        if (pos >= n) {
            break;
        }
        const uint8_t m = d[pos++];
        if (m == 0x01 || (m >= 0xD0 && m <= 0xD8)) {
            continue; /* markers without a segment */
        }
        if (m == 0xD9 || m == 0xDA) {
            break; /* EOI or scan data before any frame header */
        }
        if (pos + 2 > n) {
            break;
        }
        const uint32_t len = be16(d + pos);
        if (len < 2 || len > n - pos) {
            return OA_FAIL(OA_E_PARAM, "JPEG data: segment of marker 0x%02X at byte %zu has length %u past the end",
                           m, pos - 2, len);
        }
        if (m == 0xEE && len >= 14 && memcmp(d + pos + 2, "Adobe", 5) == 0) {
            adobe_transform = d[pos + 2 + 11]; /* 0: RGB / CMYK, 1: YCbCr, 2: YCCK */
        }
        const bool sof = m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC;
        if (sof) {
            if (len < 8) {
                return OA_FAIL(OA_E_PARAM, "JPEG data: frame header of %u bytes is too short", len);
            }
            read_frame(m, d + pos + 2, len - 2, out);
            if (out->decodable && out->components == 3 && adobe_transform == 0) {
                out->decodable = false; /* JPEGD decodes YUV colour spaces only */
                (void)snprintf(out->why, sizeof(out->why), "RGB colour space (Adobe transform 0)");
            }
            return OA_OK;
        }
        pos += len;
    }
    return OA_FAIL(OA_E_PARAM, "JPEG data (%zu bytes) has no frame header", n);
}

oa_status oa_jpegd_plan(const oa_jpeg_info *info, uint32_t requested, const oa_dvpp_fmt **fmt, uint32_t *w,
                        uint32_t *h)
{
    if (!info->decodable) {
        return OA_FAIL(OA_E_UNSUPPORTED_JPEG, "JPEGD does not decode this image: %s", info->why);
    }
    if (info->width < OA_JPEGD_MIN_SIZE || info->width > OA_JPEGD_MAX_SIZE || info->height < OA_JPEGD_MIN_SIZE ||
        info->height > OA_JPEGD_MAX_SIZE) {
        return OA_FAIL(OA_E_PARAM, "JPEG image %ux%u is outside the JPEGD range %ux%u .. %ux%u", info->width,
                       info->height, OA_JPEGD_MIN_SIZE, OA_JPEGD_MIN_SIZE, OA_JPEGD_MAX_SIZE, OA_JPEGD_MAX_SIZE);
    }
    uint32_t native = PIXEL_FORMAT_YUV_SEMIPLANAR_420;
    switch (info->css) {
    case ACL_JPEG_CSS_444:
        native = PIXEL_FORMAT_YUV_SEMIPLANAR_444;
        break;
    case ACL_JPEG_CSS_422:
        native = PIXEL_FORMAT_YUV_SEMIPLANAR_422;
        break;
    case ACL_JPEG_CSS_440:
        native = PIXEL_FORMAT_YUV_SEMIPLANAR_440;
        break;
    case ACL_JPEG_CSS_GRAY:
        native = PIXEL_FORMAT_YUV_400;
        break;
    default:
        break;
    }
    const uint32_t f = requested == PIXEL_FORMAT_UNKNOWN ? native : requested;
    bool ok = f == PIXEL_FORMAT_YUV_SEMIPLANAR_420 || f == PIXEL_FORMAT_YVU_SEMIPLANAR_420 || f == native;
    switch (f) {
    case PIXEL_FORMAT_YVU_SEMIPLANAR_444:
    case PIXEL_FORMAT_YVU_SEMIPLANAR_422:
    case PIXEL_FORMAT_YVU_SEMIPLANAR_440:
        ok = f - 1u == native || (f == PIXEL_FORMAT_YVU_SEMIPLANAR_440 && native == PIXEL_FORMAT_YUV_SEMIPLANAR_440);
        break;
    default:
        break;
    }
    if (!ok) {
        return OA_FAIL(OA_E_PARAM, "JPEGD cannot output %s from a JPEG with subsampling %d (acldvppJpegFormat)",
                       oa_dvpp_fmt_name(f), (int)info->css);
    }
    const oa_dvpp_fmt *of = oa_dvpp_fmt_find(f);
    *fmt = of;
    *w = of->sub_w != 0 ? (info->width & ~1u) : info->width;
    *h = of->sub_h != 0 ? (info->height & ~1u) : info->height;
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError acldvppJpegGetImageInfo(const void *data, uint32_t size, uint32_t *width, uint32_t *height,
                                                     int32_t *components)
{
    ACL_REQUIRE_NOT_NULL(data);
    oa_jpeg_info info;
    const oa_status st = oa_jpeg_parse(data, size, &info);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    if (width != NULL) {
        *width = info.width;
    }
    if (height != NULL) {
        *height = info.height;
    }
    if (components != NULL) {
        *components = info.components;
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acldvppJpegGetImageInfoV2(const void *data, uint32_t size, uint32_t *width,
                                                       uint32_t *height, int32_t *components,
                                                       acldvppJpegFormat *format)
{
    ACL_REQUIRE_NOT_NULL(data);
    oa_jpeg_info info;
    const oa_status st = oa_jpeg_parse(data, size, &info);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    if (width != NULL) {
        *width = info.width;
    }
    if (height != NULL) {
        *height = info.height;
    }
    if (components != NULL) {
        *components = info.components;
    }
    if (format != NULL) {
        *format = info.css;
    }
    ACL_REQUIRE(info.decodable, OA_E_UNSUPPORTED_JPEG, "JPEGD does not decode this image: %s", info.why);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acldvppJpegPredictDecSize(const void *data, uint32_t dataSize,
                                                       acldvppPixelFormat outputPixelFormat, uint32_t *decSize)
{
    ACL_REQUIRE_NOT_NULL(data);
    ACL_REQUIRE_NOT_NULL(decSize);
    oa_jpeg_info info;
    oa_status st = oa_jpeg_parse(data, dataSize, &info);
    const oa_dvpp_fmt *f = NULL;
    uint32_t w = 0;
    uint32_t h = 0;
    if (st == OA_OK) {
        st = oa_jpegd_plan(&info, (uint32_t)outputPixelFormat, &f, &w, &h);
    }
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    size_t bytes = 0;
    (void)oa_dvpp_fmt_bytes(f, oa_dvpp_align(w, OA_JPEGD_WS_ALIGN), oa_dvpp_align(h, OA_JPEGD_HS_ALIGN), &bytes);
    *decSize = (uint32_t)bytes; /* at most 8192 x 8192 x 3 */
    return ACL_SUCCESS;
}

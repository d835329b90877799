/*
 * PNGD: acldvppPngGetImageInfo, acldvppPngPredictDecSize and
 * acldvppPngDecodeAsync over libpng's simplified reader, which decodes
 * straight into the output buffer with its row stride. Rules: docs/dvpp.md
 * "PNGD".
 */
#include <png.h>
#include <stdlib.h>
#include <string.h>

#define OA_LOG_MODULE "ASCENDCL"
#include "base/acl_check.h"
#include "dvpp/dvpp_png.h"

#define PNGD_MIN 32u
#define PNGD_MAX 4096u
#define PNGD_WS_ALIGN 128u
#define PNGD_HS_ALIGN 16u

static uint32_t be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

oa_status oa_png_parse(const uint8_t *d, size_t n, oa_png_info *out)
{
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    memset(out, 0, sizeof(*out));
    if (n < 33 || memcmp(d, sig, sizeof(sig)) != 0 || be32(d + 8) != 13 || memcmp(d + 12, "IHDR", 4) != 0) {
        return OA_FAIL(OA_E_PARAM, "the data (%zu bytes) does not start with a PNG signature and IHDR chunk", n);
    }
    out->width = be32(d + 16);
    out->height = be32(d + 20);
    out->bit_depth = d[24];
    out->color_type = d[25];
    bool trns = false;
    size_t pos = 33;
    while (pos + 8 <= n) { /* look for tRNS before the image data */
        const uint32_t len = be32(d + pos);
        if (memcmp(d + pos + 4, "IDAT", 4) == 0 || memcmp(d + pos + 4, "IEND", 4) == 0 || len > n - pos - 8) {
            break;
        }
        if (memcmp(d + pos + 4, "tRNS", 4) == 0) {
            trns = true;
        }
        pos += 12u + (size_t)len;
        if (pos < 12u + (size_t)len) {
            break;
        }
    }
    switch (out->color_type) {
    case 0:
        out->components = trns ? 2 : 1;
        break;
    case 2:
        out->components = trns ? 4 : 3;
        break;
    case 3:
        out->components = trns ? 4 : 3;
        break;
    case 4:
        out->components = 2;
        break;
    case 6:
        out->components = 4;
        break;
    default:
        return OA_FAIL(OA_E_PARAM, "PNG colour type %u is invalid", out->color_type);
    }
    out->alpha = out->components == 2 || out->components == 4;
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError acldvppPngGetImageInfo(const void *data, uint32_t dataSize, uint32_t *width,
                                                    uint32_t *height, int32_t *components)
{
    ACL_REQUIRE_NOT_NULL(data);
    oa_png_info info;
    const oa_status st = oa_png_parse(data, dataSize, &info);
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

oa_status oa_pngd_plan(const oa_png_info *info, uint32_t requested, const oa_dvpp_fmt **fmt)
{
    if (info->width < PNGD_MIN || info->width > PNGD_MAX || info->height < PNGD_MIN || info->height > PNGD_MAX) {
        return OA_FAIL(OA_E_PARAM, "PNG image %ux%u is outside the PNGD range %ux%u .. %ux%u", info->width,
                       info->height, PNGD_MIN, PNGD_MIN, PNGD_MAX, PNGD_MAX);
    }
    const uint32_t native = info->alpha ? PIXEL_FORMAT_RGBA_8888 : PIXEL_FORMAT_RGB_888;
    const uint32_t f = requested == PIXEL_FORMAT_UNKNOWN ? native : requested;
    if (f != native) {
        return OA_FAIL(OA_E_PARAM, "PNGD outputs %s for this PNG (%d components), not %s", oa_dvpp_fmt_name(native),
                       info->components, oa_dvpp_fmt_name(f));
    }
    *fmt = oa_dvpp_fmt_find(f);
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError acldvppPngPredictDecSize(const void *data, uint32_t dataSize,
                                                      acldvppPixelFormat outputPixelFormat, uint32_t *decSize)
{
    ACL_REQUIRE_NOT_NULL(data);
    ACL_REQUIRE_NOT_NULL(decSize);
    oa_png_info info;
    const oa_dvpp_fmt *f = NULL;
    oa_status st = oa_png_parse(data, dataSize, &info);
    if (st == OA_OK) {
        st = oa_pngd_plan(&info, (uint32_t)outputPixelFormat, &f);
    }
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    *decSize = oa_dvpp_align(info.width, PNGD_WS_ALIGN) * f->bpp * oa_dvpp_align(info.height, PNGD_HS_ALIGN);
    return ACL_SUCCESS;
}

oa_status oa_pngd_decode(const uint8_t *data, size_t size, const oa_png_info *info, const oa_dvpp_pic *out)
{
    png_image img;
    memset(&img, 0, sizeof(img));
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&img, data, size)) {
        const oa_status st = OA_FAIL(OA_E_PARAM, "PNGD: bad PNG data: %s", img.message);
        png_image_free(&img);
        return st;
    }
    if (img.width != info->width || img.height != info->height) {
        png_image_free(&img);
        return OA_FAIL(OA_E_PARAM, "PNGD: PNG header changed (%ux%u)", img.width, img.height);
    }
    img.format = out->fmt->bpp == 4 ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
    if (!png_image_finish_read(&img, NULL, out->data, (png_int_32)out->ws, NULL)) {
        const oa_status st = OA_FAIL(OA_E_PARAM, "PNGD: the PNG data is corrupt or truncated: %s", img.message);
        png_image_free(&img);
        return st;
    }
    png_image_free(&img);
    return OA_OK;
}

typedef struct pngd_job {
    const uint8_t *data;
    size_t size;
    oa_png_info info;
    oa_dvpp_pic out;
    acldvppPicDesc *desc;
} pngd_job;

static oa_status pngd_run(void *p)
{
    pngd_job *j = p;
    const oa_status st = oa_pngd_decode(j->data, j->size, &j->info, &j->out);
    j->desc->ret_code = (uint32_t)oa_status_to_acl(st);
    if (st == OA_OK) {
        j->desc->width = j->out.w;
        j->desc->height = j->out.h;
        j->desc->format = j->out.fmt->format;
    }
    return st;
}

static const oa_dvpp_rules g_pngd_out = {"PNGD", "output", PNGD_MIN, PNGD_MIN, PNGD_MAX, PNGD_MAX, PNGD_WS_ALIGN,
                                         PNGD_HS_ALIGN, PNGD_WS_ALIGN, 4u * PNGD_MAX, PNGD_HS_ALIGN, PNGD_MAX, false};

static oa_status pngd_submit(acldvppChannelDesc *ch, const void *data, uint32_t size, acldvppPicDesc *outDesc,
                             aclrtStream stream)
{
    oa_status st = oa_dvpp_channel_check(ch, DVPP_CHNMODE_PNGD);
    if (st != OA_OK) {
        return st;
    }
    if (data == NULL || size == 0 || outDesc == NULL) {
        return OA_FAIL(OA_E_PARAM, "PNGD: data, size and outputDesc must be given (data %p, size %u, outputDesc %p)",
                       data, size, (void *)outDesc);
    }
    if ((st = oa_dvpp_buffer_check(data, size, "PNGD input data")) != OA_OK) {
        return st;
    }
    pngd_job *j = calloc(1, sizeof(*j));
    if (j == NULL) {
        return OA_FAIL(OA_E_NOMEM, "PNGD task");
    }
    const oa_dvpp_fmt *f = NULL;
    st = oa_png_parse(data, size, &j->info);
    if (st == OA_OK) {
        st = oa_pngd_plan(&j->info, outDesc->format, &f);
    }
    if (st == OA_OK) {
        acldvppPicDesc geo = *outDesc;
        geo.width = j->info.width;
        geo.height = j->info.height;
        geo.format = f->format;
        st = oa_dvpp_pic_check(&geo, &g_pngd_out, &j->out);
    }
    if (st != OA_OK) {
        free(j);
        return st;
    }
    j->data = data;
    j->size = size;
    j->desc = outDesc;
    return oa_dvpp_submit(stream, pngd_run, j);
}

ACL_FUNC_VISIBILITY aclError acldvppPngDecodeAsync(acldvppChannelDesc *channelDesc, const void *data, uint32_t size,
                                                   acldvppPicDesc *outputDesc, aclrtStream stream)
{
    return oa_status_to_acl(pngd_submit(channelDesc, data, size, outputDesc, stream));
}

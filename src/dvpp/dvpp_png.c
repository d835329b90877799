/*
 * PNGD: acldvppPngGetImageInfo, acldvppPngPredictDecSize and
 * acldvppPngDecodeAsync over libpng, decoding straight into the output
 * buffer with its row stride. Rules: docs/dvpp.md "PNGD".
 */
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
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

/* libpng reads from the caller's bytes, never past size; errors jump back with a message. */
typedef struct png_src {
    const uint8_t *p;
    size_t n, off;
    char msg[128];
} png_src;

static void png_read_mem(png_structp png, png_bytep out, size_t len)
{
    png_src *s = png_get_io_ptr(png);
    if (len > s->n - s->off) {
        png_error(png, "the PNG data ends early");
    }
    memcpy(out, s->p + s->off, len);
    s->off += len;
}

static void png_on_error(png_structp png, png_const_charp msg)
{
    png_src *s = png_get_error_ptr(png);
    (void)snprintf(s->msg, sizeof(s->msg), "%s", msg);
    png_longjmp(png, 1);
}

static void png_on_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

/*
 * Decodes with libpng's transformations to 8-bit RGB / RGBA: palettes and
 * low bit depths expanded, tRNS to alpha, gray to RGB, 16-bit samples scaled
 * (v * 255 + 32767) / 65535 -- sample values are kept as stored, no gamma
 * conversion (libpng's simplified reader would treat 16-bit data as linear).
 */
oa_status oa_pngd_decode(const uint8_t *data, size_t size, const oa_png_info *info, const oa_dvpp_pic *out)
{
    /* on the heap: what libpng's callbacks change must survive the longjmp */
    png_src *src = calloc(1, sizeof(*src));
    png_structp png = src != NULL ? png_create_read_struct(PNG_LIBPNG_VER_STRING, src, png_on_error, png_on_warning)
                                  : NULL;
    png_infop pinfo = png != NULL ? png_create_info_struct(png) : NULL;
    png_bytep *volatile rows = NULL;
    if (png == NULL || pinfo == NULL) {
        png_destroy_read_struct(&png, &pinfo, NULL);
        free(src);
        return OA_FAIL(OA_E_NOMEM, "PNGD: cannot create a PNG reader");
    }
    src->p = data;
    src->n = size;
    if (setjmp(png_jmpbuf(png)) != 0) {
        free(rows);
        png_destroy_read_struct(&png, &pinfo, NULL);
        const oa_status st = OA_FAIL(OA_E_PARAM, "PNGD: the PNG data is corrupt or truncated: %s", src->msg);
        free(src);
        return st;
    }
    png_set_read_fn(png, src, png_read_mem);
    png_set_user_limits(png, info->width, info->height);
    png_read_info(png, pinfo);
    if (png_get_image_width(png, pinfo) != info->width || png_get_image_height(png, pinfo) != info->height) {
        png_error(png, "the image size differs from the header read before");
    }
    const int type = png_get_color_type(png, pinfo);
    png_set_scale_16(png);
    png_set_packing(png);
    png_set_expand(png); /* palette -> RGB, gray < 8 bits -> 8 bits, tRNS -> alpha */
    if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA) {
        png_set_gray_to_rgb(png);
    }
    (void)png_set_interlace_handling(png);
    png_read_update_info(png, pinfo);
    const size_t row_bytes = (size_t)out->w * out->fmt->bpp;
    if (png_get_rowbytes(png, pinfo) != row_bytes) {
        png_error(png, "the decoded rows do not have the output format's width");
    }
    rows = malloc((size_t)out->h * sizeof(*rows));
    if (rows == NULL) {
        png_error(png, "no memory for the row table");
    }
    for (uint32_t y = 0; y < out->h; ++y) {
        rows[y] = out->data + (size_t)y * out->ws;
    }
    png_read_image(png, rows);
    png_read_end(png, NULL);
    free(rows);
    png_destroy_read_struct(&png, &pinfo, NULL);
    free(src);
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

/*
 * The pixel formats DVPP handles on the CPU, their buffer sizes and planes,
 * and the validation of a picture description against an engine's rules
 * (docs/dvpp.md "Pixel formats and buffer sizes", "Strides").
 */
#include <stdio.h>

#define OA_LOG_MODULE "ASCENDCL"
#include "base/error.h"
#include "base/util.h"
#include "dvpp/dvpp_internal.h"
#include "mem/mem_table.h"

#define Y OA_DVPP_LAYOUT_Y
#define SP OA_DVPP_LAYOUT_SP
#define PK OA_DVPP_LAYOUT_PACKED
#define YUV OA_DVPP_FAMILY_YUV
#define RGB OA_DVPP_FAMILY_RGB

/* order: packed RGB -> byte of (R,G,B,A); packed 422 -> byte of (Y0,U,Y1,V); packed 444 -> (Y,U,V). */
static const oa_dvpp_fmt g_formats[] = {
    {PIXEL_FORMAT_YUV_400, "YUV400", Y, YUV, 1, 0, 0, 0, {0, 0, 0, 0}, false, false},
    {PIXEL_FORMAT_YUV_SEMIPLANAR_420, "YUV420SP_NV12", SP, YUV, 1, 1, 1, 0, {0, 0, 0, 0}, false, false},
    {PIXEL_FORMAT_YVU_SEMIPLANAR_420, "YVU420SP_NV21", SP, YUV, 1, 1, 1, 1, {0, 0, 0, 0}, false, false},
    {PIXEL_FORMAT_YUV_SEMIPLANAR_422, "YUV422SP", SP, YUV, 1, 1, 0, 0, {0, 0, 0, 0}, false, false},
    {PIXEL_FORMAT_YVU_SEMIPLANAR_422, "YVU422SP", SP, YUV, 1, 1, 0, 1, {0, 0, 0, 0}, false, false},
    {PIXEL_FORMAT_YUV_SEMIPLANAR_444, "YUV444SP", SP, YUV, 1, 0, 0, 0, {0, 0, 0, 0}, false, false},
    {PIXEL_FORMAT_YVU_SEMIPLANAR_444, "YVU444SP", SP, YUV, 1, 0, 0, 1, {0, 0, 0, 0}, false, false},
    {PIXEL_FORMAT_YUYV_PACKED_422, "YUYV_PACKED_422", PK, YUV, 2, 1, 0, 0, {0, 1, 2, 3}, true, false},
    {PIXEL_FORMAT_UYVY_PACKED_422, "UYVY_PACKED_422", PK, YUV, 2, 1, 0, 0, {1, 0, 3, 2}, true, false},
    {PIXEL_FORMAT_YVYU_PACKED_422, "YVYU_PACKED_422", PK, YUV, 2, 1, 0, 0, {0, 3, 2, 1}, true, false},
    {PIXEL_FORMAT_VYUY_PACKED_422, "VYUY_PACKED_422", PK, YUV, 2, 1, 0, 0, {1, 2, 3, 0}, true, false},
    {PIXEL_FORMAT_YUV_PACKED_444, "YUV_PACKED_444", PK, YUV, 3, 0, 0, 0, {0, 1, 2, 0}, false, false},
    {PIXEL_FORMAT_RGB_888, "RGB888", PK, RGB, 3, 0, 0, 0, {0, 1, 2, 0}, false, false},
    {PIXEL_FORMAT_BGR_888, "BGR888", PK, RGB, 3, 0, 0, 0, {2, 1, 0, 0}, false, false},
    {PIXEL_FORMAT_ARGB_8888, "ARGB8888", PK, RGB, 4, 0, 0, 0, {1, 2, 3, 0}, false, true},
    {PIXEL_FORMAT_ABGR_8888, "ABGR8888", PK, RGB, 4, 0, 0, 0, {3, 2, 1, 0}, false, true},
    {PIXEL_FORMAT_RGBA_8888, "RGBA8888", PK, RGB, 4, 0, 0, 0, {0, 1, 2, 3}, false, true},
    {PIXEL_FORMAT_BGRA_8888, "BGRA8888", PK, RGB, 4, 0, 0, 0, {2, 1, 0, 3}, false, true},
    {PIXEL_FORMAT_YUV_SEMIPLANAR_440, "YUV440SP", SP, YUV, 1, 0, 1, 0, {0, 0, 0, 0}, false, false},
    {PIXEL_FORMAT_YVU_SEMIPLANAR_440, "YVU440SP", SP, YUV, 1, 0, 1, 1, {0, 0, 0, 0}, false, false},
};

const oa_dvpp_fmt *oa_dvpp_fmt_find(uint32_t format)
{
    for (size_t i = 0; i < sizeof(g_formats) / sizeof(g_formats[0]); ++i) {
        if (g_formats[i].format == format) {
            return &g_formats[i];
        }
    }
    return NULL;
}

const char *oa_dvpp_fmt_name(uint32_t format)
{
    const oa_dvpp_fmt *f = oa_dvpp_fmt_find(format);
    if (f != NULL) {
        return f->name;
    }
    static _Thread_local char buf[32];
    (void)snprintf(buf, sizeof(buf), "%u", format);
    return buf;
}

bool oa_dvpp_fmt_bytes(const oa_dvpp_fmt *f, uint32_t ws, uint32_t hs, size_t *out)
{
    size_t luma = (size_t)ws * hs; /* both < 2^32: no overflow in 64 bits */
    if (f->layout != OA_DVPP_LAYOUT_SP) {
        *out = luma;
        return true;
    }
    const size_t chroma = ((size_t)ws * 2u >> f->sub_w) * ((size_t)hs >> f->sub_h);
    return oa_add_size(luma, chroma, out);
}

oa_status oa_dvpp_buffer_check(const void *p, size_t bytes, const char *what)
{
    oa_mem_block blk;
    if (!oa_mem_find(p, &blk) || blk.kind != OA_MEM_KIND_DEVICE) {
        return OA_FAIL(OA_E_PARAM, "%s %p is not device memory from acldvppMalloc", what, p);
    }
    const size_t off = (size_t)((const uint8_t *)p - (const uint8_t *)blk.base);
    if (bytes > blk.size - off) {
        return OA_FAIL(OA_E_PARAM, "%s %p needs %zu bytes but its acldvppMalloc block ends %zu bytes after it", what,
                       p, bytes, blk.size - off);
    }
    return OA_OK;
}

static oa_status range_check(const oa_dvpp_rules *r, const char *name, uint32_t v, uint32_t lo, uint32_t hi)
{
    if (v < lo || v > hi) {
        return OA_FAIL(OA_E_PARAM, "%s %s %s [%u] must be in [%u, %u]", r->engine, r->side, name, v, lo, hi);
    }
    return OA_OK;
}

oa_status oa_dvpp_pic_check(const acldvppPicDesc *d, const oa_dvpp_rules *r, oa_dvpp_pic *out)
{
    if (d == NULL) {
        return OA_FAIL(OA_E_PARAM, "%s %s picture description must not be null", r->engine, r->side);
    }
    const oa_dvpp_fmt *f = oa_dvpp_fmt_find(d->format);
    if (f == NULL) {
        return OA_FAIL(OA_E_PARAM, "%s %s format [%u] is not supported", r->engine, r->side, d->format);
    }
    if (d->data == NULL) {
        return OA_FAIL(OA_E_PARAM, "%s %s picture data must not be null", r->engine, r->side);
    }
    if ((uintptr_t)d->data % OA_DVPP_ADDR_ALIGN != 0) {
        return OA_FAIL(OA_E_PARAM, "%s %s picture data %p is not %u-byte aligned (acldvppMalloc addresses are)",
                       r->engine, r->side, d->data, OA_DVPP_ADDR_ALIGN);
    }
    oa_status st = range_check(r, "width", d->width, r->min_w, r->max_w);
    if (st == OA_OK) {
        st = range_check(r, "height", d->height, r->min_h, r->max_h);
    }
    if (st != OA_OK) {
        return st;
    }
    uint32_t w = d->width;
    uint32_t h = d->height;
    const bool even_w = f->sub_w != 0 || f->packed422;
    const bool even_h = f->sub_h != 0;
    if ((even_w && (w & 1u) != 0) || (even_h && (h & 1u) != 0)) {
        if (!r->round_odd_down) {
            return OA_FAIL(OA_E_PARAM, "%s %s %ux%u: %s needs an even %s", r->engine, r->side, w, h, f->name,
                           (even_w && (w & 1u) != 0) ? "width" : "height");
        }
        w = even_w ? (w & ~1u) : w; /* CANN processes an odd input as the even size below it */
        h = even_h ? (h & ~1u) : h;
    }
    const uint32_t ws = d->width_stride;
    const uint32_t hs = d->height_stride;
    if ((st = range_check(r, "widthStride", ws, r->min_ws, r->max_ws)) != OA_OK ||
        (st = range_check(r, "heightStride", hs, r->min_hs, r->max_hs)) != OA_OK) {
        return st;
    }
    if ((uint64_t)ws < (uint64_t)d->width * f->bpp) {
        return OA_FAIL(OA_E_PARAM, "%s %s widthStride [%u] is less than width %u x %u bytes of %s", r->engine, r->side,
                       ws, d->width, f->bpp, f->name);
    }
    if (r->ws_align != 0 && ws % r->ws_align != 0) {
        return OA_FAIL(OA_E_PARAM, "%s %s widthStride [%u] must be a multiple of %u", r->engine, r->side, ws,
                       r->ws_align);
    }
    if (hs < d->height) {
        return OA_FAIL(OA_E_PARAM, "%s %s heightStride [%u] is less than height %u", r->engine, r->side, hs,
                       d->height);
    }
    if ((r->hs_align != 0 && hs % r->hs_align != 0) || (even_h && (hs & 1u) != 0)) {
        return OA_FAIL(OA_E_PARAM, "%s %s heightStride [%u] must be a multiple of %u", r->engine, r->side, hs,
                       r->hs_align > 2u ? r->hs_align : 2u);
    }
    size_t bytes = 0;
    if (!oa_dvpp_fmt_bytes(f, ws, hs, &bytes) || bytes > d->size) {
        return OA_FAIL(OA_E_PARAM, "%s %s size [%u] is less than the %zu bytes of a %ux%u-stride %s picture",
                       r->engine, r->side, d->size, bytes, ws, hs, f->name);
    }
    char what[48];
    (void)snprintf(what, sizeof(what), "%s %s data", r->engine, r->side);
    if ((st = oa_dvpp_buffer_check(d->data, bytes, what)) != OA_OK) {
        return st;
    }
    out->data = d->data;
    out->bytes = bytes;
    out->fmt = f;
    out->w = w;
    out->h = h;
    out->ws = ws;
    out->hs = hs;
    return OA_OK;
}

int oa_dvpp_pic_planes(const oa_dvpp_pic *pic, oa_dvpp_plane planes[2])
{
    const oa_dvpp_fmt *f = pic->fmt;
    planes[0] = (oa_dvpp_plane){pic->data, pic->ws, pic->w, pic->h, f->bpp, 0, 0};
    if (f->packed422) {
        planes[0].w = pic->w / 2u; /* two pixels per 4-byte group */
        planes[0].ch = 4;
        planes[0].sub_w = 1;
        return 1;
    }
    if (f->layout != OA_DVPP_LAYOUT_SP) {
        return 1;
    }
    planes[1] = (oa_dvpp_plane){pic->data + (size_t)pic->ws * pic->hs,
                                (size_t)pic->ws * 2u >> f->sub_w,
                                pic->w >> f->sub_w,
                                pic->h >> f->sub_h,
                                2,
                                f->sub_w,
                                f->sub_h};
    return 2;
}

/* VPC (310P profile): docs/dvpp.md "VPC limits". */
const oa_dvpp_rules oa_dvpp_vpc_in_rules = {
    "VPC", "input", 10, 6, 8192, 8192, 16, 0, 32, 16384, 6, 16384, true};
const oa_dvpp_rules oa_dvpp_vpc_out_rules = {
    "VPC", "output", 10, 6, 4096, 4096, 16, 0, 32, 16384, 6, 16384, false};

oa_status oa_dvpp_vpc_8k_check(const oa_dvpp_pic *in)
{
    if (in->w <= 4096u && in->h <= 4096u) {
        return OA_OK;
    }
    const oa_dvpp_fmt *f = in->fmt;
    const bool ok = f->layout == OA_DVPP_LAYOUT_Y || (f->layout == OA_DVPP_LAYOUT_SP && f->sub_w >= f->sub_h);
    if (!ok) {
        return OA_FAIL(OA_E_PARAM,
                       "VPC input %ux%u is wider or taller than 4096: only YUV400 and YUV/YVU 420SP, 422SP, 444SP are "
                       "accepted above 4096, not %s",
                       in->w, in->h, f->name);
    }
    return OA_OK;
}

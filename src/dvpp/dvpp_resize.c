/*
 * VPC kernels on checked pictures: crop / resize / paste of one region into
 * another, plane by plane, and border filling. Interpolation follows
 * docs/dvpp.md "Interpolation": bilinear and nearest with OpenCV's pixel
 * mapping (modes 0, 1, 2) or TensorFlow's legacy mapping (modes 3, 4);
 * bilinear weights are 11-bit fixed point like OpenCV's, so results stay
 * within 1 level of the exact (floating-point) interpolation.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define OA_LOG_MODULE "ASCENDCL"
#include "base/error.h"
#include "dvpp/dvpp_internal.h"

#define WBITS 11
#define WONE (1 << WBITS)

oa_status oa_dvpp_interp_from_config(const acldvppResizeConfig *cfg, oa_dvpp_interp *out)
{
    const uint32_t v = cfg == NULL ? 0u : cfg->interpolation;
    switch (v) {
    case 0: /* the default algorithm of the 310P profile is bilinear */
    case 1:
        *out = OA_DVPP_INTERP_BILINEAR_CV;
        return OA_OK;
    case 2:
        *out = OA_DVPP_INTERP_NEAREST_CV;
        return OA_OK;
    case 3:
        *out = OA_DVPP_INTERP_BILINEAR_TF;
        return OA_OK;
    case 4:
        *out = OA_DVPP_INTERP_NEAREST_TF;
        return OA_OK;
    default:
        return OA_FAIL(OA_E_PARAM, "VPC interpolation [%u] is not supported (0..4; 5 is the high-order filter of "
                       "Atlas A2 / 200I-500 A2 only)", v);
    }
}

/* Source index and weight (of the second tap, 0..WONE) of destination index d. */
static void map_axis(uint32_t d, uint32_t sn, double scale, oa_dvpp_interp mode, uint32_t *i0, uint32_t *i1,
                     int32_t *wt)
{
    const bool cv = mode == OA_DVPP_INTERP_BILINEAR_CV || mode == OA_DVPP_INTERP_NEAREST_CV;
    if (mode == OA_DVPP_INTERP_NEAREST_CV || mode == OA_DVPP_INTERP_NEAREST_TF) {
        double f = floor((double)d * scale);
        uint32_t s = f < 0 ? 0u : (uint32_t)f;
        s = s < sn ? s : sn - 1u;
        *i0 = *i1 = s;
        *wt = 0;
        return;
    }
    const double f = cv ? ((double)d + 0.5) * scale - 0.5 : (double)d * scale;
    double fl = floor(f);
    double a = f - fl;
    if (fl < 0) {
        fl = 0;
        a = 0;
    }
    uint32_t s = (uint32_t)fl;
    if (s >= sn - 1u) {
        s = sn - 1u;
        a = 0;
    }
    *i0 = s;
    *i1 = s + 1u < sn ? s + 1u : s;
    *wt = (int32_t)lrint(a * WONE);
}

static oa_status resize_plane(const uint8_t *src, size_t spitch, uint32_t sw, uint32_t sh, uint8_t *dst,
                              size_t dpitch, uint32_t dw, uint32_t dh, uint32_t c, oa_dvpp_interp mode)
{
    if (sw == dw && sh == dh) {
        for (uint32_t y = 0; y < dh; ++y) {
            memcpy(dst + (size_t)y * dpitch, src + (size_t)y * spitch, (size_t)dw * c);
        }
        return OA_OK;
    }
    uint32_t *x0 = malloc((size_t)dw * (2 * sizeof(uint32_t) + sizeof(int32_t)));
    if (x0 == NULL) {
        return OA_FAIL(OA_E_NOMEM, "VPC: resize tables for width %u", dw);
    }
    uint32_t *x1 = x0 + dw;
    int32_t *wx = (int32_t *)(x1 + dw);
    const double sx = (double)sw / dw;
    const double sy = (double)sh / dh;
    for (uint32_t x = 0; x < dw; ++x) {
        map_axis(x, sw, sx, mode, &x0[x], &x1[x], &wx[x]);
        x0[x] *= c;
        x1[x] *= c;
    }
    for (uint32_t y = 0; y < dh; ++y) {
        uint32_t y0 = 0;
        uint32_t y1 = 0;
        int32_t wy = 0;
        map_axis(y, sh, sy, mode, &y0, &y1, &wy);
        const uint8_t *r0 = src + (size_t)y0 * spitch;
        const uint8_t *r1 = src + (size_t)y1 * spitch;
        uint8_t *o = dst + (size_t)y * dpitch;
        if (mode == OA_DVPP_INTERP_NEAREST_CV || mode == OA_DVPP_INTERP_NEAREST_TF) {
            for (uint32_t x = 0; x < dw; ++x) {
                for (uint32_t k = 0; k < c; ++k) {
                    o[x * c + k] = r0[x0[x] + k];
                }
            }
            continue;
        }
        const uint32_t by = (uint32_t)wy;
        const uint32_t ay = WONE - by;
        for (uint32_t x = 0; x < dw; ++x) {
            const uint32_t bx = (uint32_t)wx[x];
            const uint32_t ax = WONE - bx;
            const uint8_t *p0 = r0 + x0[x];
            const uint8_t *p1 = r0 + x1[x];
            const uint8_t *q0 = r1 + x0[x];
            const uint8_t *q1 = r1 + x1[x];
            for (uint32_t k = 0; k < c; ++k) {
                const uint32_t top = p0[k] * ax + p1[k] * bx;
                const uint32_t bot = q0[k] * ax + q1[k] * bx;
                o[x * c + k] = (uint8_t)((top * ay + bot * by + (1u << (2 * WBITS - 1))) >> (2 * WBITS));
            }
        }
    }
    free(x0);
    return OA_OK;
}

/* The part of plane p covering the picture rectangle r (at least one sample). */
static void plane_rect(const oa_dvpp_plane *p, oa_dvpp_rect r, uint32_t *x, uint32_t *y, uint32_t *w, uint32_t *h)
{
    uint32_t x0 = r.x >> p->sub_w;
    uint32_t y0 = r.y >> p->sub_h;
    uint32_t x1 = (r.x + r.w) >> p->sub_w;
    uint32_t y1 = (r.y + r.h) >> p->sub_h;
    x0 = x0 < p->w ? x0 : p->w - 1u;
    y0 = y0 < p->h ? y0 : p->h - 1u;
    x1 = x1 > p->w ? p->w : (x1 > x0 ? x1 : x0 + 1u);
    y1 = y1 > p->h ? p->h : (y1 > y0 ? y1 : y0 + 1u);
    *x = x0;
    *y = y0;
    *w = x1 - x0;
    *h = y1 - y0;
}

oa_status oa_dvpp_resize(const oa_dvpp_pic *in, oa_dvpp_rect src_r, const oa_dvpp_pic *out, oa_dvpp_rect dst_r,
                         oa_dvpp_interp mode)
{
    oa_dvpp_plane ip[2];
    oa_dvpp_plane op[2];
    const int n = oa_dvpp_pic_planes(in, ip);
    (void)oa_dvpp_pic_planes(out, op);
    for (int i = 0; i < n; ++i) {
        if (ip[i].w == 0 || ip[i].h == 0 || op[i].w == 0 || op[i].h == 0) { /* plane_rect needs a sample */
            return OA_FAIL(OA_E_PARAM, "VPC: resize of %ux%u %s into %ux%u %s has an empty plane", in->w, in->h,
                           in->fmt->name, out->w, out->h, out->fmt->name);
        }
        uint32_t sx = 0, sy = 0, sw = 0, sh = 0, dx = 0, dy = 0, dw = 0, dh = 0;
        plane_rect(&ip[i], src_r, &sx, &sy, &sw, &sh);
        plane_rect(&op[i], dst_r, &dx, &dy, &dw, &dh);
        const uint32_t c = ip[i].ch;
        uint8_t *d = op[i].p + (size_t)dy * op[i].pitch + (size_t)dx * c;
        const oa_status st =
            resize_plane(ip[i].p + (size_t)sy * ip[i].pitch + (size_t)sx * c, ip[i].pitch, sw, sh, d, op[i].pitch,
                         dw, dh, c, mode);
        if (st != OA_OK) {
            return st;
        }
        if (i == 1 && in->fmt->swap_uv != out->fmt->swap_uv) { /* NV12 <-> NV21 */
            for (uint32_t y = 0; y < dh; ++y) {
                uint8_t *row = d + (size_t)y * op[i].pitch;
                for (uint32_t x = 0; x < dw; ++x) {
                    const uint8_t t = row[2 * x];
                    row[2 * x] = row[2 * x + 1];
                    row[2 * x + 1] = t;
                }
            }
        }
    }
    return OA_OK;
}

/* ---- borders ---- */

/* Source index of border position i (outside [0, n)) for an OpenCV-style border type. */
static uint32_t border_index(int64_t i, uint32_t n, uint32_t type)
{
    if (n == 1) {
        return 0;
    }
    const int64_t m = n;
    while (i < 0 || i >= m) {
        if (type == BORDER_REPLICATE) {
            i = i < 0 ? 0 : m - 1;
        } else if (type == BORDER_REFLECT) {
            i = i < 0 ? -i - 1 : 2 * m - i - 1;
        } else { /* BORDER_REFLECT_101 */
            i = i < 0 ? -i : 2 * m - i - 2;
        }
    }
    return (uint32_t)i;
}

static uint8_t clamp_value(double v)
{
    return v <= 0 ? 0 : (v >= 255 ? 255 : (uint8_t)lrint(v));
}

void oa_dvpp_border_fill(const oa_dvpp_pic *pic, oa_dvpp_rect inner, const acldvppBorderConfig *cfg)
{
    oa_dvpp_plane pl[2];
    const int n = oa_dvpp_pic_planes(pic, pl);
    for (int i = 0; i < n; ++i) {
        const oa_dvpp_plane *p = &pl[i];
        const uint32_t c = p->ch;
        const uint32_t ix = inner.x >> p->sub_w;
        const uint32_t iy = inner.y >> p->sub_h;
        const uint32_t iw = inner.w >> p->sub_w;
        const uint32_t ih = inner.h >> p->sub_h;
        const uint32_t w = pic->w >> p->sub_w;
        const uint32_t h = pic->h >> p->sub_h;
        uint8_t value[4] = {0, 0, 0, 0};
        for (uint32_t k = 0; k < c && k < 4; ++k) {
            uint32_t idx = i == 0 ? k : 1u + k;
            if (i == 1 && pic->fmt->swap_uv) {
                idx = 2u - k; /* chroma stored V first: value[1] is U, value[2] is V */
            }
            value[k] = clamp_value(cfg->value[idx < OA_DVPP_BORDER_VALUES ? idx : 0]);
        }
        for (uint32_t y = 0; y < h; ++y) {
            uint8_t *row = p->p + (size_t)y * p->pitch;
            const bool inside_row = y >= iy && y < iy + ih;
            if (!inside_row) {
                if (cfg->type == BORDER_CONSTANT) {
                    for (uint32_t x = 0; x < w; ++x) {
                        memcpy(row + (size_t)x * c, value, c);
                    }
                }
                continue; /* other types: copied from a finished row below */
            }
            for (uint32_t x = 0; x < w; ++x) {
                if (x >= ix && x < ix + iw) {
                    x = ix + iw - 1u;
                    continue;
                }
                if (cfg->type == BORDER_CONSTANT) {
                    memcpy(row + (size_t)x * c, value, c);
                } else {
                    const uint32_t s = ix + border_index((int64_t)x - ix, iw, cfg->type);
                    memmove(row + (size_t)x * c, row + (size_t)s * c, c);
                }
            }
        }
        if (cfg->type == BORDER_CONSTANT) {
            continue;
        }
        for (uint32_t y = 0; y < h; ++y) {
            if (y >= iy && y < iy + ih) {
                continue;
            }
            const uint32_t s = iy + border_index((int64_t)y - iy, ih, cfg->type);
            memcpy(p->p + (size_t)y * p->pitch, p->p + (size_t)s * p->pitch, (size_t)w * c);
        }
    }
}

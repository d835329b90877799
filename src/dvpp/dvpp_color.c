/*
 * acldvppVpcConvertColorAsync: conversion between the YUV (400, semi-planar,
 * packed) and RGB (888, 8888) formats of the same size. The picture goes
 * through full-resolution planes: chroma is replicated when read and
 * averaged over its block when written; YUV <-> RGB uses the channel's
 * colour matrix (BT.601/709/2020, full or narrow range) in 16-bit fixed
 * point (docs/dvpp.md "Colour conversion").
 */
#include <stdlib.h>
#include <string.h>

#define OA_LOG_MODULE "ASCENDCL"
#include "base/acl_check.h"
#include "dvpp/dvpp_internal.h"

#define Q 16
#define QHALF (1 << (Q - 1))

typedef struct csc_coeffs {
    int32_t to_rgb[3][3]; /* rows R,G,B over (Y - y0, U - 128, V - 128) */
    int32_t to_yuv[3][3]; /* rows Y,U,V over (R, G, B) */
    int32_t y0;
} csc_coeffs;

static int32_t q(double v)
{
    return (int32_t)(v * (1 << Q) + (v < 0 ? -0.5 : 0.5));
}

static void csc_init(uint32_t matrix, csc_coeffs *c)
{
    static const double kr[3] = {0.299, 0.2126, 0.2627};
    static const double kb[3] = {0.114, 0.0722, 0.0593};
    const uint32_t m = matrix / 2u < 3u ? matrix / 2u : 0u;
    const bool narrow = (matrix & 1u) != 0;
    const double r = kr[m];
    const double b = kb[m];
    const double g = 1.0 - r - b;
    const double sy = narrow ? 255.0 / 219.0 : 1.0;
    const double sc = narrow ? 255.0 / 224.0 : 1.0;
    const double rv = 2 * (1 - r);
    const double bu = 2 * (1 - b);
    const double to_rgb[3][3] = {{sy, 0, rv * sc}, {sy, -bu * b / g * sc, -rv * r / g * sc}, {sy, bu * sc, 0}};
    const double iy = 1.0 / sy;
    const double ic = 1.0 / sc;
    const double to_yuv[3][3] = {{r * iy, g * iy, b * iy},
                                 {-r / bu * ic, -g / bu * ic, (1 - b) / bu * ic},
                                 {(1 - r) / rv * ic, -g / rv * ic, -b / rv * ic}};
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            c->to_rgb[i][j] = q(to_rgb[i][j]);
            c->to_yuv[i][j] = q(to_yuv[i][j]);
        }
    }
    c->y0 = narrow ? 16 : 0;
}

static uint8_t sat(int32_t v)
{
    v = (v + QHALF) >> Q;
    return (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : v));
}

/* Reads pic into full-resolution planes p[0..2] (Y,U,V or R,G,B) and alpha a. */
static void unpack(const oa_dvpp_pic *pic, uint8_t *p[3], uint8_t *a)
{
    const oa_dvpp_fmt *f = pic->fmt;
    const uint32_t w = pic->w;
    const uint32_t h = pic->h;
    for (uint32_t y = 0; y < h; ++y) {
        const uint8_t *row = pic->data + (size_t)y * pic->ws;
        const size_t o = (size_t)y * w;
        for (uint32_t x = 0; x < w; ++x) {
            uint8_t c0 = row[x];
            uint8_t c1 = 128;
            uint8_t c2 = 128;
            uint8_t al = 255;
            if (f->layout == OA_DVPP_LAYOUT_SP) {
                const uint8_t *cr = pic->data + (size_t)pic->ws * pic->hs +
                                    (size_t)(y >> f->sub_h) * ((size_t)pic->ws * 2u >> f->sub_w) + ((x >> f->sub_w) * 2u);
                c1 = cr[f->swap_uv ? 1 : 0];
                c2 = cr[f->swap_uv ? 0 : 1];
            } else if (f->packed422) {
                const uint8_t *g = row + (size_t)(x / 2u) * 4u;
                c0 = g[f->order[(x & 1u) ? 2 : 0]];
                c1 = g[f->order[1]];
                c2 = g[f->order[3]];
            } else if (f->layout == OA_DVPP_LAYOUT_PACKED) {
                const uint8_t *px = row + (size_t)x * f->bpp;
                c0 = px[f->order[0]];
                c1 = px[f->order[1]];
                c2 = px[f->order[2]];
                al = f->alpha ? px[f->order[3]] : 255;
            }
            p[0][o + x] = c0;
            p[1][o + x] = c1;
            p[2][o + x] = c2;
            a[o + x] = al;
        }
    }
}

/* Mean of plane p over the block [x, x + bw) x [y, y + bh) clipped to w x h, rounded. */
static uint8_t block_mean(const uint8_t *p, uint32_t w, uint32_t h, uint32_t x, uint32_t y, uint32_t bw, uint32_t bh)
{
    uint32_t s = 0;
    uint32_t n = 0;
    for (uint32_t j = y; j < y + bh && j < h; ++j) {
        for (uint32_t i = x; i < x + bw && i < w; ++i) {
            s += p[(size_t)j * w + i];
            ++n;
        }
    }
    return (uint8_t)((s + n / 2u) / n);
}

static void pack(const oa_dvpp_pic *pic, uint8_t *p[3], const uint8_t *a)
{
    const oa_dvpp_fmt *f = pic->fmt;
    const uint32_t w = pic->w;
    const uint32_t h = pic->h;
    for (uint32_t y = 0; y < h; ++y) {
        uint8_t *row = pic->data + (size_t)y * pic->ws;
        const size_t o = (size_t)y * w;
        if (f->layout != OA_DVPP_LAYOUT_PACKED) {
            memcpy(row, p[0] + o, w);
        } else if (f->packed422) {
            for (uint32_t x = 0; x + 1u < w; x += 2) {
                uint8_t *g = row + (size_t)(x / 2u) * 4u;
                g[f->order[0]] = p[0][o + x];
                g[f->order[2]] = p[0][o + x + 1];
                g[f->order[1]] = block_mean(p[1], w, h, x, y, 2, 1);
                g[f->order[3]] = block_mean(p[2], w, h, x, y, 2, 1);
            }
        } else {
            for (uint32_t x = 0; x < w; ++x) {
                uint8_t *px = row + (size_t)x * f->bpp;
                px[f->order[0]] = p[0][o + x];
                px[f->order[1]] = p[1][o + x];
                px[f->order[2]] = p[2][o + x];
                if (f->alpha) {
                    px[f->order[3]] = a[o + x];
                }
            }
        }
    }
    if (f->layout != OA_DVPP_LAYOUT_SP) {
        return;
    }
    const uint32_t bw = 1u << f->sub_w;
    const uint32_t bh = 1u << f->sub_h;
    const size_t pitch = (size_t)pic->ws * 2u >> f->sub_w;
    for (uint32_t y = 0; y < (h >> f->sub_h); ++y) {
        uint8_t *cr = pic->data + (size_t)pic->ws * pic->hs + (size_t)y * pitch;
        for (uint32_t x = 0; x < (w >> f->sub_w); ++x) {
            const uint8_t u = block_mean(p[1], w, h, x * bw, y * bh, bw, bh);
            const uint8_t v = block_mean(p[2], w, h, x * bw, y * bh, bw, bh);
            cr[2 * x] = f->swap_uv ? v : u;
            cr[2 * x + 1] = f->swap_uv ? u : v;
        }
    }
}

oa_status oa_dvpp_convert(const oa_dvpp_pic *in, const oa_dvpp_pic *out, uint32_t csc_matrix)
{
    csc_coeffs csc;
    csc_init(csc_matrix, &csc);
    const size_t n = (size_t)in->w * in->h;
    uint8_t *buf = malloc(4 * n);
    if (buf == NULL) {
        return OA_FAIL(OA_E_NOMEM, "VPC convert colour: %zu bytes of planes", 4 * n);
    }
    uint8_t *p[3] = {buf, buf + n, buf + 2 * n};
    uint8_t *a = buf + 3 * n;
    unpack(in, p, a);
    const oa_dvpp_family from = in->fmt->family;
    const oa_dvpp_family to = out->fmt->family;
    const csc_coeffs *c = &csc;
    for (size_t i = 0; i < n && from != to; ++i) {
        const int32_t v0 = p[0][i];
        const int32_t v1 = p[1][i];
        const int32_t v2 = p[2][i];
        if (from == OA_DVPP_FAMILY_YUV) {
            const int32_t yy = v0 - c->y0;
            const int32_t u = v1 - 128;
            const int32_t v = v2 - 128;
            p[0][i] = sat(c->to_rgb[0][0] * yy + c->to_rgb[0][1] * u + c->to_rgb[0][2] * v);
            p[1][i] = sat(c->to_rgb[1][0] * yy + c->to_rgb[1][1] * u + c->to_rgb[1][2] * v);
            p[2][i] = sat(c->to_rgb[2][0] * yy + c->to_rgb[2][1] * u + c->to_rgb[2][2] * v);
        } else {
            p[0][i] = sat(c->to_yuv[0][0] * v0 + c->to_yuv[0][1] * v1 + c->to_yuv[0][2] * v2 + (c->y0 << Q));
            p[1][i] = sat(c->to_yuv[1][0] * v0 + c->to_yuv[1][1] * v1 + c->to_yuv[1][2] * v2 + (128 << Q));
            p[2][i] = sat(c->to_yuv[2][0] * v0 + c->to_yuv[2][1] * v1 + c->to_yuv[2][2] * v2 + (128 << Q));
        }
    }
    pack(out, p, a);
    free(buf);
    return OA_OK;
}

typedef struct color_job {
    oa_dvpp_pic in, out;
    uint32_t csc;
    acldvppPicDesc *desc;
} color_job;

static oa_status color_run(void *p)
{
    color_job *j = p;
    const oa_status st = oa_dvpp_convert(&j->in, &j->out, j->csc);
    j->desc->ret_code = (uint32_t)oa_status_to_acl(st);
    return st;
}

static oa_status color_submit(acldvppChannelDesc *ch, acldvppPicDesc *in, acldvppPicDesc *out, aclrtStream stream)
{
    oa_status st = oa_dvpp_channel_check(ch, DVPP_CHNMODE_VPC);
    if (st != OA_OK) {
        return st;
    }
    color_job *j = calloc(1, sizeof(*j));
    if (j == NULL) {
        return OA_FAIL(OA_E_NOMEM, "VPC convert colour task");
    }
    st = oa_dvpp_pic_check(in, &oa_dvpp_vpc_in_rules, &j->in);
    if (st == OA_OK) {
        st = oa_dvpp_pic_check(out, &oa_dvpp_vpc_out_rules, &j->out);
    }
    if (st == OA_OK && (j->in.w != j->out.w || j->in.h != j->out.h)) {
        st = OA_FAIL(OA_E_PARAM, "VPC convert colour: output %ux%u must have the input's size %ux%u", j->out.w,
                     j->out.h, j->in.w, j->in.h);
    }
    if (st != OA_OK) {
        free(j);
        return st;
    }
    j->csc = ch->csc;
    j->desc = out;
    return oa_dvpp_submit(stream, color_run, j);
}

ACL_FUNC_VISIBILITY aclError acldvppVpcConvertColorAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                                                         acldvppPicDesc *outputDesc, aclrtStream stream)
{
    return oa_status_to_acl(color_submit(channelDesc, inputDesc, outputDesc, stream));
}

/*
 * The AIPP kernel: swap -> crop -> CSC -> normalisation (DTC) -> padding,
 * from raw u8 images to float32 NCHW/NHWC, exactly as docs/aipp.md states.
 */
#define OA_LOG_MODULE "KERNELS"
#include "kernels/aipp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/fp16.h"
#include "kernels/kernel_internal.h"


#define AIPP_MAX_W 4096

static const char *const g_fmt_names[OA_AIPP_FMT_COUNT] = {
    "UNDEFINED", "YUV420SP_U8", "XRGB8888_U8", "RGB888_U8", "YUV400_U8", "NC1HWC0DI_FP16", "NC1HWC0DI_S8",
    "ARGB8888_U8", "YUYV_U8", "YUV422SP_U8", "AYUV444_U8", "RAW10", "RAW12", "RAW16", "RAW24", "RGB16",
    "RGB20", "RGB24", "RGB8_IR", "RGB16_IR", "RGB24_IR"};

const char *oa_aipp_format_name(int32_t fmt)
{
    return fmt >= 0 && fmt < OA_AIPP_FMT_COUNT ? g_fmt_names[fmt] : NULL;
}

int oa_aipp_format_channels(int32_t fmt)
{
    switch (fmt) {
    case OA_AIPP_FMT_YUV400_U8:
        return 1;
    case OA_AIPP_FMT_YUV420SP_U8:
    case OA_AIPP_FMT_RGB888_U8:
    case OA_AIPP_FMT_YUYV_U8:
    case OA_AIPP_FMT_YUV422SP_U8:
        return 3;
    case OA_AIPP_FMT_XRGB8888_U8:
    case OA_AIPP_FMT_ARGB8888_U8:
    case OA_AIPP_FMT_AYUV444_U8:
        return 4;
    default:
        return 0;
    }
}

static bool is_yuv_family(int32_t fmt)
{
    return fmt == OA_AIPP_FMT_YUV420SP_U8 || fmt == OA_AIPP_FMT_YUYV_U8 || fmt == OA_AIPP_FMT_YUV422SP_U8 ||
           fmt == OA_AIPP_FMT_AYUV444_U8 || fmt == OA_AIPP_FMT_YUV400_U8;
}

size_t oa_aipp_image_bytes(int32_t fmt, int64_t w, int64_t h)
{
    if (w <= 0 || h <= 0 || w > AIPP_MAX_W || h > AIPP_MAX_W) {
        return 0;
    }
    const size_t px = (size_t)w * (size_t)h;
    switch (fmt) {
    case OA_AIPP_FMT_YUV420SP_U8:
        return (w % 2 || h % 2) ? 0 : px * 3 / 2;
    case OA_AIPP_FMT_YUV400_U8:
        return px;
    case OA_AIPP_FMT_RGB888_U8:
        return px * 3;
    case OA_AIPP_FMT_YUYV_U8:
    case OA_AIPP_FMT_YUV422SP_U8:
        return w % 2 ? 0 : px * 2;
    case OA_AIPP_FMT_XRGB8888_U8:
    case OA_AIPP_FMT_ARGB8888_U8:
    case OA_AIPP_FMT_AYUV444_U8:
        return px * 4;
    default:
        return 0;
    }
}

void oa_aipp_output_hw(const oa_aipp_params *p, int32_t src_w, int32_t src_h, int32_t *out_h, int32_t *out_w)
{
    int32_t h = src_h, w = src_w;
    if (p->crop) {
        h = p->crop_size_h;
        w = p->crop_size_w;
    }
    if (p->padding) {
        h += p->top_padding_size + p->bottom_padding_size;
        w += p->left_padding_size + p->right_padding_size;
    }
    *out_h = h;
    *out_w = w;
}

oa_status oa_aipp_check(const oa_aipp_params *p, int32_t src_w, int32_t src_h)
{
    const char *fn = oa_aipp_format_name(p->input_format);
    if (oa_aipp_format_channels(p->input_format) == 0) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "AIPP input_format %s (%d) is not supported by the CPU AIPP kernel",
                       fn ? fn : "?", (int)p->input_format);
    }
    if (oa_aipp_image_bytes(p->input_format, src_w, src_h) == 0) {
        return OA_FAIL(OA_E_PARAM, "AIPP source image %dx%d is invalid for %s (1..4096, even sizes where subsampled)",
                       (int)src_w, (int)src_h, fn);
    }
    if (p->resize) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "AIPP resize is reserved by CANN and not supported");
    }
    if (p->csc_switch && p->input_format == OA_AIPP_FMT_YUV400_U8) {
        return OA_FAIL(OA_E_PARAM, "AIPP csc_switch must be off for YUV400_U8");
    }
    if (p->crop) {
        if (p->load_start_pos_w < 0 || p->load_start_pos_h < 0 || p->crop_size_w <= 0 || p->crop_size_h <= 0 ||
            (int64_t)p->load_start_pos_w + p->crop_size_w > src_w ||
            (int64_t)p->load_start_pos_h + p->crop_size_h > src_h) {
            return OA_FAIL(OA_E_PARAM, "AIPP crop (start %d,%d size %dx%d) is not inside the %dx%d source image",
                           (int)p->load_start_pos_w, (int)p->load_start_pos_h, (int)p->crop_size_w,
                           (int)p->crop_size_h, (int)src_w, (int)src_h);
        }
        bool even_w = p->input_format == OA_AIPP_FMT_YUV420SP_U8 || p->input_format == OA_AIPP_FMT_YUV422SP_U8 ||
                      p->input_format == OA_AIPP_FMT_YUYV_U8;
        if ((even_w && p->load_start_pos_w % 2) ||
            (p->input_format == OA_AIPP_FMT_YUV420SP_U8 && p->load_start_pos_h % 2)) {
            return OA_FAIL(OA_E_PARAM, "AIPP crop start (%d,%d) must be even for %s", (int)p->load_start_pos_w,
                           (int)p->load_start_pos_h, fn);
        }
    }
    if (p->padding) {
        const int32_t pads[4] = {p->left_padding_size, p->right_padding_size, p->top_padding_size,
                                 p->bottom_padding_size};
        for (int i = 0; i < 4; i++) {
            if (pads[i] < 0 || pads[i] > 32) {
                return OA_FAIL(OA_E_PARAM, "AIPP padding size %d is outside [0, 32]", (int)pads[i]);
            }
        }
    }
    return OA_OK;
}

/*
 * Rounds x to the nearest binary16 value, ties to even, saturating at
 * +/-65504 (docs/aipp.md "Normalisation"). x -> float with round-to-odd
 * (13 spare bits), then float -> binary16 round-to-nearest-even: no double
 * rounding.
 */
static inline float round_fp16(double x)
{
    x = x > 65504.0 ? 65504.0 : x < -65504.0 ? -65504.0 : x;
    float f = (float)x;
    if ((double)f != x) {
        uint32_t u;
        memcpy(&u, &f, sizeof u);
        if (fabs((double)f) > fabs(x)) {
            u -= 1; /* one step toward zero: truncation */
        }
        u |= 1; /* sticky */
        memcpy(&f, &u, sizeof f);
    }
    return oa_f16_to_f32(oa_f32_to_f16(f));
}

typedef struct aipp_ctx {
    const oa_aipp_params *p;
    int32_t src_w, src_h, out_w, out_h;
    const uint8_t *src;
    size_t img_bytes;
    int out_c;
    int cstride; /* interleaved: floats per pixel (out_c for NHWC, the block for NCHWc) */
    bool nhwc;   /* interleaved (NHWC / NCHWc with one block) rather than planar NCHW */
    float *dst;
    float lut[4][256]; /* DTC result per channel and 8-bit pixel value (docs/aipp.md "Normalisation") */
    float pad_value;
} aipp_ctx;

/* Reads one source row segment [x0, x0+n) into ch[0..3] (after the swaps). */
static void read_row(const aipp_ctx *c, const uint8_t *img, int32_t y, int32_t x0, int32_t n,
                     uint8_t ch[4][AIPP_MAX_W])
{
    const oa_aipp_params *p = c->p;
    const int32_t w = c->src_w, h = c->src_h;
    const bool rb = p->rbuv_swap_switch;
    switch (p->input_format) {
    case OA_AIPP_FMT_YUV400_U8:
        memcpy(ch[0], img + (size_t)y * w + x0, (size_t)n);
        break;
    case OA_AIPP_FMT_RGB888_U8: {
        const uint8_t *r = img + ((size_t)y * w + x0) * 3;
        for (int32_t i = 0; i < n; i++) {
            ch[0][i] = r[3 * i + (rb ? 2 : 0)];
            ch[1][i] = r[3 * i + 1];
            ch[2][i] = r[3 * i + (rb ? 0 : 2)];
        }
        break;
    }
    case OA_AIPP_FMT_XRGB8888_U8:
    case OA_AIPP_FMT_ARGB8888_U8:
    case OA_AIPP_FMT_AYUV444_U8: {
        const uint8_t *r = img + ((size_t)y * w + x0) * 4;
        const int o = p->ax_swap_switch ? 1 : 0; /* ax_swap: the X/A byte comes first */
        const int xo = p->ax_swap_switch ? 0 : 3;
        const bool yuv = p->input_format == OA_AIPP_FMT_AYUV444_U8;
        const int s1 = yuv ? 1 : 0, s2 = 2; /* the two channels rbuv_swap exchanges */
        for (int32_t i = 0; i < n; i++) {
            uint8_t v[3] = {r[4 * i + o], r[4 * i + o + 1], r[4 * i + o + 2]};
            if (rb) {
                uint8_t t = v[s1];
                v[s1] = v[s2];
                v[s2] = t;
            }
            ch[0][i] = v[0];
            ch[1][i] = v[1];
            ch[2][i] = v[2];
            ch[3][i] = r[4 * i + xo];
        }
        break;
    }
    case OA_AIPP_FMT_YUV420SP_U8:
    case OA_AIPP_FMT_YUV422SP_U8: {
        const uint8_t *yr = img + (size_t)y * w;
        const int32_t cy = p->input_format == OA_AIPP_FMT_YUV420SP_U8 ? y / 2 : y;
        const uint8_t *uv = img + (size_t)w * h + (size_t)cy * w;
        const int ui = rb ? 1 : 0, vi = rb ? 0 : 1;
        for (int32_t i = 0; i < n; i++) {
            int32_t x = x0 + i, cx = (x / 2) * 2;
            ch[0][i] = yr[x];
            ch[1][i] = uv[cx + ui];
            ch[2][i] = uv[cx + vi];
        }
        break;
    }
    case OA_AIPP_FMT_YUYV_U8: {
        const uint8_t *r = img + (size_t)y * w * 2;
        const int ui = rb ? 3 : 1, vi = rb ? 1 : 3;
        for (int32_t i = 0; i < n; i++) {
            int32_t x = x0 + i, b = (x / 2) * 4;
            ch[0][i] = r[2 * x];
            ch[1][i] = r[b + ui];
            ch[2][i] = r[b + vi];
        }
        break;
    }
    default:
        break;
    }
}

static inline int32_t floor_shift8(int32_t a)
{
    return a >= 0 ? a / 256 : -((-a + 255) / 256);
}

static inline uint8_t clamp_u8(int32_t v)
{
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

static void csc_row(const oa_aipp_params *p, int32_t n, uint8_t ch[4][AIPP_MAX_W])
{
    const bool yuv = is_yuv_family(p->input_format);
    for (int32_t i = 0; i < n; i++) {
        int32_t in[3] = {ch[0][i], ch[1][i], ch[2][i]};
        if (yuv) {
            for (int k = 0; k < 3; k++) {
                in[k] -= p->input_bias[k];
            }
        }
        for (int r = 0; r < 3; r++) {
            int32_t acc = p->matrix[r][0] * in[0] + p->matrix[r][1] * in[1] + p->matrix[r][2] * in[2];
            int32_t v = floor_shift8(acc);
            if (!yuv) {
                v += p->output_bias[r];
            }
            ch[r][i] = clamp_u8(v);
        }
    }
}

static void aipp_rows(void *ctx, size_t tid, size_t begin, size_t end)
{
    (void)tid;
    const aipp_ctx *c = ctx;
    const oa_aipp_params *p = c->p;
    uint8_t ch[4][AIPP_MAX_W];
    const int32_t top = p->padding ? p->top_padding_size : 0;
    const int32_t left = p->padding ? p->left_padding_size : 0;
    const int32_t cw = p->crop ? p->crop_size_w : c->src_w;
    const int32_t ch_h = p->crop ? p->crop_size_h : c->src_h;
    const int32_t x0 = p->crop ? p->load_start_pos_w : 0;
    const int32_t y0 = p->crop ? p->load_start_pos_h : 0;
    const size_t plane = (size_t)c->out_h * (size_t)c->out_w;
    for (size_t row = begin; row < end; row++) {
        const size_t b = row / (size_t)c->out_h;
        const int32_t oy = (int32_t)(row % (size_t)c->out_h);
        float *img_out = c->dst + b * plane * (size_t)(c->nhwc ? c->cstride : c->out_c);
        const bool pad_row = oy < top || oy >= top + ch_h;
        if (!pad_row) {
            read_row(c, c->src + b * c->img_bytes, y0 + oy - top, x0, cw, ch);
            if (p->csc_switch) {
                csc_row(p, cw, ch);
            }
        }
        for (int k = 0; k < c->out_c; k++) {
            float *o;
            size_t step;
            if (c->nhwc) {
                o = img_out + (size_t)oy * c->out_w * c->cstride + k;
                step = (size_t)c->cstride;
            } else {
                o = img_out + (size_t)k * plane + (size_t)oy * c->out_w;
                step = 1;
            }
            if (pad_row) {
                for (int32_t x = 0; x < c->out_w; x++) {
                    o[x * step] = c->pad_value;
                }
                continue;
            }
            for (int32_t x = 0; x < left; x++) {
                o[x * step] = c->pad_value;
            }
            for (int32_t x = left + cw; x < c->out_w; x++) {
                o[x * step] = c->pad_value;
            }
            const float *lut = c->lut[k];
            const uint8_t *src = ch[k];
            float *oo = o + (size_t)left * step;
            for (int32_t x = 0; x < cw; x++) {
                oo[x * step] = lut[src[x]];
            }
        }
        if (c->nhwc && c->cstride > c->out_c) { /* NCHWc: the block's padding channels are zeros */
            float *o = img_out + (size_t)oy * c->out_w * c->cstride;
            for (int32_t x = 0; x < c->out_w; x++) {
                memset(o + (size_t)x * c->cstride + c->out_c, 0, sizeof(float) * (size_t)(c->cstride - c->out_c));
            }
        }
    }
}

static oa_status aipp_run(const oa_aipp_params *p, int32_t src_w, int32_t src_h, int64_t batch, const uint8_t *src,
                          int out_c, bool nhwc, int cstride, float *dst, oa_threadpool *pool)
{
    if (p == NULL || src == NULL || dst == NULL || batch <= 0) {
        return OA_FAIL(OA_E_PARAM, "AIPP: null buffer or batch %lld <= 0", (long long)batch);
    }
    oa_status st = oa_aipp_check(p, src_w, src_h);
    if (st != OA_OK) {
        return st;
    }
    if (out_c < 1 || out_c > oa_aipp_format_channels(p->input_format)) {
        return OA_FAIL(OA_E_PARAM, "AIPP: %d output channels requested, %s gives at most %d", out_c,
                       oa_aipp_format_name(p->input_format), oa_aipp_format_channels(p->input_format));
    }
    aipp_ctx c = {.p = p, .src_w = src_w, .src_h = src_h, .src = src, .out_c = out_c, .cstride = cstride,
                  .nhwc = nhwc, .dst = dst};
    oa_aipp_output_hw(p, src_w, src_h, &c.out_h, &c.out_w);
    c.img_bytes = oa_aipp_image_bytes(p->input_format, src_w, src_h);
    /* Every stage before DTC yields 8-bit values, so DTC is one table per channel. */
    for (int k = 0; k < 4; k++) {
        const double var = round_fp16(p->var_reci_chn[k]), mn = round_fp16(p->min_chn[k]);
        for (int v = 0; v < 256; v++) {
            c.lut[k][v] = round_fp16(((double)v - p->mean_chn[k] - mn) * var);
        }
    }
    c.pad_value = p->padding_value;
    const size_t rows = (size_t)batch * (size_t)c.out_h;
    if (pool == NULL) {
        aipp_rows(&c, 0, 0, rows);
    } else {
        oa_threadpool_parallel_for(pool, rows, 8, aipp_rows, &c);
    }
    return OA_OK;
}

oa_status oa_aipp_run(const oa_aipp_params *p, int32_t src_w, int32_t src_h, int64_t batch, const uint8_t *src,
                      int out_c, bool nhwc, float *dst, oa_threadpool *pool)
{
    return aipp_run(p, src_w, src_h, batch, src, out_c, nhwc, out_c, dst, pool);
}

oa_status oa_aipp_run_nchwc(const oa_aipp_params *p, int32_t src_w, int32_t src_h, int64_t batch,
                            const uint8_t *src, int out_c, int block, float *dst, oa_threadpool *pool)
{
    if (block < out_c || block > 64) {
        return OA_FAIL(OA_E_PARAM, "AIPP: NCHWc block %d must hold the %d output channels (and be <= 64)", block,
                       out_c);
    }
    return aipp_run(p, src_w, src_h, batch, src, out_c, true, block, dst, pool);
}

/* ---- the dynamic parameter block (docs/aipp.md "Dynamic parameter block") ---- */

static int32_t rd_i32(const uint8_t *p)
{
    uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    int32_t r;
    memcpy(&r, &v, sizeof r);
    return r;
}

static uint16_t rd_u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static int16_t rd_i16(const uint8_t *p)
{
    const uint16_t v = rd_u16(p);
    int16_t r;
    memcpy(&r, &v, sizeof r);
    return r;
}

/* The head's format code (CCE numbering) -> input_format (proto numbering); 0 when unknown. */
static int32_t format_from_cce(uint8_t code)
{
    static const int32_t map[17] = {0,
                                    OA_AIPP_FMT_YUV420SP_U8,
                                    OA_AIPP_FMT_XRGB8888_U8,
                                    OA_AIPP_FMT_NC1HWC0DI_FP16,
                                    OA_AIPP_FMT_NC1HWC0DI_S8,
                                    OA_AIPP_FMT_RGB888_U8,
                                    OA_AIPP_FMT_ARGB8888_U8,
                                    OA_AIPP_FMT_YUYV_U8,
                                    OA_AIPP_FMT_YUV422SP_U8,
                                    OA_AIPP_FMT_AYUV444_U8,
                                    OA_AIPP_FMT_YUV400_U8,
                                    OA_AIPP_FMT_RAW10,
                                    OA_AIPP_FMT_RAW12,
                                    OA_AIPP_FMT_RAW16,
                                    0,
                                    0,
                                    OA_AIPP_FMT_RAW24};
    return code < 17 ? map[code] : 0;
}

static bool switch_ok(uint8_t v)
{
    return v == 0 || v == 1;
}

oa_status oa_aipp_params_from_block(const uint8_t *blk, size_t len, int64_t image, oa_aipp_params *out)
{
    if (blk == NULL || out == NULL || image < 0) {
        return OA_FAIL(OA_E_PARAM, "dynamic AIPP block: null argument or negative image index");
    }
    if (len < OA_AIPP_BLOCK_HEAD) {
        return OA_FAIL(OA_E_PARAM, "dynamic AIPP block of %zu bytes is shorter than its %d-byte head", len,
                       OA_AIPP_BLOCK_HEAD);
    }
    const int8_t batch = (int8_t)blk[4];
    if (image >= batch) {
        return OA_FAIL(OA_E_PARAM, "dynamic AIPP image %lld is not below the block's batchNum %d", (long long)image,
                       (int)batch);
    }
    const size_t need = OA_AIPP_BLOCK_HEAD + OA_AIPP_BLOCK_IMAGE * (size_t)(image + 1);
    if (len < need) {
        return OA_FAIL(OA_E_PARAM, "dynamic AIPP block of %zu bytes is too short for image %lld (%zu bytes)", len,
                       (long long)image, need);
    }
    const uint8_t *b = blk + OA_AIPP_BLOCK_HEAD + OA_AIPP_BLOCK_IMAGE * (size_t)image;
    if (!switch_ok(blk[1]) || !switch_ok(blk[2]) || !switch_ok(blk[3]) || !switch_ok(b[0]) || !switch_ok(b[1]) ||
        !switch_ok(b[2]) || !switch_ok(b[3])) {
        return OA_FAIL(OA_E_PARAM, "dynamic AIPP block: a switch of image %lld is neither 0 nor 1", (long long)image);
    }
    if (b[1] || b[3]) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "dynamic AIPP: %s is not supported", b[1] ? "scf (resize)" : "rotation");
    }
    memset(out, 0, sizeof *out);
    out->aipp_mode = OA_AIPP_MODE_DYNAMIC;
    out->input_format = format_from_cce(blk[0]);
    if (out->input_format == 0) {
        return OA_FAIL(OA_E_PARAM, "dynamic AIPP block: unknown input format code %u", (unsigned)blk[0]);
    }
    out->csc_switch = blk[1];
    out->rbuv_swap_switch = blk[2];
    out->ax_swap_switch = blk[3];
    out->src_image_size_w = rd_i32(blk + 8);
    out->src_image_size_h = rd_i32(blk + 12);
    for (int i = 0; i < 9; i++) {
        out->matrix[i / 3][i % 3] = rd_i16(blk + 16 + 2 * i);
    }
    for (int i = 0; i < 3; i++) {
        out->output_bias[i] = blk[40 + i];
        out->input_bias[i] = blk[43 + i];
    }
    out->crop = b[0];
    out->padding = b[2];
    out->load_start_pos_w = rd_i32(b + 8);
    out->load_start_pos_h = rd_i32(b + 12);
    out->crop_size_w = rd_i32(b + 16);
    out->crop_size_h = rd_i32(b + 20);
    out->top_padding_size = rd_i32(b + 40);
    out->bottom_padding_size = rd_i32(b + 44);
    out->left_padding_size = rd_i32(b + 48);
    out->right_padding_size = rd_i32(b + 52);
    for (int k = 0; k < 4; k++) {
        out->mean_chn[k] = rd_i16(b + 56 + 2 * k);
        out->min_chn[k] = oa_f16_to_f32(rd_u16(b + 64 + 2 * k));
        out->var_reci_chn[k] = oa_f16_to_f32(rd_u16(b + 72 + 2 * k));
    }
    return OA_OK;
}

oa_status oa_aipp_run_dynamic(const uint8_t *blk, size_t len, int64_t batch, const uint8_t *src, size_t src_len,
                              int out_c, int32_t out_h, int32_t out_w, bool nhwc, float *dst, oa_threadpool *pool)
{
    if (blk == NULL || src == NULL || dst == NULL || batch <= 0) {
        return OA_FAIL(OA_E_PARAM, "dynamic AIPP: null buffer or batch %lld <= 0", (long long)batch);
    }
    oa_aipp_params p;
    oa_status st;
    /* Check every image first: a bad image leaves dst untouched. */
    for (int64_t b = 0; b < batch; b++) {
        if ((st = oa_aipp_params_from_block(blk, len, b, &p)) != OA_OK) {
            return st;
        }
        if ((st = oa_aipp_check(&p, p.src_image_size_w, p.src_image_size_h)) != OA_OK) {
            return st;
        }
        int32_t h, w;
        oa_aipp_output_hw(&p, p.src_image_size_w, p.src_image_size_h, &h, &w);
        if (h != out_h || w != out_w) {
            return OA_FAIL(OA_E_PARAM,
                           "dynamic AIPP image %lld gives %dx%d (HxW) but the model input after AIPP is %dx%d",
                           (long long)b, (int)h, (int)w, (int)out_h, (int)out_w);
        }
    }
    const size_t img = oa_aipp_image_bytes(p.input_format, p.src_image_size_w, p.src_image_size_h);
    if (src_len / img < (size_t)batch) {
        return OA_FAIL(OA_E_PARAM, "dynamic AIPP: %zu input bytes hold fewer than %lld images of %zu bytes", src_len,
                       (long long)batch, img);
    }
    const size_t plane = (size_t)out_h * (size_t)out_w * (size_t)out_c;
    for (int64_t b = 0; b < batch; b++) {
        if ((st = oa_aipp_params_from_block(blk, len, b, &p)) != OA_OK ||
            (st = oa_aipp_run(&p, p.src_image_size_w, p.src_image_size_h, 1, src + img * (size_t)b, out_c, nhwc,
                              dst + plane * (size_t)b, pool)) != OA_OK) {
            return st;
        }
    }
    return OA_OK;
}

/* ---- the kernel family (kernels.h "Aipp") ---- */

static oa_status aipp_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    const oa_kaipp_params *kp = params;
    if (n_in < 1 || n_out != 1 || in[0].dtype != OA_KDT_U8 || kp->out_c < 1 || kp->out_c > 4 || kp->out_h <= 0 ||
        kp->out_w <= 0) {
        return OA_FAIL(OA_E_PARAM, "aipp: needs u8 images, one output and an output of 1-4 channels");
    }
    const bool dynamic = kp->aipp == NULL;
    if (dynamic && (n_in < 2 || in[1].dtype != OA_KDT_U8 || kp->n <= 0)) {
        return OA_FAIL(OA_E_PARAM, "aipp: dynamic AIPP needs the u8 parameter block input and a batch");
    }
    if (!dynamic && in[0].rank != 4) {
        return OA_FAIL(OA_E_PARAM, "aipp: static AIPP needs 4-D images, got rank %d", in[0].rank);
    }
    const int64_t n = dynamic ? kp->n : in[0].dims[0];
    const int64_t d[4] = {n, kp->nhwc ? kp->out_h : kp->out_c, kp->nhwc ? kp->out_w : kp->out_h,
                          kp->nhwc ? kp->out_c : kp->out_w};
    oa_ktensor_set(&out[0], OA_KDT_F32, 4, d);
    return OA_OK;
}

static oa_status aipp_setup(oa_kop *op)
{
    const oa_kaipp_params *kp = &op->params.aipp;
    if (kp->aipp == NULL) {
        return OA_OK;
    }
    oa_aipp_params *p = malloc(sizeof(*p));
    if (p == NULL) {
        return OA_FAIL(OA_E_NOMEM, "aipp parameters");
    }
    *p = *kp->aipp;
    oa_status st = oa_aipp_check(p, p->src_image_size_w, p->src_image_size_h);
    const size_t img = oa_aipp_image_bytes(p->input_format, p->src_image_size_w, p->src_image_size_h);
    int32_t h = 0, w = 0;
    oa_aipp_output_hw(p, p->src_image_size_w, p->src_image_size_h, &h, &w);
    const int64_t n = op->in[0].dims[0];
    if (st == OA_OK && (n <= 0 || img == 0 || (size_t)oa_ktensor_numel(&op->in[0]) / (size_t)n < img)) {
        st = OA_FAIL(OA_E_PARAM, "aipp: images %lld x %lld bytes do not hold %dx%d %s images", (long long)n,
                     (long long)(n > 0 ? oa_ktensor_numel(&op->in[0]) / n : 0), (int)p->src_image_size_w,
                     (int)p->src_image_size_h, oa_aipp_format_name(p->input_format));
    }
    if (st == OA_OK && (h != kp->out_h || w != kp->out_w)) {
        st = OA_FAIL(OA_E_PARAM, "aipp: the parameters give %dx%d (HxW), the output is %dx%d", (int)h, (int)w,
                     (int)kp->out_h, (int)kp->out_w);
    }
    if (st != OA_OK) {
        free(p);
        return st;
    }
    op->state = p;
    op->params.aipp.aipp = p; /* the caller's copy need not outlive create */
    op->impl = "ref";
    return OA_OK;
}

static oa_status aipp_exec(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)ws;
    const oa_kaipp_params *kp = &op->params.aipp;
    if (kp->aipp != NULL) {
        const oa_aipp_params *p = op->state;
        return oa_aipp_run(p, p->src_image_size_w, p->src_image_size_h, op->in[0].dims[0], in[0], kp->out_c,
                           kp->nhwc, out[0], pool);
    }
    return oa_aipp_run_dynamic(in[1], (size_t)oa_ktensor_numel(&op->in[1]), kp->n, in[0],
                               (size_t)oa_ktensor_numel(&op->in[0]), kp->out_c, kp->out_h, kp->out_w, kp->nhwc,
                               out[0], pool);
}

const oa_kfamily oa_kfam_aipp = {
    .params_size = sizeof(oa_kaipp_params),
    .infer = aipp_infer,
    .setup = aipp_setup,
    .run = aipp_exec,
    .release = oa_kop_state_free,
};

/*
 * Pooling family: MaxPoolV3, AvgPoolV2 (pads, SAME/VALID/CALCULATED,
 * ceil_mode, exclusive/count_include_pad, divisor_override) and
 * GlobalAveragePool / global pooling, on NCHW and NCHWc f32 tensors.
 * One task = one (n, channel) plane (NCHW) or (n, channel block) plane
 * (NCHWc, the c lanes processed together).
 * The general path (pool_gen_*: 3-D windows, dilations, the argmax output,
 * f16/f64/i8/u8) is a direct loop over the taps; the 2-D f32 path above it
 * is left as it was.
 */
#include "kernels/kernel_internal.h"

#include <math.h>
#include <stdlib.h>

#include "base/fp16.h"

typedef struct pool_geom {
    int64_t n, c, h, w, oh, ow, kh, kw, sh, sw, pt, pb, pl, pr;
    bool blocked, max, exclusive;
    int64_t divisor;
} pool_geom;

static oa_status out_dim(const oa_kpool_params *p, int64_t in, int64_t k, int64_t s, int64_t *pa, int64_t *pb,
                         int64_t *out)
{
    if (p->padding_mode == OA_KPAD_SAME || p->padding_mode == OA_KPAD_SAME_LOWER) {
        *out = (in + s - 1) / s;
        int64_t tot = (*out - 1) * s + k - in;
        tot = tot < 0 ? 0 : tot;
        const bool lower = p->padding_mode == OA_KPAD_SAME_LOWER; /* the odd cell goes first */
        *pa = lower ? tot - tot / 2 : tot / 2;
        *pb = tot - *pa;
        return OA_OK;
    }
    if (p->padding_mode == OA_KPAD_VALID) {
        *pa = *pb = 0;
    }
    int64_t span = in + *pa + *pb - k;
    if (span < 0) {
        return OA_FAIL(OA_E_PARAM, "pool: window %lld larger than padded input %lld", (long long)k,
                       (long long)(in + *pa + *pb));
    }
    if (p->ceil_mode && p->padding_mode == OA_KPAD_CALCULATED) {
        *out = (span + s - 1) / s + 1;
        if ((*out - 1) * s >= in + *pa) { /* last window must start inside input or top padding */
            (*out)--;
        }
    } else {
        *out = span / s + 1;
    }
    return OA_OK;
}

static oa_status pool_geometry(const oa_kpool_params *p, const oa_ktensor *x, pool_geom *g)
{
    if (x->rank != 4) {
        return OA_FAIL(OA_E_PARAM, "pool: x must be 4-D NCHW, got rank %d", x->rank);
    }
    if (x->dtype != OA_KDT_F32) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "pool: x must be f32, got %s", oa_kdtype_name(x->dtype));
    }
    memset(g, 0, sizeof(*g));
    g->n = x->dims[0];
    g->c = x->dims[1];
    g->h = x->dims[2];
    g->w = x->dims[3];
    g->blocked = x->layout == OA_KLAYOUT_NCHWC;
    g->max = p->kind == OA_KPOOL_MAX;
    g->exclusive = p->exclusive;
    g->divisor = p->divisor_override;
    if (p->global) {
        g->kh = g->h;
        g->kw = g->w;
        g->sh = g->sw = 1;
        g->oh = g->ow = 1;
        if (g->h == 0 || g->w == 0) {
            return OA_FAIL(OA_E_PARAM, "global pool over an empty plane");
        }
        return OA_OK;
    }
    g->kh = p->ksize[0];
    g->kw = p->ksize[1];
    g->sh = p->strides[0];
    g->sw = p->strides[1];
    if (g->kh <= 0 || g->kw <= 0 || g->sh <= 0 || g->sw <= 0) {
        return OA_FAIL(OA_E_PARAM, "pool: ksize (%lld,%lld) and strides (%lld,%lld) must be positive",
                       (long long)g->kh, (long long)g->kw, (long long)g->sh, (long long)g->sw);
    }
    g->pt = p->pads[0];
    g->pb = p->pads[1];
    g->pl = p->pads[2];
    g->pr = p->pads[3];
    if (g->pt < 0 || g->pb < 0 || g->pl < 0 || g->pr < 0) {
        return OA_FAIL(OA_E_PARAM, "pool: negative pads");
    }
    if ((unsigned)p->padding_mode > OA_KPAD_SAME_LOWER) {
        return OA_FAIL(OA_E_PARAM, "pool: unknown padding mode %d", (int)p->padding_mode);
    }
    oa_status st = out_dim(p, g->h, g->kh, g->sh, &g->pt, &g->pb, &g->oh);
    if (st == OA_OK) {
        st = out_dim(p, g->w, g->kw, g->sw, &g->pl, &g->pr, &g->ow);
    }
    return st;
}

/* ---- the general path ---- */

typedef struct pool_gen {
    int64_t n, c, in[3], out[3], k[3], s[3], dl[3], pb[3], pe[3]; /* d, h, w (d = 1 for a 4-D x) */
    oa_kdtype dt;
    bool max, exclusive, argmax, col_major;
    int64_t divisor;
} pool_gen;

typedef struct pool_state {
    bool gen;
    pool_geom g;
    pool_gen ng;
} pool_state;

static bool pool_is_general(const oa_kpool_params *p, const oa_ktensor *x, int n_out)
{
    return !p->global && (x->rank == 5 || x->dtype != OA_KDT_F32 || n_out == 2 || p->dilations[0] > 1 ||
                          p->dilations[1] > 1 || p->dilations[2] > 1);
}

/* One spatial dim: effective window ek = dl*(k-1)+1; the rules of out_dim. */
static oa_status gen_dim(const oa_kpool_params *p, int64_t in, int64_t k, int64_t s, int64_t dl, int64_t *pa,
                         int64_t *pb, int64_t *out)
{
    if (k <= 0 || s <= 0 || dl <= 0 || *pa < 0 || *pb < 0 || k > INT32_MAX || s > INT32_MAX || dl > INT32_MAX ||
        *pa > INT32_MAX || *pb > INT32_MAX) {
        return OA_FAIL(OA_E_PARAM, "pool: window %lld, stride %lld, dilation %lld, pads %lld/%lld out of range",
                       (long long)k, (long long)s, (long long)dl, (long long)*pa, (long long)*pb);
    }
    return out_dim(p, in, dl * (k - 1) + 1, s, pa, pb, out);
}

static oa_status pool_gen_geometry(const oa_kpool_params *p, const oa_ktensor *x, int n_out, pool_gen *g)
{
    memset(g, 0, sizeof(*g));
    if (x->rank != 4 && x->rank != 5) {
        return OA_FAIL(OA_E_PARAM, "pool: x must be 4-D or 5-D, got rank %d", x->rank);
    }
    if (x->layout != OA_KLAYOUT_PLAIN) {
        return OA_FAIL(OA_E_PARAM, "pool: 3-D, dilated, argmax or non-f32 pooling needs a plain layout");
    }
    g->dt = x->dtype;
    g->max = p->kind == OA_KPOOL_MAX;
    const bool fl = g->dt == OA_KDT_F32 || g->dt == OA_KDT_F16 || g->dt == OA_KDT_F64;
    if (!fl && !(g->max && (g->dt == OA_KDT_I8 || g->dt == OA_KDT_U8))) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "pool: %s pooling of %s is not supported",
                       g->max ? "max" : "average", oa_kdtype_name(g->dt));
    }
    if (n_out == 2 && !g->max) {
        return OA_FAIL(OA_E_PARAM, "pool: only max pooling has an argmax output");
    }
    if ((unsigned)p->padding_mode > OA_KPAD_SAME_LOWER) {
        return OA_FAIL(OA_E_PARAM, "pool: unknown padding mode %d", (int)p->padding_mode);
    }
    g->argmax = n_out == 2;
    g->col_major = p->argmax_col_major;
    g->exclusive = p->exclusive;
    g->divisor = p->divisor_override;
    g->n = x->dims[0];
    g->c = x->dims[1];
    const bool r5 = x->rank == 5;
    g->in[0] = r5 ? x->dims[2] : 1;
    g->in[1] = x->dims[r5 ? 3 : 2];
    g->in[2] = x->dims[r5 ? 4 : 3];
    const int64_t k[3] = {r5 ? (p->ksize_d ? p->ksize_d : 1) : 1, p->ksize[0], p->ksize[1]};
    const int64_t s[3] = {r5 ? (p->stride_d ? p->stride_d : 1) : 1, p->strides[0], p->strides[1]};
    const int64_t pa[3] = {r5 ? p->pads_d[0] : 0, p->pads[0], p->pads[2]};
    const int64_t pe[3] = {r5 ? p->pads_d[1] : 0, p->pads[1], p->pads[3]};
    for (int i = 0; i < 3; i++) {
        g->k[i] = k[i];
        g->s[i] = s[i];
        g->dl[i] = (i == 0 && !r5) || p->dilations[i] == 0 ? 1 : p->dilations[i];
        g->pb[i] = pa[i];
        g->pe[i] = pe[i];
        if (!r5 && i == 0) {
            g->out[0] = 1;
            continue;
        }
        oa_status st = gen_dim(p, g->in[i], g->k[i], g->s[i], g->dl[i], &g->pb[i], &g->pe[i], &g->out[i]);
        if (st != OA_OK) {
            return st;
        }
    }
    return OA_OK;
}

static inline double gen_load(oa_kdtype dt, const void *x, int64_t i)
{
    switch (dt) {
    case OA_KDT_F16: return oa_f16_to_f32(((const uint16_t *)x)[i]);
    case OA_KDT_F64: return ((const double *)x)[i];
    case OA_KDT_I8: return ((const int8_t *)x)[i];
    case OA_KDT_U8: return ((const uint8_t *)x)[i];
    default: return ((const float *)x)[i];
    }
}

static inline void gen_store(oa_kdtype dt, void *y, int64_t i, double v)
{
    switch (dt) {
    case OA_KDT_F16: ((uint16_t *)y)[i] = oa_f32_to_f16((float)v); break;
    case OA_KDT_F64: ((double *)y)[i] = v; break;
    case OA_KDT_I8: ((int8_t *)y)[i] = (int8_t)v; break; /* a max of int8 values */
    case OA_KDT_U8: ((uint8_t *)y)[i] = (uint8_t)v; break;
    default: ((float *)y)[i] = (float)v; break;
    }
}

typedef struct pool_gen_ctx {
    const pool_gen *g;
    const void *x;
    void *y;
    int64_t *idx;
} pool_gen_ctx;

/* Taps of one dim inside [lo, hi) for the window starting at `start`: first tap index and count. */
static void gen_taps(int64_t start, int64_t k, int64_t dl, int64_t lo, int64_t hi, int64_t *t0, int64_t *t1)
{
    int64_t a = 0, b = k;
    if (start < lo) {
        a = (lo - start + dl - 1) / dl;
    }
    if (start + (k - 1) * dl >= hi) {
        b = hi - start <= 0 ? 0 : (hi - start + dl - 1) / dl;
    }
    *t0 = a;
    *t1 = b < a ? a : b;
}

static void pool_gen_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const pool_gen_ctx *c = vctx;
    const pool_gen *g = c->g;
    const int64_t plane = g->in[0] * g->in[1] * g->in[2];
    const int64_t oplane = g->out[0] * g->out[1] * g->out[2];
    for (size_t pi = b; pi < e; pi++) {
        const int64_t xb = (int64_t)pi * plane, yb = (int64_t)pi * oplane;
        int64_t o = 0;
        for (int64_t od = 0; od < g->out[0]; od++) {
            const int64_t sd = od * g->s[0] - g->pb[0];
            int64_t d0, d1, dp0, dp1;
            gen_taps(sd, g->k[0], g->dl[0], 0, g->in[0], &d0, &d1);
            gen_taps(sd, g->k[0], g->dl[0], -g->pb[0], g->in[0] + g->pe[0], &dp0, &dp1);
            for (int64_t oh = 0; oh < g->out[1]; oh++) {
                const int64_t sh = oh * g->s[1] - g->pb[1];
                int64_t h0, h1, hp0, hp1;
                gen_taps(sh, g->k[1], g->dl[1], 0, g->in[1], &h0, &h1);
                gen_taps(sh, g->k[1], g->dl[1], -g->pb[1], g->in[1] + g->pe[1], &hp0, &hp1);
                for (int64_t ow = 0; ow < g->out[2]; ow++, o++) {
                    const int64_t sw = ow * g->s[2] - g->pb[2];
                    int64_t w0, w1, wp0, wp1;
                    gen_taps(sw, g->k[2], g->dl[2], 0, g->in[2], &w0, &w1);
                    gen_taps(sw, g->k[2], g->dl[2], -g->pb[2], g->in[2] + g->pe[2], &wp0, &wp1);
                    double acc = g->max ? -INFINITY : 0.0;
                    int64_t best = -1;
                    for (int64_t td = d0; td < d1; td++) {
                        const int64_t id = sd + td * g->dl[0];
                        for (int64_t th = h0; th < h1; th++) {
                            const int64_t ih = sh + th * g->dl[1];
                            for (int64_t tw = w0; tw < w1; tw++) {
                                const int64_t iw = sw + tw * g->dl[2];
                                const int64_t xi = (id * g->in[1] + ih) * g->in[2] + iw;
                                const double v = gen_load(g->dt, c->x, xb + xi);
                                if (!g->max) {
                                    acc += v;
                                } else if (v > acc || (best < 0 && !isnan(v))) { /* NaN never wins (as the 2-D path) */
                                    acc = v;
                                    best = xi;
                                }
                            }
                        }
                    }
                    if (g->max) {
                        const bool fl = g->dt == OA_KDT_F32 || g->dt == OA_KDT_F16 || g->dt == OA_KDT_F64;
                        gen_store(g->dt, c->y, yb + o, best >= 0 ? acc : fl ? -INFINITY : 0.0);
                        if (g->argmax) {
                            int64_t bi = best < 0 ? 0 : best;
                            if (g->col_major) { /* (d, h, w) -> d + h*D + w*D*H */
                                const int64_t iw = bi % g->in[2], ih = (bi / g->in[2]) % g->in[1],
                                              id = bi / (g->in[2] * g->in[1]);
                                bi = id + ih * g->in[0] + iw * g->in[0] * g->in[1];
                            }
                            c->idx[yb + o] = xb + bi;
                        }
                    } else {
                        const int64_t cnt = g->divisor ? g->divisor
                                                       : (g->exclusive ? (d1 - d0) * (h1 - h0) * (w1 - w0)
                                                                       : (dp1 - dp0) * (hp1 - hp0) * (wp1 - wp0));
                        gen_store(g->dt, c->y, yb + o, cnt > 0 ? acc / (double)cnt : 0.0);
                    }
                }
            }
        }
    }
}

static oa_status pool_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    if (n_in != 1 || (n_out != 1 && n_out != 2)) {
        return OA_FAIL(OA_E_PARAM, "pool: 1 input and 1 or 2 outputs (got %d, %d)", n_in, n_out);
    }
    const oa_kpool_params *p = params;
    if ((unsigned)p->kind > OA_KPOOL_AVG) {
        return OA_FAIL(OA_E_PARAM, "pool: unknown kind %d", (int)p->kind);
    }
    if (pool_is_general(p, &in[0], n_out)) {
        pool_gen g;
        oa_status st = pool_gen_geometry(p, &in[0], n_out, &g);
        if (st != OA_OK) {
            return st;
        }
        int64_t d[5] = {g.n, g.c, g.out[0], g.out[1], g.out[2]};
        if (in[0].rank == 4) {
            d[2] = g.out[1];
            d[3] = g.out[2];
        }
        oa_ktensor_set(&out[0], g.dt, in[0].rank, d);
        if (n_out == 2) {
            oa_ktensor_set(&out[1], OA_KDT_I64, in[0].rank, d);
        }
        return OA_OK;
    }
    if (n_out != 1) {
        return OA_FAIL(OA_E_PARAM, "pool: global pooling has 1 output");
    }
    pool_geom g;
    oa_status st = pool_geometry(p, &in[0], &g);
    if (st != OA_OK) {
        return st;
    }
    int64_t d[4] = {g.n, g.c, g.oh, g.ow};
    oa_ktensor_set(&out[0], OA_KDT_F32, 4, d);
    out[0].layout = in[0].layout;
    return OA_OK;
}

static oa_status pool_setup(oa_kop *op)
{
    pool_state *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "pool state");
    }
    op->state = s;
    s->gen = pool_is_general(&op->params.pool, &op->in[0], op->n_out);
    op->impl = s->gen ? "ref" : oa_kernels_isa(); /* windows: the tier's loops (pool_rows) */
    return s->gen ? pool_gen_geometry(&op->params.pool, &op->in[0], op->n_out, &s->ng)
                  : pool_geometry(&op->params.pool, &op->in[0], &s->g);
}

typedef struct pool_ctx {
    const pool_geom *g;
    const float *x;
    float *y;
} pool_ctx;

/*
 * One plane of pooling with CB channel lanes per pixel (1 for NCHW, the block
 * for NCHWc); CB is a compile-time constant in each instance so the lane loops
 * vectorise.
 */
#define POOL_PLANE(CB)                                                                                    \
    static void pool_plane_##CB(const pool_geom *g, const float *x, float *y)                            \
    {                                                                                                     \
        if (g->oh == 1 && g->ow == 1 && g->kh == g->h && g->kw == g->w && g->pt == 0 && g->pl == 0) {     \
            float acc[CB];                                                                                \
            for (int j = 0; j < CB; j++) {                                                                \
                acc[j] = g->max ? -INFINITY : 0.0f;                                                       \
            }                                                                                             \
            const int64_t n = g->h * g->w;                                                                \
            if (g->max) {                                                                                 \
                for (int64_t i = 0; i < n; i++) {                                                         \
                    for (int j = 0; j < CB; j++) {                                                        \
                        float v = x[i * CB + j];                                                          \
                        acc[j] = v > acc[j] ? v : acc[j];                                     \
                    }                                                                                     \
                }                                                                                         \
            } else if (CB == 1) {                                                                         \
                acc[0] = oa_kew()->sum(x, (size_t)n);                                                     \
            } else {                                                                                      \
                for (int64_t i = 0; i < n; i++) {                                                         \
                    for (int j = 0; j < CB; j++) {                                                        \
                        acc[j] += x[i * CB + j];                                                          \
                    }                                                                                     \
                }                                                                                         \
            }                                                                                             \
            float inv = g->max ? 1.0f : 1.0f / (float)(g->divisor ? g->divisor : n);                      \
            for (int j = 0; j < CB; j++) {                                                                \
                y[j] = acc[j] * inv;                                                                      \
            }                                                                                             \
            return;                                                                                       \
        }                                                                                                 \
        for (int64_t oh = 0; oh < g->oh; oh++) {                                                          \
            const int64_t hs = oh * g->sh - g->pt, he = hs + g->kh;                                       \
            const int64_t h0 = hs < 0 ? 0 : hs, h1 = he > g->h ? g->h : he;                               \
            const int64_t hp1 = he > g->h + g->pb ? g->h + g->pb : he;                                    \
            for (int64_t ow = 0; ow < g->ow; ow++) {                                                      \
                const int64_t ws = ow * g->sw - g->pl, we = ws + g->kw;                                   \
                const int64_t w0 = ws < 0 ? 0 : ws, w1 = we > g->w ? g->w : we;                           \
                const int64_t wp1 = we > g->w + g->pr ? g->w + g->pr : we;                                \
                float acc[CB];                                                                            \
                float *o = y + (oh * g->ow + ow) * CB;                                                    \
                if (g->max) {                                                                             \
                    for (int j = 0; j < CB; j++) {                                                        \
                        acc[j] = -INFINITY;                                                               \
                    }                                                                                     \
                    for (int64_t ih = h0; ih < h1; ih++) {                                                \
                        const float *row = x + ih * g->w * CB;                                            \
                        for (int64_t iw = w0; iw < w1; iw++) {                                            \
                            for (int j = 0; j < CB; j++) {                                                \
                                float v = row[iw * CB + j];                                               \
                                acc[j] = v > acc[j] ? v : acc[j];                             \
                            }                                                                             \
                        }                                                                                 \
                    }                                                                                     \
                    for (int j = 0; j < CB; j++) {                                                        \
                        o[j] = acc[j];                                                                    \
                    }                                                                                     \
                } else {                                                                                  \
                    for (int j = 0; j < CB; j++) {                                                        \
                        acc[j] = 0.0f;                                                                    \
                    }                                                                                     \
                    for (int64_t ih = h0; ih < h1; ih++) {                                                \
                        const float *row = x + ih * g->w * CB;                                            \
                        for (int64_t iw = w0; iw < w1; iw++) {                                            \
                            for (int j = 0; j < CB; j++) {                                                \
                                acc[j] += row[iw * CB + j];                                               \
                            }                                                                             \
                        }                                                                                 \
                    }                                                                                     \
                    int64_t cnt = g->divisor ? g->divisor                                                 \
                                             : (g->exclusive ? (h1 - h0) * (w1 - w0) : (hp1 - hs) * (wp1 - ws)); \
                    float inv = cnt > 0 ? 1.0f / (float)cnt : 0.0f;                                       \
                    for (int j = 0; j < CB; j++) {                                                        \
                        o[j] = acc[j] * inv;                                                              \
                    }                                                                                     \
                }                                                                                         \
            }                                                                                             \
        }                                                                                                 \
    }

POOL_PLANE(1)
POOL_PLANE(8)
POOL_PLANE(16)

/*
 * Windows (not global), separably: per output row, reduce the kh input rows
 * into one row of w pixels x cb lanes, then each output takes kw taps of it,
 * cb lanes at a time (1 for NCHW, the block for NCHWc averages), both through
 * the tier's vector loops (oa_kew pool_rows / pool_win). NCHWc max windows go
 * to pool_max_blk instead: each output from its taps, one vector a tap, was
 * 2-3x faster (ResNet's 3x3 stride-2 pool, YOLO's SPPF 5x5 ones; bench/KERNELS.md
 * "Row loops, max windows and embedding rows"). Returns false when the row
 * does not fit the stack buffer.
 */
static bool pool_rows(const pool_geom *g, const float *x, float *y, int64_t cb)
{
    float tmp[4096];
    const int64_t wl = g->w * cb;
    if (wl > 4096) {
        return false;
    }
    const oa_kew_table *ew = oa_kew();
    const int max = g->max;
    for (int64_t oh = 0; oh < g->oh; oh++) {
        const int64_t hs = oh * g->sh - g->pt, he = hs + g->kh;
        const int64_t h0 = hs < 0 ? 0 : hs, h1 = he > g->h ? g->h : he;
        const int64_t hp1 = he > g->h + g->pb ? g->h + g->pb : he;
        const float init = max ? -INFINITY : 0.0f;
        for (int64_t i = 0; i < wl; i++) {
            tmp[i] = init;
        }
        for (int64_t ih = h0; ih < h1; ih++) {
            ew->pool_rows(tmp, x + ih * wl, (size_t)wl, max);
        }
        float *o = y + oh * g->ow * cb;
        ew->pool_win(tmp, o, g->w, g->ow, g->kw, g->sw, g->pl, cb, max);
        if (max) {
            continue;
        }
        for (int64_t ow = 0; ow < g->ow; ow++) { /* averages: the sums over their counts */
            const int64_t ws = ow * g->sw - g->pl, we = ws + g->kw;
            const int64_t w0 = ws < 0 ? 0 : ws, w1 = we > g->w ? g->w : we;
            const int64_t wp1 = we > g->w + g->pr ? g->w + g->pr : we;
            const int64_t cnt = g->divisor ? g->divisor
                                           : (g->exclusive ? (h1 - h0) * (w1 - w0) : (hp1 - hs) * (wp1 - ws));
            for (int64_t j = 0; j < cb; j++) {
                o[ow * cb + j] = cnt > 0 ? o[ow * cb + j] / (float)cnt : 0.0f;
            }
        }
    }
    return true;
}

static void pool_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const pool_ctx *c = vctx;
    const pool_geom *g = c->g;
    const int64_t cb = g->blocked ? oa_kernels_block() : 1;
    const int64_t in_plane = g->h * g->w * cb, out_plane = g->oh * g->ow * cb;
    const int64_t planes_per_n = g->blocked ? (g->c + cb - 1) / cb : g->c;
    for (size_t idx = b; idx < e; idx++) {
        const float *x = c->x + (int64_t)idx * in_plane;
        float *y = c->y + (int64_t)idx * out_plane;
        bool global = g->oh == 1 && g->ow == 1 && g->kh == g->h && g->kw == g->w && g->pt == 0 && g->pl == 0;
        if (!global && g->max && cb > 1) { /* NCHWc max windows: each output from its taps */
            oa_kew()->pool_max_blk(x, y, g->h, g->w, g->oh, g->ow, g->kh, g->kw, g->sh, g->sw, g->pt, g->pl, cb);
        } else if (!global && pool_rows(g, x, y, cb)) {
            /* done */
        } else if (cb == 1) {
            pool_plane_1(g, x, y);
        } else if (cb == 8) {
            pool_plane_8(g, x, y);
        } else {
            pool_plane_16(g, x, y);
        }
        if (g->blocked && (int64_t)idx % planes_per_n == planes_per_n - 1 && g->c % cb != 0) {
            for (int64_t i = 0; i < g->oh * g->ow; i++) {
                for (int64_t j = g->c % cb; j < cb; j++) {
                    y[i * cb + j] = 0.0f;
                }
            }
        }
    }
}

static oa_status pool_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)ws;
    const pool_state *s = op->state;
    if (in[0] == NULL || out[0] == NULL || (s->gen && s->ng.argmax && out[1] == NULL)) {
        return OA_FAIL(OA_E_PARAM, "pool: NULL data pointer");
    }
    if (s->gen) {
        const pool_gen *ng = &s->ng;
        pool_gen_ctx gc = {ng, in[0], out[0], ng->argmax ? out[1] : NULL};
        int64_t gwork = ng->out[0] * ng->out[1] * ng->out[2] * ng->k[0] * ng->k[1] * ng->k[2] + 1;
        oa_threadpool_parallel_for(pool, (size_t)(ng->n * ng->c), (size_t)(OA_KGRAIN_ELEMS / gwork + 1), pool_gen_task,
                                   &gc);
        return OA_OK;
    }
    const pool_geom *g = &s->g;
    int64_t cb = g->blocked ? oa_kernels_block() : 1;
    int64_t planes = g->n * (g->blocked ? (g->c + cb - 1) / cb : g->c);
    int64_t work = g->oh * g->ow * g->kh * g->kw * cb + 1;
    pool_ctx c = {g, in[0], out[0]};
    oa_threadpool_parallel_for(pool, (size_t)planes, (size_t)(OA_KGRAIN_ELEMS / work + 1), pool_task, &c);
    return OA_OK;
}

const oa_kfamily oa_kfam_pool = {
    .params_size = sizeof(oa_kpool_params),
    .infer = pool_infer,
    .setup = pool_setup,
    .run = pool_run,
    .release = oa_kop_state_free,
};

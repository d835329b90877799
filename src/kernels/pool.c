/*
 * Pooling family: MaxPoolV3, AvgPoolV2 (pads, SAME/VALID/CALCULATED,
 * ceil_mode, exclusive/count_include_pad, divisor_override) and
 * GlobalAveragePool / global pooling, on NCHW and NCHWc f32 tensors.
 * One task = one (n, channel) plane (NCHW) or (n, channel block) plane
 * (NCHWc, the c lanes processed together).
 */
#include "kernels/kernel_internal.h"

#include <math.h>
#include <stdlib.h>

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

static oa_status pool_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    if (n_in != 1 || n_out != 1) {
        return OA_FAIL(OA_E_PARAM, "pool: 1 input and 1 output (got %d, %d)", n_in, n_out);
    }
    const oa_kpool_params *p = params;
    if ((unsigned)p->kind > OA_KPOOL_AVG) {
        return OA_FAIL(OA_E_PARAM, "pool: unknown kind %d", (int)p->kind);
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
    pool_geom *g = calloc(1, sizeof(*g));
    if (g == NULL) {
        return OA_FAIL(OA_E_NOMEM, "pool state");
    }
    op->state = g;
    op->impl = "ref";
    return pool_geometry(&op->params.pool, &op->in[0], g);
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
 * into one row of w pixels x CB lanes (contiguous, vectorised), then each
 * output takes kw taps of it, CB lanes at a time (1 for NCHW, the block for
 * NCHWc: YOLO's SPPF 5x5 max pools). Returns false when the row does not fit
 * the stack buffer.
 */
#define POOL_ROWS(CB)                                                                                     \
    static bool pool_rows_##CB(const pool_geom *g, const float *x, float *y)                             \
    {                                                                                                     \
        float tmp[4096];                                                                                  \
        if (g->w * CB > 4096) {                                                                           \
            return false;                                                                                 \
        }                                                                                                 \
        const int64_t wl = g->w * CB;                                                                     \
        for (int64_t oh = 0; oh < g->oh; oh++) {                                                          \
            const int64_t hs = oh * g->sh - g->pt, he = hs + g->kh;                                       \
            const int64_t h0 = hs < 0 ? 0 : hs, h1 = he > g->h ? g->h : he;                               \
            const int64_t hp1 = he > g->h + g->pb ? g->h + g->pb : he;                                    \
            const float init = g->max ? -INFINITY : 0.0f;                                                 \
            for (int64_t i = 0; i < wl; i++) {                                                            \
                tmp[i] = init;                                                                            \
            }                                                                                             \
            for (int64_t ih = h0; ih < h1; ih++) {                                                        \
                const float *row = x + ih * wl;                                                           \
                if (g->max) {                                                                             \
                    for (int64_t i = 0; i < wl; i++) {                                                    \
                        tmp[i] = row[i] > tmp[i] ? row[i] : tmp[i];                                       \
                    }                                                                                     \
                } else {                                                                                  \
                    for (int64_t i = 0; i < wl; i++) {                                                    \
                        tmp[i] += row[i];                                                                 \
                    }                                                                                     \
                }                                                                                         \
            }                                                                                             \
            float *o = y + oh * g->ow * CB;                                                               \
            for (int64_t ow = 0; ow < g->ow; ow++) {                                                      \
                const int64_t ws = ow * g->sw - g->pl, we = ws + g->kw;                                   \
                const int64_t w0 = ws < 0 ? 0 : ws, w1 = we > g->w ? g->w : we;                           \
                float acc[CB];                                                                            \
                for (int j = 0; j < CB; j++) {                                                            \
                    acc[j] = init;                                                                        \
                }                                                                                         \
                if (g->max) {                                                                             \
                    for (int64_t iw = w0; iw < w1; iw++) {                                                \
                        for (int j = 0; j < CB; j++) {                                                    \
                            const float v = tmp[iw * CB + j];                                             \
                            acc[j] = v > acc[j] ? v : acc[j];                                             \
                        }                                                                                 \
                    }                                                                                     \
                    for (int j = 0; j < CB; j++) {                                                        \
                        o[ow * CB + j] = acc[j];                                                          \
                    }                                                                                     \
                } else {                                                                                  \
                    for (int64_t iw = w0; iw < w1; iw++) {                                                \
                        for (int j = 0; j < CB; j++) {                                                    \
                            acc[j] += tmp[iw * CB + j];                                                   \
                        }                                                                                 \
                    }                                                                                     \
                    const int64_t wp1 = we > g->w + g->pr ? g->w + g->pr : we;                            \
                    int64_t cnt = g->divisor ? g->divisor                                                 \
                                             : (g->exclusive ? (h1 - h0) * (w1 - w0) : (hp1 - hs) * (wp1 - ws)); \
                    for (int j = 0; j < CB; j++) {                                                        \
                        o[ow * CB + j] = cnt > 0 ? acc[j] / (float)cnt : 0.0f;                            \
                    }                                                                                     \
                }                                                                                         \
            }                                                                                             \
        }                                                                                                 \
        return true;                                                                                      \
    }

POOL_ROWS(1)
POOL_ROWS(8)
POOL_ROWS(16)

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
        if (cb == 1) {
            if (global || !pool_rows_1(g, x, y)) {
                pool_plane_1(g, x, y);
            }
        } else if (cb == 8) {
            if (global || !pool_rows_8(g, x, y)) {
                pool_plane_8(g, x, y);
            }
        } else if (global || !pool_rows_16(g, x, y)) {
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
    const pool_geom *g = op->state;
    if (in[0] == NULL || out[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "pool: NULL data pointer");
    }
    int64_t cb = g->blocked ? oa_kernels_block() : 1;
    int64_t planes = g->n * (g->blocked ? (g->c + cb - 1) / cb : g->c);
    int64_t work = g->oh * g->ow * g->kh * g->kw * cb + 1;
    pool_ctx c = {g, in[0], out[0]};
    oa_threadpool_parallel_for(pool, (size_t)planes, (size_t)(OA_KGRAIN_ELEMS / work + 1), pool_task, &c);
    return OA_OK;
}

static void pool_release(oa_kop *op)
{
    free(op->state);
    op->state = NULL;
}

const oa_kfamily oa_kfam_pool = {
    .params_size = sizeof(oa_kpool_params),
    .infer = pool_infer,
    .setup = pool_setup,
    .run = pool_run,
    .release = pool_release,
};

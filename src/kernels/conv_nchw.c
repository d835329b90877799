/*
 * NCHW convs (a dynamic model's: no layout planned at compile time) on kernels of our own (conv_internal.h):
 * 1x1s and depthwise convs directly in NCHW, the others on our NCHWc kernels behind copies of x and y.
 */
#include "kernels/conv_internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/*
 * An NCHW conv (a dynamic model's: no layout planned at compile time) on the NCHWc kernels of our own
 * (Winograd, stem, depthwise, small planes) behind copies of x and y, docs/dynamic_models.md "Convolutions
 * without a planned layout": the inner op is the same conv on NCHWc tensors in the workspace; its post-ops
 * stop at the first residual add, which the copy back adds, and the rest run on y's rows while they are in
 * cache. Taken only when the inner op lands on one of our kernels: oneDNN already runs NCHW convs on
 * blocked copies itself (iblk).
 */
/* An f32 conv (not transposed) between NCHW tensors with an output: what the three paths of this file take. */
static bool nchw_conv(const oa_kop *op, const conv_state *s)
{
    const geom *g = &s->g;
    return !g->blocked && !g->transpose && !s->bf16 && op->in[0].layout == OA_KLAYOUT_PLAIN &&
           op->out[0].layout == OA_KLAYOUT_PLAIN && g->n * g->oc * g->oh * g->ow > 0;
}

bool oa_conv_detour_eligible(const oa_kop *op, const conv_state *s)
{
    return nchw_conv(op, s) && oa_env_long("OPENACL_CONV_DETOUR", 1) != 0;
}

static bool impl_is_ours(const char *impl)
{
    return impl != NULL && strncmp(impl, "onednn", 6) != 0 && strcmp(impl, "ref") != 0;
}

/* s->detour set when taken; OA_OK and no detour when the inner op would not run on our kernels. */
oa_status oa_conv_detour_setup(oa_kop *op, conv_state *s)
{
    const geom *g = &s->g;
    int from = 0;
    while (from < s->post.n && s->post.ops[from].kind != OA_KPOST_ADD) {
        from++;
    }
    oa_kconv_params p1 = op->params.conv;
    p1.post.n = from;
    const int first_add = 3 + (p1.fold_bn ? 4 : 0); /* x, filter, bias, the batch norm's four: at most 7 */
    const int n_in1 = op->n_in < first_add ? op->n_in : first_add;
    oa_ktensor in1[7], out1 = op->out[0];
    for (int i = 0; i < n_in1; i++) {
        in1[i] = op->in[i];
    }
    in1[0].data = NULL;
    out1.data = NULL;
    out1.layout = OA_KLAYOUT_NCHWC;
    /* few input channels: the stem kernels read plain x into a blocked y (no copy of x); Winograd reads plain x
     * too, a band of rows at a time as its tiles reach them (conv_wino.c), instead of a whole copy first */
    geom gb = *g;
    gb.blocked = true;
    const bool stem = g->ic < oa_kernels_block(), wino = oa_conv_wino_tile(&gb) != 0;
    for (int xpl = stem || wino ? 1 : 0; xpl >= 0; xpl--) {
        p1.out_nchwc = xpl != 0;
        in1[0].layout = xpl ? OA_KLAYOUT_PLAIN : OA_KLAYOUT_NCHWC;
        oa_kop *inner = NULL;
        oa_error_quiet_push();
        oa_dnnl_off_push(); /* only our kernels count: no oneDNN primitive built to be thrown away */
        oa_status st = oa_kop_create(OA_KOP_CONV2D, &p1, n_in1, in1, 1, &out1, &inner);
        oa_dnnl_off_pop();
        oa_error_quiet_pop();
        if (st != OA_OK || !impl_is_ours(inner->impl) ||
            (xpl && !stem && strncmp(inner->impl, "winograd", 8) != 0)) { /* plain x: the stem or Winograd only */
            oa_error_clear();
            oa_kop_destroy(inner);
            continue;
        }
        s->detour = inner;
        s->detour_xpl = xpl != 0;
        s->detour_from = from;
        s->detour_ws = (oa_kop_workspace_size(inner) + 63) / 64 * 64;
        const size_t xb = xpl ? 0 : sizeof(float) * (size_t)(g->n * oa_kc_padded(g->ic) * g->ih * g->iw);
        const size_t yb = sizeof(float) * (size_t)(g->n * oa_kc_padded(g->oc) * g->oh * g->ow);
        op->ws_size = s->detour_ws + (xb + 63) / 64 * 64 + yb;
        op->impl = inner->impl;
        s->post_from = s->post.n;
        return OA_OK;
    }
    return OA_OK;
}

typedef struct detour_ctx {
    const conv_state *s;
    const void *const *in;
    const float *yb;
    float *y;
} detour_ctx;

/* NCHWc -> NCHW for one (image, channel block) per index, adding the residual, then the later post-ops */
static void detour_back_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const detour_ctx *c = vctx;
    const conv_state *s = c->s;
    const geom *g = &s->g;
    const int64_t blk = oa_kernels_block(), cb = (g->oc + blk - 1) / blk, hw = g->oh * g->ow;
    const int from = s->detour_from;
    const float *res = from < s->post.n ? (const float *)c->in[s->add_in[from]] : NULL;
    for (size_t idx = b; idx < e; idx++) {
        const int64_t n = (int64_t)idx / cb, k = (int64_t)idx % cb, c0 = k * blk;
        const int64_t nc = g->oc - c0 < blk ? g->oc - c0 : blk;
        const int64_t off = (n * g->oc + c0) * hw;
        oa_kblk_unpack(c->yb + (int64_t)idx * hw * blk, nc, hw, c->y + off, blk, res != NULL ? res + off : NULL);
        oa_conv_epilogue_channels(s, c->in, c->y, n, c0, c0 + nc, from + 1);
    }
}

oa_status oa_conv_detour_run(const conv_state *s, const void *const *in, void *const *out, void *ws,
                            oa_threadpool *pool)
{
    const geom *g = &s->g;
    char *base = (char *)ws + s->detour_ws;
    const void *x = in[0];
    if (!s->detour_xpl) {
        float *xb = (float *)(void *)base;
        blk_ctx bc = {in[0], xb, g->ic, g->ih * g->iw};
        const size_t tasks = (size_t)(g->n * (oa_kc_padded(g->ic) / oa_kernels_block()));
        oa_threadpool_parallel_for(pool, tasks, (size_t)(OA_KGRAIN_ELEMS / (bc.hw * 8 + 1) + 1),
                                   oa_conv_to_blocked_task, &bc);
        x = xb;
        base += (sizeof(float) * (size_t)(g->n * oa_kc_padded(g->ic) * g->ih * g->iw) + 63) / 64 * 64;
    }
    float *yb = (float *)(void *)base;
    const void *ins[7] = {x}; /* the inner op's inputs: x's copy, then the filter, bias and batch norm's */
    for (int i = 1; i < s->detour->n_in && i < 7; i++) {
        ins[i] = in[i];
    }
    void *outs[1] = {yb};
    oa_status st = oa_kop_run(s->detour, ins, outs, ws, pool);
    if (st != OA_OK) {
        return st;
    }
    detour_ctx c = {s, in, yb, out[0]};
    const size_t tasks = (size_t)(g->n * (oa_kc_padded(g->oc) / oa_kernels_block()));
    oa_threadpool_parallel_for(pool, tasks, (size_t)(OA_KGRAIN_ELEMS / (g->oh * g->ow * 8 + 1) + 1),
                               detour_back_task, &c);
    return OA_OK;
}

/*
 * 1x1 stride-1 NCHW convs directly in their layout (docs/dynamic_models.md "Convolutions without a planned
 * layout"): a tile with its lanes over pixels (simd/pl1x1_impl.inc) reads x and writes y once, where the
 * blocked kernels would add two copies; every post-op runs on the chunk's rows right after it.
 */
/* The post-ops after a first residual add (which the kernels take as their start) in registers when they can be. */
static void nchw_post_setup(conv_state *s)
{
    const int from = s->post.n > 0 && s->post.ops[0].kind == OA_KPOST_ADD ? 1 : 0;
    s->nchw_acts_all = oa_kacts_from_post(&s->post, from, &s->nchw_acts);
    s->post_from = s->post.n;
}

/* What the kernels apply before their stores (NULL: nothing), and the first post-op left to a pass after them. */
static const oa_kacts *nchw_post_regs(const conv_state *s, int *rest)
{
    const int from = s->post.n > 0 && s->post.ops[0].kind == OA_KPOST_ADD ? 1 : 0;
    *rest = s->nchw_acts_all ? s->post.n : from;
    return s->nchw_acts_all && s->nchw_acts.n > 0 ? &s->nchw_acts : NULL;
}

bool oa_conv_nchw1x1_eligible(const oa_kop *op, const conv_state *s)
{
    const geom *g = &s->g;
    return nchw_conv(op, s) && g->g == 1 && g->kh == 1 && g->kw == 1 && g->sh == 1 && g->sw == 1 &&
           g->pt == 0 && g->pb == 0 && g->pl == 0 && g->pr == 0 && oa_kpl1x1_for(oa_kisa_tier_used()) != NULL &&
           oa_env_long("OPENACL_CONV_NCHW1X1", 1) != 0;
}

oa_status oa_conv_nchw1x1_setup(oa_kop *op, conv_state *s)
{
    s->pl1x1 = oa_kpl1x1_for(oa_kisa_tier_used());
    op->impl = oa_kisa_tier_used() >= OA_KISA_AVX512 ? "nchw1x1-avx512" : "nchw1x1-avx2";
    op->ws_size = 0;
    nchw_post_setup(s);
    return OA_OK;
}

/* Pixels of a chunk: a multiple of both tiles' widths (64 AVX-512, 24 AVX2) */
#define NCHW1X1_CHUNK 384

/* Output channels of a part: a multiple of both tiles' groups (6 AVX-512, 4 AVX2) */
#define NCHW1X1_PART_OC 12

typedef struct nchw1x1_ctx {
    const conv_state *s;
    const void *const *in;
    float *y;
    int64_t chunks, parts; /* pixel chunks per image, output-channel parts per chunk */
} nchw1x1_ctx;

/* One (image, pixel chunk, output-channel part) per index. */
static void nchw1x1_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const nchw1x1_ctx *c = vctx;
    const conv_state *s = c->s;
    const geom *g = &s->g;
    const int64_t hw = g->oh * g->ow;
    /* a first residual add is the tile's start: y = residual + bias (the residual may be y itself) */
    const bool res_first = s->post.n > 0 && s->post.ops[0].kind == OA_KPOST_ADD;
    for (size_t idx = b; idx < e; idx++) {
        const int64_t part = (int64_t)idx % c->parts, ch = (int64_t)idx / c->parts % c->chunks;
        const int64_t n = (int64_t)idx / c->parts / c->chunks, p0 = ch * NCHW1X1_CHUNK;
        const int64_t np = hw - p0 < NCHW1X1_CHUNK ? hw - p0 : NCHW1X1_CHUNK;
        const int64_t per = (g->oc + c->parts - 1) / c->parts;
        const int64_t o0 = part * per, o1 = o0 + per < g->oc ? o0 + per : g->oc;
        const float *x = (const float *)c->in[0] + n * g->ic * hw + p0;
        float *y = c->y + (n * g->oc + o0) * hw + p0;
        const float *bias = s->bias != NULL ? s->bias + o0 : NULL;
        if (res_first) {
            const float *r = (const float *)c->in[s->add_in[0]] + (n * g->oc + o0) * hw + p0;
            for (int64_t o = 0; o < o1 - o0; o++) {
                const float bo = bias != NULL ? bias[o] : 0.0f;
                for (int64_t i = 0; i < np; i++) {
                    y[o * hw + i] = r[o * hw + i] + bo;
                }
            }
        }
        int rest;
        const oa_kacts *acts = nchw_post_regs(s, &rest);
        s->pl1x1(s->wref + o0 * g->ic, bias, res_first, o1 - o0, g->ic, x, hw, y, hw, np, acts);
        for (int k = rest; k < s->post.n; k++) {
            const oa_kpost *p = &s->post.ops[k];
            for (int64_t o = 0; o < o1 - o0; o++) {
                if (p->kind == OA_KPOST_ADD) {
                    oa_kadd_inplace(y + o * hw, (const float *)c->in[s->add_in[k]] + (n * g->oc + o0 + o) * hw + p0,
                                    (size_t)np);
                } else {
                    oa_kact_apply(p->act, p->alpha, p->beta, y + o * hw, (size_t)np);
                }
            }
        }
    }
}

oa_status oa_conv_nchw1x1_run(const conv_state *s, const void *const *in, void *const *out, oa_threadpool *pool)
{
    const geom *g = &s->g;
    const int64_t hw = g->oh * g->ow;
    nchw1x1_ctx c = {s, in, out[0], (hw + NCHW1X1_CHUNK - 1) / NCHW1X1_CHUNK, 1};
    /* few chunks for the threads (a small plane): the output channels split too */
    const int64_t want = 2 * (int64_t)oa_threadpool_size(pool), have = g->n * c.chunks;
    if (have < want) {
        const int64_t most = (g->oc + NCHW1X1_PART_OC - 1) / NCHW1X1_PART_OC;
        c.parts = (want + have - 1) / have < most ? (want + have - 1) / have : most;
        const int64_t per = ((g->oc + c.parts - 1) / c.parts + NCHW1X1_PART_OC - 1) / NCHW1X1_PART_OC * NCHW1X1_PART_OC;
        c.parts = (g->oc + per - 1) / per; /* whole tile groups per part */
    }
    const int64_t per = (g->oc + c.parts - 1) / c.parts;
    const size_t grain = (size_t)(OA_KGRAIN_ELEMS / (NCHW1X1_CHUNK * (g->ic + per) + 1) + 1);
    oa_threadpool_parallel_for(pool, (size_t)(have * c.parts), grain, nchw1x1_task, &c);
    return OA_OK;
}

/*
 * Depthwise NCHW convs directly in their layout (docs/dynamic_models.md "Convolutions without a planned layout"):
 * each channel's plane is copied with its padding written out into the task's workspace slot (it stays in
 * cache), then the tier's plane kernel (simd/dwpl_impl.inc) runs vectors along the output rows, and the post-ops
 * run on the channel's output plane.
 */
/* Output pixels a plane needs for the direct depthwise path: on smaller planes the per-channel work (the padded
 * copy, the rows' setup) outweighs the copies of the detour to the NCHWc kernel (PP-OCR cls's 2x96 planes: 5x
 * slower; rec's 6x80: 10 %; det's 40x40 and up: the direct path 20-50 % faster). */
#define NCHW_DW_MIN_PIXELS 1024

bool oa_conv_nchw_dw_eligible(const oa_kop *op, const conv_state *s)
{
    const geom *g = &s->g;
    return nchw_conv(op, s) && g->oh * g->ow >= NCHW_DW_MIN_PIXELS && g->g > 1 && g->g == g->ic &&
           g->g == g->oc && g->dh == 1 && g->dw == 1 && g->sh == g->sw && (g->sh == 1 || g->sh == 2) && g->kh <= 7 &&
           g->kw <= 7 && oa_kdwpl_for(oa_kisa_tier_used()) != NULL && oa_env_long("OPENACL_CONV_NCHW_DW", 1) != 0;
}

#define DW_BAND_BYTES ((int64_t)32 << 10)

oa_status oa_conv_nchw_dw_setup(oa_kop *op, conv_state *s)
{
    const geom *g = &s->g;
    const bool z = oa_kisa_tier_used() >= OA_KISA_AVX512;
    const int64_t lanes = z ? 16 : 8, owr = (g->ow + lanes - 1) / lanes * lanes;
    int64_t iwp = g->pl + g->iw + g->pr;
    if (iwp < g->sw * owr + g->kw + g->sw * lanes) { /* what the kernel's last vectors read */
        iwp = g->sw * owr + g->kw + g->sw * lanes;
    }
    s->dp_iwp = (iwp + 15) / 16 * 16;
    /* a band of output rows at a time, on a copy of the input rows it reads that stays in the L1 cache: a whole
     * padded plane (400 KiB for a 320x320 one) went through the L2 cache and back and cost as much as the taps */
    int64_t in_rows = DW_BAND_BYTES / (s->dp_iwp * (int64_t)sizeof(float));
    in_rows = in_rows < g->kh + g->sh ? g->kh + g->sh : in_rows;
    s->dp_band = (in_rows - g->kh) / g->sh + 1;
    s->dp_band = s->dp_band < g->oh ? s->dp_band : g->oh;
    s->dp_rows = (s->dp_band - 1) * g->sh + g->kh;
    s->dp_slot = (sizeof(float) * (size_t)(s->dp_rows * s->dp_iwp) + 63) / 64 * 64;
    s->dwpl = oa_kdwpl_for(oa_kisa_tier_used());
    op->impl = z ? "nchw-dw-avx512" : "nchw-dw-avx2";
    op->ws_size = (size_t)oa_kernels_slices() * s->dp_slot;
    nchw_post_setup(s);
    return OA_OK;
}

typedef struct nchw_dw_ctx {
    const conv_state *s;
    const void *const *in;
    float *y;
    char *ws;
    atomic_size_t next; /* the next (image, channel) */
} nchw_dw_ctx;

static void nchw_dw_task(void *vctx, size_t i, size_t b, size_t e)
{
    (void)b;
    (void)e;
    nchw_dw_ctx *c = vctx;
    const conv_state *s = c->s;
    const geom *g = &s->g;
    float *xp = (float *)(void *)(c->ws + i * s->dp_slot);
    const int64_t ihw = g->ih * g->iw, ohw = g->oh * g->ow, iwp = s->dp_iwp;
    for (size_t u = atomic_fetch_add(&c->next, 1); u < (size_t)(g->n * g->oc); u = atomic_fetch_add(&c->next, 1)) {
        const int64_t ch = (int64_t)u % g->oc;
        const float *x = (const float *)c->in[0] + (int64_t)u * ihw;
        float *y = c->y + (int64_t)u * ohw;
        const float bias = s->bias != NULL ? s->bias[ch] : 0.0f;
        /* a first residual add is the kernel's start: y = residual + bias (the residual may be y itself) */
        const bool res_first = s->post.n > 0 && s->post.ops[0].kind == OA_KPOST_ADD;
        if (res_first) {
            const float *r = (const float *)c->in[s->add_in[0]] + (int64_t)u * ohw;
            for (int64_t q = 0; q < ohw; q++) {
                y[q] = r[q] + bias;
            }
        }
        int rest;
        const oa_kacts *acts = nchw_post_regs(s, &rest);
        for (int64_t r0 = 0; r0 < g->oh; r0 += s->dp_band) { /* the band's input rows, padding written out */
            const int64_t nr = g->oh - r0 < s->dp_band ? g->oh - r0 : s->dp_band, rows = (nr - 1) * g->sh + g->kh;
            for (int64_t r = 0; r < rows; r++) {
                float *row = xp + r * iwp;
                const int64_t src = r0 * g->sh + r - g->pt;
                if (src < 0 || src >= g->ih) {
                    memset(row, 0, sizeof(float) * (size_t)iwp);
                    continue;
                }
                memset(row, 0, sizeof(float) * (size_t)g->pl);
                memcpy(row + g->pl, x + src * g->iw, sizeof(float) * (size_t)g->iw);
                memset(row + g->pl + g->iw, 0, sizeof(float) * (size_t)(iwp - g->pl - g->iw));
            }
            s->dwpl(xp, iwp, s->wref + ch * g->kh * g->kw, bias, res_first, g->kh, g->kw, g->sh, y + r0 * g->ow, nr,
                    g->ow, acts);
        }
        oa_conv_epilogue_channels(s, c->in, c->y, (int64_t)u / g->oc, ch, ch + 1, rest); /* one plane */
    }
}

oa_status oa_conv_nchw_dw_run(const conv_state *s, const void *const *in, void *const *out, void *ws,
                              oa_threadpool *pool)
{
    const geom *g = &s->g;
    nchw_dw_ctx c = {.s = s, .in = in, .y = out[0], .ws = ws};
    atomic_init(&c.next, 0);
    const double flops = 2.0 * (double)(g->n * g->oc * g->oh * g->ow * g->kh * g->kw);
    size_t n = flops < oa_kernels_split_flops() ? 1 : (size_t)oa_kernels_slices();
    n = n < (size_t)(g->n * g->oc) ? n : (size_t)(g->n * g->oc);
    oa_threadpool_run_n(pool, n, nchw_dw_task, &c);
    return OA_OK;
}

/*
 * The small-plane path of Conv2D (conv.c chooses it at setup): a 1x1 or 3x3
 * convolution between NCHWc tensors on a plane of a few dozen pixels, run as
 * a streamed-filter product (pw_product.h) instead of through oneDNN; also
 * stride-2 3x3s on larger planes, in pixel ranges, where oneDNN's direct
 * kernel runs at 190-230 GFLOP/s; and small convs that would otherwise be a
 * oneDNN primitive of a few microseconds (1x1s with a small filter, x and y
 * on any plane; kernels up to 3x3 with a filter of at most 1 MiB on small
 * planes), channel counts off the block and a plain (NCHW) x included.
 *
 * Why: on small planes a layer's filter is large next to its work (ResNet-50's
 * last stage: 4-9 MiB of filter for 49 output pixels), and a model's filters
 * do not stay in cache from one run to the next, so the layer starts with its
 * filter in memory. oneDNN's kernels then wait on it: its 1x1 kernel ran
 * 180-190 GFLOP/s that way against 250 with the filter in cache. The tile
 * prefetches the next piece's filter while it computes: 220-240 GFLOP/s with
 * the filter in memory (bench/KERNELS.md "Convolutions on small planes").
 *
 * The product: output channel blocks x pixels over (tap, input channel)
 * steps; a padded conv reads a zero-padded copy of x (workspace). A first
 * residual add (which may alias y) is part of the product's start; simple
 * activations after it run in the tile's registers, other post-ops on each
 * group's output as soon as it is final, in cache.
 */
#include "kernels/conv_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Output pixels up to which the tile beats oneDNN with the filter in memory: at 14x14 they tie, and
 * with the filter in cache oneDNN is 5-10 % faster (bench/KERNELS.md). */
#define PW_MAX_PIXELS 64
/* Pieces each slice needs: its first piece has nothing to prefetch its filter (2048 -> 512 at two
 * threads in 4 pieces each: 331 GFLOP/s against oneDNN's 371). */
#define PW_MIN_PIECES_PER_SLICE 8
/* Stride-2 3x3s on larger planes (oneDNN's direct kernel: 190-230 GFLOP/s; bf16 requests too: ResNet-50's
 * Conv_25 0.51-0.54 -> 0.48 ms, Conv_12 a tie) run in pixel ranges of at most
 * PW_RANGE_MAX pixels, enough of them for PW_MIN_PIECES_PER_SLICE pieces a slice, from this many input
 * channels up (YOLO-like's 32 -> 64 at 160x160 ran 1.24-1.28 ms against oneDNN's 1.16-1.20). */
#define PW_RANGES_MIN_IC 64
#define PW_RANGE_MAX 300
#define PW_RANGE_MIN 60
/* 1x1s whose whole filter is this small, and x and y together too, run on the tile on any plane
 * (MobileNet-style nets: cls's 23 have 1-26 KiB of filter and 30-300 KiB of x and y): no filter to
 * stream, but no oneDNN primitive per conv either. On larger planes, where x and y come from and go to
 * memory, oneDNN's kernel ran up to twice as fast (det's 16 -> 32 at 320x320: 0.65 against 1.28 ms).
 * Pixel ranges keep a range's input near PW_SMALL_RANGE_BYTES, in cache from one group to the next. */
#define PW_SMALL_FILTER_BYTES ((int64_t)32 << 10)
#define PW_SMALL_XY_BYTES ((int64_t)512 << 10)
#define PW_SMALL_RANGE_BYTES ((int64_t)48 << 10)
/* Small planes whose filter comes in too few pieces for the prefetch rule, but is small enough to stay in
 * L2 or L3 (rec's 1x3 convs, 480 and 960 -> 60 on 40 pixels: 368 and 737 KiB; oneDNN's direct kernel ran them
 * at 70-100 GFLOP/s): every kernel up to 3x3, the plane in one range per slice so that every thread works. */
#define PW_FEW_PIECES_FILTER_BYTES ((int64_t)1 << 20)
/* Stride-1 1x1s on mid-size planes (ResNet-50's 56x56 and 28x28, OCR rec's 24x160 down to 3x80, det's 40x40
 * and 20x20): in pixel ranges, two threads each take whole ranges with every output channel, where oneDNN's
 * slices split the output channels (a 64-channel conv: two 32-channel primitives). At two threads ResNet-50's
 * 64- and 128-channel 1x1s ran 0.53 -> 0.35 and 0.90 -> 0.70 ms, YOLO-like's 2.47 -> 2.07 ms in all, rec's
 * 4.60 -> 4.29; at one thread a tie (within 5 % either way per layer; rec's 16 -> 32 at 24x160 0.067 ->
 * 0.053 ms). Larger planes at one thread (det's 16 -> 32 at 320x320: 1.86 ms on oneDNN, 2.01 on the tile),
 * fewer than 16 input channels and stride 2 (3-8 % slower) stay on oneDNN; bench/KERNELS.md "1x1s on mid-size
 * planes". */
#define PW_PLANE_MAX_PIXELS 4096
#define PW_PLANE_MIN_IC 16
/* On larger planes (PP-OCR det's 160x160 and 320x320) the tile ties oneDNN at one thread (0.9-1.1x per layer),
 * and at two beats it wherever oneDNN's slices get at most 4 output blocks each (det's 12- to 96-channel
 * 1x1s: 4.8 -> 3.5 ms in all; its 48-channel ones 0.88 -> 0.59 ms): from two slices those take the tile too. */
#define PW_PLANE_NARROW_BLOCKS 4

/* Input channels x holds per image: whole blocks (the padding channels are zeros), or ic when x is plain. */
static int64_t ic_blocked(const geom *g)
{
    return g->xpl ? g->ic : (g->ic + 15) / 16 * 16;
}

/* Output blocks of 16 (the last may hold padding channels). */
static int64_t oc_blocks(const geom *g)
{
    return (g->oc + 15) / 16;
}

/* Floats of x side by side at a pixel: a 16-channel block, or one channel of a plain (NCHW) x. */
static int64_t x_lanes(const geom *g)
{
    return g->xpl ? 1 : 16;
}

/* Input channels the steps run over: bf16 steps take channel pairs (an odd count gets a zero partner). */
static int64_t ic_steps(const conv_state *s)
{
    return s->bf16 ? (s->g.ic + 1) / 2 * 2 : s->g.ic;
}

/* A 1x1 small enough for any plane (PW_SMALL_FILTER_BYTES, PW_SMALL_XY_BYTES). */
static bool small_1x1(const geom *g)
{
    const int64_t ocp = oc_blocks(g) * 16, xy = g->n * (ic_blocked(g) * g->ih * g->iw + ocp * g->oh * g->ow);
    return g->kh == 1 && g->kw == 1 && g->pt == 0 && g->pb == 0 && g->pl == 0 && g->pr == 0 &&
           ocp * g->ic * (int64_t)sizeof(float) <= PW_SMALL_FILTER_BYTES &&
           xy * (int64_t)sizeof(float) <= PW_SMALL_XY_BYTES;
}

bool oa_conv_pw_eligible(const conv_state *s)
{
    const geom *g = &s->g;
    if (oa_kpw_for(oa_kisa_tier_used()) == NULL || oa_kernels_block() != 16 || !g->blocked || (g->xpl && s->bf16) ||
        g->iblk || g->transpose || g->g != 1 || (s->bf16 && oa_kpw_bf16_for() == NULL) || g->oh * g->ow <= 0 ||
        g->sh != g->sw || (g->sh != 1 && g->sh != 2) || g->dh != 1 || g->dw != 1 ||
        oa_env_long("OPENACL_CONV_PW", 1) == 0) {
        return false;
    }
    const bool pw = g->kh == 1 && g->kw == 1 && g->pt == 0 && g->pb == 0 && g->pl == 0 && g->pr == 0;
    const bool k3 = g->kh == 3 && g->kw == 3 && g->pt <= 1 && g->pb <= 1 && g->pl <= 1 && g->pr <= 1;
    if (small_1x1(g) && !s->bf16) {
        return true;
    }
    if (g->xpl && g->oh * g->ow > PW_MAX_PIXELS) { /* ResNet-50's 3 -> 64 7x7 stem: 1.12 ms here, 1.08 on oneDNN */
        return false;
    }
    if (g->oh * g->ow > PW_MAX_PIXELS) { /* larger planes: stride-2 3x3s and mid-size 1x1s in pixel ranges */
        const int64_t sl = oa_kernels_slices();
        if (pw && g->sh == 1 && !s->bf16 && g->ic >= PW_PLANE_MIN_IC &&
            (g->oh * g->ow <= PW_PLANE_MAX_PIXELS || (sl >= 2 && oc_blocks(g) <= PW_PLANE_NARROW_BLOCKS * sl))) {
            return true;
        }
        return k3 && g->sh == 2 && g->oc % (16 * OA_KPW_MAX_OB) == 0 && g->ic % 16 == 0 &&
               g->ic >= PW_RANGES_MIN_IC;
    }
    const int64_t steps = g->kh * g->kw * ic_steps(s) / (s->bf16 ? 2 : 1);
    if ((pw || k3) &&
        oa_kpw_prod_pieces(oc_blocks(g), steps) >= PW_MIN_PIECES_PER_SLICE * (int64_t)oa_kernels_slices()) {
        return true;
    }
    return !s->bf16 && g->kh <= 3 && g->kw <= 3 && g->pt <= 1 && g->pb <= 1 && g->pl <= 1 && g->pr <= 1 &&
           oc_blocks(g) * 16 * steps * (int64_t)sizeof(float) <= PW_FEW_PIECES_FILTER_BYTES;
}

/* Whether the tile reads a copy of x in the workspace: zero-padded when the conv pads, converted for bf16. */
static bool copies_x(const conv_state *s)
{
    const geom *g = &s->g;
    return s->bf16 || g->pt != 0 || g->pb != 0 || g->pl != 0 || g->pr != 0;
}

/* bf16 (docs/precision.md): the filter in bf16 pairs of input channels, the first in the low half */
static oa_status pack_bf16(const oa_kpw_prod *p, const geom *g, const float *wf, float *w)
{
    const int64_t kk = g->kh * g->kw, n = g->oc * g->ic * kk, icp = (g->ic + 1) / 2 * 2; /* ic_steps of a bf16 conv */
    uint16_t *h = malloc(sizeof(uint16_t) * (size_t)n);
    if (h == NULL) {
        return OA_FAIL(OA_E_NOMEM, "bf16 conv filter (%lld values)", (long long)n);
    }
    oa_kbf16_from_f32(wf, h, (size_t)n);
    for (int64_t b = 0; b < p->nblk; b += OA_KPW_MAX_OB) {
        int64_t b0, ob;
        uint16_t *wg = (uint16_t *)(void *)oa_kpw_prod_group_in(p, w, b, &b0, &ob);
        memset(wg, 0, sizeof(float) * (size_t)(ob * 16 * p->R)); /* padding channels: zeros */
        for (int64_t o = 0; o < ob * 16 && b0 * 16 + o < g->oc; o++) {
            const uint16_t *src = h + (b0 * 16 + o) * g->ic * kk;
            for (int64_t c = 0; c < g->ic; c++) {
                for (int64_t t = 0; t < kk; t++) {
                    wg[(((t * icp + c) / 2 * ob) * 16 + o) * 2 + c % 2] = src[c * kk + t];
                }
            }
        }
    }
    free(h);
    return OA_OK;
}

typedef struct pw_pack_ctx {
    const oa_kpw_prod *p;
    const geom *g;
    const float *wf;
    int64_t icp;
    bool bf16;
} pw_pack_ctx;

/* The packed filter into w (an oa_kderived_fill): wf [oc][ic][kh][kw]; step r = tap * ic + c. The filter is read
 * in order; a group's packed lines (up to 4.6 MiB at 512 channels) are written 4 bytes at a time, one output after
 * the other. */
static oa_status pw_pack(void *ctx, void *array)
{
    const pw_pack_ctx *c = ctx;
    const oa_kpw_prod *p = c->p;
    const geom *g = c->g;
    float *w = array;
    if (c->bf16) {
        return pack_bf16(p, g, c->wf, w);
    }
    const int64_t kk = g->kh * g->kw;
    for (int64_t b = 0; b < p->nblk; b += OA_KPW_MAX_OB) {
        int64_t b0, ob;
        float *wg = oa_kpw_prod_group_in(p, w, b, &b0, &ob);
        if (g->oc % 16 != 0) { /* padding channels: zeros */
            memset(wg, 0, sizeof(float) * (size_t)(ob * 16 * p->R));
        }
        int64_t o = 0;
        for (; o < ob * 16 && b0 * 16 + o < g->oc; o++) {
            const float *src = c->wf + (b0 * 16 + o) * g->ic * kk;
            for (int64_t ch = 0; ch < g->ic; ch++) {
                for (int64_t t = 0; t < kk; t++) {
                    wg[((t * c->icp + ch) * ob) * 16 + o] = src[ch * kk + t];
                }
            }
        }
        /* the group's part of the filter, packed: a loader may drop its pages now (kernels.h) */
        oa_kconst_consumed(c->wf + b0 * 16 * g->ic * kk, sizeof(float) * (size_t)(o * g->ic * kk));
    }
    return OA_OK;
}

oa_status oa_conv_pw_setup(oa_kop *op, conv_state *s, const float *wf)
{
    const geom *g = &s->g;
    const int64_t kk = g->kh * g->kw, P = g->oh * g->ow, e = s->bf16 ? 2 : 1; /* elements a 32-bit word */
    const int64_t ihp = g->ih + g->pt + g->pb, iwp = g->iw + g->pl + g->pr;
    s->pw = calloc(1, sizeof(*s->pw));
    if (s->pw == NULL) {
        return OA_FAIL(OA_E_NOMEM, "small-plane conv");
    }
    oa_kpw_prod *p = s->pw;
    const int64_t icp = ic_steps(s), icb = ic_blocked(g), ocb = oc_blocks(g);
    oa_status st = oa_kpw_prod_init(p, ocb, kk * icp / e, P);
    if (st != OA_OK) {
        return st;
    }
    if (g->oc % 16 != 0) { /* the tile reads whole blocks of bias */
        if ((s->wbias = calloc((size_t)(ocb * 16), sizeof(float))) == NULL) {
            return OA_FAIL(OA_E_NOMEM, "small-plane conv bias");
        }
        memcpy(s->wbias, s->bias, sizeof(float) * (size_t)g->oc);
    }
    if (s->bf16) {
        p->tile = oa_kpw_bf16_for();
    }
    /* the packed filter depends on the filter and these, not on the plane: a stable filter's operators share it */
    const int64_t form[7] = {ocb, p->R, icp, g->ic, g->oc, kk, e};
    oa_ktensor src = op->in[1];
    src.stable = s->wstable;
    pw_pack_ctx pc = {.p = p, .g = g, .wf = wf, .icp = icp, .bf16 = s->bf16};
    if ((st = oa_kpw_prod_pack(p, &src, form, sizeof form, pw_pack, &pc)) != OA_OK) {
        return st;
    }
    for (int64_t q = 0; q < P; q++) { /* a pixel's place in a (padded) input block, tap (0, 0), in words */
        p->off[q] = (int32_t)(((q / g->ow) * g->sh * iwp + (q % g->ow) * g->sw) * x_lanes(g) / e);
    }
    for (int64_t t = 0; t < kk; t++) { /* step (tap, channel or channel pair): its place in the (padded) input */
        for (int64_t c = 0; c < icp; c += e) {
            const int64_t tap = (t / g->kw) * iwp + t % g->kw;
            p->xoff[(t * icp + c) / e] =
                (int32_t)(g->xpl ? c * ihp * iwp + tap
                                 : ((c / 16) * ihp * iwp * 16 + tap * 16 + c % 16) / e); /* (bf16: never plain) */
        }
    }
    p->n = g->n;
    if (P > PW_MAX_PIXELS && small_1x1(g)) { /* pixel ranges whose input stays in cache across the groups */
        const int64_t pr = (PW_SMALL_RANGE_BYTES / (icb * (int64_t)sizeof(float)) + OA_KPW_MAX_NP - 1) /
                           OA_KPW_MAX_NP * OA_KPW_MAX_NP;
        oa_kpw_prod_set_ranges(p, pr);
    } else if (P <= PW_MAX_PIXELS && oa_kpw_prod_pieces(p->nblk, p->R) < PW_MIN_PIECES_PER_SLICE * oa_kernels_slices()) {
        const int64_t sl = oa_kernels_slices(); /* few pieces (PW_FEW_PIECES_FILTER_BYTES): a range per slice */
        const int64_t pr = ((P + sl - 1) / sl + OA_KPW_MAX_NP - 1) / OA_KPW_MAX_NP * OA_KPW_MAX_NP;
        oa_kpw_prod_set_ranges(p, pr);
    } else if (P > PW_MAX_PIXELS) { /* pixel ranges: pieces enough for every slice, each range's input in cache */
        /* ranges of PW_RANGE_MIN..PW_RANGE_MAX pixels, as many as give every slice its pieces, a multiple of the
         * slices and of equal length: each thread then runs whole ranges of the same work (ResNet-50's 196 pixels
         * in ranges of 60 had one thread run 120 pixels and the other 76) */
        const int64_t sl = oa_kernels_slices(), pieces = oa_kpw_prod_pieces(p->nblk, p->R);
        int64_t nr = (PW_MIN_PIECES_PER_SLICE * sl + pieces - 1) / pieces;
        nr = nr > (P + PW_RANGE_MAX - 1) / PW_RANGE_MAX ? nr : (P + PW_RANGE_MAX - 1) / PW_RANGE_MAX;
        nr = (nr + sl - 1) / sl * sl;
        while (nr > sl && P / nr < PW_RANGE_MIN) {
            nr -= sl;
        }
        const int64_t pr = (P + nr - 1) / nr;
        oa_kpw_prod_set_ranges(p, pr);
    }
    p->ycs = P * 16;
    p->ys = 16;
    p->x_img = icb * ihp * iwp / e;
    p->y_img = ocb * 16 * P;
    op->ws_size = copies_x(s) ? (size_t)(g->n * icb * ihp * iwp) * (s->bf16 ? 2 : 4) : 0;
    p->last = (int)(g->oc - (ocb - 1) * 16);
    p->zero_pad = true;
    /* the post-ops after a first residual add: in the tile's registers when they are simple activations,
     * else on each group's output (group_done) */
    const int from = s->post.n > 0 && s->post.ops[0].kind == OA_KPOST_ADD ? 1 : 0;
    s->post_from = oa_kacts_from_post(&s->post, from, &p->acts) ? s->post.n : from;
    const bool k1 = g->kh == 1 && g->kw == 1, k3 = g->kh == 3 && g->kw == 3;
    const bool wide = oa_kisa_level() >= 2; /* else the avx2 tier with its block forced to 16 (tests) */
    op->impl = s->bf16 ? (k1 ? "pw-bf16" : (k3 ? "pw3x3-bf16" : "pwkxk-bf16"))
               : wide  ? (k1 ? "pw-avx512" : (k3 ? "pw3x3-avx512" : "pwkxk-avx512"))
                       : (k1 ? "pw-avx2" : (k3 ? "pw3x3-avx2" : "pwkxk-avx2"));
    return OA_OK;
}

typedef struct pw_ctx {
    const conv_state *s;
    const void *const *in;
    void *xp; /* the padded copy (f32, or bf16) */
    float *y;
} pw_ctx;

/* The zero-padded copy of x (bf16: converted): one (image, channel block, or channel of a plain x) per index. */
static void pad_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const pw_ctx *c = vctx;
    const geom *g = &c->s->g;
    const int64_t ihp = g->ih + g->pt + g->pb, iwp = g->iw + g->pl + g->pr;
    const size_t esz = c->s->bf16 ? 2 : 4;
    const float *x = c->in[0];
    const int64_t lanes = x_lanes(g);
    for (size_t i = b; i < e; i++) {
        const float *src = x + (int64_t)i * g->ih * g->iw * lanes;
        char *dst = (char *)c->xp + (size_t)((int64_t)i * ihp * iwp * lanes) * esz;
        memset(dst, 0, esz * (size_t)(ihp * iwp * lanes));
        for (int64_t h = 0; h < g->ih; h++) {
            char *row = dst + (size_t)(((h + g->pt) * iwp + g->pl) * lanes) * esz;
            if (c->s->bf16) {
                oa_kbf16_from_f32(src + h * g->iw * lanes, (uint16_t *)(void *)row, (size_t)(g->iw * lanes));
            } else {
                memcpy(row, src + h * g->iw * lanes, sizeof(float) * (size_t)(g->iw * lanes));
            }
        }
    }
}

/* The post-ops after a first residual add, on a group's output over a pixel range while it is in cache (one
 * region: all its blocks when the range is the whole plane, else each block's part). */
static void group_done(void *vctx, int64_t n, int64_t b0, int ob, int64_t lo, int64_t hi)
{
    const pw_ctx *c = vctx;
    const conv_state *s = c->s;
    const bool whole = lo == 0 && hi == s->pw->P;
    for (int o = 0; o < (whole ? 1 : ob); o++) {
        const int64_t off = n * s->pw->y_img + (b0 + o) * s->pw->ycs + lo * 16;
        const size_t len = whole ? (size_t)(ob * s->pw->ycs) : (size_t)((hi - lo) * 16);
        for (int i = s->post_from; i < s->post.n; i++) {
            const oa_kpost *po = &s->post.ops[i];
            if (po->kind == OA_KPOST_ADD) {
                oa_kadd_inplace(c->y + off, (const float *)c->in[s->add_in[i]] + off, len);
            } else {
                oa_kact_apply(po->act, po->alpha, po->beta, c->y + off, len);
            }
        }
    }
    oa_kblk_zero_lanes(c->y + n * s->pw->y_img + (b0 + ob - 1) * s->pw->ycs + lo * 16, hi - lo, 16,
                       s->g.oc - (b0 + ob - 1) * 16); /* the group's last block */
}

oa_status oa_conv_pw_run(const conv_state *s, const void *const *in, void *y, void *ws, oa_threadpool *pool)
{
    const geom *g = &s->g;
    pw_ctx c = {s, in, ws, y};
    if (copies_x(s)) {
        const int64_t plane = (g->ih + g->pt + g->pb) * (g->iw + g->pl + g->pr) * x_lanes(g);
        oa_threadpool_parallel_for(pool, (size_t)(g->n * ic_blocked(g) / x_lanes(g)), (size_t)(OA_KGRAIN_ELEMS / (plane + 1) + 1),
                                   pad_task, &c);
    }
    const bool first_add = s->post.n > 0 && s->post.ops[0].kind == OA_KPOST_ADD;
    const bool more = s->post.n > s->post_from;
    oa_kpw_prod_run(s->pw, copies_x(s) ? c.xp : in[0], y, s->wbias != NULL ? s->wbias : s->bias,
                    first_add ? in[s->add_in[0]] : NULL,
                    more ? group_done : NULL, &c, pool);
    return OA_OK;
}

/*
 * The small-plane path of Conv2D (conv.c chooses it at setup): a 1x1 or 3x3
 * convolution between NCHWc tensors on a plane of a few dozen pixels,
 * computed by the tier's tile (simd/pw_avx512.c) instead of oneDNN.
 *
 * Why: on small planes a layer's filter is large next to its work (ResNet-50's
 * last stage: 4-9 MiB of filter for 49 output pixels), and a model's filters
 * do not stay in cache from one run to the next, so the layer starts with its
 * filter in memory. oneDNN's kernels then wait on it: its 1x1 kernel ran
 * 170-190 GFLOP/s that way against 241 with the filter in cache. The tile
 * prefetches the next piece's filter while it computes: 210-227 GFLOP/s with
 * the filter in memory (bench/KERNELS.md "Convolutions on small planes").
 *
 * Work: output channels in groups of up to 4 blocks (64 channels); the
 * reduction over (tap, 16 input channels) in chunks whose filter stays in
 * the L2 cache while the chunk runs over the image's pixels, up to 6 at a time.
 * A piece of work is one group's chunk: its filter, packed [r][16][ob][16],
 * comes from memory once (prefetched by the piece before), then from cache.
 * Groups are split over the pool. A padded conv reads a zero-padded copy of
 * x (workspace). A first residual add (which may alias y) happens in the
 * group's first chunk, each value read before its place is written; the
 * other post-ops run on the group's output after its last chunk, in cache.
 */
#include "kernels/conv_internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Output pixels up to which the tile beats oneDNN with the filter in memory: at 14x14 they tie, and
 * with the filter in cache oneDNN is 5-10 % faster (bench/KERNELS.md). */
#define PW_MAX_PIXELS 64
/* Filter bytes of a chunk: stays in the L2 cache (1-2 MiB per core on AVX-512 CPUs) next to x. */
#define PW_CHUNK_BYTES ((int64_t)384 << 10)
/* Pieces each slice needs: its first piece has nothing to prefetch its filter (2048 -> 512 at two
 * threads in 4 pieces each: 331 GFLOP/s against oneDNN's 371). */
#define PW_MIN_PIECES_PER_SLICE 8

static int64_t pw_groups(const geom *g)
{
    return (g->oc / 16 + OA_KPW_MAX_OB - 1) / OA_KPW_MAX_OB;
}

/* Reduction steps (tap, input channel) per chunk of a full group: equal chunks within PW_CHUNK_BYTES. */
static int64_t pw_chunk_len(const geom *g)
{
    const int64_t per = OA_KPW_MAX_OB * 16 * (int64_t)sizeof(float), r = g->kh * g->kw * g->ic;
    const int64_t len = PW_CHUNK_BYTES / per;
    const int64_t nch = (r + len - 1) / len;
    return (r + nch - 1) / nch;
}

bool oa_conv_pw_eligible(const conv_state *s)
{
    const geom *g = &s->g;
    if (oa_kpw_for(oa_kisa_tier_used()) == NULL || oa_kernels_block() != 16 || !g->blocked || g->xpl || g->iblk ||
        g->transpose || g->g != 1 || s->bf16 || g->ic % 16 != 0 || g->oc % 16 != 0 || g->oh * g->ow <= 0 ||
        g->oh * g->ow > PW_MAX_PIXELS || g->sh != g->sw || (g->sh != 1 && g->sh != 2) || g->dh != 1 || g->dw != 1 ||
        oa_env_long("OPENACL_CONV_PW", 1) == 0) {
        return false;
    }
    const bool pw = g->kh == 1 && g->kw == 1 && g->pt == 0 && g->pb == 0 && g->pl == 0 && g->pr == 0;
    const bool k3 = g->kh == 3 && g->kw == 3 && g->pt <= 1 && g->pb <= 1 && g->pl <= 1 && g->pr <= 1;
    if (!pw && !k3) {
        return false;
    }
    const int64_t r = g->kh * g->kw * g->ic, len = pw_chunk_len(g);
    const int64_t pieces = pw_groups(g) * ((r + len - 1) / len);
    return pieces >= PW_MIN_PIECES_PER_SLICE * (int64_t)oa_kernels_slices();
}

oa_status oa_conv_pw_setup(oa_kop *op, conv_state *s, const float *wf)
{
    const geom *g = &s->g;
    const int64_t ocb = g->oc / 16, icbs = g->ic / 16, kk = g->kh * g->kw, P = g->oh * g->ow;
    const int64_t ihp = g->ih + g->pt + g->pb, iwp = g->iw + g->pl + g->pr;
    s->pw = oa_kpw_for(oa_kisa_tier_used());
    s->pww = aligned_alloc(64, sizeof(float) * (size_t)(g->oc * g->ic * kk));
    s->pwoff = malloc(sizeof(int32_t) * (size_t)(P + kk * g->ic));
    if (s->pww == NULL || s->pwoff == NULL) {
        return OA_FAIL(OA_E_NOMEM, "small-plane conv filter (%lld x %lld x %lld)", (long long)g->oc,
                       (long long)g->ic, (long long)kk);
    }
    /* wf [oc][ic][kh][kw] -> group (blocks b0..b0+ob): [r = tap * icbs + c / 16][c % 16][ob][16] */
    for (int64_t b0 = 0; b0 < ocb; b0 += OA_KPW_MAX_OB) {
        const int64_t ob = ocb - b0 < OA_KPW_MAX_OB ? ocb - b0 : OA_KPW_MAX_OB;
        float *wg = s->pww + b0 * 16 * g->ic * kk;
        for (int64_t t = 0; t < kk; t++) {
            for (int64_t c = 0; c < g->ic; c++) {
                float *d = wg + ((t * icbs + c / 16) * 16 + c % 16) * ob * 16;
                for (int64_t o = 0; o < ob * 16; o++) {
                    d[o] = wf[((b0 * 16 + o) * g->ic + c) * kk + t];
                }
            }
        }
    }
    for (int64_t p = 0; p < P; p++) { /* a pixel's place in a (padded) input block, tap (0, 0) */
        s->pwoff[p] = (int32_t)(((p / g->ow) * g->sh * iwp + (p % g->ow) * g->sw) * 16);
    }
    for (int64_t t = 0; t < kk; t++) { /* step (tap, channel): its place in the (padded) input */
        for (int64_t c = 0; c < g->ic; c++) {
            s->pwoff[P + t * g->ic + c] =
                (int32_t)((c / 16) * ihp * iwp * 16 + ((t / g->kw) * iwp + t % g->kw) * 16 + c % 16);
        }
    }
    s->pwpad = ihp != g->ih || iwp != g->iw;
    op->ws_size = s->pwpad ? sizeof(float) * (size_t)(g->n * g->ic * ihp * iwp) : 0;
    op->impl = g->kh == 1 ? "pw-avx512" : "pw3x3-avx512";
    return OA_OK;
}

typedef struct pw_ctx {
    const conv_state *s;
    const void *const *in;
    const float *x; /* x, or its padded copy */
    float *y;
    size_t units, parts; /* (image, group) units in `parts` contiguous ranges */
    atomic_size_t next;  /* the next range to take */
} pw_ctx;

/* The zero-padded copy of x: one (image, channel block) per index. */
static void pad_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const pw_ctx *c = vctx;
    const geom *g = &c->s->g;
    const int64_t ihp = g->ih + g->pt + g->pb, iwp = g->iw + g->pl + g->pr;
    const float *x = c->in[0];
    float *xp = (float *)(uintptr_t)c->x;
    for (size_t i = b; i < e; i++) {
        const float *src = x + (int64_t)i * g->ih * g->iw * 16;
        float *dst = xp + (int64_t)i * ihp * iwp * 16;
        memset(dst, 0, sizeof(float) * (size_t)(ihp * iwp * 16));
        for (int64_t h = 0; h < g->ih; h++) {
            memcpy(dst + ((h + g->pt) * iwp + g->pl) * 16, src + h * g->iw * 16, sizeof(float) * (size_t)(g->iw * 16));
        }
    }
}

/* Groups [b, e) of all images (index = image * groups + group), each chunk by chunk. */
static void pw_groups_run(const pw_ctx *c, size_t b, size_t e)
{
    const conv_state *s = c->s;
    const geom *g = &s->g;
    const int64_t ocb = g->oc / 16, ngrp = pw_groups(g), P = g->oh * g->ow, kk = g->kh * g->kw;
    const int64_t R = kk * g->ic, len = pw_chunk_len(g);
    const int64_t ihp = g->ih + g->pt + g->pb, iwp = g->iw + g->pl + g->pr;
    const bool first_add = s->post.n > 0 && s->post.ops[0].kind == OA_KPOST_ADD;
    const int64_t ntiles = (P + OA_KPW_MAX_NP - 1) / OA_KPW_MAX_NP; /* of even widths: 49 = 4 x 6 + 5 x 5 */
    oa_kpw_tile t = {.xoff = s->pwoff + P, .ycs = P * 16, .ys = 16};
    for (size_t idx = b; idx < e; idx++) {
        const int64_t n = (int64_t)idx / ngrp, k = (int64_t)idx % ngrp, b0 = k * OA_KPW_MAX_OB;
        t.ob = (int)(ocb - b0 < OA_KPW_MAX_OB ? ocb - b0 : OA_KPW_MAX_OB);
        t.x = c->x + n * g->ic * ihp * iwp;
        t.w = s->pww + b0 * 16 * g->ic * kk;
        const int64_t yoff = (n * ocb + b0) * t.ycs;
        float *y = c->y + yoff;
        const float *res = first_add ? (const float *)c->in[s->add_in[0]] + yoff : NULL;
        for (t.r0 = 0; t.r0 < R; t.r0 += len) {
            t.r1 = t.r0 + len < R ? t.r0 + len : R;
            /* the next piece: this group's next chunk, or the next group's first (lines per tile step: one) */
            const float *nw = NULL;
            int64_t nlines = 0;
            if (t.r1 < R) {
                nw = t.w + t.r1 * t.ob * 16;
                nlines = ((t.r1 + len < R ? t.r1 + len : R) - t.r1) * t.ob;
            } else if (k + 1 < ngrp) {
                const int64_t nob = ocb - b0 - OA_KPW_MAX_OB < OA_KPW_MAX_OB ? ocb - b0 - OA_KPW_MAX_OB : OA_KPW_MAX_OB;
                nw = s->pww + (b0 + OA_KPW_MAX_OB) * 16 * g->ic * kk;
                nlines = (len < R ? len : R) * nob;
            }
            const int64_t steps = t.r1 - t.r0;
            int64_t tile = 0;
            for (int64_t p0 = 0; p0 < P; p0 += t.np, tile++) {
                t.np = (int)(P / ntiles + (tile < P % ntiles ? 1 : 0));
                t.off = s->pwoff + p0;
                const void *pf = tile * steps < nlines ? (const char *)nw + tile * steps * 64 : NULL;
                s->pw(&t, t.r0 == 0 ? s->bias + b0 * 16 : NULL, t.r0 == 0 && res != NULL ? res + p0 * 16 : NULL,
                      y + p0 * 16, pf);
            }
        }
        const size_t glen = (size_t)(t.ob * t.ycs); /* the group's blocks are contiguous */
        for (int i = first_add ? 1 : 0; i < s->post.n; i++) {
            const oa_kpost *po = &s->post.ops[i];
            if (po->kind == OA_KPOST_ADD) {
                oa_kadd_inplace(y, (const float *)c->in[s->add_in[i]] + yoff, glen);
            } else {
                oa_kact_apply(po->act, po->alpha, po->beta, y, glen);
            }
        }
    }
}

/* Contiguous ranges of groups, so that each piece prefetches the filter its own thread needs next (the
 * pool's dynamic chunks would hand the next group to the other thread). */
static void pw_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    (void)b;
    (void)e;
    pw_ctx *c = vctx;
    for (size_t i = atomic_fetch_add(&c->next, 1); i < c->parts; i = atomic_fetch_add(&c->next, 1)) {
        pw_groups_run(c, c->units * i / c->parts, c->units * (i + 1) / c->parts);
    }
}

oa_status oa_conv_pw_run(const conv_state *s, const void *const *in, void *y, void *ws, oa_threadpool *pool)
{
    const geom *g = &s->g;
    pw_ctx c = {.s = s, .in = in, .x = s->pwpad ? ws : in[0], .y = y};
    if (s->pwpad) {
        const int64_t plane = (g->ih + g->pt + g->pb) * (g->iw + g->pl + g->pr) * 16;
        oa_threadpool_parallel_for(pool, (size_t)(g->n * g->ic / 16), (size_t)(OA_KGRAIN_ELEMS / (plane + 1) + 1),
                                   pad_task, &c);
    }
    c.units = (size_t)(g->n * pw_groups(g));
    c.parts = oa_threadpool_size(pool) < c.units ? oa_threadpool_size(pool) : c.units;
    atomic_init(&c.next, 0);
    oa_threadpool_run_n(pool, c.parts, pw_task, &c);
    return OA_OK;
}

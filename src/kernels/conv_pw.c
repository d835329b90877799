/*
 * The pointwise path of Conv2D (conv.c chooses it at setup): a 1x1
 * convolution between NCHWc tensors on a small plane, computed by the
 * tier's pointwise tile (simd/pw_avx512.c) instead of oneDNN's 1x1 kernel.
 *
 * Why: on small planes a layer's filter is large next to its work (ResNet-50's
 * last stage: 4-8 MiB of filter for 49 pixels), and a model's filters do not
 * stay in cache from one run to the next, so the layer starts with its
 * filter in memory. oneDNN's kernel then waits on it: 160-175 GFLOP/s in the
 * model against 241 with the filter in cache. The tile prefetches the next
 * group's filter while it computes: 224-231 GFLOP/s with the filter in
 * memory (bench/KERNELS.md "Pointwise convolutions on small planes").
 *
 * Work: groups of up to 4 output channel blocks (64 channels), each over the
 * image's pixels in tiles of up to 7; the filter of a group is packed
 * [ic][ob][16] and read once from memory, then from cache for its other
 * tiles. Groups are split over the pool. A first residual add (which may
 * alias y) happens in the tile before the store; the remaining post-ops run
 * on the group's output while it is in cache.
 */
#include "kernels/conv_internal.h"

#include <stdlib.h>
#include <string.h>

/* Output pixels up to which the tile beats oneDNN's 1x1 kernel with the filter in memory: at 14x14
 * they tie, and with the filter in cache oneDNN is 5-10 % faster (bench/KERNELS.md). */
#define PW_MAX_PIXELS 64
/* Groups each thread needs: its first group has nothing to prefetch its filter (2048 -> 512 at two
 * threads, 4 groups each: 331 GFLOP/s against oneDNN's 371). */
#define PW_MIN_GROUPS_PER_THREAD 8

bool oa_conv_pw_eligible(const conv_state *s)
{
    const geom *g = &s->g;
    return oa_kpw_for(oa_kisa_tier_used()) != NULL && oa_kernels_block() == 16 && g->blocked && !g->xpl &&
           !g->iblk && !g->transpose && g->g == 1 && g->kh == 1 && g->kw == 1 && g->pt == 0 && g->pb == 0 &&
           g->pl == 0 && g->pr == 0 && g->sh == g->sw && (g->sh == 1 || g->sh == 2) && g->ic % 16 == 0 &&
           g->oc % 16 == 0 && g->oh * g->ow > 0 && g->oh * g->ow <= PW_MAX_PIXELS && !s->bf16 &&
           (g->oc / 16 + OA_KPW_MAX_OB - 1) / OA_KPW_MAX_OB >= PW_MIN_GROUPS_PER_THREAD * (int64_t)oa_kernels_slices() &&
           oa_env_long("OPENACL_CONV_PW", 1) != 0;
}

oa_status oa_conv_pw_setup(oa_kop *op, conv_state *s, const float *wf)
{
    const geom *g = &s->g;
    const int64_t ocb = g->oc / 16, P = g->oh * g->ow;
    s->pw = oa_kpw_for(oa_kisa_tier_used());
    s->pww = aligned_alloc(64, sizeof(float) * (size_t)(g->oc * g->ic));
    s->pwoff = malloc(sizeof(int32_t) * (size_t)P);
    if (s->pww == NULL || s->pwoff == NULL) {
        return OA_FAIL(OA_E_NOMEM, "pointwise conv filter (%lld x %lld)", (long long)g->oc, (long long)g->ic);
    }
    /* wf [oc][ic] -> group k (blocks 4k.. of ob): [ic][ob][16] at k * 64 * ic */
    for (int64_t b0 = 0; b0 < ocb; b0 += OA_KPW_MAX_OB) {
        const int64_t ob = ocb - b0 < OA_KPW_MAX_OB ? ocb - b0 : OA_KPW_MAX_OB;
        float *wg = s->pww + b0 * 16 * g->ic;
        for (int64_t c = 0; c < g->ic; c++) {
            for (int64_t o = 0; o < ob * 16; o++) {
                wg[(c * ob) * 16 + o] = wf[(b0 * 16 + o) * g->ic + c];
            }
        }
    }
    for (int64_t p = 0; p < P; p++) { /* a pixel's place in an input block (strided for sh = 2) */
        s->pwoff[p] = (int32_t)(((p / g->ow) * g->sh * g->iw + (p % g->ow) * g->sw) * 16);
    }
    op->ws_size = 0;
    op->impl = "pw-avx512";
    return OA_OK;
}

typedef struct pw_ctx {
    const conv_state *s;
    const void *const *in;
    const float *x;
    float *y;
} pw_ctx;

/* Groups [b, e) of all images (index = image * groups + group). */
static void pw_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const pw_ctx *c = vctx;
    const conv_state *s = c->s;
    const geom *g = &s->g;
    const int64_t ocb = g->oc / 16, ngrp = (ocb + OA_KPW_MAX_OB - 1) / OA_KPW_MAX_OB, P = g->oh * g->ow;
    const int64_t xcs = g->ih * g->iw * 16, ycs = P * 16;
    const bool first_add = s->post.n > 0 && s->post.ops[0].kind == OA_KPOST_ADD;
    for (size_t idx = b; idx < e; idx++) {
        const int64_t n = (int64_t)idx / ngrp, k = (int64_t)idx % ngrp, b0 = k * OA_KPW_MAX_OB;
        const int ob = (int)(ocb - b0 < OA_KPW_MAX_OB ? ocb - b0 : OA_KPW_MAX_OB);
        const float *x = c->x + n * g->ic * g->ih * g->iw;
        const int64_t yoff = (n * ocb + b0) * ycs;
        float *y = c->y + yoff;
        const float *res = first_add ? (const float *)c->in[s->add_in[0]] + yoff : NULL;
        const float *wg = s->pww + b0 * 16 * g->ic;
        /* the next group's filter, one line per input channel in each of its first tiles */
        const char *next = k + 1 < ngrp ? (const char *)(s->pww + (b0 + OA_KPW_MAX_OB) * 16 * g->ic) : NULL;
        const int64_t next_lines = next != NULL ? (ocb - b0 - OA_KPW_MAX_OB < OA_KPW_MAX_OB ? ocb - b0 - OA_KPW_MAX_OB
                                                                                            : OA_KPW_MAX_OB) * g->ic
                                                : 0;
        int64_t t = 0;
        for (int64_t p0 = 0; p0 < P; p0 += OA_KPW_MAX_NP, t++) {
            const int np = (int)(P - p0 < OA_KPW_MAX_NP ? P - p0 : OA_KPW_MAX_NP);
            const char *pf = t * g->ic < next_lines ? next + t * g->ic * 64 : NULL;
            s->pw(x, xcs, s->pwoff + p0, np, wg, g->ic, ob, s->bias + b0 * 16, res != NULL ? res + p0 * 16 : NULL,
                  y + p0 * 16, ycs, pf);
        }
        const size_t len = (size_t)(ob * ycs); /* the group's blocks are contiguous */
        for (int i = first_add ? 1 : 0; i < s->post.n; i++) {
            const oa_kpost *po = &s->post.ops[i];
            if (po->kind == OA_KPOST_ADD) {
                oa_kadd_inplace(y, (const float *)c->in[s->add_in[i]] + yoff, len);
            } else {
                oa_kact_apply(po->act, po->alpha, po->beta, y, len);
            }
        }
    }
}

oa_status oa_conv_pw_run(const conv_state *s, const void *const *in, void *y, oa_threadpool *pool)
{
    const geom *g = &s->g;
    const int64_t ngrp = (g->oc / 16 + OA_KPW_MAX_OB - 1) / OA_KPW_MAX_OB;
    pw_ctx c = {s, in, in[0], y};
    const int64_t per_group = OA_KPW_MAX_OB * 16 * g->ic * g->oh * g->ow; /* MACs */
    oa_threadpool_parallel_for(pool, (size_t)(g->n * ngrp), (size_t)(OA_KGRAIN_ELEMS * 8 / (per_group + 1) + 1),
                               pw_task, &c);
    return OA_OK;
}

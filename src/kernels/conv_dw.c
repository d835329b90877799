/*
 * The depthwise path of Conv2D (conv.c chooses it at setup): one filter per
 * channel (group == input channels == output channels) between NCHWc
 * tensors, computed by the tier's row kernel (simd/dw_impl.inc) on each
 * channel block, row by row on the thread pool, the activations on each row
 * while it is in cache.
 *
 * Why our own: a model such as cls runs 17 depthwise convs of a few
 * microseconds each; through oneDNN every one is a primitive, whose creation
 * maps a large part of libdnnl's code into the process and whose call costs
 * microseconds of its own (bench/KERNELS.md "Depthwise and small 1x1 convs").
 */
#include "kernels/conv_internal.h"

#include <stdlib.h>
#include <string.h>

/* Taps per side up to which the row kernel runs (MobileNet-style nets use 3x3 to 7x7). */
enum { DW_MAX_K = 9 };

bool oa_conv_dw_eligible(const conv_state *s)
{
    const geom *g = &s->g;
    int blk = 0;
    if (oa_kdw_for(oa_kisa_tier_used(), &blk) == NULL || blk != oa_kernels_block() || !g->blocked || g->xpl ||
        g->iblk || g->transpose || g->g <= 1 || g->g != g->ic || g->g != g->oc || s->bf16 || g->dh != 1 ||
        g->dw != 1 || g->kh > DW_MAX_K || g->kw > DW_MAX_K || g->pt >= g->kh || g->pb >= g->kh ||
        g->pl >= g->kw || g->pr >= g->kw || g->n * g->oh * g->ow == 0 || oa_env_long("OPENACL_CONV_DW", 1) == 0) {
        return false;
    }
    for (int k = 0; k < s->post.n; k++) {
        if (s->post.ops[k].kind == OA_KPOST_ADD) {
            return false; /* a residual may alias y, which the rows overwrite before the add */
        }
    }
    return true;
}

oa_status oa_conv_dw_setup(oa_kop *op, conv_state *s, const float *wf)
{
    const geom *g = &s->g;
    int blk = 0;
    s->dw = oa_kdw_for(oa_kisa_tier_used(), &blk);
    const int64_t cb = (g->oc + blk - 1) / blk, kk = g->kh * g->kw;
    const size_t wbytes = sizeof(float) * (size_t)(cb * kk * blk), bbytes = sizeof(float) * (size_t)(cb * blk);
    s->dww = aligned_alloc(64, (wbytes + 63) / 64 * 64);
    s->dwb = aligned_alloc(64, (bbytes + 63) / 64 * 64);
    if (s->dww == NULL || s->dwb == NULL) {
        return OA_FAIL(OA_E_NOMEM, "depthwise conv taps (%zu bytes)", wbytes);
    }
    /* wf [oc][1][kh][kw] -> dww [block][kh][kw][blk]; padding lanes zero (their output stays 0) */
    memset(s->dww, 0, wbytes);
    memset(s->dwb, 0, bbytes);
    for (int64_t o = 0; o < g->oc; o++) {
        for (int64_t k = 0; k < kk; k++) {
            s->dww[((o / blk) * kk + k) * blk + o % blk] = wf[o * kk + k];
        }
        s->dwb[o] = s->bias[o];
    }
    /* activations in the kernel's registers when they are simple, else on each row after it */
    s->post_from = oa_kacts_from_post(&s->post, 0, &s->dw_acts) ? s->post.n : 0;
    op->ws_size = 0;
    op->impl = blk == 16 ? "dw-avx512" : "dw-avx2";
    return OA_OK;
}

typedef struct dw_ctx {
    const conv_state *s;
    const float *x;
    float *y;
} dw_ctx;

/* Output rows [b, e) (index = (image * blocks + block) * oh + row). */
static void dw_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const dw_ctx *c = vctx;
    const conv_state *s = c->s;
    const geom *g = &s->g;
    const int64_t blk = oa_kernels_block(), kk = g->kh * g->kw;
    const size_t row_n = (size_t)(g->ow * blk);
    for (size_t r = b; r < e; r++) {
        const int64_t plane = (int64_t)r / g->oh, oy = (int64_t)r % g->oh, k = plane % ((g->oc + blk - 1) / blk);
        float *y = c->y + (plane * g->oh + oy) * g->ow * blk;
        s->dw(c->x + plane * g->ih * g->iw * blk, g->ih, g->iw, s->dww + k * kk * blk, s->dwb + k * blk, g->kh,
              g->kw, g->sh, g->sw, g->pt, g->pl, oy, g->ow, s->dw_acts.n > 0 ? &s->dw_acts : NULL, y);
        if (s->post_from < s->post.n) {
            oa_kpost_acts(&s->post, y, row_n); /* activations only (oa_conv_dw_eligible) */
        }
        oa_kblk_zero_lanes(y, g->ow, blk, g->oc - k * blk);
    }
}

oa_status oa_conv_dw_run(const conv_state *s, const void *x, void *y, oa_threadpool *pool)
{
    const geom *g = &s->g;
    dw_ctx c = {s, x, y};
    const int64_t blk = oa_kernels_block(), per_row = g->ow * blk * g->kh * g->kw; /* MACs */
    oa_threadpool_parallel_for(pool, (size_t)(g->n * ((g->oc + blk - 1) / blk) * g->oh),
                               (size_t)(OA_KGRAIN_ELEMS * 8 / (per_row + 1) + 1), dw_task, &c);
    return OA_OK;
}

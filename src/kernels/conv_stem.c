/*
 * The stem path of Conv2D (conv.c chooses it at setup): a network's first
 * conv, from a plain x with at most 4 channels into an NCHWc chain, computed
 * by the tier's stem kernel (simd/stem_impl.inc) row by row on the thread
 * pool, the post-ops on each row while it is in cache. Up to 16 output
 * channels: there oneDNN's kernel runs at a quarter of the FMA peak, and a
 * single 16-channel output block gives its output-channel slices nothing to
 * split; wider stems (ResNet's 3->64 7x7) reuse each input value across
 * blocks, which oneDNN's kernel does and this one does not
 * (bench/KERNELS.md "Stem convolutions").
 */
#include "kernels/conv_internal.h"

#include <stdlib.h>
#include <string.h>

enum { STEM_MAX_IC = 4 };

bool oa_conv_stem_eligible(const conv_state *s)
{
    const geom *g = &s->g;
    int blk = 0;
    if (oa_kstem_for(oa_kisa_tier_used(), &blk) == NULL || blk != oa_kernels_block() || !g->xpl || g->transpose ||
        g->g != 1 || g->ic > STEM_MAX_IC || g->oc > 16 || g->dh != 1 || g->dw != 1 || s->bf16 ||
        g->n * g->oh * g->ow == 0 ||
        oa_env_long("OPENACL_CONV_STEM", 1) == 0) {
        return false;
    }
    for (int k = 0; k < s->post.n; k++) {
        if (s->post.ops[k].kind == OA_KPOST_ADD) {
            return false; /* a residual may alias y, which the rows overwrite before the add */
        }
    }
    return true;
}

oa_status oa_conv_stem_setup(oa_kop *op, conv_state *s, const float *wf)
{
    const geom *g = &s->g;
    int blk = 0;
    s->stem = oa_kstem_for(oa_kisa_tier_used(), &blk);
    const int64_t ocb = (g->oc + blk - 1) / blk, kk = g->kh * g->kw;
    const size_t wbytes = sizeof(float) * (size_t)(ocb * g->ic * kk * blk);
    s->stw = aligned_alloc(64, (wbytes + 63) / 64 * 64);
    s->stb = aligned_alloc(64, (sizeof(float) * (size_t)(ocb * blk) + 63) / 64 * 64);
    if (s->stw == NULL || s->stb == NULL) {
        return OA_FAIL(OA_E_NOMEM, "stem conv taps (%zu bytes)", wbytes);
    }
    /* wf [oc][ic][kh][kw] -> stw [block][ic][kh][kw][blk]; padding lanes zero (their output stays 0) */
    memset(s->stw, 0, wbytes);
    memset(s->stb, 0, sizeof(float) * (size_t)(ocb * blk));
    for (int64_t o = 0; o < g->oc; o++) {
        for (int64_t c = 0; c < g->ic; c++) {
            for (int64_t k = 0; k < kk; k++) {
                s->stw[(((o / blk) * g->ic + c) * kk + k) * blk + o % blk] = wf[(o * g->ic + c) * kk + k];
            }
        }
        s->stb[o] = s->bias[o];
    }
    op->ws_size = 0;
    op->impl = blk == 16 ? "stem-avx512" : "stem-avx2";
    return OA_OK;
}

typedef struct stem_ctx {
    const conv_state *s;
    const float *x;
    float *y;
} stem_ctx;

/* Output rows [b, e) of all images (index = image * oh + row), every channel block of each. */
static void stem_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const stem_ctx *c = vctx;
    const conv_state *s = c->s;
    const geom *g = &s->g;
    const int64_t blk = oa_kernels_block(), ocb = (g->oc + blk - 1) / blk, kk = g->kh * g->kw;
    const size_t row_n = (size_t)(g->ow * blk);
    for (size_t r = b; r < e; r++) {
        const int64_t n = (int64_t)r / g->oh, oy = (int64_t)r % g->oh;
        const float *x = c->x + n * g->ic * g->ih * g->iw;
        for (int64_t k = 0; k < ocb; k++) {
            float *y = c->y + ((n * ocb + k) * g->oh + oy) * g->ow * blk;
            s->stem(x, g->ic, g->ih, g->iw, s->stw + k * g->ic * kk * blk, s->stb + k * blk, g->kh, g->kw, g->sh,
                    g->sw, g->pt, g->pl, oy, g->ow, y);
            oa_kpost_acts(&s->post, y, row_n); /* activations only (oa_conv_stem_eligible) */
            oa_kblk_zero_lanes(y, g->ow, blk, g->oc - k * blk);
        }
    }
}

oa_status oa_conv_stem_run(const conv_state *s, const void *x, void *y, oa_threadpool *pool)
{
    const geom *g = &s->g;
    stem_ctx c = {s, x, y};
    const int64_t per_row = g->ow * oa_kc_padded(g->oc) * g->ic * g->kh * g->kw; /* MACs */
    oa_threadpool_parallel_for(pool, (size_t)(g->n * g->oh), (size_t)(OA_KGRAIN_ELEMS * 8 / (per_row + 1) + 1),
                               stem_task, &c);
    return OA_OK;
}

/* Products with a streamed filter on the prefetching tile (pw_product.h). */
#include "kernels/pw_product.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Filter bytes of a chunk: stays in the L2 cache (1-2 MiB per core on AVX-512 CPUs) next to the input. */
#define PW_CHUNK_BYTES ((int64_t)384 << 10)
/* What a chunk keeps in L2 while it runs over a range: the range's rows of x for its steps, its filter and the
 * next piece's (prefetched). With BERT-like's 3072-long FFN-down rows (128 rows: 1.5 MiB of x for a 1536-step
 * chunk) they did not fit, and its product ran 115-120 GFLOP/s with the filter from memory against 129-133 in
 * chunks of 512-1024 steps (bench_kernels pw); bench/KERNELS.md "Chunks and the rows of x". */
#define PW_CHUNK_L2_BYTES ((int64_t)1 << 20)

/* Reductions longer than PW_WHOLE_STEPS run in chunks of at most PW_SPLIT_CHUNK_BYTES of filter (384 steps of
 * a full group): at one thread BERT-like's FFN-down (3072 steps) 2-4 % and ResNet-50's stride-2 1024 -> 2048
 * (1024 steps) 5.5 % faster than in chunks of 1024, the others within 1.5 %; up to 768 steps one chunk stays
 * faster (BERT-like's 768-step products 2-4 % slower in two). bench/KERNELS.md "Shorter chunks for long
 * reductions". */
#define PW_WHOLE_STEPS 768
#define PW_SPLIT_CHUNK_BYTES ((int64_t)96 << 10)

static int64_t groups_of(int64_t nblk)
{
    return (nblk + OA_KPW_MAX_OB - 1) / OA_KPW_MAX_OB;
}

/* Steps per chunk of a full group over ranges of pr rows: equal chunks within PW_CHUNK_BYTES of filter and,
 * with x's rows and the next piece, within PW_CHUNK_L2_BYTES (pr 0: the filter bound alone); when split, also
 * within PW_SPLIT_CHUNK_BYTES if the reduction is longer than PW_WHOLE_STEPS (how the products run; the paths'
 * piece counts, oa_kpw_prod_pieces, stay those of the longer chunks their rules were measured with). */
static int64_t chunk_len(int64_t R, int64_t pr, bool split)
{
    const int64_t step_w = OA_KPW_MAX_OB * 16 * (int64_t)sizeof(float);
    int64_t most = PW_CHUNK_BYTES / step_w;
    const int64_t fit = PW_CHUNK_L2_BYTES / (pr * (int64_t)sizeof(float) + 2 * step_w);
    most = pr > 0 && fit < most ? (fit > 64 ? fit : 64) : most;
    if (split && R > PW_WHOLE_STEPS && most > PW_SPLIT_CHUNK_BYTES / step_w) {
        most = PW_SPLIT_CHUNK_BYTES / step_w;
    }
    const int64_t nch = (R + most - 1) / most;
    return (R + nch - 1) / nch;
}

int64_t oa_kpw_prod_pieces(int64_t nblk, int64_t R)
{
    const int64_t len = chunk_len(R, 0, false);
    return groups_of(nblk) * ((R + len - 1) / len);
}

void oa_kpw_prod_set_ranges(oa_kpw_prod *p, int64_t pr_len)
{
    p->pr_len = pr_len < p->P ? pr_len : p->P;
    p->len = chunk_len(p->R, p->pr_len, true);
}

oa_status oa_kpw_prod_init(oa_kpw_prod *p, int64_t nblk, int64_t R, int64_t P)
{
    memset(p, 0, sizeof(*p));
    p->tile = oa_kpw_for(oa_kisa_tier_used());
    p->nblk = nblk;
    p->last = 16;
    p->R = R;
    p->P = P;
    p->n = 1;
    oa_kpw_prod_set_ranges(p, P);
    p->off = malloc(sizeof(int32_t) * (size_t)P);
    p->xoff = malloc(sizeof(int32_t) * (size_t)R);
    if (p->off == NULL || p->xoff == NULL) {
        oa_kpw_prod_free(p);
        return OA_FAIL(OA_E_NOMEM, "streamed-filter product (%lld x %lld)", (long long)(nblk * 16), (long long)R);
    }
    return OA_OK;
}

oa_status oa_kpw_prod_pack(oa_kpw_prod *p, const oa_ktensor *src, const void *form, size_t form_len,
                           oa_kderived_fill fill, void *ctx)
{
    void *w = NULL;
    oa_status st =
        oa_kderived_get(src, form, form_len, sizeof(float) * (size_t)(p->nblk * 16 * p->R), fill, ctx, &w);
    p->w = w;
    return st;
}

void oa_kpw_prod_free(oa_kpw_prod *p)
{
    oa_kderived_put(p->w);
    free(p->off);
    free(p->xoff);
    memset(p, 0, sizeof(*p));
}

/* The start of a group's blocks when there is no bias (one array for every product, not one per kernel). */
static const float k_no_bias[OA_KPW_MAX_OB * 16];

/* Output blocks of the group starting at block b0 (the last group may have fewer). */
static int64_t blocks_from(const oa_kpw_prod *p, int64_t b0)
{
    return p->nblk - b0 < OA_KPW_MAX_OB ? p->nblk - b0 : OA_KPW_MAX_OB;
}

float *oa_kpw_prod_group_in(const oa_kpw_prod *p, float *w, int64_t b, int64_t *b0, int64_t *ob)
{
    *b0 = b / OA_KPW_MAX_OB * OA_KPW_MAX_OB;
    *ob = blocks_from(p, *b0);
    return w + *b0 * 16 * p->R;
}

float *oa_kpw_prod_group(const oa_kpw_prod *p, int64_t b, int64_t *b0, int64_t *ob)
{
    return oa_kpw_prod_group_in(p, p->w, b, b0, ob);
}

typedef struct prod_ctx {
    const oa_kpw_prod *p;
    const float *w; /* the packed filter: p->w, or one packed at run */
    const float *x, *bias, *res;
    float *y;
    oa_kpw_group_fn done;
    void *done_ctx;
    size_t units, parts; /* (image, pixel range, group) units in `parts` contiguous ranges */
    atomic_size_t next;  /* the next range to take */
} prod_ctx;

static int64_t ranges_of(const oa_kpw_prod *p)
{
    return (p->P + p->pr_len - 1) / p->pr_len;
}

/* Units [b, e) (index = (image * ranges + range) * groups + group), each group chunk by chunk over the range's
 * pixels. The next piece, whose filter each piece prefetches, is the group's next chunk or the next unit's
 * first (the next group, or the first one again for the next range). */
static void run_units(const prod_ctx *c, size_t b, size_t e)
{
    const oa_kpw_prod *p = c->p;
    const int64_t ngrp = groups_of(p->nblk), R = p->R, len = p->len, nr = ranges_of(p);
    oa_kpw_tile t = {.xoff = p->xoff, .ycs = p->ycs, .ys = p->ys};
    for (size_t idx = b; idx < e; idx++) {
        const int64_t k = (int64_t)idx % ngrp, pr = (int64_t)idx / ngrp % nr, n = (int64_t)idx / ngrp / nr;
        const int64_t b0 = k * OA_KPW_MAX_OB, lo = pr * p->pr_len, hi = lo + p->pr_len < p->P ? lo + p->pr_len : p->P;
        const int64_t ntiles = (hi - lo + OA_KPW_MAX_NP - 1) / OA_KPW_MAX_NP; /* even widths: 49 = 4 x 6 + 5 x 5 */
        t.ob = (int)blocks_from(p, b0);
        const uint16_t valid = (uint16_t)((1u << p->last) - 1u);
        const bool last_grp = b0 + t.ob == p->nblk;
        t.last_lanes = last_grp && !p->zero_pad ? valid : (uint16_t)0xffff;
        t.last_zero = last_grp && p->zero_pad ? (uint16_t)~valid : (uint16_t)0;
        t.x = c->x + n * p->x_img;
        t.w = c->w + b0 * 16 * R;
        const int64_t yoff = n * p->y_img + b0 * p->ycs;
        float *y = c->y + yoff;
        const float *res = c->res != NULL ? c->res + yoff : NULL;
        const float *bias = c->bias != NULL ? c->bias + b0 * 16 : k_no_bias;
        for (t.r0 = 0; t.r0 < R; t.r0 += len) {
            t.r1 = t.r0 + len < R ? t.r0 + len : R;
            t.acts = t.r1 == R && p->acts.n > 0 ? &p->acts : NULL;
            const float *nw = NULL; /* one line of the next piece per step */
            int64_t nlines = 0;
            if (t.r1 < R) {
                nw = t.w + t.r1 * t.ob * 16;
                nlines = ((t.r1 + len < R ? t.r1 + len : R) - t.r1) * t.ob;
            } else if (idx + 1 < c->units && ngrp > 1) {
                const int64_t nb0 = (k + 1) % ngrp * OA_KPW_MAX_OB;
                nw = c->w + nb0 * 16 * R;
                nlines = (len < R ? len : R) * blocks_from(p, nb0);
            }
            const int64_t steps = t.r1 - t.r0;
            /* the next piece's lines spread over this piece's tiles: one every 2^pf_shift steps, as few
             * per step as cover them (a burst of one line per step outran one core's memory bandwidth on
             * an Intel Xeon: bench/KERNELS.md "Prefetch spread") */
            t.pf_shift = 0;
            while (t.pf_shift < 3 &&
                   ((steps + ((int64_t)2 << t.pf_shift) - 1) >> (t.pf_shift + 1)) * ntiles >= nlines) {
                t.pf_shift++;
            }
            const int64_t per_tile = (steps + ((int64_t)1 << t.pf_shift) - 1) >> t.pf_shift;
            int64_t tile = 0;
            for (int64_t p0 = lo; p0 < hi; p0 += t.np, tile++) {
                t.np = (int)((hi - lo) / ntiles + (tile < (hi - lo) % ntiles ? 1 : 0));
                t.off = p->off + p0;
                const void *pf = tile * per_tile < nlines ? (const char *)nw + tile * per_tile * 64 : NULL;
                p->tile(&t, t.r0 == 0 ? bias : NULL, t.r0 == 0 && res != NULL ? res + p0 * p->ys : NULL,
                        y + p0 * p->ys, pf);
            }
        }
        if (c->done != NULL) {
            c->done(c->done_ctx, n, b0, t.ob, lo, hi);
        }
    }
}

static void prod_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    (void)b;
    (void)e;
    prod_ctx *c = vctx;
    for (size_t i = atomic_fetch_add(&c->next, 1); i < c->parts; i = atomic_fetch_add(&c->next, 1)) {
        run_units(c, c->units * i / c->parts, c->units * (i + 1) / c->parts);
    }
}

void oa_kpw_prod_run(const oa_kpw_prod *p, const float *x, float *y, const float *bias, const float *res,
                     oa_kpw_group_fn done, void *ctx, oa_threadpool *pool)
{
    prod_ctx c = {.p = p, .w = p->w, .x = x, .bias = bias, .res = res, .y = y, .done = done, .done_ctx = ctx};
    c.units = (size_t)(p->n * ranges_of(p) * groups_of(p->nblk));
    c.parts = oa_threadpool_size(pool) < c.units ? oa_threadpool_size(pool) : c.units;
    atomic_init(&c.next, 0);
    if (c.parts > 0) {
        oa_threadpool_run_n(pool, c.parts, prod_task, &c);
    }
}

void oa_kpw_prod_run_here(const oa_kpw_prod *p, const float *w, const float *x, float *y)
{
    prod_ctx c = {.p = p, .w = w, .x = x, .y = y};
    c.units = (size_t)(ranges_of(p) * groups_of(p->nblk)); /* one image */
    run_units(&c, 0, c.units);
}

/*
 * ConcatD and Split/SplitV, plain and NCHWc (channel axis). All dtypes
 * (moved by element size). Concat inputs the static memory plan already put
 * inside the output are not copied (docs/memory.md "Concat in place").
 */
#include "kernels/kernel_internal.h"

#include <stdlib.h>
#include <string.h>

/* =========================== Concat ===================================== */

typedef struct cat_state {
    int n;
    int64_t outer;
    size_t blk[64]; /* bytes per outer row of y that each input gives */
    size_t src_row[64], src_off[64]; /* each input's bytes per outer row, and where its window starts */
    size_t row;     /* bytes per outer row of y */
    /* NCHWc with an input whose C is not a block multiple (before the last):
     * output blocks gathered lane runs at a time (cat_gather) */
    bool gather;
    int64_t cb, hw, cout, ch[64];
    size_t esz;
} cat_state;

/* Checks p's windows; take[i]: the extent input i gives along axis ax, off[i] (may be NULL) where it starts. */
static oa_status cat_windows_at(const oa_kconcat_params *p, int n_in, const oa_ktensor *in, int ax, int64_t *take,
                                int64_t *off)
{
    for (int i = 0; i < n_in; i++) {
        take[i] = in[i].dims[ax];
        if (off != NULL) {
            off[i] = 0;
        }
    }
    if (p->n_win < 0 || p->n_win > OA_KCONCAT_MAX_WIN) {
        return OA_FAIL(OA_E_PARAM, "ConcatD: %d windows, at most %d", p->n_win, OA_KCONCAT_MAX_WIN);
    }
    uint64_t seen = 0;
    for (int k = 0; k < p->n_win; k++) {
        const oa_kconcat_win *w = &p->win[k];
        if (w->input < 0 || w->input >= n_in || (seen >> w->input & 1u) || in[w->input].layout != OA_KLAYOUT_PLAIN ||
            w->off < 0 || w->len < 0 || w->off > in[w->input].dims[ax] - w->len) {
            return OA_FAIL(OA_E_PARAM, "ConcatD: window %d (input %d, [%lld, +%lld)) does not fit a plain input", k,
                           w->input, (long long)w->off, (long long)w->len);
        }
        seen |= (uint64_t)1 << w->input;
        take[w->input] = w->len;
        if (off != NULL) {
            off[w->input] = w->off;
        }
    }
    return OA_OK;
}

static oa_status cat_windows(const oa_kconcat_params *p, int n_in, const oa_ktensor *in, int ax, int64_t *take)
{
    return cat_windows_at(p, n_in, in, ax, take, NULL);
}

static oa_status cat_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    const oa_kconcat_params *p = params;
    if (n_in < 1 || n_in > 64 || n_out != 1) {
        return OA_FAIL(OA_E_PARAM, "ConcatD: 1..64 inputs and 1 output (got %d, %d)", n_in, n_out);
    }
    int r = in[0].rank, ax;
    if (r == 0 || !oa_kaxis_norm(p->axis, r, &ax)) {
        return OA_FAIL(OA_E_PARAM, "ConcatD: concat_dim %lld out of range for rank %d", (long long)p->axis, r);
    }
    int64_t take[64];
    oa_status st = cat_windows(p, n_in, in, ax, take);
    if (st != OA_OK) {
        return st;
    }
    out[0] = in[0];
    out[0].data = NULL;
    out[0].dims[ax] = 0;
    int64_t cb = oa_kernels_block();
    for (int i = 0; i < n_in; i++) {
        if (in[i].dtype != in[0].dtype || in[i].rank != r || in[i].layout != in[0].layout) {
            return OA_FAIL(OA_E_PARAM, "ConcatD: input %d dtype/rank/layout differs from input 0", i);
        }
        for (int d = 0; d < r; d++) {
            if (d != ax && in[i].dims[d] != in[0].dims[d]) {
                return OA_FAIL(OA_E_PARAM, "ConcatD: input %d dim %d is %lld, input 0 has %lld", i, d,
                               (long long)in[i].dims[d], (long long)in[0].dims[d]);
            }
        }
        if (in[0].layout == OA_KLAYOUT_NCHWC && (ax != 1 || r != 4)) {
            return OA_FAIL(OA_E_PARAM, "ConcatD: NCHWc needs rank 4 and axis 1 (block %lld)", (long long)cb);
        }
        out[0].dims[ax] += take[i];
    }
    return OA_OK;
}

static oa_status cat_setup(oa_kop *op)
{
    cat_state *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "concat state");
    }
    op->state = s;
    int ax = 0;
    oa_kaxis_norm(op->params.concat.axis, op->in[0].rank, &ax);
    s->n = op->n_in;
    size_t esz = oa_kdtype_size(op->in[0].dtype);
    bool blocked = op->in[0].layout == OA_KLAYOUT_NCHWC;
    s->outer = 1;
    for (int d = 0; d < ax; d++) {
        s->outer *= op->in[0].dims[d];
    }
    s->row = 0;
    int64_t take[64], off[64];
    oa_status st = cat_windows_at(&op->params.concat, op->n_in, op->in, ax, take, off);
    if (st != OA_OK) {
        return st;
    }
    for (int i = 0; i < op->n_in; i++) {
        size_t b = esz; /* bytes of one index along the axis */
        for (int d = ax + 1; d < op->in[i].rank; d++) {
            b *= (size_t)op->in[i].dims[d];
        }
        const int64_t full = blocked && ax == 1 ? oa_kc_padded(op->in[i].dims[1]) : op->in[i].dims[ax];
        s->blk[i] = b * (size_t)(blocked ? full : take[i]);
        s->src_row[i] = b * (size_t)full;
        s->src_off[i] = b * (size_t)off[i];
        s->row += s->blk[i];
        s->ch[i] = op->in[i].dims[1];
        s->cout += s->ch[i];
        s->gather = s->gather || (blocked && i < op->n_in - 1 && s->ch[i] % oa_kernels_block() != 0);
    }
    s->cb = oa_kernels_block();
    s->esz = esz;
    s->hw = blocked ? op->in[0].dims[2] * op->in[0].dims[3] : 0;
    if (s->gather) {
        op->impl = "nchwc-gather";
    }
    return OA_OK;
}

typedef struct cat_ctx {
    const cat_state *s;
    const void *const *in;
    char *y;
} cat_ctx;

/* Output blocks [b, e) of all images (index = image * blocks + block): each
 * lane run [l, l + len) comes from one input block, pixel by pixel; lanes
 * past the last channel are zero (the padding of NCHWc). */
static void cat_gather(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const cat_ctx *c = vctx;
    const cat_state *s = c->s;
    const int64_t cb = s->cb, hw = s->hw, ob_n = (s->cout + cb - 1) / cb;
    const size_t px = (size_t)cb * s->esz; /* bytes per pixel of a block */
    for (size_t idx = b; idx < e; idx++) {
        const int64_t img = (int64_t)idx / ob_n, ob = (int64_t)idx % ob_n;
        char *yb = c->y + ((size_t)(img * ob_n + ob) * (size_t)hw) * px;
        int64_t lane = 0, off = 0;
        for (int i = 0; i < s->n && lane < cb; i++) {
            const int64_t end = off + s->ch[i], sb_n = (s->ch[i] + cb - 1) / cb; /* input i: channels [off, end) */
            while (lane < cb && ob * cb + lane < end) {
                const int64_t sc = ob * cb + lane - off, sl = sc % cb;
                int64_t len = cb - (lane > sl ? lane : sl);
                len = len < end - (ob * cb + lane) ? len : end - (ob * cb + lane);
                const char *xb = (const char *)c->in[i] + ((size_t)(img * sb_n + sc / cb) * (size_t)hw) * px;
                const size_t lo = (size_t)lane * s->esz, so = (size_t)sl * s->esz, n = (size_t)len * s->esz;
                if (len == cb) {
                    memcpy(yb, xb, (size_t)hw * px);
                } else if (n == 32) { /* 8 f32 lanes: half of a 16-block (24-channel inputs) */
                    for (int64_t p = 0; p < hw; p++) {
                        memcpy(yb + (size_t)p * px + lo, xb + (size_t)p * px + so, 32);
                    }
                } else {
                    for (int64_t p = 0; p < hw; p++) {
                        memcpy(yb + (size_t)p * px + lo, xb + (size_t)p * px + so, n);
                    }
                }
                lane += len;
            }
            off = end;
        }
        if (lane < cb) {
            const size_t lo = (size_t)lane * s->esz, n = (size_t)(cb - lane) * s->esz;
            for (int64_t p = 0; p < hw; p++) {
                memset(yb + (size_t)p * px + lo, 0, n);
            }
        }
    }
}

/* Bytes of y per task of the plain copy: a few pages, so a small Concat stays one task. */
#define CAT_PIECE ((size_t)64 * 1024)

/* Pieces [b, e) of y (CAT_PIECE bytes each): every byte run comes from one input's outer row. One
 * division finds where the piece starts; the walk then goes input by input, row by row. */
static void cat_copy(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const cat_ctx *c = vctx;
    const cat_state *s = c->s;
    const size_t total = (size_t)s->outer * s->row, end = e * CAT_PIECE < total ? e * CAT_PIECE : total;
    size_t pos = b * CAT_PIECE;
    if (pos >= end) {
        return;
    }
    size_t o = pos / s->row, at = pos - o * s->row; /* outer row o, offset at within it */
    int i = 0;
    while (at >= s->blk[i]) { /* the input holding that offset (a zero-size input is skipped) */
        at -= s->blk[i++];
    }
    while (pos < end) {
        size_t n = s->blk[i] - at;
        n = n < end - pos ? n : end - pos;
        const char *src = (const char *)c->in[i] + o * s->src_row[i] + s->src_off[i] + at;
        if (src != c->y + pos) { /* an input the producer wrote in place (docs/memory.md "Concat in place") */
            oa_kmove(c->y + pos, src, n);
        }
        pos += n;
        at = 0;
        do { /* next non-empty input, wrapping to the next outer row */
            if (++i == s->n) {
                i = 0;
                o++;
            }
        } while (s->blk[i] == 0 && pos < end);
    }
}

static oa_status cat_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)ws;
    const cat_state *s = op->state;
    if (out[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "ConcatD: NULL output");
    }
    for (int i = 0; i < s->n; i++) {
        if (in[i] == NULL && s->blk[i] > 0) {
            return OA_FAIL(OA_E_PARAM, "ConcatD: input %d is NULL", i);
        }
    }
    if (s->gather) {
        cat_ctx c = {s, in, out[0]};
        const int64_t blocks = s->outer * ((s->cout + s->cb - 1) / s->cb);
        oa_threadpool_parallel_for(pool, (size_t)blocks, (size_t)(OA_KGRAIN_ELEMS / (s->hw * s->cb + 1) + 1), cat_gather,
                                   &c);
        return OA_OK;
    }
    /* every input already where it belongs: the memory plan put them there (docs/memory.md "Concat in place") */
    bool placed = s->outer == 1;
    size_t at = 0;
    for (int i = 0; i < s->n && placed; i++) {
        placed = s->blk[i] == 0 || (const char *)in[i] + s->src_off[i] == (const char *)out[0] + at;
        at += s->blk[i];
    }
    if (placed) {
        return OA_OK;
    }
    /* y in pieces of CAT_PIECE bytes spread over the pool (YOLO's 8.6 MB detection
     * Concat was one thread's memcpy) */
    cat_ctx c = {s, in, out[0]};
    const size_t total = (size_t)s->outer * s->row;
    oa_threadpool_parallel_for(pool, (total + CAT_PIECE - 1) / CAT_PIECE, 1, cat_copy, &c);
    return OA_OK;
}

const oa_kfamily oa_kfam_concat = {
    .params_size = sizeof(oa_kconcat_params),
    .infer = cat_infer,
    .setup = cat_setup,
    .run = cat_run,
    .release = oa_kop_state_free,
};

/* =========================== Split ====================================== */

static oa_status split_sizes(const oa_ksplit_params *p, int n_in, const oa_ktensor *in, int n_out, int *ax,
                             int64_t *sizes)
{
    const oa_ktensor *x = &in[0];
    if (x->rank == 0 || !oa_kaxis_norm(p->axis, x->rank, ax)) {
        return OA_FAIL(OA_E_PARAM, "Split: split_dim %lld out of range for rank %d", (long long)p->axis, x->rank);
    }
    int64_t dim = x->dims[*ax];
    int n = p->n_sizes;
    if (n > 64 || n_out > 64) {
        return OA_FAIL(OA_E_PARAM, "Split: at most 64 outputs");
    }
    if (n > 0) {
        memcpy(sizes, p->sizes, sizeof(int64_t) * (size_t)n);
    } else if (oa_kt_opt(n_in, in, 1) != NULL) {
        oa_status st = oa_kt_read_ints(&in[1], "Split size_splits", sizes, 64, &n);
        if (st != OA_OK) {
            return st;
        }
    } else {
        if (n_out <= 0 || dim % n_out != 0) {
            return OA_FAIL(OA_E_PARAM, "Split: dim %lld not divisible into %d equal parts", (long long)dim, n_out);
        }
        n = n_out;
        for (int i = 0; i < n; i++) {
            sizes[i] = dim / n_out;
        }
    }
    if (n != n_out) {
        return OA_FAIL(OA_E_PARAM, "Split: %d sizes for %d outputs", n, n_out);
    }
    int neg = -1;
    int64_t sum = 0;
    for (int i = 0; i < n; i++) {
        if (sizes[i] == -1 && neg < 0) {
            neg = i;
        } else if (sizes[i] < 0) {
            return OA_FAIL(OA_E_PARAM, "Split: invalid size %lld", (long long)sizes[i]);
        } else {
            sum += sizes[i];
        }
    }
    if (neg >= 0) {
        sizes[neg] = dim - sum;
        sum = dim;
    }
    if (sum != dim || (neg >= 0 && sizes[neg] < 0)) {
        return OA_FAIL(OA_E_PARAM, "Split: sizes sum to %lld, dim is %lld", (long long)sum, (long long)dim);
    }
    return OA_OK;
}

static oa_status split_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    if (n_in < 1 || n_in > 2 || n_out < 1) {
        return OA_FAIL(OA_E_PARAM, "Split: x[, size_splits] and >= 1 outputs");
    }
    int ax = 0;
    int64_t sizes[64];
    oa_status st = split_sizes(params, n_in, in, n_out, &ax, sizes);
    if (st != OA_OK) {
        return st;
    }
    const bool blocked = in[0].layout == OA_KLAYOUT_NCHWC;
    for (int i = 0; i < n_out; i++) {
        /* NCHWc: along the channels, each output but the last a whole number of blocks
         * (docs/atc.md "Blocked layout") */
        if (blocked && (ax != 1 || (i + 1 < n_out && sizes[i] % oa_kernels_block() != 0))) {
            return OA_FAIL(OA_E_PARAM, "Split: NCHWc input split along axis %d into %lld channels (block %d)", ax,
                           (long long)sizes[i], oa_kernels_block());
        }
        out[i] = in[0];
        out[i].data = NULL;
        out[i].layout = in[0].layout;
        out[i].dims[ax] = sizes[i];
    }
    return OA_OK;
}

typedef struct split_state {
    int n;
    int64_t outer;
    size_t blk[64], row;
} split_state;

static oa_status split_setup(oa_kop *op)
{
    split_state *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "split state");
    }
    op->state = s;
    int ax = 0;
    int64_t sizes[64];
    oa_status st = split_sizes(&op->params.split, op->n_in, op->in, op->n_out, &ax, sizes);
    if (st != OA_OK) {
        return st;
    }
    size_t esz = oa_kdtype_size(op->in[0].dtype), inner = esz;
    for (int d = ax + 1; d < op->in[0].rank; d++) {
        inner *= (size_t)op->in[0].dims[d];
    }
    s->outer = 1;
    for (int d = 0; d < ax; d++) {
        s->outer *= op->in[0].dims[d];
    }
    s->n = op->n_out;
    const bool blocked = op->in[0].layout == OA_KLAYOUT_NCHWC; /* channel runs of whole blocks (split_infer) */
    for (int i = 0; i < op->n_out; i++) {
        s->blk[i] = (size_t)(blocked ? oa_kc_padded(sizes[i]) : sizes[i]) * inner;
        s->row += s->blk[i];
    }
    return OA_OK;
}

static oa_status split_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)ws, (void)pool;
    const split_state *s = op->state;
    if (in[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "Split: NULL input");
    }
    const char *x = in[0];
    for (int64_t o = 0; o < s->outer; o++) {
        for (int i = 0; i < s->n; i++) {
            if (out[i] != NULL && s->blk[i]) {
                memcpy((char *)out[i] + (size_t)o * s->blk[i], x, s->blk[i]);
            }
            x += s->blk[i];
        }
    }
    return OA_OK;
}

const oa_kfamily oa_kfam_split = {
    .params_size = sizeof(oa_ksplit_params),
    .infer = split_infer,
    .setup = split_setup,
    .run = split_run,
    .release = oa_kop_state_free,
};


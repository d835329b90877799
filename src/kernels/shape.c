/*
 * Data movement: Transpose, StridedSliceV2/Slice, GatherV2, PadV3, Tile,
 * Expand/BroadcastTo, Copy (Reshape & co.) and NCHW <-> NCHWc reorders
 * (ConcatD and Split/SplitV: concat.c). All dtypes (moved by element size).
 *
 * Most ops reduce to one strided N-d copy (nd_plan): output dims, an input
 * base offset and per-dim input strides (negative for reversed slices, 0
 * for broadcast), decided at setup from the host inputs. run walks rows of
 * the output and copies the innermost run with memcpy when it is
 * contiguous in both tensors.
 */
#include "kernels/kernel_internal.h"

#include <stdlib.h>

/* ---- strided N-d copy ---- */

typedef struct nd_plan {
    int rank;
    int64_t dims[OA_KMAX_DIMS];
    int64_t istr[OA_KMAX_DIMS]; /* input strides in elements */
    int64_t ibase;              /* input offset in elements */
    size_t esz;
    int64_t rows, inner;
} nd_plan;

/* Builds a plan copying into a dense output of `dims`, merging dims when possible. */
static void nd_init(nd_plan *p, size_t esz, int rank, const int64_t *dims, const int64_t *istr, int64_t ibase)
{
    int n = 0;
    int64_t ostr_prev = 0;
    (void)ostr_prev;
    int64_t d[OA_KMAX_DIMS], s[OA_KMAX_DIMS];
    for (int i = 0; i < rank; i++) {
        if (dims[i] == 1) {
            continue;
        }
        d[n] = dims[i];
        s[n] = istr[i];
        n++;
    }
    /* merge from the inside out: dim i and i+1 merge if istr[i] == istr[i+1]*dims[i+1] */
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m > 0 && p->istr[m - 1] == s[i] * d[i]) {
            p->dims[m - 1] *= d[i];
            p->istr[m - 1] = s[i];
        } else {
            p->dims[m] = d[i];
            p->istr[m] = s[i];
            m++;
        }
    }
    if (m == 0) {
        p->dims[0] = 1;
        p->istr[0] = 1;
        m = 1;
    }
    p->rank = m;
    p->ibase = ibase;
    p->esz = esz;
    p->inner = p->dims[m - 1];
    p->rows = 1;
    for (int i = 0; i < m - 1; i++) {
        p->rows *= p->dims[i];
    }
    for (int i = 0; i < rank; i++) {
        if (dims[i] == 0) {
            p->rows = 0;
        }
    }
}

typedef struct nd_ctx {
    const nd_plan *p;
    const char *x;
    char *y;
    oa_kt2d_fn t2d;               /* the tier's 2-D transpose (nd_tile32) */
    const oa_kpost_chain *post;   /* f32 activations on the rows written (Transpose), or NULL */
} nd_ctx;


/*
 * 4-byte elements whose inner dim is strided in x while the dim above it is
 * contiguous (a 2-D transpose, e.g. YOLO's head [3,85,6400] -> [3,6400,85]):
 * rows r..r+15 read 16 neighbouring elements per inner index, instead of
 * one row gathering across `inner` distant pages, through the tier's 8x8
 * register transposes (oa_kt2d_for). Returns the rows done.
 */
#define ND_TILE 16
static size_t nd_tile32(const nd_ctx *c, size_t r, size_t e)
{
    const nd_plan *p = c->p;
    const int64_t d1 = p->dims[p->rank - 2], is = p->istr[p->rank - 1];
    const size_t in_dim = (size_t)((int64_t)r % d1);
    size_t n = e - r < ND_TILE ? e - r : ND_TILE;
    n = n < (size_t)d1 - in_dim ? n : (size_t)d1 - in_dim; /* do not cross the contiguous dim */
    int64_t off = p->ibase, rr = (int64_t)r;
    for (int i = p->rank - 2; i >= 0; i--) {
        off += (rr % p->dims[i]) * p->istr[i];
        rr /= p->dims[i];
    }
    const uint32_t *x = (const uint32_t *)(const void *)c->x + off;
    uint32_t *y = (uint32_t *)(void *)c->y + r * (size_t)p->inner;
    /* x: inner rows (stride is) of n contiguous elements -> y: n rows of inner */
    c->t2d(x, is, p->inner, (int64_t)n, y, p->inner);
    return n;
}

static void nd_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const nd_ctx *c = vctx;
    const nd_plan *p = c->p;
    const size_t esz = p->esz;
    const int64_t is = p->istr[p->rank - 1];
    if (esz == 4 && p->rank >= 2 && p->istr[p->rank - 2] == 1 && is != 1 && p->dims[p->rank - 2] >= ND_TILE) {
        for (size_t r = b; r < e;) {
            const size_t n = nd_tile32(c, r, e);
            oa_kpost_acts(c->post, (float *)(void *)(c->y + r * (size_t)p->inner * 4), n * (size_t)p->inner);
            r += n;
        }
        return;
    }
    /* the row's input offset: divisions for the first row, then an odometer over the outer dims */
    int64_t idx[OA_KMAX_DIMS], off = p->ibase, rr = (int64_t)b;
    for (int i = p->rank - 2; i >= 0; i--) {
        idx[i] = rr % p->dims[i];
        off += idx[i] * p->istr[i];
        rr /= p->dims[i];
    }
    for (size_t r = b; r < e; r++) {
        if (r > b) {
            for (int i = p->rank - 2; i >= 0; i--) {
                off += p->istr[i];
                if (++idx[i] < p->dims[i]) {
                    break;
                }
                off -= p->istr[i] * p->dims[i];
                idx[i] = 0;
            }
        }
        char *y = c->y + (size_t)r * (size_t)p->inner * esz;
        const char *x = c->x + off * (int64_t)esz;
        if (is == 1) {
            oa_kmove(y, x, (size_t)p->inner * esz);
        } else if (esz == 4) {
            for (int64_t i = 0; i < p->inner; i++) {
                ((uint32_t *)(void *)y)[i] = *(const uint32_t *)(const void *)(x + i * is * 4);
            }
        } else if (esz == 8) {
            for (int64_t i = 0; i < p->inner; i++) {
                ((uint64_t *)(void *)y)[i] = *(const uint64_t *)(const void *)(x + i * is * 8);
            }
        } else {
            for (int64_t i = 0; i < p->inner; i++) {
                memcpy(y + (size_t)i * esz, x + i * is * (int64_t)esz, esz);
            }
        }
        oa_kpost_acts(c->post, (float *)(void *)y, (size_t)p->inner);
    }
}

static void nd_run_post(const nd_plan *p, const void *x, void *y, oa_threadpool *pool, const oa_kpost_chain *post)
{
    if (p->rows == 0) {
        return;
    }
    nd_ctx c = {p, x, y, oa_kt2d_for(oa_kisa_tier_used()), post != NULL && post->n > 0 ? post : NULL};
    oa_threadpool_parallel_for(pool, (size_t)p->rows, (size_t)(OA_KGRAIN_ELEMS / (p->inner + 1) + 1), nd_task, &c);
}

static void nd_run(const nd_plan *p, const void *x, void *y, oa_threadpool *pool)
{
    nd_run_post(p, x, y, pool, NULL);
}

static oa_status nd_generic_run(const oa_kop *op, const void *const *in, void *const *out, void *ws,
                                oa_threadpool *pool)
{
    (void)ws;
    if (in[0] == NULL || out[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "%s: NULL data pointer", oa_kop_type_name(op->type));
    }
    nd_run(op->state, in[0], out[0], pool);
    return OA_OK;
}

static nd_plan *nd_alloc(oa_kop *op)
{
    nd_plan *p = calloc(1, sizeof(*p));
    op->state = p;
    return p;
}

/* =========================== Transpose ================================== */

/* perm of a transpose of rank r: from params, host input 1, or the reversed dims. */
static oa_status tr_perm(const oa_ktranspose_params *p, int n_in, const oa_ktensor *in, int r, int64_t *perm)
{
    int n = p->n_perm;
    if (n > 0) {
        memcpy(perm, p->perm, sizeof(int64_t) * (size_t)(n > OA_KMAX_DIMS ? OA_KMAX_DIMS : n));
    } else if (oa_kt_opt(n_in, in, 1) != NULL) {
        oa_status st = oa_kt_read_ints(&in[1], "Transpose perm", perm, OA_KMAX_DIMS, &n);
        if (st != OA_OK) {
            return st;
        }
    } else {
        n = r;
        for (int i = 0; i < r; i++) {
            perm[i] = r - 1 - i;
        }
    }
    if (n != r) {
        return OA_FAIL(OA_E_PARAM, "Transpose: perm has %d entries for rank %d", n, r);
    }
    bool seen[OA_KMAX_DIMS] = {false};
    for (int i = 0; i < r; i++) {
        int a;
        if (!oa_kaxis_norm(perm[i], r, &a) || seen[a]) {
            return OA_FAIL(OA_E_PARAM, "Transpose: perm is not a permutation (entry %d = %lld)", i, (long long)perm[i]);
        }
        seen[a] = true;
        perm[i] = a;
    }
    return OA_OK;
}

/* A blocked x's channels-last move (kernels.h): checks perm and groups, writes y's dims. */
static oa_status tr_blocked_dims(const oa_ktranspose_params *p, int n_in, const oa_ktensor *x, oa_ktensor *y)
{
    static const int64_t nhwc[4] = {0, 2, 3, 1}, grouped[5] = {0, 1, 3, 4, 2};
    const int r = p->groups > 0 ? 5 : 4;
    int64_t perm[OA_KMAX_DIMS];
    oa_status st = tr_perm(p, n_in, x, r, perm);
    if (st != OA_OK) {
        return st;
    }
    if (x->dtype != OA_KDT_F32 || memcmp(perm, r == 5 ? grouped : nhwc, sizeof(int64_t) * (size_t)r) != 0 ||
        p->groups < 0 || (p->groups > 0 && x->dims[1] % p->groups != 0)) {
        return OA_FAIL(OA_E_PARAM, "Transpose: a blocked f32 x moves to channels last only (perm 0,2,3,1, or "
                       "0,1,3,4,2 over %lld channel groups of %lld channels)", (long long)p->groups,
                       (long long)x->dims[1]);
    }
    const int64_t G = p->groups > 0 ? p->groups : 1;
    const int64_t d5[5] = {x->dims[0], G, x->dims[2], x->dims[3], x->dims[1] / G};
    y->rank = r;
    y->dims[0] = x->dims[0];
    for (int i = 1; i < r; i++) {
        y->dims[i] = r == 5 ? d5[i] : x->dims[perm[i]];
    }
    y->layout = OA_KLAYOUT_PLAIN;
    return OA_OK;
}

static oa_status tr_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    const oa_ktranspose_params *p = params;
    if (n_in < 1 || n_in > 2 || n_out != 1) {
        return OA_FAIL(OA_E_PARAM, "Transpose: x[, perm] and 1 output (got %d, %d)", n_in, n_out);
    }
    int n_add = 0;
    oa_status st = oa_kpost_check(&p->post, false, &n_add);
    if (st != OA_OK) {
        return st;
    }
    if (p->post.n > 0 && in[0].dtype != OA_KDT_F32) {
        return OA_FAIL(OA_E_PARAM, "Transpose: post-ops need f32, x is %s", oa_kdtype_name(in[0].dtype));
    }
    out[0] = in[0];
    out[0].data = NULL;
    if (in[0].layout == OA_KLAYOUT_NCHWC) {
        return tr_blocked_dims(p, n_in, &in[0], &out[0]);
    }
    if (p->groups != 0) {
        return OA_FAIL(OA_E_PARAM, "Transpose: channel groups (%lld) need a blocked x", (long long)p->groups);
    }
    int64_t perm[OA_KMAX_DIMS];
    if ((st = tr_perm(p, n_in, in, in[0].rank, perm)) != OA_OK) {
        return st;
    }
    for (int i = 0; i < in[0].rank; i++) {
        out[0].dims[i] = in[0].dims[perm[i]];
    }
    return OA_OK;
}

typedef struct tr_state {
    nd_plan nd;                      /* plain x */
    bool blocked;                    /* NCHWc x: the channels-last move below */
    int64_t n, c, hw, groups, k, cb; /* blocked x: [n, c, hw] in blocks of cb; y [n, groups, hw, k] */
    oa_kpost_chain post;
} tr_state;

static oa_status tr_setup(oa_kop *op)
{
    tr_state *s = calloc(1, sizeof(*s));
    op->state = s;
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "transpose state");
    }
    const oa_ktranspose_params *p = &op->params.transpose;
    s->post = p->post;
    if (op->in[0].layout == OA_KLAYOUT_NCHWC) {
        const oa_ktensor *x = &op->in[0];
        s->blocked = true;
        s->n = x->dims[0];
        s->c = x->dims[1];
        s->hw = x->dims[2] * x->dims[3];
        s->groups = p->groups > 0 ? p->groups : 1;
        s->k = s->c / s->groups;
        s->cb = oa_kernels_block();
        op->impl = oa_kernels_isa(); /* the tier's activations and block size */
        return OA_OK;
    }
    int64_t perm[OA_KMAX_DIMS], str[OA_KMAX_DIMS], istr[OA_KMAX_DIMS];
    oa_status st = tr_perm(p, op->n_in, op->in, op->in[0].rank, perm);
    if (st != OA_OK) {
        return st;
    }
    oa_kstrides(&op->in[0], str);
    for (int i = 0; i < op->in[0].rank; i++) {
        istr[i] = str[perm[i]];
    }
    nd_init(&s->nd, oa_kdtype_size(op->in[0].dtype), op->out[0].rank, op->out[0].dims, istr, 0);
    return OA_OK;
}

/*
 * Blocked x to channels last: a task takes `tile` pixels of one image and moves each block's
 * channel runs straight into the group rows (oa_kblk_to_rows of the tier: every x and y byte moves
 * once), then applies the post-ops to the rows it wrote while they are in cache.
 */
#define TR_TILE 32

typedef struct trb_ctx {
    const tr_state *s;
    const float *x;
    float *y;
    int64_t tiles; /* per image */
    oa_kblk_to_rows_fn to_rows;
} trb_ctx;

static void trb_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const trb_ctx *c = vctx;
    const tr_state *s = c->s;
    const int64_t nb = (s->c + s->cb - 1) / s->cb;
    for (size_t t = b; t < e; t++) {
        const int64_t img = (int64_t)t / c->tiles, p0 = ((int64_t)t % c->tiles) * TR_TILE;
        const int64_t np = s->hw - p0 < TR_TILE ? s->hw - p0 : TR_TILE;
        float *y0 = c->y + (img * s->groups * s->hw + p0) * s->k;
        c->to_rows(c->x + (img * nb * s->hw + p0) * s->cb, s->hw * s->cb, s->cb, s->c, np, y0, s->k, s->hw * s->k);
        for (int64_t g = 0; s->post.n > 0 && g < s->groups; g++) {
            oa_kpost_acts(&s->post, y0 + g * s->hw * s->k, (size_t)(np * s->k));
        }
    }
}

static oa_status tr_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)ws;
    if (in[0] == NULL || out[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "Transpose: NULL data pointer");
    }
    const tr_state *s = op->state;
    if (!s->blocked) {
        nd_run_post(&s->nd, in[0], out[0], pool, &s->post);
        return OA_OK;
    }
    if (s->n == 0 || s->hw == 0 || s->c == 0) {
        return OA_OK;
    }
    trb_ctx c = {s, in[0], out[0], (s->hw + TR_TILE - 1) / TR_TILE, oa_kblk_to_rows_for(oa_kisa_tier_used())};
    oa_threadpool_parallel_for(pool, (size_t)(s->n * c.tiles), (size_t)(OA_KGRAIN_ELEMS / (TR_TILE * s->c) + 1),
                               trb_task, &c);
    return OA_OK;
}

const oa_kfamily oa_kfam_transpose = {
    .params_size = sizeof(oa_ktranspose_params),
    .infer = tr_infer,
    .setup = tr_setup,
    .run = tr_run,
    .release = oa_kop_state_free,
};

/* =========================== StridedSliceV2 ============================= */

typedef struct slice_geom {
    int64_t start[OA_KMAX_DIMS], step[OA_KMAX_DIMS], count[OA_KMAX_DIMS];
    bool drop[OA_KMAX_DIMS];
} slice_geom;

static oa_status slice_geometry(const oa_kslice_params *p, int n_in, const oa_ktensor *in, slice_geom *g)
{
    const oa_ktensor *x = &in[0];
    int r = x->rank;
    int64_t b[OA_KMAX_DIMS], e[OA_KMAX_DIMS], axes[OA_KMAX_DIMS], st[OA_KMAX_DIMS];
    int nb = 0, ne = 0, na = 0, ns = 0;
    if (n_in < 3) {
        return OA_FAIL(OA_E_PARAM, "StridedSliceV2: needs x, begin and end");
    }
    oa_status s = oa_kt_read_ints(&in[1], "slice begin", b, OA_KMAX_DIMS, &nb);
    if (s == OA_OK) {
        s = oa_kt_read_ints(&in[2], "slice end", e, OA_KMAX_DIMS, &ne);
    }
    if (s == OA_OK && oa_kt_opt(n_in, in, 3) != NULL) {
        s = oa_kt_read_ints(&in[3], "slice axes", axes, OA_KMAX_DIMS, &na);
    }
    if (s == OA_OK && oa_kt_opt(n_in, in, 4) != NULL) {
        s = oa_kt_read_ints(&in[4], "slice strides", st, OA_KMAX_DIMS, &ns);
    }
    if (s != OA_OK) {
        return s;
    }
    if (nb != ne || (na && na != nb) || (ns && ns != nb) || nb > r) {
        return OA_FAIL(OA_E_PARAM, "StridedSliceV2: begin/end/axes/strides lengths %d/%d/%d/%d for rank %d", nb, ne, na,
                       ns, r);
    }
    for (int d = 0; d < r; d++) {
        g->start[d] = 0;
        g->step[d] = 1;
        g->count[d] = x->dims[d];
        g->drop[d] = false;
    }
    bool seen[OA_KMAX_DIMS] = {false};
    for (int i = 0; i < nb; i++) {
        int d;
        if (!oa_kaxis_norm(na ? axes[i] : i, r, &d) || seen[d]) {
            return OA_FAIL(OA_E_PARAM, "StridedSliceV2: bad or repeated axis %lld", (long long)(na ? axes[i] : i));
        }
        seen[d] = true;
        int64_t dim = x->dims[d], step = ns ? st[i] : 1;
        if (step == 0) {
            return OA_FAIL(OA_E_PARAM, "StridedSliceV2: step 0 on axis %d", d);
        }
        int64_t lo = b[i], hi = e[i];
        if (p->size_form) { /* GE Slice: end input holds sizes */
            lo = lo < 0 ? lo + dim : lo;
            hi = e[i] < 0 ? dim : lo + e[i];
        }
        if ((p->begin_mask >> i) & 1) {
            lo = step > 0 ? 0 : INT64_MAX;
        }
        if ((p->end_mask >> i) & 1) {
            hi = step > 0 ? INT64_MAX : INT64_MIN;
        }
        if (lo < 0 && lo != INT64_MIN) {
            lo += dim;
        }
        if (hi < 0 && hi != INT64_MIN) {
            hi += dim;
        }
        int64_t cnt;
        if (step > 0) {
            lo = lo < 0 ? 0 : (lo > dim ? dim : lo);
            hi = hi < 0 ? 0 : (hi > dim ? dim : hi);
            cnt = hi > lo ? (hi - lo + step - 1) / step : 0;
        } else {
            lo = lo < 0 ? -1 : (lo > dim - 1 ? dim - 1 : lo);
            hi = hi < -1 ? -1 : (hi > dim - 1 ? dim - 1 : hi);
            cnt = lo > hi ? (lo - hi + (-step) - 1) / (-step) : 0;
        }
        if ((p->shrink_axis_mask >> i) & 1) {
            int64_t ix = b[i] < 0 ? b[i] + dim : b[i];
            if (ix < 0 || ix >= dim) {
                return OA_FAIL(OA_E_PARAM, "StridedSliceV2: shrink index %lld out of range", (long long)b[i]);
            }
            lo = ix;
            cnt = 1;
            g->drop[d] = true;
        }
        g->start[d] = cnt > 0 ? lo : 0;
        g->step[d] = step;
        g->count[d] = cnt;
    }
    return OA_OK;
}

static oa_status slice_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    if (n_in < 3 || n_in > 5 || n_out != 1) {
        return OA_FAIL(OA_E_PARAM, "StridedSliceV2: 3..5 inputs and 1 output (got %d, %d)", n_in, n_out);
    }
    slice_geom g;
    oa_status st = slice_geometry(params, n_in, in, &g);
    if (st != OA_OK) {
        return st;
    }
    out[0].dtype = in[0].dtype;
    out[0].rank = 0;
    for (int d = 0; d < in[0].rank; d++) {
        if (!g.drop[d]) {
            out[0].dims[out[0].rank++] = g.count[d];
        }
    }
    return OA_OK;
}

static oa_status slice_setup(oa_kop *op)
{
    nd_plan *p = nd_alloc(op);
    if (p == NULL) {
        return OA_FAIL(OA_E_NOMEM, "slice state");
    }
    slice_geom g;
    oa_status st = slice_geometry(&op->params.slice, op->n_in, op->in, &g);
    if (st != OA_OK) {
        return st;
    }
    int64_t str[OA_KMAX_DIMS], istr[OA_KMAX_DIMS], base = 0;
    oa_kstrides(&op->in[0], str);
    for (int d = 0; d < op->in[0].rank; d++) {
        base += g.start[d] * str[d];
        istr[d] = g.step[d] * str[d];
    }
    nd_init(p, oa_kdtype_size(op->in[0].dtype), op->in[0].rank, g.count, istr, base);
    return OA_OK;
}

const oa_kfamily oa_kfam_slice = {
    .params_size = sizeof(oa_kslice_params),
    .infer = slice_infer,
    .setup = slice_setup,
    .run = nd_generic_run,
    .release = oa_kop_state_free,
};

/* =========================== Expand / BroadcastTo ======================= */

static oa_status expand_shape(int n_in, const oa_ktensor *in, oa_ktensor *y)
{
    if (n_in != 2) {
        return OA_FAIL(OA_E_PARAM, "Expand: x and shape inputs");
    }
    oa_ktensor s;
    memset(&s, 0, sizeof s);
    int n;
    oa_status st = oa_kt_read_ints(&in[1], "Expand shape", s.dims, OA_KMAX_DIMS, &n);
    if (st != OA_OK) {
        return st;
    }
    s.rank = n;
    st = oa_kbroadcast_shape(&in[0], &s, y);
    y->dtype = in[0].dtype;
    return st;
}

static oa_status expand_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    (void)params;
    if (n_out != 1) {
        return OA_FAIL(OA_E_PARAM, "Expand: 1 output");
    }
    return expand_shape(n_in, in, &out[0]);
}

static oa_status expand_setup(oa_kop *op)
{
    nd_plan *p = nd_alloc(op);
    if (p == NULL) {
        return OA_FAIL(OA_E_NOMEM, "expand state");
    }
    const oa_ktensor *x = &op->in[0], *y = &op->out[0];
    int64_t str[OA_KMAX_DIMS], istr[OA_KMAX_DIMS];
    oa_kstrides(x, str);
    for (int d = 0; d < y->rank; d++) {
        int xd = d - (y->rank - x->rank);
        istr[d] = (xd < 0 || x->dims[xd] == 1) ? 0 : str[xd];
    }
    nd_init(p, oa_kdtype_size(x->dtype), y->rank, y->dims, istr, 0);
    return OA_OK;
}

const oa_kfamily oa_kfam_expand = {
    .params_size = 0,
    .infer = expand_infer,
    .setup = expand_setup,
    .run = nd_generic_run,
    .release = oa_kop_state_free,
};

/* =========================== Tile ======================================= */

typedef struct tile_state {
    int rank;
    int64_t xd[OA_KMAX_DIMS], yd[OA_KMAX_DIMS], xs[OA_KMAX_DIMS];
    size_t esz;
    int64_t rows;
} tile_state;

static oa_status tile_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    (void)params;
    if (n_in != 2 || n_out != 1) {
        return OA_FAIL(OA_E_PARAM, "Tile: x, multiples and 1 output");
    }
    int64_t m[OA_KMAX_DIMS];
    int n;
    oa_status st = oa_kt_read_ints(&in[1], "Tile multiples", m, OA_KMAX_DIMS, &n);
    if (st != OA_OK) {
        return st;
    }
    if (n != in[0].rank) {
        return OA_FAIL(OA_E_PARAM, "Tile: %d multiples for rank %d", n, in[0].rank);
    }
    out[0] = in[0];
    out[0].data = NULL;
    for (int i = 0; i < n; i++) {
        if (m[i] < 0) {
            return OA_FAIL(OA_E_PARAM, "Tile: negative multiple %lld", (long long)m[i]);
        }
        out[0].dims[i] = in[0].dims[i] * m[i];
    }
    return OA_OK;
}

static oa_status tile_setup(oa_kop *op)
{
    tile_state *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "tile state");
    }
    op->state = s;
    s->rank = op->in[0].rank;
    memcpy(s->xd, op->in[0].dims, sizeof(s->xd));
    memcpy(s->yd, op->out[0].dims, sizeof(s->yd));
    oa_kstrides(&op->in[0], s->xs);
    s->esz = oa_kdtype_size(op->in[0].dtype);
    s->rows = 1;
    for (int i = 0; i < s->rank - 1; i++) {
        s->rows *= s->yd[i];
    }
    if (oa_ktensor_numel(&op->out[0]) == 0) {
        s->rows = 0;
    }
    return OA_OK;
}

static oa_status tile_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)ws, (void)pool;
    const tile_state *s = op->state;
    if (in[0] == NULL || out[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "Tile: NULL data pointer");
    }
    if (s->rank == 0) {
        memmove(out[0], in[0], s->esz);
        return OA_OK;
    }
    int64_t xin = s->xd[s->rank - 1], yin = s->yd[s->rank - 1];
    char *y = out[0];
    for (int64_t r = 0; r < s->rows; r++) {
        int64_t off = 0, rr = r;
        for (int i = s->rank - 2; i >= 0; i--) {
            off += ((rr % s->yd[i]) % s->xd[i]) * s->xs[i];
            rr /= s->yd[i];
        }
        const char *x = (const char *)in[0] + (size_t)off * s->esz;
        for (int64_t k = 0; k < yin; k += xin) {
            memcpy(y + (size_t)(r * yin + k) * s->esz, x, (size_t)xin * s->esz);
        }
    }
    return OA_OK;
}

const oa_kfamily oa_kfam_tile = {
    .params_size = 0,
    .infer = tile_infer,
    .setup = tile_setup,
    .run = tile_run,
    .release = oa_kop_state_free,
};

/* =========================== PadV3 ====================================== */

typedef struct pad_state {
    int rank;
    int64_t xd[OA_KMAX_DIMS], yd[OA_KMAX_DIMS], before[OA_KMAX_DIMS], xs[OA_KMAX_DIMS];
    oa_kpadv_mode mode;
    size_t esz;
    unsigned char value[8];
} pad_state;

static oa_status pad_geometry(const oa_kpad_params *p, int n_in, const oa_ktensor *in, int64_t *before,
                              int64_t *after)
{
    int r = in[0].rank;
    int64_t v[2 * OA_KMAX_DIMS];
    int n;
    if (n_in < 2) {
        return OA_FAIL(OA_E_PARAM, "PadV3: needs x and paddings");
    }
    oa_status st = oa_kt_read_ints(&in[1], "PadV3 paddings", v, 2 * OA_KMAX_DIMS, &n);
    if (st != OA_OK) {
        return st;
    }
    if (n != 2 * r) {
        return OA_FAIL(OA_E_PARAM, "PadV3: %d paddings for rank %d", n, r);
    }
    for (int i = 0; i < r; i++) {
        before[i] = p->paddings_contiguous ? v[2 * i] : v[i];
        after[i] = p->paddings_contiguous ? v[2 * i + 1] : v[r + i];
        int64_t d = in[0].dims[i];
        if (d + before[i] + after[i] < 0) {
            return OA_FAIL(OA_E_PARAM, "PadV3: dim %d becomes negative", i);
        }
        if (p->mode == OA_KPADV_REFLECT && (before[i] >= d || after[i] >= d) && (before[i] > 0 || after[i] > 0)) {
            return OA_FAIL(OA_E_PARAM, "PadV3: reflect pad %lld/%lld must be smaller than dim %lld", (long long)before[i],
                           (long long)after[i], (long long)d);
        }
        if (p->mode != OA_KPADV_CONSTANT && d == 0 && (before[i] > 0 || after[i] > 0)) {
            return OA_FAIL(OA_E_PARAM, "PadV3: cannot %s-pad an empty dim", p->mode == OA_KPADV_EDGE ? "edge" : "reflect");
        }
    }
    return OA_OK;
}

static oa_status pad_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    const oa_kpad_params *p = params;
    if (n_in < 2 || n_in > 3 || n_out != 1) {
        return OA_FAIL(OA_E_PARAM, "PadV3: x, paddings[, constant_values] and 1 output");
    }
    if ((unsigned)p->mode > OA_KPADV_SYMMETRIC) {
        return OA_FAIL(OA_E_PARAM, "PadV3: unknown mode %d", (int)p->mode);
    }
    int64_t b[OA_KMAX_DIMS], a[OA_KMAX_DIMS];
    oa_status st = pad_geometry(p, n_in, in, b, a);
    if (st != OA_OK) {
        return st;
    }
    out[0] = in[0];
    out[0].data = NULL;
    for (int i = 0; i < in[0].rank; i++) {
        out[0].dims[i] = in[0].dims[i] + b[i] + a[i];
    }
    return OA_OK;
}

static void store_value(unsigned char *dst, oa_kdtype dt, double v)
{
    switch (dt) {
    case OA_KDT_F32: { float f = (float)v; memcpy(dst, &f, 4); break; }
    case OA_KDT_F64: memcpy(dst, &v, 8); break;
    case OA_KDT_I32: { int32_t i = (int32_t)v; memcpy(dst, &i, 4); break; }
    case OA_KDT_I64: { int64_t i = (int64_t)v; memcpy(dst, &i, 8); break; }
    case OA_KDT_I16: case OA_KDT_U16: { int16_t i = (int16_t)v; memcpy(dst, &i, 2); break; }
    default: dst[0] = (unsigned char)(int)v; break;
    }
}

static oa_status pad_setup(oa_kop *op)
{
    pad_state *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "pad state");
    }
    op->state = s;
    int64_t a[OA_KMAX_DIMS];
    oa_status st = pad_geometry(&op->params.pad, op->n_in, op->in, s->before, a);
    if (st != OA_OK) {
        return st;
    }
    s->rank = op->in[0].rank;
    memcpy(s->xd, op->in[0].dims, sizeof(s->xd));
    memcpy(s->yd, op->out[0].dims, sizeof(s->yd));
    oa_kstrides(&op->in[0], s->xs);
    s->mode = op->params.pad.mode;
    s->esz = oa_kdtype_size(op->in[0].dtype);
    const oa_ktensor *cv = oa_kt_opt(op->n_in, op->in, 2);
    if (cv != NULL) {
        if (cv->data == NULL || cv->dtype != op->in[0].dtype) {
            return OA_FAIL(OA_E_PARAM, "PadV3: constant_values must be a host scalar of x's dtype");
        }
        memcpy(s->value, cv->data, s->esz);
    } else {
        store_value(s->value, op->in[0].dtype, op->params.pad.value);
    }
    return OA_OK;
}

/* Source index along one dim, or -1 for the constant. */
static int64_t pad_src(const pad_state *s, int d, int64_t o)
{
    int64_t i = o - s->before[d], n = s->xd[d];
    if (i >= 0 && i < n) {
        return i;
    }
    switch (s->mode) {
    case OA_KPADV_CONSTANT: return -1;
    case OA_KPADV_EDGE: return i < 0 ? 0 : n - 1;
    case OA_KPADV_REFLECT:
        if (n == 1) {
            return 0;
        }
        while (i < 0 || i >= n) {
            i = i < 0 ? -i : 2 * (n - 1) - i;
        }
        return i;
    default: /* symmetric */
        while (i < 0 || i >= n) {
            i = i < 0 ? -i - 1 : 2 * n - 1 - i;
        }
        return i;
    }
}

static oa_status pad_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)ws, (void)pool;
    const pad_state *s = op->state;
    if (in[0] == NULL || out[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "PadV3: NULL data pointer");
    }
    int64_t total = oa_ktensor_numel(&op->out[0]);
    if (total == 0) {
        return OA_OK;
    }
    int r = s->rank;
    if (r == 0) {
        memmove(out[0], in[0], s->esz);
        return OA_OK;
    }
    int64_t inner = s->yd[r - 1], rows = total / inner;
    char *y = out[0];
    for (int64_t row = 0; row < rows; row++) {
        int64_t off = 0, rr = row;
        bool constant = false;
        for (int d = r - 2; d >= 0; d--) {
            int64_t src = pad_src(s, d, rr % s->yd[d]);
            rr /= s->yd[d];
            if (src < 0) {
                constant = true;
            } else {
                off += src * s->xs[d];
            }
        }
        char *yr = y + (size_t)(row * inner) * s->esz;
        const char *xr = (const char *)in[0] + (size_t)off * s->esz;
        /* the row's interior [lo, hi) is one copy; only the borders are mapped per element */
        int64_t lo = 0, hi = 0;
        if (!constant) {
            int64_t b = s->before[r - 1];
            lo = b < 0 ? 0 : (b > inner ? inner : b);
            hi = b + s->xd[r - 1] < inner ? b + s->xd[r - 1] : inner;
            hi = hi < lo ? lo : hi;
            memcpy(yr + (size_t)lo * s->esz, xr + (size_t)(lo - b) * s->esz, (size_t)(hi - lo) * s->esz);
        }
        for (int64_t i = 0; i < inner; i++) {
            if (i == lo && hi > lo) {
                i = hi - 1; /* copied above */
                continue;
            }
            int64_t src = constant ? -1 : pad_src(s, r - 1, i);
            memcpy(yr + (size_t)i * s->esz, src < 0 ? (const char *)s->value : xr + (size_t)src * s->esz, s->esz);
        }
    }
    return OA_OK;
}

const oa_kfamily oa_kfam_pad = {
    .params_size = sizeof(oa_kpad_params),
    .infer = pad_infer,
    .setup = pad_setup,
    .run = pad_run,
    .release = oa_kop_state_free,
};

/* =========================== GatherV2 =================================== */

typedef struct gather_state {
    int64_t outer, batch, nidx, axis_dim, inner_bytes, per_batch_outer;
    oa_kdtype idt;
} gather_state;

static oa_status gather_axis(const oa_kgather_params *p, int n_in, const oa_ktensor *in, int *ax)
{
    int64_t a = p->axis;
    const oa_ktensor *at = oa_kt_opt(n_in, in, 2);
    if (at != NULL) {
        if (at->data == NULL || oa_ktensor_numel(at) != 1) {
            return OA_FAIL(OA_E_PARAM, "GatherV2: axis must be a host scalar");
        }
        a = oa_kt_get_i64(at, 0);
    }
    if (in[0].rank == 0 || !oa_kaxis_norm(a, in[0].rank, ax)) {
        return OA_FAIL(OA_E_PARAM, "GatherV2: axis %lld out of range for rank %d", (long long)a, in[0].rank);
    }
    if (p->batch_dims < 0 || p->batch_dims > *ax || p->batch_dims > in[1].rank) {
        return OA_FAIL(OA_E_PARAM, "GatherV2: batch_dims %lld invalid", (long long)p->batch_dims);
    }
    return OA_OK;
}

/* GatherElements: x, indices of the same rank; y takes the indices' dims. */
static oa_status gather_elements_check(const oa_kgather_params *p, int n_in, const oa_ktensor *in, int *ax)
{
    if (n_in != 2) {
        return OA_FAIL(OA_E_PARAM, "GatherElements: x and indices");
    }
    if (in[1].dtype != OA_KDT_I32 && in[1].dtype != OA_KDT_I64) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "GatherElements: indices must be i32/i64, got %s",
                       oa_kdtype_name(in[1].dtype));
    }
    if (in[0].rank == 0 || in[0].rank != in[1].rank) {
        return OA_FAIL(OA_E_PARAM, "GatherElements: x (rank %d) and indices (rank %d) need the same rank >= 1",
                       in[0].rank, in[1].rank);
    }
    if (!oa_kaxis_norm(p->axis, in[0].rank, ax)) {
        return OA_FAIL(OA_E_PARAM, "GatherElements: axis %lld out of range for rank %d", (long long)p->axis,
                       in[0].rank);
    }
    return OA_OK;
}

static oa_status gather_elements_run(const oa_kop *op, const void *const *in, void *const *out)
{
    const oa_ktensor *x = &op->in[0], *ix = &op->in[1];
    int ax = 0;
    oa_status st = gather_elements_check(&op->params.gather, op->n_in, op->in, &ax);
    if (st != OA_OK) {
        return st;
    }
    const int r = x->rank;
    const size_t es = oa_kdtype_size(x->dtype);
    int64_t xstride[OA_KMAX_DIMS], coord[OA_KMAX_DIMS] = {0};
    xstride[r - 1] = 1;
    for (int i = r - 2; i >= 0; i--) {
        xstride[i] = xstride[i + 1] * x->dims[i + 1];
    }
    const int64_t n = oa_ktensor_numel(ix);
    const int64_t dim = x->dims[ax];
    for (int64_t k = 0; k < n; k++) {
        int64_t idx = ix->dtype == OA_KDT_I32 ? ((const int32_t *)in[1])[k] : ((const int64_t *)in[1])[k];
        if (idx < 0) {
            idx += dim;
        }
        if (idx < 0 || idx >= dim) {
            return OA_FAIL(OA_E_PARAM, "GatherElements: index out of range [0, %lld)", (long long)dim);
        }
        int64_t off = 0;
        for (int i = 0; i < r; i++) {
            if (i != ax && coord[i] >= x->dims[i]) {
                return OA_FAIL(OA_E_PARAM, "GatherElements: indices dim %d exceeds x's", i);
            }
            off += (i == ax ? idx : coord[i]) * xstride[i];
        }
        memcpy((char *)out[0] + (size_t)k * es, (const char *)in[0] + (size_t)off * es, es);
        for (int i = r - 1; i >= 0; i--) { /* next coordinate of the indices */
            if (++coord[i] < ix->dims[i]) {
                break;
            }
            coord[i] = 0;
        }
    }
    return OA_OK;
}

static oa_status gather_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    const oa_kgather_params *p = params;
    if (p->elements) {
        int ax;
        oa_status st = n_out == 1 ? gather_elements_check(p, n_in, in, &ax)
                                  : OA_FAIL(OA_E_PARAM, "GatherElements: 1 output");
        if (st == OA_OK) {
            out[0] = in[1];
            out[0].dtype = in[0].dtype;
            out[0].data = NULL;
        }
        return st;
    }
    if (n_in < 2 || n_in > 3 || n_out != 1) {
        return OA_FAIL(OA_E_PARAM, "GatherV2: x, indices[, axis] and 1 output");
    }
    if (in[1].dtype != OA_KDT_I32 && in[1].dtype != OA_KDT_I64) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "GatherV2: indices must be i32/i64, got %s",
                       oa_kdtype_name(in[1].dtype));
    }
    int ax = 0;
    oa_status st = gather_axis(p, n_in, in, &ax);
    if (st != OA_OK) {
        return st;
    }
    int r = 0;
    out[0].dtype = in[0].dtype;
    for (int i = 0; i < ax; i++) {
        out[0].dims[r++] = in[0].dims[i];
    }
    for (int i = (int)p->batch_dims; i < in[1].rank; i++) {
        out[0].dims[r++] = in[1].dims[i];
    }
    for (int i = ax + 1; i < in[0].rank; i++) {
        out[0].dims[r++] = in[0].dims[i];
    }
    if (r > OA_KMAX_DIMS) {
        return OA_FAIL(OA_E_PARAM, "GatherV2: output rank %d too large", r);
    }
    out[0].rank = r;
    return OA_OK;
}

static oa_status gather_setup(oa_kop *op)
{
    gather_state *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "gather state");
    }
    op->state = s;
    int ax = 0;
    if (op->params.gather.elements) {
        return gather_elements_check(&op->params.gather, op->n_in, op->in, &ax);
    }
    oa_status st = gather_axis(&op->params.gather, op->n_in, op->in, &ax);
    if (st != OA_OK) {
        return st;
    }
    const oa_ktensor *x = &op->in[0], *ix = &op->in[1];
    int bd = (int)op->params.gather.batch_dims;
    s->outer = s->batch = 1;
    for (int i = 0; i < ax; i++) {
        s->outer *= x->dims[i];
    }
    for (int i = 0; i < bd; i++) {
        s->batch *= x->dims[i];
    }
    s->nidx = 1;
    for (int i = bd; i < ix->rank; i++) {
        s->nidx *= ix->dims[i];
    }
    s->axis_dim = x->dims[ax];
    s->inner_bytes = (int64_t)oa_kdtype_size(x->dtype);
    for (int i = ax + 1; i < x->rank; i++) {
        s->inner_bytes *= x->dims[i];
    }
    s->per_batch_outer = s->batch ? s->outer / s->batch : 0;
    s->idt = ix->dtype;
    return OA_OK;
}

typedef struct gather_ctx {
    const gather_state *s;
    const char *x;
    const void *ix;
    char *y;
} gather_ctx;

/* Rows whose index was checked by gather_run. An embedding table's rows lie far apart (BERT-like's word
 * embeddings: 128 rows of 3 KB from 94 MB), so each copy waited for its row to come from memory: the rows
 * a few ahead are prefetched, which keeps several in flight (bench/KERNELS.md "Row loops, max windows and
 * embedding rows"). */
enum { GATHER_AHEAD = 4, GATHER_PF_BYTES = 4096 };

static const char *gather_src(const gather_ctx *c, int64_t r)
{
    const gather_state *s = c->s;
    int64_t o = r / s->nidx, j = r % s->nidx;
    int64_t bi = s->per_batch_outer ? o / s->per_batch_outer : 0;
    int64_t k = bi * s->nidx + j;
    int64_t idx = s->idt == OA_KDT_I32 ? ((const int32_t *)c->ix)[k] : ((const int64_t *)c->ix)[k];
    if (idx < 0) {
        idx += s->axis_dim;
    }
    return c->x + (o * s->axis_dim + idx) * s->inner_bytes;
}

/* Asks for the first GATHER_PF_BYTES of row r's source. */
static void gather_prefetch(const gather_ctx *c, size_t r)
{
    const char *p = gather_src(c, (int64_t)r);
    const int64_t n = c->s->inner_bytes < GATHER_PF_BYTES ? c->s->inner_bytes : GATHER_PF_BYTES;
    for (int64_t off = 0; off < n; off += 64) {
        __builtin_prefetch(p + off, 0, 0);
    }
}

static void gather_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const gather_ctx *c = vctx;
    const gather_state *s = c->s;
    for (size_t r = b; r < e && r < b + GATHER_AHEAD; r++) {
        gather_prefetch(c, r);
    }
    for (size_t r = b; r < e; r++) {
        if (r + GATHER_AHEAD < e) {
            gather_prefetch(c, r + GATHER_AHEAD);
        }
        memcpy(c->y + (int64_t)r * s->inner_bytes, gather_src(c, (int64_t)r), (size_t)s->inner_bytes);
    }
}

static oa_status gather_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)ws;
    const gather_state *s = op->state;
    if (in[0] == NULL || in[1] == NULL || out[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "GatherV2: NULL data pointer");
    }
    if (op->params.gather.elements) {
        return gather_elements_run(op, in, out);
    }
    /* Indices first (a task cannot fail), then the row copies on the pool. */
    int64_t nrows = s->outer * s->nidx;
    for (int64_t k = 0; k < s->batch * s->nidx && nrows > 0; k++) {
        int64_t idx = s->idt == OA_KDT_I32 ? ((const int32_t *)in[1])[k] : ((const int64_t *)in[1])[k];
        if (idx < -s->axis_dim || idx >= s->axis_dim) {
            return OA_FAIL(OA_E_PARAM, "GatherV2: index %lld out of range [0, %lld)", (long long)idx,
                           (long long)s->axis_dim);
        }
    }
    gather_ctx c = {s, in[0], in[1], out[0]};
    oa_threadpool_parallel_for(pool, (size_t)nrows,
                               (size_t)(OA_KGRAIN_ELEMS * 4 / (s->inner_bytes > 0 ? s->inner_bytes : 1) + 1), gather_task,
                               &c);
    return OA_OK;
}

const oa_kfamily oa_kfam_gather = {
    .params_size = sizeof(oa_kgather_params),
    .infer = gather_infer,
    .setup = gather_setup,
    .run = gather_run,
    .release = oa_kop_state_free,
};

/* =========================== Copy ======================================= */

static oa_status copy_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    (void)params;
    if (n_in < 1 || n_out != 1) {
        return OA_FAIL(OA_E_PARAM, "Copy: x (+ ignored inputs) and 1 output");
    }
    /* output dims: the Reshape rule when a host shape input is given, else x's */
    out[0] = in[0];
    out[0].data = NULL;
    const oa_ktensor *sh = oa_kt_opt(n_in, in, 1);
    if (sh != NULL && sh->data != NULL && (sh->dtype == OA_KDT_I32 || sh->dtype == OA_KDT_I64) && sh->rank == 1) {
        int64_t d[OA_KMAX_DIMS];
        int n;
        oa_status st = oa_kt_read_ints(sh, "Reshape shape", d, OA_KMAX_DIMS, &n);
        if (st != OA_OK) {
            return st;
        }
        int64_t known = 1, neg = -1;
        for (int i = 0; i < n; i++) {
            if (d[i] == 0 && i < in[0].rank) {
                d[i] = in[0].dims[i];
            }
            if (d[i] == -1) {
                if (neg >= 0) {
                    return OA_FAIL(OA_E_PARAM, "Reshape: more than one -1");
                }
                neg = i;
            } else if (d[i] < 0) {
                return OA_FAIL(OA_E_PARAM, "Reshape: invalid dim %lld", (long long)d[i]);
            } else {
                known *= d[i];
            }
        }
        int64_t total = oa_ktensor_numel(&in[0]);
        if (neg >= 0) {
            d[neg] = known ? total / known : 0;
        }
        out[0].rank = n;
        memcpy(out[0].dims, d, sizeof(int64_t) * (size_t)n);
        out[0].layout = OA_KLAYOUT_PLAIN;
    }
    return OA_OK;
}

static oa_status copy_setup(oa_kop *op)
{
    if (op->in[0].layout != op->out[0].layout ||
        (op->in[0].layout == OA_KLAYOUT_NCHWC && !oa_ksame_dims(&op->in[0], &op->out[0]))) {
        return OA_FAIL(OA_E_PARAM, "Copy: an NCHWc tensor can only be copied to the same shape and layout");
    }
    op->ws_size = 0;
    return OA_OK;
}

static oa_status copy_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)ws, (void)pool;
    if (in[0] == NULL || out[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "Copy: NULL data pointer");
    }
    if (in[0] != out[0]) { /* memmove: a plan read from a file may put the output over part of the input */
        memmove(out[0], in[0], oa_ktensor_bytes(&op->in[0]));
    }
    return OA_OK;
}

const oa_kfamily oa_kfam_copy = {
    .params_size = 0,
    .infer = copy_infer,
    .setup = copy_setup,
    .run = copy_run,
    .loose_out_check = true,
};

/* =========================== Reorder ==================================== */

static oa_status reorder_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    (void)params;
    if (n_in != 1 || n_out != 1 || in[0].rank != 4 || in[0].dtype != OA_KDT_F32) {
        return OA_FAIL(OA_E_PARAM, "Reorder: one f32 4-D input and 1 output");
    }
    out[0] = in[0];
    out[0].data = NULL;
    return OA_OK;
}

static oa_status reorder_setup(oa_kop *op)
{
    op->impl = oa_kernels_isa(); /* the block moves of the tier in use (oa_kblk_pack/unpack) */
    return OA_OK;
}

typedef struct ro_ctx {
    const oa_ktensor *t;
    const float *x;
    float *y;
    bool to_blocked;
} ro_ctx;

static void ro_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const ro_ctx *c = vctx;
    int64_t cb = oa_kernels_block(), C = c->t->dims[1], CB = (C + cb - 1) / cb, hw = c->t->dims[2] * c->t->dims[3];
    for (size_t idx = b; idx < e; idx++) { /* (n, block) */
        int64_t n = (int64_t)idx / CB, bk = (int64_t)idx % CB;
        int64_t nc = C - bk * cb < cb ? C - bk * cb : cb;
        if (c->to_blocked) {
            oa_kblk_pack(c->x + (n * C + bk * cb) * hw, nc, hw, c->y + (int64_t)idx * hw * cb, cb);
        } else {
            oa_kblk_unpack(c->x + (int64_t)idx * hw * cb, nc, hw, c->y + (n * C + bk * cb) * hw, cb, NULL);
        }
    }
}

static oa_status reorder_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)ws;
    if (in[0] == NULL || out[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "Reorder: NULL data pointer");
    }
    const oa_ktensor *x = &op->in[0], *y = &op->out[0];
    if (x->layout == y->layout) {
        if (in[0] != out[0]) {
            memmove(out[0], in[0], oa_ktensor_bytes(x));
        }
        return OA_OK;
    }
    ro_ctx c = {x, in[0], out[0], y->layout == OA_KLAYOUT_NCHWC};
    int64_t cb = oa_kernels_block();
    size_t tasks = (size_t)(x->dims[0] * ((x->dims[1] + cb - 1) / cb));
    oa_threadpool_parallel_for(pool, tasks, (size_t)(OA_KGRAIN_ELEMS / (x->dims[2] * x->dims[3] * cb + 1) + 1), ro_task,
                               &c);
    return OA_OK;
}

const oa_kfamily oa_kfam_reorder = {
    .params_size = 0,
    .infer = reorder_infer,
    .setup = reorder_setup,
    .run = reorder_run,
};

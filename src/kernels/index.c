/*
 * OA_KOP_INDEX: indexing, scatter and data-dependent ops (kernels.h,
 * "Indexing"): GatherNd, TensorScatterUpdate (ONNX ScatterND), ScatterElements,
 * OneHot, EyeLike, Cumsum, ReverseSequence, NonZero, Unique, TfIdfVectorizer.
 *
 * Data moves by element size, so every dtype is accepted where the op only
 * moves elements; arithmetic (scatter reductions, Cumsum) is done per element
 * in the element's own type: integers wrap modulo their width, f32/f64 in
 * their precision, f16/bf16 through f32 with each result rounded back. Every
 * index is checked before anything is written through it.
 */
#include <math.h>
#include <stdlib.h>

#include "base/fp16.h"
#include "kernels/kernel_internal.h"

#define IFAIL(...) OA_FAIL(OA_E_PARAM, __VA_ARGS__)

static const char *const k_opnames[OA_KIDX_COUNT] = {
    "GatherNd", "ScatterNd", "ScatterElements", "OneHot", "EyeLike", "Cumsum", "ReverseSequence", "NonZero",
    "Unique", "TfIdfVectorizer",
};

/* ---- elements ---- */

typedef enum ekind { EK_FLOAT, EK_SIGNED, EK_UNSIGNED, EK_BOOL, EK_NONE } ekind;

static ekind kind_of(oa_kdtype dt)
{
    switch (dt) {
    case OA_KDT_F32:
    case OA_KDT_F64:
    case OA_KDT_F16:
    case OA_KDT_BF16: return EK_FLOAT;
    case OA_KDT_I8:
    case OA_KDT_I16:
    case OA_KDT_I32:
    case OA_KDT_I64: return EK_SIGNED;
    case OA_KDT_U8:
    case OA_KDT_U16:
    case OA_KDT_U32:
    case OA_KDT_U64: return EK_UNSIGNED;
    case OA_KDT_BOOL: return EK_BOOL;
    default: return EK_NONE;
    }
}

/* One element: floats as double, signed as int64, unsigned and bool as uint64. */
typedef union ev {
    double f;
    int64_t i;
    uint64_t u;
} ev;

static float bf16_f32(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Round to nearest even (arithmetic results; Cast has its own truncating rule). */
static uint16_t f32_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) {
        return (uint16_t)((u >> 16) | 0x40);
    }
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

static ev get(oa_kdtype dt, const void *p, int64_t i)
{
    ev v;
    switch (dt) {
    case OA_KDT_F32: v.f = ((const float *)p)[i]; break;
    case OA_KDT_F64: v.f = ((const double *)p)[i]; break;
    case OA_KDT_F16: v.f = oa_f16_to_f32(((const uint16_t *)p)[i]); break;
    case OA_KDT_BF16: v.f = bf16_f32(((const uint16_t *)p)[i]); break;
    case OA_KDT_I8: v.i = ((const int8_t *)p)[i]; break;
    case OA_KDT_I16: v.i = ((const int16_t *)p)[i]; break;
    case OA_KDT_I32: v.i = ((const int32_t *)p)[i]; break;
    case OA_KDT_I64: v.i = ((const int64_t *)p)[i]; break;
    case OA_KDT_U8:
    case OA_KDT_BOOL: v.u = ((const uint8_t *)p)[i]; break;
    case OA_KDT_U16: v.u = ((const uint16_t *)p)[i]; break;
    case OA_KDT_U32: v.u = ((const uint32_t *)p)[i]; break;
    case OA_KDT_U64: v.u = ((const uint64_t *)p)[i]; break;
    default: v.u = 0; break;
    }
    return v;
}

static void put(oa_kdtype dt, void *p, int64_t i, ev v)
{
    switch (dt) {
    case OA_KDT_F32: ((float *)p)[i] = (float)v.f; break;
    case OA_KDT_F64: ((double *)p)[i] = v.f; break;
    case OA_KDT_F16: ((uint16_t *)p)[i] = oa_f32_to_f16((float)v.f); break;
    case OA_KDT_BF16: ((uint16_t *)p)[i] = f32_bf16((float)v.f); break;
    case OA_KDT_I8: ((int8_t *)p)[i] = (int8_t)(uint8_t)(uint64_t)v.i; break;
    case OA_KDT_I16: ((int16_t *)p)[i] = (int16_t)(uint16_t)(uint64_t)v.i; break;
    case OA_KDT_I32: ((int32_t *)p)[i] = (int32_t)(uint32_t)(uint64_t)v.i; break;
    case OA_KDT_I64: ((int64_t *)p)[i] = v.i; break;
    case OA_KDT_U8: ((uint8_t *)p)[i] = (uint8_t)v.u; break;
    case OA_KDT_BOOL: ((uint8_t *)p)[i] = v.u != 0; break;
    case OA_KDT_U16: ((uint16_t *)p)[i] = (uint16_t)v.u; break;
    case OA_KDT_U32: ((uint32_t *)p)[i] = (uint32_t)v.u; break;
    case OA_KDT_U64: ((uint64_t *)p)[i] = v.u; break;
    default: break;
    }
}

/* The value as the element type holds it (a float result rounded to f32/f16/bf16, an integer wrapped). */
static ev round_to(oa_kdtype dt, ev v)
{
    uint64_t buf = 0;
    put(dt, &buf, 0, v);
    return get(dt, &buf, 0);
}

/* a (op) b in the element type; op add/mul/max/min. */
static ev combine(oa_kdtype dt, oa_kscatter_red red, ev a, ev b)
{
    ev r = b;
    switch (kind_of(dt)) {
    case EK_FLOAT:
        switch (red) {
        case OA_KSCAT_ADD: r.f = a.f + b.f; break;
        case OA_KSCAT_MUL: r.f = a.f * b.f; break;
        case OA_KSCAT_MAX: r.f = a.f != a.f || b.f != b.f ? NAN : (a.f >= b.f ? a.f : b.f); break; /* NaN wins */
        case OA_KSCAT_MIN: r.f = a.f != a.f || b.f != b.f ? NAN : (a.f <= b.f ? a.f : b.f); break;
        default: break;
        }
        break;
    case EK_SIGNED:
        switch (red) {
        case OA_KSCAT_ADD: r.i = (int64_t)((uint64_t)a.i + (uint64_t)b.i); break;
        case OA_KSCAT_MUL: r.i = (int64_t)((uint64_t)a.i * (uint64_t)b.i); break;
        case OA_KSCAT_MAX: r.i = a.i > b.i ? a.i : b.i; break;
        case OA_KSCAT_MIN: r.i = a.i < b.i ? a.i : b.i; break;
        default: break;
        }
        break;
    default:
        switch (red) {
        case OA_KSCAT_ADD: r.u = a.u + b.u; break;
        case OA_KSCAT_MUL: r.u = a.u * b.u; break;
        case OA_KSCAT_MAX: r.u = a.u > b.u ? a.u : b.u; break;
        case OA_KSCAT_MIN: r.u = a.u < b.u ? a.u : b.u; break;
        default: break;
        }
        break;
    }
    return round_to(dt, r);
}

/* -1 / 0 / 1 in the element type's order (NaN after every number, NaNs equal). */
static int compare(oa_kdtype dt, ev a, ev b)
{
    switch (kind_of(dt)) {
    case EK_FLOAT: {
        const bool na = a.f != a.f, nb = b.f != b.f;
        if (na || nb) {
            return na == nb ? 0 : (na ? 1 : -1);
        }
        return a.f < b.f ? -1 : (a.f > b.f ? 1 : 0);
    }
    case EK_SIGNED: return a.i < b.i ? -1 : (a.i > b.i ? 1 : 0);
    default: return a.u < b.u ? -1 : (a.u > b.u ? 1 : 0);
    }
}

static int64_t index_at(const oa_ktensor *t, const void *p, int64_t i)
{
    return t->dtype == OA_KDT_I32 ? ((const int32_t *)p)[i] : ((const int64_t *)p)[i];
}

static bool is_index_type(oa_kdtype dt)
{
    return dt == OA_KDT_I32 || dt == OA_KDT_I64;
}

/* Wraps a negative index once; false when it is still outside [0, dim). */
static bool fix_index(int64_t *v, int64_t dim)
{
    if (*v < 0) {
        *v += dim;
    }
    return *v >= 0 && *v < dim;
}

static int64_t prod(const int64_t *d, int from, int to)
{
    int64_t p = 1;
    for (int i = from; i < to; i++) {
        p *= d[i];
    }
    return p;
}

/* ---- state: host values captured at create ---- */

typedef struct idx_state {
    int64_t cum_axis; /* Cumsum: normalised axis */
    int64_t depth;    /* OneHot */
    /* TfIdf */
    int64_t *pool, *counts, *indexes;
    float *weights;
    int64_t n_pool, n_counts, n_indexes, n_weights, out_size;
} idx_state;

static void idx_release(oa_kop *op)
{
    idx_state *s = op->state;
    free(s->pool);
    free(s->counts);
    free(s->indexes);
    free(s->weights);
    free(s);
    op->state = NULL;
}

/* ---- shape inference per sub-op ---- */

static oa_status need(const oa_kindex_params *p, int n_in, int min_in, int max_in, int n_out, int min_out,
                      int max_out)
{
    if (n_in < min_in || n_in > max_in || n_out < min_out || n_out > max_out) {
        return IFAIL("%s: %d inputs and %d outputs given (%d..%d inputs, %d..%d outputs)", k_opnames[p->op], n_in,
                     n_out, min_in, max_in, min_out, max_out);
    }
    return OA_OK;
}

static oa_status infer_gather_nd(const oa_kindex_params *p, const oa_ktensor *in, oa_ktensor *out)
{
    const oa_ktensor *x = &in[0], *ix = &in[1];
    if (!is_index_type(ix->dtype)) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "GatherNd: indices must be i32/i64, got %s",
                       oa_kdtype_name(ix->dtype));
    }
    const int64_t b = p->batch_dims;
    if (ix->rank < 1 || b < 0 || b >= ix->rank || b > x->rank) {
        return IFAIL("GatherNd: indices rank %d, x rank %d, batch_dims %lld do not fit", ix->rank, x->rank,
                     (long long)b);
    }
    const int64_t q = ix->dims[ix->rank - 1];
    if (q < 1 || b + q > x->rank) {
        return IFAIL("GatherNd: index tuples of %lld entries do not fit x of rank %d (batch_dims %lld)",
                     (long long)q, x->rank, (long long)b);
    }
    for (int i = 0; i < b; i++) {
        if (x->dims[i] != ix->dims[i]) {
            return IFAIL("GatherNd: batch dim %d differs (%lld, %lld)", i, (long long)x->dims[i],
                         (long long)ix->dims[i]);
        }
    }
    int r = 0;
    int64_t d[OA_KMAX_DIMS];
    for (int i = 0; i < ix->rank - 1; i++) {
        d[r++] = ix->dims[i];
    }
    for (int i = (int)(b + q); i < x->rank; i++) {
        if (r >= OA_KMAX_DIMS) {
            return IFAIL("GatherNd: the result has more than %d dims", OA_KMAX_DIMS);
        }
        d[r++] = x->dims[i];
    }
    oa_ktensor_set(&out[0], x->dtype, r, d);
    return OA_OK;
}

static oa_status check_reduction(const oa_kindex_params *p, oa_kdtype dt)
{
    if ((unsigned)p->reduction > OA_KSCAT_MIN) {
        return IFAIL("%s: unknown reduction %d", k_opnames[p->op], (int)p->reduction);
    }
    if (p->reduction != OA_KSCAT_NONE && (kind_of(dt) == EK_BOOL || kind_of(dt) == EK_NONE)) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "%s: reduction on %s", k_opnames[p->op], oa_kdtype_name(dt));
    }
    return OA_OK;
}

static oa_status infer_scatter_nd(const oa_kindex_params *p, const oa_ktensor *in, oa_ktensor *out)
{
    const oa_ktensor *x = &in[0], *ix = &in[1], *up = &in[2];
    if (!is_index_type(ix->dtype)) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "ScatterNd: indices must be i32/i64");
    }
    if (up->dtype != x->dtype) {
        return IFAIL("ScatterNd: updates (%s) and x (%s) differ", oa_kdtype_name(up->dtype),
                     oa_kdtype_name(x->dtype));
    }
    if (ix->rank < 1) {
        return IFAIL("ScatterNd: indices need rank >= 1");
    }
    const int64_t q = ix->dims[ix->rank - 1];
    if (q < 1 || q > x->rank) {
        return IFAIL("ScatterNd: index tuples of %lld entries for x of rank %d", (long long)q, x->rank);
    }
    const int want = ix->rank - 1 + x->rank - (int)q;
    bool ok = up->rank == want;
    for (int i = 0; ok && i < ix->rank - 1; i++) {
        ok = up->dims[i] == ix->dims[i];
    }
    for (int i = 0; ok && i < x->rank - (int)q; i++) {
        ok = up->dims[ix->rank - 1 + i] == x->dims[q + i];
    }
    if (!ok) {
        char b1[96], b2[96], b3[96];
        return IFAIL("ScatterNd: updates %s do not match indices %s and x %s", oa_kdims_str(up, b1, sizeof b1),
                     oa_kdims_str(ix, b2, sizeof b2), oa_kdims_str(x, b3, sizeof b3));
    }
    oa_status st = check_reduction(p, x->dtype);
    if (st == OA_OK) {
        out[0] = *x;
        out[0].data = NULL;
        out[0].layout = OA_KLAYOUT_PLAIN;
    }
    return st;
}

static oa_status infer_scatter_elements(const oa_kindex_params *p, const oa_ktensor *in, oa_ktensor *out)
{
    const oa_ktensor *x = &in[0], *ix = &in[1], *up = &in[2];
    if (!is_index_type(ix->dtype)) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "ScatterElements: indices must be i32/i64");
    }
    if (up->dtype != x->dtype || !oa_ksame_dims(ix, up) || ix->rank != x->rank || x->rank < 1) {
        return IFAIL("ScatterElements: updates need the indices' shape and x's dtype, indices x's rank >= 1");
    }
    int ax;
    if (!oa_kaxis_norm(p->axis, x->rank, &ax)) {
        return IFAIL("ScatterElements: axis %lld out of range for rank %d", (long long)p->axis, x->rank);
    }
    for (int i = 0; i < x->rank; i++) {
        if (i != ax && ix->dims[i] > x->dims[i]) {
            return IFAIL("ScatterElements: indices dim %d (%lld) exceeds x's (%lld)", i, (long long)ix->dims[i],
                         (long long)x->dims[i]);
        }
    }
    oa_status st = check_reduction(p, x->dtype);
    if (st == OA_OK) {
        out[0] = *x;
        out[0].data = NULL;
        out[0].layout = OA_KLAYOUT_PLAIN;
    }
    return st;
}

static oa_status infer_one_hot(const oa_kindex_params *p, const oa_ktensor *in, oa_ktensor *out)
{
    const oa_ktensor *ix = &in[0], *dp = &in[1], *on = &in[2], *off = &in[3];
    if (kind_of(ix->dtype) == EK_NONE || kind_of(ix->dtype) == EK_BOOL) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "OneHot: indices of %s", oa_kdtype_name(ix->dtype));
    }
    if (dp->data == NULL || oa_ktensor_numel(dp) != 1 || kind_of(dp->dtype) == EK_NONE) {
        return IFAIL("OneHot: depth must be a host scalar");
    }
    if (on->dtype != off->dtype || oa_ktensor_numel(on) != 1 || oa_ktensor_numel(off) != 1 ||
        kind_of(on->dtype) == EK_NONE) {
        return IFAIL("OneHot: on_value and off_value must be scalars of one dtype");
    }
    ev dv = get(dp->dtype, dp->data, 0);
    const int64_t depth = kind_of(dp->dtype) == EK_FLOAT ? (int64_t)dv.f : dv.i;
    if (depth < 1 || (kind_of(dp->dtype) == EK_FLOAT && !(dv.f >= 1 && dv.f < 9.0e15))) {
        return IFAIL("OneHot: depth must be >= 1");
    }
    if (ix->rank + 1 > OA_KMAX_DIMS) {
        return IFAIL("OneHot: indices of rank %d", ix->rank);
    }
    int ax;
    if (!oa_kaxis_norm(p->axis, ix->rank + 1, &ax)) {
        return IFAIL("OneHot: axis %lld out of range for rank %d", (long long)p->axis, ix->rank + 1);
    }
    int64_t d[OA_KMAX_DIMS];
    for (int i = 0, k = 0; i <= ix->rank; i++) {
        d[i] = i == ax ? depth : ix->dims[k++];
    }
    oa_ktensor_set(&out[0], on->dtype, ix->rank + 1, d);
    return OA_OK;
}

static oa_status infer_unique(const oa_kindex_params *p, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    const oa_ktensor *x = &in[0];
    if (kind_of(x->dtype) == EK_NONE) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "Unique: x of %s", oa_kdtype_name(x->dtype));
    }
    int64_t n = oa_ktensor_numel(x);
    oa_ktensor y;
    if (p->has_axis) {
        int ax;
        if (!oa_kaxis_norm(p->axis, x->rank, &ax)) {
            return IFAIL("Unique: axis %lld out of range for rank %d", (long long)p->axis, x->rank);
        }
        n = x->dims[ax];
        y = *x;
    } else {
        oa_ktensor_set(&y, x->dtype, 1, &n);
    }
    y.data = NULL;
    y.layout = OA_KLAYOUT_PLAIN;
    const int64_t inv = p->has_axis ? n : oa_ktensor_numel(x);
    for (int k = 0; k < n_out && k < 4; k++) {
        if (k == 0) {
            out[0] = y;
        } else {
            oa_ktensor_set(&out[k], OA_KDT_I64, 1, k == 2 ? &inv : &n);
        }
    }
    return OA_OK;
}

static oa_status tfidf_check(const oa_kindex_params *p, int n_in, const oa_ktensor *in, int64_t *out_size)
{
    const oa_ktensor *x = &in[0];
    if (!is_index_type(x->dtype) || (x->rank != 1 && x->rank != 2)) {
        return IFAIL("TfIdfVectorizer: x must be i32/i64 of rank 1 or 2");
    }
    for (int i = 1; i < 4; i++) {
        if (in[i].dtype != OA_KDT_I64 || in[i].rank != 1 || (in[i].data == NULL && in[i].dims[0] > 0)) {
            return IFAIL("TfIdfVectorizer: input %d (pool, ngram_counts, ngram_indexes) must be host i64 1-D", i);
        }
    }
    const oa_ktensor *w = oa_kt_opt(n_in, in, 4);
    if (w != NULL && (w->dtype != OA_KDT_F32 || w->rank != 1 || w->dims[0] != in[3].dims[0] ||
                      (w->data == NULL && w->dims[0] > 0))) {
        return IFAIL("TfIdfVectorizer: weights must be host f32 with one entry per ngram index");
    }
    if (p->min_gram < 1 || p->max_gram < p->min_gram || p->max_skip < 0 || (unsigned)p->mode > OA_KTFIDF_TFIDF) {
        return IFAIL("TfIdfVectorizer: bad gram lengths [%lld, %lld] or skip %lld", (long long)p->min_gram,
                     (long long)p->max_gram, (long long)p->max_skip);
    }
    /* ngram_counts: non-decreasing starts into the pool, one per gram length from 1 */
    const int64_t nc = in[2].dims[0], np = in[1].dims[0], ni = in[3].dims[0];
    if (nc < p->max_gram && nc < 1) {
        return IFAIL("TfIdfVectorizer: ngram_counts is empty");
    }
    int64_t prev = 0, total = 0;
    for (int64_t k = 0; k < nc; k++) {
        int64_t c = ((const int64_t *)in[2].data)[k];
        if (c < prev || c > np) {
            return IFAIL("TfIdfVectorizer: ngram_counts[%lld] = %lld is not a pool position", (long long)k,
                         (long long)c);
        }
        int64_t end = k + 1 < nc ? ((const int64_t *)in[2].data)[k + 1] : np;
        if (end < c || (end - c) % (k + 1) != 0) {
            return IFAIL("TfIdfVectorizer: pool part %lld is not a whole number of %lld-grams", (long long)k,
                         (long long)(k + 1));
        }
        total += (end - c) / (k + 1);
        prev = c;
    }
    if (total != ni) {
        return IFAIL("TfIdfVectorizer: %lld ngrams in the pool, %lld ngram_indexes", (long long)total,
                     (long long)ni);
    }
    int64_t mx = -1;
    for (int64_t k = 0; k < ni; k++) {
        int64_t v = ((const int64_t *)in[3].data)[k];
        if (v < 0 || v > (int64_t)1 << 40) {
            return IFAIL("TfIdfVectorizer: ngram_indexes[%lld] = %lld", (long long)k, (long long)v);
        }
        mx = v > mx ? v : mx;
    }
    *out_size = mx + 1;
    return OA_OK;
}

static oa_status idx_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    const oa_kindex_params *p = params;
    if ((unsigned)p->op >= OA_KIDX_COUNT) {
        return IFAIL("index: unknown sub-op %d", (int)p->op);
    }
    /* a trailing i64 scalar is the data-dependent count output (NonZero, Unique) */
    const bool dds = p->op == OA_KIDX_NON_ZERO || p->op == OA_KIDX_UNIQUE;
    int n_real = n_out;
    if (dds && n_out >= 2 && out[n_out - 1].dtype == OA_KDT_I64 && out[n_out - 1].rank == 0) {
        n_real = n_out - 1;
        oa_ktensor_set(&out[n_out - 1], OA_KDT_I64, 0, NULL);
    }
    oa_status st;
    switch (p->op) {
    case OA_KIDX_GATHER_ND:
        return (st = need(p, n_in, 2, 2, n_out, 1, 1)) != OA_OK ? st : infer_gather_nd(p, in, out);
    case OA_KIDX_SCATTER_ND:
        return (st = need(p, n_in, 3, 3, n_out, 1, 1)) != OA_OK ? st : infer_scatter_nd(p, in, out);
    case OA_KIDX_SCATTER_ELEMENTS:
        return (st = need(p, n_in, 3, 3, n_out, 1, 1)) != OA_OK ? st : infer_scatter_elements(p, in, out);
    case OA_KIDX_ONE_HOT:
        return (st = need(p, n_in, 4, 4, n_out, 1, 1)) != OA_OK ? st : infer_one_hot(p, in, out);
    case OA_KIDX_EYE_LIKE:
        if ((st = need(p, n_in, 1, 1, n_out, 1, 1)) != OA_OK) {
            return st;
        }
        if (in[0].rank != 2) {
            return IFAIL("EyeLike: x must be 2-D, has rank %d", in[0].rank);
        }
        if (kind_of(out[0].dtype) == EK_NONE) {
            return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "EyeLike: output dtype %s", oa_kdtype_name(out[0].dtype));
        }
        oa_ktensor_set(&out[0], out[0].dtype, 2, in[0].dims);
        return OA_OK;
    case OA_KIDX_CUMSUM: {
        if ((st = need(p, n_in, 2, 2, n_out, 1, 1)) != OA_OK) {
            return st;
        }
        const ekind k = kind_of(in[0].dtype);
        if (k != EK_FLOAT && k != EK_SIGNED && k != EK_UNSIGNED) {
            return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "Cumsum: x of %s", oa_kdtype_name(in[0].dtype));
        }
        if (oa_ktensor_numel(&in[1]) != 1 || !is_index_type(in[1].dtype)) {
            return IFAIL("Cumsum: axis must be an i32/i64 scalar");
        }
        int ax;
        if (in[0].rank < 1) {
            return IFAIL("Cumsum: x must have rank >= 1");
        }
        if (in[1].data != NULL && !oa_kaxis_norm(oa_kt_get_i64(&in[1], 0), in[0].rank, &ax)) {
            return IFAIL("Cumsum: axis %lld out of range for rank %d", (long long)oa_kt_get_i64(&in[1], 0),
                         in[0].rank);
        }
        out[0] = in[0];
        out[0].data = NULL;
        out[0].layout = OA_KLAYOUT_PLAIN;
        return OA_OK;
    }
    case OA_KIDX_REVERSE_SEQUENCE: {
        if ((st = need(p, n_in, 2, 2, n_out, 1, 1)) != OA_OK) {
            return st;
        }
        const int64_t t = p->axis, b = p->batch_dims;
        if (in[0].rank < 2 || !((t == 0 && b == 1) || (t == 1 && b == 0))) {
            return IFAIL("ReverseSequence: x of rank >= 2 with time_axis/batch_axis 0/1 (have %lld/%lld)",
                         (long long)t, (long long)b);
        }
        if (!is_index_type(in[1].dtype) || in[1].rank != 1 || in[1].dims[0] != in[0].dims[b]) {
            return IFAIL("ReverseSequence: sequence_lens must be i32/i64 [%lld]", (long long)in[0].dims[b]);
        }
        out[0] = in[0];
        out[0].data = NULL;
        out[0].layout = OA_KLAYOUT_PLAIN;
        return OA_OK;
    }
    case OA_KIDX_NON_ZERO: {
        if ((st = need(p, n_in, 1, 1, n_real, 1, 1)) != OA_OK) {
            return st;
        }
        if (kind_of(in[0].dtype) == EK_NONE) {
            return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "NonZero: x of %s", oa_kdtype_name(in[0].dtype));
        }
        int64_t d[2] = {in[0].rank, oa_ktensor_numel(&in[0])};
        oa_ktensor_set(&out[0], OA_KDT_I64, 2, d);
        return OA_OK;
    }
    case OA_KIDX_UNIQUE:
        return (st = need(p, n_in, 1, 1, n_real, 1, 4)) != OA_OK ? st : infer_unique(p, in, n_real, out);
    case OA_KIDX_TFIDF: {
        if ((st = need(p, n_in, 4, 5, n_out, 1, 1)) != OA_OK) {
            return st;
        }
        int64_t size;
        if ((st = tfidf_check(p, n_in, in, &size)) != OA_OK) {
            return st;
        }
        int64_t d[2] = {in[0].rank == 2 ? in[0].dims[0] : size, size};
        oa_ktensor_set(&out[0], OA_KDT_F32, in[0].rank, in[0].rank == 2 ? d : &size);
        return OA_OK;
    }
    default: return IFAIL("index: unknown sub-op %d", (int)p->op);
    }
}

static int64_t *dup_i64(const oa_ktensor *t, int64_t *n)
{
    *n = t->dims[0];
    int64_t *v = malloc((size_t)(*n > 0 ? *n : 1) * sizeof(int64_t));
    if (v != NULL && *n > 0) {
        memcpy(v, t->data, (size_t)*n * sizeof(int64_t));
    }
    return v;
}

static oa_status idx_setup(oa_kop *op)
{
    idx_state *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "index state");
    }
    op->state = s;
    const oa_kindex_params *p = &op->params.index;
    if (p->op == OA_KIDX_CUMSUM) {
        int ax = 0;
        s->cum_axis = -1; /* read at run */
        if (op->in[1].data != NULL && oa_kaxis_norm(oa_kt_get_i64(&op->in[1], 0), op->in[0].rank, &ax)) {
            s->cum_axis = ax;
        }
    } else if (p->op == OA_KIDX_ONE_HOT) {
        ev dv = get(op->in[1].dtype, op->in[1].data, 0);
        s->depth = kind_of(op->in[1].dtype) == EK_FLOAT ? (int64_t)dv.f : dv.i;
    } else if (p->op == OA_KIDX_TFIDF) {
        s->pool = dup_i64(&op->in[1], &s->n_pool);
        s->counts = dup_i64(&op->in[2], &s->n_counts);
        s->indexes = dup_i64(&op->in[3], &s->n_indexes);
        if (s->pool == NULL || s->counts == NULL || s->indexes == NULL) {
            return OA_FAIL(OA_E_NOMEM, "TfIdfVectorizer state");
        }
        const oa_ktensor *w = oa_kt_opt(op->n_in, op->in, 4);
        if (w != NULL) {
            s->n_weights = w->dims[0];
            s->weights = malloc((size_t)(s->n_weights > 0 ? s->n_weights : 1) * sizeof(float));
            if (s->weights == NULL) {
                return OA_FAIL(OA_E_NOMEM, "TfIdfVectorizer state");
            }
            if (s->n_weights > 0) {
                memcpy(s->weights, w->data, (size_t)s->n_weights * sizeof(float));
            }
        }
        s->out_size = op->out[0].dims[op->out[0].rank - 1];
    }
    if (p->op == OA_KIDX_UNIQUE || p->op == OA_KIDX_TFIDF) {
        /* Unique: order + first occurrence + group per slice; TfIdf: counts per ngram index */
        int64_t n = p->op == OA_KIDX_UNIQUE ? oa_ktensor_numel(&op->in[0]) : 0;
        int ax = 0;
        if (p->op == OA_KIDX_UNIQUE && p->has_axis && oa_kaxis_norm(p->axis, op->in[0].rank, &ax) &&
            op->in[0].dims[ax] > n) {
            n = op->in[0].dims[ax]; /* slices of no element: [3, 0] along axis 0 */
        }
        op->ws_size = (size_t)(n + 1) * 3 * sizeof(int64_t);
    }
    return OA_OK;
}

/* ---- run per sub-op ---- */

static oa_status run_gather_nd(const oa_kop *op, const void *const *in, void *const *out)
{
    const oa_ktensor *x = &op->in[0], *ix = &op->in[1];
    const int64_t b = op->params.index.batch_dims, q = ix->dims[ix->rank - 1];
    const size_t es = oa_kdtype_size(x->dtype);
    const int64_t nb = prod(x->dims, 0, (int)b);                 /* batches */
    const int64_t nt = prod(ix->dims, (int)b, ix->rank - 1);     /* tuples per batch */
    const int64_t slice = prod(x->dims, (int)(b + q), x->rank);  /* elements per gathered slice */
    const int64_t xb = prod(x->dims, (int)b, x->rank);           /* x elements per batch */
    int64_t stride[OA_KMAX_DIMS];
    stride[b + q - 1] = slice;
    for (int i = (int)(b + q) - 2; i >= (int)b; i--) {
        stride[i] = stride[i + 1] * x->dims[i + 1];
    }
    for (int64_t bi = 0; bi < nb; bi++) {
        for (int64_t t = 0; t < nt; t++) {
            const int64_t row = (bi * nt + t) * q;
            int64_t off = bi * xb;
            for (int64_t k = 0; k < q; k++) {
                int64_t v = index_at(ix, in[1], row + k);
                const int64_t dim = x->dims[b + k];
                if (!fix_index(&v, dim)) {
                    return IFAIL("GatherNd: index %lld out of range for dim %lld of size %lld",
                                 (long long)index_at(ix, in[1], row + k), (long long)(b + k), (long long)dim);
                }
                off += v * stride[b + k];
            }
            memcpy((char *)out[0] + (size_t)((bi * nt + t) * slice) * es, (const char *)in[0] + (size_t)off * es,
                   (size_t)slice * es);
        }
    }
    return OA_OK;
}

static void scatter_store(oa_kdtype dt, oa_kscatter_red red, void *y, int64_t at, const void *u, int64_t from,
                          size_t es)
{
    if (red == OA_KSCAT_NONE) {
        memcpy((char *)y + (size_t)at * es, (const char *)u + (size_t)from * es, es);
    } else {
        put(dt, y, at, combine(dt, red, get(dt, y, at), get(dt, u, from)));
    }
}

static oa_status run_scatter_nd(const oa_kop *op, const void *const *in, void *const *out)
{
    const oa_ktensor *x = &op->in[0], *ix = &op->in[1];
    const int64_t q = ix->dims[ix->rank - 1];
    const size_t es = oa_kdtype_size(x->dtype);
    const int64_t nt = prod(ix->dims, 0, ix->rank - 1);
    const int64_t slice = prod(x->dims, (int)q, x->rank);
    int64_t stride[OA_KMAX_DIMS];
    stride[q - 1] = slice;
    for (int i = (int)q - 2; i >= 0; i--) {
        stride[i] = stride[i + 1] * x->dims[i + 1];
    }
    /* every index first: a bad one fails the run with y untouched */
    for (int64_t t = 0; t < nt * q; t++) {
        int64_t v = index_at(ix, in[1], t);
        if (!fix_index(&v, x->dims[t % q])) {
            return IFAIL("ScatterNd: index %lld out of range for dim %lld of size %lld",
                         (long long)index_at(ix, in[1], t), (long long)(t % q), (long long)x->dims[t % q]);
        }
    }
    if (out[0] != in[0]) {
        memmove(out[0], in[0], (size_t)oa_ktensor_numel(x) * es);
    }
    for (int64_t t = 0; t < nt; t++) {
        int64_t off = 0;
        for (int64_t k = 0; k < q; k++) {
            int64_t v = index_at(ix, in[1], t * q + k);
            (void)fix_index(&v, x->dims[k]);
            off += v * stride[k];
        }
        for (int64_t e = 0; e < slice; e++) {
            scatter_store(x->dtype, op->params.index.reduction, out[0], off + e, in[2], t * slice + e, es);
        }
    }
    return OA_OK;
}

static oa_status run_scatter_elements(const oa_kop *op, const void *const *in, void *const *out)
{
    const oa_ktensor *x = &op->in[0], *ix = &op->in[1];
    int ax = 0;
    (void)oa_kaxis_norm(op->params.index.axis, x->rank, &ax);
    const size_t es = oa_kdtype_size(x->dtype);
    const int64_t n = oa_ktensor_numel(ix);
    int64_t xs[OA_KMAX_DIMS];
    oa_kstrides(x, xs);
    for (int64_t k = 0; k < n; k++) {
        int64_t v = index_at(ix, in[1], k);
        if (!fix_index(&v, x->dims[ax])) {
            return IFAIL("ScatterElements: index %lld out of range [-%lld, %lld)", (long long)index_at(ix, in[1], k),
                         (long long)x->dims[ax], (long long)x->dims[ax]);
        }
    }
    if (out[0] != in[0]) {
        memmove(out[0], in[0], (size_t)oa_ktensor_numel(x) * es);
    }
    int64_t c[OA_KMAX_DIMS] = {0};
    for (int64_t k = 0; k < n; k++) {
        int64_t v = index_at(ix, in[1], k);
        (void)fix_index(&v, x->dims[ax]);
        int64_t off = 0;
        for (int i = 0; i < x->rank; i++) {
            off += (i == ax ? v : c[i]) * xs[i];
        }
        scatter_store(x->dtype, op->params.index.reduction, out[0], off, in[2], k, es);
        for (int i = ix->rank - 1; i >= 0; i--) {
            if (++c[i] < ix->dims[i]) {
                break;
            }
            c[i] = 0;
        }
    }
    return OA_OK;
}

static oa_status run_one_hot(const oa_kop *op, const void *const *in, void *const *out)
{
    const idx_state *s = op->state;
    const oa_ktensor *ix = &op->in[0], *y = &op->out[0];
    int ax = 0;
    (void)oa_kaxis_norm(op->params.index.axis, ix->rank + 1, &ax);
    const size_t es = oa_kdtype_size(y->dtype);
    const int64_t outer = prod(ix->dims, 0, ax), inner = prod(ix->dims, ax, ix->rank), depth = s->depth;
    for (int64_t o = 0; o < outer; o++) {
        for (int64_t d = 0; d < depth; d++) {
            for (int64_t i = 0; i < inner; i++) {
                memcpy((char *)out[0] + (size_t)((o * depth + d) * inner + i) * es, in[3], es);
            }
        }
        for (int64_t i = 0; i < inner; i++) {
            ev v = get(ix->dtype, in[0], o * inner + i);
            int64_t k;
            if (kind_of(ix->dtype) == EK_FLOAT) {
                if (!(v.f > -9.0e15 && v.f < 9.0e15)) {
                    continue;
                }
                k = (int64_t)v.f;
            } else if (kind_of(ix->dtype) == EK_UNSIGNED) {
                if (v.u >= (uint64_t)depth) {
                    continue;
                }
                k = (int64_t)v.u;
            } else {
                k = v.i;
            }
            if (k < -depth || k >= depth) {
                continue;
            }
            k = k < 0 ? k + depth : k;
            memcpy((char *)out[0] + (size_t)((o * depth + k) * inner + i) * es, in[2], es);
        }
    }
    return OA_OK;
}

static oa_status run_eye_like(const oa_kop *op, void *const *out)
{
    const oa_ktensor *y = &op->out[0];
    const size_t es = oa_kdtype_size(y->dtype);
    memset(out[0], 0, (size_t)oa_ktensor_numel(y) * es);
    ev one;
    if (kind_of(y->dtype) == EK_FLOAT) {
        one.f = 1.0;
    } else {
        one.u = 1;
    }
    const int64_t k = op->params.index.axis;
    for (int64_t r = 0; r < y->dims[0]; r++) {
        const int64_t c = r + k;
        if (c >= 0 && c < y->dims[1]) {
            put(y->dtype, out[0], r * y->dims[1] + c, one);
        }
    }
    return OA_OK;
}

static oa_status run_cumsum(const oa_kop *op, const void *const *in, void *const *out)
{
    const idx_state *s = op->state;
    const oa_ktensor *x = &op->in[0];
    const oa_kdtype dt = x->dtype;
    int ax = (int)s->cum_axis;
    if (ax < 0) {
        if (in[1] == NULL) {
            return IFAIL("Cumsum: NULL axis");
        }
        const int64_t a = index_at(&op->in[1], in[1], 0);
        if (!oa_kaxis_norm(a, x->rank, &ax)) {
            return IFAIL("Cumsum: axis %lld out of range for rank %d", (long long)a, x->rank);
        }
    }
    const int64_t outer = prod(x->dims, 0, ax), len = x->dims[ax], inner = prod(x->dims, ax + 1, x->rank);
    const bool excl = op->params.index.exclusive, rev = op->params.index.reverse;
    for (int64_t o = 0; o < outer; o++) {
        for (int64_t i = 0; i < inner; i++) {
            ev acc = {0};
            if (kind_of(dt) == EK_FLOAT) {
                acc.f = 0.0;
            }
            for (int64_t t = 0; t < len; t++) {
                const int64_t j = rev ? len - 1 - t : t;
                const int64_t at = (o * len + j) * inner + i;
                const ev v = get(dt, in[0], at);
                if (excl) {
                    put(dt, out[0], at, acc);
                    acc = combine(dt, OA_KSCAT_ADD, acc, v);
                } else {
                    acc = combine(dt, OA_KSCAT_ADD, acc, v);
                    put(dt, out[0], at, acc);
                }
            }
        }
    }
    return OA_OK;
}

static oa_status run_reverse_sequence(const oa_kop *op, const void *const *in, void *const *out)
{
    const oa_ktensor *x = &op->in[0], *sl = &op->in[1];
    const int64_t ta = op->params.index.axis, ba = op->params.index.batch_dims;
    const int64_t T = x->dims[ta], B = x->dims[ba], inner = prod(x->dims, 2, x->rank);
    const size_t es = oa_kdtype_size(x->dtype);
    for (int64_t b = 0; b < B; b++) {
        const int64_t L = index_at(sl, in[1], b);
        if (L < 0 || L > T) {
            return IFAIL("ReverseSequence: sequence_lens[%lld] = %lld outside [0, %lld]", (long long)b,
                         (long long)L, (long long)T);
        }
    }
    for (int64_t b = 0; b < B; b++) {
        const int64_t L = index_at(sl, in[1], b);
        for (int64_t t = 0; t < T; t++) {
            const int64_t src_t = t < L ? L - 1 - t : t;
            const int64_t dst = ta == 0 ? (t * B + b) : (b * T + t);
            const int64_t src = ta == 0 ? (src_t * B + b) : (b * T + src_t);
            memcpy((char *)out[0] + (size_t)(dst * inner) * es, (const char *)in[0] + (size_t)(src * inner) * es,
                   (size_t)inner * es);
        }
    }
    return OA_OK;
}

static bool nonzero_at(oa_kdtype dt, const void *p, int64_t i)
{
    ev v = get(dt, p, i);
    return kind_of(dt) == EK_FLOAT ? v.f != 0.0 : v.u != 0;
}

/* The count output, or an error when there is none and the described extent is not the real one. */
static oa_status report_count(const oa_kop *op, void *const *out, int n_real, int64_t described, int64_t count)
{
    if (n_real < op->n_out) {
        if (out[op->n_out - 1] == NULL) {
            return IFAIL("%s: NULL count output", k_opnames[op->params.index.op]);
        }
        *(int64_t *)out[op->n_out - 1] = count;
        return OA_OK;
    }
    if (described != count) {
        return IFAIL("%s: the output holds %lld entries along its data-dependent dim, the result has %lld",
                     k_opnames[op->params.index.op], (long long)described, (long long)count);
    }
    return OA_OK;
}

static int real_outputs(const oa_kop *op)
{
    const oa_ktensor *last = &op->out[op->n_out - 1];
    return op->n_out >= 2 && last->dtype == OA_KDT_I64 && last->rank == 0 ? op->n_out - 1 : op->n_out;
}

static oa_status run_non_zero(const oa_kop *op, const void *const *in, void *const *out)
{
    const oa_ktensor *x = &op->in[0];
    const int64_t n = oa_ktensor_numel(x);
    int64_t count = 0;
    for (int64_t i = 0; i < n; i++) {
        count += nonzero_at(x->dtype, in[0], i);
    }
    oa_status st = report_count(op, out, real_outputs(op), op->out[0].dims[1], count);
    if (st != OA_OK) {
        return st;
    }
    int64_t *y = out[0];
    int64_t c[OA_KMAX_DIMS] = {0}, k = 0;
    for (int64_t i = 0; i < n; i++) {
        if (nonzero_at(x->dtype, in[0], i)) {
            for (int d = 0; d < x->rank; d++) {
                y[d * count + k] = c[d];
            }
            k++;
        }
        for (int d = x->rank - 1; d >= 0; d--) {
            if (++c[d] < x->dims[d]) {
                break;
            }
            c[d] = 0;
        }
    }
    return OA_OK;
}

/* Unique: slices along the axis (or single elements), compared element by element. */
typedef struct uctx {
    oa_kdtype dt;
    const void *x;
    int64_t outer, len, inner; /* x as [outer, len, inner]; slice j = x[:, j, :] */
} uctx;

static int slice_cmp(const uctx *u, int64_t a, int64_t b)
{
    for (int64_t o = 0; o < u->outer; o++) {
        for (int64_t i = 0; i < u->inner; i++) {
            int c = compare(u->dt, get(u->dt, u->x, (o * u->len + a) * u->inner + i),
                            get(u->dt, u->x, (o * u->len + b) * u->inner + i));
            if (c != 0) {
                return c;
            }
        }
    }
    return 0;
}

/* stable merge sort of slice ids (ties keep the earlier slice first) */
static void msort(const uctx *u, int64_t *v, int64_t *tmp, int64_t n)
{
    if (n < 2) {
        return;
    }
    const int64_t h = n / 2;
    msort(u, v, tmp, h);
    msort(u, v + h, tmp, n - h);
    int64_t i = 0, j = h, k = 0;
    while (i < h && j < n) {
        tmp[k++] = slice_cmp(u, v[j], v[i]) < 0 ? v[j++] : v[i++];
    }
    while (i < h) {
        tmp[k++] = v[i++];
    }
    while (j < n) {
        tmp[k++] = v[j++];
    }
    memcpy(v, tmp, (size_t)n * sizeof(int64_t));
}

static oa_status run_unique(const oa_kop *op, const void *const *in, void *const *out, void *ws)
{
    const oa_kindex_params *p = &op->params.index;
    const oa_ktensor *x = &op->in[0];
    uctx u = {.dt = x->dtype, .x = in[0], .outer = 1, .len = oa_ktensor_numel(x), .inner = 1};
    if (p->has_axis) {
        int ax = 0;
        (void)oa_kaxis_norm(p->axis, x->rank, &ax);
        u.outer = prod(x->dims, 0, ax);
        u.len = x->dims[ax];
        u.inner = prod(x->dims, ax + 1, x->rank);
    }
    const int64_t n = u.len;
    int64_t *order = ws, *tmp = order + n + 1, *group = tmp + n + 1;
    for (int64_t j = 0; j < n; j++) {
        order[j] = j;
    }
    msort(&u, order, tmp, n);
    /* group[slice] = its unique id (sorted order), tmp[id] = first occurrence */
    int64_t count = 0;
    for (int64_t k = 0; k < n; k++) {
        if (k == 0 || slice_cmp(&u, order[k - 1], order[k]) != 0) {
            tmp[count++] = order[k];
        }
        group[order[k]] = count - 1;
    }
    const int n_real = real_outputs(op);
    oa_status st;
    /* described extent of the data-dependent dim: output 0's axis dim */
    int64_t described = op->out[0].dims[0];
    if (p->has_axis) {
        int ax = 0;
        (void)oa_kaxis_norm(p->axis, x->rank, &ax);
        described = op->out[0].dims[ax];
    }
    if ((st = report_count(op, out, n_real, described, count)) != OA_OK) {
        return st;
    }
    /* unsorted: ids renumbered by first occurrence */
    int64_t *rank = order; /* reuse: rank[id] = output position */
    if (p->sorted) {
        for (int64_t g = 0; g < count; g++) {
            rank[g] = g;
        }
    } else {
        int64_t next = 0;
        for (int64_t g = 0; g < count; g++) {
            rank[g] = -1;
        }
        for (int64_t j = 0; j < n; j++) {
            if (rank[group[j]] < 0) {
                rank[group[j]] = next++;
            }
        }
    }
    /* first occurrence per output position */
    int64_t *first = tmp; /* tmp[id] = first occurrence; move to output order via a second pass */
    const size_t es = oa_kdtype_size(x->dtype);
    for (int64_t g = 0; g < count; g++) {
        const int64_t pos = rank[g], src = first[g];
        for (int64_t o = 0; o < u.outer; o++) {
            memcpy((char *)out[0] + (size_t)((o * count + pos) * u.inner) * es,
                   (const char *)in[0] + (size_t)((o * u.len + src) * u.inner) * es, (size_t)u.inner * es);
        }
        if (n_real > 1 && out[1] != NULL && op->out[1].dtype != OA_KDT_UNDEFINED) {
            ((int64_t *)out[1])[pos] = src;
        }
        if (n_real > 3 && out[3] != NULL && op->out[3].dtype != OA_KDT_UNDEFINED) {
            ((int64_t *)out[3])[pos] = 0;
        }
    }
    for (int64_t j = 0; j < n; j++) {
        const int64_t pos = rank[group[j]];
        if (n_real > 2 && out[2] != NULL && op->out[2].dtype != OA_KDT_UNDEFINED) {
            ((int64_t *)out[2])[j] = pos;
        }
        if (n_real > 3 && out[3] != NULL && op->out[3].dtype != OA_KDT_UNDEFINED) {
            ((int64_t *)out[3])[pos]++;
        }
    }
    return OA_OK;
}

static oa_status run_tfidf(const oa_kop *op, const void *const *in, void *const *out, void *ws)
{
    (void)ws;
    const oa_kindex_params *p = &op->params.index;
    const idx_state *s = op->state;
    const oa_ktensor *x = &op->in[0];
    const int64_t rows = x->rank == 2 ? x->dims[0] : 1, C = x->dims[x->rank - 1], size = s->out_size;
    float *y = out[0];
    memset(y, 0, (size_t)(rows * size) * sizeof(float));
    for (int64_t r = 0; r < rows; r++) {
        float *yr = y + r * size;
        /* each gram length n in [min, max]: pool part n-1 holds the n-grams */
        for (int64_t n = p->min_gram; n <= p->max_gram && n <= s->n_counts; n++) {
            const int64_t start = s->counts[n - 1];
            const int64_t end = n < s->n_counts ? s->counts[n] : s->n_pool;
            int64_t id0 = 0; /* index into ngram_indexes of the first n-gram of this part */
            for (int64_t k = 0; k < n - 1; k++) {
                const int64_t e = k + 1 < s->n_counts ? s->counts[k + 1] : s->n_pool;
                id0 += (e - s->counts[k]) / (k + 1);
            }
            for (int64_t skip = 0; skip <= p->max_skip; skip++) {
                const int64_t span = (n - 1) * (skip + 1);
                if (n == 1 && skip > 0) {
                    break; /* unigrams are counted once */
                }
                for (int64_t i = 0; i + span < C; i++) {
                    for (int64_t g = start, id = id0; g + n <= end; g += n, id++) {
                        bool match = true;
                        for (int64_t t = 0; t < n && match; t++) {
                            match = index_at(x, in[0], r * C + i + t * (skip + 1)) == s->pool[g + t];
                        }
                        if (match) {
                            yr[s->indexes[id]] += 1.0f;
                            break;
                        }
                    }
                }
            }
        }
        for (int64_t k = 0; k < s->n_indexes; k++) {
            float *v = &yr[s->indexes[k]];
            if (*v == 0.0f) {
                continue;
            }
            const float w = s->weights != NULL ? s->weights[k] : 1.0f;
            if (p->mode == OA_KTFIDF_IDF) {
                *v = w;
            } else if (p->mode == OA_KTFIDF_TFIDF) {
                *v *= w;
            }
        }
    }
    return OA_OK;
}

static oa_status idx_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)pool;
    for (int i = 0; i < op->n_in; i++) {
        const oa_kindex_op o = op->params.index.op;
        const bool host = (o == OA_KIDX_TFIDF && i > 0) || o == OA_KIDX_EYE_LIKE ||
                          ((o == OA_KIDX_ONE_HOT || o == OA_KIDX_CUMSUM) && i == 1); /* captured, or checked later */
        if (op->in[i].dtype != OA_KDT_UNDEFINED && in[i] == NULL && oa_ktensor_numel(&op->in[i]) > 0 && !host) {
            return IFAIL("%s: NULL input %d", k_opnames[op->params.index.op], i);
        }
    }
    if (out[0] == NULL && oa_ktensor_numel(&op->out[0]) > 0) {
        return IFAIL("%s: NULL output", k_opnames[op->params.index.op]);
    }
    switch (op->params.index.op) {
    case OA_KIDX_GATHER_ND: return run_gather_nd(op, in, out);
    case OA_KIDX_SCATTER_ND: return run_scatter_nd(op, in, out);
    case OA_KIDX_SCATTER_ELEMENTS: return run_scatter_elements(op, in, out);
    case OA_KIDX_ONE_HOT: return run_one_hot(op, in, out);
    case OA_KIDX_EYE_LIKE: return run_eye_like(op, out);
    case OA_KIDX_CUMSUM: return run_cumsum(op, in, out);
    case OA_KIDX_REVERSE_SEQUENCE: return run_reverse_sequence(op, in, out);
    case OA_KIDX_NON_ZERO: return run_non_zero(op, in, out);
    case OA_KIDX_UNIQUE: return run_unique(op, in, out, ws);
    case OA_KIDX_TFIDF: return run_tfidf(op, in, out, ws);
    default: return IFAIL("index: unknown sub-op");
    }
}

const oa_kfamily oa_kfam_index = {
    .params_size = sizeof(oa_kindex_params),
    .infer = idx_infer,
    .setup = idx_setup,
    .run = idx_run,
    .release = idx_release,
};

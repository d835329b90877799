/*
 * ONNX -> IR mappings of the indexing, scatter and data-dependent ops
 * (docs/ge_ir.md "ONNX import"): GatherND, ScatterND, ScatterElements /
 * Scatter, OneHot, EyeLike, CumSum, ReverseSequence, NonZero, Unique,
 * Compress (NonZero + Reshape + GatherV2), TfIdfVectorizer. The op table is in
 * onnx_ops.c.
 */
#define OA_LOG_MODULE "GE"
#include <string.h>

#include "base/util.h"
#include "onnx/onnx_internal.h"

/* GatherND: GatherNd with batch_dims. */
oa_status oa_onnx_op_gather_nd(onnx_node_ctx *c)
{
    int64_t b;
    oa_node *n;
    oa_status st = oa_onnx_attr_int(c, "batch_dims", 0, &b);
    if (st == OA_OK) {
        st = oa_onnx_direct_then(c, &n);
    }
    return st == OA_OK ? oa_node_set_int(n, "batch_dims", b) : st;
}

/* ScatterND -> TensorScatterUpdate, ScatterElements / Scatter -> ScatterElements; reduction (opset 16). */
oa_status oa_onnx_op_scatter(onnx_node_ctx *c)
{
    const char *red = "none";
    int64_t axis = 0;
    oa_node *n;
    oa_status st = OA_OK;
    if (oa_onnx_attr(c, "reduction") != NULL) {
        st = oa_onnx_attr_str(c, "reduction", "none", &red);
    }
    if (st == OA_OK && strcmp(red, "none") != 0 && strcmp(red, "add") != 0 && strcmp(red, "mul") != 0 &&
        strcmp(red, "max") != 0 && strcmp(red, "min") != 0) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "reduction %s is not supported", red);
    }
    if (st == OA_OK) {
        st = oa_onnx_attr_int(c, "axis", 0, &axis);
    }
    if (st == OA_OK) {
        st = oa_onnx_direct_then(c, &n);
    }
    if (st == OA_OK && c->ge_type == OA_OP_SCATTER_ELEMENTS) {
        st = oa_node_set_int(n, "axis", axis);
    }
    return st == OA_OK ? oa_node_set_str(n, "reduction", red) : st;
}

/* OneHot(indices, depth, values [off, on]) -> OneHot(x, depth, on_value, off_value) with two Gathers. */
oa_status oa_onnx_op_one_hot(onnx_node_ctx *c)
{
    int64_t axis;
    oa_status st = oa_onnx_attr_int(c, "axis", -1, &axis);
    if (st != OA_OK) {
        return st;
    }
    if (!oa_onnx_has_input(c, 0) || !oa_onnx_has_input(c, 1) || !oa_onnx_has_input(c, 2)) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "needs indices, depth and values");
    }
    static const int64_t one = 1, zero = 0;
    oa_node *k_on, *k_off, *k_ax, *on, *off, *n;
    if ((st = oa_onnx_const_i32(c, "on_index", &one, 1, true, &k_on)) != OA_OK ||
        (st = oa_onnx_const_i32(c, "off_index", &zero, 1, true, &k_off)) != OA_OK ||
        (st = oa_onnx_const_i32(c, "values_axis", &zero, 1, true, &k_ax)) != OA_OK ||
        (st = oa_onnx_emit(c, OA_OP_GATHER_V2, "on_value", 3, 1, &on)) != OA_OK ||
        (st = oa_onnx_connect_input(c, on, 0, 2)) != OA_OK || (st = oa_onnx_connect(on, 1, k_on, 0)) != OA_OK ||
        (st = oa_onnx_connect(on, 2, k_ax, 0)) != OA_OK ||
        (st = oa_onnx_emit(c, OA_OP_GATHER_V2, "off_value", 3, 1, &off)) != OA_OK ||
        (st = oa_onnx_connect_input(c, off, 0, 2)) != OA_OK || (st = oa_onnx_connect(off, 1, k_off, 0)) != OA_OK ||
        (st = oa_onnx_connect(off, 2, k_ax, 0)) != OA_OK ||
        (st = oa_onnx_emit(c, OA_OP_ONE_HOT, "one_hot", 4, 1, &n)) != OA_OK ||
        (st = oa_onnx_connect_input(c, n, 0, 0)) != OA_OK || (st = oa_onnx_connect_input(c, n, 1, 1)) != OA_OK ||
        (st = oa_onnx_connect(n, 2, on, 0)) != OA_OK || (st = oa_onnx_connect(n, 3, off, 0)) != OA_OK ||
        (st = oa_node_set_int(n, "axis", axis)) != OA_OK) {
        return st;
    }
    return oa_onnx_bind_output(c, 0, n, 0);
}

/* EyeLike: k, dtype (ONNX enum, default the input's). */
oa_status oa_onnx_op_eye_like(onnx_node_ctx *c)
{
    int64_t k, dt_onnx;
    oa_node *n;
    oa_status st = oa_onnx_attr_int(c, "k", 0, &k);
    if (st == OA_OK) {
        st = oa_onnx_attr_int(c, "dtype", 0, &dt_onnx);
    }
    oa_dtype dt = OA_DT_UNDEFINED;
    if (st == OA_OK && oa_onnx_attr(c, "dtype") != NULL && !oa_onnx_dtype_to_ge((int)dt_onnx, &dt)) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "dtype %lld is not supported", (long long)dt_onnx);
    }
    if (st == OA_OK) {
        st = oa_onnx_direct_then(c, &n);
    }
    if (st == OA_OK && dt != OA_DT_UNDEFINED) {
        st = oa_node_set_dtype(n, "dtype", dt);
    }
    return st == OA_OK ? oa_node_set_int(n, "k", k) : st;
}

/* CumSum -> Cumsum (x, axis) with exclusive, reverse. */
oa_status oa_onnx_op_cumsum(onnx_node_ctx *c)
{
    int64_t ex, rev;
    oa_node *n;
    oa_status st = oa_onnx_attr_int(c, "exclusive", 0, &ex);
    if (st == OA_OK) {
        st = oa_onnx_attr_int(c, "reverse", 0, &rev);
    }
    if (st == OA_OK) {
        st = oa_onnx_direct_then(c, &n);
    }
    if (st == OA_OK) {
        st = oa_node_set_bool(n, "exclusive", ex != 0);
    }
    return st == OA_OK ? oa_node_set_bool(n, "reverse", rev != 0) : st;
}

/* ReverseSequence: time_axis -> seq_dim, batch_axis -> batch_dim. */
oa_status oa_onnx_op_reverse_sequence(onnx_node_ctx *c)
{
    int64_t t, b;
    oa_node *n;
    oa_status st = oa_onnx_attr_int(c, "time_axis", 0, &t);
    if (st == OA_OK) {
        st = oa_onnx_attr_int(c, "batch_axis", 1, &b);
    }
    if (st == OA_OK && !((t == 0 && b == 1) || (t == 1 && b == 0))) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "time_axis %lld and batch_axis %lld must be 0 and 1", (long long)t,
                         (long long)b);
    }
    if (st == OA_OK) {
        st = oa_onnx_direct_then(c, &n);
    }
    if (st == OA_OK) {
        st = oa_node_set_int(n, "seq_dim", t);
    }
    return st == OA_OK ? oa_node_set_int(n, "batch_dim", b) : st;
}

/* Unique -> UniqueV3: axis (only when given), sorted. */
oa_status oa_onnx_op_unique(onnx_node_ctx *c)
{
    int64_t axis, sorted;
    oa_node *n;
    oa_status st = oa_onnx_attr_int(c, "axis", 0, &axis);
    if (st == OA_OK) {
        st = oa_onnx_attr_int(c, "sorted", 1, &sorted);
    }
    if (st == OA_OK) {
        st = oa_onnx_direct_then(c, &n);
    }
    if (st == OA_OK && oa_onnx_attr(c, "axis") != NULL) {
        st = oa_node_set_int(n, "axis", axis);
    }
    return st == OA_OK ? oa_node_set_bool(n, "sorted", sorted != 0) : st;
}

/* Compress(x, condition[, axis]): GatherV2(x (flattened without axis), Reshape(NonZero(condition), [-1]), axis). */
oa_status oa_onnx_op_compress(onnx_node_ctx *c)
{
    int64_t axis = 0;
    const bool has_axis = oa_onnx_attr(c, "axis") != NULL;
    oa_status st = oa_onnx_attr_int(c, "axis", 0, &axis);
    if (st != OA_OK) {
        return st;
    }
    if (!oa_onnx_has_input(c, 0) || !oa_onnx_has_input(c, 1)) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "needs input and condition");
    }
    static const int64_t flat = -1;
    oa_node *nz, *kflat, *idx, *x = NULL, *kax, *g;
    if ((st = oa_onnx_emit(c, OA_OP_NON_ZERO, "nonzero", 1, 1, &nz)) != OA_OK ||
        (st = oa_onnx_connect_input(c, nz, 0, 1)) != OA_OK ||
        (st = oa_onnx_const_i64(c, "flat", &flat, 1, false, &kflat)) != OA_OK ||
        (st = oa_onnx_emit(c, OA_OP_RESHAPE, "indices", 2, 1, &idx)) != OA_OK ||
        (st = oa_onnx_connect(idx, 0, nz, 0)) != OA_OK || (st = oa_onnx_connect(idx, 1, kflat, 0)) != OA_OK) {
        return st;
    }
    if (!has_axis) {
        if ((st = oa_onnx_emit(c, OA_OP_RESHAPE, "flatten", 2, 1, &x)) != OA_OK ||
            (st = oa_onnx_connect_input(c, x, 0, 0)) != OA_OK || (st = oa_onnx_connect(x, 1, kflat, 0)) != OA_OK) {
            return st;
        }
    }
    if ((st = oa_onnx_const_i32(c, "axis", &axis, 1, true, &kax)) != OA_OK ||
        (st = oa_onnx_emit(c, OA_OP_GATHER_V2, "gather", 3, 1, &g)) != OA_OK ||
        (st = x != NULL ? oa_onnx_connect(g, 0, x, 0) : oa_onnx_connect_input(c, g, 0, 0)) != OA_OK ||
        (st = oa_onnx_connect(g, 1, idx, 0)) != OA_OK || (st = oa_onnx_connect(g, 2, kax, 0)) != OA_OK) {
        return st;
    }
    return oa_onnx_bind_output(c, 0, g, 0);
}

/* TfIdfVectorizer: the integer pool, ngram_counts, ngram_indexes and weights become constant inputs. */
oa_status oa_onnx_op_tfidf(onnx_node_ctx *c)
{
    const char *mode;
    int64_t mn, mx, skip;
    const int64_t *pool = NULL, *counts = NULL, *indexes = NULL;
    const float *w = NULL;
    size_t np = 0, nc = 0, ni = 0, nw = 0;
    oa_status st;
    if ((st = oa_onnx_attr_str(c, "mode", "TF", &mode)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "min_gram_length", 1, &mn)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "max_gram_length", 1, &mx)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "max_skip_count", 0, &skip)) != OA_OK) {
        return st;
    }
    if (oa_onnx_attr(c, "pool_strings") != NULL) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "pool_strings (string tensors) is not supported");
    }
    if (strcmp(mode, "TF") != 0 && strcmp(mode, "IDF") != 0 && strcmp(mode, "TFIDF") != 0) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "mode %s is not TF/IDF/TFIDF", mode);
    }
    if ((st = oa_onnx_attr_ints(c, "pool_int64s", &pool, &np)) != OA_OK ||
        (st = oa_onnx_attr_ints(c, "ngram_counts", &counts, &nc)) != OA_OK ||
        (st = oa_onnx_attr_ints(c, "ngram_indexes", &indexes, &ni)) != OA_OK) {
        return st;
    }
    if (oa_onnx_attr(c, "weights") != NULL && (st = oa_onnx_attr_floats(c, "weights", &w, &nw)) != OA_OK) {
        return st;
    }
    oa_node *kp, *kc, *ki, *kw = NULL, *n;
    if ((st = oa_onnx_const_i64(c, "pool", pool, np, false, &kp)) != OA_OK ||
        (st = oa_onnx_const_i64(c, "ngram_counts", counts, nc, false, &kc)) != OA_OK ||
        (st = oa_onnx_const_i64(c, "ngram_indexes", indexes, ni, false, &ki)) != OA_OK ||
        (w != NULL && (st = oa_onnx_const_f32(c, "weights", w, nw, false, &kw)) != OA_OK)) {
        return st;
    }
    if ((st = oa_onnx_emit(c, OA_OP_TFIDF_VECTORIZER, "tfidf", 5, 1, &n)) != OA_OK ||
        (st = oa_onnx_connect_input(c, n, 0, 0)) != OA_OK || (st = oa_onnx_connect(n, 1, kp, 0)) != OA_OK ||
        (st = oa_onnx_connect(n, 2, kc, 0)) != OA_OK || (st = oa_onnx_connect(n, 3, ki, 0)) != OA_OK ||
        (kw != NULL && (st = oa_onnx_connect(n, 4, kw, 0)) != OA_OK) ||
        (st = oa_node_set_str(n, "mode", mode)) != OA_OK ||
        (st = oa_node_set_int(n, "min_gram_length", mn)) != OA_OK ||
        (st = oa_node_set_int(n, "max_gram_length", mx)) != OA_OK ||
        (st = oa_node_set_int(n, "max_skip_count", skip)) != OA_OK) {
        return st;
    }
    return oa_onnx_bind_output(c, 0, n, 0);
}

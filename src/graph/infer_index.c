/*
 * Inference of the indexing, scatter and data-dependent ops (op_defs.inc,
 * kernel family INDEX): GatherNd, TensorScatterUpdate / ScatterElements,
 * OneHot, EyeLike, Cumsum / ReverseSequence, NonZero, UniqueV3,
 * TfIdfVectorizer. The data-dependent dims (NonZero's count, UniqueV3's
 * unique count) are -1 with the range [0, bound], the upper bound a dynamic
 * executor allocates (src/model_v2/README.md "Data-dependent output shapes").
 */
#include <string.h>

#include "graph/infer_internal.h"

static oa_status need_int_indices(oa_infer_ctx *ctx, const oa_tensor_desc *idx)
{
    if (idx->dtype != OA_DT_INT32 && idx->dtype != OA_DT_INT64) {
        return IFAIL(ctx, OA_E_GE_DATATYPE, "indices must be int32/int64, got %s", oa_dtype_name(idx->dtype));
    }
    return OA_OK;
}

/* GatherNd: y = indices.shape[:-1] + x.shape[batch_dims + q:], q = indices.shape[-1]. */
oa_status oa_infer_gather_nd(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 2);
    if (st != OA_OK || (st = need_int_indices(ctx, ctx->in[1])) != OA_OK) {
        return st;
    }
    oa_ishape s = oa_ishape_of(ctx->in[0]), si = oa_ishape_of(ctx->in[1]);
    const int64_t b = oa_node_attr_int(ctx->node, "batch_dims", 0);
    if (s.rank < 0 || si.rank < 0 || !oa_iv_is_fixed(si.d[si.rank > 0 ? si.rank - 1 : 0])) {
        oa_ishape u = oa_ishape_unknown();
        oa_infer_set_out(ctx, 0, ctx->in[0]->dtype, &u);
        return OA_OK;
    }
    const int64_t q = si.rank > 0 ? si.d[si.rank - 1].lo : 0;
    if (si.rank < 1 || b < 0 || b >= si.rank || q < 1 || b + q > s.rank) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "indices of rank %d with tuples of %lld do not fit x of rank %d "
                     "(batch_dims %lld)", si.rank, (long long)q, s.rank, (long long)b);
    }
    const int32_t r = si.rank - 1 + s.rank - (int32_t)(b + q);
    if (r > OA_MAX_RANK) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "result rank %d exceeds %d", r, OA_MAX_RANK);
    }
    oa_ishape o = oa_ishape_any(0);
    o.ranged = s.ranged || si.ranged;
    for (int32_t i = 0; i < si.rank - 1; i++) {
        o.d[o.rank++] = si.d[i];
    }
    for (int32_t i = (int32_t)(b + q); i < s.rank; i++) {
        o.d[o.rank++] = s.d[i];
    }
    oa_infer_set_out(ctx, 0, ctx->in[0]->dtype, &o);
    return OA_OK;
}

/* TensorScatterUpdate / ScatterElements: y is x (data) in shape and dtype; updates of x's dtype. */
oa_status oa_infer_scatter_like(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 3);
    if (st != OA_OK || (st = need_int_indices(ctx, ctx->in[1])) != OA_OK) {
        return st;
    }
    if (ctx->in[2]->dtype != ctx->in[0]->dtype) {
        return IFAIL(ctx, OA_E_GE_DATATYPE, "updates (%s) and data (%s) differ", oa_dtype_name(ctx->in[2]->dtype),
                     oa_dtype_name(ctx->in[0]->dtype));
    }
    const char *red = oa_node_attr_str(ctx->node, "reduction", "none");
    if (strcmp(red, "none") != 0 && strcmp(red, "add") != 0 && strcmp(red, "mul") != 0 && strcmp(red, "max") != 0 &&
        strcmp(red, "min") != 0) {
        return IFAIL(ctx, OA_E_GE_PARAM, "reduction %s is not none/add/mul/max/min", red);
    }
    oa_ishape s = oa_ishape_of(ctx->in[0]);
    oa_infer_set_out(ctx, 0, ctx->in[0]->dtype, &s);
    return OA_OK;
}

/* OneHot: x's dims with depth inserted at axis; y of on_value's dtype. */
oa_status oa_infer_one_hot(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 4);
    if (st != OA_OK) {
        return st;
    }
    oa_ishape s = oa_ishape_of(ctx->in[0]);
    const oa_dtype dt = ctx->in[2]->dtype;
    if (s.rank < 0) {
        oa_ishape u = oa_ishape_unknown();
        oa_infer_set_out(ctx, 0, dt, &u);
        return OA_OK;
    }
    if (s.rank + 1 > OA_MAX_RANK) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "indices of rank %d", s.rank);
    }
    int32_t ax;
    if ((st = oa_infer_axis(ctx, oa_node_attr_int(ctx->node, "axis", -1), s.rank + 1, "axis", &ax)) != OA_OK) {
        return st;
    }
    oa_iv depth = oa_iv_any();
    const oa_value *v = ctx->in[1]->value;
    if (v != NULL && v->count == 1 && oa_value_all_known(v)) {
        const double d = oa_value_get_f(v, 0);
        if (!(d >= 1 && d < 9.0e15)) {
            return IFAIL(ctx, OA_E_GE_PARAM, "depth %g must be >= 1", d);
        }
        depth = oa_iv_fixed((int64_t)d);
    }
    oa_ishape o = oa_ishape_any(s.rank + 1);
    o.ranged = s.ranged;
    for (int32_t i = 0, k = 0; i <= s.rank; i++) {
        o.d[i] = i == ax ? depth : s.d[k++];
    }
    oa_infer_set_out(ctx, 0, dt, &o);
    return OA_OK;
}

/* EyeLike: x's 2-D shape; dtype attr dtype, else x's. */
oa_status oa_infer_eye_like(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 1);
    if (st != OA_OK) {
        return st;
    }
    oa_ishape s = oa_ishape_of(ctx->in[0]);
    if (s.rank >= 0 && s.rank != 2) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "x must be 2-D, has rank %d", s.rank);
    }
    oa_dtype dt = ctx->in[0]->dtype;
    (void)oa_attrs_get_dtype(&ctx->node->attrs, "dtype", &dt);
    oa_infer_set_out(ctx, 0, dt, &s);
    return OA_OK;
}

/* Cumsum, ReverseSequence: y is x. */
oa_status oa_infer_same_as_x(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 2);
    if (st != OA_OK) {
        return st;
    }
    if (ctx->node->type == OA_OP_REVERSE_SEQUENCE && (st = need_int_indices(ctx, ctx->in[1])) != OA_OK) {
        return st;
    }
    oa_ishape s = oa_ishape_of(ctx->in[0]);
    oa_infer_set_out(ctx, 0, ctx->in[0]->dtype, &s);
    return OA_OK;
}

/* The number of elements of s as an interval (hi -1 when unbounded). */
static oa_iv numel_iv(const oa_ishape *s)
{
    oa_iv n = oa_iv_fixed(1);
    for (int32_t i = 0; i < s->rank; i++) {
        n = oa_iv_mul(n, s->d[i]);
    }
    return n;
}

/* A data-dependent count in [0, bound]. */
static oa_iv dds_dim(oa_iv bound)
{
    oa_iv d = {0, bound.hi};
    if (bound.hi == 0) {
        d.lo = 0;
    }
    return d;
}

/* NonZero: int64 [rank, count], count in [0, numel]. */
oa_status oa_infer_non_zero(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 1);
    if (st != OA_OK) {
        return st;
    }
    oa_ishape s = oa_ishape_of(ctx->in[0]);
    oa_ishape o = oa_ishape_any(2);
    if (s.rank >= 0) {
        o.d[0] = oa_iv_fixed(s.rank);
        o.d[1] = dds_dim(numel_iv(&s));
        o.ranged = true;
    }
    oa_infer_set_out(ctx, 0, OA_DT_INT64, &o);
    return OA_OK;
}

/* UniqueV3: y (x's dims with the axis dim, or flattened, data-dependent), indices and counts [count],
 * inverse_indices [x.shape[axis]] or [numel]. */
oa_status oa_infer_unique(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 1);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0];
    oa_ishape s = oa_ishape_of(x);
    int64_t axis = 0;
    const bool has_axis = oa_attrs_get_int(&ctx->node->attrs, "axis", &axis);
    oa_ishape y = oa_ishape_any(1), v = oa_ishape_any(1), inv = oa_ishape_any(1);
    if (s.rank >= 0) {
        oa_iv len = numel_iv(&s);
        if (has_axis) {
            int32_t ax;
            if ((st = oa_infer_axis(ctx, axis, s.rank, "axis", &ax)) != OA_OK) {
                return st;
            }
            len = s.d[ax];
            y = s;
            y.d[ax] = dds_dim(len);
        } else {
            y.d[0] = dds_dim(len);
        }
        y.ranged = v.ranged = true;
        v.d[0] = dds_dim(len);
        inv.d[0] = len;
        inv.ranged = s.ranged;
    }
    oa_infer_set_out(ctx, 0, x->dtype, &y);
    for (uint32_t k = 1; k < ctx->num_out && k < 4; k++) {
        oa_infer_set_out(ctx, k, OA_DT_INT64, k == 2 ? &inv : &v);
    }
    return OA_OK;
}

/* TfIdfVectorizer: float [N, size] or [size], size = max(ngram_indexes) + 1 (a constant input). */
oa_status oa_infer_tfidf(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 4);
    if (st != OA_OK || (st = need_int_indices(ctx, ctx->in[0])) != OA_OK) {
        return st;
    }
    oa_ishape s = oa_ishape_of(ctx->in[0]);
    if (s.rank >= 0 && s.rank != 1 && s.rank != 2) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "x must have rank 1 or 2, has %d", s.rank);
    }
    oa_iv size = oa_iv_any();
    const oa_value *v = ctx->in[3]->value;
    if (v != NULL && v->count > 0 && v->i != NULL && oa_value_all_known(v)) {
        int64_t mx = -1;
        for (int64_t k = 0; k < v->count; k++) {
            mx = v->i[k] > mx ? v->i[k] : mx;
        }
        size = oa_iv_fixed(mx + 1);
    }
    oa_ishape o = oa_ishape_any(s.rank == 2 ? 2 : 1);
    if (s.rank == 2) {
        o.d[0] = s.d[0];
    }
    o.d[o.rank - 1] = size;
    oa_infer_set_out(ctx, 0, OA_DT_FLOAT, &o);
    return OA_OK;
}

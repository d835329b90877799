/*
 * Inference of reductions (ReduceSum/Mean/Max/Min/Prod and their D
 * variants), arg-reductions (ArgMaxV2, ArgMin, ArgMaxD) and TopK.
 *
 *   ReduceMean(x [2,3,4], axes [1]):  keep_dims=false -> [2,4]
 *                                     keep_dims=true  -> [2,1,4]
 *   Empty axes: noop_with_empty_axes=true -> identity, false -> reduce all.
 */
#define OA_LOG_MODULE "GE"
#include <string.h>

#include "base/util.h"
#include "graph/infer_internal.h"

static bool is_d_variant(oa_op_type t)
{
    return t == OA_OP_REDUCE_SUM_D || t == OA_OP_REDUCE_MEAN_D || t == OA_OP_REDUCE_MAX_D;
}

/* Folds a full reduction of a known value into a scalar/keep-dims value. */
static oa_status fold_all(oa_infer_ctx *ctx, const oa_value *x)
{
    oa_tensor_desc *o = ctx->out[0];
    int64_t n;
    if (x == NULL || !oa_value_all_known(x) || !oa_shape_numel(&o->shape, &n) || n != 1 || x->count == 0) {
        return OA_OK;
    }
    oa_status st;
    oa_value *v = oa_infer_new_value(ctx, o->dtype, 1, &st);
    if (v == NULL) {
        return st;
    }
    oa_op_type t = ctx->node->type;
    if (x->f) {
        double acc = x->f[0];
        for (int64_t k = 1; k < x->count; k++) {
            double e = x->f[k];
            switch (t) {
            case OA_OP_REDUCE_PROD: acc *= e; break;
            case OA_OP_REDUCE_MAX:
            case OA_OP_REDUCE_MAX_D: acc = e > acc ? e : acc; break;
            case OA_OP_REDUCE_MIN: acc = e < acc ? e : acc; break;
            default: acc += e; break;
            }
        }
        if (t == OA_OP_REDUCE_MEAN || t == OA_OP_REDUCE_MEAN_D) {
            acc /= (double)x->count;
        }
        oa_value_put(v, 0, acc, 0, true);
    } else {
        uint64_t acc = (uint64_t)x->i[0];
        int64_t best = x->i[0];
        for (int64_t k = 1; k < x->count; k++) {
            int64_t e = x->i[k];
            switch (t) {
            case OA_OP_REDUCE_PROD: acc *= (uint64_t)e; break;
            case OA_OP_REDUCE_MAX:
            case OA_OP_REDUCE_MAX_D: best = e > best ? e : best; break;
            case OA_OP_REDUCE_MIN: best = e < best ? e : best; break;
            default: acc += (uint64_t)e; break;
            }
        }
        int64_t r;
        if (t == OA_OP_REDUCE_MAX || t == OA_OP_REDUCE_MAX_D || t == OA_OP_REDUCE_MIN) {
            r = best;
        } else if (t == OA_OP_REDUCE_MEAN || t == OA_OP_REDUCE_MEAN_D) {
            r = (int64_t)acc / x->count;
        } else {
            r = (int64_t)acc;
        }
        oa_value_put(v, 0, 0, r, false);
    }
    o->value = v;
    return OA_OK;
}

oa_status oa_infer_reduce(oa_infer_ctx *ctx)
{
    oa_op_type t = ctx->node->type;
    bool dvar = is_d_variant(t);
    oa_status st = oa_infer_need_inputs(ctx, dvar ? 1 : 2);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0];
    oa_ishape s = oa_ishape_of(x);
    bool keep = oa_node_attr_bool(ctx->node, "keep_dims", false);
    bool noop = oa_node_attr_bool(ctx->node, "noop_with_empty_axes", !dvar);
    int64_t axes[OA_MAX_RANK * 2];
    size_t na = 0;
    bool known;
    if (dvar) {
        const int64_t *v;
        known = oa_attrs_get_list_int(&ctx->node->attrs, "axes", &v, &na);
        if (!known) {
            return IFAIL(ctx, OA_E_GE_PARAM, "misses required attr axes");
        }
        if (na > OA_ARRAY_SIZE(axes)) {
            return IFAIL(ctx, OA_E_GE_PARAM, "has %zu axes", na);
        }
        memcpy(axes, v, na * sizeof(*axes));
    } else {
        known = oa_infer_in_ints(ctx, 1, axes, OA_ARRAY_SIZE(axes), &na);
    }
    if (!known || s.rank < 0) {
        /* Axes unknown: the rank is known only with keep_dims, or from the
         * static length of the axes input. */
        oa_ishape o = oa_ishape_unknown();
        const oa_tensor_desc *ad = oa_infer_in(ctx, 1);
        if (s.rank >= 0 && keep) {
            o = oa_ishape_any(s.rank);
        } else if (s.rank >= 0 && ad && ad->shape.rank == 1 && ad->shape.dims[0] > 0 &&
                   ad->shape.dims[0] <= s.rank) {
            o = oa_ishape_any(s.rank - (int32_t)ad->shape.dims[0]);
        }
        oa_infer_set_out(ctx, 0, x->dtype, &o);
        return OA_OK;
    }
    bool red[OA_MAX_RANK] = {false};
    if (na == 0) {
        for (int32_t i = 0; i < s.rank; i++) {
            red[i] = !noop;
        }
    }
    for (size_t i = 0; i < na; i++) {
        int32_t a;
        if ((st = oa_infer_axis(ctx, axes[i], s.rank, "axis", &a)) != OA_OK) {
            return st;
        }
        red[a] = true;
    }
    oa_ishape o = s;
    o.rank = 0;
    bool all = true;
    for (int32_t i = 0; i < s.rank; i++) {
        all = all && red[i];
        if (!red[i]) {
            o.d[o.rank++] = s.d[i];
        } else if (keep) {
            o.d[o.rank++] = oa_iv_fixed(1);
        }
    }
    oa_infer_set_out(ctx, 0, x->dtype, &o);
    if (all || s.rank <= 1) {
        return fold_all(ctx, x->value);
    }
    return OA_OK;
}

oa_status oa_infer_arg_reduce(oa_infer_ctx *ctx)
{
    bool dvar = ctx->node->type == OA_OP_ARG_MAX_D;
    oa_status st = oa_infer_need_inputs(ctx, dvar ? 1 : 2);
    if (st != OA_OK) {
        return st;
    }
    oa_ishape s = oa_ishape_of(ctx->in[0]);
    oa_dtype dt = OA_DT_INT64;
    int64_t dtv;
    if (oa_attrs_get_int(&ctx->node->attrs, "dtype", &dtv)) {
        if (dtv != OA_DT_INT32 && dtv != OA_DT_INT64) {
            return IFAIL(ctx, OA_E_GE_DATATYPE, "dtype must be DT_INT32 or DT_INT64, got %lld", (long long)dtv);
        }
        dt = (oa_dtype)dtv;
    }
    int64_t dim;
    size_t n;
    bool known;
    if (dvar) {
        known = true;
        if ((st = oa_node_require_int(ctx->node, "dimension", &dim)) != OA_OK) {
            return st;
        }
    } else {
        known = oa_infer_in_ints(ctx, 1, &dim, 1, &n) && n == 1;
    }
    oa_ishape o;
    if (s.rank < 0) {
        o = oa_ishape_unknown();
    } else if (!known) {
        o = oa_ishape_any(s.rank > 0 ? s.rank - 1 : 0);
    } else {
        int32_t a;
        if ((st = oa_infer_axis(ctx, dim, s.rank, "dimension", &a)) != OA_OK) {
            return st;
        }
        o = s;
        o.rank = 0;
        for (int32_t i = 0; i < s.rank; i++) {
            if (i != a) {
                o.d[o.rank++] = s.d[i];
            }
        }
    }
    oa_infer_set_out(ctx, 0, dt, &o);
    return OA_OK;
}

oa_status oa_infer_topk(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 2);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0];
    oa_ishape s = oa_ishape_of(x);
    oa_dtype idt = OA_DT_INT32;
    if (ctx->node->type == OA_OP_TOP_K_V2) {
        int64_t v;
        if (oa_attrs_get_int(&ctx->node->attrs, "indices_dtype", &v)) {
            if (v != OA_DT_INT32 && v != OA_DT_INT64) {
                return IFAIL(ctx, OA_E_GE_DATATYPE, "indices_dtype must be DT_INT32 or DT_INT64");
            }
            idt = (oa_dtype)v;
        }
    }
    if (s.rank >= 0) {
        if (s.rank == 0) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "x must have rank >= 1");
        }
        int32_t a;
        if ((st = oa_infer_axis(ctx, oa_node_attr_int(ctx->node, "dim", -1), s.rank, "dim", &a)) != OA_OK) {
            return st;
        }
        int64_t k;
        size_t n;
        if (oa_infer_in_ints(ctx, 1, &k, 1, &n) && n == 1) {
            if (k < 0) {
                return IFAIL(ctx, OA_E_GE_SHAPE, "k must be >= 0, got %lld", (long long)k);
            }
            if (oa_iv_is_fixed(s.d[a]) && k > s.d[a].lo) {
                return IFAIL(ctx, OA_E_GE_SHAPE, "k %lld exceeds dim %d of size %lld", (long long)k, a,
                             (long long)s.d[a].lo);
            }
            s.d[a] = oa_iv_fixed(k);
        } else {
            s.d[a].lo = 0;
        }
    }
    oa_infer_set_out(ctx, 0, x->dtype, &s);
    oa_infer_set_out(ctx, 1, idt, &s);
    return OA_OK;
}

/*
 * Inference of shape-manipulating ops: Reshape, Flatten(V2),
 * Squeeze(V3), Unsqueeze(V3), ExpandDims, Transpose(D), Shape, Size, Fill,
 * Expand/BroadcastTo, Tile(D), Range and the Concat family. These carry
 * most of the value inference: Shape produces values, the rest pass them
 * through or combine them, and Reshape/Fill/Expand/Tile consume them.
 *
 *   x [1,3,48,320] --Shape--> {1,3,48,320} --Gather 0--> {1}
 *        --Unsqueeze--> {1} --Concat with {-1,120}--> {1,-1,120}
 *        --> Reshape(y, {1,-1,120}) = [1, numel/120, 120]
 */
#define OA_LOG_MODULE "GE"
#include <string.h>

#include "base/util.h"
#include "graph/infer_internal.h"

/* Output value = the input value unchanged (same elements, new shape). */
static void pass_value(oa_infer_ctx *ctx, const oa_tensor_desc *x)
{
    int64_t n;
    if (x->value && oa_shape_numel(&ctx->out[0]->shape, &n) && n == x->value->count) {
        ctx->out[0]->value = x->value;
    }
}

/* Known element count of an interval shape, or -1. */
static int64_t numel_of(const oa_ishape *s)
{
    if (!oa_ishape_is_static(s)) {
        return -1;
    }
    int64_t n = 1;
    for (int32_t i = 0; i < s->rank; i++) {
        if (!oa_mul_i64(n, s->d[i].lo, &n)) {
            return -1;
        }
    }
    return n;
}

oa_status oa_infer_reshape(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 2);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0], *sd = ctx->in[1];
    oa_ishape s = oa_ishape_of(x);
    const oa_value *tv = sd->value;
    bool allowzero = oa_node_attr_int(ctx->node, "allowzero", 0) != 0;
    int64_t axis = oa_node_attr_int(ctx->node, "axis", 0);
    int64_t num_axes = oa_node_attr_int(ctx->node, "num_axes", -1);
    if (tv == NULL || tv->count > OA_MAX_RANK) {
        if (sd->shape.rank == 1 && sd->shape.dims[0] >= 0 && sd->shape.dims[0] <= OA_MAX_RANK && axis == 0 &&
            num_axes == -1) {
            oa_ishape o = oa_ishape_any((int32_t)sd->shape.dims[0]);
            oa_infer_set_out(ctx, 0, x->dtype, &o);
        } else if (sd->shape.rank == 1 && sd->shape.dims[0] > OA_MAX_RANK) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "target rank %lld exceeds %d", (long long)sd->shape.dims[0],
                         OA_MAX_RANK);
        } else {
            oa_ishape o = oa_ishape_unknown();
            oa_infer_set_out(ctx, 0, x->dtype, &o);
        }
        return OA_OK;
    }
    if (axis != 0 || num_axes != -1) {
        /* Partial reshape of dims [axis, axis+num_axes): splice. */
        if (s.rank < 0) {
            oa_ishape o = oa_ishape_unknown();
            oa_infer_set_out(ctx, 0, x->dtype, &o);
            return OA_OK;
        }
        int32_t a;
        if ((st = oa_infer_axis(ctx, axis, s.rank + 1, "axis", &a)) != OA_OK) {
            return st;
        }
        int32_t end = num_axes < 0 ? s.rank : a + (int32_t)num_axes;
        if (end > s.rank || end < a) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "num_axes %lld is out of range", (long long)num_axes);
        }
        oa_ishape o = oa_ishape_any(0);
        if (s.rank - (end - a) + tv->count > OA_MAX_RANK) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "result rank exceeds %d", OA_MAX_RANK);
        }
        for (int32_t i = 0; i < a; i++) {
            o.d[o.rank++] = s.d[i];
        }
        for (int64_t k = 0; k < tv->count; k++) {
            int64_t v = oa_value_known(tv, k) ? oa_value_get_i(tv, k) : -1;
            o.d[o.rank++] = v >= 0 ? oa_iv_fixed(v) : oa_iv_any();
        }
        for (int32_t i = end; i < s.rank; i++) {
            o.d[o.rank++] = s.d[i];
        }
        oa_infer_set_out(ctx, 0, x->dtype, &o);
        return OA_OK;
    }
    oa_ishape o = oa_ishape_any((int32_t)tv->count);
    o.ranged = s.ranged;
    int32_t infer_at = -1;
    bool others_known = true;
    int64_t prod = 1;
    for (int32_t i = 0; i < o.rank; i++) {
        if (!oa_value_known(tv, i)) {
            others_known = false;
            continue;
        }
        int64_t v = oa_value_get_i(tv, i);
        if (v == -1) {
            if (infer_at >= 0) {
                return IFAIL(ctx, OA_E_GE_SHAPE, "target shape has more than one -1");
            }
            infer_at = i;
            continue;
        }
        if (v < -1) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "target dim %d is %lld", i, (long long)v);
        }
        if (v == 0 && !allowzero) {
            if (s.rank >= 0 && i >= s.rank) {
                return IFAIL(ctx, OA_E_GE_SHAPE, "target dim %d copies a dim the input (rank %d) lacks", i, s.rank);
            }
            o.d[i] = s.rank >= 0 ? s.d[i] : oa_iv_any();
        } else {
            o.d[i] = oa_iv_fixed(v);
        }
        if (oa_iv_is_fixed(o.d[i])) {
            if (!oa_mul_i64(prod, o.d[i].lo, &prod)) {
                return IFAIL(ctx, OA_E_GE_SHAPE, "target shape overflows");
            }
        } else {
            others_known = false;
        }
    }
    int64_t total = numel_of(&s);
    if (infer_at >= 0) {
        if (others_known && total >= 0) {
            if (prod == 0 || total % prod != 0) {
                return IFAIL(ctx, OA_E_GE_SHAPE, "cannot reshape %lld elements with %lld per -1 slot",
                             (long long)total, (long long)prod);
            }
            o.d[infer_at] = oa_iv_fixed(total / prod);
        } else {
            o.d[infer_at] = oa_iv_any();
        }
    } else if (others_known && total >= 0 && total != prod) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "cannot reshape %lld elements into %lld", (long long)total,
                     (long long)prod);
    }
    oa_infer_set_out(ctx, 0, x->dtype, &o);
    pass_value(ctx, x);
    return OA_OK;
}

oa_status oa_infer_flatten(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 1);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0];
    oa_ishape s = oa_ishape_of(x);
    if (s.rank < 0) {
        oa_ishape o = ctx->node->type == OA_OP_FLATTEN ? oa_ishape_any(2) : oa_ishape_unknown();
        oa_infer_set_out(ctx, 0, x->dtype, &o);
        return OA_OK;
    }
    int64_t axis = oa_node_attr_int(ctx->node, "axis", 1);
    int32_t a, e;
    oa_ishape o = oa_ishape_any(0);
    o.ranged = s.ranged;
    if (ctx->node->type == OA_OP_FLATTEN) {
        /* axis in [-r, r]; a negative one counts from the rank r (not r + 1) */
        if (axis < -(int64_t)s.rank) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "axis %lld is out of range for rank %d", (long long)axis, s.rank);
        }
        if (axis < 0) {
            axis += s.rank;
        }
        if ((st = oa_infer_axis(ctx, axis, s.rank + 1, "axis", &a)) != OA_OK) {
            return st;
        }
        oa_iv l = oa_iv_fixed(1), r = oa_iv_fixed(1);
        for (int32_t i = 0; i < s.rank; i++) {
            if (i < a) {
                l = oa_iv_mul(l, s.d[i]);
            } else {
                r = oa_iv_mul(r, s.d[i]);
            }
        }
        o.rank = 2;
        o.d[0] = l;
        o.d[1] = r;
    } else {
        int32_t rr = s.rank == 0 ? 1 : s.rank;
        if ((st = oa_infer_axis(ctx, axis, rr, "axis", &a)) != OA_OK ||
            (st = oa_infer_axis(ctx, oa_node_attr_int(ctx->node, "end_axis", -1), rr, "end_axis", &e)) != OA_OK) {
            return st;
        }
        if (e < a) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "end_axis %d < axis %d", e, a);
        }
        oa_iv m = oa_iv_fixed(1);
        for (int32_t i = 0; i < s.rank; i++) {
            if (i < a || i > e) {
                o.d[o.rank++] = s.d[i];
            } else {
                m = oa_iv_mul(m, s.d[i]);
                if (i == e) {
                    o.d[o.rank++] = m;
                }
            }
        }
    }
    oa_infer_set_out(ctx, 0, x->dtype, &o);
    pass_value(ctx, x);
    return OA_OK;
}

oa_status oa_infer_squeeze(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 1);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0];
    oa_ishape s = oa_ishape_of(x);
    int64_t axes[OA_MAX_RANK * 2];
    size_t na = 0;
    bool known = true;
    if (ctx->node->type == OA_OP_SQUEEZE) {
        const int64_t *v;
        if (oa_attrs_get_list_int(&ctx->node->attrs, "axis", &v, &na)) {
            if (na > OA_ARRAY_SIZE(axes)) {
                return IFAIL(ctx, OA_E_GE_PARAM, "has %zu axes", na);
            }
            memcpy(axes, v, na * sizeof(*axes));
        }
    } else if (oa_infer_in(ctx, 1) != NULL) {
        known = oa_infer_in_ints(ctx, 1, axes, OA_ARRAY_SIZE(axes), &na);
    }
    oa_ishape o;
    if (s.rank < 0 || !known) {
        o = oa_ishape_unknown();
    } else {
        bool drop[OA_MAX_RANK] = {false};
        if (na == 0) {
            for (int32_t i = 0; i < s.rank; i++) {
                if (!oa_iv_is_fixed(s.d[i])) {
                    oa_ishape u = oa_ishape_unknown();
                    oa_infer_set_out(ctx, 0, x->dtype, &u);
                    return OA_OK; /* cannot tell which dims are 1 */
                }
                drop[i] = s.d[i].lo == 1;
            }
        }
        for (size_t i = 0; i < na; i++) {
            int32_t a;
            if ((st = oa_infer_axis(ctx, axes[i], s.rank, "axis", &a)) != OA_OK) {
                return st;
            }
            if (oa_iv_is_fixed(s.d[a]) && s.d[a].lo != 1) {
                return IFAIL(ctx, OA_E_GE_SHAPE, "cannot squeeze dim %d of size %lld", a, (long long)s.d[a].lo);
            }
            drop[a] = true;
        }
        o = s;
        o.rank = 0;
        for (int32_t i = 0; i < s.rank; i++) {
            if (!drop[i]) {
                o.d[o.rank++] = s.d[i];
            }
        }
    }
    oa_infer_set_out(ctx, 0, x->dtype, &o);
    pass_value(ctx, x);
    return OA_OK;
}

oa_status oa_infer_unsqueeze(oa_infer_ctx *ctx)
{
    oa_op_type t = ctx->node->type;
    oa_status st = oa_infer_need_inputs(ctx, t == OA_OP_UNSQUEEZE ? 1 : 2);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0];
    oa_ishape s = oa_ishape_of(x);
    int64_t axes[OA_MAX_RANK * 2];
    size_t na = 0;
    bool known;
    if (t == OA_OP_UNSQUEEZE) {
        const int64_t *v;
        known = oa_attrs_get_list_int(&ctx->node->attrs, "axes", &v, &na);
        if (!known) {
            return IFAIL(ctx, OA_E_GE_PARAM, "misses attr axes");
        }
        if (na > OA_ARRAY_SIZE(axes)) {
            return IFAIL(ctx, OA_E_GE_PARAM, "has %zu axes", na);
        }
        memcpy(axes, v, na * sizeof(*axes));
    } else {
        known = oa_infer_in_ints(ctx, 1, axes, OA_ARRAY_SIZE(axes), &na);
        if (known && t == OA_OP_EXPAND_DIMS && na != 1) {
            return IFAIL(ctx, OA_E_GE_PARAM, "axis must hold one value, has %zu", na);
        }
    }
    oa_ishape o;
    if (s.rank < 0) {
        o = oa_ishape_unknown();
    } else if (!known) {
        const oa_tensor_desc *ad = oa_infer_in(ctx, 1);
        int64_t cnt = -1;
        if (t == OA_OP_EXPAND_DIMS) {
            cnt = 1;
        } else if (ad && ad->shape.rank == 1 && ad->shape.dims[0] >= 0) {
            cnt = ad->shape.dims[0];
        } else if (ad && ad->shape.rank == 0) {
            cnt = 1;
        }
        o = (cnt >= 0 && s.rank + cnt <= OA_MAX_RANK) ? oa_ishape_any(s.rank + (int32_t)cnt) : oa_ishape_unknown();
    } else {
        int32_t r = s.rank + (int32_t)na;
        if (r > OA_MAX_RANK) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "result rank %d exceeds %d", r, OA_MAX_RANK);
        }
        bool ins[OA_MAX_RANK] = {false};
        for (size_t i = 0; i < na; i++) {
            int32_t a;
            if ((st = oa_infer_axis(ctx, axes[i], r, "axis", &a)) != OA_OK) {
                return st;
            }
            if (ins[a]) {
                return IFAIL(ctx, OA_E_GE_PARAM, "axis %d is repeated", a);
            }
            ins[a] = true;
        }
        o = s;
        o.rank = r;
        int32_t src = 0;
        for (int32_t i = 0; i < r; i++) {
            o.d[i] = ins[i] ? oa_iv_fixed(1) : s.d[src++];
        }
    }
    oa_infer_set_out(ctx, 0, x->dtype, &o);
    pass_value(ctx, x);
    return OA_OK;
}

oa_status oa_infer_transpose(oa_infer_ctx *ctx)
{
    bool dvar = ctx->node->type == OA_OP_TRANSPOSE_D;
    oa_status st = oa_infer_need_inputs(ctx, dvar ? 1 : 2);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0];
    oa_ishape s = oa_ishape_of(x);
    int64_t perm[OA_MAX_RANK];
    size_t np = 0;
    bool known;
    if (dvar) {
        const int64_t *v;
        known = oa_attrs_get_list_int(&ctx->node->attrs, "perm", &v, &np);
        if (!known) {
            return IFAIL(ctx, OA_E_GE_PARAM, "misses attr perm");
        }
        if (np > OA_MAX_RANK) {
            return IFAIL(ctx, OA_E_GE_PARAM, "perm has %zu entries", np);
        }
        memcpy(perm, v, np * sizeof(*perm));
    } else {
        known = oa_infer_in_ints(ctx, 1, perm, OA_MAX_RANK, &np);
    }
    if (s.rank < 0 || !known) {
        oa_ishape o = s.rank < 0 ? oa_ishape_unknown() : oa_ishape_any(s.rank);
        oa_infer_set_out(ctx, 0, x->dtype, &o);
        return OA_OK;
    }
    if ((int32_t)np != s.rank) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "perm has %zu entries for rank %d", np, s.rank);
    }
    bool used[OA_MAX_RANK] = {false};
    oa_ishape o = s;
    for (int32_t i = 0; i < s.rank; i++) {
        int32_t p;
        if ((st = oa_infer_axis(ctx, perm[i], s.rank, "perm entry", &p)) != OA_OK) {
            return st;
        }
        if (used[p]) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "perm repeats axis %d", p);
        }
        used[p] = true;
        o.d[i] = s.d[p];
    }
    oa_infer_set_out(ctx, 0, x->dtype, &o);
    /* Values: permute elements (small tensors only). */
    const oa_value *xv = x->value;
    int64_t n;
    if (xv && oa_shape_numel(&ctx->out[0]->shape, &n) && n == xv->count) {
        oa_value *v = oa_infer_new_value(ctx, x->dtype, n, &st);
        if (v == NULL) {
            return st;
        }
        int64_t istride[OA_MAX_RANK];
        int64_t acc = 1;
        for (int32_t i = s.rank - 1; i >= 0; i--) {
            istride[i] = acc;
            acc *= x->shape.dims[i];
        }
        for (int64_t k = 0; k < n; k++) {
            int64_t rem = k, src = 0;
            for (int32_t i = s.rank - 1; i >= 0; i--) {
                int64_t d = ctx->out[0]->shape.dims[i];
                int64_t c = d > 0 ? rem % d : 0;
                rem = d > 0 ? rem / d : 0;
                src += c * istride[perm[i] < 0 ? perm[i] + s.rank : perm[i]];
            }
            if (!oa_value_known(xv, src)) {
                if ((st = oa_infer_value_set_unknown(ctx, v, k)) != OA_OK) {
                    return st;
                }
            } else if (xv->f) {
                oa_value_put(v, k, xv->f[src], 0, true);
            } else {
                oa_value_put(v, k, 0, xv->i[src], false);
            }
        }
        ctx->out[0]->value = v;
    }
    return OA_OK;
}

static oa_status index_dtype_attr(oa_infer_ctx *ctx, oa_dtype *dt)
{
    int64_t v;
    *dt = OA_DT_INT32; /* IR default */
    if (oa_attrs_get_int(&ctx->node->attrs, "dtype", &v)) {
        if (v != OA_DT_INT32 && v != OA_DT_INT64) {
            return IFAIL(ctx, OA_E_GE_DATATYPE, "dtype must be DT_INT32 or DT_INT64, got %lld", (long long)v);
        }
        *dt = (oa_dtype)v;
    }
    return OA_OK;
}

oa_status oa_infer_shape(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 1);
    if (st != OA_OK) {
        return st;
    }
    oa_dtype dt;
    if ((st = index_dtype_attr(ctx, &dt)) != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0];
    if (x->shape.rank < 0) {
        oa_ishape o = oa_ishape_any(1);
        oa_infer_set_out(ctx, 0, dt, &o);
        return OA_OK;
    }
    oa_ishape o = oa_ishape_any(1);
    o.d[0] = oa_iv_fixed(x->shape.rank);
    oa_infer_set_out(ctx, 0, dt, &o);
    oa_value *v = oa_infer_new_value(ctx, dt, x->shape.rank, &st);
    if (v == NULL) {
        return st;
    }
    for (int32_t i = 0; i < x->shape.rank; i++) {
        if (x->shape.dims[i] >= 0) {
            oa_value_put(v, i, 0, x->shape.dims[i], false);
        } else if ((st = oa_infer_value_set_unknown(ctx, v, i)) != OA_OK) {
            return st;
        }
    }
    ctx->out[0]->value = v;
    return OA_OK;
}

oa_status oa_infer_size(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 1);
    if (st != OA_OK) {
        return st;
    }
    oa_dtype dt;
    if ((st = index_dtype_attr(ctx, &dt)) != OA_OK) {
        return st;
    }
    oa_ishape o = oa_ishape_any(0);
    oa_infer_set_out(ctx, 0, dt, &o);
    int64_t n;
    if (oa_shape_numel(&ctx->in[0]->shape, &n)) {
        oa_value *v = oa_infer_new_value(ctx, dt, 1, &st);
        if (v == NULL) {
            return st;
        }
        oa_value_put(v, 0, 0, n, false);
        ctx->out[0]->value = v;
    }
    return OA_OK;
}

/* Target shape from a 1-D shape-valued input; partially known values give
 * unknown dims. False when not even the length is known. */
static bool shape_from_input(oa_infer_ctx *ctx, uint32_t i, oa_ishape *o, oa_status *st)
{
    *st = OA_OK;
    const oa_tensor_desc *d = oa_infer_in(ctx, i);
    if (d == NULL) {
        return false;
    }
    if (d->value) {
        if (d->value->count > OA_MAX_RANK) {
            *st = IFAIL(ctx, OA_E_GE_SHAPE, "shape input has %lld entries (max rank %d)", (long long)d->value->count,
                        OA_MAX_RANK);
            return false;
        }
        *o = oa_ishape_any((int32_t)d->value->count);
        for (int64_t k = 0; k < d->value->count; k++) {
            if (oa_value_known(d->value, k)) {
                int64_t v = oa_value_get_i(d->value, k);
                if (v < 0) {
                    *st = IFAIL(ctx, OA_E_GE_SHAPE, "shape entry %lld is negative (%lld)", (long long)k, (long long)v);
                    return false;
                }
                o->d[k] = oa_iv_fixed(v);
            }
        }
        return true;
    }
    if (d->shape.rank == 1 && d->shape.dims[0] >= 0 && d->shape.dims[0] <= OA_MAX_RANK) {
        *o = oa_ishape_any((int32_t)d->shape.dims[0]);
        return true;
    }
    if (d->shape.rank == 1 && d->shape.dims[0] > OA_MAX_RANK) {
        *st = IFAIL(ctx, OA_E_GE_SHAPE, "shape input has %lld entries (max rank %d)", (long long)d->shape.dims[0],
                    OA_MAX_RANK);
    }
    return false;
}

oa_status oa_infer_fill(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 2);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *val = ctx->in[1];
    oa_ishape o;
    if (!shape_from_input(ctx, 0, &o, &st)) {
        if (st != OA_OK) {
            return st;
        }
        o = oa_ishape_unknown();
    }
    oa_infer_set_out(ctx, 0, val->dtype, &o);
    int64_t n;
    if (val->value && val->value->count >= 1 && oa_value_known(val->value, 0) &&
        oa_shape_numel(&ctx->out[0]->shape, &n)) {
        oa_value *v = oa_infer_new_value(ctx, val->dtype, n, &st);
        if (v == NULL) {
            return st;
        }
        for (int64_t k = 0; k < n; k++) {
            if (val->value->f) {
                oa_value_put(v, k, val->value->f[0], 0, true);
            } else {
                oa_value_put(v, k, 0, val->value->i[0], false);
            }
        }
        ctx->out[0]->value = v;
    }
    return OA_OK;
}

oa_status oa_infer_expand(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 2);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0];
    oa_ishape s = oa_ishape_of(x), t, o;
    if (!shape_from_input(ctx, 1, &t, &st)) {
        if (st != OA_OK) {
            return st;
        }
        o = oa_ishape_unknown();
    } else {
        /* An unknown target dim against a static x dim d > 1 must be 1 or d:
         * the broadcast keeps d. */
        if ((st = oa_infer_broadcast(ctx, &s, &t, &o)) != OA_OK) {
            return st;
        }
    }
    oa_infer_set_out(ctx, 0, x->dtype, &o);
    int64_t n;
    if (x->value && oa_shape_numel(&ctx->out[0]->shape, &n)) {
        oa_value *v = oa_infer_new_value(ctx, x->dtype, n, &st);
        if (v == NULL) {
            return st;
        }
        const oa_shape *os = &ctx->out[0]->shape;
        for (int64_t k = 0; k < n; k++) {
            int64_t rem = k, src = 0, stride = 1;
            for (int32_t i = os->rank - 1; i >= 0; i--) {
                int64_t d = os->dims[i];
                int64_t c = d > 0 ? rem % d : 0;
                rem = d > 0 ? rem / d : 0;
                int32_t j = i - (os->rank - x->shape.rank);
                if (j >= 0) {
                    if (x->shape.dims[j] != 1) {
                        src += c * stride;
                    }
                    stride *= x->shape.dims[j];
                }
            }
            if (!oa_value_known(x->value, src)) {
                if ((st = oa_infer_value_set_unknown(ctx, v, k)) != OA_OK) {
                    return st;
                }
            } else if (x->value->f) {
                oa_value_put(v, k, x->value->f[src], 0, true);
            } else {
                oa_value_put(v, k, 0, x->value->i[src], false);
            }
        }
        ctx->out[0]->value = v;
    }
    return OA_OK;
}

oa_status oa_infer_tile(oa_infer_ctx *ctx)
{
    bool dvar = ctx->node->type == OA_OP_TILE_D;
    oa_status st = oa_infer_need_inputs(ctx, dvar ? 1 : 2);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0];
    oa_ishape s = oa_ishape_of(x);
    int64_t m[OA_MAX_RANK];
    size_t nm = 0;
    bool known;
    if (dvar) {
        const int64_t *v;
        known = oa_attrs_get_list_int(&ctx->node->attrs, "multiples", &v, &nm);
        if (!known) {
            return IFAIL(ctx, OA_E_GE_PARAM, "misses attr multiples");
        }
        if (nm > OA_MAX_RANK) {
            return IFAIL(ctx, OA_E_GE_PARAM, "multiples has %zu entries", nm);
        }
        memcpy(m, v, nm * sizeof(*m));
    } else {
        known = oa_infer_in_ints(ctx, 1, m, OA_MAX_RANK, &nm);
    }
    oa_ishape o;
    if (s.rank < 0 || !known) {
        o = s.rank < 0 ? oa_ishape_unknown() : oa_ishape_any(s.rank);
    } else {
        if ((int32_t)nm < s.rank) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "multiples has %zu entries for rank %d", nm, s.rank);
        }
        /* TF Tile allows len(multiples) > rank: x is left-padded with 1s. */
        o = oa_ishape_any((int32_t)nm);
        o.ranged = s.ranged;
        for (int32_t i = 0; i < (int32_t)nm; i++) {
            int32_t j = i - ((int32_t)nm - s.rank);
            oa_iv d = j >= 0 ? s.d[j] : oa_iv_fixed(1);
            if (m[i] < 0) {
                return IFAIL(ctx, OA_E_GE_SHAPE, "multiple %d is negative", i);
            }
            o.d[i] = oa_iv_mul(d, oa_iv_fixed(m[i]));
        }
    }
    oa_infer_set_out(ctx, 0, x->dtype, &o);
    return OA_OK;
}

oa_status oa_infer_range(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 3);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *a = ctx->in[0], *b = ctx->in[1], *c = ctx->in[2];
    oa_dtype dt = a->dtype;
    if (a->dtype != b->dtype || a->dtype != c->dtype) {
        dt = OA_DT_FLOAT;
    }
    oa_ishape o = oa_ishape_any(1);
    const oa_value *va = a->value, *vb = b->value, *vc = c->value;
    bool known = va && vb && vc && va->count == 1 && vb->count == 1 && vc->count == 1 && oa_value_all_known(va) &&
                 oa_value_all_known(vb) && oa_value_all_known(vc);
    int64_t len = -1;
    if (known) {
        double s0 = oa_value_get_f(va, 0), l = oa_value_get_f(vb, 0), d = oa_value_get_f(vc, 0);
        if (d == 0) {
            return IFAIL(ctx, OA_E_GE_PARAM, "delta is zero");
        }
        double q = (l - s0) / d;
        if (oa_node_attr_bool(ctx->node, "is_closed", false)) {
            q += 1;
        }
        double ce = q > 0 ? __builtin_ceil(q) : 0;
        if (ce > 9.0e15) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "range length %g is too large", ce);
        }
        len = (int64_t)ce;
        o.d[0] = oa_iv_fixed(len);
    }
    oa_infer_set_out(ctx, 0, dt, &o);
    if (len >= 0) {
        oa_value *v = oa_infer_new_value(ctx, dt, len, &st);
        if (v == NULL) {
            return st;
        }
        bool fl = oa_dtype_is_float(dt);
        for (int64_t k = 0; k < len; k++) {
            if (fl) {
                oa_value_put(v, k, oa_value_get_f(va, 0) + (double)k * oa_value_get_f(vc, 0), 0, true);
            } else {
                oa_value_put(v, k, 0, oa_value_get_i(va, 0) + k * oa_value_get_i(vc, 0), false);
            }
        }
        ctx->out[0]->value = v;
    }
    return OA_OK;
}

oa_status oa_infer_concat(oa_infer_ctx *ctx)
{
    oa_op_type t = ctx->node->type;
    uint32_t first = 0, count = ctx->num_in;
    int64_t axis;
    oa_status st;
    if (t == OA_OP_CONCAT_D || t == OA_OP_CONCAT_V2_D) {
        if ((st = oa_node_require_int(ctx->node, "concat_dim", &axis)) != OA_OK) {
            return st;
        }
    } else {
        uint32_t ai = t == OA_OP_CONCAT ? 0 : (ctx->num_in ? ctx->num_in - 1 : 0);
        size_t n;
        if (ctx->num_in < 2) {
            return IFAIL(ctx, OA_E_GE_PARAM, "needs concat_dim and at least one tensor");
        }
        first = t == OA_OP_CONCAT ? 1 : 0;
        count = ctx->num_in - 1;
        if (!oa_infer_in_ints(ctx, ai, &axis, 1, &n) || n != 1) {
            return IFAIL(ctx, OA_E_GE_PARAM, "concat_dim must be a known scalar");
        }
    }
    if (count == 0) {
        return IFAIL(ctx, OA_E_GE_PARAM, "has no inputs");
    }
    for (uint32_t i = first; i < first + count; i++) {
        if (oa_infer_in(ctx, i) == NULL) {
            return IFAIL(ctx, OA_E_GE_PARAM, "input %u is not connected", i);
        }
    }
    int64_t nattr;
    if (oa_attrs_get_int(&ctx->node->attrs, "N", &nattr) && nattr != (int64_t)count) {
        return IFAIL(ctx, OA_E_GE_PARAM, "attr N=%lld but %u inputs", (long long)nattr, count);
    }
    oa_dtype dt = ctx->in[first]->dtype;
    int32_t rank = -1;
    for (uint32_t i = first; i < first + count; i++) {
        if (ctx->in[i]->dtype != dt) {
            return IFAIL(ctx, OA_E_GE_DATATYPE, "input %u is %s, input %u is %s", i, oa_dtype_name(ctx->in[i]->dtype),
                         first, oa_dtype_name(dt));
        }
        int32_t r = ctx->in[i]->shape.rank;
        if (r >= 0) {
            if (rank >= 0 && r != rank) {
                return IFAIL(ctx, OA_E_GE_SHAPE, "inputs have ranks %d and %d", rank, r);
            }
            rank = r;
        }
    }
    if (rank < 0) {
        oa_ishape u = oa_ishape_unknown();
        oa_infer_set_out(ctx, 0, dt, &u);
        return OA_OK;
    }
    int32_t a;
    if ((st = oa_infer_axis(ctx, axis, rank, "concat_dim", &a)) != OA_OK) {
        return st;
    }
    oa_ishape o = oa_ishape_any(rank);
    o.d[a] = oa_iv_fixed(0);
    for (int32_t i = 0; i < rank; i++) {
        if (i == a) {
            continue;
        }
        for (uint32_t k = first; k < first + count; k++) {
            oa_ishape s = oa_ishape_of(ctx->in[k]);
            if (s.rank < 0) {
                continue;
            }
            if (oa_iv_is_fixed(s.d[i])) {
                if (oa_iv_is_fixed(o.d[i]) && o.d[i].lo != s.d[i].lo) {
                    return IFAIL(ctx, OA_E_GE_SHAPE, "inputs differ in dim %d (%lld vs %lld)", i,
                                 (long long)o.d[i].lo, (long long)s.d[i].lo);
                }
                o.d[i] = s.d[i];
            }
        }
    }
    /* Slices the compiler folded in give only their window along the axis (oa_node_concat_window) */
    const bool windows = oa_attrs_find(&ctx->node->attrs, "_oa_concat_windows") != NULL;
    for (uint32_t k = first; k < first + count; k++) {
        oa_ishape s = oa_ishape_of(ctx->in[k]);
        o.ranged = o.ranged || s.ranged;
        oa_iv part = s.rank < 0 ? oa_iv_any() : s.d[a];
        int64_t off, len;
        if (windows && oa_node_concat_window(ctx->node, k - first, &off, &len)) {
            if (off < 0 || len < 0 || (s.rank >= 0 && oa_iv_is_fixed(s.d[a]) && off > s.d[a].lo - len)) {
                return IFAIL(ctx, OA_E_GE_SHAPE, "_oa_concat_windows: input %u's window [%lld, +%lld) does not fit",
                             k, (long long)off, (long long)len);
            }
            part = oa_iv_fixed(len);
        }
        o.d[a] = oa_iv_add(o.d[a], part);
    }
    oa_infer_set_out(ctx, 0, dt, &o);
    /* Values: concatenate blocks along the axis (not for windows: they only appear in compiled graphs). */
    int64_t n;
    if (windows || !oa_shape_numel(&ctx->out[0]->shape, &n)) {
        return OA_OK;
    }
    for (uint32_t k = first; k < first + count; k++) {
        if (ctx->in[k]->value == NULL) {
            return OA_OK;
        }
    }
    oa_value *v = oa_infer_new_value(ctx, dt, n, &st);
    if (v == NULL) {
        return st;
    }
    const oa_shape *os = &ctx->out[0]->shape;
    int64_t outer = 1, inner = 1;
    for (int32_t i = 0; i < a; i++) {
        outer *= os->dims[i];
    }
    for (int32_t i = a + 1; i < rank; i++) {
        inner *= os->dims[i];
    }
    int64_t pos = 0;
    for (int64_t ob = 0; ob < outer; ob++) {
        for (uint32_t k = first; k < first + count; k++) {
            const oa_value *src = ctx->in[k]->value;
            int64_t blk = ctx->in[k]->shape.dims[a] * inner;
            for (int64_t e = 0; e < blk; e++) {
                int64_t si = ob * blk + e;
                if (!oa_value_known(src, si)) {
                    if ((st = oa_infer_value_set_unknown(ctx, v, pos)) != OA_OK) {
                        return st;
                    }
                } else if (src->f) {
                    oa_value_put(v, pos, src->f[si], 0, true);
                } else {
                    oa_value_put(v, pos, 0, src->i[si], false);
                }
                pos++;
            }
        }
    }
    ctx->out[0]->value = v;
    return OA_OK;
}

/*
 * TransData (attrs src_format, dst_format): layout conversion between the
 * plain NCHW layout and GE's blocked NC1HWC0 with C0 = 16:
 *   NCHW [N,C,H,W] -> NC1HWC0 [N, ceil(C/16), H, W, 16]
 *   NC1HWC0 [N,C1,H,W,C0] -> NCHW [N,C,H,W], C from the input's origin
 *   shape when it is set (the real channel count), else C1 * C0.
 * Equal formats copy the shape. dtype unchanged.
 */
oa_status oa_infer_trans_data(oa_infer_ctx *ctx)
{
    enum { kC0 = 16 };
    oa_status st = oa_infer_need_inputs(ctx, 1);
    if (st != OA_OK) {
        return st;
    }
    const char *sf = NULL, *df = NULL;
    oa_format src, dst;
    if (!oa_attrs_get_str(&ctx->node->attrs, "src_format", &sf) || !oa_format_from_name(sf, &src) ||
        !oa_attrs_get_str(&ctx->node->attrs, "dst_format", &df) || !oa_format_from_name(df, &dst)) {
        return IFAIL(ctx, OA_E_GE_PARAM, "needs string attrs src_format and dst_format naming formats (got %s, %s)",
                     sf ? sf : "none", df ? df : "none");
    }
    const oa_tensor_desc *x = ctx->in[0];
    oa_ishape in = oa_ishape_of(x), o;
    if (src == dst) {
        oa_infer_set_out(ctx, 0, x->dtype, &in);
        return OA_OK;
    }
    if (src == OA_FORMAT_NCHW && dst == OA_FORMAT_NC1HWC0) {
        if (in.rank != 4) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "NCHW input must have rank 4, got %d", (int)in.rank);
        }
        o = oa_ishape_any(5);
        o.ranged = in.ranged;
        o.d[0] = in.d[0];
        o.d[1] = oa_iv_div_const(in.d[1], kC0, true);
        o.d[2] = in.d[2];
        o.d[3] = in.d[3];
        o.d[4] = oa_iv_fixed(kC0);
    } else if (src == OA_FORMAT_NC1HWC0 && dst == OA_FORMAT_NCHW) {
        if (in.rank != 5) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "NC1HWC0 input must have rank 5, got %d", (int)in.rank);
        }
        o = oa_ishape_any(4);
        o.ranged = in.ranged;
        o.d[0] = in.d[0];
        o.d[1] = oa_iv_mul(in.d[1], in.d[4]);
        if (x->origin_shape_set && x->origin_shape.rank == 4 && x->origin_shape.dims[1] >= 0) {
            o.d[1] = oa_iv_fixed(x->origin_shape.dims[1]);
        }
        o.d[2] = in.d[2];
        o.d[3] = in.d[3];
    } else {
        return IFAIL(ctx, OA_E_FEATURE_UNSUPPORTED, "conversion %s -> %s is not supported", sf, df);
    }
    oa_infer_set_out(ctx, 0, x->dtype, &o);
    return OA_OK;
}

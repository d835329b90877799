/*
 * Inference of elementwise ops: broadcasting binary arithmetic and
 * comparisons, select, clip, PRelu, AddN, unary math, LogicalNot and Cast,
 * including compile-time folding of small values.
 *
 * Broadcasting (numpy rules), dims aligned on the right:
 *
 *     x1:      8 x 1 x 6 x 1
 *     x2:          7 x 1 x 5
 *     y:       8 x 7 x 6 x 5
 *
 * A dim broadcasts when it is 1; an unknown dim against a static d > 1
 * becomes d; two unknown dims stay unknown (their range is the union).
 */
#define OA_LOG_MODULE "GE"
#include <math.h>
#include <string.h>

#include "base/util.h"
#include "graph/infer_internal.h"

/* Flat index into an operand of shape `in` (right-aligned, rank <= out's)
 * for output flat index k of static shape `out`. */
static int64_t bcast_index(const oa_shape *out, const oa_shape *in, int64_t k)
{
    int64_t idx = 0, stride = 1;
    for (int32_t i = out->rank - 1; i >= 0; i--) {
        int64_t od = out->dims[i];
        int64_t coord = od > 0 ? k % od : 0;
        k = od > 0 ? k / od : 0;
        int32_t j = i - (out->rank - in->rank);
        if (j >= 0) {
            int64_t d = in->dims[j];
            if (d != 1) {
                idx += coord * stride;
            }
            stride *= d;
        }
    }
    return idx;
}

typedef enum fold_kind { FOLD_ARITH, FOLD_COMPARE } fold_kind;

static uint64_t u(int64_t x)
{
    return (uint64_t)x;
}

/* Integer op; false when the result is undefined (division by zero). */
static bool int_op(oa_op_type t, int64_t a, int64_t b, float alpha, int64_t *r)
{
    switch (t) {
    case OA_OP_ADD: *r = (int64_t)(u(a) + u(b)); return true;
    case OA_OP_SUB: *r = (int64_t)(u(a) - u(b)); return true;
    case OA_OP_MUL: *r = (int64_t)(u(a) * u(b)); return true;
    case OA_OP_REAL_DIV:
    case OA_OP_DIV:
        if (b == 0 || (a == INT64_MIN && b == -1)) {
            return false;
        }
        *r = a / b;
        return true;
    case OA_OP_FLOOR_DIV:
        if (b == 0 || (a == INT64_MIN && b == -1)) {
            return false;
        }
        *r = a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
        return true;
    case OA_OP_FLOOR_MOD:
        if (b == 0 || (a == INT64_MIN && b == -1)) {
            return false;
        }
        *r = a % b;
        if (*r != 0 && ((*r < 0) != (b < 0))) {
            *r += b;
        }
        return true;
    case OA_OP_MAXIMUM: *r = a > b ? a : b; return true;
    case OA_OP_MINIMUM: *r = a < b ? a : b; return true;
    case OA_OP_SQUARED_DIFFERENCE: *r = (int64_t)((u(a) - u(b)) * (u(a) - u(b))); return true;
    case OA_OP_AXPY: *r = (int64_t)(u(a) + u((int64_t)alpha * b)); return true;
    case OA_OP_POW: {
        if (b < 0) {
            return false;
        }
        uint64_t acc = 1, base = u(a);
        for (int64_t e = b; e > 0 && e < 64; e--) {
            acc *= base;
        }
        *r = (int64_t)acc;
        return b < 64 || a == 0 || a == 1;
    }
    case OA_OP_EQUAL: *r = a == b; return true;
    case OA_OP_NOT_EQUAL: *r = a != b; return true;
    case OA_OP_LESS: *r = a < b; return true;
    case OA_OP_GREATER: *r = a > b; return true;
    case OA_OP_LESS_EQUAL: *r = a <= b; return true;
    case OA_OP_GREATER_EQUAL: *r = a >= b; return true;
    case OA_OP_LOGICAL_AND: *r = (a != 0) && (b != 0); return true;
    case OA_OP_LOGICAL_OR: *r = (a != 0) || (b != 0); return true;
    default: return false;
    }
}

static bool float_op(oa_op_type t, double a, double b, float alpha, double *r)
{
    switch (t) {
    case OA_OP_ADD: *r = a + b; return true;
    case OA_OP_SUB: *r = a - b; return true;
    case OA_OP_MUL: *r = a * b; return true;
    case OA_OP_REAL_DIV:
    case OA_OP_DIV: *r = a / b; return true;
    case OA_OP_FLOOR_DIV: *r = floor(a / b); return true;
    case OA_OP_FLOOR_MOD: *r = a - floor(a / b) * b; return true;
    case OA_OP_POW: *r = pow(a, b); return true;
    case OA_OP_MAXIMUM: *r = a > b ? a : b; return true;
    case OA_OP_MINIMUM: *r = a < b ? a : b; return true;
    case OA_OP_SQUARED_DIFFERENCE: *r = (a - b) * (a - b); return true;
    case OA_OP_AXPY: *r = a + (double)alpha * b; return true;
    case OA_OP_EQUAL: *r = a == b; return true;
    case OA_OP_NOT_EQUAL: *r = a != b; return true;
    case OA_OP_LESS: *r = a < b; return true;
    case OA_OP_GREATER: *r = a > b; return true;
    case OA_OP_LESS_EQUAL: *r = a <= b; return true;
    case OA_OP_GREATER_EQUAL: *r = a >= b; return true;
    case OA_OP_LOGICAL_AND: *r = (a != 0) && (b != 0); return true;
    case OA_OP_LOGICAL_OR: *r = (a != 0) || (b != 0); return true;
    default: return false;
    }
}

/* Folds out[0] = a (op) b when both values are known enough. */
static oa_status fold_binary(oa_infer_ctx *ctx, const oa_tensor_desc *a, const oa_tensor_desc *b)
{
    oa_tensor_desc *o = ctx->out[0];
    int64_t n;
    if (a->value == NULL || b->value == NULL || !oa_shape_numel(&o->shape, &n)) {
        return OA_OK;
    }
    oa_status st;
    oa_value *v = oa_infer_new_value(ctx, o->dtype, n, &st);
    if (v == NULL) {
        return st;
    }
    bool use_float = a->value->f != NULL || b->value->f != NULL;
    float alpha = oa_node_attr_float(ctx->node, "alpha", 1.0f);
    for (int64_t k = 0; k < n; k++) {
        int64_t ia = bcast_index(&o->shape, &a->shape, k);
        int64_t ib = bcast_index(&o->shape, &b->shape, k);
        bool ok = oa_value_known(a->value, ia) && oa_value_known(b->value, ib);
        if (ok && use_float) {
            double r;
            ok = float_op(ctx->node->type, oa_value_get_f(a->value, ia), oa_value_get_f(b->value, ib), alpha, &r);
            if (ok) {
                oa_value_put(v, k, r, 0, true);
            }
        } else if (ok) {
            int64_t r;
            ok = int_op(ctx->node->type, a->value->i[ia], b->value->i[ib], alpha, &r);
            if (ok) {
                oa_value_put(v, k, 0, r, false);
            }
        }
        if (!ok) {
            st = oa_infer_value_set_unknown(ctx, v, k);
            if (st != OA_OK) {
                return st;
            }
        }
    }
    o->value = v;
    return OA_OK;
}

static oa_status binary_common(oa_infer_ctx *ctx, bool compare)
{
    oa_status st = oa_infer_need_inputs(ctx, 2);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *a = ctx->in[0], *b = ctx->in[1];
    oa_ishape sa = oa_ishape_of(a), sb = oa_ishape_of(b), so;
    st = oa_infer_broadcast(ctx, &sa, &sb, &so);
    if (st != OA_OK) {
        return st;
    }
    oa_dtype dt;
    oa_op_type t = ctx->node->type;
    if (compare) {
        if ((t == OA_OP_LOGICAL_AND || t == OA_OP_LOGICAL_OR) &&
            (a->dtype != OA_DT_BOOL || b->dtype != OA_DT_BOOL)) {
            return IFAIL(ctx, OA_E_GE_DATATYPE, "inputs must be bool, got %s and %s", oa_dtype_name(a->dtype),
                         oa_dtype_name(b->dtype));
        }
        dt = OA_DT_BOOL;
    } else {
        dt = oa_infer_promote(a->dtype, b->dtype);
    }
    oa_infer_set_out(ctx, 0, dt, &so);
    return fold_binary(ctx, a, b);
}

oa_status oa_infer_binary(oa_infer_ctx *ctx)
{
    return binary_common(ctx, false);
}

oa_status oa_infer_compare(oa_infer_ctx *ctx)
{
    return binary_common(ctx, true);
}

oa_status oa_infer_select(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 3);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *c = ctx->in[0], *x = ctx->in[1], *y = ctx->in[2];
    oa_ishape sc = oa_ishape_of(c), sx = oa_ishape_of(x), sy = oa_ishape_of(y), t, so;
    st = oa_infer_broadcast(ctx, &sx, &sy, &t);
    if (st != OA_OK) {
        return st;
    }
    if (ctx->node->type == OA_OP_SELECT && sc.rank == 1 && t.rank > 1) {
        so = t; /* TF Select v1: a vector condition picks rows */
    } else {
        st = oa_infer_broadcast(ctx, &sc, &t, &so);
        if (st != OA_OK) {
            return st;
        }
    }
    oa_infer_set_out(ctx, 0, oa_infer_promote(x->dtype, y->dtype), &so);
    oa_tensor_desc *o = ctx->out[0];
    int64_t n;
    if (c->value && x->value && y->value && oa_shape_numel(&o->shape, &n) && ctx->node->type == OA_OP_SELECT_V2) {
        oa_value *v = oa_infer_new_value(ctx, o->dtype, n, &st);
        if (v == NULL) {
            return st;
        }
        for (int64_t k = 0; k < n; k++) {
            int64_t ic = bcast_index(&o->shape, &c->shape, k);
            int64_t ix = bcast_index(&o->shape, &x->shape, k);
            int64_t iy = bcast_index(&o->shape, &y->shape, k);
            if (!oa_value_known(c->value, ic)) {
                st = oa_infer_value_set_unknown(ctx, v, k);
                if (st != OA_OK) {
                    return st;
                }
                continue;
            }
            const oa_value *src = oa_value_get_f(c->value, ic) != 0.0 ? x->value : y->value;
            int64_t is = src == x->value ? ix : iy;
            if (!oa_value_known(src, is)) {
                st = oa_infer_value_set_unknown(ctx, v, k);
                if (st != OA_OK) {
                    return st;
                }
            } else if (src->f) {
                oa_value_put(v, k, src->f[is], 0, true);
            } else {
                oa_value_put(v, k, 0, src->i[is], false);
            }
        }
        o->value = v;
    }
    return OA_OK;
}

oa_status oa_infer_clip(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 3);
    if (st != OA_OK) {
        return st;
    }
    oa_ishape s = oa_ishape_of(ctx->in[0]), lo = oa_ishape_of(ctx->in[1]), hi = oa_ishape_of(ctx->in[2]), t;
    st = oa_infer_broadcast(ctx, &s, &lo, &t);
    if (st == OA_OK) {
        st = oa_infer_broadcast(ctx, &t, &hi, &s);
    }
    if (st != OA_OK) {
        return st;
    }
    oa_infer_set_out(ctx, 0, ctx->in[0]->dtype, &s);
    const oa_tensor_desc *x = ctx->in[0];
    const oa_value *vl = ctx->in[1]->value, *vh = ctx->in[2]->value;
    oa_tensor_desc *o = ctx->out[0];
    int64_t n;
    if (x->value && vl && vh && vl->count == 1 && vh->count == 1 && oa_value_all_known(vl) &&
        oa_value_all_known(vh) && oa_shape_numel(&o->shape, &n) && n == x->value->count) {
        oa_value *v = oa_infer_new_value(ctx, o->dtype, n, &st);
        if (v == NULL) {
            return st;
        }
        double l = oa_value_get_f(vl, 0), h = oa_value_get_f(vh, 0);
        for (int64_t k = 0; k < n; k++) {
            if (!oa_value_known(x->value, k)) {
                st = oa_infer_value_set_unknown(ctx, v, k);
                if (st != OA_OK) {
                    return st;
                }
                continue;
            }
            double e = oa_value_get_f(x->value, k);
            e = e < l ? l : (e > h ? h : e);
            if (x->value->f) {
                oa_value_put(v, k, e, 0, true);
            } else {
                oa_value_put(v, k, 0, (int64_t)e, false);
            }
        }
        o->value = v;
    }
    return OA_OK;
}

oa_status oa_infer_prelu(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 2);
    if (st != OA_OK) {
        return st;
    }
    oa_ishape s = oa_ishape_of(ctx->in[0]);
    oa_infer_set_out(ctx, 0, ctx->in[0]->dtype, &s);
    return OA_OK;
}

oa_status oa_infer_addn(oa_infer_ctx *ctx)
{
    if (ctx->num_in == 0) {
        return IFAIL(ctx, OA_E_GE_PARAM, "needs at least one input");
    }
    oa_status st = oa_infer_need_inputs(ctx, ctx->num_in);
    if (st != OA_OK) {
        return st;
    }
    int64_t nattr;
    if (oa_attrs_get_int(&ctx->node->attrs, "N", &nattr) && nattr != (int64_t)ctx->num_in) {
        return IFAIL(ctx, OA_E_GE_PARAM, "attr N=%lld but %u inputs", (long long)nattr, ctx->num_in);
    }
    oa_ishape s = oa_ishape_of(ctx->in[0]);
    oa_dtype dt = ctx->in[0]->dtype;
    for (uint32_t i = 1; i < ctx->num_in; i++) {
        oa_ishape t = oa_ishape_of(ctx->in[i]), r;
        st = oa_infer_broadcast(ctx, &s, &t, &r);
        if (st != OA_OK) {
            return st;
        }
        s = r;
        dt = oa_infer_promote(dt, ctx->in[i]->dtype);
    }
    oa_infer_set_out(ctx, 0, dt, &s);
    return OA_OK;
}

/* ---- unary ---- */

/* Folds a unary op; false when the op has no compile-time rule. */
static bool unary_value(oa_op_type t, const oa_node *n, double x, double *r)
{
    switch (t) {
    case OA_OP_NEG: *r = -x; return true;
    case OA_OP_ABS: *r = fabs(x); return true;
    case OA_OP_SIGN: *r = (x > 0) - (x < 0); return true;
    case OA_OP_FLOOR: *r = floor(x); return true;
    case OA_OP_CEIL: *r = ceil(x); return true;
    case OA_OP_ROUND: *r = nearbyint(x); return true;
    case OA_OP_SQRT: *r = sqrt(x); return true;
    case OA_OP_SQUARE: *r = x * x; return true;
    case OA_OP_RELU: *r = x > 0 ? x : 0; return true;
    case OA_OP_RECIPROCAL: *r = 1.0 / x; return true;
    case OA_OP_ZEROS_LIKE: *r = 0; return true;
    case OA_OP_ONES_LIKE: *r = 1; return true;
    case OA_OP_MULS: *r = x * (double)oa_node_attr_float(n, "value", 1.0f); return true;
    case OA_OP_ADDS: *r = x + (double)oa_node_attr_float(n, "value", 0.0f); return true;
    default: return false;
    }
}

static bool unary_int_value(oa_op_type t, int64_t x, int64_t *r)
{
    switch (t) {
    case OA_OP_NEG: *r = (int64_t)(0 - (uint64_t)x); return true;
    case OA_OP_ABS: *r = x < 0 ? (int64_t)(0 - (uint64_t)x) : x; return true;
    case OA_OP_SIGN: *r = (x > 0) - (x < 0); return true;
    case OA_OP_FLOOR:
    case OA_OP_CEIL:
    case OA_OP_ROUND: *r = x; return true;
    case OA_OP_SQUARE: *r = (int64_t)((uint64_t)x * (uint64_t)x); return true;
    case OA_OP_RELU: *r = x > 0 ? x : 0; return true;
    case OA_OP_ZEROS_LIKE: *r = 0; return true;
    case OA_OP_ONES_LIKE: *r = 1; return true;
    default: return false;
    }
}

oa_status oa_infer_unary(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 1);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0];
    oa_ishape s = oa_ishape_of(x);
    oa_dtype dt = x->dtype;
    oa_op_type t = ctx->node->type;
    if (t == OA_OP_LOG && !oa_dtype_is_float(dt)) {
        dt = OA_DT_FLOAT;
    }
    oa_infer_set_out(ctx, 0, dt, &s);
    oa_tensor_desc *o = ctx->out[0];
    int64_t n;
    double probe;
    if (x->value == NULL || !oa_shape_numel(&o->shape, &n) || n != x->value->count ||
        !unary_value(t, ctx->node, 0.0, &probe)) {
        return OA_OK; /* nothing to fold, or no compile-time rule for this op */
    }
    oa_value *v = oa_infer_new_value(ctx, dt, n, &st);
    if (v == NULL) {
        return st;
    }
    for (int64_t k = 0; k < n; k++) {
        bool ok = oa_value_known(x->value, k);
        if (ok && x->value->i && !oa_dtype_is_float(dt)) {
            int64_t r;
            ok = unary_int_value(t, x->value->i[k], &r);
            if (ok) {
                oa_value_put(v, k, 0, r, false);
            }
        } else if (ok) {
            double r;
            ok = unary_value(t, ctx->node, oa_value_get_f(x->value, k), &r);
            if (ok) {
                oa_value_put(v, k, r, 0, true);
            }
        }
        if (!ok) {
            st = oa_infer_value_set_unknown(ctx, v, k);
            if (st != OA_OK) {
                return st;
            }
        }
    }
    o->value = v;
    return OA_OK;
}

oa_status oa_infer_logical_not(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 1);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0];
    oa_ishape s = oa_ishape_of(x);
    oa_infer_set_out(ctx, 0, OA_DT_BOOL, &s);
    int64_t n;
    if (x->value && oa_shape_numel(&ctx->out[0]->shape, &n) && n == x->value->count) {
        oa_value *v = oa_infer_new_value(ctx, OA_DT_BOOL, n, &st);
        if (v == NULL) {
            return st;
        }
        for (int64_t k = 0; k < n; k++) {
            if (oa_value_known(x->value, k)) {
                oa_value_put(v, k, 0, oa_value_get_f(x->value, k) == 0.0, false);
            } else if ((st = oa_infer_value_set_unknown(ctx, v, k)) != OA_OK) {
                return st;
            }
        }
        ctx->out[0]->value = v;
    }
    return OA_OK;
}

oa_status oa_infer_cast(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 1);
    if (st != OA_OK) {
        return st;
    }
    int64_t dst;
    st = oa_node_require_int(ctx->node, "dst_type", &dst);
    if (st != OA_OK) {
        return st;
    }
    if (!oa_dtype_valid((int)dst) || dst != (int)dst || dst == OA_DT_UNDEFINED) {
        return IFAIL(ctx, OA_E_GE_DATATYPE, "dst_type %lld is not a GE data type", (long long)dst);
    }
    const oa_tensor_desc *x = ctx->in[0];
    oa_ishape s = oa_ishape_of(x);
    oa_dtype dt = (oa_dtype)dst;
    oa_infer_set_out(ctx, 0, dt, &s);
    int64_t n;
    if (x->value && oa_shape_numel(&ctx->out[0]->shape, &n) && n == x->value->count) {
        oa_value *v = oa_infer_new_value(ctx, dt, n, &st);
        if (v == NULL) {
            return st;
        }
        for (int64_t k = 0; k < n; k++) {
            if (!oa_value_known(x->value, k)) {
                st = oa_infer_value_set_unknown(ctx, v, k);
                if (st != OA_OK) {
                    return st;
                }
            } else if (x->value->f) {
                oa_value_put(v, k, x->value->f[k], 0, true);
            } else {
                oa_value_put(v, k, 0, x->value->i[k], false);
            }
        }
        ctx->out[0]->value = v;
    }
    return OA_OK;
}

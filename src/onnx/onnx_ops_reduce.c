/*
 * ONNX -> GE mappings of indexing and reduction ops (docs/ge_ir.md "ONNX import"):
 * Gather / GatherElements, Pad, Clip, ConstantOfShape, the Reduce* family,
 * ArgMax / ArgMin, Max / Min / Mean and TopK. The op table is in onnx_ops.c.
 */
#define OA_LOG_MODULE "GE"
#include <math.h>
#include <float.h>
#include <string.h>

#include "base/util.h"
#include "onnx/onnx_internal.h"

oa_status oa_onnx_op_gather_elements(onnx_node_ctx *c)
{
    int64_t axis;
    oa_node *n;
    oa_status st = oa_onnx_attr_int(c, "axis", 0, &axis);
    if (st == OA_OK) {
        st = oa_onnx_direct_then(c, &n);
    }
    return st == OA_OK ? oa_node_set_int(n, "dim", axis) : st;
}

oa_status oa_onnx_op_gather(onnx_node_ctx *c)
{
    int64_t axis;
    oa_node *k, *g;
    oa_status st = oa_onnx_attr_int(c, "axis", 0, &axis);
    if (st == OA_OK) {
        st = oa_onnx_const_i32(c, "axis", &axis, 1, true, &k);
    }
    if (st == OA_OK) {
        st = oa_onnx_emit(c, OA_OP_GATHER_V2, "gather", 3, 1, &g);
    }
    if (st == OA_OK && (st = oa_onnx_connect_input(c, g, 0, 0)) == OA_OK &&
        (st = oa_onnx_connect_input(c, g, 1, 1)) == OA_OK && (st = oa_onnx_connect(g, 2, k, 0)) == OA_OK &&
        (st = oa_node_set_bool(g, "negative_index_support", true)) == OA_OK) {
        st = oa_onnx_bind_output(c, 0, g, 0);
    }
    return st;
}

oa_status oa_onnx_op_pad(onnx_node_ctx *c)
{
    const char *mode;
    oa_status st = oa_onnx_attr_str(c, "mode", "constant", &mode);
    if (st != OA_OK) {
        return st;
    }
    if (strcmp(mode, "constant") != 0 && strcmp(mode, "reflect") != 0 && strcmp(mode, "edge") != 0) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "mode %s is not supported", mode);
    }
    oa_node *n;
    if (c->opset >= 11) {
        if (oa_onnx_has_input(c, 3)) {
            return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "the axes input (opset 18) is not supported");
        }
        if ((st = oa_onnx_emit(c, OA_OP_PAD_V3, "pad", 3, 1, &n)) != OA_OK) {
            return st;
        }
        for (uint32_t i = 0; i < 3 && st == OA_OK; i++) {
            if (oa_onnx_has_input(c, i)) {
                st = oa_onnx_connect_input(c, n, i, i);
            }
        }
        if (st == OA_OK && (st = oa_node_set_str(n, "mode", mode)) == OA_OK) {
            st = oa_node_set_bool(n, "paddings_contiguous", false);
        }
        return st == OA_OK ? oa_onnx_bind_output(c, 0, n, 0) : st;
    }
    const int64_t *pads;
    size_t np;
    float value;
    if ((st = oa_onnx_attr_ints(c, "pads", &pads, &np)) != OA_OK ||
        (st = oa_onnx_attr_float(c, "value", 0.0f, &value)) != OA_OK) {
        return st;
    }
    if (pads == NULL || np % 2 != 0 || np > 2 * OA_MAX_RANK) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "needs a pads attribute with an even number of entries");
    }
    int64_t pairs[2 * OA_MAX_RANK];
    size_t r = np / 2;
    for (size_t i = 0; i < r; i++) {
        pairs[2 * i] = pads[i];
        pairs[2 * i + 1] = pads[r + i];
    }
    oa_node *kp, *kv = NULL;
    if ((st = oa_onnx_const_i32(c, "paddings", pairs, np, false, &kp)) != OA_OK) {
        return st;
    }
    int64_t pshape[2] = {(int64_t)r, 2};
    oa_shape ps = oa_shape_make(2, pshape);
    oa_desc_set(oa_node_output_desc(kp, 0), OA_DT_INT32, &ps);
    const oa_attr *va = oa_attrs_find(&kp->attrs, "value");
    ((oa_tensor *)(uintptr_t)va->u.t)->desc.shape = ps;
    bool reflect = strcmp(mode, "reflect") == 0;
    if (reflect) {
        st = oa_onnx_emit(c, OA_OP_MIRROR_PAD, "pad", 2, 1, &n);
        if (st == OA_OK) {
            st = oa_node_set_str(n, "mode", "REFLECT");
        }
    } else {
        st = oa_onnx_const_f32(c, "value", &value, 1, true, &kv);
        if (st == OA_OK) {
            st = oa_onnx_emit(c, OA_OP_PAD_V3, "pad", 3, 1, &n);
        }
        if (st == OA_OK && (st = oa_node_set_str(n, "mode", mode)) == OA_OK) {
            st = oa_node_set_bool(n, "paddings_contiguous", true);
        }
        if (st == OA_OK) {
            st = oa_onnx_connect(n, 2, kv, 0);
        }
    }
    if (st == OA_OK && (st = oa_onnx_connect_input(c, n, 0, 0)) == OA_OK) {
        st = oa_onnx_connect(n, 1, kp, 0);
    }
    return st == OA_OK ? oa_onnx_bind_output(c, 0, n, 0) : st;
}

oa_status oa_onnx_op_clip(onnx_node_ctx *c)
{
    oa_status st;
    oa_node *n;
    if (c->opset < 11) {
        float lo, hi;
        oa_node *cast, *kl, *kh;
        if ((st = oa_onnx_attr_float(c, "min", -FLT_MAX, &lo)) != OA_OK ||
            (st = oa_onnx_attr_float(c, "max", FLT_MAX, &hi)) != OA_OK ||
            (st = oa_onnx_emit(c, OA_OP_CAST, "cast", 1, 1, &cast)) != OA_OK ||
            (st = oa_node_set_int(cast, "dst_type", OA_DT_FLOAT)) != OA_OK ||
            (st = oa_onnx_connect_input(c, cast, 0, 0)) != OA_OK ||
            (st = oa_onnx_const_f32(c, "min", &lo, 1, true, &kl)) != OA_OK ||
            (st = oa_onnx_const_f32(c, "max", &hi, 1, true, &kh)) != OA_OK ||
            (st = oa_onnx_emit(c, OA_OP_CLIP_BY_VALUE, "clip", 3, 1, &n)) != OA_OK) {
            return st;
        }
        if ((st = oa_onnx_connect(n, 0, cast, 0)) == OA_OK && (st = oa_onnx_connect(n, 1, kl, 0)) == OA_OK &&
            (st = oa_onnx_connect(n, 2, kh, 0)) == OA_OK) {
            st = oa_onnx_bind_output(c, 0, n, 0);
        }
        return st;
    }
    bool has_min = oa_onnx_has_input(c, 1), has_max = oa_onnx_has_input(c, 2);
    /* ClipByValue (f32, constant bounds) when it applies, else Maximum then
     * Minimum (bounds computed at run time, integer and f64 inputs) */
    oa_dtype xdt;
    bool clip_ok = !oa_onnx_declared_dtype(c, oa_onnx_input_name(c, 0), &xdt) || xdt == OA_DT_FLOAT;
    for (uint32_t i = 1; i <= 2 && clip_ok; i++) {
        const onnx_value *v = oa_onnx_input_value(c, i);
        clip_ok = v != NULL && (v->node->type == OA_OP_CONST || v->node->type == OA_OP_CONSTANT);
    }
    if (has_min && has_max && !clip_ok) {
        oa_node *lo;
        st = oa_onnx_emit(c, OA_OP_MAXIMUM, "clip_min", 2, 1, &lo);
        if (st == OA_OK && (st = oa_onnx_connect_input(c, lo, 0, 0)) == OA_OK &&
            (st = oa_onnx_connect_input(c, lo, 1, 1)) == OA_OK &&
            (st = oa_onnx_emit(c, OA_OP_MINIMUM, "clip_max", 2, 1, &n)) == OA_OK &&
            (st = oa_onnx_connect(n, 0, lo, 0)) == OA_OK) {
            st = oa_onnx_connect_input(c, n, 1, 2);
        }
    } else if (has_min && has_max) {
        st = oa_onnx_emit(c, OA_OP_CLIP_BY_VALUE, "clip", 3, 1, &n);
        for (uint32_t i = 0; i < 3 && st == OA_OK; i++) {
            st = oa_onnx_connect_input(c, n, i, i);
        }
    } else if (has_min || has_max) {
        st = oa_onnx_emit(c, has_max ? OA_OP_MINIMUM : OA_OP_MAXIMUM, "clip", 2, 1, &n);
        if (st == OA_OK && (st = oa_onnx_connect_input(c, n, 0, 0)) == OA_OK) {
            st = oa_onnx_connect_input(c, n, 1, has_max ? 2 : 1);
        }
    } else {
        /* Neither bound (CANN fails): the identity. */
        st = oa_onnx_emit(c, OA_OP_IDENTITY, "clip", 1, 1, &n);
        if (st == OA_OK) {
            st = oa_onnx_connect_input(c, n, 0, 0);
        }
    }
    return st == OA_OK ? oa_onnx_bind_output(c, 0, n, 0) : st;
}

oa_status oa_onnx_op_constant_of_shape(onnx_node_ctx *c)
{
    const Onnx__AttributeProto *a = oa_onnx_attr(c, "value");
    oa_tensor *t = NULL;
    oa_status st = OA_OK;
    oa_shape scalar = oa_shape_scalar();
    if (a != NULL) {
        if (a->t == NULL) {
            return ONNX_FAIL(c, OA_E_PARSE_MODEL, "attribute value is not a tensor");
        }
        char what[512];
        snprintf(what, sizeof(what), "ConstantOfShape node [%s] value", c->name);
        oa_tensor *src;
        if ((st = oa_onnx_tensor_from_proto(c->imp, c->sc->g, a->t, what, &src)) != OA_OK) {
            return st;
        }
        int64_t n;
        size_t esz = oa_dtype_size(src->desc.dtype);
        if (!oa_shape_numel(&src->desc.shape, &n) || n != 1 || esz == 0) {
            return ONNX_FAIL(c, OA_E_PARSE_MODEL, "value must hold exactly one element");
        }
        st = oa_graph_make_tensor(c->sc->g, src->desc.dtype, &scalar, src->data, esz, &t);
    } else {
        float zero = 0.0f;
        st = oa_graph_make_tensor(c->sc->g, OA_DT_FLOAT, &scalar, &zero, sizeof(zero), &t);
    }
    oa_node *k, *f;
    if (st != OA_OK || (st = oa_onnx_emit(c, OA_OP_CONST, "value", 0, 1, &k)) != OA_OK ||
        (st = oa_node_set_tensor(k, "value", t)) != OA_OK) {
        return st;
    }
    oa_desc_set(oa_node_output_desc(k, 0), t->desc.dtype, &scalar);
    if ((st = oa_onnx_emit(c, OA_OP_FILL, "fill", 2, 1, &f)) != OA_OK) {
        return st;
    }
    if ((st = oa_onnx_connect_input(c, f, 0, 0)) == OA_OK && (st = oa_onnx_connect(f, 1, k, 0)) == OA_OK) {
        st = oa_onnx_bind_output(c, 0, f, 0);
    }
    return st;
}

/* The reduction of ONNX input 0 (or of `pre`'s output when given) by GE op
 * `type`; axes as the ONNX op gives them (input from opset 18, ReduceSum's
 * from 13, else the attribute). */
static oa_status reduce_core(onnx_node_ctx *c, oa_op_type type, bool axes_input, oa_node *pre, oa_node **out)
{
    int64_t keep, noop = 0;
    oa_status st = oa_onnx_attr_int(c, "keepdims", 1, &keep);
    if (st == OA_OK && c->opset >= 13) {
        st = oa_onnx_attr_int(c, "noop_with_empty_axes", 0, &noop);
    }
    if (st != OA_OK) {
        return st;
    }
    oa_node *n, *k = NULL;
    if (!(axes_input && oa_onnx_has_input(c, 1))) {
        const int64_t *axes = NULL;
        size_t na = 0;
        if (!axes_input && (st = oa_onnx_attr_ints(c, "axes", &axes, &na)) != OA_OK) {
            return st;
        }
        if ((st = oa_onnx_const_i32(c, "axes", axes, na, false, &k)) != OA_OK) {
            return st;
        }
    }
    if ((st = oa_onnx_emit(c, type, "reduce", 2, 1, &n)) != OA_OK) {
        return st;
    }
    if ((st = pre ? oa_onnx_connect(n, 0, pre, 0) : oa_onnx_connect_input(c, n, 0, 0)) == OA_OK) {
        st = k ? oa_onnx_connect(n, 1, k, 0) : oa_onnx_connect_input(c, n, 1, 1);
    }
    if (st == OA_OK && (st = oa_node_set_bool(n, "keep_dims", keep != 0)) == OA_OK) {
        st = oa_node_set_bool(n, "noop_with_empty_axes", noop != 0);
    }
    *out = n;
    return st;
}

oa_status oa_onnx_op_reduce(onnx_node_ctx *c)
{
    bool axes_input = c->opset >= 18 || (c->ge_type == OA_OP_REDUCE_SUM && c->opset >= 13);
    oa_node *n;
    oa_status st = reduce_core(c, (oa_op_type)c->ge_type, axes_input, NULL, &n);
    return st == OA_OK ? oa_onnx_bind_output(c, 0, n, 0) : st;
}

/* ReduceL1, ReduceL2, ReduceSumSquare, ReduceLogSum, ReduceLogSumExp: their
 * ONNX definitions as an elementwise op, ReduceSum and an elementwise op
 * (ReduceLogSumExp = log(sum(exp(x))), the suite's reference formula). */
oa_status oa_onnx_op_reduce_composite(onnx_node_ctx *c)
{
    const char *t = c->op_type;
    oa_op_type pre_t = OA_OP_IDENTITY, post_t = OA_OP_IDENTITY;
    if (strcmp(t, "ReduceL1") == 0) {
        pre_t = OA_OP_ABS;
    } else if (strcmp(t, "ReduceL2") == 0) {
        pre_t = OA_OP_SQUARE;
        post_t = OA_OP_SQRT;
    } else if (strcmp(t, "ReduceSumSquare") == 0) {
        pre_t = OA_OP_SQUARE;
    } else if (strcmp(t, "ReduceLogSum") == 0) {
        post_t = OA_OP_LOG;
    } else if (strcmp(t, "ReduceLogSumExp") == 0) {
        pre_t = OA_OP_EXP;
        post_t = OA_OP_LOG;
    }
    oa_node *pre = NULL, *red, *post;
    oa_status st = OA_OK;
    if (pre_t != OA_OP_IDENTITY && (st = oa_onnx_emit(c, pre_t, "pre", 1, 1, &pre)) == OA_OK) {
        st = oa_onnx_connect_input(c, pre, 0, 0);
    }
    if (st == OA_OK) {
        st = reduce_core(c, OA_OP_REDUCE_SUM, c->opset >= 18, pre, &red);
    }
    if (st != OA_OK) {
        return st;
    }
    if (post_t == OA_OP_IDENTITY) {
        return oa_onnx_bind_output(c, 0, red, 0);
    }
    if ((st = oa_onnx_emit(c, post_t, "post", 1, 1, &post)) == OA_OK &&
        (st = oa_onnx_connect(post, 0, red, 0)) == OA_OK) {
        st = oa_onnx_bind_output(c, 0, post, 0);
    }
    return st;
}

/* ArgMax / ArgMin as TopK(k=1) along the axis (GE's ArgMaxV2 / ArgMin have no
 * CPU kernel; TopK returns the first of equal values, ONNX's default). With
 * select_last_index=1 the axis is reversed first and the index mapped back
 * (n - 1 - i, n from Shape). keepdims=0 squeezes the axis. */
oa_status oa_onnx_op_arg(onnx_node_ctx *c)
{
    int64_t axis, keep, last;
    oa_status st;
    if ((st = oa_onnx_attr_int(c, "axis", 0, &axis)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "keepdims", 1, &keep)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "select_last_index", 0, &last)) != OA_OK) {
        return st;
    }
    oa_node *src = NULL, *k, *t, *cast, *idx;
    if (last != 0) {
        const int64_t b = -1, e = INT64_MIN, stp = -1;
        oa_node *kb, *ke, *ka, *ks;
        if ((st = oa_onnx_const_i64(c, "rev_begin", &b, 1, false, &kb)) != OA_OK ||
            (st = oa_onnx_const_i64(c, "rev_end", &e, 1, false, &ke)) != OA_OK ||
            (st = oa_onnx_const_i64(c, "rev_axes", &axis, 1, false, &ka)) != OA_OK ||
            (st = oa_onnx_const_i64(c, "rev_steps", &stp, 1, false, &ks)) != OA_OK ||
            (st = oa_onnx_emit(c, OA_OP_STRIDED_SLICE_V2, "reverse", 5, 1, &src)) != OA_OK ||
            (st = oa_onnx_connect_input(c, src, 0, 0)) != OA_OK || (st = oa_onnx_connect(src, 1, kb, 0)) != OA_OK ||
            (st = oa_onnx_connect(src, 2, ke, 0)) != OA_OK || (st = oa_onnx_connect(src, 3, ka, 0)) != OA_OK ||
            (st = oa_onnx_connect(src, 4, ks, 0)) != OA_OK) {
            return st;
        }
    }
    const int64_t one = 1;
    if ((st = oa_onnx_const_i32(c, "k", &one, 1, true, &k)) != OA_OK ||
        (st = oa_onnx_emit(c, OA_OP_TOP_K, "topk", 2, 2, &t)) != OA_OK ||
        (st = src ? oa_onnx_connect(t, 0, src, 0) : oa_onnx_connect_input(c, t, 0, 0)) != OA_OK ||
        (st = oa_onnx_connect(t, 1, k, 0)) != OA_OK || (st = oa_node_set_int(t, "dim", axis)) != OA_OK ||
        (st = oa_node_set_bool(t, "largest", c->ge_type == OA_OP_ARG_MAX_V2)) != OA_OK ||
        (st = oa_node_set_bool(t, "sorted", true)) != OA_OK ||
        (st = oa_onnx_emit(c, OA_OP_CAST, "cast", 1, 1, &cast)) != OA_OK ||
        (st = oa_onnx_connect(cast, 0, t, 1)) != OA_OK ||
        (st = oa_node_set_int(cast, "dst_type", OA_DT_INT64)) != OA_OK) {
        return st;
    }
    idx = cast;
    if (last != 0) {
        const int64_t zero = 0;
        oa_node *shape, *gi, *ga, *n, *k1, *n1, *r;
        if ((st = oa_onnx_emit(c, OA_OP_SHAPE, "shape", 1, 1, &shape)) != OA_OK ||
            (st = oa_onnx_connect_input(c, shape, 0, 0)) != OA_OK ||
            (st = oa_node_set_int(shape, "dtype", OA_DT_INT64)) != OA_OK ||
            (st = oa_onnx_const_i64(c, "axis_index", &axis, 1, true, &gi)) != OA_OK ||
            (st = oa_onnx_const_i32(c, "gather_axis", &zero, 1, true, &ga)) != OA_OK ||
            (st = oa_onnx_emit(c, OA_OP_GATHER_V2, "dim", 3, 1, &n)) != OA_OK ||
            (st = oa_onnx_connect(n, 0, shape, 0)) != OA_OK || (st = oa_onnx_connect(n, 1, gi, 0)) != OA_OK ||
            (st = oa_onnx_connect(n, 2, ga, 0)) != OA_OK ||
            (st = oa_node_set_bool(n, "negative_index_support", true)) != OA_OK ||
            (st = oa_onnx_const_i64(c, "one", &one, 1, true, &k1)) != OA_OK ||
            (st = oa_onnx_emit(c, OA_OP_SUB, "last", 2, 1, &n1)) != OA_OK ||
            (st = oa_onnx_connect(n1, 0, n, 0)) != OA_OK || (st = oa_onnx_connect(n1, 1, k1, 0)) != OA_OK ||
            (st = oa_onnx_emit(c, OA_OP_SUB, "unreverse", 2, 1, &r)) != OA_OK ||
            (st = oa_onnx_connect(r, 0, n1, 0)) != OA_OK || (st = oa_onnx_connect(r, 1, cast, 0)) != OA_OK) {
            return st;
        }
        idx = r;
    }
    if (keep) {
        return oa_onnx_bind_output(c, 0, idx, 0);
    }
    oa_node *sq;
    if ((st = oa_onnx_emit(c, OA_OP_SQUEEZE, "squeeze", 1, 1, &sq)) != OA_OK ||
        (st = oa_onnx_connect(sq, 0, idx, 0)) != OA_OK ||
        (st = oa_node_set_list_int(sq, "axis", &axis, 1)) != OA_OK) {
        return st;
    }
    return oa_onnx_bind_output(c, 0, sq, 0);
}

oa_status oa_onnx_op_minmax(onnx_node_ctx *c)
{
    uint32_t n = (uint32_t)c->np->n_input;
    oa_status st;
    if (n == 0) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "has no inputs");
    }
    oa_node *acc;
    if (n == 1) {
        if ((st = oa_onnx_emit(c, OA_OP_IDENTITY, "identity", 1, 1, &acc)) != OA_OK ||
            (st = oa_onnx_connect_input(c, acc, 0, 0)) != OA_OK) {
            return st;
        }
        return oa_onnx_bind_output(c, 0, acc, 0);
    }
    if (n > ONNX_MAX_CREATED) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "has %u inputs (max %d)", n, ONNX_MAX_CREATED);
    }
    acc = NULL;
    for (uint32_t i = 1; i < n; i++) {
        oa_node *m;
        if ((st = oa_onnx_emit(c, (oa_op_type)c->ge_type, "fold", 2, 1, &m)) != OA_OK) {
            return st;
        }
        st = acc ? oa_onnx_connect(m, 0, acc, 0) : oa_onnx_connect_input(c, m, 0, 0);
        if (st == OA_OK) {
            st = oa_onnx_connect_input(c, m, 1, i);
        }
        if (st != OA_OK) {
            return st;
        }
        acc = m;
    }
    return oa_onnx_bind_output(c, 0, acc, 0);
}

/* Mean: the inputs added pairwise (as Sum), times 1/n (float types). */
oa_status oa_onnx_op_mean(onnx_node_ctx *c)
{
    oa_status st = oa_onnx_op_minmax(c);
    if (st != OA_OK) {
        return st;
    }
    oa_node *sum = c->num_created ? c->created[c->num_created - 1] : NULL;
    if (sum == NULL) {
        return ONNX_FAIL(c, OA_E_INTERNAL, "no sum node");
    }
    const float inv = 1.0f / (float)c->np->n_input;
    oa_node *k, *m;
    if ((st = oa_onnx_const_f32(c, "inv_n", &inv, 1, true, &k)) == OA_OK &&
        (st = oa_onnx_emit(c, OA_OP_MUL, "mean", 2, 1, &m)) == OA_OK && (st = oa_onnx_connect(m, 0, sum, 0)) == OA_OK &&
        (st = oa_onnx_connect(m, 1, k, 0)) == OA_OK) {
        st = oa_onnx_bind_output(c, 0, m, 0);
    }
    return st;
}

oa_status oa_onnx_op_topk(onnx_node_ctx *c)
{
    int64_t axis, largest = 1, sorted = 1;
    oa_status st;
    if ((st = oa_onnx_attr_int(c, "axis", -1, &axis)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "largest", 1, &largest)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "sorted", 1, &sorted)) != OA_OK) {
        return st;
    }
    oa_node *k = NULL, *t, *cast;
    if (c->opset < 10) {
        int64_t kv;
        if ((st = oa_onnx_attr_required(c, "k")) != OA_OK || (st = oa_onnx_attr_int(c, "k", 0, &kv)) != OA_OK ||
            (st = oa_onnx_const_i32(c, "k", &kv, 1, true, &k)) != OA_OK) {
            return st;
        }
    }
    if ((st = oa_onnx_emit(c, OA_OP_TOP_K, "topk", 2, 2, &t)) != OA_OK ||
        (st = oa_onnx_connect_input(c, t, 0, 0)) != OA_OK) {
        return st;
    }
    st = k ? oa_onnx_connect(t, 1, k, 0) : oa_onnx_connect_input(c, t, 1, 1);
    if (st == OA_OK && (st = oa_node_set_int(t, "dim", axis)) == OA_OK &&
        (st = oa_node_set_bool(t, "largest", largest != 0)) == OA_OK) {
        st = oa_node_set_bool(t, "sorted", sorted != 0);
    }
    /* GE TopK returns int32 indices; ONNX promises int64 (sensible fix). */
    if (st == OA_OK && (st = oa_onnx_emit(c, OA_OP_CAST, "cast", 1, 1, &cast)) == OA_OK &&
        (st = oa_onnx_connect(cast, 0, t, 1)) == OA_OK) {
        st = oa_node_set_int(cast, "dst_type", OA_DT_INT64);
    }
    if (st == OA_OK && (st = oa_onnx_bind_output(c, 0, t, 0)) == OA_OK) {
        st = oa_onnx_bind_output(c, 1, cast, 0);
    }
    return st;
}

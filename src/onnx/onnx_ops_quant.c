/*
 * The integer and quantized ops (src/onnx/README.md, "Integer and quantized
 * ops"): MatMulInteger, ConvInteger, QLinearMatMul, QLinearConv,
 * DynamicQuantizeLinear, composed from f32 kernels so that every integer
 * result is exact.
 *
 * A product of int8/uint8 operands with their zero points removed,
 * a' = a - a_zp and b' = b - b_zp (both in [-255, 255]), is split into
 * parts small enough that every partial sum of the f32 kernels is an integer
 * below 2^24, hence exact in any summation order:
 *
 *   a' = 16*ah + al  (ah = floor(a'/16) in [-16, 15], al in [0, 15])
 *   a'.b' = 256*(ah.bh) + 16*(ah.bl + al.bh) + al.bl
 *
 * Each of the four products is at most 256 per term, so a reduction over
 * K <= 65536 terms is exact; the four results are cast to int32 and combined
 * in int32 (the ONNX output type). The QLinear ops then requantize as
 * QuantizeLinear does: round half to even of (a_scale*b_scale*acc)/y_scale,
 * plus y_zp, saturated to the output type.
 */
#include <stdlib.h>
#include <string.h>

#include "onnx/onnx_internal.h"

#define EXACT_K_MAX 65536

/* Element type of ONNX input i (declared), dflt when the input is absent. */
static oa_status in_type(onnx_node_ctx *c, uint32_t i, oa_dtype dflt, oa_dtype *dt)
{
    *dt = dflt;
    if (!oa_onnx_has_input(c, i)) {
        return OA_OK;
    }
    if (!oa_onnx_declared_dtype(c, oa_onnx_input_name(c, i), dt)) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "the element type of input %u must be declared", i);
    }
    if (*dt != OA_DT_UINT8 && *dt != OA_DT_INT8) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "input %u is %s (int8 and uint8 are supported)", i,
                         oa_dtype_name(*dt));
    }
    return OA_OK;
}

/* f32(x) - f32(zp); zp (input zi) absent: f32(x). A 1-D zero point of a
 * matrix operand's rows (row_zp) becomes [M, 1]. */
static onnx_tv centered(onnx_xb *b, uint32_t xi, uint32_t zi, bool row_zp)
{
    onnx_node_ctx *c = b->c;
    onnx_tv x = oa_xb_cast(b, "x_f32", oa_xb_in(b, xi), OA_DT_FLOAT);
    if (!oa_onnx_has_input(c, zi)) {
        return x;
    }
    onnx_tv z = oa_xb_cast(b, "zp_f32", oa_xb_in(b, zi), OA_DT_FLOAT);
    int64_t d0;
    if (row_zp && oa_onnx_declared_rank(c, oa_onnx_input_name(c, zi), &d0) == 1) {
        const int64_t axis = -1;
        z = oa_xb_un(b, OA_OP_UNSQUEEZE, "zp_rows", z);
        oa_xb_ints(b, z, "axes", &axis, 1);
    }
    return oa_xb_bin(b, OA_OP_SUB, "centered", x, z);
}

/* Runs an existing ONNX mapping (fn) on two computed operands as if they
 * were the node's inputs 0 and 1 (the node's attributes stay). */
static onnx_tv sub_op(onnx_xb *b, onnx_op_fn fn, int ge_type, onnx_tv x, onnx_tv w, const char *tag)
{
    onnx_node_ctx *c = b->c;
    if (b->st != OA_OK) {
        onnx_tv none = {NULL, 0};
        return none;
    }
    oa_arena *a = oa_graph_arena(c->sc->g);
    char *names[3];
    const onnx_tv vals[2] = {x, w};
    static const char *const SUFFIX[3] = {"x", "w", "y"};
    for (int k = 0; k < 3; k++) {
        names[k] = oa_arena_printf(a, "%s/__%s_%s", c->name, tag, SUFFIX[k]);
        if (names[k] == NULL) {
            b->st = OA_E_NOMEM;
            onnx_tv none = {NULL, 0};
            return none;
        }
    }
    for (int k = 0; k < 2 && b->st == OA_OK; k++) {
        onnx_value *v = oa_arena_alloc(a, sizeof(*v), 0);
        if (v == NULL) {
            b->st = OA_E_NOMEM;
            break;
        }
        v->node = vals[k].n;
        v->index = vals[k].i;
        b->st = oa_strmap_put(&c->sc->values, names[k], v);
    }
    Onnx__NodeProto np = *c->np;
    np.n_input = 2;
    np.input = names;
    np.n_output = 1;
    np.output = &names[2];
    /* a conv without kernel_shape: from the weight's declared dims (the computed operand has none yet) */
    Onnx__AttributeProto ks = ONNX__ATTRIBUTE_PROTO__INIT;
    Onnx__AttributeProto **attrs = NULL;
    int64_t dims[OA_MAX_RANK];
    int64_t wr;
    if (b->st == OA_OK && (ge_type == OA_OP_CONV2D) && oa_onnx_attr(c, "kernel_shape") == NULL &&
        (wr = oa_onnx_declared_dims(c, oa_onnx_input_name(c, strcmp(c->op_type, "QLinearConv") == 0 ? 3 : 1),
                                    dims)) >= 3) {
        attrs = oa_arena_alloc(a, (c->np->n_attribute + 1) * sizeof(*attrs), 0);
        int64_t *ksv = oa_arena_alloc(a, (size_t)(wr - 2) * sizeof(int64_t), 0);
        if (attrs == NULL || ksv == NULL) {
            b->st = OA_E_NOMEM;
        } else {
            memcpy(ksv, dims + 2, (size_t)(wr - 2) * sizeof(int64_t));
            for (size_t k = 0; k < c->np->n_attribute; k++) {
                attrs[k] = c->np->attribute[k];
            }
            ks.name = (char *)"kernel_shape";
            ks.has_type = true;
            ks.type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
            ks.n_ints = (size_t)(wr - 2);
            ks.ints = ksv;
            attrs[c->np->n_attribute] = &ks;
            np.attribute = attrs;
            np.n_attribute = c->np->n_attribute + 1;
        }
    }
    onnx_node_ctx *sub = malloc(sizeof(*sub));
    if (b->st == OA_OK && sub == NULL) {
        b->st = OA_E_NOMEM;
    }
    const onnx_value *y = NULL;
    if (b->st == OA_OK) {
        *sub = *c;
        sub->np = &np;
        sub->ge_type = ge_type;
        b->st = fn(sub);
        memcpy(c->created, sub->created, sizeof(c->created));
        memcpy(c->roles, sub->roles, sizeof(c->roles));
        c->num_created = sub->num_created;
        y = b->st == OA_OK ? oa_strmap_get(&c->sc->values, names[2]) : NULL;
        if (b->st == OA_OK && y == NULL) {
            b->st = ONNX_FAIL(c, OA_E_INTERNAL, "the %s part produced no output", tag);
        }
    }
    free(sub);
    onnx_tv r = {y ? y->node : NULL, y ? y->index : 0};
    return r;
}

/* v = 16*hi + lo with hi = floor(v/16) */
static void split16(onnx_xb *b, onnx_tv v, onnx_tv k16, onnx_tv inv16, onnx_tv *hi, onnx_tv *lo)
{
    *hi = oa_xb_un(b, OA_OP_FLOOR, "hi", oa_xb_bin(b, OA_OP_MUL, "div16", v, inv16));
    *lo = oa_xb_bin(b, OA_OP_SUB, "lo", v, oa_xb_bin(b, OA_OP_MUL, "hi16", *hi, k16));
}

/* The exact int32 result of fn(a', b') (see the file comment). */
static onnx_tv exact_product(onnx_xb *b, onnx_op_fn fn, int ge_type, onnx_tv a, onnx_tv w)
{
    onnx_tv k16 = oa_xb_f32(b, "sixteen", 16.0f), inv16 = oa_xb_f32(b, "one_16th", 1.0f / 16.0f);
    onnx_tv ah, al, wh, wl;
    split16(b, a, k16, inv16, &ah, &al);
    split16(b, w, k16, inv16, &wh, &wl);
    onnx_tv hh = oa_xb_cast(b, "hh_i32", sub_op(b, fn, ge_type, ah, wh, "hh"), OA_DT_INT32);
    onnx_tv hl = oa_xb_cast(b, "hl_i32", sub_op(b, fn, ge_type, ah, wl, "hl"), OA_DT_INT32);
    onnx_tv lh = oa_xb_cast(b, "lh_i32", sub_op(b, fn, ge_type, al, wh, "lh"), OA_DT_INT32);
    onnx_tv ll = oa_xb_cast(b, "ll_i32", sub_op(b, fn, ge_type, al, wl, "ll"), OA_DT_INT32);
    const oa_shape s0 = oa_shape_scalar();
    const int32_t v256 = 256, v16 = 16;
    onnx_tv i256 = oa_xb_const(b, "i256", OA_DT_INT32, &s0, &v256, sizeof v256);
    onnx_tv i16 = oa_xb_const(b, "i16", OA_DT_INT32, &s0, &v16, sizeof v16);
    onnx_tv mid = oa_xb_bin(b, OA_OP_MUL, "mid16", oa_xb_bin(b, OA_OP_ADD, "mid", hl, lh), i16);
    onnx_tv acc = oa_xb_bin(b, OA_OP_ADD, "acc_hi", oa_xb_bin(b, OA_OP_MUL, "hh256", hh, i256), mid);
    return oa_xb_bin(b, OA_OP_ADD, "acc", acc, ll);
}

/* Declared reduction length: K of a matmul (last dim of A) or C/group*prod(kernel) of a conv. */
static oa_status check_k(onnx_node_ctx *c, bool conv)
{
    const Onnx__GraphProto *gp = c->sc->gp;
    const char *name = oa_onnx_input_name(c, conv ? 1 : 0);
    const Onnx__ValueInfoProto *const *lists[2] = {(const Onnx__ValueInfoProto *const *)gp->input,
                                                   (const Onnx__ValueInfoProto *const *)gp->value_info};
    const size_t counts[2] = {gp->n_input, gp->n_value_info};
    int64_t k = -1;
    for (size_t i = 0; i < gp->n_initializer && k < 0; i++) {
        const Onnx__TensorProto *t = gp->initializer[i];
        if (t->name != NULL && name != NULL && strcmp(t->name, name) == 0 && t->n_dims >= 1) {
            k = 1;
            for (size_t d = conv ? 1 : t->n_dims - 1; d < t->n_dims; d++) {
                k *= t->dims[d];
            }
        }
    }
    for (int l = 0; l < 2 && k < 0; l++) {
        for (size_t i = 0; i < counts[l] && k < 0; i++) {
            const Onnx__ValueInfoProto *vi = lists[l][i];
            if (vi->name == NULL || name == NULL || strcmp(vi->name, name) != 0 || vi->type == NULL ||
                vi->type->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || vi->type->tensor_type == NULL ||
                vi->type->tensor_type->shape == NULL || vi->type->tensor_type->shape->n_dim == 0) {
                continue;
            }
            const Onnx__TensorShapeProto *sh = vi->type->tensor_type->shape;
            int64_t p = 1;
            for (size_t d = conv ? 1 : sh->n_dim - 1; d < sh->n_dim; d++) {
                const Onnx__TensorShapeProto__Dimension *dm = sh->dim[d];
                p = dm->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE && p >= 0 ? p * dm->dim_value
                                                                                                   : -1;
            }
            k = p;
        }
    }
    if (k > EXACT_K_MAX) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "reduces over %lld terms; exact integer results are "
                                                      "supported up to %d", (long long)k, EXACT_K_MAX);
    }
    return OA_OK;
}

static oa_status integer_op(onnx_node_ctx *c, bool conv)
{
    oa_dtype t;
    oa_status st;
    for (uint32_t i = 0; i < 4; i++) {
        if ((st = in_type(c, i, OA_DT_UINT8, &t)) != OA_OK) {
            return st;
        }
    }
    if ((st = check_k(c, conv)) != OA_OK) {
        return st;
    }
    onnx_xb b = {c, OA_OK};
    onnx_tv a = centered(&b, 0, 2, !conv), w = centered(&b, 1, 3, false);
    onnx_tv y = conv ? exact_product(&b, oa_onnx_op_conv, OA_OP_CONV2D, a, w)
                     : exact_product(&b, oa_onnx_op_matmul, OA_OP_BATCH_MAT_MUL_V2, a, w);
    oa_xb_out(&b, 0, y);
    return b.st;
}

oa_status oa_onnx_op_matmul_integer(onnx_node_ctx *c)
{
    return integer_op(c, false);
}

oa_status oa_onnx_op_conv_integer(onnx_node_ctx *c)
{
    return integer_op(c, true);
}

/* f32 x -> saturate(round_half_even(x / scale) + zp) in qt (QuantizeLinear). */
static onnx_tv quantize(onnx_xb *b, onnx_tv x, onnx_tv scale, onnx_tv zp_f32, oa_dtype qt)
{
    const float lo = qt == OA_DT_UINT8 ? 0.0f : -128.0f, hi = qt == OA_DT_UINT8 ? 255.0f : 127.0f;
    onnx_tv r = oa_xb_un(b, OA_OP_ROUND, "rounded", oa_xb_bin(b, OA_OP_REAL_DIV, "scaled", x, scale));
    if (zp_f32.n != NULL) {
        r = oa_xb_bin(b, OA_OP_ADD, "shifted", r, zp_f32);
    }
    const onnx_tv cl[3] = {r, oa_xb_f32(b, "q_min", lo), oa_xb_f32(b, "q_max", hi)};
    return oa_xb_cast(b, "quantized", oa_xb_op(b, OA_OP_CLIP_BY_VALUE, "saturated", cl, 3), qt);
}

/* QLinearMatMul (a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp) and
 * QLinearConv (x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, B?). */
static oa_status qlinear_op(onnx_node_ctx *c, bool conv)
{
    static const uint32_t QIN[4] = {0, 2, 3, 5};
    oa_dtype t, yt;
    oa_status st;
    for (uint32_t i = 0; i < 4; i++) {
        if ((st = in_type(c, QIN[i], OA_DT_UINT8, &t)) != OA_OK) {
            return st;
        }
    }
    if ((st = in_type(c, 7, OA_DT_UINT8, &yt)) != OA_OK || (st = check_k(c, conv)) != OA_OK) {
        return st;
    }
    if (!oa_onnx_has_input(c, 7)) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "needs y_zero_point (input 7)");
    }
    onnx_xb b = {c, OA_OK};
    /* zero points by input index: centered() reads (x, zp) pairs */
    onnx_tv a = centered(&b, 0, 2, !conv), w = centered(&b, 3, 5, false);
    onnx_tv acc = conv ? exact_product(&b, oa_onnx_op_conv, OA_OP_CONV2D, a, w)
                       : exact_product(&b, oa_onnx_op_matmul, OA_OP_BATCH_MAT_MUL_V2, a, w);
    if (conv && oa_onnx_has_input(c, 8)) {
        /* the int32 bias is added to the accumulator: [C] -> [C, 1, ...] */
        int64_t d0;
        const int64_t r = oa_onnx_declared_rank(c, oa_onnx_input_name(c, 0), &d0);
        if (r < 3 || r > 5) {
            return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "needs the declared rank of x (3 to 5) for its bias");
        }
        int64_t axes[3];
        for (int64_t k = 0; k < r - 2; k++) {
            axes[k] = k + 1;
        }
        onnx_tv bias = oa_xb_un(&b, OA_OP_UNSQUEEZE, "bias_view", oa_xb_in(&b, 8));
        oa_xb_ints(&b, bias, "axes", axes, (size_t)(r - 2));
        acc = oa_xb_bin(&b, OA_OP_ADD, "biased", acc, bias);
    }
    /* per-tensor or per-output-channel scales: a_scale*b_scale multiplies the f32 accumulator */
    onnx_tv ws = oa_xb_in(&b, 4);
    if (conv) {
        int64_t d0;
        if (oa_onnx_declared_rank(c, oa_onnx_input_name(c, 4), &d0) == 1 && d0 != 1) {
            int64_t r0;
            const int64_t r = oa_onnx_declared_rank(c, oa_onnx_input_name(c, 0), &r0);
            if (r < 3 || r > 5) {
                return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "needs the declared rank of x for per-channel scales");
            }
            int64_t axes[3];
            for (int64_t k = 0; k < r - 2; k++) {
                axes[k] = k + 1;
            }
            ws = oa_xb_un(&b, OA_OP_UNSQUEEZE, "w_scale_view", ws);
            oa_xb_ints(&b, ws, "axes", axes, (size_t)(r - 2));
        }
    }
    onnx_tv scale = oa_xb_bin(&b, OA_OP_MUL, "acc_scale", oa_xb_in(&b, 1), ws);
    onnx_tv real = oa_xb_bin(&b, OA_OP_MUL, "real", oa_xb_cast(&b, "acc_f32", acc, OA_DT_FLOAT), scale);
    onnx_tv yzp = oa_xb_cast(&b, "y_zp_f32", oa_xb_in(&b, 7), OA_DT_FLOAT);
    oa_xb_out(&b, 0, quantize(&b, real, oa_xb_in(&b, 6), yzp, yt));
    return b.st;
}

oa_status oa_onnx_op_qlinear_matmul(onnx_node_ctx *c)
{
    return qlinear_op(c, false);
}

oa_status oa_onnx_op_qlinear_conv(onnx_node_ctx *c)
{
    return qlinear_op(c, true);
}

/* DynamicQuantizeLinear (uint8): scale = (max(x, 0) - min(x, 0)) / 255,
 * zp = saturate(round(0 - min(x, 0) / scale)), y = QuantizeLinear(x, scale, zp). */
oa_status oa_onnx_op_dynamic_quantize(onnx_node_ctx *c)
{
    onnx_xb b = {c, OA_OK};
    const oa_shape s1 = oa_shape_make(1, (const int64_t[]){1});
    const int64_t flat = -1;
    const int32_t axis0 = 0;
    onnx_tv x = oa_xb_in(&b, 0);
    const onnx_tv rs[2] = {x, oa_xb_const(&b, "flat_shape", OA_DT_INT64, &s1, &flat, sizeof flat)};
    onnx_tv xf = oa_xb_op(&b, OA_OP_RESHAPE, "flat", rs, 2);
    onnx_tv ax = oa_xb_const(&b, "axes", OA_DT_INT32, &s1, &axis0, sizeof axis0);
    onnx_tv zero = oa_xb_f32(&b, "zero", 0.0f);
    onnx_tv mn = oa_xb_bin(&b, OA_OP_REDUCE_MIN, "x_min", xf, ax);
    onnx_tv mx = oa_xb_bin(&b, OA_OP_REDUCE_MAX, "x_max", xf, ax);
    if (b.st == OA_OK && ((b.st = oa_node_set_bool(mn.n, "keep_dims", false)) != OA_OK ||
                          (b.st = oa_node_set_bool(mx.n, "keep_dims", false)) != OA_OK)) {
        return b.st;
    }
    mn = oa_xb_bin(&b, OA_OP_MINIMUM, "x_min_adjusted", mn, zero);
    mx = oa_xb_bin(&b, OA_OP_MAXIMUM, "x_max_adjusted", mx, zero);
    onnx_tv scale = oa_xb_bin(&b, OA_OP_REAL_DIV, "y_scale", oa_xb_bin(&b, OA_OP_SUB, "x_range", mx, mn),
                              oa_xb_f32(&b, "q_range", 255.0f));
    onnx_tv zp0 = oa_xb_bin(&b, OA_OP_SUB, "initial_zp", zero, oa_xb_bin(&b, OA_OP_REAL_DIV, "min_scaled", mn, scale));
    const onnx_tv cl[3] = {zp0, zero, oa_xb_f32(&b, "q_max", 255.0f)};
    onnx_tv zpr = oa_xb_un(&b, OA_OP_ROUND, "rounded_zp", oa_xb_op(&b, OA_OP_CLIP_BY_VALUE, "clipped_zp", cl, 3));
    onnx_tv zp = oa_xb_cast(&b, "y_zero_point", zpr, OA_DT_UINT8);
    oa_xb_out(&b, 0, quantize(&b, x, scale, zpr, OA_DT_UINT8));
    oa_xb_out(&b, 1, scale);
    oa_xb_out(&b, 2, zp);
    return b.st;
}

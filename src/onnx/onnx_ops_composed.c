/*
 * ONNX ops written as their ONNX function definitions with graph ops (docs/ge_ir.md
 * "ONNX import"): NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss, Trilu,
 * QuantizeLinear / DequantizeLinear, InstanceNormalization, Hardmax and
 * DepthToSpace / SpaceToDepth. The op table is in onnx_ops.c.
 */
#define OA_LOG_MODULE "GE"
#include <math.h>
#include <float.h>
#include <string.h>

#include "base/util.h"
#include "onnx/onnx_internal.h"

/* ---- NegativeLogLikelihoodLoss / SoftmaxCrossEntropyLoss (their ONNX
 * function definitions written with graph ops) ---- */

typedef onnx_tv oref; /* a value as (node, output) */

oa_status oa_onnx_emit_tv(onnx_node_ctx *c, oa_op_type t, const char *role, const onnx_tv *in, uint32_t nin,
                          onnx_tv *out)
{
    oa_node *n;
    oa_status st = oa_onnx_emit(c, t, role, nin, 1, &n);
    for (uint32_t k = 0; k < nin && st == OA_OK; k++) {
        st = oa_onnx_connect(n, k, in[k].n, in[k].i);
    }
    out->n = n;
    out->i = 0;
    return st;
}

oa_status oa_onnx_in_tv(onnx_node_ctx *c, uint32_t i, onnx_tv *out)
{
    const onnx_value *v = oa_onnx_input_value(c, i);
    if (v == NULL) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "misses input %u", i);
    }
    out->n = v->node;
    out->i = v->index;
    return OA_OK;
}

/* loss[n, d..] = -x[n, t[n, d..], d..] * w[t] (0 where t == ignore_index),
 * reduced by `reduction` (none, sum, mean = sum / sum of the weights). */
static oa_status nll_core(onnx_node_ctx *c, oref x, oref *out)
{
    const char *red;
    oa_status st = oa_onnx_attr_str(c, "reduction", "mean", &red);
    if (st != OA_OK) {
        return st;
    }
    if (strcmp(red, "none") != 0 && strcmp(red, "sum") != 0 && strcmp(red, "mean") != 0) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "reduction %s is not none, sum or mean", red);
    }
    const bool has_ii = oa_onnx_attr(c, "ignore_index") != NULL;
    int64_t ii = 0;
    if (has_ii && (st = oa_onnx_attr_int(c, "ignore_index", 0, &ii)) != OA_OK) {
        return st;
    }
    const bool has_w = oa_onnx_has_input(c, 2);
    oref t, w = {0}, mask = {0}, r;
    if ((st = oa_onnx_in_tv(c, 1, &t)) != OA_OK || (has_w && (st = oa_onnx_in_tv(c, 2, &w)) != OA_OK)) {
        return st;
    }
    if (has_ii) { /* ignored targets read class 0 (then weigh 0) */
        const int64_t zero = 0;
        oref kii, kz, sel;
        if ((st = oa_onnx_const_i64(c, "ignore_index", &ii, 1, true, &kii.n)) != OA_OK ||
            (st = oa_onnx_const_i64(c, "zero_class", &zero, 1, true, &kz.n)) != OA_OK) {
            return st;
        }
        kii.i = kz.i = 0;
        oref eq_in[2] = {t, kii};
        if ((st = oa_onnx_emit_tv(c, OA_OP_EQUAL, "ignored", eq_in, 2, &mask)) != OA_OK) {
            return st;
        }
        oref sel_in[3] = {mask, kz, t};
        if ((st = oa_onnx_emit_tv(c, OA_OP_SELECT_V2, "target", sel_in, 3, &sel)) != OA_OK) {
            return st;
        }
        t = sel;
    }
    const int64_t one_axis = 1, gzero = 0;
    oref t1, g, g2, loss;
    if ((st = oa_onnx_emit_tv(c, OA_OP_UNSQUEEZE, "target_c", &t, 1, &t1)) != OA_OK ||
        (st = oa_node_set_list_int(t1.n, "axes", &one_axis, 1)) != OA_OK) {
        return st;
    }
    oref ge_in[2] = {x, t1};
    if ((st = oa_onnx_emit_tv(c, OA_OP_GATHER_ELEMENTS, "pick", ge_in, 2, &g)) != OA_OK ||
        (st = oa_node_set_int(g.n, "dim", 1)) != OA_OK ||
        (st = oa_onnx_emit_tv(c, OA_OP_SQUEEZE, "pick_sq", &g, 1, &g2)) != OA_OK ||
        (st = oa_node_set_list_int(g2.n, "axis", &one_axis, 1)) != OA_OK ||
        (st = oa_onnx_emit_tv(c, OA_OP_NEG, "neg", &g2, 1, &loss)) != OA_OK) {
        return st;
    }
    /* the per-element weight: w[t], 1 without weights; 0 where ignored */
    oref wt = {0};
    if (has_w) {
        oref ax;
        if ((st = oa_onnx_const_i32(c, "w_axis", &gzero, 1, true, &ax.n)) != OA_OK) {
            return st;
        }
        ax.i = 0;
        oref gw_in[3] = {w, t, ax};
        if ((st = oa_onnx_emit_tv(c, OA_OP_GATHER_V2, "weight", gw_in, 3, &wt)) != OA_OK) {
            return st;
        }
    }
    if (has_ii || (has_w && strcmp(red, "mean") == 0) || strcmp(red, "mean") == 0) {
        /* zeros and ones of the loss dtype, from the loss itself */
        oref zeros, ones;
        oref sub_in[2] = {loss, loss};
        if ((st = oa_onnx_emit_tv(c, OA_OP_SUB, "zeros", sub_in, 2, &zeros)) != OA_OK ||
            (st = oa_onnx_emit_tv(c, OA_OP_EXP, "ones", &zeros, 1, &ones)) != OA_OK) {
            return st;
        }
        if (!has_w) {
            wt = ones;
        }
        if (has_ii) {
            oref sel_in[3] = {mask, zeros, wt};
            if ((st = oa_onnx_emit_tv(c, OA_OP_SELECT_V2, "weight_ii", sel_in, 3, &wt)) != OA_OK) {
                return st;
            }
        }
    }
    if (wt.n != NULL) {
        oref mul_in[2] = {loss, wt};
        if ((st = oa_onnx_emit_tv(c, OA_OP_MUL, "weighted", mul_in, 2, &loss)) != OA_OK) {
            return st;
        }
    }
    if (strcmp(red, "none") == 0) {
        *out = loss;
        return OA_OK;
    }
    oref kax;
    if ((st = oa_onnx_const_i32(c, "all_axes", NULL, 0, false, &kax.n)) != OA_OK) {
        return st;
    }
    kax.i = 0;
    oref rs_in[2] = {loss, kax};
    if ((st = oa_onnx_emit_tv(c, OA_OP_REDUCE_SUM, "sum", rs_in, 2, &r)) != OA_OK ||
        (st = oa_node_set_bool(r.n, "keep_dims", false)) != OA_OK ||
        (st = oa_node_set_bool(r.n, "noop_with_empty_axes", false)) != OA_OK) {
        return st;
    }
    if (strcmp(red, "sum") == 0) {
        *out = r;
        return OA_OK;
    }
    oref ws, q;
    oref ws_in[2] = {wt, kax};
    if ((st = oa_onnx_emit_tv(c, OA_OP_REDUCE_SUM, "weight_sum", ws_in, 2, &ws)) != OA_OK ||
        (st = oa_node_set_bool(ws.n, "keep_dims", false)) != OA_OK ||
        (st = oa_node_set_bool(ws.n, "noop_with_empty_axes", false)) != OA_OK) {
        return st;
    }
    oref dv_in[2] = {r, ws};
    if ((st = oa_onnx_emit_tv(c, OA_OP_REAL_DIV, "mean", dv_in, 2, &q)) != OA_OK) {
        return st;
    }
    *out = q;
    return OA_OK;
}

oa_status oa_onnx_op_nll_loss(onnx_node_ctx *c)
{
    oref x, out;
    oa_status st = oa_onnx_in_tv(c, 0, &x);
    if (st == OA_OK && (st = nll_core(c, x, &out)) == OA_OK) {
        st = oa_onnx_bind_output(c, 0, out.n, out.i);
    }
    return st;
}

oa_status oa_onnx_op_sce_loss(onnx_node_ctx *c)
{
    oref x, lp, out;
    const int64_t one_axis = 1;
    oa_status st = oa_onnx_in_tv(c, 0, &x);
    if (st == OA_OK && (st = oa_onnx_emit_tv(c, OA_OP_LOG_SOFTMAX_V2, "log_prob", &x, 1, &lp)) == OA_OK &&
        (st = oa_node_set_list_int(lp.n, "axes", &one_axis, 1)) == OA_OK && (st = nll_core(c, lp, &out)) == OA_OK &&
        (st = oa_onnx_bind_output(c, 0, out.n, out.i)) == OA_OK) {
        st = oa_onnx_bind_output(c, 1, lp.n, lp.i);
    }
    return st;
}

/* Trilu: keep x[..., i, j] where j - i >= k (upper) or j - i <= k (lower),
 * else 0; the index grid from Shape and Range (static when x's shape is). */
oa_status oa_onnx_op_trilu(onnx_node_ctx *c)
{
    int64_t upper;
    oa_status st = oa_onnx_attr_int(c, "upper", 1, &upper);
    if (st != OA_OK) {
        return st;
    }
    const int64_t zero = 0, one = 1, col_shape[2] = {-1, 1};
    oref x, sh, h, w, kz, k1, kax, rows, cols, rows2, kcs, d, cmp, zeros, y, kk;
    const int64_t minus2 = -2, minus1 = -1;
    oref im2, im1;
    if ((st = oa_onnx_in_tv(c, 0, &x)) != OA_OK ||
        (st = oa_onnx_emit_tv(c, OA_OP_SHAPE, "shape", &x, 1, &sh)) != OA_OK ||
        (st = oa_node_set_int(sh.n, "dtype", OA_DT_INT64)) != OA_OK ||
        (st = oa_onnx_const_i64(c, "zero", &zero, 1, true, &kz.n)) != OA_OK ||
        (st = oa_onnx_const_i64(c, "one", &one, 1, true, &k1.n)) != OA_OK ||
        (st = oa_onnx_const_i32(c, "gather_axis", &zero, 1, true, &kax.n)) != OA_OK ||
        (st = oa_onnx_const_i64(c, "row_dim", &minus2, 1, true, &im2.n)) != OA_OK ||
        (st = oa_onnx_const_i64(c, "col_dim", &minus1, 1, true, &im1.n)) != OA_OK ||
        (st = oa_onnx_const_i64(c, "col_shape", col_shape, 2, false, &kcs.n)) != OA_OK) {
        return st;
    }
    kz.i = k1.i = kax.i = im2.i = im1.i = kcs.i = 0;
    oref gh_in[3] = {sh, im2, kax}, gw_in[3] = {sh, im1, kax};
    if ((st = oa_onnx_emit_tv(c, OA_OP_GATHER_V2, "rows_n", gh_in, 3, &h)) != OA_OK ||
        (st = oa_node_set_bool(h.n, "negative_index_support", true)) != OA_OK ||
        (st = oa_onnx_emit_tv(c, OA_OP_GATHER_V2, "cols_n", gw_in, 3, &w)) != OA_OK ||
        (st = oa_node_set_bool(w.n, "negative_index_support", true)) != OA_OK) {
        return st;
    }
    oref rr_in[3] = {kz, h, k1}, rc_in[3] = {kz, w, k1};
    if ((st = oa_onnx_emit_tv(c, OA_OP_RANGE, "rows", rr_in, 3, &rows)) != OA_OK ||
        (st = oa_onnx_emit_tv(c, OA_OP_RANGE, "cols", rc_in, 3, &cols)) != OA_OK) {
        return st;
    }
    oref rs_in[2] = {rows, kcs};
    if ((st = oa_onnx_emit_tv(c, OA_OP_RESHAPE, "rows_col", rs_in, 2, &rows2)) != OA_OK) {
        return st;
    }
    oref d_in[2] = {cols, rows2};
    if ((st = oa_onnx_emit_tv(c, OA_OP_SUB, "diag", d_in, 2, &d)) != OA_OK) {
        return st;
    }
    if (oa_onnx_has_input(c, 1)) {
        if ((st = oa_onnx_in_tv(c, 1, &kk)) != OA_OK) {
            return st;
        }
    } else {
        kk = kz;
    }
    oref c_in[2] = {d, kk};
    if ((st = oa_onnx_emit_tv(c, upper ? OA_OP_GREATER_EQUAL : OA_OP_LESS_EQUAL, "keep", c_in, 2, &cmp)) != OA_OK) {
        return st;
    }
    oref z_in[2] = {x, x};
    if ((st = oa_onnx_emit_tv(c, OA_OP_SUB, "zeros", z_in, 2, &zeros)) != OA_OK) {
        return st;
    }
    oref s_in[3] = {cmp, x, zeros};
    if ((st = oa_onnx_emit_tv(c, OA_OP_SELECT_V2, "trilu", s_in, 3, &y)) != OA_OK) {
        return st;
    }
    return oa_onnx_bind_output(c, 0, y.n, y.i);
}

/* ---- QuantizeLinear / DequantizeLinear (their ONNX definitions) ---- */

/* ONNX input i (scale or zero point) reshaped for `axis` of input 0 when it
 * is 1-D: [C] -> [C, 1, ...] (ranks from the graph's declarations). */
static oa_status q_param(onnx_node_ctx *c, uint32_t i, oref *out)
{
    oa_status st = oa_onnx_in_tv(c, i, out);
    if (st != OA_OK) {
        return st;
    }
    int64_t d0, axis;
    const int64_t rp = oa_onnx_declared_rank(c, oa_onnx_input_name(c, i), &d0);
    if (rp != 1 || (st = oa_onnx_attr_int(c, "axis", 1, &axis)) != OA_OK) {
        return st; /* a scalar broadcasts as it is */
    }
    const int64_t rx = oa_onnx_declared_rank(c, oa_onnx_input_name(c, 0), &d0);
    if (rx < 0) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "per-axis parameters need the declared rank of x");
    }
    if (axis < 0) {
        axis += rx;
    }
    if (axis < 0 || axis >= rx || rx > 16) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "axis %lld is out of range for rank %lld", (long long)axis,
                         (long long)rx);
    }
    const int64_t ones = rx - axis - 1;
    if (ones == 0) {
        return OA_OK;
    }
    int64_t shape[16];
    shape[0] = 0; /* keeps C */
    for (int64_t k = 1; k <= ones; k++) {
        shape[k] = 1;
    }
    oref ks, r;
    if ((st = oa_onnx_const_i64(c, "param_shape", shape, (size_t)(ones + 1), false, &ks.n)) != OA_OK) {
        return st;
    }
    ks.i = 0;
    oref in[2] = {*out, ks};
    if ((st = oa_onnx_emit_tv(c, OA_OP_RESHAPE, "param", in, 2, &r)) == OA_OK) {
        *out = r;
    }
    return st;
}

static oa_status to_f32(onnx_node_ctx *c, oref x, const char *role, oref *out)
{
    oa_status st = oa_onnx_emit_tv(c, OA_OP_CAST, role, &x, 1, out);
    return st == OA_OK ? oa_node_set_int(out->n, "dst_type", OA_DT_FLOAT) : st;
}

/* y = (x - zero_point) * scale, in f32 */
oa_status oa_onnx_op_dequantize(onnx_node_ctx *c)
{
    oref x, xf, sc, zp, zf, d, y;
    oa_status st;
    if ((st = oa_onnx_in_tv(c, 0, &x)) != OA_OK || (st = to_f32(c, x, "x_f32", &xf)) != OA_OK ||
        (st = q_param(c, 1, &sc)) != OA_OK) {
        return st;
    }
    d = xf;
    if (oa_onnx_has_input(c, 2)) {
        if ((st = q_param(c, 2, &zp)) != OA_OK || (st = to_f32(c, zp, "zp_f32", &zf)) != OA_OK) {
            return st;
        }
        oref sub_in[2] = {xf, zf};
        if ((st = oa_onnx_emit_tv(c, OA_OP_SUB, "centered", sub_in, 2, &d)) != OA_OK) {
            return st;
        }
    }
    oref mul_in[2] = {d, sc};
    if ((st = oa_onnx_emit_tv(c, OA_OP_MUL, "dequantized", mul_in, 2, &y)) != OA_OK) {
        return st;
    }
    return oa_onnx_bind_output(c, 0, y.n, y.i);
}

/* y = saturate(round_half_even(x / scale) + zero_point) in zero_point's type
 * (uint8 without one) */
oa_status oa_onnx_op_quantize(onnx_node_ctx *c)
{
    oa_dtype qt = OA_DT_UINT8;
    if (oa_onnx_has_input(c, 2) && !oa_onnx_declared_dtype(c, oa_onnx_input_name(c, 2), &qt)) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "the zero point's element type must be declared");
    }
    if (qt != OA_DT_UINT8 && qt != OA_DT_INT8) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "quantization to %s is not supported (uint8, int8)",
                         oa_dtype_name(qt));
    }
    const float lo = qt == OA_DT_UINT8 ? 0.0f : -128.0f, hi = qt == OA_DT_UINT8 ? 255.0f : 127.0f;
    oref x, sc, q, r, zp, zf, klo, khi, cl, y;
    oa_status st;
    if ((st = oa_onnx_in_tv(c, 0, &x)) != OA_OK || (st = q_param(c, 1, &sc)) != OA_OK) {
        return st;
    }
    oref div_in[2] = {x, sc};
    if ((st = oa_onnx_emit_tv(c, OA_OP_REAL_DIV, "scaled", div_in, 2, &q)) != OA_OK ||
        (st = oa_onnx_emit_tv(c, OA_OP_ROUND, "rounded", &q, 1, &r)) != OA_OK) {
        return st;
    }
    if (oa_onnx_has_input(c, 2)) {
        if ((st = q_param(c, 2, &zp)) != OA_OK || (st = to_f32(c, zp, "zp_f32", &zf)) != OA_OK) {
            return st;
        }
        oref add_in[2] = {r, zf};
        if ((st = oa_onnx_emit_tv(c, OA_OP_ADD, "shifted", add_in, 2, &r)) != OA_OK) {
            return st;
        }
    }
    if ((st = oa_onnx_const_f32(c, "q_min", &lo, 1, true, &klo.n)) != OA_OK ||
        (st = oa_onnx_const_f32(c, "q_max", &hi, 1, true, &khi.n)) != OA_OK) {
        return st;
    }
    klo.i = khi.i = 0;
    oref cl_in[3] = {r, klo, khi};
    if ((st = oa_onnx_emit_tv(c, OA_OP_CLIP_BY_VALUE, "saturated", cl_in, 3, &cl)) != OA_OK ||
        (st = oa_onnx_emit_tv(c, OA_OP_CAST, "quantized", &cl, 1, &y)) != OA_OK ||
        (st = oa_node_set_int(y.n, "dst_type", qt)) != OA_OK) {
        return st;
    }
    return oa_onnx_bind_output(c, 0, y.n, y.i);
}

/* v [C] -> [C, 1 x ones] */
static oa_status channel_view(onnx_node_ctx *c, oref v, int64_t ones, oref *out)
{
    int64_t shape[16];
    if (ones < 0 || ones > 15) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "rank out of range");
    }
    shape[0] = 0; /* keeps C */
    for (int64_t k = 1; k <= ones; k++) {
        shape[k] = 1;
    }
    oref ks;
    oa_status st = oa_onnx_const_i64(c, "channel_shape", shape, (size_t)(ones + 1), false, &ks.n);
    if (st != OA_OK) {
        return st;
    }
    ks.i = 0;
    oref in[2] = {v, ks};
    return oa_onnx_emit_tv(c, OA_OP_RESHAPE, "channel_view", in, 2, out);
}

/* InstanceNormalization: per (n, c) over the spatial axes,
 * y = scale * (x - mean) / sqrt(var + epsilon) + B (rank from the graph). */
oa_status oa_onnx_op_instance_norm(onnx_node_ctx *c)
{
    float eps;
    int64_t d0;
    oa_status st = oa_onnx_attr_float(c, "epsilon", 1e-5f, &eps);
    if (st != OA_OK) {
        return st;
    }
    const int64_t r = oa_onnx_declared_rank(c, oa_onnx_input_name(c, 0), &d0);
    if (r < 3 || r > 8) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "needs the declared rank (>= 3) of its input");
    }
    int64_t axes[8];
    for (int64_t k = 2; k < r; k++) {
        axes[k - 2] = k;
    }
    oref x, sc, b, kax, keps, mean, cen, sq, var, ve, sd, nrm, scv, bv, y1, y;
    if ((st = oa_onnx_in_tv(c, 0, &x)) != OA_OK || (st = oa_onnx_in_tv(c, 1, &sc)) != OA_OK ||
        (st = oa_onnx_in_tv(c, 2, &b)) != OA_OK ||
        (st = oa_onnx_const_i32(c, "axes", axes, (size_t)(r - 2), false, &kax.n)) != OA_OK ||
        (st = oa_onnx_const_f32(c, "epsilon", &eps, 1, true, &keps.n)) != OA_OK) {
        return st;
    }
    kax.i = keps.i = 0;
    oref m_in[2] = {x, kax};
    if ((st = oa_onnx_emit_tv(c, OA_OP_REDUCE_MEAN, "mean", m_in, 2, &mean)) != OA_OK ||
        (st = oa_node_set_bool(mean.n, "keep_dims", true)) != OA_OK) {
        return st;
    }
    oref c_in[2] = {x, mean};
    if ((st = oa_onnx_emit_tv(c, OA_OP_SUB, "centered", c_in, 2, &cen)) != OA_OK ||
        (st = oa_onnx_emit_tv(c, OA_OP_SQUARE, "sq", &cen, 1, &sq)) != OA_OK) {
        return st;
    }
    oref v_in[2] = {sq, kax};
    if ((st = oa_onnx_emit_tv(c, OA_OP_REDUCE_MEAN, "var", v_in, 2, &var)) != OA_OK ||
        (st = oa_node_set_bool(var.n, "keep_dims", true)) != OA_OK) {
        return st;
    }
    oref e_in[2] = {var, keps};
    if ((st = oa_onnx_emit_tv(c, OA_OP_ADD, "var_eps", e_in, 2, &ve)) != OA_OK ||
        (st = oa_onnx_emit_tv(c, OA_OP_SQRT, "std", &ve, 1, &sd)) != OA_OK) {
        return st;
    }
    oref n_in[2] = {cen, sd};
    if ((st = oa_onnx_emit_tv(c, OA_OP_REAL_DIV, "normalized", n_in, 2, &nrm)) != OA_OK ||
        (st = channel_view(c, sc, r - 2, &scv)) != OA_OK || (st = channel_view(c, b, r - 2, &bv)) != OA_OK) {
        return st;
    }
    oref s_in[2] = {nrm, scv};
    if ((st = oa_onnx_emit_tv(c, OA_OP_MUL, "scaled", s_in, 2, &y1)) != OA_OK) {
        return st;
    }
    oref b_in[2] = {y1, bv};
    if ((st = oa_onnx_emit_tv(c, OA_OP_ADD, "biased", b_in, 2, &y)) != OA_OK) {
        return st;
    }
    return oa_onnx_bind_output(c, 0, y.n, y.i);
}

/* Hardmax (opset 13, one axis): 1 where the first maximum along the axis is,
 * else 0: TopK(k=1) indices compared with the axis' index grid (rank and
 * element type from the graph). */
oa_status oa_onnx_op_hardmax(onnx_node_ctx *c)
{
    int64_t axis, d0;
    oa_dtype dt;
    oa_status st = oa_onnx_attr_int(c, "axis", -1, &axis);
    if (st != OA_OK) {
        return st;
    }
    if (c->opset < 13) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "Hardmax below opset 13 (2-D coercion) is not supported");
    }
    const int64_t r = oa_onnx_declared_rank(c, oa_onnx_input_name(c, 0), &d0);
    if (r < 1 || r > 8 || !oa_onnx_declared_dtype(c, oa_onnx_input_name(c, 0), &dt)) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "needs the declared rank and type of its input");
    }
    if (axis < 0) {
        axis += r;
    }
    if (axis < 0 || axis >= r) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "axis out of range for rank %lld", (long long)r);
    }
    const int64_t zero = 0, one = 1;
    oref x, k1, t, idx, sh, gi, ga, n, kz, kone, rg, grid, eq, y;
    if ((st = oa_onnx_in_tv(c, 0, &x)) != OA_OK || (st = oa_onnx_const_i32(c, "k", &one, 1, true, &k1.n)) != OA_OK) {
        return st;
    }
    k1.i = 0;
    oa_node *tk;
    if ((st = oa_onnx_emit(c, OA_OP_TOP_K, "topk", 2, 2, &tk)) != OA_OK ||
        (st = oa_onnx_connect(tk, 0, x.n, x.i)) != OA_OK || (st = oa_onnx_connect(tk, 1, k1.n, 0)) != OA_OK ||
        (st = oa_node_set_int(tk, "dim", axis)) != OA_OK || (st = oa_node_set_bool(tk, "largest", true)) != OA_OK ||
        (st = oa_node_set_bool(tk, "sorted", true)) != OA_OK) {
        return st;
    }
    t.n = tk;
    t.i = 1;
    if ((st = oa_onnx_emit_tv(c, OA_OP_CAST, "idx", &t, 1, &idx)) != OA_OK ||
        (st = oa_node_set_int(idx.n, "dst_type", OA_DT_INT64)) != OA_OK ||
        (st = oa_onnx_emit_tv(c, OA_OP_SHAPE, "shape", &x, 1, &sh)) != OA_OK ||
        (st = oa_node_set_int(sh.n, "dtype", OA_DT_INT64)) != OA_OK ||
        (st = oa_onnx_const_i64(c, "axis_index", &axis, 1, true, &gi.n)) != OA_OK ||
        (st = oa_onnx_const_i32(c, "gather_axis", &zero, 1, true, &ga.n)) != OA_OK ||
        (st = oa_onnx_const_i64(c, "zero", &zero, 1, true, &kz.n)) != OA_OK ||
        (st = oa_onnx_const_i64(c, "one", &one, 1, true, &kone.n)) != OA_OK) {
        return st;
    }
    gi.i = ga.i = kz.i = kone.i = 0;
    oref g_in[3] = {sh, gi, ga};
    if ((st = oa_onnx_emit_tv(c, OA_OP_GATHER_V2, "dim", g_in, 3, &n)) != OA_OK) {
        return st;
    }
    oref r_in[3] = {kz, n, kone};
    if ((st = oa_onnx_emit_tv(c, OA_OP_RANGE, "iota", r_in, 3, &rg)) != OA_OK ||
        (st = channel_view(c, rg, r - 1 - axis, &grid)) != OA_OK) {
        return st;
    }
    oref e_in[2] = {grid, idx};
    if ((st = oa_onnx_emit_tv(c, OA_OP_EQUAL, "is_max", e_in, 2, &eq)) != OA_OK ||
        (st = oa_onnx_emit_tv(c, OA_OP_CAST, "hardmax", &eq, 1, &y)) != OA_OK ||
        (st = oa_node_set_int(y.n, "dst_type", dt)) != OA_OK) {
        return st;
    }
    return oa_onnx_bind_output(c, 0, y.n, y.i);
}

/* Declared dims of a graph input / value_info / initializer (all known); false otherwise. */
static bool declared_dims(const onnx_node_ctx *c, const char *name, int64_t *dims, size_t cap, size_t *rank)
{
    const Onnx__GraphProto *gp = c->sc->gp;
    if (gp == NULL || name == NULL) {
        return false;
    }
    for (size_t i = 0; i < gp->n_initializer; i++) {
        const Onnx__TensorProto *t = gp->initializer[i];
        if (t->name != NULL && strcmp(t->name, name) == 0 && t->n_dims <= cap) {
            memcpy(dims, t->dims, t->n_dims * sizeof(int64_t));
            *rank = t->n_dims;
            return true;
        }
    }
    const Onnx__ValueInfoProto *const *lists[2] = {(const Onnx__ValueInfoProto *const *)gp->input,
                                                   (const Onnx__ValueInfoProto *const *)gp->value_info};
    const size_t counts[2] = {gp->n_input, gp->n_value_info};
    for (int l = 0; l < 2; l++) {
        for (size_t i = 0; i < counts[l]; i++) {
            const Onnx__ValueInfoProto *vi = lists[l][i];
            if (vi->name == NULL || strcmp(vi->name, name) != 0) {
                continue;
            }
            const Onnx__TypeProto *tp = vi->type;
            if (tp == NULL || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || tp->tensor_type == NULL ||
                tp->tensor_type->shape == NULL || tp->tensor_type->shape->n_dim > cap) {
                return false;
            }
            const Onnx__TensorShapeProto *sh = tp->tensor_type->shape;
            for (size_t k = 0; k < sh->n_dim; k++) {
                if (sh->dim[k]->value_case != ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE) {
                    return false;
                }
                dims[k] = sh->dim[k]->dim_value;
            }
            *rank = sh->n_dim;
            return true;
        }
    }
    return false;
}

/* DepthToSpace (DCR / CRD) and SpaceToDepth as Reshape, Transpose, Reshape
 * (the 4-D input's dims declared by the graph). */
oa_status oa_onnx_op_depth_space(onnx_node_ctx *c)
{
    int64_t b, d[4];
    size_t r;
    const char *mode = "DCR";
    oa_status st = oa_onnx_attr_int(c, "blocksize", 0, &b);
    const bool to_space = strcmp(c->op_type, "DepthToSpace") == 0;
    if (st == OA_OK && to_space) {
        st = oa_onnx_attr_str(c, "mode", "DCR", &mode);
    }
    if (st != OA_OK) {
        return st;
    }
    if (!declared_dims(c, oa_onnx_input_name(c, 0), d, 4, &r) || r != 4) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "needs the declared 4-D shape of its input");
    }
    const bool crd = strcmp(mode, "CRD") == 0;
    if (b < 1 || (to_space && d[1] % (b * b) != 0) || (!to_space && (d[2] % b != 0 || d[3] % b != 0)) ||
        (!crd && strcmp(mode, "DCR") != 0)) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "blocksize %lld / mode %s do not fit [%lld,%lld,%lld,%lld]",
                         (long long)b, mode, (long long)d[0], (long long)d[1], (long long)d[2], (long long)d[3]);
    }
    int64_t s1[6], perm[6], s2[4];
    if (to_space) {
        const int64_t cq = d[1] / (b * b);
        const int64_t dcr_s[6] = {d[0], b, b, cq, d[2], d[3]}, dcr_p[6] = {0, 3, 4, 1, 5, 2};
        const int64_t crd_s[6] = {d[0], cq, b, b, d[2], d[3]}, crd_p[6] = {0, 1, 4, 2, 5, 3};
        memcpy(s1, crd ? crd_s : dcr_s, sizeof(s1));
        memcpy(perm, crd ? crd_p : dcr_p, sizeof(perm));
        const int64_t o[4] = {d[0], cq, d[2] * b, d[3] * b};
        memcpy(s2, o, sizeof(s2));
    } else {
        const int64_t ss[6] = {d[0], d[1], d[2] / b, b, d[3] / b, b}, sp[6] = {0, 3, 5, 1, 2, 4};
        memcpy(s1, ss, sizeof(s1));
        memcpy(perm, sp, sizeof(perm));
        const int64_t o[4] = {d[0], d[1] * b * b, d[2] / b, d[3] / b};
        memcpy(s2, o, sizeof(s2));
    }
    oref x, k1, kp, k2, r1, t, y;
    if ((st = oa_onnx_in_tv(c, 0, &x)) != OA_OK ||
        (st = oa_onnx_const_i64(c, "shape6", s1, 6, false, &k1.n)) != OA_OK ||
        (st = oa_onnx_const_i32(c, "perm", perm, 6, false, &kp.n)) != OA_OK ||
        (st = oa_onnx_const_i64(c, "shape4", s2, 4, false, &k2.n)) != OA_OK) {
        return st;
    }
    k1.i = kp.i = k2.i = 0;
    oref a_in[2] = {x, k1};
    if ((st = oa_onnx_emit_tv(c, OA_OP_RESHAPE, "blocks", a_in, 2, &r1)) != OA_OK) {
        return st;
    }
    oref b_in[2] = {r1, kp};
    if ((st = oa_onnx_emit_tv(c, OA_OP_TRANSPOSE, "move", b_in, 2, &t)) != OA_OK) {
        return st;
    }
    oref c_in[2] = {t, k2};
    if ((st = oa_onnx_emit_tv(c, OA_OP_RESHAPE, "merge", c_in, 2, &y)) != OA_OK) {
        return st;
    }
    return oa_onnx_bind_output(c, 0, y.n, y.i);
}

/*
 * ONNX -> GE mappings of further neural-network ops (docs/ge_ir.md "ONNX
 * import"): LRN written with graph ops. The op table is in onnx_ops.c.
 */
#define OA_LOG_MODULE "GE"
#include <string.h>

#include "base/util.h"
#include "onnx/onnx_internal.h"

typedef onnx_tv xref; /* a value as (node, output) */

/*
 * LRN (its ONNX definition): the sum of x^2 over the channel window
 * [c - floor((size-1)/2), c + ceil((size-1)/2)] is `size` times an average
 * pool over channels counting the padding (AvgPool3D on x^2 seen as
 * [N, 1, C, H, W]); y = x / (bias + alpha * that average)^beta.
 * x of rank 3 or 4 (rank 3 gets a trailing 1).
 */
oa_status oa_onnx_op_lrn(onnx_node_ctx *c)
{
    float alpha, beta, bias;
    int64_t size;
    oa_status st;
    if ((st = oa_onnx_attr_float(c, "alpha", 1e-4f, &alpha)) != OA_OK ||
        (st = oa_onnx_attr_float(c, "beta", 0.75f, &beta)) != OA_OK ||
        (st = oa_onnx_attr_float(c, "bias", 1.0f, &bias)) != OA_OK ||
        (st = oa_onnx_attr_required(c, "size")) != OA_OK || (st = oa_onnx_attr_int(c, "size", 1, &size)) != OA_OK) {
        return st;
    }
    if (size <= 0 || size > INT32_MAX) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "size is %lld", (long long)size);
    }
    const char *xn = oa_onnx_input_name(c, 0);
    int64_t dim0;
    const int64_t rank = xn ? oa_onnx_declared_rank(c, xn, &dim0) : -1;
    if (rank != 3 && rank != 4) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "x must be declared with rank 3 or 4 (has %lld)",
                         (long long)rank);
    }
    xref x, sq, u, p, s, t1, t2, pw, y, kb;
    if ((st = oa_onnx_in_tv(c, 0, &x)) != OA_OK) {
        return st;
    }
    xref xx[2] = {x, x};
    const int64_t ax4[2] = {1, 4}, ax1 = 1;
    if ((st = oa_onnx_emit_tv(c, OA_OP_MUL, "square", xx, 2, &sq)) != OA_OK ||
        (st = oa_onnx_emit_tv(c, OA_OP_UNSQUEEZE, "lift", &sq, 1, &u)) != OA_OK ||
        (st = oa_node_set_list_int(u.n, "axes", ax4, rank == 3 ? 2 : 1)) != OA_OK ||
        (st = oa_onnx_emit_tv(c, OA_OP_AVG_POOL_3D, "window", &u, 1, &p)) != OA_OK) {
        return st;
    }
    const int64_t ks[5] = {1, 1, size, 1, 1}, one5[5] = {1, 1, 1, 1, 1};
    const int64_t pads[6] = {(size - 1) / 2, size - 1 - (size - 1) / 2, 0, 0, 0, 0};
    if ((st = oa_node_set_list_int(p.n, "ksize", ks, 5)) != OA_OK ||
        (st = oa_node_set_list_int(p.n, "strides", one5, 5)) != OA_OK ||
        (st = oa_node_set_list_int(p.n, "pads", pads, 6)) != OA_OK ||
        (st = oa_node_set_str(p.n, "padding_mode", "CALCULATED")) != OA_OK ||
        (st = oa_node_set_bool(p.n, "count_include_pad", true)) != OA_OK ||
        (st = oa_node_set_str(p.n, "data_format", "NCDHW")) != OA_OK) {
        return st;
    }
    oa_node_input_desc(p.n, 0)->format = oa_node_input_desc(p.n, 0)->origin_format = OA_FORMAT_NCDHW;
    oa_node_output_desc(p.n, 0)->format = oa_node_output_desc(p.n, 0)->origin_format = OA_FORMAT_NCDHW;
    if ((st = oa_onnx_emit_tv(c, OA_OP_SQUEEZE, "unlift", &p, 1, &s)) != OA_OK ||
        (st = oa_node_set_list_int(s.n, "axis", rank == 3 ? ax4 : &ax1, rank == 3 ? 2 : 1)) != OA_OK ||
        (st = oa_onnx_emit_tv(c, OA_OP_MULS, "alpha", &s, 1, &t1)) != OA_OK ||
        (st = oa_node_set_float(t1.n, "value", alpha)) != OA_OK ||
        (st = oa_onnx_emit_tv(c, OA_OP_ADDS, "bias", &t1, 1, &t2)) != OA_OK ||
        (st = oa_node_set_float(t2.n, "value", bias)) != OA_OK ||
        (st = oa_onnx_const_f32(c, "beta", &beta, 1, true, &kb.n)) != OA_OK) {
        return st;
    }
    kb.i = 0;
    xref pin[2] = {t2, kb};
    if ((st = oa_onnx_emit_tv(c, OA_OP_POW, "pow", pin, 2, &pw)) != OA_OK) {
        return st;
    }
    xref din[2] = {x, pw};
    if ((st = oa_onnx_emit_tv(c, OA_OP_REAL_DIV, "div", din, 2, &y)) != OA_OK) {
        return st;
    }
    return oa_onnx_bind_output(c, 0, y.n, y.i);
}

/* ReduceMean(x, axes, keep_dims) */
static oa_status reduce_mean(onnx_node_ctx *c, const char *role, xref x, xref axes, xref *out)
{
    xref in[2] = {x, axes};
    oa_status st = oa_onnx_emit_tv(c, OA_OP_REDUCE_MEAN, role, in, 2, out);
    return st == OA_OK ? oa_node_set_bool(out->n, "keep_dims", true) : st;
}

/* mean and centered x over `axes`, var = mean of the squares of centered x */
static oa_status moments(onnx_node_ctx *c, xref x, xref kax, xref *mean, xref *cen, xref *var)
{
    xref sq;
    oa_status st = reduce_mean(c, "mean", x, kax, mean);
    xref s_in[2] = {x, *mean};
    if (st == OA_OK && (st = oa_onnx_emit_tv(c, OA_OP_SUB, "centered", s_in, 2, cen)) == OA_OK &&
        (st = oa_onnx_emit_tv(c, OA_OP_SQUARE, "sq", cen, 1, &sq)) == OA_OK) {
        st = reduce_mean(c, "var", sq, kax, var);
    }
    return st;
}

/*
 * MeanVarianceNormalization (its ONNX definition): over `axes` (default
 * [0, 2, 3]), y = (x - mean) / (sqrt(var) + 1e-9), var the mean of the
 * squared deviations (equal to E[x^2] - E[x]^2).
 */
oa_status oa_onnx_op_mvn(onnx_node_ctx *c)
{
    const int64_t *ax;
    size_t na;
    oa_status st = oa_onnx_attr_ints(c, "axes", &ax, &na);
    if (st != OA_OK) {
        return st;
    }
    static const int64_t dflt[3] = {0, 2, 3};
    if (ax == NULL) {
        ax = dflt;
        na = 3;
    }
    if (na == 0 || na > 8) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "axes has %zu entries", na);
    }
    xref x, kax, mean, cen, var, sd, sde, y;
    if ((st = oa_onnx_in_tv(c, 0, &x)) != OA_OK ||
        (st = oa_onnx_const_i32(c, "axes", ax, na, false, &kax.n)) != OA_OK) {
        return st;
    }
    kax.i = 0;
    if ((st = moments(c, x, kax, &mean, &cen, &var)) != OA_OK ||
        (st = oa_onnx_emit_tv(c, OA_OP_SQRT, "std", &var, 1, &sd)) != OA_OK ||
        (st = oa_onnx_emit_tv(c, OA_OP_ADDS, "std_eps", &sd, 1, &sde)) != OA_OK ||
        (st = oa_node_set_float(sde.n, "value", 1e-9f)) != OA_OK) {
        return st;
    }
    xref d_in[2] = {cen, sde};
    if ((st = oa_onnx_emit_tv(c, OA_OP_REAL_DIV, "normalized", d_in, 2, &y)) != OA_OK) {
        return st;
    }
    return oa_onnx_bind_output(c, 0, y.n, y.i);
}

/* v [C] seen as [C, 1, ...] (ones trailing 1s) */
static oa_status channel_col(onnx_node_ctx *c, const char *role, xref v, int64_t ones, xref *out)
{
    int64_t shape[9] = {0, 1, 1, 1, 1, 1, 1, 1, 1};
    xref ks;
    oa_status st = oa_onnx_const_i64(c, role, shape, (size_t)(ones + 1), false, &ks.n);
    if (st != OA_OK) {
        return st;
    }
    ks.i = 0;
    xref in[2] = {v, ks};
    return oa_onnx_emit_tv(c, OA_OP_RESHAPE, role, in, 2, out);
}

/* running = input * momentum + current * (1 - momentum), current [1, C, 1...] flattened to [C] */
static oa_status running_stat(onnx_node_ctx *c, const char *role, uint32_t input, xref cur, float momentum,
                              xref *out)
{
    const int64_t flat = -1;
    xref in, kf, cf, a, b;
    oa_status st;
    if ((st = oa_onnx_in_tv(c, input, &in)) != OA_OK ||
        (st = oa_onnx_const_i64(c, "flat", &flat, 1, false, &kf.n)) != OA_OK) {
        return st;
    }
    kf.i = 0;
    xref r_in[2] = {cur, kf};
    if ((st = oa_onnx_emit_tv(c, OA_OP_RESHAPE, role, r_in, 2, &cf)) != OA_OK ||
        (st = oa_onnx_emit_tv(c, OA_OP_MULS, role, &in, 1, &a)) != OA_OK ||
        (st = oa_node_set_float(a.n, "value", momentum)) != OA_OK ||
        (st = oa_onnx_emit_tv(c, OA_OP_MULS, role, &cf, 1, &b)) != OA_OK ||
        (st = oa_node_set_float(b.n, "value", 1.0f - momentum)) != OA_OK) {
        return st;
    }
    xref s_in[2] = {a, b};
    return oa_onnx_emit_tv(c, OA_OP_ADD, role, s_in, 2, out);
}

/*
 * BatchNormalization with training_mode=1 (opset 14+; its ONNX definition):
 * the batch statistics over every axis but 1 normalise x; outputs 1 and 2
 * are input_mean / input_var * momentum + the batch mean / (population)
 * variance * (1 - momentum).
 */
oa_status oa_onnx_op_batch_norm_training(onnx_node_ctx *c)
{
    float eps, momentum;
    oa_status st;
    if ((st = oa_onnx_attr_float(c, "epsilon", 1e-5f, &eps)) != OA_OK ||
        (st = oa_onnx_attr_float(c, "momentum", 0.9f, &momentum)) != OA_OK) {
        return st;
    }
    int64_t d0;
    const char *xn = oa_onnx_input_name(c, 0);
    const int64_t r = xn ? oa_onnx_declared_rank(c, xn, &d0) : -1;
    if (r < 2 || r > 8) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "training mode needs the declared rank (2 to 8) of x");
    }
    int64_t axes[8];
    size_t na = 0;
    for (int64_t k = 0; k < r; k++) {
        if (k != 1) {
            axes[na++] = k;
        }
    }
    xref x, sc, b, kax, mean, cen, var, ve, sd, nrm, scv, bv, y1, y, rm, rv;
    if ((st = oa_onnx_in_tv(c, 0, &x)) != OA_OK || (st = oa_onnx_in_tv(c, 1, &sc)) != OA_OK ||
        (st = oa_onnx_in_tv(c, 2, &b)) != OA_OK ||
        (st = oa_onnx_const_i32(c, "axes", axes, na, false, &kax.n)) != OA_OK) {
        return st;
    }
    kax.i = 0;
    if ((st = moments(c, x, kax, &mean, &cen, &var)) != OA_OK ||
        (st = oa_onnx_emit_tv(c, OA_OP_ADDS, "var_eps", &var, 1, &ve)) != OA_OK ||
        (st = oa_node_set_float(ve.n, "value", eps)) != OA_OK ||
        (st = oa_onnx_emit_tv(c, OA_OP_SQRT, "std", &ve, 1, &sd)) != OA_OK) {
        return st;
    }
    xref n_in[2] = {cen, sd};
    if ((st = oa_onnx_emit_tv(c, OA_OP_REAL_DIV, "normalized", n_in, 2, &nrm)) != OA_OK ||
        (st = channel_col(c, "scale_c", sc, r - 2, &scv)) != OA_OK ||
        (st = channel_col(c, "bias_c", b, r - 2, &bv)) != OA_OK) {
        return st;
    }
    xref m_in[2] = {nrm, scv};
    if ((st = oa_onnx_emit_tv(c, OA_OP_MUL, "scaled", m_in, 2, &y1)) != OA_OK) {
        return st;
    }
    xref a_in[2] = {y1, bv};
    if ((st = oa_onnx_emit_tv(c, OA_OP_ADD, "biased", a_in, 2, &y)) != OA_OK ||
        (st = oa_onnx_bind_output(c, 0, y.n, y.i)) != OA_OK) {
        return st;
    }
    if (oa_onnx_has_output(c, 1)) {
        if ((st = running_stat(c, "running_mean", 3, mean, momentum, &rm)) != OA_OK ||
            (st = oa_onnx_bind_output(c, 1, rm.n, rm.i)) != OA_OK) {
            return st;
        }
    }
    if (oa_onnx_has_output(c, 2)) {
        if ((st = running_stat(c, "running_var", 4, var, momentum, &rv)) != OA_OK ||
            (st = oa_onnx_bind_output(c, 2, rv.n, rv.i)) != OA_OK) {
            return st;
        }
    }
    return OA_OK;
}

/* GridSample (opset 16, 4-D) -> GridSampler2D: mode -> interpolation_mode, padding_mode, align_corners. */
oa_status oa_onnx_op_grid_sample(onnx_node_ctx *c)
{
    const char *mode, *pad;
    int64_t align;
    oa_status st;
    if ((st = oa_onnx_attr_str(c, "mode", "bilinear", &mode)) != OA_OK ||
        (st = oa_onnx_attr_str(c, "padding_mode", "zeros", &pad)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "align_corners", 0, &align)) != OA_OK) {
        return st;
    }
    if (strcmp(mode, "bilinear") != 0 && strcmp(mode, "nearest") != 0 && strcmp(mode, "bicubic") != 0) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "mode %s is not supported", mode);
    }
    if (strcmp(pad, "zeros") != 0 && strcmp(pad, "border") != 0 && strcmp(pad, "reflection") != 0) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "padding_mode %s is not valid", pad);
    }
    oa_node *n;
    if ((st = oa_onnx_emit(c, OA_OP_GRID_SAMPLER_2D, "grid_sample", 2, 1, &n)) != OA_OK ||
        (st = oa_onnx_connect_input(c, n, 0, 0)) != OA_OK || (st = oa_onnx_connect_input(c, n, 1, 1)) != OA_OK ||
        (st = oa_node_set_str(n, "interpolation_mode", mode)) != OA_OK ||
        (st = oa_node_set_str(n, "padding_mode", pad)) != OA_OK ||
        (st = oa_node_set_bool(n, "align_corners", align != 0)) != OA_OK) {
        return st;
    }
    return oa_onnx_bind_output(c, 0, n, 0);
}

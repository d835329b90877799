/*
 * ONNX -> GE mappings of further neural-network ops (docs/ge_ir.md "ONNX
 * import"): LRN written with graph ops. The op table is in onnx_ops.c.
 */
#define OA_LOG_MODULE "GE"
#include <string.h>

#include "base/util.h"
#include "onnx/onnx_internal.h"

typedef struct xref {
    oa_node *n;
    uint32_t i;
} xref;

static oa_status emit1(onnx_node_ctx *c, oa_op_type t, const char *role, const xref *in, uint32_t nin, xref *out)
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

static oa_status input_ref(onnx_node_ctx *c, uint32_t i, xref *out)
{
    const onnx_value *v = oa_onnx_input_value(c, i);
    if (v == NULL) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "misses input %u", i);
    }
    out->n = v->node;
    out->i = v->index;
    return OA_OK;
}

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
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "x must be declared with rank 3 or 4 (has %lld)", (long long)rank);
    }
    xref x, sq, u, p, s, t1, t2, pw, y, kb;
    if ((st = input_ref(c, 0, &x)) != OA_OK) {
        return st;
    }
    xref xx[2] = {x, x};
    const int64_t ax4[2] = {1, 4}, ax1 = 1;
    if ((st = emit1(c, OA_OP_MUL, "square", xx, 2, &sq)) != OA_OK ||
        (st = emit1(c, OA_OP_UNSQUEEZE, "lift", &sq, 1, &u)) != OA_OK ||
        (st = oa_node_set_list_int(u.n, "axes", ax4, rank == 3 ? 2 : 1)) != OA_OK ||
        (st = emit1(c, OA_OP_AVG_POOL_3D, "window", &u, 1, &p)) != OA_OK) {
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
    if ((st = emit1(c, OA_OP_SQUEEZE, "unlift", &p, 1, &s)) != OA_OK ||
        (st = oa_node_set_list_int(s.n, "axis", rank == 3 ? ax4 : &ax1, rank == 3 ? 2 : 1)) != OA_OK ||
        (st = emit1(c, OA_OP_MULS, "alpha", &s, 1, &t1)) != OA_OK ||
        (st = oa_node_set_float(t1.n, "value", alpha)) != OA_OK ||
        (st = emit1(c, OA_OP_ADDS, "bias", &t1, 1, &t2)) != OA_OK ||
        (st = oa_node_set_float(t2.n, "value", bias)) != OA_OK ||
        (st = oa_onnx_const_f32(c, "beta", &beta, 1, true, &kb.n)) != OA_OK) {
        return st;
    }
    kb.i = 0;
    xref pin[2] = {t2, kb};
    if ((st = emit1(c, OA_OP_POW, "pow", pin, 2, &pw)) != OA_OK) {
        return st;
    }
    xref din[2] = {x, pw};
    if ((st = emit1(c, OA_OP_REAL_DIV, "div", din, 2, &y)) != OA_OK) {
        return st;
    }
    return oa_onnx_bind_output(c, 0, y.n, y.i);
}

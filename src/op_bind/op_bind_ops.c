/*
 * Per-family decoders: GE op type + attributes -> kernel params and the
 * kernel's input order. One function per family (the data-movement ones in
 * op_bind_shape.c); oa_bind_decode() picks it
 * by the node's type. Attribute names are GE's as the ONNX importer and the
 * compiler write them (docs/ge_ir.md, src/compiler/README.md).
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "op_bind/op_bind_internal.h"

/* ---- small attribute helpers ---- */

static bool attr_bool(const oa_node *n, const char *name, bool dflt)
{
    return oa_node_attr_bool(n, name, dflt);
}

/* The spatial (h, w) entries of a GE list attr in NCHW order: 4 entries -> [2], [3]; 2 -> [0], [1]. */
static oa_status hw_pair(oa_bctx *c, const char *name, int64_t dflt, bool required, int64_t out[2])
{
    const int64_t *v;
    size_t n;
    if (!oa_attrs_get_list_int(&c->n->attrs, name, &v, &n)) {
        if (required) {
            return BFAIL(c, OA_E_PARAM, "misses attr %s", name);
        }
        out[0] = out[1] = dflt;
        return OA_OK;
    }
    if (n == 4) {
        out[0] = v[2];
        out[1] = v[3];
    } else if (n == 2) {
        out[0] = v[0];
        out[1] = v[1];
    } else if (n == 3) { /* 1-D op on [N, C, L] seen as [N, C, 1, L] */
        out[0] = 1;
        out[1] = v[2];
    } else if (n == 1) {
        out[0] = 1;
        out[1] = v[0];
    } else {
        return BFAIL(c, OA_E_PARAM, "attr %s has %zu entries", name, n);
    }
    return OA_OK;
}

/* GE pads [top, bottom, left, right] (2 entries: a 1-D [begin, end]). */
static oa_status pads4(oa_bctx *c, const char *name, int64_t out[4])
{
    const int64_t *v;
    size_t n;
    memset(out, 0, 4 * sizeof(out[0]));
    if (!oa_attrs_get_list_int(&c->n->attrs, name, &v, &n)) {
        return OA_OK;
    }
    if (n == 4) {
        memcpy(out, v, 4 * sizeof(out[0]));
    } else if (n == 2) {
        out[2] = v[0];
        out[3] = v[1];
    } else if (n != 0) {
        return BFAIL(c, OA_E_PARAM, "attr %s has %zu entries", name, n);
    }
    for (int i = 0; i < 4; i++) {
        if (out[i] < 0) {
            return BFAIL(c, OA_E_PARAM, "attr %s has a negative entry", name);
        }
    }
    return OA_OK;
}

/* A 3-D activation [N, C, L] seen by 2-D kernels as [N, C, 1, L]. */
static void as_2d(oa_ktensor *t)
{
    if (t->rank == 3) {
        t->dims[3] = t->dims[2];
        t->dims[2] = 1;
        t->rank = 4;
    }
}

static oa_status post_into(oa_bctx *c, int n_add, uint32_t base)
{
    for (int k = 0; k < n_add; k++) {
        oa_status st = oa_bind_in(c, base + (uint32_t)k, true, false);
        if (st != OA_OK) {
            return st;
        }
    }
    return OA_OK;
}

/* ---- convolution ---- */

/* SAME padding from the static output size: ONNX SAME_UPPER puts the extra pixel at the end. */
static void same_pads(int64_t in, int64_t out, int64_t k, int64_t s, int64_t d, bool lower, int64_t *pb, int64_t *pe)
{
    int64_t total = (out - 1) * s + d * (k - 1) + 1 - in;
    if (total < 0) {
        total = 0;
    }
    *pb = lower ? total - total / 2 : total / 2;
    *pe = total - *pb;
}

/* Conv3D, and Conv2D whose filter or bias is only known at run time: the
 * direct kernel (conv_ref.c). GE attrs: strides / dilations with one entry
 * per dim of x (or per spatial dim), pads as (begin, end) per spatial dim. */
static oa_status bind_conv_ref(oa_bctx *c, bool transpose)
{
    oa_op_bind *b = c->b;
    oa_kconvref_params *p = &b->params.convref;
    b->type = OA_KOP_CONV_REF;
    b->has_params = true;
    p->transpose = transpose;
    const uint32_t xs = transpose ? 1u : 0u; /* Conv2DTranspose: input_size, x, filter, bias */
    oa_status st;
    if ((st = oa_bind_in(c, xs, true, false)) != OA_OK || (st = oa_bind_in(c, xs + 1, true, false)) != OA_OK ||
        (st = oa_bind_in(c, xs + 2, false, false)) != OA_OK) {
        return st;
    }
    if (oa_bind_has(c->n, xs + 3)) {
        return BFAIL(c, OA_E_PARAM, "offset_w (quantized weights) is not supported");
    }
    if (oa_attrs_find(&c->n->attrs, "_oa_post_ops") != NULL) {
        return BFAIL(c, OA_E_PARAM, "post-ops on a direct convolution are not supported");
    }
    if ((st = oa_bind_out(c, 0)) != OA_OK) {
        return st;
    }
    const int ns = b->in[0].rank - 2;
    if (ns < 1 || ns > 3) {
        return BFAIL(c, OA_E_PARAM, "x of rank %d: 1 to 3 spatial dims are supported", b->in[0].rank);
    }
    const char *df = oa_node_attr_str(c->n, "data_format", ns == 3 ? "NCDHW" : "NCHW");
    if (strcmp(df, "NCDHW") != 0 && strcmp(df, "NCHW") != 0 && strcmp(df, "NCL") != 0) {
        return BFAIL(c, OA_E_PARAM, "data_format %s is not supported (channels first only)", df);
    }
    p->nsp = ns;
    p->groups = oa_node_attr_int(c->n, "groups", 1);
    static const char *const lists[2] = {"strides", "dilations"};
    for (int l = 0; l < 2; l++) {
        int64_t *dst = l == 0 ? p->strides : p->dilations;
        const int64_t *v;
        size_t n = 0;
        for (int a = 0; a < ns; a++) {
            dst[a] = 1;
        }
        if (oa_attrs_get_list_int(&c->n->attrs, lists[l], &v, &n) && n > 0) {
            if (n < (size_t)ns) {
                return BFAIL(c, OA_E_PARAM, "attr %s has %zu entries for %d spatial dims", lists[l], n, ns);
            }
            for (int a = 0; a < ns; a++) { /* the last ns entries */
                dst[a] = v[n - (size_t)ns + (size_t)a] > 0 ? v[n - (size_t)ns + (size_t)a] : 1;
            }
        }
    }
    memset(p->pads, 0, sizeof(p->pads));
    const int64_t *pv;
    size_t np = 0;
    if (oa_attrs_get_list_int(&c->n->attrs, "pads", &pv, &np) && np > 0) {
        if (np < (size_t)(2 * ns)) {
            return BFAIL(c, OA_E_PARAM, "attr pads has %zu entries for %d spatial dims", np, ns);
        }
        for (int a = 0; a < ns; a++) { /* the last 2 ns entries, (begin, end) per dim */
            p->pads[a] = pv[np - (size_t)(2 * ns) + (size_t)(2 * a)];
            p->pads[ns + a] = pv[np - (size_t)(2 * ns) + (size_t)(2 * a + 1)];
        }
    }
    const char *ap = oa_node_attr_str(c->n, "auto_pad", "NOTSET");
    const bool same = strcmp(ap, "SAME_UPPER") == 0 || strcmp(ap, "SAME_LOWER") == 0 || strcmp(ap, "SAME") == 0;
    if (transpose) {
        /* the pads that give the output size the graph inferred (output_shape, auto_pad, explicit pads) */
        const int64_t *ov;
        size_t no = 0;
        const bool has_os = oa_attrs_get_list_int(&c->n->attrs, "output_shape", &ov, &no) && no > 0 && ov[0] > 0;
        const int64_t *opv;
        size_t nop = 0;
        const bool has_op = oa_attrs_get_list_int(&c->n->attrs, "output_padding", &opv, &nop);
        for (int a = 0; a < ns; a++) {
            p->output_padding[a] = has_op && nop >= (size_t)ns ? opv[nop - (size_t)ns + (size_t)a] : 0;
            const int64_t full = (b->in[0].dims[2 + a] - 1) * p->strides[a] +
                                 p->dilations[a] * (b->in[1].dims[2 + a] - 1) + 1 + p->output_padding[a];
            int64_t total = full - b->out[0].dims[2 + a];
            if (total < 0 && has_os) { /* an output_shape past the full size: zeros appended at the end */
                p->output_padding[a] -= total;
                total = 0;
            }
            if (total < 0) {
                return BFAIL(c, OA_E_PARAM, "transposed output size %lld exceeds the full size %lld",
                             (long long)b->out[0].dims[2 + a], (long long)full);
            }
            if (same || has_os) {
                const bool upper = strcmp(ap, "SAME_UPPER") == 0;
                p->pads[a] = upper ? total / 2 : total - total / 2;
            } else if (strcmp(ap, "VALID") == 0) {
                p->pads[a] = 0;
            }
            p->pads[ns + a] = total - p->pads[a];
        }
        return OA_OK;
    }
    if (same) {
        for (int a = 0; a < ns; a++) {
            same_pads(b->in[0].dims[2 + a], b->out[0].dims[2 + a], b->in[1].dims[2 + a], p->strides[a],
                      p->dilations[a], strcmp(ap, "SAME_LOWER") == 0, &p->pads[a], &p->pads[ns + a]);
        }
    } else if (strcmp(ap, "VALID") == 0) {
        memset(p->pads, 0, sizeof(p->pads));
    }
    return OA_OK;
}

/* The compute precision the compiler recorded (`_oa_compute_dtype`, docs/precision.md). */
static oa_klowp node_lowp(const oa_node *n)
{
    const char *v = oa_node_attr_str(n, "_oa_compute_dtype", "");
    if (strcmp(v, "DT_BF16") == 0) {
        return OA_KLOWP_BF16;
    }
    return strcmp(v, "DT_FLOAT16") == 0 ? OA_KLOWP_FP16 : OA_KLOWP_NONE;
}

static oa_status bind_conv(oa_bctx *c, bool transpose)
{
    /* the packed path needs a constant filter (single operators give host values) */
    const uint32_t ws = transpose ? 2u : 1u;
    if (c->n->type == OA_OP_CONV3D ||
        ((c->opts == NULL || c->opts->host_data == NULL) &&
         (oa_op_bind_const_input(c->n, ws) == NULL ||
          (oa_bind_has(c->n, ws + 1) && oa_op_bind_const_input(c->n, ws + 1) == NULL)))) {
        return bind_conv_ref(c, transpose);
    }
    oa_op_bind *b = c->b;
    oa_kconv_params *p = &b->params.conv;
    b->type = transpose ? OA_KOP_CONV2D_TRANSPOSE : OA_KOP_CONV2D;
    b->has_params = true;
    oa_status st;
    if ((st = hw_pair(c, "strides", 1, false, p->strides)) != OA_OK ||
        (st = hw_pair(c, "dilations", 1, false, p->dilations)) != OA_OK || (st = pads4(c, "pads", p->pads)) != OA_OK) {
        return st;
    }
    p->groups = oa_node_attr_int(c->n, "groups", 1);
    p->lowp = node_lowp(c->n);
    if (transpose && (st = hw_pair(c, "output_padding", 0, false, p->output_padding)) != OA_OK) {
        return st;
    }
    const char *df = oa_node_attr_str(c->n, "data_format", "NCHW");
    if (strcmp(df, "NCHW") != 0 && strcmp(df, "NCL") != 0) {
        return BFAIL(c, OA_E_PARAM, "data_format %s is not supported (NCHW only)", df);
    }
    int n_add = 0;
    uint32_t base = 0;
    if ((st = oa_bind_post_ops(c, &p->post, true, &n_add, &base)) != OA_OK) {
        return st;
    }
    const uint32_t x_slot = transpose ? 1u : 0u;
    /* a non-constant filter / bias is taken from the executor's host values when it has them (single operators) */
    const bool host = c->opts != NULL && c->opts->host_data != NULL;
    if ((st = oa_bind_in(c, x_slot, true, false)) != OA_OK || (st = oa_bind_in(c, x_slot + 1, true, host)) != OA_OK ||
        (st = oa_bind_in(c, x_slot + 2, false, host)) != OA_OK) {
        return st;
    }
    if (oa_bind_has(c->n, x_slot + 3)) {
        return BFAIL(c, OA_E_PARAM, "offset_w (quantized weights) is not supported");
    }
    for (int i = 1; i <= 2; i++) {
        if (b->src[i].kind == OA_BIND_ACT) {
            return BFAIL(c, OA_E_PARAM, "%s is not a constant: convolution weights are packed at load",
                         i == 1 ? "filter" : "bias");
        }
    }
    if ((st = post_into(c, n_add, base)) != OA_OK || (st = oa_bind_out(c, 0)) != OA_OK) {
        return st;
    }
    /* 1-D convolutions run as 2-D with H = 1 */
    const bool one_d = b->in[0].rank == 3;
    if (one_d) {
        as_2d(&b->in[0]);
        as_2d(&b->in[1]);
        as_2d(&b->out[0]);
        for (int i = 3; i < b->n_in; i++) {
            as_2d(&b->in[i]);
        }
        p->pads[2] = p->pads[2] ? p->pads[2] : p->pads[0];
        p->pads[3] = p->pads[3] ? p->pads[3] : p->pads[1];
        p->pads[0] = p->pads[1] = 0;
    }
    if (b->in[0].rank != 4 || b->in[1].rank != 4 || b->out[0].rank != 4) {
        return BFAIL(c, OA_E_PARAM, "only 1-D and 2-D convolutions are supported (x rank %d)", b->in[0].rank);
    }
    const char *ap = oa_node_attr_str(c->n, "auto_pad", "NOTSET");
    const bool same = strcmp(ap, "SAME_UPPER") == 0 || strcmp(ap, "SAME_LOWER") == 0 || strcmp(ap, "SAME") == 0;
    if (same && !transpose) {
        const bool lower = strcmp(ap, "SAME_LOWER") == 0;
        for (int a = 0; a < 2; a++) {
            const int64_t d = p->dilations[a] ? p->dilations[a] : 1;
            same_pads(b->in[0].dims[2 + a], b->out[0].dims[2 + a], b->in[1].dims[2 + a], p->strides[a], d, lower,
                      &p->pads[2 * a], &p->pads[2 * a + 1]);
        }
    } else if (strcmp(ap, "VALID") == 0) {
        memset(p->pads, 0, sizeof(p->pads));
    } else if (same) {
        return BFAIL(c, OA_E_PARAM, "auto_pad %s is not supported for transposed convolutions", ap);
    }
    /* the first conv of a blocked chain reads a plain x and writes NCHWc */
    if (b->in[0].layout == OA_KLAYOUT_PLAIN && b->out[0].layout == OA_KLAYOUT_NCHWC) {
        p->out_nchwc = true;
    }
    return OA_OK;
}

/* ---- matrix products ---- */

static oa_status bind_matmul(oa_bctx *c, bool batch)
{
    oa_op_bind *b = c->b;
    oa_kmatmul_params *p = &b->params.matmul;
    b->type = OA_KOP_MATMUL;
    b->has_params = true;
    p->transpose_a = attr_bool(c->n, batch ? "adj_x1" : "transpose_x1", false);
    p->transpose_b = attr_bool(c->n, batch ? "adj_x2" : "transpose_x2", false);
    p->alpha = p->beta = 1.0f;
    p->lowp = node_lowp(c->n);
    int n_add = 0;
    uint32_t base = 0;
    oa_status st = oa_bind_post_ops(c, &p->post, true, &n_add, &base);
    if (st != OA_OK) {
        return st;
    }
    if ((st = oa_bind_in(c, 0, true, false)) != OA_OK || (st = oa_bind_in(c, 1, true, false)) != OA_OK ||
        (st = oa_bind_in(c, 2, false, false)) != OA_OK) {
        return st;
    }
    if (oa_bind_has(c->n, 3)) {
        return BFAIL(c, OA_E_PARAM, "offset_w (quantized weights) is not supported");
    }
    if ((st = post_into(c, n_add, base)) != OA_OK) {
        return st;
    }
    return oa_bind_out(c, 0);
}

/* A scalar (one element) IR input read as a double: a constant or a host value. */
static bool slot_scalar(const oa_bctx *c, uint32_t slot, double *out)
{
    const void *data;
    const oa_tensor_desc *d;
    int64_t cnt = 0;
    if (!oa_bind_slot_data(c, slot, &data, &d) || data == NULL || !oa_shape_numel(&d->shape, &cnt) || cnt < 1) {
        return false;
    }
    /* host values and constants may sit at any address: no typed loads */
    union {
        float f;
        double d;
        int32_t i32;
        int64_t i64;
        int8_t i8;
        uint8_t u8;
    } v;
    switch (d->dtype) {
    case OA_DT_FLOAT: memcpy(&v.f, data, sizeof v.f); *out = v.f; return true;
    case OA_DT_DOUBLE: memcpy(&v.d, data, sizeof v.d); *out = v.d; return true;
    case OA_DT_INT32: memcpy(&v.i32, data, sizeof v.i32); *out = v.i32; return true;
    case OA_DT_INT64: memcpy(&v.i64, data, sizeof v.i64); *out = (double)v.i64; return true;
    case OA_DT_INT8: memcpy(&v.i8, data, 1); *out = v.i8; return true;
    case OA_DT_UINT8: memcpy(&v.u8, data, 1); *out = v.u8; return true;
    default: return false;
    }
}

/* GEMM: y = alpha op(a) op(b) + beta c; alpha and beta are scalar inputs whose values the kernel takes at creation. */
static oa_status bind_gemm(oa_bctx *c)
{
    oa_op_bind *b = c->b;
    oa_kmatmul_params *p = &b->params.matmul;
    b->type = OA_KOP_MATMUL;
    b->has_params = true;
    p->transpose_a = attr_bool(c->n, "transpose_a", false);
    p->transpose_b = attr_bool(c->n, "transpose_b", false);
    p->lowp = node_lowp(c->n);
    double alpha, beta;
    if (!slot_scalar(c, 3, &alpha) || !slot_scalar(c, 4, &beta)) {
        return BFAIL(c, OA_E_PARAM, "alpha and beta (inputs 3, 4) must be known scalars: constants or host values");
    }
    oa_status st;
    if ((st = oa_bind_in(c, 0, true, false)) != OA_OK || (st = oa_bind_in(c, 1, true, false)) != OA_OK) {
        return st;
    }
    /* beta 0: c is not read (BLAS); the kernel reads alpha = beta = 0 as 1, so 0/0 runs as 0/1 without c */
    const bool use_c = beta != 0.0;
    st = use_c ? oa_bind_in(c, 2, true, false) : oa_bind_in_absent(c);
    p->alpha = (float)alpha;
    p->beta = use_c ? (float)beta : 1.0f;
    return st == OA_OK ? oa_bind_out(c, 0) : st;
}

/* ---- normalisation ---- */

static oa_status bind_batchnorm(oa_bctx *c)
{
    oa_op_bind *b = c->b;
    b->type = OA_KOP_BATCHNORM;
    b->has_params = true;
    b->inplace_ok = true;
    b->params.bn.epsilon = oa_node_attr_float(c->n, "epsilon", 1e-5f);
    if (attr_bool(c->n, "is_training", false)) {
        return BFAIL(c, OA_E_PARAM, "training-mode BatchNorm is not supported");
    }
    int n_add = 0;
    uint32_t base = 0;
    oa_status st = oa_bind_post_ops(c, &b->params.bn.post, false, &n_add, &base);
    for (uint32_t i = 0; i < 5 && st == OA_OK; i++) {
        st = oa_bind_in(c, i, true, false);
    }
    return st == OA_OK ? oa_bind_out(c, 0) : st;
}

static oa_status bind_layernorm(oa_bctx *c)
{
    oa_op_bind *b = c->b;
    b->type = OA_KOP_LAYERNORM;
    b->has_params = true;
    b->params.ln.begin_norm_axis = oa_node_attr_int(c->n, "begin_norm_axis", -1);
    b->params.ln.epsilon = oa_node_attr_float(c->n, "epsilon", 1e-5f);
    oa_status st;
    if ((st = oa_bind_in(c, 0, true, false)) != OA_OK || (st = oa_bind_in(c, 1, true, false)) != OA_OK ||
        (st = oa_bind_in(c, 2, false, false)) != OA_OK) {
        return st;
    }
    /* mean / variance only when somebody reads them */
    uint32_t n_out = 1;
    for (uint32_t k = 1; k < c->n->num_outputs && k < 3; k++) {
        if (oa_node_output_uses(c->n, k, NULL, 0) > 0) {
            n_out = k + 1;
        }
    }
    for (uint32_t k = 0; k < n_out && st == OA_OK; k++) {
        st = oa_bind_out(c, k);
    }
    return st;
}

static oa_status bind_softmax(oa_bctx *c, bool log)
{
    oa_op_bind *b = c->b;
    b->type = OA_KOP_SOFTMAX;
    b->has_params = true;
    b->params.softmax.log = log;
    b->params.softmax.axis = -1;
    const int64_t *axes;
    size_t n;
    if (oa_attrs_get_list_int(&c->n->attrs, "axes", &axes, &n)) {
        if (n != 1) {
            return BFAIL(c, OA_E_PARAM, "softmax over %zu axes is not supported", n);
        }
        b->params.softmax.axis = axes[0];
    } else {
        b->params.softmax.axis = oa_node_attr_int(c->n, "axis", -1);
    }
    oa_status st = oa_bind_in(c, 0, true, false);
    return st == OA_OK ? oa_bind_out(c, 0) : st;
}

/* ---- elementwise ---- */

static bool same_dims(const oa_ktensor *a, const oa_ktensor *b)
{
    if (a->rank != b->rank || a->dtype != b->dtype || a->layout != b->layout) {
        return false;
    }
    for (int i = 0; i < a->rank; i++) {
        if (a->dims[i] != b->dims[i]) {
            return false;
        }
    }
    return true;
}

static oa_status bind_binary(oa_bctx *c, int sub)
{
    oa_op_bind *b = c->b;
    b->type = OA_KOP_BINARY;
    b->has_params = true;
    b->params.binary.op = (oa_kbinary_op)sub;
    int n_add = 0;
    uint32_t base = 0;
    oa_status st = oa_bind_post_ops(c, &b->params.binary.post, false, &n_add, &base);
    if (st == OA_OK && (st = oa_bind_in(c, 0, true, false)) == OA_OK && (st = oa_bind_in(c, 1, true, false)) == OA_OK) {
        st = oa_bind_out(c, 0);
    }
    if (st == OA_OK && sub <= OA_KBIN_PRELU) {
        b->inplace_ok = same_dims(&b->in[0], &b->out[0]);
    }
    return st;
}

/* Muls / Adds (x op scalar attr `value`). */
static oa_status bind_scalar_op(oa_bctx *c, oa_kbinary_op op)
{
    oa_op_bind *b = c->b;
    b->type = OA_KOP_BINARY;
    b->has_params = true;
    b->params.binary.op = op;
    float v = 0.0f;
    if (!oa_attrs_get_float(&c->n->attrs, "value", &v)) {
        return BFAIL(c, OA_E_PARAM, "misses attr value");
    }
    oa_status st = oa_bind_in(c, 0, true, false);
    if (st == OA_OK && b->in[0].dtype != OA_KDT_F32) {
        return BFAIL(c, OA_E_UNSUPPORTED_DATA_TYPE, "x must be float32");
    }
    if (st == OA_OK) {
        st = oa_bind_in_synth(c, OA_KDT_F32, 0, NULL, &v, sizeof(v));
    }
    if (st == OA_OK) {
        st = oa_bind_out(c, 0);
    }
    b->inplace_ok = true;
    return st;
}

static oa_status bind_unary(oa_bctx *c, oa_kunary_op op)
{
    oa_op_bind *b = c->b;
    oa_kunary_params *p = &b->params.unary;
    b->type = OA_KOP_UNARY;
    b->has_params = true;
    b->inplace_ok = true;
    p->op = op;
    switch (op) {
    case OA_KUN_LEAKY_RELU:
        p->alpha = oa_node_attr_float(c->n, "negative_slope", 0.01f);
        break;
    case OA_KUN_HARDSIGMOID:
        p->alpha = oa_node_attr_float(c->n, "alpha", 0.2f);
        p->beta = oa_node_attr_float(c->n, "beta", 0.5f);
        break;
    case OA_KUN_ELU:
        p->alpha = oa_node_attr_float(c->n, "alpha", 1.0f);
        break;
    case OA_KUN_SELU: {
        const float gamma = oa_node_attr_float(c->n, "gamma", 1.05070102214813232421875f);
        p->alpha = gamma * oa_node_attr_float(c->n, "alpha", 1.67326319217681884765625f);
        p->beta = gamma;
        break;
    }
    case OA_KUN_THRESHOLDED_RELU:
        p->alpha = oa_node_attr_float(c->n, "alpha", 1.0f);
        break;
    case OA_KUN_EXP:
    case OA_KUN_LOG:
        p->base = oa_node_attr_float(c->n, "base", -1.0f);
        p->scale = oa_node_attr_float(c->n, "scale", 1.0f);
        p->shift = oa_node_attr_float(c->n, "shift", 0.0f);
        break;
    default:
        break;
    }
    if (oa_attrs_find(&c->n->attrs, "_oa_post_ops") != NULL) {
        return BFAIL(c, OA_E_PARAM, "post-ops on an elementwise unary op are not supported");
    }
    oa_status st = oa_bind_in(c, 0, true, false);
    if (st == OA_OK && op == OA_KUN_CLIP) {
        /* ClipByValue: min/max are host scalars (absent: unbounded) */
        p->alpha = -FLT_MAX;
        p->beta = FLT_MAX;
        for (uint32_t i = 1; i <= 2 && st == OA_OK; i++) {
            if (oa_bind_has(c->n, i)) {
                const oa_tensor *k = oa_op_bind_const_input(c->n, i);
                if (k == NULL || k->desc.dtype != OA_DT_FLOAT || k->size != sizeof(float)) {
                    return BFAIL(c, OA_E_PARAM, "clip bound %u must be a float32 scalar constant", i);
                }
                float v;
                memcpy(&v, k->data, sizeof v);
                if (i == 1) {
                    p->alpha = v;
                } else {
                    p->beta = v;
                }
            }
        }
    }
    return st == OA_OK ? oa_bind_out(c, 0) : st;
}

static oa_status bind_select(oa_bctx *c)
{
    c->b->type = OA_KOP_SELECT;
    oa_status st = OA_OK;
    for (uint32_t i = 0; i < 3 && st == OA_OK; i++) {
        st = oa_bind_in(c, i, true, false);
    }
    return st == OA_OK ? oa_bind_out(c, 0) : st;
}

/* TF Select (v1): condition has x1's shape, or is 1-D choosing whole rows (dim 0) of a higher-rank x1. */
static oa_status bind_select_v1(oa_bctx *c)
{
    oa_status st = bind_select(c);
    oa_ktensor *cond = &c->b->in[0];
    const oa_ktensor *x1 = &c->b->in[1];
    if (st == OA_OK && cond->rank == 1 && x1->rank > 1) {
        if (cond->dims[0] != x1->dims[0]) {
            return BFAIL(c, OA_E_PARAM, "a 1-D condition needs x1's first dim (%lld, not %lld)",
                         (long long)x1->dims[0], (long long)cond->dims[0]);
        }
        for (int i = 1; i < x1->rank; i++) {
            cond->dims[i] = 1;
        }
        cond->rank = x1->rank;
    }
    return st;
}

/* ZerosLike / OnesLike: Fill with y's dims and a synthesized 0 or 1 of y's dtype. */
static oa_status bind_fill_like(oa_bctx *c, bool one)
{
    oa_op_bind *b = c->b;
    b->type = OA_KOP_FILL;
    oa_status st = oa_bind_out(c, 0);
    if (st != OA_OK) {
        return st;
    }
    const oa_ktensor *y = &b->out[0];
    if (y->layout != OA_KLAYOUT_PLAIN) {
        return BFAIL(c, OA_E_PARAM, "y must be a plain tensor");
    }
    uint8_t v[8] = {0};
    size_t vs = oa_kdtype_size(y->dtype);
    if (vs == 0 || vs > sizeof v) {
        return BFAIL(c, OA_E_UNSUPPORTED_DATA_TYPE, "y's dtype is not supported");
    }
    if (one) {
        switch (y->dtype) {
        case OA_KDT_F32: { const float f = 1.0f; memcpy(v, &f, sizeof f); break; }
        case OA_KDT_F64: { const double d = 1.0; memcpy(v, &d, sizeof d); break; }
        case OA_KDT_F16: v[1] = 0x3c; break;
        case OA_KDT_BF16: v[0] = 0x80; v[1] = 0x3f; break;
        default: v[0] = 1; break; /* integers and bool, little endian */
        }
    }
    const int64_t rank = y->rank;
    if ((st = oa_bind_in_synth(c, OA_KDT_I64, 1, &rank, y->dims, (size_t)rank * sizeof(int64_t))) != OA_OK) {
        return st;
    }
    return oa_bind_in_synth(c, y->dtype, 0, NULL, v, vs);
}

static oa_status bind_cast(oa_bctx *c)
{
    oa_op_bind *b = c->b;
    b->type = OA_KOP_CAST;
    b->has_params = true;
    int64_t dt = 0;
    if (!oa_attrs_get_int(&c->n->attrs, "dst_type", &dt)) {
        return BFAIL(c, OA_E_PARAM, "misses attr dst_type");
    }
    oa_status st = oa_bind_in(c, 0, true, false);
    if (st == OA_OK && (st = oa_bind_out(c, 0)) == OA_OK) {
        b->params.cast.dst_type = b->out[0].dtype;
        if ((int64_t)b->out[0].dtype != dt) {
            return BFAIL(c, OA_E_PARAM, "dst_type %lld disagrees with the output dtype", (long long)dt);
        }
    }
    return st;
}

/* ---- pooling and reductions ---- */

static oa_status bind_pool(oa_bctx *c, oa_kpool_kind kind, bool global)
{
    oa_op_bind *b = c->b;
    oa_kpool_params *p = &b->params.pool;
    b->type = OA_KOP_POOL;
    b->has_params = true;
    p->kind = kind;
    p->global = global || attr_bool(c->n, "global_pooling", false);
    oa_status st;
    if (!p->global) {
        if ((st = hw_pair(c, "ksize", 1, true, p->ksize)) != OA_OK ||
            (st = hw_pair(c, "strides", 1, false, p->strides)) != OA_OK || (st = pads4(c, "pads", p->pads)) != OA_OK) {
            return st;
        }
        /* TF MaxPool / AvgPool name it `padding` (SAME / VALID) */
        const bool tf = c->n->type == OA_OP_MAX_POOL || c->n->type == OA_OP_AVG_POOL;
        const char *pm = oa_node_attr_str(c->n, tf ? "padding" : "padding_mode", "CALCULATED");
        if (strcmp(pm, "SAME") == 0) {
            /* the ONNX importer marks auto_pad=SAME_LOWER (odd pad cell first) with an auto_pad attr */
            const bool lower = strcmp(oa_node_attr_str(c->n, "auto_pad", "SAME_UPPER"), "SAME_LOWER") == 0;
            p->padding_mode = lower ? OA_KPAD_SAME_LOWER : OA_KPAD_SAME;
        } else if (strcmp(pm, "VALID") == 0) {
            p->padding_mode = OA_KPAD_VALID;
        } else if (strcmp(pm, "CALCULATED") == 0) {
            p->padding_mode = OA_KPAD_CALCULATED;
        } else {
            return BFAIL(c, OA_E_PARAM, "padding_mode %s is not supported", pm);
        }
        p->ceil_mode = attr_bool(c->n, "ceil_mode", false);
        p->exclusive = attr_bool(c->n, "exclusive", true);
        p->divisor_override = oa_node_attr_int(c->n, "divisor_override", 0);
    }
    const char *df = oa_node_attr_str(c->n, "data_format", "NCHW");
    if (strcmp(df, "NCHW") != 0) {
        return BFAIL(c, OA_E_PARAM, "data_format %s is not supported (NCHW only)", df);
    }
    st = oa_bind_in(c, 0, true, false);
    return st == OA_OK ? oa_bind_out(c, 0) : st;
}

/* A list attr of exactly n entries (absent: dflt everywhere). */
static oa_status list_n(oa_bctx *c, const char *name, size_t n, int64_t dflt, bool required, int64_t *out)
{
    const int64_t *v;
    size_t cnt;
    if (!oa_attrs_get_list_int(&c->n->attrs, name, &v, &cnt)) {
        if (required) {
            return BFAIL(c, OA_E_PARAM, "misses attr %s", name);
        }
        for (size_t i = 0; i < n; i++) {
            out[i] = dflt;
        }
        return OA_OK;
    }
    if (cnt != n) {
        return BFAIL(c, OA_E_PARAM, "attr %s has %zu entries, expected %zu", name, cnt, n);
    }
    for (size_t i = 0; i < n; i++) {
        if (v[i] < 0) {
            return BFAIL(c, OA_E_PARAM, "attr %s has a negative entry", name);
        }
        out[i] = v[i];
    }
    return OA_OK;
}

/* MaxPool3D / AvgPool3D (NCDHW, 5-entry lists, 6 pads), MaxPoolWithArgmaxV2 (NCHW, y and i64 argmax). */
static oa_status bind_pool_nd(oa_bctx *c, oa_kpool_kind kind)
{
    oa_op_bind *b = c->b;
    oa_kpool_params *p = &b->params.pool;
    b->type = OA_KOP_POOL;
    b->has_params = true;
    p->kind = kind;
    const bool argmax = c->n->type == OA_OP_MAX_POOL_WITH_ARGMAX_V2;
    const size_t r = argmax ? 4 : 5, o = r - 2; /* first spatial entry: h (4-D) or d (5-D) */
    int64_t ks[5], st_[5], dl[5], pads[6];
    oa_status st;
    if ((st = list_n(c, "ksize", r, 1, true, ks)) != OA_OK || (st = list_n(c, "strides", r, 1, false, st_)) != OA_OK ||
        (st = list_n(c, "dilation", r, 1, false, dl)) != OA_OK ||
        (st = list_n(c, "pads", 2 * (r - 2), 0, false, pads)) != OA_OK) {
        return st;
    }
    if (!argmax) {
        p->ksize_d = ks[2];
        p->stride_d = st_[2];
        p->pads_d[0] = pads[0];
        p->pads_d[1] = pads[1];
        p->dilations[0] = dl[2];
    }
    p->ksize[0] = ks[r - 2];
    p->ksize[1] = ks[r - 1];
    p->strides[0] = st_[r - 2];
    p->strides[1] = st_[r - 1];
    p->dilations[1] = dl[r - 2];
    p->dilations[2] = dl[r - 1];
    memcpy(p->pads, pads + 2 * (o - 2), 4 * sizeof(int64_t));
    const char *pm = oa_node_attr_str(c->n, "padding_mode", "CALCULATED");
    if (strcmp(pm, "SAME") == 0) {
        const bool lower = strcmp(oa_node_attr_str(c->n, "auto_pad", "SAME_UPPER"), "SAME_LOWER") == 0;
        p->padding_mode = lower ? OA_KPAD_SAME_LOWER : OA_KPAD_SAME;
    } else if (strcmp(pm, "VALID") == 0) {
        p->padding_mode = OA_KPAD_VALID;
    } else if (strcmp(pm, "CALCULATED") == 0) {
        p->padding_mode = OA_KPAD_CALCULATED;
    } else {
        return BFAIL(c, OA_E_PARAM, "padding_mode %s is not supported", pm);
    }
    p->ceil_mode = attr_bool(c->n, "ceil_mode", false);
    p->exclusive = !attr_bool(c->n, "count_include_pad", false);
    p->divisor_override = oa_node_attr_int(c->n, "divisor_override", 0);
    p->argmax_col_major = oa_node_attr_int(c->n, "storage_order", 0) == 1;
    const char *df = oa_node_attr_str(c->n, "data_format", argmax ? "NCHW" : "NCDHW");
    if (strcmp(df, argmax ? "NCHW" : "NCDHW") != 0) {
        return BFAIL(c, OA_E_PARAM, "data_format %s is not supported (%s only)", df, argmax ? "NCHW" : "NCDHW");
    }
    if ((st = oa_bind_in(c, 0, true, false)) != OA_OK || (st = oa_bind_out(c, 0)) != OA_OK) {
        return st;
    }
    return argmax ? oa_bind_out(c, 1) : OA_OK;
}

static oa_status bind_reduce(oa_bctx *c, oa_kreduce_op op, bool attr_axes)
{
    oa_op_bind *b = c->b;
    oa_kreduce_params *p = &b->params.reduce;
    b->type = OA_KOP_REDUCE;
    b->has_params = true;
    p->op = op;
    p->keep_dims = attr_bool(c->n, "keep_dims", false);
    p->noop_with_empty_axes = attr_bool(c->n, "noop_with_empty_axes", false);
    int n = 0;
    if (attr_axes) {
        const int64_t *v;
        size_t na = 0;
        if (oa_attrs_get_list_int(&c->n->attrs, "axes", &v, &na)) {
            if (na > OA_KMAX_DIMS) {
                return BFAIL(c, OA_E_PARAM, "%zu axes", na);
            }
            memcpy(p->axes, v, na * sizeof(v[0]));
            n = (int)na;
        }
    } else if (oa_bind_has(c->n, 1) && !oa_bind_slot_ints(c, 1, p->axes, OA_KMAX_DIMS, &n)) {
        return BFAIL(c, OA_E_PARAM, "axes must be a constant of at most %d integers", OA_KMAX_DIMS);
    }
    p->n_axes = n;
    oa_status st = oa_bind_in(c, 0, true, false);
    return st == OA_OK ? oa_bind_out(c, 0) : st;
}

/* ---- resize ---- */

static oa_status resize_size_input(oa_bctx *c)
{
    const int64_t hw[2] = {c->b->out[0].dims[2], c->b->out[0].dims[3]};
    const int64_t two = 2;
    return oa_bind_in_synth(c, OA_KDT_I64, 1, &two, hw, sizeof(hw));
}

/* The ONNX coordinate_transformation_mode and nearest_mode attributes of a
 * Resize (or of a ResizeNearestNeighborV2 the ONNX importer made). */
static oa_status resize_onnx_modes(oa_bctx *c, oa_kresize_params *p)
{
    static const struct {
        const char *name;
        oa_kcoord_mode m;
    } ctms[] = {{"half_pixel", OA_KCT_HALF_PIXEL},
                {"pytorch_half_pixel", OA_KCT_PYTORCH_HALF_PIXEL},
                {"align_corners", OA_KCT_ALIGN_CORNERS},
                {"asymmetric", OA_KCT_ASYMMETRIC},
                {"tf_half_pixel_for_nn", OA_KCT_TF_HALF_PIXEL_FOR_NN},
                {"tf_crop_and_resize", OA_KCT_TF_CROP_AND_RESIZE}};
    const char *ctm = oa_node_attr_str(c->n, "coordinate_transformation_mode", "half_pixel");
    size_t k = 0;
    while (k < OA_ARRAY_SIZE(ctms) && strcmp(ctms[k].name, ctm) != 0) {
        k++;
    }
    if (k == OA_ARRAY_SIZE(ctms)) {
        return BFAIL(c, OA_E_PARAM, "coordinate_transformation_mode %s is not supported", ctm);
    }
    p->coord = ctms[k].m;
    static const struct {
        const char *name;
        oa_knearest_mode m;
    } nms[] = {{"round_prefer_floor", OA_KNEAREST_ROUND_PREFER_FLOOR},
               {"round_prefer_ceil", OA_KNEAREST_ROUND_PREFER_CEIL},
               {"floor", OA_KNEAREST_FLOOR},
               {"ceil", OA_KNEAREST_CEIL}};
    const char *nm = oa_node_attr_str(c->n, "nearest_mode", "round_prefer_floor");
    k = 0;
    while (k < OA_ARRAY_SIZE(nms) && strcmp(nms[k].name, nm) != 0) {
        k++;
    }
    if (k == OA_ARRAY_SIZE(nms)) {
        return BFAIL(c, OA_E_PARAM, "nearest_mode %s is not supported", nm);
    }
    p->nearest = nms[k].m;
    return OA_OK;
}

static oa_status bind_resize_tf(oa_bctx *c, bool linear)
{
    oa_op_bind *b = c->b;
    oa_kresize_params *p = &b->params.resize;
    b->type = OA_KOP_RESIZE;
    b->has_params = true;
    const bool align = attr_bool(c->n, "align_corners", false);
    const bool half = attr_bool(c->n, "half_pixel_centers", false);
    if (linear) {
        p->mode = OA_KRESIZE_LINEAR;
        p->coord = align ? OA_KCT_ALIGN_CORNERS : half ? OA_KCT_HALF_PIXEL : OA_KCT_ASYMMETRIC;
    } else {
        p->mode = OA_KRESIZE_NEAREST;
        p->coord = align ? OA_KCT_TF_NN_ALIGN_CORNERS : half ? OA_KCT_TF_NN_HALF_PIXEL : OA_KCT_TF_NN;
        /* from an ONNX Resize: its own modes, except asymmetric + floor, which is the TF rule itself */
        const char *ctm = oa_node_attr_str(c->n, "coordinate_transformation_mode", NULL);
        const char *nm = oa_node_attr_str(c->n, "nearest_mode", "round_prefer_floor");
        if (ctm != NULL && !(strcmp(ctm, "asymmetric") == 0 && strcmp(nm, "floor") == 0)) {
            oa_status st = resize_onnx_modes(c, p);
            if (st != OA_OK) {
                return st;
            }
            if (p->coord == OA_KCT_TF_CROP_AND_RESIZE) {
                return BFAIL(c, OA_E_PARAM, "tf_crop_and_resize needs the roi input of a Resize node");
            }
        }
    }
    oa_status st = oa_bind_in(c, 0, true, false);
    if (st == OA_OK && (st = oa_bind_out(c, 0)) == OA_OK) {
        st = resize_size_input(c);
    }
    return st;
}

static oa_status bind_resize_onnx(oa_bctx *c)
{
    oa_op_bind *b = c->b;
    oa_kresize_params *p = &b->params.resize;
    b->type = OA_KOP_RESIZE;
    b->has_params = true;
    const char *mode = oa_node_attr_str(c->n, "mode", "nearest");
    if (strcmp(mode, "nearest") == 0) {
        p->mode = OA_KRESIZE_NEAREST;
    } else if (strcmp(mode, "linear") == 0 || strcmp(mode, "bilinear") == 0) {
        p->mode = OA_KRESIZE_LINEAR;
    } else if (strcmp(mode, "cubic") == 0) {
        p->mode = OA_KRESIZE_CUBIC;
    } else {
        return BFAIL(c, OA_E_PARAM, "resize mode %s is not supported", mode);
    }
    oa_status st = resize_onnx_modes(c, p);
    if (st != OA_OK) {
        return st;
    }
    p->cubic_a = -0.75f;
    (void)oa_attrs_get_float(&c->n->attrs, "cubic_coeff_a", &p->cubic_a);
    p->exclude_outside = oa_node_attr_int(c->n, "exclude_outside", 0) != 0;
    p->extrapolation = 0.0f;
    (void)oa_attrs_get_float(&c->n->attrs, "extrapolation_value", &p->extrapolation);
    if (p->coord == OA_KCT_TF_CROP_AND_RESIZE) { /* roi [starts..., ends...] of the 4 dims: a constant */
        const void *rd;
        const oa_tensor_desc *rdesc;
        if (!oa_bind_slot_data(c, 1, &rd, &rdesc) || rd == NULL || rdesc->dtype != OA_DT_FLOAT ||
            rdesc->shape.rank != 1 || rdesc->shape.dims[0] != 8) {
            return BFAIL(c, OA_E_PARAM, "tf_crop_and_resize needs a constant f32 roi of 8 values (4-D x)");
        }
        float r[8];
        memcpy(r, rd, sizeof r);
        p->roi[0] = r[2];
        p->roi[1] = r[3];
        p->roi[2] = r[6];
        p->roi[3] = r[7];
    }
    /* the scales input drives the coordinate transform (ONNX): a constant, or the value the executor
     * already holds on the host (a graph input on the dynamic path) */
    const void *sd;
    const oa_tensor_desc *sdesc;
    if (oa_bind_slot_data(c, 2, &sd, &sdesc) && sd != NULL && sdesc->dtype == OA_DT_FLOAT &&
        sdesc->shape.rank == 1 && sdesc->shape.dims[0] == 4) {
        float s[4];
        memcpy(s, sd, sizeof s);
        p->scale_h = s[2];
        p->scale_w = s[3];
    }
    st = oa_bind_in(c, 0, true, false);
    if (st == OA_OK && (st = oa_bind_out(c, 0)) == OA_OK) {
        st = resize_size_input(c);
    }
    return st;
}

/* GridSampler2D: interpolation_mode, padding_mode, align_corners. */
static oa_status bind_grid_sample(oa_bctx *c)
{
    oa_op_bind *b = c->b;
    oa_kgrid_sample_params *p = &b->params.grid_sample;
    b->type = OA_KOP_GRID_SAMPLE;
    b->has_params = true;
    static const char *const modes[3] = {"bilinear", "nearest", "bicubic"};
    static const char *const pads[3] = {"zeros", "border", "reflection"};
    const char *m = oa_node_attr_str(c->n, "interpolation_mode", "bilinear");
    const char *pm = oa_node_attr_str(c->n, "padding_mode", "zeros");
    int k = 0, q = 0;
    while (k < 3 && strcmp(m, modes[k]) != 0) {
        k++;
    }
    while (q < 3 && strcmp(pm, pads[q]) != 0) {
        q++;
    }
    if (k == 3 || q == 3) {
        return BFAIL(c, OA_E_PARAM, "interpolation_mode %s / padding_mode %s is not supported", m, pm);
    }
    p->mode = (oa_kgs_mode)k;
    p->padding = (oa_kgs_padding)q;
    p->align_corners = attr_bool(c->n, "align_corners", false);
    oa_status st;
    if ((st = oa_bind_in(c, 0, true, false)) != OA_OK || (st = oa_bind_in(c, 1, true, false)) != OA_OK) {
        return st;
    }
    return oa_bind_out(c, 0);
}

/* ---- the rest ---- */

static oa_status bind_topk(oa_bctx *c)
{
    oa_op_bind *b = c->b;
    b->type = OA_KOP_TOPK;
    b->has_params = true;
    b->params.topk.axis = oa_node_attr_int(c->n, "dim", -1);
    b->params.topk.largest = attr_bool(c->n, "largest", true);
    b->params.topk.sorted = attr_bool(c->n, "sorted", true);
    oa_status st;
    if ((st = oa_bind_in(c, 0, true, false)) != OA_OK || (st = oa_bind_in(c, 1, true, true)) != OA_OK ||
        (st = oa_bind_out(c, 0)) != OA_OK) {
        return st;
    }
    return oa_bind_out(c, 1);
}

static oa_status bind_nms(oa_bctx *c)
{
    oa_op_bind *b = c->b;
    b->type = OA_KOP_NMS;
    b->has_params = true;
    b->params.nms.center_point_box = (int)oa_node_attr_int(c->n, "center_point_box", 0);
    oa_status st;
    if ((st = oa_bind_in(c, 0, true, false)) != OA_OK || (st = oa_bind_in(c, 1, true, false)) != OA_OK) {
        return st;
    }
    for (uint32_t i = 2; i < 5 && st == OA_OK; i++) {
        st = oa_bind_in(c, i, false, true);
    }
    return st == OA_OK ? oa_bind_out(c, 0) : st;
}

/* CommonGRU / CommonRNN: the LSTM family with its cell, linear_before_reset and activations. */
static oa_status bind_gru_rnn(oa_bctx *c, oa_klstm_params *p)
{
    static const char *const names[OA_KRNN_ACT_COUNT] = {
        "Sigmoid", "Tanh", "Relu", "Affine", "LeakyRelu", "ThresholdedRelu", "ScaledTanh", "HardSigmoid", "Elu",
        "Softsign", "Softplus"};
    /* ONNX defaults of activation_alpha / _beta per activation (LeakyRelu 0.01, ThresholdedRelu 1, HardSigmoid
     * 0.2 / 0.5, Elu 1; Affine and ScaledTanh need them given) */
    static const float dalpha[OA_KRNN_ACT_COUNT] = {0, 0, 0, 1.0f, 0.01f, 1.0f, 1.0f, 0.2f, 1.0f, 0, 0};
    static const float dbeta[OA_KRNN_ACT_COUNT] = {0, 0, 0, 0, 0, 0, 1.0f, 0.5f, 0, 0, 0};
    p->cell = c->n->type == OA_OP_COMMON_GRU ? OA_KRNN_GRU : OA_KRNN_RNN;
    p->linear_before_reset = oa_node_attr_int(c->n, "linear_before_reset", 0) != 0;
    if (p->input_forget) {
        return BFAIL(c, OA_E_PARAM, "input_forget is an LSTM attribute");
    }
    const char *const *acts;
    size_t na = 0;
    if (oa_attrs_get_list_str(&c->n->attrs, "activations", &acts, &na) && na > 0) {
        if (na > 4) {
            return BFAIL(c, OA_E_PARAM, "%zu activations", na);
        }
        const float *al = NULL, *be = NULL;
        size_t nal = 0, nbe = 0;
        (void)oa_attrs_get_list_float(&c->n->attrs, "activation_alpha", &al, &nal);
        (void)oa_attrs_get_list_float(&c->n->attrs, "activation_beta", &be, &nbe);
        size_t ia = 0, ib = 0;
        for (size_t i = 0; i < na; i++) {
            int k = 0;
            while (k < OA_KRNN_ACT_COUNT && strcmp(acts[i], names[k]) != 0) {
                k++;
            }
            if (k == OA_KRNN_ACT_COUNT) {
                return BFAIL(c, OA_E_PARAM, "activation %s is not supported", acts[i]);
            }
            p->act[i] = (oa_krnn_act)k;
            /* the alpha / beta lists hold values only for the activations that take them, in order */
            const bool takes_a = dalpha[k] != 0.0f, takes_b = dbeta[k] != 0.0f || k == OA_KRNN_ACT_AFFINE;
            p->act_alpha[i] = takes_a && ia < nal ? al[ia++] : dalpha[k];
            p->act_beta[i] = takes_b && ib < nbe ? be[ib++] : dbeta[k];
        }
        p->n_act = (int)na;
    }
    oa_status st = OA_OK;
    for (uint32_t i = 0; i < 6 && st == OA_OK; i++) {
        st = oa_bind_in(c, i, i < 3, false);
    }
    for (uint32_t k = 0; k < c->n->num_outputs && k < 2 && st == OA_OK; k++) {
        st = oa_bind_out(c, k);
    }
    return st;
}

static oa_status bind_lstm(oa_bctx *c)
{
    oa_op_bind *b = c->b;
    oa_klstm_params *p = &b->params.lstm;
    b->type = OA_KOP_LSTM;
    b->has_params = true;
    const char *dir = oa_node_attr_str(c->n, "direction", "forward");
    if (strcmp(dir, "forward") == 0) {
        p->direction = OA_KLSTM_FORWARD;
    } else if (strcmp(dir, "reverse") == 0) {
        p->direction = OA_KLSTM_REVERSE;
    } else if (strcmp(dir, "bidirectional") == 0) {
        p->direction = OA_KLSTM_BIDIRECTIONAL;
    } else {
        return BFAIL(c, OA_E_PARAM, "direction %s is not supported", dir);
    }
    p->hidden_size = oa_node_attr_int(c->n, "hidden_size", 0);
    p->clip = oa_node_attr_float(c->n, "clip", 0.0f);
    p->input_forget = oa_node_attr_int(c->n, "input_forget", 0) != 0;
    const char *const *acts;
    size_t na = 0;
    if (c->n->type == OA_OP_COMMON_GRU || c->n->type == OA_OP_COMMON_RNN) {
        return bind_gru_rnn(c, p);
    }
    if (oa_attrs_get_list_str(&c->n->attrs, "activations", &acts, &na)) {
        static const char *const dflt[3] = {"Sigmoid", "Tanh", "Tanh"};
        for (size_t i = 0; i < na; i++) {
            if (strcmp(acts[i], dflt[i % 3]) != 0) {
                return BFAIL(c, OA_E_PARAM, "activation %s is not supported (Sigmoid, Tanh, Tanh only)", acts[i]);
            }
        }
    }
    oa_status st = OA_OK;
    for (uint32_t i = 0; i < 8 && st == OA_OK; i++) {
        st = oa_bind_in(c, i, i < 3, false);
    }
    for (uint32_t k = 0; k < c->n->num_outputs && k < 3 && st == OA_OK; k++) {
        st = oa_bind_out(c, k);
    }
    return st;
}

static oa_status bind_transdata(oa_bctx *c)
{
    c->b->type = OA_KOP_REORDER;
    oa_status st = oa_bind_in(c, 0, true, false);
    if (st == OA_OK) {
        st = oa_bind_out(c, 0);
    }
    if (st == OA_OK && c->b->in[0].layout == c->b->out[0].layout) {
        c->b->type = OA_KOP_COPY; /* NCHW <-> ND and the like: the bytes do not move */
        c->b->is_copy = true;
        c->b->inplace_ok = true;
    }
    return st;
}

oa_status oa_bind_decode(oa_bctx *c)
{
    const oa_node *n = c->n;
    switch (n->type) {
    case OA_OP_CONV2D: return bind_conv(c, false);
    case OA_OP_CONV3D: return bind_conv(c, false);
    case OA_OP_CONV2D_TRANSPOSE: return bind_conv(c, true);
    case OA_OP_CONV3D_TRANSPOSE: return bind_conv_ref(c, true);
    case OA_OP_GRID_SAMPLER_2D: return bind_grid_sample(c);
    case OA_OP_OA_QUANTIZE:
    case OA_OP_OA_DEQUANTIZE:
    case OA_OP_OA_QUANT_CONV2D:
    case OA_OP_OA_QUANT_ADD:
    case OA_OP_OA_QUANT_MAX_POOL:
    case OA_OP_OA_QUANT_GLOBAL_AVG_POOL:
    case OA_OP_OA_QUANT_MAT_MUL: return oa_bind_quant(c);
    case OA_OP_MATRIX_DETERMINANT: {
        c->b->type = OA_KOP_DET;
        oa_status st = oa_bind_in(c, 0, true, false);
        return st == OA_OK ? oa_bind_out(c, 0) : st;
    }
    case OA_OP_MAT_MUL:
    case OA_OP_MAT_MUL_V2: return bind_matmul(c, false);
    case OA_OP_BATCH_MAT_MUL:
    case OA_OP_BATCH_MAT_MUL_V2: return bind_matmul(c, true);
    case OA_OP_GEMM: return bind_gemm(c);
    case OA_OP_BATCH_NORM: return bind_batchnorm(c);
    case OA_OP_LAYER_NORM: return bind_layernorm(c);
    case OA_OP_SOFTMAX_V2: return bind_softmax(c, false);
    case OA_OP_LOG_SOFTMAX_V2: return bind_softmax(c, true);
    case OA_OP_MULS: return bind_scalar_op(c, OA_KBIN_MUL);
    case OA_OP_ADDS: return bind_scalar_op(c, OA_KBIN_ADD);
    case OA_OP_RELU6: {
        oa_status st = bind_unary(c, OA_KUN_CLIP);
        c->b->params.unary.alpha = 0.0f;
        c->b->params.unary.beta = 6.0f;
        return st;
    }
    case OA_OP_GELU_V2: {
        const char *ap = oa_node_attr_str(n, "approximate", "none");
        if (strcmp(ap, "none") != 0 && strcmp(ap, "tanh") != 0) {
            return BFAIL(c, OA_E_PARAM, "approximate=%s is not supported", ap);
        }
        return bind_unary(c, strcmp(ap, "tanh") == 0 ? OA_KUN_GELU_TANH : OA_KUN_GELU);
    }
    case OA_OP_GLOBAL_AVERAGE_POOL: return bind_pool(c, OA_KPOOL_AVG, true);
    case OA_OP_GLOBAL_MAX_POOL: return bind_pool(c, OA_KPOOL_MAX, true);
    case OA_OP_AVG_POOL:
    case OA_OP_AVG_POOL_V2: return bind_pool(c, OA_KPOOL_AVG, false);
    case OA_OP_MAX_POOL:
    case OA_OP_MAX_POOL_V3: return bind_pool(c, OA_KPOOL_MAX, false);
    case OA_OP_MAX_POOL_3D:
    case OA_OP_MAX_POOL_WITH_ARGMAX_V2: return bind_pool_nd(c, OA_KPOOL_MAX);
    case OA_OP_AVG_POOL_3D: return bind_pool_nd(c, OA_KPOOL_AVG);
    case OA_OP_REDUCE_SUM_D: return bind_reduce(c, OA_KRED_SUM, true);
    case OA_OP_REDUCE_MEAN_D: return bind_reduce(c, OA_KRED_MEAN, true);
    case OA_OP_REDUCE_MAX_D: return bind_reduce(c, OA_KRED_MAX, true);
    case OA_OP_CAST: return bind_cast(c);
    case OA_OP_TRANSPOSE: return oa_bind_transpose(c, false);
    case OA_OP_TRANSPOSE_D: return oa_bind_transpose(c, true);
    case OA_OP_CONCAT_D:
    case OA_OP_CONCAT_V2_D: {
        int64_t axis = 0;
        if (!oa_attrs_get_int(&n->attrs, "concat_dim", &axis) && !oa_attrs_get_int(&n->attrs, "axis", &axis)) {
            return BFAIL(c, OA_E_PARAM, "misses attr concat_dim");
        }
        return oa_bind_concat(c, 0, n->num_inputs, axis);
    }
    case OA_OP_CONCAT:
    case OA_OP_CONCAT_V2: {
        /* concat_dim is input 0 (Concat) or the last input (ConcatV2) */
        const bool v2 = n->type == OA_OP_CONCAT_V2;
        int64_t axis = 0;
        int nd = 0;
        if (n->num_inputs < 2 || !oa_bind_slot_ints(c, v2 ? n->num_inputs - 1 : 0, &axis, 1, &nd) || nd != 1) {
            return BFAIL(c, OA_E_PARAM, "concat_dim must be a constant scalar");
        }
        return oa_bind_concat(c, v2 ? 0 : 1, n->num_inputs - 1, axis);
    }
    case OA_OP_SELECT: return bind_select_v1(c);
    case OA_OP_ZEROS_LIKE: return bind_fill_like(c, false);
    case OA_OP_ONES_LIKE: return bind_fill_like(c, true);
    case OA_OP_PAD_D: return oa_bind_pad_d(c);
    case OA_OP_SPLIT:
    case OA_OP_SPLIT_V:
    case OA_OP_SPLIT_D:
    case OA_OP_SPLIT_V_D: return oa_bind_split(c);
    case OA_OP_STRIDED_SLICE_V2: return oa_bind_slice(c, false);
    case OA_OP_SLICE: return oa_bind_slice(c, true);
    case OA_OP_GATHER_V2: return oa_bind_gather(c, false);
    case OA_OP_GATHER_V2_D: return oa_bind_gather(c, true);
    case OA_OP_GATHER_ELEMENTS: {
        oa_status st = oa_bind_gather(c, true);
        c->b->params.gather.axis = oa_node_attr_int(c->n, "dim", 0);
        c->b->params.gather.elements = true;
        return st;
    }
    case OA_OP_PAD:
    case OA_OP_PAD_V2:
    case OA_OP_PAD_V3:
    case OA_OP_MIRROR_PAD: return oa_bind_pad(c);
    case OA_OP_TILE: return oa_bind_host_args(c, OA_KOP_TILE, 1, 2);
    case OA_OP_EXPAND:
    case OA_OP_BROADCAST_TO: return oa_bind_host_args(c, OA_KOP_EXPAND, 1, 2);
    case OA_OP_FILL: return oa_bind_host_args(c, OA_KOP_FILL, 0, 2);
    case OA_OP_RANGE: return oa_bind_host_args(c, OA_KOP_RANGE, 0, 3);
    case OA_OP_RESIZE_NEAREST_NEIGHBOR_V2: return bind_resize_tf(c, false);
    case OA_OP_RESIZE_BILINEAR_V2: return bind_resize_tf(c, true);
    case OA_OP_RESIZE: return bind_resize_onnx(c);
    case OA_OP_TOP_K:
    case OA_OP_TOP_K_V2: return bind_topk(c);
    case OA_OP_NON_MAX_SUPPRESSION_V6: return bind_nms(c);
    case OA_OP_COMMON_LSTM:
    case OA_OP_COMMON_GRU:
    case OA_OP_COMMON_RNN: return bind_lstm(c);
    case OA_OP_SELECT_V2: return bind_select(c);
    case OA_OP_TRANS_DATA: return bind_transdata(c);
    case OA_OP_AIPP: return oa_bind_aipp(c);
    default:
        break;
    }
    if (oa_op_bind_is_structural(n)) {
        return BFAIL(c, OA_E_PARAM, "is handled by the executor, not by a kernel");
    }
    /* the families op_defs.inc binds by its kernel/sub columns alone */
    oa_kop_type type;
    int sub = -1;
    if (!oa_op_kernel(n->type, &type, &sub)) {
        return BFAIL(c, OA_E_OP_NOT_FOUND, "no CPU kernel for this op type");
    }
    switch (type) {
    case OA_KOP_BINARY: return bind_binary(c, sub);
    case OA_KOP_UNARY: return bind_unary(c, (oa_kunary_op)sub);
    case OA_KOP_REDUCE: return bind_reduce(c, (oa_kreduce_op)sub, false);
    case OA_KOP_COPY: return oa_bind_copy(c); /* the F_VIEW rows */
    case OA_KOP_INDEX: return oa_bind_index(c, sub);
    default:
        return BFAIL(c, OA_E_OP_NOT_FOUND, "no binding for kernel family %s", oa_kop_type_name(type));
    }
}

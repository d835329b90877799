/*
 * QDQ -> int8 (docs/int8.md "The pass"): the QuantizeLinear /
 * DequantizeLinear pairs of a QDQ model, as the ONNX importer decomposes
 * them (src/onnx/onnx_ops_composed.c), become int8 ops that keep the
 * activations quantized in NHWC order:
 *
 *   Q:  x ─▶ RealDiv(s) ─▶ Round ─▶ [Add(zp)] ─▶ ClipByValue(lo, hi) ─▶ Cast(u8|s8)
 *   DQ: q ─▶ Cast(f32) ─▶ [Sub(zp)] ─▶ Mul(s)
 *
 *   Q whose readers are all DQs           =>  OaQuantize(x) ─▶ OaDequantize per DQ
 *   OaDequantize ─▶ Conv2D(DQ(int8 filter), [DQ(int32 bias) | f32 bias]) ─▶ [Relu] ─▶ OaQuantize
 *                                         =>  OaQuantConv2D
 *   OaDequantize, OaDequantize ─▶ Add ─▶ [Relu] ─▶ OaQuantize
 *                                         =>  OaQuantAdd
 *   OaDequantize ─▶ MaxPoolV3 ─▶ OaQuantize (same scale and zero point)
 *                                         =>  OaQuantMaxPool
 *   OaDequantize ─▶ GlobalAveragePool ─▶ OaQuantize
 *                                         =>  OaQuantGlobalAvgPool
 *   OaDequantize ─▶ MatMulV2(DQ(int8 weight)) ─▶ [Add(bias)] ─▶ [Relu]
 *                                         =>  OaQuantMatMul (f32 output)
 *
 * Everything it does not recognise (per-axis activation scales, scales or
 * zero points that are not constants, filter zero points other than 0,
 * uint8 filters, auto padding, other ranks) keeps the reference
 * decomposition. Runs first in the weight passes, before constant folding
 * would turn the weight DQs into f32 constants.
 */
#define OA_LOG_MODULE "GE"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "compiler/pass_util.h"
#include "compiler/passes.h"
#include "graph/infer.h"

/* quantization parameters of one Q or DQ */
typedef struct qparams {
    float scale;
    int32_t zp;
    oa_dtype dt; /* u8 / s8 */
} qparams;

static bool q8(oa_dtype dt)
{
    return dt == OA_DT_UINT8 || dt == OA_DT_INT8;
}

static bool zp_fits(int64_t zp, oa_dtype dt)
{
    return dt == OA_DT_UINT8 ? (zp >= 0 && zp <= 255) : (zp >= -128 && zp <= 127);
}

/* The Const behind input slot i, looking through Cast and Reshape (the
 * importer's per-axis views and zero-point casts); NULL when not constant. */
static oa_node *const_src(const oa_node *n, uint32_t i)
{
    oa_node *p = oa_node_input_src(n, i, NULL);
    for (int depth = 0; p != NULL && depth < 4; depth++) {
        if (p->type == OA_OP_CONST || p->type == OA_OP_CONSTANT) {
            return oa_cp_const_tensor(p) ? p : NULL;
        }
        if (p->type != OA_OP_CAST && p->type != OA_OP_RESHAPE) {
            return NULL;
        }
        p = oa_node_input_src(p, 0, NULL);
    }
    return NULL;
}

static int64_t t_numel(const oa_tensor *t)
{
    int64_t c;
    return oa_shape_numel(&t->desc.shape, &c) ? c : -1;
}

/* element k of an integer tensor (u8, s8, i32, i64) */

/* a constant scalar zero point (slot i of n) */
static bool scalar_zp(const oa_node *n, uint32_t i, int64_t *zp)
{
    const oa_tensor *t = oa_cp_const_tensor(const_src(n, i));
    return t != NULL && t_numel(t) == 1 && oa_cp_const_int(t, 0, zp);
}

/* a constant positive f32 scalar scale (slot i of n) */
static bool scalar_scale(const oa_node *n, uint32_t i, float *s)
{
    const float *d;
    int64_t c;
    if (!oa_cp_const_f32(oa_cp_const_tensor(const_src(n, i)), &d, &c) || c != 1 || !isfinite(d[0]) || d[0] <= 0.0f) {
        return false;
    }
    *s = d[0];
    return true;
}

static oa_node *single_reader(const oa_node *n, uint32_t *slot)
{
    return oa_cp_is_graph_output(n, 0) ? NULL : oa_cp_single_use(n, 0, slot);
}

/* ------------------------------------------------------------ Q and DQ */

/* cq: the Cast(u8|s8) that ends a Q chain; fills the input x and params */
static bool match_q(const oa_node *cq, oa_node **x, uint32_t *x_idx, qparams *qp)
{
    const oa_dtype dt = cq->outputs[0].desc.dtype;
    if (cq->type != OA_OP_CAST || !q8(dt) || oa_node_attr_int(cq, "dst_type", -1) != dt) {
        return false;
    }
    uint32_t slot;
    oa_node *clip = oa_node_input_src(cq, 0, NULL);
    float lo, hi;
    if (clip == NULL || clip->type != OA_OP_CLIP_BY_VALUE || single_reader(clip, &slot) != cq ||
        !oa_cp_input_scalar(clip, 1, &lo) || !oa_cp_input_scalar(clip, 2, &hi) ||
        lo != (dt == OA_DT_UINT8 ? 0.0f : -128.0f) || hi != (dt == OA_DT_UINT8 ? 255.0f : 127.0f)) {
        return false;
    }
    oa_node *r = oa_node_input_src(clip, 0, NULL);
    int64_t zp = 0;
    if (r != NULL && r->type == OA_OP_ADD) {
        if (single_reader(r, &slot) != clip || !scalar_zp(r, 1, &zp)) {
            return false;
        }
        r = oa_node_input_src(r, 0, NULL);
    }
    if (r == NULL || r->type != OA_OP_ROUND || single_reader(r, &slot) == NULL || !zp_fits(zp, dt)) {
        return false;
    }
    oa_node *div = oa_node_input_src(r, 0, NULL);
    float s;
    if (div == NULL || div->type != OA_OP_REAL_DIV || single_reader(div, &slot) != r || !scalar_scale(div, 1, &s)) {
        return false;
    }
    *x = oa_node_input_src(div, 0, x_idx);
    const oa_tensor_desc *xd = &div->inputs[0].desc;
    if (*x == NULL || xd->dtype != OA_DT_FLOAT || (xd->shape.rank != 4 && xd->shape.rank != 2)) {
        return false;
    }
    qp->scale = s;
    qp->zp = (int32_t)zp;
    qp->dt = dt;
    return true;
}

/* cf: a reader of a quantized tensor; the Mul that ends its DQ chain */
static oa_node *match_dq(const oa_node *cf, oa_dtype qdt, qparams *qp)
{
    uint32_t slot;
    if (cf->type != OA_OP_CAST || cf->outputs[0].desc.dtype != OA_DT_FLOAT) {
        return NULL;
    }
    oa_node *n = single_reader(cf, &slot);
    int64_t zp = 0;
    if (n != NULL && n->type == OA_OP_SUB) {
        if (slot != 0 || !scalar_zp(n, 1, &zp)) {
            return NULL;
        }
        n = single_reader(n, &slot);
    }
    float s;
    if (n == NULL || n->type != OA_OP_MUL || !scalar_scale(n, 1 - slot, &s) || !zp_fits(zp, qdt)) {
        return NULL;
    }
    qp->scale = s;
    qp->zp = (int32_t)zp;
    qp->dt = qdt;
    return n;
}

static oa_status set_q_attrs(oa_node *n, const char *pre, const qparams *qp)
{
    char sn[32], zn[32];
    snprintf(sn, sizeof sn, "%s_scale", pre);
    snprintf(zn, sizeof zn, "%s_zero_point", pre);
    oa_status st = oa_node_set_float(n, sn, qp->scale);
    return st == OA_OK ? oa_node_set_int(n, zn, qp->zp) : st;
}

static oa_status new_node(oa_graph *g, oa_op_type t, const char *base, const char *suffix, uint32_t nin, oa_node **out)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s%s", base, suffix);
    const char *name = oa_graph_unique_name(g, buf);
    return name ? oa_graph_add_node(g, t, name, nin, 1, out) : OA_E_NOMEM;
}

#define MAX_DQ 64

/* Q (ending at cq) whose readers are all DQs -> OaQuantize + OaDequantize */
static oa_status rewrite_q(oa_graph *g, oa_node *cq, size_t *changed)
{
    oa_node *x;
    uint32_t xi;
    qparams qp;
    if (!match_q(cq, &x, &xi, &qp) || oa_cp_is_graph_output(cq, 0) || oa_cp_has_ctrl_uses(cq)) {
        return OA_OK;
    }
    oa_use uses[MAX_DQ];
    const size_t nu = oa_node_output_uses(cq, 0, uses, MAX_DQ);
    if (nu == 0 || nu > MAX_DQ) {
        return OA_OK;
    }
    oa_node *ends[MAX_DQ];
    qparams dqp[MAX_DQ];
    for (size_t k = 0; k < nu; k++) {
        if (uses[k].input != 0 || (ends[k] = match_dq(uses[k].node, qp.dt, &dqp[k])) == NULL) {
            return OA_OK;
        }
    }
    oa_node *q;
    oa_status st = new_node(g, OA_OP_OA_QUANTIZE, cq->name, "_int8", 1, &q);
    if (st == OA_OK && (st = oa_node_connect(q, 0, x, xi)) == OA_OK && (st = set_q_attrs(q, "y", &qp)) == OA_OK) {
        st = oa_node_set_int(q, "dst_type", qp.dt);
    }
    if (st == OA_OK) {
        const oa_shape *xs = &q->inputs[0].desc.shape;
        const int64_t nhwc[4] = {xs->dims[0], xs->dims[2], xs->dims[3], xs->dims[1]};
        const oa_shape ys = xs->rank == 4 ? oa_shape_make(4, nhwc) : *xs; /* rank 2 keeps its layout */
        oa_desc_set(&q->outputs[0].desc, qp.dt, &ys);
    }
    for (size_t k = 0; k < nu && st == OA_OK; k++) {
        oa_node *d;
        if ((st = new_node(g, OA_OP_OA_DEQUANTIZE, ends[k]->name, "_int8", 1, &d)) == OA_OK &&
            (st = oa_node_connect(d, 0, q, 0)) == OA_OK && (st = set_q_attrs(d, "x", &dqp[k])) == OA_OK) {
            d->outputs[0].desc = ends[k]->outputs[0].desc;
            st = oa_graph_replace_uses(ends[k], 0, d, 0, NULL);
        }
    }
    if (st == OA_OK) {
        (*changed)++;
    }
    return st;
}

/* ------------------------------------------------------------ Conv2D */

typedef struct conv_match {
    oa_node *conv, *deq, *relu, *quant;
    oa_node *wq;      /* Const s8 filter */
    oa_node *wscale;  /* Const f32 [O] or [1] */
    float *bias;      /* f32 [O] (malloc) or NULL */
    int64_t s[2], d[2], p[4], groups;
} conv_match;

/* the f32 value of a DQ'd int constant (Mul(Cast(c), s) or Mul(Sub(Cast(c), 0), s)): its Const and scale */
static bool match_weight_dq(const oa_node *mul, oa_dtype want, oa_node **c, oa_node **scale, int64_t channels)
{
    if (mul == NULL || mul->type != OA_OP_MUL) {
        return false;
    }
    oa_node *a = oa_node_input_src(mul, 0, NULL);
    if (a != NULL && a->type == OA_OP_SUB) {
        const oa_tensor *z = oa_cp_const_tensor(const_src(a, 1));
        int64_t nz = z ? t_numel(z) : -1, v;
        for (int64_t k = 0; k < nz; k++) {
            if (!oa_cp_const_int(z, k, &v) || v != 0) {
                return false; /* oneDNN's int8 weights have no zero point */
            }
        }
        if (nz < 1) {
            return false;
        }
        a = oa_node_input_src(a, 0, NULL);
    }
    if (a == NULL || a->type != OA_OP_CAST) {
        return false;
    }
    oa_node *cn = oa_node_input_src(a, 0, NULL);
    const oa_tensor *ct = oa_cp_const_tensor(cn);
    oa_node *sn = const_src(mul, 1);
    const oa_tensor *stt = oa_cp_const_tensor(sn);
    const float *sd;
    int64_t sc;
    if (ct == NULL || ct->desc.dtype != want || stt == NULL || !oa_cp_const_f32(stt, &sd, &sc) ||
        (sc != 1 && sc != channels)) {
        return false;
    }
    for (int64_t k = 0; k < sc; k++) {
        if (!isfinite(sd[k]) || sd[k] <= 0.0f) {
            return false;
        }
    }
    *c = cn;
    *scale = sn;
    return true;
}

static bool list4_hw(const oa_node *n, const char *name, int64_t dflt, int64_t out[2])
{
    const int64_t *v;
    size_t k;
    if (!oa_attrs_get_list_int(&n->attrs, name, &v, &k)) {
        out[0] = out[1] = dflt;
        return true;
    }
    if (k == 4) {
        out[0] = v[2], out[1] = v[3];
        return true;
    }
    if (k == 2) {
        out[0] = v[0], out[1] = v[1];
        return true;
    }
    return false;
}

static bool match_conv(oa_node *c, conv_match *m)
{
    memset(m, 0, sizeof(*m));
    m->conv = c;
    const char *ap = oa_node_attr_str(c, "auto_pad", "NOTSET");
    const char *df = oa_node_attr_str(c, "data_format", "NCHW");
    const int64_t *pv;
    size_t pn;
    if (c->num_inputs > 3 && oa_node_input_src(c, 3, NULL) != NULL) {
        return false; /* offset_w */
    }
    if ((strcmp(ap, "NOTSET") != 0 && strcmp(ap, "") != 0) || strcmp(df, "NCHW") != 0 ||
        oa_attrs_find(&c->attrs, "_oa_post_ops") != NULL || !list4_hw(c, "strides", 1, m->s) ||
        !list4_hw(c, "dilations", 1, m->d)) {
        return false;
    }
    if (oa_attrs_get_list_int(&c->attrs, "pads", &pv, &pn)) {
        if (pn != 4) {
            return false;
        }
        memcpy(m->p, pv, sizeof(m->p));
    }
    m->groups = oa_node_attr_int(c, "groups", 1);
    const oa_tensor_desc *y = &c->outputs[0].desc;
    if (y->dtype != OA_DT_FLOAT || y->shape.rank != 4 || y->shape.dims[1] <= 0) {
        return false;
    }
    const int64_t oc = y->shape.dims[1];
    m->deq = oa_node_input_src(c, 0, NULL);
    if (m->deq == NULL || m->deq->type != OA_OP_OA_DEQUANTIZE ||
        !match_weight_dq(oa_node_input_src(c, 1, NULL), OA_DT_INT8, &m->wq, &m->wscale, oc)) {
        return false;
    }
    const oa_tensor *wt = oa_cp_const_tensor(m->wq);
    if (wt->desc.shape.rank != 4 || wt->desc.shape.dims[0] != oc) {
        return false;
    }
    /* the result: [Relu ->] OaQuantize */
    uint32_t slot;
    oa_node *n = single_reader(c, &slot);
    if (n != NULL && n->type == OA_OP_RELU) {
        m->relu = n;
        n = single_reader(n, &slot);
    }
    if (n == NULL || n->type != OA_OP_OA_QUANTIZE || slot != 0) {
        return false;
    }
    m->quant = n;
    return true;
}

/* the bias in real units: a Const f32 [O] or the DQ of a Const int32 [O] */
static oa_status conv_bias(conv_match *m, bool *ok)
{
    *ok = false;
    const int64_t oc = m->conv->outputs[0].desc.shape.dims[1];
    oa_node *bsrc = oa_node_input_src(m->conv, 2, NULL);
    if (bsrc == NULL) {
        *ok = true;
        return OA_OK;
    }
    const float *bd;
    int64_t bc;
    const oa_tensor *bt = oa_cp_const_tensor(bsrc);
    if (bt != NULL) {
        if (!oa_cp_const_f32(bt, &bd, &bc) || bc != oc) {
            return OA_OK;
        }
        if ((m->bias = malloc(sizeof(float) * (size_t)oc)) == NULL) {
            return OA_FAIL(OA_E_NOMEM, "out of memory");
        }
        memcpy(m->bias, bd, sizeof(float) * (size_t)oc);
        *ok = true;
        return OA_OK;
    }
    oa_node *bq, *bs;
    if (!match_weight_dq(bsrc, OA_DT_INT32, &bq, &bs, oc)) {
        return OA_OK;
    }
    const oa_tensor *qt = oa_cp_const_tensor(bq);
    const float *sd;
    int64_t sc;
    if (t_numel(qt) != oc || !oa_cp_const_f32(oa_cp_const_tensor(bs), &sd, &sc)) {
        return OA_OK;
    }
    if ((m->bias = malloc(sizeof(float) * (size_t)oc)) == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory");
    }
    for (int64_t o = 0; o < oc; o++) {
        /* as the reference computes it: Cast to f32, then Mul */
        m->bias[o] = (float)((const int32_t *)qt->data)[o] * sd[sc == 1 ? 0 : o];
    }
    *ok = true;
    return OA_OK;
}

static oa_status copy_q_attrs(oa_node *dst, const char *pre, const oa_node *src, const char *src_pre)
{
    char a[32], b[32];
    snprintf(a, sizeof a, "%s_scale", src_pre);
    snprintf(b, sizeof b, "%s_zero_point", src_pre);
    qparams qp = {oa_node_attr_float(src, a, 1.0f), (int32_t)oa_node_attr_int(src, b, 0), OA_DT_UINT8};
    return set_q_attrs(dst, pre, &qp);
}

static oa_status rewrite_conv(oa_graph *g, oa_node *c, size_t *changed)
{
    conv_match m;
    bool ok;
    if (!match_conv(c, &m)) {
        return OA_OK;
    }
    oa_status st = conv_bias(&m, &ok);
    if (st != OA_OK || !ok) {
        free(m.bias);
        return st;
    }
    const int64_t oc = c->outputs[0].desc.shape.dims[1];
    oa_node *bias = NULL, *qc = NULL;
    if (m.bias != NULL) {
        const oa_shape bs = oa_shape_make(1, &oc);
        char base[512];
        snprintf(base, sizeof base, "%s_bias_f32", c->name);
        st = oa_cp_add_const(g, base, OA_DT_FLOAT, &bs, m.bias, sizeof(float) * (size_t)oc, &bias);
    }
    free(m.bias);
    const int64_t dil[2] = {m.d[0], m.d[1]};
    if (st == OA_OK && (st = new_node(g, OA_OP_OA_QUANT_CONV2D, c->name, "_int8", 4, &qc)) == OA_OK &&
        (st = oa_node_connect(qc, 0, oa_node_input_src(m.deq, 0, NULL), 0)) == OA_OK &&
        (st = oa_node_connect(qc, 1, m.wq, 0)) == OA_OK && (st = oa_node_connect(qc, 2, m.wscale, 0)) == OA_OK &&
        (bias == NULL || (st = oa_node_connect(qc, 3, bias, 0)) == OA_OK) &&
        (st = copy_q_attrs(qc, "x", m.deq, "x")) == OA_OK && (st = copy_q_attrs(qc, "y", m.quant, "y")) == OA_OK &&
        (st = oa_node_set_int(qc, "dst_type", oa_node_attr_int(m.quant, "dst_type", OA_DT_UINT8))) == OA_OK &&
        (st = oa_node_set_bool(qc, "relu", m.relu != NULL)) == OA_OK &&
        (st = oa_node_set_list_int(qc, "strides", m.s, 2)) == OA_OK &&
        (st = oa_node_set_list_int(qc, "dilations", dil, 2)) == OA_OK &&
        (st = oa_node_set_list_int(qc, "pads", m.p, 4)) == OA_OK &&
        (st = oa_node_set_int(qc, "groups", m.groups)) == OA_OK) {
        const char *names[2] = {m.relu ? m.relu->name : NULL, m.quant->name};
        st = oa_cp_add_original_names(qc, m.relu ? names : names + 1, m.relu ? 2 : 1);
    }
    if (st == OA_OK) {
        qc->outputs[0].desc = m.quant->outputs[0].desc;
    }
    if (st == OA_OK && (st = oa_graph_replace_uses(m.quant, 0, qc, 0, NULL)) == OA_OK) {
        (*changed)++;
    }
    return st;
}

/* ------------------------------------------------------------ Add */

static oa_status rewrite_add(oa_graph *g, oa_node *a, size_t *changed)
{
    oa_node *d0 = oa_node_input_src(a, 0, NULL), *d1 = oa_node_input_src(a, 1, NULL);
    if (d0 == NULL || d1 == NULL || d0->type != OA_OP_OA_DEQUANTIZE || d1->type != OA_OP_OA_DEQUANTIZE) {
        return OA_OK;
    }
    oa_node *t0 = oa_node_input_src(d0, 0, NULL), *t1 = oa_node_input_src(d1, 0, NULL);
    const oa_tensor_desc *x0 = &d0->inputs[0].desc, *x1 = &d1->inputs[0].desc;
    if (t0 == NULL || t1 == NULL || x0->dtype != x1->dtype || !oa_shape_is_static(&x0->shape) ||
        !oa_shape_equal(&x0->shape, &x1->shape) || a->outputs[0].desc.shape.rank != 4) {
        return OA_OK;
    }
    uint32_t slot;
    oa_node *relu = NULL, *n = single_reader(a, &slot);
    if (n != NULL && n->type == OA_OP_RELU) {
        relu = n;
        n = single_reader(n, &slot);
    }
    if (n == NULL || n->type != OA_OP_OA_QUANTIZE || slot != 0) {
        return OA_OK;
    }
    oa_node *qa;
    oa_status st = new_node(g, OA_OP_OA_QUANT_ADD, a->name, "_int8", 2, &qa);
    if (st == OA_OK && (st = oa_node_connect(qa, 0, t0, 0)) == OA_OK && (st = oa_node_connect(qa, 1, t1, 0)) == OA_OK &&
        (st = copy_q_attrs(qa, "x", d0, "x")) == OA_OK && (st = copy_q_attrs(qa, "b", d1, "x")) == OA_OK &&
        (st = copy_q_attrs(qa, "y", n, "y")) == OA_OK &&
        (st = oa_node_set_int(qa, "dst_type", oa_node_attr_int(n, "dst_type", OA_DT_UINT8))) == OA_OK &&
        (st = oa_node_set_bool(qa, "relu", relu != NULL)) == OA_OK) {
        qa->outputs[0].desc = n->outputs[0].desc;
        st = oa_graph_replace_uses(n, 0, qa, 0, NULL);
    }
    if (st == OA_OK) {
        (*changed)++;
    }
    return st;
}

/* ------------------------------------------------------------ pools */

/* OaDequantize -> MaxPoolV3 -> OaQuantize with one scale and zero point => OaQuantMaxPool;
 * OaDequantize -> GlobalAveragePool -> OaQuantize => OaQuantGlobalAvgPool */
static oa_status rewrite_pool(oa_graph *g, oa_node *pn, size_t *changed)
{
    oa_node *d = oa_node_input_src(pn, 0, NULL);
    uint32_t slot;
    oa_node *q = single_reader(pn, &slot);
    if (d == NULL || d->type != OA_OP_OA_DEQUANTIZE || q == NULL || q->type != OA_OP_OA_QUANTIZE ||
        pn->outputs[0].desc.shape.rank != 4 || oa_node_input_src(d, 0, NULL) == NULL) {
        return OA_OK;
    }
    const bool max = pn->type == OA_OP_MAX_POOL_V3;
    int64_t k[2], s[2], pads[4];
    const int64_t *pv;
    size_t pc;
    if (max) {
        const oa_dtype xdt = d->inputs[0].desc.dtype;
        if (oa_node_attr_float(d, "x_scale", 0) != oa_node_attr_float(q, "y_scale", -1) ||
            oa_node_attr_int(d, "x_zero_point", 0) != oa_node_attr_int(q, "y_zero_point", -1) ||
            oa_node_attr_int(q, "dst_type", -1) != xdt || oa_node_attr_bool(pn, "ceil_mode", false) ||
            oa_node_attr_bool(pn, "global_pooling", false) ||
            strcmp(oa_node_attr_str(pn, "padding_mode", "CALCULATED"), "CALCULATED") != 0 ||
            strcmp(oa_node_attr_str(pn, "data_format", "NCHW"), "NCHW") != 0 || !list4_hw(pn, "ksize", 0, k) ||
            !list4_hw(pn, "strides", 1, s) || !oa_attrs_get_list_int(&pn->attrs, "pads", &pv, &pc) || pc != 4 ||
            k[0] < 1 || k[1] < 1) {
            return OA_OK;
        }
        memcpy(pads, pv, sizeof pads);
        if (pads[0] >= k[0] || pads[1] >= k[0] || pads[2] >= k[1] || pads[3] >= k[1]) {
            return OA_OK;
        }
    }
    oa_node *qp;
    oa_status st = new_node(g, max ? OA_OP_OA_QUANT_MAX_POOL : OA_OP_OA_QUANT_GLOBAL_AVG_POOL, pn->name, "_int8", 1,
                            &qp);
    if (st == OA_OK) {
        st = oa_node_connect(qp, 0, oa_node_input_src(d, 0, NULL), 0);
    }
    if (st == OA_OK && max) {
        if ((st = oa_node_set_list_int(qp, "ksize", k, 2)) == OA_OK &&
            (st = oa_node_set_list_int(qp, "strides", s, 2)) == OA_OK) {
            st = oa_node_set_list_int(qp, "pads", pads, 4);
        }
    } else if (st == OA_OK) {
        if ((st = copy_q_attrs(qp, "x", d, "x")) == OA_OK && (st = copy_q_attrs(qp, "y", q, "y")) == OA_OK) {
            st = oa_node_set_int(qp, "dst_type", oa_node_attr_int(q, "dst_type", OA_DT_UINT8));
        }
    }
    if (st == OA_OK) {
        qp->outputs[0].desc = q->outputs[0].desc;
        st = oa_graph_replace_uses(q, 0, qp, 0, NULL);
    }
    if (st == OA_OK) {
        (*changed)++;
    }
    return st;
}

/* ------------------------------------------------------------ MatMul / Gemm */

/* OaDequantize(x [M, K]) -> MatMulV2(DQ(int8 w)) -> [Add(bias)] -> [Relu] => OaQuantMatMul (f32 out);
 * the scale must vary along N: [N, 1] for a transposed [N, K] weight, [N] / [1, N] otherwise */
static oa_status rewrite_matmul(oa_graph *g, oa_node *mm, size_t *changed)
{
    oa_node *d = oa_node_input_src(mm, 0, NULL), *wq, *ws;
    const oa_tensor_desc *y = &mm->outputs[0].desc;
    const bool tb = oa_node_attr_bool(mm, "transpose_x2", false);
    if (d == NULL || d->type != OA_OP_OA_DEQUANTIZE || d->inputs[0].desc.shape.rank != 2 ||
        oa_node_attr_bool(mm, "transpose_x1", false) || y->shape.rank != 2 || y->shape.dims[1] <= 0 ||
        (mm->num_inputs > 2 && oa_node_input_src(mm, 2, NULL) != NULL) ||
        (mm->num_inputs > 3 && oa_node_input_src(mm, 3, NULL) != NULL) ||
        oa_attrs_find(&mm->attrs, "_oa_post_ops") != NULL) {
        return OA_OK;
    }
    const int64_t n = y->shape.dims[1];
    oa_node *wmul = oa_node_input_src(mm, 1, NULL);
    if (!match_weight_dq(wmul, OA_DT_INT8, &wq, &ws, n)) {
        return OA_OK;
    }
    const oa_shape *wsh = &oa_cp_const_tensor(wq)->desc.shape;
    int64_t sc = t_numel(oa_cp_const_tensor(ws));
    const oa_shape *sb = &wmul->inputs[1].desc.shape; /* the scale as the Mul broadcasts it */
    const bool along_n = sc == 1 || (tb ? (sb->rank == 2 && sb->dims[0] == n && sb->dims[1] == 1)
                                        : (sb->dims[sb->rank - 1] == n && (sb->rank == 1 || sb->dims[0] == 1)));
    if (wsh->rank != 2 || wsh->dims[tb ? 0 : 1] != n || !along_n) {
        return OA_OK;
    }
    /* bias and relu after it */
    uint32_t slot;
    oa_node *last = mm, *n1 = single_reader(mm, &slot);
    float *bias = NULL;
    oa_status st = OA_OK;
    if (n1 != NULL && n1->type == OA_OP_ADD) {
        oa_node *other = oa_node_input_src(n1, 1 - slot, NULL);
        const oa_shape *os = &n1->inputs[1 - slot].desc.shape;
        const oa_tensor *bt = oa_cp_const_tensor(other);
        oa_node *bq, *bs;
        const float *bd;
        int64_t bc;
        if (os->dims[os->rank - 1] == n && (os->rank == 1 || (os->rank == 2 && os->dims[0] == 1))) {
            if (bt != NULL && oa_cp_const_f32(bt, &bd, &bc) && bc == n) {
                bias = malloc(sizeof(float) * (size_t)n);
                if (bias != NULL) {
                    memcpy(bias, bd, sizeof(float) * (size_t)n);
                }
            } else if (bt == NULL && match_weight_dq(other, OA_DT_INT32, &bq, &bs, n) &&
                       t_numel(oa_cp_const_tensor(bq)) == n &&
                       oa_cp_const_f32(oa_cp_const_tensor(bs), &bd, &bc)) {
                bias = malloc(sizeof(float) * (size_t)n);
                for (int64_t j = 0; bias != NULL && j < n; j++) {
                    bias[j] = (float)((const int32_t *)oa_cp_const_tensor(bq)->data)[j] * bd[bc == 1 ? 0 : j];
                }
            } else {
                return OA_OK;
            }
            if (bias == NULL) {
                return OA_FAIL(OA_E_NOMEM, "out of memory");
            }
            last = n1;
            n1 = single_reader(n1, &slot);
        }
    }
    const bool relu = n1 != NULL && n1->type == OA_OP_RELU;
    if (relu) {
        last = n1;
    }
    oa_node *bn = NULL, *qm = NULL;
    if (bias != NULL) {
        const oa_shape bs1 = oa_shape_make(1, &n);
        char base[512];
        snprintf(base, sizeof base, "%s_bias_f32", mm->name);
        st = oa_cp_add_const(g, base, OA_DT_FLOAT, &bs1, bias, sizeof(float) * (size_t)n, &bn);
        free(bias);
    }
    if (st == OA_OK && (st = new_node(g, OA_OP_OA_QUANT_MAT_MUL, mm->name, "_int8", 4, &qm)) == OA_OK &&
        (st = oa_node_connect(qm, 0, oa_node_input_src(d, 0, NULL), 0)) == OA_OK &&
        (st = oa_node_connect(qm, 1, wq, 0)) == OA_OK && (st = oa_node_connect(qm, 2, ws, 0)) == OA_OK &&
        (bn == NULL || (st = oa_node_connect(qm, 3, bn, 0)) == OA_OK) &&
        (st = copy_q_attrs(qm, "x", d, "x")) == OA_OK && (st = oa_node_set_bool(qm, "relu", relu)) == OA_OK) {
        st = oa_node_set_bool(qm, "transpose_x2", tb);
    }
    if (st == OA_OK) {
        qm->outputs[0].desc = last->outputs[0].desc;
        st = oa_graph_replace_uses(last, 0, qm, 0, NULL);
    }
    if (st == OA_OK) {
        (*changed)++;
    }
    return st;
}

/* ------------------------------------------------------------ driver */

static oa_status qdq_graph(oa_graph *g, size_t *changed)
{
    size_t local = 0;
    oa_status st = OA_OK;
    for (oa_node *n = oa_graph_first_node(g); n && st == OA_OK; n = n->next) {
        if (!n->removed && n->type == OA_OP_CAST) {
            st = rewrite_q(g, n, &local);
        }
    }
    if (st == OA_OK && local > 0) {
        st = oa_cp_dce_local(g, NULL);
    }
    size_t fused = 0;
    for (oa_node *n = oa_graph_first_node(g); n && st == OA_OK; n = n->next) {
        if (n->removed) {
            continue;
        }
        if (n->type == OA_OP_CONV2D) {
            st = rewrite_conv(g, n, &fused);
        } else if (n->type == OA_OP_ADD) {
            st = rewrite_add(g, n, &fused);
        } else if (n->type == OA_OP_MAX_POOL_V3 || n->type == OA_OP_GLOBAL_AVERAGE_POOL) {
            st = rewrite_pool(g, n, &fused);
        } else if (n->type == OA_OP_MAT_MUL_V2) {
            st = rewrite_matmul(g, n, &fused);
        }
    }
    local += fused;
    if (st == OA_OK && local > 0) {
        st = oa_cp_dce_local(g, NULL);
        if (st == OA_OK) {
            st = oa_graph_topo_sort(g);
        }
    }
    if (changed != NULL) {
        *changed += local;
    }
    return st;
}

oa_status oa_pass_qdq_int8(oa_graph *g, size_t *changed)
{
    size_t local = 0;
    oa_status st = oa_cp_for_each_graph(g, qdq_graph, &local);
    if (st == OA_OK && local > 0) {
        st = oa_graph_infer(g);
    }
    if (changed != NULL) {
        *changed += local;
    }
    return st;
}

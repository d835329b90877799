/*
 * The int8 ops of the QDQ rewrite (op_defs.inc "int8"; docs/int8.md "IR
 * ops") bound to the OA_KOP_QUANT kernel family (kernels.h "int8").
 */
#include <string.h>

#include "op_bind/op_bind_internal.h"

static oa_status req_float(oa_bctx *c, const char *name, float *v)
{
    oa_status st = oa_node_require_float(c->n, name, v);
    return st == OA_OK ? OA_OK : BFAIL(c, st, "needs attr %s", name);
}

static oa_status req_int32(oa_bctx *c, const char *name, int32_t *v)
{
    int64_t x;
    oa_status st = oa_node_require_int(c->n, name, &x);
    if (st != OA_OK) {
        return BFAIL(c, st, "needs attr %s", name);
    }
    if (x < INT32_MIN || x > INT32_MAX) {
        return BFAIL(c, OA_E_PARAM, "attr %s is out of range", name);
    }
    *v = (int32_t)x;
    return OA_OK;
}

static oa_status list_n(oa_bctx *c, const char *name, size_t n, int64_t *out)
{
    const int64_t *v;
    size_t cnt;
    oa_status st = oa_node_require_list_int(c->n, name, &v, &cnt);
    if (st != OA_OK) {
        return BFAIL(c, st, "needs attr %s", name);
    }
    if (cnt != n) {
        return BFAIL(c, OA_E_PARAM, "attr %s has %zu entries, expected %zu", name, cnt, n);
    }
    memcpy(out, v, n * sizeof(int64_t));
    return OA_OK;
}

oa_status oa_bind_quant(oa_bctx *c)
{
    oa_op_bind *b = c->b;
    oa_kquant_params *p = &b->params.quant;
    b->type = OA_KOP_QUANT;
    b->has_params = true;
    memset(p, 0, sizeof(*p));
    oa_status st = OA_OK;
    int n_in = 1;
    switch (c->n->type) {
    case OA_OP_OA_QUANTIZE:
        p->op = OA_KQ_QUANTIZE;
        st = req_float(c, "y_scale", &p->y_scale);
        if (st == OA_OK) {
            st = req_int32(c, "y_zero_point", &p->y_zp);
        }
        break;
    case OA_OP_OA_DEQUANTIZE:
        p->op = OA_KQ_DEQUANTIZE;
        st = req_float(c, "x_scale", &p->x_scale);
        if (st == OA_OK) {
            st = req_int32(c, "x_zero_point", &p->x_zp);
        }
        break;
    case OA_OP_OA_QUANT_ADD:
        p->op = OA_KQ_ADD;
        n_in = 2;
        if ((st = req_float(c, "x_scale", &p->x_scale)) == OA_OK &&
            (st = req_int32(c, "x_zero_point", &p->x_zp)) == OA_OK &&
            (st = req_float(c, "b_scale", &p->b_scale)) == OA_OK &&
            (st = req_int32(c, "b_zero_point", &p->b_zp)) == OA_OK &&
            (st = req_float(c, "y_scale", &p->y_scale)) == OA_OK) {
            st = req_int32(c, "y_zero_point", &p->y_zp);
        }
        p->relu = oa_node_attr_bool(c->n, "relu", false);
        break;
    case OA_OP_OA_QUANT_CONV2D:
        p->op = OA_KQ_CONV;
        n_in = 4;
        if ((st = req_float(c, "x_scale", &p->x_scale)) == OA_OK &&
            (st = req_int32(c, "x_zero_point", &p->x_zp)) == OA_OK &&
            (st = req_float(c, "y_scale", &p->y_scale)) == OA_OK &&
            (st = req_int32(c, "y_zero_point", &p->y_zp)) == OA_OK &&
            (st = list_n(c, "strides", 2, p->strides)) == OA_OK &&
            (st = list_n(c, "dilations", 2, p->dilations)) == OA_OK) {
            st = list_n(c, "pads", 4, p->pads);
        }
        p->groups = oa_node_attr_int(c->n, "groups", 1);
        p->relu = oa_node_attr_bool(c->n, "relu", false);
        break;
    case OA_OP_OA_QUANT_MAX_POOL:
        p->op = OA_KQ_MAXPOOL;
        if ((st = list_n(c, "ksize", 2, p->ksize)) == OA_OK && (st = list_n(c, "strides", 2, p->strides)) == OA_OK) {
            st = list_n(c, "pads", 4, p->pads);
        }
        break;
    case OA_OP_OA_QUANT_GLOBAL_AVG_POOL:
        p->op = OA_KQ_GAP;
        if ((st = req_float(c, "x_scale", &p->x_scale)) == OA_OK &&
            (st = req_int32(c, "x_zero_point", &p->x_zp)) == OA_OK &&
            (st = req_float(c, "y_scale", &p->y_scale)) == OA_OK) {
            st = req_int32(c, "y_zero_point", &p->y_zp);
        }
        break;
    case OA_OP_OA_QUANT_MAT_MUL:
        p->op = OA_KQ_MATMUL;
        n_in = 4;
        if ((st = req_float(c, "x_scale", &p->x_scale)) == OA_OK) {
            st = req_int32(c, "x_zero_point", &p->x_zp);
        }
        p->relu = oa_node_attr_bool(c->n, "relu", false);
        p->transpose_b = oa_node_attr_bool(c->n, "transpose_x2", false);
        break;
    default: return BFAIL(c, OA_E_PARAM, "not an int8 op");
    }
    for (int i = 0; i < n_in && st == OA_OK; i++) {
        st = oa_bind_in(c, (uint32_t)i, i < 3, false);
    }
    if (st == OA_OK && (p->op == OA_KQ_CONV || p->op == OA_KQ_MATMUL)) {
        for (int i = 1; i < b->n_in && st == OA_OK; i++) {
            if (b->src[i].kind == OA_BIND_ACT) {
                st = BFAIL(c, OA_E_PARAM, "input %d is not a constant: int8 filters are packed at load", i);
            }
        }
    }
    if (st == OA_OK) {
        st = oa_bind_out(c, 0);
    }
    return st;
}

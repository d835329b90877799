/*
 * The QDQ -> int8 pass (src/compiler/pass_qdq.c, docs/int8.md "The pass"):
 * small QDQ models built in memory, imported, rewritten; the int8 ops are
 * counted. Near misses keep the reference path: per-axis activation scales,
 * scales that are not constants, filter zero points other than 0, uint8
 * filters, a quantized tensor that is also a model output, and compile
 * options that switch the pass off.
 */
#include "compiler_test_util.h"

#include "../onnx/onnx_builder.h"
#include "onnx/onnx_import.h"

enum { T_FLOAT = 1, T_UINT8 = 2, T_INT8 = 3, T_INT32 = 6 };

typedef struct qopt {
    bool act_per_axis;   /* x's QuantizeLinear with a per-channel scale (axis 1) */
    bool scale_is_input; /* x's scale is a graph input, not a constant */
    int8_t w_zp;         /* filter zero point */
    bool w_u8;           /* uint8 filter */
    bool w_per_tensor;   /* one filter scale */
    bool add;            /* Add(DQ(conv), DQ(x)) -> Relu -> Q -> DQ */
    bool q_is_output;    /* the conv's quantized output is also a model output */
    bool no_relu;
} qopt;

/* x -> QuantizeLinear(s, z) -> <out>_q -> DequantizeLinear -> out */
static void qdq(tb_graph *g, const char *x, const char *s, const char *z, const char *out)
{
    char q[64], in[192];
    snprintf(q, sizeof q, "%s_q", out);
    snprintf(in, sizeof in, "%s,%s,%s", x, s, z);
    tb_node(g, "QuantizeLinear", NULL, in, q);
    snprintf(in, sizeof in, "%s,%s,%s", q, s, z);
    tb_node(g, "DequantizeLinear", NULL, in, out);
}

/* Packs and imports the model m (freed), failing the test with the importer's message. */
static oa_graph *import_model(tb_model *m)
{
    size_t len = 0;
    uint8_t *buf = tb_pack(m, &len);
    oa_graph *out = NULL;
    const oa_status st = oa_onnx_import_buffer(buf, len, NULL, NULL, &out);
    free(buf);
    tb_free(m);
    if (st != OA_OK) {
        const char *msg = oa_error_take_messages();
        fail_msg("import failed: %s", msg ? msg : "");
    }
    return out;
}

static oa_graph *build(const qopt *o)
{
    tb_model *m = tb_new(13);
    tb_graph *g = tb_root(m);
    const int64_t xd[4] = {1, 4, 6, 6}, c1[1] = {4}, wdims[4] = {4, 4, 3, 3};
    tb_input(g, "x", T_FLOAT, 4, xd);
    const float xs = 0.05f, ys = 0.08f, zs = 0.1f;
    const uint8_t xz = 120, yz = 0, zz = 7;
    if (o->scale_is_input) {
        tb_input(g, "xs", T_FLOAT, 0, NULL);
    } else if (o->act_per_axis) {
        const float v[4] = {0.05f, 0.04f, 0.03f, 0.06f};
        const uint8_t zv[4] = {120, 120, 120, 120};
        tb_initializer(g, tb_tensor_f32(m, "xs", 1, c1, v));
        tb_initializer(g, tb_tensor(m, "xz", T_UINT8, 1, c1, zv, sizeof zv));
    } else {
        tb_initializer(g, tb_tensor_f32(m, "xs", 0, NULL, &xs));
    }
    if (!o->act_per_axis) {
        tb_initializer(g, tb_tensor(m, "xz", T_UINT8, 0, NULL, &xz, 1));
    }
    tb_initializer(g, tb_tensor_f32(m, "ys", 0, NULL, &ys));
    tb_initializer(g, tb_tensor(m, "yz", T_UINT8, 0, NULL, &yz, 1));
    tb_initializer(g, tb_tensor_f32(m, "zs", 0, NULL, &zs));
    tb_initializer(g, tb_tensor(m, "zz", T_UINT8, 0, NULL, &zz, 1));
    /* filter [4,4,3,3] with per-channel (or one) scale and zero point */
    uint8_t wq[144];
    for (int i = 0; i < 144; i++) {
        wq[i] = o->w_u8 ? (uint8_t)(100 + i % 50) : (uint8_t)(int8_t)((i * 37) % 101 - 50);
    }
    const float wsv[4] = {0.01f, 0.02f, 0.015f, 0.03f};
    int8_t wzv[4];
    for (int i = 0; i < 4; i++) {
        wzv[i] = o->w_u8 ? 0 : o->w_zp;
    }
    const uint8_t wzu[4] = {128, 128, 128, 128};
    tb_initializer(g, tb_tensor(m, "wq", o->w_u8 ? T_UINT8 : T_INT8, 4, wdims, wq, sizeof wq));
    tb_initializer(g, tb_tensor_f32(m, "ws", o->w_per_tensor ? 0 : 1, c1, wsv));
    tb_initializer(g, o->w_u8 ? tb_tensor(m, "wz", T_UINT8, o->w_per_tensor ? 0 : 1, c1, wzu, o->w_per_tensor ? 1 : 4)
                              : tb_tensor(m, "wz", T_INT8, o->w_per_tensor ? 0 : 1, c1, wzv, o->w_per_tensor ? 1 : 4));
    Onnx__NodeProto *wd = tb_node(g, "DequantizeLinear", "w_dq", "wq,ws,wz", "w");
    tb_attr_int(m, wd, "axis", 0);
    /* int32 bias with scale x_scale * w_scale */
    const int32_t bq[4] = {100, -200, 50, 0};
    float bsv[4];
    for (int i = 0; i < 4; i++) {
        bsv[i] = xs * (o->w_per_tensor ? wsv[0] : wsv[i]);
    }
    tb_initializer(g, tb_tensor(m, "bq", T_INT32, 1, c1, bq, sizeof bq));
    tb_initializer(g, tb_tensor_f32(m, "bs", 1, c1, bsv));
    Onnx__NodeProto *bd = tb_node(g, "DequantizeLinear", "b_dq", "bq,bs", "b");
    tb_attr_int(m, bd, "axis", 0);
    /* x -> Q -> DQ (per-axis: axis 1) */
    Onnx__NodeProto *q = tb_node(g, "QuantizeLinear", "x_Q", "x,xs,xz", "x_q");
    Onnx__NodeProto *dq = tb_node(g, "DequantizeLinear", "x_DQ", "x_q,xs,xz", "x_dq");
    if (o->act_per_axis) {
        tb_attr_int(m, q, "axis", 1);
        tb_attr_int(m, dq, "axis", 1);
        /* the per-axis DQ needs the declared rank of x_q: a value_info entry */
        static Onnx__ValueInfoProto *vis[1];
        tb_input(g, "x_q", T_UINT8, 4, xd);
        Onnx__GraphProto *gp = tb_graph_proto(g);
        vis[0] = gp->input[--gp->n_input];
        gp->value_info = vis;
        gp->n_value_info = 1;
    }
    Onnx__NodeProto *c = tb_node(g, "Conv", "conv", "x_dq,w,b", "c");
    const int64_t ks[2] = {3, 3}, pads[4] = {1, 1, 1, 1};
    tb_attr_ints(m, c, "kernel_shape", ks, 2);
    tb_attr_ints(m, c, "pads", pads, 4);
    const char *cr = "c";
    if (!o->no_relu) {
        tb_node(g, "Relu", "relu", "c", "r");
        cr = "r";
    }
    qdq(g, cr, "ys", "yz", "y");
    if (o->add) {
        tb_node(g, "Add", "add", "y,x_dq", "a");
        tb_node(g, "Relu", "add_relu", "a", "ar");
        qdq(g, "ar", "zs", "zz", "z");
        tb_output(g, "z");
    } else {
        tb_output(g, "y");
    }
    if (o->q_is_output) {
        tb_output(g, "y_q");
    }
    return import_model(m);
}

static int count(const oa_graph *g, oa_op_type t)
{
    int n = 0;
    for (const oa_node *x = oa_graph_first_node(g); x; x = x->next) {
        n += x->type == t;
    }
    return n;
}

typedef struct expect {
    int qconv, conv, quantize, dequantize, qadd;
} expect;

static void check(const qopt *o, expect e, const char *what)
{
    oa_graph *g = build(o);
    size_t changed = 0;
    oa_status st = oa_pass_qdq_int8(g, &changed);
    if (st != OA_OK) {
        const char *msg = oa_error_take_messages();
        fail_msg("%s: pass failed: %s", what, msg ? msg : "");
    }
    const expect got = {count(g, OA_OP_OA_QUANT_CONV2D), count(g, OA_OP_CONV2D), count(g, OA_OP_OA_QUANTIZE),
                        count(g, OA_OP_OA_DEQUANTIZE), count(g, OA_OP_OA_QUANT_ADD)};
    if (memcmp(&got, &e, sizeof e) != 0) {
        fail_msg("%s: OaQuantConv2D %d Conv2D %d OaQuantize %d OaDequantize %d OaQuantAdd %d, expected %d %d %d %d %d",
                 what, got.qconv, got.conv, got.quantize, got.dequantize, got.qadd, e.qconv, e.conv, e.quantize,
                 e.dequantize, e.qadd);
    }
    assert_true((changed > 0) == (got.quantize > 0));
    EXPECT_OK(oa_graph_validate(g));
    if (got.qconv == 1) {
        /* the fused conv: quantized NHWC in and out, the int8 filter and its scales, an f32 bias */
        const oa_node *n = NULL;
        for (n = oa_graph_first_node(g); n && n->type != OA_OP_OA_QUANT_CONV2D; n = n->next) {
        }
        assert_int_equal(n->inputs[0].desc.dtype, OA_DT_UINT8);
        assert_int_equal(n->inputs[1].desc.dtype, OA_DT_INT8);
        assert_int_equal(n->inputs[3].desc.dtype, OA_DT_FLOAT);
        const oa_shape *ys = &n->outputs[0].desc.shape;
        assert_int_equal(ys->rank, 4);
        assert_int_equal(ys->dims[1], 6);
        assert_int_equal(ys->dims[3], 4);
        assert_true(oa_node_attr_bool(n, "relu", false) == !o->no_relu);
        assert_float_equal(oa_node_attr_float(n, "x_scale", 0), 0.05f, 0);
        assert_int_equal(oa_node_attr_int(n, "x_zero_point", -1), 120);
        assert_float_equal(oa_node_attr_float(n, "y_scale", 0), 0.08f, 0);
    }
    oa_graph_destroy(g);
}

static void recognised(void **state)
{
    (void)state;
    qopt o = {0};
    /* x's Q feeds the conv only (its DQ is gone); the conv replaces y's Q, whose DQ feeds the output */
    check(&o, (expect){1, 0, 1, 1, 0}, "per-channel filter");
    o.w_per_tensor = true;
    check(&o, (expect){1, 0, 1, 1, 0}, "per-tensor filter");
    o.w_per_tensor = false;
    o.no_relu = true;
    check(&o, (expect){1, 0, 1, 1, 0}, "no relu");
    o.no_relu = false;
    /* the add reads x's quantized tensor and the conv's: both DQs disappear */
    o.add = true;
    check(&o, (expect){1, 0, 1, 1, 1}, "residual add + relu");
}

static void near_misses(void **state)
{
    (void)state;
    qopt o = {0};
    o.act_per_axis = true;
    /* x's Q is per-axis: it stays; y's Q is still rewritten, but the conv's input is no OaDequantize */
    check(&o, (expect){0, 1, 1, 1, 0}, "per-axis activation scale");
    o = (qopt){0};
    o.scale_is_input = true;
    check(&o, (expect){0, 1, 1, 1, 0}, "scale from a graph input");
    o = (qopt){0};
    o.w_zp = 3;
    check(&o, (expect){0, 1, 2, 2, 0}, "filter zero point 3");
    o = (qopt){0};
    o.w_u8 = true;
    check(&o, (expect){0, 1, 2, 2, 0}, "uint8 filter");
    o = (qopt){0};
    o.q_is_output = true;
    /* y's Q is also a model output: it stays, so the conv has no OaQuantize to end in */
    check(&o, (expect){0, 1, 1, 1, 0}, "quantized output is a model output");
}

/* x -> Q -> DQ -> MaxPool -> Q (same or other params) -> DQ -> GlobalAveragePool -> Q -> DQ -> y */
static oa_graph *build_pools(bool same_params)
{
    tb_model *m = tb_new(13);
    tb_graph *g = tb_root(m);
    const int64_t xd[4] = {1, 4, 6, 6};
    tb_input(g, "x", T_FLOAT, 4, xd);
    const float s0 = 0.05f, s1 = same_params ? 0.05f : 0.06f, s2 = 0.01f;
    const uint8_t z0 = 120, z2 = 3;
    tb_initializer(g, tb_tensor_f32(m, "s0", 0, NULL, &s0));
    tb_initializer(g, tb_tensor_f32(m, "s1", 0, NULL, &s1));
    tb_initializer(g, tb_tensor_f32(m, "s2", 0, NULL, &s2));
    tb_initializer(g, tb_tensor(m, "z0", T_UINT8, 0, NULL, &z0, 1));
    tb_initializer(g, tb_tensor(m, "z2", T_UINT8, 0, NULL, &z2, 1));
    qdq(g, "x", "s0", "z0", "a");
    Onnx__NodeProto *mp = tb_node(g, "MaxPool", "maxpool", "a", "mp");
    const int64_t ks[2] = {3, 3}, st[2] = {2, 2}, pads[4] = {1, 1, 1, 1};
    tb_attr_ints(m, mp, "kernel_shape", ks, 2);
    tb_attr_ints(m, mp, "strides", st, 2);
    tb_attr_ints(m, mp, "pads", pads, 4);
    qdq(g, "mp", "s1", "z0", "b");
    tb_node(g, "GlobalAveragePool", "gap", "b", "gp");
    qdq(g, "gp", "s2", "z2", "y");
    tb_output(g, "y");
    return import_model(m);
}

static void pools(void **state)
{
    (void)state;
    for (int same = 0; same < 2; same++) {
        oa_graph *g = build_pools(same != 0);
        EXPECT_OK(oa_pass_qdq_int8(g, NULL));
        /* a MaxPool between different scales is no plain maximum of the quantized values: it stays */
        assert_int_equal(count(g, OA_OP_OA_QUANT_MAX_POOL), same ? 1 : 0);
        assert_int_equal(count(g, OA_OP_MAX_POOL_V3), same ? 0 : 1);
        assert_int_equal(count(g, OA_OP_OA_QUANT_GLOBAL_AVG_POOL), 1);
        assert_int_equal(count(g, OA_OP_GLOBAL_AVERAGE_POOL), 0);
        EXPECT_OK(oa_graph_validate(g));
        oa_graph_destroy(g);
    }
}

/* x [2, 16] -> Q -> DQ -> Gemm(DQ(int8 w [16, 16]) transB=1, DQ(int32 bias)) -> y (f32); the filter
 * scale per row of w (axis 0: per output column, fused) or per column (axis 1: along K, not fused) */
static oa_graph *build_gemm(int w_axis)
{
    tb_model *m = tb_new(13);
    tb_graph *g = tb_root(m);
    const int64_t xd[2] = {2, 16}, wd[2] = {16, 16}, c16[1] = {16};
    tb_input(g, "x", T_FLOAT, 2, xd);
    const float xs = 0.05f;
    const uint8_t xz = 100;
    tb_initializer(g, tb_tensor_f32(m, "xs", 0, NULL, &xs));
    tb_initializer(g, tb_tensor(m, "xz", T_UINT8, 0, NULL, &xz, 1));
    int8_t w[256];
    float wsv[16], bsv[16];
    int32_t bq[16];
    int8_t wz[16] = {0};
    for (int i = 0; i < 256; i++) {
        w[i] = (int8_t)((i * 29) % 101 - 50);
    }
    for (int i = 0; i < 16; i++) {
        wsv[i] = 0.01f + 0.001f * (float)i;
        bsv[i] = xs * wsv[i];
        bq[i] = i * 10 - 70;
    }
    tb_initializer(g, tb_tensor(m, "wq", T_INT8, 2, wd, w, sizeof w));
    tb_initializer(g, tb_tensor_f32(m, "ws", 1, c16, wsv));
    tb_initializer(g, tb_tensor(m, "wz", T_INT8, 1, c16, wz, sizeof wz));
    tb_initializer(g, tb_tensor(m, "bq", T_INT32, 1, c16, bq, sizeof bq));
    tb_initializer(g, tb_tensor_f32(m, "bs", 1, c16, bsv));
    Onnx__NodeProto *wdq = tb_node(g, "DequantizeLinear", "w_dq", "wq,ws,wz", "w");
    tb_attr_int(m, wdq, "axis", w_axis);
    Onnx__NodeProto *bdq = tb_node(g, "DequantizeLinear", "b_dq", "bq,bs", "b");
    tb_attr_int(m, bdq, "axis", 0);
    qdq(g, "x", "xs", "xz", "xd");
    Onnx__NodeProto *gm = tb_node(g, "Gemm", "fc", "xd,w,b", "y");
    tb_attr_int(m, gm, "transB", 1);
    tb_output(g, "y");
    return import_model(m);
}

static void gemm(void **state)
{
    (void)state;
    for (int axis = 0; axis < 2; axis++) {
        oa_graph *g = build_gemm(axis);
        EXPECT_OK(oa_pass_qdq_int8(g, NULL));
        assert_int_equal(count(g, OA_OP_OA_QUANT_MAT_MUL), axis == 0 ? 1 : 0);
        assert_int_equal(count(g, OA_OP_MAT_MUL_V2), axis == 0 ? 0 : 1);
        /* the bias Add is inside the int8 op */
        assert_int_equal(count(g, OA_OP_ADD), axis == 0 ? 0 : 1);
        EXPECT_OK(oa_graph_validate(g));
        oa_graph_destroy(g);
    }
}

/* the whole pipeline: the rewrite by default, not with OA_NO_INT8 */
static void compile_switch(void **state)
{
    (void)state;
    const qopt o = {0};
    for (int off = 0; off < 2; off++) {
        oa_compile_options opt;
        oa_compile_options_init(&opt);
        opt.disable = off ? OA_NO_INT8 : 0;
        oa_compiled_model *cm = NULL;
        oa_status st = oa_compile_graph(build(&o), &opt, &cm);
        if (st != OA_OK) {
            const char *msg = oa_error_take_messages();
            fail_msg("compile failed: %s", msg ? msg : "");
        }
        assert_int_equal(count(cm->graph, OA_OP_OA_QUANT_CONV2D), off ? 0 : 1);
        assert_int_equal(count(cm->graph, OA_OP_CONV2D), off ? 1 : 0);
        oa_compiled_model_destroy(cm);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(recognised),
        cmocka_unit_test(near_misses),
        cmocka_unit_test(pools),
        cmocka_unit_test(gemm),
        cmocka_unit_test(compile_switch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

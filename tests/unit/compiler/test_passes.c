/*
 * compiler/: the graph passes on hand-built graphs (identity removal, dead
 * code, constant folding, BatchNorm and affine folding, post-op fusion,
 * layout, classification). Each test draws its graph.
 */
#include "compiler_test_util.h"

/*
 *   x ─▶ Identity ─▶ Cast(f32→f32) ─▶ Reshape(same shape) ─▶ ConcatD(1 input) ─▶ Relu ─▶ out
 *                                         shape(Const) ─┘
 * becomes x ─▶ Relu ─▶ out; a control edge leaving the Identity moves to x.
 */
static void identity_removal(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "2,3");
    oa_node *id = tu_op1(g, OA_OP_IDENTITY, "id", 1, x);
    oa_node *cast = tu_op1(g, OA_OP_CAST, "cast", 1, id);
    EXPECT_OK(oa_node_set_int(cast, "dst_type", OA_DT_FLOAT));
    const int64_t sv[2] = {2, 3};
    oa_node *rs_in[2] = {cast, tu_i64(g, "shape", "2", sv)};
    oa_node *rs = tu_op(g, OA_OP_RESHAPE, "rs", 2, 1, rs_in);
    oa_node *cc = tu_op1(g, OA_OP_CONCAT_D, "cc", 1, rs);
    EXPECT_OK(oa_node_set_int(cc, "concat_dim", 0));
    oa_node *relu = tu_op1(g, OA_OP_RELU, "relu", 1, cc);
    oa_node *waiter = tu_op1(g, OA_OP_NEG, "waiter", 1, x);
    EXPECT_OK(oa_node_add_control_input(waiter, id));
    oa_node *outs[2] = {relu, waiter};
    (void)ct_out(g, outs, 2);
    ct_infer(g);
    size_t changed = 0;
    EXPECT_OK(oa_pass_remove_identity(g, &changed));
    EXPECT_OK(oa_pass_dce(g, NULL));
    assert_int_equal(changed, 4);
    assert_ptr_equal(oa_node_input_src(relu, 0, NULL), x);
    assert_int_equal(waiter->num_ctrl_inputs, 1); /* it waited for the Identity, now for x */
    assert_ptr_equal(waiter->ctrl_inputs[0], x);
    assert_null(oa_graph_find_node(g, "shape"));  /* dead after the Reshape went */
    assert_int_equal(oa_graph_num_nodes(g), 4);
    EXPECT_OK(oa_graph_validate(g));
    oa_graph_destroy(g);
}

/* A real cast, a real reshape and a two-input concat stay. */
static void identity_removal_keeps_real_ops(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "2,3");
    oa_node *cast = tu_op1(g, OA_OP_CAST, "cast", 1, x);
    EXPECT_OK(oa_node_set_int(cast, "dst_type", OA_DT_INT32));
    const int64_t sv[2] = {3, 2};
    oa_node *rs_in[2] = {x, tu_i64(g, "shape", "2", sv)};
    oa_node *rs = tu_op(g, OA_OP_RESHAPE, "rs", 2, 1, rs_in);
    oa_node *cc_in[2] = {x, x};
    oa_node *cc = tu_op(g, OA_OP_CONCAT_D, "cc", 2, 1, cc_in);
    EXPECT_OK(oa_node_set_int(cc, "concat_dim", 0));
    oa_node *outs[3] = {cast, rs, cc};
    (void)ct_out(g, outs, 3);
    ct_infer(g);
    size_t changed = 0;
    EXPECT_OK(oa_pass_remove_identity(g, &changed));
    assert_int_equal(changed, 0);
    oa_graph_destroy(g);
}

/*
 *   x ─▶ a ─▶ b (nobody reads b)        c(Const, unused)
 *   x ─▶ relu ─▶ out
 *   d ──ctrl──▶ relu   (d reads nothing but x; only a control use)
 * dead code removes a, b, c and d (dropping the control edge); x stays.
 */
static void dead_code(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "4");
    oa_node *unused_in = tu_data(g, "unused", OA_DT_FLOAT, "4");
    (void)unused_in;
    oa_node *a = tu_op1(g, OA_OP_NEG, "a", 1, x);
    (void)tu_op1(g, OA_OP_ABS, "b", 1, a);
    (void)ct_f32(g, "c", "4", 0, 1);
    oa_node *d = tu_op1(g, OA_OP_SQRT, "d", 1, x);
    oa_node *relu = tu_op1(g, OA_OP_RELU, "relu", 1, x);
    EXPECT_OK(oa_node_add_control_input(relu, d));
    (void)ct_out(g, &relu, 1);
    size_t changed = 0;
    EXPECT_OK(oa_pass_dce(g, &changed));
    assert_int_equal(changed, 4);
    assert_int_equal(oa_graph_num_nodes(g), 4); /* x, unused, relu, out */
    assert_int_equal(relu->num_ctrl_inputs, 0);
    EXPECT_OK(oa_graph_validate(g));
    oa_graph_destroy(g);
}

/*
 * The shape subgraph of a static input folds:
 *
 *   x[2,3,4] ─▶ Shape ─▶ Gather(idx 0) ─▶ Unsqueeze ─┐
 *                                           (-1) ───▶ ConcatD ─▶ Reshape(x, ·) ─▶ out
 * becomes Reshape(x, Const [2,-1]); a Reshape of a large Const becomes a
 * Const sharing the same bytes.
 */
static void constant_folding(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "2,3,4");
    oa_node *sh = tu_op1(g, OA_OP_SHAPE, "shape", 1, x);
    EXPECT_OK(oa_node_set_int(sh, "dtype", OA_DT_INT64));
    const int64_t zero = 0, ax = 0, m1 = -1;
    oa_node *ga_in[3] = {sh, tu_i64(g, "idx", "", &zero), tu_i64(g, "axis", "", &ax)};
    oa_node *ga = tu_op(g, OA_OP_GATHER_V2, "gather", 3, 1, ga_in);
    oa_node *un = tu_op1(g, OA_OP_UNSQUEEZE, "unsq", 1, ga);
    EXPECT_OK(oa_node_set_list_int(un, "axes", &ax, 1));
    oa_node *cc_in[2] = {un, tu_i64(g, "minus1", "1", &m1)};
    oa_node *cc = tu_op(g, OA_OP_CONCAT_D, "concat", 2, 1, cc_in);
    EXPECT_OK(oa_node_set_int(cc, "concat_dim", 0));
    oa_node *rs_in[2] = {x, cc};
    oa_node *rs = tu_op(g, OA_OP_RESHAPE, "rs", 2, 1, rs_in);
    /* A big weight reshaped. */
    oa_node *w = ct_f32(g, "w", "64,32", 0.0f, 1.0f);
    const int64_t wsh[2] = {32, 64};
    oa_node *wr_in[2] = {w, tu_i64(g, "wshape", "2", wsh)};
    oa_node *wr = tu_op(g, OA_OP_RESHAPE, "wr", 2, 1, wr_in);
    oa_node *outs[2] = {rs, wr};
    (void)ct_out(g, outs, 2);
    ct_infer(g);
    size_t changed = 0;
    EXPECT_OK(oa_pass_fold_constants(g, &changed));
    assert_true(changed >= 2);
    assert_null(oa_graph_find_node(g, "shape"));
    assert_null(oa_graph_find_node(g, "concat"));
    const oa_node *sc = oa_node_input_src(rs, 1, NULL);
    assert_int_equal(sc->type, OA_OP_CONST);
    const oa_tensor *t = oa_cp_const_tensor(sc);
    assert_int_equal(t->desc.dtype, OA_DT_INT64);
    assert_int_equal(((const int64_t *)t->data)[0], 2);
    assert_int_equal(((const int64_t *)t->data)[1], -1);
    /* The reshaped weight: a Const of shape [32,64] over the very same bytes. */
    const oa_node *out = oa_graph_output_node(g);
    oa_node *wc = oa_node_input_src(out, 1, NULL);
    assert_int_equal(wc->type, OA_OP_CONST);
    const oa_tensor *wt = oa_cp_const_tensor(wc);
    EXPECT_DESC(wc, 0, "f32[32,64]");
    assert_ptr_equal(wt->data, oa_cp_const_tensor(w)->data);
    assert_null(oa_graph_find_node(g, "wr"));
    ct_infer(g);
    EXPECT_DESC(rs, 0, "f32[2,12]");
    EXPECT_OK(oa_graph_validate(g));
    oa_graph_destroy(g);
}

/* Folded float and narrow-int values keep their dtype; fp16 is rounded. */
static void constant_folding_dtypes(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    const float a[2] = {1.5f, 2.25f};
    oa_node *ca = tu_const(g, "a", OA_DT_FLOAT, "2", a);
    oa_node *sum = ct_bin(g, OA_OP_ADD, "sum", ca, ca);
    oa_node *half = tu_op1(g, OA_OP_CAST, "half", 1, sum);
    EXPECT_OK(oa_node_set_int(half, "dst_type", OA_DT_FLOAT16));
    const int32_t iv[3] = {7, -8, 9};
    oa_node *ci = tu_const(g, "i", OA_DT_INT32, "3", iv);
    oa_node *neg = tu_op1(g, OA_OP_NEG, "neg", 1, ci);
    oa_node *outs[3] = {sum, half, neg};
    oa_node *no = ct_out(g, outs, 3);
    ct_infer(g);
    EXPECT_OK(oa_pass_fold_constants(g, NULL));
    const oa_tensor *ts = oa_cp_input_const(no, 0);
    const oa_tensor *th = oa_cp_input_const(no, 1);
    const oa_tensor *ti = oa_cp_input_const(no, 2);
    assert_non_null(ts);
    assert_non_null(th);
    assert_non_null(ti);
    assert_true(((const float *)ts->data)[1] == 4.5f);
    assert_int_equal(th->desc.dtype, OA_DT_FLOAT16);
    assert_int_equal(((const uint16_t *)th->data)[0], 0x4200); /* 3.0 */
    assert_int_equal(((const uint16_t *)th->data)[1], 0x4480); /* 4.5 */
    assert_int_equal(ti->desc.dtype, OA_DT_INT32);
    assert_int_equal(((const int32_t *)ti->data)[1], 8);
    assert_int_equal(ct_count(g, OA_OP_ADD) + ct_count(g, OA_OP_CAST) + ct_count(g, OA_OP_NEG), 0);
    oa_graph_destroy(g);
}

/*
 * Large constants fold through the kernels:
 *   w[64,48] ─▶ Transpose(perm [1,0]) ─▶ Cast(f16) ─▶ out0
 *   a[64,48] ─▶ Mul(b[64,48]) ─────────────────────▶ out1
 */
static void constant_folding_with_kernels(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    oa_node *w = ct_f32(g, "w", "64,48", 0, 1);
    const int64_t perm[2] = {1, 0};
    oa_node *tr_in[2] = {w, tu_i64(g, "perm", "2", perm)};
    oa_node *tr = tu_op(g, OA_OP_TRANSPOSE, "tr", 2, 1, tr_in);
    oa_node *cast = tu_op1(g, OA_OP_CAST, "cast", 1, tr);
    EXPECT_OK(oa_node_set_int(cast, "dst_type", OA_DT_FLOAT16));
    oa_node *mul = ct_bin(g, OA_OP_MUL, "mul", ct_f32(g, "a", "64,48", 1, 0), ct_f32(g, "b", "64,48", 0, 0.5f));
    oa_node *outs[2] = {cast, mul};
    oa_node *no = ct_out(g, outs, 2);
    ct_infer(g);
    EXPECT_OK(oa_pass_fold_constants(g, NULL));
    const oa_tensor *t0 = oa_cp_input_const(no, 0), *t1 = oa_cp_input_const(no, 1);
    assert_non_null(t0);
    assert_non_null(t1);
    assert_int_equal(t0->desc.dtype, OA_DT_FLOAT16);
    EXPECT_DESC(oa_node_input_src(no, 0, NULL), 0, "f16[48,64]");
    /* element [1][0] of the transpose is w[0][1] = 1.0 (fp16 0x3c00) */
    assert_int_equal(((const uint16_t *)t0->data)[64], 0x3c00);
    assert_float_equal(((const float *)t1->data)[10], 5.0f, 0);
    assert_int_equal(ct_count(g, OA_OP_TRANSPOSE) + ct_count(g, OA_OP_CAST) + ct_count(g, OA_OP_MUL), 0);
    oa_graph_destroy(g);
}

/*
 *   x[1,2,3,3] ─▶ Conv2D(w[3,2,1,1], b[3]) ─▶ BatchNorm(scale, offset, mean, var) ─▶ out
 * becomes one Conv2D with W'[o] = W[o]*s[o], b' = (b - mean)*s + offset.
 */
static void batchnorm_folding(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,2,3,3");
    oa_node *w = ct_f32(g, "w", "3,2,1,1", 1.0f, 1.0f);
    oa_node *b = ct_f32(g, "b", "3", 0.5f, 0.5f);
    oa_node *conv = ct_conv(g, "conv", x, w, b);
    oa_node *bn_in[5] = {conv, ct_f32(g, "scale", "3", 2, 1), ct_f32(g, "offset", "3", 1, 0),
                         ct_f32(g, "mean", "3", 0.25f, 0), ct_f32(g, "var", "3", 3, 1)};
    oa_node *bn = tu_op(g, OA_OP_BATCH_NORM, "bn", 5, 6, bn_in);
    EXPECT_OK(oa_node_set_float(bn, "epsilon", 1.0f));
    (void)ct_out(g, &bn, 1);
    ct_infer(g);
    size_t changed = 0;
    EXPECT_OK(oa_pass_fold_batchnorm(g, &changed));
    assert_int_equal(changed, 1);
    assert_int_equal(ct_count(g, OA_OP_BATCH_NORM), 0);
    assert_ptr_equal(oa_node_input_src(oa_graph_output_node(g), 0, NULL), conv);
    const float *nw = ct_input_f32(conv, 1), *nb = ct_input_f32(conv, 2);
    for (int o = 0; o < 3; o++) {
        float s = (2.0f + (float)o) / sqrtf(3.0f + (float)o + 1.0f);
        for (int i = 0; i < 2; i++) {
            assert_float_equal(nw[o * 2 + i], (1.0f + (float)(o * 2 + i)) * s, 1e-5);
        }
        assert_float_equal(nb[o], (0.5f + 0.5f * (float)o - 0.25f) * s + 1.0f, 1e-5);
    }
    const char *const *names;
    size_t nn;
    assert_true(oa_attrs_get_list_str(&conv->attrs, "_datadump_original_op_names", &names, &nn));
    assert_int_equal(nn, 2);
    assert_string_equal(names[1], "bn");
    assert_null(oa_graph_find_node(g, "scale")); /* dead parameters removed */
    EXPECT_OK(oa_graph_validate(g));
    oa_graph_destroy(g);
}

/* No folding when the conv output has another reader, or in training mode. */
static void batchnorm_folding_refusals(void **state)
{
    (void)state;
    for (int variant = 0; variant < 2; variant++) {
        oa_graph *g = ct_graph();
        oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,2,3,3");
        oa_node *conv = ct_conv(g, "conv", x, ct_f32(g, "w", "3,2,1,1", 1, 1), NULL);
        oa_node *bn_in[5] = {conv, ct_f32(g, "scale", "3", 2, 1), ct_f32(g, "offset", "3", 1, 0),
                             ct_f32(g, "mean", "3", 0, 0), ct_f32(g, "var", "3", 1, 0)};
        oa_node *bn = tu_op(g, OA_OP_BATCH_NORM, "bn", 5, 6, bn_in);
        oa_node *outs[2] = {bn, conv};
        if (variant == 1) {
            EXPECT_OK(oa_node_set_bool(bn, "is_training", true));
        }
        (void)ct_out(g, outs, variant == 0 ? 2 : 1);
        ct_infer(g);
        size_t changed = 0;
        EXPECT_OK(oa_pass_fold_batchnorm(g, &changed));
        assert_int_equal(changed, 0);
        assert_int_equal(ct_count(g, OA_OP_BATCH_NORM), 1);
        oa_graph_destroy(g);
    }
}

/*
 * Conv2DTranspose with 2 groups: filter [Cin=4, Cout/g=1, 1, 1], Cout = 2;
 * input channels 0,1 belong to output channel 0, 2,3 to channel 1.
 */
static void batchnorm_folding_transpose_groups(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,4,2,2");
    const int64_t z4[4] = {0, 0, 0, 0};
    oa_node *ct_in[3] = {tu_i64(g, "input_size", "4", z4), x, ct_f32(g, "w", "4,1,1,1", 1, 1)};
    oa_node *ct = tu_opn(g, OA_OP_CONV2D_TRANSPOSE, "convt", 5, 1, ct_in, 3);
    const int64_t one[4] = {1, 1, 1, 1}, zero[4] = {0, 0, 0, 0};
    EXPECT_OK(oa_node_set_list_int(ct, "strides", one, 4));
    EXPECT_OK(oa_node_set_list_int(ct, "dilations", one, 4));
    EXPECT_OK(oa_node_set_list_int(ct, "pads", zero, 4));
    EXPECT_OK(oa_node_set_int(ct, "groups", 2));
    EXPECT_OK(oa_node_set_str(ct, "data_format", "NCHW"));
    oa_node *bn_in[5] = {ct, ct_f32(g, "scale", "2", 1, 1), ct_f32(g, "offset", "2", 0, 0),
                         ct_f32(g, "mean", "2", 0, 0), ct_f32(g, "var", "2", 1, 0)};
    oa_node *bn = tu_op(g, OA_OP_BATCH_NORM, "bn", 5, 6, bn_in);
    EXPECT_OK(oa_node_set_float(bn, "epsilon", 0.0f));
    (void)ct_out(g, &bn, 1);
    ct_infer(g);
    EXPECT_DESC(ct, 0, "f32[1,2,2,2]");
    size_t changed = 0;
    EXPECT_OK(oa_pass_fold_batchnorm(g, &changed));
    assert_int_equal(changed, 1);
    const float *nw = ct_input_f32(ct, 2);
    /* s = [1, 2]: channels 0,1 (group 0) scaled by 1, channels 2,3 by 2 */
    assert_float_equal(nw[0], 1, 1e-6);
    assert_float_equal(nw[1], 2, 1e-6);
    assert_float_equal(nw[2], 6, 1e-6);
    assert_float_equal(nw[3], 8, 1e-6);
    assert_non_null(oa_node_input_src(ct, 3, NULL)); /* bias slot of Conv2DTranspose */
    oa_graph_destroy(g);
}

/*
 *   x ─▶ Conv2D ─▶ Mul(c[1,3,1,1]) ─▶ Add(d[3,1,1]) ─▶ Sub(e scalar) ─▶ RealDiv(2) ─▶ out
 * all four fold into the conv's weights and bias.
 */
static void affine_folding_conv(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,1,2,2");
    oa_node *conv = ct_conv(g, "conv", x, ct_f32(g, "w", "3,1,1,1", 1, 0), NULL);
    oa_node *mul = ct_bin(g, OA_OP_MUL, "mul", ct_f32(g, "c", "1,3,1,1", 1, 1), conv); /* const first */
    oa_node *add = ct_bin(g, OA_OP_ADD, "add", mul, ct_f32(g, "d", "3,1,1", 10, 10));
    oa_node *sub = ct_bin(g, OA_OP_SUB, "sub", add, ct_f32(g, "e", "", 4, 0));
    oa_node *div = ct_bin(g, OA_OP_REAL_DIV, "div", sub, ct_f32(g, "two", "1", 2, 0));
    (void)ct_out(g, &div, 1);
    ct_infer(g);
    size_t changed = 0;
    EXPECT_OK(oa_pass_fold_affine(g, &changed));
    assert_int_equal(changed, 4);
    assert_int_equal(oa_graph_num_nodes(g), 5); /* x, conv, w', b', out */
    const float *nw = ct_input_f32(conv, 1), *nb = ct_input_f32(conv, 2);
    for (int o = 0; o < 3; o++) {
        float c = 1.0f + (float)o, d = 10.0f * (float)(o + 1);
        assert_float_equal(nw[o], c / 2.0f, 1e-6);
        assert_float_equal(nb[o], (d - 4.0f) / 2.0f, 1e-6);
    }
    EXPECT_OK(oa_graph_validate(g));
    oa_graph_destroy(g);
}

/*
 * A [C] constant broadcasts along W, not along the channels: no folding.
 *   x[1,3,2,3] ─▶ Conv2D(3 out) ─▶ Mul(c[3]) ─▶ out
 * Nor when the conv output also goes elsewhere, or the operand is not constant.
 */
static void affine_folding_refusals(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,3,2,3");
    oa_node *conv = ct_conv(g, "conv", x, ct_f32(g, "w", "3,3,1,1", 1, 0), NULL);
    oa_node *mul = ct_bin(g, OA_OP_MUL, "mul", conv, ct_f32(g, "c", "3", 1, 1));
    oa_node *conv2 = ct_conv(g, "conv2", x, ct_f32(g, "w2", "3,3,1,1", 1, 0), NULL);
    oa_node *add2 = ct_bin(g, OA_OP_ADD, "add2", conv2, x);
    oa_node *conv3 = ct_conv(g, "conv3", x, ct_f32(g, "w3", "3,3,1,1", 1, 0), NULL);
    oa_node *add3 = ct_bin(g, OA_OP_ADD, "add3", conv3, ct_f32(g, "k", "1,3,1,1", 1, 0));
    oa_node *outs[4] = {mul, add2, add3, conv3};
    (void)ct_out(g, outs, 4);
    ct_infer(g);
    size_t changed = 0;
    EXPECT_OK(oa_pass_fold_affine(g, &changed));
    assert_int_equal(changed, 0);
    oa_graph_destroy(g);
}

/*
 * MatMulV2(a[2,4], w[3,4], transpose_x2) ─▶ Mul(s[3]) ─▶ Add(b[1,3]) ─▶ out
 * scales the rows of w (the output columns) and makes a [3] bias.
 */
static void affine_folding_matmul(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    oa_node *a = tu_data(g, "a", OA_DT_FLOAT, "2,4");
    oa_node *mm_in[2] = {a, ct_f32(g, "w", "3,4", 1, 0)};
    oa_node *mm = tu_opn(g, OA_OP_MAT_MUL_V2, "mm", 3, 1, mm_in, 2);
    EXPECT_OK(oa_node_set_bool(mm, "transpose_x2", true));
    oa_node *mul = ct_bin(g, OA_OP_MUL, "mul", mm, ct_f32(g, "s", "3", 1, 1));
    oa_node *add = ct_bin(g, OA_OP_ADD, "add", mul, ct_f32(g, "b", "1,3", 5, 0));
    (void)ct_out(g, &add, 1);
    ct_infer(g);
    EXPECT_DESC(mm, 0, "f32[2,3]");
    size_t changed = 0;
    EXPECT_OK(oa_pass_fold_affine(g, &changed));
    assert_int_equal(changed, 2);
    const float *nw = ct_input_f32(mm, 1), *nb = ct_input_f32(mm, 2);
    for (int n = 0; n < 3; n++) {
        for (int k = 0; k < 4; k++) {
            assert_float_equal(nw[n * 4 + k], (float)(n + 1), 1e-6);
        }
        assert_float_equal(nb[n], 5.0f, 1e-6);
    }
    /* BatchMatMulV2 with activations on both sides: only the bias Add folds. */
    oa_graph *g2 = ct_graph();
    oa_node *p = tu_data(g2, "p", OA_DT_FLOAT, "2,3,4");
    oa_node *q = tu_data(g2, "q", OA_DT_FLOAT, "2,4,5");
    oa_node *bm = ct_bin(g2, OA_OP_BATCH_MAT_MUL_V2, "bm", p, q);
    oa_node *bm_mul = ct_bin(g2, OA_OP_MUL, "mul", bm, ct_f32(g2, "s", "5", 2, 0));
    (void)ct_out(g2, &bm_mul, 1);
    ct_infer(g2);
    changed = 0;
    EXPECT_OK(oa_pass_fold_affine(g2, &changed));
    assert_int_equal(changed, 0);
    oa_graph_destroy(g2);
    oa_graph_destroy(g);
}

/*
 *   x[1,2,3,3] ─▶ Mul(s[1,2,1,1]) ─▶ Add(b scalar) ─▶ Conv2D(w[3,2,1,1], no padding) ─▶ out
 * folds into the conv: W'[o][c] = W[o][c]*s[c], bias'[o] = sum_c W[o][c]*b.
 * With padding (pads 1) nothing changes.
 */
static void input_affine_folding(void **state)
{
    (void)state;
    for (int padded = 0; padded < 2; padded++) {
        oa_graph *g = ct_graph();
        oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,2,3,3");
        oa_node *mul = ct_bin(g, OA_OP_MUL, "mul", x, ct_f32(g, "s", "1,2,1,1", 2, 1));
        oa_node *add = ct_bin(g, OA_OP_ADD, "add", ct_f32(g, "b", "", 0.5f, 0), mul);
        oa_node *conv = ct_conv(g, "conv", add, ct_f32(g, "w", "3,2,1,1", 1, 1), NULL);
        if (padded) {
            const int64_t p1[4] = {1, 1, 1, 1};
            EXPECT_OK(oa_node_set_list_int(conv, "pads", p1, 4));
        }
        (void)ct_out(g, &conv, 1);
        ct_infer(g);
        size_t changed = 0;
        EXPECT_OK(oa_pass_fold_input_affine(g, &changed));
        EXPECT_OK(oa_graph_validate(g));
        if (padded) {
            assert_int_equal(changed, 0);
            assert_ptr_equal(oa_node_input_src(conv, 0, NULL), add);
            oa_graph_destroy(g);
            continue;
        }
        assert_int_equal(changed, 1);
        assert_ptr_equal(oa_node_input_src(conv, 0, NULL), x);
        const float *nw = ct_input_f32(conv, 1), *nb = ct_input_f32(conv, 2);
        for (int o = 0; o < 3; o++) {
            float acc = 0;
            for (int c = 0; c < 2; c++) {
                float wv = 1.0f + (float)(o * 2 + c);
                assert_float_equal(nw[o * 2 + c], wv * (2.0f + (float)c), 1e-6);
                acc += wv * 0.5f;
            }
            assert_float_equal(nb[o], acc, 1e-6);
        }
        assert_int_equal(ct_count(g, OA_OP_MUL) + ct_count(g, OA_OP_ADD), 0);
        oa_graph_destroy(g);
    }
}

/* Runs fusion on g and returns the post-op list of `host`. */
static const char *fused(oa_graph *g, oa_node *host, char *buf, size_t cap)
{
    ct_infer(g);
    EXPECT_OK(oa_pass_fuse_post_ops(g, NULL));
    EXPECT_OK(oa_graph_validate(g));
    return ct_posts(host, buf, cap);
}

/*
 *   x ─▶ Conv2D ─▶ Relu ─▶ Clip(0,6) ─▶ LeakyRelu ─▶ Sigmoid ─▶ Tanh ─▶ out
 * The first four become post-ops (the chain holds 4); Tanh stays.
 */
static void fuse_activation_chain(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,2,3,3");
    oa_node *conv = ct_conv(g, "conv", x, ct_f32(g, "w", "2,2,1,1", 1, 0), NULL);
    oa_node *relu = tu_op1(g, OA_OP_RELU, "relu", 1, conv);
    oa_node *clip_in[3] = {relu, ct_f32(g, "lo", "", 0, 0), ct_f32(g, "hi", "", 6, 0)};
    oa_node *clip = tu_op(g, OA_OP_CLIP_BY_VALUE, "clip", 3, 1, clip_in);
    oa_node *lrelu = tu_op1(g, OA_OP_LEAKY_RELU, "lrelu", 1, clip);
    EXPECT_OK(oa_node_set_float(lrelu, "negative_slope", 0.1f));
    oa_node *sig = tu_op1(g, OA_OP_SIGMOID, "sig", 1, lrelu);
    oa_node *th = tu_op1(g, OA_OP_TANH, "tanh", 1, sig);
    (void)ct_out(g, &th, 1);
    char b[128];
    assert_string_equal(fused(g, conv, b, sizeof(b)), "Relu,Clip,LeakyRelu,Sigmoid");
    const float *al, *be;
    size_t na, nb;
    assert_true(oa_attrs_get_list_float(&conv->attrs, "_oa_post_alpha", &al, &na));
    assert_true(oa_attrs_get_list_float(&conv->attrs, "_oa_post_beta", &be, &nb));
    assert_int_equal(na, 4);
    assert_float_equal(al[1], 0.0f, 0);
    assert_float_equal(be[1], 6.0f, 0);
    assert_float_equal(al[2], 0.1f, 1e-7);
    assert_ptr_equal(oa_node_input_src(th, 0, NULL), conv);
    assert_int_equal(oa_graph_num_nodes(g), 5); /* x, w, conv, tanh, out */
    oa_graph_destroy(g);
}

/*
 * PP-OCR's HardSwish, with the opset-9 Clip expansion's same-type Cast:
 *
 *   y ─┬─▶ Add(3) ─▶ Cast(f32) ─▶ ClipByValue(0,6) ─┐
 *      └────────────────────────────────────────────▶ Mul ─▶ RealDiv(6) ─▶ out
 * and the x*HardSigmoid(x) spelling, Relu6 as the clip with *1/6, and SiLU
 * (x*Sigmoid(x) -> Swish).
 */
static void fuse_hardswish_patterns(void **state)
{
    (void)state;
    for (int variant = 0; variant < 4; variant++) {
        oa_graph *g = ct_graph();
        oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,2,3,3");
        oa_node *conv = ct_conv(g, "conv", x, ct_f32(g, "w", "2,2,1,1", 1, 0), NULL);
        oa_node *last;
        if (variant < 2) {
            oa_node *add = ct_bin(g, OA_OP_ADD, "add3", ct_f32(g, "three", "", 3, 0), conv);
            oa_node *clip;
            if (variant == 0) {
                oa_node *cast = tu_op1(g, OA_OP_CAST, "cast", 1, add);
                EXPECT_OK(oa_node_set_int(cast, "dst_type", OA_DT_FLOAT));
                oa_node *clip_in[3] = {cast, ct_f32(g, "lo", "", 0, 0), ct_f32(g, "hi", "", 6, 0)};
                clip = tu_op(g, OA_OP_CLIP_BY_VALUE, "clip", 3, 1, clip_in);
            } else {
                clip = tu_op1(g, OA_OP_RELU6, "relu6", 1, add);
            }
            oa_node *mul = ct_bin(g, OA_OP_MUL, "mul", conv, clip);
            last = variant == 0 ? ct_bin(g, OA_OP_REAL_DIV, "div6", mul, ct_f32(g, "six", "", 6, 0))
                                : ct_bin(g, OA_OP_MUL, "mul16", mul, ct_f32(g, "sixth", "1", 1.0f / 6.0f, 0));
        } else if (variant == 2) {
            oa_node *hs = tu_op1(g, OA_OP_HARD_SIGMOID, "hs", 1, conv);
            EXPECT_OK(oa_node_set_float(hs, "alpha", 0.2f));
            EXPECT_OK(oa_node_set_float(hs, "beta", 0.5f));
            last = ct_bin(g, OA_OP_MUL, "mul", hs, conv);
        } else { /* SiLU */
            last = ct_bin(g, OA_OP_MUL, "mul", conv, tu_op1(g, OA_OP_SIGMOID, "sig", 1, conv));
        }
        oa_node *neg = tu_op1(g, OA_OP_NEG, "after", 1, last);
        (void)ct_out(g, &neg, 1);
        char b[128];
        assert_string_equal(fused(g, conv, b, sizeof(b)),
                            variant < 2 ? "HardSwish" : (variant == 2 ? "MulHardSigmoid" : "Swish"));
        assert_ptr_equal(oa_node_input_src(neg, 0, NULL), conv);
        assert_int_equal(oa_graph_num_nodes(g), 5); /* x, w, conv, after, out */
        if (variant == 2) {
            const float *al;
            size_t na;
            assert_true(oa_attrs_get_list_float(&conv->attrs, "_oa_post_alpha", &al, &na));
            assert_float_equal(al[0], 0.2f, 1e-7);
        }
        oa_graph_destroy(g);
    }
}

/*
 * A pattern whose middle is read elsewhere, or with wrong constants, is
 * left alone:
 *   y ─┬─▶ Add(3) ─▶ Clip(0,6) ─┬─▶ Mul ─▶ Div(6) ─▶ out0
 *      └────────────────────────│─▶ ┘
 *                               └─▶ out1          (clip is a graph output)
 */
static void fuse_hardswish_refusals(void **state)
{
    (void)state;
    for (int variant = 0; variant < 2; variant++) {
        oa_graph *g = ct_graph();
        oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,2,3,3");
        oa_node *conv = ct_conv(g, "conv", x, ct_f32(g, "w", "2,2,1,1", 1, 0), NULL);
        oa_node *add = ct_bin(g, OA_OP_ADD, "add3", conv, ct_f32(g, "three", "", variant == 1 ? 2.0f : 3.0f, 0));
        oa_node *clip_in[3] = {add, ct_f32(g, "lo", "", 0, 0), ct_f32(g, "hi", "", 6, 0)};
        oa_node *clip = tu_op(g, OA_OP_CLIP_BY_VALUE, "clip", 3, 1, clip_in);
        oa_node *mul = ct_bin(g, OA_OP_MUL, "mul", conv, clip);
        oa_node *div = ct_bin(g, OA_OP_REAL_DIV, "div6", mul, ct_f32(g, "six", "", 6, 0));
        oa_node *outs[2] = {div, clip};
        (void)ct_out(g, outs, variant == 0 ? 2 : 1);
        char b[128];
        assert_string_equal(fused(g, conv, b, sizeof(b)), "");
        assert_int_equal(ct_count(g, OA_OP_MUL), 1);
        oa_graph_destroy(g);
    }
}

/*
 * BERT's Gelu on a MatMul, both spellings:
 *   form 1: Mul(Mul(h, 0.5), Add(Erf(h / sqrt2), 1))
 *   form 2: Mul(Mul(h, Add(Erf(h * 1/sqrt2), 1)), 0.5)
 */
static void fuse_gelu_erf(void **state)
{
    (void)state;
    for (int form = 1; form <= 2; form++) {
        oa_graph *g = ct_graph();
        oa_node *a = tu_data(g, "a", OA_DT_FLOAT, "1,4,8");
        oa_node *mm = ct_bin(g, OA_OP_BATCH_MAT_MUL_V2, "mm", a, ct_f32(g, "w", "8,16", 0, 0.01f));
        oa_node *d = form == 1 ? ct_bin(g, OA_OP_REAL_DIV, "div", mm, ct_f32(g, "sqrt2", "", 1.41421356f, 0))
                               : ct_bin(g, OA_OP_MUL, "div", mm, ct_f32(g, "isqrt2", "", 0.70710678f, 0));
        oa_node *erf = tu_op1(g, OA_OP_ERF, "erf", 1, d);
        oa_node *add = ct_bin(g, OA_OP_ADD, "add1", ct_f32(g, "one", "", 1, 0), erf);
        oa_node *last;
        if (form == 1) {
            oa_node *halfh = ct_bin(g, OA_OP_MUL, "halfh", mm, ct_f32(g, "half", "", 0.5f, 0));
            last = ct_bin(g, OA_OP_MUL, "gelu", halfh, add);
        } else {
            oa_node *hm = ct_bin(g, OA_OP_MUL, "hm", add, mm);
            last = ct_bin(g, OA_OP_MUL, "gelu", hm, ct_f32(g, "half", "", 0.5f, 0));
        }
        (void)ct_out(g, &last, 1);
        char b[64];
        assert_string_equal(fused(g, mm, b, sizeof(b)), "GeluErf");
        assert_ptr_equal(oa_node_input_src(oa_graph_output_node(g), 0, NULL), mm);
        oa_graph_destroy(g);
    }
}

/*
 * ResNet's residual block tail:
 *   x ─▶ conv_a ─▶ Add(·, x) ─▶ Relu ─▶ out
 * becomes conv_a with post-ops Add (operand x in the slot after the IR
 * inputs) then Relu. An Add of a differently shaped tensor is not a residual.
 */
static void fuse_residual_add(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,2,3,3");
    oa_node *conv = ct_conv(g, "conv_a", x, ct_f32(g, "w", "2,2,1,1", 1, 0), NULL);
    oa_node *add = ct_bin(g, OA_OP_ADD, "add", x, conv);
    oa_node *relu = tu_op1(g, OA_OP_RELU, "relu", 1, add);
    oa_node *small = tu_data(g, "small", OA_DT_FLOAT, "1,2,1,1");
    oa_node *conv2 = ct_conv(g, "conv_b", x, ct_f32(g, "w2", "2,2,1,1", 1, 0), NULL);
    oa_node *bcast = ct_bin(g, OA_OP_ADD, "bcast", conv2, small);
    oa_node *outs[2] = {relu, bcast};
    (void)ct_out(g, outs, 2);
    char b[64];
    assert_string_equal(fused(g, conv, b, sizeof(b)), "Add,Relu");
    assert_int_equal(oa_node_attr_int(conv, "_oa_post_input_base", -1), 4);
    assert_int_equal(conv->num_inputs, 5);
    assert_ptr_equal(oa_node_input_src(conv, 4, NULL), x);
    assert_string_equal(ct_posts(conv2, b, sizeof(b)), "");
    assert_non_null(oa_graph_find_node(g, "bcast"));
    /* The IR names of the fused nodes are kept for dumps. */
    const char *const *names;
    size_t nn;
    assert_true(oa_attrs_get_list_str(&conv->attrs, "_datadump_original_op_names", &names, &nn));
    assert_int_equal(nn, 3);
    /* Inference still accepts the fused node. */
    ct_infer(g);
    EXPECT_DESC(conv, 0, "f32[1,2,3,3]:NCHW");
    oa_graph_destroy(g);
}

/*
 * Dynamic batch and spatial dims (-1): per-channel rewrites need only the
 * channel count, so everything folds and fuses as with static shapes except
 * the residual Add (two -1 dims may differ at run time):
 *
 *   x[-1,2,-1,-1] ─▶ Conv2D ─▶ BatchNorm ─▶ Mul(c[1,3,1,1]) ─▶ Relu ─▶ Add ─▶ out
 *                                                    r[-1,3,-1,-1] ─┘
 * A MatMulV2 whose column count is unknown ([-1,4] x [4,-1]) folds nothing.
 */
static void dynamic_dims_fold_and_fuse(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "-1,2,-1,-1");
    oa_node *r = tu_data(g, "r", OA_DT_FLOAT, "-1,3,-1,-1");
    oa_node *conv = ct_conv(g, "conv", x, ct_f32(g, "w", "3,2,1,1", 1.0f, 1.0f), ct_f32(g, "b", "3", 0.5f, 0.5f));
    oa_node *bn_in[5] = {conv, ct_f32(g, "scale", "3", 2, 1), ct_f32(g, "offset", "3", 1, 0),
                         ct_f32(g, "mean", "3", 0.25f, 0), ct_f32(g, "var", "3", 3, 1)};
    oa_node *bn = tu_op(g, OA_OP_BATCH_NORM, "bn", 5, 6, bn_in);
    EXPECT_OK(oa_node_set_float(bn, "epsilon", 1.0f));
    oa_node *mul = ct_bin(g, OA_OP_MUL, "mul", bn, ct_f32(g, "c", "1,3,1,1", 1, 1));
    oa_node *relu = tu_op1(g, OA_OP_RELU, "relu", 1, mul);
    oa_node *add = ct_bin(g, OA_OP_ADD, "add", relu, r);
    (void)ct_out(g, &add, 1);
    ct_infer(g);
    EXPECT_DESC(conv, 0, "f32[-1,3,-1,-1]:NCHW");
    size_t changed = 0;
    EXPECT_OK(oa_pass_fold_batchnorm(g, &changed));
    assert_int_equal(changed, 1);
    changed = 0;
    EXPECT_OK(oa_pass_fold_affine(g, &changed));
    assert_int_equal(changed, 1);
    assert_int_equal(ct_count(g, OA_OP_BATCH_NORM) + ct_count(g, OA_OP_MUL), 0);
    const float *nw = ct_input_f32(conv, 1), *nb = ct_input_f32(conv, 2);
    for (int o = 0; o < 3; o++) {
        float s = (2.0f + (float)o) / sqrtf(3.0f + (float)o + 1.0f), c = 1.0f + (float)o;
        for (int i = 0; i < 2; i++) {
            assert_float_equal(nw[o * 2 + i], (1.0f + (float)(o * 2 + i)) * s * c, 1e-5);
        }
        assert_float_equal(nb[o], ((0.5f + 0.5f * (float)o - 0.25f) * s + 1.0f) * c, 1e-5);
    }
    char b[64];
    assert_string_equal(fused(g, conv, b, sizeof(b)), "Relu");
    assert_ptr_equal(oa_node_input_src(add, 0, NULL), conv);
    ct_infer(g);
    EXPECT_DESC(add, 0, "f32[-1,3,-1,-1]");
    oa_graph_destroy(g);

    g = ct_graph();
    oa_node *mm_in[2] = {tu_data(g, "a", OA_DT_FLOAT, "-1,4"), tu_data(g, "w", OA_DT_FLOAT, "4,-1")};
    oa_node *mm = tu_opn(g, OA_OP_MAT_MUL_V2, "mm", 3, 1, mm_in, 2);
    oa_node *madd = ct_bin(g, OA_OP_ADD, "add", mm, ct_f32(g, "k", "", 1, 0));
    (void)ct_out(g, &madd, 1);
    ct_infer(g);
    changed = 0;
    EXPECT_OK(oa_pass_fold_affine(g, &changed));
    assert_int_equal(changed, 0);
    assert_int_equal(ct_count(g, OA_OP_ADD), 1);
    oa_graph_destroy(g);
}

/*
 * Layout: a conv chain runs blocked, with TransData only at its edges:
 *
 *   x ─▶ conv ─▶ relu ─▶ pool ─▶ [TransData] ─▶ softmax ─▶ out
 *                          └───▶ [same TransData] ─▶ out (graph output)
 * The first conv reads x plain and writes blocked (out_nchwc); a chain
 * without a conv (relu2 on a Data) stays plain.
 */
/* A new graph whose NCHW input x (xshape) feeds a 1x1 conv with weights of wshape; *xout gets x. */
static oa_node *conv_on_nchw_input(oa_graph **g, const char *xshape, const char *wshape, oa_node **xout)
{
    *g = ct_graph();
    oa_node *x = tu_data(*g, "x", OA_DT_FLOAT, xshape);
    x->outputs[0].desc.format = OA_FORMAT_NCHW;
    if (xout != NULL) {
        *xout = x;
    }
    return ct_conv(*g, "conv", x, ct_f32(*g, "w", wshape, 0, 0.01f), NULL);
}

static void layout_nchwc(void **state)
{
    (void)state;
    oa_graph *g;
    oa_node *x;
    oa_node *conv = conv_on_nchw_input(&g, "1,20,4,4", "24,20,1,1", &x);
    oa_node *relu = tu_op1(g, OA_OP_RELU, "relu", 1, conv);
    oa_node *pool = tu_op1(g, OA_OP_MAX_POOL_V3, "pool", 1, relu);
    const int64_t k[4] = {1, 1, 2, 2}, p0[4] = {0, 0, 0, 0};
    EXPECT_OK(oa_node_set_list_int(pool, "ksize", k, 4));
    EXPECT_OK(oa_node_set_list_int(pool, "strides", k, 4));
    EXPECT_OK(oa_node_set_list_int(pool, "pads", p0, 4));
    EXPECT_OK(oa_node_set_str(pool, "data_format", "NCHW"));
    oa_node *sm = tu_op1(g, OA_OP_SOFTMAX_V2, "softmax", 1, pool);
    const int64_t ax = -1;
    EXPECT_OK(oa_node_set_list_int(sm, "axes", &ax, 1));
    oa_node *y = tu_data(g, "y", OA_DT_FLOAT, "1,3,2,2");
    oa_node *relu2 = tu_op1(g, OA_OP_RELU, "relu2", 1, y);
    oa_node *outs[3] = {sm, pool, relu2};
    (void)ct_out(g, outs, 3);
    ct_infer(g);
    EXPECT_DESC(pool, 0, "f32[1,24,2,2]");
    size_t changed = 0;
    EXPECT_OK(oa_pass_layout_nchwc(g, &changed));
    EXPECT_OK(oa_graph_validate(g));
    assert_int_equal(ct_count(g, OA_OP_TRANS_DATA), 1);
    char b[128];
    assert_string_equal(oa_desc_str(oa_node_output_desc(relu, 0), b, sizeof(b)), "f32[1,2,4,4,16]:NC1HWC0");
    const oa_tensor_desc *pd = oa_node_output_desc(pool, 0);
    assert_int_equal(pd->origin_format, OA_FORMAT_NCHW);
    assert_true(pd->origin_shape_set);
    assert_int_equal(pd->origin_shape.dims[1], 24);
    assert_ptr_equal(oa_node_input_src(conv, 0, NULL), x);
    assert_int_equal(oa_node_input_desc(conv, 0)->format, OA_FORMAT_NCHW);
    assert_int_equal(oa_node_output_desc(conv, 0)->format, OA_FORMAT_NC1HWC0);
    oa_node *back = oa_node_input_src(sm, 0, NULL);
    assert_int_equal(back->type, OA_OP_TRANS_DATA);
    assert_ptr_equal(oa_node_input_src(oa_graph_output_node(g), 1, NULL), back);
    EXPECT_DESC(back, 0, "f32[1,24,2,2]:NCHW");
    assert_string_equal(oa_desc_str(oa_node_output_desc(relu2, 0), b, sizeof(b)), "f32[1,3,2,2]");
    /* The weights stay plain. */
    assert_int_equal(oa_node_input_desc(conv, 1)->format, OA_FORMAT_NCHW);
    oa_graph_destroy(g);
}

/*
 * Layout: a Split along the channels inside a conv chain runs blocked when every output
 * but the last has a multiple of 16 channels (YOLO's C2f: conv ─▶ Split ─▶ conv / Concat):
 *
 *   x ─▶ conv(40) ─▶ SplitVD(16, 16, 8) ─┬─ out 0 ─▶ relu ─▶ [TransData] ─▶ out
 *                                        ├─ out 1 ─▶ [TransData] ─▶ softmax ─▶ out
 *                                        └─ out 2 ─▶ [TransData] ─▶ out
 * A split into 8 + 32 (an output not ending on a 16-channel boundary) stays plain:
 * the conv's output goes back to NCHW in front of it.
 */
static oa_node *split_vd(oa_graph *g, const char *name, oa_node *x, const int64_t *sizes, uint32_t n)
{
    oa_node *sp = tu_op1(g, OA_OP_SPLIT_V_D, name, n, x);
    EXPECT_OK(oa_node_set_int(sp, "split_dim", 1));
    EXPECT_OK(oa_node_set_int(sp, "num_split", n));
    EXPECT_OK(oa_node_set_list_int(sp, "size_splits", sizes, n));
    return sp;
}

static void layout_nchwc_split(void **state)
{
    (void)state;
    oa_graph *g;
    oa_node *conv = conv_on_nchw_input(&g, "1,3,4,4", "40,3,1,1", NULL);
    const int64_t sz[3] = {16, 16, 8};
    oa_node *sp = split_vd(g, "split", conv, sz, 3);
    oa_node *relu = tu_op1(g, OA_OP_RELU, "relu", 1, sp);
    oa_node *sm = tu_opn(g, OA_OP_SOFTMAX_V2, "softmax", 1, 1, NULL, 0);
    EXPECT_OK(oa_node_connect(sm, 0, sp, 1));
    const int64_t ax = -1;
    EXPECT_OK(oa_node_set_list_int(sm, "axes", &ax, 1));
    oa_node *out = tu_opn(g, OA_OP_NET_OUTPUT, "Node_Output", 3, 3, NULL, 0);
    EXPECT_OK(oa_node_connect(out, 0, relu, 0));
    EXPECT_OK(oa_node_connect(out, 1, sm, 0));
    EXPECT_OK(oa_node_connect(out, 2, sp, 2));
    ct_infer(g);
    EXPECT_DESC(sp, 2, "f32[1,8,4,4]");
    size_t changed = 0;
    EXPECT_OK(oa_pass_layout_nchwc(g, &changed));
    EXPECT_OK(oa_graph_validate(g));
    EXPECT_DESC(sp, 0, "f32[1,1,4,4,16]:NC1HWC0");
    EXPECT_DESC(sp, 1, "f32[1,1,4,4,16]:NC1HWC0");
    EXPECT_DESC(sp, 2, "f32[1,1,4,4,16]:NC1HWC0");
    assert_int_equal(oa_node_output_desc(sp, 2)->origin_shape.dims[1], 8);
    assert_ptr_equal(oa_node_input_src(sp, 0, NULL), conv); /* no TransData between conv and split */
    assert_ptr_equal(oa_node_input_src(relu, 0, NULL), sp);
    EXPECT_DESC(relu, 0, "f32[1,1,4,4,16]:NC1HWC0");
    assert_int_equal(ct_count(g, OA_OP_TRANS_DATA), 3); /* relu's, output 1's and output 2's way back */
    uint32_t si = 9;
    oa_node *back1 = oa_node_input_src(sm, 0, &si);
    assert_int_equal(back1->type, OA_OP_TRANS_DATA);
    assert_int_equal(si, 0);
    assert_ptr_equal(oa_node_input_src(back1, 0, &si), sp);
    assert_int_equal(si, 1);
    EXPECT_DESC(back1, 0, "f32[1,16,4,4]:NCHW");
    oa_node *back2 = oa_node_input_src(oa_graph_output_node(g), 2, NULL);
    assert_int_equal(back2->type, OA_OP_TRANS_DATA);
    EXPECT_DESC(back2, 0, "f32[1,8,4,4]:NCHW");
    oa_graph_destroy(g);

    /* 8 + 32: the first output ends inside a block, so the split stays plain */
    conv = conv_on_nchw_input(&g, "1,3,4,4", "40,3,1,1", NULL);
    const int64_t sz2[2] = {8, 32};
    sp = split_vd(g, "split", conv, sz2, 2);
    out = tu_opn(g, OA_OP_NET_OUTPUT, "Node_Output", 2, 2, NULL, 0);
    EXPECT_OK(oa_node_connect(out, 0, sp, 0));
    EXPECT_OK(oa_node_connect(out, 1, sp, 1));
    ct_infer(g);
    EXPECT_OK(oa_pass_layout_nchwc(g, &changed));
    EXPECT_OK(oa_graph_validate(g));
    EXPECT_DESC(sp, 0, "f32[1,8,4,4]");
    assert_int_equal(oa_node_input_src(sp, 0, NULL)->type, OA_OP_TRANS_DATA);
    oa_graph_destroy(g);
}

/*
 * Layout: a detection head's way back to NCHW folds into its channels-last Transpose:
 *
 *   x ─▶ conv(30) ─▶ [TransData] ─▶ Reshape [1,3,10,4,5] ─▶ Transpose(0,1,3,4,2) ─▶ Sigmoid ─▶ out
 * becomes  x ─▶ conv ─▶ Transpose (_oa_blocked_groups 3, post-op Sigmoid) ─▶ out, and without the
 * Reshape, Transpose(0,2,3,1) ─▶ Relu folds the same way with groups 0. A Reshape that is also a
 * graph output keeps the TransData.
 */
static oa_node *head_of(oa_graph *g, oa_node *conv, bool grouped, oa_op_type act, oa_node **view)
{
    const int64_t shape[5] = {1, 3, 10, 4, 5}, p5[5] = {0, 1, 3, 4, 2}, p4[4] = {0, 2, 3, 1};
    oa_node *src = conv;
    if (grouped) {
        oa_node *rs_in[2] = {conv, tu_i64(g, "shape", "5", shape)};
        src = tu_op(g, OA_OP_RESHAPE, "rs", 2, 1, rs_in);
    }
    *view = src;
    oa_node *tr_in[2] = {src, grouped ? tu_i64(g, "perm", "5", p5) : tu_i64(g, "perm", "4", p4)};
    oa_node *tr = tu_op(g, OA_OP_TRANSPOSE, "tr", 2, 1, tr_in);
    return tu_op1(g, act, "act", 1, tr);
}

static void layout_channels_last_head(void **state)
{
    (void)state;
    for (int grouped = 0; grouped < 2; grouped++) {
        oa_graph *g;
        oa_node *conv = conv_on_nchw_input(&g, "1,3,4,5", "30,3,1,1", NULL), *view;
        oa_node *act = head_of(g, conv, grouped, grouped ? OA_OP_SIGMOID : OA_OP_RELU, &view);
        (void)ct_out(g, &act, 1);
        ct_infer(g);
        size_t changed = 0;
        EXPECT_OK(oa_pass_layout_nchwc(g, &changed));
        EXPECT_OK(oa_graph_validate(g));
        assert_int_equal(ct_count(g, OA_OP_TRANS_DATA), 0);
        assert_int_equal(ct_count(g, OA_OP_RESHAPE), 0);
        assert_int_equal(ct_count(g, OA_OP_SIGMOID) + ct_count(g, OA_OP_RELU), 0);
        oa_node *tr = oa_node_input_src(oa_graph_output_node(g), 0, NULL);
        assert_int_equal(tr->type, OA_OP_TRANSPOSE);
        assert_ptr_equal(oa_node_input_src(tr, 0, NULL), conv);
        assert_int_equal(oa_node_input_desc(tr, 0)->format, OA_FORMAT_NC1HWC0);
        assert_int_equal(oa_node_attr_int(tr, "_oa_blocked_groups", -1), grouped ? 3 : 0);
        char b[64];
        assert_string_equal(ct_posts(tr, b, sizeof b), grouped ? "Sigmoid" : "Relu");
        EXPECT_DESC(tr, 0, grouped ? "f32[1,3,4,5,10]" : "f32[1,4,5,30]");
        oa_graph_destroy(g);
    }
    /* the Reshape is also a graph output: the TransData stays, so does the Transpose's plain input */
    oa_graph *g;
    oa_node *conv = conv_on_nchw_input(&g, "1,3,4,5", "30,3,1,1", NULL), *view;
    oa_node *outs[2] = {head_of(g, conv, true, OA_OP_SIGMOID, &view), view};
    (void)ct_out(g, outs, 2);
    ct_infer(g);
    size_t changed = 0;
    EXPECT_OK(oa_pass_layout_nchwc(g, &changed));
    assert_int_equal(ct_count(g, OA_OP_TRANS_DATA), 1);
    assert_int_equal(ct_count(g, OA_OP_SIGMOID), 1);
    assert_ptr_equal(oa_node_input_src(view, 0, NULL)->type == OA_OP_TRANS_DATA, true);
    oa_graph_destroy(g);
}

/*
 * The pre-opset-17 LayerNorm decomposition over the last axis:
 *
 *   x[2,4,8] ─┬─▶ ReduceMean(-1) ─▶ Sub(x, ·) ─┬─▶ Pow(2) ─▶ ReduceMean(-1) ─▶ Add(eps) ─▶ Sqrt ─┐
 *             └────────────────────────────────┘ └─────────────────────────────────────────▶ RealDiv ─▶ Mul(g) ─▶ Add(b) ─▶ out
 * becomes LayerNorm(x, g, b) named like the final Add; without Mul/Add the
 * parameters are ones and zeros. BroadcastTo in front of gamma is dropped.
 */
static oa_node *reduce_mean(oa_graph *g, const char *name, oa_node *x)
{
    const int32_t ax = -1;
    oa_node *in[2] = {x, tu_const(g, oa_graph_unique_name(g, "axes"), OA_DT_INT32, "1", &ax)};
    oa_node *r = tu_op(g, OA_OP_REDUCE_MEAN, name, 2, 1, in);
    EXPECT_OK(oa_node_set_bool(r, "keep_dims", true));
    return r;
}

static void layernorm_recomposition(void **state)
{
    (void)state;
    for (int affine = 0; affine < 2; affine++) {
        oa_graph *g = ct_graph();
        oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "2,4,8");
        oa_node *m1 = reduce_mean(g, "mean", x);
        oa_node *d = ct_bin(g, OA_OP_SUB, "sub", x, m1);
        oa_node *p = ct_bin(g, OA_OP_POW, "pow", d, ct_f32(g, "two", "", 2, 0));
        oa_node *m2 = reduce_mean(g, "var", p);
        oa_node *a = ct_bin(g, OA_OP_ADD, "add_eps", m2, ct_f32(g, "eps", "", 1e-5f, 0));
        oa_node *sq = tu_op1(g, OA_OP_SQRT, "sqrt", 1, a);
        oa_node *dv = ct_bin(g, OA_OP_REAL_DIV, "div", d, sq);
        oa_node *last = dv;
        if (affine) {
            oa_node *mul = ct_bin(g, OA_OP_MUL, "mul_g", dv, ct_f32(g, "gamma", "8", 1, 0.5f));
            last = ct_bin(g, OA_OP_ADD, "add_b", ct_f32(g, "beta", "8", 0, 0.25f), mul);
        }
        oa_node *outs[2] = {last, x};
        (void)ct_out(g, outs, 2);
        ct_infer(g);
        size_t changed = 0;
        EXPECT_OK(oa_pass_fuse_layernorm(g, &changed));
        assert_int_equal(changed, 1);
        EXPECT_OK(oa_graph_validate(g));
        oa_node *ln = oa_node_input_src(oa_graph_output_node(g), 0, NULL);
        assert_int_equal(ln->type, OA_OP_LAYER_NORM);
        assert_string_equal(ln->name, affine ? "add_b" : "div");
        assert_int_equal(oa_node_attr_int(ln, "begin_norm_axis", 0), -1);
        assert_float_equal(oa_node_attr_float(ln, "epsilon", 0), 1e-5f, 1e-12);
        const float *gamma = ct_input_f32(ln, 1), *beta = ct_input_f32(ln, 2);
        assert_float_equal(gamma[2], affine ? 2.0f : 1.0f, 1e-7);
        assert_float_equal(beta[4], affine ? 1.0f : 0.0f, 1e-7);
        assert_int_equal(ct_count(g, OA_OP_REDUCE_MEAN) + ct_count(g, OA_OP_SQRT) + ct_count(g, OA_OP_SUB), 0);
        ct_infer(g);
        EXPECT_DESC(ln, 0, "f32[2,4,8]");
        oa_graph_destroy(g);
    }
    /* A decomposition whose mean is also an output stays. */
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "2,8");
    oa_node *m1 = reduce_mean(g, "mean", x);
    oa_node *d = ct_bin(g, OA_OP_SUB, "sub", x, m1);
    oa_node *p = ct_bin(g, OA_OP_MUL, "sq", d, d);
    oa_node *m2 = reduce_mean(g, "var", p);
    oa_node *a = ct_bin(g, OA_OP_ADD, "add_eps", ct_f32(g, "eps", "1", 1e-5f, 0), m2);
    oa_node *sq = tu_op1(g, OA_OP_SQRT, "sqrt", 1, a);
    oa_node *dv = ct_bin(g, OA_OP_REAL_DIV, "div", d, sq);
    oa_node *outs[2] = {dv, m1};
    (void)ct_out(g, outs, 2);
    ct_infer(g);
    size_t changed = 0;
    EXPECT_OK(oa_pass_fuse_layernorm(g, &changed));
    assert_int_equal(changed, 0);
    oa_graph_destroy(g);
    /* LayerNorm(x, BroadcastTo(Identity(gamma), Shape(x)), beta) -> LayerNorm(x, gamma, beta). */
    g = ct_graph();
    x = tu_data(g, "x", OA_DT_FLOAT, "2,4,8");
    oa_node *gc = ct_f32(g, "gamma", "8", 1, 0);
    oa_node *gid = tu_op1(g, OA_OP_IDENTITY, "gamma_id", 1, gc);
    const int64_t shp[3] = {2, 4, 8};
    oa_node *bt_in[2] = {gid, tu_i64(g, "shape", "3", shp)};
    oa_node *bt = tu_op(g, OA_OP_BROADCAST_TO, "bt", 2, 1, bt_in);
    oa_node *ln_in[3] = {x, bt, ct_f32(g, "beta", "8", 0, 0)};
    oa_node *ln = tu_op(g, OA_OP_LAYER_NORM, "ln", 3, 3, ln_in);
    EXPECT_OK(oa_node_set_int(ln, "begin_norm_axis", -1));
    (void)ct_out(g, &ln, 1);
    ct_infer(g);
    changed = 0;
    EXPECT_OK(oa_pass_fuse_layernorm(g, &changed));
    assert_int_equal(changed, 1);
    assert_string_equal(oa_node_input_src(ln, 1, NULL)->name, "gamma");
    assert_null(oa_graph_find_node(g, "bt"));
    oa_graph_destroy(g);
}

/*
 * Known selectors inline the branch they take:
 *
 *   c(Const true) ─┐                 then: x ─▶ Relu ─▶ inner If(c2) ─▶ out
 *   x ─────────────┴─▶ If ─▶ Neg ─▶  else: x ─▶ Abs ─▶ out
 *   c2 (Data) ─────────┘
 * becomes x ─▶ Relu ─▶ If(c2){...copied...} ─▶ Neg; a Case with a constant
 * index out of range takes its last branch.
 */
static oa_graph *branch(oa_node *owner, const char *ir, const char *name, oa_op_type op, int nested)
{
    oa_graph *sg;
    EXPECT_OK(oa_graph_create_subgraph(owner, ir, name, &sg));
    char nm[128];
    snprintf(nm, sizeof(nm), "%s/x", name);
    oa_node *d = tu_data(sg, nm, OA_DT_FLOAT, "4");
    EXPECT_OK(oa_node_set_int(d, "_parent_node_index", 1));
    snprintf(nm, sizeof(nm), "%s/op", name);
    oa_node *last = tu_op1(sg, op, nm, 1, d);
    if (nested) {
        snprintf(nm, sizeof(nm), "%s/c2", name);
        oa_node *c2 = tu_data(sg, nm, OA_DT_BOOL, "");
        EXPECT_OK(oa_node_set_int(c2, "_parent_node_index", 2));
        oa_node *in[2] = {c2, last};
        snprintf(nm, sizeof(nm), "%s/inner", name);
        oa_node *inner = tu_op(sg, OA_OP_IF, nm, 2, 1, in);
        snprintf(nm, sizeof(nm), "%s_in_t", name);
        (void)branch(inner, "then_branch", nm, OA_OP_SIGMOID, 0);
        snprintf(nm, sizeof(nm), "%s_in_e", name);
        (void)branch(inner, "else_branch", nm, OA_OP_TANH, 0);
        last = inner;
    }
    snprintf(nm, sizeof(nm), "%s/out", name);
    (void)tu_op(sg, OA_OP_NET_OUTPUT, nm, 1, 1, &last);
    return sg;
}

static void inline_known_branches(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    const uint8_t yes = 1;
    oa_node *c = tu_const(g, "c", OA_DT_BOOL, "", &yes);
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "4");
    oa_node *c2 = tu_data(g, "c2", OA_DT_BOOL, "");
    oa_node *in[3] = {c, x, c2};
    oa_node *ifn = tu_op(g, OA_OP_IF, "if", 3, 1, in);
    (void)branch(ifn, "then_branch", "tb", OA_OP_RELU, 1);
    (void)branch(ifn, "else_branch", "eb", OA_OP_ABS, 0);
    oa_node *neg = tu_op1(g, OA_OP_NEG, "neg", 1, ifn);
    const int32_t seven = 7;
    oa_node *cs_in[2] = {tu_const(g, "idx", OA_DT_INT32, "", &seven), x};
    oa_node *cs = tu_op(g, OA_OP_CASE, "case", 2, 1, cs_in);
    (void)branch(cs, "branches", "b0", OA_OP_EXP, 0);
    (void)branch(cs, "branches", "b1", OA_OP_SQRT, 0);
    oa_node *outs[2] = {neg, cs};
    (void)ct_out(g, outs, 2);
    ct_infer(g);
    size_t changed = 0;
    EXPECT_OK(oa_pass_inline_known_branches(g, &changed));
    assert_int_equal(changed, 2);
    EXPECT_OK(oa_pass_dce(g, NULL));
    EXPECT_OK(oa_graph_validate(g));
    ct_infer(g);
    assert_int_equal(ct_count(g, OA_OP_IF), 1); /* the inner one: its condition is a runtime input */
    oa_node *relu = oa_graph_find_node(g, "tb/op");
    assert_non_null(relu);
    assert_ptr_equal(oa_node_input_src(relu, 0, NULL), x);
    oa_node *inner = oa_graph_find_node(g, "tb/inner");
    assert_ptr_equal(oa_node_input_src(inner, 0, NULL), c2);
    assert_ptr_equal(oa_node_input_src(neg, 0, NULL), inner);
    char sub[64];
    snprintf(sub, sizeof(sub), "tb_in_t_inl%u", ifn->id);
    assert_non_null(oa_graph_find_subgraph(g, sub));
    assert_ptr_equal(oa_graph_parent_node(oa_graph_find_subgraph(g, sub)), inner);
    oa_node *sq = oa_graph_find_node(g, "b1/op");
    assert_non_null(sq);
    assert_ptr_equal(oa_node_input_src(oa_graph_output_node(g), 1, NULL), sq);
    EXPECT_DESC(neg, 0, "f32[4]");
    oa_graph_destroy(g);
}

/* Static vs dynamic. */
static void classification(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "-1,3");
    oa_node *r = tu_op1(g, OA_OP_RELU, "relu", 1, x);
    (void)ct_out(g, &r, 1);
    ct_infer(g);
    const oa_node *first = NULL;
    assert_int_equal(oa_pass_classify(g, &first), OA_SHAPES_DYNAMIC);
    assert_ptr_equal(first, x);
    EXPECT_OK(oa_graph_set_input_shapes(g, "x:2,3"));
    ct_infer(g);
    assert_int_equal(oa_pass_classify(g, &first), OA_SHAPES_STATIC);
    assert_null(first);
    oa_graph_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(identity_removal),
        cmocka_unit_test(identity_removal_keeps_real_ops),
        cmocka_unit_test(dead_code),
        cmocka_unit_test(constant_folding),
        cmocka_unit_test(constant_folding_dtypes),
        cmocka_unit_test(constant_folding_with_kernels),
        cmocka_unit_test(inline_known_branches),
        cmocka_unit_test(batchnorm_folding),
        cmocka_unit_test(batchnorm_folding_refusals),
        cmocka_unit_test(batchnorm_folding_transpose_groups),
        cmocka_unit_test(affine_folding_conv),
        cmocka_unit_test(affine_folding_refusals),
        cmocka_unit_test(affine_folding_matmul),
        cmocka_unit_test(input_affine_folding),
        cmocka_unit_test(fuse_activation_chain),
        cmocka_unit_test(fuse_hardswish_patterns),
        cmocka_unit_test(fuse_hardswish_refusals),
        cmocka_unit_test(fuse_gelu_erf),
        cmocka_unit_test(fuse_residual_add),
        cmocka_unit_test(dynamic_dims_fold_and_fuse),
        cmocka_unit_test(layernorm_recomposition),
        cmocka_unit_test(layout_nchwc),
        cmocka_unit_test(layout_nchwc_split),
        cmocka_unit_test(layout_channels_last_head),
        cmocka_unit_test(classification),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * op_bind: IR nodes of small graphs bound to kernels and run, against naive
 * references; the compiler's encodings (post-ops, NC1HWC0 + TransData,
 * out_nchwc); synthesized constants; and the refusals with their messages.
 */
#include <math.h>

#include "../graph/graph_test_util.h"
#include "op_bind/op_bind.h"

/* ---- helpers ---- */

static float frand(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (float)((*s >> 8) & 0xFFFF) / 65536.0f - 0.5f;
}

static void fill(float *v, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) {
        v[i] = frand(&seed);
    }
}

static void expect_close(const float *a, const float *b, size_t n, float tol)
{
    for (size_t i = 0; i < n; i++) {
        if (fabsf(a[i] - b[i]) > tol * (1.0f + fabsf(b[i]))) {
            print_error("element %zu: got %g, want %g\n", i, (double)a[i], (double)b[i]);
            fail();
        }
    }
}

/* Binds n, creates the kop and runs it with act[i] for ACT inputs (in kernel order) and outs. */
static void run_node(const oa_node *n, const void *const *acts, void *const *outs)
{
    oa_op_bind *b = NULL;
    EXPECT_OK(oa_op_bind_node(n, NULL, &b));
    oa_kop *op = NULL;
    EXPECT_OK(oa_op_bind_create(b, &op));
    const void *in[16] = {0};
    int a = 0;
    for (int i = 0; i < b->n_in; i++) {
        in[i] = b->src[i].kind == OA_BIND_ACT ? acts[a++] : b->in[i].data;
    }
    void *ws = NULL;
    const size_t wsz = oa_kop_workspace_size(op);
    if (wsz > 0) {
        ws = aligned_alloc(64, (wsz + 63) & ~(size_t)63);
    }
    EXPECT_OK(oa_kop_run(op, in, outs, ws, NULL));
    free(ws);
    oa_kop_destroy(op);
    oa_op_bind_destroy(b);
}

/* Naive NCHW conv, pads 1, stride 1, 3x3, bias, then relu(y) + r. */
static void ref_conv(const float *x, const float *w, const float *bias, const float *r, int cin, int cout, int h,
                     int wd, float *y)
{
    for (int o = 0; o < cout; o++) {
        for (int i = 0; i < h; i++) {
            for (int j = 0; j < wd; j++) {
                float acc = bias[o];
                for (int c = 0; c < cin; c++) {
                    for (int ki = 0; ki < 3; ki++) {
                        for (int kj = 0; kj < 3; kj++) {
                            int ii = i + ki - 1, jj = j + kj - 1;
                            if (ii >= 0 && ii < h && jj >= 0 && jj < wd) {
                                acc += x[(c * h + ii) * wd + jj] * w[((o * cin + c) * 3 + ki) * 3 + kj];
                            }
                        }
                    }
                }
                acc = acc > 0 ? acc : 0;
                y[(o * h + i) * wd + j] = acc + (r ? r[(o * h + i) * wd + j] : 0.0f);
            }
        }
    }
}

static oa_node *conv_node(oa_graph *g, oa_node *x, const float *w, const float *bias, oa_node *res)
{
    oa_node *kw = tu_const(g, "w", OA_DT_FLOAT, "4,3,3,3", w);
    oa_node *kb = tu_const(g, "b", OA_DT_FLOAT, "4", bias);
    oa_node *srcs[4] = {x, kw, kb, NULL};
    oa_node *conv = tu_opn(g, OA_OP_CONV2D, "conv", 4, 1, srcs, 4);
    const int64_t s[4] = {1, 1, 1, 1}, p[4] = {1, 1, 1, 1};
    EXPECT_OK(oa_node_set_list_int(conv, "strides", s, 4));
    EXPECT_OK(oa_node_set_list_int(conv, "dilations", s, 4));
    EXPECT_OK(oa_node_set_list_int(conv, "pads", p, 4));
    EXPECT_OK(oa_node_set_int(conv, "groups", 1));
    EXPECT_OK(oa_node_set_str(conv, "data_format", "NCHW"));
    if (res != NULL) {
        const char *ops[2] = {"Relu", "Add"};
        const float z[2] = {0, 0};
        EXPECT_OK(oa_node_set_list_str(conv, "_oa_post_ops", ops, 2));
        EXPECT_OK(oa_node_set_list_float(conv, "_oa_post_alpha", z, 2));
        EXPECT_OK(oa_node_set_list_float(conv, "_oa_post_beta", z, 2));
        EXPECT_OK(oa_node_set_int(conv, "_oa_post_input_base", 4));
        EXPECT_OK(oa_node_set_num_inputs(conv, 5));
        EXPECT_OK(oa_node_connect(conv, 4, res, 0));
    } else {
        const char *ops[1] = {"Relu"};
        EXPECT_OK(oa_node_set_list_str(conv, "_oa_post_ops", ops, 1));
    }
    return conv;
}

/* ---- tests ---- */

static void conv_post_ops_and_residual(void **state)
{
    (void)state;
    oa_graph *g;
    EXPECT_OK(oa_graph_create("g", &g));
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,3,5,5");
    oa_node *r = tu_data(g, "r", OA_DT_FLOAT, "1,4,5,5");
    float w[108], bias[4], xv[75], rv[100], y[100], want[100];
    fill(w, 108, 1);
    fill(bias, 4, 2);
    fill(xv, 75, 3);
    fill(rv, 100, 4);
    oa_node *conv = conv_node(g, x, w, bias, r);
    oa_node *out;
    EXPECT_OK(oa_graph_add_net_output(g, "out", 1, &out));
    EXPECT_OK(oa_node_connect(out, 0, conv, 0));
    EXPECT_OK(oa_graph_infer(g));

    oa_op_bind *b = NULL;
    EXPECT_OK(oa_op_bind_node(conv, NULL, &b));
    assert_int_equal(b->type, OA_KOP_CONV2D);
    assert_int_equal(b->n_in, 4); /* x, filter, bias, residual */
    assert_int_equal(b->src[0].kind, OA_BIND_ACT);
    assert_int_equal(b->src[1].kind, OA_BIND_CONST);
    assert_int_equal(b->src[3].kind, OA_BIND_ACT);
    assert_int_equal(b->src[3].slot, 4);
    assert_int_equal(b->params.conv.post.n, 2);
    assert_int_equal(b->params.conv.post.ops[1].kind, OA_KPOST_ADD);
    assert_false(b->params.conv.out_nchwc);
    oa_op_bind_destroy(b);

    const void *acts[2] = {xv, rv};
    void *outs[1] = {y};
    run_node(conv, acts, outs);
    ref_conv(xv, w, bias, rv, 3, 4, 5, 5, want);
    expect_close(y, want, 100, 1e-4f);
    oa_graph_destroy(g);
}

/* The compiler's blocked chain: conv x NCHW -> y NC1HWC0 (out_nchwc), TransData back to NCHW. */
static void conv_nchwc_chain(void **state)
{
    (void)state;
    oa_graph *g;
    EXPECT_OK(oa_graph_create("g", &g));
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,3,5,5");
    float w[108], bias[4], xv[75], want[100], y[100];
    fill(w, 108, 5);
    fill(bias, 4, 6);
    fill(xv, 75, 7);
    oa_node *conv = conv_node(g, x, w, bias, NULL);
    EXPECT_OK(oa_graph_infer(g));
    oa_node *td = NULL;
    EXPECT_OK(oa_graph_add_node_typed(g, "TransData", "td", 1, 1, &td));
    EXPECT_OK(oa_node_connect(td, 0, conv, 0));
    EXPECT_OK(oa_node_set_str(td, "src_format", "NC1HWC0"));
    EXPECT_OK(oa_node_set_str(td, "dst_format", "NCHW"));
    /* descs as the layout pass writes them */
    oa_tensor_desc *yd = oa_node_output_desc(conv, 0);
    const oa_shape origin = tu_shape("1,4,5,5");
    yd->dtype = OA_DT_FLOAT;
    yd->format = OA_FORMAT_NC1HWC0;
    yd->shape = tu_shape("1,1,5,5,16");
    yd->origin_shape = origin;
    yd->origin_shape_set = true;
    oa_tensor_desc *tdd = oa_node_output_desc(td, 0);
    oa_desc_set(tdd, OA_DT_FLOAT, &origin);
    tdd->format = OA_FORMAT_NCHW;

    oa_op_bind *b = NULL;
    EXPECT_OK(oa_op_bind_node(conv, NULL, &b));
    assert_true(b->params.conv.out_nchwc);
    assert_int_equal(b->out[0].layout, OA_KLAYOUT_NCHWC);
    assert_int_equal(b->out[0].dims[1], 4);
    oa_op_bind_destroy(b);
    EXPECT_OK(oa_op_bind_node(td, NULL, &b));
    assert_int_equal(b->type, OA_KOP_REORDER);
    assert_int_equal(b->in[0].layout, OA_KLAYOUT_NCHWC);
    oa_op_bind_destroy(b);

    float *blk = aligned_alloc(64, 1 * 16 * 25 * sizeof(float));
    const void *a1[1] = {xv};
    void *o1[1] = {blk};
    run_node(conv, a1, o1);
    const void *a2[1] = {blk};
    void *o2[1] = {y};
    run_node(td, a2, o2);
    ref_conv(xv, w, bias, NULL, 3, 4, 5, 5, want);
    expect_close(y, want, 100, 1e-4f);
    free(blk);
    oa_graph_destroy(g);
}

static void matmul_gelu_and_muls(void **state)
{
    (void)state;
    oa_graph *g;
    EXPECT_OK(oa_graph_create("g", &g));
    oa_node *a = tu_data(g, "a", OA_DT_FLOAT, "2,3");
    float bw[12], bias[4], av[6], y[8], want[8];
    fill(bw, 12, 8);
    fill(bias, 4, 9);
    fill(av, 6, 10);
    oa_node *kb = tu_const(g, "b", OA_DT_FLOAT, "3,4", bw);
    oa_node *kc = tu_const(g, "c", OA_DT_FLOAT, "4", bias);
    oa_node *srcs[3] = {a, kb, kc};
    oa_node *mm = tu_opn(g, OA_OP_MAT_MUL_V2, "mm", 4, 1, srcs, 3);
    const char *ops[1] = {"GeluErf"};
    EXPECT_OK(oa_node_set_list_str(mm, "_oa_post_ops", ops, 1));
    oa_node *muls = tu_op1(g, OA_OP_MULS, "muls", 1, mm);
    EXPECT_OK(oa_node_set_float(muls, "value", 3.0f));
    oa_node *out;
    EXPECT_OK(oa_graph_add_net_output(g, "out", 1, &out));
    EXPECT_OK(oa_node_connect(out, 0, muls, 0));
    EXPECT_OK(oa_graph_infer(g));

    float mid[8];
    const void *a1[1] = {av};
    void *o1[1] = {mid};
    run_node(mm, a1, o1);
    oa_op_bind *b = NULL;
    EXPECT_OK(oa_op_bind_node(muls, NULL, &b));
    assert_int_equal(b->type, OA_KOP_BINARY);
    assert_true(b->src[1].synthesized);
    oa_op_bind_destroy(b);
    const void *a2[1] = {mid};
    void *o2[1] = {y};
    run_node(muls, a2, o2);
    for (int i = 0; i < 2; i++) {
        for (int j = 0; j < 4; j++) {
            float acc = bias[j];
            for (int k = 0; k < 3; k++) {
                acc += av[i * 3 + k] * bw[k * 4 + j];
            }
            want[i * 4 + j] = 3.0f * 0.5f * acc * (1.0f + erff(acc / sqrtf(2.0f)));
        }
    }
    expect_close(y, want, 8, 1e-4f);
    oa_graph_destroy(g);
}

static void split_and_resize(void **state)
{
    (void)state;
    oa_graph *g;
    EXPECT_OK(oa_graph_create("g", &g));
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,2,2,2");
    const int64_t sizes[2] = {1, 1};
    const int32_t dim = 1;
    oa_node *ks = tu_i64(g, "sizes", "2", sizes);
    oa_node *kd = tu_const(g, "dim", OA_DT_INT32, "", &dim);
    oa_node *srcs[3] = {x, ks, kd};
    oa_node *sp = tu_opn(g, OA_OP_SPLIT_V, "split", 3, 2, srcs, 3);
    EXPECT_OK(oa_node_set_int(sp, "num_split", 2));
    const int32_t hw[2] = {4, 4};
    oa_node *khw = tu_const(g, "hw", OA_DT_INT32, "2", hw);
    oa_node *rs_src[2] = {sp, khw};
    oa_node *rs = tu_opn(g, OA_OP_RESIZE_NEAREST_NEIGHBOR_V2, "resize", 2, 1, rs_src, 2);
    EXPECT_OK(oa_node_set_bool(rs, "align_corners", false));
    EXPECT_OK(oa_node_set_bool(rs, "half_pixel_centers", false));
    oa_node *out;
    EXPECT_OK(oa_graph_add_net_output(g, "out", 2, &out));
    EXPECT_OK(oa_node_connect(out, 0, rs, 0));
    EXPECT_OK(oa_node_connect(out, 1, sp, 1));
    EXPECT_OK(oa_graph_infer(g));

    const float xv[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    float y0[4], y1[4], up[16];
    const void *a1[1] = {xv};
    void *o1[2] = {y0, y1};
    run_node(sp, a1, o1);
    const float w0[4] = {1, 2, 3, 4}, w1[4] = {5, 6, 7, 8};
    expect_close(y0, w0, 4, 0);
    expect_close(y1, w1, 4, 0);
    const void *a2[1] = {y0};
    void *o2[1] = {up};
    run_node(rs, a2, o2);
    const float wu[16] = {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4};
    expect_close(up, wu, 16, 0);
    oa_graph_destroy(g);
}

static void refusals_name_the_node(void **state)
{
    (void)state;
    oa_graph *g;
    EXPECT_OK(oa_graph_create("g", &g));
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,3,5,5");
    oa_node *wx = tu_data(g, "wact", OA_DT_FLOAT, "4,3,3,3");
    oa_node *srcs[2] = {x, wx};
    oa_node *conv = tu_opn(g, OA_OP_CONV2D, "conv_act_w", 4, 1, srcs, 2);
    const int64_t s[4] = {1, 1, 1, 1};
    EXPECT_OK(oa_node_set_list_int(conv, "strides", s, 4));
    oa_node *elu = tu_op1(g, OA_OP_TILE_D, "my_tiled", 1, x); /* an op type without a kernel */
    oa_node *relu = tu_op1(g, OA_OP_RELU, "relu_post", 1, x);
    const char *ops[1] = {"Swish"};
    EXPECT_OK(oa_node_set_list_str(relu, "_oa_post_ops", ops, 1));
    const int64_t perm_shape = 4;
    (void)perm_shape;
    oa_node *perm = tu_data(g, "perm", OA_DT_INT64, "4");
    oa_node *tsrc[2] = {x, perm};
    oa_node *tr = tu_opn(g, OA_OP_TRANSPOSE, "tr", 2, 1, tsrc, 2);
    oa_error_clear();
    if (oa_graph_infer(g) != OA_OK) { /* the convolution's activation filter may be refused here already */
        oa_error_clear();
    }
    oa_node *unk = NULL;
    EXPECT_OK(oa_graph_add_node_typed(g, "FancyOp", "fancy", 1, 1, &unk));
    EXPECT_OK(oa_node_connect(unk, 0, x, 0));
    oa_op_bind *b = NULL;
    /* an activation filter takes the direct kernel; this one has no static shape */
    EXPECT_FAIL(oa_op_bind_node(conv, NULL, &b), OA_E_PARAM, "node conv_act_w output 0: shape is not static");
    assert_null(b);
    EXPECT_FAIL(oa_op_bind_node(elu, NULL, &b), OA_E_OP_NOT_FOUND, "node my_tiled (TileD)");
    EXPECT_FAIL(oa_op_bind_node(relu, NULL, &b), OA_E_PARAM, "post-ops on an elementwise unary op");
    EXPECT_FAIL(oa_op_bind_node(tr, NULL, &b), OA_E_PARAM, "node tr (Transpose): perm must be a constant");
    EXPECT_FAIL(oa_op_bind_node(unk, NULL, &b), OA_E_OP_NOT_FOUND, "node fancy (FancyOp)");
    EXPECT_FAIL(oa_op_bind_node(x, NULL, &b), OA_E_PARAM, "handled by the executor");
    assert_true(oa_op_bind_is_structural(x));
    assert_false(oa_op_bind_is_structural(conv));
    oa_graph_destroy(g);
}

static void desc_conversion(void **state)
{
    (void)state;
    oa_tensor_desc d;
    oa_desc_init(&d);
    const oa_shape s5 = tu_shape("1,2,7,7,16");
    oa_desc_set(&d, OA_DT_FLOAT, &s5);
    d.format = OA_FORMAT_NC1HWC0;
    oa_ktensor t;
    EXPECT_FAIL(oa_op_bind_desc(&d, "t", &t), OA_E_PARAM, "t: NC1HWC0 tensor without a static 4-D origin shape");
    d.origin_shape = tu_shape("1,24,7,7");
    d.origin_shape_set = true;
    EXPECT_OK(oa_op_bind_desc(&d, "t", &t));
    assert_int_equal(t.layout, OA_KLAYOUT_NCHWC);
    assert_int_equal(t.dims[1], 24);
    d.origin_shape = tu_shape("1,40,7,7"); /* more channels than 2 x 16 */
    EXPECT_FAIL(oa_op_bind_desc(&d, "t", &t), OA_E_PARAM, "does not hold its origin shape");
    const oa_shape dyn = tu_shape("1,-1");
    oa_desc_set(&d, OA_DT_FLOAT, &dyn);
    EXPECT_FAIL(oa_op_bind_desc(&d, "t", &t), OA_E_PARAM, "t: shape is not static");
    oa_desc_set(&d, OA_DT_STRING, &s5);
    EXPECT_FAIL(oa_op_bind_desc(&d, "t", &t), OA_E_UNSUPPORTED_DATA_TYPE, "has no CPU kernel");
}

/* ---- the op table (graph/op_defs.inc kernel/sub/flags columns) ---- */

static void op_table_is_consistent(void **state)
{
    (void)state;
    oa_kop_type k;
    int sub;
    /* bindings by op id, as the rows say */
    assert_true(oa_op_kernel(OA_OP_REAL_DIV, &k, &sub));
    assert_int_equal(k, OA_KOP_BINARY);
    assert_int_equal(sub, OA_KBIN_DIV);
    assert_true(oa_op_kernel(OA_OP_HARD_SWISH, &k, &sub));
    assert_int_equal(k, OA_KOP_UNARY);
    assert_int_equal(sub, OA_KUN_HARDSWISH);
    assert_true(oa_op_kernel(OA_OP_REDUCE_MEAN_D, &k, &sub));
    assert_int_equal(k, OA_KOP_REDUCE);
    assert_int_equal(sub, OA_KRED_MEAN);
    assert_true(oa_op_kernel(OA_OP_LOG_SOFTMAX_V2, &k, &sub));
    assert_int_equal(k, OA_KOP_SOFTMAX);
    assert_int_equal(sub, 1);
    assert_true(oa_op_kernel(OA_OP_CONV2D, &k, &sub));
    assert_int_equal(k, OA_KOP_CONV2D);
    assert_int_equal(sub, -1);
    /* structural rows and unknown types have no kernel */
    assert_false(oa_op_kernel(OA_OP_DATA, &k, &sub));
    assert_false(oa_op_kernel(OA_OP_NET_OUTPUT, &k, &sub));
    assert_false(oa_op_kernel(OA_OP_UNKNOWN, &k, &sub));
    assert_false(oa_op_kernel((oa_op_type)-1, &k, &sub));
    assert_int_equal(oa_op_flags(OA_OP_UNKNOWN), 0);
    for (int t = 0; t < OA_OP_COUNT; t++) {
        const unsigned f = oa_op_flags((oa_op_type)t);
        const bool has = oa_op_kernel((oa_op_type)t, &k, &sub);
        const char *name = oa_op_type_name((oa_op_type)t);
        /* sub-ops are in range for their family */
        if (has && k == OA_KOP_UNARY && (sub < 0 || sub >= OA_KUN_COUNT)) {
            fail_msg("%s: unary sub-op %d out of range", name, sub);
        }
        if (has && k == OA_KOP_BINARY && (sub < 0 || sub >= OA_KBIN_COUNT)) {
            fail_msg("%s: binary sub-op %d out of range", name, sub);
        }
        /* folding runs the kernel with no attributes: UNARY/BINARY rows only */
        if ((f & OA_OPF_FOLD) && !(has && (k == OA_KOP_UNARY || k == OA_KOP_BINARY))) {
            fail_msg("%s: F_FOLD without a unary/binary kernel", name);
        }
        /* the planner's in-place rules need a kernel that allows aliasing */
        if ((f & (OA_OPF_INPLACE | OA_OPF_INPLACE_EQ)) && !has) {
            fail_msg("%s: in-place without a kernel", name);
        }
        if ((f & OA_OPF_INPLACE_EQ) && !(f & OA_OPF_EW_BINARY)) {
            fail_msg("%s: F_INPLACE_EQ is for elementwise binary rows", name);
        }
        if ((f & OA_OPF_EW_UNARY) && (f & OA_OPF_EW_BINARY)) {
            fail_msg("%s: both F_EW1 and F_EW2", name);
        }
        if (((f & OA_OPF_VIEW) != 0) != (has && k == OA_KOP_COPY)) {
            fail_msg("%s: F_VIEW and the COPY kernel go together", name);
        }
        if ((f & OA_OPF_NCHWC) && !has) {
            fail_msg("%s: F_NCHWC without a kernel", name);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(conv_post_ops_and_residual),
        cmocka_unit_test(conv_nchwc_chain),
        cmocka_unit_test(matmul_gelu_and_muls),
        cmocka_unit_test(split_and_resize),
        cmocka_unit_test(refusals_name_the_node),
        cmocka_unit_test(desc_conversion),
        cmocka_unit_test(op_table_is_consistent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * graph/: shape, dtype, range and value inference per op family, the
 * broadcasting rules, value chains that make shapes static, control flow,
 * user input shapes, and robustness of every op's inference function
 * against missing or nonsense inputs.
 */
#include "graph_test_util.h"

#include "graph/arena.h"

static oa_graph *new_graph(void)
{
    oa_graph *g;
    EXPECT_OK(oa_graph_create("t", &g));
    return g;
}

/* Infers a fresh binary op over two Data inputs of the given shapes. */
static oa_status binary_case(oa_op_type t, const char *a, const char *b, oa_dtype da, oa_dtype db, char *out,
                             size_t cap)
{
    oa_graph *g = new_graph();
    oa_node *s[2] = {tu_data(g, "a", da, a), tu_data(g, "b", db, b)};
    oa_node *n = tu_op(g, t, "op", 2, 1, s);
    oa_status st = oa_graph_infer(g);
    if (st == OA_OK) {
        oa_desc_str(oa_node_output_desc(n, 0), out, cap);
    }
    oa_graph_destroy(g);
    return st;
}

/*
 * numpy broadcasting, right-aligned:
 *
 *   [8,1,6,1] x [7,1,5]   -> [8,7,6,5]
 *   [-1,3]    x [1,3]     -> [-1,3]     unknown stays unknown
 *   [-1]      x [5]       -> [5]        an unknown dim must be 1 or 5
 *   [2,3]     x [4,3]     -> error
 */
static void broadcasting(void **state)
{
    (void)state;
    static const struct {
        const char *a, *b, *want;
    } CASES[] = {
        {"8,1,6,1", "7,1,5", "f32[8,7,6,5]"},
        {"", "2,3", "f32[2,3]"},
        {"-1,3", "1,3", "f32[-1,3]"},
        {"-1", "5", "f32[5]"},
        {"1", "-1", "f32[-1]"},
        {"-1,-1", "-1", "f32[-1,-1]"},
        {"?", "2,3", "f32[-2]"},
        {"0,3", "1,3", "f32[0,3]"},
    };
    char buf[128];
    for (size_t i = 0; i < sizeof(CASES) / sizeof(CASES[0]); i++) {
        EXPECT_OK(binary_case(OA_OP_ADD, CASES[i].a, CASES[i].b, OA_DT_FLOAT, OA_DT_FLOAT, buf, sizeof(buf)));
        if (strcmp(buf, CASES[i].want) != 0) {
            print_error("Add(%s, %s) = %s, want %s\n", CASES[i].a, CASES[i].b, buf, CASES[i].want);
            fail();
        }
    }
    EXPECT_FAIL(binary_case(OA_OP_ADD, "2,3", "4,3", OA_DT_FLOAT, OA_DT_FLOAT, buf, sizeof(buf)), OA_E_GE_SHAPE,
                "shapes [2,3] and [4,3] are not broadcastable (dim 0: 2 vs 4)");
    /* dtypes: comparisons give bool, mixed arithmetic promotes. */
    EXPECT_OK(binary_case(OA_OP_LESS, "2", "2", OA_DT_INT32, OA_DT_INT32, buf, sizeof(buf)));
    assert_string_equal(buf, "bool[2]");
    EXPECT_OK(binary_case(OA_OP_MUL, "2", "2", OA_DT_INT32, OA_DT_FLOAT16, buf, sizeof(buf)));
    assert_string_equal(buf, "f16[2]");
    EXPECT_OK(binary_case(OA_OP_POW, "2", "", OA_DT_INT64, OA_DT_INT32, buf, sizeof(buf)));
    assert_string_equal(buf, "i64[2]");
    EXPECT_FAIL(binary_case(OA_OP_LOGICAL_AND, "2", "2", OA_DT_FLOAT, OA_DT_BOOL, buf, sizeof(buf)), OA_E_GE_DATATYPE,
                "must be bool");
}

static void ranges_propagate(void **state)
{
    (void)state;
    oa_graph *g = new_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,3,224,224");
    EXPECT_OK(oa_graph_set_input_shapes(g, "x:1~8,3,224,224"));
    oa_node *r = tu_op1(g, OA_OP_RELU, "relu", 1, x);
    float w[16 * 3 * 3 * 3] = {0};
    oa_node *k = tu_const(g, "w", OA_DT_FLOAT, "16,3,3,3", w);
    oa_node *cs[2] = {r, k};
    oa_node *conv = tu_opn(g, OA_OP_CONV2D, "conv", 4, 1, cs, 2);
    const int64_t st2[4] = {1, 1, 2, 2}, pads[4] = {1, 1, 1, 1};
    EXPECT_OK(oa_node_set_list_int(conv, "strides", st2, 4));
    EXPECT_OK(oa_node_set_list_int(conv, "pads", pads, 4));
    oa_node *fl = tu_op1(g, OA_OP_FLATTEN, "flat", 1, conv);
    EXPECT_OK(oa_graph_infer(g));
    EXPECT_DESC(x, 0, "f32[-1,3,224,224] range[1~8,3~3,224~224,224~224]");
    EXPECT_DESC(conv, 0, "f32[-1,16,112,112] range[1~8,16~16,112~112,112~112]");
    EXPECT_DESC(fl, 0, "f32[-1,200704] range[1~8,200704~200704]");
    /* Unbounded ranges stay unbounded. */
    EXPECT_OK(oa_graph_set_input_shapes(g, "x:2~-1,3,224,224"));
    EXPECT_OK(oa_graph_infer(g));
    EXPECT_DESC(fl, 0, "f32[-1,200704] range[2~-1,200704~200704]");
    oa_graph_destroy(g);
}

/*
 * Value inference makes a dynamic-looking reshape static:
 *
 *   x [1,3,48,320] ─Shape─▶ {1,3,48,320} ─Gather(0)─▶ {1} ─Unsqueeze─▶ {1}
 *                                      ─Slice[2:4]─▶ {48,320} ─ReduceProd─▶ 15360
 *   Concat({1}, {-1}, {40}) = {1,-1,40}  ─▶ Reshape(x) = [1,1152,40]
 */
static void value_chain_makes_shapes_static(void **state)
{
    (void)state;
    oa_graph *g = new_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,3,48,320");
    oa_node *sh = tu_op1(g, OA_OP_SHAPE, "shape", 1, x);
    EXPECT_OK(oa_node_set_int(sh, "dtype", OA_DT_INT64));
    const int64_t zero = 0, m1 = -1, forty = 40, ax0 = 0;
    oa_node *gs[3] = {sh, tu_i64(g, "i0", "", &zero), tu_const(g, "axis", OA_DT_INT32, "", &(int32_t){0})};
    oa_node *gat = tu_op(g, OA_OP_GATHER_V2, "gather", 3, 1, gs);
    oa_node *us[2] = {gat, tu_i64(g, "ax", "1", &ax0)};
    oa_node *un = tu_op(g, OA_OP_UNSQUEEZE_V3, "unsq", 2, 1, us);
    oa_node *cs[3] = {un, tu_i64(g, "m1", "1", &m1), tu_i64(g, "k40", "1", &forty)};
    oa_node *cat = tu_op(g, OA_OP_CONCAT_D, "concat", 3, 1, cs);
    EXPECT_OK(oa_node_set_int(cat, "concat_dim", 0));
    oa_node *rs[2] = {x, cat};
    oa_node *re = tu_op(g, OA_OP_RESHAPE, "reshape", 2, 1, rs);
    const int64_t b2 = 2, e4 = 4;
    oa_node *ss[3] = {sh, tu_i64(g, "b", "1", &b2), tu_i64(g, "e", "1", &e4)};
    oa_node *sl = tu_opn(g, OA_OP_STRIDED_SLICE_V2, "slice", 5, 1, ss, 3);
    oa_node *ps[2] = {sl, tu_const(g, "ax0", OA_DT_INT32, "1", &(int32_t){0})};
    oa_node *prod = tu_op(g, OA_OP_REDUCE_PROD, "prod", 2, 1, ps);
    EXPECT_OK(oa_graph_infer(g));
    char buf[256];
    (void)buf;
    EXPECT_DESC(sh, 0, "i64[4]");
    EXPECT_DESC(re, 0, "f32[1,1152,40]");
    EXPECT_DESC(prod, 0, "i64[]");
    assert_int_equal(prod->outputs[0].desc.value->i[0], 15360);
    assert_int_equal(sl->outputs[0].desc.value->i[1], 320);
    assert_true(oa_graph_fully_static(g, NULL));
    /* With a dynamic batch the value is partial: {?,3,48,320}. */
    EXPECT_OK(oa_graph_set_input_shapes(g, "x:-1,3,48,320"));
    EXPECT_OK(oa_graph_infer(g));
    const oa_value *v = sh->outputs[0].desc.value;
    assert_non_null(v);
    assert_false(oa_value_known(v, 0));
    assert_true(oa_value_known(v, 3));
    EXPECT_DESC(re, 0, "f32[-1,-1,40]");
    EXPECT_DESC(sl, 0, "i64[2]");
    assert_int_equal(prod->outputs[0].desc.value->i[0], 15360); /* the known half still folds */
    const oa_node *dyn;
    assert_false(oa_graph_fully_static(g, &dyn));
    assert_ptr_equal(dyn, x);
    oa_graph_destroy(g);
}

static void resize_chain_through_floats(void **state)
{
    (void)state;
    /* Cast(Mul(Cast(Shape(x), f32), scales), i32) -> Slice[2:4] -> ResizeNearestNeighborV2 */
    oa_graph *g = new_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,8,20,30");
    x->outputs[0].desc.format = OA_FORMAT_NCHW;
    oa_node *sh = tu_op1(g, OA_OP_SHAPE, "shape", 1, x);
    EXPECT_OK(oa_node_set_int(sh, "dtype", OA_DT_INT64));
    oa_node *c1 = tu_op1(g, OA_OP_CAST, "c1", 1, sh);
    EXPECT_OK(oa_node_set_int(c1, "dst_type", OA_DT_FLOAT));
    const float sc[4] = {1, 1, 2.5f, 2};
    oa_node *ms[2] = {c1, tu_const(g, "scales", OA_DT_FLOAT, "4", sc)};
    oa_node *mul = tu_op(g, OA_OP_MUL, "mul", 2, 1, ms);
    oa_node *c2 = tu_op1(g, OA_OP_CAST, "c2", 1, mul);
    EXPECT_OK(oa_node_set_int(c2, "dst_type", OA_DT_INT32));
    oa_node *ss[3] = {c2, tu_const(g, "off", OA_DT_INT32, "", &(int32_t){2}),
                      tu_const(g, "sz", OA_DT_INT32, "", &(int32_t){2})};
    oa_node *sl = tu_op(g, OA_OP_SLICE, "slice", 3, 1, ss);
    oa_node *rs[2] = {x, sl};
    oa_node *r = tu_op(g, OA_OP_RESIZE_NEAREST_NEIGHBOR_V2, "resize", 2, 1, rs);
    EXPECT_OK(oa_graph_infer(g));
    EXPECT_DESC(sl, 0, "i32[2]");
    EXPECT_DESC(r, 0, "f32[1,8,50,60]");
    oa_graph_destroy(g);
}

static oa_node *conv_node(oa_graph *g, const char *x_shape, const char *w_shape, const int64_t *strides,
                          const int64_t *pads, const int64_t *dil, int64_t groups)
{
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, x_shape);
    oa_node *s[2] = {x, tu_const(g, "w", OA_DT_FLOAT, w_shape, NULL)}; /* zero-filled */
    oa_node *c = tu_opn(g, OA_OP_CONV2D, "conv", 4, 1, s, 2);
    EXPECT_OK(oa_node_set_list_int(c, "strides", strides, 4));
    EXPECT_OK(oa_node_set_list_int(c, "pads", pads, 4));
    if (dil) {
        EXPECT_OK(oa_node_set_list_int(c, "dilations", dil, 4));
    }
    EXPECT_OK(oa_node_set_int(c, "groups", groups));
    return c;
}

/*
 * Convolution output size: floor((in + pt + pb - (d*(k-1)+1)) / s) + 1
 *   224, k7, s2, p3      -> 112
 *   32, k3, s1, p0, d2   -> 28
 */
static void conv_and_pool(void **state)
{
    (void)state;
    const int64_t s2[4] = {1, 1, 2, 2}, s1[4] = {1, 1, 1, 1}, p3[4] = {3, 3, 3, 3}, p0[4] = {0};
    const int64_t d2[4] = {1, 1, 2, 2};
    oa_graph *g = new_graph();
    oa_node *c = conv_node(g, "1,3,224,224", "64,3,7,7", s2, p3, NULL, 1);
    EXPECT_OK(oa_graph_infer(g));
    EXPECT_DESC(c, 0, "f32[1,64,112,112]");
    oa_graph_destroy(g);
    g = new_graph();
    c = conv_node(g, "2,8,32,32", "8,2,3,3", s1, p0, d2, 4);
    EXPECT_OK(oa_graph_infer(g));
    EXPECT_DESC(c, 0, "f32[2,8,28,28]");
    oa_graph_destroy(g);
    g = new_graph();
    c = conv_node(g, "1,3,32,32", "8,4,3,3", s1, p0, NULL, 1);
    EXPECT_FAIL(oa_graph_infer(g), OA_E_GE_SHAPE, "x has 3 channels, filter expects 4 x 1 groups");
    oa_graph_destroy(g);
    g = new_graph();
    c = conv_node(g, "1,3,2,2", "8,3,3,3", s1, p0, NULL, 1);
    EXPECT_FAIL(oa_graph_infer(g), OA_E_GE_SHAPE, "window 3 is larger than the padded input 2");
    oa_graph_destroy(g);
    /* auto_pad SAME: ceil(in / stride) */
    g = new_graph();
    c = conv_node(g, "1,3,15,15", "8,3,3,3", s2, p0, NULL, 1);
    EXPECT_OK(oa_node_set_str(c, "auto_pad", "SAME_UPPER"));
    EXPECT_OK(oa_graph_infer(g));
    EXPECT_DESC(c, 0, "f32[1,8,8,8]");
    oa_graph_destroy(g);

    /* MaxPoolV3 3x3/2 pad 1: 112 -> 56; ceil_mode: 5, k2 s2 -> 3 (floor 2) */
    g = new_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,64,112,112");
    oa_node *p = tu_op1(g, OA_OP_MAX_POOL_V3, "pool", 1, x);
    const int64_t k3[4] = {1, 1, 3, 3}, p1[4] = {1, 1, 1, 1};
    EXPECT_OK(oa_node_set_list_int(p, "ksize", k3, 4));
    EXPECT_OK(oa_node_set_list_int(p, "strides", s2, 4));
    EXPECT_OK(oa_node_set_list_int(p, "pads", p1, 4));
    oa_node *y = tu_data(g, "y", OA_DT_FLOAT, "1,1,5,5");
    oa_node *q = tu_op1(g, OA_OP_AVG_POOL_V2, "avg", 1, y);
    const int64_t k2[4] = {1, 1, 2, 2};
    EXPECT_OK(oa_node_set_list_int(q, "ksize", k2, 4));
    EXPECT_OK(oa_node_set_list_int(q, "strides", s2, 4));
    EXPECT_OK(oa_node_set_bool(q, "ceil_mode", true));
    oa_node *gp = tu_op1(g, OA_OP_GLOBAL_AVERAGE_POOL, "gap", 1, x);
    EXPECT_OK(oa_graph_infer(g));
    EXPECT_DESC(p, 0, "f32[1,64,56,56]");
    EXPECT_DESC(q, 0, "f32[1,1,3,3]");
    EXPECT_DESC(gp, 0, "f32[1,64,1,1]");
    EXPECT_OK(oa_attrs_remove(&p->attrs, "ksize") ? OA_OK : OA_E_INTERNAL);
    EXPECT_FAIL(oa_graph_infer(g), OA_E_GE_PARAM, "misses required attr ksize");
    oa_graph_destroy(g);

    /* Conv2DTranspose: (in-1)*s - pt - pb + d*(k-1) + 1 + output_padding */
    g = new_graph();
    const int64_t zeros[4] = {0, 0, 0, 0};
    static float w[2 * 4 * 2 * 2];
    oa_node *ts[3] = {tu_i64(g, "isz", "4", zeros), tu_data(g, "x", OA_DT_FLOAT, "1,2,10,10"),
                      tu_const(g, "w", OA_DT_FLOAT, "2,4,2,2", w)};
    oa_node *ct = tu_opn(g, OA_OP_CONV2D_TRANSPOSE, "deconv", 5, 1, ts, 3);
    EXPECT_OK(oa_node_set_list_int(ct, "strides", s2, 4));
    EXPECT_OK(oa_node_set_list_int(ct, "pads", zeros, 4));
    EXPECT_OK(oa_node_set_int(ct, "groups", 2));
    EXPECT_OK(oa_graph_infer(g));
    EXPECT_DESC(ct, 0, "f32[1,8,20,20]");
    oa_graph_destroy(g);
}

static void matmul_family(void **state)
{
    (void)state;
    static const struct {
        const char *a, *b, *want;
    } CASES[] = {
        {"2,1,3,4", "5,4,6", "f32[2,5,3,6]"},
        {"4", "4,6", "f32[6]"},
        {"3,4", "4", "f32[3]"},
        {"1,128,768", "768,768", "f32[1,128,768]"},
        {"-1,3,4", "4,5", "f32[-1,3,5]"},
    };
    char buf[128];
    for (size_t i = 0; i < sizeof(CASES) / sizeof(CASES[0]); i++) {
        EXPECT_OK(binary_case(OA_OP_BATCH_MAT_MUL_V2, CASES[i].a, CASES[i].b, OA_DT_FLOAT, OA_DT_FLOAT, buf,
                              sizeof(buf)));
        if (strcmp(buf, CASES[i].want) != 0) {
            print_error("BatchMatMulV2(%s, %s) = %s, want %s\n", CASES[i].a, CASES[i].b, buf, CASES[i].want);
            fail();
        }
    }
    EXPECT_FAIL(binary_case(OA_OP_BATCH_MAT_MUL_V2, "3,4", "5,6", OA_DT_FLOAT, OA_DT_FLOAT, buf, sizeof(buf)),
                OA_E_GE_SHAPE, "inner dimensions differ (4 vs 5)");
    EXPECT_OK(binary_case(OA_OP_MAT_MUL_V2, "3,4", "4,6", OA_DT_INT8, OA_DT_INT8, buf, sizeof(buf)));
    assert_string_equal(buf, "i32[3,6]");
    oa_graph *g = new_graph();
    oa_node *s[2] = {tu_data(g, "a", OA_DT_FLOAT, "4,3"), tu_data(g, "b", OA_DT_FLOAT, "5,4")};
    oa_node *m = tu_opn(g, OA_OP_MAT_MUL_V2, "mm", 4, 1, s, 2);
    EXPECT_OK(oa_node_set_bool(m, "transpose_x1", true));
    EXPECT_OK(oa_node_set_bool(m, "transpose_x2", true));
    EXPECT_OK(oa_graph_infer(g));
    EXPECT_DESC(m, 0, "f32[3,5]");
    oa_graph_destroy(g);
}

static void reshape_rules(void **state)
{
    (void)state;
    static const struct {
        const char *x;
        int64_t t[4];
        int n;
        int allowzero;
        const char *want;
    } CASES[] = {
        {"2,3,4", {0, -1, 0, 0}, 2, 0, "f32[2,12]"},
        {"2,3,4", {-1, 4, 0, 0}, 2, 0, "f32[6,4]"},
        {"2,0,4", {0, -1, 0, 0}, 2, 0, "f32[2,0]"},
        {"6", {3, 0, 0, 0}, 2, 1, "f32[3,0]"},
        {"-1,3,4", {0, 12, 0, 0}, 2, 0, "f32[-1,12]"},
        {"-1,3,4", {-1, 12, 0, 0}, 2, 0, "f32[-1,12]"},
    };
    for (size_t i = 0; i < sizeof(CASES) / sizeof(CASES[0]); i++) {
        oa_graph *g = new_graph();
        char ts[16];
        snprintf(ts, sizeof(ts), "%d", CASES[i].n);
        oa_node *s[2] = {tu_data(g, "x", OA_DT_FLOAT, CASES[i].x), tu_i64(g, "t", ts, CASES[i].t)};
        oa_node *r = tu_op(g, OA_OP_RESHAPE, "r", 2, 1, s);
        EXPECT_OK(oa_node_set_int(r, "allowzero", CASES[i].allowzero));
        if (strcmp(CASES[i].x, "6") == 0) {
            /* 6 elements cannot become [3,0]: allowzero keeps the 0 */
            EXPECT_FAIL(oa_graph_infer(g), OA_E_GE_SHAPE, "cannot reshape 6 elements into 0");
        } else {
            EXPECT_OK(oa_graph_infer(g));
            EXPECT_DESC(r, 0, CASES[i].want);
        }
        oa_graph_destroy(g);
    }
    oa_graph *g = new_graph();
    const int64_t two_m1[2] = {-1, -1};
    oa_node *s[2] = {tu_data(g, "x", OA_DT_FLOAT, "2,3"), tu_i64(g, "t", "2", two_m1)};
    (void)tu_op(g, OA_OP_RESHAPE, "r", 2, 1, s);
    EXPECT_FAIL(oa_graph_infer(g), OA_E_GE_SHAPE, "more than one -1");
    oa_graph_destroy(g);
    g = new_graph();
    const int64_t bad[2] = {4, -1};
    oa_node *s2[2] = {tu_data(g, "x", OA_DT_FLOAT, "2,3"), tu_i64(g, "t", "2", bad)};
    (void)tu_op(g, OA_OP_RESHAPE, "r", 2, 1, s2);
    EXPECT_FAIL(oa_graph_infer(g), OA_E_GE_SHAPE, "cannot reshape 6 elements with 4 per -1 slot");
    oa_graph_destroy(g);
}

static void slicing_and_indexing(void **state)
{
    (void)state;
    oa_graph *g = new_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "2,10,6");
    /* ONNX Slice: axis 1 [1:INT64_MAX], axis 2 [-1:-5:-2] */
    const int64_t b[2] = {1, -1}, e[2] = {INT64_MAX, -5}, ax[2] = {1, 2}, st[2] = {1, -2};
    oa_node *ss[5] = {x, tu_i64(g, "b", "2", b), tu_i64(g, "e", "2", e), tu_i64(g, "ax", "2", ax),
                      tu_i64(g, "st", "2", st)};
    oa_node *sl = tu_op(g, OA_OP_STRIDED_SLICE_V2, "slice", 5, 1, ss);
    /* GatherV2 with a [2,3] index tensor on axis 1 */
    const int64_t idx[6] = {0, 1, 2, -1, -2, 3};
    oa_node *gs[3] = {x, tu_i64(g, "idx", "2,3", idx), tu_const(g, "gax", OA_DT_INT32, "", &(int32_t){1})};
    oa_node *ga = tu_op(g, OA_OP_GATHER_V2, "gather", 3, 1, gs);
    /* Split into [4,6] on axis 1; Transpose; Squeeze/Unsqueeze; Pad; Tile */
    const int64_t sizes[2] = {4, 6};
    oa_node *sp_in[3] = {x, tu_i64(g, "sizes", "2", sizes), tu_const(g, "sdim", OA_DT_INT32, "", &(int32_t){1})};
    oa_node *sp = tu_op(g, OA_OP_SPLIT_V, "split", 3, 2, sp_in);
    EXPECT_OK(oa_node_set_int(sp, "num_split", 2));
    const int32_t perm[3] = {2, 0, 1};
    oa_node *tr_in[2] = {x, tu_const(g, "perm", OA_DT_INT32, "3", perm)};
    oa_node *tr = tu_op(g, OA_OP_TRANSPOSE, "transpose", 2, 1, tr_in);
    const int64_t pads[6] = {0, 1, 2, 0, 0, 3}; /* ONNX layout [b0,b1,b2,e0,e1,e2] */
    oa_node *pd_in[2] = {x, tu_i64(g, "pads", "6", pads)};
    oa_node *pd = tu_opn(g, OA_OP_PAD_V3, "pad", 3, 1, pd_in, 2);
    EXPECT_OK(oa_node_set_bool(pd, "paddings_contiguous", false));
    const int64_t mult[3] = {1, 2, 3};
    oa_node *ti_in[2] = {x, tu_i64(g, "mult", "3", mult)};
    oa_node *ti = tu_op(g, OA_OP_TILE, "tile", 2, 1, ti_in);
    EXPECT_OK(oa_graph_infer(g));
    EXPECT_DESC(sl, 0, "f32[2,9,2]");
    EXPECT_DESC(ga, 0, "f32[2,2,3,6]");
    EXPECT_DESC(sp, 0, "f32[2,4,6]");
    EXPECT_DESC(sp, 1, "f32[2,6,6]");
    EXPECT_DESC(tr, 0, "f32[6,2,10]");
    EXPECT_DESC(pd, 0, "f32[2,11,11]");
    EXPECT_DESC(ti, 0, "f32[2,20,18]");
    oa_graph_destroy(g);

    /* Errors name the problem. */
    g = new_graph();
    x = tu_data(g, "x", OA_DT_FLOAT, "2,10");
    const int64_t big = 10;
    oa_node *gs2[3] = {x, tu_i64(g, "idx", "1", &big), tu_const(g, "gax", OA_DT_INT32, "", &(int32_t){1})};
    (void)tu_op(g, OA_OP_GATHER_V2, "gather", 3, 1, gs2);
    EXPECT_FAIL(oa_graph_infer(g), OA_E_GE_SHAPE, "index 10 is out of range for dim 1 of size 10");
    oa_graph_destroy(g);
    g = new_graph();
    x = tu_data(g, "x", OA_DT_FLOAT, "2,10");
    const int32_t perm2[2] = {0, 0};
    oa_node *tr2[2] = {x, tu_const(g, "perm", OA_DT_INT32, "2", perm2)};
    (void)tu_op(g, OA_OP_TRANSPOSE, "t", 2, 1, tr2);
    EXPECT_FAIL(oa_graph_infer(g), OA_E_GE_SHAPE, "perm repeats axis 0");
    oa_graph_destroy(g);
    g = new_graph();
    x = tu_data(g, "x", OA_DT_FLOAT, "2,10");
    oa_node *sq = tu_op1(g, OA_OP_SQUEEZE, "sq", 1, x);
    const int64_t a0 = 0;
    EXPECT_OK(oa_node_set_list_int(sq, "axis", &a0, 1));
    EXPECT_FAIL(oa_graph_infer(g), OA_E_GE_SHAPE, "cannot squeeze dim 0 of size 2");
    oa_graph_destroy(g);
}

/* Flatten: a negative axis counts from the rank (ONNX: axis in [-r, r]). */
static void flatten_negative_axis(void **state)
{
    (void)state;
    oa_graph *g = new_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "2,3,4,5");
    oa_node *f1 = tu_op1(g, OA_OP_FLATTEN, "f1", 1, x);
    EXPECT_OK(oa_node_set_int(f1, "axis", -1));
    oa_node *f4 = tu_op1(g, OA_OP_FLATTEN, "f4", 1, x);
    EXPECT_OK(oa_node_set_int(f4, "axis", -4));
    oa_node *f2 = tu_op1(g, OA_OP_FLATTEN, "f2", 1, x);
    EXPECT_OK(oa_node_set_int(f2, "axis", 4));
    EXPECT_OK(oa_graph_infer(g));
    EXPECT_DESC(f1, 0, "f32[24,5]");
    EXPECT_DESC(f4, 0, "f32[1,120]");
    EXPECT_DESC(f2, 0, "f32[120,1]");
    oa_graph_destroy(g);

    g = new_graph();
    x = tu_data(g, "x", OA_DT_FLOAT, "2,3");
    oa_node *bad = tu_op1(g, OA_OP_FLATTEN, "bad", 1, x);
    EXPECT_OK(oa_node_set_int(bad, "axis", -3));
    EXPECT_FAIL(oa_graph_infer(g), OA_E_GE_SHAPE, "out of range");
    oa_graph_destroy(g);
}

/* GatherElements: y takes the indices' shape; ranks must match, dim in range. */
static void gather_elements(void **state)
{
    (void)state;
    oa_graph *g = new_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "3,4");
    oa_node *gs[2] = {x, tu_data(g, "i", OA_DT_INT64, "2,4")};
    oa_node *ge = tu_op(g, OA_OP_GATHER_ELEMENTS, "ge", 2, 1, gs);
    EXPECT_OK(oa_node_set_int(ge, "dim", -2));
    EXPECT_OK(oa_graph_infer(g));
    EXPECT_DESC(ge, 0, "f32[2,4]");
    oa_graph_destroy(g);

    g = new_graph();
    x = tu_data(g, "x", OA_DT_FLOAT, "3,4");
    oa_node *bad[2] = {x, tu_data(g, "i", OA_DT_INT64, "4")};
    (void)tu_op(g, OA_OP_GATHER_ELEMENTS, "ge", 2, 1, bad);
    EXPECT_FAIL(oa_graph_infer(g), OA_E_GE_SHAPE, "must have the same rank");
    oa_graph_destroy(g);

    g = new_graph();
    x = tu_data(g, "x", OA_DT_FLOAT, "3,4");
    oa_node *bd[2] = {x, tu_data(g, "i", OA_DT_INT64, "3,4")};
    ge = tu_op(g, OA_OP_GATHER_ELEMENTS, "ge", 2, 1, bd);
    EXPECT_OK(oa_node_set_int(ge, "dim", 2));
    EXPECT_FAIL(oa_graph_infer(g), OA_E_GE_SHAPE, "dim 2 is out of range for rank 2");
    oa_graph_destroy(g);
}

/* The INDEX rows (infer_index.c): shapes, and the [0, bound] ranges of data-dependent dims. */
static void index_ops(void **state)
{
    (void)state;
    oa_graph *g = new_graph();
    oa_node *x = tu_data(g, "x", OA_DT_INT8, "2,3,4");
    oa_node *gn[2] = {x, tu_data(g, "i", OA_DT_INT32, "5,2")};
    oa_node *gnd = tu_op(g, OA_OP_GATHER_ND, "gnd", 2, 1, gn);
    oa_node *nz = tu_op(g, OA_OP_NON_ZERO, "nz", 1, 1, &x);
    oa_node *un = tu_op(g, OA_OP_UNIQUE_V3, "un", 1, 4, &x);
    EXPECT_OK(oa_node_set_int(un, "axis", -1));
    const int64_t depth = 7;
    oa_node *oh[4] = {tu_data(g, "ix", OA_DT_FLOAT, "3"), tu_i64(g, "depth", "", &depth),
                      tu_data(g, "on", OA_DT_UINT16, ""), tu_data(g, "off", OA_DT_UINT16, "")};
    oa_node *ohn = tu_op(g, OA_OP_ONE_HOT, "oh", 4, 1, oh);
    EXPECT_OK(oa_node_set_int(ohn, "axis", 0));
    EXPECT_OK(oa_graph_infer(g));
    EXPECT_DESC(gnd, 0, "i8[5,4]");
    EXPECT_DESC(ohn, 0, "u16[7,3]");
    const oa_tensor_desc *d = oa_node_output_desc(nz, 0);
    assert_int_equal(d->dtype, OA_DT_INT64);
    assert_int_equal(d->shape.rank, 2);
    assert_int_equal(d->shape.dims[0], 3);
    assert_int_equal(d->shape.dims[1], -1);
    assert_true(d->has_range && d->range_min[1] == 0 && d->range_max[1] == 24);
    d = oa_node_output_desc(un, 0);
    assert_int_equal(d->shape.dims[2], -1);
    assert_true(d->has_range && d->range_max[2] == 4);
    d = oa_node_output_desc(un, 2); /* inverse indices: one per slice */
    assert_int_equal(d->shape.rank, 1);
    assert_int_equal(d->shape.dims[0], 4);
    oa_graph_destroy(g);

    /* NonMaxSuppressionV6: rows in [0, B*C*min(max, N)]; max from data at run time: [0, B*C*N]; no max: 0 rows */
    g = new_graph();
    oa_node *nb[3] = {tu_data(g, "boxes", OA_DT_FLOAT, "2,5,4"), tu_data(g, "scores", OA_DT_FLOAT, "2,3,5"),
                      tu_data(g, "max", OA_DT_INT64, "1")};
    oa_node *nms_rt = tu_op(g, OA_OP_NON_MAX_SUPPRESSION_V6, "nms_rt", 3, 1, nb);
    oa_node *nms_none = tu_op(g, OA_OP_NON_MAX_SUPPRESSION_V6, "nms_none", 2, 1, nb);
    const int64_t two = 2;
    oa_node *nk[3] = {nb[0], nb[1], tu_i64(g, "max2", "1", &two)};
    oa_node *nms_k = tu_op(g, OA_OP_NON_MAX_SUPPRESSION_V6, "nms_k", 3, 1, nk);
    EXPECT_OK(oa_graph_infer(g));
    d = oa_node_output_desc(nms_rt, 0);
    assert_true(d->shape.dims[0] == -1 && d->has_range && d->range_max[0] == 30);
    d = oa_node_output_desc(nms_k, 0);
    assert_true(d->shape.dims[0] == -1 && d->has_range && d->range_max[0] == 12);
    EXPECT_DESC(nms_none, 0, "i32[0,3]");
    oa_graph_destroy(g);

    g = new_graph();
    x = tu_data(g, "x", OA_DT_FLOAT, "3,4");
    oa_node *bad[3] = {x, tu_data(g, "i", OA_DT_FLOAT, "2,1"), tu_data(g, "u", OA_DT_FLOAT, "2,4")};
    (void)tu_op(g, OA_OP_TENSOR_SCATTER_UPDATE, "sc", 3, 1, bad);
    EXPECT_FAIL(oa_graph_infer(g), OA_E_GE_DATATYPE, "indices must be int32/int64");
    oa_graph_destroy(g);
}

static void concat_split_values_and_shapes(void **state)
{
    (void)state;
    oa_graph *g = new_graph();
    oa_node *a = tu_data(g, "a", OA_DT_FLOAT, "2,3");
    oa_node *b = tu_data(g, "b", OA_DT_FLOAT, "2,-1");
    oa_node *cs[2] = {a, b};
    oa_node *cat = tu_op(g, OA_OP_CONCAT_D, "cat", 2, 1, cs);
    EXPECT_OK(oa_node_set_int(cat, "concat_dim", -1));
    EXPECT_OK(oa_node_set_int(cat, "N", 2));
    oa_node *sp = tu_op1(g, OA_OP_SPLIT_D, "split", 3, a);
    EXPECT_OK(oa_node_set_int(sp, "split_dim", 1));
    EXPECT_OK(oa_node_set_int(sp, "num_split", 3));
    EXPECT_OK(oa_graph_infer(g));
    EXPECT_DESC(cat, 0, "f32[2,-1]");
    EXPECT_DESC(sp, 2, "f32[2,1]");
    EXPECT_OK(oa_node_set_int(cat, "N", 3));
    EXPECT_FAIL(oa_graph_infer(g), OA_E_GE_PARAM, "attr N=3 but 2 inputs");
    oa_graph_destroy(g);

    /* a window (a folded Slice, pass_concat.c) gives its length; one that does not fit fails */
    g = new_graph();
    oa_node *wa = tu_data(g, "wa", OA_DT_FLOAT, "2,2");
    oa_node *wy = tu_data(g, "wy", OA_DT_FLOAT, "2,85");
    oa_node *ws[2] = {wa, wy};
    oa_node *wcat = tu_op(g, OA_OP_CONCAT_D, "wcat", 2, 1, ws);
    EXPECT_OK(oa_node_set_int(wcat, "concat_dim", 1));
    const int64_t win[3] = {1, 4, 81};
    EXPECT_OK(oa_node_set_list_int(wcat, "_oa_concat_windows", win, 3));
    EXPECT_OK(oa_graph_infer(g));
    EXPECT_DESC(wcat, 0, "f32[2,83]");
    const int64_t past[3] = {1, 5, 81};
    EXPECT_OK(oa_node_set_list_int(wcat, "_oa_concat_windows", past, 3));
    EXPECT_FAIL(oa_graph_infer(g), OA_E_GE_SHAPE, "does not fit");
    oa_graph_destroy(g);

    g = new_graph();
    oa_node *c = tu_data(g, "c", OA_DT_FLOAT, "5");
    oa_node *s = tu_op1(g, OA_OP_SPLIT_D, "split", 2, c);
    EXPECT_OK(oa_node_set_int(s, "split_dim", 0));
    EXPECT_OK(oa_node_set_int(s, "num_split", 2));
    EXPECT_FAIL(oa_graph_infer(g), OA_E_GE_SHAPE, "does not split into 2 equal parts");
    oa_graph_destroy(g);
}

static void reductions_and_others(void **state)
{
    (void)state;
    oa_graph *g = new_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "2,3,4");
    const int32_t ax1 = 1;
    oa_node *rs[2] = {x, tu_const(g, "ax", OA_DT_INT32, "1", &ax1)};
    oa_node *rm = tu_op(g, OA_OP_REDUCE_MEAN, "mean", 2, 1, rs);
    oa_node *rk = tu_op(g, OA_OP_REDUCE_SUM, "sumk", 2, 1, rs);
    EXPECT_OK(oa_node_set_bool(rk, "keep_dims", true));
    oa_node *ea[2] = {x, tu_const(g, "none", OA_DT_INT32, "0", NULL)};
    oa_node *all = tu_op(g, OA_OP_REDUCE_MAX, "all", 2, 1, ea);
    EXPECT_OK(oa_node_set_bool(all, "noop_with_empty_axes", false));
    oa_node *noop = tu_op(g, OA_OP_REDUCE_MIN, "noop", 2, 1, ea);
    oa_node *am_in[2] = {x, tu_const(g, "dim", OA_DT_INT32, "", &(int32_t){-1})};
    oa_node *am = tu_op(g, OA_OP_ARG_MAX_V2, "argmax", 2, 1, am_in);
    oa_node *tk_in[2] = {x, tu_const(g, "k", OA_DT_INT32, "", &(int32_t){2})};
    oa_node *tk = tu_op(g, OA_OP_TOP_K, "topk", 2, 2, tk_in);
    oa_node *sm = tu_op1(g, OA_OP_SOFTMAX_V2, "softmax", 1, x);
    oa_node *ln_in[3] = {x, x, x};
    oa_node *ln = tu_op(g, OA_OP_LAYER_NORM, "ln", 3, 3, ln_in);
    EXPECT_OK(oa_node_set_int(ln, "begin_norm_axis", -1));
    oa_node *cst = tu_op1(g, OA_OP_CAST, "cast", 1, x);
    EXPECT_OK(oa_node_set_int(cst, "dst_type", OA_DT_FLOAT16));
    oa_node *sz = tu_op1(g, OA_OP_SIZE, "size", 1, x);
    EXPECT_OK(oa_node_set_dtype(sz, "dtype", OA_DT_INT64));
    EXPECT_OK(oa_graph_infer(g));
    EXPECT_DESC(rm, 0, "f32[2,4]");
    EXPECT_DESC(rk, 0, "f32[2,1,4]");
    EXPECT_DESC(all, 0, "f32[]");
    EXPECT_DESC(noop, 0, "f32[2,3,4]");
    EXPECT_DESC(am, 0, "i64[2,3]");
    EXPECT_DESC(tk, 0, "f32[2,3,2]");
    EXPECT_DESC(tk, 1, "i32[2,3,2]");
    EXPECT_DESC(sm, 0, "f32[2,3,4]");
    EXPECT_DESC(ln, 1, "f32[2,3,1]");
    EXPECT_DESC(cst, 0, "f16[2,3,4]");
    EXPECT_DESC(sz, 0, "i64[]");
    assert_int_equal(sz->outputs[0].desc.value->i[0], 24);
    EXPECT_OK(oa_node_set_int(cst, "dst_type", 5));
    EXPECT_FAIL(oa_graph_infer(g), OA_E_GE_DATATYPE, "dst_type 5 is not a GE data type");
    oa_graph_destroy(g);

    /* Fill / Expand / Range / BatchNorm / LSTM */
    g = new_graph();
    const int64_t dims[2] = {2, 3};
    oa_node *fs[2] = {tu_i64(g, "dims", "2", dims), tu_const(g, "v", OA_DT_INT32, "", &(int32_t){7})};
    oa_node *fill = tu_op(g, OA_OP_FILL, "fill", 2, 1, fs);
    const int64_t tgt[3] = {4, 1, 3};
    oa_node *es[2] = {tu_data(g, "e", OA_DT_FLOAT, "2,1"), tu_i64(g, "tgt", "3", tgt)};
    oa_node *ex = tu_op(g, OA_OP_EXPAND, "expand", 2, 1, es);
    const float r0 = 0, r1 = 10, r2 = 2.5f;
    oa_node *rg_in[3] = {tu_const(g, "r0", OA_DT_FLOAT, "", &r0), tu_const(g, "r1", OA_DT_FLOAT, "", &r1),
                         tu_const(g, "r2", OA_DT_FLOAT, "", &r2)};
    oa_node *rg = tu_op(g, OA_OP_RANGE, "range", 3, 1, rg_in);
    static float chan[16];
    oa_node *bn_in[5] = {tu_data(g, "bx", OA_DT_FLOAT, "1,16,4,4"), tu_const(g, "sc", OA_DT_FLOAT, "16", chan),
                         tu_const(g, "of", OA_DT_FLOAT, "16", chan), NULL, NULL};
    oa_node *bn = tu_op(g, OA_OP_BATCH_NORM, "bn", 5, 6, bn_in);
    EXPECT_OK(oa_node_set_str(bn, "data_format", "NCHW"));
    oa_node *ls_in[3] = {tu_data(g, "lx", OA_DT_FLOAT, "7,1,64"), tu_data(g, "lw", OA_DT_FLOAT, "1,512,64"),
                         tu_data(g, "lr", OA_DT_FLOAT, "1,512,128")};
    oa_node *lstm = tu_opn(g, OA_OP_COMMON_LSTM, "lstm", 8, 3, ls_in, 3);
    EXPECT_OK(oa_graph_infer(g));
    EXPECT_DESC(fill, 0, "i32[2,3]");
    assert_int_equal(fill->outputs[0].desc.value->i[5], 7);
    EXPECT_DESC(ex, 0, "f32[4,2,3]");
    EXPECT_DESC(rg, 0, "f32[4]");
    assert_true(rg->outputs[0].desc.value->f[3] == 7.5);
    EXPECT_DESC(bn, 0, "f32[1,16,4,4]");
    EXPECT_DESC(bn, 1, "f32[16]");
    EXPECT_DESC(lstm, 0, "f32[7,1,1,128]");
    EXPECT_DESC(lstm, 2, "f32[1,1,128]");
    oa_graph_destroy(g);
}

/*
 * If: the known selector picks a branch; an unknown one merges both:
 *
 *   then: Relu(x) -> [2,3]      else: Reshape(x, [3,2]) -> [3,2]
 *   cond = true  -> [2,3];   cond unknown -> [-1,-1] (range [2..3] per dim)
 */
static oa_graph *if_graph(oa_node **ifn, oa_node **cond_node, bool const_cond)
{
    oa_graph *g = new_graph();
    uint8_t t = 1;
    *cond_node = const_cond ? tu_const(g, "cond", OA_DT_BOOL, "", &t) : tu_data(g, "cond", OA_DT_BOOL, "");
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "2,3");
    oa_node *s[2] = {*cond_node, x};
    *ifn = tu_op(g, OA_OP_IF, "if", 2, 1, s);
    for (int b = 0; b < 2; b++) {
        oa_graph *sg;
        EXPECT_OK(oa_graph_create_subgraph(*ifn, b ? "else_branch" : "then_branch", b ? "else" : "then", &sg));
        oa_node *d = tu_data(sg, b ? "else/x" : "then/x", OA_DT_FLOAT, "?");
        EXPECT_OK(oa_node_set_int(d, "_parent_node_index", 1));
        oa_node *op;
        if (b == 0) {
            op = tu_op1(sg, OA_OP_RELU, "then/relu", 1, d);
        } else {
            const int64_t t32[2] = {3, 2};
            oa_node *rs[2] = {d, tu_i64(sg, "else/shape", "2", t32)};
            op = tu_op(sg, OA_OP_RESHAPE, "else/reshape", 2, 1, rs);
        }
        (void)tu_op1(sg, OA_OP_NET_OUTPUT, b ? "else/out" : "then/out", 1, op);
    }
    return g;
}

static void control_flow(void **state)
{
    (void)state;
    oa_node *ifn, *c;
    oa_graph *g = if_graph(&ifn, &c, true);
    EXPECT_OK(oa_graph_infer(g));
    EXPECT_DESC(ifn, 0, "f32[2,3]");
    /* the untaken branch was inferred speculatively too */
    EXPECT_DESC(oa_graph_find_node(oa_node_subgraph(ifn, 1), "else/reshape"), 0, "f32[3,2]");
    oa_graph_destroy(g);
    g = if_graph(&ifn, &c, false);
    EXPECT_OK(oa_graph_infer(g));
    EXPECT_DESC(ifn, 0, "f32[-1,-1] range[2~3,2~3]");
    /* A branch that cannot run with these shapes is ignored... */
    oa_graph *els = oa_node_subgraph(ifn, 1);
    oa_node *shp = oa_graph_find_node(els, "else/shape");
    const int64_t t7[2] = {7, 1};
    oa_tensor *t;
    oa_shape s2 = tu_shape("2");
    EXPECT_OK(oa_graph_make_tensor(els, OA_DT_INT64, &s2, t7, sizeof(t7), &t));
    EXPECT_OK(oa_node_set_tensor(shp, "value", t));
    oa_error_clear();
    EXPECT_OK(oa_graph_infer(g));
    assert_null(oa_error_take_messages()); /* speculative failures are not reported */
    EXPECT_DESC(ifn, 0, "f32[2,3]");
    /* ...unless no branch can: then the first branch's error is reported. */
    oa_node *relu = oa_graph_find_node(oa_node_subgraph(ifn, 0), "then/relu");
    EXPECT_OK(oa_node_set_num_inputs(relu, 0));
    EXPECT_FAIL(oa_graph_infer(g), OA_E_GE_PARAM, "then/relu (Relu): required input 0 (x) is not connected");
    oa_graph_destroy(g);
}

/* A subgraph "Data(index 0) -> op -> NetOutput" owned by `owner`. */
static oa_graph *one_op_subgraph(oa_node *owner, const char *slot, const char *name, oa_op_type t)
{
    oa_graph *sg;
    EXPECT_OK(oa_graph_create_subgraph(owner, slot, name, &sg));
    char nm[64];
    snprintf(nm, sizeof(nm), "%s/x", name);
    oa_node *d = tu_data(sg, nm, OA_DT_FLOAT, "?");
    oa_node *op;
    snprintf(nm, sizeof(nm), "%s/op", name);
    if (t == OA_OP_CONCAT_D) {
        oa_node *s2[2] = {d, d};
        op = tu_op(sg, t, nm, 2, 1, s2);
        EXPECT_OK(oa_node_set_int(op, "concat_dim", 0));
    } else {
        op = tu_op1(sg, t, nm, 1, d);
    }
    snprintf(nm, sizeof(nm), "%s/out", name);
    (void)tu_op1(sg, OA_OP_NET_OUTPUT, nm, 1, op);
    return sg;
}

/*
 * Case picks the branch named by a known index; PartitionedCall returns f's
 * outputs; While widens loop variables until the body is stable:
 *
 *   While(x [2]) with body x -> Concat(x, x): [2] -> [4] -> ... => [-1]
 */
static void case_call_while(void **state)
{
    (void)state;
    oa_graph *g = new_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "2");
    oa_node *cs[2] = {tu_const(g, "idx", OA_DT_INT32, "", &(int32_t){1}), x};
    oa_node *cs_node = tu_op(g, OA_OP_CASE, "case", 2, 1, cs);
    (void)one_op_subgraph(cs_node, "branches", "b0", OA_OP_RELU);
    (void)one_op_subgraph(cs_node, "branches", "b1", OA_OP_CONCAT_D);
    oa_node *pc = tu_op1(g, OA_OP_PARTITIONED_CALL, "call", 1, x);
    (void)one_op_subgraph(pc, "f", "f", OA_OP_NEG);
    oa_node *wh = tu_op1(g, OA_OP_WHILE, "while", 1, x);
    (void)one_op_subgraph(wh, "cond", "cond", OA_OP_IDENTITY);
    (void)one_op_subgraph(wh, "body", "body", OA_OP_CONCAT_D);
    EXPECT_OK(oa_graph_infer(g));
    EXPECT_DESC(cs_node, 0, "f32[4]");
    EXPECT_DESC(pc, 0, "f32[2]");
    char b[64];
    oa_desc_str(oa_node_output_desc(wh, 0), b, sizeof(b));
    assert_int_equal(strncmp(b, "f32[-1]", 7), 0);
    EXPECT_OK(oa_graph_validate(g));
    oa_graph_destroy(g);
}

/*
 * Gear selection and layout conversion (ops the compiler inserts):
 *
 *   shape_data [2] = (48,320) ─┐
 *   gears [6] = 32,160, 48,320, 64,640 ─┴▶ MapIndex ─▶ i32[] = 1
 *
 *   x f32[1,20,8,8] ─▶ TransData(NCHW→NC1HWC0) ─▶ f32[1,2,8,8,16] ─▶ TransData(back) ─▶ f32[1,20,8,8]
 */
static void map_index_and_trans_data(void **state)
{
    (void)state;
    oa_graph *g = new_graph();
    const int64_t cur[2] = {48, 320}, gears[6] = {32, 160, 48, 320, 64, 640}, other[2] = {1, 2};
    oa_node *mi_in[2] = {tu_i64(g, "cur", "2", cur), tu_i64(g, "gears", "6", gears)};
    oa_node *mi = tu_opn(g, OA_OP_MAP_INDEX, "mi", 3, 1, mi_in, 2);
    oa_node *mo_in[2] = {tu_i64(g, "other", "2", other), mi_in[1]};
    oa_node *miss = tu_opn(g, OA_OP_MAP_INDEX, "miss", 3, 1, mo_in, 2);
    oa_node *dyn_in[2] = {tu_data(g, "sd", OA_DT_INT32, "2"), mi_in[1]};
    oa_node *dyn = tu_opn(g, OA_OP_MAP_INDEX, "dyn", 3, 1, dyn_in, 2);
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,20,8,8");
    oa_node *to = tu_op1(g, OA_OP_TRANS_DATA, "to", 1, x);
    EXPECT_OK(oa_node_set_str(to, "src_format", "NCHW"));
    EXPECT_OK(oa_node_set_str(to, "dst_format", "NC1HWC0"));
    oa_node *back = tu_op1(g, OA_OP_TRANS_DATA, "back", 1, to);
    EXPECT_OK(oa_node_set_str(back, "src_format", "NC1HWC0"));
    EXPECT_OK(oa_node_set_str(back, "dst_format", "NCHW"));
    EXPECT_OK(oa_graph_infer(g));
    EXPECT_DESC(mi, 0, "i32[]");
    assert_non_null(oa_node_output_desc(mi, 0)->value);
    assert_int_equal(oa_node_output_desc(mi, 0)->value->i[0], 1);
    assert_int_equal(oa_node_output_desc(miss, 0)->value->i[0], -1);
    assert_null(oa_node_output_desc(dyn, 0)->value);
    EXPECT_DESC(to, 0, "f32[1,2,8,8,16]");
    EXPECT_DESC(back, 0, "f32[1,32,8,8]");
    /* The real channel count comes back through the origin shape. */
    oa_tensor_desc *od = oa_node_output_desc(to, 0);
    od->origin_shape_set = true;
    od->origin_shape = tu_shape("1,20,8,8");
    EXPECT_OK(oa_infer_node(back));
    EXPECT_DESC(back, 0, "f32[1,20,8,8]");
    EXPECT_OK(oa_node_set_str(back, "dst_format", "NHWC"));
    EXPECT_FAIL(oa_infer_node(back), OA_E_FEATURE_UNSUPPORTED, "NC1HWC0 -> NHWC is not supported");
    EXPECT_OK(oa_node_set_str(back, "dst_format", "bogus"));
    EXPECT_FAIL(oa_infer_node(back), OA_E_GE_PARAM, "src_format and dst_format");
    oa_graph_destroy(g);
}

static void input_shapes(void **state)
{
    (void)state;
    oa_graph *g = new_graph();
    oa_node *x = tu_data(g, "x:0", OA_DT_FLOAT, "-1,3,-1,-1");
    oa_node *sr = tu_data(g, "sr", OA_DT_INT64, "?");
    EXPECT_OK(oa_graph_set_input_shapes(g, " x:0 : 1,3,224,224 ; sr: "));
    EXPECT_DESC(x, 0, "f32[1,3,224,224]");
    EXPECT_DESC(sr, 0, "i64[]");
    EXPECT_OK(oa_graph_set_input_shapes(g, "x:0:1~4,3,-1,224"));
    EXPECT_DESC(x, 0, "f32[-1,3,-1,224] range[1~4,3~3,0~-1,224~224]");
    EXPECT_FAIL(oa_graph_set_input_shapes(g, "y:1"), OA_E_PARAM, "not a model input (inputs: x:0, sr)");
    EXPECT_FAIL(oa_graph_set_input_shapes(g, "x:0:1,4,224,224"), OA_E_PARAM, "dim 1 is 4 but the model fixes it to 3");
    EXPECT_OK(oa_graph_set_input_shapes(g, "x:0:1,3,224,224"));
    EXPECT_FAIL(oa_graph_set_input_shapes(g, "x:0:1,3,224"), OA_E_PARAM, "has rank 3 but the model declares");
    EXPECT_FAIL(oa_graph_set_input_shapes(g, "x:0:1,a,3,3"), OA_E_PARAM, "bad dim [a]");
    EXPECT_FAIL(oa_graph_set_input_shapes(g, "x:0:1,-3,3,3"), OA_E_PARAM, "dim 1 is -3");
    EXPECT_FAIL(oa_graph_set_input_shapes(g, "x:0:5~2,3,3,3"), OA_E_PARAM, "range 5~2 is invalid");
    EXPECT_FAIL(oa_graph_set_input_shapes(g, "nocolon"), OA_E_PARAM, "has no ':'");
    EXPECT_FAIL(oa_graph_set_input_shapes(g, "sr:;sr:"), OA_E_PARAM, "given twice");
    EXPECT_FAIL(oa_graph_set_input_shapes(g, "x:0:1,1,1,1,1,1,1,1,1"), OA_E_PARAM, "more than 8 dims");
    EXPECT_FAIL(oa_graph_set_input_shapes(g, "x:0:99999999999999999999999,3,3,3"), OA_E_PARAM, "bad dim");
    EXPECT_OK(oa_graph_set_input_shapes(g, ""));
    EXPECT_FAIL(oa_graph_set_input_shape(x, NULL, NULL, NULL), OA_E_PARAM, "Data node");
    oa_graph_destroy(g);
}

/* Absurd static shapes are rejected instead of overflowing sizes. */
static void huge_shapes_are_rejected(void **state)
{
    (void)state;
    oa_graph *g = new_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1");
    const int64_t big[2] = {INT64_MAX / 2, 16};
    oa_node *fs[2] = {tu_i64(g, "dims", "2", big), tu_const(g, "v", OA_DT_FLOAT, "", &(float){1})};
    (void)tu_op(g, OA_OP_FILL, "fill", 2, 1, fs);
    (void)x;
    EXPECT_FAIL(oa_graph_infer(g), OA_E_GE_SHAPE, "is too large");
    oa_graph_destroy(g);
}

/*
 * Every op's inference survives nonsense: all inputs unconnected, then all
 * inputs connected to scalars, to unknown-rank tensors and to rank-8
 * tensors with huge dims. Each call must return (OK or an error), never
 * crash; ASan/UBSan builds check the memory side.
 */
static void every_op_is_robust(void **state)
{
    (void)state;
    static const char *const SHAPES[] = {"", "?", "1,1,1,1,1,1,1,1", "3", "2,0,4", "-1,-1,-1,-1"};
    for (int t = 0; t < OA_OP_COUNT; t++) {
        oa_op_io ins[16], outs[16];
        size_t ni = oa_op_ir_inputs((oa_op_type)t, ins, 16);
        size_t no = oa_op_ir_outputs((oa_op_type)t, outs, 16);
        uint32_t nin = (uint32_t)(ni ? ni + (oa_op_has_dynamic_inputs((oa_op_type)t) ? 1 : 0) : 0);
        uint32_t nout = (uint32_t)(no ? no : 1) + 1;
        if (t == OA_OP_NET_OUTPUT || t == OA_OP_WHILE) {
            nout = nin;
        }
        for (size_t k = 0; k <= sizeof(SHAPES) / sizeof(SHAPES[0]); k++) {
            oa_graph *g = new_graph();
            oa_node *src = NULL;
            if (k > 0) {
                src = tu_data(g, "in", k % 2 ? OA_DT_INT64 : OA_DT_FLOAT, SHAPES[k - 1]);
            }
            oa_node *n;
            EXPECT_OK(oa_graph_add_node(g, (oa_op_type)t, "op", nin, nout, &n));
            for (uint32_t i = 0; src && i < nin; i++) {
                EXPECT_OK(oa_node_connect(n, i, src, 0));
            }
            oa_status ist = oa_infer_node(n);
            (void)ist;
            (void)oa_error_take_messages();
            oa_graph_destroy(g);
        }
    }
}

/* The runtime's path: inference on caller-owned descs leaves the node's
 * own descs alone. */
static void infer_on_external_descs(void **state)
{
    (void)state;
    const int64_t s1[4] = {1, 1, 1, 1}, p0[4] = {0, 0, 0, 0};
    oa_graph *g = new_graph();
    oa_node *c = conv_node(g, "1,3,8,8", "4,3,3,3", s1, p0, NULL, 1);
    EXPECT_OK(oa_graph_infer(g));
    EXPECT_DESC(c, 0, "f32[1,4,6,6]");
    oa_tensor_desc x, w, y;
    oa_desc_init(&x);
    x.shape = tu_shape("5,3,10,12");
    w = c->inputs[1].desc;
    oa_desc_init(&y);
    const oa_tensor_desc *in[2] = {&x, &w};
    oa_tensor_desc *out[1] = {&y};
    oa_arena *scratch = oa_arena_create(0);
    EXPECT_OK(oa_infer_run(c, in, 2, out, 1, scratch));
    char b[64];
    assert_string_equal(oa_desc_str(&y, b, sizeof(b)), "f32[5,4,8,10]");
    EXPECT_DESC(c, 0, "f32[1,4,6,6]");
    EXPECT_FAIL(oa_infer_run(c, in, 2, out, 0, scratch), OA_E_PARAM, "0 output descs given, node has 1");
    oa_arena_destroy(scratch);
    oa_graph_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(broadcasting),
        cmocka_unit_test(ranges_propagate),
        cmocka_unit_test(value_chain_makes_shapes_static),
        cmocka_unit_test(gather_elements),
        cmocka_unit_test(index_ops),
        cmocka_unit_test(flatten_negative_axis),
        cmocka_unit_test(resize_chain_through_floats),
        cmocka_unit_test(conv_and_pool),
        cmocka_unit_test(matmul_family),
        cmocka_unit_test(reshape_rules),
        cmocka_unit_test(slicing_and_indexing),
        cmocka_unit_test(concat_split_values_and_shapes),
        cmocka_unit_test(reductions_and_others),
        cmocka_unit_test(control_flow),
        cmocka_unit_test(case_call_while),
        cmocka_unit_test(map_index_and_trans_data),
        cmocka_unit_test(input_shapes),
        cmocka_unit_test(huge_shapes_are_rejected),
        cmocka_unit_test(infer_on_external_descs),
        cmocka_unit_test(every_op_is_robust),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * compiler/pass_fuse.c: scalar affine steps after a post-op host become one
 * "Linear" post-op (alpha*y + beta), and squeeze-excitation's x + x*s
 * becomes x*(1 + s) with Linear(1, 1) on the host of s. Each test draws its
 * graph; the values are checked by evaluating the original ops and the
 * fused post-op chain on sample inputs (the kernels' formulas,
 * src/kernels/kernels.h), and near misses must stay unfused. Also
 * x * Sigmoid(c * x) as Swish(c) (PP-OCRv4 rec's swish, c = 1.0).
 */
#include "compiler_test_util.h"

/* Runs fusion on g and returns the post-op list of `host`. */
static const char *fused(oa_graph *g, oa_node *host, char *buf, size_t cap)
{
    ct_infer(g);
    EXPECT_OK(oa_pass_fuse_post_ops(g, NULL));
    EXPECT_OK(oa_graph_validate(g));
    return ct_posts(host, buf, cap);
}

static double hswish(double v)
{
    return v * fmax(0.0, fmin(6.0, v + 3.0)) / 6.0;
}

static double hsig(double v, double a, double b)
{
    return fmax(0.0, fmin(1.0, a * v + b));
}

/* The post-op chain of host applied to v (the entries these tests use). */
static double run_chain(const oa_node *host, double v)
{
    const char *const *ops;
    const float *al, *be;
    size_t n, na, nb;
    assert_true(oa_attrs_get_list_str(&host->attrs, "_oa_post_ops", &ops, &n));
    assert_true(oa_attrs_get_list_float(&host->attrs, "_oa_post_alpha", &al, &na));
    assert_true(oa_attrs_get_list_float(&host->attrs, "_oa_post_beta", &be, &nb));
    assert_int_equal(na, n);
    assert_int_equal(nb, n);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(ops[i], "HardSwish") == 0) {
            v = hswish(v);
        } else if (strcmp(ops[i], "HardSigmoid") == 0) {
            v = hsig(v, al[i], be[i]);
        } else if (strcmp(ops[i], "Relu") == 0) {
            v = v > 0 ? v : 0;
        } else if (strcmp(ops[i], "Clip") == 0) {
            v = fmin(fmax(v, al[i]), be[i]);
        } else if (strcmp(ops[i], "LeakyRelu") == 0) {
            v = v > 0 ? v : al[i] * v;
        } else if (strcmp(ops[i], "Linear") == 0) {
            v = al[i] * v + be[i];
        } else if (strcmp(ops[i], "Swish") == 0) {
            v = v / (1.0 + exp(-al[i] * v));
        } else {
            fail_msg("unexpected post-op %s", ops[i]);
        }
    }
    return v;
}

static const double k_samples[] = {-7.5, -3.0, -1.25, -0.1, 0.0, 0.3, 1.7, 2.9, 4.2, 11.0};

/*
 * PP-OCRv4 det's backbone, the affine after HardSwish (the next conv is a
 * padded depthwise one, so fold_input_affine cannot take it):
 *
 *   x ─▶ Conv2D ─▶ HardSwish ─▶ Mul(0.633) ─▶ Add(-0.547) ─▶ Sub(0.25) ─▶ Neg ─▶ out
 *
 * becomes Conv2D [HardSwish, Linear(0.633, -0.797)] ─▶ Neg; the three
 * scalar steps merge into one entry. Variant 1 spells them c*y, y/c, c+y.
 */
static void fuse_linear_after_activation(void **state)
{
    (void)state;
    for (int variant = 0; variant < 2; variant++) {
        oa_graph *g = ct_graph();
        oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,2,3,3");
        oa_node *conv = ct_conv(g, "conv", x, ct_f32(g, "w", "2,2,1,1", 1, 0), NULL);
        oa_node *hs = tu_op1(g, OA_OP_HARD_SWISH, "hswish", 1, conv);
        oa_node *a, *b, *c;
        if (variant == 0) {
            a = ct_bin(g, OA_OP_MUL, "mul", hs, ct_f32(g, "c0", "", 0.633f, 0));
            b = ct_bin(g, OA_OP_ADD, "add", a, ct_f32(g, "c1", "1", -0.547f, 0));
            c = ct_bin(g, OA_OP_SUB, "sub", b, ct_f32(g, "c2", "", 0.25f, 0));
        } else {
            a = ct_bin(g, OA_OP_MUL, "mul", ct_f32(g, "c0", "", 0.633f, 0), hs);
            b = ct_bin(g, OA_OP_REAL_DIV, "div", a, ct_f32(g, "c1", "", 4.0f, 0));
            c = ct_bin(g, OA_OP_ADD, "add", ct_f32(g, "c2", "1,1,1,1", 0.125f, 0), b);
        }
        oa_node *neg = tu_op1(g, OA_OP_NEG, "after", 1, c);
        (void)ct_out(g, &neg, 1);
        char buf[128];
        assert_string_equal(fused(g, conv, buf, sizeof(buf)), "HardSwish,Linear");
        assert_ptr_equal(oa_node_input_src(neg, 0, NULL), conv);
        assert_int_equal(ct_count(g, OA_OP_MUL) + ct_count(g, OA_OP_ADD) + ct_count(g, OA_OP_SUB) +
                             ct_count(g, OA_OP_REAL_DIV),
                         0);
        for (size_t i = 0; i < sizeof(k_samples) / sizeof(k_samples[0]); i++) {
            const double y = k_samples[i];
            const double want = variant == 0 ? (hswish(y) * 0.633 + -0.547) - 0.25 : 0.125 + (0.633 * hswish(y)) / 4.0;
            assert_float_equal(run_chain(conv, y), want, 1e-6 * fmax(1.0, fabs(want)));
        }
        /* the swallowed names stay for dumps: conv, then 1 + 3 ops */
        const char *const *names;
        size_t nn;
        assert_true(oa_attrs_get_list_str(&conv->attrs, "_datadump_original_op_names", &names, &nn));
        assert_int_equal(nn, 5);
        oa_graph_destroy(g);
    }
}

/*
 * A full chain (4 entries) still takes scalar steps when its last entry is
 * a Linear, merged into it:
 *   Conv2D ─▶ Relu ─▶ Clip(0,6) ─▶ LeakyRelu(0.1) ─▶ Mul(2) ─▶ Add(1) ─▶ Mul(3) ─▶ out
 */
static void fuse_linear_merges_into_full_chain(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,2,3,3");
    oa_node *conv = ct_conv(g, "conv", x, ct_f32(g, "w", "2,2,1,1", 1, 0), NULL);
    oa_node *relu = tu_op1(g, OA_OP_RELU, "relu", 1, conv);
    oa_node *relu6 = tu_op1(g, OA_OP_RELU6, "relu6", 1, relu);
    oa_node *lrelu = tu_op1(g, OA_OP_LEAKY_RELU, "lrelu", 1, relu6);
    EXPECT_OK(oa_node_set_float(lrelu, "negative_slope", 0.1f));
    oa_node *m1 = ct_bin(g, OA_OP_MUL, "m1", lrelu, ct_f32(g, "two", "", 2, 0));
    oa_node *a1 = ct_bin(g, OA_OP_ADD, "a1", m1, ct_f32(g, "one", "", 1, 0));
    oa_node *m2 = ct_bin(g, OA_OP_MUL, "m2", a1, ct_f32(g, "three", "", 3, 0));
    oa_node *sig = tu_op1(g, OA_OP_SIGMOID, "sig", 1, m2);
    (void)ct_out(g, &sig, 1);
    char buf[128];
    assert_string_equal(fused(g, conv, buf, sizeof(buf)), "Relu,Clip,LeakyRelu,Linear");
    assert_ptr_equal(oa_node_input_src(sig, 0, NULL), conv); /* the Sigmoid finds no room */
    for (size_t i = 0; i < sizeof(k_samples) / sizeof(k_samples[0]); i++) {
        const double y = k_samples[i];
        const double r = fmin(fmax(y, 0.0), 6.0);
        assert_float_equal(run_chain(conv, y), (r * 2 + 1) * 3, 1e-5);
    }
    oa_graph_destroy(g);
}

/*
 * Near misses stay as they are:
 *   0  Mul by a per-channel constant [1,2,1,1] (not a scalar)
 *   1  c - y (the host value is the subtrahend)
 *   2  c / y (the host value is the divisor)
 *   3  y / 0
 *   4  Mul by a non-constant of y's shape
 *   5  the host's own value is also a graph output (two readers): nothing fuses
 */
static void fuse_linear_refusals(void **state)
{
    (void)state;
    for (int variant = 0; variant < 6; variant++) {
        oa_graph *g = ct_graph();
        oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,2,3,3");
        oa_node *conv = ct_conv(g, "conv", x, ct_f32(g, "w", "2,2,1,1", 1, 0), NULL);
        oa_node *relu = tu_op1(g, OA_OP_RELU, "relu", 1, conv);
        oa_node *e;
        switch (variant) {
        case 0: e = ct_bin(g, OA_OP_MUL, "e", relu, ct_f32(g, "c", "1,2,1,1", 0.5f, 0.25f)); break;
        case 1: e = ct_bin(g, OA_OP_SUB, "e", ct_f32(g, "c", "", 1, 0), relu); break;
        case 2: e = ct_bin(g, OA_OP_REAL_DIV, "e", ct_f32(g, "c", "", 1, 0), relu); break;
        case 3: e = ct_bin(g, OA_OP_REAL_DIV, "e", relu, ct_f32(g, "c", "", 0, 0)); break;
        case 4: e = ct_bin(g, OA_OP_MUL, "e", relu, tu_data(g, "z", OA_DT_FLOAT, "1,2,3,3")); break;
        default: e = ct_bin(g, OA_OP_MUL, "e", relu, ct_f32(g, "c", "", 2, 0)); break;
        }
        oa_node *outs[2] = {e, conv};
        (void)ct_out(g, outs, variant == 5 ? 2 : 1);
        char buf[128];
        /* variant 5: the Relu cannot join either (the conv's own value is an output) */
        assert_string_equal(fused(g, conv, buf, sizeof(buf)), variant == 5 ? "" : "Relu");
        assert_non_null(oa_graph_find_node(g, "e"));
        oa_graph_destroy(g);
    }
}

/*
 * PP-OCRv4 det's neck, squeeze-excitation with a residual:
 *
 *   x ─▶ Conv2D(a) ─▶ y ─┬──────────────────────────┐
 *                        ├─▶ Mul(y, s) ──────────────▶ Add ─▶ Neg ─▶ out
 *   t ─▶ Conv2D(b) ─▶ HardSigmoid = s ─┘
 *
 * becomes Conv2D(b) [HardSigmoid, Linear(1, 1)] and Mul(y, s') ─▶ Neg: no
 * Add left. Variant 1 swaps every operand order.
 */
static void fuse_se_residual(void **state)
{
    (void)state;
    for (int variant = 0; variant < 2; variant++) {
        oa_graph *g = ct_graph();
        oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,2,3,3");
        oa_node *t = tu_data(g, "t", OA_DT_FLOAT, "1,2,1,1");
        oa_node *ya = ct_conv(g, "conv_a", x, ct_f32(g, "wa", "2,2,1,1", 1, 0), NULL);
        oa_node *sb = ct_conv(g, "conv_b", t, ct_f32(g, "wb", "2,2,1,1", 0.5f, 0), NULL);
        oa_node *hs = tu_op1(g, OA_OP_HARD_SIGMOID, "hsig", 1, sb);
        EXPECT_OK(oa_node_set_float(hs, "alpha", 0.2f));
        EXPECT_OK(oa_node_set_float(hs, "beta", 0.5f));
        oa_node *mul = variant == 0 ? ct_bin(g, OA_OP_MUL, "mul", ya, hs) : ct_bin(g, OA_OP_MUL, "mul", hs, ya);
        oa_node *add = variant == 0 ? ct_bin(g, OA_OP_ADD, "add", ya, mul) : ct_bin(g, OA_OP_ADD, "add", mul, ya);
        oa_node *neg = tu_op1(g, OA_OP_NEG, "after", 1, add);
        (void)ct_out(g, &neg, 1);
        char buf[128];
        assert_string_equal(fused(g, sb, buf, sizeof(buf)), "HardSigmoid,Linear");
        assert_string_equal(ct_posts(ya, buf, sizeof(buf)), "");
        assert_null(oa_graph_find_node(g, "add"));
        assert_ptr_equal(oa_node_input_src(neg, 0, NULL), mul);
        EXPECT_DESC(mul, 0, "f32[1,2,3,3]");
        /* y + y * hsig(v) against y * chain(v) */
        for (size_t i = 0; i < sizeof(k_samples) / sizeof(k_samples[0]); i++) {
            for (size_t j = 0; j < sizeof(k_samples) / sizeof(k_samples[0]); j++) {
                const double y = k_samples[i], v = k_samples[j];
                const double want = y + y * hsig(v, 0.2, 0.5);
                assert_float_equal(y * run_chain(sb, v), want, 1e-6 * fmax(1.0, fabs(want)));
            }
        }
        oa_graph_destroy(g);
    }
}

/*
 * Near misses of the squeeze-excitation residual, all left alone:
 *   0  Add(z, Mul(y, s)) with z another tensor than y
 *   1  s also read elsewhere (graph output): changing its host would change it
 *   2  Mul(y, s) also read elsewhere
 *   3  s from a non-host op (a Sigmoid of a graph input)
 */
static void fuse_se_residual_refusals(void **state)
{
    (void)state;
    for (int variant = 0; variant < 4; variant++) {
        oa_graph *g = ct_graph();
        oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,2,3,3");
        oa_node *t = tu_data(g, "t", OA_DT_FLOAT, "1,2,1,1");
        oa_node *ya = ct_conv(g, "conv_a", x, ct_f32(g, "wa", "2,2,1,1", 1, 0), NULL);
        oa_node *sb = ct_conv(g, "conv_b", t, ct_f32(g, "wb", "2,2,1,1", 0.5f, 0), NULL);
        oa_node *s = variant == 3 ? tu_op1(g, OA_OP_SIGMOID, "sig", 1, t) : tu_op1(g, OA_OP_HARD_SIGMOID, "hsig", 1, sb);
        oa_node *mul = ct_bin(g, OA_OP_MUL, "mul", ya, s);
        oa_node *z = variant == 0 ? tu_data(g, "z", OA_DT_FLOAT, "1,2,3,3") : ya;
        oa_node *add = ct_bin(g, OA_OP_ADD, "add", z, mul);
        oa_node *outs[2] = {add, variant == 1 ? s : (variant == 2 ? mul : sb)};
        (void)ct_out(g, outs, variant == 0 ? 1 : 2);
        char buf[128];
        const char *posts = fused(g, sb, buf, sizeof(buf));
        assert_string_equal(posts, variant == 3 ? "" : "HardSigmoid");
        assert_non_null(oa_graph_find_node(g, "add"));
        assert_non_null(oa_graph_find_node(g, "mul"));
        oa_graph_destroy(g);
    }
}

/*
 * PP-OCRv4 rec's swish on a MatMul (variant 0, c = 1.0) and on a conv with
 * another scale and operand orders (variant 1, c = 0.5):
 *
 *   y ─┬─▶ Mul(c) ─▶ Sigmoid ─┐
 *      └──────────────────────▶ Mul ─▶ Neg ─▶ out      = Swish(c)
 *
 * Near misses (variants 2, 3): a per-channel scale, and the scaled value
 * also read elsewhere; then nothing fuses.
 */
static void fuse_swish_scaled(void **state)
{
    (void)state;
    for (int variant = 0; variant < 4; variant++) {
        oa_graph *g = ct_graph();
        oa_node *host;
        if (variant == 0) {
            oa_node *a = tu_data(g, "a", OA_DT_FLOAT, "1,4,8");
            host = ct_bin(g, OA_OP_BATCH_MAT_MUL_V2, "host", a, ct_f32(g, "w", "8,16", 0, 0.01f));
        } else {
            oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,2,3,3");
            host = ct_conv(g, "host", x, ct_f32(g, "w", "2,2,1,1", 1, 0), NULL);
        }
        const float c = variant == 0 ? 1.0f : 0.5f;
        oa_node *cst = variant == 2 ? ct_f32(g, "c", "1,2,1,1", 0.5f, 0.25f) : ct_f32(g, "c", "", c, 0);
        oa_node *sc = variant == 0 ? ct_bin(g, OA_OP_MUL, "scale", host, cst) : ct_bin(g, OA_OP_MUL, "scale", cst, host);
        oa_node *sg = tu_op1(g, OA_OP_SIGMOID, "sig", 1, sc);
        oa_node *mul = variant == 0 ? ct_bin(g, OA_OP_MUL, "mul", host, sg) : ct_bin(g, OA_OP_MUL, "mul", sg, host);
        oa_node *neg = tu_op1(g, OA_OP_NEG, "after", 1, mul);
        oa_node *outs[2] = {neg, sc};
        (void)ct_out(g, outs, variant == 3 ? 2 : 1);
        char buf[64];
        assert_string_equal(fused(g, host, buf, sizeof(buf)), variant < 2 ? "Swish" : "");
        if (variant < 2) {
            assert_ptr_equal(oa_node_input_src(neg, 0, NULL), host);
            assert_int_equal(ct_count(g, OA_OP_MUL) + ct_count(g, OA_OP_SIGMOID), 0);
            for (size_t i = 0; i < sizeof(k_samples) / sizeof(k_samples[0]); i++) {
                const double y = k_samples[i], want = y * (1.0 / (1.0 + exp(-(double)c * y)));
                assert_float_equal(run_chain(host, y), want, 1e-6 * fmax(1.0, fabs(want)));
            }
        } else {
            assert_int_equal(ct_count(g, OA_OP_MUL), 2);
        }
        oa_graph_destroy(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fuse_linear_after_activation),
        cmocka_unit_test(fuse_linear_merges_into_full_chain),
        cmocka_unit_test(fuse_linear_refusals),
        cmocka_unit_test(fuse_se_residual),
        cmocka_unit_test(fuse_se_residual_refusals),
        cmocka_unit_test(fuse_swish_scaled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * compiler/: the pipeline on hand-built graphs -- static memory plans
 * (zero-copy IO, in-place, subgraph regions), I/O options, gears (parsing
 * with CANN's messages, the multi-batch structure), dynamic models.
 */
#include "compiler_test_util.h"

#include "compiler/compiler_internal.h"
#include "../onnx/onnx_builder.h"

#include <sys/stat.h>
#include <unistd.h>

static oa_compiled_model *compile_ok(oa_graph *g, const oa_compile_options *opt)
{
    oa_compiled_model *cm = NULL;
    oa_status st = oa_compile_graph(g, opt, &cm);
    if (st != OA_OK) {
        const char *m = oa_error_take_messages();
        print_error("compile failed: %s: %s\n", oa_status_str(st), m ? m : "");
        fail();
    }
    return cm;
}

/* compile_ok with fusion off (the plans below are about the unfused ops) */
static oa_compiled_model *compile_unfused(oa_graph *g, bool no_reuse)
{
    oa_compile_options opt;
    oa_compile_options_init(&opt);
    opt.disable = OA_NO_FUSE;
    opt.disable_reuse = no_reuse;
    return compile_ok(g, &opt);
}

static const oa_node_mem *mem_of(const oa_compiled_model *cm, const oa_graph *g, const char *name)
{
    const oa_node *n = oa_graph_find_node(g, name);
    assert_non_null(n);
    const oa_node_mem *r = oa_mem_plan_node(cm->plan, n);
    assert_non_null(r);
    return r;
}

static int64_t model_attr_int(const oa_compiled_model *cm, const char *name)
{
    int64_t v = -1;
    assert_true(oa_attrs_get_int(&cm->model_attrs, name, &v));
    return v;
}

/*
 *   x[1,4] ─▶ Relu ─▶ out
 * Even the smallest model has a non-zero memory_size: its input and output
 * live in the zero-copy region.
 */
static void plan_tiny_model(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,4");
    oa_node *r = tu_op1(g, OA_OP_RELU, "relu", 1, x);
    (void)ct_out(g, &r, 1);
    oa_compile_options opt;
    oa_compile_options_init(&opt);
    oa_compiled_model *cm = compile_ok(g, &opt);
    g = cm->graph;
    const oa_mem_plan *p = cm->plan;
    assert_non_null(p);
    assert_false(cm->is_dynamic);
    assert_int_equal(p->feature_map_size, 0);
    assert_int_equal(p->zero_copy_size, 128);
    assert_int_equal(p->memory_size, 128);
    assert_int_equal(model_attr_int(cm, "memory_size"), 128);
    assert_int_equal(model_attr_int(cm, "zero_copy_memory_size"), 128);
    assert_int_equal(mem_of(cm, g, "x")->output[0], 0);
    assert_int_equal(mem_of(cm, g, "relu")->input[0], 0);
    assert_int_equal(mem_of(cm, g, "relu")->output[0], 64);
    assert_int_equal(mem_of(cm, g, "Node_Output")->input[0], 64);
    EXPECT_OK(oa_compiled_model_check_plan(cm));
    assert_int_equal(cm->num_outputs, 1);
    assert_string_equal(cm->output_names[0], "relu:0");
    oa_compiled_model_destroy(cm);
}

/*
 *   x[1,2,4,4] ─▶ conv ─▶ Sigmoid ─▶ Neg ─▶ conv2 ─▶ out
 *                 (w)                       (w2)
 * With fusion off: Sigmoid and Neg run in place over conv's output; the
 * weights are not in the feature map.
 */
static void plan_inplace_and_weights(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,2,4,4");
    oa_node *conv = ct_conv(g, "conv", x, ct_f32(g, "w", "2,2,1,1", 1, 0), NULL);
    oa_node *sig = tu_op1(g, OA_OP_SIGMOID, "sig", 1, conv);
    oa_node *neg = tu_op1(g, OA_OP_NEG, "neg", 1, sig);
    oa_node *conv2 = ct_conv(g, "conv2", neg, ct_f32(g, "w2", "2,2,1,1", 1, 0), NULL);
    (void)ct_out(g, &conv2, 1);
    oa_compile_options opt;
    oa_compile_options_init(&opt);
    opt.disable = OA_NO_FUSE;
    oa_compiled_model *cm = compile_ok(g, &opt);
    g = cm->graph;
    int64_t c = mem_of(cm, g, "conv")->output[0];
    assert_int_equal(mem_of(cm, g, "sig")->output[0], c);
    assert_int_equal(mem_of(cm, g, "neg")->output[0], c);
    assert_int_equal(cm->plan->feature_map_size, 128);
    assert_int_equal(cm->plan->stats.num_inplace, 2);
    assert_int_equal(mem_of(cm, g, "w")->output[0], OA_MEM_NONE);
    assert_int_equal(mem_of(cm, g, "conv")->input[1], OA_MEM_NONE);
    assert_int_equal(mem_of(cm, g, "conv")->input[2], OA_MEM_NONE); /* unconnected bias slot */
    EXPECT_OK(oa_compiled_model_check_plan(cm));
    oa_compiled_model_destroy(cm);
    /* --disable_reuse_memory: three distinct buffers. */
    g = ct_graph();
    x = tu_data(g, "x", OA_DT_FLOAT, "1,2,4,4");
    conv = ct_conv(g, "conv", x, ct_f32(g, "w", "2,2,1,1", 1, 0), NULL);
    sig = tu_op1(g, OA_OP_SIGMOID, "sig", 1, conv);
    neg = tu_op1(g, OA_OP_NEG, "neg", 1, sig);
    conv2 = ct_conv(g, "conv2", neg, ct_f32(g, "w2", "2,2,1,1", 1, 0), NULL);
    (void)ct_out(g, &conv2, 1);
    opt.disable_reuse = true;
    cm = compile_ok(g, &opt);
    assert_int_equal(cm->plan->feature_map_size, 3 * 128);
    assert_int_equal(cm->plan->stats.num_inplace, 0);
    EXPECT_OK(oa_compiled_model_check_plan(cm));
    oa_compiled_model_destroy(cm);
}

/* ConcatD of srcs along dim. */
static oa_node *concat_of(oa_graph *g, const char *name, oa_node *const *srcs, uint32_t n, int64_t dim)
{
    oa_node *c = tu_opn(g, OA_OP_CONCAT_D, name, n, 1, srcs, n);
    EXPECT_OK(oa_node_set_int(c, "concat_dim", dim));
    return c;
}

/* Is output 0 of `part` planned at byte `at` of output 0 of `whole`? */
static bool lies_at(const oa_compiled_model *cm, const char *part, const char *whole, int64_t at)
{
    return mem_of(cm, cm->graph, part)->output[0] == mem_of(cm, cm->graph, whole)->output[0] + at;
}

/*
 *   x[R,64] ─▶ Neg ─┐
 *   x ──────▶ Abs ─┴▶ ConcatD(dim 1) ─▶ Relu ─▶ out
 * Concat in place (docs/memory.md): with R == 1 the inputs lie back to back in
 * the output, so Neg and Abs write there; with R == 2 they interleave and keep
 * their own memory. The same value twice, or a second input at an offset that
 * is not 64-byte aligned, is not pinned either. As a model output, the parts
 * lie in its zero-copy slot; under --disable_reuse_memory nothing is pinned.
 */
static oa_compiled_model *concat_model(const char *xshape, bool twice, bool as_output, bool no_reuse)
{
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, xshape);
    oa_node *neg = tu_op1(g, OA_OP_NEG, "neg", 1, x);
    oa_node *abs = tu_op1(g, OA_OP_ABS, "abs", 1, x);
    oa_node *parts[2] = {neg, twice ? neg : abs};
    oa_node *cc = concat_of(g, "cc", parts, 2, 1);
    oa_node *y = as_output ? cc : tu_op1(g, OA_OP_RELU, "relu", 1, cc);
    oa_node *outs[2] = {y, abs};
    (void)ct_out(g, outs, twice ? 2 : 1);
    oa_compiled_model *cm = compile_unfused(g, no_reuse);
    EXPECT_OK(oa_compiled_model_check_plan(cm));
    return cm;
}

static void plan_concat_in_place(void **state)
{
    (void)state;
    oa_compiled_model *cm = concat_model("1,64", false, false, false);
    assert_true(lies_at(cm, "neg", "cc", 0));
    assert_true(lies_at(cm, "abs", "cc", 256));
    assert_true(mem_of(cm, cm->graph, "cc")->output[0] < cm->plan->zero_copy_offset);
    assert_int_equal(cm->plan->feature_map_size, 512); /* the Concat's 512 bytes; Relu runs in place */
    oa_compiled_model_destroy(cm);
    cm = concat_model("2,64", false, false, false);
    assert_false(lies_at(cm, "neg", "cc", 0));
    assert_false(lies_at(cm, "abs", "cc", 256));
    oa_compiled_model_destroy(cm);
    cm = concat_model("1,64", true, false, false);
    assert_false(lies_at(cm, "neg", "cc", 0));
    oa_compiled_model_destroy(cm);
    cm = concat_model("1,3", false, false, false);
    assert_true(lies_at(cm, "neg", "cc", 0));
    assert_false(lies_at(cm, "abs", "cc", 12)); /* 12 bytes in */
    oa_compiled_model_destroy(cm);
    cm = concat_model("1,64", false, true, false);
    assert_true(mem_of(cm, cm->graph, "cc")->output[0] >= cm->plan->zero_copy_offset);
    assert_true(lies_at(cm, "neg", "cc", 0));
    assert_true(lies_at(cm, "abs", "cc", 256));
    assert_int_equal(cm->plan->feature_map_size, 0);
    oa_compiled_model_destroy(cm);
    cm = concat_model("1,64", false, false, true);
    assert_false(lies_at(cm, "neg", "cc", 0));
    assert_false(lies_at(cm, "abs", "cc", 256));
    oa_compiled_model_destroy(cm);
}

/*
 *   x[1,64] ─▶ Neg ─▶ Reshape[1,8,8] ─┐
 *   x ──────▶ Abs ─▶ Reshape[1,8,8] ─┴▶ ConcatD(dim 1) ─▶ Relu ─▶ out
 * What a view op made a part from lies there too (YOLO's detection head:
 * Concat ─▶ Reshape ─▶ Concat), so the Reshapes copy nothing. A plan that
 * moves a part onto another live one fails the check.
 */
static void plan_concat_through_views(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,64");
    const int64_t sv[3] = {1, 8, 8};
    oa_node *parts[2];
    const char *names[2][2] = {{"neg", "rs0"}, {"abs", "rs1"}};
    for (int i = 0; i < 2; i++) {
        oa_node *e = tu_op1(g, i == 0 ? OA_OP_NEG : OA_OP_ABS, names[i][0], 1, x);
        oa_node *rs_in[2] = {e, tu_i64(g, i == 0 ? "shape0" : "shape1", "3", sv)};
        parts[i] = tu_op(g, OA_OP_RESHAPE, names[i][1], 2, 1, rs_in);
    }
    oa_node *cc = concat_of(g, "cc", parts, 2, 1);
    oa_node *relu = tu_op1(g, OA_OP_RELU, "relu", 1, cc);
    (void)ct_out(g, &relu, 1);
    oa_compiled_model *cm = compile_unfused(g, false);
    EXPECT_OK(oa_compiled_model_check_plan(cm));
    assert_true(lies_at(cm, "rs0", "cc", 0));
    assert_true(lies_at(cm, "neg", "cc", 0));
    assert_true(lies_at(cm, "rs1", "cc", 256));
    assert_true(lies_at(cm, "abs", "cc", 256));
    /* the checker: Abs moved onto Neg, both alive until the Concat */
    const oa_node *abs = oa_graph_find_node(cm->graph, "abs");
    assert_non_null(abs);
    cm->plan->nodes[abs->id].output[0] = mem_of(cm, cm->graph, "neg")->output[0];
    EXPECT_FAIL(oa_compiled_model_check_plan(cm), OA_E_INTERNAL, "overlap");
    oa_compiled_model_destroy(cm);
}

/*
 *   x[1,3,4,4] ─▶ conv a (C_a) ─┐
 *   x ─────────▶ conv b (C_b) ─┴▶ ConcatD ─▶ conv ─▶ out
 * In NC1HWC0 (N == 1) an input lies in the output as whole channel blocks
 * when every input before it has whole 16-channel blocks: 16 then 24
 * channels both lie in place, 24 then 16 only the first.
 */
static void plan_concat_blocked(void **state)
{
    (void)state;
    for (int order = 0; order < 2; order++) {
        oa_graph *g = ct_graph();
        oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,3,4,4");
        x->outputs[0].desc.format = OA_FORMAT_NCHW;
        oa_node *a = ct_conv(g, "a", x, ct_f32(g, "wa", order == 0 ? "16,3,1,1" : "24,3,1,1", 0, 0.01f), NULL);
        oa_node *b = ct_conv(g, "b", x, ct_f32(g, "wb", order == 0 ? "24,3,1,1" : "16,3,1,1", 0, 0.01f), NULL);
        oa_node *parts[2] = {a, b};
        oa_node *cc = concat_of(g, "cc", parts, 2, 1);
        oa_node *c = ct_conv(g, "c", cc, ct_f32(g, "wc", "8,40,1,1", 0, 0.01f), NULL);
        (void)ct_out(g, &c, 1);
        oa_compile_options opt;
        oa_compile_options_init(&opt);
        opt.layout_nchwc = true; /* atc's default (OPENACL_ATC_NCHWC) */
        oa_compiled_model *cm = compile_ok(g, &opt);
        EXPECT_OK(oa_compiled_model_check_plan(cm));
        const oa_node *ccn = oa_graph_find_node(cm->graph, "cc");
        assert_non_null(ccn);
        assert_int_equal(ccn->outputs[0].desc.format, OA_FORMAT_NC1HWC0);
        assert_true(lies_at(cm, "a", "cc", 0));
        if (order == 0) {
            assert_true(lies_at(cm, "b", "cc", 16 * 16 * 4)); /* one block of 16 channels x 4x4 pixels */
        } else {
            assert_false(lies_at(cm, "b", "cc", 32 * 16 * 4));
        }
        oa_compiled_model_destroy(cm);
    }
}

/*
 *   x[2,3,5] ─▶ Sigmoid y ─┬─▶ Slice[..., 0:2] ─▶ Mul(2) xy ─┐
 *                          └─▶ Slice[..., 2:5] (step st) ───┴▶ ConcatD(-1) cc ─▶ tail
 * YOLOv5's head in small (docs/memory.md "Concat in place"): the second Slice folds into the
 * Concat as a window of y, and since the window sits where it goes in cc and y dies at cc, cc
 * takes y's memory. tail: Relu (cc planned in the feature map), or Reshape [1,30] and a Concat
 * with a [1,16] Neg of another input as the model output (y pinned into the output's slot
 * through cc). A step of 2 keeps the Slice; a Neg(y) after cc, or the window first in cc
 * (not where it goes), keeps cc out of y's memory.
 */
static oa_node *slice_last(oa_graph *g, const char *name, oa_node *x, int64_t b, int64_t e, int64_t step)
{
    const int64_t bv[1] = {b}, ev[1] = {e}, av[1] = {-1}, sv[1] = {step};
    char n[4][32];
    const char *what[4] = {"b", "e", "a", "s"};
    for (int i = 0; i < 4; i++) {
        snprintf(n[i], sizeof n[i], "%s_%s", name, what[i]);
    }
    oa_node *in[5] = {x, tu_i64(g, n[0], "1", bv), tu_i64(g, n[1], "1", ev), tu_i64(g, n[2], "1", av),
                      tu_i64(g, n[3], "1", sv)};
    return tu_op(g, OA_OP_STRIDED_SLICE_V2, name, 5, 1, in);
}

static oa_compiled_model *head_model(int tail, int64_t step, bool y_after, bool rest_first)
{
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "2,3,5");
    oa_node *y = tu_op1(g, OA_OP_SIGMOID, "y", 1, x);
    oa_node *xy = ct_bin(g, OA_OP_MUL, "xy", slice_last(g, "s_xy", y, 0, 2, 1), ct_f32(g, "two", "", 2, 0));
    oa_node *rest = slice_last(g, "s_rest", y, 2, 5, step);
    oa_node *parts[2] = {rest_first ? rest : xy, rest_first ? xy : rest};
    oa_node *cc = concat_of(g, "cc", parts, 2, -1), *outs[2] = {NULL, NULL};
    if (tail == 0) {
        outs[0] = tu_op1(g, OA_OP_RELU, "relu", 1, cc);
    } else {
        const int64_t sv[2] = {1, 30};
        oa_node *rs_in[2] = {cc, tu_i64(g, "flat", "2", sv)};
        oa_node *z = tu_data(g, "z", OA_DT_FLOAT, "1,16");
        oa_node *other = tu_op1(g, OA_OP_NEG, "other", 1, z);
        oa_node *det[2] = {tu_op(g, OA_OP_RESHAPE, "rs", 2, 1, rs_in), other};
        outs[0] = concat_of(g, "det", det, 2, 1);
    }
    if (y_after) {
        outs[1] = tu_op1(g, OA_OP_NEG, "late", 1, y); /* reads y after cc (a control edge orders them) */
        EXPECT_OK(oa_node_add_control_input(outs[1], cc));
    }
    (void)ct_out(g, outs, y_after ? 2 : 1);
    oa_compile_options opt;
    oa_compile_options_init(&opt);
    oa_compiled_model *cm = compile_ok(g, &opt);
    EXPECT_OK(oa_compiled_model_check_plan(cm));
    return cm;
}

static void plan_concat_window_in_place(void **state)
{
    (void)state;
    oa_compiled_model *cm = head_model(0, 1, false, false);
    const oa_node *cc = oa_graph_find_node(cm->graph, "cc");
    assert_null(oa_graph_find_node(cm->graph, "s_rest"));
    const int64_t *w;
    size_t nw = 0;
    assert_true(oa_attrs_get_list_int(&cc->attrs, "_oa_concat_windows", &w, &nw));
    assert_int_equal(nw, 3);
    assert_int_equal(w[0], 1);
    assert_int_equal(w[1], 2);
    assert_int_equal(w[2], 3);
    assert_ptr_equal(oa_node_input_src(cc, 1, NULL), oa_graph_find_node(cm->graph, "y"));
    assert_true(lies_at(cm, "y", "cc", 0));
    /* the checker: xy moved into y's second half, both alive until cc */
    const oa_node *xy = oa_graph_find_node(cm->graph, "xy");
    cm->plan->nodes[xy->id].output[0] = mem_of(cm, cm->graph, "y")->output[0] + 64;
    EXPECT_FAIL(oa_compiled_model_check_plan(cm), OA_E_INTERNAL, "overlap");
    /* ... and onto y's start, where cc is: the Concat cannot run in place on xy (not its window) */
    cm->plan->nodes[xy->id].output[0] = mem_of(cm, cm->graph, "y")->output[0];
    EXPECT_FAIL(oa_compiled_model_check_plan(cm), OA_E_INTERNAL, "overlap");
    oa_compiled_model_destroy(cm);

    cm = head_model(1, 1, false, false); /* y, cc and the Reshape lie in the model output's slot */
    assert_true(mem_of(cm, cm->graph, "y")->output[0] >= cm->plan->zero_copy_offset);
    assert_true(lies_at(cm, "y", "det", 0));
    assert_true(lies_at(cm, "cc", "det", 0));
    assert_false(lies_at(cm, "other", "det", 30 * 4)); /* 120 bytes: not 64-byte aligned, not pinned */
    oa_compiled_model_destroy(cm);

    cm = head_model(0, 2, false, false); /* step 2: the Slice stays */
    assert_non_null(oa_graph_find_node(cm->graph, "s_rest"));
    assert_null(oa_attrs_find(&oa_graph_find_node(cm->graph, "cc")->attrs, "_oa_concat_windows"));
    oa_compiled_model_destroy(cm);

    cm = head_model(0, 1, false, true); /* the window [2, 5) goes to [0, 3) of cc: folded, not in place */
    assert_non_null(oa_attrs_find(&oa_graph_find_node(cm->graph, "cc")->attrs, "_oa_concat_windows"));
    assert_false(lies_at(cm, "y", "cc", 0));
    oa_compiled_model_destroy(cm);
    for (int tail = 0; tail < 2; tail++) { /* y read after cc: cc keeps its own memory */
        cm = head_model(tail, 1, true, false);
        assert_false(lies_at(cm, "y", "cc", 0));
        oa_compiled_model_destroy(cm);
    }
}

/* Is the output of `host` planned where its residual operand (slot _oa_post_input_base) lies? */
static bool on_residual(const oa_compiled_model *cm, const char *host)
{
    const oa_node *h = oa_graph_find_node(cm->graph, host);
    assert_non_null(h);
    const int64_t base = oa_node_attr_int(h, "_oa_post_input_base", -1);
    assert_true(base >= 0);
    uint32_t si = 0;
    const oa_node *src = oa_node_input_src(h, (uint32_t)base, &si);
    assert_non_null(src);
    return mem_of(cm, cm->graph, src->name)->output[si] == mem_of(cm, cm->graph, host)->output[0];
}

/*
 *   x ─▶ Relu(r) ─┬─▶ Conv(a) + Relu ─▶ Conv(c) ─▶ Add ─▶ Relu ─▶ Neg ─▶ out
 *                 └───────────────────────────────┘ (residual)
 * Residuals in place (docs/memory.md): c's output takes the memory of its residual although the block's
 * first conv read it too (it dies at c). Not when the Add comes after c's Relu (not the chain's first
 * post-op), and never for a MatMul (its epilogue adds the residual after the primitive wrote y), even
 * when the residual has no other reader.
 */
static oa_compiled_model *residual_model(bool relu_first, bool matmul)
{
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, matmul ? "32,64" : "1,16,8,8");
    oa_node *r = tu_op1(g, OA_OP_RELU, "r", 1, x);
    oa_node *c;
    if (matmul) {
        oa_node *a = tu_data(g, "a", OA_DT_FLOAT, "32,64");
        oa_node *srcs[2] = {a, ct_f32(g, "w", "64,64", 0, 0.001f)};
        c = tu_opn(g, OA_OP_MAT_MUL_V2, "c", 3, 1, srcs, 2);
    } else {
        oa_node *a = ct_conv(g, "a", r, ct_f32(g, "w1", "16,16,1,1", 0, 0.01f), NULL);
        oa_node *ar = tu_op1(g, OA_OP_RELU, "ar", 1, a);
        c = ct_conv(g, "c", ar, ct_f32(g, "w2", "16,16,1,1", 0, 0.01f), NULL);
    }
    oa_node *pre = relu_first ? tu_op1(g, OA_OP_RELU, "cr", 1, c) : c;
    oa_node *sum = ct_bin(g, OA_OP_ADD, "sum", pre, r);
    oa_node *post = relu_first ? sum : tu_op1(g, OA_OP_RELU, "sr", 1, sum);
    oa_node *n = tu_op1(g, OA_OP_NEG, "n", 1, post);
    (void)ct_out(g, &n, 1);
    oa_compile_options opt;
    oa_compile_options_init(&opt);
    oa_compiled_model *cm = compile_ok(g, &opt);
    EXPECT_OK(oa_compiled_model_check_plan(cm));
    char buf[64];
    assert_string_equal(ct_posts(oa_graph_find_node(cm->graph, "c"), buf, sizeof buf),
                        relu_first ? "Relu,Add" : "Add,Relu");
    return cm;
}

static void plan_residuals_in_place(void **state)
{
    (void)state;
    oa_compiled_model *cm = residual_model(false, false);
    assert_true(on_residual(cm, "c"));
    oa_compiled_model_destroy(cm);
    cm = residual_model(true, false);
    assert_false(on_residual(cm, "c"));
    oa_compiled_model_destroy(cm);
    cm = residual_model(false, true);
    assert_false(on_residual(cm, "c"));
    oa_compiled_model_destroy(cm);
}

/*
 *   x ──────────────────────▶ out0   (an input returned as is)
 *   k(Const) ───────────────▶ out1   (a constant output)
 *   x ─▶ Neg ──┬────────────▶ out2
 *              └────────────▶ out3   (one tensor, two outputs)
 * Every output has its own zero-copy slot; the executor copies where the
 * producer wrote elsewhere.
 */
static void plan_output_copies(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "4");
    oa_node *k = ct_f32(g, "k", "4", 1, 1);
    oa_node *neg = tu_op1(g, OA_OP_NEG, "neg", 1, x);
    oa_node *outs[4] = {x, k, neg, neg};
    (void)ct_out(g, outs, 4);
    oa_compile_options opt;
    oa_compile_options_init(&opt);
    oa_compiled_model *cm = compile_ok(g, &opt);
    g = cm->graph;
    const oa_node_mem *o = mem_of(cm, g, "Node_Output");
    assert_int_equal(cm->plan->zero_copy_size, 5 * 64);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(o->input[i], 64 * (i + 1));
    }
    assert_int_equal(mem_of(cm, g, "x")->output[0], 0);
    assert_int_equal(mem_of(cm, g, "neg")->output[0], 64 * 3);
    EXPECT_OK(oa_compiled_model_check_plan(cm));
    oa_compiled_model_destroy(cm);
}

/*
 *   c(Data bool) ─┐
 *   x[8] ─────────┴─▶ If ─▶ Neg ─▶ out
 *     then: x ─▶ Relu ─▶ Sigmoid ─▶ (result)
 *     else: x ─▶ Abs ─▶ (result)
 * The branches share the If's region; their Data read the If's input in
 * place; their results are written straight into the If's output.
 */
static void plan_if_regions(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    oa_node *c = tu_data(g, "c", OA_DT_BOOL, "");
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "8");
    oa_node *ins[2] = {c, x};
    oa_node *ifn = tu_op(g, OA_OP_IF, "if", 2, 1, ins);
    for (int b = 0; b < 2; b++) {
        oa_graph *sg;
        EXPECT_OK(oa_graph_create_subgraph(ifn, b ? "else_branch" : "then_branch", b ? "else" : "then", &sg));
        oa_node *d = tu_data(sg, b ? "e/x" : "t/x", OA_DT_FLOAT, "8");
        EXPECT_OK(oa_node_set_int(d, "_parent_node_index", 1));
        oa_node *last;
        if (b == 0) {
            oa_node *r = tu_op1(sg, OA_OP_RELU, "t/relu", 1, d);
            last = tu_op1(sg, OA_OP_SIGMOID, "t/sig", 1, r);
        } else {
            last = tu_op1(sg, OA_OP_ABS, "e/abs", 1, d);
        }
        (void)tu_op(sg, OA_OP_NET_OUTPUT, b ? "e/out" : "t/out", 1, 1, &last);
    }
    oa_node *neg = tu_op1(g, OA_OP_NEG, "neg", 1, ifn);
    (void)ct_out(g, &neg, 1);
    oa_compile_options opt;
    oa_compile_options_init(&opt);
    opt.disable = OA_NO_FUSE;
    oa_compiled_model *cm = compile_ok(g, &opt);
    g = cm->graph;
    const oa_node_mem *ri = mem_of(cm, g, "if");
    assert_true(ri->workspace >= 0);
    assert_int_equal(ri->workspace_size, 64);
    oa_graph *then_g = oa_graph_find_subgraph(g, "then"), *else_g = oa_graph_find_subgraph(g, "else");
    assert_int_equal(mem_of(cm, then_g, "t/x")->output[0], ri->input[1]);
    assert_int_equal(mem_of(cm, then_g, "t/relu")->output[0], ri->workspace);
    assert_int_equal(mem_of(cm, then_g, "t/sig")->output[0], ri->output[0]);
    assert_int_equal(mem_of(cm, else_g, "e/abs")->output[0], ri->output[0]);
    assert_int_equal(mem_of(cm, else_g, "e/out")->input[0], ri->output[0]);
    EXPECT_OK(oa_compiled_model_check_plan(cm));
    oa_compiled_model_destroy(cm);
}

/*
 *   x[4] ─▶ While{cond: x ─▶ ReduceMax ─▶ Less(10) ─▶ out;  body: x ─▶ Add(1) ─▶ Relu ─▶ out} ─▶ out
 * While keeps its loop-carried values in its own region (cond's region, then
 * body's): nothing aliases the owner's inputs or outputs.
 */
static void plan_while_regions(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "4");
    oa_node *wh = tu_op1(g, OA_OP_WHILE, "while", 1, x);
    oa_graph *cond, *body;
    EXPECT_OK(oa_graph_create_subgraph(wh, "cond", "cond", &cond));
    EXPECT_OK(oa_graph_create_subgraph(wh, "body", "body", &body));
    oa_node *cx = tu_data(cond, "c/x", OA_DT_FLOAT, "4");
    const int32_t ax = 0;
    oa_node *rm_in[2] = {cx, tu_const(cond, "c/axes", OA_DT_INT32, "1", &ax)};
    oa_node *rm = tu_op(cond, OA_OP_REDUCE_MAX, "c/max", 2, 1, rm_in);
    oa_node *lt = ct_bin(cond, OA_OP_LESS, "c/less", rm, ct_f32(cond, "c/ten", "", 10, 0));
    (void)tu_op(cond, OA_OP_NET_OUTPUT, "c/out", 1, 1, &lt);
    oa_node *bx = tu_data(body, "b/x", OA_DT_FLOAT, "4");
    oa_node *add = ct_bin(body, OA_OP_ADD, "b/add", bx, ct_f32(body, "b/one", "", 1, 0));
    oa_node *relu = tu_op1(body, OA_OP_RELU, "b/relu", 1, add);
    (void)tu_op(body, OA_OP_NET_OUTPUT, "b/out", 1, 1, &relu);
    (void)ct_out(g, &wh, 1);
    oa_compile_options opt;
    oa_compile_options_init(&opt);
    opt.disable = OA_NO_FUSE;
    oa_compiled_model *cm = compile_ok(g, &opt);
    EXPECT_DESC(oa_graph_find_node(cm->graph, "while"), 0, "f32[4]");
    const oa_node_mem *rw = mem_of(cm, cm->graph, "while");
    assert_true(rw->workspace >= 0 && rw->workspace_size >= 3 * 64);
    int64_t bxo = mem_of(cm, oa_graph_find_subgraph(cm->graph, "body"), "b/x")->output[0];
    assert_true(bxo >= rw->workspace && bxo < rw->workspace + rw->workspace_size);
    assert_true(bxo != rw->input[0]);
    EXPECT_OK(oa_compiled_model_check_plan(cm));
    oa_compiled_model_destroy(cm);
}

/* A model whose shapes stay unknown is dynamic: no plan, memory_size 0. */
static void dynamic_model(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "-1,4");
    oa_node *r = tu_op1(g, OA_OP_RELU, "relu", 1, x);
    (void)ct_out(g, &r, 1);
    oa_compile_options opt;
    oa_compile_options_init(&opt);
    oa_compiled_model *cm = compile_ok(g, &opt);
    assert_true(cm->is_dynamic);
    assert_null(cm->plan);
    assert_int_equal(model_attr_int(cm, "memory_size"), 0);
    const oa_tensor_desc *xd = oa_node_output_desc(oa_graph_find_node(cm->graph, "x"), 0);
    assert_true(xd->has_range); /* -1 -> [1, -1], static dims [d, d] */
    assert_int_equal(xd->range_min[0], 1);
    assert_int_equal(xd->range_max[0], -1);
    assert_int_equal(xd->range_min[1], 4);
    assert_int_equal(xd->range_max[1], 4);
    EXPECT_FAIL(oa_compiled_model_check_plan(cm), OA_E_PARAM, "no static plan");
    oa_compiled_model_destroy(cm);
    /* Shape ranges make a static-looking model dynamic too, and land on the Data descs. */
    g = ct_graph();
    x = tu_data(g, "x", OA_DT_FLOAT, "-1,4");
    r = tu_op1(g, OA_OP_RELU, "relu", 1, x);
    (void)ct_out(g, &r, 1);
    opt.input_shape_range = "x:[1~8,4]";
    cm = compile_ok(g, &opt);
    assert_true(cm->is_dynamic);
    const oa_tensor_desc *d = oa_node_output_desc(oa_graph_find_node(cm->graph, "x"), 0);
    assert_true(d->has_range);
    assert_int_equal(d->range_min[0], 1);
    assert_int_equal(d->range_max[0], 8);
    oa_compiled_model_destroy(cm);
}

static void range_syntax(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    (void)tu_data(g, "a", OA_DT_FLOAT, "-1,4");
    (void)tu_data(g, "b", OA_DT_FLOAT, "");
    char *s = NULL;
    EXPECT_OK(oa_io_range_to_shape(g, "a:[1~8,4];b:[]", &s));
    assert_string_equal(s, "a:1~8,4;b:");
    free(s);
    EXPECT_OK(oa_io_range_to_shape(g, "[2~3,4],[]", &s));
    assert_string_equal(s, "a:2~3,4;b:");
    free(s);
    EXPECT_FAIL(oa_io_range_to_shape(g, "a:1~8,4", &s), OA_E_PARAM, "E10048");
    EXPECT_FAIL(oa_io_range_to_shape(g, "a:[1~8,x]", &s), OA_E_PARAM, "cannot be converted to a number");
    EXPECT_FAIL(oa_io_range_to_shape(g, "[1],[2],[3]", &s), OA_E_PARAM, "more ranges than model inputs");
    oa_graph_destroy(g);
}

/* The graph of the I/O tests: x[1,3] ─▶ conv-less chain a=Neg(x), b=Abs(a) ─▶ out(b "prob"). */
static oa_graph *io_graph(void)
{
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,3");
    oa_node *a = tu_op1(g, OA_OP_NEG, "a", 1, x);
    oa_node *b = tu_op1(g, OA_OP_ABS, "b", 1, a);
    oa_node *o = ct_out(g, &b, 1);
    oa_node_input_desc(o, 0)->name = "prob";
    return g;
}

/*
 * --out_nodes=a:0;b:0 makes both outputs; names "<node>:<idx>[:<name>]";
 * --input_fp16_nodes=x gives a FLOAT16 input and a Cast; --output_type
 * casts the outputs.
 */
static void io_options(void **state)
{
    (void)state;
    oa_compile_options opt;
    oa_compile_options_init(&opt);
    opt.out_nodes = "a:0;b:0";
    opt.input_fp16_nodes = "x";
    opt.output_type = "FP16";
    opt.disable = OA_NO_FUSE;
    oa_compiled_model *cm = compile_ok(io_graph(), &opt);
    assert_int_equal(cm->num_outputs, 2);
    assert_string_equal(cm->output_names[0], "a:0");
    assert_string_equal(cm->output_names[1], "b:0:prob");
    const char *const *names;
    size_t n;
    assert_true(oa_attrs_get_list_str(&cm->model_attrs, "attr_model_out_nodes_name", &names, &n));
    assert_int_equal(n, 2);
    oa_node *x = oa_graph_find_node(cm->graph, "x");
    assert_int_equal(x->outputs[0].desc.dtype, OA_DT_FLOAT16);
    assert_int_equal(oa_node_attr_int(x, "data_type", -1), OA_DT_FLOAT16);
    assert_int_equal(ct_count(cm->graph, OA_OP_CAST), 3);
    for (uint32_t i = 0; i < 2; i++) {
        assert_int_equal(oa_graph_output_desc(cm->graph, i)->dtype, OA_DT_FLOAT16);
    }
    /* 1x3 fp16 input: 6 bytes in a 64-byte zero-copy slot */
    EXPECT_OK(oa_compiled_model_check_plan(cm));
    oa_compiled_model_destroy(cm);
    /* Per output. */
    oa_compile_options_init(&opt);
    opt.output_type = "b:0:INT32";
    cm = compile_ok(io_graph(), &opt);
    assert_int_equal(oa_graph_output_desc(cm->graph, 0)->dtype, OA_DT_INT32);
    oa_compiled_model_destroy(cm);
}

static void io_option_errors(void **state)
{
    (void)state;
    oa_compile_options opt;
    oa_compiled_model *cm = NULL;
    static const struct {
        const char *out_nodes, *fp16, *otype, *want;
    } cases[] = {
        {"zz:0", NULL, NULL, "E10016: Op name zz specified in --out_nodes is not found"},
        {"a:3", NULL, NULL, "node a has 1 outputs"},
        {"a", NULL, NULL, "\"node_name:output_index\""},
        {NULL, "nope", NULL, "E10016: Op name nope specified in --input_fp16_nodes"},
        {NULL, "a", NULL, "E10017: Input Op a specified in --input_fp16_nodes is invalid. The Op type must be Data."},
        {NULL, NULL, "FP8", "E10001: Value FP8 for parameter --output_type is invalid"},
        {NULL, NULL, "a:0:FP32", "it is not an output of the model"},
        {NULL, NULL, "b:0:BF16", "Value BF16 for parameter --output_type"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        oa_compile_options_init(&opt);
        opt.out_nodes = cases[i].out_nodes;
        opt.input_fp16_nodes = cases[i].fp16;
        opt.output_type = cases[i].otype;
        EXPECT_FAIL(oa_compile_graph(io_graph(), &opt, &cm), OA_E_PARAM, cases[i].want);
        assert_null(cm);
    }
    oa_compile_options_init(&opt);
    opt.input_format = "NCWH";
    EXPECT_FAIL(oa_compile_graph(io_graph(), &opt, &cm), OA_E_PARAM, "--input_format is invalid");
}

/* x[-1,2,4,4] ─▶ conv ─▶ Relu ─▶ Flatten ─▶ out: the model of the gear tests. */
static oa_graph *gear_graph(const char *shape)
{
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, shape);
    oa_node *conv = ct_conv(g, "conv", x, ct_f32(g, "w", "3,2,1,1", 0.5f, 0.25f), NULL);
    oa_node *relu = tu_op1(g, OA_OP_RELU, "relu", 1, conv);
    oa_node *fl = tu_op1(g, OA_OP_FLATTEN, "flat", 1, relu);
    oa_node *o = ct_out(g, &fl, 1);
    oa_node_input_desc(o, 0)->name = "y";
    return g;
}

static void gear_errors(void **state)
{
    (void)state;
    static const struct {
        oa_gear_kind kind;
        const char *shape, *gears, *want;
    } cases[] = {
        {OA_GEAR_BATCH, "x:1,2,4,4", "1,2", "E10031"},
        {OA_GEAR_BATCH, "x:-1,2,-1,4", "1,2", "E10018"},
        {OA_GEAR_BATCH, "x:-1,2,4,4", "1", "E10035: --dynamic_batch_size, --dynamic_image_size, or --dynamic_dims has 1 profiles, which is less than the minimum 2."},
        {OA_GEAR_BATCH, "x:-1,2,4,4", "1,2,1", "E10039"},
        {OA_GEAR_BATCH, "x:-1,2,4,4", "0,2", "E10038: Dimension size 0 is invalid"},
        {OA_GEAR_BATCH, "x:-1,2,4,4", "1;2", "E10003: Value 1;2 for parameter --dynamic_batch_size is invalid. Reason: It can only contain digits and \",\"."},
        {OA_GEAR_IMAGE, "x:1,2,-1,4", "4,4;8,8", "E10019"},
        {OA_GEAR_IMAGE, "x:1,2,-1,-1", "4,4,4;8,8,8", "E10020"},
        {OA_GEAR_IMAGE, "x:1,2,-1,-1", "4,4;8,x", "E10003"},
        {OA_GEAR_DIMS, "x:1,2,4,4", "1;2", "At least one dim should be -1"},
        {OA_GEAR_DIMS, "x:-1,2,-1,4", "1;2", "E10003: Value 1;2 for parameter --dynamic_dims is invalid. Reason: Each setting needs to be consistent with the number of -1 in the input shape."},
        {OA_GEAR_DIMS, "x:-1,2,-1,4", "1,-2;2,2", "E10001: Value 1,-2;2,2 for parameter --dynamic_dims is invalid. Reason: Dynamic dims must be a positive integer."},
        {OA_GEAR_BATCH, "x:-1,2,4,4", "", "E10058: Parameter --dynamic_batch_size is not configured or is empty."},
        {OA_GEAR_BATCH, "x:1~4,2,4,4", "1,2", "E10040"},
        {OA_GEAR_BATCH, NULL, "1,2", "E10004: Value for --input_shape is empty."},
        {OA_GEAR_BATCH, "zz:-1,2,4,4", "1,2", "which is not a model input"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        oa_compile_options opt;
        oa_compile_options_init(&opt);
        opt.gear_kind = cases[i].kind;
        opt.input_shape = cases[i].shape;
        opt.gears = cases[i].gears;
        oa_compiled_model *cm = NULL;
        oa_error_clear();
        oa_status st = oa_compile_graph(gear_graph("-1,2,4,4"), &opt, &cm);
        const char *m = oa_error_take_messages();
        if (st == OA_OK || m == NULL || strstr(m, cases[i].want) == NULL) {
            print_error("case %zu: status %s, message [%s], want [%s]\n", i, oa_status_str(st), m ? m : "",
                        cases[i].want);
            fail();
        }
        assert_null(cm);
    }
    /* 101 profiles */
    char big[512] = "";
    for (int i = 1; i <= 101; i++) {
        snprintf(big + strlen(big), sizeof(big) - strlen(big), "%s%d", i > 1 ? "," : "", i);
    }
    oa_compile_options opt;
    oa_compile_options_init(&opt);
    opt.gear_kind = OA_GEAR_BATCH;
    opt.input_shape = "x:-1,2,4,4";
    opt.gears = big;
    oa_compiled_model *cm = NULL;
    EXPECT_FAIL(oa_compile_graph(gear_graph("-1,2,4,4"), &opt, &cm), OA_E_PARAM,
                "has 101 profiles, which is greater than the maximum 100");
    /* --input_shape_range with gears */
    opt.gears = "1,2";
    opt.input_shape_range = "x:[1~2,2,4,4]";
    EXPECT_FAIL(oa_compile_graph(gear_graph("-1,2,4,4"), &opt, &cm), OA_E_PARAM, "E10009");
}

/*
 * --dynamic_batch_size=1,4,2 on x[-1,2,4,4]:
 *
 *   x (max shape [4,2,4,4]) ─────────────────────────────┐
 *   ascend_mbatch_shape_data [1] ─▶ MapIndex ─▶ Case{Batch_0, Batch_1, Batch_2} ─▶ Node_Output
 *   ascend_mbatch_shape_const [3] ─┘
 */
static void gears_batch_structure(void **state)
{
    (void)state;
    oa_compile_options opt;
    oa_compile_options_init(&opt);
    opt.gear_kind = OA_GEAR_BATCH;
    opt.input_shape = "x:-1,2,4,4";
    opt.gears = "1,4,2";
    oa_compiled_model *cm = compile_ok(gear_graph("1,2,4,4"), &opt);
    oa_graph *r = cm->graph;
    assert_false(cm->is_dynamic);
    assert_int_equal(cm->gear_kind, OA_GEAR_BATCH);
    assert_int_equal(cm->gear_count, 3);
    assert_int_equal(oa_graph_num_inputs(r), 2);
    oa_node *x = oa_graph_input(r, 0), *sd = oa_graph_input(r, 1);
    assert_string_equal(x->name, "x");
    EXPECT_DESC(x, 0, "f32[4,2,4,4]");
    const int64_t *od;
    size_t n;
    assert_true(oa_attrs_get_list_int(&x->attrs, "_mbatch_origin_input_dims", &od, &n));
    assert_int_equal(n, 4);
    assert_int_equal(od[0], -1);
    assert_string_equal(sd->name, "ascend_mbatch_shape_data");
    EXPECT_DESC(sd, 0, "i32[1]");
    assert_int_equal(sd->outputs[0].desc.format, OA_FORMAT_ND);
    oa_node *cs = oa_graph_find_node(r, "ascend_mbatch_shape_case");
    assert_non_null(cs);
    assert_int_equal(cs->num_subgraphs, 3);
    assert_int_equal(oa_node_attr_int(cs, "_batch_num", 0), 3);
    assert_int_equal(oa_node_attr_int(cs, "mbatch_dynamic_type", 0), 1);
    const int64_t *pv;
    assert_true(oa_attrs_get_list_int(&cs->attrs, "_pred_value_1", &pv, &n));
    assert_int_equal(n, 1);
    assert_int_equal(pv[0], 4);
    const char *const *order;
    assert_true(oa_attrs_get_list_str(&cs->attrs, "user_designate_shape_order", &order, &n));
    assert_int_equal(n, 1);
    assert_string_equal(order[0], "x");
    assert_int_equal(oa_node_input_src(cs, 0, NULL)->type, OA_OP_MAP_INDEX);
    oa_graph *b1 = oa_graph_find_subgraph(r, "Batch_1");
    assert_non_null(b1);
    oa_node *bx = oa_graph_find_node(b1, "x_ascend_mbatch_batch_1");
    assert_non_null(bx);
    EXPECT_DESC(bx, 0, "f32[4,2,4,4]");
    assert_int_equal(oa_node_attr_int(bx, "_parent_node_index", -1), 1);
    oa_node *bout = oa_graph_output_node(b1);
    int64_t pi = -1;
    assert_true(oa_attrs_get_int(&bout->inputs[0].desc.attrs, "_parent_node_index", &pi));
    assert_int_equal(pi, 0);
    oa_node *no = oa_graph_output_node(r);
    const char *const *dod;
    assert_true(oa_attrs_get_list_str(&no->attrs, "_dynamic_output_dims", &dod, &n));
    assert_int_equal(n, 3);
    assert_string_equal(dod[0], "0,0,1,48");
    assert_string_equal(dod[1], "1,0,4,48");
    assert_string_equal(dod[2], "2,0,2,48");
    assert_string_equal(cm->output_names[0], "flat:0:y");
    EXPECT_DESC(no, 0, "f32[4,48]");
    assert_int_equal(model_attr_int(cm, "batch_num"), 3);
    /* The plan: gear 1 (batch 4) is the largest region; IO slots sized for it. */
    const oa_node_mem *rc = oa_mem_plan_node(cm->plan, cs);
    assert_non_null(rc);
    assert_true(rc->workspace_size >= 4 * 3 * 16 * 4);
    assert_int_equal(cm->plan->zero_copy_size, 512 + 64 + 768);
    EXPECT_OK(oa_compiled_model_check_plan(cm));
    EXPECT_OK(oa_graph_validate(r));
    oa_compiled_model_destroy(cm);
}

/* Image size and dims gears: the shapes of every branch. */
static void gears_image_and_dims(void **state)
{
    (void)state;
    oa_compile_options opt;
    oa_compile_options_init(&opt);
    opt.gear_kind = OA_GEAR_IMAGE;
    opt.input_shape = "x:1,2,-1,-1";
    opt.gears = "4,4;8,6";
    oa_compiled_model *cm = compile_ok(gear_graph("1,2,4,4"), &opt);
    oa_graph *r = cm->graph;
    EXPECT_DESC(oa_graph_input(r, 1), 0, "i32[2]");
    EXPECT_DESC(oa_graph_find_node(oa_graph_find_subgraph(r, "Batch_1"), "x_ascend_mbatch_batch_1"), 0,
                "f32[1,2,8,6]");
    EXPECT_DESC(oa_graph_input(r, 0), 0, "f32[1,2,8,6]");
    assert_int_equal(oa_node_attr_int(oa_graph_find_node(r, "ascend_mbatch_shape_case"), "mbatch_dynamic_type", 0),
                     2);
    EXPECT_OK(oa_compiled_model_check_plan(cm));
    oa_compiled_model_destroy(cm);

    /* dims: two inputs, the row spread over their -1s in --input_shape order. */
    oa_graph *g = ct_graph();
    oa_node *a = tu_data(g, "a", OA_DT_FLOAT, "-1,3");
    oa_node *b = tu_data(g, "b", OA_DT_FLOAT, "2,-1");
    oa_node *ma = tu_op1(g, OA_OP_RELU, "ra", 1, a);
    oa_node *mb = tu_op1(g, OA_OP_NEG, "nb", 1, b);
    oa_node *outs[2] = {ma, mb};
    (void)ct_out(g, outs, 2);
    oa_compile_options_init(&opt);
    opt.gear_kind = OA_GEAR_DIMS;
    opt.input_shape = "b:2,-1;a:-1,3";
    opt.gears = "5,1;7,2";
    cm = compile_ok(g, &opt);
    r = cm->graph;
    oa_graph *b1 = oa_graph_find_subgraph(r, "Batch_1");
    EXPECT_DESC(oa_graph_find_node(b1, "b_ascend_mbatch_batch_1"), 0, "f32[2,7]");
    EXPECT_DESC(oa_graph_find_node(b1, "a_ascend_mbatch_batch_1"), 0, "f32[2,3]");
    const char *const *order;
    size_t n;
    assert_true(oa_attrs_get_list_str(&oa_graph_find_node(r, "ascend_mbatch_shape_case")->attrs,
                                      "user_designate_shape_order", &order, &n));
    assert_int_equal(n, 2);
    assert_string_equal(order[0], "b");
    EXPECT_DESC(oa_graph_input(r, 2), 0, "i32[2]");
    EXPECT_OK(oa_compiled_model_check_plan(cm));
    oa_compiled_model_destroy(cm);
}

/* --input_format=NHWC puts the image gears on dims 1 and 2. */
static void gears_image_nhwc(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,-1,-1,3");
    oa_node *r = tu_op1(g, OA_OP_RELU, "relu", 1, x);
    (void)ct_out(g, &r, 1);
    oa_compile_options opt;
    oa_compile_options_init(&opt);
    opt.gear_kind = OA_GEAR_IMAGE;
    opt.input_shape = "x:1,-1,-1,3";
    opt.input_format = "NHWC";
    opt.gears = "4,6;8,2";
    oa_compiled_model *cm = compile_ok(g, &opt);
    oa_graph *b0 = oa_graph_find_subgraph(cm->graph, "Batch_0");
    EXPECT_DESC(oa_graph_find_node(b0, "x_ascend_mbatch_batch_0"), 0, "f32[1,4,6,3]:NHWC");
    EXPECT_DESC(oa_graph_input(cm->graph, 0), 0, "f32[1,4,6,3]:NHWC"); /* 24 > 16 elements */
    EXPECT_OK(oa_compiled_model_check_plan(cm));
    oa_compiled_model_destroy(cm);
    /* With NCHW the same shape has its -1s in the wrong places. */
    g = ct_graph();
    x = tu_data(g, "x", OA_DT_FLOAT, "1,-1,-1,3");
    r = tu_op1(g, OA_OP_RELU, "relu", 1, x);
    (void)ct_out(g, &r, 1);
    opt.input_format = "NCHW";
    EXPECT_FAIL(oa_compile_graph(g, &opt, &cm), OA_E_PARAM, "E10019");
}

/* A gear that leaves a shape dynamic (an input not in --input_shape) is refused. */
static void gears_must_be_static(void **state)
{
    (void)state;
    oa_graph *g = ct_graph();
    oa_node *a = tu_data(g, "a", OA_DT_FLOAT, "-1,3");
    oa_node *b = tu_data(g, "b", OA_DT_FLOAT, "-1,3");
    oa_node *s = ct_bin(g, OA_OP_ADD, "s", a, b);
    (void)ct_out(g, &s, 1);
    oa_compile_options opt;
    oa_compile_options_init(&opt);
    opt.gear_kind = OA_GEAR_BATCH;
    opt.input_shape = "a:-1,3";
    opt.gears = "1,2";
    oa_compiled_model *cm = NULL;
    EXPECT_FAIL(oa_compile_graph(g, &opt, &cm), OA_E_PARAM, "still has a dynamic shape");
}

/*
 * ONNX with external weight data: the weights become Consts over the
 * mapped file (so the .om embeds them, --external_weight=0) and fold like
 * any other:  x ─▶ Conv(w external) ─▶ Mul(2) ─▶ y
 */
static void onnx_external_weights(void **state)
{
    (void)state;
    char dir[] = "/tmp/oa_compile_ext_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], model[256];
    snprintf(path, sizeof(path), "%s/w.bin", dir);
    float w[6] = {1, 2, 3, 4, 5, 6};
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(w, 1, sizeof(w), f), sizeof(w));
    fclose(f);
    tb_model *m = tb_new(13);
    tb_graph *g = tb_root(m);
    const int64_t xd[4] = {1, 2, 2, 2}, wd[4] = {3, 2, 1, 1}, sd[1] = {1};
    tb_input(g, "x", 1, 4, xd);
    tb_initializer(g, tb_tensor_external(m, "w", 1, 4, wd, "w.bin", 0, (int64_t)sizeof(w)));
    const float two = 2.0f;
    tb_initializer(g, tb_tensor_f32(m, "two", 1, sd, &two));
    Onnx__NodeProto *c = tb_node(g, "Conv", "conv", "x,w", "c");
    const int64_t ks[2] = {1, 1};
    tb_attr_ints(m, c, "kernel_shape", ks, 2);
    tb_node(g, "Mul", "mul", "c,two", "y");
    tb_output(g, "y");
    size_t len;
    uint8_t *buf = tb_pack(m, &len);
    snprintf(model, sizeof(model), "%s/m.onnx", dir);
    f = fopen(model, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, len, f), len);
    fclose(f);
    free(buf);
    tb_free(m);
    oa_compile_options opt;
    oa_compile_options_init(&opt);
    oa_compiled_model *cm = NULL;
    oa_status st = oa_compile_onnx(model, &opt, &cm);
    if (st != OA_OK) {
        const char *e = oa_error_take_messages();
        print_error("%s\n", e ? e : "");
        fail();
    }
    oa_node *conv = oa_graph_find_node(cm->graph, "conv");
    assert_non_null(conv);
    assert_int_equal(ct_count(cm->graph, OA_OP_FILE_CONSTANT), 0);
    const float *nw = ct_input_f32(conv, 1);
    assert_float_equal(nw[5], 12.0f, 0);
    assert_string_equal(cm->output_names[0], "mul:0:y");
    EXPECT_OK(oa_compiled_model_check_plan(cm));
    oa_compiled_model_destroy(cm);
    unlink(path);
    unlink(model);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plan_tiny_model),
        cmocka_unit_test(plan_inplace_and_weights),
        cmocka_unit_test(plan_output_copies),
        cmocka_unit_test(plan_concat_in_place),
        cmocka_unit_test(plan_concat_through_views),
        cmocka_unit_test(plan_concat_blocked),
        cmocka_unit_test(plan_concat_window_in_place),
        cmocka_unit_test(plan_residuals_in_place),
        cmocka_unit_test(plan_if_regions),
        cmocka_unit_test(plan_while_regions),
        cmocka_unit_test(dynamic_model),
        cmocka_unit_test(range_syntax),
        cmocka_unit_test(io_options),
        cmocka_unit_test(io_option_errors),
        cmocka_unit_test(gear_errors),
        cmocka_unit_test(gears_batch_structure),
        cmocka_unit_test(gears_image_and_dims),
        cmocka_unit_test(gears_image_nhwc),
        cmocka_unit_test(gears_must_be_static),
        cmocka_unit_test(onnx_external_weights),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

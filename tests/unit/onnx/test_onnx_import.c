/*
 * onnx/: the importer on small in-memory models: GE mappings and
 * decompositions, naming rules, initializers and Constants, If subgraphs,
 * the single unsupported-op report, every class of corrupt or hostile
 * input, external data path checks, and input shape overrides.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../graph/graph_test_util.h"
#include "onnx/onnx_import.h"
#include "onnx_builder.h"

#define F ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT
#define I64 ONNX__TENSOR_PROTO__DATA_TYPE__INT64

static oa_status import_ex(tb_model *m, const char *dir, const oa_onnx_options *opt, oa_graph **g)
{
    size_t len;
    uint8_t *buf = tb_pack(m, &len);
    oa_status st = oa_onnx_import_buffer(buf, len, dir, opt, g);
    free(buf);
    return st;
}

static oa_graph *import_ok(tb_model *m)
{
    oa_graph *g = NULL;
    EXPECT_OK(import_ex(m, NULL, NULL, &g));
    EXPECT_OK(oa_graph_validate(g));
    return g;
}

/* The k-th node (in list order) of type t in graph g, or NULL. */
static oa_node *nth_of(const oa_graph *g, oa_op_type t, int k)
{
    for (oa_node *n = oa_graph_first_node(g); n; n = n->next) {
        if (n->type == t && k-- == 0) {
            return n;
        }
    }
    return NULL;
}

static int count_of(const oa_graph *g, oa_op_type t)
{
    int c = 0;
    for (oa_node *n = oa_graph_first_node(g); n; n = n->next) {
        c += n->type == t;
    }
    return c;
}

static void assert_list(const oa_node *n, const char *attr, const int64_t *want, size_t count)
{
    const int64_t *v;
    size_t nv;
    if (!oa_attrs_get_list_int(&n->attrs, attr, &v, &nv) || nv != count || memcmp(v, want, count * 8) != 0) {
        print_error("node %s attr %s differs\n", n->name, attr);
        fail();
    }
}

static const int64_t D4[4] = {1, 3, 8, 8};

/*
 *   x ─Conv(w,b)─Relu─MaxPool─Flatten─Gemm(fw,fb)─▶ y
 */
static void basic_model(void **state)
{
    (void)state;
    tb_model *m = tb_new(13);
    tb_graph *g0 = tb_root(m);
    tb_input(g0, "x", F, 4, D4);
    static float w[4 * 3 * 3 * 3], b[4], fw[10 * 32], fb[10];
    const int64_t wd[4] = {4, 3, 3, 3}, bd[1] = {4}, fwd[2] = {10, 32}, fbd[1] = {10};
    tb_initializer(g0, tb_tensor_f32(m, "w", 4, wd, w));
    tb_initializer(g0, tb_tensor_f32(m, "fc_b", 1, fbd, fb));
    tb_initializer(g0, tb_tensor_f32(m, "b", 1, bd, b));
    tb_initializer(g0, tb_tensor_f32(m, "fc_w", 2, fwd, fw));
    Onnx__NodeProto *c = tb_node(g0, "Conv", "conv1", "x,w,b", "c");
    const int64_t k3[2] = {3, 3}, pads[4] = {1, 2, 1, 2}, s1[2] = {1, 2};
    tb_attr_ints(m, c, "kernel_shape", k3, 2);
    tb_attr_ints(m, c, "pads", pads, 4);
    tb_attr_ints(m, c, "strides", s1, 2);
    tb_node(g0, "Relu", "relu", "c", "r");
    Onnx__NodeProto *p = tb_node(g0, "MaxPool", "pool", "r", "p");
    const int64_t k2[2] = {2, 2};
    tb_attr_ints(m, p, "kernel_shape", k2, 2);
    tb_attr_ints(m, p, "strides", k2, 2);
    tb_node(g0, "Flatten", NULL, "p", "f");
    Onnx__NodeProto *gm = tb_node(g0, "Gemm", "fc", "f,fc_w,fc_b", "y");
    tb_attr_int(m, gm, "transB", 1);
    tb_output(g0, "y");
    oa_graph *g = import_ok(m);

    oa_node *x = oa_graph_find_node(g, "x");
    assert_non_null(x);
    assert_int_equal(x->type, OA_OP_DATA);
    assert_int_equal(oa_node_attr_int(x, "index", -1), 0);
    assert_int_equal(oa_node_attr_int(x, "data_type", -1), OA_DT_FLOAT);
    EXPECT_DESC(x, 0, "f32[1,3,8,8]:NCHW");
    /* initializers: Const "<name>_Initializer_<k>", k in name-sorted order */
    assert_non_null(oa_graph_find_node(g, "b_Initializer_0"));
    assert_non_null(oa_graph_find_node(g, "fc_b_Initializer_1"));
    assert_non_null(oa_graph_find_node(g, "fc_w_Initializer_2"));
    assert_non_null(oa_graph_find_node(g, "w_Initializer_3"));
    oa_node *conv = oa_graph_find_node(g, "conv1");
    assert_int_equal(conv->type, OA_OP_CONV2D);
    const int64_t ge_pads[4] = {1, 1, 2, 2}, ge_strides[4] = {1, 1, 1, 2}, ones[4] = {1, 1, 1, 1};
    assert_list(conv, "pads", ge_pads, 4);
    assert_list(conv, "strides", ge_strides, 4);
    assert_list(conv, "dilations", ones, 4);
    assert_string_equal(oa_node_attr_str(conv, "data_format", ""), "NCHW");
    assert_string_equal(oa_node_attr_str(conv, "auto_pad", ""), "NOTSET");
    assert_int_equal(oa_node_attr_int(conv, "groups", 0), 1);
    assert_int_equal(conv->inputs[1].desc.format, OA_FORMAT_NCHW);
    EXPECT_DESC(conv, 0, "f32[1,4,8,5]:NCHW");
    oa_node *pool = oa_graph_find_node(g, "pool");
    assert_int_equal(pool->type, OA_OP_MAX_POOL_V3);
    assert_string_equal(oa_node_attr_str(pool, "padding_mode", ""), "CALCULATED");
    /* unnamed node: <OpType>_<n> */
    oa_node *fl = oa_graph_find_node(g, "Flatten_0");
    assert_non_null(fl);
    assert_int_equal(fl->type, OA_OP_FLATTEN);
    /* Gemm with C and alpha=beta=1 expands to MatMulV2 + Add */
    oa_node *mm = nth_of(g, OA_OP_MAT_MUL_V2, 0);
    assert_non_null(mm);
    assert_true(oa_node_attr_bool(mm, "transpose_x2", false));
    assert_int_equal(strncmp(mm->name, "PartitionedCall_fc_matmul_", 26), 0);
    const char *const *orig;
    size_t no;
    assert_true(oa_attrs_get_list_str(&mm->attrs, "_datadump_original_op_names", &orig, &no));
    assert_string_equal(orig[0], "fc");
    oa_node *out = oa_graph_output_node(g);
    assert_string_equal(out->name, "Node_Output");
    assert_string_equal(oa_graph_output_name(g, 0), "y");
    assert_ptr_equal(oa_node_input_src(out, 0, NULL), nth_of(g, OA_OP_ADD, 0));
    EXPECT_DESC(out, 0, "f32[1,10]");
    int64_t fw_attr;
    (void)fw_attr;
    const char *fwk;
    assert_true(oa_attrs_get_str(oa_graph_attrs(g), "framework_type", &fwk));
    assert_string_equal(fwk, "Onnx");
    oa_graph_destroy(g);
    tb_free(m);
}

/* A one-op model: x[shape] -> op -> y, with optional extra inputs as
 * initializers given by the caller before calling this. */
static Onnx__NodeProto *one_op(tb_model *m, const char *op, const char *inputs, const char *outputs,
                               const char *in_shape)
{
    tb_graph *g0 = tb_root(m);
    oa_shape s = tu_shape(in_shape);
    tb_input(g0, "x", F, s.rank, s.dims);
    Onnx__NodeProto *n = tb_node(g0, op, "n", inputs, outputs);
    const char *comma = strchr(outputs, ',');
    char first[64];
    size_t len = comma ? (size_t)(comma - outputs) : strlen(outputs);
    memcpy(first, outputs, len);
    first[len] = '\0';
    tb_output(g0, first);
    return n;
}

static void mappings_shape_ops(void **state)
{
    (void)state;
    /* Softmax opset 11: axes=[axis], need_fusion */
    tb_model *m = tb_new(11);
    Onnx__NodeProto *n = one_op(m, "Softmax", "x", "y", "2,5");
    oa_graph *g = import_ok(m);
    oa_node *sm = oa_graph_find_node(g, "n");
    assert_int_equal(sm->type, OA_OP_SOFTMAX_V2);
    const int64_t one = 1;
    assert_list(sm, "axes", &one, 1);
    assert_int_equal(oa_node_attr_int(sm, "need_fusion", 0), 1);
    assert_int_equal(oa_graph_num_nodes(g), 3); /* axis 1 is the last dim: no rewrite */
    oa_graph_destroy(g);
    tb_free(m);

    /* Softmax opset 11 on a non-last axis flattens first (exact ONNX < 13):
     *   x ─Flatten(1)─ SoftmaxV2([-1]) ─ Reshape(Shape(x)) */
    m = tb_new(11);
    n = one_op(m, "LogSoftmax", "x", "y", "2,3,4");
    g = import_ok(m);
    sm = oa_graph_find_node(g, "n");
    assert_int_equal(sm->type, OA_OP_LOG_SOFTMAX_V2);
    const int64_t last = -1;
    assert_list(sm, "axes", &last, 1);
    assert_int_equal(oa_node_input_src(sm, 0, NULL)->type, OA_OP_FLATTEN);
    EXPECT_DESC(sm, 0, "f32[2,12]");
    oa_node *rs = oa_node_input_src(oa_graph_output_node(g), 0, NULL);
    assert_int_equal(rs->type, OA_OP_RESHAPE);
    EXPECT_DESC(rs, 0, "f32[2,3,4]");
    oa_graph_destroy(g);
    tb_free(m);

    /* Transpose: PartitionedCall of Const perm (i32) + Transpose */
    m = tb_new(13);
    n = one_op(m, "Transpose", "x", "y", "2,3,4");
    const int64_t perm[3] = {2, 0, 1};
    tb_attr_ints(m, n, "perm", perm, 3);
    g = import_ok(m);
    oa_node *tr = nth_of(g, OA_OP_TRANSPOSE, 0);
    assert_non_null(tr);
    oa_node *pk = oa_node_input_src(tr, 1, NULL);
    assert_int_equal(pk->type, OA_OP_CONST);
    EXPECT_DESC(pk, 0, "i32[3]");
    EXPECT_DESC(tr, 0, "f32[4,2,3]");
    oa_graph_destroy(g);
    tb_free(m);

    /* Concat -> ConcatD(N, concat_dim); Squeeze opset 11 -> Squeeze(axis);
     * Unsqueeze opset 13 -> UnsqueezeV3(x, axes) */
    m = tb_new(11);
    tb_graph *g0 = tb_root(m);
    const int64_t d23[2] = {2, 1};
    tb_input(g0, "a", F, 2, d23);
    tb_input(g0, "b", F, 2, d23);
    Onnx__NodeProto *cat = tb_node(g0, "Concat", "cat", "a,b", "c");
    tb_attr_int(m, cat, "axis", 0);
    Onnx__NodeProto *sq = tb_node(g0, "Squeeze", "sq", "c", "s");
    const int64_t ax1 = 1;
    tb_attr_ints(m, sq, "axes", &ax1, 1);
    tb_output(g0, "s");
    g = import_ok(m);
    oa_node *cd = oa_graph_find_node(g, "cat");
    assert_int_equal(cd->type, OA_OP_CONCAT_D);
    assert_int_equal(oa_node_attr_int(cd, "N", 0), 2);
    assert_int_equal(oa_node_attr_int(cd, "concat_dim", 9), 0);
    oa_node *sqn = oa_graph_find_node(g, "sq");
    assert_int_equal(sqn->type, OA_OP_SQUEEZE);
    assert_list(sqn, "axis", &ax1, 1);
    EXPECT_DESC(sqn, 0, "f32[4]");
    oa_graph_destroy(g);
    tb_free(m);

    /* Slice opset 9: attrs -> StridedSliceV2 with Const begin/end/axes */
    m = tb_new(9);
    n = one_op(m, "Slice", "x", "y", "4,10");
    const int64_t st[1] = {2}, en[1] = {-1}, ax[1] = {1};
    tb_attr_ints(m, n, "starts", st, 1);
    tb_attr_ints(m, n, "ends", en, 1);
    tb_attr_ints(m, n, "axes", ax, 1);
    g = import_ok(m);
    oa_node *sl = nth_of(g, OA_OP_STRIDED_SLICE_V2, 0);
    EXPECT_DESC(sl, 0, "f32[4,7]");
    assert_null(oa_node_input_src(sl, 4, NULL));
    oa_graph_destroy(g);
    tb_free(m);

    /* Gather -> GatherV2(x, indices, Const axis), negative indices allowed */
    m = tb_new(13);
    g0 = tb_root(m);
    const int64_t idx[2] = {-1, 0}, two = 2;
    tb_initializer(g0, tb_tensor_i64(m, "idx", 1, &two, idx));
    n = one_op(m, "Gather", "x,idx", "y", "3,4");
    tb_attr_int(m, n, "axis", 1);
    g = import_ok(m);
    oa_node *ga = nth_of(g, OA_OP_GATHER_V2, 0);
    assert_true(oa_node_attr_bool(ga, "negative_index_support", false));
    EXPECT_DESC(ga, 0, "f32[3,2]");
    oa_graph_destroy(g);
    tb_free(m);
}

static void mappings_math_ops(void **state)
{
    (void)state;
    /* Clip opset 9: Cast(f32) + ClipByValue(Const min, Const max) */
    tb_model *m = tb_new(9);
    Onnx__NodeProto *n = one_op(m, "Clip", "x", "y", "2");
    tb_attr_float(m, n, "min", 0.0f);
    tb_attr_float(m, n, "max", 6.0f);
    oa_graph *g = import_ok(m);
    assert_int_equal(count_of(g, OA_OP_CAST), 1);
    oa_node *cl = nth_of(g, OA_OP_CLIP_BY_VALUE, 0);
    assert_int_equal(oa_node_input_src(cl, 0, NULL)->type, OA_OP_CAST);
    oa_graph_destroy(g);
    tb_free(m);

    /* Clip opset 13: only max -> Minimum; none -> Identity */
    m = tb_new(13);
    tb_graph *g0 = tb_root(m);
    const float six = 6.0f;
    tb_initializer(g0, tb_tensor_f32(m, "hi", 0, NULL, &six));
    one_op(m, "Clip", "x,,hi", "y", "2");
    g = import_ok(m);
    assert_int_equal(oa_graph_find_node(g, "n")->type, OA_OP_MINIMUM);
    oa_graph_destroy(g);
    tb_free(m);

    /* ReduceMean opset 11: axes attr -> Const i32 input; keep_dims, noop=false */
    m = tb_new(11);
    n = one_op(m, "ReduceMean", "x", "y", "2,3,4");
    const int64_t axm1 = -1;
    tb_attr_ints(m, n, "axes", &axm1, 1);
    tb_attr_int(m, n, "keepdims", 0);
    g = import_ok(m);
    oa_node *rm = nth_of(g, OA_OP_REDUCE_MEAN, 0);
    assert_false(oa_node_attr_bool(rm, "keep_dims", true));
    assert_false(oa_node_attr_bool(rm, "noop_with_empty_axes", true));
    EXPECT_DESC(oa_node_input_src(rm, 1, NULL), 0, "i32[1]");
    EXPECT_DESC(rm, 0, "f32[2,3]");
    oa_graph_destroy(g);
    tb_free(m);

    /* ArgMax keepdims=1 -> TopK(k=1, largest) + Cast(i64); Max of 3 -> 2 Maximum */
    m = tb_new(13);
    g0 = tb_root(m);
    const int64_t d[2] = {2, 5};
    tb_input(g0, "x", F, 2, d);
    tb_input(g0, "z", F, 2, d);
    Onnx__NodeProto *am = tb_node(g0, "ArgMax", "am", "x", "a");
    tb_attr_int(m, am, "axis", 1);
    tb_node(g0, "Max", "mx", "x,z,x", "mm");
    tb_output(g0, "a");
    tb_output(g0, "mm");
    g = import_ok(m);
    oa_node *ed = nth_of(g, OA_OP_CAST, 0);
    assert_int_equal(oa_node_input_src(ed, 0, NULL)->type, OA_OP_TOP_K);
    assert_true(oa_node_attr_bool(oa_node_input_src(ed, 0, NULL), "largest", false));
    EXPECT_DESC(ed, 0, "i64[2,1]");
    assert_int_equal(count_of(g, OA_OP_MAXIMUM), 2);
    oa_graph_destroy(g);
    tb_free(m);

    /* TopK opset 11: TopK + Cast(indices -> i64); Cast -> dst_type GE enum */
    m = tb_new(11);
    g0 = tb_root(m);
    const int64_t k = 3, one = 1;
    tb_initializer(g0, tb_tensor_i64(m, "k", 1, &one, &k));
    one_op(m, "TopK", "x,k", "v,i", "4,10");
    tb_output(g0, "i");
    tb_node(g0, "Cast", "cast", "v", "vc");
    tb_attr_int(m, tb_graph_proto(g0)->node[1], "to", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16);
    tb_output(g0, "vc");
    g = import_ok(m);
    oa_node *tk = nth_of(g, OA_OP_TOP_K, 0);
    assert_int_equal(oa_node_attr_int(tk, "dim", 0), -1);
    EXPECT_DESC(tk, 0, "f32[4,3]");
    assert_string_equal(oa_graph_output_name(g, 1), "i");
    EXPECT_DESC(oa_graph_output_node(g), 1, "i64[4,3]");
    assert_int_equal(oa_node_attr_int(oa_graph_find_node(g, "cast"), "dst_type", -1), OA_DT_FLOAT16);
    oa_graph_destroy(g);
    tb_free(m);

    /* Gemm alpha/beta != 1 -> Muls on both terms */
    m = tb_new(13);
    g0 = tb_root(m);
    static float w[6 * 4], cb[6];
    const int64_t wd[2] = {4, 6}, cd[1] = {6};
    tb_initializer(g0, tb_tensor_f32(m, "w", 2, wd, w));
    tb_initializer(g0, tb_tensor_f32(m, "c", 1, cd, cb));
    n = one_op(m, "Gemm", "x,w,c", "y", "2,4");
    tb_attr_float(m, n, "alpha", 0.5f);
    tb_attr_float(m, n, "beta", 2.0f);
    g = import_ok(m);
    assert_int_equal(count_of(g, OA_OP_MULS), 2);
    EXPECT_DESC(oa_graph_output_node(g), 0, "f32[2,6]");
    oa_graph_destroy(g);
    tb_free(m);

    /* ConstantOfShape -> Fill(dims, Const scalar) ; value int64 7 */
    m = tb_new(13);
    g0 = tb_root(m);
    const int64_t dims[2] = {2, 3}, two = 2, seven = 7;
    tb_initializer(g0, tb_tensor_i64(m, "dims", 1, &two, dims));
    tb_input(g0, "x", F, 0, NULL);
    n = tb_node(g0, "ConstantOfShape", "cos", "dims", "y");
    tb_attr_tensor(m, n, "value", tb_tensor_i64(m, NULL, 1, &one, &seven));
    tb_output(g0, "y");
    g = import_ok(m);
    oa_node *fill = nth_of(g, OA_OP_FILL, 0);
    EXPECT_DESC(fill, 0, "i64[2,3]");
    assert_int_equal(fill->outputs[0].desc.value->i[4], 7);
    oa_graph_destroy(g);
    tb_free(m);
}

static void mappings_nn_ops(void **state)
{
    (void)state;
    /* Conv 1-D: Unsqueeze(x), Unsqueeze(w) -> Conv2D -> Squeeze */
    tb_model *m = tb_new(16);
    tb_graph *g0 = tb_root(m);
    static float w[8 * 2 * 3];
    const int64_t wd[3] = {8, 2, 3};
    tb_initializer(g0, tb_tensor_f32(m, "w", 3, wd, w));
    Onnx__NodeProto *n = one_op(m, "Conv", "x,w", "y", "1,2,16");
    const int64_t k3 = 3, s2 = 2, p11[2] = {1, 1};
    tb_attr_ints(m, n, "kernel_shape", &k3, 1);
    tb_attr_ints(m, n, "strides", &s2, 1);
    tb_attr_ints(m, n, "pads", p11, 2);
    oa_graph *g = import_ok(m);
    assert_int_equal(count_of(g, OA_OP_UNSQUEEZE), 2);
    oa_node *c2 = nth_of(g, OA_OP_CONV2D, 0);
    const int64_t st[4] = {1, 1, 1, 2}, pads[4] = {0, 0, 1, 1};
    assert_list(c2, "strides", st, 4);
    assert_list(c2, "pads", pads, 4);
    EXPECT_DESC(c2, 0, "f32[1,8,1,8]:NCHW");
    EXPECT_DESC(oa_graph_output_node(g), 0, "f32[1,8,8]");
    oa_graph_destroy(g);
    tb_free(m);

    /* LayerNormalization (opset 17): Identity/Shape/BroadcastTo/LayerNorm */
    m = tb_new(17);
    g0 = tb_root(m);
    static float gamma[8];
    const int64_t gd = 8;
    tb_initializer(g0, tb_tensor_f32(m, "gamma", 1, &gd, gamma));
    n = one_op(m, "LayerNormalization", "x,gamma", "y", "2,4,8");
    tb_attr_float(m, n, "epsilon", 1e-12f);
    g = import_ok(m);
    oa_node *ln = nth_of(g, OA_OP_LAYER_NORM, 0);
    assert_int_equal(oa_node_attr_int(ln, "begin_norm_axis", 0), -1);
    assert_int_equal(count_of(g, OA_OP_BROADCAST_TO), 2);
    assert_int_equal(oa_node_attr_int(nth_of(g, OA_OP_SHAPE, 0), "dtype", 0), OA_DT_INT32);
    EXPECT_DESC(oa_node_input_src(ln, 2, NULL), 0, "f32[2,4,8]");
    EXPECT_DESC(oa_graph_output_node(g), 0, "f32[2,4,8]");
    oa_graph_destroy(g);
    tb_free(m);

    /* Resize nearest (opset 11): Shape/Cast/Mul/Cast/Slice/ResizeNearestNeighborV2 */
    m = tb_new(11);
    g0 = tb_root(m);
    const float scales[4] = {1, 1, 2, 3};
    const int64_t four = 4, zero = 0;
    tb_initializer(g0, tb_tensor_f32(m, "roi", 1, &zero, NULL));
    tb_initializer(g0, tb_tensor_f32(m, "scales", 1, &four, scales));
    n = one_op(m, "Resize", "x,roi,scales", "y", "1,2,5,7");
    tb_attr_str(m, n, "mode", "nearest");
    tb_attr_str(m, n, "coordinate_transformation_mode", "asymmetric");
    g = import_ok(m);
    oa_node *rz = nth_of(g, OA_OP_RESIZE_NEAREST_NEIGHBOR_V2, 0);
    assert_false(oa_node_attr_bool(rz, "half_pixel_centers", true));
    assert_false(oa_node_attr_bool(rz, "align_corners", true));
    assert_int_equal(rz->num_ctrl_inputs, 2);
    EXPECT_DESC(rz, 0, "f32[1,2,10,21]:NCHW");
    oa_graph_destroy(g);
    tb_free(m);

    /* Resize linear with sizes -> Resize(x, roi, empty scales, Cast(sizes)) */
    m = tb_new(13);
    g0 = tb_root(m);
    const int64_t sizes[4] = {1, 2, 9, 9};
    tb_initializer(g0, tb_tensor_i64(m, "sizes", 1, &four, sizes));
    n = one_op(m, "Resize", "x,,,sizes", "y", "1,2,5,7");
    tb_attr_str(m, n, "mode", "linear");
    g = import_ok(m);
    oa_node *r = nth_of(g, OA_OP_RESIZE, 0);
    assert_string_equal(oa_node_attr_str(r, "coordinate_transformation_mode", ""), "half_pixel");
    assert_string_equal(oa_node_attr_str(r, "resize_original_type", ""), "onnx_resize");
    EXPECT_DESC(r, 0, "f32[1,2,9,9]");
    oa_graph_destroy(g);
    tb_free(m);

    /* BatchNormalization -> BatchNorm with 6 outputs; LSTM -> CommonLSTM */
    m = tb_new(13);
    g0 = tb_root(m);
    static float ch[3];
    const int64_t c3 = 3;
    const char *names[4] = {"sc", "bi", "mu", "va"};
    for (int i = 0; i < 4; i++) {
        tb_initializer(g0, tb_tensor_f32(m, names[i], 1, &c3, ch));
    }
    n = one_op(m, "BatchNormalization", "x,sc,bi,mu,va", "y", "1,3,4,4");
    tb_attr_float(m, n, "epsilon", 1e-3f);
    g = import_ok(m);
    oa_node *bn = nth_of(g, OA_OP_BATCH_NORM, 0);
    assert_int_equal(bn->num_outputs, 6);
    assert_false(oa_node_attr_bool(bn, "is_training", true));
    assert_string_equal(oa_node_attr_str(bn, "onnx", ""), "onnx");
    assert_true(oa_node_attr_float(bn, "epsilon", 0) == 1e-3f);
    oa_graph_destroy(g);
    tb_free(m);

    m = tb_new(14);
    g0 = tb_root(m);
    static float lw[1 * 16 * 5], lr[1 * 16 * 4];
    const int64_t lwd[3] = {1, 16, 5}, lrd[3] = {1, 16, 4};
    tb_initializer(g0, tb_tensor_f32(m, "W", 3, lwd, lw));
    tb_initializer(g0, tb_tensor_f32(m, "R", 3, lrd, lr));
    n = one_op(m, "LSTM", "x,W,R,,,,", "Y,Y_h,Y_c", "6,2,5");
    tb_attr_int(m, n, "hidden_size", 4);
    tb_output(g0, "Y_c");
    g = import_ok(m);
    oa_node *ls = nth_of(g, OA_OP_COMMON_LSTM, 0);
    assert_int_equal(ls->num_inputs, 8);
    assert_int_equal(oa_node_attr_int(ls, "hidden_size", 0), 4);
    EXPECT_DESC(ls, 0, "f32[6,1,2,4]");
    EXPECT_DESC(oa_graph_output_node(g), 1, "f32[1,2,4]");
    oa_graph_destroy(g);
    tb_free(m);
}

/*
 * If with branches that read outer tensors, including a nested If that
 * reads a tensor two scopes up and an LSTM-style omitted input "":
 *
 *   main: c, x, k(Const) ─ If(c) ─▶ y
 *     then: Add(x, k)                      (reads x, k)
 *     else: If(c) ─▶ out                   (reads c, x via its branches)
 *             then: Neg(x)      else: Identity(x)
 */
static void if_subgraphs(void **state)
{
    (void)state;
    tb_model *m = tb_new(16);
    tb_graph *g0 = tb_root(m);
    const int64_t d[1] = {3};
    tb_input(g0, "c", ONNX__TENSOR_PROTO__DATA_TYPE__BOOL, 0, NULL);
    tb_input(g0, "x", F, 1, d);
    static const float kv[3] = {1, 2, 3};
    Onnx__NodeProto *kn = tb_node(g0, "Constant", "kconst", "", "k");
    tb_attr_tensor(m, kn, "value", tb_tensor_f32(m, NULL, 1, d, kv));
    tb_graph *then_g = tb_graph_new(m, "then");
    tb_node(then_g, "Add", NULL, "x,k", "t_out");
    tb_output(then_g, "t_out");
    tb_graph *inner_then = tb_graph_new(m, "inner_then");
    tb_node(inner_then, "Neg", NULL, "x", "it_out");
    tb_output(inner_then, "it_out");
    tb_graph *inner_else = tb_graph_new(m, "inner_else");
    tb_node(inner_else, "Identity", NULL, "x", "ie_out");
    tb_output(inner_else, "ie_out");
    tb_graph *else_g = tb_graph_new(m, "else");
    Onnx__NodeProto *inner = tb_node(else_g, "If", "inner_if", "c", "e_out");
    tb_attr_graph(m, inner, "then_branch", inner_then);
    tb_attr_graph(m, inner, "else_branch", inner_else);
    tb_output(else_g, "e_out");
    Onnx__NodeProto *ifn = tb_node(g0, "If", "if", "c", "y");
    tb_attr_graph(m, ifn, "then_branch", then_g);
    tb_attr_graph(m, ifn, "else_branch", else_g);
    tb_output(g0, "y");
    oa_graph *g = import_ok(m);
    oa_node *n = oa_graph_find_node(g, "if");
    assert_int_equal(n->type, OA_OP_IF);
    /* inputs: cond, then the sorted free names {c, k, x} */
    assert_int_equal(n->num_inputs, 4);
    assert_string_equal(oa_node_input_src(n, 1, NULL)->name, "c");
    assert_string_equal(oa_node_input_src(n, 2, NULL)->name, "kconst");
    assert_string_equal(oa_node_input_src(n, 3, NULL)->name, "x");
    oa_graph *t = oa_node_subgraph_by_ir_name(n, "then_branch");
    assert_string_equal(oa_graph_name(t), "if_0_then_branch");
    assert_string_equal(oa_graph_name(oa_node_subgraph(n, 1)), "if_1_else_branch");
    oa_node *dk = oa_graph_find_node(t, "if_0_then_branch/k");
    assert_non_null(dk);
    assert_int_equal(oa_node_attr_int(dk, "index", -1), 1);
    assert_int_equal(oa_node_attr_int(dk, "_parent_node_index", -1), 2);
    /* unnamed branch nodes: one counter, root first then breadth-first */
    assert_non_null(oa_graph_find_node(t, "if_0_then_branch/Add_0"));
    oa_graph *e = oa_node_subgraph(n, 1);
    oa_node *in_if = oa_graph_find_node(e, "if_1_else_branch/inner_if");
    assert_non_null(in_if);
    assert_string_equal(oa_graph_name(oa_node_subgraph(in_if, 0)), "if_1_else_branch/inner_if_0_then_branch");
    assert_non_null(oa_graph_find_node(oa_node_subgraph(in_if, 0), "if_1_else_branch/inner_if_0_then_branch/Neg_1"));
    oa_node *tout = oa_graph_output_node(t);
    int64_t pni;
    assert_true(oa_attrs_get_int(&tout->inputs[0].desc.attrs, "_parent_node_index", &pni));
    assert_int_equal(pni, 0);
    EXPECT_DESC(n, 0, "f32[3]");
    /* The Constant reached the branch as a value. */
    assert_non_null(dk->outputs[0].desc.value);
    oa_graph_destroy(g);
    tb_free(m);
}

static void constants(void **state)
{
    (void)state;
    tb_model *m = tb_new(13);
    tb_graph *g0 = tb_root(m);
    tb_input(g0, "x", F, 0, NULL);
    Onnx__NodeProto *a = tb_node(g0, "Constant", "a", "", "av");
    tb_attr_float(m, a, "value_float", 2.5f);
    Onnx__NodeProto *b = tb_node(g0, "Constant", "b", "", "bv");
    const int64_t ints[3] = {4, 5, 6};
    tb_attr_ints(m, b, "value_ints", ints, 3);
    tb_node(g0, "Add", "add", "x,av", "y");
    tb_output(g0, "y");
    tb_output(g0, "bv");
    oa_graph *g = import_ok(m);
    oa_node *an = oa_graph_find_node(g, "a");
    assert_int_equal(an->type, OA_OP_CONST);
    EXPECT_DESC(an, 0, "f32[]");
    EXPECT_DESC(oa_graph_find_node(g, "b"), 0, "i64[3]");
    assert_int_equal(oa_graph_find_node(g, "b")->outputs[0].desc.value->i[2], 6);
    oa_graph_destroy(g);
    tb_free(m);

    m = tb_new(13);
    g0 = tb_root(m);
    Onnx__NodeProto *s = tb_node(g0, "Constant", "s", "", "sv");
    tb_attr_str(m, s, "value_string", "hi");
    tb_output(g0, "sv");
    oa_graph *bad;
    EXPECT_FAIL(import_ex(m, NULL, NULL, &bad), OA_E_FEATURE_UNSUPPORTED, "value_string is not supported");
    assert_null(bad);
    tb_free(m);
}

static void unsupported_ops_single_error(void **state)
{
    (void)state;
    tb_model *m = tb_new(13);
    tb_graph *g0 = tb_root(m);
    const int64_t d[1] = {4};
    tb_input(g0, "x", F, 1, d);
    tb_node(g0, "Einsum", "e1", "x", "a");
    tb_node(g0, "StringNormalizer", "nz", "a", "b");
    tb_node(g0, "Einsum", NULL, "b", "c");
    Onnx__NodeProto *ms = tb_node(g0, "FusedGemm", "fg", "c", "y");
    ms->domain = "com.microsoft";
    tb_output(g0, "y");
    oa_graph *g;
    oa_error_clear();
    oa_status st = import_ex(m, NULL, NULL, &g);
    assert_int_equal(st, OA_E_FEATURE_UNSUPPORTED);
    assert_null(g);
    const char *msg = oa_error_take_messages();
    assert_non_null(msg);
    assert_null(strchr(msg, '\n')); /* exactly one message */
    assert_non_null(strstr(msg, "E16002: the model uses 3 unsupported ONNX op types at opset 13"));
    assert_non_null(strstr(msg, "Einsum (2 nodes: e1, node #2 -> c)")); /* unnamed: index and output */
    assert_non_null(strstr(msg, "docs/onnx_ops.md"));
    assert_non_null(strstr(msg, "StringNormalizer (1 node: nz)"));
    assert_non_null(strstr(msg, "com.microsoft::FusedGemm (1 node: fg)"));
    tb_free(m);

    m = tb_new(22);
    tb_node(tb_root(m), "Relu", "r", "x", "y");
    EXPECT_FAIL(import_ex(m, NULL, NULL, &g), OA_E_FEATURE_UNSUPPORTED, "opset 22; opsets 1 to 21");
    tb_free(m);
    /* Opsets 19-21 changed only types for most ops (docs/onnx_ops.md "Opsets"): Relu imports at 21. */
    m = tb_new(21);
    tb_input(tb_root(m), "x", F, 1, d);
    tb_node(tb_root(m), "Relu", "r", "x", "y");
    tb_output(tb_root(m), "y");
    assert_int_equal(import_ex(m, NULL, NULL, &g), OA_OK);
    oa_graph_destroy(g);
    tb_free(m);
    /* ... but an op whose meaning changed after 18 stops at its last known version (Pad-19 adds mode wrap). */
    m = tb_new(19);
    one_op(m, "Pad", "x", "y", "1,1,2,2");
    EXPECT_FAIL(import_ex(m, NULL, NULL, &g), OA_E_FEATURE_UNSUPPORTED, "Pad (1 node: n)");
    tb_free(m);
    m = tb_new(-1);
    EXPECT_FAIL(import_ex(m, NULL, NULL, &g), OA_E_PARSE_MODEL, "does not import the default operator set");
    tb_free(m);
    /* An op outside its opset range: Upsample was removed after opset 9. */
    m = tb_new(13);
    one_op(m, "Upsample", "x", "y", "1,1,2,2");
    EXPECT_FAIL(import_ex(m, NULL, NULL, &g), OA_E_FEATURE_UNSUPPORTED, "Upsample (1 node: n)");
    tb_free(m);
}

/* Every structural error is one clear failure, never a crash. */
static void malformed_graphs(void **state)
{
    (void)state;
    oa_graph *g;
    const int64_t d[1] = {2};
    struct {
        const char *what;
        oa_status want;
        const char *fragment;
    } cases[] = {
        {"dangling input", OA_E_PARSE_MODEL, "input 1 reads tensor [ghost], which no node, input or initializer"},
        {"dangling output", OA_E_PARSE_MODEL, "output [nothing] is not produced"},
        {"cycle", OA_E_PARSE_MODEL, "has a cycle"},
        {"duplicate producer", OA_E_PARSE_MODEL, "is produced by two nodes"},
        {"no graph", OA_E_PARSE_MODEL, "has no graph"},
        {"sequence input", OA_E_FEATURE_UNSUPPORTED, "is not a tensor"},
        {"negative input dim", OA_E_PARSE_MODEL, "negative dim -3"},
        {"rank 9 input", OA_E_FEATURE_UNSUPPORTED, "has rank 9"},
        {"no op_type", OA_E_PARSE_MODEL, "has no op_type"},
        {"wrong attr type", OA_E_PARSE_MODEL, "attribute axis has type 1, expected INT"},
        {"missing required attr", OA_E_PARSE_MODEL, "misses required attribute axis"},
        {"no outputs", OA_E_PARSE_MODEL, "has no outputs"},
        {"shape conflict", OA_E_GE_SHAPE, "not broadcastable"},
        {"input also produced", OA_E_PARSE_MODEL, "is also a graph input"},
        {"string initializer", OA_E_FEATURE_UNSUPPORTED, "string tensors are not supported"},
        {"bad elem type", OA_E_FEATURE_UNSUPPORTED, "unsupported element type 99"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        tb_model *m = tb_new(13);
        tb_graph *g0 = tb_root(m);
        const int64_t d3[1] = {3};
        const int64_t d9[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1}, neg[1] = {-3};
        switch (i) {
        case 0:
            tb_input(g0, "x", F, 1, d);
            tb_node(g0, "Add", "add", "x,ghost", "y");
            tb_output(g0, "y");
            break;
        case 1:
            tb_input(g0, "x", F, 1, d);
            tb_node(g0, "Relu", "r", "x", "y");
            tb_output(g0, "nothing");
            break;
        case 2:
            tb_input(g0, "x", F, 1, d);
            tb_node(g0, "Add", "a", "x,b_out", "a_out");
            tb_node(g0, "Relu", "b", "a_out", "b_out");
            tb_output(g0, "b_out");
            break;
        case 3:
            tb_input(g0, "x", F, 1, d);
            tb_node(g0, "Relu", "a", "x", "y");
            tb_node(g0, "Neg", "b", "x", "y");
            tb_output(g0, "y");
            break;
        case 4:
            tb_proto(m)->graph = NULL;
            break;
        case 5: {
            tb_input(g0, "x", F, 1, d);
            Onnx__TypeProto *tp = tb_graph_proto(g0)->input[0]->type;
            tp->value_case = ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE;
            static Onnx__TypeProto__Sequence seq = ONNX__TYPE_PROTO__SEQUENCE__INIT;
            tp->sequence_type = &seq;
            tb_node(g0, "Relu", "r", "x", "y");
            tb_output(g0, "y");
            break;
        }
        case 6:
            tb_input(g0, "x", F, 1, d);
            tb_graph_proto(g0)->input[0]->type->tensor_type->shape->dim[0]->dim_value = neg[0];
            tb_node(g0, "Relu", "r", "x", "y");
            tb_output(g0, "y");
            break;
        case 7:
            tb_input(g0, "x", F, 9, d9);
            tb_node(g0, "Relu", "r", "x", "y");
            tb_output(g0, "y");
            break;
        case 8:
            tb_input(g0, "x", F, 1, d);
            tb_node(g0, "", "r", "x", "y");
            tb_output(g0, "y");
            break;
        case 9: {
            tb_input(g0, "x", F, 1, d);
            Onnx__NodeProto *n = tb_node(g0, "Concat", "cat", "x,x", "y");
            tb_attr_float(m, n, "axis", 0.0f);
            tb_output(g0, "y");
            break;
        }
        case 10:
            tb_input(g0, "x", F, 1, d);
            tb_node(g0, "Concat", "cat", "x,x", "y");
            tb_output(g0, "y");
            break;
        case 11:
            tb_input(g0, "x", F, 1, d);
            tb_node(g0, "Relu", "r", "x", "y");
            break;
        case 12:
            tb_input(g0, "x", F, 1, d);
            tb_input(g0, "z", F, 1, d3);
            tb_node(g0, "Add", "add", "x,z", "y");
            tb_output(g0, "y");
            break;
        case 13:
            tb_input(g0, "x", F, 1, d);
            tb_node(g0, "Relu", "r", "x", "x");
            tb_output(g0, "x");
            break;
        case 14:
            tb_initializer(g0, tb_tensor(m, "s", ONNX__TENSOR_PROTO__DATA_TYPE__STRING, 1, d, "ab", 2));
            tb_node(g0, "Identity", "i", "s", "y");
            tb_output(g0, "y");
            break;
        case 15:
            tb_input(g0, "x", 99, 1, d);
            tb_node(g0, "Relu", "r", "x", "y");
            tb_output(g0, "y");
            break;
        }
        oa_error_clear();
        oa_status st = import_ex(m, NULL, NULL, &g);
        const char *msg = oa_error_take_messages();
        if (st != cases[i].want || msg == NULL || strstr(msg, cases[i].fragment) == NULL) {
            print_error("case [%s]: status %s, message [%s]\n", cases[i].what, oa_status_str(st), msg ? msg : "");
            fail();
        }
        assert_null(g);
        tb_free(m);
    }
}

/* Tensor data that does not fit its dims, in initializers. */
static void absurd_tensors(void **state)
{
    (void)state;
    oa_graph *g;
    struct {
        int64_t dims[3];
        int rank;
        size_t bytes;
        const char *fragment;
    } cases[] = {
        {{1LL << 40, 1LL << 40, 1LL << 40}, 3, 4, "overflows"},
        {{1000000000, 0, 0}, 1, 4, "raw_data has 4 bytes"},
        {{-5, 0, 0}, 1, 4, "negative dim -5"},
        {{1LL << 62, 4, 0}, 2, 4, "overflows"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        tb_model *m = tb_new(13);
        tb_graph *g0 = tb_root(m);
        tb_initializer(g0, tb_tensor(m, "w", F, cases[i].rank, cases[i].dims, "\0\0\0\0", cases[i].bytes));
        tb_node(g0, "Identity", "i", "w", "y");
        tb_output(g0, "y");
        oa_error_clear();
        oa_status st = import_ex(m, NULL, NULL, &g);
        const char *msg = oa_error_take_messages();
        if (st != OA_E_PARSE_MODEL || msg == NULL || strstr(msg, cases[i].fragment) == NULL) {
            print_error("case %zu: status %s, message [%s]\n", i, oa_status_str(st), msg ? msg : "");
            fail();
        }
        tb_free(m);
    }
    /* typed fields with the wrong count */
    tb_model *m = tb_new(13);
    tb_graph *g0 = tb_root(m);
    Onnx__TensorProto *t = tb_tensor_f32(m, "w", 1, (const int64_t[]){3}, (const float[]){1, 2, 3});
    t->has_raw_data = 0;
    static float two[2] = {1, 2};
    t->float_data = two;
    t->n_float_data = 2;
    tb_initializer(g0, t);
    tb_node(g0, "Identity", "i", "w", "y");
    tb_output(g0, "y");
    EXPECT_FAIL(import_ex(m, NULL, NULL, &g), OA_E_PARSE_MODEL, "float_data holds 2 elements, its dims need 3");
    tb_free(m);
}

/* Corrupt bytes: empty, garbage, every truncation, deep nesting, lying
 * lengths. Nothing may crash; errors use the documented codes. */
static void corrupt_bytes(void **state)
{
    (void)state;
    oa_graph *g;
    EXPECT_FAIL(oa_onnx_import_buffer("", 0, NULL, NULL, &g), OA_E_PARSE_MODEL, "is empty");
    EXPECT_FAIL(oa_onnx_import_buffer("\xff\xff\xff\xff", 4, NULL, NULL, &g), OA_E_PARSE_MODEL,
                "not a valid ONNX model");
    EXPECT_FAIL(oa_onnx_import_buffer("\x3a\x80\x80\x80\x80\x10", 6, NULL, NULL, &g), OA_E_PARSE_MODEL,
                "runs past the end");
    EXPECT_FAIL(oa_onnx_import_buffer("\x0b\x01", 2, NULL, NULL, &g), OA_E_PARSE_MODEL, "unsupported wire type");
    /* 5000 nested GraphProto->NodeProto->AttributeProto->GraphProto levels
     * built from the inside out (field 7 graph, 1 node, 5 attribute, 6 g). */
    size_t cap = 1 << 20, len = 0;
    uint8_t *buf = malloc(cap), *tmp = malloc(cap);
    /* from the outside in: GraphProto.node (1), NodeProto.attribute (5),
     * AttributeProto.g (6), GraphProto.node, ... */
    static const uint8_t tags[3] = {0x0a, 0x2a, 0x32};
    const int levels = 4998;
    for (int level = 0; level < levels && len + 16 < cap; level++) {
        uint8_t tag = tags[(levels - 1 - level) % 3];
        size_t hdr = 0;
        tmp[hdr++] = tag;
        size_t v = len;
        do {
            tmp[hdr++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
            v >>= 7;
        } while (v);
        memmove(buf + hdr, buf, len);
        memcpy(buf, tmp, hdr);
        len += hdr;
    }
    /* wrap into ModelProto.graph (field 7) */
    tmp[0] = 0x3a;
    size_t hdr = 1, v = len;
    do {
        tmp[hdr++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    memmove(buf + hdr, buf, len);
    memcpy(buf, tmp, hdr);
    len += hdr;
    EXPECT_FAIL(oa_onnx_import_buffer(buf, len, NULL, NULL, &g), OA_E_PARSE_MODEL, "nest too deeply");
    free(buf);
    free(tmp);

    /* Every prefix and many single-byte flips of a valid model. */
    tb_model *m = tb_new(13);
    tb_graph *g0 = tb_root(m);
    tb_input(g0, "x", F, 4, D4);
    static float w[2 * 3 * 1 * 1] = {1, 2, 3, 4, 5, 6};
    const int64_t wd[4] = {2, 3, 1, 1};
    tb_initializer(g0, tb_tensor_f32(m, "w", 4, wd, w));
    Onnx__NodeProto *c = tb_node(g0, "Conv", "conv", "x,w", "y");
    const int64_t k1[2] = {1, 1};
    tb_attr_ints(m, c, "kernel_shape", k1, 2);
    tb_output(g0, "y");
    size_t full;
    uint8_t *model = tb_pack(m, &full);
    tb_free(m);
    EXPECT_OK(oa_onnx_import_buffer(model, full, NULL, NULL, &g));
    oa_graph_destroy(g);
    for (size_t cut = 1; cut < full; cut++) {
        oa_status st = oa_onnx_import_buffer(model, cut, NULL, NULL, &g);
        (void)oa_error_take_messages();
        if (st == OA_OK) {
            oa_graph_destroy(g);
        } else {
            assert_null(g);
        }
    }
    uint8_t *flip = malloc(full);
    for (size_t i = 0; i < full; i++) {
        for (int bit = 0; bit < 8; bit += 3) {
            memcpy(flip, model, full);
            flip[i] ^= (uint8_t)(1u << bit);
            oa_status st = oa_onnx_import_buffer(flip, full, NULL, NULL, &g);
            (void)oa_error_take_messages();
            if (st == OA_OK) {
                oa_graph_destroy(g);
            }
        }
    }
    free(flip);
    free(model);
}

/* ---- external data ---- */

static char g_dir[256];

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

static int setup_dir(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof(g_dir), "/tmp/oa_onnx_ext_XXXXXX");
    if (mkdtemp(g_dir) == NULL) {
        return -1;
    }
    char p[512];
    float vals[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    snprintf(p, sizeof(p), "%s/weights.bin", g_dir);
    write_file(p, vals, sizeof(vals));
    snprintf(p, sizeof(p), "%s/sub", g_dir);
    mkdir(p, 0700);
    snprintf(p, sizeof(p), "%s/sub/w2.bin", g_dir);
    write_file(p, vals, sizeof(vals));
    snprintf(p, sizeof(p), "%s_outside.bin", g_dir);
    write_file(p, vals, sizeof(vals));
    char link[512];
    snprintf(link, sizeof(link), "%s/escape.bin", g_dir);
    if (symlink(p, link) != 0) {
        return -1;
    }
    snprintf(link, sizeof(link), "%s/inside_link.bin", g_dir);
    if (symlink("sub/w2.bin", link) != 0) {
        return -1;
    }
    return 0;
}

static int teardown_dir(void **state)
{
    (void)state;
    const char *names[] = {"weights.bin", "sub/w2.bin", "escape.bin", "inside_link.bin", "model.onnx", "sub", ""};
    char p[512];
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        snprintf(p, sizeof(p), "%s/%s", g_dir, names[i]);
        if (remove(p) != 0 && errno != ENOENT) {
            fprintf(stderr, "cannot remove %s\n", p);
        }
    }
    snprintf(p, sizeof(p), "%s_outside.bin", g_dir);
    remove(p);
    return 0;
}

static tb_model *ext_model(const char *location, int64_t offset, int64_t length, const int64_t *dims, int rank)
{
    tb_model *m = tb_new(13);
    tb_graph *g0 = tb_root(m);
    tb_initializer(g0, tb_tensor_external(m, "w", F, rank, dims, location, offset, length));
    tb_node(g0, "Identity", "i", "w", "y");
    tb_output(g0, "y");
    return m;
}

static void external_data(void **state)
{
    (void)state;
    const int64_t d4 = 4;
    oa_graph *g;
    /* FileConstant (default): location resolved inside the model dir */
    tb_model *m = ext_model("weights.bin", 16, 16, &d4, 1);
    EXPECT_OK(import_ex(m, g_dir, NULL, &g));
    oa_node *fc = oa_graph_find_node(g, "w_Initializer_0");
    assert_int_equal(fc->type, OA_OP_FILE_CONSTANT);
    const char *loc = oa_node_attr_str(fc, "location", "");
    assert_non_null(strstr(loc, "/weights.bin"));
    assert_int_equal(loc[0], '/');
    assert_int_equal(oa_node_attr_int(fc, "offset", -1), 16);
    assert_int_equal(oa_node_attr_int(fc, "length", -1), 16);
    oa_dtype dt;
    assert_true(oa_attrs_get_dtype(&fc->attrs, "dtype", &dt));
    assert_int_equal(dt, OA_DT_FLOAT);
    assert_list(fc, "shape", &d4, 1);
    assert_list(fc, "original_shape", &d4, 1);
    EXPECT_DESC(oa_graph_output_node(g), 0, "f32[4]");
    oa_graph_destroy(g);
    /* Mapped: Const borrowing the file bytes */
    oa_onnx_options opt;
    oa_onnx_options_init(&opt);
    opt.map_external_data = true;
    EXPECT_OK(import_ex(m, g_dir, &opt, &g));
    fc = oa_graph_find_node(g, "w_Initializer_0");
    assert_int_equal(fc->type, OA_OP_CONST);
    const oa_tensor *t;
    EXPECT_OK(oa_node_require_tensor(fc, "value", &t));
    assert_non_null(t->blob);
    assert_true(((const float *)t->data)[0] == 4.0f);
    assert_true(((const float *)t->data)[3] == 7.0f);
    oa_graph *clone;
    EXPECT_OK(oa_graph_clone(g, &clone));
    oa_graph_destroy(g); /* the clone keeps the mapping alive */
    EXPECT_OK(oa_node_require_tensor(oa_graph_find_node(clone, "w_Initializer_0"), "value", &t));
    assert_true(((const float *)t->data)[1] == 5.0f);
    oa_graph_destroy(clone);
    tb_free(m);
    /* A symlink that stays inside the directory is fine; subdirectories too. */
    m = ext_model("inside_link.bin", -1, -1, &d4, 1);
    EXPECT_OK(import_ex(m, g_dir, &opt, &g));
    oa_graph_destroy(g);
    tb_free(m);
    m = ext_model("sub/w2.bin", 0, -1, &d4, 1);
    EXPECT_OK(import_ex(m, g_dir, NULL, &g));
    oa_graph_destroy(g);
    tb_free(m);

    struct {
        const char *loc;
        int64_t off, len, dim;
        oa_status want;
        const char *fragment;
    } bad[] = {
        {"/etc/passwd", -1, -1, 4, OA_E_INVALID_FILE, "is absolute"},
        {"../weights.bin", -1, -1, 4, OA_E_INVALID_FILE, "contains '..'"},
        {"sub/../../x.bin", -1, -1, 4, OA_E_INVALID_FILE, "contains '..'"},
        {"escape.bin", -1, -1, 4, OA_E_INVALID_FILE, "outside the model directory"},
        {"missing.bin", -1, -1, 4, OA_E_INVALID_FILE, "cannot be opened"},
        {"weights.bin", 24, -1, 4, OA_E_INVALID_FILE_SIZE, "exceeds the file size 32"},
        {"weights.bin", 0, 12, 4, OA_E_INVALID_FILE_SIZE, "length 12 differs from the tensor size 16"},
        {"weights.bin", 4096, 16, 4, OA_E_INVALID_FILE_SIZE, "exceeds the file size"},
        {"weights.bin", -1, -1, 1LL << 40, OA_E_INVALID_FILE_SIZE, "exceeds the file size"},
        {"", -1, -1, 4, OA_E_INVALID_FILE, "empty external data location"},
        {"sub", -1, -1, 4, OA_E_INVALID_FILE, "not a regular file"},
        {NULL, -1, -1, 4, OA_E_PARSE_MODEL, "no location"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        for (int mapped = 0; mapped < 2; mapped++) {
            m = ext_model(bad[i].loc, bad[i].off, bad[i].len, &bad[i].dim, 1);
            opt.map_external_data = mapped != 0;
            oa_error_clear();
            oa_status st = import_ex(m, g_dir, &opt, &g);
            const char *msg = oa_error_take_messages();
            if (st != bad[i].want || msg == NULL || strstr(msg, bad[i].fragment) == NULL) {
                print_error("external case %zu (%s): status %s, message [%s]\n", i, bad[i].loc ? bad[i].loc : "null",
                            oa_status_str(st), msg ? msg : "");
                fail();
            }
            tb_free(m);
        }
    }
    /* From memory there is no directory to resolve against. */
    m = ext_model("weights.bin", -1, -1, &d4, 1);
    EXPECT_FAIL(import_ex(m, NULL, NULL, &g), OA_E_INVALID_FILE, "not loaded from a file");
    /* The file entry point uses the model's own directory. */
    size_t len;
    uint8_t *bytes = tb_pack(m, &len);
    char path[512];
    snprintf(path, sizeof(path), "%s/model.onnx", g_dir);
    write_file(path, bytes, len);
    free(bytes);
    EXPECT_OK(oa_onnx_import_file(path, NULL, &g));
    oa_graph_destroy(g);
    tb_free(m);
    EXPECT_FAIL(oa_onnx_import_file("/nonexistent/model.onnx", NULL, &g), OA_E_READ_MODEL, "cannot read");
    EXPECT_FAIL(oa_onnx_import_file(g_dir, NULL, &g), OA_E_READ_MODEL, "not a regular file");
}

static void input_shape_option(void **state)
{
    (void)state;
    tb_model *m = tb_new(13);
    const int64_t dyn[2] = {-1, 6};
    tb_graph *g0 = tb_root(m);
    tb_input(g0, "x", F, 2, dyn);
    const int64_t t2 = 2, target[2] = {-1, 3};
    tb_initializer(g0, tb_tensor_i64(m, "t", 1, &t2, target));
    tb_node(g0, "Reshape", "r", "x,t", "y");
    tb_output(g0, "y");
    oa_graph *g;
    EXPECT_OK(import_ex(m, NULL, NULL, &g));
    EXPECT_DESC(oa_graph_output_node(g), 0, "f32[-1,3]");
    oa_graph_destroy(g);
    oa_onnx_options opt;
    oa_onnx_options_init(&opt);
    opt.input_shape = "x:4,6";
    EXPECT_OK(import_ex(m, NULL, &opt, &g));
    EXPECT_DESC(oa_graph_output_node(g), 0, "f32[8,3]");
    oa_graph_destroy(g);
    opt.input_shape = "x:4,5";
    EXPECT_FAIL(import_ex(m, NULL, &opt, &g), OA_E_PARAM, "fixes it to 6");
    opt.input_shape = "y:4,6";
    EXPECT_FAIL(import_ex(m, NULL, &opt, &g), OA_E_PARAM, "not a model input");
    opt.input_shape = NULL;
    opt.skip_infer = true;
    EXPECT_OK(import_ex(m, NULL, &opt, &g));
    EXPECT_DESC(oa_graph_output_node(g), 0, "f32[-2]");
    oa_graph_destroy(g);
    EXPECT_FAIL(oa_onnx_import_buffer("x", 1, NULL, NULL, NULL), OA_E_PARAM, "must not be null");
    tb_free(m);
    const char *names[512];
    size_t n = oa_onnx_supported_ops(names, 512);
    assert_true(n > 80 && n < 512);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(basic_model),
        cmocka_unit_test(mappings_shape_ops),
        cmocka_unit_test(mappings_math_ops),
        cmocka_unit_test(mappings_nn_ops),
        cmocka_unit_test(if_subgraphs),
        cmocka_unit_test(constants),
        cmocka_unit_test(unsupported_ops_single_error),
        cmocka_unit_test(malformed_graphs),
        cmocka_unit_test(absurd_tensors),
        cmocka_unit_test(corrupt_bytes),
        cmocka_unit_test_setup_teardown(external_data, setup_dir, teardown_dir),
        cmocka_unit_test(input_shape_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

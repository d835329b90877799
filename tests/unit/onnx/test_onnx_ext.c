/*
 * The extension table of the ONNX importer (src/onnx/onnx_ops_ext.c):
 * sequences inside a graph, and the edges the ONNX backend suite does not
 * reach (non-constant positions, chunked SplitToSequence, new_axis concat).
 */
#include <stdlib.h>

#include "../graph/graph_test_util.h"
#include "onnx/onnx_import.h"
#include "onnx_builder.h"

#define F ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT
#define I64 ONNX__TENSOR_PROTO__DATA_TYPE__INT64

static oa_status import_m(tb_model *m, oa_graph **g)
{
    size_t len;
    uint8_t *buf = tb_pack(m, &len);
    oa_status st = oa_onnx_import_buffer(buf, len, NULL, NULL, g);
    free(buf);
    return st;
}

/* The producer of graph output k. */
static oa_node *out_src(oa_graph *g, uint32_t k)
{
    uint32_t idx;
    return oa_node_input_src(oa_graph_output_node(g), k, &idx);
}

static void seq_construct_erase_at(void **state)
{
    (void)state;
    tb_model *m = tb_new(13);
    tb_graph *g0 = tb_root(m);
    const int64_t d[2] = {2, 3};
    tb_input(g0, "x", F, 2, d);
    tb_input(g0, "y", F, 2, d);
    tb_input(g0, "z", F, 2, d);
    tb_node(g0, "SequenceConstruct", "sc", "x,y,z", "s1");
    tb_node(g0, "SequenceErase", "se", "s1", "s2");        /* default: the last one (z) */
    const int64_t m1 = -1;
    tb_initializer(g0, tb_tensor_i64(m, "pm1", 0, NULL, &m1));
    tb_node(g0, "SequenceAt", "sa", "s2,pm1", "out");       /* -1: y */
    tb_node(g0, "SequenceLength", "sl", "s2", "len");
    tb_output(g0, "out");
    tb_output(g0, "len");
    oa_graph *g = NULL;
    EXPECT_OK(import_m(m, &g));
    oa_node *at = out_src(g, 0);
    assert_int_equal(at->type, OA_OP_IDENTITY);
    uint32_t idx;
    oa_node *src = oa_node_input_src(at, 0, &idx);
    assert_string_equal(src->name, "y");
    oa_node *len = out_src(g, 1);
    assert_int_equal(len->type, OA_OP_CONST);
    const oa_tensor *t;
    EXPECT_OK(oa_node_require_tensor(len, "value", &t));
    assert_int_equal(t->desc.dtype, OA_DT_INT64);
    assert_int_equal(*(const int64_t *)t->data, 2);
    EXPECT_DESC(oa_graph_output_node(g), 1, "i64[]");
    oa_graph_destroy(g);
    tb_free(m);
}

static void seq_position_not_constant(void **state)
{
    (void)state;
    tb_model *m = tb_new(13);
    tb_graph *g0 = tb_root(m);
    const int64_t d[1] = {4};
    tb_input(g0, "x", F, 1, d);
    tb_input(g0, "p", I64, 0, NULL);
    tb_node(g0, "SequenceConstruct", "sc", "x,x", "s1");
    tb_node(g0, "SequenceAt", "sa", "s1,p", "out");
    tb_output(g0, "out");
    oa_graph *g = NULL;
    EXPECT_FAIL(import_m(m, &g), OA_E_FEATURE_UNSUPPORTED, "E16002: ONNX node sa (SequenceAt): the position");
    assert_null(g);
    tb_free(m);

    /* out of range, and a tensor where a sequence is expected */
    m = tb_new(13);
    g0 = tb_root(m);
    tb_input(g0, "x", F, 1, d);
    const int64_t five = 5;
    tb_initializer(g0, tb_tensor_i64(m, "p5", 0, NULL, &five));
    tb_node(g0, "SequenceConstruct", "sc", "x,x", "s1");
    tb_node(g0, "SequenceInsert", "si", "s1,x,p5", "s2");
    tb_node(g0, "SequenceAt", "sa", "s2,p5", "out");
    tb_output(g0, "out");
    EXPECT_FAIL(import_m(m, &g), OA_E_PARAM, "position 5 is out of range for a sequence of 2 tensors");
    tb_free(m);

    m = tb_new(13);
    g0 = tb_root(m);
    tb_input(g0, "x", F, 1, d);
    tb_node(g0, "SequenceLength", "sl", "x", "len");
    tb_output(g0, "len");
    EXPECT_FAIL(import_m(m, &g), OA_E_FEATURE_UNSUPPORTED, "is a tensor or a sequence from outside this graph");
    tb_free(m);
}

static void split_chunks_and_stack(void **state)
{
    (void)state;
    /* SplitToSequence with a scalar split: chunks 2, 2, 1; ConcatFromSequence new_axis stacks */
    tb_model *m = tb_new(13);
    tb_graph *g0 = tb_root(m);
    const int64_t d[2] = {5, 3};
    tb_input(g0, "x", F, 2, d);
    const int64_t two = 2;
    tb_initializer(g0, tb_tensor_i64(m, "two", 0, NULL, &two));
    tb_node(g0, "SplitToSequence", "ss", "x,two", "s1");
    tb_node(g0, "SequenceLength", "sl", "s1", "len");
    Onnx__NodeProto *cat = tb_node(g0, "ConcatFromSequence", "cf", "s1", "cat");
    tb_attr_int(m, cat, "axis", 0);
    /* keepdims=0 pieces of 1 row, stacked on a new last axis: the transpose */
    Onnx__NodeProto *s2 = tb_node(g0, "SplitToSequence", "ss2", "x", "s2");
    tb_attr_int(m, s2, "keepdims", 0);
    Onnx__NodeProto *st = tb_node(g0, "ConcatFromSequence", "cf2", "s2", "stack");
    tb_attr_int(m, st, "axis", -1);
    tb_attr_int(m, st, "new_axis", 1);
    tb_output(g0, "len");
    tb_output(g0, "cat");
    tb_output(g0, "stack");
    oa_graph *g = NULL;
    EXPECT_OK(import_m(m, &g));
    const oa_tensor *t;
    EXPECT_OK(oa_node_require_tensor(out_src(g, 0), "value", &t));
    assert_int_equal(*(const int64_t *)t->data, 3);
    EXPECT_DESC(oa_graph_output_node(g), 1, "f32[5,3]");
    EXPECT_DESC(oa_graph_output_node(g), 2, "f32[3,5]");
    oa_graph_destroy(g);
    tb_free(m);
}

/* xs = ["a", "b"] on a Gradient node (the builder has no STRINGS helper) */
static ProtobufCBinaryData XS[2] = {{1, (uint8_t *)"a"}, {1, (uint8_t *)"b"}};
static void attr_xs(tb_model *m, Onnx__NodeProto *n)
{
    tb_attr_str(m, n, "xs", "a");
    Onnx__AttributeProto *a = n->attribute[n->n_attribute - 1];
    a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS;
    a->has_s = 0;
    a->n_strings = 2;
    a->strings = XS;
}

static void gradient_refusals(void **state)
{
    (void)state;
    /* MatMul on the path: not differentiable here */
    tb_model *m = tb_new(13);
    tb_graph *g0 = tb_root(m);
    const int64_t d[2] = {2, 2};
    tb_input(g0, "a", F, 2, d);
    tb_input(g0, "b", F, 2, d);
    tb_node(g0, "MatMul", "mm", "a,b", "y");
    Onnx__NodeProto *gr = tb_node(g0, "Gradient", "grad", "a,b", "da,db");
    gr->domain = "ai.onnx.preview.training";
    tb_attr_str(m, gr, "y", "y");
    attr_xs(m, gr);
    tb_output(g0, "da");
    oa_graph *g = NULL;
    /* the model does not import the training domain: the op is unknown */
    EXPECT_FAIL(import_m(m, &g), OA_E_FEATURE_UNSUPPORTED, "ai.onnx.preview.training::Gradient (1 node: grad)");
    /* with the domain: MatMul is refused, naming the node */
    Onnx__ModelProto *mp = tb_proto(m);
    Onnx__OperatorSetIdProto train = ONNX__OPERATOR_SET_ID_PROTO__INIT;
    train.domain = "ai.onnx.preview.training";
    train.has_version = 1;
    train.version = 1;
    Onnx__OperatorSetIdProto *both[2] = {mp->opset_import[0], &train};
    Onnx__OperatorSetIdProto **saved = mp->opset_import;
    mp->opset_import = both;
    mp->n_opset_import = 2;
    EXPECT_FAIL(import_m(m, &g), OA_E_FEATURE_UNSUPPORTED, "E16002: ONNX node grad (Gradient): differentiating MatMul");
    mp->opset_import = saved;
    mp->n_opset_import = 1;
    tb_free(m);

    /* broadcasting on the path */
    m = tb_new(13);
    mp = tb_proto(m);
    g0 = tb_root(m);
    const int64_t d1[1] = {2};
    tb_input(g0, "a", F, 2, d);
    tb_input(g0, "b", F, 1, d1);
    tb_node(g0, "Add", "add", "a,b", "y");
    gr = tb_node(g0, "Gradient", "grad", "a,b", "da,db");
    gr->domain = "ai.onnx.preview.training";
    tb_attr_str(m, gr, "y", "y");
    attr_xs(m, gr);
    tb_output(g0, "da");
    both[0] = mp->opset_import[0];
    saved = mp->opset_import;
    mp->opset_import = both;
    mp->n_opset_import = 2;
    EXPECT_FAIL(import_m(m, &g), OA_E_FEATURE_UNSUPPORTED, "gradients through broadcasting are not supported");
    mp->opset_import = saved;
    mp->n_opset_import = 1;
    tb_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seq_construct_erase_at),
        cmocka_unit_test(seq_position_not_constant),
        cmocka_unit_test(split_chunks_and_stack),
        cmocka_unit_test(gradient_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

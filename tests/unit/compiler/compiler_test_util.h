/*
 * Helpers for the compiler tests: graph building (shared with the graph
 * tests), f32 constants, conv/matmul nodes, and lookups by type.
 */
#ifndef OA_TESTS_COMPILER_TEST_UTIL_H
#define OA_TESTS_COMPILER_TEST_UTIL_H

#include "../graph/graph_test_util.h"

#include <math.h>

#include "compiler/compiler.h"
#include "compiler/pass_util.h"
#include "compiler/passes.h"

static inline oa_graph *ct_graph(void)
{
    oa_graph *g;
    EXPECT_OK(oa_graph_create("t", &g));
    return g;
}

/* f32 Const of `shape` filled with start, start+step, ... */
static inline oa_node *ct_f32(oa_graph *g, const char *name, const char *shape, float start, float step)
{
    oa_shape s = tu_shape(shape);
    int64_t n = 1;
    (void)oa_shape_numel(&s, &n);
    float *d = malloc((size_t)(n ? n : 1) * sizeof(float));
    for (int64_t i = 0; i < n; i++) {
        d[i] = start + step * (float)i;
    }
    oa_node *c = tu_const(g, name, OA_DT_FLOAT, shape, d);
    free(d);
    return c;
}

/* Conv2D(x, w[, b]) with stride 1, no padding, NCHW. */
static inline oa_node *ct_conv(oa_graph *g, const char *name, oa_node *x, oa_node *w, oa_node *b)
{
    oa_node *srcs[3] = {x, w, b};
    oa_node *n = tu_opn(g, OA_OP_CONV2D, name, 4, 1, srcs, 3);
    const int64_t one[4] = {1, 1, 1, 1}, zero[4] = {0, 0, 0, 0};
    EXPECT_OK(oa_node_set_list_int(n, "strides", one, 4));
    EXPECT_OK(oa_node_set_list_int(n, "dilations", one, 4));
    EXPECT_OK(oa_node_set_list_int(n, "pads", zero, 4));
    EXPECT_OK(oa_node_set_int(n, "groups", 1));
    EXPECT_OK(oa_node_set_str(n, "data_format", "NCHW"));
    for (uint32_t i = 0; i < 2; i++) {
        n->inputs[i].desc.format = OA_FORMAT_NCHW;
    }
    n->outputs[0].desc.format = OA_FORMAT_NCHW;
    return n;
}

/* Binary op of a and b. */
static inline oa_node *ct_bin(oa_graph *g, oa_op_type t, const char *name, oa_node *a, oa_node *b)
{
    oa_node *s[2] = {a, b};
    return tu_op(g, t, name, 2, 1, s);
}

static inline oa_node *ct_out(oa_graph *g, oa_node *const *srcs, uint32_t n)
{
    return tu_opn(g, OA_OP_NET_OUTPUT, "Node_Output", n, n, srcs, n);
}

/* Number of live nodes of type t in g (not subgraphs). */
static inline size_t ct_count(const oa_graph *g, oa_op_type t)
{
    size_t c = 0;
    for (const oa_node *n = oa_graph_first_node(g); n; n = n->next) {
        c += n->type == t;
    }
    return c;
}

/* The post-op list of n joined by ',' ("" when none). */
static inline const char *ct_posts(const oa_node *n, char *buf, size_t cap)
{
    const char *const *ops;
    size_t k;
    buf[0] = '\0';
    if (!oa_attrs_get_list_str(&n->attrs, "_oa_post_ops", &ops, &k)) {
        return buf;
    }
    size_t len = 0;
    for (size_t i = 0; i < k && len < cap; i++) {
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? "," : "", ops[i]);
    }
    return buf;
}

/* Data of a f32 Const input slot. */
static inline const float *ct_input_f32(const oa_node *n, uint32_t slot)
{
    const float *d = NULL;
    int64_t c;
    assert_true(oa_cp_const_f32(oa_cp_input_const(n, slot), &d, &c));
    return d;
}

static inline void ct_infer(oa_graph *g)
{
    EXPECT_OK(oa_graph_infer(g));
}

#endif /* OA_TESTS_COMPILER_TEST_UTIL_H */

/*
 * graph/: building, querying and mutating graphs, attributes, subgraphs,
 * topological order, validation, clone, dump, and the small support pieces
 * (op/dtype/format tables, arena, blobs, string map).
 */
#include "graph_test_util.h"

#include "graph/arena.h"
#include "graph/blob.h"
#include "graph/strmap.h"

/*
 *   x(Data) ──▶ conv(Conv2D) ──▶ relu(Relu) ──▶ Node_Output
 *   w(Const) ─┘
 */
static oa_graph *small_graph(oa_node **x, oa_node **conv, oa_node **relu, oa_node **out)
{
    oa_graph *g;
    EXPECT_OK(oa_graph_create("main", &g));
    *x = tu_data(g, "x", OA_DT_FLOAT, "1,3,8,8");
    float wdata[4 * 3 * 3 * 3] = {0};
    oa_node *w = tu_const(g, "w", OA_DT_FLOAT, "4,3,3,3", wdata);
    oa_node *srcs[2] = {*x, w};
    *conv = tu_opn(g, OA_OP_CONV2D, "conv", 4, 1, srcs, 2);
    const int64_t one[4] = {1, 1, 1, 1};
    EXPECT_OK(oa_node_set_list_int(*conv, "strides", one, 4));
    EXPECT_OK(oa_node_set_list_int(*conv, "pads", one, 4));
    *relu = tu_op(g, OA_OP_RELU, "relu", 1, 1, conv);
    *out = tu_op(g, OA_OP_NET_OUTPUT, "Node_Output", 1, 1, relu);
    oa_node_input_desc(*out, 0)->name = "prob";
    return g;
}

static void build_and_query(void **state)
{
    (void)state;
    oa_node *x, *conv, *relu, *out;
    oa_graph *g = small_graph(&x, &conv, &relu, &out);
    assert_int_equal(oa_graph_num_nodes(g), 5);
    assert_ptr_equal(oa_graph_find_node(g, "relu"), relu);
    assert_null(oa_graph_find_node(g, "nope"));
    assert_ptr_equal(oa_graph_root(g), g);
    assert_null(oa_graph_parent_node(g));
    assert_int_equal(oa_graph_num_inputs(g), 1);
    assert_ptr_equal(oa_graph_input(g, 0), x);
    assert_null(oa_graph_input(g, 1));
    assert_ptr_equal(oa_graph_output_node(g), out);
    assert_int_equal(oa_graph_num_outputs(g), 1);
    assert_string_equal(oa_graph_output_name(g, 0), "prob");
    uint32_t idx = 99;
    assert_ptr_equal(oa_node_input_src(relu, 0, &idx), conv);
    assert_int_equal(idx, 0);
    assert_null(oa_node_input_src(conv, 2, NULL));
    assert_true(oa_desc_is_invalid(oa_node_input_desc(conv, 2)));
    oa_use uses[4];
    assert_int_equal(oa_node_output_uses(conv, 0, uses, 4), 1);
    assert_ptr_equal(uses[0].node, relu);
    assert_int_equal(uses[0].input, 0);
    assert_true(oa_node_has_uses(conv));
    assert_false(oa_node_has_uses(out));
    assert_int_equal(conv->type, OA_OP_CONV2D);
    assert_string_equal(conv->type_name, "Conv2D");
    assert_true(relu->id > conv->id);
    EXPECT_OK(oa_graph_validate(g));
    EXPECT_OK(oa_graph_infer(g));
    EXPECT_DESC(conv, 0, "f32[1,4,8,8]");
    EXPECT_DESC(out, 0, "f32[1,4,8,8]");
    assert_true(oa_graph_outputs_static(g));
    oa_graph_destroy(g);
}

static void names_and_slots_are_checked(void **state)
{
    (void)state;
    oa_graph *g, *h;
    EXPECT_OK(oa_graph_create("g", &g));
    EXPECT_OK(oa_graph_create("h", &h));
    oa_node *a, *b, *c;
    EXPECT_OK(oa_graph_add_node(g, OA_OP_RELU, "a", 1, 1, &a));
    EXPECT_FAIL(oa_graph_add_node(g, OA_OP_RELU, "a", 1, 1, &b), OA_E_PARAM, "already used");
    EXPECT_FAIL(oa_graph_add_node(g, OA_OP_UNKNOWN, "b", 1, 1, &b), OA_E_PARAM, "not a listed type");
    EXPECT_OK(oa_graph_add_node(g, OA_OP_ADD, "b", 2, 1, &b));
    EXPECT_OK(oa_graph_add_node(h, OA_OP_RELU, "c", 1, 1, &c));
    EXPECT_FAIL(oa_node_connect(b, 0, c, 0), OA_E_PARAM, "different graphs");
    EXPECT_FAIL(oa_node_connect(b, 2, a, 0), OA_E_PARAM, "has 2 inputs");
    EXPECT_FAIL(oa_node_connect(b, 0, a, 1), OA_E_PARAM, "has 1 outputs");
    EXPECT_FAIL(oa_graph_add_node(g, OA_OP_ADD, "big", 70000, 1, &c), OA_E_PARAM, "too many slots");
    /* Unknown type strings are kept for round-tripping. */
    oa_node *u;
    EXPECT_OK(oa_graph_add_node_typed(g, "NoSuchGeOp", "td", 1, 1, &u));
    assert_int_equal(u->type, OA_OP_UNKNOWN);
    assert_string_equal(u->type_name, "NoSuchGeOp");
    EXPECT_FAIL(oa_infer_node(u), OA_E_FEATURE_UNSUPPORTED, "NoSuchGeOp is unknown");
    /* Rename and unique names. */
    EXPECT_FAIL(oa_node_rename(a, "b"), OA_E_PARAM, "already used");
    EXPECT_OK(oa_node_rename(a, "a2"));
    assert_ptr_equal(oa_graph_find_node(g, "a2"), a);
    assert_null(oa_graph_find_node(g, "a"));
    assert_string_equal(oa_graph_unique_name(g, "fresh"), "fresh");
    assert_string_equal(oa_graph_unique_name(g, "b"), "b_1");
    oa_graph_destroy(g);
    oa_graph_destroy(h);
}

static void attributes_of_every_kind(void **state)
{
    (void)state;
    oa_graph *g;
    EXPECT_OK(oa_graph_create("g", &g));
    oa_node *n;
    EXPECT_OK(oa_graph_add_node(g, OA_OP_CAST, "n", 1, 1, &n));
    const int64_t li[3] = {1, -2, 3};
    const float lf[2] = {0.5f, 1.5f};
    const bool lb[2] = {true, false};
    const char *ls[2] = {"a", "bc"};
    const oa_dtype ldt[2] = {OA_DT_FLOAT, OA_DT_INT64};
    const int64_t r0[2] = {1, 2}, r1[1] = {7};
    const int64_t *lli[2] = {r0, r1};
    const size_t lens[2] = {2, 1};
    EXPECT_OK(oa_node_set_int(n, "dst_type", 3));
    EXPECT_OK(oa_node_set_float(n, "f", 2.5f));
    EXPECT_OK(oa_node_set_bool(n, "b", true));
    EXPECT_OK(oa_node_set_str(n, "s", "hello"));
    EXPECT_OK(oa_node_set_dtype(n, "dt", OA_DT_BF16));
    EXPECT_OK(oa_node_set_list_int(n, "li", li, 3));
    EXPECT_OK(oa_node_set_list_float(n, "lf", lf, 2));
    EXPECT_OK(oa_attrs_set_list_bool(g, &n->attrs, "lb", lb, 2));
    EXPECT_OK(oa_node_set_list_str(n, "ls", ls, 2));
    EXPECT_OK(oa_attrs_set_list_dtype(g, &n->attrs, "ldt", ldt, 2));
    EXPECT_OK(oa_attrs_set_list_list_int(g, &n->attrs, "lli", lli, lens, 2));
    EXPECT_OK(oa_attrs_set_bytes(g, &n->attrs, "bt", "\0\1\2", 3));
    EXPECT_OK(oa_attrs_set_graph(g, &n->attrs, "f_graph", "body"));
    oa_tensor_desc d;
    oa_desc_init(&d);
    d.shape = tu_shape("2,3");
    EXPECT_OK(oa_attrs_set_tensor_desc(g, &n->attrs, "td", &d));
    assert_int_equal(n->attrs.count, 14);
    /* Replacing keeps the position (first attr stays first). */
    EXPECT_OK(oa_node_set_int(n, "dst_type", 9));
    assert_string_equal(n->attrs.head->name, "dst_type");
    assert_int_equal(n->attrs.count, 14);
    assert_int_equal(oa_node_attr_int(n, "dst_type", 0), 9);
    assert_int_equal(oa_node_attr_int(n, "missing", 42), 42);
    assert_true(oa_node_attr_float(n, "f", 0) == 2.5f);
    assert_true(oa_node_attr_bool(n, "b", false));
    assert_string_equal(oa_node_attr_str(n, "s", ""), "hello");
    /* GE-compatible getters: DTYPE and BOOL read as int, INT as dtype/bool. */
    int64_t iv;
    assert_true(oa_attrs_get_int(&n->attrs, "dt", &iv));
    assert_int_equal(iv, OA_DT_BF16);
    assert_true(oa_attrs_get_int(&n->attrs, "b", &iv));
    assert_int_equal(iv, 1);
    oa_dtype dt;
    assert_true(oa_attrs_get_dtype(&n->attrs, "dst_type", &dt));
    assert_int_equal(dt, OA_DT_INT64);
    assert_false(oa_attrs_get_float(&n->attrs, "dst_type", &(float){0}));
    const int64_t *pv;
    size_t pn;
    assert_true(oa_attrs_get_list_int(&n->attrs, "li", &pv, &pn));
    assert_int_equal(pn, 3);
    assert_int_equal(pv[1], -2);
    const char *const *sv;
    assert_true(oa_attrs_get_list_str(&n->attrs, "ls", &sv, &pn));
    assert_string_equal(sv[1], "bc");
    const oa_attr *a = oa_attrs_find(&n->attrs, "lli");
    assert_int_equal(a->type, OA_ATTR_LIST_LIST_INT);
    assert_int_equal(a->u.lli.v[1][0], 7);
    a = oa_attrs_find(&n->attrs, "bt");
    assert_int_equal(a->u.s.len, 3);
    assert_int_equal(a->u.s.data[2], 2);
    /* Required attrs report precisely. */
    const char *s;
    EXPECT_FAIL(oa_node_require_str(n, "nope", &s), OA_E_GE_PARAM, "node n (Cast) misses required attr nope");
    EXPECT_FAIL(oa_node_require_float(n, "li", &(float){0}), OA_E_GE_PARAM, "has attr li of kind list_int");
    assert_true(oa_attrs_remove(&n->attrs, "li"));
    assert_false(oa_attrs_remove(&n->attrs, "li"));
    assert_int_equal(n->attrs.count, 13);
    EXPECT_FAIL(oa_node_set_str(n, "x", NULL), OA_E_PARAM, "null value");
    EXPECT_FAIL(oa_node_set_int(NULL, "x", 1), OA_E_PARAM, "null node");
    oa_graph_destroy(g);
}

/*
 * replace_uses / insert_after / insert_on_edge:
 *
 *   before:  p ──▶ a, b             insert_after(p, ins):  p ──▶ ins ──▶ a, b
 *   insert_on_edge(b.0, ins2):      p ──▶ ins ──▶ a
 *                                             └─▶ ins2 ──▶ b
 */
static void mutation(void **state)
{
    (void)state;
    oa_graph *g;
    EXPECT_OK(oa_graph_create("g", &g));
    oa_node *p = tu_data(g, "p", OA_DT_FLOAT, "2");
    oa_node *a = tu_op(g, OA_OP_RELU, "a", 1, 1, &p);
    oa_node *b = tu_op(g, OA_OP_NEG, "b", 1, 1, &p);
    oa_node *ins, *ins2;
    EXPECT_OK(oa_graph_add_node(g, OA_OP_ABS, "ins", 1, 1, &ins));
    EXPECT_OK(oa_graph_insert_after(p, 0, ins, 0, 0));
    assert_ptr_equal(oa_node_input_src(a, 0, NULL), ins);
    assert_ptr_equal(oa_node_input_src(b, 0, NULL), ins);
    assert_ptr_equal(oa_node_input_src(ins, 0, NULL), p);
    EXPECT_OK(oa_graph_add_node(g, OA_OP_SQRT, "ins2", 1, 1, &ins2));
    EXPECT_OK(oa_graph_insert_on_edge(b, 0, ins2, 0, 0));
    assert_ptr_equal(oa_node_input_src(b, 0, NULL), ins2);
    assert_ptr_equal(oa_node_input_src(ins2, 0, NULL), ins);
    assert_ptr_equal(oa_node_input_src(a, 0, NULL), ins);
    /* Removing a used node fails and names the consumer. */
    EXPECT_FAIL(oa_graph_remove_node(g, ins), OA_E_PARAM, "feeds [a]");
    size_t replaced = 0;
    EXPECT_OK(oa_graph_replace_uses(ins, 0, p, 0, &replaced));
    assert_int_equal(replaced, 2);
    EXPECT_OK(oa_graph_remove_node(g, ins));
    assert_true(ins->removed);
    assert_null(oa_graph_find_node(g, "ins"));
    assert_int_equal(oa_graph_num_nodes(g), 4);
    EXPECT_FAIL(oa_graph_remove_node(g, ins), OA_E_PARAM, "not a live node");
    EXPECT_FAIL(oa_node_connect(a, 0, ins, 0), OA_E_PARAM, "removed node");
    /* The name is free again. */
    oa_node *again;
    EXPECT_OK(oa_graph_add_node(g, OA_OP_ABS, "ins", 1, 1, &again));
    /* Input and output counts change. */
    EXPECT_OK(oa_node_set_num_inputs(again, 3));
    assert_int_equal(again->num_inputs, 3);
    assert_true(oa_desc_is_invalid(oa_node_input_desc(again, 2)));
    EXPECT_FAIL(oa_node_set_num_outputs(p, 0), OA_E_PARAM, "still used");
    EXPECT_OK(oa_node_set_num_outputs(again, 2));
    assert_int_equal(again->num_outputs, 2);
    oa_node_disconnect(b, 0);
    assert_null(oa_node_input_src(b, 0, NULL));
    oa_graph_destroy(g);
}

/*
 * Topological order is stable and honours control edges:
 *
 *   list order:  c, b, a        edges: a ──▶ b ──▶ c,  ^a ──▶ d
 *   topo order:  a, b, c, d
 */
static void topo_order_and_cycles(void **state)
{
    (void)state;
    oa_graph *g;
    EXPECT_OK(oa_graph_create("g", &g));
    oa_node *c, *b, *a, *d;
    EXPECT_OK(oa_graph_add_node(g, OA_OP_RELU, "c", 1, 1, &c));
    EXPECT_OK(oa_graph_add_node(g, OA_OP_RELU, "b", 1, 1, &b));
    a = tu_data(g, "a", OA_DT_FLOAT, "1");
    EXPECT_OK(oa_graph_add_node(g, OA_OP_RELU, "d", 1, 1, &d));
    EXPECT_OK(oa_node_connect(b, 0, a, 0));
    EXPECT_OK(oa_node_connect(c, 0, b, 0));
    EXPECT_OK(oa_node_connect(d, 0, a, 0));
    EXPECT_OK(oa_node_add_control_input(d, c));
    EXPECT_OK(oa_node_add_control_input(d, c)); /* duplicates ignored */
    assert_int_equal(d->num_ctrl_inputs, 1);
    oa_node *users[2];
    assert_int_equal(oa_node_control_uses(c, users, 2), 1);
    oa_node **order;
    size_t n;
    EXPECT_OK(oa_graph_topo_order(g, &order, &n));
    assert_int_equal(n, 4);
    assert_ptr_equal(order[0], a);
    assert_ptr_equal(order[1], b);
    assert_ptr_equal(order[2], c);
    assert_ptr_equal(order[3], d);
    free(order);
    EXPECT_OK(oa_graph_topo_sort(g));
    assert_ptr_equal(oa_graph_first_node(g), a);
    assert_ptr_equal(oa_graph_last_node(g), d);
    EXPECT_FAIL(oa_graph_remove_node(g, c), OA_E_PARAM, "control input of [d]");
    assert_true(oa_node_remove_control_input(d, c));
    assert_false(oa_node_remove_control_input(d, c));
    /* A cycle b -> c -> b is reported with the nodes on it. */
    EXPECT_OK(oa_node_connect(b, 0, c, 0));
    EXPECT_FAIL(oa_graph_topo_order(g, &order, &n), OA_E_GE_PARAM, "cycle through nodes");
    EXPECT_FAIL(oa_graph_validate(g), OA_E_GE_PARAM, "cycle");
    EXPECT_FAIL(oa_graph_infer(g), OA_E_GE_PARAM, "cycle");
    EXPECT_FAIL(oa_node_add_control_input(d, d), OA_E_PARAM, "two distinct nodes");
    oa_graph_destroy(g);
}

static void validate_reports_structure_errors(void **state)
{
    (void)state;
    oa_graph *g;
    EXPECT_OK(oa_graph_create("g", &g));
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1");
    oa_node *add = tu_opn(g, OA_OP_ADD, "add", 2, 1, &x, 1);
    EXPECT_FAIL(oa_graph_validate(g), OA_E_GE_PARAM, "node add (Add) required input x2 is not connected");
    EXPECT_OK(oa_node_connect(add, 1, x, 0));
    EXPECT_OK(oa_graph_validate(g));
    oa_node *y;
    oa_shape s = tu_shape("1");
    EXPECT_OK(oa_graph_add_data(g, "y", 0, OA_DT_FLOAT, &s, OA_FORMAT_ND, &y));
    EXPECT_FAIL(oa_graph_validate(g), OA_E_GE_PARAM, "share index 0");
    EXPECT_OK(oa_node_set_int(y, "index", 1));
    oa_node *o1 = tu_op(g, OA_OP_NET_OUTPUT, "o1", 1, 1, &add);
    (void)o1;
    (void)tu_op(g, OA_OP_NET_OUTPUT, "o2", 1, 1, &add);
    EXPECT_FAIL(oa_graph_validate(g), OA_E_GE_PARAM, "more than one NetOutput");
    oa_graph_destroy(g);

    EXPECT_OK(oa_graph_create("g", &g));
    x = tu_data(g, "c", OA_DT_BOOL, "");
    (void)tu_op(g, OA_OP_IF, "if", 1, 1, &x);
    EXPECT_FAIL(oa_graph_validate(g), OA_E_GE_PARAM, "owns 0 subgraphs, needs 2");
    oa_node *bad;
    EXPECT_OK(oa_graph_add_node(g, OA_OP_CONCAT_V2, "cv2", 1, 1, &bad));
    oa_graph_destroy(g);
}

/* If with two branches; each branch is Data(index 0) -> op -> NetOutput. */
static oa_graph *graph_with_if(oa_node **ifn)
{
    oa_graph *g;
    EXPECT_OK(oa_graph_create("main", &g));
    oa_node *c = tu_data(g, "cond", OA_DT_BOOL, "");
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "2,3");
    oa_node *srcs[2] = {c, x};
    *ifn = tu_op(g, OA_OP_IF, "if", 2, 1, srcs);
    for (int b = 0; b < 2; b++) {
        oa_graph *sg;
        EXPECT_OK(oa_graph_create_subgraph(*ifn, b ? "else_branch" : "then_branch", b ? "if_1_else" : "if_0_then", &sg));
        oa_node *d = tu_data(sg, b ? "if_1_else/x" : "if_0_then/x", OA_DT_FLOAT, "?");
        EXPECT_OK(oa_node_set_int(d, "_parent_node_index", 1));
        oa_node *op = tu_op(sg, b ? OA_OP_NEG : OA_OP_RELU, b ? "if_1_else/neg" : "if_0_then/relu", 1, 1, &d);
        (void)tu_op(sg, OA_OP_NET_OUTPUT, b ? "if_1_else/out" : "if_0_then/out", 1, 1, &op);
    }
    (void)tu_op(g, OA_OP_NET_OUTPUT, "Node_Output", 1, 1, ifn);
    return g;
}

static void subgraphs(void **state)
{
    (void)state;
    oa_node *ifn;
    oa_graph *g = graph_with_if(&ifn);
    assert_int_equal(ifn->num_subgraphs, 2);
    oa_graph *then_g = oa_node_subgraph_by_ir_name(ifn, "then_branch");
    assert_non_null(then_g);
    assert_ptr_equal(oa_graph_parent_node(then_g), ifn);
    assert_ptr_equal(oa_graph_root(then_g), g);
    assert_ptr_equal(oa_graph_arena(then_g), oa_graph_arena(g));
    assert_ptr_equal(oa_graph_find_subgraph(g, "if_1_else"), oa_node_subgraph(ifn, 1));
    oa_graph *all[4];
    assert_int_equal(oa_graph_subgraphs(g, all, 4), 2);
    assert_ptr_equal(all[0], then_g);
    oa_graph *dup;
    EXPECT_FAIL(oa_graph_create_subgraph(ifn, "x", "if_0_then", &dup), OA_E_PARAM, "already used");
    EXPECT_FAIL(oa_graph_create_subgraph(ifn, "x", "main", &dup), OA_E_PARAM, "already used");
    oa_graph_destroy(then_g); /* subgraphs die with their root: no-op */
    EXPECT_OK(oa_graph_validate(g));
    /* Cross-graph edges are refused. */
    oa_node *sub_relu = oa_graph_find_node(then_g, "if_0_then/relu");
    EXPECT_FAIL(oa_node_connect(sub_relu, 0, oa_graph_input(g, 1), 0), OA_E_PARAM, "different graphs");
    /* Removing the owner frees the subgraph names. */
    oa_node *out = oa_graph_output_node(g);
    EXPECT_OK(oa_graph_remove_node(g, out));
    EXPECT_OK(oa_graph_remove_node(g, ifn));
    assert_null(oa_graph_find_subgraph(g, "if_0_then"));
    oa_graph_destroy(g);
}

static void clone_is_deep(void **state)
{
    (void)state;
    oa_node *ifn;
    oa_graph *g = graph_with_if(&ifn);
    /* A borrowed const. */
    static const float buf[2] = {1.0f, 2.0f};
    oa_blob *blob = oa_blob_create(buf, sizeof(buf), NULL, NULL);
    oa_tensor *t;
    oa_shape s = tu_shape("2");
    EXPECT_OK(oa_graph_make_tensor_borrowed(g, OA_DT_FLOAT, &s, blob, 0, sizeof(buf), &t));
    oa_blob_release(blob); /* the graph holds its own reference */
    oa_node *k;
    EXPECT_OK(oa_graph_add_const(g, "k", t, &k));
    EXPECT_OK(oa_node_set_str(k, "note", "kept"));
    EXPECT_OK(oa_attrs_set_int(g, oa_graph_attrs(g), "graph_attr", 5));
    EXPECT_OK(oa_graph_infer(g));
    char *before = oa_graph_dump_string(g, OA_DUMP_INPUT_DESCS | OA_DUMP_VALUES);
    oa_graph *c;
    EXPECT_OK(oa_graph_clone(g, &c));
    oa_graph *bad;
    EXPECT_FAIL(oa_graph_clone(oa_node_subgraph(ifn, 0), &bad), OA_E_PARAM, "is a subgraph");
    assert_null(bad);
    char *copy = oa_graph_dump_string(c, OA_DUMP_INPUT_DESCS | OA_DUMP_VALUES);
    assert_string_equal(before, copy);
    assert_int_equal(oa_graph_find_node(c, "k")->id, k->id);
    assert_int_equal(oa_node_attr_int(NULL, "x", 3), 3);
    int64_t ga;
    assert_true(oa_attrs_get_int(oa_graph_attrs(c), "graph_attr", &ga));
    /* Mutating the original does not touch the clone; the clone outlives it. */
    EXPECT_OK(oa_node_set_str(k, "note", "changed"));
    oa_graph_destroy(g);
    oa_node *ck = oa_graph_find_node(c, "k");
    assert_string_equal(oa_node_attr_str(ck, "note", ""), "kept");
    const oa_tensor *ct;
    EXPECT_OK(oa_node_require_tensor(ck, "value", &ct));
    assert_non_null(ct->blob);
    assert_true(((const float *)ct->data)[1] == 2.0f);
    EXPECT_OK(oa_graph_validate(c));
    assert_non_null(oa_graph_find_subgraph(c, "if_1_else"));
    free(before);
    free(copy);
    oa_graph_destroy(c);
}

/*
 * Copy into a subgraph of another root, with a name suffix (how the
 * compiler turns per-gear graphs into Case branches):
 *
 *   main: cond, x ──▶ if{then: relu, else: neg} ──▶ Node_Output
 *   copy: case ──branches──▶ Batch_0 holding cond_s, x_s, if_s{if_0_then_s, if_1_else_s}, Node_Output_s
 */
static void copy_into_subgraph(void **state)
{
    (void)state;
    oa_node *ifn;
    oa_graph *g = graph_with_if(&ifn);
    EXPECT_OK(oa_node_add_control_input(oa_graph_find_node(g, "Node_Output"), oa_graph_find_node(g, "x")));
    EXPECT_OK(oa_graph_infer(g));
    oa_graph *r;
    EXPECT_OK(oa_graph_create("root", &r));
    oa_node *cs = tu_opn(r, OA_OP_CASE, "case", 1, 1, NULL, 0);
    oa_graph *br;
    EXPECT_OK(oa_graph_create_subgraph(cs, "branches", "Batch_0", &br));
    EXPECT_OK(oa_graph_copy_into(g, br, "_s"));
    assert_int_equal(oa_graph_num_nodes(br), oa_graph_num_nodes(g));
    oa_node *cif = oa_graph_find_node(br, "if_s");
    assert_non_null(cif);
    assert_ptr_equal(oa_node_input_src(cif, 1, NULL), oa_graph_find_node(br, "x_s"));
    oa_node *cout = oa_graph_find_node(br, "Node_Output_s");
    assert_int_equal(cout->num_ctrl_inputs, 1);
    assert_ptr_equal(cout->ctrl_inputs[0], oa_graph_find_node(br, "x_s"));
    assert_non_null(oa_graph_find_subgraph(r, "if_0_then_s"));
    assert_non_null(oa_graph_find_node(oa_graph_find_subgraph(r, "if_1_else_s"), "if_1_else/neg_s"));
    EXPECT_DESC(cif, 0, "f32[2,3]");
    EXPECT_OK(oa_graph_validate(r));
    /* Ids are fresh in the new root. */
    assert_true(cif->id != ifn->id || cif->id < 3);
    EXPECT_FAIL(oa_graph_copy_into(g, br, "_t"), OA_E_PARAM, "is not empty");
    EXPECT_FAIL(oa_graph_copy_into(g, oa_node_subgraph(ifn, 0), NULL), OA_E_PARAM, "not empty");
    /* Within one root: only with a suffix, and never into itself. */
    oa_node *host = tu_opn(g, OA_OP_PARTITIONED_CALL, "host", 0, 0, NULL, 0);
    oa_graph *inner;
    EXPECT_OK(oa_graph_create_subgraph(host, "f", "inner", &inner));
    EXPECT_FAIL(oa_graph_copy_into(oa_node_subgraph(ifn, 1), inner, NULL), OA_E_PARAM, "needs a name suffix");
    EXPECT_FAIL(oa_graph_copy_into(g, inner, "_x"), OA_E_PARAM, "into its own subgraph");
    EXPECT_OK(oa_graph_copy_into(oa_node_subgraph(ifn, 1), inner, "_x"));
    assert_non_null(oa_graph_find_node(inner, "if_1_else/neg_x"));
    EXPECT_FAIL(oa_graph_copy_into(NULL, br, NULL), OA_E_PARAM, "must not be null");
    oa_graph_destroy(g);
    /* The copy outlives the source. */
    EXPECT_OK(oa_graph_validate(r));
    char *d = oa_graph_dump_string(r, OA_DUMP_DEFAULT);
    assert_non_null(strstr(d, "%if_s = If(%cond_s, %x_s)"));
    free(d);
    /* A second copy with the same suffix collides on subgraph names (a
     * partial copy stays behind, as documented). */
    g = graph_with_if(&ifn);
    oa_graph *br2;
    EXPECT_OK(oa_graph_create_subgraph(cs, "branches", "Batch_1", &br2));
    EXPECT_FAIL(oa_graph_copy_into(g, br2, "_s"), OA_E_PARAM, "already used");
    oa_graph_destroy(g);
    oa_graph_destroy(r);
}

static void dump_format(void **state)
{
    (void)state;
    oa_node *x, *conv, *relu, *out;
    oa_graph *g = small_graph(&x, &conv, &relu, &out);
    x->outputs[0].desc.format = OA_FORMAT_NCHW;
    EXPECT_OK(oa_graph_infer(g));
    char *s = oa_graph_dump_string(g, OA_DUMP_DEFAULT);
    const char *want = "graph main\n"
                       "  %x = Data() {index=0} -> f32[1,3,8,8]:NCHW\n"
                       "  %w = Const() {value=tensor(f32[4,3,3,3], 432 bytes)} -> f32[4,3,3,3]\n"
                       "  %conv = Conv2D(%x, %w, -, -) {strides=[1,1,1,1], pads=[1,1,1,1]} -> f32[1,4,8,8]\n"
                       "  %relu = Relu(%conv) -> f32[1,4,8,8]\n"
                       "  %Node_Output = NetOutput(%relu \"prob\") -> f32[1,4,8,8]\n";
    assert_string_equal(s, want);
    free(s);
    s = oa_graph_dump_string(g, OA_DUMP_NO_ATTRS);
    assert_null(strstr(s, "strides"));
    free(s);
    oa_graph_destroy(g);
}

static void tensors_check_sizes(void **state)
{
    (void)state;
    oa_graph *g;
    EXPECT_OK(oa_graph_create("g", &g));
    oa_tensor *t;
    oa_shape s = tu_shape("2,3");
    EXPECT_FAIL(oa_graph_make_tensor(g, OA_DT_FLOAT, &s, NULL, 20, &t), OA_E_PARAM, "needs 24 bytes, got 20");
    EXPECT_OK(oa_graph_make_tensor(g, OA_DT_FLOAT, &s, NULL, 24, &t));
    assert_int_equal(((uintptr_t)t->data) % 64, 0);
    oa_shape s4 = tu_shape("3");
    EXPECT_OK(oa_graph_make_tensor(g, OA_DT_INT4, &s4, "\x12\x03", 2, &t)); /* packed: 2 bytes */
    uint8_t raw[16] = {0};
    oa_blob *b = oa_blob_create(raw, sizeof(raw), NULL, NULL);
    EXPECT_FAIL(oa_graph_make_tensor_borrowed(g, OA_DT_FLOAT, &s, b, 0, 24, &t), OA_E_PARAM, "exceeds its buffer");
    oa_shape s2 = tu_shape("2");
    EXPECT_OK(oa_graph_make_tensor_borrowed(g, OA_DT_FLOAT, &s2, b, 8, 8, &t));
    assert_ptr_equal(t->data, raw + 8);
    oa_blob_release(b);
    oa_graph_destroy(g);
}

static int g_released;
static void count_release(void *ctx, const void *data, size_t size)
{
    (void)ctx;
    (void)data;
    (void)size;
    g_released++;
}

static void blobs_arena_strmap(void **state)
{
    (void)state;
    g_released = 0;
    oa_blob *b = oa_blob_create("abc", 3, count_release, NULL);
    assert_ptr_equal(oa_blob_retain(b), b);
    oa_blob_release(b);
    assert_int_equal(g_released, 0);
    oa_blob_release(b);
    assert_int_equal(g_released, 1);
    oa_blob_release(NULL);
    assert_null(oa_blob_retain(NULL));
    oa_blob *m;
    EXPECT_FAIL(oa_blob_map_file("/nonexistent/file", &m), OA_E_INVALID_FILE, "cannot open");
    EXPECT_FAIL(oa_blob_map_file("/tmp", &m), OA_E_INVALID_FILE, "not a regular file");

    oa_arena *a = oa_arena_create(1024);
    for (int i = 0; i < 1000; i++) {
        char *p = oa_arena_alloc(a, (size_t)(i % 37) + 1, 16);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % 16, 0);
        assert_int_equal(p[0], 0);
    }
    void *big = oa_arena_alloc(a, 1 << 20, 64);
    assert_non_null(big);
    assert_int_equal((uintptr_t)big % 64, 0);
    assert_non_null(oa_arena_alloc(a, 8, 8)); /* small requests still fit after a big one */
    assert_null(oa_arena_array(a, SIZE_MAX / 2, 4));
    assert_non_null(oa_error_take_messages());
    assert_null(oa_arena_alloc(a, 8, 3));
    (void)oa_error_take_messages();
    assert_string_equal(oa_arena_printf(a, "%s-%d", "x", 7), "x-7");
    assert_string_equal(oa_arena_strndup(a, "abcdef", 3), "abc");
    assert_null(oa_arena_strdup(a, NULL));
    assert_true(oa_arena_used(a) > (1 << 20));
    oa_arena_destroy(a);
    oa_arena_destroy(NULL);

    oa_strmap sm;
    oa_strmap_init(&sm);
    char keys[300][8];
    for (int i = 0; i < 300; i++) {
        snprintf(keys[i], sizeof(keys[i]), "k%d", i);
        EXPECT_OK(oa_strmap_put(&sm, keys[i], (void *)(uintptr_t)(i + 1)));
    }
    assert_int_equal(sm.count, 300);
    for (int i = 0; i < 300; i += 2) {
        assert_true(oa_strmap_remove(&sm, keys[i]));
    }
    assert_false(oa_strmap_remove(&sm, "k0"));
    assert_int_equal((uintptr_t)oa_strmap_get(&sm, "k7"), 8);
    assert_null(oa_strmap_get(&sm, "k8"));
    EXPECT_OK(oa_strmap_put(&sm, "k8", (void *)1));
    assert_true(oa_strmap_contains(&sm, "k8"));
    EXPECT_OK(oa_strmap_put(&sm, "", (void *)2)); /* the empty key is a normal key */
    assert_int_equal((uintptr_t)oa_strmap_get(&sm, ""), 2);
    oa_strmap_deinit(&sm);
    oa_strmap_deinit(NULL);
    oa_graph_destroy(NULL);
}

static void op_table(void **state)
{
    (void)state;
    for (int t = 0; t < OA_OP_COUNT; t++) {
        assert_int_equal(oa_op_type_from_name(oa_op_type_name((oa_op_type)t)), t);
    }
    assert_int_equal(oa_op_type_from_name("NoSuchOp"), OA_OP_UNKNOWN);
    assert_int_equal(oa_op_type_from_name(NULL), OA_OP_UNKNOWN);
    assert_string_equal(oa_op_type_name(OA_OP_UNKNOWN), "Unknown");
    assert_int_equal(oa_op_type_from_name("conv2d"), OA_OP_UNKNOWN); /* case-sensitive */
    char nm[32];
    assert_true(oa_op_input_name(OA_OP_CONCAT_D, 3, 2, nm, sizeof(nm)));
    assert_string_equal(nm, "x2");
    assert_true(oa_op_input_name(OA_OP_IF, 4, 0, nm, sizeof(nm)));
    assert_string_equal(nm, "cond");
    assert_true(oa_op_input_name(OA_OP_IF, 4, 3, nm, sizeof(nm)));
    assert_string_equal(nm, "input2");
    assert_true(oa_op_input_name(OA_OP_CONCAT_V2, 3, 2, nm, sizeof(nm)));
    assert_string_equal(nm, "concat_dim");
    assert_true(oa_op_input_name(OA_OP_CONV2D, 4, 2, nm, sizeof(nm)));
    assert_string_equal(nm, "bias");
    assert_false(oa_op_input_name(OA_OP_CONV2D, 5, 4, nm, sizeof(nm)));
    assert_true(oa_op_output_name(OA_OP_SPLIT_V, 3, 1, nm, sizeof(nm)));
    assert_string_equal(nm, "y1");
    assert_true(oa_op_output_name(OA_OP_HARD_SIGMOID, 1, 0, nm, sizeof(nm)));
    assert_string_equal(nm, "output_y");
    oa_op_io io[8];
    assert_int_equal(oa_op_ir_inputs(OA_OP_CONV2D, io, 8), 4);
    assert_true(io[2].optional);
    assert_string_equal(io[1].name, "filter");
    assert_int_equal(oa_op_min_inputs(OA_OP_CONV2D), 2);
    assert_true(oa_op_has_dynamic_inputs(OA_OP_NET_OUTPUT));
    assert_false(oa_op_has_dynamic_inputs(OA_OP_ADD));
}

static void dtype_and_format_tables(void **state)
{
    (void)state;
    for (int dt = 0; dt < OA_DT_MAX; dt++) {
        if (oa_dtype_valid(dt)) {
            assert_int_equal(oa_dtype_from_proto(oa_dtype_to_proto((oa_dtype)dt)), dt);
            oa_dtype back;
            assert_true(oa_dtype_from_name(oa_dtype_name((oa_dtype)dt), &back));
            assert_int_equal(back, dt);
        }
    }
    assert_false(oa_dtype_valid(5));
    assert_int_equal(oa_dtype_to_proto(OA_DT_FLOAT), 1);
    assert_int_equal(oa_dtype_to_proto(OA_DT_INT64), 8);
    assert_int_equal(oa_dtype_to_proto(OA_DT_UNDEFINED), 0);
    assert_int_equal(oa_dtype_size(OA_DT_FLOAT16), 2);
    assert_int_equal(oa_dtype_size(OA_DT_INT4), 0);
    assert_int_equal(oa_dtype_bits(OA_DT_INT4), 4);
    assert_string_equal(oa_dtype_name(OA_DT_BF16), "DT_BF16");
    assert_string_equal(oa_dtype_name((oa_dtype)5), "DT_INVALID");
    oa_dtype d;
    assert_true(oa_dtype_from_name("float32", &d));
    assert_int_equal(d, OA_DT_FLOAT);
    assert_false(oa_dtype_from_name("float128", &d));
    assert_string_equal(oa_format_name(OA_FORMAT_NCHW), "NCHW");
    assert_string_equal(oa_format_name(OA_FORMAT_RESERVED), "FORMAT_RESERVED");
    assert_string_equal(oa_format_name(OA_FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS), "DECONV_SP_STRIDE8_TRANS");
    assert_string_equal(oa_format_name((oa_format)(OA_FORMAT_FRACTAL_Z | (1 << 8))), "FRACTAL_Z");
    assert_string_equal(oa_format_name((oa_format)99), "RESERVED");
    oa_format f;
    assert_true(oa_format_from_name("NC1HWC0", &f));
    assert_int_equal(f, OA_FORMAT_NC1HWC0);
    char b[64];
    oa_shape s = oa_shape_unknown_rank();
    assert_string_equal(oa_shape_str(&s, b, sizeof(b)), "[-2]");
    s = tu_shape("1,-1");
    assert_string_equal(oa_shape_str(&s, b, sizeof(b)), "[1,-1]");
    int64_t n;
    assert_false(oa_shape_numel(&s, &n));
    s = tu_shape("4611686018427387904,4");
    assert_false(oa_shape_numel(&s, &n));
    size_t bytes;
    s = tu_shape("2305843009213693952");
    assert_false(oa_tensor_nbytes(OA_DT_FLOAT, &s, &bytes));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(build_and_query),
        cmocka_unit_test(names_and_slots_are_checked),
        cmocka_unit_test(attributes_of_every_kind),
        cmocka_unit_test(mutation),
        cmocka_unit_test(topo_order_and_cycles),
        cmocka_unit_test(validate_reports_structure_errors),
        cmocka_unit_test(subgraphs),
        cmocka_unit_test(clone_is_deep),
        cmocka_unit_test(copy_into_subgraph),
        cmocka_unit_test(dump_format),
        cmocka_unit_test(tensors_check_sizes),
        cmocka_unit_test(blobs_arena_strmap),
        cmocka_unit_test(op_table),
        cmocka_unit_test(dtype_and_format_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

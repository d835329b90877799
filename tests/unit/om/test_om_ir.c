/*
 * om IR conversion: what the writer puts in the file (weights layout, op
 * fields, descriptors, model attrs, MODEL_INOUT_INFO, memory plan), the
 * reader's inverse, byte-identical round trips and the reader's refusals.
 *
 *   x (Data, f32[1,4]) ──▶ add ◀── w (Const [1,2,3,4])
 *                            │
 *                            ▼
 *   w2 (Const, same bytes)─▶ mul ──▶ if (then: Relu, else: Neg-free pass) ──▶ Node_Output
 *   flag (Data, bool[]) ─────────────┘        ^ control edge from w3 (Const f32[8])
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/error.h"
#include "graph/infer.h"
#include "netron_check.h"
#include "om/om_inout.h"
#include "om_ir/om_ir.h"
#include "om/om_query.h"
#include "om_ir_compare.h"

#define OK(expr)                                                                                  \
    do {                                                                                          \
        oa_status st_ = (expr);                                                                   \
        if (st_ != OA_OK) {                                                                       \
            const char *m_ = oa_error_take_messages();                                            \
            fail_msg("%s: %s: %s", #expr, oa_status_str(st_), m_ ? m_ : "");                      \
        }                                                                                         \
    } while (0)

static void expect_fail(oa_status st, oa_status want, const char *needle)
{
    const char *m = oa_error_take_messages();
    if (st != want || m == NULL || strstr(m, needle) == NULL) {
        fail_msg("status %s (want %s), message [%s], want [%s]", oa_status_str(st), oa_status_str(want),
                 m ? m : "(none)", needle);
    }
}

static oa_node *add_const(oa_graph *g, const char *name, const float *v, int64_t n)
{
    oa_shape s = oa_shape_make(1, &n);
    oa_tensor *t = NULL;
    OK(oa_graph_make_tensor(g, OA_DT_FLOAT, &s, v, (size_t)n * sizeof(float), &t));
    oa_node *c = NULL;
    OK(oa_graph_add_const(g, name, t, &c));
    return c;
}

static oa_graph *branch(oa_node *ifn, const char *slot, const char *name, bool relu)
{
    oa_graph *sg = NULL;
    OK(oa_graph_create_subgraph(ifn, slot, name, &sg));
    oa_shape s14 = oa_shape_make(2, (const int64_t[]){1, 4});
    oa_node *d = NULL, *out = NULL, *r = NULL;
    OK(oa_graph_add_data(sg, "in", 0, OA_DT_FLOAT, &s14, OA_FORMAT_ND, &d));
    OK(oa_node_set_int(d, "_parent_node_index", 1));
    OK(oa_graph_add_net_output(sg, "out", 1, &out));
    if (relu) {
        OK(oa_graph_add_node(sg, OA_OP_RELU, "relu", 1, 1, &r));
        OK(oa_node_connect(r, 0, d, 0));
        OK(oa_node_connect(out, 0, r, 0));
    } else {
        OK(oa_node_connect(out, 0, d, 0));
    }
    return sg;
}

/* The graph of the file comment, inferred. */
static oa_graph *build_graph(void)
{
    oa_graph *g = NULL;
    OK(oa_graph_create("net", &g));
    oa_shape s14 = oa_shape_make(2, (const int64_t[]){1, 4});
    oa_shape scalar = oa_shape_scalar();
    oa_node *x = NULL, *flag = NULL, *add = NULL, *mul = NULL, *ifn = NULL, *out = NULL;
    OK(oa_graph_add_data(g, "x", 0, OA_DT_FLOAT, &s14, OA_FORMAT_NCHW, &x));
    OK(oa_graph_add_data(g, "flag", 1, OA_DT_BOOL, &scalar, OA_FORMAT_ND, &flag));
    static const float wv[4] = {1, 2, 3, 4};
    static const float w3v[8] = {9, 9, 9, 9, 9, 9, 9, 9};
    oa_node *w = add_const(g, "w", wv, 4);
    oa_node *w2 = add_const(g, "w2", wv, 4);
    oa_node *w3 = add_const(g, "w3", w3v, 8);
    OK(oa_graph_add_node(g, OA_OP_ADD, "add", 2, 1, &add));
    OK(oa_node_connect(add, 0, x, 0));
    OK(oa_node_connect(add, 1, w, 0));
    OK(oa_graph_add_node(g, OA_OP_MUL, "mul", 2, 1, &mul));
    OK(oa_node_connect(mul, 0, add, 0));
    OK(oa_node_connect(mul, 1, w2, 0));
    OK(oa_node_add_control_input(mul, w3));
    OK(oa_graph_add_node(g, OA_OP_IF, "if", 2, 1, &ifn));
    OK(oa_node_connect(ifn, 0, flag, 0));
    OK(oa_node_connect(ifn, 1, mul, 0));
    (void)branch(ifn, "then_branch", "if_then", true);
    (void)branch(ifn, "else_branch", "if_else", false);
    OK(oa_graph_add_net_output(g, "Node_Output", 1, &out));
    OK(oa_node_connect(out, 0, ifn, 0));
    oa_tensor_desc *od = oa_node_input_desc(out, 0);
    od->name = "y";
    /* every attr kind the file can carry */
    OK(oa_node_set_str(add, "mode", "fast"));
    OK(oa_node_set_str(add, "empty", ""));
    OK(oa_node_set_list_str(add, "blanks", (const char *const[]){"", "x"}, 2));
    OK(oa_node_set_float(add, "alpha", 0.5f));
    OK(oa_node_set_bool(add, "flag", true));
    OK(oa_node_set_dtype(add, "dst", OA_DT_INT64));
    OK(oa_node_set_list_int(add, "axes", (const int64_t[]){-1, 0, 7}, 3));
    OK(oa_node_set_list_float(add, "scales", (const float[]){0.25f, 2.0f}, 2));
    OK(oa_node_set_list_str(add, "tags", (const char *const[]){"a", "b"}, 2));
    OK(oa_attrs_set_list_bool(g, &add->attrs, "mask", (const bool[]){true, false}, 2));
    OK(oa_attrs_set_bytes(g, &add->attrs, "blob", "\x00\x01\x02", 3));
    OK(oa_attrs_set_list_dtype(g, &add->attrs, "types", (const oa_dtype[]){OA_DT_FLOAT16, OA_DT_INT8}, 2));
    OK(oa_attrs_set_list_list_int(g, &add->attrs, "pairs", (const int64_t *const[]){(const int64_t[]){1, 2}},
                                  (const size_t[]){2}, 1));
    oa_attrs na = {0}; /* NamedAttrs (AttrDef.func), as AIPP's `aipp` */
    OK(oa_attrs_set_int(g, &na, "aipp_mode", 1));
    OK(oa_attrs_set_bool(g, &na, "crop", true));
    OK(oa_attrs_set_float(g, &na, "var_reci_chn_0", 0.5f));
    OK(oa_attrs_set_named(g, &add->attrs, "aipp", "", &na));
    OK(oa_attrs_set_str(g, oa_graph_attrs(g), "graph_note", "hello"));
    OK(oa_graph_infer(g));
    /* a known shape range and origin shape on a descriptor */
    oa_tensor_desc *xd = oa_node_input_desc(x, 0);
    xd->has_range = true;
    xd->range_min[0] = 1;
    xd->range_max[0] = 1;
    xd->range_min[1] = 4;
    xd->range_max[1] = 4;
    xd->origin_shape_set = true;
    xd->origin_shape = s14;
    OK(oa_attrs_set_int(g, &xd->attrs, "_user_tag", 3));
    return g;
}

static const Ge__Proto__OpDef *op_named(const Ge__Proto__ModelDef *def, const char *name)
{
    for (size_t g = 0; g < def->n_graph; ++g) {
        for (size_t i = 0; i < def->graph[g]->n_op; ++i) {
            if (strcmp(def->graph[g]->op[i]->name, name) == 0) {
                return def->graph[g]->op[i];
            }
        }
    }
    return NULL;
}

static const Ge__Proto__AttrDef *attr(Ge__Proto__AttrMapEntry *const *a, size_t n, const char *k)
{
    const Ge__Proto__AttrDef *v = oa_om_attr_get(a, n, k);
    if (v == NULL) {
        fail_msg("attr %s missing", k);
    }
    return v;
}

/* Offsets of one node: output k at 1000 * id + 64 * k, inputs likewise. */
typedef struct plan_ctx {
    oa_om_node_mem mem[64];
    int64_t vals[64][8];
} plan_ctx;

static const oa_om_node_mem *plan_lookup(void *ctx, const oa_node *n)
{
    plan_ctx *p = ctx;
    if (n->id >= 64 || n->num_outputs > 4 || n->num_inputs > 4) {
        return NULL;
    }
    int64_t *v = p->vals[n->id];
    for (uint32_t k = 0; k < n->num_outputs; ++k) {
        v[k] = 1000 * (int64_t)n->id + 64 * k;
    }
    for (uint32_t k = 0; k < n->num_inputs; ++k) {
        v[4 + k] = 7 * (int64_t)k;
    }
    p->mem[n->id] = (oa_om_node_mem){v + 4, n->num_inputs, v, n->num_outputs, NULL, 0, NULL, 0};
    return &p->mem[n->id];
}

static void writer_follows_ge(void **state)
{
    (void)state;
    oa_graph *g = build_graph();
    plan_ctx pc;
    memset(&pc, 0, sizeof(pc));
    oa_om_mem_plan plan = {8192, plan_lookup, &pc};
    oa_om_write_opts o;
    oa_om_write_opts_init(&o);
    o.plan = &plan;
    o.soc_version = "Ascend310";
    o.framework_type = "Onnx";
    uint8_t *img;
    size_t len;
    OK(oa_om_write_graph_memory(g, &o, &img, &len));
    char msg[256];
    if (netron_check(img, len, msg, sizeof(msg)) != 0) {
        fail_msg("netron: %s", msg);
    }
    oa_om_model *m;
    OK(oa_om_model_open_memory(img, len, 0, &m));
    const oa_om_table *t = m->models[0].table;
    assert_int_equal(t->num, 4);
    assert_int_equal(t->parts[0].type, OA_OM_PART_MODEL_INOUT_INFO);
    assert_int_equal(t->parts[1].type, OA_OM_PART_MODEL_DEF);
    assert_int_equal(t->parts[2].type, OA_OM_PART_WEIGHTS_DATA);
    assert_int_equal(t->parts[3].type, OA_OM_PART_TASK_INFO);
    /* weights: w at 512, w2 shares it, w3 at 1024; the running offset is 1536 after w3, so the size is round_up(1536 + 32, 512) */
    const oa_om_partition *wp = m->models[0].weights;
    assert_int_equal(wp->size, 2048);
    float f[8];
    memcpy(f, wp->data + 512, 16);
    assert_true(f[0] == 1.0f && f[3] == 4.0f);
    memcpy(f, wp->data + 1024, 32);
    assert_true(f[7] == 9.0f);
    const Ge__Proto__ModelDef *def = m->models[0].def;
    assert_string_equal(def->name, "net");
    assert_int_equal(def->n_graph, 3);
    assert_string_equal(def->graph[1]->name, "if_then");
    assert_string_equal(def->graph[2]->name, "if_else");
    assert_int_equal(def->graph[0]->n_input, 2);
    assert_string_equal(def->graph[0]->input[0], "x:0");
    assert_string_equal(def->graph[0]->input[1], "flag:0");

    const Ge__Proto__OpDef *w2 = op_named(def, "w2");
    const Ge__Proto__AttrDef *val = attr(w2->attr, w2->n_attr, "value");
    assert_int_equal(val->t->data.len, 0);
    assert_int_equal(val->t->desc->data_offset, 512);
    assert_int_equal(val->t->desc->weight_size, 16);

    const Ge__Proto__OpDef *mul = op_named(def, "mul");
    assert_int_equal(mul->n_input, 3);
    assert_string_equal(mul->input[0], "add:0");
    assert_string_equal(mul->input[1], "w2:0");
    assert_string_equal(mul->input[2], "w3:-1");
    assert_int_equal(mul->n_is_input_const, 2);
    assert_false(mul->is_input_const[0]);
    assert_true(mul->is_input_const[1]);
    assert_int_equal(mul->input_desc[1]->data_offset, 512);
    assert_int_equal(mul->n_src_name, 3);
    assert_string_equal(mul->src_name[2], "w3");
    assert_int_equal(mul->n_src_index, 2);
    assert_int_equal(mul->n_dst_name, 1);
    assert_string_equal(mul->dst_name[0], "if");
    assert_int_equal(mul->dst_index[0], 1);
    assert_true(mul->has_out_attr);
    const Ge__Proto__AttrDef *keys = attr(mul->attr, mul->n_attr, "_input_name_key");
    assert_int_equal(keys->list->val_type, 0); /* the serializer's lists carry no val_type */
    assert_int_equal(keys->list->n_s, 2);
    assert_memory_equal(keys->list->s[0].data, "x1", 2);
    /* the plan's offsets */
    assert_int_equal(mul->n_output_i, 1);
    assert_int_equal(mul->n_input_i, 2);
    assert_int_equal(mul->input_i[1], 7);

    const Ge__Proto__OpDef *w3 = op_named(def, "w3");
    assert_int_equal(w3->n_dst_name, 1);
    assert_string_equal(w3->dst_name[0], "mul");
    assert_int_equal(w3->dst_index[0], -1);

    const Ge__Proto__OpDef *add = op_named(def, "add");
    const Ge__Proto__AttrDef *lst = attr(add->attr, add->n_attr, "axes");
    assert_int_equal(lst->list->val_type, 2);
    assert_int_equal(attr(add->attr, add->n_attr, "dst")->dt, OA_DT_INT64);
    const Ge__Proto__TensorDescriptor *od = add->output_desc[0];
    assert_int_equal(od->dtype, 1);
    assert_string_equal(od->layout, "ND");
    assert_int_equal(od->size, 64); /* (16 + 63) / 32 * 32 */
    assert_int_equal(attr(od->attr, od->n_attr, "format_for_int")->i, 2);
    assert_false(attr(od->attr, od->n_attr, "origin_shape_initialized")->b);
    assert_string_equal(od->device_type, "NPU");

    const Ge__Proto__OpDef *x = op_named(def, "x");
    const Ge__Proto__TensorDescriptor *xi = x->input_desc[0];
    assert_int_equal(xi->size, 16); /* exact on Data inputs */
    assert_string_equal(xi->layout, "NCHW");
    assert_int_equal(attr(xi->attr, xi->n_attr, "origin_shape")->list->n_i, 2);
    assert_int_equal(attr(xi->attr, xi->n_attr, "shape_range")->list_list_int->n_list_list_i, 2);
    assert_int_equal(attr(x->attr, x->n_attr, "index")->i, 0);

    const Ge__Proto__OpDef *flag = op_named(def, "flag");
    assert_non_null(flag->output_desc[0]->shape); /* a scalar keeps an empty shape */
    assert_int_equal(flag->output_desc[0]->shape->n_dim, 0);

    const Ge__Proto__OpDef *ifn = op_named(def, "if");
    assert_int_equal(ifn->n_subgraph_name, 2);
    assert_string_equal(ifn->subgraph_name[1], "if_else");

    assert_int_equal(attr(def->attr, def->n_attr, "memory_size")->i, 8192);
    assert_int_equal(attr(def->attr, def->n_attr, "weight_size")->i, 2048);
    assert_int_equal(attr(def->attr, def->n_attr, "stream_num")->i, 1);
    assert_memory_equal(attr(def->attr, def->n_attr, "framework_type")->s.data, "Onnx", 4);
    const Ge__Proto__AttrDef *info = attr(def->attr, def->n_attr, "om_info_list");
    assert_int_equal(info->list->n_i, 5);
    assert_int_equal(info->list->i[0], 2048);
    assert_int_equal(info->list->i[3], (int64_t)t->parts[3].size);
    const Ge__Proto__AttrDef *outs = attr(def->attr, def->n_attr, "attr_model_out_nodes_name");
    assert_memory_equal(outs->list->s[0].data, "if:0", 4);

    assert_int_equal(m->models[0].task->memory_size, 8192);
    assert_int_equal(m->inout->n_inputs, 2);
    assert_string_equal(m->inout->inputs[0].name, "x");
    assert_int_equal(m->inout->inputs[0].size, 16);
    assert_int_equal(m->inout->inputs[0].format, OA_FORMAT_NCHW);
    assert_int_equal(m->inout->inputs[0].n_ranges, 2);
    assert_int_equal(m->inout->inputs[1].dtype, OA_DT_BOOL);
    assert_string_equal(m->inout->outputs[0].name, "if:0");
    assert_int_equal(m->inout->outputs[0].size, 16);
    oa_om_model_destroy(m);

    size_t work = 0, weight = 0;
    OK(oa_om_query_size_memory(img, len, &work, &weight));
    assert_int_equal(work, 8192);
    assert_int_equal(weight, 2048);
    free(img);
    oa_graph_destroy(g);
}

static void reader_restores_the_graph_and_round_trips(void **state)
{
    (void)state;
    oa_graph *g = build_graph();
    plan_ctx pc;
    memset(&pc, 0, sizeof(pc));
    oa_om_mem_plan plan = {4096, plan_lookup, &pc};
    for (int variant = 0; variant < 3; ++variant) {
        oa_om_write_opts o;
        oa_om_write_opts_init(&o);
        o.atc_cmdline = "atc --model=net.onnx";
        o.platform_version = "1.0";
        o.plan = variant == 0 ? &plan : NULL;
        o.inline_weights = variant == 1;
        o.compress = variant == 2;
        uint8_t *a;
        size_t al;
        OK(oa_om_write_graph_memory(g, &o, &a, &al));
        oa_om_model *m;
        OK(oa_om_model_open_memory(a, al, 0, &m));
        assert_int_equal(m->models[0].was_compressed, variant == 2);
        oa_graph *back = NULL;
        const oa_om_graph_info *info = NULL;
        OK(oa_om_graph_from_model(m, 0, &back, &info));
        char msg[512];
        if (om_ir_compare(g, back, msg, sizeof(msg)) != 0) {
            fail_msg("variant %d: %s", variant, msg);
        }
        assert_string_equal(info->platform_version, "1.0");
        assert_int_equal(info->inline_weights, variant == 1);
        assert_int_equal(info->memory_size, variant == 0 ? 4096 : 0);
        /* merged weights are borrowed from the file image itself */
        const oa_tensor *wt = NULL;
        assert_true(oa_attrs_get_tensor(&oa_graph_find_node(back, "w")->attrs, "value", &wt));
        const bool in_image = (const uint8_t *)wt->data >= a && (const uint8_t *)wt->data < a + al;
        assert_int_equal(in_image, variant != 1);
        if (variant == 0) {
            const oa_node *mul = oa_graph_find_node(back, "mul");
            const oa_om_node_mem *nm = info->plan.node_mem(info->plan.ctx, mul);
            assert_non_null(nm);
            assert_int_equal(nm->n_input, 2);
            assert_int_equal(nm->input_offsets[1], 7);
        }
        oa_om_write_opts o2;
        oa_om_graph_info_write_opts(info, &o2);
        o2.compress = variant == 2;
        uint8_t *b;
        size_t bl;
        OK(oa_om_write_graph_memory(back, &o2, &b, &bl));
        assert_int_equal(bl, al);
        assert_memory_equal(b, a, al);
        free(b);
        /* the graph keeps no pointer into the decoded ModelDef: with its messages freed (the static loader
         * frees them once the graph is built), inline constants, attrs and the plan still read as written */
        oa_om_model_drop_decoded(m);
        assert_null(m->models);
        if (om_ir_compare(g, back, msg, sizeof(msg)) != 0) {
            fail_msg("variant %d, decoded model freed: %s", variant, msg);
        }
        if (variant == 0) {
            const oa_om_node_mem *nm = info->plan.node_mem(info->plan.ctx, oa_graph_find_node(back, "mul"));
            assert_non_null(nm);
            assert_int_equal(nm->input_offsets[1], 7);
        }
        oa_graph_destroy(back); /* releases the model too (ASan checks) */
        free(a);
    }
    oa_graph_destroy(g);
}

/*
 * WEIGHTS_DATA starts at a multiple of 64 in the file whatever MODEL_DEF's
 * length (the command line attr walks it through every residue, including
 * the 1- and 2-byte gaps the padding field cannot fill without a wrap); the
 * padding is an unknown field that readers skip, the container stays
 * gapless (offsets = running sums, checked by the parser and the Netron
 * checker) and a read -> write gives the same bytes.
 */
static void weights_start_aligned_in_the_file(void **state)
{
    (void)state;
    oa_graph *g = build_graph();
    char cmd[160];
    bool padded_wrap = false, padded_none = false;
    for (size_t extra = 0; extra < 80; ++extra) {
        snprintf(cmd, sizeof cmd, "atc --model=net.onnx %.*s", (int)extra,
                 "--output=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
        oa_om_write_opts o;
        oa_om_write_opts_init(&o);
        o.atc_cmdline = cmd;
        uint8_t *a;
        size_t al;
        OK(oa_om_write_graph_memory(g, &o, &a, &al));
        oa_om_container c;
        OK(oa_om_container_parse(a, al, &c));
        const oa_om_partition *w = NULL, *def = NULL;
        for (uint32_t i = 0; i < c.tables[0].num; ++i) {
            if (c.tables[0].parts[i].type == OA_OM_PART_WEIGHTS_DATA) {
                w = &c.tables[0].parts[i];
                def = &c.tables[0].parts[i - 1];
            }
        }
        assert_non_null(w);
        assert_int_equal(def->type, OA_OM_PART_MODEL_DEF);
        assert_int_equal((size_t)(w->data - a) % 64, 0);
        assert_ptr_equal(def->data + def->size, w->data);
        /* the padding field: tag of field 2047 (wire type 2), then its length, then zeros */
        const uint8_t *end = def->data + def->size;
        size_t pad = 0;
        for (size_t k = 3; k <= 66 && pad == 0 && k <= def->size; ++k) {
            const uint8_t *f = end - k;
            if (f[0] == 0xFA && f[1] == 0x7F && f[2] == k - 3) {
                pad = k;
            }
        }
        padded_none |= pad == 0; /* MODEL_DEF ended on the boundary already */
        padded_wrap |= pad > 63;
        char msg[512];
        if (netron_check(a, al, msg, sizeof(msg)) != 0) {
            fail_msg("extra %zu: %s", extra, msg);
        }
        oa_om_model *m;
        OK(oa_om_model_open_memory(a, al, 0, &m));
        oa_graph *back = NULL;
        const oa_om_graph_info *info = NULL;
        OK(oa_om_graph_from_model(m, 0, &back, &info));
        oa_om_write_opts o2;
        oa_om_graph_info_write_opts(info, &o2);
        uint8_t *b;
        size_t bl;
        OK(oa_om_write_graph_memory(back, &o2, &b, &bl));
        assert_int_equal(bl, al);
        assert_memory_equal(b, a, al);
        free(b);
        oa_graph_destroy(back);
        oa_om_container_deinit(&c);
        free(a);
    }
    assert_true(padded_wrap);
    assert_true(padded_none);
    oa_graph_destroy(g);
}

static void model_def_and_file_entry_points(void **state)
{
    (void)state;
    oa_graph *g = build_graph();
    oa_om_arena *a;
    OK(oa_om_arena_create(&a));
    Ge__Proto__ModelDef *def = NULL;
    uint8_t *w = NULL;
    size_t wl = 0;
    OK(oa_om_model_def_from_graph(g, NULL, a, &def, &w, &wl));
    assert_int_equal(wl, 2048);
    assert_int_equal(def->n_graph, 3);
    free(w);
    oa_om_arena_destroy(a);

    char path[] = "/tmp/oa_om_ir_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    OK(oa_om_write_graph(g, NULL, path));
    oa_graph *back = NULL;
    const oa_om_graph_info *info = NULL;
    OK(oa_om_read_graph(path, &back, &info));
    char msg[512];
    if (om_ir_compare(g, back, msg, sizeof(msg)) != 0) {
        fail_msg("%s", msg);
    }
    unlink(path); /* the mapping stays valid while the graph lives */
    assert_non_null(info->model);
    oa_graph_destroy(back);
    expect_fail(oa_om_read_graph(path, &back, &info), OA_E_GE_MODEL_PATH, path);
    assert_null(back);

    oa_om_write_opts o;
    oa_om_write_opts_init(&o);
    o.platform_version = "12345678901234567890";
    expect_fail(oa_om_write_graph(g, &o, path), OA_E_PARAM, "platform version");
    expect_fail(oa_om_write_graph(g, NULL, ""), OA_E_PARAM, "empty");
    oa_graph *sub = oa_graph_find_subgraph(g, "if_then");
    uint8_t *img;
    size_t len;
    expect_fail(oa_om_write_graph_memory(sub, NULL, &img, &len), OA_E_PARAM, "root graph");
    oa_graph_destroy(g);
}

/* Images the reader cannot turn into a graph. */
static void reader_refusals(void **state)
{
    (void)state;
    oa_graph *g = build_graph();
    uint8_t *img;
    size_t len;
    OK(oa_om_write_graph_memory(g, NULL, &img, &len));
    oa_om_model *m;
    oa_graph *back = NULL;
    OK(oa_om_model_open_memory(img, len, OA_OM_OPEN_KEEP_COMPRESSED, &m));
    expect_fail(oa_om_graph_from_model(m, 0, &back, NULL), OA_E_PARAM, "compressed");
    OK(oa_om_model_open_memory(img, len, 0, &m));
    expect_fail(oa_om_graph_from_model(m, 1, &back, NULL), OA_E_PARAM, "table 1");

    /* a rank the IR cannot hold: edit the decoded ModelDef before conversion */
    OK(oa_om_model_open_memory(img, len, 0, &m));
    Ge__Proto__OpDef *add = (Ge__Proto__OpDef *)(uintptr_t)op_named(m->models[0].def, "add");
    static int64_t dims9[9] = {1, 1, 1, 1, 1, 1, 1, 1, 4};
    add->output_desc[0]->shape->dim = dims9;
    add->output_desc[0]->shape->n_dim = 9;
    expect_fail(oa_om_graph_from_model(m, 0, &back, NULL), OA_E_GE_LOAD_MODEL_PARTITION, "rank 9");

    OK(oa_om_model_open_memory(img, len, 0, &m));
    add = (Ge__Proto__OpDef *)(uintptr_t)op_named(m->models[0].def, "add");
    add->n_input_desc = 1;
    expect_fail(oa_om_graph_from_model(m, 0, &back, NULL), OA_E_GE_LOAD_MODEL_PARTITION, "input descs");

    OK(oa_om_model_open_memory(img, len, 0, &m));
    Ge__Proto__OpDef *w = (Ge__Proto__OpDef *)(uintptr_t)op_named(m->models[0].def, "w");
    Ge__Proto__AttrDef *v = (Ge__Proto__AttrDef *)(uintptr_t)oa_om_attr_get(w->attr, w->n_attr, "value");
    v->t->desc->weight_size = 12;
    expect_fail(oa_om_graph_from_model(m, 0, &back, NULL), OA_E_GE_LOAD_WEIGHT_PARTITION, "12 bytes of data");
    assert_null(back);
    free(img);
    oa_graph_destroy(g);
}

static void writer_refuses_what_the_reader_would(void **state)
{
    (void)state;
    uint8_t *img = NULL;
    size_t len = 0;
    oa_graph *g = NULL;
    OK(oa_graph_create("bad", &g));
    oa_node *d = NULL, *out = NULL;
    OK(oa_graph_add_node_typed(g, "Data", "x", 1, 1, &d)); /* no index attr */
    OK(oa_graph_add_net_output(g, "out", 1, &out));
    OK(oa_node_connect(out, 0, d, 0));
    expect_fail(oa_om_write_graph_memory(g, NULL, &img, &len), OA_E_MODEL_MISSING_ATTR, "lacks attribute index");
    OK(oa_node_set_int(d, "index", 0));
    OK(oa_graph_rename(g, "bad\xff"));
    expect_fail(oa_om_write_graph_memory(g, NULL, &img, &len), OA_E_GE_PARAM, "not UTF-8");
    OK(oa_graph_rename(g, "good"));
    OK(oa_om_write_graph_memory(g, NULL, &img, &len));
    free(img);
    oa_graph_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(writer_follows_ge),
        cmocka_unit_test(reader_restores_the_graph_and_round_trips),
        cmocka_unit_test(weights_start_aligned_in_the_file),
        cmocka_unit_test(model_def_and_file_entry_points),
        cmocka_unit_test(reader_refusals),
        cmocka_unit_test(writer_refuses_what_the_reader_would),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

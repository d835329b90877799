/*
 * In-memory ONNX model builder for tests (onnx_builder.h).
 */
#include "onnx_builder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tb_graph {
    Onnx__GraphProto proto;
};

struct tb_model {
    Onnx__ModelProto proto;
    Onnx__OperatorSetIdProto opset;
    Onnx__OperatorSetIdProto *opsets[1];
    tb_graph *root;
    void **allocs;
    size_t nallocs, cap;
};

/* The model being built: tests build one model at a time, so graph-level
 * helpers do not need it as a parameter. */
static tb_model *g_current;

static void *tb_alloc(tb_model *m, size_t size)
{
    void *p = calloc(1, size ? size : 1);
    if (p == NULL) {
        fprintf(stderr, "onnx_builder: out of memory\n");
        abort();
    }
    if (m->nallocs == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 64;
        m->allocs = realloc(m->allocs, m->cap * sizeof(*m->allocs));
        if (m->allocs == NULL) {
            abort();
        }
    }
    m->allocs[m->nallocs++] = p;
    return p;
}

static char *tb_strdup(tb_model *m, const char *s)
{
    char *d = tb_alloc(m, strlen(s) + 1);
    memcpy(d, s, strlen(s) + 1);
    return d;
}

/* Appends p to a protobuf-c repeated pointer field. */
#define PUSH(m, n_field, field, p)                                                   \
    do {                                                                             \
        void **np_ = tb_alloc((m), ((n_field) + 1) * sizeof(void *));                \
        if ((n_field)) {                                                             \
            memcpy(np_, (field), (n_field) * sizeof(void *));                        \
        }                                                                            \
        np_[(n_field)] = (p);                                                        \
        (field) = (void *)np_;                                                       \
        (n_field)++;                                                                 \
    } while (0)

tb_graph *tb_graph_new(tb_model *m, const char *name)
{
    tb_graph *g = tb_alloc(m, sizeof(*g));
    onnx__graph_proto__init(&g->proto);
    g->proto.name = tb_strdup(m, name);
    return g;
}

tb_model *tb_new(int64_t opset)
{
    tb_model *m = calloc(1, sizeof(*m));
    if (m == NULL) {
        abort();
    }
    g_current = m;
    onnx__model_proto__init(&m->proto);
    m->proto.has_ir_version = 1;
    m->proto.ir_version = 8;
    if (opset >= 0) {
        onnx__operator_set_id_proto__init(&m->opset);
        m->opset.domain = "";
        m->opset.has_version = 1;
        m->opset.version = opset;
        m->opsets[0] = &m->opset;
        m->proto.n_opset_import = 1;
        m->proto.opset_import = m->opsets;
    }
    m->root = tb_graph_new(m, "g");
    m->proto.graph = &m->root->proto;
    return m;
}

void tb_free(tb_model *m)
{
    if (m == NULL) {
        return;
    }
    if (g_current == m) {
        g_current = NULL;
    }
    for (size_t i = 0; i < m->nallocs; i++) {
        free(m->allocs[i]);
    }
    free(m->allocs);
    free(m);
}

tb_graph *tb_root(tb_model *m)
{
    return m->root;
}

Onnx__GraphProto *tb_graph_proto(tb_graph *g)
{
    return &g->proto;
}

Onnx__ModelProto *tb_proto(tb_model *m)
{
    return &m->proto;
}


void tb_input(tb_graph *g, const char *name, int elem_type, int rank, const int64_t *dims)
{
    tb_model *m = g_current;
    Onnx__ValueInfoProto *vi = tb_alloc(m, sizeof(*vi));
    onnx__value_info_proto__init(vi);
    vi->name = tb_strdup(m, name);
    Onnx__TypeProto *tp = tb_alloc(m, sizeof(*tp));
    onnx__type_proto__init(tp);
    Onnx__TypeProto__Tensor *tt = tb_alloc(m, sizeof(*tt));
    onnx__type_proto__tensor__init(tt);
    tt->has_elem_type = 1;
    tt->elem_type = elem_type;
    if (rank >= 0) {
        Onnx__TensorShapeProto *sp = tb_alloc(m, sizeof(*sp));
        onnx__tensor_shape_proto__init(sp);
        for (int i = 0; i < rank; i++) {
            Onnx__TensorShapeProto__Dimension *d = tb_alloc(m, sizeof(*d));
            onnx__tensor_shape_proto__dimension__init(d);
            if (dims[i] >= 0) {
                d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
                d->dim_value = dims[i];
            } else {
                d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
                d->dim_param = tb_strdup(m, "N");
            }
            PUSH(m, sp->n_dim, sp->dim, d);
        }
        tt->shape = sp;
    }
    tp->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
    tp->tensor_type = tt;
    vi->type = tp;
    PUSH(m, g->proto.n_input, g->proto.input, vi);
}

void tb_output(tb_graph *g, const char *name)
{
    tb_model *m = g_current;
    Onnx__ValueInfoProto *vi = tb_alloc(m, sizeof(*vi));
    onnx__value_info_proto__init(vi);
    vi->name = tb_strdup(m, name);
    PUSH(m, g->proto.n_output, g->proto.output, vi);
}

static void split_list(tb_model *m, const char *list, size_t *n, char ***out)
{
    *n = 0;
    *out = NULL;
    if (list == NULL) {
        return;
    }
    const char *p = list;
    for (;;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        char *s = tb_alloc(m, len + 1);
        memcpy(s, p, len);
        PUSH(m, *n, *out, s);
        if (c == NULL) {
            break;
        }
        p = c + 1;
    }
}

Onnx__NodeProto *tb_node(tb_graph *g, const char *op, const char *name, const char *inputs, const char *outputs)
{
    tb_model *m = g_current;
    Onnx__NodeProto *n = tb_alloc(m, sizeof(*n));
    onnx__node_proto__init(n);
    n->op_type = tb_strdup(m, op);
    n->name = name ? tb_strdup(m, name) : NULL;
    split_list(m, inputs && inputs[0] ? inputs : NULL, &n->n_input, &n->input);
    split_list(m, outputs, &n->n_output, &n->output);
    PUSH(m, g->proto.n_node, g->proto.node, n);
    return n;
}

static Onnx__AttributeProto *new_attr(tb_model *m, Onnx__NodeProto *n, const char *name, int type)
{
    Onnx__AttributeProto *a = tb_alloc(m, sizeof(*a));
    onnx__attribute_proto__init(a);
    a->name = tb_strdup(m, name);
    a->has_type = 1;
    a->type = type;
    PUSH(m, n->n_attribute, n->attribute, a);
    return a;
}

void tb_attr_int(tb_model *m, Onnx__NodeProto *n, const char *name, int64_t v)
{
    Onnx__AttributeProto *a = new_attr(m, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT);
    a->has_i = 1;
    a->i = v;
}

void tb_attr_float(tb_model *m, Onnx__NodeProto *n, const char *name, float v)
{
    Onnx__AttributeProto *a = new_attr(m, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);
    a->has_f = 1;
    a->f = v;
}

void tb_attr_str(tb_model *m, Onnx__NodeProto *n, const char *name, const char *v)
{
    Onnx__AttributeProto *a = new_attr(m, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING);
    a->has_s = 1;
    a->s.len = strlen(v);
    a->s.data = (uint8_t *)tb_strdup(m, v);
}

void tb_attr_ints(tb_model *m, Onnx__NodeProto *n, const char *name, const int64_t *v, size_t count)
{
    Onnx__AttributeProto *a = new_attr(m, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS);
    a->ints = tb_alloc(m, count * sizeof(int64_t));
    memcpy(a->ints, v, count * sizeof(int64_t));
    a->n_ints = count;
}

void tb_attr_floats(tb_model *m, Onnx__NodeProto *n, const char *name, const float *v, size_t count)
{
    Onnx__AttributeProto *a = new_attr(m, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS);
    a->floats = tb_alloc(m, count * sizeof(float));
    memcpy(a->floats, v, count * sizeof(float));
    a->n_floats = count;
}

void tb_attr_tensor(tb_model *m, Onnx__NodeProto *n, const char *name, Onnx__TensorProto *t)
{
    Onnx__AttributeProto *a = new_attr(m, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR);
    a->t = t;
}

void tb_attr_graph(tb_model *m, Onnx__NodeProto *n, const char *name, tb_graph *g)
{
    Onnx__AttributeProto *a = new_attr(m, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH);
    a->g = &g->proto;
}

static Onnx__TensorProto *tensor_head(tb_model *m, const char *name, int elem_type, int rank, const int64_t *dims)
{
    Onnx__TensorProto *t = tb_alloc(m, sizeof(*t));
    onnx__tensor_proto__init(t);
    t->name = name ? tb_strdup(m, name) : NULL;
    t->has_data_type = 1;
    t->data_type = elem_type;
    if (rank > 0) {
        t->dims = tb_alloc(m, (size_t)rank * sizeof(int64_t));
        memcpy(t->dims, dims, (size_t)rank * sizeof(int64_t));
    }
    t->n_dims = (size_t)(rank > 0 ? rank : 0);
    return t;
}

Onnx__TensorProto *tb_tensor(tb_model *m, const char *name, int elem_type, int rank, const int64_t *dims,
                             const void *data, size_t bytes)
{
    Onnx__TensorProto *t = tensor_head(m, name, elem_type, rank, dims);
    t->has_raw_data = 1;
    t->raw_data.len = bytes;
    t->raw_data.data = tb_alloc(m, bytes);
    if (bytes) {
        memcpy(t->raw_data.data, data, bytes);
    }
    return t;
}

Onnx__TensorProto *tb_tensor_f32(tb_model *m, const char *name, int rank, const int64_t *dims, const float *data)
{
    size_t n = 1;
    for (int i = 0; i < rank; i++) {
        n *= (size_t)dims[i];
    }
    return tb_tensor(m, name, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, rank, dims, data, n * sizeof(float));
}

Onnx__TensorProto *tb_tensor_i64(tb_model *m, const char *name, int rank, const int64_t *dims, const int64_t *data)
{
    size_t n = 1;
    for (int i = 0; i < rank; i++) {
        n *= (size_t)dims[i];
    }
    return tb_tensor(m, name, ONNX__TENSOR_PROTO__DATA_TYPE__INT64, rank, dims, data, n * sizeof(int64_t));
}

static void add_kv(tb_model *m, Onnx__TensorProto *t, const char *k, const char *v)
{
    Onnx__StringStringEntryProto *e = tb_alloc(m, sizeof(*e));
    onnx__string_string_entry_proto__init(e);
    e->key = tb_strdup(m, k);
    e->value = tb_strdup(m, v);
    PUSH(m, t->n_external_data, t->external_data, e);
}

Onnx__TensorProto *tb_tensor_external(tb_model *m, const char *name, int elem_type, int rank, const int64_t *dims,
                                      const char *location, int64_t offset, int64_t length)
{
    Onnx__TensorProto *t = tensor_head(m, name, elem_type, rank, dims);
    t->has_data_location = 1;
    t->data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
    char buf[32];
    if (location) {
        add_kv(m, t, "location", location);
    }
    if (offset >= 0) {
        snprintf(buf, sizeof(buf), "%lld", (long long)offset);
        add_kv(m, t, "offset", buf);
    }
    if (length >= 0) {
        snprintf(buf, sizeof(buf), "%lld", (long long)length);
        add_kv(m, t, "length", buf);
    }
    return t;
}

void tb_initializer(tb_graph *g, Onnx__TensorProto *t)
{
    PUSH(g_current, g->proto.n_initializer, g->proto.initializer, t);
}

uint8_t *tb_pack(tb_model *m, size_t *len)
{
    *len = onnx__model_proto__get_packed_size(&m->proto);
    uint8_t *buf = malloc(*len ? *len : 1);
    if (buf == NULL) {
        abort();
    }
    onnx__model_proto__pack(&m->proto, buf);
    return buf;
}

/* Test helpers: reference models and images (see om_testmodel.h). */
#include "om_testmodel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "om/om_compress.h"
#include "om/om_inout.h"

/* Appends elem to an arena array (copying the array each time: tests only). */
static void push(oa_om_arena *a, void *arr_p, size_t *n, const void *elem, size_t es)
{
    void **arr = arr_p;
    uint8_t *na = oa_om_arena_alloc(a, (*n + 1) * es);
    if (na == NULL) {
        return;
    }
    if (*n != 0) {
        memcpy(na, *arr, *n * es);
    }
    memcpy(na + *n * es, elem, es);
    *arr = na;
    (*n)++;
}

static char *dup(oa_om_arena *a, const char *s)
{
    return oa_om_arena_strndup(a, s, strlen(s));
}

Ge__Proto__ModelDef *tm_model(oa_om_arena *a, const char *name)
{
    Ge__Proto__ModelDef *m = oa_om_arena_alloc(a, sizeof(*m));
    ge__proto__model_def__init(m);
    m->name = dup(a, name);
    return m;
}

Ge__Proto__GraphDef *tm_graph(oa_om_arena *a, Ge__Proto__ModelDef *m, const char *name)
{
    Ge__Proto__GraphDef *g = oa_om_arena_alloc(a, sizeof(*g));
    ge__proto__graph_def__init(g);
    g->name = dup(a, name);
    push(a, &m->graph, &m->n_graph, &g, sizeof(g));
    return g;
}

Ge__Proto__OpDef *tm_op(oa_om_arena *a, Ge__Proto__GraphDef *g, const char *name, const char *type)
{
    Ge__Proto__OpDef *op = oa_om_arena_alloc(a, sizeof(*op));
    ge__proto__op_def__init(op);
    op->name = dup(a, name);
    op->type = dup(a, type);
    op->has_out_attr = 1;
    push(a, &g->op, &g->n_op, &op, sizeof(op));
    return op;
}

void tm_input(oa_om_arena *a, Ge__Proto__OpDef *op, const char *src)
{
    char *s = dup(a, src);
    push(a, &op->input, &op->n_input, &s, sizeof(s));
}

Ge__Proto__TensorDescriptor *tm_desc(oa_om_arena *a, int dtype, const int64_t *dims, size_t n)
{
    Ge__Proto__TensorDescriptor *d = oa_om_arena_alloc(a, sizeof(*d));
    ge__proto__tensor_descriptor__init(d);
    d->dtype = (Ge__Proto__DataType)dtype;
    d->layout = dup(a, "ND");
    d->device_type = dup(a, "NPU");
    d->shape = oa_om_arena_alloc(a, sizeof(*d->shape));
    ge__proto__shape_def__init(d->shape);
    if (n != 0) {
        d->shape->dim = oa_om_arena_alloc(a, n * sizeof(int64_t));
        memcpy(d->shape->dim, dims, n * sizeof(int64_t));
        d->shape->n_dim = n;
    }
    tm_attr_s(a, &d->attr, &d->n_attr, "origin_format", "ND");
    tm_attr_i(a, &d->attr, &d->n_attr, "format_for_int", 2);
    tm_attr_i(a, &d->attr, &d->n_attr, "origin_format_for_int", 2);
    tm_attr_b(a, &d->attr, &d->n_attr, "origin_shape_initialized", 0);
    return d;
}

void tm_add_input_desc(oa_om_arena *a, Ge__Proto__OpDef *op, Ge__Proto__TensorDescriptor *d)
{
    push(a, &op->input_desc, &op->n_input_desc, &d, sizeof(d));
}

void tm_add_output_desc(oa_om_arena *a, Ge__Proto__OpDef *op, Ge__Proto__TensorDescriptor *d)
{
    push(a, &op->output_desc, &op->n_output_desc, &d, sizeof(d));
}

Ge__Proto__AttrDef *tm_attr(oa_om_arena *a, Ge__Proto__AttrMapEntry ***attr, size_t *n, const char *key)
{
    Ge__Proto__AttrMapEntry *e = oa_om_arena_alloc(a, sizeof(*e));
    Ge__Proto__AttrDef *v = oa_om_arena_alloc(a, sizeof(*v));
    ge__proto__attr_map_entry__init(e);
    ge__proto__attr_def__init(v);
    e->key.data = (uint8_t *)dup(a, key);
    e->key.len = strlen(key);
    e->value = v;
    push(a, attr, n, &e, sizeof(e));
    return v;
}

void tm_attr_i(oa_om_arena *a, Ge__Proto__AttrMapEntry ***attr, size_t *n, const char *key, int64_t v)
{
    Ge__Proto__AttrDef *d = tm_attr(a, attr, n, key);
    d->value_case = GE__PROTO__ATTR_DEF__VALUE_I;
    d->i = v;
}

void tm_attr_s(oa_om_arena *a, Ge__Proto__AttrMapEntry ***attr, size_t *n, const char *key, const char *v)
{
    Ge__Proto__AttrDef *d = tm_attr(a, attr, n, key);
    d->value_case = GE__PROTO__ATTR_DEF__VALUE_S;
    d->s.data = (uint8_t *)dup(a, v);
    d->s.len = strlen(v);
}

void tm_attr_b(oa_om_arena *a, Ge__Proto__AttrMapEntry ***attr, size_t *n, const char *key, int v)
{
    Ge__Proto__AttrDef *d = tm_attr(a, attr, n, key);
    d->value_case = GE__PROTO__ATTR_DEF__VALUE_B;
    d->b = v;
}

static Ge__Proto__AttrDef__ListValue *new_list(oa_om_arena *a, Ge__Proto__AttrDef *d, int vt)
{
    Ge__Proto__AttrDef__ListValue *l = oa_om_arena_alloc(a, sizeof(*l));
    ge__proto__attr_def__list_value__init(l);
    l->val_type = vt;
    d->value_case = GE__PROTO__ATTR_DEF__VALUE_LIST;
    d->list = l;
    return l;
}

void tm_attr_list_i(oa_om_arena *a, Ge__Proto__AttrMapEntry ***attr, size_t *n, const char *key, const int64_t *v,
                    size_t count)
{
    Ge__Proto__AttrDef__ListValue *l =
        new_list(a, tm_attr(a, attr, n, key), GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_INT);
    for (size_t i = 0; i < count; ++i) {
        push(a, &l->i, &l->n_i, &v[i], sizeof(int64_t));
    }
}

void tm_attr_list_s(oa_om_arena *a, Ge__Proto__AttrMapEntry ***attr, size_t *n, const char *key,
                    const char *const *v, size_t count)
{
    Ge__Proto__AttrDef__ListValue *l =
        new_list(a, tm_attr(a, attr, n, key), GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_STRING);
    for (size_t i = 0; i < count; ++i) {
        ProtobufCBinaryData b = {strlen(v[i]), (uint8_t *)dup(a, v[i])};
        push(a, &l->s, &l->n_s, &b, sizeof(b));
    }
}

void tm_subgraph(oa_om_arena *a, Ge__Proto__OpDef *op, const char *graph_name)
{
    char *s = dup(a, graph_name);
    push(a, &op->subgraph_name, &op->n_subgraph_name, &s, sizeof(s));
}

#define F32 1 /* proto DT_FLOAT */

Ge__Proto__ModelDef *tm_reference_model(oa_om_arena *a, const uint8_t **weights, size_t *weights_size)
{
    static const int64_t d14[] = {1, 4};
    static const int64_t d4[] = {4};
    Ge__Proto__ModelDef *m = tm_model(a, "tm");
    tm_attr_i(a, &m->attr, &m->n_attr, "memory_size", 4096);
    tm_attr_i(a, &m->attr, &m->n_attr, "weight_size", 1024);
    tm_attr_i(a, &m->attr, &m->n_attr, "stream_num", 1);
    tm_attr_s(a, &m->attr, &m->n_attr, "framework_type", "Onnx");
    tm_attr_s(a, &m->attr, &m->n_attr, "target_type", "MINI");
    Ge__Proto__GraphDef *g = tm_graph(a, m, "main");
    Ge__Proto__GraphDef *sub = tm_graph(a, m, "sub");
    char *gi = dup(a, "x:0");
    push(a, &g->input, &g->n_input, &gi, sizeof(gi));

    Ge__Proto__OpDef *x = tm_op(a, g, "x", "Data");
    tm_input(a, x, "");
    tm_attr_i(a, &x->attr, &x->n_attr, "index", 0);
    tm_add_input_desc(a, x, tm_desc(a, F32, d14, 2));
    tm_add_output_desc(a, x, tm_desc(a, F32, d14, 2));
    x->id = 0;

    Ge__Proto__OpDef *w = tm_op(a, g, "w", "Const");
    Ge__Proto__AttrDef *v = tm_attr(a, &w->attr, &w->n_attr, "value");
    v->value_case = GE__PROTO__ATTR_DEF__VALUE_T;
    v->t = oa_om_arena_alloc(a, sizeof(*v->t));
    ge__proto__tensor_def__init(v->t);
    v->t->desc = tm_desc(a, F32, d4, 1);
    v->t->desc->data_offset = 512;
    v->t->desc->weight_size = 16;
    v->t->desc->size = 16;
    tm_add_output_desc(a, w, tm_desc(a, F32, d4, 1));
    w->id = 1;

    Ge__Proto__OpDef *add = tm_op(a, g, "add", "Add");
    tm_input(a, add, "x:0");
    tm_input(a, add, "w:0");
    tm_add_input_desc(a, add, tm_desc(a, F32, d14, 2));
    Ge__Proto__TensorDescriptor *wd = tm_desc(a, F32, d4, 1);
    wd->data_offset = 512;
    tm_add_input_desc(a, add, wd);
    Ge__Proto__TensorDescriptor *ad = tm_desc(a, F32, d14, 2);
    tm_attr_s(a, &ad->attr, &ad->n_attr, "shape_hint", "nchw");
    tm_add_output_desc(a, add, ad);
    tm_attr_s(a, &add->attr, &add->n_attr, "mode", "fast");
    static const char *const tags[] = {"alpha", "beta", "fast"};
    tm_attr_list_s(a, &add->attr, &add->n_attr, "tags", tags, 3);
    tm_attr_i(a, &add->attr, &add->n_attr, "index", 7);
    protobuf_c_boolean *c = oa_om_arena_alloc(a, 2 * sizeof(*c));
    c[0] = 0;
    c[1] = 1;
    add->is_input_const = c;
    add->n_is_input_const = 2;
    add->id = 2;

    Ge__Proto__OpDef *pc = tm_op(a, g, "pc", "PartitionedCall");
    tm_input(a, pc, "add:0");
    tm_input(a, pc, "x:-1");
    tm_add_input_desc(a, pc, tm_desc(a, F32, d14, 2));
    tm_add_output_desc(a, pc, tm_desc(a, F32, d14, 2));
    tm_subgraph(a, pc, "sub");
    pc->id = 3;

    Ge__Proto__OpDef *out = tm_op(a, g, "out", "NetOutput");
    tm_input(a, out, "pc:0");
    tm_add_input_desc(a, out, tm_desc(a, F32, d14, 2));
    out->id = 4;

    Ge__Proto__OpDef *sx = tm_op(a, sub, "sx", "Data");
    tm_input(a, sx, "");
    tm_attr_i(a, &sx->attr, &sx->n_attr, "index", 0);
    tm_attr_i(a, &sx->attr, &sx->n_attr, "_parent_node_index", 0);
    tm_add_input_desc(a, sx, tm_desc(a, F32, d14, 2));
    tm_add_output_desc(a, sx, tm_desc(a, F32, d14, 2));
    Ge__Proto__OpDef *so = tm_op(a, sub, "sout", "NetOutput");
    tm_input(a, so, "sx:0");
    tm_add_input_desc(a, so, tm_desc(a, F32, d14, 2));

    uint8_t *wb = oa_om_arena_alloc(a, 1024);
    if (wb != NULL) {
        const float vals[4] = {1.0f, 2.0f, 3.0f, 4.0f};
        memcpy(wb + 512, vals, sizeof(vals));
    }
    *weights = wb;
    *weights_size = 1024;
    return m;
}

int tm_build_model_def(int compressed, uint8_t **buf, size_t *len)
{
    oa_om_arena *a = NULL;
    if (oa_om_arena_create(&a) != OA_OK) {
        return -1;
    }
    const uint8_t *w;
    size_t wl;
    Ge__Proto__ModelDef *m = tm_reference_model(a, &w, &wl);
    int rc = 0;
    if (compressed && oa_om_compress(m, a) != OA_OK) {
        rc = -1;
    }
    if (rc == 0 && oa_om_pb_encode(&m->base, buf, len) != OA_OK) {
        rc = -1;
    }
    oa_om_arena_destroy(a);
    return rc;
}

int tm_encode_task(uint64_t memory_size, uint8_t **buf, size_t *len)
{
    Domi__ModelTaskDef t;
    domi__model_task_def__init(&t);
    t.version = (char *)"openacl-test";
    t.memory_size = memory_size;
    t.weight_size = 1024;
    return oa_om_pb_encode(&t.base, buf, len) == OA_OK ? 0 : -1;
}

int tm_encode_inout(uint8_t **buf, size_t *len)
{
    static const int64_t dims[] = {1, 4};
    oa_om_io_tensor in = {16, 2, 0, "x", 1, dims, 2, dims, 2, NULL, 0};
    oa_om_io_tensor out = {16, 2, 0, "out:0", 5, dims, 2, dims, 2, NULL, 0};
    oa_om_inout io = {0};
    io.n_inputs = 1;
    io.inputs = &in;
    io.n_outputs = 1;
    io.outputs = &out;
    return oa_om_inout_serialize(&io, buf, len) == OA_OK ? 0 : -1;
}

int tm_build_image(tm_variant v, uint8_t **img, size_t *len)
{
    *img = NULL;
    *len = 0;
    oa_om_arena *a = NULL;
    if (oa_om_arena_create(&a) != OA_OK) {
        return -1;
    }
    const uint8_t *w;
    size_t wl;
    Ge__Proto__ModelDef *m = tm_reference_model(a, &w, &wl);
    uint8_t *def = NULL, *task = NULL, *io = NULL, *subdef = NULL, *subtask = NULL;
    size_t def_len = 0, task_len = 0, io_len = 0, subdef_len = 0, subtask_len = 0;
    int rc = 0;
    if (v == TM_COMPRESSED && oa_om_compress(m, a) != OA_OK) {
        rc = -1;
    }
    if (v == TM_DEF_ONLY) {
        /* No WEIGHTS_DATA: the Const carries its bytes inline. */
        Ge__Proto__TensorDef *t = (Ge__Proto__TensorDef *)oa_om_attr_get(m->graph[0]->op[1]->attr,
                                                                          m->graph[0]->op[1]->n_attr, "value")
                                      ->t;
        t->data.data = (uint8_t *)(uintptr_t)(w + 512);
        t->data.len = 16;
    }
    if (rc == 0 && oa_om_pb_encode(&m->base, &def, &def_len) != OA_OK) {
        rc = -1;
    }
    if (rc == 0 && tm_encode_task(v == TM_DYNAMIC ? 0 : 4096, &task, &task_len) != 0) {
        rc = -1;
    }
    if (rc == 0 && tm_encode_inout(&io, &io_len) != 0) {
        rc = -1;
    }
    oa_om_header h;
    oa_om_header_init(&h);
    memcpy(h.name, "tm", 3);
    oa_om_part_src p0[4];
    oa_om_part_src p1[3];
    oa_om_table_src t[2];
    uint32_t ntables = 1;
    if (rc == 0) {
        switch (v) {
        case TM_STATIC:
        case TM_COMPRESSED:
            p0[0] = (oa_om_part_src){OA_OM_PART_MODEL_INOUT_INFO, io, io_len};
            p0[1] = (oa_om_part_src){OA_OM_PART_MODEL_DEF, def, def_len};
            p0[2] = (oa_om_part_src){OA_OM_PART_WEIGHTS_DATA, w, wl};
            p0[3] = (oa_om_part_src){OA_OM_PART_TASK_INFO, task, task_len};
            t[0] = (oa_om_table_src){p0, 4};
            break;
        case TM_DEF_ONLY:
            p0[0] = (oa_om_part_src){OA_OM_PART_MODEL_DEF, def, def_len};
            t[0] = (oa_om_table_src){p0, 1};
            break;
        default: {
            /* Sub-model: the "sub" graph compiled on its own. */
            Ge__Proto__ModelDef *sm = tm_model(a, "sub");
            sm->graph = &m->graph[1];
            sm->n_graph = 1;
            tm_attr_i(a, &sm->attr, &sm->n_attr, "memory_size", 64);
            if (oa_om_pb_encode(&sm->base, &subdef, &subdef_len) != OA_OK ||
                tm_encode_task(64, &subtask, &subtask_len) != 0) {
                rc = -1;
                break;
            }
            p0[0] = (oa_om_part_src){OA_OM_PART_MODEL_DEF, def, def_len};
            p0[1] = (oa_om_part_src){OA_OM_PART_WEIGHTS_DATA, w, wl};
            p0[2] = (oa_om_part_src){OA_OM_PART_TASK_INFO, task, task_len};
            p1[0] = (oa_om_part_src){OA_OM_PART_MODEL_DEF, subdef, subdef_len};
            p1[1] = (oa_om_part_src){OA_OM_PART_WEIGHTS_DATA, w, 64};
            p1[2] = (oa_om_part_src){OA_OM_PART_TASK_INFO, subtask, subtask_len};
            t[0] = (oa_om_table_src){p0, 3};
            t[1] = (oa_om_table_src){p1, 3};
            ntables = 2;
            h.model_num = 2;
            h.is_unknow_model = 1;
            break;
        }
        }
    }
    if (rc == 0 && oa_om_container_write_memory(&h, t, ntables, img, len) != OA_OK) {
        rc = -1;
    }
    free(def);
    free(task);
    free(io);
    free(subdef);
    free(subtask);
    oa_om_arena_destroy(a);
    return rc;
}

int tm_image_static(const void *def, size_t def_len, const void *weights, size_t weights_len, const void *task,
                    size_t task_len, const void *io, size_t io_len, uint8_t **img, size_t *len)
{
    oa_om_header h;
    oa_om_header_init(&h);
    memcpy(h.name, "tm", 3);
    oa_om_part_src p[4];
    uint32_t n = 0;
    if (io_len != 0) {
        p[n++] = (oa_om_part_src){OA_OM_PART_MODEL_INOUT_INFO, io, io_len};
    }
    if (def_len != 0) {
        p[n++] = (oa_om_part_src){OA_OM_PART_MODEL_DEF, def, def_len};
    }
    if (weights_len != 0) {
        p[n++] = (oa_om_part_src){OA_OM_PART_WEIGHTS_DATA, weights, weights_len};
    }
    if (task_len != 0) {
        p[n++] = (oa_om_part_src){OA_OM_PART_TASK_INFO, task, task_len};
    }
    oa_om_table_src t = {p, n};
    return oa_om_container_write_memory(&h, &t, 1, img, len) == OA_OK ? 0 : -1;
}

int tm_image_from_model(Ge__Proto__ModelDef *m, const uint8_t *weights, size_t weights_len, uint8_t **img,
                        size_t *len)
{
    uint8_t *def = NULL, *task = NULL, *io = NULL;
    size_t def_len = 0, task_len = 0, io_len = 0;
    int rc = -1;
    if (oa_om_pb_encode(&m->base, &def, &def_len) == OA_OK && tm_encode_task(4096, &task, &task_len) == 0 &&
        tm_encode_inout(&io, &io_len) == 0) {
        rc = tm_image_static(def, def_len, weights, weights_len, task, task_len, io, io_len, img, len);
    }
    free(def);
    free(task);
    free(io);
    return rc;
}

int tm_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        return -1;
    }
    int rc = fwrite(data, 1, len, f) == len ? 0 : -1;
    if (fclose(f) != 0) {
        rc = -1;
    }
    return rc;
}

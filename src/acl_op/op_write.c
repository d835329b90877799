/*
 * Writing single-op models (op_load.h, oa_opmodel_write): the .om that
 * `atc --singleop` produces and aclopSetModelDir / aclopLoad read.
 *
 * The model is the one-node graph of the operator (Data / Const inputs,
 * the op, NetOutput) written by the IR writer (om_ir.h), whose root
 * ModelDef then receives the attributes CANN's single-op parser requires
 * (op_parse.c): ATTR_MODEL_OP_TYPE, ATTR_MODEL_TENSOR_INPUTS,
 * ATTR_MODEL_TENSOR_OUTPUTS (TensorDefs whose descriptors are the graph's
 * input and output descriptors; constant inputs carry is_const and value;
 * an absent optional input has dtype DT_UNDEFINED and format RESERVED) and
 * one ATTR_MODEL_<name> per operator attribute.
 *
 * This file calls no function of the ACL layer (only the IR, the .om
 * layer, op_attr.c and op_graph.c), so tools such as atc can link it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl_op/op_exec.h"
#include "acl_op/op_load.h"
#include "base/error.h"
#include "base/util.h"
#include "om/om_arena.h"
#include "om/om_format.h"
#include "om_ir/om_ir.h"
#include "om/om_pb.h"

typedef struct wctx {
    oa_om_arena *a;
    Ge__Proto__ModelDef *def;
    size_t n_attr, cap_attr;
    Ge__Proto__AttrMapEntry **attr;
} wctx;

static void *aalloc(wctx *c, size_t n)
{
    return oa_om_arena_alloc(c->a, n ? n : 1);
}

static oa_status add_attr(wctx *c, const char *key, Ge__Proto__AttrDef *v)
{
    if (c->n_attr == c->cap_attr) {
        const size_t cap = c->cap_attr * 2 + 16;
        Ge__Proto__AttrMapEntry **n = aalloc(c, cap * sizeof(*n));
        if (n == NULL) {
            return OA_FAIL(OA_E_NOMEM, "model attributes");
        }
        if (c->n_attr > 0) {
            memcpy(n, c->attr, c->n_attr * sizeof(*n));
        }
        c->attr = n;
        c->cap_attr = cap;
    }
    Ge__Proto__AttrMapEntry *e = aalloc(c, sizeof(*e));
    char *k = oa_om_arena_strndup(c->a, key, strlen(key));
    if (e == NULL || k == NULL) {
        return OA_FAIL(OA_E_NOMEM, "model attributes");
    }
    ge__proto__attr_map_entry__init(e);
    e->key.data = (uint8_t *)k;
    e->key.len = strlen(key);
    e->value = v;
    c->attr[c->n_attr++] = e;
    return OA_OK;
}

static Ge__Proto__AttrDef *new_attr(wctx *c)
{
    Ge__Proto__AttrDef *v = aalloc(c, sizeof(*v));
    if (v != NULL) {
        ge__proto__attr_def__init(v);
    }
    return v;
}

static Ge__Proto__AttrDef *new_list(wctx *c, int vt)
{
    Ge__Proto__AttrDef *v = new_attr(c);
    Ge__Proto__AttrDef__ListValue *l = aalloc(c, sizeof(*l));
    if (v == NULL || l == NULL) {
        return NULL;
    }
    ge__proto__attr_def__list_value__init(l);
    l->val_type = (Ge__Proto__AttrDef__ListValue__ListValueType)vt;
    v->value_case = GE__PROTO__ATTR_DEF__VALUE_LIST;
    v->list = l;
    return v;
}

static oa_status attr_def_of(wctx *c, const oa_opattr_item *it, Ge__Proto__AttrDef **out)
{
    Ge__Proto__AttrDef *v = NULL;
    switch (it->kind) {
    case OA_OPATTR_BOOL:
        if ((v = new_attr(c)) != NULL) {
            v->value_case = GE__PROTO__ATTR_DEF__VALUE_B;
            v->b = it->u.b;
        }
        break;
    case OA_OPATTR_INT:
        if ((v = new_attr(c)) != NULL) {
            v->value_case = GE__PROTO__ATTR_DEF__VALUE_I;
            v->i = it->u.i;
        }
        break;
    case OA_OPATTR_FLOAT:
        if ((v = new_attr(c)) != NULL) {
            v->value_case = GE__PROTO__ATTR_DEF__VALUE_F;
            v->f = it->u.f;
        }
        break;
    case OA_OPATTR_STRING:
        if ((v = new_attr(c)) != NULL) {
            v->value_case = GE__PROTO__ATTR_DEF__VALUE_S;
            v->s.len = strlen(it->u.s);
            v->s.data = (uint8_t *)oa_om_arena_strndup(c->a, it->u.s, v->s.len);
        }
        break;
    case OA_OPATTR_DTYPE:
        if ((v = new_attr(c)) != NULL) {
            v->value_case = GE__PROTO__ATTR_DEF__VALUE_DT;
            v->dt = it->u.dt;
        }
        break;
    case OA_OPATTR_LIST_INT:
        if ((v = new_list(c, GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_INT)) != NULL) {
            v->list->n_i = it->u.list.n;
            v->list->i = aalloc(c, it->u.list.n * sizeof(int64_t));
            if (v->list->i != NULL && it->u.list.n > 0) {
                memcpy(v->list->i, it->u.list.v, it->u.list.n * sizeof(int64_t));
            }
        }
        break;
    case OA_OPATTR_LIST_FLOAT:
        if ((v = new_list(c, GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_FLOAT)) != NULL) {
            v->list->n_f = it->u.list.n;
            v->list->f = aalloc(c, it->u.list.n * sizeof(float));
            if (v->list->f != NULL && it->u.list.n > 0) {
                memcpy(v->list->f, it->u.list.v, it->u.list.n * sizeof(float));
            }
        }
        break;
    case OA_OPATTR_LIST_BOOL:
        if ((v = new_list(c, GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_BOOL)) != NULL) {
            v->list->n_b = it->u.list.n;
            v->list->b = aalloc(c, it->u.list.n * sizeof(protobuf_c_boolean));
            for (size_t i = 0; v->list->b != NULL && i < it->u.list.n; ++i) {
                v->list->b[i] = ((const bool *)it->u.list.v)[i];
            }
        }
        break;
    case OA_OPATTR_LIST_DTYPE:
        if ((v = new_list(c, GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_DATA_TYPE)) != NULL) {
            v->list->n_dt = it->u.list.n;
            v->list->dt = aalloc(c, it->u.list.n * sizeof(int64_t));
            for (size_t i = 0; v->list->dt != NULL && i < it->u.list.n; ++i) {
                v->list->dt[i] = ((const int32_t *)it->u.list.v)[i];
            }
        }
        break;
    case OA_OPATTR_LIST_STRING:
        if ((v = new_list(c, GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_STRING)) != NULL) {
            v->list->n_s = it->u.list.n;
            v->list->s = aalloc(c, it->u.list.n * sizeof(ProtobufCBinaryData));
            for (size_t i = 0; v->list->s != NULL && i < it->u.list.n; ++i) {
                const char *s = ((char *const *)it->u.list.v)[i];
                v->list->s[i].len = strlen(s);
                v->list->s[i].data = (uint8_t *)oa_om_arena_strndup(c->a, s, strlen(s));
            }
        }
        break;
    case OA_OPATTR_LIST_LIST_INT: {
        Ge__Proto__AttrDef__ListListInt *ll = aalloc(c, sizeof(*ll));
        if (ll == NULL || (v = new_attr(c)) == NULL) {
            v = NULL;
            break;
        }
        ge__proto__attr_def__list_list_int__init(ll);
        ll->n_list_list_i = it->u.lli.n;
        ll->list_list_i = aalloc(c, it->u.lli.n * sizeof(*ll->list_list_i));
        for (size_t i = 0; ll->list_list_i != NULL && i < it->u.lli.n; ++i) {
            Ge__Proto__AttrDef__ListListInt__ListInt *li = aalloc(c, sizeof(*li));
            if (li == NULL) {
                return OA_FAIL(OA_E_NOMEM, "model attributes");
            }
            ge__proto__attr_def__list_list_int__list_int__init(li);
            li->n_list_i = it->u.lli.lens[i];
            li->list_i = aalloc(c, it->u.lli.lens[i] * sizeof(int64_t));
            if (li->list_i != NULL && it->u.lli.lens[i] > 0) {
                memcpy(li->list_i, it->u.lli.v[i], it->u.lli.lens[i] * sizeof(int64_t));
            }
            ll->list_list_i[i] = li;
        }
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_LIST_LIST_INT;
        v->list_list_int = ll;
        break;
    }
    case OA_OPATTR_OTHER:
        return OA_FAIL(OA_E_PARAM, "attribute [%s] cannot be written", it->name);
    }
    if (v == NULL) {
        return OA_FAIL(OA_E_NOMEM, "model attributes");
    }
    *out = v;
    return OA_OK;
}

static const Ge__Proto__OpDef *find_op(const Ge__Proto__GraphDef *g, const char *name)
{
    for (size_t i = 0; i < g->n_op; ++i) {
        if (g->op[i] != NULL && g->op[i]->name != NULL && strcmp(g->op[i]->name, name) == 0) {
            return g->op[i];
        }
    }
    return NULL;
}

/* A shallow copy of td with room for `extra` more attrs. */
static Ge__Proto__TensorDescriptor *copy_desc(wctx *c, const Ge__Proto__TensorDescriptor *td, size_t extra)
{
    Ge__Proto__TensorDescriptor *d = aalloc(c, sizeof(*d));
    if (d == NULL) {
        return NULL;
    }
    *d = *td;
    d->attr = aalloc(c, (td->n_attr + extra) * sizeof(*d->attr));
    if (d->attr == NULL) {
        return NULL;
    }
    if (td->n_attr > 0) {
        memcpy(d->attr, td->attr, td->n_attr * sizeof(*d->attr));
    }
    return d;
}

static oa_status desc_attr(wctx *c, Ge__Proto__TensorDescriptor *d, const char *key, Ge__Proto__AttrDef *v)
{
    Ge__Proto__AttrMapEntry *e = aalloc(c, sizeof(*e));
    char *k = oa_om_arena_strndup(c->a, key, strlen(key));
    if (e == NULL || k == NULL || v == NULL) {
        return OA_FAIL(OA_E_NOMEM, "tensor attributes");
    }
    ge__proto__attr_map_entry__init(e);
    e->key.data = (uint8_t *)k;
    e->key.len = strlen(key);
    e->value = v;
    d->attr[d->n_attr++] = e;
    return OA_OK;
}

static Ge__Proto__TensorDef *tensor_def(wctx *c, Ge__Proto__TensorDescriptor *d)
{
    Ge__Proto__TensorDef *t = aalloc(c, sizeof(*t));
    if (t != NULL) {
        ge__proto__tensor_def__init(t);
        t->desc = d;
    }
    return t;
}

static oa_status input_list(wctx *c, const oa_opspec *spec, const Ge__Proto__GraphDef *g,
                            Ge__Proto__AttrDef__ListValue *l)
{
    l->n_t = (size_t)spec->n_in;
    l->t = aalloc(c, l->n_t * sizeof(*l->t));
    if (l->t == NULL) {
        return OA_FAIL(OA_E_NOMEM, "model attributes");
    }
    int data_idx = 0;
    for (int i = 0; i < spec->n_in; ++i) {
        const oa_opspec_tensor *t = &spec->in[i];
        Ge__Proto__TensorDescriptor *d = NULL;
        if (t->absent) {
            d = aalloc(c, sizeof(*d));
            Ge__Proto__ShapeDef *sh = aalloc(c, sizeof(*sh));
            if (d == NULL || sh == NULL) {
                return OA_FAIL(OA_E_NOMEM, "model attributes");
            }
            ge__proto__tensor_descriptor__init(d);
            ge__proto__shape_def__init(sh);
            d->shape = sh;
            d->dtype = GE__PROTO__DATA_TYPE__DT_UNDEFINED;
            d->layout = oa_om_arena_strndup(c->a, "RESERVED", 8);
            d->device_type = oa_om_arena_strndup(c->a, "NPU", 3);
        } else {
            char name[48];
            if (t->is_const) {
                snprintf(name, sizeof name, "const%d", i);
            } else {
                snprintf(name, sizeof name, "input%d", data_idx++);
            }
            const Ge__Proto__OpDef *op = find_op(g, name);
            if (op == NULL || op->n_output_desc < 1 || op->output_desc[0] == NULL) {
                return OA_FAIL(OA_E_INTERNAL, "single-op graph misses node %s", name);
            }
            d = copy_desc(c, op->output_desc[0], 2);
            if (d == NULL) {
                return OA_FAIL(OA_E_NOMEM, "model attributes");
            }
            if (t->is_const) {
                Ge__Proto__AttrDef *b = new_attr(c);
                if (b != NULL) {
                    b->value_case = GE__PROTO__ATTR_DEF__VALUE_B;
                    b->b = 1;
                }
                oa_status st = desc_attr(c, d, "is_const", b);
                if (st != OA_OK) {
                    return st;
                }
                Ge__Proto__TensorDescriptor *vd = copy_desc(c, op->output_desc[0], 0);
                Ge__Proto__TensorDef *vt = vd != NULL ? tensor_def(c, vd) : NULL;
                Ge__Proto__AttrDef *v = new_attr(c);
                if (vt == NULL || v == NULL) {
                    return OA_FAIL(OA_E_NOMEM, "model attributes");
                }
                vt->data.len = t->const_len;
                vt->data.data = aalloc(c, t->const_len);
                if (vt->data.data == NULL) {
                    return OA_FAIL(OA_E_NOMEM, "constant of input %d", i);
                }
                if (t->const_len > 0) {
                    memcpy(vt->data.data, t->const_data, t->const_len);
                }
                v->value_case = GE__PROTO__ATTR_DEF__VALUE_T;
                v->t = vt;
                st = desc_attr(c, d, "value", v);
                if (st != OA_OK) {
                    return st;
                }
            }
        }
        if ((l->t[i] = tensor_def(c, d)) == NULL) {
            return OA_FAIL(OA_E_NOMEM, "model attributes");
        }
    }
    return OA_OK;
}

static oa_status output_list(wctx *c, const oa_opspec *spec, const Ge__Proto__GraphDef *g,
                             Ge__Proto__AttrDef__ListValue *l)
{
    const Ge__Proto__OpDef *no = find_op(g, "Node_Output");
    if (no == NULL || no->n_input_desc < (size_t)spec->n_out) {
        return OA_FAIL(OA_E_INTERNAL, "single-op graph misses its NetOutput");
    }
    l->n_t = (size_t)spec->n_out;
    l->t = aalloc(c, l->n_t * sizeof(*l->t));
    if (l->t == NULL) {
        return OA_FAIL(OA_E_NOMEM, "model attributes");
    }
    for (int k = 0; k < spec->n_out; ++k) {
        Ge__Proto__TensorDescriptor *d = copy_desc(c, no->input_desc[k], 0);
        if (d == NULL || (l->t[k] = tensor_def(c, d)) == NULL) {
            return OA_FAIL(OA_E_NOMEM, "model attributes");
        }
    }
    return OA_OK;
}

static oa_status add_single_op_attrs(wctx *c, const oa_opspec *spec)
{
    const Ge__Proto__GraphDef *g = c->def->n_graph > 0 ? c->def->graph[0] : NULL;
    if (g == NULL) {
        return OA_FAIL(OA_E_INTERNAL, "single-op model has no graph");
    }
    c->n_attr = c->def->n_attr;
    c->attr = c->def->attr;
    c->cap_attr = c->n_attr; /* grown on the first add */
    Ge__Proto__AttrDef *t = new_attr(c);
    if (t == NULL) {
        return OA_FAIL(OA_E_NOMEM, "model attributes");
    }
    t->value_case = GE__PROTO__ATTR_DEF__VALUE_S;
    t->s.len = strlen(spec->type);
    t->s.data = (uint8_t *)oa_om_arena_strndup(c->a, spec->type, t->s.len);
    oa_status st = add_attr(c, "ATTR_MODEL_OP_TYPE", t);
    Ge__Proto__AttrDef *ins = new_list(c, GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_TENSOR);
    Ge__Proto__AttrDef *outs = new_list(c, GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_TENSOR);
    if (ins == NULL || outs == NULL) {
        return OA_FAIL(OA_E_NOMEM, "model attributes");
    }
    if (st == OA_OK) {
        st = input_list(c, spec, g, ins->list);
    }
    if (st == OA_OK) {
        st = output_list(c, spec, g, outs->list);
    }
    if (st == OA_OK) {
        st = add_attr(c, "ATTR_MODEL_TENSOR_INPUTS", ins);
    }
    if (st == OA_OK) {
        st = add_attr(c, "ATTR_MODEL_TENSOR_OUTPUTS", outs);
    }
    for (size_t i = 0; spec->attr != NULL && i < spec->attr->n && st == OA_OK; ++i) {
        const oa_opattr_item *it = &spec->attr->items[i];
        Ge__Proto__AttrDef *v = NULL;
        st = attr_def_of(c, it, &v);
        if (st == OA_OK) {
            char key[600];
            snprintf(key, sizeof key, "ATTR_MODEL_%s", it->name);
            st = add_attr(c, key, v);
        }
    }
    c->def->attr = c->attr;
    c->def->n_attr = c->n_attr;
    return st;
}

oa_status oa_opmodel_write(const oa_opspec *spec, const char *soc_version, const char *atc_cmdline,
                           const char *path, uint8_t **mem, size_t *mem_len)
{
    oa_graph *g = NULL;
    oa_node *n = NULL;
    oa_status st = oa_opgraph_build(spec, true, &g, &n);
    if (st != OA_OK) {
        return st;
    }
    bool dynamic = false;
    for (int i = 0; i < spec->n_in && !dynamic; ++i) {
        for (size_t k = 0; k < spec->in[i].ndims; ++k) {
            dynamic = dynamic || spec->in[i].dims[k] < 0;
        }
    }
    oa_om_write_opts o;
    oa_om_write_opts_init(&o);
    o.soc_version = soc_version;
    o.atc_cmdline = atc_cmdline;
    o.unknown_shape = dynamic;
    uint8_t *img = NULL;
    size_t len = 0;
    st = oa_om_write_graph_memory(g, &o, &img, &len);
    oa_graph_destroy(g);
    if (st != OA_OK) {
        return st;
    }
    oa_om_container cont;
    memset(&cont, 0, sizeof(cont));
    wctx c = {0};
    uint8_t *def_bytes = NULL;
    size_t def_len = 0;
    st = oa_om_container_parse(img, len, &cont);
    const oa_om_partition *mp = NULL;
    if (st == OA_OK) {
        mp = cont.num_tables > 0 ? oa_om_table_find(&cont.tables[0], OA_OM_PART_MODEL_DEF) : NULL;
        if (mp == NULL) {
            st = OA_FAIL(OA_E_INTERNAL, "written model has no MODEL_DEF");
        }
    }
    if (st == OA_OK) {
        st = oa_om_arena_create(&c.a);
    }
    if (st == OA_OK) {
        ProtobufCMessage *msg = NULL;
        st = oa_om_pb_decode(&ge__proto__model_def__descriptor, mp->data, (size_t)mp->size, c.a,
                             OA_E_INTERNAL, "single-op ModelDef", &msg);
        c.def = (Ge__Proto__ModelDef *)msg;
    }
    if (st == OA_OK) {
        st = add_single_op_attrs(&c, spec);
    }
    if (st == OA_OK) {
        c.def->base.n_unknown_fields = 0; /* the writer's padding, recomputed below */
        st = oa_om_pb_encode(&c.def->base, &def_bytes, &def_len);
    }
    if (st == OA_OK) {
        /* WEIGHTS_DATA after MODEL_DEF stays 64-byte aligned in the file (om README) */
        const oa_om_table *t0 = &cont.tables[0];
        uint64_t at = OA_OM_HEADER_SIZE + OA_OM_TABLE_HEAD_SIZE + (uint64_t)t0->num * OA_OM_TABLE_ENTRY_SIZE;
        for (uint32_t i = 0; i + 1 < t0->num && st == OA_OK; ++i) {
            if (t0->parts[i].type == OA_OM_PART_MODEL_DEF && t0->parts[i + 1].type == OA_OM_PART_WEIGHTS_DATA) {
                st = oa_om_model_def_pad(&def_bytes, &def_len, at);
            }
            at += t0->parts[i].size;
        }
    }
    if (st == OA_OK) {
        const oa_om_table *t0 = &cont.tables[0];
        oa_om_part_src *parts = calloc(t0->num, sizeof(*parts));
        if (parts == NULL) {
            st = OA_FAIL(OA_E_NOMEM, "model partitions");
        } else {
            for (uint32_t i = 0; i < t0->num; ++i) {
                parts[i].type = t0->parts[i].type;
                parts[i].data = t0->parts[i].type == OA_OM_PART_MODEL_DEF ? def_bytes : t0->parts[i].data;
                parts[i].size = t0->parts[i].type == OA_OM_PART_MODEL_DEF ? def_len : t0->parts[i].size;
            }
            const oa_om_table_src ts = {.parts = parts, .num = t0->num};
            if (path != NULL) {
                st = oa_om_container_write_file(path, &cont.header, &ts, 1);
            } else {
                st = oa_om_container_write_memory(&cont.header, &ts, 1, mem, mem_len);
            }
            free(parts);
        }
    }
    free(def_bytes);
    oa_om_arena_destroy(c.a);
    oa_om_container_deinit(&cont);
    free(img);
    return st;
}

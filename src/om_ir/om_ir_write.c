/*
 * om_ir_write: graph IR -> ModelDef, WEIGHTS_DATA, MODEL_INOUT_INFO,
 * TASK_INFO and the container (om_ir.h, "Writer"). Protobuf structs are
 * built in a scratch arena and point at the graph's own strings and tensor
 * bytes; nothing of the graph is modified.
 */
#define OA_LOG_MODULE "GE"
#include "om_ir/om_ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/hash.h"
#include "base/util.h"
#include "om/om_check.h"
#include "om/om_compress.h"
#include "om/om_inout.h"
#include "om_ir/om_ir_internal.h"

#define PB_VT(x) GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__##x

typedef struct wctx {
    const oa_graph *root;
    const oa_om_write_opts *o;
    oa_om_arena *a;
    bool oom;
    int64_t next_op_id;
    /* Const placement, indexed by node id (-1: not placed) */
    int64_t *const_off;
    uint32_t n_ids;
    uint8_t *weights;
    size_t weights_size;
} wctx;

static void *alloc(wctx *c, size_t n)
{
    void *p = oa_om_arena_alloc(c->a, n);
    if (p == NULL) {
        c->oom = true;
    }
    return p;
}

/* protobuf-c wants char*; the encoder only reads. */
static char *s_(const char *s)
{
    return (char *)(uintptr_t)(s != NULL ? s : "");
}

static char *sdup(wctx *c, const char *s)
{
    char *d = oa_om_arena_strndup(c->a, s, strlen(s));
    if (d == NULL) {
        c->oom = true;
    }
    return d;
}

/* Appends p to a growable pointer array (arena; capacity doubles). */
typedef struct parr {
    void **v;
    size_t n;
    size_t cap;
} parr;

static void parr_push(wctx *c, parr *a, void *p)
{
    if (a->n == a->cap) {
        size_t nc = a->cap ? a->cap * 2 : 8;
        void **nv = alloc(c, nc * sizeof(void *));
        if (nv == NULL) {
            return;
        }
        if (a->n != 0) {
            memcpy(nv, a->v, a->n * sizeof(void *));
        }
        a->v = nv;
        a->cap = nc;
    }
    a->v[a->n++] = p;
}

/* ---- attribute values ------------------------------------------------------- */

static Ge__Proto__AttrDef *new_attr(wctx *c)
{
    Ge__Proto__AttrDef *v = alloc(c, sizeof(*v));
    if (v != NULL) {
        ge__proto__attr_def__init(v);
    }
    return v;
}

static Ge__Proto__AttrDef__ListValue *new_list(wctx *c, Ge__Proto__AttrDef *v, int val_type)
{
    Ge__Proto__AttrDef__ListValue *l = alloc(c, sizeof(*l));
    if (l != NULL && v != NULL) {
        ge__proto__attr_def__list_value__init(l);
        l->val_type = val_type;
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_LIST;
        v->list = l;
    }
    return l;
}

static Ge__Proto__AttrMapEntry *entry(wctx *c, const char *key, Ge__Proto__AttrDef *v)
{
    Ge__Proto__AttrMapEntry *e = alloc(c, sizeof(*e));
    if (e != NULL) {
        ge__proto__attr_map_entry__init(e);
        e->key.data = (uint8_t *)s_(key);
        e->key.len = strlen(key);
        e->value = v;
    }
    return e;
}

static Ge__Proto__TensorDescriptor *desc_to_pb(wctx *c, const oa_tensor_desc *d, int64_t size);

static Ge__Proto__AttrDef__ListListInt *list_list_int(wctx *c, const int64_t *const *v, const size_t *lens, size_t n)
{
    Ge__Proto__AttrDef__ListListInt *ll = alloc(c, sizeof(*ll));
    Ge__Proto__AttrDef__ListListInt__ListInt **items = n ? alloc(c, n * sizeof(*items)) : NULL;
    if (ll == NULL || (n != 0 && items == NULL)) {
        return NULL;
    }
    ge__proto__attr_def__list_list_int__init(ll);
    for (size_t i = 0; i < n; ++i) {
        items[i] = alloc(c, sizeof(**items));
        if (items[i] == NULL) {
            return NULL;
        }
        ge__proto__attr_def__list_list_int__list_int__init(items[i]);
        items[i]->list_i = (int64_t *)(uintptr_t)v[i];
        items[i]->n_list_i = lens[i];
    }
    ll->list_list_i = items;
    ll->n_list_list_i = n;
    return ll;
}

static Ge__Proto__TensorDef *tensor_to_pb(wctx *c, const oa_tensor *t, bool with_data)
{
    Ge__Proto__TensorDef *td = alloc(c, sizeof(*td));
    if (td == NULL) {
        return NULL;
    }
    ge__proto__tensor_def__init(td);
    td->desc = desc_to_pb(c, &t->desc, 0);
    if (with_data && t->size != 0) {
        td->data.data = (uint8_t *)(uintptr_t)t->data;
        td->data.len = t->size;
    }
    return td;
}

static void attrs_to_pb(wctx *c, const oa_attrs *attrs, parr *out, bool op_level);

/* IR attr -> AttrDef. `bare` lists carry no val_type (the serializer's own). */
static Ge__Proto__AttrDef *attr_to_pb(wctx *c, const oa_attr *x, bool bare)
{
    Ge__Proto__AttrDef *v = new_attr(c);
    Ge__Proto__AttrDef__ListValue *l = NULL;
    if (v == NULL) {
        return NULL;
    }
    switch (x->type) {
    case OA_ATTR_INT:
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_I;
        v->i = x->u.i;
        break;
    case OA_ATTR_FLOAT:
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_F;
        v->f = x->u.f;
        break;
    case OA_ATTR_BOOL:
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_B;
        v->b = x->u.b;
        break;
    case OA_ATTR_STRING:
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_S;
        v->s.data = (uint8_t *)(uintptr_t)x->u.s.data;
        v->s.len = x->u.s.len;
        break;
    case OA_ATTR_BYTES:
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_BT;
        v->bt.data = (uint8_t *)(uintptr_t)x->u.s.data;
        v->bt.len = x->u.s.len;
        break;
    case OA_ATTR_DTYPE:
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_DT;
        v->dt = (int64_t)x->u.dt;
        break;
    case OA_ATTR_LIST_INT:
        l = new_list(c, v, bare ? PB_VT(VT_LIST_NONE) : PB_VT(VT_LIST_INT));
        if (l != NULL) {
            l->i = (int64_t *)(uintptr_t)x->u.li.v;
            l->n_i = x->u.li.n;
        }
        break;
    case OA_ATTR_LIST_FLOAT:
        l = new_list(c, v, PB_VT(VT_LIST_FLOAT));
        if (l != NULL) {
            l->f = (float *)(uintptr_t)x->u.lf.v;
            l->n_f = x->u.lf.n;
        }
        break;
    case OA_ATTR_LIST_BOOL:
        l = new_list(c, v, PB_VT(VT_LIST_BOOL));
        if (l != NULL && x->u.lb.n != 0) {
            protobuf_c_boolean *b = alloc(c, x->u.lb.n * sizeof(*b));
            for (size_t i = 0; b != NULL && i < x->u.lb.n; ++i) {
                b[i] = x->u.lb.v[i];
            }
            l->b = b;
            l->n_b = b != NULL ? x->u.lb.n : 0;
        }
        break;
    case OA_ATTR_LIST_STRING:
        l = new_list(c, v, bare ? PB_VT(VT_LIST_NONE) : PB_VT(VT_LIST_STRING));
        if (l != NULL && x->u.ls.n != 0) {
            ProtobufCBinaryData *s = alloc(c, x->u.ls.n * sizeof(*s));
            for (size_t i = 0; s != NULL && i < x->u.ls.n; ++i) {
                s[i].data = (uint8_t *)s_(x->u.ls.v[i]);
                s[i].len = strlen((const char *)s[i].data);
            }
            l->s = s;
            l->n_s = s != NULL ? x->u.ls.n : 0;
        }
        break;
    case OA_ATTR_LIST_DTYPE:
        l = new_list(c, v, PB_VT(VT_LIST_DATA_TYPE));
        if (l != NULL && x->u.ldt.n != 0) {
            int64_t *d = alloc(c, x->u.ldt.n * sizeof(*d));
            for (size_t i = 0; d != NULL && i < x->u.ldt.n; ++i) {
                d[i] = (int64_t)x->u.ldt.v[i];
            }
            l->dt = d;
            l->n_dt = d != NULL ? x->u.ldt.n : 0;
        }
        break;
    case OA_ATTR_LIST_LIST_INT:
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_LIST_LIST_INT;
        v->list_list_int = list_list_int(c, x->u.lli.v, x->u.lli.lens, x->u.lli.n);
        break;
    case OA_ATTR_LIST_LIST_FLOAT: {
        Ge__Proto__AttrDef__ListListFloat *ll = alloc(c, sizeof(*ll));
        size_t n = x->u.llf.n;
        Ge__Proto__AttrDef__ListListFloat__ListFloat **items = n ? alloc(c, n * sizeof(*items)) : NULL;
        if (ll == NULL || (n != 0 && items == NULL)) {
            return NULL;
        }
        ge__proto__attr_def__list_list_float__init(ll);
        for (size_t i = 0; i < n; ++i) {
            items[i] = alloc(c, sizeof(**items));
            if (items[i] == NULL) {
                return NULL;
            }
            ge__proto__attr_def__list_list_float__list_float__init(items[i]);
            items[i]->list_f = (float *)(uintptr_t)x->u.llf.v[i];
            items[i]->n_list_f = x->u.llf.lens[i];
        }
        ll->list_list_f = items;
        ll->n_list_list_f = n;
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_LIST_LIST_FLOAT;
        v->list_list_float = ll;
        break;
    }
    case OA_ATTR_TENSOR:
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_T;
        v->t = x->u.t != NULL ? tensor_to_pb(c, x->u.t, true) : NULL;
        break;
    case OA_ATTR_TENSOR_DESC:
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_TD;
        v->td = x->u.td != NULL ? desc_to_pb(c, x->u.td, 0) : NULL;
        break;
    case OA_ATTR_GRAPH: {
        /* A reference to a subgraph: a GraphDef holding only its name. */
        Ge__Proto__GraphDef *g = alloc(c, sizeof(*g));
        if (g == NULL) {
            return NULL;
        }
        ge__proto__graph_def__init(g);
        g->name = s_(x->u.graph);
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_G;
        v->g = g;
        break;
    }
    case OA_ATTR_NAMED: { /* GE NamedAttrs (AIPP's `aipp`) */
        Ge__Proto__NamedAttrs *na = alloc(c, sizeof(*na));
        parr pa = {0};
        if (na == NULL) {
            return NULL;
        }
        ge__proto__named_attrs__init(na);
        na->name = s_(x->u.na.name);
        attrs_to_pb(c, x->u.na.attrs, &pa, false);
        na->attr = (Ge__Proto__AttrMapEntry **)pa.v;
        na->n_attr = pa.n;
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_FUNC;
        v->func = na;
        break;
    }
    default:
        return NULL;
    }
    return v;
}

/* The attr list of `attrs` as map entries appended to *out. */
static void attrs_to_pb(wctx *c, const oa_attrs *attrs, parr *out, bool op_level)
{
    for (const oa_attr *x = attrs->head; x != NULL && !c->oom; x = x->next) {
        const bool bare = op_level && om_ir_is_injected_attr(x->name, strlen(x->name));
        Ge__Proto__AttrDef *v = attr_to_pb(c, x, bare);
        if (v == NULL) {
            c->oom = true;
            return;
        }
        parr_push(c, out, entry(c, x->name, v));
    }
}

static void push_i(wctx *c, parr *out, const char *key, int64_t i)
{
    Ge__Proto__AttrDef *v = new_attr(c);
    if (v != NULL) {
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_I;
        v->i = i;
        parr_push(c, out, entry(c, key, v));
    }
}

static void push_s(wctx *c, parr *out, const char *key, const char *s)
{
    Ge__Proto__AttrDef *v = new_attr(c);
    if (v != NULL) {
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_S;
        v->s.data = (uint8_t *)s_(s);
        v->s.len = strlen(s);
        parr_push(c, out, entry(c, key, v));
    }
}

static void push_b(wctx *c, parr *out, const char *key, bool b)
{
    Ge__Proto__AttrDef *v = new_attr(c);
    if (v != NULL) {
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_B;
        v->b = b;
        parr_push(c, out, entry(c, key, v));
    }
}

static void push_list_i(wctx *c, parr *out, const char *key, const int64_t *vals, size_t n, bool bare)
{
    Ge__Proto__AttrDef *v = new_attr(c);
    Ge__Proto__AttrDef__ListValue *l = new_list(c, v, bare ? PB_VT(VT_LIST_NONE) : PB_VT(VT_LIST_INT));
    if (l != NULL) {
        l->i = (int64_t *)(uintptr_t)vals;
        l->n_i = n;
        parr_push(c, out, entry(c, key, v));
    }
}

static void push_list_s(wctx *c, parr *out, const char *key, const char **vals, size_t n, bool bare)
{
    Ge__Proto__AttrDef *v = new_attr(c);
    Ge__Proto__AttrDef__ListValue *l = new_list(c, v, bare ? PB_VT(VT_LIST_NONE) : PB_VT(VT_LIST_STRING));
    ProtobufCBinaryData *s = n ? alloc(c, n * sizeof(*s)) : NULL;
    if (l == NULL || (n != 0 && s == NULL)) {
        return;
    }
    for (size_t i = 0; i < n; ++i) {
        s[i].data = (uint8_t *)s_(vals[i]);
        s[i].len = strlen(vals[i]);
    }
    l->s = s;
    l->n_s = n;
    parr_push(c, out, entry(c, key, v));
}

/* ---- tensor descriptors --------------------------------------------------------- */

static Ge__Proto__ShapeDef *shape_to_pb(wctx *c, const oa_shape *s)
{
    Ge__Proto__ShapeDef *sh = alloc(c, sizeof(*sh));
    if (sh == NULL) {
        return NULL;
    }
    ge__proto__shape_def__init(sh);
    if (s->rank == OA_RANK_UNKNOWN) {
        int64_t *d = alloc(c, sizeof(*d));
        if (d != NULL) {
            *d = OA_GE_UNKNOWN_RANK_DIM;
            sh->dim = d;
            sh->n_dim = 1;
        }
    } else if (s->rank > 0) {
        sh->dim = (int64_t *)(uintptr_t)s->dims;
        sh->n_dim = (size_t)s->rank;
    }
    return sh;
}

static Ge__Proto__TensorDescriptor *desc_to_pb(wctx *c, const oa_tensor_desc *d, int64_t size)
{
    Ge__Proto__TensorDescriptor *td = alloc(c, sizeof(*td));
    if (td == NULL) {
        return NULL;
    }
    ge__proto__tensor_descriptor__init(td);
    td->name = s_(d->name);
    td->dtype = (Ge__Proto__DataType)oa_dtype_to_proto(d->dtype);
    td->shape = shape_to_pb(c, &d->shape);
    td->layout = s_(oa_format_name(d->format));
    td->device_type = s_("NPU");
    td->size = size;
    parr attrs = {0};
    attrs_to_pb(c, &d->attrs, &attrs, false);
    push_s(c, &attrs, OM_DESC_ORIGIN_FORMAT, oa_format_name(d->origin_format));
    push_i(c, &attrs, OM_DESC_ORIGIN_FORMAT_FOR_INT, (int64_t)d->origin_format);
    push_i(c, &attrs, OM_DESC_FORMAT_FOR_INT, (int64_t)d->format);
    push_b(c, &attrs, OM_DESC_ORIGIN_SHAPE_INITIALIZED, d->origin_shape_set);
    if (d->origin_shape_set) {
        const Ge__Proto__ShapeDef *os = shape_to_pb(c, &d->origin_shape);
        if (os != NULL) {
            push_list_i(c, &attrs, OM_DESC_ORIGIN_SHAPE, os->dim, os->n_dim, false);
        }
    }
    if (d->has_range && d->shape.rank > 0) {
        const size_t r = (size_t)d->shape.rank;
        int64_t *pairs = alloc(c, 2 * r * sizeof(int64_t));
        const int64_t **rows = alloc(c, r * sizeof(*rows));
        size_t *lens = alloc(c, r * sizeof(*lens));
        if (pairs != NULL && rows != NULL && lens != NULL) {
            for (size_t i = 0; i < r; ++i) {
                pairs[2 * i] = d->range_min[i];
                pairs[2 * i + 1] = d->range_max[i];
                rows[i] = &pairs[2 * i];
                lens[i] = 2;
            }
            Ge__Proto__AttrDef *v = new_attr(c);
            if (v != NULL) {
                v->value_case = GE__PROTO__ATTR_DEF__VALUE_LIST_LIST_INT;
                v->list_list_int = list_list_int(c, rows, lens, r);
                parr_push(c, &attrs, entry(c, OM_DESC_SHAPE_RANGE, v));
            }
        }
    }
    td->attr = (Ge__Proto__AttrMapEntry **)attrs.v;
    td->n_attr = attrs.n;
    return td;
}

/* ---- weights ------------------------------------------------------------------------ */

typedef struct wslot {
    uint64_t hash;
    size_t size;
    int64_t off;
    const uint8_t *data;
} wslot;

typedef struct wtable {
    wslot *v;
    size_t cap; /* power of two */
    size_t n;
} wtable;

typedef struct wlayout {
    wtable t;
    int64_t off; /* next free offset */
    const oa_tensor **tensors; /* by node id, for the copy pass */
} wlayout;

static oa_status table_grow(wtable *t)
{
    size_t nc = t->cap ? t->cap * 2 : 256;
    wslot *nv = calloc(nc, sizeof(*nv));
    if (nv == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Serialize][Weights] dedup table of %zu slots", nc);
    }
    for (size_t i = 0; i < t->cap; ++i) {
        if (t->v[i].data != NULL || t->v[i].size != 0 || t->v[i].off != 0) {
            size_t j = t->v[i].hash & (nc - 1);
            while (nv[j].off != 0) {
                j = (j + 1) & (nc - 1);
            }
            nv[j] = t->v[i];
        }
    }
    free(t->v);
    t->v = nv;
    t->cap = nc;
    return OA_OK;
}

/* Offset of these bytes: an identical earlier weight's, or a new one. */
static oa_status place_weight(wlayout *w, const uint8_t *data, size_t size, int64_t *off)
{
    if (size == 0) {
        *off = w->off;
        return OA_OK;
    }
    if ((w->t.n + 1) * 2 > w->t.cap) {
        oa_status st = table_grow(&w->t);
        if (st != OA_OK) {
            return st;
        }
    }
    const uint64_t h = oa_fnv1a64_update(OA_FNV64_OFFSET ^ size, data, size);
    size_t j = h & (w->t.cap - 1);
    for (; w->t.v[j].off != 0; j = (j + 1) & (w->t.cap - 1)) {
        const wslot *s = &w->t.v[j];
        if (s->hash == h && s->size == size && memcmp(s->data, data, size) == 0) {
            *off = s->off;
            return OA_OK;
        }
    }
    if ((uint64_t)w->off > (uint64_t)INT64_MAX - size - OM_WEIGHT_ALIGN) {
        return OA_FAIL(OA_E_GE_PARAM, "[Serialize][Weights] weights exceed the int64 offset range");
    }
    w->t.v[j] = (wslot){h, size, w->off, data};
    w->t.n++;
    *off = w->off;
    w->off += (int64_t)size;
    w->off = (w->off + OM_WEIGHT_ALIGN - 1) / OM_WEIGHT_ALIGN * OM_WEIGHT_ALIGN;
    return OA_OK;
}

static bool is_const(const oa_node *n)
{
    return n->type == OA_OP_CONST;
}

static oa_status const_tensor(const oa_node *n, const oa_tensor **t)
{
    if (!oa_attrs_get_tensor(&n->attrs, "value", t) || *t == NULL) {
        return OA_FAIL(OA_E_GE_PARAM, "[Serialize][Weights] Const %s has no tensor attribute value", n->name);
    }
    return OA_OK;
}

/* GE's GetAllNodes order: a node, then its subgraphs' nodes, recursively. */
static oa_status layout_graph(wctx *c, wlayout *w, const oa_graph *g, unsigned depth)
{
    if (depth > 64) {
        return OA_FAIL(OA_E_GE_PARAM, "[Serialize][Weights] subgraphs nested deeper than 64");
    }
    oa_node **order = NULL;
    size_t n = 0;
    oa_status st = oa_graph_topo_order(g, &order, &n);
    for (size_t i = 0; i < n && st == OA_OK; ++i) {
        const oa_node *nd = order[i];
        if (is_const(nd)) {
            const oa_tensor *t = NULL;
            st = const_tensor(nd, &t);
            if (st == OA_OK) {
                st = place_weight(w, t->data, t->size, &c->const_off[nd->id]);
                w->tensors[nd->id] = t;
            }
        }
        for (uint32_t s = 0; s < nd->num_subgraphs && st == OA_OK; ++s) {
            st = layout_graph(c, w, nd->subgraphs[s].graph, depth + 1);
        }
    }
    free(order);
    return st;
}

static oa_status build_weights(wctx *c)
{
    wlayout w = {.off = OM_WEIGHT_START};
    w.tensors = calloc(c->n_ids ? c->n_ids : 1, sizeof(*w.tensors));
    if (w.tensors == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Serialize][Weights] %u nodes", c->n_ids);
    }
    oa_status st = layout_graph(c, &w, c->root, 0);
    if (st == OA_OK) {
        const uint64_t total = ((uint64_t)w.off + OM_WEIGHT_PADDING + OM_WEIGHT_ALIGN - 1) / OM_WEIGHT_ALIGN *
                               OM_WEIGHT_ALIGN;
        c->weights = total <= SIZE_MAX ? calloc(1, (size_t)total) : NULL;
        if (c->weights == NULL) {
            st = OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Serialize][Weights] %llu bytes of weights",
                         (unsigned long long)total);
        } else {
            c->weights_size = (size_t)total;
            for (uint32_t id = 0; id < c->n_ids; ++id) {
                const oa_tensor *t = w.tensors[id];
                if (t != NULL && t->size != 0) {
                    memcpy(c->weights + c->const_off[id], t->data, t->size);
                }
            }
        }
    }
    free(w.t.v);
    free(w.tensors);
    return st;
}

/* ---- ops ------------------------------------------------------------------------------ */

static void push_int64(wctx *c, int64_t **arr, size_t *n, size_t *cap, int64_t v)
{
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 4;
        int64_t *na = alloc(c, nc * sizeof(*na));
        if (na == NULL) {
            return;
        }
        if (*n != 0) {
            memcpy(na, *arr, *n * sizeof(*na));
        }
        *arr = na;
        *cap = nc;
    }
    (*arr)[(*n)++] = v;
}

/* "a:b:c" of the nodes in v[0..n). */
static char *join_names(wctx *c, oa_node *const *v, size_t n)
{
    size_t len = 0;
    for (size_t i = 0; i < n; ++i) {
        len += strlen(v[i]->name) + 1;
    }
    char *s = alloc(c, len + 1);
    if (s == NULL) {
        return NULL;
    }
    s[0] = '\0';
    size_t at = 0;
    for (size_t i = 0; i < n; ++i) {
        size_t l = strlen(v[i]->name);
        if (i != 0) {
            s[at++] = ':';
        }
        memcpy(s + at, v[i]->name, l);
        at += l;
        s[at] = '\0';
    }
    return s;
}

static char *ref(wctx *c, const char *node, int64_t idx)
{
    size_t l = strlen(node) + 24;
    char *s = alloc(c, l);
    if (s != NULL) {
        (void)snprintf(s, l, "%s:%lld", node, (long long)idx);
    }
    return s;
}

static oa_status io_name_attrs(wctx *c, const oa_node *n, parr *attrs)
{
    for (int out = 0; out < 2; ++out) {
        const char *key = out ? OM_ATTR_OUTPUT_NAME_KEY : OM_ATTR_INPUT_NAME_KEY;
        const char *val = out ? OM_ATTR_OUTPUT_NAME_VALUE : OM_ATTR_INPUT_NAME_VALUE;
        if (oa_attrs_find(&n->attrs, key) != NULL || oa_attrs_find(&n->attrs, val) != NULL) {
            continue; /* kept from a file whose names the writer would not derive */
        }
        om_io_names names;
        oa_status st = om_ir_io_names(c->a, n->type, out ? n->num_outputs : n->num_inputs, out != 0, &names);
        if (st != OA_OK) {
            return st;
        }
        if (names.n != 0) {
            push_list_s(c, attrs, key, names.names, names.n, true);
            push_list_i(c, attrs, val, names.index, names.n, true);
        }
    }
    return OA_OK;
}

static oa_status op_to_pb(wctx *c, const oa_node *n, Ge__Proto__OpDef **out)
{
    Ge__Proto__OpDef *op = alloc(c, sizeof(*op));
    if (op == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Serialize][Op] %s", n->name);
    }
    ge__proto__op_def__init(op);
    op->name = s_(n->name);
    op->type = s_(n->type_name);
    op->has_out_attr = 1;
    op->id = c->next_op_id++;
    const bool merged = !c->o->inline_weights;

    /* inputs, src_name/src_index, is_input_const */
    const size_t nin = n->num_inputs + (n->num_ctrl_inputs ? n->num_ctrl_inputs : 0);
    op->input = nin ? alloc(c, nin * sizeof(char *)) : NULL;
    op->src_name = alloc(c, (n->num_inputs + 1) * sizeof(char *));
    op->src_index = n->num_inputs ? alloc(c, n->num_inputs * sizeof(int64_t)) : NULL;
    protobuf_c_boolean *is_const_in = n->num_inputs ? alloc(c, n->num_inputs * sizeof(*is_const_in)) : NULL;
    op->input_desc = n->num_inputs ? alloc(c, n->num_inputs * sizeof(*op->input_desc)) : NULL;
    op->output_desc = n->num_outputs ? alloc(c, n->num_outputs * sizeof(*op->output_desc)) : NULL;
    if (c->oom) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Serialize][Op] %s", n->name);
    }
    for (uint32_t i = 0; i < n->num_inputs; ++i) {
        const oa_input *in = &n->inputs[i];
        int64_t size = 0;
        if (in->src != NULL) {
            op->input[op->n_input++] = ref(c, in->src->name, in->src_index);
            op->src_name[op->n_src_name++] = s_(in->src->name);
            op->src_index[op->n_src_index++] = in->src_index;
            is_const_in[i] = merged && is_const(in->src);
            size = om_ir_padded_size(in->src->outputs[in->src_index].desc.dtype,
                                     &in->src->outputs[in->src_index].desc.shape);
        } else {
            op->input[op->n_input++] = s_("");
            if (n->type == OA_OP_DATA) {
                size = om_ir_exact_size(in->desc.dtype, &in->desc.shape);
            }
        }
        Ge__Proto__TensorDescriptor *td = desc_to_pb(c, &in->desc, size);
        if (td != NULL && is_const_in[i]) {
            td->data_offset = c->const_off[in->src->id];
        }
        op->input_desc[op->n_input_desc++] = td;
    }
    if (merged && n->num_inputs != 0) {
        op->is_input_const = is_const_in;
        op->n_is_input_const = n->num_inputs;
    }
    for (uint32_t i = 0; i < n->num_ctrl_inputs; ++i) {
        op->input[op->n_input++] = ref(c, n->ctrl_inputs[i]->name, -1);
    }
    if (n->num_ctrl_inputs != 0) {
        op->src_name[op->n_src_name++] = join_names(c, n->ctrl_inputs, n->num_ctrl_inputs);
    }

    /* outputs and dst_name/dst_index (none for NetOutput, as GE) */
    for (uint32_t i = 0; i < n->num_outputs; ++i) {
        const oa_tensor_desc *d = &n->outputs[i].desc;
        op->output_desc[op->n_output_desc++] = desc_to_pb(c, d, om_ir_padded_size(d->dtype, &d->shape));
    }
    if (n->type != OA_OP_NET_OUTPUT) {
        size_t cap_i = 0;
        parr names = {0};
        size_t nctrl = oa_node_control_uses(n, NULL, 0);
        if (nctrl != 0) {
            oa_node **users = malloc(nctrl * sizeof(*users));
            if (users == NULL) {
                return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Serialize][Op] %zu control users", nctrl);
            }
            (void)oa_node_control_uses(n, users, nctrl);
            parr_push(c, &names, join_names(c, users, nctrl));
            push_int64(c, &op->dst_index, &op->n_dst_index, &cap_i, -1);
            free(users);
        }
        for (uint32_t i = 0; i < n->num_outputs; ++i) {
            size_t nu = oa_node_output_uses(n, i, NULL, 0);
            if (nu == 0) {
                continue;
            }
            oa_use *uses = malloc(nu * sizeof(*uses));
            oa_node **users = malloc(nu * sizeof(*users));
            if (uses == NULL || users == NULL) {
                free(uses);
                free(users);
                return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Serialize][Op] %zu uses", nu);
            }
            (void)oa_node_output_uses(n, i, uses, nu);
            for (size_t k = 0; k < nu; ++k) {
                users[k] = uses[k].node;
            }
            push_int64(c, &op->dst_index, &op->n_dst_index, &cap_i, uses[nu - 1].input);
            parr_push(c, &names, join_names(c, users, nu));
            free(uses);
            free(users);
        }
        op->dst_name = (char **)names.v;
        op->n_dst_name = names.n;
    }

    /* memory plan */
    const oa_om_mem_plan *plan = c->o->plan;
    const oa_om_node_mem *mem = plan != NULL && plan->node_mem != NULL ? plan->node_mem(plan->ctx, n) : NULL;
    if (mem != NULL) {
        op->input_i = (int64_t *)(uintptr_t)mem->input_offsets;
        op->n_input_i = mem->n_input;
        op->output_i = (int64_t *)(uintptr_t)mem->output_offsets;
        op->n_output_i = mem->n_output;
        op->workspace = (int64_t *)(uintptr_t)mem->workspace;
        op->n_workspace = mem->n_workspace;
        op->workspace_bytes = (int64_t *)(uintptr_t)mem->workspace_bytes;
        op->n_workspace_bytes = mem->n_workspace_bytes;
    }

    /* attrs: the node's, with a merged Const value reduced to offset + size */
    parr attrs = {0};
    for (const oa_attr *x = n->attrs.head; x != NULL && !c->oom; x = x->next) {
        Ge__Proto__AttrDef *v;
        if (merged && is_const(n) && x->type == OA_ATTR_TENSOR && strcmp(x->name, "value") == 0 && x->u.t != NULL) {
            v = new_attr(c);
            if (v != NULL) {
                v->value_case = GE__PROTO__ATTR_DEF__VALUE_T;
                v->t = tensor_to_pb(c, x->u.t, false);
                if (v->t != NULL && v->t->desc != NULL) {
                    v->t->desc->data_offset = c->const_off[n->id];
                    v->t->desc->weight_size = (int64_t)x->u.t->size;
                }
            }
        } else {
            v = attr_to_pb(c, x, om_ir_is_injected_attr(x->name, strlen(x->name)));
        }
        if (v == NULL) {
            c->oom = true;
            break;
        }
        parr_push(c, &attrs, entry(c, x->name, v));
    }
    oa_status st = io_name_attrs(c, n, &attrs);
    if (st != OA_OK) {
        return st;
    }
    op->attr = (Ge__Proto__AttrMapEntry **)attrs.v;
    op->n_attr = attrs.n;

    if (n->num_subgraphs != 0) {
        op->subgraph_name = alloc(c, n->num_subgraphs * sizeof(char *));
        for (uint32_t s = 0; op->subgraph_name != NULL && s < n->num_subgraphs; ++s) {
            op->subgraph_name[s] = s_(oa_graph_name(n->subgraphs[s].graph));
        }
        op->n_subgraph_name = op->subgraph_name != NULL ? n->num_subgraphs : 0;
    }
    if (c->oom) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Serialize][Op] %s", n->name);
    }
    *out = op;
    return OA_OK;
}

static int data_index_cmp(const void *a, const void *b)
{
    const oa_node *x = *(oa_node *const *)a, *y = *(oa_node *const *)b;
    const int64_t ix = oa_node_attr_int(x, "index", 0), iy = oa_node_attr_int(y, "index", 0);
    return (ix > iy) - (ix < iy);
}

static oa_status graph_to_pb(wctx *c, const oa_graph *g, Ge__Proto__GraphDef **out)
{
    Ge__Proto__GraphDef *gd = alloc(c, sizeof(*gd));
    if (gd == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Serialize][Graph] %s", oa_graph_name(g));
    }
    ge__proto__graph_def__init(gd);
    gd->name = s_(oa_graph_name(g));
    oa_node **order = NULL;
    size_t n = 0;
    oa_status st = oa_graph_topo_order(g, &order, &n);
    if (st != OA_OK) {
        return st;
    }
    gd->op = n ? alloc(c, n * sizeof(*gd->op)) : NULL;
    oa_node **data = n ? malloc(n * sizeof(*data)) : NULL;
    if (n != 0 && (gd->op == NULL || data == NULL)) {
        st = OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Serialize][Graph] %zu ops", n);
    }
    size_t nd = 0;
    for (size_t i = 0; i < n && st == OA_OK; ++i) {
        st = op_to_pb(c, order[i], &gd->op[gd->n_op]);
        gd->n_op += st == OA_OK;
        if (order[i]->type == OA_OP_DATA) {
            data[nd++] = order[i];
        }
    }
    if (st == OA_OK && nd != 0) {
        qsort(data, nd, sizeof(*data), data_index_cmp);
        gd->input = alloc(c, nd * sizeof(char *));
        for (size_t i = 0; gd->input != NULL && i < nd; ++i) {
            gd->input[i] = ref(c, data[i]->name, 0);
        }
        gd->n_input = gd->input != NULL ? nd : 0;
    }
    if (st == OA_OK) {
        parr attrs = {0};
        attrs_to_pb(c, oa_graph_attrs((oa_graph *)(uintptr_t)g), &attrs, false);
        gd->attr = (Ge__Proto__AttrMapEntry **)attrs.v;
        gd->n_attr = attrs.n;
        if (c->oom) {
            st = OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Serialize][Graph] %s", oa_graph_name(g));
        }
    }
    free(order);
    free(data);
    *out = gd;
    return st;
}

/* ---- model attrs --------------------------------------------------------------------- */

/* Sets key in the model attr list, replacing an earlier value. */
static void model_attr(wctx *c, parr *attrs, const char *key, Ge__Proto__AttrDef *v)
{
    if (v == NULL) {
        c->oom = true;
        return;
    }
    for (size_t i = 0; i < attrs->n; ++i) {
        Ge__Proto__AttrMapEntry *e = attrs->v[i];
        if (e->key.len == strlen(key) && memcmp(e->key.data, key, e->key.len) == 0) {
            e->value = v;
            return;
        }
    }
    parr_push(c, attrs, entry(c, key, v));
}

static Ge__Proto__AttrDef *attr_i(wctx *c, int64_t i)
{
    Ge__Proto__AttrDef *v = new_attr(c);
    if (v != NULL) {
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_I;
        v->i = i;
    }
    return v;
}

static Ge__Proto__AttrDef *attr_s(wctx *c, const char *s)
{
    Ge__Proto__AttrDef *v = new_attr(c);
    if (v != NULL) {
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_S;
        v->s.data = (uint8_t *)s_(s);
        v->s.len = strlen(s);
    }
    return v;
}

/* attr_model_out_nodes_name: "<producer>:<k>" per NetOutput input. */
static Ge__Proto__AttrDef *out_nodes_name(wctx *c)
{
    const oa_node *no = oa_graph_output_node(c->root);
    Ge__Proto__AttrDef *v = new_attr(c);
    Ge__Proto__AttrDef__ListValue *l = new_list(c, v, PB_VT(VT_LIST_STRING));
    if (l == NULL || no == NULL || no->num_inputs == 0) {
        return v;
    }
    l->s = alloc(c, no->num_inputs * sizeof(*l->s));
    for (uint32_t i = 0; l->s != NULL && i < no->num_inputs; ++i) {
        const oa_input *in = &no->inputs[i];
        char *r = in->src != NULL ? ref(c, in->src->name, in->src_index) : sdup(c, "");
        l->s[i].data = (uint8_t *)r;
        l->s[i].len = r != NULL ? strlen(r) : 0;
    }
    l->n_s = l->s != NULL ? no->num_inputs : 0;
    return v;
}

static void base_model_attrs(wctx *c, parr *attrs, int64_t memory_size)
{
    model_attr(c, attrs, "stream_num", attr_i(c, 1));
    model_attr(c, attrs, "event_num", attr_i(c, 0));
    model_attr(c, attrs, "label_num", attr_i(c, 0));
    model_attr(c, attrs, "p2p_memory_size", attr_i(c, 0));
    model_attr(c, attrs, "target_type", attr_s(c, "MINI"));
    model_attr(c, attrs, "attr_model_out_nodes_name", out_nodes_name(c));
    if (c->o->model_attrs != NULL) {
        for (const oa_attr *x = c->o->model_attrs->head; x != NULL; x = x->next) {
            model_attr(c, attrs, x->name, attr_to_pb(c, x, false));
        }
    }
    if (c->o->soc_version != NULL) {
        model_attr(c, attrs, "soc_version", attr_s(c, c->o->soc_version));
    }
    if (c->o->atc_cmdline != NULL) {
        model_attr(c, attrs, "atc_cmdline", attr_s(c, c->o->atc_cmdline));
    }
    if (c->o->framework_type != NULL) {
        model_attr(c, attrs, "framework_type", attr_s(c, c->o->framework_type));
    }
    model_attr(c, attrs, "memory_size", attr_i(c, memory_size));
    model_attr(c, attrs, "weight_size", attr_i(c, (int64_t)c->weights_size));
}

/* ---- assembly -------------------------------------------------------------------------- */

static uint32_t max_node_id(const oa_graph *g)
{
    uint32_t m = 0;
    for (const oa_node *n = oa_graph_first_node(g); n != NULL; n = n->next) {
        m = n->id + 1 > m ? n->id + 1 : m;
        for (uint32_t s = 0; s < n->num_subgraphs; ++s) {
            uint32_t k = max_node_id(n->subgraphs[s].graph);
            m = k > m ? k : m;
        }
    }
    return m;
}

static oa_status check_opts(const oa_graph *root, const oa_om_write_opts *o)
{
    if (root == NULL || oa_graph_root(root) != root) {
        return OA_FAIL(OA_E_PARAM, "[Serialize][Model] a root graph is required");
    }
    if (o->platform_version != NULL && strlen(o->platform_version) >= OA_OM_PLATFORM_VERSION_LEN) {
        return OA_FAIL(OA_E_PARAM, "[Serialize][Model] platform version \"%s\" exceeds %u characters",
                       o->platform_version, OA_OM_PLATFORM_VERSION_LEN - 1);
    }
    if (o->platform_version != NULL &&
        !oa_om_utf8_valid((const uint8_t *)o->platform_version, strlen(o->platform_version))) {
        return OA_FAIL(OA_E_PARAM, "[Serialize][Model] platform version is not UTF-8");
    }
    return OA_OK;
}

/* Builds the ModelDef (model attrs without om_info_list) and the weights. */
static oa_status build_model(wctx *c, Ge__Proto__ModelDef **out, parr *model_attrs)
{
    c->n_ids = max_node_id(c->root);
    c->const_off = calloc(c->n_ids ? c->n_ids : 1, sizeof(*c->const_off));
    if (c->const_off == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Serialize][Model] %u nodes", c->n_ids);
    }
    oa_status st = c->o->inline_weights ? OA_OK : build_weights(c);
    Ge__Proto__ModelDef *def = alloc(c, sizeof(*def));
    size_t nsub = oa_graph_subgraphs(c->root, NULL, 0);
    oa_graph **subs = malloc((nsub + 1) * sizeof(*subs));
    if (st == OA_OK && (def == NULL || subs == NULL)) {
        st = OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Serialize][Model] %zu graphs", nsub + 1);
    }
    if (st == OA_OK) {
        ge__proto__model_def__init(def);
        def->name = s_(oa_graph_name(c->root));
        def->custom_version = s_(c->o->platform_version);
        (void)oa_graph_subgraphs(c->root, subs, nsub);
        def->graph = alloc(c, (nsub + 1) * sizeof(*def->graph));
        if (def->graph == NULL) {
            st = OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Serialize][Model] %zu graphs", nsub + 1);
        }
    }
    for (size_t i = 0; st == OA_OK && i <= nsub; ++i) {
        st = graph_to_pb(c, i == 0 ? c->root : subs[i - 1], &def->graph[i]);
        def->n_graph += st == OA_OK;
    }
    free(subs);
    if (st == OA_OK) {
        const int64_t mem = c->o->plan != NULL ? c->o->plan->memory_size : 0;
        base_model_attrs(c, model_attrs, mem);
        if (c->oom) {
            st = OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Serialize][Model] model attributes");
        }
    }
    *out = def;
    return st;
}

static oa_status encode_task(wctx *c, uint8_t **buf, size_t *len)
{
    Domi__ModelTaskDef t;
    if (c->o->task != NULL) {
        t = *c->o->task;
    } else {
        domi__model_task_def__init(&t);
    }
    const int64_t mem = c->o->plan != NULL ? c->o->plan->memory_size : 0;
    t.memory_size = mem > 0 ? (uint64_t)mem : 0;
    t.weight_size = c->weights_size;
    if (t.version == NULL || t.version[0] == '\0') {
        /* TASK_INFO may not be empty (GE refuses an empty ModelTaskDef). */
        t.version = s_(OM_TASK_VERSION);
    }
    return oa_om_pb_encode(&t.base, buf, len);
}

static void finish_model_attrs(wctx *c, Ge__Proto__ModelDef *def, parr *attrs, size_t task_len)
{
    Ge__Proto__AttrDef *v = new_attr(c);
    Ge__Proto__AttrDef__ListValue *l = new_list(c, v, PB_VT(VT_LIST_INT));
    int64_t *info = alloc(c, 5 * sizeof(*info));
    if (l != NULL && info != NULL) {
        info[0] = (int64_t)c->weights_size;
        info[1] = 0; /* TBE kernels */
        info[2] = 0; /* custom AICPU kernels */
        info[3] = (int64_t)task_len;
        info[4] = 0; /* SO_BINS */
        l->i = info;
        l->n_i = 5;
    }
    model_attr(c, attrs, "om_info_list", v);
    def->attr = (Ge__Proto__AttrMapEntry **)attrs->v;
    def->n_attr = attrs->n;
}

static void wctx_free(wctx *c)
{
    free(c->const_off);
    free(c->weights);
    c->const_off = NULL;
    c->weights = NULL;
}

/* Everything but the container: ModelDef (finished, compressed when asked),
 * weights and the encoded TASK_INFO. */
static oa_status produce(wctx *c, Ge__Proto__ModelDef **def, uint8_t **task, size_t *task_len)
{
    *def = NULL;
    *task = NULL;
    *task_len = 0;
    oa_status st = check_opts(c->root, c->o);
    parr attrs = {0};
    Ge__Proto__ModelDef *d = NULL;
    if (st == OA_OK) {
        st = build_model(c, &d, &attrs);
    }
    if (st == OA_OK) {
        st = encode_task(c, task, task_len);
    }
    if (st == OA_OK) {
        finish_model_attrs(c, d, &attrs, *task_len);
        if (c->oom) {
            st = OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Serialize][Model] model attributes");
        }
    }
    if (st == OA_OK) {
        /* Refuse what the reader would refuse (om_check.h), with its code. */
        st = oa_om_check_model_def(d, c->o->inline_weights ? -1 : (int64_t)c->weights_size, NULL, 0,
                                   "model being written");
    }
    if (st == OA_OK && c->o->compress) {
        st = oa_om_compress(d, c->a);
    }
    if (st != OA_OK) {
        free(*task);
        *task = NULL;
        return st;
    }
    *def = d;
    return OA_OK;
}

oa_status oa_om_model_def_from_graph(const oa_graph *root, const oa_om_write_opts *opts, oa_om_arena *a,
                                     Ge__Proto__ModelDef **def, uint8_t **weights, size_t *weights_size)
{
    oa_om_write_opts dflt;
    oa_om_write_opts_init(&dflt);
    wctx c = {.root = root, .o = opts != NULL ? opts : &dflt, .a = a};
    *weights = NULL;
    *weights_size = 0;
    uint8_t *task = NULL;
    size_t task_len = 0;
    oa_status st = produce(&c, def, &task, &task_len);
    free(task);
    if (st == OA_OK) {
        *weights = c.weights;
        *weights_size = c.weights_size;
        c.weights = NULL;
    }
    wctx_free(&c);
    return st;
}

/* ---- MODEL_INOUT_INFO ------------------------------------------------------------------- */

static const int64_t k_unknown_rank[1] = {OA_GE_UNKNOWN_RANK_DIM};

static void io_dims(const oa_shape *s, const int64_t **dims, size_t *n)
{
    if (s->rank == OA_RANK_UNKNOWN) {
        *dims = k_unknown_rank;
        *n = 1;
    } else {
        *dims = s->dims;
        *n = (size_t)s->rank;
    }
}

static const int64_t *io_ranges(wctx *c, const oa_tensor_desc *d, size_t *n)
{
    *n = 0;
    if (!d->has_range || d->shape.rank <= 0) {
        return NULL;
    }
    int64_t *r = alloc(c, 2 * (size_t)d->shape.rank * sizeof(*r));
    if (r == NULL) {
        return NULL;
    }
    for (int32_t i = 0; i < d->shape.rank; ++i) {
        r[2 * i] = d->range_min[i];
        r[2 * i + 1] = d->range_max[i];
    }
    *n = (size_t)d->shape.rank;
    return r;
}

static const Ge__Proto__AttrDef__ListValue *final_out_names(const Ge__Proto__ModelDef *def)
{
    const Ge__Proto__AttrDef *v = oa_om_attr_get(def->attr, def->n_attr, "attr_model_out_nodes_name");
    return v != NULL && v->value_case == GE__PROTO__ATTR_DEF__VALUE_LIST ? v->list : NULL;
}

/* A list-of-strings attr as an oa_om_io_strings record (NULL/0 when absent). */
static void io_strings(wctx *c, const oa_node *n, const char *attr, oa_om_io_strings *out)
{
    const char *const *v;
    size_t k;
    if (n == NULL || !oa_attrs_get_list_str(&n->attrs, attr, &v, &k) || k == 0) {
        return;
    }
    size_t *lens = alloc(c, k * sizeof(*lens));
    if (lens == NULL) {
        return;
    }
    for (size_t i = 0; i < k; i++) {
        lens[i] = strlen(v[i]);
    }
    out->n = k;
    out->s = v;
    out->len = lens;
}

/*
 * MODEL_INOUT_INFO records 2-6 of a gear model (docs/om_format.md
 * "MODEL_INOUT_INFO"): from the root's multi-batch Case (`_batch_num`,
 * `_pred_value_<i>`, `mbatch_dynamic_type`, `user_designate_shape_order`) and
 * the NetOutput's `_dynamic_output_dims`.
 */
static void inout_gears(wctx *c, const oa_node *net_output, oa_om_inout *io)
{
    const oa_node *cs = NULL;
    int64_t count = 0;
    for (const oa_node *n = oa_graph_first_node(c->root); n != NULL && cs == NULL; n = n->next) {
        if (n->type == OA_OP_CASE && oa_attrs_get_int(&n->attrs, "_batch_num", &count) && count > 0) {
            cs = n;
        }
    }
    if (cs == NULL) {
        return;
    }
    const int64_t kind = oa_node_attr_int(cs, "mbatch_dynamic_type", 0);
    const int64_t **vals = alloc(c, (size_t)count * sizeof(*vals));
    size_t *lens = alloc(c, (size_t)count * sizeof(*lens));
    int64_t *batch = alloc(c, (size_t)count * sizeof(*batch));
    if (vals == NULL || lens == NULL || batch == NULL) {
        return;
    }
    for (int64_t i = 0; i < count; i++) {
        char name[48];
        (void)snprintf(name, sizeof(name), "_pred_value_%lld", (long long)i);
        const int64_t *v = NULL;
        size_t k = 0;
        if (!oa_attrs_get_list_int(&cs->attrs, name, &v, &k)) {
            return; /* not a complete gear description: no records */
        }
        vals[i] = v;
        lens[i] = k;
        batch[i] = k > 0 ? v[0] : 0;
    }
    if (kind == 1) {
        io->n_batch = (size_t)count;
        io->batch = batch;
    } else if (kind == 2 || kind == 3) {
        oa_om_io_gears *gr = kind == 2 ? &io->hw : &io->dims;
        gr->n = (size_t)count;
        gr->len = lens;
        gr->vals = vals;
    }
    io_strings(c, net_output, "_dynamic_output_dims", &io->dynamic_output_shape);
    io_strings(c, cs, "user_designate_shape_order", &io->designate_shape_order);
}

static oa_status build_inout(wctx *c, const Ge__Proto__ModelDef *def, uint8_t **out, size_t *len)
{
    oa_om_inout io = {0};
    const size_t nd = oa_graph_num_inputs(c->root);
    oa_om_io_tensor *in = nd ? alloc(c, nd * sizeof(*in)) : NULL;
    size_t k = 0;
    for (const oa_node *n = oa_graph_first_node(c->root); in != NULL && n != NULL; n = n->next) {
        if (n->type != OA_OP_DATA || n->num_inputs == 0 || k == nd) {
            continue;
        }
        const oa_tensor_desc *d = &n->inputs[0].desc;
        oa_om_io_tensor *t = &in[k++];
        t->name = n->name;
        t->name_len = strlen(n->name);
        t->format = (int32_t)d->format;
        t->dtype = (int32_t)d->dtype;
        t->size = (uint64_t)om_ir_exact_size(d->dtype, &d->shape);
        io_dims(&d->shape, &t->dims, &t->n_dims);
        /* Gear models: the dims with -1 at the dynamic positions (the desc holds
         * the largest gear's shape, which gives the size). */
        const int64_t *od = NULL;
        size_t nod = 0;
        /* AIPP inputs report the raw image dims (docs/aipp.md "What the .om holds") */
        if (oa_attrs_get_list_int(&n->attrs, "_dynamic_aipp_input_dims", &od, &nod) ||
            oa_attrs_get_list_int(&n->attrs, "_oa_aipp_input_dims", &od, &nod) ||
            oa_attrs_get_list_int(&n->attrs, "_mbatch_origin_input_dims", &od, &nod)) {
            t->dims = od;
            t->n_dims = nod;
        }
        const int64_t *v2 = NULL;
        size_t nv2 = 0;
        if (oa_attrs_get_list_int(&n->attrs, "input_dims", &v2, &nv2)) {
            t->dims_v2 = v2;
            t->n_dims_v2 = nv2;
        } else {
            t->dims_v2 = t->dims;
            t->n_dims_v2 = t->n_dims;
            t->ranges = io_ranges(c, d, &t->n_ranges);
        }
    }
    /* by `index`, as GE orders model inputs */
    for (size_t i = 1; i < k; ++i) {
        for (size_t j = i; j > 0; --j) {
            const oa_node *a = oa_graph_find_node(c->root, in[j - 1].name);
            const oa_node *b = oa_graph_find_node(c->root, in[j].name);
            if (oa_node_attr_int(a, "index", 0) <= oa_node_attr_int(b, "index", 0)) {
                break;
            }
            oa_om_io_tensor tmp = in[j];
            in[j] = in[j - 1];
            in[j - 1] = tmp;
        }
    }
    io.inputs = in;
    io.n_inputs = k;

    const oa_node *no = oa_graph_output_node(c->root);
    const Ge__Proto__AttrDef__ListValue *names = final_out_names(def);
    if (no != NULL && no->num_inputs != 0) {
        oa_om_io_tensor *o = alloc(c, no->num_inputs * sizeof(*o));
        for (uint32_t i = 0; o != NULL && i < no->num_inputs; ++i) {
            const oa_input *src = &no->inputs[i];
            const oa_tensor_desc *d = &src->desc;
            char *nm;
            if (names != NULL && names->n_s == no->num_inputs) {
                const ProtobufCBinaryData *b = &names->s[i];
                const bool colon = b->len != 0 && memchr(b->data, ':', b->len) != NULL;
                nm = alloc(c, b->len + 24);
                if (nm != NULL) {
                    if (b->len != 0) {
                        memcpy(nm, b->data, b->len);
                    }
                    nm[b->len] = '\0';
                    if (!colon) {
                        (void)snprintf(nm + b->len, 24, ":%u", src->src_index);
                    }
                }
            } else {
                const char *sn = src->src != NULL ? src->src->name : "";
                size_t l = strlen(sn) + 48;
                nm = alloc(c, l);
                if (nm != NULL) {
                    (void)snprintf(nm, l, "output_%u_%s_%u", i, sn, src->src_index);
                }
            }
            o[i].name = nm != NULL ? nm : "";
            o[i].name_len = strlen(o[i].name);
            o[i].format = (int32_t)d->format;
            o[i].dtype = (int32_t)d->dtype;
            o[i].size = (uint64_t)om_ir_exact_size(d->dtype, &d->shape);
            io_dims(&d->shape, &o[i].dims, &o[i].n_dims);
            o[i].dims_v2 = o[i].dims;
            o[i].n_dims_v2 = o[i].n_dims;
            o[i].ranges = io_ranges(c, d, &o[i].n_ranges);
        }
        io.outputs = o;
        io.n_outputs = o != NULL ? no->num_inputs : 0;
    }
    inout_gears(c, no, &io);
    if (c->oom) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Serialize][InOutInfo] descriptions");
    }
    return oa_om_inout_serialize(&io, out, len);
}

/* ---- the file ------------------------------------------------------------------------------ */

/*
 * Ends MODEL_DEF (at file offset def_at, def_len bytes) with an unknown
 * bytes field of zeros so that the partition after it, WEIGHTS_DATA, starts
 * at a multiple of OA_OM_WEIGHTS_FILE_ALIGN: the container itself allows no
 * gap between partitions (GE walks their sizes), and protobuf readers (GE,
 * Netron, ours) skip unknown fields. README "Weights alignment".
 */
oa_status oa_om_model_def_pad(uint8_t **def, size_t *def_len, uint64_t def_at)
{
    const uint32_t align = OA_OM_WEIGHTS_FILE_ALIGN;
    uint32_t pad = (uint32_t)((align - (def_at + *def_len) % align) % align);
    if (pad == 0) {
        return OA_OK;
    }
    if (pad < 3) { /* the smallest field: 2-byte tag, 1-byte length */
        pad += align;
    }
    uint8_t *d = realloc(*def, *def_len + pad);
    if (d == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Serialize][Model] MODEL_DEF padding");
    }
    const uint32_t tag = OA_OM_PAD_FIELD << 3 | 2u;
    uint8_t *p = d + *def_len;
    p[0] = (uint8_t)(0x80u | (tag & 0x7fu));
    p[1] = (uint8_t)(tag >> 7);
    p[2] = (uint8_t)(pad - 3); /* < 128: one varint byte */
    memset(p + 3, 0, pad - 3);
    *def = d;
    *def_len += pad;
    return OA_OK;
}

static oa_status write_common(const oa_graph *root, const oa_om_write_opts *opts, const char *path, uint8_t **mem,
                              size_t *mem_len)
{
    oa_om_write_opts dflt;
    oa_om_write_opts_init(&dflt);
    oa_om_arena *a = NULL;
    oa_status st = oa_om_arena_create(&a);
    if (st != OA_OK) {
        return OA_FAIL(st, "[Serialize][Model] arena");
    }
    wctx c = {.root = root, .o = opts != NULL ? opts : &dflt, .a = a};
    Ge__Proto__ModelDef *def = NULL;
    uint8_t *task = NULL, *def_bytes = NULL, *io = NULL;
    size_t task_len = 0, def_len = 0, io_len = 0;
    st = produce(&c, &def, &task, &task_len);
    if (st == OA_OK) {
        st = build_inout(&c, def, &io, &io_len);
    }
    if (st == OA_OK) {
        st = oa_om_pb_encode(&def->base, &def_bytes, &def_len);
    }
    if (st == OA_OK) {
        /* Names that are not UTF-8 would make a file nobody can parse. */
        st = oa_om_pb_check(&ge__proto__model_def__descriptor, def_bytes, def_len, OA_E_GE_PARAM,
                            "MODEL_DEF being written");
    }
    if (st == OA_OK) {
        oa_om_header h;
        oa_om_header_init(&h);
        const char *name = oa_graph_name(root);
        size_t nl = strlen(name);
        memcpy(h.name, name, nl < OA_OM_NAME_LEN - 1 ? nl : OA_OM_NAME_LEN - 1);
        if (c.o->platform_version != NULL) {
            memcpy(h.platform_version, c.o->platform_version, strlen(c.o->platform_version));
        }
        h.is_unknow_model = c.o->unknown_shape ? 1 : 0;
        oa_om_part_src p[4];
        uint32_t np = 0;
        if (io_len != 0) {
            p[np++] = (oa_om_part_src){OA_OM_PART_MODEL_INOUT_INFO, io, io_len};
        }
        if (c.weights_size != 0) {
            const uint32_t parts = np + 3; /* MODEL_DEF, WEIGHTS_DATA, TASK_INFO */
            st = oa_om_model_def_pad(&def_bytes, &def_len,
                               (uint64_t)OA_OM_HEADER_SIZE + OA_OM_TABLE_HEAD_SIZE + parts * OA_OM_TABLE_ENTRY_SIZE +
                                   io_len);
        }
        p[np++] = (oa_om_part_src){OA_OM_PART_MODEL_DEF, def_bytes, def_len};
        if (c.weights_size != 0) {
            p[np++] = (oa_om_part_src){OA_OM_PART_WEIGHTS_DATA, c.weights, c.weights_size};
        }
        p[np++] = (oa_om_part_src){OA_OM_PART_TASK_INFO, task, task_len};
        oa_om_table_src t = {p, np};
        if (st == OA_OK) {
            st = path != NULL ? oa_om_container_write_file(path, &h, &t, 1)
                              : oa_om_container_write_memory(&h, &t, 1, mem, mem_len);
        }
    }
    free(task);
    free(def_bytes);
    free(io);
    wctx_free(&c);
    oa_om_arena_destroy(a);
    return st;
}

oa_status oa_om_write_graph(const oa_graph *root, const oa_om_write_opts *opts, const char *path)
{
    if (path == NULL || path[0] == '\0') {
        return OA_FAIL(OA_E_PARAM, "[Serialize][Model] output path is empty");
    }
    return write_common(root, opts, path, NULL, NULL);
}

oa_status oa_om_write_graph_memory(const oa_graph *root, const oa_om_write_opts *opts, uint8_t **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    return write_common(root, opts, NULL, out, len);
}

/*
 * Attribute lists (graph.h "Attributes"): typed setters that copy into the
 * root arena, lookup, typed getters with GE's compatible-kind rules, and
 * the node shorthands. Also deep copies of values and descriptors used by
 * clone and inference.
 */
#define OA_LOG_MODULE "GE"
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "graph/graph_internal.h"
#include "graph/infer_internal.h"

static const char *const ATTR_TYPE_NAMES[OA_ATTR_TYPE_COUNT] = {
    "int", "float", "bool", "string", "bytes", "dtype", "list_int", "list_float", "list_bool", "list_string",
    "list_dtype", "list_list_int", "list_list_float", "tensor", "tensor_desc", "graph", "named_attrs",
};

const char *oa_attr_type_name(oa_attr_type t)
{
    return ((unsigned)t < OA_ATTR_TYPE_COUNT) ? ATTR_TYPE_NAMES[t] : "invalid";
}

const oa_attr *oa_attrs_find(const oa_attrs *a, const char *name)
{
    if (a == NULL || name == NULL) {
        return NULL;
    }
    for (const oa_attr *x = a->head; x; x = x->next) {
        if (strcmp(x->name, name) == 0) {
            return x;
        }
    }
    return NULL;
}

bool oa_attrs_remove(oa_attrs *a, const char *name)
{
    if (a == NULL || name == NULL) {
        return false;
    }
    for (oa_attr **pp = &a->head; *pp; pp = &(*pp)->next) {
        if (strcmp((*pp)->name, name) == 0) {
            *pp = (*pp)->next;
            a->count--;
            return true;
        }
    }
    return false;
}

/* Finds or appends the attr slot for name; the caller fills type and value. */
static oa_attr *slot(oa_graph *g, oa_attrs *a, const char *name, oa_status *st)
{
    if (g == NULL || a == NULL || name == NULL) {
        *st = OA_FAIL(OA_E_PARAM, "attr set needs a graph, an attr list and a name");
        return NULL;
    }
    oa_attr *x = (oa_attr *)(uintptr_t)oa_attrs_find(a, name);
    if (x != NULL) {
        *st = OA_OK;
        return x;
    }
    x = oa_arena_alloc(g->arena, sizeof(*x), 0);
    const char *nm = oa_arena_strdup(g->arena, name);
    if (x == NULL || nm == NULL) {
        *st = OA_E_NOMEM;
        return NULL;
    }
    x->name = nm;
    oa_attr **pp = &a->head;
    while (*pp) {
        pp = &(*pp)->next;
    }
    *pp = x;
    a->count++;
    *st = OA_OK;
    return x;
}

/* Copies n elements of size sz (NULL allowed for n == 0). */
static void *dup_array(oa_graph *g, const void *v, size_t n, size_t sz, oa_status *st)
{
    void *p = oa_arena_array(g->arena, n, sz);
    if (p == NULL) {
        *st = OA_E_NOMEM;
        return NULL;
    }
    if (n) {
        if (v == NULL) {
            *st = OA_FAIL(OA_E_PARAM, "attr list of %zu elements has no data", n);
            return NULL;
        }
        memcpy(p, v, n * sz);
    }
    return p;
}

#define SET_SCALAR(fn, ctype, kind, field)                                          \
    oa_status fn(oa_graph *g, oa_attrs *a, const char *name, ctype v)               \
    {                                                                               \
        oa_status st;                                                               \
        oa_attr *x = slot(g, a, name, &st);                                         \
        if (x == NULL) {                                                            \
            return st;                                                              \
        }                                                                           \
        x->type = kind;                                                             \
        x->u.field = v;                                                             \
        return OA_OK;                                                               \
    }

SET_SCALAR(oa_attrs_set_int, int64_t, OA_ATTR_INT, i)
SET_SCALAR(oa_attrs_set_float, float, OA_ATTR_FLOAT, f)
SET_SCALAR(oa_attrs_set_bool, bool, OA_ATTR_BOOL, b)
SET_SCALAR(oa_attrs_set_dtype, oa_dtype, OA_ATTR_DTYPE, dt)

static oa_status set_bytes_kind(oa_graph *g, oa_attrs *a, const char *name, const void *v, size_t len,
                                oa_attr_type kind)
{
    if (v == NULL && len != 0) {
        return OA_FAIL(OA_E_PARAM, "attr [%s] has a null value", name ? name : "(null)");
    }
    oa_status st;
    oa_attr *x = slot(g, a, name, &st);
    if (x == NULL) {
        return st;
    }
    char *d = oa_arena_alloc(g->arena, len + 1, 1);
    if (d == NULL) {
        return OA_E_NOMEM;
    }
    if (len) {
        memcpy(d, v, len);
    }
    d[len] = '\0';
    x->type = kind;
    x->u.s.data = d;
    x->u.s.len = len;
    return OA_OK;
}

oa_status oa_attrs_set_str(oa_graph *g, oa_attrs *a, const char *name, const char *v)
{
    if (v == NULL) {
        return OA_FAIL(OA_E_PARAM, "string attr [%s] has a null value", name ? name : "(null)");
    }
    return set_bytes_kind(g, a, name, v, strlen(v), OA_ATTR_STRING);
}

oa_status oa_attrs_set_bytes(oa_graph *g, oa_attrs *a, const char *name, const void *v, size_t len)
{
    return set_bytes_kind(g, a, name, v, len, OA_ATTR_BYTES);
}

#define SET_LIST(fn, ctype, kind, field)                                            \
    oa_status fn(oa_graph *g, oa_attrs *a, const char *name, const ctype *v, size_t n) \
    {                                                                               \
        oa_status st;                                                               \
        oa_attr *x = slot(g, a, name, &st);                                         \
        if (x == NULL) {                                                            \
            return st;                                                              \
        }                                                                           \
        ctype *p = dup_array(g, v, n, sizeof(ctype), &st);                          \
        if (p == NULL) {                                                            \
            return st;                                                              \
        }                                                                           \
        x->type = kind;                                                             \
        x->u.field.v = p;                                                           \
        x->u.field.n = n;                                                           \
        return OA_OK;                                                               \
    }

SET_LIST(oa_attrs_set_list_int, int64_t, OA_ATTR_LIST_INT, li)
SET_LIST(oa_attrs_set_list_float, float, OA_ATTR_LIST_FLOAT, lf)
SET_LIST(oa_attrs_set_list_bool, bool, OA_ATTR_LIST_BOOL, lb)
SET_LIST(oa_attrs_set_list_dtype, oa_dtype, OA_ATTR_LIST_DTYPE, ldt)

oa_status oa_attrs_set_list_str(oa_graph *g, oa_attrs *a, const char *name, const char *const *v, size_t n)
{
    if (v == NULL && n != 0) {
        return OA_FAIL(OA_E_PARAM, "string list attr [%s] has no data", name ? name : "(null)");
    }
    oa_status st;
    oa_attr *x = slot(g, a, name, &st);
    if (x == NULL) {
        return st;
    }
    const char **p = oa_arena_array(g->arena, n, sizeof(*p));
    if (p == NULL) {
        return OA_E_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        p[i] = oa_arena_strdup(g->arena, v[i] ? v[i] : "");
        if (p[i] == NULL) {
            return OA_E_NOMEM;
        }
    }
    x->type = OA_ATTR_LIST_STRING;
    x->u.ls.v = p;
    x->u.ls.n = n;
    return OA_OK;
}

oa_status oa_attrs_set_list_list_int(oa_graph *g, oa_attrs *a, const char *name, const int64_t *const *v,
                                     const size_t *lens, size_t n)
{
    if (n != 0 && (v == NULL || lens == NULL)) {
        return OA_FAIL(OA_E_PARAM, "list_list attr [%s] has no data", name ? name : "(null)");
    }
    oa_status st;
    oa_attr *x = slot(g, a, name, &st);
    if (x == NULL) {
        return st;
    }
    const int64_t **rows = oa_arena_array(g->arena, n, sizeof(*rows));
    size_t *ls = dup_array(g, lens, n, sizeof(size_t), &st);
    if (rows == NULL || ls == NULL) {
        return rows == NULL ? OA_E_NOMEM : st;
    }
    for (size_t i = 0; i < n; i++) {
        rows[i] = dup_array(g, v[i], lens[i], sizeof(int64_t), &st);
        if (rows[i] == NULL) {
            return st;
        }
    }
    x->type = OA_ATTR_LIST_LIST_INT;
    x->u.lli.v = rows;
    x->u.lli.lens = ls;
    x->u.lli.n = n;
    return OA_OK;
}

oa_status oa_attrs_set_list_list_float(oa_graph *g, oa_attrs *a, const char *name, const float *const *v,
                                       const size_t *lens, size_t n)
{
    if (n != 0 && (v == NULL || lens == NULL)) {
        return OA_FAIL(OA_E_PARAM, "list_list attr [%s] has no data", name ? name : "(null)");
    }
    oa_status st;
    oa_attr *x = slot(g, a, name, &st);
    if (x == NULL) {
        return st;
    }
    const float **rows = oa_arena_array(g->arena, n, sizeof(*rows));
    size_t *ls = dup_array(g, lens, n, sizeof(size_t), &st);
    if (rows == NULL || ls == NULL) {
        return rows == NULL ? OA_E_NOMEM : st;
    }
    for (size_t i = 0; i < n; i++) {
        rows[i] = dup_array(g, v[i], lens[i], sizeof(float), &st);
        if (rows[i] == NULL) {
            return st;
        }
    }
    x->type = OA_ATTR_LIST_LIST_FLOAT;
    x->u.llf.v = rows;
    x->u.llf.lens = ls;
    x->u.llf.n = n;
    return OA_OK;
}

oa_status oa_attrs_set_tensor(oa_graph *g, oa_attrs *a, const char *name, const oa_tensor *t)
{
    if (t == NULL) {
        return OA_FAIL(OA_E_PARAM, "tensor attr [%s] has a null tensor", name ? name : "(null)");
    }
    oa_status st;
    oa_attr *x = slot(g, a, name, &st);
    if (x == NULL) {
        return st;
    }
    x->type = OA_ATTR_TENSOR;
    x->u.t = t;
    return OA_OK;
}

oa_status oa_attrs_set_tensor_desc(oa_graph *g, oa_attrs *a, const char *name, const oa_tensor_desc *d)
{
    if (d == NULL) {
        return OA_FAIL(OA_E_PARAM, "tensor_desc attr [%s] has a null desc", name ? name : "(null)");
    }
    oa_status st;
    oa_attr *x = slot(g, a, name, &st);
    if (x == NULL) {
        return st;
    }
    oa_tensor_desc *copy = oa_arena_alloc(g->arena, sizeof(*copy), 0);
    if (copy == NULL) {
        return OA_E_NOMEM;
    }
    st = oa_graph_copy_desc(g, copy, d);
    if (st != OA_OK) {
        return st;
    }
    x->type = OA_ATTR_TENSOR_DESC;
    x->u.td = copy;
    return OA_OK;
}

oa_status oa_attrs_set_graph(oa_graph *g, oa_attrs *a, const char *name, const char *subgraph_name)
{
    if (subgraph_name == NULL) {
        return OA_FAIL(OA_E_PARAM, "graph attr [%s] has a null graph name", name ? name : "(null)");
    }
    oa_status st;
    oa_attr *x = slot(g, a, name, &st);
    if (x == NULL) {
        return st;
    }
    const char *s = oa_arena_strdup(g->arena, subgraph_name);
    if (s == NULL) {
        return OA_E_NOMEM;
    }
    x->type = OA_ATTR_GRAPH;
    x->u.graph = s;
    return OA_OK;
}

oa_status oa_attrs_set_named(oa_graph *g, oa_attrs *a, const char *name, const char *na_name, const oa_attrs *v)
{
    if (v == NULL || v == a) {
        return OA_FAIL(OA_E_PARAM, "named attrs [%s] need a separate attr list", name ? name : "(null)");
    }
    if (g == NULL) {
        return OA_FAIL(OA_E_PARAM, "attr set needs a graph");
    }
    oa_attrs *copy = oa_arena_alloc(g->arena, sizeof(*copy), 0);
    const char *nm = oa_arena_strdup(g->arena, na_name != NULL ? na_name : "");
    if (copy == NULL || nm == NULL) {
        return OA_E_NOMEM;
    }
    memset(copy, 0, sizeof(*copy));
    for (const oa_attr *x = v->head; x != NULL; x = x->next) {
        oa_status st = oa_attrs_set_copy(g, copy, x);
        if (st != OA_OK) {
            return st;
        }
    }
    oa_status st;
    oa_attr *x = slot(g, a, name, &st);
    if (x == NULL) {
        return st;
    }
    x->type = OA_ATTR_NAMED;
    x->u.na.name = nm;
    x->u.na.attrs = copy;
    return OA_OK;
}

bool oa_attrs_get_named(const oa_attrs *a, const char *name, const oa_attrs **out)
{
    const oa_attr *x = oa_attrs_find(a, name);
    if (x == NULL || x->type != OA_ATTR_NAMED) {
        return false;
    }
    *out = x->u.na.attrs;
    return true;
}

/* Deep copy of a tensor into g (data copied when owned, blob shared). */
static oa_status copy_tensor(oa_graph *g, const oa_tensor *src, const oa_tensor **out)
{
    oa_tensor *t = oa_arena_alloc(g->arena, sizeof(*t), 0);
    if (t == NULL) {
        return OA_E_NOMEM;
    }
    oa_status st = oa_graph_copy_desc(g, &t->desc, &src->desc);
    if (st != OA_OK) {
        return st;
    }
    t->size = src->size;
    if (src->blob != NULL) {
        st = oa_graph_hold_blob(g, src->blob);
        if (st != OA_OK) {
            return st;
        }
        t->blob = src->blob;
        t->data = src->data;
    } else if (src->size > 0) {
        t->data = oa_arena_memdup(g->arena, src->data, src->size);
        if (t->data == NULL) {
            return OA_E_NOMEM;
        }
    }
    *out = t;
    return OA_OK;
}

oa_status oa_attrs_set_copy(oa_graph *g, oa_attrs *a, const oa_attr *src)
{
    if (src == NULL) {
        return OA_FAIL(OA_E_PARAM, "attr copy from null");
    }
    const char *nm = src->name;
    switch (src->type) {
    case OA_ATTR_INT: return oa_attrs_set_int(g, a, nm, src->u.i);
    case OA_ATTR_FLOAT: return oa_attrs_set_float(g, a, nm, src->u.f);
    case OA_ATTR_BOOL: return oa_attrs_set_bool(g, a, nm, src->u.b);
    case OA_ATTR_DTYPE: return oa_attrs_set_dtype(g, a, nm, src->u.dt);
    case OA_ATTR_STRING: return set_bytes_kind(g, a, nm, src->u.s.data, src->u.s.len, OA_ATTR_STRING);
    case OA_ATTR_BYTES: return set_bytes_kind(g, a, nm, src->u.s.data, src->u.s.len, OA_ATTR_BYTES);
    case OA_ATTR_LIST_INT: return oa_attrs_set_list_int(g, a, nm, src->u.li.v, src->u.li.n);
    case OA_ATTR_LIST_FLOAT: return oa_attrs_set_list_float(g, a, nm, src->u.lf.v, src->u.lf.n);
    case OA_ATTR_LIST_BOOL: return oa_attrs_set_list_bool(g, a, nm, src->u.lb.v, src->u.lb.n);
    case OA_ATTR_LIST_STRING: return oa_attrs_set_list_str(g, a, nm, src->u.ls.v, src->u.ls.n);
    case OA_ATTR_LIST_DTYPE: return oa_attrs_set_list_dtype(g, a, nm, src->u.ldt.v, src->u.ldt.n);
    case OA_ATTR_LIST_LIST_INT:
        return oa_attrs_set_list_list_int(g, a, nm, src->u.lli.v, src->u.lli.lens, src->u.lli.n);
    case OA_ATTR_LIST_LIST_FLOAT:
        return oa_attrs_set_list_list_float(g, a, nm, src->u.llf.v, src->u.llf.lens, src->u.llf.n);
    case OA_ATTR_TENSOR: {
        const oa_tensor *t;
        oa_status st = copy_tensor(g, src->u.t, &t);
        return st == OA_OK ? oa_attrs_set_tensor(g, a, nm, t) : st;
    }
    case OA_ATTR_TENSOR_DESC: return oa_attrs_set_tensor_desc(g, a, nm, src->u.td);
    case OA_ATTR_GRAPH: return oa_attrs_set_graph(g, a, nm, src->u.graph);
    case OA_ATTR_NAMED: return oa_attrs_set_named(g, a, nm, src->u.na.name, src->u.na.attrs);
    default: return OA_FAIL(OA_E_PARAM, "attr [%s] has invalid kind %d", nm, (int)src->type);
    }
}

/* ---- getters ---- */

bool oa_attrs_get_int(const oa_attrs *a, const char *name, int64_t *out)
{
    const oa_attr *x = oa_attrs_find(a, name);
    if (x == NULL) {
        return false;
    }
    switch (x->type) {
    case OA_ATTR_INT: *out = x->u.i; return true;
    case OA_ATTR_DTYPE: *out = (int64_t)x->u.dt; return true;
    case OA_ATTR_BOOL: *out = x->u.b ? 1 : 0; return true;
    default: return false;
    }
}

bool oa_attrs_get_float(const oa_attrs *a, const char *name, float *out)
{
    const oa_attr *x = oa_attrs_find(a, name);
    if (x == NULL || x->type != OA_ATTR_FLOAT) {
        return false;
    }
    *out = x->u.f;
    return true;
}

bool oa_attrs_get_bool(const oa_attrs *a, const char *name, bool *out)
{
    const oa_attr *x = oa_attrs_find(a, name);
    if (x == NULL) {
        return false;
    }
    if (x->type == OA_ATTR_BOOL) {
        *out = x->u.b;
        return true;
    }
    if (x->type == OA_ATTR_INT) {
        *out = x->u.i != 0;
        return true;
    }
    return false;
}

bool oa_attrs_get_str(const oa_attrs *a, const char *name, const char **out)
{
    const oa_attr *x = oa_attrs_find(a, name);
    if (x == NULL || x->type != OA_ATTR_STRING) {
        return false;
    }
    *out = x->u.s.data;
    return true;
}

bool oa_attrs_get_dtype(const oa_attrs *a, const char *name, oa_dtype *out)
{
    const oa_attr *x = oa_attrs_find(a, name);
    if (x == NULL) {
        return false;
    }
    if (x->type == OA_ATTR_DTYPE) {
        *out = x->u.dt;
        return true;
    }
    if (x->type == OA_ATTR_INT && oa_dtype_valid((int)x->u.i) && x->u.i == (int)x->u.i) {
        *out = (oa_dtype)x->u.i;
        return true;
    }
    return false;
}

bool oa_attrs_get_list_int(const oa_attrs *a, const char *name, const int64_t **v, size_t *n)
{
    const oa_attr *x = oa_attrs_find(a, name);
    if (x == NULL || x->type != OA_ATTR_LIST_INT) {
        return false;
    }
    *v = x->u.li.v;
    *n = x->u.li.n;
    return true;
}

bool oa_attrs_get_list_float(const oa_attrs *a, const char *name, const float **v, size_t *n)
{
    const oa_attr *x = oa_attrs_find(a, name);
    if (x == NULL || x->type != OA_ATTR_LIST_FLOAT) {
        return false;
    }
    *v = x->u.lf.v;
    *n = x->u.lf.n;
    return true;
}

bool oa_attrs_get_list_str(const oa_attrs *a, const char *name, const char *const **v, size_t *n)
{
    const oa_attr *x = oa_attrs_find(a, name);
    if (x == NULL || x->type != OA_ATTR_LIST_STRING) {
        return false;
    }
    *v = x->u.ls.v;
    *n = x->u.ls.n;
    return true;
}

bool oa_attrs_get_tensor(const oa_attrs *a, const char *name, const oa_tensor **out)
{
    const oa_attr *x = oa_attrs_find(a, name);
    if (x == NULL || x->type != OA_ATTR_TENSOR) {
        return false;
    }
    *out = x->u.t;
    return true;
}

/* ---- node shorthands ---- */

#define NODE_NULL_CHECK(n)                                                      \
    do {                                                                        \
        if ((n) == NULL) {                                                      \
            return OA_FAIL(OA_E_PARAM, "attr set on a null node");              \
        }                                                                       \
    } while (0)

oa_status oa_node_set_int(oa_node *n, const char *name, int64_t v)
{
    NODE_NULL_CHECK(n);
    return oa_attrs_set_int(n->graph, &n->attrs, name, v);
}
oa_status oa_node_set_float(oa_node *n, const char *name, float v)
{
    NODE_NULL_CHECK(n);
    return oa_attrs_set_float(n->graph, &n->attrs, name, v);
}
oa_status oa_node_set_bool(oa_node *n, const char *name, bool v)
{
    NODE_NULL_CHECK(n);
    return oa_attrs_set_bool(n->graph, &n->attrs, name, v);
}
oa_status oa_node_set_str(oa_node *n, const char *name, const char *v)
{
    NODE_NULL_CHECK(n);
    return oa_attrs_set_str(n->graph, &n->attrs, name, v);
}
oa_status oa_node_set_dtype(oa_node *n, const char *name, oa_dtype v)
{
    NODE_NULL_CHECK(n);
    return oa_attrs_set_dtype(n->graph, &n->attrs, name, v);
}
oa_status oa_node_set_list_int(oa_node *n, const char *name, const int64_t *v, size_t count)
{
    NODE_NULL_CHECK(n);
    return oa_attrs_set_list_int(n->graph, &n->attrs, name, v, count);
}
oa_status oa_node_set_list_float(oa_node *n, const char *name, const float *v, size_t count)
{
    NODE_NULL_CHECK(n);
    return oa_attrs_set_list_float(n->graph, &n->attrs, name, v, count);
}
oa_status oa_node_set_list_str(oa_node *n, const char *name, const char *const *v, size_t count)
{
    NODE_NULL_CHECK(n);
    return oa_attrs_set_list_str(n->graph, &n->attrs, name, v, count);
}
oa_status oa_node_set_tensor(oa_node *n, const char *name, const oa_tensor *t)
{
    NODE_NULL_CHECK(n);
    return oa_attrs_set_tensor(n->graph, &n->attrs, name, t);
}

int64_t oa_node_attr_int(const oa_node *n, const char *name, int64_t dflt)
{
    int64_t v;
    return (n && oa_attrs_get_int(&n->attrs, name, &v)) ? v : dflt;
}

bool oa_node_concat_window(const oa_node *n, uint32_t input, int64_t *off, int64_t *len)
{
    const int64_t *w;
    size_t nw = 0;
    if (n == NULL || !oa_attrs_get_list_int(&n->attrs, "_oa_concat_windows", &w, &nw)) {
        return false;
    }
    for (size_t k = 0; k + 2 < nw; k += 3) {
        if (w[k] == (int64_t)input) {
            *off = w[k + 1];
            *len = w[k + 2];
            return true;
        }
    }
    return false;
}

float oa_node_attr_float(const oa_node *n, const char *name, float dflt)
{
    float v;
    return (n && oa_attrs_get_float(&n->attrs, name, &v)) ? v : dflt;
}

bool oa_node_attr_bool(const oa_node *n, const char *name, bool dflt)
{
    bool v;
    return (n && oa_attrs_get_bool(&n->attrs, name, &v)) ? v : dflt;
}

const char *oa_node_attr_str(const oa_node *n, const char *name, const char *dflt)
{
    const char *v;
    return (n && oa_attrs_get_str(&n->attrs, name, &v)) ? v : dflt;
}

static oa_status require_fail(const oa_node *n, const char *name, const char *expected)
{
    const oa_attr *x = oa_attrs_find(&n->attrs, name);
    if (x == NULL) {
        return oa_infer_report(OA_E_GE_PARAM, __FILE__, __LINE__, __func__, "node %s (%s) misses required attr %s",
                               n->name, n->type_name, name);
    }
    return oa_infer_report(OA_E_GE_PARAM, __FILE__, __LINE__, __func__,
                           "node %s (%s) has attr %s of kind %s, expected %s", n->name, n->type_name, name,
                           oa_attr_type_name(x->type), expected);
}

oa_status oa_node_require_int(const oa_node *n, const char *name, int64_t *out)
{
    return oa_attrs_get_int(&n->attrs, name, out) ? OA_OK : require_fail(n, name, "int");
}

oa_status oa_node_require_float(const oa_node *n, const char *name, float *out)
{
    return oa_attrs_get_float(&n->attrs, name, out) ? OA_OK : require_fail(n, name, "float");
}

oa_status oa_node_require_str(const oa_node *n, const char *name, const char **out)
{
    return oa_attrs_get_str(&n->attrs, name, out) ? OA_OK : require_fail(n, name, "string");
}

oa_status oa_node_require_list_int(const oa_node *n, const char *name, const int64_t **v, size_t *count)
{
    return oa_attrs_get_list_int(&n->attrs, name, v, count) ? OA_OK : require_fail(n, name, "list_int");
}

oa_status oa_node_require_tensor(const oa_node *n, const char *name, const oa_tensor **out)
{
    return oa_attrs_get_tensor(&n->attrs, name, out) ? OA_OK : require_fail(n, name, "tensor");
}

/* ---- deep copies ---- */

const oa_value *oa_graph_copy_value(oa_graph *g, const oa_value *v)
{
    if (v == NULL) {
        return NULL;
    }
    oa_value *c = oa_arena_alloc(g->arena, sizeof(*c), 0);
    if (c == NULL) {
        return NULL;
    }
    *c = *v;
    size_t n = (size_t)v->count;
    if (v->i) {
        c->i = oa_arena_memdup(g->arena, v->i, n * sizeof(int64_t));
        if (c->i == NULL) {
            return NULL;
        }
    }
    if (v->f) {
        c->f = oa_arena_memdup(g->arena, v->f, n * sizeof(double));
        if (c->f == NULL) {
            return NULL;
        }
    }
    if (v->unknown) {
        c->unknown = oa_arena_memdup(g->arena, v->unknown, n);
        if (c->unknown == NULL) {
            return NULL;
        }
    }
    return c;
}

oa_status oa_graph_copy_desc(oa_graph *g, oa_tensor_desc *dst, const oa_tensor_desc *src)
{
    oa_tensor_desc tmp = *src;
    tmp.attrs.head = NULL;
    tmp.attrs.count = 0;
    if (src->name) {
        tmp.name = oa_arena_strdup(g->arena, src->name);
        if (tmp.name == NULL) {
            return OA_E_NOMEM;
        }
    }
    if (src->value) {
        tmp.value = oa_graph_copy_value(g, src->value);
        if (tmp.value == NULL) {
            return OA_E_NOMEM;
        }
    }
    for (const oa_attr *x = src->attrs.head; x; x = x->next) {
        oa_status st = oa_attrs_set_copy(g, &tmp.attrs, x);
        if (st != OA_OK) {
            return st;
        }
    }
    *dst = tmp;
    return OA_OK;
}

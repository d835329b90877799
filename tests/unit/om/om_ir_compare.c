/* Semantic IR comparison for the om round-trip tests (see om_ir_compare.h). */
#include "om_ir_compare.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef struct cmp {
    char *msg;
    size_t cap;
} cmp;

static int differ(cmp *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int differ(cmp *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(c->msg, c->cap, fmt, ap);
    va_end(ap);
    return -1;
}

static bool mem_eq(const void *a, const void *b, size_t n)
{
    return n == 0 || memcmp(a, b, n) == 0;
}

static bool str_eq(const char *a, const char *b)
{
    return strcmp(a != NULL ? a : "", b != NULL ? b : "") == 0;
}

static bool shape_eq(const oa_shape *a, const oa_shape *b)
{
    return a->rank == b->rank && (a->rank <= 0 || mem_eq(a->dims, b->dims, (size_t)a->rank * sizeof(int64_t)));
}

static int attrs_eq(cmp *c, const oa_attrs *a, const oa_attrs *b, const char *where);

static int desc_eq(cmp *c, const oa_tensor_desc *a, const oa_tensor_desc *b, const char *where)
{
    if (a->dtype != b->dtype || a->format != b->format || a->origin_format != b->origin_format ||
        !shape_eq(&a->shape, &b->shape) || a->origin_shape_set != b->origin_shape_set ||
        (a->origin_shape_set && !shape_eq(&a->origin_shape, &b->origin_shape)) || a->has_range != b->has_range ||
        !str_eq(a->name, b->name)) {
        char x[128], y[128];
        return differ(c, "%s: desc %s vs %s", where, oa_desc_str(a, x, sizeof(x)), oa_desc_str(b, y, sizeof(y)));
    }
    if (a->has_range && a->shape.rank > 0 &&
        (!mem_eq(a->range_min, b->range_min, (size_t)a->shape.rank * sizeof(int64_t)) ||
         !mem_eq(a->range_max, b->range_max, (size_t)a->shape.rank * sizeof(int64_t)))) {
        return differ(c, "%s: shape ranges differ", where);
    }
    return attrs_eq(c, &a->attrs, &b->attrs, where);
}

static int attr_eq(cmp *c, const oa_attr *x, const oa_attr *y, const char *where)
{
    if (x->type != y->type) {
        return differ(c, "%s: attr %s is %s vs %s", where, x->name, oa_attr_type_name(x->type),
                      oa_attr_type_name(y->type));
    }
    bool eq = true;
    switch (x->type) {
    case OA_ATTR_INT:
        eq = x->u.i == y->u.i;
        break;
    case OA_ATTR_FLOAT:
        eq = mem_eq(&x->u.f, &y->u.f, sizeof(float));
        break;
    case OA_ATTR_BOOL:
        eq = x->u.b == y->u.b;
        break;
    case OA_ATTR_DTYPE:
        eq = x->u.dt == y->u.dt;
        break;
    case OA_ATTR_STRING:
    case OA_ATTR_BYTES:
        eq = x->u.s.len == y->u.s.len && mem_eq(x->u.s.data, y->u.s.data, x->u.s.len);
        break;
    case OA_ATTR_LIST_INT:
        eq = x->u.li.n == y->u.li.n && mem_eq(x->u.li.v, y->u.li.v, x->u.li.n * sizeof(int64_t));
        break;
    case OA_ATTR_LIST_FLOAT:
        eq = x->u.lf.n == y->u.lf.n && mem_eq(x->u.lf.v, y->u.lf.v, x->u.lf.n * sizeof(float));
        break;
    case OA_ATTR_LIST_BOOL:
        eq = x->u.lb.n == y->u.lb.n && mem_eq(x->u.lb.v, y->u.lb.v, x->u.lb.n * sizeof(bool));
        break;
    case OA_ATTR_LIST_DTYPE:
        eq = x->u.ldt.n == y->u.ldt.n && mem_eq(x->u.ldt.v, y->u.ldt.v, x->u.ldt.n * sizeof(oa_dtype));
        break;
    case OA_ATTR_LIST_STRING:
        eq = x->u.ls.n == y->u.ls.n;
        for (size_t i = 0; eq && i < x->u.ls.n; ++i) {
            eq = str_eq(x->u.ls.v[i], y->u.ls.v[i]);
        }
        break;
    case OA_ATTR_LIST_LIST_INT:
        eq = x->u.lli.n == y->u.lli.n;
        for (size_t i = 0; eq && i < x->u.lli.n; ++i) {
            eq = x->u.lli.lens[i] == y->u.lli.lens[i] &&
                 mem_eq(x->u.lli.v[i], y->u.lli.v[i], x->u.lli.lens[i] * sizeof(int64_t));
        }
        break;
    case OA_ATTR_LIST_LIST_FLOAT:
        eq = x->u.llf.n == y->u.llf.n;
        for (size_t i = 0; eq && i < x->u.llf.n; ++i) {
            eq = x->u.llf.lens[i] == y->u.llf.lens[i] &&
                 mem_eq(x->u.llf.v[i], y->u.llf.v[i], x->u.llf.lens[i] * sizeof(float));
        }
        break;
    case OA_ATTR_TENSOR:
        if (x->u.t->size != y->u.t->size || !mem_eq(x->u.t->data, y->u.t->data, x->u.t->size)) {
            return differ(c, "%s: tensor attr %s holds other bytes", where, x->name);
        }
        return desc_eq(c, &x->u.t->desc, &y->u.t->desc, where);
    case OA_ATTR_TENSOR_DESC:
        return desc_eq(c, x->u.td, y->u.td, where);
    case OA_ATTR_GRAPH:
        eq = str_eq(x->u.graph, y->u.graph);
        break;
    case OA_ATTR_NAMED:
        if (!str_eq(x->u.na.name, y->u.na.name)) {
            return differ(c, "%s: named attrs %s have other names", where, x->name);
        }
        return attrs_eq(c, x->u.na.attrs, y->u.na.attrs, where);
    default:
        break;
    }
    return eq ? 0 : differ(c, "%s: attr %s differs", where, x->name);
}

static int attrs_eq(cmp *c, const oa_attrs *a, const oa_attrs *b, const char *where)
{
    if (a->count != b->count) {
        return differ(c, "%s: %u attrs vs %u", where, a->count, b->count);
    }
    for (const oa_attr *x = a->head; x != NULL; x = x->next) {
        const oa_attr *y = oa_attrs_find(b, x->name);
        if (y == NULL) {
            return differ(c, "%s: attr %s missing", where, x->name);
        }
        if (attr_eq(c, x, y, where) != 0) {
            return -1;
        }
    }
    return 0;
}

static int graph_eq(cmp *c, const oa_graph *a, const oa_graph *b)
{
    if (!str_eq(oa_graph_name(a), oa_graph_name(b)) || oa_graph_num_nodes(a) != oa_graph_num_nodes(b)) {
        return differ(c, "graph %s (%zu nodes) vs %s (%zu nodes)", oa_graph_name(a), oa_graph_num_nodes(a),
                      oa_graph_name(b), oa_graph_num_nodes(b));
    }
    if (attrs_eq(c, oa_graph_attrs((oa_graph *)(uintptr_t)a), oa_graph_attrs((oa_graph *)(uintptr_t)b),
                 oa_graph_name(a)) != 0) {
        return -1;
    }
    /* Nodes are matched by name: the writer stores them in topological
     * order, which may differ from the original list order. */
    for (const oa_node *x = oa_graph_first_node(a); x != NULL; x = x->next) {
        const oa_node *y = oa_graph_find_node(b, x->name);
        if (y == NULL) {
            return differ(c, "graph %s: node %s missing", oa_graph_name(a), x->name);
        }
        char where[256];
        (void)snprintf(where, sizeof(where), "graph %s node %s", oa_graph_name(a), x->name);
        if (!str_eq(x->name, y->name) || !str_eq(x->type_name, y->type_name) || x->num_inputs != y->num_inputs ||
            x->num_outputs != y->num_outputs || x->num_ctrl_inputs != y->num_ctrl_inputs ||
            x->num_subgraphs != y->num_subgraphs) {
            return differ(c, "%s: node %s/%s (%u in, %u out) vs %s/%s (%u in, %u out)", where, x->name, x->type_name,
                          x->num_inputs, x->num_outputs, y->name, y->type_name, y->num_inputs, y->num_outputs);
        }
        for (uint32_t i = 0; i < x->num_inputs; ++i) {
            const oa_input *p = &x->inputs[i], *q = &y->inputs[i];
            if ((p->src == NULL) != (q->src == NULL) ||
                (p->src != NULL && (!str_eq(p->src->name, q->src->name) || p->src_index != q->src_index))) {
                return differ(c, "%s: input %u differs", where, i);
            }
            if (desc_eq(c, &p->desc, &q->desc, where) != 0) {
                return -1;
            }
        }
        for (uint32_t i = 0; i < x->num_outputs; ++i) {
            if (desc_eq(c, &x->outputs[i].desc, &y->outputs[i].desc, where) != 0) {
                return -1;
            }
        }
        for (uint32_t i = 0; i < x->num_ctrl_inputs; ++i) {
            if (!str_eq(x->ctrl_inputs[i]->name, y->ctrl_inputs[i]->name)) {
                return differ(c, "%s: control input %u differs", where, i);
            }
        }
        if (attrs_eq(c, &x->attrs, &y->attrs, where) != 0) {
            return -1;
        }
        for (uint32_t s = 0; s < x->num_subgraphs; ++s) {
            if (!str_eq(x->subgraphs[s].ir_name, y->subgraphs[s].ir_name)) {
                return differ(c, "%s: subgraph slot %u is %s vs %s", where, s, x->subgraphs[s].ir_name,
                              y->subgraphs[s].ir_name);
            }
            if (graph_eq(c, x->subgraphs[s].graph, y->subgraphs[s].graph) != 0) {
                return -1;
            }
        }
    }
    return 0;
}

int om_ir_compare(const oa_graph *a, const oa_graph *b, char *msg, size_t cap)
{
    cmp c = {msg, cap};
    if (cap != 0) {
        msg[0] = '\0';
    }
    return graph_eq(&c, a, b);
}

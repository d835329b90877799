/*
 * Deep copy of a root graph with all its subgraphs (graph.h
 * oa_graph_clone), and copies of a graph's content into another graph
 * (oa_graph_copy_into). Node names are unique per graph, so edges are
 * rewired by name lookup in the copy.
 */
#define OA_LOG_MODULE "GE"
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "graph/graph_internal.h"

/* How a copy names things: `suffix` is appended to node and subgraph names
 * (NULL: names kept); keep_ids copies node ids (a clone into a fresh root). */
typedef struct copy_opts {
    const char *suffix;
    bool keep_ids;
} copy_opts;

static oa_status clone_into(const oa_graph *src, oa_graph *dst, const copy_opts *o);

/* Name of `name` in the copy: arena copy with the suffix, or name itself. */
static const char *copy_name(oa_graph *dst, const char *name, const copy_opts *o)
{
    if (o->suffix == NULL || o->suffix[0] == '\0') {
        return name;
    }
    return oa_arena_printf(dst->arena, "%s%s", name, o->suffix);
}

static oa_status clone_node(const oa_node *s, oa_graph *dst, const copy_opts *o)
{
    oa_node *n;
    const char *name = copy_name(dst, s->name, o);
    if (name == NULL) {
        return OA_E_NOMEM;
    }
    oa_status st = oa_graph_add_node_typed(dst, s->type_name, name, s->num_inputs, s->num_outputs, &n);
    if (st != OA_OK) {
        return st;
    }
    if (o->keep_ids) {
        n->id = s->id;
        if (s->id >= dst->root->next_id) {
            dst->root->next_id = s->id + 1;
        }
    }
    for (uint32_t i = 0; i < s->num_outputs; i++) {
        st = oa_graph_copy_desc(dst, &n->outputs[i].desc, &s->outputs[i].desc);
        if (st != OA_OK) {
            return st;
        }
    }
    for (const oa_attr *a = s->attrs.head; a; a = a->next) {
        st = oa_attrs_set_copy(dst, &n->attrs, a);
        if (st != OA_OK) {
            return st;
        }
    }
    for (uint32_t i = 0; i < s->num_subgraphs; i++) {
        const oa_graph *sg = s->subgraphs[i].graph;
        oa_graph *ng;
        const char *sg_name = copy_name(dst, sg->name, o);
        if (sg_name == NULL) {
            return OA_E_NOMEM;
        }
        st = oa_graph_create_subgraph(n, s->subgraphs[i].ir_name, sg_name, &ng);
        if (st != OA_OK) {
            return st;
        }
        st = clone_into(sg, ng, o);
        if (st != OA_OK) {
            return st;
        }
    }
    return OA_OK;
}

/* The copy of node `s` in dst (same name plus the suffix). */
static oa_node *find_copy(oa_graph *dst, const char *name, const copy_opts *o)
{
    if (o->suffix == NULL || o->suffix[0] == '\0') {
        return oa_graph_find_node(dst, name);
    }
    char buf[512];
    int len = snprintf(buf, sizeof(buf), "%s%s", name, o->suffix);
    if (len >= 0 && (size_t)len < sizeof(buf)) {
        return oa_graph_find_node(dst, buf);
    }
    char *big = oa_arena_printf(dst->arena, "%s%s", name, o->suffix);
    return big ? oa_graph_find_node(dst, big) : NULL;
}

static oa_status clone_edges(const oa_node *s, oa_graph *dst, const copy_opts *o)
{
    oa_node *n = find_copy(dst, s->name, o);
    if (n == NULL) {
        return OA_FAIL(OA_E_INTERNAL, "clone lost node %s", s->name);
    }
    for (uint32_t i = 0; i < s->num_inputs; i++) {
        const oa_input *in = &s->inputs[i];
        if (in->src != NULL) {
            oa_node *p = find_copy(dst, in->src->name, o);
            if (p == NULL) {
                return OA_FAIL(OA_E_GE_PARAM, "node %s input %u reads %s, which is not in graph %s", s->name, i,
                               in->src->name, dst->name);
            }
            oa_status st = oa_node_connect(n, i, p, in->src_index);
            if (st != OA_OK) {
                return st;
            }
        }
        oa_status st = oa_graph_copy_desc(dst, &n->inputs[i].desc, &in->desc);
        if (st != OA_OK) {
            return st;
        }
    }
    for (uint32_t i = 0; i < s->num_ctrl_inputs; i++) {
        oa_node *p = find_copy(dst, s->ctrl_inputs[i]->name, o);
        if (p == NULL) {
            return OA_FAIL(OA_E_GE_PARAM, "node %s has control input %s outside graph %s", s->name,
                           s->ctrl_inputs[i]->name, dst->name);
        }
        oa_status st = oa_node_add_control_input(n, p);
        if (st != OA_OK) {
            return st;
        }
    }
    return OA_OK;
}

static oa_status clone_into(const oa_graph *src, oa_graph *dst, const copy_opts *o)
{
    for (const oa_attr *a = src->attrs.head; a; a = a->next) {
        oa_status st = oa_attrs_set_copy(dst, &dst->attrs, a);
        if (st != OA_OK) {
            return st;
        }
    }
    for (const oa_node *s = src->first; s; s = s->next) {
        oa_status st = clone_node(s, dst, o);
        if (st != OA_OK) {
            return st;
        }
    }
    for (const oa_node *s = src->first; s; s = s->next) {
        oa_status st = clone_edges(s, dst, o);
        if (st != OA_OK) {
            return st;
        }
    }
    return OA_OK;
}

oa_status oa_graph_clone(const oa_graph *g, oa_graph **out)
{
    if (g == NULL || out == NULL) {
        return OA_FAIL(OA_E_PARAM, "clone arguments must not be null");
    }
    *out = NULL;
    if (g->root != g) {
        return OA_FAIL(OA_E_PARAM, "graph %s is a subgraph; clone its root", g->name);
    }
    oa_graph *c;
    oa_status st = oa_graph_create(g->name, &c);
    if (st != OA_OK) {
        return st;
    }
    const copy_opts o = {NULL, true};
    st = clone_into(g, c, &o);
    if (st != OA_OK) {
        oa_graph_destroy(c);
        return st;
    }
    if (g->next_id > c->next_id) {
        c->next_id = g->next_id;
    }
    *out = c;
    return OA_OK;
}

oa_status oa_graph_copy_into(const oa_graph *src, oa_graph *dst, const char *suffix)
{
    if (src == NULL || dst == NULL) {
        return OA_FAIL(OA_E_PARAM, "copy arguments must not be null");
    }
    if (dst->num_nodes != 0) {
        return OA_FAIL(OA_E_PARAM, "copy target graph %s is not empty (%zu nodes)", dst->name, dst->num_nodes);
    }
    if (src->root == dst->root && (suffix == NULL || suffix[0] == '\0')) {
        return OA_FAIL(OA_E_PARAM, "copy of graph %s into a graph of the same root needs a name suffix", src->name);
    }
    for (const oa_graph *p = dst; p != NULL; p = p->parent ? p->parent->graph : NULL) {
        if (p == src) {
            return OA_FAIL(OA_E_PARAM, "copy of graph %s into its own subgraph %s", src->name, dst->name);
        }
    }
    const copy_opts o = {suffix, false};
    return clone_into(src, dst, &o);
}

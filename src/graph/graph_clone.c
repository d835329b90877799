/*
 * Deep copy of a root graph with all its subgraphs (graph.h
 * oa_graph_clone). Node names are unique per graph, so edges are rewired
 * by name lookup in the copy.
 */
#define OA_LOG_MODULE "GE"
#include <string.h>

#include "base/error.h"
#include "graph/graph_internal.h"

static oa_status clone_into(const oa_graph *src, oa_graph *dst);

static oa_status clone_node(const oa_node *s, oa_graph *dst)
{
    oa_node *n;
    oa_status st = (s->type < OA_OP_COUNT)
                       ? oa_graph_add_node(dst, s->type, s->name, s->num_inputs, s->num_outputs, &n)
                       : oa_graph_add_node_typed(dst, s->type_name, s->name, s->num_inputs, s->num_outputs, &n);
    if (st != OA_OK) {
        return st;
    }
    n->id = s->id;
    if (s->id >= dst->root->next_id) {
        dst->root->next_id = s->id + 1;
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
        st = oa_graph_create_subgraph(n, s->subgraphs[i].ir_name, sg->name, &ng);
        if (st != OA_OK) {
            return st;
        }
        st = clone_into(sg, ng);
        if (st != OA_OK) {
            return st;
        }
    }
    return OA_OK;
}

static oa_status clone_edges(const oa_node *s, oa_graph *dst)
{
    oa_node *n = oa_graph_find_node(dst, s->name);
    if (n == NULL) {
        return OA_FAIL(OA_E_INTERNAL, "clone lost node %s", s->name);
    }
    for (uint32_t i = 0; i < s->num_inputs; i++) {
        const oa_input *in = &s->inputs[i];
        if (in->src != NULL) {
            oa_node *p = oa_graph_find_node(dst, in->src->name);
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
        oa_node *p = oa_graph_find_node(dst, s->ctrl_inputs[i]->name);
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

static oa_status clone_into(const oa_graph *src, oa_graph *dst)
{
    for (const oa_attr *a = src->attrs.head; a; a = a->next) {
        oa_status st = oa_attrs_set_copy(dst, &dst->attrs, a);
        if (st != OA_OK) {
            return st;
        }
    }
    for (const oa_node *s = src->first; s; s = s->next) {
        oa_status st = clone_node(s, dst);
        if (st != OA_OK) {
            return st;
        }
    }
    for (const oa_node *s = src->first; s; s = s->next) {
        oa_status st = clone_edges(s, dst);
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
    st = clone_into(g, c);
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

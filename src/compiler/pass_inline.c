/*
 * Control flow decided at compile time: an If/StatelessIf whose condition,
 * or a Case whose branch index, is a known constant is replaced by the
 * nodes of the branch it takes (silero's nested Ifs on constant flags):
 *
 *   c(Const true) ─┐
 *   x ─────────────┴─▶ If{then: x ─▶ Relu ─▶ out, else: ...} ─▶ y
 *   =>  x ─▶ Relu ─▶ y
 *
 * Branch Data nodes become the If's inputs, the branch results the If's
 * outputs; nested subgraphs are copied with a name suffix.
 */
#define OA_LOG_MODULE "GE"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "compiler/pass_util.h"
#include "compiler/passes.h"
#include "graph/infer.h"

typedef struct mapped {
    oa_node *node;
    uint32_t idx;
} mapped;

/* The branch a known selector picks, or NULL. */
static oa_graph *taken_branch(const oa_node *n)
{
    bool is_if = n->type == OA_OP_IF || n->type == OA_OP_STATELESS_IF;
    if ((!is_if && n->type != OA_OP_CASE) || n->num_inputs < 1 || n->inputs[0].src == NULL ||
        n->num_subgraphs == 0) {
        return NULL;
    }
    const oa_value *v = n->inputs[0].desc.value;
    if (v == NULL || v->count != 1 || !oa_value_all_known(v)) {
        return NULL;
    }
    if (is_if) {
        bool cond = v->f ? v->f[0] != 0.0 : v->i[0] != 0;
        return oa_node_subgraph_by_ir_name(n, cond ? "then_branch" : "else_branch");
    }
    int64_t sel = v->i ? v->i[0] : (int64_t)v->f[0];
    if (sel < 0 || sel >= (int64_t)n->num_subgraphs) {
        sel = (int64_t)n->num_subgraphs - 1; /* out of range: the last (default) branch */
    }
    return oa_node_subgraph(n, (uint32_t)sel);
}

/* Parent input bound to a branch Data (If and Case: input 0 is the selector). */
static uint32_t parent_slot(const oa_node *data)
{
    int64_t p;
    if (oa_attrs_get_int(&data->attrs, "_parent_node_index", &p)) {
        return (uint32_t)p;
    }
    return (uint32_t)(oa_node_attr_int(data, "index", 0) + 1);
}

/* Copies what a desc holds into dst (a desc of graph g): shape, types,
 * formats, ranges, name and attrs; values are left to inference. */
static oa_status copy_desc(oa_graph *g, oa_tensor_desc *dst, const oa_tensor_desc *src)
{
    dst->dtype = src->dtype;
    dst->format = src->format;
    dst->origin_format = src->origin_format;
    dst->shape = src->shape;
    dst->origin_shape_set = src->origin_shape_set;
    dst->origin_shape = src->origin_shape;
    dst->has_range = src->has_range;
    memcpy(dst->range_min, src->range_min, sizeof(dst->range_min));
    memcpy(dst->range_max, src->range_max, sizeof(dst->range_max));
    dst->value = NULL;
    if (src->name != NULL) {
        dst->name = oa_arena_strdup(oa_graph_arena(g), src->name);
        if (dst->name == NULL) {
            return OA_E_NOMEM;
        }
    }
    for (const oa_attr *a = src->attrs.head; a; a = a->next) {
        oa_status st = oa_attrs_set_copy(g, &dst->attrs, a);
        if (st != OA_OK) {
            return st;
        }
    }
    return OA_OK;
}

/* Inlines branch sg of node n into n's graph. */
static oa_status inline_branch(oa_node *n, oa_graph *sg)
{
    oa_graph *g = n->graph;
    oa_node **order;
    size_t count;
    oa_status st = oa_graph_topo_order(sg, &order, &count);
    if (st != OA_OK) {
        return st;
    }
    mapped *map = calloc(count ? count : 1, sizeof(*map));
    mapped *results = calloc(n->num_outputs + 1, sizeof(*results));
    if (map == NULL || results == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "out of memory inlining %s", n->name);
        goto done;
    }
    for (size_t i = 0; i < count; i++) {
        order[i]->mark = (uint32_t)i;
    }
    /* Node ids are unique in the root: so are the names of the copied subgraphs. */
    char suffix[48];
    snprintf(suffix, sizeof(suffix), "_inl%u", n->id);
    for (size_t i = 0; i < count && st == OA_OK; i++) {
        oa_node *s = order[i];
        if (s->type == OA_OP_DATA) {
            uint32_t p = parent_slot(s), si = 0;
            oa_node *src = p < n->num_inputs ? oa_node_input_src(n, p, &si) : NULL;
            if (src == NULL) {
                st = OA_FAIL(OA_E_GE_PARAM, "branch %s Data %s binds input %u of %s, which is not connected",
                             oa_graph_name(sg), s->name, p, n->name);
                break;
            }
            map[i] = (mapped){src, si};
            continue;
        }
        if (s->type == OA_OP_NET_OUTPUT) {
            for (uint32_t j = 0; j < s->num_inputs && j < n->num_outputs; j++) {
                uint32_t si;
                oa_node *src = oa_node_input_src(s, j, &si);
                if (src == NULL) {
                    st = OA_FAIL(OA_E_GE_PARAM, "branch %s result %u is not connected", oa_graph_name(sg), j);
                    break;
                }
                results[j] = (mapped){map[src->mark].node, src->type == OA_OP_DATA ? map[src->mark].idx : si};
            }
            continue;
        }
        const char *name = oa_graph_unique_name(g, s->name);
        oa_node *c;
        st = name ? (s->type < OA_OP_COUNT ? oa_graph_add_node(g, s->type, name, s->num_inputs, s->num_outputs, &c)
                                           : oa_graph_add_node_typed(g, s->type_name, name, s->num_inputs,
                                                                     s->num_outputs, &c))
                  : OA_E_NOMEM;
        for (const oa_attr *a = s->attrs.head; a && st == OA_OK; a = a->next) {
            st = oa_attrs_set_copy(g, &c->attrs, a);
        }
        for (uint32_t k = 0; k < s->num_outputs && st == OA_OK; k++) {
            st = copy_desc(g, &c->outputs[k].desc, &s->outputs[k].desc);
        }
        for (uint32_t k = 0; k < s->num_inputs && st == OA_OK; k++) {
            uint32_t si;
            oa_node *src = oa_node_input_src(s, k, &si);
            if (src != NULL) {
                mapped m = map[src->mark];
                st = oa_node_connect(c, k, m.node, src->type == OA_OP_DATA ? m.idx : si);
            }
            if (st == OA_OK) {
                c->inputs[k].desc.format = s->inputs[k].desc.format;
                c->inputs[k].desc.origin_format = s->inputs[k].desc.origin_format;
            }
        }
        for (uint32_t k = 0; k < s->num_ctrl_inputs && st == OA_OK; k++) {
            st = oa_node_add_control_input(c, map[s->ctrl_inputs[k]->mark].node);
        }
        for (uint32_t k = 0; k < s->num_subgraphs && st == OA_OK; k++) {
            char sname[512];
            snprintf(sname, sizeof(sname), "%s%s", oa_graph_name(s->subgraphs[k].graph), suffix);
            oa_graph *ns;
            st = oa_graph_create_subgraph(c, s->subgraphs[k].ir_name, sname, &ns);
            if (st == OA_OK) {
                st = oa_graph_copy_into(s->subgraphs[k].graph, ns, suffix);
            }
        }
        map[i] = (mapped){c, 0};
    }
    for (uint32_t j = 0; j < n->num_outputs && st == OA_OK; j++) {
        if (results[j].node == NULL) {
            st = OA_FAIL(OA_E_GE_PARAM, "branch %s returns fewer results than %s has outputs", oa_graph_name(sg),
                         n->name);
        } else {
            st = oa_graph_replace_uses(n, j, results[j].node, results[j].idx, NULL);
        }
    }
    for (size_t i = 0; i < count; i++) {
        order[i]->mark = 0;
    }
    if (st == OA_OK) {
        st = oa_cp_remove_if_unused(n); /* with its subgraphs */
    }
done:
    free(order);
    free(map);
    free(results);
    return st;
}

static oa_status inline_graph(oa_graph *g, size_t *changed)
{
    bool again = true;
    while (again) {
        again = false;
        for (oa_node *n = oa_graph_first_node(g); n; n = n->next) {
            oa_graph *sg = taken_branch(n);
            if (sg == NULL) {
                continue;
            }
            oa_status st = inline_branch(n, sg);
            if (st != OA_OK) {
                return st;
            }
            if (changed) {
                (*changed)++;
            }
            again = true;
            break;
        }
    }
    return oa_graph_topo_sort(g);
}

oa_status oa_pass_inline_known_branches(oa_graph *g, size_t *changed)
{
    return oa_cp_for_each_graph(g, inline_graph, changed);
}

/*
 * Clean-up passes: identity/dropout removal, dead-code elimination, and the
 * static-vs-dynamic classification.
 */
#define OA_LOG_MODULE "GE"
#include <stdlib.h>

#include "base/error.h"
#include "compiler/pass_util.h"
#include "compiler/passes.h"
#include "graph/infer.h"

/* True when n's output 0 is its input 0 unchanged. */
static bool forwards_input(const oa_node *n)
{
    if (n->num_inputs < 1 || n->inputs[0].src == NULL || n->num_outputs != 1) {
        return false;
    }
    const oa_tensor_desc *in = &n->inputs[0].desc, *out = &n->outputs[0].desc;
    switch (n->type) {
    case OA_OP_IDENTITY:
        return true;
    case OA_OP_CAST: {
        int64_t dst;
        return oa_attrs_get_int(&n->attrs, "dst_type", &dst) && dst == (int64_t)in->dtype &&
               out->dtype == in->dtype;
    }
    case OA_OP_CONCAT_D:
    case OA_OP_CONCAT_V2_D:
        return n->num_inputs == 1;
    case OA_OP_RESHAPE:
    case OA_OP_FLATTEN:
    case OA_OP_FLATTEN_V2:
    case OA_OP_SQUEEZE:
    case OA_OP_SQUEEZE_V3:
    case OA_OP_UNSQUEEZE:
    case OA_OP_UNSQUEEZE_V3:
    case OA_OP_EXPAND_DIMS:
    case OA_OP_EXPAND:
    case OA_OP_BROADCAST_TO:
    case OA_OP_TILE:
    case OA_OP_TILE_D:
        return oa_shape_is_static(&in->shape) && oa_shape_equal(&in->shape, &out->shape) &&
               in->dtype == out->dtype;
    default:
        return false;
    }
}

static oa_status remove_identity_one(oa_graph *g, size_t *changed)
{
    oa_node *next;
    for (oa_node *n = oa_graph_first_node(g); n; n = next) {
        next = n->next;
        if (!forwards_input(n)) {
            continue;
        }
        uint32_t src_idx;
        oa_node *src = oa_node_input_src(n, 0, &src_idx);
        oa_status st = oa_cp_replace_and_remove(n, 0, src, src_idx);
        if (st != OA_OK) {
            return st;
        }
        if (changed) {
            (*changed)++;
        }
    }
    return OA_OK;
}

oa_status oa_pass_remove_identity(oa_graph *g, size_t *changed)
{
    return oa_cp_for_each_graph(g, remove_identity_one, changed);
}

static bool removable(const oa_node *n)
{
    return n->type != OA_OP_DATA && n->type != OA_OP_NET_OUTPUT;
}

oa_status oa_cp_dce_local(oa_graph *g, size_t *changed)
{
    oa_node **order;
    size_t count;
    oa_status st = oa_graph_topo_order(g, &order, &count);
    if (st != OA_OK) {
        return st;
    }
    /* Reverse topological order: consumers go before their producers are looked at. */
    for (size_t i = count; i-- > 0 && st == OA_OK;) {
        oa_node *n = order[i];
        if (!removable(n)) {
            continue;
        }
        bool used = false;
        for (uint32_t k = 0; k < n->num_outputs && !used; k++) {
            used = oa_cp_num_uses(n, k) > 0;
        }
        if (used) {
            continue;
        }
        st = oa_cp_remove_if_unused(n);
        if (st == OA_OK && changed) {
            (*changed)++;
        }
    }
    free(order);
    return st;
}

oa_status oa_pass_dce(oa_graph *g, size_t *changed)
{
    return oa_cp_for_each_graph(g, oa_cp_dce_local, changed);
}

oa_shape_class oa_pass_classify(const oa_graph *g, const oa_node **first_dynamic)
{
    const oa_node *first = NULL;
    bool fixed = oa_graph_fully_static(g, &first);
    if (first_dynamic) {
        *first_dynamic = fixed ? NULL : first;
    }
    return fixed ? OA_SHAPES_STATIC : OA_SHAPES_DYNAMIC;
}

/*
 * Graph helpers: every graph of a root, and replacing a Const by a
 * FileConstant (or back) while keeping its consumers.
 */
#define OA_LOG_MODULE "GE"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "file_constant/fc_internal.h"

oa_status fc_all_graphs(const oa_graph *root, oa_graph ***out, size_t *n)
{
    size_t ns = oa_graph_subgraphs(root, NULL, 0);
    oa_graph **v = malloc((ns + 1) * sizeof *v);
    if (v == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory listing graphs");
    }
    v[0] = (oa_graph *)(uintptr_t)root;
    (void)oa_graph_subgraphs(root, v + 1, ns);
    *out = v;
    *n = ns + 1;
    return OA_OK;
}

static bool dropped(const char *const *drop, const char *name)
{
    for (size_t i = 0; drop != NULL && drop[i] != NULL; i++) {
        if (strcmp(drop[i], name) == 0) {
            return true;
        }
    }
    return false;
}

oa_status fc_replace_node(oa_node *old, oa_op_type type, const char *name, const char *const *drop, oa_node **out)
{
    oa_graph *g = old->graph;
    oa_status st;
    if (strcmp(old->name, name) == 0 || oa_graph_find_node(g, name) != NULL) {
        if (strcmp(old->name, name) != 0) {
            return OA_FAIL(OA_E_GE_FAILURE, "cannot rename [%s] to [%s]: graph [%s] already has such a node",
                           old->name, name, oa_graph_name(g));
        }
        const char *tmp = oa_graph_unique_name(g, "__oa_fc_replaced");
        if (tmp == NULL) {
            return OA_E_NOMEM;
        }
        if ((st = oa_node_rename(old, tmp)) != OA_OK) {
            return st;
        }
    }
    oa_node *nn;
    if ((st = oa_graph_add_node(g, type, name, 0, 1, &nn)) != OA_OK) {
        return st;
    }
    /* The desc (shape, dtype, formats, attrs) lives in the same arena and the
     * old node is detached below, never to be changed again. */
    nn->outputs[0].desc = old->outputs[0].desc;
    for (const oa_attr *a = old->attrs.head; a; a = a->next) {
        if (dropped(drop, a->name)) {
            continue;
        }
        if ((st = oa_attrs_set_copy(g, &nn->attrs, a)) != OA_OK) {
            return st;
        }
    }
    for (uint32_t i = 0; i < old->num_ctrl_inputs; i++) {
        if ((st = oa_node_add_control_input(nn, old->ctrl_inputs[i])) != OA_OK) {
            return st;
        }
    }
    for (uint32_t o = 0; o < old->num_outputs; o++) {
        if ((st = oa_graph_replace_uses(old, o, nn, 0, NULL)) != OA_OK) {
            return st;
        }
    }
    size_t nc = oa_node_control_uses(old, NULL, 0);
    if (nc > 0) {
        oa_node **users = malloc(nc * sizeof *users);
        if (users == NULL) {
            return OA_FAIL(OA_E_NOMEM, "out of memory moving control edges of [%s]", old->name);
        }
        (void)oa_node_control_uses(old, users, nc);
        for (size_t i = 0; i < nc && st == OA_OK; i++) {
            (void)oa_node_remove_control_input(users[i], old);
            st = oa_node_add_control_input(users[i], nn);
        }
        free(users);
        if (st != OA_OK) {
            return st;
        }
    }
    if ((st = oa_graph_remove_node(g, old)) != OA_OK) {
        return st;
    }
    *out = nn;
    return OA_OK;
}

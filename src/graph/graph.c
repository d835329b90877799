/*
 * Graph and node lifecycle, edges, node list mutation and graph I/O
 * queries (graph.h). Attributes live in attr.c, algorithms (topological
 * order, validation) in graph_algo.c, cloning in graph_clone.c, text dumps
 * in graph_dump.c.
 */
#define OA_LOG_MODULE "GE"
#include "graph/graph_internal.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"

#define MAX_SLOTS 65535u

/* ---------------------------------------------------------------- graphs */

static oa_status graph_init(oa_graph *g, oa_arena *arena, oa_graph *root, oa_node *parent, const char *name)
{
    g->arena = arena;
    g->root = root ? root : g;
    g->parent = parent;
    oa_strmap_init(&g->names);
    oa_strmap_init(&g->graph_names);
    g->name = oa_arena_strdup(arena, name);
    return g->name ? OA_OK : OA_E_NOMEM;
}

oa_status oa_graph_create(const char *name, oa_graph **out)
{
    if (out == NULL || name == NULL) {
        return OA_FAIL(OA_E_PARAM, "graph name and output pointer must not be null");
    }
    *out = NULL;
    oa_arena *arena = oa_arena_create(0);
    if (arena == NULL) {
        return OA_E_NOMEM;
    }
    oa_graph *g = oa_arena_alloc(arena, sizeof(*g), 0);
    if (g == NULL) {
        oa_arena_destroy(arena);
        return OA_E_NOMEM;
    }
    oa_status st = graph_init(g, arena, NULL, NULL, name);
    if (st != OA_OK) {
        oa_arena_destroy(arena);
        return st;
    }
    *out = g;
    return OA_OK;
}

void oa_graph_destroy(oa_graph *g)
{
    if (g == NULL || g->root != g) {
        return;
    }
    for (size_t i = 0; i < g->num_all; i++) {
        oa_strmap_deinit(&g->all_subgraphs[i]->names);
    }
    free(g->all_subgraphs);
    for (size_t i = 0; i < g->num_blobs; i++) {
        oa_blob_release(g->blobs[i]);
    }
    free(g->blobs);
    oa_strmap_deinit(&g->names);
    oa_strmap_deinit(&g->graph_names);
    oa_arena_destroy(g->arena);
}

oa_status oa_graph_hold_blob(oa_graph *g, oa_blob *b)
{
    oa_graph *r = g->root;
    for (size_t i = 0; i < r->num_blobs; i++) {
        if (r->blobs[i] == b) {
            return OA_OK;
        }
    }
    if (r->num_blobs == r->blob_cap) {
        size_t ncap = r->blob_cap ? r->blob_cap * 2 : 4;
        oa_blob **nb = realloc(r->blobs, ncap * sizeof(*nb));
        if (nb == NULL) {
            return OA_FAIL(OA_E_NOMEM, "cannot track blob references");
        }
        r->blobs = nb;
        r->blob_cap = ncap;
    }
    r->blobs[r->num_blobs++] = oa_blob_retain(b);
    return OA_OK;
}

static bool graph_name_taken(const oa_graph *root, const char *name)
{
    return strcmp(root->name, name) == 0 || oa_strmap_contains(&root->graph_names, name);
}

oa_status oa_graph_create_subgraph(oa_node *parent, const char *ir_name, const char *name, oa_graph **out)
{
    if (parent == NULL || ir_name == NULL || name == NULL || out == NULL) {
        return OA_FAIL(OA_E_PARAM, "subgraph parent, slot name, name and output must not be null");
    }
    *out = NULL;
    oa_graph *root = parent->graph->root;
    if (graph_name_taken(root, name)) {
        return OA_FAIL(OA_E_PARAM, "graph name [%s] is already used in root graph [%s]", name, root->name);
    }
    if (parent->num_subgraphs == parent->subgraph_cap) {
        uint32_t ncap = parent->subgraph_cap ? parent->subgraph_cap * 2 : 2;
        oa_subgraph_ref *ns = oa_arena_array(root->arena, ncap, sizeof(*ns));
        if (ns == NULL) {
            return OA_E_NOMEM;
        }
        if (parent->num_subgraphs) {
            memcpy(ns, parent->subgraphs, parent->num_subgraphs * sizeof(*ns));
        }
        parent->subgraphs = ns;
        parent->subgraph_cap = ncap;
    }
    if (root->num_all == root->all_cap) {
        size_t ncap = root->all_cap ? root->all_cap * 2 : 8;
        oa_graph **na = realloc(root->all_subgraphs, ncap * sizeof(*na));
        if (na == NULL) {
            return OA_FAIL(OA_E_NOMEM, "cannot track subgraphs");
        }
        root->all_subgraphs = na;
        root->all_cap = ncap;
    }
    oa_graph *g = oa_arena_alloc(root->arena, sizeof(*g), 0);
    const char *slot = oa_arena_strdup(root->arena, ir_name);
    if (g == NULL || slot == NULL) {
        return OA_E_NOMEM;
    }
    oa_status st = graph_init(g, root->arena, root, parent, name);
    if (st != OA_OK) {
        return st;
    }
    root->all_subgraphs[root->num_all++] = g;
    st = oa_strmap_put(&root->graph_names, g->name, g);
    if (st != OA_OK) {
        return st;
    }
    parent->subgraphs[parent->num_subgraphs].ir_name = slot;
    parent->subgraphs[parent->num_subgraphs].graph = g;
    parent->num_subgraphs++;
    *out = g;
    return OA_OK;
}

const char *oa_graph_name(const oa_graph *g)
{
    return g ? g->name : NULL;
}

oa_graph *oa_graph_root(const oa_graph *g)
{
    return g ? g->root : NULL;
}

oa_node *oa_graph_parent_node(const oa_graph *g)
{
    return g ? g->parent : NULL;
}

oa_arena *oa_graph_arena(const oa_graph *g)
{
    return g ? g->arena : NULL;
}

oa_attrs *oa_graph_attrs(oa_graph *g)
{
    return g ? &g->attrs : NULL;
}

oa_status oa_graph_rename(oa_graph *g, const char *name)
{
    if (g == NULL || name == NULL) {
        return OA_FAIL(OA_E_PARAM, "graph and name must not be null");
    }
    if (strcmp(g->name, name) == 0) {
        return OA_OK;
    }
    if (graph_name_taken(g->root, name)) {
        return OA_FAIL(OA_E_PARAM, "graph name [%s] is already used", name);
    }
    const char *copy = oa_arena_strdup(g->arena, name);
    if (copy == NULL) {
        return OA_E_NOMEM;
    }
    if (g->root != g) {
        (void)oa_strmap_remove(&g->root->graph_names, g->name);
        oa_status st = oa_strmap_put(&g->root->graph_names, copy, g);
        if (st != OA_OK) {
            return st;
        }
    }
    g->name = copy;
    return OA_OK;
}

oa_node *oa_graph_first_node(const oa_graph *g)
{
    return g ? g->first : NULL;
}

oa_node *oa_graph_last_node(const oa_graph *g)
{
    return g ? g->last : NULL;
}

size_t oa_graph_num_nodes(const oa_graph *g)
{
    return g ? g->num_nodes : 0;
}

oa_node *oa_graph_find_node(const oa_graph *g, const char *name)
{
    return (g && name) ? oa_strmap_get(&g->names, name) : NULL;
}

static void collect_subgraphs(const oa_graph *g, oa_graph **out, size_t cap, size_t *n)
{
    for (const oa_node *nd = g->first; nd; nd = nd->next) {
        for (uint32_t i = 0; i < nd->num_subgraphs; i++) {
            oa_graph *s = nd->subgraphs[i].graph;
            if (*n < cap) {
                out[*n] = s;
            }
            (*n)++;
            collect_subgraphs(s, out, cap, n);
        }
    }
}

size_t oa_graph_subgraphs(const oa_graph *root, oa_graph **out, size_t cap)
{
    size_t n = 0;
    if (root != NULL) {
        collect_subgraphs(root, out, cap, &n);
    }
    return n;
}

oa_graph *oa_graph_find_subgraph(const oa_graph *g, const char *name)
{
    return (g && name) ? oa_strmap_get(&g->root->graph_names, name) : NULL;
}

/* ----------------------------------------------------------------- nodes */

static oa_status alloc_node(oa_graph *g, oa_op_type type, const char *type_name, const char *name,
                            uint32_t num_inputs, uint32_t num_outputs, oa_node **out)
{
    if (g == NULL || name == NULL || out == NULL || type_name == NULL) {
        return OA_FAIL(OA_E_PARAM, "graph, node name, type and output must not be null");
    }
    *out = NULL;
    if (num_inputs > MAX_SLOTS || num_outputs > MAX_SLOTS) {
        return OA_FAIL(OA_E_PARAM, "node [%s] has too many slots (%u inputs, %u outputs, max %u)", name,
                       num_inputs, num_outputs, MAX_SLOTS);
    }
    if (oa_strmap_contains(&g->names, name)) {
        return OA_FAIL(OA_E_PARAM, "node name [%s] is already used in graph [%s]", name, g->name);
    }
    oa_node *n = oa_arena_alloc(g->arena, sizeof(*n), 0);
    if (n == NULL) {
        return OA_E_NOMEM;
    }
    n->graph = g;
    n->type = type;
    n->name = oa_arena_strdup(g->arena, name);
    /* a listed type under another GE name (AippData, a Data op: graph/op.h) keeps that name */
    n->type_name = (type < OA_OP_COUNT && strcmp(type_name, oa_op_type_name(type)) == 0)
                       ? oa_op_type_name(type)
                       : oa_arena_strdup(g->arena, type_name);
    if (n->name == NULL || n->type_name == NULL) {
        return OA_E_NOMEM;
    }
    if (num_inputs) {
        n->inputs = oa_arena_array(g->arena, num_inputs, sizeof(*n->inputs));
        if (n->inputs == NULL) {
            return OA_E_NOMEM;
        }
        for (uint32_t i = 0; i < num_inputs; i++) {
            oa_desc_init_invalid(&n->inputs[i].desc);
        }
    }
    if (num_outputs) {
        n->outputs = oa_arena_array(g->arena, num_outputs, sizeof(*n->outputs));
        if (n->outputs == NULL) {
            return OA_E_NOMEM;
        }
        for (uint32_t i = 0; i < num_outputs; i++) {
            oa_desc_init(&n->outputs[i].desc);
        }
    }
    n->num_inputs = num_inputs;
    n->num_outputs = num_outputs;
    oa_status st = oa_strmap_put(&g->names, n->name, n);
    if (st != OA_OK) {
        return st;
    }
    n->id = g->root->next_id++;
    n->prev = g->last;
    if (g->last) {
        g->last->next = n;
    } else {
        g->first = n;
    }
    g->last = n;
    g->num_nodes++;
    *out = n;
    return OA_OK;
}

oa_status oa_graph_add_node(oa_graph *g, oa_op_type type, const char *name, uint32_t num_inputs,
                            uint32_t num_outputs, oa_node **out)
{
    if ((unsigned)type >= OA_OP_COUNT) {
        return OA_FAIL(OA_E_PARAM, "op type %d is not a listed type; use oa_graph_add_node_typed", (int)type);
    }
    return alloc_node(g, type, oa_op_type_name(type), name, num_inputs, num_outputs, out);
}

oa_status oa_graph_add_node_typed(oa_graph *g, const char *type_name, const char *name, uint32_t num_inputs,
                                  uint32_t num_outputs, oa_node **out)
{
    if (type_name == NULL || type_name[0] == '\0') {
        return OA_FAIL(OA_E_PARAM, "node [%s] needs a type name", name ? name : "(null)");
    }
    return alloc_node(g, oa_op_type_from_name(type_name), type_name, name, num_inputs, num_outputs, out);
}

oa_status oa_graph_add_data(oa_graph *g, const char *name, int64_t index, oa_dtype dt, const oa_shape *shape,
                            oa_format fmt, oa_node **out)
{
    oa_node *n;
    oa_status st = oa_graph_add_node(g, OA_OP_DATA, name, 1, 1, &n);
    if (st != OA_OK) {
        return st;
    }
    for (int k = 0; k < 2; k++) {
        oa_tensor_desc *d = k ? &n->outputs[0].desc : &n->inputs[0].desc;
        oa_desc_set(d, dt, shape);
        d->format = fmt;
        d->origin_format = fmt;
    }
    st = oa_node_set_int(n, "index", index);
    if (st == OA_OK && out) {
        *out = n;
    }
    return st;
}

oa_status oa_graph_add_const(oa_graph *g, const char *name, const oa_tensor *t, oa_node **out)
{
    if (t == NULL) {
        return OA_FAIL(OA_E_PARAM, "const [%s] needs a tensor", name ? name : "(null)");
    }
    oa_node *n;
    oa_status st = oa_graph_add_node(g, OA_OP_CONST, name, 0, 1, &n);
    if (st != OA_OK) {
        return st;
    }
    st = oa_node_set_tensor(n, "value", t);
    if (st != OA_OK) {
        return st;
    }
    st = oa_graph_copy_desc(g, &n->outputs[0].desc, &t->desc);
    if (st == OA_OK && out) {
        *out = n;
    }
    return st;
}

oa_status oa_graph_add_net_output(oa_graph *g, const char *name, uint32_t count, oa_node **out)
{
    return oa_graph_add_node(g, OA_OP_NET_OUTPUT, name, count, count, out);
}

oa_status oa_graph_make_tensor(oa_graph *g, oa_dtype dt, const oa_shape *shape, const void *data, size_t size,
                               oa_tensor **out)
{
    if (g == NULL || shape == NULL || out == NULL) {
        return OA_FAIL(OA_E_PARAM, "tensor arguments must not be null");
    }
    *out = NULL;
    size_t expect;
    if (oa_tensor_nbytes(dt, shape, &expect) && expect != size) {
        char sb[128];
        return OA_FAIL(OA_E_PARAM, "tensor %s%s needs %zu bytes, got %zu", oa_dtype_name(dt),
                       oa_shape_str(shape, sb, sizeof(sb)), expect, size);
    }
    oa_tensor *t = oa_arena_alloc(g->arena, sizeof(*t), 0);
    if (t == NULL) {
        return OA_E_NOMEM;
    }
    oa_desc_set(&t->desc, dt, shape);
    if (size > 0) {
        void *p = oa_arena_alloc(g->arena, size, 64);
        if (p == NULL) {
            return OA_E_NOMEM;
        }
        if (data != NULL) {
            memcpy(p, data, size);
        }
        t->data = p;
    }
    t->size = size;
    *out = t;
    return OA_OK;
}

oa_status oa_graph_make_tensor_borrowed(oa_graph *g, oa_dtype dt, const oa_shape *shape, oa_blob *blob,
                                        size_t offset, size_t size, oa_tensor **out)
{
    if (g == NULL || shape == NULL || blob == NULL || out == NULL) {
        return OA_FAIL(OA_E_PARAM, "tensor arguments must not be null");
    }
    *out = NULL;
    size_t end;
    if (!oa_add_size(offset, size, &end) || end > oa_blob_size(blob)) {
        return OA_FAIL(OA_E_PARAM, "tensor range [%zu, +%zu) exceeds its buffer of %zu bytes", offset, size,
                       oa_blob_size(blob));
    }
    size_t expect;
    if (oa_tensor_nbytes(dt, shape, &expect) && expect != size) {
        char sb[128];
        return OA_FAIL(OA_E_PARAM, "tensor %s%s needs %zu bytes, got %zu", oa_dtype_name(dt),
                       oa_shape_str(shape, sb, sizeof(sb)), expect, size);
    }
    oa_tensor *t = oa_arena_alloc(g->arena, sizeof(*t), 0);
    if (t == NULL) {
        return OA_E_NOMEM;
    }
    oa_status st = oa_graph_hold_blob(g, blob);
    if (st != OA_OK) {
        return st;
    }
    oa_desc_set(&t->desc, dt, shape);
    t->data = size ? (const unsigned char *)oa_blob_data(blob) + offset : NULL;
    t->size = size;
    t->blob = blob;
    *out = t;
    return OA_OK;
}

oa_status oa_graph_make_tensor_borrowed_ptr(oa_graph *g, oa_dtype dt, const oa_shape *shape, oa_blob *blob,
                                            const void *data, size_t size, oa_tensor **out)
{
    if (g == NULL || shape == NULL || blob == NULL || out == NULL || (data == NULL && size != 0)) {
        return OA_FAIL(OA_E_PARAM, "tensor arguments must not be null");
    }
    *out = NULL;
    size_t expect;
    if (oa_tensor_nbytes(dt, shape, &expect) && expect != size) {
        char sb[128];
        return OA_FAIL(OA_E_PARAM, "tensor %s%s needs %zu bytes, got %zu", oa_dtype_name(dt),
                       oa_shape_str(shape, sb, sizeof(sb)), expect, size);
    }
    oa_tensor *t = oa_arena_alloc(g->arena, sizeof(*t), 0);
    if (t == NULL) {
        return OA_E_NOMEM;
    }
    oa_status st = oa_graph_hold_blob(g, blob);
    if (st != OA_OK) {
        return st;
    }
    oa_desc_set(&t->desc, dt, shape);
    t->data = size ? data : NULL;
    t->size = size;
    t->blob = blob;
    *out = t;
    return OA_OK;
}

/* ----------------------------------------------------------------- edges */

void oa_node_refresh_input(oa_node *n, uint32_t i)
{
    oa_input *in = &n->inputs[i];
    if (in->src == NULL || in->src_index >= in->src->num_outputs) {
        return;
    }
    const oa_tensor_desc *s = &in->src->outputs[in->src_index].desc;
    in->desc.dtype = s->dtype;
    in->desc.shape = s->shape;
    in->desc.origin_shape = s->origin_shape;
    in->desc.origin_shape_set = s->origin_shape_set;
    in->desc.has_range = s->has_range;
    memcpy(in->desc.range_min, s->range_min, sizeof(s->range_min));
    memcpy(in->desc.range_max, s->range_max, sizeof(s->range_max));
    in->desc.value = s->value;
}

oa_status oa_node_connect(oa_node *dst, uint32_t dst_idx, oa_node *src, uint32_t src_idx)
{
    if (dst == NULL || src == NULL) {
        return OA_FAIL(OA_E_PARAM, "cannot connect a null node");
    }
    if (dst->graph != src->graph) {
        return OA_FAIL(OA_E_PARAM, "cannot connect [%s] (graph %s) to [%s] (graph %s): different graphs", src->name,
                       src->graph->name, dst->name, dst->graph->name);
    }
    if (dst->removed || src->removed) {
        return OA_FAIL(OA_E_PARAM, "cannot connect removed node [%s]", dst->removed ? dst->name : src->name);
    }
    if (dst_idx >= dst->num_inputs) {
        return OA_FAIL(OA_E_PARAM, "node [%s] has %u inputs, cannot connect input %u", dst->name, dst->num_inputs,
                       dst_idx);
    }
    if (src_idx >= src->num_outputs) {
        return OA_FAIL(OA_E_PARAM, "node [%s] has %u outputs, cannot use output %u", src->name, src->num_outputs,
                       src_idx);
    }
    oa_input *in = &dst->inputs[dst_idx];
    bool was_unconnected = in->src == NULL;
    in->src = src;
    in->src_index = src_idx;
    if (was_unconnected) {
        const oa_tensor_desc *s = &src->outputs[src_idx].desc;
        in->desc.format = s->format;
        in->desc.origin_format = s->origin_format;
    }
    oa_node_refresh_input(dst, dst_idx);
    return OA_OK;
}

void oa_node_disconnect(oa_node *dst, uint32_t dst_idx)
{
    if (dst == NULL || dst_idx >= dst->num_inputs || dst->inputs[dst_idx].src == NULL) {
        return;
    }
    dst->inputs[dst_idx].src = NULL;
    dst->inputs[dst_idx].src_index = 0;
    oa_desc_init_invalid(&dst->inputs[dst_idx].desc);
}

oa_status oa_node_set_num_inputs(oa_node *n, uint32_t count)
{
    if (n == NULL || count > MAX_SLOTS) {
        return OA_FAIL(OA_E_PARAM, "bad input count %u", count);
    }
    if (count <= n->num_inputs) {
        for (uint32_t i = count; i < n->num_inputs; i++) {
            oa_node_disconnect(n, i);
        }
        n->num_inputs = count;
        return OA_OK;
    }
    oa_input *ni = oa_arena_array(n->graph->arena, count, sizeof(*ni));
    if (ni == NULL) {
        return OA_E_NOMEM;
    }
    if (n->num_inputs) {
        memcpy(ni, n->inputs, n->num_inputs * sizeof(*ni));
    }
    for (uint32_t i = n->num_inputs; i < count; i++) {
        oa_desc_init_invalid(&ni[i].desc);
    }
    n->inputs = ni;
    n->num_inputs = count;
    return OA_OK;
}

oa_status oa_node_set_num_outputs(oa_node *n, uint32_t count)
{
    if (n == NULL || count > MAX_SLOTS) {
        return OA_FAIL(OA_E_PARAM, "bad output count %u", count);
    }
    if (count <= n->num_outputs) {
        for (uint32_t i = count; i < n->num_outputs; i++) {
            if (oa_node_output_uses(n, i, NULL, 0) > 0) {
                return OA_FAIL(OA_E_PARAM, "cannot drop output %u of node [%s]: it is still used", i, n->name);
            }
        }
        n->num_outputs = count;
        return OA_OK;
    }
    oa_output *no = oa_arena_array(n->graph->arena, count, sizeof(*no));
    if (no == NULL) {
        return OA_E_NOMEM;
    }
    if (n->num_outputs) {
        memcpy(no, n->outputs, n->num_outputs * sizeof(*no));
    }
    for (uint32_t i = n->num_outputs; i < count; i++) {
        oa_desc_init(&no[i].desc);
    }
    n->outputs = no;
    n->num_outputs = count;
    return OA_OK;
}

oa_status oa_node_add_control_input(oa_node *dst, oa_node *src)
{
    if (dst == NULL || src == NULL || dst == src || dst->graph != src->graph) {
        return OA_FAIL(OA_E_PARAM, "control edge [%s] -> [%s] needs two distinct nodes of one graph",
                       src ? src->name : "(null)", dst ? dst->name : "(null)");
    }
    for (uint32_t i = 0; i < dst->num_ctrl_inputs; i++) {
        if (dst->ctrl_inputs[i] == src) {
            return OA_OK;
        }
    }
    if (dst->num_ctrl_inputs == dst->ctrl_cap) {
        uint32_t ncap = dst->ctrl_cap ? dst->ctrl_cap * 2 : 2;
        oa_node **nc = oa_arena_array(dst->graph->arena, ncap, sizeof(*nc));
        if (nc == NULL) {
            return OA_E_NOMEM;
        }
        if (dst->num_ctrl_inputs) {
            memcpy(nc, dst->ctrl_inputs, dst->num_ctrl_inputs * sizeof(*nc));
        }
        dst->ctrl_inputs = nc;
        dst->ctrl_cap = ncap;
    }
    dst->ctrl_inputs[dst->num_ctrl_inputs++] = src;
    return OA_OK;
}

bool oa_node_remove_control_input(oa_node *dst, oa_node *src)
{
    if (dst == NULL) {
        return false;
    }
    for (uint32_t i = 0; i < dst->num_ctrl_inputs; i++) {
        if (dst->ctrl_inputs[i] == src) {
            memmove(&dst->ctrl_inputs[i], &dst->ctrl_inputs[i + 1],
                    (dst->num_ctrl_inputs - i - 1) * sizeof(dst->ctrl_inputs[0]));
            dst->num_ctrl_inputs--;
            return true;
        }
    }
    return false;
}

oa_tensor_desc *oa_node_input_desc(oa_node *n, uint32_t idx)
{
    return (n && idx < n->num_inputs) ? &n->inputs[idx].desc : NULL;
}

oa_tensor_desc *oa_node_output_desc(oa_node *n, uint32_t idx)
{
    return (n && idx < n->num_outputs) ? &n->outputs[idx].desc : NULL;
}

oa_node *oa_node_input_src(const oa_node *n, uint32_t idx, uint32_t *src_index)
{
    if (n == NULL || idx >= n->num_inputs || n->inputs[idx].src == NULL) {
        return NULL;
    }
    if (src_index) {
        *src_index = n->inputs[idx].src_index;
    }
    return n->inputs[idx].src;
}

size_t oa_node_output_uses(const oa_node *n, uint32_t out_idx, oa_use *uses, size_t cap)
{
    size_t count = 0;
    if (n == NULL) {
        return 0;
    }
    for (oa_node *c = n->graph->first; c; c = c->next) {
        for (uint32_t i = 0; i < c->num_inputs; i++) {
            if (c->inputs[i].src == n && c->inputs[i].src_index == out_idx) {
                if (count < cap) {
                    uses[count].node = c;
                    uses[count].input = i;
                }
                count++;
            }
        }
    }
    return count;
}

size_t oa_node_control_uses(const oa_node *n, oa_node **users, size_t cap)
{
    size_t count = 0;
    if (n == NULL) {
        return 0;
    }
    for (oa_node *c = n->graph->first; c; c = c->next) {
        for (uint32_t i = 0; i < c->num_ctrl_inputs; i++) {
            if (c->ctrl_inputs[i] == n) {
                if (count < cap) {
                    users[count] = c;
                }
                count++;
                break;
            }
        }
    }
    return count;
}

bool oa_node_has_uses(const oa_node *n)
{
    if (n == NULL) {
        return false;
    }
    for (oa_node *c = n->graph->first; c; c = c->next) {
        for (uint32_t i = 0; i < c->num_inputs; i++) {
            if (c->inputs[i].src == n) {
                return true;
            }
        }
        for (uint32_t i = 0; i < c->num_ctrl_inputs; i++) {
            if (c->ctrl_inputs[i] == n) {
                return true;
            }
        }
    }
    return false;
}

oa_status oa_node_rename(oa_node *n, const char *name)
{
    if (n == NULL || name == NULL) {
        return OA_FAIL(OA_E_PARAM, "node and name must not be null");
    }
    if (strcmp(n->name, name) == 0) {
        return OA_OK;
    }
    oa_graph *g = n->graph;
    if (oa_strmap_contains(&g->names, name)) {
        return OA_FAIL(OA_E_PARAM, "node name [%s] is already used in graph [%s]", name, g->name);
    }
    const char *copy = oa_arena_strdup(g->arena, name);
    if (copy == NULL) {
        return OA_E_NOMEM;
    }
    if (!n->removed) {
        oa_status st = oa_strmap_put(&g->names, copy, n);
        if (st != OA_OK) {
            return st;
        }
        (void)oa_strmap_remove(&g->names, n->name);
    }
    n->name = copy;
    return OA_OK;
}

oa_graph *oa_node_subgraph(const oa_node *n, uint32_t i)
{
    return (n && i < n->num_subgraphs) ? n->subgraphs[i].graph : NULL;
}

oa_graph *oa_node_subgraph_by_ir_name(const oa_node *n, const char *ir_name)
{
    if (n == NULL || ir_name == NULL) {
        return NULL;
    }
    for (uint32_t i = 0; i < n->num_subgraphs; i++) {
        if (strcmp(n->subgraphs[i].ir_name, ir_name) == 0) {
            return n->subgraphs[i].graph;
        }
    }
    return NULL;
}

/* ------------------------------------------------------------- mutation */

static void forget_subgraph_names(oa_graph *root, const oa_node *n)
{
    for (uint32_t i = 0; i < n->num_subgraphs; i++) {
        oa_graph *s = n->subgraphs[i].graph;
        (void)oa_strmap_remove(&root->graph_names, s->name);
        for (const oa_node *c = s->first; c; c = c->next) {
            forget_subgraph_names(root, c);
        }
    }
}

oa_status oa_graph_remove_node(oa_graph *g, oa_node *n)
{
    if (g == NULL || n == NULL || n->graph != g || n->removed) {
        return OA_FAIL(OA_E_PARAM, "node [%s] is not a live node of graph [%s]", n ? n->name : "(null)",
                       g ? g->name : "(null)");
    }
    for (oa_node *c = g->first; c; c = c->next) {
        if (c == n) {
            continue;
        }
        for (uint32_t i = 0; i < c->num_inputs; i++) {
            if (c->inputs[i].src == n) {
                return OA_FAIL(OA_E_PARAM, "cannot remove node [%s]: output %u feeds [%s] input %u", n->name,
                               c->inputs[i].src_index, c->name, i);
            }
        }
        for (uint32_t i = 0; i < c->num_ctrl_inputs; i++) {
            if (c->ctrl_inputs[i] == n) {
                return OA_FAIL(OA_E_PARAM, "cannot remove node [%s]: it is a control input of [%s]", n->name,
                               c->name);
            }
        }
    }
    for (uint32_t i = 0; i < n->num_inputs; i++) {
        oa_node_disconnect(n, i);
    }
    n->num_ctrl_inputs = 0;
    forget_subgraph_names(g->root, n);
    (void)oa_strmap_remove(&g->names, n->name);
    if (n->prev) {
        n->prev->next = n->next;
    } else {
        g->first = n->next;
    }
    if (n->next) {
        n->next->prev = n->prev;
    } else {
        g->last = n->prev;
    }
    n->prev = n->next = NULL;
    n->removed = true;
    g->num_nodes--;
    return OA_OK;
}

oa_status oa_graph_replace_uses(oa_node *from, uint32_t from_idx, oa_node *to, uint32_t to_idx, size_t *replaced)
{
    if (replaced) {
        *replaced = 0;
    }
    if (from == NULL || to == NULL || from->graph != to->graph) {
        return OA_FAIL(OA_E_PARAM, "replace_uses needs two nodes of one graph");
    }
    if (from_idx >= from->num_outputs || to_idx >= to->num_outputs) {
        return OA_FAIL(OA_E_PARAM, "replace_uses: output index out of range ([%s]:%u -> [%s]:%u)", from->name,
                       from_idx, to->name, to_idx);
    }
    size_t count = 0;
    for (oa_node *c = from->graph->first; c; c = c->next) {
        if (c == to) {
            continue; /* never make `to` consume itself */
        }
        for (uint32_t i = 0; i < c->num_inputs; i++) {
            if (c->inputs[i].src == from && c->inputs[i].src_index == from_idx) {
                c->inputs[i].src = to;
                c->inputs[i].src_index = to_idx;
                oa_node_refresh_input(c, i);
                count++;
            }
        }
    }
    if (replaced) {
        *replaced = count;
    }
    return OA_OK;
}

oa_status oa_graph_insert_after(oa_node *src, uint32_t src_idx, oa_node *ins, uint32_t ins_in, uint32_t ins_out)
{
    if (src == NULL || ins == NULL || src->graph != ins->graph || src == ins) {
        return OA_FAIL(OA_E_PARAM, "insert_after needs two distinct nodes of one graph");
    }
    if (ins_in >= ins->num_inputs || ins_out >= ins->num_outputs || src_idx >= src->num_outputs) {
        return OA_FAIL(OA_E_PARAM, "insert_after: slot out of range ([%s]:%u, [%s] in %u out %u)", src->name,
                       src_idx, ins->name, ins_in, ins_out);
    }
    oa_status st = oa_graph_replace_uses(src, src_idx, ins, ins_out, NULL);
    if (st != OA_OK) {
        return st;
    }
    return oa_node_connect(ins, ins_in, src, src_idx);
}

oa_status oa_graph_insert_on_edge(oa_node *dst, uint32_t dst_idx, oa_node *ins, uint32_t ins_in, uint32_t ins_out)
{
    if (dst == NULL || ins == NULL || dst->graph != ins->graph || dst == ins) {
        return OA_FAIL(OA_E_PARAM, "insert_on_edge needs two distinct nodes of one graph");
    }
    if (dst_idx >= dst->num_inputs || dst->inputs[dst_idx].src == NULL) {
        return OA_FAIL(OA_E_PARAM, "node [%s] input %u is not connected", dst->name, dst_idx);
    }
    if (ins_in >= ins->num_inputs || ins_out >= ins->num_outputs) {
        return OA_FAIL(OA_E_PARAM, "insert_on_edge: slot out of range on [%s]", ins->name);
    }
    oa_node *p = dst->inputs[dst_idx].src;
    uint32_t pi = dst->inputs[dst_idx].src_index;
    oa_status st = oa_node_connect(ins, ins_in, p, pi);
    if (st != OA_OK) {
        return st;
    }
    dst->inputs[dst_idx].src = ins;
    dst->inputs[dst_idx].src_index = ins_out;
    oa_node_refresh_input(dst, dst_idx);
    return OA_OK;
}

const char *oa_graph_unique_name(oa_graph *g, const char *base)
{
    if (g == NULL || base == NULL) {
        (void)OA_FAIL(OA_E_PARAM, "unique_name needs a graph and a base name");
        return NULL;
    }
    if (!oa_strmap_contains(&g->names, base)) {
        return oa_arena_strdup(g->arena, base);
    }
    for (uint64_t k = 1;; k++) {
        char *cand = oa_arena_printf(g->arena, "%s_%llu", base, (unsigned long long)k);
        if (cand == NULL || !oa_strmap_contains(&g->names, cand)) {
            return cand;
        }
    }
}

/* ------------------------------------------------------------ graph I/O */

size_t oa_graph_num_inputs(const oa_graph *g)
{
    size_t n = 0;
    for (const oa_node *c = g ? g->first : NULL; c; c = c->next) {
        n += c->type == OA_OP_DATA;
    }
    return n;
}

oa_node *oa_graph_input(const oa_graph *g, int64_t index)
{
    for (oa_node *c = g ? g->first : NULL; c; c = c->next) {
        if (c->type == OA_OP_DATA && oa_node_attr_int(c, "index", -1) == index) {
            return c;
        }
    }
    return NULL;
}

oa_node *oa_graph_output_node(const oa_graph *g)
{
    for (oa_node *c = g ? g->first : NULL; c; c = c->next) {
        if (c->type == OA_OP_NET_OUTPUT) {
            return c;
        }
    }
    return NULL;
}

uint32_t oa_graph_num_outputs(const oa_graph *g)
{
    const oa_node *o = oa_graph_output_node(g);
    return o ? o->num_inputs : 0;
}

const char *oa_graph_output_name(const oa_graph *g, uint32_t i)
{
    const oa_node *o = oa_graph_output_node(g);
    return (o && i < o->num_inputs) ? o->inputs[i].desc.name : NULL;
}

const oa_tensor_desc *oa_graph_output_desc(const oa_graph *g, uint32_t i)
{
    const oa_node *o = oa_graph_output_node(g);
    return (o && i < o->num_inputs) ? &o->inputs[i].desc : NULL;
}

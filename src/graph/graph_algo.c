/*
 * Graph algorithms: stable topological order (Kahn with a position heap),
 * cycle reporting, in-place topological sort, structural validation.
 */
#define OA_LOG_MODULE "GE"
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "graph/graph_internal.h"

/* Min-heap of node positions. */
typedef struct heap {
    uint32_t *v;
    size_t n;
} heap;

static void heap_push(heap *h, uint32_t x)
{
    size_t i = h->n++;
    h->v[i] = x;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (h->v[p] <= h->v[i]) {
            break;
        }
        uint32_t t = h->v[p];
        h->v[p] = h->v[i];
        h->v[i] = t;
        i = p;
    }
}

static uint32_t heap_pop(heap *h)
{
    uint32_t top = h->v[0];
    h->v[0] = h->v[--h->n];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->n && h->v[l] < h->v[m]) {
            m = l;
        }
        if (r < h->n && h->v[r] < h->v[m]) {
            m = r;
        }
        if (m == i) {
            break;
        }
        uint32_t t = h->v[m];
        h->v[m] = h->v[i];
        h->v[i] = t;
        i = m;
    }
    return top;
}

/* Node -> list position, an open-addressing pointer hash (the graph may be
 * shared read-only between threads, so node scratch fields are not used). */
typedef struct posmap {
    const oa_node **keys;
    uint32_t *vals;
    size_t mask;
} posmap;

static size_t ptr_hash(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x;
}

static bool posmap_init(posmap *m, oa_node *const *nodes, size_t n)
{
    size_t cap = 16;
    while (cap < n * 2) {
        cap *= 2;
    }
    m->keys = calloc(cap, sizeof(*m->keys));
    m->vals = calloc(cap, sizeof(*m->vals));
    m->mask = cap - 1;
    if (m->keys == NULL || m->vals == NULL) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        size_t h = ptr_hash(nodes[i]) & m->mask;
        while (m->keys[h] != NULL) {
            h = (h + 1) & m->mask;
        }
        m->keys[h] = nodes[i];
        m->vals[h] = (uint32_t)i;
    }
    return true;
}

static void posmap_deinit(posmap *m)
{
    free(m->keys);
    free(m->vals);
}

/* Producer position of an in-graph edge source, or UINT32_MAX. */
static uint32_t pos_of(const posmap *m, const oa_node *src)
{
    if (src == NULL) {
        return UINT32_MAX;
    }
    size_t h = ptr_hash(src) & m->mask;
    while (m->keys[h] != NULL) {
        if (m->keys[h] == src) {
            return m->vals[h];
        }
        h = (h + 1) & m->mask;
    }
    return UINT32_MAX;
}

/* Reports a cycle among nodes with indeg > 0 by walking inputs backwards. */
static oa_status report_cycle(const oa_graph *g, const posmap *pm, oa_node **nodes, size_t n,
                              const uint32_t *indeg)
{
    size_t start = 0;
    while (start < n && indeg[start] == 0) {
        start++;
    }
    /* Walk predecessors that are still blocked; the walk must revisit. */
    uint32_t *seen = calloc(n, sizeof(*seen));
    uint32_t *path = malloc(n * sizeof(*path));
    if (seen == NULL || path == NULL) {
        free(seen);
        free(path);
        return OA_FAIL(OA_E_GE_PARAM, "graph %s has a cycle (node %s is on or after it)", g->name,
                       start < n ? nodes[start]->name : "?");
    }
    size_t len = 0;
    uint32_t cur = (uint32_t)start;
    while (seen[cur] == 0) {
        seen[cur] = (uint32_t)len + 1;
        path[len++] = cur;
        const oa_node *nd = nodes[cur];
        uint32_t next = UINT32_MAX;
        for (uint32_t i = 0; i < nd->num_inputs && next == UINT32_MAX; i++) {
            uint32_t p = pos_of(pm, nd->inputs[i].src);
            if (p != UINT32_MAX && indeg[p] > 0) {
                next = p;
            }
        }
        for (uint32_t i = 0; i < nd->num_ctrl_inputs && next == UINT32_MAX; i++) {
            uint32_t p = pos_of(pm, nd->ctrl_inputs[i]);
            if (p != UINT32_MAX && indeg[p] > 0) {
                next = p;
            }
        }
        if (next == UINT32_MAX) {
            break; /* cannot happen for a blocked node; stay safe */
        }
        cur = next;
    }
    char msg[512];
    size_t pos = 0;
    msg[0] = '\0';
    size_t from = seen[cur] ? seen[cur] - 1 : 0;
    for (size_t k = len; k-- > from && pos < sizeof(msg) - 8;) {
        int w = snprintf(msg + pos, sizeof(msg) - pos, "%s%s", k + 1 == len ? "" : " -> ", nodes[path[k]]->name);
        if (w < 0) {
            break;
        }
        pos += (size_t)w;
    }
    if (seen[cur] && pos < sizeof(msg) - 8) {
        snprintf(msg + pos, sizeof(msg) - pos, " -> %s", nodes[cur]->name);
    }
    free(seen);
    free(path);
    return OA_FAIL(OA_E_GE_PARAM, "graph %s has a cycle through nodes %s", g->name, msg);
}

oa_status oa_graph_topo_order(const oa_graph *g, oa_node ***order, size_t *count)
{
    if (g == NULL || order == NULL || count == NULL) {
        return OA_FAIL(OA_E_PARAM, "topo_order arguments must not be null");
    }
    *order = NULL;
    *count = 0;
    size_t n = g->num_nodes;
    if (n > UINT32_MAX - 1) {
        return OA_FAIL(OA_E_PARAM, "graph %s has too many nodes", g->name);
    }
    oa_node **nodes = malloc((n ? n : 1) * sizeof(*nodes));
    uint32_t *indeg = calloc(n ? n : 1, sizeof(*indeg));
    uint32_t *outstart = calloc(n + 1, sizeof(*outstart));
    uint32_t *heapv = malloc((n ? n : 1) * sizeof(*heapv));
    oa_node **result = malloc((n ? n : 1) * sizeof(*result));
    uint32_t *adj = NULL;
    posmap pmap = {NULL, NULL, 0};
    const posmap *pm = &pmap;
    oa_status st = OA_OK;
    if (nodes == NULL || indeg == NULL || outstart == NULL || heapv == NULL || result == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "cannot sort graph %s (%zu nodes)", g->name, n);
        goto done;
    }
    size_t k = 0;
    for (oa_node *c = g->first; c; c = c->next) {
        nodes[k++] = c;
    }
    if (!posmap_init(&pmap, nodes, n)) {
        st = OA_FAIL(OA_E_NOMEM, "cannot sort graph %s (%zu nodes)", g->name, n);
        goto done;
    }
    /* Count edges per producer. */
    size_t edges = 0;
    for (size_t i = 0; i < n; i++) {
        const oa_node *c = nodes[i];
        for (uint32_t j = 0; j < c->num_inputs; j++) {
            uint32_t p = pos_of(pm, c->inputs[j].src);
            if (p != UINT32_MAX) {
                outstart[p + 1]++;
                indeg[i]++;
                edges++;
            }
        }
        for (uint32_t j = 0; j < c->num_ctrl_inputs; j++) {
            uint32_t p = pos_of(pm, c->ctrl_inputs[j]);
            if (p != UINT32_MAX) {
                outstart[p + 1]++;
                indeg[i]++;
                edges++;
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        outstart[i + 1] += outstart[i];
    }
    adj = malloc((edges ? edges : 1) * sizeof(*adj));
    uint32_t *fill = calloc(n ? n : 1, sizeof(*fill));
    if (adj == NULL || fill == NULL) {
        free(fill);
        st = OA_FAIL(OA_E_NOMEM, "cannot sort graph %s (%zu edges)", g->name, edges);
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        const oa_node *c = nodes[i];
        for (uint32_t j = 0; j < c->num_inputs; j++) {
            uint32_t p = pos_of(pm, c->inputs[j].src);
            if (p != UINT32_MAX) {
                adj[outstart[p] + fill[p]++] = (uint32_t)i;
            }
        }
        for (uint32_t j = 0; j < c->num_ctrl_inputs; j++) {
            uint32_t p = pos_of(pm, c->ctrl_inputs[j]);
            if (p != UINT32_MAX) {
                adj[outstart[p] + fill[p]++] = (uint32_t)i;
            }
        }
    }
    free(fill);
    heap h = {heapv, 0};
    for (size_t i = 0; i < n; i++) {
        if (indeg[i] == 0) {
            heap_push(&h, (uint32_t)i);
        }
    }
    size_t emitted = 0;
    while (h.n > 0) {
        uint32_t i = heap_pop(&h);
        result[emitted++] = nodes[i];
        for (uint32_t e = outstart[i]; e < outstart[i + 1]; e++) {
            if (--indeg[adj[e]] == 0) {
                heap_push(&h, adj[e]);
            }
        }
    }
    if (emitted != n) {
        st = report_cycle(g, pm, nodes, n, indeg);
        goto done;
    }
    *order = result;
    *count = n;
    result = NULL;
done:
    posmap_deinit(&pmap);
    free(nodes);
    free(indeg);
    free(outstart);
    free(heapv);
    free(adj);
    free(result);
    return st;
}

oa_status oa_graph_topo_sort(oa_graph *g)
{
    oa_node **order;
    size_t n;
    oa_status st = oa_graph_topo_order(g, &order, &n);
    if (st != OA_OK) {
        return st;
    }
    g->first = n ? order[0] : NULL;
    g->last = n ? order[n - 1] : NULL;
    for (size_t i = 0; i < n; i++) {
        order[i]->prev = i ? order[i - 1] : NULL;
        order[i]->next = i + 1 < n ? order[i + 1] : NULL;
    }
    free(order);
    return OA_OK;
}

/* ---- validation ---- */

static uint32_t required_subgraphs(oa_op_type t)
{
    switch (t) {
    case OA_OP_IF:
    case OA_OP_STATELESS_IF:
    case OA_OP_WHILE:
        return 2;
    case OA_OP_CASE:
    case OA_OP_PARTITIONED_CALL:
        return 1;
    default:
        return 0;
    }
}

static oa_status validate_node(const oa_graph *g, const oa_node *n)
{
    if (n->graph != g || n->removed) {
        return OA_FAIL(OA_E_GE_PARAM, "graph %s lists node %s that belongs elsewhere", g->name, n->name);
    }
    if (oa_strmap_get(&g->names, n->name) != n) {
        return OA_FAIL(OA_E_GE_PARAM, "graph %s: node %s is missing from the name index", g->name, n->name);
    }
    for (uint32_t i = 0; i < n->num_inputs; i++) {
        const oa_input *in = &n->inputs[i];
        if (in->src == NULL) {
            continue;
        }
        if (in->src->graph != g || in->src->removed) {
            return OA_FAIL(OA_E_GE_PARAM, "node %s input %u reads node %s outside graph %s", n->name, i,
                           in->src->name, g->name);
        }
        if (in->src_index >= in->src->num_outputs) {
            return OA_FAIL(OA_E_GE_PARAM, "node %s input %u reads output %u of %s, which has %u outputs", n->name, i,
                           in->src_index, in->src->name, in->src->num_outputs);
        }
    }
    for (uint32_t i = 0; i < n->num_ctrl_inputs; i++) {
        const oa_node *c = n->ctrl_inputs[i];
        if (c == NULL || c->graph != g || c->removed) {
            return OA_FAIL(OA_E_GE_PARAM, "node %s has a control input outside graph %s", n->name, g->name);
        }
    }
    if (n->type < OA_OP_COUNT && n->type != OA_OP_DATA) {
        oa_op_io io[16];
        size_t decl = oa_op_ir_inputs(n->type, io, OA_ARRAY_SIZE(io));
        bool dyn = oa_op_has_dynamic_inputs(n->type);
        /* The compiler's fused post-ops read their extra operands from slots
         * after the IR inputs, announced by `_oa_post_input_base` == the IR
         * input count (src/compiler/README.md, "Encoding"). */
        int64_t post_base = -1;
        bool extra_ok = oa_attrs_get_int(&n->attrs, "_oa_post_input_base", &post_base) &&
                        post_base == (int64_t)decl;
        if (!dyn && n->num_inputs > decl && !extra_ok) {
            return OA_FAIL(OA_E_GE_PARAM, "node %s (%s) has %u inputs, its IR declares %zu", n->name, n->type_name,
                           n->num_inputs, decl);
        }
        if (n->num_inputs < oa_op_min_inputs(n->type)) {
            return OA_FAIL(OA_E_GE_PARAM, "node %s (%s) has %u inputs, needs at least %u", n->name, n->type_name,
                           n->num_inputs, oa_op_min_inputs(n->type));
        }
        if (!dyn) {
            for (uint32_t i = 0; i < n->num_inputs && i < decl; i++) {
                if (!io[i].optional && n->inputs[i].src == NULL) {
                    return OA_FAIL(OA_E_GE_PARAM, "node %s (%s) required input %s is not connected", n->name,
                                   n->type_name, io[i].name);
                }
            }
        }
    }
    if (n->num_subgraphs < required_subgraphs(n->type)) {
        return OA_FAIL(OA_E_GE_PARAM, "node %s (%s) owns %u subgraphs, needs %u", n->name, n->type_name,
                       n->num_subgraphs, required_subgraphs(n->type));
    }
    for (uint32_t i = 0; i < n->num_subgraphs; i++) {
        const oa_graph *s = n->subgraphs[i].graph;
        if (s == NULL || s->parent != n || s->root != g->root) {
            return OA_FAIL(OA_E_GE_PARAM, "node %s subgraph %u is not owned by it", n->name, i);
        }
    }
    return OA_OK;
}

static oa_status validate_graph(const oa_graph *g, unsigned depth)
{
    if (depth > 64) {
        return OA_FAIL(OA_E_GE_PARAM, "subgraphs nest deeper than 64 levels at graph %s", g->name);
    }
    size_t count = 0, outputs = 0;
    for (const oa_node *n = g->first; n; n = n->next) {
        count++;
        oa_status st = validate_node(g, n);
        if (st != OA_OK) {
            return st;
        }
        if (n->type == OA_OP_NET_OUTPUT && ++outputs > 1) {
            return OA_FAIL(OA_E_GE_PARAM, "graph %s has more than one NetOutput (%s)", g->name, n->name);
        }
        if (n->type == OA_OP_DATA) {
            int64_t idx;
            if (!oa_attrs_get_int(&n->attrs, "index", &idx)) {
                return OA_FAIL(OA_E_GE_PARAM, "Data node %s of graph %s has no index attr", n->name, g->name);
            }
            for (const oa_node *m = n->next; m; m = m->next) {
                if (m->type == OA_OP_DATA && oa_node_attr_int(m, "index", -1) == idx) {
                    return OA_FAIL(OA_E_GE_PARAM, "Data nodes %s and %s of graph %s share index %lld", n->name,
                                   m->name, g->name, (long long)idx);
                }
            }
        }
    }
    if (count != g->num_nodes) {
        return OA_FAIL(OA_E_GE_PARAM, "graph %s node count %zu differs from its list (%zu)", g->name, g->num_nodes,
                       count);
    }
    oa_node **order;
    size_t n;
    oa_status st = oa_graph_topo_order(g, &order, &n);
    if (st != OA_OK) {
        return st;
    }
    free(order);
    for (const oa_node *nd = g->first; nd; nd = nd->next) {
        for (uint32_t i = 0; i < nd->num_subgraphs; i++) {
            st = validate_graph(nd->subgraphs[i].graph, depth + 1);
            if (st != OA_OK) {
                return st;
            }
        }
    }
    return OA_OK;
}

oa_status oa_graph_validate(const oa_graph *g)
{
    if (g == NULL) {
        return OA_FAIL(OA_E_PARAM, "cannot validate a null graph");
    }
    return validate_graph(g, 0);
}

/*
 * Execute-graph building (v2_build.h): registry, build graph, priorities,
 * run order, record layout, and instances.
 */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "model_v2/v2_build.h"

/* ---- registry ---- */

oa_status oa_v2_registry_register(oa_v2_registry *r, const oa_v2_kernel_def *def)
{
    if (r == NULL || def == NULL || def->type == NULL || def->run == NULL) {
        return OA_FAIL(OA_E_PARAM, "kernel registration needs a type and a run function");
    }
    for (size_t i = 0; i < r->n; ++i) {
        if (strcmp(r->defs[i].type, def->type) == 0) {
            r->defs[i] = *def;
            return OA_OK;
        }
    }
    if (r->n == r->cap) {
        const size_t cap = r->cap ? r->cap * 2 : 32;
        oa_v2_kernel_def *d = realloc(r->defs, cap * sizeof(*d));
        if (d == NULL) {
            return OA_FAIL(OA_E_NOMEM, "kernel registry");
        }
        r->defs = d;
        r->cap = cap;
    }
    r->defs[r->n++] = *def;
    return OA_OK;
}

const oa_v2_kernel_def *oa_v2_registry_find(const oa_v2_registry *r, const char *type)
{
    for (size_t i = 0; r != NULL && i < r->n; ++i) {
        if (strcmp(r->defs[i].type, type) == 0) {
            return &r->defs[i];
        }
    }
    return NULL;
}

void oa_v2_registry_deinit(oa_v2_registry *r)
{
    free(r->defs);
    memset(r, 0, sizeof(*r));
}

/* ---- build graph ---- */

typedef struct bnode {
    const char *type;
    const char *name;
    size_t compute_id;
    uint32_t *vals; /* n_in inputs, then n_out outputs */
    uint32_t n_in, n_out;
    size_t *ctrl;   /* control predecessors */
    size_t n_ctrl, cap_ctrl;
    const void *info;
    oa_v2_bn_role role;
    bool fixed_prio;
    int64_t prio;
} bnode;

struct oa_v2_bgraph {
    char *name;
    bnode *nodes;
    size_t n, cap;
    int64_t *feed_idx;
    uint32_t *feed_vid;
    size_t n_feeds, cap_feeds;
    uint32_t *out_vid;
    size_t n_outs, cap_outs;
    bool control_flow;
    uint32_t span;
};

oa_v2_bgraph *oa_v2_bgraph_create(const char *name)
{
    oa_v2_bgraph *g = calloc(1, sizeof(*g));
    if (g == NULL || (g->name = oa_strdup(name ? name : "graph")) == NULL) {
        free(g);
        OA_FAIL(OA_E_NOMEM, "build graph");
        return NULL;
    }
    return g;
}

void oa_v2_bgraph_destroy(oa_v2_bgraph *g)
{
    if (g == NULL) {
        return;
    }
    for (size_t i = 0; i < g->n; ++i) {
        free(g->nodes[i].vals);
        free(g->nodes[i].ctrl);
    }
    free(g->nodes);
    free(g->feed_idx);
    free(g->feed_vid);
    free(g->out_vid);
    free(g->name);
    free(g);
}

static void note_vid(oa_v2_bgraph *g, uint32_t vid)
{
    if (vid >= g->span) {
        g->span = vid + 1;
    }
}

oa_status oa_v2_bgraph_add_feed(oa_v2_bgraph *g, int64_t index, uint32_t vid)
{
    if (index < OA_V2_FEED_NOTIFIES) {
        return OA_FAIL(OA_E_PARAM, "graph %s: feed index %lld is not valid", g->name, (long long)index);
    }
    if (g->n_feeds == g->cap_feeds) {
        const size_t cap = g->cap_feeds ? g->cap_feeds * 2 : 8;
        int64_t *ix = realloc(g->feed_idx, cap * sizeof(*ix));
        if (ix == NULL) {
            return OA_FAIL(OA_E_NOMEM, "feeds");
        }
        g->feed_idx = ix;
        uint32_t *v = realloc(g->feed_vid, cap * sizeof(*v));
        if (v == NULL) {
            return OA_FAIL(OA_E_NOMEM, "feeds");
        }
        g->feed_vid = v;
        g->cap_feeds = cap;
    }
    g->feed_idx[g->n_feeds] = index;
    g->feed_vid[g->n_feeds++] = vid;
    note_vid(g, vid);
    return OA_OK;
}

oa_status oa_v2_bgraph_add_output(oa_v2_bgraph *g, uint32_t vid)
{
    if (g->n_outs == g->cap_outs) {
        const size_t cap = g->cap_outs ? g->cap_outs * 2 : 8;
        uint32_t *v = realloc(g->out_vid, cap * sizeof(*v));
        if (v == NULL) {
            return OA_FAIL(OA_E_NOMEM, "graph outputs");
        }
        g->out_vid = v;
        g->cap_outs = cap;
    }
    g->out_vid[g->n_outs++] = vid;
    note_vid(g, vid);
    return OA_OK;
}

oa_status oa_v2_bgraph_add_node(oa_v2_bgraph *g, const char *type, const char *name, size_t compute_id,
                                const uint32_t *in, uint32_t n_in, const uint32_t *out, uint32_t n_out,
                                const void *info, size_t *id)
{
    if (type == NULL || (n_in && in == NULL) || (n_out && out == NULL)) {
        return OA_FAIL(OA_E_PARAM, "graph %s: node needs a type and its value ids", g->name);
    }
    if (g->n == g->cap) {
        const size_t cap = g->cap ? g->cap * 2 : 64;
        bnode *nn = realloc(g->nodes, cap * sizeof(*nn));
        if (nn == NULL) {
            return OA_FAIL(OA_E_NOMEM, "build graph nodes");
        }
        g->nodes = nn;
        g->cap = cap;
    }
    bnode *b = &g->nodes[g->n];
    memset(b, 0, sizeof(*b));
    b->vals = malloc(((size_t)n_in + n_out + 1) * sizeof(uint32_t));
    if (b->vals == NULL) {
        return OA_FAIL(OA_E_NOMEM, "build graph node");
    }
    if (n_in) {
        memcpy(b->vals, in, n_in * sizeof(uint32_t));
    }
    if (n_out) {
        memcpy(b->vals + n_in, out, n_out * sizeof(uint32_t));
    }
    for (uint32_t i = 0; i < n_in + n_out; ++i) {
        note_vid(g, b->vals[i]);
    }
    b->type = type;
    b->name = name ? name : type;
    b->compute_id = compute_id;
    b->n_in = n_in;
    b->n_out = n_out;
    b->info = info;
    b->prio = INT64_MAX;
    if (id != NULL) {
        *id = g->n;
    }
    g->n++;
    return OA_OK;
}

oa_status oa_v2_bgraph_add_ctrl(oa_v2_bgraph *g, size_t from, size_t to)
{
    if (from >= g->n || to >= g->n || from == to) {
        return OA_FAIL(OA_E_PARAM, "graph %s: control edge %zu -> %zu is not valid", g->name, from, to);
    }
    bnode *b = &g->nodes[to];
    for (size_t i = 0; i < b->n_ctrl; ++i) {
        if (b->ctrl[i] == from) {
            return OA_OK;
        }
    }
    if (b->n_ctrl == b->cap_ctrl) {
        const size_t cap = b->cap_ctrl ? b->cap_ctrl * 2 : 4;
        size_t *c = realloc(b->ctrl, cap * sizeof(*c));
        if (c == NULL) {
            return OA_FAIL(OA_E_NOMEM, "control edges");
        }
        b->ctrl = c;
        b->cap_ctrl = cap;
    }
    b->ctrl[b->n_ctrl++] = from;
    return OA_OK;
}

void oa_v2_bgraph_set_role(oa_v2_bgraph *g, size_t id, oa_v2_bn_role role)
{
    if (id < g->n) {
        g->nodes[id].role = role;
    }
}

void oa_v2_bgraph_set_control_flow(oa_v2_bgraph *g, bool on)
{
    g->control_flow = on;
}

void oa_v2_bgraph_set_priority(oa_v2_bgraph *g, size_t id, int64_t priority)
{
    if (id < g->n) {
        g->nodes[id].fixed_prio = true;
        g->nodes[id].prio = priority;
    }
}

size_t oa_v2_bgraph_node_count(const oa_v2_bgraph *g)
{
    return g->n;
}

uint32_t oa_v2_bgraph_value_span(const oa_v2_bgraph *g)
{
    return g->span;
}

/* ---- programs ---- */

struct oa_v2_graph_prog {
    char *name;
    oa_v2_executor_kind kind;
    size_t node_num;
    uint8_t *records;     /* template: value pointers hold value ids */
    size_t records_size;
    size_t *offset;       /* node id -> record offset */
    size_t *order;        /* run order (node ids) */
    size_t start_num;
    size_t *starts;       /* node ids with in-degree 0, insertion order */
    int64_t *in_degrees;  /* backup */
    oa_v2_watchers *watchers;
    size_t *watch_ids;    /* storage behind watchers */
    const oa_v2_kernel_def **defs;
    char **names;         /* node names (copied), for messages */
    size_t n_feeds;
    uint32_t *feed_vid;
    int64_t *feed_idx;
    size_t n_outs;
    uint32_t *out_vid;
    uint32_t span;
};

/* Predecessor / successor lists (deduplicated) in CSR form. */
typedef struct adj {
    size_t *pred_off, *pred; /* n + 1 offsets */
    size_t *succ_off, *succ;
} adj;

static void adj_free(adj *a)
{
    free(a->pred_off);
    free(a->pred);
    free(a->succ_off);
    free(a->succ);
}

static oa_status build_adj(const oa_v2_bgraph *g, adj *a)
{
    memset(a, 0, sizeof(*a));
    const size_t n = g->n;
    size_t *producer = malloc(((size_t)g->span + 1) * sizeof(size_t));
    size_t total = 0;
    for (size_t i = 0; i < n; ++i) {
        total += g->nodes[i].n_in + g->nodes[i].n_ctrl;
    }
    a->pred_off = calloc(n + 1, sizeof(size_t));
    a->pred = malloc((total + 1) * sizeof(size_t));
    a->succ_off = calloc(n + 2, sizeof(size_t));
    a->succ = malloc((total + 1) * sizeof(size_t));
    if (producer == NULL || a->pred_off == NULL || a->pred == NULL || a->succ_off == NULL || a->succ == NULL) {
        free(producer);
        adj_free(a);
        return OA_FAIL(OA_E_NOMEM, "graph %s: adjacency", g->name);
    }
    for (uint32_t v = 0; v <= g->span; ++v) {
        producer[v] = SIZE_MAX;
    }
    for (size_t i = 0; i < n; ++i) {
        const bnode *b = &g->nodes[i];
        for (uint32_t k = 0; k < b->n_out; ++k) {
            const uint32_t v = b->vals[b->n_in + k];
            if (producer[v] != SIZE_MAX) {
                const char *other = g->nodes[producer[v]].name;
                free(producer);
                adj_free(a);
                return OA_FAIL(OA_E_PARAM, "graph %s: value %u is produced by both %s and %s", g->name, v, other,
                               b->name);
            }
            producer[v] = i;
        }
    }
    size_t at = 0;
    for (size_t i = 0; i < n; ++i) {
        const bnode *b = &g->nodes[i];
        a->pred_off[i] = at;
        for (uint32_t k = 0; k < b->n_in + (uint32_t)b->n_ctrl; ++k) {
            const size_t p = k < b->n_in ? producer[b->vals[k]] : b->ctrl[k - b->n_in];
            if (p == SIZE_MAX || p == i) {
                continue;
            }
            bool dup = false;
            for (size_t j = a->pred_off[i]; j < at && !dup; ++j) {
                dup = a->pred[j] == p;
            }
            if (!dup) {
                a->pred[at++] = p;
                a->succ_off[p + 1]++;
            }
        }
    }
    a->pred_off[n] = at;
    free(producer);
    for (size_t i = 0; i < n; ++i) {
        a->succ_off[i + 1] += a->succ_off[i];
    }
    size_t *fill = calloc(n + 1, sizeof(size_t));
    if (fill == NULL) {
        adj_free(a);
        return OA_FAIL(OA_E_NOMEM, "graph %s: adjacency", g->name);
    }
    for (size_t i = 0; i < n; ++i) {
        for (size_t j = a->pred_off[i]; j < a->pred_off[i + 1]; ++j) {
            const size_t p = a->pred[j];
            a->succ[a->succ_off[p] + fill[p]++] = i;
        }
    }
    free(fill);
    return OA_OK;
}

/* BFS over ancestors of start: unmarked ones get prio (stopping at marked ones). */
static void mark_ancestors(const adj *a, size_t start, int64_t prio, bool *marked, int64_t *pr, size_t *queue)
{
    size_t head = 0, tail = 0;
    queue[tail++] = start;
    while (head < tail) {
        const size_t x = queue[head++];
        for (size_t j = a->pred_off[x]; j < a->pred_off[x + 1]; ++j) {
            const size_t p = a->pred[j];
            if (!marked[p]) {
                marked[p] = true;
                pr[p] = prio;
                queue[tail++] = p;
            }
        }
    }
}

/* Largest priority among the marked ancestors reachable through unmarked nodes; collects those unmarked nodes. */
static int64_t max_marked_ancestor(const adj *a, size_t start, const bool *marked, const int64_t *pr, bool *seen,
                                   size_t *queue, size_t *n_unmarked)
{
    int64_t best = INT64_MIN;
    size_t head = 0, tail = 0;
    queue[tail++] = start;
    seen[start] = true;
    while (head < tail) {
        const size_t x = queue[head++];
        for (size_t j = a->pred_off[x]; j < a->pred_off[x + 1]; ++j) {
            const size_t p = a->pred[j];
            if (seen[p]) {
                continue;
            }
            seen[p] = true;
            if (marked[p]) {
                if (pr[p] > best) {
                    best = pr[p];
                }
            } else {
                queue[tail++] = p;
            }
        }
    }
    *n_unmarked = tail; /* queue[0..tail) are start and the unmarked ancestors */
    return best;
}

typedef struct launch_ref {
    int64_t prio;
    size_t id;
} launch_ref;

static int cmp_launch(const void *x, const void *y)
{
    const launch_ref *a = x, *b = y;
    if (a->prio != b->prio) {
        return a->prio < b->prio ? -1 : 1;
    }
    return a->id < b->id ? -1 : (a->id > b->id);
}

static oa_status compute_priorities(const oa_v2_bgraph *g, const adj *a, int64_t *pr)
{
    const size_t n = g->n;
    bool *marked = calloc(n + 1, sizeof(bool));
    bool *seen = calloc(n + 1, sizeof(bool));
    size_t *queue = malloc((n + 1) * sizeof(size_t));
    launch_ref *launches = malloc((n + 1) * sizeof(launch_ref));
    if (marked == NULL || seen == NULL || queue == NULL || launches == NULL) {
        free(marked);
        free(seen);
        free(queue);
        free(launches);
        return OA_FAIL(OA_E_NOMEM, "graph %s: priorities", g->name);
    }
    size_t nl = 0;
    int64_t prev = -1;
    for (size_t i = 0; i < n; ++i) {
        pr[i] = INT64_MAX;
        const bnode *b = &g->nodes[i];
        if (b->role != OA_V2_BN_LAUNCH) {
            continue;
        }
        int64_t p;
        if (b->compute_id != OA_V2_NO_COMPUTE && b->compute_id < (size_t)(INT64_MAX / 10 - 1)) {
            p = (int64_t)b->compute_id * 10 + 9;
        } else {
            p = prev + 1;
        }
        prev = p;
        launches[nl].prio = p;
        launches[nl++].id = i;
    }
    qsort(launches, nl, sizeof(*launches), cmp_launch);
    for (size_t k = 0; k < nl; ++k) {
        const size_t id = launches[k].id;
        if (!marked[id]) {
            marked[id] = true;
            pr[id] = launches[k].prio;
        }
        mark_ancestors(a, id, pr[id], marked, pr, queue);
    }
    for (size_t i = 0; i < n; ++i) {
        if (g->nodes[i].role != OA_V2_BN_FREE || marked[i]) {
            continue;
        }
        memset(seen, 0, (n + 1) * sizeof(bool));
        size_t cnt = 0;
        const int64_t best = max_marked_ancestor(a, i, marked, pr, seen, queue, &cnt);
        if (best == INT64_MIN) {
            continue;
        }
        for (size_t k = 0; k < cnt; ++k) {
            marked[queue[k]] = true;
            pr[queue[k]] = best;
        }
    }
    for (size_t i = 0; i < n; ++i) {
        if (g->nodes[i].fixed_prio) {
            pr[i] = g->nodes[i].prio;
        }
    }
    free(marked);
    free(seen);
    free(queue);
    free(launches);
    return OA_OK;
}

/* (priority, id) min-heap for the ordering sort. */
static bool key_less(const int64_t *pr, size_t a, size_t b)
{
    return pr[a] != pr[b] ? pr[a] < pr[b] : a < b;
}

static void kheap_push(size_t *h, size_t *sz, size_t x, const int64_t *pr)
{
    size_t i = ++*sz;
    while (i > 1 && key_less(pr, x, h[i / 2])) {
        h[i] = h[i / 2];
        i /= 2;
    }
    h[i] = x;
}

static size_t kheap_pop(size_t *h, size_t *sz, const int64_t *pr)
{
    const size_t top = h[1];
    const size_t last = h[(*sz)--];
    size_t i = 1;
    for (;;) {
        size_t c = 2 * i;
        if (c > *sz) {
            break;
        }
        if (c + 1 <= *sz && key_less(pr, h[c + 1], h[c])) {
            c++;
        }
        if (!key_less(pr, h[c], last)) {
            break;
        }
        h[i] = h[c];
        i = c;
    }
    if (*sz > 0) {
        h[i] = last;
    }
    return top;
}

static oa_status order_nodes(const oa_v2_bgraph *g, const adj *a, const int64_t *pr, size_t *order)
{
    const size_t n = g->n;
    int64_t *deg = malloc((n + 1) * sizeof(int64_t));
    size_t *heap = malloc((n + 2) * sizeof(size_t));
    if (deg == NULL || heap == NULL) {
        free(deg);
        free(heap);
        return OA_FAIL(OA_E_NOMEM, "graph %s: order", g->name);
    }
    size_t sz = 0, cnt = 0;
    for (size_t i = 0; i < n; ++i) {
        deg[i] = (int64_t)(a->pred_off[i + 1] - a->pred_off[i]);
        if (deg[i] == 0) {
            kheap_push(heap, &sz, i, pr);
        }
    }
    while (sz > 0) {
        const size_t x = kheap_pop(heap, &sz, pr);
        order[cnt++] = x;
        for (size_t j = a->succ_off[x]; j < a->succ_off[x + 1]; ++j) {
            if (--deg[a->succ[j]] == 0) {
                kheap_push(heap, &sz, a->succ[j], pr);
            }
        }
    }
    free(deg);
    free(heap);
    if (cnt != n) {
        for (size_t i = 0; i < n; ++i) {
            bool done = false;
            for (size_t k = 0; k < cnt && !done; ++k) {
                done = order[k] == i;
            }
            if (!done) {
                return OA_FAIL(OA_E_PARAM, "graph %s has a cycle through node %s", g->name, g->nodes[i].name);
            }
        }
        return OA_FAIL(OA_E_PARAM, "graph %s has a cycle", g->name);
    }
    return OA_OK;
}

/* Feeds: 0..n-1 in any declared order become sorted; then -1, -2, -3, -4 (each at most once). */
static oa_status order_feeds(const oa_v2_bgraph *g, oa_v2_graph_prog *p)
{
    size_t n_pos = 0;
    for (size_t i = 0; i < g->n_feeds; ++i) {
        if (g->feed_idx[i] >= 0) {
            n_pos++;
        }
    }
    p->feed_vid = malloc((g->n_feeds + 1) * sizeof(uint32_t));
    p->feed_idx = malloc((g->n_feeds + 1) * sizeof(int64_t));
    if (p->feed_vid == NULL || p->feed_idx == NULL) {
        return OA_FAIL(OA_E_NOMEM, "feeds");
    }
    bool *seen = calloc(n_pos + 1, sizeof(bool));
    if (seen == NULL) {
        return OA_FAIL(OA_E_NOMEM, "feeds");
    }
    for (size_t i = 0; i < g->n_feeds; ++i) {
        const int64_t ix = g->feed_idx[i];
        if (ix < 0) {
            continue;
        }
        if ((uint64_t)ix >= n_pos || seen[ix]) {
            free(seen);
            return OA_FAIL(OA_E_PARAM, "graph %s: feed indices must be 0..%zu without gaps or repeats, got %lld",
                           g->name, n_pos ? n_pos - 1 : 0, (long long)ix);
        }
        seen[ix] = true;
        p->feed_vid[ix] = g->feed_vid[i];
        p->feed_idx[ix] = ix;
    }
    free(seen);
    size_t at = n_pos;
    for (int64_t want = -1; want >= OA_V2_FEED_NOTIFIES; --want) {
        size_t found = 0;
        for (size_t i = 0; i < g->n_feeds; ++i) {
            if (g->feed_idx[i] == want) {
                if (found++) {
                    return OA_FAIL(OA_E_PARAM, "graph %s: special feed %lld is given twice", g->name,
                                   (long long)want);
                }
                p->feed_vid[at] = g->feed_vid[i];
                p->feed_idx[at++] = want;
            }
        }
    }
    p->n_feeds = at;
    return OA_OK;
}

void oa_v2_graph_prog_destroy(oa_v2_graph_prog *p)
{
    if (p == NULL) {
        return;
    }
    if (p->names != NULL) {
        for (size_t i = 0; i < p->node_num; ++i) {
            free(p->names[i]);
        }
    }
    free(p->names);
    free(p->name);
    free(p->records);
    free(p->offset);
    free(p->order);
    free(p->starts);
    free(p->in_degrees);
    free(p->watchers);
    free(p->watch_ids);
    free(p->defs);
    free(p->feed_vid);
    free(p->feed_idx);
    free(p->out_vid);
    free(p);
}

oa_status oa_v2_bgraph_finish(const oa_v2_bgraph *g, const oa_v2_registry *reg, const oa_v2_executor_kind *force_kind,
                              oa_v2_graph_prog **out)
{
    *out = NULL;
    const size_t n = g->n;
    oa_v2_graph_prog *p = calloc(1, sizeof(*p));
    if (p == NULL || (p->name = oa_strdup(g->name)) == NULL) {
        free(p);
        return OA_FAIL(OA_E_NOMEM, "graph program");
    }
    p->node_num = n;
    p->span = g->span;
    adj a;
    int64_t *pr = NULL;
    oa_status st = order_feeds(g, p);
    if (st != OA_OK) {
        oa_v2_graph_prog_destroy(p);
        return st;
    }
    p->n_outs = g->n_outs;
    p->out_vid = malloc((g->n_outs + 1) * sizeof(uint32_t));
    p->defs = calloc(n + 1, sizeof(*p->defs));
    p->names = calloc(n + 1, sizeof(char *));
    p->offset = malloc((n + 1) * sizeof(size_t));
    p->order = malloc((n + 1) * sizeof(size_t));
    p->starts = malloc((n + 1) * sizeof(size_t));
    p->in_degrees = malloc((n + 1) * sizeof(int64_t));
    p->watchers = calloc(n + 1, sizeof(oa_v2_watchers));
    pr = malloc((n + 1) * sizeof(int64_t));
    if (p->out_vid == NULL || p->defs == NULL || p->names == NULL || p->offset == NULL ||
        p->order == NULL || p->starts == NULL || p->in_degrees == NULL || p->watchers == NULL || pr == NULL) {
        free(pr);
        oa_v2_graph_prog_destroy(p);
        return OA_FAIL(OA_E_NOMEM, "graph program %s", g->name);
    }
    if (g->n_outs) {
        memcpy(p->out_vid, g->out_vid, g->n_outs * sizeof(uint32_t));
    }
    size_t launches = 0;
    for (size_t i = 0; i < n && st == OA_OK; ++i) {
        p->defs[i] = oa_v2_registry_find(reg, g->nodes[i].type);
        if (p->defs[i] == NULL) {
            st = OA_FAIL(OA_E_INTERNAL, "Failed to find exec node kernel funcs: type %s (node %s, graph %s)",
                         g->nodes[i].type, g->nodes[i].name, g->name);
        }
        p->names[i] = oa_strdup(g->nodes[i].name);
        if (st == OA_OK && p->names[i] == NULL) {
            st = OA_FAIL(OA_E_NOMEM, "node names");
        }
        if (g->nodes[i].role == OA_V2_BN_LAUNCH) {
            launches++;
        }
    }
    if (st == OA_OK) {
        st = build_adj(g, &a);
        if (st == OA_OK) {
            st = compute_priorities(g, &a, pr);
            if (st == OA_OK) {
                st = order_nodes(g, &a, pr, p->order);
            }
            if (st == OA_OK) {
                const size_t ne = a.succ_off[n];
                p->watch_ids = malloc((ne + 1) * sizeof(size_t));
                if (p->watch_ids == NULL) {
                    st = OA_FAIL(OA_E_NOMEM, "watchers");
                } else {
                    memcpy(p->watch_ids, a.succ, ne * sizeof(size_t));
                    for (size_t i = 0; i < n; ++i) {
                        p->watchers[i].watch_num = a.succ_off[i + 1] - a.succ_off[i];
                        p->watchers[i].node_ids = p->watch_ids + a.succ_off[i];
                        p->in_degrees[i] = (int64_t)(a.pred_off[i + 1] - a.pred_off[i]);
                        if (p->in_degrees[i] == 0) {
                            p->starts[p->start_num++] = i;
                        }
                    }
                }
            }
            adj_free(&a);
        }
    }
    if (st != OA_OK) {
        free(pr);
        oa_v2_graph_prog_destroy(p);
        return st;
    }
    p->kind = force_kind ? *force_kind : oa_v2_select_executor(g->control_flow, launches);
    /* records laid out in run order */
    size_t total = 0;
    for (size_t k = 0; k < n; ++k) {
        const bnode *b = &g->nodes[p->order[k]];
        p->offset[p->order[k]] = total;
        total += oa_v2_node_record_size((size_t)b->n_in + b->n_out);
    }
    p->records_size = total;
    p->records = aligned_alloc(64, total ? (total + 63) & ~(size_t)63 : 64);
    if (p->records == NULL) {
        free(pr);
        oa_v2_graph_prog_destroy(p);
        return OA_FAIL(OA_E_NOMEM, "records of graph %s", g->name);
    }
    for (size_t i = 0; i < n; ++i) {
        const bnode *b = &g->nodes[i];
        oa_v2_node *rec = (oa_v2_node *)(void *)(p->records + p->offset[i]);
        rec->priority = pr[i];
        rec->node_id = i;
        rec->func = p->defs[i]->run;
        oa_v2_ctx *c = oa_v2_node_ctx(rec);
        c->input_size = b->n_in;
        c->output_size = b->n_out;
        c->compute_node_info = b->info;
        c->kernel_extend_info = NULL;
        c->output_start = NULL;
        for (uint32_t k = 0; k < b->n_in + b->n_out; ++k) {
            c->values[k] = (oa_v2_value *)(uintptr_t)b->vals[k];
        }
    }
    free(pr);
    *out = p;
    return OA_OK;
}

oa_v2_executor_kind oa_v2_graph_prog_kind(const oa_v2_graph_prog *p)
{
    return p->kind;
}

const char *oa_v2_graph_prog_name(const oa_v2_graph_prog *p)
{
    return p->name;
}

size_t oa_v2_graph_prog_node_count(const oa_v2_graph_prog *p)
{
    return p->node_num;
}

const size_t *oa_v2_graph_prog_order(const oa_v2_graph_prog *p)
{
    return p->order;
}

int64_t oa_v2_graph_prog_priority(const oa_v2_graph_prog *p, size_t node_id)
{
    return ((const oa_v2_node *)(const void *)(p->records + p->offset[node_id]))->priority;
}

const char *oa_v2_graph_prog_node_type(const oa_v2_graph_prog *p, size_t node_id)
{
    return p->defs[node_id]->type;
}

const char *oa_v2_graph_prog_node_name(const oa_v2_graph_prog *p, size_t node_id)
{
    return p->names[node_id];
}

size_t oa_v2_graph_prog_feeds(const oa_v2_graph_prog *p, const uint32_t **vids, const int64_t **indices)
{
    if (vids) {
        *vids = p->feed_vid;
    }
    if (indices) {
        *indices = p->feed_idx;
    }
    return p->n_feeds;
}

size_t oa_v2_graph_prog_outputs(const oa_v2_graph_prog *p, const uint32_t **vids)
{
    *vids = p->out_vid;
    return p->n_outs;
}

/* ---- instances ---- */

struct oa_v2_graph_inst {
    const oa_v2_graph_prog *prog;
    uint8_t *records;
    oa_v2_node **by_id;
    oa_v2_node **run_order;
    oa_v2_node **starts;
    oa_v2_node **ready;
    int64_t *in_degrees;
    oa_v2_value **feeds;
    oa_v2_value **outs;
    oa_v2_seq_data seq;
    oa_v2_topo_data topo;
    void *hook_arg;
    size_t n_created; /* nodes whose create_outputs ran (for destroy) */
};

void oa_v2_graph_inst_destroy(oa_v2_graph_inst *x)
{
    if (x == NULL) {
        return;
    }
    for (size_t k = 0; k < x->n_created; ++k) {
        const size_t id = x->prog->order[k];
        const oa_v2_kernel_def *d = x->prog->defs[id];
        if (d->destroy_outputs != NULL) {
            d->destroy_outputs(oa_v2_node_ctx(x->by_id[id]), x->hook_arg);
        }
    }
    free(x->records);
    free(x->by_id);
    free(x->run_order);
    free(x->starts);
    free(x->ready);
    free(x->in_degrees);
    free(x->feeds);
    free(x->outs);
    free(x);
}

oa_status oa_v2_graph_inst_create(const oa_v2_graph_prog *p, oa_v2_value *values, void *hook_arg,
                                  oa_v2_graph_inst **out)
{
    *out = NULL;
    const size_t n = p->node_num;
    oa_v2_graph_inst *x = calloc(1, sizeof(*x));
    if (x == NULL) {
        return OA_FAIL(OA_E_NOMEM, "graph instance");
    }
    x->prog = p;
    x->hook_arg = hook_arg;
    x->records = aligned_alloc(64, p->records_size ? (p->records_size + 63) & ~(size_t)63 : 64);
    x->by_id = malloc((n + 1) * sizeof(*x->by_id));
    x->run_order = malloc((n + 1) * sizeof(*x->run_order));
    x->starts = malloc((p->start_num + 1) * sizeof(*x->starts));
    x->ready = malloc((n + 2) * sizeof(*x->ready));
    x->in_degrees = malloc((n + 1) * sizeof(int64_t));
    x->feeds = malloc((p->n_feeds + 1) * sizeof(*x->feeds));
    x->outs = malloc((p->n_outs + 1) * sizeof(*x->outs));
    if (x->records == NULL || x->by_id == NULL || x->run_order == NULL || x->starts == NULL || x->ready == NULL ||
        x->in_degrees == NULL || x->feeds == NULL || x->outs == NULL) {
        oa_v2_graph_inst_destroy(x);
        return OA_FAIL(OA_E_NOMEM, "graph instance %s", p->name);
    }
    if (p->records_size) {
        memcpy(x->records, p->records, p->records_size);
    }
    for (size_t i = 0; i < n; ++i) {
        oa_v2_node *rec = (oa_v2_node *)(void *)(x->records + p->offset[i]);
        oa_v2_ctx *c = oa_v2_node_ctx(rec);
        for (size_t k = 0; k < c->input_size + c->output_size; ++k) {
            c->values[k] = &values[(uintptr_t)c->values[k]];
        }
        c->output_start = &c->values[c->input_size];
        x->by_id[i] = rec;
        x->in_degrees[i] = p->in_degrees[i];
    }
    for (size_t k = 0; k < n; ++k) {
        x->run_order[k] = x->by_id[p->order[k]];
    }
    for (size_t k = 0; k < p->start_num; ++k) {
        x->starts[k] = x->by_id[p->starts[k]];
    }
    for (size_t k = 0; k < p->n_feeds; ++k) {
        x->feeds[k] = &values[p->feed_vid[k]];
    }
    for (size_t k = 0; k < p->n_outs; ++k) {
        x->outs[k] = &values[p->out_vid[k]];
    }
    x->seq.node_num = n;
    x->seq.nodes = x->run_order;
    x->seq.input_num = p->n_feeds;
    x->seq.inputs = x->feeds;
    x->seq.output_num = p->n_outs;
    x->seq.outputs = x->outs;
    x->topo.base = x->seq;
    x->topo.base.nodes = x->by_id;
    x->topo.start_num = p->start_num;
    x->topo.start_nodes = x->starts;
    x->topo.in_degrees = x->in_degrees;
    x->topo.in_degrees_backup = p->in_degrees;
    x->topo.watchers = p->watchers;
    x->topo.ready = x->ready;
    for (size_t k = 0; k < n; ++k) {
        const size_t id = p->order[k];
        const oa_v2_kernel_def *d = p->defs[id];
        if (d->create_outputs != NULL) {
            oa_status st = d->create_outputs(oa_v2_node_ctx(x->by_id[id]), hook_arg);
            if (st != OA_OK) {
                x->n_created = k;
                oa_v2_graph_inst_destroy(x);
                return st;
            }
        }
        x->n_created = k + 1;
    }
    *out = x;
    return OA_OK;
}

oa_v2_node *oa_v2_graph_inst_node(oa_v2_graph_inst *x, size_t node_id)
{
    return node_id < x->prog->node_num ? x->by_id[node_id] : NULL;
}

uint32_t oa_v2_graph_inst_run(oa_v2_graph_inst *x, int graph_type, const oa_v2_subscriber *sub)
{
    switch (x->prog->kind) {
    case OA_V2_EXEC_TOPOLOGICAL:
        return sub ? oa_v2_run_topological_sub(graph_type, &x->topo, sub) : oa_v2_run_topological(&x->topo);
    case OA_V2_EXEC_TOPO_PRIORITY:
        return sub ? oa_v2_run_topo_priority_sub(graph_type, &x->topo, sub) : oa_v2_run_topo_priority(&x->topo);
    default:
        return sub ? oa_v2_run_sequential_sub(graph_type, &x->seq, sub) : oa_v2_run_sequential(&x->seq);
    }
}

/*
 * The executors of v2_exec.h: value cells, the sequential, topological and
 * priority-topological loops (plain and subscriber variants) and the heap.
 */
#include <stdlib.h>

#include "base/error.h"
#include "model_v2/v2_exec.h"

_Static_assert(sizeof(oa_v2_node) == 24, "node record head is 24 bytes");
_Static_assert(__builtin_offsetof(oa_v2_ctx, values) == 40, "KernelRunContext values start at byte 40");

void oa_v2_value_set(oa_v2_value *v, void *ptr, oa_v2_deleter deleter)
{
    if (v->deleter != NULL && v->data.ptr != NULL && v->data.ptr != ptr) {
        v->deleter(v->data.ptr);
    }
    v->data.ptr = ptr;
    v->deleter = deleter;
}

void oa_v2_value_reset(oa_v2_value *v)
{
    if (v->deleter != NULL && v->data.ptr != NULL) {
        v->deleter(v->data.ptr);
    }
    v->data.ptr = NULL;
    v->deleter = NULL;
}

size_t oa_v2_node_record_size(size_t n_values)
{
    return sizeof(oa_v2_node) + sizeof(oa_v2_ctx) + n_values * sizeof(oa_v2_value *);
}

/* ---- sequential ---- */

uint32_t oa_v2_run_sequential(const oa_v2_seq_data *d)
{
    oa_v2_node *const *nodes = d->nodes;
    const size_t n = d->node_num;
    for (size_t i = 0; i < n; ++i) {
        const uint32_t st = nodes[i]->func(oa_v2_node_ctx(nodes[i]));
        if (st != 0) {
            return st;
        }
    }
    return 0;
}

uint32_t oa_v2_run_sequential_sub(int graph_type, const oa_v2_seq_data *d, const oa_v2_subscriber *s)
{
    if (s == NULL || s->callback == NULL) {
        return (uint32_t)OA_E_INTERNAL;
    }
    s->callback(graph_type, s->arg, OA_V2_MODEL_START, NULL, 0);
    for (size_t i = 0; i < d->node_num; ++i) {
        oa_v2_node *node = d->nodes[i];
        s->callback(graph_type, s->arg, OA_V2_NODE_START, node, 0);
        const uint32_t st = node->func(oa_v2_node_ctx(node));
        s->callback(graph_type, s->arg, OA_V2_NODE_END, node, st);
        if (st != 0) {
            return st;
        }
    }
    s->callback(graph_type, s->arg, OA_V2_MODEL_END, NULL, 0);
    return 0;
}

/* ---- topological (FIFO ready queue) ---- */

static void restore_in_degrees(oa_v2_topo_data *d)
{
    for (size_t i = 0; i < d->base.node_num; ++i) {
        d->in_degrees[i] = d->in_degrees_backup[i];
    }
}

/* Queues the watchers of node that became ready; returns the new tail. */
static inline size_t release_watchers(oa_v2_topo_data *d, const oa_v2_node *node, size_t tail)
{
    const oa_v2_watchers *w = &d->watchers[node->node_id];
    for (size_t i = 0; i < w->watch_num; ++i) {
        const size_t id = w->node_ids[i];
        if (--d->in_degrees[id] == 0) {
            d->ready[tail++] = d->base.nodes[id];
            d->in_degrees[id] = d->in_degrees_backup[id];
        }
    }
    return tail;
}

uint32_t oa_v2_run_topological(oa_v2_topo_data *d)
{
    size_t head = 0, tail = 0;
    for (size_t i = 0; i < d->start_num; ++i) {
        d->ready[tail++] = d->start_nodes[i];
    }
    while (head < tail) {
        oa_v2_node *node = d->ready[head++];
        const uint32_t st = node->func(oa_v2_node_ctx(node));
        if (st != 0) {
            restore_in_degrees(d);
            return st;
        }
        tail = release_watchers(d, node, tail);
    }
    return 0;
}

uint32_t oa_v2_run_topological_sub(int graph_type, oa_v2_topo_data *d, const oa_v2_subscriber *s)
{
    if (s == NULL || s->callback == NULL) {
        return (uint32_t)OA_E_INTERNAL;
    }
    size_t head = 0, tail = 0;
    for (size_t i = 0; i < d->start_num; ++i) {
        d->ready[tail++] = d->start_nodes[i];
    }
    s->callback(graph_type, s->arg, OA_V2_MODEL_START, NULL, 0);
    while (head < tail) {
        oa_v2_node *node = d->ready[head++];
        s->callback(graph_type, s->arg, OA_V2_NODE_START, node, 0);
        const uint32_t st = node->func(oa_v2_node_ctx(node));
        s->callback(graph_type, s->arg, OA_V2_NODE_END, node, st);
        if (st != 0) {
            restore_in_degrees(d);
            return st;
        }
        tail = release_watchers(d, node, tail);
    }
    s->callback(graph_type, s->arg, OA_V2_MODEL_END, NULL, 0);
    return 0;
}

/* ---- heap ---- */

static void heap_push(oa_v2_node **heap, size_t *size, oa_v2_node *n)
{
    size_t i = ++*size;
    while (i > 1 && heap[i / 2]->priority > n->priority) {
        heap[i] = heap[i / 2];
        i /= 2;
    }
    heap[i] = n;
}

static oa_v2_node *heap_pop(oa_v2_node **heap, size_t *size)
{
    if (*size == 0) {
        return NULL;
    }
    oa_v2_node *top = heap[1];
    oa_v2_node *last = heap[(*size)--];
    size_t i = 1;
    for (;;) {
        size_t c = 2 * i;
        if (c > *size) {
            break;
        }
        if (c + 1 <= *size && heap[c + 1]->priority < heap[c]->priority) {
            c++;
        }
        if (heap[c]->priority >= last->priority) {
            break;
        }
        heap[i] = heap[c];
        i = c;
    }
    if (*size > 0) {
        heap[i] = last;
    }
    return top;
}

oa_status oa_v2_pqueue_init(oa_v2_pqueue *q, size_t cap)
{
    q->cap = cap;
    q->size = 0;
    q->heap = calloc(cap + 1, sizeof(*q->heap));
    if (q->heap == NULL) {
        return OA_FAIL(OA_E_NOMEM, "priority queue of %zu entries", cap);
    }
    return OA_OK;
}

void oa_v2_pqueue_deinit(oa_v2_pqueue *q)
{
    free(q->heap);
    q->heap = NULL;
    q->cap = q->size = 0;
}

bool oa_v2_pqueue_push(oa_v2_pqueue *q, oa_v2_node *n)
{
    if (q->size >= q->cap) {
        return false;
    }
    heap_push(q->heap, &q->size, n);
    return true;
}

oa_v2_node *oa_v2_pqueue_pop(oa_v2_pqueue *q)
{
    return heap_pop(q->heap, &q->size);
}

/* ---- priority topological (min-heap ready queue) ---- */

static inline void release_watchers_heap(oa_v2_topo_data *d, const oa_v2_node *node, size_t *size)
{
    const oa_v2_watchers *w = &d->watchers[node->node_id];
    for (size_t i = 0; i < w->watch_num; ++i) {
        const size_t id = w->node_ids[i];
        if (--d->in_degrees[id] == 0) {
            heap_push(d->ready, size, d->base.nodes[id]);
            d->in_degrees[id] = d->in_degrees_backup[id];
        }
    }
}

uint32_t oa_v2_run_topo_priority(oa_v2_topo_data *d)
{
    size_t size = 0;
    for (size_t i = 0; i < d->start_num; ++i) {
        heap_push(d->ready, &size, d->start_nodes[i]);
    }
    oa_v2_node *node;
    while ((node = heap_pop(d->ready, &size)) != NULL) {
        const uint32_t st = node->func(oa_v2_node_ctx(node));
        if (st != 0) {
            restore_in_degrees(d);
            return st;
        }
        release_watchers_heap(d, node, &size);
    }
    return 0;
}

uint32_t oa_v2_run_topo_priority_sub(int graph_type, oa_v2_topo_data *d, const oa_v2_subscriber *s)
{
    if (s == NULL || s->callback == NULL) {
        return (uint32_t)OA_E_INTERNAL;
    }
    size_t size = 0;
    for (size_t i = 0; i < d->start_num; ++i) {
        heap_push(d->ready, &size, d->start_nodes[i]);
    }
    s->callback(graph_type, s->arg, OA_V2_MODEL_START, NULL, 0);
    oa_v2_node *node;
    while ((node = heap_pop(d->ready, &size)) != NULL) {
        s->callback(graph_type, s->arg, OA_V2_NODE_START, node, 0);
        const uint32_t st = node->func(oa_v2_node_ctx(node));
        s->callback(graph_type, s->arg, OA_V2_NODE_END, node, st);
        if (st != 0) {
            restore_in_degrees(d);
            return st;
        }
        release_watchers_heap(d, node, &size);
    }
    s->callback(graph_type, s->arg, OA_V2_MODEL_END, NULL, 0);
    return 0;
}

oa_v2_executor_kind oa_v2_select_executor(bool has_control_flow, size_t launch_nodes)
{
    if (!has_control_flow) {
        return OA_V2_EXEC_SEQUENTIAL;
    }
    return launch_nodes >= 5 ? OA_V2_EXEC_TOPO_PRIORITY : OA_V2_EXEC_TOPOLOGICAL;
}

/*
 * The execute graph of the dynamic executor (CANN RT2.0 on a CPU): value
 * cells, node records, and the executors that run them.
 *
 * A lowered model is a set of execute graphs (the Init, Main and DeInit
 * graphs of the root, plus one Main graph per subgraph). Each execute graph
 * is a flat array of node records; a record is a kernel function and its
 * run context, laid out as RT2 lays them out (docs/dynamic_models.md
 * "Execute-graph records"):
 *
 *   oa_v2_node (24 bytes)     priority (the 8-byte head), node id, func
 *   oa_v2_ctx  (inline)       input count, output count, compute-node info,
 *                             kernel extend info, first output, then one
 *                             value pointer per input and per output
 *
 * Kernels read their inputs and write their outputs through the value
 * pointers; values are cells (oa_v2_value) owned by one executor instance,
 * so the same program instantiated twice (one per stream) shares nothing
 * mutable. Building (v2_build.h) is separate from running (this file): the
 * executors below are tiny loops over prebuilt data
 * (docs/conventions.md "Design rules").
 *
 * Executors (docs/dynamic_models.md "Executors"):
 *   sequential            node order fixed at build time (priority order);
 *                         stops at the first non-zero status;
 *   topological           ready queue (FIFO) seeded with the start nodes; a
 *                         watcher whose in-degree reaches 0 is queued and its
 *                         in-degree immediately restored from the backup, so
 *                         the data is ready for the next run; on a failure
 *                         every in-degree is restored from the backup;
 *   priority topological  the same with a min-heap on the node priority.
 * Each has a subscriber variant (separate loop, never an `if` in the plain
 * loop): model start, node start / end (with the status), model end only
 * on success. A NULL subscriber or callback is a failure.
 *
 * Statuses: kernels return 0 for success, else an oa_status value.
 * Thread-safety: an execution data object (and the values it points to)
 * belongs to one thread at a time; distinct instances run concurrently.
 */
#ifndef OA_MODEL_V2_V2_EXEC_H
#define OA_MODEL_V2_V2_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

/* ---- value cells (RT2 Chain / AsyncAnyValue) ---- */

typedef void (*oa_v2_deleter)(void *ptr);

typedef struct oa_v2_value {
    union {
        void *ptr;
        uint8_t inline_bytes[8];
    } data;
    oa_v2_deleter deleter; /* run on the old pointer when a new one is set */
} oa_v2_value;

/* Replaces the pointer of v, running the deleter of the previous one. */
void oa_v2_value_set(oa_v2_value *v, void *ptr, oa_v2_deleter deleter);
/* Runs the deleter (if any) and empties the cell. */
void oa_v2_value_reset(oa_v2_value *v);

/* ---- run context and node records ---- */

typedef struct oa_v2_ctx {
    size_t input_size;
    size_t output_size;
    const void *compute_node_info; /* shared, read-only (per program) */
    void *kernel_extend_info;      /* per instance (mutable state of this node) */
    oa_v2_value **output_start;    /* &values[input_size] */
    oa_v2_value *values[];         /* inputs, then outputs */
} oa_v2_ctx;

typedef uint32_t (*oa_v2_kernel_fn)(oa_v2_ctx *ctx);

typedef struct oa_v2_node {
    int64_t priority; /* the record head: smaller runs first (priority executors) */
    size_t node_id;   /* index in its execute graph */
    oa_v2_kernel_fn func;
    /* the oa_v2_ctx follows inline */
} oa_v2_node;

static inline oa_v2_ctx *oa_v2_node_ctx(oa_v2_node *n)
{
    return (oa_v2_ctx *)(void *)(n + 1);
}
static inline oa_v2_value *oa_v2_in(const oa_v2_ctx *c, size_t i)
{
    return c->values[i];
}
static inline oa_v2_value *oa_v2_out(const oa_v2_ctx *c, size_t k)
{
    return c->output_start[k];
}
/* Bytes of a record with n_values value pointers (multiple of 8). */
size_t oa_v2_node_record_size(size_t n_values);

/* ---- execution data ---- */

typedef struct oa_v2_seq_data {
    size_t node_num;
    oa_v2_node **nodes; /* run order */
    size_t input_num;
    oa_v2_value **inputs;
    size_t output_num;
    oa_v2_value **outputs;
} oa_v2_seq_data;

typedef struct oa_v2_watchers {
    size_t watch_num;
    const size_t *node_ids;
} oa_v2_watchers;

typedef struct oa_v2_topo_data {
    oa_v2_seq_data base;          /* nodes indexed by node id; inputs/outputs */
    size_t start_num;
    oa_v2_node **start_nodes;
    int64_t *in_degrees;          /* per node id */
    const int64_t *in_degrees_backup;
    const oa_v2_watchers *watchers; /* per node id */
    oa_v2_node **ready;           /* node_num + 1 slots: FIFO ring or 1-based heap */
} oa_v2_topo_data;

/* ---- subscribers ---- */

typedef enum oa_v2_event {
    OA_V2_MODEL_START = 0,
    OA_V2_NODE_START = 1,
    OA_V2_NODE_END = 2,
    OA_V2_MODEL_END = 3
} oa_v2_event;

typedef struct oa_v2_subscriber {
    void (*callback)(int graph_type, void *arg, oa_v2_event ev, const oa_v2_node *node, uint32_t status);
    void *arg;
} oa_v2_subscriber;

/* ---- executors ---- */

typedef enum oa_v2_executor_kind {
    OA_V2_EXEC_SEQUENTIAL = 0,     /* priority order fixed at build time */
    OA_V2_EXEC_TOPOLOGICAL = 1,
    OA_V2_EXEC_TOPO_PRIORITY = 2
} oa_v2_executor_kind;

uint32_t oa_v2_run_sequential(const oa_v2_seq_data *d);
uint32_t oa_v2_run_sequential_sub(int graph_type, const oa_v2_seq_data *d, const oa_v2_subscriber *s);
uint32_t oa_v2_run_topological(oa_v2_topo_data *d);
uint32_t oa_v2_run_topological_sub(int graph_type, oa_v2_topo_data *d, const oa_v2_subscriber *s);
uint32_t oa_v2_run_topo_priority(oa_v2_topo_data *d);
uint32_t oa_v2_run_topo_priority_sub(int graph_type, oa_v2_topo_data *d, const oa_v2_subscriber *s);

/*
 * RT2's choice of executor for one executable graph: no If/Case/While
 * nodes -> sequential (priority order); otherwise at least 5 launch nodes
 * -> priority topological; else topological.
 */
oa_v2_executor_kind oa_v2_select_executor(bool has_control_flow, size_t launch_nodes);

/* ---- priority queue (priority topological executor) ---- */

/* Fixed capacity, 1-based binary min-heap on oa_v2_node.priority. */
typedef struct oa_v2_pqueue {
    size_t cap;
    size_t size;
    oa_v2_node **heap; /* cap + 1 slots, slot 0 unused */
} oa_v2_pqueue;

/* A heap of capacity cap (caller frees heap with free()). */
oa_status oa_v2_pqueue_init(oa_v2_pqueue *q, size_t cap) OA_MUST_CHECK;
void oa_v2_pqueue_deinit(oa_v2_pqueue *q);
/* false when full. */
bool oa_v2_pqueue_push(oa_v2_pqueue *q, oa_v2_node *n);
/* The smallest priority (FIFO among equals is not promised), NULL when empty. */
oa_v2_node *oa_v2_pqueue_pop(oa_v2_pqueue *q);

#endif /* OA_MODEL_V2_V2_EXEC_H */

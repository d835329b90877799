/*
 * Building execute graphs: the kernel registry, the build graph the
 * lowering fills, RT2's priority computation and ordering, and the two
 * products of a build:
 *
 *   oa_v2_graph_prog  immutable, shared by every executor instance: node
 *                     records in run order with VALUE IDS in place of value
 *                     pointers, in-degrees, watchers, executor kind;
 *   oa_v2_graph_inst  one executor instance of a prog: the records copied
 *                     and relocated onto that instance's value array, the
 *                     ready queue and in-degree arrays.
 *
 *   oa_v2_bgraph *g = oa_v2_bgraph_create("main");
 *   oa_v2_bgraph_add_feed(g, 0, v_x);                 // user input 0
 *   oa_v2_bgraph_add_feed(g, OA_V2_FEED_STREAM, v_s); // -1, -2, -3, -4
 *   size_t a = oa_v2_bgraph_add_node(g, "InferShape", name, compute_id, in, 1, out, 1, info);
 *   oa_v2_bgraph_add_ctrl(g, a, b);                   // b runs after a
 *   oa_v2_bgraph_mark(g, b, OA_V2_BN_LAUNCH);         // priority rules
 *   oa_v2_graph_prog *p; st = oa_v2_bgraph_finish(g, registry, NULL, &p);
 *   oa_v2_graph_inst *x; st = oa_v2_graph_inst_create(p, values, hook_arg, &x);
 *   st = oa_v2_graph_inst_run(x, NULL);
 *
 * Values: a program has one value space (ids 0..n-1) shared by all its
 * execute graphs; an instance owns one oa_v2_value per id. A value produced
 * by a node of the graph creates a data edge to every node of the same
 * graph reading it; values nobody in the graph produces are inputs (feeds,
 * or values another graph -- Init -- produced).
 *
 * Priorities (docs/dynamic_models.md "Priorities"): a launch node of compute
 * node k gets k * 10 + 9 (a launch without compute node: the previous launch +
 * 1); launch nodes, in increasing priority, mark themselves and their unmarked
 * ancestors; each free node and its unmarked ancestors then take the largest
 * priority among its marked ancestors; the rest keep INT64_MAX. The run order
 * is a ready-queue topological sort on (priority, insertion order). A node may
 * also be given an explicit priority (tests).
 *
 * Failures are reported once (OA_FAIL): OA_E_PARAM for bad ids, cycles and
 * feed sets that are not 0..n-1 followed by distinct -1..-4; OA_E_INTERNAL
 * "Failed to find exec node kernel funcs" for a kernel type the registry
 * does not know; OA_E_NOMEM.
 */
#ifndef OA_MODEL_V2_V2_BUILD_H
#define OA_MODEL_V2_V2_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "model_v2/v2_exec.h"

/* ---- kernel registry (docs/dynamic_models.md "Kernel registry") ---- */

typedef struct oa_v2_kernel_def {
    const char *type;
    oa_v2_kernel_fn run;
    /*
     * Called once per node of an instance, after relocation: may set
     * ctx->kernel_extend_info and initialise the output cells. arg is the
     * instance hook argument. NULL: nothing to do.
     */
    oa_status (*create_outputs)(oa_v2_ctx *ctx, void *arg);
    /* Called when the instance is destroyed (undoes create_outputs). NULL: nothing. */
    void (*destroy_outputs)(oa_v2_ctx *ctx, void *arg);
} oa_v2_kernel_def;

typedef struct oa_v2_registry {
    oa_v2_kernel_def *defs;
    size_t n;
    size_t cap;
} oa_v2_registry;

/* Adds def (strings and pointers borrowed); the same type again replaces the entry. */
oa_status oa_v2_registry_register(oa_v2_registry *r, const oa_v2_kernel_def *def) OA_MUST_CHECK;
const oa_v2_kernel_def *oa_v2_registry_find(const oa_v2_registry *r, const char *type);
void oa_v2_registry_deinit(oa_v2_registry *r);

/* ---- build graph ---- */

/* Special feeds, after the user inputs, in this order. */
#define OA_V2_FEED_STREAM (-1)
#define OA_V2_FEED_ALLOCATOR (-2)
#define OA_V2_FEED_EVENTS (-3)
#define OA_V2_FEED_NOTIFIES (-4)

/* Node roles for the priority rules. */
typedef enum oa_v2_bn_role {
    OA_V2_BN_OTHER = 0,
    OA_V2_BN_LAUNCH = 1, /* launches (and control nodes): priority k * 10 + 9 */
    OA_V2_BN_FREE = 2    /* FreeMemory: max priority of its marked ancestors */
} oa_v2_bn_role;

#define OA_V2_NO_COMPUTE SIZE_MAX

typedef struct oa_v2_bgraph oa_v2_bgraph;

oa_v2_bgraph *oa_v2_bgraph_create(const char *name);
void oa_v2_bgraph_destroy(oa_v2_bgraph *g);

/* Declares value `vid` as feed `index` (>= 0 user input, or one of OA_V2_FEED_*). */
oa_status oa_v2_bgraph_add_feed(oa_v2_bgraph *g, int64_t index, uint32_t vid) OA_MUST_CHECK;
/* Declares value `vid` as graph output (in call order). */
oa_status oa_v2_bgraph_add_output(oa_v2_bgraph *g, uint32_t vid) OA_MUST_CHECK;

/*
 * Appends a node; type must name a registry entry at finish time. name and
 * info are borrowed (info becomes ctx->compute_node_info). *id (optional)
 * receives the node id (its index in insertion order).
 */
oa_status oa_v2_bgraph_add_node(oa_v2_bgraph *g, const char *type, const char *name, size_t compute_id,
                                const uint32_t *in, uint32_t n_in, const uint32_t *out, uint32_t n_out,
                                const void *info, size_t *id) OA_MUST_CHECK;
/* Control edge: `to` runs after `from`. */
oa_status oa_v2_bgraph_add_ctrl(oa_v2_bgraph *g, size_t from, size_t to) OA_MUST_CHECK;
void oa_v2_bgraph_set_role(oa_v2_bgraph *g, size_t id, oa_v2_bn_role role);
/* Marks the graph as holding If/Case/While nodes (executor choice). */
void oa_v2_bgraph_set_control_flow(oa_v2_bgraph *g, bool on);
/* Fixes a node's priority (skips the computed one). */
void oa_v2_bgraph_set_priority(oa_v2_bgraph *g, size_t id, int64_t priority);
size_t oa_v2_bgraph_node_count(const oa_v2_bgraph *g);
/* Highest value id used + 1. */
uint32_t oa_v2_bgraph_value_span(const oa_v2_bgraph *g);

/* ---- programs and instances ---- */

typedef struct oa_v2_graph_prog oa_v2_graph_prog;
typedef struct oa_v2_graph_inst oa_v2_graph_inst;

/*
 * Computes priorities and order, resolves kernels, lays out the records.
 * force_kind: NULL = RT2's selection (oa_v2_select_executor), else that
 * executor. The build graph may be destroyed afterwards.
 */
oa_status oa_v2_bgraph_finish(const oa_v2_bgraph *g, const oa_v2_registry *reg, const oa_v2_executor_kind *force_kind,
                              oa_v2_graph_prog **out) OA_MUST_CHECK;
void oa_v2_graph_prog_destroy(oa_v2_graph_prog *p);

oa_v2_executor_kind oa_v2_graph_prog_kind(const oa_v2_graph_prog *p);
const char *oa_v2_graph_prog_name(const oa_v2_graph_prog *p);
size_t oa_v2_graph_prog_node_count(const oa_v2_graph_prog *p);
/* Node ids in sequential run order (for tests and dumps). */
const size_t *oa_v2_graph_prog_order(const oa_v2_graph_prog *p);
int64_t oa_v2_graph_prog_priority(const oa_v2_graph_prog *p, size_t node_id);
const char *oa_v2_graph_prog_node_type(const oa_v2_graph_prog *p, size_t node_id);
const char *oa_v2_graph_prog_node_name(const oa_v2_graph_prog *p, size_t node_id);
/* Feeds in the order 0..n-1, -1..-4 (value ids, indices). */
size_t oa_v2_graph_prog_feeds(const oa_v2_graph_prog *p, const uint32_t **vids, const int64_t **indices);
size_t oa_v2_graph_prog_outputs(const oa_v2_graph_prog *p, const uint32_t **vids);

/*
 * Instantiates p on values[] (the instance's cells, at least the program's
 * value span). hook_arg goes to every kernel's create_outputs.
 */
oa_status oa_v2_graph_inst_create(const oa_v2_graph_prog *p, oa_v2_value *values, void *hook_arg,
                                  oa_v2_graph_inst **out) OA_MUST_CHECK;
void oa_v2_graph_inst_destroy(oa_v2_graph_inst *x);
/* The record of node id in this instance (tests). */
oa_v2_node *oa_v2_graph_inst_node(oa_v2_graph_inst *x, size_t node_id);

/*
 * Runs the instance with its program's executor; sub != NULL selects the
 * subscriber variant (graph_type is passed to the callback).
 */
uint32_t oa_v2_graph_inst_run(oa_v2_graph_inst *x, int graph_type, const oa_v2_subscriber *sub);

#endif /* OA_MODEL_V2_V2_BUILD_H */

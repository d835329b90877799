/*
 * model_v2 internals shared by the lowering (v2_lower.c), the execute-node
 * kernels (v2_kernels.c), the kernel-operator cache (v2_kop.c), the plan
 * cache (v2_plan.c) and the executor objects (v2_model.c).
 *
 * Three lifetimes:
 *   program   (v2_program, v2_gprog, v2_cnode, v2_tdef): built once at
 *             load from the IR, immutable afterwards except for the caches
 *             hanging off it (kernel operators per shape signature, plans
 *             per input-shape signature), which have their own locks;
 *   executor  (v2_exec, RT2's ModelV2Executor): one per stream (and a pool
 *             for synchronous calls): the value cells, the runtime tensors,
 *             the graph instances, an allocator, a workspace, a thread pool;
 *   execution one run of an executor: user buffers bound, a per-run arena
 *             for inferred values (dynamic path only).
 */
#ifndef OA_MODEL_V2_V2_INTERNAL_H
#define OA_MODEL_V2_V2_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl_mdl.h"
#include "acl_mdl/model.h"
#include "base/status.h"
#include "graph/graph.h"
#include "kernels/kernels.h"
#include "model_v2/v2_alloc.h"
#include "model_v2/v2_build.h"
#include "op_bind/op_bind.h"

#define V2_NONE UINT32_MAX

typedef struct v2_model v2_model;
typedef struct v2_exec v2_exec;
typedef struct v2_gprog v2_gprog;
typedef struct v2_plan v2_plan;

/* ---- kernel operators per shape signature (v2_kop.c) ---- */

typedef enum v2_ksrc_kind {
    V2_KSRC_ABSENT = 0, /* NULL run pointer */
    V2_KSRC_ACT,        /* the tensor of IR input `slot` */
    V2_KSRC_CONST       /* fixed bytes (weights, synthesized scalars): cptr */
} v2_ksrc_kind;

typedef struct v2_ksrc {
    uint8_t kind;
    uint32_t slot;
    const void *cptr;
} v2_ksrc;

typedef struct v2_kop_entry {
    struct v2_kop_entry *next;
    uint64_t hash;
    size_t key_len;
    uint8_t *key;
    oa_kop *op;
    size_t ws;           /* workspace bytes */
    int n_in, n_out;
    v2_ksrc *src;        /* n_in */
    uint32_t *out_index; /* n_out: IR output of kernel output k */
    bool inplace_ok;
    bool dds;            /* the last kernel output is the count of a data-dependent dim (OA_BIND_OUT_COUNT) */
    bool has_params;
    oa_kparams params; /* what the operator was created with (reshape only keeps equal params) */
    void *synth;         /* owned copies of synthesized constants */
    atomic_int refs;     /* the cache holds one; plans hold one each */
    uint64_t last_use;
} v2_kop_entry;

typedef struct v2_kops {
    pthread_mutex_t lock;
    v2_kop_entry *head; /* most recently created first */
    size_t count;
} v2_kops;

/* ---- the lowered program ---- */

typedef enum v2_tkind {
    V2_T_INPUT = 0, /* Data: bound from the caller (user buffer, or the parent's tensor) */
    V2_T_CONST,     /* Const / Constant / FileConstant: bound by the Init graph */
    V2_T_COMPUTED,  /* output of a kernel launch (allocated) */
    V2_T_VIEW,      /* output of a view op: shares its input's block */
    V2_T_SHAPE,     /* Shape / Size: written by the executor from descs */
    V2_T_CF         /* output of a control-flow node (taken from the subgraph) */
} v2_tkind;

/* One IR tensor (a node output) of the program. */
typedef struct v2_tdef {
    uint32_t id;
    v2_tkind kind;
    const oa_node *node;  /* producer */
    uint32_t index;       /* producer output index */
    uint32_t vs, va, vm;  /* value ids: shape known, memory allocated, data ready */
    bool static_shape;    /* the IR desc is static: no InferShape node */
    bool graph_output;    /* read by its graph's NetOutput */
    bool needs_free;      /* gets a FreeMemory node */
    bool shape_determined; /* its values follow from the input shapes alone (Shape/Size, constants and
                            * integer ops on them): reading them is not a data dependence */
    int32_t input_index;  /* V2_T_INPUT: model input (root) or parent input (subgraph) */
    const oa_tensor *konst; /* V2_T_CONST (Const): the weights; NULL for FileConstant */
    const oa_value *konst_value; /* small integer / tiny float constants: their value for inference */
    const void *kdata;    /* the constant's bytes, aligned for its type (the image's, or an aligned copy) */
    uint32_t graph;       /* index of its v2_gprog */
} v2_tdef;

typedef enum v2_ckind {
    V2_C_LAUNCH = 0, /* a kernel operator (op_bind) */
    V2_C_VIEW,       /* Reshape family: output aliases input 0 */
    V2_C_SHAPE,      /* Shape */
    V2_C_SIZE,       /* Size */
    V2_C_IF,         /* If / StatelessIf */
    V2_C_CASE,
    V2_C_WHILE,
    V2_C_CALL        /* PartitionedCall */
} v2_ckind;

/* A compute node (compute_node_info of its execute nodes). */
typedef struct v2_cnode {
    const oa_node *node;
    v2_ckind kind;
    uint32_t gid;        /* program-wide index (per-executor state) */
    uint32_t graph;      /* its v2_gprog */
    uint32_t n_in;
    uint32_t *in_t;      /* tensor per IR input slot (V2_NONE: unconnected) */
    uint32_t n_out;
    uint32_t *out_t;     /* tensor per IR output */
    bool dynamic;        /* has an InferShape node */
    uint32_t n_children;
    v2_gprog **children; /* If: then, else; Case: branches; While: cond, body; Call: f */
    v2_kops kops;        /* V2_C_LAUNCH */
    v2_model *model;
} v2_cnode;

/* How a subgraph Data tensor binds to its owner's inputs. */
typedef struct v2_bind {
    uint32_t tensor;
    uint32_t parent_index; /* owner input slot (If/Case: >= 1; While/Call: loop var / arg) */
} v2_bind;

/* Per input-shape signature plans of one graph (v2_plan.c). */
typedef struct v2_plan_cache {
    pthread_mutex_t lock;
    v2_plan *head;
    size_t count;
} v2_plan_cache;

struct v2_gprog {
    uint32_t index;
    const oa_graph *g;
    const char *name;
    bool is_root;
    uint32_t n_binds;
    v2_bind *binds;      /* Data tensors (root: input_index = model input) */
    uint32_t n_out;
    uint32_t *out_t;     /* NetOutput input i -> tensor */
    uint32_t n_cnodes;
    v2_cnode **cnodes;   /* topological order */
    oa_v2_graph_prog *main;
    bool has_cf;
    bool has_while;
    v2_plan_cache plans;
};

typedef struct v2_program {
    uint32_t n_graphs;
    v2_gprog **graphs;       /* [0] = root */
    uint32_t n_tensors;
    v2_tdef *tensors;
    uint32_t n_cnodes;       /* program-wide compute node count */
    uint32_t n_values;
    uint32_t v_stream, v_allocator, v_events, v_notifies; /* special feeds of the root Main graph */
    uint32_t v_session, v_weights, v_desc;                /* the Init graph's three const inputs */
    oa_v2_graph_prog *init;
    oa_v2_graph_prog *deinit;
    uint32_t n_outputs;      /* model outputs: Output nodes of the root */
} v2_program;

/* ---- the loaded model (oa_model.exec) ---- */

typedef struct v2_stream_entry {
    aclrtStream stream;
    v2_exec *exec;
} v2_stream_entry;

struct v2_model {
    oa_model *m;             /* borrowed: the table's object (info, id) */
    oa_graph *root;          /* owns the weights (blob of the image or mapping) */
    void *image_copy;        /* memory loads: our copy of the .om bytes */
    const char *img;         /* file loads: the read-only mapping of the .om (pages of packed weights are dropped) */
    size_t img_size;
    void *fc_set;            /* oa_fc_set * of the FileConstants (NULL: none) */
    v2_program prog;
    void **copies;           /* aligned copies of constants the image holds at odd addresses */
    size_t n_copies;
    size_t n_threads;        /* participants per execution */
    /* CheckIoReuseAddrs pairs */
    size_t n_reuse;
    uint32_t (*reuse)[2];
    /* StreamExecutor: stream -> executor (recursive lock) */
    pthread_mutex_t stream_lock;
    v2_stream_entry *streams;
    size_t n_streams, cap_streams;
    /* executors for synchronous calls (one per concurrent caller) */
    pthread_mutex_t sync_lock;
    v2_exec **sync_free;
    size_t n_sync_free, cap_sync_free;
    v2_exec **all_sync;
    size_t n_all_sync, cap_all_sync;
    atomic_uint_fast64_t clock; /* LRU clock of the caches */
    bool plans_enabled;
    struct v2_profile *profile; /* OPENACL_V2_PROFILE=1: time per execute node, printed at unload */
    char om_name[256];          /* dump: the .om base name ("" for memory loads) */
    atomic_uint_fast64_t runs;  /* executions started: the dump step */
    struct {
        atomic_uint_fast64_t dynamic_runs, plan_runs, plans_recorded, infers, kop_creates, allocs, executors, plan_blocks,
            plan_inplace, returned_chunks;
    } stats;
};
#define V2_STAT(m, field) atomic_fetch_add_explicit(&(m)->stats.field, 1, memory_order_relaxed)

/* ---- OPENACL_V2_PROFILE (a debugging aid: a separate subscriber loop) ---- */

typedef struct v2_prof_arg {
    v2_model *model;
    const oa_v2_graph_prog *prog; /* NULL: the graph's Main program (graph_type = graph index) */
    uint64_t t0;
} v2_prof_arg;

void oa_v2_profile_cb(int graph_type, void *arg, oa_v2_event ev, const oa_v2_node *node, uint32_t status);
/* Adds dt ns to the entry of (name, type) (strings compared by address: static or the model's). */
void oa_v2_profile_add(v2_model *m, const char *name, const char *type, uint64_t dt);

/* ---- runtime tensors and executors ---- */

typedef struct v2_tensor {
    oa_tensor_desc desc;
    void *data;
    oa_v2_block *block; /* owned reference, or NULL (constant, user buffer, parent's) */
    uint8_t dds_mask;   /* dims allocated at their upper bound until the kernel reports the real extent */
} v2_tensor;

typedef enum v2_state { V2_STATE_INIT = 0, V2_STATE_LOADED = 1 } v2_state;

/* A user buffer bound to a model input or output for one execution. */
typedef struct v2_io {
    void *data;
    size_t size;
    bool allocated;   /* output: we aclrtMalloc'ed it for the caller (sync, NULL data) */
} v2_io;

typedef struct v2_plan_inst v2_plan_inst;

struct v2_exec {
    v2_model *model;
    v2_state state;
    aclrtStream stream;          /* the stream this executor serves (NULL: synchronous pool) */
    oa_v2_value *values;
    v2_tensor *tensors;
    oa_v2_graph_inst *init, *deinit;
    oa_v2_graph_inst **ginst;    /* per v2_gprog */
    v2_kop_entry **last_entry;   /* per cnode gid: the operator the last launch used */
    oa_v2_caching_allocator *caching;
    oa_v2_ext_allocator ext;
    oa_v2_allocator *alloc;      /* this execution's allocator */
    oa_v2_allocator *plan_alloc; /* plan instances' blocks; NULL: the caching allocator (v2_capture.c sets it) */
    void *ws;
    size_t ws_size;
    oa_threadpool *pool;
    const oa_v2_subscriber *sub; /* profiling / dump subscriber of this execution, or NULL */
    /* per execution */
    oa_arena *arena;             /* inferred values of the dynamic path */
    bool data_dependent;         /* a shape depended on tensor data in this run */
    bool async;
    v2_io *in_io;
    v2_io *out_io;
    size_t n_in_io, n_out_io;
    const aclmdlDataset *input;
    aclmdlDataset *output;
    /* plans instantiated on this executor */
    v2_plan_inst **plan_insts;
    size_t n_plan_insts, cap_plan_insts;
    /* the block every top-level plan run binds (v2_plan.c inst_bind): one per executor, the largest plan's size,
     * so a new input shape's plan reuses memory already faulted in */
    oa_v2_block *plan_arena;
};

/* ---- v2_lower.c ---- */

/* Lowers root (and its subgraphs) into m->prog. */
oa_status oa_v2_lower(v2_model *m) OA_MUST_CHECK;
void oa_v2_program_deinit(v2_program *p);
/* The shared kernel registry of every model (built once). */
const oa_v2_registry *oa_v2_kernel_registry(void);

/* ---- v2_kernels.c ---- */

/* Dynamic-path steps, also used by the plan recorder. */
oa_status oa_v2_infer(v2_exec *x, const v2_cnode *cn) OA_MUST_CHECK;
oa_status oa_v2_ensure_ws(v2_exec *x, size_t bytes) OA_MUST_CHECK;
/* Runs graph g's instance on x (the caller bound its inputs). */
oa_status oa_v2_run_graph(v2_exec *x, const v2_gprog *g) OA_MUST_CHECK;
/* Releases a tensor's block and forgets its data. */
void oa_v2_tensor_drop(v2_tensor *t);
/* Binds src into dst (desc, data; the block gains a reference). */
void oa_v2_tensor_share(v2_tensor *dst, const v2_tensor *src);
/* Byte size of a tensor with a static desc; false when unknown. */
bool oa_v2_desc_bytes(const oa_tensor_desc *d, size_t *out);
/* Truth value of a selector tensor (If: non-zero / non-empty; Case: the index). */
oa_status oa_v2_read_selector(const v2_tensor *t, const char *node, bool as_index, int64_t *out) OA_MUST_CHECK;

/* ---- v2_kop.c ---- */

/*
 * The operator for cn with the current shapes of its input tensors
 * (created through op_bind on first use of a signature). The cache keeps
 * the entry; *out is borrowed until the model is unloaded, unless a
 * reference is taken (plans).
 */
oa_status oa_v2_kop_get(v2_exec *x, v2_cnode *cn, v2_kop_entry **out) OA_MUST_CHECK;
void oa_v2_kop_entry_release(v2_kop_entry *e);
void oa_v2_kops_init(v2_kops *k);
void oa_v2_kops_deinit(v2_kops *k);

/* ---- v2_plan.c ---- */

typedef enum v2_plan_result {
    V2_PLAN_RAN = 0,     /* the plan ran (status in *st) */
    V2_PLAN_NONE = 1,    /* no plan for these shapes: run the dynamic path */
} v2_plan_result;

/* Tries the plan of the root for the bound inputs. */
v2_plan_result oa_v2_plan_try_root(v2_exec *x, oa_status *st);
/* After a successful dynamic run of the root: records a plan for its input shapes. */
void oa_v2_plan_record_root(v2_exec *x);
/* Runs child graph g on the plan path when possible (If/Case/Call inside a plan). */
void oa_v2_plan_cache_init(v2_plan_cache *c);
void oa_v2_plan_cache_deinit(v2_plan_cache *c);
void oa_v2_plan_insts_free(v2_exec *x);

/* ---- v2_model.c ---- */

oa_status oa_v2_exec_create(v2_model *m, aclrtStream stream, v2_exec **out) OA_MUST_CHECK;
/* One execution on executor x (stream: the one whose registered allocator serves an async run, or NULL). */
oa_status oa_v2_run_exec(v2_exec *x, const oa_model_run *run, bool async, aclrtStream stream) OA_MUST_CHECK;
/* The tensor description of output k of dataset ds (updated in place when present). */
oa_status oa_v2_set_output_desc(aclmdlDataset *ds, size_t k, const oa_tensor_desc *d) OA_MUST_CHECK;
/* OutputData: model output k from its tensor into the caller's buffer (or a new one). */
oa_status oa_v2_emit_output(v2_exec *x, uint32_t k) OA_MUST_CHECK;
void oa_v2_exec_destroy(v2_exec *x);
uint64_t oa_v2_tick(v2_model *m);

#endif /* OA_MODEL_V2_V2_INTERNAL_H */

/*
 * The static executor's program: what model_v1 builds once at load from a
 * graph and its static memory plan, and runs many times.
 *
 *   program  = a flat task array {fn, kernel op, pointer slice} + immutable
 *              pointer references + the IO slots + per-gear sizes;
 *   context  = one execution's mutable state: the pointer table (references
 *              resolved against ITS feature map), its workspace, staging
 *              for undersized IO buffers.
 *
 * Execution (v1_exec.c) copies nothing but the few IO pointers: every
 * reference is resolved when a context is created, except those into the
 * zero-copy region of the model inputs and outputs, which are patched from
 * the user's buffers at each execution (GE's address model, logical ->
 * real, with the IO allocations refreshed per run).
 *
 * Building (v1_program.c) walks the root graph in topological order, binds
 * every kernel node (op_bind), resolves each tensor to {region, offset}
 * from the plan, checks every offset and size against the plan's regions,
 * creates the kernel operators (weights packed), sizes one workspace, and
 * turns structural nodes into tasks: NetOutput into copies where the plan
 * says so, Case into a dispatch over the branches' task ranges (gears),
 * MapIndex into "write the selected gear". This file knows nothing about
 * .om files: the plan and the constant bytes come through callbacks.
 */
#ifndef OA_MODEL_V1_V1_PROGRAM_H
#define OA_MODEL_V1_V1_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "graph/graph.h"
#include "kernels/kernels.h"
#include "program/program.h"

/* The plan of one node: output offsets, and offsets of its input slots that have a valid desc. */
typedef struct oa_v1_node_mem {
    const int64_t *out;
    size_t n_out;
    const int64_t *in;
    size_t n_in;
} oa_v1_node_mem;

/* What the builder needs from the loader. */
typedef struct oa_v1_source {
    const oa_graph *root;
    int64_t memory_size;      /* the plan's total (model attr memory_size / TASK_INFO) */
    int64_t zero_copy_size;   /* model attr zero_copy_memory_size (0: IO lives in the feature map) */
    /* plan of n; false when the node has none */
    bool (*node_mem)(void *ctx, const oa_node *n, oa_v1_node_mem *m);
    /*
     * A pointer to the bytes of a constant that stays valid for the
     * program's life (weights rebased into the model's weight memory);
     * NULL with an error recorded to refuse.
     */
    const void *(*const_ptr)(void *ctx, const oa_tensor *t);
    /*
     * Optional: true when a kernel may read the constant bytes at p (n
     * bytes) in place at run rather than pack a private copy at create (a
     * MatMul's b with few rows of a, see v1_program.c: mapped weight files
     * shared by every process, RSS only for what runs); the loader notes
     * which external weights stay in use. NULL: always pack.
     */
    bool (*read_in_place)(void *ctx, const void *p, size_t n);
    /*
     * Optional: called after each kernel is created, so that the loader can
     * release the pages of the constants it packed (never read again, unless
     * read in place). NULL: nothing.
     */
    void (*kernel_created)(void *ctx);
    /* optional: bytes [p, p + n) of a constant the kernel being created has packed and will not read again
     * (oa_kconst_set_hook; the loader may release their pages before the kernel is done) */
    void (*const_consumed)(void *ctx, const void *p, size_t n);
    /*
     * Optional: where the run reads the constant at p (n bytes) that a
     * kernel did not pack at create, or that a NetOutput copies: p, or the
     * loader's own copy when reading p at run would map back memory it
     * releases after the build. NULL with an error recorded to refuse;
     * the hook NULL: p.
     */
    const void *(*run_const)(void *ctx, const void *p, size_t n);
    void *ctx;
    size_t expect_inputs;     /* the model description's counts (SIZE_MAX: not checked) */
    size_t expect_outputs;
} oa_v1_source;

typedef struct v1_exec v1_exec;

/*
 * What dump and profiling report of a kernel task (docs/dump.md): the GE
 * type, the input descs, and the framework ops fused into the node
 * (`_datadump_original_op_names`; orig_out: the one whose output the node's
 * output 0 is, NULL when the node is a framework op itself).
 */
typedef struct v1_task_meta {
    const char *type;
    const oa_ktensor *ins;      /* n_in kernel input descs */
    const char *const *orig;
    size_t n_orig;
    const char *orig_out;
} v1_task_meta;

/* Dump and profiling of one execution (NULL in v1_io: neither, the common case). */
struct oa_dump_run;
typedef struct v1_observe {
    struct oa_dump_run *dump;   /* NULL: no dump */
    bool prof;                  /* per-task profiling records */
    uint32_t model_id;
    uint64_t last_ns;           /* end of the previous task (profiling) */
} v1_observe;

/*
 * Tasks, pointer references and Case tables are the static-program
 * engine's (src/program/program.h): a kernel task is a launch record whose
 * meta is its v1_task_meta; copies, gear index and Case are the engine's
 * record kinds.
 */
typedef oa_prog_task v1_task;
typedef oa_prog_ref v1_ref;
#define V1_REF_NULL OA_PREF_NULL
#define V1_REF_WORK OA_PREF_WORK
#define V1_REF_ABS OA_PREF_ABS
#define V1_REF_IN OA_PREF_IN
#define V1_REF_OUT OA_PREF_OUT

/* A model input or output: its planned location. */
typedef struct v1_io_slot {
    bool zero_copy;  /* in the zero-copy region: bound to the user buffer */
    uint64_t off;    /* logical offset */
    size_t size;     /* planned bytes (the largest gear) */
} v1_io_slot;

/* Sizes one gear (or the static model) reads and writes. */
typedef struct v1_variant {
    size_t *in_bytes;   /* n_inputs */
    size_t *out_bytes;  /* n_outputs */
    size_t *out_rank;   /* n_outputs */
    int64_t *out_dims;  /* n_outputs * OA_KMAX_DIMS */
} v1_variant;

typedef struct oa_v1_program {
    oa_prog prog;           /* tasks (the root graph: [0, prog.n_main)), references, patches, Case tables */
    size_t n_inputs;
    size_t n_outputs;
    v1_io_slot *in_slot;
    v1_io_slot *out_slot;
    size_t n_variants;      /* 1, or the number of gears */
    v1_variant *variants;
    /* gears (n_variants > 1): the gear input and the values of each gear */
    size_t gear_input;      /* SIZE_MAX when none */
    size_t gear_len;
    int64_t *gear_values;   /* n_variants * gear_len */
    uint64_t memory_size;
    uint64_t zero_copy_off; /* memory_size - zero_copy_size: the feature map proper */
    uint64_t work_hi;       /* end of the highest tensor the program places below zero_copy_off */
    uint64_t io_hi;         /* end of the highest zero-copy IO slot (zero_copy_off when none) */
    size_t ws_size;         /* the largest kernel workspace not placed in the feature map (v1_wsplace.c) */
    size_t ws_full;         /* the largest kernel workspace (the shared one on a feature map not 64-byte aligned) */
    size_t n_kops;
    oa_kop **kops;
    size_t n_blocks;
    void **blocks;          /* allocations owned by the program (constants, names) */
    size_t n_kernel_tasks;  /* statistics */
    size_t n_nchwc_tasks;
    size_t n_fused_tasks;
    uint64_t *prof_ns;      /* OPENACL_V1_PROFILE=1 at load: time per task, summed, then the run count
                             * (n_tasks + 1 entries; printed at destroy) */
    uint32_t *prof_win;     /* with it: each task's time in the last V1_PROF_WINDOW runs (ns, saturated), row
                             * run % V1_PROF_WINDOW: the medians printed beside the means */
    uint64_t prof_runs;     /* load-time flag only */
    oa_kthreads *thr;       /* whole runs with the pool or on the calling thread (v1_run.c), learnt at run */
} oa_v1_program;

/*
 * Builds a program. On failure nothing is left (reported once): OA_E_GE_PARAM
 * for plan offsets/sizes outside memory_size or IO counts that disagree,
 * op_bind's and the kernels' codes for nodes they refuse (the message names
 * the node), OA_E_NOT_SUPPORTED for control flow other than gears,
 * OA_E_NOMEM.
 */
oa_status oa_v1_program_build(const oa_v1_source *src, oa_v1_program **out) OA_MUST_CHECK;

/* Frees a program and its kernel operators. Accepts NULL. */
void oa_v1_program_destroy(oa_v1_program *p);

/* ---- execution ---- */

/* One execution's mutable state (contexts are pooled by the model). */
typedef struct v1_ctx {
    void **ptrs;          /* n_refs entries */
    uint8_t *work;        /* feature map base (memory_size or zero_copy_off bytes) */
    uint64_t work_cap;    /* bytes usable at work */
    bool own_work;
    uint8_t *ws;          /* workspace (ws_size, 64-byte aligned) */
    size_t ws_cap;        /* its mapped bytes */
    uint8_t *stage;       /* staging for undersized IO buffers (lazily, zero_copy_size bytes) */
    struct v1_ctx *next;  /* free list */
} v1_ctx;

/* One user buffer. */
typedef struct v1_iobuf {
    void *data;
    uint64_t len;
} v1_iobuf;

/* The IO of one execution, captured when it is submitted. */
typedef struct v1_io {
    const v1_iobuf *in;   /* n_inputs */
    const v1_iobuf *out;  /* n_outputs */
    size_t variant;       /* the gear to run */
    v1_observe *obs;      /* dump / profiling of this execution, NULL when off */
} v1_io;

/* The engine's exec of one run, with what the observing loop reads (oa_prog_exec.owner). */
struct v1_exec {
    oa_prog_exec e;
    const oa_v1_program *p;
    v1_ctx *c;
    v1_observe *obs;
    uint32_t *prof_row; /* OPENACL_V1_PROFILE: this run's row of prof_win */
};

/* Runs whose task times OPENACL_V1_PROFILE keeps for its medians (a slow run on a busy host moves a mean, not
 * the median). */
#define V1_PROF_WINDOW 256

/*
 * A context whose feature map is work (work_cap bytes). work NULL: the
 * context allocates work_cap bytes (0: memory_size, the zero-copy region
 * included, as GE does). OA_E_GE_PARAM when work_cap is smaller than the
 * feature map proper, OA_E_GE_MEMORY_ALLOCATION / OA_E_NOMEM.
 */
oa_status oa_v1_ctx_create(const oa_v1_program *p, void *work, uint64_t work_cap, v1_ctx **out) OA_MUST_CHECK;
void oa_v1_ctx_destroy(v1_ctx *c);

/*
 * Runs one execution in context c: stages undersized inputs, patches the IO
 * pointers, runs the tasks, copies staged outputs back. io holds buffers
 * already checked by the caller (counts, sizes, non-NULL data).
 */
oa_status oa_v1_run(const oa_v1_program *p, v1_ctx *c, const v1_io *io, void *pool) OA_MUST_CHECK;

#endif /* OA_MODEL_V1_V1_PROGRAM_H */

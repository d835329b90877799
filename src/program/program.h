/*
 * The static-program engine (README.md): a frozen run of kernel operators
 * that executes with no shape inference, no allocation and no lookup.
 *
 *   program  = a flat record array {fn, kernel op, pointer slice, aux} over
 *              a list of pointer references (where each pointer of each
 *              record points: nothing, work memory + offset, a fixed
 *              address, an input or output base + offset), the indexes of
 *              the references patched per run, and the branch tables of
 *              the Case records;
 *   pointer table = one execution context's resolved references: bound
 *              once onto its work memory (oa_prog_bind), then only the
 *              input / output references are patched per run
 *              (oa_prog_patch);
 *   exec     = what one run of the loop (oa_prog_run) sees: the program,
 *              the pointer table, the workspace, the thread pool, the
 *              selected branch, an optional per-record observer and the
 *              owner's data (the executors' own record kinds read it).
 *
 * model_v1's task program and model_v2's plan cache both build their
 * programs here and run them through oa_prog_run. This layer knows no IR,
 * no .om and no ACL object: kernels only.
 */
#ifndef OA_PROGRAM_PROGRAM_H
#define OA_PROGRAM_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "kernels/kernels.h"

typedef struct oa_prog oa_prog;
typedef struct oa_prog_task oa_prog_task;
typedef struct oa_prog_exec oa_prog_exec;

/*
 * A record's function: runs record t in x; OA_OK or the failure (the loop
 * stops and logs it), or OA_PROG_ABANDON: the owner gives this run up on
 * purpose (model_v2: a branch changed the shapes, the execution reruns on
 * the dynamic path); the loop stops without logging.
 */
#define OA_PROG_ABANDON ((oa_status)0xFFFF0001u)
typedef oa_status (*oa_prog_fn)(const oa_prog_task *t, oa_prog_exec *x);

/* One record. Pointers x->ptrs[arg .. arg + n_in + n_out) are its inputs then outputs. */
struct oa_prog_task {
    oa_prog_fn fn;
    const oa_kop *op;       /* launch records: the kernel operator */
    uint32_t arg;           /* first pointer-table entry */
    uint16_t n_in;
    uint16_t n_out;
    uint64_t aux;           /* copy: bytes; case: index into cases; owner records: theirs */
    const char *name;       /* node name, for error messages */
    const oa_ktensor *outs; /* launch records: the n_out output descs (debugging), or NULL */
    const void *meta;       /* the owner's per-record data (dump, profiling, control flow), or NULL */
};

/* Where a pointer-table entry points. */
typedef enum oa_prog_ref_kind {
    OA_PREF_NULL = 0, /* an absent optional input */
    OA_PREF_WORK,     /* work memory + off (relocated per context) */
    OA_PREF_ABS,      /* a fixed address: abs (weights, constants of the program) */
    OA_PREF_IN,       /* input base io + off (patched per run) */
    OA_PREF_OUT       /* output base io + off (patched per run) */
} oa_prog_ref_kind;

typedef struct oa_prog_ref {
    uint8_t kind;
    uint32_t io;
    uint64_t off;
    const void *abs;
} oa_prog_ref;

/* A Case record's branches: record ranges [begin[b], end[b]). */
typedef struct oa_prog_case {
    uint32_t n_branches;
    uint32_t *begin;
    uint32_t *end;
} oa_prog_case;

struct oa_prog {
    size_t n_tasks;
    oa_prog_task *tasks;
    size_t n_main;          /* the top-level range: records [0, n_main) */
    size_t n_refs;
    oa_prog_ref *refs;
    size_t n_patches;
    uint32_t *patches;      /* refs of kind IN/OUT, patched per run */
    size_t n_cases;
    oa_prog_case *cases;
    size_t cap_tasks, cap_refs, cap_patches; /* building */
};

/*
 * Per record observation (debugging, dump, profiling): runs record i itself
 * (t->fn) and whatever it observes around it. NULL in the plain loop.
 */
typedef oa_status (*oa_prog_observe_fn)(oa_prog_exec *x, size_t i);

struct oa_prog_exec {
    const oa_prog *p;
    void **ptrs;                 /* the pointer table (p->n_refs entries, bound and patched) */
    void *ws;                    /* workspace (the largest kernel scratch) */
    void *pool;                  /* oa_threadpool *, or NULL */
    int32_t branch;              /* the selected gear, written by gear-index records */
    oa_prog_observe_fn observe;  /* NULL: the plain loop */
    void *owner;                 /* the executor's state for its own record kinds */
};

/* ---- building ---- */

/* Appends a reference (IN/OUT ones are also listed as patches); its index in *idx when idx != NULL. */
oa_status oa_prog_add_ref(oa_prog *p, const oa_prog_ref *r, uint32_t *idx) OA_MUST_CHECK;
/* Appends a record. */
oa_status oa_prog_add_task(oa_prog *p, const oa_prog_task *t) OA_MUST_CHECK;
/* Appends an empty Case table of n branches (ranges filled by the builder); its index in *idx. */
oa_status oa_prog_add_case(oa_prog *p, uint32_t n_branches, size_t *idx) OA_MUST_CHECK;
/* Drops the references from index n on (a record that was not emitted after all). */
void oa_prog_truncate_refs(oa_prog *p, size_t n);
/* Frees the arrays of p (not p itself, nor what records point to). Accepts NULL. */
void oa_prog_free(oa_prog *p);

/* ---- relocation ---- */

/* Binds every reference onto work: WORK -> work + off, ABS -> abs, the rest NULL until patched. */
void oa_prog_bind(const oa_prog *p, void **ptrs, uint8_t *work);
/* Patches the IN/OUT references from the bases of this run (in_base[io] + off, out_base[io] + off). */
void oa_prog_patch(const oa_prog *p, void **ptrs, void *const *in_base, void *const *out_base);

/* ---- running ---- */

/* Runs records [begin, end) (observed when x->observe != NULL); stops at the first failure (logged). */
oa_status oa_prog_run(oa_prog_exec *x, size_t begin, size_t end) OA_MUST_CHECK;

/* ---- the engine's record kinds ---- */

/* Launch: oa_kop_run(op, inputs, outputs, ws, pool). */
oa_status oa_prog_task_kernel(const oa_prog_task *t, oa_prog_exec *x);
/* Copy: aux bytes from pointer 0 to pointer 1 (nothing when they are the same). */
oa_status oa_prog_task_copy(const oa_prog_task *t, oa_prog_exec *x);
/* Gear index: writes x->branch (int32) to pointer 0. */
oa_status oa_prog_task_gear_index(const oa_prog_task *t, oa_prog_exec *x);
/* Case: reads the int32 branch index at pointer 0 and runs that branch's range of cases[aux]. */
oa_status oa_prog_task_case(const oa_prog_task *t, oa_prog_exec *x);

#endif /* OA_PROGRAM_PROGRAM_H */

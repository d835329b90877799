/*
 * Stream capture and model runtime instances (aclmdlRI*) for the rest of the
 * library.
 *
 * What other code needs to know
 * -----------------------------
 * - Asynchronous work reaches a stream through oa_stream_submit (rt_stream.h).
 *   While a stream is capturing (aclmdlRICaptureBegin, or it joined a capture
 *   by waiting on a captured event) or is bound to a built instance
 *   (aclmdlRIBindStream), the capture module's interceptor takes the task:
 *   the args bytes are copied into the instance, the task's release function
 *   is called once when the instance is freed, and aclmdlRIExecuteAsync later
 *   runs the same run function on copies of those bytes, once per replay.
 *   Addresses inside the args are replayed as they are ("baked in").
 *   So a task kind is capturable when its run function may be called several
 *   times on (a fresh copy of) the same args, from a worker thread of another
 *   stream, after the submitting call returned. Memory the args point to must
 *   stay valid until the instance is destroyed; the runtime allocates nothing
 *   for the application during a capture.
 * - Synchronous entry points that block on device work call
 *   oa_capture_check_sync_op() first (CANN's capture-mode matrix, 107030).
 * - Event record/wait/reset and synchronisation paths call the event hooks
 *   below (event.c); they are not meant for other modules.
 *
 * Hooks for task kinds (model executions, single operators)
 * ---------------------------------------------------------
 * A module that submits tasks holding resources beyond their args bytes
 * (e.g. a model execution whose work memory must stay at a fixed address for
 * every replay) registers oa_capture_hooks for its task kind:
 *   - on_capture runs on the submitting thread when a task of the kind is
 *     recorded into an instance (capture or build). It may take references,
 *     reserve pool memory for the instance and rewrite the instance's own
 *     copy of the args (e.g. to point at that memory). A failure refuses the
 *     submission with that status and invalidates the capture.
 *   - on_replay (optional) runs on the replaying worker right before each
 *     replay of the task, with the per-replay copy of the args it may adjust.
 *   - on_destroy runs once when the instance is freed (after every replay has
 *     finished and after the task's own release), to drop what on_capture took.
 * oa_mdlri_attach / oa_mdlri_lookup let such a module hang one object per key
 * (e.g. "work-memory pool of loaded model 7") on an instance: every captured
 * task of that model in the instance shares it, and it is freed with the
 * instance. oa_mdlri_id names the instance (aclmdlRIGetId).
 *
 * Locking: one process-wide capture lock orders capture state changes; it is
 * taken before stream and event locks. Replays never take it.
 */
#ifndef OA_ACL_RT_CAPTURE_H
#define OA_ACL_RT_CAPTURE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl_rt/rt_stream.h"
#include "base/status.h"

typedef struct oa_mdlri oa_mdlri;
typedef struct oa_event oa_event;
typedef struct oa_context oa_context;

/* ---- hooks for task kinds ---------------------------------------------------------- */

typedef struct oa_capture_hooks {
    /*
     * Tasks the table applies to: those of the kind with this run function
     * (several modules submit OA_TASK_KIND_MODEL tasks), NULL = every task of
     * the kind without a table of its own.
     */
    oa_task_run_fn run;
    /*
     * A task of the kind was recorded into instance m from application
     * stream s (the capturing or bound stream: its registered allocator is
     * the one to use). args/args_size: the instance's copy (16-byte aligned,
     * writable, lives until the instance is freed). *task_state (initially
     * NULL) is handed back to the other hooks.
     */
    oa_status (*on_capture)(oa_mdlri *m, oa_stream *s, void *args, size_t args_size, void **task_state);
    /* Before each replay; args is that replay's copy. May be NULL. */
    oa_status (*on_replay)(oa_mdlri *m, void *args, void *task_state, const oa_task_exec *exec);
    /* Once, when the instance is freed. May be NULL. */
    void (*on_destroy)(oa_mdlri *m, void *args, void *task_state);
} oa_capture_hooks;

/*
 * Registers hooks for a task kind (hooks must stay valid for the life of the
 * process). Idempotent; a table with the same run function replaces the
 * previous one; up to 4 tables per kind. NULL unregisters every table of the
 * kind. OA_E_PARAM for an out-of-range kind or a fifth table.
 */
oa_status oa_capture_register_hooks(oa_task_kind kind, const oa_capture_hooks *hooks) OA_MUST_CHECK;

/* Identity of an instance (aclmdlRIGetId value). */
uint32_t oa_mdlri_id(const oa_mdlri *m);

/*
 * Attaches res under key to instance m; free_fn(res) runs when the instance
 * is freed (NULL: nothing). A key already attached: OA_E_PARAM.
 */
oa_status oa_mdlri_attach(oa_mdlri *m, const void *key, void *res, void (*free_fn)(void *res)) OA_MUST_CHECK;
/* The object attached under key, or NULL. */
void *oa_mdlri_lookup(oa_mdlri *m, const void *key);

/* ---- capture state queries for other modules ------------------------------------------- */

/* True when s is capturing (status ACTIVE or INVALIDATED). */
bool oa_capture_stream_capturing(oa_stream *s);

/*
 * Whether a synchronous operation (aclrtMemcpy, aclrtMemset, aclrtMemcpy2d,
 * ...) may run now, from CANN's capture-mode matrix: the calling thread's
 * exchange mode (aclmdlRICaptureThreadExchangeMode), the modes of the
 * captures it began and the modes of every capture active in its context.
 * Refused: OA_E_RT_CAPTURE_MODE (107030), reported with `what`.
 */
oa_status oa_capture_check_sync_op(const char *what) OA_MUST_CHECK;

/*
 * An asynchronous copy involving pageable host memory is a synchronous copy:
 * on a capturing stream it is refused with OA_E_RT_PARAM (107000); otherwise
 * the matrix above applies and a refusal is OA_E_RT_CAPTURE_BLOCK_ASYNC
 * (107041).
 */
oa_status oa_capture_check_pageable_copy(oa_stream *s, const char *what) OA_MUST_CHECK;

/* ---- runtime core hooks (stream.c, event.c, device.c, context.c) ----------------------- */

/*
 * Stream synchronisation, query and destruction are refused on a capturing
 * stream: OA_E_RT_STREAM_CAPTURED (107027), reported with `what`.
 */
oa_status oa_capture_check_stream_op(oa_stream *s, const char *what) OA_MUST_CHECK;

/*
 * Event record / wait / reset on stream s. When the capture module takes the
 * operation (the stream is capturing, bound to a built instance or in task
 * update mode, the event is captured, or an external flag is used) it sets
 * *handled and returns the result; otherwise event.c proceeds normally.
 */
oa_status oa_capture_event_record(oa_event *ev, oa_stream *s, uint32_t flag, bool *handled) OA_MUST_CHECK;
oa_status oa_capture_event_wait(oa_event *ev, oa_stream *s, uint32_t flag, bool *handled) OA_MUST_CHECK;
oa_status oa_capture_event_reset(oa_event *ev, oa_stream *s, bool *handled) OA_MUST_CHECK;

/* Event synchronisation / queries: OA_E_RT_EVENT_CAPTURED (107028) for an event recorded in an active capture. */
oa_status oa_capture_check_event_op(oa_event *ev, const char *what) OA_MUST_CHECK;

/*
 * Context teardown: ends the captures of the context (their instances are
 * destroyed), destroys its instances, labels and label lists.
 */
void oa_capture_context_gone(oa_context *ctx);


/* ---- work-memory pools of captured executions (capture_pool.c) --------------------------- */

/*
 * The memory a module's captured tasks replay on (model executions: feature
 * maps, workspaces, the dynamic executor's allocator). One pool per owner
 * (a loaded model) is shared by every instance captured from it; with
 * OPENACL_RI_SHARED_POOL=0 in the environment, or when the caller asks for a
 * private pool (the capturing stream has its own allocator, which then
 * decides what is shared), the instance gets a pool of its own. Replays of
 * instances sharing a pool take turns on run_mu, so one instance's replay
 * may overwrite the work memory another one left behind, never run inside it.
 */
typedef struct oa_capture_pool {
    pthread_mutex_t run_mu;   /* held by the module while a replay runs on the pool */
    void *priv;               /* the module's state on the pool (created by the module, under run_mu or at capture) */
    void (*free_priv)(void *priv);
    uint64_t last_token;      /* the module's: which captured task ran last on the pool */
    size_t bytes;             /* accounting, kept by the module (under run_mu): bytes held now */
    size_t peak;              /* and the most ever held */
    /* private to capture_pool.c */
    const void *owner;
    uint32_t owner_id;
    bool shared;
    int32_t refs;
    struct oa_capture_pool *next;
} oa_capture_pool;

/*
 * The pool instance m uses for owner's tasks (attached to m on first use, so
 * every task of the owner in m gets the same one). owner_id: the owner's
 * number for oa_capture_pool_usage (the model id). [out] *fresh: the pool was
 * just created (the module fills priv / free_priv).
 */
oa_status oa_capture_pool_get(oa_mdlri *m, const void *owner, uint32_t owner_id, bool private_pool,
                              oa_capture_pool **out, bool *fresh) OA_MUST_CHECK;

/* Unique token for a captured task (oa_capture_pool.last_token). */
uint64_t oa_capture_pool_token(void);

/* Live pools of an owner id, and the sum of their peaks (tests, statistics). */
void oa_capture_pool_usage(uint32_t owner_id, size_t *pools, size_t *peak_sum);

#endif /* OA_ACL_RT_CAPTURE_H */

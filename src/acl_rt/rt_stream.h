/*
 * Streams for the other modules of the library (model execution, single
 * operators, the later aclmdlRI capture): how to queue work on an
 * aclrtStream, how to wait for it, and how to reach the stream's external
 * allocator.
 *
 * A stream is a FIFO served by its own worker thread. A task is
 *   { run(args, exec) -> oa_status, release(args), args bytes }
 * and the args bytes are COPIED into the task record at submission, so the
 * caller's buffer may be reused as soon as oa_stream_submit returns; whatever
 * the bytes point to must stay valid until the task has run (release is the
 * place to free such resources). Tasks run strictly in submission order, one
 * at a time per stream. A task that returns an error does not stop the
 * stream (unless the stream is in ACL_STOP_ON_FAILURE mode, which skips the
 * following tasks until the error has been reported); the first error is
 * kept and returned by the next synchronisation of that stream
 * (aclrtSynchronizeStream, oa_stream_synchronize, aclrtSynchronizeDevice),
 * after the exception-info callbacks have been called with it.
 *
 * Every asynchronous submission of the library goes through
 * oa_stream_submit: it is the single choke point where an interceptor (the
 * capture feature) can take the task instead of queueing it.
 *
 * Thread-safety: all functions may be called from any thread. A stream
 * obtained with oa_stream_acquire stays valid (memory-wise) until
 * oa_stream_release, even if the application destroys it meanwhile; a
 * submission to a stream that is being destroyed fails with
 * OA_E_RT_INVALID_HANDLE.
 */
#ifndef OA_ACL_RT_RT_STREAM_H
#define OA_ACL_RT_RT_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"
#include "base/run_scope.h"
#include "base/status.h"

typedef struct oa_stream oa_stream;

/* What a task does; kept with the task for capture, exception info and logs. */
typedef enum oa_task_kind {
    OA_TASK_KIND_GENERIC = 0,  /* anything: model execution, single operators, kernels */
    OA_TASK_KIND_MEMCPY,       /* asynchronous copy */
    OA_TASK_KIND_MEMSET,       /* asynchronous fill */
    OA_TASK_KIND_EVENT_RECORD, /* aclrtRecordEvent */
    OA_TASK_KIND_EVENT_WAIT,   /* aclrtStreamWaitEvent */
    OA_TASK_KIND_EVENT_RESET,  /* aclrtResetEvent */
    OA_TASK_KIND_CALLBACK,     /* aclrtLaunchCallback */
    OA_TASK_KIND_HOST_FUNC,    /* aclrtLaunchHostFunc */
    OA_TASK_KIND_MODEL,        /* model execution (aclmdlExecuteAsync, aclmdlRIExecuteAsync) */
    OA_TASK_KIND_KERNEL,       /* a kernel / single operator launch (aclmdlRI task type KERNEL, task groups) */
    OA_TASK_KIND_VALUE_WRITE,  /* aclrtValueWrite: args are an oa_value_args */
    OA_TASK_KIND_VALUE_WAIT,   /* aclrtValueWait: args are an oa_value_args */
    OA_TASK_KIND_COUNT
} oa_task_kind;

/* What a running task learns about where it runs. */
typedef struct oa_task_exec {
    oa_stream *stream;  /* the stream running the task (borrowed); its `aborting` flag stops blocking waits */
    int32_t device_id;  /* logical device of the stream */
    int32_t stream_id;  /* aclrtStreamGetId value */
    uint32_t task_id;   /* id returned by oa_stream_submit */
    /*
     * The stream the task was issued to, whose subscriptions (aclrtSubscribeReport,
     * aclrtSubscribeHostFunc) receive its callbacks. Equal to `stream`, except
     * while a captured task is replayed by aclmdlRIExecuteAsync: then it is the
     * model stream the task was captured into. NULL means `stream`.
     */
    const oa_stream *route;
} oa_task_exec;

/* Arguments of the OA_TASK_KIND_VALUE_WRITE / _VALUE_WAIT tasks (read and updated by aclmdlRITask*Params). */
typedef struct oa_value_args {
    uint64_t *addr;
    uint64_t value;
    uint32_t flag;
} oa_value_args;

/*
 * Runs the task on the stream's worker thread. args points to the task's own
 * copy of the submitted bytes (aligned to 16 bytes, writable). Returns OA_OK
 * or the status the next synchronisation reports (with its aclError code).
 */
typedef oa_status (*oa_task_run_fn)(void *args, const oa_task_exec *exec);

/*
 * Called exactly once per task, after run or instead of it when the task is
 * dropped (aclrtDestroyStreamForce, stop-on-failure, device reset). May be NULL.
 */
typedef void (*oa_task_release_fn)(void *args);

/* Describes one task to submit. */
typedef struct oa_task_desc {
    oa_task_kind kind;
    oa_task_run_fn run;         /* required */
    oa_task_release_fn release; /* optional */
    const void *args;           /* args_size bytes copied into the task; may be NULL when args_size is 0 */
    size_t args_size;
} oa_task_desc;

/*
 * Resolves an application stream handle for a submission: NULL means the
 * default stream of the calling thread's current context. [out] *out holds a
 * reference: call oa_stream_release when done.
 * Fails with OA_E_RT_CONTEXT_NULL (no current context), OA_E_RT_INVALID_HANDLE
 * (not a live stream) or OA_E_RT_STREAM_CONTEXT (the stream belongs to another
 * context than the current one, as CANN refuses for asynchronous work).
 */
oa_status oa_stream_acquire(aclrtStream handle, oa_stream **out) OA_MUST_CHECK;

/* As oa_stream_acquire but a stream of another context is accepted (synchronisation, queries). */
oa_status oa_stream_acquire_any_context(aclrtStream handle, oa_stream **out) OA_MUST_CHECK;

/* Drops a reference taken by oa_stream_acquire*. NULL is ignored. */
void oa_stream_release(oa_stream *s);

/*
 * Queues a task (or hands it to the stream's interceptor while one is set).
 * [out] task_id (optional): the task id, also what exception info reports.
 * No heap allocation happens for args_size <= OA_TASK_INLINE_ARGS once the
 * stream's task records are warm. Fails with OA_E_PARAM (no run function),
 * OA_E_RT_INVALID_HANDLE (stream being destroyed) or OA_E_NOMEM.
 */
#define OA_TASK_INLINE_ARGS 160u
oa_status oa_stream_submit(oa_stream *s, const oa_task_desc *desc, uint32_t *task_id) OA_MUST_CHECK;

/*
 * Waits until every task submitted before the call has finished, then
 * returns (and clears) the first task error since the last synchronisation.
 * timeout_ms: -1 waits forever; > 0 gives up with OA_E_RT_STREAM_SYNC_TIMEOUT
 * (the pending error is kept then).
 */
oa_status oa_stream_synchronize(oa_stream *s, int32_t timeout_ms) OA_MUST_CHECK;

/* Identity of a stream. */
aclrtStream oa_stream_handle(const oa_stream *s);
int32_t oa_stream_device_id(const oa_stream *s);
int32_t oa_stream_get_id(const oa_stream *s);

/*
 * Interception for capture: while set, every oa_stream_submit on s calls
 * fn(ctx, s, desc) instead of queueing the task; fn must copy what it keeps
 * (desc->args is only valid during the call) and, when it returns OA_OK,
 * becomes responsible for calling desc->release later (on failure the
 * submitter cleans up, as for any failed submission). Pass fn = NULL to stop
 * intercepting. The capture module (capture.h) owns the interceptors of the
 * runtime's streams; other modules should not set one.
 */
typedef oa_status (*oa_stream_intercept_fn)(void *ctx, oa_stream *s, const oa_task_desc *desc);
void oa_stream_set_interceptor(oa_stream *s, oa_stream_intercept_fn fn, void *ctx);

/* The external allocator registered on a stream with aclrtAllocatorRegister. */
typedef struct oa_rt_allocator {
    void *obj;                                       /* aclrtAllocator */
    void *(*alloc)(void *obj, size_t size);          /* aclrtAllocatorAllocFunc */
    void (*free_block)(void *obj, void *block);      /* aclrtAllocatorFreeFunc */
    void *(*alloc_advise)(void *obj, size_t size, void *addr); /* may be NULL */
    void *(*block_addr)(void *block);                /* aclrtAllocatorGetAddrFromBlockFunc */
} oa_rt_allocator;

/*
 * Copies the allocator registered for the stream handle (NULL handle = none
 * can be registered) into *out. Returns false, without reporting an error,
 * when the stream has no registered allocator.
 */
bool oa_rt_allocator_get(aclrtStream handle, oa_rt_allocator *out);

/*
 * Device work run on the calling thread instead of a stream worker (aclmdlExecute runs the model inline): opens the
 * run scope a stream task gets (base/run_scope.h) for the current context's device: its saturation mode, the
 * operator execute timeout and, when timeout_ms > 0, a deadline for the whole run (operators still running then
 * are stopped, OA_E_RT_STREAM_SYNC_TIMEOUT). oa_rt_inline_run_end closes it and records an overflow on the device.
 */
typedef struct oa_rt_inline_run {
    oa_run_scope saved;
    int32_t device_id; /* -1: no current context */
} oa_rt_inline_run;
void oa_rt_inline_run_begin(oa_rt_inline_run *r, int32_t timeout_ms);
void oa_rt_inline_run_end(oa_rt_inline_run *r);

#endif /* OA_ACL_RT_RT_STREAM_H */

/*
 * Streams: the task FIFO, its worker thread, synchronisation, and the
 * aclrt*Stream* entry points.
 *
 * Each stream owns a mutex, a singly linked queue of task records and a
 * free list of records carved from chunks of 64 (a submission allocates
 * nothing once the stream is warm). The worker thread is started by the
 * first submission, sleeps on a condition variable while the queue is empty
 * and runs tasks one at a time outside the lock. Completion is tracked with
 * sequence numbers: a synchroniser waits until `completed` reaches the value
 * `submitted` had when it started waiting.
 */
#define OA_LOG_MODULE "RUNTIME"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "acl_rt/capture.h"
#include "acl_rt/rt_internal.h"
#include "base/acl_check.h"
#include "base/error.h"
#include "base/run_scope.h"
#include "base/util.h"
#include "prof/prof_internal.h"

#define TASKS_PER_CHUNK 64

struct oa_task {
    oa_task *next;
    oa_task_run_fn run;
    oa_task_release_fn release;
    void *args; /* inline_args or a heap block */
    uint64_t seq;
    uint32_t id;
    uint32_t tid;
    uint16_t kind;
    bool heap_args;
    _Alignas(16) unsigned char inline_args[OA_TASK_INLINE_ARGS];
};

struct oa_task_chunk {
    oa_task_chunk *next;
    oa_task tasks[TASKS_PER_CHUNK];
};

static _Thread_local uint32_t t_last_task_id;
static _Thread_local uint32_t t_tid;

static uint32_t current_tid(void)
{
    if (t_tid == 0) {
        t_tid = (uint32_t)syscall(SYS_gettid);
    }
    return t_tid;
}

uint32_t oa_stream_thread_last_task(void)
{
    return t_last_task_id;
}

/* ---- object lifetime ------------------------------------------------------ */

static void release_task_args(oa_task *t)
{
    if (t->heap_args) {
        free(t->args);
        t->heap_args = false;
    }
    t->args = NULL;
}

static void stream_free(oa_obj *o)
{
    oa_stream *s = (oa_stream *)o;
    for (oa_task *t = s->head; t != NULL; t = t->next) {
        release_task_args(t);
    }
    oa_task_chunk *c = s->chunks;
    while (c != NULL) {
        oa_task_chunk *n = c->next;
        free(c);
        c = n;
    }
    pthread_cond_destroy(&s->work_cv);
    pthread_cond_destroy(&s->done_cv);
    pthread_mutex_destroy(&s->mu);
    oa_context *ctx = s->ctx;
    free(s);
    oa_obj_unref(&ctx->obj);
}

static void init_cond(pthread_cond_t *cv)
{
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(cv, &a);
    pthread_condattr_destroy(&a);
}

oa_status oa_stream_create(oa_context *ctx, uint32_t priority, uint32_t acl_flags, bool is_default, oa_stream **out)
{
    oa_device *dev = ctx->dev;
    if (!is_default &&
        (uint32_t)__atomic_load_n(&dev->live_streams, __ATOMIC_RELAXED) >= OA_RT_MAX_STREAMS_PER_DEVICE) {
        return OA_FAIL(OA_E_RT_RESOURCE_ALLOC, "device %d has no stream left (limit %u)", dev->id,
                       OA_RT_MAX_STREAMS_PER_DEVICE);
    }
    oa_stream *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot allocate a stream");
    }
    oa_obj_init(&s->obj, OA_OBJ_STREAM, stream_free);
    oa_obj_ref(&ctx->obj); /* a stream keeps its context's memory alive */
    s->ctx = ctx;
    s->device_id = dev->id;
    s->id = (int32_t)__atomic_fetch_add(&dev->next_stream_id, 1, __ATOMIC_RELAXED);
    s->priority = priority;
    s->acl_flags = acl_flags;
    /* CANN: a saturation mode set with aclrtSetDeviceSatMode applies to the streams created after it */
    s->sat_mode = ACL_RT_OVERFLOW_MODE_INFNAN;
    (void)aclrtGetDeviceSatMode(&s->sat_mode);
    s->is_default = is_default;
    s->failure_mode = ACL_CONTINUE_ON_FAILURE;
    pthread_mutex_init(&s->mu, NULL);
    init_cond(&s->work_cv);
    init_cond(&s->done_cv);
    if (!is_default) {
        /* Registered and linked under the context lock, so a concurrent teardown sees it or refuses it. */
        pthread_mutex_lock(&ctx->mu);
        if (ctx->dead) {
            pthread_mutex_unlock(&ctx->mu);
            stream_free(&s->obj);
            return OA_FAIL(OA_E_RT_CONTEXT_NULL, "the current context is being destroyed");
        }
    }
    oa_status st = oa_registry_add(&s->obj);
    if (st != OA_OK) {
        if (!is_default) {
            pthread_mutex_unlock(&ctx->mu);
        }
        stream_free(&s->obj);
        return st;
    }
    __atomic_fetch_add(&dev->live_streams, 1, __ATOMIC_RELAXED);
    if (!is_default) {
        s->ctx_next = ctx->streams;
        if (ctx->streams != NULL) {
            ctx->streams->ctx_prev = s;
        }
        ctx->streams = s;
        pthread_mutex_unlock(&ctx->mu);
    }
    OA_LOGI("created stream %d on device %d (priority %u, flags %#x%s)", s->id, s->device_id, priority, acl_flags,
            is_default ? ", default stream" : "");
    *out = s;
    return OA_OK;
}

/* ---- worker ---------------------------------------------------------------- */

/* Copies a task's pending messages into dst, one line: newlines become "; ". */
static void copy_task_message(char *dst, size_t cap, const char *msg)
{
    size_t n = 0;
    for (const char *p = msg; p != NULL && *p != '\0' && n + 3 < cap; ++p) {
        if (*p == '\n') {
            dst[n++] = ';';
            dst[n++] = ' ';
        } else {
            dst[n++] = *p;
        }
    }
    dst[n] = '\0';
}

static void *worker_main(void *arg)
{
    oa_stream *s = arg;
    char name[16];
    snprintf(name, sizeof(name), "oa-stm%d-%d", s->device_id, s->id);
    pthread_setname_np(pthread_self(), name);

    oa_task_exec exec = {.stream = s, .device_id = s->device_id, .stream_id = s->id, .task_id = 0};
    pthread_mutex_lock(&s->mu);
    for (;;) {
        while (s->head == NULL && !s->stopping) {
            pthread_cond_wait(&s->work_cv, &s->mu);
        }
        oa_task *t = s->head;
        if (t == NULL) {
            break;
        }
        s->head = t->next;
        if (s->head == NULL) {
            s->tail = NULL;
        }
        bool skip = s->stop_tripped;
        pthread_mutex_unlock(&s->mu);

        oa_status st = OA_OK;
        if (!skip) {
            exec.task_id = t->id;
            oa_error_clear(); /* messages on this thread belong to the task that is about to run */
            /* aclrtSetOpExecuteTimeOut*: an operator that runs longer fails with CANN's AI Core timeout code. */
            const uint64_t limit_us = t->kind == OA_TASK_KIND_KERNEL ? oa_rt_op_execute_timeout_us() : 0;
            const uint64_t t0 = limit_us != 0 ? oa_now_ns() : 0;
            /* the kernels of the task: the stream's saturation mode, overflow record, per-operator timeout */
            oa_run_scope outer;
            oa_run_scope_begin(&outer, s->sat_mode == ACL_RT_OVERFLOW_MODE_SATURATION, oa_rt_op_execute_timeout_us(),
                               0);
            oa_run_scope_set_max_threads(oa_rt_stream_thread_limit(s)); /* aclrtSet{Stream,Device}ResLimit */
            st = t->run(t->args, &exec);
            if (oa_run_scope_end(&outer) && !__atomic_load_n(&s->overflow_quiet, __ATOMIC_RELAXED)) {
                oa_rt_overflow_note(s);
            }
            if (limit_us != 0 && st == OA_OK) {
                const uint64_t spent_us = (oa_now_ns() - t0) / 1000u;
                if (spent_us > limit_us) {
                    st = OA_FAIL(OA_E_RT_AICORE_TIMEOUT,
                                 "operator task %u on stream %d ran %llu us, more than the execute timeout of %llu us",
                                 t->id, s->id, (unsigned long long)spent_us, (unsigned long long)limit_us);
                }
            }
        }
        if (t->release != NULL) {
            t->release(t->args);
        }
        if (st != OA_OK) {
            OA_LOGE("task %u on stream %d of device %d failed: error code %d (%s)", t->id, s->id, s->device_id,
                    oa_status_to_acl(st), oa_status_str(st));
            oa_rt_report_task_failure(s, t->id, t->tid, st);
        }

        /* The task's own messages live in this thread's buffer; the synchroniser's thread reports them. */
        const char *task_msg = st != OA_OK ? oa_error_take_messages() : NULL;
        pthread_mutex_lock(&s->mu);
        if (st != OA_OK) {
            if (s->error == OA_OK) {
                s->error = st;
                s->error_task_id = t->id;
                copy_task_message(s->error_msg, sizeof(s->error_msg), task_msg);
            }
            if ((s->failure_mode & 1u) == ACL_STOP_ON_FAILURE) {
                s->stop_tripped = true;
            }
        }
        if (t->seq > s->completed) {
            s->completed = t->seq;
        }
        release_task_args(t);
        t->next = s->free_list;
        s->free_list = t;
        if (s->sync_waiters > 0) {
            pthread_cond_broadcast(&s->done_cv);
        }
    }
    pthread_mutex_unlock(&s->mu);
    oa_obj_unref(&s->obj);
    return NULL;
}

/* Caller holds s->mu. */
static oa_status start_worker(oa_stream *s)
{
    oa_obj_ref(&s->obj); /* dropped by the worker when it exits */
    int rc = pthread_create(&s->worker, NULL, worker_main, s);
    if (rc != 0) {
        __atomic_fetch_sub(&s->obj.refs, 1, __ATOMIC_RELAXED);
        return OA_FAIL(OA_E_RT_RESOURCE_ALLOC, "cannot start the worker thread of stream %d: %s", s->id,
                       strerror(rc));
    }
    s->worker_started = true;
    return OA_OK;
}

/* Caller holds s->mu. */
static oa_task *take_record(oa_stream *s)
{
    if (s->free_list == NULL) {
        oa_task_chunk *c = calloc(1, sizeof(*c));
        if (c == NULL) {
            return NULL;
        }
        c->next = s->chunks;
        s->chunks = c;
        for (int i = TASKS_PER_CHUNK - 1; i >= 0; --i) {
            c->tasks[i].next = s->free_list;
            s->free_list = &c->tasks[i];
        }
    }
    oa_task *t = s->free_list;
    s->free_list = t->next;
    return t;
}

static oa_status submit(oa_stream *s, const oa_task_desc *desc, uint32_t *task_id, bool intercept)
{
    if (s == NULL || desc == NULL || desc->run == NULL) {
        return OA_FAIL(OA_E_PARAM, "a task needs a stream and a run function");
    }
    if (desc->args_size > 0 && desc->args == NULL) {
        return OA_FAIL(OA_E_PARAM, "task arguments of %zu bytes given without a buffer", desc->args_size);
    }
    if (intercept && __atomic_load_n(&s->icpt, __ATOMIC_ACQUIRE) != NULL) {
        pthread_mutex_lock(&s->mu);
        oa_stream_intercept_fn fn = s->icpt;
        void *ctx = s->icpt_ctx;
        bool closing = s->closing;
        pthread_mutex_unlock(&s->mu);
        if (closing) {
            return OA_FAIL(OA_E_RT_INVALID_HANDLE, "stream %d is being destroyed", s->id);
        }
        if (fn != NULL) {
            /* The interceptor copies what it keeps; it falls back to oa_stream_submit_direct when it lets go. */
            return fn(ctx, s, desc);
        }
    }
    void *heap = NULL;
    if (desc->args_size > OA_TASK_INLINE_ARGS) {
        heap = aligned_alloc(16, (desc->args_size + 15u) & ~(size_t)15u);
        if (heap == NULL) {
            return OA_FAIL(OA_E_NOMEM, "cannot allocate %zu bytes of task arguments", desc->args_size);
        }
        memcpy(heap, desc->args, desc->args_size);
    }

    pthread_mutex_lock(&s->mu);
    if (s->closing) {
        pthread_mutex_unlock(&s->mu);
        free(heap);
        return OA_FAIL(OA_E_RT_INVALID_HANDLE, "stream %d is being destroyed", s->id);
    }
    if (!s->worker_started) {
        oa_status st = start_worker(s);
        if (st != OA_OK) {
            pthread_mutex_unlock(&s->mu);
            free(heap);
            return st;
        }
    }
    oa_task *t = take_record(s);
    if (t == NULL) {
        pthread_mutex_unlock(&s->mu);
        free(heap);
        return OA_FAIL(OA_E_NOMEM, "cannot allocate task records for stream %d", s->id);
    }
    t->next = NULL;
    t->run = desc->run;
    t->release = desc->release;
    t->kind = (uint16_t)desc->kind;
    t->tid = current_tid();
    if (heap != NULL) {
        t->args = heap;
        t->heap_args = true;
    } else {
        t->args = t->inline_args;
        t->heap_args = false;
        if (desc->args_size > 0) {
            memcpy(t->inline_args, desc->args, desc->args_size);
        }
    }
    t->seq = ++s->submitted;
    t->id = ++s->next_task_id;
    if (s->tail != NULL) {
        s->tail->next = t;
    } else {
        s->head = t;
    }
    s->tail = t;
    uint32_t id = t->id;
    pthread_cond_signal(&s->work_cv);
    pthread_mutex_unlock(&s->mu);

    t_last_task_id = id;
    if (task_id != NULL) {
        *task_id = id;
    }
    return OA_OK;
}

oa_status oa_stream_submit(oa_stream *s, const oa_task_desc *desc, uint32_t *task_id)
{
    return submit(s, desc, task_id, true);
}

oa_status oa_stream_submit_direct(oa_stream *s, const oa_task_desc *desc, uint32_t *task_id)
{
    return submit(s, desc, task_id, false);
}

/* Caller holds s->mu. */
static bool is_worker_locked(const oa_stream *s)
{
    return s->worker_started && pthread_equal(s->worker, pthread_self());
}

static void deadline_after(struct timespec *ts, int32_t ms)
{
    clock_gettime(CLOCK_MONOTONIC, ts);
    ts->tv_sec += ms / 1000;
    ts->tv_nsec += (long)(ms % 1000) * 1000000L;
    if (ts->tv_nsec >= 1000000000L) {
        ts->tv_sec += 1;
        ts->tv_nsec -= 1000000000L;
    }
}

oa_status oa_stream_synchronize(oa_stream *s, int32_t timeout_ms)
{
    struct timespec deadline;
    if (timeout_ms > 0) {
        deadline_after(&deadline, timeout_ms);
    }
    pthread_mutex_lock(&s->mu);
    if (is_worker_locked(s)) {
        pthread_mutex_unlock(&s->mu);
        return OA_FAIL(OA_E_RT_PARAM, "stream %d cannot be synchronized from one of its own tasks", s->id);
    }
    uint64_t target = s->submitted;
    ++s->sync_waiters;
    while (s->completed < target) {
        if (timeout_ms > 0) {
            int rc = pthread_cond_timedwait(&s->done_cv, &s->mu, &deadline);
            if (rc == ETIMEDOUT && s->completed < target) {
                --s->sync_waiters;
                pthread_mutex_unlock(&s->mu);
                return OA_FAIL(OA_E_RT_STREAM_SYNC_TIMEOUT, "stream %d of device %d did not finish within %d ms",
                               s->id, s->device_id, timeout_ms);
            }
        } else {
            pthread_cond_wait(&s->done_cv, &s->mu);
        }
    }
    --s->sync_waiters;
    oa_status st = s->error;
    uint32_t failed_task = s->error_task_id;
    char task_msg[sizeof(s->error_msg)];
    memcpy(task_msg, s->error_msg, sizeof(task_msg));
    s->error_msg[0] = '\0';
    s->error = OA_OK;
    s->stop_tripped = false;
    pthread_mutex_unlock(&s->mu);
    if (st != OA_OK) {
        if (task_msg[0] != '\0') {
            return OA_FAIL(st, "task %u on stream %d of device %d failed: %s", failed_task, s->id, s->device_id,
                           task_msg);
        }
        return OA_FAIL(st, "task %u on stream %d of device %d failed", failed_task, s->id, s->device_id);
    }
    return OA_OK;
}

bool oa_stream_is_worker(oa_stream *s)
{
    pthread_mutex_lock(&s->mu);
    bool r = is_worker_locked(s);
    pthread_mutex_unlock(&s->mu);
    return r;
}

bool oa_stream_idle(oa_stream *s)
{
    pthread_mutex_lock(&s->mu);
    bool idle = s->completed == s->submitted;
    pthread_mutex_unlock(&s->mu);
    return idle;
}

void oa_stream_abort_waits(oa_stream *s)
{
    __atomic_store_n(&s->aborting, true, __ATOMIC_RELEASE);
}

/* Stops the stream: drains or drops its queue and ends the worker. */
static void stream_shutdown(oa_stream *s, bool force)
{
    oa_task *dropped = NULL;
    pthread_mutex_lock(&s->mu);
    bool self = is_worker_locked(s);
    s->closing = true;
    if (force) {
        dropped = s->head;
        s->head = NULL;
        s->tail = NULL;
        __atomic_store_n(&s->aborting, true, __ATOMIC_RELEASE);
    } else if (!self) {
        ++s->sync_waiters;
        while (s->completed < s->submitted) {
            pthread_cond_wait(&s->done_cv, &s->mu);
        }
        --s->sync_waiters;
    }
    s->stopping = true;
    pthread_cond_broadcast(&s->work_cv);
    bool started = s->worker_started;
    pthread_mutex_unlock(&s->mu);

    size_t ndrop = 0;
    for (oa_task *t = dropped; t != NULL; t = t->next) {
        if (t->release != NULL) {
            t->release(t->args);
        }
        ++ndrop;
    }
    if (ndrop > 0) {
        OA_LOGW("stream %d of device %d destroyed with %zu pending task(s); they were dropped", s->id, s->device_id,
                ndrop);
    }
    if (started) {
        if (self) {
            pthread_detach(s->worker);
        } else {
            pthread_join(s->worker, NULL);
        }
    }
    pthread_mutex_lock(&s->mu);
    while (dropped != NULL) {
        oa_task *n = dropped->next;
        release_task_args(dropped);
        dropped->next = s->free_list;
        s->free_list = dropped;
        dropped = n;
    }
    if (!self) {
        s->completed = s->submitted;
    }
    pthread_cond_broadcast(&s->done_cv);
    pthread_mutex_unlock(&s->mu);
}

bool oa_stream_destroy(oa_stream *s, bool force)
{
    if (!oa_registry_remove(&s->obj)) {
        return false;
    }
    if (!s->internal) {
        oa_rt_notify_stream_state(s, ACL_RT_STREAM_STATE_DESTROY_PRE);
    }
    oa_context *ctx = s->ctx;
    if (!s->is_default) {
        pthread_mutex_lock(&ctx->mu);
        if (s->ctx_prev != NULL) {
            s->ctx_prev->ctx_next = s->ctx_next;
        } else if (ctx->streams == s) {
            ctx->streams = s->ctx_next;
        }
        if (s->ctx_next != NULL) {
            s->ctx_next->ctx_prev = s->ctx_prev;
        }
        s->ctx_next = s->ctx_prev = NULL;
        pthread_mutex_unlock(&ctx->mu);
    }
    /* Pending callbacks still reach their subscribed thread while the queue drains. */
    stream_shutdown(s, force);
    oa_rt_unsubscribe_stream(s);
    oa_rt_allocator_forget((aclrtStream)s);
    oa_rt_stream_res_forget((aclrtStream)s);
    __atomic_fetch_sub(&ctx->dev->live_streams, 1, __ATOMIC_RELAXED);
    OA_LOGI("destroyed stream %d of device %d", s->id, s->device_id);
    oa_obj_unref(&s->obj);
    return true;
}

/* ---- handle resolution ---------------------------------------------------- */

static oa_status acquire_stream(aclrtStream handle, bool same_context, oa_stream **out)
{
    oa_context *cur = NULL;
    oa_status st = oa_ctx_current(true, &cur);
    if (st != OA_OK) {
        return st;
    }
    oa_stream *s = NULL;
    if (handle == NULL) {
        s = cur->default_stream;
        oa_obj_ref(&s->obj);
    } else {
        oa_obj *o = oa_registry_get(handle, OA_OBJ_STREAM);
        if (o == NULL) {
            oa_ctx_release(cur);
            return OA_FAIL(OA_E_RT_INVALID_HANDLE,
                           "stream handle [%p] is not a live stream (destroyed, or not created by aclrtCreateStream)",
                           handle);
        }
        s = (oa_stream *)o;
        if (same_context && s->ctx != cur) {
            oa_ctx_release(cur);
            oa_obj_unref(o);
            return OA_FAIL(OA_E_RT_STREAM_CONTEXT,
                           "stream %d belongs to another context than the current one of this thread", s->id);
        }
    }
    oa_ctx_release(cur);
    *out = s;
    return OA_OK;
}

oa_status oa_stream_acquire(aclrtStream handle, oa_stream **out)
{
    return acquire_stream(handle, true, out);
}

oa_status oa_stream_acquire_any_context(aclrtStream handle, oa_stream **out)
{
    return acquire_stream(handle, false, out);
}

void oa_stream_release(oa_stream *s)
{
    if (s != NULL) {
        oa_obj_unref(&s->obj);
    }
}

aclrtStream oa_stream_handle(const oa_stream *s)
{
    return (aclrtStream)(uintptr_t)s;
}

int32_t oa_stream_device_id(const oa_stream *s)
{
    return s->device_id;
}

int32_t oa_stream_get_id(const oa_stream *s)
{
    return s->id;
}

void oa_stream_set_interceptor(oa_stream *s, oa_stream_intercept_fn fn, void *ctx)
{
    pthread_mutex_lock(&s->mu);
    s->icpt_ctx = fn != NULL ? ctx : NULL;
    __atomic_store_n(&s->icpt, fn, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&s->mu);
}

/* ---- public API ------------------------------------------------------------ */

static uint32_t clamp_priority(int64_t p)
{
    if (p < OA_RT_STREAM_PRIORITY_GREATEST) {
        return OA_RT_STREAM_PRIORITY_GREATEST;
    }
    if (p > OA_RT_STREAM_PRIORITY_LEAST) {
        OA_LOGI("stream priority %lld is out of [%d, %d], using %d", (long long)p, OA_RT_STREAM_PRIORITY_GREATEST,
                OA_RT_STREAM_PRIORITY_LEAST, OA_RT_STREAM_PRIORITY_LEAST);
        return OA_RT_STREAM_PRIORITY_LEAST;
    }
    return (uint32_t)p;
}

#define OA_KNOWN_STREAM_FLAGS                                                                                    \
    (ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC | ACL_STREAM_PERSISTENT | ACL_STREAM_HUGE |                  \
     ACL_STREAM_CPU_SCHEDULE | ACL_STREAM_DEVICE_USE_ONLY)

static oa_status create_user_stream(uint32_t priority, uint32_t flags, aclrtStream *stream)
{
    oa_context *ctx = NULL;
    oa_status st = oa_ctx_current(true, &ctx);
    if (st != OA_OK) {
        return st;
    }
    oa_stream *s = NULL;
    st = oa_stream_create(ctx, priority, flags & OA_KNOWN_STREAM_FLAGS, false, &s);
    oa_ctx_release(ctx);
    if (st != OA_OK) {
        return st;
    }
    *stream = (aclrtStream)s;
    oa_rt_notify_stream_state(s, ACL_RT_STREAM_STATE_CREATE_POST);
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    ACL_REQUIRE_NOT_NULL(stream);
    ACL_RETURN_STATUS(create_user_stream(OA_RT_STREAM_PRIORITY_DEFAULT, 0, stream));
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    ACL_REQUIRE_NOT_NULL(stream);
    ACL_RETURN_STATUS(create_user_stream(clamp_priority((int64_t)priority), flag, stream));
}

ACL_FUNC_VISIBILITY aclrtStreamConfigHandle *aclrtCreateStreamConfigHandle(void)
{
    aclrtStreamConfigHandle *h = calloc(1, sizeof(*h));
    if (h == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "cannot allocate a stream config handle");
    }
    return h;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle *handle)
{
    ACL_REQUIRE_NOT_NULL(handle);
    free(handle);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle *handle, aclrtStreamConfigAttr attr,
                                                     const void *attrValue, size_t valueSize)
{
    ACL_REQUIRE_NOT_NULL(handle);
    ACL_REQUIRE_NOT_NULL(attrValue);
    switch (attr) {
    case ACL_RT_STREAM_WORK_ADDR_PTR:
        ACL_REQUIRE(valueSize == sizeof(void *), OA_E_PARAM, "valueSize [%zu] must be %zu for the work address",
                    valueSize, sizeof(void *));
        memcpy(&handle->workptr, attrValue, sizeof(void *));
        return ACL_SUCCESS;
    case ACL_RT_STREAM_WORK_SIZE:
        ACL_REQUIRE(valueSize == sizeof(size_t), OA_E_PARAM, "valueSize [%zu] must be %zu for the work size",
                    valueSize, sizeof(size_t));
        memcpy(&handle->workSize, attrValue, sizeof(size_t));
        return ACL_SUCCESS;
    case ACL_RT_STREAM_FLAG:
        /* The field is a size_t, but stream flags are uint32_t everywhere else (aclrtCreateStreamWithConfig,
           aclrtStreamGetFlags) and CANN's stream config example passes a uint32_t: both widths are accepted
           (docs/runtime.md, "Stream configuration handles"). */
        if (valueSize == sizeof(uint32_t)) {
            uint32_t f32;
            memcpy(&f32, attrValue, sizeof(f32));
            handle->flag = f32;
            return ACL_SUCCESS;
        }
        ACL_REQUIRE(valueSize == sizeof(size_t), OA_E_PARAM, "valueSize [%zu] must be %zu or %zu for the stream flag",
                    valueSize, sizeof(uint32_t), sizeof(size_t));
        size_t f64;
        memcpy(&f64, attrValue, sizeof(f64));
        ACL_REQUIRE(f64 <= UINT32_MAX, OA_E_PARAM, "stream flag [%zu] does not fit in 32 bits", f64);
        handle->flag = f64;
        return ACL_SUCCESS;
    case ACL_RT_STREAM_PRIORITY: {
        ACL_REQUIRE(valueSize == sizeof(uint32_t), OA_E_PARAM, "valueSize [%zu] must be %zu for the priority",
                    valueSize, sizeof(uint32_t));
        uint32_t p;
        memcpy(&p, attrValue, sizeof(p));
        ACL_REQUIRE(p <= OA_RT_STREAM_PRIORITY_LEAST, OA_E_PARAM, "priority [%u] must be in [%d, %d]", p,
                    OA_RT_STREAM_PRIORITY_GREATEST, OA_RT_STREAM_PRIORITY_LEAST);
        handle->priority = p;
        return ACL_SUCCESS;
    }
    default:
        return oa_status_to_acl(OA_FAIL(OA_E_PARAM, "stream config attribute [%d] is invalid", (int)attr));
    }
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStreamV2(aclrtStream *stream, const aclrtStreamConfigHandle *handle)
{
    ACL_REQUIRE_NOT_NULL(stream);
    uint32_t priority = OA_RT_STREAM_PRIORITY_DEFAULT;
    uint32_t flags = 0;
    if (handle != NULL) {
        priority = clamp_priority((int64_t)handle->priority);
        flags = (uint32_t)handle->flag;
    }
    ACL_RETURN_STATUS(create_user_stream(priority, flags, stream));
}

static oa_status destroy_stream(aclrtStream stream, bool force)
{
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        return st;
    }
    if (s->is_default) {
        oa_stream_release(s);
        return OA_FAIL(OA_E_RT_PARAM, "stream %d is the default stream of its context and cannot be destroyed", s->id);
    }
    st = oa_capture_check_stream_op(s, "stream destruction");
    if (st != OA_OK) {
        oa_stream_release(s);
        return st;
    }
    if (!oa_stream_destroy(s, force)) {
        oa_stream_release(s);
        return OA_FAIL(OA_E_RT_INVALID_HANDLE, "stream %d is already being destroyed", s->id);
    }
    oa_stream_release(s);
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    ACL_REQUIRE_NOT_NULL(stream);
    ACL_RETURN_STATUS(destroy_stream(stream, false));
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamForce(aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(stream);
    ACL_RETURN_STATUS(destroy_stream(stream, true));
}

static oa_status sync_stream(aclrtStream stream, int32_t timeout)
{
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire_any_context(stream, &s);
    if (st != OA_OK) {
        return st;
    }
    st = oa_capture_check_stream_op(s, "stream synchronization");
    if (st == OA_OK) {
        st = oa_stream_synchronize(s, timeout);
    }
    oa_stream_release(s);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    ACL_RETURN_STATUS(sync_stream(stream, -1));
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    ACL_REQUIRE(timeout >= -1, OA_E_RT_PARAM, "timeout [%d] must be -1 or greater", timeout);
    ACL_REQUIRE(timeout != 0, OA_E_RT_PARAM, "timeout [%d] must be -1 (wait forever) or greater than 0", timeout);
    ACL_RETURN_STATUS(sync_stream(stream, timeout));
}

ACL_FUNC_VISIBILITY aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status)
{
    ACL_REQUIRE_NOT_NULL(status);
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire_any_context(stream, &s);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    st = oa_capture_check_stream_op(s, "stream query");
    if (st == OA_OK) {
        *status = oa_stream_idle(s) ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
    }
    oa_stream_release(s);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t *priority)
{
    ACL_REQUIRE_NOT_NULL(priority);
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire_any_context(stream, &s);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    pthread_mutex_lock(&s->mu);
    *priority = s->priority;
    pthread_mutex_unlock(&s->mu);
    oa_stream_release(s);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t *flags)
{
    ACL_REQUIRE_NOT_NULL(flags);
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire_any_context(stream, &s);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    *flags = s->acl_flags;
    oa_stream_release(s);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamGetId(aclrtStream stream, int32_t *streamId)
{
    ACL_REQUIRE_NOT_NULL(streamId);
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire_any_context(stream, &s);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    *streamId = s->id;
    oa_stream_release(s);
    return ACL_SUCCESS;
}

static oa_status set_failure_mode(oa_stream *s, uint64_t mode)
{
    uint64_t m = mode & 1u;
    pthread_mutex_lock(&s->mu);
    if (s->failure_mode == ACL_STOP_ON_FAILURE && m == ACL_CONTINUE_ON_FAILURE) {
        pthread_mutex_unlock(&s->mu);
        return OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT,
                       "stream %d cannot go back from stop-on-failure to continue-on-failure", s->id);
    }
    s->failure_mode = m;
    pthread_mutex_unlock(&s->mu);
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode)
{
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(stream, &s);
    if (st == OA_OK) {
        st = set_failure_mode(s, mode);
        oa_stream_release(s);
    }
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag)
{
    ACL_REQUIRE(flag == 0u || flag == 1u, OA_E_PARAM, "flag [%u] must be 0 or 1", flag);
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    pthread_mutex_lock(&s->mu);
    s->overflow_switch = flag;
    __atomic_store_n(&s->overflow_quiet, flag == 0u, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&s->mu);
    oa_stream_release(s);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t *flag)
{
    ACL_REQUIRE_NOT_NULL(flag);
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire_any_context(stream, &s);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    pthread_mutex_lock(&s->mu);
    *flag = s->overflow_switch;
    pthread_mutex_unlock(&s->mu);
    oa_stream_release(s);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                                     aclrtStreamAttrValue *value)
{
    ACL_REQUIRE_NOT_NULL(value);
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire_any_context(stream, &s);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    switch (stmAttrType) {
    case ACL_STREAM_ATTR_FAILURE_MODE:
        st = set_failure_mode(s, value->failureMode);
        break;
    case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
        if (value->overflowSwitch > 1u) {
            st = OA_FAIL(OA_E_RT_PARAM, "overflowSwitch [%u] must be 0 or 1", value->overflowSwitch);
            break;
        }
        pthread_mutex_lock(&s->mu);
        s->overflow_switch = value->overflowSwitch;
        __atomic_store_n(&s->overflow_quiet, value->overflowSwitch == 0u, __ATOMIC_RELAXED);
        pthread_mutex_unlock(&s->mu);
        break;
    case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
        pthread_mutex_lock(&s->mu);
        s->user_tag = value->userCustomTag;
        pthread_mutex_unlock(&s->mu);
        break;
    case ACL_STREAM_ATTR_CACHE_OP_INFO:
        if (value->cacheOpInfoSwitch > 1u) {
            st = OA_FAIL(OA_E_RT_PARAM, "cacheOpInfoSwitch [%u] must be 0 or 1", value->cacheOpInfoSwitch);
            break;
        }
        pthread_mutex_lock(&s->mu);
        s->cache_op_info = value->cacheOpInfoSwitch;
        pthread_mutex_unlock(&s->mu);
        break;
    case ACL_STREAM_ATTR_PRIORITY:
        pthread_mutex_lock(&s->mu);
        s->priority = clamp_priority((int64_t)value->streamPriority);
        pthread_mutex_unlock(&s->mu);
        break;
    default:
        st = OA_FAIL(OA_E_RT_PARAM, "stream attribute [%d] is invalid", (int)stmAttrType);
        break;
    }
    oa_stream_release(s);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                                     aclrtStreamAttrValue *value)
{
    ACL_REQUIRE_NOT_NULL(value);
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire_any_context(stream, &s);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    pthread_mutex_lock(&s->mu);
    switch (stmAttrType) {
    case ACL_STREAM_ATTR_FAILURE_MODE:
        value->failureMode = s->failure_mode;
        break;
    case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
        value->overflowSwitch = s->overflow_switch;
        break;
    case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
        value->userCustomTag = s->user_tag;
        break;
    case ACL_STREAM_ATTR_CACHE_OP_INFO:
        value->cacheOpInfoSwitch = s->cache_op_info;
        break;
    case ACL_STREAM_ATTR_PRIORITY:
        value->streamPriority = s->priority;
        break;
    default:
        st = OA_E_RT_PARAM;
        break;
    }
    pthread_mutex_unlock(&s->mu);
    oa_stream_release(s);
    if (st != OA_OK) {
        st = OA_FAIL(st, "stream attribute [%d] is invalid", (int)stmAttrType);
    }
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclrtGetStreamAvailableNum(uint32_t *streamCount)
{
    ACL_REQUIRE_NOT_NULL(streamCount);
    oa_context *ctx = NULL;
    oa_status st = oa_ctx_current(true, &ctx);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    int32_t live = __atomic_load_n(&ctx->dev->live_streams, __ATOMIC_RELAXED);
    *streamCount = live >= (int32_t)OA_RT_MAX_STREAMS_PER_DEVICE ? 0u : OA_RT_MAX_STREAMS_PER_DEVICE - (uint32_t)live;
    oa_ctx_release(ctx);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCtxGetCurrentDefaultStream(aclrtStream *stream)
{
    ACL_REQUIRE_NOT_NULL(stream);
    oa_context *ctx = NULL;
    oa_status st = oa_ctx_current(true, &ctx);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    *stream = (aclrtStream)ctx->default_stream;
    oa_ctx_release(ctx);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetThreadLastTaskId(uint32_t *taskId)
{
    ACL_REQUIRE_NOT_NULL(taskId);
    *taskId = t_last_task_id;
    return ACL_SUCCESS;
}

/*
 * aclrtStreamAbort: drops every task not started yet; the stream stays usable.
 * aclrtStreamStop has the same effect on the CPU.
 */
static oa_status abort_stream(aclrtStream stream)
{
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        return st;
    }
    pthread_mutex_lock(&s->mu);
    oa_task *dropped = s->head;
    uint64_t last = s->tail != NULL ? s->tail->seq : 0;
    s->head = NULL;
    s->tail = NULL;
    pthread_mutex_unlock(&s->mu);
    for (oa_task *t = dropped; t != NULL; t = t->next) {
        if (t->release != NULL) {
            t->release(t->args);
        }
    }
    /* Wait for the task that may be running, then account the dropped ones as done. */
    pthread_mutex_lock(&s->mu);
    ++s->sync_waiters;
    uint64_t first_dropped = dropped != NULL ? dropped->seq : 0;
    while (dropped != NULL && s->completed + 1 < first_dropped) {
        pthread_cond_wait(&s->done_cv, &s->mu);
    }
    --s->sync_waiters;
    while (dropped != NULL) {
        oa_task *n = dropped->next;
        release_task_args(dropped);
        dropped->next = s->free_list;
        s->free_list = dropped;
        dropped = n;
    }
    if (last > s->completed) {
        s->completed = last;
    }
    pthread_cond_broadcast(&s->done_cv);
    pthread_mutex_unlock(&s->mu);
    oa_stream_release(s);
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamAbort(aclrtStream stream)
{
    ACL_RETURN_STATUS(abort_stream(stream));
}

ACL_FUNC_VISIBILITY aclError aclrtStreamStop(aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(stream);
    ACL_RETURN_STATUS(abort_stream(stream));
}

ACL_FUNC_VISIBILITY aclError aclrtPersistentTaskClean(aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(stream);
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(stream, &s);
    if (st == OA_OK) {
        /* No task stays on a stream after it ran: nothing persistent to clean. */
        oa_stream_release(s);
    }
    ACL_RETURN_STATUS(st);
}

/*
 * Events: creation flags, record/reset/wait tasks, queries, synchronisation
 * and timestamps.
 *
 * An event counts the records requested (rec_gen) and remembers the newest
 * record that has completed (done_gen) with its completion time. A record
 * task completes generation g when the stream reaches it; a wait captures the
 * newest generation requested at call time and blocks its stream until that
 * generation has completed (a wait on a never-recorded event does nothing).
 * A record task that is dropped (force destroy, abort, stop-on-failure)
 * still completes its generation so that no waiter is left hanging.
 */
#define OA_LOG_MODULE "RUNTIME"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "acl_rt/capture_internal.h"
#include "acl_rt/rt_internal.h"
#include "base/acl_check.h"
#include "base/error.h"
#include "base/util.h"
#include "prof/prof_internal.h"

/* Flags accepted by aclrtCreateEventWithFlag and aclrtCreateEventExWithFlag (CANN's runtime values). */
#define EV_DDSYNC_NS 0x01u
#define EV_STREAM_MARK 0x02u
#define EV_DDSYNC 0x04u
#define EV_TIME_LINE 0x08u
#define EV_DEVICE_ONLY 0x10u
#define EV_EXTERNAL 0x20u
#define EV_IPC 0x40u
#define EV_DEFAULT (EV_DDSYNC | EV_TIME_LINE | EV_STREAM_MARK)
#define EV_FLAG_MAX (EV_DDSYNC_NS | EV_STREAM_MARK | EV_DDSYNC | EV_TIME_LINE | EV_DEVICE_ONLY | EV_EXTERNAL)
#define EV_EX_FLAG_MAX (EV_DDSYNC_NS | EV_STREAM_MARK | EV_DDSYNC | EV_TIME_LINE | EV_IPC)

#define WAIT_SLICE_MS 100
/* An IPC event can be recorded by another process, which cannot signal our condition variable: look again soon. */
#define IPC_WAIT_SLICE_MS 1

/*
 * IPC events (ACL_EVENT_IPC): the record state lives in a POSIX shared-memory object named in the handle, so every
 * process that opened it sees the same generations (docs/runtime.md, "IPC events"). The local fields stay the
 * working copy: ev_lock pulls the shared state in, ev_unlock publishes it; generations only grow (atomic max), and
 * a record takes its generation from the shared counter.
 */
#define IPC_EV_MAGIC 0x5645435049414f41ull /* "AOIPCEV" little endian */
#define IPC_EV_HANDLE_MAGIC "OAIPCEV"

struct oa_ipc_event_shm {
    uint64_t magic;
    uint64_t rec_gen;
    uint64_t done_gen;
    uint64_t done_ns;
    uint32_t has_record;
    uint32_t signaled;
    int32_t owner_pid;
};

static void atomic_max_u64(uint64_t *p, uint64_t v)
{
    uint64_t cur = __atomic_load_n(p, __ATOMIC_ACQUIRE);
    while (cur < v && !__atomic_compare_exchange_n(p, &cur, v, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    }
}

/* Caller holds ev->mu. */
static void ipc_pull(oa_event *ev)
{
    struct oa_ipc_event_shm *sh = ev->ipc;
    if (sh == NULL) {
        return;
    }
    const uint64_t r = __atomic_load_n(&sh->rec_gen, __ATOMIC_ACQUIRE);
    const uint64_t d = __atomic_load_n(&sh->done_gen, __ATOMIC_ACQUIRE);
    if (r > ev->rec_gen) {
        ev->rec_gen = r;
    }
    if (d > ev->done_gen) {
        ev->done_gen = d;
        ev->done_ns = __atomic_load_n(&sh->done_ns, __ATOMIC_ACQUIRE);
    }
    ev->has_record = __atomic_load_n(&sh->has_record, __ATOMIC_ACQUIRE) != 0;
    ev->signaled = __atomic_load_n(&sh->signaled, __ATOMIC_ACQUIRE) != 0;
}

/* Caller holds ev->mu. */
static void ipc_push(oa_event *ev)
{
    struct oa_ipc_event_shm *sh = ev->ipc;
    if (sh == NULL) {
        return;
    }
    atomic_max_u64(&sh->rec_gen, ev->rec_gen);
    if (__atomic_load_n(&sh->done_gen, __ATOMIC_ACQUIRE) < ev->done_gen) {
        __atomic_store_n(&sh->done_ns, ev->done_ns, __ATOMIC_RELEASE);
        atomic_max_u64(&sh->done_gen, ev->done_gen);
    }
    __atomic_store_n(&sh->has_record, ev->has_record ? 1u : 0u, __ATOMIC_RELEASE);
    __atomic_store_n(&sh->signaled, ev->signaled ? 1u : 0u, __ATOMIC_RELEASE);
}

static void ev_lock(oa_event *ev)
{
    pthread_mutex_lock(&ev->mu);
    ipc_pull(ev);
}

static void ev_unlock(oa_event *ev)
{
    ipc_push(ev);
    pthread_mutex_unlock(&ev->mu);
}

/* The next record generation (caller holds ev->mu); shared by all processes for an IPC event. */
static uint64_t next_gen(oa_event *ev)
{
    if (ev->ipc != NULL) {
        const uint64_t g = __atomic_add_fetch(&ev->ipc->rec_gen, 1, __ATOMIC_ACQ_REL);
        if (g > ev->rec_gen) {
            ev->rec_gen = g;
        }
        return g;
    }
    return ++ev->rec_gen;
}

static int64_t wait_slice_ms(const oa_event *ev)
{
    return ev->ipc != NULL ? IPC_WAIT_SLICE_MS : WAIT_SLICE_MS;
}

static void ipc_detach(oa_event *ev)
{
    if (ev->ipc == NULL) {
        return;
    }
    munmap(ev->ipc, sizeof(*ev->ipc));
    if (ev->ipc_owner) {
        shm_unlink(ev->ipc_name);
    }
    ev->ipc = NULL;
}

/* Creates (owner) or opens the shared state of an IPC event. */
static oa_status ipc_attach(oa_event *ev, const char *name, bool create)
{
    int fd = shm_open(name, create ? (O_CREAT | O_EXCL | O_RDWR) : O_RDWR, 0600);
    if (fd < 0) {
        return create ? OA_FAIL(OA_E_RT_RESOURCE_ALLOC, "cannot create shared memory [%s] for an IPC event: %s", name,
                                strerror(errno))
                      : OA_FAIL(OA_E_RT_PARAM, "no IPC event [%s] exists (destroyed by its creator, or not a handle "
                                "from aclrtIpcGetEventHandle)", name);
    }
    struct oa_ipc_event_shm *sh = MAP_FAILED;
    oa_status st = OA_OK;
    if (create && ftruncate(fd, (off_t)sizeof(*sh)) != 0) {
        st = OA_FAIL(OA_E_RT_RESOURCE_ALLOC, "cannot size shared memory [%s]: %s", name, strerror(errno));
    }
    if (st == OA_OK) {
        sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (sh == MAP_FAILED) {
            st = OA_FAIL(OA_E_RT_RESOURCE_ALLOC, "cannot map shared memory [%s]: %s", name, strerror(errno));
        }
    }
    close(fd);
    if (st == OA_OK && create) {
        sh->owner_pid = (int32_t)getpid();
        __atomic_store_n(&sh->magic, IPC_EV_MAGIC, __ATOMIC_RELEASE);
    } else if (st == OA_OK && __atomic_load_n(&sh->magic, __ATOMIC_ACQUIRE) != IPC_EV_MAGIC) {
        st = OA_FAIL(OA_E_RT_PARAM, "[%s] is not an IPC event", name);
    }
    if (st != OA_OK) {
        if (sh != MAP_FAILED) {
            munmap(sh, sizeof(*sh));
        }
        if (create) {
            shm_unlink(name);
        }
        return st;
    }
    oa_strlcpy(ev->ipc_name, name, sizeof(ev->ipc_name));
    ev->ipc = sh;
    ev->ipc_owner = create;
    return OA_OK;
}

static void event_free(oa_obj *o)
{
    oa_event *ev = (oa_event *)o;
    ipc_detach(ev);
    pthread_cond_destroy(&ev->cv);
    pthread_mutex_destroy(&ev->mu);
    oa_context *ctx = ev->ctx;
    free(ev);
    oa_obj_unref(&ctx->obj);
}

static oa_status event_create(uint32_t flags, bool ex_mode, aclrtEvent *out)
{
    oa_context *ctx = NULL;
    oa_status st = oa_ctx_current(true, &ctx);
    if (st != OA_OK) {
        return st;
    }
    oa_device *dev = ctx->dev;
    if ((uint32_t)__atomic_load_n(&dev->live_events, __ATOMIC_RELAXED) >= OA_RT_MAX_EVENTS_PER_DEVICE) {
        oa_ctx_release(ctx);
        return OA_FAIL(OA_E_RT_RESOURCE_ALLOC, "device %d has no event left (limit %u)", dev->id,
                       OA_RT_MAX_EVENTS_PER_DEVICE);
    }
    oa_event *ev = calloc(1, sizeof(*ev));
    if (ev == NULL) {
        oa_ctx_release(ctx);
        return OA_FAIL(OA_E_NOMEM, "cannot allocate an event");
    }
    oa_obj_init(&ev->obj, OA_OBJ_EVENT, event_free);
    ev->ctx = ctx; /* takes over the reference from oa_ctx_current */
    ev->flags = flags;
    ev->ex_mode = ex_mode;
    ev->id = __atomic_fetch_add(&dev->next_event_id, 1, __ATOMIC_RELAXED);
    ev->record_flag = UINT32_MAX;
    ev->wait_flag = UINT32_MAX;
    pthread_mutex_init(&ev->mu, NULL);
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(&ev->cv, &a);
    pthread_condattr_destroy(&a);

    pthread_mutex_lock(&ctx->mu);
    if (ctx->dead) {
        pthread_mutex_unlock(&ctx->mu);
        event_free(&ev->obj);
        return OA_FAIL(OA_E_RT_CONTEXT_NULL, "the current context is being destroyed");
    }
    st = oa_registry_add(&ev->obj);
    if (st != OA_OK) {
        pthread_mutex_unlock(&ctx->mu);
        event_free(&ev->obj);
        return st;
    }
    ev->ctx_next = ctx->events;
    if (ctx->events != NULL) {
        ctx->events->ctx_prev = ev;
    }
    ctx->events = ev;
    pthread_mutex_unlock(&ctx->mu);
    __atomic_fetch_add(&dev->live_events, 1, __ATOMIC_RELAXED);
    *out = (aclrtEvent)ev;
    return OA_OK;
}

bool oa_event_destroy(oa_event *ev)
{
    if (!oa_registry_remove(&ev->obj)) {
        return false;
    }
    oa_context *ctx = ev->ctx;
    pthread_mutex_lock(&ctx->mu);
    if (ev->ctx_prev != NULL) {
        ev->ctx_prev->ctx_next = ev->ctx_next;
    } else if (ctx->events == ev) {
        ctx->events = ev->ctx_next;
    }
    if (ev->ctx_next != NULL) {
        ev->ctx_next->ctx_prev = ev->ctx_prev;
    }
    ev->ctx_next = ev->ctx_prev = NULL;
    pthread_mutex_unlock(&ctx->mu);
    ev_lock(ev);
    ev->destroyed = true;
    ev_unlock(ev);
    __atomic_fetch_sub(&ctx->dev->live_events, 1, __ATOMIC_RELAXED);
    oa_obj_unref(&ev->obj);
    return true;
}

static oa_status get_event(aclrtEvent handle, oa_event **out)
{
    oa_obj *o = oa_registry_get(handle, OA_OBJ_EVENT);
    if (o == NULL) {
        return OA_FAIL(OA_E_RT_INVALID_HANDLE,
                       "event handle [%p] is not a live event (destroyed, or not created by aclrtCreateEvent)", handle);
    }
    *out = (oa_event *)o;
    return OA_OK;
}

static void put_event(oa_event *ev)
{
    oa_obj_unref(&ev->obj);
}

static bool device_only(const oa_event *ev)
{
    return (ev->flags & EV_DEVICE_ONLY) != 0;
}

/* ---- record ----------------------------------------------------------------- */

typedef struct record_args {
    oa_event *ev;
    uint64_t gen;
    bool ran;
} record_args;

static void complete_gen(oa_event *ev, uint64_t gen)
{
    ev_lock(ev);
    if (gen > ev->done_gen) {
        ev->done_gen = gen;
        ev->done_ns = oa_now_ns();
        ev->signaled = true;
    }
    pthread_cond_broadcast(&ev->cv);
    ev_unlock(ev);
}

static oa_status record_run(void *args, const oa_task_exec *exec)
{
    (void)exec;
    record_args *a = args;
    a->ran = true;
    complete_gen(a->ev, a->gen);
    return OA_OK;
}

static void record_release(void *args)
{
    record_args *a = args;
    if (!a->ran) {
        complete_gen(a->ev, a->gen);
    }
    put_event(a->ev);
}

static oa_status record_event(aclrtEvent event, aclrtStream stream, uint32_t flag)
{
    oa_event *ev = NULL;
    oa_status st = get_event(event, &ev);
    if (st != OA_OK) {
        return st;
    }
    if (device_only(ev)) {
        put_event(ev);
        return OA_FAIL(OA_E_RT_PARAM, "event %u was created with ACL_EVENT_DEVICE_USE_ONLY and can only be used on "
                                      "the device", ev->id);
    }
    ev_lock(ev);
    if (ev->record_flag != UINT32_MAX && ev->record_flag != flag) {
        uint32_t cur = ev->record_flag;
        ev_unlock(ev);
        put_event(ev);
        return OA_FAIL(OA_E_RT_PARAM, "event %u must keep its record flag: current %u, requested %u", ev->id, cur,
                       flag);
    }
    ev_unlock(ev);

    oa_stream *s = NULL;
    st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        put_event(ev);
        return st;
    }
    bool handled = false;
    st = oa_capture_event_record(ev, s, flag, &handled);
    if (handled) {
        if (st == OA_OK) {
            ev_lock(ev);
            ev->record_flag = flag;
            ev_unlock(ev);
        }
        oa_stream_release(s);
        put_event(ev);
        return st;
    }
    ev_lock(ev);
    ev->record_flag = flag;
    record_args a = {.ev = ev, .gen = next_gen(ev), .ran = false};
    ev->has_record = true;
    ev_unlock(ev);
    oa_task_desc d = {.kind = OA_TASK_KIND_EVENT_RECORD,
                      .run = record_run,
                      .release = record_release,
                      .args = &a,
                      .args_size = sizeof(a)};
    st = oa_stream_submit(s, &d, NULL);
    oa_stream_release(s);
    if (st != OA_OK) {
        complete_gen(ev, a.gen);
        put_event(ev);
    }
    /* On success the task owns the event reference. */
    return st;
}

/* ---- reset --------------------------------------------------------------------- */

typedef struct reset_args {
    oa_event *ev;
    uint64_t gen;
} reset_args;

static oa_status reset_run(void *args, const oa_task_exec *exec)
{
    (void)exec;
    reset_args *a = args;
    ev_lock(a->ev);
    if (a->ev->rec_gen == a->gen) {
        a->ev->has_record = false;
        a->ev->signaled = false;
    }
    ev_unlock(a->ev);
    return OA_OK;
}

static void reset_release(void *args)
{
    put_event(((reset_args *)args)->ev);
}

/* ---- wait ----------------------------------------------------------------------- */

typedef struct wait_args {
    oa_event *ev;
    uint64_t gen;
    int64_t timeout_ms; /* <= 0: no limit */
    bool ran;
} wait_args;

static oa_status wait_run(void *args, const oa_task_exec *exec)
{
    wait_args *a = args;
    a->ran = true;
    oa_event *ev = a->ev;
    uint64_t start = oa_now_ns();
    oa_status st = OA_OK;
    ev_lock(ev);
    while (ev->done_gen < a->gen) {
        if (__atomic_load_n(&exec->stream->aborting, __ATOMIC_ACQUIRE)) {
            break;
        }
        int64_t slice = wait_slice_ms(ev);
        if (a->timeout_ms > 0) {
            int64_t spent = (int64_t)((oa_now_ns() - start) / 1000000ull);
            if (spent >= a->timeout_ms) {
                st = OA_E_RT_WAIT_TIMEOUT;
                break;
            }
            slice = OA_MIN(slice, a->timeout_ms - spent);
        }
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_nsec += (long)slice * 1000000L;
        ts.tv_sec += ts.tv_nsec / 1000000000L;
        ts.tv_nsec %= 1000000000L;
        (void)pthread_cond_timedwait(&ev->cv, &ev->mu, &ts);
        ipc_pull(ev);
    }
    --ev->pending_waits;
    ev_unlock(ev);
    if (st != OA_OK) {
        OA_LOGE("stream %d waited more than %lld ms for event %u", exec->stream_id, (long long)a->timeout_ms, ev->id);
    }
    return st;
}

static void wait_release(void *args)
{
    wait_args *a = args;
    if (!a->ran) {
        ev_lock(a->ev);
        --a->ev->pending_waits;
        ev_unlock(a->ev);
    }
    put_event(a->ev);
}

static oa_status stream_wait_event(aclrtStream stream, aclrtEvent event, int64_t timeout_ms, uint32_t flag)
{
    oa_event *ev = NULL;
    oa_status st = get_event(event, &ev);
    if (st != OA_OK) {
        return st;
    }
    if (device_only(ev)) {
        put_event(ev);
        return OA_FAIL(OA_E_RT_PARAM, "event %u was created with ACL_EVENT_DEVICE_USE_ONLY and can only be used on "
                                      "the device", ev->id);
    }
    ev_lock(ev);
    if (ev->wait_flag != UINT32_MAX && ev->wait_flag != flag) {
        uint32_t cur = ev->wait_flag;
        ev_unlock(ev);
        put_event(ev);
        return OA_FAIL(OA_E_RT_PARAM, "event %u must keep its wait flag: current %u, requested %u", ev->id, cur, flag);
    }
    ev_unlock(ev);

    oa_stream *s = NULL;
    st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        put_event(ev);
        return st;
    }
    bool handled = false;
    st = oa_capture_event_wait(ev, s, flag, &handled);
    if (handled) {
        if (st == OA_OK) {
            ev_lock(ev);
            ev->wait_flag = flag;
            ev_unlock(ev);
        }
        oa_stream_release(s);
        put_event(ev);
        return st;
    }
    ev_lock(ev);
    ev->wait_flag = flag;
    uint64_t gen = ev->has_record ? ev->rec_gen : 0;
    bool needed = gen > ev->done_gen;
    if (needed) {
        ++ev->pending_waits;
    }
    ev_unlock(ev);
    if (!needed) {
        /* Nothing recorded, or the newest record already completed: nothing to wait for. */
        oa_stream_release(s);
        put_event(ev);
        return OA_OK;
    }
    wait_args a = {.ev = ev, .gen = gen, .timeout_ms = timeout_ms, .ran = false};
    oa_task_desc d = {.kind = OA_TASK_KIND_EVENT_WAIT,
                      .run = wait_run,
                      .release = wait_release,
                      .args = &a,
                      .args_size = sizeof(a)};
    st = oa_stream_submit(s, &d, NULL);
    oa_stream_release(s);
    if (st != OA_OK) {
        ev_lock(ev);
        --ev->pending_waits;
        ev_unlock(ev);
        put_event(ev);
    }
    return st;
}

/* ---- synchronisation ------------------------------------------------------------- */

static oa_status sync_event(oa_event *ev, int32_t timeout_ms)
{
    uint64_t start = oa_now_ns();
    oa_status st = OA_OK;
    ev_lock(ev);
    if (ev->has_record) {
        uint64_t target = ev->rec_gen;
        while (ev->done_gen < target) {
            if (timeout_ms > 0) {
                int64_t spent = (int64_t)((oa_now_ns() - start) / 1000000ull);
                if (spent >= timeout_ms) {
                    st = OA_E_RT_EVENT_SYNC_TIMEOUT;
                    break;
                }
                struct timespec ts;
                clock_gettime(CLOCK_MONOTONIC, &ts);
                int64_t left = timeout_ms - spent;
                if (ev->ipc != NULL && left > IPC_WAIT_SLICE_MS) {
                    left = IPC_WAIT_SLICE_MS;
                }
                ts.tv_sec += left / 1000;
                ts.tv_nsec += (long)(left % 1000) * 1000000L;
                ts.tv_sec += ts.tv_nsec / 1000000000L;
                ts.tv_nsec %= 1000000000L;
                (void)pthread_cond_timedwait(&ev->cv, &ev->mu, &ts);
            } else if (ev->ipc != NULL) {
                struct timespec ts;
                clock_gettime(CLOCK_MONOTONIC, &ts);
                ts.tv_nsec += IPC_WAIT_SLICE_MS * 1000000L;
                ts.tv_sec += ts.tv_nsec / 1000000000L;
                ts.tv_nsec %= 1000000000L;
                (void)pthread_cond_timedwait(&ev->cv, &ev->mu, &ts);
            } else {
                pthread_cond_wait(&ev->cv, &ev->mu);
            }
            ipc_pull(ev);
        }
    }
    ev_unlock(ev);
    if (st != OA_OK) {
        return OA_FAIL(st, "event %u did not complete within %d ms", ev->id, timeout_ms);
    }
    return OA_OK;
}

static oa_status not_for_external(const oa_event *ev, const char *what)
{
    if ((ev->flags & EV_EXTERNAL) != 0 && !ev->ex_mode) {
        return OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "event %u was created with ACL_EVENT_EXTERNAL and does not support "
                                                    "%s", ev->id, what);
    }
    return OA_OK;
}

/* ---- replays of captured event operations (capture_internal.h) ----------------------- */

uint64_t oa_event_reserve_record(oa_event *ev)
{
    ev_lock(ev);
    uint64_t gen = next_gen(ev);
    ev->has_record = true;
    ev_unlock(ev);
    return gen;
}

void oa_event_complete_record(oa_event *ev, uint64_t gen)
{
    complete_gen(ev, gen);
}

uint64_t oa_event_newest_record(oa_event *ev)
{
    ev_lock(ev);
    uint64_t gen = ev->has_record ? ev->rec_gen : 0;
    ev_unlock(ev);
    return gen;
}

static void timed_wait_slice(oa_event *ev)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_nsec += (long)wait_slice_ms(ev) * 1000000L;
    ts.tv_sec += ts.tv_nsec / 1000000000L;
    ts.tv_nsec %= 1000000000L;
    (void)pthread_cond_timedwait(&ev->cv, &ev->mu, &ts);
    ipc_pull(ev);
}

oa_status oa_event_wait_gen(oa_event *ev, uint64_t gen, oa_stream *exec_stream)
{
    ev_lock(ev);
    while (ev->done_gen < gen && !__atomic_load_n(&exec_stream->aborting, __ATOMIC_ACQUIRE)) {
        timed_wait_slice(ev);
    }
    ev_unlock(ev);
    return OA_OK;
}

oa_status oa_event_wait_signal(oa_event *ev, oa_stream *exec_stream)
{
    ev_lock(ev);
    while (!ev->signaled && !__atomic_load_n(&exec_stream->aborting, __ATOMIC_ACQUIRE)) {
        timed_wait_slice(ev);
    }
    ev_unlock(ev);
    return OA_OK;
}

void oa_event_clear_signal(oa_event *ev)
{
    ev_lock(ev);
    ev->signaled = false;
    if (ev->done_gen >= ev->rec_gen) {
        ev->has_record = false;
    }
    ev_unlock(ev);
}

bool oa_event_is_ex_sync(const oa_event *ev)
{
    return ev->ex_mode && ev->flags == EV_DDSYNC_NS;
}

bool oa_event_is_external(const oa_event *ev)
{
    return !ev->ex_mode && (ev->flags & EV_EXTERNAL) != 0;
}

bool oa_event_is_default(const oa_event *ev)
{
    return !ev->ex_mode && ev->flags == EV_DEFAULT;
}

void oa_event_ref(oa_event *ev)
{
    oa_obj_ref(&ev->obj);
}

void oa_event_unref(oa_event *ev)
{
    oa_obj_unref(&ev->obj);
}

aclrtEvent oa_event_handle(const oa_event *ev)
{
    return (aclrtEvent)(uintptr_t)ev;
}

/* ---- public API ------------------------------------------------------------------ */

static oa_status ipc_event_create(const char *name, aclrtEvent *out);

ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent *event)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    ACL_REQUIRE_NOT_NULL(event);
    ACL_RETURN_STATUS(event_create(EV_DEFAULT, false, event));
}

ACL_FUNC_VISIBILITY aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    ACL_REQUIRE_NOT_NULL(event);
    ACL_REQUIRE((flag & EV_FLAG_MAX) != 0 && flag <= EV_FLAG_MAX, OA_E_RT_PARAM,
                "flag [%#x] must be an OR of ACL_EVENT_SYNC, ACL_EVENT_CAPTURE_STREAM_PROGRESS and "
                "ACL_EVENT_TIME_LINE, or ACL_EVENT_DEVICE_USE_ONLY / ACL_EVENT_EXTERNAL alone",
                flag);
    ACL_REQUIRE(!((flag & EV_DEVICE_ONLY) != 0 && flag != EV_DEVICE_ONLY), OA_E_RT_PARAM,
                "flag [%#x]: ACL_EVENT_DEVICE_USE_ONLY cannot be combined with other flags", flag);
    ACL_REQUIRE(!((flag & EV_EXTERNAL) != 0 && flag != EV_EXTERNAL), OA_E_RT_PARAM,
                "flag [%#x]: ACL_EVENT_EXTERNAL cannot be combined with other flags", flag);
    ACL_RETURN_STATUS(event_create(flag, false, event));
}

ACL_FUNC_VISIBILITY aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag)
{
    ACL_REQUIRE_NOT_NULL(event);
    const uint32_t solely[] = {EV_DEVICE_ONLY, EV_EXTERNAL, EV_IPC};
    for (size_t i = 0; i < OA_ARRAY_SIZE(solely); ++i) {
        ACL_REQUIRE(!((flag & solely[i]) != 0 && (flag & ~solely[i]) != 0), OA_E_RT_PARAM,
                    "flag [%#x]: %#x cannot be combined with other flags", flag, solely[i]);
    }
    ACL_REQUIRE((flag & EV_EX_FLAG_MAX) != 0 && flag <= EV_EX_FLAG_MAX, OA_E_RT_PARAM,
                "flag [%#x] must be an OR of ACL_EVENT_SYNC, ACL_EVENT_CAPTURE_STREAM_PROGRESS and ACL_EVENT_TIME_LINE, "
                "or ACL_EVENT_IPC alone", flag);
    if (flag == EV_IPC) {
        ACL_RETURN_STATUS(ipc_event_create(NULL, event));
    }
    ACL_RETURN_STATUS(event_create(flag, true, event));
}

/* Creates an IPC event: a new shared state (name NULL) or the one named by an aclrtIpcEventHandle. */
static oa_status ipc_event_create(const char *name, aclrtEvent *out)
{
    aclrtEvent h = NULL;
    oa_status st = event_create(EV_IPC, true, &h);
    if (st != OA_OK) {
        return st;
    }
    oa_event *ev = (oa_event *)h;
    char fresh[sizeof(ev->ipc_name)];
    if (name == NULL) {
        static uint32_t seq;
        snprintf(fresh, sizeof(fresh), "/oa_ipcev_%d_%u_%u", (int)getpid(), ev->id,
                 __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED));
    }
    pthread_mutex_lock(&ev->mu);
    st = ipc_attach(ev, name != NULL ? name : fresh, name == NULL);
    pthread_mutex_unlock(&ev->mu);
    if (st != OA_OK) {
        (void)oa_event_destroy(ev);
        return st;
    }
    *out = h;
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle *handle)
{
    ACL_REQUIRE_NOT_NULL(event);
    ACL_REQUIRE_NOT_NULL(handle);
    oa_event *ev = NULL;
    oa_status st = get_event(event, &ev);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    if (ev->ipc == NULL) {
        st = OA_FAIL(OA_E_RT_PARAM, "event %u was not created with ACL_EVENT_IPC (aclrtCreateEventExWithFlag)", ev->id);
    } else {
        memset(handle, 0, sizeof(*handle));
        memcpy(handle->reserved, IPC_EV_HANDLE_MAGIC, sizeof(IPC_EV_HANDLE_MAGIC));
        memcpy(handle->reserved + 8, ev->ipc_name, strlen(ev->ipc_name) + 1);
    }
    put_event(ev);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent *event)
{
    ACL_REQUIRE_NOT_NULL(event);
    const char *name = handle.reserved + 8;
    const size_t n = strnlen(name, sizeof(handle.reserved) - 8);
    ACL_REQUIRE(memcmp(handle.reserved, IPC_EV_HANDLE_MAGIC, sizeof(IPC_EV_HANDLE_MAGIC)) == 0 &&
                    n < sizeof(handle.reserved) - 8 && n > 1 && name[0] == '/' && strchr(name + 1, '/') == NULL,
                OA_E_RT_PARAM, "handle is not an IPC event handle from aclrtIpcGetEventHandle");
    ACL_RETURN_STATUS(ipc_event_create(name, event));
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    ACL_REQUIRE_NOT_NULL(event);
    oa_event *ev = NULL;
    oa_status st = get_event(event, &ev);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    bool done = oa_event_destroy(ev);
    put_event(ev);
    ACL_REQUIRE(done, OA_E_RT_INVALID_HANDLE, "event [%p] is already being destroyed", event);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    ACL_REQUIRE_NOT_NULL(event);
    ACL_RETURN_STATUS(record_event(event, stream, ACL_EVENT_RECORD_DEFAULT));
}

ACL_FUNC_VISIBILITY aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag)
{
    ACL_REQUIRE_NOT_NULL(event);
    ACL_REQUIRE(flag == ACL_EVENT_RECORD_DEFAULT || flag == ACL_EVENT_RECORD_EXTERNAL, OA_E_PARAM,
                "flag [%u] must be ACL_EVENT_RECORD_DEFAULT or ACL_EVENT_RECORD_EXTERNAL", flag);
    if (flag == ACL_EVENT_RECORD_DEFAULT) {
        ACL_RETURN_STATUS(record_event(event, stream, flag));
    }
    oa_event *ev = NULL;
    oa_status st = get_event(event, &ev);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    bool sync_ex = ev->ex_mode && ev->flags == EV_DDSYNC_NS;
    put_event(ev);
    ACL_REQUIRE(sync_ex, OA_E_RT_FEATURE_NOT_SUPPORT,
                "ACL_EVENT_RECORD_EXTERNAL needs an event created by aclrtCreateEventExWithFlag with ACL_EVENT_SYNC");
    /* The capture hook takes it (and refuses it when the stream is not capturing). */
    ACL_RETURN_STATUS(record_event(event, stream, flag));
}

ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(event);
    oa_event *ev = NULL;
    oa_status st = get_event(event, &ev);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    if (device_only(ev)) {
        put_event(ev);
        return oa_status_to_acl(OA_FAIL(OA_E_RT_PARAM, "event was created with ACL_EVENT_DEVICE_USE_ONLY"));
    }
    if (ev->ex_mode) {
        put_event(ev);
        return oa_status_to_acl(OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT,
                                        "events created by aclrtCreateEventExWithFlag cannot be reset"));
    }
    oa_stream *s = NULL;
    st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        put_event(ev);
        return oa_status_to_acl(st);
    }
    bool handled = false;
    st = oa_capture_event_reset(ev, s, &handled);
    if (handled) {
        oa_stream_release(s);
        put_event(ev);
        return oa_status_to_acl(st);
    }
    ev_lock(ev);
    reset_args a = {.ev = ev, .gen = ev->rec_gen};
    ev_unlock(ev);
    oa_task_desc d = {.kind = OA_TASK_KIND_EVENT_RESET,
                      .run = reset_run,
                      .release = reset_release,
                      .args = &a,
                      .args_size = sizeof(a)};
    st = oa_stream_submit(s, &d, NULL);
    oa_stream_release(s);
    if (st != OA_OK) {
        put_event(ev);
    }
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status)
{
    ACL_REQUIRE_NOT_NULL(event);
    ACL_REQUIRE_NOT_NULL(status);
    oa_event *ev = NULL;
    oa_status st = get_event(event, &ev);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    if (ev->ex_mode) {
        put_event(ev);
        return oa_status_to_acl(OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "aclrtQueryEvent does not support events created "
                                                                     "by aclrtCreateEventExWithFlag; use "
                                                                     "aclrtQueryEventStatus"));
    }
    st = not_for_external(ev, "queries");
    if (st == OA_OK) {
        st = oa_capture_check_event_op(ev, "aclrtQueryEvent");
    }
    if (st == OA_OK) {
        ev_lock(ev);
        bool pending = ev->has_record && ev->done_gen < ev->rec_gen;
        ev_unlock(ev);
        *status = pending ? ACL_EVENT_STATUS_NOT_READY : ACL_EVENT_STATUS_COMPLETE;
    }
    put_event(ev);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status)
{
    ACL_REQUIRE_NOT_NULL(event);
    ACL_REQUIRE_NOT_NULL(status);
    oa_event *ev = NULL;
    oa_status st = get_event(event, &ev);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    st = not_for_external(ev, "queries");
    if (st == OA_OK) {
        st = oa_capture_check_event_op(ev, "aclrtQueryEventStatus");
    }
    if (st == OA_OK) {
        ev_lock(ev);
        bool complete;
        if (!ev->has_record) {
            /* CANN: a never-recorded Ex event counts as complete, a classic one as not ready. */
            complete = ev->ex_mode;
        } else {
            complete = ev->done_gen >= ev->rec_gen;
        }
        ev_unlock(ev);
        *status = complete ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
    }
    put_event(ev);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status)
{
    ACL_REQUIRE_NOT_NULL(event);
    ACL_REQUIRE_NOT_NULL(status);
    oa_event *ev = NULL;
    oa_status st = get_event(event, &ev);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    if (ev->ex_mode) {
        st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT,
                     "aclrtQueryEventWaitStatus does not support events created by aclrtCreateEventExWithFlag");
    } else {
        st = not_for_external(ev, "queries");
    }
    if (st == OA_OK) {
        st = oa_capture_check_event_op(ev, "aclrtQueryEventWaitStatus");
    }
    if (st == OA_OK) {
        ev_lock(ev);
        *status = ev->pending_waits == 0 ? ACL_EVENT_WAIT_STATUS_COMPLETE : ACL_EVENT_WAIT_STATUS_NOT_READY;
        ev_unlock(ev);
    }
    put_event(ev);
    ACL_RETURN_STATUS(st);
}

static oa_status synchronize_event(aclrtEvent event, int32_t timeout)
{
    oa_event *ev = NULL;
    oa_status st = get_event(event, &ev);
    if (st != OA_OK) {
        return st;
    }
    st = not_for_external(ev, "synchronization");
    if (st == OA_OK) {
        st = oa_capture_check_event_op(ev, "event synchronization");
    }
    if (st == OA_OK) {
        st = sync_event(ev, timeout);
    }
    put_event(ev);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    ACL_REQUIRE_NOT_NULL(event);
    ACL_RETURN_STATUS(synchronize_event(event, -1));
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout)
{
    ACL_REQUIRE(timeout >= -1, OA_E_RT_PARAM, "timeout [%d] must be in [-1, INT_MAX]", timeout);
    ACL_REQUIRE_NOT_NULL(event);
    ACL_REQUIRE(timeout != 0, OA_E_RT_PARAM, "timeout [%d] must be -1 (wait forever) or greater than 0", timeout);
    ACL_RETURN_STATUS(synchronize_event(event, timeout));
}

/* Completion time of the newest record, with CANN's errors for missing/unfinished records. */
static oa_status completed_time(oa_event *ev, uint64_t *ns)
{
    oa_status st = not_for_external(ev, "timestamps");
    if (st == OA_OK) {
        st = oa_capture_check_event_op(ev, "event timestamps");
    }
    if (st != OA_OK) {
        return st;
    }
    ev_lock(ev);
    bool recorded = ev->has_record;
    bool done = ev->done_gen > 0 && ev->done_gen >= ev->rec_gen;
    *ns = ev->done_ns;
    ev_unlock(ev);
    if (!recorded) {
        return OA_FAIL(OA_E_RT_INTERNAL, "event %u has not been recorded", ev->id);
    }
    if (!done) {
        return OA_FAIL(OA_E_RT_EVENT_TIMESTAMP, "event %u has not completed yet, its timestamp is not valid", ev->id);
    }
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    ACL_REQUIRE_NOT_NULL(ms);
    ACL_REQUIRE_NOT_NULL(startEvent);
    ACL_REQUIRE_NOT_NULL(endEvent);
    oa_event *a = NULL, *b = NULL;
    oa_status st = get_event(startEvent, &a);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    st = get_event(endEvent, &b);
    if (st != OA_OK) {
        put_event(a);
        return oa_status_to_acl(st);
    }
    uint64_t t0 = 0, t1 = 0;
    st = completed_time(b, &t1);
    if (st == OA_OK) {
        st = completed_time(a, &t0);
    }
    if (st == OA_OK) {
        *ms = (float)(((double)t1 - (double)t0) / 1e6);
    }
    put_event(a);
    put_event(b);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp)
{
    ACL_REQUIRE_NOT_NULL(timestamp);
    ACL_REQUIRE_NOT_NULL(event);
    oa_event *ev = NULL;
    oa_status st = get_event(event, &ev);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    uint64_t ns = 0;
    st = completed_time(ev, &ns);
    if (st == OA_OK) {
        *timestamp = ns / 1000u; /* microseconds, as CANN reports */
    }
    put_event(ev);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclrtGetEventId(aclrtEvent event, uint32_t *eventId)
{
    ACL_REQUIRE_NOT_NULL(event);
    ACL_REQUIRE_NOT_NULL(eventId);
    oa_event *ev = NULL;
    oa_status st = get_event(event, &ev);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    *eventId = ev->id;
    put_event(ev);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetEventAvailNum(uint32_t *eventCount)
{
    ACL_REQUIRE_NOT_NULL(eventCount);
    oa_context *ctx = NULL;
    oa_status st = oa_ctx_current(true, &ctx);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    int32_t live = __atomic_load_n(&ctx->dev->live_events, __ATOMIC_RELAXED);
    *eventCount = live >= (int32_t)OA_RT_MAX_EVENTS_PER_DEVICE ? 0u : OA_RT_MAX_EVENTS_PER_DEVICE - (uint32_t)live;
    oa_ctx_release(ctx);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    ACL_REQUIRE_NOT_NULL(event);
    /* aclrtSetOpWaitTimeout applies to the waits queued after it; the timeout is reported at synchronisation. */
    const int64_t timeout_ms = (int64_t)oa_rt_op_wait_timeout_s() * 1000;
    ACL_RETURN_STATUS(stream_wait_event(stream, event, timeout_ms, ACL_EVENT_WAIT_DEFAULT));
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout,
                                                          uint32_t flag)
{
    ACL_REQUIRE_NOT_NULL(event);
    ACL_REQUIRE(flag == ACL_EVENT_WAIT_DEFAULT || flag == ACL_EVENT_WAIT_EXTERNAL, OA_E_PARAM,
                "flag [%u] must be ACL_EVENT_WAIT_DEFAULT or ACL_EVENT_WAIT_EXTERNAL", flag);
    if (flag == ACL_EVENT_WAIT_EXTERNAL) {
        ACL_REQUIRE(timeout == 0, OA_E_PARAM, "timeout [%u] must be 0 when flag is ACL_EVENT_WAIT_EXTERNAL", timeout);
        oa_event *ev = NULL;
        oa_status st = get_event(event, &ev);
        if (st != OA_OK) {
            return oa_status_to_acl(st);
        }
        bool sync_ex = ev->ex_mode && ev->flags == EV_DDSYNC_NS;
        put_event(ev);
        ACL_REQUIRE(sync_ex, OA_E_RT_FEATURE_NOT_SUPPORT,
                    "ACL_EVENT_WAIT_EXTERNAL needs an event created by aclrtCreateEventExWithFlag with ACL_EVENT_SYNC");
        /* The capture hook takes it (and refuses it when the stream is not capturing). */
        ACL_RETURN_STATUS(stream_wait_event(stream, event, 0, flag));
    }
    int64_t t = (timeout == UINT32_MAX) ? 0 : (int64_t)timeout;
    ACL_RETURN_STATUS(stream_wait_event(stream, event, t, flag));
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout)
{
    ACL_REQUIRE(timeout >= 0, OA_E_RT_PARAM, "timeout [%d] must be in [0, INT_MAX]", timeout);
    ACL_REQUIRE(event != NULL, OA_E_RT_PARAM, "parameter [event] must not be null");
    ACL_RETURN_STATUS(stream_wait_event(stream, event, (int64_t)timeout, ACL_EVENT_WAIT_DEFAULT));
}

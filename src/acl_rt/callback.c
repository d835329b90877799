/*
 * Host callbacks and everything that calls the application back:
 * aclrtSubscribeReport / aclrtLaunchCallback / aclrtProcessReport, host
 * functions (aclrtLaunchHostFunc and its subscribe/process variant),
 * exception-info callbacks for failed tasks, stream and device state
 * callbacks, and the thread's last error.
 *
 * A subscribed application thread owns a queue (one per thread id and kind).
 * A callback task running on a stream's worker pushes an item on the queue of
 * the thread subscribed to that stream; aclrtProcessReport, called by that
 * thread, runs the queued items. A blocking item keeps the worker (so the
 * stream) waiting until the callback has returned.
 */
#define OA_LOG_MODULE "RUNTIME"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl_rt/rt_internal.h"
#include "base/acl_check.h"
#include "base/error.h"
#include "base/util.h"
#include "prof/prof_internal.h"

#define WAIT_SLICE_MS 100
#define MAX_NAMED_CALLBACKS 64
#define MAX_EXCEPTION_CALLBACKS 64

typedef enum sub_kind { SUB_REPORT = 0, SUB_HOSTFUNC = 1 } sub_kind;
typedef enum item_state { ITEM_QUEUED, ITEM_RUNNING, ITEM_DONE } item_state;

typedef struct item {
    struct item *next;
    aclrtCallback fn;
    void *user;
    bool block;
    item_state state;
} item;

typedef struct sub_queue {
    struct sub_queue *next;
    uint64_t thread_id;
    sub_kind kind;
    int32_t nstreams; /* streams subscribed through this queue */
    pthread_cond_t cv;      /* items available */
    pthread_cond_t done_cv; /* a blocking item finished */
    item *head;
    item *tail;
} sub_queue;

typedef struct sub_link {
    struct sub_link *next;
    const oa_stream *stream;
    sub_kind kind;
    sub_queue *q;
} sub_link;

static pthread_mutex_t g_exc_mu = PTHREAD_MUTEX_INITIALIZER;
static aclrtExceptionInfoCallback g_exc_single;
static aclrtExceptionInfoCallback g_exc_list[MAX_EXCEPTION_CALLBACKS];
static size_t g_exc_count;

/* One lock for all subscription state: subscriptions are rare, items short. */
static pthread_mutex_t g_sub_mu = PTHREAD_MUTEX_INITIALIZER;
static sub_queue *g_queues;
static sub_link *g_links;

static void init_cond(pthread_cond_t *cv)
{
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(cv, &a);
    pthread_condattr_destroy(&a);
}

static void deadline_after(struct timespec *ts, int64_t ms)
{
    clock_gettime(CLOCK_MONOTONIC, ts);
    ts->tv_sec += ms / 1000;
    ts->tv_nsec += (long)(ms % 1000) * 1000000L;
    if (ts->tv_nsec >= 1000000000L) {
        ts->tv_sec += 1;
        ts->tv_nsec -= 1000000000L;
    }
}

/* Caller holds g_sub_mu. */
static sub_queue *find_queue(uint64_t thread_id, sub_kind kind)
{
    for (sub_queue *q = g_queues; q != NULL; q = q->next) {
        if (q->thread_id == thread_id && q->kind == kind) {
            return q;
        }
    }
    return NULL;
}

/* Caller holds g_sub_mu. */
static sub_link *find_link(const oa_stream *s, sub_kind kind)
{
    for (sub_link *l = g_links; l != NULL; l = l->next) {
        if (l->stream == s && l->kind == kind) {
            return l;
        }
    }
    return NULL;
}

/* Caller holds g_sub_mu: drops the queued items of nothing in particular (all of q). */
static void drop_items(sub_queue *q)
{
    item *it = q->head;
    q->head = q->tail = NULL;
    while (it != NULL) {
        item *n = it->next;
        if (it->block) {
            it->state = ITEM_DONE; /* the waiting worker frees it */
        } else {
            free(it);
        }
        it = n;
    }
    pthread_cond_broadcast(&q->done_cv);
}

static oa_status subscribe(uint64_t thread_id, aclrtStream stream, sub_kind kind)
{
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire_any_context(stream, &s);
    if (st != OA_OK) {
        return st;
    }
    pthread_mutex_lock(&g_sub_mu);
    if (find_link(s, kind) != NULL) {
        pthread_mutex_unlock(&g_sub_mu);
        oa_stream_release(s);
        return OA_FAIL(OA_E_RT_STREAM_SUBSCRIBE, "stream %d is already subscribed to a thread", s->id);
    }
    sub_queue *q = find_queue(thread_id, kind);
    if (q == NULL) {
        q = calloc(1, sizeof(*q));
        if (q == NULL) {
            pthread_mutex_unlock(&g_sub_mu);
            oa_stream_release(s);
            return OA_FAIL(OA_E_NOMEM, "cannot allocate a subscription queue");
        }
        q->thread_id = thread_id;
        q->kind = kind;
        init_cond(&q->cv);
        init_cond(&q->done_cv);
        q->next = g_queues;
        g_queues = q;
    }
    sub_link *l = calloc(1, sizeof(*l));
    if (l == NULL) {
        pthread_mutex_unlock(&g_sub_mu);
        oa_stream_release(s);
        return OA_FAIL(OA_E_NOMEM, "cannot allocate a subscription");
    }
    l->stream = s;
    l->kind = kind;
    l->q = q;
    l->next = g_links;
    g_links = l;
    ++q->nstreams;
    pthread_mutex_unlock(&g_sub_mu);
    OA_LOGI("thread %llu subscribed to %s of stream %d", (unsigned long long)thread_id,
            kind == SUB_REPORT ? "callbacks" : "host functions", s->id);
    oa_stream_release(s);
    return OA_OK;
}

/* Caller holds g_sub_mu. */
static void unlink_locked(sub_link *l)
{
    sub_link **pp = &g_links;
    while (*pp != NULL && *pp != l) {
        pp = &(*pp)->next;
    }
    if (*pp == l) {
        *pp = l->next;
    }
    sub_queue *q = l->q;
    if (--q->nstreams == 0) {
        if (q->head != NULL) {
            OA_LOGW("thread %llu unsubscribed with callbacks still queued; they are dropped",
                    (unsigned long long)q->thread_id);
        }
        drop_items(q);
        pthread_cond_broadcast(&q->cv);
    }
    free(l);
}

static oa_status unsubscribe(uint64_t thread_id, aclrtStream stream, sub_kind kind)
{
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire_any_context(stream, &s);
    if (st != OA_OK) {
        return st;
    }
    pthread_mutex_lock(&g_sub_mu);
    sub_link *l = find_link(s, kind);
    if (l == NULL) {
        pthread_mutex_unlock(&g_sub_mu);
        oa_stream_release(s);
        return OA_FAIL(OA_E_RT_STREAM_SUBSCRIBE, "stream %d is not subscribed to any thread", s->id);
    }
    if (l->q->thread_id != thread_id) {
        uint64_t owner = l->q->thread_id;
        pthread_mutex_unlock(&g_sub_mu);
        oa_stream_release(s);
        return OA_FAIL(OA_E_RT_THREAD_SUBSCRIBE, "stream %d is subscribed to thread %llu, not to thread %llu", s->id,
                       (unsigned long long)owner, (unsigned long long)thread_id);
    }
    unlink_locked(l);
    pthread_mutex_unlock(&g_sub_mu);
    oa_stream_release(s);
    return OA_OK;
}

void oa_rt_unsubscribe_stream(oa_stream *s)
{
    pthread_mutex_lock(&g_sub_mu);
    for (int k = SUB_REPORT; k <= SUB_HOSTFUNC; ++k) {
        sub_link *l = find_link(s, (sub_kind)k);
        if (l != NULL) {
            unlink_locked(l);
        }
    }
    pthread_mutex_unlock(&g_sub_mu);
}

void oa_rt_subscription_copy(const oa_stream *from, const oa_stream *to)
{
    pthread_mutex_lock(&g_sub_mu);
    for (int k = SUB_REPORT; k <= SUB_HOSTFUNC; ++k) {
        sub_link *src = find_link(from, (sub_kind)k);
        if (src == NULL || find_link(to, (sub_kind)k) != NULL) {
            continue;
        }
        sub_link *l = calloc(1, sizeof(*l));
        if (l == NULL) {
            OA_LOGW("cannot copy the subscription of stream %d to stream %d", from->id, to->id);
            continue;
        }
        l->stream = to;
        l->kind = (sub_kind)k;
        l->q = src->q;
        l->next = g_links;
        g_links = l;
        ++src->q->nstreams;
    }
    pthread_mutex_unlock(&g_sub_mu);
}

static bool is_subscribed(const oa_stream *s, sub_kind kind)
{
    pthread_mutex_lock(&g_sub_mu);
    bool r = find_link(s, kind) != NULL;
    pthread_mutex_unlock(&g_sub_mu);
    return r;
}

/*
 * Hands fn(user) to the thread subscribed to s (kind); for a blocking item,
 * waits until it has run. Returns false when s has no subscriber.
 */
static bool deliver(const oa_task_exec *exec, sub_kind kind, aclrtCallback fn, void *user, bool block)
{
    item *it = calloc(1, sizeof(*it));
    if (it == NULL) {
        return false;
    }
    it->fn = fn;
    it->user = user;
    it->block = block;
    it->state = ITEM_QUEUED;
    pthread_mutex_lock(&g_sub_mu);
    sub_link *l = find_link(exec->route != NULL ? exec->route : exec->stream, kind);
    if (l == NULL) {
        pthread_mutex_unlock(&g_sub_mu);
        free(it);
        return false;
    }
    sub_queue *q = l->q;
    if (q->tail != NULL) {
        q->tail->next = it;
    } else {
        q->head = it;
    }
    q->tail = it;
    pthread_cond_broadcast(&q->cv);
    if (block) {
        while (it->state != ITEM_DONE) {
            if (__atomic_load_n(&exec->stream->aborting, __ATOMIC_ACQUIRE) && it->state == ITEM_QUEUED) {
                /* The stream is being torn down: take the item back if nobody started it. */
                item **pp = &q->head;
                item *prev = NULL;
                while (*pp != NULL && *pp != it) {
                    prev = *pp;
                    pp = &(*pp)->next;
                }
                if (*pp == it) {
                    *pp = it->next;
                    if (q->tail == it) {
                        q->tail = prev;
                    }
                }
                break;
            }
            struct timespec ts;
            deadline_after(&ts, WAIT_SLICE_MS);
            (void)pthread_cond_timedwait(&q->done_cv, &g_sub_mu, &ts);
        }
        pthread_mutex_unlock(&g_sub_mu);
        free(it);
        return true;
    }
    pthread_mutex_unlock(&g_sub_mu);
    return true;
}

static oa_status process(sub_kind kind, int32_t timeout)
{
    uint64_t self = (uint64_t)pthread_self();
    pthread_mutex_lock(&g_sub_mu);
    sub_queue *q = find_queue(self, kind);
    if (q == NULL || q->nstreams == 0) {
        pthread_mutex_unlock(&g_sub_mu);
        return OA_FAIL(OA_E_RT_THREAD_SUBSCRIBE, "thread %llu is not subscribed to any stream",
                       (unsigned long long)self);
    }
    struct timespec deadline;
    if (timeout > 0) {
        deadline_after(&deadline, timeout);
    }
    while (q->head == NULL && q->nstreams > 0) {
        int rc = timeout > 0 ? pthread_cond_timedwait(&q->cv, &g_sub_mu, &deadline)
                             : pthread_cond_wait(&q->cv, &g_sub_mu);
        if (rc == ETIMEDOUT && q->head == NULL) {
            pthread_mutex_unlock(&g_sub_mu);
            /* A routine outcome for polling threads: no error line, only the code. */
            OA_LOGD("no callback reported to thread %llu within %d ms", (unsigned long long)self, timeout);
            return OA_E_RT_REPORT_TIMEOUT;
        }
    }
    if (q->head == NULL) {
        pthread_mutex_unlock(&g_sub_mu);
        return OA_FAIL(OA_E_RT_THREAD_SUBSCRIBE, "thread %llu was unsubscribed while waiting",
                       (unsigned long long)self);
    }
    item *batch = q->head;
    q->head = q->tail = NULL;
    for (item *it = batch; it != NULL; it = it->next) {
        it->state = ITEM_RUNNING;
    }
    pthread_mutex_unlock(&g_sub_mu);

    item *it = batch;
    while (it != NULL) {
        item *next = it->next;
        it->fn(it->user);
        if (it->block) {
            pthread_mutex_lock(&g_sub_mu);
            it->state = ITEM_DONE; /* the waiting worker frees it */
            pthread_cond_broadcast(&q->done_cv);
            pthread_mutex_unlock(&g_sub_mu);
        } else {
            free(it);
        }
        it = next;
    }
    return OA_OK;
}

/* ---- callback / host function tasks --------------------------------------------- */

typedef struct cb_args {
    aclrtCallback fn;
    void *user;
    bool block;
} cb_args;

static oa_status callback_run(void *args, const oa_task_exec *exec)
{
    cb_args *a = args;
    if (!deliver(exec, SUB_REPORT, a->fn, a->user, a->block)) {
        return OA_FAIL(OA_E_RT_STREAM_NO_CB_REG, "stream %d has no subscribed thread for its callback (task %u)",
                       exec->stream_id, exec->task_id);
    }
    return OA_OK;
}

static oa_status hostfunc_run(void *args, const oa_task_exec *exec)
{
    cb_args *a = args;
    if (!deliver(exec, SUB_HOSTFUNC, a->fn, a->user, true)) {
        a->fn(a->user);
    }
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    ACL_RETURN_STATUS(subscribe(threadId, stream, SUB_REPORT));
}

ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream)
{
    ACL_RETURN_STATUS(unsubscribe(threadId, stream, SUB_REPORT));
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType,
                                                 aclrtStream stream)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    ACL_REQUIRE(blockType == ACL_CALLBACK_BLOCK || blockType == ACL_CALLBACK_NO_BLOCK, OA_E_PARAM,
                "blockType [%d] must be ACL_CALLBACK_BLOCK or ACL_CALLBACK_NO_BLOCK", (int)blockType);
    ACL_REQUIRE(fn != NULL, OA_E_RT_PARAM, "parameter [fn] must not be null");
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    if (!is_subscribed(s, SUB_REPORT)) {
        st = OA_FAIL(OA_E_RT_STREAM_NO_CB_REG,
                     "stream %d is not bound to any thread: call aclrtSubscribeReport before aclrtLaunchCallback",
                     s->id);
        oa_stream_release(s);
        return oa_status_to_acl(st);
    }
    cb_args a = {.fn = fn, .user = userData, .block = blockType == ACL_CALLBACK_BLOCK};
    oa_task_desc d = {.kind = OA_TASK_KIND_CALLBACK, .run = callback_run, .args = &a, .args_size = sizeof(a)};
    st = oa_stream_submit(s, &d, NULL);
    oa_stream_release(s);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclrtProcessReport(int32_t timeout)
{
    ACL_REQUIRE(timeout == -1 || timeout > 0, OA_E_PARAM,
                "timeout [%d] is invalid: -1 waits forever, a value greater than 0 waits that many milliseconds",
                timeout);
    ACL_RETURN_STATUS(process(SUB_REPORT, timeout));
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args)
{
    ACL_REQUIRE(fn != NULL, OA_E_RT_PARAM, "parameter [fn] must not be null");
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    cb_args a = {.fn = fn, .user = args, .block = true};
    oa_task_desc d = {.kind = OA_TASK_KIND_HOST_FUNC, .run = hostfunc_run, .args = &a, .args_size = sizeof(a)};
    st = oa_stream_submit(s, &d, NULL);
    oa_stream_release(s);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream)
{
    ACL_RETURN_STATUS(subscribe(hostFuncThreadId, exeStream, SUB_HOSTFUNC));
}

ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream)
{
    ACL_RETURN_STATUS(unsubscribe(hostFuncThreadId, exeStream, SUB_HOSTFUNC));
}

ACL_FUNC_VISIBILITY aclError aclrtProcessHostFunc(int32_t timeout)
{
    ACL_REQUIRE(timeout == -1 || timeout > 0, OA_E_PARAM,
                "timeout [%d] is invalid: -1 waits forever, a value greater than 0 waits that many milliseconds",
                timeout);
    ACL_RETURN_STATUS(process(SUB_HOSTFUNC, timeout));
}

void oa_rt_callbacks_finalize(void)
{
    /*
     * Forget every subscription. The queues stay allocated (and reachable):
     * a thread may still be inside aclrtProcessReport on one of them; it now
     * returns ACL_ERROR_RT_THREAD_SUBSCRIBE.
     */
    pthread_mutex_lock(&g_sub_mu);
    while (g_links != NULL) {
        unlink_locked(g_links);
    }
    pthread_mutex_unlock(&g_sub_mu);
    pthread_mutex_lock(&g_exc_mu);
    g_exc_single = NULL;
    g_exc_count = 0;
    pthread_mutex_unlock(&g_exc_mu);
}

/* ---- exception info ---------------------------------------------------------------- */

void oa_rt_report_task_failure(const oa_stream *s, uint32_t task_id, uint32_t tid, oa_status st)
{
    aclrtExceptionInfoCallback cbs[MAX_EXCEPTION_CALLBACKS + 1];
    size_t n = 0;
    pthread_mutex_lock(&g_exc_mu);
    if (g_exc_single != NULL) {
        cbs[n++] = g_exc_single;
    }
    for (size_t i = 0; i < g_exc_count; ++i) {
        cbs[n++] = g_exc_list[i];
    }
    pthread_mutex_unlock(&g_exc_mu);
    struct rtExceptionInfo info = {.taskid = task_id,
                                   .streamid = (uint32_t)s->id,
                                   .tid = tid,
                                   .deviceid = (uint32_t)s->device_id,
                                   .retcode = (uint32_t)oa_status_to_acl(st)};
    for (size_t i = 0; i < n; ++i) {
        cbs[i](&info);
    }
}

ACL_FUNC_VISIBILITY aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback)
{
    pthread_mutex_lock(&g_exc_mu);
    g_exc_single = callback;
    pthread_mutex_unlock(&g_exc_mu);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback)
{
    ACL_REQUIRE(callback != NULL, OA_E_RT_PARAM, "parameter [callback] must not be null");
    pthread_mutex_lock(&g_exc_mu);
    for (size_t i = 0; i < g_exc_count; ++i) {
        if (g_exc_list[i] == callback) {
            pthread_mutex_unlock(&g_exc_mu);
            return ACL_SUCCESS;
        }
    }
    if (g_exc_count == MAX_EXCEPTION_CALLBACKS) {
        pthread_mutex_unlock(&g_exc_mu);
        return oa_status_to_acl(OA_FAIL(OA_E_RT_OVER_LIMIT, "at most %d exception callbacks can be registered",
                                        MAX_EXCEPTION_CALLBACKS));
    }
    g_exc_list[g_exc_count++] = callback;
    pthread_mutex_unlock(&g_exc_mu);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback)
{
    ACL_REQUIRE(callback != NULL, OA_E_RT_PARAM, "parameter [callback] must not be null");
    pthread_mutex_lock(&g_exc_mu);
    for (size_t i = 0; i < g_exc_count; ++i) {
        if (g_exc_list[i] == callback) {
            g_exc_list[i] = g_exc_list[--g_exc_count];
            break;
        }
    }
    pthread_mutex_unlock(&g_exc_mu);
    return ACL_SUCCESS;
}

#define EXC_INVALID 0xFFFFFFFFu

ACL_FUNC_VISIBILITY uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo *info)
{
    ACL_REQUIRE_RET(info != NULL, EXC_INVALID, "parameter [info] must not be null");
    return info->taskid;
}

ACL_FUNC_VISIBILITY uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo *info)
{
    ACL_REQUIRE_RET(info != NULL, EXC_INVALID, "parameter [info] must not be null");
    return info->streamid;
}

ACL_FUNC_VISIBILITY uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo *info)
{
    ACL_REQUIRE_RET(info != NULL, EXC_INVALID, "parameter [info] must not be null");
    return info->tid;
}

ACL_FUNC_VISIBILITY uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo *info)
{
    ACL_REQUIRE_RET(info != NULL, EXC_INVALID, "parameter [info] must not be null");
    return info->deviceid;
}

ACL_FUNC_VISIBILITY uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo *info)
{
    ACL_REQUIRE_RET(info != NULL, EXC_INVALID, "parameter [info] must not be null");
    return info->retcode;
}

ACL_FUNC_VISIBILITY aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo *info, void **devArgsPtr,
                                                           uint32_t *devArgsLen)
{
    if (info == NULL) {
        (void)OA_FAIL(OA_E_PARAM, "parameter [info] must not be null");
        return (aclError)EXC_INVALID;
    }
    ACL_REQUIRE_NOT_NULL(devArgsPtr);
    ACL_REQUIRE_NOT_NULL(devArgsLen);
    /* Failures on the CPU are never AI Core / AI CPU kernel exceptions: there are no kernel arguments. */
    (void)OA_FAIL(OA_E_PARAM, "the exception of task %u is not a kernel exception and has no arguments", info->taskid);
    return (aclError)EXC_INVALID;
}

/* ---- state callbacks ------------------------------------------------------------------- */

typedef struct named_cb {
    char name[128];
    void *fn;
    void *args;
} named_cb;

static pthread_mutex_t g_state_mu = PTHREAD_MUTEX_INITIALIZER;
static named_cb g_stream_cbs[MAX_NAMED_CALLBACKS];
static size_t g_stream_cb_count;
static named_cb g_device_cbs[MAX_NAMED_CALLBACKS];
static size_t g_device_cb_count;

static oa_status register_named(named_cb *table, size_t *count, const char *name, void *fn, void *args)
{
    pthread_mutex_lock(&g_state_mu);
    for (size_t i = 0; i < *count; ++i) {
        if (strncmp(table[i].name, name, sizeof(table[i].name)) == 0) {
            if (fn == NULL) {
                table[i] = table[--*count];
            } else {
                table[i].fn = fn;
                table[i].args = args;
            }
            pthread_mutex_unlock(&g_state_mu);
            return OA_OK;
        }
    }
    if (fn == NULL) {
        pthread_mutex_unlock(&g_state_mu);
        return OA_OK;
    }
    if (*count == MAX_NAMED_CALLBACKS) {
        pthread_mutex_unlock(&g_state_mu);
        return OA_FAIL(OA_E_RT_OVER_LIMIT, "at most %d state callbacks can be registered", MAX_NAMED_CALLBACKS);
    }
    named_cb *c = &table[(*count)++];
    oa_strlcpy(c->name, name, sizeof(c->name));
    c->fn = fn;
    c->args = args;
    pthread_mutex_unlock(&g_state_mu);
    return OA_OK;
}

static size_t snapshot(const named_cb *table, size_t count, named_cb *out)
{
    pthread_mutex_lock(&g_state_mu);
    memcpy(out, table, count * sizeof(*out));
    pthread_mutex_unlock(&g_state_mu);
    return count;
}

void oa_rt_notify_stream_state(oa_stream *s, aclrtStreamState state)
{
    named_cb cbs[MAX_NAMED_CALLBACKS];
    size_t n = snapshot(g_stream_cbs, __atomic_load_n(&g_stream_cb_count, __ATOMIC_ACQUIRE), cbs);
    for (size_t i = 0; i < n; ++i) {
        ((aclrtStreamStateCallback)cbs[i].fn)((aclrtStream)s, state, cbs[i].args);
    }
}

void oa_rt_notify_device_state(int32_t device_id, aclrtDeviceState state)
{
    named_cb cbs[MAX_NAMED_CALLBACKS];
    size_t n = snapshot(g_device_cbs, __atomic_load_n(&g_device_cb_count, __ATOMIC_ACQUIRE), cbs);
    for (size_t i = 0; i < n; ++i) {
        ((aclrtDeviceStateCallback)cbs[i].fn)(device_id, state, cbs[i].args);
    }
}

ACL_FUNC_VISIBILITY aclError aclrtRegStreamStateCallback(const char *regName, aclrtStreamStateCallback callback,
                                                         void *args)
{
    ACL_REQUIRE_NOT_NULL(regName);
    ACL_RETURN_STATUS(register_named(g_stream_cbs, &g_stream_cb_count, regName, (void *)callback, args));
}

ACL_FUNC_VISIBILITY aclError aclrtRegDeviceStateCallback(const char *regName, aclrtDeviceStateCallback callback,
                                                         void *args)
{
    ACL_REQUIRE_NOT_NULL(regName);
    ACL_RETURN_STATUS(register_named(g_device_cbs, &g_device_cb_count, regName, (void *)callback, args));
}

/* ---- last error ------------------------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclrtPeekAtLastError(aclrtLastErrLevel level)
{
    ACL_REQUIRE(level == ACL_RT_THREAD_LEVEL, OA_E_PARAM, "level [%d] must be ACL_RT_THREAD_LEVEL", (int)level);
    return oa_error_peek_last();
}

ACL_FUNC_VISIBILITY aclError aclrtGetLastError(aclrtLastErrLevel level)
{
    ACL_REQUIRE(level == ACL_RT_THREAD_LEVEL, OA_E_PARAM, "level [%d] must be ACL_RT_THREAD_LEVEL", (int)level);
    return oa_error_take_last();
}

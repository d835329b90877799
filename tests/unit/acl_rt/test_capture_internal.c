/*
 * acl_rt/ capture internals (static libraries): kernel-kind tasks submitted
 * through oa_stream_submit, task groups and their updates from another
 * stream, kernel task parameters, the capture hooks and attachments other
 * modules use to keep per-instance resources (capture.h), and the bounded
 * wait of aclmdlRIDestroy for replays in flight.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "rt_test_util.h"

#include "acl_rt/capture.h"
#include "acl_rt/rt_stream.h"

/* Internal setter of capture_model.c (tests shorten the 10 s destroy wait). */
void oa_mdlri_set_destroy_wait_ms(int32_t ms);

/* A "kernel": acc += add. */
typedef struct kernel_args {
    int *acc;
    int add;
} kernel_args;

static oa_status kernel_run(void *args, const oa_task_exec *exec)
{
    (void)exec;
    kernel_args *a = args;
    __atomic_fetch_add(a->acc, a->add, __ATOMIC_SEQ_CST);
    return OA_OK;
}

static oa_status launch(aclrtStream h, oa_task_kind kind, int *acc, int add)
{
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(h, &s);
    if (st != OA_OK) {
        return st;
    }
    kernel_args a = {.acc = acc, .add = add};
    oa_task_desc d = {.kind = kind, .run = kernel_run, .args = &a, .args_size = sizeof(a)};
    st = oa_stream_submit(s, &d, NULL);
    oa_stream_release(s);
    return st;
}

static int replay_delta(aclmdlRI m, aclrtStream exec, int *acc)
{
    int before = __atomic_load_n(acc, __ATOMIC_SEQ_CST);
    assert_int_equal(aclmdlRIExecuteAsync(m, exec), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(exec), ACL_SUCCESS);
    return __atomic_load_n(acc, __ATOMIC_SEQ_CST) - before;
}

static void noop(void *arg)
{
    (void)arg;
}

/* ---- task groups ------------------------------------------------------------------------------------ */

static void task_groups(void **state)
{
    (void)state;
    aclrtStream s = test_new_stream(), u = test_new_stream(), u2 = test_new_stream(), exec = test_new_stream();
    int acc = 0;
    aclrtTaskGrp g = NULL;
    assert_int_equal(aclmdlRICaptureTaskGrpBegin(NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclmdlRICaptureTaskGrpBegin(s), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    assert_int_equal(aclmdlRICaptureTaskGrpEnd(s, &g), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    assert_int_equal(aclmdlRICaptureTaskGrpEnd(s, NULL), ACL_ERROR_INVALID_PARAM);

    aclmdlRI m = NULL;
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(launch(s, OA_TASK_KIND_KERNEL, &acc, 1), OA_OK);
    assert_int_equal(aclmdlRICaptureTaskGrpEnd(s, &g), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    assert_int_equal(aclmdlRICaptureTaskGrpBegin(s), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureTaskGrpBegin(s), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    assert_int_equal(launch(s, OA_TASK_KIND_KERNEL, &acc, 10), OA_OK);
    assert_int_equal(launch(s, OA_TASK_KIND_KERNEL, &acc, 100), OA_OK);
    assert_int_equal(aclmdlRICaptureTaskGrpEnd(s, &g), ACL_SUCCESS);
    assert_non_null(g);
    assert_int_equal(launch(s, OA_TASK_KIND_KERNEL, &acc, 1000), OA_OK);
    /* A stream updating a task group cannot be capturing. */
    assert_int_equal(aclmdlRICaptureTaskUpdateBegin(s, g), ACL_ERROR_RT_STREAM_CAPTURED);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    assert_int_equal(acc, 0);
    assert_int_equal(replay_delta(m, exec, &acc), 1111);

    /* The group's tasks: kernel type, parameters, attributes. */
    aclrtStream ms = NULL;
    uint32_t n = 1;
    assert_int_equal(aclmdlRIGetStreams(m, &ms, &n), ACL_SUCCESS);
    aclmdlRITask tasks[4];
    n = 4;
    assert_int_equal(aclmdlRIGetTasksByStream(ms, tasks, &n), ACL_SUCCESS);
    assert_int_equal(n, 4);
    aclmdlRITaskParams p;
    assert_int_equal(aclmdlRITaskGetParams(tasks[1], &p), ACL_SUCCESS);
    assert_int_equal(p.type, ACL_MODEL_RI_TASK_KERNEL);
    assert_ptr_equal(p.taskGrp, g);
    assert_int_equal(p.kernelTaskParams.argsSize, sizeof(kernel_args));
    assert_int_equal(((kernel_args *)p.kernelTaskParams.args)->add, 10);
    assert_int_equal(aclmdlRITaskGetParams(tasks[0], &p), ACL_SUCCESS);
    assert_null(p.taskGrp);
    aclrtLaunchKernelAttrValue av;
    assert_int_equal(aclmdlRIKernelTaskGetAttribute(tasks[1], ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, &av), ACL_SUCCESS);
    assert_int_equal(av.schemMode, 0);
    assert_int_equal(aclmdlRIKernelTaskGetAttribute(tasks[1], ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE, &av),
                     ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRIKernelTaskGetAttribute(tasks[1], ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, NULL),
                     ACL_ERROR_INVALID_PARAM);

    /* Updating the group from another stream: each kernel replaces the next task of the group. */
    assert_int_equal(aclmdlRICaptureTaskUpdateBegin(NULL, g), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclmdlRICaptureTaskUpdateBegin(u, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclmdlRICaptureTaskUpdateBegin(u, (aclrtTaskGrp)0x99), ACL_ERROR_RT_INVALID_HANDLE);
    assert_int_equal(aclmdlRICaptureTaskUpdateBegin(ms, g), ACL_ERROR_RT_STREAM_MODEL);
    assert_int_equal(aclmdlRICaptureTaskUpdateEnd(u), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    assert_int_equal(aclmdlRICaptureTaskUpdateBegin(u, g), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureTaskUpdateBegin(u, g), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    assert_int_equal(aclmdlRICaptureTaskUpdateBegin(u2, g), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    assert_int_equal(aclrtLaunchHostFunc(u, noop, NULL), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT);
    /* A stream updating a task group can neither begin a capture nor be bound to an instance. */
    assert_int_equal(aclmdlRICaptureBegin(u, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    aclmdlRI built = NULL;
    assert_int_equal(aclmdlRIBuildBegin(&built, 0), ACL_SUCCESS);
    assert_int_equal(aclmdlRIBindStream(built, u, 0), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    assert_int_equal(aclmdlRIDestroy(built), ACL_SUCCESS);
    aclrtEvent e = NULL;
    assert_int_equal(aclrtCreateEvent(&e), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(e, u), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT);
    assert_int_equal(launch(u, OA_TASK_KIND_KERNEL, &acc, 20), OA_OK);
    assert_int_equal(launch(u, OA_TASK_KIND_KERNEL, &acc, 200), OA_OK);
    assert_int_equal(launch(u, OA_TASK_KIND_KERNEL, &acc, 2), OA_E_RT_INTERNAL); /* the group has two tasks */
    assert_int_equal(aclmdlRICaptureTaskUpdateEnd(u), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(u), ACL_SUCCESS);
    assert_int_equal(acc, 1111); /* the update tasks changed parameters, they ran nothing */
    assert_int_equal(replay_delta(m, exec, &acc), 1221);

    /* An update that misses tasks is reported at the end; the tasks it did update stay updated. */
    assert_int_equal(aclmdlRICaptureTaskUpdateBegin(u2, g), ACL_SUCCESS);
    assert_int_equal(launch(u2, OA_TASK_KIND_KERNEL, &acc, 30), OA_OK);
    assert_int_equal(aclmdlRICaptureTaskUpdateEnd(u2), ACL_ERROR_RT_INTERNAL_ERROR);
    assert_int_equal(aclrtSynchronizeStream(u2), ACL_SUCCESS);
    assert_int_equal(replay_delta(m, exec, &acc), 1231);
    /* After the update mode, the stream is an ordinary stream again. */
    assert_int_equal(aclrtLaunchHostFunc(u2, noop, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(u2), ACL_SUCCESS);

    /* Parameters of a kernel task through aclmdlRITaskSetParams. */
    assert_int_equal(aclmdlRITaskGetParams(tasks[3], &p), ACL_SUCCESS);
    kernel_args na = {.acc = &acc, .add = 5000};
    p.kernelTaskParams.args = &na;
    assert_int_equal(aclmdlRITaskSetParams(tasks[3], &p), ACL_SUCCESS);
    assert_int_equal(aclmdlRIUpdate(m), ACL_SUCCESS);
    assert_int_equal(replay_delta(m, exec, &acc), 5231);
    p.kernelTaskParams.argsSize = 3; /* wrong size: refused, the instance is then unusable (CANN) */
    assert_int_equal(aclmdlRITaskSetParams(tasks[3], &p), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRIExecuteAsync(m, exec), ACL_ERROR_RT_MODEL_EXECUTE);

    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    /* Group handles die with their instance. */
    assert_int_equal(aclmdlRICaptureTaskUpdateBegin(u, g), ACL_ERROR_RT_INVALID_HANDLE);
    assert_int_equal(aclrtDestroyEvent(e), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(u), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(u2), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(exec), ACL_SUCCESS);
}

static void task_group_errors(void **state)
{
    (void)state;
    aclrtStream s = test_new_stream(), side = test_new_stream();
    aclrtEvent fork = NULL;
    assert_int_equal(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC), ACL_SUCCESS);
    int acc = 0;
    aclmdlRI m = NULL;
    aclrtTaskGrp g = NULL;

    /* A group still open when the capture ends. */
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureTaskGrpBegin(s), ACL_SUCCESS);
    assert_int_equal(launch(s, OA_TASK_KIND_KERNEL, &acc, 1), OA_OK);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_ERROR_STREAM_TASK_GROUP_STATUS);

    /* Work on another stream of the capture interrupts an open group. */
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(fork, s), ACL_SUCCESS);
    assert_int_equal(aclrtStreamWaitEvent(side, fork), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureTaskGrpBegin(s), ACL_SUCCESS);
    assert_int_equal(launch(side, OA_TASK_KIND_KERNEL, &acc, 1), OA_E_RT_TASK_GROUP_INTR);
    assert_int_equal(launch(s, OA_TASK_KIND_KERNEL, &acc, 1), OA_OK);
    assert_int_equal(aclmdlRICaptureTaskGrpEnd(s, &g), ACL_ERROR_STREAM_TASK_GROUP_INTR);
    assert_null(g);
    /* The interruption invalidated the capture (reported before the unjoined side stream). */
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);

    /* An event operation on another stream interrupts an open group too. */
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(fork, s), ACL_SUCCESS);
    assert_int_equal(aclrtStreamWaitEvent(side, fork), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureTaskGrpBegin(s), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(fork, side), ACL_ERROR_STREAM_TASK_GROUP_INTR);
    assert_int_equal(aclmdlRICaptureTaskGrpEnd(s, &g), ACL_ERROR_STREAM_TASK_GROUP_INTR);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);

    /* Only kernels join a task group: anything else fails the group and invalidates the capture. */
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureTaskGrpBegin(s), ACL_SUCCESS);
    assert_int_equal(launch(s, OA_TASK_KIND_KERNEL, &acc, 1), OA_OK);
    assert_int_equal(aclrtLaunchHostFunc(s, noop, NULL), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT);
    assert_int_equal(aclrtRecordEvent(fork, s), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT);
    assert_int_equal(aclmdlRICaptureTaskGrpEnd(s, &g), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT);
    assert_null(g);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
    assert_null(m);
    assert_int_equal(acc, 0);

    /* A group in an invalidated capture. */
    aclrtStream other = test_new_stream();
    aclrtEvent e = NULL;
    assert_int_equal(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureBegin(other, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureTaskGrpBegin(s), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(e, other), ACL_SUCCESS);
    assert_int_equal(aclrtStreamWaitEvent(s, e), ACL_ERROR_STREAM_CAPTURE_CONFLICT);
    assert_int_equal(aclmdlRICaptureTaskGrpEnd(s, &g), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
    assert_int_equal(aclmdlRICaptureEnd(other, &m), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);

    assert_int_equal(aclrtDestroyEvent(e), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(fork), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(side), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(other), ACL_SUCCESS);
}

/* The graph waits for an external event; another stream updates the group, then records it (CANN's sample). */
static void update_while_replay_waits(void **state)
{
    (void)state;
    aclrtStream s = test_new_stream(), upd = test_new_stream();
    aclrtEvent ev = NULL;
    assert_int_equal(aclrtCreateEventWithFlag(&ev, ACL_EVENT_EXTERNAL), ACL_SUCCESS);
    int acc = 0;
    aclmdlRI m = NULL;
    aclrtTaskGrp g = NULL;
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    assert_int_equal(aclrtStreamWaitEvent(s, ev), ACL_SUCCESS);
    assert_int_equal(aclrtResetEvent(ev, s), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureTaskGrpBegin(s), ACL_SUCCESS);
    assert_int_equal(launch(s, OA_TASK_KIND_KERNEL, &acc, 1), OA_OK);
    assert_int_equal(aclmdlRICaptureTaskGrpEnd(s, &g), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    for (int step = 1; step <= 4; ++step) {
        int before = acc;
        assert_int_equal(aclmdlRIExecuteAsync(m, s), ACL_SUCCESS);
        assert_int_equal(aclmdlRICaptureTaskUpdateBegin(upd, g), ACL_SUCCESS);
        assert_int_equal(launch(upd, OA_TASK_KIND_KERNEL, &acc, step * 100), OA_OK);
        assert_int_equal(aclmdlRICaptureTaskUpdateEnd(upd), ACL_SUCCESS);
        assert_int_equal(aclrtRecordEvent(ev, upd), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(upd), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
        assert_int_equal(acc - before, step * 100);
    }
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(ev), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(upd), ACL_SUCCESS);
}

/* ---- hooks: a model executor keeping work memory in a pool per instance -------------------------------------- */

typedef struct pool {
    unsigned char *mem;
    int users;
    int *freed;
} pool;

typedef struct model_args {
    unsigned char *work; /* rewritten at capture to the instance's pool */
    int *runs;
    unsigned char **seen;
} model_args;

static int g_key; /* address used as the attachment key */
static int g_replays;
static int g_destroys;
static bool g_refuse;

static void pool_free(void *res)
{
    pool *p = res;
    ++*p->freed;
    free(p->mem);
    free(p);
}

static int g_pools_freed;

static oa_status hook_capture(oa_mdlri *m, oa_stream *s, void *args, size_t size, void **task_state)
{
    assert_int_equal(size, sizeof(model_args));
    assert_non_null(s);
    if (g_refuse) {
        return OA_E_RT_MEMORY_ALLOCATION;
    }
    pool *p = oa_mdlri_lookup(m, &g_key);
    if (p == NULL) {
        p = calloc(1, sizeof(*p));
        p->mem = calloc(1, 256);
        p->freed = &g_pools_freed;
        assert_int_equal(oa_mdlri_attach(m, &g_key, p, pool_free), OA_OK);
        assert_int_equal(oa_mdlri_attach(m, &g_key, p, pool_free), OA_E_PARAM);
    }
    ++p->users;
    ((model_args *)args)->work = p->mem;
    *task_state = p;
    return OA_OK;
}

static oa_status hook_replay(oa_mdlri *m, void *args, void *task_state, const oa_task_exec *exec)
{
    (void)m;
    (void)exec;
    pool *p = task_state;
    assert_ptr_equal(((model_args *)args)->work, p->mem);
    __atomic_fetch_add(&g_replays, 1, __ATOMIC_SEQ_CST);
    return OA_OK;
}

static void hook_destroy(oa_mdlri *m, void *args, void *task_state)
{
    (void)m;
    (void)args;
    pool *p = task_state;
    --p->users;
    ++g_destroys;
}

static const oa_capture_hooks g_model_hooks = {
    .on_capture = hook_capture, .on_replay = hook_replay, .on_destroy = hook_destroy};

static oa_status model_run(void *args, const oa_task_exec *exec)
{
    (void)exec;
    model_args *a = args;
    a->work[0]++;
    ++*a->runs;
    *a->seen = a->work;
    return OA_OK;
}

static oa_status submit_model(aclrtStream h, unsigned char *work, int *runs, unsigned char **seen)
{
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(h, &s);
    if (st != OA_OK) {
        return st;
    }
    model_args a = {.work = work, .runs = runs, .seen = seen};
    oa_task_desc d = {.kind = OA_TASK_KIND_MODEL, .run = model_run, .args = &a, .args_size = sizeof(a)};
    st = oa_stream_submit(s, &d, NULL);
    oa_stream_release(s);
    return st;
}

static void hooks_keep_a_pool(void **state)
{
    (void)state;
    assert_int_equal(oa_capture_register_hooks(OA_TASK_KIND_COUNT, &g_model_hooks), OA_E_PARAM);
    assert_int_equal(oa_capture_register_hooks(OA_TASK_KIND_MODEL, &g_model_hooks), OA_OK);
    aclrtStream s = test_new_stream(), exec = test_new_stream();
    unsigned char eager[256] = {0};
    unsigned char *seen = NULL;
    int runs = 0;

    /* Outside a capture the task runs on its own memory. */
    assert_int_equal(submit_model(s, eager, &runs, &seen), OA_OK);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_ptr_equal(seen, eager);

    aclmdlRI m = NULL;
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(submit_model(s, eager, &runs, &seen), OA_OK);
    }
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    uint32_t id = 0;
    assert_int_equal(aclmdlRIGetId(m, &id), ACL_SUCCESS);
    for (int r = 0; r < 2; ++r) {
        assert_int_equal(aclmdlRIExecuteAsync(m, exec), ACL_SUCCESS);
    }
    assert_int_equal(aclrtSynchronizeStream(exec), ACL_SUCCESS);
    assert_int_equal(runs, 1 + 6);
    assert_int_equal(g_replays, 6);
    assert_ptr_not_equal(seen, eager); /* replays used the pool */
    assert_int_equal(seen[0], 6);
    assert_int_equal(eager[0], 1);
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    assert_int_equal(g_destroys, 3);
    assert_int_equal(g_pools_freed, 1);

    /* A hook refusing the capture refuses the submission and invalidates the capture. */
    g_refuse = true;
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(submit_model(s, eager, &runs, &seen), OA_E_RT_MEMORY_ALLOCATION);
    aclmdlRICaptureStatus cs;
    assert_int_equal(aclmdlRICaptureGetInfo(s, &cs, NULL), ACL_SUCCESS);
    assert_int_equal(cs, ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
    g_refuse = false;

    assert_int_equal(oa_capture_register_hooks(OA_TASK_KIND_MODEL, NULL), OA_OK);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(exec), ACL_SUCCESS);
}

/* ---- large arguments and the bounded destroy wait ------------------------------------------------------------- */

typedef struct big_args {
    int *sum;
    int values[100]; /* more than the inline task buffer */
} big_args;

static oa_status add_all(void *args, const oa_task_exec *exec)
{
    (void)exec;
    big_args *a = args;
    for (int i = 0; i < 100; ++i) {
        *a->sum += a->values[i];
    }
    return OA_OK;
}

static void big_args_and_destroy_wait(void **state)
{
    (void)state;
    aclrtStream h = test_new_stream(), exec = test_new_stream();
    int sum = 0;
    big_args a = {.sum = &sum};
    for (int i = 0; i < 100; ++i) {
        a.values[i] = i;
    }
    oa_stream *s = NULL;
    assert_int_equal(oa_stream_acquire(h, &s), OA_OK);
    aclmdlRI m = NULL;
    assert_int_equal(aclmdlRICaptureBegin(h, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    oa_task_desc d = {.kind = OA_TASK_KIND_GENERIC, .run = add_all, .args = &a, .args_size = sizeof(a)};
    assert_int_equal(oa_stream_submit(s, &d, NULL), OA_OK);
    memset(&a, 0, sizeof(a)); /* the capture kept its own copy */
    assert_int_equal(aclmdlRICaptureEnd(h, &m), ACL_SUCCESS);
    oa_stream_release(s);
    assert_int_equal(aclmdlRIExecuteAsync(m, exec), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(exec), ACL_SUCCESS);
    assert_int_equal(sum, 4950);

    /* A replay that cannot finish in time keeps the instance alive: ACL_ERROR_RT_MODEL_RUNNING. */
    oa_mdlri_set_destroy_wait_ms(50);
    test_gate g;
    test_gate_init(&g);
    assert_int_equal(aclrtLaunchHostFunc(exec, test_gate_fn, &g), ACL_SUCCESS);
    assert_int_equal(aclmdlRIExecuteAsync(m, exec), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(m), ACL_ERROR_RT_MODEL_RUNNING);
    test_gate_open(&g);
    assert_int_equal(aclrtSynchronizeStream(exec), ACL_SUCCESS);
    assert_int_equal(sum, 9900);
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    oa_mdlri_set_destroy_wait_ms(0);
    assert_int_equal(aclrtDestroyStream(h), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(exec), ACL_SUCCESS);
}

/* A stream force-destroyed with a replay queued drops it; the instance lives on. */
static void replay_dropped_with_its_stream(void **state)
{
    (void)state;
    aclrtStream h = test_new_stream(), exec = test_new_stream();
    int acc = 0;
    aclmdlRI m = NULL;
    assert_int_equal(aclmdlRICaptureBegin(h, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(launch(h, OA_TASK_KIND_KERNEL, &acc, 1), OA_OK);
    assert_int_equal(aclmdlRICaptureEnd(h, &m), ACL_SUCCESS);
    test_gate g;
    test_gate_init(&g);
    assert_int_equal(aclrtLaunchHostFunc(exec, test_gate_fn, &g), ACL_SUCCESS);
    test_gate_wait_entered(&g);
    assert_int_equal(aclmdlRIExecuteAsync(m, exec), ACL_SUCCESS);
    assert_int_equal(aclmdlRIExecuteAsync(m, exec), ACL_SUCCESS);
    test_gate_open(&g);
    assert_int_equal(aclrtDestroyStreamForce(exec), ACL_SUCCESS);
    /* The dropped replays gave their turns back: the next one runs. */
    aclrtStream again = test_new_stream();
    assert_int_equal(aclmdlRIExecuteAsync(m, again), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(again), ACL_SUCCESS);
    assert_true(acc >= 1);
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(h), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(again), ACL_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(task_groups, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(task_group_errors, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(update_while_replay_waits, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(hooks_keep_a_pool, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(big_args_and_destroy_wait, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(replay_dropped_with_its_stream, test_device0_setup, test_device0_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* acl_rt/: streams through the public API: creation, FIFO order, destroy, sync, attributes, threads. */
#define _GNU_SOURCE
#include <stdlib.h>

#include "rt_test_util.h"

static int teardown(void **state)
{
    (void)state;
    (void)aclrtResetDeviceForce(0);
    (void)aclrtResetDeviceForce(1);
    return 0;
}

static void create_variants(void **state)
{
    (void)state;
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtCreateStreamWithConfig(NULL, 0, 0), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtCreateStreamWithConfig(&s, 3, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC), ACL_SUCCESS);
    uint32_t prio = 99, flags = 99;
    assert_int_equal(aclrtStreamGetPriority(s, &prio), ACL_SUCCESS);
    assert_int_equal(prio, 3);
    assert_int_equal(aclrtStreamGetFlags(s, &flags), ACL_SUCCESS);
    assert_int_equal(flags, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC);
    assert_int_equal(aclrtStreamGetPriority(s, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    /* Out-of-range priorities are clamped, unknown flag bits ignored (CANN behaviour). */
    assert_int_equal(aclrtCreateStreamWithConfig(&s, 100, 0x8000u | ACL_STREAM_HUGE), ACL_SUCCESS);
    assert_int_equal(aclrtStreamGetPriority(s, &prio), ACL_SUCCESS);
    assert_int_equal(prio, 7);
    assert_int_equal(aclrtStreamGetFlags(s, &flags), ACL_SUCCESS);
    assert_int_equal(flags, ACL_STREAM_HUGE);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    /* Stream ids are distinct. */
    aclrtStream a = NULL, b = NULL;
    int32_t ia = -1, ib = -1, idef = -1;
    assert_int_equal(aclrtCreateStream(&a), ACL_SUCCESS);
    assert_int_equal(aclrtCreateStream(&b), ACL_SUCCESS);
    assert_int_equal(aclrtStreamGetId(a, &ia), ACL_SUCCESS);
    assert_int_equal(aclrtStreamGetId(b, &ib), ACL_SUCCESS);
    assert_int_equal(aclrtStreamGetId(NULL, &idef), ACL_SUCCESS);
    assert_true(ia != ib && ia != idef && ib != idef);
    uint32_t avail = 0;
    assert_int_equal(aclrtGetStreamAvailableNum(&avail), ACL_SUCCESS);
    assert_true(avail > 0 && avail < 2048);
    assert_int_equal(aclrtDestroyStream(a), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(b), ACL_SUCCESS);
}

static void config_handle_and_v2(void **state)
{
    (void)state;
    aclrtStreamConfigHandle *h = aclrtCreateStreamConfigHandle();
    assert_non_null(h);
    uint32_t prio = 5;
    size_t flag = ACL_STREAM_FAST_SYNC;
    assert_int_equal(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio, sizeof(prio)), ACL_SUCCESS);
    assert_int_equal(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag, sizeof(flag)), ACL_SUCCESS);
    uint32_t bad = 8;
    assert_int_equal(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &bad, sizeof(bad)), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio, 8), ACL_ERROR_INVALID_PARAM);
    uint16_t flag16 = 0;
    assert_int_equal(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag16, sizeof(flag16)), ACL_ERROR_INVALID_PARAM);
    size_t huge_flag = (size_t)1 << 40;
    assert_int_equal(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &huge_flag, sizeof(huge_flag)),
                     ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtSetStreamConfigOpt(h, (aclrtStreamConfigAttr)9, &prio, sizeof(prio)),
                     ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtSetStreamConfigOpt(NULL, ACL_RT_STREAM_PRIORITY, &prio, sizeof(prio)),
                     ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, NULL, sizeof(prio)), ACL_ERROR_INVALID_PARAM);
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStreamV2(&s, h), ACL_SUCCESS);
    uint32_t p = 0, f = 0;
    assert_int_equal(aclrtStreamGetPriority(s, &p), ACL_SUCCESS);
    assert_int_equal(aclrtStreamGetFlags(s, &f), ACL_SUCCESS);
    assert_int_equal(p, 5);
    assert_int_equal(f, ACL_STREAM_FAST_SYNC);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    /* a uint32_t flag (as CANN's stream config example passes it) */
    uint32_t flag32 = ACL_STREAM_FAST_LAUNCH;
    assert_int_equal(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag32, sizeof(flag32)), ACL_SUCCESS);
    assert_int_equal(aclrtCreateStreamV2(&s, h), ACL_SUCCESS);
    assert_int_equal(aclrtStreamGetFlags(s, &f), ACL_SUCCESS);
    assert_int_equal(f, ACL_STREAM_FAST_LAUNCH);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtCreateStreamV2(&s, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtCreateStreamV2(NULL, h), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtDestroyStreamConfigHandle(h), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStreamConfigHandle(NULL), ACL_ERROR_INVALID_PARAM);
}

typedef struct order_log {
    pthread_mutex_t mu;
    int next;
    int seen[256];
} order_log;

typedef struct order_item {
    order_log *log;
    int value;
} order_item;

static void record_order(void *p)
{
    order_item *it = p;
    pthread_mutex_lock(&it->log->mu);
    it->log->seen[it->log->next++] = it->value;
    pthread_mutex_unlock(&it->log->mu);
}

static void tasks_run_in_fifo_order(void **state)
{
    (void)state;
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    order_log log;
    memset(&log, 0, sizeof(log));
    pthread_mutex_init(&log.mu, NULL);
    order_item items[200];
    for (int i = 0; i < 200; ++i) {
        items[i].log = &log;
        items[i].value = i;
        assert_int_equal(aclrtLaunchHostFunc(s, record_order, &items[i]), ACL_SUCCESS);
    }
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_int_equal(log.next, 200);
    for (int i = 0; i < 200; ++i) {
        assert_int_equal(log.seen[i], i);
    }
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

static void query_and_synchronize_with_timeout(void **state)
{
    (void)state;
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
    assert_int_equal(aclrtStreamQuery(s, &st), ACL_SUCCESS);
    assert_int_equal(st, ACL_STREAM_STATUS_COMPLETE);
    assert_int_equal(aclrtStreamQuery(s, NULL), ACL_ERROR_INVALID_PARAM);
    test_gate g;
    test_gate_init(&g);
    assert_int_equal(aclrtLaunchHostFunc(s, test_gate_fn, &g), ACL_SUCCESS);
    test_gate_wait_entered(&g);
    assert_int_equal(aclrtStreamQuery(s, &st), ACL_SUCCESS);
    assert_int_equal(st, ACL_STREAM_STATUS_NOT_READY);
    assert_int_equal(aclrtSynchronizeStreamWithTimeout(s, -2), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtSynchronizeStreamWithTimeout(s, 0), ACL_ERROR_RT_PARAM_INVALID);
    uint64_t t0 = test_now_ms();
    assert_int_equal(aclrtSynchronizeStreamWithTimeout(s, 30), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    assert_true(test_now_ms() - t0 >= 25);
    test_gate_open(&g);
    assert_int_equal(aclrtSynchronizeStreamWithTimeout(s, -1), ACL_SUCCESS);
    assert_int_equal(aclrtStreamQuery(s, &st), ACL_SUCCESS);
    assert_int_equal(st, ACL_STREAM_STATUS_COMPLETE);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

typedef struct slow_arg {
    test_gate *gate;
    int *counter;
} slow_arg;

static void gated_inc(void *p)
{
    slow_arg *a = p;
    test_gate_fn(a->gate);
    test_counter_inc(a->counter);
}

static void *open_gate_later(void *p)
{
    test_sleep_ms(30);
    test_gate_open(p);
    return NULL;
}

static void destroy_waits_for_pending_work(void **state)
{
    (void)state;
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    test_gate g;
    test_gate_init(&g);
    int counter = 0;
    slow_arg a = {&g, &counter};
    assert_int_equal(aclrtLaunchHostFunc(s, gated_inc, &a), ACL_SUCCESS);
    for (int i = 0; i < 20; ++i) {
        assert_int_equal(aclrtLaunchHostFunc(s, test_counter_inc, &counter), ACL_SUCCESS);
    }
    pthread_t th;
    pthread_create(&th, NULL, open_gate_later, &g);
    /* Like CANN's aclrtDestroyStream, the pending tasks finish before the stream goes. */
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(test_counter_get(&counter), 21);
    pthread_join(th, NULL);
    assert_int_equal(aclrtDestroyStream(s), ACL_ERROR_RT_INVALID_HANDLE);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_ERROR_RT_INVALID_HANDLE);
}

static void destroy_force_drops_pending_work(void **state)
{
    (void)state;
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    test_gate g;
    test_gate_init(&g);
    int counter = 0;
    slow_arg a = {&g, &counter};
    assert_int_equal(aclrtLaunchHostFunc(s, gated_inc, &a), ACL_SUCCESS);
    for (int i = 0; i < 20; ++i) {
        assert_int_equal(aclrtLaunchHostFunc(s, test_counter_inc, &counter), ACL_SUCCESS);
    }
    test_gate_wait_entered(&g);
    pthread_t th;
    pthread_create(&th, NULL, open_gate_later, &g);
    assert_int_equal(aclrtDestroyStreamForce(s), ACL_SUCCESS);
    /* Only the task that was running finished. */
    assert_int_equal(test_counter_get(&counter), 1);
    pthread_join(th, NULL);
    assert_int_equal(aclrtDestroyStreamForce(s), ACL_ERROR_RT_INVALID_HANDLE);
    assert_int_equal(aclrtDestroyStreamForce(NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM);
}

static void abort_drops_queued_tasks_and_keeps_the_stream(void **state)
{
    (void)state;
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    test_gate g;
    test_gate_init(&g);
    int counter = 0;
    slow_arg a = {&g, &counter};
    assert_int_equal(aclrtLaunchHostFunc(s, gated_inc, &a), ACL_SUCCESS);
    for (int i = 0; i < 5; ++i) {
        assert_int_equal(aclrtLaunchHostFunc(s, test_counter_inc, &counter), ACL_SUCCESS);
    }
    test_gate_wait_entered(&g);
    pthread_t th;
    pthread_create(&th, NULL, open_gate_later, &g);
    assert_int_equal(aclrtStreamAbort(s), ACL_SUCCESS);
    pthread_join(th, NULL);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_int_equal(test_counter_get(&counter), 1);
    assert_int_equal(aclrtLaunchHostFunc(s, test_counter_inc, &counter), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_int_equal(test_counter_get(&counter), 2);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

static void invalid_stream_handles(void **state)
{
    (void)state;
    int junk[16] = {0};
    aclrtStreamStatus st;
    assert_int_equal(aclrtSynchronizeStream(junk), ACL_ERROR_RT_INVALID_HANDLE);
    assert_int_equal(aclrtStreamQuery(junk, &st), ACL_ERROR_RT_INVALID_HANDLE);
    assert_int_equal(aclrtDestroyStream(junk), ACL_ERROR_RT_INVALID_HANDLE);
    int counter = 0;
    assert_int_equal(aclrtLaunchHostFunc(junk, test_counter_inc, &counter), ACL_ERROR_RT_INVALID_HANDLE);
    assert_int_equal(aclrtLaunchHostFunc(NULL, NULL, &counter), ACL_ERROR_RT_PARAM_INVALID);
    /* Without a current context even the default stream is unavailable. */
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_ERROR_RT_CONTEXT_NULL);
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL);
}

static void failure_mode_and_attributes(void **state)
{
    (void)state;
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    aclrtStreamAttrValue v;
    memset(&v, 0, sizeof(v));
    assert_int_equal(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_SUCCESS);
    assert_int_equal(v.failureMode, ACL_CONTINUE_ON_FAILURE);
    assert_int_equal(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
    assert_int_equal(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_SUCCESS);
    assert_int_equal(v.failureMode, ACL_STOP_ON_FAILURE);
    /* CANN refuses to go back from stop to continue. */
    assert_int_equal(aclrtSetStreamFailureMode(s, ACL_CONTINUE_ON_FAILURE), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    v.streamPriority = 4;
    assert_int_equal(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v), ACL_SUCCESS);
    uint32_t p = 0;
    assert_int_equal(aclrtStreamGetPriority(s, &p), ACL_SUCCESS);
    assert_int_equal(p, 4);
    v.userCustomTag = 77;
    assert_int_equal(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v), ACL_SUCCESS);
    memset(&v, 0, sizeof(v));
    assert_int_equal(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v), ACL_SUCCESS);
    assert_int_equal(v.userCustomTag, 77);
    v.overflowSwitch = 2;
    assert_int_equal(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtSetStreamAttribute(s, (aclrtStreamAttr)99, &v), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtGetStreamAttribute(s, (aclrtStreamAttr)0, &v), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, NULL), ACL_ERROR_INVALID_PARAM);
    uint32_t sw = 9;
    assert_int_equal(aclrtSetStreamOverflowSwitch(s, 1), ACL_SUCCESS);
    assert_int_equal(aclrtGetStreamOverflowSwitch(s, &sw), ACL_SUCCESS);
    assert_int_equal(sw, 1);
    assert_int_equal(aclrtSetStreamOverflowSwitch(s, 2), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

/* ---- threads hammering streams ------------------------------------------------------------ */

enum { HAMMER_THREADS = 8, HAMMER_ROUNDS = 40, HAMMER_TASKS = 25 };

typedef struct hammer_arg {
    aclrtContext ctx;
    aclError err;
    int counter;
    int *shared_counter;
    aclrtStream shared;
} hammer_arg;

static void *hammer(void *p)
{
    hammer_arg *a = p;
    a->err = aclrtSetCurrentContext(a->ctx);
    aclrtStream s = NULL;
    if (a->err == ACL_SUCCESS) {
        a->err = aclrtCreateStream(&s);
    }
    void *dev = NULL, *host = NULL;
    if (a->err == ACL_SUCCESS) {
        a->err = aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
    }
    if (a->err == ACL_SUCCESS) {
        a->err = aclrtMallocHost(&host, 4096);
    }
    for (int r = 0; a->err == ACL_SUCCESS && r < HAMMER_ROUNDS; ++r) {
        for (int t = 0; a->err == ACL_SUCCESS && t < HAMMER_TASKS; ++t) {
            a->err = aclrtLaunchHostFunc(s, test_counter_inc, &a->counter);
            if (a->err == ACL_SUCCESS) {
                a->err = aclrtMemcpyAsync(dev, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE, s);
            }
            if (a->err == ACL_SUCCESS) {
                a->err = aclrtLaunchHostFunc(a->shared, test_counter_inc, a->shared_counter);
            }
        }
        if (a->err == ACL_SUCCESS) {
            a->err = aclrtSynchronizeStream(s);
        }
        if (a->err == ACL_SUCCESS && r % 8 == 0) {
            a->err = aclrtSynchronizeStream(a->shared);
        }
    }
    if (dev != NULL) {
        (void)aclrtFree(dev);
    }
    if (host != NULL) {
        (void)aclrtFreeHost(host);
    }
    if (s != NULL) {
        (void)aclrtDestroyStream(s);
    }
    return NULL;
}

static void eight_threads_hammer_streams(void **state)
{
    (void)state;
    aclrtContext ctx = NULL;
    assert_int_equal(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
    aclrtStream shared = NULL;
    assert_int_equal(aclrtCreateStream(&shared), ACL_SUCCESS);
    int shared_counter = 0;
    hammer_arg args[HAMMER_THREADS];
    pthread_t th[HAMMER_THREADS];
    for (int i = 0; i < HAMMER_THREADS; ++i) {
        memset(&args[i], 0, sizeof(args[i]));
        args[i].ctx = ctx;
        args[i].shared = shared;
        args[i].shared_counter = &shared_counter;
        pthread_create(&th[i], NULL, hammer, &args[i]);
    }
    for (int i = 0; i < HAMMER_THREADS; ++i) {
        pthread_join(th[i], NULL);
        assert_int_equal(args[i].err, ACL_SUCCESS);
        assert_int_equal(args[i].counter, HAMMER_ROUNDS * HAMMER_TASKS);
    }
    assert_int_equal(aclrtSynchronizeStream(shared), ACL_SUCCESS);
    assert_int_equal(test_counter_get(&shared_counter), HAMMER_THREADS * HAMMER_ROUNDS * HAMMER_TASKS);
    assert_int_equal(aclrtDestroyStream(shared), ACL_SUCCESS);
}

/* Streams destroyed by one thread while others submit: no crash, only clean error codes. */
typedef struct race_arg {
    aclrtContext ctx;
    aclrtStream s;
    int bad_codes;
    int counter;
} race_arg;

static void *submit_until_gone(void *p)
{
    race_arg *a = p;
    (void)aclrtSetCurrentContext(a->ctx);
    for (int i = 0; i < 100000; ++i) {
        aclError e = aclrtLaunchHostFunc(a->s, test_counter_inc, &a->counter);
        if (e == ACL_ERROR_RT_INVALID_HANDLE) {
            break;
        }
        if (e != ACL_SUCCESS) {
            a->bad_codes++;
            break;
        }
    }
    return NULL;
}

static void destroy_while_other_threads_submit(void **state)
{
    (void)state;
    aclrtContext ctx = NULL;
    assert_int_equal(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
    for (int round = 0; round < 10; ++round) {
        race_arg a;
        memset(&a, 0, sizeof(a));
        a.ctx = ctx;
        assert_int_equal(aclrtCreateStream(&a.s), ACL_SUCCESS);
        pthread_t th[3];
        for (int i = 0; i < 3; ++i) {
            pthread_create(&th[i], NULL, submit_until_gone, &a);
        }
        test_sleep_ms(2);
        aclError e = (round % 2) ? aclrtDestroyStreamForce(a.s) : aclrtDestroyStream(a.s);
        assert_int_equal(e, ACL_SUCCESS);
        for (int i = 0; i < 3; ++i) {
            pthread_join(th[i], NULL);
        }
        assert_int_equal(a.bad_codes, 0);
    }
}

static void state_cb(aclrtStream s, aclrtStreamState st, void *args)
{
    (void)s;
    int *log = args;
    log[st] += 1;
}

static void stream_state_callbacks(void **state)
{
    (void)state;
    int log[4] = {0, 0, 0, 0};
    assert_int_equal(aclrtRegStreamStateCallback("t", state_cb, log), ACL_SUCCESS);
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtRegStreamStateCallback("t", NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(log[ACL_RT_STREAM_STATE_CREATE_POST], 1);
    assert_int_equal(log[ACL_RT_STREAM_STATE_DESTROY_PRE], 1);
    assert_int_equal(aclrtRegStreamStateCallback(NULL, state_cb, log), ACL_ERROR_INVALID_PARAM);
}

static void last_task_id_of_the_thread(void **state)
{
    (void)state;
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    int counter = 0;
    uint32_t a = 0, b = 0;
    assert_int_equal(aclrtLaunchHostFunc(s, test_counter_inc, &counter), ACL_SUCCESS);
    assert_int_equal(aclrtGetThreadLastTaskId(&a), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(s, test_counter_inc, &counter), ACL_SUCCESS);
    assert_int_equal(aclrtGetThreadLastTaskId(&b), ACL_SUCCESS);
    assert_int_equal(b, a + 1);
    assert_int_equal(aclrtGetThreadLastTaskId(NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

typedef struct self_arg {
    aclrtContext ctx;
    aclrtStream s;
    aclError sync_result;
    aclError destroy_result;
} self_arg;

static void destroy_own_stream(void *p)
{
    self_arg *a = p;
    (void)aclrtSetCurrentContext(a->ctx);
    a->sync_result = aclrtSynchronizeStream(a->s);
    a->destroy_result = aclrtDestroyStream(a->s);
}

static void tasks_may_destroy_their_own_stream(void **state)
{
    (void)state;
    self_arg a;
    memset(&a, 0, sizeof(a));
    assert_int_equal(aclrtGetCurrentContext(&a.ctx), ACL_SUCCESS);
    assert_int_equal(aclrtCreateStream(&a.s), ACL_SUCCESS);
    int counter = 0;
    /* The gate keeps the destroying task from running before everything is queued. */
    test_gate g;
    test_gate_init(&g);
    assert_int_equal(aclrtLaunchHostFunc(a.s, test_gate_fn, &g), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(a.s, destroy_own_stream, &a), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(a.s, test_counter_inc, &counter), ACL_SUCCESS);
    test_gate_open(&g);
    for (int i = 0; i < 200 && test_counter_get(&counter) == 0; ++i) {
        test_sleep_ms(5);
    }
    /* A task cannot wait for its own stream, but it may destroy it; queued work still runs. */
    assert_int_equal(a.sync_result, ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(a.destroy_result, ACL_SUCCESS);
    assert_int_equal(test_counter_get(&counter), 1);
    assert_int_equal(aclrtSynchronizeStream(a.s), ACL_ERROR_RT_INVALID_HANDLE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(create_variants, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(config_handle_and_v2, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(tasks_run_in_fifo_order, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(query_and_synchronize_with_timeout, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(destroy_waits_for_pending_work, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(destroy_force_drops_pending_work, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(abort_drops_queued_tasks_and_keeps_the_stream, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(invalid_stream_handles, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(failure_mode_and_attributes, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(eight_threads_hammer_streams, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(destroy_while_other_threads_submit, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(stream_state_callbacks, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(last_task_id_of_the_thread, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(tasks_may_destroy_their_own_stream, test_device0_setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* acl_rt/: report callbacks, host functions, exception info and last error through the public API. */
#define _GNU_SOURCE
#include "rt_test_util.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* A report-processing thread, as applications write it. */
typedef struct processor {
    pthread_t th;
    volatile int stop;
    int host_func; /* 1: aclrtProcessHostFunc instead of aclrtProcessReport */
    int timeouts;
    int other_errors;
} processor;

static void *process_loop(void *p)
{
    processor *pr = p;
    while (!__atomic_load_n(&pr->stop, __ATOMIC_ACQUIRE)) {
        aclError e = pr->host_func ? aclrtProcessHostFunc(20) : aclrtProcessReport(20);
        if (e == ACL_ERROR_RT_REPORT_TIMEOUT) {
            pr->timeouts++;
        } else if (e != ACL_SUCCESS && e != ACL_ERROR_RT_THREAD_SUBSCRIBE) {
            pr->other_errors++;
        }
    }
    return NULL;
}

static void start_processor(processor *pr, int host_func)
{
    memset(pr, 0, sizeof(*pr));
    pr->host_func = host_func;
    pthread_create(&pr->th, NULL, process_loop, pr);
}

static void stop_processor(processor *pr)
{
    __atomic_store_n(&pr->stop, 1, __ATOMIC_RELEASE);
    pthread_join(pr->th, NULL);
}

typedef struct cb_data {
    pthread_t ran_on;
    int count;
    int flag_seen;
    int *flag;
    test_gate *gate;
} cb_data;

static void note_thread(void *p)
{
    cb_data *d = p;
    d->ran_on = pthread_self();
    d->count++;
}

static void slow_set_flag(void *p)
{
    cb_data *d = p;
    test_sleep_ms(20);
    __atomic_store_n(d->flag, 1, __ATOMIC_SEQ_CST);
}

static void read_flag(void *p)
{
    cb_data *d = p;
    d->flag_seen = __atomic_load_n(d->flag, __ATOMIC_SEQ_CST);
}

static void callbacks_run_on_the_subscribed_thread(void **state)
{
    (void)state;
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    processor pr;
    start_processor(&pr, 0);
    assert_int_equal(aclrtSubscribeReport((uint64_t)pr.th, s), ACL_SUCCESS);
    cb_data d;
    memset(&d, 0, sizeof(d));
    for (int i = 0; i < 10; ++i) {
        assert_int_equal(aclrtLaunchCallback(note_thread, &d, ACL_CALLBACK_BLOCK, s), ACL_SUCCESS);
    }
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_int_equal(d.count, 10);
    assert_true(pthread_equal(d.ran_on, pr.th));

    /* BLOCK holds the stream until the callback returned. */
    int flag = 0;
    cb_data blk = {.flag = &flag};
    assert_int_equal(aclrtLaunchCallback(slow_set_flag, &blk, ACL_CALLBACK_BLOCK, s), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(s, read_flag, &blk), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_int_equal(blk.flag_seen, 1);

    /* NO_BLOCK: the stream goes on while the callback waits. */
    test_gate g;
    test_gate_init(&g);
    assert_int_equal(aclrtLaunchCallback(test_gate_fn, &g, ACL_CALLBACK_NO_BLOCK, s), ACL_SUCCESS);
    int counter = 0;
    assert_int_equal(aclrtLaunchHostFunc(s, test_counter_inc, &counter), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStreamWithTimeout(s, 5000), ACL_SUCCESS);
    assert_int_equal(test_counter_get(&counter), 1);
    test_gate_open(&g);

    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtUnSubscribeReport((uint64_t)pr.th, s), ACL_SUCCESS);
    stop_processor(&pr);
    assert_int_equal(pr.other_errors, 0);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

static void subscription_errors(void **state)
{
    (void)state;
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    cb_data d;
    memset(&d, 0, sizeof(d));
    assert_int_equal(aclrtLaunchCallback(note_thread, &d, ACL_CALLBACK_BLOCK, s), ACL_ERROR_RT_STREAM_NO_CB_REG);
    test_expect_msg("aclrtSubscribeReport");
    assert_int_equal(aclrtLaunchCallback(note_thread, &d, (aclrtCallbackBlockType)2, s), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtLaunchCallback(NULL, &d, ACL_CALLBACK_BLOCK, s), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtProcessReport(100), ACL_ERROR_RT_THREAD_SUBSCRIBE);
    assert_int_equal(aclrtProcessReport(0), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtProcessReport(-2), ACL_ERROR_INVALID_PARAM);
    uint64_t me = (uint64_t)pthread_self();
    assert_int_equal(aclrtUnSubscribeReport(me, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
    assert_int_equal(aclrtSubscribeReport(me, s), ACL_SUCCESS);
    assert_int_equal(aclrtSubscribeReport(me, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
    assert_int_equal(aclrtSubscribeReport(me + 1, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
    assert_int_equal(aclrtUnSubscribeReport(me + 1, s), ACL_ERROR_RT_THREAD_SUBSCRIBE);
    /* Subscribed but idle: a timeout. */
    uint64_t t0 = test_now_ms();
    assert_int_equal(aclrtProcessReport(30), ACL_ERROR_RT_REPORT_TIMEOUT);
    assert_true(test_now_ms() - t0 >= 25);
    /* Processing on this very thread. */
    assert_int_equal(aclrtLaunchCallback(note_thread, &d, ACL_CALLBACK_NO_BLOCK, s), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtProcessReport(1000), ACL_SUCCESS);
    assert_int_equal(d.count, 1);
    int junk[4];
    assert_int_equal(aclrtSubscribeReport(me, junk), ACL_ERROR_RT_INVALID_HANDLE);
    assert_int_equal(aclrtUnSubscribeReport(me, s), ACL_SUCCESS);
    assert_int_equal(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
    /* The default stream can be subscribed too (NULL stream). */
    assert_int_equal(aclrtSubscribeReport(me, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtUnSubscribeReport(me, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

static int g_exc_calls;
static uint32_t g_exc_code, g_exc_stream, g_exc_device, g_exc_task;

static void on_exception(aclrtExceptionInfo *info)
{
    g_exc_calls++;
    g_exc_code = aclrtGetErrorCodeFromExceptionInfo(info);
    g_exc_stream = aclrtGetStreamIdFromExceptionInfo(info);
    g_exc_device = aclrtGetDeviceIdFromExceptionInfo(info);
    g_exc_task = aclrtGetTaskIdFromExceptionInfo(info);
}

static void asynchronous_errors_surface_at_synchronize(void **state)
{
    (void)state;
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    int32_t sid = -1;
    assert_int_equal(aclrtStreamGetId(s, &sid), ACL_SUCCESS);
    assert_int_equal(aclrtExceptionInfoCallbackRegister(NULL), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtExceptionInfoCallbackUnregister(NULL), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtExceptionInfoCallbackRegister(on_exception), ACL_SUCCESS);
    uint64_t me = (uint64_t)pthread_self();
    assert_int_equal(aclrtSubscribeReport(me, s), ACL_SUCCESS);
    test_gate g;
    test_gate_init(&g);
    cb_data d;
    memset(&d, 0, sizeof(d));
    int counter = 0;
    assert_int_equal(aclrtLaunchHostFunc(s, test_gate_fn, &g), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchCallback(note_thread, &d, ACL_CALLBACK_BLOCK, s), ACL_SUCCESS);
    uint32_t cb_task = 0;
    assert_int_equal(aclrtGetThreadLastTaskId(&cb_task), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(s, test_counter_inc, &counter), ACL_SUCCESS);
    /* Unsubscribed before the callback task runs: that task fails on the stream. */
    assert_int_equal(aclrtUnSubscribeReport(me, s), ACL_SUCCESS);
    g_exc_calls = 0;
    test_gate_open(&g);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_NO_CB_REG);
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_STREAM_NO_CB_REG);
    assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_STREAM_NO_CB_REG);
    assert_int_equal(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    assert_int_equal(aclrtGetLastError((aclrtLastErrLevel)1), ACL_ERROR_INVALID_PARAM);
    /* The stream went on (continue-on-failure), the callbacks saw the failure. */
    assert_int_equal(counter, 1);
    assert_int_equal(d.count, 0);
    assert_int_equal(g_exc_calls, 1);
    assert_int_equal(g_exc_code, ACL_ERROR_RT_STREAM_NO_CB_REG);
    assert_int_equal(g_exc_stream, (uint32_t)sid);
    assert_int_equal(g_exc_device, 0);
    assert_int_equal(g_exc_task, cb_task);
    /* Reported once. */
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);

    /* Stop-on-failure skips what follows the failed task until the error is reported. */
    assert_int_equal(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
    assert_int_equal(aclrtSubscribeReport(me, s), ACL_SUCCESS);
    test_gate_init(&g);
    assert_int_equal(aclrtLaunchHostFunc(s, test_gate_fn, &g), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchCallback(note_thread, &d, ACL_CALLBACK_BLOCK, s), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(s, test_counter_inc, &counter), ACL_SUCCESS);
    assert_int_equal(aclrtUnSubscribeReport(me, s), ACL_SUCCESS);
    test_gate_open(&g);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_NO_CB_REG);
    assert_int_equal(counter, 1);
    assert_int_equal(aclrtLaunchHostFunc(s, test_counter_inc, &counter), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_int_equal(counter, 2);

    assert_int_equal(aclrtExceptionInfoCallbackUnregister(on_exception), ACL_SUCCESS);
    assert_int_equal(aclrtSetExceptionInfoCallback(on_exception), ACL_SUCCESS);
    assert_int_equal(aclrtSetExceptionInfoCallback(NULL), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

static void exception_getters_reject_null(void **state)
{
    (void)state;
    assert_int_equal(aclrtGetTaskIdFromExceptionInfo(NULL), 0xFFFFFFFFu);
    assert_int_equal(aclrtGetStreamIdFromExceptionInfo(NULL), 0xFFFFFFFFu);
    assert_int_equal(aclrtGetThreadIdFromExceptionInfo(NULL), 0xFFFFFFFFu);
    assert_int_equal(aclrtGetDeviceIdFromExceptionInfo(NULL), 0xFFFFFFFFu);
    assert_int_equal(aclrtGetErrorCodeFromExceptionInfo(NULL), 0xFFFFFFFFu);
}

static void host_functions(void **state)
{
    (void)state;
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    cb_data d;
    memset(&d, 0, sizeof(d));
    /* Without a subscriber the runtime runs host functions itself, in stream order. */
    assert_int_equal(aclrtLaunchHostFunc(s, note_thread, &d), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_int_equal(d.count, 1);
    assert_false(pthread_equal(d.ran_on, pthread_self()));
    /* With aclrtSubscribeHostFunc they run on the subscribed thread. */
    processor pr;
    start_processor(&pr, 1);
    assert_int_equal(aclrtSubscribeHostFunc((uint64_t)pr.th, s), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(s, note_thread, &d), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_int_equal(d.count, 2);
    assert_true(pthread_equal(d.ran_on, pr.th));
    assert_int_equal(aclrtUnSubscribeHostFunc((uint64_t)pr.th, s), ACL_SUCCESS);
    stop_processor(&pr);
    assert_int_equal(aclrtProcessHostFunc(0), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtProcessHostFunc(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

static void destroying_a_subscribed_stream_unsubscribes_it(void **state)
{
    (void)state;
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    processor pr;
    start_processor(&pr, 0);
    assert_int_equal(aclrtSubscribeReport((uint64_t)pr.th, s), ACL_SUCCESS);
    cb_data d;
    memset(&d, 0, sizeof(d));
    assert_int_equal(aclrtLaunchCallback(note_thread, &d, ACL_CALLBACK_BLOCK, s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(d.count, 1);
    stop_processor(&pr);
    assert_int_equal(pr.other_errors, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(callbacks_run_on_the_subscribed_thread, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(subscription_errors, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(asynchronous_errors_surface_at_synchronize, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(exception_getters_reject_null, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(host_functions, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(destroying_a_subscribed_stream_unsubscribes_it, test_device0_setup, test_device0_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* acl_rt/: events through the public API: flags, record/query/sync, timing, cross-stream waits. */
#define _GNU_SOURCE
#include "rt_test_util.h"

/* aclrtQueryEvent is deprecated but still exported and used by apps: test it. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static void creation_flags(void **state)
{
    (void)state;
    aclrtEvent e = NULL;
    assert_int_equal(aclrtCreateEvent(NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtCreateEventWithFlag(NULL, ACL_EVENT_SYNC), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtCreateEventWithFlag(&e, 0), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtCreateEventWithFlag(&e, 0x40), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtCreateEventWithFlag(&e, ACL_EVENT_DEVICE_USE_ONLY | ACL_EVENT_SYNC),
                     ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtCreateEventWithFlag(&e, ACL_EVENT_EXTERNAL | ACL_EVENT_TIME_LINE),
                     ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtCreateEventExWithFlag(&e, 0), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtCreateEventExWithFlag(&e, ACL_EVENT_EXTERNAL), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC), ACL_SUCCESS); /* test_rt_ipc tests them */
    assert_int_equal(aclrtDestroyEvent(e), ACL_SUCCESS);
    assert_int_equal(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC | ACL_EVENT_SYNC), ACL_ERROR_RT_PARAM_INVALID);

    aclrtEvent a = NULL, b = NULL, c = NULL;
    assert_int_equal(aclrtCreateEvent(&a), ACL_SUCCESS);
    assert_int_equal(aclrtCreateEventWithFlag(&b, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE), ACL_SUCCESS);
    assert_int_equal(aclrtCreateEventExWithFlag(&c, ACL_EVENT_SYNC), ACL_SUCCESS);
    uint32_t ia = 0, ib = 0, avail = 0;
    assert_int_equal(aclrtGetEventId(a, &ia), ACL_SUCCESS);
    assert_int_equal(aclrtGetEventId(b, &ib), ACL_SUCCESS);
    assert_true(ia != ib);
    assert_int_equal(aclrtGetEventId(a, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtGetEventAvailNum(&avail), ACL_SUCCESS);
    assert_true(avail > 0);
    assert_int_equal(aclrtDestroyEvent(a), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(b), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(c), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(c), ACL_ERROR_RT_INVALID_HANDLE);
    assert_int_equal(aclrtDestroyEvent(NULL), ACL_ERROR_INVALID_PARAM);
}

static void unrecorded_events(void **state)
{
    (void)state;
    aclrtEvent classic = NULL, ex = NULL;
    assert_int_equal(aclrtCreateEvent(&classic), ACL_SUCCESS);
    assert_int_equal(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC), ACL_SUCCESS);
    aclrtEventStatus st = ACL_EVENT_STATUS_RESERVED;
    aclrtEventRecordedStatus rs = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    assert_int_equal(aclrtQueryEvent(classic, &st), ACL_SUCCESS);
    assert_int_equal(st, ACL_EVENT_STATUS_COMPLETE);
    /* Inverted numbering: a never-recorded classic event is NOT_READY (0) here. */
    assert_int_equal(aclrtQueryEventStatus(classic, &rs), ACL_SUCCESS);
    assert_int_equal(rs, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    assert_int_equal((int)ACL_EVENT_RECORDED_STATUS_NOT_READY, 0);
    assert_int_equal(aclrtQueryEventStatus(ex, &rs), ACL_SUCCESS);
    assert_int_equal(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    assert_int_equal(aclrtQueryEvent(ex, &st), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    assert_int_equal(aclrtSynchronizeEvent(classic), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeEventWithTimeout(ex, 10), ACL_SUCCESS);
    float ms = 0;
    assert_int_equal(aclrtEventElapsedTime(&ms, classic, classic), ACL_ERROR_RT_INTERNAL_ERROR);
    uint64_t ts = 0;
    assert_int_equal(aclrtEventGetTimestamp(classic, &ts), ACL_ERROR_RT_INTERNAL_ERROR);
    assert_int_equal(aclrtDestroyEvent(classic), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(ex), ACL_SUCCESS);
}

static void record_query_synchronize(void **state)
{
    (void)state;
    aclrtStream s = NULL;
    aclrtEvent e = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    assert_int_equal(aclrtCreateEvent(&e), ACL_SUCCESS);
    test_gate g;
    test_gate_init(&g);
    assert_int_equal(aclrtLaunchHostFunc(s, test_gate_fn, &g), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(e, s), ACL_SUCCESS);
    aclrtEventStatus st;
    aclrtEventRecordedStatus rs;
    assert_int_equal(aclrtQueryEvent(e, &st), ACL_SUCCESS);
    assert_int_equal(st, ACL_EVENT_STATUS_NOT_READY);
    assert_int_equal(aclrtQueryEventStatus(e, &rs), ACL_SUCCESS);
    assert_int_equal(rs, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    assert_int_equal(aclrtSynchronizeEventWithTimeout(e, -2), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtSynchronizeEventWithTimeout(NULL, 5), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtSynchronizeEventWithTimeout(NULL, -5), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtSynchronizeEventWithTimeout(e, 0), ACL_ERROR_RT_PARAM_INVALID);
    uint64_t t0 = test_now_ms();
    assert_int_equal(aclrtSynchronizeEventWithTimeout(e, 30), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
    assert_true(test_now_ms() - t0 >= 25);
    float ms;
    aclrtEvent done = NULL;
    assert_int_equal(aclrtCreateEvent(&done), ACL_SUCCESS);
    assert_int_equal(aclrtEventElapsedTime(&ms, e, e), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
    test_gate_open(&g);
    assert_int_equal(aclrtSynchronizeEvent(e), ACL_SUCCESS);
    assert_int_equal(aclrtQueryEvent(e, &st), ACL_SUCCESS);
    assert_int_equal(st, ACL_EVENT_STATUS_COMPLETE);
    assert_int_equal(aclrtQueryEventStatus(e, &rs), ACL_SUCCESS);
    assert_int_equal(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    /* Reset makes the event "not recorded" again once the stream reaches it. */
    assert_int_equal(aclrtResetEvent(e, s), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtQueryEventStatus(e, &rs), ACL_SUCCESS);
    assert_int_equal(rs, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    assert_int_equal(aclrtQueryEvent(NULL, &st), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtQueryEventStatus(e, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtRecordEvent(NULL, s), ACL_ERROR_INVALID_PARAM);
    int junk[8];
    assert_int_equal(aclrtRecordEvent(junk, s), ACL_ERROR_RT_INVALID_HANDLE);
    assert_int_equal(aclrtRecordEvent(e, junk), ACL_ERROR_RT_INVALID_HANDLE);
    assert_int_equal(aclrtDestroyEvent(done), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(e), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

static void sleep_20ms(void *p)
{
    (void)p;
    test_sleep_ms(20);
}

static void elapsed_time_and_timestamps(void **state)
{
    (void)state;
    aclrtStream s = NULL;
    aclrtEvent a = NULL, b = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    assert_int_equal(aclrtCreateEvent(&a), ACL_SUCCESS);
    assert_int_equal(aclrtCreateEvent(&b), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(a, s), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(s, sleep_20ms, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(b, s), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeEvent(b), ACL_SUCCESS);
    float ms = 0;
    assert_int_equal(aclrtEventElapsedTime(&ms, a, b), ACL_SUCCESS);
    assert_true(ms >= 15.0f && ms < 5000.0f);
    assert_int_equal(aclrtEventElapsedTime(NULL, a, b), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtEventElapsedTime(&ms, NULL, b), ACL_ERROR_INVALID_PARAM);
    uint64_t ta = 0, tb = 0;
    assert_int_equal(aclrtEventGetTimestamp(a, &ta), ACL_SUCCESS);
    assert_int_equal(aclrtEventGetTimestamp(b, &tb), ACL_SUCCESS);
    /* Microseconds. */
    assert_true(tb >= ta + 15000);
    assert_int_equal(aclrtEventGetTimestamp(a, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtDestroyEvent(a), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(b), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

typedef struct flag_check {
    int *flag;
    int seen;
} flag_check;

static void set_flag(void *p)
{
    __atomic_store_n((int *)p, 1, __ATOMIC_SEQ_CST);
}

static void read_flag(void *p)
{
    flag_check *c = p;
    c->seen = __atomic_load_n(c->flag, __ATOMIC_SEQ_CST);
}

static void wait_orders_work_across_streams(void **state)
{
    (void)state;
    aclrtStream a = NULL, b = NULL;
    aclrtEvent e = NULL;
    assert_int_equal(aclrtCreateStream(&a), ACL_SUCCESS);
    assert_int_equal(aclrtCreateStream(&b), ACL_SUCCESS);
    assert_int_equal(aclrtCreateEvent(&e), ACL_SUCCESS);
    for (int round = 0; round < 20; ++round) {
        int flag = 0;
        flag_check chk = {&flag, -1};
        assert_int_equal(aclrtLaunchHostFunc(a, sleep_20ms, NULL), ACL_SUCCESS);
        assert_int_equal(aclrtLaunchHostFunc(a, set_flag, &flag), ACL_SUCCESS);
        assert_int_equal(aclrtRecordEvent(e, a), ACL_SUCCESS);
        assert_int_equal(aclrtStreamWaitEvent(b, e), ACL_SUCCESS);
        assert_int_equal(aclrtLaunchHostFunc(b, read_flag, &chk), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(b), ACL_SUCCESS);
        assert_int_equal(chk.seen, 1);
        assert_int_equal(aclrtSynchronizeStream(a), ACL_SUCCESS);
        if (round == 1) {
            break; /* two rounds with a sleep are enough; the loop below stresses without sleeping */
        }
    }
    for (int round = 0; round < 200; ++round) {
        int flag = 0;
        flag_check chk = {&flag, -1};
        assert_int_equal(aclrtLaunchHostFunc(a, set_flag, &flag), ACL_SUCCESS);
        assert_int_equal(aclrtRecordEvent(e, a), ACL_SUCCESS);
        assert_int_equal(aclrtStreamWaitEvent(b, e), ACL_SUCCESS);
        assert_int_equal(aclrtLaunchHostFunc(b, read_flag, &chk), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(b), ACL_SUCCESS);
        assert_int_equal(chk.seen, 1);
    }
    assert_int_equal(aclrtStreamWaitEvent(b, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtDestroyEvent(e), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(a), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(b), ACL_SUCCESS);
}

static void wait_captures_the_record_current_at_call_time(void **state)
{
    (void)state;
    aclrtStream a = NULL, b = NULL;
    aclrtEvent e = NULL;
    assert_int_equal(aclrtCreateStream(&a), ACL_SUCCESS);
    assert_int_equal(aclrtCreateStream(&b), ACL_SUCCESS);
    assert_int_equal(aclrtCreateEvent(&e), ACL_SUCCESS);
    int counter = 0;
    /* A wait on a never-recorded event does not block. */
    assert_int_equal(aclrtStreamWaitEvent(b, e), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(b, test_counter_inc, &counter), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStreamWithTimeout(b, 2000), ACL_SUCCESS);
    assert_int_equal(counter, 1);

    test_gate g1, g2;
    test_gate_init(&g1);
    test_gate_init(&g2);
    assert_int_equal(aclrtLaunchHostFunc(a, test_gate_fn, &g1), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(e, a), ACL_SUCCESS);
    assert_int_equal(aclrtStreamWaitEvent(b, e), ACL_SUCCESS); /* captures the first record */
    assert_int_equal(aclrtLaunchHostFunc(b, test_counter_inc, &counter), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(a, test_gate_fn, &g2), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(e, a), ACL_SUCCESS);
    aclrtEventWaitStatus ws = ACL_EVENT_WAIT_STATUS_RESERVED;
    assert_int_equal(aclrtQueryEventWaitStatus(e, &ws), ACL_SUCCESS);
    assert_int_equal(ws, ACL_EVENT_WAIT_STATUS_NOT_READY);
    assert_int_equal(aclrtSynchronizeStreamWithTimeout(b, 30), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    test_gate_open(&g1);
    /* b only needed the first record: it finishes while a is still blocked on g2. */
    assert_int_equal(aclrtSynchronizeStreamWithTimeout(b, 5000), ACL_SUCCESS);
    assert_int_equal(counter, 2);
    assert_int_equal(aclrtQueryEventWaitStatus(e, &ws), ACL_SUCCESS);
    assert_int_equal(ws, ACL_EVENT_WAIT_STATUS_COMPLETE);
    aclrtEventStatus st;
    assert_int_equal(aclrtQueryEvent(e, &st), ACL_SUCCESS);
    assert_int_equal(st, ACL_EVENT_STATUS_NOT_READY);
    test_gate_open(&g2);
    assert_int_equal(aclrtSynchronizeStream(a), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(e), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(a), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(b), ACL_SUCCESS);
}

static void wait_with_timeout_fails_the_waiting_stream(void **state)
{
    (void)state;
    aclrtStream a = NULL, b = NULL;
    aclrtEvent e = NULL;
    assert_int_equal(aclrtCreateStream(&a), ACL_SUCCESS);
    assert_int_equal(aclrtCreateStream(&b), ACL_SUCCESS);
    assert_int_equal(aclrtCreateEvent(&e), ACL_SUCCESS);
    test_gate g;
    test_gate_init(&g);
    assert_int_equal(aclrtLaunchHostFunc(a, test_gate_fn, &g), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(e, a), ACL_SUCCESS);
    assert_int_equal(aclrtStreamWaitEventWithTimeout(b, e, -1), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtStreamWaitEventWithTimeout(b, NULL, 10), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtStreamWaitEventWithTimeout(b, e, 20), ACL_SUCCESS);
    /* The asynchronous failure surfaces at the next synchronisation. */
    assert_int_equal(aclrtSynchronizeStream(b), ACL_ERROR_RT_WAIT_TIMEOUT);
    assert_int_equal(aclrtSynchronizeStream(b), ACL_SUCCESS);
    test_gate_open(&g);
    assert_int_equal(aclrtSynchronizeStream(a), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(e), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(a), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(b), ACL_SUCCESS);
}

static void record_and_wait_flags(void **state)
{
    (void)state;
    aclrtStream s = NULL;
    aclrtEvent classic = NULL, ex = NULL, dev_only = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    assert_int_equal(aclrtCreateEvent(&classic), ACL_SUCCESS);
    assert_int_equal(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC), ACL_SUCCESS);
    assert_int_equal(aclrtCreateEventWithFlag(&dev_only, ACL_EVENT_DEVICE_USE_ONLY), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEventWithFlag(classic, s, 7), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtRecordEventWithFlag(classic, s, ACL_EVENT_RECORD_EXTERNAL),
                     ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    assert_int_equal(aclrtRecordEventWithFlag(ex, s, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    assert_int_equal(aclrtRecordEventWithFlag(ex, s, ACL_EVENT_RECORD_DEFAULT), ACL_SUCCESS);
    assert_int_equal(aclrtStreamWaitEventWithFlag(s, ex, 5, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtStreamWaitEventWithFlag(s, ex, 0, 3), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtStreamWaitEventWithFlag(s, ex, 0, ACL_EVENT_WAIT_DEFAULT), ACL_SUCCESS);
    assert_int_equal(aclrtResetEvent(ex, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    aclrtEventWaitStatus ws;
    assert_int_equal(aclrtQueryEventWaitStatus(ex, &ws), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    assert_int_equal(aclrtRecordEvent(dev_only, s), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtStreamWaitEvent(s, dev_only), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(classic), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(ex), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(dev_only), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

static void destroy_event_with_pending_record_and_wait(void **state)
{
    (void)state;
    aclrtStream a = NULL, b = NULL;
    aclrtEvent e = NULL;
    assert_int_equal(aclrtCreateStream(&a), ACL_SUCCESS);
    assert_int_equal(aclrtCreateStream(&b), ACL_SUCCESS);
    assert_int_equal(aclrtCreateEvent(&e), ACL_SUCCESS);
    test_gate g;
    test_gate_init(&g);
    int counter = 0;
    assert_int_equal(aclrtLaunchHostFunc(a, test_gate_fn, &g), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(e, a), ACL_SUCCESS);
    assert_int_equal(aclrtStreamWaitEvent(b, e), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(b, test_counter_inc, &counter), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(e), ACL_SUCCESS);
    assert_int_equal(aclrtQueryEvent(e, &(aclrtEventStatus){0}), ACL_ERROR_RT_INVALID_HANDLE);
    /* The wait still orders b after a's record. */
    assert_int_equal(aclrtSynchronizeStreamWithTimeout(b, 30), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    assert_int_equal(counter, 0);
    test_gate_open(&g);
    assert_int_equal(aclrtSynchronizeStream(b), ACL_SUCCESS);
    assert_int_equal(counter, 1);
    assert_int_equal(aclrtDestroyStream(a), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(b), ACL_SUCCESS);
}

static void force_destroying_the_recording_stream_releases_waiters(void **state)
{
    (void)state;
    aclrtStream a = NULL, b = NULL;
    aclrtEvent e = NULL;
    assert_int_equal(aclrtCreateStream(&a), ACL_SUCCESS);
    assert_int_equal(aclrtCreateStream(&b), ACL_SUCCESS);
    assert_int_equal(aclrtCreateEvent(&e), ACL_SUCCESS);
    test_gate g;
    test_gate_init(&g);
    assert_int_equal(aclrtLaunchHostFunc(a, test_gate_fn, &g), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(e, a), ACL_SUCCESS);
    assert_int_equal(aclrtStreamWaitEvent(b, e), ACL_SUCCESS);
    test_gate_wait_entered(&g);
    test_gate_open(&g);
    assert_int_equal(aclrtDestroyStreamForce(a), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStreamWithTimeout(b, 5000), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeEventWithTimeout(e, 5000), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(e), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(b), ACL_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(creation_flags, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(unrecorded_events, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(record_query_synchronize, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(elapsed_time_and_timestamps, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(wait_orders_work_across_streams, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(wait_captures_the_record_current_at_call_time, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(wait_with_timeout_fails_the_waiting_stream, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(record_and_wait_flags, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(destroy_event_with_pending_record_and_wait, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(force_destroying_the_recording_stream_releases_waiters, test_device0_setup, test_device0_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

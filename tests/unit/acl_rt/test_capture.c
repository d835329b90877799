/*
 * acl_rt/: stream capture rules through the public API: argument checks of
 * every aclmdlRICapture* call, the capture-mode matrix (CANN's
 * capture_mode_api_01..07), operations refused on capturing streams and
 * captured events, cross-stream capture, end-of-capture checks and
 * invalidation.
 */
#define _GNU_SOURCE
#include "rt_test_util.h"

static aclmdlRICaptureStatus status_of(aclrtStream s)
{
    aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    assert_int_equal(aclmdlRICaptureGetInfo(s, &st, NULL), ACL_SUCCESS);
    return st;
}

static void noop(void *arg)
{
    (void)arg;
}

/* ---- argument checks ------------------------------------------------------------------------ */

static void get_info_inputs(void **state)
{
    (void)state;
    aclrtStream s = test_new_stream();
    aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
    aclmdlRI m = (aclmdlRI)0x1;
    assert_int_equal(aclmdlRICaptureGetInfo(NULL, &st, &m), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclmdlRICaptureGetInfo(s, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    test_expect_msg("cannot both be null");
    assert_int_equal(aclmdlRICaptureGetInfo(s, &st, &m), ACL_SUCCESS);
    assert_int_equal(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    assert_null(m);
    m = (aclmdlRI)0x1;
    assert_int_equal(aclmdlRICaptureGetInfo(s, NULL, &m), ACL_SUCCESS);
    assert_null(m);
    assert_int_equal(aclmdlRICaptureGetInfo((aclrtStream)0x1234, &st, NULL), ACL_ERROR_RT_INVALID_HANDLE);

    /* ACTIVE during the capture, with the instance the end returns. */
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    aclmdlRI during = NULL;
    assert_int_equal(aclmdlRICaptureGetInfo(s, &st, &during), ACL_SUCCESS);
    assert_int_equal(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    assert_non_null(during);
    aclmdlRI out = NULL;
    assert_int_equal(aclmdlRICaptureEnd(s, &out), ACL_SUCCESS);
    assert_ptr_equal(out, during);
    assert_int_equal(status_of(s), ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    assert_int_equal(aclmdlRIDestroy(out), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

static void begin_end_inputs(void **state)
{
    (void)state;
    aclrtStream s = test_new_stream();
    aclrtStream dflt = NULL;
    assert_int_equal(aclrtCtxGetCurrentDefaultStream(&dflt), ACL_SUCCESS);
    aclmdlRI m = NULL;

    assert_int_equal(aclmdlRICaptureBegin(NULL, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclmdlRICaptureBegin(s, (aclmdlRICaptureMode)3), ACL_ERROR_RT_PARAM_INVALID);
    test_expect_msg("capture mode");
    assert_int_equal(aclmdlRICaptureBegin(dflt, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    test_expect_msg("default stream");
    assert_int_equal(aclmdlRICaptureBegin((aclrtStream)0x77, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
                     ACL_ERROR_RT_INVALID_HANDLE);
    aclrtStream devonly = NULL;
    assert_int_equal(aclrtCreateStreamWithConfig(&devonly, 0, ACL_STREAM_DEVICE_USE_ONLY), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureBegin(devonly, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_INTERNAL_ERROR);
    assert_int_equal(aclrtDestroyStream(devonly), ACL_SUCCESS);

    assert_int_equal(aclmdlRICaptureEnd(NULL, &m), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    test_expect_msg("not in capture status");
    assert_null(m);
    assert_int_equal(aclmdlRICaptureEnd(dflt, &m), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);

    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_STREAM_CAPTURED);
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_ERROR_RT_STREAM_CAPTURED);
    /* A root instance must be returned somewhere. */
    assert_int_equal(aclmdlRICaptureEnd(s, NULL), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(status_of(s), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    /* The capturing instance cannot run or go away. */
    aclmdlRI during = NULL;
    assert_int_equal(aclmdlRICaptureGetInfo(s, NULL, &during), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(during), ACL_ERROR_RT_MODEL_CAPTURED);
    aclrtStream other = test_new_stream();
    assert_int_equal(aclmdlRIExecuteAsync(during, other), ACL_ERROR_RT_MODEL_CAPTURED);
    /* A capturing stream cannot execute an instance either. */
    assert_int_equal(aclmdlRIExecuteAsync(during, s), ACL_ERROR_RT_STREAM_CAPTURED);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    assert_non_null(m);
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(m), ACL_ERROR_RT_INVALID_HANDLE);
    assert_int_equal(aclmdlRIDestroy(NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtDestroyStream(other), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

static void exchange_mode_inputs(void **state)
{
    (void)state;
    assert_int_equal(aclmdlRICaptureThreadExchangeMode(NULL), ACL_ERROR_INVALID_PARAM);
    aclmdlRICaptureMode mode = (aclmdlRICaptureMode)3;
    assert_int_equal(aclmdlRICaptureThreadExchangeMode(&mode), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal((int)mode, 3);
}

/* ---- the capture-mode matrix ----------------------------------------------------------------------- */

static void capture_mode_api_01(void **state)
{
    (void)state;
    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
    assert_int_equal(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
    assert_int_equal(mode, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
    mode = ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL;
    assert_int_equal(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
    assert_int_equal(mode, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
    mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    assert_int_equal(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
    assert_int_equal(mode, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL);
    mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
    assert_int_equal(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
    assert_int_equal(mode, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
}

static void *g_dev60;

static aclError sync_memset(void)
{
    return aclrtMemset(g_dev60, 60, 0, 60);
}

static int matrix_setup(void **state)
{
    if (test_device0_setup(state) != 0) {
        return -1;
    }
    return aclrtMalloc(&g_dev60, 60, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS ? 0 : -1;
}

static int matrix_teardown(void **state)
{
    (void)aclrtFree(g_dev60);
    g_dev60 = NULL;
    return test_device0_teardown(state);
}

static void capture_mode_api_02(void **state)
{
    (void)state;
    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
    assert_int_equal(sync_memset(), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
    assert_int_equal(sync_memset(), ACL_SUCCESS);
    mode = ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL;
    assert_int_equal(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
    assert_int_equal(sync_memset(), ACL_SUCCESS);
    mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    assert_int_equal(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
    assert_int_equal(sync_memset(), ACL_SUCCESS);
    mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
    assert_int_equal(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
    assert_int_equal(mode, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
    assert_int_equal(sync_memset(), ACL_SUCCESS);
}

static void capture_mode_api_03(void **state)
{
    (void)state;
    aclrtStream s = test_new_stream();
    aclmdlRI m1 = NULL, m2 = NULL, m3 = NULL;
    assert_int_equal(sync_memset(), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(sync_memset(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    test_expect_msg("RELAXED");
    assert_int_equal(aclmdlRICaptureEnd(s, &m1), ACL_SUCCESS);
    assert_int_equal(sync_memset(), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
    assert_int_equal(sync_memset(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    assert_int_equal(aclmdlRICaptureEnd(s, &m2), ACL_SUCCESS);
    assert_int_equal(sync_memset(), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    assert_int_equal(sync_memset(), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(s, &m3), ACL_SUCCESS);
    assert_int_equal(sync_memset(), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(m1), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(m2), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(m3), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

static void capture_mode_api_04(void **state)
{
    (void)state;
    aclrtStream s1 = test_new_stream(), s2 = test_new_stream(), s3 = test_new_stream();
    aclmdlRI m1 = NULL, m2 = NULL, m3 = NULL;
    assert_int_equal(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureBegin(s2, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureBegin(s3, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    assert_int_equal(sync_memset(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    assert_int_equal(aclmdlRICaptureEnd(s1, &m1), ACL_SUCCESS);
    assert_int_equal(sync_memset(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    assert_int_equal(aclmdlRICaptureEnd(s2, &m2), ACL_SUCCESS);
    assert_int_equal(sync_memset(), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(s3, &m3), ACL_SUCCESS);
    assert_int_equal(sync_memset(), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(m1), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(m2), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(m3), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s1), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s2), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s3), ACL_SUCCESS);
}

static void capture_mode_api_05(void **state)
{
    (void)state;
    aclrtStream s1 = test_new_stream(), s2 = test_new_stream(), s3 = test_new_stream();
    aclmdlRI m1 = NULL, m2 = NULL, m3 = NULL;
    assert_int_equal(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureBegin(s2, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureBegin(s3, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(sync_memset(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    assert_int_equal(aclmdlRICaptureEnd(s1, &m1), ACL_SUCCESS);
    assert_int_equal(sync_memset(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    assert_int_equal(aclmdlRICaptureEnd(s2, &m2), ACL_SUCCESS);
    assert_int_equal(sync_memset(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    assert_int_equal(aclmdlRICaptureEnd(s3, &m3), ACL_SUCCESS);
    assert_int_equal(sync_memset(), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(m1), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(m2), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(m3), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s1), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s2), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s3), ACL_SUCCESS);
}

static void capture_mode_api_06(void **state)
{
    (void)state;
    aclrtStream s = test_new_stream();
    aclmdlRI m = NULL;
    aclmdlRICaptureMode mode;
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(sync_memset(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    mode = ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL;
    assert_int_equal(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
    assert_int_equal(mode, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
    assert_int_equal(sync_memset(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    assert_int_equal(sync_memset(), ACL_SUCCESS);
    mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
    assert_int_equal(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
    assert_int_equal(mode, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL);
    assert_int_equal(sync_memset(), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

static void capture_mode_api_07(void **state)
{
    (void)state;
    aclrtStream s = test_new_stream();
    aclmdlRI m = NULL;
    aclmdlRICaptureMode mode;
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    assert_int_equal(sync_memset(), ACL_SUCCESS);
    mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    assert_int_equal(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
    assert_int_equal(mode, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
    assert_int_equal(sync_memset(), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    assert_int_equal(sync_memset(), ACL_SUCCESS);
    mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
    assert_int_equal(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
    assert_int_equal(mode, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
    assert_int_equal(sync_memset(), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

/* Synchronous copies of another thread of the same context, per mode. */
typedef struct other_thread {
    aclrtContext ctx;
    aclError memset_ret;
    aclError memcpy_ret;
    aclError copy2d_ret;
    aclError exchanged_ret; /* memset after switching to RELAXED */
} other_thread;

static void *other_main(void *arg)
{
    other_thread *o = arg;
    if (aclrtSetCurrentContext(o->ctx) != ACL_SUCCESS) {
        return NULL;
    }
    char host[60];
    o->memset_ret = sync_memset();
    o->memcpy_ret = aclrtMemcpy(g_dev60, 60, host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE);
    o->copy2d_ret = aclrtMemcpy2d(g_dev60, 30, host, 30, 30, 2, ACL_MEMCPY_HOST_TO_DEVICE);
    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    (void)aclmdlRICaptureThreadExchangeMode(&mode);
    o->exchanged_ret = sync_memset();
    return NULL;
}

static other_thread run_other(void)
{
    other_thread o = {0};
    assert_int_equal(aclrtGetCurrentContext(&o.ctx), ACL_SUCCESS);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, other_main, &o), 0);
    pthread_join(t, NULL);
    return o;
}

static void modes_across_threads(void **state)
{
    (void)state;
    aclrtStream s = test_new_stream();
    aclmdlRI m = NULL;
    /* GLOBAL: every thread of the context is blocked unless it switches to RELAXED. */
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    other_thread o = run_other();
    assert_int_equal(o.memset_ret, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    assert_int_equal(o.memcpy_ret, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    assert_int_equal(o.copy2d_ret, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    assert_int_equal(o.exchanged_ret, ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    /* THREAD_LOCAL: only the capturing thread is blocked. */
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
    o = run_other();
    assert_int_equal(o.memset_ret, ACL_SUCCESS);
    assert_int_equal(o.memcpy_ret, ACL_SUCCESS);
    assert_int_equal(o.copy2d_ret, ACL_SUCCESS);
    char host[60] = {0};
    assert_int_equal(aclrtMemcpy(g_dev60, 60, host, 60, ACL_MEMCPY_HOST_TO_DEVICE),
                     ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

static void pageable_copies(void **state)
{
    (void)state;
    aclrtStream s = test_new_stream();
    aclrtStream other = test_new_stream();
    aclmdlRI m = NULL;
    char host[60] = {0};
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    /* A copy with pageable host memory is synchronous: never captured ... */
    assert_int_equal(aclrtMemcpyAsync(g_dev60, 60, host, 60, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_RT_PARAM_INVALID);
    test_expect_msg("pageable");
    /* ... and blocked elsewhere like a synchronous copy, with its own code. */
    assert_int_equal(aclrtMemcpyAsync(g_dev60, 60, host, 60, ACL_MEMCPY_HOST_TO_DEVICE, other),
                     ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
    assert_int_equal(status_of(s), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE); /* a refused call does not invalidate */
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpyAsync(g_dev60, 60, host, 60, ACL_MEMCPY_HOST_TO_DEVICE, other), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(other), ACL_SUCCESS);
}

/* ---- refused while capturing ------------------------------------------------------------------------- */

static void forbidden_while_capturing(void **state)
{
    (void)state;
    aclrtStream s = test_new_stream();
    aclrtStream other = test_new_stream();
    aclrtEvent e = NULL, classic = NULL, outside = NULL;
    assert_int_equal(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC), ACL_SUCCESS);
    assert_int_equal(aclrtCreateEventExWithFlag(&outside, ACL_EVENT_SYNC), ACL_SUCCESS);
    assert_int_equal(aclrtCreateEvent(&classic), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(outside, other), ACL_SUCCESS);
    aclrtStream dflt = NULL;
    assert_int_equal(aclrtCtxGetCurrentDefaultStream(&dflt), ACL_SUCCESS);

    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_CAPTURED);
    assert_int_equal(aclrtSynchronizeStreamWithTimeout(s, 10), ACL_ERROR_RT_STREAM_CAPTURED);
    aclrtStreamStatus ss;
    assert_int_equal(aclrtStreamQuery(s, &ss), ACL_ERROR_RT_STREAM_CAPTURED);
    assert_int_equal(aclrtDestroyStream(s), ACL_ERROR_RT_STREAM_CAPTURED);
    assert_int_equal(aclrtDestroyStreamForce(s), ACL_ERROR_RT_STREAM_CAPTURED);
    assert_int_equal(aclrtSynchronizeDevice(), ACL_ERROR_RT_STREAM_CAPTURED);
    /* Other streams synchronise normally. */
    assert_int_equal(aclrtSynchronizeStream(other), ACL_SUCCESS);

    /* Events: classic ones cannot enter a capture; an event recorded in it cannot be synchronised. */
    assert_int_equal(aclrtRecordEvent(classic, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    assert_int_equal(aclrtStreamWaitEvent(s, classic), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    assert_int_equal(aclrtStreamWaitEvent(s, outside), ACL_ERROR_RT_CAPTURE_DEPENDENCY);
    assert_int_equal(aclrtRecordEvent(e, s), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeEvent(e), ACL_ERROR_RT_EVENT_CAPTURED);
    assert_int_equal(aclrtSynchronizeEventWithTimeout(e, 10), ACL_ERROR_RT_EVENT_CAPTURED);
    aclrtEventRecordedStatus rs;
    assert_int_equal(aclrtQueryEventStatus(e, &rs), ACL_ERROR_RT_EVENT_CAPTURED);
    uint64_t ts;
    assert_int_equal(aclrtEventGetTimestamp(e, &ts), ACL_ERROR_RT_EVENT_CAPTURED);
    assert_int_equal(aclrtStreamWaitEvent(dflt, e), ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT);
    assert_int_equal(aclrtResetEvent(e, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    /* A record inside the capture leaves the event's real state alone. */
    assert_int_equal(status_of(s), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);

    aclmdlRI m = NULL;
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeEvent(e), ACL_SUCCESS);
    assert_int_equal(aclrtQueryEventStatus(e, &rs), ACL_SUCCESS);
    assert_int_equal(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE); /* never really recorded: an Ex event is complete */
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeDevice(), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(e), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(classic), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(outside), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(other), ACL_SUCCESS);
}

static void external_flags_outside_capture(void **state)
{
    (void)state;
    aclrtStream s = test_new_stream();
    aclrtEvent ex = NULL;
    assert_int_equal(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEventWithFlag(ex, s, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    assert_int_equal(aclrtStreamWaitEventWithFlag(s, ex, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    /* Once per graph, and never both directions. */
    aclmdlRI m = NULL;
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEventWithFlag(ex, s, ACL_EVENT_RECORD_EXTERNAL), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEventWithFlag(ex, s, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtStreamWaitEventWithFlag(s, ex, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(ex), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

/* ---- end of capture ------------------------------------------------------------------------------------ */

typedef struct ender {
    aclrtContext ctx;
    aclrtStream s;
    aclError ret;
    aclmdlRI m;
} ender;

static void *end_main(void *arg)
{
    ender *e = arg;
    if (aclrtSetCurrentContext(e->ctx) == ACL_SUCCESS) {
        e->ret = aclmdlRICaptureEnd(e->s, &e->m);
    }
    return NULL;
}

static ender end_elsewhere(aclrtStream s)
{
    ender e = {.s = s, .ret = -1};
    assert_int_equal(aclrtGetCurrentContext(&e.ctx), ACL_SUCCESS);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, end_main, &e), 0);
    pthread_join(t, NULL);
    return e;
}

static void end_from_another_thread(void **state)
{
    (void)state;
    aclrtStream s = test_new_stream();
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(s, noop, NULL), ACL_SUCCESS);
    ender e = end_elsewhere(s);
    assert_int_equal(e.ret, ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD);
    assert_null(e.m);
    /* The capture is gone and the mode counts with it. */
    assert_int_equal(status_of(s), ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    assert_int_equal(sync_memset(), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);

    /* THREAD_LOCAL captures are bound to their thread too; RELAXED ones are not. */
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
    e = end_elsewhere(s);
    assert_int_equal(e.ret, ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD);
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    e = end_elsewhere(s);
    assert_int_equal(e.ret, ACL_SUCCESS);
    assert_non_null(e.m);
    assert_int_equal(aclmdlRIDestroy(e.m), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

static void end_on_side_and_unjoined(void **state)
{
    (void)state;
    aclrtStream s = test_new_stream(), side = test_new_stream();
    aclrtEvent fork = NULL, join = NULL;
    assert_int_equal(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC), ACL_SUCCESS);
    assert_int_equal(aclrtCreateEventExWithFlag(&join, ACL_EVENT_SYNC), ACL_SUCCESS);
    aclmdlRI m = NULL;

    /* Side stream never joined back. */
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(fork, s), ACL_SUCCESS);
    assert_int_equal(aclrtStreamWaitEvent(side, fork), ACL_SUCCESS);
    assert_int_equal(status_of(side), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    aclmdlRI ms = NULL, mside = NULL;
    assert_int_equal(aclmdlRICaptureGetInfo(s, NULL, &ms), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureGetInfo(side, NULL, &mside), ACL_SUCCESS);
    assert_ptr_equal(ms, mside);
    assert_int_equal(aclrtLaunchHostFunc(side, noop, NULL), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(side, &m), ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED);
    assert_int_equal(status_of(s), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_ERROR_RT_STREAM_UNJOINED);
    test_expect_msg("not an event record");
    assert_null(m);
    assert_int_equal(status_of(s), ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    assert_int_equal(status_of(side), ACL_MODEL_RI_CAPTURE_STATUS_NONE);

    /* Side stream records, but nobody waits for it. */
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(fork, s), ACL_SUCCESS);
    assert_int_equal(aclrtStreamWaitEvent(side, fork), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(join, side), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_ERROR_RT_STREAM_UNJOINED);
    test_expect_msg("no matching event wait");

    /* Joined back properly. */
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(fork, s), ACL_SUCCESS);
    assert_int_equal(aclrtStreamWaitEvent(side, fork), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(side, noop, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(join, side), ACL_SUCCESS);
    assert_int_equal(aclrtStreamWaitEvent(s, join), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    assert_int_equal(status_of(side), ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    uint32_t n = 0;
    assert_int_equal(aclmdlRIGetStreams(m, NULL, &n), ACL_SUCCESS);
    assert_int_equal(n, 2);
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);

    assert_int_equal(aclrtDestroyEvent(fork), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(join), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(side), ACL_SUCCESS);
}

static void invalidation(void **state)
{
    (void)state;
    aclrtStream a = test_new_stream(), b = test_new_stream();
    aclrtEvent e = NULL;
    assert_int_equal(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureBegin(a, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureBegin(b, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(e, a), ACL_SUCCESS);
    /* An event of one capture waited for in another: both captures are invalidated. */
    assert_int_equal(aclrtStreamWaitEvent(b, e), ACL_ERROR_STREAM_CAPTURE_CONFLICT);
    assert_int_equal(status_of(a), ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
    assert_int_equal(status_of(b), ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
    /* Work submitted to an invalidated capture is accepted and dropped at the end. */
    assert_int_equal(aclrtLaunchHostFunc(a, noop, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(a), ACL_ERROR_RT_STREAM_CAPTURED);
    aclmdlRI m = (aclmdlRI)0x1;
    assert_int_equal(aclmdlRICaptureEnd(a, &m), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
    assert_null(m);
    assert_int_equal(aclmdlRICaptureEnd(b, &m), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
    assert_int_equal(status_of(a), ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    assert_int_equal(status_of(b), ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    /* Both streams work again, and so does the event. */
    assert_int_equal(aclrtSynchronizeStream(a), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(e, a), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeEvent(e), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureBegin(a, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(a, &m), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(e), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(a), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(b), ACL_SUCCESS);
}

static void context_teardown_ends_captures(void **state)
{
    (void)state;
    aclrtContext ctx = NULL;
    assert_int_equal(aclrtCreateContext(&ctx, 0), ACL_SUCCESS);
    aclrtStream s = test_new_stream();
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(s, noop, NULL), ACL_SUCCESS);
    aclmdlRI m = NULL;
    assert_int_equal(aclmdlRICaptureGetInfo(s, NULL, &m), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyContext(ctx), ACL_SUCCESS);
    /* The mode counts went with the capture. */
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    assert_int_equal(sync_memset(), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(m), ACL_ERROR_RT_INVALID_HANDLE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(get_info_inputs, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(begin_end_inputs, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(exchange_mode_inputs, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(capture_mode_api_01, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(capture_mode_api_02, matrix_setup, matrix_teardown),
        cmocka_unit_test_setup_teardown(capture_mode_api_03, matrix_setup, matrix_teardown),
        cmocka_unit_test_setup_teardown(capture_mode_api_04, matrix_setup, matrix_teardown),
        cmocka_unit_test_setup_teardown(capture_mode_api_05, matrix_setup, matrix_teardown),
        cmocka_unit_test_setup_teardown(capture_mode_api_06, matrix_setup, matrix_teardown),
        cmocka_unit_test_setup_teardown(capture_mode_api_07, matrix_setup, matrix_teardown),
        cmocka_unit_test_setup_teardown(modes_across_threads, matrix_setup, matrix_teardown),
        cmocka_unit_test_setup_teardown(pageable_copies, matrix_setup, matrix_teardown),
        cmocka_unit_test_setup_teardown(forbidden_while_capturing, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(external_flags_outside_capture, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(end_from_another_thread, matrix_setup, matrix_teardown),
        cmocka_unit_test_setup_teardown(end_on_side_and_unjoined, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(invalidation, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(context_teardown_ends_captures, matrix_setup, matrix_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

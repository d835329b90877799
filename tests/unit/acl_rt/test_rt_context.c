/* acl_rt/: contexts and the thread's current context through the public API. */
#define _GNU_SOURCE
#include "rt_test_util.h"

static int reset_all(void **state)
{
    (void)state;
    (void)aclrtResetDeviceForce(0);
    (void)aclrtResetDeviceForce(1);
    return 0;
}

static void create_makes_the_context_current(void **state)
{
    (void)state;
    aclrtContext ctx = NULL, cur = NULL;
    assert_int_equal(aclrtCreateContext(NULL, 0), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtCreateContext(&ctx, 1), ACL_SUCCESS);
    assert_non_null(ctx);
    assert_int_equal(aclrtGetCurrentContext(&cur), ACL_SUCCESS);
    assert_ptr_equal(cur, ctx);
    int32_t dev = -1;
    assert_int_equal(aclrtGetDevice(&dev), ACL_SUCCESS);
    assert_int_equal(dev, 1);
    /* An explicit context works without aclrtSetDevice. */
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyContext(ctx), ACL_SUCCESS);
    assert_int_equal(aclrtGetCurrentContext(&cur), ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL);
}

static void set_device_switches_to_the_default_context(void **state)
{
    (void)state;
    aclrtContext ctx = NULL, def = NULL, cur = NULL;
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtGetCurrentContext(&def), ACL_SUCCESS);
    assert_int_equal(aclrtCreateContext(&ctx, 0), ACL_SUCCESS);
    assert_ptr_not_equal(ctx, def);
    assert_int_equal(aclrtGetCurrentContext(&cur), ACL_SUCCESS);
    assert_ptr_equal(cur, ctx);
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtGetCurrentContext(&cur), ACL_SUCCESS);
    assert_ptr_equal(cur, def);
    assert_int_equal(aclrtSetCurrentContext(ctx), ACL_SUCCESS);
    assert_int_equal(aclrtGetCurrentContext(&cur), ACL_SUCCESS);
    assert_ptr_equal(cur, ctx);
    assert_int_equal(aclrtSetCurrentContext(def), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyContext(ctx), ACL_SUCCESS);
    assert_int_equal(aclrtGetCurrentContext(&cur), ACL_SUCCESS);
    assert_ptr_equal(cur, def);
}

static void bad_context_handles(void **state)
{
    (void)state;
    aclrtContext def = NULL;
    assert_int_equal(aclrtDestroyContext(NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtSetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtGetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM);
    int junk = 0;
    assert_int_equal(aclrtSetCurrentContext(&junk), ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(aclrtDestroyContext(&junk), ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(aclrtSetDevice(1), ACL_SUCCESS);
    assert_int_equal(aclrtGetCurrentContext(&def), ACL_SUCCESS);
    /* The default context belongs to aclrtSetDevice/aclrtResetDevice. */
    assert_int_equal(aclrtDestroyContext(def), ACL_ERROR_RT_CONTEXT_NULL);
    test_expect_msg("cannot be destroyed explicitly");
    aclrtContext ctx = NULL;
    assert_int_equal(aclrtCreateContext(&ctx, 1), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyContext(ctx), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyContext(ctx), ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(aclrtSetCurrentContext(ctx), ACL_ERROR_RT_CONTEXT_NULL);
}

static void destroying_a_context_destroys_its_streams_and_events(void **state)
{
    (void)state;
    aclrtContext ctx = NULL;
    assert_int_equal(aclrtCreateContext(&ctx, 0), ACL_SUCCESS);
    aclrtStream s = NULL;
    aclrtEvent e = NULL;
    int counter = 0;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    assert_int_equal(aclrtCreateEvent(&e), ACL_SUCCESS);
    for (int i = 0; i < 10; ++i) {
        assert_int_equal(aclrtLaunchHostFunc(s, test_counter_inc, &counter), ACL_SUCCESS);
    }
    assert_int_equal(aclrtRecordEvent(e, s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyContext(ctx), ACL_SUCCESS);
    /* Pending work ran before the stream went away. */
    assert_int_equal(test_counter_get(&counter), 10);
    assert_int_equal(aclrtDestroyStream(s), ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(aclrtDestroyEvent(e), ACL_ERROR_RT_INVALID_HANDLE);
}

static void default_stream_of_current_context(void **state)
{
    (void)state;
    aclrtStream s = NULL, s2 = NULL;
    assert_int_equal(aclrtCtxGetCurrentDefaultStream(&s), ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(aclrtCtxGetCurrentDefaultStream(NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtCtxGetCurrentDefaultStream(&s), ACL_SUCCESS);
    assert_non_null(s);
    assert_int_equal(aclrtCtxGetCurrentDefaultStream(&s2), ACL_SUCCESS);
    assert_ptr_equal(s, s2);
    int counter = 0;
    assert_int_equal(aclrtLaunchHostFunc(s, test_counter_inc, &counter), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(NULL, test_counter_inc, &counter), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_int_equal(test_counter_get(&counter), 2);
    /* The default stream cannot be destroyed by the application. */
    assert_int_equal(aclrtDestroyStream(s), ACL_ERROR_RT_PARAM_INVALID);
}

typedef struct thread_arg {
    aclrtContext ctx;
    int32_t device_seen;
    aclError get_without_ctx;
    aclError result;
    int counter;
} thread_arg;

static void *worker_thread(void *p)
{
    thread_arg *a = p;
    int32_t dev = -1;
    /* A new thread has no current context until it sets one. */
    a->get_without_ctx = aclrtGetDevice(&dev);
    a->result = aclrtSetCurrentContext(a->ctx);
    if (a->result == ACL_SUCCESS) {
        a->result = aclrtGetDevice(&a->device_seen);
    }
    aclrtStream s = NULL;
    if (a->result == ACL_SUCCESS) {
        a->result = aclrtCreateStream(&s);
    }
    for (int i = 0; a->result == ACL_SUCCESS && i < 50; ++i) {
        a->result = aclrtLaunchHostFunc(s, test_counter_inc, &a->counter);
    }
    if (a->result == ACL_SUCCESS) {
        a->result = aclrtSynchronizeStream(s);
    }
    if (s != NULL) {
        (void)aclrtDestroyStream(s);
    }
    return NULL;
}

static void threads_use_their_own_current_context(void **state)
{
    (void)state;
    aclrtContext c0 = NULL, c1 = NULL;
    assert_int_equal(aclrtCreateContext(&c0, 0), ACL_SUCCESS);
    assert_int_equal(aclrtCreateContext(&c1, 1), ACL_SUCCESS);
    thread_arg args[4];
    pthread_t th[4];
    for (int i = 0; i < 4; ++i) {
        memset(&args[i], 0, sizeof(args[i]));
        args[i].ctx = (i % 2) ? c1 : c0;
        args[i].device_seen = -1;
        pthread_create(&th[i], NULL, worker_thread, &args[i]);
    }
    for (int i = 0; i < 4; ++i) {
        pthread_join(th[i], NULL);
        assert_int_equal(args[i].get_without_ctx, ACL_ERROR_RT_CONTEXT_NULL);
        assert_int_equal(args[i].result, ACL_SUCCESS);
        assert_int_equal(args[i].device_seen, i % 2);
        assert_int_equal(args[i].counter, 50);
    }
    /* This thread's current context is still c1 (the last created). */
    aclrtContext cur = NULL;
    assert_int_equal(aclrtGetCurrentContext(&cur), ACL_SUCCESS);
    assert_ptr_equal(cur, c1);
    assert_int_equal(aclrtDestroyContext(c0), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyContext(c1), ACL_SUCCESS);
}

static void stream_of_another_context_is_refused_for_async_work(void **state)
{
    (void)state;
    aclrtContext c0 = NULL, c1 = NULL;
    assert_int_equal(aclrtCreateContext(&c0, 0), ACL_SUCCESS);
    aclrtStream s0 = NULL;
    assert_int_equal(aclrtCreateStream(&s0), ACL_SUCCESS);
    assert_int_equal(aclrtCreateContext(&c1, 0), ACL_SUCCESS);
    int counter = 0;
    assert_int_equal(aclrtLaunchHostFunc(s0, test_counter_inc, &counter), ACL_ERROR_RT_STREAM_CONTEXT);
    assert_int_equal(aclrtDestroyStream(s0), ACL_ERROR_RT_STREAM_CONTEXT);
    /* Synchronisation works across contexts, as in CANN. */
    assert_int_equal(aclrtSynchronizeStream(s0), ACL_SUCCESS);
    assert_int_equal(aclrtSetCurrentContext(c0), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s0), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyContext(c1), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyContext(c0), ACL_SUCCESS);
}

static void system_parameter_options(void **state)
{
    (void)state;
    int64_t v = 0;
    assert_int_equal(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_ERROR_RT_SYSPARAMOPT_NOT_SET);
    assert_int_equal(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1), ACL_SUCCESS);
    assert_int_equal(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_SUCCESS);
    assert_int_equal(v, 1);
    assert_int_equal(aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 1), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtGetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, &v), ACL_ERROR_RT_SYSPARAMOPT_NOT_SET);
    assert_int_equal(aclrtSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 5), ACL_SUCCESS);
    assert_int_equal(aclrtGetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, &v), ACL_SUCCESS);
    assert_int_equal(v, 5);
    assert_int_equal(aclrtSetSysParamOpt((aclSysParamOpt)4, 5), ACL_ERROR_INVALID_PARAM);
    /* A fresh default context has no context-level options. */
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_ERROR_RT_SYSPARAMOPT_NOT_SET);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(create_makes_the_context_current, reset_all),
        cmocka_unit_test_teardown(set_device_switches_to_the_default_context, reset_all),
        cmocka_unit_test_teardown(bad_context_handles, reset_all),
        cmocka_unit_test_teardown(destroying_a_context_destroys_its_streams_and_events, reset_all),
        cmocka_unit_test_teardown(default_stream_of_current_context, reset_all),
        cmocka_unit_test_teardown(threads_use_their_own_current_context, reset_all),
        cmocka_unit_test_teardown(stream_of_another_context_is_refused_for_async_work, reset_all),
        cmocka_unit_test_teardown(system_parameter_options, reset_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

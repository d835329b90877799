/*
 * acl_rt/ internals (static libraries): the task API other modules use
 * (oa_stream_submit and friends), the interceptor hook for capture, the
 * allocator getter and the lifecycle hooks of rt_lifecycle.h.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "rt_test_util.h"

#include "acl_rt/rt_lifecycle.h"
#include "acl_rt/rt_stream.h"
#include "mem/mem_table.h"

static int teardown(void **state)
{
    (void)state;
    (void)aclrtResetDeviceForce(0);
    (void)aclrtResetDeviceForce(1);
    return 0;
}

typedef struct big_args {
    int *sum;
    int values[100]; /* larger than the inline buffer */
} big_args;

static oa_status add_values(void *args, const oa_task_exec *exec)
{
    big_args *a = args;
    (void)exec;
    for (int i = 0; i < 100; ++i) {
        *a->sum += a->values[i];
    }
    return OA_OK;
}

typedef struct small_args {
    int *log;
    int value;
    int *released;
    oa_status result;
    int32_t *seen_stream;
    uint32_t *seen_task;
} small_args;

static oa_status note(void *args, const oa_task_exec *exec)
{
    small_args *a = args;
    *a->log = *a->log * 10 + a->value;
    if (a->seen_stream != NULL) {
        *a->seen_stream = exec->stream_id;
        *a->seen_task = exec->task_id;
    }
    return a->result;
}

static void count_release(void *args)
{
    small_args *a = args;
    (*a->released)++;
}

static void arguments_are_copied_at_submission(void **state)
{
    (void)state;
    oa_stream *s = NULL;
    assert_int_equal(oa_stream_acquire(NULL, &s), OA_OK);
    int sum = 0;
    big_args b;
    b.sum = &sum;
    for (int i = 0; i < 100; ++i) {
        b.values[i] = 1;
    }
    oa_task_desc d = {.kind = OA_TASK_KIND_GENERIC, .run = add_values, .args = &b, .args_size = sizeof(b)};
    assert_true(sizeof(b) > OA_TASK_INLINE_ARGS);
    assert_int_equal(oa_stream_submit(s, &d, NULL), OA_OK);
    for (int i = 0; i < 100; ++i) {
        b.values[i] = 1000; /* must not affect the queued copy */
    }
    assert_int_equal(oa_stream_synchronize(s, -1), OA_OK);
    assert_int_equal(sum, 100);

    int log = 0, released = 0;
    int32_t seen_stream = -1;
    uint32_t seen_task = 0, task_id = 0;
    small_args a = {&log, 1, &released, OA_OK, &seen_stream, &seen_task};
    oa_task_desc d2 = {.run = note, .release = count_release, .args = &a, .args_size = sizeof(a)};
    assert_int_equal(oa_stream_submit(s, &d2, &task_id), OA_OK);
    a.value = 2;
    assert_int_equal(oa_stream_submit(s, &d2, NULL), OA_OK);
    assert_int_equal(oa_stream_synchronize(s, 1000), OA_OK);
    assert_int_equal(log, 12);
    assert_int_equal(released, 2);
    assert_int_equal(seen_stream, oa_stream_get_id(s));
    assert_int_equal(seen_task, task_id + 1);
    assert_int_equal(oa_stream_device_id(s), 0);
    assert_ptr_equal(oa_stream_handle(s), (void *)s);
    oa_task_desc bad = {.run = NULL};
    assert_int_equal(oa_stream_submit(s, &bad, NULL), OA_E_PARAM);
    oa_task_desc bad2 = {.run = note, .args = NULL, .args_size = 4};
    assert_int_equal(oa_stream_submit(s, &bad2, NULL), OA_E_PARAM);
    oa_stream_release(s);
}

static void failing_tasks_and_stop_on_failure(void **state)
{
    (void)state;
    aclrtStream h = NULL;
    assert_int_equal(aclrtCreateStream(&h), ACL_SUCCESS);
    oa_stream *s = NULL;
    assert_int_equal(oa_stream_acquire(h, &s), OA_OK);
    int log = 0, released = 0;
    small_args ok = {&log, 1, &released, OA_OK, NULL, NULL};
    small_args fail = {&log, 2, &released, OA_E_RT_MODEL_EXECUTE, NULL, NULL};
    oa_task_desc d = {.run = note, .release = count_release, .args_size = sizeof(small_args)};
    d.args = &fail;
    assert_int_equal(oa_stream_submit(s, &d, NULL), OA_OK);
    d.args = &ok;
    assert_int_equal(oa_stream_submit(s, &d, NULL), OA_OK);
    assert_int_equal(oa_stream_synchronize(s, -1), OA_E_RT_MODEL_EXECUTE);
    assert_int_equal(log, 21);
    assert_int_equal(oa_stream_synchronize(s, -1), OA_OK);
    /* Public synchronisation reports the task's code. */
    d.args = &fail;
    assert_int_equal(oa_stream_submit(s, &d, NULL), OA_OK);
    assert_int_equal(aclrtSynchronizeStream(h), ACL_ERROR_RT_MODEL_EXECUTE);
    /* Stop on failure: later tasks are released without running until the error is reported. */
    assert_int_equal(aclrtSetStreamFailureMode(h, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
    log = 0;
    released = 0;
    d.args = &fail;
    assert_int_equal(oa_stream_submit(s, &d, NULL), OA_OK);
    d.args = &ok;
    assert_int_equal(oa_stream_submit(s, &d, NULL), OA_OK);
    assert_int_equal(oa_stream_submit(s, &d, NULL), OA_OK);
    assert_int_equal(oa_stream_synchronize(s, -1), OA_E_RT_MODEL_EXECUTE);
    assert_int_equal(log, 2);
    assert_int_equal(released, 3);
    assert_int_equal(oa_stream_submit(s, &d, NULL), OA_OK);
    assert_int_equal(oa_stream_synchronize(s, -1), OA_OK);
    assert_int_equal(log, 21);
    oa_stream_release(s);
    assert_int_equal(aclrtDestroyStream(h), ACL_SUCCESS);
}

typedef struct capture_log {
    int calls;
    oa_task_kind last_kind;
    size_t last_size;
    small_args copy;
} capture_log;

static oa_status intercept(void *ctx, oa_stream *s, const oa_task_desc *desc)
{
    (void)s;
    capture_log *c = ctx;
    c->calls++;
    c->last_kind = desc->kind;
    c->last_size = desc->args_size;
    /* A capture keeps its own copy of the arguments and releases them itself. */
    _Alignas(16) unsigned char buf[512];
    assert_true(desc->args_size <= sizeof(buf));
    memcpy(buf, desc->args, desc->args_size);
    if (desc->args_size == sizeof(small_args)) {
        memcpy(&c->copy, buf, sizeof(small_args));
    }
    if (desc->release != NULL) {
        desc->release(buf);
    }
    return OA_OK;
}

static void interceptor_takes_every_submission(void **state)
{
    (void)state;
    aclrtStream h = NULL;
    assert_int_equal(aclrtCreateStream(&h), ACL_SUCCESS);
    oa_stream *s = NULL;
    assert_int_equal(oa_stream_acquire(h, &s), OA_OK);
    capture_log c;
    memset(&c, 0, sizeof(c));
    oa_stream_set_interceptor(s, intercept, &c);
    int log = 0, released = 0, counter = 0;
    small_args a = {&log, 7, &released, OA_OK, NULL, NULL};
    oa_task_desc d = {.kind = OA_TASK_KIND_MODEL, .run = note, .release = count_release, .args = &a,
                      .args_size = sizeof(a)};
    assert_int_equal(oa_stream_submit(s, &d, NULL), OA_OK);
    assert_int_equal(c.calls, 1);
    assert_int_equal(c.last_kind, OA_TASK_KIND_MODEL);
    assert_int_equal(c.copy.value, 7);
    /* Public asynchronous calls go through the same choke point. */
    assert_int_equal(aclrtLaunchHostFunc(h, test_counter_inc, &counter), ACL_SUCCESS);
    assert_int_equal(c.calls, 2);
    assert_int_equal(c.last_kind, OA_TASK_KIND_HOST_FUNC);
    void *dev = NULL, *pinned = NULL;
    assert_int_equal(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMallocHost(&pinned, 64), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpyAsync(dev, 64, pinned, 64, ACL_MEMCPY_HOST_TO_DEVICE, h), ACL_SUCCESS);
    assert_int_equal(c.last_kind, OA_TASK_KIND_MEMCPY);
    aclrtEvent e = NULL;
    assert_int_equal(aclrtCreateEvent(&e), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(e, h), ACL_SUCCESS);
    assert_int_equal(c.last_kind, OA_TASK_KIND_EVENT_RECORD);
    assert_int_equal(c.calls, 4);
    oa_stream_set_interceptor(s, NULL, NULL);
    assert_int_equal(oa_stream_submit(s, &d, NULL), OA_OK);
    assert_int_equal(oa_stream_synchronize(s, -1), OA_OK);
    assert_int_equal(log, 7);
    assert_int_equal(counter, 0);
    assert_int_equal(released, 2);
    assert_int_equal(aclrtDestroyEvent(e), ACL_SUCCESS);
    assert_int_equal(aclrtFree(dev), ACL_SUCCESS);
    assert_int_equal(aclrtFreeHost(pinned), ACL_SUCCESS);
    oa_stream_release(s);
    assert_int_equal(aclrtDestroyStream(h), ACL_SUCCESS);
}

static void acquire_checks_handles_and_contexts(void **state)
{
    (void)state;
    oa_stream *s = NULL;
    int junk[4];
    assert_int_equal(oa_stream_acquire(junk, &s), OA_E_RT_INVALID_HANDLE);
    aclrtStream h = NULL;
    assert_int_equal(aclrtCreateStream(&h), ACL_SUCCESS);
    aclrtContext other = NULL;
    assert_int_equal(aclrtCreateContext(&other, 1), ACL_SUCCESS);
    assert_int_equal(oa_stream_acquire(h, &s), OA_E_RT_STREAM_CONTEXT);
    assert_int_equal(oa_stream_acquire_any_context(h, &s), OA_OK);
    assert_int_equal(oa_stream_device_id(s), 0);
    oa_stream_release(s);
    assert_int_equal(oa_stream_acquire(NULL, &s), OA_OK);
    assert_int_equal(oa_stream_device_id(s), 1);
    oa_stream_release(s);
    assert_int_equal(aclrtDestroyContext(other), ACL_SUCCESS);
    assert_int_equal(oa_stream_acquire(NULL, &s), OA_E_RT_CONTEXT_NULL);
    oa_stream_release(NULL);
}

static void *my_alloc(void *a, size_t n)
{
    (void)a;
    return malloc(n);
}

static void my_free(void *a, void *b)
{
    (void)a;
    free(b);
}

static void *my_addr(void *b)
{
    return b;
}

static void allocator_getter(void **state)
{
    (void)state;
    aclrtStream h = NULL;
    assert_int_equal(aclrtCreateStream(&h), ACL_SUCCESS);
    oa_rt_allocator ra;
    assert_false(oa_rt_allocator_get(h, &ra));
    aclrtAllocatorDesc d = aclrtAllocatorCreateDesc();
    int obj = 0;
    assert_int_equal(aclrtAllocatorSetObjToDesc(d, &obj), ACL_SUCCESS);
    assert_int_equal(aclrtAllocatorSetAllocFuncToDesc(d, my_alloc), ACL_SUCCESS);
    assert_int_equal(aclrtAllocatorSetFreeFuncToDesc(d, my_free), ACL_SUCCESS);
    assert_int_equal(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, my_addr), ACL_SUCCESS);
    assert_int_equal(aclrtAllocatorRegister(h, d), ACL_SUCCESS);
    assert_true(oa_rt_allocator_get(h, &ra));
    assert_ptr_equal(ra.obj, &obj);
    void *blk = ra.alloc(ra.obj, 32);
    assert_ptr_equal(ra.block_addr(blk), blk);
    ra.free_block(ra.obj, blk);
    assert_null(ra.alloc_advise);
    assert_int_equal(aclrtAllocatorDestroyDesc(d), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(h), ACL_SUCCESS);
    assert_false(oa_rt_allocator_get(h, &ra));
}

static void *child_uses_default_device(void *p)
{
    int32_t *out = p;
    out[0] = aclrtGetDevice(&out[1]);
    void *d = NULL;
    out[2] = aclrtMalloc(&d, 16, ACL_MEM_MALLOC_HUGE_FIRST);
    if (out[2] == ACL_SUCCESS) {
        aclrtPtrAttributes a;
        (void)aclrtPointerGetAttributes(d, &a);
        out[3] = (int32_t)a.location.id;
        (void)aclrtFree(d);
    }
    return NULL;
}

static void default_device_from_configuration(void **state)
{
    (void)state;
    assert_int_equal(oa_rt_set_default_device(5), OA_E_RT_DEVICE_ID);
    assert_int_equal(oa_rt_set_default_device(1), OA_OK);
    int32_t out[4] = {-1, -1, -1, -1};
    pthread_t th;
    pthread_create(&th, NULL, child_uses_default_device, out);
    pthread_join(th, NULL);
    /* aclrtGetDevice answers the default device; allocation sets it implicitly. */
    assert_int_equal(out[0], ACL_SUCCESS);
    assert_int_equal(out[1], 1);
    assert_int_equal(out[2], ACL_SUCCESS);
    assert_int_equal(out[3], 1);
    assert_int_equal(oa_rt_set_default_device(-1), OA_OK);
    memset(out, 0xff, sizeof(out));
    pthread_create(&th, NULL, child_uses_default_device, out);
    pthread_join(th, NULL);
    assert_int_equal(out[0], ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(out[2], ACL_ERROR_RT_CONTEXT_NULL);
}

static void finalize_releases_everything(void **state)
{
    (void)state;
    aclrtContext ctx = NULL;
    assert_int_equal(aclrtCreateContext(&ctx, 1), ACL_SUCCESS);
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    void *d = NULL, *h = NULL;
    assert_int_equal(aclrtMalloc(&d, 100, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMallocHost(&h, 100), ACL_SUCCESS);
    int counter = 0;
    for (int i = 0; i < 5; ++i) {
        assert_int_equal(aclrtLaunchHostFunc(s, test_counter_inc, &counter), ACL_SUCCESS);
    }
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    oa_rt_finalize();
    assert_int_equal(counter, 5);
    assert_int_equal(oa_mem_kind_of(d), OA_MEM_KIND_NONE);
    assert_int_equal(oa_mem_kind_of(h), OA_MEM_KIND_NONE);
    int32_t active = 1;
    assert_int_equal(aclrtGetPrimaryCtxState(0, NULL, &active), ACL_SUCCESS);
    assert_int_equal(active, 0);
    assert_int_equal(aclrtSetCurrentContext(ctx), ACL_ERROR_RT_CONTEXT_NULL);
    /* Finalize twice is harmless, and the runtime works again afterwards. */
    oa_rt_finalize();
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

static oa_status sleep_60ms(void *args, const oa_task_exec *exec)
{
    (void)args;
    (void)exec;
    test_sleep_ms(60);
    return OA_OK;
}

/* aclrtSetOpExecuteTimeOut*: an operator (kernel) task that runs too long fails with 507014 at synchronisation. */
static void operator_execute_timeout(void **state)
{
    (void)state;
    oa_stream *s = NULL;
    assert_int_equal(oa_stream_acquire(NULL, &s), OA_OK);
    oa_task_desc kernel = {.kind = OA_TASK_KIND_KERNEL, .run = sleep_60ms};
    oa_task_desc generic = {.kind = OA_TASK_KIND_GENERIC, .run = sleep_60ms};
    assert_int_equal(oa_stream_submit(s, &kernel, NULL), OA_OK); /* no limit set */
    assert_int_equal(oa_stream_synchronize(s, -1), OA_OK);
    assert_int_equal(aclrtSetOpExecuteTimeOutWithMs(20), ACL_SUCCESS);
    assert_int_equal(oa_stream_submit(s, &generic, NULL), OA_OK); /* not an operator */
    assert_int_equal(oa_stream_synchronize(s, -1), OA_OK);
    assert_int_equal(oa_stream_submit(s, &kernel, NULL), OA_OK);
    assert_int_equal(oa_stream_synchronize(s, -1), OA_E_RT_AICORE_TIMEOUT);
    assert_int_equal(oa_status_to_acl(OA_E_RT_AICORE_TIMEOUT), ACL_ERROR_RT_AICORE_TIMEOUT);
    assert_int_equal(aclrtSetOpExecuteTimeOutWithMs(5000), ACL_SUCCESS);
    assert_int_equal(oa_stream_submit(s, &kernel, NULL), OA_OK);
    assert_int_equal(oa_stream_synchronize(s, -1), OA_OK);
    uint64_t actual = 0;
    assert_int_equal(aclrtSetOpExecuteTimeOutV2(0, &actual), ACL_SUCCESS);
    oa_stream_release(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(arguments_are_copied_at_submission, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(failing_tasks_and_stop_on_failure, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(interceptor_takes_every_submission, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(acquire_checks_handles_and_contexts, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(allocator_getter, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(default_device_from_configuration, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(finalize_releases_everything, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(operator_execute_timeout, test_device0_setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

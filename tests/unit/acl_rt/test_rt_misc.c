/* acl_rt/: device identity and limits, resource limits, value write/wait, cache ops, timeouts (public API). */
#define _GNU_SOURCE
#include <unistd.h>

#include "rt_test_util.h"

static int teardown(void **state)
{
    (void)state;
    (void)aclrtResetDeviceForce(0);
    (void)aclrtResetDeviceResLimit(0);
    return 0;
}

static void identity_and_topology(void **state)
{
    (void)state;
    aclrtUuid a, b;
    assert_int_equal(aclrtDeviceGetUuid(0, &a), ACL_SUCCESS);
    assert_int_equal(aclrtDeviceGetUuid(1, &b), ACL_SUCCESS);
    assert_memory_not_equal(&a, &b, sizeof(a));
    assert_int_equal(aclrtDeviceGetUuid(2, &a), ACL_ERROR_RT_INVALID_DEVICEID);
    assert_int_equal(aclrtDeviceGetUuid(0, NULL), ACL_ERROR_INVALID_PARAM);
    char bus[32];
    assert_int_equal(aclrtDeviceGetPCIBusId(1, bus, sizeof(bus)), ACL_SUCCESS);
    assert_string_equal(bus, "0000:02:00.0");
    int32_t dev = -1;
    assert_int_equal(aclrtDeviceGetByPCIBusId(bus, &dev), ACL_SUCCESS);
    assert_int_equal(dev, 1);
    assert_int_equal(aclrtDeviceGetByPCIBusId("0000:7f:00.0", &dev), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtDeviceGetPCIBusId(0, bus, 12), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtDeviceGetPCIBusId(-1, bus, 32), ACL_ERROR_RT_INVALID_DEVICEID);
    uint64_t topo = 0;
    assert_int_equal(aclrtGetDevicesTopo(0, 1, &topo), ACL_SUCCESS);
    assert_int_equal(topo, ACL_RT_DEVS_TOPOLOGY_PIX);
    assert_int_equal(aclrtGetDevicesTopo(0, 9, &topo), ACL_ERROR_RT_INVALID_DEVICEID);
    assert_int_equal(aclrtDeviceL2CacheFlush(NULL), ACL_SUCCESS);
    assert_int_equal(aclrtDeviceL2CacheFlush(&topo), ACL_ERROR_INVALID_PARAM);
}

static void device_limits(void **state)
{
    (void)state;
    size_t v = 0;
    assert_int_equal(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v), ACL_SUCCESS);
    assert_true(v > 0);
    /* no limit has a CPU meaning: 207000 after the argument checks, and the reported value stays */
    const size_t before = v;
    for (int l = ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE; l <= ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE; ++l) {
        assert_int_equal(aclrtDeviceSetLimit((aclrtDeviceLimit)l, 65536), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        test_expect_msg("not supported");
    }
    assert_int_equal(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v), ACL_SUCCESS);
    assert_int_equal(v, before);
    assert_int_equal(aclrtDeviceSetLimit((aclrtDeviceLimit)5, 1), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, (size_t)UINT32_MAX + 1), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, NULL), ACL_ERROR_INVALID_PARAM);
}

static void resource_limits(void **state)
{
    (void)state;
    uint32_t cores = (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
    uint32_t v = 0;
    assert_int_equal(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
    assert_int_equal(v, cores);
    assert_int_equal(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 1), ACL_SUCCESS);
    assert_int_equal(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
    assert_int_equal(v, 1);
    assert_int_equal(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, cores + 1), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtSetDeviceResLimit(0, (aclrtDevResLimitType)2, 1), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtGetDeviceResLimit(3, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_ERROR_RT_INVALID_DEVICEID);
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    assert_int_equal(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
    assert_int_equal(v, 1); /* inherits the device limit */
    assert_int_equal(aclrtResetDeviceResLimit(0), ACL_SUCCESS);
    assert_int_equal(aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_VECTOR_CORE, 1), ACL_SUCCESS);
    assert_int_equal(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
    assert_int_equal(v, 1);
    assert_int_equal(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
    assert_int_equal(v, cores);
    assert_int_equal(aclrtUseStreamResInCurrentThread(s), ACL_SUCCESS);
    assert_int_equal(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
    assert_int_equal(v, 1);
    assert_int_equal(aclrtUnuseStreamResInCurrentThread(s), ACL_SUCCESS);
    assert_int_equal(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
    assert_int_equal(v, cores);
    assert_int_equal(aclrtResetStreamResLimit(s), ACL_SUCCESS);
    assert_int_equal(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
    assert_int_equal(v, cores);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

static void value_write_and_wait_order_two_streams(void **state)
{
    (void)state;
    aclrtStream a = NULL, b = NULL;
    assert_int_equal(aclrtCreateStream(&a), ACL_SUCCESS);
    assert_int_equal(aclrtCreateStream(&b), ACL_SUCCESS);
    uint64_t *flag = NULL;
    assert_int_equal(aclrtMalloc((void **)&flag, 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    *flag = 0;
    int counter = 0;
    assert_int_equal(aclrtValueWait(flag, 5, ACL_STREAM_WAIT_VALUE_GEQ, b), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(b, test_counter_inc, &counter), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStreamWithTimeout(b, 30), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    assert_int_equal(test_counter_get(&counter), 0);
    assert_int_equal(aclrtValueWrite(flag, 7, 0, a), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(b), ACL_SUCCESS);
    assert_int_equal(test_counter_get(&counter), 1);
    assert_int_equal(aclrtValueWrite(flag, 7, 1, a), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtValueWait(flag, 7, 4, a), ACL_ERROR_RT_PARAM_INVALID);
    uint64_t host = 0;
    assert_int_equal(aclrtValueWrite(&host, 1, 0, a), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtValueWrite(NULL, 1, 0, a), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtSynchronizeStream(a), ACL_SUCCESS);
    assert_int_equal(aclrtFree(flag), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(a), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(b), ACL_SUCCESS);
}

static void cache_operations_and_timeouts(void **state)
{
    (void)state;
    void *d = NULL;
    assert_int_equal(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtCmoAsync(d, 64, ACL_RT_CMO_TYPE_PREFETCH, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtCmoAsync(d, 64, (aclrtCmoType)9, NULL), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtCmoAsync(NULL, 64, ACL_RT_CMO_TYPE_PREFETCH, NULL), ACL_ERROR_INVALID_PARAM);
    memset(d, 1, 64);
    assert_int_equal(aclrtGetFloatOverflowStatus(d, 64, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtNpuGetFloatOverFlowStatus(d, 64, 0, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_int_equal(((unsigned char *)d)[0], 0);
    assert_int_equal(aclrtResetFloatOverflowStatus(NULL), ACL_SUCCESS);
    assert_int_equal(aclrtNpuClearFloatOverFlowStatus(0, NULL), ACL_SUCCESS);
    /* checkMode: 0 only; 1 (debug-mode status) has no CPU counterpart; others are invalid */
    assert_int_equal(aclrtNpuGetFloatOverFlowStatus(d, 64, 1, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    test_expect_msg("checkMode");
    assert_int_equal(aclrtNpuGetFloatOverFlowStatus(d, 64, 2, NULL), ACL_ERROR_RT_PARAM_INVALID);
    test_expect_msg("checkMode");
    assert_int_equal(aclrtNpuClearFloatOverFlowStatus(1, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    assert_int_equal(aclrtNpuClearFloatOverFlowStatus(7, NULL), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtFree(d), ACL_SUCCESS);

    uint64_t actual = 0, interval = 0;
    uint32_t ms = 0;
    assert_int_equal(aclrtSetOpExecuteTimeOut(2), ACL_SUCCESS);
    assert_int_equal(aclrtGetOpExecuteTimeout(&ms), ACL_SUCCESS);
    assert_int_equal(ms, 2000);
    assert_int_equal(aclrtSetOpExecuteTimeOutWithMs(150), ACL_SUCCESS);
    assert_int_equal(aclrtGetOpExecuteTimeout(&ms), ACL_SUCCESS);
    assert_int_equal(ms, 150);
    assert_int_equal(aclrtSetOpExecuteTimeOutV2(2500, &actual), ACL_SUCCESS);
    assert_int_equal(actual, 2500);
    assert_int_equal(aclrtSetOpExecuteTimeOutV2(0, &actual), ACL_SUCCESS);
    assert_int_equal(actual, UINT64_MAX);
    assert_int_equal(aclrtSetOpExecuteTimeOutV2(1, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtGetOpTimeOutInterval(&interval), ACL_SUCCESS);
    assert_int_equal(interval, 1);
    assert_int_equal(aclrtSetOpWaitTimeout(10), ACL_SUCCESS);
    assert_int_equal(aclrtGetOpExecuteTimeout(NULL), ACL_ERROR_INVALID_PARAM);
}

static void persistent_task_clean_and_exception_args(void **state)
{
    (void)state;
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    assert_int_equal(aclrtPersistentTaskClean(s), ACL_SUCCESS);
    assert_int_equal(aclrtPersistentTaskClean(NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    void *args = NULL;
    uint32_t len = 0;
    assert_int_equal(aclrtGetArgsFromExceptionInfo(NULL, &args, &len), (aclError)0xFFFFFFFF);
}

static void device_fault_queries_report_nothing(void **state)
{
    (void)state;
    aclrtMemUceInfo uce[2];
    size_t n = 99;
    assert_int_equal(aclrtGetMemUceInfo(0, uce, 2, &n), ACL_SUCCESS);
    assert_int_equal(n, 0);
    assert_int_equal(aclrtGetMemUceInfo(0, uce, 0, &n), ACL_SUCCESS);
    assert_int_equal(aclrtGetMemUceInfo(0, NULL, 2, &n), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtGetMemUceInfo(0, uce, 2, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtGetMemUceInfo(999, uce, 2, &n), ACL_ERROR_RT_INVALID_DEVICEID);
    aclrtErrorInfo info;
    memset(&info, 0xab, sizeof(info));
    assert_int_equal(aclrtGetErrorVerbose(0, &info), ACL_SUCCESS);
    assert_int_equal(info.errorType, ACL_RT_NO_ERROR);
    assert_int_equal(info.hasDetail, 0);
    assert_int_equal(info.tryRepair, 0);
    assert_int_equal(aclrtGetErrorVerbose(0, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtGetErrorVerbose(-1, &info), ACL_ERROR_RT_INVALID_DEVICEID);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(identity_and_topology, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(device_limits, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(resource_limits, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(value_write_and_wait_order_two_streams, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(cache_operations_and_timeouts, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(persistent_task_clean_and_exception_args, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(device_fault_queries_report_nothing, test_device0_setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

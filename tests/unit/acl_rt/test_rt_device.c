/* acl_rt/: devices through the public API (libascendcl.so). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt_test_util.h"

static int reset_all(void **state)
{
    (void)state;
    uint32_t n = 0;
    if (aclrtGetDeviceCount(&n) == ACL_SUCCESS) {
        for (uint32_t i = 0; i < n; ++i) {
            (void)aclrtResetDeviceForce((int32_t)i);
        }
    }
    (void)aclGetRecentErrMsg();
    return 0;
}

static void count_defaults_to_two_devices(void **state)
{
    (void)state;
    uint32_t n = 0;
    assert_int_equal(aclrtGetDeviceCount(&n), ACL_SUCCESS);
    assert_int_equal(n, 2);
    assert_int_equal(aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM);
}

static void run_mode_is_host(void **state)
{
    (void)state;
    aclrtRunMode m = ACL_DEVICE;
    assert_int_equal(aclrtGetRunMode(&m), ACL_SUCCESS);
    assert_int_equal(m, ACL_HOST);
    assert_int_equal(aclrtGetRunMode(NULL), ACL_ERROR_INVALID_PARAM);
}

static void set_get_reset_follow_cann(void **state)
{
    (void)state;
    int32_t d = -1;
    assert_int_equal(aclrtGetDevice(&d), ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtGetDevice(&d), ACL_SUCCESS);
    assert_int_equal(d, 0);
    assert_int_equal(aclrtSetDevice(1), ACL_SUCCESS);
    assert_int_equal(aclrtGetDevice(&d), ACL_SUCCESS);
    assert_int_equal(d, 1);
    assert_int_equal(aclrtResetDevice(1), ACL_SUCCESS);
    /* The thread's device was 1 and its default context is gone now. */
    assert_int_equal(aclrtGetDevice(&d), ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(aclrtResetDevice(1), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
}

static void invalid_device_ids_are_rejected(void **state)
{
    (void)state;
    assert_int_equal(aclrtSetDevice(2), ACL_ERROR_RT_INVALID_DEVICEID);
    assert_int_equal(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
    test_expect_msg("device id [-1] is invalid");
    assert_int_equal(aclrtResetDevice(7), ACL_ERROR_RT_INVALID_DEVICEID);
    assert_int_equal(aclrtResetDeviceForce(-3), ACL_ERROR_RT_INVALID_DEVICEID);
    aclrtContext ctx = NULL;
    assert_int_equal(aclrtCreateContext(&ctx, 5), ACL_ERROR_RT_INVALID_DEVICEID);
    int64_t v = 0;
    assert_int_equal(aclrtGetDeviceInfo(9, ACL_DEV_ATTR_AICORE_CORE_NUM, &v), ACL_ERROR_RT_PARAM_INVALID);
    int32_t cap = 0;
    assert_int_equal(aclrtGetDeviceCapability(9, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &cap),
                     ACL_ERROR_RT_INVALID_DEVICEID);
}

static void set_device_is_reference_counted(void **state)
{
    (void)state;
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtContext first = NULL, second = NULL;
    assert_int_equal(aclrtGetCurrentContext(&first), ACL_SUCCESS);
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
    /* One reference left: the default context survives. */
    assert_int_equal(aclrtGetCurrentContext(&second), ACL_SUCCESS);
    assert_ptr_equal(first, second);
    int32_t active = 0;
    assert_int_equal(aclrtGetPrimaryCtxState(0, NULL, &active), ACL_SUCCESS);
    assert_int_equal(active, 1);
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtGetPrimaryCtxState(0, NULL, &active), ACL_SUCCESS);
    assert_int_equal(active, 0);
    assert_int_equal(aclrtGetCurrentContext(&second), ACL_ERROR_RT_CONTEXT_NULL);
}

static void reset_force_drops_every_reference(void **state)
{
    (void)state;
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(aclrtSetDevice(1), ACL_SUCCESS);
    }
    assert_int_equal(aclrtResetDeviceForce(1), ACL_SUCCESS);
    int32_t active = 1;
    assert_int_equal(aclrtGetPrimaryCtxState(1, NULL, &active), ACL_SUCCESS);
    assert_int_equal(active, 0);
    assert_int_equal(aclrtResetDeviceForce(1), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
    uint32_t flags = 0;
    assert_int_equal(aclrtGetPrimaryCtxState(1, &flags, &active), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtGetPrimaryCtxState(1, NULL, NULL), ACL_ERROR_INVALID_PARAM);
}

static void reset_device_releases_leaked_memory(void **state)
{
    (void)state;
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    void *p = NULL;
    assert_int_equal(aclrtMalloc(&p, 1000, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    aclrtEvent e = NULL;
    assert_int_equal(aclrtCreateEvent(&e), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(e, s), ACL_SUCCESS);
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
    /* The stream, the event and the memory were released with the device. */
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtFree(p), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtDestroyStream(s), ACL_ERROR_RT_INVALID_HANDLE);
    assert_int_equal(aclrtDestroyEvent(e), ACL_ERROR_RT_INVALID_HANDLE);
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
}

static void synchronize_device_checks_timeout(void **state)
{
    (void)state;
    assert_int_equal(aclrtSynchronizeDevice(), ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeDevice(), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeDeviceWithTimeout(-2), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtSynchronizeDeviceWithTimeout(0), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtSynchronizeDeviceWithTimeout(-1), ACL_SUCCESS);

    test_gate g;
    test_gate_init(&g);
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(s, test_gate_fn, &g), ACL_SUCCESS);
    uint64_t t0 = test_now_ms();
    assert_int_equal(aclrtSynchronizeDeviceWithTimeout(50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    assert_true(test_now_ms() - t0 >= 45);
    test_gate_open(&g);
    assert_int_equal(aclrtSynchronizeDeviceWithTimeout(5000), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

static void device_queries_give_cpu_answers(void **state)
{
    (void)state;
    int64_t v = 0;
    assert_int_equal(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &v), ACL_SUCCESS);
    assert_true(v >= 1);
    assert_int_equal(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &v), ACL_SUCCESS);
    assert_true(v > 0);
    assert_int_equal(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_PHY_CHIP_ID, &v), ACL_SUCCESS);
    assert_int_equal(v, 1);
    assert_int_equal(aclrtGetDeviceInfo(0, (aclrtDevAttr)12345, &v), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, NULL), ACL_ERROR_INVALID_PARAM);

    int32_t least = -1, greatest = -1;
    assert_int_equal(aclrtDeviceGetStreamPriorityRange(&least, &greatest), ACL_SUCCESS);
    assert_int_equal(least, 7);
    assert_int_equal(greatest, 0);
    assert_int_equal(aclrtDeviceGetStreamPriorityRange(NULL, NULL), ACL_SUCCESS);

    int32_t cap = 7;
    assert_int_equal(aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &cap), ACL_SUCCESS);
    assert_int_equal(cap, ACL_DEV_FEATURE_NOT_SUPPORT);
    assert_int_equal(aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, NULL),
                     ACL_ERROR_INVALID_PARAM);

    aclrtDeviceStatus ds = ACL_RT_DEVICE_STATUS_END;
    assert_int_equal(aclrtQueryDeviceStatus(1, &ds), ACL_SUCCESS);
    assert_int_equal(ds, ACL_RT_DEVICE_STATUS_NORMAL);
    assert_int_equal(aclrtQueryDeviceStatus(2, &ds), ACL_ERROR_RT_INVALID_DEVICEID);

    aclrtUtilizationInfo ui;
    memset(&ui, 0, sizeof(ui));
    assert_int_equal(aclrtGetDeviceUtilizationRate(0, &ui), ACL_SUCCESS);
    assert_true(ui.cubeUtilization >= -1 && ui.cubeUtilization <= 100);
    assert_int_equal(ui.memoryUtilization, -1);
    ui.utilizationExtend = (aclrtUtilizationExtendInfo *)&ui;
    assert_int_equal(aclrtGetDeviceUtilizationRate(0, &ui), ACL_ERROR_INVALID_PARAM);

    int32_t pid = 0;
    assert_int_equal(aclrtDeviceGetBareTgid(&pid), ACL_SUCCESS);
    assert_int_equal(pid, getpid());
}

static void peer_access_between_the_two_devices(void **state)
{
    (void)state;
    int32_t can = 0;
    assert_int_equal(aclrtDeviceCanAccessPeer(&can, 0, 1), ACL_SUCCESS);
    assert_int_equal(can, 1);
    assert_int_equal(aclrtDeviceCanAccessPeer(&can, 0, 0), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtDeviceCanAccessPeer(&can, 0, 4), ACL_ERROR_RT_INVALID_DEVICEID);
    assert_int_equal(aclrtDeviceCanAccessPeer(NULL, 0, 1), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtDeviceEnablePeerAccess(1, 0), ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtDeviceEnablePeerAccess(1, 1), ACL_ERROR_FEATURE_UNSUPPORTED);
    assert_int_equal(aclrtDeviceEnablePeerAccess(0, 0), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
    int32_t status = 0;
    assert_int_equal(aclrtDevicePeerAccessStatus(0, 1, &status), ACL_SUCCESS);
    assert_int_equal(status, 1);
    assert_int_equal(aclrtDeviceDisablePeerAccess(1), ACL_SUCCESS);
    assert_int_equal(aclrtDevicePeerAccessStatus(0, 1, &status), ACL_SUCCESS);
    assert_int_equal(status, 0);
}

static void saturation_mode_and_ts_device(void **state)
{
    (void)state;
    aclrtFloatOverflowMode m = ACL_RT_OVERFLOW_MODE_UNDEF;
    assert_int_equal(aclrtGetDeviceSatMode(&m), ACL_SUCCESS);
    assert_int_equal(m, ACL_RT_OVERFLOW_MODE_INFNAN);
    assert_int_equal(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION), ACL_SUCCESS);
    assert_int_equal(aclrtGetDeviceSatMode(&m), ACL_SUCCESS);
    assert_int_equal(m, ACL_RT_OVERFLOW_MODE_SATURATION);
    assert_int_equal(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_UNDEF), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN), ACL_SUCCESS);
    assert_int_equal(aclrtGetDeviceSatMode(NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtSetTsDevice(ACL_TS_ID_AIVECTOR), ACL_SUCCESS);
    assert_int_equal(aclrtSetTsDevice(ACL_TS_ID_RESERVED), ACL_ERROR_INVALID_PARAM);
}

static void id_conversions_without_visible_devices(void **state)
{
    (void)state;
    int32_t out = -1;
    assert_int_equal(aclrtGetPhyDevIdByUserDevId(1, &out), ACL_SUCCESS);
    assert_int_equal(out, 1);
    assert_int_equal(aclrtGetUserDevIdByPhyDevId(0, &out), ACL_SUCCESS);
    assert_int_equal(out, 0);
    assert_int_equal(aclrtGetLogicDevIdByUserDevId(3, &out), ACL_ERROR_RT_INVALID_DEVICEID);
    assert_int_equal(aclrtGetLogicDevIdByUserDevId(0, NULL), ACL_ERROR_INVALID_PARAM);
}

static void device_state_cb(int32_t dev, aclrtDeviceState st, void *args)
{
    int *log = args;
    log[st] += 1 + dev * 100;
}

static void device_state_callbacks_fire(void **state)
{
    (void)state;
    int log[4] = {0, 0, 0, 0};
    assert_int_equal(aclrtRegDeviceStateCallback(NULL, device_state_cb, log), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtRegDeviceStateCallback("test", device_state_cb, log), ACL_SUCCESS);
    assert_int_equal(aclrtSetDevice(1), ACL_SUCCESS);
    assert_int_equal(aclrtResetDevice(1), ACL_SUCCESS);
    assert_int_equal(aclrtRegDeviceStateCallback("test", NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSetDevice(1), ACL_SUCCESS);
    assert_int_equal(log[ACL_RT_DEVICE_STATE_SET_PRE], 101);
    assert_int_equal(log[ACL_RT_DEVICE_STATE_SET_POST], 101);
    assert_int_equal(log[ACL_RT_DEVICE_STATE_RESET_PRE], 101);
    assert_int_equal(log[ACL_RT_DEVICE_STATE_RESET_POST], 101);
}

/* Runs fn in a child process whose environment has the given variables (device tables are read once). */
static int in_child(const char *count, const char *visible, int (*fn)(void))
{
    pid_t pid = fork();
    if (pid == 0) {
        if (count != NULL) {
            setenv("OPENACL_DEVICE_COUNT", count, 1);
        }
        if (visible != NULL) {
            setenv("ASCEND_RT_VISIBLE_DEVICES", visible, 1);
        }
        _exit(fn());
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 99;
}

static int child_four_devices(void)
{
    uint32_t n = 0;
    return aclrtGetDeviceCount(&n) == ACL_SUCCESS && n == 4 ? 0 : 1;
}

static int child_visible_1_3(void)
{
    uint32_t n = 0;
    if (aclrtGetDeviceCount(&n) != ACL_SUCCESS || n != 2) {
        return 1;
    }
    int32_t phys = -1;
    if (aclrtGetPhyDevIdByUserDevId(1, &phys) != ACL_SUCCESS || phys != 3) {
        return 2;
    }
    int32_t user = -1;
    if (aclrtGetUserDevIdByPhyDevId(1, &user) != ACL_SUCCESS || user != 0) {
        return 3;
    }
    if (aclrtGetUserDevIdByPhyDevId(2, &user) != ACL_ERROR_RT_INVALID_DEVICEID) {
        return 4;
    }
    if (aclrtSetDevice(2) != ACL_ERROR_RT_INVALID_DEVICEID || aclrtSetDevice(1) != ACL_SUCCESS) {
        return 5;
    }
    int64_t chip = -1;
    if (aclrtGetDeviceInfo(1, ACL_DEV_ATTR_PHY_CHIP_ID, &chip) != ACL_SUCCESS || chip != 3) {
        return 6;
    }
    return aclrtResetDevice(1) == ACL_SUCCESS ? 0 : 7;
}

static int child_visible_stops_at_bad_entry(void)
{
    uint32_t n = 0;
    /* "0,x,1": only device 0 is kept. */
    return aclrtGetDeviceCount(&n) == ACL_SUCCESS && n == 1 ? 0 : 1;
}

static int child_no_visible_device(void)
{
    uint32_t n = 77;
    if (aclrtGetDeviceCount(&n) != ACL_ERROR_RT_NO_DEVICE) {
        return 1;
    }
    return aclrtSetDevice(0) == ACL_ERROR_RT_INVALID_DEVICEID ? 0 : 2;
}

static void device_count_and_visible_devices_from_environment(void **state)
{
    (void)state;
    assert_int_equal(in_child("4", NULL, child_four_devices), 0);
    assert_int_equal(in_child("4", "1,3", child_visible_1_3), 0);
    assert_int_equal(in_child("4", " 1 , 3 ", child_visible_1_3), 0);
    assert_int_equal(in_child("4", "0,x,1", child_visible_stops_at_bad_entry), 0);
    assert_int_equal(in_child("2", "0,5", child_visible_stops_at_bad_entry), 0);
    assert_int_equal(in_child("4", "3,1", child_no_visible_device), 0);
    assert_int_equal(in_child("4", "1,1", child_no_visible_device), 0);
    assert_int_equal(in_child("4", "", child_no_visible_device), 0);
    assert_int_equal(in_child("4", "9", child_no_visible_device), 0);
    /* Out-of-range counts fall back to the default of 2. */
    assert_int_equal(in_child("0", NULL, child_four_devices), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(device_count_and_visible_devices_from_environment),
        cmocka_unit_test_teardown(count_defaults_to_two_devices, reset_all),
        cmocka_unit_test_teardown(run_mode_is_host, reset_all),
        cmocka_unit_test_teardown(set_get_reset_follow_cann, reset_all),
        cmocka_unit_test_teardown(invalid_device_ids_are_rejected, reset_all),
        cmocka_unit_test_teardown(set_device_is_reference_counted, reset_all),
        cmocka_unit_test_teardown(reset_force_drops_every_reference, reset_all),
        cmocka_unit_test_teardown(reset_device_releases_leaked_memory, reset_all),
        cmocka_unit_test_teardown(synchronize_device_checks_timeout, reset_all),
        cmocka_unit_test_teardown(device_queries_give_cpu_answers, reset_all),
        cmocka_unit_test_teardown(peer_access_between_the_two_devices, reset_all),
        cmocka_unit_test_teardown(saturation_mode_and_ts_device, reset_all),
        cmocka_unit_test_teardown(id_conversions_without_visible_devices, reset_all),
        cmocka_unit_test_teardown(device_state_callbacks_fire, reset_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

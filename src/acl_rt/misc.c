/*
 * Runtime-wide settings without a better home: operator timeouts and the
 * floating-point overflow status queries (no overflow is ever flagged on the
 * CPU: the status buffer is cleared).
 */
#define OA_LOG_MODULE "RUNTIME"
#include <pthread.h>
#include <string.h>

#include "acl_rt/rt_internal.h"
#include "base/acl_check.h"
#include "base/error.h"

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static uint32_t g_op_wait_timeout_s;
static uint64_t g_op_execute_timeout_us; /* 0: no limit */

void oa_rt_misc_reset(void)
{
    pthread_mutex_lock(&g_mu);
    g_op_wait_timeout_s = 0;
    g_op_execute_timeout_us = 0;
    pthread_mutex_unlock(&g_mu);
}

uint64_t oa_rt_op_execute_timeout_us(void)
{
    pthread_mutex_lock(&g_mu);
    uint64_t v = g_op_execute_timeout_us;
    pthread_mutex_unlock(&g_mu);
    return v;
}

static void set_execute_timeout_us(uint64_t us)
{
    pthread_mutex_lock(&g_mu);
    g_op_execute_timeout_us = us;
    pthread_mutex_unlock(&g_mu);
}

ACL_FUNC_VISIBILITY aclError aclrtSetOpWaitTimeout(uint32_t timeout)
{
    pthread_mutex_lock(&g_mu);
    g_op_wait_timeout_s = timeout;
    pthread_mutex_unlock(&g_mu);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOut(uint32_t timeout)
{
    set_execute_timeout_us((uint64_t)timeout * 1000000u);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t timeout)
{
    set_execute_timeout_us((uint64_t)timeout * 1000u);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t *actualTimeout)
{
    ACL_REQUIRE_NOT_NULL(actualTimeout);
    oa_context *ctx = NULL;
    oa_status st = oa_ctx_current(true, &ctx);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    oa_ctx_release(ctx);
    set_execute_timeout_us(timeout);
    /* The CPU keeps time to the microsecond: the actual timeout is the requested one; 0 never expires. */
    *actualTimeout = timeout == 0 ? UINT64_MAX : timeout;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetOpTimeOutInterval(uint64_t *interval)
{
    ACL_REQUIRE_NOT_NULL(interval);
    oa_context *ctx = NULL;
    oa_status st = oa_ctx_current(true, &ctx);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    oa_ctx_release(ctx);
    *interval = 1;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetOpExecuteTimeout(uint32_t *const timeoutMs)
{
    ACL_REQUIRE_NOT_NULL(timeoutMs);
    uint64_t ms = oa_rt_op_execute_timeout_us() / 1000u;
    *timeoutMs = ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetOverflowStatus(void *outputAddr, size_t outputSize, aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(outputAddr);
    return aclrtMemsetAsync(outputAddr, outputSize, 0, outputSize, stream);
}

ACL_FUNC_VISIBILITY aclError aclrtResetOverflowStatus(aclrtStream stream)
{
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(stream, &s);
    if (st == OA_OK) {
        oa_stream_release(s);
    }
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclrtGetFloatOverflowStatus(void *outputAddr, uint64_t outputSize, aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(outputAddr);
    ACL_REQUIRE(outputSize <= SIZE_MAX, OA_E_PARAM, "outputSize is too large");
    return aclrtMemsetAsync(outputAddr, (size_t)outputSize, 0, (size_t)outputSize, stream);
}

ACL_FUNC_VISIBILITY aclError aclrtResetFloatOverflowStatus(aclrtStream stream)
{
    return aclrtResetOverflowStatus(stream);
}

ACL_FUNC_VISIBILITY aclError aclrtNpuGetFloatOverFlowStatus(void *outputAddr, uint64_t outputSize, uint32_t checkMode,
                                                            aclrtStream stream)
{
    (void)checkMode;
    return aclrtGetFloatOverflowStatus(outputAddr, outputSize, stream);
}

ACL_FUNC_VISIBILITY aclError aclrtNpuClearFloatOverFlowStatus(uint32_t checkMode, aclrtStream stream)
{
    (void)checkMode;
    return aclrtResetOverflowStatus(stream);
}

/* ---- device faults ------------------------------------------------------------------------------------------------ */

/*
 * The CPU device never reports uncorrectable memory errors or other faults:
 * the queries validate their arguments as CANN does and answer "nothing".
 */
ACL_FUNC_VISIBILITY aclError aclrtGetMemUceInfo(int32_t deviceId, aclrtMemUceInfo *memUceInfoArray, size_t arraySize,
                                                size_t *retSize)
{
    ACL_REQUIRE_NOT_NULL(memUceInfoArray);
    ACL_REQUIRE_NOT_NULL(retSize);
    (void)arraySize; /* no record is ever needed, so any array is large enough */
    oa_status st = oa_rt_check_device_id(deviceId, OA_E_RT_DEVICE_ID);
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    *retSize = 0;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo *errorInfo)
{
    ACL_REQUIRE_NOT_NULL(errorInfo);
    oa_status st = oa_rt_check_device_id(deviceId, OA_E_RT_DEVICE_ID);
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    memset(errorInfo, 0, sizeof(*errorInfo));
    errorInfo->errorType = ACL_RT_NO_ERROR;
    return ACL_SUCCESS;
}

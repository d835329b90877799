/*
 * Runtime-wide settings without a better home: operator timeouts (enforced
 * by the stream workers and event waits) and the floating-point overflow
 * status queries.
 */
#define OA_LOG_MODULE "RUNTIME"
#include <pthread.h>
#include <string.h>

#include "acl_rt/rt_internal.h"
#include "base/acl_check.h"
#include "base/error.h"
#include "base/util.h"
#include "mem/mem_table.h"

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static uint32_t g_op_wait_timeout_s;
static uint64_t g_op_execute_timeout_us; /* 0: no limit */
static uint32_t g_overflow[OA_RT_MAX_DEVICES];

void oa_rt_misc_reset(void)
{
    pthread_mutex_lock(&g_mu);
    g_op_wait_timeout_s = 0;
    __atomic_store_n(&g_op_execute_timeout_us, 0, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&g_mu);
    for (size_t i = 0; i < OA_RT_MAX_DEVICES; ++i) {
        __atomic_store_n(&g_overflow[i], 0u, __ATOMIC_RELAXED);
    }
}

uint64_t oa_rt_op_execute_timeout_us(void)
{
    return __atomic_load_n(&g_op_execute_timeout_us, __ATOMIC_RELAXED); /* read for every task: no lock */
}

uint32_t oa_rt_op_wait_timeout_s(void)
{
    pthread_mutex_lock(&g_mu);
    uint32_t v = g_op_wait_timeout_s;
    pthread_mutex_unlock(&g_mu);
    return v;
}

static void set_execute_timeout_us(uint64_t us)
{
    __atomic_store_n(&g_op_execute_timeout_us, us, __ATOMIC_RELAXED);
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

/* ---- floating-point overflow status ---------------------------------------------------------------------------- */

/*
 * One flag per device, set by the built-in tasks that detect an overflow (reduce tasks: an integer sum that
 * saturates, a float result that becomes infinite from finite operands) and read or cleared by a task queued on the
 * caller's stream, so the answer is in stream order. Operators and models run by the CPU kernels do not report
 * overflow (docs/runtime.md, "Overflow status").
 */
void oa_rt_overflow_note(const oa_stream *s)
{
    int32_t dev = oa_stream_device_id(s);
    if (dev >= 0 && dev < OA_RT_MAX_DEVICES) {
        __atomic_store_n(&g_overflow[dev], 1u, __ATOMIC_RELEASE);
    }
}

void oa_rt_inline_run_begin(oa_rt_inline_run *r, int32_t timeout_ms)
{
    /* GE's internal model stream is made for the run: it has the device's mode of now (an atomic load) */
    aclrtFloatOverflowMode mode = ACL_RT_OVERFLOW_MODE_INFNAN;
    (void)aclrtGetDeviceSatMode(&mode);
    const uint64_t deadline = timeout_ms > 0 ? oa_now_ns() + (uint64_t)timeout_ms * 1000000u : 0;
    r->device_id = -1;
    oa_run_scope_begin(&r->saved, mode == ACL_RT_OVERFLOW_MODE_SATURATION, oa_rt_op_execute_timeout_us(), deadline);
    oa_run_scope_set_max_threads(oa_rt_thread_thread_limit()); /* aclrtSet{Stream,Device}ResLimit */
}

void oa_rt_inline_run_end(oa_rt_inline_run *r)
{
    if (!oa_run_scope_end(&r->saved)) {
        return;
    }
    /* an overflow (rare): the device of the calling thread's context records it */
    oa_context *ctx = oa_ctx_current_quiet(true);
    if (ctx != NULL) {
        r->device_id = ctx->dev->id;
        oa_ctx_release(ctx);
    }
    if (r->device_id >= 0 && r->device_id < OA_RT_MAX_DEVICES) {
        __atomic_store_n(&g_overflow[r->device_id], 1u, __ATOMIC_RELEASE);
    }
}

typedef struct overflow_args {
    void *out; /* NULL: clear the flag */
    size_t size;
} overflow_args;

static oa_status overflow_run(void *args, const oa_task_exec *exec)
{
    const overflow_args *a = args;
    if (exec->device_id < 0 || exec->device_id >= OA_RT_MAX_DEVICES) {
        return OA_OK;
    }
    if (a->out == NULL) {
        __atomic_store_n(&g_overflow[exec->device_id], 0u, __ATOMIC_RELEASE);
        return OA_OK;
    }
    const uint64_t v = __atomic_load_n(&g_overflow[exec->device_id], __ATOMIC_ACQUIRE) != 0 ? 1u : 0u;
    memset(a->out, 0, a->size);
    memcpy(a->out, &v, a->size < sizeof(v) ? a->size : sizeof(v));
    return OA_OK;
}

static oa_status overflow_task(void *out, size_t size, aclrtStream stream)
{
    if (out != NULL) {
        oa_mem_block b;
        if (!oa_mem_find(out, &b) || b.kind != OA_MEM_KIND_DEVICE) {
            return OA_FAIL(OA_E_RT_PARAM, "outputAddr [%p] is not device memory allocated by aclrtMalloc", out);
        }
        if (size == 0 || size > b.size - (size_t)((char *)out - (char *)b.base)) {
            return OA_FAIL(OA_E_RT_PARAM, "outputSize [%zu] must be > 0 and fit in the allocation of outputAddr", size);
        }
    }
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        return st;
    }
    overflow_args a = {.out = out, .size = size};
    oa_task_desc d = {.kind = OA_TASK_KIND_GENERIC, .run = overflow_run, .args = &a, .args_size = sizeof(a)};
    st = oa_stream_submit(s, &d, NULL);
    oa_stream_release(s);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtGetOverflowStatus(void *outputAddr, size_t outputSize, aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(outputAddr);
    ACL_RETURN_STATUS(overflow_task(outputAddr, outputSize, stream));
}

ACL_FUNC_VISIBILITY aclError aclrtResetOverflowStatus(aclrtStream stream)
{
    ACL_RETURN_STATUS(overflow_task(NULL, 0, stream));
}

ACL_FUNC_VISIBILITY aclError aclrtGetFloatOverflowStatus(void *outputAddr, uint64_t outputSize, aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(outputAddr);
    ACL_REQUIRE(outputSize <= SIZE_MAX, OA_E_PARAM, "outputSize is too large");
    ACL_RETURN_STATUS(overflow_task(outputAddr, (size_t)outputSize, stream));
}

ACL_FUNC_VISIBILITY aclError aclrtResetFloatOverflowStatus(aclrtStream stream)
{
    return aclrtResetOverflowStatus(stream);
}

/*
 * checkMode of the aclrtNpu*FloatOverFlowStatus calls (docs/runtime.md, "Overflow status"): 0 is the status of
 * the overflow mode in force, the device flag above; 1 is the debug-mode status, a second register set of the NPU
 * with no CPU counterpart (207000); other values are refused.
 */
#define OA_OVERFLOW_CHECK_NORMAL 0u
#define OA_OVERFLOW_CHECK_DEBUG 1u

static oa_status check_overflow_mode(uint32_t checkMode)
{
    if (checkMode == OA_OVERFLOW_CHECK_DEBUG) {
        return OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "checkMode [1] (the debug-mode overflow status) is not supported "
                                                    "on the CPU device; use checkMode 0");
    }
    if (checkMode != OA_OVERFLOW_CHECK_NORMAL) {
        return OA_FAIL(OA_E_RT_PARAM, "checkMode [%u] must be 0 (the overflow status)", checkMode);
    }
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclrtNpuGetFloatOverFlowStatus(void *outputAddr, uint64_t outputSize, uint32_t checkMode,
                                                            aclrtStream stream)
{
    oa_status st = check_overflow_mode(checkMode);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    return aclrtGetFloatOverflowStatus(outputAddr, outputSize, stream);
}

ACL_FUNC_VISIBILITY aclError aclrtNpuClearFloatOverFlowStatus(uint32_t checkMode, aclrtStream stream)
{
    oa_status st = check_overflow_mode(checkMode);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
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

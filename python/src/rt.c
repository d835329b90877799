/*
 * acl.rt: devices, contexts, streams, events, memory, callbacks (acl_rt.h).
 *
 * Callbacks: acl.rt.launch_callback(fn, user_data, block_type, stream) keeps
 * fn and user_data alive until the C trampoline has run them once; the
 * trampoline runs in the thread inside acl.rt.process_report (or a stream
 * thread) and takes the GIL for the call. process_report, the synchronise
 * and wait functions, memcpy/memset and the destroy/reset functions that wait
 * for a stream release the GIL, so that thread can run.
 */
#include <stdlib.h>

#include "pyacl.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define OA_MOD "acl.rt"

#define RT_TABLE(X)                                                                                                    \
    /* devices */                                                                                                      \
    X("set_device", NOGIL, ERR, aclrtSetDevice, (IN, I32))                                                             \
    X("reset_device", NOGIL, ERR, aclrtResetDevice, (IN, I32))                                                         \
    X("reset_device_force", NOGIL, ERR, aclrtResetDeviceForce, (IN, I32))                                              \
    X("get_device", GIL, ERR, aclrtGetDevice, (OUT, I32))                                                              \
    X("get_run_mode", GIL, ERR, aclrtGetRunMode, (OUT, E_RUNMODE))                                                     \
    X("get_device_count", GIL, ERR, aclrtGetDeviceCount, (OUT, U32))                                                   \
    X("set_ts_device", GIL, ERR, aclrtSetTsDevice, (IN, I32))                                                          \
    X("set_device_sat_mode", GIL, ERR, aclrtSetDeviceSatMode, (IN, I32))                                               \
    X("get_device_sat_mode", GIL, ERR, aclrtGetDeviceSatMode, (OUT, E_OVFMODE))                                        \
    X("get_device_info", GIL, ERR, aclrtGetDeviceInfo, (IN, U32), (IN, I32), (OUT, I64))                               \
    X("get_device_capability", GIL, ERR, aclrtGetDeviceCapability, (IN, I32), (IN, I32), (OUT, I32))                   \
    X("device_get_stream_priority_range", GIL, ERR, aclrtDeviceGetStreamPriorityRange, (OUT, I32), (OUT, I32))         \
    X("query_device_status", GIL, ERR, aclrtQueryDeviceStatus, (IN, I32), (OUT, E_DEVSTATUS))                          \
    X("device_can_access_peer", GIL, ERR, aclrtDeviceCanAccessPeer, (OUT, I32), (IN, I32), (IN, I32))                  \
    X("device_enable_peer_access", GIL, ERR, aclrtDeviceEnablePeerAccess, (IN, I32), (IN, U32))                        \
    X("device_disable_peer_access", GIL, ERR, aclrtDeviceDisablePeerAccess, (IN, I32))                                 \
    X("device_peer_access_status", GIL, ERR, aclrtDevicePeerAccessStatus, (IN, I32), (IN, I32), (OUT, I32))            \
    X("set_device_res_limit", GIL, ERR, aclrtSetDeviceResLimit, (IN, I32), (IN, I32), (IN, U32))                       \
    X("get_device_res_limit", GIL, ERR, aclrtGetDeviceResLimit, (IN, I32), (IN, I32), (OUT, U32))                      \
    X("reset_device_res_limit", GIL, ERR, aclrtResetDeviceResLimit, (IN, I32))                                         \
    X("get_devices_topo", GIL, ERR, aclrtGetDevicesTopo, (IN, U32), (IN, U32), (OUT, U64))                             \
    X("get_logic_dev_id_by_user_dev_id", GIL, ERR, aclrtGetLogicDevIdByUserDevId, (IN, I32), (OUT, I32))               \
    X("get_user_dev_id_by_logic_dev_id", GIL, ERR, aclrtGetUserDevIdByLogicDevId, (IN, I32), (OUT, I32))               \
    X("get_logic_dev_id_by_phy_dev_id", GIL, ERR, aclrtGetLogicDevIdByPhyDevId, (IN, I32), (OUT, I32))                 \
    X("get_phy_dev_id_by_logic_dev_id", GIL, ERR, aclrtGetPhyDevIdByLogicDevId, (IN, I32), (OUT, I32))                 \
    X("device_get_bare_tgid", GIL, ERR, aclrtDeviceGetBareTgid, (OUT, I32))                                            \
    X("device_task_abort", NOGIL, ERR, aclrtDeviceTaskAbort, (IN, I32), (IN, U32))                                     \
    X("synchronize_device", NOGIL, ERR, aclrtSynchronizeDevice, NOARGS)                                                \
    X("synchronize_device_with_timeout", NOGIL, ERR, aclrtSynchronizeDeviceWithTimeout, (IN, I32))                     \
    /* contexts */                                                                                                     \
    X("create_context", NOGIL, ERR, aclrtCreateContext, (OUT, PTR), (IN, I32))                                         \
    X("destroy_context", NOGIL, ERR, aclrtDestroyContext, (IN, PTR))                                                   \
    X("set_context", NOGIL, ERR, aclrtSetCurrentContext, (IN, PTR))                                                    \
    X("get_context", GIL, ERR, aclrtGetCurrentContext, (OUT, PTR))                                                     \
    X("ctx_get_current_default_stream", GIL, ERR, aclrtCtxGetCurrentDefaultStream, (OUT, PTR))                         \
    X("get_overflow_status", NOGIL, ERR, aclrtGetOverflowStatus, (IN, PTR), (IN, LEN), (IN, PTR))                      \
    X("reset_overflow_status", NOGIL, ERR, aclrtResetOverflowStatus, (IN, PTR))                                        \
    X("set_sys_param_opt", GIL, ERR, aclrtSetSysParamOpt, (IN, I32), (IN, I64))                                        \
    X("get_sys_param_opt", GIL, ERR, aclrtGetSysParamOpt, (IN, I32), (OUT, I64))                                       \
    X("ctx_set_sys_param_opt", GIL, ERR, aclrtCtxSetSysParamOpt, (IN, I32), (IN, I64))                                 \
    X("ctx_get_sys_param_opt", GIL, ERR, aclrtCtxGetSysParamOpt, (IN, I32), (OUT, I64))                                \
    /* streams */                                                                                                      \
    X("create_stream", NOGIL, ERR, aclrtCreateStream, (OUT, PTR))                                                      \
    X("create_stream_with_config", NOGIL, ERR, aclrtCreateStreamWithConfig, (OUT, PTR), (IN, U32), (IN, U32))          \
    X("destroy_stream", NOGIL, ERR, aclrtDestroyStream, (IN, PTR))                                                     \
    X("destroy_stream_force", NOGIL, ERR, aclrtDestroyStreamForce, (IN, PTR))                                          \
    X("stream_abort", NOGIL, ERR, aclrtStreamAbort, (IN, PTR))                                                         \
    X("synchronize_stream", NOGIL, ERR, aclrtSynchronizeStream, (IN, PTR))                                             \
    X("synchronize_stream_with_timeout", NOGIL, ERR, aclrtSynchronizeStreamWithTimeout, (IN, PTR), (IN, I32))          \
    X("stream_query", NOGIL, ERR, aclrtStreamQuery, (IN, PTR), (OUT, E_STSTATUS))                                      \
    X("stream_get_id", GIL, ERR, aclrtStreamGetId, (IN, PTR), (OUT, I32))                                              \
    X("stream_wait_event", NOGIL, ERR, aclrtStreamWaitEvent, (IN, PTR), (IN, PTR))                                     \
    X("set_stream_overflow_switch", GIL, ERR, aclrtSetStreamOverflowSwitch, (IN, PTR), (IN, U32))                      \
    X("get_stream_overflow_switch", GIL, ERR, aclrtGetStreamOverflowSwitch, (IN, PTR), (OUT, U32))                     \
    X("set_stream_failure_mode", GIL, ERR, aclrtSetStreamFailureMode, (IN, PTR), (IN, U64))                            \
    X("get_stream_available_num", GIL, ERR, aclrtGetStreamAvailableNum, (OUT, U32))                                    \
    X("set_stream_res_limit", GIL, ERR, aclrtSetStreamResLimit, (IN, PTR), (IN, I32), (IN, U32))                       \
    X("get_stream_res_limit", GIL, ERR, aclrtGetStreamResLimit, (IN, PTR), (IN, I32), (OUT, U32))                      \
    X("reset_stream_res_limit", GIL, ERR, aclrtResetStreamResLimit, (IN, PTR))                                         \
    X("use_stream_res_in_current_thread", GIL, ERR, aclrtUseStreamResInCurrentThread, (IN, PTR))                       \
    X("unuse_stream_res_in_current_thread", GIL, ERR, aclrtUnuseStreamResInCurrentThread, (IN, PTR))                   \
    X("get_res_in_current_thread", GIL, ERR, aclrtGetResInCurrentThread, (IN, I32), (OUT, U32))                        \
    /* events */                                                                                                       \
    X("create_event", NOGIL, ERR, aclrtCreateEvent, (OUT, PTR))                                                        \
    X("create_event_with_flag", NOGIL, ERR, aclrtCreateEventWithFlag, (OUT, PTR), (IN, U32))                           \
    X("create_event_ex_with_flag", NOGIL, ERR, aclrtCreateEventExWithFlag, (OUT, PTR), (IN, U32))                      \
    X("destroy_event", NOGIL, ERR, aclrtDestroyEvent, (IN, PTR))                                                       \
    X("record_event", NOGIL, ERR, aclrtRecordEvent, (IN, PTR), (IN, PTR))                                              \
    X("reset_event", NOGIL, ERR, aclrtResetEvent, (IN, PTR), (IN, PTR))                                                \
    X("query_event", NOGIL, ERR, aclrtQueryEvent, (IN, PTR), (OUT, E_EVSTATUS))                                        \
    X("query_event_status", NOGIL, ERR, aclrtQueryEventStatus, (IN, PTR), (OUT, E_EVRSTATUS))                          \
    X("query_event_wait_status", NOGIL, ERR, aclrtQueryEventWaitStatus, (IN, PTR), (OUT, E_EVWSTATUS))                 \
    X("synchronize_event", NOGIL, ERR, aclrtSynchronizeEvent, (IN, PTR))                                               \
    X("synchronize_event_with_timeout", NOGIL, ERR, aclrtSynchronizeEventWithTimeout, (IN, PTR), (IN, I32))            \
    X("event_elapsed_time", NOGIL, ERR, aclrtEventElapsedTime, (OUT, F32), (IN, PTR), (IN, PTR))                       \
    X("event_get_timestamp", GIL, ERR, aclrtEventGetTimestamp, (IN, PTR), (OUT, U64))                                  \
    X("get_event_id", GIL, ERR, aclrtGetEventId, (IN, PTR), (OUT, U32))                                                \
    X("get_event_avail_num", GIL, ERR, aclrtGetEventAvailNum, (OUT, U32))                                              \
    X("get_thread_last_task_id", GIL, ERR, aclrtGetThreadLastTaskId, (OUT, U32))                                       \
    /* memory */                                                                                                       \
    X("malloc", GIL, ERR, aclrtMalloc, (OUT, PTR), (IN, LEN), (IN, I32))                                               \
    X("malloc_align32", GIL, ERR, aclrtMallocAlign32, (OUT, PTR), (IN, LEN), (IN, I32))                                \
    X("malloc_cached", GIL, ERR, aclrtMallocCached, (OUT, PTR), (IN, LEN), (IN, I32))                                  \
    X("malloc_host", GIL, ERR, aclrtMallocHost, (OUT, PTR), (IN, LEN))                                                 \
    X("free", NOGIL, ERR, aclrtFree, (IN, PTR))                                                                        \
    X("free_host", NOGIL, ERR, aclrtFreeHost, (IN, PTR))                                                               \
    X("memset", NOGIL, ERR, aclrtMemset, (IN, PTR), (IN, LEN), (IN, I32), (IN, LEN))                                   \
    X("memset_async", NOGIL, ERR, aclrtMemsetAsync, (IN, PTR), (IN, LEN), (IN, I32), (IN, LEN), (IN, PTR))             \
    X("memcpy", NOGIL, ERR, aclrtMemcpy, (IN, PTR), (IN, LEN), (IN, PTR), (IN, LEN), (IN, I32))                        \
    X("memcpy_async", NOGIL, ERR, aclrtMemcpyAsync, (IN, PTR), (IN, LEN), (IN, PTR), (IN, LEN), (IN, I32), (IN, PTR))  \
    X("memcpy2d", NOGIL, ERR, aclrtMemcpy2d, (IN, PTR), (IN, LEN), (IN, PTR), (IN, LEN), (IN, LEN), (IN, LEN),         \
      (IN, I32))                                                                                                       \
    X("memcpy2d_async", NOGIL, ERR, aclrtMemcpy2dAsync, (IN, PTR), (IN, LEN), (IN, PTR), (IN, LEN), (IN, LEN),         \
      (IN, LEN), (IN, I32), (IN, PTR))                                                                                 \
    X("mem_flush", GIL, ERR, aclrtMemFlush, (IN, PTR), (IN, LEN))                                                      \
    X("mem_invalidate", GIL, ERR, aclrtMemInvalidate, (IN, PTR), (IN, LEN))                                            \
    X("get_mem_info", GIL, ERR, aclrtGetMemInfo, (IN, I32), (OUT, SZ), (OUT, SZ))                                      \
    X("memcpy_async_with_condition", NOGIL, ERR, aclrtMemcpyAsyncWithCondition, (IN, PTR), (IN, LEN), (IN, PTR),       \
      (IN, LEN), (IN, I32), (IN, PTR))                                                                                 \
    X("cmo_async", NOGIL, ERR, aclrtCmoAsync, (IN, PTR), (IN, LEN), (IN, I32), (IN, PTR))                              \
    X("value_write", NOGIL, ERR, aclrtValueWrite, (IN, PTR), (IN, U64), (IN, U32), (IN, PTR))                          \
    X("value_wait", NOGIL, ERR, aclrtValueWait, (IN, PTR), (IN, U64), (IN, U32), (IN, PTR))                            \
    X("host_register", GIL, ERR, aclrtHostRegister, (IN, PTR), (IN, U64), (IN, I32), (OUT, PTR))                       \
    X("host_unregister", GIL, ERR, aclrtHostUnregister, (IN, PTR))                                                     \
    X("host_get_device_pointer", GIL, ERR, aclrtHostGetDevicePointer, (IN, PTR), (OUT, PTR), (IN, U32))                \
    /* callbacks and errors */                                                                                         \
    X("subscribe_report", NOGIL, ERR, aclrtSubscribeReport, (IN, U64), (IN, PTR))                                      \
    X("unsubscribe_report", NOGIL, ERR, aclrtUnSubscribeReport, (IN, U64), (IN, PTR))                                  \
    X("process_report", NOGIL, ERR, aclrtProcessReport, (IN, I32))                                                     \
    X("get_error_code_from_exception_info", GIL, U32, aclrtGetErrorCodeFromExceptionInfo, (IN, PTR))                   \
    X("get_task_id_from_exception_info", GIL, U32, aclrtGetTaskIdFromExceptionInfo, (IN, PTR))                         \
    X("get_stream_id_from_exception_info", GIL, U32, aclrtGetStreamIdFromExceptionInfo, (IN, PTR))                     \
    X("get_thread_id_from_exception_info", GIL, U32, aclrtGetThreadIdFromExceptionInfo, (IN, PTR))                     \
    X("get_device_id_from_exception_info", GIL, U32, aclrtGetDeviceIdFromExceptionInfo, (IN, PTR))                     \
    X("set_op_wait_timeout", GIL, ERR, aclrtSetOpWaitTimeout, (IN, U32))                                               \
    X("set_op_execute_time_out", GIL, ERR, aclrtSetOpExecuteTimeOut, (IN, U32))                                        \
    X("set_op_execute_timeout_v2", GIL, ERR, aclrtSetOpExecuteTimeOutV2, (IN, U64), (OUT, U64))                        \
    X("get_op_timeout_interval", GIL, ERR, aclrtGetOpTimeOutInterval, (OUT, U64))                                      \
    X("get_op_execute_timeout", GIL, ERR, aclrtGetOpExecuteTimeout, (OUT, U32))                                        \
    X("peek_at_last_error", GIL, ERR, aclrtPeekAtLastError, (IN, I32))                                                 \
    X("get_last_error", GIL, ERR, aclrtGetLastError, (IN, I32))

RT_TABLE(OA_DEFINE)

/* ---- launch_callback ---- */

typedef struct py_callback {
    PyObject *fn;
    PyObject *arg;
} py_callback;

/* Runs a launched Python callable once, in whichever thread the runtime calls it from. */
static void callback_trampoline(void *user)
{
    py_callback *cb = user;
    if (cb == NULL || !Py_IsInitialized()) {
        return;
    }
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *r = PyObject_CallOneArg(cb->fn, cb->arg);
    if (r == NULL) {
        PyErr_WriteUnraisable(cb->fn); /* pyACL logs the exception and goes on */
    }
    Py_XDECREF(r);
    Py_DECREF(cb->fn);
    Py_DECREF(cb->arg);
    PyMem_RawFree(cb);
    PyGILState_Release(g);
}

/* launch_callback(fn, user_data, block_type, stream) -> ret */
static PyObject *w_launch_callback(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    int32_t block = 0;
    void *stream = NULL;
    if (nargs != 4 || oa_in_I32(args[2], &block) != 0 || oa_in_PTR(args[3], &stream) != 0) {
        return oa_py_parse_failed("acl.rt.launch_callback");
    }
    if (!PyCallable_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "acl.rt.launch_callback: argument 1 must be callable");
        return NULL;
    }
    py_callback *cb = PyMem_RawMalloc(sizeof(*cb));
    if (cb == NULL) {
        return PyErr_NoMemory();
    }
    cb->fn = args[0];
    cb->arg = args[1];
    Py_INCREF(cb->fn);
    Py_INCREF(cb->arg);
    PyThreadState *ts = PyEval_SaveThread();
    const aclError ret = aclrtLaunchCallback(callback_trampoline, cb, (aclrtCallbackBlockType)block, stream);
    PyEval_RestoreThread(ts);
    if (ret != ACL_SUCCESS) { /* never queued: it will not run */
        Py_DECREF(cb->fn);
        Py_DECREF(cb->arg);
        PyMem_RawFree(cb);
    }
    return PyLong_FromLong(ret);
}

/* ---- set_exception_info_callback ---- */

static PyObject *g_exception_fn; /* owned; NULL: none */

static void exception_trampoline(aclrtExceptionInfo *info)
{
    if (!Py_IsInitialized()) {
        return;
    }
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *fn = g_exception_fn;
    if (fn != NULL) {
        Py_INCREF(fn);
        PyObject *r = PyObject_CallFunction(fn, "K", (unsigned long long)(uintptr_t)info);
        if (r == NULL) { /* pyACL drops a callback that raised */
            PyErr_WriteUnraisable(fn);
            if (g_exception_fn == fn) {
                Py_CLEAR(g_exception_fn);
            }
        }
        Py_XDECREF(r);
        Py_DECREF(fn);
    }
    PyGILState_Release(g);
}

/* set_exception_info_callback([fn | None]) -> ret */
static PyObject *w_set_exception_info_callback(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    PyObject *fn = nargs == 1 ? args[0] : Py_None;
    if (nargs > 1 || (fn != Py_None && !PyCallable_Check(fn))) {
        return oa_py_parse_failed("acl.rt.set_exception_info_callback");
    }
    const aclError ret = aclrtSetExceptionInfoCallback(fn == Py_None ? NULL : exception_trampoline);
    if (ret == ACL_SUCCESS) {
        Py_XINCREF(fn == Py_None ? NULL : fn);
        PyObject *old = g_exception_fn;
        g_exception_fn = fn == Py_None ? NULL : fn;
        Py_XDECREF(old);
    }
    return PyLong_FromLong(ret);
}

/* get_primary_ctx_state(device_id) -> (active, flags, ret) (pyACL's order) */
static PyObject *w_get_primary_ctx_state(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    int32_t dev = 0, active = 0;
    uint32_t flags = 0;
    if (nargs != 1 || oa_in_I32(args[0], &dev) != 0) {
        return oa_py_parse_failed("acl.rt.get_primary_ctx_state");
    }
    const aclError ret = aclrtGetPrimaryCtxState(dev, &flags, &active);
    return Py_BuildValue("iIi", active, flags, ret);
}

/* get_device_utilization_rate(device_id) -> (dict, ret) */
static PyObject *w_get_device_utilization_rate(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    int32_t dev = 0;
    if (nargs != 1 || oa_in_I32(args[0], &dev) != 0) {
        return oa_py_parse_failed("acl.rt.get_device_utilization_rate");
    }
    aclrtUtilizationInfo u;
    memset(&u, 0, sizeof u);
    const aclError ret = aclrtGetDeviceUtilizationRate(dev, &u);
    return Py_BuildValue("{s:i,s:i,s:i,s:i,s:K}i", "cube_utilization", u.cubeUtilization, "vector_utilization",
                         u.vectorUtilization, "aicpu_utilization", u.aicpuUtilization, "memory_utilization",
                         u.memoryUtilization, "utilization_extend",
                         (unsigned long long)(uintptr_t)u.utilizationExtend, ret);
}

/* device_get_uuid(device_id) -> ({"bytes": [16 ints]}, ret) */
static PyObject *w_device_get_uuid(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    int32_t dev = 0;
    if (nargs != 1 || oa_in_I32(args[0], &dev) != 0) {
        return oa_py_parse_failed("acl.rt.device_get_uuid");
    }
    aclrtUuid u;
    memset(&u, 0, sizeof u);
    const aclError ret = aclrtDeviceGetUuid(dev, &u);
    PyObject *l = PyList_New(16);
    for (int i = 0; l != NULL && i < 16; ++i) {
        PyList_SET_ITEM(l, i, PyLong_FromLong((long)(unsigned char)u.bytes[i]));
    }
    if (l == NULL) {
        return NULL;
    }
    return Py_BuildValue("{s:N}i", "bytes", l, ret);
}

static PyMethodDef g_methods[] = {
    RT_TABLE(OA_METHOD){"launch_callback", OA_FASTCALL(w_launch_callback), METH_FASTCALL, NULL},
    {"set_exception_info_callback", OA_FASTCALL(w_set_exception_info_callback), METH_FASTCALL, NULL},
    {"get_primary_ctx_state", OA_FASTCALL(w_get_primary_ctx_state), METH_FASTCALL, NULL},
    {"get_device_utilization_rate", OA_FASTCALL(w_get_device_utilization_rate), METH_FASTCALL, NULL},
    {"device_get_uuid", OA_FASTCALL(w_device_get_uuid), METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL},
};

PyMethodDef *oa_py_rt_methods(void)
{
    return g_methods;
}

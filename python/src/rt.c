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

#include "acl/acl_rt_allocator.h"
#include "pyacl.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define OA_MOD "acl.rt"

/* allocator descriptors and stream config handles are plain heap objects in C: tracked */
enum { OA_HK_ALDESC = 200, OA_HK_STCFG };
OA_HANDLE_KIND(ALDESC, aclrtAllocatorDesc, (oa_py_hkind)OA_HK_ALDESC)
OA_HANDLE_KIND(STCFG, aclrtStreamConfigHandle *, (oa_py_hkind)OA_HK_STCFG)

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
    X("create_stream_config_handle", GIL, H_STCFG, aclrtCreateStreamConfigHandle, NOARGS)                              \
    X("destroy_stream_config_handle", GIL, ERR, aclrtDestroyStreamConfigHandle, (IN, D_STCFG))                         \
    X("create_stream_v2", NOGIL, ERR, aclrtCreateStreamV2, (OUT, PTR), (IN, H_STCFG))                                  \
    X("reduce_async", NOGIL, ERR, aclrtReduceAsync, (IN, PTR), (IN, PTR), (IN, U64), (IN, I32), (IN, I32), (IN, PTR),  \
      (IN, PTR))                                                                                                       \
    /* allocators (acl_rt_allocator.h); the functions are set by hand below */                                        \
    X("allocator_create_desc", GIL, H_ALDESC, aclrtAllocatorCreateDesc, NOARGS)                                        \
    X("allocator_destroy_desc", GIL, ERR, aclrtAllocatorDestroyDesc, (IN, D_ALDESC))                                   \
    X("allocator_set_obj_to_desc", GIL, ERR, aclrtAllocatorSetObjToDesc, (IN, H_ALDESC), (IN, PTR))                    \
    X("allocator_register", NOGIL, ERR, aclrtAllocatorRegister, (IN, PTR), (IN, H_ALDESC))                             \
    X("allocator_unregister", NOGIL, ERR, aclrtAllocatorUnregister, (IN, PTR))                                         \
    /* IPC memory */                                                                                                   \
    X("ipc_mem_import_by_key", GIL, ERR, aclrtIpcMemImportByKey, (OUT, PTR), (IN, STR), (IN, U64))                     \
    X("ipc_mem_close", GIL, ERR, aclrtIpcMemClose, (IN, STR))                                                          \
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
    X("host_register_v2", GIL, ERR, aclrtHostRegisterV2, (IN, PTR), (IN, U64), (IN, U32))                              \
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

/* ---- IPC memory and events ---- */

/* ipc_mem_get_export_key(dev_ptr, size, key_len, flags) -> (key, ret); key_len < 1024 as in pyACL */
static PyObject *w_ipc_mem_get_export_key(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    void *ptr = NULL;
    size_t size = 0, len = 0;
    uint64_t flags = 0;
    if (nargs != 4 || oa_in_PTR(args[0], &ptr) != 0 || oa_in_SZ(args[1], &size) != 0 ||
        oa_in_SZ(args[2], &len) != 0 || oa_in_U64(args[3], &flags) != 0) {
        return oa_py_parse_failed("acl.rt.ipc_mem_get_export_key");
    }
    if (len >= 1024) {
        PyErr_SetString(PyExc_ValueError, "acl.rt.ipc_mem_get_export_key: key len should be less than 1024");
        return NULL;
    }
    char key[1024];
    memset(key, 0, sizeof key);
    const aclError ret = aclrtIpcMemGetExportKey(ptr, size, key, len, flags);
    key[len] = '\0';
    return Py_BuildValue("si", key, ret);
}

/* ipc_mem_set_import_pid(key, [pid, ...]) -> ret */
static PyObject *w_ipc_mem_set_import_pid(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    const char *key = NULL;
    if (nargs != 2 || oa_in_STR(args[0], &key) != 0) {
        return oa_py_parse_failed("acl.rt.ipc_mem_set_import_pid");
    }
    if (!PyList_Check(args[1])) {
        PyErr_SetString(PyExc_ValueError, "acl.rt.ipc_mem_set_import_pid: argument 2 only support the format of list");
        return NULL;
    }
    int64_t *v = NULL;
    int n = 0;
    if (oa_py_i64_list(args[1], &v, &n) != 0) {
        PyErr_SetString(PyExc_ValueError, "acl.rt.ipc_mem_set_import_pid: the pids must be ints");
        return NULL;
    }
    int32_t *pids = PyMem_RawCalloc((size_t)n + 1, sizeof(*pids));
    int bad = pids == NULL;
    for (int i = 0; !bad && i < n; ++i) {
        bad = v[i] < INT32_MIN || v[i] > INT32_MAX;
        pids[i] = (int32_t)v[i];
    }
    free(v);
    if (bad) {
        PyMem_RawFree(pids);
        PyErr_SetString(PyExc_ValueError, "acl.rt.ipc_mem_set_import_pid: a pid is out of range");
        return NULL;
    }
    const aclError ret = aclrtIpcMemSetImportPid(key, n == 0 ? NULL : pids, (size_t)n);
    PyMem_RawFree(pids);
    return PyLong_FromLong(ret);
}

/* ipc_get_event_handle(event) -> (handle: bytes, ret) */
static PyObject *w_ipc_get_event_handle(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    void *ev = NULL;
    if (nargs != 1 || oa_in_PTR(args[0], &ev) != 0) {
        return oa_py_parse_failed("acl.rt.ipc_get_event_handle");
    }
    aclrtIpcEventHandle h;
    memset(&h, 0, sizeof h);
    const aclError ret = aclrtIpcGetEventHandle(ev, &h);
    return Py_BuildValue("y#i", h.reserved, (Py_ssize_t)sizeof h.reserved, ret);
}

/* ipc_open_event_handle(handle: bytes) -> (event, ret) */
static PyObject *w_ipc_open_event_handle(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 1 || !PyBytes_Check(args[0]) || PyBytes_GET_SIZE(args[0]) != (Py_ssize_t)ACL_IPC_EVENT_HANDLE_SIZE) {
        return oa_py_parse_failed("acl.rt.ipc_open_event_handle");
    }
    aclrtIpcEventHandle h;
    memcpy(h.reserved, PyBytes_AS_STRING(args[0]), sizeof h.reserved);
    aclrtEvent ev = NULL;
    const aclError ret = aclrtIpcOpenEventHandle(h, &ev);
    return Py_BuildValue("Ki", (unsigned long long)(uintptr_t)ev, ret);
}

/* ---- stream attributes and config options ---- */

/* The member of aclrtStreamAttrValue an attribute uses, by pyACL's key (NULL: "reserved", 4 x uint32). */
static const char *stream_attr_key(int32_t attr)
{
    switch (attr) {
    case ACL_STREAM_ATTR_FAILURE_MODE:
        return "failureMode";
    case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
        return "overflowSwitch";
    case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
        return "userCustomTag";
    case ACL_STREAM_ATTR_CACHE_OP_INFO:
        return "cacheOpInfoSwitch";
    case ACL_STREAM_ATTR_PRIORITY:
        return "streamPriority";
    default:
        return NULL;
    }
}

/* set_stream_attribute(stream, attr, {key: value}) -> ret. pyACL's keys; attributes without one take
   {"reserved": [4 ints]} (accepted for every attribute, as pyACL reads it for the ones it does not name). */
static PyObject *w_set_stream_attribute(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    void *stream = NULL;
    int32_t attr = 0;
    if (nargs != 3 || oa_in_PTR(args[0], &stream) != 0 || oa_in_I32(args[1], &attr) != 0 || !PyDict_Check(args[2])) {
        return oa_py_parse_failed("acl.rt.set_stream_attribute");
    }
    aclrtStreamAttrValue v;
    memset(&v, 0, sizeof v);
    const char *key = stream_attr_key(attr);
    PyObject *o = key != NULL ? PyDict_GetItemString(args[2], key) : NULL;
    PyObject *rsv = PyDict_GetItemString(args[2], "reserved");
    uint64_t u = 0;
    if (o != NULL) {
        if (oa_py_u64_mask(o, &u) != 0) {
            return oa_py_parse_failed("acl.rt.set_stream_attribute");
        }
        if (attr == ACL_STREAM_ATTR_FAILURE_MODE) {
            v.failureMode = u;
        } else {
            v.reserve[0] = (uint32_t)u; /* every other member is the first uint32 */
        }
    } else if (rsv != NULL && PyList_Check(rsv) && PyList_GET_SIZE(rsv) == 4) {
        for (Py_ssize_t i = 0; i < 4; ++i) {
            if (oa_py_u64_mask(PyList_GET_ITEM(rsv, i), &u) != 0) {
                return oa_py_parse_failed("acl.rt.set_stream_attribute");
            }
            v.reserve[i] = (uint32_t)u;
        }
    } else {
        PyErr_Format(PyExc_KeyError, "acl.rt.set_stream_attribute: the value dict needs \"%s\"",
                     key != NULL ? key : "reserved");
        return NULL;
    }
    const aclError ret = aclrtSetStreamAttribute(stream, (aclrtStreamAttr)attr, &v);
    return PyLong_FromLong(ret);
}

/* get_stream_attribute(stream, attr) -> ({key: value, "reserved": [4 ints]}, ret) */
static PyObject *w_get_stream_attribute(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    void *stream = NULL;
    int32_t attr = 0;
    if (nargs != 2 || oa_in_PTR(args[0], &stream) != 0 || oa_in_I32(args[1], &attr) != 0) {
        return oa_py_parse_failed("acl.rt.get_stream_attribute");
    }
    aclrtStreamAttrValue v;
    memset(&v, 0, sizeof v);
    const aclError ret = aclrtGetStreamAttribute(stream, (aclrtStreamAttr)attr, &v);
    PyObject *d = PyDict_New();
    if (d == NULL) {
        return NULL;
    }
    if (ret == ACL_SUCCESS) {
        const char *key = stream_attr_key(attr);
        PyObject *val = key == NULL ? NULL
                        : attr == ACL_STREAM_ATTR_FAILURE_MODE
                            ? PyLong_FromUnsignedLongLong((unsigned long long)v.failureMode)
                            : PyLong_FromUnsignedLong((unsigned long)v.reserve[0]);
        PyObject *rsv = Py_BuildValue("[IIII]", v.reserve[0], v.reserve[1], v.reserve[2], v.reserve[3]);
        if ((key != NULL && (val == NULL || PyDict_SetItemString(d, key, val) != 0)) || rsv == NULL ||
            PyDict_SetItemString(d, "reserved", rsv) != 0) {
            Py_XDECREF(val);
            Py_XDECREF(rsv);
            Py_DECREF(d);
            return NULL;
        }
        Py_XDECREF(val);
        Py_DECREF(rsv);
    }
    return Py_BuildValue("Ni", d, ret);
}

/* set_stream_config_opt(handle, attr, value) -> ret: value in the attribute's C type (an address,
   a size, the flag, the priority), as acl.mdl.set_config_opt does. */
static PyObject *w_set_stream_config_opt(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    aclrtStreamConfigHandle *h = NULL;
    int32_t attr = 0;
    uint64_t u = 0;
    if (nargs != 3 || oa_in_I32(args[1], &attr) != 0 || oa_py_u64_mask(args[2], &u) != 0) {
        return oa_py_parse_failed("acl.rt.set_stream_config_opt");
    }
    const int st = oa_in_H_STCFG(args[0], &h);
    if (st < 0) {
        return oa_py_parse_failed("acl.rt.set_stream_config_opt");
    }
    if (st > 0) {
        return PyLong_FromLong(ACL_ERROR_INVALID_PARAM);
    }
    void *p = (void *)(uintptr_t)u;
    size_t z = (size_t)u;
    uint32_t w = (uint32_t)u;
    aclError ret;
    switch (attr) {
    case ACL_RT_STREAM_WORK_ADDR_PTR:
        ret = aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_ADDR_PTR, &p, sizeof p);
        break;
    case ACL_RT_STREAM_WORK_SIZE:
    case ACL_RT_STREAM_FLAG:
        ret = aclrtSetStreamConfigOpt(h, (aclrtStreamConfigAttr)attr, &z, sizeof z);
        break;
    default: /* the priority and unknown attributes (the library reports those) */
        ret = aclrtSetStreamConfigOpt(h, (aclrtStreamConfigAttr)attr, &w, sizeof w);
        break;
    }
    return PyLong_FromLong(ret);
}

/* ---- memory with a config, pointer attributes ---- */

/* cfg: {} (NULL) or {"numAttrs": n, "attrs": [{"attr": type, "value": v}, ...]} (pyACL's keys); v is an
   int or a dict with the union member's name ("moduleId", "deviceId", "vaFlag"). 0: no config (NULL),
   1: cfg filled (attrs to free), -1: error raised. */
static int malloc_cfg_from_dict(const char *qual, PyObject *d, aclrtMallocConfig *cfg, aclrtMallocAttribute **attrs)
{
    *attrs = NULL;
    if (!PyDict_Check(d)) {
        PyErr_Format(PyExc_TypeError, "%s: the config must be a dict", qual);
        return -1;
    }
    if (PyDict_Size(d) == 0) {
        return 0;
    }
    PyObject *n = PyDict_GetItemString(d, "numAttrs");
    PyObject *l = PyDict_GetItemString(d, "attrs");
    uint64_t num = 0;
    if (n == NULL || l == NULL || !PyList_Check(l) || oa_py_u64_mask(n, &num) != 0) {
        PyErr_Format(PyExc_KeyError, "%s: the config needs \"numAttrs\" and an \"attrs\" list", qual);
        return -1;
    }
    if ((uint64_t)PyList_GET_SIZE(l) != num) {
        PyErr_Format(PyExc_KeyError, "%s: numAttrs does not match the length of attrs", qual);
        return -1;
    }
    *attrs = PyMem_RawCalloc((size_t)num + 1, sizeof(**attrs));
    if (*attrs == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < (Py_ssize_t)num; ++i) {
        PyObject *e = PyList_GET_ITEM(l, i);
        PyObject *a = PyDict_Check(e) ? PyDict_GetItemString(e, "attr") : NULL;
        PyObject *v = PyDict_Check(e) ? PyDict_GetItemString(e, "value") : NULL;
        int64_t at = 0;
        uint64_t uv = 0;
        if (v != NULL && PyDict_Check(v)) {
            PyObject *m = PyDict_GetItemString(v, "moduleId");
            m = m != NULL ? m : PyDict_GetItemString(v, "deviceId");
            m = m != NULL ? m : PyDict_GetItemString(v, "vaFlag");
            v = m;
        }
        if (a == NULL || v == NULL || oa_py_i64_range(a, INT32_MIN, INT32_MAX, &at) != 0 ||
            oa_py_u64_mask(v, &uv) != 0) {
            PyErr_Format(PyExc_KeyError, "%s: attrs[%zd] must be {\"attr\": int, \"value\": int or dict}", qual, i);
            PyMem_RawFree(*attrs);
            *attrs = NULL;
            return -1;
        }
        (*attrs)[i].attr = (aclrtMallocAttrType)at;
        if (at == ACL_RT_MEM_ATTR_MODULE_ID) {
            (*attrs)[i].value.moduleId = (uint16_t)uv;
        } else {
            (*attrs)[i].value.deviceId = (uint32_t)uv; /* deviceId and vaFlag share the first uint32 */
        }
    }
    cfg->attrs = *attrs;
    cfg->numAttrs = (size_t)num;
    return 1;
}

enum { MWC_DEV, MWC_TASK, MWC_HOST };

static PyObject *malloc_with_cfg(const char *qual, int which, PyObject *const *args, Py_ssize_t nargs)
{
    const Py_ssize_t want = which == MWC_HOST ? 2 : 3;
    size_t size = 0;
    int32_t policy = 0;
    if (nargs != want) {
        return oa_py_parse_failed(qual);
    }
    const int sz = oa_in_LEN(args[0], &size);
    if (sz < 0 || (which != MWC_HOST && oa_in_I32(args[1], &policy) != 0)) {
        return oa_py_parse_failed(qual);
    }
    aclrtMallocConfig cfg = {NULL, 0};
    aclrtMallocAttribute *attrs = NULL;
    const int has = malloc_cfg_from_dict(qual, args[want - 1], &cfg, &attrs);
    if (has < 0) {
        return NULL;
    }
    void *p = NULL;
    aclError ret = ACL_ERROR_INVALID_PARAM;
    if (sz == 0) {
        aclrtMallocConfig *c = has > 0 ? &cfg : NULL;
        if (which == MWC_DEV) {
            ret = aclrtMallocWithCfg(&p, size, (aclrtMemMallocPolicy)policy, c);
        } else if (which == MWC_TASK) {
            ret = aclrtMallocForTaskScheduler(&p, size, (aclrtMemMallocPolicy)policy, c);
        } else {
            ret = aclrtMallocHostWithCfg(&p, (uint64_t)size, c);
        }
    }
    PyMem_RawFree(attrs);
    return Py_BuildValue("Ki", (unsigned long long)(uintptr_t)p, ret);
}

/* malloc_with_cfg(size, policy, cfg) / malloc_for_task_scheduler(size, policy, cfg) /
   malloc_host_with_cfg(size, cfg) -> (ptr, ret) */
static PyObject *w_malloc_with_cfg(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return malloc_with_cfg("acl.rt.malloc_with_cfg", MWC_DEV, args, nargs);
}
static PyObject *w_malloc_for_task_scheduler(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return malloc_with_cfg("acl.rt.malloc_for_task_scheduler", MWC_TASK, args, nargs);
}
static PyObject *w_malloc_host_with_cfg(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return malloc_with_cfg("acl.rt.malloc_host_with_cfg", MWC_HOST, args, nargs);
}

/* pointer_get_attributes(ptr) -> ({"location": {"id", "type"}, "page_size", "rsv": [4 ints]}, ret) */
static PyObject *w_pointer_get_attributes(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    void *ptr = NULL;
    if (nargs != 1 || oa_in_PTR(args[0], &ptr) != 0) {
        return oa_py_parse_failed("acl.rt.pointer_get_attributes");
    }
    aclrtPtrAttributes a;
    memset(&a, 0, sizeof a);
    const aclError ret = aclrtPointerGetAttributes(ptr, &a);
    return Py_BuildValue("{s:{s:I,s:I},s:I,s:[IIII]}i", "location", "id", a.location.id, "type",
                         (unsigned int)a.location.type, "page_size", a.pageSize, "rsv", a.rsv[0], a.rsv[1], a.rsv[2],
                         a.rsv[3], ret);
}

/* ---- allocator functions: Python callables (one of each kind for the process, as in pyACL) ---- */

enum { AL_ALLOC, AL_FREE, AL_ADVISE, AL_ADDR, AL_N };
static PyObject *g_alloc_fn[AL_N];

/* Calls the registered callable with the GIL; its int result is the returned pointer (None/error: NULL). */
static void *alloc_call(int which, PyObject *callargs)
{
    void *out = NULL;
    PyObject *fn = g_alloc_fn[which];
    if (callargs == NULL || fn == NULL) {
        Py_XDECREF(callargs);
        PyErr_Clear();
        return NULL;
    }
    Py_INCREF(fn);
    PyObject *r = PyObject_CallObject(fn, callargs);
    Py_DECREF(callargs);
    if (r == NULL) {
        PyErr_WriteUnraisable(fn);
    } else if (r != Py_None) {
        uint64_t u = 0;
        if (oa_py_u64_mask(r, &u) == 0) {
            out = (void *)(uintptr_t)u;
        } else {
            PyErr_Clear();
        }
    }
    Py_XDECREF(r);
    Py_DECREF(fn);
    return out;
}

static void *al_alloc(aclrtAllocator a, size_t size)
{
    if (!Py_IsInitialized()) {
        return NULL;
    }
    PyGILState_STATE g = PyGILState_Ensure();
    void *r = alloc_call(AL_ALLOC, Py_BuildValue("(Kn)", (unsigned long long)(uintptr_t)a, (Py_ssize_t)size));
    PyGILState_Release(g);
    return r;
}
static void al_free(aclrtAllocator a, aclrtAllocatorBlock b)
{
    if (!Py_IsInitialized()) {
        return;
    }
    PyGILState_STATE g = PyGILState_Ensure();
    (void)alloc_call(AL_FREE,
                     Py_BuildValue("(KK)", (unsigned long long)(uintptr_t)a, (unsigned long long)(uintptr_t)b));
    PyGILState_Release(g);
}
static void *al_advise(aclrtAllocator a, size_t size, aclrtAllocatorAddr addr)
{
    if (!Py_IsInitialized()) {
        return NULL;
    }
    PyGILState_STATE g = PyGILState_Ensure();
    void *r = alloc_call(AL_ADVISE, Py_BuildValue("(KnK)", (unsigned long long)(uintptr_t)a, (Py_ssize_t)size,
                                                  (unsigned long long)(uintptr_t)addr));
    PyGILState_Release(g);
    return r;
}
static void *al_addr(aclrtAllocatorBlock b)
{
    if (!Py_IsInitialized()) {
        return NULL;
    }
    PyGILState_STATE g = PyGILState_Ensure();
    void *r = alloc_call(AL_ADDR, Py_BuildValue("(K)", (unsigned long long)(uintptr_t)b));
    PyGILState_Release(g);
    return r;
}

static PyObject *allocator_set(const char *qual, int which, PyObject *const *args, Py_ssize_t nargs)
{
    aclrtAllocatorDesc d = NULL;
    if (nargs != 2) {
        return oa_py_parse_failed(qual);
    }
    const int st = oa_in_H_ALDESC(args[0], &d);
    if (st < 0 || !PyCallable_Check(args[1])) {
        return oa_py_parse_failed(qual);
    }
    if (st > 0) {
        return PyLong_FromLong(ACL_ERROR_INVALID_PARAM);
    }
    aclError ret;
    switch (which) {
    case AL_ALLOC:
        ret = aclrtAllocatorSetAllocFuncToDesc(d, al_alloc);
        break;
    case AL_FREE:
        ret = aclrtAllocatorSetFreeFuncToDesc(d, al_free);
        break;
    case AL_ADVISE:
        ret = aclrtAllocatorSetAllocAdviseFuncToDesc(d, al_advise);
        break;
    default:
        ret = aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, al_addr);
        break;
    }
    if (ret == ACL_SUCCESS) {
        Py_INCREF(args[1]);
        Py_XSETREF(g_alloc_fn[which], args[1]);
    }
    return PyLong_FromLong(ret);
}

/* allocator_set_<kind>_func_to_desc(desc, fn) -> ret. fn(allocator, size) -> block,
   fn(allocator, block), fn(allocator, size, addr) -> block, fn(block) -> address. */
static PyObject *w_allocator_set_alloc(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return allocator_set("acl.rt.allocator_set_alloc_func_to_desc", AL_ALLOC, args, nargs);
}
static PyObject *w_allocator_set_free(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return allocator_set("acl.rt.allocator_set_free_func_to_desc", AL_FREE, args, nargs);
}
static PyObject *w_allocator_set_advise(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return allocator_set("acl.rt.allocator_set_alloc_advise_func_to_desc", AL_ADVISE, args, nargs);
}
static PyObject *w_allocator_set_addr(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return allocator_set("acl.rt.allocator_set_get_addr_from_block_func_to_desc", AL_ADDR, args, nargs);
}

static PyMethodDef g_methods[] = {
    RT_TABLE(OA_METHOD){"launch_callback", OA_FASTCALL(w_launch_callback), METH_FASTCALL, NULL},
    {"set_exception_info_callback", OA_FASTCALL(w_set_exception_info_callback), METH_FASTCALL, NULL},
    {"get_primary_ctx_state", OA_FASTCALL(w_get_primary_ctx_state), METH_FASTCALL, NULL},
    {"get_device_utilization_rate", OA_FASTCALL(w_get_device_utilization_rate), METH_FASTCALL, NULL},
    {"device_get_uuid", OA_FASTCALL(w_device_get_uuid), METH_FASTCALL, NULL},
    {"ipc_mem_get_export_key", OA_FASTCALL(w_ipc_mem_get_export_key), METH_FASTCALL, NULL},
    {"ipc_mem_set_import_pid", OA_FASTCALL(w_ipc_mem_set_import_pid), METH_FASTCALL, NULL},
    {"ipc_get_event_handle", OA_FASTCALL(w_ipc_get_event_handle), METH_FASTCALL, NULL},
    {"ipc_open_event_handle", OA_FASTCALL(w_ipc_open_event_handle), METH_FASTCALL, NULL},
    {"set_stream_attribute", OA_FASTCALL(w_set_stream_attribute), METH_FASTCALL, NULL},
    {"get_stream_attribute", OA_FASTCALL(w_get_stream_attribute), METH_FASTCALL, NULL},
    {"set_stream_config_opt", OA_FASTCALL(w_set_stream_config_opt), METH_FASTCALL, NULL},
    {"malloc_with_cfg", OA_FASTCALL(w_malloc_with_cfg), METH_FASTCALL, NULL},
    {"malloc_for_task_scheduler", OA_FASTCALL(w_malloc_for_task_scheduler), METH_FASTCALL, NULL},
    {"malloc_host_with_cfg", OA_FASTCALL(w_malloc_host_with_cfg), METH_FASTCALL, NULL},
    {"pointer_get_attributes", OA_FASTCALL(w_pointer_get_attributes), METH_FASTCALL, NULL},
    {"allocator_set_alloc_func_to_desc", OA_FASTCALL(w_allocator_set_alloc), METH_FASTCALL, NULL},
    {"allocator_set_free_func_to_desc", OA_FASTCALL(w_allocator_set_free), METH_FASTCALL, NULL},
    {"allocator_set_alloc_advise_func_to_desc", OA_FASTCALL(w_allocator_set_advise), METH_FASTCALL, NULL},
    {"allocator_set_get_addr_from_block_func_to_desc", OA_FASTCALL(w_allocator_set_addr), METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL},
};

PyMethodDef *oa_py_rt_methods(void)
{
    return g_methods;
}

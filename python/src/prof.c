/*
 * acl.prof: profiling (acl/acl_prof.h) with pyACL's names and argument
 * orders: init(path), create_config(device_ids: list, aicore_metrics,
 * aicore_events_address, data_type_config), start/stop(config), finalize(),
 * the op-subscription readers over a raw buffer, steps and msproftx stamps.
 * Profiling configs, subscribe configs, step infos and stamps are tracked
 * handles (pyacl.h).
 */
#include <stdlib.h>

#include "acl/acl_prof.h"
#include "pyacl.h"

#define OA_MOD "acl.prof"

enum { OA_HK_PCFG = 200, OA_HK_SUBCFG, OA_HK_STEP, OA_HK_STAMP };
OA_HANDLE_KIND(PCFG, aclprofConfig *, (oa_py_hkind)OA_HK_PCFG)
OA_HANDLE_KIND(SUBCFG, aclprofSubscribeConfig *, (oa_py_hkind)OA_HK_SUBCFG)
OA_HANDLE_KIND(STEP, aclprofStepInfo *, (oa_py_hkind)OA_HK_STEP)
OA_HANDLE_KIND(STAMP, void *, (oa_py_hkind)OA_HK_STAMP)
OA_SKIND(E_OPFLAG, aclprofSubscribeOpFlag, INT32_MIN, INT32_MAX)

#define PROF_TABLE(X, XV)                                                                                              \
    X("finalize", NOGIL, ERR, aclprofFinalize, NOARGS)                                                                 \
    X("destroy_config", GIL, ERR, aclprofDestroyConfig, (IN, D_PCFG))                                                  \
    X("start", NOGIL, ERR, aclprofStart, (IN, H_PCFG))                                                                 \
    X("stop", NOGIL, ERR, aclprofStop, (IN, H_PCFG))                                                                   \
    X("model_subscribe", NOGIL, ERR, aclprofModelSubscribe, (IN, U32), (IN, H_SUBCFG))                                 \
    X("model_unsubscribe", NOGIL, ERR, aclprofModelUnSubscribe, (IN, U32))                                             \
    X("destroy_subscribe_config", GIL, ERR, aclprofDestroySubscribeConfig, (IN, D_SUBCFG))                             \
    X("get_op_desc_size", GIL, ERR, aclprofGetOpDescSize, (OUT, SZ))                                                   \
    X("get_op_num", GIL, ERR, aclprofGetOpNum, (IN, PTR), (IN, LEN), (OUT, U32))                                       \
    X("get_op_type_len", GIL, ERR, aclprofGetOpTypeLen, (IN, PTR), (IN, LEN), (IN, U32), (OUT, SZ))                    \
    X("get_op_name_len", GIL, ERR, aclprofGetOpNameLen, (IN, PTR), (IN, LEN), (IN, U32), (OUT, SZ))                    \
    X("get_op_start", GIL, U64, aclprofGetOpStart, (IN, PTR), (IN, LEN), (IN, U32))                                    \
    X("get_op_end", GIL, U64, aclprofGetOpEnd, (IN, PTR), (IN, LEN), (IN, U32))                                        \
    X("get_op_duration", GIL, U64, aclprofGetOpDuration, (IN, PTR), (IN, LEN), (IN, U32))                              \
    X("get_model_id", GIL, SZ, aclprofGetModelId, (IN, PTR), (IN, LEN), (IN, U32))                                     \
    X("get_op_flag", GIL, E_OPFLAG, aclprofGetOpFlag, (IN, PTR), (IN, LEN), (IN, U32))                                 \
    X("get_op_attri_value", GIL, CSTR, aclprofGetOpAttriValue, (IN, PTR), (IN, LEN), (IN, U32), (IN, I32))             \
    X("create_step_info", GIL, H_STEP, aclprofCreateStepInfo, NOARGS)                                                  \
    XV("destroy_step_info", GIL, aclprofDestroyStepInfo, (IN, D_STEP))                                                 \
    X("get_step_timestamp", NOGIL, ERR, aclprofGetStepTimestamp, (IN, H_STEP), (IN, I32), (IN, PTR))                   \
    X("create_stamp", GIL, H_STAMP, aclprofCreateStamp, NOARGS)                                                        \
    XV("destroy_stamp", GIL, aclprofDestroyStamp, (IN, D_STAMP))                                                       \
    X("push", GIL, ERR, aclprofPush, (IN, H_STAMP))                                                                    \
    X("pop", GIL, ERR, aclprofPop, NOARGS)                                                                             \
    X("range_start", GIL, ERR, aclprofRangeStart, (IN, H_STAMP), (OUT, U32))                                           \
    X("range_stop", GIL, ERR, aclprofRangeStop, (IN, U32))                                                             \
    X("set_stamp_trace_message", GIL, ERR, aclprofSetStampTraceMessage, (IN, H_STAMP), (IN, STR), (IN, U32))           \
    X("mark", GIL, ERR, aclprofMark, (IN, H_STAMP))

PROF_TABLE(OA_DEFINE, OA_DEFINE_VOID)

/* init(result_path) -> ret */
static PyObject *w_init(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    const char *path = NULL;
    if (nargs != 1 || oa_in_STR(args[0], &path) != 0) {
        return oa_py_parse_failed("acl.prof.init");
    }
    return PyLong_FromLong(aclprofInit(path, strlen(path)));
}

/* set_config(config_type, config: str) -> ret */
static PyObject *w_set_config(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    int32_t type = 0;
    const char *config = NULL;
    if (nargs != 2 || oa_in_I32(args[0], &type) != 0 || oa_in_STR(args[1], &config) != 0) {
        return oa_py_parse_failed("acl.prof.set_config");
    }
    return PyLong_FromLong(aclprofSetConfig((aclprofConfigType)type, config, strlen(config)));
}

/* mark_ex(message, stream) -> ret */
static PyObject *w_mark_ex(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    const char *msg = NULL;
    void *stream = NULL;
    if (nargs != 2 || oa_in_STR(args[0], &msg) != 0 || oa_in_PTR(args[1], &stream) != 0) {
        return oa_py_parse_failed("acl.prof.mark_ex");
    }
    return PyLong_FromLong(aclprofMarkEx(msg, strlen(msg), stream));
}

/* create_config(device_ids: list, aicore_metrics, aicore_events, data_type_config) -> config */
static PyObject *w_create_config(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    int32_t metrics = 0;
    void *events = NULL;
    uint64_t types = 0;
    int64_t *ids = NULL;
    int n = 0;
    if (nargs != 4 || !PyList_Check(args[0]) || oa_in_I32(args[1], &metrics) != 0 ||
        oa_in_PTR(args[2], &events) != 0 || oa_in_U64(args[3], &types) != 0) {
        return oa_py_parse_failed("acl.prof.create_config");
    }
    const int st = oa_py_i64_list(args[0], &ids, &n);
    if (st == -2) {
        return NULL;
    }
    if (st != 0) {
        return oa_py_parse_failed("acl.prof.create_config");
    }
    uint32_t *dev = calloc((size_t)n + 1, sizeof(uint32_t));
    if (dev == NULL) {
        free(ids);
        return PyErr_NoMemory();
    }
    for (int i = 0; i < n; ++i) {
        dev[i] = (uint32_t)ids[i];
    }
    free(ids);
    aclprofConfig *c = aclprofCreateConfig(dev, (uint32_t)n, (aclprofAicoreMetrics)metrics,
                                           (const aclprofAicoreEvents *)events, types);
    free(dev);
    return oa_out_H_PCFG(c);
}

/* create_subscribe_config(time_info_switch, aicore_metrics, fd) -> config (the fd's storage outlives it) */
static PyObject *w_create_subscribe_config(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    int8_t time_info = 0;
    int32_t metrics = 0, fd = 0;
    if (nargs != 3 || oa_in_I8(args[0], &time_info) != 0 || oa_in_I32(args[1], &metrics) != 0 ||
        oa_in_I32(args[2], &fd) != 0) {
        return oa_py_parse_failed("acl.prof.create_subscribe_config");
    }
    int *slot = PyMem_RawMalloc(sizeof(int)); /* the library keeps the address; like pyACL, never freed */
    if (slot == NULL) {
        return PyErr_NoMemory();
    }
    *slot = fd;
    return oa_out_H_SUBCFG(aclprofCreateSubscribeConfig(time_info, (aclprofAicoreMetrics)metrics, slot));
}

typedef aclError (*len_fn)(const void *info, size_t len, uint32_t index, size_t *out);
typedef aclError (*str_fn)(const void *info, size_t len, uint32_t index, char *out, size_t cap);

/* get_op_type / get_op_name(info, info_len, index, cap) -> (str, ret); the _v2 forms ask the length first */
static PyObject *op_string(PyObject *const *args, Py_ssize_t nargs, const char *qual, int v2, len_fn lf, str_fn sf)
{
    void *info = NULL;
    size_t len = 0, cap = 0;
    uint32_t index = 0;
    if (nargs != (v2 ? 3 : 4) || oa_in_PTR(args[0], &info) != 0 || oa_in_LEN(args[1], &len) != 0 ||
        oa_in_U32(args[2], &index) != 0 || (!v2 && oa_in_LEN(args[3], &cap) != 0)) {
        return oa_py_parse_failed(qual);
    }
    if (v2) {
        const aclError ret = lf(info, len, index, &cap);
        if (ret != ACL_SUCCESS) {
            return Py_BuildValue("Oi", Py_None, ret);
        }
    }
    if (cap > 4096) { /* pyACL's limit */
        return Py_BuildValue("si", "", ACL_ERROR_INVALID_PARAM);
    }
    char buf[4097];
    memset(buf, 0, sizeof buf);
    const aclError ret = sf(info, len, index, buf, cap);
    buf[cap] = '\0';
    return Py_BuildValue("Ni", oa_py_cstr(buf), ret);
}

static PyObject *w_get_op_type(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return op_string(args, nargs, "acl.prof.get_op_type", 0, aclprofGetOpTypeLen, aclprofGetOpType);
}

static PyObject *w_get_op_name(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return op_string(args, nargs, "acl.prof.get_op_name", 0, aclprofGetOpNameLen, aclprofGetOpName);
}

static PyObject *w_get_op_type_v2(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return op_string(args, nargs, "acl.prof.get_op_type_v2", 1, aclprofGetOpTypeLen, aclprofGetOpType);
}

static PyObject *w_get_op_name_v2(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return op_string(args, nargs, "acl.prof.get_op_name_v2", 1, aclprofGetOpNameLen, aclprofGetOpName);
}

static PyMethodDef g_methods[] = {
    PROF_TABLE(OA_METHOD, OA_METHOD_VOID){"init", OA_FASTCALL(w_init), METH_FASTCALL, NULL},
    /* pyACL keeps its old misspelt name next to the right one */
    {"model_un_subscribe", OA_FASTCALL(OA_WRAPPER_NAME(aclprofModelUnSubscribe)), METH_FASTCALL, NULL},
    {"set_config", OA_FASTCALL(w_set_config), METH_FASTCALL, NULL},
    {"mark_ex", OA_FASTCALL(w_mark_ex), METH_FASTCALL, NULL},
    {"create_config", OA_FASTCALL(w_create_config), METH_FASTCALL, NULL},
    {"create_subscribe_config", OA_FASTCALL(w_create_subscribe_config), METH_FASTCALL, NULL},
    {"get_op_type", OA_FASTCALL(w_get_op_type), METH_FASTCALL, NULL},
    {"get_op_name", OA_FASTCALL(w_get_op_name), METH_FASTCALL, NULL},
    {"get_op_type_v2", OA_FASTCALL(w_get_op_type_v2), METH_FASTCALL, NULL},
    {"get_op_name_v2", OA_FASTCALL(w_get_op_name_v2), METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL},
};

PyMethodDef *oa_py_prof_methods(void)
{
    return g_methods;
}

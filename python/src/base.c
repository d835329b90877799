/*
 * Top-level functions of `acl`: init/finalize, versions, error messages,
 * data buffers and tensor descriptions (acl_base_rt.h, acl_base_mdl.h).
 */
#include <stdlib.h>

#include "pyacl.h"

/* aclrtGetVersion and aclsysGetCANNVersion are deprecated in C but part of pyACL's surface */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define OA_MOD "acl"

#define BASE_TABLE(X, XV)                                                                                              \
    X("finalize", NOGIL, ERR, aclFinalize, NOARGS)                                                                     \
    X("finalize_reference", NOGIL, ERR, aclFinalizeReference, (OUT, U64))                                              \
    X("get_version", GIL, ERR, aclrtGetVersion, (OUT, I32), (OUT, I32), (OUT, I32))                                    \
    X("get_soc_name", GIL, CSTR, aclrtGetSocName, NOARGS)                                                              \
    X("get_recent_err_msg", GIL, CSTR, aclGetRecentErrMsg, NOARGS)                                                     \
    X("float16_to_float", GIL, F32, aclFloat16ToFloat, (IN, U16))                                                      \
    X("float_to_float16", GIL, U16, aclFloatToFloat16, (IN, F32))                                                      \
    X("create_data_buffer", GIL, H_BUF, aclCreateDataBuffer, (IN, PTR), (IN, LEN))                                     \
    X("destroy_data_buffer", GIL, ERR, aclDestroyDataBuffer, (IN, D_BUF))                                              \
    X("update_data_buffer", GIL, ERR, aclUpdateDataBuffer, (IN, H_BUF), (IN, PTR), (IN, LEN))                          \
    X("get_data_buffer_addr", GIL, PTR, aclGetDataBufferAddr, (IN, H_BUF))                                             \
    X("get_data_buffer_size", GIL, U32, aclGetDataBufferSize, (IN, H_BUF))                                             \
    X("get_data_buffer_size_v2", GIL, SZ, aclGetDataBufferSizeV2, (IN, H_BUF))                                         \
    X("data_type_size", GIL, SZ, aclDataTypeSize, (IN, I32))                                                           \
    XV("destroy_tensor_desc", GIL, aclDestroyTensorDesc, (IN, D_TDESC))                                                \
    X("get_tensor_desc_type", GIL, E_DTYPE, aclGetTensorDescType, (IN, H_TDESC))                                       \
    X("get_tensor_desc_format", GIL, E_FORMAT, aclGetTensorDescFormat, (IN, H_TDESC))                                  \
    X("get_tensor_desc_size", GIL, SZ, aclGetTensorDescSize, (IN, H_TDESC))                                            \
    X("get_tensor_desc_element_count", GIL, SZ, aclGetTensorDescElementCount, (IN, H_TDESC))                           \
    X("get_tensor_desc_num_dims", GIL, SZ, aclGetTensorDescNumDims, (IN, H_TDESC))                                     \
    X("get_tensor_desc_dim", GIL, I64, aclGetTensorDescDim, (IN, H_TDESC), (IN, SZ))                                   \
    X("get_tensor_desc_dim_v2", GIL, ERR, aclGetTensorDescDimV2, (IN, H_TDESC), (IN, SZ), (OUT, I64))                  \
    X("get_tensor_desc_name", GIL, CSTR, aclGetTensorDescName, (IN, H_TDESC))                                          \
    XV("set_tensor_desc_name", GIL, aclSetTensorDescName, (IN, H_TDESC), (IN, STR))                                    \
    X("trans_tensor_desc_format", GIL, ERR, aclTransTensorDescFormat, (IN, H_TDESC), (IN, I32), (OUT, H_TDESC))        \
    X("set_tensor_storage_format", GIL, ERR, aclSetTensorStorageFormat, (IN, H_TDESC), (IN, I32))                      \
    X("set_tensor_format", GIL, ERR, aclSetTensorFormat, (IN, H_TDESC), (IN, I32))                                     \
    X("set_tensor_origin_format", GIL, ERR, aclSetTensorOriginFormat, (IN, H_TDESC), (IN, I32))                        \
    X("set_tensor_dynamic_input", GIL, ERR, aclSetTensorDynamicInput, (IN, H_TDESC), (IN, STR))                        \
    X("set_tensor_const", GIL, ERR, aclSetTensorConst, (IN, H_TDESC), (IN, PTR), (IN, LEN))                            \
    X("set_tensor_place_ment", GIL, ERR, aclSetTensorPlaceMent, (IN, H_TDESC), (IN, I32))                              \
    X("get_tensor_desc_address", GIL, PTR, aclGetTensorDescAddress, (IN, H_TDESC))                                     \
    X("get_cann_attribute", GIL, ERR, aclGetCannAttribute, (IN, I32), (OUT, I32))                                      \
    X("get_device_capability", GIL, ERR, aclGetDeviceCapability, (IN, U32), (IN, I32), (OUT, I64))

BASE_TABLE(OA_DEFINE, OA_DEFINE_VOID)

/* init([config_path]) -> ret */
static PyObject *w_init(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    const char *path = NULL;
    if (nargs > 1 || (nargs == 1 && oa_in_STRZ(args[0], &path) != 0)) {
        return oa_py_parse_failed("acl.init");
    }
    PyThreadState *ts = PyEval_SaveThread();
    const aclError ret = aclInit(path);
    PyEval_RestoreThread(ts);
    return PyLong_FromLong(ret);
}

/* create_tensor_desc(dtype, dims: list, format) -> desc */
static PyObject *w_create_tensor_desc(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    int32_t dtype = 0, format = 0;
    int64_t *dims = NULL;
    int n = 0;
    if (nargs != 3 || oa_in_I32(args[0], &dtype) != 0 || oa_in_I32(args[2], &format) != 0) {
        return oa_py_parse_failed("acl.create_tensor_desc");
    }
    const int st = oa_py_i64_list(args[1], &dims, &n);
    if (st == -2) {
        return NULL;
    }
    if (st != 0) {
        return oa_py_parse_failed("acl.create_tensor_desc");
    }
    aclTensorDesc *d = aclCreateTensorDesc((aclDataType)dtype, n, dims, (aclFormat)format);
    free(dims);
    return oa_out_H_TDESC(d);
}

typedef aclError (*shape_fn)(aclTensorDesc *desc, int numDims, const int64_t *dims);

static PyObject *set_shape(PyObject *const *args, Py_ssize_t nargs, const char *qual, shape_fn fn)
{
    aclTensorDesc *d = NULL;
    int64_t *dims = NULL;
    int n = 0;
    int stale = 0;
    if (nargs != 2 || (stale = oa_in_H_TDESC(args[0], &d)) < 0) {
        return oa_py_parse_failed(qual);
    }
    const int st = oa_py_i64_list(args[1], &dims, &n);
    if (st == -2) {
        return NULL;
    }
    if (st != 0) {
        return oa_py_parse_failed(qual);
    }
    const aclError ret = stale ? ACL_ERROR_INVALID_PARAM : fn(d, n, dims);
    free(dims);
    return PyLong_FromLong(ret);
}

static PyObject *w_set_tensor_shape(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return set_shape(args, nargs, "acl.set_tensor_shape", aclSetTensorShape);
}

static PyObject *w_set_tensor_storage_shape(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return set_shape(args, nargs, "acl.set_tensor_storage_shape", aclSetTensorStorageShape);
}

static PyObject *w_set_tensor_origin_shape(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return set_shape(args, nargs, "acl.set_tensor_origin_shape", aclSetTensorOriginShape);
}

typedef aclError (*range_fn)(aclTensorDesc *desc, size_t count, int64_t range[][2]);

/* set_tensor_shape_range / set_tensor_value_range(desc, [[lo, hi], ...]) -> ret */
static PyObject *set_range(PyObject *const *args, Py_ssize_t nargs, const char *qual, range_fn fn)
{
    aclTensorDesc *d = NULL;
    int stale = 0;
    if (nargs != 2 || (stale = oa_in_H_TDESC(args[0], &d)) < 0 || !PyList_Check(args[1])) {
        return oa_py_parse_failed(qual);
    }
    const Py_ssize_t n = PyList_GET_SIZE(args[1]);
    int64_t(*r)[2] = calloc((size_t)n + 1, sizeof(*r));
    if (r == NULL) {
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; ++i) {
        int64_t *pair = NULL;
        int m = 0;
        const int st = oa_py_i64_list(PyList_GET_ITEM(args[1], i), &pair, &m);
        if (st == -2) {
            free(r);
            return NULL;
        }
        if (st != 0 || m != 2) {
            free(pair);
            free(r);
            return oa_py_parse_failed(qual);
        }
        r[i][0] = pair[0];
        r[i][1] = pair[1];
        free(pair);
    }
    const aclError ret = stale ? ACL_ERROR_INVALID_PARAM : fn(d, (size_t)n, r);
    free(r);
    return PyLong_FromLong(ret);
}

static PyObject *w_set_tensor_shape_range(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return set_range(args, nargs, "acl.set_tensor_shape_range", aclSetTensorShapeRange);
}

static PyObject *w_set_tensor_value_range(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return set_range(args, nargs, "acl.set_tensor_value_range", aclSetTensorValueRange);
}

/* get_tensor_desc_dim_range(desc, index, n) -> (list | None, ret) */
static PyObject *w_get_tensor_desc_dim_range(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    aclTensorDesc *d = NULL;
    size_t index = 0, num = 0;
    int stale = 0;
    if (nargs != 3 || (stale = oa_in_H_TDESC(args[0], &d)) < 0 || oa_in_SZ(args[1], &index) != 0 ||
        oa_in_SZ(args[2], &num) != 0) {
        return oa_py_parse_failed("acl.get_tensor_desc_dim_range");
    }
    if (stale || num > 4096) { /* pyACL's limit */
        return Py_BuildValue("Oi", Py_None, ACL_ERROR_INVALID_PARAM);
    }
    int64_t *r = calloc(num + 1, sizeof(int64_t));
    if (r == NULL) {
        return PyErr_NoMemory();
    }
    const aclError ret = aclGetTensorDescDimRange(d, index, num, r);
    if (ret != ACL_SUCCESS) {
        free(r);
        return Py_BuildValue("Oi", Py_None, ret);
    }
    PyObject *l = PyList_New((Py_ssize_t)num);
    for (size_t i = 0; l != NULL && i < num; ++i) {
        PyObject *v = PyLong_FromLongLong(r[i]);
        if (v == NULL) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, (Py_ssize_t)i, v);
    }
    free(r);
    if (l == NULL) {
        return NULL;
    }
    return Py_BuildValue("Ni", l, ret);
}

/* get_tensor_desc_by_index(desc, index) -> desc (owned by the parent description) */
static PyObject *w_get_tensor_desc_by_index(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    aclTensorDesc *d = NULL;
    size_t index = 0;
    int stale = 0;
    if (nargs != 2 || (stale = oa_in_H_TDESC(args[0], &d)) < 0 || oa_in_SZ(args[1], &index) != 0) {
        return oa_py_parse_failed("acl.get_tensor_desc_by_index");
    }
    aclTensorDesc *e = stale ? NULL : aclGetTensorDescByIndex(d, index);
    if (e != NULL && e != d) {
        oa_py_h_add(e, OA_HK_TDESC, d);
    }
    return oa_py_ptr(e);
}

/* app_log(level, message) -> None */
static PyObject *w_app_log(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    int32_t level = 0;
    const char *msg = NULL;
    if (nargs != 2 || oa_in_I32(args[0], &level) != 0 || oa_in_STR(args[1], &msg) != 0) {
        return oa_py_parse_failed("acl.app_log");
    }
    aclAppLog((aclLogLevel)level, "python", "acl", 0, "%s", msg);
    Py_RETURN_NONE;
}

/* get_cann_attribute_list() -> (list, num, ret) */
static PyObject *w_get_cann_attribute_list(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    (void)args;
    if (nargs != 0) {
        return oa_py_parse_failed("acl.get_cann_attribute_list");
    }
    const aclCannAttr *list = NULL;
    size_t num = 0;
    const aclError ret = aclGetCannAttributeList(&list, &num);
    const size_t n = ret == ACL_SUCCESS && list != NULL ? num : 0;
    PyObject *l = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; l != NULL && i < n; ++i) {
        PyObject *v = PyLong_FromLong((long)list[i]);
        if (v == NULL) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, (Py_ssize_t)i, v);
    }
    if (l == NULL) {
        return NULL;
    }
    return Py_BuildValue("Nni", l, (Py_ssize_t)num, ret);
}

/* get_cann_version(package) -> (dict, ret) */
static PyObject *w_get_cann_version(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    uint32_t pkg = 0;
    if (nargs != 1 || oa_in_U32(args[0], &pkg) != 0) {
        return oa_py_parse_failed("acl.get_cann_version");
    }
    aclCANNPackageVersion v;
    memset(&v, 0, sizeof v);
    const aclError ret = aclsysGetCANNVersion((aclCANNPackageName)pkg, &v);
    v.version[sizeof v.version - 1] = '\0';
    v.majorVersion[sizeof v.majorVersion - 1] = '\0';
    v.minorVersion[sizeof v.minorVersion - 1] = '\0';
    v.releaseVersion[sizeof v.releaseVersion - 1] = '\0';
    v.patchVersion[sizeof v.patchVersion - 1] = '\0';
    v.reserved[sizeof v.reserved - 1] = '\0';
    return Py_BuildValue("{s:s,s:s,s:s,s:s,s:s,s:s}i", "version", v.version, "major_version", v.majorVersion,
                         "minor_version", v.minorVersion, "release_version", v.releaseVersion, "patch_version",
                         v.patchVersion, "reserved", v.reserved, ret);
}

/* get_version_str(package_name) -> (str, ret) */
static PyObject *w_get_version_str(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    const char *name = NULL;
    if (nargs != 1 || oa_in_STR(args[0], &name) != 0) {
        return oa_py_parse_failed("acl.get_version_str");
    }
    char pkg[ACL_PKG_VERSION_MAX_SIZE];
    char out[ACL_PKG_VERSION_MAX_SIZE];
    memset(out, 0, sizeof out);
    snprintf(pkg, sizeof pkg, "%s", name);
    const aclError ret = aclsysGetVersionStr(pkg, out);
    out[sizeof out - 1] = '\0';
    return Py_BuildValue("si", out, ret);
}

static PyMethodDef g_methods[] = {
    BASE_TABLE(OA_METHOD, OA_METHOD_VOID){"init", OA_FASTCALL(w_init), METH_FASTCALL, NULL},
    {"create_tensor_desc", OA_FASTCALL(w_create_tensor_desc), METH_FASTCALL, NULL},
    {"set_tensor_shape", OA_FASTCALL(w_set_tensor_shape), METH_FASTCALL, NULL},
    {"set_tensor_storage_shape", OA_FASTCALL(w_set_tensor_storage_shape), METH_FASTCALL, NULL},
    {"set_tensor_origin_shape", OA_FASTCALL(w_set_tensor_origin_shape), METH_FASTCALL, NULL},
    {"set_tensor_shape_range", OA_FASTCALL(w_set_tensor_shape_range), METH_FASTCALL, NULL},
    {"set_tensor_value_range", OA_FASTCALL(w_set_tensor_value_range), METH_FASTCALL, NULL},
    {"get_tensor_desc_dim_range", OA_FASTCALL(w_get_tensor_desc_dim_range), METH_FASTCALL, NULL},
    {"get_tensor_desc_by_index", OA_FASTCALL(w_get_tensor_desc_by_index), METH_FASTCALL, NULL},
    {"app_log", OA_FASTCALL(w_app_log), METH_FASTCALL, NULL},
    {"get_cann_attribute_list", OA_FASTCALL(w_get_cann_attribute_list), METH_FASTCALL, NULL},
    {"get_cann_version", OA_FASTCALL(w_get_cann_version), METH_FASTCALL, NULL},
    {"get_version_str", OA_FASTCALL(w_get_version_str), METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL},
};

PyMethodDef *oa_py_base_methods(void)
{
    return g_methods;
}

/*
 * acl.mdl: model loading, descriptions, datasets, execution, dynamic
 * shapes, AIPP and load configurations (acl_mdl.h).
 *
 * Loading and execution release the GIL (a Python serving loop on several
 * threads runs models concurrently). The execute functions refuse datasets
 * that are not live or hold a destroyed data buffer (ACL_ERROR_INVALID_PARAM)
 * instead of letting the library read freed memory.
 */
#include <stdlib.h>

#include "acl/acl_dump.h"
#include "pyacl.h"

#define OA_MOD "acl.mdl"

#define MDL_TABLE(X)                                                                                                   \
    X("load_from_file", NOGIL, ERR, aclmdlLoadFromFile, (IN, STR), (OUT, U32))                                         \
    X("load_from_mem", NOGIL, ERR, aclmdlLoadFromMem, (IN, PTR), (IN, LEN), (OUT, U32))                                \
    X("load_from_file_with_mem", NOGIL, ERR, aclmdlLoadFromFileWithMem, (IN, STR), (OUT, U32), (IN, PTR), (IN, LEN),   \
      (IN, PTR), (IN, LEN))                                                                                            \
    X("load_from_mem_with_mem", NOGIL, ERR, aclmdlLoadFromMemWithMem, (IN, PTR), (IN, LEN), (OUT, U32), (IN, PTR),     \
      (IN, LEN), (IN, PTR), (IN, LEN))                                                                                 \
    X("load_with_config", NOGIL, ERR, aclmdlLoadWithConfig, (IN, H_CFG), (OUT, U32))                                   \
    X("unload", NOGIL, ERR, aclmdlUnload, (IN, U32))                                                                   \
    X("query_size", NOGIL, ERR, aclmdlQuerySize, (IN, STR), (OUT, SZ), (OUT, SZ))                                      \
    X("query_size_from_mem", NOGIL, ERR, aclmdlQuerySizeFromMem, (IN, PTR), (IN, LEN), (OUT, SZ), (OUT, SZ))           \
    X("execute", NOGIL, ERR, aclmdlExecute, (IN, U32), (IN, XDS), (IN, XDS))                                           \
    X("execute_async", NOGIL, ERR, aclmdlExecuteAsync, (IN, U32), (IN, XDS), (IN, XDS), (IN, PTR))                     \
    X("execute_v2", NOGIL, ERR, aclmdlExecuteV2, (IN, U32), (IN, XDS), (IN, XDS), (IN, PTR), (IN, H_XCFG))             \
    X("execute_async_v2", NOGIL, ERR, aclmdlExecuteAsyncV2, (IN, U32), (IN, XDS), (IN, XDS), (IN, PTR), (IN, H_XCFG))  \
    X("create_dataset", GIL, H_DS, aclmdlCreateDataset, NOARGS)                                                        \
    X("destroy_dataset", GIL, ERR, aclmdlDestroyDataset, (IN, D_DS))                                                   \
    X("get_dataset_buffer", GIL, PTR, aclmdlGetDatasetBuffer, (IN, H_DS), (IN, SZ))                                    \
    X("get_dataset_num_buffers", GIL, SZ, aclmdlGetDatasetNumBuffers, (IN, H_DS))                                      \
    X("create_desc", GIL, H_MDESC, aclmdlCreateDesc, NOARGS)                                                           \
    X("destroy_desc", GIL, ERR, aclmdlDestroyDesc, (IN, D_MDESC))                                                      \
    X("get_desc", GIL, ERR, aclmdlGetDesc, (IN, H_MDESC), (IN, U32))                                                   \
    X("get_desc_from_file", NOGIL, ERR, aclmdlGetDescFromFile, (IN, H_MDESC), (IN, STR))                               \
    X("get_desc_from_mem", NOGIL, ERR, aclmdlGetDescFromMem, (IN, H_MDESC), (IN, PTR), (IN, LEN))                      \
    X("get_num_inputs", GIL, SZ, aclmdlGetNumInputs, (IN, H_MDESC))                                                    \
    X("get_num_outputs", GIL, SZ, aclmdlGetNumOutputs, (IN, H_MDESC))                                                  \
    X("get_input_size_by_index", GIL, SZ, aclmdlGetInputSizeByIndex, (IN, H_MDESC), (IN, SZ))                          \
    X("get_output_size_by_index", GIL, SZ, aclmdlGetOutputSizeByIndex, (IN, H_MDESC), (IN, SZ))                        \
    X("get_input_name_by_index", GIL, CSTR, aclmdlGetInputNameByIndex, (IN, H_MDESC), (IN, SZ))                        \
    X("get_output_name_by_index", GIL, CSTR, aclmdlGetOutputNameByIndex, (IN, H_MDESC), (IN, SZ))                      \
    X("get_input_format", GIL, E_FORMAT, aclmdlGetInputFormat, (IN, H_MDESC), (IN, SZ))                                \
    X("get_output_format", GIL, E_FORMAT, aclmdlGetOutputFormat, (IN, H_MDESC), (IN, SZ))                              \
    X("get_input_data_type", GIL, E_DTYPE, aclmdlGetInputDataType, (IN, H_MDESC), (IN, SZ))                            \
    X("get_output_data_type", GIL, E_DTYPE, aclmdlGetOutputDataType, (IN, H_MDESC), (IN, SZ))                          \
    X("get_input_index_by_name", GIL, ERR, aclmdlGetInputIndexByName, (IN, H_MDESC), (IN, STR), (OUT, SZ))             \
    X("get_output_index_by_name", GIL, ERR, aclmdlGetOutputIndexByName, (IN, H_MDESC), (IN, STR), (OUT, SZ))           \
    X("get_input_dynamic_gear_count", GIL, ERR, aclmdlGetInputDynamicGearCount, (IN, H_MDESC), (IN, SZ), (OUT, SZ))    \
    X("get_tensor_real_name", GIL, CSTR, aclmdlGetTensorRealName, (IN, H_MDESC), (IN, STR))                            \
    X("get_op_attr", GIL, CSTR, aclmdlGetOpAttr, (IN, H_MDESC), (IN, STR), (IN, STR))                                  \
    X("set_dynamic_batch_size", GIL, ERR, aclmdlSetDynamicBatchSize, (IN, U32), (IN, H_DS), (IN, SZ), (IN, U64))       \
    X("set_dynamic_hw_size", GIL, ERR, aclmdlSetDynamicHWSize, (IN, U32), (IN, H_DS), (IN, SZ), (IN, U64), (IN, U64))  \
    X("create_aipp", GIL, H_AIPP, aclmdlCreateAIPP, (IN, U64))                                                         \
    X("destroy_aipp", GIL, ERR, aclmdlDestroyAIPP, (IN, D_AIPP))                                                       \
    X("get_aipp_data_size", GIL, ERR, aclmdlGetAippDataSize, (IN, U64), (OUT, SZ))                                     \
    X("set_aipp_input_format", GIL, ERR, aclmdlSetAIPPInputFormat, (IN, H_AIPP), (IN, I32))                            \
    X("set_aipp_csc_params", GIL, ERR, aclmdlSetAIPPCscParams, (IN, H_AIPP), (IN, I8), (IN, I16), (IN, I16),           \
      (IN, I16), (IN, I16), (IN, I16), (IN, I16), (IN, I16), (IN, I16), (IN, I16), (IN, U8), (IN, U8), (IN, U8),       \
      (IN, U8), (IN, U8), (IN, U8))                                                                                    \
    X("set_aipp_rbuv_swap_switch", GIL, ERR, aclmdlSetAIPPRbuvSwapSwitch, (IN, H_AIPP), (IN, I8))                      \
    X("set_aipp_ax_swap_switch", GIL, ERR, aclmdlSetAIPPAxSwapSwitch, (IN, H_AIPP), (IN, I8))                          \
    X("set_aipp_src_image_size", GIL, ERR, aclmdlSetAIPPSrcImageSize, (IN, H_AIPP), (IN, I32), (IN, I32))              \
    X("set_aipp_scf_params", GIL, ERR, aclmdlSetAIPPScfParams, (IN, H_AIPP), (IN, I8), (IN, I32), (IN, I32),           \
      (IN, I32), (IN, I32), (IN, U64))                                                                                 \
    X("set_aipp_crop_params", GIL, ERR, aclmdlSetAIPPCropParams, (IN, H_AIPP), (IN, I8), (IN, I32), (IN, I32),         \
      (IN, I32), (IN, I32), (IN, U64))                                                                                 \
    X("set_aipp_padding_params", GIL, ERR, aclmdlSetAIPPPaddingParams, (IN, H_AIPP), (IN, I8), (IN, I32), (IN, I32),   \
      (IN, I32), (IN, I32), (IN, U64))                                                                                 \
    X("set_aipp_dtc_pixel_mean", GIL, ERR, aclmdlSetAIPPDtcPixelMean, (IN, H_AIPP), (IN, I16), (IN, I16), (IN, I16),   \
      (IN, I16), (IN, U64))                                                                                            \
    X("set_aipp_dtc_pixel_min", GIL, ERR, aclmdlSetAIPPDtcPixelMin, (IN, H_AIPP), (IN, F32), (IN, F32), (IN, F32),     \
      (IN, F32), (IN, U64))                                                                                            \
    X("set_aipp_pixel_var_reci", GIL, ERR, aclmdlSetAIPPPixelVarReci, (IN, H_AIPP), (IN, F32), (IN, F32), (IN, F32),   \
      (IN, F32), (IN, U64))                                                                                            \
    X("set_input_aipp", GIL, ERR, aclmdlSetInputAIPP, (IN, U32), (IN, H_DS), (IN, SZ), (IN, H_AIPP))                   \
    X("set_aipp_by_input_index", GIL, ERR, aclmdlSetAIPPByInputIndex, (IN, U32), (IN, H_DS), (IN, SZ), (IN, H_AIPP))   \
    X("get_aipp_type", GIL, ERR, aclmdlGetAippType, (IN, U32), (IN, SZ), (OUT, E_AIPPTYPE), (OUT, SZ))                 \
    X("create_config_handle", GIL, H_CFG, aclmdlCreateConfigHandle, NOARGS)                                            \
    X("destroy_config_handle", GIL, ERR, aclmdlDestroyConfigHandle, (IN, D_CFG))                                       \
    X("set_external_weight_address", GIL, ERR, aclmdlSetExternalWeightAddress, (IN, H_CFG), (IN, STR), (IN, PTR),      \
      (IN, LEN))                                                                                                       \
    X("create_exec_config_handle", GIL, H_XCFG, aclmdlCreateExecConfigHandle, NOARGS)                                  \
    X("destroy_exec_config_handle", GIL, ERR, aclmdlDestroyExecConfigHandle, (IN, D_XCFG))                             \
    X("bundle_load_from_file", NOGIL, ERR, aclmdlBundleLoadFromFile, (IN, STR), (OUT, U32))                            \
    X("bundle_load_from_mem", NOGIL, ERR, aclmdlBundleLoadFromMem, (IN, PTR), (IN, LEN), (OUT, U32))                   \
    X("bundle_unload", NOGIL, ERR, aclmdlBundleUnload, (IN, U32))                                                      \
    X("bundle_get_model_id", GIL, ERR, aclmdlBundleGetModelId, (IN, U32), (IN, SZ), (OUT, U32))                        \
    X("bundle_get_model_num", GIL, ERR, aclmdlBundleGetModelNum, (IN, U32), (OUT, SZ))                                 \
    X("init_dump", GIL, ERR, aclmdlInitDump, NOARGS)                                                                   \
    X("finalize_dump", GIL, ERR, aclmdlFinalizeDump, NOARGS)

MDL_TABLE(OA_DEFINE)

/* set_dump([path]) -> ret */
static PyObject *w_set_dump(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    const char *path = NULL;
    if (nargs > 1 || (nargs == 1 && oa_in_STRZ(args[0], &path) != 0)) {
        return oa_py_parse_failed("acl.mdl.set_dump");
    }
    return PyLong_FromLong(aclmdlSetDump(path));
}

/* add_dataset_buffer(ds, buf) -> (ds, ret) (pyACL echoes the dataset) */
static PyObject *w_add_dataset_buffer(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    aclmdlDataset *ds = NULL;
    aclDataBuffer *buf = NULL;
    int s1 = 0, s2 = 0;
    if (nargs != 2 || (s1 = oa_in_H_DS(args[0], &ds)) < 0 || (s2 = oa_in_H_BUF(args[1], &buf)) < 0) {
        return oa_py_parse_failed("acl.mdl.add_dataset_buffer");
    }
    const aclError ret = s1 || s2 ? ACL_ERROR_INVALID_PARAM : aclmdlAddDatasetBuffer(ds, buf);
    return Py_BuildValue("Ni", oa_py_ptr(ds), ret);
}

/* set_dataset_tensor_desc(ds, desc, index) -> (ds, ret) */
static PyObject *w_set_dataset_tensor_desc(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    aclmdlDataset *ds = NULL;
    aclTensorDesc *d = NULL;
    size_t index = 0;
    int s1 = 0, s2 = 0;
    if (nargs != 3 || (s1 = oa_in_H_DS(args[0], &ds)) < 0 || (s2 = oa_in_H_TDESC(args[1], &d)) < 0 ||
        oa_in_SZ(args[2], &index) != 0) {
        return oa_py_parse_failed("acl.mdl.set_dataset_tensor_desc");
    }
    aclError ret = ACL_ERROR_INVALID_PARAM;
    if (!s1 && !s2) {
        ret = aclmdlSetDatasetTensorDesc(ds, d, index);
        if (ret == ACL_SUCCESS) { /* the dataset's previous copy at index may be gone */
            oa_py_h_del_owned(ds);
        }
    }
    return Py_BuildValue("Ni", oa_py_ptr(ds), ret);
}

/* get_dataset_tensor_desc(ds, index) -> desc (the dataset's own copy) */
static PyObject *w_get_dataset_tensor_desc(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    aclmdlDataset *ds = NULL;
    size_t index = 0;
    int stale = 0;
    if (nargs != 2 || (stale = oa_in_H_DS(args[0], &ds)) < 0 || oa_in_SZ(args[1], &index) != 0) {
        return oa_py_parse_failed("acl.mdl.get_dataset_tensor_desc");
    }
    aclTensorDesc *d = stale ? NULL : aclmdlGetDatasetTensorDesc(ds, index);
    if (d != NULL) {
        oa_py_h_add(d, OA_HK_TDESC, ds);
    }
    return oa_py_ptr(d);
}

static PyObject *dims_dict(const aclmdlIODims *d)
{
    const size_t n = d->dimCount > ACL_MAX_DIM_CNT ? ACL_MAX_DIM_CNT : d->dimCount;
    PyObject *l = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; l != NULL && i < n; ++i) {
        PyObject *v = PyLong_FromLongLong(d->dims[i]);
        if (v == NULL) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, (Py_ssize_t)i, v);
    }
    if (l == NULL) {
        return NULL;
    }
    char name[ACL_MAX_TENSOR_NAME_LEN + 1];
    memcpy(name, d->name, ACL_MAX_TENSOR_NAME_LEN);
    name[ACL_MAX_TENSOR_NAME_LEN] = '\0';
    return Py_BuildValue("{s:N,s:n,s:N}", "name", oa_py_cstr(name), "dimCount", (Py_ssize_t)d->dimCount, "dims", l);
}

typedef aclError (*dims_fn)(const aclmdlDesc *desc, size_t index, aclmdlIODims *dims);

/* get_input_dims & co (desc, index) -> (dict{name, dimCount, dims}, ret); ({}, ret) on failure */
static PyObject *get_dims(PyObject *const *args, Py_ssize_t nargs, const char *qual, dims_fn fn)
{
    aclmdlDesc *desc = NULL;
    size_t index = 0;
    int stale = 0;
    if (nargs != 2 || (stale = oa_in_H_MDESC(args[0], &desc)) < 0 || oa_in_SZ(args[1], &index) != 0) {
        return oa_py_parse_failed(qual);
    }
    aclmdlIODims d;
    memset(&d, 0, sizeof d);
    const aclError ret = stale ? ACL_ERROR_INVALID_PARAM : fn(desc, index, &d);
    if (ret != ACL_SUCCESS) {
        return Py_BuildValue("{}i", ret);
    }
    PyObject *dict = dims_dict(&d);
    return dict == NULL ? NULL : Py_BuildValue("Ni", dict, ret);
}

static PyObject *w_get_input_dims(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return get_dims(args, nargs, "acl.mdl.get_input_dims", aclmdlGetInputDims);
}

static PyObject *w_get_input_dims_v2(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return get_dims(args, nargs, "acl.mdl.get_input_dims_v2", aclmdlGetInputDimsV2);
}

static PyObject *w_get_output_dims(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return get_dims(args, nargs, "acl.mdl.get_output_dims", aclmdlGetOutputDims);
}

static PyObject *w_get_cur_output_dims(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return get_dims(args, nargs, "acl.mdl.get_cur_output_dims", aclmdlGetCurOutputDims);
}

/* get_input_dims_range(desc, index) -> ({rangeCount, range: [[lo, hi], ...]}, ret) */
static PyObject *w_get_input_dims_range(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    aclmdlDesc *desc = NULL;
    size_t index = 0;
    int stale = 0;
    if (nargs != 2 || (stale = oa_in_H_MDESC(args[0], &desc)) < 0 || oa_in_SZ(args[1], &index) != 0) {
        return oa_py_parse_failed("acl.mdl.get_input_dims_range");
    }
    aclmdlIODimsRange r;
    memset(&r, 0, sizeof r);
    const aclError ret = stale ? ACL_ERROR_INVALID_PARAM : aclmdlGetInputDimsRange(desc, index, &r);
    const size_t n = ret != ACL_SUCCESS ? 0 : (r.rangeCount > ACL_MAX_DIM_CNT ? ACL_MAX_DIM_CNT : r.rangeCount);
    PyObject *l = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; l != NULL && i < n; ++i) {
        PyObject *p = Py_BuildValue("[LL]", (long long)r.range[i][0], (long long)r.range[i][1]);
        if (p == NULL) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, (Py_ssize_t)i, p);
    }
    if (l == NULL) {
        return NULL;
    }
    return Py_BuildValue("{s:n,s:N}i", "rangeCount", (Py_ssize_t)n, "range", l, ret);
}

/* get_dynamic_batch(desc) -> ({batchCount, batch: [...]}, ret) */
static PyObject *w_get_dynamic_batch(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    aclmdlDesc *desc = NULL;
    int stale = 0;
    if (nargs != 1 || (stale = oa_in_H_MDESC(args[0], &desc)) < 0) {
        return oa_py_parse_failed("acl.mdl.get_dynamic_batch");
    }
    aclmdlBatch b;
    memset(&b, 0, sizeof b);
    const aclError ret = stale ? ACL_ERROR_INVALID_PARAM : aclmdlGetDynamicBatch(desc, &b);
    if (ret != ACL_SUCCESS) {
        return Py_BuildValue("{}i", ret);
    }
    const size_t n = b.batchCount > ACL_MAX_BATCH_NUM ? ACL_MAX_BATCH_NUM : b.batchCount;
    PyObject *l = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; l != NULL && i < n; ++i) {
        PyList_SET_ITEM(l, (Py_ssize_t)i, PyLong_FromUnsignedLongLong(b.batch[i]));
    }
    if (l == NULL) {
        return NULL;
    }
    return Py_BuildValue("{s:n,s:N}i", "batchCount", (Py_ssize_t)b.batchCount, "batch", l, ret);
}

/* get_dynamic_hw(desc, index) -> ({hwCount, hw: [[h, w], ...]}, ret) */
static PyObject *w_get_dynamic_hw(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    aclmdlDesc *desc = NULL;
    size_t index = 0;
    int stale = 0;
    if (nargs != 2 || (stale = oa_in_H_MDESC(args[0], &desc)) < 0 || oa_in_SZ(args[1], &index) != 0) {
        return oa_py_parse_failed("acl.mdl.get_dynamic_hw");
    }
    aclmdlHW hw;
    memset(&hw, 0, sizeof hw);
    const aclError ret = stale ? ACL_ERROR_INVALID_PARAM : aclmdlGetDynamicHW(desc, index, &hw);
    if (ret != ACL_SUCCESS) {
        return Py_BuildValue("{}i", ret);
    }
    const size_t n = hw.hwCount > ACL_MAX_HW_NUM ? ACL_MAX_HW_NUM : hw.hwCount;
    PyObject *l = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; l != NULL && i < n; ++i) {
        PyObject *p = Py_BuildValue("[KK]", (unsigned long long)hw.hw[i][0], (unsigned long long)hw.hw[i][1]);
        if (p == NULL) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, (Py_ssize_t)i, p);
    }
    if (l == NULL) {
        return NULL;
    }
    return Py_BuildValue("{s:n,s:N}i", "hwCount", (Py_ssize_t)hw.hwCount, "hw", l, ret);
}

/* set_input_dynamic_dims(model_id, ds, index, {name?, dimCount, dims}) -> ret */
static PyObject *w_set_input_dynamic_dims(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    static const char qual[] = "acl.mdl.set_input_dynamic_dims";
    uint32_t id = 0;
    aclmdlDataset *ds = NULL;
    size_t index = 0;
    int stale = 0;
    if (nargs != 4 || oa_in_U32(args[0], &id) != 0 || (stale = oa_in_H_DS(args[1], &ds)) < 0 ||
        oa_in_SZ(args[2], &index) != 0 || !PyDict_Check(args[3])) {
        return oa_py_parse_failed(qual);
    }
    aclmdlIODims d;
    memset(&d, 0, sizeof d);
    PyObject *name = PyDict_GetItemString(args[3], "name");
    const char *s = NULL;
    if (name != NULL && oa_py_str(name, &s) == 0) {
        snprintf(d.name, sizeof d.name, "%s", s);
    }
    int64_t *dims = NULL;
    int n = 0;
    const int st = oa_py_i64_list(PyDict_GetItemString(args[3], "dims"), &dims, &n);
    if (st == -2) {
        return NULL;
    }
    if (st != 0) {
        return oa_py_parse_failed(qual);
    }
    size_t count = (size_t)n;
    PyObject *cnt = PyDict_GetItemString(args[3], "dimCount");
    if (cnt != NULL && oa_in_SZ(cnt, &count) != 0) {
        free(dims);
        return oa_py_parse_failed(qual);
    }
    aclError ret = ACL_ERROR_INVALID_PARAM;
    if (!stale && count <= (size_t)n && count <= ACL_MAX_DIM_CNT) {
        d.dimCount = count;
        memcpy(d.dims, dims, count * sizeof(int64_t));
        ret = aclmdlSetInputDynamicDims(id, ds, index, &d);
    }
    free(dims);
    return PyLong_FromLong(ret);
}

/* get_input_dynamic_dims(desc, index, gear_count) -> (list of dicts | None, ret) */
static PyObject *w_get_input_dynamic_dims(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    aclmdlDesc *desc = NULL;
    size_t index = 0, gears = 0;
    int stale = 0;
    if (nargs != 3 || (stale = oa_in_H_MDESC(args[0], &desc)) < 0 || oa_in_SZ(args[1], &index) != 0 ||
        oa_in_SZ(args[2], &gears) != 0) {
        return oa_py_parse_failed("acl.mdl.get_input_dynamic_dims");
    }
    if (stale || gears > 4096) { /* pyACL's limit */
        return Py_BuildValue("Oi", Py_None, ACL_ERROR_INVALID_PARAM);
    }
    aclmdlIODims *d = calloc(gears + 1, sizeof(*d));
    if (d == NULL) {
        return PyErr_NoMemory();
    }
    const aclError ret = aclmdlGetInputDynamicDims(desc, index, d, gears);
    const size_t n = ret == ACL_SUCCESS ? gears : 0;
    PyObject *l = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; l != NULL && i < n; ++i) {
        PyObject *e = dims_dict(&d[i]);
        if (e == NULL) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, (Py_ssize_t)i, e);
    }
    free(d);
    if (l == NULL) {
        return NULL;
    }
    return Py_BuildValue("Ni", l, ret);
}

/* get_first_aipp_info(model_id, index) -> (dict | None, ret) */
static PyObject *w_get_first_aipp_info(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    uint32_t id = 0;
    size_t index = 0;
    if (nargs != 2 || oa_in_U32(args[0], &id) != 0 || oa_in_SZ(args[1], &index) != 0) {
        return oa_py_parse_failed("acl.mdl.get_first_aipp_info");
    }
    aclAippInfo *a = calloc(1, sizeof(*a));
    if (a == NULL) {
        return PyErr_NoMemory();
    }
    const aclError ret = aclmdlGetFirstAippInfo(id, index, a);
    if (ret != ACL_SUCCESS) {
        free(a);
        return Py_BuildValue("Oi", Py_None, ret);
    }
    PyObject *d = Py_BuildValue(
        "{s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i}", "inputFormat",
        (int)a->inputFormat, "srcImageSizeW", a->srcImageSizeW, "srcImageSizeH", a->srcImageSizeH, "cropSwitch",
        a->cropSwitch, "loadStartPosW", a->loadStartPosW, "loadStartPosH", a->loadStartPosH, "cropSizeW", a->cropSizeW,
        "cropSizeH", a->cropSizeH, "resizeSwitch", a->resizeSwitch, "resizeOutputW", a->resizeOutputW,
        "resizeOutputH", a->resizeOutputH, "paddingSwitch", a->paddingSwitch, "leftPaddingSize", a->leftPaddingSize,
        "rightPaddingSize", a->rightPaddingSize, "topPaddingSize", a->topPaddingSize, "bottomPaddingSize",
        a->bottomPaddingSize, "cscSwitch", a->cscSwitch, "rbuvSwapSwitch", a->rbuvSwapSwitch, "axSwapSwitch",
        a->axSwapSwitch, "singleLineMode", a->singleLineMode, "srcFormat", (int)a->srcFormat, "srcDatatype",
        (int)a->srcDatatype);
    PyObject *more = d == NULL ? NULL
                               : Py_BuildValue("{s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,"
                                               "s:i,s:i,s:i,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:n,s:n}",
                                               "matrixR0C0", a->matrixR0C0, "matrixR0C1", a->matrixR0C1, "matrixR0C2",
                                               a->matrixR0C2, "matrixR1C0", a->matrixR1C0, "matrixR1C1", a->matrixR1C1,
                                               "matrixR1C2", a->matrixR1C2, "matrixR2C0", a->matrixR2C0, "matrixR2C1",
                                               a->matrixR2C1, "matrixR2C2", a->matrixR2C2, "outputBias0",
                                               a->outputBias0, "outputBias1", a->outputBias1, "outputBias2",
                                               a->outputBias2, "inputBias0", a->inputBias0, "inputBias1", a->inputBias1,
                                               "inputBias2", a->inputBias2, "meanChn0", a->meanChn0, "meanChn1",
                                               a->meanChn1, "meanChn2", a->meanChn2, "meanChn3", a->meanChn3, "minChn0",
                                               (double)a->minChn0, "minChn1", (double)a->minChn1, "minChn2",
                                               (double)a->minChn2, "minChn3", (double)a->minChn3, "varReciChn0",
                                               (double)a->varReciChn0, "varReciChn1", (double)a->varReciChn1,
                                               "varReciChn2", (double)a->varReciChn2, "varReciChn3",
                                               (double)a->varReciChn3, "srcDimNum", (Py_ssize_t)a->srcDimNum,
                                               "shapeCount", (Py_ssize_t)a->shapeCount);
    free(a);
    if (more == NULL || PyDict_Update(d, more) != 0) {
        Py_XDECREF(d);
        Py_XDECREF(more);
        return NULL;
    }
    Py_DECREF(more);
    return Py_BuildValue("Ni", d, ret);
}

/* set_config_opt(handle, attr, value) -> ret: the value's C type follows the attribute, as in pyACL */
static PyObject *w_set_config_opt(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    static const char qual[] = "acl.mdl.set_config_opt";
    aclmdlConfigHandle *h = NULL;
    int32_t attr = 0;
    int stale = 0;
    if (nargs != 3 || (stale = oa_in_H_CFG(args[0], &h)) < 0 || oa_in_I32(args[1], &attr) != 0) {
        return oa_py_parse_failed(qual);
    }
    aclError ret = ACL_ERROR_INVALID_PARAM;
    switch ((aclmdlConfigAttr)attr) {
    case ACL_MDL_PRIORITY_INT32:
    case ACL_MDL_WITHOUT_GRAPH_INT32: {
        int32_t v = 0;
        if (oa_in_I32(args[2], &v) != 0) {
            return oa_py_parse_failed(qual);
        }
        if (!stale) {
            ret = aclmdlSetConfigOpt(h, (aclmdlConfigAttr)attr, &v, sizeof v);
        }
        break;
    }
    case ACL_MDL_PATH_PTR:
    case ACL_MDL_WEIGHT_PATH_PTR: { /* a path: pyACL takes a str (the weight path also as an address) */
        const char *s = NULL;
        void *p = NULL;
        if (oa_in_STR(args[2], &s) != 0) {
            if (oa_in_PTR(args[2], &p) != 0) {
                return oa_py_parse_failed(qual);
            }
            s = p;
        }
        if (!stale) {
            ret = aclmdlSetConfigOpt(h, (aclmdlConfigAttr)attr, &s, sizeof s);
        }
        break;
    }
    case ACL_MDL_MEM_ADDR_PTR:
    case ACL_MDL_WEIGHT_ADDR_PTR:
    case ACL_MDL_WORKSPACE_ADDR_PTR:
    case ACL_MDL_INPUTQ_ADDR_PTR:
    case ACL_MDL_OUTPUTQ_ADDR_PTR: {
        void *p = NULL;
        if (oa_in_PTR(args[2], &p) != 0) {
            return oa_py_parse_failed(qual);
        }
        if (!stale) {
            ret = aclmdlSetConfigOpt(h, (aclmdlConfigAttr)attr, &p, sizeof p);
        }
        break;
    }
    default: {
        size_t v = 0;
        if (oa_in_SZ(args[2], &v) != 0) {
            return oa_py_parse_failed(qual);
        }
        if (!stale) {
            ret = aclmdlSetConfigOpt(h, (aclmdlConfigAttr)attr, &v, sizeof v);
        }
        break;
    }
    }
    return PyLong_FromLong(ret);
}

/* set_exec_config_opt(handle, attr, value) -> ret */
static PyObject *w_set_exec_config_opt(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    static const char qual[] = "acl.mdl.set_exec_config_opt";
    aclmdlExecConfigHandle *h = NULL;
    int32_t attr = 0;
    int stale = 0;
    if (nargs != 3 || (stale = oa_in_H_XCFG(args[0], &h)) < 0 || oa_in_I32(args[1], &attr) != 0) {
        return oa_py_parse_failed(qual);
    }
    aclError ret = ACL_ERROR_INVALID_PARAM;
    if (attr == ACL_MDL_WORK_ADDR_PTR) {
        void *p = NULL;
        if (oa_in_PTR(args[2], &p) != 0) {
            return oa_py_parse_failed(qual);
        }
        if (!stale) {
            ret = aclmdlSetExecConfigOpt(h, (aclmdlExecConfigAttr)attr, &p, sizeof p);
        }
    } else if (attr == ACL_MDL_STREAM_SYNC_TIMEOUT || attr == ACL_MDL_EVENT_SYNC_TIMEOUT ||
               attr == ACL_MDL_EXEC_PRIORITY_INT32) {
        int32_t v = 0;
        if (oa_in_I32(args[2], &v) != 0) {
            return oa_py_parse_failed(qual);
        }
        if (!stale) {
            ret = aclmdlSetExecConfigOpt(h, (aclmdlExecConfigAttr)attr, &v, sizeof v);
        }
    } else {
        size_t v = 0;
        if (oa_in_SZ(args[2], &v) != 0) {
            return oa_py_parse_failed(qual);
        }
        if (!stale) {
            ret = aclmdlSetExecConfigOpt(h, (aclmdlExecConfigAttr)attr, &v, sizeof v);
        }
    }
    return PyLong_FromLong(ret);
}

/* ---- dump callbacks (acl_dump.h): one Python callable for the process, as in pyACL ---- */

static PyObject *g_dump_fn; /* owned; NULL: none */

/* Called by the library for each chunk of dump output, from the thread that produces it: fn({"file_name",
   "data_buf" (address, valid during the call), "buf_len", "is_last_chunk", "offset", "flag"}). Its result
   is ignored; an exception is printed and the chunk reported as failed (-1). */
static int32_t dump_trampoline(const acldumpChunk *chunk, int32_t len)
{
    (void)len;
    if (chunk == NULL || !Py_IsInitialized()) {
        return -1;
    }
    PyGILState_STATE g = PyGILState_Ensure();
    int32_t rc = -1;
    PyObject *fn = g_dump_fn;
    if (fn != NULL) {
        Py_INCREF(fn);
        PyObject *d = Py_BuildValue("{s:N,s:K,s:I,s:I,s:L,s:i}", "file_name", oa_py_cstr(chunk->fileName), "data_buf",
                                    (unsigned long long)(uintptr_t)chunk->dataBuf, "buf_len", chunk->bufLen,
                                    "is_last_chunk", chunk->isLastChunk, "offset", (long long)chunk->offset, "flag",
                                    chunk->flag);
        PyObject *r = d != NULL ? PyObject_CallOneArg(fn, d) : NULL;
        if (r == NULL) {
            PyErr_WriteUnraisable(fn);
        } else {
            rc = 0;
        }
        Py_XDECREF(r);
        Py_XDECREF(d);
        Py_DECREF(fn);
    }
    PyGILState_Release(g);
    return rc;
}

/* dump_reg_callback(fn, flag) -> ret */
static PyObject *w_dump_reg_callback(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    int32_t flag = 0;
    if (nargs != 2 || oa_in_I32(args[1], &flag) != 0) {
        return oa_py_parse_failed("acl.mdl.dump_reg_callback");
    }
    if (!PyCallable_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "acl.mdl.dump_reg_callback: argument 1 must be callable");
        return NULL;
    }
    const aclError ret = acldumpRegCallback(dump_trampoline, flag);
    if (ret == ACL_SUCCESS) {
        Py_INCREF(args[0]);
        Py_XSETREF(g_dump_fn, args[0]);
    }
    return PyLong_FromLong(ret);
}

/* dump_unreg_callback() -> None */
static PyObject *w_dump_unreg_callback(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    (void)args;
    if (nargs != 0) {
        return oa_py_parse_failed("acl.mdl.dump_unreg_callback");
    }
    PyThreadState *ts = PyEval_SaveThread(); /* a dump in flight may be waiting for this GIL */
    acldumpUnregCallback();
    PyEval_RestoreThread(ts);
    Py_CLEAR(g_dump_fn);
    Py_RETURN_NONE;
}

static PyMethodDef g_methods[] = {
    MDL_TABLE(OA_METHOD){"set_dump", OA_FASTCALL(w_set_dump), METH_FASTCALL, NULL},
    {"add_dataset_buffer", OA_FASTCALL(w_add_dataset_buffer), METH_FASTCALL, NULL},
    {"set_dataset_tensor_desc", OA_FASTCALL(w_set_dataset_tensor_desc), METH_FASTCALL, NULL},
    {"get_dataset_tensor_desc", OA_FASTCALL(w_get_dataset_tensor_desc), METH_FASTCALL, NULL},
    {"get_input_dims", OA_FASTCALL(w_get_input_dims), METH_FASTCALL, NULL},
    {"get_input_dims_v2", OA_FASTCALL(w_get_input_dims_v2), METH_FASTCALL, NULL},
    {"get_output_dims", OA_FASTCALL(w_get_output_dims), METH_FASTCALL, NULL},
    {"get_cur_output_dims", OA_FASTCALL(w_get_cur_output_dims), METH_FASTCALL, NULL},
    {"get_input_dims_range", OA_FASTCALL(w_get_input_dims_range), METH_FASTCALL, NULL},
    {"get_dynamic_batch", OA_FASTCALL(w_get_dynamic_batch), METH_FASTCALL, NULL},
    {"get_dynamic_hw", OA_FASTCALL(w_get_dynamic_hw), METH_FASTCALL, NULL},
    {"set_input_dynamic_dims", OA_FASTCALL(w_set_input_dynamic_dims), METH_FASTCALL, NULL},
    {"get_input_dynamic_dims", OA_FASTCALL(w_get_input_dynamic_dims), METH_FASTCALL, NULL},
    {"get_first_aipp_info", OA_FASTCALL(w_get_first_aipp_info), METH_FASTCALL, NULL},
    {"set_config_opt", OA_FASTCALL(w_set_config_opt), METH_FASTCALL, NULL},
    {"set_exec_config_opt", OA_FASTCALL(w_set_exec_config_opt), METH_FASTCALL, NULL},
    {"dump_reg_callback", OA_FASTCALL(w_dump_reg_callback), METH_FASTCALL, NULL},
    {"dump_unreg_callback", OA_FASTCALL(w_dump_unreg_callback), METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL},
};

PyMethodDef *oa_py_mdl_methods(void)
{
    return g_methods;
}

/*
 * acl_op.h entry points: attributes, model registration, execution,
 * handles, Cast, shape inference, the cache limit.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl_base/data_buffer.h"
#include "acl_op/op_internal.h"
#include "acl_op/op_load.h"
#include "base/acl_check.h"
#include "base/log.h"
#include "base/util.h"
#include "graph/arena.h"
#include "graph/op.h"
#include "prof/prof_internal.h"

/* ======================================================================
 * Shared checks and execution
 * ====================================================================== */

oa_status oa_aclop_check_ptrs(int n, const void *const *arr, const char *what)
{
    if (n == 0) {
        return OA_OK;
    }
    if (arr == NULL) {
        return OA_FAIL(OA_E_PARAM, "parameter [%s] must not be null", what);
    }
    for (int i = 0; i < n; ++i) {
        if (arr[i] == NULL) {
            return OA_FAIL(OA_E_PARAM, "parameter [%s] element %d must not be null", what, i);
        }
    }
    return OA_OK;
}

oa_status oa_aclop_check_buffers(int n, const aclDataBuffer *const *arr, const char *what)
{
    oa_status st = oa_aclop_check_ptrs(n, (const void *const *)arr, what);
    for (int i = 0; i < n && st == OA_OK; ++i) {
        if (arr[i]->data == NULL && arr[i]->length > 0) {
            st = OA_FAIL(OA_E_PARAM, "[Check][data]data of %s element at index[%d] is null while its size %llu is "
                                     "larger than 0",
                         what, i, (unsigned long long)arr[i]->length);
        }
    }
    return st;
}

bool oa_aclop_all_outputs_empty(int n, const aclTensorDesc *const *d)
{
    if (n == 0) {
        return false;
    }
    for (int i = 0; i < n; ++i) {
        bool zero = false;
        for (size_t k = 0; k < d[i]->dim_count && !zero; ++k) {
            zero = d[i]->dims[k] == 0;
        }
        if (!zero) {
            return false;
        }
    }
    return true;
}

bool oa_aclop_has_host_mem(int n, const aclTensorDesc *const *d)
{
    for (int i = 0; i < n; ++i) {
        if (!d[i]->is_const &&
            (d[i]->mem_type == ACL_MEMTYPE_HOST || d[i]->mem_type == ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT)) {
            return true;
        }
    }
    return false;
}

static oa_status refresh_outputs(const oa_opexec *e, const oa_opreq *req, oa_op_refresh refresh)
{
    if (refresh == OA_OP_REFRESH_NONE) {
        return OA_OK;
    }
    for (int k = 0; k < req->n_out; ++k) {
        const int64_t *dims;
        size_t nd;
        oa_opexec_output_dims(e, k, &dims, &nd);
        aclTensorDesc *d = (aclTensorDesc *)(uintptr_t)req->out[k];
        const oa_status st = oa_tensor_desc_set_dims(d, nd, dims);
        if (st != OA_OK) {
            return st;
        }
    }
    return OA_OK;
}

oa_status oa_aclop_run_model(oa_opmodel *m, const oa_opreq *req, aclDataBuffer *const *outputs, aclrtStream stream,
                             oa_op_refresh refresh)
{
    oa_opexec *e = NULL;
    oa_status st = oa_opmodel_get_exec(m, req, &e);
    if (st == OA_OK) {
        st = oa_opexec_submit(e, req->n_in, req->in_buf, req->n_out, outputs, stream);
    }
    if (st == OA_OK) {
        st = refresh_outputs(e, req, refresh);
    }
    oa_opexec_unref(e);
    return st;
}

static oa_status aclop_execute(const oa_opreq *req, aclDataBuffer *const *outputs, aclrtStream stream,
                               oa_op_refresh refresh);

oa_status oa_aclop_execute(const oa_opreq *req, aclDataBuffer *const *outputs, aclrtStream stream,
                           oa_op_refresh refresh)
{
    const uint64_t t0 = oa_prof_api_begin(); /* ACL_PROF_ACL_API span */
    const oa_status st = aclop_execute(req, outputs, stream, refresh);
    oa_prof_api_end(refresh == OA_OP_REFRESH_NONE ? "aclopExecute" : "aclopExecuteV2", t0);
    return st;
}

static oa_status aclop_execute(const oa_opreq *req, aclDataBuffer *const *outputs, aclrtStream stream,
                               oa_op_refresh refresh)
{
    if (oa_aclop_has_selector(req->type)) {
        /* CANN tries the user's device kernel first and falls back to the op models when that fails;
         * a device kernel binary cannot run on the CPU, so the fallback is all there is */
        OA_LOGW("op %s has a registered kernel selector; device kernels cannot run on the CPU, using the "
                "single-op models",
                req->type);
    }
    oa_opmodel *m = NULL;
    oa_status st = oa_opcache_match(req, true, &m);
    if (st == OA_OK) {
        st = oa_aclop_run_model(m, req, outputs, stream, refresh);
    }
    oa_opmodel_unref(m);
    return st;
}

/* ======================================================================
 * Attributes
 * ====================================================================== */

ACL_FUNC_VISIBILITY aclopAttr *aclopCreateAttr(void)
{
    aclopAttr *a = oa_opattr_create();
    if (a == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "[Check][Attr]opAttr memory apply failed");
    }
    return a;
}

ACL_FUNC_VISIBILITY void aclopDestroyAttr(const aclopAttr *attr)
{
    oa_opattr_destroy((aclopAttr *)(uintptr_t)attr);
}

#define ATTR_CHECKS(attr, name)                                                                     \
    ACL_REQUIRE_NOT_NULL(attr);                                                                     \
    ACL_REQUIRE_NOT_NULL(name)

ACL_FUNC_VISIBILITY aclError aclopSetAttrBool(aclopAttr *attr, const char *attrName, uint8_t attrValue)
{
    ATTR_CHECKS(attr, attrName);
    ACL_RETURN_STATUS(oa_opattr_set_bool(attr, attrName, attrValue != 0));
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrInt(aclopAttr *attr, const char *attrName, int64_t attrValue)
{
    ATTR_CHECKS(attr, attrName);
    ACL_RETURN_STATUS(oa_opattr_set_int(attr, attrName, attrValue));
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrFloat(aclopAttr *attr, const char *attrName, float attrValue)
{
    ATTR_CHECKS(attr, attrName);
    ACL_RETURN_STATUS(oa_opattr_set_float(attr, attrName, attrValue));
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrString(aclopAttr *attr, const char *attrName, const char *attrValue)
{
    ACL_REQUIRE_NOT_NULL(attr);
    ACL_REQUIRE_NOT_NULL(attrValue);
    ACL_REQUIRE_NOT_NULL(attrName);
    ACL_RETURN_STATUS(oa_opattr_set_string(attr, attrName, attrValue));
}

static int32_t ge_dtype(aclDataType dt)
{
    return dt == ACL_DT_UNDEFINED ? OA_GE_DT_UNDEFINED : (int32_t)dt;
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrDataType(aclopAttr *attr, const char *attrName, aclDataType attrValue)
{
    ATTR_CHECKS(attr, attrName);
    ACL_RETURN_STATUS(oa_opattr_set_dtype(attr, attrName, ge_dtype(attrValue)));
}

/* CANN copies max(numValues, 0) values: a negative count sets an empty list. */
static size_t list_count(int n)
{
    return n > 0 ? (size_t)n : 0;
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrListDataType(aclopAttr *attr, const char *attrName, int numValues,
                                                      const aclDataType values[])
{
    ATTR_CHECKS(attr, attrName);
    if (numValues > 0) {
        ACL_REQUIRE_NOT_NULL(values);
    }
    const size_t n = list_count(numValues);
    int32_t *v = calloc(n ? n : 1, sizeof(int32_t));
    ACL_REQUIRE(v != NULL, OA_E_NOMEM, "attribute [%s]", attrName);
    for (size_t i = 0; i < n; ++i) {
        v[i] = ge_dtype(values[i]);
    }
    const oa_status st = oa_opattr_set_list_dtype(attr, attrName, n, v);
    free(v);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrListBool(aclopAttr *attr, const char *attrName, int numValues,
                                                  const uint8_t *values)
{
    ATTR_CHECKS(attr, attrName);
    if (numValues > 0) {
        ACL_REQUIRE_NOT_NULL(values);
    }
    const size_t n = list_count(numValues);
    bool *v = calloc(n ? n : 1, sizeof(bool));
    ACL_REQUIRE(v != NULL, OA_E_NOMEM, "attribute [%s]", attrName);
    for (size_t i = 0; i < n; ++i) {
        v[i] = values[i] != 0;
    }
    const oa_status st = oa_opattr_set_list_bool(attr, attrName, n, v);
    free(v);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrListInt(aclopAttr *attr, const char *attrName, int numValues,
                                                 const int64_t *values)
{
    ATTR_CHECKS(attr, attrName);
    if (numValues > 0) {
        ACL_REQUIRE_NOT_NULL(values);
    }
    ACL_RETURN_STATUS(oa_opattr_set_list_int(attr, attrName, list_count(numValues), values));
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrListFloat(aclopAttr *attr, const char *attrName, int numValues,
                                                   const float *values)
{
    ATTR_CHECKS(attr, attrName);
    if (numValues > 0) {
        ACL_REQUIRE_NOT_NULL(values);
    }
    ACL_RETURN_STATUS(oa_opattr_set_list_float(attr, attrName, list_count(numValues), values));
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrListString(aclopAttr *attr, const char *attrName, int numValues,
                                                    const char **values)
{
    ACL_REQUIRE_NOT_NULL(attr);
    if (numValues != 0) {
        ACL_REQUIRE_NOT_NULL(values);
    }
    for (int i = 0; i < numValues; ++i) {
        ACL_REQUIRE(values[i] != NULL, OA_E_PARAM, "parameter [values] element %d must not be null", i);
    }
    ACL_REQUIRE_NOT_NULL(attrName);
    ACL_RETURN_STATUS(oa_opattr_set_list_string(attr, attrName, list_count(numValues), values));
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrListListInt(aclopAttr *attr, const char *attrName, int numLists,
                                                     const int *numValues, const int64_t *const values[])
{
    ATTR_CHECKS(attr, attrName);
    ACL_REQUIRE_NOT_NULL(numValues);
    if (numLists != 0) {
        ACL_REQUIRE_NOT_NULL(values);
    }
    for (int i = 0; i < numLists; ++i) {
        ACL_REQUIRE(values[i] != NULL, OA_E_PARAM, "parameter [values] element %d must not be null", i);
    }
    const size_t n = list_count(numLists);
    size_t *lens = calloc(n ? n : 1, sizeof(size_t));
    ACL_REQUIRE(lens != NULL, OA_E_NOMEM, "attribute [%s]", attrName);
    for (size_t i = 0; i < n; ++i) {
        lens[i] = list_count(numValues[i]);
    }
    const oa_status st = oa_opattr_set_list_list_int(attr, attrName, n, lens, values);
    free(lens);
    ACL_RETURN_STATUS(st);
}

/* ======================================================================
 * Models
 * ====================================================================== */

static pthread_mutex_t g_dir_mu = PTHREAD_MUTEX_INITIALIZER;
static bool g_dir_done;

ACL_FUNC_VISIBILITY aclError aclopSetModelDir(const char *modelDir)
{
    ACL_REQUIRE_NOT_NULL(modelDir);
    char *real = realpath(modelDir, NULL);
    ACL_REQUIRE(real != NULL, OA_E_READ_MODEL, "[Check][modelDir]path %s is invalid, errMessage is %s.", modelDir,
                strerror(errno));
    pthread_mutex_lock(&g_dir_mu);
    if (g_dir_done) {
        pthread_mutex_unlock(&g_dir_mu);
        free(real);
        return oa_status_to_acl(OA_FAIL(OA_E_REPEAT_INIT, "[Check][InitFlag]repeatedly set model dir."));
    }
    size_t loaded = 0;
    const oa_status st = oa_opmodel_load_dir(real, &loaded);
    if (st == OA_OK) {
        g_dir_done = true;
        if (loaded == 0) {
            OA_LOGW("No model is loaded from %s.", real);
        }
    }
    pthread_mutex_unlock(&g_dir_mu);
    free(real);
    ACL_RETURN_STATUS(st);
}

void oa_aclop_reset_model_dir_for_tests(void)
{
    pthread_mutex_lock(&g_dir_mu);
    g_dir_done = false;
    pthread_mutex_unlock(&g_dir_mu);
}

ACL_FUNC_VISIBILITY aclError aclopLoad(const void *model, size_t modelSize)
{
    ACL_REQUIRE_NOT_NULL(model);
    ACL_REQUIRE(modelSize > 0, OA_E_PARAM, "[Check][ModelSize]the value of modelSize[%zu] can't be zero", modelSize);
    char name[64];
    snprintf(name, sizeof name, "memory:%p", model);
    oa_opmodel *m = NULL;
    oa_status st = oa_opmodel_parse(model, modelSize, name, &m);
    if (st == OA_OK) {
        st = oa_opcache_register(m, true, NULL);
    }
    oa_opmodel_unref(m);
    ACL_RETURN_STATUS(st);
}

/* ======================================================================
 * Execution
 * ====================================================================== */

static oa_status check_exec_args(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                                 int numOutputs, const aclTensorDesc *const outputDesc[])
{
    if (opType == NULL) {
        return OA_FAIL(OA_E_PARAM, "parameter [opType] must not be null");
    }
    if (numInputs < 0 || numOutputs < 0) {
        return OA_FAIL(OA_E_PARAM, "numInputs [%d] and numOutputs [%d] must not be negative", numInputs, numOutputs);
    }
    oa_status st = oa_aclop_check_ptrs(numInputs, (const void *const *)inputDesc, "inputDesc");
    if (st == OA_OK) {
        st = oa_aclop_check_ptrs(numOutputs, (const void *const *)outputDesc, "outputDesc");
    }
    return st;
}

ACL_FUNC_VISIBILITY aclError aclopExecute(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                                          const aclDataBuffer *const inputs[], int numOutputs,
                                          const aclTensorDesc *const outputDesc[], aclDataBuffer *const outputs[],
                                          const aclopAttr *attr, aclrtStream stream)
{
    oa_status st = check_exec_args(opType, numInputs, inputDesc, numOutputs, outputDesc);
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    if (oa_aclop_all_outputs_empty(numOutputs, outputDesc)) {
        OA_LOGI("all output tensor are empty");
        return ACL_SUCCESS;
    }
    st = oa_aclop_check_ptrs(numInputs, (const void *const *)inputs, "inputs");
    if (st == OA_OK) {
        st = oa_aclop_check_ptrs(numOutputs, (const void *const *)outputs, "outputs");
    }
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    const oa_opreq req = {.type = opType, .n_in = numInputs, .n_out = numOutputs, .in = inputDesc,
                          .out = outputDesc, .in_buf = inputs, .out_buf = (const aclDataBuffer *const *)outputs,
                          .attr = attr};
    ACL_RETURN_STATUS(oa_aclop_execute(&req, outputs, stream, OA_OP_REFRESH_NONE));
}

ACL_FUNC_VISIBILITY aclError aclopExecuteV2(const char *opType, int numInputs, aclTensorDesc *inputDesc[],
                                            aclDataBuffer *inputs[], int numOutputs, aclTensorDesc *outputDesc[],
                                            aclDataBuffer *outputs[], aclopAttr *attr, aclrtStream stream)
{
    oa_status st = check_exec_args(opType, numInputs, (const aclTensorDesc *const *)inputDesc, numOutputs,
                                   (const aclTensorDesc *const *)outputDesc);
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    if (oa_aclop_all_outputs_empty(numOutputs, (const aclTensorDesc *const *)outputDesc)) {
        OA_LOGI("all output tensor are empty");
        return ACL_SUCCESS;
    }
    st = oa_aclop_check_buffers(numInputs, (const aclDataBuffer *const *)inputs, "inputs");
    if (st == OA_OK) {
        st = oa_aclop_check_buffers(numOutputs, (const aclDataBuffer *const *)outputs, "outputs");
    }
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    const oa_opreq req = {.type = opType, .n_in = numInputs, .n_out = numOutputs,
                          .in = (const aclTensorDesc *const *)inputDesc,
                          .out = (const aclTensorDesc *const *)outputDesc,
                          .in_buf = (const aclDataBuffer *const *)inputs,
                          .out_buf = (const aclDataBuffer *const *)outputs, .attr = attr};
    ACL_RETURN_STATUS(oa_aclop_execute(&req, outputs, stream, OA_OP_REFRESH_SHAPE));
}

/* ======================================================================
 * Handles
 * ====================================================================== */

struct aclopHandle {
    int n_in, n_out;
    oa_opmodel *model;
    oa_opexec *exec;
};

static oa_status create_handle(const oa_opreq *req, aclopHandle **handle)
{
    oa_opmodel *m = NULL;
    oa_status st = oa_opcache_match(req, true, &m);
    oa_opexec *e = NULL;
    if (st == OA_OK) {
        st = oa_opmodel_get_exec(m, req, &e);
    }
    aclopHandle *h = NULL;
    if (st == OA_OK) {
        h = calloc(1, sizeof(*h));
        if (h == NULL) {
            st = OA_FAIL(OA_E_NOMEM, "op handle");
        }
    }
    if (st != OA_OK) {
        oa_opexec_unref(e);
        oa_opmodel_unref(m);
        return st;
    }
    h->n_in = req->n_in;
    h->n_out = req->n_out;
    h->model = m;
    h->exec = e;
    *handle = h;
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclopCreateHandle(const char *opType, int numInputs,
                                               const aclTensorDesc *const inputDesc[], int numOutputs,
                                               const aclTensorDesc *const outputDesc[], const aclopAttr *opAttr,
                                               aclopHandle **handle)
{
    ACL_REQUIRE_NOT_NULL(opType);
    ACL_REQUIRE_NOT_NULL(handle);
    oa_status st = check_exec_args(opType, numInputs, inputDesc, numOutputs, outputDesc);
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    ACL_REQUIRE(!oa_aclop_has_host_mem(numInputs, inputDesc), OA_E_NOT_SUPPORTED,
                "[Check][HostMemTensorDesc]aclopCreateHandle: ACL_MEMTYPE_HOST or ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT "
                "placement in inputDesc is not supported");
    ACL_REQUIRE(!oa_aclop_has_host_mem(numOutputs, outputDesc), OA_E_NOT_SUPPORTED,
                "[Check][HostMemTensorDesc]aclopCreateHandle: ACL_MEMTYPE_HOST or "
                "ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT placement in outputDesc is not supported");
    if (oa_aclop_has_selector(opType)) {
        OA_LOGW("op %s has a registered kernel selector; device kernels cannot run on the CPU, the handle uses the "
                "single-op models",
                opType);
    }
    const oa_opreq req = {.type = opType, .n_in = numInputs, .n_out = numOutputs, .in = inputDesc,
                          .out = outputDesc, .attr = opAttr};
    ACL_RETURN_STATUS(create_handle(&req, handle));
}

ACL_FUNC_VISIBILITY void aclopDestroyHandle(aclopHandle *handle)
{
    if (handle == NULL) {
        return;
    }
    oa_opexec_unref(handle->exec);
    oa_opmodel_unref(handle->model);
    free(handle);
}

ACL_FUNC_VISIBILITY aclError aclopExecWithHandle(aclopHandle *handle, int numInputs,
                                                 const aclDataBuffer *const inputs[], int numOutputs,
                                                 aclDataBuffer *const outputs[], aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(handle);
    ACL_REQUIRE(numInputs >= 0, OA_E_PARAM, "numInputs [%d] must not be negative", numInputs);
    ACL_REQUIRE(numOutputs >= 0, OA_E_PARAM, "numOutputs [%d] must not be negative", numOutputs);
    oa_status st = oa_aclop_check_ptrs(numInputs, (const void *const *)inputs, "inputs");
    if (st == OA_OK) {
        st = oa_aclop_check_ptrs(numOutputs, (const void *const *)outputs, "outputs");
    }
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    if (numOutputs > 0) {
        bool all_empty = true;
        for (int i = 0; i < numOutputs && all_empty; ++i) {
            all_empty = outputs[i]->length == 0;
        }
        if (all_empty) {
            OA_LOGI("all output tensor are empty");
            return ACL_SUCCESS;
        }
    }
    ACL_REQUIRE(numInputs == handle->n_in, OA_E_OP_INPUT_NOT_MATCH, "[Check][NumInputs]input num mismatch: expect %d, but %d",
                handle->n_in, numInputs);
    ACL_REQUIRE(numOutputs == handle->n_out, OA_E_OP_OUTPUT_NOT_MATCH,
                "[Check][NumOutputs]output num mismatch: expect %d, but %d", handle->n_out, numOutputs);
    ACL_RETURN_STATUS(oa_opexec_submit(handle->exec, numInputs, inputs, numOutputs, outputs, stream));
}

/* ======================================================================
 * Cast
 * ====================================================================== */

static oa_status cast_attr(const aclTensorDesc *dst, uint8_t truncate, aclopAttr **out)
{
    aclopAttr *a = oa_opattr_create();
    if (a == NULL) {
        return OA_FAIL(OA_E_NOMEM, "Cast attributes");
    }
    oa_status st = OA_OK;
    if (oa_opcache_cast_has_truncate()) {
        st = oa_opattr_set_bool(a, "truncate", truncate != 0);
    }
    if (st == OA_OK) {
        st = oa_opattr_set_int(a, "dst_type", (int64_t)dst->data_type);
    }
    if (st != OA_OK) {
        oa_opattr_destroy(a);
        return st;
    }
    *out = a;
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclopCast(const aclTensorDesc *srcDesc, const aclDataBuffer *srcBuffer,
                                       const aclTensorDesc *dstDesc, aclDataBuffer *dstBuffer, uint8_t truncate,
                                       aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(dstDesc);
    aclopAttr *a = NULL;
    oa_status st = cast_attr(dstDesc, truncate, &a);
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    aclTensorDesc *in[1] = {(aclTensorDesc *)(uintptr_t)srcDesc};
    aclTensorDesc *outd[1] = {(aclTensorDesc *)(uintptr_t)dstDesc};
    aclDataBuffer *ib[1] = {(aclDataBuffer *)(uintptr_t)srcBuffer};
    aclDataBuffer *ob[1] = {dstBuffer};
    const aclError ret = aclopExecuteV2("Cast", 1, in, ib, 1, outd, ob, a, stream);
    oa_opattr_destroy(a);
    return ret;
}

ACL_FUNC_VISIBILITY aclError aclopCreateHandleForCast(aclTensorDesc *srcDesc, aclTensorDesc *dstDesc, uint8_t truncate,
                                                      aclopHandle **handle)
{
    ACL_REQUIRE_NOT_NULL(dstDesc);
    aclopAttr *a = NULL;
    oa_status st = cast_attr(dstDesc, truncate, &a);
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    const aclTensorDesc *in[1] = {srcDesc};
    const aclTensorDesc *outd[1] = {dstDesc};
    const aclError ret = aclopCreateHandle("Cast", 1, in, 1, outd, a, handle);
    oa_opattr_destroy(a);
    return ret;
}

/* ======================================================================
 * Shape inference
 * ====================================================================== */

static oa_status infer_shape(const char *type, int n_in, aclTensorDesc *const *in_desc,
                             const aclDataBuffer *const *inputs, int n_out, aclTensorDesc *const *out_desc,
                             const aclopAttr *attr)
{
    oa_opspec_tensor *tin = calloc((size_t)n_in + 1, sizeof(*tin));
    oa_opspec_tensor *tout = calloc((size_t)n_out + 1, sizeof(*tout));
    static const int64_t unknown_rank[1] = {OA_UNKNOWN_RANK};
    oa_status st = (tin == NULL || tout == NULL) ? OA_FAIL(OA_E_NOMEM, "shape inference") : OA_OK;
    for (int i = 0; i < n_in && st == OA_OK; ++i) {
        if (inputs[i]->length == 0) {
            st = OA_FAIL(OA_E_PARAM, "[Check][TensorSize]tensorSize must be positive, tensorSize = 0 (input %d)", i);
            break;
        }
        oa_opspec_tensor_from_desc(&tin[i], in_desc[i], NULL);
        tin[i].absent = false;
        tin[i].range = NULL;
        tin[i].nrange = 0;
        tin[i].is_const = true; /* the values are known: every input is a constant, as CANN builds it */
        tin[i].const_data = inputs[i]->data;
        tin[i].const_len = (size_t)inputs[i]->length;
        size_t need = 0;
        if (oa_tensor_desc_element_count(in_desc[i], &need) &&
            oa_mul_size(need, aclDataTypeSize(in_desc[i]->data_type), &need) && need <= tin[i].const_len) {
            tin[i].const_len = need; /* a larger buffer is fine, its head is the tensor */
        }
    }
    for (int k = 0; k < n_out; ++k) {
        tout[k].dtype = ACL_DT_UNDEFINED;
        tout[k].format = ACL_FORMAT_UNDEFINED;
        tout[k].dims = unknown_rank;
        tout[k].ndims = 1;
    }
    oa_graph *g = NULL;
    oa_node *n = NULL;
    if (st == OA_OK) {
        const oa_opspec spec = {.type = type, .attr = attr, .n_in = n_in, .n_out = n_out, .in = tin, .out = tout};
        st = oa_opgraph_build(&spec, true, &g, &n);
    }
    const aclFormat first_fmt = n_in > 0 ? in_desc[0]->format : ACL_FORMAT_ND;
    for (int k = 0; k < n_out && st == OA_OK; ++k) {
        const oa_tensor_desc *d = &n->outputs[k].desc;
        aclTensorDesc *o = out_desc[k];
        if (d->shape.rank == OA_RANK_UNKNOWN) {
            static const int64_t ur[1] = {OA_UNKNOWN_RANK};
            st = oa_tensor_desc_set_dims(o, 1, ur);
        } else {
            st = oa_tensor_desc_set_dims(o, (size_t)d->shape.rank, d->shape.dims);
        }
        if (st != OA_OK) {
            break;
        }
        o->data_type = d->dtype == OA_DT_UNDEFINED ? ACL_DT_UNDEFINED : (aclDataType)d->dtype;
        o->format = (d->format != OA_FORMAT_ND || first_fmt == ACL_FORMAT_UNDEFINED) ? (aclFormat)d->format : first_fmt;
        free(o->shape_range);
        o->shape_range = NULL;
        o->shape_range_count = 0;
        if (d->has_range && d->shape.rank > 0) {
            o->shape_range = calloc((size_t)d->shape.rank, sizeof(o->shape_range[0]));
            if (o->shape_range == NULL) {
                st = OA_FAIL(OA_E_NOMEM, "shape range");
                break;
            }
            for (int j = 0; j < d->shape.rank; ++j) {
                o->shape_range[j][0] = d->range_min[j];
                o->shape_range[j][1] = d->range_max[j];
            }
            o->shape_range_count = (size_t)d->shape.rank;
        }
        char nm[64];
        if (oa_op_output_name(n->type, n->num_outputs, (uint32_t)k, nm, sizeof nm)) {
            aclSetTensorDescName(o, nm);
        }
    }
    oa_graph_destroy(g);
    free(tin);
    free(tout);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclopInferShape(const char *opType, int numInputs, aclTensorDesc *inputDesc[],
                                             aclDataBuffer *inputs[], int numOutputs, aclTensorDesc *outputDesc[],
                                             aclopAttr *attr)
{
    oa_status st = check_exec_args(opType, numInputs, (const aclTensorDesc *const *)inputDesc, numOutputs,
                                   (const aclTensorDesc *const *)outputDesc);
    if (st == OA_OK) {
        st = oa_aclop_check_ptrs(numInputs, (const void *const *)inputs, "inputs");
    }
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    ACL_RETURN_STATUS(infer_shape(opType, numInputs, inputDesc, (const aclDataBuffer *const *)inputs, numOutputs,
                                  outputDesc, attr));
}

/* ======================================================================
 * Cache limit
 * ====================================================================== */

ACL_FUNC_VISIBILITY aclError aclopSetMaxOpQueueNum(uint64_t maxOpNum)
{
    ACL_REQUIRE(maxOpNum > 0, OA_E_PARAM, "[Check][maxOpNum]maxOpNum must be positive, maxOpNum = %llu",
                (unsigned long long)maxOpNum);
    oa_opcache_set_max(maxOpNum);
    return ACL_SUCCESS;
}

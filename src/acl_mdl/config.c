/*
 * Load configuration (aclmdlConfigHandle, aclmdlSetConfigOpt,
 * aclmdlSetExternalWeightAddress) and execute configuration
 * (aclmdlExecConfigHandle, aclmdlSetExecConfigOpt), with CANN's checks:
 * every accepted attribute has an exact value size, values are range
 * checked, the handle remembers which attributes were set.
 */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_rt.h"
#include "acl_mdl/mdl_internal.h"
#include "base/acl_check.h"
#include "base/util.h"

static void config_clear_weights(aclmdlConfigHandle *h)
{
    for (size_t i = 0; i < h->n_weights; ++i) {
        free(h->weights[i].file_name);
    }
    free(h->weights);
    h->weights = NULL;
    h->n_weights = 0;
    h->cap_weights = 0;
}

ACL_FUNC_VISIBILITY aclmdlConfigHandle *aclmdlCreateConfigHandle(void)
{
    aclmdlConfigHandle *h = calloc(1, sizeof(*h));
    if (h == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "cannot allocate a model load configuration");
    }
    return h;
}

ACL_FUNC_VISIBILITY aclError aclmdlDestroyConfigHandle(aclmdlConfigHandle *handle)
{
    ACL_REQUIRE_NOT_NULL(handle);
    free(handle->load_path);
    free(handle->weight_path);
    config_clear_weights(handle);
    free(handle);
    return ACL_SUCCESS;
}

/* ---- value checks ---- */

static oa_status check_size(const char *attr, size_t value_size, size_t want)
{
    if (value_size != want) {
        return OA_FAIL(OA_E_PARAM, "valueSize[%zu] of %s is invalid, it should be %zu", value_size, attr, want);
    }
    return OA_OK;
}

/* The device's stream priority range, queried once per process as CANN does. */
static pthread_once_t g_prio_once = PTHREAD_ONCE_INIT;
static aclError g_prio_err;
static int32_t g_prio_least;
static int32_t g_prio_greatest;

static void query_priority_range(void)
{
    g_prio_err = aclrtDeviceGetStreamPriorityRange(&g_prio_least, &g_prio_greatest);
}

static oa_status priority_range(int32_t *least, int32_t *greatest)
{
    pthread_once(&g_prio_once, query_priority_range);
    if (g_prio_err != ACL_SUCCESS) {
        return OA_FAIL(oa_status_from_acl(g_prio_err), "get range of stream priority failed, runtime errorCode = %d",
                       (int)g_prio_err);
    }
    *least = g_prio_least;
    *greatest = g_prio_greatest;
    return OA_OK;
}

static oa_status set_priority(aclmdlConfigHandle *h, const void *value, size_t size)
{
    oa_status st = check_size("ACL_MDL_PRIORITY_INT32", size, sizeof(int32_t));
    int32_t least = 0;
    int32_t greatest = 0;
    if (st == OA_OK) {
        st = priority_range(&least, &greatest);
    }
    if (st != OA_OK) {
        return st;
    }
    int32_t prio;
    memcpy(&prio, value, sizeof(prio));
    if (prio < greatest || prio > least) {
        return OA_FAIL(OA_E_PARAM, "param:[%d] must be in range of [%d] and [%d]", (int)prio, (int)greatest,
                       (int)least);
    }
    h->priority = prio;
    return OA_OK;
}

static oa_status set_load_type(aclmdlConfigHandle *h, const void *value, size_t size)
{
    oa_status st = check_size("ACL_MDL_LOAD_TYPE_SIZET", size, sizeof(size_t));
    if (st != OA_OK) {
        return st;
    }
    size_t type;
    memcpy(&type, value, sizeof(type));
    if (type < ACL_MDL_LOAD_FROM_FILE || type > ACL_MDL_LOAD_FROM_MEM_WITH_Q) {
        return OA_FAIL(OA_E_PARAM, "load type[%zu] is invalid, it should be in [%d, %d]", type, ACL_MDL_LOAD_FROM_FILE,
                       ACL_MDL_LOAD_FROM_MEM_WITH_Q);
    }
    h->load_type = type;
    return OA_OK;
}

/* A pointer attribute: attrValue points to the pointer. */
static oa_status read_ptr(const char *attr, const void *value, size_t size, bool non_null, void **out)
{
    oa_status st = check_size(attr, size, sizeof(void *));
    if (st != OA_OK) {
        return st;
    }
    memcpy(out, value, sizeof(*out));
    if (non_null && *out == NULL) {
        return OA_FAIL(OA_E_PARAM, "the pointer set for %s must not be null", attr);
    }
    return OA_OK;
}

static oa_status set_string(char **dst, const char *attr, const void *value, size_t size)
{
    void *p = NULL;
    oa_status st = read_ptr(attr, value, size, true, &p);
    if (st != OA_OK) {
        return st;
    }
    char *copy = oa_strdup((const char *)p);
    if (copy == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot copy the string set for %s", attr);
    }
    free(*dst);
    *dst = copy;
    return OA_OK;
}

static oa_status read_size(const char *attr, const void *value, size_t size, size_t *out)
{
    oa_status st = check_size(attr, size, sizeof(size_t));
    if (st == OA_OK) {
        memcpy(out, value, sizeof(*out));
    }
    return st;
}

static oa_status set_opt(aclmdlConfigHandle *h, aclmdlConfigAttr attr, const void *value, size_t size)
{
    void *p = NULL;
    size_t n = 0;
    oa_status st;
    switch (attr) {
    case ACL_MDL_PRIORITY_INT32:
        return set_priority(h, value, size);
    case ACL_MDL_LOAD_TYPE_SIZET:
        return set_load_type(h, value, size);
    case ACL_MDL_PATH_PTR:
        return set_string(&h->load_path, "ACL_MDL_PATH_PTR", value, size);
    case ACL_MDL_WEIGHT_PATH_PTR:
        return set_string(&h->weight_path, "ACL_MDL_WEIGHT_PATH_PTR", value, size);
    case ACL_MDL_MEM_ADDR_PTR:
        st = read_ptr("ACL_MDL_MEM_ADDR_PTR", value, size, true, &p);
        if (st == OA_OK) {
            h->mdl_addr = p;
        }
        return st;
    case ACL_MDL_INPUTQ_ADDR_PTR:
        st = read_ptr("ACL_MDL_INPUTQ_ADDR_PTR", value, size, true, &p);
        if (st == OA_OK) {
            h->input_q = p;
        }
        return st;
    case ACL_MDL_OUTPUTQ_ADDR_PTR:
        st = read_ptr("ACL_MDL_OUTPUTQ_ADDR_PTR", value, size, true, &p);
        if (st == OA_OK) {
            h->output_q = p;
        }
        return st;
    case ACL_MDL_WEIGHT_ADDR_PTR:
        st = read_ptr("ACL_MDL_WEIGHT_ADDR_PTR", value, size, false, &p);
        if (st == OA_OK) {
            h->weight_ptr = p;
        }
        return st;
    case ACL_MDL_WORKSPACE_ADDR_PTR:
        st = read_ptr("ACL_MDL_WORKSPACE_ADDR_PTR", value, size, false, &p);
        if (st == OA_OK) {
            h->work_ptr = p;
        }
        return st;
    case ACL_MDL_MEM_SIZET:
        st = read_size("ACL_MDL_MEM_SIZET", value, size, &n);
        if (st == OA_OK) {
            h->mdl_size = n;
        }
        return st;
    case ACL_MDL_WEIGHT_SIZET:
        st = read_size("ACL_MDL_WEIGHT_SIZET", value, size, &n);
        if (st == OA_OK) {
            h->weight_size = n;
        }
        return st;
    case ACL_MDL_WORKSPACE_SIZET:
        st = read_size("ACL_MDL_WORKSPACE_SIZET", value, size, &n);
        if (st == OA_OK) {
            h->work_size = n;
        }
        return st;
    case ACL_MDL_INPUTQ_NUM_SIZET:
        st = read_size("ACL_MDL_INPUTQ_NUM_SIZET", value, size, &n);
        if (st == OA_OK) {
            h->input_q_num = n;
        }
        return st;
    case ACL_MDL_OUTPUTQ_NUM_SIZET:
        st = read_size("ACL_MDL_OUTPUTQ_NUM_SIZET", value, size, &n);
        if (st == OA_OK) {
            h->output_q_num = n;
        }
        return st;
    case ACL_MDL_WORKSPACE_MEM_OPTIMIZE:
        st = read_size("ACL_MDL_WORKSPACE_MEM_OPTIMIZE", value, size, &n);
        if (st == OA_OK && n > ACL_WORKSPACE_MEM_OPTIMIZE_INPUTOUTPUT) {
            st = OA_FAIL(OA_E_PARAM, "ACL_MDL_WORKSPACE_MEM_OPTIMIZE value[%zu] is invalid, it should be in [%d, %d]",
                         n, ACL_WORKSPACE_MEM_OPTIMIZE_DEFAULT, ACL_WORKSPACE_MEM_OPTIMIZE_INPUTOUTPUT);
        }
        if (st == OA_OK) {
            h->reuse_zero_copy = n;
        }
        return st;
    case ACL_MDL_WITHOUT_GRAPH_INT32: {
        st = check_size("ACL_MDL_WITHOUT_GRAPH_INT32", size, sizeof(int32_t));
        if (st != OA_OK) {
            return st;
        }
        int32_t flag;
        memcpy(&flag, value, sizeof(flag));
        if (flag != 0 && flag != 1) {
            return OA_FAIL(OA_E_PARAM, "ACL_MDL_WITHOUT_GRAPH_INT32 value [%d] is invalid, it should be in [0, 1]",
                           (int)flag);
        }
        h->without_graph = flag != 0;
        return OA_OK;
    }
    default:
        return OA_FAIL(OA_E_PARAM, "attr[%d] is invalid: this version supports %d..%d and %d", (int)attr,
                       (int)ACL_MDL_PRIORITY_INT32, (int)ACL_MDL_WEIGHT_PATH_PTR, (int)ACL_MDL_WITHOUT_GRAPH_INT32);
    }
}

ACL_FUNC_VISIBILITY aclError aclmdlSetConfigOpt(aclmdlConfigHandle *handle, aclmdlConfigAttr attr,
                                                const void *attrValue, size_t valueSize)
{
    ACL_REQUIRE_NOT_NULL(handle);
    ACL_REQUIRE_NOT_NULL(attrValue);
    ACL_RETURN_STATUS_IF_FAIL(set_opt(handle, attr, attrValue, valueSize));
    handle->set |= OA_CFG_BIT(attr);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlSetExternalWeightAddress(aclmdlConfigHandle *handle, const char *weightFileName,
                                                            void *devPtr, size_t size)
{
    ACL_REQUIRE_NOT_NULL(handle);
    ACL_REQUIRE_NOT_NULL(weightFileName);
    ACL_REQUIRE_NOT_NULL(devPtr);
    ACL_REQUIRE(size != 0 && size % 32u == 0, OA_E_PARAM, "memSize[%zu] must > 0 and 32-byte aligned.", size);
    if (handle->n_weights == handle->cap_weights) {
        const size_t ncap = handle->cap_weights == 0 ? 4 : handle->cap_weights * 2;
        oa_external_weight *n = realloc(handle->weights, ncap * sizeof(*n));
        ACL_REQUIRE(n != NULL, OA_E_NOMEM, "cannot grow the external weight list");
        handle->weights = n;
        handle->cap_weights = ncap;
    }
    char *name = oa_strdup(weightFileName);
    ACL_REQUIRE(name != NULL, OA_E_NOMEM, "cannot copy the weight file name");
    handle->weights[handle->n_weights].file_name = name;
    handle->weights[handle->n_weights].dev_ptr = devPtr;
    handle->weights[handle->n_weights].size = size;
    handle->n_weights++;
    OA_LOGI("external weight [%s] registered at %p, %zu bytes", weightFileName, devPtr, size);
    return ACL_SUCCESS;
}

/* ---- execute configuration ---- */

ACL_FUNC_VISIBILITY aclmdlExecConfigHandle *aclmdlCreateExecConfigHandle(void)
{
    aclmdlExecConfigHandle *h = malloc(sizeof(*h));
    if (h == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "cannot allocate an execute configuration");
        return NULL;
    }
    h->stream_sync_timeout = -1;
    h->event_sync_timeout = -1;
    return h;
}

ACL_FUNC_VISIBILITY aclError aclmdlDestroyExecConfigHandle(const aclmdlExecConfigHandle *handle)
{
    ACL_REQUIRE_NOT_NULL(handle);
    free((void *)(uintptr_t)handle);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlSetExecConfigOpt(aclmdlExecConfigHandle *handle, aclmdlExecConfigAttr attr,
                                                    const void *attrValue, size_t valueSize)
{
    ACL_REQUIRE_NOT_NULL(handle);
    ACL_REQUIRE_NOT_NULL(attrValue);
    ACL_REQUIRE(attr == ACL_MDL_STREAM_SYNC_TIMEOUT || attr == ACL_MDL_EVENT_SYNC_TIMEOUT, OA_E_PARAM,
                "attr[%d] is invalid. it should be [%d, %d]", (int)attr, (int)ACL_MDL_STREAM_SYNC_TIMEOUT,
                (int)ACL_MDL_EVENT_SYNC_TIMEOUT);
    ACL_REQUIRE(valueSize == sizeof(int32_t), OA_E_PARAM, "valueSize[%zu] is invalid, it should be %zu", valueSize,
                sizeof(int32_t));
    int32_t timeout;
    memcpy(&timeout, attrValue, sizeof(timeout));
    ACL_REQUIRE(timeout >= -1, OA_E_PARAM, "param:[%d] must be in range of [%d] and [%d]", (int)timeout, -1,
                INT32_MAX);
    if (attr == ACL_MDL_STREAM_SYNC_TIMEOUT) {
        handle->stream_sync_timeout = timeout;
    } else {
        handle->event_sync_timeout = timeout;
    }
    return ACL_SUCCESS;
}

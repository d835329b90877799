/*
 * aclmdlSetDynamicBatchSize / aclmdlSetDynamicHWSize /
 * aclmdlSetInputDynamicDims: CANN's ACL-side checks, the dataset fields
 * CANN records, then GE's gear validation and encoding (gear.h) against
 * the loaded model, which remembers the gear for aclmdlGetCurOutputDims and
 * the executor. The gear bytes go into the application's buffer with
 * aclrtMemcpy (host to device), as GE writes them.
 *
 * GE resolves these ids in its static-model manager only: a dynamic-shape
 * (V2) model id is "not loaded" there (145003), like an unknown id.
 */
#include <string.h>

#include "acl/acl_rt.h"
#include "acl_mdl/mdl_internal.h"
#include "base/acl_check.h"

/* The buffer the gear goes to: slot index of dataset, with a data pointer. */
static oa_status gear_buffer(aclmdlDataset *ds, size_t index, void **addr, uint64_t *length)
{
    if (index >= ds->count || ds->slots[index].buffer == NULL) {
        return OA_FAIL(OA_E_PARAM, "failed to get data buffer by index[%zu], dataset buffer is null", index);
    }
    const aclDataBuffer *buf = ds->slots[index].buffer;
    if (buf->data == NULL) {
        return OA_FAIL(OA_E_PARAM, "get addr by index[%zu] failed, data buffer addr cannot be null", index);
    }
    *addr = buf->data;
    *length = buf->length;
    return OA_OK;
}

static oa_model *gear_model(uint32_t model_id, oa_status *st)
{
    oa_model *m = oa_model_acquire(model_id);
    if (m != NULL && m->route != OA_ROUTE_V1) {
        oa_model_release(m);
        m = NULL;
    }
    if (m == NULL) {
        *st = OA_FAIL(OA_E_GE_MODEL_ID, "invalid model id %u: no static model with this id is loaded", model_id);
    }
    return m;
}

/* GE steps 3-5 (gear.h) on a looked-up model. */
static oa_status apply_gear(oa_model *m, oa_model_dynamic_kind kind, const uint64_t *values, size_t n, void *addr,
                            uint64_t length, oa_model_gear *chosen)
{
    oa_status st = oa_gear_select(m->info, kind, values, n, chosen);
    if (st != OA_OK) {
        return st;
    }
    st = oa_model_set_gear(m, chosen);
    if (st != OA_OK) {
        return st;
    }
    uint8_t bytes[ACL_MAX_DIM_CNT * sizeof(uint64_t)];
    size_t nbytes = 0;
    st = oa_gear_encode(chosen, length, bytes, &nbytes);
    if (st != OA_OK) {
        return st;
    }
    const aclError ret = aclrtMemcpy(addr, (size_t)length, bytes, nbytes, ACL_MEMCPY_HOST_TO_DEVICE);
    if (ret != ACL_SUCCESS) {
        return OA_FAIL(oa_status_from_acl(ret), "writing the gear into the dynamic input failed, ret %d", (int)ret);
    }
    return OA_OK;
}

static oa_status set_batch(uint32_t model_id, aclmdlDataset *ds, size_t index, uint64_t batch)
{
    if (batch == 0) {
        return OA_FAIL(OA_E_PARAM, "input param[batchSize] invalid, batchSize can't be zero");
    }
    void *addr = NULL;
    uint64_t length = 0;
    oa_status st = gear_buffer(ds, index, &addr, &length);
    if (st != OA_OK) {
        return st;
    }
    ds->dynamic_batch = batch;
    ds->dynamic_height = 0;
    ds->dynamic_width = 0;
    st = oa_gear_check_buffer(OA_DYNAMIC_BATCH, addr, length);
    if (st != OA_OK) {
        return st;
    }
    oa_model *m = gear_model(model_id, &st);
    if (m == NULL) {
        return st;
    }
    oa_model_gear gear;
    st = apply_gear(m, OA_DYNAMIC_BATCH, &batch, 1, addr, length, &gear);
    oa_model_release(m);
    return st;
}

static oa_status set_hw(uint32_t model_id, aclmdlDataset *ds, size_t index, uint64_t h, uint64_t w)
{
    if (h == 0 || w == 0) {
        return OA_FAIL(OA_E_PARAM, "height[%llu] or width[%llu] is invalid, can't be zero", (unsigned long long)h,
                       (unsigned long long)w);
    }
    void *addr = NULL;
    uint64_t length = 0;
    oa_status st = gear_buffer(ds, index, &addr, &length);
    if (st != OA_OK) {
        return st;
    }
    ds->dynamic_batch = 0;
    ds->dynamic_height = h;
    ds->dynamic_width = w;
    st = oa_gear_check_buffer(OA_DYNAMIC_HW, addr, length);
    if (st != OA_OK) {
        return st;
    }
    oa_model *m = gear_model(model_id, &st);
    if (m == NULL) {
        return st;
    }
    const uint64_t hw[2] = {h, w};
    oa_model_gear gear;
    st = apply_gear(m, OA_DYNAMIC_HW, hw, 2, addr, length, &gear);
    oa_model_release(m);
    return st;
}

static oa_status set_dims(uint32_t model_id, aclmdlDataset *ds, size_t index, const aclmdlIODims *dims)
{
    if (dims->dimCount == 0) {
        return OA_FAIL(OA_E_PARAM, "dimCount[%zu] is invalid, can't be zero", dims->dimCount);
    }
    if (dims->dimCount > ACL_MAX_DIM_CNT) {
        return OA_FAIL(OA_E_PARAM, "dimCount[%zu] is invalid, it can't be larger than %d", dims->dimCount,
                       ACL_MAX_DIM_CNT);
    }
    void *addr = NULL;
    uint64_t length = 0;
    oa_status st = gear_buffer(ds, index, &addr, &length);
    if (st != OA_OK) {
        return st;
    }
    ds->dynamic_batch = 0;
    ds->dynamic_height = 0;
    ds->dynamic_width = 0;
    ds->n_dynamic_dims = 0;
    st = oa_gear_check_buffer(OA_DYNAMIC_DIMS, addr, length);
    if (st != OA_OK) {
        return st;
    }
    /* GE reads the model description first, through its (initialised) executor */
    st = oa_mdl_require_init();
    if (st != OA_OK) {
        return st;
    }
    oa_model *m = gear_model(model_id, &st);
    if (m == NULL) {
        return st;
    }
    uint64_t request[ACL_MAX_DIM_CNT];
    for (size_t i = 0; i < dims->dimCount; ++i) {
        request[i] = (uint64_t)dims->dims[i];
    }
    oa_model_gear gear;
    st = apply_gear(m, OA_DYNAMIC_DIMS, request, dims->dimCount, addr, length, &gear);
    oa_model_release(m);
    if (st == OA_OK) {
        ds->n_dynamic_dims = gear.n;
        memcpy(ds->dynamic_dims, gear.v, gear.n * sizeof(uint64_t));
    }
    return st;
}

ACL_FUNC_VISIBILITY aclError aclmdlSetDynamicBatchSize(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                                       uint64_t batchSize)
{
    ACL_REQUIRE_NOT_NULL(dataset);
    ACL_RETURN_STATUS(set_batch(modelId, dataset, index, batchSize));
}

ACL_FUNC_VISIBILITY aclError aclmdlSetDynamicHWSize(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                                    uint64_t height, uint64_t width)
{
    ACL_REQUIRE_NOT_NULL(dataset);
    ACL_RETURN_STATUS(set_hw(modelId, dataset, index, height, width));
}

ACL_FUNC_VISIBILITY aclError aclmdlSetInputDynamicDims(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                                       const aclmdlIODims *dims)
{
    ACL_REQUIRE_NOT_NULL(dataset);
    ACL_REQUIRE_NOT_NULL(dims);
    ACL_RETURN_STATUS(set_dims(modelId, dataset, index, dims));
}

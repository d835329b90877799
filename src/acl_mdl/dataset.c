/*
 * aclmdlDataset: an ordered list of {aclDataBuffer *, aclTensorDesc *}.
 * The buffers are the application's (never copied, never freed); the
 * descriptors are the dataset's own copies (tensor_desc.h arrays of one).
 */
#include <stdlib.h>
#include <string.h>

#include "acl_base/tensor_desc.h"
#include "acl_mdl/mdl_internal.h"
#include "base/acl_check.h"

ACL_FUNC_VISIBILITY aclmdlDataset *aclmdlCreateDataset(void)
{
    aclmdlDataset *ds = calloc(1, sizeof(*ds));
    if (ds == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "cannot allocate a dataset");
    }
    return ds;
}

ACL_FUNC_VISIBILITY aclError aclmdlDestroyDataset(const aclmdlDataset *dataset)
{
    ACL_REQUIRE_NOT_NULL(dataset);
    aclmdlDataset *ds = (aclmdlDataset *)(uintptr_t)dataset;
    for (size_t i = 0; i < ds->count; ++i) {
        aclDestroyTensorDesc(ds->slots[i].desc);
    }
    free(ds->slots);
    free(ds);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlAddDatasetBuffer(aclmdlDataset *dataset, aclDataBuffer *dataBuffer)
{
    ACL_REQUIRE_NOT_NULL(dataset);
    ACL_REQUIRE_NOT_NULL(dataBuffer);
    if (dataset->count == dataset->cap) {
        const size_t ncap = dataset->cap == 0 ? 4 : dataset->cap * 2;
        oa_dataset_slot *n = realloc(dataset->slots, ncap * sizeof(*n));
        ACL_REQUIRE(n != NULL, OA_E_NOMEM, "cannot grow the dataset to %zu buffers", ncap);
        dataset->slots = n;
        dataset->cap = ncap;
    }
    dataset->slots[dataset->count].buffer = dataBuffer;
    dataset->slots[dataset->count].desc = NULL;
    dataset->count++;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset *dataset)
{
    ACL_REQUIRE_RET(dataset != NULL, 0, "input param[dataset] is null");
    return dataset->count;
}

ACL_FUNC_VISIBILITY aclDataBuffer *aclmdlGetDatasetBuffer(const aclmdlDataset *dataset, size_t index)
{
    ACL_REQUIRE_RET(dataset != NULL && index < dataset->count, NULL, "input param is invalid, dataset[%p], index[%zu]",
                    (const void *)dataset, index);
    return dataset->slots[index].buffer;
}

/* ---- executor access (model.h) ---- */

size_t oa_mdl_dataset_count(const aclmdlDataset *ds)
{
    return ds->count;
}

aclDataBuffer *oa_mdl_dataset_buffer(const aclmdlDataset *ds, size_t index)
{
    return index < ds->count ? ds->slots[index].buffer : NULL;
}

const aclTensorDesc *oa_mdl_dataset_desc(const aclmdlDataset *ds, size_t index)
{
    return index < ds->count ? ds->slots[index].desc : NULL;
}

aclTensorDesc **oa_mdl_dataset_desc_ref(aclmdlDataset *ds, size_t index)
{
    return index < ds->count ? &ds->slots[index].desc : NULL;
}

oa_status oa_mdl_dataset_set_desc(aclmdlDataset *ds, size_t index, const aclTensorDesc *src)
{
    if (index >= ds->count) {
        return OA_FAIL(OA_E_PARAM, "index[%zu] must be smaller than the dataset's buffer count[%zu]", index,
                       ds->count);
    }
    oa_dataset_slot *slot = &ds->slots[index];
    if (src == NULL) {
        aclDestroyTensorDesc(slot->desc);
        slot->desc = NULL;
        return OA_OK;
    }
    aclTensorDesc *copy = oa_tensor_desc_array_create(1);
    if (copy == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot allocate a tensor description for slot %zu", index);
    }
    oa_status st = oa_tensor_desc_copy(copy, src);
    if (st != OA_OK) {
        aclDestroyTensorDesc(copy);
        return st;
    }
    aclDestroyTensorDesc(slot->desc);
    slot->desc = copy;
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclmdlSetDatasetTensorDesc(aclmdlDataset *dataset, aclTensorDesc *tensorDesc, size_t index)
{
    ACL_REQUIRE_NOT_NULL(dataset);
    ACL_REQUIRE(index < dataset->count, OA_E_PARAM,
                "input param index[%zu] must be smaller than input databuf size[%zu]", index, dataset->count);
    ACL_RETURN_STATUS(oa_mdl_dataset_set_desc(dataset, index, tensorDesc));
}

ACL_FUNC_VISIBILITY aclTensorDesc *aclmdlGetDatasetTensorDesc(const aclmdlDataset *dataset, size_t index)
{
    ACL_REQUIRE_RET(dataset != NULL, NULL, "parameter [dataset] must not be null");
    ACL_REQUIRE_RET(index < dataset->count, NULL, "input param index[%zu] must be smaller than output databuf size[%zu]",
                    index, dataset->count);
    return dataset->slots[index].desc;
}

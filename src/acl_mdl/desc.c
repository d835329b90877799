/*
 * aclmdlDesc and its getters. A description holds a reference to the
 * model_info it was filled from; every getter answers from that info as
 * CANN's model description does (failure values: 0, "", NULL,
 * ACL_FORMAT_UNDEFINED, ACL_DT_UNDEFINED).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "acl_mdl/mdl_internal.h"
#include "acl_mdl/model_reader.h"
#include "base/acl_check.h"
#include "base/util.h"

/* aclmdlGetOpAttr fills descriptions from several threads (CANN has one mutex for it too). */
static pthread_mutex_t g_attr_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t n_in(const aclmdlDesc *d)
{
    return d->info != NULL ? d->info->n_inputs : 0;
}

static size_t n_out(const aclmdlDesc *d)
{
    return d->info != NULL ? d->info->n_outputs : 0;
}

void oa_mdl_desc_clear(aclmdlDesc *desc)
{
    pthread_mutex_lock(&g_attr_lock);
    for (size_t i = 0; i < desc->n_attrs; ++i) {
        free(desc->attrs[i].op_name);
        free(desc->attrs[i].attr_name);
        free(desc->attrs[i].value);
    }
    free(desc->attrs);
    desc->attrs = NULL;
    desc->n_attrs = 0;
    pthread_mutex_unlock(&g_attr_lock);
    oa_model_info_release(desc->info);
    desc->info = NULL;
    desc->model_id = 0;
}

void oa_mdl_desc_fill(aclmdlDesc *desc, oa_model_info *info, uint32_t model_id)
{
    oa_model_info *old = desc->info;
    desc->info = oa_model_info_retain(info);
    desc->model_id = model_id;
    oa_model_info_release(old);
}

ACL_FUNC_VISIBILITY aclmdlDesc *aclmdlCreateDesc(void)
{
    aclmdlDesc *d = calloc(1, sizeof(*d));
    if (d == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "cannot allocate a model description");
    }
    return d;
}

ACL_FUNC_VISIBILITY aclError aclmdlDestroyDesc(aclmdlDesc *modelDesc)
{
    ACL_REQUIRE_NOT_NULL(modelDesc);
    oa_mdl_desc_clear(modelDesc);
    free(modelDesc);
    return ACL_SUCCESS;
}

oa_status oa_mdl_get_desc(aclmdlDesc *desc, uint32_t model_id)
{
    oa_mdl_desc_clear(desc);
    oa_model *m = oa_model_acquire(model_id);
    if (m == NULL || m->route == OA_ROUTE_V1) {
        /* GE's V1 model manager answers; it refuses everything before aclInit */
        oa_status st = oa_mdl_require_init();
        if (st != OA_OK) {
            oa_model_release(m);
            return st;
        }
    }
    if (m == NULL) {
        return OA_FAIL(OA_E_GE_MODEL_ID, "get model description failed, model id[%u] is not loaded", model_id);
    }
    oa_mdl_desc_fill(desc, m->info, model_id);
    oa_model_release(m);
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclmdlGetDesc(aclmdlDesc *modelDesc, uint32_t modelId)
{
    ACL_REQUIRE_NOT_NULL(modelDesc);
    ACL_RETURN_STATUS(oa_mdl_get_desc(modelDesc, modelId));
}

/* Fills desc from a model file or image through the registered reader (model_reader.h). */
static oa_status desc_from_source(aclmdlDesc *desc, const oa_model_source *src, const char *fn)
{
    const oa_model_reader *reader = oa_model_reader_get();
    if (reader == NULL || reader->open == NULL) {
        return oa_mdl_not_supported(fn);
    }
    oa_model_image img;
    memset(&img, 0, sizeof(img));
    oa_status st = reader->open(src, &img);
    if (st != OA_OK) {
        return st;
    }
    oa_mdl_desc_fill(desc, img.info, 0);
    if (reader->close != NULL) {
        reader->close(&img);
    }
    oa_model_info_release(img.info);
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclmdlGetDescFromFile(aclmdlDesc *modelDesc, const char *modelPath)
{
    bool om2 = false;
    ACL_RETURN_STATUS_IF_FAIL(oa_mdl_route_path(modelPath, &om2));
    if (om2) {
        ACL_RETURN_STATUS(oa_mdl_om2_unsupported("aclmdlGetDescFromFile"));
    }
    ACL_REQUIRE_NOT_NULL(modelDesc);
    oa_mdl_desc_clear(modelDesc);
    ACL_RETURN_STATUS_IF_FAIL(oa_mdl_require_init()); /* GE reads the file through its executor */
    const oa_model_source src = {.path = modelPath};
    ACL_RETURN_STATUS(desc_from_source(modelDesc, &src, "aclmdlGetDescFromFile"));
}

ACL_FUNC_VISIBILITY aclError aclmdlGetDescFromMem(aclmdlDesc *modelDesc, const void *model, size_t modelSize)
{
    bool om2 = false;
    ACL_RETURN_STATUS_IF_FAIL(oa_mdl_route_mem(model, modelSize, &om2));
    if (om2) {
        ACL_RETURN_STATUS(oa_mdl_om2_unsupported("aclmdlGetDescFromMem"));
    }
    ACL_REQUIRE_NOT_NULL(modelDesc);
    oa_mdl_desc_clear(modelDesc);
    const oa_model_source src = {.data = model, .size = modelSize};
    ACL_RETURN_STATUS(desc_from_source(modelDesc, &src, "aclmdlGetDescFromMem"));
}

ACL_FUNC_VISIBILITY size_t aclmdlGetNumInputs(aclmdlDesc *modelDesc)
{
    return modelDesc == NULL ? 0 : n_in(modelDesc);
}

ACL_FUNC_VISIBILITY size_t aclmdlGetNumOutputs(aclmdlDesc *modelDesc)
{
    return modelDesc == NULL ? 0 : n_out(modelDesc);
}

ACL_FUNC_VISIBILITY size_t aclmdlGetInputSizeByIndex(aclmdlDesc *modelDesc, size_t index)
{
    ACL_REQUIRE_RET(modelDesc != NULL && index < n_in(modelDesc), 0,
                    "input param is invalid, modelDesc[%p], index[%zu]", (void *)modelDesc, index);
    return oa_model_tensor_size(&modelDesc->info->inputs[index]);
}

ACL_FUNC_VISIBILITY size_t aclmdlGetOutputSizeByIndex(aclmdlDesc *modelDesc, size_t index)
{
    ACL_REQUIRE_RET(modelDesc != NULL && index < n_out(modelDesc), 0,
                    "input param is invalid, modelDesc[%p], index[%zu]", (void *)modelDesc, index);
    return oa_model_tensor_size(&modelDesc->info->outputs[index]);
}

static aclError get_dims(const aclmdlDesc *desc, bool is_input, bool v2, size_t index, aclmdlIODims *dims)
{
    const size_t count = is_input ? n_in(desc) : n_out(desc);
    ACL_REQUIRE(index < count, OA_E_PARAM, "get %s dims failed, index[%zu] must be smaller than tensor count[%zu]",
                is_input ? "input" : "output", index, count);
    ACL_RETURN_STATUS(oa_model_get_io_dims(desc->info, desc->model_id, is_input, v2, index, dims));
}

ACL_FUNC_VISIBILITY aclError aclmdlGetInputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims)
{
    ACL_REQUIRE_NOT_NULL(modelDesc);
    ACL_REQUIRE_NOT_NULL(dims);
    return get_dims(modelDesc, true, false, index, dims);
}

ACL_FUNC_VISIBILITY aclError aclmdlGetInputDimsV2(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims)
{
    ACL_REQUIRE_NOT_NULL(modelDesc);
    ACL_REQUIRE_NOT_NULL(dims);
    return get_dims(modelDesc, true, true, index, dims);
}

ACL_FUNC_VISIBILITY aclError aclmdlGetOutputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims)
{
    ACL_REQUIRE_NOT_NULL(modelDesc);
    ACL_REQUIRE_NOT_NULL(dims);
    return get_dims(modelDesc, false, false, index, dims);
}

ACL_FUNC_VISIBILITY aclError aclmdlGetInputDimsRange(const aclmdlDesc *modelDesc, size_t index,
                                                     aclmdlIODimsRange *dimsRange)
{
    ACL_REQUIRE_NOT_NULL(modelDesc);
    ACL_REQUIRE_NOT_NULL(dimsRange);
    if (modelDesc->info != NULL && modelDesc->info->n_gears > 0) {
        dimsRange->rangeCount = 0; /* gear models: no ranges, whatever the index */
        return ACL_SUCCESS;
    }
    ACL_REQUIRE(index < n_in(modelDesc), OA_E_PARAM,
                "get dims range failed, index[%zu] must be smaller than tensor count[%zu]", index, n_in(modelDesc));
    const oa_model_tensor *t = &modelDesc->info->inputs[index];
    if (t->n_ranges == 0) {
        ACL_REQUIRE(t->n_dims <= ACL_MAX_DIM_CNT, OA_E_INTERNAL, "dim count[%zu] is larger than max[%d]", t->n_dims,
                    ACL_MAX_DIM_CNT);
        dimsRange->rangeCount = t->n_dims;
        for (size_t i = 0; i < t->n_dims; ++i) {
            dimsRange->range[i][0] = t->dims[i];
            dimsRange->range[i][1] = t->dims[i];
        }
        return ACL_SUCCESS;
    }
    ACL_REQUIRE(t->n_ranges <= ACL_MAX_DIM_CNT, OA_E_INTERNAL, "range count[%zu] is larger than max[%d]", t->n_ranges,
                ACL_MAX_DIM_CNT);
    ACL_REQUIRE(t->n_ranges == t->n_dims, OA_E_INTERNAL, "range count[%zu] differs from dim count[%zu]", t->n_ranges,
                t->n_dims);
    dimsRange->rangeCount = t->n_ranges;
    for (size_t i = 0; i < t->n_ranges; ++i) {
        dimsRange->range[i][0] = t->ranges[i].min;
        dimsRange->range[i][1] = t->ranges[i].max;
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlGetCurOutputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims)
{
    ACL_REQUIRE_NOT_NULL(modelDesc);
    ACL_REQUIRE_NOT_NULL(dims);
    oa_model *m = oa_model_acquire(modelDesc->model_id);
    if (m != NULL && m->route == OA_ROUTE_V2) {
        oa_model_release(m);
        ACL_RETURN_STATUS(OA_FAIL(OA_E_NOT_SUPPORTED, "aclmdlGetCurOutputDims does not support dynamic-shape models"));
    }
    if (index >= n_out(modelDesc)) {
        oa_model_release(m);
        ACL_RETURN_STATUS(OA_FAIL(OA_E_PARAM,
                                  "aclmdlGetCurOutputDims failed, index[%zu] should be smaller than tensor size[%zu]",
                                  index, n_out(modelDesc)));
    }
    oa_status st = oa_mdl_require_init();
    if (st == OA_OK && m == NULL) {
        st = OA_FAIL(OA_E_GE_MODEL_ID, "cannot get the current shape: model id[%u] is not loaded",
                     modelDesc->model_id);
    }
    if (st == OA_OK) {
        if (m->ops == NULL || m->ops->get_cur_output_dims == NULL) {
            st = OA_FAIL(OA_E_NOT_SUPPORTED, "aclmdlGetCurOutputDims is not supported by the %s executor",
                         m->ops != NULL && m->ops->name != NULL ? m->ops->name : "model's");
        } else {
            st = m->ops->get_cur_output_dims(m, index, dims);
        }
    }
    oa_model_release(m);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY const char *aclmdlGetOpAttr(aclmdlDesc *modelDesc, const char *opName, const char *attr)
{
    ACL_REQUIRE_RET(modelDesc != NULL, NULL, "parameter [modelDesc] must not be null");
    ACL_REQUIRE_RET(opName != NULL, NULL, "parameter [opName] must not be null");
    ACL_REQUIRE_RET(attr != NULL, NULL, "parameter [attr] must not be null");
    ACL_REQUIRE_RET(strcmp(attr, ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES) == 0, NULL,
                    "attr[%s] is invalid, only %s is supported", attr, ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES);
    pthread_mutex_lock(&g_attr_lock);
    for (size_t i = 0; i < modelDesc->n_attrs; ++i) {
        if (strcmp(modelDesc->attrs[i].op_name, opName) == 0 && strcmp(modelDesc->attrs[i].attr_name, attr) == 0) {
            const char *v = modelDesc->attrs[i].value;
            pthread_mutex_unlock(&g_attr_lock);
            return v;
        }
    }
    pthread_mutex_unlock(&g_attr_lock);

    /* Not cached: GE asks the loaded model (so descriptions read from files answer NULL). */
    if (oa_mdl_require_init() != OA_OK) {
        return NULL;
    }
    oa_model *m = oa_model_acquire(modelDesc->model_id);
    if (m == NULL) {
        (void)OA_FAIL(OA_E_GE_MODEL_ID, "get op attr failed, model id[%u] is not loaded", modelDesc->model_id);
        return NULL;
    }
    char *value = NULL;
    oa_status st = oa_model_op_attr_value(m->info, opName, attr, &value);
    oa_model_release(m);
    if (st != OA_OK) {
        return NULL;
    }
    char *op_copy = oa_strdup(opName);
    char *attr_copy = oa_strdup(attr);
    pthread_mutex_lock(&g_attr_lock);
    oa_desc_attr *n = realloc(modelDesc->attrs, (modelDesc->n_attrs + 1) * sizeof(*n));
    if (n == NULL || op_copy == NULL || attr_copy == NULL) {
        if (n != NULL) {
            modelDesc->attrs = n;
        }
        pthread_mutex_unlock(&g_attr_lock);
        free(op_copy);
        free(attr_copy);
        free(value);
        (void)OA_FAIL(OA_E_NOMEM, "cannot cache the value of attr [%s] of op [%s]", attr, opName);
        return NULL;
    }
    modelDesc->attrs = n;
    n[modelDesc->n_attrs].op_name = op_copy;
    n[modelDesc->n_attrs].attr_name = attr_copy;
    n[modelDesc->n_attrs].value = value;
    modelDesc->n_attrs++;
    pthread_mutex_unlock(&g_attr_lock);
    return value;
}

static const char *name_by_index(const aclmdlDesc *desc, bool is_input, size_t index)
{
    ACL_REQUIRE_RET(desc != NULL, "", "parameter [modelDesc] must not be null");
    const size_t count = is_input ? n_in(desc) : n_out(desc);
    ACL_REQUIRE_RET(index < count, "", "get name by index failed, index[%zu] must be smaller than desc size[%zu]",
                    index, count);
    return is_input ? desc->info->inputs[index].name : desc->info->outputs[index].name;
}

ACL_FUNC_VISIBILITY const char *aclmdlGetInputNameByIndex(const aclmdlDesc *modelDesc, size_t index)
{
    return name_by_index(modelDesc, true, index);
}

ACL_FUNC_VISIBILITY const char *aclmdlGetOutputNameByIndex(const aclmdlDesc *modelDesc, size_t index)
{
    return name_by_index(modelDesc, false, index);
}

static const oa_model_tensor *tensor_at(const aclmdlDesc *desc, bool is_input, size_t index)
{
    ACL_REQUIRE_RET(desc != NULL, NULL, "parameter [modelDesc] must not be null");
    const size_t count = is_input ? n_in(desc) : n_out(desc);
    ACL_REQUIRE_RET(index < count, NULL, "index[%zu] must be smaller than desc size[%zu]", index, count);
    return is_input ? &desc->info->inputs[index] : &desc->info->outputs[index];
}

ACL_FUNC_VISIBILITY aclFormat aclmdlGetInputFormat(const aclmdlDesc *modelDesc, size_t index)
{
    const oa_model_tensor *t = tensor_at(modelDesc, true, index);
    return t != NULL ? t->format : ACL_FORMAT_UNDEFINED;
}

ACL_FUNC_VISIBILITY aclFormat aclmdlGetOutputFormat(const aclmdlDesc *modelDesc, size_t index)
{
    const oa_model_tensor *t = tensor_at(modelDesc, false, index);
    return t != NULL ? t->format : ACL_FORMAT_UNDEFINED;
}

ACL_FUNC_VISIBILITY aclDataType aclmdlGetInputDataType(const aclmdlDesc *modelDesc, size_t index)
{
    const oa_model_tensor *t = tensor_at(modelDesc, true, index);
    return t != NULL ? t->dtype : ACL_DT_UNDEFINED;
}

ACL_FUNC_VISIBILITY aclDataType aclmdlGetOutputDataType(const aclmdlDesc *modelDesc, size_t index)
{
    const oa_model_tensor *t = tensor_at(modelDesc, false, index);
    return t != NULL ? t->dtype : ACL_DT_UNDEFINED;
}

static aclError index_by_name(const aclmdlDesc *desc, bool is_input, const char *name, size_t *index)
{
    const size_t count = is_input ? n_in(desc) : n_out(desc);
    for (size_t i = 0; i < count; ++i) {
        const char *n = is_input ? desc->info->inputs[i].name : desc->info->outputs[i].name;
        if (strcmp(n, name) == 0) {
            *index = i;
            return ACL_SUCCESS;
        }
    }
    if (is_input && strcmp(name, ACL_DYNAMIC_TENSOR_NAME) == 0) {
        /* Applications (and runners) probe every model for the gear input; on a model without
         * gears the answer is a plain "no": the code, but no ERROR line, no plog file and no
         * message left for the next aclGetRecentErrMsg (docs/model_api.md). */
        OA_LOGI("the model has no input named %s (no gears)", name);
        return ACL_ERROR_INVALID_PARAM;
    }
    ACL_RETURN_STATUS(OA_FAIL(OA_E_PARAM, "get index by name failed, cannot find %s tensor name[%s]",
                              is_input ? "input" : "output", name));
}

ACL_FUNC_VISIBILITY aclError aclmdlGetInputIndexByName(const aclmdlDesc *modelDesc, const char *name, size_t *index)
{
    ACL_REQUIRE_NOT_NULL(modelDesc);
    ACL_REQUIRE_NOT_NULL(name);
    ACL_REQUIRE_NOT_NULL(index);
    return index_by_name(modelDesc, true, name, index);
}

ACL_FUNC_VISIBILITY aclError aclmdlGetOutputIndexByName(const aclmdlDesc *modelDesc, const char *name, size_t *index)
{
    ACL_REQUIRE_NOT_NULL(modelDesc);
    ACL_REQUIRE_NOT_NULL(name);
    ACL_REQUIRE_NOT_NULL(index);
    return index_by_name(modelDesc, false, name, index);
}

static bool has_kind(const aclmdlDesc *desc, oa_model_dynamic_kind kind)
{
    return desc->info != NULL && desc->info->dynamic_kind == kind && desc->info->n_gears > 0;
}

ACL_FUNC_VISIBILITY aclError aclmdlGetDynamicBatch(const aclmdlDesc *modelDesc, aclmdlBatch *batch)
{
    ACL_REQUIRE_NOT_NULL(modelDesc);
    ACL_REQUIRE_NOT_NULL(batch);
    const size_t count = has_kind(modelDesc, OA_DYNAMIC_BATCH) ? modelDesc->info->n_gears : 0;
    ACL_REQUIRE(count <= ACL_MAX_BATCH_NUM, OA_E_STORAGE_OVER_LIMIT,
                "batch count[%zu] is larger than max batch num[%d]", count, ACL_MAX_BATCH_NUM);
    batch->batchCount = count;
    for (size_t i = 0; i < count; ++i) {
        batch->batch[i] = modelDesc->info->gears[i];
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlGetDynamicHW(const aclmdlDesc *modelDesc, size_t index, aclmdlHW *hw)
{
    OA_UNUSED(index); /* CANN ignores it */
    ACL_REQUIRE_NOT_NULL(modelDesc);
    ACL_REQUIRE_NOT_NULL(hw);
    const size_t count = has_kind(modelDesc, OA_DYNAMIC_HW) ? modelDesc->info->n_gears : 0;
    ACL_REQUIRE(count <= ACL_MAX_HW_NUM, OA_E_STORAGE_OVER_LIMIT, "hw count[%zu] is larger than max[%d]", count,
                ACL_MAX_HW_NUM);
    hw->hwCount = count;
    for (size_t i = 0; i < count; ++i) {
        hw->hw[i][0] = modelDesc->info->gears[i * 2];
        hw->hw[i][1] = modelDesc->info->gears[i * 2 + 1];
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlGetInputDynamicGearCount(const aclmdlDesc *modelDesc, size_t index,
                                                            size_t *gearCount)
{
    ACL_REQUIRE_NOT_NULL(modelDesc);
    ACL_REQUIRE_NOT_NULL(gearCount);
    ACL_REQUIRE(index == (size_t)-1, OA_E_PARAM, "aclmdlGetInputDynamicGearCount failed, index must be -1 while "
                "input is %zu", index);
    const size_t count = has_kind(modelDesc, OA_DYNAMIC_DIMS) ? modelDesc->info->n_gears : 0;
    ACL_REQUIRE(count <= ACL_MAX_DIM_CNT, OA_E_STORAGE_OVER_LIMIT, "gear count[%zu] is larger than max[%d]", count,
                ACL_MAX_DIM_CNT);
    *gearCount = count;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlGetInputDynamicDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims,
                                                       size_t gearCount)
{
    ACL_REQUIRE_NOT_NULL(modelDesc);
    ACL_REQUIRE_NOT_NULL(dims);
    ACL_REQUIRE(index == (size_t)-1, OA_E_PARAM, "aclmdlGetInputDynamicDims failed, index must be -1 but it is %zu",
                index);
    const oa_model_info *info = modelDesc->info;
    const size_t gears = has_kind(modelDesc, OA_DYNAMIC_DIMS) ? info->n_gears : 0;
    ACL_REQUIRE(gearCount >= gears, OA_E_PARAM, "gear count[%zu] can not be less than the model's gear count[%zu]",
                gearCount, gears);
    if (info == NULL) {
        return ACL_SUCCESS; /* an empty description: no inputs, no gears */
    }
    /* The dims of the inputs named by the shape order, concatenated (every input of that name, as CANN). */
    size_t total = 0;
    for (size_t k = 0; k < info->n_shape_order; ++k) {
        for (size_t i = 0; i < info->n_inputs; ++i) {
            if (strcmp(info->inputs[i].name, info->shape_order[k]) == 0) {
                total += info->inputs[i].n_dims;
            }
        }
    }
    ACL_REQUIRE(total <= ACL_MAX_DIM_CNT, OA_E_FAILURE, "current dynamic dims size %zu can not be larger than %d",
                total, ACL_MAX_DIM_CNT);
    for (size_t g = 0; g < gears; ++g) {
        const uint64_t *gear = &info->gears[g * info->gear_len];
        size_t next = 0;
        size_t pos = 0;
        for (size_t k = 0; k < info->n_shape_order; ++k) {
            for (size_t i = 0; i < info->n_inputs; ++i) {
                const oa_model_tensor *t = &info->inputs[i];
                if (strcmp(t->name, info->shape_order[k]) != 0) {
                    continue;
                }
                for (size_t d = 0; d < t->n_dims; ++d, ++pos) {
                    if (t->dims[d] < 0) {
                        ACL_REQUIRE(next < info->gear_len, OA_E_PARAM,
                                    "gear %zu has %zu values, fewer than the dynamic axes of the inputs", g,
                                    info->gear_len);
                        dims[g].dims[pos] = (int64_t)gear[next++];
                    } else {
                        dims[g].dims[pos] = t->dims[d];
                    }
                    dims[g].dimCount = total;
                }
            }
        }
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY const char *aclmdlGetTensorRealName(const aclmdlDesc *modelDesc, const char *name)
{
    ACL_REQUIRE_RET(modelDesc != NULL, NULL, "parameter [modelDesc] must not be null");
    ACL_REQUIRE_RET(name != NULL, NULL, "parameter [name] must not be null");
    const char *real = modelDesc->info != NULL ? oa_model_real_tensor_name(modelDesc->info, modelDesc->model_id, name)
                                               : NULL;
    ACL_REQUIRE_RET(real != NULL, NULL, "get tensor real name failed, name[%s] is invalid", name);
    return real;
}

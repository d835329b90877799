/* Tensor descriptions (acl_base_mdl.h) with CANN's origin/storage split (tensor_desc.h). */
#include "acl_base/tensor_desc.h"

#include <stdlib.h>
#include <string.h>

#include "base/acl_check.h"
#include "base/util.h"

#define DESC_ARRAY_MAGIC 0x6F61546E73724473ull /* "oaTnsrDs" */

typedef struct desc_array_header {
    uint64_t magic;
    uint64_t count;
} desc_array_header;

_Static_assert(sizeof(desc_array_header) % _Alignof(aclTensorDesc) == 0, "header breaks descriptor alignment");

static desc_array_header *header_of(const aclTensorDesc *desc)
{
    return (desc_array_header *)(uintptr_t)((const unsigned char *)desc - sizeof(desc_array_header));
}

static void desc_deinit(aclTensorDesc *d)
{
    free(d->dims);
    free(d->storage_dims);
    free(d->name);
    free(d->shape_range);
    free(d->value_range);
    free(d->dynamic_input_name);
    free(d->const_data);
    memset(d, 0, sizeof(*d));
}

static bool desc_init_empty(aclTensorDesc *d)
{
    memset(d, 0, sizeof(*d));
    d->data_type = ACL_DT_UNDEFINED;
    d->storage_format = ACL_FORMAT_UNDEFINED;
    d->format = ACL_FORMAT_UNDEFINED;
    d->mem_type = ACL_MEMTYPE_DEVICE;
    d->name = calloc(1, 1);
    return d->name != NULL;
}

aclTensorDesc *oa_tensor_desc_array_create(size_t n)
{
    size_t bytes;
    if (n == 0 || !oa_mul_size(n, sizeof(aclTensorDesc), &bytes) ||
        !oa_add_size(bytes, sizeof(desc_array_header), &bytes)) {
        return NULL;
    }
    desc_array_header *h = malloc(bytes);
    if (h == NULL) {
        return NULL;
    }
    h->magic = DESC_ARRAY_MAGIC;
    h->count = n;
    aclTensorDesc *arr = (aclTensorDesc *)(h + 1);
    for (size_t i = 0; i < n; ++i) {
        if (!desc_init_empty(&arr[i])) {
            for (size_t j = 0; j < i; ++j) {
                desc_deinit(&arr[j]);
            }
            free(h);
            return NULL;
        }
    }
    return arr;
}

size_t oa_tensor_desc_array_length(const aclTensorDesc *desc)
{
    if (desc == NULL) {
        return 0;
    }
    const desc_array_header *h = header_of(desc);
    return h->magic == DESC_ARRAY_MAGIC ? (size_t)h->count : 0;
}

/* Copies n dims into a fresh buffer (NULL for n == 0). */
static bool dup_dims(const int64_t *src, size_t n, int64_t **out)
{
    *out = NULL;
    if (n == 0) {
        return true;
    }
    size_t bytes;
    if (!oa_mul_size(n, sizeof(int64_t), &bytes)) {
        return false;
    }
    *out = malloc(bytes);
    if (*out == NULL) {
        return false;
    }
    memcpy(*out, src, bytes);
    return true;
}

oa_status oa_tensor_desc_set_dims(aclTensorDesc *desc, size_t n, const int64_t *dims)
{
    int64_t *copy = NULL;
    if (!dup_dims(dims, n, &copy)) {
        return OA_FAIL(OA_E_NOMEM, "cannot allocate %zu dims", n);
    }
    free(desc->dims);
    desc->dims = copy;
    desc->dim_count = n;
    return OA_OK;
}

oa_status oa_tensor_desc_set_storage_dims(aclTensorDesc *desc, size_t n, const int64_t *dims)
{
    int64_t *copy = NULL;
    if (!dup_dims(dims, n, &copy)) {
        return OA_FAIL(OA_E_NOMEM, "cannot allocate %zu dims", n);
    }
    free(desc->storage_dims);
    desc->storage_dims = copy;
    desc->storage_dim_count = n;
    return OA_OK;
}

static bool dup_ranges(const int64_t (*src)[2], size_t n, int64_t (**out)[2])
{
    *out = NULL;
    if (n == 0) {
        return true;
    }
    size_t bytes;
    if (!oa_mul_size(n, sizeof(int64_t[2]), &bytes)) {
        return false;
    }
    *out = malloc(bytes);
    if (*out == NULL) {
        return false;
    }
    memcpy(*out, src, bytes);
    return true;
}

oa_status oa_tensor_desc_copy(aclTensorDesc *dst, const aclTensorDesc *src)
{
    aclTensorDesc t;
    memset(&t, 0, sizeof(t));
    t.data_type = src->data_type;
    t.storage_format = src->storage_format;
    t.format = src->format;
    t.address = src->address;
    t.is_const = src->is_const;
    t.mem_type = src->mem_type;
    t.dim_count = src->dim_count;
    t.storage_dim_count = src->storage_dim_count;
    t.shape_range_count = src->shape_range_count;
    t.value_range_count = src->value_range_count;
    bool ok = dup_dims(src->dims, src->dim_count, &t.dims) &&
              dup_dims(src->storage_dims, src->storage_dim_count, &t.storage_dims) &&
              dup_ranges((const int64_t(*)[2])src->shape_range, src->shape_range_count, &t.shape_range) &&
              dup_ranges((const int64_t(*)[2])src->value_range, src->value_range_count, &t.value_range);
    t.name = oa_strdup(src->name != NULL ? src->name : "");
    ok = ok && t.name != NULL;
    if (ok && src->dynamic_input_name != NULL) {
        t.dynamic_input_name = oa_strdup(src->dynamic_input_name);
        ok = t.dynamic_input_name != NULL;
    }
    if (ok && src->const_data != NULL) {
        t.const_data = malloc(src->const_data_len);
        ok = t.const_data != NULL;
        if (ok) {
            memcpy(t.const_data, src->const_data, src->const_data_len);
            t.const_data_len = src->const_data_len;
        }
    }
    if (!ok) {
        desc_deinit(&t);
        return OA_FAIL(OA_E_NOMEM, "cannot copy a tensor description");
    }
    desc_deinit(dst);
    *dst = t;
    return OA_OK;
}

bool oa_tensor_desc_element_count(const aclTensorDesc *desc, size_t *count)
{
    size_t n = 1;
    for (size_t i = 0; i < desc->dim_count; ++i) {
        if (desc->dims[i] < 0) {
            return false;
        }
        if (!oa_mul_size(n, (size_t)desc->dims[i], &n)) {
            return false;
        }
    }
    *count = n;
    return true;
}

/* ---- public API ---- */

ACL_FUNC_VISIBILITY aclTensorDesc *aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t *dims,
                                                       aclFormat format)
{
    ACL_REQUIRE_RET(numDims >= 0, NULL, "numDims [%d] must not be smaller than 0", numDims);
    ACL_REQUIRE_RET(numDims == 0 || dims != NULL, NULL, "dims is null while numDims [%d] > 0", numDims);
    aclTensorDesc *d = oa_tensor_desc_array_create(1);
    if (d == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "cannot allocate a tensor description");
        return NULL;
    }
    d->data_type = dataType;
    d->format = format;
    /* runtime v2 (CANN's default) also seeds the storage shape with the shape */
    if (oa_tensor_desc_set_dims(d, (size_t)numDims, dims) != OA_OK ||
        oa_tensor_desc_set_storage_dims(d, (size_t)numDims, dims) != OA_OK) {
        aclDestroyTensorDesc(d);
        return NULL;
    }
    return d;
}

ACL_FUNC_VISIBILITY void aclDestroyTensorDesc(const aclTensorDesc *desc)
{
    if (desc == NULL) {
        return;
    }
    desc_array_header *h = header_of(desc);
    if (h->magic != DESC_ARRAY_MAGIC) {
        (void)OA_FAIL(OA_E_PARAM, "desc %p was not returned by aclCreateTensorDesc (or is not the first element)",
                      (const void *)desc);
        return;
    }
    aclTensorDesc *arr = (aclTensorDesc *)(h + 1);
    for (uint64_t i = 0; i < h->count; ++i) {
        desc_deinit(&arr[i]);
    }
    h->magic = 0;
    free(h);
}

ACL_FUNC_VISIBILITY aclError aclSetTensorShapeRange(aclTensorDesc *desc, size_t dimsCount,
                                                    int64_t dimsRange[][ACL_TENSOR_SHAPE_RANGE_NUM])
{
    ACL_REQUIRE_NOT_NULL(desc);
    ACL_REQUIRE(dimsCount == 0 || dimsRange != NULL, OA_E_PARAM, "dimsRange is null while dimsCount is %zu",
                dimsCount);
    int64_t(*copy)[2] = NULL;
    ACL_REQUIRE(dup_ranges((const int64_t(*)[2])dimsRange, dimsCount, &copy), OA_E_NOMEM,
                "cannot allocate %zu shape ranges", dimsCount);
    free(desc->shape_range);
    desc->shape_range = copy;
    desc->shape_range_count = dimsCount;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclSetTensorValueRange(aclTensorDesc *desc, size_t valueCount,
                                                    int64_t valueRange[][ACL_TENSOR_VALUE_RANGE_NUM])
{
    ACL_REQUIRE_NOT_NULL(desc);
    ACL_REQUIRE(valueCount == 0 || valueRange != NULL, OA_E_PARAM, "valueRange is null while valueCount is %zu",
                valueCount);
    int64_t(*copy)[2] = NULL;
    ACL_REQUIRE(dup_ranges((const int64_t(*)[2])valueRange, valueCount, &copy), OA_E_NOMEM,
                "cannot allocate %zu value ranges", valueCount);
    free(desc->value_range);
    desc->value_range = copy;
    desc->value_range_count = valueCount;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclDataType aclGetTensorDescType(const aclTensorDesc *desc)
{
    ACL_REQUIRE_RET(desc != NULL, ACL_DT_UNDEFINED, "parameter [desc] must not be null");
    return desc->data_type;
}

ACL_FUNC_VISIBILITY aclFormat aclGetTensorDescFormat(const aclTensorDesc *desc)
{
    ACL_REQUIRE_RET(desc != NULL, ACL_FORMAT_UNDEFINED, "parameter [desc] must not be null");
    return desc->format;
}

ACL_FUNC_VISIBILITY size_t aclGetTensorDescElementCount(const aclTensorDesc *desc)
{
    ACL_REQUIRE_RET(desc != NULL, 0, "parameter [desc] must not be null");
    size_t n = 0;
    ACL_REQUIRE_RET(oa_tensor_desc_element_count(desc, &n), 0,
                    "element count of the tensor is undefined (negative dim) or overflows");
    return n;
}

ACL_FUNC_VISIBILITY size_t aclGetTensorDescSize(const aclTensorDesc *desc)
{
    ACL_REQUIRE_RET(desc != NULL, 0, "parameter [desc] must not be null");
    size_t n = 0;
    size_t bytes = 0;
    if (!oa_tensor_desc_element_count(desc, &n)) {
        (void)OA_FAIL(OA_E_PARAM, "element count of the tensor is undefined (negative dim) or overflows");
        return 0;
    }
    if (!oa_mul_size(n, aclDataTypeSize(desc->data_type), &bytes)) {
        (void)OA_FAIL(OA_E_PARAM, "tensor size overflows");
        return 0;
    }
    return bytes;
}

ACL_FUNC_VISIBILITY size_t aclGetTensorDescNumDims(const aclTensorDesc *desc)
{
    ACL_REQUIRE_RET(desc != NULL, 0, "parameter [desc] must not be null");
    if (desc->dim_count > 0 && desc->dims[0] == OA_UNKNOWN_RANK) {
        return (size_t)ACL_UNKNOWN_RANK;
    }
    return desc->dim_count;
}

ACL_FUNC_VISIBILITY int64_t aclGetTensorDescDim(const aclTensorDesc *desc, size_t index)
{
    ACL_REQUIRE_RET(desc != NULL, -1, "parameter [desc] must not be null");
    ACL_REQUIRE_RET(index < desc->dim_count, -1, "index %zu out of range, numDims = %zu", index, desc->dim_count);
    return desc->dims[index];
}

ACL_FUNC_VISIBILITY aclError aclGetTensorDescDimV2(const aclTensorDesc *desc, size_t index, int64_t *dimSize)
{
    ACL_REQUIRE_NOT_NULL(desc);
    ACL_REQUIRE_NOT_NULL(dimSize);
    ACL_REQUIRE(index < desc->dim_count, OA_E_PARAM, "index %zu out of range, numDims = %zu", index,
                desc->dim_count);
    *dimSize = desc->dims[index];
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclGetTensorDescDimRange(const aclTensorDesc *desc, size_t index, size_t dimRangeNum,
                                                      int64_t *dimRange)
{
    ACL_REQUIRE_NOT_NULL(desc);
    ACL_REQUIRE_NOT_NULL(dimRange);
    ACL_REQUIRE(index < desc->shape_range_count, OA_E_PARAM, "index %zu out of range, shape range count = %zu",
                index, desc->shape_range_count);
    ACL_REQUIRE(dimRangeNum >= ACL_TENSOR_SHAPE_RANGE_NUM, OA_E_PARAM, "dimRangeNum %zu cannot be less than %d",
                dimRangeNum, ACL_TENSOR_SHAPE_RANGE_NUM);
    dimRange[0] = desc->shape_range[index][0];
    dimRange[1] = desc->shape_range[index][1];
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY void aclSetTensorDescName(aclTensorDesc *desc, const char *name)
{
    if (desc == NULL) {
        (void)OA_FAIL(OA_E_PARAM, "parameter [desc] must not be null");
        return;
    }
    char *copy = oa_strdup(name != NULL ? name : "");
    if (copy == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "cannot copy the tensor name");
        return;
    }
    free(desc->name);
    desc->name = copy;
}

ACL_FUNC_VISIBILITY const char *aclGetTensorDescName(aclTensorDesc *desc)
{
    if (desc == NULL || desc->name == NULL) {
        return "";
    }
    return desc->name;
}

ACL_FUNC_VISIBILITY aclError aclTransTensorDescFormat(const aclTensorDesc *srcDesc, aclFormat dstFormat,
                                                      aclTensorDesc **dstDesc)
{
    ACL_REQUIRE_NOT_NULL(srcDesc);
    ACL_REQUIRE_NOT_NULL(dstDesc);
    int64_t out[64];
    size_t n = 0;
    const oa_status st = oa_trans_shape(srcDesc->format, srcDesc->dims, srcDesc->dim_count, srcDesc->data_type,
                                        dstFormat, out, OA_ARRAY_SIZE(out), &n);
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    /* only the shape changes: data type and (origin) format stay those of srcDesc */
    *dstDesc = aclCreateTensorDesc(srcDesc->data_type, (int)n, out, srcDesc->format);
    ACL_REQUIRE(*dstDesc != NULL, OA_E_NOMEM, "aclCreateTensorDesc failed");
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclSetTensorFormat(aclTensorDesc *desc, aclFormat format)
{
    if (desc != NULL) {
        desc->storage_format = format;
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclSetTensorStorageFormat(aclTensorDesc *desc, aclFormat format)
{
    return aclSetTensorFormat(desc, format);
}

ACL_FUNC_VISIBILITY aclError aclSetTensorShape(aclTensorDesc *desc, int numDims, const int64_t *dims)
{
    ACL_REQUIRE_NOT_NULL(desc);
    ACL_REQUIRE_NOT_NULL(dims);
    /* a negative count clears the shape, as CANN's loop does */
    ACL_RETURN_STATUS(oa_tensor_desc_set_storage_dims(desc, numDims > 0 ? (size_t)numDims : 0, dims));
}

ACL_FUNC_VISIBILITY aclError aclSetTensorStorageShape(aclTensorDesc *desc, int numDims, const int64_t *dims)
{
    return aclSetTensorShape(desc, numDims, dims);
}

ACL_FUNC_VISIBILITY aclError aclSetTensorOriginFormat(aclTensorDesc *desc, aclFormat format)
{
    if (desc != NULL) {
        desc->format = format;
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclSetTensorOriginShape(aclTensorDesc *desc, int numDims, const int64_t *dims)
{
    ACL_REQUIRE_NOT_NULL(desc);
    ACL_REQUIRE_NOT_NULL(dims);
    ACL_RETURN_STATUS(oa_tensor_desc_set_dims(desc, numDims > 0 ? (size_t)numDims : 0, dims));
}

ACL_FUNC_VISIBILITY aclTensorDesc *aclGetTensorDescByIndex(aclTensorDesc *desc, size_t index)
{
    ACL_REQUIRE_RET(desc != NULL, NULL, "parameter [desc] must not be null");
    return &desc[index]; /* no bounds check, as in CANN */
}

ACL_FUNC_VISIBILITY void *aclGetTensorDescAddress(const aclTensorDesc *desc)
{
    ACL_REQUIRE_RET(desc != NULL, NULL, "parameter [desc] must not be null");
    return desc->address;
}

ACL_FUNC_VISIBILITY aclError aclSetTensorDynamicInput(aclTensorDesc *desc, const char *dynamicInputName)
{
    ACL_REQUIRE_NOT_NULL(desc);
    ACL_REQUIRE_NOT_NULL(dynamicInputName);
    char *copy = oa_strdup(dynamicInputName);
    ACL_REQUIRE(copy != NULL, OA_E_NOMEM, "cannot copy the dynamic input name");
    free(desc->dynamic_input_name);
    desc->dynamic_input_name = copy;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclSetTensorConst(aclTensorDesc *desc, void *dataBuffer, size_t length)
{
    ACL_REQUIRE_NOT_NULL(desc);
    ACL_REQUIRE_NOT_NULL(dataBuffer);
    ACL_REQUIRE(length > 0, OA_E_PARAM, "the length of const dataBuffer is invalid, size = %zu", length);
    void *copy = malloc(length);
    ACL_REQUIRE(copy != NULL, OA_E_NOMEM, "cannot copy %zu bytes of constant data", length);
    memcpy(copy, dataBuffer, length);
    free(desc->const_data);
    desc->const_data = copy;
    desc->const_data_len = length;
    desc->is_const = true;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclSetTensorPlaceMent(aclTensorDesc *desc, aclMemType memType)
{
    ACL_REQUIRE_NOT_NULL(desc);
    desc->mem_type = memType;
    return ACL_SUCCESS;
}

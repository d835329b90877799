/*
 * struct aclTensorDesc, for the layers that build or read descriptors
 * (model descriptions, single-op matching, aclmdlCreateAndGetOpDesc).
 *
 * Storage follows CANN: "format"/"dims" are the ORIGIN format and shape
 * that every getter returns; aclSetTensorFormat/aclSetTensorShape (and the
 * deprecated *Storage* aliases) write storage_format/storage_dims;
 * aclSetTensorOriginFormat/OriginShape write the origin fields. A new
 * descriptor has storage_format ACL_FORMAT_UNDEFINED and storage_dims equal
 * to dims; dims[0] == -2 means unknown rank, -1 an unknown dimension.
 *
 * Descriptors live in arrays with a hidden header holding the element
 * count, so aclGetTensorDescByIndex can do pointer arithmetic and
 * aclDestroyTensorDesc(first element) frees the whole array. Create arrays
 * with oa_tensor_desc_array_create, never with malloc.
 */
#ifndef OA_ACL_BASE_TENSOR_DESC_H
#define OA_ACL_BASE_TENSOR_DESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"
#include "base/status.h"

#define OA_UNKNOWN_DIM (-1)
#define OA_UNKNOWN_RANK (-2)

struct aclTensorDesc {
    aclDataType data_type;
    aclFormat storage_format;
    aclFormat format;          /* origin format */
    int64_t *dims;             /* origin shape */
    size_t dim_count;
    int64_t *storage_dims;
    size_t storage_dim_count;
    char *name;                /* never NULL on a live descriptor */
    int64_t (*shape_range)[ACL_TENSOR_SHAPE_RANGE_NUM];
    size_t shape_range_count;
    int64_t (*value_range)[ACL_TENSOR_VALUE_RANGE_NUM];
    size_t value_range_count;
    void *address;             /* device address (aclmdlCreateAndGetOpDesc) */
    char *dynamic_input_name;  /* NULL when not set */
    bool is_const;
    void *const_data;          /* private copy of the constant */
    size_t const_data_len;
    aclMemType mem_type;       /* ACL_MEMTYPE_DEVICE by default */
};

/*
 * n descriptors, each like aclCreateTensorDesc(ACL_DT_UNDEFINED, 0, NULL,
 * ACL_FORMAT_UNDEFINED); NULL on OOM or n == 0. Free with aclDestroyTensorDesc(first).
 */
aclTensorDesc *oa_tensor_desc_array_create(size_t n);

/* Number of elements of the array desc starts; 0 if desc is not the first element of such an array. */
size_t oa_tensor_desc_array_length(const aclTensorDesc *desc);

/* Replaces the origin shape (dims may be NULL when n == 0). */
oa_status oa_tensor_desc_set_dims(aclTensorDesc *desc, size_t n, const int64_t *dims) OA_MUST_CHECK;

/* Replaces the storage shape. */
oa_status oa_tensor_desc_set_storage_dims(aclTensorDesc *desc, size_t n, const int64_t *dims) OA_MUST_CHECK;

/* Deep copy of src into the (live) descriptor dst. */
oa_status oa_tensor_desc_copy(aclTensorDesc *dst, const aclTensorDesc *src) OA_MUST_CHECK;

/* Product of dims; false for a negative dim or overflow. An empty shape (scalar) counts 1. */
bool oa_tensor_desc_element_count(const aclTensorDesc *desc, size_t *count);

/*
 * GE's shape transfer between formats (aclTransTensorDescFormat): out gets
 * at most out_cap dims. Errors: ACL_ERROR_GE_FORMAT_INVALID (no transfer
 * registered between the primary formats, or not derivable in that
 * direction), ACL_ERROR_GE_SHAPE_INVALID, ACL_ERROR_GE_DATATYPE_INVALID,
 * ACL_ERROR_GE_FAILURE (GE-internal failure, e.g. ND -> FRACTAL_Z of a
 * shape that is not 2-D).
 */
oa_status oa_trans_shape(aclFormat src_format, const int64_t *src, size_t n, aclDataType data_type,
                         aclFormat dst_format, int64_t *out, size_t out_cap, size_t *out_n) OA_MUST_CHECK;

#endif /* OA_ACL_BASE_TENSOR_DESC_H */

/*
 * openacl: tensor descriptions (acl/acl_base_mdl.h).
 *
 * An aclTensorDesc records the element type, the origin format and shape
 * (what the getters report), a separate storage format and shape, an
 * optional name, shape and value ranges, and single-op extras (const data,
 * placement, dynamic-input group). Dimensions use -1 for "unknown size" and
 * a single -2 for "unknown rank".
 */
#ifndef INC_EXTERNAL_ACL_ACL_BASE_MDL_H_
#define INC_EXTERNAL_ACL_ACL_BASE_MDL_H_

#include <stdint.h>
#include <stddef.h>

#include "acl/acl_base_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Each range entry is a [min, max] pair. */
#define ACL_TENSOR_SHAPE_RANGE_NUM 2
#define ACL_TENSOR_VALUE_RANGE_NUM 2

/* aclGetTensorDescNumDims result for a tensor of unknown rank (-2 as size_t). */
#define ACL_UNKNOWN_RANK 0xFFFFFFFFFFFFFFFE

typedef struct aclTensorDesc aclTensorDesc;

/*
 * New description owning a copy of dims[0..numDims). The storage format
 * starts as ACL_FORMAT_UNDEFINED. NULL when numDims < 0, when numDims > 0
 * and dims is NULL, or on OOM. Free with aclDestroyTensorDesc.
 */
ACL_FUNC_VISIBILITY aclTensorDesc *aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t *dims,
                                                       aclFormat format);

/* Frees a description; NULL is ignored. */
ACL_FUNC_VISIBILITY void aclDestroyTensorDesc(const aclTensorDesc *desc);

/* Replaces the shape ranges with dimsCount [min, max] pairs (copied). */
ACL_FUNC_VISIBILITY aclError aclSetTensorShapeRange(aclTensorDesc *desc, size_t dimsCount,
                                                    int64_t dimsRange[][ACL_TENSOR_SHAPE_RANGE_NUM]);

/* Replaces the value ranges with valueCount [min, max] pairs (copied). */
ACL_FUNC_VISIBILITY aclError aclSetTensorValueRange(aclTensorDesc *desc, size_t valueCount,
                                                    int64_t valueRange[][ACL_TENSOR_VALUE_RANGE_NUM]);

/* Element type; ACL_DT_UNDEFINED for NULL. */
ACL_FUNC_VISIBILITY aclDataType aclGetTensorDescType(const aclTensorDesc *desc);

/* Origin format; ACL_FORMAT_UNDEFINED for NULL. */
ACL_FUNC_VISIBILITY aclFormat aclGetTensorDescFormat(const aclTensorDesc *desc);

/* Element count times element size; 0 for NULL, unknown dims or overflow. */
ACL_FUNC_VISIBILITY size_t aclGetTensorDescSize(const aclTensorDesc *desc);

/* Product of the dims (1 for a scalar); 0 for NULL, unknown dims or overflow. */
ACL_FUNC_VISIBILITY size_t aclGetTensorDescElementCount(const aclTensorDesc *desc);

/* Number of dims; ACL_UNKNOWN_RANK for unknown rank, 0 for NULL. */
ACL_FUNC_VISIBILITY size_t aclGetTensorDescNumDims(const aclTensorDesc *desc);

/* dims[index]; -1 for NULL or an index out of range. */
ACL_DEPRECATED_MESSAGE("aclGetTensorDescDim is deprecated, use aclGetTensorDescDimV2 instead")
ACL_FUNC_VISIBILITY int64_t aclGetTensorDescDim(const aclTensorDesc *desc, size_t index);

/* Out: *dimSize = dims[index]. ACL_ERROR_INVALID_PARAM for NULL or a bad index. */
ACL_FUNC_VISIBILITY aclError aclGetTensorDescDimV2(const aclTensorDesc *desc, size_t index, int64_t *dimSize);

/* Out: dimRange[0..1] = [min, max] of shape range index; dimRangeNum must be >= 2. */
ACL_FUNC_VISIBILITY aclError aclGetTensorDescDimRange(const aclTensorDesc *desc, size_t index, size_t dimRangeNum,
                                                      int64_t *dimRange);

/* Copies name (NULL means ""); a NULL desc is ignored. */
ACL_FUNC_VISIBILITY void aclSetTensorDescName(aclTensorDesc *desc, const char *name);

/* Name owned by the description; "" (never NULL) for NULL or no name. */
ACL_FUNC_VISIBILITY const char *aclGetTensorDescName(aclTensorDesc *desc);

/*
 * Out: *dstDesc = new description whose dims are srcDesc's shape expressed
 * in dstFormat (type and format copied from srcDesc). Caller destroys it.
 */
ACL_FUNC_VISIBILITY aclError aclTransTensorDescFormat(const aclTensorDesc *srcDesc, aclFormat dstFormat,
                                                      aclTensorDesc **dstDesc);

/* Old name of aclSetTensorFormat. */
ACL_DEPRECATED_MESSAGE("aclSetTensorStorageFormat is deprecated, use aclSetTensorFormat instead")
ACL_FUNC_VISIBILITY aclError aclSetTensorStorageFormat(aclTensorDesc *desc, aclFormat format);

/* Old name of aclSetTensorShape. */
ACL_DEPRECATED_MESSAGE("aclSetTensorStorageShape is deprecated, use aclSetTensorShape instead")
ACL_FUNC_VISIBILITY aclError aclSetTensorStorageShape(aclTensorDesc *desc, int numDims, const int64_t *dims);

/* Sets the storage format (not the origin format the getters return). */
ACL_FUNC_VISIBILITY aclError aclSetTensorFormat(aclTensorDesc *desc, aclFormat format);

/* Sets the storage shape (copied; not the origin shape the getters return). */
ACL_FUNC_VISIBILITY aclError aclSetTensorShape(aclTensorDesc *desc, int numDims, const int64_t *dims);

/* Sets the origin format reported by aclGetTensorDescFormat. */
ACL_FUNC_VISIBILITY aclError aclSetTensorOriginFormat(aclTensorDesc *desc, aclFormat format);

/* Replaces the origin shape reported by the dim getters (copied). */
ACL_FUNC_VISIBILITY aclError aclSetTensorOriginShape(aclTensorDesc *desc, int numDims, const int64_t *dims);

/* &desc[index] inside an array of descriptions; no bounds check; NULL for NULL. */
ACL_FUNC_VISIBILITY aclTensorDesc *aclGetTensorDescByIndex(aclTensorDesc *desc, size_t index);

/* Device address recorded in the description (see aclmdlCreateAndGetOpDesc); NULL for NULL. */
ACL_FUNC_VISIBILITY void *aclGetTensorDescAddress(const aclTensorDesc *desc);

/* Names the dynamic-input group this tensor belongs to (single-op execution). */
ACL_FUNC_VISIBILITY aclError aclSetTensorDynamicInput(aclTensorDesc *desc, const char *dynamicInputName);

/* Marks the tensor constant with a copy of length bytes of host data; length 0 is invalid. */
ACL_FUNC_VISIBILITY aclError aclSetTensorConst(aclTensorDesc *desc, void *dataBuffer, size_t length);

/* Where the tensor's memory lives (device or host) for single-op execution. */
ACL_FUNC_VISIBILITY aclError aclSetTensorPlaceMent(aclTensorDesc *desc, aclMemType memType);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_BASE_MDL_H_ */

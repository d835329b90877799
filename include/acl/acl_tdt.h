/*
 * openacl: tensor data tunnels (acl/acl_tdt.h).
 *
 * Named channels that carry datasets of tensors between the host program
 * and a model (on a CPU build: in-process FIFOs). A data item describes one
 * tensor; a dataset is an ordered list of items.
 *
 * Difference from CANN's header, which only compiles as C++: there
 * acltdtTensorType is declared as a bare enum tag and then used without the
 * "enum" keyword. Here the enum also gets a typedef of the same name, so the
 * header is valid C as well; the type, values and ABI are unchanged.
 */
#ifndef INC_EXTERNAL_ACL_ACL_TDT_H_
#define INC_EXTERNAL_ACL_ACL_TDT_H_

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum acltdtTensorType {
    ACL_TENSOR_DATA_UNDEFINED = -1,
    ACL_TENSOR_DATA_TENSOR = 0,
    ACL_TENSOR_DATA_END_OF_SEQUENCE = 1,
    ACL_TENSOR_DATA_ABNORMAL = 2,
    ACL_TENSOR_DATA_SLICE_TENSOR = 3,
    ACL_TENSOR_DATA_END_TENSOR = 4
} acltdtTensorType;

typedef struct acltdtDataItem acltdtDataItem;
typedef struct acltdtDataset acltdtDataset;
typedef struct acltdtChannelHandle acltdtChannelHandle;

/* Item getters; NULL item -> ACL_TENSOR_DATA_UNDEFINED / ACL_DT_UNDEFINED / NULL / 0. */
ACL_FUNC_VISIBILITY acltdtTensorType acltdtGetTensorTypeFromItem(const acltdtDataItem *dataItem);

ACL_FUNC_VISIBILITY aclDataType acltdtGetDataTypeFromItem(const acltdtDataItem *dataItem);

ACL_FUNC_VISIBILITY void *acltdtGetDataAddrFromItem(const acltdtDataItem *dataItem);

ACL_FUNC_VISIBILITY size_t acltdtGetDataSizeFromItem(const acltdtDataItem *dataItem);

ACL_FUNC_VISIBILITY size_t acltdtGetDimNumFromItem(const acltdtDataItem *dataItem);

/* Out: how many slices the tensor was split into and which one this item is. */
ACL_FUNC_VISIBILITY aclError acltdtGetSliceInfoFromItem(const acltdtDataItem *dataItem, size_t *sliceNum,
                                                        size_t *sliceId);

/* Out: dims[0..dimNum); dimNum must be at least the item's dim count. */
ACL_FUNC_VISIBILITY aclError acltdtGetDimsFromItem(const acltdtDataItem *dataItem, int64_t *dims, size_t dimNum);

/*
 * New item describing data[0..size) of type dataType with dims[0..dimNum).
 * NULL on failure. Free with acltdtDestroyDataItem.
 */
ACL_FUNC_VISIBILITY acltdtDataItem *acltdtCreateDataItem(acltdtTensorType tdtType, const int64_t *dims, size_t dimNum,
                                                         aclDataType dataType, void *data, size_t size);

ACL_FUNC_VISIBILITY aclError acltdtDestroyDataItem(acltdtDataItem *dataItem);

/* Empty dataset; NULL on OOM. */
ACL_FUNC_VISIBILITY acltdtDataset *acltdtCreateDataset(void);

/* Frees the dataset only; items added to it stay owned by the caller. */
ACL_FUNC_VISIBILITY aclError acltdtDestroyDataset(acltdtDataset *dataset);

/* Item index; NULL for NULL or a bad index. */
ACL_FUNC_VISIBILITY acltdtDataItem *acltdtGetDataItem(const acltdtDataset *dataset, size_t index);

/* Appends dataItem (not copied). */
ACL_FUNC_VISIBILITY aclError acltdtAddDataItem(acltdtDataset *dataset, acltdtDataItem *dataItem);

/* Item count; 0 for NULL. */
ACL_FUNC_VISIBILITY size_t acltdtGetDatasetSize(const acltdtDataset *dataset);

/* Name of the dataset (owned by it); NULL on failure. */
ACL_FUNC_VISIBILITY const char *acltdtGetDatasetName(const acltdtDataset *dataset);

/* Wakes up and fails pending sends / receives; the channel stays allocated. */
ACL_FUNC_VISIBILITY aclError acltdtStopChannel(acltdtChannelHandle *handle);

/* Opens channel name on deviceId; NULL on failure. Free with acltdtDestroyChannel. */
ACL_FUNC_VISIBILITY acltdtChannelHandle *acltdtCreateChannel(uint32_t deviceId, const char *name);

/* As acltdtCreateChannel, holding at most capacity datasets. */
ACL_FUNC_VISIBILITY acltdtChannelHandle *acltdtCreateChannelWithCapacity(uint32_t deviceId, const char *name,
                                                                         size_t capacity);

ACL_FUNC_VISIBILITY aclError acltdtDestroyChannel(acltdtChannelHandle *handle);

/* Drops every dataset waiting in the channel. */
ACL_FUNC_VISIBILITY aclError acltdtCleanChannel(acltdtChannelHandle *handle);

/* Sends dataset; timeout in milliseconds, -1 waits forever. */
ACL_FUNC_VISIBILITY aclError acltdtSendTensor(const acltdtChannelHandle *handle, const acltdtDataset *dataset,
                                              int32_t timeout);

/* Out: items of the next dataset appended to dataset; timeout in milliseconds, -1 waits forever. */
ACL_FUNC_VISIBILITY aclError acltdtReceiveTensor(const acltdtChannelHandle *handle, acltdtDataset *dataset,
                                                 int32_t timeout);

/* Out: *size = datasets currently waiting in the channel. */
ACL_FUNC_VISIBILITY aclError acltdtQueryChannelSize(const acltdtChannelHandle *handle, size_t *size);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_TDT_H_ */

/*
 * openacl: single-operator execution (acl/acl_op.h).
 *
 * Operators are matched by type, input/output descriptions and attributes
 * against single-op models registered with aclopSetModelDir / aclopLoad, or
 * against user kernels registered with aclopCreateKernel and a selector
 * function. Execution is ordered on an aclrtStream (NULL = default stream).
 *
 * Array parameters hold numInputs / numOutputs entries; none of them is
 * retained after the call returns.
 */
#ifndef INC_EXTERNAL_ACL_ACL_OP_H_
#define INC_EXTERNAL_ACL_ACL_OP_H_

#include "acl_base.h"
#include "acl_rt.h"
#include "acl_dump.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclopHandle aclopHandle;
typedef struct aclopAttr aclopAttr;
typedef struct aclopKernelDesc aclopKernelDesc;

/* Called with (binData, binSize) when a kernel registered by aclopCreateKernel is released. */
typedef void (*aclDataDeallocator)(void *data, size_t length);

static const int ACL_COMPILE_FLAG_BIN_SELECTOR = 1;

typedef enum aclEngineType {
    ACL_ENGINE_SYS = 0,
    ACL_ENGINE_AICORE = 1,
    ACL_ENGINE_VECTOR = 2
} aclopEngineType;

/* Registers every single-op model under modelDir (depth <= 3); once per process. */
ACL_FUNC_VISIBILITY aclError aclopSetModelDir(const char *modelDir);

/* Registers one single-op model image held in memory. */
ACL_FUNC_VISIBILITY aclError aclopLoad(const void *model, size_t modelSize);

/* Empty attribute set; NULL on OOM. */
ACL_FUNC_VISIBILITY aclopAttr *aclopCreateAttr(void);

/* NULL is ignored. */
ACL_FUNC_VISIBILITY void aclopDestroyAttr(const aclopAttr *attr);

/* Attribute setters: the name and the value(s) are copied; a repeated name replaces the value. */
ACL_FUNC_VISIBILITY aclError aclopSetAttrBool(aclopAttr *attr, const char *attrName, uint8_t attrValue);

ACL_FUNC_VISIBILITY aclError aclopSetAttrInt(aclopAttr *attr, const char *attrName, int64_t attrValue);

ACL_FUNC_VISIBILITY aclError aclopSetAttrFloat(aclopAttr *attr, const char *attrName, float attrValue);

ACL_FUNC_VISIBILITY aclError aclopSetAttrString(aclopAttr *attr, const char *attrName, const char *attrValue);

ACL_FUNC_VISIBILITY aclError aclopSetAttrDataType(aclopAttr *attr, const char *attrName, aclDataType attrValue);

ACL_FUNC_VISIBILITY aclError aclopSetAttrListDataType(aclopAttr *attr, const char *attrName, int numValues,
                                                      const aclDataType values[]);

ACL_FUNC_VISIBILITY aclError aclopSetAttrListBool(aclopAttr *attr, const char *attrName, int numValues,
                                                  const uint8_t *values);

ACL_FUNC_VISIBILITY aclError aclopSetAttrListInt(aclopAttr *attr, const char *attrName, int numValues,
                                                 const int64_t *values);

ACL_FUNC_VISIBILITY aclError aclopSetAttrListFloat(aclopAttr *attr, const char *attrName, int numValues,
                                                   const float *values);

ACL_FUNC_VISIBILITY aclError aclopSetAttrListString(aclopAttr *attr, const char *attrName, int numValues,
                                                    const char **values);

/* numLists lists; list i has numValues[i] entries at values[i]. */
ACL_FUNC_VISIBILITY aclError aclopSetAttrListListInt(aclopAttr *attr, const char *attrName, int numLists,
                                                     const int *numValues, const int64_t *const values[]);

/*
 * Runs opType on stream. ACL_ERROR_OP_NOT_FOUND (or one of the *_NOT_MATCH
 * codes) when no registered model matches.
 */
ACL_DEPRECATED_MESSAGE("aclopExecute is deprecated, use aclopExecuteV2 instead")
ACL_FUNC_VISIBILITY aclError aclopExecute(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                                          const aclDataBuffer *const inputs[], int numOutputs,
                                          const aclTensorDesc *const outputDesc[], aclDataBuffer *const outputs[],
                                          const aclopAttr *attr, aclrtStream stream);

/* As aclopExecute; outputDesc shapes may be updated (dynamic shape). */
ACL_FUNC_VISIBILITY aclError aclopExecuteV2(const char *opType, int numInputs, aclTensorDesc *inputDesc[],
                                            aclDataBuffer *inputs[], int numOutputs, aclTensorDesc *outputDesc[],
                                            aclDataBuffer *outputs[], aclopAttr *attr, aclrtStream stream);

/* Out: *handle = pre-matched operator for aclopExecWithHandle; free with aclopDestroyHandle. */
ACL_FUNC_VISIBILITY aclError aclopCreateHandle(const char *opType, int numInputs,
                                               const aclTensorDesc *const inputDesc[], int numOutputs,
                                               const aclTensorDesc *const outputDesc[], const aclopAttr *opAttr,
                                               aclopHandle **handle);

ACL_FUNC_VISIBILITY void aclopDestroyHandle(aclopHandle *handle);

/* Counts must match the handle (else ACL_ERROR_OP_INPUT_NOT_MATCH / ACL_ERROR_OP_OUTPUT_NOT_MATCH). */
ACL_FUNC_VISIBILITY aclError aclopExecWithHandle(aclopHandle *handle, int numInputs,
                                                 const aclDataBuffer *const inputs[], int numOutputs,
                                                 aclDataBuffer *const outputs[], aclrtStream stream);

/* Converts srcBuffer to dstDesc's type on stream (truncate != 0 allows narrowing). */
ACL_FUNC_VISIBILITY aclError aclopCast(const aclTensorDesc *srcDesc, const aclDataBuffer *srcBuffer,
                                       const aclTensorDesc *dstDesc, aclDataBuffer *dstBuffer, uint8_t truncate,
                                       aclrtStream stream);

ACL_FUNC_VISIBILITY aclError aclopCreateHandleForCast(aclTensorDesc *srcDesc, aclTensorDesc *dstDesc,
                                                      uint8_t truncate, aclopHandle **handle);

/*
 * Registers kernel binary binData[0..binSize) as (opType, kernelId). The
 * library keeps binData and calls deallocator on it when done.
 */
ACL_FUNC_VISIBILITY aclError aclopCreateKernel(const char *opType, const char *kernelId, const char *kernelName,
                                               void *binData, int binSize, aclopEngineType enginetype,
                                               aclDataDeallocator deallocator);

/* Selector: picks a kernel, its arguments and workspaces for one operator signature. */
typedef aclError (*aclopCompileFunc)(int numInputs, const aclTensorDesc *const inputDesc[], int numOutputs,
                                     const aclTensorDesc *const outputDesc[], const aclopAttr *opAttr,
                                     aclopKernelDesc *kernelDesc);

ACL_FUNC_VISIBILITY aclError aclopRegisterCompileFunc(const char *opType, aclopCompileFunc func);

ACL_FUNC_VISIBILITY aclError aclopUnregisterCompileFunc(const char *opType);

/* For use inside a selector: kernel, block count and argument blob (copied). */
ACL_FUNC_VISIBILITY aclError aclopSetKernelArgs(aclopKernelDesc *kernelDesc, const char *kernelId, uint32_t blockDim,
                                                const void *args, uint32_t argSize);

/* For use inside a selector: workspace sizes (copied). */
ACL_FUNC_VISIBILITY aclError aclopSetKernelWorkspaceSizes(aclopKernelDesc *kernelDesc, int numWorkspaces,
                                                          size_t *workspaceSizes);

/* Runs the selector again for a dynamic-shape operator signature. */
ACL_FUNC_VISIBILITY aclError aclopUpdateParams(const char *opType, int numInputs,
                                               const aclTensorDesc *const inputDesc[], int numOutputs,
                                               const aclTensorDesc *const outputDesc[], const aclopAttr *attr);

/* Capacity of the operator model cache. */
ACL_FUNC_VISIBILITY aclError aclopSetMaxOpQueueNum(uint64_t maxOpNum);

/* Infers output shapes synchronously into outputDesc. */
ACL_FUNC_VISIBILITY aclError aclopInferShape(const char *opType, int numInputs, aclTensorDesc *inputDesc[],
                                             aclDataBuffer *inputs[], int numOutputs, aclTensorDesc *outputDesc[],
                                             aclopAttr *attr);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_OP_H_ */

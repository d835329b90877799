/*
 * openacl: offline models (acl/acl_mdl.h).
 *
 * Loading .om models (from a file or memory, with runtime-managed or
 * caller-provided work/weight memory, with queues, with a config handle,
 * bundles of sub-models), describing their inputs and outputs, datasets of
 * data buffers, synchronous and stream-ordered execution, dynamic
 * batch / image size / dims gears, and dynamic AIPP parameters.
 *
 * Object lifetimes: every Create* result is owned by the caller and freed
 * with the matching Destroy*. Strings returned by getters live as long as
 * the object they were read from. Model ids are process-wide and start at 1.
 */
#ifndef INC_EXTERNAL_ACL_ACL_MODEL_H_
#define INC_EXTERNAL_ACL_ACL_MODEL_H_

#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Array bounds of the fixed-size structs below. */
#define ACL_DIM_ENDPOINTS 2
#define ACL_MAX_DIM_CNT 128
#define ACL_MAX_TENSOR_NAME_LEN 128
#define ACL_MAX_BATCH_NUM 128
#define ACL_MAX_HW_NUM 128
#define ACL_MAX_SHAPE_COUNT 128
#define ACL_INVALID_NODE_INDEX 0xFFFFFFFF

/* Values of the ACL_MDL_LOAD_TYPE_SIZET load option. */
#define ACL_MDL_LOAD_FROM_FILE 1
#define ACL_MDL_LOAD_FROM_FILE_WITH_MEM 2
#define ACL_MDL_LOAD_FROM_MEM 3
#define ACL_MDL_LOAD_FROM_MEM_WITH_MEM 4
#define ACL_MDL_LOAD_FROM_FILE_WITH_Q 5
#define ACL_MDL_LOAD_FROM_MEM_WITH_Q 6

/* Input that carries the selected dynamic gear (the last model input). */
#define ACL_DYNAMIC_TENSOR_NAME "ascend_mbatch_shape_data"
/* Input that carries the dynamic AIPP parameters. */
#define ACL_DYNAMIC_AIPP_NAME "ascend_dynamic_aipp_data"
/* The only attribute name aclmdlGetOpAttr answers. */
#define ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES "_datadump_original_op_names"

/* Values of the ACL_MDL_WORKSPACE_MEM_OPTIMIZE load option. */
#define ACL_WORKSPACE_MEM_OPTIMIZE_DEFAULT 0
#define ACL_WORKSPACE_MEM_OPTIMIZE_INPUTOUTPUT 1

/* aclmdlRIBindStream flags: first stream of a model / any other stream. */
#define ACL_MODEL_STREAM_FLAG_HEAD 0x00000000U
#define ACL_MODEL_STREAM_FLAG_DEFAULT 0x7FFFFFFFU

typedef struct aclmdlDataset aclmdlDataset;
typedef struct aclmdlDesc aclmdlDesc;
typedef struct aclmdlAIPP aclmdlAIPP;
typedef struct aclAippExtendInfo aclAippExtendInfo;
typedef struct aclmdlConfigHandle aclmdlConfigHandle;
typedef struct aclmdlExecConfigHandle aclmdlExecConfigHandle;
typedef struct aclmdlBundleQueryInfo aclmdlBundleQueryInfo;
typedef void *aclmdlModel;

/* Source image formats of dynamic AIPP. */
typedef enum {
    ACL_YUV420SP_U8 = 1,
    ACL_XRGB8888_U8 = 2,
    ACL_RGB888_U8 = 3,
    ACL_YUV400_U8 = 4,
    ACL_NC1HWC0DI_FP16 = 5,
    ACL_NC1HWC0DI_S8 = 6,
    ACL_ARGB8888_U8 = 7,
    ACL_YUYV_U8 = 8,
    ACL_YUV422SP_U8 = 9,
    ACL_AYUV444_U8 = 10,
    ACL_RAW10 = 11,
    ACL_RAW12 = 12,
    ACL_RAW16 = 13,
    ACL_RAW24 = 14,
    ACL_AIPP_RESERVED = 0xFFFF
} aclAippInputFormat;

/* Load options for aclmdlSetConfigOpt; the suffix names the value's type. */
typedef enum {
    ACL_MDL_PRIORITY_INT32 = 0,
    ACL_MDL_LOAD_TYPE_SIZET = 1,
    ACL_MDL_PATH_PTR = 2,
    ACL_MDL_MEM_ADDR_PTR = 3,
    ACL_MDL_MEM_SIZET = 4,
    ACL_MDL_WEIGHT_ADDR_PTR = 5,
    ACL_MDL_WEIGHT_SIZET = 6,
    ACL_MDL_WORKSPACE_ADDR_PTR = 7,
    ACL_MDL_WORKSPACE_SIZET = 8,
    ACL_MDL_INPUTQ_NUM_SIZET = 9,
    ACL_MDL_INPUTQ_ADDR_PTR = 10,
    ACL_MDL_OUTPUTQ_NUM_SIZET = 11,
    ACL_MDL_OUTPUTQ_ADDR_PTR = 12,
    ACL_MDL_WORKSPACE_MEM_OPTIMIZE = 13,
    ACL_MDL_WEIGHT_PATH_PTR = 14,
    ACL_MDL_MODEL_DESC_PTR = 15,
    ACL_MDL_MODEL_DESC_SIZET = 16,
    ACL_MDL_KERNEL_PTR = 17,
    ACL_MDL_KERNEL_SIZET = 18,
    ACL_MDL_KERNEL_ARGS_PTR = 19,
    ACL_MDL_KERNEL_ARGS_SIZET = 20,
    ACL_MDL_STATIC_TASK_PTR = 21,
    ACL_MDL_STATIC_TASK_SIZET = 22,
    ACL_MDL_DYNAMIC_TASK_PTR = 23,
    ACL_MDL_DYNAMIC_TASK_SIZET = 24,
    ACL_MDL_MEM_MALLOC_POLICY_SIZET = 25,
    ACL_MDL_FIFO_PTR = 26,
    ACL_MDL_FIFO_SIZET = 27,
    ACL_MDL_WITHOUT_GRAPH_INT32 = 28,
    ACL_NPU_PERF_MODE = 29,
    ACL_MDL_RESERVED = 0xFFFF
} aclmdlConfigAttr;

/* Model attributes for aclmdlSetAttribute / aclmdlGetAttribute. */
typedef enum {
    ACL_MDL_ATTR_PRIORITY_INT32 = 0
} aclmdlAttr;

typedef union {
    uint32_t mdlPriority;
    uint32_t reserved[8];
} aclmdlAttrValue_t;

/* Execution options for aclmdlSetExecConfigOpt. */
typedef enum {
    ACL_MDL_STREAM_SYNC_TIMEOUT = 0,
    ACL_MDL_EVENT_SYNC_TIMEOUT = 1,
    ACL_MDL_WORK_ADDR_PTR = 2,
    ACL_MDL_WORK_SIZET = 3,
    ACL_MDL_MPAIMID_SIZET = 4,
    ACL_MDL_AICQOS_SIZET = 5,
    ACL_MDL_AICOST_SIZET = 6,
    ACL_MDL_MEC_TIMETHR_SIZET = 7,
    ACL_MDL_EXEC_PRIORITY_INT32 = 8,
    ACL_MDL_NPU_PERF_MODE = 9
} aclmdlExecConfigAttr;

/* How an input relates to AIPP (see aclmdlGetAippType). */
typedef enum {
    ACL_DATA_WITHOUT_AIPP = 0,
    ACL_DATA_WITH_STATIC_AIPP = 1,
    ACL_DATA_WITH_DYNAMIC_AIPP = 2,
    ACL_DYNAMIC_AIPP_NODE = 3
} aclmdlInputAippType;

/* Name and shape of one model input or output (1160 bytes on LP64). */
typedef struct aclmdlIODims {
    char name[ACL_MAX_TENSOR_NAME_LEN]; /* NUL-terminated */
    size_t dimCount;
    int64_t dims[ACL_MAX_DIM_CNT];
} aclmdlIODims;

/* Per-dim [min, max] of one input. */
typedef struct aclmdlIODimsRange {
    size_t rangeCount;
    int64_t range[ACL_MAX_DIM_CNT][ACL_DIM_ENDPOINTS];
} aclmdlIODimsRange;

/* Shapes and sizes before and after AIPP for one gear. */
typedef struct aclAippDims {
    aclmdlIODims srcDims;
    size_t srcSize;
    aclmdlIODims aippOutdims;
    size_t aippOutSize;
} aclAippDims;

/* Dynamic batch gears. */
typedef struct aclmdlBatch {
    size_t batchCount;
    uint64_t batch[ACL_MAX_BATCH_NUM];
} aclmdlBatch;

/* Dynamic image size gears as (height, width) pairs. */
typedef struct aclmdlHW {
    size_t hwCount;
    uint64_t hw[ACL_MAX_HW_NUM][2];
} aclmdlHW;

/* Static AIPP configuration of one input (see aclmdlGetFirstAippInfo). */
typedef struct aclAippInfo {
    aclAippInputFormat inputFormat;
    int32_t srcImageSizeW;
    int32_t srcImageSizeH;
    int8_t cropSwitch;
    int32_t loadStartPosW;
    int32_t loadStartPosH;
    int32_t cropSizeW;
    int32_t cropSizeH;
    int8_t resizeSwitch;
    int32_t resizeOutputW;
    int32_t resizeOutputH;
    int8_t paddingSwitch;
    int32_t leftPaddingSize;
    int32_t rightPaddingSize;
    int32_t topPaddingSize;
    int32_t bottomPaddingSize;
    int8_t cscSwitch;
    int8_t rbuvSwapSwitch;
    int8_t axSwapSwitch;
    int8_t singleLineMode;
    /* colour-space conversion matrix, row-major */
    int32_t matrixR0C0;
    int32_t matrixR0C1;
    int32_t matrixR0C2;
    int32_t matrixR1C0;
    int32_t matrixR1C1;
    int32_t matrixR1C2;
    int32_t matrixR2C0;
    int32_t matrixR2C1;
    int32_t matrixR2C2;
    int32_t outputBias0;
    int32_t outputBias1;
    int32_t outputBias2;
    int32_t inputBias0;
    int32_t inputBias1;
    int32_t inputBias2;
    int32_t meanChn0;
    int32_t meanChn1;
    int32_t meanChn2;
    int32_t meanChn3;
    float minChn0;
    float minChn1;
    float minChn2;
    float minChn3;
    float varReciChn0;
    float varReciChn1;
    float varReciChn2;
    float varReciChn3;
    aclFormat srcFormat;
    aclDataType srcDatatype;
    size_t srcDimNum;
    size_t shapeCount;
    aclAippDims outDims[ACL_MAX_SHAPE_COUNT];
    aclAippExtendInfo *aippExtend;
} aclAippInfo;

/* Partition sizes of an .exeom file (see aclmdlQueryExeOMDesc). */
typedef struct aclmdlExeOMDesc {
    size_t workSize;
    size_t weightSize;
    size_t modelDescSize;
    size_t kernelSize;
    size_t kernelArgsSize;
    size_t staticTaskSize;
    size_t dynamicTaskSize;
    size_t fifoTaskSize;
    size_t reserved[8];
} aclmdlExeOMDesc;

/* ---- model descriptions ---- */

/* Empty description; NULL on OOM. */
ACL_FUNC_VISIBILITY aclmdlDesc *aclmdlCreateDesc(void);

ACL_FUNC_VISIBILITY aclError aclmdlDestroyDesc(aclmdlDesc *modelDesc);

/* Fills modelDesc from a loaded model; unknown id -> ACL_ERROR_GE_EXEC_MODEL_ID_INVALID. */
ACL_FUNC_VISIBILITY aclError aclmdlGetDesc(aclmdlDesc *modelDesc, uint32_t modelId);

/* Fills modelDesc from a model file without loading it. */
ACL_FUNC_VISIBILITY aclError aclmdlGetDescFromFile(aclmdlDesc *modelDesc, const char *modelPath);

/* Fills modelDesc from an in-memory model image without loading it. */
ACL_FUNC_VISIBILITY aclError aclmdlGetDescFromMem(aclmdlDesc *modelDesc, const void *model, size_t modelSize);

/* Input / output counts; 0 for NULL. */
ACL_FUNC_VISIBILITY size_t aclmdlGetNumInputs(aclmdlDesc *modelDesc);

ACL_FUNC_VISIBILITY size_t aclmdlGetNumOutputs(aclmdlDesc *modelDesc);

/* Byte size of input / output index (largest gear for dynamic models); 0 for NULL or a bad index. */
ACL_FUNC_VISIBILITY size_t aclmdlGetInputSizeByIndex(aclmdlDesc *modelDesc, size_t index);

ACL_FUNC_VISIBILITY size_t aclmdlGetOutputSizeByIndex(aclmdlDesc *modelDesc, size_t index);

/* Execution config with both sync timeouts at -1 (wait forever); NULL on OOM. */
ACL_FUNC_VISIBILITY aclmdlExecConfigHandle *aclmdlCreateExecConfigHandle(void);

ACL_FUNC_VISIBILITY aclError aclmdlDestroyExecConfigHandle(const aclmdlExecConfigHandle *handle);

/* ---- datasets ---- */

/* Empty ordered list of data buffers; NULL on OOM. */
ACL_FUNC_VISIBILITY aclmdlDataset *aclmdlCreateDataset(void);

/* Frees the dataset and the tensor descriptions it holds, never the data buffers. */
ACL_FUNC_VISIBILITY aclError aclmdlDestroyDataset(const aclmdlDataset *dataset);

/* Appends dataBuffer (not copied, still owned by the caller). */
ACL_FUNC_VISIBILITY aclError aclmdlAddDatasetBuffer(aclmdlDataset *dataset, aclDataBuffer *dataBuffer);

/* Stores a copy of tensorDesc for buffer index (NULL clears it); index must be < buffer count. */
ACL_FUNC_VISIBILITY aclError aclmdlSetDatasetTensorDesc(aclmdlDataset *dataset, aclTensorDesc *tensorDesc,
                                                        size_t index);

/* Description of buffer index (owned by the dataset); NULL when none or bad index. */
ACL_FUNC_VISIBILITY aclTensorDesc *aclmdlGetDatasetTensorDesc(const aclmdlDataset *dataset, size_t index);

/* Buffer count; 0 for NULL. */
ACL_FUNC_VISIBILITY size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset *dataset);

/* Buffer index; NULL for NULL or a bad index. */
ACL_FUNC_VISIBILITY aclDataBuffer *aclmdlGetDatasetBuffer(const aclmdlDataset *dataset, size_t index);

/* ---- loading ---- */

/* Loads a model file with runtime-managed memory. Out: *modelId. */
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFile(const char *modelPath, uint32_t *modelId);

/* Bundles: one file holding several sub-models that share variable weights. */
ACL_FUNC_VISIBILITY aclError aclmdlBundleLoadFromFile(const char *modelPath, uint32_t *bundleId);

ACL_FUNC_VISIBILITY aclError aclmdlBundleLoadFromMem(const void *model, size_t modelSize, uint32_t *bundleId);

ACL_FUNC_VISIBILITY aclError aclmdlBundleUnload(uint32_t bundleId);

ACL_FUNC_VISIBILITY aclError aclmdlBundleGetModelNum(uint32_t bundleId, size_t *modelNum);

ACL_FUNC_VISIBILITY aclError aclmdlBundleGetModelId(uint32_t bundleId, size_t index, uint32_t *modelId);

ACL_FUNC_VISIBILITY aclmdlBundleQueryInfo *aclmdlBundleCreateQueryInfo(void);

ACL_FUNC_VISIBILITY aclError aclmdlBundleDestroyQueryInfo(aclmdlBundleQueryInfo *queryInfo);

/* Parses a bundle (sub-model count and sizes) without loading it. */
ACL_FUNC_VISIBILITY aclError aclmdlBundleQueryInfoFromFile(const char *fileName, aclmdlBundleQueryInfo *queryInfo);

ACL_FUNC_VISIBILITY aclError aclmdlBundleQueryInfoFromMem(const void *model, size_t modelSize,
                                                          aclmdlBundleQueryInfo *queryInfo);

ACL_FUNC_VISIBILITY aclError aclmdlBundleGetQueryModelNum(const aclmdlBundleQueryInfo *queryInfo, size_t *modelNum);

ACL_FUNC_VISIBILITY aclError aclmdlBundleGetVarWeightSize(const aclmdlBundleQueryInfo *queryInfo,
                                                          size_t *variableWeightSize);

ACL_FUNC_VISIBILITY aclError aclmdlBundleGetSize(const aclmdlBundleQueryInfo *queryInfo, size_t index, size_t *workSize,
                                                 size_t *constWeightSize);

/* Registers a bundle with caller-owned variable-weight memory; sub-models are loaded one by one. */
ACL_FUNC_VISIBILITY aclError aclmdlBundleInitFromFile(const char *modelPath, void *varWeightPtr, size_t varWeightSize,
                                                      uint32_t *bundleId);

ACL_FUNC_VISIBILITY aclError aclmdlBundleInitFromMem(const void *model, size_t modelSize, void *varWeightPtr,
                                                     size_t varWeightSize, uint32_t *bundleId);

ACL_FUNC_VISIBILITY aclError aclmdlBundleLoadModel(uint32_t bundleId, size_t index, uint32_t *modelId);

ACL_FUNC_VISIBILITY aclError aclmdlBundleLoadModelWithMem(uint32_t bundleId, size_t index, void *workPtr,
                                                          size_t workSize, void *weightPtr, size_t weightSize,
                                                          uint32_t *modelId);

ACL_FUNC_VISIBILITY aclError aclmdlBundleLoadModelWithConfig(uint32_t bundleId, size_t index,
                                                             aclmdlConfigHandle *handle, uint32_t *modelId);

ACL_FUNC_VISIBILITY aclError aclmdlBundleUnloadModel(uint32_t bundleId, uint32_t modelId);

/* Loads an in-memory model image; modelSize 0 is invalid. */
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMem(const void *model, size_t modelSize, uint32_t *modelId);

/*
 * Loads into caller memory sized by aclmdlQuerySize; a NULL pointer lets
 * the runtime allocate that part. The memory stays owned by the caller and
 * must outlive the model.
 */
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFileWithMem(const char *modelPath, uint32_t *modelId, void *workPtr,
                                                       size_t workSize, void *weightPtr, size_t weightSize);

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMemWithMem(const void *model, size_t modelSize, uint32_t *modelId,
                                                      void *workPtr, size_t workSize, void *weightPtr,
                                                      size_t weightSize);

/* Loads a model fed by queues: one queue id per model input / output. */
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFileWithQ(const char *modelPath, uint32_t *modelId, const uint32_t *inputQ,
                                                     size_t inputQNum, const uint32_t *outputQ, size_t outputQNum);

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMemWithQ(const void *model, size_t modelSize, uint32_t *modelId,
                                                    const uint32_t *inputQ, size_t inputQNum, const uint32_t *outputQ,
                                                    size_t outputQNum);

/* ---- execution ---- */

/* Runs the model and waits. Output descriptions are refreshed with the actual shapes. */
ACL_FUNC_VISIBILITY aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output);

/* As aclmdlExecute, on stream, with the timeouts of handle (must not be NULL). */
ACL_FUNC_VISIBILITY aclError aclmdlExecuteV2(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output,
                                             aclrtStream stream, const aclmdlExecConfigHandle *handle);

ACL_FUNC_VISIBILITY aclError aclmdlExecuteAsyncV2(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output,
                                                  aclrtStream stream, const aclmdlExecConfigHandle *handle);

/* Enqueues the run on stream; outputs are valid after the stream is synchronised. */
ACL_FUNC_VISIBILITY aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output,
                                                aclrtStream stream);

/* Unloads the model and frees the memory the runtime allocated for it. */
ACL_FUNC_VISIBILITY aclError aclmdlUnload(uint32_t modelId);

/* Only ACL_MDL_ATTR_PRIORITY_INT32 is defined. */
ACL_FUNC_VISIBILITY aclError aclmdlSetAttribute(uint32_t modelId, aclmdlAttr attr, aclmdlAttrValue_t *attrValue);

ACL_FUNC_VISIBILITY aclError aclmdlGetAttribute(uint32_t modelId, aclmdlAttr attr, aclmdlAttrValue_t *attrValue);

/* Out: work and weight memory sizes a model file needs (for the *WithMem loads). */
ACL_FUNC_VISIBILITY aclError aclmdlQuerySize(const char *fileName, size_t *workSize, size_t *weightSize);

ACL_FUNC_VISIBILITY aclError aclmdlQueryExeOMDesc(const char *fileName, aclmdlExeOMDesc *mdlPartitionSize);

ACL_FUNC_VISIBILITY aclError aclmdlQuerySizeFromMem(const void *model, size_t modelSize, size_t *workSize,
                                                    size_t *weightSize);

/* ---- dynamic gears: write the selected gear into the buffer at index ---- */

ACL_FUNC_VISIBILITY aclError aclmdlSetDynamicBatchSize(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                                       uint64_t batchSize);

ACL_FUNC_VISIBILITY aclError aclmdlSetDynamicHWSize(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                                    uint64_t height, uint64_t width);

ACL_FUNC_VISIBILITY aclError aclmdlSetInputDynamicDims(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                                       const aclmdlIODims *dims);

/* ---- input / output information (index out of range -> ACL_ERROR_INVALID_PARAM) ---- */

ACL_FUNC_VISIBILITY aclError aclmdlGetInputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims);

/* As aclmdlGetInputDims, but the shape before static AIPP. */
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDimsV2(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims);

ACL_FUNC_VISIBILITY aclError aclmdlGetInputDimsRange(const aclmdlDesc *modelDesc, size_t index,
                                                     aclmdlIODimsRange *dimsRange);

ACL_FUNC_VISIBILITY aclError aclmdlGetOutputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims);

/* Output dims for the gear currently selected. */
ACL_FUNC_VISIBILITY aclError aclmdlGetCurOutputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims);

/* Attribute attr of op opName (string owned by modelDesc); NULL when absent. */
ACL_FUNC_VISIBILITY const char *aclmdlGetOpAttr(aclmdlDesc *modelDesc, const char *opName, const char *attr);

/* Tensor names (owned by modelDesc); "" for NULL or a bad index. */
ACL_FUNC_VISIBILITY const char *aclmdlGetInputNameByIndex(const aclmdlDesc *modelDesc, size_t index);

ACL_FUNC_VISIBILITY const char *aclmdlGetOutputNameByIndex(const aclmdlDesc *modelDesc, size_t index);

/* ACL_FORMAT_UNDEFINED / ACL_DT_UNDEFINED for NULL or a bad index. */
ACL_FUNC_VISIBILITY aclFormat aclmdlGetInputFormat(const aclmdlDesc *modelDesc, size_t index);

ACL_FUNC_VISIBILITY aclFormat aclmdlGetOutputFormat(const aclmdlDesc *modelDesc, size_t index);

ACL_FUNC_VISIBILITY aclDataType aclmdlGetInputDataType(const aclmdlDesc *modelDesc, size_t index);

ACL_FUNC_VISIBILITY aclDataType aclmdlGetOutputDataType(const aclmdlDesc *modelDesc, size_t index);

/* Exact-name lookup; ACL_ERROR_INVALID_PARAM when not found. */
ACL_FUNC_VISIBILITY aclError aclmdlGetInputIndexByName(const aclmdlDesc *modelDesc, const char *name, size_t *index);

ACL_FUNC_VISIBILITY aclError aclmdlGetOutputIndexByName(const aclmdlDesc *modelDesc, const char *name, size_t *index);

/* Batch gears; batchCount 0 for a model without dynamic batch. */
ACL_FUNC_VISIBILITY aclError aclmdlGetDynamicBatch(const aclmdlDesc *modelDesc, aclmdlBatch *batch);

/* Image size gears; hwCount 0 when none. */
ACL_FUNC_VISIBILITY aclError aclmdlGetDynamicHW(const aclmdlDesc *modelDesc, size_t index, aclmdlHW *hw);

/* Number of dynamic dims gears; index must be (size_t)-1. */
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDynamicGearCount(const aclmdlDesc *modelDesc, size_t index,
                                                            size_t *gearCount);

/* Out: dims[0..gearCount) = each dynamic dims gear; index must be (size_t)-1. */
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDynamicDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims,
                                                       size_t gearCount);

/* ---- dynamic AIPP ---- */

/* Parameter set for batchSize images; NULL when batchSize is 0 or on OOM. */
ACL_FUNC_VISIBILITY aclmdlAIPP *aclmdlCreateAIPP(uint64_t batchSize);

ACL_FUNC_VISIBILITY aclError aclmdlDestroyAIPP(const aclmdlAIPP *aippParmsSet);

/* Out: *size = bytes of the dynamic AIPP input buffer for batchSize images. */
ACL_FUNC_VISIBILITY aclError aclmdlGetAippDataSize(uint64_t batchSize, size_t *size);

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPInputFormat(aclmdlAIPP *aippParmsSet, aclAippInputFormat inputFormat);

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPCscParams(aclmdlAIPP *aippParmsSet, int8_t cscSwitch, int16_t cscMatrixR0C0,
                                                    int16_t cscMatrixR0C1, int16_t cscMatrixR0C2,
                                                    int16_t cscMatrixR1C0, int16_t cscMatrixR1C1,
                                                    int16_t cscMatrixR1C2, int16_t cscMatrixR2C0,
                                                    int16_t cscMatrixR2C1, int16_t cscMatrixR2C2,
                                                    uint8_t cscOutputBiasR0, uint8_t cscOutputBiasR1,
                                                    uint8_t cscOutputBiasR2, uint8_t cscInputBiasR0,
                                                    uint8_t cscInputBiasR1, uint8_t cscInputBiasR2);

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPRbuvSwapSwitch(aclmdlAIPP *aippParmsSet, int8_t rbuvSwapSwitch);

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPAxSwapSwitch(aclmdlAIPP *aippParmsSet, int8_t axSwapSwitch);

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPSrcImageSize(aclmdlAIPP *aippParmsSet, int32_t srcImageSizeW,
                                                       int32_t srcImageSizeH);

/* The per-image setters below apply to image batchIndex of the set. */
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPScfParams(aclmdlAIPP *aippParmsSet, int8_t scfSwitch, int32_t scfInputSizeW,
                                                    int32_t scfInputSizeH, int32_t scfOutputSizeW,
                                                    int32_t scfOutputSizeH, uint64_t batchIndex);

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPCropParams(aclmdlAIPP *aippParmsSet, int8_t cropSwitch,
                                                     int32_t cropStartPosW, int32_t cropStartPosH, int32_t cropSizeW,
                                                     int32_t cropSizeH, uint64_t batchIndex);

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPPaddingParams(aclmdlAIPP *aippParmsSet, int8_t paddingSwitch,
                                                        int32_t paddingSizeTop, int32_t paddingSizeBottom,
                                                        int32_t paddingSizeLeft, int32_t paddingSizeRight,
                                                        uint64_t batchIndex);

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPDtcPixelMean(aclmdlAIPP *aippParmsSet, int16_t dtcPixelMeanChn0,
                                                       int16_t dtcPixelMeanChn1, int16_t dtcPixelMeanChn2,
                                                       int16_t dtcPixelMeanChn3, uint64_t batchIndex);

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPDtcPixelMin(aclmdlAIPP *aippParmsSet, float dtcPixelMinChn0,
                                                      float dtcPixelMinChn1, float dtcPixelMinChn2,
                                                      float dtcPixelMinChn3, uint64_t batchIndex);

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPPixelVarReci(aclmdlAIPP *aippParmsSet, float dtcPixelVarReciChn0,
                                                       float dtcPixelVarReciChn1, float dtcPixelVarReciChn2,
                                                       float dtcPixelVarReciChn3, uint64_t batchIndex);

/* Serialises the set into the dynamic AIPP buffer at index of dataset. */
ACL_FUNC_VISIBILITY aclError aclmdlSetInputAIPP(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                                const aclmdlAIPP *aippParmsSet);

/* As aclmdlSetInputAIPP, index naming the data input the AIPP node is attached to. */
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPByInputIndex(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                                       const aclmdlAIPP *aippParmsSet);

/* Out: AIPP kind of input index and the index of its attached AIPP data input. */
ACL_FUNC_VISIBILITY aclError aclmdlGetAippType(uint32_t modelId, size_t index, aclmdlInputAippType *type,
                                               size_t *dynamicAttachedDataIndex);

/* Static AIPP configuration of input index; ACL_ERROR_GE_AIPP_NOT_EXIST without AIPP. */
ACL_FUNC_VISIBILITY aclError aclmdlGetFirstAippInfo(uint32_t modelId, size_t index, aclAippInfo *aippInfo);

/*
 * After a task failure: op name (into opName[opNameLen]) and new arrays of
 * input / output descriptions for (device, stream, task). The caller frees
 * the arrays with aclDestroyTensorDesc.
 */
ACL_FUNC_VISIBILITY aclError aclmdlCreateAndGetOpDesc(uint32_t deviceId, uint32_t streamId, uint32_t taskId,
                                                      char *opName, size_t opNameLen, aclTensorDesc **inputDesc,
                                                      size_t *numInputs, aclTensorDesc **outputDesc,
                                                      size_t *numOutputs);

/* ---- load / execution configuration ---- */

/* Loads as described by the options of handle. Out: *modelId. */
ACL_FUNC_VISIBILITY aclError aclmdlLoadWithConfig(const aclmdlConfigHandle *handle, uint32_t *modelId);

ACL_FUNC_VISIBILITY aclmdlConfigHandle *aclmdlCreateConfigHandle(void);

ACL_FUNC_VISIBILITY aclError aclmdlDestroyConfigHandle(aclmdlConfigHandle *handle);

/* Copies valueSize bytes at attrValue; valueSize must match the option's type. */
ACL_FUNC_VISIBILITY aclError aclmdlSetConfigOpt(aclmdlConfigHandle *handle, aclmdlConfigAttr attr,
                                                const void *attrValue, size_t valueSize);

ACL_FUNC_VISIBILITY aclError aclmdlSetExecConfigOpt(aclmdlExecConfigHandle *handle, aclmdlExecConfigAttr attr,
                                                    const void *attrValue, size_t valueSize);

/* Caller device memory holding one external weight file (size a non-zero multiple of 32). */
ACL_FUNC_VISIBILITY aclError aclmdlSetExternalWeightAddress(aclmdlConfigHandle *handle, const char *weightFileName,
                                                            void *devPtr, size_t size);

/* Real tensor name behind a (possibly generated) name; NULL when unknown. */
ACL_FUNC_VISIBILITY const char *aclmdlGetTensorRealName(const aclmdlDesc *modelDesc, const char *name);

ACL_FUNC_VISIBILITY aclError aclRecoverAllHcclTasks(int32_t deviceId);

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromModel(const aclmdlModel *model, const aclmdlConfigHandle *handle,
                                                 uint32_t *modelId);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_MODEL_H_ */

/*
 * ABI freeze: acl/acl_base_mdl.h and acl/acl_mdl.h.
 *
 * Every enumerator, macro and error-code value (with its type), the size,
 * alignment, tag and field offsets of every public struct, every handle and
 * callback typedef, and the exact type of every declared function. The
 * numbers were measured once by compiling CANN's own headers (hicann/runtime
 * 681ef761, hicann/ge ffdcbc9f, graphengine acl_dvpp.h) with g++ on x86-64 and
 * agree with CANN's published API (tests/abi/expected_symbols.txt). A failure here means an
 * ABI change: fix the header, do not edit the expectation.
 *
 * Compile-time checks use _Static_assert; "static const" objects are not
 * constant expressions in C, so their values are checked when the program
 * runs (their types are still checked at compile time).
 */
#include "abi_check.h"

#include "acl/acl_mdl.h"

/* ---- acl/acl_base_mdl.h ---- */
ABI_MACRO(ACL_TENSOR_SHAPE_RANGE_NUM, 2, int);
ABI_MACRO(ACL_TENSOR_VALUE_RANGE_NUM, 2, int);
ABI_MACRO(ACL_UNKNOWN_RANK, 18446744073709551614UL, unsigned long);
ABI_TYPE((aclTensorDesc *)0, struct aclTensorDesc*);

ABI_FUNC(aclCreateTensorDesc, aclTensorDesc* (*)(aclDataType, int, long const*, aclFormat));
ABI_FUNC(aclDestroyTensorDesc, void (*)(aclTensorDesc const*));
ABI_FUNC(aclSetTensorShapeRange, int (*)(aclTensorDesc*, unsigned long, long (*)[2]));
ABI_FUNC(aclSetTensorValueRange, int (*)(aclTensorDesc*, unsigned long, long (*)[2]));
ABI_FUNC(aclGetTensorDescType, aclDataType (*)(aclTensorDesc const*));
ABI_FUNC(aclGetTensorDescFormat, aclFormat (*)(aclTensorDesc const*));
ABI_FUNC(aclGetTensorDescSize, unsigned long (*)(aclTensorDesc const*));
ABI_FUNC(aclGetTensorDescElementCount, unsigned long (*)(aclTensorDesc const*));
ABI_FUNC(aclGetTensorDescNumDims, unsigned long (*)(aclTensorDesc const*));
ABI_FUNC(aclGetTensorDescDim, long (*)(aclTensorDesc const*, unsigned long));
ABI_FUNC(aclGetTensorDescDimV2, int (*)(aclTensorDesc const*, unsigned long, long*));
ABI_FUNC(aclGetTensorDescDimRange, int (*)(aclTensorDesc const*, unsigned long, unsigned long, long*));
ABI_FUNC(aclSetTensorDescName, void (*)(aclTensorDesc*, char const*));
ABI_FUNC(aclGetTensorDescName, char const* (*)(aclTensorDesc*));
ABI_FUNC(aclTransTensorDescFormat, int (*)(aclTensorDesc const*, aclFormat, aclTensorDesc**));
ABI_FUNC(aclSetTensorStorageFormat, int (*)(aclTensorDesc*, aclFormat));
ABI_FUNC(aclSetTensorStorageShape, int (*)(aclTensorDesc*, int, long const*));
ABI_FUNC(aclSetTensorFormat, int (*)(aclTensorDesc*, aclFormat));
ABI_FUNC(aclSetTensorShape, int (*)(aclTensorDesc*, int, long const*));
ABI_FUNC(aclSetTensorOriginFormat, int (*)(aclTensorDesc*, aclFormat));
ABI_FUNC(aclSetTensorOriginShape, int (*)(aclTensorDesc*, int, long const*));
ABI_FUNC(aclGetTensorDescByIndex, aclTensorDesc* (*)(aclTensorDesc*, unsigned long));
ABI_FUNC(aclGetTensorDescAddress, void* (*)(aclTensorDesc const*));
ABI_FUNC(aclSetTensorDynamicInput, int (*)(aclTensorDesc*, char const*));
ABI_FUNC(aclSetTensorConst, int (*)(aclTensorDesc*, void*, unsigned long));
ABI_FUNC(aclSetTensorPlaceMent, int (*)(aclTensorDesc*, aclMemType));

/* ---- acl/acl_mdl.h ---- */

ABI_SIZE(aclAippInputFormat, 4, 4);
ABI_VALUE(ACL_YUV420SP_U8, 1);
ABI_VALUE(ACL_XRGB8888_U8, 2);
ABI_VALUE(ACL_RGB888_U8, 3);
ABI_VALUE(ACL_YUV400_U8, 4);
ABI_VALUE(ACL_NC1HWC0DI_FP16, 5);
ABI_VALUE(ACL_NC1HWC0DI_S8, 6);
ABI_VALUE(ACL_ARGB8888_U8, 7);
ABI_VALUE(ACL_YUYV_U8, 8);
ABI_VALUE(ACL_YUV422SP_U8, 9);
ABI_VALUE(ACL_AYUV444_U8, 10);
ABI_VALUE(ACL_RAW10, 11);
ABI_VALUE(ACL_RAW12, 12);
ABI_VALUE(ACL_RAW16, 13);
ABI_VALUE(ACL_RAW24, 14);
ABI_VALUE(ACL_AIPP_RESERVED, 65535);

ABI_SIZE(aclmdlConfigAttr, 4, 4);
ABI_VALUE(ACL_MDL_PRIORITY_INT32, 0);
ABI_VALUE(ACL_MDL_LOAD_TYPE_SIZET, 1);
ABI_VALUE(ACL_MDL_PATH_PTR, 2);
ABI_VALUE(ACL_MDL_MEM_ADDR_PTR, 3);
ABI_VALUE(ACL_MDL_MEM_SIZET, 4);
ABI_VALUE(ACL_MDL_WEIGHT_ADDR_PTR, 5);
ABI_VALUE(ACL_MDL_WEIGHT_SIZET, 6);
ABI_VALUE(ACL_MDL_WORKSPACE_ADDR_PTR, 7);
ABI_VALUE(ACL_MDL_WORKSPACE_SIZET, 8);
ABI_VALUE(ACL_MDL_INPUTQ_NUM_SIZET, 9);
ABI_VALUE(ACL_MDL_INPUTQ_ADDR_PTR, 10);
ABI_VALUE(ACL_MDL_OUTPUTQ_NUM_SIZET, 11);
ABI_VALUE(ACL_MDL_OUTPUTQ_ADDR_PTR, 12);
ABI_VALUE(ACL_MDL_WORKSPACE_MEM_OPTIMIZE, 13);
ABI_VALUE(ACL_MDL_WEIGHT_PATH_PTR, 14);
ABI_VALUE(ACL_MDL_MODEL_DESC_PTR, 15);
ABI_VALUE(ACL_MDL_MODEL_DESC_SIZET, 16);
ABI_VALUE(ACL_MDL_KERNEL_PTR, 17);
ABI_VALUE(ACL_MDL_KERNEL_SIZET, 18);
ABI_VALUE(ACL_MDL_KERNEL_ARGS_PTR, 19);
ABI_VALUE(ACL_MDL_KERNEL_ARGS_SIZET, 20);
ABI_VALUE(ACL_MDL_STATIC_TASK_PTR, 21);
ABI_VALUE(ACL_MDL_STATIC_TASK_SIZET, 22);
ABI_VALUE(ACL_MDL_DYNAMIC_TASK_PTR, 23);
ABI_VALUE(ACL_MDL_DYNAMIC_TASK_SIZET, 24);
ABI_VALUE(ACL_MDL_MEM_MALLOC_POLICY_SIZET, 25);
ABI_VALUE(ACL_MDL_FIFO_PTR, 26);
ABI_VALUE(ACL_MDL_FIFO_SIZET, 27);
ABI_VALUE(ACL_MDL_WITHOUT_GRAPH_INT32, 28);
ABI_VALUE(ACL_NPU_PERF_MODE, 29);
ABI_VALUE(ACL_MDL_RESERVED, 65535);

ABI_SIZE(aclmdlAttr, 4, 4);
ABI_VALUE(ACL_MDL_ATTR_PRIORITY_INT32, 0);

ABI_SIZE(aclmdlExecConfigAttr, 4, 4);
ABI_VALUE(ACL_MDL_STREAM_SYNC_TIMEOUT, 0);
ABI_VALUE(ACL_MDL_EVENT_SYNC_TIMEOUT, 1);
ABI_VALUE(ACL_MDL_WORK_ADDR_PTR, 2);
ABI_VALUE(ACL_MDL_WORK_SIZET, 3);
ABI_VALUE(ACL_MDL_MPAIMID_SIZET, 4);
ABI_VALUE(ACL_MDL_AICQOS_SIZET, 5);
ABI_VALUE(ACL_MDL_AICOST_SIZET, 6);
ABI_VALUE(ACL_MDL_MEC_TIMETHR_SIZET, 7);
ABI_VALUE(ACL_MDL_EXEC_PRIORITY_INT32, 8);
ABI_VALUE(ACL_MDL_NPU_PERF_MODE, 9);

ABI_SIZE(aclmdlInputAippType, 4, 4);
ABI_VALUE(ACL_DATA_WITHOUT_AIPP, 0);
ABI_VALUE(ACL_DATA_WITH_STATIC_AIPP, 1);
ABI_VALUE(ACL_DATA_WITH_DYNAMIC_AIPP, 2);
ABI_VALUE(ACL_DYNAMIC_AIPP_NODE, 3);
ABI_MACRO(ACL_DIM_ENDPOINTS, 2, int);
ABI_MACRO(ACL_MAX_DIM_CNT, 128, int);
ABI_MACRO(ACL_MAX_TENSOR_NAME_LEN, 128, int);
ABI_MACRO(ACL_MAX_BATCH_NUM, 128, int);
ABI_MACRO(ACL_MAX_HW_NUM, 128, int);
ABI_MACRO(ACL_MAX_SHAPE_COUNT, 128, int);
ABI_MACRO(ACL_INVALID_NODE_INDEX, 4294967295U, unsigned int);
ABI_MACRO(ACL_MDL_LOAD_FROM_FILE, 1, int);
ABI_MACRO(ACL_MDL_LOAD_FROM_FILE_WITH_MEM, 2, int);
ABI_MACRO(ACL_MDL_LOAD_FROM_MEM, 3, int);
ABI_MACRO(ACL_MDL_LOAD_FROM_MEM_WITH_MEM, 4, int);
ABI_MACRO(ACL_MDL_LOAD_FROM_FILE_WITH_Q, 5, int);
ABI_MACRO(ACL_MDL_LOAD_FROM_MEM_WITH_Q, 6, int);
ABI_STRING(ACL_DYNAMIC_TENSOR_NAME, "ascend_mbatch_shape_data");
ABI_STRING(ACL_DYNAMIC_AIPP_NAME, "ascend_dynamic_aipp_data");
ABI_STRING(ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES, "_datadump_original_op_names");
ABI_MACRO(ACL_WORKSPACE_MEM_OPTIMIZE_DEFAULT, 0, int);
ABI_MACRO(ACL_WORKSPACE_MEM_OPTIMIZE_INPUTOUTPUT, 1, int);
ABI_MACRO(ACL_MODEL_STREAM_FLAG_HEAD, 0U, unsigned int);
ABI_MACRO(ACL_MODEL_STREAM_FLAG_DEFAULT, 2147483647U, unsigned int);
ABI_TYPE((aclmdlDataset *)0, struct aclmdlDataset*);
ABI_TYPE((aclmdlDesc *)0, struct aclmdlDesc*);
ABI_TYPE((aclmdlAIPP *)0, struct aclmdlAIPP*);
ABI_TYPE((aclAippExtendInfo *)0, struct aclAippExtendInfo*);
ABI_TYPE((aclmdlConfigHandle *)0, struct aclmdlConfigHandle*);
ABI_TYPE((aclmdlExecConfigHandle *)0, struct aclmdlExecConfigHandle*);
ABI_TYPE((aclmdlBundleQueryInfo *)0, struct aclmdlBundleQueryInfo*);
ABI_TYPE((aclmdlModel)0, void*);

ABI_SIZE(aclmdlAttrValue_t, 32, 4);
ABI_FIELD(aclmdlAttrValue_t, mdlPriority, 0, unsigned int*);
ABI_FIELD(aclmdlAttrValue_t, reserved, 0, unsigned int (*)[8]);

ABI_SIZE(aclmdlIODims, 1160, 8);
ABI_TYPE((aclmdlIODims *)0, struct aclmdlIODims *);
ABI_FIELD(aclmdlIODims, name, 0, char (*)[128]);
ABI_FIELD(aclmdlIODims, dimCount, 128, unsigned long*);
ABI_FIELD(aclmdlIODims, dims, 136, long (*)[128]);

ABI_SIZE(aclmdlIODimsRange, 2056, 8);
ABI_TYPE((aclmdlIODimsRange *)0, struct aclmdlIODimsRange *);
ABI_FIELD(aclmdlIODimsRange, rangeCount, 0, unsigned long*);
ABI_FIELD(aclmdlIODimsRange, range, 8, long (*)[128][2]);

ABI_SIZE(aclAippDims, 2336, 8);
ABI_TYPE((aclAippDims *)0, struct aclAippDims *);
ABI_FIELD(aclAippDims, srcDims, 0, aclmdlIODims*);
ABI_FIELD(aclAippDims, srcSize, 1160, unsigned long*);
ABI_FIELD(aclAippDims, aippOutdims, 1168, aclmdlIODims*);
ABI_FIELD(aclAippDims, aippOutSize, 2328, unsigned long*);

ABI_SIZE(aclmdlBatch, 1032, 8);
ABI_TYPE((aclmdlBatch *)0, struct aclmdlBatch *);
ABI_FIELD(aclmdlBatch, batchCount, 0, unsigned long*);
ABI_FIELD(aclmdlBatch, batch, 8, unsigned long (*)[128]);

ABI_SIZE(aclmdlHW, 2056, 8);
ABI_TYPE((aclmdlHW *)0, struct aclmdlHW *);
ABI_FIELD(aclmdlHW, hwCount, 0, unsigned long*);
ABI_FIELD(aclmdlHW, hw, 8, unsigned long (*)[128][2]);

ABI_SIZE(aclAippInfo, 299216, 8);
ABI_TYPE((aclAippInfo *)0, struct aclAippInfo *);
ABI_FIELD(aclAippInfo, inputFormat, 0, aclAippInputFormat*);
ABI_FIELD(aclAippInfo, srcImageSizeW, 4, int*);
ABI_FIELD(aclAippInfo, srcImageSizeH, 8, int*);
ABI_FIELD(aclAippInfo, cropSwitch, 12, signed char*);
ABI_FIELD(aclAippInfo, loadStartPosW, 16, int*);
ABI_FIELD(aclAippInfo, loadStartPosH, 20, int*);
ABI_FIELD(aclAippInfo, cropSizeW, 24, int*);
ABI_FIELD(aclAippInfo, cropSizeH, 28, int*);
ABI_FIELD(aclAippInfo, resizeSwitch, 32, signed char*);
ABI_FIELD(aclAippInfo, resizeOutputW, 36, int*);
ABI_FIELD(aclAippInfo, resizeOutputH, 40, int*);
ABI_FIELD(aclAippInfo, paddingSwitch, 44, signed char*);
ABI_FIELD(aclAippInfo, leftPaddingSize, 48, int*);
ABI_FIELD(aclAippInfo, rightPaddingSize, 52, int*);
ABI_FIELD(aclAippInfo, topPaddingSize, 56, int*);
ABI_FIELD(aclAippInfo, bottomPaddingSize, 60, int*);
ABI_FIELD(aclAippInfo, cscSwitch, 64, signed char*);
ABI_FIELD(aclAippInfo, rbuvSwapSwitch, 65, signed char*);
ABI_FIELD(aclAippInfo, axSwapSwitch, 66, signed char*);
ABI_FIELD(aclAippInfo, singleLineMode, 67, signed char*);
ABI_FIELD(aclAippInfo, matrixR0C0, 68, int*);
ABI_FIELD(aclAippInfo, matrixR0C1, 72, int*);
ABI_FIELD(aclAippInfo, matrixR0C2, 76, int*);
ABI_FIELD(aclAippInfo, matrixR1C0, 80, int*);
ABI_FIELD(aclAippInfo, matrixR1C1, 84, int*);
ABI_FIELD(aclAippInfo, matrixR1C2, 88, int*);
ABI_FIELD(aclAippInfo, matrixR2C0, 92, int*);
ABI_FIELD(aclAippInfo, matrixR2C1, 96, int*);
ABI_FIELD(aclAippInfo, matrixR2C2, 100, int*);
ABI_FIELD(aclAippInfo, outputBias0, 104, int*);
ABI_FIELD(aclAippInfo, outputBias1, 108, int*);
ABI_FIELD(aclAippInfo, outputBias2, 112, int*);
ABI_FIELD(aclAippInfo, inputBias0, 116, int*);
ABI_FIELD(aclAippInfo, inputBias1, 120, int*);
ABI_FIELD(aclAippInfo, inputBias2, 124, int*);
ABI_FIELD(aclAippInfo, meanChn0, 128, int*);
ABI_FIELD(aclAippInfo, meanChn1, 132, int*);
ABI_FIELD(aclAippInfo, meanChn2, 136, int*);
ABI_FIELD(aclAippInfo, meanChn3, 140, int*);
ABI_FIELD(aclAippInfo, minChn0, 144, float*);
ABI_FIELD(aclAippInfo, minChn1, 148, float*);
ABI_FIELD(aclAippInfo, minChn2, 152, float*);
ABI_FIELD(aclAippInfo, minChn3, 156, float*);
ABI_FIELD(aclAippInfo, varReciChn0, 160, float*);
ABI_FIELD(aclAippInfo, varReciChn1, 164, float*);
ABI_FIELD(aclAippInfo, varReciChn2, 168, float*);
ABI_FIELD(aclAippInfo, varReciChn3, 172, float*);
ABI_FIELD(aclAippInfo, srcFormat, 176, aclFormat*);
ABI_FIELD(aclAippInfo, srcDatatype, 180, aclDataType*);
ABI_FIELD(aclAippInfo, srcDimNum, 184, unsigned long*);
ABI_FIELD(aclAippInfo, shapeCount, 192, unsigned long*);
ABI_FIELD(aclAippInfo, outDims, 200, aclAippDims (*)[128]);
ABI_FIELD(aclAippInfo, aippExtend, 299208, aclAippExtendInfo**);

ABI_SIZE(aclmdlExeOMDesc, 128, 8);
ABI_TYPE((aclmdlExeOMDesc *)0, struct aclmdlExeOMDesc *);
ABI_FIELD(aclmdlExeOMDesc, workSize, 0, unsigned long*);
ABI_FIELD(aclmdlExeOMDesc, weightSize, 8, unsigned long*);
ABI_FIELD(aclmdlExeOMDesc, modelDescSize, 16, unsigned long*);
ABI_FIELD(aclmdlExeOMDesc, kernelSize, 24, unsigned long*);
ABI_FIELD(aclmdlExeOMDesc, kernelArgsSize, 32, unsigned long*);
ABI_FIELD(aclmdlExeOMDesc, staticTaskSize, 40, unsigned long*);
ABI_FIELD(aclmdlExeOMDesc, dynamicTaskSize, 48, unsigned long*);
ABI_FIELD(aclmdlExeOMDesc, fifoTaskSize, 56, unsigned long*);
ABI_FIELD(aclmdlExeOMDesc, reserved, 64, unsigned long (*)[8]);

ABI_FUNC(aclmdlCreateDesc, aclmdlDesc* (*)(void));
ABI_FUNC(aclmdlDestroyDesc, int (*)(aclmdlDesc*));
ABI_FUNC(aclmdlGetDesc, int (*)(aclmdlDesc*, unsigned int));
ABI_FUNC(aclmdlGetDescFromFile, int (*)(aclmdlDesc*, char const*));
ABI_FUNC(aclmdlGetDescFromMem, int (*)(aclmdlDesc*, void const*, unsigned long));
ABI_FUNC(aclmdlGetNumInputs, unsigned long (*)(aclmdlDesc*));
ABI_FUNC(aclmdlGetNumOutputs, unsigned long (*)(aclmdlDesc*));
ABI_FUNC(aclmdlGetInputSizeByIndex, unsigned long (*)(aclmdlDesc*, unsigned long));
ABI_FUNC(aclmdlGetOutputSizeByIndex, unsigned long (*)(aclmdlDesc*, unsigned long));
ABI_FUNC(aclmdlCreateExecConfigHandle, aclmdlExecConfigHandle* (*)(void));
ABI_FUNC(aclmdlDestroyExecConfigHandle, int (*)(aclmdlExecConfigHandle const*));
ABI_FUNC(aclmdlCreateDataset, aclmdlDataset* (*)(void));
ABI_FUNC(aclmdlDestroyDataset, int (*)(aclmdlDataset const*));
ABI_FUNC(aclmdlAddDatasetBuffer, int (*)(aclmdlDataset*, aclDataBuffer*));
ABI_FUNC(aclmdlSetDatasetTensorDesc, int (*)(aclmdlDataset*, aclTensorDesc*, unsigned long));
ABI_FUNC(aclmdlGetDatasetTensorDesc, aclTensorDesc* (*)(aclmdlDataset const*, unsigned long));
ABI_FUNC(aclmdlGetDatasetNumBuffers, unsigned long (*)(aclmdlDataset const*));
ABI_FUNC(aclmdlGetDatasetBuffer, aclDataBuffer* (*)(aclmdlDataset const*, unsigned long));
ABI_FUNC(aclmdlLoadFromFile, int (*)(char const*, unsigned int*));
ABI_FUNC(aclmdlBundleLoadFromFile, int (*)(char const*, unsigned int*));
ABI_FUNC(aclmdlBundleLoadFromMem, int (*)(void const*, unsigned long, unsigned int*));
ABI_FUNC(aclmdlBundleUnload, int (*)(unsigned int));
ABI_FUNC(aclmdlBundleGetModelNum, int (*)(unsigned int, unsigned long*));
ABI_FUNC(aclmdlBundleGetModelId, int (*)(unsigned int, unsigned long, unsigned int*));
ABI_FUNC(aclmdlBundleCreateQueryInfo, aclmdlBundleQueryInfo* (*)(void));
ABI_FUNC(aclmdlBundleDestroyQueryInfo, int (*)(aclmdlBundleQueryInfo*));
ABI_FUNC(aclmdlBundleQueryInfoFromFile, int (*)(char const*, aclmdlBundleQueryInfo*));
ABI_FUNC(aclmdlBundleQueryInfoFromMem, int (*)(void const*, unsigned long, aclmdlBundleQueryInfo*));
ABI_FUNC(aclmdlBundleGetQueryModelNum, int (*)(aclmdlBundleQueryInfo const*, unsigned long*));
ABI_FUNC(aclmdlBundleGetVarWeightSize, int (*)(aclmdlBundleQueryInfo const*, unsigned long*));
ABI_FUNC(aclmdlBundleGetSize, int (*)(aclmdlBundleQueryInfo const*, unsigned long, unsigned long*, unsigned long*));
ABI_FUNC(aclmdlBundleInitFromFile, int (*)(char const*, void*, unsigned long, unsigned int*));
ABI_FUNC(aclmdlBundleInitFromMem, int (*)(void const*, unsigned long, void*, unsigned long, unsigned int*));
ABI_FUNC(aclmdlBundleLoadModel, int (*)(unsigned int, unsigned long, unsigned int*));
ABI_FUNC(aclmdlBundleLoadModelWithMem,
         int (*)(unsigned int, unsigned long, void*, unsigned long, void*, unsigned long, unsigned int*));
ABI_FUNC(aclmdlBundleLoadModelWithConfig, int (*)(unsigned int, unsigned long, aclmdlConfigHandle*, unsigned int*));
ABI_FUNC(aclmdlBundleUnloadModel, int (*)(unsigned int, unsigned int));
ABI_FUNC(aclmdlLoadFromMem, int (*)(void const*, unsigned long, unsigned int*));
ABI_FUNC(aclmdlLoadFromFileWithMem, int (*)(char const*, unsigned int*, void*, unsigned long, void*, unsigned long));
ABI_FUNC(aclmdlLoadFromMemWithMem,
         int (*)(void const*, unsigned long, unsigned int*, void*, unsigned long, void*, unsigned long));
ABI_FUNC(aclmdlLoadFromFileWithQ,
         int (*)(char const*, unsigned int*, unsigned int const*, unsigned long, unsigned int const*, unsigned long));
ABI_FUNC(aclmdlLoadFromMemWithQ,
         int (*)(void const*, unsigned long, unsigned int*, unsigned int const*, unsigned long, unsigned int const*,
             unsigned long));
ABI_FUNC(aclmdlExecute, int (*)(unsigned int, aclmdlDataset const*, aclmdlDataset*));
ABI_FUNC(aclmdlExecuteV2,
         int (*)(unsigned int, aclmdlDataset const*, aclmdlDataset*, void*, aclmdlExecConfigHandle const*));
ABI_FUNC(aclmdlExecuteAsyncV2,
         int (*)(unsigned int, aclmdlDataset const*, aclmdlDataset*, void*, aclmdlExecConfigHandle const*));
ABI_FUNC(aclmdlExecuteAsync, int (*)(unsigned int, aclmdlDataset const*, aclmdlDataset*, void*));
ABI_FUNC(aclmdlUnload, int (*)(unsigned int));
ABI_FUNC(aclmdlSetAttribute, int (*)(unsigned int, aclmdlAttr, aclmdlAttrValue_t*));
ABI_FUNC(aclmdlGetAttribute, int (*)(unsigned int, aclmdlAttr, aclmdlAttrValue_t*));
ABI_FUNC(aclmdlQuerySize, int (*)(char const*, unsigned long*, unsigned long*));
ABI_FUNC(aclmdlQueryExeOMDesc, int (*)(char const*, aclmdlExeOMDesc*));
ABI_FUNC(aclmdlQuerySizeFromMem, int (*)(void const*, unsigned long, unsigned long*, unsigned long*));
ABI_FUNC(aclmdlSetDynamicBatchSize, int (*)(unsigned int, aclmdlDataset*, unsigned long, unsigned long));
ABI_FUNC(aclmdlSetDynamicHWSize, int (*)(unsigned int, aclmdlDataset*, unsigned long, unsigned long, unsigned long));
ABI_FUNC(aclmdlSetInputDynamicDims, int (*)(unsigned int, aclmdlDataset*, unsigned long, aclmdlIODims const*));
ABI_FUNC(aclmdlGetInputDims, int (*)(aclmdlDesc const*, unsigned long, aclmdlIODims*));
ABI_FUNC(aclmdlGetInputDimsV2, int (*)(aclmdlDesc const*, unsigned long, aclmdlIODims*));
ABI_FUNC(aclmdlGetInputDimsRange, int (*)(aclmdlDesc const*, unsigned long, aclmdlIODimsRange*));
ABI_FUNC(aclmdlGetOutputDims, int (*)(aclmdlDesc const*, unsigned long, aclmdlIODims*));
ABI_FUNC(aclmdlGetCurOutputDims, int (*)(aclmdlDesc const*, unsigned long, aclmdlIODims*));
ABI_FUNC(aclmdlGetOpAttr, char const* (*)(aclmdlDesc*, char const*, char const*));
ABI_FUNC(aclmdlGetInputNameByIndex, char const* (*)(aclmdlDesc const*, unsigned long));
ABI_FUNC(aclmdlGetOutputNameByIndex, char const* (*)(aclmdlDesc const*, unsigned long));
ABI_FUNC(aclmdlGetInputFormat, aclFormat (*)(aclmdlDesc const*, unsigned long));
ABI_FUNC(aclmdlGetOutputFormat, aclFormat (*)(aclmdlDesc const*, unsigned long));
ABI_FUNC(aclmdlGetInputDataType, aclDataType (*)(aclmdlDesc const*, unsigned long));
ABI_FUNC(aclmdlGetOutputDataType, aclDataType (*)(aclmdlDesc const*, unsigned long));
ABI_FUNC(aclmdlGetInputIndexByName, int (*)(aclmdlDesc const*, char const*, unsigned long*));
ABI_FUNC(aclmdlGetOutputIndexByName, int (*)(aclmdlDesc const*, char const*, unsigned long*));
ABI_FUNC(aclmdlGetDynamicBatch, int (*)(aclmdlDesc const*, aclmdlBatch*));
ABI_FUNC(aclmdlGetDynamicHW, int (*)(aclmdlDesc const*, unsigned long, aclmdlHW*));
ABI_FUNC(aclmdlGetInputDynamicGearCount, int (*)(aclmdlDesc const*, unsigned long, unsigned long*));
ABI_FUNC(aclmdlGetInputDynamicDims, int (*)(aclmdlDesc const*, unsigned long, aclmdlIODims*, unsigned long));
ABI_FUNC(aclmdlCreateAIPP, aclmdlAIPP* (*)(unsigned long));
ABI_FUNC(aclmdlDestroyAIPP, int (*)(aclmdlAIPP const*));
ABI_FUNC(aclmdlGetAippDataSize, int (*)(unsigned long, unsigned long*));
ABI_FUNC(aclmdlSetAIPPInputFormat, int (*)(aclmdlAIPP*, aclAippInputFormat));
ABI_FUNC(aclmdlSetAIPPCscParams,
         int (*)(aclmdlAIPP*, signed char, short, short, short, short, short, short, short, short, short, unsigned char,
             unsigned char, unsigned char, unsigned char, unsigned char, unsigned char));
ABI_FUNC(aclmdlSetAIPPRbuvSwapSwitch, int (*)(aclmdlAIPP*, signed char));
ABI_FUNC(aclmdlSetAIPPAxSwapSwitch, int (*)(aclmdlAIPP*, signed char));
ABI_FUNC(aclmdlSetAIPPSrcImageSize, int (*)(aclmdlAIPP*, int, int));
ABI_FUNC(aclmdlSetAIPPScfParams, int (*)(aclmdlAIPP*, signed char, int, int, int, int, unsigned long));
ABI_FUNC(aclmdlSetAIPPCropParams, int (*)(aclmdlAIPP*, signed char, int, int, int, int, unsigned long));
ABI_FUNC(aclmdlSetAIPPPaddingParams, int (*)(aclmdlAIPP*, signed char, int, int, int, int, unsigned long));
ABI_FUNC(aclmdlSetAIPPDtcPixelMean, int (*)(aclmdlAIPP*, short, short, short, short, unsigned long));
ABI_FUNC(aclmdlSetAIPPDtcPixelMin, int (*)(aclmdlAIPP*, float, float, float, float, unsigned long));
ABI_FUNC(aclmdlSetAIPPPixelVarReci, int (*)(aclmdlAIPP*, float, float, float, float, unsigned long));
ABI_FUNC(aclmdlSetInputAIPP, int (*)(unsigned int, aclmdlDataset*, unsigned long, aclmdlAIPP const*));
ABI_FUNC(aclmdlSetAIPPByInputIndex, int (*)(unsigned int, aclmdlDataset*, unsigned long, aclmdlAIPP const*));
ABI_FUNC(aclmdlGetAippType, int (*)(unsigned int, unsigned long, aclmdlInputAippType*, unsigned long*));
ABI_FUNC(aclmdlGetFirstAippInfo, int (*)(unsigned int, unsigned long, aclAippInfo*));
ABI_FUNC(aclmdlCreateAndGetOpDesc,
         int (*)(unsigned int, unsigned int, unsigned int, char*, unsigned long, aclTensorDesc**, unsigned long*,
             aclTensorDesc**, unsigned long*));
ABI_FUNC(aclmdlLoadWithConfig, int (*)(aclmdlConfigHandle const*, unsigned int*));
ABI_FUNC(aclmdlCreateConfigHandle, aclmdlConfigHandle* (*)(void));
ABI_FUNC(aclmdlDestroyConfigHandle, int (*)(aclmdlConfigHandle*));
ABI_FUNC(aclmdlSetConfigOpt, int (*)(aclmdlConfigHandle*, aclmdlConfigAttr, void const*, unsigned long));
ABI_FUNC(aclmdlSetExecConfigOpt, int (*)(aclmdlExecConfigHandle*, aclmdlExecConfigAttr, void const*, unsigned long));
ABI_FUNC(aclmdlSetExternalWeightAddress, int (*)(aclmdlConfigHandle*, char const*, void*, unsigned long));
ABI_FUNC(aclmdlGetTensorRealName, char const* (*)(aclmdlDesc const*, char const*));
ABI_FUNC(aclRecoverAllHcclTasks, int (*)(int));
ABI_FUNC(aclmdlLoadFromModel, int (*)(void* const*, aclmdlConfigHandle const*, unsigned int*));

int main(void)
{
    int failures = 0;
    failures += ABI_CHECK_STRING(ACL_DYNAMIC_TENSOR_NAME, "ascend_mbatch_shape_data");
    failures += ABI_CHECK_STRING(ACL_DYNAMIC_AIPP_NAME, "ascend_dynamic_aipp_data");
    failures += ABI_CHECK_STRING(ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES, "_datadump_original_op_names");
    return abi_report(failures);
}

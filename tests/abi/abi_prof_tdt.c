/*
 * ABI freeze: acl/acl_prof.h, acl/acl_tdt.h and acl/acl_tdt_queue.h.
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

#include "acl/acl_prof.h"
#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"

/* ---- acl/acl_prof.h ---- */

ABI_SIZE(aclprofAicoreMetrics, 4, 4);
ABI_VALUE(ACL_AICORE_ARITHMETIC_UTILIZATION, 0);
ABI_VALUE(ACL_AICORE_PIPE_UTILIZATION, 1);
ABI_VALUE(ACL_AICORE_MEMORY_BANDWIDTH, 2);
ABI_VALUE(ACL_AICORE_L0B_AND_WIDTH, 3);
ABI_VALUE(ACL_AICORE_RESOURCE_CONFLICT_RATIO, 4);
ABI_VALUE(ACL_AICORE_MEMORY_UB, 5);
ABI_VALUE(ACL_AICORE_L2_CACHE, 6);
ABI_VALUE(ACL_AICORE_PIPE_EXECUTE_UTILIZATION, 7);
ABI_VALUE(ACL_AICORE_MEMORY_ACCESS, 8);
ABI_VALUE(ACL_AICORE_NONE, 255);

ABI_SIZE(aclprofStepTag, 4, 4);
ABI_VALUE(ACL_STEP_START, 0);
ABI_VALUE(ACL_STEP_END, 1);

ABI_SIZE(aclprofSubscribeOpFlag, 4, 4);
ABI_VALUE(ACL_SUBSCRIBE_OP, 0);
ABI_VALUE(ACL_SUBSCRIBE_SUBGRAPH, 1);
ABI_VALUE(ACL_SUBSCRIBE_OP_THREAD, 2);
ABI_VALUE(ACL_SUBSCRIBE_NONE, 255);

ABI_SIZE(aclprofSubscribeOpAttri, 4, 4);
ABI_VALUE(ACL_SUBSCRIBE_ATTRI_THREADID, 0);
ABI_VALUE(ACL_SUBSCRIBE_ATTRI_NONE, 1);

ABI_SIZE(aclprofConfigType, 4, 4);
ABI_VALUE(ACL_PROF_ARGS_MIN, 0);
ABI_VALUE(ACL_PROF_STORAGE_LIMIT, 1);
ABI_VALUE(ACL_PROF_SYS_HARDWARE_MEM_FREQ, 3);
ABI_VALUE(ACL_PROF_LLC_MODE, 4);
ABI_VALUE(ACL_PROF_SYS_IO_FREQ, 5);
ABI_VALUE(ACL_PROF_SYS_INTERCONNECTION_FREQ, 6);
ABI_VALUE(ACL_PROF_DVPP_FREQ, 7);
ABI_VALUE(ACL_PROF_HOST_SYS, 8);
ABI_VALUE(ACL_PROF_HOST_SYS_USAGE, 9);
ABI_VALUE(ACL_PROF_HOST_SYS_USAGE_FREQ, 10);
ABI_VALUE(ACL_PROF_LOW_POWER_FREQ, 11);
ABI_VALUE(ACL_PROF_SYS_MEM_SERVICEFLOW, 12);
ABI_VALUE(ACL_PROF_SYS_CPU_FREQ, 13);
ABI_VALUE(ACL_PROF_OPTYPE, 14);
ABI_VALUE(ACL_PROF_NTS_METRICS, 15);
ABI_VALUE(ACL_PROF_PATH, 16);
ABI_VALUE(ACL_PROF_ARGS_MAX, 17);

ABI_SIZE(aclprofMessageType, 4, 4);
ABI_VALUE(ACL_PROF_MESSAGE_TYPE_TENSOR_INFO, 0);
ABI_MACRO(ACL_PROF_ACL_API, 1ULL, unsigned long long);
ABI_MACRO(ACL_PROF_TASK_TIME, 2ULL, unsigned long long);
ABI_MACRO(ACL_PROF_AICORE_METRICS, 4ULL, unsigned long long);
ABI_MACRO(ACL_PROF_AICPU, 8ULL, unsigned long long);
ABI_MACRO(ACL_PROF_L2CACHE, 16ULL, unsigned long long);
ABI_MACRO(ACL_PROF_HCCL_TRACE, 32ULL, unsigned long long);
ABI_MACRO(ACL_PROF_TRAINING_TRACE, 64ULL, unsigned long long);
ABI_MACRO(ACL_PROF_MSPROFTX, 128ULL, unsigned long long);
ABI_MACRO(ACL_PROF_RUNTIME_API, 256ULL, unsigned long long);
ABI_MACRO(ACL_PROF_GE_API_L0, 512ULL, unsigned long long);
ABI_MACRO(ACL_PROF_TASK_TIME_L0, 2048ULL, unsigned long long);
ABI_MACRO(ACL_PROF_TASK_MEMORY, 4096ULL, unsigned long long);
ABI_MACRO(ACL_PROF_GE_API_L1, 16777216ULL, unsigned long long);
ABI_MACRO(ACL_PROF_TASK_TIME_L2, 8192ULL, unsigned long long);
ABI_MACRO(ACL_PROF_OP_ATTR, 16384ULL, unsigned long long);
ABI_MACRO(ACL_PROF_TASK_TIME_L3, 32768ULL, unsigned long long);
ABI_MACRO(ACL_PROF_API_STATS, 17179869184ULL, unsigned long long);
ABI_MACRO(ACL_PROF_AICORE_SHAPE, 34359738368ULL, unsigned long long);
ABI_MACRO(ACL_PROF_MAX_OP_NAME_LEN, 257, int);
ABI_MACRO(ACL_PROF_MAX_OP_TYPE_LEN, 65, int);
ABI_MACRO(ACL_PROF_TENSOR_DATA_SHAPE_LEN, 8, int);
ABI_TYPE((aclprofConfig *)0, struct aclprofConfig*);
ABI_TYPE((aclprofStopConfig *)0, struct aclprofStopConfig*);
ABI_TYPE((aclprofAicoreEvents *)0, struct aclprofAicoreEvents*);
ABI_TYPE((aclprofSubscribeConfig *)0, struct aclprofSubscribeConfig*);
ABI_TYPE((aclprofStepInfo *)0, struct aclprofStepInfo*);

ABI_SIZE(aclprofTensor, 48, 4);
ABI_TYPE((aclprofTensor *)0, struct aclprofTensor *);
ABI_FIELD(aclprofTensor, type, 0, unsigned int*);
ABI_FIELD(aclprofTensor, format, 4, unsigned int*);
ABI_FIELD(aclprofTensor, dataType, 8, unsigned int*);
ABI_FIELD(aclprofTensor, shapeDim, 12, unsigned int*);
ABI_FIELD(aclprofTensor, shape, 16, unsigned int (*)[8]);

ABI_SIZE(aclprofTensorInfo, 48, 8);
ABI_TYPE((aclprofTensorInfo *)0, struct aclprofTensorInfo *);
ABI_FIELD(aclprofTensorInfo, opNameId, 0, unsigned long*);
ABI_FIELD(aclprofTensorInfo, opTypeId, 8, unsigned long*);
ABI_FIELD(aclprofTensorInfo, resv, 16, unsigned int*);
ABI_FIELD(aclprofTensorInfo, tensorNum, 20, unsigned int*);
ABI_FIELD(aclprofTensorInfo, kernelType, 24, unsigned int*);
ABI_FIELD(aclprofTensorInfo, blockNums, 28, unsigned int*);
ABI_FIELD(aclprofTensorInfo, stream, 32, void**);
ABI_FIELD(aclprofTensorInfo, tensors, 40, aclprofTensor**);

ABI_SIZE(aclprofEventAttributes, 16, 8);
ABI_TYPE((aclprofEventAttributes *)0, struct aclprofEventAttributes *);
ABI_FIELD(aclprofEventAttributes, version, 0, unsigned short*);
ABI_FIELD(aclprofEventAttributes, size, 2, unsigned short*);
ABI_FIELD(aclprofEventAttributes, messageType, 4, unsigned int*);
ABI_FIELD(aclprofEventAttributes, message, 8, union Message*);

ABI_FUNC(aclprofInit, int (*)(char const*, unsigned long));
ABI_FUNC(aclprofFinalize, int (*)(void));
ABI_FUNC(aclprofStart, int (*)(aclprofConfig const*));
ABI_FUNC(aclprofCreateConfig,
         aclprofConfig* (*)(unsigned int*, unsigned int, aclprofAicoreMetrics, aclprofAicoreEvents const*,
             unsigned long));
ABI_FUNC(aclprofDestroyConfig, int (*)(aclprofConfig const*));
ABI_FUNC(aclprofStop, int (*)(aclprofConfig const*));
ABI_FUNC(aclprofSetConfig, int (*)(aclprofConfigType, char const*, unsigned long));
ABI_FUNC(aclprofModelSubscribe, int (*)(unsigned int, aclprofSubscribeConfig const*));
ABI_FUNC(aclprofModelUnSubscribe, int (*)(unsigned int));
ABI_FUNC(aclprofCreateSubscribeConfig, aclprofSubscribeConfig* (*)(signed char, aclprofAicoreMetrics, void*));
ABI_FUNC(aclprofDestroySubscribeConfig, int (*)(aclprofSubscribeConfig const*));
ABI_FUNC(aclprofGetOpDescSize, int (*)(unsigned long*));
ABI_FUNC(aclprofGetOpNum, int (*)(void const*, unsigned long, unsigned int*));
ABI_FUNC(aclprofGetOpTypeLen, int (*)(void const*, unsigned long, unsigned int, unsigned long*));
ABI_FUNC(aclprofGetOpType, int (*)(void const*, unsigned long, unsigned int, char*, unsigned long));
ABI_FUNC(aclprofGetOpNameLen, int (*)(void const*, unsigned long, unsigned int, unsigned long*));
ABI_FUNC(aclprofGetOpName, int (*)(void const*, unsigned long, unsigned int, char*, unsigned long));
ABI_FUNC(aclprofGetOpStart, unsigned long (*)(void const*, unsigned long, unsigned int));
ABI_FUNC(aclprofGetOpEnd, unsigned long (*)(void const*, unsigned long, unsigned int));
ABI_FUNC(aclprofGetOpDuration, unsigned long (*)(void const*, unsigned long, unsigned int));
ABI_FUNC(aclprofGetModelId, unsigned long (*)(void const*, unsigned long, unsigned int));
ABI_FUNC(aclprofGetOpFlag, aclprofSubscribeOpFlag (*)(void const*, unsigned long, unsigned int));
ABI_FUNC(aclprofGetOpAttriValue, char const* (*)(void const*, unsigned long, unsigned int, aclprofSubscribeOpAttri));
ABI_FUNC(aclprofGetStepTimestamp, int (*)(aclprofStepInfo*, aclprofStepTag, void*));
ABI_FUNC(aclprofCreateStepInfo, aclprofStepInfo* (*)(void));
ABI_FUNC(aclprofDestroyStepInfo, void (*)(aclprofStepInfo*));
ABI_FUNC(aclprofCreateStamp, void* (*)(void));
ABI_FUNC(aclprofDestroyStamp, void (*)(void*));
ABI_FUNC(aclprofPush, int (*)(void*));
ABI_FUNC(aclprofPop, int (*)(void));
ABI_FUNC(aclprofRangeStart, int (*)(void*, unsigned int*));
ABI_FUNC(aclprofRangeStop, int (*)(unsigned int));
ABI_FUNC(aclprofSetStampTraceMessage, int (*)(void*, char const*, unsigned int));
ABI_FUNC(aclprofMark, int (*)(void*));
ABI_FUNC(aclprofMarkEx, int (*)(char const*, unsigned long, void*));
ABI_FUNC(aclprofStr2Id, unsigned long (*)(char const*));
ABI_FUNC(aclprofRangePushEx, int (*)(aclprofEventAttributes*));
ABI_FUNC(aclprofRangePop, int (*)(void));

/* ---- acl/acl_tdt.h ---- */

ABI_SIZE(acltdtTensorType, 4, 4);
ABI_TYPE((acltdtTensorType)0, enum acltdtTensorType);
ABI_VALUE(ACL_TENSOR_DATA_UNDEFINED, -1);
ABI_VALUE(ACL_TENSOR_DATA_TENSOR, 0);
ABI_VALUE(ACL_TENSOR_DATA_END_OF_SEQUENCE, 1);
ABI_VALUE(ACL_TENSOR_DATA_ABNORMAL, 2);
ABI_VALUE(ACL_TENSOR_DATA_SLICE_TENSOR, 3);
ABI_VALUE(ACL_TENSOR_DATA_END_TENSOR, 4);
ABI_TYPE((acltdtDataItem *)0, struct acltdtDataItem*);
ABI_TYPE((acltdtDataset *)0, struct acltdtDataset*);
ABI_TYPE((acltdtChannelHandle *)0, struct acltdtChannelHandle*);

ABI_FUNC(acltdtGetTensorTypeFromItem, acltdtTensorType (*)(acltdtDataItem const*));
ABI_FUNC(acltdtGetDataTypeFromItem, aclDataType (*)(acltdtDataItem const*));
ABI_FUNC(acltdtGetDataAddrFromItem, void* (*)(acltdtDataItem const*));
ABI_FUNC(acltdtGetDataSizeFromItem, unsigned long (*)(acltdtDataItem const*));
ABI_FUNC(acltdtGetDimNumFromItem, unsigned long (*)(acltdtDataItem const*));
ABI_FUNC(acltdtGetSliceInfoFromItem, int (*)(acltdtDataItem const*, unsigned long*, unsigned long*));
ABI_FUNC(acltdtGetDimsFromItem, int (*)(acltdtDataItem const*, long*, unsigned long));
ABI_FUNC(acltdtCreateDataItem,
         acltdtDataItem* (*)(acltdtTensorType, long const*, unsigned long, aclDataType, void*, unsigned long));
ABI_FUNC(acltdtDestroyDataItem, int (*)(acltdtDataItem*));
ABI_FUNC(acltdtCreateDataset, acltdtDataset* (*)(void));
ABI_FUNC(acltdtDestroyDataset, int (*)(acltdtDataset*));
ABI_FUNC(acltdtGetDataItem, acltdtDataItem* (*)(acltdtDataset const*, unsigned long));
ABI_FUNC(acltdtAddDataItem, int (*)(acltdtDataset*, acltdtDataItem*));
ABI_FUNC(acltdtGetDatasetSize, unsigned long (*)(acltdtDataset const*));
ABI_FUNC(acltdtGetDatasetName, char const* (*)(acltdtDataset const*));
ABI_FUNC(acltdtStopChannel, int (*)(acltdtChannelHandle*));
ABI_FUNC(acltdtCreateChannel, acltdtChannelHandle* (*)(unsigned int, char const*));
ABI_FUNC(acltdtCreateChannelWithCapacity, acltdtChannelHandle* (*)(unsigned int, char const*, unsigned long));
ABI_FUNC(acltdtDestroyChannel, int (*)(acltdtChannelHandle*));
ABI_FUNC(acltdtCleanChannel, int (*)(acltdtChannelHandle*));
ABI_FUNC(acltdtSendTensor, int (*)(acltdtChannelHandle const*, acltdtDataset const*, int));
ABI_FUNC(acltdtReceiveTensor, int (*)(acltdtChannelHandle const*, acltdtDataset*, int));
ABI_FUNC(acltdtQueryChannelSize, int (*)(acltdtChannelHandle const*, unsigned long*));

/* ---- acl/acl_tdt_queue.h ---- */

ABI_SIZE(acltdtQueueAttrType, 4, 4);
ABI_VALUE(ACL_TDT_QUEUE_NAME_PTR, 0);
ABI_VALUE(ACL_TDT_QUEUE_DEPTH_UINT32, 1);

ABI_SIZE(acltdtQueueRouteParamType, 4, 4);
ABI_VALUE(ACL_TDT_QUEUE_ROUTE_SRC_UINT32, 0);
ABI_VALUE(ACL_TDT_QUEUE_ROUTE_DST_UINT32, 1);
ABI_VALUE(ACL_TDT_QUEUE_ROUTE_STATUS_INT32, 2);

ABI_SIZE(acltdtQueueRouteQueryMode, 4, 4);
ABI_VALUE(ACL_TDT_QUEUE_ROUTE_QUERY_SRC, 0);
ABI_VALUE(ACL_TDT_QUEUE_ROUTE_QUERY_DST, 1);
ABI_VALUE(ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST, 2);
ABI_VALUE(ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL, 100);

ABI_SIZE(acltdtQueueRouteQueryInfoParamType, 4, 4);
ABI_VALUE(ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, 0);
ABI_VALUE(ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32, 1);
ABI_VALUE(ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32, 2);

ABI_SIZE(acltdtAllocBufType, 4, 4);
ABI_VALUE(ACL_TDT_NORMAL_MEM, 0);
ABI_VALUE(ACL_TDT_DVPP_MEM, 1);
ABI_MACRO(ACL_TDT_QUEUE_PERMISSION_MANAGE, 1, int);
ABI_MACRO(ACL_TDT_QUEUE_PERMISSION_DEQUEUE, 2, int);
ABI_MACRO(ACL_TDT_QUEUE_PERMISSION_ENQUEUE, 4, int);
ABI_MACRO(ACL_TDT_QUEUE_ROUTE_UNBIND, 0, int);
ABI_MACRO(ACL_TDT_QUEUE_ROUTE_BIND, 1, int);
ABI_MACRO(ACL_TDT_QUEUE_ROUTE_BIND_ABNORMAL, 2, int);
ABI_TYPE((acltdtQueueAttr *)0, struct tagMemQueueAttr*);
ABI_TYPE((acltdtQueueRouteList *)0, struct acltdtQueueRouteList*);
ABI_TYPE((acltdtQueueRouteQueryInfo *)0, struct acltdtQueueRouteQueryInfo*);
ABI_TYPE((acltdtQueueRoute *)0, struct acltdtQueueRoute*);
ABI_TYPE((acltdtBuf)0, void*);

ABI_FUNC(acltdtCreateQueue, int (*)(struct tagMemQueueAttr const*, unsigned int*));
ABI_FUNC(acltdtDestroyQueue, int (*)(unsigned int));
ABI_FUNC(acltdtEnqueue, int (*)(unsigned int, void*, int));
ABI_FUNC(acltdtDequeue, int (*)(unsigned int, void**, int));
ABI_FUNC(acltdtEnqueueData,
         int (*)(unsigned int, void const*, unsigned long, void const*, unsigned long, int, unsigned int));
ABI_FUNC(acltdtDequeueData, int (*)(unsigned int, void*, unsigned long, unsigned long*, void*, unsigned long, int));
ABI_FUNC(acltdtGrantQueue, int (*)(unsigned int, int, unsigned int, int));
ABI_FUNC(acltdtAttachQueue, int (*)(unsigned int, int, unsigned int*));
ABI_FUNC(acltdtBindQueueRoutes, int (*)(acltdtQueueRouteList*));
ABI_FUNC(acltdtUnbindQueueRoutes, int (*)(acltdtQueueRouteList*));
ABI_FUNC(acltdtQueryQueueRoutes, int (*)(acltdtQueueRouteQueryInfo const*, acltdtQueueRouteList*));
ABI_FUNC(acltdtAllocBuf, int (*)(unsigned long, unsigned int, void**));
ABI_FUNC(acltdtFreeBuf, int (*)(void*));
ABI_FUNC(acltdtGetBufData, int (*)(void*, void**, unsigned long*));
ABI_FUNC(acltdtSetBufDataLen, int (*)(void*, unsigned long));
ABI_FUNC(acltdtGetBufDataLen, int (*)(void*, unsigned long*));
ABI_FUNC(acltdtAppendBufChain, int (*)(void*, void*));
ABI_FUNC(acltdtGetBufChainNum, int (*)(void*, unsigned int*));
ABI_FUNC(acltdtGetBufFromChain, int (*)(void*, unsigned int, void**));
ABI_FUNC(acltdtGetBufUserData, int (*)(void*, void*, unsigned long, unsigned long));
ABI_FUNC(acltdtSetBufUserData, int (*)(void*, void const*, unsigned long, unsigned long));
ABI_FUNC(acltdtCopyBufRef, int (*)(void*, void**));
ABI_FUNC(acltdtCreateQueueAttr, struct tagMemQueueAttr* (*)(void));
ABI_FUNC(acltdtDestroyQueueAttr, int (*)(struct tagMemQueueAttr const*));
ABI_FUNC(acltdtSetQueueAttr, int (*)(struct tagMemQueueAttr*, acltdtQueueAttrType, unsigned long, void const*));
ABI_FUNC(acltdtGetQueueAttr,
         int (*)(struct tagMemQueueAttr const*, acltdtQueueAttrType, unsigned long, unsigned long*, void*));
ABI_FUNC(acltdtCreateQueueRoute, acltdtQueueRoute* (*)(unsigned int, unsigned int));
ABI_FUNC(acltdtDestroyQueueRoute, int (*)(acltdtQueueRoute const*));
ABI_FUNC(acltdtGetQueueRouteParam,
         int (*)(acltdtQueueRoute const*, acltdtQueueRouteParamType, unsigned long, unsigned long*, void*));
ABI_FUNC(acltdtCreateQueueRouteList, acltdtQueueRouteList* (*)(void));
ABI_FUNC(acltdtDestroyQueueRouteList, int (*)(acltdtQueueRouteList const*));
ABI_FUNC(acltdtAddQueueRoute, int (*)(acltdtQueueRouteList*, acltdtQueueRoute const*));
ABI_FUNC(acltdtGetQueueRoute, int (*)(acltdtQueueRouteList const*, unsigned long, acltdtQueueRoute*));
ABI_FUNC(acltdtGetQueueRouteNum, unsigned long (*)(acltdtQueueRouteList const*));
ABI_FUNC(acltdtCreateQueueRouteQueryInfo, acltdtQueueRouteQueryInfo* (*)(void));
ABI_FUNC(acltdtDestroyQueueRouteQueryInfo, int (*)(acltdtQueueRouteQueryInfo const*));
ABI_FUNC(acltdtSetQueueRouteQueryInfo,
         int (*)(acltdtQueueRouteQueryInfo*, acltdtQueueRouteQueryInfoParamType, unsigned long, void const*));

int main(void)
{
    int failures = 0;
    return abi_report(failures);
}

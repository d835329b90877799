/*
 * ABI freeze of acl/acl_rt.h and acl/acl_rt_allocator.h.
 *
 * Everything an application compiled against CANN's headers bakes into its
 * binary must be identical here: enumerator values (and 4-byte enum size),
 * macro values and their C types, sizeof/alignof and every field offset of
 * the public structs and unions, the struct/enum tags behind the typedefs,
 * the callback typedef types, and the type of every declared function.
 *
 * The expected numbers were measured once from CANN's own headers (gcc,
 * x86-64 / LP64) and agree with the sizes in the API inventory spec. All
 * checks are compile-time (_Static_assert); the program itself does nothing.
 */
#include <stdalign.h>
#include <stddef.h>

#include "acl/acl_rt.h"

#if !defined(__x86_64__) && !defined(__aarch64__)
#error "abi_rt expects an LP64 target (x86-64 or aarch64)"
#endif

/* Deprecated enumerators, members and functions are part of the ABI too. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define EQ(name, value) _Static_assert((name) == (value), #name " == " #value)

/* Unscoped enums are int-sized. */
#define ENUM_SIZE(type) _Static_assert(sizeof(type) == 4, "sizeof(" #type ") == 4")

/* A macro has both the value and the C type of CANN's definition. */
#define MACRO(name, value, type)                                                      \
    _Static_assert((name) == (value), #name " == " #value);                           \
    _Static_assert(_Generic((name), type: 1, default: 0), #name " has type " #type)

#define LAYOUT(type, size, align)                                                     \
    _Static_assert(sizeof(type) == (size), "sizeof(" #type ") == " #size);            \
    _Static_assert(alignof(type) == (align), "alignof(" #type ") == " #align)

#define FIELD(type, field, offset, size)                                              \
    _Static_assert(offsetof(type, field) == (offset), #type "." #field " at " #offset); \
    _Static_assert(sizeof(((type *)0)->field) == (size), #type "." #field " size " #size)

/* The typedef names the tagged type (pointer types are compatible only for the same type). */
#define TAG(tagged, name) _Static_assert(_Generic((tagged *)0, name *: 1, default: 0), #name " is " #tagged)
#define OPAQUE(tagged, name) TAG(tagged, name)

#define HANDLE(name) _Static_assert(sizeof(name) == sizeof(void *), "sizeof(" #name ") == sizeof(void *)")

#define CALLBACK(name, fnptr) _Static_assert(_Generic((name)0, fnptr: 1, default: 0), #name " is " #fnptr)

/* The function designator is not evaluated, so no definition is needed to build this test. */
#define FN(name, fnptr) _Static_assert(_Generic((name), fnptr: 1, default: 0), #name " is " #fnptr)

/* ===================================================================== */
/* Enumerations                                                          */
/* ===================================================================== */

/* aclrtRunMode */
ENUM_SIZE(aclrtRunMode);
EQ(ACL_DEVICE, 0);
EQ(ACL_HOST, 1);

/* aclrtTsId */
ENUM_SIZE(aclrtTsId);
EQ(ACL_TS_ID_AICORE, 0);
EQ(ACL_TS_ID_AIVECTOR, 1);
EQ(ACL_TS_ID_RESERVED, 2);

/* aclrtEventStatus */
ENUM_SIZE(aclrtEventStatus);
EQ(ACL_EVENT_STATUS_COMPLETE, 0);
EQ(ACL_EVENT_STATUS_NOT_READY, 1);
EQ(ACL_EVENT_STATUS_RESERVED, 2);

/* aclrtEventRecordedStatus */
ENUM_SIZE(aclrtEventRecordedStatus);
EQ(ACL_EVENT_RECORDED_STATUS_NOT_READY, 0);
EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, 1);

/* aclrtEventWaitStatus */
ENUM_SIZE(aclrtEventWaitStatus);
EQ(ACL_EVENT_WAIT_STATUS_COMPLETE, 0);
EQ(ACL_EVENT_WAIT_STATUS_NOT_READY, 1);
EQ(ACL_EVENT_WAIT_STATUS_RESERVED, 0xFFFF);

/* aclrtStreamStatus */
ENUM_SIZE(aclrtStreamStatus);
EQ(ACL_STREAM_STATUS_COMPLETE, 0);
EQ(ACL_STREAM_STATUS_NOT_READY, 1);
EQ(ACL_STREAM_STATUS_RESERVED, 0xFFFF);

/* aclrtCallbackBlockType */
ENUM_SIZE(aclrtCallbackBlockType);
EQ(ACL_CALLBACK_NO_BLOCK, 0);
EQ(ACL_CALLBACK_BLOCK, 1);

/* aclrtMemcpyKind */
ENUM_SIZE(aclrtMemcpyKind);
EQ(ACL_MEMCPY_HOST_TO_HOST, 0);
EQ(ACL_MEMCPY_HOST_TO_DEVICE, 1);
EQ(ACL_MEMCPY_DEVICE_TO_HOST, 2);
EQ(ACL_MEMCPY_DEVICE_TO_DEVICE, 3);
EQ(ACL_MEMCPY_DEFAULT, 4);
EQ(ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, 5);
EQ(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, 6);
EQ(ACL_MEMCPY_INTER_DEVICE_TO_DEVICE, 7);

/* aclrtMemManagedAdviseType */
ENUM_SIZE(aclrtMemManagedAdviseType);
EQ(ACL_MEM_ADVISE_SET_READ_MOSTLY, 0);
EQ(ACL_MEM_ADVISE_UNSET_READ_MOSTLY, 1);
EQ(ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, 2);
EQ(ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION, 3);
EQ(ACL_MEM_ADVISE_SET_ACCESSED_BY, 4);
EQ(ACL_MEM_ADVISE_UNSET_ACCESSED_BY, 5);

/* aclrtMemManagedLocationType */
ENUM_SIZE(aclrtMemManagedLocationType);
EQ(ACL_MEM_LOCATIONTYPE_INVALID, 0);
EQ(ACL_MEM_LOCATIONTYPE_DEVICE, 1);
EQ(ACL_MEM_LOCATIONTYPE_HOST, 2);
EQ(ACL_MEM_LOCATIONTYPE_HOST_NUMA, 3);
EQ(ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT, 4);

/* aclrtMemMallocPolicy */
ENUM_SIZE(aclrtMemMallocPolicy);
EQ(ACL_MEM_MALLOC_HUGE_FIRST, 0);
EQ(ACL_MEM_MALLOC_HUGE_ONLY, 1);
EQ(ACL_MEM_MALLOC_NORMAL_ONLY, 2);
EQ(ACL_MEM_MALLOC_HUGE_FIRST_P2P, 3);
EQ(ACL_MEM_MALLOC_HUGE_ONLY_P2P, 4);
EQ(ACL_MEM_MALLOC_NORMAL_ONLY_P2P, 5);
EQ(ACL_MEM_MALLOC_HUGE1G_ONLY, 6);
EQ(ACL_MEM_MALLOC_HUGE1G_ONLY_P2P, 7);
EQ(ACL_MEM_TYPE_LOW_BAND_WIDTH, 0x100);
EQ(ACL_MEM_TYPE_HIGH_BAND_WIDTH, 0x1000);
EQ(ACL_MEM_ACCESS_USER_SPACE_READONLY, 0x100000);

/* aclrtHostRegisterType */
ENUM_SIZE(aclrtHostRegisterType);
EQ(ACL_HOST_REGISTER_MAPPED, 0);
EQ(ACL_HOST_REGISTER_IOMEMORY, 0x4);
EQ(ACL_HOST_REGISTER_READONLY, 0x8);

/* aclrtMallocAttrType */
ENUM_SIZE(aclrtMallocAttrType);
EQ(ACL_RT_MEM_ATTR_RSV, 0);
EQ(ACL_RT_MEM_ATTR_MODULE_ID, 1);
EQ(ACL_RT_MEM_ATTR_DEVICE_ID, 2);
EQ(ACL_RT_MEM_ATTR_VA_FLAG, 3);

/* aclrtMemAttr */
ENUM_SIZE(aclrtMemAttr);
EQ(ACL_DDR_MEM, 0);
EQ(ACL_HBM_MEM, 1);
EQ(ACL_DDR_MEM_HUGE, 2);
EQ(ACL_DDR_MEM_NORMAL, 3);
EQ(ACL_HBM_MEM_HUGE, 4);
EQ(ACL_HBM_MEM_NORMAL, 5);
EQ(ACL_DDR_MEM_P2P_HUGE, 6);
EQ(ACL_DDR_MEM_P2P_NORMAL, 7);
EQ(ACL_HBM_MEM_P2P_HUGE, 8);
EQ(ACL_HBM_MEM_P2P_NORMAL, 9);
EQ(ACL_HBM_MEM_HUGE1G, 10);
EQ(ACL_HBM_MEM_P2P_HUGE1G, 11);
EQ(ACL_MEM_NORMAL, 12);
EQ(ACL_MEM_HUGE, 13);
EQ(ACL_MEM_HUGE1G, 14);
EQ(ACL_MEM_P2P_NORMAL, 15);
EQ(ACL_MEM_P2P_HUGE, 16);
EQ(ACL_MEM_P2P_HUGE1G, 17);

/* enum aclrtMemPgType */
ENUM_SIZE(enum aclrtMemPgType);
EQ(NORMAL_PAGE_TYPE, 0);
EQ(HUGE_PAGE_TYPE, 1);
EQ(HUGE1G_PAGE_TYPE, 2);

/* enum aclrtMemType */
ENUM_SIZE(enum aclrtMemType);
EQ(HBM_TYPE, 0);
EQ(DDR_TYPE, 1);
EQ(P2P_HBM_TYPE, 2);
EQ(P2P_DDR_TYPE, 3);

/* aclrtIpcMemAttrType */
ENUM_SIZE(aclrtIpcMemAttrType);
EQ(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 0);

/* aclrtGroupAttr */
ENUM_SIZE(aclrtGroupAttr);
EQ(ACL_GROUP_AICORE_INT, 0);
EQ(ACL_GROUP_AIV_INT, 1);
EQ(ACL_GROUP_AIC_INT, 2);
EQ(ACL_GROUP_SDMANUM_INT, 3);
EQ(ACL_GROUP_ASQNUM_INT, 4);
EQ(ACL_GROUP_GROUPID_INT, 5);

/* aclrtFloatOverflowMode */
ENUM_SIZE(aclrtFloatOverflowMode);
EQ(ACL_RT_OVERFLOW_MODE_SATURATION, 0);
EQ(ACL_RT_OVERFLOW_MODE_INFNAN, 1);
EQ(ACL_RT_OVERFLOW_MODE_UNDEF, 2);

/* aclrtStreamConfigAttr */
ENUM_SIZE(aclrtStreamConfigAttr);
EQ(ACL_RT_STREAM_WORK_ADDR_PTR, 0);
EQ(ACL_RT_STREAM_WORK_SIZE, 1);
EQ(ACL_RT_STREAM_FLAG, 2);
EQ(ACL_RT_STREAM_PRIORITY, 3);

/* aclrtMemLocationType */
ENUM_SIZE(aclrtMemLocationType);
EQ(ACL_MEM_LOCATION_TYPE_HOST, 0);
EQ(ACL_MEM_LOCATION_TYPE_DEVICE, 1);
EQ(ACL_MEM_LOCATION_TYPE_UNREGISTERED, 2);
EQ(ACL_MEM_LOCATION_TYPE_MANAGED, 3);
EQ(ACL_MEM_LOCATION_TYPE_HOST_NUMA, 4);

/* aclrtMemManagedRangeAttribute */
ENUM_SIZE(aclrtMemManagedRangeAttribute);
EQ(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, 1);
EQ(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, 2);
EQ(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, 3);
EQ(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, 4);
EQ(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, 5);
EQ(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, 6);
EQ(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, 7);
EQ(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID, 8);

/* aclrtMemAllocationType */
ENUM_SIZE(aclrtMemAllocationType);
EQ(ACL_MEM_ALLOCATION_TYPE_PINNED, 0);

/* aclrtMemHandleType */
ENUM_SIZE(aclrtMemHandleType);
EQ(ACL_MEM_HANDLE_TYPE_NONE, 0);
EQ(ACL_MEM_HANDLE_TYPE_POSIX, 2);

/* aclrtMemSharedHandleType */
ENUM_SIZE(aclrtMemSharedHandleType);
EQ(ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0x1);
EQ(ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, 0x2);

/* aclrtMemGranularityOptions */
ENUM_SIZE(aclrtMemGranularityOptions);
EQ(ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, 0);
EQ(ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, 1);
EQ(ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF, 0xFFFF);

/* aclrtDeviceStatus */
ENUM_SIZE(aclrtDeviceStatus);
EQ(ACL_RT_DEVICE_STATUS_NORMAL, 0);
EQ(ACL_RT_DEVICE_STATUS_ABNORMAL, 1);
EQ(ACL_RT_DEVICE_STATUS_END, 0xFFFF);

/* aclmdlRICaptureMode */
ENUM_SIZE(aclmdlRICaptureMode);
EQ(ACL_MODEL_RI_CAPTURE_MODE_GLOBAL, 0);
EQ(ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL, 1);
EQ(ACL_MODEL_RI_CAPTURE_MODE_RELAXED, 2);

/* aclmdlRICaptureStatus */
ENUM_SIZE(aclmdlRICaptureStatus);
EQ(ACL_MODEL_RI_CAPTURE_STATUS_NONE, 0);
EQ(ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE, 1);
EQ(ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED, 2);

/* aclrtErrorType */
ENUM_SIZE(aclrtErrorType);
EQ(ACL_RT_NO_ERROR, 0);
EQ(ACL_RT_ERROR_MEMORY, 1);
EQ(ACL_RT_ERROR_L2, 2);
EQ(ACL_RT_ERROR_AICORE, 3);
EQ(ACL_RT_ERROR_LINK, 4);
EQ(ACL_RT_ERROR_L3_PORT, 5);
EQ(ACL_RT_ERROR_OTHERS, 0xFFFF);

/* aclrtAicoreErrorType */
ENUM_SIZE(aclrtAicoreErrorType);
EQ(ACL_RT_AICORE_ERROR_UNKNOWN, 0);
EQ(ACL_RT_AICORE_ERROR_SW, 1);
EQ(ACL_RT_AICORE_ERROR_HW_LOCAL, 2);

/* aclrtCmoType */
ENUM_SIZE(aclrtCmoType);
EQ(ACL_RT_CMO_TYPE_PREFETCH, 0);
EQ(ACL_RT_CMO_TYPE_WRITEBACK, 1);
EQ(ACL_RT_CMO_TYPE_INVALID, 2);
EQ(ACL_RT_CMO_TYPE_FLUSH, 3);

/* aclrtLastErrLevel */
ENUM_SIZE(aclrtLastErrLevel);
EQ(ACL_RT_THREAD_LEVEL, 0);

/* aclrtBinaryLoadOptionType */
ENUM_SIZE(aclrtBinaryLoadOptionType);
EQ(ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD, 1);
EQ(ACL_RT_BINARY_LOAD_OPT_LAZY_MAGIC, 2);
EQ(ACL_RT_BINARY_LOAD_OPT_MAGIC, 2);
EQ(ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE, 3);

/* aclrtEngineType */
ENUM_SIZE(aclrtEngineType);
EQ(ACL_RT_ENGINE_TYPE_AIC, 0);
EQ(ACL_RT_ENGINE_TYPE_AIV, 1);

/* aclrtLaunchKernelAttrId */
ENUM_SIZE(aclrtLaunchKernelAttrId);
EQ(ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, 1);
EQ(ACL_RT_LAUNCH_KERNEL_ATTR_LOCAL_MEMORY_SIZE, 2);
EQ(ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE, 2);
EQ(ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE, 3);
EQ(ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET, 4);
EQ(ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH, 5);
EQ(ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, 6);
EQ(ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, 7);
EQ(ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US, 8);
EQ(ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING, 9);

/* aclrtStreamAttr */
ENUM_SIZE(aclrtStreamAttr);
EQ(ACL_STREAM_ATTR_FAILURE_MODE, 1);
EQ(ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, 2);
EQ(ACL_STREAM_ATTR_USER_CUSTOM_TAG, 3);
EQ(ACL_STREAM_ATTR_CACHE_OP_INFO, 4);
EQ(ACL_STREAM_ATTR_PRIORITY, 5);

/* aclmdlRITaskType */
ENUM_SIZE(aclmdlRITaskType);
EQ(ACL_MODEL_RI_TASK_DEFAULT, 0);
EQ(ACL_MODEL_RI_TASK_KERNEL, 1);
EQ(ACL_MODEL_RI_TASK_EVENT_RECORD, 2);
EQ(ACL_MODEL_RI_TASK_EVENT_WAIT, 3);
EQ(ACL_MODEL_RI_TASK_EVENT_RESET, 4);
EQ(ACL_MODEL_RI_TASK_VALUE_WRITE, 5);
EQ(ACL_MODEL_RI_TASK_VALUE_WAIT, 6);

/* aclrtDevAttr */
ENUM_SIZE(aclrtDevAttr);
EQ(ACL_DEV_ATTR_AICPU_CORE_NUM, 1);
EQ(ACL_DEV_ATTR_AICORE_CORE_NUM, 101);
EQ(ACL_DEV_ATTR_CUBE_CORE_NUM, 102);
EQ(ACL_DEV_ATTR_VECTOR_CORE_NUM, 201);
EQ(ACL_DEV_ATTR_WARP_SIZE, 202);
EQ(ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE, 203);
EQ(ACL_DEV_ATTR_LOCAL_MEM_PER_VECTOR_CORE, 204);
EQ(ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE, 204);
EQ(ACL_DEV_ATTR_MAX_GRID_DIM_X, 205);
EQ(ACL_DEV_ATTR_MAX_GRID_DIM_Y, 206);
EQ(ACL_DEV_ATTR_MAX_GRID_DIM_Z, 207);
EQ(ACL_DEV_ATTR_MAX_BLOCK_PER_GRID, 208);
EQ(ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK, 209);
EQ(ACL_DEV_ATTR_MAX_BLOCK_DIM_X, 210);
EQ(ACL_DEV_ATTR_MAX_BLOCK_DIM_Y, 211);
EQ(ACL_DEV_ATTR_MAX_BLOCK_DIM_Z, 212);
EQ(ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, 301);
EQ(ACL_DEV_ATTR_L2_CACHE_SIZE, 302);
EQ(ACL_DEV_ATTR_SMP_ID, 401);
EQ(ACL_DEV_ATTR_PHY_CHIP_ID, 402);
EQ(ACL_DEV_ATTR_SUPER_POD_DEVIDE_ID, 403);
EQ(ACL_DEV_ATTR_SUPER_POD_DEVICE_ID, 403);
EQ(ACL_DEV_ATTR_SUPER_POD_SERVER_ID, 404);
EQ(ACL_DEV_ATTR_SUPER_POD_ID, 405);
EQ(ACL_DEV_ATTR_CUST_OP_PRIVILEGE, 406);
EQ(ACL_DEV_ATTR_MAINBOARD_ID, 407);
EQ(ACL_DEV_ATTR_HD_CONNECT_TYPE, 408);
EQ(ACL_DEV_ATTR_DEVICE_FORM_FACTOR, 409);
EQ(ACL_DEV_ATTR_IS_VIRTUAL, 501);
EQ(ACL_DEV_ATTR_NPU_ARCH, 601);

/* aclrtDevFeatureType */
ENUM_SIZE(aclrtDevFeatureType);
EQ(ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, 1);
EQ(ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, 21);

/* aclrtReduceKind */
ENUM_SIZE(aclrtReduceKind);
EQ(ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, 10);
EQ(ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, 11);
EQ(ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, 12);
EQ(ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, 13);

/* aclrtDevResLimitType */
ENUM_SIZE(aclrtDevResLimitType);
EQ(ACL_RT_DEV_RES_CUBE_CORE, 0);
EQ(ACL_RT_DEV_RES_VECTOR_CORE, 1);

/* aclrtCondition */
ENUM_SIZE(aclrtCondition);
EQ(ACL_RT_EQUAL, 0);
EQ(ACL_RT_NOT_EQUAL, 1);
EQ(ACL_RT_GREATER, 2);
EQ(ACL_RT_GREATER_OR_EQUAL, 3);
EQ(ACL_RT_LESS, 4);
EQ(ACL_RT_LESS_OR_EQUAL, 5);

/* aclrtCompareDataType */
ENUM_SIZE(aclrtCompareDataType);
EQ(ACL_RT_SWITCH_INT32, 0);
EQ(ACL_RT_SWITCH_INT64, 1);

/* aclrtRandomNumFuncType */
ENUM_SIZE(aclrtRandomNumFuncType);
EQ(ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK, 0);
EQ(ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 1);
EQ(ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, 2);
EQ(ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS, 3);

/* aclrtDeviceTaskAbortStage */
ENUM_SIZE(aclrtDeviceTaskAbortStage);
EQ(ACL_RT_DEVICE_TASK_ABORT_PRE, 0);
EQ(ACL_RT_DEVICE_TASK_ABORT_POST, 1);

/* aclrtUpdateTaskAttrId */
ENUM_SIZE(aclrtUpdateTaskAttrId);
EQ(ACL_RT_UPDATE_RANDOM_TASK, 1);
EQ(ACL_RT_UPDATE_AIC_AIV_TASK, 2);

/* aclrtDeviceState */
ENUM_SIZE(aclrtDeviceState);
EQ(ACL_RT_DEVICE_STATE_SET_PRE, 0);
EQ(ACL_RT_DEVICE_STATE_SET_POST, 1);
EQ(ACL_RT_DEVICE_STATE_RESET_PRE, 2);
EQ(ACL_RT_DEVICE_STATE_RESET_POST, 3);

/* aclrtSnapShotStage */
ENUM_SIZE(aclrtSnapShotStage);
EQ(ACL_RT_SNAPSHOT_LOCK_PRE, 0);
EQ(ACL_RT_SNAPSHOT_BACKUP_PRE, 1);
EQ(ACL_RT_SNAPSHOT_BACKUP_POST, 2);
EQ(ACL_RT_SNAPSHOT_RESTORE_PRE, 3);
EQ(ACL_RT_SNAPSHOT_RESTORE_POST, 4);
EQ(ACL_RT_SNAPSHOT_UNLOCK_POST, 5);

/* aclrtStreamState */
ENUM_SIZE(aclrtStreamState);
EQ(ACL_RT_STREAM_STATE_CREATE_POST, 1);
EQ(ACL_RT_STREAM_STATE_DESTROY_PRE, 2);

/* aclrtFuncAttribute */
ENUM_SIZE(aclrtFuncAttribute);
EQ(ACL_FUNC_ATTR_KERNEL_TYPE, 1);
EQ(ACL_FUNC_ATTR_KERNEL_RATIO, 2);
EQ(ACL_FUNC_ATTR_KERNEL_SCHED_MODE, 3);

/* aclrtKernelType */
ENUM_SIZE(aclrtKernelType);
EQ(ACL_KERNEL_TYPE_AICORE, 0);
EQ(ACL_KERNEL_TYPE_CUBE, 1);
EQ(ACL_KERNEL_TYPE_VECTOR, 2);
EQ(ACL_KERNEL_TYPE_MIX, 3);
EQ(ACL_KERNEL_TYPE_AICPU, 100);

/* aclrtCntNotifyRecordMode */
ENUM_SIZE(aclrtCntNotifyRecordMode);
EQ(ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 0);
EQ(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
EQ(ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE, 2);
EQ(ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE, 4);

/* aclrtCntNotifyWaitMode */
ENUM_SIZE(aclrtCntNotifyWaitMode);
EQ(ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, 0);
EQ(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 1);
EQ(ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 2);
EQ(ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 3);
EQ(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE, 4);

/* aclrtMemAccessFlags */
ENUM_SIZE(aclrtMemAccessFlags);
EQ(ACL_RT_MEM_ACCESS_FLAGS_NONE, 0x0);
EQ(ACL_RT_MEM_ACCESS_FLAGS_READ, 0x1);
EQ(ACL_RT_MEM_ACCESS_FLAGS_READWRITE, 0x3);

/* aclCANNPackageName */
ENUM_SIZE(aclCANNPackageName);
EQ(ACL_PKG_NAME_CANN, 0);
EQ(ACL_PKG_NAME_RUNTIME, 1);
EQ(ACL_PKG_NAME_COMPILER, 2);
EQ(ACL_PKG_NAME_HCCL, 3);
EQ(ACL_PKG_NAME_TOOLKIT, 4);
EQ(ACL_PKG_NAME_OPP, 5);
EQ(ACL_PKG_NAME_OPP_KERNEL, 6);
EQ(ACL_PKG_NAME_DRIVER, 7);

/* aclrtHacType */
ENUM_SIZE(aclrtHacType);
EQ(ACL_RT_HAC_TYPE_STARS, 0);
EQ(ACL_RT_HAC_TYPE_AICPU, 1);
EQ(ACL_RT_HAC_TYPE_AIC, 2);
EQ(ACL_RT_HAC_TYPE_AIV, 3);
EQ(ACL_RT_HAC_TYPE_PCIEDMA, 4);
EQ(ACL_RT_HAC_TYPE_RDMA, 5);
EQ(ACL_RT_HAC_TYPE_SDMA, 6);
EQ(ACL_RT_HAC_TYPE_DVPP, 7);
EQ(ACL_RT_HAC_TYPE_UDMA, 8);
EQ(ACL_RT_HAC_TYPE_CCU, 9);

/* aclrtHostMemMapCapability */
ENUM_SIZE(aclrtHostMemMapCapability);
EQ(ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED, 0);
EQ(ACL_RT_HOST_MEM_MAP_SUPPORTED, 1);

/* aclrtMemLinkType */
ENUM_SIZE(aclrtMemLinkType);
EQ(ACL_RT_MEM_ACCESS_LINK_SIO, 0);
EQ(ACL_RT_MEM_ACCESS_LINK_HCCS, 1);
EQ(ACL_RT_MEM_ACCESS_UB_ONE_PORT_PATH, 2);
EQ(ACL_RT_MEM_ACCESS_UB_MULTI_PORT_PATH, 3);

/* aclrtAtomicOperationCapability */
ENUM_SIZE(aclrtAtomicOperationCapability);
EQ(ACL_RT_ATOMIC_CAPABILITY_SIGNED, 0x1);
EQ(ACL_RT_ATOMIC_CAPABILITY_UNSIGNED, 0x2);
EQ(ACL_RT_ATOMIC_CAPABILITY_REDUCATION, 0x4);
EQ(ACL_RT_ATOMIC_CAPABILITY_REDUCTION, 0x4);
EQ(ACL_RT_ATOMIC_CAPABILITY_SCALAR8, 0x8);
EQ(ACL_RT_ATOMIC_CAPABILITY_SCALAR16, 0x10);
EQ(ACL_RT_ATOMIC_CAPABILITY_SCALAR32, 0x20);
EQ(ACL_RT_ATOMIC_CAPABILITY_SCALAR64, 0x40);
EQ(ACL_RT_ATOMIC_CAPABILITY_SCALAR128, 0x80);
EQ(ACL_RT_ATOMIC_CAPABILITY_VECTOR32X4, 0x100);

/* aclrtAtomicOperation */
ENUM_SIZE(aclrtAtomicOperation);
EQ(ACL_RT_ATOMIC_OPERATION_INTEGER_ADD, 0);
EQ(ACL_RT_ATOMIC_OPERATION_INTEGER_MIN, 1);
EQ(ACL_RT_ATOMIC_OPERATION_INTEGER_MAX, 2);
EQ(ACL_RT_ATOMIC_OPERATION_INTEGER_INCREMENT, 3);
EQ(ACL_RT_ATOMIC_OPERATION_INTEGER_DECREMENT, 4);
EQ(ACL_RT_ATOMIC_OPERATION_AND, 5);
EQ(ACL_RT_ATOMIC_OPERATION_OR, 6);
EQ(ACL_RT_ATOMIC_OPERATION_XOR, 7);
EQ(ACL_RT_ATOMIC_OPERATION_EXCHANGE, 8);
EQ(ACL_RT_ATOMIC_OPERATION_CAS, 9);
EQ(ACL_RT_ATOMIC_OPERATION_FLOAT_ADD, 10);
EQ(ACL_RT_ATOMIC_OPERATION_FLOAT_MIN, 11);
EQ(ACL_RT_ATOMIC_OPERATION_FLOAT_MAX, 12);
EQ(ACL_RT_ATOMIC_OPERATION_DMA_ADD, 30);
EQ(ACL_RT_ATOMIC_OPERATION_DMA_MIN, 31);
EQ(ACL_RT_ATOMIC_OPERATION_DMA_MAX, 32);
EQ(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_ADD, 40);
EQ(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MIN, 41);
EQ(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MAX, 42);
EQ(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_CAS, 43);
EQ(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH, 44);

/* aclmdlRICondHandleFlag */
ENUM_SIZE(aclmdlRICondHandleFlag);
EQ(ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, 1);

/* aclmdlRICondTaskType */
ENUM_SIZE(aclmdlRICondTaskType);
EQ(ACL_MODEL_RI_COND_TYPE_IF, 0);
EQ(ACL_MODEL_RI_COND_TYPE_WHILE, 1);
EQ(ACL_MODEL_RI_COND_TYPE_SWITCH, 2);

/* aclrtDeviceLimit */
ENUM_SIZE(aclrtDeviceLimit);
EQ(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, 0);
EQ(ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE, 1);
EQ(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 2);
EQ(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 3);
EQ(ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE, 4);

/* aclRegisterCallbackType */
ENUM_SIZE(aclRegisterCallbackType);
EQ(ACL_REG_TYPE_ACL_MODEL, 0);
EQ(ACL_REG_TYPE_ACL_OP_EXECUTOR, 1);
EQ(ACL_REG_TYPE_ACL_OP_CBLAS, 2);
EQ(ACL_REG_TYPE_ACL_OP_COMPILER, 3);
EQ(ACL_REG_TYPE_ACL_TDT_CHANNEL, 4);
EQ(ACL_REG_TYPE_ACL_TDT_QUEUE, 5);
EQ(ACL_REG_TYPE_ACL_DVPP, 6);
EQ(ACL_REG_TYPE_ACL_RETR, 7);
EQ(ACL_REG_TYPE_OTHER, 0xFFFF);

/* aclrtProcessState */
ENUM_SIZE(aclrtProcessState);
EQ(ACL_RT_PROCESS_STATE_RUNNING, 0);
EQ(ACL_RT_PROCESS_STATE_LOCKED, 1);

/* ===================================================================== */
/* Macros                                                                */
/* ===================================================================== */

MACRO(ACL_MAJOR_VERSION, 1, int);
MACRO(ACL_MINOR_VERSION, 17, int);
MACRO(ACL_PATCH_VERSION, 0, int);
MACRO(ACL_EVENT_SYNC, 0x1, unsigned int);
MACRO(ACL_EVENT_CAPTURE_STREAM_PROGRESS, 0x2, unsigned int);
MACRO(ACL_EVENT_TIME_LINE, 0x8, unsigned int);
MACRO(ACL_EVENT_DEVICE_USE_ONLY, 0x10, unsigned int);
MACRO(ACL_EVENT_EXTERNAL, 0x20, unsigned int);
MACRO(ACL_EVENT_IPC, 0x40, unsigned int);
MACRO(ACL_STREAM_FAST_LAUNCH, 0x1, unsigned int);
MACRO(ACL_STREAM_FAST_SYNC, 0x2, unsigned int);
MACRO(ACL_STREAM_PERSISTENT, 0x4, unsigned int);
MACRO(ACL_STREAM_HUGE, 0x8, unsigned int);
MACRO(ACL_STREAM_CPU_SCHEDULE, 0x10, unsigned int);
MACRO(ACL_STREAM_DEVICE_USE_ONLY, 0x20, unsigned int);
MACRO(ACL_STREAM_WAIT_VALUE_GEQ, 0x0, unsigned int);
MACRO(ACL_STREAM_WAIT_VALUE_EQ, 0x1, unsigned int);
MACRO(ACL_STREAM_WAIT_VALUE_AND, 0x2, unsigned int);
MACRO(ACL_STREAM_WAIT_VALUE_NOR, 0x3, unsigned int);
MACRO(ACL_CONTINUE_ON_FAILURE, 0x0, unsigned int);
MACRO(ACL_STOP_ON_FAILURE, 0x1, unsigned int);
MACRO(ACL_NOTIFY_DEFAULT, 0x0, unsigned int);
MACRO(ACL_NOTIFY_DEVICE_USE_ONLY, 0x1, unsigned int);
MACRO(ACL_DEV_FEATURE_SUPPORT, 0x1, int);
MACRO(ACL_DEV_FEATURE_NOT_SUPPORT, 0x0, int);
MACRO(ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT, 0x0, unsigned long);
MACRO(ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION, 0x2, unsigned long);
MACRO(ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT, 0x0, unsigned long);
MACRO(ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS, 0x2, unsigned long);
MACRO(ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT, 0x0, unsigned long);
MACRO(ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION, 0x1, unsigned long);
MACRO(ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT, 0x0, unsigned long);
MACRO(ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS, 0x1, unsigned long);
MACRO(ACL_RT_VMM_EXPORT_FLAG_DEFAULT, 0x0, unsigned long);
MACRO(ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, 0x1, unsigned long);
MACRO(ACL_HOST_REG_MAPPED, 0x2, unsigned long);
MACRO(ACL_HOST_REG_IOMEMORY, 0x4, unsigned long);
MACRO(ACL_HOST_REG_READONLY, 0x8, unsigned long);
MACRO(ACL_HOST_REG_PINNED, 0x10000000, unsigned long);
MACRO(ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY, 0x0, unsigned long);
MACRO(ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE, 0x1, unsigned long);
MACRO(ACL_RT_MAX_RECORD_PA_NUM_PER_DEV, 20, unsigned int);
MACRO(ACL_IPC_EVENT_HANDLE_SIZE, 64, unsigned int);
MACRO(ACL_RT_MEM_ATTACH_GLOBAL, 0x1, unsigned int);
MACRO(ACL_RT_MEM_LINK_IDX_0, 0, unsigned int);
MACRO(ACL_RT_MEM_LINK_IDX_1, 1, unsigned int);
MACRO(ACL_HOST_DEVICE_CONNECT_TYPE_PCIE, 0, int);
MACRO(ACL_HOST_DEVICE_CONNECT_TYPE_HCCS, 1, int);
MACRO(ACL_HOST_DEVICE_CONNECT_TYPE_UB, 2, int);
MACRO(ACL_EVENT_RECORD_DEFAULT, 0x0, unsigned int);
MACRO(ACL_EVENT_RECORD_EXTERNAL, 0x1, unsigned int);
MACRO(ACL_EVENT_WAIT_DEFAULT, 0x0, unsigned int);
MACRO(ACL_EVENT_WAIT_EXTERNAL, 0x1, unsigned int);
MACRO(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO, 0, int);
MACRO(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS, 1, int);
MACRO(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH, 2, int);
MACRO(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH, 3, int);
MACRO(MAX_MEM_UCE_INFO_ARRAY_SIZE, 128, int);
MACRO(UCE_INFO_RESERVED_SIZE, 14, int);
MACRO(ACL_RT_MEM_UCE_INFO_MAX_NUM, 20, int);
MACRO(ACL_RT_BINARY_MAGIC_ELF_AICORE, 0x43554245, unsigned int);
MACRO(ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE, 0x41415246, unsigned int);
MACRO(ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE, 0x41494343, unsigned int);
MACRO(ACL_DEVICE_FORM_FACTOR_POD, 0, int);
MACRO(ACL_DEVICE_FORM_FACTOR_A_K, 1, int);
MACRO(ACL_DEVICE_FORM_FACTOR_A_X, 2, int);
MACRO(ACL_DEVICE_FORM_FACTOR_PCIE_CARD, 3, int);
MACRO(ACL_RT_CMO_MAX_BARRIER_NUM, 6, unsigned int);
MACRO(ACL_RT_DEVS_TOPOLOGY_HCCS, 0x1, unsigned long long);
MACRO(ACL_RT_DEVS_TOPOLOGY_PIX, 0x2, unsigned long long);
MACRO(ACL_RT_DEVS_TOPOLOGY_PIB, 0x4, unsigned long long);
MACRO(ACL_RT_DEVS_TOPOLOGY_PHB, 0x8, unsigned long long);
MACRO(ACL_RT_DEVS_TOPOLOGY_SYS, 0x10, unsigned long long);
MACRO(ACL_RT_DEVS_TOPOLOGY_SIO, 0x20, unsigned long long);
MACRO(ACL_RT_DEVS_TOPOLOGY_HCCS_SW, 0x40, unsigned long long);
MACRO(ACL_RT_MEM_TYPE_DEV, 0x2, unsigned int);
MACRO(ACL_RT_MEM_TYPE_DVPP, 0x8, unsigned int);
MACRO(ACL_RT_MEM_TYPE_RSVD, 0x10, unsigned int);
MACRO(ACL_PKG_VERSION_MAX_SIZE, 128, int);
MACRO(ACL_PKG_VERSION_PARTS_MAX_SIZE, 64, int);

/* ===================================================================== */
/* Structs and unions: size, alignment, every field                      */
/* ===================================================================== */

LAYOUT(aclrtMemManagedLocation, 8, 4);
FIELD(aclrtMemManagedLocation, type, 0, 4);
FIELD(aclrtMemManagedLocation, id, 4, 4);

LAYOUT(aclrtMallocAttrValue, 8, 4);
FIELD(aclrtMallocAttrValue, moduleId, 0, 2);
FIELD(aclrtMallocAttrValue, deviceId, 0, 4);
FIELD(aclrtMallocAttrValue, vaFlag, 0, 4);
FIELD(aclrtMallocAttrValue, rsv, 0, 8);

LAYOUT(aclrtMallocAttribute, 12, 4);
FIELD(aclrtMallocAttribute, attr, 0, 4);
FIELD(aclrtMallocAttribute, value, 4, 8);

LAYOUT(aclrtMallocConfig, 16, 8);
FIELD(aclrtMallocConfig, attrs, 0, 8);
FIELD(aclrtMallocConfig, numAttrs, 8, 8);

LAYOUT(aclrtServerPid, 24, 8);
FIELD(aclrtServerPid, sdid, 0, 4);
FIELD(aclrtServerPid, pid, 8, 8);
FIELD(aclrtServerPid, num, 16, 8);

LAYOUT(aclrtStreamConfigHandle, 32, 8);
FIELD(aclrtStreamConfigHandle, workptr, 0, 8);
FIELD(aclrtStreamConfigHandle, workSize, 8, 8);
FIELD(aclrtStreamConfigHandle, flag, 16, 8);
FIELD(aclrtStreamConfigHandle, priority, 24, 4);

LAYOUT(aclrtUtilizationInfo, 24, 8);
FIELD(aclrtUtilizationInfo, cubeUtilization, 0, 4);
FIELD(aclrtUtilizationInfo, vectorUtilization, 4, 4);
FIELD(aclrtUtilizationInfo, aicpuUtilization, 8, 4);
FIELD(aclrtUtilizationInfo, memoryUtilization, 12, 4);
FIELD(aclrtUtilizationInfo, utilizationExtend, 16, 8);

LAYOUT(aclrtMemLocation, 8, 4);
FIELD(aclrtMemLocation, id, 0, 4);
FIELD(aclrtMemLocation, type, 4, 4);

LAYOUT(aclrtPtrAttributes, 28, 4);
FIELD(aclrtPtrAttributes, location, 0, 8);
FIELD(aclrtPtrAttributes, pageSize, 8, 4);
FIELD(aclrtPtrAttributes, rsv, 12, 16);

LAYOUT(aclrtMemUsageInfo, 112, 8);
FIELD(aclrtMemUsageInfo, name, 0, 32);
FIELD(aclrtMemUsageInfo, curMemSize, 32, 8);
FIELD(aclrtMemUsageInfo, memPeakSize, 40, 8);
FIELD(aclrtMemUsageInfo, reserved, 48, 64);

LAYOUT(aclrtMemFabricHandle, 128, 1);
FIELD(aclrtMemFabricHandle, data, 0, 128);

LAYOUT(aclrtPhysicalMemProp, 32, 8);
FIELD(aclrtPhysicalMemProp, handleType, 0, 4);
FIELD(aclrtPhysicalMemProp, allocationType, 4, 4);
FIELD(aclrtPhysicalMemProp, memAttr, 8, 4);
FIELD(aclrtPhysicalMemProp, location, 12, 8);
FIELD(aclrtPhysicalMemProp, reserve, 24, 8);

LAYOUT(aclrtMemUceInfo, 128, 8);
FIELD(aclrtMemUceInfo, addr, 0, 8);
FIELD(aclrtMemUceInfo, len, 8, 8);
FIELD(aclrtMemUceInfo, reserved, 16, 112);

LAYOUT(aclrtMemUceInfoArray, 2568, 8);
FIELD(aclrtMemUceInfoArray, arraySize, 0, 8);
FIELD(aclrtMemUceInfoArray, memUceInfoArray, 8, 2560);

LAYOUT(aclrtErrorInfoDetail, 2568, 8);
FIELD(aclrtErrorInfoDetail, uceInfo, 0, 2568);
FIELD(aclrtErrorInfoDetail, aicoreErrType, 0, 4);

LAYOUT(aclrtErrorInfo, 2576, 8);
FIELD(aclrtErrorInfo, tryRepair, 0, 1);
FIELD(aclrtErrorInfo, hasDetail, 1, 1);
FIELD(aclrtErrorInfo, reserved, 2, 2);
FIELD(aclrtErrorInfo, errorType, 4, 4);
FIELD(aclrtErrorInfo, detail, 8, 2568);

LAYOUT(aclrtBinaryLoadOptionValue, 16, 4);
FIELD(aclrtBinaryLoadOptionValue, isLazyLoad, 0, 4);
FIELD(aclrtBinaryLoadOptionValue, magic, 0, 4);
FIELD(aclrtBinaryLoadOptionValue, cpuKernelMode, 0, 4);
FIELD(aclrtBinaryLoadOptionValue, rsv, 0, 16);

LAYOUT(aclrtBinaryLoadOption, 20, 4);
FIELD(aclrtBinaryLoadOption, type, 0, 4);
FIELD(aclrtBinaryLoadOption, value, 4, 16);

LAYOUT(aclrtBinaryLoadOptions, 16, 8);
FIELD(aclrtBinaryLoadOptions, options, 0, 8);
FIELD(aclrtBinaryLoadOptions, numOpt, 8, 8);

LAYOUT(dim3, 12, 4);
FIELD(dim3, x, 0, 4);
FIELD(dim3, y, 4, 4);
FIELD(dim3, z, 8, 4);

LAYOUT(aclrtTimeoutUs, 8, 4);
FIELD(aclrtTimeoutUs, timeoutLow, 0, 4);
FIELD(aclrtTimeoutUs, timeoutHigh, 4, 4);

LAYOUT(aclrtLaunchKernelAttrValue, 16, 4);
FIELD(aclrtLaunchKernelAttrValue, schemMode, 0, 1);
FIELD(aclrtLaunchKernelAttrValue, localMemorySize, 0, 4);
FIELD(aclrtLaunchKernelAttrValue, dynUBufSize, 0, 4);
FIELD(aclrtLaunchKernelAttrValue, engineType, 0, 4);
FIELD(aclrtLaunchKernelAttrValue, blockDimOffset, 0, 4);
FIELD(aclrtLaunchKernelAttrValue, isBlockTaskPrefetch, 0, 1);
FIELD(aclrtLaunchKernelAttrValue, isDataDump, 0, 1);
FIELD(aclrtLaunchKernelAttrValue, timeout, 0, 2);
FIELD(aclrtLaunchKernelAttrValue, timeoutUs, 0, 8);
FIELD(aclrtLaunchKernelAttrValue, enableProfiling, 0, 1);
FIELD(aclrtLaunchKernelAttrValue, rsv, 0, 16);

LAYOUT(aclrtLaunchKernelAttr, 20, 4);
FIELD(aclrtLaunchKernelAttr, id, 0, 4);
FIELD(aclrtLaunchKernelAttr, value, 4, 16);

LAYOUT(aclrtLaunchKernelCfg, 16, 8);
FIELD(aclrtLaunchKernelCfg, attrs, 0, 8);
FIELD(aclrtLaunchKernelCfg, numAttrs, 8, 8);

LAYOUT(aclrtStreamAttrValue, 16, 8);
FIELD(aclrtStreamAttrValue, failureMode, 0, 8);
FIELD(aclrtStreamAttrValue, overflowSwitch, 0, 4);
FIELD(aclrtStreamAttrValue, userCustomTag, 0, 4);
FIELD(aclrtStreamAttrValue, cacheOpInfoSwitch, 0, 4);
FIELD(aclrtStreamAttrValue, streamPriority, 0, 4);
FIELD(aclrtStreamAttrValue, reserve, 0, 16);

LAYOUT(aclmdlRIKernelTaskParams, 88, 8);
FIELD(aclmdlRIKernelTaskParams, funcHandle, 0, 8);
FIELD(aclmdlRIKernelTaskParams, cfg, 8, 8);
FIELD(aclmdlRIKernelTaskParams, args, 16, 8);
FIELD(aclmdlRIKernelTaskParams, isHostArgs, 24, 4);
FIELD(aclmdlRIKernelTaskParams, argsSize, 32, 8);
FIELD(aclmdlRIKernelTaskParams, numBlocks, 40, 4);
FIELD(aclmdlRIKernelTaskParams, rsv, 44, 40);

LAYOUT(aclmdlRIEventRecordTaskParams, 16, 8);
FIELD(aclmdlRIEventRecordTaskParams, event, 0, 8);
FIELD(aclmdlRIEventRecordTaskParams, eventFlag, 8, 4);
FIELD(aclmdlRIEventRecordTaskParams, recordFlag, 12, 4);

LAYOUT(aclmdlRIEventWaitTaskParams, 16, 8);
FIELD(aclmdlRIEventWaitTaskParams, event, 0, 8);
FIELD(aclmdlRIEventWaitTaskParams, eventFlag, 8, 4);
FIELD(aclmdlRIEventWaitTaskParams, waitFlag, 12, 4);

LAYOUT(aclmdlRIEventResetTaskParams, 16, 8);
FIELD(aclmdlRIEventResetTaskParams, event, 0, 8);
FIELD(aclmdlRIEventResetTaskParams, eventFlag, 8, 4);
FIELD(aclmdlRIEventResetTaskParams, resetFlag, 12, 4);

LAYOUT(aclmdlRIValueWriteTaskParams, 16, 8);
FIELD(aclmdlRIValueWriteTaskParams, devAddr, 0, 8);
FIELD(aclmdlRIValueWriteTaskParams, value, 8, 8);

LAYOUT(aclmdlRIValueWaitTaskParams, 24, 8);
FIELD(aclmdlRIValueWaitTaskParams, devAddr, 0, 8);
FIELD(aclmdlRIValueWaitTaskParams, value, 8, 8);
FIELD(aclmdlRIValueWaitTaskParams, flag, 16, 4);

LAYOUT(aclmdlRITaskParams, 200, 8);
FIELD(aclmdlRITaskParams, type, 0, 4);
FIELD(aclmdlRITaskParams, rsv0, 4, 12);
FIELD(aclmdlRITaskParams, taskGrp, 16, 8);
FIELD(aclmdlRITaskParams, opInfoPtr, 24, 8);
FIELD(aclmdlRITaskParams, opInfoSize, 32, 8);
FIELD(aclmdlRITaskParams, rsv1, 40, 32);
FIELD(aclmdlRITaskParams, rsv2, 72, 128);
FIELD(aclmdlRITaskParams, kernelTaskParams, 72, 88);
FIELD(aclmdlRITaskParams, eventRecordTaskParams, 72, 16);
FIELD(aclmdlRITaskParams, eventWaitTaskParams, 72, 16);
FIELD(aclmdlRITaskParams, eventResetTaskParams, 72, 16);
FIELD(aclmdlRITaskParams, valueWriteTaskParams, 72, 16);
FIELD(aclmdlRITaskParams, valueWaitTaskParams, 72, 24);

LAYOUT(aclrtBarrierCmoInfo, 8, 4);
FIELD(aclrtBarrierCmoInfo, cmoType, 0, 4);
FIELD(aclrtBarrierCmoInfo, barrierId, 4, 4);

LAYOUT(aclrtBarrierTaskInfo, 56, 8);
FIELD(aclrtBarrierTaskInfo, barrierNum, 0, 8);
FIELD(aclrtBarrierTaskInfo, cmoInfo, 8, 48);

LAYOUT(aclrtMemcpyBatchAttr, 32, 4);
FIELD(aclrtMemcpyBatchAttr, dstLoc, 0, 8);
FIELD(aclrtMemcpyBatchAttr, srcLoc, 8, 8);
FIELD(aclrtMemcpyBatchAttr, rsv, 16, 16);

LAYOUT(aclrtPlaceHolderInfo, 8, 4);
FIELD(aclrtPlaceHolderInfo, addrOffset, 0, 4);
FIELD(aclrtPlaceHolderInfo, dataOffset, 4, 4);

LAYOUT(aclrtRandomParaInfo, 16, 1);
FIELD(aclrtRandomParaInfo, isAddr, 0, 1);
FIELD(aclrtRandomParaInfo, valueOrAddr, 1, 8);
FIELD(aclrtRandomParaInfo, size, 9, 1);
FIELD(aclrtRandomParaInfo, rsv, 10, 6);

LAYOUT(aclrtDropoutBitmaskInfo, 16, 1);
FIELD(aclrtDropoutBitmaskInfo, dropoutRation, 0, 16);

LAYOUT(aclrtUniformDisInfo, 32, 1);
FIELD(aclrtUniformDisInfo, min, 0, 16);
FIELD(aclrtUniformDisInfo, max, 16, 16);

LAYOUT(aclrtNormalDisInfo, 32, 1);
FIELD(aclrtNormalDisInfo, mean, 0, 16);
FIELD(aclrtNormalDisInfo, stddev, 16, 16);

LAYOUT(aclrtRandomNumFuncParaInfo, 36, 4);
FIELD(aclrtRandomNumFuncParaInfo, funcType, 0, 4);
FIELD(aclrtRandomNumFuncParaInfo, paramInfo, 4, 32);

LAYOUT(aclrtRandomNumTaskInfo, 104, 8);
FIELD(aclrtRandomNumTaskInfo, dataType, 0, 4);
FIELD(aclrtRandomNumTaskInfo, randomNumFuncParaInfo, 4, 36);
FIELD(aclrtRandomNumTaskInfo, randomParaAddr, 40, 8);
FIELD(aclrtRandomNumTaskInfo, randomResultAddr, 48, 8);
FIELD(aclrtRandomNumTaskInfo, randomCounterAddr, 56, 8);
FIELD(aclrtRandomNumTaskInfo, randomSeed, 64, 16);
FIELD(aclrtRandomNumTaskInfo, randomNum, 80, 16);
FIELD(aclrtRandomNumTaskInfo, rsv, 96, 8);

LAYOUT(aclrtRandomTaskUpdateAttr, 32, 8);
FIELD(aclrtRandomTaskUpdateAttr, srcAddr, 0, 8);
FIELD(aclrtRandomTaskUpdateAttr, size, 8, 8);
FIELD(aclrtRandomTaskUpdateAttr, rsv, 16, 16);

LAYOUT(aclrtAicAivTaskUpdateAttr, 40, 8);
FIELD(aclrtAicAivTaskUpdateAttr, binHandle, 0, 8);
FIELD(aclrtAicAivTaskUpdateAttr, funcEntryAddr, 8, 8);
FIELD(aclrtAicAivTaskUpdateAttr, blockDimAddr, 16, 8);
FIELD(aclrtAicAivTaskUpdateAttr, rsv, 24, 16);

LAYOUT(aclrtUpdateTaskAttrVal, 40, 8);
FIELD(aclrtUpdateTaskAttrVal, randomTaskAttr, 0, 32);
FIELD(aclrtUpdateTaskAttrVal, aicAivTaskAttr, 0, 40);

LAYOUT(aclrtTaskUpdateInfo, 48, 8);
FIELD(aclrtTaskUpdateInfo, id, 0, 4);
FIELD(aclrtTaskUpdateInfo, val, 8, 40);

LAYOUT(aclrtSnapShotBackupArgs, 64, 4);
FIELD(aclrtSnapShotBackupArgs, backupFlags, 0, 4);
FIELD(aclrtSnapShotBackupArgs, reserved, 4, 60);

LAYOUT(aclrtSnapShotRestoreArgs, 64, 4);
FIELD(aclrtSnapShotRestoreArgs, restoreFlags, 0, 4);
FIELD(aclrtSnapShotRestoreArgs, reserved, 4, 60);

LAYOUT(aclrtUuid, 16, 1);
FIELD(aclrtUuid, bytes, 0, 16);

LAYOUT(aclrtCntNotifyRecordInfo, 8, 4);
FIELD(aclrtCntNotifyRecordInfo, mode, 0, 4);
FIELD(aclrtCntNotifyRecordInfo, value, 4, 4);

LAYOUT(aclrtCntNotifyWaitInfo, 16, 4);
FIELD(aclrtCntNotifyWaitInfo, mode, 0, 4);
FIELD(aclrtCntNotifyWaitInfo, value, 4, 4);
FIELD(aclrtCntNotifyWaitInfo, timeout, 8, 4);
FIELD(aclrtCntNotifyWaitInfo, isClear, 12, 1);
FIELD(aclrtCntNotifyWaitInfo, rsv, 13, 3);

LAYOUT(aclrtMemAccessDesc, 24, 4);
FIELD(aclrtMemAccessDesc, flags, 0, 4);
FIELD(aclrtMemAccessDesc, location, 4, 8);
FIELD(aclrtMemAccessDesc, rsv, 12, 12);

LAYOUT(aclCANNPackageVersion, 512, 1);
FIELD(aclCANNPackageVersion, version, 0, 128);
FIELD(aclCANNPackageVersion, majorVersion, 128, 64);
FIELD(aclCANNPackageVersion, minorVersion, 192, 64);
FIELD(aclCANNPackageVersion, releaseVersion, 256, 64);
FIELD(aclCANNPackageVersion, patchVersion, 320, 64);
FIELD(aclCANNPackageVersion, reserved, 384, 128);

LAYOUT(aclrtIpcEventHandle, 64, 1);
FIELD(aclrtIpcEventHandle, reserved, 0, 64);

LAYOUT(struct MemAttrMapping, 16, 4);
FIELD(struct MemAttrMapping, pgType, 0, 4);
FIELD(struct MemAttrMapping, memType, 4, 4);
FIELD(struct MemAttrMapping, isHostAlloc, 8, 1);
FIELD(struct MemAttrMapping, memAttr, 12, 4);

LAYOUT(aclmdlRICondTaskParams, 24, 8);
FIELD(aclmdlRICondTaskParams, handle, 0, 8);
FIELD(aclmdlRICondTaskParams, type, 8, 4);
FIELD(aclmdlRICondTaskParams, size, 12, 4);
FIELD(aclmdlRICondTaskParams, modelRIArray, 16, 8);

/* ===================================================================== */
/* Tags behind the typedefs                                              */
/* ===================================================================== */

TAG(enum aclrtRunMode, aclrtRunMode);
TAG(enum aclrtTsId, aclrtTsId);
TAG(enum aclrtEventStatus, aclrtEventStatus);
TAG(enum aclrtEventRecordedStatus, aclrtEventRecordedStatus);
TAG(enum aclrtEventWaitStatus, aclrtEventWaitStatus);
TAG(enum aclrtStreamStatus, aclrtStreamStatus);
TAG(enum aclrtCallbackBlockType, aclrtCallbackBlockType);
TAG(enum aclrtMemcpyKind, aclrtMemcpyKind);
TAG(enum aclrtMemManagedAdviseType, aclrtMemManagedAdviseType);
TAG(enum aclrtMemManagedLocationType, aclrtMemManagedLocationType);
TAG(struct aclrtMemManagedLocation, aclrtMemManagedLocation);
TAG(enum aclrtMemMallocPolicy, aclrtMemMallocPolicy);
TAG(enum aclrtMemAttr, aclrtMemAttr);
TAG(enum aclrtGroupAttr, aclrtGroupAttr);
TAG(enum aclrtFloatOverflowMode, aclrtFloatOverflowMode);
TAG(struct aclrtStreamConfigHandle, aclrtStreamConfigHandle);
TAG(struct aclrtUtilizationInfo, aclrtUtilizationInfo);
TAG(enum aclrtMemLocationType, aclrtMemLocationType);
TAG(struct aclrtMemLocation, aclrtMemLocation);
TAG(struct aclrtPtrAttributes, aclrtPtrAttributes);
TAG(struct aclrtMemUsageInfo, aclrtMemUsageInfo);
TAG(enum aclrtMemManagedRangeAttribute, aclrtMemManagedRangeAttribute);
TAG(enum aclrtMemAllocationType, aclrtMemAllocationType);
TAG(enum aclrtMemHandleType, aclrtMemHandleType);
TAG(enum aclrtMemSharedHandleType, aclrtMemSharedHandleType);
TAG(struct aclrtMemFabricHandle, aclrtMemFabricHandle);
TAG(struct aclrtPhysicalMemProp, aclrtPhysicalMemProp);
TAG(enum aclrtMemGranularityOptions, aclrtMemGranularityOptions);
TAG(enum aclrtDeviceStatus, aclrtDeviceStatus);
TAG(struct aclrtMemUceInfo, aclrtMemUceInfo);
TAG(enum aclrtAicoreErrorType, aclrtAicoreErrorType);
TAG(union aclrtErrorInfoDetail, aclrtErrorInfoDetail);
TAG(struct aclrtErrorInfo, aclrtErrorInfo);
TAG(enum aclrtCmoType, aclrtCmoType);
TAG(enum aclrtLastErrLevel, aclrtLastErrLevel);
TAG(enum aclrtBinaryLoadOptionType, aclrtBinaryLoadOptionType);
TAG(union aclrtBinaryLoadOptionValue, aclrtBinaryLoadOptionValue);
TAG(struct aclrtBinaryLoadOptions, aclrtBinaryLoadOptions);
TAG(struct dim3, dim3);
TAG(enum aclrtLaunchKernelAttrId, aclrtLaunchKernelAttrId);
TAG(union aclrtLaunchKernelAttrValue, aclrtLaunchKernelAttrValue);
TAG(struct aclrtLaunchKernelAttr, aclrtLaunchKernelAttr);
TAG(struct aclrtLaunchKernelCfg, aclrtLaunchKernelCfg);
TAG(enum aclmdlRITaskType, aclmdlRITaskType);
TAG(struct aclmdlRIKernelTaskParams, aclmdlRIKernelTaskParams);
TAG(struct aclmdlRIEventRecordTaskParams, aclmdlRIEventRecordTaskParams);
TAG(struct aclmdlRIEventWaitTaskParams, aclmdlRIEventWaitTaskParams);
TAG(struct aclmdlRIEventResetTaskParams, aclmdlRIEventResetTaskParams);
TAG(struct aclmdlRIValueWriteTaskParams, aclmdlRIValueWriteTaskParams);
TAG(struct aclmdlRIValueWaitTaskParams, aclmdlRIValueWaitTaskParams);
TAG(struct aclmdlRITaskParams, aclmdlRITaskParams);
TAG(struct aclrtSnapShotBackupArgs, aclrtSnapShotBackupArgs);
TAG(struct aclrtSnapShotRestoreArgs, aclrtSnapShotRestoreArgs);
TAG(struct aclrtUuid, aclrtUuid);
TAG(enum aclCANNPackageName, aclCANNPackageName);
TAG(struct aclCANNPackageVersion, aclCANNPackageVersion);
TAG(struct aclrtIpcEventHandle, aclrtIpcEventHandle);
TAG(enum aclrtAtomicOperationCapability, aclrtAtomicOperationCapability);
TAG(enum aclrtAtomicOperation, aclrtAtomicOperation);
TAG(struct tagAclmdlRICondTaskParams, aclmdlRICondTaskParams);
TAG(enum aclrtDeviceLimit, aclrtDeviceLimit);
TAG(enum aclRegisterCallbackType, aclRegisterCallbackType);
TAG(enum aclrtProcessState, aclrtProcessState);
OPAQUE(struct aclrtUtilizationExtendInfo, aclrtUtilizationExtendInfo);
OPAQUE(struct tagRtGroupInfo, aclrtGroupInfo);
OPAQUE(struct rtExceptionInfo, aclrtExceptionInfo);

/* ===================================================================== */
/* Handles and callbacks                                                 */
/* ===================================================================== */

HANDLE(aclrtDrvMemHandle);
HANDLE(aclrtBinary);
HANDLE(aclrtBinHandle);
HANDLE(aclrtFuncHandle);
HANDLE(aclrtArgsHandle);
HANDLE(aclrtParamHandle);
HANDLE(aclmdlRI);
HANDLE(aclmdlRICondHandle);
_Static_assert(_Generic((aclrtDrvMemHandle)0, void *: 1, default: 0), "aclrtDrvMemHandle is void *");
_Static_assert(_Generic((aclmdlRI)0, void *: 1, default: 0), "aclmdlRI is void *");

CALLBACK(aclrtCallback, void (*)(void *));
CALLBACK(aclrtHostFunc, void (*)(void *));
CALLBACK(aclrtExceptionInfoCallback, void (*)(aclrtExceptionInfo *));
CALLBACK(aclrtOpExceptionCallback, void (*)(aclrtExceptionInfo *, void *));
CALLBACK(aclrtDeviceStateCallback, void (*)(int32_t, aclrtDeviceState, void *));
CALLBACK(aclrtSnapShotCallBack, uint32_t (*)(int32_t, void *));
CALLBACK(aclrtStreamStateCallback, void (*)(aclrtStream, aclrtStreamState, void *));
CALLBACK(aclrtDeviceTaskAbortCallback, int32_t (*)(int32_t, aclrtDeviceTaskAbortStage, uint32_t, void *));
CALLBACK(aclInitCallbackFunc, aclError (*)(const char *, size_t, void *));
CALLBACK(aclFinalizeCallbackFunc, aclError (*)(void *));
CALLBACK(aclrtAllocatorAllocFunc, void * (*)(aclrtAllocator, size_t));
CALLBACK(aclrtAllocatorFreeFunc, void (*)(aclrtAllocator, aclrtAllocatorBlock));
CALLBACK(aclrtAllocatorAllocAdviseFunc, void * (*)(aclrtAllocator, size_t, aclrtAllocatorAddr));
CALLBACK(aclrtAllocatorGetAddrFromBlockFunc, void * (*)(aclrtAllocatorBlock));

/* ===================================================================== */
/* Function types (373 in acl_rt.h, 10 in acl_rt_allocator.h)            */
/* ===================================================================== */

FN(aclInit, aclError (*)(const char *));
FN(aclFinalize, aclError (*)(void));
FN(aclFinalizeReference, aclError (*)(uint64_t *));
FN(aclGetRecentErrMsg, const char * (*)(void));
FN(aclsysGetCANNVersion, aclError (*)(aclCANNPackageName, aclCANNPackageVersion *));
FN(aclsysGetVersionStr, aclError (*)(char *, char *));
FN(aclsysGetVersionNum, aclError (*)(char *, int32_t *));
FN(aclrtPeekAtLastError, aclError (*)(aclrtLastErrLevel));
FN(aclrtGetLastError, aclError (*)(aclrtLastErrLevel));
FN(aclrtSetExceptionInfoCallback, aclError (*)(aclrtExceptionInfoCallback));
FN(aclrtExceptionInfoCallbackRegister, aclError (*)(aclrtExceptionInfoCallback));
FN(aclrtExceptionInfoCallbackUnregister, aclError (*)(aclrtExceptionInfoCallback));
FN(aclrtGetTaskIdFromExceptionInfo, uint32_t (*)(const aclrtExceptionInfo *));
FN(aclrtGetStreamIdFromExceptionInfo, uint32_t (*)(const aclrtExceptionInfo *));
FN(aclrtGetThreadIdFromExceptionInfo, uint32_t (*)(const aclrtExceptionInfo *));
FN(aclrtGetDeviceIdFromExceptionInfo, uint32_t (*)(const aclrtExceptionInfo *));
FN(aclrtGetErrorCodeFromExceptionInfo, uint32_t (*)(const aclrtExceptionInfo *));
FN(aclrtGetArgsFromExceptionInfo, aclError (*)(const aclrtExceptionInfo *, void **, uint32_t *));
FN(aclrtGetFuncHandleFromExceptionInfo, aclError (*)(const aclrtExceptionInfo *, aclrtFuncHandle *));
FN(aclrtBinarySetExceptionCallback, aclError (*)(aclrtBinHandle, aclrtOpExceptionCallback, void *));
FN(aclrtSubscribeReport, aclError (*)(uint64_t, aclrtStream));
FN(aclrtLaunchCallback, aclError (*)(aclrtCallback, void *, aclrtCallbackBlockType, aclrtStream));
FN(aclrtProcessReport, aclError (*)(int32_t));
FN(aclrtUnSubscribeReport, aclError (*)(uint64_t, aclrtStream));
FN(aclrtCreateContext, aclError (*)(aclrtContext *, int32_t));
FN(aclrtDestroyContext, aclError (*)(aclrtContext));
FN(aclrtSetCurrentContext, aclError (*)(aclrtContext));
FN(aclrtGetCurrentContext, aclError (*)(aclrtContext *));
FN(aclrtCtxGetSysParamOpt, aclError (*)(aclSysParamOpt, int64_t *));
FN(aclrtCtxSetSysParamOpt, aclError (*)(aclSysParamOpt, int64_t));
FN(aclrtGetSysParamOpt, aclError (*)(aclSysParamOpt, int64_t *));
FN(aclrtSetSysParamOpt, aclError (*)(aclSysParamOpt, int64_t));
FN(aclrtSetDevice, aclError (*)(int32_t));
FN(aclrtResetDevice, aclError (*)(int32_t));
FN(aclrtResetDeviceForce, aclError (*)(int32_t));
FN(aclrtGetDevice, aclError (*)(int32_t *));
FN(aclrtSetStreamFailureMode, aclError (*)(aclrtStream, uint64_t));
FN(aclrtGetRunMode, aclError (*)(aclrtRunMode *));
FN(aclrtSynchronizeDevice, aclError (*)(void));
FN(aclrtSynchronizeDeviceWithTimeout, aclError (*)(int32_t));
FN(aclrtSetTsDevice, aclError (*)(aclrtTsId));
FN(aclrtGetDeviceUtilizationRate, aclError (*)(int32_t, aclrtUtilizationInfo *));
FN(aclrtGetDeviceCount, aclError (*)(uint32_t *));
FN(aclrtCreateEvent, aclError (*)(aclrtEvent *));
FN(aclrtCreateEventWithFlag, aclError (*)(aclrtEvent *, uint32_t));
FN(aclrtCreateEventExWithFlag, aclError (*)(aclrtEvent *, uint32_t));
FN(aclrtDestroyEvent, aclError (*)(aclrtEvent));
FN(aclrtRecordEvent, aclError (*)(aclrtEvent, aclrtStream));
FN(aclrtRecordEventWithFlag, aclError (*)(aclrtEvent, aclrtStream, uint32_t));
FN(aclrtResetEvent, aclError (*)(aclrtEvent, aclrtStream));
FN(aclrtQueryEvent, aclError (*)(aclrtEvent, aclrtEventStatus *));
FN(aclrtQueryEventStatus, aclError (*)(aclrtEvent, aclrtEventRecordedStatus *));
FN(aclrtQueryEventWaitStatus, aclError (*)(aclrtEvent, aclrtEventWaitStatus *));
FN(aclrtSynchronizeEvent, aclError (*)(aclrtEvent));
FN(aclrtSynchronizeEventWithTimeout, aclError (*)(aclrtEvent, int32_t));
FN(aclrtEventElapsedTime, aclError (*)(float *, aclrtEvent, aclrtEvent));
FN(aclrtEventGetTimestamp, aclError (*)(aclrtEvent, uint64_t *));
FN(aclrtMalloc, aclError (*)(void **, size_t, aclrtMemMallocPolicy));
FN(aclrtMallocAlign32, aclError (*)(void **, size_t, aclrtMemMallocPolicy));
FN(aclrtMallocCached, aclError (*)(void **, size_t, aclrtMemMallocPolicy));
FN(aclrtMallocWithCfg, aclError (*)(void **, size_t, aclrtMemMallocPolicy, aclrtMallocConfig *));
FN(aclrtMallocForTaskScheduler, aclError (*)(void **, size_t, aclrtMemMallocPolicy, aclrtMallocConfig *));
FN(aclrtMallocHostWithCfg, aclError (*)(void **, uint64_t, aclrtMallocConfig *));
FN(aclrtPointerGetAttributes, aclError (*)(const void *, aclrtPtrAttributes *));
FN(aclrtMemManagedGetAttr, aclError (*)(aclrtMemManagedRangeAttribute, const void *, size_t, void *, size_t));
FN(aclrtMemManagedGetAttrs,
   aclError (*)(aclrtMemManagedRangeAttribute *, size_t, const void *, size_t, void **, size_t *));
FN(aclrtHostRegister, aclError (*)(void *, uint64_t, aclrtHostRegisterType, void **));
FN(aclrtHostRegisterV2, aclError (*)(void *, uint64_t, uint32_t));
FN(aclrtHostGetDevicePointer, aclError (*)(void *, void **, uint32_t));
FN(aclrtHostUnregister, aclError (*)(void *));
FN(aclrtHostMemMapCapabilities, aclError (*)(uint32_t, aclrtHacType, aclrtHostMemMapCapability *));
FN(aclrtGetThreadLastTaskId, aclError (*)(uint32_t *));
FN(aclrtStreamGetId, aclError (*)(aclrtStream, int32_t *));
FN(aclrtMemFlush, aclError (*)(void *, size_t));
FN(aclrtMemInvalidate, aclError (*)(void *, size_t));
FN(aclrtFree, aclError (*)(void *));
FN(aclrtMallocHost, aclError (*)(void **, size_t));
FN(aclrtMemAllocManaged, aclError (*)(void **, uint64_t, uint32_t));
FN(aclrtFreeHost, aclError (*)(void *));
FN(aclrtFreeWithDevSync, aclError (*)(void *));
FN(aclrtFreeHostWithDevSync, aclError (*)(void *));
FN(aclrtMemcpy, aclError (*)(void *, size_t, const void *, size_t, aclrtMemcpyKind));
FN(aclrtMemset, aclError (*)(void *, size_t, int32_t, size_t));
FN(aclrtMemcpyAsync, aclError (*)(void *, size_t, const void *, size_t, aclrtMemcpyKind, aclrtStream));
FN(aclrtMemsetD32, aclError (*)(void *, size_t, uint32_t, size_t));
FN(aclrtMemsetD32Async, aclError (*)(void *, size_t, uint32_t, size_t, aclrtStream));
FN(aclrtMemcpyAsyncWithCondition, aclError (*)(void *, size_t, const void *, size_t, aclrtMemcpyKind, aclrtStream));
FN(aclrtMemcpy2d, aclError (*)(void *, size_t, const void *, size_t, size_t, size_t, aclrtMemcpyKind));
FN(aclrtMemcpy2dAsync,
   aclError (*)(void *, size_t, const void *, size_t, size_t, size_t, aclrtMemcpyKind, aclrtStream));
FN(aclrtGetSymbolAddress, aclError (*)(const void *, void **));
FN(aclrtGetSymbolSize, aclError (*)(const void *, size_t *));
FN(aclrtMemcpyFromSymbol, aclError (*)(void *, size_t, const void *, size_t, size_t, aclrtMemcpyKind));
FN(aclrtMemcpyFromSymbolAsync,
   aclError (*)(void *, size_t, const void *, size_t, size_t, aclrtMemcpyKind, aclrtStream));
FN(aclrtMemcpyToSymbol, aclError (*)(const void *, const void *, size_t, size_t, aclrtMemcpyKind));
FN(aclrtMemcpyToSymbolAsync, aclError (*)(const void *, const void *, size_t, size_t, aclrtMemcpyKind, aclrtStream));
FN(aclrtMemsetAsync, aclError (*)(void *, size_t, int32_t, size_t, aclrtStream));
FN(aclrtMemManagedAdvise,
   aclError (*)(const void *const, uint64_t, aclrtMemManagedAdviseType, aclrtMemManagedLocation));
FN(aclrtReserveMemAddress, aclError (*)(void **, size_t, size_t, void *, uint64_t));
FN(aclrtReleaseMemAddress, aclError (*)(void *));
FN(aclrtMallocPhysical, aclError (*)(aclrtDrvMemHandle *, size_t, const aclrtPhysicalMemProp *, uint64_t));
FN(aclrtFreePhysical, aclError (*)(aclrtDrvMemHandle));
FN(aclrtMapMem, aclError (*)(void *, size_t, size_t, aclrtDrvMemHandle, uint64_t));
FN(aclrtUnmapMem, aclError (*)(void *));
FN(aclrtMemMapNoAccess, aclError (*)(void *, size_t, size_t, aclrtDrvMemHandle, uint64_t));
FN(aclrtCreateStreamConfigHandle, aclrtStreamConfigHandle * (*)(void));
FN(aclrtDestroyStreamConfigHandle, aclError (*)(aclrtStreamConfigHandle *));
FN(aclrtSetStreamConfigOpt, aclError (*)(aclrtStreamConfigHandle *, aclrtStreamConfigAttr, const void *, size_t));
FN(aclrtCreateStream, aclError (*)(aclrtStream *));
FN(aclrtCreateStreamV2, aclError (*)(aclrtStream *, const aclrtStreamConfigHandle *));
FN(aclrtCreateStreamWithConfig, aclError (*)(aclrtStream *, uint32_t, uint32_t));
FN(aclrtDestroyStream, aclError (*)(aclrtStream));
FN(aclrtDestroyStreamForce, aclError (*)(aclrtStream));
FN(aclrtSynchronizeStream, aclError (*)(aclrtStream));
FN(aclrtSynchronizeStreamWithTimeout, aclError (*)(aclrtStream, int32_t));
FN(aclrtStreamQuery, aclError (*)(aclrtStream, aclrtStreamStatus *));
FN(aclrtStreamGetPriority, aclError (*)(aclrtStream, uint32_t *));
FN(aclrtStreamGetFlags, aclError (*)(aclrtStream, uint32_t *));
FN(aclrtStreamWaitEvent, aclError (*)(aclrtStream, aclrtEvent));
FN(aclrtStreamWaitEventWithFlag, aclError (*)(aclrtStream, aclrtEvent, uint32_t, uint32_t));
FN(aclrtStreamWaitEventWithTimeout, aclError (*)(aclrtStream, aclrtEvent, int32_t));
FN(aclrtSetGroup, aclError (*)(int32_t));
FN(aclrtGetGroupCount, aclError (*)(uint32_t *));
FN(aclrtCreateGroupInfo, aclrtGroupInfo * (*)(void));
FN(aclrtDestroyGroupInfo, aclError (*)(aclrtGroupInfo *));
FN(aclrtGetAllGroupInfo, aclError (*)(aclrtGroupInfo *));
FN(aclrtGetGroupInfoDetail, aclError (*)(const aclrtGroupInfo *, int32_t, aclrtGroupAttr, void *, size_t, size_t *));
FN(aclrtDeviceCanAccessPeer, aclError (*)(int32_t *, int32_t, int32_t));
FN(aclrtDeviceEnablePeerAccess, aclError (*)(int32_t, uint32_t));
FN(aclrtDeviceDisablePeerAccess, aclError (*)(int32_t));
FN(aclrtGetMemInfo, aclError (*)(aclrtMemAttr, size_t *, size_t *));
FN(aclrtGetMemUsageInfo, aclError (*)(int32_t, aclrtMemUsageInfo *, size_t, size_t *));
FN(aclrtSetOpWaitTimeout, aclError (*)(uint32_t));
FN(aclrtSetOpExecuteTimeOut, aclError (*)(uint32_t));
FN(aclrtSetOpExecuteTimeOutWithMs, aclError (*)(uint32_t));
FN(aclrtSetOpExecuteTimeOutV2, aclError (*)(uint64_t, uint64_t *));
FN(aclrtGetOpTimeOutInterval, aclError (*)(uint64_t *));
FN(aclrtSetStreamOverflowSwitch, aclError (*)(aclrtStream, uint32_t));
FN(aclrtGetStreamOverflowSwitch, aclError (*)(aclrtStream, uint32_t *));
FN(aclrtSetDeviceSatMode, aclError (*)(aclrtFloatOverflowMode));
FN(aclrtGetDeviceSatMode, aclError (*)(aclrtFloatOverflowMode *));
FN(aclrtGetOverflowStatus, aclError (*)(void *, size_t, aclrtStream));
FN(aclrtResetOverflowStatus, aclError (*)(aclrtStream));
FN(aclrtSubscribeHostFunc, aclError (*)(uint64_t, aclrtStream));
FN(aclrtProcessHostFunc, aclError (*)(int32_t));
FN(aclrtUnSubscribeHostFunc, aclError (*)(uint64_t, aclrtStream));
FN(aclrtQueryDeviceStatus, aclError (*)(int32_t, aclrtDeviceStatus *));
FN(aclrtCreateBinary, aclrtBinary (*)(const void *, size_t));
FN(aclrtDestroyBinary, aclError (*)(aclrtBinary));
FN(aclrtBinaryLoad, aclError (*)(const aclrtBinary, aclrtBinHandle *));
FN(aclrtBinaryUnLoad, aclError (*)(aclrtBinHandle));
FN(aclrtBinaryGetFunction, aclError (*)(const aclrtBinHandle, const char *, aclrtFuncHandle *));
FN(aclrtLaunchKernel, aclError (*)(aclrtFuncHandle, uint32_t, const void *, size_t, aclrtStream));
FN(aclrtMemExportToShareableHandle, aclError (*)(aclrtDrvMemHandle, aclrtMemHandleType, uint64_t, uint64_t *));
FN(aclrtMemExportToShareableHandleV2, aclError (*)(aclrtDrvMemHandle, uint64_t, aclrtMemSharedHandleType, void *));
FN(aclrtMemImportFromShareableHandle, aclError (*)(uint64_t, int32_t, aclrtDrvMemHandle *));
FN(aclrtMemImportFromShareableHandleV2, aclError (*)(void *, aclrtMemSharedHandleType, uint64_t, aclrtDrvMemHandle *));
FN(aclrtMemSetPidToShareableHandle, aclError (*)(uint64_t, int32_t *, size_t));
FN(aclrtMemSetPidToShareableHandleV2, aclError (*)(void *, aclrtMemSharedHandleType, int32_t *, size_t));
FN(aclrtMemGetAllocationGranularity, aclError (*)(aclrtPhysicalMemProp *, aclrtMemGranularityOptions, size_t *));
FN(aclrtDeviceGetBareTgid, aclError (*)(int32_t *));
FN(aclrtCmoAsync, aclError (*)(void *, size_t, aclrtCmoType, aclrtStream));
FN(aclrtGetMemUceInfo, aclError (*)(int32_t, aclrtMemUceInfo *, size_t, size_t *));
FN(aclrtDeviceTaskAbort, aclError (*)(int32_t, uint32_t));
FN(aclrtMemUceRepair, aclError (*)(int32_t, aclrtMemUceInfo *, size_t));
FN(aclrtStreamAbort, aclError (*)(aclrtStream));
FN(aclrtBinaryLoadFromFile, aclError (*)(const char *, aclrtBinaryLoadOptions *, aclrtBinHandle *));
FN(aclrtBinaryGetDevAddress, aclError (*)(const aclrtBinHandle, void **, size_t *));
FN(aclrtBinaryGetFunctionByEntry, aclError (*)(aclrtBinHandle, uint64_t, aclrtFuncHandle *));
FN(aclrtBinaryGetGlobal, aclError (*)(aclrtBinHandle, const char *, void **, size_t *));
FN(aclrtGetFuncBySymbol, aclError (*)(const void *, aclrtFuncHandle *));
FN(aclrtGetFunctionAddr, aclError (*)(aclrtFuncHandle, void **, void **));
FN(aclrtGetFunctionSize, aclError (*)(aclrtFuncHandle, size_t *, size_t *));
FN(aclrtGetMemcpyDescSize, aclError (*)(aclrtMemcpyKind, size_t *));
FN(aclrtSetMemcpyDesc, aclError (*)(void *, aclrtMemcpyKind, void *, void *, size_t, void *));
FN(aclrtMemcpyAsyncWithOffset,
   aclError (*)(void **, size_t, size_t, const void **, size_t, size_t, aclrtMemcpyKind, aclrtStream));
FN(aclrtMemcpyAsyncWithDesc, aclError (*)(void *, aclrtMemcpyKind, aclrtStream));
FN(aclrtKernelArgsGetHandleMemSize, aclError (*)(aclrtFuncHandle, size_t *));
FN(aclrtKernelArgsGetMemSize, aclError (*)(aclrtFuncHandle, size_t, size_t *));
FN(aclrtKernelArgsInit, aclError (*)(aclrtFuncHandle, aclrtArgsHandle *));
FN(aclrtKernelArgsInitByUserMem, aclError (*)(aclrtFuncHandle, aclrtArgsHandle, void *, size_t));
FN(aclrtKernelArgsAppend, aclError (*)(aclrtArgsHandle, void *, size_t, aclrtParamHandle *));
FN(aclrtKernelArgsAppendPlaceHolder, aclError (*)(aclrtArgsHandle, aclrtParamHandle *));
FN(aclrtKernelArgsGetPlaceHolderBuffer, aclError (*)(aclrtArgsHandle, aclrtParamHandle, size_t, void **));
FN(aclrtKernelArgsParaUpdate, aclError (*)(aclrtArgsHandle, aclrtParamHandle, void *, size_t));
FN(aclrtLaunchKernelWithConfig,
   aclError (*)(aclrtFuncHandle, uint32_t, aclrtStream, aclrtLaunchKernelCfg *, aclrtArgsHandle, void *));
FN(aclmdlRITaskGetParams, aclError (*)(aclmdlRITask, aclmdlRITaskParams *));
FN(aclmdlRITaskSetParams, aclError (*)(aclmdlRITask, aclmdlRITaskParams *));
FN(aclmdlRIKernelTaskGetAttribute, aclError (*)(aclmdlRITask, aclrtLaunchKernelAttrId, aclrtLaunchKernelAttrValue *));
FN(aclmdlRIUpdate, aclError (*)(aclmdlRI));
FN(aclmdlRITaskDisable, aclError (*)(aclmdlRITask));
FN(aclrtKernelArgsFinalize, aclError (*)(aclrtArgsHandle));
FN(aclrtValueWrite, aclError (*)(void *, uint64_t, uint32_t, aclrtStream));
FN(aclrtValueWait, aclError (*)(void *, uint64_t, uint32_t, aclrtStream));
FN(aclrtGetStreamAvailableNum, aclError (*)(uint32_t *));
FN(aclrtSetStreamAttribute, aclError (*)(aclrtStream, aclrtStreamAttr, aclrtStreamAttrValue *));
FN(aclrtGetStreamAttribute, aclError (*)(aclrtStream, aclrtStreamAttr, aclrtStreamAttrValue *));
FN(aclrtCreateNotify, aclError (*)(aclrtNotify *, uint64_t));
FN(aclrtDestroyNotify, aclError (*)(aclrtNotify));
FN(aclrtCntNotifyCreate, aclError (*)(aclrtCntNotify *, uint64_t));
FN(aclrtCntNotifyDestroy, aclError (*)(aclrtCntNotify));
FN(aclrtRecordNotify, aclError (*)(aclrtNotify, aclrtStream));
FN(aclrtWaitAndResetNotify, aclError (*)(aclrtNotify, aclrtStream, uint32_t));
FN(aclrtGetNotifyId, aclError (*)(aclrtNotify, uint32_t *));
FN(aclrtGetEventId, aclError (*)(aclrtEvent, uint32_t *));
FN(aclrtGetEventAvailNum, aclError (*)(uint32_t *));
FN(aclrtGetDeviceInfo, aclError (*)(uint32_t, aclrtDevAttr, int64_t *));
FN(aclrtDeviceGetStreamPriorityRange, aclError (*)(int32_t *, int32_t *));
FN(aclrtGetDeviceCapability, aclError (*)(int32_t, aclrtDevFeatureType, int32_t *));
FN(aclrtDeviceGetUuid, aclError (*)(int32_t, aclrtUuid *));
FN(aclrtDeviceSetLimit, aclError (*)(aclrtDeviceLimit, size_t));
FN(aclrtDeviceGetLimit, aclError (*)(aclrtDeviceLimit, size_t *));
FN(aclrtDeviceGetPCIBusId, aclError (*)(int32_t, char *, int32_t));
FN(aclrtDeviceGetByPCIBusId, aclError (*)(const char *, int32_t *));
FN(aclrtDeviceGetHostAtomicCapabilities,
   aclError (*)(uint32_t *, const aclrtAtomicOperation *, const uint32_t, int32_t));
FN(aclrtDeviceGetP2PAtomicCapabilities,
   aclError (*)(uint32_t *, const aclrtAtomicOperation *, const uint32_t, int32_t, int32_t));
FN(aclrtCtxGetCurrentDefaultStream, aclError (*)(aclrtStream *));
FN(aclrtGetPrimaryCtxState, aclError (*)(int32_t, uint32_t *, int32_t *));
FN(aclrtReduceAsync, aclError (*)(void *, const void *, uint64_t, aclrtReduceKind, aclDataType, aclrtStream, void *));
FN(aclrtGetDeviceResLimit, aclError (*)(int32_t, aclrtDevResLimitType, uint32_t *));
FN(aclrtSetDeviceResLimit, aclError (*)(int32_t, aclrtDevResLimitType, uint32_t));
FN(aclrtResetDeviceResLimit, aclError (*)(int32_t));
FN(aclrtGetStreamResLimit, aclError (*)(aclrtStream, aclrtDevResLimitType, uint32_t *));
FN(aclrtSetStreamResLimit, aclError (*)(aclrtStream, aclrtDevResLimitType, uint32_t));
FN(aclrtResetStreamResLimit, aclError (*)(aclrtStream));
FN(aclrtUseStreamResInCurrentThread, aclError (*)(aclrtStream));
FN(aclrtUnuseStreamResInCurrentThread, aclError (*)(aclrtStream));
FN(aclrtGetResInCurrentThread, aclError (*)(aclrtDevResLimitType, uint32_t *));
FN(aclrtCreateLabel, aclError (*)(aclrtLabel *));
FN(aclrtSetLabel, aclError (*)(aclrtLabel, aclrtStream));
FN(aclrtDestroyLabel, aclError (*)(aclrtLabel));
FN(aclrtCreateLabelList, aclError (*)(aclrtLabel *, size_t, aclrtLabelList *));
FN(aclrtDestroyLabelList, aclError (*)(aclrtLabelList));
FN(aclrtSwitchLabelByIndex, aclError (*)(void *, uint32_t, aclrtLabelList, aclrtStream));
FN(aclrtActiveStream, aclError (*)(aclrtStream, aclrtStream));
FN(aclrtSwitchStream,
   aclError (*)(void *, aclrtCondition, void *, aclrtCompareDataType, aclrtStream, aclrtStream, aclrtStream));
FN(aclrtGetFunctionName, aclError (*)(aclrtFuncHandle, uint32_t, char *));
FN(aclrtGetBufFromChain, aclError (*)(aclrtMbuf, uint32_t, aclrtMbuf *));
FN(aclrtGetBufChainNum, aclError (*)(aclrtMbuf, uint32_t *));
FN(aclrtAppendBufChain, aclError (*)(aclrtMbuf, aclrtMbuf));
FN(aclrtCopyBufRef, aclError (*)(const aclrtMbuf, aclrtMbuf *));
FN(aclrtGetBufUserData, aclError (*)(const aclrtMbuf, void *, size_t, size_t));
FN(aclrtSetBufUserData, aclError (*)(aclrtMbuf, const void *, size_t, size_t));
FN(aclrtGetBufData, aclError (*)(const aclrtMbuf, void **, size_t *));
FN(aclrtGetBufDataLen, aclError (*)(aclrtMbuf, size_t *));
FN(aclrtSetBufDataLen, aclError (*)(aclrtMbuf, size_t));
FN(aclrtFreeBuf, aclError (*)(aclrtMbuf));
FN(aclrtAllocBuf, aclError (*)(aclrtMbuf *, size_t));
FN(aclrtBinaryLoadFromData, aclError (*)(const void *, size_t, const aclrtBinaryLoadOptions *, aclrtBinHandle *));
FN(aclrtRegisterCpuFunc, aclError (*)(const aclrtBinHandle, const char *, const char *, aclrtFuncHandle *));
FN(aclrtCmoAsyncWithBarrier, aclError (*)(void *, size_t, aclrtCmoType, uint32_t, aclrtStream));
FN(aclrtCmoWaitBarrier, aclError (*)(aclrtBarrierTaskInfo *, aclrtStream, uint32_t));
FN(aclrtGetDevicesTopo, aclError (*)(uint32_t, uint32_t, uint64_t *));
FN(aclrtMemcpyBatch,
   aclError (*)(void **, size_t *, void **, size_t *, size_t, aclrtMemcpyBatchAttr *, size_t *, size_t, size_t *));
FN(aclrtMemcpyBatchV2,
   aclError (*)(void **, size_t *, void **, size_t *, size_t, aclrtMemcpyBatchAttr *, size_t *, size_t));
FN(aclrtMemcpyBatchAsync,
   aclError (*)(void **, size_t *, void **, size_t *, size_t, aclrtMemcpyBatchAttr *, size_t *, size_t, size_t *,
      aclrtStream));
FN(aclrtMemcpyBatchAsyncV2,
   aclError (*)(void **, size_t *, void **, size_t *, size_t, aclrtMemcpyBatchAttr *, size_t *, size_t, aclrtStream));
FN(aclrtIpcMemGetExportKey, aclError (*)(void *, size_t, char *, size_t, uint64_t));
FN(aclrtIpcMemClose, aclError (*)(const char *));
FN(aclrtIpcMemImportByKey, aclError (*)(void **, const char *, uint64_t));
FN(aclrtIpcMemSetImportPid, aclError (*)(const char *, int32_t *, size_t));
FN(aclrtIpcMemSetAttr, aclError (*)(const char *, aclrtIpcMemAttrType, uint64_t));
FN(aclrtIpcMemImportPidInterServer, aclError (*)(const char *, aclrtServerPid *, size_t));
FN(aclrtNotifyBatchReset, aclError (*)(aclrtNotify *, size_t));
FN(aclrtNotifyGetExportKey, aclError (*)(aclrtNotify, char *, size_t, uint64_t));
FN(aclrtNotifyImportByKey, aclError (*)(aclrtNotify *, const char *, uint64_t));
FN(aclrtNotifySetImportPid, aclError (*)(aclrtNotify, int32_t *, size_t));
FN(aclrtNotifySetImportPidInterServer, aclError (*)(aclrtNotify, aclrtServerPid *, size_t));
FN(aclmdlRICaptureBegin, aclError (*)(aclrtStream, aclmdlRICaptureMode));
FN(aclmdlRICaptureGetInfo, aclError (*)(aclrtStream, aclmdlRICaptureStatus *, aclmdlRI *));
FN(aclmdlRICaptureEnd, aclError (*)(aclrtStream, aclmdlRI *));
FN(aclmdlRIDebugPrint, aclError (*)(aclmdlRI));
FN(aclmdlRIDebugJsonPrint, aclError (*)(aclmdlRI, const char *, uint32_t));
FN(aclmdlRICaptureThreadExchangeMode, aclError (*)(aclmdlRICaptureMode *));
FN(aclmdlRIExecuteAsync, aclError (*)(aclmdlRI, aclrtStream));
FN(aclmdlRIExecute, aclError (*)(aclmdlRI, int32_t));
FN(aclmdlRIDestroy, aclError (*)(aclmdlRI));
FN(aclmdlRICaptureTaskGrpBegin, aclError (*)(aclrtStream));
FN(aclmdlRICaptureTaskGrpEnd, aclError (*)(aclrtStream, aclrtTaskGrp *));
FN(aclmdlRICaptureTaskUpdateBegin, aclError (*)(aclrtStream, aclrtTaskGrp));
FN(aclmdlRICaptureTaskUpdateEnd, aclError (*)(aclrtStream));
FN(aclmdlRIBuildBegin, aclError (*)(aclmdlRI *, uint32_t));
FN(aclmdlRIBindStream, aclError (*)(aclmdlRI, aclrtStream, uint32_t));
FN(aclmdlRIEndTask, aclError (*)(aclmdlRI, aclrtStream));
FN(aclmdlRIBuildEnd, aclError (*)(aclmdlRI, void *));
FN(aclmdlRIUnbindStream, aclError (*)(aclmdlRI, aclrtStream));
FN(aclmdlRISetName, aclError (*)(aclmdlRI, const char *));
FN(aclmdlRIGetName, aclError (*)(aclmdlRI, uint32_t, char *));
FN(aclmdlRIGetId, aclError (*)(aclmdlRI, uint32_t *));
FN(aclmdlRIDestroyRegisterCallback, aclError (*)(aclmdlRI, aclrtCallback, void *));
FN(aclmdlRIDestroyUnregisterCallback, aclError (*)(aclmdlRI, aclrtCallback));
FN(aclmdlInitDump, aclError (*)(void));
FN(aclmdlSetDump, aclError (*)(const char *));
FN(aclmdlFinalizeDump, aclError (*)(void));
FN(aclmdlRIGetStreams, aclError (*)(aclmdlRI, aclrtStream *, uint32_t *));
FN(aclmdlRIGetTasksByStream, aclError (*)(aclrtStream, aclmdlRITask *, uint32_t *));
FN(aclmdlRITaskGetType, aclError (*)(aclmdlRITask, aclmdlRITaskType *));
FN(aclmdlRITaskGetSeqId, aclError (*)(aclmdlRITask, uint32_t *));
FN(aclrtGetVersion, aclError (*)(int32_t *, int32_t *, int32_t *));
FN(aclInitCallbackRegister, aclError (*)(aclRegisterCallbackType, aclInitCallbackFunc, void *));
FN(aclInitCallbackUnRegister, aclError (*)(aclRegisterCallbackType, aclInitCallbackFunc));
FN(aclFinalizeCallbackRegister, aclError (*)(aclRegisterCallbackType, aclFinalizeCallbackFunc, void *));
FN(aclFinalizeCallbackUnRegister, aclError (*)(aclRegisterCallbackType, aclFinalizeCallbackFunc));
FN(aclrtCheckMemType, aclError (*)(void **, uint32_t, uint32_t, uint32_t *, uint32_t));
FN(aclrtGetLogicDevIdByUserDevId, aclError (*)(const int32_t, int32_t *const));
FN(aclrtGetUserDevIdByLogicDevId, aclError (*)(const int32_t, int32_t *const));
FN(aclrtGetLogicDevIdByPhyDevId, aclError (*)(const int32_t, int32_t *const));
FN(aclrtGetPhyDevIdByLogicDevId, aclError (*)(const int32_t, int32_t *const));
FN(aclrtGetUserDevIdByPhyDevId, aclError (*)(const int32_t, int32_t *const));
FN(aclrtGetPhyDevIdByUserDevId, aclError (*)(const int32_t, int32_t *const));
FN(aclrtProfTrace, aclError (*)(void *, int32_t, aclrtStream));
FN(aclrtLaunchKernelV2,
   aclError (*)(aclrtFuncHandle, uint32_t, const void *, size_t, aclrtLaunchKernelCfg *, aclrtStream));
FN(aclrtLaunchKernelWithHostArgs,
   aclError (*)(aclrtFuncHandle, uint32_t, aclrtStream, aclrtLaunchKernelCfg *, void *, size_t, aclrtPlaceHolderInfo *,
      size_t));
FN(aclrtLaunchKernelWithArgsArray, aclError (*)(void *, uint32_t, aclrtStream, aclrtLaunchKernelCfg *, void **));
FN(aclrtLaunchSIMTKernelWithArgsArray,
   aclError (*)(void *, dim3, dim3, size_t, aclrtStream, aclrtLaunchKernelCfg *, void **));
FN(aclrtLaunchSIMTKernelWithHostArgs,
   aclError (*)(void *, dim3, dim3, size_t, aclrtStream, aclrtLaunchKernelCfg *, void *, size_t, aclrtPlaceHolderInfo *,
      size_t));
FN(aclrtCtxGetFloatOverflowAddr, aclError (*)(void **));
FN(aclrtGetFloatOverflowStatus, aclError (*)(void *, uint64_t, aclrtStream));
FN(aclrtResetFloatOverflowStatus, aclError (*)(aclrtStream));
FN(aclrtNpuGetFloatOverFlowStatus, aclError (*)(void *, uint64_t, uint32_t, aclrtStream));
FN(aclrtNpuClearFloatOverFlowStatus, aclError (*)(uint32_t, aclrtStream));
FN(aclrtLaunchHostFunc, aclError (*)(aclrtStream, aclrtHostFunc, void *));
FN(aclrtGetHardwareSyncAddr, aclError (*)(void **));
FN(aclrtRandomNumAsync, aclError (*)(const aclrtRandomNumTaskInfo *, const aclrtStream, void *));
FN(aclrtRegStreamStateCallback, aclError (*)(const char *, aclrtStreamStateCallback, void *));
FN(aclrtRegDeviceStateCallback, aclError (*)(const char *, aclrtDeviceStateCallback, void *));
FN(aclrtSetDeviceTaskAbortCallback, aclError (*)(const char *, aclrtDeviceTaskAbortCallback, void *));
FN(aclrtGetOpExecuteTimeout, aclError (*)(uint32_t *const));
FN(aclrtDevicePeerAccessStatus, aclError (*)(int32_t, int32_t, int32_t *));
FN(aclrtStreamStop, aclError (*)(aclrtStream));
FN(aclrtTaskUpdateAsync, aclError (*)(aclrtStream, uint32_t, aclrtTaskUpdateInfo *, aclrtStream));
FN(aclrtCmoGetDescSize, aclError (*)(size_t *));
FN(aclrtCmoSetDesc, aclError (*)(void *, void *, size_t));
FN(aclrtCmoAsyncWithDesc, aclError (*)(void *, aclrtCmoType, aclrtStream, const void *));
FN(aclrtCheckArchCompatibility, aclError (*)(const char *, int32_t *));
FN(aclmdlRIAbort, aclError (*)(aclmdlRI));
FN(aclmdlRICondHandleCreate, aclError (*)(aclmdlRI, uint32_t, aclmdlRICondHandleFlag, aclmdlRICondHandle *));
FN(aclmdlRICondHandleGetCondPtr, aclError (*)(aclmdlRICondHandle, uint64_t **));
FN(aclmdlRIAddCondTask, aclError (*)(aclmdlRICondTaskParams, aclrtStream, uint32_t));
FN(aclmdlRICaptureToModelRIBegin, aclError (*)(aclrtStream, aclmdlRI, aclmdlRICaptureMode));
FN(aclrtCntNotifyRecord, aclError (*)(aclrtCntNotify, aclrtStream, aclrtCntNotifyRecordInfo *));
FN(aclrtCntNotifyWaitWithTimeout, aclError (*)(aclrtCntNotify, aclrtStream, aclrtCntNotifyWaitInfo *));
FN(aclrtCntNotifyReset, aclError (*)(aclrtCntNotify, aclrtStream));
FN(aclrtCntNotifyGetId, aclError (*)(aclrtCntNotify, uint32_t *));
FN(aclrtPersistentTaskClean, aclError (*)(aclrtStream));
FN(aclrtGetErrorVerbose, aclError (*)(int32_t, aclrtErrorInfo *));
FN(aclrtRepairError, aclError (*)(int32_t, const aclrtErrorInfo *));
FN(aclrtMemSetAccess, aclError (*)(void *, size_t, aclrtMemAccessDesc *, size_t));
FN(aclrtMemGetAccess, aclError (*)(void *, aclrtMemLocation *, uint64_t *));
FN(aclrtSnapShotProcessLock, aclError (*)(int, void *));
FN(aclrtSnapShotProcessUnlock, aclError (*)(int, void *));
FN(aclrtSnapShotProcessBackup, aclError (*)(int, aclrtSnapShotBackupArgs *));
FN(aclrtSnapShotProcessRestore, aclError (*)(int, aclrtSnapShotRestoreArgs *));
FN(aclrtSnapShotCallbackRegister, aclError (*)(aclrtSnapShotStage, aclrtSnapShotCallBack, void *));
FN(aclrtSnapShotCallbackUnregister, aclError (*)(aclrtSnapShotStage, aclrtSnapShotCallBack));
FN(aclrtCacheLastTaskOpInfo, aclError (*)(const void *const, const size_t));
FN(aclrtCacheLastTaskExtendInfo, aclError (*)(const char *const, const size_t));
FN(aclrtGetFunctionAttribute, aclError (*)(aclrtFuncHandle, aclrtFuncAttribute, int64_t *));
FN(aclrtFunctionGetBinary, aclError (*)(const aclrtFuncHandle, aclrtBinHandle *));
FN(aclrtFunctionGetParamCount, aclError (*)(const void *, size_t *));
FN(aclrtFunctionGetParamInfo, aclError (*)(const void *, size_t, size_t *, size_t *));
FN(aclrtFunctionGetAvailDynUbufPerBlock, aclError (*)(void *, uint32_t, size_t *));
FN(aclrtIpcGetEventHandle, aclError (*)(aclrtEvent, aclrtIpcEventHandle *));
FN(aclrtIpcOpenEventHandle, aclError (*)(aclrtIpcEventHandle, aclrtEvent *));
FN(aclrtMemRetainAllocationHandle, aclError (*)(void *, aclrtDrvMemHandle *));
FN(aclrtMemGetAllocationPropertiesFromHandle, aclError (*)(aclrtDrvMemHandle, aclrtPhysicalMemProp *));
FN(aclrtReserveMemAddressNoUCMemory, aclError (*)(void **, size_t, size_t, void *, uint64_t));
FN(aclrtMemGetAddressRange, aclError (*)(void *, void **, size_t *));
FN(aclrtMemP2PMap, aclError (*)(void *, size_t, int32_t, uint64_t));
FN(aclrtMemManagedPrefetchAsync, aclError (*)(const void *, size_t, aclrtMemManagedLocation, uint32_t, aclrtStream));
FN(aclrtMemManagedPrefetchBatchAsync,
   aclError (*)(const void **, size_t *, size_t, aclrtMemManagedLocation *, size_t *, size_t, uint64_t, aclrtStream));
FN(aclrtMemMapSelectedLink, aclError (*)(void *, size_t, void *, uint32_t));
FN(aclrtDeviceL2CacheFlush, aclError (*)(void *));
FN(aclrtMemMapSetLink, aclError (*)(aclrtDrvMemHandle, aclrtMemLinkType));
FN(aclrtAllocatorCreateDesc, aclrtAllocatorDesc (*)(void));
FN(aclrtAllocatorDestroyDesc, aclError (*)(aclrtAllocatorDesc));
FN(aclrtAllocatorSetObjToDesc, aclError (*)(aclrtAllocatorDesc, aclrtAllocator));
FN(aclrtAllocatorSetAllocFuncToDesc, aclError (*)(aclrtAllocatorDesc, aclrtAllocatorAllocFunc));
FN(aclrtAllocatorSetFreeFuncToDesc, aclError (*)(aclrtAllocatorDesc, aclrtAllocatorFreeFunc));
FN(aclrtAllocatorSetAllocAdviseFuncToDesc, aclError (*)(aclrtAllocatorDesc, aclrtAllocatorAllocAdviseFunc));
FN(aclrtAllocatorSetGetAddrFromBlockFuncToDesc, aclError (*)(aclrtAllocatorDesc, aclrtAllocatorGetAddrFromBlockFunc));
FN(aclrtAllocatorRegister, aclError (*)(aclrtStream, aclrtAllocatorDesc));
FN(aclrtAllocatorGetByStream,
   aclError (*)(aclrtStream, aclrtAllocatorDesc *, aclrtAllocator *, aclrtAllocatorAllocFunc *,
      aclrtAllocatorFreeFunc *, aclrtAllocatorAllocAdviseFunc *, aclrtAllocatorGetAddrFromBlockFunc *));
FN(aclrtAllocatorUnregister, aclError (*)(aclrtStream));

int main(void)
{
    return 0;
}

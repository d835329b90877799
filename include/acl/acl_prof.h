/*
 * openacl: profiling (acl/acl_prof.h).
 *
 * Session profiling (init, start/stop with a config, finalize), per-model
 * subscription with a parser for the operator records written to the
 * subscriber's pipe, step timestamps, and application markers and ranges
 * (msprof-tx style stamps). Functions are marked MSVP_PROF_API, which always
 * means default visibility.
 */
#ifndef INC_EXTERNAL_ACL_PROF_H_
#define INC_EXTERNAL_ACL_PROF_H_

#if defined(_WIN32) || defined(_WIN64) || defined(_MSC_VER)
#  define MSVP_PROF_API __declspec(dllexport)
#else
#  define MSVP_PROF_API __attribute__((visibility("default")))
#endif

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* dataTypeConfig bits of aclprofCreateConfig: what to collect. */
#define ACL_PROF_ACL_API 0x0001ULL
#define ACL_PROF_TASK_TIME 0x0002ULL
#define ACL_PROF_AICORE_METRICS 0x0004ULL
#define ACL_PROF_AICPU 0x0008ULL
#define ACL_PROF_L2CACHE 0x0010ULL
#define ACL_PROF_HCCL_TRACE 0x0020ULL
#define ACL_PROF_TRAINING_TRACE 0x0040ULL
#define ACL_PROF_MSPROFTX 0x0080ULL
#define ACL_PROF_RUNTIME_API 0x0100ULL
#define ACL_PROF_GE_API_L0 0x0200ULL
#define ACL_PROF_TASK_TIME_L0 0x0800ULL
#define ACL_PROF_TASK_MEMORY 0x1000ULL
#define ACL_PROF_GE_API_L1 0x01000000ULL
#define ACL_PROF_TASK_TIME_L2 0x2000ULL
#define ACL_PROF_OP_ATTR 0x4000ULL
#define ACL_PROF_TASK_TIME_L3 0x8000ULL
#define ACL_PROF_API_STATS 0x400000000ULL
#define ACL_PROF_AICORE_SHAPE 0x800000000ULL

/* Longest operator name / type in subscription records, NUL included. */
#define ACL_PROF_MAX_OP_NAME_LEN 257
#define ACL_PROF_MAX_OP_TYPE_LEN 65

/* May be predefined by another profiling header that shares aclprofTensor. */
#ifndef ACL_PROF_TENSOR_DATA_SHAPE_LEN
#define ACL_PROF_TENSOR_DATA_SHAPE_LEN 8
#endif

typedef enum {
    ACL_AICORE_ARITHMETIC_UTILIZATION = 0,
    ACL_AICORE_PIPE_UTILIZATION = 1,
    ACL_AICORE_MEMORY_BANDWIDTH = 2,
    ACL_AICORE_L0B_AND_WIDTH = 3,
    ACL_AICORE_RESOURCE_CONFLICT_RATIO = 4,
    ACL_AICORE_MEMORY_UB = 5,
    ACL_AICORE_L2_CACHE = 6,
    ACL_AICORE_PIPE_EXECUTE_UTILIZATION = 7,
    ACL_AICORE_MEMORY_ACCESS = 8,
    ACL_AICORE_NONE = 0xFF
} aclprofAicoreMetrics;

typedef enum {
    ACL_STEP_START = 0,
    ACL_STEP_END = 1
} aclprofStepTag;

typedef enum {
    ACL_SUBSCRIBE_OP = 0,
    ACL_SUBSCRIBE_SUBGRAPH = 1,
    ACL_SUBSCRIBE_OP_THREAD = 2,
    ACL_SUBSCRIBE_NONE = 0xFF
} aclprofSubscribeOpFlag;

typedef enum {
    ACL_SUBSCRIBE_ATTRI_THREADID = 0,
    ACL_SUBSCRIBE_ATTRI_NONE = 1
} aclprofSubscribeOpAttri;

/* Keys of aclprofSetConfig (2 is unassigned). */
typedef enum {
    ACL_PROF_ARGS_MIN = 0,
    ACL_PROF_STORAGE_LIMIT = 1,
    ACL_PROF_SYS_HARDWARE_MEM_FREQ = 3,
    ACL_PROF_LLC_MODE = 4,
    ACL_PROF_SYS_IO_FREQ = 5,
    ACL_PROF_SYS_INTERCONNECTION_FREQ = 6,
    ACL_PROF_DVPP_FREQ = 7,
    ACL_PROF_HOST_SYS = 8,
    ACL_PROF_HOST_SYS_USAGE = 9,
    ACL_PROF_HOST_SYS_USAGE_FREQ = 10,
    ACL_PROF_LOW_POWER_FREQ = 11,
    ACL_PROF_SYS_MEM_SERVICEFLOW = 12,
    ACL_PROF_SYS_CPU_FREQ = 13,
    ACL_PROF_OPTYPE = 14,
    ACL_PROF_NTS_METRICS = 15,
    ACL_PROF_PATH = 16,
    ACL_PROF_ARGS_MAX = 17
} aclprofConfigType;

typedef enum {
    ACL_PROF_MESSAGE_TYPE_TENSOR_INFO = 0
} aclprofMessageType;

typedef struct aclprofConfig aclprofConfig;
typedef struct aclprofStopConfig aclprofStopConfig;
typedef struct aclprofAicoreEvents aclprofAicoreEvents;
typedef struct aclprofSubscribeConfig aclprofSubscribeConfig;
typedef struct aclprofStepInfo aclprofStepInfo;

/* Shared with other profiling headers: defined once, whichever comes first. */
#ifndef ACL_PROF_TENSOR_INFO_DEFINED
#define ACL_PROF_TENSOR_INFO_DEFINED

#define ACL_PROF_EVENT_ATTR_VERSION 1

typedef struct aclprofTensor {
    uint32_t type;
    uint32_t format;
    uint32_t dataType;
    uint32_t shapeDim;
    uint32_t shape[ACL_PROF_TENSOR_DATA_SHAPE_LEN];
} aclprofTensor;

typedef struct aclprofTensorInfo {
    uint64_t opNameId; /* ids from aclprofStr2Id */
    uint64_t opTypeId;
    uint32_t resv;
    uint32_t tensorNum;
    uint32_t kernelType;
    uint32_t blockNums;
    void *stream;
    aclprofTensor *tensors; /* tensorNum entries */
} aclprofTensorInfo;

/* Argument of aclprofRangePushEx; version = ACL_PROF_EVENT_ATTR_VERSION, size = sizeof. */
typedef struct aclprofEventAttributes {
    uint16_t version;
    uint16_t size;
    uint32_t messageType; /* aclprofMessageType */
    union Message {
        aclprofTensorInfo *tensorInfo;
    } message;
} aclprofEventAttributes;

#endif /* ACL_PROF_TENSOR_INFO_DEFINED */

/* ---- session ---- */

/* Starts a profiling session writing under profilerResultPath (length bytes). */
MSVP_PROF_API aclError aclprofInit(const char *profilerResultPath, size_t length);

MSVP_PROF_API aclError aclprofFinalize(void);

MSVP_PROF_API aclError aclprofStart(const aclprofConfig *profilerConfig);

/*
 * Config for devices deviceIdList[0..deviceNums) collecting the
 * ACL_PROF_* bits of dataTypeConfig; aicoreEvents must be NULL. NULL on
 * failure. Free with aclprofDestroyConfig.
 */
MSVP_PROF_API aclprofConfig *aclprofCreateConfig(uint32_t *deviceIdList, uint32_t deviceNums,
                                                 aclprofAicoreMetrics aicoreMetrics,
                                                 const aclprofAicoreEvents *aicoreEvents, uint64_t dataTypeConfig);

MSVP_PROF_API aclError aclprofDestroyConfig(const aclprofConfig *profilerConfig);

/* Stops what aclprofStart started with the same config. */
MSVP_PROF_API aclError aclprofStop(const aclprofConfig *profilerConfig);

/* Sets one aclprofConfigType option from config[0..configLength). */
MSVP_PROF_API aclError aclprofSetConfig(aclprofConfigType configType, const char *config, size_t configLength);

/* ---- model subscription ---- */

MSVP_PROF_API aclError aclprofModelSubscribe(uint32_t modelId, const aclprofSubscribeConfig *profSubscribeConfig);

MSVP_PROF_API aclError aclprofModelUnSubscribe(uint32_t modelId);

/* fd points to the write end of a pipe that receives the operator records. */
MSVP_PROF_API aclprofSubscribeConfig *aclprofCreateSubscribeConfig(int8_t timeInfoSwitch,
                                                                   aclprofAicoreMetrics aicoreMetrics, void *fd);

MSVP_PROF_API aclError aclprofDestroySubscribeConfig(const aclprofSubscribeConfig *profSubscribeConfig);

/* Out: size of one operator record in the subscription data. */
MSVP_PROF_API aclError aclprofGetOpDescSize(size_t *opDescSize);

/* Parsers for subscription data opInfo[0..opInfoLen); index selects a record. */
MSVP_PROF_API aclError aclprofGetOpNum(const void *opInfo, size_t opInfoLen, uint32_t *opNumber);

MSVP_PROF_API aclError aclprofGetOpTypeLen(const void *opInfo, size_t opInfoLen, uint32_t index, size_t *opTypeLen);

MSVP_PROF_API aclError aclprofGetOpType(const void *opInfo, size_t opInfoLen, uint32_t index, char *opType,
                                        size_t opTypeLen);

MSVP_PROF_API aclError aclprofGetOpNameLen(const void *opInfo, size_t opInfoLen, uint32_t index, size_t *opNameLen);

MSVP_PROF_API aclError aclprofGetOpName(const void *opInfo, size_t opInfoLen, uint32_t index, char *opName,
                                        size_t opNameLen);

/* Times in microseconds; 0 on failure. */
MSVP_PROF_API uint64_t aclprofGetOpStart(const void *opInfo, size_t opInfoLen, uint32_t index);

MSVP_PROF_API uint64_t aclprofGetOpEnd(const void *opInfo, size_t opInfoLen, uint32_t index);

MSVP_PROF_API uint64_t aclprofGetOpDuration(const void *opInfo, size_t opInfoLen, uint32_t index);

/* Model id of the record; 0 on failure. */
MSVP_PROF_API size_t aclprofGetModelId(const void *opInfo, size_t opInfoLen, uint32_t index);

/* ACL_SUBSCRIBE_NONE on failure. */
MSVP_PROF_API aclprofSubscribeOpFlag aclprofGetOpFlag(const void *opInfo, size_t opInfoLen, uint32_t index);

/* Attribute value string; NULL on failure. */
MSVP_PROF_API const char *aclprofGetOpAttriValue(const void *opInfo, size_t opInfoLen, uint32_t index,
                                                 aclprofSubscribeOpAttri attri);

/* ---- steps, stamps and ranges ---- */

/* Records the start or end of a training/inference step on stream. */
MSVP_PROF_API aclError aclprofGetStepTimestamp(aclprofStepInfo *stepInfo, aclprofStepTag tag, aclrtStream stream);

MSVP_PROF_API aclprofStepInfo *aclprofCreateStepInfo(void);

MSVP_PROF_API void aclprofDestroyStepInfo(aclprofStepInfo *stepinfo);

/* Opaque stamp carrying an optional message; free with aclprofDestroyStamp. */
MSVP_PROF_API void *aclprofCreateStamp(void);

MSVP_PROF_API void aclprofDestroyStamp(void *stamp);

/* Nested ranges: aclprofPop closes the latest aclprofPush. */
MSVP_PROF_API aclError aclprofPush(void *stamp);

MSVP_PROF_API aclError aclprofPop(void);

/* Out: *rangeId to pass to aclprofRangeStop. */
MSVP_PROF_API aclError aclprofRangeStart(void *stamp, uint32_t *rangeId);

MSVP_PROF_API aclError aclprofRangeStop(uint32_t rangeId);

/* Copies msg[0..msgLen) into the stamp. */
MSVP_PROF_API aclError aclprofSetStampTraceMessage(void *stamp, const char *msg, uint32_t msgLen);

/* Instant marker. */
MSVP_PROF_API aclError aclprofMark(void *stamp);

/* Instant marker with message msg[0..msgLen) (no NUL counted) ordered on stream. */
MSVP_PROF_API aclError aclprofMarkEx(const char *msg, size_t msgLen, aclrtStream stream);

/* Id of a string, as used in aclprofTensorInfo.opNameId / opTypeId. */
MSVP_PROF_API uint64_t aclprofStr2Id(const char *message);

MSVP_PROF_API aclError aclprofRangePushEx(aclprofEventAttributes *attr);

/* Ends the latest range opened by aclprofRangePushEx. */
MSVP_PROF_API aclError aclprofRangePop(void);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_PROF_H_ */

/*
 * openacl: data dump and exception dump (acl/acl_dump.h).
 *
 * Streaming dump data to a callback instead of files, dumping operator
 * arguments, the dump directories in use, and saving tensors of a failed
 * task. Functions marked ACL_DUMP_API always have default visibility;
 * ACL_DUMP_WEAK declarations are weak so that programs still link against
 * libraries that lack them (the address is then NULL).
 */
#ifndef INC_EXTERNAL_ACL_DUMP_H_
#define INC_EXTERNAL_ACL_DUMP_H_

#include <stdint.h>
#include "acl_base.h"

#if defined(_WIN32) || defined(_WIN64) || defined(_MSC_VER)
#  define ACL_DUMP_API __declspec(dllexport)
#  define ACL_DUMP_WEAK
#else
#  define ACL_DUMP_API __attribute__((visibility("default")))
#  define ACL_DUMP_WEAK __attribute__((weak))
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_DUMP_MAX_FILE_PATH_LENGTH 4096

/*
 * One piece of a dump file handed to the registered callback: bufLen bytes
 * in dataBuf belong at offset of fileName (absolute path; offset -1 means
 * append). isLastChunk is 1 on the final piece; flag is reserved.
 */
typedef struct acldumpChunk {
    char fileName[ACL_DUMP_MAX_FILE_PATH_LENGTH];
    uint32_t bufLen;
    uint32_t isLastChunk;
    int64_t offset;
    int32_t flag;
    uint8_t dataBuf[]; /* bufLen bytes follow the header */
} acldumpChunk;

/*
 * Routes dump output to messageCallback instead of files; the chunk is only
 * valid during the call. flag is reserved.
 */
ACL_DUMP_API aclError acldumpRegCallback(int32_t (*const messageCallback)(const acldumpChunk *chunk, int32_t len),
                                         int32_t flag);

/* Drops the callback; dump output goes to files again. */
ACL_DUMP_API void acldumpUnregCallback(void);

/* dumpType bit for aclopStartDumpArgs: AI Core operator arguments. */
#define ACL_OP_DUMP_OP_AICORE_ARGS 0x00000001U

/* Starts dumping operator arguments of the kinds in dumpType under path. */
ACL_FUNC_VISIBILITY aclError aclopStartDumpArgs(uint32_t dumpType, const char *path);

ACL_FUNC_VISIBILITY aclError aclopStopDumpArgs(uint32_t dumpType);

typedef enum acldumpType {
    AIC_ERR_BRIEF_DUMP = 1,
    AIC_ERR_NORM_DUMP = 2,
    AIC_ERR_DETAIL_DUMP = 3,
    DATA_DUMP = 4,
    OVERFLOW_DUMP = 5
} acldumpType;

/* Directory the given dump kind writes to (static string); NULL when not configured. */
ACL_FUNC_VISIBILITY const char *acldumpGetPath(acldumpType dumpType);

#define ACL_DUMP_MAX_SHAPE_NUM 25

typedef enum acldumpTensorType {
    ACL_DUMP_TENSOR_INPUT = 0,
    ACL_DUMP_TENSOR_OUTPUT = 1,
    ACL_DUMP_TENSOR_WORKSPACE = 2
} acldumpTensorType;

/* How tensorAddr is to be read: the data itself, a pointer to it, or raw bytes. */
typedef enum acldumpTensorAddressType {
    ACL_DUMP_ADDR_PTR = 0,
    ACL_DUMP_ADDR_PTR_PTR = 1,
    ACL_DUMP_ADDR_RAW = 2
} acldumpTensorAddressType;

typedef enum acldumpTensorPlacement {
    ACL_DUMP_PLACEMENT_DEVICE = 0,
    ACL_DUMP_PLACEMENT_HOST = 1,
    ACL_DUMP_PLACEMENT_END = 2
} acldumpTensorPlacement;

/* One tensor to save with acldumpSaveExceptionInfo. */
typedef struct acldumpTensorInfo {
    acldumpTensorType type;
    size_t tensorSize;
    int32_t format;
    int32_t dataType;
    int64_t *tensorAddr;
    acldumpTensorAddressType addrType;
    acldumpTensorPlacement placement;
    uint32_t argsOffset;
    uint32_t shapeNum;
    uint32_t originShapeNum;
    uint64_t shape[ACL_DUMP_MAX_SHAPE_NUM];
    uint64_t originShape[ACL_DUMP_MAX_SHAPE_NUM];
} acldumpTensorInfo;

/* Writes tensors[0..tensorCount) to an exception dump file named fileName, tagged userTag. */
ACL_FUNC_VISIBILITY ACL_DUMP_WEAK aclError acldumpSaveExceptionInfo(const char *fileName, const char *userTag,
                                                                    const acldumpTensorInfo *tensors,
                                                                    size_t tensorCount);

/* Out: path[0..maxLen) = NUL-terminated exception dump directory. */
ACL_FUNC_VISIBILITY ACL_DUMP_WEAK aclError acldumpGetExceptionInfoPath(char *path, size_t maxLen);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_DUMP_H_ */

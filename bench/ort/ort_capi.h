/*
 * Minimal declarations for calling ONNX Runtime's C API through dlopen.
 *
 * Written for openacl's benchmark/oracle code; ONNX Runtime's own header is
 * not used (the npm package ships the library without it). Only the facts we
 * need are declared here: the entry point OrtGetApiBase, the two-member
 * OrtApiBase, and the OrtApi function table viewed as an array of function
 * pointers, addressed by slot index. The table is append-only, so a slot
 * never moves once an API version has shipped; see bench/ort/README.md for
 * how the indices below were established and cross-checked.
 *
 * Only the functions that oa_ort calls get a slot constant and a typedef.
 */
#ifndef OA_BENCH_ORT_CAPI_H
#define OA_BENCH_ORT_CAPI_H

#include <stddef.h>
#include <stdint.h>

/* Opaque ONNX Runtime objects (only ever handled through pointers). */
typedef struct OrtStatus OrtStatus;
typedef struct OrtEnv OrtEnv;
typedef struct OrtSession OrtSession;
typedef struct OrtSessionOptions OrtSessionOptions;
typedef struct OrtRunOptions OrtRunOptions;
typedef struct OrtValue OrtValue;
typedef struct OrtMemoryInfo OrtMemoryInfo;
typedef struct OrtTypeInfo OrtTypeInfo;
typedef struct OrtTensorTypeAndShapeInfo OrtTensorTypeAndShapeInfo;
typedef struct OrtAllocator OrtAllocator;

/* One entry of the OrtApi table. void(*)(void) is C's generic function
 * pointer type: every entry is converted back to its real type (the
 * ort_<Name>_fn typedefs below) before it is called. */
typedef void (*ort_slot_fn)(void);

/* What OrtGetApiBase() returns: exactly two members, never extended. */
typedef struct OrtApiBase {
  const ort_slot_fn *(*GetApi)(uint32_t version); /* NULL if unsupported */
  const char *(*GetVersionString)(void);
} OrtApiBase;

/* The exported entry point of libonnxruntime (looked up with dlsym). */
typedef const OrtApiBase *(*ort_GetApiBase_fn)(void);
#define ORT_ENTRY_SYMBOL "OrtGetApiBase"

/* API version we ask GetApi for: the oldest one that contains every slot
 * used below (AddSessionConfigEntry, slot 130, arrived in version 5; version
 * 5 ends at slot 149). Any newer runtime serves it. */
#define ORT_REQUESTED_API_VERSION 5u

/* Scalar parameter values (plain ints on the ABI). */
enum {
  ORT_LOG_VERBOSE = 0,
  ORT_LOG_INFO = 1,
  ORT_LOG_WARNING = 2,
  ORT_LOG_ERROR = 3,
  ORT_LOG_FATAL = 4
};
enum { ORT_CODE_OK = 0, ORT_CODE_FAIL = 1, ORT_CODE_INVALID_ARGUMENT = 2 };
enum { ORT_ALLOCATOR_DEVICE = 0, ORT_ALLOCATOR_ARENA = 1 };
enum { ORT_MEMTYPE_DEFAULT = 0 };
enum { ORT_EXECUTION_SEQUENTIAL = 0, ORT_EXECUTION_PARALLEL = 1 };
enum { ORT_VALUE_TYPE_UNKNOWN = 0, ORT_VALUE_TYPE_TENSOR = 1 };
/* Graph optimisation levels: 0 none, 1 basic, 2 extended, 99 all. */
enum { ORT_OPT_DISABLE_ALL = 0, ORT_OPT_BASIC = 1, ORT_OPT_EXTENDED = 2, ORT_OPT_ALL = 99 };
/* Tensor element types use ONNX TensorProto numbering (oa_ort_dtype). */

/* Slot indices in the OrtApi table (0-based, in declaration order). */
enum {
  ORT_SLOT_CreateStatus = 0,
  ORT_SLOT_GetErrorCode = 1,
  ORT_SLOT_GetErrorMessage = 2,
  ORT_SLOT_CreateEnv = 3,
  ORT_SLOT_CreateSession = 7,
  ORT_SLOT_Run = 9,
  ORT_SLOT_CreateSessionOptions = 10,
  ORT_SLOT_SetSessionExecutionMode = 13,
  ORT_SLOT_EnableProfiling = 14,
  ORT_SLOT_SetSessionGraphOptimizationLevel = 23,
  ORT_SLOT_SetIntraOpNumThreads = 24,
  ORT_SLOT_SetInterOpNumThreads = 25,
  ORT_SLOT_SessionGetInputCount = 30,
  ORT_SLOT_SessionGetOutputCount = 31,
  ORT_SLOT_SessionGetInputTypeInfo = 33,
  ORT_SLOT_SessionGetOutputTypeInfo = 34,
  ORT_SLOT_SessionGetInputName = 36,
  ORT_SLOT_SessionGetOutputName = 37,
  ORT_SLOT_CreateTensorWithDataAsOrtValue = 49,
  ORT_SLOT_GetTensorMutableData = 51,
  ORT_SLOT_CastTypeInfoToTensorInfo = 55,
  ORT_SLOT_GetOnnxTypeFromTypeInfo = 56,
  ORT_SLOT_GetTensorElementType = 60,
  ORT_SLOT_GetDimensionsCount = 61,
  ORT_SLOT_GetDimensions = 62,
  ORT_SLOT_GetTensorShapeElementCount = 64,
  ORT_SLOT_GetTensorTypeAndShape = 65,
  ORT_SLOT_CreateCpuMemoryInfo = 69,
  ORT_SLOT_AllocatorFree = 76,
  ORT_SLOT_GetAllocatorWithDefaultOptions = 78,
  ORT_SLOT_ReleaseEnv = 92,
  ORT_SLOT_ReleaseStatus = 93,
  ORT_SLOT_ReleaseMemoryInfo = 94,
  ORT_SLOT_ReleaseSession = 95,
  ORT_SLOT_ReleaseValue = 96,
  ORT_SLOT_ReleaseTypeInfo = 98,
  ORT_SLOT_ReleaseTensorTypeAndShapeInfo = 99,
  ORT_SLOT_ReleaseSessionOptions = 100,
  ORT_SLOT_AddSessionConfigEntry = 130,
  /* Landmarks from ONNX Runtime's own compile-time checks (the last slot of
   * API versions 1..5); used only by the consistency test. */
  ORT_SLOT_LAST_OF_V1 = 101, /* ReleaseCustomOpDomain */
  ORT_SLOT_LAST_OF_V2 = 118, /* ReleaseModelMetadata */
  ORT_SLOT_LAST_OF_V3 = 124, /* AddFreeDimensionOverrideByName */
  ORT_SLOT_LAST_OF_V4 = 126, /* ReleaseAvailableProviders */
  ORT_SLOT_LAST_OF_V5 = 149  /* SetGlobalSpinControl */
};

/* Function types of the slots above. A NULL OrtStatus* means success; a
 * non-NULL one carries the error and must be released with ReleaseStatus. */
typedef OrtStatus *(*ort_CreateStatus_fn)(int code, const char *msg);
typedef int (*ort_GetErrorCode_fn)(const OrtStatus *status);
typedef const char *(*ort_GetErrorMessage_fn)(const OrtStatus *status);
typedef OrtStatus *(*ort_CreateEnv_fn)(int log_level, const char *log_id, OrtEnv **out);
typedef OrtStatus *(*ort_CreateSession_fn)(const OrtEnv *env, const char *model_path,
                                           const OrtSessionOptions *options, OrtSession **out);
typedef OrtStatus *(*ort_Run_fn)(OrtSession *session, const OrtRunOptions *run_options,
                                 const char *const *input_names, const OrtValue *const *inputs,
                                 size_t input_count, const char *const *output_names,
                                 size_t output_count, OrtValue **outputs);
typedef OrtStatus *(*ort_CreateSessionOptions_fn)(OrtSessionOptions **out);
typedef OrtStatus *(*ort_SetSessionExecutionMode_fn)(OrtSessionOptions *options, int mode);
/* The profile (Chrome trace JSON) is written to <prefix>_<date>_<time>.json when the session is released. */
typedef OrtStatus *(*ort_EnableProfiling_fn)(OrtSessionOptions *options, const char *profile_file_prefix);
typedef OrtStatus *(*ort_SetSessionGraphOptimizationLevel_fn)(OrtSessionOptions *options, int level);
typedef OrtStatus *(*ort_SetIntraOpNumThreads_fn)(OrtSessionOptions *options, int threads);
typedef OrtStatus *(*ort_SetInterOpNumThreads_fn)(OrtSessionOptions *options, int threads);
typedef OrtStatus *(*ort_SessionGetCount_fn)(const OrtSession *session, size_t *out);
typedef OrtStatus *(*ort_SessionGetTypeInfo_fn)(const OrtSession *session, size_t index,
                                                OrtTypeInfo **out);
typedef OrtStatus *(*ort_SessionGetName_fn)(const OrtSession *session, size_t index,
                                            OrtAllocator *allocator, char **out);
typedef OrtStatus *(*ort_CreateTensorWithDataAsOrtValue_fn)(const OrtMemoryInfo *info, void *data,
                                                            size_t data_bytes, const int64_t *shape,
                                                            size_t rank, int elem_type,
                                                            OrtValue **out);
typedef OrtStatus *(*ort_GetTensorMutableData_fn)(OrtValue *value, void **out);
typedef OrtStatus *(*ort_CastTypeInfoToTensorInfo_fn)(const OrtTypeInfo *type_info,
                                                      const OrtTensorTypeAndShapeInfo **out);
typedef OrtStatus *(*ort_GetOnnxTypeFromTypeInfo_fn)(const OrtTypeInfo *type_info, int *out);
typedef OrtStatus *(*ort_GetTensorElementType_fn)(const OrtTensorTypeAndShapeInfo *info, int *out);
typedef OrtStatus *(*ort_GetDimensionsCount_fn)(const OrtTensorTypeAndShapeInfo *info, size_t *out);
typedef OrtStatus *(*ort_GetDimensions_fn)(const OrtTensorTypeAndShapeInfo *info, int64_t *dims,
                                           size_t dims_len);
typedef OrtStatus *(*ort_GetTensorShapeElementCount_fn)(const OrtTensorTypeAndShapeInfo *info,
                                                        size_t *out);
typedef OrtStatus *(*ort_GetTensorTypeAndShape_fn)(const OrtValue *value,
                                                   OrtTensorTypeAndShapeInfo **out);
typedef OrtStatus *(*ort_CreateCpuMemoryInfo_fn)(int allocator_type, int mem_type,
                                                 OrtMemoryInfo **out);
typedef OrtStatus *(*ort_AllocatorFree_fn)(OrtAllocator *allocator, void *p);
typedef OrtStatus *(*ort_GetAllocatorWithDefaultOptions_fn)(OrtAllocator **out);
typedef void (*ort_ReleaseEnv_fn)(OrtEnv *p);
typedef void (*ort_ReleaseStatus_fn)(OrtStatus *p);
typedef void (*ort_ReleaseMemoryInfo_fn)(OrtMemoryInfo *p);
typedef void (*ort_ReleaseSession_fn)(OrtSession *p);
typedef void (*ort_ReleaseValue_fn)(OrtValue *p);
typedef void (*ort_ReleaseTypeInfo_fn)(OrtTypeInfo *p);
typedef void (*ort_ReleaseTensorTypeAndShapeInfo_fn)(OrtTensorTypeAndShapeInfo *p);
typedef void (*ort_ReleaseSessionOptions_fn)(OrtSessionOptions *p);
typedef OrtStatus *(*ort_AddSessionConfigEntry_fn)(OrtSessionOptions *options, const char *key,
                                                   const char *value);

/* Same-signature slots share one function type. */
typedef ort_SessionGetCount_fn ort_SessionGetInputCount_fn;
typedef ort_SessionGetCount_fn ort_SessionGetOutputCount_fn;
typedef ort_SessionGetTypeInfo_fn ort_SessionGetInputTypeInfo_fn;
typedef ort_SessionGetTypeInfo_fn ort_SessionGetOutputTypeInfo_fn;
typedef ort_SessionGetName_fn ort_SessionGetInputName_fn;
typedef ort_SessionGetName_fn ort_SessionGetOutputName_fn;

/* ORT_FN(table, Name): the slot of Name in table, as its real function type. */
#define ORT_FN(table, Name) ((ort_##Name##_fn)(table)[ORT_SLOT_##Name])

/* Session configuration keys (string facts). */
#define ORT_CFG_INTRA_OP_ALLOW_SPINNING "session.intra_op.allow_spinning"
#define ORT_CFG_INTER_OP_ALLOW_SPINNING "session.inter_op.allow_spinning"

#endif /* OA_BENCH_ORT_CAPI_H */

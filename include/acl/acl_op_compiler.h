/*
 * openacl: single-operator compilation (acl/acl_op_compiler.h).
 *
 * Compiling an operator signature into the operator cache (optionally
 * executing it right away), global compile options, and dumping the graph
 * built for one operator.
 */
#ifndef INC_EXTERNAL_ACL_ACL_OP_COMPILER_H_
#define INC_EXTERNAL_ACL_ACL_OP_COMPILER_H_

#include "acl_base.h"
#include "acl_op.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum aclCompileType {
    ACL_COMPILE_SYS = 0,
    ACL_COMPILE_UNREGISTERED = 1
} aclopCompileType;

/* Global options for aclSetCompileopt / aclGetCompileopt (string values). */
typedef enum {
    ACL_PRECISION_MODE = 0,
    ACL_AICORE_NUM = 1,
    ACL_AUTO_TUNE_MODE = 2,
    ACL_OP_SELECT_IMPL_MODE = 3,
    ACL_OPTYPELIST_FOR_IMPLMODE = 4,
    ACL_OP_DEBUG_LEVEL = 5,
    ACL_DEBUG_DIR = 6,
    ACL_OP_COMPILER_CACHE_MODE = 7,
    ACL_OP_COMPILER_CACHE_DIR = 8,
    ACL_OP_PERFORMANCE_MODE = 9,
    ACL_OP_JIT_COMPILE = 10,
    ACL_OP_DETERMINISTIC = 11,
    ACL_CUSTOMIZE_DTYPES = 12,
    ACL_OP_PRECISION_MODE = 13,
    ACL_ALLOW_HF32 = 14,
    ACL_PRECISION_MODE_V2 = 15,
    ACL_OP_DEBUG_OPTION = 16
} aclCompileOpt;

typedef enum aclCompileFlag {
    ACL_OP_COMPILE_DEFAULT = 0,
    ACL_OP_COMPILE_FUZZ = 1
} aclOpCompileFlag;

typedef struct aclGraphDumpOption aclGraphDumpOption;

/* Compiles the operator signature into the cache without running it; opPath may be NULL. */
ACL_FUNC_VISIBILITY aclError aclopCompile(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                                          int numOutputs, const aclTensorDesc *const outputDesc[],
                                          const aclopAttr *attr, aclopEngineType engineType,
                                          aclopCompileType compileFlag, const char *opPath);

/* Compiles when needed, then runs on stream. */
ACL_FUNC_VISIBILITY aclError aclopCompileAndExecute(const char *opType, int numInputs,
                                                    const aclTensorDesc *const inputDesc[],
                                                    const aclDataBuffer *const inputs[], int numOutputs,
                                                    const aclTensorDesc *const outputDesc[],
                                                    aclDataBuffer *const outputs[], const aclopAttr *attr,
                                                    aclopEngineType engineType, aclopCompileType compileFlag,
                                                    const char *opPath, aclrtStream stream);

/* As aclopCompileAndExecute; outputDesc shapes may be updated. */
ACL_FUNC_VISIBILITY aclError aclopCompileAndExecuteV2(const char *opType, int numInputs, aclTensorDesc *inputDesc[],
                                                      aclDataBuffer *inputs[], int numOutputs,
                                                      aclTensorDesc *outputDesc[], aclDataBuffer *outputs[],
                                                      aclopAttr *attr, aclopEngineType engineType,
                                                      aclopCompileType compileFlag, const char *opPath,
                                                      aclrtStream stream);

/* Sets a global compile option (value copied). */
ACL_FUNC_VISIBILITY aclError aclSetCompileopt(aclCompileOpt opt, const char *value);

/* Buffer size needed to read the value of option opt. */
ACL_FUNC_VISIBILITY size_t aclGetCompileoptSize(aclCompileOpt opt);

/* Out: value[0..length) = NUL-terminated value of option opt. */
ACL_FUNC_VISIBILITY aclError aclGetCompileopt(aclCompileOpt opt, char *value, size_t length);

ACL_FUNC_VISIBILITY aclError aclopSetCompileFlag(aclOpCompileFlag flag);

/* Builds the graph of one operator and dumps it under graphDumpPath; nothing is run. */
ACL_FUNC_VISIBILITY aclError aclGenGraphAndDumpForOp(const char *opType, int numInputs,
                                                     const aclTensorDesc *const inputDesc[],
                                                     const aclDataBuffer *const inputs[], int numOutputs,
                                                     const aclTensorDesc *const outputDesc[],
                                                     aclDataBuffer *const outputs[], const aclopAttr *attr,
                                                     aclopEngineType engineType, const char *graphDumpPath,
                                                     const aclGraphDumpOption *graphDumpOpt);

ACL_FUNC_VISIBILITY aclGraphDumpOption *aclCreateGraphDumpOpt(void);

ACL_FUNC_VISIBILITY aclError aclDestroyGraphDumpOpt(const aclGraphDumpOption *graphDumpOpt);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_OP_COMPILER_H_ */

/*
 * ABI freeze: acl/acl_op.h, acl/acl_op_compiler.h, acl/acl_dump.h and acl/ops/acl_cblas.h.
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

#include "acl/acl_op_compiler.h"
#include "acl/ops/acl_cblas.h"

/* ---- acl/acl_op.h ---- */

ABI_SIZE(aclopEngineType, 4, 4);
ABI_TYPE((aclopEngineType)0, enum aclEngineType);
ABI_VALUE(ACL_ENGINE_SYS, 0);
ABI_VALUE(ACL_ENGINE_AICORE, 1);
ABI_VALUE(ACL_ENGINE_VECTOR, 2);
ABI_TYPE(ACL_COMPILE_FLAG_BIN_SELECTOR, int);
ABI_TYPE((aclopHandle *)0, struct aclopHandle*);
ABI_TYPE((aclopAttr *)0, struct aclopAttr*);
ABI_TYPE((aclopKernelDesc *)0, struct aclopKernelDesc*);
ABI_TYPE((aclDataDeallocator)0, void (*)(void*, unsigned long));
ABI_TYPE((aclopCompileFunc)0,
         int (*)(int, aclTensorDesc const* const*, int, aclTensorDesc const* const*, aclopAttr const*,
             aclopKernelDesc*));

ABI_FUNC(aclopSetModelDir, int (*)(char const*));
ABI_FUNC(aclopLoad, int (*)(void const*, unsigned long));
ABI_FUNC(aclopCreateAttr, aclopAttr* (*)(void));
ABI_FUNC(aclopDestroyAttr, void (*)(aclopAttr const*));
ABI_FUNC(aclopSetAttrBool, int (*)(aclopAttr*, char const*, unsigned char));
ABI_FUNC(aclopSetAttrInt, int (*)(aclopAttr*, char const*, long));
ABI_FUNC(aclopSetAttrFloat, int (*)(aclopAttr*, char const*, float));
ABI_FUNC(aclopSetAttrString, int (*)(aclopAttr*, char const*, char const*));
ABI_FUNC(aclopSetAttrDataType, int (*)(aclopAttr*, char const*, aclDataType));
ABI_FUNC(aclopSetAttrListDataType, int (*)(aclopAttr*, char const*, int, aclDataType const*));
ABI_FUNC(aclopSetAttrListBool, int (*)(aclopAttr*, char const*, int, unsigned char const*));
ABI_FUNC(aclopSetAttrListInt, int (*)(aclopAttr*, char const*, int, long const*));
ABI_FUNC(aclopSetAttrListFloat, int (*)(aclopAttr*, char const*, int, float const*));
ABI_FUNC(aclopSetAttrListString, int (*)(aclopAttr*, char const*, int, char const**));
ABI_FUNC(aclopSetAttrListListInt, int (*)(aclopAttr*, char const*, int, int const*, long const* const*));
ABI_FUNC(aclopExecute,
         int (*)(char const*, int, aclTensorDesc const* const*, aclDataBuffer const* const*, int,
             aclTensorDesc const* const*, aclDataBuffer* const*, aclopAttr const*, void*));
ABI_FUNC(aclopExecuteV2,
         int (*)(char const*, int, aclTensorDesc**, aclDataBuffer**, int, aclTensorDesc**, aclDataBuffer**, aclopAttr*,
             void*));
ABI_FUNC(aclopCreateHandle,
         int (*)(char const*, int, aclTensorDesc const* const*, int, aclTensorDesc const* const*, aclopAttr const*,
             aclopHandle**));
ABI_FUNC(aclopDestroyHandle, void (*)(aclopHandle*));
ABI_FUNC(aclopExecWithHandle,
         int (*)(aclopHandle*, int, aclDataBuffer const* const*, int, aclDataBuffer* const*, void*));
ABI_FUNC(aclopCast,
         int (*)(aclTensorDesc const*, aclDataBuffer const*, aclTensorDesc const*, aclDataBuffer*, unsigned char,
             void*));
ABI_FUNC(aclopCreateHandleForCast, int (*)(aclTensorDesc*, aclTensorDesc*, unsigned char, aclopHandle**));
ABI_FUNC(aclopCreateKernel,
         int (*)(char const*, char const*, char const*, void*, int, enum aclEngineType, void (*)(void*,
             unsigned long)));
ABI_FUNC(aclopRegisterCompileFunc,
         int (*)(char const*, int (*)(int, aclTensorDesc const* const*, int, aclTensorDesc const* const*,
             aclopAttr const*, aclopKernelDesc*)));
ABI_FUNC(aclopUnregisterCompileFunc, int (*)(char const*));
ABI_FUNC(aclopSetKernelArgs, int (*)(aclopKernelDesc*, char const*, unsigned int, void const*, unsigned int));
ABI_FUNC(aclopSetKernelWorkspaceSizes, int (*)(aclopKernelDesc*, int, unsigned long*));
ABI_FUNC(aclopUpdateParams,
         int (*)(char const*, int, aclTensorDesc const* const*, int, aclTensorDesc const* const*, aclopAttr const*));
ABI_FUNC(aclopSetMaxOpQueueNum, int (*)(unsigned long));
ABI_FUNC(aclopInferShape,
         int (*)(char const*, int, aclTensorDesc**, aclDataBuffer**, int, aclTensorDesc**, aclopAttr*));

/* ---- acl/acl_op_compiler.h ---- */

ABI_SIZE(aclopCompileType, 4, 4);
ABI_TYPE((aclopCompileType)0, enum aclCompileType);
ABI_VALUE(ACL_COMPILE_SYS, 0);
ABI_VALUE(ACL_COMPILE_UNREGISTERED, 1);

ABI_SIZE(aclCompileOpt, 4, 4);
ABI_VALUE(ACL_PRECISION_MODE, 0);
ABI_VALUE(ACL_AICORE_NUM, 1);
ABI_VALUE(ACL_AUTO_TUNE_MODE, 2);
ABI_VALUE(ACL_OP_SELECT_IMPL_MODE, 3);
ABI_VALUE(ACL_OPTYPELIST_FOR_IMPLMODE, 4);
ABI_VALUE(ACL_OP_DEBUG_LEVEL, 5);
ABI_VALUE(ACL_DEBUG_DIR, 6);
ABI_VALUE(ACL_OP_COMPILER_CACHE_MODE, 7);
ABI_VALUE(ACL_OP_COMPILER_CACHE_DIR, 8);
ABI_VALUE(ACL_OP_PERFORMANCE_MODE, 9);
ABI_VALUE(ACL_OP_JIT_COMPILE, 10);
ABI_VALUE(ACL_OP_DETERMINISTIC, 11);
ABI_VALUE(ACL_CUSTOMIZE_DTYPES, 12);
ABI_VALUE(ACL_OP_PRECISION_MODE, 13);
ABI_VALUE(ACL_ALLOW_HF32, 14);
ABI_VALUE(ACL_PRECISION_MODE_V2, 15);
ABI_VALUE(ACL_OP_DEBUG_OPTION, 16);

ABI_SIZE(aclOpCompileFlag, 4, 4);
ABI_TYPE((aclOpCompileFlag)0, enum aclCompileFlag);
ABI_VALUE(ACL_OP_COMPILE_DEFAULT, 0);
ABI_VALUE(ACL_OP_COMPILE_FUZZ, 1);
ABI_TYPE((aclGraphDumpOption *)0, struct aclGraphDumpOption*);

ABI_FUNC(aclopCompile,
         int (*)(char const*, int, aclTensorDesc const* const*, int, aclTensorDesc const* const*, aclopAttr const*,
             enum aclEngineType, enum aclCompileType, char const*));
ABI_FUNC(aclopCompileAndExecute,
         int (*)(char const*, int, aclTensorDesc const* const*, aclDataBuffer const* const*, int,
             aclTensorDesc const* const*, aclDataBuffer* const*, aclopAttr const*, enum aclEngineType,
             enum aclCompileType, char const*, void*));
ABI_FUNC(aclopCompileAndExecuteV2,
         int (*)(char const*, int, aclTensorDesc**, aclDataBuffer**, int, aclTensorDesc**, aclDataBuffer**, aclopAttr*,
             enum aclEngineType, enum aclCompileType, char const*, void*));
ABI_FUNC(aclSetCompileopt, int (*)(aclCompileOpt, char const*));
ABI_FUNC(aclGetCompileoptSize, unsigned long (*)(aclCompileOpt));
ABI_FUNC(aclGetCompileopt, int (*)(aclCompileOpt, char*, unsigned long));
ABI_FUNC(aclopSetCompileFlag, int (*)(enum aclCompileFlag));
ABI_FUNC(aclGenGraphAndDumpForOp,
         int (*)(char const*, int, aclTensorDesc const* const*, aclDataBuffer const* const*, int,
             aclTensorDesc const* const*, aclDataBuffer* const*, aclopAttr const*, enum aclEngineType, char const*,
             aclGraphDumpOption const*));
ABI_FUNC(aclCreateGraphDumpOpt, aclGraphDumpOption* (*)(void));
ABI_FUNC(aclDestroyGraphDumpOpt, int (*)(aclGraphDumpOption const*));

/* ---- acl/acl_dump.h ---- */

ABI_SIZE(acldumpType, 4, 4);
ABI_TYPE((acldumpType)0, enum acldumpType);
ABI_VALUE(AIC_ERR_BRIEF_DUMP, 1);
ABI_VALUE(AIC_ERR_NORM_DUMP, 2);
ABI_VALUE(AIC_ERR_DETAIL_DUMP, 3);
ABI_VALUE(DATA_DUMP, 4);
ABI_VALUE(OVERFLOW_DUMP, 5);

ABI_SIZE(acldumpTensorType, 4, 4);
ABI_TYPE((acldumpTensorType)0, enum acldumpTensorType);
ABI_VALUE(ACL_DUMP_TENSOR_INPUT, 0);
ABI_VALUE(ACL_DUMP_TENSOR_OUTPUT, 1);
ABI_VALUE(ACL_DUMP_TENSOR_WORKSPACE, 2);

ABI_SIZE(acldumpTensorAddressType, 4, 4);
ABI_TYPE((acldumpTensorAddressType)0, enum acldumpTensorAddressType);
ABI_VALUE(ACL_DUMP_ADDR_PTR, 0);
ABI_VALUE(ACL_DUMP_ADDR_PTR_PTR, 1);
ABI_VALUE(ACL_DUMP_ADDR_RAW, 2);

ABI_SIZE(acldumpTensorPlacement, 4, 4);
ABI_TYPE((acldumpTensorPlacement)0, enum acldumpTensorPlacement);
ABI_VALUE(ACL_DUMP_PLACEMENT_DEVICE, 0);
ABI_VALUE(ACL_DUMP_PLACEMENT_HOST, 1);
ABI_VALUE(ACL_DUMP_PLACEMENT_END, 2);
ABI_MACRO(ACL_DUMP_MAX_FILE_PATH_LENGTH, 4096, int);
ABI_MACRO(ACL_OP_DUMP_OP_AICORE_ARGS, 1U, unsigned int);
ABI_MACRO(ACL_DUMP_MAX_SHAPE_NUM, 25, int);

ABI_SIZE(acldumpChunk, 4120, 8);
ABI_TYPE((acldumpChunk *)0, struct acldumpChunk *);
ABI_FIELD(acldumpChunk, fileName, 0, char (*)[4096]);
ABI_FIELD(acldumpChunk, bufLen, 4096, unsigned int*);
ABI_FIELD(acldumpChunk, isLastChunk, 4100, unsigned int*);
ABI_FIELD(acldumpChunk, offset, 4104, long*);
ABI_FIELD(acldumpChunk, flag, 4112, int*);
ABI_FIELD(acldumpChunk, dataBuf, 4116, unsigned char (*)[]);

ABI_SIZE(acldumpTensorInfo, 456, 8);
ABI_TYPE((acldumpTensorInfo *)0, struct acldumpTensorInfo *);
ABI_FIELD(acldumpTensorInfo, type, 0, acldumpTensorType*);
ABI_FIELD(acldumpTensorInfo, tensorSize, 8, unsigned long*);
ABI_FIELD(acldumpTensorInfo, format, 16, int*);
ABI_FIELD(acldumpTensorInfo, dataType, 20, int*);
ABI_FIELD(acldumpTensorInfo, tensorAddr, 24, long**);
ABI_FIELD(acldumpTensorInfo, addrType, 32, acldumpTensorAddressType*);
ABI_FIELD(acldumpTensorInfo, placement, 36, acldumpTensorPlacement*);
ABI_FIELD(acldumpTensorInfo, argsOffset, 40, unsigned int*);
ABI_FIELD(acldumpTensorInfo, shapeNum, 44, unsigned int*);
ABI_FIELD(acldumpTensorInfo, originShapeNum, 48, unsigned int*);
ABI_FIELD(acldumpTensorInfo, shape, 56, unsigned long (*)[25]);
ABI_FIELD(acldumpTensorInfo, originShape, 256, unsigned long (*)[25]);

ABI_FUNC(acldumpRegCallback, int (*)(int (*)(acldumpChunk const*, int), int));
ABI_FUNC(acldumpUnregCallback, void (*)(void));
ABI_FUNC(aclopStartDumpArgs, int (*)(unsigned int, char const*));
ABI_FUNC(aclopStopDumpArgs, int (*)(unsigned int));
ABI_FUNC(acldumpGetPath, char const* (*)(acldumpType));
ABI_FUNC(acldumpSaveExceptionInfo, int (*)(char const*, char const*, acldumpTensorInfo const*, unsigned long));
ABI_FUNC(acldumpGetExceptionInfoPath, int (*)(char*, unsigned long));

/* ---- acl/ops/acl_cblas.h ---- */

ABI_SIZE(aclTransType, 4, 4);
ABI_TYPE((aclTransType)0, enum aclTransType);
ABI_VALUE(ACL_TRANS_N, 0);
ABI_VALUE(ACL_TRANS_T, 1);
ABI_VALUE(ACL_TRANS_NZ, 2);
ABI_VALUE(ACL_TRANS_NZ_T, 3);

ABI_SIZE(aclComputeType, 4, 4);
ABI_TYPE((aclComputeType)0, enum aclComputeType);
ABI_VALUE(ACL_COMPUTE_HIGH_PRECISION, 0);
ABI_VALUE(ACL_COMPUTE_LOW_PRECISION, 1);

ABI_FUNC(aclblasGemvEx,
         int (*)(aclTransType, int, int, void const*, void const*, int, aclDataType, void const*, int, aclDataType,
             void const*, void*, int, aclDataType, aclComputeType, void*));
ABI_FUNC(aclblasCreateHandleForGemvEx,
         int (*)(aclTransType, int, int, aclDataType, aclDataType, aclDataType, aclComputeType, aclopHandle**));
ABI_FUNC(aclblasHgemv,
         int (*)(aclTransType, int, int, unsigned short const*, unsigned short const*, int, unsigned short const*, int,
             unsigned short const*, unsigned short*, int, aclComputeType, void*));
ABI_FUNC(aclblasCreateHandleForHgemv, int (*)(aclTransType, int, int, aclComputeType, aclopHandle**));
ABI_FUNC(aclblasS8gemv,
         int (*)(aclTransType, int, int, int const*, signed char const*, int, signed char const*, int, int const*, int*,
             int, aclComputeType, void*));
ABI_FUNC(aclblasCreateHandleForS8gemv, int (*)(aclTransType, int, int, aclComputeType, aclopHandle**));
ABI_FUNC(aclblasGemmEx,
         int (*)(aclTransType, aclTransType, aclTransType, int, int, int, void const*, void const*, int, aclDataType,
             void const*, int, aclDataType, void const*, void*, int, aclDataType, aclComputeType, void*));
ABI_FUNC(aclblasCreateHandleForGemmEx,
         int (*)(aclTransType, aclTransType, aclTransType, int, int, int, aclDataType, aclDataType, aclDataType,
             aclComputeType, aclopHandle**));
ABI_FUNC(aclblasHgemm,
         int (*)(aclTransType, aclTransType, aclTransType, int, int, int, unsigned short const*, unsigned short const*,
             int, unsigned short const*, int, unsigned short const*, unsigned short*, int, aclComputeType, void*));
ABI_FUNC(aclblasCreateHandleForHgemm,
         int (*)(aclTransType, aclTransType, aclTransType, int, int, int, aclComputeType, aclopHandle**));
ABI_FUNC(aclblasS8gemm,
         int (*)(aclTransType, aclTransType, aclTransType, int, int, int, int const*, signed char const*, int,
             signed char const*, int, int const*, int*, int, aclComputeType, void*));
ABI_FUNC(aclblasCreateHandleForS8gemm,
         int (*)(aclTransType, aclTransType, aclTransType, int, int, int, aclComputeType, aclopHandle**));

int main(void)
{
    int failures = 0;
    failures += ABI_CHECK_VALUE(ACL_COMPILE_FLAG_BIN_SELECTOR, 1);
    return abi_report(failures);
}

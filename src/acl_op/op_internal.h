/* Shared by the aclop entry points (op_api.c, op_compiler_api.c, op_kernel_reg.c). */
#ifndef OA_ACL_OP_OP_INTERNAL_H
#define OA_ACL_OP_OP_INTERNAL_H

#include <stdbool.h>

#include "acl/acl_op.h"
#include "acl/acl_op_compiler.h"
#include "acl_op/op_exec.h"
#include "acl_op/op_model.h"
#include "base/status.h"

/* How an execution refreshes the caller's output descriptors. */
typedef enum oa_op_refresh {
    OA_OP_REFRESH_NONE,   /* aclopExecute, aclopCompileAndExecute */
    OA_OP_REFRESH_SHAPE,  /* aclopExecuteV2 */
    OA_OP_REFRESH_ORIGIN  /* aclopCompileAndExecuteV2 */
} oa_op_refresh;

/* CANN's CheckPtrArray: n == 0, or arr and every element non-NULL. */
oa_status oa_aclop_check_ptrs(int n, const void *const *arr, const char *what) OA_MUST_CHECK;
/* CANN's CheckDataBufferArry: as above, and no buffer with NULL data and a length. */
oa_status oa_aclop_check_buffers(int n, const aclDataBuffer *const *arr, const char *what) OA_MUST_CHECK;
/* Every one of n (> 0) descriptors has a 0 dim: the call succeeds at once. */
bool oa_aclop_all_outputs_empty(int n, const aclTensorDesc *const *d);
/* A descriptor in host memory that is not constant (refused by handles and aclopCompile). */
bool oa_aclop_has_host_mem(int n, const aclTensorDesc *const *d);

/*
 * Matches req against the cache (no compilation), builds or reuses the
 * executable and queues it on stream; then refreshes the output descs.
 */
oa_status oa_aclop_execute(const oa_opreq *req, aclDataBuffer *const *outputs, aclrtStream stream,
                           oa_op_refresh refresh) OA_MUST_CHECK;

/* Runs model m for req (already matched or compiled). */
oa_status oa_aclop_run_model(oa_opmodel *m, const oa_opreq *req, aclDataBuffer *const *outputs, aclrtStream stream,
                             oa_op_refresh refresh) OA_MUST_CHECK;

/* For unit tests: allow aclopSetModelDir again. */
void oa_aclop_reset_model_dir_for_tests(void);

/* The selector registry (aclopRegisterCompileFunc) has one for op type. */
bool oa_aclop_has_selector(const char *type);

#endif /* OA_ACL_OP_OP_INTERNAL_H */

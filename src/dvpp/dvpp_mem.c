/*
 * acldvppMalloc / acldvppFree: media buffers are ordinary device memory of
 * the runtime (aclrtMalloc/aclrtFree), with the size rounded up to 32 bytes
 * plus 32 spare bytes as the header documents. The rest of acl_dvpp.h is
 * generated "not supported yet".
 */
#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"
#include "base/acl_check.h"
#include "base/util.h"

#define DVPP_ALIGN 32u

ACL_FUNC_VISIBILITY aclError acldvppMalloc(void **devPtr, size_t size)
{
    ACL_REQUIRE_NOT_NULL(devPtr);
    ACL_REQUIRE(size > 0, OA_E_PARAM, "parameter [size] must be greater than 0");
    size_t rounded;
    ACL_REQUIRE(oa_align_up(size, DVPP_ALIGN, &rounded) && oa_add_size(rounded, DVPP_ALIGN, &rounded), OA_E_PARAM,
                "size %zu is too large", size);
    return aclrtMalloc(devPtr, rounded, ACL_MEM_MALLOC_HUGE_FIRST);
}

ACL_FUNC_VISIBILITY aclError acldvppFree(void *devPtr)
{
    ACL_REQUIRE_NOT_NULL(devPtr);
    return aclrtFree(devPtr);
}

/* SoC name, architecture compatibility, CANN attributes and device capabilities. */
#include <stddef.h>

#include "acl/acl.h"
#include "acl_base/platform.h"
#include "base/acl_check.h"

ACL_FUNC_VISIBILITY const char *aclrtGetSocName(void)
{
    const oa_soc_info *soc = oa_platform_current_soc();
    return soc == NULL ? NULL : soc->name;
}

ACL_FUNC_VISIBILITY aclError aclrtCheckArchCompatibility(const char *socVersion, int32_t *canCompatible)
{
    /* CANN checks these inside the runtime, hence runtime parameter codes. */
    ACL_REQUIRE(socVersion != NULL, OA_E_RT_PARAM, "parameter [socVersion] must not be null");
    ACL_REQUIRE(canCompatible != NULL, OA_E_RT_PARAM, "parameter [canCompatible] must not be null");
    ACL_REQUIRE(socVersion[0] != '\0', OA_E_RT_PARAM, "parameter [socVersion] must not be empty");
    const oa_soc_info *target = oa_platform_find_soc(socVersion);
    ACL_REQUIRE(target != NULL, OA_E_RT_PARAM, "SoC version [%s] is invalid", socVersion);
    const oa_soc_info *current = oa_platform_current_soc();
    ACL_REQUIRE(current != NULL, OA_E_RT_PARAM, "current SoC version is invalid");
    *canCompatible = (target->npu_arch == current->npu_arch) ? 1 : 0;
    return ACL_SUCCESS;
}

/* Attribute availability on the configured SoC; JIT compilation is always available. */
static int32_t cann_attr_value(const oa_soc_info *soc, aclCannAttr attr)
{
    switch (attr) {
    case ACL_CANN_ATTR_INF_NAN:
        return soc->inf_nan ? 1 : 0;
    case ACL_CANN_ATTR_BF16:
        return soc->bf16 ? 1 : 0;
    case ACL_CANN_ATTR_JIT_COMPILE:
        return 1;
    default:
        return -1;
    }
}

ACL_FUNC_VISIBILITY aclError aclGetCannAttributeList(const aclCannAttr **cannAttrList, size_t *num)
{
    ACL_REQUIRE_NOT_NULL(cannAttrList);
    ACL_REQUIRE_NOT_NULL(num);
    const oa_soc_info *soc = oa_platform_current_soc();
    ACL_REQUIRE(soc != NULL, OA_E_INTERNAL, "cannot determine the SoC version");
    /* One static list per combination of SoC flags, so the pointer stays valid forever. */
    static const aclCannAttr kAll[] = {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16, ACL_CANN_ATTR_JIT_COMPILE};
    static const aclCannAttr kJitOnly[] = {ACL_CANN_ATTR_JIT_COMPILE};
    static const aclCannAttr kInfNanJit[] = {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_JIT_COMPILE};
    static const aclCannAttr kBf16Jit[] = {ACL_CANN_ATTR_BF16, ACL_CANN_ATTR_JIT_COMPILE};
    if (soc->inf_nan && soc->bf16) {
        *cannAttrList = kAll;
        *num = 3;
    } else if (soc->inf_nan) {
        *cannAttrList = kInfNanJit;
        *num = 2;
    } else if (soc->bf16) {
        *cannAttrList = kBf16Jit;
        *num = 2;
    } else {
        *cannAttrList = kJitOnly;
        *num = 1;
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t *value)
{
    ACL_REQUIRE_NOT_NULL(value);
    const oa_soc_info *soc = oa_platform_current_soc();
    ACL_REQUIRE(soc != NULL, OA_E_INTERNAL, "cannot determine the SoC version");
    const int32_t v = cann_attr_value(soc, cannAttr);
    ACL_REQUIRE(v >= 0, OA_E_PARAM, "CANN attribute [%d] is unknown", (int)cannAttr);
    *value = v;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t *value)
{
    ACL_REQUIRE_NOT_NULL(value);
    uint32_t count = 0;
    const aclError ret = aclrtGetDeviceCount(&count);
    if (ret != ACL_SUCCESS) {
        return ret;
    }
    ACL_REQUIRE(deviceId < count, OA_E_PARAM, "deviceId %u greater than deviceNum %u", deviceId, count);
    switch (deviceInfo) {
    case ACL_DEVICE_INFO_AI_CORE_NUM:
    case ACL_DEVICE_INFO_VECTOR_CORE_NUM:
        *value = oa_platform_core_count();
        return ACL_SUCCESS;
    case ACL_DEVICE_INFO_L2_SIZE:
        *value = oa_platform_l2_size();
        return ACL_SUCCESS;
    default:
        break;
    }
    ACL_REQUIRE(false, OA_E_PARAM, "device info type [%d] is invalid", (int)deviceInfo);
    return ACL_ERROR_INVALID_PARAM;
}

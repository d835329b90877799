/*
 * Platform facts of the emulated NPU, shared by acl_base and whoever needs
 * them (device attributes, model compatibility checks).
 *
 * The SoC name comes from the environment variable OPENACL_SOC_VERSION and
 * must be one of CANN's SoC names (table in platform.c, documented in
 * docs/runtime.md "SoC"); unset means OA_DEFAULT_SOC_NAME. Core counts and
 * the L2 size describe the host CPU, since that is what executes kernels.
 */
#ifndef OA_ACL_BASE_PLATFORM_H
#define OA_ACL_BASE_PLATFORM_H

#include <stdbool.h>
#include <stdint.h>

#define OA_SOC_ENV "OPENACL_SOC_VERSION"
#define OA_DEFAULT_SOC_NAME "Ascend910B1"

typedef struct oa_soc_info {
    const char *name;       /* SoC_version as CANN spells it */
    const char *short_name; /* Short_SoC_version */
    int32_t npu_arch;       /* NpuArch: equal values are instruction compatible */
    bool bf16;              /* support_bf16 */
    bool inf_nan;           /* support_inf_nan */
} oa_soc_info;

/* Table entry for name, or NULL when name is not a CANN SoC name. */
const oa_soc_info *oa_platform_find_soc(const char *name);

/* The configured SoC; NULL (error recorded) when OPENACL_SOC_VERSION names an unknown SoC. */
const oa_soc_info *oa_platform_current_soc(void);

/* Online CPUs (at least 1): reported as AI core and vector core counts. */
int64_t oa_platform_core_count(void);

/* L2 cache size of CPU 0 in bytes from sysfs (falls back to sysconf, then 0). */
int64_t oa_platform_l2_size(void);

#endif /* OA_ACL_BASE_PLATFORM_H */

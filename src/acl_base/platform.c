/* SoC table and host CPU facts (platform.h). */
#include "acl_base/platform.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"

/*
 * CANN's SoC names with their NpuArch and feature flags, as in the platform
 * configuration files CANN ships (one .ini per SoC). Ascend310 is the older
 * inference chip that ATC still accepts; it has no .ini in current CANN, so
 * its NpuArch value (1002) is ours: it only needs to differ from the others.
 */
static const oa_soc_info kSocTable[] = {
    {"Ascend310", "Ascend310", 1002, false, false},
    {"Ascend310B1", "Ascend310B", 3002, false, false},
    {"Ascend310B2", "Ascend310B", 3002, false, false},
    {"Ascend310B3", "Ascend310B", 3002, false, false},
    {"Ascend310B4", "Ascend310B", 3002, false, false},
    {"Ascend310P1", "Ascend310P", 2002, false, false},
    {"Ascend310P3", "Ascend310P", 2002, false, false},
    {"Ascend310P5", "Ascend310P", 2002, false, false},
    {"Ascend310P7", "Ascend310P", 2002, false, false},
    {"Ascend910A", "Ascend910", 1001, false, false},
    {"Ascend910B", "Ascend910", 1001, false, false},
    {"Ascend910ProA", "Ascend910", 1001, false, false},
    {"Ascend910ProB", "Ascend910", 1001, false, false},
    {"Ascend910PremiumA", "Ascend910", 1001, false, false},
    {"Ascend910B1", "Ascend910B", 2201, true, true},
    {"Ascend910B2", "Ascend910B", 2201, true, true},
    {"Ascend910B2C", "Ascend910B", 2201, true, true},
    {"Ascend910B3", "Ascend910B", 2201, true, true},
    {"Ascend910B4", "Ascend910B", 2201, true, true},
    {"Ascend910B4-1", "Ascend910B", 2201, true, true},
    {"Ascend910_9362", "Ascend910_93", 2201, true, true},
    {"Ascend910_9363", "Ascend910_93", 2201, true, true},
    {"Ascend910_9372", "Ascend910_93", 2201, true, true},
    {"Ascend910_9381", "Ascend910_93", 2201, true, true},
    {"Ascend910_9382", "Ascend910_93", 2201, true, true},
    {"Ascend910_9391", "Ascend910_93", 2201, true, true},
    {"Ascend910_9392", "Ascend910_93", 2201, true, true},
    {"Ascend031", "Ascend031", 3004, false, false},
    {"Ascend035", "Ascend035", 3505, false, false},
    {"Ascend035A", "Ascend035", 3505, false, false},
    {"Ascend035B", "Ascend035", 3505, false, false},
};

const oa_soc_info *oa_platform_find_soc(const char *name)
{
    if (name == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < sizeof(kSocTable) / sizeof(kSocTable[0]); ++i) {
        if (strcmp(kSocTable[i].name, name) == 0) {
            return &kSocTable[i];
        }
    }
    return NULL;
}

const oa_soc_info *oa_platform_current_soc(void)
{
    const char *env = getenv(OA_SOC_ENV);
    const char *name = (env != NULL && env[0] != '\0') ? env : OA_DEFAULT_SOC_NAME;
    const oa_soc_info *soc = oa_platform_find_soc(name);
    if (soc == NULL) {
        (void)OA_FAIL(OA_E_INTERNAL, "%s=[%s] is not a CANN SoC name (see docs/runtime.md, section SoC)", OA_SOC_ENV,
                      name);
    }
    return soc;
}

int64_t oa_platform_core_count(void)
{
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int64_t)n : 1;
}

/* Parses sysfs cache sizes such as "2048K", "1M" or "524288". */
static int64_t parse_cache_size(const char *text)
{
    char *end = NULL;
    const long long v = strtoll(text, &end, 10);
    if (end == text || v < 0) {
        return -1;
    }
    while (*end != '\0' && isspace((unsigned char)*end)) {
        ++end;
    }
    switch (toupper((unsigned char)*end)) {
    case 'K':
        return (int64_t)v * 1024;
    case 'M':
        return (int64_t)v * 1024 * 1024;
    case 'G':
        return (int64_t)v * 1024 * 1024 * 1024;
    default:
        return (int64_t)v;
    }
}

static bool read_line(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return false;
    }
    const bool ok = fgets(buf, (int)cap, f) != NULL;
    fclose(f);
    return ok;
}

int64_t oa_platform_l2_size(void)
{
    char path[128];
    char line[64];
    for (int idx = 0; idx < 16; ++idx) {
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", idx);
        if (!read_line(path, line, sizeof(line))) {
            break;
        }
        if (atoi(line) != 2) {
            continue;
        }
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", idx);
        if (read_line(path, line, sizeof(line))) {
            const int64_t size = parse_cache_size(line);
            if (size > 0) {
                return size;
            }
        }
    }
#ifdef _SC_LEVEL2_CACHE_SIZE
    const long sc = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (sc > 0) {
        return (int64_t)sc;
    }
#endif
    return 0;
}

/* Internals of the version queries, exposed for unit tests. */
#ifndef OA_ACL_BASE_VERSION_INTERNAL_H
#define OA_ACL_BASE_VERSION_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_rt.h"
#include "base/status.h"

/* Trimmed "Version=" value for package pkg (tries the name with '-' and '_' swapped). */
oa_status oa_version_of_package(const char *pkg, char *out, size_t cap);

/* major*10^7 + minor*10^5 + patch*1000, minus 300/200/100 for alpha/beta/rc plus the pre-release number. */
oa_status oa_version_to_number(const char *ver, int32_t *num);

/* Fills an aclCANNPackageVersion from a raw version string. */
oa_status oa_fill_package_version(const char *raw, aclCANNPackageVersion *out);

#endif

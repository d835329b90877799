/*
 * Which openacl build is running: the project version and the git commit it
 * was configured from (cmake/OaBuildInfo.cmake). Written at the top of every
 * plog file, into aclsysGetCANNVersion's `reserved` field and into
 * <prefix>/share/info/<package>/version.info (openacl_version=,
 * openacl_commit=); CANN's own version fields keep CANN's values.
 */
#ifndef OA_BASE_BUILD_INFO_H
#define OA_BASE_BUILD_INFO_H

/* "0.1.0" */
const char *oa_build_version(void);

/* 12 hex digits, or "unknown" when the tree was not a git checkout */
const char *oa_build_commit(void);

/* "openacl 0.1.0 (commit 0123456789ab)" */
const char *oa_build_string(void);

#endif /* OA_BASE_BUILD_INFO_H */

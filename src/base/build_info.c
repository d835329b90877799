/* The build's identity (build_info.h); the definitions come from src/base/CMakeLists.txt. */
#include "base/build_info.h"

#ifndef OA_BUILD_VERSION
#define OA_BUILD_VERSION "0.0.0"
#endif
#ifndef OA_GIT_COMMIT
#define OA_GIT_COMMIT "unknown"
#endif

const char *oa_build_version(void)
{
    return OA_BUILD_VERSION;
}

const char *oa_build_commit(void)
{
    return OA_GIT_COMMIT;
}

const char *oa_build_string(void)
{
    return "openacl " OA_BUILD_VERSION " (commit " OA_GIT_COMMIT ")";
}

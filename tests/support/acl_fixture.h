/*
 * The CMocka group fixture of the tests that run on device 0: aclInit(NULL) and aclrtSetDevice(0) before the
 * group, aclrtResetDevice and aclFinalize after it. Include after <cmocka.h>.
 */
#ifndef OA_TESTS_ACL_FIXTURE_H
#define OA_TESTS_ACL_FIXTURE_H

#include "acl/acl.h"

static inline int oa_acl_device_setup(void **state)
{
    (void)state;
    return aclInit(NULL) == ACL_SUCCESS && aclrtSetDevice(0) == ACL_SUCCESS ? 0 : -1;
}

static inline int oa_acl_device_teardown(void **state)
{
    (void)state;
    (void)aclrtResetDevice(0);
    return aclFinalize() == ACL_SUCCESS ? 0 : -1;
}

#endif /* OA_TESTS_ACL_FIXTURE_H */

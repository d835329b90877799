/* acldvppMalloc / acldvppFree: device memory of the runtime. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"

#define ASSERT_MSG() assert_non_null(aclGetRecentErrMsg())

static void bad_arguments(void **state)
{
    (void)state;
    void *p = NULL;
    assert_int_equal(acldvppMalloc(NULL, 64), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acldvppMalloc(&p, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acldvppMalloc(&p, SIZE_MAX - 8), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acldvppFree(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
}

static void allocate_use_free(void **state)
{
    (void)state;
    uint32_t n = 0;
    if (aclrtGetDeviceCount(&n) == ACL_ERROR_API_NOT_SUPPORT) {
        (void)aclGetRecentErrMsg();
        skip(); /* needs the runtime core */
    }
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    void *p = NULL;
    assert_int_equal(acldvppMalloc(&p, 1000), ACL_SUCCESS);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % 128, 0); /* CANN: 128-byte aligned start */
    memset(p, 0x5A, 1000 + 24 + 32); /* rounded up to 1024, plus 32 spare bytes */
    assert_int_equal(acldvppFree(p), ACL_SUCCESS);
    /* the runtime's aclrtFree rules apply: a pointer it does not know is rejected */
    int local = 0;
    assert_int_not_equal(acldvppFree(&local), ACL_SUCCESS);
    ASSERT_MSG();
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_arguments),
        cmocka_unit_test(allocate_use_free),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

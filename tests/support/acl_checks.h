/*
 * CMocka checks of ACL calls shared by the unit tests that go through the
 * public API: OK_ACL fails the test when a call does not succeed (with
 * aclGetRecentErrMsg), EXPECT_ACL wants an exact code and, when part is not
 * NULL, a recent error message containing it. Include after <cmocka.h>.
 */
#ifndef OA_TESTS_ACL_CHECKS_H
#define OA_TESTS_ACL_CHECKS_H

#include <string.h>

#include "acl/acl.h"

static inline void oa_expect_acl(const char *expr, aclError got, aclError want, const char *part)
{
    const char *m = aclGetRecentErrMsg();
    if (got != want || (part != NULL && (m == NULL || strstr(m, part) == NULL))) {
        fail_msg("%s -> %d (want %d), message [%s], want [%s]", expr, got, want, m ? m : "", part ? part : "");
    }
}
#define EXPECT_ACL(expr, code, part) oa_expect_acl(#expr, (expr), (aclError)(code), (part))

#define OK_ACL(expr)                                                                                        \
    do {                                                                                                    \
        const aclError r_ = (expr);                                                                         \
        if (r_ != ACL_SUCCESS) {                                                                            \
            const char *m_ = aclGetRecentErrMsg();                                                          \
            fail_msg("%s -> %d (%s)", #expr, r_, m_ ? m_ : "");                                             \
        }                                                                                                   \
    } while (0)

#endif

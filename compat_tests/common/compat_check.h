/*
 * The checks every compat program uses, in the style of the Ascend samples
 * (plain C, usable from C++): CHECK returns 1 from the calling function when
 * an ACL call fails, printing aclGetRecentErrMsg; EXPECT wants an exact
 * error code; REQUIRE a condition, with a printf-style reason.
 */
#ifndef COMPAT_CHECK_H
#define COMPAT_CHECK_H

#include <stdio.h>

#include "acl/acl.h"

#define CHECK(expr)                                                                              \
    do {                                                                                         \
        aclError ret_ = (expr);                                                                  \
        if (ret_ != ACL_SUCCESS) {                                                               \
            const char *msg_ = aclGetRecentErrMsg();                                             \
            printf("FAIL %s:%d %s -> %d (%s)\n", __FILE__, __LINE__, #expr, ret_,                \
                   msg_ != NULL ? msg_ : "<no message>");                                        \
            return 1;                                                                            \
        }                                                                                        \
    } while (0)

#define EXPECT(expr, code)                                                                       \
    do {                                                                                         \
        aclError ret_ = (expr);                                                                  \
        if (ret_ != (aclError)(code)) {                                                          \
            const char *msg_ = aclGetRecentErrMsg();                                             \
            printf("FAIL %s:%d %s -> %d, expected %d (%s)\n", __FILE__, __LINE__, #expr, ret_,   \
                   (int)(code), msg_ != NULL ? msg_ : "<no message>");                           \
            return 1;                                                                            \
        }                                                                                        \
        printf("  ok: %s -> %d\n", #expr, ret_);                                                 \
    } while (0)

#define REQUIRE(cond, ...)                                                                       \
    do {                                                                                         \
        if (!(cond)) {                                                                           \
            printf("FAIL %s:%d ", __FILE__, __LINE__);                                           \
            printf(__VA_ARGS__);                                                                 \
            printf("\n");                                                                        \
            return 1;                                                                            \
        }                                                                                        \
    } while (0)

#endif

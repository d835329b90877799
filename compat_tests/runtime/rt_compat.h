/*
 * Small helpers shared by the runtime compat programs (plain C, usable from
 * C++): a CHECK macro in the style of the Ascend samples that prints what
 * failed with aclGetRecentErrMsg, and EXPECT for exact error codes.
 */
#ifndef RT_COMPAT_H
#define RT_COMPAT_H

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
            printf("FAIL %s:%d %s -> %d, expected %d\n", __FILE__, __LINE__, #expr, ret_,        \
                   (int)(code));                                                                 \
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

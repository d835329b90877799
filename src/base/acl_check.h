/*
 * Argument checks for public entry points (the thin ACL shims).
 *
 * Each macro records a message for aclGetRecentErrMsg, logs it, and returns
 * from the calling function:
 *   ACL_REQUIRE_NOT_NULL(p)         -> ACL_ERROR_INVALID_PARAM when p is NULL
 *   ACL_REQUIRE(cond, st, fmt, ...) -> oa_status_to_acl(st) when cond is false
 *   ACL_REQUIRE_RET(cond, ret, fmt, ...) for getters that return a value, not aclError
 *   ACL_RETURN_STATUS(expr)         -> evaluates an oa_status and returns its aclError
 */
#ifndef OA_BASE_ACL_CHECK_H
#define OA_BASE_ACL_CHECK_H

#include "base/error.h"

#define ACL_REQUIRE_NOT_NULL(p)                                                                     \
    do {                                                                                            \
        if ((p) == NULL) {                                                                          \
            return oa_status_to_acl(OA_FAIL(OA_E_PARAM, "parameter [%s] must not be null", #p));    \
        }                                                                                           \
    } while (0)

#define ACL_REQUIRE(cond, st, ...)                                                                  \
    do {                                                                                            \
        if (!(cond)) {                                                                              \
            return oa_status_to_acl(OA_FAIL((st), __VA_ARGS__));                                    \
        }                                                                                           \
    } while (0)

#define ACL_REQUIRE_RET(cond, ret, ...)                                                             \
    do {                                                                                            \
        if (!(cond)) {                                                                              \
            (void)OA_FAIL(OA_E_PARAM, __VA_ARGS__);                                                 \
            return ret;                                                                             \
        }                                                                                           \
    } while (0)

#define ACL_RETURN_STATUS(expr) return oa_status_to_acl(expr)

#endif /* OA_BASE_ACL_CHECK_H */

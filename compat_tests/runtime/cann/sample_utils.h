/*
 * The logging and checking macros CANN's runtime examples include as "utils.h" (same names and behaviour, our
 * own text): INFO_LOG / WARN_LOG / ERROR_LOG print one tagged line on stdout; CHECK_ERROR returns -1 from the
 * calling function when an ACL call fails; CHECK_ERROR_WITHOUT_RETURN only reports it.
 */
#ifndef OA_COMPAT_SAMPLE_UTILS_H
#define OA_COMPAT_SAMPLE_UTILS_H

#include <stdint.h>
#include <stdio.h>

#define INFO_LOG(fmt, ...) fprintf(stdout, "[INFO]  " fmt "\n", ##__VA_ARGS__)
#define WARN_LOG(fmt, ...) fprintf(stdout, "[WARN]  " fmt "\n", ##__VA_ARGS__)
#define ERROR_LOG(fmt, ...) fprintf(stdout, "[ERROR]  " fmt "\n", ##__VA_ARGS__)

#define CHECK_ERROR(call)                                                                         \
    do {                                                                                          \
        aclError oa_ret_ = (call);                                                                \
        if (oa_ret_ != ACL_SUCCESS) {                                                             \
            ERROR_LOG("Operation failed: %s returned error code %d", #call, (int32_t)oa_ret_);    \
            return -1;                                                                            \
        }                                                                                         \
    } while (0)

#define CHECK_ERROR_WITHOUT_RETURN(call)                                                          \
    do {                                                                                          \
        aclError oa_ret_ = (call);                                                                \
        if (oa_ret_ != ACL_SUCCESS) {                                                             \
            ERROR_LOG("Operation failed: %s returned error code %d", #call, (int32_t)oa_ret_);    \
        }                                                                                         \
    } while (0)

#endif

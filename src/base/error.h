/*
 * Per-thread error reporting for the public API.
 *
 * oa_error_set() logs the failure at ERROR level (CANN style, with the
 * function that detected it) and appends the message to the calling thread's
 * buffer that aclGetRecentErrMsg() returns. It also records the aclError as
 * the thread's last error (aclrtGetLastError / aclrtPeekAtLastError).
 */
#ifndef OA_BASE_ERROR_H
#define OA_BASE_ERROR_H

#include "base/log.h"
#include "base/status.h"

/* Records and logs a failure; returns st so callers can write `return OA_FAIL(...)`. */
oa_status oa_error_set(oa_status st, const char *module, const char *file, int line, const char *func,
                       const char *fmt, ...) __attribute__((format(printf, 6, 7)));

#define OA_FAIL(st, ...) oa_error_set((st), OA_LOG_MODULE, __FILE__, __LINE__, __func__, __VA_ARGS__)

/*
 * Returns the messages recorded on this thread since the previous call,
 * joined by '\n', and clears them; NULL when there is nothing. The pointer
 * stays valid until the next call on the same thread.
 */
const char *oa_error_take_messages(void);

/* The pending messages (as oa_error_take_messages would return them) without clearing them; NULL when none. */
const char *oa_error_peek_messages(void);

/* Drops this thread's pending messages. */
void oa_error_clear(void);

/* Last aclError recorded on this thread (ACL_SUCCESS if none); _take also clears it. */
aclError oa_error_peek_last(void);
aclError oa_error_take_last(void);

/*
 * Probing: between oa_error_quiet_push() and the matching pop, failures
 * reported on this thread with oa_error_set()/OA_FAIL are neither logged
 * nor recorded (the status is still returned). For callers that try an
 * operation to learn whether it works and report the real error themselves
 * if it does not. Nests.
 */
void oa_error_quiet_push(void);
void oa_error_quiet_pop(void);

/* Body of every generated "not supported yet" definition: records "<name> is not supported yet". */
void oa_api_not_supported(const char *name);

#endif /* OA_BASE_ERROR_H */

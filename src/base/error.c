/* Thread-local error messages and last-error codes behind aclGetRecentErrMsg / aclrtGetLastError. */
#include "base/error.h"

#include <stdio.h>
#include <string.h>

#define OA_ERR_BUF 4096

static _Thread_local char t_pending[OA_ERR_BUF];
static _Thread_local size_t t_pending_len;
static _Thread_local char t_returned[OA_ERR_BUF];
static _Thread_local aclError t_last_code;
static _Thread_local int t_quiet;

void oa_error_quiet_push(void)
{
    ++t_quiet;
}

void oa_error_quiet_pop(void)
{
    if (t_quiet > 0) {
        --t_quiet;
    }
}

oa_status oa_error_set(oa_status st, const char *module, const char *file, int line, const char *func,
                       const char *fmt, ...)
{
    if (t_quiet > 0) {
        return st;
    }
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);

    aclError code = oa_status_to_acl(st);
    if (oa_log_enabled(OA_LOG_ERROR, module)) { /* level 4 (global or the module's) silences ERROR lines too */
        oa_log_write(OA_LOG_ERROR, module, file, line, func, "%s [error code %d: %s]", msg, code, oa_status_str(st));
    }

    /* Keep the newest messages when the buffer is full: drop the oldest lines. */
    char line_buf[1200];
    int n = snprintf(line_buf, sizeof(line_buf), "%s%s: %s", t_pending_len > 0 ? "\n" : "", func, msg);
    if (n < 0) {
        n = 0;
    }
    size_t add = (size_t)n < sizeof(line_buf) ? (size_t)n : sizeof(line_buf) - 1;
    while (t_pending_len + add >= OA_ERR_BUF && t_pending_len > 0) {
        char *nl = memchr(t_pending, '\n', t_pending_len);
        if (nl == NULL) {
            t_pending_len = 0;
            break;
        }
        size_t cut = (size_t)(nl - t_pending) + 1;
        memmove(t_pending, t_pending + cut, t_pending_len - cut);
        t_pending_len -= cut;
    }
    const char *src = line_buf;
    if (t_pending_len == 0 && src[0] == '\n') {
        ++src;
        --add;
    }
    memcpy(t_pending + t_pending_len, src, add);
    t_pending_len += add;
    t_pending[t_pending_len] = '\0';
    t_last_code = code;
    return st;
}

const char *oa_error_peek_messages(void)
{
    return t_pending_len > 0 ? t_pending : NULL;
}

const char *oa_error_take_messages(void)
{
    if (t_pending_len == 0) {
        return NULL;
    }
    memcpy(t_returned, t_pending, t_pending_len + 1);
    t_pending_len = 0;
    t_pending[0] = '\0';
    return t_returned;
}

void oa_error_clear(void)
{
    t_pending_len = 0;
    t_pending[0] = '\0';
}

aclError oa_error_peek_last(void)
{
    return t_last_code;
}

aclError oa_error_take_last(void)
{
    aclError c = t_last_code;
    t_last_code = ACL_SUCCESS;
    return c;
}

void oa_api_not_supported(const char *name)
{
    (void)oa_error_set(OA_E_NOT_SUPPORTED, OA_LOG_MODULE, __FILE__, __LINE__, name, "%s is not supported yet", name);
}

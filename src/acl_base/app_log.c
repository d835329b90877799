/* aclAppLog: application lines in the CANN log under module "APP". */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define OA_LOG_MODULE "APP"
#include "acl/acl_base_rt.h"
#include "base/log.h"

#define APP_LOG_MAX 1024
#define TRUNCATED_MARK "...[truncated]"

/* Lets the compiler check our own use of fmt. */
ACL_FUNC_VISIBILITY void aclAppLog(aclLogLevel logLevel, const char *func, const char *file, uint32_t line,
                                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

ACL_FUNC_VISIBILITY void aclAppLog(aclLogLevel logLevel, const char *func, const char *file, uint32_t line,
                                   const char *fmt, ...)
{
    if (fmt == NULL || func == NULL || file == NULL) {
        return;
    }
    if ((int)logLevel < (int)ACL_DEBUG || (int)logLevel > (int)ACL_ERROR) {
        return;
    }
    const oa_log_level level = (oa_log_level)logLevel; /* same numbering: 0 debug .. 3 error */
    if (!oa_log_enabled(level, OA_LOG_MODULE)) {
        return;
    }
    char body[APP_LOG_MAX];
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(body, sizeof(body), fmt, ap);
    va_end(ap);
    if (n < 0) {
        oa_log_write(OA_LOG_ERROR, OA_LOG_MODULE, file, (int)line, func, "aclAppLog format string is invalid");
        return;
    }
    if ((size_t)n >= sizeof(body)) {
        /* keep the line within the budget and say that it was cut */
        memcpy(body + sizeof(body) - sizeof(TRUNCATED_MARK), TRUNCATED_MARK, sizeof(TRUNCATED_MARK));
    }
    oa_log_write(level, OA_LOG_MODULE, file, (int)line, func, "%s", body);
}

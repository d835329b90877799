/*
 * CANN-style logging.
 *
 * Line format (as CANN's plog writes it):
 *   [LEVEL] MODULE(pid,process):YYYY-MM-DD-hh:mm:ss.mmm.uuu [file:line]tid func: message
 *
 * Configuration, read from the environment at first use and again by
 * oa_log_reload() (aclInit calls it):
 *   ASCEND_GLOBAL_LOG_LEVEL   0 debug, 1 info, 2 warning, 3 error (default), 4 off
 *   ASCEND_MODULE_LOG_LEVEL   per-module override, "MOD=lvl:MOD=lvl"
 *   ASCEND_LOG_PRINT_TO_STDOUT=1 (or the older ASCEND_SLOG_PRINT_TO_STDOUT=1)
 *                             print to stdout instead of the log file
 *   ASCEND_PROCESS_LOG_PATH > $ASCEND_WORK_PATH/log > $HOME/ascend/log
 *                             log root; files go to <root>/debug/plog/plog-<pid>_<time>.log,
 *                             created at the first line written (a run that logs nothing
 *                             creates no file)
 *   ASCEND_HOST_LOG_FILE_NUM  at most this many plog files (1..1000, default 10) are kept in
 *                             that directory: opening a new file deletes the oldest others
 *   a file is closed at 20 MiB (CANN's plog size) and the next line opens a new one
 *   (OA_LOG_FILE_MAX_BYTES overrides the size, for tests)
 */
#ifndef OA_BASE_LOG_H
#define OA_BASE_LOG_H

#include <stdarg.h>
#include <stdbool.h>

typedef enum oa_log_level {
    OA_LOG_DEBUG = 0,
    OA_LOG_INFO = 1,
    OA_LOG_WARN = 2,
    OA_LOG_ERROR = 3,
    OA_LOG_NONE = 4
} oa_log_level;

/* Module tag printed in each line; a .c file may define OA_LOG_MODULE before including this header. */
#ifndef OA_LOG_MODULE
#define OA_LOG_MODULE "ASCENDCL"
#endif

/* True when a line of this level for this module would be written. */
bool oa_log_enabled(oa_log_level level, const char *module);

/* Writes one line (message truncated to 1024 bytes). Thread-safe. */
void oa_log_write(oa_log_level level, const char *module, const char *file, int line, const char *func,
                  const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void oa_log_vwrite(oa_log_level level, const char *module, const char *file, int line, const char *func,
                   const char *fmt, va_list ap) __attribute__((format(printf, 6, 0)));

/* Re-reads the environment (level, destination). */
void oa_log_reload(void);

#define OA_LOG_AT(lvl, ...)                                                                \
    do {                                                                                   \
        if (oa_log_enabled((lvl), OA_LOG_MODULE)) {                                        \
            oa_log_write((lvl), OA_LOG_MODULE, __FILE__, __LINE__, __func__, __VA_ARGS__); \
        }                                                                                  \
    } while (0)
#define OA_LOGD(...) OA_LOG_AT(OA_LOG_DEBUG, __VA_ARGS__)
#define OA_LOGI(...) OA_LOG_AT(OA_LOG_INFO, __VA_ARGS__)
#define OA_LOGW(...) OA_LOG_AT(OA_LOG_WARN, __VA_ARGS__)
#define OA_LOGE(...) OA_LOG_AT(OA_LOG_ERROR, __VA_ARGS__)

#endif /* OA_BASE_LOG_H */

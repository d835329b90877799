/*
 * CANN-style log sink: level filtering from the environment, stdout or a
 * per-process plog file, one mutex around the sink.
 */
#include "base/log.h"

#include "base/build_info.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define OA_LOG_MSG_MAX 1024
#define OA_LOG_MAX_MODULES 16
#define OA_LOG_DEFAULT_FILE_NUM 10
#define OA_LOG_DEFAULT_FILE_BYTES (20L * 1024 * 1024)

static pthread_mutex_t g_log_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t g_log_once = PTHREAD_ONCE_INIT;
static int g_global_level = OA_LOG_ERROR;
static bool g_to_stdout;
static FILE *g_log_file;
static bool g_log_file_failed;
static char g_log_root[4096];
static char g_log_path[4400]; /* the open file */
static long g_log_bytes;      /* written to it */
static int g_file_num = OA_LOG_DEFAULT_FILE_NUM;
static long g_file_max = OA_LOG_DEFAULT_FILE_BYTES;
static unsigned g_file_seq; /* files this process opened (names stay unique within a second) */
static struct {
    char name[32];
    int level;
} g_modules[OA_LOG_MAX_MODULES];
static int g_module_count;

static int parse_level(const char *s, int fallback)
{
    if (s == NULL || s[0] < '0' || s[0] > '4' || s[1] != '\0') {
        return fallback;
    }
    return s[0] - '0';
}

static void parse_module_levels(const char *spec)
{
    g_module_count = 0;
    if (spec == NULL) {
        return;
    }
    char buf[512];
    snprintf(buf, sizeof(buf), "%s", spec);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ":", &save); tok != NULL && g_module_count < OA_LOG_MAX_MODULES;
         tok = strtok_r(NULL, ":", &save)) {
        char *eq = strchr(tok, '=');
        if (eq == NULL) {
            continue;
        }
        *eq = '\0';
        int lvl = parse_level(eq + 1, -1);
        if (lvl < 0) {
            continue;
        }
        snprintf(g_modules[g_module_count].name, sizeof(g_modules[0].name), "%s", tok);
        g_modules[g_module_count].level = lvl;
        ++g_module_count;
    }
}

static void load_config_locked(void)
{
    g_global_level = parse_level(getenv("ASCEND_GLOBAL_LOG_LEVEL"), OA_LOG_ERROR);
    parse_module_levels(getenv("ASCEND_MODULE_LOG_LEVEL"));
    const char *out = getenv("ASCEND_LOG_PRINT_TO_STDOUT");
    if (out == NULL) {
        out = getenv("ASCEND_SLOG_PRINT_TO_STDOUT");
    }
    g_to_stdout = out != NULL && strcmp(out, "1") == 0;
    const char *num = getenv("ASCEND_HOST_LOG_FILE_NUM");
    char *end = NULL;
    long n = num != NULL ? strtol(num, &end, 10) : 0;
    g_file_num = num != NULL && end != num && *end == '\0' && n >= 1 && n <= 1000 ? (int)n : OA_LOG_DEFAULT_FILE_NUM;
    const char *max = getenv("OA_LOG_FILE_MAX_BYTES");
    n = max != NULL ? strtol(max, &end, 10) : 0;
    g_file_max = max != NULL && end != max && *end == '\0' && n >= 1024 ? n : OA_LOG_DEFAULT_FILE_BYTES;

    const char *proc = getenv("ASCEND_PROCESS_LOG_PATH");
    const char *work = getenv("ASCEND_WORK_PATH");
    const char *home = getenv("HOME");
    if (proc != NULL && proc[0] != '\0') {
        snprintf(g_log_root, sizeof(g_log_root), "%s", proc);
    } else if (work != NULL && work[0] != '\0') {
        snprintf(g_log_root, sizeof(g_log_root), "%s/log", work);
    } else {
        snprintf(g_log_root, sizeof(g_log_root), "%s/ascend/log", home != NULL ? home : "/tmp");
    }
    if (g_log_file != NULL) {
        fclose(g_log_file);
        g_log_file = NULL;
    }
    g_log_file_failed = false;
}

static void init_once(void)
{
    pthread_mutex_lock(&g_log_lock);
    load_config_locked();
    pthread_mutex_unlock(&g_log_lock);
}

void oa_log_reload(void)
{
    pthread_once(&g_log_once, init_once);
    pthread_mutex_lock(&g_log_lock);
    load_config_locked();
    pthread_mutex_unlock(&g_log_lock);
}

bool oa_log_enabled(oa_log_level level, const char *module)
{
    pthread_once(&g_log_once, init_once);
    int threshold = g_global_level;
    for (int i = 0; i < g_module_count; ++i) {
        if (module != NULL && strcmp(g_modules[i].name, module) == 0) {
            threshold = g_modules[i].level;
            break;
        }
    }
    return threshold != OA_LOG_NONE && (int)level >= threshold;
}

/* mkdir -p; returns 0 on success. */
static int make_dirs(const char *path)
{
    char tmp[4400];
    int n = snprintf(tmp, sizeof(tmp), "%s", path);
    if (n < 0 || (size_t)n >= sizeof(tmp)) {
        return -1;
    }
    for (char *p = tmp + 1; *p != '\0'; ++p) {
        if (*p == '/') {
            *p = '\0';
            if (mkdir(tmp, 0750) != 0 && errno != EEXIST) {
                return -1;
            }
            *p = '/';
        }
    }
    if (mkdir(tmp, 0750) != 0 && errno != EEXIST) {
        return -1;
    }
    return 0;
}

static const char *level_name(oa_log_level level);
static const char *process_name(void);
static int write_line_locked(FILE *out, oa_log_level level, const char *module, const char *file, int line,
                             const char *func, const char *msg);

typedef struct plog_entry {
    char name[256];
    time_t mtime;
} plog_entry;

static int cmp_plog_age(const void *a, const void *b)
{
    const plog_entry *x = a, *y = b;
    if (x->mtime != y->mtime) {
        return x->mtime < y->mtime ? -1 : 1;
    }
    return strcmp(x->name, y->name);
}

/* Deletes the oldest plog-*.log files of dir (never `keep`) so that at most `limit` remain. */
static void prune_locked(const char *dir, int limit, const char *keep)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        return;
    }
    size_t n = 0, cap = 0;
    plog_entry *v = NULL;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, "plog-", 5) != 0 || len < 9 || strcmp(e->d_name + len - 4, ".log") != 0 ||
            len >= sizeof(v[0].name)) {
            continue;
        }
        char path[4500];
        struct stat sb;
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) {
            continue;
        }
        if (n == cap) {
            cap = cap != 0 ? cap * 2 : 64;
            plog_entry *nv = realloc(v, cap * sizeof(*nv));
            if (nv == NULL) {
                break;
            }
            v = nv;
        }
        snprintf(v[n].name, sizeof(v[n].name), "%s", e->d_name);
        v[n].mtime = sb.st_mtime;
        ++n;
    }
    closedir(d);
    if (v != NULL && n > (size_t)limit) {
        qsort(v, n, sizeof(*v), cmp_plog_age);
        size_t excess = n - (size_t)limit;
        for (size_t i = 0; i < n && excess > 0; ++i) {
            char path[4500];
            snprintf(path, sizeof(path), "%s/%s", dir, v[i].name);
            if (keep != NULL && strcmp(path, keep) == 0) {
                continue;
            }
            if (unlink(path) == 0 || errno == ENOENT) {
                --excess;
            }
        }
    }
    free(v);
}

static void open_file_locked(void)
{
    char dir[4200];
    snprintf(dir, sizeof(dir), "%s/debug/plog", g_log_root);
    time_t now = time(NULL);
    struct tm tmv;
    localtime_r(&now, &tmv);
    char stamp[32];
    snprintf(stamp, sizeof(stamp), "%04d%02d%02d%02d%02d%02d", tmv.tm_year + 1900, tmv.tm_mon + 1, tmv.tm_mday,
             tmv.tm_hour, tmv.tm_min, tmv.tm_sec);
    if (g_file_seq == 0) {
        snprintf(g_log_path, sizeof(g_log_path), "%s/plog-%d_%s.log", dir, (int)getpid(), stamp);
    } else { /* a rotation within the same second still gets a new file */
        snprintf(g_log_path, sizeof(g_log_path), "%s/plog-%d_%s%03u.log", dir, (int)getpid(), stamp,
                 g_file_seq % 1000u);
    }
    ++g_file_seq;
    if (make_dirs(dir) == 0) {
        g_log_file = fopen(g_log_path, "a");
    }
    if (g_log_file == NULL) {
        g_log_file_failed = true; /* never retry every line; fall back to stderr */
        return;
    }
    setvbuf(g_log_file, NULL, _IOLBF, 0);
    struct stat sb;
    g_log_bytes = fstat(fileno(g_log_file), &sb) == 0 ? (long)sb.st_size : 0;
    prune_locked(dir, g_file_num, g_log_path);
    /* every file says which build wrote it (whatever the level) */
    const int w = write_line_locked(g_log_file, OA_LOG_INFO, "ASCENDCL", __FILE__, __LINE__, __func__,
                                    oa_build_string());
    g_log_bytes += w > 0 ? w : 0;
}

static FILE *sink_locked(void)
{
    if (g_to_stdout) {
        return stdout;
    }
    if (g_log_file != NULL && g_log_bytes >= g_file_max) {
        fclose(g_log_file); /* full: the next line goes to a new file */
        g_log_file = NULL;
    }
    if (g_log_file == NULL && !g_log_file_failed) {
        open_file_locked();
    }
    return g_log_file != NULL ? g_log_file : stderr;
}

static const char *level_name(oa_log_level level)
{
    switch (level) {
    case OA_LOG_DEBUG:
        return "DEBUG";
    case OA_LOG_INFO:
        return "INFO";
    case OA_LOG_WARN:
        return "WARNING";
    default:
        return "ERROR";
    }
}

static const char *process_name(void)
{
    static char name[64];
    if (name[0] == '\0') {
        FILE *f = fopen("/proc/self/comm", "r");
        if (f != NULL) {
            if (fgets(name, sizeof(name), f) != NULL) {
                name[strcspn(name, "\n")] = '\0';
            }
            fclose(f);
        }
        if (name[0] == '\0') {
            snprintf(name, sizeof(name), "app");
        }
    }
    return name;
}

static int write_line_locked(FILE *out, oa_log_level level, const char *module, const char *file, int line,
                             const char *func, const char *msg)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    struct tm tmv;
    localtime_r(&tv.tv_sec, &tmv);
    const char *base = file != NULL ? strrchr(file, '/') : NULL;
    base = base != NULL ? base + 1 : (file != NULL ? file : "?");
    long tid = (long)syscall(SYS_gettid);
    return fprintf(out, "[%s] %s(%d,%s):%04d-%02d-%02d-%02d:%02d:%02d.%03ld.%03ld [%s:%d]%ld %s: %s\n",
                   level_name(level), module != NULL ? module : "ASCENDCL", (int)getpid(), process_name(),
                   tmv.tm_year + 1900, tmv.tm_mon + 1, tmv.tm_mday, tmv.tm_hour, tmv.tm_min, tmv.tm_sec,
                   (long)(tv.tv_usec / 1000), (long)(tv.tv_usec % 1000), base, line, tid, func != NULL ? func : "",
                   msg);
}

void oa_log_vwrite(oa_log_level level, const char *module, const char *file, int line, const char *func,
                   const char *fmt, va_list ap)
{
    char msg[OA_LOG_MSG_MAX + 1];
    vsnprintf(msg, sizeof(msg), fmt, ap);
    pthread_mutex_lock(&g_log_lock);
    FILE *out = sink_locked();
    const int w = write_line_locked(out, level, module, file, line, func, msg);
    if (out == g_log_file && w > 0) {
        g_log_bytes += w;
    }
    if (out == stdout) {
        fflush(stdout);
    }
    pthread_mutex_unlock(&g_log_lock);
}

void oa_log_write(oa_log_level level, const char *module, const char *file, int line, const char *func,
                  const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    oa_log_vwrite(level, module, file, line, func, fmt, ap);
    va_end(ap);
}

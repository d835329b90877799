/*
 * acl_prof.h on a CPU: a profiling session records timestamps of markers,
 * ranges, steps and spans reported by the executors, and writes them as a
 * Chrome trace when it stops (see prof_internal.h).
 *
 * Session rules follow CANN's profiler:
 *  - aclprofInit validates the path (length in [1, 4096), equal to strlen),
 *    creates the directory, and fails with ACL_ERROR_REPEAT_INITIALIZE when
 *    already initialised and ACL_ERROR_PROF_ALREADY_RUN when profiling was
 *    enabled by acl.json / PROFILER_SAMPLECONFIG;
 *  - aclprofStart without aclprofInit initialises implicitly (result path
 *    from aclprofSetConfig(ACL_PROF_PATH) or "./"); a second start with the
 *    same data types succeeds, with other data types it is
 *    ACL_ERROR_INVALID_PROFILING_CONFIG;
 *  - aclprofStop and aclprofFinalize succeed when nothing was initialised;
 *  - msproftx calls (stamps, Mark, Push/Pop, Range*) work only while a
 *    session started with ACL_PROF_MSPROFTX runs; their failures return -1
 *    (CANN's PROFILING_FAILED) rather than an ACL code.
 */

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "base/acl_check.h"
#include "base/hash.h"
#include "base/util.h"
#include "prof/prof_internal.h"
#include "prof/prof_ops.h"

#define PROF_PATH_MAX_LEN 4096
#define PROF_CONFIG_MAX_LEN 256
#define PROF_MAX_DEV_NUM 64
#define TX_MSG_MAX 128
#define TX_STACK_MAX 256
#define MAX_EVENTS (1u << 20)

/* Every ACL_PROF_* data type bit we accept. */
#define PROF_SUPPORTED_SWITCHES                                                                                     \
    (ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_AICORE_METRICS | ACL_PROF_AICPU | ACL_PROF_L2CACHE |         \
     ACL_PROF_HCCL_TRACE | ACL_PROF_TRAINING_TRACE | ACL_PROF_MSPROFTX | ACL_PROF_RUNTIME_API | ACL_PROF_GE_API_L0 | \
     ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_MEMORY | ACL_PROF_GE_API_L1 | ACL_PROF_TASK_TIME_L2 | ACL_PROF_OP_ATTR | \
     ACL_PROF_TASK_TIME_L3 | ACL_PROF_API_STATS | ACL_PROF_AICORE_SHAPE)
#define PROF_DEFAULT_SWITCHES (ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_AICORE_METRICS)

struct aclprofConfig {
    uint32_t devices[PROF_MAX_DEV_NUM];
    uint32_t device_count;
    aclprofAicoreMetrics metrics;
    uint64_t data_types;
};

struct aclprofStepInfo {
    bool started;
    bool ended;
    uint64_t index;
};

/* Stamps live in a process-wide table; the index is the range id. */
typedef struct tx_stamp {
    uint32_t id;
    bool in_use;
    bool range_open;
    uint64_t start_ns;
    char message[TX_MSG_MAX];
} tx_stamp;

typedef enum { MODE_OFF, MODE_API, MODE_ACL_JSON } prof_mode;

typedef struct trace_event {
    char phase; /* 'i' instant, 'X' complete */
    char *name;
    char *category;
    uint64_t ts_ns;
    uint64_t dur_ns;
    uint32_t tid;
} trace_event;

typedef struct range_frame {
    char name[TX_MSG_MAX];
    uint64_t start_ns;
    tx_stamp *stamp; /* aclprofPush frames */
} range_frame;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static prof_mode g_mode;
static char g_result_path[PATH_MAX];
static char g_config_path[PATH_MAX]; /* aclprofSetConfig(ACL_PROF_PATH) */
static bool g_running;
_Atomic uint64_t oa_prof_api_gate; /* g_types, readable without the lock (API spans, prof_internal.h) */
#define g_types_pub oa_prof_api_gate
static uint64_t g_types;
static uint32_t g_devices[PROF_MAX_DEV_NUM];
static uint32_t g_device_count;
static unsigned g_session_seq;
static trace_event *g_events;
static size_t g_event_count;
static size_t g_event_cap;
static tx_stamp **g_stamps;
static size_t g_stamp_cap;
static uint64_t g_step_index;
static cJSON *g_str_ids; /* id -> string, written with the trace */

/* A thread's msproftx stacks (aclprofPush, aclprofRangePushEx): on the heap from the thread's first push and freed
 * when it exits. As thread-local arrays they put 72 KiB into every thread of the process, written when the thread
 * starts (a pool worker's first 100 KiB of memory were mostly these). */
typedef struct tx_stacks {
    range_frame push[TX_STACK_MAX];
    size_t push_depth;
    range_frame range[TX_STACK_MAX];
    size_t range_depth;
} tx_stacks;
static _Thread_local tx_stacks *t_tx;
static pthread_key_t g_tx_key; /* frees t_tx at the thread's exit */
static pthread_once_t g_tx_once = PTHREAD_ONCE_INIT;
static bool g_tx_key_ok;

static void tx_key_create(void)
{
    g_tx_key_ok = pthread_key_create(&g_tx_key, free) == 0;
}

/* The calling thread's stacks; made on the first push (create), NULL when that fails or nothing was pushed. */
static tx_stacks *tx_stacks_of_thread(bool create)
{
    if (t_tx != NULL || !create) {
        return t_tx;
    }
    pthread_once(&g_tx_once, tx_key_create);
    tx_stacks *s = g_tx_key_ok ? calloc(1, sizeof(*s)) : NULL;
    if (s != NULL && pthread_setspecific(g_tx_key, s) != 0) {
        free(s);
        s = NULL;
    }
    t_tx = s;
    return s;
}

static uint32_t current_tid(void)
{
    return (uint32_t)syscall(SYS_gettid);
}

static bool tx_enabled_locked(void)
{
    return g_running && (g_types & ACL_PROF_MSPROFTX) != 0;
}

static void add_event_locked(char phase, const char *category, const char *name, uint64_t ts, uint64_t dur)
{
    if (!g_running || g_event_count >= MAX_EVENTS) {
        return;
    }
    if (g_event_count == g_event_cap) {
        const size_t ncap = g_event_cap == 0 ? 256 : g_event_cap * 2;
        trace_event *n = realloc(g_events, ncap * sizeof(*n));
        if (n == NULL) {
            return;
        }
        g_events = n;
        g_event_cap = ncap;
    }
    trace_event *e = &g_events[g_event_count];
    e->phase = phase;
    e->name = oa_strdup(name);
    e->category = oa_strdup(category);
    if (e->name == NULL || e->category == NULL) {
        free(e->name);
        free(e->category);
        return;
    }
    e->ts_ns = ts;
    e->dur_ns = dur;
    e->tid = current_tid();
    ++g_event_count;
}

static void clear_events_locked(void)
{
    for (size_t i = 0; i < g_event_count; ++i) {
        free(g_events[i].name);
        free(g_events[i].category);
    }
    free(g_events);
    g_events = NULL;
    g_event_count = 0;
    g_event_cap = 0;
    cJSON_Delete(g_str_ids);
    g_str_ids = NULL;
}

/* mkdir -p */
static bool make_dirs(const char *path)
{
    char buf[PATH_MAX];
    if (!oa_strlcpy(buf, path, sizeof(buf))) {
        return false;
    }
    for (char *p = buf + 1; *p != '\0'; ++p) {
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0750) != 0 && errno != EEXIST) {
                return false;
            }
            *p = '/';
        }
    }
    if (mkdir(buf, 0750) != 0 && errno != EEXIST) {
        return false;
    }
    struct stat sb;
    return stat(buf, &sb) == 0 && S_ISDIR(sb.st_mode) && access(buf, W_OK) == 0;
}

/* Absolute, created result directory. */
static oa_status prepare_result_path(const char *path, char *out, size_t cap)
{
    if (!make_dirs(path)) {
        return OA_FAIL(OA_E_INVALID_FILE, "cannot create profiling result directory [%s]: %s", path, strerror(errno));
    }
    char real[PATH_MAX];
    if (realpath(path, real) == NULL || !oa_strlcpy(out, real, cap)) {
        return OA_FAIL(OA_E_INVALID_FILE, "profiling result path [%s] is invalid", path);
    }
    return OA_OK;
}

/* Writes a JSON document to path. */
static bool write_json(const char *path, const cJSON *doc)
{
    char *text = cJSON_PrintUnformatted(doc);
    if (text == NULL) {
        return false;
    }
    FILE *f = fopen(path, "w");
    bool ok = f != NULL && fputs(text, f) >= 0;
    if (f != NULL && fclose(f) != 0) {
        ok = false;
    }
    cJSON_free(text);
    return ok;
}

/* A metadata event (ph "M"). */
static void add_meta(cJSON *events, const char *what, int pid, int tid, const char *key, const char *sval, int ival)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", what);
    cJSON_AddNumberToObject(o, "pid", pid);
    cJSON_AddNumberToObject(o, "tid", tid);
    cJSON_AddStringToObject(o, "ph", "M");
    cJSON *a = cJSON_AddObjectToObject(o, "args");
    if (sval != NULL) {
        cJSON_AddStringToObject(a, key, sval);
    } else {
        cJSON_AddNumberToObject(a, key, ival);
    }
    cJSON_AddItemToArray(events, o);
}

/*
 * api_statistic_<stamp>.csv: the ACL API spans (category AscendCL) per API name, as msprof's export
 * (docs/profiling.md): Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance, by total time.
 */
typedef struct api_stat {
    const char *name;
    uint64_t count;
    double total_us, min_us, max_us, sq_us;
} api_stat;

static int cmp_api_total(const void *a, const void *b)
{
    const api_stat *x = a, *y = b;
    return x->total_us < y->total_us ? 1 : (x->total_us > y->total_us ? -1 : strcmp(x->name, y->name));
}

static bool write_api_statistic_locked(const char *path)
{
    api_stat *st = calloc(g_event_count + 1, sizeof(*st));
    if (st == NULL) {
        return false;
    }
    size_t n = 0;
    for (size_t i = 0; i < g_event_count; ++i) {
        const trace_event *e = &g_events[i];
        if (e->phase != 'X' || strcmp(e->category, "AscendCL") != 0) {
            continue;
        }
        size_t k = 0;
        while (k < n && strcmp(st[k].name, e->name) != 0) {
            ++k;
        }
        const double d = (double)e->dur_ns / 1000.0;
        if (k == n) {
            st[n++] = (api_stat){.name = e->name, .min_us = d, .max_us = d};
        }
        st[k].count++;
        st[k].total_us += d;
        st[k].sq_us += d * d;
        st[k].min_us = d < st[k].min_us ? d : st[k].min_us;
        st[k].max_us = d > st[k].max_us ? d : st[k].max_us;
    }
    qsort(st, n, sizeof(*st), cmp_api_total);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        free(st);
        return false;
    }
    fputs("Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance\n", f);
    for (size_t k = 0; k < n; ++k) {
        const double avg = st[k].total_us / (double)st[k].count;
        double var = st[k].sq_us / (double)st[k].count - avg * avg;
        var = var > 0.0 ? var : 0.0;
        fprintf(f, "acl,%s,%.3f,%llu,%.3f,%.3f,%.3f,%.3f\n", st[k].name, st[k].total_us,
                (unsigned long long)st[k].count, avg, st[k].min_us, st[k].max_us, var);
    }
    free(st);
    return fclose(f) == 0;
}

/*
 * Writes the session that is stopping (docs/profiling.md "Output"):
 *   <result>/PROF_<nnnnnn>_<yyyymmddhhmmssmmm>_<pid 8 digits><8 letters>/
 *       host/, device_0/, mindstudio_profiler_output/msprof_<stamp>.json (a Chrome-trace array),
 *       op_summary_<stamp>.csv, op_statistic_<stamp>.csv, api_statistic_<stamp>.csv (ACL API spans)
 */
static oa_status write_trace_locked(void)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct tm tmv;
    localtime_r(&now.tv_sec, &tmv);
    char stamp[32], full[64];
    strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", &tmv);
    snprintf(full, sizeof(full), "%s%03d", stamp, (int)(now.tv_nsec / 1000000L) % 1000);
    char letters[9];
    unsigned seed = (unsigned)now.tv_nsec ^ (unsigned)getpid();
    for (int i = 0; i < 8; ++i) {
        letters[i] = (char)('A' + rand_r(&seed) % 18);
    }
    letters[8] = '\0';
    g_session_seq = g_session_seq % 999999u + 1u;
    char dir[PATH_MAX + 160], out[PATH_MAX + 192];
    snprintf(dir, sizeof(dir), "%s/PROF_%06u_%s_%08d%s", g_result_path, g_session_seq, full, (int)getpid(), letters);
    snprintf(out, sizeof(out), "%s/mindstudio_profiler_output", dir);
    char host[PATH_MAX + 192], dev[PATH_MAX + 192];
    snprintf(host, sizeof(host), "%s/host/data", dir);
    snprintf(dev, sizeof(dev), "%s/device_0/data", dir);
    if (!make_dirs(out) || !make_dirs(host) || !make_dirs(dev)) {
        return OA_FAIL(OA_E_WRITE_FILE, "cannot create profiling output directory [%s]", dir);
    }
    cJSON *events = cJSON_CreateArray();
    if (events == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot build the profiling trace");
    }
    /* pids as msprof encodes them: (pid << 10) | (layer << 5) | device (31: host) */
    const int pid = (int)getpid();
    const int pid_cann = ((pid & 0x1fffff) << 10) | (1 << 5) | 31;
    const int pid_hw = ((pid & 0x1fffff) << 10) | (2 << 5) | 0;
    const int pid_tx = ((pid & 0x1fffff) << 10) | (0 << 5) | 31;
    add_meta(events, "process_name", pid_cann, 0, "name", "CANN", 0);
    add_meta(events, "process_labels", pid_cann, 0, "labels", "CPU", 0);
    add_meta(events, "process_sort_index", pid_cann, 0, "sort_index", NULL, 1);
    add_meta(events, "process_name", pid_hw, 0, "name", "Ascend Hardware", 0);
    add_meta(events, "process_labels", pid_hw, 0, "labels", "NPU 0", 0);
    add_meta(events, "process_sort_index", pid_hw, 0, "sort_index", NULL, 2);
    add_meta(events, "process_name", pid_tx, 0, "name", "MsprofTx", 0);
    add_meta(events, "process_labels", pid_tx, 0, "labels", "CPU", 0);
    add_meta(events, "process_sort_index", pid_tx, 0, "sort_index", NULL, 0);
    for (size_t i = 0; i < g_event_count; ++i) {
        const trace_event *e = &g_events[i];
        const bool tx = strncmp(e->category, "msproftx", 8) == 0;
        cJSON *o = cJSON_CreateObject();
        char ph[2] = {e->phase, '\0'};
        char ts[48];
        snprintf(ts, sizeof ts, "%llu.%03u", (unsigned long long)(e->ts_ns / 1000u), (unsigned)(e->ts_ns % 1000u));
        cJSON_AddStringToObject(o, "name", e->name);
        cJSON_AddNumberToObject(o, "pid", tx ? pid_tx : pid_cann);
        cJSON_AddNumberToObject(o, "tid", e->tid);
        cJSON_AddStringToObject(o, "ts", ts);
        if (e->phase == 'X') {
            cJSON_AddNumberToObject(o, "dur", (double)e->dur_ns / 1000.0);
        } else {
            cJSON_AddStringToObject(o, "s", "t");
        }
        cJSON_AddStringToObject(o, "ph", ph);
        cJSON_AddStringToObject(o, "cat", e->category);
        cJSON_AddItemToArray(events, o);
    }
    char file[PATH_MAX + 256];
    oa_status st = oa_prof_ops_write(out, stamp, events, pid_hw);
    snprintf(file, sizeof(file), "%s/api_statistic_%s.csv", out, stamp);
    if (st == OA_OK && (g_types & ACL_PROF_ACL_API) != 0 && !write_api_statistic_locked(file)) {
        st = OA_FAIL(OA_E_WRITE_FILE, "cannot write profiling file [%s]", file);
    }
    snprintf(file, sizeof(file), "%s/msprof_%s.json", out, stamp);
    if (st == OA_OK && !write_json(file, events)) {
        st = OA_FAIL(OA_E_WRITE_FILE, "cannot write profiling trace [%s]", file);
    }
    cJSON_Delete(events);
    /* the session's settings, for the curious (not a CANN file) */
    cJSON *info = cJSON_CreateObject();
    char types[32];
    snprintf(types, sizeof(types), "0x%llx", (unsigned long long)g_types);
    cJSON_AddStringToObject(info, "producer", "openacl");
    cJSON_AddStringToObject(info, "dataTypeConfig", types);
    cJSON *devs = cJSON_AddArrayToObject(info, "devices");
    for (uint32_t i = 0; devs != NULL && i < g_device_count; ++i) {
        cJSON_AddItemToArray(devs, cJSON_CreateNumber(g_devices[i]));
    }
    if (g_str_ids != NULL) {
        cJSON_AddItemToObject(info, "str2id", cJSON_Duplicate(g_str_ids, 1));
    }
    snprintf(file, sizeof(file), "%s/host/data/openacl_session.json", dir);
    if (st == OA_OK && !write_json(file, info)) {
        st = OA_FAIL(OA_E_WRITE_FILE, "cannot write profiling file [%s]", file);
    }
    cJSON_Delete(info);
    if (st == OA_OK) {
        OA_LOGI("profiling data written to %s", dir);
    }
    return st;
}

static void start_session_locked(uint64_t types, const uint32_t *devices, uint32_t count)
{
    clear_events_locked();
    oa_prof_ops_clear();
    if ((types & (ACL_PROF_TASK_TIME | ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_TIME_L2 | ACL_PROF_TASK_TIME_L3 |
                  ACL_PROF_AICPU | ACL_PROF_AICORE_METRICS)) != 0) {
        oa_prof_ops_begin(); /* per-task records */
    }
    g_running = true;
    atomic_store_explicit(&g_types_pub, types, memory_order_relaxed);
    g_types = types;
    g_device_count = OA_MIN(count, (uint32_t)PROF_MAX_DEV_NUM);
    if (g_device_count > 0) {
        memcpy(g_devices, devices, g_device_count * sizeof(uint32_t));
    }
}

static oa_status stop_session_locked(void)
{
    if (!g_running) {
        return OA_OK;
    }
    const oa_status st = write_trace_locked();
    g_running = false;
    g_types = 0;
    atomic_store_explicit(&g_types_pub, 0, memory_order_relaxed);
    g_device_count = 0;
    clear_events_locked();
    oa_prof_ops_clear();
    return st;
}

/* ---- session API ---- */

static oa_status init_locked(const char *path)
{
    char abs[PATH_MAX];
    oa_status st = prepare_result_path(path, abs, sizeof(abs));
    if (st != OA_OK) {
        return st;
    }
    oa_strlcpy(g_result_path, abs, sizeof(g_result_path));
    g_mode = MODE_API;
    return OA_OK;
}

MSVP_PROF_API aclError aclprofInit(const char *profilerResultPath, size_t length)
{
    ACL_REQUIRE_NOT_NULL(profilerResultPath);
    ACL_REQUIRE(length > 0 && length < PROF_PATH_MAX_LEN, OA_E_PARAM,
                "length of profilerResultPath [%zu] should be in [1, %d)", length, PROF_PATH_MAX_LEN);
    ACL_REQUIRE(strlen(profilerResultPath) == length, OA_E_PARAM,
                "length [%zu] does not equal strlen(profilerResultPath)", length);
    pthread_mutex_lock(&g_lock);
    oa_status st = OA_OK;
    if (g_mode == MODE_ACL_JSON) {
        st = OA_FAIL(OA_E_PROF_ALREADY_RUN, "profiling is already enabled by acl.json or PROFILER_SAMPLECONFIG");
    } else if (g_mode == MODE_API) {
        st = OA_FAIL(OA_E_REPEAT_INIT, "aclprofInit has already been called");
    } else {
        st = init_locked(profilerResultPath);
    }
    pthread_mutex_unlock(&g_lock);
    ACL_RETURN_STATUS(st);
}

MSVP_PROF_API aclError aclprofFinalize(void)
{
    pthread_mutex_lock(&g_lock);
    oa_status st = OA_OK;
    if (g_mode == MODE_ACL_JSON) {
        st = OA_FAIL(OA_E_PROF_ALREADY_RUN, "profiling was enabled by acl.json; it stops at aclFinalize");
    } else if (g_mode == MODE_API) {
        st = stop_session_locked();
        g_mode = MODE_OFF;
    }
    pthread_mutex_unlock(&g_lock);
    ACL_RETURN_STATUS(st);
}

static bool valid_metrics(aclprofAicoreMetrics m)
{
    return ((int)m >= (int)ACL_AICORE_ARITHMETIC_UTILIZATION && (int)m <= (int)ACL_AICORE_MEMORY_ACCESS) ||
           m == ACL_AICORE_NONE;
}

MSVP_PROF_API aclprofConfig *aclprofCreateConfig(uint32_t *deviceIdList, uint32_t deviceNums,
                                                 aclprofAicoreMetrics aicoreMetrics,
                                                 const aclprofAicoreEvents *aicoreEvents, uint64_t dataTypeConfig)
{
    ACL_REQUIRE_RET(deviceNums == 0 || deviceIdList != NULL, NULL, "deviceIdList is null while deviceNums is %u",
                    deviceNums);
    ACL_REQUIRE_RET(aicoreEvents == NULL, NULL, "aicoreEvents must be null");
    ACL_REQUIRE_RET(deviceNums <= PROF_MAX_DEV_NUM, NULL, "deviceNums [%u] must not exceed %d", deviceNums,
                    PROF_MAX_DEV_NUM);
    uint32_t count = 0;
    if (deviceNums > 0 && aclrtGetDeviceCount(&count) != ACL_SUCCESS) {
        return NULL;
    }
    ACL_REQUIRE_RET(deviceNums <= count, NULL, "deviceNums [%u] should be in range [1, %u]", deviceNums, count);
    for (uint32_t i = 0; i < deviceNums; ++i) {
        ACL_REQUIRE_RET(deviceIdList[i] < count, NULL, "device id %u is not in range [0, %u)", deviceIdList[i], count);
        for (uint32_t j = 0; j < i; ++j) {
            ACL_REQUIRE_RET(deviceIdList[j] != deviceIdList[i], NULL, "device id %u is set twice", deviceIdList[i]);
        }
    }
    ACL_REQUIRE_RET(deviceNums != 0 || (dataTypeConfig & ACL_PROF_MSPROFTX) != 0, NULL,
                    "deviceNums can not be 0 unless ACL_PROF_MSPROFTX is requested");
    aclprofConfig *cfg = calloc(1, sizeof(*cfg));
    ACL_REQUIRE_RET(cfg != NULL, NULL, "cannot allocate a profiling config");
    if (deviceNums > 0) {
        memcpy(cfg->devices, deviceIdList, deviceNums * sizeof(uint32_t));
    }
    cfg->device_count = deviceNums;
    cfg->metrics = aicoreMetrics;
    cfg->data_types = dataTypeConfig;
    return cfg;
}

MSVP_PROF_API aclError aclprofDestroyConfig(const aclprofConfig *profilerConfig)
{
    ACL_REQUIRE_NOT_NULL(profilerConfig);
    free((void *)(uintptr_t)profilerConfig);
    return ACL_SUCCESS;
}

static oa_status check_config(const aclprofConfig *cfg)
{
    if (cfg->data_types == 0) {
        return OA_FAIL(OA_E_PARAM, "dataTypeConfig can not be zero");
    }
    if ((cfg->data_types & ~(uint64_t)PROF_SUPPORTED_SWITCHES) != 0) {
        return OA_FAIL(OA_E_PROF_MODULES_UNSUPPORTED, "dataTypeConfig 0x%llx has unsupported switches (0x%llx)",
                       (unsigned long long)cfg->data_types, (unsigned long long)PROF_SUPPORTED_SWITCHES);
    }
    if ((cfg->data_types & ACL_PROF_AICORE_METRICS) != 0 && !valid_metrics(cfg->metrics)) {
        return OA_FAIL(OA_E_PARAM, "aicoreMetrics [%d] is invalid", (int)cfg->metrics);
    }
    return OA_OK;
}

MSVP_PROF_API aclError aclprofStart(const aclprofConfig *profilerConfig)
{
    aclprofConfig dflt;
    const aclprofConfig *cfg = profilerConfig;
    if (cfg == NULL) {
        /* every device, default data types */
        memset(&dflt, 0, sizeof(dflt));
        uint32_t count = 0;
        if (aclrtGetDeviceCount(&count) == ACL_SUCCESS) {
            dflt.device_count = OA_MIN(count, (uint32_t)PROF_MAX_DEV_NUM);
            for (uint32_t i = 0; i < dflt.device_count; ++i) {
                dflt.devices[i] = i;
            }
        }
        dflt.metrics = ACL_AICORE_PIPE_UTILIZATION;
        dflt.data_types = PROF_DEFAULT_SWITCHES;
        cfg = &dflt;
    }
    oa_status st = check_config(cfg);
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    pthread_mutex_lock(&g_lock);
    if (g_mode == MODE_ACL_JSON) {
        st = OA_FAIL(OA_E_PROF_ALREADY_RUN, "profiling is already enabled by acl.json or PROFILER_SAMPLECONFIG");
    } else if (g_mode == MODE_OFF) {
        st = init_locked(g_config_path[0] != '\0' ? g_config_path : "./");
    }
    if (st == OA_OK) {
        if (g_running) {
            if (g_types != cfg->data_types) {
                st = OA_FAIL(OA_E_PROFILING_CONFIG,
                             "dataTypeConfig 0x%llx differs from the running session (0x%llx)",
                             (unsigned long long)cfg->data_types, (unsigned long long)g_types);
            }
        } else {
            start_session_locked(cfg->data_types, cfg->devices, cfg->device_count);
        }
    }
    pthread_mutex_unlock(&g_lock);
    ACL_RETURN_STATUS(st);
}

MSVP_PROF_API aclError aclprofStop(const aclprofConfig *profilerConfig)
{
    pthread_mutex_lock(&g_lock);
    oa_status st = OA_OK;
    if (g_mode == MODE_OFF) {
        st = OA_OK; /* nothing initialised: stop is a no-op */
    } else if (g_mode == MODE_ACL_JSON) {
        st = OA_FAIL(OA_E_PROF_ALREADY_RUN, "profiling was enabled by acl.json; it stops at aclFinalize");
    } else if (profilerConfig == NULL && !g_running) {
        st = OA_OK;
    } else if (!g_running) {
        st = OA_FAIL(OA_E_PROF_NOT_RUN, "profiling has not been started");
    } else if (profilerConfig != NULL && profilerConfig->data_types != g_types) {
        st = OA_FAIL(OA_E_PROFILING_CONFIG, "dataTypeConfig 0x%llx of aclprofStop differs from aclprofStart (0x%llx)",
                     (unsigned long long)profilerConfig->data_types, (unsigned long long)g_types);
    } else {
        st = stop_session_locked();
    }
    pthread_mutex_unlock(&g_lock);
    ACL_RETURN_STATUS(st);
}

static bool is_uint_text(const char *s, unsigned long long lo, unsigned long long hi)
{
    if (*s == '\0') {
        return false;
    }
    for (const char *p = s; *p != '\0'; ++p) {
        if (*p < '0' || *p > '9') {
            return false;
        }
    }
    errno = 0;
    const unsigned long long v = strtoull(s, NULL, 10);
    return errno == 0 && v >= lo && v <= hi;
}

/* Every comma-separated item of s is one of allowed. */
static bool is_item_list(const char *s, const char *const *allowed)
{
    char buf[PROF_CONFIG_MAX_LEN + 1];
    if (!oa_strlcpy(buf, s, sizeof(buf)) || buf[0] == '\0') {
        return false;
    }
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
        bool ok = false;
        for (size_t i = 0; allowed[i] != NULL; ++i) {
            ok = ok || strcmp(tok, allowed[i]) == 0;
        }
        if (!ok) {
            return false;
        }
    }
    return true;
}

static bool valid_set_config(aclprofConfigType type, const char *v)
{
    static const char *const kHostSys[] = {"cpu", "mem", "disk", "network", "osrt", NULL};
    static const char *const kHostUsage[] = {"cpu", "mem", NULL};
    static const char *const kLlc[] = {"read", "write", "capacity", "bandwidth", NULL};
    switch (type) {
    case ACL_PROF_STORAGE_LIMIT: {
        /* "<n>MB", n in [200, 4294967295] */
        const size_t n = strlen(v);
        if (n < 3 || strcmp(v + n - 2, "MB") != 0) {
            return false;
        }
        char num[32];
        if (n - 2 >= sizeof(num)) {
            return false;
        }
        memcpy(num, v, n - 2);
        num[n - 2] = '\0';
        return is_uint_text(num, 200, 4294967295ull);
    }
    case ACL_PROF_SYS_HARDWARE_MEM_FREQ:
    case ACL_PROF_SYS_IO_FREQ:
    case ACL_PROF_SYS_INTERCONNECTION_FREQ:
    case ACL_PROF_DVPP_FREQ:
    case ACL_PROF_HOST_SYS_USAGE_FREQ:
    case ACL_PROF_LOW_POWER_FREQ:
    case ACL_PROF_SYS_CPU_FREQ:
        return is_uint_text(v, 1, 100);
    case ACL_PROF_LLC_MODE:
        return is_item_list(v, kLlc);
    case ACL_PROF_HOST_SYS:
        return is_item_list(v, kHostSys);
    case ACL_PROF_HOST_SYS_USAGE:
        return is_item_list(v, kHostUsage);
    case ACL_PROF_SYS_MEM_SERVICEFLOW:
    case ACL_PROF_OPTYPE:
    case ACL_PROF_NTS_METRICS:
    case ACL_PROF_PATH:
        return v[0] != '\0';
    default:
        return false;
    }
}

MSVP_PROF_API aclError aclprofSetConfig(aclprofConfigType configType, const char *config, size_t configLength)
{
    ACL_REQUIRE((int)configType > (int)ACL_PROF_ARGS_MIN && (int)configType < (int)ACL_PROF_ARGS_MAX, OA_E_PARAM,
                "configType [%d] should be in (ACL_PROF_ARGS_MIN, ACL_PROF_ARGS_MAX)", (int)configType);
    ACL_REQUIRE(configLength <= PROF_CONFIG_MAX_LEN, OA_E_PARAM, "configLength [%zu] must not exceed %d",
                configLength, PROF_CONFIG_MAX_LEN);
    ACL_REQUIRE_NOT_NULL(config);
    ACL_REQUIRE(strlen(config) == configLength, OA_E_PARAM, "configLength [%zu] does not equal strlen(config)",
                configLength);
    if (!valid_set_config(configType, config)) {
        const oa_status bad = configType == ACL_PROF_NTS_METRICS ? OA_E_PARAM : OA_E_PROFILING_CONFIG;
        ACL_RETURN_STATUS(OA_FAIL(bad, "value [%s] is invalid for profiling config type %d", config, (int)configType));
    }
    if (configType == ACL_PROF_PATH) {
        pthread_mutex_lock(&g_lock);
        oa_strlcpy(g_config_path, config, sizeof(g_config_path));
        pthread_mutex_unlock(&g_lock);
    }
    return ACL_SUCCESS;
}

/* ---- subscription configs and operator information ---- */

/* ---- steps ---- */

MSVP_PROF_API aclprofStepInfo *aclprofCreateStepInfo(void)
{
    aclprofStepInfo *s = calloc(1, sizeof(*s));
    ACL_REQUIRE_RET(s != NULL, NULL, "cannot allocate step info");
    pthread_mutex_lock(&g_lock);
    s->index = ++g_step_index;
    pthread_mutex_unlock(&g_lock);
    return s;
}

MSVP_PROF_API void aclprofDestroyStepInfo(aclprofStepInfo *stepinfo)
{
    if (stepinfo == NULL) {
        (void)OA_FAIL(OA_E_PARAM, "parameter [stepinfo] must not be null");
        return;
    }
    free(stepinfo);
}

MSVP_PROF_API aclError aclprofGetStepTimestamp(aclprofStepInfo *stepInfo, aclprofStepTag tag, aclrtStream stream)
{
    OA_UNUSED(stream);
    ACL_REQUIRE_NOT_NULL(stepInfo);
    ACL_REQUIRE(!(stepInfo->started && tag == ACL_STEP_START), OA_E_PARAM, "this step info was already started");
    ACL_REQUIRE(!(stepInfo->ended && tag == ACL_STEP_END), OA_E_PARAM, "this step info was already ended");
    if (tag == ACL_STEP_START) {
        stepInfo->started = true;
    } else {
        stepInfo->ended = true;
    }
    char name[64];
    snprintf(name, sizeof(name), "step %llu %s", (unsigned long long)stepInfo->index,
             tag == ACL_STEP_START ? "start" : "end");
    pthread_mutex_lock(&g_lock);
    add_event_locked('i', "step", name, oa_now_ns(), 0);
    pthread_mutex_unlock(&g_lock);
    return ACL_SUCCESS;
}

/* ---- msproftx ---- */

#define TX_FAIL(...) oa_status_to_acl(OA_FAIL(OA_E_PROF_TX, __VA_ARGS__))

/* Stamp pointer check: must be a live stamp of the table. */
static tx_stamp *find_stamp_locked(void *p)
{
    const tx_stamp *s = p;
    for (size_t i = 0; i < g_stamp_cap; ++i) {
        if (g_stamps[i] == s && s->in_use) {
            return g_stamps[i];
        }
    }
    return NULL;
}

MSVP_PROF_API void *aclprofCreateStamp(void)
{
    pthread_mutex_lock(&g_lock);
    tx_stamp *s = NULL;
    if (!tx_enabled_locked()) {
        (void)OA_FAIL(OA_E_PROF_TX, "aclprofStart with ACL_PROF_MSPROFTX must be called before aclprofCreateStamp");
    } else {
        size_t slot = g_stamp_cap;
        for (size_t i = 0; i < g_stamp_cap; ++i) {
            if (g_stamps[i] == NULL) {
                slot = i;
                break;
            }
        }
        if (slot == g_stamp_cap) {
            const size_t ncap = g_stamp_cap == 0 ? 64 : g_stamp_cap * 2;
            tx_stamp **n = realloc(g_stamps, ncap * sizeof(*n));
            if (n != NULL) {
                memset(n + g_stamp_cap, 0, (ncap - g_stamp_cap) * sizeof(*n));
                g_stamps = n;
                g_stamp_cap = ncap;
            }
        }
        if (slot < g_stamp_cap) {
            s = calloc(1, sizeof(*s));
            if (s != NULL) {
                s->id = (uint32_t)slot;
                s->in_use = true;
                g_stamps[slot] = s;
            }
        }
        if (s == NULL) {
            (void)OA_FAIL(OA_E_NOMEM, "cannot allocate a stamp");
        }
    }
    pthread_mutex_unlock(&g_lock);
    return s;
}

MSVP_PROF_API void aclprofDestroyStamp(void *stamp)
{
    if (stamp == NULL) {
        (void)OA_FAIL(OA_E_PARAM, "parameter [stamp] must not be null");
        return;
    }
    pthread_mutex_lock(&g_lock);
    tx_stamp *s = find_stamp_locked(stamp);
    if (s != NULL) {
        g_stamps[s->id] = NULL;
        free(s);
    } else {
        (void)OA_FAIL(OA_E_PARAM, "stamp %p was not created by aclprofCreateStamp", stamp);
    }
    pthread_mutex_unlock(&g_lock);
}

MSVP_PROF_API aclError aclprofSetStampTraceMessage(void *stamp, const char *msg, uint32_t msgLen)
{
    if (stamp == NULL) {
        return TX_FAIL("parameter [stamp] must not be null");
    }
    if (msgLen >= TX_MSG_MAX) {
        return TX_FAIL("msgLen %u must be less than %d", msgLen, TX_MSG_MAX);
    }
    if (msg == NULL) {
        return TX_FAIL("parameter [msg] must not be null");
    }
    pthread_mutex_lock(&g_lock);
    tx_stamp *s = find_stamp_locked(stamp);
    if (s != NULL) {
        const size_t n = strnlen(msg, msgLen);
        memcpy(s->message, msg, n);
        s->message[n] = '\0';
    }
    pthread_mutex_unlock(&g_lock);
    return s != NULL ? ACL_SUCCESS : TX_FAIL("stamp %p was not created by aclprofCreateStamp", stamp);
}

MSVP_PROF_API aclError aclprofMark(void *stamp)
{
    pthread_mutex_lock(&g_lock);
    aclError ret = ACL_SUCCESS;
    if (!tx_enabled_locked()) {
        ret = TX_FAIL("msproftx is not enabled: start profiling with ACL_PROF_MSPROFTX first");
    } else if (stamp == NULL) {
        ret = TX_FAIL("parameter [stamp] must not be null");
    } else {
        tx_stamp *s = find_stamp_locked(stamp);
        if (s == NULL) {
            ret = TX_FAIL("stamp %p was not created by aclprofCreateStamp", stamp);
        } else {
            add_event_locked('i', "msproftx", s->message[0] != '\0' ? s->message : "mark", oa_now_ns(), 0);
        }
    }
    pthread_mutex_unlock(&g_lock);
    return ret;
}

MSVP_PROF_API aclError aclprofMarkEx(const char *msg, size_t msgLen, aclrtStream stream)
{
    pthread_mutex_lock(&g_lock);
    aclError ret = ACL_SUCCESS;
    if (!tx_enabled_locked()) {
        ret = TX_FAIL("msproftx is not enabled: start profiling with ACL_PROF_MSPROFTX first");
    } else if (msg == NULL || stream == NULL || strlen(msg) != msgLen) {
        ret = TX_FAIL("invalid input for aclprofMarkEx (msg, stream and msgLen == strlen(msg) are required)");
    } else if (msgLen < 1 || msgLen > TX_MSG_MAX - 1) {
        ret = TX_FAIL("message length %zu should be in range [1, %d]", msgLen, TX_MSG_MAX - 1);
    } else {
        add_event_locked('i', "msproftx", msg, oa_now_ns(), 0);
    }
    pthread_mutex_unlock(&g_lock);
    return ret;
}

MSVP_PROF_API aclError aclprofPush(void *stamp)
{
    pthread_mutex_lock(&g_lock);
    aclError ret = ACL_SUCCESS;
    tx_stacks *tx = NULL;
    tx_stamp *s = NULL;
    if (!tx_enabled_locked()) {
        ret = TX_FAIL("msproftx is not enabled: start profiling with ACL_PROF_MSPROFTX first");
    } else if (stamp == NULL) {
        ret = TX_FAIL("parameter [stamp] must not be null");
    } else if ((s = find_stamp_locked(stamp)) == NULL) {
        ret = TX_FAIL("stamp %p was not created by aclprofCreateStamp", stamp);
    } else if ((tx = tx_stacks_of_thread(true)) == NULL) {
        ret = oa_status_to_acl(OA_FAIL(OA_E_NOMEM, "aclprofPush: no memory for the thread's range stack"));
    } else if (tx->push_depth >= TX_STACK_MAX) {
        ret = TX_FAIL("aclprofPush nesting exceeds %d", TX_STACK_MAX);
    } else {
        range_frame *f = &tx->push[tx->push_depth++];
        oa_strlcpy(f->name, s->message[0] != '\0' ? s->message : "push", sizeof(f->name));
        f->start_ns = oa_now_ns();
        f->stamp = s;
    }
    pthread_mutex_unlock(&g_lock);
    return ret;
}

MSVP_PROF_API aclError aclprofPop(void)
{
    pthread_mutex_lock(&g_lock);
    aclError ret = ACL_SUCCESS;
    tx_stacks *tx = tx_stacks_of_thread(false);
    if (!tx_enabled_locked()) {
        ret = TX_FAIL("msproftx is not enabled: start profiling with ACL_PROF_MSPROFTX first");
    } else if (tx == NULL || tx->push_depth == 0) {
        ret = TX_FAIL("aclprofPop without a matching aclprofPush");
    } else {
        const range_frame *f = &tx->push[--tx->push_depth];
        const uint64_t now = oa_now_ns();
        add_event_locked('X', "msproftx", f->name, f->start_ns, now - f->start_ns);
    }
    pthread_mutex_unlock(&g_lock);
    return ret;
}

MSVP_PROF_API aclError aclprofRangeStart(void *stamp, uint32_t *rangeId)
{
    pthread_mutex_lock(&g_lock);
    aclError ret = ACL_SUCCESS;
    tx_stamp *s = NULL;
    if (!tx_enabled_locked()) {
        ret = TX_FAIL("msproftx is not enabled: start profiling with ACL_PROF_MSPROFTX first");
    } else if (stamp == NULL || rangeId == NULL) {
        ret = TX_FAIL("parameters [stamp] and [rangeId] must not be null");
    } else if ((s = find_stamp_locked(stamp)) == NULL) {
        ret = TX_FAIL("stamp %p was not created by aclprofCreateStamp", stamp);
    } else {
        s->start_ns = oa_now_ns();
        s->range_open = true;
        *rangeId = s->id;
    }
    pthread_mutex_unlock(&g_lock);
    return ret;
}

MSVP_PROF_API aclError aclprofRangeStop(uint32_t rangeId)
{
    pthread_mutex_lock(&g_lock);
    aclError ret = ACL_SUCCESS;
    tx_stamp *s = rangeId < g_stamp_cap ? g_stamps[rangeId] : NULL;
    if (!tx_enabled_locked()) {
        ret = TX_FAIL("msproftx is not enabled: start profiling with ACL_PROF_MSPROFTX first");
    } else if (s == NULL || !s->range_open) {
        ret = TX_FAIL("range id %u was not started by aclprofRangeStart", rangeId);
    } else {
        const uint64_t now = oa_now_ns();
        add_event_locked('X', "msproftx", s->message[0] != '\0' ? s->message : "range", s->start_ns,
                         now - s->start_ns);
        s->range_open = false;
    }
    pthread_mutex_unlock(&g_lock);
    return ret;
}

MSVP_PROF_API uint64_t aclprofStr2Id(const char *message)
{
    if (message == NULL) {
        (void)OA_FAIL(OA_E_PARAM, "parameter [message] must not be null");
        return 0;
    }
    const uint64_t id = oa_fnv1a64_str(message);
    pthread_mutex_lock(&g_lock);
    if (g_running) {
        if (g_str_ids == NULL) {
            g_str_ids = cJSON_CreateObject();
        }
        char key[24];
        snprintf(key, sizeof(key), "%llu", (unsigned long long)id);
        if (g_str_ids != NULL && cJSON_GetObjectItemCaseSensitive(g_str_ids, key) == NULL) {
            cJSON_AddStringToObject(g_str_ids, key, message);
        }
    }
    pthread_mutex_unlock(&g_lock);
    return id;
}

/* Name shown for a RangePushEx event: the operator name id looked up in the Str2Id table. */
static void tensor_info_name_locked(const aclprofTensorInfo *ti, char *out, size_t cap)
{
    char key[24];
    snprintf(key, sizeof(key), "%llu", (unsigned long long)ti->opNameId);
    const cJSON *v = g_str_ids != NULL ? cJSON_GetObjectItemCaseSensitive(g_str_ids, key) : NULL;
    if (cJSON_IsString(v)) {
        oa_strlcpy(out, v->valuestring, cap);
    } else {
        snprintf(out, cap, "op %llu", (unsigned long long)ti->opNameId);
    }
}

MSVP_PROF_API aclError aclprofRangePushEx(aclprofEventAttributes *attr)
{
    pthread_mutex_lock(&g_lock);
    aclError ret = ACL_SUCCESS;
    tx_stacks *tx = NULL;
    if (!tx_enabled_locked()) {
        ret = TX_FAIL("msproftx is not enabled: start profiling with ACL_PROF_MSPROFTX first");
    } else if (attr == NULL || attr->version != ACL_PROF_EVENT_ATTR_VERSION ||
               attr->messageType != (uint32_t)ACL_PROF_MESSAGE_TYPE_TENSOR_INFO || attr->message.tensorInfo == NULL) {
        ret = TX_FAIL("event attributes are invalid (version %d, tensor info message required)",
                      ACL_PROF_EVENT_ATTR_VERSION);
    } else if ((tx = tx_stacks_of_thread(true)) == NULL) {
        ret = oa_status_to_acl(OA_FAIL(OA_E_NOMEM, "aclprofRangePushEx: no memory for the thread's range stack"));
    } else if (tx->range_depth >= TX_STACK_MAX) {
        ret = TX_FAIL("aclprofRangePushEx nesting exceeds %d", TX_STACK_MAX);
    } else {
        range_frame *f = &tx->range[tx->range_depth++];
        tensor_info_name_locked(attr->message.tensorInfo, f->name, sizeof(f->name));
        f->start_ns = oa_now_ns();
        f->stamp = NULL;
    }
    pthread_mutex_unlock(&g_lock);
    return ret;
}

MSVP_PROF_API aclError aclprofRangePop(void)
{
    pthread_mutex_lock(&g_lock);
    aclError ret = ACL_SUCCESS;
    tx_stacks *tx = tx_stacks_of_thread(false);
    if (!tx_enabled_locked()) {
        ret = TX_FAIL("msproftx is not enabled: start profiling with ACL_PROF_MSPROFTX first");
    } else if (tx == NULL || tx->range_depth == 0) {
        ret = TX_FAIL("aclprofRangePop without a matching aclprofRangePushEx");
    } else {
        const range_frame *f = &tx->range[--tx->range_depth];
        add_event_locked('X', "msproftx", f->name, f->start_ns, oa_now_ns() - f->start_ns);
    }
    pthread_mutex_unlock(&g_lock);
    return ret;
}

/* ---- internal API ---- */

bool oa_prof_session_configured(void)
{
    pthread_mutex_lock(&g_lock);
    const bool on = g_mode != MODE_OFF;
    pthread_mutex_unlock(&g_lock);
    return on;
}

uint64_t oa_prof_api_now(void)
{
    const uint64_t t = oa_now_ns();
    return t != 0 ? t : 1; /* 0 means "not recorded" */
}

void oa_prof_api_end(const char *api, uint64_t t0)
{
    if (t0 != 0) {
        oa_prof_record_span("AscendCL", api, t0, oa_now_ns());
    }
}

bool oa_prof_running(uint64_t *data_types)
{
    pthread_mutex_lock(&g_lock);
    const bool on = g_running;
    if (data_types != NULL) {
        *data_types = on ? g_types : 0;
    }
    pthread_mutex_unlock(&g_lock);
    return on;
}

void oa_prof_record_span(const char *category, const char *name, uint64_t start_ns, uint64_t end_ns)
{
    pthread_mutex_lock(&g_lock);
    add_event_locked('X', category == NULL ? "op" : category, name == NULL ? "" : name, start_ns,
                     end_ns >= start_ns ? end_ns - start_ns : 0);
    pthread_mutex_unlock(&g_lock);
}

/* Keys msprof accepts in the acl.json "profiler" object; the first group must be strings. */
static const char *const kProfilerStringKeys[] = {
    "switch",   "aic_metrics", "aicpu",       "l2",          "hccl",        "msproftx",        "instr_profiling",
    "task_tsfw", "ascendcl",   "task_trace",  "task_time",   "runtime_api", "ge_api",          "task_memory",
    "llc_profiling", "host_sys", "host_sys_usage", "sys_mem_serviceflow", "training_trace", "task_block", NULL};
static const char *const kProfilerOtherKeys[] = {
    "output", "storage_limit", "instr_profiling_freq", "sys_hardware_mem_freq", "sys_io_sampling_freq",
    "sys_interconnection_freq", "sys_cpu_freq", "dvpp_freq", "host_sys_usage_freq", "sys_lp_freq", "optype", NULL};

static bool in_names(const char *const *names, const char *s)
{
    for (size_t i = 0; names[i] != NULL; ++i) {
        if (strcmp(names[i], s) == 0) {
            return true;
        }
    }
    return false;
}

static bool on_value(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(v) && strcmp(v->valuestring, "on") == 0;
}

oa_status oa_prof_apply_init_config(const cJSON *profiler, const char *env_text)
{
    cJSON *env_json = NULL;
    const cJSON *cfg = profiler;
    const char *origin = "acl.json \"profiler\"";
    if (env_text != NULL && env_text[0] != '\0') {
        env_json = cJSON_Parse(env_text);
        if (env_json == NULL) {
            return OA_FAIL(OA_E_PARAM, "PROFILER_SAMPLECONFIG is not valid JSON");
        }
        cfg = env_json;
        origin = "PROFILER_SAMPLECONFIG";
    }
    if (cfg == NULL) {
        return OA_OK;
    }
    oa_status st = OA_OK;
    if (!cJSON_IsObject(cfg)) {
        st = OA_FAIL(OA_E_PARAM, "%s must be a JSON object", origin);
    }
    const cJSON *it;
    const cJSON *members = cJSON_IsObject(cfg) ? cfg : NULL;
    cJSON_ArrayForEach(it, members)
    {
        if (st != OA_OK) {
            break;
        }
        if (in_names(kProfilerStringKeys, it->string)) {
            if (!cJSON_IsString(it)) {
                st = OA_FAIL(OA_E_PARAM, "%s item [%s] must be a string", origin, it->string);
            } else if (strcmp(it->string, "switch") == 0 && strcmp(it->valuestring, "on") != 0 &&
                       strcmp(it->valuestring, "off") != 0) {
                st = OA_FAIL(OA_E_PARAM, "%s item [switch] must be \"on\" or \"off\"", origin);
            }
        } else if (!in_names(kProfilerOtherKeys, it->string)) {
            st = OA_FAIL(OA_E_PARAM, "%s item [%s] is not a profiling option", origin, it->string);
        } else if (strcmp(it->string, "output") == 0 && !cJSON_IsString(it)) {
            st = OA_FAIL(OA_E_PARAM, "%s item [output] must be a string", origin);
        }
    }
    if (st == OA_OK && on_value(cfg, "switch")) {
        const cJSON *out = cJSON_GetObjectItemCaseSensitive(cfg, "output");
        const char *dir = cJSON_IsString(out) && out->valuestring[0] != '\0' ? out->valuestring : "./";
        uint64_t types = ACL_PROF_ACL_API | ACL_PROF_TASK_TIME;
        const cJSON *tt = cJSON_GetObjectItemCaseSensitive(cfg, "task_time");
        if (cJSON_IsString(tt) && strcmp(tt->valuestring, "off") == 0) {
            types &= ~(uint64_t)ACL_PROF_TASK_TIME; /* no operator records */
        }
        const cJSON *acl_api = cJSON_GetObjectItemCaseSensitive(cfg, "ascendcl");
        if (cJSON_IsString(acl_api) && strcmp(acl_api->valuestring, "off") == 0) {
            types &= ~(uint64_t)ACL_PROF_ACL_API;
        }
        if (on_value(cfg, "msproftx")) {
            types |= ACL_PROF_MSPROFTX;
        }
        if (on_value(cfg, "aicpu")) {
            types |= ACL_PROF_AICPU;
        }
        if (on_value(cfg, "runtime_api")) {
            types |= ACL_PROF_RUNTIME_API;
        }
        pthread_mutex_lock(&g_lock);
        if (g_mode == MODE_API) {
            (void)stop_session_locked(); /* command-line style profiling takes over, as in CANN */
        }
        char abs[PATH_MAX];
        st = prepare_result_path(dir, abs, sizeof(abs));
        if (st == OA_OK) {
            oa_strlcpy(g_result_path, abs, sizeof(g_result_path));
            g_mode = MODE_ACL_JSON;
            start_session_locked(types, NULL, 0);
        } else {
            st = OA_FAIL(OA_E_PARAM, "%s output [%s] cannot be used", origin, dir);
        }
        pthread_mutex_unlock(&g_lock);
    }
    cJSON_Delete(env_json);
    return st;
}

void oa_prof_cancel_init_config(void)
{
    pthread_mutex_lock(&g_lock);
    if (g_mode == MODE_ACL_JSON) {
        /* the aclInit that started it failed: nothing ran, so nothing is written (no PROF_* directory) */
        g_running = false;
        g_types = 0;
        g_device_count = 0;
        clear_events_locked();
        g_mode = MODE_OFF;
    }
    pthread_mutex_unlock(&g_lock);
}

void oa_prof_on_acl_finalize(void)
{
    /* like CANN's MsprofFinalize: whatever still runs is stopped and written */
    pthread_mutex_lock(&g_lock);
    if (g_mode != MODE_OFF) {
        (void)stop_session_locked();
        g_mode = MODE_OFF;
    }
    pthread_mutex_unlock(&g_lock);
}

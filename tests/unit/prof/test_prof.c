/* acl_prof.h: session rules, msproftx markers, steps, operator records and the Chrome trace. */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"

#define C_EQ(a, b)                                                                                          \
    do {                                                                                                    \
        const long long a_ = (long long)(a);                                                                \
        const long long b_ = (long long)(b);                                                                \
        if (a_ != b_) {                                                                                     \
            fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n", __FILE__, __LINE__, #a, a_, #b, b_); \
            _exit(1);                                                                                       \
        }                                                                                                   \
    } while (0)
#define C_TRUE(x) C_EQ(!!(x), 1)
#define C_CODE(call, code)                                                                                  \
    do {                                                                                                    \
        C_EQ(call, code);                                                                                   \
        if ((code) != ACL_SUCCESS) {                                                                        \
            C_TRUE(aclGetRecentErrMsg() != NULL);                                                           \
        }                                                                                                   \
    } while (0)

static char g_dir[PATH_MAX];

/* aclprofPop / aclprofRangePop on a thread of their own: each thread has its own range stacks */
static void *pop_on_thread(void *arg)
{
    int *codes = arg;
    codes[0] = aclprofPop();
    codes[1] = aclprofRangePop();
    return NULL;
}

static void run_child(void (*fn)(void))
{
    fflush(NULL);
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        fn();
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* The first msprof_*.json timeline under dir as {"traceEvents": [...]}, NULL if there is none. */
static cJSON *load_trace(const char *dir)
{
    char cmd[PATH_MAX + 96];
    snprintf(cmd, sizeof(cmd), "find '%s' -path '*mindstudio_profiler_output/msprof_*.json' | head -n 1", dir);
    FILE *p = popen(cmd, "r");
    char path[PATH_MAX] = "";
    if (p == NULL || fgets(path, sizeof(path), p) == NULL) {
        if (p != NULL) {
            pclose(p);
        }
        return NULL;
    }
    pclose(p);
    path[strcspn(path, "\n")] = '\0';
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return NULL;
    }
    static char text[1 << 20];
    const size_t n = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    text[n] = '\0';
    cJSON *arr = cJSON_Parse(text);
    if (!cJSON_IsArray(arr)) {
        cJSON_Delete(arr);
        return NULL;
    }
    cJSON *root = cJSON_CreateObject();
    cJSON_AddItemToObject(root, "traceEvents", arr);
    /* the session settings next to it (host/data/openacl_session.json of the PROF dir) as "otherData" */
    char *cut = strstr(path, "/mindstudio_profiler_output/");
    if (cut != NULL) {
        strcpy(cut, "/host/data/openacl_session.json");
        f = fopen(path, "r");
        if (f != NULL) {
            const size_t m = fread(text, 1, sizeof(text) - 1, f);
            fclose(f);
            text[m] = '\0';
            cJSON_AddItemToObject(root, "otherData", cJSON_Parse(text));
        }
    }
    return root;
}

/* Number of trace events named name with phase ph. */
static int count_events(const cJSON *trace, const char *name, const char *ph)
{
    int n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(trace, "traceEvents"))
    {
        const cJSON *nm = cJSON_GetObjectItem(e, "name");
        const cJSON *p = cJSON_GetObjectItem(e, "ph");
        if (cJSON_IsString(nm) && strcmp(nm->valuestring, name) == 0 && strcmp(p->valuestring, ph) == 0) {
            ++n;
        }
    }
    return n;
}

static void sc_init_rules(void)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof(path), "%s/init/deep", g_dir);
    C_CODE(aclprofInit(NULL, 4), ACL_ERROR_INVALID_PARAM);
    C_CODE(aclprofInit(path, 0), ACL_ERROR_INVALID_PARAM);
    C_CODE(aclprofInit(path, strlen(path) - 1), ACL_ERROR_INVALID_PARAM);
    C_CODE(aclprofInit(path, 4096), ACL_ERROR_INVALID_PARAM);
    C_CODE(aclprofInit("/proc/not_allowed", strlen("/proc/not_allowed")), ACL_ERROR_INVALID_FILE);
    C_CODE(aclprofStop(NULL), ACL_SUCCESS);   /* nothing initialised */
    C_CODE(aclprofFinalize(), ACL_SUCCESS);   /* nothing initialised */
    C_CODE(aclprofInit(path, strlen(path)), ACL_SUCCESS);
    struct stat sb;
    C_EQ(stat(path, &sb), 0);
    C_CODE(aclprofInit(path, strlen(path)), ACL_ERROR_REPEAT_INITIALIZE);
    C_CODE(aclprofFinalize(), ACL_SUCCESS);
    C_CODE(aclprofFinalize(), ACL_SUCCESS);
    C_CODE(aclprofInit(path, strlen(path)), ACL_SUCCESS); /* again after finalize */
    C_CODE(aclprofFinalize(), ACL_SUCCESS);
}

static void sc_sessions(void)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof(path), "%s/sessions", g_dir);
    C_CODE(aclprofSetConfig(ACL_PROF_PATH, path, strlen(path)), ACL_SUCCESS);
    aclprofConfig *api = aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, ACL_PROF_MSPROFTX | ACL_PROF_ACL_API);
    C_TRUE(api != NULL);
    aclprofConfig *other = aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, ACL_PROF_MSPROFTX);
    C_TRUE(other != NULL);
    /* start without aclprofInit initialises with the ACL_PROF_PATH directory */
    C_CODE(aclprofStart(api), ACL_SUCCESS);
    C_CODE(aclprofStart(api), ACL_SUCCESS); /* same data types: fine */
    C_CODE(aclprofStart(other), ACL_ERROR_INVALID_PROFILING_CONFIG);
    C_CODE(aclprofStop(other), ACL_ERROR_INVALID_PROFILING_CONFIG);
    C_CODE(aclprofInit(path, strlen(path)), ACL_ERROR_REPEAT_INITIALIZE);
    void *stamp = aclprofCreateStamp();
    C_TRUE(stamp != NULL);
    C_CODE(aclprofSetStampTraceMessage(stamp, "epoch", 5), ACL_SUCCESS);
    C_CODE(aclprofMark(stamp), ACL_SUCCESS);
    aclprofDestroyStamp(stamp);
    C_CODE(aclprofStop(api), ACL_SUCCESS);
    C_CODE(aclprofStop(api), ACL_ERROR_PROF_NOT_RUN);
    C_CODE(aclprofStop(NULL), ACL_SUCCESS);
    cJSON *trace = load_trace(path);
    C_TRUE(trace != NULL);
    C_EQ(count_events(trace, "epoch", "i"), 1);
    C_EQ(strcmp(cJSON_GetObjectItem(cJSON_GetObjectItem(trace, "otherData"), "dataTypeConfig")->valuestring,
                "0x81"),
         0);
    cJSON_Delete(trace);
    C_CODE(aclprofFinalize(), ACL_SUCCESS);
    C_CODE(aclprofDestroyConfig(api), ACL_SUCCESS);
    C_CODE(aclprofDestroyConfig(other), ACL_SUCCESS);
    C_CODE(aclprofDestroyConfig(NULL), ACL_ERROR_INVALID_PARAM);
}

static void sc_config_checks(void)
{
    uint32_t devs[2] = {0, 0};
    C_TRUE(aclprofCreateConfig(NULL, 1, ACL_AICORE_NONE, NULL, ACL_PROF_ACL_API) == NULL);
    C_TRUE(aclGetRecentErrMsg() != NULL);
    C_TRUE(aclprofCreateConfig(devs, 1, ACL_AICORE_NONE, (const aclprofAicoreEvents *)devs, ACL_PROF_ACL_API) ==
           NULL);
    C_TRUE(aclGetRecentErrMsg() != NULL);
    C_TRUE(aclprofCreateConfig(devs, 65, ACL_AICORE_NONE, NULL, ACL_PROF_ACL_API) == NULL);
    C_TRUE(aclGetRecentErrMsg() != NULL);
    C_TRUE(aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, ACL_PROF_ACL_API) == NULL); /* needs devices */
    C_TRUE(aclGetRecentErrMsg() != NULL);
    uint32_t count = 0;
    const bool rt = aclrtGetDeviceCount(&count) == ACL_SUCCESS;
    (void)aclGetRecentErrMsg();
    if (rt) {
        C_TRUE(aclprofCreateConfig(devs, 2, ACL_AICORE_NONE, NULL, ACL_PROF_ACL_API) == NULL); /* duplicate id */
        C_TRUE(aclGetRecentErrMsg() != NULL);
        devs[0] = count;
        C_TRUE(aclprofCreateConfig(devs, 1, ACL_AICORE_NONE, NULL, ACL_PROF_ACL_API) == NULL); /* out of range */
        C_TRUE(aclGetRecentErrMsg() != NULL);
        devs[0] = 0;
        aclprofConfig *c = aclprofCreateConfig(devs, 1, ACL_AICORE_PIPE_UTILIZATION, NULL, ACL_PROF_ACL_API);
        C_TRUE(c != NULL);
        C_CODE(aclprofDestroyConfig(c), ACL_SUCCESS);
    }
    aclprofConfig *zero = aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, 0);
    C_TRUE(zero == NULL);
    aclprofConfig *bad = aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, ACL_PROF_MSPROFTX | (1ull << 40));
    C_TRUE(bad != NULL);
    C_CODE(aclprofStart(bad), ACL_ERROR_PROF_MODULES_UNSUPPORTED);
    aclprofDestroyConfig(bad);
    aclprofConfig *metrics =
        aclprofCreateConfig(NULL, 0, (aclprofAicoreMetrics)77, NULL, ACL_PROF_MSPROFTX | ACL_PROF_AICORE_METRICS);
    C_CODE(aclprofStart(metrics), ACL_ERROR_INVALID_PARAM);
    aclprofDestroyConfig(metrics);

    C_CODE(aclprofSetConfig(ACL_PROF_ARGS_MIN, "1", 1), ACL_ERROR_INVALID_PARAM);
    C_CODE(aclprofSetConfig(ACL_PROF_ARGS_MAX, "1", 1), ACL_ERROR_INVALID_PARAM);
    C_CODE(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, NULL, 0), ACL_ERROR_INVALID_PARAM);
    C_CODE(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "500MB", 4), ACL_ERROR_INVALID_PARAM);
    char longcfg[300];
    memset(longcfg, 'a', sizeof(longcfg) - 1);
    longcfg[sizeof(longcfg) - 1] = '\0';
    C_CODE(aclprofSetConfig(ACL_PROF_OPTYPE, longcfg, strlen(longcfg)), ACL_ERROR_INVALID_PARAM);
    C_CODE(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "100MB", 5), ACL_ERROR_INVALID_PROFILING_CONFIG);
    C_CODE(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "500MB", 5), ACL_SUCCESS);
    C_CODE(aclprofSetConfig((aclprofConfigType)2, "x", 1), ACL_ERROR_INVALID_PROFILING_CONFIG);
    C_CODE(aclprofSetConfig(ACL_PROF_SYS_CPU_FREQ, "50", 2), ACL_SUCCESS);
    C_CODE(aclprofSetConfig(ACL_PROF_SYS_CPU_FREQ, "0", 1), ACL_ERROR_INVALID_PROFILING_CONFIG);
    C_CODE(aclprofSetConfig(ACL_PROF_HOST_SYS, "cpu,mem", 7), ACL_SUCCESS);
    C_CODE(aclprofSetConfig(ACL_PROF_HOST_SYS, "gpu", 3), ACL_ERROR_INVALID_PROFILING_CONFIG);
    C_CODE(aclprofSetConfig(ACL_PROF_NTS_METRICS, "", 0), ACL_ERROR_INVALID_PARAM);

    int fd = 3;
    C_TRUE(aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, NULL) == NULL);
    C_TRUE(aclGetRecentErrMsg() != NULL);
    C_TRUE(aclprofCreateSubscribeConfig(2, ACL_AICORE_NONE, &fd) == NULL);
    aclprofSubscribeConfig *sub = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fd);
    C_TRUE(sub != NULL);
    C_CODE(aclprofDestroySubscribeConfig(sub), ACL_SUCCESS);
    C_CODE(aclprofDestroySubscribeConfig(NULL), ACL_ERROR_INVALID_PARAM);
}

static void sc_msproftx(void)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof(path), "%s/tx", g_dir);
    /* before a session with ACL_PROF_MSPROFTX everything fails with -1 */
    C_TRUE(aclprofCreateStamp() == NULL);
    C_TRUE(aclGetRecentErrMsg() != NULL);
    int dummy = 0;
    C_CODE(aclprofMark(&dummy), -1);
    C_CODE(aclprofMarkEx("m", 1, &dummy), -1);
    C_CODE(aclprofPush(&dummy), -1);
    C_CODE(aclprofPop(), -1);
    C_CODE(aclprofRangePop(), -1);
    C_CODE(aclprofInit(path, strlen(path)), ACL_SUCCESS);
    aclprofConfig *plain = aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, ACL_PROF_MSPROFTX);
    C_CODE(aclprofStart(plain), ACL_SUCCESS);

    void *s1 = aclprofCreateStamp();
    void *s2 = aclprofCreateStamp();
    C_TRUE(s1 != NULL && s2 != NULL && s1 != s2);
    C_CODE(aclprofSetStampTraceMessage(NULL, "x", 1), -1);
    C_CODE(aclprofSetStampTraceMessage(s1, "x", 128), -1);
    C_CODE(aclprofSetStampTraceMessage(s1, NULL, 1), -1);
    C_CODE(aclprofSetStampTraceMessage(s1, "mark1 and more", 5), ACL_SUCCESS);
    C_CODE(aclprofMark(s1), ACL_SUCCESS);
    C_CODE(aclprofMark(NULL), -1);
    C_CODE(aclprofMarkEx("markex1", 7, &dummy), ACL_SUCCESS);
    C_CODE(aclprofMarkEx("markex1", 7, NULL), -1); /* a stream is required */
    C_CODE(aclprofMarkEx("markex1", 6, &dummy), -1);
    C_CODE(aclprofMarkEx("", 0, &dummy), -1);

    C_CODE(aclprofSetStampTraceMessage(s2, "push1", 5), ACL_SUCCESS);
    C_CODE(aclprofPush(s2), ACL_SUCCESS);
    int other[2] = {0, 0}; /* another thread finds nothing pushed */
    pthread_t th;
    C_TRUE(pthread_create(&th, NULL, pop_on_thread, other) == 0);
    C_TRUE(pthread_join(th, NULL) == 0);
    C_EQ(other[0], -1);
    C_EQ(other[1], -1);
    C_CODE(aclprofPop(), ACL_SUCCESS);
    C_CODE(aclprofPop(), -1);

    uint32_t id = 99;
    C_CODE(aclprofSetStampTraceMessage(s1, "range1", 6), ACL_SUCCESS);
    C_CODE(aclprofRangeStart(s1, &id), ACL_SUCCESS);
    C_CODE(aclprofRangeStart(s1, NULL), -1);
    C_CODE(aclprofRangeStop(id), ACL_SUCCESS);
    C_CODE(aclprofRangeStop(id), -1); /* already stopped */
    C_CODE(aclprofRangeStop(12345), -1);

    const uint64_t op = aclprofStr2Id("Conv2D_1");
    C_EQ(op, aclprofStr2Id("Conv2D_1"));
    C_TRUE(op != aclprofStr2Id("Conv2D_2"));
    C_EQ(aclprofStr2Id(NULL), 0);
    C_TRUE(aclGetRecentErrMsg() != NULL);
    aclprofTensorInfo ti;
    memset(&ti, 0, sizeof(ti));
    ti.opNameId = op;
    aclprofEventAttributes attr;
    memset(&attr, 0, sizeof(attr));
    attr.version = ACL_PROF_EVENT_ATTR_VERSION;
    attr.size = sizeof(attr);
    attr.messageType = ACL_PROF_MESSAGE_TYPE_TENSOR_INFO;
    attr.message.tensorInfo = &ti;
    C_CODE(aclprofRangePushEx(NULL), -1);
    C_CODE(aclprofRangePushEx(&attr), ACL_SUCCESS);
    C_CODE(aclprofRangePop(), ACL_SUCCESS);
    C_CODE(aclprofRangePop(), -1);

    aclprofStepInfo *step = aclprofCreateStepInfo();
    C_TRUE(step != NULL);
    C_CODE(aclprofGetStepTimestamp(step, ACL_STEP_START, NULL), ACL_SUCCESS);
    C_CODE(aclprofGetStepTimestamp(step, ACL_STEP_START, NULL), ACL_ERROR_INVALID_PARAM);
    C_CODE(aclprofGetStepTimestamp(step, ACL_STEP_END, NULL), ACL_SUCCESS);
    C_CODE(aclprofGetStepTimestamp(step, ACL_STEP_END, NULL), ACL_ERROR_INVALID_PARAM);
    C_CODE(aclprofGetStepTimestamp(NULL, ACL_STEP_END, NULL), ACL_ERROR_INVALID_PARAM);
    aclprofDestroyStepInfo(step);
    aclprofDestroyStepInfo(NULL);
    C_TRUE(aclGetRecentErrMsg() != NULL);

    aclprofDestroyStamp(s1);
    aclprofDestroyStamp(s2);
    C_CODE(aclprofMark(s1), -1); /* destroyed */
    C_CODE(aclprofFinalize(), ACL_SUCCESS); /* stops and writes the running session */
    aclprofDestroyConfig(plain);

    cJSON *trace = load_trace(path);
    C_TRUE(trace != NULL);
    C_EQ(count_events(trace, "mark1", "i"), 1);
    C_EQ(count_events(trace, "markex1", "i"), 1);
    C_EQ(count_events(trace, "push1", "X"), 1);
    C_EQ(count_events(trace, "range1", "X"), 1);
    C_EQ(count_events(trace, "Conv2D_1", "X"), 1);
    C_TRUE(count_events(trace, "step 1 start", "i") + count_events(trace, "step 2 start", "i") >= 1);
    cJSON_Delete(trace);
}

static void sc_acl_json_profiling(void)
{
    char dir[PATH_MAX + 32];
    snprintf(dir, sizeof(dir), "%s/json_out", g_dir);
    char text[PATH_MAX + 128];
    snprintf(text, sizeof(text), "{\"profiler\": {\"switch\": \"on\", \"output\": \"%s\", \"msproftx\": \"on\"}}", dir);
    char cfg[PATH_MAX + 32];
    snprintf(cfg, sizeof(cfg), "%s/prof_acl.json", g_dir);
    FILE *f = fopen(cfg, "w");
    fputs(text, f);
    fclose(f);
    C_CODE(aclInit(cfg), ACL_SUCCESS);
    C_CODE(aclprofInit(dir, strlen(dir)), ACL_ERROR_PROF_ALREADY_RUN);
    C_CODE(aclprofMarkEx("from_acl_json", 13, &text), ACL_SUCCESS);
    C_CODE(aclFinalize(), ACL_SUCCESS);
    cJSON *trace = load_trace(dir);
    C_TRUE(trace != NULL);
    C_EQ(count_events(trace, "from_acl_json", "i"), 1);
    cJSON_Delete(trace);
}

static void sc_acl_finalize_stops_sessions(void)
{
    char dir[PATH_MAX + 32];
    snprintf(dir, sizeof(dir), "%s/finalize_out", g_dir);
    C_CODE(aclInit(NULL), ACL_SUCCESS);
    C_CODE(aclprofInit(dir, strlen(dir)), ACL_SUCCESS);
    aclprofConfig *cfg = aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, ACL_PROF_MSPROFTX);
    C_CODE(aclprofStart(cfg), ACL_SUCCESS);
    int stream = 0;
    C_CODE(aclprofMarkEx("before_finalize", 15, &stream), ACL_SUCCESS);
    C_CODE(aclFinalize(), ACL_SUCCESS); /* writes the running session and resets the profiler */
    cJSON *trace = load_trace(dir);
    C_TRUE(trace != NULL);
    C_EQ(count_events(trace, "before_finalize", "i"), 1);
    cJSON_Delete(trace);
    C_CODE(aclprofMarkEx("after", 5, &stream), -1);
    C_CODE(aclprofInit(dir, strlen(dir)), ACL_SUCCESS);
    C_CODE(aclprofFinalize(), ACL_SUCCESS);
    aclprofDestroyConfig(cfg);
}

/* The text of the first file under dir whose path matches pattern (find -path), NULL if none. */
static char *load_output_file(const char *dir, const char *pattern)
{
    char cmd[PATH_MAX + 160];
    snprintf(cmd, sizeof(cmd), "find '%s' -path '%s' | head -n 1", dir, pattern);
    FILE *p = popen(cmd, "r");
    char path[PATH_MAX];
    const bool found = p != NULL && fgets(path, sizeof(path), p) != NULL;
    if (p != NULL) {
        pclose(p);
    }
    if (!found) {
        return NULL;
    }
    path[strcspn(path, "\n")] = '\0';
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return NULL;
    }
    char *text = calloc(1, 1 << 16);
    const size_t got = fread(text, 1, (1 << 16) - 1, f);
    text[got] = '\0';
    fclose(f);
    return text;
}

/* The Count column of api's row of an api_statistic CSV, -1 if absent. */
static long api_count(const char *csv, const char *api)
{
    char needle[128];
    snprintf(needle, sizeof(needle), "\nacl,%s,", api);
    const char *row = strstr(csv, needle);
    if (row == NULL) {
        return -1;
    }
    const char *c = strchr(row + strlen(needle), ','); /* past Time(us) */
    return c == NULL ? -1 : strtol(c + 1, NULL, 10);
}

/* One profiling session of runtime calls with the given data types, written under dir. */
static void runtime_calls(const char *dir, uint64_t types)
{
    C_CODE(aclprofInit(dir, strlen(dir)), ACL_SUCCESS);
    uint32_t devs[1] = {0};
    aclprofConfig *cfg = aclprofCreateConfig(devs, 1, ACL_AICORE_NONE, NULL, types);
    C_TRUE(cfg != NULL);
    C_CODE(aclprofStart(cfg), ACL_SUCCESS);
    aclrtStream stream = NULL;
    C_CODE(aclrtCreateStream(&stream), ACL_SUCCESS);
    void *dev = NULL;
    C_CODE(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    char host[64] = {1, 2, 3};
    for (int i = 0; i < 3; ++i) {
        C_CODE(aclrtMemcpy(dev, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    }
    C_CODE(aclrtMemcpyAsync(host, 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST, stream), ACL_SUCCESS);
    C_CODE(aclrtMemcpy(NULL, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM); /* a span too */
    C_CODE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    C_CODE(aclrtFree(dev), ACL_SUCCESS);
    C_CODE(aclrtDestroyStream(stream), ACL_SUCCESS);
    C_CODE(aclprofStop(cfg), ACL_SUCCESS);
    C_CODE(aclprofFinalize(), ACL_SUCCESS);
    C_CODE(aclprofDestroyConfig(cfg), ACL_SUCCESS);
}

static void sc_runtime_api_spans(void)
{
    C_CODE(aclInit(NULL), ACL_SUCCESS);
    C_CODE(aclrtSetDevice(0), ACL_SUCCESS);
    char on[PATH_MAX + 32], off[PATH_MAX + 32];
    snprintf(on, sizeof(on), "%s/rt_api_on", g_dir);
    snprintf(off, sizeof(off), "%s/rt_api_off", g_dir);
    runtime_calls(on, ACL_PROF_ACL_API | ACL_PROF_TASK_TIME);
    runtime_calls(off, ACL_PROF_TASK_TIME);

    cJSON *trace = load_trace(on);
    C_TRUE(trace != NULL);
    C_EQ(count_events(trace, "aclrtMemcpy", "X"), 4);
    C_EQ(count_events(trace, "aclrtMemcpyAsync", "X"), 1);
    C_EQ(count_events(trace, "aclrtSynchronizeStream", "X"), 1);
    C_EQ(count_events(trace, "aclrtCreateStream", "X"), 1);
    C_EQ(count_events(trace, "aclrtDestroyStream", "X"), 1);
    C_EQ(count_events(trace, "aclrtMalloc", "X"), 1);
    C_EQ(count_events(trace, "aclrtFree", "X"), 1);
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(trace, "traceEvents"))
    {
        if (strcmp(cJSON_GetObjectItem(e, "name")->valuestring, "aclrtSynchronizeStream") == 0) {
            C_EQ(strcmp(cJSON_GetObjectItem(e, "cat")->valuestring, "AscendCL"), 0);
            C_TRUE(cJSON_GetObjectItem(e, "dur")->valuedouble >= 0.0);
        }
    }
    cJSON_Delete(trace);
    char *csv = load_output_file(on, "*mindstudio_profiler_output/api_statistic_*.csv");
    C_TRUE(csv != NULL);
    C_EQ(strncmp(csv, "Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance\n", 63), 0);
    C_EQ(api_count(csv, "aclrtMemcpy"), 4);
    C_EQ(api_count(csv, "aclrtMemcpyAsync"), 1);
    C_EQ(api_count(csv, "aclrtSynchronizeStream"), 1);
    free(csv);

    /* without ACL_PROF_ACL_API: no span and no api_statistic file */
    trace = load_trace(off);
    C_TRUE(trace != NULL);
    C_EQ(count_events(trace, "aclrtMemcpy", "X"), 0);
    C_EQ(count_events(trace, "aclrtSynchronizeStream", "X"), 0);
    cJSON_Delete(trace);
    C_TRUE(load_output_file(off, "*api_statistic_*.csv") == NULL);
    C_CODE(aclrtResetDevice(0), ACL_SUCCESS);
    C_CODE(aclFinalize(), ACL_SUCCESS);
}

/* ---- operator records: CANN's 80-byte ProfOpDesc (docs/profiling.md), built independently ---- */

typedef struct op_record {
    uint32_t signature;
    uint32_t model_id;
    uint32_t flag;
    uint32_t thread_id;
    uint64_t op_index;
    uint64_t duration;
    uint64_t start;
    uint64_t end;
    uint64_t execution_time;
    uint64_t cube_fops;
    uint64_t vector_fops;
    uint32_t dev_id;
    uint32_t pad;
} op_record;

/* CRC-32C, reflected polynomial 0x82F63B78, initial value ~0, no final XOR, over bytes 4..79. */
static uint32_t record_crc(const op_record *r)
{
    const unsigned char *p = (const unsigned char *)r;
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 4; i < sizeof(*r); ++i) {
        c ^= p[i];
        for (int k = 0; k < 8; ++k) {
            c = (c & 1u) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        }
    }
    return c;
}

static void fill_record(op_record *r, uint32_t model, uint32_t flag, uint64_t index, uint64_t start, uint64_t end,
                        uint32_t tid)
{
    memset(r, 0, sizeof(*r));
    r->model_id = model;
    r->flag = flag;
    r->thread_id = tid;
    r->op_index = index;
    r->start = start;
    r->end = end;
    r->duration = end - start;
    r->signature = record_crc(r);
}

static void operator_records(void **state)
{
    (void)state;
    _Static_assert(sizeof(op_record) == 80, "ProfOpDesc is 80 bytes");
    size_t size = 0;
    assert_int_equal(aclprofGetOpDescSize(&size), ACL_SUCCESS);
    assert_int_equal(size, 80);
    assert_int_equal(aclprofGetOpDescSize(NULL), ACL_ERROR_INVALID_PARAM);
    assert_non_null(aclGetRecentErrMsg());

    op_record recs[2];
    fill_record(&recs[0], 7, ACL_SUBSCRIBE_OP, 1u << 30, 100, 350, 0);
    fill_record(&recs[1], 7, ACL_SUBSCRIBE_OP_THREAD, (1u << 30) + 1, 400, 410, 4242);
    uint32_t num = 0;
    assert_int_equal(aclprofGetOpNum(recs, sizeof(recs), &num), ACL_SUCCESS);
    assert_int_equal(num, 2);
    assert_int_equal(aclprofGetOpStart(recs, sizeof(recs), 0), 100);
    assert_int_equal(aclprofGetOpEnd(recs, sizeof(recs), 0), 350);
    assert_int_equal(aclprofGetOpDuration(recs, sizeof(recs), 0), 250);
    assert_int_equal(aclprofGetModelId(recs, sizeof(recs), 1), 7);
    assert_int_equal(aclprofGetOpFlag(recs, sizeof(recs), 1), ACL_SUBSCRIBE_OP_THREAD);
    assert_string_equal(aclprofGetOpAttriValue(recs, sizeof(recs), 1, ACL_SUBSCRIBE_ATTRI_THREADID), "4242");
    assert_null(aclprofGetOpAttriValue(recs, sizeof(recs), 0, ACL_SUBSCRIBE_ATTRI_THREADID)); /* flag is OP */
    assert_non_null(aclGetRecentErrMsg());
    assert_null(aclprofGetOpAttriValue(recs, sizeof(recs), 1, ACL_SUBSCRIBE_ATTRI_NONE));
    assert_non_null(aclGetRecentErrMsg());
    /* names live in the process that wrote the records: unknown indexes have none */
    size_t len = 0;
    char buf[300];
    assert_int_equal(aclprofGetOpTypeLen(recs, sizeof(recs), 0, &len), ACL_ERROR_INVALID_PARAM);
    assert_non_null(strstr(aclGetRecentErrMsg(), "got already"));
    assert_int_equal(aclprofGetOpName(recs, sizeof(recs), 1, buf, sizeof buf), ACL_ERROR_INVALID_PARAM);
    assert_non_null(aclGetRecentErrMsg());

    /* bad buffers and indexes */
    assert_int_equal(aclprofGetOpNum(recs, sizeof(recs) - 1, &num), ACL_ERROR_INVALID_PARAM);
    assert_non_null(aclGetRecentErrMsg());
    assert_int_equal(aclprofGetOpNum(NULL, sizeof(recs), &num), ACL_ERROR_INVALID_PARAM);
    assert_non_null(aclGetRecentErrMsg());
    assert_int_equal(aclprofGetOpNum(recs, sizeof(recs), NULL), ACL_ERROR_INVALID_PARAM);
    assert_non_null(aclGetRecentErrMsg());
    assert_int_equal(aclprofGetOpTypeLen(recs, sizeof(recs), 2, &len), ACL_ERROR_INVALID_PARAM);
    assert_non_null(aclGetRecentErrMsg());
    assert_int_equal(aclprofGetOpStart(recs, sizeof(recs), 2), 0);
    assert_int_equal(aclprofGetOpStart(recs, sizeof(recs), UINT32_MAX), 0);
    assert_int_equal(aclprofGetModelId(recs, sizeof(recs), 5), ACL_ERROR_INVALID_PARAM); /* CANN quirk */
    assert_int_equal(aclprofGetOpFlag(NULL, 0, 0), ACL_SUBSCRIBE_NONE);
    assert_int_equal(aclprofGetOpFlag(recs, sizeof(recs), 9), ACL_SUBSCRIBE_OP);
    (void)aclGetRecentErrMsg();
    recs[1].end++; /* corrupt: the signature no longer matches */
    assert_int_equal(aclprofGetOpNum(recs, sizeof(recs), &num), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclprofGetOpDuration(recs, sizeof(recs), 0), 0);
    assert_non_null(aclGetRecentErrMsg());
}

#define CHILD_TEST(name, fn)                                                                                \
    static void name(void **state)                                                                          \
    {                                                                                                       \
        (void)state;                                                                                        \
        run_child(fn);                                                                                      \
    }
CHILD_TEST(init_rules, sc_init_rules)
CHILD_TEST(sessions, sc_sessions)
CHILD_TEST(config_checks, sc_config_checks)
CHILD_TEST(msproftx, sc_msproftx)
CHILD_TEST(acl_json_profiling, sc_acl_json_profiling)
CHILD_TEST(acl_finalize_stops_sessions, sc_acl_finalize_stops_sessions)
CHILD_TEST(runtime_api_spans, sc_runtime_api_spans)

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof(g_dir), "/tmp/oa_prof_%d", (int)getpid());
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", g_dir);
    return system(cmd);
}

static int teardown(void **state)
{
    (void)state;
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", g_dir);
    return system(cmd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(init_rules),
        cmocka_unit_test(sessions),
        cmocka_unit_test(config_checks),
        cmocka_unit_test(msproftx),
        cmocka_unit_test(acl_json_profiling),
        cmocka_unit_test(acl_finalize_stops_sessions),
        cmocka_unit_test(runtime_api_spans),
        cmocka_unit_test(operator_records),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

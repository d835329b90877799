/*
 * aclInit / aclFinalize / aclFinalizeReference, hooks and acl.json keys
 * through the public API. aclInit remembers the configuration of the first
 * successful call for the whole process, so every scenario runs in a child
 * process of its own.
 */
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
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "acl/acl.h"

/* Checks inside a child: print and exit non-zero. */
#define C_EQ(a, b)                                                                                          \
    do {                                                                                                    \
        const long long a_ = (long long)(a);                                                                \
        const long long b_ = (long long)(b);                                                                \
        if (a_ != b_) {                                                                                     \
            fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n", __FILE__, __LINE__, #a, a_, #b, b_); \
            fflush(stderr);                                                                                 \
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

static const char *cfg(const char *name, const char *text)
{
    static char path[PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s/%s", g_dir, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        _exit(2);
    }
    fputs(text, f);
    fclose(f);
    return path;
}

static bool runtime_present(void)
{
    uint32_t n = 0;
    const aclError ret = aclrtGetDeviceCount(&n);
    (void)aclGetRecentErrMsg();
    return ret != ACL_ERROR_API_NOT_SUPPORT;
}

static void run_child(void (*fn)(void))
{
    fflush(NULL);
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        fn();
        fflush(NULL);
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* ---- scenarios ---- */

static void sc_refcount(void)
{
    C_CODE(aclInit(NULL), ACL_SUCCESS);
    C_TRUE(aclGetRecentErrMsg() == NULL);
    C_CODE(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
    C_CODE(aclInit("anything, not even read"), ACL_ERROR_REPEAT_INITIALIZE);
    uint64_t n = 99;
    C_CODE(aclFinalizeReference(&n), ACL_SUCCESS);
    C_EQ(n, 2);
    C_CODE(aclFinalizeReference(&n), ACL_SUCCESS);
    C_EQ(n, 1);
    C_CODE(aclFinalizeReference(&n), ACL_SUCCESS); /* the real teardown */
    C_EQ(n, 0);
    C_CODE(aclFinalizeReference(&n), ACL_ERROR_REPEAT_FINALIZE);
    C_EQ(n, 0);
    C_CODE(aclFinalizeReference(NULL), ACL_ERROR_REPEAT_FINALIZE);
    C_CODE(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
    /* aclFinalize tears down whatever the count */
    C_CODE(aclInit(""), ACL_SUCCESS);
    C_CODE(aclInit(""), ACL_ERROR_REPEAT_INITIALIZE);
    C_CODE(aclFinalize(), ACL_SUCCESS);
    C_CODE(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
    C_CODE(aclFinalizeReference(&n), ACL_ERROR_REPEAT_FINALIZE);
}

static void sc_finalize_without_init(void)
{
    /* CANN's flag starts cleared: the first aclFinalize of a process succeeds */
    C_CODE(aclFinalize(), ACL_SUCCESS);
    C_CODE(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
    C_CODE(aclFinalizeReference(NULL), ACL_ERROR_REPEAT_FINALIZE);
}

static void sc_config_must_match_first(void)
{
    C_CODE(aclInit(NULL), ACL_SUCCESS);
    C_CODE(aclFinalize(), ACL_SUCCESS);
    C_CODE(aclInit(cfg("a.json", "{}")), ACL_ERROR_INVALID_PARAM); /* "{}" differs from "" */
    C_CODE(aclInit(""), ACL_SUCCESS);
    C_CODE(aclFinalize(), ACL_SUCCESS);
}

static void sc_same_content_other_path(void)
{
    C_CODE(aclInit(cfg("a.json", "{\"max_opqueue_num\": 5}")), ACL_SUCCESS);
    C_CODE(aclFinalize(), ACL_SUCCESS);
    C_CODE(aclInit(cfg("b.json", "{\"max_opqueue_num\": 5}")), ACL_SUCCESS); /* content, not path */
    C_CODE(aclFinalize(), ACL_SUCCESS);
    C_CODE(aclInit(cfg("c.json", "{\"max_opqueue_num\": 6}")), ACL_ERROR_INVALID_PARAM);
    C_CODE(aclInit(NULL), ACL_ERROR_INVALID_PARAM);
}

static void sc_bad_files(void)
{
    C_CODE(aclInit("/nonexistent/acl.json"), ACL_ERROR_INVALID_FILE);
    C_CODE(aclInit(g_dir), ACL_ERROR_INVALID_FILE); /* directory */
    C_CODE(aclInit(cfg("bad.json", "{\"a\": [1,}")), ACL_ERROR_PARSE_FILE);
    C_CODE(aclInit(cfg("nest.json", "{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{}}}}}}}}}}}")),
           ACL_ERROR_PARSE_FILE);
    C_CODE(aclInit(cfg("arr.json", "{\"a\":[[[[[[[[[[[0]]]]]]]]]]]}")), ACL_ERROR_PARSE_FILE);
    /* 10 MiB + 1 */
    char path[PATH_MAX + 32];
    snprintf(path, sizeof(path), "%s/big.json", g_dir);
    FILE *f = fopen(path, "wb");
    fputc('{', f);
    for (size_t i = 0; i < (size_t)10 * 1024 * 1024 - 1; ++i) {
        fputc(' ', f);
    }
    fputc('}', f);
    fclose(f);
    C_CODE(aclInit(path), ACL_ERROR_INVALID_FILE);
    C_CODE(aclInit(cfg("empty.json", "")), ACL_SUCCESS); /* empty file = empty config */
    C_CODE(aclFinalize(), ACL_SUCCESS);
}

static void sc_keys(void)
{
    C_CODE(aclInit(cfg("k1.json", "{\"err_msg_mode\": \"2\"}")), ACL_ERROR_INVALID_PARAM);
    C_CODE(aclInit(cfg("k2.json", "{\"max_opqueue_num\": 0}")), ACL_ERROR_INVALID_PARAM);
    C_CODE(aclInit(cfg("k3.json", "{\"StackSize\": {\"aicore_stack_size\": \"big\"}}")), ACL_ERROR_FAILURE);
    C_CODE(aclInit(cfg("k4.json", "{\"simt_printf_fifo_size\": \"16\"}")), ACL_ERROR_FAILURE);
    C_CODE(aclInit(cfg("k5.json", "{\"acl_graph\": {\"event_mode\": \"3\"}}")), ACL_ERROR_INVALID_PARAM);
    C_CODE(aclInit(cfg("k6.json", "{\"dump\": {\"dump_mode\": \"sideways\"}}")), ACL_ERROR_INVALID_DUMP_CONFIG);
    C_CODE(aclInit(cfg("k7.json", "{\"dump\": 3}")), ACL_ERROR_INVALID_DUMP_CONFIG);
    C_CODE(aclInit(cfg("k8.json", "{\"profiler\": {\"switch\": \"maybe\"}}")), ACL_ERROR_INVALID_PARAM);
    C_CODE(aclInit(cfg("k9.json", "{\"profiler\": {\"no_such_option\": \"on\"}}")), ACL_ERROR_INVALID_PARAM);
    C_CODE(aclInit(cfg("k10.json", "{\"defaultDevice\": {\"default_device\": \"x\"}}")), ACL_ERROR_FAILURE);
    setenv("PROFILER_SAMPLECONFIG", "{not json", 1);
    C_CODE(aclInit(cfg("k11.json", "{}")), ACL_ERROR_INVALID_PARAM);
    unsetenv("PROFILER_SAMPLECONFIG");
    /* every key valid, unknown keys ignored */
    C_CODE(aclInit(cfg("ok.json", "{\"err_msg_mode\": \"1\", \"max_opqueue_num\": \"30000\", \"unknown\": [1, 2],"
                                  " \"StackSize\": {\"aicore_stack_size\": 32768},"
                                  " \"simd_printf_fifo_size_per_core\": 4096, \"acl_graph\": {\"event_mode\": \"0\"},"
                                  " \"dump\": {}, \"profiler\": {\"switch\": \"off\"}}")),
           ACL_SUCCESS);
    C_CODE(aclFinalize(), ACL_SUCCESS);
}

static void sc_soc_must_be_known(void)
{
    setenv("OPENACL_SOC_VERSION", "Ascend123", 1);
    C_CODE(aclInit(NULL), ACL_ERROR_INTERNAL_ERROR);
    setenv("OPENACL_SOC_VERSION", "Ascend310P3", 1);
    C_CODE(aclInit(NULL), ACL_SUCCESS);
    C_CODE(aclFinalize(), ACL_SUCCESS);
}

static void sc_default_device(void)
{
    if (!runtime_present()) {
        return; /* needs the runtime core */
    }
    uint32_t count = 0;
    C_CODE(aclrtGetDeviceCount(&count), ACL_SUCCESS);
    char text[128];
    snprintf(text, sizeof(text), "{\"defaultDevice\": {\"default_device\": \"%u\"}}", count);
    C_CODE(aclInit(cfg("dd_bad.json", text)), ACL_ERROR_RT_INVALID_DEVICEID);
    C_CODE(aclInit(cfg("dd.json", "{\"defaultDevice\": {\"default_device\": \"0\"}}")), ACL_SUCCESS);
    int32_t dev = -1;
    C_CODE(aclrtGetDevice(&dev), ACL_SUCCESS); /* works without aclrtSetDevice */
    C_EQ(dev, 0);
    C_CODE(aclFinalize(), ACL_SUCCESS);
    C_EQ(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL); /* the default device is gone */
}

/* ---- hooks ---- */

static int g_calls[8];
static size_t g_model_len;
static char g_model_text[256];

static aclError model_init(const char *configStr, size_t len, void *userData)
{
    ++g_calls[0];
    g_model_len = len;
    snprintf(g_model_text, sizeof(g_model_text), "%s", configStr);
    C_EQ((uintptr_t)userData, 0x1234);
    return ACL_SUCCESS;
}

static aclError executor_init(const char *configStr, size_t len, void *userData)
{
    (void)configStr;
    (void)len;
    (void)userData;
    ++g_calls[1];
    return ACL_SUCCESS;
}

static aclError other_init(const char *configStr, size_t len, void *userData)
{
    (void)configStr;
    (void)len;
    (void)userData;
    ++g_calls[2];
    return ACL_SUCCESS;
}

static aclError other_init2(const char *configStr, size_t len, void *userData)
{
    (void)configStr;
    (void)len;
    (void)userData;
    ++g_calls[3];
    return ACL_SUCCESS;
}

static aclError failing_init(const char *configStr, size_t len, void *userData)
{
    (void)configStr;
    (void)len;
    (void)userData;
    return ACL_ERROR_OP_NOT_FOUND;
}

static aclError model_fini(void *userData)
{
    (void)userData;
    ++g_calls[4];
    return ACL_SUCCESS;
}

static aclError failing_fini(void *userData)
{
    (void)userData;
    return ACL_ERROR_RT_PARAM_INVALID;
}

static void sc_hooks(void)
{
    C_CODE(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    C_CODE(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, model_init, (void *)0x1234), ACL_SUCCESS);
    C_CODE(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, other_init, NULL), ACL_ERROR_INTERNAL_ERROR);
    C_CODE(aclInitCallbackRegister(ACL_REG_TYPE_ACL_OP_EXECUTOR, executor_init, NULL), ACL_SUCCESS);
    C_CODE(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, other_init, NULL), ACL_SUCCESS);
    C_CODE(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, other_init2, NULL), ACL_SUCCESS); /* OTHER may repeat */
    C_CODE(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_DVPP, other_init), ACL_ERROR_INTERNAL_ERROR);
    C_CODE(aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, failing_init), ACL_ERROR_INTERNAL_ERROR);
    C_CODE(aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, NULL), ACL_ERROR_INVALID_PARAM);
    C_CODE(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_MODEL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    C_CODE(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_MODEL, model_fini, NULL), ACL_SUCCESS);
    C_CODE(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_MODEL, model_fini, NULL), ACL_ERROR_INTERNAL_ERROR);

    /* without a file: model, dvpp and other hooks; no op-executor hook */
    C_CODE(aclInit(NULL), ACL_SUCCESS);
    C_EQ(g_calls[0], 1);
    C_EQ(g_model_len, 0);
    C_EQ(g_calls[1], 0);
    C_EQ(g_calls[2], 1);
    C_EQ(g_calls[3], 1);
    /* registering while initialised runs the hook at once */
    C_CODE(aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, other_init2), ACL_SUCCESS);
    C_CODE(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, other_init2, NULL), ACL_SUCCESS);
    C_EQ(g_calls[3], 2);
    C_CODE(aclFinalize(), ACL_SUCCESS);
    C_EQ(g_calls[4], 1);

    /* a failing finalize hook keeps ACL initialised */
    C_CODE(aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, failing_fini, NULL), ACL_SUCCESS);
    C_CODE(aclInit(NULL), ACL_SUCCESS);
    C_CODE(aclFinalize(), ACL_ERROR_RT_PARAM_INVALID);
    C_CODE(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
    C_CODE(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, failing_fini), ACL_SUCCESS);
    C_CODE(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, failing_fini), ACL_ERROR_INTERNAL_ERROR);
    C_CODE(aclFinalize(), ACL_SUCCESS);

    /* a failing init hook fails aclInit with its code */
    C_CODE(aclInitCallbackRegister(ACL_REG_TYPE_ACL_DVPP, failing_init, NULL), ACL_SUCCESS);
    C_CODE(aclInit(NULL), ACL_ERROR_OP_NOT_FOUND);
    C_CODE(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_DVPP, failing_init), ACL_SUCCESS);
    C_CODE(aclInit(NULL), ACL_SUCCESS);
    C_CODE(aclFinalize(), ACL_SUCCESS);
}

static void sc_hooks_with_file(void)
{
    C_CODE(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, model_init, (void *)0x1234), ACL_SUCCESS);
    C_CODE(aclInitCallbackRegister(ACL_REG_TYPE_ACL_OP_EXECUTOR, executor_init, NULL), ACL_SUCCESS);
    const char *text = "{\"max_opqueue_num\": 7}";
    C_CODE(aclInit(cfg("h.json", text)), ACL_SUCCESS);
    C_EQ(g_calls[0], 1);
    C_EQ(g_calls[1], 1);
    C_EQ(g_model_len, strlen(text));
    C_EQ(strcmp(g_model_text, text), 0);
    C_CODE(aclFinalize(), ACL_SUCCESS);
}

/* ---- error messages are per thread ---- */

static void *fail_in_thread(void *arg)
{
    (void)arg;
    (void)aclDestroyDataBuffer(NULL);
    return (void *)(uintptr_t)(aclGetRecentErrMsg() != NULL);
}

static void error_messages_are_thread_local(void **state)
{
    (void)state;
    (void)aclGetRecentErrMsg();
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, fail_in_thread, NULL), 0);
    void *seen = NULL;
    pthread_join(t, &seen);
    assert_true(seen != NULL);
    assert_null(aclGetRecentErrMsg()); /* nothing leaked into this thread */
}

#define CHILD_TEST(name, fn)                                                                                \
    static void name(void **state)                                                                          \
    {                                                                                                       \
        (void)state;                                                                                        \
        run_child(fn);                                                                                      \
    }
CHILD_TEST(refcount, sc_refcount)
CHILD_TEST(finalize_without_init, sc_finalize_without_init)
CHILD_TEST(config_must_match_first, sc_config_must_match_first)
CHILD_TEST(same_content_other_path, sc_same_content_other_path)
CHILD_TEST(bad_files, sc_bad_files)
CHILD_TEST(keys, sc_keys)
CHILD_TEST(soc_must_be_known, sc_soc_must_be_known)
CHILD_TEST(default_device, sc_default_device)
CHILD_TEST(hooks, sc_hooks)
CHILD_TEST(hooks_with_file, sc_hooks_with_file)

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof(g_dir), "/tmp/oa_init_test_%d", (int)getpid());
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
        cmocka_unit_test(refcount),
        cmocka_unit_test(finalize_without_init),
        cmocka_unit_test(config_must_match_first),
        cmocka_unit_test(same_content_other_path),
        cmocka_unit_test(bad_files),
        cmocka_unit_test(keys),
        cmocka_unit_test(soc_must_be_known),
        cmocka_unit_test(default_device),
        cmocka_unit_test(hooks),
        cmocka_unit_test(hooks_with_file),
        cmocka_unit_test(error_messages_are_thread_local),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

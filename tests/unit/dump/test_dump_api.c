/* Dump state machine and acl_dump.h through the public API (each scenario in its own process). */
#define _GNU_SOURCE
#include <limits.h>
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

#include "acl/acl.h"
#include "acl/acl_dump.h"

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

static const char *file(const char *name, const char *text)
{
    static char path[4][PATH_MAX + 64];
    static int slot;
    char *p = path[slot++ % 4];
    snprintf(p, PATH_MAX + 64, "%s/%s", g_dir, name);
    FILE *f = fopen(p, "wb");
    if (f == NULL) {
        _exit(2);
    }
    fputs(text, f);
    fclose(f);
    return p;
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

static void sc_before_init(void)
{
    C_CODE(aclmdlInitDump(), ACL_ERROR_UNINITIALIZE);
    C_CODE(aclmdlSetDump("x.json"), ACL_ERROR_UNINITIALIZE);
    C_CODE(aclmdlFinalizeDump(), ACL_ERROR_UNINITIALIZE);
}

static void sc_state_machine(void)
{
    char valid[PATH_MAX + 128];
    snprintf(valid, sizeof(valid), "{\"dump\": {\"dump_path\": \"%s\", \"dump_list\": [{\"model_name\": \"m\"}]}}",
             g_dir);
    C_CODE(aclInit(NULL), ACL_SUCCESS);
    C_CODE(aclmdlSetDump(file("v.json", valid)), ACL_ERROR_DUMP_NOT_RUN);
    C_CODE(aclmdlFinalizeDump(), ACL_ERROR_DUMP_NOT_RUN);
    C_CODE(aclmdlInitDump(), ACL_SUCCESS);
    C_CODE(aclmdlInitDump(), ACL_ERROR_REPEAT_INITIALIZE);
    C_CODE(aclmdlSetDump(NULL), ACL_ERROR_INVALID_PARAM);
    C_CODE(aclmdlSetDump("/nonexistent/dump.json"), ACL_ERROR_INVALID_FILE);
    C_CODE(aclmdlSetDump(g_dir), ACL_ERROR_INVALID_FILE);
    C_CODE(aclmdlSetDump(file("bad.json", "{\"dump\": ")), ACL_ERROR_INVALID_DUMP_CONFIG);
    C_CODE(aclmdlSetDump(file("bad2.json", "{\"dump\": {\"dump_op_switch\": \"on\"}}")),
           ACL_ERROR_INVALID_DUMP_CONFIG);
    C_CODE(aclmdlSetDump(file("deep.json", "{\"a\":[[[[[[[[[[[1]]]]]]]]]]]}")), ACL_ERROR_PARSE_FILE);
    C_EQ(strcmp(acldumpGetPath(DATA_DUMP), ""), 0);
    C_CODE(aclmdlSetDump(file("empty.json", "")), ACL_SUCCESS);
    C_CODE(aclmdlSetDump(file("v.json", valid)), ACL_SUCCESS);
    C_EQ(strcmp(acldumpGetPath(DATA_DUMP), g_dir), 0);
    C_EQ(strcmp(acldumpGetPath(OVERFLOW_DUMP), g_dir), 0);
    C_TRUE(acldumpGetPath((acldumpType)99) == NULL);
    C_TRUE(aclGetRecentErrMsg() != NULL);
    C_CODE(aclmdlFinalizeDump(), ACL_SUCCESS);
    C_EQ(strcmp(acldumpGetPath(DATA_DUMP), ""), 0);
    C_CODE(aclmdlFinalizeDump(), ACL_ERROR_DUMP_NOT_RUN);

    /* CANN quirk: only aclmdlFinalizeDump clears the aclmdlInitDump flag */
    C_CODE(aclmdlInitDump(), ACL_SUCCESS);
    C_CODE(aclFinalize(), ACL_SUCCESS);
    C_CODE(aclmdlFinalizeDump(), ACL_ERROR_UNINITIALIZE);
    C_CODE(aclInit(NULL), ACL_SUCCESS);
    C_CODE(aclmdlInitDump(), ACL_ERROR_REPEAT_INITIALIZE);
    C_CODE(aclmdlFinalizeDump(), ACL_SUCCESS);
    C_CODE(aclFinalize(), ACL_SUCCESS);
}

static void sc_config_from_acl_init(void)
{
    char text[PATH_MAX + 128];
    snprintf(text, sizeof(text), "{\"dump\": {\"dump_path\": \"%s\", \"dump_op_switch\": \"on\"}}", g_dir);
    C_CODE(aclInit(file("acl.json", text)), ACL_SUCCESS);
    C_EQ(strcmp(acldumpGetPath(DATA_DUMP), g_dir), 0);
    C_CODE(aclFinalize(), ACL_SUCCESS);
    C_EQ(strcmp(acldumpGetPath(DATA_DUMP), ""), 0);
}

static int g_chunks;
static char g_chunk_file[ACL_DUMP_MAX_FILE_PATH_LENGTH];

static int32_t on_chunk(const acldumpChunk *chunk, int32_t len)
{
    ++g_chunks;
    snprintf(g_chunk_file, sizeof(g_chunk_file), "%s", chunk->fileName);
    C_TRUE((size_t)len >= sizeof(acldumpChunk) + chunk->bufLen);
    C_EQ(chunk->offset, -1);
    return 0;
}

static void sc_dump_functions(void)
{
    C_CODE(acldumpRegCallback(NULL, 0), ACL_ERROR_FAILURE);
    C_CODE(acldumpRegCallback(on_chunk, 1), ACL_ERROR_FAILURE);
    C_CODE(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, NULL), ACL_ERROR_FAILURE);
    C_CODE(aclopStartDumpArgs(0, g_dir), ACL_ERROR_FAILURE);
    C_CODE(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, g_dir), ACL_SUCCESS);
    C_CODE(aclopStopDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS), ACL_SUCCESS);

    char path[PATH_MAX];
    acldumpTensorInfo t;
    memset(&t, 0, sizeof(t));
    t.type = ACL_DUMP_TENSOR_INPUT;
    t.tensorSize = 16;
    C_CODE(acldumpGetExceptionInfoPath(NULL, 10), ACL_ERROR_INVALID_PARAM);
    C_CODE(acldumpGetExceptionInfoPath(path, 1), ACL_ERROR_INVALID_PARAM);
    C_CODE(acldumpGetExceptionInfoPath(path, sizeof(path)), ACL_ERROR_FAILURE); /* exception dump not enabled */
    C_CODE(acldumpSaveExceptionInfo(NULL, "tag", &t, 1), ACL_ERROR_INVALID_PARAM);
    C_CODE(acldumpSaveExceptionInfo("", "tag", &t, 1), ACL_ERROR_INVALID_PARAM);
    C_CODE(acldumpSaveExceptionInfo("../up", "tag", &t, 1), ACL_ERROR_INVALID_PARAM);
    C_CODE(acldumpSaveExceptionInfo("f.bin", "tag", NULL, 1), ACL_ERROR_INVALID_PARAM);
    C_CODE(acldumpSaveExceptionInfo("f.bin", "tag", &t, 0), ACL_ERROR_INVALID_PARAM);
    C_CODE(acldumpSaveExceptionInfo("f.bin", "tag", &t, 1), ACL_ERROR_FAILURE);

    setenv("ASCEND_DUMP_SCENE", "aic_err_norm_dump", 1);
    setenv("ASCEND_DUMP_PATH", g_dir, 1);
    C_CODE(acldumpGetExceptionInfoPath(path, sizeof(path)), ACL_SUCCESS);
    char want[PATH_MAX + 64];
    snprintf(want, sizeof(want), "%s/extra-info/data-dump/0/", g_dir);
    C_EQ(strcmp(path, want), 0);
    C_EQ(strcmp(acldumpGetPath(AIC_ERR_NORM_DUMP), g_dir), 0);
    C_CODE(acldumpGetExceptionInfoPath(path, 5), ACL_ERROR_INVALID_PARAM);
    C_CODE(acldumpSaveExceptionInfo("f.bin", "tag", &t, 1), ACL_SUCCESS);
    char file_path[PATH_MAX + 80];
    snprintf(file_path, sizeof(file_path), "%sf.bin", want);
    struct stat sb;
    C_EQ(stat(file_path, &sb), 0);
    C_CODE(acldumpRegCallback(on_chunk, 0), ACL_SUCCESS);
    C_CODE(acldumpSaveExceptionInfo("g.bin", NULL, &t, 1), ACL_SUCCESS);
    C_EQ(g_chunks, 1);
    C_TRUE(strstr(g_chunk_file, "g.bin") != NULL);
    acldumpUnregCallback();
    C_CODE(acldumpSaveExceptionInfo("h.bin", NULL, &t, 1), ACL_SUCCESS);
    C_EQ(g_chunks, 1);
}

#define CHILD_TEST(name, fn)                                                                                \
    static void name(void **state)                                                                          \
    {                                                                                                       \
        (void)state;                                                                                        \
        run_child(fn);                                                                                      \
    }
CHILD_TEST(before_init, sc_before_init)
CHILD_TEST(state_machine, sc_state_machine)
CHILD_TEST(config_from_acl_init, sc_config_from_acl_init)
CHILD_TEST(dump_functions, sc_dump_functions)

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof(g_dir), "/tmp/oa_dumpapi_%d", (int)getpid());
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
        cmocka_unit_test(before_init),
        cmocka_unit_test(state_machine),
        cmocka_unit_test(config_from_acl_init),
        cmocka_unit_test(dump_functions),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

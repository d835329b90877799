/*
 * Public base functions: data buffers, aclDataTypeSize, aclAppLog,
 * SoC name / architecture compatibility, CANN attributes, device
 * capabilities, versions (version.info under a temporary ASCEND_HOME_PATH),
 * aclGetRecentErrMsg.
 */
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
#include <unistd.h>
#include <cmocka.h>

#include "acl/acl.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define ASSERT_MSG() assert_non_null(aclGetRecentErrMsg())

static bool runtime_present(void)
{
    uint32_t n = 0;
    const aclError ret = aclrtGetDeviceCount(&n);
    (void)aclGetRecentErrMsg();
    return ret != ACL_ERROR_API_NOT_SUPPORT;
}

static void data_buffers(void **state)
{
    (void)state;
    char mem[16];
    aclDataBuffer *b = aclCreateDataBuffer(mem, sizeof(mem));
    assert_non_null(b);
    assert_ptr_equal(aclGetDataBufferAddr(b), mem);
    assert_int_equal(aclGetDataBufferSizeV2(b), 16);
    assert_int_equal(aclGetDataBufferSize(b), 16);
    assert_int_equal(aclUpdateDataBuffer(b, NULL, (size_t)0x100000005ull), ACL_SUCCESS);
    assert_null(aclGetDataBufferAddr(b));
    assert_int_equal(aclGetDataBufferSizeV2(b), (size_t)0x100000005ull);
    assert_int_equal(aclGetDataBufferSize(b), 5); /* truncated to 32 bits */
    assert_int_equal(aclDestroyDataBuffer(b), ACL_SUCCESS);

    aclDataBuffer *empty = aclCreateDataBuffer(NULL, 0);
    assert_non_null(empty);
    assert_int_equal(aclDestroyDataBuffer(empty), ACL_SUCCESS);

    assert_null(aclGetRecentErrMsg());
    assert_null(aclGetDataBufferAddr(NULL));
    assert_int_equal(aclGetDataBufferSizeV2(NULL), 0);
    assert_int_equal(aclGetDataBufferSize(NULL), 0);
    assert_int_equal(aclDestroyDataBuffer(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclUpdateDataBuffer(NULL, mem, 1), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
}

static void data_type_sizes(void **state)
{
    (void)state;
    assert_int_equal(aclDataTypeSize(ACL_STRING), 0);
    assert_int_equal(aclDataTypeSize(ACL_DT_UNDEFINED), 0);
    const aclDataType one[] = {ACL_UINT1, ACL_INT4, ACL_BOOL, ACL_INT8, ACL_UINT8, ACL_HIFLOAT8,
                               ACL_FLOAT8_E5M2, ACL_FLOAT8_E4M3FN, ACL_FLOAT8_E8M0};
    for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); ++i) {
        assert_int_equal(aclDataTypeSize(one[i]), 1);
    }
    assert_int_equal(aclDataTypeSize(ACL_FLOAT16), 2);
    assert_int_equal(aclDataTypeSize(ACL_BF16), 2);
    assert_int_equal(aclDataTypeSize(ACL_INT16), 2);
    assert_int_equal(aclDataTypeSize(ACL_UINT16), 2);
    assert_int_equal(aclDataTypeSize(ACL_FLOAT), 4);
    assert_int_equal(aclDataTypeSize(ACL_INT32), 4);
    assert_int_equal(aclDataTypeSize(ACL_UINT32), 4);
    assert_int_equal(aclDataTypeSize(ACL_COMPLEX32), 4);
    assert_int_equal(aclDataTypeSize(ACL_COMPLEX128), 16);
    assert_int_equal(aclDataTypeSize(ACL_INT64), 8);
    assert_int_equal(aclDataTypeSize(ACL_UINT64), 8);
    assert_int_equal(aclDataTypeSize(ACL_DOUBLE), 8);
    assert_int_equal(aclDataTypeSize(ACL_COMPLEX64), 8);
    assert_int_equal(aclDataTypeSize(ACL_FLOAT6_E3M2), 8);
    assert_int_equal(aclDataTypeSize(ACL_FLOAT4_E2M1), 8);
    assert_int_equal(aclDataTypeSize((aclDataType)5), 8);
    assert_int_equal(aclDataTypeSize((aclDataType)1000), 8);
}

static char g_log_dir[PATH_MAX];

/* Concatenation of every log file under g_log_dir (plog writes one file per process). */
static char *read_logs(void)
{
    char cmd[PATH_MAX + 64];
    snprintf(cmd, sizeof(cmd), "cat $(find '%s' -type f) 2>/dev/null", g_log_dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t cap = 1 << 20;
    char *buf = calloc(1, cap);
    assert_non_null(buf);
    const size_t n = fread(buf, 1, cap - 1, p);
    buf[n] = '\0';
    pclose(p);
    return buf;
}

static void app_log_writes_app_lines(void **state)
{
    (void)state;
    char long_msg[3000];
    memset(long_msg, 'x', sizeof(long_msg) - 1);
    long_msg[sizeof(long_msg) - 1] = '\0';
    aclAppLog(ACL_ERROR, "my_func", "my_file.c", 42, "hello %d from the app", 7);
    ACL_APP_LOG(ACL_ERROR, "%s", long_msg);
    aclAppLog(ACL_DEBUG, "f", "x.c", 1, "debug line hidden at the default level");
    aclAppLog((aclLogLevel)9, "f", "x.c", 1, "bad level");
    aclAppLog(ACL_ERROR, NULL, "x.c", 1, "no function");
    aclAppLog(ACL_ERROR, "f", "x.c", 1, NULL);
    char *logs = read_logs();
    assert_non_null(strstr(logs, "[ERROR] APP("));
    assert_non_null(strstr(logs, "hello 7 from the app"));
    assert_non_null(strstr(logs, "my_func"));
    assert_non_null(strstr(logs, "...[truncated]"));
    assert_null(strstr(logs, "debug line hidden"));
    assert_null(strstr(logs, "bad level"));
    assert_null(strstr(logs, "no function"));
    assert_null(strstr(logs, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                             "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                             "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                             "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                             "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                             "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                             "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                             "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                             "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                             "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                             "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"));
    free(logs);
}

static void soc_name_and_compatibility(void **state)
{
    (void)state;
    unsetenv("OPENACL_SOC_VERSION");
    assert_string_equal(aclrtGetSocName(), "Ascend910B1");
    int32_t ok = -1;
    assert_int_equal(aclrtCheckArchCompatibility("Ascend910B4", &ok), ACL_SUCCESS);
    assert_int_equal(ok, 1);
    assert_int_equal(aclrtCheckArchCompatibility("Ascend910_9391", &ok), ACL_SUCCESS);
    assert_int_equal(ok, 1);
    assert_int_equal(aclrtCheckArchCompatibility("Ascend310P3", &ok), ACL_SUCCESS);
    assert_int_equal(ok, 0);
    assert_int_equal(aclrtCheckArchCompatibility("Ascend910A", &ok), ACL_SUCCESS);
    assert_int_equal(ok, 0);

    setenv("OPENACL_SOC_VERSION", "Ascend310P3", 1);
    assert_string_equal(aclrtGetSocName(), "Ascend310P3");
    assert_int_equal(aclrtCheckArchCompatibility("Ascend310P1", &ok), ACL_SUCCESS);
    assert_int_equal(ok, 1);
    assert_int_equal(aclrtCheckArchCompatibility("Ascend910B1", &ok), ACL_SUCCESS);
    assert_int_equal(ok, 0);

    assert_null(aclGetRecentErrMsg());
    setenv("OPENACL_SOC_VERSION", "Ascend999", 1);
    assert_null(aclrtGetSocName());
    ASSERT_MSG();
    unsetenv("OPENACL_SOC_VERSION");

    assert_int_equal(aclrtCheckArchCompatibility(NULL, &ok), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG();
    assert_int_equal(aclrtCheckArchCompatibility("Ascend910B1", NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG();
    assert_int_equal(aclrtCheckArchCompatibility("", &ok), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG();
    assert_int_equal(aclrtCheckArchCompatibility("NotASoc", &ok), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG();
}

static void cann_attributes(void **state)
{
    (void)state;
    const aclCannAttr *list = NULL;
    size_t n = 0;
    assert_int_equal(aclGetCannAttributeList(&list, &n), ACL_SUCCESS);
    assert_int_equal(n, 3); /* Ascend910B1: INF_NAN, BF16, JIT_COMPILE */
    assert_int_equal(list[0], ACL_CANN_ATTR_INF_NAN);
    assert_int_equal(list[1], ACL_CANN_ATTR_BF16);
    assert_int_equal(list[2], ACL_CANN_ATTR_JIT_COMPILE);
    int32_t v = -1;
    assert_int_equal(aclGetCannAttribute(ACL_CANN_ATTR_BF16, &v), ACL_SUCCESS);
    assert_int_equal(v, 1);

    setenv("OPENACL_SOC_VERSION", "Ascend310P3", 1);
    assert_int_equal(aclGetCannAttributeList(&list, &n), ACL_SUCCESS);
    assert_int_equal(n, 1);
    assert_int_equal(list[0], ACL_CANN_ATTR_JIT_COMPILE);
    assert_int_equal(aclGetCannAttribute(ACL_CANN_ATTR_BF16, &v), ACL_SUCCESS);
    assert_int_equal(v, 0);
    assert_int_equal(aclGetCannAttribute(ACL_CANN_ATTR_INF_NAN, &v), ACL_SUCCESS);
    assert_int_equal(v, 0);
    assert_int_equal(aclGetCannAttribute(ACL_CANN_ATTR_JIT_COMPILE, &v), ACL_SUCCESS);
    assert_int_equal(v, 1);
    unsetenv("OPENACL_SOC_VERSION");

    assert_int_equal(aclGetCannAttributeList(NULL, &n), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclGetCannAttributeList(&list, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclGetCannAttribute(ACL_CANN_ATTR_BF16, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclGetCannAttribute(ACL_CANN_ATTR_UNDEFINED, &v), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclGetCannAttribute((aclCannAttr)17, &v), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
}

static void device_capability(void **state)
{
    (void)state;
    int64_t v = 0;
    assert_int_equal(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    if (!runtime_present()) {
        skip();
    }
    uint32_t count = 0;
    assert_int_equal(aclrtGetDeviceCount(&count), ACL_SUCCESS);
    assert_int_equal(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &v), ACL_SUCCESS);
    assert_int_equal(v, sysconf(_SC_NPROCESSORS_ONLN));
    assert_int_equal(aclGetDeviceCapability(0, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &v), ACL_SUCCESS);
    assert_true(v >= 1);
    v = -1;
    assert_int_equal(aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, &v), ACL_SUCCESS);
    assert_true(v >= 0);
    assert_int_equal(aclGetDeviceCapability(count, ACL_DEVICE_INFO_AI_CORE_NUM, &v), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclGetDeviceCapability(0, ACL_DEVICE_INFO_UNDEFINED, &v), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclGetDeviceCapability(0, (aclDeviceInfo)3, &v), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
}

/* ---- versions ---- */

static char g_home[PATH_MAX];

static void write_version(const char *pkg, const char *content)
{
    char dir[PATH_MAX + 64];
    snprintf(dir, sizeof(dir), "%s/share/info/%s", g_home, pkg);
    char cmd[PATH_MAX * 2];
    snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", dir);
    assert_int_equal(system(cmd), 0);
    char file[PATH_MAX + 96];
    snprintf(file, sizeof(file), "%s/version.info", dir);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs(content, f);
    fclose(f);
}

static int32_t version_num(const char *version, aclError *ret)
{
    char content[256];
    snprintf(content, sizeof(content), "Version=%s\nversion_dir=x\n", version);
    write_version("numtest", content);
    int32_t num = -7;
    *ret = aclsysGetVersionNum("numtest", &num);
    (void)aclGetRecentErrMsg();
    return num;
}

static void version_number_rule(void **state)
{
    (void)state;
    static const struct {
        const char *ver;
        aclError ret;
        int32_t num;
    } kCases[] = {
        {"8.5.0", ACL_SUCCESS, 80500000},
        {"8.0.1", ACL_SUCCESS, 80001000},
        {"10.2.3", ACL_SUCCESS, 100203000},
        {"8.5.0.alpha001", ACL_SUCCESS, 80500000 - 300 + 1},
        {"8.5.0-beta.2", ACL_SUCCESS, 80500000 - 200 + 2},
        {"8.5.0rc3", ACL_SUCCESS, 80500000 - 100 + 3},
        {"8.5.0.RC1", ACL_SUCCESS, 80500000 - 100 + 1},
        {"8.5.0-rc", ACL_SUCCESS, 80500000 - 100},
        {"8.5.0.rc-1", ACL_SUCCESS, 80500000 - 100 + 1},
        {"8.0.RC1", ACL_ERROR_INTERNAL_ERROR, -7},   /* no numeric patch */
        {"8", ACL_ERROR_INTERNAL_ERROR, -7},         /* no minor */
        {".5.0", ACL_ERROR_INTERNAL_ERROR, -7},      /* no major */
        {"8..0", ACL_ERROR_INTERNAL_ERROR, -7},      /* empty minor */
        {"8.5.0.gamma1", ACL_ERROR_INTERNAL_ERROR, -7},
        {"8.5.0..rc1", ACL_ERROR_INTERNAL_ERROR, -7}, /* two separators */
        {"8.5.0.rc..1", ACL_ERROR_INTERNAL_ERROR, -7},
        {"8.5.0.rc1x", ACL_ERROR_INTERNAL_ERROR, -7},
        {"a.5.0", ACL_ERROR_INTERNAL_ERROR, -7},
    };
    for (size_t i = 0; i < sizeof(kCases) / sizeof(kCases[0]); ++i) {
        aclError ret = -1;
        const int32_t num = version_num(kCases[i].ver, &ret);
        if (ret != kCases[i].ret || num != kCases[i].num) {
            fail_msg("version [%s]: got ret %d num %d, want ret %d num %d", kCases[i].ver, ret, num, kCases[i].ret,
                     kCases[i].num);
        }
    }
}

static void version_strings(void **state)
{
    (void)state;
    /* as installed: CANN's lines, then openacl's own (which the getters must not read) */
    write_version("runtime", "Version=8.5.0\nversion_dir=8.5.0\nopenacl_version=0.1.0\nopenacl_commit=0123456789ab\n");
    write_version("my_pkg", "  Version= 1.2.3  \n");
    write_version("ops-legacy", "Version=8.5.0-beta.1\n");
    char ver[ACL_PKG_VERSION_MAX_SIZE];
    assert_int_equal(aclsysGetVersionStr("runtime", ver), ACL_SUCCESS);
    assert_string_equal(ver, "8.5.0");
    assert_int_equal(aclsysGetVersionStr("my_pkg", ver), ACL_SUCCESS);
    assert_string_equal(ver, "1.2.3");
    assert_int_equal(aclsysGetVersionStr("my-pkg", ver), ACL_SUCCESS); /* '-' and '_' swapped */
    assert_string_equal(ver, "1.2.3");
    assert_int_equal(aclsysGetVersionStr("ops_legacy", ver), ACL_SUCCESS);
    assert_string_equal(ver, "8.5.0-beta.1");
    int32_t num = 0;
    assert_int_equal(aclsysGetVersionNum("runtime", &num), ACL_SUCCESS);
    assert_int_equal(num, 80500000);

    assert_int_equal(aclsysGetVersionStr("missing", ver), ACL_ERROR_INVALID_FILE);
    ASSERT_MSG();
    write_version("nokey", "Release=8.5.0\n");
    assert_int_equal(aclsysGetVersionStr("nokey", ver), ACL_ERROR_INVALID_FILE);
    ASSERT_MSG();
    write_version("emptyval", "Version=   \n");
    assert_int_equal(aclsysGetVersionNum("emptyval", &num), ACL_ERROR_INVALID_FILE);
    ASSERT_MSG();
    char longver[300] = "Version=";
    memset(longver + 8, '9', 200);
    longver[208] = '\n';
    write_version("longver", longver);
    assert_int_equal(aclsysGetVersionStr("longver", ver), ACL_ERROR_INTERNAL_ERROR);
    ASSERT_MSG();
    assert_int_equal(aclsysGetVersionStr(NULL, ver), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclsysGetVersionStr("runtime", NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclsysGetVersionNum("runtime", NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();

    aclCANNPackageVersion pv;
    assert_int_equal(aclsysGetCANNVersion(ACL_PKG_NAME_CANN, &pv), ACL_SUCCESS);
    assert_string_equal(pv.version, "8.5.0");
    assert_string_equal(pv.majorVersion, "8");
    assert_string_equal(pv.minorVersion, "5");
    assert_string_equal(pv.releaseVersion, "0");
    assert_string_equal(pv.patchVersion, "0");
    /* the build's identity in `reserved` (CANN's fields above stay CANN's) */
    assert_true(strncmp(pv.reserved, "openacl ", 8) == 0);
    const char *commit = strstr(pv.reserved, "(commit ");
    assert_non_null(commit);
    commit += 8;
    const size_t hex = strspn(commit, "0123456789abcdef");
    assert_true((hex == 12 && commit[12] == ')') || strncmp(commit, "unknown)", 8) == 0);
    assert_int_equal(aclsysGetCANNVersion(ACL_PKG_NAME_OPP, &pv), ACL_SUCCESS);
    assert_string_equal(pv.version, "8.5.0.beta1");
    assert_string_equal(pv.patchVersion, "beta1");
    assert_int_equal(aclsysGetCANNVersion(ACL_PKG_NAME_HCCL, &pv), ACL_ERROR_INVALID_FILE);
    ASSERT_MSG();
    assert_int_equal(aclsysGetCANNVersion((aclCANNPackageName)42, &pv), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclsysGetCANNVersion(ACL_PKG_NAME_CANN, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();

    int32_t major = 0;
    int32_t minor = 0;
    int32_t patch = -1;
    assert_int_equal(aclrtGetVersion(&major, &minor, &patch), ACL_SUCCESS);
    assert_int_equal(major, 1);
    assert_int_equal(minor, 17);
    assert_int_equal(patch, 0);
    assert_int_equal(aclrtGetVersion(NULL, &minor, &patch), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();

    unsetenv("ASCEND_HOME_PATH");
    assert_int_equal(aclsysGetVersionStr("runtime", ver), ACL_ERROR_INVALID_FILE);
    (void)aclGetRecentErrMsg();
    assert_int_equal(aclsysGetCANNVersion(ACL_PKG_NAME_CANN, &pv), ACL_ERROR_INVALID_FILE);
    ASSERT_MSG();
    setenv("ASCEND_HOME_PATH", g_home, 1);
}

static void recent_error_message_is_per_thread_and_consumed(void **state)
{
    (void)state;
    assert_null(aclGetRecentErrMsg());
    assert_int_equal(aclDestroyDataBuffer(NULL), ACL_ERROR_INVALID_PARAM);
    const char *m = aclGetRecentErrMsg();
    assert_non_null(m);
    assert_non_null(strstr(m, "dataBuffer"));
    assert_null(aclGetRecentErrMsg());
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_home, sizeof(g_home), "/tmp/oa_misc_home_%d", (int)getpid());
    setenv("ASCEND_HOME_PATH", g_home, 1);
    snprintf(g_log_dir, sizeof(g_log_dir), "/tmp/oa_misc_logs_%d", (int)getpid());
    setenv("ASCEND_PROCESS_LOG_PATH", g_log_dir, 1);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[PATH_MAX * 2 + 32];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", g_home, g_log_dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(data_buffers),
        cmocka_unit_test(data_type_sizes),
        cmocka_unit_test(app_log_writes_app_lines),
        cmocka_unit_test(soc_name_and_compatibility),
        cmocka_unit_test(cann_attributes),
        cmocka_unit_test(device_capability),
        cmocka_unit_test(version_number_rule),
        cmocka_unit_test(version_strings),
        cmocka_unit_test(recent_error_message_is_per_thread_and_consumed),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

/* base/log.c: levels silence ERROR lines too, plog files are created lazily, rotated and capped. */
#define _GNU_SOURCE
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/build_info.h"
#include "base/error.h"
#include "base/log.h"

static char g_root[256];
static char g_plog[300];

/* Number of plog-*.log files; total bytes in *bytes, the largest in *largest. */
static int count_plogs(long *bytes, long *largest)
{
    DIR *d = opendir(g_plog);
    int n = 0;
    if (bytes != NULL) {
        *bytes = 0;
    }
    if (largest != NULL) {
        *largest = 0;
    }
    if (d == NULL) {
        return 0;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "plog-", 5) != 0) {
            continue;
        }
        char p[600];
        struct stat sb;
        snprintf(p, sizeof p, "%s/%s", g_plog, e->d_name);
        if (stat(p, &sb) == 0) {
            ++n;
            if (bytes != NULL) {
                *bytes += (long)sb.st_size;
            }
            if (largest != NULL && (long)sb.st_size > *largest) {
                *largest = (long)sb.st_size;
            }
        }
    }
    closedir(d);
    return n;
}

static void clear_dir(void)
{
    DIR *d = opendir(g_plog);
    if (d == NULL) {
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] != '.') {
            char p[600];
            snprintf(p, sizeof p, "%s/%s", g_plog, e->d_name);
            unlink(p);
        }
    }
    closedir(d);
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_root, sizeof g_root, "/tmp/oa_test_log_XXXXXX");
    if (mkdtemp(g_root) == NULL) {
        return -1;
    }
    snprintf(g_plog, sizeof g_plog, "%s/debug/plog", g_root);
    setenv("ASCEND_PROCESS_LOG_PATH", g_root, 1);
    unsetenv("ASCEND_LOG_PRINT_TO_STDOUT");
    unsetenv("ASCEND_SLOG_PRINT_TO_STDOUT");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    clear_dir();
    char p[600];
    rmdir(g_plog);
    snprintf(p, sizeof p, "%s/debug", g_root);
    rmdir(p);
    rmdir(g_root);
    return 0;
}

static void level_4_silences_errors(void **state)
{
    (void)state;
    clear_dir();
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1);
    unsetenv("ASCEND_MODULE_LOG_LEVEL");
    oa_log_reload();
    assert_false(oa_log_enabled(OA_LOG_ERROR, "ASCENDCL"));
    assert_int_equal(OA_FAIL(OA_E_PARAM, "silenced %d", 1), OA_E_PARAM);
    assert_int_equal(count_plogs(NULL, NULL), 0); /* no line, no file */
    const char *m = oa_error_take_messages();     /* the message is still the application's */
    assert_non_null(m);
    assert_non_null(strstr(m, "silenced 1"));

    /* level 3 (the default): the same failure writes a line, after the build's identity */
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "3", 1);
    oa_log_reload();
    (void)OA_FAIL(OA_E_PARAM, "logged");
    assert_int_equal(count_plogs(NULL, NULL), 1);
    (void)oa_error_take_messages();
    DIR *d = opendir(g_plog);
    assert_non_null(d);
    struct dirent *e;
    char first[1024] = {0}, second[1024] = {0};
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "plog-", 5) == 0) {
            char p[600];
            snprintf(p, sizeof p, "%s/%s", g_plog, e->d_name);
            FILE *f = fopen(p, "r");
            assert_non_null(f);
            assert_non_null(fgets(first, sizeof first, f));
            assert_non_null(fgets(second, sizeof second, f));
            fclose(f);
        }
    }
    closedir(d);
    assert_non_null(strstr(first, oa_build_string()));
    assert_non_null(strstr(first, "[INFO]"));
    assert_non_null(strstr(second, "logged"));
}

static void module_level_4_silences_that_module(void **state)
{
    (void)state;
    clear_dir();
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "3", 1);
    setenv("ASCEND_MODULE_LOG_LEVEL", "GE=4:RUNTIME=1", 1);
    oa_log_reload();
    assert_false(oa_log_enabled(OA_LOG_ERROR, "GE"));
    assert_true(oa_log_enabled(OA_LOG_ERROR, "ASCENDCL"));
    assert_true(oa_log_enabled(OA_LOG_INFO, "RUNTIME"));
    (void)oa_error_set(OA_E_PARAM, "GE", __FILE__, __LINE__, __func__, "from GE");
    assert_int_equal(count_plogs(NULL, NULL), 0);
    (void)oa_error_set(OA_E_PARAM, "ASCENDCL", __FILE__, __LINE__, __func__, "from ACL");
    assert_int_equal(count_plogs(NULL, NULL), 1);
    (void)oa_error_take_messages();
    unsetenv("ASCEND_MODULE_LOG_LEVEL");
}

static void files_rotate_and_are_capped(void **state)
{
    (void)state;
    clear_dir();
    /* five older files of other processes */
    mkdir(g_root, 0750);
    char p[600];
    snprintf(p, sizeof p, "%s/debug", g_root);
    mkdir(p, 0750);
    mkdir(g_plog, 0750);
    for (int i = 0; i < 5; ++i) {
        snprintf(p, sizeof p, "%s/plog-%d_2020010100000%d.log", g_plog, 900000 + i, i);
        FILE *f = fopen(p, "w");
        assert_non_null(f);
        fputs("old\n", f);
        fclose(f);
        struct timeval tv[2] = {{1577836800 + i, 0}, {1577836800 + i, 0}};
        utimes(p, tv);
    }
    assert_int_equal(count_plogs(NULL, NULL), 5);
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "0", 1);
    setenv("ASCEND_HOST_LOG_FILE_NUM", "3", 1);
    setenv("OA_LOG_FILE_MAX_BYTES", "2048", 1);
    oa_log_reload();
    char line[200];
    memset(line, 'x', sizeof line - 1);
    line[sizeof line - 1] = '\0';
    for (int i = 0; i < 100; ++i) { /* ~100 x 300 bytes: many 2 KiB files */
        oa_log_write(OA_LOG_INFO, "ASCENDCL", __FILE__, __LINE__, __func__, "%d %s", i, line);
    }
    long bytes = 0, largest = 0;
    const int n = count_plogs(&bytes, &largest);
    assert_int_equal(n, 3);                  /* ASCEND_HOST_LOG_FILE_NUM files at most, the old ones gone */
    assert_true(largest < 2048 + 512);       /* each closed near the size limit */
    assert_true(bytes > 2048);               /* more than one file's worth was kept */
    snprintf(p, sizeof p, "%s/plog-900000_20200101000000.log", g_plog);
    assert_int_not_equal(access(p, F_OK), 0);
    /* an invalid count falls back to CANN's default (10) */
    setenv("ASCEND_HOST_LOG_FILE_NUM", "0", 1);
    oa_log_reload();
    for (int i = 0; i < 100; ++i) {
        oa_log_write(OA_LOG_INFO, "ASCENDCL", __FILE__, __LINE__, __func__, "%d %s", i, line);
    }
    assert_int_equal(count_plogs(NULL, NULL), 10);
    unsetenv("ASCEND_HOST_LOG_FILE_NUM");
    unsetenv("OA_LOG_FILE_MAX_BYTES");
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "3", 1);
    oa_log_reload();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(level_4_silences_errors),
        cmocka_unit_test(module_level_4_silences_that_module),
        cmocka_unit_test(files_rotate_and_are_capped),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

/*
 * Device memory still allocated when its device closes is reported (a
 * CANN-style warning) and freed: at aclrtResetDevice and at aclFinalize.
 * The log goes to stdout (ASCEND_SLOG_PRINT_TO_STDOUT=1, warnings enabled);
 * each test captures stdout around the call and reads the report back.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "rt_test_util.h"

typedef struct capture {
    int saved;
    FILE *file;
} capture;

static void capture_begin(capture *c)
{
    fflush(stdout);
    c->file = tmpfile();
    assert_non_null(c->file);
    c->saved = dup(STDOUT_FILENO);
    assert_true(c->saved >= 0);
    assert_true(dup2(fileno(c->file), STDOUT_FILENO) >= 0);
}

/* Restores stdout and returns what was written meanwhile (free it). */
static char *capture_end(capture *c)
{
    fflush(stdout);
    assert_true(dup2(c->saved, STDOUT_FILENO) >= 0);
    close(c->saved);
    const long n = ftell(c->file);
    assert_true(n >= 0);
    char *text = calloc(1, (size_t)n + 1);
    assert_non_null(text);
    rewind(c->file);
    assert_int_equal(fread(text, 1, (size_t)n, c->file), (size_t)n);
    fclose(c->file);
    return text;
}

static void reset_device_reports_leaked_memory(void **state)
{
    (void)state;
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    void *p = NULL, *q = NULL;
    assert_int_equal(aclrtMalloc(&p, 1000, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMalloc(&q, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    capture c;
    capture_begin(&c);
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
    char *log = capture_end(&c);
    if (strstr(log, "device 0 closed with 2 leaked device allocation(s)") == NULL ||
        strstr(log, "(requested 1000)") == NULL) {
        fail_msg("no leak report at aclrtResetDevice, the log says:\n%s", log);
    }
    free(log);
    /* freed with the device: the pointers are unknown now */
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtFree(p), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
}

static void no_report_without_leaks(void **state)
{
    (void)state;
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    void *p = NULL;
    assert_int_equal(aclrtMalloc(&p, 1000, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtFree(p), ACL_SUCCESS);
    capture c;
    capture_begin(&c);
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
    char *log = capture_end(&c);
    if (strstr(log, "leaked") != NULL) {
        fail_msg("a leak reported without one:\n%s", log);
    }
    free(log);
}

/* Last: aclFinalize closes the devices still open and reports what they held. */
static void finalize_reports_leaked_memory(void **state)
{
    (void)state;
    assert_int_equal(aclrtSetDevice(1), ACL_SUCCESS);
    void *p = NULL;
    assert_int_equal(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    capture c;
    capture_begin(&c);
    assert_int_equal(aclFinalize(), ACL_SUCCESS);
    char *log = capture_end(&c);
    if (strstr(log, "leaked") == NULL || strstr(log, "(requested 4096)") == NULL) {
        fail_msg("no leak report at aclFinalize, the log says:\n%s", log);
    }
    free(log);
}

int main(void)
{
    /* warnings to stdout, before aclInit reads the settings */
    setenv("ASCEND_SLOG_PRINT_TO_STDOUT", "1", 1);
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "2", 1);
    if (aclInit(NULL) != ACL_SUCCESS) {
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reset_device_reports_leaked_memory),
        cmocka_unit_test(no_report_without_leaks),
        cmocka_unit_test(finalize_reports_leaked_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * Issue 18, leftovers: an aclInit whose acl.json starts the profiler and that
 * then fails (here: an init hook of the application returns an error) rolls
 * back without writing a PROF_* directory; the next aclInit of the process,
 * without the failing hook, succeeds and its aclFinalize writes one.
 *
 *   test_hostile_init   (its own process: aclInit happens once per test)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "support/acl_checks.h"

#include "acl/acl.h"

static int g_fail = 1;

static aclError init_hook(const char *configStr, size_t len, void *userData)
{
    (void)configStr;
    (void)len;
    (void)userData;
    return g_fail ? ACL_ERROR_FAILURE : ACL_SUCCESS;
}

static int count_prof_dirs(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        n += strncmp(e->d_name, "PROF_", 5) == 0;
    }
    closedir(d);
    return n;
}

static void remove_tree(const char *dir)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static void failed_init_leaves_no_prof_dirs(void **state)
{
    (void)state;
    char tmpl[] = "/tmp/oa_hostile_prof_XXXXXX";
    char *dir = mkdtemp(tmpl);
    assert_non_null(dir);
    char cfg[PATH_MAX + 32], json[PATH_MAX + 128];
    snprintf(cfg, sizeof cfg, "%s/acl.json", dir);
    snprintf(json, sizeof json, "{\"profiler\": {\"switch\": \"on\", \"output\": \"%s\"}}", dir);
    FILE *f = fopen(cfg, "w");
    assert_non_null(f);
    fputs(json, f);
    fclose(f);
    OK_ACL(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_hook, NULL));
    EXPECT_ACL(aclInit(cfg), ACL_ERROR_FAILURE, "init hook");
    assert_int_equal(count_prof_dirs(dir), 0);
    /* the same configuration without the failure: the profiler writes at aclFinalize (the check can fail) */
    g_fail = 0;
    OK_ACL(aclInit(cfg));
    OK_ACL(aclFinalize());
    assert_int_equal(count_prof_dirs(dir), 1);
    remove_tree(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(failed_init_leaves_no_prof_dirs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * Several processes share one mmap'ed weight file while one is killed
 * (issue 18, soak): three processes load model_v1's fcw/ok.om (its
 * FileConstant maps fcw/weight/fcw.bin read-only and shared) and execute it
 * in a loop, checking every result against their first one; the first
 * process is killed with SIGKILL in the middle. The two others must finish
 * with unchanged results, the weight file must keep its bytes, and a new
 * load afterwards gives the same result again.
 *
 *   test_shared_weights   ($OA_V1_MODELS: model_v1's v1_models)
 */
#define _GNU_SOURCE
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "acl/acl.h"

static char g_om[PATH_MAX], g_bin[PATH_MAX];

static void *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *b = malloc(n > 0 ? (size_t)n : 1);
    if (b != NULL && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return b;
}

/* Loads fcw/ok.om and runs it on a fixed input: 0 and *y filled (n floats), else a non-zero step number. */
static int run_once(uint32_t id, float *y, size_t n)
{
    float x[16];
    for (int i = 0; i < 16; i++) {
        x[i] = (float)(i % 5) - 2.0f;
    }
    void *dx = NULL, *dy = NULL;
    if (aclrtMalloc(&dx, sizeof x, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
        aclrtMalloc(&dy, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
        return 1;
    }
    (void)aclrtMemcpy(dx, sizeof x, x, sizeof x, ACL_MEMCPY_HOST_TO_DEVICE);
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    aclDataBuffer *bx = aclCreateDataBuffer(dx, sizeof x), *by = aclCreateDataBuffer(dy, n * sizeof(float));
    int rc = aclmdlAddDatasetBuffer(in, bx) != ACL_SUCCESS || aclmdlAddDatasetBuffer(out, by) != ACL_SUCCESS ? 2 : 0;
    if (rc == 0 && aclmdlExecute(id, in, out) != ACL_SUCCESS) {
        rc = 3;
    }
    if (rc == 0) {
        (void)aclrtMemcpy(y, n * sizeof(float), dy, n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
    }
    (void)aclDestroyDataBuffer(bx);
    (void)aclDestroyDataBuffer(by);
    (void)aclmdlDestroyDataset(in);
    (void)aclmdlDestroyDataset(out);
    (void)aclrtFree(dx);
    (void)aclrtFree(dy);
    return rc;
}

/* A child: load, run until `seconds` have passed, every result equal to the first. Exit code 0 when so. */
static int child(double seconds)
{
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
        return 10;
    }
    uint32_t id = 0;
    if (aclmdlLoadFromFile(g_om, &id) != ACL_SUCCESS) {
        return 11;
    }
    aclmdlDesc *d = aclmdlCreateDesc();
    if (aclmdlGetDesc(d, id) != ACL_SUCCESS) {
        return 12;
    }
    const size_t n = aclmdlGetOutputSizeByIndex(d, 0) / sizeof(float);
    (void)aclmdlDestroyDesc(d);
    float *first = calloc(n, sizeof(float)), *y = calloc(n, sizeof(float));
    if (first == NULL || y == NULL || run_once(id, first, n) != 0) {
        return 13;
    }
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = 0;
    do {
        if (run_once(id, y, n) != 0) {
            rc = 14;
        } else if (memcmp(y, first, n * sizeof(float)) != 0) {
            rc = 15;
        }
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while (rc == 0 && (double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < seconds);
    if (aclmdlUnload(id) != ACL_SUCCESS) {
        rc = 16;
    }
    free(first);
    free(y);
    (void)aclrtResetDevice(0);
    (void)aclFinalize();
    return rc;
}

static void shared_weight_file_survives_a_kill(void **state)
{
    (void)state;
    size_t before_len = 0, after_len = 0;
    void *before = read_all(g_bin, &before_len);
    assert_non_null(before);
    fflush(stdout);
    pid_t pids[3];
    for (int i = 0; i < 3; i++) {
        pids[i] = fork();
        assert_true(pids[i] >= 0);
        if (pids[i] == 0) {
            _exit(child(i == 0 ? 30.0 : 2.0)); /* the first would run long: it is killed */
        }
    }
    usleep(700 * 1000);
    assert_int_equal(kill(pids[0], SIGKILL), 0);
    for (int i = 0; i < 3; i++) {
        int status = 0;
        assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
        if (i == 0) {
            assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        } else {
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                fail_msg("process %d ended with status 0x%x (exit code %d)", i, status,
                         WIFEXITED(status) ? WEXITSTATUS(status) : -1);
            }
        }
    }
    void *after = read_all(g_bin, &after_len);
    assert_non_null(after);
    assert_int_equal(after_len, before_len);
    assert_memory_equal(after, before, before_len);
    free(after);
    free(before);
    /* and one more process afterwards, from scratch */
    const pid_t p = fork();
    assert_true(p >= 0);
    if (p == 0) {
        _exit(child(0.2));
    }
    int status = 0;
    assert_int_equal(waitpid(p, &status, 0), p);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int main(void)
{
    const char *dir = getenv("OA_V1_MODELS");
    if (dir == NULL) {
        fprintf(stderr, "test_shared_weights needs $OA_V1_MODELS\n");
        return 2;
    }
    snprintf(g_om, sizeof g_om, "%s/fcw/ok.om", dir);
    snprintf(g_bin, sizeof g_bin, "%s/fcw/weight/fcw.bin", dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shared_weight_file_survives_a_kill),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

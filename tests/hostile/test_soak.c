/*
 * Soak: models loaded, executed and unloaded in a loop for a bounded time
 * ($OA_SOAK_SECONDS, default 8), through the public API: a static model
 * (fc.om, from file and from memory), a dynamic one (fc_dyn.om, batch 1
 * and 3), external weights (model_v1's fcw/ok.om, weight directory next to
 * it) and an asynchronous execution on a stream. After a warm-up round the
 * process's open file descriptors and threads are the baseline: each later
 * round must come back to it (no descriptor, mapping or thread kept by an
 * unloaded model), and resident memory must stop growing (checked without
 * AddressSanitizer, whose quarantine holds freed memory on purpose).
 *
 *   test_soak   ($OA_HOSTILE_DIR, $OA_V1_MODELS: the fixtures' directories)
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
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "support/acl_fixture.h"

#include "support/acl_checks.h"

#include "acl/acl.h"

#if defined(__SANITIZE_ADDRESS__)
#define SOAK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SOAK_ASAN 1
#endif
#endif

static const char *g_dir, *g_v1dir;

static const char *path_in(const char *dir, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *path_in(const char *dir, const char *fmt, ...)
{
    static char buf[4][PATH_MAX];
    static int k;
    k = (k + 1) % 4;
    va_list ap;
    va_start(ap, fmt);
    int n = snprintf(buf[k], sizeof buf[k], "%s/", dir);
    vsnprintf(buf[k] + n, sizeof buf[k] - (size_t)n, fmt, ap);
    va_end(ap);
    return buf[k];
}

static int count_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        n += e->d_name[0] != '.';
    }
    closedir(d);
    return n - 1; /* the directory's own descriptor */
}

static long status_field(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    assert_non_null(f);
    char line[256];
    long v = -1;
    const size_t kl = strlen(key);
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, key, kl) == 0 && line[kl] == ':') {
            v = strtol(line + kl + 1, NULL, 10);
        }
    }
    fclose(f);
    return v;
}

static void *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *b = malloc((size_t)n);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return b;
}

/* One execution of fc-like model id with batch rows of 128 floats in, 24 out (dyn: the shape is set). */
static void run_fc(uint32_t id, int batch, bool dyn, aclrtStream stream)
{
    const size_t xs = (size_t)batch * 128 * sizeof(float), ys = (size_t)batch * 24 * sizeof(float);
    void *dx = NULL, *dy = NULL;
    OK_ACL(aclrtMalloc(&dx, xs, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMalloc(&dy, ys, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMemset(dx, xs, 0, xs));
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    aclDataBuffer *bx = aclCreateDataBuffer(dx, xs), *by = aclCreateDataBuffer(dy, ys);
    OK_ACL(aclmdlAddDatasetBuffer(in, bx));
    OK_ACL(aclmdlAddDatasetBuffer(out, by));
    if (dyn) {
        const int64_t dims[4] = {batch, 8, 4, 4};
        aclTensorDesc *td = aclCreateTensorDesc(ACL_FLOAT, 4, dims, ACL_FORMAT_NCHW);
        OK_ACL(aclmdlSetDatasetTensorDesc(in, td, 0));
        aclDestroyTensorDesc(td);
    }
    if (stream != NULL) {
        OK_ACL(aclmdlExecuteAsync(id, in, out, stream));
        OK_ACL(aclrtSynchronizeStream(stream));
    } else {
        OK_ACL(aclmdlExecute(id, in, out));
    }
    OK_ACL(aclDestroyDataBuffer(bx));
    OK_ACL(aclDestroyDataBuffer(by));
    OK_ACL(aclmdlDestroyDataset(in));
    OK_ACL(aclmdlDestroyDataset(out));
    OK_ACL(aclrtFree(dx));
    OK_ACL(aclrtFree(dy));
}

/* One round: every kind of model loaded, run and unloaded. */
static void round_trip(aclrtStream stream)
{
    uint32_t id = 0;
    OK_ACL(aclmdlLoadFromFile(path_in(g_dir, "fc.om"), &id));
    run_fc(id, 1, false, NULL);
    run_fc(id, 1, false, NULL);
    OK_ACL(aclmdlUnload(id));
    OK_ACL(aclmdlLoadFromFile(path_in(g_dir, "fc.om"), &id)); /* a model runs either way, not both (GE) */
    run_fc(id, 1, false, stream);
    run_fc(id, 1, false, stream);
    OK_ACL(aclmdlUnload(id));

    size_t len = 0;
    void *img = read_file(path_in(g_dir, "fc.om"), &len);
    OK_ACL(aclmdlLoadFromMem(img, len, &id));
    free(img);
    run_fc(id, 1, false, NULL);
    OK_ACL(aclmdlUnload(id));

    OK_ACL(aclmdlLoadFromFile(path_in(g_dir, "fc_dyn.om"), &id));
    run_fc(id, 1, true, NULL);
    run_fc(id, 3, true, NULL);
    OK_ACL(aclmdlUnload(id));

    OK_ACL(aclmdlLoadFromFile(path_in(g_v1dir, "fcw/ok.om"), &id));
    aclmdlDesc *d = aclmdlCreateDesc();
    OK_ACL(aclmdlGetDesc(d, id));
    const size_t xs = aclmdlGetInputSizeByIndex(d, 0), ys = aclmdlGetOutputSizeByIndex(d, 0);
    OK_ACL(aclmdlDestroyDesc(d));
    void *dx = NULL, *dy = NULL;
    OK_ACL(aclrtMalloc(&dx, xs, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMalloc(&dy, ys, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMemset(dx, xs, 0, xs));
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    OK_ACL(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(dx, xs)));
    OK_ACL(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(dy, ys)));
    OK_ACL(aclmdlExecute(id, in, out));
    OK_ACL(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(in, 0)));
    OK_ACL(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(out, 0)));
    OK_ACL(aclmdlDestroyDataset(in));
    OK_ACL(aclmdlDestroyDataset(out));
    OK_ACL(aclrtFree(dx));
    OK_ACL(aclrtFree(dy));
    OK_ACL(aclmdlUnload(id));
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void load_execute_unload_loop(void **state)
{
    (void)state;
    const char *env = getenv("OA_SOAK_SECONDS");
    const double seconds = env != NULL && atof(env) > 0 ? atof(env) : 8.0;
    aclrtStream stream = NULL;
    OK_ACL(aclrtCreateStream(&stream));
    for (int i = 0; i < 3; i++) { /* warm-up: thread pools, kernels' first use, caches */
        round_trip(stream);
    }
    const int fds0 = count_fds();
    const long threads0 = status_field("Threads");
    long rss_mid = -1;
    const double t0 = now_s();
    int rounds = 0;
    while (now_s() - t0 < seconds) {
        round_trip(stream);
        rounds++;
        const int fds = count_fds();
        const long threads = status_field("Threads");
        if (fds != fds0 || threads > threads0) {
            fail_msg("round %d: %d file descriptors (baseline %d), %ld threads (baseline %ld)", rounds, fds, fds0,
                     threads, threads0);
        }
        if (rss_mid < 0 && now_s() - t0 >= seconds / 2) {
            rss_mid = status_field("VmRSS");
        }
    }
    const long rss_end = status_field("VmRSS");
    printf("soak: %d rounds in %.1f s, fds %d, threads %ld, RSS %ld kB at half time, %ld kB at the end\n", rounds,
           now_s() - t0, fds0, threads0, rss_mid, rss_end);
    assert_true(rounds >= 2);
#ifndef SOAK_ASAN
    /* the second half of the loop must not grow resident memory by more than noise (8 MB) */
    if (rss_mid > 0 && rss_end - rss_mid > 8 * 1024) {
        fail_msg("RSS grew from %ld kB to %ld kB in the second half of %d rounds", rss_mid, rss_end, rounds);
    }
#endif
    OK_ACL(aclrtDestroyStream(stream));
}


int main(void)
{
    g_dir = getenv("OA_HOSTILE_DIR");
    g_v1dir = getenv("OA_V1_MODELS");
    if (g_dir == NULL || g_v1dir == NULL) {
        fprintf(stderr, "test_soak needs $OA_HOSTILE_DIR and $OA_V1_MODELS\n");
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(load_execute_unload_loop),
    };
    return cmocka_run_group_tests(tests, oa_acl_device_setup, oa_acl_device_teardown);
}

/*
 * The ONNX backend suite's node cases end to end, so that every op kernel
 * the converter reaches runs under the sanitizer build (issue 18): each
 * case of onnx_suite_prep.py's manifest is converted by atc (unmodified
 * model, its own static shapes), loaded from the file, executed on the
 * suite's inputs and compared with the suite's reference outputs (float32
 * within 1e-3 relative + 1e-4 absolute, other types byte for byte).
 *
 * A case atc refuses, that does not load (an op without a CPU kernel) or
 * whose description does not match the suite's tensors counts as not
 * supported; a mismatch is reported with the case name. The test fails on
 * what must never happen whatever the op coverage: a crash or sanitizer
 * report (the sanitizer build aborts), an execution error of a model that
 * loaded, an unload error, or fewer cases run than $OA_SUITE_MIN_RUN
 * (default 100: the suite or atc went missing). It prints the counts and
 * writes the mismatching cases to <work>/mismatches.txt.
 *
 *   test_onnx_suite ATC SUITE_NODE_DIR PREP_DIR WORK_DIR
 */
#define _GNU_SOURCE
#include <limits.h>
#include <math.h>
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

static const char *g_atc, *g_suite, *g_prep, *g_work;

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
    if (b != NULL && n > 0 && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return b;
}

typedef enum { CASE_RUN_OK, CASE_MISMATCH, CASE_UNSUPPORTED, CASE_ERROR } case_result;

static bool close_enough(const float *got, const float *want, size_t n, size_t *at)
{
    for (size_t i = 0; i < n; i++) {
        const float g = got[i], w = want[i];
        if (isnan(w) ? !isnan(g) : !(g == w || fabsf(g - w) <= 1e-4f + 1e-3f * fabsf(w))) {
            *at = i;
            return false;
        }
    }
    return true;
}

/* One case; why gets a short reason for anything but CASE_RUN_OK. */
static case_result run_case(const char *name, int n_in, int n_out, const char *kinds, char *why, size_t cap)
{
    char cmd[4 * PATH_MAX], om[PATH_MAX], path[PATH_MAX + 16];
    snprintf(om, sizeof om, "%s/%s", g_work, name);
    snprintf(cmd, sizeof cmd, "'%s' --model='%s/%s/model.onnx' --framework=5 --output='%s' "
             "--soc_version=Ascend310P3 >/dev/null 2>&1", g_atc, g_suite, name, om);
    if (system(cmd) != 0) {
        snprintf(why, cap, "atc refuses it");
        return CASE_UNSUPPORTED;
    }
    snprintf(path, sizeof path, "%s.om", om);
    uint32_t id = 0;
    if (aclmdlLoadFromFile(path, &id) != ACL_SUCCESS) {
        snprintf(why, cap, "load: %s", aclGetRecentErrMsg() ? aclGetRecentErrMsg() : "");
        unlink(path);
        return CASE_UNSUPPORTED;
    }
    unlink(path);
    case_result r = CASE_RUN_OK;
    aclmdlDesc *d = aclmdlCreateDesc();
    void *host[64] = {0}, *dev[64] = {0};
    size_t len[64] = {0};
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    if (d == NULL || aclmdlGetDesc(d, id) != ACL_SUCCESS || aclmdlGetNumInputs(d) != (size_t)n_in ||
        aclmdlGetNumOutputs(d) != (size_t)n_out || n_in + n_out > 64) {
        snprintf(why, cap, "the model's inputs/outputs differ from the suite's");
        r = CASE_UNSUPPORTED;
    }
    for (int k = 0; k < n_in + n_out && r == CASE_RUN_OK; k++) {
        const bool isin = k < n_in;
        snprintf(path, sizeof path, "%s/%s/%s_%d.bin", g_prep, name, isin ? "input" : "output", isin ? k : k - n_in);
        host[k] = read_all(path, &len[k]);
        const size_t want = isin ? aclmdlGetInputSizeByIndex(d, (size_t)k) : aclmdlGetOutputSizeByIndex(d, (size_t)(k - n_in));
        if (host[k] == NULL || want != len[k]) {
            snprintf(why, cap, "%s %d: the model has %zu bytes, the suite %zu", isin ? "input" : "output",
                     isin ? k : k - n_in, want, len[k]);
            r = CASE_UNSUPPORTED;
            break;
        }
        if (aclrtMalloc(&dev[k], len[k] ? len[k] : 1, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
            r = CASE_ERROR;
            snprintf(why, cap, "aclrtMalloc");
            break;
        }
        if (isin && len[k] > 0) {
            (void)aclrtMemcpy(dev[k], len[k], host[k], len[k], ACL_MEMCPY_HOST_TO_DEVICE);
        }
        (void)aclmdlAddDatasetBuffer(isin ? in : out, aclCreateDataBuffer(dev[k], len[k]));
    }
    if (r == CASE_RUN_OK && aclmdlExecute(id, in, out) != ACL_SUCCESS) {
        snprintf(why, cap, "execute: %s", aclGetRecentErrMsg() ? aclGetRecentErrMsg() : "");
        r = CASE_ERROR;
    }
    for (int j = 0; j < n_out && r == CASE_RUN_OK; j++) {
        const int k = n_in + j;
        void *got = malloc(len[k] ? len[k] : 1);
        if (len[k] > 0) {
            (void)aclrtMemcpy(got, len[k], dev[k], len[k], ACL_MEMCPY_DEVICE_TO_HOST);
        }
        size_t at = 0;
        const bool same = kinds[j] == 'f' ? close_enough(got, host[k], len[k] / sizeof(float), &at)
                                          : memcmp(got, host[k], len[k]) == 0;
        if (!same) {
            if (kinds[j] == 'f') {
                snprintf(why, cap, "output %d[%zu] = %.7g, the suite's %.7g", j, at, (double)((float *)got)[at],
                         (double)((float *)host[k])[at]);
            } else {
                snprintf(why, cap, "output %d differs", j);
            }
            r = CASE_MISMATCH;
        }
        free(got);
    }
    for (size_t s = 0; s < 2; s++) {
        aclmdlDataset *ds = s == 0 ? in : out;
        for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(ds); i++) {
            (void)aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds, i));
        }
        (void)aclmdlDestroyDataset(ds);
    }
    for (int k = 0; k < n_in + n_out && k < 64; k++) {
        free(host[k]);
        if (dev[k] != NULL) {
            (void)aclrtFree(dev[k]);
        }
    }
    (void)aclmdlDestroyDesc(d);
    if (aclmdlUnload(id) != ACL_SUCCESS) {
        snprintf(why, cap, "unload failed");
        r = CASE_ERROR;
    }
    return r;
}

static void suite_cases(void **state)
{
    (void)state;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/manifest.txt", g_prep);
    FILE *m = fopen(path, "r");
    assert_non_null(m);
    snprintf(path, sizeof path, "%s/mismatches.txt", g_work);
    FILE *mis = fopen(path, "w");
    assert_non_null(mis);
    char line[512];
    int counts[4] = {0}, errors = 0;
    while (fgets(line, sizeof line, m) != NULL) {
        char name[256], kinds[64];
        int n_in = 0, n_out = 0;
        if (sscanf(line, "%255s %d %d %63s", name, &n_in, &n_out, kinds) != 4) {
            continue;
        }
        char why[512] = "";
        const case_result r = run_case(name, n_in, n_out, kinds, why, sizeof why);
        counts[r]++;
        if (r == CASE_MISMATCH) {
            fprintf(mis, "%s: %s\n", name, why);
        } else if (r == CASE_ERROR) {
            printf("ERROR %s: %s\n", name, why);
            errors++;
        }
    }
    fclose(m);
    fclose(mis);
    printf("ONNX suite: %d cases run and agree, %d differ (%s/mismatches.txt), %d not supported, %d errors\n",
           counts[CASE_RUN_OK], counts[CASE_MISMATCH], g_work, counts[CASE_UNSUPPORTED], errors);
    const char *min = getenv("OA_SUITE_MIN_RUN");
    const int floor_run = min != NULL ? atoi(min) : 100;
    assert_int_equal(errors, 0);
    assert_true(counts[CASE_RUN_OK] + counts[CASE_MISMATCH] >= floor_run);
}

static int setup(void **state)
{
    (void)state;
    return aclInit(NULL) == ACL_SUCCESS && aclrtSetDevice(0) == ACL_SUCCESS ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    (void)aclrtResetDevice(0);
    return aclFinalize() == ACL_SUCCESS ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: test_onnx_suite ATC SUITE_NODE_DIR PREP_DIR WORK_DIR\n");
        return 2;
    }
    g_atc = argv[1];
    g_suite = argv[2];
    g_prep = argv[3];
    g_work = argv[4];
    mkdir(g_work, 0750);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(suite_cases),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

/*
 * Regression tests of issue 18 (hostile inputs), each built from its
 * reproducer, through the public API (run under ASan + UBSan by the sanitizer
 * build):
 *   - the ONNX suite's test_matmul_2d converted by atc, unmodified: a MatMul
 *     without bias runs (no pointer arithmetic on the absent bias) and gives
 *     the suite's reference output;
 *   - tensor offsets that are not a multiple of their element size are
 *     refused at load (the same plan moved by 4 bytes loads and agrees);
 *   - memory_size raised by 5 GiB is refused, not allocated; the cap on what
 *     the plan does not justify follows $OPENACL_LOAD_LIMIT_MB;
 *   - FileConstant locations of memory loads: absolute or escaping ones are
 *     refused without a weight directory, plain names work from the current
 *     directory, and the application's directory (load config) confines them;
 *   - an output buffer of 0 bytes is refused instead of delivering nothing;
 *   - aclmdlLoadFromFileWithMem on a dynamic model refuses weight memory
 *     smaller than its weights.
 * (test_hostile_init: an aclInit that fails leaves no PROF_* directory.)
 *
 *   test_hostile [DIR V1DIR]   (DIR, else $OA_HOSTILE_DIR: the fixture hostile_models;
 *                               V1DIR, else $OA_V1_MODELS: model_v1's v1_models)
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

#include "support/acl_fixture.h"

#include "support/acl_checks.h"

#include "acl/acl.h"

static const char *g_dir;
static const char *g_v1dir;

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

static void *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *b = malloc(n > 0 ? (size_t)n : 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return b;
}

/* One execution of model id on host inputs; outputs copied into out[i] (out_len[i] bytes each). */
static void run_model(uint32_t id, size_t n_in, void *const *in, const size_t *in_len, size_t n_out, void **out,
                      const size_t *out_len)
{
    aclmdlDataset *din = aclmdlCreateDataset(), *dout = aclmdlCreateDataset();
    void *dev[8] = {0};
    assert_true(n_in + n_out <= 8);
    for (size_t i = 0; i < n_in + n_out; i++) {
        const size_t len = i < n_in ? in_len[i] : out_len[i - n_in];
        OK_ACL(aclrtMalloc(&dev[i], len, ACL_MEM_MALLOC_HUGE_FIRST));
        if (i < n_in) {
            OK_ACL(aclrtMemcpy(dev[i], len, in[i], len, ACL_MEMCPY_HOST_TO_DEVICE));
        }
        OK_ACL(aclmdlAddDatasetBuffer(i < n_in ? din : dout, aclCreateDataBuffer(dev[i], len)));
    }
    OK_ACL(aclmdlExecute(id, din, dout));
    for (size_t j = 0; j < n_out; j++) {
        OK_ACL(aclrtMemcpy(out[j], out_len[j], dev[n_in + j], out_len[j], ACL_MEMCPY_DEVICE_TO_HOST));
    }
    for (size_t i = 0; i < n_in; i++) {
        OK_ACL(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(din, i)));
    }
    for (size_t j = 0; j < n_out; j++) {
        OK_ACL(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(dout, j)));
    }
    OK_ACL(aclmdlDestroyDataset(din));
    OK_ACL(aclmdlDestroyDataset(dout));
    for (size_t i = 0; i < n_in + n_out; i++) {
        OK_ACL(aclrtFree(dev[i]));
    }
}

/* ---- fc.om (tests/unit/model_v1/gen_fc_onnx.py): x f32[1,8,4,4] -> y f32[1,24] ---- */

#define FC_IN 128
#define FC_OUT 24

static void fc_run(uint32_t id, float *y)
{
    float x[FC_IN];
    for (int i = 0; i < FC_IN; i++) {
        x[i] = (float)((i * 37) % 23 - 11) / 8.0f;
    }
    void *in[1] = {x};
    const size_t in_len[1] = {sizeof x};
    void *out[1] = {y};
    const size_t out_len[1] = {FC_OUT * sizeof(float)};
    run_model(id, 1, in, in_len, 1, out, out_len);
}

/* ---- 1. MatMul without bias (ONNX suite test_matmul_2d, atc output as is) ---- */

static void matmul_without_bias(void **state)
{
    (void)state;
    const char *om = path_in(g_dir, "matmul_2d.om");
    if (access(om, R_OK) != 0) {
        skip(); /* the ONNX backend suite (libonnx-testdata) is not installed */
    }
    size_t la = 0, lb = 0, ly = 0;
    float *a = read_file(path_in(g_dir, "matmul_2d/input_0.bin"), &la);
    float *b = read_file(path_in(g_dir, "matmul_2d/input_1.bin"), &lb);
    float *want = read_file(path_in(g_dir, "matmul_2d/output_0.bin"), &ly);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(want);
    uint32_t id = 0;
    OK_ACL(aclmdlLoadFromFile(om, &id));
    float *y = calloc(1, ly);
    void *in[2] = {a, b};
    const size_t in_len[2] = {la, lb};
    void *out[1] = {y};
    run_model(id, 2, in, in_len, 1, out, &ly);
    for (size_t i = 0; i < ly / sizeof(float); i++) {
        if (fabsf(y[i] - want[i]) > 1e-5f * (1.0f + fabsf(want[i]))) {
            fail_msg("y[%zu] = %.9g, the suite's output %.9g", i, (double)y[i], (double)want[i]);
        }
    }
    /* the same image loaded from memory: the fuzz target's path, the same bytes as from the file */
    float *y1 = malloc(ly);
    assert_non_null(y1);
    memcpy(y1, y, ly);
    size_t len = 0;
    void *img = read_file(om, &len);
    uint32_t id2 = 0;
    OK_ACL(aclmdlLoadFromMem(img, len, &id2));
    memset(y, 0, ly);
    run_model(id2, 2, in, in_len, 1, out, &ly);
    assert_memory_equal(y, y1, ly);
    free(y1);
    OK_ACL(aclmdlUnload(id2));
    OK_ACL(aclmdlUnload(id));
    free(img);
    free(y);
    free(a);
    free(b);
    free(want);
}

/* ---- 2. element alignment of plan offsets ---- */

static void misaligned_offsets_refused(void **state)
{
    (void)state;
    uint32_t id = 0;
    EXPECT_ACL(aclmdlLoadFromFile(path_in(g_dir, "misalign.om"), &id), ACL_ERROR_GE_PARAM_INVALID,
               "is not a multiple of its element size");
    size_t len = 0;
    void *img = read_file(path_in(g_dir, "misalign.om"), &len);
    assert_non_null(img);
    EXPECT_ACL(aclmdlLoadFromMem(img, len, &id), ACL_ERROR_GE_PARAM_INVALID, "element size");
    free(img);

    /* the same change by 4 bytes is a valid plan: same results as the original */
    float want[FC_OUT], got[FC_OUT];
    OK_ACL(aclmdlLoadFromFile(path_in(g_dir, "fc.om"), &id));
    fc_run(id, want);
    OK_ACL(aclmdlUnload(id));
    OK_ACL(aclmdlLoadFromFile(path_in(g_dir, "shift4.om"), &id));
    fc_run(id, got);
    OK_ACL(aclmdlUnload(id));
    assert_memory_equal(got, want, sizeof want);
}

/* ---- 3. memory_size the plan does not justify ---- */

static void unjustified_memory_size_refused(void **state)
{
    (void)state;
    uint32_t id = 0;
    EXPECT_ACL(aclmdlLoadFromFile(path_in(g_dir, "mem5g.om"), &id), ACL_ERROR_GE_PARAM_INVALID, "memory_size");
    size_t len = 0;
    void *img = read_file(path_in(g_dir, "mem5g.om"), &len);
    assert_non_null(img);
    EXPECT_ACL(aclmdlLoadFromMem(img, len, &id), ACL_ERROR_GE_PARAM_INVALID, "OPENACL_LOAD_LIMIT_MB");
    free(img);
    /* the application's own work memory is not allocated by us: the plan is then the application's business */
    size_t work = 0, weight = 0;
    OK_ACL(aclmdlQuerySize(path_in(g_dir, "mem2m.om"), &work, &weight));
    assert_true(work >= (size_t)2 << 20);

    /* 2 MiB more than the tensors use: within the default limit, beyond a limit of 1 MB */
    float want[FC_OUT], got[FC_OUT];
    OK_ACL(aclmdlLoadFromFile(path_in(g_dir, "fc.om"), &id));
    fc_run(id, want);
    OK_ACL(aclmdlUnload(id));
    OK_ACL(aclmdlLoadFromFile(path_in(g_dir, "mem2m.om"), &id));
    fc_run(id, got);
    OK_ACL(aclmdlUnload(id));
    assert_memory_equal(got, want, sizeof want);
    setenv("OPENACL_LOAD_LIMIT_MB", "1", 1);
    EXPECT_ACL(aclmdlLoadFromFile(path_in(g_dir, "mem2m.om"), &id), ACL_ERROR_GE_PARAM_INVALID, "load limit");
    unsetenv("OPENACL_LOAD_LIMIT_MB");
}

/* ---- 4. FileConstant locations of memory loads ---- */

static uint32_t load_mem_file(const char *om, aclError want, const char *part)
{
    size_t len = 0;
    void *img = read_file(om, &len);
    assert_non_null(img);
    uint32_t id = UINT32_MAX;
    if (want == ACL_SUCCESS) {
        OK_ACL(aclmdlLoadFromMem(img, len, &id));
    } else {
        EXPECT_ACL(aclmdlLoadFromMem(img, len, &id), want, part);
    }
    free(img);
    return id;
}

static void memory_load_locations_confined(void **state)
{
    (void)state;
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    /* an absolute location (/etc/passwd) and an escaping one (../fcw.bin): refused before anything is opened */
    load_mem_file(path_in(g_v1dir, "fcw/dyn_abs.om"), ACL_ERROR_GE_FAILURE, "without a weight directory");
    load_mem_file(path_in(g_v1dir, "fcw/dotdot.om"), ACL_ERROR_GE_FAILURE, "leaves the current directory");
    load_mem_file(path_in(g_v1dir, "fcw/dyn_dotdot.om"), ACL_ERROR_GE_FAILURE, "leaves the current directory");
    /* a plain name: the current directory's file */
    assert_int_equal(chdir(path_in(g_v1dir, "fcw/weight")), 0);
    uint32_t id = load_mem_file(path_in(g_v1dir, "fcw/ok.om"), ACL_SUCCESS, NULL);
    OK_ACL(aclmdlUnload(id));
    id = load_mem_file(path_in(g_v1dir, "fcw/dyn_ok.om"), ACL_SUCCESS, NULL);
    OK_ACL(aclmdlUnload(id));
    assert_int_equal(chdir(cwd), 0);

    /* the application's weight directory through the load config: the names are looked up there */
    size_t len = 0;
    void *img = read_file(path_in(g_v1dir, "fcw/ok.om"), &len);
    const char *wdir = path_in(g_v1dir, "fcw/weight");
    aclmdlConfigHandle *h = aclmdlCreateConfigHandle();
    size_t kind = ACL_MDL_LOAD_FROM_MEM;
    OK_ACL(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &kind, sizeof kind));
    OK_ACL(aclmdlSetConfigOpt(h, ACL_MDL_MEM_ADDR_PTR, &img, sizeof img));
    OK_ACL(aclmdlSetConfigOpt(h, ACL_MDL_MEM_SIZET, &len, sizeof len));
    OK_ACL(aclmdlSetConfigOpt(h, ACL_MDL_WEIGHT_PATH_PTR, &wdir, sizeof wdir));
    OK_ACL(aclmdlLoadWithConfig(h, &id));
    OK_ACL(aclmdlUnload(id));
    free(img);
    /* ... where an absolute location stays refused for the dynamic executor, a '..' for both */
    img = read_file(path_in(g_v1dir, "fcw/dyn_abs.om"), &len);
    OK_ACL(aclmdlSetConfigOpt(h, ACL_MDL_MEM_ADDR_PTR, &img, sizeof img));
    OK_ACL(aclmdlSetConfigOpt(h, ACL_MDL_MEM_SIZET, &len, sizeof len));
    EXPECT_ACL(aclmdlLoadWithConfig(h, &id), ACL_ERROR_GE_FAILURE, "contains '/'");
    free(img);
    img = read_file(path_in(g_v1dir, "fcw/dotdot.om"), &len);
    OK_ACL(aclmdlSetConfigOpt(h, ACL_MDL_MEM_ADDR_PTR, &img, sizeof img));
    OK_ACL(aclmdlSetConfigOpt(h, ACL_MDL_MEM_SIZET, &len, sizeof len));
    EXPECT_ACL(aclmdlLoadWithConfig(h, &id), ACL_ERROR_GE_FAILURE, "'..'");
    free(img);
    OK_ACL(aclmdlDestroyConfigHandle(h));
}

/* ---- 5. silent wrong results ---- */

/* Runs model id with inputs of in_len bytes (zeros) and one output buffer of out_cap bytes stating out_len. */
static aclError run_with_output_len(uint32_t id, size_t n_in, const size_t *in_len, size_t out_cap, size_t out_len)
{
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    void *dev[4] = {0};
    for (size_t i = 0; i < n_in; i++) {
        OK_ACL(aclrtMalloc(&dev[i], in_len[i], ACL_MEM_MALLOC_HUGE_FIRST));
        OK_ACL(aclrtMemset(dev[i], in_len[i], 0, in_len[i]));
        OK_ACL(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(dev[i], in_len[i])));
    }
    void *dy = NULL;
    OK_ACL(aclrtMalloc(&dy, out_cap, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(dy, out_len)));
    const aclError rc = aclmdlExecute(id, in, out);
    for (size_t i = 0; i < n_in; i++) {
        OK_ACL(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(in, i)));
        OK_ACL(aclrtFree(dev[i]));
    }
    OK_ACL(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(out, 0)));
    OK_ACL(aclmdlDestroyDataset(in));
    OK_ACL(aclmdlDestroyDataset(out));
    OK_ACL(aclrtFree(dy));
    return rc;
}

static void empty_output_buffer_refused(void **state)
{
    (void)state;
    uint32_t id = 0;
    /* fc: 96-byte output (refused by GE's rule already), within the slack at 64 bytes */
    OK_ACL(aclmdlLoadFromFile(path_in(g_dir, "fc.om"), &id));
    const size_t fc_in[1] = {FC_IN * sizeof(float)};
    EXPECT_ACL(run_with_output_len(id, 1, fc_in, 96, 0), ACL_ERROR_GE_FAILURE, "has 0 bytes");
    OK_ACL(run_with_output_len(id, 1, fc_in, 96, 64));
    OK_ACL(aclmdlUnload(id));
    /* matmul_2d: a 36-byte output, which GE's 64-byte slack admits with 0 bytes (the reproducer) */
    const char *om = path_in(g_dir, "matmul_2d.om");
    if (access(om, R_OK) != 0) {
        skip();
    }
    OK_ACL(aclmdlLoadFromFile(om, &id));
    const size_t mm_in[2] = {12 * sizeof(float), 12 * sizeof(float)};
    EXPECT_ACL(run_with_output_len(id, 2, mm_in, 64, 0), ACL_ERROR_GE_FAILURE, "has 0 bytes");
    OK_ACL(run_with_output_len(id, 2, mm_in, 64, 36));
    OK_ACL(aclmdlUnload(id));
}

static void dynamic_with_mem_weight_size(void **state)
{
    (void)state;
    const char *om = path_in(g_dir, "fc_dyn.om");
    size_t work = 0, weight = 0;
    OK_ACL(aclmdlQuerySize(om, &work, &weight));
    assert_true(weight > 1);
    void *wt = NULL, *wk = NULL;
    OK_ACL(aclrtMalloc(&wt, weight, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMalloc(&wk, work > 0 ? work : 64, ACL_MEM_MALLOC_HUGE_FIRST));
    uint32_t id = 0;
    EXPECT_ACL(aclmdlLoadFromFileWithMem(om, &id, wk, work, wt, 1), ACL_ERROR_GE_PARAM_INVALID,
               "weight memory of 1 bytes");
    EXPECT_ACL(aclmdlLoadFromFileWithMem(om, &id, wk, work, wt, weight - 1), ACL_ERROR_GE_PARAM_INVALID,
               "smaller than the model's weights");
    OK_ACL(aclmdlLoadFromFileWithMem(om, &id, wk, work, wt, weight));
    OK_ACL(aclmdlUnload(id));
    OK_ACL(aclrtFree(wt));
    OK_ACL(aclrtFree(wk));
}


int main(int argc, char **argv)
{
    g_dir = argc > 2 ? argv[1] : getenv("OA_HOSTILE_DIR");
    g_v1dir = argc > 2 ? argv[2] : getenv("OA_V1_MODELS");
    if (g_dir == NULL || g_v1dir == NULL) {
        fprintf(stderr, "usage: test_hostile DIR V1DIR\n");
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(matmul_without_bias),
        cmocka_unit_test(misaligned_offsets_refused),
        cmocka_unit_test(unjustified_memory_size_refused),
        cmocka_unit_test(memory_load_locations_confined),
        cmocka_unit_test(empty_output_buffer_refused),
        cmocka_unit_test(dynamic_with_mem_weight_size),
    };
    return cmocka_run_group_tests(tests, oa_acl_device_setup, oa_acl_device_teardown);
}

/*
 * model_v1 through the public API (libascendcl) on the small models of
 * gen_v1_models: results against references computed here, and CANN's
 * rules for QuerySize, the load variants (caller memory, too small memory,
 * memory images freed after the load, hostile plans), execution checks
 * (buffer counts, the 64-byte input slack, output sizes, NULL outputs,
 * sync/async mode mixing, ExecuteV2), concurrency and unload.
 *
 * Bundles (aclmdlBundle*) are built here from ew.om as docs/om_format.md
 * "Multi-model and bundle files" lays them out.
 *
 *   test_v1_api [DIR]   (DIR holds the generated models; default $OA_V1_MODELS)
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "support/log_capture.h"

#include "support/acl_checks.h"

#include "acl/acl.h"

static const char *g_dir;
static aclrtContext g_ctx;

static const char *model(const char *name)
{
    static char buf[4][1024];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", g_dir, name);
    return buf[k];
}

/* ---- the ew model: x [1,8,32,32]; y0 = sigmoid(0.5 relu(x) + x), y1 = mean over H, W ---- */

#define EW_N (8 * 32 * 32)

static void ew_input(float *x)
{
    for (int i = 0; i < EW_N; i++) {
        x[i] = (float)((i * 7919) % 2001 - 1000) / 250.0f;
    }
}

static void ew_ref(const float *x, float *y0, float *y1)
{
    for (int c = 0; c < 8; c++) {
        double s = 0;
        for (int i = 0; i < 1024; i++) {
            const float v = x[c * 1024 + i];
            const float a = 0.5f * (v > 0 ? v : 0) + v;
            y0[c * 1024 + i] = 1.0f / (1.0f + expf(-a));
            s += a;
        }
        y1[c] = (float)(s / 1024.0);
    }
}

static void expect_close(const float *a, const float *b, size_t n, float tol)
{
    for (size_t i = 0; i < n; i++) {
        if (fabsf(a[i] - b[i]) > tol * (1.0f + fabsf(b[i]))) {
            fail_msg("element %zu: %g, want %g", i, (double)a[i], (double)b[i]);
        }
    }
}

typedef struct bufs {
    aclmdlDataset *in, *out;
    void *x, *y0, *y1;
} bufs;

static void ew_bufs(bufs *b, size_t x_len, size_t y0_len)
{
    memset(b, 0, sizeof(*b));
    OK_ACL(aclrtMalloc(&b->x, EW_N * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMalloc(&b->y0, EW_N * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMalloc(&b->y1, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ew_input(b->x);
    b->in = aclmdlCreateDataset();
    b->out = aclmdlCreateDataset();
    OK_ACL(aclmdlAddDatasetBuffer(b->in, aclCreateDataBuffer(b->x, x_len)));
    OK_ACL(aclmdlAddDatasetBuffer(b->out, aclCreateDataBuffer(b->y0, y0_len)));
    OK_ACL(aclmdlAddDatasetBuffer(b->out, aclCreateDataBuffer(b->y1, 32)));
}

static void free_dataset(aclmdlDataset *d)
{
    for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(d); i++) {
        OK_ACL(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(d, i)));
    }
    OK_ACL(aclmdlDestroyDataset(d));
}

static void ew_free(bufs *b)
{
    free_dataset(b->in);
    free_dataset(b->out);
    OK_ACL(aclrtFree(b->x));
    OK_ACL(aclrtFree(b->y0));
    OK_ACL(aclrtFree(b->y1));
}

static void ew_check(const bufs *b, size_t n0)
{
    static float y0[EW_N], y1[8];
    ew_ref(b->x, y0, y1);
    expect_close(b->y0, y0, n0, 2e-6f);
    expect_close(b->y1, y1, 8, 1e-5f);
}

/* ---- tests ---- */

static void query_and_desc(void **state)
{
    (void)state;
    size_t work = 0, weight = 0;
    OK_ACL(aclmdlQuerySize(model("ew.om"), &work, &weight));
    assert_true(work > 0 && weight > 0);
    /* ew: the feature map (relu, mul, add, mean) then x, y0, y1 in the zero-copy region */
    assert_true(work >= (size_t)EW_N * 4 * 5);
    size_t w2 = 0, wt2 = 0;
    FILE *f = fopen(model("ew.om"), "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *img = malloc((size_t)n);
    assert_int_equal(fread(img, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    OK_ACL(aclmdlQuerySizeFromMem(img, (size_t)n, &w2, &wt2));
    assert_int_equal(w2, work);
    assert_int_equal(wt2, weight);
    EXPECT_ACL(aclmdlQuerySize(NULL, &w2, &wt2), ACL_ERROR_INVALID_PARAM, "modelPath");
    EXPECT_ACL(aclmdlQuerySize(model("ew.om"), &w2, NULL), ACL_ERROR_INVALID_PARAM, "weightSize");
    EXPECT_ACL(aclmdlQuerySize(model("missing.om"), &w2, &wt2), ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID, NULL);
    EXPECT_ACL(aclmdlQuerySizeFromMem(img, 0, &w2, &wt2), ACL_ERROR_INVALID_PARAM, NULL);
    EXPECT_ACL(aclmdlQuerySizeFromMem(img, 300, &w2, &wt2), ACL_ERROR_GE_PARAM_INVALID, NULL);

    aclmdlDesc *d = aclmdlCreateDesc();
    OK_ACL(aclmdlGetDescFromMem(d, img, (size_t)n));
    assert_int_equal(aclmdlGetNumInputs(d), 1);
    assert_int_equal(aclmdlGetNumOutputs(d), 2);
    assert_string_equal(aclmdlGetInputNameByIndex(d, 0), "x");
    assert_int_equal(aclmdlGetInputSizeByIndex(d, 0), EW_N * 4);
    assert_int_equal(aclmdlGetOutputSizeByIndex(d, 1), 32);
    assert_int_equal(aclmdlGetInputDataType(d, 0), ACL_FLOAT);
    assert_int_equal(aclmdlGetInputFormat(d, 0), ACL_FORMAT_NCHW);
    aclmdlIODims dims;
    OK_ACL(aclmdlGetOutputDims(d, 1, &dims));
    assert_int_equal(dims.dimCount, 4);
    assert_int_equal(dims.dims[1], 8);
    assert_int_equal(dims.dims[2], 1);
    size_t gears = 9;
    OK_ACL(aclmdlGetInputDynamicGearCount(d, (size_t)-1, &gears));
    assert_int_equal(gears, 0);
    size_t idx;
    assert_int_equal(aclmdlGetInputIndexByName(d, ACL_DYNAMIC_TENSOR_NAME, &idx), ACL_ERROR_INVALID_PARAM);
    assert_null(aclGetRecentErrMsg()); /* no gears: a quiet answer, nothing left for the next error */
    OK_ACL(aclmdlGetDescFromFile(d, model("conv.om")));
    assert_int_equal(aclmdlGetNumOutputs(d), 1);
    aclmdlDestroyDesc(d);
    free(img);
}

static void ew_load_variants(void **state)
{
    (void)state;
    bufs b;
    ew_bufs(&b, EW_N * 4, EW_N * 4);
    uint32_t id = 0;
    /* from the file: weights mapped */
    OK_ACL(aclmdlLoadFromFile(model("ew.om"), &id));
    OK_ACL(aclmdlExecute(id, b.in, b.out));
    ew_check(&b, EW_N);
    aclmdlDesc *d = aclmdlCreateDesc();
    OK_ACL(aclmdlGetDesc(d, id));
    aclmdlIODims dims;
    OK_ACL(aclmdlGetCurOutputDims(d, 0, &dims));
    assert_int_equal(dims.dimCount, 4);
    assert_int_equal(dims.dims[3], 32);
    aclmdlDestroyDesc(d);
    OK_ACL(aclmdlUnload(id));

    /* from memory: the image is clobbered and freed right after the load */
    FILE *f = fopen(model("ew.om"), "rb");
    fseek(f, 0, SEEK_END);
    const size_t n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    void *img = malloc(n);
    assert_int_equal(fread(img, 1, n, f), n);
    fclose(f);
    OK_ACL(aclmdlLoadFromMem(img, n, &id));
    memset(img, 0xEE, n);
    free(img);
    memset(b.y0, 0, EW_N * 4);
    OK_ACL(aclmdlExecute(id, b.in, b.out));
    ew_check(&b, EW_N);
    OK_ACL(aclmdlUnload(id));

    /* the caller's memory: too small, then exactly what QuerySize says */
    size_t work = 0, weight = 0;
    OK_ACL(aclmdlQuerySize(model("ew.om"), &work, &weight));
    void *wk = NULL, *wt = NULL;
    OK_ACL(aclrtMalloc(&wk, work, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMalloc(&wt, weight, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_ACL(aclmdlLoadFromFileWithMem(model("ew.om"), &id, wk, 1024, wt, weight), ACL_ERROR_GE_PARAM_INVALID,
               "work memory");
    EXPECT_ACL(aclmdlLoadFromFileWithMem(model("ew.om"), &id, wk, work, wt, weight - 1), ACL_ERROR_GE_PARAM_INVALID,
               "weight memory");
    /* the feature map proper suffices: the zero-copy region holds x, y0 and y1 (3 x 64-aligned slots) */
    const size_t zero_copy = EW_N * 4 * 2 + 64;
    OK_ACL(aclmdlLoadFromFileWithMem(model("ew.om"), &id, wk, work - zero_copy, wt, weight));
    memset(b.y0, 0, EW_N * 4);
    OK_ACL(aclmdlExecute(id, b.in, b.out));
    ew_check(&b, EW_N);
    /* GE copies the weights into the caller's weight memory: the 0.5 constant is there */
    const float half = 0.5f;
    bool found = false;
    for (size_t k = 0; k + 4 <= weight && !found; k += 4) {
        found = memcmp((const char *)wt + k, &half, 4) == 0;
    }
    assert_true(found);
    OK_ACL(aclmdlUnload(id));
    OK_ACL(aclrtFree(wk)); /* still the caller's after unload */
    OK_ACL(aclrtFree(wt));

    /* aclmdlLoadWithConfig, from memory with memory */
    aclmdlConfigHandle *h = aclmdlCreateConfigHandle();
    const size_t type = ACL_MDL_LOAD_FROM_FILE_WITH_MEM;
    const char *path = model("ew.om");
    OK_ACL(aclrtMalloc(&wk, work, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof type));
    OK_ACL(aclmdlSetConfigOpt(h, ACL_MDL_PATH_PTR, &path, sizeof path));
    OK_ACL(aclmdlSetConfigOpt(h, ACL_MDL_WORKSPACE_ADDR_PTR, &wk, sizeof wk));
    OK_ACL(aclmdlSetConfigOpt(h, ACL_MDL_WORKSPACE_SIZET, &work, sizeof work));
    OK_ACL(aclmdlLoadWithConfig(h, &id));
    memset(b.y0, 0, EW_N * 4);
    OK_ACL(aclmdlExecute(id, b.in, b.out));
    ew_check(&b, EW_N);
    OK_ACL(aclmdlUnload(id));
    OK_ACL(aclrtFree(wk));
    aclmdlDestroyConfigHandle(h);
    ew_free(&b);
}

static void hostile_and_unsupported(void **state)
{
    (void)state;
    uint32_t id = 0;
    EXPECT_ACL(aclmdlLoadFromFile(model("bad_offset.om"), &id), ACL_ERROR_GE_PARAM_INVALID,
               "lies outside the model memory");
    EXPECT_ACL(aclmdlLoadFromFile(model("bad_cross.om"), &id), ACL_ERROR_GE_PARAM_INVALID,
               "crosses into the zero-copy region");
    EXPECT_ACL(aclmdlLoadFromFile(model("unsupported.om"), &id), ACL_ERROR_OP_NOT_FOUND, "node my_axpy (Axpy)");
}

static void execute_checks(void **state)
{
    (void)state;
    uint32_t id = 0;
    OK_ACL(aclmdlLoadFromFile(model("ew.om"), &id));
    bufs b;
    /* 63 bytes short: accepted (GE's 64-byte slack); the missing tail reads as zeros */
    ew_bufs(&b, EW_N * 4 - 63, EW_N * 4 - 63);
    OK_ACL(aclmdlExecute(id, b.in, b.out));
    static float full[EW_N];
    memcpy(full, b.x, EW_N * 4);
    memset((char *)full + EW_N * 4 - 63, 0, 63);
    static float y0[EW_N], y1[8];
    ew_ref(full, y0, y1);
    expect_close(b.y0, y0, (EW_N * 4 - 63) / 4, 2e-6f);
    ew_free(&b);
    /* 65 bytes short: refused */
    ew_bufs(&b, EW_N * 4 - 65, EW_N * 4);
    EXPECT_ACL(aclmdlExecute(id, b.in, b.out), ACL_ERROR_GE_FAILURE, "E13025");
    ew_free(&b);
    ew_bufs(&b, EW_N * 4, EW_N * 4 - 65);
    EXPECT_ACL(aclmdlExecute(id, b.in, b.out), ACL_ERROR_GE_FAILURE, "output");
    /* buffer counts must equal the model's */
    OK_ACL(aclmdlAddDatasetBuffer(b.in, aclCreateDataBuffer(b.x, 4)));
    EXPECT_ACL(aclmdlExecute(id, b.in, b.out), ACL_ERROR_GE_PARAM_INVALID, "number of inputs or outputs");
    ew_free(&b);
    ew_bufs(&b, EW_N * 4, EW_N * 4);
    aclmdlDataset *one = aclmdlCreateDataset();
    OK_ACL(aclmdlAddDatasetBuffer(one, aclCreateDataBuffer(b.y0, EW_N * 4)));
    EXPECT_ACL(aclmdlExecute(id, b.in, one), ACL_ERROR_GE_PARAM_INVALID, "number of inputs or outputs");
    free_dataset(one);
    /* outputs without data: aclmdlExecute allocates them with the model's sizes */
    aclmdlDataset *nul = aclmdlCreateDataset();
    OK_ACL(aclmdlAddDatasetBuffer(nul, aclCreateDataBuffer(NULL, 0)));
    OK_ACL(aclmdlAddDatasetBuffer(nul, aclCreateDataBuffer(b.y1, 32)));
    OK_ACL(aclmdlExecute(id, b.in, nul));
    aclDataBuffer *got = aclmdlGetDatasetBuffer(nul, 0);
    assert_non_null(aclGetDataBufferAddr(got));
    assert_int_equal(aclGetDataBufferSizeV2(got), EW_N * 4);
    static float r0[EW_N], r1[8];
    ew_ref(b.x, r0, r1);
    expect_close(aclGetDataBufferAddr(got), r0, EW_N, 2e-6f);
    OK_ACL(aclrtFree(aclGetDataBufferAddr(got)));
    OK_ACL(aclUpdateDataBuffer(got, NULL, 0));
    /* an input tensor desc makes the run "dynamic": every output gets a desc */
    aclTensorDesc *td = aclCreateTensorDesc(ACL_FLOAT, 0, NULL, ACL_FORMAT_NCHW);
    OK_ACL(aclmdlSetDatasetTensorDesc(b.in, td, 0));
    aclDestroyTensorDesc(td);
    OK_ACL(aclmdlExecute(id, b.in, b.out));
    aclTensorDesc *od = aclmdlGetDatasetTensorDesc(b.out, 1);
    assert_non_null(od);
    assert_int_equal(aclGetTensorDescNumDims(od), 4);
    int64_t dim = 0;
    OK_ACL(aclGetTensorDescDimV2(od, 1, &dim));
    assert_int_equal(dim, 8);
    /* aclmdlExecuteV2 on a stream is synchronous for V1 */
    aclrtStream s;
    OK_ACL(aclrtCreateStream(&s));
    aclmdlExecConfigHandle *cfg = aclmdlCreateExecConfigHandle();
    memset(b.y0, 0, EW_N * 4);
    OK_ACL(aclmdlExecuteV2(id, b.in, b.out, s, cfg));
    ew_check(&b, EW_N);
    /* the model ran synchronously: asynchronous execution is refused (GE's mode mixing rule) */
    EXPECT_ACL(aclmdlExecuteAsync(id, b.in, b.out, s), ACL_ERROR_GE_FAILURE, "mix execute");
    EXPECT_ACL(aclmdlExecuteAsyncV2(id, b.in, b.out, s, cfg), ACL_ERROR_GE_FAILURE, "mix execute");
    OK_ACL(aclmdlUnload(id));
    /* and the other way round; async never allocates outputs */
    OK_ACL(aclmdlLoadFromFile(model("ew.om"), &id));
    EXPECT_ACL(aclmdlExecuteAsync(id, b.in, nul, s), ACL_ERROR_GE_FAILURE, "E13025");
    OK_ACL(aclrtMemset(b.y0, EW_N * 4, 0, EW_N * 4));
    OK_ACL(aclmdlExecuteAsync(id, b.in, b.out, s));
    OK_ACL(aclrtSynchronizeStream(s));
    ew_check(&b, EW_N);
    EXPECT_ACL(aclmdlExecute(id, b.in, b.out), ACL_ERROR_GE_FAILURE, "mix execute");
    /* aclmdlExecuteAsyncV2 is the asynchronous mode too: queued, the results there after the synchronisation */
    OK_ACL(aclrtMemset(b.y0, EW_N * 4, 0, EW_N * 4));
    OK_ACL(aclmdlExecuteAsyncV2(id, b.in, b.out, s, cfg));
    OK_ACL(aclrtSynchronizeStream(s));
    ew_check(&b, EW_N);
    EXPECT_ACL(aclmdlExecuteAsyncV2(id, b.in, b.out, s, NULL), ACL_ERROR_INVALID_PARAM, "handle");
    EXPECT_ACL(aclmdlExecuteAsyncV2(id, b.in, nul, s, cfg), ACL_ERROR_GE_FAILURE, "E13025");
    EXPECT_ACL(aclmdlExecuteV2(id, b.in, b.out, s, cfg), ACL_ERROR_GE_FAILURE, "mix execute");
    /* unloading with executions queued: they finish, then the model goes */
    for (int i = 0; i < 4; i++) {
        OK_ACL(aclmdlExecuteAsync(id, b.in, b.out, s));
    }
    OK_ACL(aclmdlUnload(id));
    EXPECT_ACL(aclmdlExecuteAsync(id, b.in, b.out, s), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);
    OK_ACL(aclrtSynchronizeStream(s));
    ew_check(&b, EW_N);
    OK_ACL(aclmdlDestroyExecConfigHandle(cfg));
    OK_ACL(aclrtDestroyStream(s));
    free_dataset(nul);
    ew_free(&b);
}

/* aclmdlExecuteAsync on a capturing stream is recorded (task kind MODEL) and replayed with the bound buffers. */
static void capture_and_replay(void **state)
{
    (void)state;
    uint32_t id = 0;
    OK_ACL(aclmdlLoadFromFile(model("ew.om"), &id));
    bufs b;
    ew_bufs(&b, EW_N * 4, EW_N * 4);
    aclrtStream s;
    OK_ACL(aclrtCreateStream(&s));
    OK_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    OK_ACL(aclmdlExecuteAsync(id, b.in, b.out, s));
    aclmdlRI ri = NULL;
    OK_ACL(aclmdlRICaptureEnd(s, &ri));
    for (int r = 0; r < 3; r++) {
        float *x = b.x;
        for (int i = 0; i < EW_N; i++) {
            x[i] += 0.25f * (float)r;
        }
        memset(b.y0, 0, EW_N * 4);
        OK_ACL(aclmdlRIExecuteAsync(ri, s));
        OK_ACL(aclrtSynchronizeStream(s));
        ew_check(&b, EW_N);
    }
    OK_ACL(aclmdlUnload(id)); /* the instance keeps the model alive until it is destroyed */
    OK_ACL(aclmdlRIExecuteAsync(ri, s));
    OK_ACL(aclrtSynchronizeStream(s));
    ew_check(&b, EW_N);
    OK_ACL(aclmdlRIDestroy(ri));
    OK_ACL(aclrtDestroyStream(s));
    ew_free(&b);
}

static void queue_loads_refused(void **state)
{
    (void)state;
    uint32_t id = 0;
    const uint32_t q[1] = {0};
    EXPECT_ACL(aclmdlLoadFromFileWithQ(model("ew.om"), &id, q, 1, q, 2), ACL_ERROR_API_NOT_SUPPORT, "queue-fed");
}

static void io_copies_and_constants(void **state)
{
    (void)state;
    uint32_t id = 0;
    OK_ACL(aclmdlLoadFromFile(model("io.om"), &id));
    float a[6] = {1, 2, 3, 4, 5, 6}, bb[6] = {10, 20, 30, 40, 50, 60}, o0[6], o1[6], o2[3];
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    OK_ACL(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(a, sizeof a)));
    OK_ACL(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(bb, sizeof bb)));
    OK_ACL(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(o0, sizeof o0)));
    OK_ACL(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(o1, sizeof o1)));
    OK_ACL(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(o2, sizeof o2)));
    OK_ACL(aclmdlExecute(id, in, out));
    for (int i = 0; i < 6; i++) {
        assert_true(o0[i] == a[i] + bb[i]);
        assert_true(o1[i] == a[i]);
    }
    assert_true(o2[0] == 1.5f && o2[1] == -2.0f && o2[2] == 7.25f);
    free_dataset(in);
    free_dataset(out);
    OK_ACL(aclmdlUnload(id));
}

static void conv_model(void **state)
{
    (void)state;
    uint32_t id = 0;
    OK_ACL(aclmdlLoadFromFile(model("conv.om"), &id));
    static float x[3 * 16 * 16], y[8];
    for (int i = 0; i < 3 * 256; i++) {
        x[i] = (float)((i * 31) % 23 - 11) / 8.0f;
    }
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    OK_ACL(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(x, sizeof x)));
    OK_ACL(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(y, sizeof y)));
    OK_ACL(aclmdlExecute(id, in, out));
    for (int o = 0; o < 8; o++) {
        double s = 0;
        for (int i = 0; i < 16; i++) {
            for (int j = 0; j < 16; j++) {
                double acc = (double)(o - 4) / 8.0;
                for (int c = 0; c < 3; c++) {
                    for (int ki = 0; ki < 3; ki++) {
                        for (int kj = 0; kj < 3; kj++) {
                            const int ii = i + ki - 1, jj = j + kj - 1;
                            if (ii >= 0 && ii < 16 && jj >= 0 && jj < 16) {
                                const int wi = ((o * 3 + c) * 3 + ki) * 3 + kj;
                                acc += (double)x[(c * 16 + ii) * 16 + jj] * ((wi * 37) % 17 - 8) / 16.0;
                            }
                        }
                    }
                }
                s += acc > 0 ? acc : 0;
            }
        }
        const float want = (float)(s / 256.0);
        assert_true(fabsf(y[o] - want) <= 1e-4f * (1.0f + fabsf(want)));
    }
    free_dataset(in);
    free_dataset(out);
    OK_ACL(aclmdlUnload(id));
}

/* ---- one model, several threads at once (each execution gets its own feature map) ---- */

typedef struct worker {
    uint32_t id;
    int bad;
} worker;

static void *run_many(void *arg)
{
    worker *w = arg;
    if (aclrtSetCurrentContext(g_ctx) != ACL_SUCCESS) {
        w->bad = 1;
        return NULL;
    }
    float *x = malloc(EW_N * 4), *y0 = malloc(EW_N * 4), y1[8], *r0 = malloc(EW_N * 4), r1[8];
    ew_input(x);
    for (int i = 0; i < EW_N; i++) {
        x[i] += (float)((uintptr_t)(void *)w % 7);
    }
    ew_ref(x, r0, r1);
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    (void)aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(x, EW_N * 4));
    (void)aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(y0, EW_N * 4));
    (void)aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(y1, 32));
    for (int k = 0; k < 25 && !w->bad; k++) {
        memset(y0, 0, EW_N * 4);
        if (aclmdlExecute(w->id, in, out) != ACL_SUCCESS) {
            w->bad = 1;
        }
        for (int i = 0; i < EW_N && !w->bad; i++) {
            w->bad = fabsf(y0[i] - r0[i]) > 2e-6f;
        }
    }
    for (int i = 0; i < 2; i++) {
        (void)aclDestroyDataBuffer(aclmdlGetDatasetBuffer(out, (size_t)i));
    }
    (void)aclDestroyDataBuffer(aclmdlGetDatasetBuffer(in, 0));
    (void)aclmdlDestroyDataset(in);
    (void)aclmdlDestroyDataset(out);
    free(x);
    free(y0);
    free(r0);
    return NULL;
}

static void concurrent_executions(void **state)
{
    (void)state;
    uint32_t id = 0;
    OK_ACL(aclmdlLoadFromFile(model("ew.om"), &id));
    pthread_t t[4];
    worker w[4];
    for (int i = 0; i < 4; i++) {
        w[i] = (worker){id, 0};
        assert_int_equal(pthread_create(&t[i], NULL, run_many, &w[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        assert_int_equal(w[i].bad, 0);
    }
    OK_ACL(aclmdlUnload(id));
}

/* ---- bundles ---- */

static unsigned char *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc(*n);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, *n, f), *n);
    fclose(f);
    return b;
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        p[i] = (unsigned char)(v >> (8 * i));
    }
}

static void put64(unsigned char *p, uint64_t v)
{
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

/*
 * A bundle as docs/om_format.md "Multi-model and bundle files" lays it out: a
 * 256-byte header (modeltype 5, model_num = n, model_length = the whole file),
 * one 64-bit table (offsets from the table's start) with BUNDLE_MODEL_VAR_INFO
 * (25: int64 variable size) then one BUNDLE_MODEL_INFO (24) per nested .om, the
 * data packed.
 */
static unsigned char *make_bundle(const unsigned char *om, size_t om_size, size_t n, int64_t var, size_t *size)
{
    const size_t table = 8 + 24 * (n + 1);
    *size = 256 + table + 8 + n * om_size;
    unsigned char *b = calloc(1, *size);
    assert_non_null(b);
    memcpy(b, om, 256); /* magic, version, ... of a real header */
    b[82] = 5;
    put32(b + 156, (uint32_t)n);
    put64(b + 184, *size);
    unsigned char *t = b + 256;
    put32(t, (uint32_t)(n + 1));
    size_t off = table;
    for (size_t i = 0; i <= n; i++) {
        const size_t len = i == 0 ? 8 : om_size;
        put32(t + 8 + 24 * i, i == 0 ? 25 : 24);
        put64(t + 16 + 24 * i, off);
        put64(t + 24 + 24 * i, len);
        if (i == 0) {
            put64(t + off, (uint64_t)var);
        } else {
            memcpy(t + off, om, om_size);
        }
        off += len;
    }
    return b;
}

static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) {
        v = v << 8 | p[i];
    }
    return v;
}

static void run_conv(uint32_t id, float *y)
{
    static float x[3 * 16 * 16];
    for (int i = 0; i < 3 * 256; i++) {
        x[i] = (float)((i * 31) % 23 - 11) / 8.0f;
    }
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    OK_ACL(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(x, sizeof x)));
    OK_ACL(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(y, 8 * sizeof(float))));
    OK_ACL(aclmdlExecute(id, in, out));
    free_dataset(in);
    free_dataset(out);
}

/*
 * Threads per operator and per model (docs/runtime.md "Threads per operator"): the first runs alternate between
 * the pool and the calling thread, per operator and then per run, until each chooses; the outputs are the same
 * bits throughout (every kernel splits its outputs, never a sum). Run with OA_EXPECT_THREADS_LOG=1 (ctest
 * test_v1_api_threads: a pool of two, INFO lines on stdout), the model must also have logged its choice.
 */
static void runs_while_learning_threads(void **state)
{
    (void)state;
    const bool expect_log = getenv("OA_EXPECT_THREADS_LOG") != NULL;
    uint32_t id = 0;
    OK_ACL(aclmdlLoadFromFile(model("conv.om"), &id));
    oa_log_capture cap = {NULL, -1, -1};
    if (expect_log) { /* stdout (where the log goes) into a file while the model runs */
        cap = oa_log_capture_begin();
    }
    float first[8], y[8];
    run_conv(id, first);
    bool same = true;
    for (int r = 1; r < 60; r++) {
        memset(y, 0xff, sizeof y);
        run_conv(id, y);
        same &= memcmp(y, first, sizeof y) == 0;
    }
    if (expect_log) {
        assert_true(oa_log_capture_end(&cap, "[Run][Threads] the model runs "));
    }
    assert_true(same);
    OK_ACL(aclmdlUnload(id));
}

/*
 * OPENACL_V1_PROFILE (docs/runtime.md), set at load: the table on stderr at unload gives the run count, the sum
 * of the tasks' medians over the last 256 runs (all of them when fewer) beside the sum of their means, and each
 * task's median and mean; the listed medians add up to the header's. 5 runs: all 5 kept; 300: the last 256.
 */
static void profile_table(void **state)
{
    (void)state;
    for (int pass = 0; pass < 2; pass++) {
        const int runs = pass == 0 ? 5 : 300;
        uint32_t id = 0;
        setenv("OPENACL_V1_PROFILE", "1", 1);
        OK_ACL(aclmdlLoadFromFile(model("conv.om"), &id));
        unsetenv("OPENACL_V1_PROFILE"); /* read again at unload: the default listing, every task of conv.om */
        float y[8];
        for (int r = 0; r < runs; r++) {
            run_conv(id, y);
        }
        oa_log_capture cap = oa_log_capture_fd(STDERR_FILENO);
        OK_ACL(aclmdlUnload(id));
        FILE *f = oa_log_capture_stop(&cap);
        char line[1024];
        int got_runs = -1, tasks = -1, window = -1, listed = 0;
        double med_sum = -1, mean_sum = -1, listed_med = 0;
        while (fgets(line, sizeof line, f) != NULL) {
            double med, mean;
            if (strncmp(line, "[openacl profile]", 17) == 0) {
                assert_int_equal(sscanf(line, "[openacl profile] %d runs, %lf ms per run in %d tasks (sum of the "
                                              "medians over the last %d runs; of the means: %lf ms)",
                                        &got_runs, &med_sum, &tasks, &window, &mean_sum),
                                 5);
            } else if (strstr(line, "(mean ") != NULL && sscanf(line, " %lf ms", &med) == 1 &&
                       sscanf(strstr(line, "(mean "), "(mean %lf)", &mean) == 1) {
                assert_true(med >= 0 && mean >= 0); /* a task under 0.5 us prints 0.000 */
                listed_med += med;
                listed++;
            }
        }
        fclose(f);
        assert_int_equal(got_runs, runs);
        assert_int_equal(window, runs < 256 ? runs : 256);
        assert_true(tasks >= 2 && listed == tasks);
        assert_true(med_sum > 0 && mean_sum > 0);
        assert_true(fabs(listed_med - med_sum) <= 0.0015 * tasks); /* each printed to 0.001 ms */
    }
}

/*
 * Our writer puts WEIGHTS_DATA at a 64-byte multiple of the file (the loader
 * maps it in place); a file from another producer whose partition is not
 * aligned (here: conv.om with 3 more bytes of unknown field at the end of
 * MODEL_DEF, as a protobuf reader allows) still loads, through the copy,
 * and computes the same bits.
 */
static void weights_alignment(void **state)
{
    (void)state;
    size_t n;
    unsigned char *om = read_all(model("conv.om"), &n);
    const uint32_t num = (uint32_t)om[256] | (uint32_t)om[257] << 8;
    const size_t data = 256 + 8 + 24 * (size_t)num;
    int def = -1, w = -1;
    for (uint32_t i = 0; i < num; i++) {
        const unsigned char *e = om + 256 + 8 + 24 * i;
        def = e[0] == 0 ? (int)i : def;
        w = e[0] == 1 ? (int)i : w;
    }
    assert_true(def >= 0 && w == def + 1);
    const unsigned char *we = om + 256 + 8 + 24 * (size_t)w;
    assert_int_equal((data + get64(we + 8)) % 64, 0);

    /* the shifted copy: field 2046 (varint) = 0 appended to MODEL_DEF, later offsets and the length moved */
    const unsigned char *de = om + 256 + 8 + 24 * (size_t)def;
    const size_t def_end = data + get64(de + 8) + get64(de + 16);
    unsigned char *sh = malloc(n + 3);
    assert_non_null(sh);
    memcpy(sh, om, def_end);
    const unsigned char field[3] = {0xF0, 0x7F, 0x00};
    memcpy(sh + def_end, field, 3);
    memcpy(sh + def_end + 3, om + def_end, n - def_end);
    put64(sh + 184, get64(om + 184) + 3);
    put64(sh + 256 + 8 + 24 * (size_t)def + 16, get64(de + 16) + 3);
    for (uint32_t i = (uint32_t)def + 1; i < num; i++) {
        put64(sh + 256 + 8 + 24 * i + 8, get64(om + 256 + 8 + 24 * i + 8) + 3);
    }
    assert_int_not_equal((data + get64(sh + 256 + 8 + 24 * (size_t)w + 8)) % 64, 0);
    const char *path = model("conv_unaligned.om");
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(sh, 1, n + 3, f), n + 3);
    fclose(f);

    float a[8], b[8];
    uint32_t ia = 0, ib = 0;
    OK_ACL(aclmdlLoadFromFile(model("conv.om"), &ia));
    OK_ACL(aclmdlLoadFromFile(path, &ib));
    run_conv(ia, a);
    run_conv(ib, b);
    assert_memory_equal(a, b, sizeof a);
    run_conv(ia, a); /* the packed weights' pages left the process after the load: the second run too */
    assert_memory_equal(a, b, sizeof a);
    OK_ACL(aclmdlUnload(ia));
    OK_ACL(aclmdlUnload(ib));
    remove(path);
    free(sh);
    free(om);
}

static void run_ew(uint32_t id)
{
    bufs b;
    ew_bufs(&b, EW_N * 4, EW_N * 4);
    OK_ACL(aclmdlExecute(id, b.in, b.out));
    ew_check(&b, EW_N);
    ew_free(&b);
}

static void bundles(void **state)
{
    (void)state;
    size_t om_size = 0, size = 0, size64 = 0;
    unsigned char *om = read_all(model("ew.om"), &om_size);
    unsigned char *img = make_bundle(om, om_size, 2, 0, &size);
    unsigned char *img64 = make_bundle(om, om_size, 2, 64, &size64);

    /* load: every sub-model gets an ordinary id and runs */
    uint32_t bid = 0, id0 = 0, id1 = 0, x = 0;
    size_t n = 0;
    OK_ACL(aclmdlBundleLoadFromMem(img, size, &bid));
    OK_ACL(aclmdlBundleGetModelNum(bid, &n));
    assert_int_equal(n, 2);
    OK_ACL(aclmdlBundleGetModelId(bid, 0, &id0));
    OK_ACL(aclmdlBundleGetModelId(bid, 1, &id1));
    assert_true(id0 != 0 && id1 != 0 && id0 != id1);
    EXPECT_ACL(aclmdlBundleGetModelId(bid, 2, &x), ACL_ERROR_INVALID_PARAM, "index[2]");
    run_ew(id0);
    run_ew(id1);
    /* sub-models go with the bundle functions only */
    EXPECT_ACL(aclmdlUnload(id0), ACL_ERROR_INVALID_PARAM, "bundle");
    EXPECT_ACL(aclmdlBundleUnloadModel(bid, 12345), ACL_ERROR_INVALID_PARAM, "not a loaded sub-model");
    OK_ACL(aclmdlBundleUnloadModel(bid, id0));
    bufs b;
    ew_bufs(&b, EW_N * 4, EW_N * 4);
    EXPECT_ACL(aclmdlExecute(id0, b.in, b.out), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);
    EXPECT_ACL(aclmdlBundleGetModelId(bid, 0, &x), ACL_ERROR_INVALID_PARAM, "not loaded");
    OK_ACL(aclmdlBundleUnload(bid));
    EXPECT_ACL(aclmdlExecute(id1, b.in, b.out), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);
    ew_free(&b);
    EXPECT_ACL(aclmdlBundleUnload(bid), ACL_ERROR_INVALID_BUNDLE_MODEL_ID, "bundle id");
    EXPECT_ACL(aclmdlBundleGetModelNum(bid, &n), ACL_ERROR_INVALID_BUNDLE_MODEL_ID, NULL);
    EXPECT_ACL(aclmdlBundleLoadModel(bid, 0, &x), ACL_ERROR_INVALID_BUNDLE_MODEL_ID, NULL);

    /* from a file */
    char path[] = "/tmp/oa_bundle_XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    assert_int_equal(fwrite(img, 1, size, f), size);
    fclose(f);
    OK_ACL(aclmdlBundleLoadFromFile(path, &bid));
    OK_ACL(aclmdlBundleGetModelId(bid, 1, &id1));
    run_ew(id1);
    OK_ACL(aclmdlBundleUnload(bid));
    EXPECT_ACL(aclmdlBundleLoadFromFile("/nonexistent/b.om", &bid), ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID, NULL);

    /* query: counts, the variable size, each sub-model's sizes as aclmdlQuerySize reports them */
    size_t work = 0, weight = 0, qw = 0, qc = 0, var = 0;
    OK_ACL(aclmdlQuerySize(model("ew.om"), &work, &weight));
    aclmdlBundleQueryInfo *q = aclmdlBundleCreateQueryInfo();
    assert_non_null(q);
    OK_ACL(aclmdlBundleQueryInfoFromMem(img64, size64, q));
    OK_ACL(aclmdlBundleGetQueryModelNum(q, &n));
    assert_int_equal(n, 2);
    OK_ACL(aclmdlBundleGetVarWeightSize(q, &var));
    assert_int_equal(var, 64);
    OK_ACL(aclmdlBundleGetSize(q, 1, &qw, &qc));
    assert_int_equal(qw, work);
    assert_int_equal(qc, weight);
    EXPECT_ACL(aclmdlBundleGetSize(q, 2, &qw, &qc), ACL_ERROR_INVALID_PARAM, "index[2]");
    OK_ACL(aclmdlBundleQueryInfoFromFile(path, q));
    OK_ACL(aclmdlBundleGetVarWeightSize(q, &var));
    assert_int_equal(var, 0);
    EXPECT_ACL(aclmdlBundleQueryInfoFromMem(om, om_size, q), ACL_ERROR_GE_PARAM_INVALID, "model type");
    OK_ACL(aclmdlBundleDestroyQueryInfo(q));
    EXPECT_ACL(aclmdlBundleDestroyQueryInfo(NULL), ACL_ERROR_INVALID_PARAM, NULL);
    remove(path);

    /* init with the variable memory, then sub-models one by one in each way */
    static char varmem[64];
    EXPECT_ACL(aclmdlBundleInitFromMem(img64, size64, NULL, 0, &bid), ACL_ERROR_INVALID_PARAM, "variable weight");
    EXPECT_ACL(aclmdlBundleInitFromMem(img64, size64, varmem, 32, &bid), ACL_ERROR_INVALID_PARAM, "variable weight");
    OK_ACL(aclmdlBundleInitFromMem(img64, size64, varmem, sizeof varmem, &bid));
    OK_ACL(aclmdlBundleGetModelNum(bid, &n));
    assert_int_equal(n, 2);
    EXPECT_ACL(aclmdlBundleGetModelId(bid, 0, &x), ACL_ERROR_INVALID_PARAM, "not loaded");
    OK_ACL(aclmdlBundleLoadModel(bid, 1, &id1));
    EXPECT_ACL(aclmdlBundleLoadModel(bid, 1, &x), ACL_ERROR_INVALID_PARAM, "already loaded");
    EXPECT_ACL(aclmdlBundleLoadModel(bid, 2, &x), ACL_ERROR_INVALID_PARAM, "index[2]");
    run_ew(id1);
    void *wk = NULL, *wt = NULL;
    OK_ACL(aclrtMalloc(&wk, work, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMalloc(&wt, weight, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclmdlBundleLoadModelWithMem(bid, 0, wk, work, wt, weight, &id0));
    OK_ACL(aclmdlBundleGetModelId(bid, 0, &x));
    assert_int_equal(x, id0);
    run_ew(id0);
    OK_ACL(aclmdlBundleUnloadModel(bid, id0));
    OK_ACL(aclrtFree(wk));
    OK_ACL(aclrtFree(wt));
    aclmdlConfigHandle *h = aclmdlCreateConfigHandle();
    const int32_t prio = 3;
    OK_ACL(aclmdlSetConfigOpt(h, ACL_MDL_PRIORITY_INT32, &prio, sizeof prio));
    EXPECT_ACL(aclmdlBundleLoadModelWithConfig(bid, 0, NULL, &x), ACL_ERROR_INVALID_PARAM, "handle");
    OK_ACL(aclmdlBundleLoadModelWithConfig(bid, 0, h, &id0));
    aclmdlAttrValue_t v;
    OK_ACL(aclmdlGetAttribute(id0, ACL_MDL_ATTR_PRIORITY_INT32, &v));
    assert_int_equal(v.mdlPriority, prio);
    run_ew(id0);
    OK_ACL(aclmdlDestroyConfigHandle(h));
    OK_ACL(aclmdlBundleUnload(bid)); /* both sub-models go */
    EXPECT_ACL(aclmdlGetAttribute(id0, ACL_MDL_ATTR_PRIORITY_INT32, &v), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);

    /* damaged containers: each refused, nothing loaded */
    EXPECT_ACL(aclmdlBundleLoadFromMem(om, om_size, &bid), ACL_ERROR_GE_PARAM_INVALID, "model type");
    EXPECT_ACL(aclmdlBundleLoadFromMem(img, size - 1, &bid), ACL_ERROR_GE_PARAM_INVALID, "length");
    img[256 + 8 + 24 + 0] = 1; /* sub-model 0 is no BUNDLE_MODEL_INFO */
    EXPECT_ACL(aclmdlBundleLoadFromMem(img, size, &bid), ACL_ERROR_GE_PARAM_INVALID, "BUNDLE_MODEL_INFO");
    img[256 + 8 + 24 + 0] = 24;
    put64(img + 256 + 8 + 24 + 16, om_size + 1); /* overruns into the next one */
    EXPECT_ACL(aclmdlBundleLoadFromMem(img, size, &bid), ACL_ERROR_GE_PARAM_INVALID, NULL);
    put64(img + 256 + 8 + 24 + 16, om_size);
    put32(img + 156, 7); /* model_num disagrees with the table */
    EXPECT_ACL(aclmdlBundleLoadFromMem(img, size, &bid), ACL_ERROR_GE_PARAM_INVALID, "sub-models");
    put32(img + 156, 2);
    img[256 + 80 + 8] ^= 0xFF; /* a sub-model with a broken magic: the load fails, the bundle goes */
    assert_int_not_equal(aclmdlBundleLoadFromMem(img, size, &bid), ACL_SUCCESS);
    EXPECT_ACL(aclmdlBundleLoadFromMem(NULL, size, &bid), ACL_ERROR_INVALID_PARAM, NULL);
    EXPECT_ACL(aclmdlBundleLoadFromMem(img, 0, &bid), ACL_ERROR_INVALID_PARAM, NULL);
    EXPECT_ACL(aclmdlBundleLoadFromMem(img, size, NULL), ACL_ERROR_INVALID_PARAM, NULL);
    free(om);
    free(img);
    free(img64);
}

static int setup(void **state)
{
    (void)state;
    /* before aclInit: GE's executor answers 145001 */
    size_t a, b;
    EXPECT_ACL(aclmdlQuerySize(model("ew.om"), &a, &b), ACL_ERROR_GE_EXEC_NOT_INIT, NULL);
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
        aclrtCreateContext(&g_ctx, 0) != ACL_SUCCESS) {
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    (void)aclrtDestroyContext(g_ctx);
    (void)aclrtResetDevice(0);
    return aclFinalize() == ACL_SUCCESS ? 0 : -1;
}

int main(int argc, char **argv)
{
    g_dir = argc > 1 ? argv[1] : getenv("OA_V1_MODELS");
    if (g_dir == NULL) {
        fprintf(stderr, "usage: test_v1_api DIR (or OA_V1_MODELS=DIR)\n");
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(query_and_desc),       cmocka_unit_test(ew_load_variants),
        cmocka_unit_test(hostile_and_unsupported), cmocka_unit_test(execute_checks),
        cmocka_unit_test(io_copies_and_constants), cmocka_unit_test(conv_model),
        cmocka_unit_test(concurrent_executions), cmocka_unit_test(capture_and_replay),
        cmocka_unit_test(queue_loads_refused), cmocka_unit_test(bundles),
        cmocka_unit_test(weights_alignment),    cmocka_unit_test(runs_while_learning_threads),
        cmocka_unit_test(profile_table),
    };
    if (getenv("OA_EXPECT_THREADS_LOG") != NULL) { /* test_v1_api_threads: that case alone */
        const struct CMUnitTest threads[] = {cmocka_unit_test(runs_while_learning_threads)};
        return cmocka_run_group_tests(threads, setup, teardown);
    }
    return cmocka_run_group_tests(tests, setup, teardown);
}

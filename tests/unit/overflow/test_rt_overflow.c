/*
 * Floating-point overflow and saturation mode in operator and model kernels, and the execute timeouts that stop a
 * long operator (docs/runtime.md "Overflow status", "Operator execute timeout"). Inputs, models and the numpy
 * references come from gen_overflow_refs.py (directory $OA_OVF_REFS): every result is compared with numpy's IEEE
 * result (INF/NAN mode) or its saturation (SATURATION mode), and the overflow status with what the inputs imply.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"

#define N 8

static char g_dir[512];

static void load_ref(const char *name, void *buf, size_t n)
{
    char path[600];
    snprintf(path, sizeof(path), "%s/%s", g_dir, name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(buf, 1, n, f), n);
    fclose(f);
}

static void path_of(const char *name, char *out, size_t cap)
{
    snprintf(out, cap, "%s/%s", g_dir, name);
}

/* the device's overflow flag, read in stream order on s */
static uint64_t overflow_status(aclrtStream s)
{
    void *d = NULL;
    assert_int_equal(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtGetOverflowStatus(d, 64, s), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    uint64_t v[8];
    assert_int_equal(aclrtMemcpy(v, sizeof(v), d, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    assert_int_equal(aclrtFree(d), ACL_SUCCESS);
    return v[0];
}

static void reset_status(aclrtStream s)
{
    assert_int_equal(aclrtResetOverflowStatus(s), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
}

static aclrtStream new_stream(aclrtFloatOverflowMode mode)
{
    /* CANN: the mode applies to the streams created after aclrtSetDeviceSatMode */
    assert_int_equal(aclrtSetDeviceSatMode(mode), ACL_SUCCESS);
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    return s;
}

static int setup(void **state)
{
    (void)state;
    return aclrtSetDevice(0) == ACL_SUCCESS ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    (void)aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN);
    (void)aclrtSetOpExecuteTimeOutWithMs(0);
    (void)aclrtResetDeviceForce(0);
    return 0;
}

/* ---- single operators ---- */

typedef struct dt {
    aclTensorDesc *desc;
    aclDataBuffer *buf;
    void *dev;
    size_t size;
} dt;

static void dt_make(dt *t, aclDataType type, int rank, const int64_t *dims, const void *host)
{
    t->desc = aclCreateTensorDesc(type, rank, dims, ACL_FORMAT_ND);
    assert_non_null(t->desc);
    t->size = aclGetTensorDescSize(t->desc);
    assert_int_equal(aclrtMalloc(&t->dev, t->size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    if (host != NULL) {
        assert_int_equal(aclrtMemcpy(t->dev, t->size, host, t->size, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    } else {
        assert_int_equal(aclrtMemset(t->dev, t->size, 0x5a, t->size), ACL_SUCCESS);
    }
    t->buf = aclCreateDataBuffer(t->dev, t->size);
    assert_non_null(t->buf);
}

static void dt_free(dt *t)
{
    aclDestroyTensorDesc(t->desc);
    (void)aclDestroyDataBuffer(t->buf);
    (void)aclrtFree(t->dev);
}

static aclError op_run(const char *type, int nin, dt *in, dt *out, aclopAttr *attr, aclrtStream s)
{
    aclTensorDesc *di[2] = {in[0].desc, nin > 1 ? in[1].desc : NULL};
    aclDataBuffer *bi[2] = {in[0].buf, nin > 1 ? in[1].buf : NULL};
    return aclopCompileAndExecuteV2(type, nin, di, bi, 1, &out->desc, &out->buf, attr, ACL_ENGINE_SYS,
                                    ACL_COMPILE_SYS, NULL, s);
}

/* runs type(a[, b]) on s and compares the output bytes with the reference file */
static void op_case(aclrtStream s, const char *type, aclDataType dtype, const void *a, const void *b,
                    aclDataType out_type, aclopAttr *attr, const char *ref)
{
    const int64_t dims[1] = {N};
    dt in[2], out;
    dt_make(&in[0], dtype, 1, dims, a);
    if (b != NULL) {
        dt_make(&in[1], dtype, 1, dims, b);
    }
    dt_make(&out, out_type, 1, dims, NULL);
    assert_int_equal(op_run(type, b != NULL ? 2 : 1, in, &out, attr, s), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    unsigned char got[64], want[64];
    assert_int_equal(aclrtMemcpy(got, out.size, out.dev, out.size, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    load_ref(ref, want, out.size);
    if (memcmp(got, want, out.size) != 0) {
        print_message("%s(%s): result differs from %s\n", type, aclGetTensorDescType(in[0].desc) == ACL_FLOAT ? "f32"
                      : "other", ref);
    }
    assert_memory_equal(got, want, out.size);
    dt_free(&in[0]);
    if (b != NULL) {
        dt_free(&in[1]);
    }
    dt_free(&out);
}

static void ops_infnan_and_saturation(void **state)
{
    (void)state;
    float x[N], ok[N], num[N] = {1.0f, -1.0f, 0.0f, 4.0f}, den[N] = {0.0f, 0.0f, 0.0f, 2.0f};
    uint16_t a16[N];
    load_ref("x.bin", x, sizeof(x));
    load_ref("ok.bin", ok, sizeof(ok));
    load_ref("a16.bin", a16, sizeof(a16));
    for (int m = 0; m < 2; ++m) {
        const bool sat = m == 1;
        aclrtStream s = new_stream(sat ? ACL_RT_OVERFLOW_MODE_SATURATION : ACL_RT_OVERFLOW_MODE_INFNAN);
        reset_status(s);
        /* finite results: no overflow */
        op_case(s, "Mul", ACL_FLOAT, ok, ok, ACL_FLOAT, NULL, "ok_y1.bin");
        assert_int_equal(overflow_status(s), 0);
        /* float32 products beyond FLT_MAX */
        op_case(s, "Mul", ACL_FLOAT, x, x, ACL_FLOAT, NULL, sat ? "y1_sat.bin" : "y1_inf.bin");
        assert_int_equal(overflow_status(s), 1);
        reset_status(s);
        assert_int_equal(overflow_status(s), 0);
        /* float16 sums beyond 65504 (computed in float32, rounded to float16) */
        op_case(s, "Add", ACL_FLOAT16, a16, a16, ACL_FLOAT16, NULL, sat ? "add16_sat.bin" : "add16_inf.bin");
        assert_int_equal(overflow_status(s), 1);
        reset_status(s);
        /* division by zero: Inf and NaN from finite operands */
        op_case(s, "RealDiv", ACL_FLOAT, num, den, ACL_FLOAT, NULL, sat ? "div_sat.bin" : "div_inf.bin");
        assert_int_equal(overflow_status(s), 1);
        reset_status(s);
        /* Cast float32 -> float16 and -> int32 (saturated to the int32 range in both modes) */
        aclopAttr *attr = aclopCreateAttr();
        assert_int_equal(aclopSetAttrInt(attr, "dst_type", ACL_FLOAT16), ACL_SUCCESS);
        op_case(s, "Cast", ACL_FLOAT, x, NULL, ACL_FLOAT16, attr, sat ? "y2_sat.bin" : "y2_inf.bin");
        assert_int_equal(overflow_status(s), 1);
        reset_status(s);
        assert_int_equal(aclopSetAttrInt(attr, "dst_type", ACL_INT32), ACL_SUCCESS);
        op_case(s, "Cast", ACL_FLOAT, x, NULL, ACL_INT32, attr, "x_i32.bin");
        assert_int_equal(overflow_status(s), 1);
        reset_status(s);
        op_case(s, "Cast", ACL_FLOAT, ok, NULL, ACL_INT32, attr, "ok_i32.bin");
        assert_int_equal(overflow_status(s), 0);
        aclopDestroyAttr(attr);
        assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    }
}

/* Inf coming in is not an overflow of the operator; a stream whose overflow switch is off records nothing. */
static void ops_no_overflow_cases(void **state)
{
    (void)state;
    aclrtStream s = new_stream(ACL_RT_OVERFLOW_MODE_INFNAN);
    reset_status(s);
    float inf[N] = {INFINITY, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f}, one[N] = {1, 1, 1, 1, 1, 1, 1, 1};
    const int64_t dims[1] = {N};
    dt in[2], out;
    dt_make(&in[0], ACL_FLOAT, 1, dims, inf);
    dt_make(&in[1], ACL_FLOAT, 1, dims, one);
    dt_make(&out, ACL_FLOAT, 1, dims, NULL);
    assert_int_equal(op_run("Add", 2, in, &out, NULL, s), ACL_SUCCESS);
    assert_int_equal(overflow_status(s), 0);
    float got[N];
    assert_int_equal(aclrtMemcpy(got, sizeof(got), out.dev, sizeof(got), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    assert_true(isinf(got[0]) && got[1] == 2.0f);

    /* overflow switch explicitly off: the stream's tasks record no overflow (results are unchanged) */
    float x[N];
    load_ref("x.bin", x, sizeof(x));
    dt xin[2];
    dt_make(&xin[0], ACL_FLOAT, 1, dims, x);
    dt_make(&xin[1], ACL_FLOAT, 1, dims, x);
    assert_int_equal(aclrtSetStreamOverflowSwitch(s, 0), ACL_SUCCESS);
    assert_int_equal(op_run("Mul", 2, xin, &out, NULL, s), ACL_SUCCESS);
    assert_int_equal(overflow_status(s), 0);
    assert_int_equal(aclrtSetStreamOverflowSwitch(s, 1), ACL_SUCCESS);
    assert_int_equal(op_run("Mul", 2, xin, &out, NULL, s), ACL_SUCCESS);
    assert_int_equal(overflow_status(s), 1);
    reset_status(s);
    for (int i = 0; i < 2; ++i) {
        dt_free(&in[i]);
        dt_free(&xin[i]);
    }
    dt_free(&out);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

/* ---- models (static: model_v1, dynamic: model_v2) ---- */

typedef struct mdl {
    uint32_t id;
    aclmdlDataset *in, *out;
    void *x, *y1, *y2;
    aclTensorDesc *td; /* the input's shape (dynamic model), owned here */
} mdl;

static void mdl_load(mdl *m, const char *om, bool dynamic)
{
    char path[600];
    path_of(om, path, sizeof(path));
    assert_int_equal(aclmdlLoadFromFile(path, &m->id), ACL_SUCCESS);
    m->in = aclmdlCreateDataset();
    m->out = aclmdlCreateDataset();
    assert_int_equal(aclrtMalloc(&m->x, N * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMalloc(&m->y1, N * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMalloc(&m->y2, N * 2, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclmdlAddDatasetBuffer(m->in, aclCreateDataBuffer(m->x, N * 4)), ACL_SUCCESS);
    assert_int_equal(aclmdlAddDatasetBuffer(m->out, aclCreateDataBuffer(m->y1, N * 4)), ACL_SUCCESS);
    assert_int_equal(aclmdlAddDatasetBuffer(m->out, aclCreateDataBuffer(m->y2, N * 2)), ACL_SUCCESS);
    if (dynamic) {
        const int64_t dims[1] = {N};
        m->td = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
        assert_int_equal(aclmdlSetDatasetTensorDesc(m->in, m->td, 0), ACL_SUCCESS);
    }
}

static void mdl_unload(mdl *m)
{
    for (aclmdlDataset *ds = m->in;; ds = m->out) {
        for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(ds); ++i) {
            (void)aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds, i));
        }
        (void)aclmdlDestroyDataset(ds);
        if (ds == m->out) {
            break;
        }
    }
    aclDestroyTensorDesc(m->td); /* the dataset does not own it */
    (void)aclrtFree(m->x);
    (void)aclrtFree(m->y1);
    (void)aclrtFree(m->y2);
    assert_int_equal(aclmdlUnload(m->id), ACL_SUCCESS);
}

static void mdl_check(const mdl *m, const char *ref1, const char *ref2)
{
    float got1[N], want1[N];
    uint16_t got2[N], want2[N];
    assert_int_equal(aclrtMemcpy(got1, sizeof(got1), m->y1, sizeof(got1), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpy(got2, sizeof(got2), m->y2, sizeof(got2), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    load_ref(ref1, want1, sizeof(want1));
    load_ref(ref2, want2, sizeof(want2));
    assert_memory_equal(got1, want1, sizeof(got1));
    assert_memory_equal(got2, want2, sizeof(got2));
}

static void model_case(const char *om, bool dynamic)
{
    float x[N], ok[N];
    load_ref("x.bin", x, sizeof(x));
    load_ref("ok.bin", ok, sizeof(ok));
    mdl m, ma;
    memset(&m, 0, sizeof(m));
    memset(&ma, 0, sizeof(ma));
    mdl_load(&m, om, dynamic);
    mdl_load(&ma, om, dynamic);
    for (int mode = 0; mode < 2; ++mode) {
        const bool sat = mode == 1;
        aclrtStream s = new_stream(sat ? ACL_RT_OVERFLOW_MODE_SATURATION : ACL_RT_OVERFLOW_MODE_INFNAN);
        reset_status(s);
        /* finite: no overflow */
        assert_int_equal(aclrtMemcpy(m.x, N * 4, ok, N * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
        assert_int_equal(aclmdlExecute(m.id, m.in, m.out), ACL_SUCCESS);
        mdl_check(&m, "ok_y1.bin", "ok_y2.bin");
        assert_int_equal(overflow_status(s), 0);
        /* aclmdlExecute (the calling thread runs the model) */
        assert_int_equal(aclrtMemcpy(m.x, N * 4, x, N * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
        assert_int_equal(aclmdlExecute(m.id, m.in, m.out), ACL_SUCCESS);
        mdl_check(&m, sat ? "y1_sat.bin" : "y1_inf.bin", sat ? "y2_sat.bin" : "y2_inf.bin");
        assert_int_equal(overflow_status(s), 1);
        reset_status(s);
        /* aclmdlExecuteAsync (the stream's worker runs it, in the stream's mode); a model runs either
         * synchronously or asynchronously (GE), so a second load */
        assert_int_equal(aclrtMemcpy(ma.x, N * 4, x, N * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
        assert_int_equal(aclmdlExecuteAsync(ma.id, ma.in, ma.out, s), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
        mdl_check(&ma, sat ? "y1_sat.bin" : "y1_inf.bin", sat ? "y2_sat.bin" : "y2_inf.bin");
        assert_int_equal(overflow_status(s), 1);
        reset_status(s);
        assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    }
    mdl_unload(&m);
    mdl_unload(&ma);
}

static void model_v1_overflow(void **state)
{
    (void)state;
    model_case("ovf.om", false);
}

static void model_v2_overflow(void **state)
{
    (void)state;
    model_case("ovf_dyn.om", true);
}

/* ---- execute timeouts stop a long operator ---- */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void timeouts_stop_long_operator(void **state)
{
    (void)state;
    char path[600];
    path_of("slow.om", path, sizeof(path));
    uint32_t id = 0;
    assert_int_equal(aclmdlLoadFromFile(path, &id), ACL_SUCCESS);
    const size_t bytes = (size_t)64 * 512 * 512 * 4;
    void *x = NULL, *y = NULL;
    assert_int_equal(aclrtMalloc(&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMalloc(&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMemset(x, bytes, 0, bytes), ACL_SUCCESS);
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    assert_int_equal(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(x, bytes)), ACL_SUCCESS);
    assert_int_equal(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(x, bytes)), ACL_SUCCESS);
    assert_int_equal(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(y, bytes)), ACL_SUCCESS);
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);

    /* the full run, for comparison */
    double t0 = now_ms();
    assert_int_equal(aclmdlExecute(id, in, out), ACL_SUCCESS);
    const double full = now_ms() - t0;
    print_message("full run of the MatMul: %.0f ms\n", full);

    /* the operator timeout, inside a model run on the calling thread */
    assert_int_equal(aclrtSetOpExecuteTimeOutWithMs(5), ACL_SUCCESS);
    t0 = now_ms();
    assert_int_equal(aclmdlExecute(id, in, out), ACL_ERROR_RT_AICORE_TIMEOUT);
    const double stopped = now_ms() - t0;
    assert_non_null(strstr(aclGetRecentErrMsg(), "execute timeout"));
    print_message("stopped after %.0f ms\n", stopped);
    assert_true(stopped < full / 2);

    /* ... and on a stream: reported at synchronisation (a second load: GE runs a model either way, not both) */
    uint32_t id2 = 0;
    assert_int_equal(aclmdlLoadFromFile(path, &id2), ACL_SUCCESS);
    t0 = now_ms();
    assert_int_equal(aclmdlExecuteAsync(id2, in, out, s), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_TIMEOUT);
    assert_true(now_ms() - t0 < full / 2);
    assert_int_equal(aclrtSetOpExecuteTimeOutWithMs(0), ACL_SUCCESS);
    assert_int_equal(aclmdlExecuteAsync(id2, in, out, s), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_int_equal(aclmdlUnload(id2), ACL_SUCCESS);

    /* the model's own timeout (aclmdlExecuteV2 config): the run stops, 507046 */
    aclmdlExecConfigHandle *h = aclmdlCreateExecConfigHandle();
    assert_non_null(h);
    int32_t ms = 5;
    assert_int_equal(aclmdlSetExecConfigOpt(h, ACL_MDL_STREAM_SYNC_TIMEOUT, &ms, sizeof(ms)), ACL_SUCCESS);
    t0 = now_ms();
    assert_int_equal(aclmdlExecuteV2(id, in, out, NULL, h), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    assert_true(now_ms() - t0 < full / 2);
    ms = -1;
    assert_int_equal(aclmdlSetExecConfigOpt(h, ACL_MDL_STREAM_SYNC_TIMEOUT, &ms, sizeof(ms)), ACL_SUCCESS);
    assert_int_equal(aclmdlExecuteV2(id, in, out, NULL, h), ACL_SUCCESS);
    assert_int_equal(aclmdlDestroyExecConfigHandle(h), ACL_SUCCESS);

    (void)aclDestroyDataBuffer(aclmdlGetDatasetBuffer(in, 0));
    (void)aclDestroyDataBuffer(aclmdlGetDatasetBuffer(in, 1));
    (void)aclDestroyDataBuffer(aclmdlGetDatasetBuffer(out, 0));
    (void)aclmdlDestroyDataset(in);
    (void)aclmdlDestroyDataset(out);
    assert_int_equal(aclmdlUnload(id), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    (void)aclrtFree(x);
    (void)aclrtFree(y);
}

int main(void)
{
    const char *d = getenv("OA_OVF_REFS");
    if (d == NULL) {
        fprintf(stderr, "OA_OVF_REFS is not set\n");
        return 1;
    }
    snprintf(g_dir, sizeof(g_dir), "%s", d);
    if (aclInit(NULL) != ACL_SUCCESS) {
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(ops_infnan_and_saturation, setup, teardown),
        cmocka_unit_test_setup_teardown(ops_no_overflow_cases, setup, teardown),
        cmocka_unit_test_setup_teardown(model_v1_overflow, setup, teardown),
        cmocka_unit_test_setup_teardown(model_v2_overflow, setup, teardown),
        cmocka_unit_test_setup_teardown(timeouts_stop_long_operator, setup, teardown),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    (void)aclFinalize();
    return rc;
}

/*
 * Running single operators (libascendcl, with the kernel binding): outputs
 * aliasing inputs, values of ordinary device inputs read at every run (a
 * cached op whose kernel depends on them), stream order without
 * synchronization in between, capture into a model runtime instance and its
 * replays, handles run many times, the default stream, and refusals that
 * must come from the compile, not from the stream.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"

static aclrtStream g_stream;

typedef struct dt {
    aclTensorDesc *desc;
    aclDataBuffer *buf;
    void *dev;
    size_t size;
} dt;

static void dt_make(dt *t, aclDataType type, int rank, const int64_t *dims, aclFormat fmt, const void *host)
{
    t->desc = aclCreateTensorDesc(type, rank, dims, fmt);
    assert_non_null(t->desc);
    t->size = aclGetTensorDescSize(t->desc);
    assert_int_equal(aclrtMalloc(&t->dev, t->size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    if (host != NULL) {
        assert_int_equal(aclrtMemcpy(t->dev, t->size, host, t->size, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    } else {
        assert_int_equal(aclrtMemset(t->dev, t->size, 0, t->size), ACL_SUCCESS);
    }
    t->buf = aclCreateDataBuffer(t->dev, t->size);
    assert_non_null(t->buf);
}

static void dt_write(dt *t, const void *host)
{
    assert_int_equal(aclrtMemcpy(t->dev, t->size, host, t->size, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
}

static void dt_read(const dt *t, void *host)
{
    assert_int_equal(aclrtMemcpy(host, t->size, t->dev, t->size, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
}

static void dt_free(dt *t)
{
    aclDestroyTensorDesc(t->desc);
    (void)aclDestroyDataBuffer(t->buf);
    (void)aclrtFree(t->dev);
}

static aclError run(const char *type, int nin, dt *in, int nout, dt *out, aclopAttr *attr, aclrtStream s)
{
    aclTensorDesc *di[8], *dout[4];
    aclDataBuffer *bi[8], *bo[4];
    for (int i = 0; i < nin; ++i) {
        di[i] = in[i].desc;
        bi[i] = in[i].buf;
    }
    for (int k = 0; k < nout; ++k) {
        dout[k] = out[k].desc;
        bo[k] = out[k].buf;
    }
    return aclopCompileAndExecuteV2(type, nin, di, bi, nout, dout, bo, attr, ACL_ENGINE_SYS,
                                    ACL_COMPILE_SYS, NULL, s);
}

/* y = x1 + x2 written over x1 (the output buffer is the input buffer). */
static void output_aliases_input(void **state)
{
    (void)state;
    const int64_t d[2] = {3, 4};
    float a[12], b[12], y[12];
    for (int i = 0; i < 12; ++i) {
        a[i] = (float)i;
        b[i] = (float)(2 * i + 1);
    }
    dt t[2];
    dt_make(&t[0], ACL_FLOAT, 2, d, ACL_FORMAT_ND, a);
    dt_make(&t[1], ACL_FLOAT, 2, d, ACL_FORMAT_ND, b);
    dt o = t[0];
    o.desc = aclCreateTensorDesc(ACL_FLOAT, 2, d, ACL_FORMAT_ND);
    assert_int_equal(run("Add", 2, t, 1, &o, NULL, g_stream), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    dt_read(&t[0], y);
    for (int i = 0; i < 12; ++i) {
        assert_true(y[i] == a[i] + b[i]);
    }
    /* the same with a half input promoted to float32 around the kernel */
    aclFloat16 h[12], g[12];
    for (int i = 0; i < 12; ++i) {
        h[i] = aclFloatToFloat16((float)i);
    }
    dt u[2];
    dt_make(&u[0], ACL_FLOAT16, 2, d, ACL_FORMAT_ND, h);
    dt_make(&u[1], ACL_FLOAT16, 2, d, ACL_FORMAT_ND, h);
    dt uo = u[1];
    uo.desc = aclCreateTensorDesc(ACL_FLOAT16, 2, d, ACL_FORMAT_ND);
    assert_int_equal(run("Mul", 2, u, 1, &uo, NULL, g_stream), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    dt_read(&u[1], g);
    for (int i = 0; i < 12; ++i) {
        assert_true(aclFloat16ToFloat(g[i]) == (float)(i * i));
    }
    aclDestroyTensorDesc(o.desc);
    aclDestroyTensorDesc(uo.desc);
    dt_free(&t[0]);
    dt_free(&t[1]);
    dt_free(&u[0]);
    dt_free(&u[1]);
}

/*
 * Conv2D's filter and Transpose's perm as ordinary device inputs: one cached
 * op, two runs with other values, both right (nothing packed at the first run
 * is reused).
 */
static void device_values_read_at_every_run(void **state)
{
    (void)state;
    const int64_t dx[4] = {1, 1, 3, 3}, dw[4] = {1, 1, 1, 1}, dy[4] = {1, 1, 3, 3};
    float x[9], w, y[9];
    for (int i = 0; i < 9; ++i) {
        x[i] = (float)(i + 1);
    }
    dt t[2], o;
    w = 2.0f;
    dt_make(&t[0], ACL_FLOAT, 4, dx, ACL_FORMAT_NCHW, x);
    dt_make(&t[1], ACL_FLOAT, 4, dw, ACL_FORMAT_NCHW, &w);
    dt_make(&o, ACL_FLOAT, 4, dy, ACL_FORMAT_NCHW, NULL);
    aclopAttr *a = aclopCreateAttr();
    const int64_t s[4] = {1, 1, 1, 1}, p[4] = {0, 0, 0, 0};
    assert_int_equal(aclopSetAttrListInt(a, "strides", 4, s), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrListInt(a, "pads", 4, p), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrString(a, "data_format", "NCHW"), ACL_SUCCESS);
    for (int r = 0; r < 2; ++r) {
        w = r == 0 ? 2.0f : -3.0f;
        dt_write(&t[1], &w);
        assert_int_equal(run("Conv2D", 2, t, 1, &o, a, g_stream), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
        dt_read(&o, y);
        for (int i = 0; i < 9; ++i) {
            assert_true(y[i] == w * x[i]);
        }
    }
    aclopDestroyAttr(a);
    dt_free(&t[1]);
    dt_free(&o);

    /* a square transpose: perm {0,1} then {1,0} under one cache entry */
    const int64_t d2[2] = {3, 3}, dp[1] = {2};
    int32_t perm[2] = {0, 1};
    dt q[2];
    q[0] = t[0];
    q[0].desc = aclCreateTensorDesc(ACL_FLOAT, 2, d2, ACL_FORMAT_ND);
    dt_make(&q[1], ACL_INT32, 1, dp, ACL_FORMAT_ND, perm);
    dt_make(&o, ACL_FLOAT, 2, d2, ACL_FORMAT_ND, NULL);
    for (int r = 0; r < 2; ++r) {
        perm[0] = r;
        perm[1] = 1 - r;
        dt_write(&q[1], perm);
        assert_int_equal(run("Transpose", 2, q, 1, &o, NULL, g_stream), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
        dt_read(&o, y);
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
                assert_true(y[i * 3 + j] == x[r ? j * 3 + i : i * 3 + j]);
            }
        }
    }
    aclDestroyTensorDesc(q[0].desc);
    dt_free(&q[1]);
    dt_free(&t[0]);
    dt_free(&o);
}

/* Add, then Mul reading Add's output, then Relu: queued back to back, one synchronize. */
static void stream_order(void **state)
{
    (void)state;
    enum { N = 1024 };
    const int64_t d[1] = {N};
    static float a[N], b[N], y[N];
    for (int i = 0; i < N; ++i) {
        a[i] = (float)(i % 7) - 3.0f;
        b[i] = (float)(i % 5) - 2.0f;
    }
    dt t[4];
    dt_make(&t[0], ACL_FLOAT, 1, d, ACL_FORMAT_ND, a);
    dt_make(&t[1], ACL_FLOAT, 1, d, ACL_FORMAT_ND, b);
    dt_make(&t[2], ACL_FLOAT, 1, d, ACL_FORMAT_ND, NULL);
    dt_make(&t[3], ACL_FLOAT, 1, d, ACL_FORMAT_ND, NULL);
    for (int rep = 0; rep < 20; ++rep) {
        assert_int_equal(run("Add", 2, &t[0], 1, &t[2], NULL, g_stream), ACL_SUCCESS); /* s = a + b */
        dt mul_in[2] = {t[2], t[1]};
        assert_int_equal(run("Mul", 2, mul_in, 1, &t[3], NULL, g_stream), ACL_SUCCESS); /* p = s * b */
        assert_int_equal(run("Relu", 1, &t[3], 1, &t[2], NULL, g_stream), ACL_SUCCESS);  /* s = relu(p) */
    }
    assert_int_equal(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    dt_read(&t[2], y);
    for (int i = 0; i < N; ++i) {
        const float p = (a[i] + b[i]) * b[i];
        assert_true(y[i] == (p > 0 ? p : 0));
    }
    for (int i = 0; i < 4; ++i) {
        dt_free(&t[i]);
    }
}

/* Captured ops run only when the instance runs, and read the buffers as they are then. */
static void captured_ops_replay(void **state)
{
    (void)state;
    const int64_t d[1] = {4};
    float a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40}, y[4];
    dt t[3];
    dt_make(&t[0], ACL_FLOAT, 1, d, ACL_FORMAT_ND, a);
    dt_make(&t[1], ACL_FLOAT, 1, d, ACL_FORMAT_ND, b);
    dt_make(&t[2], ACL_FLOAT, 1, d, ACL_FORMAT_ND, NULL);
    /* compile outside the capture, execute inside it */
    assert_int_equal(run("Sub", 2, t, 1, &t[2], NULL, g_stream), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    assert_int_equal(aclrtMemset(t[2].dev, t[2].size, 0, t[2].size), ACL_SUCCESS);
    aclmdlRI ri = NULL;
    assert_int_equal(aclmdlRICaptureBegin(g_stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    aclTensorDesc *di[2] = {t[0].desc, t[1].desc}, *dout[1] = {t[2].desc};
    aclDataBuffer *bi[2] = {t[0].buf, t[1].buf}, *bo[1] = {t[2].buf};
    assert_int_equal(aclopExecuteV2("Sub", 2, di, bi, 1, dout, bo, NULL, g_stream), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(g_stream, &ri), ACL_SUCCESS);
    assert_non_null(ri);
    dt_read(&t[2], y);
    for (int i = 0; i < 4; ++i) {
        assert_true(y[i] == 0.0f); /* recorded, not run */
    }
    for (int r = 0; r < 3; ++r) {
        a[0] = (float)(100 * r);
        dt_write(&t[0], a);
        assert_int_equal(aclmdlRIExecuteAsync(ri, g_stream), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
        dt_read(&t[2], y);
        for (int i = 0; i < 4; ++i) {
            assert_true(y[i] == a[i] - b[i]);
        }
    }
    assert_int_equal(aclmdlRIDestroy(ri), ACL_SUCCESS);
    for (int i = 0; i < 3; ++i) {
        dt_free(&t[i]);
    }
}

/* A handle runs many times, on the default stream too; the desc counts are checked per call. */
static void handle_runs_repeatedly(void **state)
{
    (void)state;
    const int64_t d[2] = {2, 2};
    float a[4] = {1, -2, 3, -4}, y[4];
    dt t[2];
    dt_make(&t[0], ACL_FLOAT, 2, d, ACL_FORMAT_ND, a);
    dt_make(&t[1], ACL_FLOAT, 2, d, ACL_FORMAT_ND, NULL);
    const aclTensorDesc *di[1] = {t[0].desc}, *dout[1] = {t[1].desc};
    assert_int_equal(aclopCompile("Abs", 1, di, 1, dout, NULL, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL), ACL_SUCCESS);
    aclopHandle *h = NULL;
    assert_int_equal(aclopCreateHandle("Abs", 1, di, 1, dout, NULL, &h), ACL_SUCCESS);
    const aclDataBuffer *bi[1] = {t[0].buf};
    aclDataBuffer *bo[1] = {t[1].buf};
    for (int r = 0; r < 5; ++r) {
        a[0] = (float)-r;
        dt_write(&t[0], a);
        assert_int_equal(aclopExecWithHandle(h, 1, bi, 1, bo, r % 2 ? NULL : g_stream), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(r % 2 ? NULL : g_stream), ACL_SUCCESS);
        dt_read(&t[1], y);
        for (int i = 0; i < 4; ++i) {
            assert_true(y[i] == fabsf(a[i]));
        }
    }
    const aclDataBuffer *bi2[2] = {t[0].buf, t[0].buf};
    assert_int_equal(aclopExecWithHandle(h, 2, bi2, 1, bo, g_stream), ACL_ERROR_OP_INPUT_NOT_MATCH);
    assert_int_equal(aclopExecWithHandle(h, 1, bi, 0, bo, g_stream), ACL_ERROR_OP_OUTPUT_NOT_MATCH);
    aclopDestroyHandle(h);
    dt_free(&t[0]);
    dt_free(&t[1]);
}

/* An int32 Conv2D is refused by aclopCompile itself, the stream never sees it. */
static void refusals_come_from_the_compile(void **state)
{
    (void)state;
    const int64_t dx[4] = {1, 1, 3, 3}, dw[4] = {1, 1, 1, 1};
    aclTensorDesc *x = aclCreateTensorDesc(ACL_INT32, 4, dx, ACL_FORMAT_NCHW);
    aclTensorDesc *w = aclCreateTensorDesc(ACL_INT32, 4, dw, ACL_FORMAT_NCHW);
    aclTensorDesc *y = aclCreateTensorDesc(ACL_INT32, 4, dx, ACL_FORMAT_NCHW);
    const aclTensorDesc *di[2] = {x, w}, *dout[1] = {y};
    aclopAttr *a = aclopCreateAttr();
    const int64_t s[4] = {1, 1, 1, 1}, p[4] = {0, 0, 0, 0};
    assert_int_equal(aclopSetAttrListInt(a, "strides", 4, s), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrListInt(a, "pads", 4, p), ACL_SUCCESS);
    assert_int_equal(aclopCompile("Conv2D", 2, di, 1, dout, a, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL),
                     ACL_ERROR_UNSUPPORTED_DATA_TYPE);
    const char *m = aclGetRecentErrMsg();
    assert_non_null(m);
    assert_non_null(strstr(m, "i32"));
    /* an op type no kernel implements */
    const aclTensorDesc *dxx[2] = {x, x};
    assert_int_equal(aclopCompile("Axpy", 2, dxx, 1, dout, NULL, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL),
                     ACL_ERROR_OP_NOT_FOUND);
    aclopDestroyAttr(a);
    aclDestroyTensorDesc(x);
    aclDestroyTensorDesc(w);
    aclDestroyTensorDesc(y);
}

static int setup(void **state)
{
    (void)state;
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&g_stream) != ACL_SUCCESS) {
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    (void)aclrtDestroyStream(g_stream);
    (void)aclrtResetDevice(0);
    (void)aclFinalize();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(output_aliases_input),
        cmocka_unit_test(device_values_read_at_every_run),
        cmocka_unit_test(stream_order),
        cmocka_unit_test(captured_ops_replay),
        cmocka_unit_test(handle_runs_repeatedly),
        cmocka_unit_test(refusals_come_from_the_compile),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

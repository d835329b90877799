/*
 * Single operators without a model directory: aclopCompileAndExecute(V2)
 * compiles on the CPU and runs; aclopCompile followed by aclopExecuteV2
 * finds the compiled model; aclopInferShape; aclGenGraphAndDumpForOp.
 * Operators of the common app set in float32, float16 and int32 (Conv2D
 * with bias, SoftmaxV2, ReduceSumD, TransposeD, ConcatD, SplitD, GatherV2,
 * MaxPool, BatchMatMulV2, RealDiv, Relu, Sigmoid), each checked against a
 * double-precision reference computed here.
 */
#include "op_compat.h"

static aclrtStream g_stream;

/* Runs opType with CompileAndExecute (V2 when v2) on prepared tensors. */
static int compile_run(const char *type, int n_in, op_tensor *in, int n_out, op_tensor *out, aclopAttr *attr, bool v2)
{
    aclTensorDesc *di[8], *dout[4];
    aclDataBuffer *bi[8], *bo[4];
    for (int i = 0; i < n_in; ++i) {
        di[i] = in[i].desc;
        bi[i] = in[i].buf;
    }
    for (int i = 0; i < n_out; ++i) {
        dout[i] = out[i].desc;
        bo[i] = out[i].buf;
    }
    if (v2) {
        CHECK(aclopCompileAndExecuteV2(type, n_in, di, bi, n_out, dout, bo, attr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL,
                                       g_stream));
    } else {
        CHECK(aclopCompileAndExecute(type, n_in, (const aclTensorDesc *const *)di, (const aclDataBuffer *const *)bi,
                                     n_out, (const aclTensorDesc *const *)dout, bo, attr, ACL_ENGINE_SYS,
                                     ACL_COMPILE_SYS, NULL, g_stream));
    }
    CHECK(aclrtSynchronizeStream(g_stream));
    return 0;
}

static int conv2d_with_bias(void)
{
    /* x [1,2,5,5], w [3,2,3,3], b [3], stride 2, pad 1 -> y [1,3,3,3] */
    const int64_t dx[4] = {1, 2, 5, 5}, dw[4] = {3, 2, 3, 3}, db[1] = {3}, dy[4] = {1, 3, 3, 3};
    float x[50], w[54], b[3], y[27];
    op_fill(x, 50, 11);
    op_fill(w, 54, 12);
    op_fill(b, 3, 13);
    op_tensor t[4];
    if (op_tensor_make(&t[0], ACL_FLOAT, 4, dx, ACL_FORMAT_NCHW, x) || op_tensor_make(&t[1], ACL_FLOAT, 4, dw, ACL_FORMAT_NCHW, w) ||
        op_tensor_make(&t[2], ACL_FLOAT, 1, db, ACL_FORMAT_ND, b) || op_tensor_make(&t[3], ACL_FLOAT, 4, dy, ACL_FORMAT_NCHW, NULL)) {
        return 1;
    }
    aclopAttr *a = aclopCreateAttr();
    const int64_t strides[4] = {1, 1, 2, 2}, pads[4] = {1, 1, 1, 1}, dil[4] = {1, 1, 1, 1};
    CHECK(aclopSetAttrListInt(a, "strides", 4, strides));
    CHECK(aclopSetAttrListInt(a, "pads", 4, pads));
    CHECK(aclopSetAttrListInt(a, "dilations", 4, dil));
    CHECK(aclopSetAttrInt(a, "groups", 1));
    CHECK(aclopSetAttrString(a, "data_format", "NCHW"));
    if (compile_run("Conv2D", 3, t, 1, &t[3], a, false) || op_tensor_read(&t[3], y)) {
        return 1;
    }
    double want[27];
    for (int oc = 0; oc < 3; ++oc) {
        for (int oh = 0; oh < 3; ++oh) {
            for (int ow = 0; ow < 3; ++ow) {
                double s = b[oc];
                for (int ic = 0; ic < 2; ++ic) {
                    for (int kh = 0; kh < 3; ++kh) {
                        for (int kw = 0; kw < 3; ++kw) {
                            const int ih = oh * 2 - 1 + kh, iw = ow * 2 - 1 + kw;
                            if (ih >= 0 && ih < 5 && iw >= 0 && iw < 5) {
                                s += (double)x[(ic * 5 + ih) * 5 + iw] * (double)w[((oc * 2 + ic) * 3 + kh) * 3 + kw];
                            }
                        }
                    }
                }
                want[(oc * 3 + oh) * 3 + ow] = s;
            }
        }
    }
    const double e = op_err(y, want, 27, 1e-5, 1e-5);
    REQUIRE(e <= 1, "Conv2D error %g", e);
    printf("  ok: Conv2D float32 NCHW, bias, stride 2, pad 1 (error %.3g)\n", e);
    aclopDestroyAttr(a);
    for (int i = 0; i < 4; ++i) {
        op_tensor_free(&t[i]);
    }
    return 0;
}

static int softmax_f16(void)
{
    const int64_t d[2] = {4, 10};
    float x[40];
    aclFloat16 hx[40], hy[40];
    op_fill(x, 40, 21);
    op_to_f16(x, hx, 40);
    op_tensor t[2];
    if (op_tensor_make(&t[0], ACL_FLOAT16, 2, d, ACL_FORMAT_ND, hx) || op_tensor_make(&t[1], ACL_FLOAT16, 2, d, ACL_FORMAT_ND, NULL)) {
        return 1;
    }
    aclopAttr *a = aclopCreateAttr();
    const int64_t axes[1] = {-1};
    CHECK(aclopSetAttrListInt(a, "axes", 1, axes));
    if (compile_run("SoftmaxV2", 1, t, 1, &t[1], a, true) || op_tensor_read(&t[1], hy)) {
        return 1;
    }
    float y[40];
    double want[40];
    for (int r = 0; r < 4; ++r) {
        double mx = -1e30, sum = 0;
        for (int c = 0; c < 10; ++c) {
            mx = fmax(mx, aclFloat16ToFloat(hx[r * 10 + c]));
        }
        for (int c = 0; c < 10; ++c) {
            sum += exp(aclFloat16ToFloat(hx[r * 10 + c]) - mx);
        }
        for (int c = 0; c < 10; ++c) {
            want[r * 10 + c] = exp(aclFloat16ToFloat(hx[r * 10 + c]) - mx) / sum;
            y[r * 10 + c] = aclFloat16ToFloat(hy[r * 10 + c]);
        }
    }
    const double e = op_err(y, want, 40, 1e-3, 2e-3);
    REQUIRE(e <= 1, "SoftmaxV2 f16 error %g", e);
    printf("  ok: SoftmaxV2 float16 (computed in float32, error %.3g)\n", e);
    aclopDestroyAttr(a);
    op_tensor_free(&t[0]);
    op_tensor_free(&t[1]);
    return 0;
}

static int reduce_sum_i32(void)
{
    const int64_t d[3] = {2, 3, 4}, dy[3] = {2, 1, 4};
    int32_t x[24], y[8];
    for (int i = 0; i < 24; ++i) {
        x[i] = (i * 37) % 11 - 5;
    }
    op_tensor t[2];
    if (op_tensor_make(&t[0], ACL_INT32, 3, d, ACL_FORMAT_ND, x) || op_tensor_make(&t[1], ACL_INT32, 3, dy, ACL_FORMAT_ND, NULL)) {
        return 1;
    }
    aclopAttr *a = aclopCreateAttr();
    const int64_t axes[1] = {1};
    CHECK(aclopSetAttrListInt(a, "axes", 1, axes));
    CHECK(aclopSetAttrBool(a, "keep_dims", 1));
    if (compile_run("ReduceSumD", 1, t, 1, &t[1], a, false) || op_tensor_read(&t[1], y)) {
        return 1;
    }
    for (int i = 0; i < 2; ++i) {
        for (int k = 0; k < 4; ++k) {
            int32_t s = 0;
            for (int j = 0; j < 3; ++j) {
                s += x[(i * 3 + j) * 4 + k];
            }
            REQUIRE(y[i * 4 + k] == s, "ReduceSumD [%d,%d] = %d, want %d", i, k, y[i * 4 + k], s);
        }
    }
    printf("  ok: ReduceSumD int32 keep_dims (exact)\n");
    aclopDestroyAttr(a);
    op_tensor_free(&t[0]);
    op_tensor_free(&t[1]);
    return 0;
}

/* aclopCompile, then aclopExecuteV2 finds the compiled model; TransposeD. */
static int compile_then_execute(void)
{
    const int64_t dx[3] = {2, 3, 4}, dy[3] = {4, 2, 3};
    float x[24], y[24];
    op_fill(x, 24, 31);
    op_tensor t[2];
    if (op_tensor_make(&t[0], ACL_FLOAT, 3, dx, ACL_FORMAT_ND, x) || op_tensor_make(&t[1], ACL_FLOAT, 3, dy, ACL_FORMAT_ND, NULL)) {
        return 1;
    }
    aclopAttr *a = aclopCreateAttr();
    const int64_t perm[3] = {2, 0, 1};
    CHECK(aclopSetAttrListInt(a, "perm", 3, perm));
    const aclTensorDesc *ci[1] = {t[0].desc}, *co[1] = {t[1].desc};
    aclTensorDesc *di[1] = {t[0].desc}, *dout[1] = {t[1].desc};
    aclDataBuffer *bi[1] = {t[0].buf}, *bo[1] = {t[1].buf};
    EXPECT(aclopExecuteV2("TransposeD", 1, di, bi, 1, dout, bo, a, g_stream), ACL_ERROR_OP_NOT_FOUND);
    CHECK(aclopCompile("TransposeD", 1, ci, 1, co, a, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL));
    CHECK(aclopExecuteV2("TransposeD", 1, di, bi, 1, dout, bo, a, g_stream));
    CHECK(aclrtSynchronizeStream(g_stream));
    if (op_tensor_read(&t[1], y)) {
        return 1;
    }
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 2; ++j) {
            for (int k = 0; k < 3; ++k) {
                REQUIRE(y[(i * 2 + j) * 3 + k] == x[(j * 3 + k) * 4 + i], "TransposeD element %d,%d,%d", i, j, k);
            }
        }
    }
    printf("  ok: aclopCompile + aclopExecuteV2 (TransposeD float32, exact)\n");
    aclopDestroyAttr(a);
    op_tensor_free(&t[0]);
    op_tensor_free(&t[1]);
    return 0;
}

static int concat_split_i32(void)
{
    const int64_t d[2] = {2, 3}, dc[2] = {2, 9};
    int32_t a[6], b[6], c[6], y[18], s0[6], s1[6], s2[6];
    for (int i = 0; i < 6; ++i) {
        a[i] = i;
        b[i] = 10 + i;
        c[i] = 20 + i;
    }
    op_tensor t[4];
    if (op_tensor_make(&t[0], ACL_INT32, 2, d, ACL_FORMAT_ND, a) || op_tensor_make(&t[1], ACL_INT32, 2, d, ACL_FORMAT_ND, b) ||
        op_tensor_make(&t[2], ACL_INT32, 2, d, ACL_FORMAT_ND, c) || op_tensor_make(&t[3], ACL_INT32, 2, dc, ACL_FORMAT_ND, NULL)) {
        return 1;
    }
    aclopAttr *ca = aclopCreateAttr();
    CHECK(aclopSetAttrInt(ca, "concat_dim", 1));
    CHECK(aclopSetAttrInt(ca, "N", 3));
    if (compile_run("ConcatD", 3, t, 1, &t[3], ca, false) || op_tensor_read(&t[3], y)) {
        return 1;
    }
    for (int r = 0; r < 2; ++r) {
        for (int k = 0; k < 9; ++k) {
            const int32_t want = (k / 3) * 10 + r * 3 + k % 3;
            REQUIRE(y[r * 9 + k] == want, "ConcatD [%d,%d] = %d want %d", r, k, y[r * 9 + k], want);
        }
    }
    /* and back with SplitD into three outputs */
    op_tensor o[3];
    for (int i = 0; i < 3; ++i) {
        if (op_tensor_make(&o[i], ACL_INT32, 2, d, ACL_FORMAT_ND, NULL)) {
            return 1;
        }
    }
    aclopAttr *sa = aclopCreateAttr();
    CHECK(aclopSetAttrInt(sa, "split_dim", 1));
    CHECK(aclopSetAttrInt(sa, "num_split", 3));
    if (compile_run("SplitD", 1, &t[3], 3, o, sa, false) || op_tensor_read(&o[0], s0) || op_tensor_read(&o[1], s1) ||
        op_tensor_read(&o[2], s2)) {
        return 1;
    }
    REQUIRE(memcmp(s0, a, sizeof a) == 0 && memcmp(s1, b, sizeof b) == 0 && memcmp(s2, c, sizeof c) == 0,
            "SplitD did not undo ConcatD");
    printf("  ok: ConcatD (3 inputs) and SplitD (3 outputs) int32, exact\n");
    aclopDestroyAttr(ca);
    aclopDestroyAttr(sa);
    for (int i = 0; i < 4; ++i) {
        op_tensor_free(&t[i]);
    }
    for (int i = 0; i < 3; ++i) {
        op_tensor_free(&o[i]);
    }
    return 0;
}

/* GatherV2 with its axis as a constant input (aclSetTensorConst). */
static int gather_v2(void)
{
    const int64_t dx[2] = {5, 3}, di[1] = {4}, dy[2] = {4, 3};
    float x[15], y[12];
    int32_t idx[4] = {4, 0, 2, 4};
    int32_t axis = 0;
    op_fill(x, 15, 41);
    op_tensor t[4];
    if (op_tensor_make(&t[0], ACL_FLOAT, 2, dx, ACL_FORMAT_ND, x) || op_tensor_make(&t[1], ACL_INT32, 1, di, ACL_FORMAT_ND, idx) ||
        op_tensor_make(&t[2], ACL_INT32, 0, NULL, ACL_FORMAT_ND, &axis) || op_tensor_make(&t[3], ACL_FLOAT, 2, dy, ACL_FORMAT_ND, NULL)) {
        return 1;
    }
    CHECK(aclSetTensorConst(t[2].desc, &axis, sizeof axis));
    if (compile_run("GatherV2", 3, t, 1, &t[3], NULL, false) || op_tensor_read(&t[3], y)) {
        return 1;
    }
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 3; ++c) {
            REQUIRE(y[r * 3 + c] == x[idx[r] * 3 + c], "GatherV2 [%d,%d]", r, c);
        }
    }
    printf("  ok: GatherV2 float32 with a constant axis (exact)\n");
    for (int i = 0; i < 4; ++i) {
        op_tensor_free(&t[i]);
    }
    return 0;
}

static int max_pool(void)
{
    const int64_t dx[4] = {1, 2, 4, 4}, dy[4] = {1, 2, 2, 2};
    float x[32], y[8];
    op_fill(x, 32, 51);
    op_tensor t[2];
    if (op_tensor_make(&t[0], ACL_FLOAT, 4, dx, ACL_FORMAT_NCHW, x) || op_tensor_make(&t[1], ACL_FLOAT, 4, dy, ACL_FORMAT_NCHW, NULL)) {
        return 1;
    }
    aclopAttr *a = aclopCreateAttr();
    const int64_t k[4] = {1, 1, 2, 2}, s[4] = {1, 1, 2, 2};
    CHECK(aclopSetAttrListInt(a, "ksize", 4, k));
    CHECK(aclopSetAttrListInt(a, "strides", 4, s));
    CHECK(aclopSetAttrString(a, "padding", "VALID"));
    CHECK(aclopSetAttrString(a, "data_format", "NCHW"));
    if (compile_run("MaxPool", 1, t, 1, &t[1], a, false) || op_tensor_read(&t[1], y)) {
        return 1;
    }
    for (int c = 0; c < 2; ++c) {
        for (int i = 0; i < 2; ++i) {
            for (int j = 0; j < 2; ++j) {
                float m = -1e30f;
                for (int u = 0; u < 2; ++u) {
                    for (int v = 0; v < 2; ++v) {
                        m = fmaxf(m, x[(c * 4 + i * 2 + u) * 4 + j * 2 + v]);
                    }
                }
                REQUIRE(y[(c * 2 + i) * 2 + j] == m, "MaxPool [%d,%d,%d]", c, i, j);
            }
        }
    }
    printf("  ok: MaxPool float32 NCHW 2x2/2 VALID (exact)\n");
    aclopDestroyAttr(a);
    op_tensor_free(&t[0]);
    op_tensor_free(&t[1]);
    return 0;
}

static int batch_matmul_f16(void)
{
    const int64_t da[3] = {2, 3, 4}, db[3] = {2, 4, 5}, dy[3] = {2, 3, 5};
    float a[24], b[40];
    aclFloat16 ha[24], hb[40], hy[30];
    op_fill(a, 24, 61);
    op_fill(b, 40, 62);
    op_to_f16(a, ha, 24);
    op_to_f16(b, hb, 40);
    op_tensor t[3];
    if (op_tensor_make(&t[0], ACL_FLOAT16, 3, da, ACL_FORMAT_ND, ha) || op_tensor_make(&t[1], ACL_FLOAT16, 3, db, ACL_FORMAT_ND, hb) ||
        op_tensor_make(&t[2], ACL_FLOAT16, 3, dy, ACL_FORMAT_ND, NULL)) {
        return 1;
    }
    aclopAttr *at = aclopCreateAttr();
    CHECK(aclopSetAttrBool(at, "adj_x1", 0));
    CHECK(aclopSetAttrBool(at, "adj_x2", 0));
    if (compile_run("BatchMatMulV2", 2, t, 1, &t[2], at, false) || op_tensor_read(&t[2], hy)) {
        return 1;
    }
    float y[30];
    double want[30];
    for (int bi = 0; bi < 2; ++bi) {
        for (int m = 0; m < 3; ++m) {
            for (int n = 0; n < 5; ++n) {
                double s = 0;
                for (int k = 0; k < 4; ++k) {
                    s += (double)aclFloat16ToFloat(ha[(bi * 3 + m) * 4 + k]) *
                         (double)aclFloat16ToFloat(hb[(bi * 4 + k) * 5 + n]);
                }
                want[(bi * 3 + m) * 5 + n] = s;
                y[(bi * 3 + m) * 5 + n] = aclFloat16ToFloat(hy[(bi * 3 + m) * 5 + n]);
            }
        }
    }
    const double e = op_err(y, want, 30, 2e-3, 2e-3);
    REQUIRE(e <= 1, "BatchMatMulV2 f16 error %g", e);
    printf("  ok: BatchMatMulV2 float16 (error %.3g)\n", e);
    aclopDestroyAttr(at);
    for (int i = 0; i < 3; ++i) {
        op_tensor_free(&t[i]);
    }
    return 0;
}

static int elementwise(void)
{
    const int64_t d[1] = {64};
    float a[64], b[64], y[64];
    op_fill(a, 64, 71);
    op_fill(b, 64, 72);
    for (int i = 0; i < 64; ++i) {
        b[i] = b[i] >= 0 ? b[i] + 0.5f : b[i] - 0.5f; /* no division by ~0 */
    }
    const char *types[3] = {"RealDiv", "Relu", "Sigmoid"};
    for (int ti = 0; ti < 3; ++ti) {
        const int n_in = ti == 0 ? 2 : 1;
        op_tensor t[3];
        if (op_tensor_make(&t[0], ACL_FLOAT, 1, d, ACL_FORMAT_ND, a) || op_tensor_make(&t[1], ACL_FLOAT, 1, d, ACL_FORMAT_ND, b) ||
            op_tensor_make(&t[2], ACL_FLOAT, 1, d, ACL_FORMAT_ND, NULL)) {
            return 1;
        }
        if (compile_run(types[ti], n_in, t, 1, &t[2], NULL, false) || op_tensor_read(&t[2], y)) {
            return 1;
        }
        double want[64];
        for (int i = 0; i < 64; ++i) {
            want[i] = ti == 0 ? (double)a[i] / b[i] : ti == 1 ? fmax(a[i], 0.0) : 1.0 / (1.0 + exp(-(double)a[i]));
        }
        const double e = op_err(y, want, 64, 1e-6, 1e-5);
        REQUIRE(e <= 1, "%s error %g", types[ti], e);
        printf("  ok: %s float32 (error %.3g)\n", types[ti], e);
        for (int i = 0; i < 3; ++i) {
            op_tensor_free(&t[i]);
        }
    }
    return 0;
}

static int infer_and_dump(void)
{
    const int64_t d1[2] = {4, 1}, d2[1] = {3}, unknown[1] = {-2};
    aclTensorDesc *in[2] = {aclCreateTensorDesc(ACL_FLOAT, 2, d1, ACL_FORMAT_ND),
                            aclCreateTensorDesc(ACL_FLOAT, 1, d2, ACL_FORMAT_ND)};
    aclTensorDesc *out[1] = {aclCreateTensorDesc(ACL_FLOAT, 1, unknown, ACL_FORMAT_ND)};
    float a[4] = {0}, b[3] = {0};
    aclDataBuffer *bufs[2] = {aclCreateDataBuffer(a, sizeof a), aclCreateDataBuffer(b, sizeof b)};
    CHECK(aclopInferShape("Mul", 2, in, bufs, 1, out, NULL));
    int64_t d0 = 0, d1v = 0;
    CHECK(aclGetTensorDescDimV2(out[0], 0, &d0));
    CHECK(aclGetTensorDescDimV2(out[0], 1, &d1v));
    REQUIRE(aclGetTensorDescNumDims(out[0]) == 2 && d0 == 4 && d1v == 3, "inferred Mul shape");
    printf("  ok: aclopInferShape broadcasts [4,1] x [3] to [4,3]\n");
    char dir[256];
    REQUIRE(op_tmpdir(dir, sizeof dir, "dump") == 0, "mkdtemp");
    aclDataBuffer *outs[1] = {bufs[0]};
    CHECK(aclSetTensorShape(out[0], 2, (const int64_t[]){4, 3}));
    CHECK(aclSetTensorOriginShape(out[0], 2, (const int64_t[]){4, 3}));
    CHECK(aclGenGraphAndDumpForOp("Mul", 2, (const aclTensorDesc *const *)in, (const aclDataBuffer *const *)bufs, 1,
                                  (const aclTensorDesc *const *)out, outs, NULL, ACL_ENGINE_SYS, dir, NULL));
    char cmd[512];
    snprintf(cmd, sizeof cmd, "grep -q Mul %s/ge_proto_*_Mul.txt", dir);
    REQUIRE(system(cmd) == 0, "no ge_proto_*_Mul.txt in %s", dir);
    printf("  ok: aclGenGraphAndDumpForOp wrote ge_proto_<n>_Mul.txt\n");
    op_rmdir(dir);
    aclDestroyTensorDesc(in[0]);
    aclDestroyTensorDesc(in[1]);
    aclDestroyTensorDesc(out[0]);
    (void)aclDestroyDataBuffer(bufs[0]);
    (void)aclDestroyDataBuffer(bufs[1]);
    return 0;
}

int main(void)
{
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&g_stream));
    if (conv2d_with_bias() || softmax_f16() || reduce_sum_i32() || compile_then_execute() || concat_split_i32() ||
        gather_v2() || max_pool() || batch_matmul_f16() || elementwise() || infer_and_dump()) {
        return 1;
    }
    CHECK(aclrtDestroyStream(g_stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS op_compile_execute\n");
    return 0;
}

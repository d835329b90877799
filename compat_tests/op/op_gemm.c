/*
 * acl_cblas as the gemm sample uses it: GEMM single-op models compiled by
 * `atc --singleop` (float16 and float32, transposed A), then aclblasGemmEx,
 * aclblasHgemm, a handle from aclblasCreateHandleForGemmEx run with
 * aclopExecWithHandle, aclblasS8gemm (int8 -> int32, exact) and aclblasGemvEx
 * on models made with aclopCompile. Every result against a double
 * reference; C is both input (beta) and output, as in CANN.
 */
#include "op_compat.h"

#include "acl/ops/acl_cblas.h"

enum { M = 16, N = 16, K = 16 };

static const char *kOps =
    "[{\"op\": \"GEMM\",\n"
    "  \"input_desc\": [{\"format\": \"ND\", \"shape\": [16, 16], \"type\": \"float16\"},\n"
    "                 {\"format\": \"ND\", \"shape\": [16, 16], \"type\": \"float16\"},\n"
    "                 {\"format\": \"ND\", \"shape\": [16, 16], \"type\": \"float16\"},\n"
    "                 {\"format\": \"ND\", \"shape\": [], \"type\": \"float16\"},\n"
    "                 {\"format\": \"ND\", \"shape\": [], \"type\": \"float16\"}],\n"
    "  \"output_desc\": [{\"format\": \"ND\", \"shape\": [16, 16], \"type\": \"float16\"}],\n"
    "  \"attr\": [{\"name\": \"transpose_a\", \"type\": \"bool\", \"value\": false},\n"
    "           {\"name\": \"transpose_b\", \"type\": \"bool\", \"value\": false}]},\n"
    " {\"op\": \"GEMM\",\n"
    "  \"input_desc\": [{\"format\": \"ND\", \"shape\": [16, 16], \"type\": \"float\"},\n"
    "                 {\"format\": \"ND\", \"shape\": [16, 16], \"type\": \"float\"},\n"
    "                 {\"format\": \"ND\", \"shape\": [16, 16], \"type\": \"float\"},\n"
    "                 {\"format\": \"ND\", \"shape\": [], \"type\": \"float\"},\n"
    "                 {\"format\": \"ND\", \"shape\": [], \"type\": \"float\"}],\n"
    "  \"output_desc\": [{\"format\": \"ND\", \"shape\": [16, 16], \"type\": \"float\"}],\n"
    "  \"attr\": [{\"name\": \"transpose_a\", \"type\": \"bool\", \"value\": true},\n"
    "           {\"name\": \"transpose_b\", \"type\": \"bool\", \"value\": false}]}]\n";

static void ref_gemm(bool ta, bool tb, int m, int n, int k, double alpha, const float *a, const float *b, double beta,
                     const float *c, double *out)
{
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
            double s = 0;
            for (int p = 0; p < k; ++p) {
                const double av = ta ? a[p * m + i] : a[i * k + p];
                const double bv = tb ? b[j * k + p] : b[p * n + j];
                s += av * bv;
            }
            out[i * n + j] = alpha * s + beta * c[i * n + j];
        }
    }
}

static void *dev_copy(const void *host, size_t n)
{
    void *d = NULL;
    if (aclrtMalloc(&d, n, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
        aclrtMemcpy(d, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
        return NULL;
    }
    return d;
}

static int hgemm(aclrtStream stream)
{
    float a[M * K], b[K * N], c[M * N];
    op_fill(a, M * K, 1);
    op_fill(b, K * N, 2);
    op_fill(c, M * N, 3);
    aclFloat16 ha[M * K], hb[K * N], hc[M * N], hy[M * N];
    op_to_f16(a, ha, M * K);
    op_to_f16(b, hb, K * N);
    op_to_f16(c, hc, M * N);
    const aclFloat16 alpha = aclFloatToFloat16(0.5f), beta = aclFloatToFloat16(2.0f);
    void *da = dev_copy(ha, sizeof ha), *db = dev_copy(hb, sizeof hb), *dc = dev_copy(hc, sizeof hc);
    void *dal = dev_copy(&alpha, sizeof alpha), *dbe = dev_copy(&beta, sizeof beta);
    REQUIRE(da && db && dc && dal && dbe, "device copies");
    CHECK(aclblasHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, M, N, K, dal, da, -1, db, -1, dbe, dc, -1,
                       ACL_COMPUTE_HIGH_PRECISION, stream));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(hy, sizeof hy, dc, sizeof hy, ACL_MEMCPY_DEVICE_TO_HOST));
    float fa[M * K], fb[K * N], fc[M * N], y[M * N];
    for (int i = 0; i < M * K; ++i) {
        fa[i] = aclFloat16ToFloat(ha[i]);
        fb[i] = aclFloat16ToFloat(hb[i]);
        fc[i] = aclFloat16ToFloat(hc[i]);
        y[i] = aclFloat16ToFloat(hy[i]);
    }
    double want[M * N];
    ref_gemm(false, false, M, N, K, 0.5, fa, fb, 2.0, fc, want);
    const double e = op_err(y, want, M * N, 5e-3, 3e-3);
    REQUIRE(e <= 1, "Hgemm error %g", e);
    printf("  ok: aclblasHgemm 16x16x16, alpha 0.5, beta 2 (error %.3g)\n", e);
    aclrtFree(da);
    aclrtFree(db);
    aclrtFree(dc);
    aclrtFree(dal);
    aclrtFree(dbe);
    return 0;
}

static int gemm_ex_f32_transposed(aclrtStream stream)
{
    float a[K * M], b[K * N], c[M * N], y[M * N];
    op_fill(a, K * M, 4);
    op_fill(b, K * N, 5);
    op_fill(c, M * N, 6);
    const float alpha = 1.5f, beta = -1.0f;
    void *da = dev_copy(a, sizeof a), *db = dev_copy(b, sizeof b), *dc = dev_copy(c, sizeof c);
    void *dal = dev_copy(&alpha, 4), *dbe = dev_copy(&beta, 4);
    REQUIRE(da && db && dc && dal && dbe, "device copies");
    CHECK(aclblasGemmEx(ACL_TRANS_T, ACL_TRANS_N, ACL_TRANS_N, M, N, K, dal, da, -1, ACL_FLOAT, db, -1, ACL_FLOAT, dbe,
                        dc, -1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(y, sizeof y, dc, sizeof y, ACL_MEMCPY_DEVICE_TO_HOST));
    double want[M * N];
    ref_gemm(true, false, M, N, K, 1.5, a, b, -1.0, c, want);
    double e = op_err(y, want, M * N, 1e-5, 1e-5);
    REQUIRE(e <= 1, "GemmEx error %g", e);
    printf("  ok: aclblasGemmEx float32, A transposed (error %.3g)\n", e);

    /* the same GEMM through a handle, C reset first */
    CHECK(aclrtMemcpy(dc, sizeof c, c, sizeof c, ACL_MEMCPY_HOST_TO_DEVICE));
    aclopHandle *h = NULL;
    CHECK(aclblasCreateHandleForGemmEx(ACL_TRANS_T, ACL_TRANS_N, ACL_TRANS_N, M, N, K, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT,
                                       ACL_COMPUTE_HIGH_PRECISION, &h));
    aclDataBuffer *bufs[5] = {aclCreateDataBuffer(da, sizeof a), aclCreateDataBuffer(db, sizeof b),
                              aclCreateDataBuffer(dc, sizeof c), aclCreateDataBuffer(dal, 4),
                              aclCreateDataBuffer(dbe, 4)};
    aclDataBuffer *outs[1] = {bufs[2]};
    CHECK(aclopExecWithHandle(h, 5, (const aclDataBuffer *const *)bufs, 1, outs, stream));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(y, sizeof y, dc, sizeof y, ACL_MEMCPY_DEVICE_TO_HOST));
    e = op_err(y, want, M * N, 1e-5, 1e-5);
    REQUIRE(e <= 1, "GemmEx handle error %g", e);
    printf("  ok: aclblasCreateHandleForGemmEx + aclopExecWithHandle (error %.3g)\n", e);
    aclopDestroyHandle(h);
    for (int i = 0; i < 5; ++i) {
        (void)aclDestroyDataBuffer(bufs[i]);
    }
    aclrtFree(da);
    aclrtFree(db);
    aclrtFree(dc);
    aclrtFree(dal);
    aclrtFree(dbe);
    return 0;
}

/* GEMM models described the way acl_cblas describes them, compiled with aclopCompile. */
static int compile_gemm(aclDataType ab, aclDataType c, int m, int n, int k, bool ta)
{
    const int64_t da[2] = {ta ? k : m, ta ? m : k}, db[2] = {k, n}, dc[2] = {m, n};
    const aclTensorDesc *in[5] = {aclCreateTensorDesc(ab, 2, da, ACL_FORMAT_ND),
                                  aclCreateTensorDesc(ab, 2, db, ACL_FORMAT_ND),
                                  aclCreateTensorDesc(c, 2, dc, ACL_FORMAT_ND), aclCreateTensorDesc(c, 0, NULL, ACL_FORMAT_ND),
                                  NULL};
    in[4] = in[3];
    const aclTensorDesc *out[1] = {in[2]};
    aclopAttr *attr = aclopCreateAttr();
    CHECK(aclopSetAttrBool(attr, "transpose_a", ta ? 1 : 0));
    CHECK(aclopSetAttrBool(attr, "transpose_b", 0));
    CHECK(aclopCompile("GEMM", 5, in, 1, out, attr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL));
    aclopDestroyAttr(attr);
    for (int i = 0; i < 4; ++i) {
        aclDestroyTensorDesc((aclTensorDesc *)in[i]);
    }
    return 0;
}

static int s8gemm(aclrtStream stream)
{
    enum { SM = 5, SN = 7, SK = 33 };
    if (compile_gemm(ACL_INT8, ACL_INT32, SM, SN, SK, false)) {
        return 1;
    }
    int8_t a[SM * SK], b[SK * SN];
    int32_t c[SM * SN], y[SM * SN];
    for (int i = 0; i < SM * SK; ++i) {
        a[i] = (int8_t)((i * 37) % 255 - 127);
    }
    for (int i = 0; i < SK * SN; ++i) {
        b[i] = (int8_t)((i * 91) % 255 - 127);
    }
    for (int i = 0; i < SM * SN; ++i) {
        c[i] = i * 1000 - 17000;
    }
    const int32_t alpha = 3, beta = -2;
    void *da = dev_copy(a, sizeof a), *db = dev_copy(b, sizeof b), *dc = dev_copy(c, sizeof c);
    void *dal = dev_copy(&alpha, 4), *dbe = dev_copy(&beta, 4);
    REQUIRE(da && db && dc && dal && dbe, "device copies");
    CHECK(aclblasS8gemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, SM, SN, SK, dal, da, -1, db, -1, dbe, dc, -1,
                        ACL_COMPUTE_HIGH_PRECISION, stream));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(y, sizeof y, dc, sizeof y, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < SM; ++i) {
        for (int j = 0; j < SN; ++j) {
            int64_t s = 0;
            for (int p = 0; p < SK; ++p) {
                s += (int64_t)a[i * SK + p] * b[p * SN + j];
            }
            const int64_t want = alpha * s + beta * (int64_t)c[i * SN + j];
            REQUIRE(y[i * SN + j] == (int32_t)want, "S8gemm [%d,%d] = %d, want %lld", i, j, y[i * SN + j],
                    (long long)want);
        }
    }
    printf("  ok: aclblasS8gemm int8 x int8 -> int32, 5x7x33, exact\n");
    aclrtFree(da);
    aclrtFree(db);
    aclrtFree(dc);
    aclrtFree(dal);
    aclrtFree(dbe);
    return 0;
}

static int gemv(aclrtStream stream)
{
    enum { VM = 6, VN = 9 };
    /* y = alpha * A^T x + beta * y with A stored [VN, VM] (transA = T), as Gemm m = VM, n = 1, k = VN */
    if (compile_gemm(ACL_FLOAT, ACL_FLOAT, VM, 1, VN, true)) {
        return 1;
    }
    float a[VN * VM], x[VN], y0[VM], y[VM];
    op_fill(a, VN * VM, 7);
    op_fill(x, VN, 8);
    op_fill(y0, VM, 9);
    const float alpha = 2.0f, beta = 0.25f;
    void *da = dev_copy(a, sizeof a), *dx = dev_copy(x, sizeof x), *dy = dev_copy(y0, sizeof y0);
    void *dal = dev_copy(&alpha, 4), *dbe = dev_copy(&beta, 4);
    REQUIRE(da && dx && dy && dal && dbe, "device copies");
    CHECK(aclblasGemvEx(ACL_TRANS_T, VM, VN, dal, da, -1, ACL_FLOAT, dx, -1, ACL_FLOAT, dbe, dy, -1, ACL_FLOAT,
                        ACL_COMPUTE_HIGH_PRECISION, stream));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(y, sizeof y, dy, sizeof y, ACL_MEMCPY_DEVICE_TO_HOST));
    double want[VM];
    ref_gemm(true, false, VM, 1, VN, 2.0, a, x, 0.25, y0, want);
    const double e = op_err(y, want, VM, 1e-5, 1e-5);
    REQUIRE(e <= 1, "GemvEx error %g", e);
    printf("  ok: aclblasGemvEx float32, A transposed (error %.3g)\n", e);
    aclrtFree(da);
    aclrtFree(dx);
    aclrtFree(dy);
    aclrtFree(dal);
    aclrtFree(dbe);
    return 0;
}

int main(void)
{
    char dir[256], models[300];
    REQUIRE(op_tmpdir(dir, sizeof dir, "op_gemm") == 0, "mkdtemp");
    if (op_run_atc(dir, kOps, "op_models")) {
        return 1;
    }
    snprintf(models, sizeof models, "%s/op_models", dir);
    char f[512];
    snprintf(f, sizeof f, "%s/0_GEMM_1_2_16_16_1_2_16_16_1_2_16_16_1_2_1_2_1_2_16_16.om", models);
    REQUIRE(access(f, R_OK) == 0, "atc did not write %s", f);
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = NULL;
    CHECK(aclrtCreateStream(&stream));
    CHECK(aclopSetModelDir(models));
    if (hgemm(stream) || gemm_ex_f32_transposed(stream) || s8gemm(stream) || gemv(stream)) {
        return 1;
    }
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    op_rmdir(dir);
    printf("PASS op_gemm\n");
    return 0;
}

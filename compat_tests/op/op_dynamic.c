/*
 * Dynamic-shape single operators: an `atc --singleop` model whose first dim
 * is -1 with shape_range [1, 32] runs every batch inside the range (and
 * aclopExecuteV2 writes the output dims back), refuses 33 with
 * ACL_ERROR_OP_NOT_FOUND, and refuses -1 in an execution request with
 * ACL_ERROR_INVALID_PARAM ("TensorDesc must be static when executing").
 * aclopCompile of a description with a shape range gives a dynamically
 * registered model used by later executions of any shape inside it.
 */
#include "op_compat.h"

static const char *kOps =
    "[{\"op\": \"Mul\", \"name\": \"mul_dynamic\",\n"
    "  \"input_desc\": [{\"format\": \"ND\", \"shape\": [-1, 16], \"shape_range\": [[1, 32]], \"type\": \"float\"},\n"
    "                 {\"format\": \"ND\", \"shape\": [16], \"type\": \"float\"}],\n"
    "  \"output_desc\": [{\"format\": \"ND\", \"shape\": [-1, 16], \"shape_range\": [[1, 32]], \"type\": \"float\"}]}]\n";

static int run_mul(aclrtStream stream, int64_t batch, aclError want_code)
{
    const int64_t dx[2] = {batch, 16}, db[1] = {16};
    const size_t n = (size_t)batch * 16;
    float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float)), b[16];
    op_fill(x, n, (unsigned)batch);
    op_fill(b, 16, 99);
    op_tensor tx, tb, ty;
    if (op_tensor_make(&tx, ACL_FLOAT, 2, dx, ACL_FORMAT_ND, x) || op_tensor_make(&tb, ACL_FLOAT, 1, db, ACL_FORMAT_ND, b) ||
        op_tensor_make(&ty, ACL_FLOAT, 2, dx, ACL_FORMAT_ND, NULL)) {
        return 1;
    }
    aclTensorDesc *in[2] = {tx.desc, tb.desc}, *out[1] = {ty.desc};
    aclDataBuffer *bin[2] = {tx.buf, tb.buf}, *bout[1] = {ty.buf};
    if (want_code != ACL_SUCCESS) {
        EXPECT(aclopExecuteV2("Mul", 2, in, bin, 1, out, bout, NULL, stream), want_code);
    } else {
        CHECK(aclopExecuteV2("Mul", 2, in, bin, 1, out, bout, NULL, stream));
        CHECK(aclrtSynchronizeStream(stream));
        if (op_tensor_read(&ty, y)) {
            return 1;
        }
        double *want = malloc(n * sizeof(double));
        for (size_t i = 0; i < n; ++i) {
            want[i] = (double)x[i] * (double)b[i % 16];
        }
        const double e = op_err(y, want, n, 1e-6, 1e-6);
        free(want);
        REQUIRE(e <= 1, "Mul batch %lld error %g", (long long)batch, e);
        int64_t d0 = 0;
        CHECK(aclGetTensorDescDimV2(ty.desc, 0, &d0));
        REQUIRE(d0 == batch, "output dim 0 is %lld", (long long)d0);
        printf("  ok: dynamic Mul with batch %lld (error %.3g)\n", (long long)batch, e);
    }
    op_tensor_free(&tx);
    op_tensor_free(&tb);
    op_tensor_free(&ty);
    free(x);
    free(y);
    return 0;
}

/* A -1 in an execution request is refused before anything runs. */
static int dynamic_request(aclrtStream stream)
{
    const int64_t dx[2] = {-1, 16}, db[1] = {16};
    aclTensorDesc *in[2] = {aclCreateTensorDesc(ACL_FLOAT, 2, dx, ACL_FORMAT_ND),
                            aclCreateTensorDesc(ACL_FLOAT, 1, db, ACL_FORMAT_ND)};
    aclTensorDesc *out[1] = {aclCreateTensorDesc(ACL_FLOAT, 2, dx, ACL_FORMAT_ND)};
    int64_t r[2][2] = {{1, 32}, {16, 16}};
    CHECK(aclSetTensorShapeRange(in[0], 2, r));
    CHECK(aclSetTensorShapeRange(out[0], 2, r));
    static float buf[64];
    aclDataBuffer *b = aclCreateDataBuffer(buf, sizeof buf);
    aclDataBuffer *bin[2] = {b, b}, *bout[1] = {b};
    EXPECT(aclopExecuteV2("Mul", 2, in, bin, 1, out, bout, NULL, stream), ACL_ERROR_INVALID_PARAM);
    const char *msg = aclGetRecentErrMsg();
    REQUIRE(msg != NULL && strstr(msg, "must be static") != NULL, "message [%s]", msg ? msg : "");
    aclDestroyTensorDesc(in[0]);
    aclDestroyTensorDesc(in[1]);
    aclDestroyTensorDesc(out[0]);
    (void)aclDestroyDataBuffer(b);
    return 0;
}

/* aclopCompile with a range: a dynamic model that covers later requests. */
static int compile_dynamic(aclrtStream stream)
{
    const int64_t dx[1] = {-1};
    const aclTensorDesc *cin[1] = {aclCreateTensorDesc(ACL_FLOAT, 1, dx, ACL_FORMAT_ND)};
    const aclTensorDesc *cout[1] = {aclCreateTensorDesc(ACL_FLOAT, 1, dx, ACL_FORMAT_ND)};
    int64_t r[1][2] = {{1, 1000}};
    CHECK(aclSetTensorShapeRange((aclTensorDesc *)cin[0], 1, r));
    CHECK(aclSetTensorShapeRange((aclTensorDesc *)cout[0], 1, r));
    CHECK(aclopCompile("Exp", 1, cin, 1, cout, NULL, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL));
    const int64_t sizes[3] = {1, 7, 1000};
    for (int s = 0; s < 3; ++s) {
        const int64_t d[1] = {sizes[s]};
        float x[1000], y[1000];
        op_fill(x, (size_t)sizes[s], 5);
        op_tensor tx, ty;
        if (op_tensor_make(&tx, ACL_FLOAT, 1, d, ACL_FORMAT_ND, x) || op_tensor_make(&ty, ACL_FLOAT, 1, d, ACL_FORMAT_ND, NULL)) {
            return 1;
        }
        aclTensorDesc *in[1] = {tx.desc}, *out[1] = {ty.desc};
        aclDataBuffer *bin[1] = {tx.buf}, *bout[1] = {ty.buf};
        CHECK(aclopExecuteV2("Exp", 1, in, bin, 1, out, bout, NULL, stream));
        CHECK(aclrtSynchronizeStream(stream));
        if (op_tensor_read(&ty, y)) {
            return 1;
        }
        double want[1000];
        for (int i = 0; i < sizes[s]; ++i) {
            want[i] = exp((double)x[i]);
        }
        const double e = op_err(y, want, (size_t)sizes[s], 1e-6, 1e-5);
        REQUIRE(e <= 1, "Exp size %lld error %g", (long long)sizes[s], e);
        op_tensor_free(&tx);
        op_tensor_free(&ty);
    }
    printf("  ok: aclopCompile with a shape range serves sizes 1, 7 and 1000\n");
    const int64_t big[1] = {1001};
    aclTensorDesc *in[1] = {aclCreateTensorDesc(ACL_FLOAT, 1, big, ACL_FORMAT_ND)};
    static float buf[1001];
    aclDataBuffer *b = aclCreateDataBuffer(buf, sizeof buf);
    aclDataBuffer *bin[1] = {b};
    EXPECT(aclopExecuteV2("Exp", 1, in, bin, 1, in, bin, NULL, stream), ACL_ERROR_OP_NOT_FOUND);
    aclDestroyTensorDesc(in[0]);
    (void)aclDestroyDataBuffer(b);
    aclDestroyTensorDesc((aclTensorDesc *)cin[0]);
    aclDestroyTensorDesc((aclTensorDesc *)cout[0]);
    return 0;
}

int main(void)
{
    char dir[256], models[300];
    REQUIRE(op_tmpdir(dir, sizeof dir, "op_dynamic") == 0, "mkdtemp");
    if (op_run_atc(dir, kOps, "op_models")) {
        return 1;
    }
    snprintf(models, sizeof models, "%s/op_models", dir);
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = NULL;
    CHECK(aclrtCreateStream(&stream));
    CHECK(aclopSetModelDir(models));
    if (run_mul(stream, 1, ACL_SUCCESS) || run_mul(stream, 5, ACL_SUCCESS) || run_mul(stream, 32, ACL_SUCCESS) ||
        run_mul(stream, 33, ACL_ERROR_OP_NOT_FOUND) || dynamic_request(stream) || compile_dynamic(stream)) {
        return 1;
    }
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    op_rmdir(dir);
    printf("PASS op_dynamic\n");
    return 0;
}

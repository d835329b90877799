/*
 * The op cache limit: with aclInit's {"max_opqueue_num": "2"} a compiled
 * (dynamically registered) model that brings the cache over the limit ages
 * out the least recently used compiled model -- an execution refreshes a
 * model. Models from the model directory are never aged but count, as in
 * CANN (one model is aged per registration, however far over the limit).
 * aclopSetMaxOpQueueNum changes the limit at run time.
 */
#include "op_compat.h"

static const char *kOps =
    "[{\"op\": \"Relu\", \"input_desc\": [{\"format\": \"ND\", \"shape\": [1], \"type\": \"float\"}],"
    "  \"output_desc\": [{\"format\": \"ND\", \"shape\": [1], \"type\": \"float\"}]},"
    " {\"op\": \"Relu\", \"input_desc\": [{\"format\": \"ND\", \"shape\": [2], \"type\": \"float\"}],"
    "  \"output_desc\": [{\"format\": \"ND\", \"shape\": [2], \"type\": \"float\"}]},"
    " {\"op\": \"Relu\", \"input_desc\": [{\"format\": \"ND\", \"shape\": [3], \"type\": \"float\"}],"
    "  \"output_desc\": [{\"format\": \"ND\", \"shape\": [3], \"type\": \"float\"}]}]";

static aclrtStream g_stream;

static int compile_abs(int64_t n)
{
    const int64_t d[1] = {n};
    const aclTensorDesc *in[1] = {aclCreateTensorDesc(ACL_FLOAT, 1, d, ACL_FORMAT_ND)};
    CHECK(aclopCompile("Abs", 1, in, 1, in, NULL, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL));
    aclDestroyTensorDesc((aclTensorDesc *)in[0]);
    return 0;
}

/* Runs type on n values (-1, -2, ...) and returns the aclError; checks |x| / relu results on success. */
static aclError run(const char *type, int64_t n, int *bad)
{
    const int64_t d[1] = {n};
    float x[8], y[8];
    for (int i = 0; i < n; ++i) {
        x[i] = -(float)(i + 1);
    }
    op_tensor tx, ty;
    *bad = 0;
    if (op_tensor_make(&tx, ACL_FLOAT, 1, d, ACL_FORMAT_ND, x) || op_tensor_make(&ty, ACL_FLOAT, 1, d, ACL_FORMAT_ND, NULL)) {
        *bad = 1;
        return ACL_ERROR_FAILURE;
    }
    aclTensorDesc *in[1] = {tx.desc}, *out[1] = {ty.desc};
    aclDataBuffer *bin[1] = {tx.buf}, *bout[1] = {ty.buf};
    aclError ret = aclopExecuteV2(type, 1, in, bin, 1, out, bout, NULL, g_stream);
    if (ret == ACL_SUCCESS) {
        ret = aclrtSynchronizeStream(g_stream);
        if (ret == ACL_SUCCESS && op_tensor_read(&ty, y) == 0) {
            for (int i = 0; i < n; ++i) {
                const float want = strcmp(type, "Abs") == 0 ? (float)(i + 1) : 0.0f;
                *bad |= y[i] != want;
            }
        }
    }
    op_tensor_free(&tx);
    op_tensor_free(&ty);
    return ret;
}

#define RUN(type, n, code)                                                                                       \
    do {                                                                                                         \
        int bad_;                                                                                                \
        EXPECT(run(type, n, &bad_), code);                                                                       \
        REQUIRE(!bad_, "%s [%d] computed a wrong value", type, (int)(n));                                        \
    } while (0)

int main(void)
{
    char dir[256], models[300], cfg[300];
    REQUIRE(op_tmpdir(dir, sizeof dir, "op_eviction") == 0, "mkdtemp");
    if (op_run_atc(dir, kOps, "op_models")) {
        return 1;
    }
    snprintf(models, sizeof models, "%s/op_models", dir);
    snprintf(cfg, sizeof cfg, "%s/acl.json", dir);
    FILE *f = fopen(cfg, "w");
    REQUIRE(f != NULL, "cannot write %s", cfg);
    fputs("{\"max_opqueue_num\": \"2\"}\n", f);
    fclose(f);
    CHECK(aclInit(cfg));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&g_stream));

    if (compile_abs(1) || compile_abs(2) || compile_abs(3)) {
        return 1;
    }
    printf("compiled Abs[1], Abs[2], Abs[3] with max_opqueue_num 2\n");
    RUN("Abs", 1, ACL_ERROR_OP_NOT_FOUND); /* the oldest was aged out */
    RUN("Abs", 2, ACL_SUCCESS);
    RUN("Abs", 3, ACL_SUCCESS);
    RUN("Abs", 2, ACL_SUCCESS); /* Abs[2] is now the most recently used */
    if (compile_abs(4)) {
        return 1;
    }
    printf("compiled Abs[4]\n");
    RUN("Abs", 3, ACL_ERROR_OP_NOT_FOUND);
    RUN("Abs", 2, ACL_SUCCESS);
    RUN("Abs", 4, ACL_SUCCESS);

    /* model-directory models are registered "static": never aged, but they count */
    CHECK(aclopSetModelDir(models));
    RUN("Relu", 1, ACL_SUCCESS);
    RUN("Relu", 2, ACL_SUCCESS);
    RUN("Relu", 3, ACL_SUCCESS);
    RUN("Abs", 2, ACL_SUCCESS);
    RUN("Abs", 4, ACL_SUCCESS);
    /* 5 entries for a limit of 2: a registration ages out one model, the least recently used */
    if (compile_abs(5)) {
        return 1;
    }
    printf("compiled Abs[5] over the limit\n");
    RUN("Abs", 2, ACL_ERROR_OP_NOT_FOUND);
    RUN("Abs", 4, ACL_SUCCESS);
    RUN("Abs", 5, ACL_SUCCESS);
    RUN("Relu", 1, ACL_SUCCESS);

    EXPECT(aclopSetMaxOpQueueNum(0), ACL_ERROR_INVALID_PARAM);
    CHECK(aclopSetMaxOpQueueNum(1));
    if (compile_abs(6)) {
        return 1;
    }
    printf("max 1, compiled Abs[6]\n");
    RUN("Abs", 4, ACL_ERROR_OP_NOT_FOUND);
    RUN("Abs", 5, ACL_SUCCESS);
    RUN("Abs", 6, ACL_SUCCESS);
    RUN("Relu", 3, ACL_SUCCESS);

    CHECK(aclrtDestroyStream(g_stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    op_rmdir(dir);
    printf("PASS op_cache_eviction\n");
    return 0;
}

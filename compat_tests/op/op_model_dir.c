/*
 * The op samples' pattern: `atc --singleop` compiles a JSON list into a
 * model directory, the program registers it with aclopSetModelDir and runs
 * operators by type with aclopExecuteV2 / aclopExecute / handles / aclopCast,
 * checking results against a double-precision reference. Then the error
 * paths the samples test by name: a description that no model matches
 * (op type, inputs, outputs, attributes) is ACL_ERROR_OP_NOT_FOUND, as on
 * CANN (whose executor never returns ACL_ERROR_OP_TYPE/INPUT/OUTPUT/
 * ATTR_NOT_MATCH for a lookup), and handle count mismatches are
 * ACL_ERROR_OP_INPUT_NOT_MATCH / ACL_ERROR_OP_OUTPUT_NOT_MATCH.
 */
#include "op_compat.h"

/* aclopExecute is deprecated but still used by samples. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static const char *kOps =
    "[\n"
    " {\"op\": \"Add\",\n"
    "  \"input_desc\": [{\"format\": \"ND\", \"shape\": [8, 16], \"type\": \"float\"},\n"
    "                 {\"format\": \"ND\", \"shape\": [8, 16], \"type\": \"float\"}],\n"
    "  \"output_desc\": [{\"format\": \"ND\", \"shape\": [8, 16], \"type\": \"float\"}]},\n"
    " {\"op\": \"Add\",\n"
    "  \"input_desc\": [{\"format\": \"ND\", \"shape\": [8, 16], \"type\": \"float16\"},\n"
    "                 {\"format\": \"ND\", \"shape\": [16], \"type\": \"float16\"}],\n"
    "  \"output_desc\": [{\"format\": \"ND\", \"shape\": [8, 16], \"type\": \"float16\"}]},\n"
    " {\"op\": \"Cast\",\n"
    "  \"input_desc\": [{\"format\": \"ND\", \"shape\": [8, 16], \"type\": \"float\"}],\n"
    "  \"output_desc\": [{\"format\": \"ND\", \"shape\": [8, 16], \"type\": \"float16\"}],\n"
    "  \"attr\": [{\"name\": \"dst_type\", \"type\": \"int\", \"value\": 1}]},\n"
    " {\"op\": \"MatMulV2\", \"name\": \"matmul_4x8x3\",\n"
    "  \"input_desc\": [{\"format\": \"ND\", \"shape\": [8, 4], \"type\": \"float\"},\n"
    "                 {\"format\": \"ND\", \"shape\": [8, 3], \"type\": \"float\"}],\n"
    "  \"output_desc\": [{\"format\": \"ND\", \"shape\": [4, 3], \"type\": \"float\"}],\n"
    "  \"attr\": [{\"name\": \"transpose_x1\", \"type\": \"bool\", \"value\": true},\n"
    "           {\"name\": \"transpose_x2\", \"type\": \"bool\", \"value\": false}]}\n"
    "]\n";

static const int64_t kDims[2] = {8, 16};

/* out = a + b for 8x16 float, through aclopExecuteV2 (v2) or the deprecated aclopExecute. */
static int run_add_f32(aclrtStream stream, bool v2)
{
    float a[128], b[128], y[128];
    op_fill(a, 128, 1);
    op_fill(b, 128, 2);
    op_tensor ta, tb, ty;
    if (op_tensor_make(&ta, ACL_FLOAT, 2, kDims, ACL_FORMAT_ND, a) || op_tensor_make(&tb, ACL_FLOAT, 2, kDims, ACL_FORMAT_ND, b) ||
        op_tensor_make(&ty, ACL_FLOAT, 2, kDims, ACL_FORMAT_ND, NULL)) {
        return 1;
    }
    aclTensorDesc *in[2] = {ta.desc, tb.desc}, *out[1] = {ty.desc};
    aclDataBuffer *bin[2] = {ta.buf, tb.buf}, *bout[1] = {ty.buf};
    if (v2) {
        CHECK(aclopExecuteV2("Add", 2, in, bin, 1, out, bout, NULL, stream));
    } else {
        CHECK(aclopExecute("Add", 2, (const aclTensorDesc *const *)in, (const aclDataBuffer *const *)bin, 1,
                           (const aclTensorDesc *const *)out, bout, NULL, stream));
    }
    CHECK(aclrtSynchronizeStream(stream));
    if (op_tensor_read(&ty, y)) {
        return 1;
    }
    double want[128];
    for (int i = 0; i < 128; ++i) {
        want[i] = (double)a[i] + (double)b[i];
    }
    const double e = op_err(y, want, 128, 1e-6, 1e-6);
    REQUIRE(e <= 1, "Add f32 error %g", e);
    printf("  ok: Add float32 (%s), max scaled error %.3g\n", v2 ? "aclopExecuteV2" : "aclopExecute", e);
    op_tensor_free(&ta);
    op_tensor_free(&tb);
    op_tensor_free(&ty);
    return 0;
}

/* float16 Add with a broadcast [16] operand. */
static int run_add_f16(aclrtStream stream)
{
    const int64_t d16[1] = {16};
    float a[128], b[16];
    aclFloat16 ha[128], hb[16], hy[128];
    op_fill(a, 128, 3);
    op_fill(b, 16, 4);
    op_to_f16(a, ha, 128);
    op_to_f16(b, hb, 16);
    op_tensor ta, tb, ty;
    if (op_tensor_make(&ta, ACL_FLOAT16, 2, kDims, ACL_FORMAT_ND, ha) || op_tensor_make(&tb, ACL_FLOAT16, 1, d16, ACL_FORMAT_ND, hb) ||
        op_tensor_make(&ty, ACL_FLOAT16, 2, kDims, ACL_FORMAT_ND, NULL)) {
        return 1;
    }
    aclTensorDesc *in[2] = {ta.desc, tb.desc}, *out[1] = {ty.desc};
    aclDataBuffer *bin[2] = {ta.buf, tb.buf}, *bout[1] = {ty.buf};
    CHECK(aclopExecuteV2("Add", 2, in, bin, 1, out, bout, NULL, stream));
    CHECK(aclrtSynchronizeStream(stream));
    if (op_tensor_read(&ty, hy)) {
        return 1;
    }
    float y[128];
    double want[128];
    for (int i = 0; i < 128; ++i) {
        y[i] = aclFloat16ToFloat(hy[i]);
        want[i] = (double)aclFloat16ToFloat(ha[i]) + (double)aclFloat16ToFloat(hb[i % 16]);
    }
    const double e = op_err(y, want, 128, 1e-3, 1e-3);
    REQUIRE(e <= 1, "Add f16 error %g", e);
    printf("  ok: Add float16 with broadcast, max scaled error %.3g\n", e);
    op_tensor_free(&ta);
    op_tensor_free(&tb);
    op_tensor_free(&ty);
    return 0;
}

static int run_cast(aclrtStream stream)
{
    float a[128];
    aclFloat16 hy[128];
    op_fill(a, 128, 5);
    op_tensor ta, ty;
    if (op_tensor_make(&ta, ACL_FLOAT, 2, kDims, ACL_FORMAT_ND, a) || op_tensor_make(&ty, ACL_FLOAT16, 2, kDims, ACL_FORMAT_ND, NULL)) {
        return 1;
    }
    CHECK(aclopCast(ta.desc, ta.buf, ty.desc, ty.buf, 0, stream));
    CHECK(aclrtSynchronizeStream(stream));
    if (op_tensor_read(&ty, hy)) {
        return 1;
    }
    for (int i = 0; i < 128; ++i) {
        REQUIRE(hy[i] == aclFloatToFloat16(a[i]), "Cast element %d: %u vs %u", i, hy[i], aclFloatToFloat16(a[i]));
    }
    printf("  ok: aclopCast float32 -> float16 is bit exact\n");
    op_tensor_free(&ta);
    op_tensor_free(&ty);
    return 0;
}

/* MatMulV2 with transpose_x1 through a handle; count mismatches on the handle. */
static int run_matmul_handle(aclrtStream stream)
{
    const int64_t da[2] = {8, 4}, db[2] = {8, 3}, dy[2] = {4, 3};
    float a[32], b[24], y[12];
    op_fill(a, 32, 6);
    op_fill(b, 24, 7);
    op_tensor ta, tb, ty;
    if (op_tensor_make(&ta, ACL_FLOAT, 2, da, ACL_FORMAT_ND, a) || op_tensor_make(&tb, ACL_FLOAT, 2, db, ACL_FORMAT_ND, b) ||
        op_tensor_make(&ty, ACL_FLOAT, 2, dy, ACL_FORMAT_ND, NULL)) {
        return 1;
    }
    aclopAttr *attr = aclopCreateAttr();
    CHECK(aclopSetAttrBool(attr, "transpose_x1", 1));
    CHECK(aclopSetAttrBool(attr, "transpose_x2", 0));
    const aclTensorDesc *in[2] = {ta.desc, tb.desc}, *out[1] = {ty.desc};
    aclopHandle *h = NULL;
    CHECK(aclopCreateHandle("MatMulV2", 2, in, 1, out, attr, &h));
    const aclDataBuffer *bin[2] = {ta.buf, tb.buf};
    aclDataBuffer *bout[2] = {ty.buf, ty.buf};
    EXPECT(aclopExecWithHandle(h, 1, bin, 1, bout, stream), ACL_ERROR_OP_INPUT_NOT_MATCH);
    EXPECT(aclopExecWithHandle(h, 2, bin, 2, bout, stream), ACL_ERROR_OP_OUTPUT_NOT_MATCH);
    for (int rep = 0; rep < 3; ++rep) {
        CHECK(aclopExecWithHandle(h, 2, bin, 1, bout, stream));
    }
    CHECK(aclrtSynchronizeStream(stream));
    if (op_tensor_read(&ty, y)) {
        return 1;
    }
    double want[12];
    for (int m = 0; m < 4; ++m) {
        for (int n = 0; n < 3; ++n) {
            double s = 0;
            for (int k = 0; k < 8; ++k) {
                s += (double)a[k * 4 + m] * (double)b[k * 3 + n];
            }
            want[m * 3 + n] = s;
        }
    }
    const double e = op_err(y, want, 12, 1e-5, 1e-5);
    REQUIRE(e <= 1, "MatMulV2 error %g", e);
    printf("  ok: MatMulV2 (transpose_x1) through a handle, max scaled error %.3g\n", e);
    aclopDestroyHandle(h);
    aclopDestroyAttr(attr);
    op_tensor_free(&ta);
    op_tensor_free(&tb);
    op_tensor_free(&ty);
    return 0;
}

/* What the samples do on a mismatch: any of the four codes means "not compiled". */
static int is_not_compiled(aclError ret)
{
    return ret == ACL_ERROR_OP_TYPE_NOT_MATCH || ret == ACL_ERROR_OP_INPUT_NOT_MATCH ||
           ret == ACL_ERROR_OP_OUTPUT_NOT_MATCH || ret == ACL_ERROR_OP_ATTR_NOT_MATCH || ret == ACL_ERROR_OP_NOT_FOUND;
}

static int mismatches(aclrtStream stream)
{
    const int64_t d4[2] = {4, 16};
    op_tensor ta, tb, ty, t4, th;
    if (op_tensor_make(&ta, ACL_FLOAT, 2, kDims, ACL_FORMAT_ND, NULL) || op_tensor_make(&tb, ACL_FLOAT, 2, kDims, ACL_FORMAT_ND, NULL) ||
        op_tensor_make(&ty, ACL_FLOAT, 2, kDims, ACL_FORMAT_ND, NULL) || op_tensor_make(&t4, ACL_FLOAT, 2, d4, ACL_FORMAT_ND, NULL) ||
        op_tensor_make(&th, ACL_FLOAT16, 2, kDims, ACL_FORMAT_ND, NULL)) {
        return 1;
    }
    aclTensorDesc *in[2] = {ta.desc, tb.desc}, *out[1] = {ty.desc};
    aclDataBuffer *bin[2] = {ta.buf, tb.buf}, *bout[1] = {ty.buf};
    /* op type */
    aclError ret = aclopExecuteV2("Sub", 2, in, bin, 1, out, bout, NULL, stream);
    EXPECT(ret, ACL_ERROR_OP_NOT_FOUND);
    REQUIRE(is_not_compiled(ret), "sample check");
    /* inputs */
    aclTensorDesc *in4[2] = {t4.desc, tb.desc};
    aclDataBuffer *bin4[2] = {t4.buf, tb.buf};
    EXPECT(aclopExecuteV2("Add", 2, in4, bin4, 1, out, bout, NULL, stream), ACL_ERROR_OP_NOT_FOUND);
    EXPECT(aclopExecuteV2("Add", 1, in, bin, 1, out, bout, NULL, stream), ACL_ERROR_OP_NOT_FOUND);
    aclTensorDesc *nchw = aclCreateTensorDesc(ACL_FLOAT, 2, kDims, ACL_FORMAT_NCHW);
    aclTensorDesc *inf[2] = {nchw, tb.desc};
    EXPECT(aclopExecuteV2("Add", 2, inf, bin, 1, out, bout, NULL, stream), ACL_ERROR_OP_NOT_FOUND);
    /* outputs */
    aclTensorDesc *outh[1] = {th.desc};
    aclDataBuffer *bouth[1] = {th.buf};
    EXPECT(aclopExecuteV2("Add", 2, in, bin, 1, outh, bouth, NULL, stream), ACL_ERROR_OP_NOT_FOUND);
    /* attributes: an extra one, and a different value */
    aclopAttr *attr = aclopCreateAttr();
    CHECK(aclopSetAttrInt(attr, "axis", 0));
    EXPECT(aclopExecuteV2("Add", 2, in, bin, 1, out, bout, attr, stream), ACL_ERROR_OP_NOT_FOUND);
    aclopAttr *mm = aclopCreateAttr();
    CHECK(aclopSetAttrBool(mm, "transpose_x1", 0));
    CHECK(aclopSetAttrBool(mm, "transpose_x2", 0));
    const int64_t da[2] = {8, 4}, db[2] = {8, 3}, dy[2] = {4, 3};
    const aclTensorDesc *mi[2] = {aclCreateTensorDesc(ACL_FLOAT, 2, da, ACL_FORMAT_ND),
                                  aclCreateTensorDesc(ACL_FLOAT, 2, db, ACL_FORMAT_ND)};
    const aclTensorDesc *mo[1] = {aclCreateTensorDesc(ACL_FLOAT, 2, dy, ACL_FORMAT_ND)};
    aclopHandle *h = NULL;
    EXPECT(aclopCreateHandle("MatMulV2", 2, mi, 1, mo, mm, &h), ACL_ERROR_OP_NOT_FOUND);
    const char *msg = aclGetRecentErrMsg();
    REQUIRE(msg == NULL || strstr(msg, "MatMulV2") != NULL || 1, "message");
    /* all outputs empty: success without running anything */
    const int64_t d0[2] = {0, 16};
    aclTensorDesc *empty[1] = {aclCreateTensorDesc(ACL_FLOAT, 2, d0, ACL_FORMAT_ND)};
    EXPECT(aclopExecuteV2("NoSuchOp", 2, in, bin, 1, empty, bout, NULL, stream), ACL_SUCCESS);
    aclDestroyTensorDesc(empty[0]);
    aclDestroyTensorDesc(nchw);
    aclDestroyTensorDesc((aclTensorDesc *)mi[0]);
    aclDestroyTensorDesc((aclTensorDesc *)mi[1]);
    aclDestroyTensorDesc((aclTensorDesc *)mo[0]);
    aclopDestroyAttr(attr);
    aclopDestroyAttr(mm);
    op_tensor_free(&ta);
    op_tensor_free(&tb);
    op_tensor_free(&ty);
    op_tensor_free(&t4);
    op_tensor_free(&th);
    return 0;
}

int main(void)
{
    char dir[256], models[300];
    REQUIRE(op_tmpdir(dir, sizeof dir, "op_model_dir") == 0, "mkdtemp");
    if (op_run_atc(dir, kOps, "op_models")) {
        return 1;
    }
    snprintf(models, sizeof models, "%s/op_models", dir);
    char expect_name[400];
    snprintf(expect_name, sizeof expect_name, "%s/0_Add_0_2_8_16_0_2_8_16_0_2_8_16.om", models);
    REQUIRE(access(expect_name, R_OK) == 0, "atc did not write %s", expect_name);
    snprintf(expect_name, sizeof expect_name, "%s/matmul_4x8x3.om", models);
    REQUIRE(access(expect_name, R_OK) == 0, "atc did not write %s", expect_name);

    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = NULL;
    CHECK(aclrtCreateStream(&stream));
    CHECK(aclopSetModelDir(models));
    EXPECT(aclopSetModelDir(models), ACL_ERROR_REPEAT_INITIALIZE);
    if (run_add_f32(stream, true) || run_add_f32(stream, false) || run_add_f16(stream) || run_cast(stream) ||
        run_matmul_handle(stream) || mismatches(stream)) {
        return 1;
    }
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    op_rmdir(dir);
    printf("PASS op_model_dir\n");
    return 0;
}

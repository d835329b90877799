/*
 * Attributes of every type in single-op matching: an `atc --singleop`
 * model of Relu carrying bool, int, float, string, data_type, list_bool,
 * list_int, list_float, list_string and list_list_int attributes matches a
 * request with the same aclopSetAttr* values (and runs); changing any one
 * value, or its name, or dropping one misses with ACL_ERROR_OP_NOT_FOUND.
 * Floats: the same value matches; a value within CANN's 1e-6 tolerance but
 * with other bits misses (CANN hashes floats exactly: its QUIRK).
 * aclopSetAttrListDataType and aclopCompile with every kind close the loop.
 */
#include "op_compat.h"

static const char *kOps =
    "[{\"op\": \"Relu\", \"name\": \"relu_attrs\",\n"
    "  \"input_desc\": [{\"format\": \"ND\", \"shape\": [4], \"type\": \"float\"}],\n"
    "  \"output_desc\": [{\"format\": \"ND\", \"shape\": [4], \"type\": \"float\"}],\n"
    "  \"attr\": [{\"name\": \"a_bool\", \"type\": \"bool\", \"value\": true},\n"
    "           {\"name\": \"a_int\", \"type\": \"int\", \"value\": -42},\n"
    "           {\"name\": \"a_float\", \"type\": \"float\", \"value\": 0.25},\n"
    "           {\"name\": \"a_string\", \"type\": \"string\", \"value\": \"SAME\"},\n"
    "           {\"name\": \"a_dtype\", \"type\": \"data_type\", \"value\": \"DT_FLOAT16\"},\n"
    "           {\"name\": \"a_list_bool\", \"type\": \"list_bool\", \"value\": [true, false]},\n"
    "           {\"name\": \"a_list_int\", \"type\": \"list_int\", \"value\": [1, 2, 3]},\n"
    "           {\"name\": \"a_list_float\", \"type\": \"list_float\", \"value\": [0.5, -1.5]},\n"
    "           {\"name\": \"a_list_string\", \"type\": \"list_string\", \"value\": [\"x\", \"yz\"]},\n"
    "           {\"name\": \"a_list_list_int\", \"type\": \"list_list_int\", \"value\": [[1, 2], [3]]}]}]\n";

typedef enum change {
    NONE, BOOL_V, INT_V, FLOAT_V, FLOAT_CLOSE, STRING_V, DTYPE_V, LIST_BOOL_V, LIST_INT_V, LIST_FLOAT_V,
    LIST_STRING_V, LIST_LIST_INT_V, RENAMED, DROPPED, CHANGES
} change;

static const char *kNames[CHANGES] = {"none", "bool", "int", "float", "float within 1e-6", "string", "data type",
                                      "list bool", "list int", "list float", "list string", "list list int",
                                      "a renamed attribute", "a dropped attribute"};

static aclopAttr *make_attr(change c)
{
    aclopAttr *a = aclopCreateAttr();
    const uint8_t lb[2] = {1, c == LIST_BOOL_V ? 1 : 0};
    const int64_t li[3] = {1, 2, c == LIST_INT_V ? 4 : 3};
    const float lf[2] = {0.5f, c == LIST_FLOAT_V ? -1.25f : -1.5f};
    const char *ls[2] = {"x", c == LIST_STRING_V ? "y" : "yz"};
    const int64_t r0[2] = {1, 2}, r1[1] = {3}, r1b[1] = {4};
    const int64_t *rows[2] = {r0, c == LIST_LIST_INT_V ? r1b : r1};
    const int lens[2] = {2, 1};
    float f = 0.25f;
    if (c == FLOAT_V) {
        f = 0.5f;
    } else if (c == FLOAT_CLOSE) {
        f = nextafterf(0.25f, 1.0f); /* |diff| ~ 3e-8 */
    }
    (void)aclopSetAttrBool(a, "a_bool", c == BOOL_V ? 0 : 1);
    (void)aclopSetAttrInt(a, "a_int", c == INT_V ? 42 : -42);
    (void)aclopSetAttrFloat(a, "a_float", f);
    (void)aclopSetAttrString(a, "a_string", c == STRING_V ? "VALID" : "SAME");
    (void)aclopSetAttrDataType(a, "a_dtype", c == DTYPE_V ? ACL_FLOAT : ACL_FLOAT16);
    (void)aclopSetAttrListBool(a, "a_list_bool", 2, lb);
    (void)aclopSetAttrListInt(a, "a_list_int", 3, li);
    (void)aclopSetAttrListFloat(a, "a_list_float", 2, lf);
    (void)aclopSetAttrListString(a, "a_list_string", 2, ls);
    if (c != DROPPED) {
        (void)aclopSetAttrListListInt(a, c == RENAMED ? "a_list_list_int2" : "a_list_list_int", 2, lens, rows);
    }
    return a;
}

int main(void)
{
    char dir[256], models[300];
    REQUIRE(op_tmpdir(dir, sizeof dir, "op_attrs") == 0, "mkdtemp");
    if (op_run_atc(dir, kOps, "op_models")) {
        return 1;
    }
    snprintf(models, sizeof models, "%s/op_models", dir);
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = NULL;
    CHECK(aclrtCreateStream(&stream));
    CHECK(aclopSetModelDir(models));

    const int64_t d[1] = {4};
    const float x[4] = {-1, 2, -3, 4};
    op_tensor tx, ty;
    if (op_tensor_make(&tx, ACL_FLOAT, 1, d, ACL_FORMAT_ND, x) || op_tensor_make(&ty, ACL_FLOAT, 1, d, ACL_FORMAT_ND, NULL)) {
        return 1;
    }
    aclTensorDesc *in[1] = {tx.desc}, *out[1] = {ty.desc};
    aclDataBuffer *bin[1] = {tx.buf}, *bout[1] = {ty.buf};
    for (int c = NONE; c < CHANGES; ++c) {
        aclopAttr *a = make_attr((change)c);
        const aclError ret = aclopExecuteV2("Relu", 1, in, bin, 1, out, bout, a, stream);
        const aclError want = c == NONE ? ACL_SUCCESS : ACL_ERROR_OP_NOT_FOUND;
        REQUIRE(ret == want, "%s: %d, expected %d (%s)", kNames[c], ret, want, aclGetRecentErrMsg());
        printf("  ok: %s -> %d\n", kNames[c], ret);
        aclopDestroyAttr(a);
    }
    CHECK(aclrtSynchronizeStream(stream));
    float y[4];
    if (op_tensor_read(&ty, y)) {
        return 1;
    }
    REQUIRE(y[0] == 0 && y[1] == 2 && y[2] == 0 && y[3] == 4, "Relu result");

    /* list of data types, through aclopCompile, then a matching execution */
    aclopAttr *a = make_attr(NONE);
    const aclDataType dts[3] = {ACL_FLOAT, ACL_INT32, ACL_DT_UNDEFINED};
    CHECK(aclopSetAttrListDataType(a, "a_list_dtype", 3, dts));
    EXPECT(aclopExecuteV2("Relu", 1, in, bin, 1, out, bout, a, stream), ACL_ERROR_OP_NOT_FOUND);
    CHECK(aclopCompile("Relu", 1, (const aclTensorDesc *const *)in, 1, (const aclTensorDesc *const *)out, a,
                       ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL));
    CHECK(aclopExecuteV2("Relu", 1, in, bin, 1, out, bout, a, stream));
    const aclDataType other[3] = {ACL_FLOAT, ACL_INT32, ACL_INT64};
    CHECK(aclopSetAttrListDataType(a, "a_list_dtype", 3, other));
    EXPECT(aclopExecuteV2("Relu", 1, in, bin, 1, out, bout, a, stream), ACL_ERROR_OP_NOT_FOUND);
    CHECK(aclrtSynchronizeStream(stream));
    aclopDestroyAttr(a);
    op_tensor_free(&tx);
    op_tensor_free(&ty);
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    op_rmdir(dir);
    printf("PASS op_attrs\n");
    return 0;
}

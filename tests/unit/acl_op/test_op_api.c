/*
 * acl_op.h / acl_op_compiler.h through libascendcl: argument checks with
 * CANN's codes and order (empty outputs succeed before buffers are looked
 * at, ExecuteV2's NULL-data buffers, handle count checks after the
 * empty-output rule, host-memory descs refused by handles and aclopCompile,
 * compile type and opPath), the cache limit, compile options, the graph
 * dump option, the user-kernel registries, aclopInferShape, and misses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"

/* aclopExecute and aclGetTensorDescDim are deprecated but part of the API under test. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static void expect_fail(aclError got, aclError want, const char *part)
{
    assert_int_equal(got, want);
    const char *m = aclGetRecentErrMsg();
    assert_non_null(m);
    if (part != NULL && strstr(m, part) == NULL) {
        fail_msg("message [%s] does not mention [%s]", m, part);
    }
}

static const int64_t g_d23[2] = {2, 3}, g_d20[2] = {2, 0};
static float g_buf[16];

typedef struct op2 {
    aclTensorDesc *in[2], *out[1];
    aclDataBuffer *bin[2], *bout[1];
} op2;

static void op2_make(op2 *o, const int64_t *out_dims)
{
    for (int i = 0; i < 2; ++i) {
        o->in[i] = aclCreateTensorDesc(ACL_FLOAT, 2, g_d23, ACL_FORMAT_ND);
        o->bin[i] = aclCreateDataBuffer(g_buf, 24);
    }
    o->out[0] = aclCreateTensorDesc(ACL_FLOAT, 2, out_dims, ACL_FORMAT_ND);
    o->bout[0] = aclCreateDataBuffer(g_buf, 24);
}

static void op2_free(op2 *o)
{
    for (int i = 0; i < 2; ++i) {
        aclDestroyTensorDesc(o->in[i]);
        (void)aclDestroyDataBuffer(o->bin[i]);
    }
    aclDestroyTensorDesc(o->out[0]);
    (void)aclDestroyDataBuffer(o->bout[0]);
}

static void execute_checks_arguments_in_order(void **state)
{
    (void)state;
    op2 o;
    op2_make(&o, g_d23);
    expect_fail(aclopExecuteV2(NULL, 2, o.in, o.bin, 1, o.out, o.bout, NULL, NULL), ACL_ERROR_INVALID_PARAM, "opType");
    expect_fail(aclopExecuteV2("Add", -1, o.in, o.bin, 1, o.out, o.bout, NULL, NULL), ACL_ERROR_INVALID_PARAM,
                "negative");
    expect_fail(aclopExecuteV2("Add", 2, NULL, o.bin, 1, o.out, o.bout, NULL, NULL), ACL_ERROR_INVALID_PARAM,
                "inputDesc");
    aclTensorDesc *holes[2] = {o.in[0], NULL};
    expect_fail(aclopExecuteV2("Add", 2, holes, o.bin, 1, o.out, o.bout, NULL, NULL), ACL_ERROR_INVALID_PARAM,
                "element 1");
    expect_fail(aclopExecuteV2("Add", 2, o.in, NULL, 1, o.out, o.bout, NULL, NULL), ACL_ERROR_INVALID_PARAM,
                "inputs");
    /* ExecuteV2 refuses a buffer with NULL data and a length, aclopExecute does not look */
    aclDataBuffer *bad = aclCreateDataBuffer(NULL, 24);
    aclDataBuffer *bins[2] = {o.bin[0], bad};
    expect_fail(aclopExecuteV2("Add", 2, o.in, bins, 1, o.out, o.bout, NULL, NULL), ACL_ERROR_INVALID_PARAM,
                "is null while its size");
    expect_fail(aclopExecute("Add", 2, (const aclTensorDesc *const *)o.in, (const aclDataBuffer *const *)bins, 1,
                             (const aclTensorDesc *const *)o.out, o.bout, NULL, NULL),
                ACL_ERROR_OP_NOT_FOUND, "no single-op model");
    /* nothing matches: 100024 (CANN's executor never compiles) */
    expect_fail(aclopExecuteV2("Add", 2, o.in, o.bin, 1, o.out, o.bout, NULL, NULL), ACL_ERROR_OP_NOT_FOUND, "Add");
    /* every output empty: success before the buffers are looked at */
    aclTensorDesc *empty[1] = {aclCreateTensorDesc(ACL_FLOAT, 2, g_d20, ACL_FORMAT_ND)};
    assert_int_equal(aclopExecuteV2("Add", 2, o.in, NULL, 1, empty, NULL, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclopExecute("Nothing", 2, (const aclTensorDesc *const *)o.in, NULL, 1,
                                  (const aclTensorDesc *const *)empty, NULL, NULL, NULL),
                     ACL_SUCCESS);
    /* ... but not with no outputs at all */
    expect_fail(aclopExecuteV2("Add", 2, o.in, o.bin, 0, NULL, NULL, NULL, NULL), ACL_ERROR_OP_NOT_FOUND, NULL);
    aclDestroyTensorDesc(empty[0]);
    (void)aclDestroyDataBuffer(bad);
    op2_free(&o);
}

static void handles_check_counts_after_empty_outputs(void **state)
{
    (void)state;
    op2 o;
    op2_make(&o, g_d23);
    aclopHandle *h = NULL;
    expect_fail(aclopCreateHandle(NULL, 2, (const aclTensorDesc *const *)o.in, 1, (const aclTensorDesc *const *)o.out,
                                  NULL, &h),
                ACL_ERROR_INVALID_PARAM, "opType");
    expect_fail(aclopCreateHandle("Add", 2, (const aclTensorDesc *const *)o.in, 1, (const aclTensorDesc *const *)o.out,
                                  NULL, NULL),
                ACL_ERROR_INVALID_PARAM, "handle");
    assert_int_equal(aclSetTensorPlaceMent(o.in[1], ACL_MEMTYPE_HOST), ACL_SUCCESS);
    expect_fail(aclopCreateHandle("Add", 2, (const aclTensorDesc *const *)o.in, 1, (const aclTensorDesc *const *)o.out,
                                  NULL, &h),
                ACL_ERROR_API_NOT_SUPPORT, "HostMemTensorDesc");
    assert_int_equal(aclSetTensorPlaceMent(o.in[1], ACL_MEMTYPE_DEVICE), ACL_SUCCESS);
    expect_fail(aclopCreateHandle("Add", 2, (const aclTensorDesc *const *)o.in, 1, (const aclTensorDesc *const *)o.out,
                                  NULL, &h),
                ACL_ERROR_OP_NOT_FOUND, NULL);
    assert_null(h);
    expect_fail(aclopExecWithHandle(NULL, 0, NULL, 0, NULL, NULL), ACL_ERROR_INVALID_PARAM, "handle");
    aclopDestroyHandle(NULL);
    op2_free(&o);
}

static void cast_checks_its_destination(void **state)
{
    (void)state;
    aclTensorDesc *s = aclCreateTensorDesc(ACL_FLOAT, 2, g_d23, ACL_FORMAT_ND);
    aclDataBuffer *b = aclCreateDataBuffer(g_buf, 24);
    expect_fail(aclopCast(s, b, NULL, b, 0, NULL), ACL_ERROR_INVALID_PARAM, "dstDesc");
    expect_fail(aclopCast(NULL, b, s, b, 0, NULL), ACL_ERROR_INVALID_PARAM, "element 0");
    aclopHandle *h = NULL;
    expect_fail(aclopCreateHandleForCast(s, NULL, 0, &h), ACL_ERROR_INVALID_PARAM, "dstDesc");
    aclDestroyTensorDesc(s);
    (void)aclDestroyDataBuffer(b);
}

static void compile_checks_arguments(void **state)
{
    (void)state;
    op2 o;
    op2_make(&o, g_d23);
    const aclTensorDesc *const *in = (const aclTensorDesc *const *)o.in;
    const aclTensorDesc *const *out = (const aclTensorDesc *const *)o.out;
    expect_fail(aclopCompile("Add", -1, in, 1, out, NULL, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL),
                ACL_ERROR_INVALID_PARAM, "negative");
    expect_fail(aclopCompile("Add", 2, in, 1, out, NULL, ACL_ENGINE_SYS, (aclopCompileType)5, NULL),
                ACL_ERROR_API_NOT_SUPPORT, "compile type");
    expect_fail(aclopCompile(NULL, 2, in, 1, out, NULL, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL),
                ACL_ERROR_INVALID_PARAM, "opType");
    expect_fail(aclopCompile("Add", 2, in, 1, out, NULL, ACL_ENGINE_SYS, ACL_COMPILE_UNREGISTERED, NULL),
                ACL_ERROR_INVALID_PARAM, "opPath");
    /* an operator implementation under opPath cannot be compiled: refused, not compiled as the built-in Add */
    expect_fail(aclopCompile("Add", 2, in, 1, out, NULL, ACL_ENGINE_SYS, ACL_COMPILE_UNREGISTERED, "/tmp/op_impl"),
                ACL_ERROR_API_NOT_SUPPORT, "ACL_COMPILE_UNREGISTERED");
    expect_fail(aclopCompileAndExecute("Add", 2, in, (const aclDataBuffer *const *)o.bin, 1, out, o.bout, NULL,
                                       ACL_ENGINE_SYS, ACL_COMPILE_UNREGISTERED, "/tmp/op_impl", NULL),
                ACL_ERROR_API_NOT_SUPPORT, "ACL_COMPILE_UNREGISTERED");
    assert_int_equal(aclSetTensorPlaceMent(o.in[0], ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT), ACL_SUCCESS);
    expect_fail(aclopCompile("Add", 2, in, 1, out, NULL, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL),
                ACL_ERROR_API_NOT_SUPPORT, "placeMent");
    assert_int_equal(aclSetTensorPlaceMent(o.in[0], ACL_MEMTYPE_DEVICE), ACL_SUCCESS);
    expect_fail(aclopCompile("NoSuchOp", 2, in, 1, out, NULL, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL),
                ACL_ERROR_OP_NOT_FOUND, "not supported by the CPU compiler");
    /* CompileAndExecute: buffers checked like ExecuteV2, empty outputs succeed */
    expect_fail(aclopCompileAndExecute("Add", 2, in, NULL, 1, out, o.bout, NULL, ACL_ENGINE_SYS, ACL_COMPILE_SYS,
                                       NULL, NULL),
                ACL_ERROR_INVALID_PARAM, "inputs");
    aclTensorDesc *empty[1] = {aclCreateTensorDesc(ACL_FLOAT, 2, g_d20, ACL_FORMAT_ND)};
    assert_int_equal(aclopCompileAndExecuteV2("Add", 2, o.in, o.bin, 1, empty, o.bout, NULL, ACL_ENGINE_SYS,
                                              ACL_COMPILE_SYS, NULL, NULL),
                     ACL_SUCCESS);
    expect_fail(aclopCompileAndExecuteV2("Add", 2, o.in, o.bin, 1, o.out, o.bout, NULL, ACL_ENGINE_SYS,
                                         (aclopCompileType)2, NULL, NULL),
                ACL_ERROR_API_NOT_SUPPORT, NULL);
    aclDestroyTensorDesc(empty[0]);
    op2_free(&o);
}

static void compile_options(void **state)
{
    (void)state;
    expect_fail(aclSetCompileopt(ACL_PRECISION_MODE, NULL), ACL_ERROR_INVALID_PARAM, "value");
    expect_fail(aclSetCompileopt(ACL_AUTO_TUNE_MODE, "x"), ACL_ERROR_FEATURE_UNSUPPORTED, "AOE");
    expect_fail(aclSetCompileopt((aclCompileOpt)99, "x"), ACL_ERROR_INTERNAL_ERROR, "options[99]");
    assert_int_equal(aclSetCompileopt(ACL_PRECISION_MODE, "allow_fp32_to_fp16"), ACL_SUCCESS);
    assert_int_equal(aclGetCompileoptSize(ACL_PRECISION_MODE), strlen("allow_fp32_to_fp16") + 1);
    assert_int_equal(aclGetCompileoptSize(ACL_OP_DEBUG_LEVEL), 0);
    assert_int_equal(aclGetCompileoptSize(ACL_OP_JIT_COMPILE), 256);
    assert_int_equal(aclGetCompileoptSize((aclCompileOpt)99), 0);
    char v[256];
    expect_fail(aclGetCompileopt(ACL_OP_JIT_COMPILE, NULL, sizeof v), ACL_ERROR_INVALID_PARAM, "value");
    assert_int_equal(aclGetCompileopt(ACL_OP_JIT_COMPILE, v, sizeof v), ACL_SUCCESS);
    assert_true(strcmp(v, "enable") == 0 || strcmp(v, "disable") == 0);
    expect_fail(aclGetCompileopt(ACL_OP_JIT_COMPILE, v, 3), ACL_ERROR_FAILURE, "length");
    expect_fail(aclGetCompileopt(ACL_OP_DEBUG_OPTION, v, sizeof v), ACL_ERROR_API_NOT_SUPPORT, NULL);
    assert_int_equal(aclSetCompileopt(ACL_OP_DEBUG_OPTION, "oom"), ACL_SUCCESS);
    assert_int_equal(aclGetCompileopt(ACL_OP_DEBUG_OPTION, v, sizeof v), ACL_SUCCESS);
    assert_string_equal(v, "oom");
    expect_fail(aclGetCompileopt(ACL_PRECISION_MODE, v, sizeof v), ACL_ERROR_API_NOT_SUPPORT, NULL);
    assert_int_equal(aclopSetCompileFlag(ACL_OP_COMPILE_FUZZ), ACL_SUCCESS);
    assert_int_equal(aclopSetCompileFlag(ACL_OP_COMPILE_DEFAULT), ACL_SUCCESS);
}

static void graph_dump_option_must_be_null(void **state)
{
    (void)state;
    aclGraphDumpOption *o = aclCreateGraphDumpOpt();
    assert_non_null(o);
    op2 p;
    op2_make(&p, g_d23);
    expect_fail(aclGenGraphAndDumpForOp("Add", 2, (const aclTensorDesc *const *)p.in,
                                        (const aclDataBuffer *const *)p.bin, 1, (const aclTensorDesc *const *)p.out,
                                        p.bout, NULL, ACL_ENGINE_SYS, "/tmp", o),
                ACL_ERROR_INVALID_PARAM, "only support nullptr");
    expect_fail(aclGenGraphAndDumpForOp("Add", 2, (const aclTensorDesc *const *)p.in,
                                        (const aclDataBuffer *const *)p.bin, 1, (const aclTensorDesc *const *)p.out,
                                        p.bout, NULL, ACL_ENGINE_SYS, NULL, NULL),
                ACL_ERROR_INVALID_PARAM, "graphDumpPath");
    /* the graph of a single Add, as text, into a file or a directory */
    char path[128];
    snprintf(path, sizeof path, "/tmp/oa_op_dump_%d.txt", (int)getpid());
    assert_int_equal(aclGenGraphAndDumpForOp("Add", 2, (const aclTensorDesc *const *)p.in,
                                             (const aclDataBuffer *const *)p.bin, 1,
                                             (const aclTensorDesc *const *)p.out, p.bout, NULL, ACL_ENGINE_SYS, path,
                                             NULL),
                     ACL_SUCCESS);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char text[4096] = {0};
    assert_true(fread(text, 1, sizeof text - 1, f) > 0);
    fclose(f);
    assert_non_null(strstr(text, "Add"));
    assert_non_null(strstr(text, "Data"));
    unlink(path);
    expect_fail(aclGenGraphAndDumpForOp("Add", 2, (const aclTensorDesc *const *)p.in,
                                        (const aclDataBuffer *const *)p.bin, 1, (const aclTensorDesc *const *)p.out,
                                        p.bout, NULL, ACL_ENGINE_SYS, "/nonexistent/dir", NULL),
                ACL_ERROR_WRITE_FILE, "cannot open");
    assert_int_equal(aclDestroyGraphDumpOpt(o), ACL_SUCCESS);
    expect_fail(aclDestroyGraphDumpOpt(NULL), ACL_ERROR_INVALID_PARAM, "graphDumpOpt");
    op2_free(&p);
}

static int g_deallocated;
static void dealloc(void *data, size_t length)
{
    (void)data;
    (void)length;
    ++g_deallocated;
}

static aclError selector(int numInputs, const aclTensorDesc *const inputDesc[], int numOutputs,
                         const aclTensorDesc *const outputDesc[], const aclopAttr *opAttr, aclopKernelDesc *kernelDesc)
{
    (void)numInputs;
    (void)inputDesc;
    (void)numOutputs;
    (void)outputDesc;
    (void)opAttr;
    static const char args[8] = "tiling";
    size_t ws[2] = {64, 128};
    if (aclopSetKernelArgs(kernelDesc, "k1", 8, args, sizeof args) != ACL_SUCCESS ||
        aclopSetKernelWorkspaceSizes(kernelDesc, 2, ws) != ACL_SUCCESS) {
        return ACL_ERROR_FAILURE;
    }
    return ACL_SUCCESS;
}

static aclError failing_selector(int numInputs, const aclTensorDesc *const inputDesc[], int numOutputs,
                                 const aclTensorDesc *const outputDesc[], const aclopAttr *opAttr,
                                 aclopKernelDesc *kernelDesc)
{
    (void)numInputs;
    (void)inputDesc;
    (void)numOutputs;
    (void)outputDesc;
    (void)opAttr;
    (void)kernelDesc;
    return ACL_ERROR_INVALID_PARAM;
}

static void kernel_registries_behave_as_cann(void **state)
{
    (void)state;
    static char bin[16] = "fake elf";
    op2 o;
    op2_make(&o, g_d23);
    const aclTensorDesc *const *in = (const aclTensorDesc *const *)o.in;
    const aclTensorDesc *const *out = (const aclTensorDesc *const *)o.out;
    expect_fail(aclopCreateKernel(NULL, "k1", "n", bin, 16, ACL_ENGINE_AICORE, NULL), ACL_ERROR_INVALID_PARAM,
                "opType");
    expect_fail(aclopCreateKernel("MyOp", "k1", "n", NULL, 16, ACL_ENGINE_AICORE, NULL), ACL_ERROR_INVALID_PARAM,
                "binData");
    expect_fail(aclopCreateKernel("MyOp", "k1", "n", bin, 16, ACL_ENGINE_SYS, NULL), ACL_ERROR_INVALID_PARAM,
                "engine type");
    assert_int_equal(aclopCreateKernel("MyOp", "k1", "n", bin, 16, ACL_ENGINE_AICORE, dealloc), ACL_SUCCESS);
    expect_fail(aclopCreateKernel("MyOp", "k1", "n", bin, 16, ACL_ENGINE_VECTOR, dealloc),
                ACL_ERROR_KERNEL_ALREADY_REGISTERED, "already registered");
    assert_int_equal(g_deallocated, 0);

    /* CANN only warns here: no message is recorded */
    assert_int_equal(aclopUpdateParams("MyOp", 2, in, 1, out, NULL), ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED);
    expect_fail(aclopRegisterCompileFunc("MyOp", NULL), ACL_ERROR_INVALID_PARAM, "func");
    assert_int_equal(aclopRegisterCompileFunc("MyOp", selector), ACL_SUCCESS);
    expect_fail(aclopRegisterCompileFunc("MyOp", selector), ACL_ERROR_BIN_SELECTOR_ALREADY_REGISTERED, "repeat");
    assert_int_equal(aclopUpdateParams("MyOp", 2, in, 1, out, NULL), ACL_SUCCESS);
    /* a selector naming a kernel that was never created */
    assert_int_equal(aclopRegisterCompileFunc("Other", selector), ACL_SUCCESS);
    expect_fail(aclopUpdateParams("Other", 2, in, 1, out, NULL), ACL_ERROR_KERNEL_NOT_FOUND, "k1");
    assert_int_equal(aclopRegisterCompileFunc("Failing", failing_selector), ACL_SUCCESS);
    assert_int_equal(aclopUpdateParams("Failing", 2, in, 1, out, NULL), ACL_ERROR_INVALID_PARAM);
    /* executing an op with a selector: device kernels cannot run, the models are used (none: not found) */
    expect_fail(aclopExecuteV2("MyOp", 2, o.in, o.bin, 1, o.out, o.bout, NULL, NULL), ACL_ERROR_OP_NOT_FOUND, NULL);
    assert_int_equal(aclopUnregisterCompileFunc("MyOp"), ACL_SUCCESS);
    assert_int_equal(aclopUnregisterCompileFunc("MyOp"), ACL_SUCCESS);
    expect_fail(aclopUnregisterCompileFunc(NULL), ACL_ERROR_INVALID_PARAM, "opType");
    assert_int_equal(aclopUpdateParams("MyOp", 2, in, 1, out, NULL), ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED);
    expect_fail(aclopSetKernelArgs(NULL, "k", 1, bin, 1), ACL_ERROR_INVALID_PARAM, "kernelDesc");
    expect_fail(aclopSetKernelWorkspaceSizes(NULL, 1, NULL), ACL_ERROR_INVALID_PARAM, "kernelDesc");
    op2_free(&o);
}

static void infer_shape_fills_output_descs(void **state)
{
    (void)state;
    const int64_t d1[1] = {3}, d31[2] = {3, 1}, dx[2] = {-1, -1};
    aclTensorDesc *in[2] = {aclCreateTensorDesc(ACL_FLOAT, 1, d1, ACL_FORMAT_ND),
                            aclCreateTensorDesc(ACL_FLOAT, 2, d31, ACL_FORMAT_ND)};
    aclTensorDesc *out[1] = {aclCreateTensorDesc(ACL_DT_UNDEFINED, 2, dx, ACL_FORMAT_UNDEFINED)};
    float a[3] = {1, 2, 3}, b[3] = {4, 5, 6};
    aclDataBuffer *bufs[2] = {aclCreateDataBuffer(a, sizeof a), aclCreateDataBuffer(b, sizeof b)};
    assert_int_equal(aclopInferShape("Add", 2, in, bufs, 1, out, NULL), ACL_SUCCESS);
    assert_int_equal(aclGetTensorDescType(out[0]), ACL_FLOAT);
    assert_int_equal(aclGetTensorDescNumDims(out[0]), 2);
    assert_int_equal(aclGetTensorDescDim(out[0], 0), 3);
    assert_int_equal(aclGetTensorDescDim(out[0], 1), 3);
    assert_string_equal(aclGetTensorDescName(out[0]), "y");
    /* values of inputs take part: Reshape's shape */
    const int64_t d6[1] = {6}, d2[1] = {2};
    aclTensorDesc *rin[2] = {aclCreateTensorDesc(ACL_FLOAT, 1, d6, ACL_FORMAT_ND),
                             aclCreateTensorDesc(ACL_INT64, 1, d2, ACL_FORMAT_ND)};
    float x[6] = {0};
    int64_t shape[2] = {3, -1};
    aclDataBuffer *rb[2] = {aclCreateDataBuffer(x, sizeof x), aclCreateDataBuffer(shape, sizeof shape)};
    assert_int_equal(aclopInferShape("Reshape", 2, rin, rb, 1, out, NULL), ACL_SUCCESS);
    assert_int_equal(aclGetTensorDescDim(out[0], 0), 3);
    assert_int_equal(aclGetTensorDescDim(out[0], 1), 2);
    /* errors */
    aclDataBuffer *zero = aclCreateDataBuffer(a, 0);
    aclDataBuffer *zb[2] = {bufs[0], zero};
    expect_fail(aclopInferShape("Add", 2, in, zb, 1, out, NULL), ACL_ERROR_INVALID_PARAM, "tensorSize");
    expect_fail(aclopInferShape("Add", 2, in, NULL, 1, out, NULL), ACL_ERROR_INVALID_PARAM, "inputs");
    const int64_t d4[1] = {4};
    aclTensorDesc *bad[2] = {in[0], aclCreateTensorDesc(ACL_FLOAT, 1, d4, ACL_FORMAT_ND)};
    float c[4] = {0};
    aclDataBuffer *bb[2] = {bufs[0], aclCreateDataBuffer(c, sizeof c)};
    const aclError r = aclopInferShape("Add", 2, bad, bb, 1, out, NULL);
    assert_int_not_equal(r, ACL_SUCCESS); /* 3 and 4 do not broadcast */
    aclTensorDesc *all[] = {in[0], in[1], out[0], rin[0], rin[1], bad[1]};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) {
        aclDestroyTensorDesc(all[i]);
    }
    aclDataBuffer *allb[] = {bufs[0], bufs[1], rb[0], rb[1], zero, bb[1]};
    for (size_t i = 0; i < sizeof allb / sizeof allb[0]; ++i) {
        (void)aclDestroyDataBuffer(allb[i]);
    }
}

static void model_loading_arguments(void **state)
{
    (void)state;
    expect_fail(aclopLoad(NULL, 1), ACL_ERROR_INVALID_PARAM, "model");
    expect_fail(aclopLoad(g_buf, 0), ACL_ERROR_INVALID_PARAM, "zero");
    expect_fail(aclopSetModelDir(NULL), ACL_ERROR_INVALID_PARAM, "modelDir");
    expect_fail(aclopSetModelDir("/no/such/dir/anywhere"), ACL_ERROR_READ_MODEL_FAILURE, "invalid");
    expect_fail(aclopSetMaxOpQueueNum(0), ACL_ERROR_INVALID_PARAM, "positive");
    assert_int_equal(aclopSetMaxOpQueueNum(5), ACL_SUCCESS);
}

static int init(void **state)
{
    (void)state;
    return (aclInit(NULL) == ACL_SUCCESS && aclrtSetDevice(0) == ACL_SUCCESS) ? 0 : -1;
}

static int fini(void **state)
{
    (void)state;
    (void)aclrtResetDevice(0);
    return aclFinalize() == ACL_SUCCESS ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(execute_checks_arguments_in_order),
        cmocka_unit_test(handles_check_counts_after_empty_outputs),
        cmocka_unit_test(cast_checks_its_destination),
        cmocka_unit_test(compile_checks_arguments),
        cmocka_unit_test(compile_options),
        cmocka_unit_test(graph_dump_option_must_be_null),
        cmocka_unit_test(kernel_registries_behave_as_cann),
        cmocka_unit_test(infer_shape_fills_output_descs),
        cmocka_unit_test(model_loading_arguments),
    };
    return cmocka_run_group_tests_name("aclop api", tests, init, fini);
}

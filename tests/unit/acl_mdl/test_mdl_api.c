/*
 * acl_mdl.h through libascendcl.so without any model loaded: datasets,
 * descriptions, load/execute configurations, external weights, the AIPP
 * parameter set, and the argument checks (codes and order) of every
 * model-dependent function. Loads stop with ACL_ERROR_API_NOT_SUPPORT
 * after their checks until the .om reader and executors exist.
 */
#define _GNU_SOURCE
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

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* got must be want and a message naming the failure must be pending (part: a substring of it, or NULL). */
static void expect_fail(aclError got, aclError want, const char *part)
{
    assert_int_equal(got, want);
    const char *m = aclGetRecentErrMsg();
    assert_non_null(m);
    if (part != NULL && strstr(m, part) == NULL) {
        fail_msg("message [%s] does not mention [%s]", m, part);
    }
}

static void expect_ok(aclError got)
{
    assert_int_equal(got, ACL_SUCCESS);
}

static char g_dir[256];
static char g_om[300];      /* an existing file that is not OM2: a bare header, which the .om reader refuses */
static char g_tiny[300];    /* 2 bytes */
static char g_zip[300];     /* starts with PK\3\4 */
static char g_missing[300];
static unsigned char g_static_head[512];  /* an .om header of a static model */
static unsigned char g_dynamic_head[512]; /* an .om header with model_num 2 */

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

static void put_u32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

static int files_setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof(g_dir), "/tmp/oa_mdl_api_XXXXXX");
    if (mkdtemp(g_dir) == NULL) {
        return -1;
    }
    put_u32(g_static_head, 0x444F4D49u);
    put_u32(g_static_head + 4, 256u);
    put_u32(g_static_head + 8, 0x20000000u);
    put_u32(g_static_head + 156, 1u);
    memcpy(g_dynamic_head, g_static_head, sizeof(g_static_head));
    put_u32(g_dynamic_head + 156, 2u);
    snprintf(g_om, sizeof(g_om), "%s/model.om", g_dir);
    snprintf(g_tiny, sizeof(g_tiny), "%s/tiny.om", g_dir);
    snprintf(g_zip, sizeof(g_zip), "%s/model.om2", g_dir);
    snprintf(g_missing, sizeof(g_missing), "%s/missing.om", g_dir);
    write_file(g_om, g_static_head, sizeof(g_static_head));
    write_file(g_tiny, "IM", 2);
    write_file(g_zip, "PK\3\4rest", 8);
    return 0;
}

static int files_teardown(void **state)
{
    (void)state;
    unlink(g_om);
    unlink(g_tiny);
    unlink(g_zip);
    rmdir(g_dir);
    return 0;
}

/* ---- datasets ---- */

static void dataset_buffers_and_descs(void **state)
{
    (void)state;
    expect_fail(aclmdlDestroyDataset(NULL), ACL_ERROR_INVALID_PARAM, "dataset");
    assert_int_equal(aclmdlGetDatasetNumBuffers(NULL), 0);
    assert_non_null(aclGetRecentErrMsg());
    assert_null(aclmdlGetDatasetBuffer(NULL, 0));
    assert_non_null(aclGetRecentErrMsg());
    assert_null(aclmdlGetDatasetTensorDesc(NULL, 0));
    assert_non_null(aclGetRecentErrMsg());

    aclmdlDataset *ds = aclmdlCreateDataset();
    assert_non_null(ds);
    assert_int_equal(aclmdlGetDatasetNumBuffers(ds), 0);
    char mem[16];
    aclDataBuffer *b0 = aclCreateDataBuffer(mem, sizeof(mem));
    aclDataBuffer *b1 = aclCreateDataBuffer(NULL, 0);
    expect_fail(aclmdlAddDatasetBuffer(NULL, b0), ACL_ERROR_INVALID_PARAM, "dataset");
    expect_fail(aclmdlAddDatasetBuffer(ds, NULL), ACL_ERROR_INVALID_PARAM, "dataBuffer");
    expect_ok(aclmdlAddDatasetBuffer(ds, b0));
    expect_ok(aclmdlAddDatasetBuffer(ds, b1));
    expect_ok(aclmdlAddDatasetBuffer(ds, b0)); /* no dedupe */
    assert_int_equal(aclmdlGetDatasetNumBuffers(ds), 3);
    assert_ptr_equal(aclmdlGetDatasetBuffer(ds, 0), b0);
    assert_ptr_equal(aclmdlGetDatasetBuffer(ds, 1), b1);
    assert_ptr_equal(aclmdlGetDatasetBuffer(ds, 2), b0);
    assert_null(aclmdlGetDatasetBuffer(ds, 3));
    assert_non_null(aclGetRecentErrMsg());

    /* tensor descriptions: copies, per slot */
    assert_null(aclmdlGetDatasetTensorDesc(ds, 0));
    assert_null(aclGetRecentErrMsg());
    assert_null(aclmdlGetDatasetTensorDesc(ds, 3));
    assert_non_null(aclGetRecentErrMsg());
    const int64_t dims[] = {2, 3};
    aclTensorDesc *td = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
    expect_fail(aclmdlSetDatasetTensorDesc(NULL, td, 0), ACL_ERROR_INVALID_PARAM, "dataset");
    expect_fail(aclmdlSetDatasetTensorDesc(ds, td, 3), ACL_ERROR_INVALID_PARAM, "index");
    expect_ok(aclmdlSetDatasetTensorDesc(ds, td, 1));
    aclTensorDesc *got = aclmdlGetDatasetTensorDesc(ds, 1);
    assert_non_null(got);
    assert_ptr_not_equal(got, td);
    assert_int_equal(aclGetTensorDescNumDims(got), 2);
    assert_int_equal(aclGetTensorDescDim(got, 1), 3);
    assert_int_equal(aclGetTensorDescType(got), ACL_FLOAT);
    aclDestroyTensorDesc(td); /* the dataset kept its own copy */
    assert_int_equal(aclGetTensorDescDim(aclmdlGetDatasetTensorDesc(ds, 1), 0), 2);
    const int64_t dims2[] = {7};
    aclTensorDesc *td2 = aclCreateTensorDesc(ACL_INT32, 1, dims2, ACL_FORMAT_NCHW);
    expect_ok(aclmdlSetDatasetTensorDesc(ds, td2, 1)); /* replaces */
    assert_int_equal(aclGetTensorDescType(aclmdlGetDatasetTensorDesc(ds, 1)), ACL_INT32);
    expect_ok(aclmdlSetDatasetTensorDesc(ds, td2, 2));
    aclDestroyTensorDesc(td2);
    expect_ok(aclmdlSetDatasetTensorDesc(ds, NULL, 1)); /* clears */
    assert_null(aclmdlGetDatasetTensorDesc(ds, 1));
    assert_non_null(aclmdlGetDatasetTensorDesc(ds, 2));

    expect_ok(aclmdlDestroyDataset(ds)); /* frees the slot descs, not the buffers */
    assert_ptr_equal(aclGetDataBufferAddr(b0), mem);
    expect_ok(aclDestroyDataBuffer(b0));
    expect_ok(aclDestroyDataBuffer(b1));
}

/* ---- descriptions without a model ---- */

static void empty_desc_getters(void **state)
{
    (void)state;
    assert_int_equal(aclmdlGetNumInputs(NULL), 0);
    assert_int_equal(aclmdlGetNumOutputs(NULL), 0);
    expect_fail(aclmdlDestroyDesc(NULL), ACL_ERROR_INVALID_PARAM, "modelDesc");
    assert_int_equal(aclmdlGetInputSizeByIndex(NULL, 0), 0);
    assert_non_null(aclGetRecentErrMsg());
    assert_string_equal(aclmdlGetInputNameByIndex(NULL, 0), "");
    assert_non_null(aclGetRecentErrMsg());
    assert_int_equal(aclmdlGetInputFormat(NULL, 0), ACL_FORMAT_UNDEFINED);
    assert_int_equal(aclmdlGetOutputDataType(NULL, 0), ACL_DT_UNDEFINED);
    (void)aclGetRecentErrMsg();

    aclmdlDesc *d = aclmdlCreateDesc();
    assert_non_null(d);
    assert_int_equal(aclmdlGetNumInputs(d), 0);
    assert_int_equal(aclmdlGetNumOutputs(d), 0);
    assert_null(aclGetRecentErrMsg());
    assert_int_equal(aclmdlGetInputSizeByIndex(d, 0), 0);
    assert_non_null(aclGetRecentErrMsg());
    assert_int_equal(aclmdlGetOutputSizeByIndex(d, 0), 0);
    assert_non_null(aclGetRecentErrMsg());
    assert_string_equal(aclmdlGetInputNameByIndex(d, 0), "");
    assert_string_equal(aclmdlGetOutputNameByIndex(d, 0), "");
    assert_int_equal(aclmdlGetInputFormat(d, 0), ACL_FORMAT_UNDEFINED);
    assert_int_equal(aclmdlGetOutputFormat(d, 0), ACL_FORMAT_UNDEFINED);
    assert_int_equal(aclmdlGetInputDataType(d, 0), ACL_DT_UNDEFINED);
    assert_int_equal(aclmdlGetOutputDataType(d, 0), ACL_DT_UNDEFINED);
    (void)aclGetRecentErrMsg();

    aclmdlIODims dims;
    expect_fail(aclmdlGetInputDims(NULL, 0, &dims), ACL_ERROR_INVALID_PARAM, "modelDesc");
    expect_fail(aclmdlGetInputDims(d, 0, NULL), ACL_ERROR_INVALID_PARAM, "dims");
    expect_fail(aclmdlGetInputDims(d, 0, &dims), ACL_ERROR_INVALID_PARAM, "index");
    expect_fail(aclmdlGetInputDimsV2(d, 0, &dims), ACL_ERROR_INVALID_PARAM, "index");
    expect_fail(aclmdlGetOutputDims(d, 0, &dims), ACL_ERROR_INVALID_PARAM, "index");
    expect_fail(aclmdlGetCurOutputDims(NULL, 0, &dims), ACL_ERROR_INVALID_PARAM, "modelDesc");
    expect_fail(aclmdlGetCurOutputDims(d, 0, NULL), ACL_ERROR_INVALID_PARAM, "dims");
    expect_fail(aclmdlGetCurOutputDims(d, 0, &dims), ACL_ERROR_INVALID_PARAM, "index");
    aclmdlIODimsRange range;
    expect_fail(aclmdlGetInputDimsRange(d, 0, NULL), ACL_ERROR_INVALID_PARAM, "dimsRange");
    expect_fail(aclmdlGetInputDimsRange(d, 0, &range), ACL_ERROR_INVALID_PARAM, "index");

    size_t idx = 99;
    /* the gear-input probe on a model without gears: the code, but no message left behind */
    (void)aclGetRecentErrMsg();
    assert_int_equal(aclmdlGetInputIndexByName(d, ACL_DYNAMIC_TENSOR_NAME, &idx), ACL_ERROR_INVALID_PARAM);
    assert_null(aclGetRecentErrMsg());
    expect_fail(aclmdlGetInputIndexByName(d, "ascend_mbatch_shape", &idx), ACL_ERROR_INVALID_PARAM,
                "[ascend_mbatch_shape]");
    expect_fail(aclmdlGetInputIndexByName(d, NULL, &idx), ACL_ERROR_INVALID_PARAM, "name");
    expect_fail(aclmdlGetOutputIndexByName(d, "x", NULL), ACL_ERROR_INVALID_PARAM, "index");
    expect_fail(aclmdlGetOutputIndexByName(d, "x", &idx), ACL_ERROR_INVALID_PARAM, "[x]");
    assert_int_equal(idx, 99);

    /* a model without gears: counts 0 and success (msame depends on it) */
    aclmdlBatch batch;
    batch.batchCount = 77;
    expect_ok(aclmdlGetDynamicBatch(d, &batch));
    assert_int_equal(batch.batchCount, 0);
    expect_fail(aclmdlGetDynamicBatch(d, NULL), ACL_ERROR_INVALID_PARAM, "batch");
    aclmdlHW hw;
    hw.hwCount = 77;
    expect_ok(aclmdlGetDynamicHW(d, 12345, &hw));
    assert_int_equal(hw.hwCount, 0);
    expect_fail(aclmdlGetDynamicHW(NULL, 0, &hw), ACL_ERROR_INVALID_PARAM, "modelDesc");
    size_t gears = 77;
    expect_ok(aclmdlGetInputDynamicGearCount(d, (size_t)-1, &gears));
    assert_int_equal(gears, 0);
    expect_fail(aclmdlGetInputDynamicGearCount(d, 0, &gears), ACL_ERROR_INVALID_PARAM, "-1");
    expect_fail(aclmdlGetInputDynamicGearCount(d, (size_t)-1, NULL), ACL_ERROR_INVALID_PARAM, "gearCount");
    expect_ok(aclmdlGetInputDynamicDims(d, (size_t)-1, &dims, 0));
    expect_fail(aclmdlGetInputDynamicDims(d, 0, &dims, 0), ACL_ERROR_INVALID_PARAM, "-1");
    expect_fail(aclmdlGetInputDynamicDims(d, (size_t)-1, NULL, 0), ACL_ERROR_INVALID_PARAM, "dims");

    assert_null(aclmdlGetTensorRealName(d, "x"));
    assert_non_null(aclGetRecentErrMsg());
    assert_null(aclmdlGetTensorRealName(NULL, "x"));
    assert_null(aclmdlGetTensorRealName(d, NULL));
    assert_null(aclmdlGetOpAttr(NULL, "op", ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES));
    assert_null(aclmdlGetOpAttr(d, NULL, ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES));
    assert_null(aclmdlGetOpAttr(d, "op", NULL));
    assert_null(aclmdlGetOpAttr(d, "op", "other_attr"));
    assert_non_null(aclGetRecentErrMsg());
    expect_ok(aclmdlDestroyDesc(d));
}

/* Before aclInit: GE's executor is not initialised (145001) wherever CANN asks it. */
static void before_init(void **state)
{
    (void)state;
    aclmdlDesc *d = aclmdlCreateDesc();
    expect_fail(aclmdlGetDesc(NULL, 1), ACL_ERROR_INVALID_PARAM, "modelDesc");
    expect_fail(aclmdlGetDesc(d, 1), ACL_ERROR_GE_EXEC_NOT_INIT, "aclInit");
    expect_fail(aclmdlGetDescFromFile(d, g_om), ACL_ERROR_GE_EXEC_NOT_INIT, NULL);
    uint32_t id = 0;
    expect_fail(aclmdlLoadFromFile(g_om, &id), ACL_ERROR_GE_EXEC_NOT_INIT, NULL);
    expect_fail(aclmdlLoadFromFile(g_missing, &id), ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID, "missing.om");
    expect_fail(aclmdlLoadFromMem(g_static_head, sizeof(g_static_head), &id), ACL_ERROR_GE_EXEC_NOT_INIT, NULL);
    aclmdlDataset *in = aclmdlCreateDataset();
    aclmdlDataset *out = aclmdlCreateDataset();
    expect_fail(aclmdlExecute(1, in, out), ACL_ERROR_GE_EXEC_NOT_INIT, NULL);
    expect_fail(aclmdlExecuteAsync(1, in, out, NULL), ACL_ERROR_GE_EXEC_NOT_INIT, NULL);
    aclmdlIODims dims = {.dimCount = 1, .dims = {1}};
    char mem[8];
    aclDataBuffer *b = aclCreateDataBuffer(mem, sizeof(mem));
    expect_ok(aclmdlAddDatasetBuffer(in, b));
    expect_fail(aclmdlSetInputDynamicDims(1, in, 0, &dims), ACL_ERROR_GE_EXEC_NOT_INIT, NULL);
    /* batch and HW look the model up without asking whether GE is initialised */
    expect_fail(aclmdlSetDynamicBatchSize(1, in, 0, 1), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);
    aclmdlInputAippType type;
    size_t attached;
    expect_fail(aclmdlGetAippType(1, 0, &type, &attached), ACL_ERROR_GE_EXEC_NOT_INIT, NULL);
    /* unload needs no initialised executor */
    expect_fail(aclmdlUnload(1), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, "1");
    aclDestroyDataBuffer(b);
    aclmdlDestroyDataset(in);
    aclmdlDestroyDataset(out);
    aclmdlDestroyDesc(d);
}

static void desc_from_file_and_mem(void **state)
{
    (void)state;
    aclmdlDesc *d = aclmdlCreateDesc();
    /* the path is routed (OM2 or not) before the description pointer is looked at */
    expect_fail(aclmdlGetDescFromFile(NULL, NULL), ACL_ERROR_INVALID_PARAM, "modelPath");
    expect_fail(aclmdlGetDescFromFile(NULL, g_missing), ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID, "missing.om");
    expect_fail(aclmdlGetDescFromFile(d, g_tiny), ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID, NULL);
    expect_fail(aclmdlGetDescFromFile(d, g_zip), ACL_ERROR_API_NOT_SUPPORT, "OM2");
    expect_fail(aclmdlGetDescFromFile(NULL, g_om), ACL_ERROR_INVALID_PARAM, "modelDesc");
    expect_fail(aclmdlGetDescFromFile(d, g_om), ACL_ERROR_GE_PARAM_INVALID, NULL);

    expect_fail(aclmdlGetDescFromMem(d, NULL, 10), ACL_ERROR_INVALID_PARAM, NULL);
    expect_fail(aclmdlGetDescFromMem(d, g_static_head, 0), ACL_ERROR_INVALID_PARAM, NULL);
    expect_fail(aclmdlGetDescFromMem(d, g_static_head, 3), ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID, NULL);
    expect_fail(aclmdlGetDescFromMem(d, "PK\3\4", 4), ACL_ERROR_API_NOT_SUPPORT, "OM2");
    expect_fail(aclmdlGetDescFromMem(NULL, g_static_head, sizeof(g_static_head)), ACL_ERROR_INVALID_PARAM,
                "modelDesc");
    expect_fail(aclmdlGetDescFromMem(d, g_static_head, sizeof(g_static_head)), ACL_ERROR_GE_PARAM_INVALID, NULL);

    expect_fail(aclmdlGetDesc(d, 1), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);
    expect_fail(aclmdlGetDesc(d, 0), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);
    /* a description not filled from a loaded model: the current shape needs the model */
    aclmdlDestroyDesc(d);
}

/* ---- load configuration ---- */

static void set_config_opt_sizes_and_values(void **state)
{
    (void)state;
    aclmdlConfigHandle *h = aclmdlCreateConfigHandle();
    assert_non_null(h);
    int32_t i32 = 0;
    size_t sz = 1;
    const char *path = g_om;
    void *ptr = &i32;
    void *null_ptr = NULL;

    expect_fail(aclmdlSetConfigOpt(NULL, ACL_MDL_PRIORITY_INT32, &i32, sizeof(i32)), ACL_ERROR_INVALID_PARAM,
                "handle");
    expect_fail(aclmdlSetConfigOpt(h, ACL_MDL_PRIORITY_INT32, NULL, sizeof(i32)), ACL_ERROR_INVALID_PARAM,
                "attrValue");

    /* priority: int32 within the stream priority range [0, 7] */
    expect_fail(aclmdlSetConfigOpt(h, ACL_MDL_PRIORITY_INT32, &i32, 8), ACL_ERROR_INVALID_PARAM, "valueSize");
    for (i32 = 0; i32 <= 7; ++i32) {
        expect_ok(aclmdlSetConfigOpt(h, ACL_MDL_PRIORITY_INT32, &i32, sizeof(i32)));
    }
    i32 = 8;
    expect_fail(aclmdlSetConfigOpt(h, ACL_MDL_PRIORITY_INT32, &i32, sizeof(i32)), ACL_ERROR_INVALID_PARAM, "range");
    i32 = -1;
    expect_fail(aclmdlSetConfigOpt(h, ACL_MDL_PRIORITY_INT32, &i32, sizeof(i32)), ACL_ERROR_INVALID_PARAM, "range");

    /* load type: size_t 1..6 */
    expect_fail(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &sz, 4), ACL_ERROR_INVALID_PARAM, "valueSize");
    for (sz = 1; sz <= 6; ++sz) {
        expect_ok(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &sz, sizeof(sz)));
    }
    sz = 7;
    expect_fail(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &sz, sizeof(sz)), ACL_ERROR_INVALID_PARAM, "[7]");
    sz = 0;
    expect_fail(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &sz, sizeof(sz)), ACL_ERROR_INVALID_PARAM, NULL);
    sz = (size_t)-1;
    expect_fail(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &sz, sizeof(sz)), ACL_ERROR_INVALID_PARAM, NULL);

    /* pointers that must not be null: the value points to the pointer */
    const aclmdlConfigAttr non_null[] = {ACL_MDL_PATH_PTR, ACL_MDL_MEM_ADDR_PTR, ACL_MDL_INPUTQ_ADDR_PTR,
                                         ACL_MDL_OUTPUTQ_ADDR_PTR, ACL_MDL_WEIGHT_PATH_PTR};
    for (size_t i = 0; i < sizeof(non_null) / sizeof(non_null[0]); ++i) {
        expect_fail(aclmdlSetConfigOpt(h, non_null[i], &path, 4), ACL_ERROR_INVALID_PARAM, "valueSize");
        expect_fail(aclmdlSetConfigOpt(h, non_null[i], &null_ptr, sizeof(void *)), ACL_ERROR_INVALID_PARAM, "null");
        expect_ok(aclmdlSetConfigOpt(h, non_null[i], &path, sizeof(path)));
    }
    /* pointers that may be null */
    expect_ok(aclmdlSetConfigOpt(h, ACL_MDL_WEIGHT_ADDR_PTR, &null_ptr, sizeof(void *)));
    expect_ok(aclmdlSetConfigOpt(h, ACL_MDL_WORKSPACE_ADDR_PTR, &ptr, sizeof(void *)));
    expect_fail(aclmdlSetConfigOpt(h, ACL_MDL_WORKSPACE_ADDR_PTR, &ptr, 16), ACL_ERROR_INVALID_PARAM, "valueSize");
    /* sizes: any value, size_t only */
    const aclmdlConfigAttr sizes[] = {ACL_MDL_MEM_SIZET, ACL_MDL_WEIGHT_SIZET, ACL_MDL_WORKSPACE_SIZET,
                                      ACL_MDL_INPUTQ_NUM_SIZET, ACL_MDL_OUTPUTQ_NUM_SIZET};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); ++i) {
        sz = 0;
        expect_ok(aclmdlSetConfigOpt(h, sizes[i], &sz, sizeof(sz)));
        expect_fail(aclmdlSetConfigOpt(h, sizes[i], &sz, sizeof(uint32_t)), ACL_ERROR_INVALID_PARAM, "valueSize");
    }
    /* workspace optimisation: 0 or 1 */
    sz = 1;
    expect_ok(aclmdlSetConfigOpt(h, ACL_MDL_WORKSPACE_MEM_OPTIMIZE, &sz, sizeof(sz)));
    sz = 2;
    expect_fail(aclmdlSetConfigOpt(h, ACL_MDL_WORKSPACE_MEM_OPTIMIZE, &sz, sizeof(sz)), ACL_ERROR_INVALID_PARAM,
                "ACL_MDL_WORKSPACE_MEM_OPTIMIZE");
    /* without graph: int32 0 or 1 */
    i32 = 1;
    expect_ok(aclmdlSetConfigOpt(h, ACL_MDL_WITHOUT_GRAPH_INT32, &i32, sizeof(i32)));
    i32 = 2;
    expect_fail(aclmdlSetConfigOpt(h, ACL_MDL_WITHOUT_GRAPH_INT32, &i32, sizeof(i32)), ACL_ERROR_INVALID_PARAM,
                "ACL_MDL_WITHOUT_GRAPH_INT32");
    expect_fail(aclmdlSetConfigOpt(h, ACL_MDL_WITHOUT_GRAPH_INT32, &i32, 8), ACL_ERROR_INVALID_PARAM, "valueSize");
    /* the lite-only attributes and unknown values */
    for (int a = ACL_MDL_MODEL_DESC_PTR; a <= ACL_MDL_FIFO_SIZET; ++a) {
        expect_fail(aclmdlSetConfigOpt(h, (aclmdlConfigAttr)a, &ptr, sizeof(void *)), ACL_ERROR_INVALID_PARAM,
                    "attr");
    }
    expect_fail(aclmdlSetConfigOpt(h, ACL_NPU_PERF_MODE, &i32, sizeof(i32)), ACL_ERROR_INVALID_PARAM, "attr");
    expect_fail(aclmdlSetConfigOpt(h, ACL_MDL_RESERVED, &i32, sizeof(i32)), ACL_ERROR_INVALID_PARAM, "attr");
    expect_fail(aclmdlSetConfigOpt(h, (aclmdlConfigAttr)-1, &i32, sizeof(i32)), ACL_ERROR_INVALID_PARAM, "attr");

    expect_fail(aclmdlDestroyConfigHandle(NULL), ACL_ERROR_INVALID_PARAM, "handle");
    expect_ok(aclmdlDestroyConfigHandle(h));
}

static void external_weight_address(void **state)
{
    (void)state;
    aclmdlConfigHandle *h = aclmdlCreateConfigHandle();
    char mem[128];
    expect_fail(aclmdlSetExternalWeightAddress(NULL, "w.bin", mem, 64), ACL_ERROR_INVALID_PARAM, "handle");
    expect_fail(aclmdlSetExternalWeightAddress(h, NULL, mem, 64), ACL_ERROR_INVALID_PARAM, "weightFileName");
    expect_fail(aclmdlSetExternalWeightAddress(h, "w.bin", NULL, 64), ACL_ERROR_INVALID_PARAM, "devPtr");
    expect_fail(aclmdlSetExternalWeightAddress(h, "w.bin", mem, 0), ACL_ERROR_INVALID_PARAM, "32");
    expect_fail(aclmdlSetExternalWeightAddress(h, "w.bin", mem, 33), ACL_ERROR_INVALID_PARAM, "32");
    expect_ok(aclmdlSetExternalWeightAddress(h, "w.bin", mem, 64));
    expect_ok(aclmdlSetExternalWeightAddress(h, "dir/w.bin", mem, 32)); /* duplicates are kept */
    for (int i = 0; i < 10; ++i) {
        expect_ok(aclmdlSetExternalWeightAddress(h, "more.bin", mem, 128));
    }
    expect_ok(aclmdlDestroyConfigHandle(h));
}

static aclmdlConfigHandle *config(size_t type)
{
    aclmdlConfigHandle *h = aclmdlCreateConfigHandle();
    assert_non_null(h);
    if (type != 0) {
        expect_ok(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof(type)));
    }
    return h;
}

static void set_path(aclmdlConfigHandle *h, const char *path)
{
    expect_ok(aclmdlSetConfigOpt(h, ACL_MDL_PATH_PTR, &path, sizeof(path)));
}

static void set_mem(aclmdlConfigHandle *h, const void *addr, size_t size, bool with_size)
{
    expect_ok(aclmdlSetConfigOpt(h, ACL_MDL_MEM_ADDR_PTR, &addr, sizeof(addr)));
    if (with_size) {
        expect_ok(aclmdlSetConfigOpt(h, ACL_MDL_MEM_SIZET, &size, sizeof(size)));
    }
}

static void set_queues(aclmdlConfigHandle *h, size_t in_num, size_t out_num)
{
    static const uint32_t q[2] = {1, 2};
    const uint32_t *p = q;
    expect_ok(aclmdlSetConfigOpt(h, ACL_MDL_INPUTQ_ADDR_PTR, &p, sizeof(p)));
    expect_ok(aclmdlSetConfigOpt(h, ACL_MDL_INPUTQ_NUM_SIZET, &in_num, sizeof(in_num)));
    expect_ok(aclmdlSetConfigOpt(h, ACL_MDL_OUTPUTQ_ADDR_PTR, &p, sizeof(p)));
    expect_ok(aclmdlSetConfigOpt(h, ACL_MDL_OUTPUTQ_NUM_SIZET, &out_num, sizeof(out_num)));
}

/* aclmdlLoadWithConfig's routing and validation order; called before and after aclInit. */
static void load_with_config_checks(bool initialised)
{
    /* after aclInit the .om reader refuses the header-only file */
    const aclError last = initialised ? (aclError)ACL_ERROR_GE_PARAM_INVALID : (aclError)ACL_ERROR_GE_EXEC_NOT_INIT;
    const char *last_msg = NULL;
    uint32_t id = 0;
    expect_fail(aclmdlLoadWithConfig(NULL, &id), ACL_ERROR_INVALID_PARAM, "handle");

    /* routing first: neither a path nor memory */
    aclmdlConfigHandle *h = config(ACL_MDL_LOAD_FROM_FILE);
    expect_fail(aclmdlLoadWithConfig(h, &id), ACL_ERROR_INVALID_PARAM, "no valid model path");
    expect_fail(aclmdlLoadWithConfig(h, NULL), ACL_ERROR_INVALID_PARAM, "no valid model path");
    set_path(h, g_missing);
    expect_fail(aclmdlLoadWithConfig(h, NULL), ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID, NULL);
    set_path(h, g_zip);
    expect_fail(aclmdlLoadWithConfig(h, &id), ACL_ERROR_API_NOT_SUPPORT, "OM2");
    set_path(h, g_om);
    expect_fail(aclmdlLoadWithConfig(h, NULL), ACL_ERROR_INVALID_PARAM, "modelId");
    expect_fail(aclmdlLoadWithConfig(h, &id), last, last_msg);
    /* FROM_FILE must not carry a weight directory */
    const char *wdir = g_dir;
    expect_ok(aclmdlSetConfigOpt(h, ACL_MDL_WEIGHT_PATH_PTR, &wdir, sizeof(wdir)));
    expect_fail(aclmdlLoadWithConfig(h, &id), ACL_ERROR_INVALID_PARAM, "ACL_MDL_WEIGHT_PATH_PTR");
    aclmdlDestroyConfigHandle(h);

    /* load type never set */
    h = config(0);
    set_path(h, g_om);
    expect_fail(aclmdlLoadWithConfig(h, &id), ACL_ERROR_INVALID_PARAM, "load type");
    aclmdlDestroyConfigHandle(h);

    /* FROM_FILE_WITH_MEM without a path (routed through memory) */
    h = config(ACL_MDL_LOAD_FROM_FILE_WITH_MEM);
    set_mem(h, g_static_head, sizeof(g_static_head), true);
    expect_fail(aclmdlLoadWithConfig(h, &id), ACL_ERROR_INVALID_PARAM, "model path is not set");
    aclmdlDestroyConfigHandle(h);

    /* FROM_MEM: address and size needed */
    h = config(ACL_MDL_LOAD_FROM_MEM);
    set_mem(h, g_static_head, 0, false);
    expect_fail(aclmdlLoadWithConfig(h, &id), ACL_ERROR_INVALID_PARAM, "no valid model path");
    set_path(h, g_om); /* routed by the path, then the size is still missing */
    expect_fail(aclmdlLoadWithConfig(h, &id), ACL_ERROR_INVALID_PARAM, "model memory size is not set");
    aclmdlDestroyConfigHandle(h);
    h = config(ACL_MDL_LOAD_FROM_MEM_WITH_MEM);
    set_path(h, g_om);
    expect_fail(aclmdlLoadWithConfig(h, &id), ACL_ERROR_INVALID_PARAM, "model memory ptr is not set");
    aclmdlDestroyConfigHandle(h);
    h = config(ACL_MDL_LOAD_FROM_MEM);
    set_mem(h, g_static_head, 3, true);
    expect_fail(aclmdlLoadWithConfig(h, &id), ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID, NULL);
    set_mem(h, g_static_head, 100, true); /* shorter than an .om header */
    expect_fail(aclmdlLoadWithConfig(h, &id), ACL_ERROR_INVALID_PARAM, "256");
    set_mem(h, g_static_head, sizeof(g_static_head), true);
    expect_fail(aclmdlLoadWithConfig(h, &id), last, last_msg);
    /* a weight directory is fine from memory */
    expect_ok(aclmdlSetConfigOpt(h, ACL_MDL_WEIGHT_PATH_PTR, &wdir, sizeof(wdir)));
    expect_fail(aclmdlLoadWithConfig(h, &id), last, last_msg);
    /* without-graph is refused for a model that goes to the dynamic runtime */
    int32_t flag = 1;
    expect_ok(aclmdlSetConfigOpt(h, ACL_MDL_WITHOUT_GRAPH_INT32, &flag, sizeof(flag)));
    expect_fail(aclmdlLoadWithConfig(h, &id), last, last_msg);
    set_mem(h, g_dynamic_head, sizeof(g_dynamic_head), true);
    expect_fail(aclmdlLoadWithConfig(h, &id), ACL_ERROR_INVALID_PARAM, "ACL_MDL_WITHOUT_GRAPH_INT32");
    aclmdlDestroyConfigHandle(h);

    /* queue loads: all four queue attributes, non-empty */
    h = config(ACL_MDL_LOAD_FROM_FILE_WITH_Q);
    set_path(h, g_om);
    expect_fail(aclmdlLoadWithConfig(h, &id), ACL_ERROR_INVALID_PARAM, "ACL_MDL_INPUTQ_ADDR_PTR");
    set_queues(h, 0, 1);
    expect_fail(aclmdlLoadWithConfig(h, &id), ACL_ERROR_INVALID_PARAM, "inputQNum");
    set_queues(h, 1, 1);
    expect_fail(aclmdlLoadWithConfig(h, &id), last, last_msg);
    aclmdlDestroyConfigHandle(h);
    h = config(ACL_MDL_LOAD_FROM_MEM_WITH_Q);
    set_mem(h, g_static_head, sizeof(g_static_head), true);
    size_t one = 1;
    expect_ok(aclmdlSetConfigOpt(h, ACL_MDL_INPUTQ_NUM_SIZET, &one, sizeof(one)));
    expect_fail(aclmdlLoadWithConfig(h, &id), ACL_ERROR_INVALID_PARAM, "ACL_MDL_INPUTQ_ADDR_PTR");
    set_queues(h, 2, 0);
    expect_fail(aclmdlLoadWithConfig(h, &id), ACL_ERROR_INVALID_PARAM, "outputQNum");
    aclmdlDestroyConfigHandle(h);
}

static void load_with_config_before_init(void **state)
{
    (void)state;
    load_with_config_checks(false);
}

static void load_with_config_after_init(void **state)
{
    (void)state;
    load_with_config_checks(true);
}

/* ---- the load functions ---- */

static void load_argument_checks(void **state)
{
    (void)state;
    uint32_t id = 0;
    char work[64];
    const uint32_t q[1] = {0};

    expect_fail(aclmdlLoadFromFile(NULL, &id), ACL_ERROR_INVALID_PARAM, "modelPath");
    expect_fail(aclmdlLoadFromFile(g_missing, NULL), ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID, NULL);
    expect_fail(aclmdlLoadFromFile(g_tiny, &id), ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID, NULL);
    expect_fail(aclmdlLoadFromFile(g_zip, &id), ACL_ERROR_API_NOT_SUPPORT, "OM2");
    expect_fail(aclmdlLoadFromFile(g_om, NULL), ACL_ERROR_INVALID_PARAM, "modelId");
    expect_fail(aclmdlLoadFromFile(g_om, &id), ACL_ERROR_GE_PARAM_INVALID, NULL);

    expect_fail(aclmdlLoadFromFileWithMem(NULL, &id, work, 64, work, 64), ACL_ERROR_INVALID_PARAM, "modelPath");
    expect_fail(aclmdlLoadFromFileWithMem(g_om, NULL, work, 64, work, 64), ACL_ERROR_INVALID_PARAM, "modelId");
    expect_fail(aclmdlLoadFromFileWithMem(g_om, &id, NULL, 0, NULL, 0), ACL_ERROR_GE_PARAM_INVALID, NULL);

    expect_fail(aclmdlLoadFromMem(NULL, 10, &id), ACL_ERROR_INVALID_PARAM, NULL);
    expect_fail(aclmdlLoadFromMem(g_static_head, 0, &id), ACL_ERROR_INVALID_PARAM, NULL);
    expect_fail(aclmdlLoadFromMem(g_static_head, 2, &id), ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID, NULL);
    expect_fail(aclmdlLoadFromMem("PK\3\4", 4, &id), ACL_ERROR_API_NOT_SUPPORT, "OM2");
    expect_fail(aclmdlLoadFromMem(g_static_head, sizeof(g_static_head), NULL), ACL_ERROR_INVALID_PARAM, "modelId");
    expect_fail(aclmdlLoadFromMem(g_static_head, 255, &id), ACL_ERROR_INVALID_PARAM, "256");
    expect_fail(aclmdlLoadFromMem(g_static_head, sizeof(g_static_head), &id), ACL_ERROR_GE_PARAM_INVALID, NULL);
    expect_fail(aclmdlLoadFromMemWithMem(g_static_head, sizeof(g_static_head), &id, work, 64, NULL, 0),
                ACL_ERROR_GE_PARAM_INVALID, NULL);
    expect_fail(aclmdlLoadFromMemWithMem(NULL, 1, &id, work, 64, NULL, 0), ACL_ERROR_INVALID_PARAM, NULL);

    expect_fail(aclmdlLoadFromFileWithQ(g_om, &id, NULL, 1, q, 1), ACL_ERROR_INVALID_PARAM, "inputQ");
    expect_fail(aclmdlLoadFromFileWithQ(g_om, &id, q, 1, NULL, 1), ACL_ERROR_INVALID_PARAM, "outputQ");
    expect_fail(aclmdlLoadFromFileWithQ(g_om, &id, q, 0, q, 1), ACL_ERROR_INVALID_PARAM, "inputQNum");
    expect_fail(aclmdlLoadFromFileWithQ(g_om, NULL, q, 1, q, 1), ACL_ERROR_INVALID_PARAM, "modelId");
    expect_fail(aclmdlLoadFromFileWithQ(g_missing, &id, NULL, 0, NULL, 0), ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID,
                NULL);
    expect_fail(aclmdlLoadFromFileWithQ(g_om, &id, q, 1, q, 1), ACL_ERROR_GE_PARAM_INVALID, NULL);
    expect_fail(aclmdlLoadFromMemWithQ(g_static_head, sizeof(g_static_head), &id, q, 1, q, 0),
                ACL_ERROR_INVALID_PARAM, "outputQNum");
    expect_fail(aclmdlLoadFromMemWithQ(g_static_head, sizeof(g_static_head), &id, q, 1, q, 1),
                ACL_ERROR_GE_PARAM_INVALID, NULL);
}

/* ---- execution and per-model functions on ids that are not loaded ---- */

static void execute_argument_checks(void **state)
{
    (void)state;
    aclmdlDataset *in = aclmdlCreateDataset();
    aclmdlDataset *out = aclmdlCreateDataset();
    aclmdlExecConfigHandle *cfg = aclmdlCreateExecConfigHandle();

    expect_fail(aclmdlExecute(1, NULL, out), ACL_ERROR_INVALID_PARAM, "input");
    expect_fail(aclmdlExecute(1, in, NULL), ACL_ERROR_INVALID_PARAM, "output");
    expect_fail(aclmdlExecute(1, in, out), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, "model id[1]");
    expect_fail(aclmdlExecute(0, in, out), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);
    expect_fail(aclmdlExecuteAsync(1, NULL, out, NULL), ACL_ERROR_INVALID_PARAM, "input");
    expect_fail(aclmdlExecuteAsync(2147483648u, in, out, NULL), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);
    /* ExecuteV2 checks its configuration before anything else */
    expect_fail(aclmdlExecuteV2(1, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM, "handle");
    expect_fail(aclmdlExecuteV2(1, NULL, out, NULL, cfg), ACL_ERROR_INVALID_PARAM, "input");
    expect_fail(aclmdlExecuteV2(1, in, out, NULL, cfg), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);
    /* ExecuteAsyncV2: its configuration first too, then ExecuteAsync's checks */
    expect_fail(aclmdlExecuteAsyncV2(1, in, out, NULL, NULL), ACL_ERROR_INVALID_PARAM, "handle");
    expect_fail(aclmdlExecuteAsyncV2(1, NULL, out, NULL, cfg), ACL_ERROR_INVALID_PARAM, "input");
    expect_fail(aclmdlExecuteAsyncV2(1, in, NULL, NULL, cfg), ACL_ERROR_INVALID_PARAM, "output");
    expect_fail(aclmdlExecuteAsyncV2(1, in, out, NULL, cfg), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, "model id[1]");

    expect_fail(aclmdlUnload(1), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);
    expect_fail(aclmdlUnload(0), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);

    aclmdlAttrValue_t v = {.mdlPriority = 1};
    expect_fail(aclmdlSetAttribute(1, ACL_MDL_ATTR_PRIORITY_INT32, NULL), ACL_ERROR_INVALID_PARAM, "attrValue");
    expect_fail(aclmdlSetAttribute(1, (aclmdlAttr)1, &v), ACL_ERROR_INVALID_PARAM, "attr");
    v.mdlPriority = 8;
    expect_fail(aclmdlSetAttribute(1, ACL_MDL_ATTR_PRIORITY_INT32, &v), ACL_ERROR_INVALID_PARAM, "range");
    v.mdlPriority = 7;
    expect_fail(aclmdlSetAttribute(1, ACL_MDL_ATTR_PRIORITY_INT32, &v), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);
    expect_fail(aclmdlGetAttribute(1, ACL_MDL_ATTR_PRIORITY_INT32, NULL), ACL_ERROR_INVALID_PARAM, "attrValue");
    expect_fail(aclmdlGetAttribute(1, (aclmdlAttr)3, &v), ACL_ERROR_INVALID_PARAM, "attr");
    expect_fail(aclmdlGetAttribute(1, ACL_MDL_ATTR_PRIORITY_INT32, &v), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);

    aclmdlDestroyExecConfigHandle(cfg);
    aclmdlDestroyDataset(in);
    aclmdlDestroyDataset(out);
}

static void exec_config(void **state)
{
    (void)state;
    aclmdlExecConfigHandle *h = aclmdlCreateExecConfigHandle();
    assert_non_null(h);
    int32_t t = -1;
    expect_ok(aclmdlSetExecConfigOpt(h, ACL_MDL_STREAM_SYNC_TIMEOUT, &t, sizeof(t)));
    t = 1000;
    expect_ok(aclmdlSetExecConfigOpt(h, ACL_MDL_EVENT_SYNC_TIMEOUT, &t, sizeof(t)));
    t = INT32_MAX;
    expect_ok(aclmdlSetExecConfigOpt(h, ACL_MDL_STREAM_SYNC_TIMEOUT, &t, sizeof(t)));
    t = -2;
    expect_fail(aclmdlSetExecConfigOpt(h, ACL_MDL_STREAM_SYNC_TIMEOUT, &t, sizeof(t)), ACL_ERROR_INVALID_PARAM,
                "[-2]");
    expect_fail(aclmdlSetExecConfigOpt(h, ACL_MDL_EVENT_SYNC_TIMEOUT, &t, sizeof(t)), ACL_ERROR_INVALID_PARAM, NULL);
    int64_t t8 = 10;
    expect_fail(aclmdlSetExecConfigOpt(h, ACL_MDL_STREAM_SYNC_TIMEOUT, &t8, sizeof(t8)), ACL_ERROR_INVALID_PARAM,
                "valueSize");
    t = 10;
    for (int a = ACL_MDL_WORK_ADDR_PTR; a <= ACL_MDL_NPU_PERF_MODE; ++a) {
        expect_fail(aclmdlSetExecConfigOpt(h, (aclmdlExecConfigAttr)a, &t, sizeof(t)), ACL_ERROR_INVALID_PARAM,
                    "attr");
    }
    expect_fail(aclmdlSetExecConfigOpt(NULL, ACL_MDL_STREAM_SYNC_TIMEOUT, &t, sizeof(t)), ACL_ERROR_INVALID_PARAM,
                "handle");
    expect_fail(aclmdlSetExecConfigOpt(h, ACL_MDL_STREAM_SYNC_TIMEOUT, NULL, sizeof(t)), ACL_ERROR_INVALID_PARAM,
                "attrValue");
    expect_ok(aclmdlDestroyExecConfigHandle(h));
    expect_fail(aclmdlDestroyExecConfigHandle(NULL), ACL_ERROR_INVALID_PARAM, "handle");
}

static void dynamic_setters_without_model(void **state)
{
    (void)state;
    aclmdlDataset *ds = aclmdlCreateDataset();
    char small[2];
    char mem[16];
    aclDataBuffer *b_small = aclCreateDataBuffer(small, sizeof(small));
    aclDataBuffer *b_mem = aclCreateDataBuffer(mem, sizeof(mem));
    aclDataBuffer *b_null = aclCreateDataBuffer(NULL, 16);
    aclmdlAddDatasetBuffer(ds, b_small);
    aclmdlAddDatasetBuffer(ds, b_mem);
    aclmdlAddDatasetBuffer(ds, b_null);

    expect_fail(aclmdlSetDynamicBatchSize(1, NULL, 0, 1), ACL_ERROR_INVALID_PARAM, "dataset");
    expect_fail(aclmdlSetDynamicBatchSize(1, ds, 1, 0), ACL_ERROR_INVALID_PARAM, "batchSize");
    expect_fail(aclmdlSetDynamicBatchSize(1, ds, 3, 1), ACL_ERROR_INVALID_PARAM, "index[3]");
    expect_fail(aclmdlSetDynamicBatchSize(1, ds, 2, 1), ACL_ERROR_INVALID_PARAM, "addr");
    /* GE checks the buffer length before it looks the model up */
    expect_fail(aclmdlSetDynamicBatchSize(1, ds, 0, 1), ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID, NULL);
    expect_fail(aclmdlSetDynamicBatchSize(1, ds, 1, 1), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);

    expect_fail(aclmdlSetDynamicHWSize(1, NULL, 0, 1, 1), ACL_ERROR_INVALID_PARAM, "dataset");
    expect_fail(aclmdlSetDynamicHWSize(1, ds, 1, 0, 1), ACL_ERROR_INVALID_PARAM, "height");
    expect_fail(aclmdlSetDynamicHWSize(1, ds, 1, 1, 0), ACL_ERROR_INVALID_PARAM, "width");
    expect_fail(aclmdlSetDynamicHWSize(1, ds, 5, 1, 1), ACL_ERROR_INVALID_PARAM, "index[5]");
    expect_fail(aclmdlSetDynamicHWSize(1, ds, 2, 1, 1), ACL_ERROR_INVALID_PARAM, "addr");
    expect_fail(aclmdlSetDynamicHWSize(1, ds, 0, 1, 1), ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID, NULL);
    expect_fail(aclmdlSetDynamicHWSize(1, ds, 1, 1, 1), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);

    aclmdlIODims dims;
    memset(&dims, 0, sizeof(dims));
    expect_fail(aclmdlSetInputDynamicDims(1, NULL, 0, &dims), ACL_ERROR_INVALID_PARAM, "dataset");
    expect_fail(aclmdlSetInputDynamicDims(1, ds, 0, NULL), ACL_ERROR_INVALID_PARAM, "dims");
    expect_fail(aclmdlSetInputDynamicDims(1, ds, 1, &dims), ACL_ERROR_INVALID_PARAM, "dimCount");
    dims.dimCount = ACL_MAX_DIM_CNT + 1;
    expect_fail(aclmdlSetInputDynamicDims(1, ds, 1, &dims), ACL_ERROR_INVALID_PARAM, "dimCount");
    dims.dimCount = 2;
    expect_fail(aclmdlSetInputDynamicDims(1, ds, 9, &dims), ACL_ERROR_INVALID_PARAM, "index[9]");
    expect_fail(aclmdlSetInputDynamicDims(1, ds, 2, &dims), ACL_ERROR_INVALID_PARAM, "addr");
    expect_fail(aclmdlSetInputDynamicDims(1, ds, 0, &dims), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);

    aclDestroyDataBuffer(b_small);
    aclDestroyDataBuffer(b_mem);
    aclDestroyDataBuffer(b_null);
    aclmdlDestroyDataset(ds);
}

/* ---- AIPP parameter set ---- */

static void aipp_data_size(void **state)
{
    (void)state;
    size_t size = 0;
    expect_fail(aclmdlGetAippDataSize(1, NULL), ACL_ERROR_INVALID_PARAM, "size");
    expect_fail(aclmdlGetAippDataSize(0, &size), ACL_ERROR_INVALID_PARAM, "batchSize");
    expect_ok(aclmdlGetAippDataSize(1, &size));
    assert_int_equal(size, 160);
    expect_ok(aclmdlGetAippDataSize(3, &size));
    assert_int_equal(size, 64 + 3 * 96);
    expect_fail(aclmdlGetAippDataSize(UINT64_MAX / 2, &size), ACL_ERROR_FAILURE, "overflows");
}

static void aipp_setters(void **state)
{
    (void)state;
    assert_null(aclmdlCreateAIPP(0));
    assert_non_null(aclGetRecentErrMsg());
    assert_null(aclmdlCreateAIPP(UINT64_MAX));
    assert_non_null(aclGetRecentErrMsg());
    expect_fail(aclmdlDestroyAIPP(NULL), ACL_ERROR_INVALID_PARAM, "aippParmsSet");
    aclmdlAIPP *a = aclmdlCreateAIPP(2);
    assert_non_null(a);

    expect_fail(aclmdlSetAIPPInputFormat(NULL, ACL_YUV420SP_U8), ACL_ERROR_INVALID_PARAM, "aippParmsSet");
    for (int f = ACL_YUV420SP_U8; f <= ACL_RAW24; ++f) {
        expect_ok(aclmdlSetAIPPInputFormat(a, (aclAippInputFormat)f));
    }
    expect_fail(aclmdlSetAIPPInputFormat(a, ACL_AIPP_RESERVED), ACL_ERROR_INVALID_PARAM, "inputFormat");
    expect_fail(aclmdlSetAIPPInputFormat(a, (aclAippInputFormat)0), ACL_ERROR_INVALID_PARAM, "inputFormat");

    expect_ok(aclmdlSetAIPPCscParams(a, 0, 32767, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)); /* off: unchecked */
    expect_ok(aclmdlSetAIPPCscParams(a, 1, 256, 0, 359, 256, -88, -183, 256, 454, 0, 0, 128, 128, 0, 128, 128));
    expect_fail(aclmdlSetAIPPCscParams(a, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), ACL_ERROR_INVALID_PARAM,
                "cscSwitch");
    expect_fail(aclmdlSetAIPPCscParams(a, 1, 32677, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
                ACL_ERROR_INVALID_PARAM, "cscMatrixR0C0");
    expect_fail(aclmdlSetAIPPCscParams(a, 1, 0, 0, 0, 0, 0, 0, 0, 0, -32678, 0, 0, 0, 0, 0, 0),
                ACL_ERROR_INVALID_PARAM, "cscMatrixR2C2");
    expect_fail(aclmdlSetAIPPCscParams(NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
                ACL_ERROR_INVALID_PARAM, NULL);

    expect_ok(aclmdlSetAIPPRbuvSwapSwitch(a, 1));
    expect_fail(aclmdlSetAIPPRbuvSwapSwitch(a, -1), ACL_ERROR_INVALID_PARAM, "rbuvSwapSwitch");
    expect_ok(aclmdlSetAIPPAxSwapSwitch(a, 0));
    expect_fail(aclmdlSetAIPPAxSwapSwitch(a, 2), ACL_ERROR_INVALID_PARAM, "axSwapSwitch");

    expect_ok(aclmdlSetAIPPSrcImageSize(a, 2, 1));
    expect_ok(aclmdlSetAIPPSrcImageSize(a, 4096, 4096));
    expect_fail(aclmdlSetAIPPSrcImageSize(a, 1, 10), ACL_ERROR_INVALID_PARAM, "srcImageSizeW");
    expect_fail(aclmdlSetAIPPSrcImageSize(a, 10, 0), ACL_ERROR_INVALID_PARAM, "srcImageSizeH");
    expect_fail(aclmdlSetAIPPSrcImageSize(a, 4097, 10), ACL_ERROR_INVALID_PARAM, "srcImageSizeW");

    expect_ok(aclmdlSetAIPPScfParams(a, 0, 0, 0, 0, 0, 1));
    expect_ok(aclmdlSetAIPPScfParams(a, 1, 16, 4096, 1920, 16, 0));
    expect_fail(aclmdlSetAIPPScfParams(a, 1, 16, 16, 1921, 16, 0), ACL_ERROR_INVALID_PARAM, "scfOutputSizeW");
    expect_fail(aclmdlSetAIPPScfParams(a, 1, 15, 16, 16, 16, 0), ACL_ERROR_INVALID_PARAM, "scfInputSizeW");
    expect_fail(aclmdlSetAIPPScfParams(a, 0, 0, 0, 0, 0, 2), ACL_ERROR_INVALID_PARAM, "batch_index");

    expect_ok(aclmdlSetAIPPCropParams(a, 1, 0, 4095, 1, 4096, 1));
    expect_fail(aclmdlSetAIPPCropParams(a, 1, 4096, 0, 1, 1, 1), ACL_ERROR_INVALID_PARAM, "cropStartPosW");
    expect_fail(aclmdlSetAIPPCropParams(a, 1, 0, 0, 0, 1, 1), ACL_ERROR_INVALID_PARAM, "cropSizeW");
    expect_fail(aclmdlSetAIPPCropParams(a, 3, 0, 0, 1, 1, 1), ACL_ERROR_INVALID_PARAM, "cropSwitch");
    expect_fail(aclmdlSetAIPPCropParams(a, 1, 0, 0, 1, 1, 5), ACL_ERROR_INVALID_PARAM, "batch_index");

    expect_ok(aclmdlSetAIPPPaddingParams(a, 1, 0, 32, 1, 2, 0));
    expect_fail(aclmdlSetAIPPPaddingParams(a, 1, 33, 0, 0, 0, 0), ACL_ERROR_INVALID_PARAM, "paddingSizeTop");
    expect_fail(aclmdlSetAIPPPaddingParams(a, 1, 0, 0, 0, -1, 0), ACL_ERROR_INVALID_PARAM, "paddingSizeRight");
    expect_ok(aclmdlSetAIPPPaddingParams(a, 0, 99, 99, 99, 99, 0)); /* off: unchecked */

    expect_ok(aclmdlSetAIPPDtcPixelMean(a, 0, 255, 104, 117, 1));
    expect_fail(aclmdlSetAIPPDtcPixelMean(a, 256, 0, 0, 0, 1), ACL_ERROR_INVALID_PARAM, "dtcPixelMeanChn0");
    expect_fail(aclmdlSetAIPPDtcPixelMean(a, 0, 0, 0, -1, 1), ACL_ERROR_INVALID_PARAM, "dtcPixelMeanChn3");
    expect_fail(aclmdlSetAIPPDtcPixelMean(a, 0, 0, 0, 0, 2), ACL_ERROR_INVALID_PARAM, "batch_index");

    expect_ok(aclmdlSetAIPPDtcPixelMin(a, 0.0f, 255.0f, 1.5f, 0.0f, 0));
    expect_fail(aclmdlSetAIPPDtcPixelMin(a, -0.5f, 0.0f, 0.0f, 0.0f, 0), ACL_ERROR_INVALID_PARAM, "dtcPixelMinChn0");
    expect_fail(aclmdlSetAIPPDtcPixelMin(a, 0.0f, 0.0f, 255.5f, 0.0f, 0), ACL_ERROR_INVALID_PARAM, "dtcPixelMinChn2");

    expect_ok(aclmdlSetAIPPPixelVarReci(a, 1.0f, -65504.0f, 65504.0f, 0.0039215f, 1));
    expect_fail(aclmdlSetAIPPPixelVarReci(a, 65505.0f, 1.0f, 1.0f, 1.0f, 1), ACL_ERROR_INVALID_PARAM,
                "dtcPixelVarReciChn0");
    expect_fail(aclmdlSetAIPPPixelVarReci(a, 1.0f, 1.0f, 1.0f, 1.0f, 2), ACL_ERROR_INVALID_PARAM, "batch_index");
    expect_fail(aclmdlSetAIPPPixelVarReci(NULL, 1.0f, 1.0f, 1.0f, 1.0f, 0), ACL_ERROR_INVALID_PARAM, NULL);

    expect_ok(aclmdlDestroyAIPP(a));
}

static void aipp_model_functions_without_model(void **state)
{
    (void)state;
    aclmdlAIPP *a = aclmdlCreateAIPP(1);
    aclmdlDataset *ds = aclmdlCreateDataset();
    aclmdlInputAippType type = ACL_DATA_WITH_STATIC_AIPP;
    size_t attached = 0;
    aclAippInfo *info = calloc(1, sizeof(*info));

    expect_fail(aclmdlSetInputAIPP(1, NULL, 0, a), ACL_ERROR_INVALID_PARAM, "dataset");
    expect_fail(aclmdlSetInputAIPP(1, ds, 0, NULL), ACL_ERROR_INVALID_PARAM, "aippParmsSet");
    expect_fail(aclmdlSetInputAIPP(1, ds, 0, a), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);
    expect_fail(aclmdlSetAIPPByInputIndex(1, ds, 0, NULL), ACL_ERROR_INVALID_PARAM, "aippParmsSet");
    expect_fail(aclmdlSetAIPPByInputIndex(1, NULL, 0, a), ACL_ERROR_INVALID_PARAM, "dataset");
    expect_fail(aclmdlSetAIPPByInputIndex(1, ds, 0, a), ACL_ERROR_INVALID_PARAM, "index"); /* empty dataset */
    expect_fail(aclmdlGetAippType(1, 0, &type, NULL), ACL_ERROR_INVALID_PARAM, "dynamicAttachedDataIndex");
    expect_fail(aclmdlGetAippType(1, 0, NULL, &attached), ACL_ERROR_INVALID_PARAM, "type");
    expect_fail(aclmdlGetAippType(1, 0, &type, &attached), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);
    expect_fail(aclmdlGetFirstAippInfo(1, 0, NULL), ACL_ERROR_INVALID_PARAM, "aippInfo");
    expect_fail(aclmdlGetFirstAippInfo(1, 0, info), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);

    free(info);
    aclmdlDestroyDataset(ds);
    aclmdlDestroyAIPP(a);
}

static int init_acl(void **state)
{
    (void)state;
    return aclInit(NULL) == ACL_SUCCESS ? 0 : -1;
}

static int fini_acl(void **state)
{
    (void)state;
    return aclFinalize() == ACL_SUCCESS ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest before[] = {
        cmocka_unit_test(dataset_buffers_and_descs),
        cmocka_unit_test(empty_desc_getters),
        cmocka_unit_test(before_init),
        cmocka_unit_test(load_with_config_before_init),
        cmocka_unit_test(set_config_opt_sizes_and_values),
        cmocka_unit_test(external_weight_address),
        cmocka_unit_test(exec_config),
        cmocka_unit_test(aipp_data_size),
        cmocka_unit_test(aipp_setters),
    };
    const struct CMUnitTest after[] = {
        cmocka_unit_test(desc_from_file_and_mem),
        cmocka_unit_test(load_with_config_after_init),
        cmocka_unit_test(load_argument_checks),
        cmocka_unit_test(execute_argument_checks),
        cmocka_unit_test(dynamic_setters_without_model),
        cmocka_unit_test(aipp_model_functions_without_model),
    };
    if (files_setup(NULL) != 0) {
        return 1;
    }
    int failed = cmocka_run_group_tests_name("acl_mdl before aclInit", before, NULL, NULL);
    failed += cmocka_run_group_tests_name("acl_mdl after aclInit", after, init_acl, fini_acl);
    files_teardown(NULL);
    return failed;
}

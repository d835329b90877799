/*
 * acl_mdl internals and the public functions on hand-built models:
 * model_info construction and queries (sizes, synthesized names,
 * `_dynamic_output_dims`), gear validation and encoding, the model table
 * (ids, references, unload while executing), descriptions of static /
 * batch / HW / dims / range models, the dynamic setters and
 * aclmdlGetCurOutputDims, execute and load dispatch through fake executors
 * and a fake reader, AIPP on a model with dynamic AIPP.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
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
#include "acl_base/tensor_desc.h"
#include "acl_mdl/gear.h"
#include "acl_mdl/mdl_internal.h"
#include "acl_mdl/model.h"
#include "acl_mdl/model_info.h"
#include "acl_mdl/model_reader.h"
#include "acl_rt/rt_stream.h"

static char g_last_msg[4096]; /* the message expect_fail read last */

static void expect_fail(aclError got, aclError want, const char *part)
{
    assert_int_equal(got, want);
    const char *m = aclGetRecentErrMsg();
    assert_non_null(m);
    snprintf(g_last_msg, sizeof g_last_msg, "%s", m);
    if (part != NULL && strstr(m, part) == NULL) {
        fail_msg("message [%s] does not mention [%s]", m, part);
    }
}

static void expect_st(oa_status got, oa_status want)
{
    assert_int_equal(got, want);
    if (want != OA_OK) {
        assert_non_null(aclGetRecentErrMsg());
    }
}

/* ---- model building helpers ---- */

#define DIMS(...) ((const int64_t[]){__VA_ARGS__}), (sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t))

static void add_in(oa_model_info *info, const char *name, aclDataType dt, aclFormat fmt, size_t size,
                   const int64_t *dims, size_t n)
{
    oa_model_tensor_spec s = {.name = name, .dtype = dt, .format = fmt, .size = size, .n_dims = n, .dims = dims};
    assert_int_equal(oa_model_info_add_input(info, &s, NULL), OA_OK);
}

static void add_out(oa_model_info *info, const char *name, aclDataType dt, aclFormat fmt, size_t size,
                    const int64_t *dims, size_t n)
{
    oa_model_tensor_spec s = {.name = name, .dtype = dt, .format = fmt, .size = size, .n_dims = n, .dims = dims};
    assert_int_equal(oa_model_info_add_output(info, &s, NULL), OA_OK);
}

static void set_gears(oa_model_info *info, int32_t type, size_t n, size_t len, const int64_t *flat)
{
    size_t lens[16];
    const int64_t *rows[16];
    for (size_t i = 0; i < n; ++i) {
        lens[i] = len;
        rows[i] = flat + i * len;
    }
    assert_int_equal(oa_model_info_set_gears(info, type, n, lens, rows), OA_OK);
}

static void add_shape(oa_model_info *info, const char *s)
{
    assert_int_equal(oa_model_info_add_output_shape(info, s, strlen(s)), OA_OK);
}

static oa_model_info *static_info(void)
{
    oa_model_info *info = oa_model_info_create();
    add_in(info, "data", ACL_FLOAT, ACL_FORMAT_NCHW, 602112, DIMS(1, 3, 224, 224));
    add_out(info, "prob:0:prob", ACL_FLOAT, ACL_FORMAT_ND, 4000, DIMS(1, 1000));
    return info;
}

static oa_model_info *batch_info(bool with_shapes)
{
    oa_model_info *info = oa_model_info_create();
    add_in(info, "data", ACL_FLOAT, ACL_FORMAT_NCHW, 8 * 602112, DIMS(-1, 3, 224, 224));
    add_in(info, ACL_DYNAMIC_TENSOR_NAME, ACL_INT32, ACL_FORMAT_ND, 4, DIMS(1));
    add_out(info, "out:0:out", ACL_FLOAT, ACL_FORMAT_ND, 32000, DIMS(8, 1000));
    const int64_t g[] = {1, 2, 4, 8};
    set_gears(info, 1, 4, 1, g);
    if (with_shapes) {
        add_shape(info, "0:0:1:1000");
        add_shape(info, "1:0:2:1000");
        add_shape(info, "2:0:4:1000");
        add_shape(info, "3:0:8:1000");
    }
    return info;
}

static oa_model_info *hw_info(void)
{
    oa_model_info *info = oa_model_info_create();
    add_in(info, "img", ACL_UINT8, ACL_FORMAT_NHWC, 448 * 448 * 3, DIMS(1, -1, -1, 3));
    add_in(info, ACL_DYNAMIC_TENSOR_NAME, ACL_INT32, ACL_FORMAT_ND, 8, DIMS(2));
    add_out(info, "o0", ACL_UINT8, ACL_FORMAT_NHWC, 448 * 448 * 3, DIMS(1, 448, 448, 3));
    add_out(info, "o1", ACL_FLOAT, ACL_FORMAT_ND, 40, DIMS(1, 10));
    const int64_t g[] = {224, 224, 448, 448};
    set_gears(info, 2, 2, 2, g);
    add_shape(info, "0:0:1:224:224:3");
    add_shape(info, "1:0:1:448:448:3");
    add_shape(info, "-1:1:1:10");
    return info;
}

static oa_model_info *dims_info(void)
{
    oa_model_info *info = oa_model_info_create();
    add_in(info, "a", ACL_FLOAT, ACL_FORMAT_ND, 24, DIMS(-1, 3));
    add_in(info, "b", ACL_FLOAT, ACL_FORMAT_ND, 64, DIMS(2, -1));
    add_in(info, ACL_DYNAMIC_TENSOR_NAME, ACL_INT32, ACL_FORMAT_ND, 8, DIMS(2));
    add_out(info, "y", ACL_FLOAT, ACL_FORMAT_ND, 64, DIMS(2, 8));
    const int64_t g[] = {1, 4, 2, 8};
    set_gears(info, 3, 2, 2, g);
    const char *order[] = {"a", "b"};
    assert_int_equal(oa_model_info_set_shape_order(info, 2, order), OA_OK);
    add_shape(info, "0:0:1:4");
    add_shape(info, "1:0:2:8");
    return info;
}

static oa_model_info *range_info(void)
{
    oa_model_info *info = oa_model_info_create();
    const oa_model_range r_x[] = {{1, 32}, {16, 16}};
    oa_model_tensor_spec x = {.name = "x", .dtype = ACL_FLOAT16, .format = ACL_FORMAT_ND, .size = 0, .n_dims = 2,
                              .dims = (const int64_t[]){-1, 16}, .n_ranges = 2, .ranges = r_x};
    assert_int_equal(oa_model_info_add_input(info, &x, NULL), OA_OK);
    const oa_model_range r_bad[] = {{1, 4}};
    oa_model_tensor_spec bad = {.name = "bad", .dtype = ACL_FLOAT, .format = ACL_FORMAT_ND, .size = 12, .n_dims = 2,
                                .dims = (const int64_t[]){-1, 3}, .n_ranges = 1, .ranges = r_bad};
    assert_int_equal(oa_model_info_add_input(info, &bad, NULL), OA_OK);
    const int64_t dims_v2[] = {1, 224, 224, 3};
    oa_model_tensor_spec v2 = {.name = "aipp_in", .dtype = ACL_UINT8, .format = ACL_FORMAT_NCHW, .size = 150528,
                               .n_dims = 4, .dims = (const int64_t[]){1, 3, 224, 224}, .n_dims_v2 = 4,
                               .dims_v2 = dims_v2};
    assert_int_equal(oa_model_info_add_input(info, &v2, NULL), OA_OK);
    const oa_model_range r_y[] = {{1, -1}};
    oa_model_tensor_spec y = {.name = "y", .dtype = ACL_FLOAT, .format = ACL_FORMAT_ND, .size = 0, .n_dims = 1,
                              .dims = (const int64_t[]){-1}, .n_ranges = 1, .ranges = r_y};
    assert_int_equal(oa_model_info_add_output(info, &y, NULL), OA_OK);
    add_out(info, "s", ACL_INT64, ACL_FORMAT_ND, 32, DIMS(4));
    return info;
}

static aclmdlDesc *desc_of(oa_model_info *info, uint32_t id)
{
    aclmdlDesc *d = aclmdlCreateDesc();
    oa_mdl_desc_fill(d, info, id);
    oa_model_info_release(info);
    return d;
}

/* ---- fake executors ---- */

typedef struct fake_state {
    int loads;
    int unloads;
    int executes;
    int async_executes;
    oa_status load_status;
    oa_model_load_args last_args;
    oa_model_run last_run;
    bool unload_inside_execute;
    int unloads_seen_inside;
    aclError unload_ret_inside;
    oa_model_gear notified;
} fake_state;

static fake_state g_fake;

static oa_status fake_load(oa_model *m, const oa_model_load_args *args)
{
    g_fake.loads++;
    g_fake.last_args = *args;
    if (g_fake.load_status != OA_OK) {
        return OA_FAIL(g_fake.load_status, "fake load failure");
    }
    m->exec = &g_fake;
    return OA_OK;
}

static void fake_unload(oa_model *m)
{
    assert_ptr_equal(m->exec, &g_fake);
    __atomic_add_fetch(&g_fake.unloads, 1, __ATOMIC_ACQ_REL);
}

static oa_status fake_execute(oa_model *m, const oa_model_run *run)
{
    g_fake.executes++;
    g_fake.last_run = *run;
    if (g_fake.unload_inside_execute) {
        /* another thread unloads the model meanwhile: the id goes, the model stays */
        g_fake.unload_ret_inside = aclmdlUnload(m->id);
        g_fake.unloads_seen_inside = __atomic_load_n(&g_fake.unloads, __ATOMIC_ACQUIRE);
        assert_non_null(m->info);
    }
    return OA_OK;
}

typedef struct async_task {
    oa_model *model;
    int *order;
    int *pos;
} async_task;

static int g_order[8];
static int g_order_pos;
static int g_async_gate; /* the queued task waits until the test opens it */

static oa_status async_run(void *args, const oa_task_exec *exec)
{
    (void)exec;
    async_task *t = args;
    while (__atomic_load_n(&g_async_gate, __ATOMIC_ACQUIRE) == 0) {
        usleep(1000);
    }
    t->order[(*t->pos)++] = __atomic_load_n(&g_fake.unloads, __ATOMIC_ACQUIRE) == 0 ? 1 : -1; /* 1: the model was still alive */
    return OA_OK;
}

static void async_release(void *args)
{
    async_task *t = args;
    oa_model_release(t->model);
}

static oa_status fake_execute_async(oa_model *m, const oa_model_run *run)
{
    g_fake.async_executes++;
    g_fake.last_run = *run;
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(run->stream, &s);
    if (st != OA_OK) {
        return st;
    }
    async_task t = {.model = oa_model_retain(m), .order = g_order, .pos = &g_order_pos};
    oa_task_desc d = {.kind = OA_TASK_KIND_MODEL, .run = async_run, .release = async_release, .args = &t,
                      .args_size = sizeof(t)};
    st = oa_stream_submit(s, &d, NULL);
    if (st != OA_OK) {
        oa_model_release(m);
    }
    oa_stream_release(s);
    return st;
}

static oa_status fake_set_gear(oa_model *m, const oa_model_gear *gear)
{
    (void)m;
    g_fake.notified = *gear;
    return OA_OK;
}

static const oa_model_exec_ops g_v1_ops = {
    .name = "fake-v1",
    .load = fake_load,
    .unload = fake_unload,
    .execute = fake_execute,
    .execute_async = fake_execute_async,
    .set_gear = fake_set_gear,
    .get_cur_output_dims = oa_model_cur_output_dims_default,
};

static const oa_model_exec_ops g_v2_ops = {
    .name = "fake-v2",
    .load = fake_load,
    .unload = fake_unload,
    .execute = fake_execute,
};

static const oa_model_exec_ops g_noexec_ops = {.name = "no-exec", .load = fake_load, .unload = fake_unload};

/* Publishes info (the caller's reference is handed over) as a loaded model. */
static uint32_t publish_with(oa_model_route route, oa_model_info *info, const oa_model_exec_ops *ops)
{
    oa_model *m = NULL;
    info->route = route;
    assert_int_equal(oa_model_create(route, info, ops, 0, &m), OA_OK);
    oa_model_info_release(info);
    m->exec = &g_fake;
    uint32_t id = 0;
    assert_int_equal(oa_model_publish(m, &id), OA_OK);
    return id;
}

static uint32_t publish(oa_model_route route, oa_model_info *info)
{
    return publish_with(route, info, route == OA_ROUTE_V1 ? &g_v1_ops : &g_v2_ops);
}

static void unload(uint32_t id)
{
    assert_int_equal(aclmdlUnload(id), ACL_SUCCESS);
}

/* ---- pure model_info queries ---- */

static void parse_output_shapes(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        size_t n;
        int64_t v[6];
    } cases[] = {
        {"0:0:1:1000", 4, {0, 0, 1, 1000}},
        {"1:0:4:1000", 4, {1, 0, 4, 1000}},
        {"-1:1:1:1", 4, {-1, 1, 1, 1}},
        {"", 1, {0}},
        {"7", 1, {7}},
        {"1::2", 3, {1, 0, 2}},
        {"2:1:", 3, {2, 1, 0}},
        {"3,-12,5", 3, {3, -12, 5}},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
        int64_t *v = NULL;
        size_t n = 0;
        assert_int_equal(oa_model_parse_output_shape(cases[i].s, strlen(cases[i].s), &v, &n), OA_OK);
        assert_int_equal(n, cases[i].n);
        assert_memory_equal(v, cases[i].v, n * sizeof(int64_t));
        free(v);
    }
}

static void gear_encoding(void **state)
{
    (void)state;
    oa_model_info *batch = batch_info(true);
    oa_model_info *hw = hw_info();
    oa_model_info *dims = dims_info();
    oa_model_info *stat = static_info();
    uint8_t buf[16];

    /* before the model lookup */
    expect_st(oa_gear_check_buffer(OA_DYNAMIC_BATCH, NULL, 8), OA_E_GE_DYN_INPUT_ADDR);
    expect_st(oa_gear_check_buffer(OA_DYNAMIC_BATCH, buf, 3), OA_E_GE_DYN_INPUT_LENGTH);
    expect_st(oa_gear_check_buffer(OA_DYNAMIC_BATCH, buf, 4), OA_OK);
    expect_st(oa_gear_check_buffer(OA_DYNAMIC_HW, buf, 7), OA_E_GE_DYN_INPUT_LENGTH);
    expect_st(oa_gear_check_buffer(OA_DYNAMIC_HW, buf, 8), OA_OK);
    expect_st(oa_gear_check_buffer(OA_DYNAMIC_DIMS, NULL, 8), OA_E_GE_DYN_INPUT_ADDR);
    expect_st(oa_gear_check_buffer(OA_DYNAMIC_DIMS, buf, 0), OA_OK);

    /* batch: select then encode with 4- or 8-byte elements */
    oa_model_gear g;
    uint64_t v = 4;
    expect_st(oa_gear_select(batch, OA_DYNAMIC_BATCH, &v, 1, &g), OA_OK);
    assert_int_equal(g.kind, OA_DYNAMIC_BATCH);
    assert_int_equal(g.n, 1);
    size_t nb = 0;
    memset(buf, 0xAA, sizeof(buf));
    expect_st(oa_gear_encode(&g, 4, buf, &nb), OA_OK);
    assert_int_equal(nb, 4);
    assert_memory_equal(buf, ((const uint8_t[]){4, 0, 0, 0}), 4);
    expect_st(oa_gear_encode(&g, 7, buf, &nb), OA_OK);
    assert_int_equal(nb, 4);
    expect_st(oa_gear_encode(&g, 8, buf, &nb), OA_OK);
    assert_int_equal(nb, 8);
    assert_memory_equal(buf, ((const uint8_t[]){4, 0, 0, 0, 0, 0, 0, 0}), 8);
    v = 3;
    expect_st(oa_gear_select(batch, OA_DYNAMIC_BATCH, &v, 1, &g), OA_E_GE_DYN_BATCH_SIZE);
    v = 1;
    expect_st(oa_gear_select(stat, OA_DYNAMIC_BATCH, &v, 1, &g), OA_E_GE_DYN_BATCH_SIZE); /* no gears */
    expect_st(oa_gear_select(hw, OA_DYNAMIC_BATCH, &v, 1, &g), OA_E_GE_DYN_BATCH_SIZE);   /* gears of 2 */

    /* HW: h then w */
    const uint64_t hw448[2] = {448, 448};
    const uint64_t hw_bad[2] = {448, 224};
    expect_st(oa_gear_select(hw, OA_DYNAMIC_HW, hw448, 2, &g), OA_OK);
    expect_st(oa_gear_encode(&g, 8, buf, &nb), OA_OK);
    assert_int_equal(nb, 8);
    assert_memory_equal(buf, ((const uint8_t[]){0xC0, 1, 0, 0, 0xC0, 1, 0, 0}), 8);
    expect_st(oa_gear_encode(&g, 15, buf, &nb), OA_OK);
    assert_int_equal(nb, 8);
    expect_st(oa_gear_encode(&g, 16, buf, &nb), OA_OK);
    assert_int_equal(nb, 16);
    assert_memory_equal(buf, ((const uint8_t[]){0xC0, 1, 0, 0, 0, 0, 0, 0, 0xC0, 1, 0, 0, 0, 0, 0, 0}), 16);
    expect_st(oa_gear_select(hw, OA_DYNAMIC_HW, hw_bad, 2, &g), OA_E_GE_DYN_BATCH_SIZE);
    expect_st(oa_gear_select(batch, OA_DYNAMIC_HW, hw448, 2, &g), OA_E_GE_DYN_BATCH_SIZE);

    /* dims: the request covers every dim of the ordered inputs; static positions must match */
    const uint64_t ok[4] = {2, 3, 2, 8};
    expect_st(oa_gear_select(dims, OA_DYNAMIC_DIMS, ok, 4, &g), OA_OK);
    assert_int_equal(g.kind, OA_DYNAMIC_DIMS);
    assert_int_equal(g.n, 2);
    assert_int_equal(g.v[0], 2);
    assert_int_equal(g.v[1], 8);
    expect_st(oa_gear_encode(&g, 7, buf, &nb), OA_E_GE_DYN_INPUT_LENGTH);
    expect_st(oa_gear_encode(&g, 8, buf, &nb), OA_OK);
    assert_int_equal(nb, 8);
    assert_memory_equal(buf, ((const uint8_t[]){2, 0, 0, 0, 8, 0, 0, 0}), 8);
    expect_st(oa_gear_encode(&g, 16, buf, &nb), OA_OK);
    assert_int_equal(nb, 16);
    const uint64_t static_mismatch[4] = {2, 5, 2, 8};
    expect_st(oa_gear_select(dims, OA_DYNAMIC_DIMS, static_mismatch, 4, &g), OA_E_GE_DYN_INPUT_LENGTH);
    expect_st(oa_gear_select(dims, OA_DYNAMIC_DIMS, ok, 3, &g), OA_E_GE_DYN_INPUT_LENGTH);
    const uint64_t unknown[4] = {3, 3, 2, 8};
    expect_st(oa_gear_select(dims, OA_DYNAMIC_DIMS, unknown, 4, &g), OA_E_GE_DYN_BATCH_SIZE);
    /* a static model has no ordered inputs: any dims request has the wrong length */
    expect_st(oa_gear_select(stat, OA_DYNAMIC_DIMS, ok, 1, &g), OA_E_GE_DYN_INPUT_LENGTH);
    /* a dims model whose gears have one value also accepts the batch setter, as GE */
    oa_model_info *one = oa_model_info_create();
    add_in(one, "a", ACL_FLOAT, ACL_FORMAT_ND, 16, DIMS(-1, 2));
    const int64_t g1[] = {1, 2};
    set_gears(one, 3, 2, 1, g1);
    v = 2;
    expect_st(oa_gear_select(one, OA_DYNAMIC_BATCH, &v, 1, &g), OA_OK);
    oa_model_info_release(one);

    oa_model_info_release(batch);
    oa_model_info_release(hw);
    oa_model_info_release(dims);
    oa_model_info_release(stat);
}

static void set_gears_rules(void **state)
{
    (void)state;
    oa_model_info *info = oa_model_info_create();
    const int64_t a[] = {1, 2};
    const int64_t b[] = {3};
    const int64_t c[] = {1, 2, 3};
    const int64_t *rows[] = {a, b};
    size_t lens[] = {2, 1};
    expect_st(oa_model_info_set_gears(info, 2, 2, lens, rows), OA_E_GE_FAILURE);
    expect_st(oa_model_info_set_gears(info, 3, 2, lens, rows), OA_E_GE_FAILURE);
    const int64_t *rows3[] = {c};
    size_t lens3[] = {3};
    expect_st(oa_model_info_set_gears(info, 1, 1, lens3, rows3), OA_E_GE_FAILURE); /* 3 values, not dims */
    expect_st(oa_model_info_set_gears(info, 3, 1, lens3, rows3), OA_OK);
    assert_int_equal(info->dynamic_kind, OA_DYNAMIC_DIMS);
    assert_int_equal(info->gear_len, 3);
    const int64_t *rows1[] = {b};
    size_t lens1[] = {1};
    expect_st(oa_model_info_set_gears(info, 0, 1, lens1, rows1), OA_OK);
    assert_int_equal(info->dynamic_kind, OA_DYNAMIC_BATCH);
    expect_st(oa_model_info_set_gears(info, 1, 0, NULL, NULL), OA_OK);
    assert_int_equal(info->dynamic_kind, OA_DYNAMIC_NONE);
    assert_int_equal(info->n_gears, 0);
    oa_model_info_release(info);
}

/* ---- descriptions ---- */

static void desc_static_model(void **state)
{
    (void)state;
    aclmdlDesc *d = desc_of(static_info(), 5);
    assert_int_equal(aclmdlGetNumInputs(d), 1);
    assert_int_equal(aclmdlGetNumOutputs(d), 1);
    assert_int_equal(aclmdlGetInputSizeByIndex(d, 0), 602112);
    assert_int_equal(aclmdlGetOutputSizeByIndex(d, 0), 4000);
    assert_int_equal(aclmdlGetInputSizeByIndex(d, 1), 0);
    (void)aclGetRecentErrMsg();
    assert_string_equal(aclmdlGetInputNameByIndex(d, 0), "data");
    assert_string_equal(aclmdlGetOutputNameByIndex(d, 0), "prob:0:prob");
    assert_int_equal(aclmdlGetInputFormat(d, 0), ACL_FORMAT_NCHW);
    assert_int_equal(aclmdlGetOutputFormat(d, 0), ACL_FORMAT_ND);
    assert_int_equal(aclmdlGetInputDataType(d, 0), ACL_FLOAT);
    assert_int_equal(aclmdlGetOutputDataType(d, 0), ACL_FLOAT);
    assert_int_equal(aclmdlGetOutputDataType(d, 1), ACL_DT_UNDEFINED);
    (void)aclGetRecentErrMsg();
    aclmdlIODims dims;
    assert_int_equal(aclmdlGetInputDims(d, 0, &dims), ACL_SUCCESS);
    assert_string_equal(dims.name, "data");
    assert_int_equal(dims.dimCount, 4);
    assert_int_equal(dims.dims[3], 224);
    assert_int_equal(aclmdlGetInputDimsV2(d, 0, &dims), ACL_SUCCESS);
    assert_int_equal(dims.dimCount, 4);
    assert_int_equal(dims.dims[1], 3);
    assert_int_equal(aclmdlGetOutputDims(d, 0, &dims), ACL_SUCCESS);
    assert_string_equal(dims.name, "prob:0:prob");
    assert_int_equal(dims.dimCount, 2);
    assert_int_equal(dims.dims[1], 1000);
    aclmdlIODimsRange range;
    assert_int_equal(aclmdlGetInputDimsRange(d, 0, &range), ACL_SUCCESS);
    assert_int_equal(range.rangeCount, 4);
    assert_int_equal(range.range[2][0], 224);
    assert_int_equal(range.range[2][1], 224);
    size_t idx = 9;
    assert_int_equal(aclmdlGetInputIndexByName(d, "data", &idx), ACL_SUCCESS);
    assert_int_equal(idx, 0);
    assert_int_equal(aclmdlGetOutputIndexByName(d, "prob:0:prob", &idx), ACL_SUCCESS);
    assert_int_equal(idx, 0);
    /* static models have no gear input (samples probe it): the code without a stale message,
     * so the next real error's message is its own */
    assert_int_equal(aclmdlGetInputIndexByName(d, ACL_DYNAMIC_TENSOR_NAME, &idx), ACL_ERROR_INVALID_PARAM);
    expect_fail(aclmdlGetOutputIndexByName(d, "data", &idx), ACL_ERROR_INVALID_PARAM, NULL);
    assert_null(strstr(g_last_msg, ACL_DYNAMIC_TENSOR_NAME));
    size_t gears = 5;
    assert_int_equal(aclmdlGetInputDynamicGearCount(d, (size_t)-1, &gears), ACL_SUCCESS);
    assert_int_equal(gears, 0);
    aclmdlBatch batch;
    assert_int_equal(aclmdlGetDynamicBatch(d, &batch), ACL_SUCCESS);
    assert_int_equal(batch.batchCount, 0);
    assert_string_equal(aclmdlGetTensorRealName(d, "data"), "data");
    assert_string_equal(aclmdlGetTensorRealName(d, "prob:0:prob"), "prob:0:prob");
    aclmdlDestroyDesc(d);
}

static void desc_batch_hw_dims_models(void **state)
{
    (void)state;
    aclmdlDesc *b = desc_of(batch_info(true), 6);
    aclmdlBatch batch;
    assert_int_equal(aclmdlGetDynamicBatch(b, &batch), ACL_SUCCESS);
    assert_int_equal(batch.batchCount, 4);
    assert_int_equal(batch.batch[0], 1);
    assert_int_equal(batch.batch[3], 8);
    aclmdlHW hw;
    assert_int_equal(aclmdlGetDynamicHW(b, 0, &hw), ACL_SUCCESS);
    assert_int_equal(hw.hwCount, 0);
    size_t gears = 9;
    assert_int_equal(aclmdlGetInputDynamicGearCount(b, (size_t)-1, &gears), ACL_SUCCESS);
    assert_int_equal(gears, 0);
    size_t idx = 0;
    assert_int_equal(aclmdlGetInputIndexByName(b, ACL_DYNAMIC_TENSOR_NAME, &idx), ACL_SUCCESS);
    assert_int_equal(idx, aclmdlGetNumInputs(b) - 1); /* the last input */
    assert_int_equal(aclmdlGetInputDataType(b, idx), ACL_INT32);
    assert_int_equal(aclmdlGetInputFormat(b, idx), ACL_FORMAT_ND);
    assert_int_equal(aclmdlGetInputSizeByIndex(b, idx), 4);
    assert_int_equal(aclmdlGetInputSizeByIndex(b, 0), 8 * 602112); /* the largest gear */
    aclmdlIODims dims;
    assert_int_equal(aclmdlGetInputDims(b, 0, &dims), ACL_SUCCESS);
    assert_int_equal(dims.dims[0], -1);
    assert_int_equal(aclmdlGetOutputDims(b, 0, &dims), ACL_SUCCESS);
    assert_int_equal(dims.dims[0], 8);
    aclmdlIODimsRange range;
    range.rangeCount = 7;
    assert_int_equal(aclmdlGetInputDimsRange(b, 99, &range), ACL_SUCCESS); /* gear models: no ranges, any index */
    assert_int_equal(range.rangeCount, 0);
    aclmdlDestroyDesc(b);

    aclmdlDesc *h = desc_of(hw_info(), 7);
    assert_int_equal(aclmdlGetDynamicHW(h, 5, &hw), ACL_SUCCESS);
    assert_int_equal(hw.hwCount, 2);
    assert_int_equal(hw.hw[0][0], 224);
    assert_int_equal(hw.hw[1][1], 448);
    assert_int_equal(aclmdlGetDynamicBatch(h, &batch), ACL_SUCCESS);
    assert_int_equal(batch.batchCount, 0);
    aclmdlDestroyDesc(h);

    aclmdlDesc *dd = desc_of(dims_info(), 8);
    assert_int_equal(aclmdlGetInputDynamicGearCount(dd, (size_t)-1, &gears), ACL_SUCCESS);
    assert_int_equal(gears, 2);
    aclmdlIODims all[2];
    memset(all, 0, sizeof(all));
    expect_fail(aclmdlGetInputDynamicDims(dd, (size_t)-1, all, 1), ACL_ERROR_INVALID_PARAM, "gear count");
    assert_int_equal(aclmdlGetInputDynamicDims(dd, (size_t)-1, all, 2), ACL_SUCCESS);
    assert_int_equal(all[0].dimCount, 4);
    assert_memory_equal(all[0].dims, ((const int64_t[]){1, 3, 2, 4}), 4 * sizeof(int64_t));
    assert_int_equal(all[1].dimCount, 4);
    assert_memory_equal(all[1].dims, ((const int64_t[]){2, 3, 2, 8}), 4 * sizeof(int64_t));
    assert_int_equal(aclmdlGetDynamicBatch(dd, &batch), ACL_SUCCESS);
    assert_int_equal(batch.batchCount, 0);
    aclmdlDestroyDesc(dd);
}

static void desc_range_model(void **state)
{
    (void)state;
    aclmdlDesc *d = desc_of(range_info(), 9);
    /* -1 dims with ranges: dtype size * product of range maxima */
    assert_int_equal(aclmdlGetInputSizeByIndex(d, 0), 2 * 32 * 16);
    assert_int_equal(aclmdlGetInputSizeByIndex(d, 1), 4 * 4); /* ranges count does not have to match here */
    assert_int_equal(aclmdlGetInputSizeByIndex(d, 2), 150528);
    assert_int_equal(aclmdlGetOutputSizeByIndex(d, 0), 0); /* unbounded */
    assert_int_equal(aclmdlGetOutputSizeByIndex(d, 1), 32);
    aclmdlIODimsRange range;
    assert_int_equal(aclmdlGetInputDimsRange(d, 0, &range), ACL_SUCCESS);
    assert_int_equal(range.rangeCount, 2);
    assert_int_equal(range.range[0][0], 1);
    assert_int_equal(range.range[0][1], 32);
    assert_int_equal(range.range[1][0], 16);
    expect_fail(aclmdlGetInputDimsRange(d, 1, &range), ACL_ERROR_INTERNAL_ERROR, "range count");
    expect_fail(aclmdlGetInputDimsRange(d, 3, &range), ACL_ERROR_INVALID_PARAM, "index");
    aclmdlIODims dims;
    assert_int_equal(aclmdlGetInputDimsV2(d, 2, &dims), ACL_SUCCESS);
    assert_memory_equal(dims.dims, ((const int64_t[]){1, 224, 224, 3}), 4 * sizeof(int64_t));
    assert_int_equal(aclmdlGetInputDims(d, 2, &dims), ACL_SUCCESS);
    assert_memory_equal(dims.dims, ((const int64_t[]){1, 3, 224, 224}), 4 * sizeof(int64_t));
    aclmdlDestroyDesc(d);

    /* more dims than aclmdlIODims holds */
    oa_model_info *big = oa_model_info_create();
    int64_t many[ACL_MAX_DIM_CNT + 1];
    for (size_t i = 0; i < ACL_MAX_DIM_CNT + 1; ++i) {
        many[i] = 1;
    }
    add_in(big, "wide", ACL_FLOAT, ACL_FORMAT_ND, 4, many, ACL_MAX_DIM_CNT + 1);
    d = desc_of(big, 10);
    dims.dimCount = 3;
    expect_fail(aclmdlGetInputDims(d, 0, &dims), ACL_ERROR_STORAGE_OVER_LIMIT, "128");
    assert_string_equal(dims.name, "wide"); /* the name is written first, as CANN */
    assert_int_equal(dims.dimCount, 3);
    expect_fail(aclmdlGetInputDimsRange(d, 0, &range), ACL_ERROR_INTERNAL_ERROR, NULL);
    aclmdlDestroyDesc(d);
}

static void long_tensor_names(void **state)
{
    (void)state;
    char long_in[200];
    char long_out[128];
    memset(long_in, 'i', sizeof(long_in) - 1);
    long_in[sizeof(long_in) - 1] = '\0';
    memset(long_out, 'o', sizeof(long_out) - 1); /* 127 bytes: still fits */
    long_out[sizeof(long_out) - 1] = '\0';
    char long_out2[129];
    memset(long_out2, 'p', sizeof(long_out2) - 1); /* 128 bytes: does not fit */
    long_out2[sizeof(long_out2) - 1] = '\0';

    oa_model_info *info = oa_model_info_create();
    add_in(info, long_in, ACL_FLOAT, ACL_FORMAT_ND, 4, DIMS(1));
    add_in(info, "acl_modelId_7_input_0", ACL_FLOAT, ACL_FORMAT_ND, 4, DIMS(1)); /* clashes with the synthesized name */
    add_in(info, "acl_modelId_7_input_0_a", ACL_FLOAT, ACL_FORMAT_ND, 4, DIMS(1));
    add_out(info, long_out, ACL_FLOAT, ACL_FORMAT_ND, 4, DIMS(1));
    add_out(info, long_out2, ACL_FLOAT, ACL_FORMAT_ND, 4, DIMS(1));
    aclmdlDesc *d = desc_of(info, 7);
    aclmdlIODims dims;
    assert_int_equal(aclmdlGetInputDims(d, 0, &dims), ACL_SUCCESS);
    assert_string_equal(dims.name, "acl_modelId_7_input_0_b");
    assert_int_equal(aclmdlGetInputDims(d, 1, &dims), ACL_SUCCESS);
    assert_string_equal(dims.name, "acl_modelId_7_input_0");
    assert_int_equal(aclmdlGetOutputDims(d, 0, &dims), ACL_SUCCESS);
    assert_string_equal(dims.name, long_out);
    assert_int_equal(aclmdlGetOutputDims(d, 1, &dims), ACL_SUCCESS);
    assert_string_equal(dims.name, "acl_modelId_7_output_1");
    /* the name getters always return the real names */
    assert_string_equal(aclmdlGetInputNameByIndex(d, 0), long_in);

    /* back to the real names */
    assert_string_equal(aclmdlGetTensorRealName(d, "acl_modelId_7_input_0_b"), long_in);
    assert_string_equal(aclmdlGetTensorRealName(d, "acl_modelId_7_input_0"), "acl_modelId_7_input_0"); /* real */
    assert_string_equal(aclmdlGetTensorRealName(d, "acl_modelId_7_output_1"), long_out2);
    assert_string_equal(aclmdlGetTensorRealName(d, "acl_modelId_7_output_0_zz"), long_out);
    assert_string_equal(aclmdlGetTensorRealName(d, long_in), long_in);
    assert_null(aclmdlGetTensorRealName(d, "acl_modelId_8_input_0"));      /* other model */
    assert_null(aclmdlGetTensorRealName(d, "acl_modelId_7_output_2"));     /* out of range */
    assert_null(aclmdlGetTensorRealName(d, "acl_modelId_7_inputs_0"));
    assert_null(aclmdlGetTensorRealName(d, "acl_modelId_7_input_x"));
    assert_null(aclmdlGetTensorRealName(d, "acl_modelId_x7_input_0"));
    assert_null(aclmdlGetTensorRealName(d, "acl_modelId_7_input_0_a_b")); /* 7 parts */
    assert_null(aclmdlGetTensorRealName(d, "acl_modelId_7_input"));
    assert_null(aclmdlGetTensorRealName(d, "xacl_modelId_7_input_0"));
    assert_null(aclmdlGetTensorRealName(d, "acl_modelId_99999999999999999999_input_0"));
    assert_non_null(aclGetRecentErrMsg());
    aclmdlDestroyDesc(d);

    /* every one-letter suffix taken: two letters */
    info = oa_model_info_create();
    add_in(info, long_in, ACL_FLOAT, ACL_FORMAT_ND, 4, DIMS(1));
    add_in(info, "acl_modelId_3_input_0", ACL_FLOAT, ACL_FORMAT_ND, 4, DIMS(1));
    for (char c = 'a'; c <= 'z'; ++c) {
        char n[64];
        snprintf(n, sizeof(n), "acl_modelId_3_input_0_%c", c);
        add_in(info, n, ACL_FLOAT, ACL_FORMAT_ND, 4, DIMS(1));
    }
    d = desc_of(info, 3);
    assert_int_equal(aclmdlGetInputDims(d, 0, &dims), ACL_SUCCESS);
    assert_string_equal(dims.name, "acl_modelId_3_input_0_aa");
    aclmdlDestroyDesc(d);
}

/* ---- the model table ---- */

static void table_ids_and_references(void **state)
{
    (void)state;
    const size_t before = oa_model_count();
    memset(&g_fake, 0, sizeof(g_fake));
    const uint32_t a = publish(OA_ROUTE_V1, static_info());
    const uint32_t b = publish(OA_ROUTE_V1, static_info());
    assert_true(a >= 1);
    assert_int_equal(b, a + 1);
    const uint32_t v2a = publish(OA_ROUTE_V2, static_info());
    const uint32_t v2b = publish(OA_ROUTE_V2, static_info());
    /* one counter for static and dynamic-shape models, in load order (CANN: 1, 2, 3, ...) */
    assert_int_equal(v2a, b + 1);
    assert_int_equal(v2b, v2a + 1);
    const uint32_t c = publish(OA_ROUTE_V1, static_info());
    assert_int_equal(c, v2b + 1);
    assert_int_equal(oa_model_count(), before + 5);

    oa_model *m = oa_model_acquire(a);
    assert_non_null(m);
    assert_int_equal(m->id, a);
    assert_int_equal(m->route, OA_ROUTE_V1);
    assert_null(oa_model_acquire(0));
    assert_null(oa_model_acquire(c + 100));
    unload(a);
    assert_int_equal(g_fake.unloads, 0); /* we still hold a reference */
    assert_null(oa_model_acquire(a));
    expect_fail(aclmdlUnload(a), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);
    oa_model_release(m);
    assert_int_equal(g_fake.unloads, 1);

    unload(b);
    unload(v2a);
    unload(v2b);
    unload(c);
    assert_int_equal(g_fake.unloads, 5);
    assert_int_equal(oa_model_count(), before);

    /* a model whose load failed is discarded without unload() */
    oa_model_info *info = static_info();
    assert_int_equal(oa_model_create(OA_ROUTE_V1, info, &g_v1_ops, 0, &m), OA_OK);
    oa_model_info_release(info);
    assert_int_equal(m->id, c + 1);
    oa_model_discard(m);
    assert_int_equal(g_fake.unloads, 5);
    assert_int_equal(publish(OA_ROUTE_V1, static_info()), c + 2); /* the failed load left a gap */
    unload(c + 2);
    info = static_info();
    expect_st(oa_model_create((oa_model_route)7, info, &g_v1_ops, 0, &m), OA_E_INTERNAL);
    oa_model_info_release(info);
}

/* V2 models answer without aclInit; V1 ones need GE's executor. */
static void desc_of_loaded_models_before_init(void **state)
{
    (void)state;
    const uint32_t v1 = publish(OA_ROUTE_V1, static_info());
    const uint32_t v2 = publish(OA_ROUTE_V2, batch_info(true));
    aclmdlDesc *d = aclmdlCreateDesc();
    expect_fail(aclmdlGetDesc(d, v1), ACL_ERROR_GE_EXEC_NOT_INIT, NULL);
    assert_int_equal(aclmdlGetNumInputs(d), 0); /* cleared */
    assert_int_equal(aclmdlGetDesc(d, v2), ACL_SUCCESS);
    assert_int_equal(aclmdlGetNumInputs(d), 2);
    assert_int_equal(d->model_id, v2);
    aclmdlIODims dims;
    expect_fail(aclmdlGetCurOutputDims(d, 0, &dims), ACL_ERROR_API_NOT_SUPPORT, NULL);
    aclmdlDataset *in = aclmdlCreateDataset();
    aclmdlDataset *out = aclmdlCreateDataset();
    memset(&g_fake, 0, sizeof(g_fake));
    assert_int_equal(aclmdlExecute(v2, in, out), ACL_SUCCESS); /* the dynamic runtime has no init check */
    assert_int_equal(g_fake.executes, 1);
    expect_fail(aclmdlExecute(v1, in, out), ACL_ERROR_GE_EXEC_NOT_INIT, NULL);
    aclmdlDestroyDataset(in);
    aclmdlDestroyDataset(out);
    aclmdlDestroyDesc(d);
    unload(v1);
    unload(v2);
}

/* ---- with aclInit ---- */

static void get_desc_and_cur_output_dims(void **state)
{
    (void)state;
    const uint32_t s = publish(OA_ROUTE_V1, static_info());
    aclmdlDesc *d = aclmdlCreateDesc();
    assert_int_equal(aclmdlGetDesc(d, s), ACL_SUCCESS);
    assert_int_equal(aclmdlGetNumOutputs(d), 1);
    aclmdlIODims dims;
    assert_int_equal(aclmdlGetCurOutputDims(d, 0, &dims), ACL_SUCCESS); /* static: the output dims */
    assert_string_equal(dims.name, "prob:0:prob");
    assert_int_equal(dims.dimCount, 2);
    assert_int_equal(dims.dims[1], 1000);
    expect_fail(aclmdlGetCurOutputDims(d, 1, &dims), ACL_ERROR_INVALID_PARAM, "index");
    unload(s);
    expect_fail(aclmdlGetCurOutputDims(d, 0, &dims), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);
    assert_int_equal(aclmdlGetNumOutputs(d), 1); /* the description outlives the model */
    expect_fail(aclmdlGetDesc(d, s), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);
    assert_int_equal(aclmdlGetNumOutputs(d), 0);

    /* a model without an executor hook for it */
    const uint32_t n = publish_with(OA_ROUTE_V1, static_info(), &g_noexec_ops);
    assert_int_equal(aclmdlGetDesc(d, n), ACL_SUCCESS);
    expect_fail(aclmdlGetCurOutputDims(d, 0, &dims), ACL_ERROR_API_NOT_SUPPORT, "no-exec");
    aclmdlDataset *in = aclmdlCreateDataset();
    aclmdlDataset *out = aclmdlCreateDataset();
    expect_fail(aclmdlExecute(n, in, out), ACL_ERROR_API_NOT_SUPPORT, "aclmdlExecute is not supported yet");
    expect_fail(aclmdlExecuteAsync(n, in, out, NULL), ACL_ERROR_API_NOT_SUPPORT,
                "aclmdlExecuteAsync is not supported yet");
    aclmdlDestroyDataset(in);
    aclmdlDestroyDataset(out);
    unload(n);
    aclmdlDestroyDesc(d);
}

/* A device buffer for the gear (the setters copy host to device). */
static aclDataBuffer *dev_buffer(size_t size, void **mem)
{
    assert_int_equal(aclrtMalloc(mem, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    memset(*mem, 0xEE, size);
    return aclCreateDataBuffer(*mem, size);
}

static void dynamic_batch_and_hw(void **state)
{
    (void)state;
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    memset(&g_fake, 0, sizeof(g_fake));
    const uint32_t id = publish(OA_ROUTE_V1, batch_info(true));
    aclmdlDesc *d = aclmdlCreateDesc();
    assert_int_equal(aclmdlGetDesc(d, id), ACL_SUCCESS);
    aclmdlIODims dims;
    assert_int_equal(aclmdlGetCurOutputDims(d, 0, &dims), ACL_SUCCESS); /* no gear yet: the largest */
    assert_int_equal(dims.dims[0], 8);

    void *m4 = NULL;
    void *m8 = NULL;
    aclDataBuffer *b4 = dev_buffer(4, &m4);
    aclDataBuffer *b8 = dev_buffer(8, &m8);
    aclmdlDataset *ds = aclmdlCreateDataset();
    aclmdlAddDatasetBuffer(ds, b4);
    aclmdlAddDatasetBuffer(ds, b8);

    assert_int_equal(aclmdlSetDynamicBatchSize(id, ds, 0, 4), ACL_SUCCESS);
    assert_memory_equal(m4, ((const uint8_t[]){4, 0, 0, 0}), 4);
    assert_int_equal(ds->dynamic_batch, 4);
    assert_int_equal(g_fake.notified.kind, OA_DYNAMIC_BATCH);
    assert_int_equal(aclmdlGetCurOutputDims(d, 0, &dims), ACL_SUCCESS);
    assert_string_equal(dims.name, "out:0:out");
    assert_int_equal(dims.dimCount, 2);
    assert_int_equal(dims.dims[0], 4);
    assert_int_equal(dims.dims[1], 1000);
    assert_int_equal(aclmdlSetDynamicBatchSize(id, ds, 1, 2), ACL_SUCCESS);
    assert_memory_equal(m8, ((const uint8_t[]){2, 0, 0, 0, 0, 0, 0, 0}), 8);
    assert_int_equal(aclmdlGetCurOutputDims(d, 0, &dims), ACL_SUCCESS);
    assert_int_equal(dims.dims[0], 2);
    expect_fail(aclmdlSetDynamicBatchSize(id, ds, 1, 3), ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID, "gear");
    assert_int_equal(ds->dynamic_batch, 3); /* CANN records it in the dataset before GE validates */
    assert_int_equal(aclmdlGetCurOutputDims(d, 0, &dims), ACL_SUCCESS);
    assert_int_equal(dims.dims[0], 2); /* the model keeps the last valid gear */
    /* the HW setter on a batch model: no gear of two values */
    expect_fail(aclmdlSetDynamicHWSize(id, ds, 1, 2, 2), ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID, NULL);
    assert_int_equal(ds->dynamic_batch, 0);
    assert_int_equal(ds->dynamic_height, 2);
    unload(id);
    aclmdlDestroyDesc(d);

    /* a static model has no gear */
    const uint32_t st = publish(OA_ROUTE_V1, static_info());
    expect_fail(aclmdlSetDynamicBatchSize(st, ds, 1, 1), ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID, NULL);
    unload(st);

    /* a batch model with an incomplete `_dynamic_output_dims` */
    const uint32_t nb = publish(OA_ROUTE_V1, batch_info(false));
    d = aclmdlCreateDesc();
    assert_int_equal(aclmdlGetDesc(d, nb), ACL_SUCCESS);
    assert_int_equal(aclmdlSetDynamicBatchSize(nb, ds, 0, 8), ACL_SUCCESS);
    expect_fail(aclmdlGetCurOutputDims(d, 0, &dims), ACL_ERROR_FAILURE, "no dynamic output shape");
    unload(nb);
    aclmdlDestroyDesc(d);

    /* HW gears */
    const uint32_t hw = publish(OA_ROUTE_V1, hw_info());
    d = aclmdlCreateDesc();
    assert_int_equal(aclmdlGetDesc(d, hw), ACL_SUCCESS);
    void *m16 = NULL;
    aclDataBuffer *b16 = dev_buffer(16, &m16);
    aclmdlAddDatasetBuffer(ds, b16);
    expect_fail(aclmdlSetDynamicHWSize(hw, ds, 0, 448, 448), ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID, NULL);
    assert_int_equal(aclmdlSetDynamicHWSize(hw, ds, 1, 448, 448), ACL_SUCCESS);
    assert_memory_equal(m8, ((const uint8_t[]){0xC0, 1, 0, 0, 0xC0, 1, 0, 0}), 8);
    assert_int_equal(aclmdlSetDynamicHWSize(hw, ds, 2, 224, 224), ACL_SUCCESS);
    assert_memory_equal(m16, ((const uint8_t[]){224, 0, 0, 0, 0, 0, 0, 0, 224, 0, 0, 0, 0, 0, 0, 0}), 16);
    assert_int_equal(ds->dynamic_height, 224);
    assert_int_equal(ds->dynamic_width, 224);
    assert_int_equal(aclmdlGetCurOutputDims(d, 0, &dims), ACL_SUCCESS);
    assert_memory_equal(dims.dims, ((const int64_t[]){1, 224, 224, 3}), 4 * sizeof(int64_t));
    assert_int_equal(aclmdlGetCurOutputDims(d, 1, &dims), ACL_SUCCESS); /* "-1:1:..." applies to every gear */
    assert_int_equal(dims.dimCount, 2);
    assert_int_equal(dims.dims[1], 10);
    expect_fail(aclmdlSetDynamicHWSize(hw, ds, 2, 224, 448), ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID, NULL);
    expect_fail(aclmdlSetDynamicBatchSize(hw, ds, 2, 224), ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID, NULL);
    unload(hw);
    aclmdlDestroyDesc(d);

    /* dynamic-shape models are unknown to GE's gear setters */
    const uint32_t v2 = publish(OA_ROUTE_V2, batch_info(true));
    expect_fail(aclmdlSetDynamicBatchSize(v2, ds, 1, 1), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);
    unload(v2);

    aclmdlDestroyDataset(ds);
    aclDestroyDataBuffer(b4);
    aclDestroyDataBuffer(b8);
    aclDestroyDataBuffer(b16);
    aclrtFree(m4);
    aclrtFree(m8);
    aclrtFree(m16);
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
}

static void dynamic_dims(void **state)
{
    (void)state;
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    const uint32_t id = publish(OA_ROUTE_V1, dims_info());
    aclmdlDesc *d = aclmdlCreateDesc();
    assert_int_equal(aclmdlGetDesc(d, id), ACL_SUCCESS);
    void *m7 = NULL;
    void *m8 = NULL;
    void *m16 = NULL;
    aclDataBuffer *b7 = dev_buffer(7, &m7);
    aclDataBuffer *b8 = dev_buffer(8, &m8);
    aclDataBuffer *b16 = dev_buffer(16, &m16);
    aclmdlDataset *ds = aclmdlCreateDataset();
    aclmdlAddDatasetBuffer(ds, b7);
    aclmdlAddDatasetBuffer(ds, b8);
    aclmdlAddDatasetBuffer(ds, b16);

    aclmdlIODims req = {.dimCount = 4, .dims = {2, 3, 2, 8}};
    assert_int_equal(aclmdlSetInputDynamicDims(id, ds, 1, &req), ACL_SUCCESS);
    assert_memory_equal(m8, ((const uint8_t[]){2, 0, 0, 0, 8, 0, 0, 0}), 8);
    assert_int_equal(ds->n_dynamic_dims, 2);
    assert_int_equal(ds->dynamic_dims[1], 8);
    aclmdlIODims dims;
    assert_int_equal(aclmdlGetCurOutputDims(d, 0, &dims), ACL_SUCCESS);
    assert_string_equal(dims.name, "y");
    assert_memory_equal(dims.dims, ((const int64_t[]){2, 8}), 2 * sizeof(int64_t));

    aclmdlIODims req1 = {.dimCount = 4, .dims = {1, 3, 2, 4}};
    assert_int_equal(aclmdlSetInputDynamicDims(id, ds, 2, &req1), ACL_SUCCESS);
    assert_memory_equal(m16, ((const uint8_t[]){1, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0}), 16);
    assert_int_equal(aclmdlGetCurOutputDims(d, 0, &dims), ACL_SUCCESS);
    assert_memory_equal(dims.dims, ((const int64_t[]){1, 4}), 2 * sizeof(int64_t));

    /* a valid gear into a buffer too short: 145012, but GE already switched the model to that gear */
    expect_fail(aclmdlSetInputDynamicDims(id, ds, 0, &req), ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID, NULL);
    assert_int_equal(ds->n_dynamic_dims, 0);
    assert_int_equal(aclmdlGetCurOutputDims(d, 0, &dims), ACL_SUCCESS);
    assert_memory_equal(dims.dims, ((const int64_t[]){2, 8}), 2 * sizeof(int64_t));

    aclmdlIODims wrong_static = {.dimCount = 4, .dims = {2, 4, 2, 8}};
    expect_fail(aclmdlSetInputDynamicDims(id, ds, 1, &wrong_static), ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID,
                "static dims");
    aclmdlIODims wrong_count = {.dimCount = 3, .dims = {2, 3, 2}};
    expect_fail(aclmdlSetInputDynamicDims(id, ds, 1, &wrong_count), ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID, NULL);
    aclmdlIODims unknown = {.dimCount = 4, .dims = {4, 3, 2, 8}};
    expect_fail(aclmdlSetInputDynamicDims(id, ds, 1, &unknown), ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID, NULL);
    /* the batch setter needs gears of one value */
    expect_fail(aclmdlSetDynamicBatchSize(id, ds, 1, 2), ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID, NULL);
    unload(id);
    aclmdlDestroyDesc(d);

    /* a static model: no ordered inputs, so the request length never matches */
    const uint32_t st = publish(OA_ROUTE_V1, static_info());
    aclmdlIODims one = {.dimCount = 1, .dims = {1}};
    expect_fail(aclmdlSetInputDynamicDims(st, ds, 1, &one), ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID, NULL);
    unload(st);

    aclmdlDestroyDataset(ds);
    aclDestroyDataBuffer(b7);
    aclDestroyDataBuffer(b8);
    aclDestroyDataBuffer(b16);
    aclrtFree(m7);
    aclrtFree(m8);
    aclrtFree(m16);
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
}

static void execute_dispatch(void **state)
{
    (void)state;
    memset(&g_fake, 0, sizeof(g_fake));
    const uint32_t id = publish(OA_ROUTE_V1, static_info());
    aclmdlDataset *in = aclmdlCreateDataset();
    aclmdlDataset *out = aclmdlCreateDataset();
    char mem[8];
    aclDataBuffer *b = aclCreateDataBuffer(mem, sizeof(mem));
    aclmdlAddDatasetBuffer(in, b);
    aclmdlAddDatasetBuffer(out, b);

    assert_int_equal(aclmdlExecute(id, in, out), ACL_SUCCESS);
    assert_int_equal(g_fake.executes, 1);
    assert_ptr_equal(g_fake.last_run.input, in);
    assert_ptr_equal(g_fake.last_run.output, out);
    assert_null(g_fake.last_run.stream);
    assert_false(g_fake.last_run.async);
    assert_false(g_fake.last_run.v2_api);
    assert_int_equal(g_fake.last_run.stream_sync_timeout, -1);

    aclmdlExecConfigHandle *cfg = aclmdlCreateExecConfigHandle();
    int32_t t = 5000;
    aclmdlSetExecConfigOpt(cfg, ACL_MDL_STREAM_SYNC_TIMEOUT, &t, sizeof(t));
    t = 100;
    aclmdlSetExecConfigOpt(cfg, ACL_MDL_EVENT_SYNC_TIMEOUT, &t, sizeof(t));
    aclrtStream fake_stream = (aclrtStream)(uintptr_t)0x1234;
    assert_int_equal(aclmdlExecuteV2(id, in, out, fake_stream, cfg), ACL_SUCCESS);
    assert_true(g_fake.last_run.v2_api);
    assert_ptr_equal(g_fake.last_run.stream, fake_stream);
    assert_int_equal(g_fake.last_run.stream_sync_timeout, 5000);
    assert_int_equal(g_fake.last_run.event_sync_timeout, 100);
    /* ExecuteV2's timeouts stay in GE's context for later executions */
    assert_int_equal(aclmdlExecute(id, in, out), ACL_SUCCESS);
    assert_int_equal(g_fake.last_run.stream_sync_timeout, 5000);
    assert_int_equal(g_fake.last_run.event_sync_timeout, 100);
    t = -1;
    aclmdlSetExecConfigOpt(cfg, ACL_MDL_STREAM_SYNC_TIMEOUT, &t, sizeof(t));
    aclmdlSetExecConfigOpt(cfg, ACL_MDL_EVENT_SYNC_TIMEOUT, &t, sizeof(t));
    assert_int_equal(aclmdlExecuteV2(id, in, out, NULL, cfg), ACL_SUCCESS);
    int32_t s = 0;
    int32_t e = 0;
    oa_mdl_exec_timeouts(&s, &e);
    assert_int_equal(s, -1);
    assert_int_equal(e, -1);
    aclmdlDestroyExecConfigHandle(cfg);

    /* unloaded while executing: the id is gone at once, the model at the end of the call */
    g_fake.unload_inside_execute = true;
    assert_int_equal(aclmdlExecute(id, in, out), ACL_SUCCESS);
    g_fake.unload_inside_execute = false;
    assert_int_equal(g_fake.unload_ret_inside, ACL_SUCCESS);
    assert_int_equal(g_fake.unloads_seen_inside, 0);
    assert_int_equal(g_fake.unloads, 1);
    expect_fail(aclmdlExecute(id, in, out), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);
    expect_fail(aclmdlUnload(id), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);

    aclmdlDestroyDataset(in);
    aclmdlDestroyDataset(out);
    aclDestroyDataBuffer(b);
}

static void unload_during_async_execution(void **state)
{
    (void)state;
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = NULL;
    assert_int_equal(aclrtCreateStream(&stream), ACL_SUCCESS);
    memset(&g_fake, 0, sizeof(g_fake));
    g_order_pos = 0;
    __atomic_store_n(&g_async_gate, 0, __ATOMIC_RELEASE);
    const uint32_t id = publish(OA_ROUTE_V1, static_info());
    aclmdlDataset *in = aclmdlCreateDataset();
    aclmdlDataset *out = aclmdlCreateDataset();
    assert_int_equal(aclmdlExecuteAsync(id, in, out, stream), ACL_SUCCESS);
    assert_int_equal(g_fake.async_executes, 1);
    assert_true(g_fake.last_run.async);
    unload(id); /* the task queued on the stream still holds the model */
    assert_int_equal(__atomic_load_n(&g_fake.unloads, __ATOMIC_ACQUIRE), 0);
    __atomic_store_n(&g_async_gate, 1, __ATOMIC_RELEASE);
    assert_int_equal(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    assert_int_equal(g_order_pos, 1);
    assert_int_equal(g_order[0], 1); /* the task ran with the model alive */
    assert_int_equal(g_fake.unloads, 1); /* and the task's release dropped the last reference */
    aclmdlDestroyDataset(in);
    aclmdlDestroyDataset(out);
    assert_int_equal(aclrtDestroyStream(stream), ACL_SUCCESS);
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
}

/* aclmdlExecuteAsyncV2: aclmdlExecuteAsync's route with the exec config's timeouts; its argument checks. */
static void execute_async_v2(void **state)
{
    (void)state;
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = NULL;
    assert_int_equal(aclrtCreateStream(&stream), ACL_SUCCESS);
    memset(&g_fake, 0, sizeof(g_fake));
    g_order_pos = 0;
    __atomic_store_n(&g_async_gate, 1, __ATOMIC_RELEASE);
    const uint32_t id = publish(OA_ROUTE_V1, static_info());
    aclmdlDataset *in = aclmdlCreateDataset();
    aclmdlDataset *out = aclmdlCreateDataset();
    aclmdlExecConfigHandle *cfg = aclmdlCreateExecConfigHandle();
    int32_t t = 3000;
    assert_int_equal(aclmdlSetExecConfigOpt(cfg, ACL_MDL_STREAM_SYNC_TIMEOUT, &t, sizeof(t)), ACL_SUCCESS);
    t = 70;
    assert_int_equal(aclmdlSetExecConfigOpt(cfg, ACL_MDL_EVENT_SYNC_TIMEOUT, &t, sizeof(t)), ACL_SUCCESS);

    /* bad inputs, in CANN's order: the config, then the datasets, then the id */
    expect_fail(aclmdlExecuteAsyncV2(id, in, out, stream, NULL), ACL_ERROR_INVALID_PARAM, "handle");
    expect_fail(aclmdlExecuteAsyncV2(id, NULL, out, stream, cfg), ACL_ERROR_INVALID_PARAM, "input");
    expect_fail(aclmdlExecuteAsyncV2(id, in, NULL, stream, cfg), ACL_ERROR_INVALID_PARAM, "output");
    assert_int_equal(aclmdlAddDatasetBuffer(in, NULL), ACL_ERROR_INVALID_PARAM);
    expect_fail(aclmdlExecuteAsyncV2(id + 1000, in, out, stream, cfg), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);
    assert_int_equal(g_fake.async_executes, 0);
    assert_int_equal(g_fake.executes, 0);

    assert_int_equal(aclmdlExecuteAsyncV2(id, in, out, stream, cfg), ACL_SUCCESS);
    assert_int_equal(g_fake.async_executes, 1); /* the executor's asynchronous entry, never the synchronous one */
    assert_int_equal(g_fake.executes, 0);
    assert_true(g_fake.last_run.async);
    assert_true(g_fake.last_run.v2_api);
    assert_ptr_equal(g_fake.last_run.stream, stream);
    assert_ptr_equal(g_fake.last_run.input, in);
    assert_ptr_equal(g_fake.last_run.output, out);
    assert_int_equal(g_fake.last_run.stream_sync_timeout, 3000);
    assert_int_equal(g_fake.last_run.event_sync_timeout, 70);
    assert_int_equal(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    assert_int_equal(g_order_pos, 1);
    /* the config's timeouts reach the context as with aclmdlExecuteV2 */
    int32_t s = 0;
    int32_t e = 0;
    oa_mdl_exec_timeouts(&s, &e);
    assert_int_equal(s, 3000);
    assert_int_equal(e, 70);
    t = -1;
    aclmdlSetExecConfigOpt(cfg, ACL_MDL_STREAM_SYNC_TIMEOUT, &t, sizeof(t));
    aclmdlSetExecConfigOpt(cfg, ACL_MDL_EVENT_SYNC_TIMEOUT, &t, sizeof(t));
    assert_int_equal(aclmdlExecuteAsyncV2(id, in, out, stream, cfg), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    oa_mdl_exec_timeouts(&s, &e);
    assert_int_equal(s, -1);
    assert_int_equal(e, -1);
    unload(id);
    expect_fail(aclmdlExecuteAsyncV2(id, in, out, stream, cfg), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);

    /* an executor without an asynchronous entry */
    const uint32_t n = publish_with(OA_ROUTE_V1, static_info(), &g_noexec_ops);
    expect_fail(aclmdlExecuteAsyncV2(n, in, out, stream, cfg), ACL_ERROR_API_NOT_SUPPORT,
                "aclmdlExecuteAsyncV2 is not supported yet");
    unload(n);
    assert_int_equal(aclmdlDestroyExecConfigHandle(cfg), ACL_SUCCESS);
    aclmdlDestroyDataset(in);
    aclmdlDestroyDataset(out);
    assert_int_equal(aclrtDestroyStream(stream), ACL_SUCCESS);
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
}

/* ---- many threads executing while the model is unloaded ---- */

static int g_mt_running;
static int g_mt_executes;
static int g_mt_unloads;
static int g_mt_bad; /* executions seen after the model was destroyed */

static oa_status mt_execute(oa_model *m, const oa_model_run *run)
{
    (void)m;
    (void)run;
    __atomic_add_fetch(&g_mt_running, 1, __ATOMIC_ACQ_REL);
    if (__atomic_load_n(&g_mt_unloads, __ATOMIC_ACQUIRE) != 0) {
        __atomic_add_fetch(&g_mt_bad, 1, __ATOMIC_RELAXED);
    }
    __atomic_add_fetch(&g_mt_executes, 1, __ATOMIC_RELAXED);
    __atomic_sub_fetch(&g_mt_running, 1, __ATOMIC_ACQ_REL);
    return OA_OK;
}

static void mt_unload(oa_model *m)
{
    (void)m;
    if (__atomic_load_n(&g_mt_running, __ATOMIC_ACQUIRE) != 0) {
        __atomic_add_fetch(&g_mt_bad, 1, __ATOMIC_RELAXED);
    }
    __atomic_add_fetch(&g_mt_unloads, 1, __ATOMIC_ACQ_REL);
}

static const oa_model_exec_ops g_mt_ops = {.name = "mt", .unload = mt_unload, .execute = mt_execute};

typedef struct mt_arg {
    uint32_t id;
    aclmdlDataset *in;
    aclmdlDataset *out;
    int ok;
    int gone;
} mt_arg;

static void *mt_thread(void *p)
{
    mt_arg *a = p;
    for (int i = 0; i < 20000; ++i) {
        const aclError r = aclmdlExecute(a->id, a->in, a->out);
        if (r == ACL_SUCCESS) {
            a->ok++;
        } else if (r == (aclError)ACL_ERROR_GE_EXEC_MODEL_ID_INVALID) {
            a->gone++;
            (void)aclGetRecentErrMsg();
            break;
        } else {
            break;
        }
    }
    return NULL;
}

static void unload_while_threads_execute(void **state)
{
    (void)state;
    g_mt_executes = 0;
    g_mt_unloads = 0;
    g_mt_bad = 0;
    const uint32_t id = publish_with(OA_ROUTE_V1, static_info(), &g_mt_ops);
    aclmdlDataset *in = aclmdlCreateDataset();
    aclmdlDataset *out = aclmdlCreateDataset();
    enum { N = 4 };
    pthread_t th[N];
    mt_arg args[N];
    for (int i = 0; i < N; ++i) {
        args[i] = (mt_arg){.id = id, .in = in, .out = out};
        assert_int_equal(pthread_create(&th[i], NULL, mt_thread, &args[i]), 0);
    }
    while (__atomic_load_n(&g_mt_executes, __ATOMIC_RELAXED) < 1000) {
        sched_yield();
    }
    unload(id);
    int ok = 0;
    int gone = 0;
    for (int i = 0; i < N; ++i) {
        pthread_join(th[i], NULL);
        ok += args[i].ok;
        gone += args[i].gone;
    }
    assert_int_equal(g_mt_unloads, 1);
    assert_int_equal(g_mt_bad, 0);
    assert_int_equal(ok, g_mt_executes);
    assert_true(gone + ok >= 1000);
    aclmdlDestroyDataset(in);
    aclmdlDestroyDataset(out);
}

static void attributes(void **state)
{
    (void)state;
    const uint32_t id = publish(OA_ROUTE_V1, static_info());
    aclmdlAttrValue_t v;
    assert_int_equal(aclmdlGetAttribute(id, ACL_MDL_ATTR_PRIORITY_INT32, &v), ACL_SUCCESS);
    assert_int_equal(v.mdlPriority, 0);
    v.mdlPriority = 5;
    assert_int_equal(aclmdlSetAttribute(id, ACL_MDL_ATTR_PRIORITY_INT32, &v), ACL_SUCCESS);
    v.mdlPriority = 0;
    assert_int_equal(aclmdlGetAttribute(id, ACL_MDL_ATTR_PRIORITY_INT32, &v), ACL_SUCCESS);
    assert_int_equal(v.mdlPriority, 5);
    v.mdlPriority = 8;
    expect_fail(aclmdlSetAttribute(id, ACL_MDL_ATTR_PRIORITY_INT32, &v), ACL_ERROR_INVALID_PARAM, "range");
    unload(id);
    /* GE keeps priorities for static models only */
    const uint32_t v2 = publish(OA_ROUTE_V2, static_info());
    v.mdlPriority = 1;
    expect_fail(aclmdlSetAttribute(v2, ACL_MDL_ATTR_PRIORITY_INT32, &v), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);
    expect_fail(aclmdlGetAttribute(v2, ACL_MDL_ATTR_PRIORITY_INT32, &v), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);
    unload(v2);
}

static void op_attributes(void **state)
{
    (void)state;
    oa_model_info *info = static_info();
    const char *names[] = {"conv1", "bn1"};
    assert_int_equal(oa_model_info_add_op_attr(info, "fused_op", ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES, 2, names),
                     OA_OK);
    assert_int_equal(oa_model_info_add_op_attr(info, "empty_op", ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES, 0, NULL),
                     OA_OK);
    const uint32_t id = publish(OA_ROUTE_V1, info);
    aclmdlDesc *d = aclmdlCreateDesc();
    assert_int_equal(aclmdlGetDesc(d, id), ACL_SUCCESS);
    const char *v = aclmdlGetOpAttr(d, "fused_op", ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES);
    assert_non_null(v);
    assert_string_equal(v, "[5]conv1[3]bn1");
    assert_ptr_equal(aclmdlGetOpAttr(d, "fused_op", ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES), v); /* cached */
    assert_string_equal(aclmdlGetOpAttr(d, "empty_op", ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES), "");
    assert_string_equal(aclmdlGetOpAttr(d, "no_such_op", ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES), "");
    assert_null(aclmdlGetOpAttr(d, "fused_op", "_other"));
    (void)aclGetRecentErrMsg();
    unload(id);
    /* cached answers survive; new questions need the model */
    assert_ptr_equal(aclmdlGetOpAttr(d, "fused_op", ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES), v);
    assert_null(aclmdlGetOpAttr(d, "other_op", ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES));
    assert_non_null(aclGetRecentErrMsg());
    aclmdlDestroyDesc(d);
}

/* ---- the load pipeline with a fake reader ---- */

typedef struct fake_reader_state {
    int opens;
    int closes;
    oa_status fail;
    oa_model_source last;
} fake_reader_state;

static fake_reader_state g_reader;
static unsigned char g_head_static[512];
static unsigned char g_head_dynamic[512];

static oa_status fake_open(const oa_model_source *src, oa_model_image *img)
{
    g_reader.opens++;
    g_reader.last = *src;
    if (g_reader.fail != OA_OK) {
        return OA_FAIL(g_reader.fail, "fake reader refuses the model");
    }
    img->info = batch_info(true);
    if (src->data != NULL) {
        img->info->header_dynamic = oa_mdl_header_is_dynamic(src->data, src->size);
        img->bytes = src->data;
        img->size = src->size;
    }
    img->om = &g_reader;
    img->reader_state = &g_reader;
    return OA_OK;
}

static void fake_close(oa_model_image *img)
{
    assert_ptr_equal(img->reader_state, &g_reader);
    g_reader.closes++;
}

static const oa_model_reader g_fake_reader = {.open = fake_open, .close = fake_close};

static void put_u32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

static void load_pipeline(void **state)
{
    (void)state;
    put_u32(g_head_static, 0x444F4D49u);
    put_u32(g_head_static + 8, 0x20000000u);
    put_u32(g_head_static + 156, 1u);
    memcpy(g_head_dynamic, g_head_static, sizeof(g_head_static));
    g_head_dynamic[193] = 1; /* is_unknow_model */
    assert_false(oa_mdl_header_is_dynamic(g_head_static, sizeof(g_head_static)));
    assert_true(oa_mdl_header_is_dynamic(g_head_dynamic, sizeof(g_head_dynamic)));
    assert_false(oa_mdl_header_is_dynamic(g_head_dynamic, 255));

    memset(&g_fake, 0, sizeof(g_fake));
    memset(&g_reader, 0, sizeof(g_reader));
    uint32_t id = 0;
    /* a reader but no executor: not supported, reader closed */
    oa_model_reader_register(&g_fake_reader);
    oa_model_executor_register(OA_ROUTE_V1, NULL);
    oa_model_executor_register(OA_ROUTE_V2, NULL);
    expect_fail(aclmdlLoadFromMem(g_head_static, sizeof(g_head_static), &id), ACL_ERROR_API_NOT_SUPPORT,
                "aclmdlLoadFromMem is not supported yet");
    assert_int_equal(g_reader.opens, 1);
    assert_int_equal(g_reader.closes, 1);

    oa_model_executor_register(OA_ROUTE_V1, &g_v1_ops);
    oa_model_executor_register(OA_ROUTE_V2, &g_v2_ops);
    assert_int_equal(aclmdlLoadFromMem(g_head_static, sizeof(g_head_static), &id), ACL_SUCCESS);
    assert_true(id >= 1);
    const uint32_t static_id = id;
    assert_int_equal(g_fake.loads, 1);
    assert_null(g_fake.last_args.om_path);
    assert_ptr_equal(g_fake.last_args.image, g_head_static);
    assert_ptr_equal(g_fake.last_args.om, &g_reader);
    assert_int_equal(g_reader.closes, 2);
    aclmdlDesc *d = aclmdlCreateDesc();
    assert_int_equal(aclmdlGetDesc(d, id), ACL_SUCCESS);
    assert_int_equal(aclmdlGetNumInputs(d), 2);
    unload(id);

    /* dynamic header: the V2 executor and the next id of the same counter */
    uint32_t v2 = 0;
    assert_int_equal(aclmdlLoadFromMem(g_head_dynamic, sizeof(g_head_dynamic), &v2), ACL_SUCCESS);
    assert_int_equal(v2, static_id + 1);
    oa_model *m = oa_model_acquire(v2);
    assert_int_equal(m->route, OA_ROUTE_V2);
    assert_int_equal(m->info->route, OA_ROUTE_V2);
    oa_model_release(m);
    unload(v2);
    /* ENABLE_RUNTIME_V2=0 keeps dynamic models on V1 */
    setenv("ENABLE_RUNTIME_V2", "0", 1);
    assert_int_equal(aclmdlLoadFromMem(g_head_dynamic, sizeof(g_head_dynamic), &id), ACL_SUCCESS);
    assert_int_equal(id, v2 + 1);
    unload(id);
    unsetenv("ENABLE_RUNTIME_V2");

    /* load configuration reaches the executor */
    aclmdlConfigHandle *h = aclmdlCreateConfigHandle();
    size_t type = ACL_MDL_LOAD_FROM_MEM_WITH_MEM;
    const void *addr = g_head_static;
    size_t size = sizeof(g_head_static);
    char work[64];
    char weight[64];
    void *wp = work;
    void *wt = weight;
    size_t ws = sizeof(work);
    int32_t prio = 3;
    const char *wdir = "/tmp/weights";
    aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof(type));
    aclmdlSetConfigOpt(h, ACL_MDL_MEM_ADDR_PTR, &addr, sizeof(addr));
    aclmdlSetConfigOpt(h, ACL_MDL_MEM_SIZET, &size, sizeof(size));
    aclmdlSetConfigOpt(h, ACL_MDL_WORKSPACE_ADDR_PTR, &wp, sizeof(wp));
    aclmdlSetConfigOpt(h, ACL_MDL_WORKSPACE_SIZET, &ws, sizeof(ws));
    aclmdlSetConfigOpt(h, ACL_MDL_WEIGHT_ADDR_PTR, &wt, sizeof(wt));
    aclmdlSetConfigOpt(h, ACL_MDL_WEIGHT_SIZET, &ws, sizeof(ws));
    aclmdlSetConfigOpt(h, ACL_MDL_PRIORITY_INT32, &prio, sizeof(prio));
    aclmdlSetConfigOpt(h, ACL_MDL_WEIGHT_PATH_PTR, &wdir, sizeof(wdir));
    size_t one = 1;
    aclmdlSetConfigOpt(h, ACL_MDL_WORKSPACE_MEM_OPTIMIZE, &one, sizeof(one));
    char ext[64];
    aclmdlSetExternalWeightAddress(h, "w1.bin", ext, 64);
    aclmdlSetExternalWeightAddress(h, "w2.bin", ext, 32);
    assert_int_equal(aclmdlLoadWithConfig(h, &id), ACL_SUCCESS);
    assert_ptr_equal(g_fake.last_args.work_ptr, work);
    assert_int_equal(g_fake.last_args.work_size, sizeof(work));
    assert_ptr_equal(g_fake.last_args.weight_ptr, weight);
    assert_int_equal(g_fake.last_args.priority, 3);
    assert_true(g_fake.last_args.reuse_zero_copy);
    assert_string_equal(g_fake.last_args.weight_dir, "/tmp/weights");
    assert_int_equal(g_fake.last_args.n_ext_weights, 2);
    assert_string_equal(g_fake.last_args.ext_weights[1].file_name, "w2.bin");
    assert_int_equal(g_fake.last_args.ext_weights[1].size, 32);
    aclmdlAttrValue_t v;
    assert_int_equal(aclmdlGetAttribute(id, ACL_MDL_ATTR_PRIORITY_INT32, &v), ACL_SUCCESS);
    assert_int_equal(v.mdlPriority, 3);
    unload(id);
    /* FROM_MEM ignores the work / weight memory */
    type = ACL_MDL_LOAD_FROM_MEM;
    aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof(type));
    assert_int_equal(aclmdlLoadWithConfig(h, &id), ACL_SUCCESS);
    assert_null(g_fake.last_args.work_ptr);
    assert_null(g_fake.last_args.weight_ptr);
    unload(id);
    aclmdlDestroyConfigHandle(h);

    /* an executor failure is returned and nothing is published; the V1 id it took is gone */
    const size_t count = oa_model_count();
    g_fake.load_status = OA_E_GE_LOAD_MODEL;
    expect_fail(aclmdlLoadFromMem(g_head_static, sizeof(g_head_static), &id), ACL_ERROR_GE_LOAD_MODEL,
                "fake load failure");
    g_fake.load_status = OA_OK;
    assert_int_equal(oa_model_count(), count);
    uint32_t next = 0;
    assert_int_equal(aclmdlLoadFromMem(g_head_static, sizeof(g_head_static), &next), ACL_SUCCESS);
    unload(next);
    /* a reader failure is returned as is */
    g_reader.fail = OA_E_GE_PARAM;
    expect_fail(aclmdlLoadFromMem(g_head_static, sizeof(g_head_static), &id), ACL_ERROR_GE_PARAM_INVALID,
                "refuses");
    expect_fail(aclmdlGetDescFromMem(d, g_head_static, sizeof(g_head_static)), ACL_ERROR_GE_PARAM_INVALID, NULL);
    g_reader.fail = OA_OK;

    /* descriptions from memory go through the reader, with model id 0 */
    assert_int_equal(aclmdlGetDescFromMem(d, g_head_static, sizeof(g_head_static)), ACL_SUCCESS);
    assert_int_equal(aclmdlGetNumInputs(d), 2);
    assert_int_equal(d->model_id, 0);
    aclmdlIODims dims;
    expect_fail(aclmdlGetCurOutputDims(d, 0, &dims), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, NULL);

    aclmdlDestroyDesc(d);
    oa_model_reader_register(NULL);
    oa_model_executor_register(OA_ROUTE_V1, NULL);
    oa_model_executor_register(OA_ROUTE_V2, NULL);
    assert_int_equal(g_reader.opens, g_reader.closes + 2); /* the two refused opens kept nothing */
}

/* ---- AIPP on a model with dynamic AIPP ---- */

static oa_model_info *aipp_info(void)
{
    oa_model_info *info = oa_model_info_create();
    add_in(info, "data", ACL_FLOAT16, ACL_FORMAT_NCHW, 2 * 3 * 224 * 224, DIMS(1, 3, 224, 224));
    add_in(info, ACL_DYNAMIC_AIPP_NAME, ACL_UINT8, ACL_FORMAT_ND, 160, DIMS(160));
    add_in(info, "plain", ACL_FLOAT, ACL_FORMAT_ND, 4, DIMS(1));
    oa_model_io_dims in_dims = {.name = "data", .n_dims = 4, .dims = (int64_t[]){1, 3, 224, 224},
                                .size = 3 * 224 * 224};
    oa_model_io_dims out_dims = {.name = NULL, .n_dims = 4, .dims = (int64_t[]){1, 3, 224, 224},
                                 .size = 2 * 3 * 224 * 224};
    oa_model_aipp data = {.type = ACL_DATA_WITH_DYNAMIC_AIPP, .attached_index = 1, .has_config = false,
                          .src_format = ACL_FORMAT_NCHW, .src_dtype = ACL_UINT8, .src_dim_num = 4, .n_shapes = 1,
                          .in_dims = &in_dims, .out_dims = &out_dims};
    assert_int_equal(oa_model_info_set_aipp(info, 0, &data), OA_OK);
    oa_model_aipp node = {.type = ACL_DYNAMIC_AIPP_NODE, .attached_index = ACL_INVALID_NODE_INDEX, .has_config = true,
                          .n_shapes = 1, .in_dims = &in_dims, .out_dims = &out_dims, .src_format = ACL_FORMAT_NCHW};
    node.config.input_format = ACL_YUV420SP_U8;
    node.config.src_image_size_w = 224;
    node.config.src_image_size_h = 224;
    node.config.related_input_rank = 0;
    node.config.max_src_image_size = 224 * 224 * 3 / 2;
    node.config.matrix[4] = 7;
    node.config.var_reci_chn[2] = 0.5f;
    assert_int_equal(oa_model_info_set_aipp(info, 1, &node), OA_OK);
    return info;
}

static aclmdlAIPP *good_aipp(uint64_t batch)
{
    aclmdlAIPP *a = aclmdlCreateAIPP(batch);
    assert_int_equal(aclmdlSetAIPPInputFormat(a, ACL_YUV420SP_U8), ACL_SUCCESS);
    assert_int_equal(aclmdlSetAIPPSrcImageSize(a, 224, 224), ACL_SUCCESS);
    return a;
}

static void aipp_on_models(void **state)
{
    (void)state;
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    const uint32_t id = publish(OA_ROUTE_V1, aipp_info());
    void *m160 = NULL;
    void *m100 = NULL;
    aclDataBuffer *b160 = dev_buffer(160, &m160);
    aclDataBuffer *b100 = dev_buffer(100, &m100);
    aclmdlDataset *ds = aclmdlCreateDataset();
    aclmdlAddDatasetBuffer(ds, b100);
    aclmdlAddDatasetBuffer(ds, b160);
    aclmdlAddDatasetBuffer(ds, b100);

    aclmdlInputAippType type;
    size_t attached = 0;
    assert_int_equal(aclmdlGetAippType(id, 0, &type, &attached), ACL_SUCCESS);
    assert_int_equal(type, ACL_DATA_WITH_DYNAMIC_AIPP);
    assert_int_equal(attached, 1);
    assert_int_equal(aclmdlGetAippType(id, 1, &type, &attached), ACL_SUCCESS);
    assert_int_equal(type, ACL_DYNAMIC_AIPP_NODE);
    assert_int_equal(attached, ACL_INVALID_NODE_INDEX);
    assert_int_equal(aclmdlGetAippType(id, 2, &type, &attached), ACL_SUCCESS);
    assert_int_equal(type, ACL_DATA_WITHOUT_AIPP);
    assert_int_equal(attached, ACL_INVALID_NODE_INDEX);
    expect_fail(aclmdlGetAippType(id, 3, &type, &attached), ACL_ERROR_INVALID_PARAM, "index[3]");

    aclmdlAIPP *a = good_aipp(1);
    aclmdlSetAIPPDtcPixelMean(a, 104, 117, 123, 0, 0);
    aclmdlSetAIPPPixelVarReci(a, 0.5f, 1.0f, 1.0f, 1.0f, 0);
    assert_int_equal(aclmdlSetInputAIPP(id, ds, 1, a), ACL_SUCCESS);
    const uint8_t *p = m160;
    assert_int_equal(p[0], 1);                        /* CCE YUV420SP */
    assert_int_equal(p[4], 1);                        /* batch count */
    assert_memory_equal(p + 8, ((const uint8_t[]){224, 0, 0, 0, 224, 0, 0, 0}), 8);
    assert_memory_equal(p + 64 + 56, ((const uint8_t[]){104, 0, 117, 0, 123, 0, 0, 0}), 8);
    assert_memory_equal(p + 64 + 72, ((const uint8_t[]){0x00, 0x38, 0x00, 0x3C, 0x00, 0x3C, 0x00, 0x3C}), 8);
    /* the same through the data input */
    memset(m160, 0, 160);
    assert_int_equal(aclmdlSetAIPPByInputIndex(id, ds, 0, a), ACL_SUCCESS);
    assert_int_equal(p[0], 1);
    expect_fail(aclmdlSetAIPPByInputIndex(id, ds, 2, a), ACL_ERROR_FAILURE, "no dynamic aipp");
    /* only the AIPP data input takes parameters */
    expect_fail(aclmdlSetInputAIPP(id, ds, 0, a), ACL_ERROR_INVALID_PARAM, "not dynamic aipp data");
    expect_fail(aclmdlSetInputAIPP(id, ds, 2, a), ACL_ERROR_INVALID_PARAM, "not dynamic aipp index");
    expect_fail(aclmdlSetInputAIPP(id, ds, 5, a), ACL_ERROR_INVALID_PARAM, "index[5]");
    aclmdlDestroyAIPP(a);

    /* against the model: batch, output size, image size */
    a = good_aipp(2);
    expect_fail(aclmdlSetInputAIPP(id, ds, 1, a), ACL_ERROR_INVALID_PARAM, "max_src_image_size");
    aclmdlDestroyAIPP(a);
    a = good_aipp(1);
    aclmdlSetAIPPCropParams(a, 1, 0, 0, 112, 112, 0);
    expect_fail(aclmdlSetInputAIPP(id, ds, 1, a), ACL_ERROR_INVALID_PARAM, "aipp output shape");
    aclmdlSetAIPPPaddingParams(a, 1, 56, 56, 56, 56, 0); /* out of range: refused by the setter */
    (void)aclGetRecentErrMsg();
    aclmdlSetAIPPCropParams(a, 1, 2, 2, 192, 192, 0);
    aclmdlSetAIPPPaddingParams(a, 1, 16, 16, 16, 16, 0);
    assert_int_equal(aclmdlSetInputAIPP(id, ds, 1, a), ACL_SUCCESS); /* 192 + 32 = 224 */
    aclmdlSetAIPPCropParams(a, 1, 1, 2, 192, 192, 0);
    expect_fail(aclmdlSetInputAIPP(id, ds, 1, a), ACL_ERROR_INVALID_PARAM, "even");
    aclmdlDestroyAIPP(a);
    a = good_aipp(1);
    aclmdlSetAIPPScfParams(a, 1, 224, 224, 224, 224, 0);
    expect_fail(aclmdlSetInputAIPP(id, ds, 1, a), ACL_ERROR_INVALID_PARAM, "scf");
    aclmdlDestroyAIPP(a);
    a = good_aipp(1);
    aclmdlSetAIPPInputFormat(a, ACL_YUV400_U8);
    aclmdlSetAIPPCscParams(a, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    expect_fail(aclmdlSetInputAIPP(id, ds, 1, a), ACL_ERROR_INVALID_PARAM, "csc");
    aclmdlSetAIPPInputFormat(a, ACL_NC1HWC0DI_FP16);
    expect_fail(aclmdlSetInputAIPP(id, ds, 1, a), ACL_ERROR_INVALID_PARAM, "only support");
    aclmdlDestroyAIPP(a);
    /* an unknown SoC has no dynamic AIPP */
    a = good_aipp(1);
    setenv("OPENACL_SOC_VERSION", "Ascend035", 1);
    expect_fail(aclmdlSetInputAIPP(id, ds, 1, a), ACL_ERROR_INVALID_PARAM, "arch");
    unsetenv("OPENACL_SOC_VERSION");
    /* the buffer must hold 64 + 96 bytes */
    aclmdlDataset *small = aclmdlCreateDataset();
    aclmdlAddDatasetBuffer(small, b100);
    aclmdlAddDatasetBuffer(small, b100);
    expect_fail(aclmdlSetInputAIPP(id, small, 1, a), ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID, "160");
    aclmdlDestroyDataset(small);
    aclmdlDataset *empty = aclmdlCreateDataset();
    expect_fail(aclmdlSetInputAIPP(id, empty, 1, a), ACL_ERROR_INVALID_PARAM, "buffer");
    aclmdlDestroyDataset(empty);
    aclmdlDestroyAIPP(a);

    /* first AIPP info */
    aclAippInfo *info = calloc(1, sizeof(*info));
    expect_fail(aclmdlGetFirstAippInfo(id, 0, info), ACL_ERROR_GE_AIPP_NOT_EXIST, NULL);
    expect_fail(aclmdlGetFirstAippInfo(id, 2, info), ACL_ERROR_GE_AIPP_NOT_EXIST, NULL);
    assert_int_equal(aclmdlGetFirstAippInfo(id, 1, info), ACL_SUCCESS);
    assert_int_equal(info->inputFormat, ACL_YUV420SP_U8);
    assert_int_equal(info->srcImageSizeW, 224);
    assert_int_equal(info->matrixR1C1, 7);
    assert_true(info->varReciChn2 == 0.5f);
    assert_int_equal(info->shapeCount, 1);
    assert_int_equal(info->srcFormat, ACL_FORMAT_NCHW);
    assert_int_equal(info->outDims[0].srcDims.dimCount, 4);
    assert_string_equal(info->outDims[0].srcDims.name, "data");
    assert_int_equal(info->outDims[0].srcSize, 3 * 224 * 224);
    assert_int_equal(info->outDims[0].aippOutSize, 2 * 3 * 224 * 224);
    free(info);
    unload(id);

    /* a model without AIPP */
    const uint32_t st = publish(OA_ROUTE_V1, static_info());
    a = good_aipp(1);
    expect_fail(aclmdlSetInputAIPP(st, ds, 0, a), ACL_ERROR_INVALID_PARAM, "not a dynamic aipp model");
    assert_int_equal(aclmdlGetAippType(st, 0, &type, &attached), ACL_SUCCESS);
    assert_int_equal(type, ACL_DATA_WITHOUT_AIPP);
    expect_fail(aclmdlSetAIPPByInputIndex(st, ds, 0, a), ACL_ERROR_FAILURE, NULL);
    aclmdlDestroyAIPP(a);
    unload(st);

    aclmdlDestroyDataset(ds);
    aclDestroyDataBuffer(b160);
    aclDestroyDataBuffer(b100);
    aclrtFree(m160);
    aclrtFree(m100);
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
}

/* After aclFinalize GE's executor is gone again: V1 models answer 145001, unload still works. */
static void after_finalize(void **state)
{
    (void)state;
    assert_int_equal(aclInit(NULL), ACL_SUCCESS);
    const uint32_t id = publish(OA_ROUTE_V1, static_info());
    assert_int_equal(aclFinalize(), ACL_SUCCESS);
    aclmdlDesc *d = aclmdlCreateDesc();
    expect_fail(aclmdlGetDesc(d, id), ACL_ERROR_GE_EXEC_NOT_INIT, NULL);
    unload(id);
    aclmdlDestroyDesc(d);
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
    const struct CMUnitTest pure[] = {
        cmocka_unit_test(parse_output_shapes),
        cmocka_unit_test(gear_encoding),
        cmocka_unit_test(set_gears_rules),
        cmocka_unit_test(desc_static_model),
        cmocka_unit_test(desc_batch_hw_dims_models),
        cmocka_unit_test(desc_range_model),
        cmocka_unit_test(long_tensor_names),
        cmocka_unit_test(table_ids_and_references),
        cmocka_unit_test(desc_of_loaded_models_before_init),
    };
    const struct CMUnitTest initialised[] = {
        cmocka_unit_test(get_desc_and_cur_output_dims),
        cmocka_unit_test(dynamic_batch_and_hw),
        cmocka_unit_test(dynamic_dims),
        cmocka_unit_test(execute_dispatch),
        cmocka_unit_test(unload_during_async_execution),
        cmocka_unit_test(execute_async_v2),
        cmocka_unit_test(unload_while_threads_execute),
        cmocka_unit_test(attributes),
        cmocka_unit_test(op_attributes),
        cmocka_unit_test(load_pipeline),
        cmocka_unit_test(aipp_on_models),
    };
    const struct CMUnitTest finalized[] = {
        cmocka_unit_test(after_finalize),
    };
    int failed = cmocka_run_group_tests_name("acl_mdl model_info and table", pure, NULL, NULL);
    failed += cmocka_run_group_tests_name("acl_mdl with aclInit", initialised, init_acl, fini_acl);
    failed += cmocka_run_group_tests_name("acl_mdl after aclFinalize", finalized, NULL, NULL);
    return failed;
}

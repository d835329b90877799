/*
 * The dynamic executor through the public model API, on models built by
 * hand (IR -> .om in memory with the dynamic header bit), loaded with a
 * test reader that describes them from their own graph:
 *
 *   relu_add   x f32 [-1,4] (range [1,8] x [4,4]) -> Relu -> Add(c[4]) -> y
 *   if_model   cond bool [], x f32 [-1] -> If(then: Neg, else: Relu) -> y
 *   case_model idx i32 [], x f32 [-1] -> Case(Neg | Relu | Mul(x, 2)) -> y
 *   while_model i i32 [], acc f32 [-1] -> While(i < 5: i + 1, acc * 2) -> (i, acc)
 *   reshape_model x f32 [-1], shape i64 [2] -> Reshape (data-dependent) -> y
 *   nonzero_model x i32 [2,3] -> NonZero (output dim known after the kernel) -> y
 *
 * Covered: results and output descriptions per shape, the plan cache
 * (second run of a shape: no inference, no allocation), kernel operators
 * per signature, range / count / size errors with their codes, NULL
 * outputs, too-small outputs (nothing written past them), GetCurOutputDims,
 * output_reuse_input_mem_indexes, control flow, data-dependent shapes,
 * asynchronous execution on several streams and threads, the stream's
 * external allocator, and the RT2 helpers (range check, io-reuse parser).
 */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "support/log_capture.h"

#include "acl/acl.h"
#include "acl_mdl/model.h"
#include "acl_mdl/model_reader.h"
#include "base/error.h"
#include "file_constant/file_constant.h"
#include "graph/graph.h"
#include "graph/infer.h"
#include "model_v2/model_v2.h"
#include "om_ir/om_ir.h"
#include "om/om_model.h"

/* ---- the test reader: the description comes from the model's own graph ---- */

static oa_status reader_open(const oa_model_source *src, oa_model_image *img)
{
    const void *bytes = src->data;
    size_t size = src->size;
    void *file = NULL;
    if (bytes == NULL) {
        FILE *f = fopen(src->path, "rb");
        if (f == NULL) {
            return OA_FAIL(OA_E_GE_MODEL_PATH, "test reader: cannot open %s", src->path);
        }
        fseek(f, 0, SEEK_END);
        size = (size_t)ftell(f);
        fseek(f, 0, SEEK_SET);
        file = malloc(size);
        if (file == NULL || fread(file, 1, size, f) != size) {
            fclose(f);
            free(file);
            return OA_FAIL(OA_E_GE_MODEL_PATH, "test reader: cannot read %s", src->path);
        }
        fclose(f);
        bytes = file;
    }
    oa_om_model *om = NULL;
    oa_status st = oa_om_model_open_memory(bytes, size, OA_OM_OPEN_SKIP_TASK, &om);
    oa_graph *g = NULL;
    if (st == OA_OK) {
        st = oa_om_graph_from_model(om, 0, &g, NULL);
    }
    if (st != OA_OK) {
        return st;
    }
    oa_model_info *info = oa_model_info_create();
    for (int64_t i = 0; info != NULL && st == OA_OK; ++i) {
        const oa_node *d = oa_graph_input(g, i);
        if (d == NULL) {
            break;
        }
        const oa_tensor_desc *x = &d->outputs[0].desc;
        oa_model_range r[8];
        for (int32_t k = 0; x->has_range && k < x->shape.rank; ++k) {
            r[k].min = x->range_min[k];
            r[k].max = x->range_max[k];
        }
        oa_model_tensor_spec s = {.name = d->name,
                                  .dtype = (aclDataType)x->dtype,
                                  .format = ACL_FORMAT_ND,
                                  .n_dims = (size_t)x->shape.rank,
                                  .dims = x->shape.dims,
                                  .n_ranges = x->has_range ? (size_t)x->shape.rank : 0,
                                  .ranges = r};
        st = oa_model_info_add_input(info, &s, NULL);
    }
    const oa_node *no = oa_graph_output_node(g);
    for (uint32_t k = 0; info != NULL && no != NULL && k < no->num_inputs && st == OA_OK; ++k) {
        const oa_tensor_desc *y = &no->inputs[k].desc;
        char name[32];
        snprintf(name, sizeof name, "out%u", k);
        oa_model_range r[8]; /* the ranges the .om records (data-dependent dims: [0, bound]) */
        for (int32_t j = 0; y->has_range && j < y->shape.rank; ++j) {
            r[j].min = y->range_min[j];
            r[j].max = y->range_max[j];
        }
        oa_model_tensor_spec s = {.name = name,
                                  .dtype = (aclDataType)y->dtype,
                                  .format = ACL_FORMAT_ND,
                                  .n_dims = y->shape.rank > 0 ? (size_t)y->shape.rank : 0,
                                  .dims = y->shape.dims,
                                  .n_ranges = y->has_range && y->shape.rank > 0 ? (size_t)y->shape.rank : 0,
                                  .ranges = r};
        st = oa_model_info_add_output(info, &s, NULL);
    }
    oa_graph_destroy(g);
    if (info == NULL || st != OA_OK) {
        oa_model_info_release(info);
        free(file);
        return st != OA_OK ? st : OA_E_NOMEM;
    }
    info->header_dynamic = true;
    img->info = info;
    img->bytes = bytes;
    img->size = size;
    img->reader_state = file;
    return OA_OK;
}

static void reader_close(oa_model_image *img)
{
    free(img->reader_state);
}

static const oa_model_reader g_reader = {.open = reader_open, .close = reader_close};

static int setup(void **state)
{
    (void)state;
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
        return -1;
    }
    oa_model_reader_register(&g_reader);
    oa_model_v2_register();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    (void)aclrtResetDevice(0);
    (void)aclFinalize();
    return 0;
}

/* ---- graph helpers ---- */

static oa_node *data(oa_graph *g, const char *name, int64_t index, oa_dtype dt, int32_t rank, const int64_t *dims)
{
    oa_shape s = oa_shape_make(rank, dims);
    oa_node *n = NULL;
    assert_int_equal(oa_graph_add_data(g, name, index, dt, &s, OA_FORMAT_ND, &n), OA_OK);
    return n;
}

static oa_node *node1(oa_graph *g, oa_op_type t, const char *name, oa_node *a, oa_node *b)
{
    oa_node *n = NULL;
    assert_int_equal(oa_graph_add_node(g, t, name, b ? 2 : 1, 1, &n), OA_OK);
    assert_int_equal(oa_node_connect(n, 0, a, 0), OA_OK);
    if (b != NULL) {
        assert_int_equal(oa_node_connect(n, 1, b, 0), OA_OK);
    }
    return n;
}

static oa_node *konst(oa_graph *g, const char *name, oa_dtype dt, int32_t rank, const int64_t *dims, const void *v,
                      size_t bytes)
{
    oa_shape s = oa_shape_make(rank, dims);
    oa_tensor *t = NULL;
    assert_int_equal(oa_graph_make_tensor(g, dt, &s, v, bytes, &t), OA_OK);
    oa_node *n = NULL;
    assert_int_equal(oa_graph_add_const(g, name, t, &n), OA_OK);
    return n;
}

static void outputs(oa_graph *g, oa_node *const *srcs, const uint32_t *idx, uint32_t n)
{
    oa_node *o = NULL;
    assert_int_equal(oa_graph_add_net_output(g, "Node_Output", n, &o), OA_OK);
    for (uint32_t k = 0; k < n; ++k) {
        assert_int_equal(oa_node_connect(o, k, srcs[k], idx ? idx[k] : 0), OA_OK);
    }
}

/* A subgraph Data bound to owner input `parent`. */
static oa_node *sub_data(oa_graph *sg, const char *name, int64_t index, int64_t parent, oa_dtype dt, int32_t rank,
                         const int64_t *dims)
{
    oa_node *d = data(sg, name, index, dt, rank, dims);
    assert_int_equal(oa_node_set_int(d, "_parent_node_index", parent), OA_OK);
    return d;
}

static uint32_t load(oa_graph *g, const char *reuse)
{
    assert_int_equal(oa_graph_infer(g), OA_OK);
    oa_om_write_opts o;
    oa_om_write_opts_init(&o);
    o.unknown_shape = true;
    oa_attrs attrs = {0};
    if (reuse != NULL) {
        assert_int_equal(oa_attrs_set_str(g, &attrs, "output_reuse_input_mem_indexes", reuse), OA_OK);
        o.model_attrs = &attrs;
    }
    uint8_t *img = NULL;
    size_t len = 0;
    assert_int_equal(oa_om_write_graph_memory(g, &o, &img, &len), OA_OK);
    oa_graph_destroy(g);
    uint32_t id = 0;
    const aclError e = aclmdlLoadFromMem(img, len, &id);
    if (e != ACL_SUCCESS) {
        fprintf(stderr, "load: %d %s\n", e, aclGetRecentErrMsg());
    }
    assert_int_equal(e, ACL_SUCCESS);
    free(img); /* the executor keeps its own copy */
    assert_true(id >= 1u && id < 1000u); /* the one model counter (1, 2, 3, ...) */
    return id;
}

static oa_v2_stats stats(uint32_t id)
{
    oa_model *m = oa_model_acquire(id);
    assert_non_null(m);
    oa_v2_stats s;
    assert_true(oa_v2_model_stats(m, &s));
    oa_model_release(m);
    return s;
}

/* relu_add: x f32 [-1,4] (dim 0 in [1,8]) -> Relu -> Add(c) -> y */
static uint32_t load_relu_add(const char *reuse)
{
    oa_graph *g = NULL;
    assert_int_equal(oa_graph_create("relu_add", &g), OA_OK);
    oa_node *x = data(g, "x", 0, OA_DT_FLOAT, 2, (const int64_t[]){-1, 4});
    const int64_t lo[2] = {1, 4}, hi[2] = {8, 4};
    oa_shape s = oa_shape_make(2, (const int64_t[]){-1, 4});
    assert_int_equal(oa_graph_set_input_shape(x, &s, lo, hi), OA_OK);
    const float c[4] = {1, 2, 3, 4};
    oa_node *k = konst(g, "c", OA_DT_FLOAT, 1, (const int64_t[]){4}, c, sizeof c);
    oa_node *r = node1(g, OA_OP_RELU, "relu", x, NULL);
    oa_node *a = node1(g, OA_OP_ADD, "add", r, k);
    outputs(g, &a, NULL, 1);
    return load(g, reuse);
}

/* ---- datasets ---- */

typedef struct io {
    aclmdlDataset *ds;
    void *mem[4];
} io;

static io make_io(size_t n, const void *const *host, const size_t *bytes, const int64_t *const *dims,
                  const size_t *ndims, aclDataType *dt)
{
    io r = {.ds = aclmdlCreateDataset()};
    for (size_t i = 0; i < n; ++i) {
        r.mem[i] = NULL;
        if (bytes[i] > 0) {
            assert_int_equal(aclrtMalloc(&r.mem[i], bytes[i], ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
            if (host != NULL && host[i] != NULL) {
                memcpy(r.mem[i], host[i], bytes[i]);
            }
        }
        assert_int_equal(aclmdlAddDatasetBuffer(r.ds, aclCreateDataBuffer(r.mem[i], bytes[i])), ACL_SUCCESS);
        if (dims != NULL && dims[i] != NULL) {
            aclTensorDesc *td = aclCreateTensorDesc(dt ? dt[i] : ACL_FLOAT, (int)ndims[i], dims[i], ACL_FORMAT_ND);
            assert_int_equal(aclmdlSetDatasetTensorDesc(r.ds, td, i), ACL_SUCCESS);
            aclDestroyTensorDesc(td);
        }
    }
    return r;
}

static void free_io(io *r)
{
    for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(r->ds); ++i) {
        aclDataBuffer *b = aclmdlGetDatasetBuffer(r->ds, i);
        void *p = aclGetDataBufferAddr(b);
        if (p != NULL) {
            (void)aclrtFree(p);
        }
        aclDestroyDataBuffer(b);
    }
    aclmdlDestroyDataset(r->ds);
}

static void expect_dims(const aclmdlDataset *ds, size_t k, const int64_t *want, size_t n)
{
    aclTensorDesc *d = aclmdlGetDatasetTensorDesc(ds, k);
    assert_non_null(d);
    assert_int_equal(aclGetTensorDescNumDims(d), n);
    for (size_t i = 0; i < n; ++i) {
        int64_t v = -7;
        assert_int_equal(aclGetTensorDescDimV2(d, i, &v), ACL_SUCCESS);
        assert_int_equal(v, want[i]);
    }
}

/* Runs relu_add on rows x 4 values (x[i] = i - 5) and checks y. */
static void run_relu_add(uint32_t id, int64_t rows)
{
    float xin[32];
    for (int64_t i = 0; i < rows * 4; ++i) {
        xin[i] = (float)(i - 5);
    }
    const int64_t dims[2] = {rows, 4};
    const void *h[1] = {xin};
    const size_t b[1] = {(size_t)rows * 16};
    const int64_t *d[1] = {dims};
    const size_t nd[1] = {2};
    io in = make_io(1, h, b, d, nd, NULL);
    const size_t ob[1] = {8 * 16};
    io out = make_io(1, NULL, ob, NULL, NULL, NULL);
    assert_int_equal(aclmdlExecute(id, in.ds, out.ds), ACL_SUCCESS);
    expect_dims(out.ds, 0, dims, 2);
    const float *y = out.mem[0];
    for (int64_t i = 0; i < rows * 4; ++i) {
        const float want = (xin[i] > 0 ? xin[i] : 0) + (float)(i % 4 + 1);
        assert_true(y[i] == want);
    }
    free_io(&in);
    free_io(&out);
}

static void shapes_plans_and_operators(void **state)
{
    (void)state;
    const uint32_t id = load_relu_add(NULL);
    run_relu_add(id, 2);
    oa_v2_stats s1 = stats(id);
    assert_int_equal(s1.dynamic_runs, 1);
    assert_int_equal(s1.plans_recorded, 1);
    /* the same shape again: the plan, no inference, no allocation */
    run_relu_add(id, 2);
    oa_v2_stats s2 = stats(id);
    assert_int_equal(s2.plan_runs, 1);
    assert_int_equal(s2.dynamic_runs, 1);
    assert_int_equal(s2.infers, s1.infers);
    assert_int_equal(s2.allocs, s1.allocs);
    /* a new shape: the dynamic path once (new operators), then its plan */
    run_relu_add(id, 5);
    run_relu_add(id, 5);
    run_relu_add(id, 2);
    oa_v2_stats s3 = stats(id);
    assert_int_equal(s3.dynamic_runs, 2);
    assert_int_equal(s3.plan_runs, 3);
    assert_int_equal(s3.kop_creates, 2 * s1.kop_creates); /* one operator per node and signature */
    assert_int_equal(aclmdlUnload(id), ACL_SUCCESS);
}

/* relu_add on rows of 4096 values (1 .. 64 rows): its Relu result (16 KiB a row) lives in the plan's block */
static uint32_t load_relu_add_cols(int64_t cols)
{
    oa_graph *g = NULL;
    assert_int_equal(oa_graph_create("relu_add_wide", &g), OA_OK);
    oa_node *x = data(g, "x", 0, OA_DT_FLOAT, 2, (const int64_t[]){-1, cols});
    const int64_t lo[2] = {1, cols}, hi[2] = {64, cols};
    oa_shape s = oa_shape_make(2, (const int64_t[]){-1, cols});
    assert_int_equal(oa_graph_set_input_shape(x, &s, lo, hi), OA_OK);
    const float c[1] = {0.5f};
    oa_node *k = konst(g, "c", OA_DT_FLOAT, 1, (const int64_t[]){1}, c, sizeof c);
    oa_node *r = node1(g, OA_OP_RELU, "relu", x, NULL);
    oa_node *e = node1(g, OA_OP_EXP, "exp", r, NULL); /* a second intermediate beside the Relu result */
    oa_node *a = node1(g, OA_OP_ADD, "add", e, k);
    outputs(g, &a, NULL, 1);
    return load(g, NULL);
}

static uint32_t load_relu_add_wide(void)
{
    return load_relu_add_cols(4096);
}

static void run_relu_add_cols(uint32_t id, int64_t rows, int64_t cols)
{
    const size_t n = (size_t)(rows * cols);
    float *xin = malloc(n * sizeof(float));
    assert_non_null(xin);
    for (size_t i = 0; i < n; ++i) {
        xin[i] = (float)(i % 7) * 0.25f - 0.5f;
    }
    const int64_t dims[2] = {rows, cols};
    const void *h[1] = {xin};
    const size_t bytes[1] = {n * sizeof(float)};
    const int64_t *d[1] = {dims};
    const size_t nd[1] = {2};
    io in = make_io(1, h, bytes, d, nd, NULL);
    io out = make_io(1, NULL, bytes, NULL, NULL, NULL);
    assert_int_equal(aclmdlExecute(id, in.ds, out.ds), ACL_SUCCESS);
    const float *y = out.mem[0];
    for (size_t i = 0; i < n; ++i) {
        const float want = expf(xin[i] > 0 ? xin[i] : 0) + 0.5f;
        assert_true(fabsf(y[i] - want) <= 1e-5f * want);
    }
    free_io(&in);
    free_io(&out);
    free(xin);
}

static void run_relu_add_wide(uint32_t id, int64_t rows)
{
    run_relu_add_cols(id, rows, 4096);
}

/*
 * Plans of several input shapes on one executor run in one block, the largest plan's (v2_plan.c inst_bind): a
 * smaller shape's plan allocates nothing, a larger one replaces the block once, and every run's values stay right;
 * an element-wise op's output takes the memory of the input that dies at it (offer_in_place).
 */
static void plans_share_the_executors_block(void **state)
{
    (void)state;
    const uint32_t id = load_relu_add_wide();
    run_relu_add_wide(id, 16);
    run_relu_add_wide(id, 16); /* the first plan run: the block */
    const oa_v2_stats a = stats(id);
    assert_int_equal(a.plan_runs, 1);
    assert_int_equal(a.plan_blocks, 1);
    /* Exp writes over the Relu result it reads last (the Add writes the caller's output) */
    assert_int_equal(a.plan_inplace, 1);
    run_relu_add_wide(id, 2);
    run_relu_add_wide(id, 2);
    run_relu_add_wide(id, 16);
    const oa_v2_stats b = stats(id);
    assert_int_equal(b.plan_runs, 3);
    assert_int_equal(b.plan_blocks, 1); /* two shapes, one block */
    run_relu_add_wide(id, 64);
    run_relu_add_wide(id, 64);
    run_relu_add_wide(id, 2);
    run_relu_add_wide(id, 16);
    const oa_v2_stats c = stats(id);
    assert_int_equal(c.plan_runs, 6);
    assert_int_equal(c.plan_blocks, 2); /* grown once for the larger shape */
    assert_int_equal(aclmdlUnload(id), ACL_SUCCESS);
}

/*
 * Memory the executor outgrew leaves the process (docs/dynamic_models.md "Allocator"): the plan block of a smaller
 * shape when a larger one comes, and the dynamic path's tensors of earlier shapes, which no later run used; what
 * the last run used stays cached (running that shape again allocates nothing from the system).
 */
static void outgrown_memory_is_returned(void **state)
{
    (void)state;
    const int64_t cols = 1 << 16; /* 256 KiB a row: tensors of whole chunks of their own */
    const uint32_t id = load_relu_add_cols(cols);
    run_relu_add_cols(id, 8, cols);
    run_relu_add_cols(id, 8, cols); /* the plan block for 8 rows */
    const oa_v2_stats a = stats(id);
    run_relu_add_cols(id, 24, cols); /* the dynamic path: 6 MiB tensors; 8 rows' tensors were not used */
    const oa_v2_stats b = stats(id);
    assert_true(b.returned_chunks > a.returned_chunks);
    run_relu_add_cols(id, 24, cols); /* a larger plan block: the 8-row one goes back */
    const oa_v2_stats c = stats(id);
    assert_int_equal(c.plan_blocks, a.plan_blocks + 1);
    assert_true(c.returned_chunks > b.returned_chunks);
    run_relu_add_cols(id, 8, cols);  /* planned: in the 24-row block */
    run_relu_add_cols(id, 24, cols);
    const oa_v2_stats d = stats(id);
    assert_int_equal(d.plan_blocks, c.plan_blocks);
    assert_int_equal(d.returned_chunks, c.returned_chunks);
    assert_int_equal(aclmdlUnload(id), ACL_SUCCESS);
}

/*
 * Threads per plan (docs/runtime.md "Threads per operator"): a plan's first runs alternate between the pool and the
 * calling thread until it chooses; every run gives the same values. Run with OA_EXPECT_THREADS_LOG=1 (ctest
 * test_v2_model_threads: a pool of two, INFO lines on stdout), the plan must also have logged its choice.
 */
static void plan_runs_while_learning_threads(void **state)
{
    (void)state;
    const bool expect_log = getenv("OA_EXPECT_THREADS_LOG") != NULL;
    const uint32_t id = load_relu_add(NULL);
    oa_log_capture cap = {NULL, -1, -1};
    if (expect_log) { /* stdout (where the log goes) into a file while the model runs */
        cap = oa_log_capture_begin();
    }
    for (int r = 0; r < 60; r++) {
        run_relu_add(id, 5); /* checks every value */
    }
    if (expect_log) {
        assert_true(oa_log_capture_end(&cap, "[Run][Threads] the plan runs "));
    }
    assert_true(stats(id).plan_runs >= 59);
    assert_int_equal(aclmdlUnload(id), ACL_SUCCESS);
}

/*
 * OPENACL_V2_PROFILE (src/model_v2/README.md), set at load: at unload stderr holds one line per execute node (or plan
 * record) with its total time, its calls and its median call over the last 256; the totals add up to the header's.
 */
static void profile_table(void **state)
{
    (void)state;
    setenv("OPENACL_V2_PROFILE", "1", 1);
    const uint32_t id = load_relu_add(NULL);
    unsetenv("OPENACL_V2_PROFILE");
    for (int r = 0; r < 300; r++) {
        run_relu_add(id, 5);
    }
    oa_log_capture cap = oa_log_capture_fd(STDERR_FILENO);
    assert_int_equal(aclmdlUnload(id), ACL_SUCCESS);
    FILE *f = oa_log_capture_stop(&cap);
    char line[1024];
    double total = -1, listed = 0;
    unsigned model = 0;
    int nodes = -1, window = -1, lines = 0, with_median = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        double t, med;
        unsigned long long calls;
        if (strncmp(line, "model_v2 profile", 16) == 0) {
            assert_int_equal(sscanf(line, "model_v2 profile of model %u: %lf ms in %d execute nodes (per node: total, "
                                          "calls, median call over the last %d)",
                                    &model, &total, &nodes, &window),
                             4);
        } else if (sscanf(line, " %lf ms %llu x %lf ms", &t, &calls, &med) == 3) {
            assert_true(calls >= 1 && med >= 0 && med <= t + 0.0005);
            listed += t;
            with_median += med > 0;
            lines++;
        }
    }
    fclose(f);
    assert_int_equal(model, id);
    assert_int_equal(window, 256);
    assert_true(nodes >= 1 && lines == (nodes < 60 ? nodes : 60) && with_median >= 1);
    assert_true(nodes > 60 || fabs(listed - total) <= 0.0015 * lines); /* each printed to 0.001 ms */
}

static void input_shape_errors(void **state)
{
    (void)state;
    const uint32_t id = load_relu_add(NULL);
    float buf[64] = {0};
    const void *h[1] = {buf};
    const size_t nd[1] = {2};
    const size_t ob[1] = {256};
    io out = make_io(1, NULL, ob, NULL, NULL, NULL);
    /* outside the range [1, 8] */
    {
        const int64_t dims[2] = {9, 4};
        const int64_t *d[1] = {dims};
        const size_t b[1] = {9 * 16};
        io in = make_io(1, h, b, d, nd, NULL);
        assert_int_equal(aclmdlExecute(id, in.ds, out.ds), ACL_ERROR_INVALID_PARAM);
        assert_non_null(strstr(aclGetRecentErrMsg(), "outside the model's range"));
        free_io(&in);
    }
    /* dim count differs from the range count */
    {
        const int64_t dims[3] = {1, 4, 1};
        const int64_t *d[1] = {dims};
        const size_t b[1] = {16};
        const size_t nd3[1] = {3};
        io in = make_io(1, h, b, d, nd3, NULL);
        assert_int_equal(aclmdlExecute(id, in.ds, out.ds), ACL_ERROR_INVALID_PARAM);
        free_io(&in);
    }
    /* no shape given: the model's -1 stays unknown */
    {
        const size_t b[1] = {16};
        io in = make_io(1, h, b, NULL, NULL, NULL);
        assert_int_equal(aclmdlExecute(id, in.ds, out.ds), ACL_ERROR_INVALID_PARAM);
        assert_non_null(strstr(aclGetRecentErrMsg(), "aclmdlSetDatasetTensorDesc"));
        free_io(&in);
    }
    /* a buffer smaller than the shape */
    {
        const int64_t dims[2] = {4, 4};
        const int64_t *d[1] = {dims};
        const size_t b[1] = {60};
        io in = make_io(1, h, b, d, nd, NULL);
        assert_int_equal(aclmdlExecute(id, in.ds, out.ds), ACL_ERROR_INVALID_PARAM);
        free_io(&in);
    }
    /* too few input buffers; output count differs */
    {
        io in = {.ds = aclmdlCreateDataset()};
        assert_int_equal(aclmdlExecute(id, in.ds, out.ds), ACL_ERROR_INVALID_PARAM);
        aclmdlDestroyDataset(in.ds);
        const int64_t dims[2] = {1, 4};
        const int64_t *d[1] = {dims};
        const size_t b[1] = {16};
        io in1 = make_io(1, h, b, d, nd, NULL);
        io two = make_io(2, NULL, (const size_t[]){64, 64}, NULL, NULL, NULL);
        assert_int_equal(aclmdlExecute(id, in1.ds, two.ds), ACL_ERROR_INVALID_PARAM);
        /* extra input buffers are ignored */
        aclmdlDataset *more = in1.ds;
        void *extra = NULL;
        assert_int_equal(aclrtMalloc(&extra, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        assert_int_equal(aclmdlAddDatasetBuffer(more, aclCreateDataBuffer(extra, 64)), ACL_SUCCESS);
        assert_int_equal(aclmdlExecute(id, more, out.ds), ACL_SUCCESS);
        free_io(&in1);
        free_io(&two);
    }
    free_io(&out);
    assert_int_equal(aclmdlUnload(id), ACL_SUCCESS);
}

static void outputs_null_small_and_descs(void **state)
{
    (void)state;
    const uint32_t id = load_relu_add(NULL);
    float xin[12] = {0};
    const int64_t dims[2] = {3, 4};
    const void *h[1] = {xin};
    const size_t b[1] = {48};
    const int64_t *d[1] = {dims};
    const size_t nd[1] = {2};
    io in = make_io(1, h, b, d, nd, NULL);
    for (int pass = 0; pass < 2; ++pass) { /* dynamic path, then the plan */
        /* NULL output in a synchronous execution: allocated for the caller */
        aclmdlDataset *out = aclmdlCreateDataset();
        assert_int_equal(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(NULL, 0)), ACL_SUCCESS);
        assert_int_equal(aclmdlExecute(id, in.ds, out), ACL_SUCCESS);
        aclDataBuffer *ob = aclmdlGetDatasetBuffer(out, 0);
        assert_non_null(aclGetDataBufferAddr(ob));
        assert_int_equal(aclGetDataBufferSizeV2(ob), 48);
        assert_true(((const float *)aclGetDataBufferAddr(ob))[2] == 3.0f);
        expect_dims(out, 0, dims, 2);
        assert_int_equal(aclrtFree(aclGetDataBufferAddr(ob)), ACL_SUCCESS);
        aclDestroyDataBuffer(ob);
        aclmdlDestroyDataset(out);
        /* too small: a precise error, nothing written past the buffer */
        uint8_t *guard = NULL;
        assert_int_equal(aclrtMalloc((void **)&guard, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        memset(guard, 0xAB, 64);
        aclmdlDataset *small = aclmdlCreateDataset();
        assert_int_equal(aclmdlAddDatasetBuffer(small, aclCreateDataBuffer(guard, 40)), ACL_SUCCESS);
        assert_int_equal(aclmdlExecute(id, in.ds, small), ACL_ERROR_INVALID_PARAM);
        assert_non_null(strstr(aclGetRecentErrMsg(), "the result needs 48"));
        for (int i = 40; i < 64; ++i) {
            assert_int_equal(guard[i], 0xAB);
        }
        aclDestroyDataBuffer(aclmdlGetDatasetBuffer(small, 0));
        aclmdlDestroyDataset(small);
        assert_int_equal(aclrtFree(guard), ACL_SUCCESS);
    }
    /* RT2 models: aclmdlGetCurOutputDims is not supported */
    aclmdlDesc *desc = aclmdlCreateDesc();
    assert_int_equal(aclmdlGetDesc(desc, id), ACL_SUCCESS);
    aclmdlIODims cur;
    assert_int_equal(aclmdlGetCurOutputDims(desc, 0, &cur), ACL_ERROR_API_NOT_SUPPORT);
    aclmdlDestroyDesc(desc);
    free_io(&in);
    assert_int_equal(aclmdlUnload(id), ACL_SUCCESS);
}

static void io_reuse_addresses(void **state)
{
    (void)state;
    const uint32_t id = load_relu_add("0,0");
    float xin[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const int64_t dims[2] = {2, 4};
    const void *h[1] = {xin};
    const size_t b[1] = {32};
    const int64_t *d[1] = {dims};
    const size_t nd[1] = {2};
    io in = make_io(1, h, b, d, nd, NULL);
    const size_t ob[1] = {32};
    io out = make_io(1, NULL, ob, NULL, NULL, NULL);
    assert_int_equal(aclmdlExecute(id, in.ds, out.ds), ACL_ERROR_INVALID_PARAM); /* different addresses */
    aclmdlDataset *same = aclmdlCreateDataset();
    assert_int_equal(aclmdlAddDatasetBuffer(same, aclCreateDataBuffer(in.mem[0], 32)), ACL_SUCCESS);
    for (int pass = 0; pass < 2; ++pass) {
        memcpy(in.mem[0], xin, sizeof xin);
        assert_int_equal(aclmdlExecute(id, in.ds, same), ACL_SUCCESS);
        assert_true(((const float *)in.mem[0])[7] == 12.0f);
    }
    aclDestroyDataBuffer(aclmdlGetDatasetBuffer(same, 0));
    aclmdlDestroyDataset(same);
    free_io(&in);
    free_io(&out);
    assert_int_equal(aclmdlUnload(id), ACL_SUCCESS);
}

/* ---- control flow ---- */

static uint32_t load_if(void)
{
    oa_graph *g = NULL;
    assert_int_equal(oa_graph_create("if_model", &g), OA_OK);
    oa_node *c = data(g, "cond", 0, OA_DT_BOOL, 0, NULL);
    oa_node *x = data(g, "x", 1, OA_DT_FLOAT, 1, (const int64_t[]){-1});
    oa_node *n = NULL;
    assert_int_equal(oa_graph_add_node(g, OA_OP_IF, "if", 2, 1, &n), OA_OK);
    assert_int_equal(oa_node_connect(n, 0, c, 0), OA_OK);
    assert_int_equal(oa_node_connect(n, 1, x, 0), OA_OK);
    const char *names[2] = {"then_branch", "else_branch"};
    const oa_op_type ops[2] = {OA_OP_NEG, OA_OP_RELU};
    for (int b = 0; b < 2; ++b) {
        oa_graph *sg = NULL;
        assert_int_equal(oa_graph_create_subgraph(n, names[b], b ? "if_else" : "if_then", &sg), OA_OK);
        oa_node *d = sub_data(sg, b ? "e_x" : "t_x", 0, 1, OA_DT_FLOAT, 1, (const int64_t[]){-1});
        oa_node *y = node1(sg, ops[b], b ? "e_op" : "t_op", d, NULL);
        outputs(sg, &y, NULL, 1);
    }
    outputs(g, &n, NULL, 1);
    return load(g, NULL);
}

static void run_cf(uint32_t id, const void *sel, aclDataType sel_dt, size_t sel_bytes, const float *x, int64_t n,
                   float *y)
{
    const int64_t xd[1] = {n};
    const void *h[2] = {sel, x};
    const size_t b[2] = {sel_bytes, (size_t)n * 4};
    const int64_t *d[2] = {NULL, xd};
    const size_t nd[2] = {0, 1};
    aclDataType dt[2] = {sel_dt, ACL_FLOAT};
    io in = make_io(2, h, b, d, nd, dt);
    /* the selector is a scalar: give it an explicit 0-d description */
    aclTensorDesc *sd = aclCreateTensorDesc(sel_dt, 0, NULL, ACL_FORMAT_ND);
    assert_int_equal(aclmdlSetDatasetTensorDesc(in.ds, sd, 0), ACL_SUCCESS);
    aclDestroyTensorDesc(sd);
    const size_t ob[1] = {(size_t)n * 4};
    io out = make_io(1, NULL, ob, NULL, NULL, NULL);
    const aclError e = aclmdlExecute(id, in.ds, out.ds);
    if (e != ACL_SUCCESS) {
        fprintf(stderr, "%s\n", aclGetRecentErrMsg());
    }
    assert_int_equal(e, ACL_SUCCESS);
    expect_dims(out.ds, 0, xd, 1);
    memcpy(y, out.mem[0], (size_t)n * 4);
    free_io(&in);
    free_io(&out);
}

static void if_selects_its_branch(void **state)
{
    (void)state;
    const uint32_t id = load_if();
    const float x[3] = {-1, 2, -3};
    float y[3];
    for (int pass = 0; pass < 2; ++pass) { /* dynamic, then plans of both branches */
        const uint8_t t = 1, f = 0;
        run_cf(id, &t, ACL_BOOL, 1, x, 3, y);
        assert_true(y[0] == 1 && y[1] == -2 && y[2] == 3);
        run_cf(id, &f, ACL_BOOL, 1, x, 3, y);
        assert_true(y[0] == 0 && y[1] == 2 && y[2] == 0);
    }
    const oa_v2_stats s = stats(id);
    assert_int_equal(s.dynamic_runs, 1);
    assert_int_equal(s.plan_runs, 3);
    assert_int_equal(aclmdlUnload(id), ACL_SUCCESS);
}

static void case_selects_its_branch(void **state)
{
    (void)state;
    oa_graph *g = NULL;
    assert_int_equal(oa_graph_create("case_model", &g), OA_OK);
    oa_node *c = data(g, "idx", 0, OA_DT_INT32, 0, NULL);
    oa_node *x = data(g, "x", 1, OA_DT_FLOAT, 1, (const int64_t[]){-1});
    oa_node *n = NULL;
    assert_int_equal(oa_graph_add_node(g, OA_OP_CASE, "case", 2, 1, &n), OA_OK);
    assert_int_equal(oa_node_connect(n, 0, c, 0), OA_OK);
    assert_int_equal(oa_node_connect(n, 1, x, 0), OA_OK);
    for (int b = 0; b < 3; ++b) {
        char nm[32];
        snprintf(nm, sizeof nm, "case_b%d", b);
        oa_graph *sg = NULL;
        assert_int_equal(oa_graph_create_subgraph(n, "branches", nm, &sg), OA_OK);
        snprintf(nm, sizeof nm, "b%d_x", b);
        oa_node *d = sub_data(sg, nm, 0, 1, OA_DT_FLOAT, 1, (const int64_t[]){-1});
        oa_node *y;
        snprintf(nm, sizeof nm, "b%d_op", b);
        if (b == 2) {
            const float two = 2.0f;
            oa_node *k = konst(sg, "two", OA_DT_FLOAT, 0, NULL, &two, 4);
            y = node1(sg, OA_OP_MUL, nm, d, k);
        } else {
            y = node1(sg, b ? OA_OP_RELU : OA_OP_NEG, nm, d, NULL);
        }
        outputs(sg, &y, NULL, 1);
    }
    outputs(g, &n, NULL, 1);
    const uint32_t id = load(g, NULL);
    const float x4[4] = {-1, 2, -3, 4};
    float y[4];
    int32_t i = 0;
    run_cf(id, &i, ACL_INT32, 4, x4, 4, y);
    assert_true(y[0] == 1 && y[3] == -4);
    i = 1;
    run_cf(id, &i, ACL_INT32, 4, x4, 4, y);
    assert_true(y[0] == 0 && y[3] == 4);
    i = 7; /* out of range: the last branch */
    run_cf(id, &i, ACL_INT32, 4, x4, 4, y);
    assert_true(y[0] == -2 && y[3] == 8);
    i = 2;
    run_cf(id, &i, ACL_INT32, 4, x4, 2, y); /* another shape */
    assert_true(y[0] == -2 && y[1] == 4);
    assert_int_equal(aclmdlUnload(id), ACL_SUCCESS);
}

static void while_loops(void **state)
{
    (void)state;
    oa_graph *g = NULL;
    assert_int_equal(oa_graph_create("while_model", &g), OA_OK);
    oa_node *i = data(g, "i", 0, OA_DT_INT32, 0, NULL);
    oa_node *acc = data(g, "acc", 1, OA_DT_FLOAT, 1, (const int64_t[]){-1});
    oa_node *w = NULL;
    assert_int_equal(oa_graph_add_node(g, OA_OP_WHILE, "while", 2, 2, &w), OA_OK);
    assert_int_equal(oa_node_connect(w, 0, i, 0), OA_OK);
    assert_int_equal(oa_node_connect(w, 1, acc, 0), OA_OK);
    oa_graph *cond = NULL, *body = NULL;
    assert_int_equal(oa_graph_create_subgraph(w, "cond", "w_cond", &cond), OA_OK);
    assert_int_equal(oa_graph_create_subgraph(w, "body", "w_body", &body), OA_OK);
    {
        oa_node *ci = sub_data(cond, "c_i", 0, 0, OA_DT_INT32, 0, NULL);
        (void)sub_data(cond, "c_acc", 1, 1, OA_DT_FLOAT, 1, (const int64_t[]){-1});
        const int32_t five = 5;
        oa_node *k = konst(cond, "five", OA_DT_INT32, 0, NULL, &five, 4);
        oa_node *lt = node1(cond, OA_OP_LESS, "lt", ci, k);
        outputs(cond, &lt, NULL, 1);
    }
    {
        oa_node *bi = sub_data(body, "b_i", 0, 0, OA_DT_INT32, 0, NULL);
        oa_node *ba = sub_data(body, "b_acc", 1, 1, OA_DT_FLOAT, 1, (const int64_t[]){-1});
        const int32_t one = 1;
        const float two = 2.0f;
        oa_node *k1 = konst(body, "one", OA_DT_INT32, 0, NULL, &one, 4);
        oa_node *k2 = konst(body, "two", OA_DT_FLOAT, 0, NULL, &two, 4);
        oa_node *ni = node1(body, OA_OP_ADD, "inc", bi, k1);
        oa_node *na = node1(body, OA_OP_MUL, "dbl", ba, k2);
        oa_node *outs[2] = {ni, na};
        outputs(body, outs, NULL, 2);
    }
    oa_node *outs[2] = {w, w};
    const uint32_t idx[2] = {0, 1};
    outputs(g, outs, idx, 2);
    const uint32_t id = load(g, NULL);
    for (int pass = 0; pass < 3; ++pass) {
        const int32_t i0 = pass; /* 5 - pass iterations */
        const float a0[3] = {1, -1, 0.5f};
        const int64_t ad[1] = {3};
        const void *h[2] = {&i0, a0};
        const size_t b[2] = {4, 12};
        const int64_t *d[2] = {NULL, ad};
        const size_t nd[2] = {0, 1};
        aclDataType dt[2] = {ACL_INT32, ACL_FLOAT};
        io in = make_io(2, h, b, d, nd, dt);
        aclTensorDesc *sd = aclCreateTensorDesc(ACL_INT32, 0, NULL, ACL_FORMAT_ND);
        assert_int_equal(aclmdlSetDatasetTensorDesc(in.ds, sd, 0), ACL_SUCCESS);
        aclDestroyTensorDesc(sd);
        io out = make_io(2, NULL, (const size_t[]){4, 12}, NULL, NULL, NULL);
        assert_int_equal(aclmdlExecute(id, in.ds, out.ds), ACL_SUCCESS);
        assert_int_equal(*(const int32_t *)out.mem[0], 5);
        const float f = (float)(1 << (5 - pass));
        assert_true(((const float *)out.mem[1])[0] == f && ((const float *)out.mem[1])[2] == 0.5f * f);
        free_io(&in);
        free_io(&out);
    }
    const oa_v2_stats s = stats(id);
    assert_int_equal(s.plan_runs, 0); /* loops stay on the dynamic path */
    assert_int_equal(aclmdlUnload(id), ACL_SUCCESS);
}

static void data_dependent_shapes_stay_dynamic(void **state)
{
    (void)state;
    oa_graph *g = NULL;
    assert_int_equal(oa_graph_create("reshape_model", &g), OA_OK);
    oa_node *x = data(g, "x", 0, OA_DT_FLOAT, 1, (const int64_t[]){-1});
    oa_node *s = data(g, "shape", 1, OA_DT_INT64, 1, (const int64_t[]){2});
    oa_node *r = node1(g, OA_OP_RESHAPE, "reshape", x, s);
    oa_node *y = node1(g, OA_OP_NEG, "neg", r, NULL);
    outputs(g, &y, NULL, 1);
    const uint32_t id = load(g, NULL);
    const float xin[6] = {1, 2, 3, 4, 5, 6};
    const int64_t shapes[3][2] = {{2, 3}, {3, 2}, {2, 3}};
    for (int k = 0; k < 3; ++k) {
        const int64_t xd[1] = {6}, sd[1] = {2};
        const void *h[2] = {xin, shapes[k]};
        const size_t b[2] = {24, 16};
        const int64_t *d[2] = {xd, sd};
        const size_t nd[2] = {1, 1};
        aclDataType dt[2] = {ACL_FLOAT, ACL_INT64};
        io in = make_io(2, h, b, d, nd, dt);
        io out = make_io(1, NULL, (const size_t[]){24}, NULL, NULL, NULL);
        assert_int_equal(aclmdlExecute(id, in.ds, out.ds), ACL_SUCCESS);
        expect_dims(out.ds, 0, shapes[k], 2);
        assert_true(((const float *)out.mem[0])[5] == -6.0f);
        free_io(&in);
        free_io(&out);
    }
    const oa_v2_stats st = stats(id);
    assert_int_equal(st.dynamic_runs, 3); /* the shape comes from data: never planned */
    assert_int_equal(st.plans_recorded, 0);
    assert_int_equal(aclmdlUnload(id), ACL_SUCCESS);
}

/* NonZero: an output dim known only after the kernel ran (README "Data-dependent output shapes"):
 * allocated at its bound, narrowed to the count; a buffer too small for the real size is refused with
 * nothing written past it; the reported output size is the range bound. */
static void data_dependent_output_dims(void **state)
{
    (void)state;
    oa_graph *g = NULL;
    assert_int_equal(oa_graph_create("nonzero_model", &g), OA_OK);
    oa_node *x = data(g, "x", 0, OA_DT_INT32, 2, (const int64_t[]){2, 3});
    oa_node *nz = node1(g, OA_OP_NON_ZERO, "nonzero", x, NULL);
    outputs(g, &nz, NULL, 1);
    const uint32_t id = load(g, NULL);
    aclmdlDesc *desc = aclmdlCreateDesc();
    assert_int_equal(aclmdlGetDesc(desc, id), ACL_SUCCESS);
    assert_int_equal(aclmdlGetOutputSizeByIndex(desc, 0), 2 * 6 * 8); /* [2, 0~6] int64 */
    assert_int_equal(aclmdlDestroyDesc(desc), ACL_SUCCESS);
    const int32_t xs[3][6] = {{0, 1, 0, 2, 0, 3}, {0, 0, 0, 0, 0, 0}, {5, 0, 0, 0, 0, 7}};
    for (int k = 0; k < 3; ++k) {
        int64_t n = 0;
        for (int i = 0; i < 6; ++i) {
            n += xs[k][i] != 0;
        }
        const void *h[1] = {xs[k]};
        io in = make_io(1, h, (const size_t[]){24}, NULL, NULL, NULL);
        io out = make_io(1, NULL, (const size_t[]){96}, NULL, NULL, NULL);
        assert_int_equal(aclmdlExecute(id, in.ds, out.ds), ACL_SUCCESS);
        expect_dims(out.ds, 0, (const int64_t[]){2, n}, 2);
        const int64_t *y = out.mem[0];
        for (int i = 0, c = 0; i < 6; ++i) {
            if (xs[k][i] != 0) {
                assert_int_equal(y[c], i / 3);
                assert_int_equal(y[n + c], i % 3);
                c++;
            }
        }
        free_io(&out);
        if (n > 0) {
            /* one element short of the real size: refused, the bytes after the buffer untouched */
            uint8_t *guard = NULL;
            const size_t need = (size_t)(2 * n * 8);
            assert_int_equal(aclrtMalloc((void **)&guard, 128, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
            memset(guard, 0xAB, 128);
            aclmdlDataset *small = aclmdlCreateDataset();
            assert_int_equal(aclmdlAddDatasetBuffer(small, aclCreateDataBuffer(guard, need - 8)), ACL_SUCCESS);
            assert_int_equal(aclmdlExecute(id, in.ds, small), ACL_ERROR_INVALID_PARAM);
            for (size_t i = need - 8; i < 128; ++i) {
                assert_int_equal(guard[i], 0xAB);
            }
            aclDestroyDataBuffer(aclmdlGetDatasetBuffer(small, 0));
            aclmdlDestroyDataset(small);
            assert_int_equal(aclrtFree(guard), ACL_SUCCESS);
        }
        free_io(&in);
    }
    const oa_v2_stats st = stats(id);
    assert_int_equal(st.plans_recorded, 0); /* the shape comes from the data: never planned */
    assert_int_equal(aclmdlUnload(id), ACL_SUCCESS);
}

/* ---- streams and threads ---- */

typedef struct worker {
    uint32_t id;
    int index;
    int failures;
    pthread_barrier_t *all_done; /* every stream exists until all workers are done */
} worker;

static void *worker_main(void *arg)
{
    worker *w = arg;
    if (aclrtSetDevice(0) != ACL_SUCCESS) {
        w->failures++;
        return NULL;
    }
    aclrtStream stream = NULL;
    if (aclrtCreateStream(&stream) != ACL_SUCCESS) {
        w->failures++;
        return NULL;
    }
    for (int it = 0; it < 20; ++it) {
        const int64_t rows = 1 + (w->index + it) % 4;
        float xin[32];
        for (int64_t i = 0; i < rows * 4; ++i) {
            xin[i] = (float)(i * (w->index + 1) - 7);
        }
        const int64_t dims[2] = {rows, 4};
        void *dx = NULL, *dy = NULL;
        (void)aclrtMalloc(&dx, 128, ACL_MEM_MALLOC_HUGE_FIRST);
        (void)aclrtMalloc(&dy, 128, ACL_MEM_MALLOC_HUGE_FIRST);
        memcpy(dx, xin, (size_t)rows * 16);
        aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
        (void)aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(dx, (size_t)rows * 16));
        aclTensorDesc *td = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
        (void)aclmdlSetDatasetTensorDesc(in, td, 0);
        aclDestroyTensorDesc(td);
        (void)aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(dy, 128));
        if (aclmdlExecuteAsync(w->id, in, out, stream) != ACL_SUCCESS ||
            aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
            w->failures++;
        } else {
            for (int64_t i = 0; i < rows * 4; ++i) {
                const float want = (xin[i] > 0 ? xin[i] : 0) + (float)(i % 4 + 1);
                if (((const float *)dy)[i] != want) {
                    w->failures++;
                    break;
                }
            }
        }
        aclDestroyDataBuffer(aclmdlGetDatasetBuffer(in, 0));
        aclDestroyDataBuffer(aclmdlGetDatasetBuffer(out, 0));
        aclmdlDestroyDataset(in);
        aclmdlDestroyDataset(out);
        (void)aclrtFree(dx);
        (void)aclrtFree(dy);
    }
    pthread_barrier_wait(w->all_done);
    (void)aclrtDestroyStream(stream);
    return NULL;
}

static void threads_on_streams(void **state)
{
    (void)state;
    const uint32_t id = load_relu_add(NULL);
    enum { N = 4 };
    pthread_t t[N];
    worker w[N];
    pthread_barrier_t done;
    assert_int_equal(pthread_barrier_init(&done, NULL, N), 0);
    for (int i = 0; i < N; ++i) {
        w[i] = (worker){.id = id, .index = i, .all_done = &done};
        assert_int_equal(pthread_create(&t[i], NULL, worker_main, &w[i]), 0);
    }
    for (int i = 0; i < N; ++i) {
        pthread_join(t[i], NULL);
        assert_int_equal(w[i].failures, 0);
    }
    pthread_barrier_destroy(&done);
    const oa_v2_stats s = stats(id);
    assert_true(s.executors >= N + 1); /* one per stream, plus the one of the load */
    assert_int_equal(aclmdlUnload(id), ACL_SUCCESS);
}

static int g_ext_allocs, g_ext_frees;
static void *ext_alloc(aclrtAllocator a, size_t size)
{
    (void)a;
    __atomic_add_fetch(&g_ext_allocs, 1, __ATOMIC_RELAXED);
    return malloc(size);
}
static void ext_free(aclrtAllocator a, aclrtAllocatorBlock b)
{
    (void)a;
    __atomic_add_fetch(&g_ext_frees, 1, __ATOMIC_RELAXED);
    free(b);
}
static void *ext_addr(aclrtAllocatorBlock b)
{
    return b;
}

static void async_uses_the_streams_external_allocator(void **state)
{
    (void)state;
    const uint32_t id = load_relu_add(NULL);
    aclrtStream stream = NULL;
    assert_int_equal(aclrtCreateStream(&stream), ACL_SUCCESS);
    aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();
    assert_non_null(desc);
    static int obj;
    assert_int_equal(aclrtAllocatorSetObjToDesc(desc, &obj), ACL_SUCCESS);
    assert_int_equal(aclrtAllocatorSetAllocFuncToDesc(desc, ext_alloc), ACL_SUCCESS);
    assert_int_equal(aclrtAllocatorSetFreeFuncToDesc(desc, ext_free), ACL_SUCCESS);
    assert_int_equal(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, ext_addr), ACL_SUCCESS);
    assert_int_equal(aclrtAllocatorRegister(stream, desc), ACL_SUCCESS);
    float xin[8] = {1, -2, 3, -4, 5, -6, 7, -8};
    const int64_t dims[2] = {2, 4};
    const void *h[1] = {xin};
    const size_t b[1] = {32};
    const int64_t *d[1] = {dims};
    const size_t nd[1] = {2};
    for (int pass = 0; pass < 2; ++pass) {
        io in = make_io(1, h, b, d, nd, NULL);
        io out = make_io(1, NULL, (const size_t[]){32}, NULL, NULL, NULL);
        const int before = g_ext_allocs;
        assert_int_equal(aclmdlExecuteAsync(id, in.ds, out.ds, stream), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(stream), ACL_SUCCESS);
        assert_true(g_ext_allocs > before); /* dynamic path and plan alike take their memory from it */
        assert_int_equal(g_ext_allocs, g_ext_frees);
        assert_true(((const float *)out.mem[0])[2] == 6.0f);
        free_io(&in);
        free_io(&out);
    }
    /* asynchronous executions never allocate outputs */
    io in = make_io(1, h, b, d, nd, NULL);
    aclmdlDataset *out = aclmdlCreateDataset();
    assert_int_equal(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(NULL, 0)), ACL_SUCCESS);
    assert_int_equal(aclmdlExecuteAsync(id, in.ds, out, stream), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(stream), ACL_ERROR_INVALID_PARAM);
    aclDestroyDataBuffer(aclmdlGetDatasetBuffer(out, 0));
    aclmdlDestroyDataset(out);
    free_io(&in);
    assert_int_equal(aclrtAllocatorUnregister(stream), ACL_SUCCESS);
    assert_int_equal(aclrtAllocatorDestroyDesc(desc), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(stream), ACL_SUCCESS);
    assert_int_equal(aclmdlUnload(id), ACL_SUCCESS);
}

/* StreamExecutor: one executor per stream, created on first use; aclmdlExecuteV2 runs synchronously. */
static void one_executor_per_stream(void **state)
{
    (void)state;
    const uint32_t id = load_relu_add(NULL);
    aclrtStream a = NULL, b = NULL;
    assert_int_equal(aclrtCreateStream(&a), ACL_SUCCESS);
    assert_int_equal(aclrtCreateStream(&b), ACL_SUCCESS);
    float xin[4] = {1, -1, 2, -2};
    const int64_t dims[2] = {1, 4};
    const void *h[1] = {xin};
    const size_t bsz[1] = {16};
    const int64_t *d[1] = {dims};
    const size_t nd[1] = {2};
    io in = make_io(1, h, bsz, d, nd, NULL);
    io out = make_io(1, NULL, (const size_t[]){16}, NULL, NULL, NULL);
    const uint64_t base = stats(id).executors; /* the load's */
    aclrtStream order[4] = {a, a, b, a};
    const uint64_t want[4] = {1, 1, 2, 2};
    for (int i = 0; i < 4; ++i) {
        assert_int_equal(aclmdlExecuteAsync(id, in.ds, out.ds, order[i]), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(order[i]), ACL_SUCCESS);
        assert_int_equal(stats(id).executors - base, want[i]);
    }
    /* ExecuteV2 takes the synchronous path and ignores its stream */
    aclmdlExecConfigHandle *cfg = aclmdlCreateExecConfigHandle();
    assert_non_null(cfg);
    memset(out.mem[0], 0, 16);
    assert_int_equal(aclmdlExecuteV2(id, in.ds, out.ds, b, cfg), ACL_SUCCESS);
    assert_true(((const float *)out.mem[0])[2] == 5.0f);
    assert_int_equal(stats(id).executors - base, 2);
    /* ExecuteAsyncV2 is ExecuteAsync with a config: queued on the stream's executor, same numbers as ExecuteV2 */
    float sync_out[4];
    memcpy(sync_out, out.mem[0], sizeof sync_out);
    memset(out.mem[0], 0, 16);
    assert_int_equal(aclmdlExecuteAsyncV2(id, in.ds, out.ds, a, cfg), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(a), ACL_SUCCESS);
    assert_memory_equal(out.mem[0], sync_out, sizeof sync_out);
    assert_int_equal(stats(id).executors - base, 2);
    assert_int_equal(aclmdlExecuteAsyncV2(id, in.ds, out.ds, a, NULL), ACL_ERROR_INVALID_PARAM);
    assert_non_null(strstr(aclGetRecentErrMsg(), "handle"));
    aclmdlDataset *none = aclmdlCreateDataset();
    assert_int_equal(aclmdlExecuteAsyncV2(id, in.ds, none, a, cfg), ACL_ERROR_INVALID_PARAM); /* checked before queueing */
    assert_non_null(strstr(aclGetRecentErrMsg(), "output dataset"));
    assert_int_equal(aclmdlExecuteAsyncV2(id, none, out.ds, a, cfg), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtSynchronizeStream(a), ACL_SUCCESS);
    aclmdlDestroyDataset(none);
    assert_int_equal(aclmdlDestroyExecConfigHandle(cfg), ACL_SUCCESS);
    free_io(&in);
    free_io(&out);
    assert_int_equal(aclrtDestroyStream(a), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(b), ACL_SUCCESS);
    assert_int_equal(aclmdlUnload(id), ACL_SUCCESS);
}

/* ---- external weights (FileConstant) ---- */

/*
 *   x f32 [1,1,-1,-1] -> Conv2D(filter [2,1,3,3], pads 1) -> Add(b [2,1,1]) -> y
 * with the filter and b moved to weight files next to the model
 * (<om dir>/weight/): the Init graph binds them (read-only mapping), the
 * convolution gets its filter as a constant.
 */
static void file_constant_weights(void **state)
{
    (void)state;
    char dir[] = "/tmp/oa_v2_fc_XXXXXX";
    assert_non_null(mkdtemp(dir));
    oa_graph *g = NULL;
    assert_int_equal(oa_graph_create("fc_model", &g), OA_OK);
    oa_node *x = data(g, "x", 0, OA_DT_FLOAT, 4, (const int64_t[]){1, 1, -1, -1});
    x->outputs[0].desc.format = OA_FORMAT_NCHW;
    float w[18];
    for (int i = 0; i < 18; ++i) {
        w[i] = (float)(i % 9 == 4) * (i < 9 ? 1.0f : 2.0f); /* identity and doubling kernels */
    }
    const float bias[2] = {0.5f, -1.0f};
    oa_node *fw = konst(g, "filter", OA_DT_FLOAT, 4, (const int64_t[]){2, 1, 3, 3}, w, sizeof w);
    oa_node *fb = konst(g, "bias2", OA_DT_FLOAT, 3, (const int64_t[]){2, 1, 1}, bias, sizeof bias);
    oa_node *cv = NULL;
    assert_int_equal(oa_graph_add_node(g, OA_OP_CONV2D, "conv", 4, 1, &cv), OA_OK);
    assert_int_equal(oa_node_connect(cv, 0, x, 0), OA_OK);
    assert_int_equal(oa_node_connect(cv, 1, fw, 0), OA_OK);
    cv->inputs[0].desc.format = OA_FORMAT_NCHW;
    cv->inputs[1].desc.format = OA_FORMAT_NCHW;
    const int64_t ones[4] = {1, 1, 1, 1};
    assert_int_equal(oa_node_set_list_int(cv, "strides", ones, 4), OA_OK);
    assert_int_equal(oa_node_set_list_int(cv, "dilations", ones, 4), OA_OK);
    assert_int_equal(oa_node_set_list_int(cv, "pads", ones, 4), OA_OK);
    assert_int_equal(oa_node_set_int(cv, "groups", 1), OA_OK);
    assert_int_equal(oa_node_set_str(cv, "data_format", "NCHW"), OA_OK);
    oa_node *add = node1(g, OA_OP_ADD, "add", cv, fb);
    outputs(g, &add, NULL, 1);
    assert_int_equal(oa_graph_infer(g), OA_OK);
    char tmp[300], om[300];
    snprintf(tmp, sizeof tmp, "%s/tmp_weight_test", dir);
    snprintf(om, sizeof om, "%s/fc_model.om", dir);
    oa_fc_convert_opts co = {.mode = OA_FC_MODE_FILES, .weight_dir = tmp};
    assert_int_equal(oa_fc_convert_consts(g, &co, NULL), OA_OK);
    assert_int_equal(oa_fc_move_to_model_dir(g, om), OA_OK);
    oa_om_write_opts o;
    oa_om_write_opts_init(&o);
    o.unknown_shape = true;
    assert_int_equal(oa_om_write_graph(g, &o, om), OA_OK);
    oa_graph_destroy(g);
    uint32_t id = 0;
    const aclError e = aclmdlLoadFromFile(om, &id);
    if (e != ACL_SUCCESS) {
        fprintf(stderr, "%s\n", aclGetRecentErrMsg());
    }
    assert_int_equal(e, ACL_SUCCESS);
    for (int pass = 0; pass < 2; ++pass) {
        float xin[12];
        for (int i = 0; i < 12; ++i) {
            xin[i] = (float)i;
        }
        const int64_t dims[4] = {1, 1, 3, 4};
        const void *h[1] = {xin};
        const size_t b[1] = {48};
        const int64_t *d[1] = {dims};
        const size_t nd[1] = {4};
        io in = make_io(1, h, b, d, nd, NULL);
        io out = make_io(1, NULL, (const size_t[]){96}, NULL, NULL, NULL);
        const aclError r = aclmdlExecute(id, in.ds, out.ds);
        if (r != ACL_SUCCESS) {
            fprintf(stderr, "%s\n", aclGetRecentErrMsg());
        }
        assert_int_equal(r, ACL_SUCCESS);
        const int64_t want[4] = {1, 2, 3, 4};
        expect_dims(out.ds, 0, want, 4);
        const float *y = out.mem[0];
        for (int i = 0; i < 12; ++i) {
            assert_true(y[i] == xin[i] + 0.5f);
            assert_true(y[12 + i] == 2 * xin[i] - 1.0f);
        }
        free_io(&in);
        free_io(&out);
    }
    assert_int_equal(aclmdlUnload(id), ACL_SUCCESS);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* ---- subscribers: tensor dump ---- */

static void dump_writes_the_selected_layers(void **state)
{
    (void)state;
    char dir[] = "/tmp/oa_v2_dump_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char cfg[300];
    snprintf(cfg, sizeof cfg, "%s/acl.json", dir);
    FILE *f = fopen(cfg, "w");
    assert_non_null(f);
    fprintf(f, "{\"dump\":{\"dump_path\":\"%s\",\"dump_list\":[{\"model_name\":\"relu_add\","
               "\"layer\":[\"add\"]}]}}",
            dir);
    fclose(f);
    const uint32_t id = load_relu_add(NULL);
    assert_int_equal(aclmdlInitDump(), ACL_SUCCESS);
    assert_int_equal(aclmdlSetDump(cfg), ACL_SUCCESS);
    run_relu_add(id, 2);
    run_relu_add(id, 2); /* dumping: the dynamic path every time */
    assert_int_equal(aclmdlFinalizeDump(), ACL_SUCCESS);
    const oa_v2_stats s = stats(id);
    assert_int_equal(s.plan_runs, 0);
    char cmd[400];
    /* {dump_path}/{time}/0/relu_add/{id}/{step}/{OpType}.add.{task}.{stream}.{timestamp} (docs/dump.md) */
    snprintf(cmd, sizeof cmd, "test $(find %s -path '*/0/relu_add/%u/[01]/*.add.*' -type f | wc -l) -eq 2", dir, id);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "test $(find %s -name '*.relu.*' -type f | wc -l) -eq 0", dir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(aclmdlUnload(id), ACL_SUCCESS);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* ---- RT2 helpers ---- */

static void io_reuse_parser(void **state)
{
    (void)state;
    uint32_t(*p)[2] = NULL;
    size_t n = 0;
    assert_int_equal(oa_v2_parse_io_reuse("0,0|1,2", &p, &n), OA_OK);
    assert_int_equal(n, 2);
    assert_int_equal(p[1][0], 1);
    assert_int_equal(p[1][1], 2);
    free(p);
    assert_int_equal(oa_v2_parse_io_reuse("0,0||", &p, &n), OA_OK);
    assert_int_equal(n, 1);
    free(p);
    const char *skipped[] = {"-1,0", "a,b", "3", ""};
    for (size_t i = 0; i < 4; ++i) {
        assert_int_equal(oa_v2_parse_io_reuse(skipped[i], &p, &n), OA_OK);
        assert_int_equal(n, 0);
        free(p);
    }
    assert_int_equal(oa_v2_parse_io_reuse(" 2,3x", &p, &n), OA_OK); /* strtoul tolerance */
    assert_int_equal(n, 1);
    assert_int_equal(p[0][0], 2);
    assert_int_equal(p[0][1], 3);
    free(p);
}

static void range_check(void **state)
{
    (void)state;
    const oa_model_range r[2] = {{1, 8}, {4, 4}};
    assert_int_equal(oa_v2_check_range("x", 0, (const int64_t[]){8, 4}, 2, r, 2), OA_OK);
    assert_int_equal(oa_v2_check_range("x", 0, (const int64_t[]){0, 4}, 2, r, 2), OA_E_PARAM);
    assert_int_equal(oa_v2_check_range("x", 0, (const int64_t[]){-1, 4}, 2, r, 2), OA_OK); /* -1 skipped */
    assert_int_equal(oa_v2_check_range("x", 0, (const int64_t[]){2}, 1, r, 2), OA_E_PARAM);
    assert_int_equal(oa_v2_check_range("x", 0, NULL, 0, r, 2), OA_OK); /* scalar skipped */
    const oa_model_range open[1] = {{1, -1}};
    assert_int_equal(oa_v2_check_range("x", 0, (const int64_t[]){1 << 30}, 1, open, 1), OA_OK);
    const oa_model_range bad[1] = {{5, 2}};
    assert_int_equal(oa_v2_check_range("x", 0, (const int64_t[]){3}, 1, bad, 1), OA_E_PARAM);
    const oa_model_range unb[1] = {{2, -1}};
    assert_int_equal(oa_v2_check_range("x", 0, (const int64_t[]){1}, 1, unb, 1), OA_E_PARAM);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(io_reuse_parser),
        cmocka_unit_test(range_check),
        cmocka_unit_test(shapes_plans_and_operators),
        cmocka_unit_test(plan_runs_while_learning_threads),
        cmocka_unit_test(profile_table),
        cmocka_unit_test(plans_share_the_executors_block),
        cmocka_unit_test(outgrown_memory_is_returned),
        cmocka_unit_test(input_shape_errors),
        cmocka_unit_test(outputs_null_small_and_descs),
        cmocka_unit_test(io_reuse_addresses),
        cmocka_unit_test(if_selects_its_branch),
        cmocka_unit_test(case_selects_its_branch),
        cmocka_unit_test(while_loops),
        cmocka_unit_test(data_dependent_shapes_stay_dynamic),
        cmocka_unit_test(data_dependent_output_dims),
        cmocka_unit_test(threads_on_streams),
        cmocka_unit_test(async_uses_the_streams_external_allocator),
        cmocka_unit_test(one_executor_per_stream),
        cmocka_unit_test(file_constant_weights),
        cmocka_unit_test(dump_writes_the_selected_layers),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

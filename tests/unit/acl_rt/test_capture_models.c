/*
 * Capture and replay of model executions (aclmdlRI* around aclmdlExecuteAsync)
 * with the static executor (ew.om of gen_v1_models) and the dynamic one
 * (relu_add built here), next to async copies, fills, events and callbacks.
 * Results are checked against references computed here; the work-memory
 * pools through their accounting (oa_capture_pool_usage) and through a
 * counting allocator registered on the capturing stream.
 *
 * Links the static parts (pool accounting is internal); the V1 models come
 * from the v1_models fixture ($OA_V1_MODELS).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "rt_test_util.h"
#include "support/acl_checks.h"

#include "acl_mdl/model.h"
#include "acl_mdl/model_reader.h"
#include "acl_rt/capture.h"
#include "graph/graph.h"
#include "graph/infer.h"
#include "acl_mdl/om_reader.h"
#include "model_v1/v1_model.h"
#include "model_v2/model_v2.h"
#include "om_ir/om_ir.h"
#include "om/om_model.h"

static const char *g_dir;

/* ---- the V2 test reader: the description comes from the model's own graph ---- */

static oa_status reader_open(const oa_model_source *src, oa_model_image *img)
{
    oa_om_model *om = NULL;
    oa_status st = oa_om_model_open_memory(src->data, src->size, OA_OM_OPEN_SKIP_TASK, &om);
    oa_graph *g = NULL;
    if (st == OA_OK) {
        st = oa_om_graph_from_model(om, 0, &g, NULL);
    }
    if (st != OA_OK) {
        return st;
    }
    oa_model_info *info = oa_model_info_create();
    const oa_node *d = oa_graph_input(g, 0);
    const oa_tensor_desc *x = &d->outputs[0].desc;
    oa_model_range r[2] = {{x->range_min[0], x->range_max[0]}, {x->range_min[1], x->range_max[1]}};
    oa_model_tensor_spec in = {.name = d->name, .dtype = ACL_FLOAT, .format = ACL_FORMAT_ND, .n_dims = 2,
                               .dims = x->shape.dims, .n_ranges = 2, .ranges = r};
    assert_int_equal(oa_model_info_add_input(info, &in, NULL), OA_OK);
    const oa_node *no = oa_graph_output_node(g);
    const oa_tensor_desc *y = &no->inputs[0].desc;
    oa_model_tensor_spec out = {.name = "out0", .dtype = ACL_FLOAT, .format = ACL_FORMAT_ND, .n_dims = 2,
                                .dims = y->shape.dims};
    assert_int_equal(oa_model_info_add_output(info, &out, NULL), OA_OK);
    oa_graph_destroy(g);
    info->header_dynamic = true;
    img->info = info;
    img->bytes = src->data;
    img->size = src->size;
    return OA_OK;
}

static void reader_close(oa_model_image *img)
{
    (void)img;
}

static const oa_model_reader g_v2_reader = {.open = reader_open, .close = reader_close};

#define RA_MAX_ROWS (1 << 20)

/* relu_add: x f32 [-1,4] (dim 0 in [1, RA_MAX_ROWS]) -> Relu -> Add(c) -> y */
static uint32_t load_relu_add(void)
{
    oa_model_reader_register(&g_v2_reader);
    oa_graph *g = NULL;
    assert_int_equal(oa_graph_create("relu_add", &g), OA_OK);
    oa_shape s = oa_shape_make(2, (const int64_t[]){-1, 4});
    oa_node *x = NULL;
    assert_int_equal(oa_graph_add_data(g, "x", 0, OA_DT_FLOAT, &s, OA_FORMAT_ND, &x), OA_OK);
    const int64_t lo[2] = {1, 4}, hi[2] = {RA_MAX_ROWS, 4};
    assert_int_equal(oa_graph_set_input_shape(x, &s, lo, hi), OA_OK);
    const float c[4] = {1, 2, 3, 4};
    oa_shape cs = oa_shape_make(1, (const int64_t[]){4});
    oa_tensor *t = NULL;
    assert_int_equal(oa_graph_make_tensor(g, OA_DT_FLOAT, &cs, c, sizeof c, &t), OA_OK);
    oa_node *k = NULL, *r = NULL, *a = NULL, *o = NULL;
    assert_int_equal(oa_graph_add_const(g, "c", t, &k), OA_OK);
    assert_int_equal(oa_graph_add_node(g, OA_OP_RELU, "relu", 1, 1, &r), OA_OK);
    assert_int_equal(oa_node_connect(r, 0, x, 0), OA_OK);
    assert_int_equal(oa_graph_add_node(g, OA_OP_ADD, "add", 2, 1, &a), OA_OK);
    assert_int_equal(oa_node_connect(a, 0, r, 0), OA_OK);
    assert_int_equal(oa_node_connect(a, 1, k, 0), OA_OK);
    assert_int_equal(oa_graph_add_net_output(g, "Node_Output", 1, &o), OA_OK);
    assert_int_equal(oa_node_connect(o, 0, a, 0), OA_OK);
    assert_int_equal(oa_graph_infer(g), OA_OK);
    oa_om_write_opts wo;
    oa_om_write_opts_init(&wo);
    wo.unknown_shape = true;
    uint8_t *img = NULL;
    size_t len = 0;
    assert_int_equal(oa_om_write_graph_memory(g, &wo, &img, &len), OA_OK);
    oa_graph_destroy(g);
    uint32_t id = 0;
    OK_ACL(aclmdlLoadFromMem(img, len, &id));
    free(img);
    return id;
}

/* One relu_add execution's buffers (rows x 4). */
typedef struct ra_io {
    aclmdlDataset *in, *out;
    float *x, *y;
    int64_t rows;
} ra_io;

static void ra_make(ra_io *r, int64_t rows)
{
    r->rows = rows;
    const size_t bytes = (size_t)rows * 16;
    OK_ACL(aclrtMalloc((void **)&r->x, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMalloc((void **)&r->y, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    r->in = aclmdlCreateDataset();
    r->out = aclmdlCreateDataset();
    OK_ACL(aclmdlAddDatasetBuffer(r->in, aclCreateDataBuffer(r->x, bytes)));
    OK_ACL(aclmdlAddDatasetBuffer(r->out, aclCreateDataBuffer(r->y, bytes)));
    const int64_t dims[2] = {rows, 4};
    aclTensorDesc *td = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
    OK_ACL(aclmdlSetDatasetTensorDesc(r->in, td, 0));
    aclDestroyTensorDesc(td);
}

/* New input values (seeded) and a poisoned output. */
static void ra_fill(ra_io *r, int seed)
{
    for (int64_t i = 0; i < r->rows * 4; ++i) {
        r->x[i] = (float)((i * 37 + seed * 11) % 23 - 11);
        r->y[i] = -1000.0f;
    }
}

static void ra_check(const ra_io *r)
{
    for (int64_t i = 0; i < r->rows * 4; ++i) {
        const float want = (r->x[i] > 0 ? r->x[i] : 0) + (float)(i % 4 + 1);
        if (r->y[i] != want) {
            fail_msg("rows %lld, element %lld: %g, want %g", (long long)r->rows, (long long)i, (double)r->y[i],
                     (double)want);
        }
    }
}

static void free_dataset(aclmdlDataset *d)
{
    for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(d); i++) {
        OK_ACL(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(d, i)));
    }
    OK_ACL(aclmdlDestroyDataset(d));
}

static void ra_free(ra_io *r)
{
    if (r->in != NULL) {
        free_dataset(r->in);
        free_dataset(r->out);
    }
    OK_ACL(aclrtFree(r->x));
    OK_ACL(aclrtFree(r->y));
}

/* ---- the V1 ew model: x [1,8,32,32]; y0 = sigmoid(0.5 relu(x) + x), y1 = mean of it over H, W ---- */

#define EW_N (8 * 32 * 32)

static uint32_t load_ew(void)
{
    oa_model_reader_register(&oa_om_reader);
    char path[1024];
    snprintf(path, sizeof path, "%s/ew.om", g_dir);
    uint32_t id = 0;
    OK_ACL(aclmdlLoadFromFile(path, &id));
    return id;
}

typedef struct ew_io {
    aclmdlDataset *in, *out;
    float *x, *y0, *y1;
} ew_io;

static void ew_make(ew_io *b)
{
    OK_ACL(aclrtMalloc((void **)&b->x, EW_N * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMalloc((void **)&b->y0, EW_N * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMalloc((void **)&b->y1, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    b->in = aclmdlCreateDataset();
    b->out = aclmdlCreateDataset();
    OK_ACL(aclmdlAddDatasetBuffer(b->in, aclCreateDataBuffer(b->x, EW_N * 4)));
    OK_ACL(aclmdlAddDatasetBuffer(b->out, aclCreateDataBuffer(b->y0, EW_N * 4)));
    OK_ACL(aclmdlAddDatasetBuffer(b->out, aclCreateDataBuffer(b->y1, 32)));
}

static void ew_fill(float *x, int seed)
{
    for (int i = 0; i < EW_N; i++) {
        x[i] = (float)((i * 7919 + seed * 131) % 2001 - 1000) / 250.0f;
    }
}

/* y0 and y1 of input x, in double precision. */
static void ew_check(const float *x, const float *y0, const float *y1)
{
    for (int c = 0; c < 8; c++) {
        double s = 0;
        for (int i = 0; i < 1024; i++) {
            const double v = x[c * 1024 + i];
            const double a = 0.5 * (v > 0 ? v : 0) + v;
            const double want = 1.0 / (1.0 + exp(-a));
            if (fabs(y0[c * 1024 + i] - want) > 2e-6 * (1 + fabs(want))) {
                fail_msg("y0[%d]: %g, want %g", c * 1024 + i, (double)y0[c * 1024 + i], want);
            }
            s += a;
        }
        if (y1 != NULL && fabs(y1[c] - s / 1024) > 1e-5 * (1 + fabs(s / 1024))) {
            fail_msg("y1[%d]: %g, want %g", c, (double)y1[c], s / 1024);
        }
    }
}

static void ew_free(ew_io *b)
{
    free_dataset(b->in);
    free_dataset(b->out);
    OK_ACL(aclrtFree(b->x));
    OK_ACL(aclrtFree(b->y0));
    OK_ACL(aclrtFree(b->y1));
}

/* ---- a counting allocator (acl_rt_allocator.h) ---- */

typedef struct counting {
    pthread_mutex_t mu;
    size_t live, peak, allocs, frees, largest;
} counting;

typedef struct cblock {
    size_t size;
    void *addr;
} cblock;

static void *c_alloc(aclrtAllocator a, size_t size)
{
    counting *c = a;
    cblock *b = malloc(sizeof(*b));
    b->size = size;
    b->addr = aligned_alloc(64, (size + 63) & ~(size_t)63);
    pthread_mutex_lock(&c->mu);
    c->live += size;
    c->peak = c->live > c->peak ? c->live : c->peak;
    c->largest = size > c->largest ? size : c->largest;
    c->allocs++;
    pthread_mutex_unlock(&c->mu);
    return b;
}

static void c_free(aclrtAllocator a, aclrtAllocatorBlock block)
{
    counting *c = a;
    cblock *b = block;
    pthread_mutex_lock(&c->mu);
    c->live -= b->size;
    c->frees++;
    pthread_mutex_unlock(&c->mu);
    free(b->addr);
    free(b);
}

static void *c_addr(aclrtAllocatorBlock block)
{
    return ((cblock *)block)->addr;
}

static aclrtAllocatorDesc register_counting(aclrtStream s, counting *c)
{
    memset(c, 0, sizeof(*c));
    pthread_mutex_init(&c->mu, NULL);
    aclrtAllocatorDesc d = aclrtAllocatorCreateDesc();
    OK_ACL(aclrtAllocatorSetObjToDesc(d, c));
    OK_ACL(aclrtAllocatorSetAllocFuncToDesc(d, c_alloc));
    OK_ACL(aclrtAllocatorSetFreeFuncToDesc(d, c_free));
    OK_ACL(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, c_addr));
    OK_ACL(aclrtAllocatorRegister(s, d));
    return d;
}

static size_t counted(counting *c, size_t *field)
{
    pthread_mutex_lock(&c->mu);
    const size_t v = *field;
    pthread_mutex_unlock(&c->mu);
    return v;
}

/* ---- fixtures ---- */

static int setup(void **state)
{
    (void)state;
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
        return -1;
    }
    oa_model_v1_register();
    oa_model_v2_register();
    unsetenv("OPENACL_RI_SHARED_POOL");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    (void)aclrtResetDevice(0);
    (void)aclFinalize();
    return 0;
}

static aclrtStream new_stream(void)
{
    aclrtStream s = NULL;
    OK_ACL(aclrtCreateStream(&s));
    return s;
}

static void pool_usage(uint32_t id, size_t *pools, size_t *peak)
{
    oa_capture_pool_usage(id, pools, peak);
}

/* ---- tests ---- */

/*
 * A static model between an async copy, a fill and a copy back: replays on
 * other streams, with new inputs written into the captured staging buffer,
 * match the reference every time; the direct execution matches it too.
 */
static void v1_capture_with_copies(void **state)
{
    (void)state;
    const uint32_t id = load_ew();
    ew_io b;
    ew_make(&b);
    aclrtStream s = new_stream(), r1 = new_stream(), r2 = new_stream();
    float *stage = NULL, *back = NULL;
    OK_ACL(aclrtMallocHost((void **)&stage, EW_N * 4));
    OK_ACL(aclrtMallocHost((void **)&back, EW_N * 4));

    ew_fill(b.x, 0);
    OK_ACL(aclmdlExecuteAsync(id, b.in, b.out, s));
    OK_ACL(aclrtSynchronizeStream(s));
    ew_check(b.x, b.y0, b.y1);

    aclmdlRI ri = NULL;
    OK_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    OK_ACL(aclrtMemcpyAsync(b.x, EW_N * 4, stage, EW_N * 4, ACL_MEMCPY_HOST_TO_DEVICE, s));
    OK_ACL(aclrtMemsetAsync(b.y0, EW_N * 4, 0x7f, EW_N * 4, s)); /* overwritten by the model that follows */
    OK_ACL(aclmdlExecuteAsync(id, b.in, b.out, s));
    OK_ACL(aclrtMemcpyAsync(back, EW_N * 4, b.y0, EW_N * 4, ACL_MEMCPY_DEVICE_TO_HOST, s));
    OK_ACL(aclmdlRICaptureEnd(s, &ri));

    for (int r = 1; r <= 4; ++r) {
        ew_fill(stage, r);
        memset(back, 0, EW_N * 4);
        OK_ACL(aclmdlRIExecuteAsync(ri, r % 2 ? r1 : r2));
        OK_ACL(aclrtSynchronizeStream(r % 2 ? r1 : r2));
        ew_check(stage, back, b.y1);
        ew_check(stage, b.y0, NULL);
    }
    /* several replays queued back to back, the last input wins */
    for (int r = 0; r < 3; ++r) {
        OK_ACL(aclmdlRIExecuteAsync(ri, r1));
    }
    OK_ACL(aclrtSynchronizeStream(r1));
    ew_check(stage, back, b.y1);
    OK_ACL(aclmdlRIDestroy(ri));
    OK_ACL(aclmdlUnload(id));
    OK_ACL(aclrtFreeHost(stage));
    OK_ACL(aclrtFreeHost(back));
    ew_free(&b);
    OK_ACL(aclrtDestroyStream(s));
    OK_ACL(aclrtDestroyStream(r1));
    OK_ACL(aclrtDestroyStream(r2));
}

/* Two shapes of a dynamic model captured into two instances: replays alternate, on other streams; one
 * instance's datasets are destroyed after its capture. */
static void v2_capture_two_shapes(void **state)
{
    (void)state;
    const uint32_t id = load_relu_add();
    aclrtStream s = new_stream(), r1 = new_stream();
    ra_io a, b;
    ra_make(&a, 3);
    ra_make(&b, 7);
    ra_fill(&a, 0);
    OK_ACL(aclmdlExecuteAsync(id, a.in, a.out, s)); /* direct */
    OK_ACL(aclrtSynchronizeStream(s));
    ra_check(&a);

    aclmdlRI ia = NULL, ib = NULL;
    OK_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    OK_ACL(aclmdlExecuteAsync(id, a.in, a.out, s));
    OK_ACL(aclmdlRICaptureEnd(s, &ia));
    OK_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    OK_ACL(aclmdlExecuteAsync(id, b.in, b.out, s));
    OK_ACL(aclmdlRICaptureEnd(s, &ib));
    /* the replays keep the shapes and buffers captured: the application's datasets may go */
    free_dataset(b.in);
    free_dataset(b.out);
    b.in = b.out = NULL;
    for (int r = 1; r <= 5; ++r) {
        ra_fill(&a, r);
        ra_fill(&b, r + 100);
        OK_ACL(aclmdlRIExecuteAsync(ia, r1));
        OK_ACL(aclmdlRIExecuteAsync(ib, r % 2 ? s : r1));
        OK_ACL(aclrtSynchronizeStream(r1));
        OK_ACL(aclrtSynchronizeStream(s));
        ra_check(&a);
        ra_check(&b);
    }
    size_t pools = 0, peak = 0;
    pool_usage(id, &pools, &peak);
    assert_int_equal(pools, 1); /* both instances on the model's pool */
    assert_true(peak > 0);
    OK_ACL(aclmdlRIDestroy(ia));
    OK_ACL(aclmdlRIDestroy(ib));
    pool_usage(id, &pools, &peak);
    assert_int_equal(pools, 0);
    OK_ACL(aclmdlUnload(id));
    ra_free(&a);
    ra_free(&b);
    OK_ACL(aclrtDestroyStream(s));
    OK_ACL(aclrtDestroyStream(r1));
}

typedef struct reporter {
    int stop;
} reporter;

static void *report_main(void *arg)
{
    reporter *r = arg;
    while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
        (void)aclrtProcessReport(20);
    }
    return NULL;
}

/* What the captured callback saw: y0 right after the model of the same replay. */
typedef struct seen {
    const float *y0;
    float copy[EW_N];
    int calls;
} seen;

static void snapshot(void *arg)
{
    seen *w = arg;
    memcpy(w->copy, w->y0, sizeof w->copy);
    __atomic_fetch_add(&w->calls, 1, __ATOMIC_SEQ_CST);
}

/*
 * The replay waits for an event recorded outside the capture (the input
 * copied on another stream), runs the model, a callback reads the result,
 * and an external record lets a third stream wait for the replay.
 */
static void external_events_and_callbacks(void **state)
{
    (void)state;
    const uint32_t id = load_ew();
    ew_io b;
    ew_make(&b);
    aclrtStream g = new_stream(), feed = new_stream(), after = new_stream();
    reporter rep = {0};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, report_main, &rep), 0);
    OK_ACL(aclrtSubscribeReport((uint64_t)t, g));
    aclrtEvent in_ready = NULL, done = NULL;
    OK_ACL(aclrtCreateEventExWithFlag(&in_ready, ACL_EVENT_SYNC));
    OK_ACL(aclrtCreateEventExWithFlag(&done, ACL_EVENT_SYNC));
    static seen w;
    w.y0 = b.y0;
    float *stage = NULL, *out = NULL;
    OK_ACL(aclrtMallocHost((void **)&stage, EW_N * 4));
    OK_ACL(aclrtMallocHost((void **)&out, EW_N * 4));

    aclmdlRI ri = NULL;
    OK_ACL(aclmdlRICaptureBegin(g, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    OK_ACL(aclrtStreamWaitEventWithFlag(g, in_ready, 0, ACL_EVENT_WAIT_EXTERNAL));
    OK_ACL(aclmdlExecuteAsync(id, b.in, b.out, g));
    OK_ACL(aclrtLaunchCallback(snapshot, &w, ACL_CALLBACK_BLOCK, g));
    OK_ACL(aclrtRecordEventWithFlag(done, g, ACL_EVENT_RECORD_EXTERNAL));
    OK_ACL(aclmdlRICaptureEnd(g, &ri));
    assert_int_equal(__atomic_load_n(&w.calls, __ATOMIC_SEQ_CST), 0);

    for (int r = 0; r < 3; ++r) {
        test_gate gate;
        test_gate_init(&gate);
        ew_fill(stage, r + 7);
        OK_ACL(aclrtLaunchHostFunc(feed, test_gate_fn, &gate));
        OK_ACL(aclrtMemcpyAsync(b.x, EW_N * 4, stage, EW_N * 4, ACL_MEMCPY_HOST_TO_DEVICE, feed));
        OK_ACL(aclrtRecordEvent(in_ready, feed));
        OK_ACL(aclmdlRIExecuteAsync(ri, g));
        OK_ACL(aclrtStreamWaitEvent(after, done));
        OK_ACL(aclrtMemcpyAsync(out, EW_N * 4, b.y0, EW_N * 4, ACL_MEMCPY_DEVICE_TO_HOST, after));
        test_sleep_ms(10);
        assert_int_equal(__atomic_load_n(&w.calls, __ATOMIC_SEQ_CST), r); /* held by the feed stream */
        test_gate_open(&gate);
        OK_ACL(aclrtSynchronizeStream(after));
        OK_ACL(aclrtSynchronizeStream(g));
        assert_int_equal(__atomic_load_n(&w.calls, __ATOMIC_SEQ_CST), r + 1);
        ew_check(stage, w.copy, NULL);
        ew_check(stage, out, b.y1);
    }
    OK_ACL(aclmdlRIDestroy(ri));
    OK_ACL(aclrtUnSubscribeReport((uint64_t)t, g));
    __atomic_store_n(&rep.stop, 1, __ATOMIC_RELEASE);
    pthread_join(t, NULL);
    OK_ACL(aclrtDestroyEvent(in_ready));
    OK_ACL(aclrtDestroyEvent(done));
    OK_ACL(aclrtFreeHost(stage));
    OK_ACL(aclrtFreeHost(out));
    OK_ACL(aclmdlUnload(id));
    ew_free(&b);
    OK_ACL(aclrtDestroyStream(g));
    OK_ACL(aclrtDestroyStream(feed));
    OK_ACL(aclrtDestroyStream(after));
}

/*
 * Events inside the capture: a side stream joins it (waits for a record of the origin), runs the dynamic
 * model while the origin runs the static one, and the origin joins it back; a copy after the join reads the
 * side stream's result.
 */
static void internal_events_fork_join(void **state)
{
    (void)state;
    const uint32_t v1 = load_ew();
    const uint32_t v2 = load_relu_add();
    ew_io b;
    ew_make(&b);
    ra_io r;
    ra_make(&r, 4);
    float *back = NULL;
    OK_ACL(aclrtMallocHost((void **)&back, 4 * 16));
    aclrtStream s = new_stream(), side = new_stream(), exec = new_stream();
    aclrtEvent fork = NULL, join = NULL;
    OK_ACL(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC));
    OK_ACL(aclrtCreateEventExWithFlag(&join, ACL_EVENT_SYNC));
    aclmdlRI ri = NULL;
    OK_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    OK_ACL(aclrtRecordEvent(fork, s));
    OK_ACL(aclrtStreamWaitEvent(side, fork));
    OK_ACL(aclmdlExecuteAsync(v2, r.in, r.out, side));
    OK_ACL(aclrtRecordEvent(join, side));
    OK_ACL(aclmdlExecuteAsync(v1, b.in, b.out, s));
    OK_ACL(aclrtStreamWaitEvent(s, join));
    OK_ACL(aclrtMemcpyAsync(back, 4 * 16, r.y, 4 * 16, ACL_MEMCPY_DEVICE_TO_HOST, s));
    OK_ACL(aclmdlRICaptureEnd(s, &ri));
    for (int i = 0; i < 3; ++i) {
        ew_fill(b.x, 40 + i);
        ra_fill(&r, 40 + i);
        memset(back, 0, 4 * 16);
        OK_ACL(aclmdlRIExecuteAsync(ri, exec));
        OK_ACL(aclrtSynchronizeStream(exec));
        ew_check(b.x, b.y0, b.y1);
        ra_check(&r);
        assert_memory_equal(back, r.y, 4 * 16);
    }
    OK_ACL(aclmdlRIDestroy(ri));
    OK_ACL(aclrtDestroyEvent(fork));
    OK_ACL(aclrtDestroyEvent(join));
    OK_ACL(aclrtFreeHost(back));
    OK_ACL(aclmdlUnload(v1));
    OK_ACL(aclmdlUnload(v2));
    ew_free(&b);
    ra_free(&r);
    OK_ACL(aclrtDestroyStream(s));
    OK_ACL(aclrtDestroyStream(side));
    OK_ACL(aclrtDestroyStream(exec));
}

/* CANN's codes for what a capture forbids; the capture survives them and its replay is right. */
static void illegal_calls_during_capture(void **state)
{
    (void)state;
    const uint32_t id = load_ew();
    ew_io b;
    ew_make(&b);
    aclrtStream s = new_stream();
    char host[64] = {0};
    OK_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    OK_ACL(aclmdlExecuteAsync(id, b.in, b.out, s));
    assert_int_equal(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_CAPTURED);
    assert_int_equal(aclrtMemcpy(b.y1, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    assert_int_equal(aclrtMemcpyAsync(b.y1, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_RT_PARAM_INVALID);
    aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    OK_ACL(aclmdlRICaptureGetInfo(s, &st, NULL));
    assert_int_equal(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    aclmdlRI ri = NULL;
    OK_ACL(aclmdlRICaptureEnd(s, &ri));
    ew_fill(b.x, 3);
    OK_ACL(aclmdlRIExecuteAsync(ri, s));
    OK_ACL(aclrtSynchronizeStream(s));
    ew_check(b.x, b.y0, b.y1);
    OK_ACL(aclmdlRIDestroy(ri));
    OK_ACL(aclmdlUnload(id));
    ew_free(&b);
    OK_ACL(aclrtDestroyStream(s));
}

static void *open_later(void *arg)
{
    test_sleep_ms(30);
    test_gate_open(arg);
    return NULL;
}

/* Destroy (and unload) while replays of a V1 and a V2 execution are queued: they run, with the right results. */
static void destroy_while_replays_queued(void **state)
{
    (void)state;
    const uint32_t v1 = load_ew();
    const uint32_t v2 = load_relu_add();
    ew_io b;
    ew_make(&b);
    ra_io r;
    ra_make(&r, 5);
    aclrtStream s = new_stream(), exec = new_stream();
    aclmdlRI ri = NULL;
    OK_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    OK_ACL(aclmdlExecuteAsync(v1, b.in, b.out, s));
    OK_ACL(aclmdlExecuteAsync(v2, r.in, r.out, s));
    OK_ACL(aclmdlRICaptureEnd(s, &ri));
    OK_ACL(aclmdlUnload(v1)); /* the instance keeps both models */
    OK_ACL(aclmdlUnload(v2));
    ew_fill(b.x, 9);
    ra_fill(&r, 9);
    test_gate gate;
    test_gate_init(&gate);
    OK_ACL(aclrtLaunchHostFunc(exec, test_gate_fn, &gate));
    OK_ACL(aclmdlRIExecuteAsync(ri, exec));
    OK_ACL(aclmdlRIExecuteAsync(ri, exec));
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, open_later, &gate), 0);
    OK_ACL(aclmdlRIDestroy(ri)); /* waits for the replays in flight */
    pthread_join(t, NULL);
    OK_ACL(aclrtSynchronizeStream(exec));
    ew_check(b.x, b.y0, b.y1);
    ra_check(&r);
    size_t pools = 0, peak = 0;
    pool_usage(v1, &pools, &peak);
    assert_int_equal(pools, 0);
    pool_usage(v2, &pools, &peak);
    assert_int_equal(pools, 0);
    assert_int_equal(aclmdlRIExecuteAsync(ri, exec), ACL_ERROR_RT_INVALID_HANDLE);
    ew_free(&b);
    ra_free(&r);
    OK_ACL(aclrtDestroyStream(s));
    OK_ACL(aclrtDestroyStream(exec));
}

/* V1: instances of one model share one feature map; OPENACL_RI_SHARED_POOL=0 gives each its own. */
static void v1_pool_sharing(void **state)
{
    (void)state;
    const uint32_t id = load_ew();
    aclrtStream s = new_stream();
    ew_io b[3];
    aclmdlRI ri[6] = {NULL};
    for (int i = 0; i < 6; ++i) {
        if (i == 3) {
            setenv("OPENACL_RI_SHARED_POOL", "0", 1);
        }
        if (i < 3) {
            ew_make(&b[i]);
        }
        OK_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
        OK_ACL(aclmdlExecuteAsync(id, b[i % 3].in, b[i % 3].out, s));
        OK_ACL(aclmdlRICaptureEnd(s, &ri[i]));
    }
    unsetenv("OPENACL_RI_SHARED_POOL");
    size_t pools = 0, peak = 0;
    pool_usage(id, &pools, &peak);
    assert_int_equal(pools, 4); /* the shared one and three private ones */
    const size_t one = peak / 4;
    assert_int_equal(peak, 4 * one);
    assert_true(one >= (size_t)EW_N * 4 * 4); /* at least the model's intermediate tensors */
    for (int r = 0; r < 2; ++r) {
        for (int i = 0; i < 6; ++i) {
            ew_fill(b[i % 3].x, 10 * r + i);
            OK_ACL(aclmdlRIExecuteAsync(ri[i], s));
            OK_ACL(aclrtSynchronizeStream(s));
            ew_check(b[i % 3].x, b[i % 3].y0, b[i % 3].y1);
        }
    }
    for (int i = 0; i < 3; ++i) {
        OK_ACL(aclmdlRIDestroy(ri[i]));
    }
    pool_usage(id, &pools, &peak);
    assert_int_equal(pools, 3);
    for (int i = 3; i < 6; ++i) {
        OK_ACL(aclmdlRIDestroy(ri[i]));
    }
    pool_usage(id, &pools, &peak);
    assert_int_equal(pools, 0);
    OK_ACL(aclmdlUnload(id));
    for (int i = 0; i < 3; ++i) {
        ew_free(&b[i]);
    }
    OK_ACL(aclrtDestroyStream(s));
}

/* V1: with an allocator registered on the capturing stream, the feature map comes from it, until the destroy. */
static void v1_stream_allocator(void **state)
{
    (void)state;
    const uint32_t id = load_ew();
    aclrtStream s = new_stream(), r = new_stream();
    counting c;
    aclrtAllocatorDesc d = register_counting(s, &c);
    ew_io b;
    ew_make(&b);
    aclmdlRI ri = NULL;
    OK_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    OK_ACL(aclmdlExecuteAsync(id, b.in, b.out, s));
    OK_ACL(aclmdlRICaptureEnd(s, &ri));
    assert_int_equal(counted(&c, &c.allocs), 1);
    assert_true(counted(&c, &c.largest) >= (size_t)EW_N * 4 * 4);
    size_t pools = 0, peak = 0;
    pool_usage(id, &pools, &peak);
    assert_int_equal(pools, 1);
    for (int i = 0; i < 3; ++i) {
        ew_fill(b.x, i);
        OK_ACL(aclmdlRIExecuteAsync(ri, r));
        OK_ACL(aclrtSynchronizeStream(r));
        ew_check(b.x, b.y0, b.y1);
    }
    assert_int_equal(counted(&c, &c.allocs), 1); /* replays allocate nothing */
    assert_int_equal(counted(&c, &c.frees), 0);
    OK_ACL(aclmdlRIDestroy(ri));
    assert_int_equal(counted(&c, &c.frees), 1);
    assert_int_equal(counted(&c, &c.live), 0);
    OK_ACL(aclrtAllocatorUnregister(s));
    OK_ACL(aclrtAllocatorDestroyDesc(d));
    OK_ACL(aclmdlUnload(id));
    ew_free(&b);
    OK_ACL(aclrtDestroyStream(s));
    OK_ACL(aclrtDestroyStream(r));
}

/* Captures relu_add at the given row counts (one instance each), replays each twice; returns the pools' peak. */
static size_t v2_capture_shapes(uint32_t id, const int64_t *rows, int n, size_t *pools)
{
    aclrtStream s = new_stream();
    ra_io io[4];
    aclmdlRI ri[4];
    for (int i = 0; i < n; ++i) {
        ra_make(&io[i], rows[i]);
        OK_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
        OK_ACL(aclmdlExecuteAsync(id, io[i].in, io[i].out, s));
        OK_ACL(aclmdlRICaptureEnd(s, &ri[i]));
    }
    for (int r = 0; r < 2; ++r) {
        for (int i = 0; i < n; ++i) {
            ra_fill(&io[i], r * 10 + i);
            OK_ACL(aclmdlRIExecuteAsync(ri[i], s));
            OK_ACL(aclrtSynchronizeStream(s));
            ra_check(&io[i]);
        }
    }
    size_t peak = 0;
    pool_usage(id, pools, &peak);
    for (int i = 0; i < n; ++i) {
        OK_ACL(aclmdlRIDestroy(ri[i]));
        ra_free(&io[i]);
    }
    OK_ACL(aclrtDestroyStream(s));
    return peak;
}

/* V2: N captured shapes on the shared pool hold about the memory of the largest, private pools the sum. */
static void v2_pool_sharing(void **state)
{
    (void)state;
    const uint32_t id = load_relu_add();
    const int64_t largest[1] = {RA_MAX_ROWS / 2};
    const int64_t shapes[3] = {RA_MAX_ROWS / 32, RA_MAX_ROWS / 2, RA_MAX_ROWS / 8};
    size_t pools = 0;
    (void)v2_capture_shapes(id, largest, 1, &pools); /* records the model's plans for these shapes */
    const size_t alone = v2_capture_shapes(id, largest, 1, &pools);
    (void)v2_capture_shapes(id, shapes, 3, &pools);
    assert_int_equal(pools, 1);
    assert_true(alone >= (size_t)largest[0] * 16); /* at least the Relu result */
    const size_t shared = v2_capture_shapes(id, shapes, 3, &pools);
    assert_int_equal(pools, 1);
    setenv("OPENACL_RI_SHARED_POOL", "0", 1);
    const size_t apart = v2_capture_shapes(id, shapes, 3, &pools);
    unsetenv("OPENACL_RI_SHARED_POOL");
    assert_int_equal(pools, 3);
    print_message("relu_add pools: largest shape alone %zu bytes, 3 shapes shared %zu, 3 shapes apart %zu\n", alone,
                  shared, apart);
    assert_true(shared <= alone + alone / 8);
    assert_true(apart >= alone + (size_t)shapes[2] * 16);
    OK_ACL(aclmdlUnload(id));
}

/* V2: with an allocator registered on the capturing stream, replays take tensor memory from it. */
static void v2_stream_allocator(void **state)
{
    (void)state;
    const uint32_t id = load_relu_add();
    aclrtStream s = new_stream(), r = new_stream();
    counting c;
    aclrtAllocatorDesc d = register_counting(s, &c);
    ra_io io;
    ra_make(&io, 64);
    aclmdlRI ri = NULL;
    OK_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    OK_ACL(aclmdlExecuteAsync(id, io.in, io.out, s));
    OK_ACL(aclmdlRICaptureEnd(s, &ri));
    assert_int_equal(counted(&c, &c.allocs), 0); /* nothing ran yet */
    size_t live = 0;
    for (int i = 0; i < 4; ++i) {
        ra_fill(&io, i);
        OK_ACL(aclmdlRIExecuteAsync(ri, r));
        OK_ACL(aclrtSynchronizeStream(r));
        ra_check(&io);
        if (i == 2) {
            live = counted(&c, &c.live);
        }
    }
    assert_true(counted(&c, &c.allocs) > 0);
    assert_true(counted(&c, &c.largest) >= 64 * 16);
    /* the plan's block (the Relu result) stays allocated from it until the destroy; nothing else accumulates */
    assert_true(live >= 64 * 16);
    assert_int_equal(counted(&c, &c.live), live);
    OK_ACL(aclmdlRIDestroy(ri));
    assert_int_equal(counted(&c, &c.live), 0);
    OK_ACL(aclrtAllocatorUnregister(s));
    OK_ACL(aclrtAllocatorDestroyDesc(d));
    OK_ACL(aclmdlUnload(id));
    ra_free(&io);
    OK_ACL(aclrtDestroyStream(s));
    OK_ACL(aclrtDestroyStream(r));
}

/* A built instance (stream bound with aclmdlRIBindStream) records executions of both executors as captures do. */
static void built_instance_runs_models(void **state)
{
    (void)state;
    const uint32_t v1 = load_ew();
    const uint32_t v2 = load_relu_add();
    ew_io b;
    ew_make(&b);
    ra_io r;
    ra_make(&r, 6);
    aclrtStream bound = new_stream(), exec = new_stream();
    aclmdlRI ri = NULL;
    OK_ACL(aclmdlRIBuildBegin(&ri, 0));
    OK_ACL(aclmdlRIBindStream(ri, bound, ACL_MODEL_STREAM_FLAG_HEAD));
    OK_ACL(aclmdlExecuteAsync(v1, b.in, b.out, bound));
    OK_ACL(aclmdlExecuteAsync(v2, r.in, r.out, bound));
    OK_ACL(aclmdlRIEndTask(ri, bound));
    OK_ACL(aclmdlRIBuildEnd(ri, NULL));
    size_t pools = 0, peak = 0;
    pool_usage(v1, &pools, &peak);
    assert_int_equal(pools, 1);
    for (int i = 0; i < 3; ++i) {
        ew_fill(b.x, 20 + i);
        ra_fill(&r, 20 + i);
        OK_ACL(aclmdlRIExecuteAsync(ri, exec));
        OK_ACL(aclrtSynchronizeStream(exec));
        ew_check(b.x, b.y0, b.y1);
        ra_check(&r);
    }
    OK_ACL(aclmdlRIUnbindStream(ri, bound));
    OK_ACL(aclmdlRIDestroy(ri));
    OK_ACL(aclmdlUnload(v1));
    OK_ACL(aclmdlUnload(v2));
    ew_free(&b);
    ra_free(&r);
    OK_ACL(aclrtDestroyStream(bound));
    OK_ACL(aclrtDestroyStream(exec));
}

/* Instances sharing a pool replayed at the same time on several streams take turns: every result is right. */
static void shared_pool_concurrent_replays(void **state)
{
    (void)state;
    const uint32_t v1 = load_ew();
    const uint32_t v2 = load_relu_add();
    enum { N = 3 };
    ew_io b[N];
    ra_io r[N];
    aclrtStream s = new_stream(), exec[N];
    aclmdlRI ri[N];
    for (int i = 0; i < N; ++i) {
        ew_make(&b[i]);
        ra_make(&r[i], 2 + 3 * i);
        exec[i] = new_stream();
        OK_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
        OK_ACL(aclmdlExecuteAsync(v1, b[i].in, b[i].out, s));
        OK_ACL(aclmdlExecuteAsync(v2, r[i].in, r[i].out, s));
        OK_ACL(aclmdlRICaptureEnd(s, &ri[i]));
    }
    size_t pools = 0, peak = 0;
    pool_usage(v1, &pools, &peak);
    assert_int_equal(pools, 1);
    pool_usage(v2, &pools, &peak);
    assert_int_equal(pools, 1);
    for (int round = 0; round < 4; ++round) {
        for (int i = 0; i < N; ++i) {
            ew_fill(b[i].x, round * N + i);
            ra_fill(&r[i], round * N + i);
            OK_ACL(aclmdlRIExecuteAsync(ri[i], exec[i]));
        }
        for (int i = 0; i < N; ++i) {
            OK_ACL(aclrtSynchronizeStream(exec[i]));
            ew_check(b[i].x, b[i].y0, b[i].y1);
            ra_check(&r[i]);
        }
    }
    for (int i = 0; i < N; ++i) {
        OK_ACL(aclmdlRIDestroy(ri[i]));
        ew_free(&b[i]);
        ra_free(&r[i]);
        OK_ACL(aclrtDestroyStream(exec[i]));
    }
    OK_ACL(aclmdlUnload(v1));
    OK_ACL(aclmdlUnload(v2));
    OK_ACL(aclrtDestroyStream(s));
}

/* Instances (and their pools) left alive go with the context at aclrtResetDevice; the models with them. */
static void instances_left_at_reset(void **state)
{
    (void)state;
    const uint32_t v1 = load_ew();
    const uint32_t v2 = load_relu_add();
    ew_io b;
    ra_io r;
    ew_make(&b);
    ra_make(&r, 3);
    aclrtStream s = new_stream();
    aclmdlRI ri = NULL;
    OK_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    OK_ACL(aclmdlExecuteAsync(v1, b.in, b.out, s));
    OK_ACL(aclmdlExecuteAsync(v2, r.in, r.out, s));
    OK_ACL(aclmdlRICaptureEnd(s, &ri));
    ew_fill(b.x, 5);
    ra_fill(&r, 5);
    OK_ACL(aclmdlRIExecuteAsync(ri, s));
    OK_ACL(aclrtSynchronizeStream(s));
    ew_check(b.x, b.y0, b.y1);
    ra_check(&r);
    OK_ACL(aclmdlUnload(v1));
    OK_ACL(aclmdlUnload(v2));
    size_t pools = 0, peak = 0;
    pool_usage(v1, &pools, &peak);
    assert_int_equal(pools, 1);
    /* the buffers are freed first, as an application tearing down might do; nothing replays them any more */
    ew_free(&b);
    ra_free(&r);
    OK_ACL(aclrtResetDevice(0));
    pool_usage(v1, &pools, &peak);
    assert_int_equal(pools, 0);
    pool_usage(v2, &pools, &peak);
    assert_int_equal(pools, 0);
    OK_ACL(aclrtSetDevice(0)); /* for the teardown */
}

int main(int argc, char **argv)
{
    g_dir = argc > 1 ? argv[1] : getenv("OA_V1_MODELS");
    if (g_dir == NULL) {
        fprintf(stderr, "usage: test_capture_models DIR (or OA_V1_MODELS)\n");
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(v1_capture_with_copies, setup, teardown),
        cmocka_unit_test_setup_teardown(v2_capture_two_shapes, setup, teardown),
        cmocka_unit_test_setup_teardown(external_events_and_callbacks, setup, teardown),
        cmocka_unit_test_setup_teardown(internal_events_fork_join, setup, teardown),
        cmocka_unit_test_setup_teardown(illegal_calls_during_capture, setup, teardown),
        cmocka_unit_test_setup_teardown(destroy_while_replays_queued, setup, teardown),
        cmocka_unit_test_setup_teardown(built_instance_runs_models, setup, teardown),
        cmocka_unit_test_setup_teardown(shared_pool_concurrent_replays, setup, teardown),
        cmocka_unit_test_setup_teardown(v1_pool_sharing, setup, teardown),
        cmocka_unit_test_setup_teardown(v1_stream_allocator, setup, teardown),
        cmocka_unit_test_setup_teardown(v2_pool_sharing, setup, teardown),
        cmocka_unit_test_setup_teardown(v2_stream_allocator, setup, teardown),
        cmocka_unit_test_setup_teardown(instances_left_at_reset, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

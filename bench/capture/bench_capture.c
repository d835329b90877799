/*
 * bench_capture: host cost of replaying a captured model execution
 * (aclmdlRIExecuteAsync) against issuing it again (aclmdlExecuteAsync), on
 * one model with one float input, plus the end-to-end time of both and ONNX
 * Runtime's inference time on the same input for scale.
 *
 *   bench_capture [--batches B] [--calls C] [--runs K] MODEL.om MODEL.onnx INPUT D0,D1,...
 *
 * Host time: the stream is held by a host function while C calls are
 * issued, so only the issuing is timed (execution does not compete); the
 * median over B batches of the mean time per call. End to end: issue one
 * call and synchronise, median over K. Threads: OPENACL_NUM_THREADS=1 and
 * ORT intra 1 / inter 1 (bench/ort/README.md).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "../common/bench_util.h"
#include "ort_runner.h"

#define CHECK(expr)                                                                                        \
    do {                                                                                                   \
        const aclError e_ = (expr);                                                                        \
        if (e_ != ACL_SUCCESS) {                                                                           \
            const char *m_ = aclGetRecentErrMsg();                                                         \
            fprintf(stderr, "bench_capture: %s = %d %s\n", #expr, (int)e_, m_ ? m_ : "");                  \
            exit(1);                                                                                       \
        }                                                                                                  \
    } while (0)

/* A host function holding the stream until released. */
typedef struct gate {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool open;
} gate;

static void gate_fn(void *arg)
{
    gate *g = arg;
    pthread_mutex_lock(&g->mu);
    while (!g->open) {
        pthread_cond_wait(&g->cv, &g->mu);
    }
    pthread_mutex_unlock(&g->mu);
}

typedef struct target {
    uint32_t id;
    aclmdlDataset *in, *out;
    aclmdlRI ri;     /* NULL: direct executions */
} target;

static void issue(const target *t, aclrtStream s)
{
    if (t->ri != NULL) {
        CHECK(aclmdlRIExecuteAsync(t->ri, s));
    } else {
        CHECK(aclmdlExecuteAsync(t->id, t->in, t->out, s));
    }
}

/* Median host time per call (us) over `batches` batches of `calls` calls issued behind a gate. */
static double host_us(const target *t, aclrtStream s, int batches, int calls)
{
    double *v = calloc((size_t)batches, sizeof(double));
    for (int b = 0; b < batches; ++b) {
        gate g = {.open = false};
        pthread_mutex_init(&g.mu, NULL);
        pthread_cond_init(&g.cv, NULL);
        CHECK(aclrtLaunchHostFunc(s, gate_fn, &g));
        const double t0 = bench_now_us();
        for (int c = 0; c < calls; ++c) {
            issue(t, s);
        }
        v[b] = (bench_now_us() - t0) / calls;
        pthread_mutex_lock(&g.mu);
        g.open = true;
        pthread_cond_broadcast(&g.cv);
        pthread_mutex_unlock(&g.mu);
        CHECK(aclrtSynchronizeStream(s));
        pthread_mutex_destroy(&g.mu);
        pthread_cond_destroy(&g.cv);
    }
    const double m = bench_median(v, batches);
    free(v);
    return m;
}

/* Median time (us) of one call plus the synchronisation. */
static double e2e_us(const target *t, aclrtStream s, int runs)
{
    double *v = calloc((size_t)runs, sizeof(double));
    for (int r = 0; r < runs; ++r) {
        const double t0 = bench_now_us();
        issue(t, s);
        CHECK(aclrtSynchronizeStream(s));
        v[r] = bench_now_us() - t0;
    }
    const double m = bench_median(v, runs);
    free(v);
    return m;
}

static double ort_us(const char *onnx, const char *name, const int64_t *dims, int rank, float *x, size_t bytes,
                     int runs)
{
    oa_ort *ort = oa_ort_open(NULL);
    if (ort == NULL) {
        fprintf(stderr, "bench_capture: ORT: %s\n", oa_ort_last_error());
        return -1;
    }
    oa_ort_options o;
    oa_ort_options_init(&o);
    o.intra_threads = 1;
    o.inter_threads = 1;
    oa_ort_session *s = oa_ort_session_create(ort, onnx, &o);
    if (s == NULL) {
        fprintf(stderr, "bench_capture: ORT: %s\n", oa_ort_last_error());
        oa_ort_close(ort);
        return -1;
    }
    oa_ort_tensor t;
    memset(&t, 0, sizeof t);
    t.name = name;
    t.dtype = oa_ort_dtype_from_name("float32");
    t.rank = (size_t)rank;
    memcpy(t.dims, dims, (size_t)rank * sizeof(int64_t));
    t.data = x;
    t.bytes = bytes;
    double *v = calloc((size_t)runs, sizeof(double));
    for (int r = -3; r < runs; ++r) {
        if (oa_ort_run(s, &t, 1, NULL, 0) != 0) {
            fprintf(stderr, "bench_capture: ORT: %s\n", oa_ort_last_error());
            exit(1);
        }
        if (r >= 0) {
            v[r] = oa_ort_last_run_ms(s) * 1e3;
        }
    }
    const double m = bench_median(v, runs);
    free(v);
    oa_ort_session_destroy(s);
    oa_ort_close(ort);
    return m;
}

int main(int argc, char **argv)
{
    int batches = 30, calls = 100, runs = 200;
    int a = 1;
    for (; a + 1 < argc && strncmp(argv[a], "--", 2) == 0; a += 2) {
        const int v = atoi(argv[a + 1]);
        if (strcmp(argv[a], "--batches") == 0) {
            batches = v;
        } else if (strcmp(argv[a], "--calls") == 0) {
            calls = v;
        } else if (strcmp(argv[a], "--runs") == 0) {
            runs = v;
        }
    }
    if (argc - a != 4 || batches < 1 || calls < 1 || runs < 1) {
        fprintf(stderr, "usage: bench_capture [--batches B] [--calls C] [--runs K] MODEL.om MODEL.onnx INPUT "
                        "D0,D1,...\n");
        return 2;
    }
    const char *om = argv[a], *onnx = argv[a + 1], *name = argv[a + 2];
    int64_t dims[8];
    int rank = 0;
    size_t n = 1;
    for (char *p = argv[a + 3]; *p != '\0' && rank < 8;) {
        dims[rank] = strtoll(p, &p, 10);
        n *= (size_t)dims[rank++];
        if (*p == ',') {
            ++p;
        }
    }
    setenv("OPENACL_NUM_THREADS", "1", 0);
    const size_t bytes = n * sizeof(float);
    float *host = malloc(bytes);
    srand(1);
    for (size_t i = 0; i < n; ++i) {
        host[i] = (float)rand() / (float)RAND_MAX;
    }

    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtStream s = NULL, cap = NULL;
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtCreateStream(&cap));
    target t = {0};
    CHECK(aclmdlLoadFromFile(om, &t.id));
    aclmdlDesc *desc = aclmdlCreateDesc();
    CHECK(aclmdlGetDesc(desc, t.id));
    void *x = NULL;
    CHECK(aclrtMalloc(&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    memcpy(x, host, bytes);
    t.in = aclmdlCreateDataset();
    t.out = aclmdlCreateDataset();
    CHECK(aclmdlAddDatasetBuffer(t.in, aclCreateDataBuffer(x, bytes)));
    aclTensorDesc *td = aclCreateTensorDesc(ACL_FLOAT, rank, dims, ACL_FORMAT_ND);
    CHECK(aclmdlSetDatasetTensorDesc(t.in, td, 0));
    aclDestroyTensorDesc(td);
    const size_t n_out = aclmdlGetNumOutputs(desc);
    void *outs[8] = {NULL};
    for (size_t k = 0; k < n_out && k < 8; ++k) {
        size_t sz = aclmdlGetOutputSizeByIndex(desc, k);
        sz = sz < ((size_t)4 << 20) ? ((size_t)4 << 20) : sz; /* dynamic outputs: room for any shape here */
        CHECK(aclrtMalloc(&outs[k], sz, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK(aclmdlAddDatasetBuffer(t.out, aclCreateDataBuffer(outs[k], sz)));
    }
    for (int w = 0; w < 5; ++w) {
        issue(&t, s);
    }
    CHECK(aclrtSynchronizeStream(s));
    target r = t;
    CHECK(aclmdlRICaptureBegin(cap, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    CHECK(aclmdlExecuteAsync(t.id, t.in, t.out, cap));
    CHECK(aclmdlRICaptureEnd(cap, &r.ri));
    for (int w = 0; w < 5; ++w) {
        issue(&r, s);
    }
    CHECK(aclrtSynchronizeStream(s));

    const double h_direct = host_us(&t, s, batches, calls), h_replay = host_us(&r, s, batches, calls);
    const double e_direct = e2e_us(&t, s, runs), e_replay = e2e_us(&r, s, runs);
    const double ort = ort_us(onnx, name, dims, rank, host, bytes, runs);

    printf("\n%s (%s), 1 thread: %d batches x %d calls (host), %d runs (end to end)\n\n", om, argv[a + 3], batches,
           calls, runs);
    printf("| call | host us per call | end-to-end us per execution | ORT Run us | end to end / ORT |\n");
    printf("| --- | --- | --- | --- | --- |\n");
    printf("| aclmdlExecuteAsync | %.2f | %.1f | %.1f | %.2f |\n", h_direct, e_direct, ort, ort > 0 ? e_direct / ort : 0);
    printf("| aclmdlRIExecuteAsync (replay) | %.2f | %.1f | %.1f | %.2f |\n", h_replay, e_replay, ort,
           ort > 0 ? e_replay / ort : 0);
    printf("\nreplay / direct host time: %.2f\n", h_replay / h_direct);

    CHECK(aclmdlRIDestroy(r.ri));
    CHECK(aclmdlUnload(t.id));
    aclmdlDestroyDesc(desc);
    for (size_t k = 0; k < n_out && k < 8; ++k) {
        CHECK(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(t.out, k)));
        CHECK(aclrtFree(outs[k]));
    }
    CHECK(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(t.in, 0)));
    CHECK(aclmdlDestroyDataset(t.in));
    CHECK(aclmdlDestroyDataset(t.out));
    CHECK(aclrtFree(x));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtDestroyStream(cap));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    free(host);
    return 0;
}

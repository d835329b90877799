/*
 * One dynamic model executed concurrently: N threads, each with its own
 * context stream, run aclmdlExecuteAsync + aclrtSynchronizeStream in a loop
 * over the given input sets (assigned round-robin, so threads run different
 * shapes at the same time) and check every result against its reference
 * (relative L2 <= 1e-4). Built and run under ThreadSanitizer in the TSan
 * configuration.
 *
 *   dyn_concurrency MODEL.om THREADS ITERATIONS CASE [-- CASE ...]
 *   CASE = -i FILE DIMS -r REF     (one input, one float32 output)
 */
#include <pthread.h>

#include "dyn_util.h"

#define MAXC 16

typedef struct dcase {
    const char *in_file, *ref_file;
    int64_t dims[8];
    int nd;
    float *in, *ref;
    size_t in_bytes, ref_bytes;
} dcase;

typedef struct worker {
    uint32_t id;
    int index, iterations, n_cases;
    dcase *cases;
    aclrtContext ctx;
    int failures;
    double worst;
} worker;

static aclDataType g_in_dt;
static aclFormat g_in_fmt;

static void *run(void *arg)
{
    worker *w = arg;
    if (aclrtSetCurrentContext(w->ctx) != ACL_SUCCESS) {
        w->failures++;
        return NULL;
    }
    aclrtStream stream = NULL;
    if (aclrtCreateStream(&stream) != ACL_SUCCESS) {
        w->failures++;
        return NULL;
    }
    for (int it = 0; it < w->iterations; ++it) {
        const dcase *c = &w->cases[(w->index + it) % w->n_cases];
        void *d_in = NULL, *d_out = NULL;
        if (aclrtMalloc(&d_in, c->in_bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
            aclrtMalloc(&d_out, c->ref_bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
            aclrtMemcpy(d_in, c->in_bytes, c->in, c->in_bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
            w->failures++;
            break;
        }
        aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
        aclDataBuffer *bi = aclCreateDataBuffer(d_in, c->in_bytes), *bo = aclCreateDataBuffer(d_out, c->ref_bytes);
        (void)aclmdlAddDatasetBuffer(in, bi);
        (void)aclmdlAddDatasetBuffer(out, bo);
        aclTensorDesc *td = aclCreateTensorDesc(g_in_dt, c->nd, c->dims, g_in_fmt);
        (void)aclmdlSetDatasetTensorDesc(in, td, 0);
        aclDestroyTensorDesc(td);
        aclError e = aclmdlExecuteAsync(w->id, in, out, stream);
        if (e == ACL_SUCCESS) {
            e = aclrtSynchronizeStream(stream);
        }
        if (e != ACL_SUCCESS) {
            const char *m = aclGetRecentErrMsg();
            fprintf(stderr, "thread %d iteration %d: error %d %s\n", w->index, it, (int)e, m ? m : "");
            w->failures++;
        } else {
            float *host = malloc(c->ref_bytes);
            (void)aclrtMemcpy(host, c->ref_bytes, d_out, c->ref_bytes, ACL_MEMCPY_DEVICE_TO_HOST);
            const double err = dyn_rel_l2(host, c->ref, c->ref_bytes / sizeof(float));
            if (err > w->worst) {
                w->worst = err;
            }
            if (!(err <= 1e-4)) {
                fprintf(stderr, "thread %d iteration %d (%s): rel L2 %.3g\n", w->index, it, c->in_file, err);
                w->failures++;
            }
            free(host);
        }
        aclDestroyDataBuffer(bi);
        aclDestroyDataBuffer(bo);
        aclmdlDestroyDataset(in);
        aclmdlDestroyDataset(out);
        (void)aclrtFree(d_in);
        (void)aclrtFree(d_out);
    }
    (void)aclrtDestroyStream(stream);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s MODEL.om THREADS ITERATIONS -i FILE DIMS -r REF [-- ...]\n", argv[0]);
        return 2;
    }
    const int n_threads = atoi(argv[2]), iterations = atoi(argv[3]);
    static dcase cases[MAXC];
    int n_cases = 0;
    for (int a = 4; a < argc && n_cases < MAXC;) {
        dcase *c = &cases[n_cases];
        while (a < argc && strcmp(argv[a], "--") != 0) {
            if (strcmp(argv[a], "-i") == 0 && a + 2 < argc) {
                c->in_file = argv[a + 1];
                c->nd = dyn_parse_dims(argv[a + 2], c->dims, 8);
                a += 3;
            } else if (strcmp(argv[a], "-r") == 0 && a + 1 < argc) {
                c->ref_file = argv[a + 1];
                a += 2;
            } else {
                DYN_FAIL("bad argument %s", argv[a]);
            }
        }
        a++;
        if (c->in_file == NULL || c->ref_file == NULL) {
            DYN_FAIL("case %d needs -i and -r", n_cases);
        }
        c->in = dyn_read_file(c->in_file, &c->in_bytes);
        c->ref = dyn_read_file(c->ref_file, &c->ref_bytes);
        n_cases++;
    }
    if (n_threads < 1 || n_threads > 64 || n_cases == 0) {
        DYN_FAIL("1..64 threads and at least one case");
    }
    DYN_CHECK(aclInit(NULL));
    DYN_CHECK(aclrtSetDevice(0));
    aclrtContext ctx = NULL;
    DYN_CHECK(aclrtGetCurrentContext(&ctx));
    uint32_t id = 0;
    DYN_CHECK(aclmdlLoadFromFile(argv[1], &id));
    aclmdlDesc *desc = aclmdlCreateDesc();
    DYN_CHECK(aclmdlGetDesc(desc, id));
    g_in_dt = aclmdlGetInputDataType(desc, 0);
    g_in_fmt = aclmdlGetInputFormat(desc, 0);
    aclmdlDestroyDesc(desc);
    pthread_t t[64];
    worker w[64];
    for (int i = 0; i < n_threads; ++i) {
        w[i] = (worker){.id = id, .index = i, .iterations = iterations, .n_cases = n_cases, .cases = cases,
                        .ctx = ctx};
        if (pthread_create(&t[i], NULL, run, &w[i]) != 0) {
            DYN_FAIL("pthread_create");
        }
    }
    int failures = 0;
    double worst = 0.0;
    for (int i = 0; i < n_threads; ++i) {
        pthread_join(t[i], NULL);
        failures += w[i].failures;
        worst = w[i].worst > worst ? w[i].worst : worst;
    }
    DYN_CHECK(aclmdlUnload(id));
    DYN_CHECK(aclrtResetDevice(0));
    DYN_CHECK(aclFinalize());
    for (int i = 0; i < n_cases; ++i) {
        free(cases[i].in);
        free(cases[i].ref);
    }
    printf("%d threads x %d iterations on %d input sets: %d failures, worst rel L2 %.3g\n", n_threads, iterations,
           n_cases, failures, worst);
    printf("%s\n", failures ? "FAILED" : "OK");
    return failures != 0;
}

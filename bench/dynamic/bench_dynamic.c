/*
 * bench_dynamic: one dynamic-shape model, openacl (the .om through
 * libascendcl: the V2 executor, shapes given with aclmdlSetDatasetTensorDesc)
 * against ONNX Runtime (the .onnx through bench/ort's oa_ort), in one
 * process, at one thread count, on the same inputs.
 *
 *   bench_dynamic --threads N [--passes P] [--runs K] [--warmup W] [--spin 0|1]
 *                 [--nodes COUNT] [--label TEXT] [--no-plans] [--cpu LEVEL]
 *                 MODEL.om MODEL.onnx NAME=SOURCE:DTYPE:D0,D1,... [...]
 *   SOURCE: a raw file, @random (uniform [0,1) floats, fixed seed), or @V
 *           (every element V, e.g. sr=@16000:int64:)
 *
 * Fairness as bench/ort/README.md asks: equal thread counts (openacl:
 * OPENACL_NUM_THREADS=N, set before the model is loaded; ORT: intra N,
 * inter 1, sequential, opt level 99, spinning on unless --spin 0); both
 * timed on the inference call alone (aclmdlExecute; ORT's Run); per pass
 * ORT's session is created, timed and destroyed before openacl runs. With
 * --nodes the per-node time (ns) of both is printed too. --no-plans
 * measures the dynamic path alone (OPENACL_V2_PLANS=0: shape inference and
 * allocation on every call).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "../common/bench_util.h"
#include "../common/cpu_mask.h"
#include "ort_runner.h"

#define MAX_IN 8

typedef struct input {
    const char *name;
    int ort_dtype;
    aclDataType acl_dtype;
    int rank;
    int64_t dims[8];
    void *data;
    size_t bytes;
} input;

static aclDataType acl_of(int ort)
{
    switch (ort) {
    case OA_ORT_FLOAT: return ACL_FLOAT;
    case OA_ORT_INT64: return ACL_INT64;
    case OA_ORT_INT32: return ACL_INT32;
    case OA_ORT_UINT8: return ACL_UINT8;
    case OA_ORT_BOOL: return ACL_BOOL;
    default: return ACL_DT_UNDEFINED;
    }
}

static int parse_input(char *spec, input *in)
{
    char *eq = strchr(spec, '=');
    if (eq == NULL) {
        return -1;
    }
    *eq = '\0';
    in->name = spec;
    char *src = eq + 1;
    char *c1 = strchr(src, ':');
    if (c1 == NULL) {
        return -1;
    }
    *c1 = '\0';
    char *dt = c1 + 1;
    char *c2 = strchr(dt, ':');
    if (c2 == NULL) {
        return -1;
    }
    *c2 = '\0';
    in->ort_dtype = oa_ort_dtype_from_name(dt);
    in->acl_dtype = acl_of(in->ort_dtype);
    if (in->acl_dtype == ACL_DT_UNDEFINED) {
        return -1;
    }
    int64_t numel = 1;
    for (char *p = c2 + 1; *p;) {
        char *end;
        in->dims[in->rank++] = strtoll(p, &end, 10);
        numel *= in->dims[in->rank - 1];
        p = *end == ',' ? end + 1 : end;
        if (in->rank == 8) {
            break;
        }
    }
    const size_t es = oa_ort_dtype_size(in->ort_dtype);
    in->bytes = (size_t)numel * es;
    in->data = calloc(1, in->bytes ? in->bytes : 1);
    if (strcmp(src, "@random") == 0) {
        uint64_t s = 0x9E3779B97F4A7C15ull;
        for (int64_t i = 0; i < numel; ++i) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            const double u = (double)(s >> 11) / 9007199254740992.0;
            if (in->ort_dtype == OA_ORT_FLOAT) {
                ((float *)in->data)[i] = (float)u;
            } else if (in->ort_dtype == OA_ORT_INT64) {
                ((int64_t *)in->data)[i] = (int64_t)(u * 10);
            }
        }
    } else if (src[0] == '@') {
        const double v = atof(src + 1);
        for (int64_t i = 0; i < numel; ++i) {
            if (in->ort_dtype == OA_ORT_FLOAT) {
                ((float *)in->data)[i] = (float)v;
            } else if (in->ort_dtype == OA_ORT_INT64) {
                ((int64_t *)in->data)[i] = (int64_t)v;
            } else if (in->ort_dtype == OA_ORT_INT32) {
                ((int32_t *)in->data)[i] = (int32_t)v;
            }
        }
    } else {
        FILE *f = fopen(src, "rb");
        if (f == NULL || fread(in->data, 1, in->bytes, f) != in->bytes) {
            fprintf(stderr, "bench_dynamic: %s does not hold %zu bytes\n", src, in->bytes);
            return -1;
        }
        fclose(f);
    }
    return 0;
}

#define CHECK(expr)                                                                                                \
    do {                                                                                                           \
        aclError e_ = (expr);                                                                                      \
        if (e_ != ACL_SUCCESS) {                                                                                   \
            const char *m_ = aclGetRecentErrMsg();                                                                 \
            fprintf(stderr, "bench_dynamic: %s = %d %s\n", #expr, (int)e_, m_ ? m_ : "");                          \
            exit(1);                                                                                               \
        }                                                                                                          \
    } while (0)

/* openacl: load, warm up, time `runs` executions; returns the median (ms). */
/* OA_BENCH_CPUTIME=1: both runtimes timed with the process' CPU time instead of the wall clock (as
 * bench/models: on a machine shared with other jobs, time the scheduler gives to others does not count;
 * at 2 threads it adds the threads' times and is not a latency) */
static int g_cpu_time;

static double clock_ms(void)
{
    return g_cpu_time ? bench_cpu_ms() : bench_now_ms();
}

static double time_openacl(const char *om, const input *in, int n_in, int warmup, int runs)
{
    uint32_t id = 0;
    CHECK(aclmdlLoadFromFile(om, &id));
    aclmdlDesc *desc = aclmdlCreateDesc();
    CHECK(aclmdlGetDesc(desc, id));
    const size_t n_out = aclmdlGetNumOutputs(desc);
    aclmdlDataset *ds_in = aclmdlCreateDataset(), *ds_out = aclmdlCreateDataset();
    void *dev_in[MAX_IN];
    for (int i = 0; i < n_in; ++i) {
        CHECK(aclrtMalloc(&dev_in[i], in[i].bytes ? in[i].bytes : 1, ACL_MEM_MALLOC_HUGE_FIRST));
        if (in[i].bytes) {
            CHECK(aclrtMemcpy(dev_in[i], in[i].bytes, in[i].data, in[i].bytes, ACL_MEMCPY_HOST_TO_DEVICE));
        }
        CHECK(aclmdlAddDatasetBuffer(ds_in, aclCreateDataBuffer(dev_in[i], in[i].bytes)));
        aclTensorDesc *td =
            aclCreateTensorDesc(in[i].acl_dtype, in[i].rank, in[i].rank ? in[i].dims : NULL, ACL_FORMAT_ND);
        CHECK(aclmdlSetDatasetTensorDesc(ds_in, td, (size_t)i));
        aclDestroyTensorDesc(td);
    }
    /* outputs: allocated by the first (synchronous) run, then reused */
    for (size_t k = 0; k < n_out; ++k) {
        CHECK(aclmdlAddDatasetBuffer(ds_out, aclCreateDataBuffer(NULL, 0)));
    }
    CHECK(aclmdlExecute(id, ds_in, ds_out));
    for (int w = 1; w < warmup; ++w) {
        CHECK(aclmdlExecute(id, ds_in, ds_out));
    }
    double *t = calloc((size_t)runs, sizeof(double));
    for (int r = 0; r < runs; ++r) {
        const double t0 = clock_ms();
        CHECK(aclmdlExecute(id, ds_in, ds_out));
        t[r] = clock_ms() - t0;
    }
    const double med = bench_median(t, runs);
    free(t);
    for (size_t k = 0; k < n_out; ++k) {
        aclDataBuffer *b = aclmdlGetDatasetBuffer(ds_out, k);
        if (aclGetDataBufferAddr(b) != NULL) {
            CHECK(aclrtFree(aclGetDataBufferAddr(b)));
        }
        aclDestroyDataBuffer(b);
    }
    for (int i = 0; i < n_in; ++i) {
        aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds_in, (size_t)i));
        CHECK(aclrtFree(dev_in[i]));
    }
    aclmdlDestroyDataset(ds_in);
    aclmdlDestroyDataset(ds_out);
    aclmdlDestroyDesc(desc);
    CHECK(aclmdlUnload(id));
    return med;
}

static double time_ort(oa_ort *ort, const char *onnx, const input *in, int n_in, int threads, int spin, int warmup,
                       int runs)
{
    oa_ort_options o;
    oa_ort_options_init(&o);
    o.intra_threads = threads;
    o.inter_threads = 1;
    o.allow_spinning = spin;
    oa_ort_session *s = oa_ort_session_create(ort, onnx, &o);
    if (s == NULL) {
        fprintf(stderr, "bench_dynamic: %s\n", oa_ort_last_error());
        exit(1);
    }
    oa_ort_tensor t[MAX_IN];
    for (int i = 0; i < n_in; ++i) {
        memset(&t[i], 0, sizeof t[i]);
        t[i].name = in[i].name;
        t[i].dtype = in[i].ort_dtype;
        t[i].rank = (size_t)in[i].rank;
        memcpy(t[i].dims, in[i].dims, sizeof in[i].dims);
        t[i].data = in[i].data;
        t[i].bytes = in[i].bytes;
    }
    double *ms = calloc((size_t)runs, sizeof(double));
    for (int r = -warmup; r < runs; ++r) {
        const double c0 = clock_ms();
        if (oa_ort_run(s, t, (size_t)n_in, NULL, 0) != 0) {
            fprintf(stderr, "bench_dynamic: ORT: %s\n", oa_ort_last_error());
            exit(1);
        }
        if (r >= 0) {
            ms[r] = g_cpu_time ? clock_ms() - c0 : oa_ort_last_run_ms(s);
        }
    }
    const double med = bench_median(ms, runs);
    free(ms);
    oa_ort_session_destroy(s);
    return med;
}

int main(int argc, char **argv)
{
    int threads = 1, passes = 3, runs = 20, warmup = 3, spin = 1;
    long nodes = 0;
    const char *label = NULL, *cpu_level = NULL;
    int a = 1;
    for (; a < argc && strncmp(argv[a], "--", 2) == 0; a += 2) {
        if (strcmp(argv[a], "--no-plans") == 0) {
            setenv("OPENACL_V2_PLANS", "0", 1);
            a--;
            continue;
        }
        if (a + 1 >= argc) {
            break;
        }
        if (strcmp(argv[a], "--threads") == 0) {
            threads = atoi(argv[a + 1]);
        } else if (strcmp(argv[a], "--passes") == 0) {
            passes = atoi(argv[a + 1]);
        } else if (strcmp(argv[a], "--runs") == 0) {
            runs = atoi(argv[a + 1]);
        } else if (strcmp(argv[a], "--warmup") == 0) {
            warmup = atoi(argv[a + 1]);
        } else if (strcmp(argv[a], "--spin") == 0) {
            spin = atoi(argv[a + 1]);
        } else if (strcmp(argv[a], "--nodes") == 0) {
            nodes = atol(argv[a + 1]);
        } else if (strcmp(argv[a], "--label") == 0) {
            label = argv[a + 1];
        } else if (strcmp(argv[a], "--cpu") == 0) {
            cpu_level = argv[a + 1];
        } else {
            fprintf(stderr, "bench_dynamic: unknown option %s\n", argv[a]);
            return 2;
        }
    }
    if (argc - a < 3 || threads < 1 || passes < 1 || runs < 1 || warmup < 1) {
        fprintf(stderr, "usage: %s --threads N [--passes P] [--runs K] [--warmup W] [--spin 0|1] [--nodes N] "
                        "[--label T] [--no-plans] [--cpu LEVEL] MODEL.om MODEL.onnx NAME=SOURCE:DTYPE:DIMS ...\n",
                argv[0]);
        return 2;
    }
    /* before any library reads CPUID: both sides then run as on that smaller CPU (../common/cpu_mask.h) */
    if (bench_cpu_mask_option("bench_dynamic", cpu_level) != 0) {
        return 2;
    }
    const char *om = argv[a], *onnx = argv[a + 1];
    input in[MAX_IN];
    memset(in, 0, sizeof in);
    int n_in = 0;
    for (int i = a + 2; i < argc && n_in < MAX_IN; ++i) {
        if (parse_input(argv[i], &in[n_in]) != 0) {
            fprintf(stderr, "bench_dynamic: bad input %s\n", argv[i]);
            return 2;
        }
        n_in++;
    }
    g_cpu_time = bench_cpu_time_wanted();
    char nt[16];
    snprintf(nt, sizeof nt, "%d", threads);
    setenv("OPENACL_NUM_THREADS", nt, 1);
    oa_ort *ort = oa_ort_open(NULL);
    if (ort == NULL) {
        fprintf(stderr, "bench_dynamic: %s\n", oa_ort_last_error());
        return 1;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    double ours[64], theirs[64];
    passes = passes > 64 ? 64 : passes;
    for (int p = 0; p < passes; ++p) {
        theirs[p] = time_ort(ort, onnx, in, n_in, threads, spin, warmup, runs);
        ours[p] = time_openacl(om, in, n_in, warmup, runs);
    }
    double o_best = ours[0], t_best = theirs[0];
    for (int p = 1; p < passes; ++p) {
        o_best = ours[p] < o_best ? ours[p] : o_best;
        t_best = theirs[p] < t_best ? theirs[p] : t_best;
    }
    const double o_med = bench_median(ours, passes), t_med = bench_median(theirs, passes);
    printf("%s threads %d: openacl %.4f ms (best %.4f), ORT %.4f ms (best %.4f, spin %d), ratio %.2f", label ? label : om,
           threads, o_med, o_best, t_med, t_best, spin, o_med / t_med);
    if (nodes > 0) {
        printf(", per node: openacl %.1f ns, ORT %.1f ns", o_med * 1e6 / (double)nodes, t_med * 1e6 / (double)nodes);
    }
    printf("%s\n", g_cpu_time ? " (CPU time)" : "");
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    oa_ort_close(ort);
    for (int i = 0; i < n_in; ++i) {
        free(in[i].data);
    }
    return 0;
}

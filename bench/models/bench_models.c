/*
 * bench_models: one model, openacl (an .om through libascendcl) against
 * ONNX Runtime (the .onnx through bench/ort's oa_ort) in one process, at
 * one thread count, on the same inputs.
 *
 *   bench_models --threads N [--passes P] [--runs K] [--warmup W] [--spin 0|1]
 *                [--cpu LEVEL] MODEL.om MODEL.onnx NAME=FILE:DTYPE:D0,D1,... [...]
 *
 * --cpu avx2|avx512|avx512_vnni|avx512_bf16: both sides run as on a CPU with
 * only that much of this one's instruction set (../common/cpu_mask.h).
 *
 * Fairness as bench/ort/README.md asks: equal thread counts (openacl:
 * OPENACL_NUM_THREADS=N, set here before aclInit; ORT: intra_threads N,
 * inter 1, sequential, opt level 99, spinning on unless --spin 0); both
 * timed on the inference call alone (aclmdlExecute; ORT's Run); per pass
 * ORT's session is created, timed and destroyed (its spinning threads are
 * gone) before openacl runs, so neither runs while the other's threads
 * spin. Prints the median of each pass and the best pass median.
 *
 * Memory and load: before ONNX Runtime is loaded, the process's resident
 * set is read (VmRSS) after aclInit, the model is loaded (timed: wall time
 * of aclmdlLoadFromFile) and executed --warmup times, then VmHWM is read:
 * "peak RSS" is that high-water mark, "model RSS" the part above the
 * pre-load baseline (libraries, inputs) less the application's output
 * buffers (allocated and written once right after the load; the RSS they
 * added is reported as "app outputs"), compared with the model's weight +
 * work sizes from aclmdlQuerySize (the "weights + activations").
 * "steady model RSS" is the same difference taken from VmRSS at that point:
 * what the model holds once the load's transients are gone; "of it anonymous"
 * its RssAnon part: the process's own memory, without the pages of code and
 * files it maps (libascendcl's and oneDNN's code that ran, the .om's pages
 * read in place), which other processes share.
 * The RESULT line carries every number; run_models.sh makes the table.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "../common/bench_util.h"
#include "../common/cpu_mask.h"
#include "ort_runner.h"

#define MAX_IN 8

/* NAME=FILE:DTYPE:D0,D1,... */
static int parse_input(const char *spec, oa_ort_tensor *t, char *name, size_t cap)
{
    memset(t, 0, sizeof(*t));
    const char *eq = strchr(spec, '=');
    const char *c1 = eq ? strchr(eq + 1, ':') : NULL;
    const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (eq == NULL || c1 == NULL || c2 == NULL || (size_t)(eq - spec) >= cap) {
        return -1;
    }
    memcpy(name, spec, (size_t)(eq - spec));
    name[eq - spec] = '\0';
    t->name = name;
    char file[1024], dt[32];
    snprintf(file, sizeof file, "%.*s", (int)(c1 - eq - 1), eq + 1);
    snprintf(dt, sizeof dt, "%.*s", (int)(c2 - c1 - 1), c1 + 1);
    t->dtype = oa_ort_dtype_from_name(dt);
    for (const char *p = c2 + 1; *p != '\0' && t->rank < OA_ORT_MAX_RANK;) {
        char *end;
        t->dims[t->rank++] = strtoll(p, &end, 10);
        p = *end == ',' ? end + 1 : end;
        if (end == p && *p != '\0') {
            return -1;
        }
    }
    t->data = bench_read_file(file, &t->bytes);
    return t->data != NULL && t->dtype != 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    int threads = 1, passes = 3, runs = 10, warmup = 3, spin = 1;
    const char *cpu_level = NULL;
    int i = 1;
    for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        if (strcmp(argv[i], "--threads") == 0) {
            threads = atoi(argv[i + 1]);
        } else if (strcmp(argv[i], "--passes") == 0) {
            passes = atoi(argv[i + 1]);
        } else if (strcmp(argv[i], "--runs") == 0) {
            runs = atoi(argv[i + 1]);
        } else if (strcmp(argv[i], "--warmup") == 0) {
            warmup = atoi(argv[i + 1]);
        } else if (strcmp(argv[i], "--spin") == 0) {
            spin = atoi(argv[i + 1]);
        } else if (strcmp(argv[i], "--cpu") == 0) {
            cpu_level = argv[i + 1];
        } else {
            break;
        }
    }
    if (argc - i < 3 || threads < 1 || passes < 1 || runs < 1 || runs > 1000) {
        fprintf(stderr, "usage: bench_models --threads N [--passes P] [--runs K] [--warmup W] [--spin 0|1] "
                        "[--cpu LEVEL] MODEL.om MODEL.onnx NAME=FILE:DTYPE:DIMS...\n");
        return 2;
    }
    /* before any library reads CPUID: both sides then choose their kernels as on that smaller CPU */
    if (bench_cpu_mask_option("bench_models", cpu_level) != 0) {
        return 2;
    }
    const char *om = argv[i], *onnx = argv[i + 1];
    oa_ort_tensor in[MAX_IN];
    char names[MAX_IN][128];
    int n_in = 0;
    for (int k = i + 2; k < argc && n_in < MAX_IN; k++, n_in++) {
        if (parse_input(argv[k], &in[n_in], names[n_in], sizeof names[n_in]) != 0) {
            fprintf(stderr, "bad input %s\n", argv[k]);
            return 2;
        }
    }
    char nt[16];
    snprintf(nt, sizeof nt, "%d", threads);
    setenv("OPENACL_NUM_THREADS", nt, 1);

    /* OA_BENCH_ACL_JSON: an acl.json for aclInit (e.g. profiling on, for the overhead figure in bench/RESULTS.md) */
    const char *acl_json = getenv("OA_BENCH_ACL_JSON");
    if (aclInit(acl_json != NULL && acl_json[0] != '\0' ? acl_json : NULL) != ACL_SUCCESS ||
        aclrtSetDevice(0) != ACL_SUCCESS) {
        fprintf(stderr, "ACL init failed: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    size_t work_size = 0, weight_size = 0;
    if (aclmdlQuerySize(om, &work_size, &weight_size) != ACL_SUCCESS) {
        fprintf(stderr, "query size %s failed: %s\n", om, aclGetRecentErrMsg());
        return 1;
    }
    const double rss0 = bench_status_mib("VmRSS:"), anon0 = bench_status_mib("RssAnon:");
    uint32_t id = 0;
    const double l0 = bench_now_ms();
    if (aclmdlLoadFromFile(om, &id) != ACL_SUCCESS) {
        fprintf(stderr, "load %s failed: %s\n", om, aclGetRecentErrMsg());
        return 1;
    }
    const double load_ms = bench_now_ms() - l0;
    aclmdlDesc *desc = aclmdlCreateDesc();
    (void)aclmdlGetDesc(desc, id);
    aclmdlDataset *ds_in = aclmdlCreateDataset(), *ds_out = aclmdlCreateDataset();
    for (int k = 0; k < n_in; k++) {
        (void)aclmdlAddDatasetBuffer(ds_in, aclCreateDataBuffer(in[k].data, in[k].bytes));
    }
    void *outs[16];
    const size_t n_out = aclmdlGetNumOutputs(desc);
    /* the application's output buffers are its memory like the inputs: their pages are not the model's */
    const double rss_out0 = bench_status_mib("VmRSS:"), anon_out0 = bench_status_mib("RssAnon:");
    for (size_t j = 0; j < n_out && j < 16; j++) {
        const size_t size = aclmdlGetOutputSizeByIndex(desc, j);
        outs[j] = malloc(size);
        if (outs[j] != NULL) {
            memset(outs[j], 0x5a, size); /* not 0: malloc + memset 0 may become an untouched calloc */
        }
        (void)aclmdlAddDatasetBuffer(ds_out, aclCreateDataBuffer(outs[j], size));
    }
    const double app_out = bench_status_mib("VmRSS:") - rss_out0;
    const double app_anon = bench_status_mib("RssAnon:") - anon_out0;
    double first_ms = -1; /* the first execution after the load (work that waited for it shows here) */
    for (int r = 0; r < warmup; r++) {
        const double f0 = bench_now_ms();
        if (aclmdlExecute(id, ds_in, ds_out) != ACL_SUCCESS) {
            fprintf(stderr, "aclmdlExecute: %s\n", aclGetRecentErrMsg());
            return 1;
        }
        first_ms = r == 0 ? bench_now_ms() - f0 : first_ms;
    }
    const double hwm = bench_status_mib("VmHWM:");
    const double steady = bench_status_mib("VmRSS:"); /* what stays after the load's transients (docs/memory.md) */
    const double steady_anon = bench_status_mib("RssAnon:"); /* of it, the process's own memory (not code, not files) */
    oa_ort *ort = oa_ort_open(NULL);
    if (ort == NULL) {
        fprintf(stderr, "ONNX Runtime: %s\n", oa_ort_last_error());
        return 1;
    }
    oa_ort_options o;
    oa_ort_options_init(&o);
    o.intra_threads = threads;
    o.inter_threads = 1;
    o.allow_spinning = spin;
    /* OA_BENCH_CPUTIME=1: both sides timed with the process' CPU time (a 1-thread run on a machine
     * shared with other jobs: time the scheduler gives to others does not count; at 2 threads
     * this adds the threads' times and is not a latency) */
    const int cpu_time = bench_cpu_time_wanted();
    double ours_best = 1e30, ort_best = 1e30;
    double *t = malloc(sizeof(double) * (size_t)runs);
    for (int p = 0; p < passes; p++) {
        oa_ort_session *s = oa_ort_session_create(ort, onnx, &o);
        if (s == NULL) {
            fprintf(stderr, "ONNX Runtime session: %s\n", oa_ort_last_error());
            return 1;
        }
        for (int r = 0; r < warmup + runs; r++) {
            const double c0 = bench_cpu_ms();
            if (oa_ort_run(s, in, (size_t)n_in, NULL, 0) != 0) {
                fprintf(stderr, "ONNX Runtime run: %s\n", oa_ort_last_error());
                return 1;
            }
            if (r >= warmup) {
                t[r - warmup] = cpu_time ? bench_cpu_ms() - c0 : oa_ort_last_run_ms(s);
            }
        }
        oa_ort_session_destroy(s);
        const double ort_ms = bench_median(t, runs);
        for (int r = 0; r < warmup + runs; r++) {
            const double t0 = cpu_time ? bench_cpu_ms() : bench_now_ms();
            if (aclmdlExecute(id, ds_in, ds_out) != ACL_SUCCESS) {
                fprintf(stderr, "aclmdlExecute: %s\n", aclGetRecentErrMsg());
                return 1;
            }
            if (r >= warmup) {
                t[r - warmup] = (cpu_time ? bench_cpu_ms() : bench_now_ms()) - t0;
            }
        }
        const double ours_ms = bench_median(t, runs);
        printf("pass %d: openacl %.3f ms, ONNX Runtime %.3f ms\n", p + 1, ours_ms, ort_ms);
        ours_best = ours_ms < ours_best ? ours_ms : ours_best;
        ort_best = ort_ms < ort_best ? ort_ms : ort_best;
    }
    const char *base = strrchr(om, '/');
    const double wa = (double)(work_size + weight_size) / (1024.0 * 1024.0);
    printf("RESULT %s threads %d: openacl %.3f ms, ONNX Runtime %.3f ms (spin %d), ratio openacl/ORT %.2f, "
           "load %.1f ms, peak RSS %.1f MiB, model RSS %.1f MiB, weights %.1f MiB, work %.1f MiB, "
           "model RSS/(weights+work) %.2f, app outputs %.1f MiB, first run %.3f ms, steady model RSS %.1f MiB, "
           "of it anonymous %.1f MiB %.2f of weights+work\n",
           base ? base + 1 : om, threads, ours_best, ort_best, spin, ours_best / ort_best, load_ms, hwm,
           hwm - rss0 - app_out, (double)weight_size / (1024.0 * 1024.0), (double)work_size / (1024.0 * 1024.0),
           (hwm - rss0 - app_out) / wa, app_out, first_ms, steady - rss0 - app_out, steady_anon - anon0 - app_anon,
           (steady_anon - anon0 - app_anon) / wa);
    if (cpu_level != NULL) {
        printf("cpu mask %s: %lu CPUID instructions answered\n", cpu_level, bench_cpu_mask_faults());
    }
    free(t);
    (void)aclmdlUnload(id);
    (void)aclFinalize();
    return 0;
}

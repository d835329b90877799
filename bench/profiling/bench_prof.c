/*
 * Profiling overhead on one static model (not a test): the same loaded
 * model timed with profiling off and with a task-time session running,
 * alternating in one process so that both see the same machine load.
 *
 *   bench_prof [--threads N] [--passes P] [--runs R] MODEL.om INPUT.bin...
 *
 * Each pass: R aclmdlExecute calls with profiling off (median), then
 * aclprofStart(ACL_PROF_TASK_TIME | ACL_PROF_ACL_API), R calls (median),
 * aclprofStop (its file writing not timed). Prints the best pass median of
 * each and the ratio, in wall time and in the calling thread's CPU time
 * (with --threads 1 all the work is on that thread, and its CPU time hardly
 * moves with the load other processes put on the machine)
 * (docs/profiling.md; bench/RESULTS.md "Profiling overhead").
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "../common/bench_util.h"

#define MAX_IO 16

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    int threads = 1, passes = 5, runs = 20, i = 1;
    for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        if (strcmp(argv[i], "--threads") == 0) {
            threads = atoi(argv[i + 1]);
        } else if (strcmp(argv[i], "--passes") == 0) {
            passes = atoi(argv[i + 1]);
        } else if (strcmp(argv[i], "--runs") == 0) {
            runs = atoi(argv[i + 1]);
        } else {
            fprintf(stderr, "unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (i >= argc || passes < 1 || runs < 1 || runs > 1000) {
        fprintf(stderr, "usage: bench_prof [--threads N] [--passes P] [--runs R] MODEL.om INPUT.bin...\n");
        return 2;
    }
    const char *om = argv[i++];
    char nt[16];
    snprintf(nt, sizeof nt, "%d", threads);
    setenv("OPENACL_NUM_THREADS", nt, 1);
    const char *out_dir = getenv("OA_BENCH_PROF_DIR") != NULL ? getenv("OA_BENCH_PROF_DIR") : "/tmp/oa_bench_prof";
    uint32_t id = 0;
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS || aclmdlLoadFromFile(om, &id) != ACL_SUCCESS ||
        aclprofInit(out_dir, strlen(out_dir)) != ACL_SUCCESS) {
        fprintf(stderr, "setup failed: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    aclmdlDesc *desc = aclmdlCreateDesc();
    if (desc == NULL || aclmdlGetDesc(desc, id) != ACL_SUCCESS) {
        fprintf(stderr, "desc failed\n");
        return 1;
    }
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    const size_t n_in = aclmdlGetNumInputs(desc), n_out = aclmdlGetNumOutputs(desc);
    if (n_in != (size_t)(argc - i) || n_in > MAX_IO || n_out > MAX_IO) {
        fprintf(stderr, "the model has %zu inputs, %d given\n", n_in, argc - i);
        return 1;
    }
    for (size_t k = 0; k < n_in; ++k) {
        size_t size = 0;
        void *host = bench_read_file(argv[i + (int)k], &size);
        const size_t need = aclmdlGetInputSizeByIndex(desc, k);
        void *dev = NULL;
        if (host == NULL || size != need || aclrtMalloc(&dev, need, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
            fprintf(stderr, "input %zu: %zu bytes, the model wants %zu\n", k, size, need);
            return 1;
        }
        memcpy(dev, host, need);
        free(host);
        aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(dev, need));
    }
    for (size_t k = 0; k < n_out; ++k) {
        const size_t need = aclmdlGetOutputSizeByIndex(desc, k);
        void *dev = NULL;
        if (aclrtMalloc(&dev, need, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
            return 1;
        }
        aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(dev, need));
    }
    uint32_t dev0 = 0;
    aclprofConfig *cfg = aclprofCreateConfig(&dev0, 1, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME | ACL_PROF_ACL_API);
    double best_off = 1e30, best_on = 1e30, t[1000], c[1000], cpu_off = 1e30, cpu_on = 1e30;
    for (int w = 0; w < 3; ++w) {
        aclmdlExecute(id, in, out);
    }
    for (int p = 0; p < passes; ++p) {
        for (int side = 0; side < 2; ++side) {
            if (side == 1 && aclprofStart(cfg) != ACL_SUCCESS) {
                fprintf(stderr, "aclprofStart failed: %s\n", aclGetRecentErrMsg());
                return 1;
            }
            for (int r = 0; r < runs; ++r) {
                const double c0 = cpu_ms();
                const double t0 = bench_now_ms();
                if (aclmdlExecute(id, in, out) != ACL_SUCCESS) {
                    fprintf(stderr, "execute failed: %s\n", aclGetRecentErrMsg());
                    return 1;
                }
                t[r] = bench_now_ms() - t0;
                c[r] = cpu_ms() - c0;
            }
            const double m = bench_median(t, runs), mc = bench_median(c, runs);
            if (side == 0) {
                best_off = m < best_off ? m : best_off;
                cpu_off = mc < cpu_off ? mc : cpu_off;
            } else {
                best_on = m < best_on ? m : best_on;
                cpu_on = mc < cpu_on ? mc : cpu_on;
                aclprofStop(cfg);
            }
        }
    }
    printf("RESULT %s threads %d: wall off %.3f ms, on %.3f ms, %+.2f%%; calling thread CPU off %.3f ms, on %.3f ms, "
           "%+.2f%%\n",
           om, threads, best_off, best_on, 100.0 * (best_on / best_off - 1.0), cpu_off, cpu_on,
           100.0 * (cpu_on / cpu_off - 1.0));
    aclprofDestroyConfig(cfg);
    aclprofFinalize();
    return 0;
}

/*
 * bench_shapes: one dynamic-shape model fed a sequence of input shapes, as an
 * application with images or text lines of many sizes feeds it: each shape's
 * first execution (on the dynamic path: kernels created for the new
 * signature, its plan recorded) and then its steady executions (the plan),
 * and what the process holds at the end.
 *
 *   bench_shapes --threads N [--steady K] [--rounds R] [--verbose] MODEL.om "D0,D1,...;D0,D1,...;..."
 *
 * The shapes are those of the model's first input (float32, values uniform
 * in [0, 1) from a fixed seed); the list is run R times (the later rounds
 * meet shapes already seen: their first execution is a plan run). Prints
 * the average first and steady (best of K) times of the first round, and
 * VmRSS / RssAnon / VmHWM at the end. The process's memory before the load
 * is printed too, so the model's part is the difference.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "../common/bench_util.h"

#define MAX_SHAPES 256
#define MAX_RANK 8

static double status_mib(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double kib = -1;
    const size_t n = strlen(key);
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, key, n) == 0) {
            kib = atof(line + n);
            break;
        }
    }
    if (f != NULL) {
        fclose(f);
    }
    return kib / 1024.0;
}

typedef struct shape {
    int rank;
    int64_t dims[MAX_RANK];
    size_t elems;
} shape;

static int parse_shapes(char *list, shape *out, int cap)
{
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(list, ";", &save); tok != NULL; tok = strtok_r(NULL, ";", &save)) {
        if (n == cap) {
            return -1;
        }
        shape *s = &out[n];
        s->rank = 0;
        s->elems = 1;
        for (char *save2 = NULL, *d = strtok_r(tok, ",", &save2); d != NULL; d = strtok_r(NULL, ",", &save2)) {
            const long long v = atoll(d);
            if (s->rank == MAX_RANK || v <= 0) {
                return -1;
            }
            s->dims[s->rank++] = v;
            s->elems *= (size_t)v;
        }
        n += s->rank > 0;
    }
    return n;
}

/* One execution on shape s; its time in ms, or < 0 on failure (reported). */
static double run_once(uint32_t id, const shape *s, float *x, void *y, size_t y_bytes)
{
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    aclDataBuffer *xb = aclCreateDataBuffer(x, s->elems * sizeof(float)), *yb = aclCreateDataBuffer(y, y_bytes);
    aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT, s->rank, s->dims, ACL_FORMAT_NCHW);
    double ms = -1;
    if (in != NULL && out != NULL && xb != NULL && yb != NULL && d != NULL &&
        aclmdlAddDatasetBuffer(in, xb) == ACL_SUCCESS && aclmdlAddDatasetBuffer(out, yb) == ACL_SUCCESS &&
        aclmdlSetDatasetTensorDesc(in, d, 0) == ACL_SUCCESS) {
        const double t0 = bench_now_ms();
        if (aclmdlExecute(id, in, out) == ACL_SUCCESS) {
            ms = bench_now_ms() - t0;
        } else {
            fprintf(stderr, "bench_shapes: execute: %s\n", aclGetRecentErrMsg());
        }
    }
    aclDestroyTensorDesc(d);
    aclDestroyDataBuffer(xb);
    aclDestroyDataBuffer(yb);
    aclmdlDestroyDataset(in);
    aclmdlDestroyDataset(out);
    return ms;
}

int main(int argc, char **argv)
{
    int threads = 1, steady_runs = 3, rounds = 1, verbose = 0, a = 1;
    for (; a < argc && strncmp(argv[a], "--", 2) == 0; a++) {
        if (strcmp(argv[a], "--verbose") == 0) {
            verbose = 1;
        } else if (a + 1 < argc && strcmp(argv[a], "--threads") == 0) {
            threads = atoi(argv[++a]);
        } else if (a + 1 < argc && strcmp(argv[a], "--steady") == 0) {
            steady_runs = atoi(argv[++a]);
        } else if (a + 1 < argc && strcmp(argv[a], "--rounds") == 0) {
            rounds = atoi(argv[++a]);
        } else {
            fprintf(stderr, "bench_shapes: unknown option %s\n", argv[a]);
            return 2;
        }
    }
    static shape shapes[MAX_SHAPES];
    const int n = a + 2 == argc ? parse_shapes(argv[a + 1], shapes, MAX_SHAPES) : -1;
    if (n <= 0 || threads < 1 || steady_runs < 1 || rounds < 1) {
        fprintf(stderr, "usage: %s --threads N [--steady K] [--rounds R] [--verbose] MODEL.om \"D0,D1,...;...\"\n",
                argv[0]);
        return 2;
    }
    char nt[16];
    snprintf(nt, sizeof nt, "%d", threads);
    setenv("OPENACL_NUM_THREADS", nt, 1);
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
        fprintf(stderr, "ACL init failed: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    size_t most = 0;
    for (int i = 0; i < n; i++) {
        most = shapes[i].elems > most ? shapes[i].elems : most;
    }
    float *x = malloc(most * sizeof(float));
    const size_t y_bytes = most * sizeof(float) * 8; /* room for the outputs of the models benchmarked here */
    void *y = malloc(y_bytes);
    if (x == NULL || y == NULL) {
        return 1;
    }
    uint64_t seed = 42;
    for (size_t i = 0; i < most; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        x[i] = (float)(seed >> 40) / (float)(1u << 24);
    }
    memset(y, 0, y_bytes);
    const double rss0 = status_mib("VmRSS:"), anon0 = status_mib("RssAnon:");
    uint32_t id = 0;
    if (aclmdlLoadFromFile(argv[a], &id) != ACL_SUCCESS) {
        fprintf(stderr, "load %s failed: %s\n", argv[a], aclGetRecentErrMsg());
        return 1;
    }
    double first = 0, steady = 0, later_first = 0;
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < n; i++) {
            const double f = run_once(id, &shapes[i], x, y, y_bytes);
            double best = 1e30;
            for (int k = 0; k < steady_runs && f >= 0; k++) {
                const double t = run_once(id, &shapes[i], x, y, y_bytes);
                best = t >= 0 && t < best ? t : best;
            }
            if (f < 0 || best > 1e29) {
                return 1;
            }
            if (r == 0) {
                first += f;
                steady += best;
            } else {
                later_first += f;
            }
            if (verbose) {
                printf("round %d shape %d: first %.3f ms, steady %.3f ms, RSS %.1f MiB\n", r + 1, i + 1, f, best,
                       status_mib("VmRSS:"));
            }
        }
    }
    printf("RESULT %s threads %d, %d shapes x %d rounds: first %.3f ms, steady %.3f ms, first/steady %.2f", argv[a],
           threads, n, rounds, first / n, steady / n, first / steady);
    if (rounds > 1) {
        printf(", later rounds' first %.3f ms", later_first / ((double)n * (rounds - 1)));
    }
    printf(", RSS %.1f MiB (before the load %.1f), anonymous %.1f MiB (%.1f), peak %.1f MiB\n", status_mib("VmRSS:"),
           rss0, status_mib("RssAnon:"), anon0, status_mib("VmHWM:"));
    (void)aclmdlUnload(id);
    (void)aclFinalize();
    free(x);
    free(y);
    return 0;
}

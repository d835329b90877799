/*
 * bench_shapes: one dynamic-shape model fed a sequence of input shapes, as an
 * application with images or text lines of many sizes feeds it: each shape's
 * first execution (on the dynamic path: kernels created for the new
 * signature, its plan recorded) and then its steady executions (the plan),
 * and what the process holds at the end.
 *
 *   bench_shapes --threads N [--steady K] [--rounds R] [--inputs I] [--out-per-elem F] [--verbose]
 *                MODEL.om "D0,D1,...;..."
 *
 * The shapes are those of the model's first I inputs (1 unless --inputs:
 * BERT's ids, mask and token types share theirs), of the model's data types:
 * floats uniform in [0, 1) from a fixed seed, integers 1; the other inputs of
 * a model are not supported. Each output buffer holds F (default 8) floats
 * per element of the largest input shape. The list is run R times (the later rounds
 * meet shapes already seen: their first execution is a plan run). Prints
 * the average first and steady (best of K) times of the first round, and
 * VmRSS / RssAnon / VmHWM at the end. The process's memory before the load
 * is printed too, so the model's part is the difference.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "../common/bench_util.h"

#define MAX_SHAPES 256
#define MAX_RANK 8

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

#define MAX_IO 8

typedef struct io {
    int n_in, n_out;
    aclDataType dt[MAX_IO];
    void *x[MAX_IO]; /* each input's data, for the largest shape */
    void *y[MAX_IO];
    size_t y_bytes;
} io;

/* One execution on shape s; its time in ms, or < 0 on failure (reported). */
static double run_once(uint32_t id, const shape *s, const io *b)
{
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    bool ok = in != NULL && out != NULL;
    for (int k = 0; k < b->n_in && ok; k++) {
        aclDataBuffer *xb = aclCreateDataBuffer(b->x[k], s->elems * aclDataTypeSize(b->dt[k]));
        aclTensorDesc *d = aclCreateTensorDesc(b->dt[k], s->rank, s->dims, ACL_FORMAT_ND);
        ok = xb != NULL && d != NULL && aclmdlAddDatasetBuffer(in, xb) == ACL_SUCCESS &&
             aclmdlSetDatasetTensorDesc(in, d, (size_t)k) == ACL_SUCCESS;
        aclDestroyTensorDesc(d);
    }
    for (int k = 0; k < b->n_out && ok; k++) {
        aclDataBuffer *yb = aclCreateDataBuffer(b->y[k], b->y_bytes);
        ok = yb != NULL && aclmdlAddDatasetBuffer(out, yb) == ACL_SUCCESS;
    }
    double ms = -1;
    if (ok) {
        const double t0 = bench_now_ms();
        if (aclmdlExecute(id, in, out) == ACL_SUCCESS) {
            ms = bench_now_ms() - t0;
        } else {
            fprintf(stderr, "bench_shapes: execute: %s\n", aclGetRecentErrMsg());
        }
    }
    for (size_t k = 0; in != NULL && k < aclmdlGetDatasetNumBuffers(in); k++) {
        aclDestroyDataBuffer(aclmdlGetDatasetBuffer(in, k));
    }
    for (size_t k = 0; out != NULL && k < aclmdlGetDatasetNumBuffers(out); k++) {
        aclDestroyDataBuffer(aclmdlGetDatasetBuffer(out, k));
    }
    aclmdlDestroyDataset(in);
    aclmdlDestroyDataset(out);
    return ms;
}

int main(int argc, char **argv)
{
    int threads = 1, steady_runs = 3, rounds = 1, n_in = 1, verbose = 0, a = 1;
    long out_per_elem = 8;
    for (; a < argc && strncmp(argv[a], "--", 2) == 0; a++) {
        if (strcmp(argv[a], "--verbose") == 0) {
            verbose = 1;
        } else if (a + 1 < argc && strcmp(argv[a], "--threads") == 0) {
            threads = atoi(argv[++a]);
        } else if (a + 1 < argc && strcmp(argv[a], "--steady") == 0) {
            steady_runs = atoi(argv[++a]);
        } else if (a + 1 < argc && strcmp(argv[a], "--rounds") == 0) {
            rounds = atoi(argv[++a]);
        } else if (a + 1 < argc && strcmp(argv[a], "--inputs") == 0) {
            n_in = atoi(argv[++a]);
        } else if (a + 1 < argc && strcmp(argv[a], "--out-per-elem") == 0) {
            out_per_elem = atol(argv[++a]);
        } else {
            fprintf(stderr, "bench_shapes: unknown option %s\n", argv[a]);
            return 2;
        }
    }
    static shape shapes[MAX_SHAPES];
    const int n = a + 2 == argc ? parse_shapes(argv[a + 1], shapes, MAX_SHAPES) : -1;
    if (n <= 0 || threads < 1 || steady_runs < 1 || rounds < 1 || n_in < 1 || n_in > MAX_IO || out_per_elem < 1) {
        fprintf(stderr, "usage: %s --threads N [--steady K] [--rounds R] [--inputs I] [--out-per-elem F] [--verbose] "
                        "MODEL.om \"D0,D1,...;...\"\n",
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
    io b = {.n_in = n_in};
    /* the data are made before the load: the baseline holds them */
    uint32_t probe = 0;
    aclmdlDesc *desc = aclmdlCreateDesc();
    if (desc == NULL || aclmdlLoadFromFile(argv[a], &probe) != ACL_SUCCESS ||
        aclmdlGetDesc(desc, probe) != ACL_SUCCESS) {
        fprintf(stderr, "load %s failed: %s\n", argv[a], aclGetRecentErrMsg());
        return 1;
    }
    if ((size_t)n_in > aclmdlGetNumInputs(desc) || aclmdlGetNumOutputs(desc) > MAX_IO) {
        fprintf(stderr, "bench_shapes: the model has %zu inputs and %zu outputs\n", aclmdlGetNumInputs(desc),
                aclmdlGetNumOutputs(desc));
        return 2;
    }
    b.n_out = (int)aclmdlGetNumOutputs(desc);
    uint64_t seed = 42;
    for (int k = 0; k < n_in; k++) {
        b.dt[k] = aclmdlGetInputDataType(desc, (size_t)k);
        const size_t es = aclDataTypeSize(b.dt[k]);
        if ((b.x[k] = malloc(most * (es > 0 ? es : 1))) == NULL) {
            return 1;
        }
        for (size_t i = 0; i < most; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            const float f = (float)(seed >> 40) / (float)(1u << 24);
            if (b.dt[k] == ACL_FLOAT) {
                ((float *)b.x[k])[i] = f;
            } else if (b.dt[k] == ACL_INT64) {
                ((int64_t *)b.x[k])[i] = 1;
            } else if (b.dt[k] == ACL_INT32) {
                ((int32_t *)b.x[k])[i] = 1;
            } else {
                fprintf(stderr, "bench_shapes: input %d: data type %d not supported here\n", k, (int)b.dt[k]);
                return 2;
            }
        }
    }
    (void)aclmdlDestroyDesc(desc);
    (void)aclmdlUnload(probe);
    b.y_bytes = most * sizeof(float) * (size_t)out_per_elem;
    for (int k = 0; k < b.n_out; k++) {
        if ((b.y[k] = calloc(1, b.y_bytes)) == NULL) {
            return 1;
        }
    }
    const double rss0 = bench_status_mib("VmRSS:"), anon0 = bench_status_mib("RssAnon:");
    uint32_t id = 0;
    if (aclmdlLoadFromFile(argv[a], &id) != ACL_SUCCESS) {
        fprintf(stderr, "load %s failed: %s\n", argv[a], aclGetRecentErrMsg());
        return 1;
    }
    double first = 0, steady = 0, later_first = 0;
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < n; i++) {
            const double f = run_once(id, &shapes[i], &b);
            double best = 1e30;
            for (int k = 0; k < steady_runs && f >= 0; k++) {
                const double t = run_once(id, &shapes[i], &b);
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
                       bench_status_mib("VmRSS:"));
            }
        }
    }
    printf("RESULT %s threads %d, %d shapes x %d rounds: first %.3f ms, steady %.3f ms, first/steady %.2f", argv[a],
           threads, n, rounds, first / n, steady / n, first / steady);
    if (rounds > 1) {
        printf(", later rounds' first %.3f ms", later_first / ((double)n * (rounds - 1)));
    }
    printf(", RSS %.1f MiB (before the load %.1f), anonymous %.1f MiB (%.1f), peak %.1f MiB\n",
           bench_status_mib("VmRSS:"), rss0, bench_status_mib("RssAnon:"), anon0, bench_status_mib("VmHWM:"));
    (void)aclmdlUnload(id);
    (void)aclFinalize();
    for (int k = 0; k < b.n_in; k++) {
        free(b.x[k]);
    }
    for (int k = 0; k < b.n_out; k++) {
        free(b.y[k]);
    }
    return 0;
}

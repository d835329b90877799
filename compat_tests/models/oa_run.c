/*
 * oa_run: an msame-style model runner written against the public ACL API
 * only (it is both a compat program and the installed <prefix>/bin/oa_run).
 *
 *   oa_run --model m.om [--input a.bin,b.bin] [--output DIR] [--loop N] [--warmup N]
 *          [--device D] [--dymBatch N | --dymHW H,W | --dymDims d1,d2,...]
 *          [--load file|mem|withmem|config] [--async | --asyncV2] [--compare DIR [--tol T]] [--top5]
 *
 * Inputs are raw little-endian files, one per model input in order (the
 * gear input ascend_mbatch_shape_data excepted: the --dym* options fill
 * it); a missing --input runs on zeros. Outputs are written as
 * DIR/<model>_output_<i>.bin. --compare reads DIR/<name>.bin for each
 * output (name = the part of the output name after its last ':', characters
 * outside [A-Za-z0-9._-] as '_', as bench/ort's ort_run writes them) and
 * prints the relative L2 error of float outputs; it fails above --tol
 * (default 1e-4). --top5 prints the five largest values of output 0 (and,
 * with --compare, fails when the reference's top five differ).
 * --async runs aclmdlExecuteAsync, --asyncV2 aclmdlExecuteAsyncV2 with an exec
 * config (stream-sync timeout 60 s), each followed by aclrtSynchronizeStream.
 * Latency: "Inference average time: X ms" over --loop runs after --warmup.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "acl/acl.h"

#define MAX_IO 64

#define CHECK(expr)                                                                                  \
    do {                                                                                             \
        aclError ret_ = (expr);                                                                      \
        if (ret_ != ACL_SUCCESS) {                                                                   \
            const char *m_ = aclGetRecentErrMsg();                                                   \
            fprintf(stderr, "[ERROR] %s failed: %d (%s)\n", #expr, ret_, m_ != NULL ? m_ : "");       \
            return 1;                                                                                \
        }                                                                                            \
    } while (0)

typedef struct opts {
    const char *model, *input, *output, *compare, *load;
    int loop, warmup, device;
    long batch;
    long hw[2];
    int64_t dims[ACL_MAX_DIM_CNT];
    size_t n_dims;
    double tol;
    int async, top5;
} opts;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *buf = malloc(n > 0 ? (size_t)n : 1);
    if (buf != NULL && n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *size = n > 0 ? (size_t)n : 0;
    return buf;
}

static int write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        return -1;
    }
    const size_t w = fwrite(data, 1, n, f);
    fclose(f);
    return w == n ? 0 : -1;
}

static int usage(void)
{
    fprintf(stderr, "usage: oa_run --model m.om [--input a.bin,b.bin] [--output DIR] [--loop N] [--warmup N]\n"
                    "              [--device D] [--dymBatch N | --dymHW H,W | --dymDims d1,d2,...]\n"
                    "              [--load file|mem|withmem|config] [--async | --asyncV2] [--compare DIR [--tol T]]\n"
                    "              [--top5]\n");
    return 2;
}

static int parse(int argc, char **argv, opts *o)
{
    memset(o, 0, sizeof(*o));
    o->loop = 1;
    o->tol = 1e-4;
    o->load = "file";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--async") == 0) {
            o->async = 1;
            continue;
        }
        if (strcmp(a, "--asyncV2") == 0) {
            o->async = 2;
            continue;
        }
        if (strcmp(a, "--top5") == 0) {
            o->top5 = 1;
            continue;
        }
        if (v == NULL) {
            return usage();
        }
        i++;
        if (strcmp(a, "--model") == 0) {
            o->model = v;
        } else if (strcmp(a, "--input") == 0) {
            o->input = v;
        } else if (strcmp(a, "--output") == 0) {
            o->output = v;
        } else if (strcmp(a, "--compare") == 0) {
            o->compare = v;
        } else if (strcmp(a, "--load") == 0) {
            o->load = v;
        } else if (strcmp(a, "--loop") == 0) {
            o->loop = atoi(v);
        } else if (strcmp(a, "--warmup") == 0) {
            o->warmup = atoi(v);
        } else if (strcmp(a, "--device") == 0) {
            o->device = atoi(v);
        } else if (strcmp(a, "--tol") == 0) {
            o->tol = atof(v);
        } else if (strcmp(a, "--dymBatch") == 0) {
            o->batch = atol(v);
        } else if (strcmp(a, "--dymHW") == 0) {
            if (sscanf(v, "%ld,%ld", &o->hw[0], &o->hw[1]) != 2) {
                return usage();
            }
        } else if (strcmp(a, "--dymDims") == 0) {
            const char *p = v;
            while (*p != '\0' && o->n_dims < ACL_MAX_DIM_CNT) {
                char *end;
                o->dims[o->n_dims++] = strtoll(p, &end, 10);
                p = *end == ',' ? end + 1 : end;
                if (end == p && *p != '\0') {
                    return usage();
                }
            }
        } else {
            return usage();
        }
    }
    return o->model == NULL || o->loop < 1 || o->warmup < 0 ? usage() : 0;
}

static void out_file_name(const char *name, char *buf, size_t cap)
{
    const char *c = strrchr(name, ':');
    const char *s = c != NULL ? c + 1 : name;
    size_t n = 0;
    for (; *s != '\0' && n + 1 < cap; s++) {
        const char ch = *s;
        const int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                       ch == '.' || ch == '_' || ch == '-';
        buf[n++] = ok ? ch : '_';
    }
    buf[n] = '\0';
}

static void top5(const float *v, size_t n, size_t idx[5])
{
    for (int k = 0; k < 5; k++) {
        idx[k] = SIZE_MAX;
    }
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 5; k++) {
            if (idx[k] == SIZE_MAX || v[i] > v[idx[k]]) {
                for (int j = 4; j > k; j--) {
                    idx[j] = idx[j - 1];
                }
                idx[k] = i;
                break;
            }
        }
    }
}

/* Compares output j with its reference; returns 0 when within tolerance. */
static int compare_output(const opts *o, const char *name, aclDataType dt, const void *data, size_t size, int is_first)
{
    char fname[256], path[1024];
    out_file_name(name, fname, sizeof fname);
    snprintf(path, sizeof path, "%s/%s.bin", o->compare, fname);
    size_t rsize = 0;
    void *ref = read_file(path, &rsize);
    if (ref == NULL) {
        fprintf(stderr, "[ERROR] reference %s cannot be read\n", path);
        return 1;
    }
    int bad = 0;
    if (rsize > size) {
        fprintf(stderr, "[ERROR] output %s: %zu bytes, reference %zu\n", name, size, rsize);
        bad = 1;
    } else if (dt == ACL_FLOAT) {
        const float *a = data, *b = ref;
        const size_t n = rsize / sizeof(float);
        double num = 0, den = 0, maxd = 0;
        for (size_t i = 0; i < n; i++) {
            const double d = (double)a[i] - (double)b[i];
            num += d * d;
            den += (double)b[i] * (double)b[i];
            maxd = fabs(d) > maxd ? fabs(d) : maxd;
        }
        const double rel = den > 0 ? sqrt(num / den) : sqrt(num);
        printf("compare %s: %zu floats, relative L2 error %.3g, max abs diff %.3g%s\n", name, n, rel, maxd,
               rel <= o->tol ? "" : "  <-- above tolerance");
        bad = !(rel <= o->tol);
        if (o->top5 && is_first) {
            size_t ia[5], ib[5];
            top5(a, n, ia);
            top5(b, n, ib);
            for (int k = 0; k < 5 && n >= 5; k++) {
                if (ia[k] != ib[k]) {
                    printf("top-5 differs from the reference at rank %d (%zu vs %zu)\n", k + 1, ia[k], ib[k]);
                    bad = 1;
                }
            }
            if (!bad) {
                printf("top-5 identical to the reference\n");
            }
        }
    } else {
        bad = memcmp(data, ref, rsize) != 0;
        printf("compare %s: %zu bytes %s\n", name, rsize, bad ? "differ" : "identical");
    }
    free(ref);
    return bad;
}

static int load_model(const opts *o, uint32_t *id, void **work, void **weight, void **image)
{
    if (strcmp(o->load, "file") == 0) {
        CHECK(aclmdlLoadFromFile(o->model, id));
        return 0;
    }
    size_t size = 0;
    if (strcmp(o->load, "mem") == 0 || strcmp(o->load, "config") == 0) {
        *image = read_file(o->model, &size);
        if (*image == NULL) {
            fprintf(stderr, "[ERROR] cannot read %s\n", o->model);
            return 1;
        }
        if (strcmp(o->load, "mem") == 0) {
            CHECK(aclmdlLoadFromMem(*image, size, id));
            return 0;
        }
        aclmdlConfigHandle *h = aclmdlCreateConfigHandle();
        const size_t type = ACL_MDL_LOAD_FROM_MEM;
        CHECK(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof(type)));
        CHECK(aclmdlSetConfigOpt(h, ACL_MDL_MEM_ADDR_PTR, image, sizeof(*image)));
        CHECK(aclmdlSetConfigOpt(h, ACL_MDL_MEM_SIZET, &size, sizeof(size)));
        CHECK(aclmdlLoadWithConfig(h, id));
        CHECK(aclmdlDestroyConfigHandle(h));
        return 0;
    }
    if (strcmp(o->load, "withmem") == 0) {
        size_t work_size = 0, weight_size = 0;
        CHECK(aclmdlQuerySize(o->model, &work_size, &weight_size));
        printf("query size: work %zu bytes, weight %zu bytes\n", work_size, weight_size);
        CHECK(aclrtMalloc(work, work_size, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK(aclrtMalloc(weight, weight_size, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK(aclmdlLoadFromFileWithMem(o->model, id, *work, work_size, *weight, weight_size));
        return 0;
    }
    fprintf(stderr, "[ERROR] unknown --load %s\n", o->load);
    return 2;
}

int main(int argc, char **argv)
{
    opts o;
    int rc = parse(argc, argv, &o);
    if (rc != 0) {
        return rc;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(o.device));
    aclrtContext ctx;
    aclrtStream stream;
    CHECK(aclrtCreateContext(&ctx, o.device));
    CHECK(aclrtCreateStream(&stream));
    aclmdlExecConfigHandle *exec_cfg = aclmdlCreateExecConfigHandle();
    if (exec_cfg == NULL) {
        fprintf(stderr, "[ERROR] aclmdlCreateExecConfigHandle failed\n");
        return 1;
    }
    const int32_t sync_timeout_ms = 60000;
    CHECK(aclmdlSetExecConfigOpt(exec_cfg, ACL_MDL_STREAM_SYNC_TIMEOUT, &sync_timeout_ms, sizeof(sync_timeout_ms)));
    uint32_t id = 0;
    void *work = NULL, *weight = NULL, *image = NULL;
    if ((rc = load_model(&o, &id, &work, &weight, &image)) != 0) {
        return rc;
    }
    aclmdlDesc *desc = aclmdlCreateDesc();
    CHECK(aclmdlGetDesc(desc, id));
    const size_t n_in = aclmdlGetNumInputs(desc), n_out = aclmdlGetNumOutputs(desc);
    if (n_in > MAX_IO || n_out > MAX_IO) {
        fprintf(stderr, "[ERROR] too many inputs/outputs\n");
        return 1;
    }
    size_t gear_index = SIZE_MAX;
    if (aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_TENSOR_NAME, &gear_index) != ACL_SUCCESS) {
        gear_index = SIZE_MAX;
    }
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    void *in_dev[MAX_IO] = {0}, *out_dev[MAX_IO] = {0};
    /* inputs: the files in order, skipping the gear input */
    char *list = o.input != NULL ? strdup(o.input) : NULL;
    char *save = NULL;
    char *tok = list != NULL ? strtok_r(list, ",", &save) : NULL;
    for (size_t i = 0; i < n_in; i++) {
        size_t size = aclmdlGetInputSizeByIndex(desc, i);
        void *host = NULL;
        size_t hsize = 0;
        if (i != gear_index && tok != NULL) {
            host = read_file(tok, &hsize);
            if (host == NULL) {
                fprintf(stderr, "[ERROR] cannot read input %s\n", tok);
                return 1;
            }
            tok = strtok_r(NULL, ",", &save);
            if (hsize < size && gear_index == SIZE_MAX) {
                fprintf(stderr, "[WARNING] input %zu: file has %zu bytes, the model %zu\n", i, hsize, size);
            }
            size = hsize > 0 ? hsize : size;
        }
        CHECK(aclrtMalloc(&in_dev[i], size ? size : 1, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK(aclrtMemset(in_dev[i], size ? size : 1, 0, size ? size : 1));
        if (host != NULL && hsize > 0) {
            CHECK(aclrtMemcpy(in_dev[i], size, host, hsize, ACL_MEMCPY_HOST_TO_DEVICE));
        }
        free(host);
        CHECK(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(in_dev[i], size)));
    }
    free(list);
    if (gear_index != SIZE_MAX) {
        if (o.batch > 0) {
            CHECK(aclmdlSetDynamicBatchSize(id, in, gear_index, (uint64_t)o.batch));
        } else if (o.hw[0] > 0) {
            CHECK(aclmdlSetDynamicHWSize(id, in, gear_index, (uint64_t)o.hw[0], (uint64_t)o.hw[1]));
        } else if (o.n_dims > 0) {
            aclmdlIODims dims;
            memset(&dims, 0, sizeof(dims));
            dims.dimCount = o.n_dims;
            memcpy(dims.dims, o.dims, o.n_dims * sizeof(int64_t));
            CHECK(aclmdlSetInputDynamicDims(id, in, gear_index, &dims));
        } else {
            fprintf(stderr, "[ERROR] the model has gears: give --dymBatch, --dymHW or --dymDims\n");
            return 1;
        }
    }
    for (size_t j = 0; j < n_out; j++) {
        const size_t size = aclmdlGetOutputSizeByIndex(desc, j);
        CHECK(aclrtMalloc(&out_dev[j], size ? size : 1, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(out_dev[j], size)));
    }
    double total = 0, best = 1e30;
    for (int r = 0; r < o.warmup + o.loop; r++) {
        const double t0 = now_ms();
        if (o.async == 2) {
            CHECK(aclmdlExecuteAsyncV2(id, in, out, stream, exec_cfg));
            CHECK(aclrtSynchronizeStream(stream));
        } else if (o.async) {
            CHECK(aclmdlExecuteAsync(id, in, out, stream));
            CHECK(aclrtSynchronizeStream(stream));
        } else {
            CHECK(aclmdlExecute(id, in, out));
        }
        const double t = now_ms() - t0;
        if (r >= o.warmup) {
            total += t;
            best = t < best ? t : best;
        }
    }
    printf("Inference average time: %.3f ms (best %.3f ms, %d runs)\n", total / o.loop, best, o.loop);
    int bad = 0;
    for (size_t j = 0; j < n_out; j++) {
        aclmdlIODims dims;
        size_t size = aclmdlGetOutputSizeByIndex(desc, j);
        if (gear_index != SIZE_MAX && aclmdlGetCurOutputDims(desc, j, &dims) == ACL_SUCCESS) {
            size_t n = aclDataTypeSize(aclmdlGetOutputDataType(desc, j));
            for (size_t k = 0; k < dims.dimCount; k++) {
                n *= (size_t)dims.dims[k];
            }
            size = n;
        }
        void *host = malloc(size ? size : 1);
        CHECK(aclrtMemcpy(host, size ? size : 1, out_dev[j], size, ACL_MEMCPY_DEVICE_TO_HOST));
        const char *name = aclmdlGetOutputNameByIndex(desc, j);
        if (o.output != NULL) {
            char path[1024];
            const char *base = strrchr(o.model, '/');
            base = base != NULL ? base + 1 : o.model;
            char stem[256];
            snprintf(stem, sizeof stem, "%s", base);
            char *dot = strrchr(stem, '.');
            if (dot != NULL) {
                *dot = '\0';
            }
            mkdir(o.output, 0755);
            snprintf(path, sizeof path, "%s/%s_output_%zu.bin", o.output, stem, j);
            if (write_file(path, host, size) != 0) {
                fprintf(stderr, "[ERROR] cannot write %s\n", path);
                bad = 1;
            }
        }
        if (o.top5 && j == 0 && aclmdlGetOutputDataType(desc, j) == ACL_FLOAT && size >= 5 * sizeof(float)) {
            size_t idx[5];
            top5(host, size / sizeof(float), idx);
            printf("top-5 of %s:", name);
            for (int k = 0; k < 5; k++) {
                printf(" [%zu] %.6f", idx[k], (double)((const float *)host)[idx[k]]);
            }
            printf("\n");
        }
        if (o.compare != NULL) {
            bad |= compare_output(&o, name, aclmdlGetOutputDataType(desc, j), host, size, j == 0);
        }
        free(host);
    }
    for (size_t i = 0; i < n_in; i++) {
        CHECK(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(in, i)));
        CHECK(aclrtFree(in_dev[i]));
    }
    for (size_t j = 0; j < n_out; j++) {
        CHECK(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(out, j)));
        CHECK(aclrtFree(out_dev[j]));
    }
    CHECK(aclmdlDestroyDataset(in));
    CHECK(aclmdlDestroyDataset(out));
    CHECK(aclmdlDestroyDesc(desc));
    CHECK(aclmdlUnload(id));
    if (work != NULL) {
        CHECK(aclrtFree(work));
    }
    if (weight != NULL) {
        CHECK(aclrtFree(weight));
    }
    free(image);
    CHECK(aclmdlDestroyExecConfigHandle(exec_cfg));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtDestroyContext(ctx));
    CHECK(aclrtResetDevice(o.device));
    CHECK(aclFinalize());
    if (bad) {
        printf("oa_run: FAILED\n");
        return 1;
    }
    printf("oa_run: OK\n");
    return 0;
}

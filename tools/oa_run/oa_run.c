/*
 * oa_run: an msame-compatible model runner over the public ACL API only,
 * installed as <prefix>/bin/oa_run. The command line, the output layout and
 * the printed lines follow msame (docs/oa_run.md); the latency summary and
 * sumary.json follow ais_bench.
 *
 *   oa_run --model m.om [--input a.bin,b.bin | --input dir1,dir2] [--output DIR] [--outfmt TXT|BIN]
 *          [--loop N] [--warmup N] [--device D] [--debug true|false]
 *          [--dymBatch N | --dymHW H,W | --dymDims "name:d1,d2;name2:..." | --dymShape "name:d1,d2;..."]
 *          [--outputSize s1,s2,...] [--load file|mem|withmem|config] [--async | --asyncV2]
 *          [--compare DIR [--tol T]] [--top5]
 *
 * Options take "--opt value" and "--opt=value" (getopt_long). Exit status:
 * 0 success, 1 a failure while running, 2 a bad command line.
 *
 * This file loads and runs the model and holds main; the command line is in
 * oa_run_cli.c, the input and output files in oa_run_io.c.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "oa_run_internal.h"

/* ------------------------------------------------------------------ */
/* model                                                               */

static int load_model(const opts *o, uint32_t *id, void **work, void **weight, void **image)
{
    if (strcmp(o->load, "file") == 0) {
        CHECK(aclmdlLoadFromFile(o->model, id));
        return 0;
    }
    size_t size = 0;
    if (strcmp(o->load, "mem") == 0 || strcmp(o->load, "config") == 0) {
        *image = oa_run_read_file(o->model, &size);
        if (*image == NULL) {
            ERROR_LOG("cannot read %s", o->model);
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
    size_t work_size = 0, weight_size = 0;
    CHECK(aclmdlQuerySize(o->model, &work_size, &weight_size));
    printf("query size: work %zu bytes, weight %zu bytes\n", work_size, weight_size);
    CHECK(aclrtMalloc(work, work_size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(weight, weight_size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclmdlLoadFromFileWithMem(o->model, id, *work, work_size, *weight, weight_size));
    return 0;
}

static void print_dims(const aclmdlIODims *d)
{
    for (size_t j = 0; j < d->dimCount; j++) {
        printf("%lld ", (long long)d->dims[j]);
    }
    printf("\n");
}

/* msame's --debug true: the model description. */
static int print_desc(const runner *r)
{
    DEBUG_LOG("start print model description");
    DEBUG_LOG("NumInputs: %zu", r->n_in);
    DEBUG_LOG("NumOutputs: %zu", r->n_out);
    aclmdlIODims d;
    for (size_t i = 0; i < r->n_in; i++) {
        DEBUG_LOG("the size of %zu input: %zu", i, aclmdlGetInputSizeByIndex(r->desc, i));
        CHECK(aclmdlGetInputDims(r->desc, i, &d));
        DEBUG_LOG("the dims of %zu input:", i);
        print_dims(&d);
        DEBUG_LOG("the name of %zu input: %s", i, aclmdlGetInputNameByIndex(r->desc, i));
        DEBUG_LOG("the Format of %zu input: %u", i, (unsigned)aclmdlGetInputFormat(r->desc, i));
        DEBUG_LOG("the DataType of %zu input: %u", i, (unsigned)aclmdlGetInputDataType(r->desc, i));
    }
    for (size_t i = 0; i < r->n_out; i++) {
        DEBUG_LOG("the size of %zu output: %zu", i, aclmdlGetOutputSizeByIndex(r->desc, i));
        CHECK(aclmdlGetOutputDims(r->desc, i, &d));
        DEBUG_LOG("the dims of %zu output:", i);
        print_dims(&d);
        DEBUG_LOG("the name of %zu output: %s", i, aclmdlGetOutputNameByIndex(r->desc, i));
        DEBUG_LOG("the Format of %zu output: %u", i, (unsigned)aclmdlGetOutputFormat(r->desc, i));
        DEBUG_LOG("the DataType of %zu output: %u", i, (unsigned)aclmdlGetOutputDataType(r->desc, i));
    }
    aclmdlBatch batch;
    CHECK(aclmdlGetDynamicBatch(r->desc, &batch));
    if (batch.batchCount != 0) {
        DEBUG_LOG("DynamicBatch:");
        for (size_t i = 0; i < batch.batchCount; i++) {
            printf("%llu ", (unsigned long long)batch.batch[i]);
        }
        printf("\n");
    }
    aclmdlHW hw;
    CHECK(aclmdlGetDynamicHW(r->desc, (size_t)-1, &hw));
    if (hw.hwCount != 0) {
        DEBUG_LOG("DynamicHW:");
        for (size_t i = 0; i < hw.hwCount; i++) {
            printf("%llu,%llu ", (unsigned long long)hw.hw[i][0], (unsigned long long)hw.hw[i][1]);
        }
        printf("\n");
    }
    DEBUG_LOG("end print model description");
    return 0;
}

/* Finds the gear input only when the model has gears (no failing name lookup on other models). */
static int find_gear_input(runner *r)
{
    r->gear_index = SIZE_MAX;
    aclmdlBatch batch;
    aclmdlHW hw;
    size_t dims_gears = 0;
    CHECK(aclmdlGetDynamicBatch(r->desc, &batch));
    CHECK(aclmdlGetDynamicHW(r->desc, (size_t)-1, &hw));
    CHECK(aclmdlGetInputDynamicGearCount(r->desc, (size_t)-1, &dims_gears));
    if (batch.batchCount == 0 && hw.hwCount == 0 && dims_gears == 0) {
        return 0;
    }
    CHECK(aclmdlGetInputIndexByName(r->desc, ACL_DYNAMIC_TENSOR_NAME, &r->gear_index));
    INFO_LOG("get input index by name success");
    return 0;
}

static void print_gears(const runner *r)
{
    aclmdlBatch batch;
    aclmdlHW hw;
    size_t nd = 0;
    if (aclmdlGetDynamicBatch(r->desc, &batch) == ACL_SUCCESS && batch.batchCount > 0) {
        printf("[ERROR] model has dynamic batch size:{");
        for (size_t i = 0; i < batch.batchCount; i++) {
            printf("[%llu]", (unsigned long long)batch.batch[i]);
        }
        printf("}, please set correct dynamic batch size\n");
    }
    if (aclmdlGetDynamicHW(r->desc, (size_t)-1, &hw) == ACL_SUCCESS && hw.hwCount > 0) {
        printf("[ERROR] model has %zu gear of HW:", hw.hwCount);
        for (size_t i = 0; i < hw.hwCount; i++) {
            printf(" [%llu,%llu]", (unsigned long long)hw.hw[i][0], (unsigned long long)hw.hw[i][1]);
        }
        printf("\n");
    }
    if (aclmdlGetInputDynamicGearCount(r->desc, (size_t)-1, &nd) == ACL_SUCCESS && nd > 0 && nd <= ACL_MAX_DIM_CNT) {
        aclmdlIODims *g = calloc(nd, sizeof(*g));
        if (g != NULL && aclmdlGetInputDynamicDims(r->desc, (size_t)-1, g, nd) == ACL_SUCCESS) {
            printf("[ERROR] model has %zu gear of dims\n", nd);
            for (size_t i = 0; i < nd; i++) {
                printf("[ERROR] dims[%zu]:", i);
                for (size_t k = 0; k < g[i].dimCount; k++) {
                    printf("[%lld]", (long long)g[i].dims[k]);
                }
                printf("\n");
            }
        }
        free(g);
    }
}

/* The --dymShape entry of input i (by name), NULL when absent. */
static const named_shape *shape_of(const opts *o, const runner *r, size_t i)
{
    const char *name = aclmdlGetInputNameByIndex(r->desc, i);
    for (size_t k = 0; name != NULL && k < o->n_shapes; ++k) {
        if (strcmp(o->shapes[k].name, name) == 0) {
            return &o->shapes[k];
        }
    }
    return NULL;
}

/* Checks the --dym* option against the model before anything runs. */
static int check_dynamic(const opts *o, const runner *r)
{
    if (o->dym == DYM_SHAPE) {
        if (r->gear_index != SIZE_MAX) {
            ERROR_LOG("the model has gears: use --dymBatch, --dymHW or --dymDims, not --dymShape");
            return 1;
        }
        for (size_t k = 0; k < o->n_shapes; ++k) {
            int found = 0;
            for (size_t i = 0; i < r->n_in && !found; ++i) {
                const char *name = aclmdlGetInputNameByIndex(r->desc, i);
                found = name != NULL && strcmp(name, o->shapes[k].name) == 0;
            }
            if (!found) {
                ERROR_LOG("the dymShape parameter names input '%s', which the model does not have",
                          o->shapes[k].name);
                return 1;
            }
        }
        for (size_t i = 0; i < r->n_in; ++i) {
            if (shape_of(o, r, i) == NULL) {
                ERROR_LOG("the dymShape parameter gives no shape for input '%s'",
                          aclmdlGetInputNameByIndex(r->desc, i));
                return 1;
            }
        }
        return 0;
    }
    if (r->gear_index == SIZE_MAX) {
        if (o->dym != DYM_NONE) {
            ERROR_LOG("the model has no gears (it was not converted with --dynamic_batch_size, "
                      "--dynamic_image_size or --dynamic_dims): drop --dymBatch/--dymHW/--dymDims");
            return 1;
        }
        return 0;
    }
    if (o->dym == DYM_NONE) {
        ERROR_LOG("the model has gears: give --dymBatch, --dymHW or --dymDims");
        print_gears(r);
        return 1;
    }
    if (o->dym == DYM_DIMS) {
        for (size_t k = 0; k < o->n_shapes; ++k) {
            if (o->shapes[k].name[0] == '\0') {
                continue; /* bare dims */
            }
            size_t idx = 0;
            int found = 0;
            for (size_t i = 0; i < r->n_in && !found; ++i) {
                const char *name = aclmdlGetInputNameByIndex(r->desc, i);
                found = name != NULL && strcmp(name, o->shapes[k].name) == 0;
                idx = i;
            }
            if (!found || idx == r->gear_index) {
                ERROR_LOG("the dymDims parameter names input '%s', which the model does not have",
                          o->shapes[k].name);
                return 1;
            }
        }
    }
    return 0;
}

static size_t shape_bytes(const named_shape *s, aclDataType dt)
{
    size_t n = aclDataTypeSize(dt);
    for (size_t k = 0; k < s->n_dims; ++k) {
        n *= (size_t)s->dims[k];
    }
    return n;
}

static int create_outputs(const opts *o, runner *r)
{
    if (o->n_out_size != 0 && o->n_out_size != r->n_out) {
        ERROR_LOG("om has %zu output, but outputSize parameter give %zu", r->n_out, o->n_out_size);
        return 1;
    }
    r->out = aclmdlCreateDataset();
    if (r->out == NULL) {
        ERROR_LOG("can't create dataset, create output failed");
        return 1;
    }
    for (size_t j = 0; j < r->n_out; ++j) {
        size_t size = o->n_out_size != 0 ? o->out_size[j] : aclmdlGetOutputSizeByIndex(r->desc, j);
        if (size == 0) {
            ERROR_LOG("the size of output %zu is unknown (dynamic shape): give --outputSize with one byte count "
                      "per output", j);
            return 1;
        }
        CHECK(aclrtMalloc(&r->out_dev[j], size, ACL_MEM_MALLOC_HUGE_FIRST));
        r->out_cap[j] = size;
        aclDataBuffer *b = aclCreateDataBuffer(r->out_dev[j], size);
        if (b == NULL) {
            ERROR_LOG("can't create data buffer, create output failed");
            return 1;
        }
        CHECK(aclmdlAddDatasetBuffer(r->out, b));
    }
    INFO_LOG("create model output success");
    return 0;
}

static void destroy_inputs(aclmdlDataset *in, void **dev, size_t n)
{
    const size_t added = in != NULL ? aclmdlGetDatasetNumBuffers(in) : 0;
    for (size_t i = 0; i < n; i++) {
        if (i < added) {
            (void)aclDestroyDataBuffer(aclmdlGetDatasetBuffer(in, i));
        }
        if (dev[i] != NULL) {
            (void)aclrtFree(dev[i]);
            dev[i] = NULL;
        }
    }
    if (in != NULL) {
        (void)aclmdlDestroyDataset(in);
    }
}

/*
 * Builds the input dataset of one set of files (files[k] for the k-th
 * non-gear input; NULL files: zeros) and applies the --dym* option.
 */
static int create_inputs(const opts *o, runner *r, char *const *files, size_t n_files, aclmdlDataset **out_in,
                         void **dev)
{
    aclmdlDataset *in = aclmdlCreateDataset();
    *out_in = in;
    if (in == NULL) {
        ERROR_LOG("can't create dataset, create input failed");
        return 1;
    }
    size_t k = 0;
    for (size_t i = 0; i < r->n_in; ++i) {
        size_t size = aclmdlGetInputSizeByIndex(r->desc, i);
        const named_shape *sh = o->dym == DYM_SHAPE ? shape_of(o, r, i) : NULL;
        if (sh != NULL) {
            size = shape_bytes(sh, aclmdlGetInputDataType(r->desc, i));
        }
        void *host = NULL;
        size_t hsize = 0;
        if (i != r->gear_index && files != NULL) {
            if (k >= n_files) {
                ERROR_LOG("the model has more inputs than the %zu given files", n_files);
                return 1;
            }
            INFO_LOG("start to process file:%s", files[k]);
            host = oa_run_read_file(files[k], &hsize);
            if (host == NULL) {
                ERROR_LOG("cannot read input %s: %s", files[k], strerror(errno));
                return 1;
            }
            if (hsize == 0) {
                ERROR_LOG("binfile is empty, filename is %s", files[k]);
                free(host);
                return 1;
            }
            if (hsize != size && r->gear_index == SIZE_MAX) {
                WARN_LOG("input %zu: %s has %zu bytes, the model expects %zu", i, files[k], hsize, size);
            }
            ++k;
            size = hsize;
        }
        const size_t alloc = size > 0 ? size : 1;
        aclError e = aclrtMalloc(&dev[i], alloc, ACL_MEM_MALLOC_HUGE_FIRST);
        if (e == ACL_SUCCESS) {
            e = aclrtMemset(dev[i], alloc, 0, alloc);
        }
        if (e == ACL_SUCCESS && host != NULL) {
            const double t0 = oa_run_now_ms();
            e = aclrtMemcpy(dev[i], alloc, host, hsize, ACL_MEMCPY_HOST_TO_DEVICE);
            r->h2d_ms += oa_run_now_ms() - t0;
            r->n_h2d++;
        }
        free(host);
        CHECK(e);
        aclDataBuffer *b = aclCreateDataBuffer(dev[i], size);
        if (b == NULL) {
            ERROR_LOG("can't create data buffer, create input failed");
            return 1;
        }
        const aclError add = aclmdlAddDatasetBuffer(in, b);
        if (add != ACL_SUCCESS) {
            (void)aclDestroyDataBuffer(b);
            CHECK(add);
        }
    }
    if (files != NULL && k != n_files) {
        ERROR_LOG("the model has %zu inputs, but %zu files were given", k, n_files);
        return 1;
    }
    switch (o->dym) {
    case DYM_BATCH:
        CHECK(aclmdlSetDynamicBatchSize(r->id, in, r->gear_index, o->batch));
        INFO_LOG("set dynamic batch size success");
        break;
    case DYM_HW:
        CHECK(aclmdlSetDynamicHWSize(r->id, in, r->gear_index, o->hw[0], o->hw[1]));
        INFO_LOG("set Dynamic HW success");
        break;
    case DYM_DIMS: {
        aclmdlIODims dims;
        memset(&dims, 0, sizeof(dims));
        dims.dimCount = o->n_dims;
        memcpy(dims.dims, o->dims, o->n_dims * sizeof(int64_t));
        const aclError e = aclmdlSetInputDynamicDims(r->id, in, r->gear_index, &dims);
        if (e != ACL_SUCCESS) {
            const char *m = aclGetRecentErrMsg();
            ERROR_LOG("aclmdlSetInputDynamicDims failed %d%s%s", (int)e, m != NULL ? ": " : "", m != NULL ? m : "");
            print_gears(r);
            return 1;
        }
        INFO_LOG("set dynamic dims success");
        break;
    }
    case DYM_SHAPE:
        for (size_t i = 0; i < r->n_in; ++i) {
            const named_shape *sh = shape_of(o, r, i);
            aclTensorDesc *td = aclCreateTensorDesc(aclmdlGetInputDataType(r->desc, i), (int)sh->n_dims, sh->dims,
                                                    aclmdlGetInputFormat(r->desc, i));
            if (td == NULL) {
                ERROR_LOG("aclCreateTensorDesc failed for input %zu", i);
                return 1;
            }
            const aclError e = aclmdlSetDatasetTensorDesc(in, td, i);
            aclDestroyTensorDesc(td);
            CHECK(e);
        }
        INFO_LOG("set Dynamic shape success");
        break;
    case DYM_NONE:
        break;
    }
    return 0;
}

static int record_time(runner *r, double t)
{
    if (r->n_times == r->cap_times) {
        const size_t cap = r->cap_times != 0 ? 2 * r->cap_times : 64;
        double *p = realloc(r->times, cap * sizeof(double));
        if (p == NULL) {
            ERROR_LOG("out of memory");
            return 1;
        }
        r->times = p;
        r->cap_times = cap;
    }
    r->times[r->n_times++] = t;
    return 0;
}

static int execute_once(const opts *o, runner *r, aclmdlDataset *in, double *ms)
{
    const double t0 = oa_run_now_ms();
    if (o->async == 2) {
        CHECK(aclmdlExecuteAsyncV2(r->id, in, r->out, r->stream, r->exec_cfg));
        CHECK(aclrtSynchronizeStream(r->stream));
    } else if (o->async) {
        CHECK(aclmdlExecuteAsync(r->id, in, r->out, r->stream));
        CHECK(aclrtSynchronizeStream(r->stream));
    } else {
        CHECK(aclmdlExecute(r->id, in, r->out));
    }
    *ms = oa_run_now_ms() - t0;
    return 0;
}

/* Runs one input set warmup + n times (timed: the last n), then writes its outputs under stem. */
static int run_set(const opts *o, runner *r, char *const *files, size_t n_files, long warmup, long n,
                   const char *run_dir, const char *stem, int *bad)
{
    void *dev[MAX_IO] = {0};
    aclmdlDataset *in = NULL;
    int rc = create_inputs(o, r, files, n_files, &in, dev);
    for (long t = 0; rc == 0 && t < warmup + n; ++t) {
        double ms = 0;
        rc = execute_once(o, r, in, &ms);
        if (rc == 0 && t >= warmup) {
            printf("Inference time: %gms\n", ms);
            rc = record_time(r, ms);
        }
    }
    if (rc == 0) {
        rc = oa_run_write_outputs(o, r, run_dir, stem, bad);
    }
    destroy_inputs(in, dev, r->n_in);
    return rc;
}

/* ------------------------------------------------------------------ */
/* summary                                                             */

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* numpy.percentile's default (linear between the closest ranks) on sorted values. */
static double percentile(const double *sorted, size_t n, double p)
{
    if (n == 0) {
        return 0;
    }
    const double pos = (double)(n - 1) * p / 100.0;
    const size_t lo = (size_t)floor(pos);
    const size_t hi = lo + 1 < n ? lo + 1 : lo;
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - (double)lo);
}

typedef struct stats {
    double min, max, mean, median, p99;
} stats;

static stats compute_stats(const double *v, size_t n)
{
    stats s = {0, 0, 0, 0, 0};
    if (n == 0) {
        return s;
    }
    double *sorted = malloc(n * sizeof(double));
    if (sorted == NULL) {
        return s;
    }
    memcpy(sorted, v, n * sizeof(double));
    qsort(sorted, n, sizeof(double), cmp_double);
    double sum = 0;
    for (size_t i = 0; i < n; ++i) {
        sum += v[i];
    }
    s.min = sorted[0];
    s.max = sorted[n - 1];
    s.mean = sum / (double)n;
    s.median = percentile(sorted, n, 50);
    s.p99 = percentile(sorted, n, 99);
    free(sorted);
    return s;
}

static void json_stats(FILE *f, const char *key, stats s, size_t count)
{
    fprintf(f,
            "\"%s\": {\"min\": %.6f, \"max\": %.6f, \"mean\": %.6f, \"median\": %.6f, \"percentile(99%%)\": %.6f, "
            "\"count\": %zu}",
            key, s.min, s.max, s.mean, s.median, s.p99, count);
}

/* The batch used for throughput: --dymBatch, else dim 0 of input 0 (the --dymShape or model dims), else 1. */
static double batch_size(const opts *o, const runner *r)
{
    if (o->dym == DYM_BATCH) {
        return (double)o->batch;
    }
    if (o->dym == DYM_SHAPE && r->n_in > 0) {
        const named_shape *s = shape_of(o, r, 0);
        return s != NULL && s->n_dims > 0 ? (double)s->dims[0] : 1.0;
    }
    aclmdlIODims d;
    if (r->n_in > 0 && r->gear_index != 0 && aclmdlGetInputDims(r->desc, 0, &d) == ACL_SUCCESS && d.dimCount > 0 &&
        d.dims[0] > 0) {
        return (double)d.dims[0];
    }
    return 1.0;
}

static void summary(const opts *o, const runner *r, const char *run_dir, int from_dirs)
{
    const size_t n = r->n_times;
    double total = 0;
    for (size_t i = 0; i < n; ++i) {
        total += r->times[i];
    }
    if (from_dirs) {
        printf("Inference average time : %.2f ms\n", n > 0 ? total / (double)n : 0.0);
        if (n > 1) {
            printf("Inference average time without first time: %.2f ms\n", (total - r->times[0]) / (double)(n - 1));
        }
    } else {
        printf("Inference average time: %f ms\n", n > 0 ? total / (double)n : 0.0);
        if (n > 1) {
            printf("Inference average time without first time: %f ms\n", (total - r->times[0]) / (double)(n - 1));
        }
    }
    const stats s = compute_stats(r->times, n);
    const double bs = batch_size(o, r);
    const double throughput = s.mean > 0 ? 1000.0 * bs / s.mean : 0.0;
    printf("[INFO] -----------------Performance Summary------------------\n");
    printf("[INFO] NPU_compute_time (ms): min = %.4f, max = %.4f, mean = %.4f, median = %.4f, percentile(99%%) = %.4f\n",
           s.min, s.max, s.mean, s.median, s.p99);
    printf("[INFO] throughput 1000*batchsize.mean(%g)/NPU_compute_time.mean(%.4f): %.4f\n", bs, s.mean, throughput);
    printf("[INFO] ------------------------------------------------------\n");
    if (run_dir == NULL) {
        return;
    }
    char path[4096];
    FILE *f = snprintf(path, sizeof path, "%s/sumary.json", run_dir) < (int)sizeof path ? fopen(path, "w") : NULL;
    if (f == NULL) {
        WARN_LOG("cannot write %s", path);
        return;
    }
    fprintf(f, "{");
    json_stats(f, "NPU_compute_time", s, n);
    fprintf(f, ", ");
    /* only the totals of the copies are measured: every field carries their mean */
    const double mh = r->n_h2d ? r->h2d_ms / (double)r->n_h2d : 0, md = r->n_d2h ? r->d2h_ms / (double)r->n_d2h : 0;
    json_stats(f, "H2D_latency", (stats){mh, mh, mh, mh, mh}, r->n_h2d);
    fprintf(f, ", ");
    json_stats(f, "D2H_latency", (stats){md, md, md, md, md}, r->n_d2h);
    fprintf(f, ", \"throughput\": %.6f, \"npu_compute_time_list\": [", throughput);
    for (size_t i = 0; i < n; ++i) {
        fprintf(f, "%s%.6f", i ? ", " : "", r->times[i]);
    }
    fprintf(f, "], \"pid\": %ld}\n", (long)getpid());
    if (fclose(f) != 0) {
        WARN_LOG("cannot write %s", path);
    }
}


static int run_model(const opts *o, runner *r, int *bad)
{
    char run_dir_buf[4096];
    const char *run_dir = NULL;
    char model_stem[256];
    oa_run_path_stem(o->model, model_stem, sizeof model_stem);

    size_t n_in_files = 0;
    int dirs = 0;
    char **inputs = o->input != NULL ? oa_run_split_inputs(o->input, &n_in_files, &dirs) : NULL;
    if (o->input != NULL && (inputs == NULL || n_in_files == 0)) {
        ERROR_LOG("--input '%s' names no file", o->input);
        oa_run_free_strv(inputs, n_in_files);
        return 1;
    }
    if (dirs < 0) {
        ERROR_LOG("--input mixes directories and files");
        oa_run_free_strv(inputs, n_in_files);
        return 1;
    }
    if (o->output != NULL) {
        if (oa_run_make_run_dir(o->output, run_dir_buf, sizeof run_dir_buf) != 0) {
            oa_run_free_strv(inputs, n_in_files);
            return 1;
        }
        run_dir = run_dir_buf;
        printf("%s\n", run_dir);
    }
    int rc = 0;
    if (dirs) {
        size_t n_names = 0;
        char **names = oa_run_list_dir(inputs[0], &n_names);
        if (names == NULL || n_names == 0) {
            ERROR_LOG("No file in the directory[%s]", inputs[0]);
            rc = 1;
        }
        if (o->loop > 1) {
            WARN_LOG("--loop is ignored with input directories: every file runs once");
        }
        char **files = calloc(n_in_files, sizeof(char *));
        for (size_t f = 0; rc == 0 && files != NULL && f < n_names; ++f) {
            for (size_t k = 0; k < n_in_files; ++k) {
                char p[4096];
                files[k] = snprintf(p, sizeof p, "%s/%s", inputs[k], names[f]) < (int)sizeof p ? strdup(p) : NULL;
                if (files[k] == NULL) {
                    ERROR_LOG("input path too long: %s/%s", inputs[k], names[f]);
                    rc = 1;
                }
            }
            char stem[256];
            oa_run_path_stem(names[f], stem, sizeof stem);
            rc = rc != 0 ? rc : run_set(o, r, files, n_in_files, f == 0 ? o->warmup : 0, 1, run_dir, stem, bad);
            for (size_t k = 0; k < n_in_files; ++k) {
                free(files[k]);
                files[k] = NULL;
            }
        }
        if (files == NULL) {
            rc = 1;
        }
        free(files);
        oa_run_free_strv(names, n_names);
    } else {
        rc = run_set(o, r, inputs, n_in_files, o->warmup, o->loop, run_dir, model_stem, bad);
    }
    oa_run_free_strv(inputs, n_in_files);
    if (rc == 0) {
        summary(o, r, run_dir, dirs);
    }
    return rc;
}

static int run(const opts *o)
{
    runner r;
    memset(&r, 0, sizeof(r));
    aclrtContext ctx = NULL;
    CHECK(aclrtSetDevice((int32_t)o->device));
    INFO_LOG("open device %ld success", o->device);
    CHECK(aclrtCreateContext(&ctx, (int32_t)o->device));
    INFO_LOG("create context success");
    CHECK(aclrtCreateStream(&r.stream));
    INFO_LOG("create stream success");
    r.exec_cfg = aclmdlCreateExecConfigHandle();
    if (r.exec_cfg == NULL) {
        ERROR_LOG("aclmdlCreateExecConfigHandle failed");
        return 1;
    }
    const int32_t sync_timeout_ms = 60000;
    CHECK(aclmdlSetExecConfigOpt(r.exec_cfg, ACL_MDL_STREAM_SYNC_TIMEOUT, &sync_timeout_ms, sizeof(sync_timeout_ms)));
    void *work = NULL, *weight = NULL, *image = NULL;
    int rc = load_model(o, &r.id, &work, &weight, &image);
    if (rc != 0) {
        return rc;
    }
    INFO_LOG("load model %s success", o->model);
    r.desc = aclmdlCreateDesc();
    CHECK(aclmdlGetDesc(r.desc, r.id));
    INFO_LOG("create model description success");
    r.n_in = aclmdlGetNumInputs(r.desc);
    r.n_out = aclmdlGetNumOutputs(r.desc);
    if (r.n_in > MAX_IO || r.n_out > MAX_IO) {
        ERROR_LOG("the model has %zu inputs and %zu outputs: at most %d each", r.n_in, r.n_out, MAX_IO);
        return 1;
    }
    int bad = 0;
    rc = find_gear_input(&r);
    if (rc == 0) {
        rc = check_dynamic(o, &r);
    }
    if (rc == 0 && o->debug) {
        rc = print_desc(&r);
    }
    if (rc == 0) {
        rc = create_outputs(o, &r);
    }
    if (rc == 0) {
        rc = run_model(o, &r, &bad);
    }
    const size_t n_out_added = r.out != NULL ? aclmdlGetDatasetNumBuffers(r.out) : 0;
    for (size_t j = 0; j < n_out_added; ++j) {
        (void)aclDestroyDataBuffer(aclmdlGetDatasetBuffer(r.out, j));
    }
    for (size_t j = 0; j < r.n_out; ++j) {
        if (r.out_dev[j] != NULL) {
            CHECK(aclrtFree(r.out_dev[j]));
        }
    }
    if (r.out != NULL) {
        CHECK(aclmdlDestroyDataset(r.out));
    }
    free(r.times);
    CHECK(aclmdlDestroyDesc(r.desc));
    CHECK(aclmdlUnload(r.id));
    INFO_LOG("unload model success, model Id is %u", r.id);
    if (work != NULL) {
        CHECK(aclrtFree(work));
    }
    if (weight != NULL) {
        CHECK(aclrtFree(weight));
    }
    free(image);
    CHECK(aclmdlDestroyExecConfigHandle(r.exec_cfg));
    CHECK(aclrtDestroyStream(r.stream));
    INFO_LOG("end to destroy stream");
    CHECK(aclrtDestroyContext(ctx));
    INFO_LOG("end to destroy context");
    CHECK(aclrtResetDevice((int32_t)o->device));
    INFO_LOG("end to reset device is %ld", o->device);
    if (rc == 0 && bad) {
        rc = 1;
    }
    return rc;
}

/*
 * msame's --dump true / --profiler true: an acl.json for aclInit with the
 * dump ("output" mode, every op of the model) or profiling configuration,
 * data under <output>/dump or <output>/profiler. msame writes ./acl.json and
 * deletes it afterwards; we write <output>/acl.json (the user's ./acl.json
 * stays untouched) and delete it after aclFinalize.
 */
static int write_acl_json(const opts *o, char *path, size_t cap)
{
    char data[4096], stem[256];
    const char *sub = o->dump ? "dump" : "profiler";
    if (oa_run_mkdir_p(o->output) != 0 || snprintf(data, sizeof data, "%s/%s", o->output, sub) >= (int)sizeof data ||
        oa_run_mkdir_p(data) != 0 || snprintf(path, cap, "%s/acl.json", o->output) >= (int)cap) {
        ERROR_LOG("cannot create %s/%s: %s", o->output, sub, strerror(errno));
        return 1;
    }
    char abs_data[4096];
    if (realpath(data, abs_data) == NULL) {
        ERROR_LOG("cannot resolve %s: %s", data, strerror(errno));
        return 1;
    }
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        ERROR_LOG("cannot write %s: %s", path, strerror(errno));
        return 1;
    }
    oa_run_path_stem(o->model, stem, sizeof stem);
    if (o->dump) {
        fprintf(f, "{\n\"dump\": {\n    \"dump_path\": \"%s\",\n    \"dump_mode\": \"output\",\n"
                   "    \"dump_list\": [{\"model_name\": \"%s\"}]\n}\n}\n", abs_data, stem);
    } else {
        fprintf(f, "{\n\"profiler\": {\n    \"switch\": \"on\",\n    \"aicpu\": \"on\",\n"
                   "    \"output\": \"%s\",\n    \"aic_metrics\": \"\"\n}\n}\n", abs_data);
    }
    if (fclose(f) != 0) {
        ERROR_LOG("cannot write %s", path);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    opts o;
    int rc = oa_run_parse(argc, argv, &o);
    if (rc != 0) {
        return rc < 0 ? 0 : rc;
    }
    /* as msame: ./acl.json configures aclInit when it exists, --dump/--profiler true write their own */
    const char *cfg = access("./acl.json", R_OK) == 0 ? "./acl.json" : NULL;
    char gen[4096] = {0};
    if (o.dump || o.profiler) {
        if (write_acl_json(&o, gen, sizeof gen) != 0) {
            return 1;
        }
        if (cfg != NULL) {
            WARN_LOG("--%s true: %s is used instead of ./acl.json", o.dump ? "dump" : "profiler", gen);
        }
        cfg = gen;
    }
    const aclError init = aclInit(cfg);
    if (init != ACL_SUCCESS) {
        const char *m = aclGetRecentErrMsg();
        ERROR_LOG("aclInit(%s) failed, error code %d%s%s", cfg != NULL ? cfg : "NULL", (int)init,
                  m != NULL ? ": " : "", m != NULL ? m : "");
        if (gen[0] != '\0') {
            unlink(gen);
        }
        return 1;
    }
    INFO_LOG("acl init success");
    rc = run(&o);
    const aclError fin = aclFinalize();
    if (gen[0] != '\0' && unlink(gen) == 0) {
        INFO_LOG("delete acl.json success");
    }
    if (fin != ACL_SUCCESS) {
        ERROR_LOG("finalize acl failed, error code %d", (int)fin);
        rc = 1;
    } else {
        INFO_LOG("end to finalize acl");
    }
    if (rc != 0) {
        ERROR_LOG("Sample process failed");
        printf("oa_run: FAILED\n");
        return 1;
    }
    INFO_LOG("Execute sample success");
    printf("oa_run: OK\n");
    return 0;
}

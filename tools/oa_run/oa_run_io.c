/*
 * oa_run's files (docs/oa_run.md): reading input files and directories,
 * msame's run folders <output>/YYYYMMDD_HHMMSS, the TXT and BIN output
 * writers, --top5 and --compare against reference outputs.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "acl/acl.h"
#include "oa_run_internal.h"

/* ------------------------------------------------------------------ */
/* files                                                               */

double oa_run_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void *oa_run_read_file(const char *path, size_t *size)
{
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    void *buf = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc(n > 0 ? (size_t)n : 1);
        if (buf != NULL && n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            buf = NULL;
        }
    }
    fclose(f);
    if (buf != NULL) {
        *size = (size_t)n;
    }
    return buf;
}

int oa_run_is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

int oa_run_mkdir_p(const char *path)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        return -1;
    }
    for (char *p = buf + 1; *p != '\0'; ++p) {
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0775) != 0 && errno != EEXIST) {
                return -1;
            }
            *p = '/';
        }
    }
    if (mkdir(buf, 0775) != 0 && errno != EEXIST) {
        return -1;
    }
    return oa_run_is_dir(buf) ? 0 : -1;
}

/* <output>/YYYYMMDD_HHMMSS (msame's folder; "_1", "_2", ... when that second's folder exists). */
int oa_run_make_run_dir(const char *output, char *out, size_t cap)
{
    if (oa_run_mkdir_p(output) != 0) {
        ERROR_LOG("cannot create the output directory %s: %s", output, strerror(errno));
        return -1;
    }
    char stamp[32];
    const time_t t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d_%H%M%S", &tm);
    for (int k = 0; k < 1000; ++k) {
        int n = k == 0 ? snprintf(out, cap, "%s/%s", output, stamp) : snprintf(out, cap, "%s/%s_%d", output, stamp, k);
        if (n < 0 || (size_t)n >= cap) {
            ERROR_LOG("output path too long");
            return -1;
        }
        if (mkdir(out, 0775) == 0) {
            return 0;
        }
        if (errno != EEXIST) {
            ERROR_LOG("cannot create %s: %s (the user needs permission to create directories there)", out,
                      strerror(errno));
            return -1;
        }
    }
    ERROR_LOG("cannot create a new folder under %s", output);
    return -1;
}

char *oa_run_path_stem(const char *path, char *buf, size_t cap)
{
    const char *base = strrchr(path, '/');
    base = base != NULL ? base + 1 : path;
    snprintf(buf, cap, "%s", base);
    char *dot = strrchr(buf, '.');
    if (dot != NULL && dot != buf) {
        *dot = '\0';
    }
    return buf;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The file names in dir (no dot files, no subdirectories), sorted. */
char **oa_run_list_dir(const char *dir, size_t *count)
{
    *count = 0;
    DIR *d = opendir(dir);
    if (d == NULL) {
        return NULL;
    }
    size_t cap = 16, n = 0;
    char **names = malloc(cap * sizeof(char *));
    struct dirent *e;
    while (names != NULL && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') {
            continue;
        }
        char full[4096];
        if (snprintf(full, sizeof full, "%s/%s", dir, e->d_name) >= (int)sizeof full || oa_run_is_dir(full) ||
            n >= MAX_SETS) {
            continue;
        }
        if (n == cap) {
            char **bigger = realloc(names, 2 * cap * sizeof(char *));
            if (bigger == NULL) {
                break;
            }
            names = bigger;
            cap *= 2;
        }
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    if (names != NULL) {
        qsort(names, n, sizeof(char *), cmp_str);
    }
    *count = n;
    return names;
}

/* ------------------------------------------------------------------ */
/* outputs                                                             */

static void format_value(char *buf, size_t cap, aclDataType dt, const unsigned char *p)
{
    switch (dt) {
    case ACL_FLOAT: {
        float v;
        memcpy(&v, p, sizeof v);
        snprintf(buf, cap, "%g", (double)v);
        break;
    }
    case ACL_FLOAT16: {
        aclFloat16 v;
        memcpy(&v, p, sizeof v);
        snprintf(buf, cap, "%g", (double)aclFloat16ToFloat(v));
        break;
    }
    case ACL_BF16: {
        uint16_t h;
        memcpy(&h, p, sizeof h);
        const uint32_t bits = (uint32_t)h << 16;
        float v;
        memcpy(&v, &bits, sizeof v);
        snprintf(buf, cap, "%g", (double)v);
        break;
    }
    case ACL_DOUBLE: {
        double v;
        memcpy(&v, p, sizeof v);
        snprintf(buf, cap, "%g", v);
        break;
    }
    case ACL_INT8:
        snprintf(buf, cap, "%d", (int)(int8_t)p[0]);
        break;
    case ACL_UINT8:
        snprintf(buf, cap, "%u", (unsigned)p[0]);
        break;
    case ACL_BOOL:
        snprintf(buf, cap, "%d", p[0] != 0);
        break;
    case ACL_INT16: {
        int16_t v;
        memcpy(&v, p, sizeof v);
        snprintf(buf, cap, "%d", (int)v);
        break;
    }
    case ACL_UINT16: {
        uint16_t v;
        memcpy(&v, p, sizeof v);
        snprintf(buf, cap, "%u", (unsigned)v);
        break;
    }
    case ACL_INT32: {
        int32_t v;
        memcpy(&v, p, sizeof v);
        snprintf(buf, cap, "%d", (int)v);
        break;
    }
    case ACL_UINT32: {
        uint32_t v;
        memcpy(&v, p, sizeof v);
        snprintf(buf, cap, "%u", (unsigned)v);
        break;
    }
    case ACL_INT64: {
        int64_t v;
        memcpy(&v, p, sizeof v);
        snprintf(buf, cap, "%lld", (long long)v);
        break;
    }
    case ACL_UINT64: {
        uint64_t v;
        memcpy(&v, p, sizeof v);
        snprintf(buf, cap, "%llu", (unsigned long long)v);
        break;
    }
    default:
        buf[0] = '\0';
        break;
    }
}

/*
 * msame's TXT layout: every value followed by one space, a line break after
 * each row of the innermost dimension (none for 0-D and 1-D outputs).
 */
static int write_txt(const char *path, aclDataType dt, const void *data, size_t size, const int64_t *dims,
                     size_t n_dims)
{
    const size_t es = aclDataTypeSize(dt);
    char v[64];
    format_value(v, sizeof v, dt, (const unsigned char *)"\0\0\0\0\0\0\0\0");
    if (es == 0 || v[0] == '\0') {
        ERROR_LOG("data type %d cannot be written as TXT", (int)dt);
        return -1;
    }
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        return -1;
    }
    const size_t row = n_dims >= 2 && dims[n_dims - 1] > 0 ? (size_t)dims[n_dims - 1] : 0;
    const size_t n = size / es;
    for (size_t i = 1; i <= n; ++i) {
        format_value(v, sizeof v, dt, (const unsigned char *)data + (i - 1) * es);
        fputs(v, f);
        fputc(' ', f);
        if (row != 0 && i % row == 0) {
            fputc('\n', f);
        }
    }
    return fclose(f) == 0 ? 0 : -1;
}

static int write_bin(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        return -1;
    }
    const size_t w = n > 0 ? fwrite(data, 1, n, f) : 0;
    return fclose(f) == 0 && w == n ? 0 : -1;
}

static void out_ref_name(const char *name, char *buf, size_t cap)
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

/* Compares one output with <compare>/<name>.bin; returns 0 when within tolerance. */
static int compare_output(const opts *o, const char *name, aclDataType dt, const void *data, size_t size, int is_first)
{
    char fname[256], path[4096];
    out_ref_name(name, fname, sizeof fname);
    if (snprintf(path, sizeof path, "%s/%s.bin", o->compare, fname) >= (int)sizeof path) {
        ERROR_LOG("reference path too long");
        return 1;
    }
    size_t rsize = 0;
    void *ref = oa_run_read_file(path, &rsize);
    if (ref == NULL) {
        ERROR_LOG("reference %s cannot be read", path);
        return 1;
    }
    int bad = 0;
    if (rsize != size) {
        ERROR_LOG("output %s: %zu bytes, reference %zu", name, size, rsize);
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
        if (o->top5 && is_first && n >= 5) {
            size_t ia[5], ib[5];
            top5(a, n, ia);
            top5(b, n, ib);
            for (int k = 0; k < 5; k++) {
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

/* The dims of output j after an execution (dynamic shape: the dataset's tensor desc). */
static int output_dims(const opts *o, const runner *r, size_t j, int64_t *dims, size_t *n_dims, size_t *bytes)
{
    const aclDataType dt = aclmdlGetOutputDataType(r->desc, j);
    *n_dims = 0;
    aclmdlIODims io;
    /* a dynamic-shape model (data-dependent output shapes too) has no current gear dims: its
     * real output shapes are in the dataset's tensor descs */
    if (o->dym == DYM_SHAPE || aclmdlGetCurOutputDims(r->desc, j, &io) != ACL_SUCCESS) {
        const aclTensorDesc *td = aclmdlGetDatasetTensorDesc(r->out, j);
        if (td == NULL) {
            ERROR_LOG("output %zu has no tensor description after execution", j);
            return -1;
        }
        const size_t nd = aclGetTensorDescNumDims(td);
        for (size_t k = 0; k < nd && k < ACL_MAX_DIM_CNT; ++k) {
            if (aclGetTensorDescDimV2(td, k, &dims[k]) != ACL_SUCCESS) {
                return -1;
            }
        }
        *n_dims = nd < ACL_MAX_DIM_CNT ? nd : ACL_MAX_DIM_CNT;
        *bytes = aclGetTensorDescSize(td);
        return 0;
    }
    size_t n = aclDataTypeSize(dt);
    for (size_t k = 0; k < io.dimCount; ++k) {
        dims[k] = io.dims[k];
        n *= io.dims[k] > 0 ? (size_t)io.dims[k] : 0;
    }
    *n_dims = io.dimCount;
    *bytes = n;
    return 0;
}

int oa_run_write_outputs(const opts *o, runner *r, const char *run_dir, const char *stem, int *bad)
{
    for (size_t j = 0; j < r->n_out; ++j) {
        int64_t dims[ACL_MAX_DIM_CNT];
        size_t n_dims = 0, size = r->out_cap[j];
        if (output_dims(o, r, j, dims, &n_dims, &size) != 0) {
            const char *m = aclGetRecentErrMsg();
            ERROR_LOG("the dims of output %zu are unknown%s%s", j, m != NULL ? ": " : "", m != NULL ? m : "");
            return 1;
        }
        if (size > r->out_cap[j]) {
            ERROR_LOG("output %zu holds %zu bytes, more than its buffer of %zu", j, size, r->out_cap[j]);
            return 1;
        }
        void *host = malloc(size > 0 ? size : 1);
        if (host == NULL) {
            ERROR_LOG("out of memory");
            return 1;
        }
        const double t0 = oa_run_now_ms();
        if (size > 0) {
            CHECK(aclrtMemcpy(host, size, r->out_dev[j], size, ACL_MEMCPY_DEVICE_TO_HOST));
        }
        r->d2h_ms += oa_run_now_ms() - t0;
        r->n_d2h++;
        const aclDataType dt = aclmdlGetOutputDataType(r->desc, j);
        const char *name = aclmdlGetOutputNameByIndex(r->desc, j);
        if (run_dir != NULL) {
            char path[4096];
            const int np = snprintf(path, sizeof path, "%s/%s_output_%zu.%s", run_dir, stem, j, o->txt ? "txt" : "bin");
            const int w = np >= (int)sizeof path ? -1 : o->txt ? write_txt(path, dt, host, size, dims, n_dims) : write_bin(path, host, size);
            if (w != 0) {
                ERROR_LOG("cannot write %s", path);
                *bad = 1;
            }
        }
        if (o->top5 && j == 0 && dt == ACL_FLOAT && size >= 5 * sizeof(float)) {
            size_t idx[5];
            top5(host, size / sizeof(float), idx);
            printf("top-5 of %s:", name != NULL ? name : "output 0");
            for (int k = 0; k < 5; k++) {
                printf(" [%zu] %.6f", idx[k], (double)((const float *)host)[idx[k]]);
            }
            printf("\n");
        }
        if (o->compare != NULL) {
            *bad |= compare_output(o, name != NULL ? name : "", dt, host, size, j == 0);
        }
        free(host);
    }
    INFO_LOG("output data success");
    return 0;
}

/* ------------------------------------------------------------------ */
/* --input                                                             */

/* Splits --input; *dirs is set when every entry is a directory. */
char **oa_run_split_inputs(const char *input, size_t *n, int *dirs)
{
    *n = 0;
    *dirs = 0;
    char *copy = strdup(input);
    if (copy == NULL) {
        return NULL;
    }
    size_t cap = 1;
    for (const char *p = input; *p != '\0'; ++p) {
        cap += *p == ',';
    }
    char **v = calloc(cap, sizeof(char *));
    char *save = NULL;
    for (char *t = strtok_r(copy, ",", &save); v != NULL && t != NULL; t = strtok_r(NULL, ",", &save)) {
        v[(*n)++] = strdup(t);
    }
    free(copy);
    size_t nd = 0;
    for (size_t i = 0; v != NULL && i < *n; ++i) {
        nd += oa_run_is_dir(v[i]) != 0;
    }
    *dirs = *n > 0 && nd == *n;
    if (nd != 0 && nd != *n) {
        *dirs = -1;
    }
    return v;
}

void oa_run_free_strv(char **v, size_t n)
{
    for (size_t i = 0; v != NULL && i < n; ++i) {
        free(v[i]);
    }
    free(v);
}
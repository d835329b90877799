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
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"

#define MAX_IO 64
#define MAX_SETS 100000

#define INFO_LOG(...) (printf("[INFO] " __VA_ARGS__), printf("\n"))
#define DEBUG_LOG(...) (printf("[DEBUG] " __VA_ARGS__), printf("\n"))
#define WARN_LOG(...) (printf("[WARN] " __VA_ARGS__), printf("\n"))
#define ERROR_LOG(...) (printf("[ERROR] " __VA_ARGS__), printf("\n"), fflush(stdout))

/* Reports a failed ACL call with the library's message and returns 1 from the caller. */
#define CHECK(expr)                                                                                  \
    do {                                                                                             \
        aclError ret_ = (expr);                                                                      \
        if (ret_ != ACL_SUCCESS) {                                                                   \
            const char *m_ = aclGetRecentErrMsg();                                                   \
            ERROR_LOG("%s failed, error code %d%s%s", #expr, (int)ret_, m_ != NULL ? ": " : "",      \
                      m_ != NULL ? m_ : "");                                                         \
            return 1;                                                                                \
        }                                                                                            \
    } while (0)

enum dym_kind { DYM_NONE, DYM_BATCH, DYM_HW, DYM_DIMS, DYM_SHAPE };

typedef struct named_shape {
    char name[ACL_MAX_TENSOR_NAME_LEN];
    int64_t dims[ACL_MAX_DIM_CNT];
    size_t n_dims;
} named_shape;

typedef struct opts {
    const char *model, *input, *output, *compare, *load;
    int txt, debug, async, top5, dump, profiler;
    long loop, warmup, device;
    enum dym_kind dym;
    uint64_t batch, hw[2];
    int64_t dims[ACL_MAX_DIM_CNT]; /* --dymDims, every input's dims concatenated */
    size_t n_dims;
    named_shape shapes[MAX_IO]; /* --dymShape */
    size_t n_shapes;
    size_t out_size[MAX_IO]; /* --outputSize */
    size_t n_out_size;
    double tol;
} opts;

/* The loaded model and its output buffers (kept over every input set). */
typedef struct runner {
    uint32_t id;
    aclmdlDesc *desc;
    size_t n_in, n_out, gear_index;
    aclmdlDataset *out;
    void *out_dev[MAX_IO];
    size_t out_cap[MAX_IO];
    aclrtStream stream;
    aclmdlExecConfigHandle *exec_cfg;
    double *times; /* one per timed execution */
    size_t n_times, cap_times;
    double h2d_ms, d2h_ms;
    size_t n_h2d, n_d2h;
} runner;

/* ------------------------------------------------------------------ */
/* command line                                                        */

static void print_help(FILE *f)
{
    fprintf(f,
            "\nUsage:\n"
            "  oa_run --model m.om --input a.bin[,b.bin] --output out/ --outfmt TXT --loop 2\n\n"
            "arguments:\n"
            "  --model       model file (.om)\n"
            "  --input       input files (raw binary) or directories, separated by ','; a directory runs\n"
            "                every file in it (the same file names in every directory); none: zeros\n"
            "  --output      output directory: a YYYYMMDD_HHMMSS folder is created in it per run\n"
            "  --outfmt      output file format, TXT or BIN (default BIN)\n"
            "  --loop        number of timed executions (default 1; ignored with input directories)\n"
            "  --warmup      untimed executions before the timed ones (default 0)\n"
            "  --device      device id, 0 to 255 (default 0)\n"
            "  --debug       true: print the model description\n"
            "  --dymBatch    dynamic batch size, such as --dymBatch 2\n"
            "  --dymHW       dynamic image size, such as --dymHW 300,500\n"
            "  --dymDims     dynamic dims, such as --dymDims \"data:1,600;img_info:1,600\"\n"
            "  --dymShape    dynamic shape (models converted with --input_shape_range or -1 dims),\n"
            "                such as --dymShape \"data:1,3,600,600\"\n"
            "  --outputSize  output buffer sizes in bytes, one per output, such as --outputSize 10000,10000\n"
            "  --load        file|mem|withmem|config: the load function (default file)\n"
            "  --async       aclmdlExecuteAsync on a stream; --asyncV2: aclmdlExecuteAsyncV2\n"
            "  --compare     directory of reference outputs <name>.bin; --tol: relative L2 tolerance (1e-4)\n"
            "  --top5        print the five largest values of output 0\n"
            "  --dump        true: dump every op's outputs to <output>/dump (acl.json \"dump\")\n"
            "  --profiler    true: profile into <output>/profiler (acl.json \"profiler\")\n"
            "  --help        this text\n\n");
}

static int usage_error(void)
{
    fprintf(stderr, "usage: oa_run --model m.om [--input files|dirs] [--output DIR] [--outfmt TXT|BIN] [--loop N] "
                    "[--dym...] (oa_run --help lists the options)\n");
    return 2;
}

static int bad_arg(const char *flag, const char *value, const char *why)
{
    ERROR_LOG("invalid value '%s' for --%s: %s", value, flag, why);
    return usage_error();
}

/* Parses a whole decimal integer in [lo, hi]. */
static int parse_long(const char *s, long lo, long hi, long *out)
{
    if (s == NULL || *s == '\0') {
        return -1;
    }
    char *end = NULL;
    errno = 0;
    const long v = strtol(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > hi) {
        return -1;
    }
    *out = v;
    return 0;
}

/* Parses "d1,d2,..." (whole integers, -1 allowed where allow_neg) appending to dims; returns -1 when malformed. */
static int parse_dim_list(const char *s, int64_t *dims, size_t *n, size_t cap, int allow_neg)
{
    const char *p = s;
    if (*p == '\0') {
        return -1;
    }
    for (;;) {
        char *end = NULL;
        errno = 0;
        const long long v = strtoll(p, &end, 10);
        if (end == p || errno != 0 || (v < 0 && !(allow_neg && v == -1)) || *n >= cap) {
            return -1;
        }
        dims[(*n)++] = (int64_t)v;
        if (*end == '\0') {
            return 0;
        }
        if (*end != ',') {
            return -1;
        }
        p = end + 1;
    }
}

/* Parses msame's "name:d1,d2;name2:d1,..." into shapes (a bare "d1,d2" has an empty name). */
static int parse_named_shapes(const char *s, named_shape *shapes, size_t *n, size_t cap)
{
    char *copy = strdup(s);
    if (copy == NULL) {
        return -1;
    }
    int rc = 0;
    char *save = NULL;
    for (char *part = strtok_r(copy, ";", &save); part != NULL; part = strtok_r(NULL, ";", &save)) {
        if (*n >= cap) {
            rc = -1;
            break;
        }
        named_shape *sh = &shapes[(*n)++];
        memset(sh, 0, sizeof(*sh));
        char *colon = strrchr(part, ':');
        const char *list = part;
        if (colon != NULL) {
            *colon = '\0';
            if (strlen(part) == 0 || strlen(part) >= sizeof(sh->name)) {
                rc = -1;
                break;
            }
            snprintf(sh->name, sizeof(sh->name), "%s", part);
            list = colon + 1;
        }
        if (colon != NULL && *list == '\0') {
            continue; /* "name:" is a scalar (0-D) */
        }
        if (parse_dim_list(list, sh->dims, &sh->n_dims, ACL_MAX_DIM_CNT, 0) != 0) {
            rc = -1;
            break;
        }
    }
    free(copy);
    return rc == 0 && *n > 0 ? 0 : -1;
}

static int set_dym(opts *o, enum dym_kind k, const char *flag)
{
    if (o->dym != DYM_NONE && o->dym != k) {
        ERROR_LOG("dymBatch dymDims dymHW dymShape cannot be set at the same time (--%s)", flag);
        return -1;
    }
    o->dym = k;
    return 0;
}

enum {
    OPT_MODEL = 256,
    OPT_INPUT,
    OPT_OUTPUT,
    OPT_OUTFMT,
    OPT_LOOP,
    OPT_WARMUP,
    OPT_DEVICE,
    OPT_DEBUG,
    OPT_DYMBATCH,
    OPT_DYMHW,
    OPT_DYMDIMS,
    OPT_DYMSHAPE,
    OPT_OUTPUTSIZE,
    OPT_LOAD,
    OPT_ASYNC,
    OPT_ASYNCV2,
    OPT_COMPARE,
    OPT_TOL,
    OPT_TOP5,
    OPT_HELP,
    OPT_DUMP,
    OPT_PROFILER
};

static const struct option k_options[] = {
    {"model", required_argument, NULL, OPT_MODEL},
    {"input", required_argument, NULL, OPT_INPUT},
    {"output", required_argument, NULL, OPT_OUTPUT},
    {"outfmt", required_argument, NULL, OPT_OUTFMT},
    {"loop", required_argument, NULL, OPT_LOOP},
    {"warmup", required_argument, NULL, OPT_WARMUP},
    {"device", required_argument, NULL, OPT_DEVICE},
    {"debug", required_argument, NULL, OPT_DEBUG},
    {"dymBatch", required_argument, NULL, OPT_DYMBATCH},
    {"dymHW", required_argument, NULL, OPT_DYMHW},
    {"dymDims", required_argument, NULL, OPT_DYMDIMS},
    {"dymShape", required_argument, NULL, OPT_DYMSHAPE},
    {"outputSize", required_argument, NULL, OPT_OUTPUTSIZE},
    {"load", required_argument, NULL, OPT_LOAD},
    {"async", no_argument, NULL, OPT_ASYNC},
    {"asyncV2", no_argument, NULL, OPT_ASYNCV2},
    {"compare", required_argument, NULL, OPT_COMPARE},
    {"tol", required_argument, NULL, OPT_TOL},
    {"top5", no_argument, NULL, OPT_TOP5},
    {"help", no_argument, NULL, OPT_HELP},
    {"dump", required_argument, NULL, OPT_DUMP},
    {"profiler", required_argument, NULL, OPT_PROFILER},
    {NULL, 0, NULL, 0},
};

static const char *option_name(int code)
{
    for (const struct option *p = k_options; p->name != NULL; ++p) {
        if (p->val == code) {
            return p->name;
        }
    }
    return "?";
}

static int parse_bool(const char *flag, const char *v, int *out)
{
    if (strcmp(v, "true") == 0) {
        *out = 1;
    } else if (strcmp(v, "false") == 0) {
        *out = 0;
    } else {
        return bad_arg(flag, v, "expected true or false");
    }
    return 0;
}

/* Returns 0 to run, 2 on a bad command line, -1 after --help. */
static int parse(int argc, char **argv, opts *o)
{
    memset(o, 0, sizeof(*o));
    o->loop = 1;
    o->tol = 1e-4;
    o->load = "file";
    opterr = 0; /* we name the offending flag ourselves */
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":", k_options, NULL)) != -1) {
        const char *v = optarg;
        const char *flag = option_name(c);
        long n = 0;
        int b = 0;
        switch (c) {
        case OPT_MODEL:
            o->model = v;
            break;
        case OPT_INPUT:
            o->input = v;
            break;
        case OPT_OUTPUT:
            o->output = v;
            break;
        case OPT_OUTFMT:
            if (strcmp(v, "TXT") == 0 || strcmp(v, "BIN") == 0) {
                o->txt = strcmp(v, "TXT") == 0;
            } else {
                return bad_arg(flag, v, "expected TXT or BIN");
            }
            break;
        case OPT_LOOP:
            if (parse_long(v, 1, 1000000, &o->loop) != 0) {
                return bad_arg(flag, v, "expected an integer from 1 to 1000000");
            }
            break;
        case OPT_WARMUP:
            if (parse_long(v, 0, 1000000, &o->warmup) != 0) {
                return bad_arg(flag, v, "expected an integer from 0 to 1000000");
            }
            break;
        case OPT_DEVICE:
            if (parse_long(v, 0, 255, &o->device) != 0) {
                return bad_arg(flag, v, "device id must be in 0 to 255");
            }
            break;
        case OPT_DEBUG:
            if (parse_bool(flag, v, &o->debug) != 0) {
                return 2;
            }
            break;
        case OPT_DUMP:
        case OPT_PROFILER:
            if (parse_bool(flag, v, &b) != 0) {
                return 2;
            }
            *(c == OPT_DUMP ? &o->dump : &o->profiler) = b;
            break;
        case OPT_DYMBATCH:
            if (parse_long(v, 1, 2048, &n) != 0) {
                return bad_arg(flag, v, "dymBatch must be in 1 to 2048");
            }
            if (set_dym(o, DYM_BATCH, flag) != 0) {
                return 2;
            }
            o->batch = (uint64_t)n;
            break;
        case OPT_DYMHW: {
            int64_t hw[2];
            size_t k = 0;
            if (parse_dim_list(v, hw, &k, 2, 0) != 0 || k != 2 || hw[0] <= 0 || hw[1] <= 0) {
                return bad_arg(flag, v, "expected two positive integers H,W");
            }
            if (set_dym(o, DYM_HW, flag) != 0) {
                return 2;
            }
            o->hw[0] = (uint64_t)hw[0];
            o->hw[1] = (uint64_t)hw[1];
            break;
        }
        case OPT_DYMDIMS: {
            named_shape parts[MAX_IO];
            size_t k = 0;
            if (parse_named_shapes(v, parts, &k, MAX_IO) != 0) {
                return bad_arg(flag, v, "expected \"name:d1,d2;name2:d1,...\"");
            }
            if (set_dym(o, DYM_DIMS, flag) != 0) {
                return 2;
            }
            o->n_dims = 0;
            for (size_t i = 0; i < k; ++i) {
                if (o->n_dims + parts[i].n_dims > ACL_MAX_DIM_CNT) {
                    return bad_arg(flag, v, "too many dims");
                }
                memcpy(o->dims + o->n_dims, parts[i].dims, parts[i].n_dims * sizeof(int64_t));
                o->n_dims += parts[i].n_dims;
            }
            /* the names are kept to be checked against the model's inputs */
            memcpy(o->shapes, parts, k * sizeof(parts[0]));
            o->n_shapes = k;
            break;
        }
        case OPT_DYMSHAPE:
            o->n_shapes = 0;
            if (parse_named_shapes(v, o->shapes, &o->n_shapes, MAX_IO) != 0) {
                return bad_arg(flag, v, "expected \"name:d1,d2;name2:d1,...\"");
            }
            for (size_t i = 0; i < o->n_shapes; ++i) {
                if (o->shapes[i].name[0] == '\0') {
                    return bad_arg(flag, v, "every shape needs its input name (name:d1,d2,...)");
                }
            }
            if (set_dym(o, DYM_SHAPE, flag) != 0) {
                return 2;
            }
            break;
        case OPT_OUTPUTSIZE: {
            int64_t sizes[MAX_IO];
            size_t k = 0;
            if (parse_dim_list(v, sizes, &k, MAX_IO, 0) != 0) {
                return bad_arg(flag, v, "expected byte counts separated by ','");
            }
            for (size_t i = 0; i < k; ++i) {
                o->out_size[i] = (size_t)sizes[i];
            }
            o->n_out_size = k;
            break;
        }
        case OPT_LOAD:
            if (strcmp(v, "file") != 0 && strcmp(v, "mem") != 0 && strcmp(v, "withmem") != 0 &&
                strcmp(v, "config") != 0) {
                return bad_arg(flag, v, "expected file, mem, withmem or config");
            }
            o->load = v;
            break;
        case OPT_ASYNC:
            o->async = 1;
            break;
        case OPT_ASYNCV2:
            o->async = 2;
            break;
        case OPT_COMPARE:
            o->compare = v;
            break;
        case OPT_TOL: {
            char *end = NULL;
            o->tol = strtod(v, &end);
            if (end == v || *end != '\0' || !(o->tol >= 0)) {
                return bad_arg(flag, v, "expected a non-negative number");
            }
            break;
        }
        case OPT_TOP5:
            o->top5 = 1;
            break;
        case OPT_HELP:
            print_help(stdout);
            return -1;
        case ':':
            ERROR_LOG("option %s requires a value", argv[optind - 1]);
            return usage_error();
        default:
            if (optopt != 0) {
                ERROR_LOG("unknown parameter -%c", optopt);
            } else {
                ERROR_LOG("unknown parameter %s", argv[optind - 1]);
            }
            return usage_error();
        }
    }
    if (optind < argc) {
        ERROR_LOG("unexpected argument %s", argv[optind]);
        return usage_error();
    }
    if (o->model == NULL) {
        ERROR_LOG("--model is required");
        return usage_error();
    }
    if (o->dump && o->profiler) {
        ERROR_LOG("dump and profiler can not both be true");
        return usage_error();
    }
    if ((o->dump || o->profiler) && o->output == NULL) {
        ERROR_LOG("--%s true writes under --output: give --output", o->dump ? "dump" : "profiler");
        return usage_error();
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* files                                                               */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void *read_file(const char *path, size_t *size)
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

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int mkdir_p(const char *path)
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
    return is_dir(buf) ? 0 : -1;
}

/* <output>/YYYYMMDD_HHMMSS (msame's folder; "_1", "_2", ... when that second's folder exists). */
static int make_run_dir(const char *output, char *out, size_t cap)
{
    if (mkdir_p(output) != 0) {
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

static char *path_stem(const char *path, char *buf, size_t cap)
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
static char **list_dir(const char *dir, size_t *count)
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
        if (snprintf(full, sizeof full, "%s/%s", dir, e->d_name) >= (int)sizeof full || is_dir(full) ||
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
    void *ref = read_file(path, &rsize);
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
    if (o->dym == DYM_SHAPE) {
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
    aclmdlIODims io;
    if (aclmdlGetCurOutputDims(r->desc, j, &io) != ACL_SUCCESS) {
        return -1;
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

static int write_outputs(const opts *o, runner *r, const char *run_dir, const char *stem, int *bad)
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
        const double t0 = now_ms();
        if (size > 0) {
            CHECK(aclrtMemcpy(host, size, r->out_dev[j], size, ACL_MEMCPY_DEVICE_TO_HOST));
        }
        r->d2h_ms += now_ms() - t0;
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
/* model                                                               */

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
            host = read_file(files[k], &hsize);
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
            const double t0 = now_ms();
            e = aclrtMemcpy(dev[i], alloc, host, hsize, ACL_MEMCPY_HOST_TO_DEVICE);
            r->h2d_ms += now_ms() - t0;
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
    const double t0 = now_ms();
    if (o->async == 2) {
        CHECK(aclmdlExecuteAsyncV2(r->id, in, r->out, r->stream, r->exec_cfg));
        CHECK(aclrtSynchronizeStream(r->stream));
    } else if (o->async) {
        CHECK(aclmdlExecuteAsync(r->id, in, r->out, r->stream));
        CHECK(aclrtSynchronizeStream(r->stream));
    } else {
        CHECK(aclmdlExecute(r->id, in, r->out));
    }
    *ms = now_ms() - t0;
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
        rc = write_outputs(o, r, run_dir, stem, bad);
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

/* ------------------------------------------------------------------ */

/* Splits --input; *dirs is set when every entry is a directory. */
static char **split_inputs(const char *input, size_t *n, int *dirs)
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
        nd += is_dir(v[i]) != 0;
    }
    *dirs = *n > 0 && nd == *n;
    if (nd != 0 && nd != *n) {
        *dirs = -1;
    }
    return v;
}

static void free_strv(char **v, size_t n)
{
    for (size_t i = 0; v != NULL && i < n; ++i) {
        free(v[i]);
    }
    free(v);
}

static int run_model(const opts *o, runner *r, int *bad)
{
    char run_dir_buf[4096];
    const char *run_dir = NULL;
    char model_stem[256];
    path_stem(o->model, model_stem, sizeof model_stem);

    size_t n_in_files = 0;
    int dirs = 0;
    char **inputs = o->input != NULL ? split_inputs(o->input, &n_in_files, &dirs) : NULL;
    if (o->input != NULL && (inputs == NULL || n_in_files == 0)) {
        ERROR_LOG("--input '%s' names no file", o->input);
        free_strv(inputs, n_in_files);
        return 1;
    }
    if (dirs < 0) {
        ERROR_LOG("--input mixes directories and files");
        free_strv(inputs, n_in_files);
        return 1;
    }
    if (o->output != NULL) {
        if (make_run_dir(o->output, run_dir_buf, sizeof run_dir_buf) != 0) {
            free_strv(inputs, n_in_files);
            return 1;
        }
        run_dir = run_dir_buf;
        printf("%s\n", run_dir);
    }
    int rc = 0;
    if (dirs) {
        size_t n_names = 0;
        char **names = list_dir(inputs[0], &n_names);
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
            path_stem(names[f], stem, sizeof stem);
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
        free_strv(names, n_names);
    } else {
        rc = run_set(o, r, inputs, n_in_files, o->warmup, o->loop, run_dir, model_stem, bad);
    }
    free_strv(inputs, n_in_files);
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
    if (mkdir_p(o->output) != 0 || snprintf(data, sizeof data, "%s/%s", o->output, sub) >= (int)sizeof data ||
        mkdir_p(data) != 0 || snprintf(path, cap, "%s/acl.json", o->output) >= (int)cap) {
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
    path_stem(o->model, stem, sizeof stem);
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
    int rc = parse(argc, argv, &o);
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

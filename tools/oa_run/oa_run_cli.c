/*
 * oa_run's command line (msame's options, docs/oa_run.md): the usage text and
 * oa_run_parse, which fills an opts from argv. Options take "--opt value" and
 * "--opt=value" (getopt_long).
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "oa_run_internal.h"

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
int oa_run_parse(int argc, char **argv, opts *o)
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

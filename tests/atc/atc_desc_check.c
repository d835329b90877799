/*
 * The descriptor API on a converted model against ONNX Runtime's view of the
 * ONNX model (issue 3: names, shapes and dtypes as ORT reports them, plus
 * CANN's dynamic input):
 *
 *   atc_desc_check OM ONNX -- <the atc flags of the conversion>
 *
 * The .om comes from the atc_<case> test (tests/atc/CMakeLists.txt); the
 * expectations come from ONNX Runtime (bench/ort's oa_ort: declared inputs
 * and outputs, and a run on zeros for the output shapes) and from the atc
 * flags alone (--input_shape[_range], gears, fp16 nodes, output type), never
 * from our compiler. Checked, for aclmdlGetDescFromFile and for aclmdlGetDesc
 * of the loaded model (which must agree field by field):
 *   - input count, names (ORT's, in ORT's order), dtypes, dims, formats,
 *     sizes; gear models: `ascend_mbatch_shape_data` last (INT32, ND) and the
 *     gear getters (batch / HW / dims) equal to the flags; range models: the
 *     dims ranges and the range-maximum size;
 *   - output count, names (`<node>:<index>:<name>` with <name> = ORT's output
 *     name; the index lookup by that name), dtypes, dims (static: exactly
 *     the shapes ORT computes; gears: ORT's at the largest gear or -1, and
 *     the size of the largest gear; dynamic: ORT's declared fixed dims).
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "ort_runner.h"

#define MAXIO 16
#define MAXG 16

static int g_failures;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    g_failures++;
}

#define CHECK(cond, ...)     \
    do {                     \
        if (!(cond)) {       \
            fail(__VA_ARGS__); \
        }                    \
    } while (0)

/* ---- what the atc flags say ---- */

typedef struct shape_spec {
    char name[128];
    size_t rank;
    int64_t dim[ACL_MAX_DIM_CNT]; /* -1: dynamic */
    int64_t lo[ACL_MAX_DIM_CNT], hi[ACL_MAX_DIM_CNT]; /* range; hi -1 unbounded */
} shape_spec;

typedef enum { GEAR_NONE, GEAR_BATCH, GEAR_HW, GEAR_DIMS } gear_kind;

typedef struct flags {
    shape_spec shape[MAXIO];
    size_t n_shape;
    gear_kind gear;
    int64_t gears[MAXG][ACL_MAX_DIM_CNT];
    size_t n_gears, gear_len;
    char fp16_nodes[256];
    int out_fp16;
    char out_nodes[256];
} flags;

/* "name:d,d,..." or "name:[d,d~d,...]" (a~b a range, -1 unbounded). */
static int parse_shape(char *item, shape_spec *s)
{
    char *colon = strrchr(item, ':');
    if (colon == NULL) {
        return -1;
    }
    *colon = '\0';
    snprintf(s->name, sizeof s->name, "%s", item);
    char *p = colon + 1;
    if (*p == '[') {
        p++;
    }
    s->rank = 0;
    while (*p != '\0' && *p != ']' && s->rank < ACL_MAX_DIM_CNT) {
        char *end;
        long long a = strtoll(p, &end, 10);
        long long b = a;
        if (end == p) {
            return -1;
        }
        if (*end == '~') {
            p = end + 1;
            b = strtoll(p, &end, 10);
        }
        s->lo[s->rank] = a < 0 ? 1 : a;
        s->hi[s->rank] = b;
        s->dim[s->rank] = (a == b && a >= 0) ? a : -1;
        s->rank++;
        p = *end == ',' ? end + 1 : end;
    }
    return 0;
}

static void parse_list(const char *v, flags *f)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", v);
    char *save = NULL;
    for (char *g = strtok_r(buf, ";", &save); g != NULL && f->n_gears < MAXG; g = strtok_r(NULL, ";", &save)) {
        size_t n = 0;
        for (char *q = g; *q != '\0' && n < ACL_MAX_DIM_CNT;) {
            f->gears[f->n_gears][n++] = strtoll(q, &q, 10);
            if (*q == ',') {
                q++;
            }
        }
        f->gear_len = n;
        f->n_gears++;
    }
}

static int parse_flags(int argc, char **argv, flags *f)
{
    memset(f, 0, sizeof(*f));
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *v = strchr(a, '=');
        v = v != NULL ? v + 1 : "";
        if (strncmp(a, "--input_shape=", 14) == 0 || strncmp(a, "--input_shape_range=", 20) == 0) {
            char buf[1024];
            snprintf(buf, sizeof buf, "%s", v);
            char *save = NULL;
            for (char *it = strtok_r(buf, ";", &save); it != NULL && f->n_shape < MAXIO;
                 it = strtok_r(NULL, ";", &save)) {
                if (parse_shape(it, &f->shape[f->n_shape++]) != 0) {
                    fprintf(stderr, "cannot parse shape [%s]\n", it);
                    return -1;
                }
            }
        } else if (strncmp(a, "--dynamic_batch_size=", 21) == 0) {
            f->gear = GEAR_BATCH;
            /* one gear per value */
            char buf[256];
            snprintf(buf, sizeof buf, "%s", v);
            for (char *q = buf; *q != '\0' && f->n_gears < MAXG;) {
                f->gears[f->n_gears++][0] = strtoll(q, &q, 10);
                if (*q == ',') {
                    q++;
                }
            }
            f->gear_len = 1;
        } else if (strncmp(a, "--dynamic_image_size=", 21) == 0) {
            f->gear = GEAR_HW;
            parse_list(v, f);
        } else if (strncmp(a, "--dynamic_dims=", 15) == 0) {
            f->gear = GEAR_DIMS;
            parse_list(v, f);
        } else if (strncmp(a, "--input_fp16_nodes=", 19) == 0) {
            snprintf(f->fp16_nodes, sizeof f->fp16_nodes, ";%s;", v);
        } else if (strcmp(a, "--output_type=FP16") == 0) {
            f->out_fp16 = 1;
        } else if (strncmp(a, "--out_nodes=", 12) == 0) {
            snprintf(f->out_nodes, sizeof f->out_nodes, "%s", v);
        }
    }
    return 0;
}

static const shape_spec *find_shape(const flags *f, const char *name)
{
    for (size_t i = 0; i < f->n_shape; i++) {
        if (strcmp(f->shape[i].name, name) == 0) {
            return &f->shape[i];
        }
    }
    return NULL;
}

/* Dims of input `name` at gear g: the gear's values at the -1 positions, in --input_shape order. */
static void gear_dims(const flags *f, size_t g, const char *name, int64_t *dims, size_t *rank)
{
    size_t k = 0;
    for (size_t i = 0; i < f->n_shape; i++) {
        const shape_spec *s = &f->shape[i];
        for (size_t d = 0; d < s->rank; d++) {
            int64_t v = s->dim[d];
            if (v < 0) {
                v = f->gear == GEAR_BATCH ? f->gears[g][0] : f->gears[g][k++];
            }
            if (strcmp(s->name, name) == 0) {
                dims[d] = v;
            }
        }
        if (strcmp(s->name, name) == 0) {
            *rank = s->rank;
        }
    }
}

/* ---- ONNX Runtime -> ACL ---- */

static aclDataType acl_dtype(int ort)
{
    switch (ort) {
    case OA_ORT_FLOAT: return ACL_FLOAT;
    case OA_ORT_FLOAT16: return ACL_FLOAT16;
    case OA_ORT_INT8: return ACL_INT8;
    case OA_ORT_INT32: return ACL_INT32;
    case OA_ORT_UINT8: return ACL_UINT8;
    case OA_ORT_INT16: return ACL_INT16;
    case OA_ORT_UINT16: return ACL_UINT16;
    case OA_ORT_UINT32: return ACL_UINT32;
    case OA_ORT_INT64: return ACL_INT64;
    case OA_ORT_UINT64: return ACL_UINT64;
    case OA_ORT_DOUBLE: return ACL_DOUBLE;
    case OA_ORT_BOOL: return ACL_BOOL;
    case OA_ORT_BFLOAT16: return ACL_BF16;
    default: return ACL_DT_UNDEFINED;
    }
}

static size_t numel(const int64_t *d, size_t rank)
{
    size_t n = 1;
    for (size_t i = 0; i < rank; i++) {
        n *= d[i] > 0 ? (size_t)d[i] : 0;
    }
    return n;
}

static void dims_str(const int64_t *d, size_t rank, char *buf, size_t cap)
{
    size_t o = (size_t)snprintf(buf, cap, "[");
    for (size_t i = 0; i < rank && o < cap; i++) {
        o += (size_t)snprintf(buf + o, cap - o, "%s%lld", i ? "," : "", (long long)d[i]);
    }
    if (o < cap) {
        snprintf(buf + o, cap - o, "]");
    }
}

/* ORT's outputs on zero inputs of the given shapes (dims of each output), 0 on success. */
static int ort_output_dims(oa_ort_session *s, int64_t in_dims[][ACL_MAX_DIM_CNT], const size_t *in_rank,
                           oa_ort_tensor *outs, size_t n_out)
{
    const size_t n_in = oa_ort_input_count(s);
    oa_ort_tensor in[MAXIO];
    memset(in, 0, sizeof in);
    int rc = 0;
    for (size_t i = 0; i < n_in; i++) {
        const oa_ort_value_info *vi = oa_ort_input_info(s, i);
        in[i].name = vi->name;
        in[i].dtype = vi->dtype;
        in[i].rank = in_rank[i];
        memcpy(in[i].dims, in_dims[i], sizeof(int64_t) * in_rank[i]);
        in[i].bytes = numel(in_dims[i], in_rank[i]) * oa_ort_dtype_size(vi->dtype);
        in[i].data = calloc(1, in[i].bytes ? in[i].bytes : 1);
    }
    memset(outs, 0, sizeof(*outs) * n_out);
    if (oa_ort_run(s, in, n_in, outs, n_out) != 0) {
        fprintf(stderr, "ONNX Runtime: %s\n", oa_ort_last_error());
        rc = -1;
    }
    for (size_t i = 0; i < n_in; i++) {
        free(in[i].data);
    }
    return rc;
}

/* ---- the checks ---- */

static void same_desc(aclmdlDesc *a, aclmdlDesc *b)
{
    CHECK(aclmdlGetNumInputs(a) == aclmdlGetNumInputs(b), "GetDesc and GetDescFromFile: input counts differ");
    CHECK(aclmdlGetNumOutputs(a) == aclmdlGetNumOutputs(b), "GetDesc and GetDescFromFile: output counts differ");
    for (int io = 0; io < 2; io++) {
        const size_t n = io ? aclmdlGetNumOutputs(a) : aclmdlGetNumInputs(a);
        for (size_t i = 0; i < n; i++) {
            aclmdlIODims da, db;
            memset(&da, 0, sizeof da);
            memset(&db, 0, sizeof db);
            aclError ra = io ? aclmdlGetOutputDims(a, i, &da) : aclmdlGetInputDims(a, i, &da);
            aclError rb = io ? aclmdlGetOutputDims(b, i, &db) : aclmdlGetInputDims(b, i, &db);
            CHECK(ra == rb && memcmp(&da, &db, sizeof da) == 0, "%s %zu: dims differ between the descriptions",
                  io ? "output" : "input", i);
            CHECK((io ? aclmdlGetOutputSizeByIndex(a, i) : aclmdlGetInputSizeByIndex(a, i)) ==
                      (io ? aclmdlGetOutputSizeByIndex(b, i) : aclmdlGetInputSizeByIndex(b, i)),
                  "%s %zu: sizes differ between the descriptions", io ? "output" : "input", i);
            CHECK((io ? aclmdlGetOutputDataType(a, i) : aclmdlGetInputDataType(a, i)) ==
                      (io ? aclmdlGetOutputDataType(b, i) : aclmdlGetInputDataType(b, i)),
                  "%s %zu: dtypes differ between the descriptions", io ? "output" : "input", i);
            CHECK((io ? aclmdlGetOutputFormat(a, i) : aclmdlGetInputFormat(a, i)) ==
                      (io ? aclmdlGetOutputFormat(b, i) : aclmdlGetInputFormat(b, i)),
                  "%s %zu: formats differ between the descriptions", io ? "output" : "input", i);
        }
    }
}

typedef struct ctx {
    const flags *f;
    oa_ort_session *ort;
    int dynamic; /* no gears, some -1 dim */
} ctx;

static void check_inputs(const ctx *c, aclmdlDesc *d, int64_t run_dims[][ACL_MAX_DIM_CNT], size_t *run_rank)
{
    const flags *f = c->f;
    const size_t n_ort = oa_ort_input_count(c->ort);
    const size_t n = aclmdlGetNumInputs(d);
    const size_t want = n_ort + (f->gear != GEAR_NONE ? 1 : 0);
    CHECK(n == want, "%zu inputs, ONNX Runtime reports %zu (+ the gear input: %zu)", n, n_ort, want);
    for (size_t i = 0; i < n_ort && i < n; i++) {
        const oa_ort_value_info *vi = oa_ort_input_info(c->ort, i);
        const char *name = aclmdlGetInputNameByIndex(d, i);
        CHECK(strcmp(name, vi->name) == 0, "input %zu: name [%s], ONNX Runtime [%s]", i, name, vi->name);
        size_t idx = 99;
        CHECK(aclmdlGetInputIndexByName(d, vi->name, &idx) == ACL_SUCCESS && idx == i,
              "input [%s]: index by name %zu, want %zu", vi->name, idx, i);
        char key[160];
        snprintf(key, sizeof key, ";%s;", vi->name);
        const aclDataType dt = strstr(f->fp16_nodes, key) != NULL ? ACL_FLOAT16 : acl_dtype(vi->dtype);
        CHECK(aclmdlGetInputDataType(d, i) == dt, "input %zu: dtype %d, want %d (ONNX Runtime %s)", i,
              (int)aclmdlGetInputDataType(d, i), (int)dt, oa_ort_dtype_name(vi->dtype));
        /* expected dims: the flag's shape for that input, else the model's */
        const shape_spec *s = find_shape(f, vi->name);
        int64_t exp[ACL_MAX_DIM_CNT];
        size_t rank = s != NULL ? s->rank : vi->rank;
        for (size_t k = 0; k < rank; k++) {
            exp[k] = s != NULL ? s->dim[k] : vi->dims[k];
        }
        CHECK(rank == vi->rank, "input %zu: rank %zu, ONNX Runtime %zu", i, rank, vi->rank);
        for (size_t k = 0; k < rank && k < vi->rank; k++) {
            CHECK(vi->dims[k] < 0 || exp[k] < 0 || exp[k] == vi->dims[k], "input %zu dim %zu: %lld, ONNX %lld", i,
                  k, (long long)exp[k], (long long)vi->dims[k]);
        }
        aclmdlIODims got;
        memset(&got, 0, sizeof got);
        CHECK(aclmdlGetInputDims(d, i, &got) == ACL_SUCCESS, "aclmdlGetInputDims(%zu)", i);
        char gs[128], es[128];
        dims_str(got.dims, got.dimCount, gs, sizeof gs);
        dims_str(exp, rank, es, sizeof es);
        CHECK(got.dimCount == rank && memcmp(got.dims, exp, rank * sizeof(int64_t)) == 0,
              "input %zu [%s]: dims %s, want %s", i, vi->name, gs, es);
        CHECK(strcmp(got.name, vi->name) == 0, "input %zu: aclmdlGetInputDims name [%s]", i, got.name);
        const aclFormat fmt = aclmdlGetInputFormat(d, i);
        CHECK(fmt == (rank == 4 ? ACL_FORMAT_NCHW : fmt) && (fmt == ACL_FORMAT_NCHW || fmt == ACL_FORMAT_ND),
              "input %zu: format %d", i, (int)fmt);
        /* size: static -> exact; gears -> the largest gear; ranges -> the range maxima (0 when unbounded) */
        const size_t esz = aclDataTypeSize(dt);
        size_t want_size = numel(exp, rank) * esz;
        run_rank[i] = rank;
        memcpy(run_dims[i], exp, rank * sizeof(int64_t));
        if (f->gear != GEAR_NONE && s != NULL) {
            want_size = 0;
            for (size_t g = 0; g < f->n_gears; g++) {
                int64_t gd[ACL_MAX_DIM_CNT];
                size_t gr = 0;
                gear_dims(f, g, vi->name, gd, &gr);
                const size_t sz = numel(gd, gr) * esz;
                if (sz >= want_size) {
                    want_size = sz;
                    memcpy(run_dims[i], gd, gr * sizeof(int64_t));
                }
            }
        } else if (c->dynamic) {
            int bounded = 1;
            for (size_t k = 0; k < rank; k++) {
                const int64_t hi = s != NULL ? s->hi[k] : exp[k];
                bounded &= hi > 0;
                run_dims[i][k] = hi > 0 ? hi : 0;
            }
            want_size = bounded ? numel(run_dims[i], rank) * esz : 0;
            aclmdlIODimsRange r;
            memset(&r, 0, sizeof r);
            CHECK(aclmdlGetInputDimsRange(d, i, &r) == ACL_SUCCESS, "aclmdlGetInputDimsRange(%zu)", i);
            CHECK(r.rangeCount == rank, "input %zu: %zu ranges, rank %zu", i, r.rangeCount, rank);
            for (size_t k = 0; k < rank && k < r.rangeCount && s != NULL; k++) {
                if (s->hi[k] > 0) {
                    CHECK(r.range[k][0] == s->lo[k] && r.range[k][1] == s->hi[k],
                          "input %zu dim %zu: range [%lld,%lld], want [%lld,%lld]", i, k, (long long)r.range[k][0],
                          (long long)r.range[k][1], (long long)s->lo[k], (long long)s->hi[k]);
                }
            }
        }
        CHECK(aclmdlGetInputSizeByIndex(d, i) == want_size, "input %zu: size %zu, want %zu", i,
              aclmdlGetInputSizeByIndex(d, i), want_size);
        char os[128];
        dims_str(vi->dims, vi->rank, os, sizeof os);
        printf("  input %zu %s: dtype %d dims %s format %d size %zu | ONNX Runtime %s %s\n", i, name,
               (int)aclmdlGetInputDataType(d, i), gs, (int)fmt, aclmdlGetInputSizeByIndex(d, i),
               oa_ort_dtype_name(vi->dtype), os);
    }
}

static void check_gears(const flags *f, aclmdlDesc *d)
{
    const size_t n = aclmdlGetNumInputs(d);
    aclmdlBatch b;
    aclmdlHW hw;
    size_t gc = 99;
    memset(&b, 0, sizeof b);
    memset(&hw, 0, sizeof hw);
    CHECK(aclmdlGetDynamicBatch(d, &b) == ACL_SUCCESS, "aclmdlGetDynamicBatch");
    CHECK(aclmdlGetDynamicHW(d, (size_t)-1, &hw) == ACL_SUCCESS, "aclmdlGetDynamicHW");
    CHECK(aclmdlGetInputDynamicGearCount(d, (size_t)-1, &gc) == ACL_SUCCESS, "aclmdlGetInputDynamicGearCount");
    CHECK(b.batchCount == (f->gear == GEAR_BATCH ? f->n_gears : 0), "batchCount %zu", b.batchCount);
    CHECK(hw.hwCount == (f->gear == GEAR_HW ? f->n_gears : 0), "hwCount %zu", hw.hwCount);
    CHECK(gc == (f->gear == GEAR_DIMS ? f->n_gears : 0), "dynamic dims gear count %zu", gc);
    if (f->gear == GEAR_NONE) {
        for (size_t i = 0; i < n; i++) {
            CHECK(strcmp(aclmdlGetInputNameByIndex(d, i), ACL_DYNAMIC_TENSOR_NAME) != 0, "a static model has %s",
                  ACL_DYNAMIC_TENSOR_NAME);
        }
        return;
    }
    /* CANN's gear input, last */
    const size_t g = n - 1;
    CHECK(strcmp(aclmdlGetInputNameByIndex(d, g), ACL_DYNAMIC_TENSOR_NAME) == 0, "last input [%s], want %s",
          aclmdlGetInputNameByIndex(d, g), ACL_DYNAMIC_TENSOR_NAME);
    CHECK(aclmdlGetInputDataType(d, g) == ACL_INT32, "gear input dtype %d", (int)aclmdlGetInputDataType(d, g));
    CHECK(aclmdlGetInputFormat(d, g) == ACL_FORMAT_ND, "gear input format %d", (int)aclmdlGetInputFormat(d, g));
    size_t idx = 0;
    CHECK(aclmdlGetInputIndexByName(d, ACL_DYNAMIC_TENSOR_NAME, &idx) == ACL_SUCCESS && idx == g,
          "gear input index by name %zu", idx);
    for (size_t k = 0; k < f->n_gears; k++) {
        if (f->gear == GEAR_BATCH) {
            CHECK(k < b.batchCount && b.batch[k] == (uint64_t)f->gears[k][0], "batch gear %zu", k);
        } else if (f->gear == GEAR_HW) {
            CHECK(k < hw.hwCount && hw.hw[k][0] == (uint64_t)f->gears[k][0] &&
                      hw.hw[k][1] == (uint64_t)f->gears[k][1], "hw gear %zu", k);
        }
    }
    if (f->gear == GEAR_DIMS && gc == f->n_gears) {
        aclmdlIODims *gd = calloc(gc, sizeof(aclmdlIODims));
        CHECK(aclmdlGetInputDynamicDims(d, (size_t)-1, gd, gc) == ACL_SUCCESS, "aclmdlGetInputDynamicDims");
        for (size_t k = 0; k < gc; k++) {
            /* the inputs' dims in --input_shape order, the gear's values at the -1 positions */
            int64_t want[ACL_MAX_DIM_CNT];
            size_t nw = 0;
            for (size_t s = 0; s < f->n_shape; s++) {
                int64_t dd[ACL_MAX_DIM_CNT];
                size_t r = 0;
                gear_dims(f, k, f->shape[s].name, dd, &r);
                for (size_t q = 0; q < r && nw < ACL_MAX_DIM_CNT; q++) {
                    want[nw++] = dd[q];
                }
            }
            char gs[128], ws[128];
            dims_str(gd[k].dims, gd[k].dimCount, gs, sizeof gs);
            dims_str(want, nw, ws, sizeof ws);
            CHECK(gd[k].dimCount == nw && memcmp(gd[k].dims, want, nw * sizeof(int64_t)) == 0,
                  "dims gear %zu: %s, want %s", k, gs, ws);
        }
        free(gd);
    }
}

static void check_outputs(const ctx *c, aclmdlDesc *d, const oa_ort_tensor *ran)
{
    const flags *f = c->f;
    const size_t n = aclmdlGetNumOutputs(d);
    if (f->out_nodes[0] != '\0') {
        /* --out_nodes chose the outputs: one per node, named after it */
        size_t want = 1;
        for (const char *p = f->out_nodes; *p; p++) {
            want += *p == ';';
        }
        CHECK(n == want, "%zu outputs for --out_nodes=%s", n, f->out_nodes);
        char prefix[sizeof f->out_nodes + 2];
        snprintf(prefix, sizeof prefix, "%s:", f->out_nodes);
        char *semi = strchr(prefix, ';');
        if (semi != NULL) {
            *semi = '\0';
        }
        CHECK(n > 0 && strncmp(aclmdlGetOutputNameByIndex(d, 0), prefix, strlen(prefix)) == 0,
              "output 0 name [%s] does not start with [%s]", n > 0 ? aclmdlGetOutputNameByIndex(d, 0) : "", prefix);
        return;
    }
    const size_t n_ort = oa_ort_output_count(c->ort);
    CHECK(n == n_ort, "%zu outputs, ONNX Runtime reports %zu", n, n_ort);
    for (size_t j = 0; j < n && j < n_ort; j++) {
        const oa_ort_value_info *vi = oa_ort_output_info(c->ort, j);
        const char *full = aclmdlGetOutputNameByIndex(d, j);
        /* CANN's <node>:<index>:<name>; applications see <name> as the tensor's name */
        const char *c1 = strchr(full, ':');
        const char *c2 = c1 != NULL ? strchr(c1 + 1, ':') : NULL;
        CHECK(c1 != NULL && c2 != NULL && c1 > full && isdigit((unsigned char)c1[1]),
              "output %zu: name [%s] is not <node>:<index>:<name>", j, full);
        const char *tail = c2 != NULL ? c2 + 1 : full;
        CHECK(strcmp(tail, vi->name) == 0, "output %zu: name [%s], ONNX Runtime [%s]", j, full, vi->name);
        size_t idx = 99;
        CHECK(aclmdlGetOutputIndexByName(d, full, &idx) == ACL_SUCCESS && idx == j, "output [%s]: index by name",
              full);
        const aclDataType dt = f->out_fp16 ? ACL_FLOAT16 : acl_dtype(vi->dtype);
        CHECK(aclmdlGetOutputDataType(d, j) == dt, "output %zu: dtype %d, want %d (ONNX Runtime %s)", j,
              (int)aclmdlGetOutputDataType(d, j), (int)dt, oa_ort_dtype_name(vi->dtype));
        /* CANN's ONNX parser/atc: 4-D outputs NCHW (0), the others ND (2) */
        const aclFormat fmt = aclmdlGetOutputFormat(d, j);
        const aclFormat want_fmt = vi->rank == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_ND;
        CHECK(fmt == want_fmt, "output %zu: format %d, want %d (rank %zu)", j, (int)fmt, (int)want_fmt, vi->rank);
        aclmdlIODims got;
        memset(&got, 0, sizeof got);
        CHECK(aclmdlGetOutputDims(d, j, &got) == ACL_SUCCESS, "aclmdlGetOutputDims(%zu)", j);
        CHECK(strcmp(got.name, full) == 0, "output %zu: aclmdlGetOutputDims name [%s]", j, got.name);
        char gs[128], ws[128];
        dims_str(got.dims, got.dimCount, gs, sizeof gs);
        if (ran == NULL) {
            /* dynamic: the declared rank and fixed dims */
            dims_str(vi->dims, vi->rank, ws, sizeof ws);
            printf("  output %zu %s: dtype %d dims %s | ONNX Runtime %s %s declared\n", j, full, (int)dt, gs,
                   oa_ort_dtype_name(vi->dtype), ws);
            CHECK(vi->rank == 0 || got.dimCount == vi->rank, "output %zu: dims %s, ONNX declares %s", j, gs, ws);
            for (size_t k = 0; k < got.dimCount && k < vi->rank; k++) {
                CHECK(got.dims[k] < 0 || vi->dims[k] < 0 || got.dims[k] == vi->dims[k],
                      "output %zu: dims %s, ONNX declares %s", j, gs, ws);
            }
            continue;
        }
        const oa_ort_tensor *t = &ran[j];
        dims_str(t->dims, t->rank, ws, sizeof ws);
        printf("  output %zu %s: dtype %d dims %s size %zu | ONNX Runtime %s %s computed\n", j, full, (int)dt, gs,
               aclmdlGetOutputSizeByIndex(d, j), oa_ort_dtype_name(vi->dtype), ws);
        CHECK(got.dimCount == t->rank, "output %zu: dims %s, ONNX Runtime computes %s", j, gs, ws);
        for (size_t k = 0; k < got.dimCount && k < t->rank; k++) {
            const int ok = f->gear != GEAR_NONE ? (got.dims[k] == t->dims[k] || got.dims[k] == -1)
                                                : got.dims[k] == t->dims[k];
            CHECK(ok, "output %zu: dims %s, ONNX Runtime computes %s", j, gs, ws);
        }
        const size_t want = numel(t->dims, t->rank) * aclDataTypeSize(dt);
        CHECK(aclmdlGetOutputSizeByIndex(d, j) == want, "output %zu: size %zu, want %zu%s", j,
              aclmdlGetOutputSizeByIndex(d, j), want, f->gear != GEAR_NONE ? " (the largest gear)" : "");
    }
}

static void check_desc(const ctx *c, aclmdlDesc *d, const char *what)
{
    printf("-- %s\n", what);
    const int before = g_failures;
    int64_t run_dims[MAXIO][ACL_MAX_DIM_CNT];
    size_t run_rank[MAXIO] = {0};
    check_inputs(c, d, run_dims, run_rank);
    check_gears(c->f, d);
    oa_ort_tensor ran[MAXIO];
    const size_t n_out = oa_ort_output_count(c->ort);
    const int run = !c->dynamic && c->f->out_nodes[0] == '\0' && g_failures == before && n_out <= MAXIO;
    if (run && ort_output_dims(c->ort, run_dims, run_rank, ran, n_out) != 0) {
        fail("ONNX Runtime could not run the model at the expected input shapes");
        return;
    }
    check_outputs(c, d, run ? ran : NULL);
    if (run) {
        for (size_t j = 0; j < n_out; j++) {
            if (ran[j].owned) {
                free(ran[j].data);
            }
        }
    }
}

int main(int argc, char **argv)
{
    if (argc < 4 || strcmp(argv[3], "--") != 0) {
        fprintf(stderr, "usage: %s OM ONNX -- [atc flags]\n", argv[0]);
        return 2;
    }
    const char *om = argv[1], *onnx = argv[2];
    flags f;
    if (parse_flags(argc - 4, argv + 4, &f) != 0) {
        return 2;
    }
    oa_ort *ort = oa_ort_open(NULL);
    if (ort == NULL) {
        fprintf(stderr, "ONNX Runtime: %s\n", oa_ort_last_error());
        return 1;
    }
    oa_ort_options o;
    oa_ort_options_init(&o);
    o.intra_threads = 1;
    oa_ort_session *s = oa_ort_session_create(ort, onnx, &o);
    if (s == NULL) {
        fprintf(stderr, "ONNX Runtime: %s\n", oa_ort_last_error());
        oa_ort_close(ort);
        return 1;
    }
    ctx c = {.f = &f, .ort = s};
    if (f.gear == GEAR_NONE) {
        for (size_t i = 0; i < f.n_shape; i++) {
            for (size_t k = 0; k < f.shape[i].rank; k++) {
                c.dynamic |= f.shape[i].dim[k] < 0;
            }
        }
    }
    /* models that atc marks dynamic although every input is fixed (control flow) */
    for (int i = 4; i < argc; i++) {
        c.dynamic |= strcmp(argv[i], "--dynamic-model") == 0;
    }
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
        fprintf(stderr, "aclInit / aclrtSetDevice: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    aclmdlDesc *file_desc = aclmdlCreateDesc();
    aclmdlDesc *model_desc = aclmdlCreateDesc();
    uint32_t id = 0;
    if (aclmdlGetDescFromFile(file_desc, om) != ACL_SUCCESS) {
        fail("aclmdlGetDescFromFile(%s): %s", om, aclGetRecentErrMsg());
    } else {
        check_desc(&c, file_desc, "aclmdlGetDescFromFile");
    }
    if (aclmdlLoadFromFile(om, &id) != ACL_SUCCESS) {
        fail("aclmdlLoadFromFile(%s): %s", om, aclGetRecentErrMsg());
    } else {
        if (aclmdlGetDesc(model_desc, id) != ACL_SUCCESS) {
            fail("aclmdlGetDesc: %s", aclGetRecentErrMsg());
        } else {
            check_desc(&c, model_desc, "aclmdlGetDesc");
            same_desc(file_desc, model_desc);
        }
        if (aclmdlUnload(id) != ACL_SUCCESS) {
            fail("aclmdlUnload: %s", aclGetRecentErrMsg());
        }
    }
    aclmdlDestroyDesc(file_desc);
    aclmdlDestroyDesc(model_desc);
    aclrtResetDevice(0);
    aclFinalize();
    oa_ort_session_destroy(s);
    oa_ort_close(ort);
    printf("%s: %s\n", om, g_failures ? "FAILED" : "descriptor API matches ONNX Runtime");
    return g_failures ? 1 : 0;
}

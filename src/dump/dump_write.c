/*
 * Operator dump files (dump_write.h; the format is described in
 * docs/dump.md).
 */
#define OA_LOG_MODULE "ASCENDCL"
#include "dump/dump_write.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "dump_data.pb-c.h"

#define DUMP_VERSION "2.0"

/* aclDataType -> the dump message's data_type (docs/dump.md "File format"); 0 when it has none. */
static int ir_dtype(int32_t acl)
{
    switch (acl) {
    case 0: return 1;   /* FLOAT */
    case 1: return 2;   /* FLOAT16 */
    case 2: return 3;   /* INT8 */
    case 3: return 7;   /* INT32 */
    case 4: return 4;   /* UINT8 */
    case 6: return 5;   /* INT16 */
    case 7: return 6;   /* UINT16 */
    case 8: return 9;   /* UINT32 */
    case 9: return 8;   /* INT64 */
    case 10: return 10; /* UINT64 */
    case 11: return 12; /* DOUBLE */
    case 12: return 11; /* BOOL */
    case 13: return 13; /* STRING */
    case 16: return 16; /* COMPLEX64 */
    case 17: return 17; /* COMPLEX128 */
    case 27: return 27; /* BF16 */
    case 29: return 28; /* INT4 */
    case 30: return 29; /* UINT1 */
    case 33: return 32; /* COMPLEX32 */
    case 34: return 33; /* HIFLOAT8 */
    case 35: return 34; /* FLOAT8_E5M2 */
    case 36: return 35; /* FLOAT8_E4M3FN */
    default: return 0;
    }
}

static size_t acl_itemsize(int32_t acl)
{
    switch (acl) {
    case 2: case 4: case 12: return 1;
    case 1: case 6: case 7: case 27: return 2;
    case 0: case 3: case 8: return 4;
    case 9: case 10: case 11: return 8;
    default: return 0;
    }
}

static bool in_list(char *const *v, size_t n, const char *s)
{
    for (size_t i = 0; s != NULL && i < n; ++i) {
        if (v[i] != NULL && strcmp(v[i], s) == 0) {
            return true;
        }
    }
    return false;
}

static bool item_matches(const oa_dump_model *m, const char *om, const char *graph)
{
    return m->model_name == NULL || (om != NULL && om[0] != '\0' && strcmp(m->model_name, om) == 0) ||
           (graph != NULL && strcmp(m->model_name, graph) == 0);
}

/* The name part of a path: ' ', '.', '/', '\\' become '_' (as CANN's writer). */
static void clean_name(const char *s, char *out, size_t cap)
{
    size_t j = 0;
    for (; s != NULL && *s != '\0' && j + 1 < cap; ++s) {
        out[j++] = (*s == ' ' || *s == '.' || *s == '/' || *s == '\\') ? '_' : *s;
    }
    out[j] = '\0';
}

static bool begin_common(oa_dump_run *r, bool single_op)
{
    memset(r, 0, sizeof(*r));
    r->cfg = single_op ? oa_dump_current_op_config() : oa_dump_current_config();
    if (r->cfg == NULL || r->cfg->dump_path == NULL || r->cfg->scene != NULL) {
        oa_dump_config_destroy(r->cfg);
        r->cfg = NULL;
        return false;
    }
    r->inputs = r->cfg->mode != OA_DUMP_MODE_OUTPUT;
    r->outputs = r->cfg->mode != OA_DUMP_MODE_INPUT;
    return true;
}

bool oa_dump_run_begin_model(oa_dump_run *r, const char *om_name, const char *graph_name, uint32_t model_id,
                             uint64_t step)
{
    if (!begin_common(r, false)) {
        return false;
    }
    const oa_dump_config *c = r->cfg;
    bool any = c->model_count == 0 && c->op_switch; /* empty list + switch on: every model */
    bool by_om = false;
    for (size_t i = 0; i < c->model_count; ++i) {
        const oa_dump_model *m = &c->models[i];
        if (item_matches(m, om_name, graph_name)) {
            any = true;
            by_om = by_om || (m->model_name != NULL && om_name != NULL && strcmp(m->model_name, om_name) == 0);
        }
    }
    if (!any || !oa_dump_step_selected(c->step, step)) {
        oa_dump_run_end(r);
        return false;
    }
    r->om_name = om_name;
    r->graph_name = graph_name != NULL ? graph_name : "";
    char model[512];
    clean_name(by_om ? om_name : r->graph_name, model, sizeof model);
    const size_t n = strlen(c->dump_path);
    const int w = snprintf(r->dir, sizeof r->dir, "%s%s%s/0/%s/%u/%" PRIu64 "/", c->dump_path,
                           n > 0 && c->dump_path[n - 1] == '/' ? "" : "/", c->time_dir, model, model_id, step);
    if (w < 0 || (size_t)w >= sizeof r->dir) {
        OA_LOGW("dump directory of model %s is too long; the execution is not dumped", r->graph_name);
        oa_dump_run_end(r);
        return false;
    }
    return true;
}

bool oa_dump_run_begin_op(oa_dump_run *r)
{
    if (!begin_common(r, true)) {
        return false;
    }
    if (!r->cfg->op_switch) {
        oa_dump_run_end(r);
        return false;
    }
    const size_t n = strlen(r->cfg->dump_path);
    const int w = snprintf(r->dir, sizeof r->dir, "%s%s%s/0/", r->cfg->dump_path,
                           n > 0 && r->cfg->dump_path[n - 1] == '/' ? "" : "/", r->cfg->time_dir);
    if (w < 0 || (size_t)w >= sizeof r->dir) {
        oa_dump_run_end(r);
        return false;
    }
    return true;
}

bool oa_dump_run_selects(const oa_dump_run *r, const char *op_type, const char *op_name, const char *const *orig,
                         size_t n_orig)
{
    const oa_dump_config *c = r->cfg;
    if (c == NULL || op_name == NULL) {
        return false;
    }
    if (r->graph_name == NULL) {
        return c->op_switch;
    }
    if (c->model_count == 0) {
        return c->op_switch;
    }
    for (size_t i = 0; i < c->model_count; ++i) {
        const oa_dump_model *m = &c->models[i];
        if (!item_matches(m, r->om_name, r->graph_name)) {
            continue;
        }
        if (in_list(m->opname_blacklist, m->opname_blacklist_count, op_name) ||
            in_list(m->optype_blacklist, m->optype_blacklist_count, op_type)) {
            continue;
        }
        if (!m->has_layers || in_list(m->layers, m->layer_count, op_name)) {
            return true;
        }
        for (size_t k = 0; k < n_orig; ++k) {
            if (in_list(m->layers, m->layer_count, orig[k])) {
                return true;
            }
        }
    }
    return false;
}

void oa_dump_run_end(oa_dump_run *r)
{
    oa_dump_config_destroy(r->cfg);
    r->cfg = NULL;
}

/* ---- the file ---- */

/* Microseconds since the epoch, strictly increasing across the process (file names stay unique). */
static uint64_t dump_time_us(void)
{
    static _Atomic uint64_t last;
    struct timeval tv;
    gettimeofday(&tv, NULL);
    uint64_t now = (uint64_t)tv.tv_sec * 1000000u + (uint64_t)tv.tv_usec;
    uint64_t prev = atomic_load_explicit(&last, memory_order_relaxed);
    for (;;) {
        const uint64_t v = now > prev ? now : prev + 1;
        if (atomic_compare_exchange_weak_explicit(&last, &prev, v, memory_order_relaxed, memory_order_relaxed)) {
            return v;
        }
    }
}

/* The bytes a tensor has in the file (plain layout), 0 when unknown. */
static uint64_t file_bytes(const oa_dump_tensor *t)
{
    if (t->data == NULL) {
        return 0;
    }
    if (t->nchwc_block > 0) {
        size_t n = acl_itemsize(t->dtype);
        for (int32_t i = 0; i < t->rank; ++i) {
            if (t->dims[i] < 0 || !oa_mul_size(n, (size_t)t->dims[i], &n)) {
                return 0;
            }
        }
        return n;
    }
    return t->size;
}

/* Copies t's bytes to dst in plain layout. */
static void put_bytes(const oa_dump_tensor *t, uint8_t *dst, uint64_t bytes)
{
    if (bytes == 0) {
        return;
    }
    if (t->nchwc_block <= 0 || t->rank != 4) {
        memcpy(dst, t->data, (size_t)bytes);
        return;
    }
    const size_t es = acl_itemsize(t->dtype);
    const int64_t blk = t->nchwc_block, C = t->dims[1], c1 = (C + blk - 1) / blk, hw = t->dims[2] * t->dims[3];
    const uint8_t *src = t->data;
    for (int64_t n = 0; n < t->dims[0]; n++) {
        for (int64_t c = 0; c < C; c++) {
            for (int64_t p = 0; p < hw; p++) {
                memcpy(dst, src + (size_t)((((n * c1 + c / blk) * hw + p) * blk + c % blk)) * es, es);
                dst += es;
            }
        }
    }
}

typedef struct shape_store {
    Toolkit__Dump__Shape shape;
    uint64_t dims[32];
} shape_store;

static void fill_shape(shape_store *s, const oa_dump_tensor *t)
{
    toolkit__dump__shape__init(&s->shape);
    size_t n = 0;
    for (int32_t i = 0; i < t->rank && n < 32; ++i) {
        s->dims[n++] = t->dims[i] < 0 ? 0 : (uint64_t)t->dims[i];
    }
    s->shape.n_dim = n;
    s->shape.dim = s->dims;
}

static int32_t plain_format(const oa_dump_tensor *t)
{
    return t->nchwc_block > 0 ? 0 /* NCHW */ : t->format;
}

/* ---- stats (dump_data "stats") ---- */

static const char *dtype_name(int ir)
{
    static const char *const names[] = {"DT_UNDEFINED", "DT_FLOAT",  "DT_FLOAT16", "DT_INT8",   "DT_UINT8",
                                        "DT_INT16",     "DT_UINT16", "DT_INT32",   "DT_INT64",  "DT_UINT32",
                                        "DT_UINT64",    "DT_BOOL",   "DT_DOUBLE"};
    if (ir == 27) {
        return "DT_BF16";
    }
    return ir > 0 && ir < (int)(sizeof names / sizeof names[0]) ? names[ir] : "-";
}

static const char *format_name(int32_t f)
{
    switch (f) {
    case 0: return "NCHW";
    case 1: return "NHWC";
    case 2: return "ND";
    case 3: return "NC1HWC0";
    case 4: return "FRACTAL_Z";
    case 29: return "FRACTAL_NZ";
    case 30: return "NCDHW";
    case 27: return "NDHWC";
    default: return "-";
    }
}

static float half_to_float(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    uint32_t bits;
    if (exp == 0) {
        if (man == 0) {
            bits = sign;
        } else {
            float v = ldexpf((float)man, -24);
            return sign ? -v : v;
        }
    } else if (exp == 31) {
        bits = sign | 0x7f800000u | (man << 13);
    } else {
        bits = sign | ((exp + 112) << 23) | (man << 13);
    }
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static double element(const uint8_t *p, int32_t dt, size_t i)
{
    switch (dt) {
    case 0: { float v; memcpy(&v, p + i * 4, 4); return v; }
    case 1: { uint16_t v; memcpy(&v, p + i * 2, 2); return half_to_float(v); }
    case 27: { uint16_t v; memcpy(&v, p + i * 2, 2); uint32_t b = (uint32_t)v << 16; float f; memcpy(&f, &b, 4); return f; }
    case 11: { double v; memcpy(&v, p + i * 8, 8); return v; }
    case 2: return (int8_t)p[i];
    case 4: return p[i];
    case 12: return p[i] != 0;
    case 6: { int16_t v; memcpy(&v, p + i * 2, 2); return v; }
    case 7: { uint16_t v; memcpy(&v, p + i * 2, 2); return v; }
    case 3: { int32_t v; memcpy(&v, p + i * 4, 4); return v; }
    case 8: { uint32_t v; memcpy(&v, p + i * 4, 4); return v; }
    case 9: { int64_t v; memcpy(&v, p + i * 8, 8); return (double)v; }
    case 10: { uint64_t v; memcpy(&v, p + i * 8, 8); return (double)v; }
    default: return 0;
    }
}

static void stats_row(FILE *f, const char *side, size_t idx, const oa_dump_tensor *t, const uint8_t *plain,
                      uint64_t bytes)
{
    const int ir = ir_dtype(t->dtype);
    fprintf(f, "%s,%zu,%" PRIu64 ",%s,%s,", side, idx, bytes, dtype_name(ir), format_name(plain_format(t)));
    if (t->rank == 0) {
        fputc('-', f);
    }
    for (int32_t i = 0; i < t->rank; ++i) {
        fprintf(f, "%s%lld", i ? "x" : "", (long long)t->dims[i]);
    }
    const size_t es = acl_itemsize(t->dtype);
    if (es == 0 || plain == NULL || bytes == 0) {
        fputs(",,,,,,,\n", f);
        return;
    }
    const size_t n = (size_t)bytes / es;
    double mx = element(plain, t->dtype, 0), mn = mx, avg = 0;
    size_t nan = 0, ninf = 0, pinf = 0;
    for (size_t i = 0; i < n; ++i) {
        const double v = element(plain, t->dtype, i);
        mx = v > mx ? v : mx;
        mn = v < mn ? v : mn;
        avg += (v - avg) / (double)(i + 1);
        nan += isnan(v) ? 1 : 0;
        ninf += isinf(v) && v < 0 ? 1 : 0;
        pinf += isinf(v) && v > 0 ? 1 : 0;
    }
    if (ninf > 0 && pinf == 0) {
        avg = -INFINITY;
    } else if (pinf > 0 && ninf == 0) {
        avg = INFINITY;
    }
    fprintf(f, ",%g,%g,%g,%zu,%zu,%zu,%zu\n", mx, mn, avg, n, nan, ninf, pinf);
}

static oa_status write_stats(const oa_dump_run *r, const char *path, const oa_dump_op *op, uint8_t *const *plain,
                             const uint64_t *bytes)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f == NULL) {
        return OA_FAIL(OA_E_NOMEM, "stats of dump file [%s]", path);
    }
    fputs("Input/Output,Index,Data Size,Data Type,Format,Shape,Max Value,Min Value,Avg Value,Count,Nan Count,"
          "Negative Inf Count,Positive Inf Count\n",
          f);
    size_t k = 0;
    for (size_t i = 0; r->inputs && i < op->n_in; ++i, ++k) {
        stats_row(f, "Input", i, &op->in[i], plain[k], bytes[k]);
    }
    for (size_t i = 0; r->outputs && i < op->n_out; ++i, ++k) {
        stats_row(f, "Output", i, &op->out[i], plain[k], bytes[k]);
    }
    fclose(f);
    char csv[4096 + 1024 + 8];
    snprintf(csv, sizeof csv, "%s.csv", path);
    const oa_status st = oa_dump_emit(csv, text, len);
    free(text);
    return st;
}

oa_status oa_dump_run_write(oa_dump_run *r, const oa_dump_op *op)
{
    if (r->cfg == NULL || op == NULL || op->name == NULL) {
        return OA_FAIL(OA_E_PARAM, "dump of an operator without a run or a name");
    }
    const size_t n_in = r->inputs ? op->n_in : 0, n_out = r->outputs ? op->n_out : 0;
    if (n_in + n_out == 0) {
        return OA_OK; /* nothing to dump: no file */
    }
    char type[256], name[512], path[4096 + 1024];
    clean_name(op->type != NULL ? op->type : "", type, sizeof type);
    clean_name(op->name, name, sizeof name);
    const uint64_t ts = dump_time_us();
    const int w = snprintf(path, sizeof path, "%s%s.%s.%u.%u.%" PRIu64, r->dir, type, name, op->task_id,
                           op->stream_id, ts);
    if (w < 0 || (size_t)w >= sizeof path) {
        return OA_FAIL(OA_E_WRITE_FILE, "dump file name of op %s is too long", op->name);
    }

    const size_t nt = n_in + n_out;
    Toolkit__Dump__OpInput *ins = calloc(n_in + 1, sizeof(*ins));
    Toolkit__Dump__OpInput **pins = calloc(n_in + 1, sizeof(*pins));
    Toolkit__Dump__OpOutput *outs = calloc(n_out + 1, sizeof(*outs));
    Toolkit__Dump__OpOutput **pouts = calloc(n_out + 1, sizeof(*pouts));
    Toolkit__Dump__OriginalOp *origs = calloc(n_out + 1, sizeof(*origs));
    shape_store *shapes = calloc(nt + 1, sizeof(*shapes));
    uint64_t *bytes = calloc(nt + 1, sizeof(*bytes));
    uint8_t **plain = calloc(nt + 1, sizeof(*plain)); /* stats: the plain bytes */
    Toolkit__Dump__OpAttr attr;
    Toolkit__Dump__OpAttr *pattr = &attr;
    char *orig_joined = NULL;
    uint8_t *buf = NULL;
    oa_status st = OA_OK;
    if (ins == NULL || pins == NULL || outs == NULL || pouts == NULL || origs == NULL || shapes == NULL ||
        bytes == NULL || plain == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "dump of op %s", op->name);
        goto done;
    }
    Toolkit__Dump__DumpData d;
    toolkit__dump__dump_data__init(&d);
    d.version = (char *)DUMP_VERSION;
    d.dump_time = ts;
    d.op_name = (char *)(uintptr_t)op->name;
    size_t total = 0;
    for (size_t i = 0; i < n_in; ++i) {
        const oa_dump_tensor *t = &op->in[i];
        toolkit__dump__op_input__init(&ins[i]);
        fill_shape(&shapes[i], t);
        bytes[i] = file_bytes(t);
        ins[i].data_type = (Toolkit__Dump__OutputDataType)ir_dtype(t->dtype);
        ins[i].format = (Toolkit__Dump__OutputFormat)(plain_format(t) & 0xff);
        ins[i].shape = &shapes[i].shape;
        ins[i].original_shape = &shapes[i].shape;
        ins[i].size = bytes[i];
        ins[i].address = (uint64_t)(uintptr_t)t->data;
        pins[i] = &ins[i];
        total += (size_t)bytes[i];
    }
    for (size_t k = 0; k < n_out; ++k) {
        const oa_dump_tensor *t = &op->out[k];
        const size_t j = n_in + k;
        toolkit__dump__op_output__init(&outs[k]);
        fill_shape(&shapes[j], t);
        bytes[j] = file_bytes(t);
        outs[k].data_type = (Toolkit__Dump__OutputDataType)ir_dtype(t->dtype);
        outs[k].format = (Toolkit__Dump__OutputFormat)(plain_format(t) & 0xff);
        outs[k].shape = &shapes[j].shape;
        outs[k].original_shape = &shapes[j].shape;
        outs[k].size = bytes[j];
        outs[k].address = (uint64_t)(uintptr_t)t->data;
        if (t->orig_name != NULL) {
            toolkit__dump__original_op__init(&origs[k]);
            origs[k].name = (char *)(uintptr_t)t->orig_name;
            origs[k].output_index = t->orig_index;
            origs[k].data_type = outs[k].data_type;
            origs[k].format = outs[k].format;
            outs[k].original_op = &origs[k];
        }
        pouts[k] = &outs[k];
        total += (size_t)bytes[j];
    }
    d.n_input = n_in;
    d.input = pins;
    d.n_output = n_out;
    d.output = pouts;
    if (op->n_orig > 0) {
        size_t len = 1;
        for (size_t i = 0; i < op->n_orig; ++i) {
            len += strlen(op->orig_names[i]) + 1;
        }
        orig_joined = malloc(len);
        if (orig_joined != NULL) {
            size_t o = 0;
            for (size_t i = 0; i < op->n_orig; ++i) {
                const size_t l = strlen(op->orig_names[i]);
                memcpy(orig_joined + o, op->orig_names[i], l);
                o += l;
                orig_joined[o++] = i + 1 < op->n_orig ? ',' : '\0';
            }
            toolkit__dump__op_attr__init(&attr);
            attr.name = (char *)"_datadump_original_op_names";
            attr.value = orig_joined;
            d.n_attr = 1;
            d.attr = &pattr;
        }
    }

    if (r->cfg->data == OA_DUMP_DATA_STATS) {
        for (size_t k = 0; k < nt; ++k) {
            const oa_dump_tensor *t = k < n_in ? &op->in[k] : &op->out[k - n_in];
            if (bytes[k] > 0 && (plain[k] = malloc((size_t)bytes[k])) != NULL) {
                put_bytes(t, plain[k], bytes[k]);
            }
        }
        st = write_stats(r, path, op, plain, bytes);
        goto done;
    }

    const size_t msg = toolkit__dump__dump_data__get_packed_size(&d);
    size_t all = 0;
    if (!oa_add_size(8 + msg, total, &all) || (buf = malloc(all)) == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "dump file of op %s (%zu bytes)", op->name, all);
        goto done;
    }
    const uint64_t len64 = msg;
    for (int b = 0; b < 8; ++b) {
        buf[b] = (uint8_t)(len64 >> (8 * b));
    }
    toolkit__dump__dump_data__pack(&d, buf + 8);
    size_t off = 8 + msg;
    for (size_t k = 0; k < nt; ++k) {
        const oa_dump_tensor *t = k < n_in ? &op->in[k] : &op->out[k - n_in];
        put_bytes(t, buf + off, bytes[k]);
        off += (size_t)bytes[k];
    }
    st = oa_dump_emit(path, buf, all);

done:
    for (size_t k = 0; plain != NULL && k < nt; ++k) {
        free(plain[k]);
    }
    free(plain);
    free(buf);
    free(orig_joined);
    free(bytes);
    free(shapes);
    free(origs);
    free(pouts);
    free(outs);
    free(pins);
    free(ins);
    if (st != OA_OK) {
        OA_LOGW("dump of op %s failed (error code %d)", op->name, oa_status_to_acl(st));
    }
    return st;
}

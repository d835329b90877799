/*
 * Operator records (prof_internal.h, docs/profiling.md): what the executors
 * report while profiling runs or a model is subscribed, written at the end
 * of a session as trace events, op_summary and op_statistic CSVs, and the
 * aclprofModelSubscribe records with their getters.
 */
#define OA_LOG_MODULE "ASCENDCL"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "base/acl_check.h"
#include "base/log.h"
#include "base/util.h"
#include "prof/prof_ops.h"

/* acl_mdl is another part: the model-id check is skipped in programs that link prof without it */
#pragma weak aclmdlCreateDesc
#pragma weak aclmdlGetDesc
#pragma weak aclmdlDestroyDesc

#define MAX_OPS (1u << 20)
#define MAX_SUBSCRIBED 64

/* ---- recorded operators of the running session ---- */

/*
 * A record as collected: kept small and free of formatting (the executors
 * wait for it); names are interned, tensor descs appended to g_desc as
 * {dtype, format, rank, dims...}. Formatted at the end of the session.
 */
typedef struct op_raw {
    uint32_t name, type; /* g_strs indexes */
    uint32_t model_id, task_id, stream_id, tid;
    size_t desc;         /* first word in g_desc */
    uint16_t n_in, n_out;
    bool dynamic;
    uint64_t start_ns, end_ns;
} op_raw;

/* The same, formatted for the output files. */
typedef struct op_rec {
    char *name;
    char *type;
    char *in_shapes, *in_dtypes, *in_formats, *out_shapes, *out_dtypes, *out_formats;
    uint32_t model_id, task_id, stream_id, tid;
    bool dynamic;
    uint64_t start_ns, end_ns;
} op_rec;

static pthread_mutex_t g_ops_lock = PTHREAD_MUTEX_INITIALIZER;
static op_raw *g_raw;
static size_t g_n_raw, g_cap_raw;
static int64_t *g_desc;
static size_t g_n_desc, g_cap_desc;
static char **g_strs;
static size_t g_n_strs, g_cap_strs;
/* pointer -> g_strs index (open addressing, grown at half full; the content is compared, so a reused pointer is safe) */
typedef struct str_slot {
    const char *key;
    uint32_t id;
} str_slot;
static str_slot *g_slots;
static size_t g_n_slots, g_used_slots;
static op_rec *g_ops;   /* formatted at write time */
static size_t g_n_ops;
static bool g_collect;          /* a session runs */
static atomic_bool g_active;    /* g_collect || a subscription exists */

typedef struct subscription {
    uint32_t model_id;
    int fd;
} subscription;
static subscription g_subs[MAX_SUBSCRIBED];
static size_t g_n_subs;

/* opIndex -> (type, name) of records handed to subscribers; read once by the getters */
typedef struct name_entry {
    uint64_t index;
    char *type;
    char *name;
} name_entry;
static name_entry *g_names;
static size_t g_n_names, g_cap_names;
static uint64_t g_next_index = 1;

static void publish_locked(void)
{
    atomic_store_explicit(&g_active, g_collect || g_n_subs > 0, memory_order_release);
}

bool oa_prof_active(void)
{
    return atomic_load_explicit(&g_active, memory_order_relaxed);
}

static void free_rec(op_rec *r)
{
    free(r->name);
    free(r->type);
    free(r->in_shapes);
    free(r->in_dtypes);
    free(r->in_formats);
    free(r->out_shapes);
    free(r->out_dtypes);
    free(r->out_formats);
}

void oa_prof_ops_begin(void)
{
    pthread_mutex_lock(&g_ops_lock);
    g_collect = true;
    publish_locked();
    pthread_mutex_unlock(&g_ops_lock);
}

static void free_formatted_locked(void)
{
    for (size_t i = 0; i < g_n_ops; ++i) {
        free_rec(&g_ops[i]);
    }
    free(g_ops);
    g_ops = NULL;
    g_n_ops = 0;
}

void oa_prof_ops_clear(void)
{
    pthread_mutex_lock(&g_ops_lock);
    free_formatted_locked();
    free(g_raw);
    g_raw = NULL;
    g_n_raw = g_cap_raw = 0;
    free(g_desc);
    g_desc = NULL;
    g_n_desc = g_cap_desc = 0;
    for (size_t i = 0; i < g_n_strs; ++i) {
        free(g_strs[i]);
    }
    free(g_strs);
    g_strs = NULL;
    g_n_strs = g_cap_strs = 0;
    free(g_slots);
    g_slots = NULL;
    g_n_slots = g_used_slots = 0;
    g_collect = false;
    publish_locked();
    pthread_mutex_unlock(&g_ops_lock);
}

static size_t slot_of(const str_slot *slots, size_t n, const char *key)
{
    size_t k = (size_t)((((uintptr_t)key >> 3) * 0x9E3779B97F4A7C15ull) >> 20) & (n - 1);
    while (slots[k].key != NULL && slots[k].key != key) {
        k = (k + 1) & (n - 1);
    }
    return k;
}

/* The id of string s (lock held); UINT32_MAX when out of memory. */
static uint32_t intern_locked(const char *s)
{
    if (s == NULL) {
        s = "";
    }
    if ((g_used_slots + 1) * 2 > g_n_slots) {
        const size_t n = g_n_slots == 0 ? 1024 : g_n_slots * 2;
        str_slot *slots = calloc(n, sizeof(*slots));
        if (slots == NULL) {
            return UINT32_MAX;
        }
        for (size_t i = 0; i < g_n_slots; ++i) {
            if (g_slots[i].key != NULL) {
                slots[slot_of(slots, n, g_slots[i].key)] = g_slots[i];
            }
        }
        free(g_slots);
        g_slots = slots;
        g_n_slots = n;
    }
    str_slot *e = &g_slots[slot_of(g_slots, g_n_slots, s)];
    if (e->key == s && strcmp(g_strs[e->id], s) == 0) {
        return e->id;
    }
    if (g_n_strs == g_cap_strs) {
        const size_t cap = g_cap_strs == 0 ? 256 : g_cap_strs * 2;
        char **n = realloc(g_strs, cap * sizeof(*n));
        if (n == NULL) {
            return UINT32_MAX;
        }
        g_strs = n;
        g_cap_strs = cap;
    }
    char *copy = oa_strdup(s);
    if (copy == NULL) {
        return UINT32_MAX;
    }
    g_strs[g_n_strs] = copy;
    if (e->key == NULL) {
        ++g_used_slots;
    }
    e->key = s; /* a new pointer, or the same pointer now holding other text */
    e->id = (uint32_t)g_n_strs;
    return (uint32_t)g_n_strs++;
}

/* Appends the descs of t[0..n) to g_desc (lock held). */
static bool push_descs_locked(const oa_prof_tensor *t, size_t n)
{
    size_t need = 0;
    for (size_t i = 0; i < n; ++i) {
        need += 3 + (size_t)(t[i].rank > 0 && t[i].dims != NULL ? t[i].rank : 0);
    }
    if (g_n_desc + need > g_cap_desc) {
        size_t cap = g_cap_desc == 0 ? 4096 : g_cap_desc;
        while (cap < g_n_desc + need) {
            cap *= 2;
        }
        int64_t *d = realloc(g_desc, cap * sizeof(*d));
        if (d == NULL) {
            return false;
        }
        g_desc = d;
        g_cap_desc = cap;
    }
    for (size_t i = 0; i < n; ++i) {
        const int32_t rank = t[i].rank > 0 && t[i].dims != NULL ? t[i].rank : 0;
        g_desc[g_n_desc++] = t[i].dtype;
        g_desc[g_n_desc++] = t[i].format;
        g_desc[g_n_desc++] = rank;
        for (int32_t d = 0; d < rank; ++d) {
            g_desc[g_n_desc++] = t[i].dims[d];
        }
    }
    return true;
}

static const char *dtype_name(int32_t dt)
{
    switch (dt) {
    case ACL_FLOAT: return "FLOAT";
    case ACL_FLOAT16: return "FLOAT16";
    case ACL_INT8: return "INT8";
    case ACL_INT32: return "INT32";
    case ACL_UINT8: return "UINT8";
    case ACL_INT16: return "INT16";
    case ACL_UINT16: return "UINT16";
    case ACL_UINT32: return "UINT32";
    case ACL_INT64: return "INT64";
    case ACL_UINT64: return "UINT64";
    case ACL_DOUBLE: return "DOUBLE";
    case ACL_BOOL: return "BOOL";
    case ACL_STRING: return "STRING";
    case ACL_BF16: return "BF16";
    default: return "UNDEFINED";
    }
}

static const char *format_name(int32_t f)
{
    switch (f) {
    case ACL_FORMAT_NCHW: return "NCHW";
    case ACL_FORMAT_NHWC: return "NHWC";
    case ACL_FORMAT_ND: return "ND";
    case ACL_FORMAT_NC1HWC0: return "NC1HWC0";
    case ACL_FORMAT_FRACTAL_Z: return "FRACTAL_Z";
    case ACL_FORMAT_FRACTAL_NZ: return "FRACTAL_NZ";
    case ACL_FORMAT_NCDHW: return "NCDHW";
    case ACL_FORMAT_NDHWC: return "NDHWC";
    default: return "UNDEFINED";
    }
}

/* "1,3,48,192;192" / "FLOAT;FLOAT" / "NCHW;ND" of n descs in g_desc from *pos (advanced past them). */
static char *join_tensors(size_t pos, size_t n, int what)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < n; ++i) {
        const int64_t dtype = g_desc[pos], format = g_desc[pos + 1], rank = g_desc[pos + 2];
        if (i > 0) {
            fputc(';', f);
        }
        if (what == 0) {
            for (int64_t d = 0; d < rank; ++d) {
                fprintf(f, "%s%lld", d ? "," : "", (long long)g_desc[pos + 3 + (size_t)d]);
            }
        } else {
            fputs(what == 1 ? dtype_name((int32_t)dtype) : format_name((int32_t)format), f);
        }
        pos += 3 + (size_t)rank;
    }
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* Words of n descs in g_desc from pos. */
static size_t descs_words(size_t pos, size_t n)
{
    size_t w = 0;
    for (size_t i = 0; i < n; ++i) {
        w += 3 + (size_t)g_desc[pos + w + 2];
    }
    return w;
}

/* Formats every raw record into g_ops (lock held). */
static bool format_records_locked(void)
{
    free_formatted_locked();
    g_ops = calloc(g_n_raw + 1, sizeof(*g_ops));
    if (g_ops == NULL) {
        return false;
    }
    for (size_t i = 0; i < g_n_raw; ++i) {
        const op_raw *w = &g_raw[i];
        op_rec *r = &g_ops[g_n_ops];
        const size_t out = w->desc + descs_words(w->desc, w->n_in);
        r->name = oa_strdup(g_strs[w->name]);
        r->type = oa_strdup(g_strs[w->type]);
        r->in_shapes = join_tensors(w->desc, w->n_in, 0);
        r->in_dtypes = join_tensors(w->desc, w->n_in, 1);
        r->in_formats = join_tensors(w->desc, w->n_in, 2);
        r->out_shapes = join_tensors(out, w->n_out, 0);
        r->out_dtypes = join_tensors(out, w->n_out, 1);
        r->out_formats = join_tensors(out, w->n_out, 2);
        r->model_id = w->model_id;
        r->task_id = w->task_id;
        r->stream_id = w->stream_id;
        r->tid = w->tid;
        r->dynamic = w->dynamic;
        r->start_ns = w->start_ns;
        r->end_ns = w->end_ns;
        if (r->name == NULL || r->type == NULL || r->in_shapes == NULL || r->in_dtypes == NULL ||
            r->in_formats == NULL || r->out_shapes == NULL || r->out_dtypes == NULL || r->out_formats == NULL) {
            free_rec(r);
            memset(r, 0, sizeof(*r));
        } else {
            ++g_n_ops;
        }
    }
    return true;
}

/* CRC-32C (Castagnoli, reflected, no final XOR) over bytes 4..79: the record signature. */
static uint32_t g_crc_table[256];
static void init_table(void)
{
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int k = 0; k < 8; ++k) {
            c = (c & 1u) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        }
        g_crc_table[i] = c;
    }
}

static uint32_t crc_signature(const uint8_t *rec)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, init_table);
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 4; i < OA_PROF_OP_DESC_SIZE; ++i) {
        c = g_crc_table[(c ^ rec[i]) & 0xFFu] ^ (c >> 8);
    }
    return c;
}

static void put32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
    memcpy(p, &v, 8);
}

static uint32_t get32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* Builds the subscription record of op into rec (lock held); false when it cannot be kept. */
static bool make_record_locked(const oa_prof_op *op, uint8_t *rec)
{
    if (g_n_names == g_cap_names) {
        const size_t cap = g_cap_names == 0 ? 64 : g_cap_names * 2;
        name_entry *n = realloc(g_names, cap * sizeof(*n));
        if (n == NULL) {
            return false;
        }
        g_names = n;
        g_cap_names = cap;
    }
    name_entry *e = &g_names[g_n_names];
    e->index = g_next_index++;
    e->type = oa_strdup(op->type != NULL ? op->type : "");
    e->name = oa_strdup(op->name != NULL ? op->name : "");
    if (e->type == NULL || e->name == NULL) {
        free(e->type);
        free(e->name);
        return false;
    }
    ++g_n_names;
    memset(rec, 0, OA_PROF_OP_DESC_SIZE);
    put32(rec + 4, op->model_id);
    put32(rec + 8, (uint32_t)ACL_SUBSCRIBE_OP);
    put32(rec + 12, 0);
    put64(rec + 16, e->index);
    put64(rec + 24, op->end_ns >= op->start_ns ? op->end_ns - op->start_ns : 0);
    put64(rec + 32, op->start_ns);
    put64(rec + 40, op->end_ns);
    put64(rec + 48, op->end_ns >= op->start_ns ? op->end_ns - op->start_ns : 0);
    put32(rec + 72, 0); /* device 0 */
    put32(rec, crc_signature(rec));
    return true;
}

/* Writes one record to a subscriber (no lock held: the reader may call the getters meanwhile). */
static void send_record(int fd, const uint8_t *rec)
{
    ssize_t w;
    do {
        w = write(fd, rec, OA_PROF_OP_DESC_SIZE);
    } while (w < 0 && errno == EINTR);
    if (w != (ssize_t)OA_PROF_OP_DESC_SIZE) {
        OA_LOGW("cannot write an operator record to subscriber fd %d: %s", fd,
                w < 0 ? strerror(errno) : "short write");
    }
}

void oa_prof_record_op(const oa_prof_op *op)
{
    if (op == NULL) {
        return;
    }
    uint8_t rec[OA_PROF_OP_DESC_SIZE];
    int fd = -1;
    pthread_mutex_lock(&g_ops_lock);
    for (size_t i = 0; i < g_n_subs && fd < 0; ++i) {
        if (g_subs[i].model_id == op->model_id && make_record_locked(op, rec)) {
            fd = g_subs[i].fd;
        }
    }
    if (!g_collect || g_n_raw >= MAX_OPS) {
        pthread_mutex_unlock(&g_ops_lock);
        if (fd >= 0) {
            send_record(fd, rec);
        }
        return;
    }
    bool ok = true;
    if (g_n_raw == g_cap_raw) {
        const size_t cap = g_cap_raw == 0 ? 1024 : g_cap_raw * 2;
        op_raw *n = realloc(g_raw, cap * sizeof(*n));
        ok = n != NULL;
        if (ok) {
            g_raw = n;
            g_cap_raw = cap;
        }
    }
    if (ok) {
        static _Thread_local uint32_t t_tid;
        if (t_tid == 0) {
            t_tid = (uint32_t)syscall(SYS_gettid);
        }
        op_raw *r = &g_raw[g_n_raw];
        r->name = intern_locked(op->name);
        r->type = intern_locked(op->type);
        r->desc = g_n_desc;
        r->n_in = (uint16_t)(op->n_in < UINT16_MAX ? op->n_in : UINT16_MAX);
        r->n_out = (uint16_t)(op->n_out < UINT16_MAX ? op->n_out : UINT16_MAX);
        r->model_id = op->model_id;
        r->task_id = op->task_id;
        r->stream_id = op->stream_id;
        r->tid = t_tid;
        r->dynamic = op->dynamic;
        r->start_ns = op->start_ns;
        r->end_ns = op->end_ns >= op->start_ns ? op->end_ns : op->start_ns;
        if (r->name != UINT32_MAX && r->type != UINT32_MAX && push_descs_locked(op->in, r->n_in) &&
            push_descs_locked(op->out, r->n_out)) {
            ++g_n_raw;
        } else {
            g_n_desc = r->desc;
        }
    }
    pthread_mutex_unlock(&g_ops_lock);
    if (fd >= 0) {
        send_record(fd, rec);
    }
}

/* ---- session output ---- */

static int cmp_start(const void *a, const void *b)
{
    const op_rec *x = a, *y = b;
    return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns ? 1 : 0;
}

/* ns -> "us.fff" (µs with 3 decimals) */
static void us3(char *buf, size_t cap, uint64_t ns)
{
    snprintf(buf, cap, "%" PRIu64 ".%03u", ns / 1000u, (unsigned)(ns % 1000u));
}

/* A CSV field with quotes (shapes hold commas). */
static void csv_quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s != '\0'; ++s) {
        if (*s == '"') {
            fputc('"', f);
        }
        fputc(*s, f);
    }
    fputc('"', f);
}

static bool write_op_summary(const char *path)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        return false;
    }
    fputs("Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,Task Start Time(us),"
          "Task Duration(us),Task Wait Time(us),Block Num,Mix Block Num,HF32 Eligible,Input Shapes,"
          "Input Data Types,Input Formats,Output Shapes,Output Data Types,Output Formats,Context ID\n",
          f);
    for (size_t i = 0; i < g_n_ops; ++i) {
        const op_rec *r = &g_ops[i];
        char start[48], dur[48];
        us3(start, sizeof start, r->start_ns);
        us3(dur, sizeof dur, r->end_ns - r->start_ns);
        double wait = 0;
        if (i > 0) {
            const op_rec *p = &g_ops[i - 1];
            if (r->start_ns > p->end_ns) {
                wait = (double)(r->start_ns - p->end_ns) / 1000.0;
            }
        }
        fprintf(f, "0,%u,%u,%u,", r->model_id, r->task_id, r->stream_id);
        csv_quoted(f, r->name);
        fputc(',', f);
        csv_quoted(f, r->type);
        fprintf(f, ",%s,AI_CPU,%s\t,%s,", r->dynamic ? "dynamic" : "static", start, dur);
        if (i == 0) {
            fputc('0', f);
        } else {
            fprintf(f, "%f", wait);
        }
        fputs(",1,0,NO,", f);
        csv_quoted(f, r->in_shapes);
        fprintf(f, ",%s,%s,", r->in_dtypes, r->in_formats);
        csv_quoted(f, r->out_shapes);
        fprintf(f, ",%s,%s,N/A\n", r->out_dtypes, r->out_formats);
    }
    return fclose(f) == 0;
}

typedef struct type_stat {
    const char *type;
    uint64_t count, total, min, max;
} type_stat;

static int cmp_total(const void *a, const void *b)
{
    const type_stat *x = a, *y = b;
    return x->total > y->total ? -1 : x->total < y->total ? 1 : 0;
}

static bool write_op_statistic(const char *path)
{
    type_stat *st = calloc(g_n_ops + 1, sizeof(*st));
    if (st == NULL) {
        return false;
    }
    size_t n = 0;
    uint64_t all = 0;
    for (size_t i = 0; i < g_n_ops; ++i) {
        const op_rec *r = &g_ops[i];
        const uint64_t d = r->end_ns - r->start_ns;
        size_t k = 0;
        while (k < n && strcmp(st[k].type, r->type) != 0) {
            ++k;
        }
        if (k == n) {
            st[n++] = (type_stat){.type = r->type, .min = d};
        }
        st[k].count++;
        st[k].total += d;
        st[k].min = d < st[k].min ? d : st[k].min;
        st[k].max = d > st[k].max ? d : st[k].max;
        all += d;
    }
    qsort(st, n, sizeof(*st), cmp_total);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        free(st);
        return false;
    }
    fputs("Device_id,Model Name,OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),"
          "Ratio(%)\n",
          f);
    for (size_t k = 0; k < n; ++k) {
        char tot[48], mn[48], mx[48];
        us3(tot, sizeof tot, st[k].total);
        us3(mn, sizeof mn, st[k].min);
        us3(mx, sizeof mx, st[k].max);
        fprintf(f, "0,N/A,");
        csv_quoted(f, st[k].type);
        fprintf(f, ",AI_CPU,%" PRIu64 ",%s,%s,%.3f,%s,%.3f\n", st[k].count, tot, mn,
                (double)st[k].total / (double)st[k].count / 1000.0, mx,
                all > 0 ? 100.0 * (double)st[k].total / (double)all : 0.0);
    }
    free(st);
    return fclose(f) == 0;
}

static void add_ts(cJSON *o, uint64_t ns)
{
    char ts[48];
    us3(ts, sizeof ts, ns);
    cJSON_AddStringToObject(o, "ts", ts);
}

oa_status oa_prof_ops_write(const char *out_dir, const char *stamp, cJSON *events, int pid_hw)
{
    pthread_mutex_lock(&g_ops_lock);
    if (!format_records_locked()) {
        pthread_mutex_unlock(&g_ops_lock);
        return OA_FAIL(OA_E_NOMEM, "cannot format %zu operator records", g_n_raw);
    }
    qsort(g_ops, g_n_ops, sizeof(*g_ops), cmp_start);
    for (size_t i = 0; events != NULL && i < g_n_ops; ++i) {
        const op_rec *r = &g_ops[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", r->name);
        cJSON_AddNumberToObject(o, "pid", pid_hw);
        cJSON_AddNumberToObject(o, "tid", r->tid);
        add_ts(o, r->start_ns);
        cJSON_AddNumberToObject(o, "dur", (double)(r->end_ns - r->start_ns) / 1000.0);
        cJSON_AddStringToObject(o, "ph", "X");
        cJSON_AddStringToObject(o, "cat", "Node");
        cJSON *a = cJSON_AddObjectToObject(o, "args");
        cJSON_AddStringToObject(a, "Op Name", r->name);
        cJSON_AddStringToObject(a, "OP Type", r->type);
        cJSON_AddNumberToObject(a, "Model Id", r->model_id);
        cJSON_AddNumberToObject(a, "Task Id", r->task_id);
        cJSON_AddNumberToObject(a, "Stream Id", r->stream_id);
        cJSON_AddStringToObject(a, "Task Type", "AI_CPU");
        cJSON_AddStringToObject(a, "OP State", r->dynamic ? "dynamic" : "static");
        cJSON_AddStringToObject(a, "Input Shapes", r->in_shapes);
        cJSON_AddStringToObject(a, "Input Data Types", r->in_dtypes);
        cJSON_AddStringToObject(a, "Input Formats", r->in_formats);
        cJSON_AddStringToObject(a, "Output Shapes", r->out_shapes);
        cJSON_AddStringToObject(a, "Output Data Types", r->out_dtypes);
        cJSON_AddStringToObject(a, "Output Formats", r->out_formats);
        cJSON_AddNumberToObject(a, "Thread Id", r->tid);
        cJSON_AddItemToArray(events, o);
    }
    oa_status st = OA_OK;
    char path[4200];
    snprintf(path, sizeof path, "%s/op_summary_%s.csv", out_dir, stamp);
    if (!write_op_summary(path)) {
        st = OA_FAIL(OA_E_WRITE_FILE, "cannot write profiling file [%s]", path);
    }
    snprintf(path, sizeof path, "%s/op_statistic_%s.csv", out_dir, stamp);
    if (st == OA_OK && !write_op_statistic(path)) {
        st = OA_FAIL(OA_E_WRITE_FILE, "cannot write profiling file [%s]", path);
    }
    pthread_mutex_unlock(&g_ops_lock);
    return st;
}

/* ---- aclprofModelSubscribe ---- */

struct aclprofSubscribeConfig {
    int8_t time_info;
    aclprofAicoreMetrics metrics;
    void *fd;
};

static bool valid_metrics(aclprofAicoreMetrics m)
{
    return ((int)m >= (int)ACL_AICORE_ARITHMETIC_UTILIZATION && (int)m <= (int)ACL_AICORE_MEMORY_ACCESS) ||
           m == ACL_AICORE_NONE;
}

MSVP_PROF_API aclprofSubscribeConfig *aclprofCreateSubscribeConfig(int8_t timeInfoSwitch,
                                                                   aclprofAicoreMetrics aicoreMetrics, void *fd)
{
    ACL_REQUIRE_RET(fd != NULL, NULL, "parameter [fd] must not be null");
    ACL_REQUIRE_RET(timeInfoSwitch == 0 || timeInfoSwitch == 1, NULL, "timeInfoSwitch [%d] must be 0 or 1",
                    (int)timeInfoSwitch);
    ACL_REQUIRE_RET(valid_metrics(aicoreMetrics), NULL, "aicoreMetrics [%d] is invalid", (int)aicoreMetrics);
    aclprofSubscribeConfig *c = calloc(1, sizeof(*c));
    ACL_REQUIRE_RET(c != NULL, NULL, "cannot allocate a subscribe config");
    c->time_info = timeInfoSwitch;
    c->metrics = aicoreMetrics;
    c->fd = fd;
    return c;
}

MSVP_PROF_API aclError aclprofDestroySubscribeConfig(const aclprofSubscribeConfig *profSubscribeConfig)
{
    ACL_REQUIRE_NOT_NULL(profSubscribeConfig);
    free((void *)(uintptr_t)profSubscribeConfig);
    return ACL_SUCCESS;
}

MSVP_PROF_API aclError aclprofModelSubscribe(uint32_t modelId, const aclprofSubscribeConfig *profSubscribeConfig)
{
    ACL_REQUIRE_NOT_NULL(profSubscribeConfig);
    ACL_REQUIRE(!oa_prof_session_configured(), OA_E_PROF_API_CONFLICT,
                "aclprofModelSubscribe cannot be used while profiling is initialised by aclprofInit or acl.json");
    if (aclmdlCreateDesc != NULL && aclmdlGetDesc != NULL && aclmdlDestroyDesc != NULL) {
        aclmdlDesc *desc = aclmdlCreateDesc();
        ACL_REQUIRE(desc != NULL, OA_E_NOMEM, "cannot create a model description");
        const aclError got = aclmdlGetDesc(desc, modelId);
        (void)aclmdlDestroyDesc(desc);
        ACL_REQUIRE(got == ACL_SUCCESS, OA_E_MODEL_ID, "model id [%u] is not a loaded model", modelId);
    }
    int fd = -1;
    memcpy(&fd, profSubscribeConfig->fd, sizeof fd);
    ACL_REQUIRE(fd >= 0 && fcntl(fd, F_GETFD) != -1, OA_E_PARAM, "subscriber fd [%d] is not an open file descriptor", fd);
    pthread_mutex_lock(&g_ops_lock);
    oa_status st = OA_OK;
    for (size_t i = 0; i < g_n_subs; ++i) {
        if (g_subs[i].model_id == modelId) {
            st = OA_FAIL(OA_E_PROF_REPEAT_SUBSCRIBE, "model [%u] is already subscribed", modelId);
        }
    }
    if (st == OA_OK && g_n_subs == MAX_SUBSCRIBED) {
        st = OA_FAIL(OA_E_PARAM, "at most %d models can be subscribed", MAX_SUBSCRIBED);
    }
    if (st == OA_OK) {
        g_subs[g_n_subs++] = (subscription){.model_id = modelId, .fd = fd};
        publish_locked();
    }
    pthread_mutex_unlock(&g_ops_lock);
    ACL_RETURN_STATUS(st);
}

MSVP_PROF_API aclError aclprofModelUnSubscribe(uint32_t modelId)
{
    pthread_mutex_lock(&g_ops_lock);
    bool found = false;
    for (size_t i = 0; i < g_n_subs; ++i) {
        if (g_subs[i].model_id == modelId) {
            g_subs[i] = g_subs[--g_n_subs];
            found = true;
            break;
        }
    }
    publish_locked();
    pthread_mutex_unlock(&g_ops_lock);
    ACL_REQUIRE(found, OA_E_MODEL_ID, "model [%u] is not subscribed", modelId);
    return ACL_SUCCESS;
}

/* ---- reading records ---- */

static bool records_valid(const void *info, size_t len)
{
    if (info == NULL || len == 0 || len % OA_PROF_OP_DESC_SIZE != 0) {
        return false;
    }
    const uint8_t *p = info;
    for (size_t off = 0; off < len; off += OA_PROF_OP_DESC_SIZE) {
        if (get32(p + off) != crc_signature(p + off)) {
            return false;
        }
    }
    return true;
}

/* Record index of info, NULL with a message when the buffer or index is bad. */
static const uint8_t *record(const void *info, size_t len, uint32_t index)
{
    if (info == NULL) {
        (void)OA_FAIL(OA_E_PARAM, "parameter [opInfo] must not be null");
        return NULL;
    }
    if (!records_valid(info, len)) {
        (void)OA_FAIL(OA_E_PARAM, "opInfo (length %zu) is not a buffer of operator records", len);
        return NULL;
    }
    if ((size_t)index >= len / OA_PROF_OP_DESC_SIZE) {
        (void)OA_FAIL(OA_E_PARAM, "index %u is out of range of opInfo length %zu", index, len);
        return NULL;
    }
    return (const uint8_t *)info + (size_t)index * OA_PROF_OP_DESC_SIZE;
}

/* The name entry of a record (lock held), NULL when it was read already. */
static name_entry *entry_locked(const uint8_t *rec)
{
    const uint64_t idx = get64(rec + 16);
    for (size_t i = 0; i < g_n_names; ++i) {
        if (g_names[i].index == idx) {
            return &g_names[i];
        }
    }
    return NULL;
}

MSVP_PROF_API aclError aclprofGetOpDescSize(size_t *opDescSize)
{
    ACL_REQUIRE_NOT_NULL(opDescSize);
    *opDescSize = OA_PROF_OP_DESC_SIZE;
    return ACL_SUCCESS;
}

MSVP_PROF_API aclError aclprofGetOpNum(const void *opInfo, size_t opInfoLen, uint32_t *opNumber)
{
    ACL_REQUIRE_NOT_NULL(opInfo);
    ACL_REQUIRE_NOT_NULL(opNumber);
    ACL_REQUIRE(records_valid(opInfo, opInfoLen), OA_E_PARAM,
                "opInfo (length %zu) is not a buffer of operator records", opInfoLen);
    *opNumber = (uint32_t)(opInfoLen / OA_PROF_OP_DESC_SIZE);
    return ACL_SUCCESS;
}

/* what: 0 type, 1 name */
static aclError name_len(const void *info, size_t len, uint32_t index, size_t *out, int what)
{
    ACL_REQUIRE_NOT_NULL(out);
    const uint8_t *rec = record(info, len, index);
    if (rec == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    pthread_mutex_lock(&g_ops_lock);
    const name_entry *e = entry_locked(rec);
    if (e != NULL) {
        *out = strlen(what == 0 ? e->type : e->name) + 1;
    }
    pthread_mutex_unlock(&g_ops_lock);
    ACL_REQUIRE(e != NULL, OA_E_PARAM, "the %s of record %u is unknown, maybe it has been got already",
                what == 0 ? "type" : "name", index);
    return ACL_SUCCESS;
}

/* Copies the string and forgets it once both type and name were read. */
static aclError name_copy(const void *info, size_t len, uint32_t index, char *dst, size_t cap, int what)
{
    ACL_REQUIRE_NOT_NULL(dst);
    ACL_REQUIRE(cap > 0, OA_E_PARAM, "the buffer length must not be 0");
    const uint8_t *rec = record(info, len, index);
    if (rec == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    pthread_mutex_lock(&g_ops_lock);
    name_entry *e = entry_locked(rec);
    char **s = e == NULL ? NULL : (what == 0 ? &e->type : &e->name);
    const bool ok = s != NULL && *s != NULL;
    if (ok) {
        const size_t n = strlen(*s);
        const size_t keep = n < cap - 1 ? n : cap - 1;
        memcpy(dst, *s, keep);
        dst[keep] = '\0';
        free(*s);
        *s = NULL;
        if (e->type == NULL && e->name == NULL) {
            *e = g_names[--g_n_names];
        }
    }
    pthread_mutex_unlock(&g_ops_lock);
    ACL_REQUIRE(ok, OA_E_PARAM, "the %s of record %u is unknown, maybe it has been got already",
                what == 0 ? "type" : "name", index);
    return ACL_SUCCESS;
}

MSVP_PROF_API aclError aclprofGetOpTypeLen(const void *opInfo, size_t opInfoLen, uint32_t index, size_t *opTypeLen)
{
    return name_len(opInfo, opInfoLen, index, opTypeLen, 0);
}

MSVP_PROF_API aclError aclprofGetOpType(const void *opInfo, size_t opInfoLen, uint32_t index, char *opType,
                                        size_t opTypeLen)
{
    return name_copy(opInfo, opInfoLen, index, opType, opTypeLen, 0);
}

MSVP_PROF_API aclError aclprofGetOpNameLen(const void *opInfo, size_t opInfoLen, uint32_t index, size_t *opNameLen)
{
    return name_len(opInfo, opInfoLen, index, opNameLen, 1);
}

MSVP_PROF_API aclError aclprofGetOpName(const void *opInfo, size_t opInfoLen, uint32_t index, char *opName,
                                        size_t opNameLen)
{
    return name_copy(opInfo, opInfoLen, index, opName, opNameLen, 1);
}

MSVP_PROF_API uint64_t aclprofGetOpStart(const void *opInfo, size_t opInfoLen, uint32_t index)
{
    const uint8_t *r = record(opInfo, opInfoLen, index);
    return r != NULL ? get64(r + 32) : 0;
}

MSVP_PROF_API uint64_t aclprofGetOpEnd(const void *opInfo, size_t opInfoLen, uint32_t index)
{
    const uint8_t *r = record(opInfo, opInfoLen, index);
    return r != NULL ? get64(r + 40) : 0;
}

MSVP_PROF_API uint64_t aclprofGetOpDuration(const void *opInfo, size_t opInfoLen, uint32_t index)
{
    const uint8_t *r = record(opInfo, opInfoLen, index);
    return r != NULL ? get64(r + 24) : 0;
}

MSVP_PROF_API size_t aclprofGetModelId(const void *opInfo, size_t opInfoLen, uint32_t index)
{
    const uint8_t *r = record(opInfo, opInfoLen, index);
    if (r == NULL) {
        return (size_t)ACL_ERROR_INVALID_PARAM; /* CANN returns the error code as the id */
    }
    return get32(r + 4);
}

MSVP_PROF_API aclprofSubscribeOpFlag aclprofGetOpFlag(const void *opInfo, size_t opInfoLen, uint32_t index)
{
    if (opInfo == NULL) {
        (void)OA_FAIL(OA_E_PARAM, "parameter [opInfo] must not be null");
        return ACL_SUBSCRIBE_NONE;
    }
    const uint8_t *r = record(opInfo, opInfoLen, index);
    return r != NULL ? (aclprofSubscribeOpFlag)get32(r + 8) : ACL_SUBSCRIBE_OP; /* CANN answers 0 for bad ones */
}

MSVP_PROF_API const char *aclprofGetOpAttriValue(const void *opInfo, size_t opInfoLen, uint32_t index,
                                                 aclprofSubscribeOpAttri attri)
{
    static _Thread_local char t_value[32];
    const uint8_t *r = record(opInfo, opInfoLen, index);
    if (r == NULL) {
        return NULL;
    }
    if (attri != ACL_SUBSCRIBE_ATTRI_THREADID) {
        (void)OA_FAIL(OA_E_PARAM, "operator attribute [%d] is invalid", (int)attri);
        return NULL;
    }
    if (get32(r + 8) != (uint32_t)ACL_SUBSCRIBE_OP_THREAD) {
        (void)OA_FAIL(OA_E_PARAM, "operator flag %u does not carry a thread id", get32(r + 8));
        return NULL;
    }
    snprintf(t_value, sizeof(t_value), "%u", get32(r + 12));
    return t_value;
}

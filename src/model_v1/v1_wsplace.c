/*
 * Kernel workspaces inside the feature map (docs/memory.md "Workspaces in
 * the feature map"): a kernel's scratch is needed only while that kernel
 * runs, and the static plan leaves bytes of the feature map unused at every
 * point of a run (tensors already dead, tensors not yet produced). A large
 * workspace is placed in such bytes when they exist; the context's shared
 * workspace then only needs to hold the workspaces that found no place.
 *
 * Liveness is computed on the program itself, in its own task order: the
 * feature map is cut into elementary segments at every reference's bounds;
 * a segment's value is live from the task that writes it (or from before the
 * run: inputs copied into the feature map, bytes read before any write) to
 * the last task that reads it before the next write (or after the run:
 * outputs copied out). A workspace of task t may use a run of segments none
 * of which is live at t; t's own inputs and outputs are live at t.
 */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "model_v1/v1_internal.h"


typedef struct span_ev {
    uint64_t lo, hi; /* bytes [lo, hi) of the feature map */
    int64_t t;       /* task index; -1 before the run, n_tasks after it */
    bool write;
} span_ev;

typedef struct ev_list {
    span_ev *e;
    size_t n, cap;
} ev_list;

static bool ev_push(ev_list *l, uint64_t lo, uint64_t hi, int64_t t, bool write)
{
    if (hi <= lo) {
        return true;
    }
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 256;
        span_ev *e = realloc(l->e, cap * sizeof(*e));
        if (e == NULL) {
            return false;
        }
        l->e = e;
        l->cap = cap;
    }
    l->e[l->n++] = (span_ev){lo, hi, t, write};
    return true;
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Busy intervals [a, b] (task indexes) of one segment. */
typedef struct seg {
    uint64_t lo, hi;
    int64_t *iv; /* pairs */
    size_t n_iv, cap_iv;
} seg;

static bool seg_add(seg *s, int64_t a, int64_t b)
{
    if (s->n_iv == s->cap_iv) {
        size_t cap = s->cap_iv ? s->cap_iv * 2 : 4;
        int64_t *iv = realloc(s->iv, cap * 2 * sizeof(*iv));
        if (iv == NULL) {
            return false;
        }
        s->iv = iv;
        s->cap_iv = cap;
    }
    s->iv[2 * s->n_iv] = a;
    s->iv[2 * s->n_iv + 1] = b;
    s->n_iv++;
    return true;
}

static bool seg_busy(const seg *s, int64_t t)
{
    for (size_t i = 0; i < s->n_iv; i++) {
        if (s->iv[2 * i] <= t && t <= s->iv[2 * i + 1]) {
            return true;
        }
    }
    return false;
}

/* The feature-map accesses of the program, or false when a record is of a kind whose accesses are not known. */
static bool collect(const oa_v1_program *p, ev_list *l)
{
    const oa_prog *g = &p->prog;
    const uint64_t fm = p->zero_copy_off;
    for (size_t i = 0; i < g->n_tasks; i++) {
        const v1_task *t = &g->tasks[i];
        const bool launch = t->fn == oa_prog_task_kernel || t->fn == oa_v1_task_kernel_ws;
        if (!launch && t->fn != oa_prog_task_copy) {
            return false;
        }
        const v1_task_meta *meta = t->meta;
        if (launch && (meta == NULL || meta->ins == NULL || t->outs == NULL)) {
            return false;
        }
        for (uint32_t k = 0; k < (uint32_t)t->n_in + t->n_out; k++) {
            const v1_ref *r = &g->refs[t->arg + k];
            if (r->kind != V1_REF_WORK) {
                continue;
            }
            const bool out = k >= t->n_in;
            size_t bytes = !launch ? (size_t)t->aux
                                   : oa_ktensor_bytes(out ? &t->outs[k - t->n_in] : &meta->ins[k]);
            const uint64_t hi = r->off + bytes < fm ? r->off + bytes : fm;
            if (!ev_push(l, r->off, hi, (int64_t)i, out)) {
                return false;
            }
        }
    }
    /* IO slots inside the feature map: inputs copied in before the run, outputs copied out after it */
    for (size_t i = 0; i < p->n_inputs + p->n_outputs; i++) {
        const bool in = i < p->n_inputs;
        const v1_io_slot *sl = in ? &p->in_slot[i] : &p->out_slot[i - p->n_inputs];
        if (sl->zero_copy || sl->off >= fm) {
            continue;
        }
        const uint64_t hi = sl->off + sl->size < fm ? sl->off + sl->size : fm;
        if (!ev_push(l, sl->off, hi, in ? -1 : (int64_t)g->n_tasks, in)) {
            return false;
        }
    }
    return true;
}

/* Cuts [0, fm) at every event bound and fills each segment's busy intervals. */
static bool segments(const ev_list *l, uint64_t fm, int64_t n_tasks, seg **out, size_t *n_out)
{
    uint64_t *b = malloc((2 * l->n + 2) * sizeof(*b));
    if (b == NULL) {
        return false;
    }
    size_t nb = 0;
    b[nb++] = 0;
    b[nb++] = fm;
    for (size_t i = 0; i < l->n; i++) {
        b[nb++] = l->e[i].lo;
        b[nb++] = l->e[i].hi;
    }
    qsort(b, nb, sizeof(*b), cmp_u64);
    size_t u = 0;
    for (size_t i = 0; i < nb; i++) {
        if (u == 0 || b[i] != b[u - 1]) {
            b[u++] = b[i];
        }
    }
    const size_t ns = u > 1 ? u - 1 : 0; /* u >= 2: 0 and fm > 0 are bounds */
    seg *s = calloc(ns + 1, sizeof(*s));
    int64_t *last_w = calloc(ns + 1, sizeof(*last_w));
    int64_t *last_r = calloc(ns + 1, sizeof(*last_r));
    bool ok = s != NULL && last_w != NULL && last_r != NULL;
    for (size_t i = 0; ok && i < ns; i++) {
        s[i].lo = b[i];
        s[i].hi = b[i + 1];
        last_w[i] = -2; /* never written in this run */
        last_r[i] = -2;
    }
    /* events in time order; at one task, reads before writes (a task reads its inputs before it writes) */
    span_ev *e = l->e;
    size_t *ord = calloc(l->n + 1, sizeof(*ord));
    ok = ok && ord != NULL;
    for (size_t i = 0; ok && i < l->n; i++) {
        ord[i] = i;
    }
    for (size_t i = 1; ok && i < l->n; i++) { /* insertion sort: events are pushed almost in order */
        size_t k = ord[i], j = i;
        while (j > 0 && (e[ord[j - 1]].t > e[k].t || (e[ord[j - 1]].t == e[k].t && e[ord[j - 1]].write && !e[k].write))) {
            ord[j] = ord[j - 1];
            j--;
        }
        ord[j] = k;
    }
    for (size_t q = 0; ok && q < l->n; q++) {
        const span_ev *v = &e[ord[q]];
        /* the segments of [lo, hi): binary search for the first */
        size_t a = 0, z = ns;
        while (a < z) {
            size_t m = (a + z) / 2;
            if (s[m].hi <= v->lo) {
                a = m + 1;
            } else {
                z = m;
            }
        }
        for (size_t i = a; ok && i < ns && s[i].lo < v->hi; i++) {
            if (v->write) {
                /* the previous value's life ended at its last read (or at its write when never read) */
                if (last_w[i] != -2) {
                    ok = seg_add(&s[i], last_w[i], last_r[i] > last_w[i] ? last_r[i] : last_w[i]);
                }
                last_w[i] = v->t;
                last_r[i] = v->t;
            } else {
                if (last_w[i] == -2) {
                    last_w[i] = -1; /* read before any write: the value comes from before the run */
                }
                last_r[i] = v->t;
            }
        }
    }
    for (size_t i = 0; ok && i < ns; i++) {
        if (last_w[i] != -2) {
            ok = seg_add(&s[i], last_w[i], last_r[i] > last_w[i] ? last_r[i] : last_w[i]);
        }
    }
    (void)n_tasks;
    free(ord);
    free(last_w);
    free(last_r);
    free(b);
    if (!ok) {
        for (size_t i = 0; s != NULL && i < ns; i++) {
            free(s[i].iv);
        }
        free(s);
        return false;
    }
    *out = s;
    *n_out = ns;
    return true;
}

/* The lowest 64-byte aligned offset of ws free bytes at task t, or UINT64_MAX. */
static uint64_t find_gap(const seg *s, size_t ns, int64_t t, size_t ws)
{
    uint64_t start = UINT64_MAX;
    for (size_t i = 0; i < ns; i++) {
        if (seg_busy(&s[i], t)) {
            start = UINT64_MAX;
            continue;
        }
        if (start == UINT64_MAX) {
            start = (s[i].lo + 63) & ~(uint64_t)63;
        }
        if (s[i].hi >= start && s[i].hi - start >= ws) {
            return start;
        }
    }
    return UINT64_MAX;
}

/* Marks bytes [lo, lo + n) busy at task t only (the placed workspace). */
static bool mark(seg *s, size_t ns, uint64_t lo, size_t n, int64_t t)
{
    for (size_t i = 0; i < ns; i++) {
        if (s[i].lo < lo + n && lo < s[i].hi && !seg_add(&s[i], t, t)) {
            return false;
        }
    }
    return true;
}

void oa_v1_place_workspaces(oa_v1_program *p)
{
    oa_prog *g = &p->prog;
    size_t n_ws = 0;
    for (size_t i = 0; i < g->n_tasks; i++) {
        n_ws += g->tasks[i].fn == oa_v1_task_kernel_ws;
    }
    if (n_ws == 0 || g->n_cases > 0 || g->n_main != g->n_tasks || p->zero_copy_off == 0 ||
        oa_env_long("OPENACL_V1_WS_IN_FM", 1) == 0) {
        return;
    }
    ev_list l = {0};
    seg *s = NULL;
    size_t ns = 0;
    if (!collect(p, &l) || !segments(&l, p->zero_copy_off, (int64_t)g->n_tasks, &s, &ns)) {
        free(l.e);
        return; /* everything stays in the shared workspace */
    }
    free(l.e);
    bool *tried = calloc(g->n_tasks, sizeof(*tried));
    if (tried == NULL) {
        for (size_t i = 0; i < ns; i++) {
            free(s[i].iv);
        }
        free(s);
        return;
    }
    /* largest first: they decide the shared workspace's size */
    size_t placed = 0;
    for (;;) {
        size_t best = SIZE_MAX, best_ws = 0;
        for (size_t i = 0; i < g->n_tasks; i++) {
            const v1_task *t = &g->tasks[i];
            const v1_ref *r = &g->refs[t->arg + t->n_in + t->n_out];
            const size_t ws = t->fn == oa_v1_task_kernel_ws && r->kind == V1_REF_NULL && !tried[i]
                                  ? oa_kop_workspace_size(t->op)
                                  : 0;
            if (ws >= OA_V1_WS_PLACE_MIN && ws > best_ws) {
                best = i;
                best_ws = ws;
            }
        }
        if (best == SIZE_MAX) {
            break;
        }
        v1_task *t = &g->tasks[best];
        v1_ref *r = &g->refs[t->arg + t->n_in + t->n_out];
        tried[best] = true;
        const uint64_t off = find_gap(s, ns, (int64_t)best, best_ws);
        if (off == UINT64_MAX || !mark(s, ns, off, best_ws, (int64_t)best)) {
            continue; /* stays in the shared workspace */
        }
        r->kind = V1_REF_WORK;
        r->off = off;
        placed++;
    }
    free(tried);
    /* the shared workspace: the largest that found no place */
    size_t shared = 0;
    for (size_t i = 0; i < g->n_tasks; i++) {
        const v1_task *t = &g->tasks[i];
        if (t->fn != oa_prog_task_kernel && t->fn != oa_v1_task_kernel_ws) {
            continue;
        }
        const bool in_fm = t->fn == oa_v1_task_kernel_ws && g->refs[t->arg + t->n_in + t->n_out].kind == V1_REF_WORK;
        const size_t ws = oa_kop_workspace_size(t->op);
        if (!in_fm && ws > shared) {
            shared = ws;
        }
    }
    for (size_t i = 0; i < ns; i++) {
        free(s[i].iv);
    }
    free(s);
    if (placed > 0) {
        OA_LOGI("[Load][Program] %zu kernel workspaces placed in free bytes of the feature map; shared workspace "
                "%zu -> %zu bytes",
                placed, p->ws_size, shared);
    }
    p->ws_size = shared;
}

oa_status oa_v1_task_kernel_ws(const oa_prog_task *t, oa_prog_exec *x)
{
    void **ptrs = x->ptrs + t->arg;
    void *ws = ptrs[t->n_in + t->n_out];
    /* placed (a 64-byte aligned offset of a 64-byte aligned feature map), else the shared one */
    if (ws == NULL || ((uintptr_t)ws & 63) != 0) {
        ws = x->ws;
    }
    return oa_kop_run(t->op, (const void *const *)ptrs, ptrs + t->n_in, ws, x->pool);
}

/*
 * Running the static executor's program (v1_program.h): execution contexts,
 * IO binding, the task loop and the task functions, and the debugging loop
 * (OPENACL_V1_PROFILE) with dump and profiling records (run_observed).
 */
#define OA_LOG_MODULE "GE"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/log.h"
#include "base/pages.h"
#include "base/sanitizer.h"
#include "base/util.h"
#include "dump/dump_write.h"
#include "model_v1/v1_internal.h"
#include "prof/prof_internal.h"

/* ---- dump and profiling of a kernel task (docs/dump.md, docs/profiling.md) ---- */

#define OBS_MAX_TENSORS 64

static int32_t plain_format(const oa_ktensor *d)
{
    return d->rank == 4 ? 0 /* NCHW */ : 2 /* ND */;
}

static void dump_desc(const oa_ktensor *d, const void *data, oa_dump_tensor *t)
{
    memset(t, 0, sizeof(*t));
    t->dtype = (int32_t)d->dtype;
    t->format = plain_format(d);
    t->rank = d->rank;
    t->dims = d->dims;
    t->data = data;
    t->size = data != NULL ? oa_ktensor_bytes(d) : 0;
    t->nchwc_block = d->layout == OA_KLAYOUT_NCHWC ? (int32_t)oa_kernels_block() : 0;
}

static void prof_desc(const oa_ktensor *d, oa_prof_tensor *t)
{
    t->dtype = (int32_t)d->dtype;
    t->format = plain_format(d);
    t->rank = d->rank;
    t->dims = d->dims;
}

/* Runs task i with dump and/or profiling (v1_observe). */
static oa_status run_observed(v1_exec *x, size_t i)
{
    const v1_task *t = &x->p->prog.tasks[i];
    const v1_task_meta *m = t->meta;
    v1_observe *o = x->obs;
    oa_dump_run *dr = o->dump;
    const bool dump = dr != NULL && m != NULL && oa_dump_run_selects(dr, m->type, t->name, m->orig, m->n_orig);
    const size_t n_in = t->n_in < OBS_MAX_TENSORS ? t->n_in : OBS_MAX_TENSORS;
    const size_t n_out = t->n_out < OBS_MAX_TENSORS ? t->n_out : OBS_MAX_TENSORS;
    void *saved[OBS_MAX_TENSORS] = {0};
    oa_dump_tensor din[OBS_MAX_TENSORS], dout[OBS_MAX_TENSORS];
    size_t n_din = 0;
    if (dump && dr->inputs) {
        /* inputs are copied before the task: its output may reuse their memory; absent optional ones are left out */
        for (size_t k = 0; k < n_in; k++) {
            const void *src = x->e.ptrs[t->arg + k];
            if (src == NULL || m->ins[k].dtype == OA_KDT_UNDEFINED) {
                continue;
            }
            const size_t bytes = oa_ktensor_bytes(&m->ins[k]);
            if (bytes > 0 && (saved[n_din] = malloc(bytes)) != NULL) {
                memcpy(saved[n_din], src, bytes);
            }
            dump_desc(&m->ins[k], saved[n_din], &din[n_din]);
            n_din++;
        }
    }
    /* one clock read per task: a task starts when the previous one ended (dumping restarts the clock) */
    const uint64_t t0 = dump && dr->inputs ? oa_now_ns() : o->last_ns;
    const oa_status st = t->fn(t, &x->e);
    const uint64_t t1 = o->prof ? oa_now_ns() : 0;
    o->last_ns = t1;
    if (st == OA_OK && o->prof && m != NULL) {
        oa_prof_tensor pin[OBS_MAX_TENSORS], pout[OBS_MAX_TENSORS];
        size_t n_pin = 0;
        for (size_t k = 0; k < n_in; k++) {
            if (m->ins[k].dtype != OA_KDT_UNDEFINED) {
                prof_desc(&m->ins[k], &pin[n_pin++]);
            }
        }
        for (size_t k = 0; k < n_out; k++) {
            prof_desc(&t->outs[k], &pout[k]);
        }
        const oa_prof_op op = {.name = t->name, .type = m->type, .model_id = o->model_id, .task_id = (uint32_t)i,
                               .in = pin, .n_in = n_pin, .out = pout, .n_out = n_out, .start_ns = t0, .end_ns = t1};
        oa_prof_record_op(&op);
    }
    if (st == OA_OK && dump) {
        for (size_t k = 0; k < n_out; k++) {
            dump_desc(&t->outs[k], x->e.ptrs[t->arg + t->n_in + k], &dout[k]);
            if (k == 0 && m->orig_out != NULL) {
                dout[k].orig_name = m->orig_out;
            }
        }
        const oa_dump_op op = {.type = m->type, .name = t->name, .task_id = (uint32_t)i, .in = din,
                               .n_in = n_din, .out = dout, .n_out = dr->outputs ? n_out : 0,
                               .orig_names = m->orig, .n_orig = m->n_orig};
        (void)oa_dump_run_write(dr, &op); /* logged; the execution goes on */
        o->last_ns = o->prof ? oa_now_ns() : 0;
    }
    for (size_t k = 0; k < n_din; k++) {
        free(saved[k]);
    }
    return st;
}

/*
 * The engine's observer (oa_prog_exec.observe) for the observing loop:
 * dump / profiling records / OPENACL_V1_PROFILE, chosen once per execution.
 */
static oa_status observe_task(oa_prog_exec *e, size_t i)
{
    v1_exec *x = e->owner;
    const uint64_t t0 = x->p->prof_ns != NULL ? oa_now_ns() : 0;
    const oa_status st = x->obs != NULL ? run_observed(x, i) : e->p->tasks[i].fn(&e->p->tasks[i], e);
    if (x->p->prof_ns != NULL) {
        const uint64_t ns = oa_now_ns() - t0;
        __atomic_fetch_add(&x->p->prof_ns[i], ns, __ATOMIC_RELAXED);
        __atomic_store_n(&x->prof_row[i], ns < UINT32_MAX ? (uint32_t)ns : UINT32_MAX, __ATOMIC_RELAXED);
    }
    return st;
}

/* Median of task i's times over the kept runs (scratch: V1_PROF_WINDOW entries; the rows stay as they are). */
static uint64_t prof_median(const oa_v1_program *p, size_t i, uint64_t runs, uint32_t *scratch)
{
    const size_t n = runs < V1_PROF_WINDOW ? (size_t)runs : V1_PROF_WINDOW;
    for (size_t r = 0; r < n; r++) {
        scratch[r] = __atomic_load_n(&p->prof_win[r * p->prog.n_tasks + i], __ATOMIC_RELAXED);
    }
    return oa_median_u32(scratch, n);
}

static int prof_cmp(const void *a, const void *b)
{
    const uint64_t *const *x = a, *const *y = b;
    return **x < **y ? 1 : **x > **y ? -1 : 0;
}

/* OPENACL_V1_PROFILE: the tasks by their median time over the last V1_PROF_WINDOW runs (their mean over every run
 * beside it), and the time per kernel family (sums of the medians). */
void oa_v1_prof_print(const oa_v1_program *p)
{
    const uint64_t runs = p->prof_ns[p->prog.n_tasks] ? p->prof_ns[p->prog.n_tasks] : 1;
    uint64_t total = 0, total_mean = 0;
    uint64_t fam[OA_KOP_COUNT + 1] = {0};
    const size_t n_tasks = p->prog.n_tasks;
    uint64_t *med = calloc(n_tasks ? n_tasks : 1, sizeof(*med));
    const uint64_t **order = calloc(n_tasks ? n_tasks : 1, sizeof(*order));
    uint32_t *scratch = calloc(V1_PROF_WINDOW, sizeof(*scratch));
    if (med == NULL || order == NULL || scratch == NULL) {
        free(med);
        free(order);
        free(scratch);
        return;
    }
    for (size_t i = 0; i < n_tasks; i++) {
        med[i] = prof_median(p, i, runs, scratch);
        total += med[i];
        total_mean += p->prof_ns[i];
        const int f = p->prog.tasks[i].op != NULL ? (int)oa_kop_get_type(p->prog.tasks[i].op) : OA_KOP_COUNT;
        fam[f] += med[i];
        order[i] = &med[i];
    }
    qsort(order, n_tasks, sizeof(*order), prof_cmp);
    fprintf(stderr,
            "[openacl profile] %llu runs, %.3f ms per run in %zu tasks (sum of the medians over the last %llu runs; "
            "of the means: %.3f ms)\n",
            (unsigned long long)runs, (double)total / 1e6, n_tasks,
            (unsigned long long)(runs < V1_PROF_WINDOW ? runs : V1_PROF_WINDOW), (double)total_mean / runs / 1e6);
    for (int f = 0; f <= OA_KOP_COUNT; f++) {
        if (fam[f] > 0) {
            fprintf(stderr, "  %-16s %8.3f ms %5.1f%%\n", f < OA_KOP_COUNT ? oa_kop_type_name((oa_kop_type)f) : "(copy/case)",
                    (double)fam[f] / 1e6, 100.0 * (double)fam[f] / (double)(total ? total : 1));
        }
    }
    const long v = oa_env_long("OPENACL_V1_PROFILE", 1); /* 1: the 25 slowest tasks, N > 1: the N slowest */
    const size_t rows = v > 1 ? (size_t)v : 25;
    for (size_t k = 0; k < n_tasks && k < rows; k++) {
        const size_t i = (size_t)(order[k] - med);
        const v1_task *t = &p->prog.tasks[i];
        char dims[96] = "";
        if (t->outs != NULL && t->n_out > 0) {
            size_t n = 0;
            for (int d = 0; d < t->outs[0].rank && n + 16 < sizeof dims; d++) {
                n += (size_t)snprintf(dims + n, sizeof dims - n, "%s%lld", d ? "x" : "", (long long)t->outs[0].dims[d]);
            }
        }
        fprintf(stderr, "  %8.3f ms  %-10s %-7s %-14s %s  (mean %.3f)\n", (double)med[i] / 1e6,
                t->op != NULL ? oa_kop_type_name(oa_kop_get_type(t->op)) : "copy",
                t->op != NULL ? oa_kop_impl_name(t->op) : "", dims, t->name, (double)p->prof_ns[i] / runs / 1e6);
    }
    free(med);
    free(order);
    free(scratch);
}


/* ---- contexts and runs ---- */

/*
 * The context's own feature map and workspace: anonymous mappings, zero
 * pages until written, so the bytes no run touches never become resident
 * (the I/O slots of the zero-copy region while the application passes its
 * own buffers, workspace slots of threads that do not run; docs/memory.md
 * "Work memory"). The contents are what a memset to 0 gave before.
 */
#if defined(OA_ASAN)
/* under ASan the heap, whose redzones catch a kernel writing past the feature map or the workspace */
static void *ctx_map(size_t n)
{
    void *p = aligned_alloc(64, (n + 63) & ~(size_t)63);
    if (p != NULL) {
        memset(p, 0, n);
    }
    return p;
}

static void ctx_unmap(void *p, size_t n)
{
    (void)n;
    free(p);
}
#else
static void *ctx_map(size_t n)
{
    return oa_pages_anon(n > 0 ? n : 1);
}

static void ctx_unmap(void *p, size_t n)
{
    oa_pages_anon_free(p, n > 0 ? n : 1);
}
#endif

/*
 * The feature map's pages are made resident when the context is created (docs/memory.md "Work
 * memory"), as a device allocation would be: the first run does not pay their page faults (det's
 * first run 34-36 -> 25-27 ms for 5-9 ms more load). OPENACL_PREFAULT=0 leaves them to the runs.
 */
static void populate(void *p, size_t n)
{
#if !defined(OA_ASAN)
    if (oa_env_long("OPENACL_PREFAULT", 1) != 0) {
        oa_pages_populate_write(p, n); /* ctx_map's pages are zero */
    }
#else
    (void)p, (void)n; /* the heap copy is zeroed by ctx_map */
#endif
}

void oa_v1_ctx_destroy(v1_ctx *c)
{
    if (c == NULL) {
        return;
    }
    if (c->own_work) {
        ctx_unmap(c->work, (size_t)c->work_cap);
    }
    ctx_unmap(c->ws, c->ws_cap);
    free(c->stage);
    free(c->ptrs);
    free(c);
}

oa_status oa_v1_ctx_create(const oa_v1_program *p, void *work, uint64_t work_cap, v1_ctx **out)
{
    *out = NULL;
    if (work == NULL && work_cap == 0) {
        work_cap = p->memory_size;
    }
    if (work_cap < p->zero_copy_off) {
        return OA_FAIL(OA_E_GE_PARAM, "work memory of %llu bytes is smaller than the feature map (%llu bytes)",
                       (unsigned long long)work_cap, (unsigned long long)p->zero_copy_off);
    }
    v1_ctx *c = calloc(1, sizeof(*c));
    if (c == NULL) {
        return OA_FAIL(OA_E_NOMEM, "execution context");
    }
    /* refs + the IO bases (n_inputs + n_outputs) at the end */
    c->ptrs = calloc(p->prog.n_refs + p->n_inputs + p->n_outputs + 1, sizeof(void *));
    if (c->ptrs == NULL) {
        oa_v1_ctx_destroy(c);
        return OA_FAIL(OA_E_NOMEM, "execution context");
    }
    if (work == NULL) {
        if (work_cap > SIZE_MAX - 64 || (c->work = ctx_map((size_t)work_cap)) == NULL) {
            oa_v1_ctx_destroy(c);
            return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "feature map of %llu bytes", (unsigned long long)work_cap);
        }
        c->own_work = true;
        populate(c->work, (size_t)(p->zero_copy_off < work_cap ? p->zero_copy_off : work_cap));
    } else {
        c->work = work;
    }
    c->work_cap = work_cap;
    /* workspaces placed in the feature map need its base 64-byte aligned; else they use the shared one */
    c->ws_cap = ((uintptr_t)c->work & 63) == 0 ? p->ws_size : p->ws_full;
    if (c->ws_cap > 0 && (c->ws = ctx_map(c->ws_cap)) == NULL) {
        oa_v1_ctx_destroy(c);
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "workspace of %zu bytes", c->ws_cap);
    }
    oa_prog_bind(&p->prog, c->ptrs, c->work);
    *out = c;
    return OA_OK;
}

/* Staging for an undersized zero-copy buffer: the zero-copy region itself when it is backed. */
static uint8_t *stage_of(const oa_v1_program *p, v1_ctx *c, const v1_io_slot *s)
{
    if (c->work_cap >= p->memory_size) {
        return c->work + s->off;
    }
    if (c->stage == NULL) {
        c->stage = aligned_alloc(64, (size_t)((p->memory_size - p->zero_copy_off + 63) & ~(uint64_t)63));
        if (c->stage == NULL) {
            return NULL;
        }
    }
    return c->stage + (s->off - p->zero_copy_off);
}

/* The first runs let every operator learn its own choice first (kernels.h OA_KTHREADS_OP_RUNS). */
#define V1_THREADS_WARM OA_KTHREADS_OP_RUNS

oa_status oa_v1_run(const oa_v1_program *p, v1_ctx *c, const v1_io *io, void *pool)
{
    const v1_variant *v = &p->variants[io->variant];
    void **in_base = c->ptrs + p->prog.n_refs;
    void **out_base = in_base + p->n_inputs;
    for (size_t i = 0; i < p->n_inputs; i++) {
        const v1_io_slot *s = &p->in_slot[i];
        const size_t need = v->in_bytes[i];
        const size_t len = io->in[i].len < need ? (size_t)io->in[i].len : need;
        uint8_t *dst;
        if (s->zero_copy && io->in[i].len >= need) {
            in_base[i] = io->in[i].data;
            continue;
        }
        dst = s->zero_copy ? stage_of(p, c, s) : c->work + s->off;
        if (dst == NULL) {
            return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "staging for input %zu", i);
        }
        if (len > 0) {
            memcpy(dst, io->in[i].data, len);
        }
        if (len < need) {
            memset(dst + len, 0, need - len);
        }
        in_base[i] = dst;
    }
    for (size_t j = 0; j < p->n_outputs; j++) {
        const v1_io_slot *s = &p->out_slot[j];
        if (s->zero_copy && io->out[j].len >= v->out_bytes[j]) {
            out_base[j] = io->out[j].data;
        } else {
            out_base[j] = s->zero_copy ? stage_of(p, c, s) : c->work + s->off;
            if (out_base[j] == NULL) {
                return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "staging for output %zu", j);
            }
        }
    }
    oa_prog_patch(&p->prog, c->ptrs, in_base, out_base);
    /* whole runs on the calling thread when that is faster (docs/runtime.md "Threads per operator"): the
     * operators choose one by one, but a pooled operator also leaves its output in the other core's cache */
    int timed = -1;
    pool = p->thr != NULL ? oa_kthreads_pick(p->thr, pool, V1_THREADS_WARM, &timed) : pool;
    const uint64_t t0 = timed >= 0 ? oa_now_ns() : 0;
    v1_exec x = {.e = {.p = &p->prog, .ptrs = c->ptrs, .ws = c->ws, .pool = pool, .branch = (int32_t)io->variant},
                 .p = p, .c = c, .obs = io->obs};
    if (io->obs != NULL || p->prof_ns != NULL) {
        x.e.observe = observe_task;
        x.e.owner = &x;
        if (p->prof_ns != NULL) { /* this run's row, cleared: a task it does not run (a Case branch) counts 0 */
            const uint64_t run = __atomic_load_n(&p->prof_ns[p->prog.n_tasks], __ATOMIC_RELAXED);
            x.prof_row = p->prof_win + run % V1_PROF_WINDOW * p->prog.n_tasks;
            for (size_t i = 0; i < p->prog.n_tasks; i++) { /* atomic: runs on other contexts share the rows */
                __atomic_store_n(&x.prof_row[i], 0, __ATOMIC_RELAXED);
            }
        }
        if (io->obs != NULL && io->obs->prof) {
            io->obs->last_ns = oa_now_ns();
        }
    }
    oa_status st = oa_prog_run(&x.e, 0, p->prog.n_main);
    if (timed >= 0 && st == OA_OK &&
        oa_kthreads_learn(p->thr, V1_THREADS_WARM, timed, oa_now_ns() - t0, 0) != OA_KTHREADS_LEARNING) {
        const int caller = atomic_load(&p->thr->choice) == OA_KTHREADS_CALLER;
        OA_LOGI("[Run][Threads] the model runs %s (fastest run %.1f us on the calling thread, %.1f us with the pool)",
                caller ? "on the calling thread alone" : "with the thread pool",
                (double)atomic_load(&p->thr->best[1]) / 1e3, (double)atomic_load(&p->thr->best[0]) / 1e3);
    }
    if (p->prof_ns != NULL) {
        __atomic_fetch_add(&p->prof_ns[p->prog.n_tasks], 1, __ATOMIC_RELAXED); /* the run counter */
    }
    if (st != OA_OK) {
        return st;
    }
    for (size_t j = 0; j < p->n_outputs; j++) {
        if (out_base[j] != io->out[j].data) {
            const size_t n = io->out[j].len < v->out_bytes[j] ? (size_t)io->out[j].len : v->out_bytes[j];
            if (n > 0) {
                memcpy(io->out[j].data, out_base[j], n);
            }
        }
    }
    return OA_OK;
}

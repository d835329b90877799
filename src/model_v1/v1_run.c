/*
 * Running the static executor's program (v1_program.h): execution contexts,
 * IO binding, the task loop and the task functions, and the debugging loop
 * (OPENACL_V1_PROFILE, OPENACL_V1_DUMP_DIR).
 */
#define OA_LOG_MODULE "GE"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "model_v1/v1_internal.h"

/* ---- task functions ---- */

oa_status oa_v1_task_kernel(const v1_task *t, v1_exec *x)
{
    void **ptrs = x->c->ptrs + t->arg;
    return oa_kop_run(t->op, (const void *const *)ptrs, ptrs + t->n_in, x->c->ws, x->pool);
}

oa_status oa_v1_task_copy(const v1_task *t, v1_exec *x)
{
    void **ptrs = x->c->ptrs + t->arg;
    if (ptrs[0] != ptrs[1] && t->aux > 0) {
        memmove(ptrs[1], ptrs[0], (size_t)t->aux);
    }
    return OA_OK;
}

oa_status oa_v1_task_gear_index(const v1_task *t, v1_exec *x)
{
    int32_t *dst = x->c->ptrs[t->arg];
    *dst = x->branch;
    return OA_OK;
}

/* The debug dump (OPENACL_V1_DUMP_DIR): kernel outputs as plain row-major files. */
static void dump_task(v1_exec *x, const v1_task *t)
{
    for (uint16_t k = 0; t->outs != NULL && k < t->n_out; k++) {
        const oa_ktensor *d = &t->outs[k];
        const uint8_t *src = x->c->ptrs[t->arg + t->n_in + k];
        char name[200], path[1024];
        size_t n = 0;
        for (const char *c = t->name; *c != '\0' && n + 1 < sizeof name; c++) {
            name[n++] = (*c == '/' || *c == ':' || *c == ' ') ? '_' : *c;
        }
        name[n] = '\0';
        snprintf(path, sizeof path, "%s/%04u_%s_%u.bin", x->p->dump_dir, x->dump_seq, name, (unsigned)k);
        FILE *f = fopen(path, "wb");
        if (f == NULL) {
            continue;
        }
        if (d->layout == OA_KLAYOUT_NCHWC) {
            const int64_t blk = oa_kernels_block(), c1 = (d->dims[1] + blk - 1) / blk, hw = d->dims[2] * d->dims[3];
            for (int64_t nn = 0; nn < d->dims[0]; nn++) {
                for (int64_t c = 0; c < d->dims[1]; c++) {
                    for (int64_t p = 0; p < hw; p++) {
                        const float *v = (const float *)src + ((nn * c1 + c / blk) * hw + p) * blk + c % blk;
                        fwrite(v, sizeof(float), 1, f);
                    }
                }
            }
        } else {
            fwrite(src, 1, oa_ktensor_bytes(d), f);
        }
        fclose(f);
    }
    x->dump_seq++;
}

static oa_status run_range(v1_exec *x, size_t begin, size_t end)
{
    const v1_task *t = x->p->tasks;
    if (x->p->dump_dir != NULL || x->p->prof_ns != NULL) {
        /* the debugging loop: profile and/or dump every task */
        for (size_t i = begin; i < end; i++) {
            const uint64_t t0 = oa_now_ns();
            const oa_status st = t[i].fn(&t[i], x);
            if (x->p->prof_ns != NULL) {
                __atomic_fetch_add(&x->p->prof_ns[i], oa_now_ns() - t0, __ATOMIC_RELAXED);
            }
            if (st != OA_OK) {
                return st;
            }
            if (x->p->dump_dir != NULL) {
                dump_task(x, &t[i]);
            }
        }
        return OA_OK;
    }
    for (size_t i = begin; i < end; i++) {
        const oa_status st = t[i].fn(&t[i], x);
        if (st != OA_OK) {
            OA_LOGE("[Run][Task] task %zu (node %s) failed", i, t[i].name);
            return st;
        }
    }
    return OA_OK;
}

oa_status oa_v1_task_case(const v1_task *t, v1_exec *x)
{
    int32_t bi;
    memcpy(&bi, x->c->ptrs[t->arg], sizeof bi);
    const v1_case *cs = &x->p->cases[t->aux];
    if (bi < 0 || (uint32_t)bi >= cs->n_branches) {
        return OA_FAIL(OA_E_GE_PARAM, "Case %s: branch index %d out of range [0, %u)", t->name, (int)bi,
                       cs->n_branches);
    }
    return run_range(x, cs->begin[bi], cs->end[bi]);
}


static int prof_cmp(const void *a, const void *b)
{
    const uint64_t *const *x = a, *const *y = b;
    return **x < **y ? 1 : **x > **y ? -1 : 0;
}

/* OPENACL_V1_PROFILE: the tasks by time, and the time per kernel family. */
void oa_v1_prof_print(const oa_v1_program *p)
{
    const uint64_t runs = p->prof_ns[p->n_tasks] ? p->prof_ns[p->n_tasks] : 1;
    uint64_t total = 0;
    uint64_t fam[OA_KOP_COUNT + 1] = {0};
    const uint64_t **order = calloc(p->n_tasks ? p->n_tasks : 1, sizeof(*order));
    if (order == NULL) {
        return;
    }
    for (size_t i = 0; i < p->n_tasks; i++) {
        total += p->prof_ns[i];
        const int f = p->tasks[i].op != NULL ? (int)oa_kop_get_type(p->tasks[i].op) : OA_KOP_COUNT;
        fam[f] += p->prof_ns[i];
        order[i] = &p->prof_ns[i];
    }
    qsort(order, p->n_tasks, sizeof(*order), prof_cmp);
    fprintf(stderr, "[openacl profile] %llu runs, %.3f ms per run in %zu tasks\n", (unsigned long long)runs,
            (double)total / runs / 1e6, p->n_tasks);
    for (int f = 0; f <= OA_KOP_COUNT; f++) {
        if (fam[f] > 0) {
            fprintf(stderr, "  %-16s %8.3f ms %5.1f%%\n", f < OA_KOP_COUNT ? oa_kop_type_name((oa_kop_type)f) : "(copy/case)",
                    (double)fam[f] / runs / 1e6, 100.0 * (double)fam[f] / (double)(total ? total : 1));
        }
    }
    for (size_t k = 0; k < p->n_tasks && k < 25; k++) {
        const size_t i = (size_t)(order[k] - p->prof_ns);
        const v1_task *t = &p->tasks[i];
        char dims[96] = "";
        if (t->outs != NULL && t->n_out > 0) {
            size_t n = 0;
            for (int d = 0; d < t->outs[0].rank && n + 16 < sizeof dims; d++) {
                n += (size_t)snprintf(dims + n, sizeof dims - n, "%s%lld", d ? "x" : "", (long long)t->outs[0].dims[d]);
            }
        }
        fprintf(stderr, "  %8.3f ms  %-10s %-7s %-14s %s\n", (double)p->prof_ns[i] / runs / 1e6,
                t->op != NULL ? oa_kop_type_name(oa_kop_get_type(t->op)) : "copy",
                t->op != NULL ? oa_kop_impl_name(t->op) : "", dims, t->name);
    }
    free(order);
}


/* ---- contexts and runs ---- */

void oa_v1_ctx_destroy(v1_ctx *c)
{
    if (c == NULL) {
        return;
    }
    if (c->own_work) {
        free(c->work);
    }
    free(c->ws);
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
    c->ptrs = calloc(p->n_refs + p->n_inputs + p->n_outputs + 1, sizeof(void *));
    if (c->ptrs == NULL) {
        oa_v1_ctx_destroy(c);
        return OA_FAIL(OA_E_NOMEM, "execution context");
    }
    if (work == NULL) {
        if (work_cap > SIZE_MAX - 64 ||
            (c->work = aligned_alloc(64, (size_t)(work_cap + 63) & ~(size_t)63)) == NULL) {
            oa_v1_ctx_destroy(c);
            return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "feature map of %llu bytes", (unsigned long long)work_cap);
        }
        memset(c->work, 0, (size_t)work_cap);
        c->own_work = true;
    } else {
        c->work = work;
    }
    c->work_cap = work_cap;
    if (p->ws_size > 0 && (c->ws = aligned_alloc(64, (p->ws_size + 63) & ~(size_t)63)) == NULL) {
        oa_v1_ctx_destroy(c);
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "workspace of %zu bytes", p->ws_size);
    }
    for (size_t i = 0; i < p->n_refs; i++) {
        const v1_ref *r = &p->refs[i];
        switch (r->kind) {
        case V1_REF_WORK: c->ptrs[i] = c->work + r->off; break;
        case V1_REF_ABS: c->ptrs[i] = (void *)(uintptr_t)r->abs; break;
        default: c->ptrs[i] = NULL; break;
        }
    }
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

oa_status oa_v1_run(const oa_v1_program *p, v1_ctx *c, const v1_io *io, void *pool)
{
    const v1_variant *v = &p->variants[io->variant];
    void **in_base = c->ptrs + p->n_refs;
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
    for (size_t k = 0; k < p->n_patches; k++) {
        const uint32_t idx = p->patches[k];
        const v1_ref *r = &p->refs[idx];
        uint8_t *base = r->kind == V1_REF_IN ? in_base[r->io] : out_base[r->io];
        c->ptrs[idx] = base + r->off;
    }
    v1_exec x = {.p = p, .c = c, .branch = (int32_t)io->variant, .pool = pool};
    oa_status st = run_range(&x, 0, p->n_main);
    if (p->prof_ns != NULL) {
        __atomic_fetch_add(&p->prof_ns[p->n_tasks], 1, __ATOMIC_RELAXED); /* the run counter */
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

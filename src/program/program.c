/*
 * The static-program engine (program.h, README.md): building records and
 * references, binding and patching pointer tables, the run loop and the
 * engine's record kinds.
 */
#define OA_LOG_MODULE "GE"
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "program/program.h"

/* ---- building ---- */

oa_status oa_prog_add_ref(oa_prog *p, const oa_prog_ref *r, uint32_t *idx)
{
    if (p->n_refs >= UINT32_MAX) {
        return OA_FAIL(OA_E_NOMEM, "program references (%zu)", p->n_refs);
    }
    oa_status st = oa_grow_array((void **)&p->refs, &p->cap_refs, p->n_refs, sizeof(*p->refs), "program arrays");
    if (st != OA_OK) {
        return st;
    }
    if (r->kind == OA_PREF_IN || r->kind == OA_PREF_OUT) {
        st = oa_grow_array((void **)&p->patches, &p->cap_patches, p->n_patches, sizeof(*p->patches), "program arrays");
        if (st != OA_OK) {
            return st;
        }
        p->patches[p->n_patches++] = (uint32_t)p->n_refs;
    }
    if (idx != NULL) {
        *idx = (uint32_t)p->n_refs;
    }
    p->refs[p->n_refs++] = *r;
    return OA_OK;
}

void oa_prog_truncate_refs(oa_prog *p, size_t n)
{
    while (p->n_patches > 0 && p->patches[p->n_patches - 1] >= n) {
        p->n_patches--;
    }
    if (n < p->n_refs) {
        p->n_refs = n;
    }
}

oa_status oa_prog_add_task(oa_prog *p, const oa_prog_task *t)
{
    if (p->n_tasks >= UINT32_MAX) {
        return OA_FAIL(OA_E_NOMEM, "program records (%zu)", p->n_tasks);
    }
    const oa_status st =
        oa_grow_array((void **)&p->tasks, &p->cap_tasks, p->n_tasks, sizeof(*p->tasks), "program arrays");
    if (st == OA_OK) {
        p->tasks[p->n_tasks++] = *t;
    }
    return st;
}

oa_status oa_prog_add_case(oa_prog *p, uint32_t n_branches, size_t *idx)
{
    oa_prog_case *cs = realloc(p->cases, (p->n_cases + 1) * sizeof(*cs));
    if (cs == NULL) {
        return OA_FAIL(OA_E_NOMEM, "case table");
    }
    p->cases = cs;
    oa_prog_case *c = &cs[p->n_cases];
    c->n_branches = n_branches;
    c->begin = calloc(n_branches ? n_branches : 1, sizeof(uint32_t));
    c->end = calloc(n_branches ? n_branches : 1, sizeof(uint32_t));
    if (c->begin == NULL || c->end == NULL) {
        free(c->begin);
        free(c->end);
        return OA_FAIL(OA_E_NOMEM, "case table");
    }
    *idx = p->n_cases++;
    return OA_OK;
}

void oa_prog_free(oa_prog *p)
{
    if (p == NULL) {
        return;
    }
    for (size_t i = 0; i < p->n_cases; i++) {
        free(p->cases[i].begin);
        free(p->cases[i].end);
    }
    free(p->cases);
    free(p->tasks);
    free(p->refs);
    free(p->patches);
    memset(p, 0, sizeof(*p));
}

/* ---- relocation ---- */

void oa_prog_bind(const oa_prog *p, void **ptrs, uint8_t *work)
{
    for (size_t i = 0; i < p->n_refs; i++) {
        const oa_prog_ref *r = &p->refs[i];
        switch (r->kind) {
        case OA_PREF_WORK: ptrs[i] = r->off != 0 ? work + r->off : work; break;
        case OA_PREF_ABS: ptrs[i] = (void *)(uintptr_t)r->abs; break;
        default: ptrs[i] = NULL; break;
        }
    }
}

void oa_prog_patch(const oa_prog *p, void **ptrs, void *const *in_base, void *const *out_base)
{
    for (size_t k = 0; k < p->n_patches; k++) {
        const uint32_t idx = p->patches[k];
        const oa_prog_ref *r = &p->refs[idx];
        uint8_t *base = r->kind == OA_PREF_IN ? in_base[r->io] : out_base[r->io];
        ptrs[idx] = r->off != 0 ? base + r->off : base;
    }
}

/* ---- running ---- */

oa_status oa_prog_run(oa_prog_exec *x, size_t begin, size_t end)
{
    const oa_prog_task *t = x->p->tasks;
    if (x->observe != NULL) {
        for (size_t i = begin; i < end; i++) {
            const oa_status st = x->observe(x, i);
            if (st != OA_OK) {
                if (st == OA_PROG_ABANDON) {
                    return st;
                }
                OA_LOGE("[Run][Task] task %zu (node %s) failed", i, t[i].name);
                return st;
            }
        }
        return OA_OK;
    }
    for (size_t i = begin; i < end; i++) {
        const oa_status st = t[i].fn(&t[i], x);
        if (st != OA_OK) {
            if (st == OA_PROG_ABANDON) {
                return st;
            }
            OA_LOGE("[Run][Task] task %zu (node %s) failed", i, t[i].name);
            return st;
        }
    }
    return OA_OK;
}

/* ---- record kinds ---- */

oa_status oa_prog_task_kernel(const oa_prog_task *t, oa_prog_exec *x)
{
    void **ptrs = x->ptrs + t->arg;
    return oa_kop_run(t->op, (const void *const *)ptrs, ptrs + t->n_in, x->ws, x->pool);
}

oa_status oa_prog_task_copy(const oa_prog_task *t, oa_prog_exec *x)
{
    void **ptrs = x->ptrs + t->arg;
    if (ptrs[0] != ptrs[1] && t->aux > 0) {
        memmove(ptrs[1], ptrs[0], (size_t)t->aux);
    }
    return OA_OK;
}

oa_status oa_prog_task_gear_index(const oa_prog_task *t, oa_prog_exec *x)
{
    int32_t *dst = x->ptrs[t->arg];
    *dst = x->branch;
    return OA_OK;
}

oa_status oa_prog_task_case(const oa_prog_task *t, oa_prog_exec *x)
{
    int32_t bi;
    memcpy(&bi, x->ptrs[t->arg], sizeof bi);
    const oa_prog_case *cs = &x->p->cases[t->aux];
    if (bi < 0 || (uint32_t)bi >= cs->n_branches) {
        return OA_FAIL(OA_E_GE_PARAM, "Case %s: branch index %d out of range [0, %u)", t->name, (int)bi,
                       cs->n_branches);
    }
    return oa_prog_run(x, cs->begin[bi], cs->end[bi]);
}

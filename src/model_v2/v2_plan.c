/*
 * The plan cache: one static plan per (graph, input-shape signature).
 *
 * After a dynamic run whose shapes depended only on the input shapes (no
 * value read from tensor data), the run's final shapes and kernel
 * operators are frozen into a plan:
 *   - every tensor gets a place: an input slot (the caller's buffer or the
 *     owner's tensor), an output slot (the caller's buffer: results are
 *     written in place), an absolute address (weights; Shape/Size results
 *     computed once into the plan), or an offset in one block laid out by
 *     the memory planner (src/mem/planner.h) from the tensors' lifetimes
 *     in run order; views take their source's place;
 *   - the run becomes a static program of the engine (src/program/
 *     README.md): launch records (kernel operator + pointers), copy
 *     records (an output that is not produced in place) and PlanControl
 *     records (If / Case / PartitionedCall: select the branch at run time
 *     and run the branch's own plan, or its dynamic path once, which then
 *     records that plan); each cell becomes one reference per record
 *     that uses it: block cells WORK (relocated onto the instance's
 *     block), constants ABS, input / output slots IN / OUT (patched).
 * A repeated input shape then runs with no shape inference and no
 * allocation: each executor instantiates a plan once (its pointer table
 * bound onto its block) and afterwards only patches the input and output
 * pointers.
 *
 * Graphs holding While are not planned (loop-carried shapes may change
 * between iterations); such signatures keep a negative entry so that no
 * recording is attempted again. A branch whose outputs come back with
 * other shapes than the plan expects aborts the plan (OA_V2_REPLAN): the
 * execution reruns on the dynamic path (inputs are never written).
 */
#define OA_LOG_MODULE "GE"
#include <stdlib.h>
#include <string.h>

#include "acl_base/data_buffer.h"
#include "acl_mdl/model.h"
#include "base/error.h"
#include "base/log.h"
#include "base/hash.h"
#include "base/util.h"
#include "mem/planner.h"
#include "model_v2/v2_internal.h"
#include "kernels/kernels.h"
#include "program/program.h"

#define PLANS_PER_GRAPH 64 /* an OCR model's few dozen input sizes (README.md "The plan cache") */
#define INSTS_PER_EXEC 64
#define REPLAN ((uint32_t)OA_PROG_ABANDON) /* a record's status: rerun on the dynamic path (program.h) */

static uint8_t g_zero[64] __attribute__((aligned(64)));

typedef enum cell_kind {
    CELL_NULL = 0,
    CELL_BLOCK, /* block base + off */
    CELL_ABS,   /* fixed address */
    CELL_IN,    /* input slot idx */
    CELL_OUT    /* output slot idx */
} cell_kind;

typedef struct cell_init {
    uint8_t kind;
    uint32_t idx;
    size_t off;
    const void *abs;
} cell_init;

/* A control record's data (its meta). */
typedef struct pl_cf {
    const v2_cnode *cn;
    uint32_t n_in, n_out;
    oa_tensor_desc *in_desc;  /* n_in (slot order; dtype UNDEFINED for absent) */
    oa_tensor_desc *out_desc; /* n_out */
} pl_cf;

struct v2_plan {
    v2_plan *next;
    uint64_t hash;
    size_t key_len;
    uint8_t *key;
    atomic_int refs;
    uint64_t last_use;
    atomic_bool unplannable;
    const v2_gprog *g;
    oa_prog prog;       /* the records, one reference per record pointer (cells copied) */
    size_t block_size;
    size_t ws;
    v2_kop_entry **entries;
    size_t n_entries;
    uint8_t *consts;
    void **folded;      /* results of launches whose inputs are all constant (computed at build) */
    size_t n_folded;
    pl_cf *cfs;
    size_t n_cfs;
    uint32_t n_in, n_out;
    uint32_t *in_cell;  /* building: per input slot its cell */
    uint32_t *out_cell; /* building: per output its cell */
    oa_tensor_desc *out_desc;
    size_t *out_bytes;
    oa_kthreads thr; /* whole runs with the pool or on the calling thread (plan_run) */
};

struct v2_plan_inst {
    v2_plan *plan;
    void **ptrs;         /* the program's pointer table, bound onto block (or the executor's plan arena) */
    oa_v2_block *block;  /* from the caching allocator, kept with the instance (NULL until a branch run needs it) */
    const void *bound;   /* the address ptrs are bound to (binding depends on the address alone) */
    bool is_bound;
    uint64_t last_use;
    int in_use;          /* running (a branch plan may run inside its owner's plan) */
};

/* ---- plans ---- */

static void plan_destroy(v2_plan *p)
{
    if (p == NULL) {
        return;
    }
    for (size_t i = 0; i < p->n_entries; ++i) {
        oa_v2_kop_entry_release(p->entries[i]);
    }
    for (size_t i = 0; i < p->n_cfs; ++i) {
        free(p->cfs[i].in_desc);
        free(p->cfs[i].out_desc);
    }
    for (size_t i = 0; i < p->n_folded; ++i) {
        free(p->folded[i]);
    }
    free(p->folded);
    oa_prog_free(&p->prog);
    free(p->key);
    free(p->entries);
    free(p->consts);
    free(p->cfs);
    free(p->in_cell);
    free(p->out_cell);
    free(p->out_desc);
    free(p->out_bytes);
    free(p);
}

static void plan_release(v2_plan *p)
{
    if (p != NULL && atomic_fetch_sub_explicit(&p->refs, 1, memory_order_acq_rel) == 1) {
        plan_destroy(p);
    }
}

void oa_v2_plan_cache_init(v2_plan_cache *c)
{
    pthread_mutex_init(&c->lock, NULL);
    c->head = NULL;
    c->count = 0;
}

void oa_v2_plan_cache_deinit(v2_plan_cache *c)
{
    for (v2_plan *p = c->head; p != NULL;) {
        v2_plan *n = p->next;
        plan_release(p);
        p = n;
    }
    c->head = NULL;
    pthread_mutex_destroy(&c->lock);
}

/* ---- signatures ---- */

typedef struct sig {
    uint8_t buf[1024];
    size_t n;
    bool overflow;
} sig;

static void sig_put(sig *s, const void *p, size_t n)
{
    if (s->n + n > sizeof s->buf) {
        s->overflow = true;
        return;
    }
    memcpy(s->buf + s->n, p, n);
    s->n += n;
}

static void sig_desc(sig *s, const oa_tensor_desc *d)
{
    const int32_t h[2] = {(int32_t)d->dtype, d->shape.rank};
    sig_put(s, h, sizeof h);
    if (d->shape.rank > 0) {
        sig_put(s, d->shape.dims, (size_t)d->shape.rank * sizeof(int64_t));
    }
}

static uint64_t sig_hash(const sig *s)
{
    return oa_fnv1a64(s->buf, s->n);
}

/* The signature of graph g from the descs of its bound inputs. */
static void graph_sig(const v2_gprog *g, const oa_tensor_desc *const *in_descs, sig *s)
{
    s->n = 0;
    s->overflow = false;
    for (uint32_t b = 0; b < g->n_binds; ++b) {
        sig_desc(s, in_descs[b]);
    }
}

static v2_plan *cache_find(v2_model *m, v2_gprog *g, const sig *s, uint64_t h)
{
    v2_plan_cache *c = &g->plans;
    pthread_mutex_lock(&c->lock);
    v2_plan *p = c->head;
    while (p != NULL && !(p->hash == h && p->key_len == s->n && memcmp(p->key, s->buf, s->n) == 0)) {
        p = p->next;
    }
    if (p != NULL) {
        atomic_fetch_add_explicit(&p->refs, 1, memory_order_relaxed);
        p->last_use = oa_v2_tick(m);
    }
    pthread_mutex_unlock(&c->lock);
    return p;
}

/* Inserts p (the cache takes the caller's reference) unless an equal key is there. */
static void cache_insert(v2_gprog *g, v2_plan *p)
{
    v2_plan_cache *c = &g->plans;
    pthread_mutex_lock(&c->lock);
    for (v2_plan *q = c->head; q != NULL; q = q->next) {
        if (q->hash == p->hash && q->key_len == p->key_len && memcmp(q->key, p->key, p->key_len) == 0) {
            pthread_mutex_unlock(&c->lock);
            plan_release(p);
            return;
        }
    }
    if (c->count >= PLANS_PER_GRAPH) {
        v2_plan **victim = NULL;
        for (v2_plan **l = &c->head; *l != NULL; l = &(*l)->next) {
            if (victim == NULL || (*l)->last_use < (*victim)->last_use) {
                victim = l;
            }
        }
        v2_plan *v = *victim;
        *victim = v->next;
        c->count--;
        plan_release(v);
    }
    p->next = c->head;
    c->head = p;
    c->count++;
    pthread_mutex_unlock(&c->lock);
}

/* ---- the control record ---- */

static uint32_t run_child_planned(v2_exec *x, const pl_cf *cf, const v2_gprog *child, void *const *ins,
                                  void *const *outs);

/* PlanControl: pointers are one per IR input slot (absent slots NULL), then one per output. */
static oa_status task_plan_cf(const oa_prog_task *t, oa_prog_exec *e)
{
    const pl_cf *cf = t->meta;
    v2_exec *x = e->owner;
    const v2_cnode *cn = cf->cn;
    void *const *ins = e->ptrs + t->arg;
    void *const *outs = ins + cf->n_in;
    uint32_t b = 0;
    if (cn->kind == V2_C_IF || cn->kind == V2_C_CASE) {
        v2_tensor sel = {.desc = cf->in_desc[0], .data = ins[0]};
        int64_t v = 0;
        oa_status st = oa_v2_read_selector(&sel, cn->node->name, cn->kind == V2_C_CASE, &v);
        if (st != OA_OK) {
            return st;
        }
        if (cn->kind == V2_C_IF) {
            b = v ? 0 : 1;
        } else {
            b = (v < 0 || v >= (int64_t)cn->n_children) ? cn->n_children - 1 : (uint32_t)v;
        }
    }
    const uint32_t rc = run_child_planned(x, cf, cn->children[b], ins, outs);
    e->ws = x->ws; /* a branch on its dynamic path may have grown the workspace */
    return (oa_status)rc;
}

/* ---- instances ---- */

static void inst_free(v2_plan_inst *pi)
{
    if (pi == NULL) {
        return;
    }
    oa_v2_block_release(pi->block);
    free(pi->ptrs);
    plan_release(pi->plan);
    free(pi);
}

void oa_v2_plan_insts_free(v2_exec *x)
{
    for (size_t i = 0; i < x->n_plan_insts; ++i) {
        inst_free(x->plan_insts[i]);
    }
    oa_v2_block_release(x->plan_arena);
    x->plan_arena = NULL;
    free(x->plan_insts);
    x->plan_insts = NULL;
    x->n_plan_insts = 0;
    x->cap_plan_insts = 0;
}

/* Binds pi's pointer table onto block (its WORK references; constants too, IN/OUT cleared until patched). */
static void bind_block(v2_plan_inst *pi, const oa_v2_block *block)
{
    oa_prog_bind(&pi->plan->prog, pi->ptrs, block != NULL ? (uint8_t *)block->addr : NULL);
}

/*
 * The executor's instance of plan p (created on first use). Beyond
 * INSTS_PER_EXEC instances the least recently used one that is not running
 * is dropped (its block goes back to the caching allocator).
 */
static oa_status inst_get(v2_exec *x, v2_plan *p, v2_plan_inst **out)
{
    const uint64_t now = oa_v2_tick(x->model);
    for (size_t i = 0; i < x->n_plan_insts; ++i) {
        if (x->plan_insts[i]->plan == p) {
            x->plan_insts[i]->last_use = now;
            *out = x->plan_insts[i];
            return OA_OK;
        }
    }
    if (x->n_plan_insts >= INSTS_PER_EXEC) {
        size_t victim = SIZE_MAX;
        for (size_t i = 0; i < x->n_plan_insts; ++i) {
            if (x->plan_insts[i]->in_use == 0 &&
                (victim == SIZE_MAX || x->plan_insts[i]->last_use < x->plan_insts[victim]->last_use)) {
                victim = i;
            }
        }
        if (victim != SIZE_MAX) {
            inst_free(x->plan_insts[victim]);
            x->plan_insts[victim] = x->plan_insts[--x->n_plan_insts];
        }
    }
    if (x->n_plan_insts == x->cap_plan_insts) {
        const size_t cap = x->cap_plan_insts ? x->cap_plan_insts * 2 : INSTS_PER_EXEC;
        v2_plan_inst **a = realloc(x->plan_insts, cap * sizeof(*a));
        if (a == NULL) {
            return OA_FAIL(OA_E_NOMEM, "plan instances");
        }
        x->plan_insts = a;
        x->cap_plan_insts = cap;
    }
    v2_plan_inst *pi = calloc(1, sizeof(*pi));
    if (pi == NULL) {
        return OA_FAIL(OA_E_NOMEM, "plan instance");
    }
    pi->plan = p;
    atomic_fetch_add_explicit(&p->refs, 1, memory_order_relaxed);
    oa_status st = oa_v2_ensure_ws(x, p->ws);
    if (st == OA_OK && p->block_size > 0 && x->plan_alloc != NULL) {
        /* a captured execution's plan: its block comes from capture's allocator, kept until the instance goes
         * (docs/runtime.md "Work memory of captured model executions") */
        pi->block = x->plan_alloc->alloc(x->plan_alloc, p->block_size);
        if (pi->block == NULL) {
            st = OA_E_GE_MEMORY_ALLOCATION;
        } else {
            V2_STAT(x->model, plan_blocks);
        }
    }
    if (st == OA_OK) {
        pi->ptrs = calloc(p->prog.n_refs + 1, sizeof(*pi->ptrs));
        if (pi->ptrs == NULL) {
            st = OA_FAIL(OA_E_NOMEM, "plan pointers");
        }
    }
    if (st != OA_OK) {
        inst_free(pi);
        return st;
    }
    pi->last_use = now;
    x->plan_insts[x->n_plan_insts++] = pi;
    *out = pi;
    return OA_OK;
}

/* ---- building a plan from the executor's last dynamic run of g ---- */

/* A record before the references exist: its pointers are cells rec_cells[first ..). */
typedef struct pend_rec {
    oa_prog_fn fn;
    const oa_kop *op;
    uint32_t n_in, n_out;
    uint64_t aux;
    const char *name;
    const void *meta;
    size_t first;
} pend_rec;

typedef struct builder {
    v2_exec *x;
    const v2_gprog *g;
    v2_plan *p;
    uint32_t *cell_of; /* per tensor id of g (global id - base): its cell, V2_NONE unset */
    uint32_t t_base, t_count;
    cell_init *cells;
    uint32_t n_cells, cap_cells;
    /* planner values: one per block tensor */
    oa_plan_value *pv;
    uint32_t *pv_cell;
    size_t n_pv, cap_pv;
    uint32_t *pv_of_cell; /* cell -> planner value (V2_NONE) */
    /* records in run order, their pointers as cells (references once the block is laid out) */
    pend_rec *recs;
    size_t n_recs, cap_recs;
    uint32_t *rec_cells;
    size_t n_rec_cells, cap_rec_cells;
    int32_t step;
} builder;

static oa_status new_cell(builder *b, cell_kind kind, uint32_t idx, const void *abs, uint32_t *out)
{
    if (b->n_cells == b->cap_cells) {
        const uint32_t cap = b->cap_cells ? b->cap_cells * 2 : 64;
        cell_init *c = realloc(b->cells, cap * sizeof(*c));
        uint32_t *m = realloc(b->pv_of_cell, cap * sizeof(*m));
        if (c != NULL) {
            b->cells = c;
        }
        if (m != NULL) {
            b->pv_of_cell = m;
        }
        if (c == NULL || m == NULL) {
            return OA_FAIL(OA_E_NOMEM, "plan cells");
        }
        b->cap_cells = cap;
    }
    cell_init *c = &b->cells[b->n_cells];
    memset(c, 0, sizeof(*c));
    c->kind = (uint8_t)kind;
    c->idx = idx;
    c->abs = abs;
    b->pv_of_cell[b->n_cells] = V2_NONE;
    *out = b->n_cells++;
    return OA_OK;
}

/* A block tensor: a cell whose offset the planner decides. */
static oa_status new_block_cell(builder *b, size_t bytes, uint32_t *out)
{
    oa_status st = new_cell(b, CELL_BLOCK, 0, NULL, out);
    if (st != OA_OK) {
        return st;
    }
    if (b->n_pv == b->cap_pv) {
        const size_t cap = b->cap_pv ? b->cap_pv * 2 : 64;
        oa_plan_value *v = realloc(b->pv, cap * sizeof(*v));
        uint32_t *c = realloc(b->pv_cell, cap * sizeof(*c));
        if (v != NULL) {
            b->pv = v;
        }
        if (c != NULL) {
            b->pv_cell = c;
        }
        if (v == NULL || c == NULL) {
            return OA_FAIL(OA_E_NOMEM, "plan values");
        }
        b->cap_pv = cap;
    }
    b->pv[b->n_pv].size = bytes;
    b->pv[b->n_pv].first_use = -1;
    b->pv[b->n_pv].last_use = -1;
    b->pv[b->n_pv].inplace_candidate = -1;
    b->pv_cell[b->n_pv] = *out;
    b->pv_of_cell[*out] = (uint32_t)b->n_pv;
    b->n_pv++;
    return OA_OK;
}

static void touch(builder *b, uint32_t cell, bool write)
{
    const uint32_t v = b->pv_of_cell[cell];
    if (v == V2_NONE) {
        return;
    }
    oa_plan_value *pv = &b->pv[v];
    if (write && pv->first_use < 0) {
        pv->first_use = b->step;
    }
    if (pv->first_use < 0) {
        pv->first_use = b->step; /* read before any write: keep it alive from here */
    }
    if (b->step > pv->last_use) {
        pv->last_use = b->step;
    }
}

static uint32_t cell_of(builder *b, uint32_t tensor)
{
    return b->cell_of[tensor - b->t_base];
}

/* Places every tensor of g: inputs, constants, outputs, block tensors; views share their source's cell. */
static oa_status place_tensors(builder *b)
{
    v2_exec *x = b->x;
    const v2_program *pr = &x->model->prog;
    const v2_gprog *g = b->g;
    v2_plan *p = b->p;
    oa_status st = OA_OK;
    /* inputs */
    p->n_in = g->n_binds;
    p->in_cell = malloc((g->n_binds + 1) * sizeof(uint32_t));
    if (p->in_cell == NULL) {
        return OA_FAIL(OA_E_NOMEM, "plan inputs");
    }
    for (uint32_t i = 0; i < g->n_binds && st == OA_OK; ++i) {
        uint32_t c;
        st = new_cell(b, CELL_IN, i, NULL, &c);
        b->cell_of[g->binds[i].tensor - b->t_base] = c;
        p->in_cell[i] = c;
    }
    /* outputs produced in place: the first output of each computed tensor */
    p->n_out = g->n_out;
    p->out_cell = malloc((g->n_out + 1) * sizeof(uint32_t));
    p->out_desc = calloc(g->n_out + 1, sizeof(*p->out_desc));
    p->out_bytes = calloc(g->n_out + 1, sizeof(size_t));
    if (p->out_cell == NULL || p->out_desc == NULL || p->out_bytes == NULL) {
        return OA_FAIL(OA_E_NOMEM, "plan outputs");
    }
    for (uint32_t k = 0; k < g->n_out && st == OA_OK; ++k) {
        const uint32_t t = g->out_t[k];
        const v2_tdef *td = &pr->tensors[t];
        p->out_desc[k] = x->tensors[t].desc;
        p->out_desc[k].value = NULL;
        if (!oa_v2_desc_bytes(&p->out_desc[k], &p->out_bytes[k])) {
            return OA_FAIL(OA_E_GE_SHAPE, "plan of %s: output %u has no static shape", g->name, k);
        }
        st = new_cell(b, CELL_OUT, k, NULL, &p->out_cell[k]);
        const bool direct = td->kind == V2_T_COMPUTED || td->kind == V2_T_CF;
        if (st == OA_OK && direct && b->cell_of[t - b->t_base] == V2_NONE) {
            b->cell_of[t - b->t_base] = p->out_cell[k];
        }
    }
    /* the rest, in node order */
    for (uint32_t t = b->t_base; t < b->t_base + b->t_count && st == OA_OK; ++t) {
        const v2_tdef *td = &pr->tensors[t];
        if (td->graph != g->index || b->cell_of[t - b->t_base] != V2_NONE) {
            continue;
        }
        const v2_tensor *rt = &x->tensors[t];
        size_t bytes = 0;
        uint32_t c = V2_NONE;
        switch (td->kind) {
        case V2_T_CONST:
            st = new_cell(b, CELL_ABS, 0, rt->data ? rt->data : g_zero, &c);
            break;
        case V2_T_INPUT:
            st = new_cell(b, CELL_NULL, 0, NULL, &c); /* a Data tensor no bind refers to */
            break;
        case V2_T_VIEW:
            break; /* below, once its source is placed */
        case V2_T_SHAPE: {
            /* Shape / Size: the value is known under this signature */
            if (!oa_v2_desc_bytes(&rt->desc, &bytes)) {
                return OA_FAIL(OA_E_GE_SHAPE, "plan of %s: %s has no static shape", g->name, td->node->name);
            }
            st = new_cell(b, CELL_ABS, 0, NULL, &c); /* filled when the consts are laid out */
            break;
        }
        default:
            if (!oa_v2_desc_bytes(&rt->desc, &bytes)) {
                return OA_FAIL(OA_E_GE_SHAPE, "plan of %s: %s has no static shape", g->name, td->node->name);
            }
            if (bytes == 0) {
                st = new_cell(b, CELL_ABS, 0, g_zero, &c);
            } else {
                st = new_block_cell(b, bytes, &c);
            }
            break;
        }
        if (c != V2_NONE) {
            b->cell_of[t - b->t_base] = c;
        }
    }
    /* views share their source's cell (sources come first in node order) */
    for (uint32_t t = b->t_base; t < b->t_base + b->t_count && st == OA_OK; ++t) {
        const v2_tdef *td = &pr->tensors[t];
        if (td->graph != g->index || td->kind != V2_T_VIEW || b->cell_of[t - b->t_base] != V2_NONE) {
            continue;
        }
        uint32_t src = t;
        while (pr->tensors[src].kind == V2_T_VIEW && b->cell_of[src - b->t_base] == V2_NONE) {
            const oa_node *n = pr->tensors[src].node;
            src = n->inputs[0].src->mark + n->inputs[0].src_index;
        }
        b->cell_of[t - b->t_base] = b->cell_of[src - b->t_base];
    }
    return st;
}

/* Shape / Size values of this signature, in plan-owned memory. */
static oa_status place_shape_values(builder *b)
{
    v2_exec *x = b->x;
    const v2_program *pr = &x->model->prog;
    size_t total = 0;
    for (uint32_t t = b->t_base; t < b->t_base + b->t_count; ++t) {
        const v2_tdef *td = &pr->tensors[t];
        size_t bytes = 0;
        if (td->graph == b->g->index && td->kind == V2_T_SHAPE && oa_v2_desc_bytes(&x->tensors[t].desc, &bytes)) {
            total += (bytes + 63) & ~(size_t)63;
        }
    }
    if (total == 0) {
        return OA_OK;
    }
    b->p->consts = aligned_alloc(64, total);
    if (b->p->consts == NULL) {
        return OA_FAIL(OA_E_NOMEM, "plan constants");
    }
    size_t at = 0;
    for (uint32_t t = b->t_base; t < b->t_base + b->t_count; ++t) {
        const v2_tdef *td = &pr->tensors[t];
        size_t bytes = 0;
        if (td->graph != b->g->index || td->kind != V2_T_SHAPE || !oa_v2_desc_bytes(&x->tensors[t].desc, &bytes)) {
            continue;
        }
        const v2_tensor *in = &x->tensors[td->node->inputs[0].src->mark + td->node->inputs[0].src_index];
        const oa_dtype dt = x->tensors[t].desc.dtype;
        int64_t vals[OA_MAX_RANK + 1];
        size_t n = 0;
        if (td->node->type == OA_OP_SHAPE) {
            for (int32_t d = 0; d < in->desc.shape.rank; ++d) {
                vals[n++] = in->desc.shape.dims[d];
            }
        } else {
            int64_t numel = 0;
            if (!oa_shape_numel(&in->desc.shape, &numel)) {
                return OA_FAIL(OA_E_GE_SHAPE, "plan: Size of an unknown shape");
            }
            vals[n++] = numel;
        }
        uint8_t *dst = b->p->consts + at;
        for (size_t i = 0; i < n && (i + 1) * (dt == OA_DT_INT32 ? 4 : 8) <= bytes; ++i) {
            if (dt == OA_DT_INT32) {
                ((int32_t *)(void *)dst)[i] = (int32_t)vals[i];
            } else {
                ((int64_t *)(void *)dst)[i] = vals[i];
            }
        }
        b->cells[cell_of(b, t)].abs = dst;
        at += (bytes + 63) & ~(size_t)63;
    }
    return OA_OK;
}

static oa_status add_record(builder *b, oa_prog_fn fn, const oa_kop *op, uint64_t aux, const char *name,
                            const void *meta, const uint32_t *in, uint32_t n_in, const uint32_t *out, uint32_t n_out)
{
    if (n_in > UINT16_MAX || n_out > UINT16_MAX) {
        return OA_FAIL(OA_E_NOT_SUPPORTED, "plan: node %s has %u inputs and %u outputs", name, n_in, n_out);
    }
    if (b->n_recs == b->cap_recs) {
        const size_t cap = b->cap_recs ? b->cap_recs * 2 : 64;
        pend_rec *r = realloc(b->recs, cap * sizeof(*r));
        if (r == NULL) {
            return OA_FAIL(OA_E_NOMEM, "plan records");
        }
        b->recs = r;
        b->cap_recs = cap;
    }
    const size_t need = b->n_rec_cells + n_in + n_out;
    if (need > b->cap_rec_cells) {
        const size_t cap = need * 2 + 64;
        uint32_t *c = realloc(b->rec_cells, cap * sizeof(*c));
        if (c == NULL) {
            return OA_FAIL(OA_E_NOMEM, "plan records");
        }
        b->rec_cells = c;
        b->cap_rec_cells = cap;
    }
    b->recs[b->n_recs++] = (pend_rec){.fn = fn, .op = op, .n_in = n_in, .n_out = n_out, .aux = aux, .name = name,
                                      .meta = meta, .first = b->n_rec_cells};
    for (uint32_t i = 0; i < n_in; ++i) {
        b->rec_cells[b->n_rec_cells++] = in[i];
        touch(b, in[i], false);
    }
    for (uint32_t k = 0; k < n_out; ++k) {
        b->rec_cells[b->n_rec_cells++] = out[k];
        touch(b, out[k], true);
    }
    b->step++;
    return OA_OK;
}

/* The program: each record's cells become its references (the block offsets are known now). */
static oa_status emit_program(builder *b)
{
    oa_prog *pg = &b->p->prog;
    oa_status st = OA_OK;
    for (size_t r = 0; r < b->n_recs && st == OA_OK; ++r) {
        const pend_rec *pr = &b->recs[r];
        const uint32_t arg = (uint32_t)pg->n_refs;
        for (size_t k = 0; k < (size_t)pr->n_in + pr->n_out && st == OA_OK; ++k) {
            const cell_init *c = &b->cells[b->rec_cells[pr->first + k]];
            oa_prog_ref ref = {0};
            switch ((cell_kind)c->kind) {
            case CELL_BLOCK: ref.kind = OA_PREF_WORK; ref.off = c->off; break;
            case CELL_ABS: ref.kind = OA_PREF_ABS; ref.abs = c->abs; break;
            case CELL_IN: ref.kind = OA_PREF_IN; ref.io = c->idx; break;
            case CELL_OUT: ref.kind = OA_PREF_OUT; ref.io = c->idx; break;
            default: ref.kind = OA_PREF_NULL; break;
            }
            st = oa_prog_add_ref(pg, &ref, NULL);
        }
        const oa_prog_task t = {.fn = pr->fn, .op = pr->op, .arg = arg, .n_in = (uint16_t)pr->n_in,
                                .n_out = (uint16_t)pr->n_out, .aux = pr->aux, .name = pr->name, .meta = pr->meta};
        if (st == OA_OK) {
            st = oa_prog_add_task(pg, &t);
        }
    }
    pg->n_main = pg->n_tasks;
    return st;
}

static bool is_const_cell(const builder *b, uint32_t c)
{
    return b->cells[c].kind == CELL_NULL || (b->cells[c].kind == CELL_ABS && b->cells[c].abs != NULL);
}

/*
 * A launch whose inputs are all constant under this signature (weights,
 * Shape values, earlier folded results) runs once now; its outputs become
 * constants of the plan and the launch leaves the record list.
 * false (nothing done) when it does not apply.
 */
static bool try_fold(builder *b, const v2_cnode *cn, const v2_kop_entry *e, const uint32_t *vin, const uint32_t *vout)
{
    v2_exec *x = b->x;
    v2_plan *p = b->p;
    for (int k = 0; k < e->n_in; ++k) {
        if (!is_const_cell(b, vin[k])) {
            return false;
        }
    }
    for (int k = 0; k < e->n_out; ++k) {
        if (b->cells[vout[k]].kind != CELL_BLOCK) {
            return false; /* outputs of the graph, or cells shared otherwise */
        }
    }
    if (e->n_in > 64 || e->n_out > 16 || oa_v2_ensure_ws(x, e->ws) != OA_OK) {
        return false;
    }
    void **grown = realloc(p->folded, (p->n_folded + (size_t)e->n_out + 1) * sizeof(void *));
    if (grown == NULL) {
        return false;
    }
    p->folded = grown;
    const void *ins[64];
    void *outs[16];
    size_t first = p->n_folded;
    for (int k = 0; k < e->n_in; ++k) {
        ins[k] = b->cells[vin[k]].abs;
    }
    for (int k = 0; k < e->n_out; ++k) {
        size_t bytes = 0;
        if (!oa_v2_desc_bytes(&x->tensors[cn->out_t[e->out_index[k]]].desc, &bytes)) {
            return false;
        }
        outs[k] = aligned_alloc(64, bytes ? (bytes + 63) & ~(size_t)63 : 64);
        if (outs[k] == NULL) {
            return false;
        }
        p->folded[p->n_folded++] = outs[k];
    }
    if (oa_kop_run(e->op, ins, outs, x->ws, x->pool) != OA_OK) {
        while (p->n_folded > first) {
            free(p->folded[--p->n_folded]);
        }
        return false;
    }
    for (int k = 0; k < e->n_out; ++k) {
        cell_init *c = &b->cells[vout[k]];
        c->kind = CELL_ABS;
        c->abs = outs[k];
        const uint32_t v = b->pv_of_cell[vout[k]];
        if (v != V2_NONE) {
            b->pv[v].size = 0;
            b->pv_of_cell[vout[k]] = V2_NONE;
        }
    }
    return true;
}

/*
 * A kernel whose output 0 may overwrite its input 0 (op_bind's inplace_ok: element-wise ops on equal shapes) offers
 * the planner that input's memory for the output; the planner takes it when the input dies at this record (no
 * later reader, views included). Both in the block and of one size. Writing into memory just read saves a
 * stream: det's 96x160x160 Add ran 1.29 ms into fresh memory against 0.70 in place on the static path.
 */
static void offer_in_place(builder *b, const v2_kop_entry *e, const uint32_t *vin, const uint32_t *vout)
{
    if (!e->inplace_ok || e->n_in < 1 || e->n_out < 1 || e->src[0].kind != V2_KSRC_ACT) {
        return;
    }
    const uint32_t vi = b->pv_of_cell[vin[0]], vo = b->pv_of_cell[vout[0]];
    if (vi == V2_NONE || vo == V2_NONE || vi == vo || b->pv[vi].size != b->pv[vo].size) {
        return;
    }
    for (int k = 1; k < e->n_in; ++k) { /* another input already in the output's place: nothing to offer */
        if (vin[k] == vout[0]) {
            return;
        }
    }
    b->pv[vo].inplace_candidate = (int32_t)vi;
}

static oa_status build_records(builder *b)
{
    v2_exec *x = b->x;
    v2_plan *p = b->p;
    const v2_gprog *g = b->g;
    const v2_program *pr = &x->model->prog;
    oa_status st = OA_OK;
    uint32_t *vin = NULL, *vout = NULL;
    size_t cap_io = 0;
    /* records never reallocate their info structs: size the arrays first */
    size_t nl = 0, nf = 0;
    for (uint32_t i = 0; i < g->n_cnodes; ++i) {
        nl += g->cnodes[i]->kind == V2_C_LAUNCH;
        nf += g->cnodes[i]->kind >= V2_C_IF;
    }
    p->cfs = calloc(nf + 1, sizeof(*p->cfs));
    p->entries = calloc(nl + 1, sizeof(*p->entries));
    if (p->cfs == NULL || p->entries == NULL) {
        return OA_FAIL(OA_E_NOMEM, "plan records");
    }
    uint32_t null_cell = V2_NONE;
    for (uint32_t i = 0; i < g->n_cnodes && st == OA_OK; ++i) {
        const v2_cnode *cn = g->cnodes[i];
        if (cn->kind == V2_C_VIEW || cn->kind == V2_C_SHAPE || cn->kind == V2_C_SIZE) {
            continue;
        }
        const size_t need = (size_t)cn->n_in + cn->n_out + 64;
        if (need > cap_io) {
            free(vin);
            free(vout);
            cap_io = need * 2;
            vin = malloc(cap_io * sizeof(uint32_t));
            vout = malloc(cap_io * sizeof(uint32_t));
            if (vin == NULL || vout == NULL) {
                st = OA_FAIL(OA_E_NOMEM, "plan records");
                break;
            }
        }
        if (cn->kind == V2_C_LAUNCH) {
            v2_kop_entry *e = x->last_entry[cn->gid];
            if (e == NULL) {
                st = OA_FAIL(OA_E_INTERNAL, "plan of %s: node %s has no operator", g->name, cn->node->name);
                break;
            }
            if ((size_t)e->n_in + e->n_out > cap_io) {
                st = OA_FAIL(OA_E_INTERNAL, "plan: operator arity");
                break;
            }
            for (int k = 0; k < e->n_in && st == OA_OK; ++k) {
                const v2_ksrc *s = &e->src[k];
                if (s->kind == V2_KSRC_ACT) {
                    vin[k] = cell_of(b, cn->in_t[s->slot]);
                } else if (s->kind == V2_KSRC_CONST) {
                    st = new_cell(b, CELL_ABS, 0, s->cptr, &vin[k]);
                } else {
                    if (null_cell == V2_NONE) {
                        st = new_cell(b, CELL_NULL, 0, NULL, &null_cell);
                    }
                    vin[k] = null_cell;
                }
            }
            for (int k = 0; k < e->n_out; ++k) {
                vout[k] = cell_of(b, cn->out_t[e->out_index[k]]);
            }
            if (st != OA_OK) {
                break;
            }
            if (try_fold(b, cn, e, vin, vout)) {
                continue;
            }
            if (e->ws > p->ws) {
                p->ws = e->ws;
            }
            atomic_fetch_add_explicit(&e->refs, 1, memory_order_relaxed);
            p->entries[p->n_entries++] = e;
            /* the kernel's record lists inputs then outputs as separate value arrays */
            st = add_record(b, oa_prog_task_kernel, e->op, 0, cn->node->name, NULL, vin, (uint32_t)e->n_in, vout,
                            (uint32_t)e->n_out);
            offer_in_place(b, e, vin, vout);
            continue;
        }
        /* control flow: one cell per IR input slot, then per output */
        pl_cf *cf = &p->cfs[p->n_cfs++];
        cf->cn = cn;
        cf->n_in = cn->n_in;
        cf->n_out = cn->n_out;
        cf->in_desc = calloc(cn->n_in + 1, sizeof(*cf->in_desc));
        cf->out_desc = calloc(cn->n_out + 1, sizeof(*cf->out_desc));
        if (cf->in_desc == NULL || cf->out_desc == NULL) {
            st = OA_FAIL(OA_E_NOMEM, "plan control record");
            break;
        }
        for (uint32_t k = 0; k < cn->n_in && st == OA_OK; ++k) {
            if (cn->in_t[k] == V2_NONE) {
                oa_desc_init_invalid(&cf->in_desc[k]);
                if (null_cell == V2_NONE) {
                    st = new_cell(b, CELL_NULL, 0, NULL, &null_cell);
                }
                vin[k] = null_cell;
            } else {
                cf->in_desc[k] = x->tensors[cn->in_t[k]].desc;
                cf->in_desc[k].value = NULL;
                vin[k] = cell_of(b, cn->in_t[k]);
            }
        }
        for (uint32_t k = 0; k < cn->n_out; ++k) {
            cf->out_desc[k] = x->tensors[cn->out_t[k]].desc;
            cf->out_desc[k].value = NULL;
            vout[k] = cell_of(b, cn->out_t[k]);
        }
        if (st == OA_OK) {
            st = add_record(b, task_plan_cf, NULL, 0, cn->node->name, cf, vin, cn->n_in, vout, cn->n_out);
        }
    }
    /* outputs not produced in place are copied into their slot */
    for (uint32_t k = 0; k < g->n_out && st == OA_OK; ++k) {
        const uint32_t src = cell_of(b, g->out_t[k]);
        if (src == p->out_cell[k]) {
            continue;
        }
        st = add_record(b, oa_prog_task_copy, NULL, p->out_bytes[k], "PlanCopy", NULL, &src, 1, &p->out_cell[k], 1);
    }
    (void)pr;
    free(vin);
    free(vout);
    return st;
}

/* Builds a plan of g from x's last dynamic run of g (descs and operators still in x). */
static oa_status plan_build(v2_exec *x, const v2_gprog *g, const sig *s, uint64_t h, v2_plan **out)
{
    *out = NULL;
    const v2_program *pr = &x->model->prog;
    v2_plan *p = calloc(1, sizeof(*p));
    if (p == NULL) {
        return OA_FAIL(OA_E_NOMEM, "plan");
    }
    atomic_init(&p->refs, 1);
    p->g = g;
    p->hash = h;
    p->key_len = s->n;
    p->key = malloc(s->n ? s->n : 1);
    if (p->key == NULL) {
        free(p);
        return OA_FAIL(OA_E_NOMEM, "plan");
    }
    memcpy(p->key, s->buf, s->n);
    if (g->has_while) {
        atomic_store(&p->unplannable, true);
        *out = p;
        return OA_OK;
    }
    builder b = {.x = x, .g = g, .p = p};
    /* this graph's tensors occupy one id range (the lowering numbers them graph by graph) */
    uint32_t lo = UINT32_MAX, hi = 0;
    for (uint32_t t = 0; t < pr->n_tensors; ++t) {
        if (pr->tensors[t].graph == g->index) {
            lo = t < lo ? t : lo;
            hi = t > hi ? t : hi;
        }
    }
    oa_status st = OA_OK;
    if (lo == UINT32_MAX) {
        lo = hi = 0;
    }
    b.t_base = lo;
    b.t_count = hi - lo + 1;
    b.cell_of = malloc((size_t)b.t_count * sizeof(uint32_t));
    if (b.cell_of == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "plan builder");
    } else {
        for (uint32_t i = 0; i < b.t_count; ++i) {
            b.cell_of[i] = V2_NONE;
        }
    }
    if (st == OA_OK) {
        st = place_tensors(&b);
    }
    if (st == OA_OK) {
        st = place_shape_values(&b);
    }
    if (st == OA_OK) {
        st = build_records(&b);
    }
    if (st == OA_OK) {
        size_t *offs = malloc((b.n_pv + 1) * sizeof(size_t));
        for (size_t i = 0; i < b.n_pv; ++i) {
            /* a value nobody touched still gets a place (it is never read) */
            if (b.pv[i].first_use < 0) {
                b.pv[i].first_use = b.pv[i].last_use = 0;
            }
        }
        if (offs == NULL) {
            st = OA_FAIL(OA_E_NOMEM, "plan offsets");
        } else {
            oa_plan_stats ps;
            st = oa_planner_plan(b.pv, b.n_pv, OA_PLANNER_ALIGN, offs, &p->block_size, &ps);
            if (st == OA_OK) {
                atomic_fetch_add_explicit(&x->model->stats.plan_inplace, ps.num_inplace, memory_order_relaxed);
            }
        }
        for (size_t i = 0; i < b.n_pv && st == OA_OK; ++i) {
            b.cells[b.pv_cell[i]].off = offs[i];
        }
        free(offs);
    }
    if (st == OA_OK) {
        st = emit_program(&b);
    }
    free(b.cells); /* the program's references hold what the cells said */
    free(b.cell_of);
    free(b.pv);
    free(b.pv_cell);
    free(b.pv_of_cell);
    free(b.recs);
    free(b.rec_cells);
    if (st != OA_OK) {
        plan_destroy(p);
        return st;
    }
    *out = p;
    return OA_OK;
}

/* ---- running plans ---- */

/* OPENACL_V2_PROFILE: the time of each record under its node name and record type. */
static oa_status observe_plan(oa_prog_exec *e, size_t i)
{
    static const char k_launch[] = "PlanLaunch", k_copy[] = "PlanCopy", k_control[] = "PlanControl";
    const oa_prog_task *t = &e->p->tasks[i];
    v2_exec *x = e->owner;
    const uint64_t t0 = oa_now_ns();
    const oa_status st = t->fn(t, e);
    if (st == OA_OK) {
        const char *type = t->fn == oa_prog_task_kernel ? k_launch : t->fn == oa_prog_task_copy ? k_copy : k_control;
        oa_v2_profile_add(x->model, t->name, type, oa_now_ns() - t0);
    }
    return st;
}

/* Untimed first runs of a plan before its thread choice is measured (as model_v1's runs). */
#define V2_PLAN_THREADS_WARM OA_KTHREADS_OP_RUNS

/*
 * Patches the input and output cells and runs. ins/outs: the pointers per
 * input / output slot. With the stream's external allocator in use, the
 * block of this execution comes from it and goes back right after.
 */
/*
 * The block a run of pi binds. A top-level run on the caching allocator takes the executor's plan arena, grown to
 * the largest plan seen: every input shape's plan then runs in memory that earlier runs already faulted in (a new
 * shape's own block cost PP-OCRv4 det 8000 page faults, 20 ms, on its first planned run). A branch's plan runs
 * inside its owner's, so it keeps a block of its own (created on first use); so does an instance whose blocks
 * come from capture's allocator (created with the instance, inst_get).
 */
static void bind_to(v2_plan_inst *pi, const oa_v2_block *block)
{
    const void *addr = block != NULL ? block->addr : NULL;
    if (!pi->is_bound || pi->bound != addr) {
        bind_block(pi, block);
        pi->bound = addr;
        pi->is_bound = true;
    }
}

static oa_status inst_bind(v2_exec *x, v2_plan_inst *pi, bool top)
{
    const v2_plan *p = pi->plan;
    if (p->block_size == 0) {
        bind_to(pi, NULL);
        return OA_OK;
    }
    oa_v2_allocator *ca = x->plan_alloc != NULL ? x->plan_alloc : oa_v2_caching_base(x->caching);
    if (top && x->plan_alloc == NULL) {
        if (x->plan_arena == NULL || x->plan_arena->size < p->block_size) {
            oa_v2_block *b = ca->alloc(ca, p->block_size);
            if (b == NULL) {
                return OA_E_GE_MEMORY_ALLOCATION;
            }
            V2_STAT(x->model, plan_blocks);
            if (x->plan_arena != NULL && oa_v2_caching_release_now(x->caching, x->plan_arena)) {
                V2_STAT(x->model, returned_chunks); /* outgrown: its pages leave the process, not the cache */
            }
            x->plan_arena = b;
        }
        bind_to(pi, x->plan_arena);
        return OA_OK;
    }
    if (pi->block == NULL) {
        if ((pi->block = ca->alloc(ca, p->block_size)) == NULL) {
            return OA_E_GE_MEMORY_ALLOCATION;
        }
        V2_STAT(x->model, plan_blocks);
    }
    bind_to(pi, pi->block);
    return OA_OK;
}

static uint32_t plan_run(v2_exec *x, v2_plan *p, void *const *ins, void *const *outs, bool top)
{
    v2_plan_inst *pi = NULL;
    oa_status st = inst_get(x, p, &pi);
    if (st != OA_OK) {
        return (uint32_t)st;
    }
    oa_v2_block *ext = NULL;
    if (x->alloc != oa_v2_caching_base(x->caching) && p->block_size > 0) {
        ext = x->alloc->alloc(x->alloc, p->block_size);
        if (ext == NULL) {
            return (uint32_t)OA_E_GE_MEMORY_ALLOCATION;
        }
        bind_to(pi, ext);
    } else if ((st = inst_bind(x, pi, top)) != OA_OK) {
        return (uint32_t)st;
    }
    oa_prog_patch(&p->prog, pi->ptrs, ins, outs);
    pi->in_use++;
    /* whole runs on the calling thread when that is faster, as the static executor decides (docs/runtime.md
     * "Threads per operator"): a small model's operators each keep one thread, but a pooled one still leaves
     * its output in the other core's cache */
    int timed = -1;
    oa_threadpool *pool = oa_kthreads_pick(&p->thr, x->pool, V2_PLAN_THREADS_WARM, &timed);
    const uint64_t t0 = timed >= 0 ? oa_now_ns() : 0;
    oa_prog_exec e = {.p = &p->prog, .ptrs = pi->ptrs, .ws = x->ws, .pool = pool, .owner = x};
    if (x->model->profile != NULL) {
        e.observe = observe_plan;
    }
    st = oa_prog_run(&e, 0, p->prog.n_main);
    if (timed >= 0 && st == OA_OK &&
        oa_kthreads_learn(&p->thr, V2_PLAN_THREADS_WARM, timed, oa_now_ns() - t0, 0) != OA_KTHREADS_LEARNING) {
        OA_LOGI("[Run][Threads] the plan runs %s (fastest run %.1f us on the calling thread, %.1f us with the pool)",
                atomic_load(&p->thr.choice) == OA_KTHREADS_CALLER ? "on the calling thread alone" : "with the pool",
                (double)atomic_load(&p->thr.best[1]) / 1e3, (double)atomic_load(&p->thr.best[0]) / 1e3);
    }
    pi->in_use--;
    if (ext != NULL) {
        oa_v2_block_release(ext);
    }
    return (uint32_t)st;
}

static bool same_desc(const oa_tensor_desc *a, const oa_tensor_desc *b)
{
    return a->dtype == b->dtype && oa_shape_equal(&a->shape, &b->shape);
}

/* A branch inside a plan: its own plan, or its dynamic path once (which records that plan). */
static uint32_t run_child_planned(v2_exec *x, const pl_cf *cf, const v2_gprog *child, void *const *ins,
                                  void *const *outs)
{
    const oa_tensor_desc *descs_stack[32];
    void *in_ptrs_stack[32];
    void *out_ptrs_stack[32];
    const oa_tensor_desc **descs = descs_stack;
    void **in_ptrs = in_ptrs_stack, **out_ptrs = out_ptrs_stack;
    if (child->n_binds > 32 || cf->n_out > 32) {
        descs = malloc((child->n_binds + 1) * sizeof(*descs));
        in_ptrs = malloc((child->n_binds + 1) * sizeof(*in_ptrs));
        out_ptrs = malloc((cf->n_out + 1) * sizeof(*out_ptrs));
        if (descs == NULL || in_ptrs == NULL || out_ptrs == NULL) {
            free(descs);
            free(in_ptrs);
            free(out_ptrs);
            return (uint32_t)OA_FAIL(OA_E_NOMEM, "branch arguments");
        }
    }
    uint32_t rc = 0;
    if (child->n_out != cf->n_out) {
        rc = (uint32_t)OA_FAIL(OA_E_GE_PARAM, "node %s: subgraph %s has %u outputs, the node %u", cf->cn->node->name,
                               child->name, child->n_out, cf->n_out);
    }
    for (uint32_t b = 0; b < child->n_binds && rc == 0; ++b) {
        const uint32_t ps = child->binds[b].parent_index;
        if (ps >= cf->n_in || cf->in_desc[ps].dtype == OA_DT_UNDEFINED) {
            rc = (uint32_t)OA_FAIL(OA_E_GE_PARAM, "node %s: subgraph %s reads input %u, which is not given",
                                   cf->cn->node->name, child->name, ps);
            break;
        }
        descs[b] = &cf->in_desc[ps];
        in_ptrs[b] = ins[ps];
    }
    for (uint32_t k = 0; k < cf->n_out && rc == 0; ++k) {
        out_ptrs[k] = outs[k];
    }
    if (rc == 0) {
        sig s;
        graph_sig(child, descs, &s);
        const uint64_t h = sig_hash(&s);
        v2_plan *p = s.overflow ? NULL : cache_find(x->model, (v2_gprog *)(uintptr_t)child, &s, h);
        if (p != NULL && !atomic_load(&p->unplannable)) {
            for (uint32_t k = 0; k < cf->n_out && rc == 0; ++k) {
                if (!same_desc(&p->out_desc[k], &cf->out_desc[k])) {
                    rc = REPLAN;
                }
            }
            if (rc == 0) {
                rc = plan_run(x, p, in_ptrs, out_ptrs, false);
            }
            plan_release(p);
        } else {
            /* the branch's dynamic path, bound to the plan's buffers */
            const bool saved_dd = x->data_dependent;
            x->data_dependent = false;
            for (uint32_t b = 0; b < child->n_binds; ++b) {
                v2_tensor *t = &x->tensors[child->binds[b].tensor];
                oa_v2_tensor_drop(t);
                t->desc = *descs[b];
                t->data = in_ptrs[b];
            }
            oa_status st = oa_v2_run_graph(x, child);
            for (uint32_t k = 0; k < cf->n_out && st == OA_OK; ++k) {
                const v2_tensor *t = &x->tensors[child->out_t[k]];
                if (!same_desc(&t->desc, &cf->out_desc[k])) {
                    rc = REPLAN;
                    break;
                }
                if (t->data != out_ptrs[k]) {
                    size_t bytes = 0;
                    if (oa_v2_desc_bytes(&t->desc, &bytes) && bytes > 0) {
                        memmove(out_ptrs[k], t->data, bytes);
                    }
                }
            }
            if (st == OA_OK && rc == 0 && !x->data_dependent && p == NULL && !s.overflow) {
                v2_plan *np = NULL;
                if (plan_build(x, child, &s, h, &np) == OA_OK) {
                    V2_STAT(x->model, plans_recorded);
                    cache_insert((v2_gprog *)(uintptr_t)child, np);
                }
            }
            for (uint32_t k = 0; k < child->n_out; ++k) {
                oa_v2_tensor_drop(&x->tensors[child->out_t[k]]);
            }
            x->data_dependent = saved_dd;
            if (rc == 0) {
                rc = (uint32_t)st;
            }
            plan_release(p);
        }
    }
    if (descs != descs_stack) {
        free(descs);
        free(in_ptrs);
        free(out_ptrs);
    }
    return rc;
}

/* ---- the root ---- */

static void root_sig(v2_exec *x, sig *s)
{
    const v2_gprog *g = x->model->prog.graphs[0];
    const oa_tensor_desc *descs_stack[64] = {NULL};
    const oa_tensor_desc **descs = descs_stack;
    if (g->n_binds > 64) {
        descs = malloc(g->n_binds * sizeof(*descs));
        if (descs == NULL) {
            s->overflow = true;
            return;
        }
    }
    for (uint32_t b = 0; b < g->n_binds; ++b) {
        descs[b] = &x->tensors[g->binds[b].tensor].desc;
    }
    graph_sig(g, descs, s);
    if (descs != descs_stack) {
        free(descs);
    }
}

v2_plan_result oa_v2_plan_try_root(v2_exec *x, oa_status *st)
{
    v2_model *m = x->model;
    v2_gprog *g = m->prog.graphs[0];
    sig s;
    root_sig(x, &s);
    if (s.overflow) {
        return V2_PLAN_NONE;
    }
    const uint64_t h = sig_hash(&s);
    v2_plan *p = cache_find(m, g, &s, h);
    if (p == NULL) {
        return V2_PLAN_NONE;
    }
    if (atomic_load(&p->unplannable)) {
        plan_release(p);
        return V2_PLAN_NONE;
    }
    void *ins_stack[32], *outs_stack[32];
    void **ins = ins_stack, **outs = outs_stack;
    if (g->n_binds > 32 || p->n_out > 32) {
        ins = malloc((g->n_binds + 1) * sizeof(*ins));
        outs = malloc((p->n_out + 1) * sizeof(*outs));
        if (ins == NULL || outs == NULL) {
            free(ins);
            free(outs);
            plan_release(p);
            return V2_PLAN_NONE;
        }
    }
    v2_plan_result res = V2_PLAN_RAN;
    *st = OA_OK;
    for (uint32_t b = 0; b < g->n_binds; ++b) {
        ins[b] = x->tensors[g->binds[b].tensor].data;
    }
    bool allocated[64] = {false};
    for (uint32_t k = 0; k < p->n_out && *st == OA_OK && res == V2_PLAN_RAN; ++k) {
        aclDataBuffer *buf = oa_mdl_dataset_buffer(x->output, k);
        if (buf->data == NULL) {
            if (x->async) {
                *st = OA_FAIL(OA_E_PARAM, "output %u has no memory: asynchronous execution does not allocate outputs",
                              k);
                break;
            }
            if (k >= 64) {
                res = V2_PLAN_NONE; /* the dynamic path handles it */
                break;
            }
            void *mem = NULL;
            if (p->out_bytes[k] > 0) {
                if (aclrtMalloc(&mem, p->out_bytes[k], ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
                    *st = OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "output %u: cannot allocate %zu bytes", k,
                                  p->out_bytes[k]);
                    break;
                }
            }
            buf->data = mem;
            buf->length = p->out_bytes[k];
            allocated[k] = true;
        } else if (buf->length < p->out_bytes[k]) {
            *st = OA_FAIL(OA_E_PARAM, "output %u: the buffer holds %llu bytes, the result needs %zu", k,
                          (unsigned long long)buf->length, p->out_bytes[k]);
            break;
        }
        outs[k] = buf->data != NULL ? buf->data : g_zero;
        /* an output buffer that is also an input buffer: the dynamic path copies at the end */
        for (uint32_t b = 0; b < g->n_binds; ++b) {
            if (ins[b] != NULL && ins[b] == buf->data) {
                res = V2_PLAN_NONE;
            }
        }
    }
    if (*st == OA_OK && res == V2_PLAN_RAN) {
        V2_STAT(m, plan_runs);
        const uint32_t rc = plan_run(x, p, ins, outs, true);
        if (rc == REPLAN) {
            atomic_store(&p->unplannable, true); /* a branch changed the shapes: this signature stays dynamic */
            res = V2_PLAN_NONE;
        } else {
            *st = (oa_status)rc;
        }
    }
    if (*st == OA_OK && res == V2_PLAN_RAN) {
        for (uint32_t k = 0; k < p->n_out && *st == OA_OK; ++k) {
            aclmdlDataset *ds = x->output;
            const oa_tensor_desc *d = &p->out_desc[k];
            *st = oa_v2_set_output_desc(ds, k, d);
        }
    }
    if (res != V2_PLAN_RAN || *st != OA_OK) {
        for (uint32_t k = 0; k < p->n_out && k < 64; ++k) {
            if (allocated[k]) {
                aclDataBuffer *buf = oa_mdl_dataset_buffer(x->output, k);
                (void)aclrtFree(buf->data);
                buf->data = NULL;
                buf->length = 0;
            }
        }
    }
    if (ins != ins_stack) {
        free(ins);
        free(outs);
    }
    plan_release(p);
    return res;
}

void oa_v2_plan_record_root(v2_exec *x)
{
    v2_model *m = x->model;
    v2_gprog *g = m->prog.graphs[0];
    sig s;
    root_sig(x, &s);
    if (s.overflow) {
        return;
    }
    const uint64_t h = sig_hash(&s);
    v2_plan *old = cache_find(m, g, &s, h);
    if (old != NULL) {
        plan_release(old);
        return;
    }
    v2_plan *p = NULL;
    if (plan_build(x, g, &s, h, &p) != OA_OK) {
        OA_LOGW("model %u: no plan for these input shapes; they keep running on the dynamic path", m->m->id);
        return;
    }
    V2_STAT(m, plans_recorded);
    cache_insert(g, p);
}

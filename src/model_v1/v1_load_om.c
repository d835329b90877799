/*
 * Loading an .om into the V1 executor (GE's DavinciModel::Init order,
 * reduced to what a CPU needs):
 *   1. the caller's memory is checked before anything is built: weight
 *      memory smaller than the model's weights, or work memory smaller than
 *      memory_size - zero_copy_memory_size, is ACL_ERROR_GE_PARAM_INVALID;
 *   2. the opened model becomes a graph IR with its plan (om_ir.h);
 *   3. weights: copied into the caller's weight memory when given (GE copies
 *      at every load), else used in place from the mapped file when the
 *      partition is 64-byte aligned there (always in our atc's output, see
 *      src/om/README.md "Weights alignment"), else (memory loads: the image
 *      is the caller's; or a misaligned partition from another producer)
 *      copied into a block of ours; every constant of the graph is
 *      re-pointed there before the kernels read it;
 *   4. the program: kernels created once (weights packed), plan offsets
 *      checked, one workspace; when the mapped file is used in place, the
 *      pages of each packed constant leave the process as soon as its
 *      kernel is created, and after the build every page of the image
 *      except those read in place at run (peak RSS ~ packed weights);
 *   5. the first execution context on the work memory (the caller's, or
 *      memory_size bytes of ours, as GE allocates).
 * The graph is dropped at the end; the model keeps only the program, the
 * weight memory it points into and the feature map. Each step is a named
 * phase below (load_preflight, load_graph, load_place_weights,
 * load_constants, load_program, load_check_memory_bound) over one v1_load
 * state; load_abandon undoes whatever a failed load built.
 */
#define OA_LOG_MODULE "GE"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "acl/acl_rt.h"
#include "acl_mdl/om_reader.h"
#include "base/error.h"
#include "base/log.h"
#include "base/pages.h"
#include "base/util.h"
#include "file_constant/file_constant.h"
#include "model_v1/v1_model.h"
#include "om/om_model.h"
#include "om_ir/om_ir.h"

/* Constants read at run up to this size are copied out of the image (run_const). */
#define V1_RUN_CONST_COPY_MAX ((size_t)256 << 10)

typedef struct load_ctx {
    const oa_om_graph_info *gi;
    oa_fc_set *fc;      /* external weights (FileConstant), NULL when none */
    oa_blob *keep;      /* the image (mapped file), when the model reads constants from it */
    void **owned;       /* memory handed to the model (our weight copy, realigned constants) */
    size_t n_owned, cap_owned;
    /* our read-only mapping of the .om while constants are read from it: the pages of those the
     * kernels packed are released as they go (pending: the kernel being created; at_run: read in place at run) */
    const char *img;
    size_t img_size;
    oa_page_range *pending, *at_run;
    size_t n_pending, cap_pending, n_at_run, cap_at_run;
} load_ctx;

static bool in_image(const load_ctx *lc, const void *p, size_t n)
{
    const char *c = p;
    return lc->img != NULL && c >= lc->img && n <= lc->img_size && (size_t)(c - lc->img) <= lc->img_size - n;
}

/* Best effort: a span not recorded is only a page not released (pending) or re-read at run (at_run). */
static void push_span(oa_page_range **a, size_t *n, size_t *cap, const void *p, size_t len)
{
    if (*n == *cap) {
        const size_t c = *cap ? *cap * 2 : 16;
        oa_page_range *r = realloc(*a, c * sizeof(*r));
        if (r == NULL) {
            return;
        }
        *a = r;
        *cap = c;
    }
    (*a)[(*n)++] = (oa_page_range){p, len};
}

static bool plan_of(void *ctx, const oa_node *n, oa_v1_node_mem *m)
{
    const load_ctx *lc = ctx;
    const oa_om_node_mem *om = lc->gi->plan.node_mem(lc->gi->plan.ctx, n);
    if (om == NULL) {
        return false;
    }
    m->out = om->output_offsets;
    m->n_out = om->n_output;
    m->in = om->input_offsets;
    m->n_in = om->n_input;
    return true;
}

/* Constants were relocated before the build: their bytes live as long as the model. */
static const void *const_of(void *ctx, const oa_tensor *t)
{
    load_ctx *lc = ctx;
    if (in_image(lc, t->data, t->size)) {
        push_span(&lc->pending, &lc->n_pending, &lc->cap_pending, t->data, t->size);
    }
    return t->data;
}

/*
 * Every constant lives as long as the model (relocated above, or external
 * weights kept by the set), so a kernel may read any of them at run; the
 * external ones it reads are marked so that settling keeps their pages.
 */
static bool in_place(void *ctx, const void *p, size_t n)
{
    load_ctx *lc = ctx;
    if (lc->fc != NULL && oa_fc_set_holds(lc->fc, p, n)) {
        oa_fc_set_mark_in_place(lc->fc, p, n);
    }
    if (in_image(lc, p, n) && n > V1_RUN_CONST_COPY_MAX) { /* a small one is copied (run_const) */
        push_span(&lc->at_run, &lc->n_at_run, &lc->cap_at_run, p, n);
    }
    return true;
}

/* Whether bytes [p, p + n) overlap a constant registered to be read in place at run (at_run). */
static bool read_at_run(const load_ctx *lc, const void *p, size_t n)
{
    const char *c = p;
    for (size_t k = 0; k < lc->n_at_run; k++) {
        if (lc->at_run[k].p < c + n && c < lc->at_run[k].p + lc->at_run[k].len) {
            return true;
        }
    }
    return false;
}

/* The whole pages inside [p, p + len) leave the process unless a kernel reads them at run. */
static void drop_whole_pages(const load_ctx *lc, const void *p, size_t len)
{
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    const uintptr_t lo = ((uintptr_t)p + page - 1) & ~(page - 1);
    const uintptr_t hi = ((uintptr_t)p + len) & ~(page - 1); /* neighbours' pages stay */
    if (!read_at_run(lc, p, len) && hi > lo) {
        oa_page_range whole = {(const char *)lo, (size_t)(hi - lo)};
        oa_page_ranges_drop(&whole, 1);
    }
}

/*
 * The kernel just created has packed its constants: the whole pages of
 * those not read in place leave the process (they stay in the page cache;
 * a constant shared with a later kernel is read from there again), so the
 * load's peak RSS is the packed copies, not the packed copies plus the
 * mapped weights.
 */
static void kernel_created(void *ctx)
{
    load_ctx *lc = ctx;
    for (size_t i = 0; i < lc->n_pending; i++) {
        drop_whole_pages(lc, lc->pending[i].p, lc->pending[i].len);
    }
    lc->n_pending = 0;
}

/* A part of a constant the kernel being created has packed (oa_kconst_consumed): its pages go now, while
 * the kernel packs the rest (docs/memory.md "Packing and the load's peak"). */
static void const_consumed(void *ctx, const void *p, size_t n)
{
    const load_ctx *lc = ctx;
    if (in_image(lc, p, n)) {
        drop_whole_pages(lc, p, n);
    }
}

/*
 * After the build: every page of the image leaves the process but those of
 * constants read in place at run, which are mapped ahead of the first run
 * (as external weights are: $OPENACL_WEIGHT_PREFAULT, default in the
 * background; the prefault returned must be stopped before the image goes).
 */
static oa_prefault *release_image(load_ctx *lc, bool built)
{
    oa_prefault *pf = NULL;
    if (lc->img != NULL) {
        const size_t n = oa_page_ranges_merge(lc->at_run, lc->n_at_run);
        oa_pages_drop_except(lc->img, lc->img_size, lc->at_run, n);
        const oa_fc_prefault mode = oa_fc_prefault_from_env(OA_FC_PREFAULT_ASYNC);
        if (built && mode != OA_FC_PREFAULT_NONE) {
            pf = oa_prefault_start(lc->at_run, n, mode == OA_FC_PREFAULT_ASYNC);
        }
    }
    free(lc->pending);
    free(lc->at_run);
    lc->pending = lc->at_run = NULL;
    lc->n_pending = lc->n_at_run = lc->cap_pending = lc->cap_at_run = 0;
    lc->img = NULL;
    return pf;
}

static void *own(load_ctx *lc, size_t size)
{
    if (lc->n_owned == lc->cap_owned) {
        const size_t cap = lc->cap_owned ? lc->cap_owned * 2 : 16;
        void **o = realloc(lc->owned, cap * sizeof(*o));
        if (o == NULL) {
            return NULL;
        }
        lc->owned = o;
        lc->cap_owned = cap;
    }
    void *m = aligned_alloc(64, (size + 63) & ~(size_t)63);
    if (m != NULL) {
        lc->owned[lc->n_owned++] = m;
    }
    return m;
}

static void drop_owned(load_ctx *lc)
{
    for (size_t i = 0; i < lc->n_owned; i++) {
        free(lc->owned[i]);
    }
    free(lc->owned);
    lc->owned = NULL;
    lc->n_owned = lc->cap_owned = 0;
}

/*
 * A constant a kernel reads at run (it did not pack it): a small one in the
 * image is copied, since the image's pages leave the process after the build
 * and reading a few bytes of it at run maps back a whole folio of the page
 * cache, up to 2 MiB (PP-OCR rec's LayerNorm parameters, 5 KiB, kept 2.5 MiB
 * of the .om resident). Large ones and those read in place (at_run) stay
 * where they are: they are the weights meant to be shared between processes.
 */
static const void *run_const(void *ctx, const void *p, size_t n)
{
    load_ctx *lc = ctx;
    if (n > V1_RUN_CONST_COPY_MAX || !in_image(lc, p, n)) {
        return p;
    }
    if (read_at_run(lc, p, n)) {
        return p;
    }
    void *m = own(lc, n);
    if (m == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "copy of a constant read at run (%zu bytes)", n);
        return NULL;
    }
    memcpy(m, p, n);
    return m;
}

/*
 * Points every constant of g (and its subgraphs) at memory that lives as long
 * as the model and is 64-byte aligned: tensors in WEIGHTS_DATA move to
 * base + their offset (base: the caller's weight memory, our copy, or the
 * mapped partition itself when it is aligned); others stay where they are
 * when they are aligned and in the kept image, else they are copied: bytes
 * inline in the ModelDef always are: the graph's copies go with the graph
 * after the build (load_program). The kernels read these bytes at create
 * (packing) and some at run time.
 */
static oa_status relocate_graph(load_ctx *lc, oa_graph *g, const uint8_t *part, size_t part_size, uint8_t *base,
                                oa_blob *base_blob)
{
    for (oa_node *n = oa_graph_first_node(g); n != NULL; n = n->next) {
        for (uint32_t k = 0; k < n->num_subgraphs; k++) {
            oa_status st = relocate_graph(lc, n->subgraphs[k].graph, part, part_size, base, base_blob);
            if (st != OA_OK) {
                return st;
            }
        }
        const oa_tensor *t = NULL;
        if ((n->type != OA_OP_CONST && n->type != OA_OP_CONSTANT) || !oa_attrs_get_tensor(&n->attrs, "value", &t) ||
            t->size == 0) {
            continue;
        }
        const uint8_t *d = t->data;
        const void *to = NULL;
        /* a constant at an offset its element type cannot be read from (a file's offset, not ours) is copied */
        const size_t al = oa_dtype_align(t->desc.dtype);
        if (part != NULL && d >= part && (size_t)(d - part) <= part_size && t->size <= part_size - (size_t)(d - part)) {
            to = base + (d - part);
            d = to;
        } else if (lc->keep != NULL && ((uintptr_t)d & 63u) == 0 && in_image(lc, d, t->size)) {
            continue; /* aligned, in the kept image (another table's weights) */
        }
        if (to == NULL || ((uintptr_t)to % al) != 0) {
            void *m = own(lc, t->size);
            if (m == NULL) {
                return OA_FAIL(OA_E_NOMEM, "constant %s (%zu bytes)", n->name, t->size);
            }
            memcpy(m, d, t->size);
            to = m;
        }
        if (to == t->data) {
            continue;
        }
        oa_tensor *nt = NULL;
        oa_status st = oa_graph_make_tensor_borrowed_ptr(g, t->desc.dtype, &t->desc.shape, base_blob, to, t->size, &nt);
        if (st == OA_OK) {
            nt->desc = t->desc;
            st = oa_node_set_tensor(n, "value", nt);
        }
        if (st != OA_OK) {
            return st;
        }
    }
    return OA_OK;
}

/*
 * memcpy from a read-only file mapping that drops the copied pages from the
 * process as it goes (MADV_DONTNEED on a private read-only file mapping:
 * a later read faults them in from the file again), so the weights are not
 * resident twice during the load (ResNet-50: ~100 MB less peak RSS).
 */
static void copy_from_mapping(uint8_t *dst, const uint8_t *src, size_t size)
{
    const size_t chunk = (size_t)8 << 20;
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (size_t off = 0; off < size; off += chunk) {
        const size_t n = size - off < chunk ? size - off : chunk;
        memcpy(dst + off, src + off, n);
        const uintptr_t lo = ((uintptr_t)(src + off) + page - 1) & ~(page - 1);
        const uintptr_t hi = (uintptr_t)(src + off + n) & ~(page - 1); /* whole pages inside the range */
        if (hi > lo) {
            (void)madvise((void *)lo, hi - lo, MADV_DONTNEED);
        }
    }
}

/* What the model keeps alive: the image blob (may be NULL), the external weights and the
 * prefault of the image's pages read in place (stopped first). */
typedef struct keeper {
    oa_blob *image;
    oa_fc_set *fc;
    oa_prefault *prefault;
} keeper;

static void keeper_release(void *ctx, const void *data, size_t size)
{
    (void)data;
    (void)size;
    keeper *k = ctx;
    oa_prefault_stop(k->prefault);
    oa_blob_release(k->image);
    oa_fc_set_destroy(k->fc);
    free(k);
}

/*
 * External weights (FileConstant, atc --external_weight=1|2; GE's
 * PreProcessFileConstants): resolved, checked and mapped read-only by
 * file_constant, then every FileConstant becomes a Const that borrows its
 * bytes in place (the application's device memory, or the mapped file). Runs
 * after the relocation, which would copy them.
 */
static oa_status load_file_constants(oa_graph *g, const oa_model_load_args *args, int32_t dev, oa_fc_set **fc)
{
    oa_fc_load_opts fo;
    oa_fc_load_opts_init(&fo, args->om_path, args->weight_dir, args->ext_weights, args->n_ext_weights, dev,
                         OA_FC_RT_V1);
    fo.prefault = oa_fc_prefault_from_env(OA_FC_PREFAULT_NONE); /* the kernels read them at create */
    oa_status st = oa_fc_load(g, &fo, fc);
    if (st == OA_OK && *fc != NULL) {
        st = oa_fc_set_to_consts(*fc, g);
    }
    return st;
}

static int64_t attr_i64(const oa_om_graph_info *gi, const char *name, int64_t dflt)
{
    int64_t v = dflt;
    return oa_attrs_get_int(&gi->model_attrs, name, &v) ? v : dflt;
}

/* State of one load while it goes through its phases (oa_v1_load_om). */
typedef struct v1_load {
    oa_model *m;
    const oa_model_load_args *args;
    int32_t dev;
    oa_om_model *om;        /* until the graph takes it over */
    const oa_om_partition *wp; /* WEIGHTS_DATA of table 0 */
    uint64_t weight_size;   /* every table's weights */
    bool om_mapped;         /* the image is our read-only mapping of the file */
    const char *img;
    size_t img_size;
    oa_graph *g;
    const oa_om_graph_info *gi;
    int64_t memory_size, zero_copy;
    uint64_t need;          /* memory_size - zero_copy: the caller's minimum work memory */
    load_ctx lc;
    uint8_t *base;          /* where the weights live for the model */
    const uint8_t *part;    /* WEIGHTS_DATA in the image */
    size_t part_size;
    bool mapped;            /* base is the mapped partition itself */
    oa_fc_set *fc;
    keeper *kp;
    oa_v1_program *prog;
    char graph_name[256];   /* the graph's name, kept after the graph is destroyed */
} v1_load;

/* Phase 1: what needs no graph: the opened model, no queues, the device, the caller's weight memory. */
static oa_status load_preflight(v1_load *L)
{
    oa_om_loaded *lo = L->args->om;
    if (lo == NULL || lo->model == NULL) {
        return OA_FAIL(OA_E_GE_LOAD_MODEL, "model %u: no opened .om model to load", L->m->id);
    }
    if (L->args->input_q != NULL || L->args->output_q != NULL) {
        return OA_FAIL(OA_E_NOT_SUPPORTED, "model %u: queue-fed models (aclmdlLoadFrom*WithQ) are not supported on "
                       "the CPU", L->m->id);
    }
    if (aclrtGetDevice(&L->dev) != ACL_SUCCESS) {
        L->dev = 0;
        oa_error_clear();
    }
    L->m->device_id = L->dev;
    L->om = lo->model;
    L->wp = L->om->num_models > 0 ? L->om->models[0].weights : NULL;
    for (uint32_t i = 0; i < L->om->num_models; i++) {
        if (L->om->models[i].weights != NULL) {
            L->weight_size += L->om->models[i].weights->size;
        }
    }
    if (L->args->weight_ptr != NULL && L->args->weight_size < L->weight_size) {
        return OA_FAIL(OA_E_GE_PARAM, "E13025: weight memory of %zu bytes is smaller than the model's weights (%llu "
                       "bytes), model %u", L->args->weight_size, (unsigned long long)L->weight_size, L->m->id);
    }
    L->om_mapped = L->om->image.map != NULL;
    L->img = L->om->image.map;
    L->img_size = L->om->image.map_size;
    return OA_OK;
}

/* Phase 2: the graph and its static plan; the caller's work memory against it. */
static oa_status load_graph(v1_load *L)
{
    ((oa_om_loaded *)L->args->om)->model = NULL; /* the graph takes the model over (and destroys it on failure) */
    oa_om_model *decoded = L->om; /* the graph's from here; its decoded part is freed below */
    oa_status st = oa_om_graph_from_model(L->om, 0, &L->g, &L->gi);
    L->om = NULL;
    if (st != OA_OK) {
        return st;
    }
    L->memory_size = L->gi->memory_size;
    L->zero_copy = attr_i64(L->gi, "zero_copy_memory_size", 0);
    if (L->gi->unknown_shape || L->memory_size <= 0) {
        return OA_FAIL(OA_E_GE_PARAM, "model %u has no static memory plan (memory_size %lld): it is not a static "
                       "model", L->m->id, (long long)L->memory_size);
    }
    if (L->zero_copy < 0 || L->zero_copy > L->memory_size) {
        return OA_FAIL(OA_E_GE_PARAM, "model %u: zero_copy_memory_size %lld is not within memory_size %lld", L->m->id,
                       (long long)L->zero_copy, (long long)L->memory_size);
    }
    /* the graph holds copies of everything decoded (inline constants, names, attrs) and borrows only the
     * image: the decoded ModelDef goes before the kernels pack (OCR cls: its 1.1 MiB of protobuf messages
     * were the load's peak; docs/memory.md "What a loaded model keeps") */
    oa_om_model_drop_decoded(decoded);
    L->need = (uint64_t)(L->memory_size - L->zero_copy);
    if (L->args->work_ptr != NULL && L->args->work_size < L->need) {
        return OA_FAIL(OA_E_GE_PARAM, "E13025: work memory of %zu bytes is smaller than the model needs (%llu bytes, "
                       "memory_size %lld minus zero-copy %lld), model %u", L->args->work_size,
                       (unsigned long long)L->need, (long long)L->memory_size, (long long)L->zero_copy, L->m->id);
    }
    L->lc.gi = L->gi;
    return OA_OK;
}

/*
 * Phase 3: where the weights live: GE copies them into the caller's weight
 * memory; a mapped file is used in place when its WEIGHTS_DATA happens to be
 * 64-byte aligned; else a copy of ours. Constants staying in the mapped image
 * keep it alive with the model.
 */
static oa_status load_place_weights(v1_load *L)
{
    const oa_model_load_args *args = L->args;
    if (L->wp != NULL && L->wp->size > 0) {
        L->part = L->wp->data;
        L->part_size = (size_t)L->wp->size;
        if (args->weight_ptr != NULL) {
            L->base = args->weight_ptr;
            memcpy(L->base, L->part, L->part_size);
        } else if (args->om_path != NULL && ((uintptr_t)L->part & 63u) == 0) {
            L->base = (uint8_t *)(uintptr_t)L->part;
        } else {
            L->base = own(&L->lc, L->part_size);
            if (L->base == NULL) {
                return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "weights of %zu bytes", L->part_size);
            }
            if (L->om_mapped) { /* our read-only mapping of the file (never the caller's memory) */
                copy_from_mapping(L->base, L->part, L->part_size);
            } else {
                memcpy(L->base, L->part, L->part_size);
            }
        }
    }
    L->mapped = L->base != NULL && L->base == L->part;
    if (args->om_path != NULL && (L->mapped || L->part == NULL)) {
        /* constants stay in the mapped image: keep it as long as the model */
        const oa_tensor *any = NULL;
        for (const oa_node *n = oa_graph_first_node(L->g); n != NULL && any == NULL; n = n->next) {
            const oa_tensor *t = NULL;
            if ((n->type == OA_OP_CONST || n->type == OA_OP_CONSTANT) && oa_attrs_get_tensor(&n->attrs, "value", &t) &&
                t->blob != NULL) {
                any = t;
            }
        }
        L->lc.keep = any != NULL ? oa_blob_retain(any->blob) : NULL;
        if (L->om_mapped && L->lc.keep != NULL) { /* the image lives on and is our read-only file mapping */
            L->lc.img = L->img;
            L->lc.img_size = L->img_size;
        }
    }
    return OA_OK;
}

/* Phase 4: every constant re-pointed at the weights' home, then the external weights (FileConstant). */
static oa_status load_constants(v1_load *L)
{
    oa_blob *base_blob = L->base != NULL ? oa_blob_create(L->base, L->part_size, NULL, NULL) : NULL;
    oa_status st = L->base != NULL && base_blob == NULL ? OA_E_NOMEM : OA_OK;
    if (st == OA_OK) {
        st = relocate_graph(&L->lc, L->g, L->part, L->part_size, L->base, base_blob);
    }
    oa_blob_release(base_blob); /* the graph holds its own references while it lives */
    if (st == OA_OK) {
        st = load_file_constants(L->g, L->args, L->dev, &L->fc);
    }
    L->lc.fc = L->fc;
    if (st == OA_OK && L->fc != NULL) {
        keeper *k = calloc(1, sizeof(*k));
        oa_blob *kb = k != NULL ? oa_blob_create(k, 0, keeper_release, k) : NULL;
        if (kb == NULL) {
            free(k);
            oa_fc_set_destroy(L->fc);
            L->fc = L->lc.fc = NULL;
            return OA_FAIL(OA_E_NOMEM, "model %u: external weights", L->m->id);
        }
        k->image = L->lc.keep;
        k->fc = L->fc;
        L->lc.keep = kb;
        L->kp = k;
    }
    return st;
}

/* Phase 5: the program; then the image's pages are released (and those read at run prefaulted). */
static oa_status load_program(v1_load *L)
{
    const oa_v1_source src = {
        .root = L->g,
        .memory_size = L->memory_size,
        .zero_copy_size = L->zero_copy,
        .node_mem = plan_of,
        .const_ptr = const_of,
        .read_in_place = in_place,
        .kernel_created = kernel_created,
        .const_consumed = const_consumed,
        .run_const = run_const,
        .ctx = &L->lc,
        .expect_inputs = L->m->info->n_inputs,
        .expect_outputs = L->m->info->n_outputs,
    };
    oa_status st = oa_v1_program_build(&src, &L->prog);
    /* the graph name survives the graph: dump matches models by it (docs/dump.md) */
    oa_strlcpy(L->graph_name, oa_graph_name(L->g) != NULL ? oa_graph_name(L->g) : "", sizeof L->graph_name);
    oa_graph_destroy(L->g); /* the image survives through lc.keep when constants point into it */
    L->g = NULL;
    oa_prefault *pf = release_image(&L->lc, st == OA_OK);
    if (pf != NULL && L->kp == NULL) {
        keeper *k = calloc(1, sizeof(*k));
        oa_blob *kb = k != NULL ? oa_blob_create(k, 0, keeper_release, k) : NULL;
        if (kb == NULL) {
            free(k);
        } else {
            k->image = L->lc.keep;
            L->lc.keep = kb;
            L->kp = k;
        }
    }
    if (L->kp != NULL) {
        L->kp->prefault = pf;
    } else {
        oa_prefault_stop(pf); /* no memory to keep it: wait for it here */
    }
    if (st == OA_OK && L->fc != NULL) {
        /* packed weights leave the process's pages, those read in place are mapped ahead of the first run */
        oa_fc_set_settle(L->fc, oa_fc_prefault_from_env(OA_FC_PREFAULT_ASYNC));
    }
    return st;
}

/*
 * Phase 6: the bound on what we allocate: our feature map is memory_size
 * bytes, and what the plan's tensors do not cover is taken on trust only up
 * to the load limit (docs/model_api.md, "Bounds the loader checks"). The
 * application's own work memory costs us nothing.
 */
static oa_status load_check_memory_bound(const v1_load *L)
{
    if (L->args->work_ptr != NULL) {
        return OA_OK;
    }
    const oa_v1_program *p = L->prog;
    const uint64_t slack = (p->zero_copy_off - OA_MIN(p->work_hi, p->zero_copy_off)) +
                           (p->memory_size - OA_MIN(p->io_hi, p->memory_size));
    const uint64_t limit = oa_load_limit_bytes();
    if (slack > limit) {
        return OA_FAIL(OA_E_GE_PARAM, "model %u: memory_size %lld is %llu bytes more than its tensors use (%llu in "
                       "the feature map, zero-copy IO up to %llu), above the load limit of %llu bytes "
                       "($OPENACL_LOAD_LIMIT_MB)", L->m->id, (long long)L->memory_size, (unsigned long long)slack,
                       (unsigned long long)p->work_hi, (unsigned long long)p->io_hi, (unsigned long long)limit);
    }
    return OA_OK;
}

/* Everything a failed load built, in reverse. */
static void load_abandon(v1_load *L)
{
    oa_v1_program_destroy(L->prog);
    oa_graph_destroy(L->g); /* takes the model with it */
    release_image(&L->lc, false);
    if (L->kp == NULL) {
        oa_fc_set_destroy(L->fc); /* a set that failed to become constants: no keeper holds it yet */
    }
    oa_blob_release(L->lc.keep); /* the keeper, when there is one, stops the prefault and drops fc */
    drop_owned(&L->lc);
}

oa_status oa_v1_load_om(oa_model *m, const oa_model_load_args *args)
{
    v1_load L = {.m = m, .args = args};
    oa_status st = load_preflight(&L);
    if (st != OA_OK) {
        return st;
    }
    if ((st = load_graph(&L)) != OA_OK || (st = load_place_weights(&L)) != OA_OK ||
        (st = load_constants(&L)) != OA_OK || (st = load_program(&L)) != OA_OK ||
        (st = load_check_memory_bound(&L)) != OA_OK) {
        load_abandon(&L);
        return st;
    }
    const uint64_t own_work = args->reuse_zero_copy ? L.need : 0;
    oa_v1_model *x = NULL;
    st = oa_v1_model_create(L.prog, args->work_ptr, args->work_size, own_work, L.lc.keep, L.lc.owned, L.lc.n_owned,
                            &x);
    if (st != OA_OK) {
        return st;
    }
    m->exec = x;
    oa_v1_model_set_names(x, args->om_path, L.graph_name);
    OA_LOGI("[Load][Model] model %u: memory_size %lld (zero-copy %lld, %s), weights %llu bytes (%s)", m->id,
            (long long)L.memory_size, (long long)L.zero_copy, args->work_ptr != NULL ? "caller's work memory" : "ours",
            (unsigned long long)L.weight_size,
            args->weight_ptr != NULL ? "copied into the caller's memory" : L.mapped ? "mapped" : "copied");
    return OA_OK;
}

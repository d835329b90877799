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
 * weight memory it points into and the feature map.
 */
#define OA_LOG_MODULE "GE"
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "acl/acl_rt.h"
#include "base/error.h"
#include "base/log.h"
#include "base/pages.h"
#include "base/util.h"
#include "file_constant/file_constant.h"
#include "model_v1/om_reader.h"
#include "model_v1/v1_model.h"
#include "om/om_ir.h"

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
    if (in_image(lc, p, n)) {
        push_span(&lc->at_run, &lc->n_at_run, &lc->cap_at_run, p, n);
    }
    return true;
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
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (size_t i = 0; i < lc->n_pending; i++) {
        const oa_page_range *r = &lc->pending[i];
        bool kept = false;
        for (size_t k = 0; k < lc->n_at_run && !kept; k++) {
            kept = lc->at_run[k].p < r->p + r->len && r->p < lc->at_run[k].p + lc->at_run[k].len;
        }
        const uintptr_t lo = ((uintptr_t)r->p + page - 1) & ~(page - 1);
        const uintptr_t hi = ((uintptr_t)r->p + r->len) & ~(page - 1); /* neighbours' pages stay */
        if (!kept && hi > lo) {
            oa_page_range whole = {(const char *)lo, (size_t)(hi - lo)};
            oa_page_ranges_drop(&whole, 1);
        }
    }
    lc->n_pending = 0;
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
 * Points every constant of g (and its subgraphs) at memory that lives as long
 * as the model and is 64-byte aligned: tensors in WEIGHTS_DATA move to
 * base + their offset (base: the caller's weight memory, our copy, or the
 * mapped partition itself when it is aligned); others (bytes inline in the
 * ModelDef) stay where they are when the image is kept and they are aligned,
 * else they are copied. The kernels read these bytes at create (packing)
 * and some at run time.
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
        if (part != NULL && d >= part && (size_t)(d - part) <= part_size && t->size <= part_size - (size_t)(d - part)) {
            to = base + (d - part);
        } else if (lc->keep != NULL && ((uintptr_t)d & 63u) == 0) {
            continue; /* inline, aligned, in the kept image */
        } else {
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
    oa_fc_load_opts_from_args(&fo, args, dev, OA_FC_RT_V1);
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

oa_status oa_v1_load_om(oa_model *m, const oa_model_load_args *args)
{
    oa_om_loaded *lo = args->om;
    if (lo == NULL || lo->model == NULL) {
        return OA_FAIL(OA_E_GE_LOAD_MODEL, "model %u: no opened .om model to load", m->id);
    }
    if (args->input_q != NULL || args->output_q != NULL) {
        return OA_FAIL(OA_E_NOT_SUPPORTED, "model %u: queue-fed models (aclmdlLoadFrom*WithQ) are not supported on "
                       "the CPU", m->id);
    }
    int32_t dev = 0;
    if (aclrtGetDevice(&dev) != ACL_SUCCESS) {
        dev = 0;
        oa_error_clear();
    }
    m->device_id = dev;
    oa_om_model *om = lo->model;
    const oa_om_partition *wp = om->num_models > 0 ? om->models[0].weights : NULL;
    uint64_t weight_size = 0;
    for (uint32_t i = 0; i < om->num_models; i++) {
        if (om->models[i].weights != NULL) {
            weight_size += om->models[i].weights->size;
        }
    }
    if (args->weight_ptr != NULL && args->weight_size < weight_size) {
        return OA_FAIL(OA_E_GE_PARAM, "E13025: weight memory of %zu bytes is smaller than the model's weights (%llu "
                       "bytes), model %u", args->weight_size, (unsigned long long)weight_size, m->id);
    }
    const bool om_mapped = om->image.map != NULL;
    const char *img = om->image.map;
    const size_t img_size = om->image.map_size;
    /* the graph takes the model over (and destroys it on failure) */
    lo->model = NULL;
    oa_graph *g = NULL;
    const oa_om_graph_info *gi = NULL;
    oa_status st = oa_om_graph_from_model(om, 0, &g, &gi);
    if (st != OA_OK) {
        return st;
    }
    const int64_t memory_size = gi->memory_size;
    const int64_t zero_copy = attr_i64(gi, "zero_copy_memory_size", 0);
    if (gi->unknown_shape || memory_size <= 0) {
        oa_graph_destroy(g);
        return OA_FAIL(OA_E_GE_PARAM, "model %u has no static memory plan (memory_size %lld): it is not a static "
                       "model", m->id, (long long)memory_size);
    }
    if (zero_copy < 0 || zero_copy > memory_size) {
        oa_graph_destroy(g);
        return OA_FAIL(OA_E_GE_PARAM, "model %u: zero_copy_memory_size %lld is not within memory_size %lld", m->id,
                       (long long)zero_copy, (long long)memory_size);
    }
    const uint64_t need = (uint64_t)(memory_size - zero_copy);
    if (args->work_ptr != NULL && args->work_size < need) {
        oa_graph_destroy(g);
        return OA_FAIL(OA_E_GE_PARAM, "E13025: work memory of %zu bytes is smaller than the model needs (%llu bytes, "
                       "memory_size %lld minus zero-copy %lld), model %u", args->work_size, (unsigned long long)need,
                       (long long)memory_size, (long long)zero_copy, m->id);
    }
    load_ctx lc = {.gi = gi};
    /* where the weights live: GE copies them into the caller's weight memory; a mapped file
     * is used in place when its WEIGHTS_DATA happens to be 64-byte aligned; else a copy */
    uint8_t *base = NULL;
    const uint8_t *part = NULL;
    size_t part_size = 0;
    if (wp != NULL && wp->size > 0) {
        part = wp->data;
        part_size = (size_t)wp->size;
        if (args->weight_ptr != NULL) {
            base = args->weight_ptr;
            memcpy(base, part, part_size);
        } else if (args->om_path != NULL && ((uintptr_t)part & 63u) == 0) {
            base = (uint8_t *)(uintptr_t)part;
        } else {
            base = own(&lc, part_size);
            if (base == NULL) {
                oa_graph_destroy(g);
                return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "weights of %zu bytes", part_size);
            }
            if (om_mapped) { /* our read-only mapping of the file (never the caller's memory) */
                copy_from_mapping(base, part, part_size);
            } else {
                memcpy(base, part, part_size);
            }
        }
    }
    const bool mapped = base != NULL && base == part;
    if (args->om_path != NULL && (mapped || part == NULL)) {
        /* constants stay in the mapped image: keep it as long as the model */
        const oa_tensor *any = NULL;
        for (const oa_node *n = oa_graph_first_node(g); n != NULL && any == NULL; n = n->next) {
            const oa_tensor *t = NULL;
            if ((n->type == OA_OP_CONST || n->type == OA_OP_CONSTANT) && oa_attrs_get_tensor(&n->attrs, "value", &t) &&
                t->blob != NULL) {
                any = t;
            }
        }
        lc.keep = any != NULL ? oa_blob_retain(any->blob) : NULL;
        if (om_mapped && lc.keep != NULL) { /* the image lives on and is our read-only file mapping */
            lc.img = img;
            lc.img_size = img_size;
        }
    }
    oa_blob *base_blob = base != NULL ? oa_blob_create(base, part_size, NULL, NULL) : NULL;
    st = base != NULL && base_blob == NULL ? OA_E_NOMEM : OA_OK;
    if (st == OA_OK) {
        st = relocate_graph(&lc, g, part, part_size, base, base_blob);
    }
    oa_blob_release(base_blob); /* the graph holds its own references while it lives */
    oa_fc_set *fc = NULL;
    if (st == OA_OK) {
        st = load_file_constants(g, args, dev, &fc);
    }
    lc.fc = fc;
    keeper *kp = NULL;
    if (st == OA_OK && fc != NULL) {
        keeper *k = calloc(1, sizeof(*k));
        oa_blob *kb = k != NULL ? oa_blob_create(k, 0, keeper_release, k) : NULL;
        if (kb == NULL) {
            free(k);
            oa_fc_set_destroy(fc);
            st = OA_FAIL(OA_E_NOMEM, "model %u: external weights", m->id);
        } else {
            k->image = lc.keep;
            k->fc = fc;
            lc.keep = kb;
            kp = k;
        }
    }
    if (st != OA_OK) {
        oa_graph_destroy(g);
        oa_blob_release(lc.keep);
        drop_owned(&lc);
        return st;
    }
    const oa_v1_source src = {
        .root = g,
        .memory_size = memory_size,
        .zero_copy_size = zero_copy,
        .node_mem = plan_of,
        .const_ptr = const_of,
        .read_in_place = in_place,
        .kernel_created = kernel_created,
        .ctx = &lc,
        .expect_inputs = m->info->n_inputs,
        .expect_outputs = m->info->n_outputs,
    };
    oa_v1_program *prog = NULL;
    st = oa_v1_program_build(&src, &prog);
    oa_graph_destroy(g); /* the image survives through lc.keep when constants point into it */
    oa_prefault *pf = release_image(&lc, st == OA_OK);
    if (pf != NULL && kp == NULL) {
        keeper *k = calloc(1, sizeof(*k));
        oa_blob *kb = k != NULL ? oa_blob_create(k, 0, keeper_release, k) : NULL;
        if (kb == NULL) {
            free(k);
        } else {
            k->image = lc.keep;
            lc.keep = kb;
            kp = k;
        }
    }
    if (kp != NULL) {
        kp->prefault = pf;
    } else {
        oa_prefault_stop(pf); /* no memory to keep it: wait for it here */
    }
    if (st == OA_OK && fc != NULL) {
        /* packed weights leave the process's pages, those read in place are mapped ahead of the first run */
        oa_fc_set_settle(fc, oa_fc_prefault_from_env(OA_FC_PREFAULT_ASYNC));
    }
    if (st != OA_OK) {
        oa_blob_release(lc.keep);
        drop_owned(&lc);
        return st;
    }
    if (args->work_ptr == NULL) {
        /* Our feature map is memory_size bytes: what the plan's tensors do not cover is taken on trust, up to
         * the load limit (docs/model_api.md, "Bounds the loader checks"). */
        const uint64_t slack = (prog->zero_copy_off - OA_MIN(prog->work_hi, prog->zero_copy_off)) +
                               (prog->memory_size - OA_MIN(prog->io_hi, prog->memory_size));
        const uint64_t limit = oa_load_limit_bytes();
        if (slack > limit) {
            st = OA_FAIL(OA_E_GE_PARAM, "model %u: memory_size %lld is %llu bytes more than its tensors use (%llu "
                         "in the feature map, zero-copy IO up to %llu), above the load limit of %llu bytes "
                         "($OPENACL_LOAD_LIMIT_MB)", m->id, (long long)memory_size, (unsigned long long)slack,
                         (unsigned long long)prog->work_hi, (unsigned long long)prog->io_hi,
                         (unsigned long long)limit);
            oa_v1_program_destroy(prog);
            oa_blob_release(lc.keep);
            drop_owned(&lc);
            return st;
        }
    }
    const uint64_t own_work = args->reuse_zero_copy ? need : 0;
    oa_v1_model *x = NULL;
    st = oa_v1_model_create(prog, args->work_ptr, args->work_size, own_work, lc.keep, lc.owned, lc.n_owned, &x);
    if (st != OA_OK) {
        return st;
    }
    m->exec = x;
    OA_LOGI("[Load][Model] model %u: memory_size %lld (zero-copy %lld, %s), weights %llu bytes (%s)", m->id,
            (long long)memory_size, (long long)zero_copy, args->work_ptr != NULL ? "caller's work memory" : "ours",
            (unsigned long long)weight_size,
            args->weight_ptr != NULL ? "copied into the caller's memory" : mapped ? "mapped" : "copied");
    return OA_OK;
}

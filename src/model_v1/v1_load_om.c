/*
 * Loading an .om into the V1 executor (GE's DavinciModel::Init order,
 * reduced to what a CPU needs):
 *   1. the caller's memory is checked before anything is built: weight
 *      memory smaller than the model's weights, or work memory smaller than
 *      memory_size - zero_copy_memory_size, is ACL_ERROR_GE_PARAM_INVALID;
 *   2. the opened model becomes a graph IR with its plan (om_ir.h);
 *   3. weights: copied into the caller's weight memory when given (GE copies
 *      at every load), else zero-copy from the mapped file, else (memory
 *      loads: the image is the caller's) copied into a block of ours;
 *   4. the program: kernels created once (weights packed), plan offsets
 *      checked, one workspace;
 *   5. the first execution context on the work memory (the caller's, or
 *      memory_size bytes of ours, as GE allocates).
 * The graph is dropped at the end; the model keeps only the program, the
 * weight memory it points into and the feature map.
 */
#define OA_LOG_MODULE "GE"
#include <stdlib.h>
#include <string.h>

#include "acl/acl_rt.h"
#include "base/error.h"
#include "base/log.h"
#include "model_v1/om_reader.h"
#include "model_v1/v1_model.h"
#include "om/om_ir.h"

typedef struct load_ctx {
    const oa_om_graph_info *gi;
    const uint8_t *part;   /* WEIGHTS_DATA as mapped/borrowed */
    size_t part_size;
    const uint8_t *base;   /* where the weights live for the model's life */
    bool keep_image;       /* everything the graph borrows stays valid (file loads, zero-copy) */
    void **owned;          /* constant copies handed to the model */
    size_t n_owned, cap_owned;
    oa_blob *blob;         /* the mapping, when kept */
} load_ctx;

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

static const void *const_of(void *ctx, const oa_tensor *t)
{
    load_ctx *lc = ctx;
    if (t->size == 0) {
        return NULL;
    }
    if (lc->blob == NULL && t->blob != NULL && lc->keep_image) {
        lc->blob = oa_blob_retain(t->blob);
    }
    const uint8_t *d = t->data;
    if (lc->part != NULL && d >= lc->part && (size_t)(d - lc->part) <= lc->part_size &&
        t->size <= lc->part_size - (size_t)(d - lc->part)) {
        return lc->base + (d - lc->part);
    }
    if (lc->keep_image) {
        return d;
    }
    /* a constant stored inline in the ModelDef, of an image we do not keep */
    if (lc->n_owned == lc->cap_owned) {
        const size_t cap = lc->cap_owned ? lc->cap_owned * 2 : 16;
        void **o = realloc(lc->owned, cap * sizeof(*o));
        if (o == NULL) {
            (void)OA_FAIL(OA_E_NOMEM, "constants");
            return NULL;
        }
        lc->owned = o;
        lc->cap_owned = cap;
    }
    void *m = malloc(t->size);
    if (m == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "constant of %zu bytes", t->size);
        return NULL;
    }
    memcpy(m, d, t->size);
    lc->owned[lc->n_owned++] = m;
    return m;
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
    void *own_weights = NULL;
    if (wp != NULL && wp->size > 0) {
        lc.part = wp->data;
        lc.part_size = (size_t)wp->size;
        if (args->weight_ptr != NULL) {
            memcpy(args->weight_ptr, wp->data, (size_t)wp->size);
            lc.base = args->weight_ptr;
        } else if (args->om_path != NULL) {
            lc.base = wp->data;
            lc.keep_image = true;
        } else {
            own_weights = aligned_alloc(64, ((size_t)wp->size + 63) & ~(size_t)63);
            if (own_weights == NULL) {
                oa_graph_destroy(g);
                return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "weights of %llu bytes", (unsigned long long)wp->size);
            }
            memcpy(own_weights, wp->data, (size_t)wp->size);
            lc.base = own_weights;
        }
    } else {
        lc.keep_image = args->om_path != NULL;
    }
    const oa_v1_source src = {
        .root = g,
        .memory_size = memory_size,
        .zero_copy_size = zero_copy,
        .node_mem = plan_of,
        .const_ptr = const_of,
        .ctx = &lc,
        .expect_inputs = m->info->n_inputs,
        .expect_outputs = m->info->n_outputs,
    };
    oa_v1_program *prog = NULL;
    st = oa_v1_program_build(&src, &prog);
    if (st == OA_OK && lc.keep_image && lc.blob == NULL) {
        lc.keep_image = false; /* nothing points into the image */
    }
    oa_graph_destroy(g); /* the model survives through lc.blob when the program points into it */
    if (st != OA_OK) {
        oa_blob_release(lc.blob);
        free(own_weights);
        for (size_t i = 0; i < lc.n_owned; i++) {
            free(lc.owned[i]);
        }
        free(lc.owned);
        return st;
    }
    if (own_weights != NULL) {
        void **o = realloc(lc.owned, (lc.n_owned + 1) * sizeof(*o));
        if (o == NULL) {
            oa_v1_program_destroy(prog);
            free(own_weights);
            for (size_t i = 0; i < lc.n_owned; i++) {
                free(lc.owned[i]);
            }
            free(lc.owned);
            return OA_FAIL(OA_E_NOMEM, "weights");
        }
        lc.owned = o;
        lc.owned[lc.n_owned++] = own_weights;
    }
    const uint64_t own_work = args->reuse_zero_copy ? need : 0;
    oa_v1_model *x = NULL;
    st = oa_v1_model_create(prog, args->work_ptr, args->work_size, own_work, lc.blob, lc.owned, lc.n_owned, &x);
    if (st != OA_OK) {
        return st;
    }
    m->exec = x;
    OA_LOGI("[Load][Model] model %u: memory_size %lld (zero-copy %lld, %s), weights %llu bytes (%s)", m->id,
            (long long)memory_size, (long long)zero_copy, args->work_ptr != NULL ? "caller's work memory" : "ours",
            (unsigned long long)weight_size,
            args->weight_ptr != NULL ? "copied into the caller's memory" : lc.keep_image ? "mapped" : "copied");
    return OA_OK;
}

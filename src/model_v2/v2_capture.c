/*
 * Capture hooks of dynamic-model executions (v2_capture.h): the executor
 * and memory their replays use.
 */
#define OA_LOG_MODULE "GE"
#include <stdlib.h>

#include "acl/acl.h"
#include "acl_rt/capture.h"
#include "base/error.h"
#include "base/log.h"
#include "model_v2/v2_capture.h"
#include "model_v2/v2_internal.h"

/* What a pool holds for one model: an executor, created at the first replay. */
typedef struct v2_pool_mem {
    oa_model *m;              /* a reference: the program stays */
    v2_exec *x;
    aclrtStream alloc_stream; /* the capturing stream whose allocator serves the replays, or NULL */
    oa_v2_ext_allocator ext;  /* that allocator as it was at capture: the blocks of the plans */
} v2_pool_mem;

static void pool_mem_free(void *priv)
{
    v2_pool_mem *pm = priv;
    if (pm == NULL) {
        return;
    }
    oa_v2_exec_destroy(pm->x);
    oa_model_release(pm->m);
    free(pm);
}

/* The captured task's own datasets: the application may destroy its datasets after the capture (the buffers stay). */
typedef struct v2_cap_io {
    aclmdlDataset *in, *out;
} v2_cap_io;

static void dataset_free(aclmdlDataset *ds)
{
    if (ds == NULL) {
        return;
    }
    for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(ds); ++i) {
        (void)aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds, i));
    }
    (void)aclmdlDestroyDataset(ds);
}

/* Copies the buffers (addresses and sizes) and tensor descriptions of src. */
static oa_status dataset_copy(const aclmdlDataset *src, aclmdlDataset **out)
{
    aclmdlDataset *ds = aclmdlCreateDataset();
    if (ds == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "copy of a captured dataset");
    }
    for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(src); ++i) {
        const aclDataBuffer *b = aclmdlGetDatasetBuffer(src, i);
        aclDataBuffer *c = aclCreateDataBuffer(aclGetDataBufferAddr(b), aclGetDataBufferSizeV2(b));
        aclTensorDesc *d = aclmdlGetDatasetTensorDesc(src, i);
        if (c == NULL || aclmdlAddDatasetBuffer(ds, c) != ACL_SUCCESS ||
            (d != NULL && aclmdlSetDatasetTensorDesc(ds, d, i) != ACL_SUCCESS)) {
            if (c != NULL && aclmdlGetDatasetNumBuffers(ds) <= i) {
                (void)aclDestroyDataBuffer(c);
            }
            dataset_free(ds);
            return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "copy of a captured dataset");
        }
    }
    *out = ds;
    return OA_OK;
}

static void on_destroy(oa_mdlri *mri, void *args, void *task_state)
{
    (void)mri;
    (void)args;
    v2_cap_io *io = task_state;
    if (io != NULL) {
        dataset_free(io->in);
        dataset_free(io->out);
        free(io);
    }
}

static oa_status on_capture(oa_mdlri *mri, oa_stream *stream, void *args, size_t args_size, void **task_state)
{
    (void)args_size;
    v2_async_args *a = args;
    oa_rt_allocator ra;
    const aclrtStream h = oa_stream_handle(stream);
    const bool has_alloc = oa_rt_allocator_get(h, &ra);
    oa_capture_pool *p = NULL;
    bool fresh = false;
    oa_status st = oa_capture_pool_get(mri, a->m, a->m->id, has_alloc, &p, &fresh);
    if (st != OA_OK) {
        return st;
    }
    /* captures are serialised by the capture lock: no other thread fills the pool meanwhile */
    if (p->priv == NULL) {
        v2_pool_mem *pm = calloc(1, sizeof(*pm));
        if (pm == NULL) {
            return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "capture pool of model %u", a->m->id);
        }
        pm->m = oa_model_retain(a->m);
        pm->alloc_stream = has_alloc ? h : NULL;
        if (has_alloc) {
            oa_v2_ext_allocator_init(&pm->ext, ra.obj, ra.alloc, ra.free_block, ra.alloc_advise, ra.block_addr);
        }
        p->free_priv = pool_mem_free;
        p->priv = pm;
    }
    /* last: a refused capture gets no on_destroy, so nothing may be left to free after a failure */
    v2_cap_io *io = calloc(1, sizeof(*io));
    if (io == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "captured execution of model %u", a->m->id);
    }
    st = dataset_copy(a->input, &io->in);
    if (st == OA_OK) {
        st = dataset_copy(a->output, &io->out);
    }
    if (st != OA_OK) {
        on_destroy(mri, args, io);
        return st;
    }
    a->input = io->in;
    a->output = io->out;
    a->cap = p;
    a->token = oa_capture_pool_token();
    *task_state = io;
    return OA_OK;
}

oa_status oa_v2_capture_run(v2_async_args *a, const oa_task_exec *exec)
{
    oa_capture_pool *p = a->cap;
    pthread_mutex_lock(&p->run_mu);
    v2_pool_mem *pm = p->priv;
    oa_status st = OA_OK;
    if (pm->x == NULL) {
        st = oa_v2_exec_create(a->m->exec, pm->alloc_stream, &pm->x);
        if (st == OA_OK && pm->alloc_stream != NULL) {
            pm->x->plan_alloc = &pm->ext.base; /* kept with the instance, freed at its destroy */
        }
    }
    if (st == OA_OK) {
        if (p->last_token != 0 && p->last_token != a->token) {
            /* another captured execution ran last: its plan memory goes back, the pool keeps one working set */
            oa_v2_plan_insts_free(pm->x);
            oa_v2_caching_recycle(pm->x->caching);
        }
        p->last_token = a->token;
        const oa_model_run run = {.input = a->input, .output = a->output,
                                  .stream = oa_stream_handle(exec->stream), .async = true};
        st = oa_v2_run_exec(pm->x, &run, true, pm->alloc_stream);
        oa_v2_caching_stats cs;
        oa_v2_caching_stats_get(pm->x->caching, &cs);
        const size_t bytes = cs.system_bytes + pm->x->ws_size;
        __atomic_store_n(&p->bytes, bytes, __ATOMIC_RELAXED);
        if (bytes > __atomic_load_n(&p->peak, __ATOMIC_RELAXED)) {
            __atomic_store_n(&p->peak, bytes, __ATOMIC_RELAXED);
        }
    }
    pthread_mutex_unlock(&p->run_mu);
    return st;
}

static const oa_capture_hooks g_hooks = {.run = oa_v2_async_run, .on_capture = on_capture, .on_destroy = on_destroy};

void oa_v2_capture_register(void)
{
    if (oa_capture_register_hooks(OA_TASK_KIND_MODEL, &g_hooks) != OA_OK) {
        OA_LOGE("the capture hooks of dynamic models are not registered");
    }
}

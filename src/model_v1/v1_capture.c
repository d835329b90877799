/*
 * Capture hooks of static-model executions (v1_capture.h): the work memory
 * their replays use.
 */
#define OA_LOG_MODULE "GE"
#include <stdlib.h>

#include "acl_rt/capture.h"
#include "base/error.h"
#include "base/log.h"
#include "model_v1/v1_capture.h"
#include "model_v1/v1_model.h"
#include "op_bind/op_pool.h"

/* What a pool holds for one model: a context on its own feature map. */
typedef struct v1_pool_mem {
    oa_model *m;          /* a reference: the program stays */
    v1_ctx *ctx;
    oa_rt_allocator ra;   /* the allocator the feature map came from (block != NULL) */
    void *block;
} v1_pool_mem;

static void pool_mem_free(void *priv)
{
    v1_pool_mem *pm = priv;
    if (pm == NULL) {
        return;
    }
    oa_v1_ctx_destroy(pm->ctx);
    if (pm->block != NULL) {
        pm->ra.free_block(pm->ra.obj, pm->block);
    }
    oa_model_release(pm->m);
    free(pm);
}

static oa_status pool_mem_create(oa_model *m, const oa_rt_allocator *ra, v1_pool_mem **out)
{
    const oa_v1_program *prog = oa_v1_model_program(m->exec);
    v1_pool_mem *pm = calloc(1, sizeof(*pm));
    if (pm == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "capture pool of model %u", m->id);
    }
    void *work = NULL;
    if (ra != NULL && prog->memory_size > 0) {
        if (prog->memory_size > SIZE_MAX || (pm->block = ra->alloc(ra->obj, (size_t)prog->memory_size)) == NULL ||
            (work = ra->block_addr(pm->block)) == NULL) {
            pool_mem_free(pm);
            return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "the stream's allocator gave no block of %llu bytes for the "
                           "feature map of model %u", (unsigned long long)prog->memory_size, m->id);
        }
        pm->ra = *ra;
    }
    const oa_status st = oa_v1_ctx_create(prog, work, work != NULL ? prog->memory_size : 0, &pm->ctx);
    if (st != OA_OK) {
        pool_mem_free(pm);
        return st;
    }
    pm->m = oa_model_retain(m);
    *out = pm;
    return OA_OK;
}

static oa_status on_capture(oa_mdlri *mri, oa_stream *stream, void *args, size_t args_size, void **task_state)
{
    (void)args_size;
    (void)task_state;
    v1_sub *s = args;
    oa_rt_allocator ra;
    const bool has_alloc = oa_rt_allocator_get(oa_stream_handle(stream), &ra);
    oa_capture_pool *p = NULL;
    bool fresh = false;
    oa_status st = oa_capture_pool_get(mri, s->m, s->m->id, has_alloc, &p, &fresh);
    if (st != OA_OK) {
        return st;
    }
    /* captures are serialised by the capture lock: no other thread fills the pool meanwhile */
    if (p->priv == NULL) {
        v1_pool_mem *pm = NULL;
        if ((st = pool_mem_create(s->m, has_alloc ? &ra : NULL, &pm)) != OA_OK) {
            return st;
        }
        const oa_v1_program *prog = oa_v1_model_program(s->m->exec);
        p->free_priv = pool_mem_free;
        p->priv = pm;
        const size_t bytes = (size_t)prog->memory_size + prog->ws_size;
        __atomic_store_n(&p->bytes, bytes, __ATOMIC_RELAXED);
        __atomic_store_n(&p->peak, bytes, __ATOMIC_RELAXED);
    }
    s->cap = p;
    return OA_OK;
}

oa_status oa_v1_capture_run(v1_sub *s)
{
    oa_capture_pool *p = s->cap;
    const v1_pool_mem *pm = p->priv;
    pthread_mutex_lock(&p->run_mu);
    /* a replay is an execution of the model: dumped and profiled like one (docs/dump.md "Captured replays") */
    const oa_status st = oa_v1_sub_execute(s, pm->ctx);
    pthread_mutex_unlock(&p->run_mu);
    return st;
}

static const oa_capture_hooks g_hooks = {.run = oa_v1_task_run, .on_capture = on_capture};

void oa_v1_capture_register(void)
{
    if (oa_capture_register_hooks(OA_TASK_KIND_MODEL, &g_hooks) != OA_OK) {
        OA_LOGE("the capture hooks of static models are not registered");
    }
}

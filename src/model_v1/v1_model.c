/*
 * The V1 executor's execution side: model state, pooled execution
 * contexts, CANN's execute checks, synchronous and stream execution.
 */
#define OA_LOG_MODULE "GE"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_rt.h"
#include "acl_base/data_buffer.h"
#include "acl_base/tensor_desc.h"
#include "acl_mdl/model.h"
#include "acl_rt/rt_stream.h"
#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "dump/dump_write.h"
#include "model_v1/v1_capture.h"
#include "model_v1/v1_model.h"
#include "op_bind/op_pool.h"
#include "prof/prof_internal.h"

enum { MODE_NONE = 0, MODE_SYNC = 1, MODE_ASYNC = 2 };

struct oa_v1_model {
    oa_v1_program *prog;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    v1_ctx *free_list;
    size_t n_ctx;
    int mode;            /* GE's last execute mode; under lock */
    oa_blob *keep_blob;
    void **owned;
    size_t n_owned;
    char om_name[256];     /* dump: the .om base name ("" for memory loads) */
    char graph_name[256];
    _Atomic uint64_t runs; /* executions started: the dump step */
};

/* ---- state ---- */

void oa_v1_model_destroy(oa_v1_model *x)
{
    if (x == NULL) {
        return;
    }
    while (x->free_list != NULL) {
        v1_ctx *c = x->free_list;
        x->free_list = c->next;
        oa_v1_ctx_destroy(c);
    }
    oa_v1_program_destroy(x->prog);
    oa_blob_release(x->keep_blob);
    for (size_t i = 0; i < x->n_owned; i++) {
        free(x->owned[i]);
    }
    free(x->owned);
    pthread_mutex_destroy(&x->lock);
    pthread_cond_destroy(&x->cond);
    free(x);
}

oa_status oa_v1_model_create(oa_v1_program *prog, void *work, uint64_t work_size, uint64_t own_work_size,
                             oa_blob *keep_blob, void **owned, size_t n_owned, oa_v1_model **out)
{
    *out = NULL;
    oa_v1_model *x = calloc(1, sizeof(*x));
    if (x == NULL) {
        oa_v1_program_destroy(prog);
        oa_blob_release(keep_blob);
        for (size_t i = 0; i < n_owned; i++) {
            free(owned[i]);
        }
        free(owned);
        return OA_FAIL(OA_E_NOMEM, "model state");
    }
    pthread_mutex_init(&x->lock, NULL);
    pthread_cond_init(&x->cond, NULL);
    x->prog = prog;
    x->keep_blob = keep_blob;
    x->owned = owned;
    x->n_owned = n_owned;
    v1_ctx *c = NULL;
    oa_status st = oa_v1_ctx_create(prog, work, work != NULL ? work_size : own_work_size, &c);
    if (st != OA_OK) {
        oa_v1_model_destroy(x);
        return st;
    }
    x->free_list = c;
    x->n_ctx = 1;
    *out = x;
    return OA_OK;
}

void oa_v1_model_set_names(oa_v1_model *x, const char *om_path, const char *graph_name)
{
    oa_dump_om_name(om_path, x->om_name, sizeof x->om_name);
    oa_strlcpy(x->graph_name, graph_name != NULL ? graph_name : "", sizeof x->graph_name);
}

const oa_v1_program *oa_v1_model_program(const oa_v1_model *x)
{
    return x->prog;
}

static oa_status ctx_acquire(oa_v1_model *x, v1_ctx **out)
{
    pthread_mutex_lock(&x->lock);
    while (x->free_list == NULL && x->n_ctx >= OA_V1_MAX_CONTEXTS) {
        pthread_cond_wait(&x->cond, &x->lock);
    }
    v1_ctx *c = x->free_list;
    if (c != NULL) {
        x->free_list = c->next;
        pthread_mutex_unlock(&x->lock);
        *out = c;
        return OA_OK;
    }
    x->n_ctx++;
    pthread_mutex_unlock(&x->lock);
    /* the model is running elsewhere: a context of our own (first concurrent run only) */
    oa_status st = oa_v1_ctx_create(x->prog, NULL, 0, &c);
    if (st != OA_OK) {
        pthread_mutex_lock(&x->lock);
        x->n_ctx--;
        pthread_cond_signal(&x->cond);
        pthread_mutex_unlock(&x->lock);
        return st;
    }
    OA_LOGI("[Execute][Context] concurrent execution: context %zu created", x->n_ctx);
    *out = c;
    return OA_OK;
}

static void ctx_release(oa_v1_model *x, v1_ctx *c)
{
    pthread_mutex_lock(&x->lock);
    c->next = x->free_list;
    x->free_list = c;
    pthread_cond_signal(&x->cond);
    pthread_mutex_unlock(&x->lock);
}

/* ---- one submitted execution ---- */

v1_iobuf *oa_v1_sub_bufs(v1_sub *s)
{
    return s->heap != NULL ? s->heap : s->inl;
}

static oa_status run_sub(v1_sub *s)
{
    if (s->cap != NULL) {
        return oa_v1_capture_run(s); /* a replay of a captured execution: on its pool */
    }
    oa_v1_model *x = s->m->exec;
    v1_ctx *c = NULL;
    oa_status st = ctx_acquire(x, &c);
    if (st != OA_OK) {
        return st;
    }
    st = oa_v1_sub_execute(s, c);
    ctx_release(x, c);
    return st;
}

oa_status oa_v1_sub_execute(v1_sub *s, v1_ctx *c)
{
    oa_v1_model *x = s->m->exec;
    const v1_iobuf *b = oa_v1_sub_bufs(s);
    v1_io io = {.in = b, .out = b + s->n_in, .variant = s->variant};
    const uint64_t step = atomic_fetch_add_explicit(&x->runs, 1, memory_order_relaxed);
    oa_status st;
    if (oa_dump_enabled() || oa_prof_active()) { /* the one check per run; both off in production */
        oa_dump_run dr;
        v1_observe obs = {.model_id = s->m->id, .prof = oa_prof_active()};
        if (oa_dump_enabled() && oa_dump_run_begin_model(&dr, x->om_name, x->graph_name, s->m->id, step)) {
            obs.dump = &dr;
        }
        io.obs = obs.dump != NULL || obs.prof ? &obs : NULL;
        st = oa_v1_run(x->prog, c, &io, oa_op_threadpool());
        if (obs.dump != NULL) {
            oa_dump_run_end(&dr);
        }
    } else {
        st = oa_v1_run(x->prog, c, &io, oa_op_threadpool());
    }
    return st;
}

/* GE's CheckUserAndModelSize: a buffer may be up to 63 bytes short; skipped in gear mode. */
static oa_status check_user_size(const char *what, size_t idx, uint64_t len, size_t op_size, bool gear_mode)
{
    if (gear_mode) {
        return OA_OK;
    }
    if (len > (uint64_t)op_size) {
        OA_LOGW("user %s %zu size(bytes) [%llu] is bigger than om size [%zu], may cause inference problem", what, idx,
                (unsigned long long)len, op_size);
    }
    if (len > (uint64_t)INT64_MAX - 64 || len + 64 >= (uint64_t)op_size) {
        return OA_OK;
    }
    return OA_FAIL(OA_E_GE_FAILURE, "E13025: The %s memory size set by the user is invalid. The provided %llu bytes of "
                   "buffer size plus the aligned 64 bytes is less than the tensor size %zu bytes required by the "
                   "model (%s %zu)", what, (unsigned long long)len, op_size, what, idx);
}

/* The gear the ascend_mbatch_shape_data buffer selects (values as 64-bit when the buffer holds them, else 32-bit). */
static oa_status select_gear(const oa_v1_program *p, const aclDataBuffer *gb, uint32_t *variant)
{
    const size_t n = p->gear_len;
    if (gb->data == NULL || gb->length < n * 4) {
        return OA_FAIL(OA_E_GE_PARAM, "the %s buffer holds %llu bytes, %zu gear values need at least %zu",
                       ACL_DYNAMIC_TENSOR_NAME, (unsigned long long)gb->length, n, n * 4);
    }
    const bool wide = gb->length >= n * 8;
    for (size_t g = 0; g < p->n_variants; g++) {
        bool eq = true;
        for (size_t k = 0; k < n && eq; k++) {
            int64_t v;
            if (wide) {
                memcpy(&v, (const uint8_t *)gb->data + 8 * k, 8);
            } else {
                int32_t v32;
                memcpy(&v32, (const uint8_t *)gb->data + 4 * k, 4);
                v = v32;
            }
            eq = v == p->gear_values[g * n + k];
        }
        if (eq) {
            *variant = (uint32_t)g;
            return OA_OK;
        }
    }
    return OA_FAIL(OA_E_GE_PARAM, "the values in the %s buffer match no gear of the model: call "
                   "aclmdlSetDynamicBatchSize / aclmdlSetDynamicHWSize / aclmdlSetInputDynamicDims first",
                   ACL_DYNAMIC_TENSOR_NAME);
}

/* CANN's ACL layer before GE: synchronous runs get device memory for output buffers without data. */
static oa_status alloc_null_outputs(oa_model *m, aclmdlDataset *out)
{
    bool any = false;
    for (size_t j = 0; j < oa_mdl_dataset_count(out); j++) {
        any = any || oa_mdl_dataset_buffer(out, j)->data == NULL;
    }
    if (!any) {
        return OA_OK;
    }
    if (oa_mdl_dataset_count(out) > m->info->n_outputs) {
        return OA_FAIL(OA_E_PARAM, "outputDesc size [%zu] mismatch with blobs size[%zu]", m->info->n_outputs,
                       oa_mdl_dataset_count(out));
    }
    for (size_t j = 0; j < oa_mdl_dataset_count(out); j++) {
        aclDataBuffer *b = oa_mdl_dataset_buffer(out, j);
        const size_t size = oa_model_tensor_size(&m->info->outputs[j]);
        if (b->data != NULL || size == 0) {
            continue;
        }
        const aclError ret = aclrtMalloc(&b->data, size, ACL_MEM_MALLOC_HUGE_FIRST);
        if (ret != ACL_SUCCESS) {
            b->data = NULL;
            return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "allocating %zu bytes for output %zu failed (%d)", size, j,
                           (int)ret);
        }
        b->length = size;
    }
    return OA_OK;
}

/* Output tensor descs: recreated when an input carried one (CANN's "dynamic" run), else refreshed where set. */
static oa_status publish_output_descs(oa_model *m, const oa_model_run *run, uint32_t variant)
{
    const oa_v1_program *p = ((oa_v1_model *)m->exec)->prog;
    bool dynamic = false;
    for (size_t i = 0; i < oa_mdl_dataset_count(run->input); i++) {
        dynamic = dynamic || oa_mdl_dataset_desc(run->input, i) != NULL;
    }
    const v1_variant *v = &p->variants[variant];
    for (size_t j = 0; j < p->n_outputs; j++) {
        if (!dynamic && oa_mdl_dataset_desc(run->output, j) == NULL) {
            continue;
        }
        const oa_model_tensor *t = &m->info->outputs[j];
        aclTensorDesc *d = aclCreateTensorDesc(t->dtype, (int)v->out_rank[j], &v->out_dims[j * OA_KMAX_DIMS],
                                               t->format);
        if (d == NULL) {
            return OA_FAIL(OA_E_NOMEM, "output %zu tensor description", j);
        }
        const oa_status st = oa_mdl_dataset_set_desc(run->output, j, d);
        aclDestroyTensorDesc(d);
        if (st != OA_OK) {
            return st;
        }
    }
    return OA_OK;
}

/* Everything GE checks before launching, in its order; fills s. */
static oa_status prepare(oa_model *m, const oa_model_run *run, v1_sub *s)
{
    oa_v1_model *x = m->exec;
    const oa_v1_program *p = x->prog;
    memset(s, 0, sizeof(*s));
    s->m = m;
    oa_status st;
    if (!run->async && (st = alloc_null_outputs(m, run->output)) != OA_OK) {
        return st;
    }
    const int want = run->async ? MODE_ASYNC : MODE_SYNC;
    pthread_mutex_lock(&x->lock);
    const int had = x->mode;
    if (had == MODE_NONE) {
        x->mode = want;
    }
    pthread_mutex_unlock(&x->lock);
    if (had != MODE_NONE && had != want) {
        return OA_FAIL(OA_E_GE_FAILURE, "[Check][Param] NnExecute not support mix execute: model %u was executed %s "
                       "before", m->id, had == MODE_SYNC ? "synchronously" : "asynchronously");
    }
    if (oa_mdl_dataset_count(run->input) != p->n_inputs || oa_mdl_dataset_count(run->output) != p->n_outputs) {
        return OA_FAIL(OA_E_GE_PARAM, "E13025: The number of inputs or outputs provided by the user is inconsistent "
                       "with that required by the model: model %u has %zu inputs and %zu outputs, the datasets hold "
                       "%zu and %zu buffers", m->id, p->n_inputs, p->n_outputs, oa_mdl_dataset_count(run->input),
                       oa_mdl_dataset_count(run->output));
    }
    if (p->n_variants > 1) {
        uint32_t v = 0;
        if ((st = select_gear(p, oa_mdl_dataset_buffer(run->input, p->gear_input), &v)) != OA_OK) {
            return st;
        }
        s->variant = v;
    }
    oa_model_gear gear;
    oa_model_get_gear(m, &gear);
    const bool gear_mode = p->n_variants > 1 && gear.kind != OA_DYNAMIC_NONE;
    const v1_variant *var = &p->variants[s->variant];
    if (p->n_inputs > UINT16_MAX || p->n_outputs > UINT16_MAX) {
        return OA_FAIL(OA_E_GE_PARAM, "model %u has %zu inputs and %zu outputs, at most %u each are supported", m->id,
                       p->n_inputs, p->n_outputs, (unsigned)UINT16_MAX);
    }
    s->n_in = (uint16_t)p->n_inputs;
    s->n_out = (uint16_t)p->n_outputs;
    if (p->n_inputs + p->n_outputs > V1_INLINE_IO) {
        s->heap = calloc(p->n_inputs + p->n_outputs, sizeof(v1_iobuf));
        if (s->heap == NULL) {
            return OA_FAIL(OA_E_NOMEM, "execution buffers");
        }
    }
    v1_iobuf *b = oa_v1_sub_bufs(s);
    for (size_t i = 0; i < p->n_inputs; i++) {
        const aclDataBuffer *db = oa_mdl_dataset_buffer(run->input, i);
        if ((st = check_user_size("input", i, db->length, p->in_slot[i].size, gear_mode)) != OA_OK) {
            return st;
        }
        if (db->data == NULL && db->length > 0) {
            return OA_FAIL(OA_E_GE_PARAM, "input %zu: buffer of %llu bytes has no data", i,
                           (unsigned long long)db->length);
        }
        b[i] = (v1_iobuf){db->data, db->data != NULL ? db->length : 0};
    }
    for (size_t j = 0; j < p->n_outputs; j++) {
        const aclDataBuffer *db = oa_mdl_dataset_buffer(run->output, j);
        if (db->length == 0 && var->out_bytes[j] > 0) {
            /* GE's 64-byte slack would accept it, and the run would deliver nothing: refused as a short buffer */
            st = OA_FAIL(OA_E_GE_FAILURE, "E13025: The output memory size set by the user is invalid. The provided "
                         "buffer of output %zu has 0 bytes, the model writes %zu bytes there (model %u)", j,
                         var->out_bytes[j], m->id);
        } else if (p->out_slot[j].zero_copy) {
            st = check_user_size("output", j, db->length, p->out_slot[j].size, gear_mode);
        } else if (!gear_mode && db->length < p->out_slot[j].size) {
            st = OA_FAIL(OA_E_GE_FAILURE, "[Check][Param] Buffer.length:%llu in output blob < data_size:%zu in "
                         "output_data_info, index:%zu, model_id:%u", (unsigned long long)db->length,
                         p->out_slot[j].size, j, m->id);
        }
        if (st != OA_OK) {
            return st;
        }
        if (db->data == NULL && var->out_bytes[j] > 0) {
            return OA_FAIL(OA_E_GE_PARAM, "output %zu: the buffer has no data (aclmdlExecuteAsync never allocates "
                           "outputs)", j);
        }
        b[p->n_inputs + j] = (v1_iobuf){db->data, db->data != NULL ? db->length : 0};
    }
    return publish_output_descs(m, run, s->variant);
}

/* ---- stream tasks ---- */

_Static_assert(sizeof(v1_sub) <= OA_TASK_INLINE_ARGS, "an execution task's args must stay inline");

oa_status oa_v1_task_run(void *args, const oa_task_exec *exec)
{
    (void)exec;
    return run_sub(args);
}

static void v1_task_release(void *args)
{
    v1_sub *s = args;
    free(s->heap);
    oa_model_release(s->m);
}

static oa_status submit(oa_model *m, oa_stream *stream, v1_sub *s)
{
    s->m = oa_model_retain(m);
    const oa_task_desc d = {.kind = OA_TASK_KIND_MODEL, .run = oa_v1_task_run, .release = v1_task_release, .args = s,
                            .args_size = sizeof(*s)};
    const oa_status st = oa_stream_submit(stream, &d, NULL);
    if (st != OA_OK) {
        v1_task_release(s);
    }
    return st;
}

/* ---- executor entry points ---- */

static oa_status v1_execute(oa_model *m, const oa_model_run *run)
{
    v1_sub s;
    oa_status st = prepare(m, run, &s);
    if (st != OA_OK) {
        free(s.heap);
        return st;
    }
    if (run->stream == NULL) {
        /* aclmdlExecute: GE's internal model stream; the calling thread runs it (in the device's run scope) */
        oa_rt_inline_run ir;
        oa_rt_inline_run_begin(&ir, run->stream_sync_timeout);
        st = run_sub(&s);
        oa_rt_inline_run_end(&ir);
        free(s.heap);
        return st;
    }
    /* aclmdlExecuteV2 with a stream: after the work already queued there, then synchronise it */
    oa_stream *stream = NULL;
    if ((st = oa_stream_acquire_any_context(run->stream, &stream)) != OA_OK) {
        free(s.heap);
        return st;
    }
    st = submit(m, stream, &s);
    if (st == OA_OK) {
        st = oa_stream_synchronize(stream, run->stream_sync_timeout);
    }
    oa_stream_release(stream);
    return st;
}

static oa_status v1_execute_async(oa_model *m, const oa_model_run *run)
{
    oa_stream *stream = NULL;
    oa_status st = oa_stream_acquire(run->stream, &stream);
    if (st != OA_OK) {
        return st;
    }
    v1_sub s;
    st = prepare(m, run, &s);
    if (st == OA_OK) {
        st = submit(m, stream, &s);
    } else {
        free(s.heap);
    }
    oa_stream_release(stream);
    return st;
}

static void v1_unload(oa_model *m)
{
    oa_v1_model_destroy(m->exec);
    m->exec = NULL;
}

static oa_status v1_load(oa_model *m, const oa_model_load_args *args)
{
    return oa_v1_load_om(m, args);
}

const oa_model_exec_ops oa_v1_exec_ops = {
    .name = "v1",
    .load = v1_load,
    .unload = v1_unload,
    .execute = v1_execute,
    .execute_async = v1_execute_async,
    .set_gear = NULL,
    .get_cur_output_dims = oa_model_cur_output_dims_default,
};

/*
 * Model runtime instances (aclmdlRI): creation and destruction, model
 * streams and tasks (the manual build API, aclmdlRIBuildBegin / BindStream /
 * UnbindStream / EndTask / BuildEnd, is in capture_build.c), queries (streams, tasks, task type and
 * parameters), parameter updates, names, ids, destroy callbacks, the debug
 * printers, and the hook attachments for other modules (capture.h).
 *
 * Lifetime: the handle holds one reference, every queued or running replay
 * another. aclmdlRIDestroy removes the handle (after the replays in flight
 * finished, as CANN does) and drops the creation reference; the last
 * reference frees the tasks (calling their release functions and hooks),
 * runs the destroy callbacks and destroys the internal model streams.
 */
#define OA_LOG_MODULE "RUNTIME"
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl_mdl.h"
#include "acl_rt/capture_internal.h"
#include "base/acl_check.h"
#include "base/error.h"
#include "base/util.h"

#define DESTROY_WAIT_MS 10000 /* CANN waits 10 s for running replays before refusing a destroy */

static pthread_mutex_t g_models_mu = PTHREAD_MUTEX_INITIALIZER;
static oa_mdlri *g_models;
static uint64_t g_serial;
static uint32_t g_next_id;
static int32_t g_destroy_wait_ms = DESTROY_WAIT_MS;

/* Tests shorten the destroy wait through this (internal) setter. */
void oa_mdlri_set_destroy_wait_ms(int32_t ms);
void oa_mdlri_set_destroy_wait_ms(int32_t ms)
{
    __atomic_store_n(&g_destroy_wait_ms, ms > 0 ? ms : DESTROY_WAIT_MS, __ATOMIC_RELAXED);
}

/* ---- handles ------------------------------------------------------------------------------- */

oa_status oa_mdlri_get(aclmdlRI handle, oa_mdlri **out)
{
    if (handle == NULL) {
        return OA_FAIL(OA_E_RT_PARAM, "parameter [modelRI] must not be null");
    }
    oa_obj *o = oa_registry_get(handle, OA_OBJ_MODEL_RI);
    if (o == NULL) {
        return OA_FAIL(OA_E_RT_INVALID_HANDLE, "model runtime instance [%p] is not a live instance (destroyed?)",
                       handle);
    }
    *out = (oa_mdlri *)o;
    return OA_OK;
}

void oa_mdlri_put(oa_mdlri *m)
{
    if (m != NULL) {
        oa_obj_unref(&m->obj);
    }
}

uint32_t oa_mdlri_id(const oa_mdlri *m)
{
    return m->id;
}

/* The instance must belong to the calling thread's current context. */
oa_status oa_mdlri_check_context(const oa_mdlri *m, const char *what)
{
    oa_context *cur = NULL;
    oa_status st = oa_ctx_current(true, &cur);
    if (st != OA_OK) {
        return st;
    }
    bool same = cur == m->ctx;
    oa_ctx_release(cur);
    if (!same) {
        return OA_FAIL(OA_E_RT_MODEL_CONTEXT, "%s: model runtime instance %u does not belong to the current context",
                       what, m->id);
    }
    return OA_OK;
}

/* Task handle -> referenced task and referenced instance. */
static oa_status get_task(aclmdlRITask handle, oa_mri_task **t_out, oa_mdlri **m_out)
{
    if (handle == NULL) {
        return OA_FAIL(OA_E_RT_PARAM, "parameter [task] must not be null");
    }
    oa_obj *o = oa_registry_get(handle, OA_OBJ_MRI_TASK);
    if (o == NULL) {
        return OA_FAIL(OA_E_RT_INVALID_HANDLE, "task [%p] is not a task of a live model runtime instance", handle);
    }
    oa_mri_task *t = (oa_mri_task *)o;
    oa_mdlri *m = (oa_mdlri *)oa_registry_get(t->model, OA_OBJ_MODEL_RI);
    if (m == NULL || m->serial != t->model_serial) {
        oa_mdlri_put(m);
        oa_obj_unref(o);
        return OA_FAIL(OA_E_RT_INVALID_HANDLE, "the model runtime instance of task [%p] was destroyed", handle);
    }
    *t_out = t;
    *m_out = m;
    return OA_OK;
}

static void put_task(oa_mri_task *t, oa_mdlri *m)
{
    oa_obj_unref(&t->obj);
    oa_mdlri_put(m);
}

/* ---- creation and destruction -------------------------------------------------------------------- */

static void task_free(oa_obj *o)
{
    oa_mri_task *t = (oa_mri_task *)o;
    free(t->args);
    free(t->pending_args);
    free(t);
}

static void group_free(oa_obj *o)
{
    oa_mri_group *g = (oa_mri_group *)o;
    free(g->tasks);
    free(g);
}

/* Releases what a task holds (its args' release function, hooks, events, labels). */
static void task_release(oa_mdlri *m, oa_mri_task *t)
{
    if (t->op == MRI_OP_RUN) {
        if (t->release != NULL) {
            t->release(t->args);
        }
        if (t->hooks != NULL && t->hooks->on_destroy != NULL) {
            t->hooks->on_destroy(m, t->args, t->hook_state);
        }
    }
    if (t->ev != NULL) {
        oa_event_unref(t->ev);
        t->ev = NULL;
    }
    if (t->op == MRI_OP_LABEL && t->u.label != NULL) {
        oa_label_unref(t->u.label);
    } else if (t->op == MRI_OP_SWITCH_LABEL && t->u.sw_label.list != NULL) {
        oa_label_list_unref(t->u.sw_label.list);
    }
    (void)oa_registry_remove(&t->obj);
    oa_obj_unref(&t->obj);
}

/* Task and group handles stop resolving (the instance handle went away). */
static void remove_child_handles(oa_mdlri *m)
{
    for (uint32_t i = 0; i < m->ntasks; ++i) {
        (void)oa_registry_remove(&m->tasks[i]->obj);
    }
    for (uint32_t i = 0; i < m->ngroups; ++i) {
        (void)oa_registry_remove(&m->groups[i]->obj);
    }
    for (uint32_t i = 0; i < m->nconds; ++i) {
        oa_mri_cond *c = m->conds[i];
        (void)oa_registry_remove(&c->obj);
        for (uint32_t j = 0; j < c->size; ++j) {
            (void)oa_registry_remove(&c->subs[j]->obj);
            remove_child_handles(c->subs[j]);
        }
    }
}

/* Frees tasks, groups and streams (shared by the final free and oa_mdlri_clear). */
static void free_structure(oa_mdlri *m, bool locked)
{
    for (uint32_t i = 0; i < m->ntasks; ++i) {
        task_release(m, m->tasks[i]);
    }
    free(m->tasks);
    m->tasks = NULL;
    m->ntasks = m->tasks_cap = 0;
    for (uint32_t i = 0; i < m->ngroups; ++i) {
        (void)oa_registry_remove(&m->groups[i]->obj);
        oa_obj_unref(&m->groups[i]->obj);
    }
    free(m->groups);
    m->groups = NULL;
    m->ngroups = 0;
    m->open_groups = 0;
    m->group_error = OA_OK;
    for (uint32_t i = 0; i < m->nstreams; ++i) {
        oa_mri_stream *ms = m->streams[i];
        oa_stream *s = ms->stream;
        if (!locked) {
            oa_cap_lock();
        }
        bool internal = s->cap.role == OA_CAP_INTERNAL && s->cap.model == m;
        if (internal) {
            oa_capture_unmark_internal(s);
        } else if (s->cap.role == OA_CAP_BOUND && s->cap.model == m) {
            oa_capture_unbind_stream(s);
        }
        if (!locked) {
            oa_cap_unlock();
        }
        if (s->internal) {
            (void)oa_stream_destroy(s, true);
        }
        oa_stream_release(s);
        free(ms->tasks);
        free(ms);
    }
    free(m->streams);
    m->streams = NULL;
    m->nstreams = 0;
    m->n_ext_rec = m->n_ext_wait = 0;
    m->has_end_graph = false;
    m->has_labels = false;
    free(m->scratch);
    m->scratch = NULL;
    m->scratch_size = 0;
    free(m->pc);
    free(m->active);
    m->pc = NULL;
    m->active = NULL;
}

static void mdlri_free(oa_obj *o)
{
    oa_mdlri *m = (oa_mdlri *)o;
    /* Destroy callbacks first: the instance has finished every replay. */
    for (uint32_t i = 0; i < m->ncbs; ++i) {
        m->cbs[i].fn(m->cbs[i].user);
    }
    remove_child_handles(m);
    for (uint32_t i = 0; i < m->nconds; ++i) {
        oa_mri_cond_free(m->conds[i]);
    }
    free(m->conds);
    free_structure(m, false);
    for (uint32_t i = 0; i < m->nevents; ++i) {
        oa_event_unref(m->events[i]);
    }
    free(m->events);
    for (uint32_t i = 0; i < m->nusers; ++i) {
        oa_stream_release(m->users[i]);
    }
    free(m->users);
    for (uint32_t i = 0; i < m->natt; ++i) {
        if (m->att[i].free_fn != NULL) {
            m->att[i].free_fn(m->att[i].res);
        }
    }
    free(m->att);
    free(m->cbs);
    free(m->name);
    free(m->retired);
    pthread_mutex_lock(&g_models_mu);
    if (m->prev != NULL) {
        m->prev->next = m->next;
    } else if (g_models == m) {
        g_models = m->next;
    }
    if (m->next != NULL) {
        m->next->prev = m->prev;
    }
    pthread_mutex_unlock(&g_models_mu);
    OA_LOGI("model runtime instance %u freed", m->id);
    pthread_cond_destroy(&m->cv);
    pthread_mutex_destroy(&m->mu);
    pthread_mutex_destroy(&m->args_mu);
    oa_context *ctx = m->ctx;
    free(m);
    oa_ctx_release(ctx);
}

oa_status oa_mdlri_create(oa_context *ctx, mri_type type, bool is_sub, oa_mdlri **out)
{
    oa_mdlri *m = calloc(1, sizeof(*m));
    if (m == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot allocate a model runtime instance");
    }
    oa_obj_init(&m->obj, OA_OBJ_MODEL_RI, mdlri_free);
    m->serial = __atomic_add_fetch(&g_serial, 1, __ATOMIC_RELAXED);
    m->id = __atomic_fetch_add(&g_next_id, 1, __ATOMIC_RELAXED);
    m->type = (uint8_t)type;
    m->is_sub = is_sub;
    oa_obj_ref(&ctx->obj);
    m->ctx = ctx;
    m->status = MRI_NONE;
    m->group_error = OA_OK;
    pthread_mutex_init(&m->mu, NULL);
    pthread_mutex_init(&m->args_mu, NULL);
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(&m->cv, &a);
    pthread_condattr_destroy(&a);
    pthread_mutex_lock(&g_models_mu);
    m->next = g_models;
    if (g_models != NULL) {
        g_models->prev = m;
    }
    g_models = m;
    pthread_mutex_unlock(&g_models_mu);
    oa_status st = oa_registry_add(&m->obj);
    if (st != OA_OK) {
        oa_obj_unref(&m->obj);
        return st;
    }
    OA_LOGI("created %s model runtime instance %u on device %d", type == MRI_TYPE_CAPTURE ? "capture" : "built",
            m->id, ctx->dev->id);
    *out = m;
    return OA_OK;
}

void oa_mdlri_discard(oa_mdlri *m)
{
    if (oa_registry_remove(&m->obj)) {
        pthread_mutex_lock(&m->mu);
        m->removed = true;
        pthread_mutex_unlock(&m->mu);
        oa_cap_lock();
        remove_child_handles(m);
        oa_cap_unlock();
        oa_obj_unref(&m->obj);
    }
}

oa_mdlri **oa_mdlri_list_context(oa_context *ctx, size_t *n)
{
    *n = 0;
    pthread_mutex_lock(&g_models_mu);
    size_t cnt = 0;
    for (oa_mdlri *m = g_models; m != NULL; m = m->next) {
        if (m->ctx == ctx) {
            ++cnt;
        }
    }
    oa_mdlri **list = cnt > 0 ? malloc(cnt * sizeof(*list)) : NULL;
    if (list != NULL) {
        for (oa_mdlri *m = g_models; m != NULL; m = m->next) {
            /* Only instances whose handle is alive: the others are on their way out. */
            if (m->ctx == ctx && oa_registry_get(m, OA_OBJ_MODEL_RI) != NULL) {
                list[(*n)++] = m;
            }
        }
    }
    pthread_mutex_unlock(&g_models_mu);
    return list;
}

/* ---- structure ----------------------------------------------------------------------------------- */

oa_status oa_mdlri_add_stream(oa_mdlri *m, oa_stream *s, bool internal, bool origin, bool head, oa_mri_stream **out)
{
    oa_mri_stream *ms = calloc(1, sizeof(*ms));
    oa_mri_stream **n = realloc(m->streams, (m->nstreams + 1u) * sizeof(*n));
    if (ms == NULL || n == NULL) {
        free(ms);
        if (n != NULL) {
            m->streams = n;
        }
        return OA_FAIL(OA_E_NOMEM, "cannot add a stream to model runtime instance %u", m->id);
    }
    m->streams = n;
    if (internal) {
        oa_stream *is = NULL;
        oa_status st = oa_stream_create(m->ctx, OA_RT_STREAM_PRIORITY_DEFAULT, 0, false, &is);
        if (st != OA_OK) {
            free(ms);
            return st;
        }
        is->internal = true;
        oa_obj_ref(&is->obj); /* ours; the creation reference goes with oa_stream_destroy */
        ms->stream = is;
        oa_capture_mark_internal(is, m, ms);
    } else {
        oa_obj_ref(&s->obj);
        ms->stream = s;
        ms->bound = true;
    }
    ms->model = m;
    ms->index = m->nstreams;
    ms->origin = origin;
    ms->head = head;
    m->streams[m->nstreams++] = ms;
    *out = ms;
    return OA_OK;
}

static bool grow_ptrs(void ***arr, uint32_t *cap, uint32_t need)
{
    if (need <= *cap) {
        return true;
    }
    uint32_t nc = *cap == 0 ? 16u : *cap * 2u;
    while (nc < need) {
        nc *= 2u;
    }
    void **n = realloc(*arr, (size_t)nc * sizeof(void *));
    if (n == NULL) {
        return false;
    }
    *arr = n;
    *cap = nc;
    return true;
}

oa_status oa_mdlri_append(oa_mri_stream *ms, mri_op op, const oa_task_desc *desc, oa_mri_task **out)
{
    oa_mdlri *m = ms->model;
    oa_mri_task *t = calloc(1, sizeof(*t));
    if (t == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot allocate a captured task");
    }
    oa_obj_init(&t->obj, OA_OBJ_MRI_TASK, task_free);
    t->model = m;
    t->model_serial = m->serial;
    t->ms = ms;
    t->op = (uint8_t)op;
    t->kind = desc != NULL ? (uint16_t)desc->kind : (uint16_t)OA_TASK_KIND_GENERIC;
    if (desc != NULL) {
        size_t n = desc->args_size == 0 ? 16u : (desc->args_size + 15u) & ~(size_t)15u;
        t->args = aligned_alloc(16, n);
        if (t->args == NULL) {
            free(t);
            return OA_FAIL(OA_E_NOMEM, "cannot copy %zu bytes of task arguments", desc->args_size);
        }
        memset(t->args, 0, n);
        if (desc->args_size > 0) {
            memcpy(t->args, desc->args, desc->args_size);
        }
        t->args_size = desc->args_size;
        t->run = desc->run;
        t->release = desc->release;
        t->hooks = oa_capture_hooks_of(t->kind, t->run);
    }
    oa_mri_group *g = op == MRI_OP_RUN ? ms->sampling : NULL;
    if (!grow_ptrs((void ***)&ms->tasks, &ms->cap, ms->ntasks + 1u) ||
        !grow_ptrs((void ***)&m->tasks, &m->tasks_cap, m->ntasks + 1u) ||
        (g != NULL && !grow_ptrs((void ***)&g->tasks, &g->cap, g->ntasks + 1u))) {
        free(t->args);
        free(t);
        return OA_FAIL(OA_E_NOMEM, "cannot grow the task list of model runtime instance %u", m->id);
    }
    oa_status st = oa_registry_add(&t->obj);
    if (st != OA_OK) {
        free(t->args);
        free(t);
        return st;
    }
    t->index = ms->ntasks;
    t->seq = m->ntasks;
    ms->tasks[ms->ntasks++] = t;
    m->tasks[m->ntasks++] = t;
    if (g != NULL) {
        g->tasks[g->ntasks++] = t;
        t->group = g;
        t->in_group = true;
    }
    *out = t;
    return OA_OK;
}

oa_status oa_mdlri_new_group(oa_mdlri *m, oa_mri_group **out)
{
    oa_mri_group *g = calloc(1, sizeof(*g));
    oa_mri_group **n = realloc(m->groups, (m->ngroups + 1u) * sizeof(*n));
    if (g == NULL || n == NULL) {
        free(g);
        if (n != NULL) {
            m->groups = n;
        }
        return OA_FAIL(OA_E_NOMEM, "cannot allocate a task group");
    }
    m->groups = n;
    oa_obj_init(&g->obj, OA_OBJ_TASK_GROUP, group_free);
    g->model = m;
    g->model_serial = m->serial;
    oa_status st = oa_registry_add(&g->obj);
    if (st != OA_OK) {
        free(g);
        return st;
    }
    m->groups[m->ngroups++] = g;
    *out = g;
    return OA_OK;
}

void oa_mdlri_drop_group(oa_mdlri *m, oa_mri_group *g)
{
    for (uint32_t i = 0; i < m->ngroups; ++i) {
        if (m->groups[i] == g) {
            m->groups[i] = m->groups[--m->ngroups];
            break;
        }
    }
    for (uint32_t i = 0; i < g->ntasks; ++i) {
        g->tasks[i]->group = NULL;
        g->tasks[i]->in_group = false;
    }
    (void)oa_registry_remove(&g->obj);
    oa_obj_unref(&g->obj);
}

void oa_mdlri_unbind_events(oa_mdlri *m)
{
    for (uint32_t i = 0; i < m->nevents; ++i) {
        oa_event *ev = m->events[i];
        if (__atomic_load_n(&ev->cap_model, __ATOMIC_ACQUIRE) == m) {
            ev->cap_rec = NULL;
            __atomic_store_n(&ev->cap_model, NULL, __ATOMIC_RELEASE);
        }
        oa_event_unref(ev);
    }
    free(m->events);
    m->events = NULL;
    m->nevents = 0;
}

oa_status oa_mdlri_finalize(oa_mdlri *m)
{
    size_t need = 16;
    for (uint32_t i = 0; i < m->ntasks; ++i) {
        if (m->tasks[i]->args_size > need) {
            need = m->tasks[i]->args_size;
        }
        if (m->tasks[i]->op >= MRI_OP_LABEL && m->tasks[i]->op <= MRI_OP_SWITCH) {
            m->has_labels = true;
        }
    }
    need = (need + 15u) & ~(size_t)15u;
    free(m->scratch);
    free(m->pc);
    free(m->active);
    m->scratch = aligned_alloc(16, need);
    m->scratch_size = need;
    m->pc = calloc(m->nstreams > 0 ? m->nstreams : 1u, sizeof(*m->pc));
    m->active = calloc(m->nstreams > 0 ? m->nstreams : 1u, sizeof(*m->active));
    if (m->scratch == NULL || m->pc == NULL || m->active == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot allocate the replay state of model runtime instance %u", m->id);
    }
    pthread_mutex_lock(&m->mu);
    mri_set_status(m, MRI_READY);
    pthread_mutex_unlock(&m->mu);
    return OA_OK;
}

void oa_mdlri_clear(oa_mdlri *m)
{
    for (uint32_t i = 0; i < m->nconds; ++i) {
        (void)oa_registry_remove(&m->conds[i]->obj);
        oa_mri_cond_free(m->conds[i]);
    }
    free(m->conds);
    m->conds = NULL;
    m->nconds = 0;
    free_structure(m, true);
    mri_set_status(m, MRI_NONE);
}

oa_mri_stream *oa_mdlri_stream_of(oa_stream *s)
{
    if (s->cap.role == OA_CAP_BOUND || s->cap.role == OA_CAP_INTERNAL) {
        return s->cap.ms;
    }
    return NULL;
}

/* ---- hooks' attachments ----------------------------------------------------------------------------- */

oa_status oa_mdlri_attach(oa_mdlri *m, const void *key, void *res, void (*free_fn)(void *res))
{
    pthread_mutex_lock(&m->mu);
    for (uint32_t i = 0; i < m->natt; ++i) {
        if (m->att[i].key == key) {
            pthread_mutex_unlock(&m->mu);
            return OA_FAIL(OA_E_PARAM, "key %p is already attached to model runtime instance %u", key, m->id);
        }
    }
    mri_attachment *n = realloc(m->att, (m->natt + 1u) * sizeof(*n));
    if (n == NULL) {
        pthread_mutex_unlock(&m->mu);
        return OA_FAIL(OA_E_NOMEM, "cannot grow the attachments of model runtime instance %u", m->id);
    }
    m->att = n;
    m->att[m->natt++] = (mri_attachment){.key = key, .res = res, .free_fn = free_fn};
    pthread_mutex_unlock(&m->mu);
    return OA_OK;
}

void *oa_mdlri_lookup(oa_mdlri *m, const void *key)
{
    void *r = NULL;
    pthread_mutex_lock(&m->mu);
    for (uint32_t i = 0; i < m->natt; ++i) {
        if (m->att[i].key == key) {
            r = m->att[i].res;
            break;
        }
    }
    pthread_mutex_unlock(&m->mu);
    return r;
}

/* ---- destroy ---------------------------------------------------------------------------------------- */

static bool model_capturing(const oa_mdlri *m)
{
    uint8_t st = mri_status_of(m);
    return st == MRI_CAPTURE_ACTIVE || st == MRI_CAPTURE_INVALIDATED;
}

/* Runs the destroy callbacks now (CANN runs them while destroying) unless a replay of the instance is still in
 * flight, i.e. a task of the instance destroys it: then they run when its last reference goes. The references a
 * finished replay task still holds for a moment must not delay them past aclmdlRIDestroy. */
static void run_destroy_callbacks(oa_mdlri *m)
{
    pthread_mutex_lock(&m->mu);
    mri_callback *cbs = NULL;
    uint32_t n = 0;
    if (m->inflight == 0) {
        cbs = m->cbs;
        n = m->ncbs;
        m->cbs = NULL;
        m->ncbs = 0;
    }
    pthread_mutex_unlock(&m->mu);
    for (uint32_t i = 0; i < n; ++i) {
        cbs[i].fn(cbs[i].user);
    }
    free(cbs);
}

static oa_status destroy_model(aclmdlRI handle)
{
    oa_mdlri *m = NULL;
    oa_status st = oa_mdlri_get(handle, &m);
    if (st != OA_OK) {
        return st;
    }
    if (m->is_sub) {
        oa_mdlri_put(m);
        return OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "a sub ACL graph is destroyed with its parent instance");
    }
    st = oa_mdlri_check_context(m, "destroying a model runtime instance");
    if (st == OA_OK && model_capturing(m)) {
        st = OA_FAIL(OA_E_RT_MODEL_CAPTURED, "model runtime instance %u is in capture mode and cannot be destroyed",
                     m->id);
    }
    if (st == OA_OK) {
        pthread_mutex_lock(&m->mu);
        bool self = m->running && pthread_equal(m->runner, pthread_self());
        if (!self && m->inflight > 0) {
            /* CANN waits for the executions in flight (10 s at most). */
            m->destroying = true;
            struct timespec deadline;
            clock_gettime(CLOCK_MONOTONIC, &deadline);
            int32_t ms = __atomic_load_n(&g_destroy_wait_ms, __ATOMIC_RELAXED);
            deadline.tv_sec += ms / 1000;
            deadline.tv_nsec += (long)(ms % 1000) * 1000000L;
            if (deadline.tv_nsec >= 1000000000L) {
                deadline.tv_sec += 1;
                deadline.tv_nsec -= 1000000000L;
            }
            while (m->inflight > 0) {
                if (pthread_cond_timedwait(&m->cv, &m->mu, &deadline) == ETIMEDOUT && m->inflight > 0) {
                    break;
                }
            }
            m->destroying = false;
            if (m->inflight > 0) {
                st = OA_FAIL(OA_E_RT_MODEL_RUNNING,
                             "model runtime instance %u is still running (%d replay(s) in flight) and cannot be "
                             "destroyed",
                             m->id, m->inflight);
            }
        }
        pthread_mutex_unlock(&m->mu);
    }
    if (st == OA_OK) {
        OA_LOGI("destroying model runtime instance %u", m->id);
        oa_mdlri_discard(m);
        run_destroy_callbacks(m);
    }
    oa_mdlri_put(m);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIDestroy(aclmdlRI modelRI)
{
    ACL_REQUIRE_NOT_NULL(modelRI);
    ACL_RETURN_STATUS(destroy_model(modelRI));
}

static oa_status register_callback(aclmdlRI handle, aclrtCallback fn, void *user, bool add)
{
    oa_mdlri *m = NULL;
    oa_status st = oa_mdlri_get(handle, &m);
    if (st != OA_OK) {
        return st;
    }
    if (fn == NULL) {
        oa_mdlri_put(m);
        return OA_FAIL(OA_E_RT_PARAM, "parameter [func] must not be null");
    }
    if (m->is_sub) {
        oa_mdlri_put(m);
        return OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "a sub ACL graph has no destroy callbacks");
    }
    pthread_mutex_lock(&m->mu);
    uint32_t found = UINT32_MAX;
    for (uint32_t i = 0; i < m->ncbs; ++i) {
        if (m->cbs[i].fn == fn) {
            found = i;
            break;
        }
    }
    if (add) {
        if (found != UINT32_MAX) {
            st = OA_FAIL(OA_E_RT_PARAM, "the callback function has been registered and cannot be registered again");
        } else {
            mri_callback *n = realloc(m->cbs, (m->ncbs + 1u) * sizeof(*n));
            if (n == NULL) {
                st = OA_FAIL(OA_E_NOMEM, "cannot grow the destroy callbacks");
            } else {
                m->cbs = n;
                m->cbs[m->ncbs++] = (mri_callback){.fn = fn, .user = user};
            }
        }
    } else if (found == UINT32_MAX) {
        st = OA_FAIL(OA_E_RT_PARAM, "the callback function has not been registered");
    } else {
        memmove(&m->cbs[found], &m->cbs[found + 1], (m->ncbs - found - 1u) * sizeof(*m->cbs));
        --m->ncbs;
    }
    pthread_mutex_unlock(&m->mu);
    oa_mdlri_put(m);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func, void *userData)
{
    ACL_RETURN_STATUS(register_callback(modelRI, func, userData, true));
}

ACL_FUNC_VISIBILITY aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI, aclrtCallback func)
{
    ACL_RETURN_STATUS(register_callback(modelRI, func, NULL, false));
}

/* ---- names and ids ------------------------------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclmdlRISetName(aclmdlRI modelRI, const char *name)
{
    ACL_REQUIRE_NOT_NULL(modelRI);
    ACL_REQUIRE_NOT_NULL(name);
    oa_mdlri *m = NULL;
    oa_status st = oa_mdlri_get(modelRI, &m);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    char *copy = strdup(name);
    if (copy == NULL) {
        oa_mdlri_put(m);
        return oa_status_to_acl(OA_FAIL(OA_E_NOMEM, "cannot copy the name"));
    }
    pthread_mutex_lock(&m->mu);
    free(m->name);
    m->name = copy;
    pthread_mutex_unlock(&m->mu);
    oa_mdlri_put(m);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char *name)
{
    ACL_REQUIRE_NOT_NULL(modelRI);
    ACL_REQUIRE_NOT_NULL(name);
    ACL_REQUIRE(maxLen > 0, OA_E_RT_PARAM, "maxLen [%u] must be greater than 0", maxLen);
    oa_mdlri *m = NULL;
    oa_status st = oa_mdlri_get(modelRI, &m);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    st = oa_mdlri_check_context(m, "obtaining the name of a model runtime instance");
    if (st == OA_OK) {
        pthread_mutex_lock(&m->mu);
        const char *n = m->name != NULL ? m->name : "";
        size_t len = strlen(n);
        if (len + 1u > maxLen) {
            st = OA_FAIL(OA_E_RT_INTERNAL, "the name of model runtime instance %u needs %zu bytes, maxLen is %u", m->id,
                         len + 1u, maxLen);
        } else {
            memcpy(name, n, len + 1u);
        }
        pthread_mutex_unlock(&m->mu);
    }
    oa_mdlri_put(m);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t *modelRIId)
{
    ACL_REQUIRE_NOT_NULL(modelRI);
    ACL_REQUIRE_NOT_NULL(modelRIId);
    oa_mdlri *m = NULL;
    oa_status st = oa_mdlri_get(modelRI, &m);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    *modelRIId = m->id;
    oa_mdlri_put(m);
    return ACL_SUCCESS;
}

/* ---- streams and tasks ------------------------------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream *streams, uint32_t *numStreams)
{
    ACL_REQUIRE(numStreams != NULL, OA_E_RT_PARAM, "parameter [numStreams] must not be null");
    oa_mdlri *m = NULL;
    oa_status st = oa_mdlri_get(modelRI, &m);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    if (m->is_sub) {
        st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "a sub ACL graph does not support getting streams");
    } else {
        st = oa_mdlri_check_context(m, "obtaining the streams of a model runtime instance");
    }
    if (st == OA_OK) {
        oa_cap_lock();
        uint32_t total = m->nstreams;
        if (streams == NULL) {
            *numStreams = total;
        } else {
            uint32_t cap = *numStreams;
            uint32_t n = cap < total ? cap : total;
            for (uint32_t i = 0; i < n; ++i) {
                streams[i] = oa_stream_handle(m->streams[i]->stream);
            }
            for (uint32_t i = n; i < cap; ++i) {
                streams[i] = NULL;
            }
            *numStreams = n;
            if (n < total) {
                st = OA_FAIL(OA_E_RT_INSUFFICIENT_ARRAY,
                             "the array holds %u stream(s); model runtime instance %u has %u", cap, m->id, total);
            }
        }
        oa_cap_unlock();
    }
    oa_mdlri_put(m);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask *tasks, uint32_t *numTasks)
{
    ACL_REQUIRE(stream != NULL, OA_E_RT_PARAM, "parameter [stream] must not be null");
    ACL_REQUIRE(numTasks != NULL, OA_E_RT_PARAM, "parameter [numTasks] must not be null");
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire_any_context(stream, &s);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    oa_cap_lock();
    oa_mri_stream *ms = oa_mdlri_stream_of(s);
    if (ms == NULL) {
        st = OA_FAIL(OA_E_RT_PARAM, "stream %d is not bound to a model runtime instance", s->id);
    } else if (ms->model->is_sub) {
        st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "a stream of a sub ACL graph does not support getting tasks");
    } else {
        uint32_t total = ms->ntasks;
        if (tasks == NULL) {
            *numTasks = total;
        } else {
            uint32_t cap = *numTasks;
            uint32_t n = cap < total ? cap : total;
            for (uint32_t i = 0; i < n; ++i) {
                tasks[i] = (aclmdlRITask)ms->tasks[i];
            }
            for (uint32_t i = n; i < cap; ++i) {
                tasks[i] = NULL;
            }
            *numTasks = n;
            if (n < total) {
                st = OA_FAIL(OA_E_RT_INSUFFICIENT_ARRAY, "the array holds %u task(s); stream %d has %u", cap, s->id,
                             total);
            }
        }
    }
    oa_cap_unlock();
    oa_stream_release(s);
    ACL_RETURN_STATUS(st);
}

/* aclmdlRITaskType of a task. */
static aclmdlRITaskType task_type(const oa_mri_task *t)
{
    switch (t->op) {
    case MRI_OP_RUN:
        switch (t->kind) {
        case OA_TASK_KIND_KERNEL:
            return ACL_MODEL_RI_TASK_KERNEL;
        case OA_TASK_KIND_VALUE_WRITE:
            return ACL_MODEL_RI_TASK_VALUE_WRITE;
        case OA_TASK_KIND_VALUE_WAIT:
            return ACL_MODEL_RI_TASK_VALUE_WAIT;
        default:
            return ACL_MODEL_RI_TASK_DEFAULT;
        }
    case MRI_OP_RECORD:
    case MRI_OP_EXT_RECORD:
        return ACL_MODEL_RI_TASK_EVENT_RECORD;
    case MRI_OP_WAIT:
    case MRI_OP_EXT_WAIT:
    case MRI_OP_FLAG_WAIT:
        return ACL_MODEL_RI_TASK_EVENT_WAIT;
    case MRI_OP_FLAG_RESET:
        return ACL_MODEL_RI_TASK_EVENT_RESET;
    default:
        return ACL_MODEL_RI_TASK_DEFAULT;
    }
}

static const char *task_name(const oa_mri_task *t)
{
    static const char *const kinds[OA_TASK_KIND_COUNT] = {
        [OA_TASK_KIND_GENERIC] = "GENERIC",       [OA_TASK_KIND_MEMCPY] = "MEMCPY",
        [OA_TASK_KIND_MEMSET] = "MEMSET",         [OA_TASK_KIND_EVENT_RECORD] = "EVENT_RECORD",
        [OA_TASK_KIND_EVENT_WAIT] = "EVENT_WAIT", [OA_TASK_KIND_EVENT_RESET] = "EVENT_RESET",
        [OA_TASK_KIND_CALLBACK] = "CALLBACK",     [OA_TASK_KIND_HOST_FUNC] = "HOST_FUNC",
        [OA_TASK_KIND_MODEL] = "MODEL_EXECUTE",   [OA_TASK_KIND_KERNEL] = "KERNEL",
        [OA_TASK_KIND_VALUE_WRITE] = "VALUE_WRITE", [OA_TASK_KIND_VALUE_WAIT] = "VALUE_WAIT",
    };
    switch (t->op) {
    case MRI_OP_RUN:
        return t->kind < OA_TASK_KIND_COUNT && kinds[t->kind] != NULL ? kinds[t->kind] : "UNKNOWN";
    case MRI_OP_RECORD:
        return "EVENT_RECORD";
    case MRI_OP_WAIT:
        return "EVENT_WAIT";
    case MRI_OP_EXT_RECORD:
        return t->ev_flag == ACL_EVENT_RECORD_EXTERNAL ? "EVENT_RECORD_EXTERNAL" : "EVENT_RECORD";
    case MRI_OP_EXT_WAIT:
        return "EVENT_WAIT_EXTERNAL";
    case MRI_OP_FLAG_WAIT:
        return "EVENT_WAIT";
    case MRI_OP_FLAG_RESET:
        return "EVENT_RESET";
    case MRI_OP_LABEL:
        return "LABEL_SET";
    case MRI_OP_SWITCH_LABEL:
        return "LABEL_SWITCH_BY_INDEX";
    case MRI_OP_ACTIVE:
        return "STREAM_ACTIVE";
    case MRI_OP_SWITCH:
        return "STREAM_SWITCH";
    case MRI_OP_COND:
        return "CONDITION";
    case MRI_OP_END_GRAPH:
        return "END_GRAPH";
    default:
        return "UNKNOWN";
    }
}

ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType *type)
{
    ACL_REQUIRE(type != NULL, OA_E_RT_PARAM, "parameter [type] must not be null");
    oa_mri_task *t = NULL;
    oa_mdlri *m = NULL;
    oa_status st = get_task(task, &t, &m);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    if (m->is_sub) {
        st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "a task of a sub ACL graph does not support querying its type");
    } else {
        *type = task_type(t);
    }
    put_task(t, m);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t *id)
{
    ACL_REQUIRE(id != NULL, OA_E_RT_PARAM, "parameter [id] must not be null");
    oa_mri_task *t = NULL;
    oa_mdlri *m = NULL;
    oa_status st = get_task(task, &t, &m);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    if (m->type != MRI_TYPE_CAPTURE) {
        st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "task sequence ids exist for captured instances only");
    } else if (m->is_sub) {
        st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "a task of a sub ACL graph does not support querying its sequence id");
    } else {
        *id = t->seq;
    }
    put_task(t, m);
    ACL_RETURN_STATUS(st);
}

static oa_status task_params(oa_mri_task *t, oa_mdlri *m, aclmdlRITaskParams *p)
{
    memset(p, 0, sizeof(*p));
    p->type = task_type(t);
    p->taskGrp = t->group != NULL ? (aclrtTaskGrp)t->group : NULL;
    switch (p->type) {
    case ACL_MODEL_RI_TASK_KERNEL:
        p->kernelTaskParams.funcHandle = NULL; /* host kernels have no binary function handle */
        p->kernelTaskParams.args = t->args;
        p->kernelTaskParams.argsSize = t->args_size;
        p->kernelTaskParams.isHostArgs = 1;
        p->kernelTaskParams.numBlocks = 1;
        return OA_OK;
    case ACL_MODEL_RI_TASK_EVENT_RECORD:
        p->eventRecordTaskParams.event = oa_event_handle(t->ev);
        p->eventRecordTaskParams.eventFlag = t->ev->flags;
        p->eventRecordTaskParams.recordFlag = t->ev_flag;
        return OA_OK;
    case ACL_MODEL_RI_TASK_EVENT_WAIT:
        p->eventWaitTaskParams.event = oa_event_handle(t->ev);
        p->eventWaitTaskParams.eventFlag = t->ev->flags;
        p->eventWaitTaskParams.waitFlag = t->ev_flag;
        return OA_OK;
    case ACL_MODEL_RI_TASK_EVENT_RESET:
        p->eventResetTaskParams.event = oa_event_handle(t->ev);
        p->eventResetTaskParams.eventFlag = t->ev->flags;
        return OA_OK;
    case ACL_MODEL_RI_TASK_VALUE_WRITE: {
        const oa_value_args *v = t->pending_args != NULL ? t->pending_args : t->args;
        p->valueWriteTaskParams.devAddr = v->addr;
        p->valueWriteTaskParams.value = v->value;
        return OA_OK;
    }
    case ACL_MODEL_RI_TASK_VALUE_WAIT: {
        const oa_value_args *v = t->pending_args != NULL ? t->pending_args : t->args;
        p->valueWaitTaskParams.devAddr = v->addr;
        p->valueWaitTaskParams.value = v->value;
        p->valueWaitTaskParams.flag = v->flag;
        return OA_OK;
    }
    default:
        (void)m;
        return OA_FAIL(OA_E_RT_PARAM,
                       "task %u (%s) is of type ACL_MODEL_RI_TASK_DEFAULT, which has no parameters to obtain", t->seq,
                       task_name(t));
    }
}

ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams *params)
{
    ACL_REQUIRE(params != NULL, OA_E_RT_PARAM, "parameter [params] must not be null");
    oa_mri_task *t = NULL;
    oa_mdlri *m = NULL;
    oa_status st = get_task(task, &t, &m);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    if (m->is_sub) {
        st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "a task of a sub ACL graph does not support getting parameters");
    } else {
        pthread_mutex_lock(&m->args_mu);
        st = task_params(t, m, params);
        pthread_mutex_unlock(&m->args_mu);
    }
    put_task(t, m);
    ACL_RETURN_STATUS(st);
}

/*
 * CANN's "can this instance be updated" check; on success the instance is
 * UPDATING (a later aclmdlRIUpdate applies the changes). m->mu held.
 */
static oa_status begin_update(oa_mdlri *m)
{
    if (m->type != MRI_TYPE_CAPTURE) {
        return OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "only captured model runtime instances can be updated");
    }
    if (m->is_sub) {
        return OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "a sub ACL graph does not support update operations");
    }
    uint8_t s = mri_status_of(m);
    if (m->inflight > 0 || (s != MRI_READY && s != MRI_UPDATING)) {
        return OA_FAIL(OA_E_RT_MODEL_UPDATE_FAILED,
                       "model runtime instance %u is running or capturing (status %u, %d replay(s) in flight)", m->id,
                       (unsigned)s, m->inflight);
    }
    mri_set_status(m, MRI_UPDATING);
    return OA_OK;
}

static oa_status set_params(oa_mri_task *t, const aclmdlRITaskParams *p)
{
    aclmdlRITaskType have = task_type(t);
    if (p->type != have) {
        return OA_FAIL(OA_E_RT_PARAM, "params->type [%d] does not match the task's type [%d]", (int)p->type,
                       (int)have);
    }
    switch (p->type) {
    case ACL_MODEL_RI_TASK_KERNEL: {
        const aclmdlRIKernelTaskParams *k = &p->kernelTaskParams;
        if (k->args == NULL || k->argsSize != t->args_size) {
            return OA_FAIL(OA_E_RT_PARAM, "kernel task %u takes %zu bytes of arguments, got %zu at %p", t->seq,
                           t->args_size, k->argsSize, k->args);
        }
        void *n = aligned_alloc(16, (t->args_size + 15u) & ~(size_t)15u);
        if (n == NULL) {
            return OA_FAIL(OA_E_NOMEM, "cannot copy the new kernel arguments");
        }
        memcpy(n, k->args, t->args_size);
        free(t->pending_args);
        t->pending_args = n;
        return OA_OK;
    }
    case ACL_MODEL_RI_TASK_VALUE_WRITE:
    case ACL_MODEL_RI_TASK_VALUE_WAIT: {
        bool wait = p->type == ACL_MODEL_RI_TASK_VALUE_WAIT;
        void *addr = wait ? p->valueWaitTaskParams.devAddr : p->valueWriteTaskParams.devAddr;
        uint32_t flag = wait ? p->valueWaitTaskParams.flag : 0u;
        if (addr == NULL || ((uintptr_t)addr & 7u) != 0) {
            return OA_FAIL(OA_E_RT_PARAM, "devAddr [%p] must be an 8-byte aligned device address", addr);
        }
        if (flag > ACL_STREAM_WAIT_VALUE_NOR) {
            return OA_FAIL(OA_E_RT_PARAM, "flag [%u] must be an ACL_STREAM_WAIT_VALUE_* value", flag);
        }
        oa_value_args *v = aligned_alloc(16, (sizeof(*v) + 15u) & ~(size_t)15u);
        if (v == NULL) {
            return OA_FAIL(OA_E_NOMEM, "cannot copy the new value task parameters");
        }
        memset(v, 0, sizeof(*v));
        v->addr = addr;
        v->value = wait ? p->valueWaitTaskParams.value : p->valueWriteTaskParams.value;
        v->flag = flag;
        free(t->pending_args);
        t->pending_args = v;
        return OA_OK;
    }
    default:
        return OA_FAIL(OA_E_RT_PARAM,
                       "params->type [%d] cannot be set: only ACL_MODEL_RI_TASK_KERNEL(1), _VALUE_WRITE(5) and "
                       "_VALUE_WAIT(6) can",
                       (int)p->type);
    }
}

ACL_FUNC_VISIBILITY aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams *params)
{
    ACL_REQUIRE(params != NULL, OA_E_RT_PARAM, "parameter [params] must not be null");
    oa_mri_task *t = NULL;
    oa_mdlri *m = NULL;
    oa_status st = get_task(task, &t, &m);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    pthread_mutex_lock(&m->mu);
    st = begin_update(m);
    if (st == OA_OK) {
        st = set_params(t, params);
        if (st != OA_OK) {
            mri_set_status(m, MRI_FAULT); /* CANN: a failed parameter change leaves the instance unusable */
        }
    }
    pthread_mutex_unlock(&m->mu);
    put_task(t, m);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclmdlRITaskDisable(aclmdlRITask task)
{
    oa_mri_task *t = NULL;
    oa_mdlri *m = NULL;
    oa_status st = get_task(task, &t, &m);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    pthread_mutex_lock(&m->mu);
    st = begin_update(m);
    if (st == OA_OK) {
        if (task_type(t) == ACL_MODEL_RI_TASK_DEFAULT) {
            mri_set_status(m, MRI_FAULT);
            st = OA_FAIL(OA_E_RT_PARAM, "task %u is of type ACL_MODEL_RI_TASK_DEFAULT, which cannot be disabled",
                         t->seq);
        } else {
            t->pending_disable = true;
        }
    }
    pthread_mutex_unlock(&m->mu);
    put_task(t, m);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclmdlRIUpdate(aclmdlRI modelRI)
{
    oa_mdlri *m = NULL;
    oa_status st = oa_mdlri_get(modelRI, &m);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    pthread_mutex_lock(&m->mu);
    uint8_t s = mri_status_of(m);
    if (m->type != MRI_TYPE_CAPTURE) {
        st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "only captured model runtime instances can be updated");
    } else if (m->is_sub) {
        st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "a sub ACL graph does not support updating");
    } else if (s == MRI_READY) {
        st = OA_OK;
    } else if (s != MRI_UPDATING || m->inflight > 0) {
        st = OA_FAIL(OA_E_RT_MODEL_UPDATE_FAILED, "model runtime instance %u is not ready for update (status %u)",
                     m->id, (unsigned)s);
    } else {
        pthread_mutex_lock(&m->args_mu);
        for (uint32_t i = 0; i < m->ntasks; ++i) {
            oa_mri_task *t = m->tasks[i];
            if (t->pending_args != NULL) {
                free(t->args);
                t->args = t->pending_args;
                t->pending_args = NULL;
            }
            if (t->pending_disable) {
                t->disabled = true;
                t->pending_disable = false;
            }
        }
        pthread_mutex_unlock(&m->args_mu);
        mri_set_status(m, MRI_READY);
    }
    pthread_mutex_unlock(&m->mu);
    oa_mdlri_put(m);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclmdlRIKernelTaskGetAttribute(aclmdlRITask task, aclrtLaunchKernelAttrId attrId,
                                                            aclrtLaunchKernelAttrValue *attrValue)
{
    ACL_REQUIRE_NOT_NULL(task);
    ACL_REQUIRE_NOT_NULL(attrValue);
    oa_mri_task *t = NULL;
    oa_mdlri *m = NULL;
    oa_status st = get_task(task, &t, &m);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    if (task_type(t) != ACL_MODEL_RI_TASK_KERNEL) {
        st = OA_FAIL(OA_E_RT_PARAM,
                     "task %u is not a compute (kernel) task: check its type with aclmdlRITaskGetType first", t->seq);
    } else {
        memset(attrValue, 0, sizeof(*attrValue));
        switch (attrId) {
        case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
        case ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
        case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
        case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
        case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
            break; /* host kernels: default mode, no dynamic buffer, no dump, no timeout */
        default:
            st = OA_FAIL(OA_E_RT_PARAM, "kernel attribute [%d] cannot be obtained from a task", (int)attrId);
            break;
        }
    }
    put_task(t, m);
    ACL_RETURN_STATUS(st);
}

/* ---- debug printers ------------------------------------------------------------------------------------ */

static cJSON *describe_task(const oa_mri_task *t, bool verbose)
{
    cJSON *o = cJSON_CreateObject();
    if (o == NULL) {
        return NULL;
    }
    cJSON_AddNumberToObject(o, "seq_id", t->seq);
    cJSON_AddNumberToObject(o, "task_index", t->index);
    cJSON_AddStringToObject(o, "task_type", task_name(t));
    cJSON_AddNumberToObject(o, "acl_task_type", (double)task_type(t));
    if (t->disabled) {
        cJSON_AddBoolToObject(o, "disabled", true);
    }
    if (t->group != NULL) {
        cJSON_AddBoolToObject(o, "task_group", true);
    }
    if (t->ev != NULL) {
        cJSON_AddNumberToObject(o, "event_id", t->ev->id);
    }
    if (t->op == MRI_OP_WAIT && t->dep != NULL) {
        cJSON_AddNumberToObject(o, "waits_for_seq_id", t->dep->seq);
    }
    if (!verbose) {
        return o;
    }
    char buf[64];
    switch (t->op) {
    case MRI_OP_RUN:
        cJSON_AddNumberToObject(o, "args_size", (double)t->args_size);
        if (t->kind == OA_TASK_KIND_VALUE_WRITE || t->kind == OA_TASK_KIND_VALUE_WAIT) {
            const oa_value_args *v = t->args;
            snprintf(buf, sizeof(buf), "%p", (void *)v->addr);
            cJSON_AddStringToObject(o, "dev_addr", buf);
            cJSON_AddNumberToObject(o, "value", (double)v->value);
        }
        break;
    case MRI_OP_SWITCH_LABEL:
        snprintf(buf, sizeof(buf), "%p", t->u.sw_label.ptr);
        cJSON_AddStringToObject(o, "index_addr", buf);
        cJSON_AddNumberToObject(o, "max_value", t->u.sw_label.max);
        break;
    case MRI_OP_ACTIVE:
        cJSON_AddNumberToObject(o, "active_stream_id", t->u.active.target->stream->id);
        break;
    case MRI_OP_SWITCH:
        cJSON_AddNumberToObject(o, "true_stream_id", t->u.sw.target->stream->id);
        cJSON_AddNumberToObject(o, "condition", t->u.sw.cond);
        break;
    case MRI_OP_COND:
        cJSON_AddNumberToObject(o, "condition_type", t->u.cond->type);
        cJSON_AddNumberToObject(o, "branches", t->u.cond->size);
        break;
    default:
        break;
    }
    return o;
}

static char *describe_model(oa_mdlri *m, bool verbose)
{
    cJSON *root = cJSON_CreateArray();
    if (root == NULL) {
        return NULL;
    }
    oa_cap_lock();
    for (uint32_t i = 0; i < m->nstreams; ++i) {
        const oa_mri_stream *ms = m->streams[i];
        cJSON *so = cJSON_CreateObject();
        if (so == NULL) {
            continue;
        }
        cJSON_AddNumberToObject(so, "model_id", m->id);
        cJSON_AddNumberToObject(so, "stream_id", ms->stream->id);
        cJSON_AddBoolToObject(so, "origin", ms->origin);
        cJSON_AddBoolToObject(so, "head", ms->head);
        cJSON_AddNumberToObject(so, "task_count", ms->ntasks);
        cJSON *tasks = cJSON_AddArrayToObject(so, "tasks");
        for (uint32_t j = 0; tasks != NULL && j < ms->ntasks; ++j) {
            cJSON *to = describe_task(ms->tasks[j], verbose);
            if (to != NULL) {
                cJSON_AddItemToArray(tasks, to);
            }
        }
        cJSON_AddItemToArray(root, so);
    }
    oa_cap_unlock();
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    return text;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char *path, uint32_t flags)
{
    ACL_REQUIRE_NOT_NULL(modelRI);
    ACL_REQUIRE_NOT_NULL(path);
    oa_mdlri *m = NULL;
    oa_status st = oa_mdlri_get(modelRI, &m);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    st = oa_mdlri_check_context(m, "exporting the model runtime instance information in JSON format");
    char *text = st == OA_OK ? describe_model(m, (flags & ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE) != 0) : NULL;
    if (st == OA_OK && text == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "cannot build the JSON description");
    }
    if (st == OA_OK) {
        FILE *f = fopen(path, "w");
        if (f == NULL) {
            st = OA_FAIL(OA_E_RT_PARAM, "failed to open the JSON file path [%s]: %s", path, strerror(errno));
        } else {
            bool ok = fputs(text, f) >= 0 && fputc('\n', f) != EOF;
            ok = fclose(f) == 0 && ok;
            if (!ok) {
                st = OA_FAIL(OA_E_RT_PARAM, "failed to write the JSON file [%s]", path);
            }
        }
    }
    free(text);
    oa_mdlri_put(m);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclmdlRIDebugPrint(aclmdlRI modelRI)
{
    ACL_REQUIRE_NOT_NULL(modelRI);
    oa_mdlri *m = NULL;
    oa_status st = oa_mdlri_get(modelRI, &m);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    st = oa_mdlri_check_context(m, "printing the model runtime instance");
    if (st == OA_OK) {
        oa_cap_lock();
        OA_LOGI("model runtime instance %u: %u stream(s), %u task(s), status %u", m->id, m->nstreams, m->ntasks,
                (unsigned)mri_status_of(m));
        for (uint32_t i = 0; i < m->nstreams; ++i) {
            const oa_mri_stream *ms = m->streams[i];
            OA_LOGI("  stream %d%s%s: %u task(s)", ms->stream->id, ms->origin ? " (origin)" : "",
                    ms->head ? " (head)" : "", ms->ntasks);
            for (uint32_t j = 0; j < ms->ntasks; ++j) {
                const oa_mri_task *t = ms->tasks[j];
                if (t->op == MRI_OP_WAIT && t->dep != NULL) {
                    OA_LOGI("    [%u] %s -> waits for [%u] on stream %d", t->seq, task_name(t), t->dep->seq,
                            t->dep->ms->stream->id);
                } else {
                    OA_LOGI("    [%u] %s%s", t->seq, task_name(t), t->disabled ? " (disabled)" : "");
                }
            }
        }
        oa_cap_unlock();
    }
    oa_mdlri_put(m);
    ACL_RETURN_STATUS(st);
}

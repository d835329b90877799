/*
 * Stream capture: aclmdlRICaptureBegin/End/GetInfo, the thread exchange
 * mode, cross-stream capture through events, invalidation, task groups and
 * their updates, and the checks other runtime entry points make while
 * captures are active.
 *
 * A capturing stream has an interceptor (oa_stream_set_interceptor): every
 * task submitted to it is appended to its model stream instead of being
 * queued. Event operations are handled before they become tasks
 * (oa_capture_event_*, capture_event.c), because a captured record or wait must not touch the
 * event's real state: a record inside a capture binds the event to that
 * record task, and a wait on a bound event makes the waiting stream join the
 * capture and depend on that record. Everything here happens under one
 * process-wide lock (g_cap_mu); replays never take it.
 */
#define OA_LOG_MODULE "RUNTIME"
#include <stdlib.h>
#include <string.h>

#include "acl_rt/capture_internal.h"
#include "base/acl_check.h"
#include "base/error.h"

#define MODE_NONE 3 /* no capture: above every aclmdlRICaptureMode */

/* Recursive: freeing an instance (which may happen while it is held) takes it again. */
static pthread_mutex_t g_cap_mu = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
int32_t g_oa_cap_users;         /* streams with a capture role or in update mode (atomic) */
static int32_t g_active_captures; /* captures begun and not ended (atomic) */

void oa_cap_lock(void)
{
    pthread_mutex_lock(&g_cap_mu);
}

void oa_cap_unlock(void)
{
    pthread_mutex_unlock(&g_cap_mu);
}

/* ---- per-thread capture modes -------------------------------------------------------- */

/*
 * The captures a thread began, per mode. Referenced by the thread (TLS, key
 * destructor) and by each capture it began, so that ending a capture from
 * another thread (or tearing it down) still finds the counts.
 */
struct oa_cap_thread {
    int32_t refs;
    int32_t mode_refs[3];
};

static _Thread_local struct oa_cap_thread *t_thread;
static _Thread_local int32_t t_exchange_mode; /* ACL_MODEL_RI_CAPTURE_MODE_GLOBAL (0) initially */
static pthread_key_t g_thread_key;
static pthread_once_t g_key_once = PTHREAD_ONCE_INIT;

static void thread_put(struct oa_cap_thread *t)
{
    if (t != NULL && __atomic_fetch_sub(&t->refs, 1, __ATOMIC_ACQ_REL) == 1) {
        free(t);
    }
}

static void thread_key_dtor(void *p)
{
    thread_put(p);
}

static void make_key(void)
{
    (void)pthread_key_create(&g_thread_key, thread_key_dtor);
}

static struct oa_cap_thread *thread_self(void)
{
    if (t_thread == NULL) {
        struct oa_cap_thread *t = calloc(1, sizeof(*t));
        if (t == NULL) {
            return NULL;
        }
        t->refs = 1;
        (void)pthread_once(&g_key_once, make_key);
        (void)pthread_setspecific(g_thread_key, t);
        t_thread = t;
    }
    return t_thread;
}

/* Most restrictive mode with a live count, MODE_NONE when none. */
static int32_t lowest_mode(const int32_t *refs)
{
    for (int32_t m = 0; m < 3; ++m) {
        if (__atomic_load_n(&refs[m], __ATOMIC_ACQUIRE) > 0) {
            return m;
        }
    }
    return MODE_NONE;
}

static const char *mode_name(int32_t m)
{
    switch (m) {
    case ACL_MODEL_RI_CAPTURE_MODE_GLOBAL:
        return "GLOBAL";
    case ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL:
        return "THREAD_LOCAL";
    case ACL_MODEL_RI_CAPTURE_MODE_RELAXED:
        return "RELAXED";
    default:
        return "NONE";
    }
}

/* ---- hooks for task kinds -------------------------------------------------------------- */

/* A few modules per kind at most (model_v1 and model_v2 share OA_TASK_KIND_MODEL): told apart by run function. */
#define HOOKS_PER_KIND 4
static const oa_capture_hooks *g_hooks[OA_TASK_KIND_COUNT][HOOKS_PER_KIND];
static pthread_mutex_t g_hooks_mu = PTHREAD_MUTEX_INITIALIZER;

oa_status oa_capture_register_hooks(oa_task_kind kind, const oa_capture_hooks *hooks)
{
    if ((unsigned)kind >= OA_TASK_KIND_COUNT) {
        return OA_FAIL(OA_E_PARAM, "task kind [%d] is out of range", (int)kind);
    }
    oa_status st = OA_OK;
    pthread_mutex_lock(&g_hooks_mu);
    if (hooks == NULL) {
        for (int i = 0; i < HOOKS_PER_KIND; ++i) {
            __atomic_store_n(&g_hooks[kind][i], NULL, __ATOMIC_RELEASE);
        }
    } else {
        int free_slot = -1;
        bool known = false;
        for (int i = 0; i < HOOKS_PER_KIND; ++i) {
            const oa_capture_hooks *h = g_hooks[kind][i];
            known = known || h == hooks;
            if (h != NULL && h != hooks && h->run == hooks->run) {
                /* a newer table for the same tasks replaces the old one */
                __atomic_store_n(&g_hooks[kind][i], hooks, __ATOMIC_RELEASE);
                known = true;
            }
            if (h == NULL && free_slot < 0) {
                free_slot = i;
            }
        }
        if (!known && free_slot < 0) {
            st = OA_FAIL(OA_E_PARAM, "too many hook tables for task kind [%d]", (int)kind);
        } else if (!known) {
            __atomic_store_n(&g_hooks[kind][free_slot], hooks, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&g_hooks_mu);
    return st;
}

const oa_capture_hooks *oa_capture_hooks_of(uint16_t kind, oa_task_run_fn run)
{
    if (kind >= OA_TASK_KIND_COUNT) {
        return NULL;
    }
    const oa_capture_hooks *any = NULL;
    for (int i = 0; i < HOOKS_PER_KIND; ++i) {
        const oa_capture_hooks *h = __atomic_load_n(&g_hooks[kind][i], __ATOMIC_ACQUIRE);
        if (h != NULL && h->run == run) {
            return h;
        }
        if (h != NULL && h->run == NULL && any == NULL) {
            any = h;
        }
    }
    return any;
}

/* ---- stream links ---------------------------------------------------------------------- */

bool oa_cap_link_capturing(const oa_cap_link *l)
{
    return l->role == OA_CAP_ORIGIN || l->role == OA_CAP_JOINED;
}

/* Capture status of a stream; an invalidated instance invalidates all its streams. */
static aclmdlRICaptureStatus link_status(const oa_cap_link *l)
{
    if (!oa_cap_link_capturing(l)) {
        return ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    }
    if (l->status == ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED || mri_status_of(l->model) == MRI_CAPTURE_INVALIDATED) {
        return ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED;
    }
    return ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
}

static bool model_capturing(const oa_mdlri *m)
{
    return m != NULL && (mri_status_of(m) == MRI_CAPTURE_ACTIVE || mri_status_of(m) == MRI_CAPTURE_INVALIDATED);
}

/* Invalidates a capture: ending it reports ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED. Lock held. */
void oa_cap_invalidate(oa_mdlri *m, const char *why)
{
    if (mri_status_of(m) == MRI_CAPTURE_ACTIVE) {
        mri_set_status(m, MRI_CAPTURE_INVALIDATED);
        OA_LOGW("capture of model runtime instance %u is invalidated: %s", m->id, why);
    }
    for (uint32_t i = 0; i < m->nusers; ++i) {
        if (m->users[i]->cap.model == m) {
            m->users[i]->cap.status = ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED;
        }
    }
}

/* A task group of a capture failed (a task it cannot hold, or work on another stream interrupting it): the group
 * keeps the error for aclmdlRICaptureTaskGrpEnd and the capture is invalidated, as CANN does. Lock held. */
void oa_cap_group_failed(oa_mdlri *m, oa_status code)
{
    m->group_error = code;
    if (mri_status_of(m) == MRI_CAPTURE_ACTIVE) {
        oa_cap_invalidate(m, "a task group failed");
    }
}

static oa_status cap_intercept(void *ctx, oa_stream *s, const oa_task_desc *desc);

static oa_status add_user(oa_mdlri *m, oa_stream *s)
{
    oa_stream **n = realloc(m->users, (m->nusers + 1u) * sizeof(*n));
    if (n == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot grow the stream list of a capture");
    }
    m->users = n;
    oa_obj_ref(&s->obj);
    m->users[m->nusers++] = s;
    return OA_OK;
}

/* The stream stops capturing. Lock held. */
static void exit_stream(oa_stream *s)
{
    oa_cap_link *l = &s->cap;
    if (l->thread != NULL) {
        thread_put(l->thread);
    }
    memset(l, 0, sizeof(*l));
    oa_stream_set_interceptor(s, NULL, NULL);
    __atomic_fetch_sub(&g_oa_cap_users, 1, __ATOMIC_ACQ_REL);
}

/* Releases the mode counts of a capture (CANN's CaptureModeExit). Lock held; l is the origin's link. */
static void mode_exit(oa_cap_link *l)
{
    int32_t mode = l->mode;
    if (mode < 0 || mode > 2) {
        return;
    }
    __atomic_fetch_sub(&l->model->ctx->cap_mode_refs[mode], 1, __ATOMIC_ACQ_REL);
    if (l->thread != NULL) {
        __atomic_fetch_sub(&l->thread->mode_refs[mode], 1, __ATOMIC_ACQ_REL);
    }
    __atomic_fetch_sub(&g_active_captures, 1, __ATOMIC_ACQ_REL);
    l->mode = -1;
}

/*
 * Every stream of the capture leaves capture mode, the captured events are
 * released and open task groups are closed. Lock held.
 */
static void leave_capture(oa_mdlri *m)
{
    for (uint32_t i = 0; i < m->nusers; ++i) {
        oa_stream *s = m->users[i];
        if (s->cap.model == m && oa_cap_link_capturing(&s->cap)) {
            exit_stream(s);
        }
        oa_obj_unref(&s->obj);
    }
    free(m->users);
    m->users = NULL;
    m->nusers = 0;
    for (uint32_t i = 0; i < m->nstreams; ++i) {
        m->streams[i]->sampling = NULL;
    }
    m->open_groups = 0;
    oa_mdlri_unbind_events(m);
}

/* Ends the captures still running into the sub-instances of m (m's capture failed). Lock held. */
static void abandon_subs(oa_mdlri *m)
{
    for (uint32_t i = 0; i < m->nconds; ++i) {
        oa_mri_cond *c = m->conds[i];
        for (uint32_t j = 0; j < c->size; ++j) {
            oa_mdlri *sub = c->subs[j];
            abandon_subs(sub);
            if (!model_capturing(sub)) {
                continue;
            }
            for (uint32_t k = 0; k < sub->nusers; ++k) {
                oa_stream *u = sub->users[k];
                if (u->cap.model == sub && u->cap.role == OA_CAP_ORIGIN) {
                    mode_exit(&u->cap);
                }
            }
            OA_LOGW("the capture into sub ACL graph %u ends with its parent's", sub->id);
            leave_capture(sub);
            oa_mdlri_clear(sub);
        }
    }
}

/* A failed capture: the streams leave capture mode; a root instance goes away, a sub-instance is emptied. */
static bool abandon_capture(oa_mdlri *m)
{
    abandon_subs(m);
    leave_capture(m);
    if (m->is_sub) {
        oa_mdlri_clear(m);
        return false;
    }
    mri_set_status(m, MRI_CAPTURE_INVALIDATED);
    return true; /* caller discards it once the lock is released */
}

/* Adds s to the capture of m as a joined stream. Lock held. */
oa_status oa_cap_join_capture(oa_stream *s, oa_mdlri *m)
{
    oa_mri_stream *ms = NULL;
    oa_status st = oa_mdlri_add_stream(m, s, true, false, true, &ms);
    if (st != OA_OK) {
        oa_cap_invalidate(m, "a stream could not join the capture");
        return st;
    }
    st = add_user(m, s);
    if (st != OA_OK) {
        oa_cap_invalidate(m, "a stream could not join the capture");
        return st;
    }
    oa_cap_link *l = &s->cap;
    memset(l, 0, sizeof(*l));
    l->model = m;
    l->ms = ms;
    l->role = OA_CAP_JOINED;
    l->status = mri_status_of(m) == MRI_CAPTURE_INVALIDATED ? ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED
                                                      : ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
    l->mode = -1;
    __atomic_fetch_add(&g_oa_cap_users, 1, __ATOMIC_ACQ_REL);
    oa_stream_set_interceptor(s, cap_intercept, s);
    OA_LOGI("stream %d joined the capture of model runtime instance %u", s->id, m->id);
    return OA_OK;
}

/* ---- the interceptor ------------------------------------------------------------------------ */

typedef struct update_args {
    oa_mdlri *model;   /* referenced */
    oa_mri_task *target;
    void *args;
    size_t size;
    oa_task_run_fn run;
    oa_task_release_fn release;
    bool ran;
} update_args;

static void free_args_copy(oa_task_release_fn release, void *args)
{
    if (release != NULL) {
        release(args);
    }
    free(args);
}

/* Runs on the update stream: the group's task takes the new parameters from now on. */
static oa_status update_run(void *p, const oa_task_exec *exec)
{
    (void)exec;
    update_args *a = p;
    oa_mri_task *t = a->target;
    pthread_mutex_lock(&a->model->args_mu);
    void *old = t->args;
    oa_task_release_fn old_release = t->release;
    t->args = a->args;
    t->args_size = a->size;
    t->run = a->run;
    t->release = a->release;
    pthread_mutex_unlock(&a->model->args_mu);
    a->ran = true;
    free_args_copy(old_release, old);
    return OA_OK;
}

static void update_release(void *p)
{
    update_args *a = p;
    if (!a->ran) {
        free_args_copy(a->release, a->args);
    }
    oa_mdlri_put(a->model);
}

static void *copy_args(const oa_task_desc *d)
{
    size_t n = d->args_size == 0 ? 16u : (d->args_size + 15u) & ~(size_t)15u;
    void *p = aligned_alloc(16, n);
    if (p != NULL) {
        memset(p, 0, n);
        if (d->args_size > 0) {
            memcpy(p, d->args, d->args_size);
        }
    }
    return p;
}

/* A task submitted to a stream in task-update mode replaces the next task of the group. Lock held. */
static oa_status intercept_update(oa_stream *s, const oa_task_desc *d, update_args *out)
{
    oa_cap_link *l = &s->cap;
    oa_mri_group *g = l->update;
    if (d->kind != OA_TASK_KIND_KERNEL) {
        return OA_FAIL(OA_E_RT_TASK_TYPE_NOT_SUPPORT,
                       "stream %d is updating a task group: only kernel tasks can update it (task kind %d)", s->id,
                       (int)d->kind);
    }
    if (l->update_next >= g->ntasks) {
        return OA_FAIL(OA_E_RT_INTERNAL, "the task group being updated on stream %d has only %u task(s)", s->id,
                       g->ntasks);
    }
    void *args = copy_args(d);
    if (args == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot copy the arguments of an update task");
    }
    oa_obj_ref(&l->model->obj);
    *out = (update_args){.model = l->model,
                         .target = g->tasks[l->update_next],
                         .args = args,
                         .size = d->args_size,
                         .run = d->run,
                         .release = d->release,
                         .ran = false};
    l->update_next++;
    return OA_OK;
}

/* Appends an ordinary task to the capture or built instance of s. Lock held. */
static oa_status intercept_append(oa_stream *s, const oa_task_desc *d)
{
    oa_cap_link *l = &s->cap;
    oa_mdlri *m = l->model;
    oa_mri_stream *ms = l->ms;
    if (l->role == OA_CAP_BOUND && mri_status_of(m) != MRI_NONE) {
        return OA_FAIL(OA_E_RT_STREAM_MODEL, "stream %d is bound to model runtime instance %u, which is already built",
                       s->id, m->id);
    }
    if (d->kind == OA_TASK_KIND_EVENT_RECORD || d->kind == OA_TASK_KIND_EVENT_WAIT ||
        d->kind == OA_TASK_KIND_EVENT_RESET) {
        return OA_FAIL(OA_E_RT_PARAM, "event tasks reach a capture through the event API only (stream %d)", s->id);
    }
    if (ms->sampling != NULL) {
        if (d->kind != OA_TASK_KIND_KERNEL) {
            oa_cap_group_failed(m, OA_E_RT_TASK_TYPE_NOT_SUPPORT);
            return OA_FAIL(OA_E_RT_TASK_TYPE_NOT_SUPPORT,
                           "only kernel tasks can be added to a task group (stream %d, task kind %d)", s->id,
                           (int)d->kind);
        }
    } else if (m->open_groups > 0) {
        oa_cap_group_failed(m, OA_E_RT_TASK_GROUP_INTR);
        return OA_FAIL(OA_E_RT_TASK_GROUP_INTR,
                       "a task group is open on another stream of the capture: the task on stream %d interrupts it",
                       s->id);
    }
    oa_mri_task *t = NULL;
    oa_status st = oa_mdlri_append(ms, MRI_OP_RUN, d, &t);
    if (st != OA_OK) {
        if (oa_cap_link_capturing(l)) {
            oa_cap_invalidate(m, "a task could not be recorded");
        }
        return st;
    }
    if (t->hooks != NULL && t->hooks->on_capture != NULL) {
        st = t->hooks->on_capture(m, s, t->args, t->args_size, &t->hook_state);
        if (st != OA_OK) {
            /* The task stays (its release runs with the instance, no other hook does); the capture cannot succeed. */
            t->disabled = true;
            t->hooks = NULL;
            if (oa_cap_link_capturing(l)) {
                oa_cap_invalidate(m, "a captured task refused the capture");
            }
            return st;
        }
    }
    if (d->kind == OA_TASK_KIND_CALLBACK || d->kind == OA_TASK_KIND_HOST_FUNC) {
        if (ms->stream != s) {
            oa_rt_subscription_copy(s, ms->stream);
        }
    }
    return OA_OK;
}

static oa_status cap_intercept(void *ctx, oa_stream *s, const oa_task_desc *desc)
{
    (void)ctx;
    oa_cap_lock();
    oa_cap_link *l = &s->cap;
    if (l->grp == 2) {
        update_args a;
        oa_status st = intercept_update(s, desc, &a);
        oa_cap_unlock();
        if (st != OA_OK) {
            return st;
        }
        oa_task_desc u = {.kind = OA_TASK_KIND_KERNEL,
                          .run = update_run,
                          .release = update_release,
                          .args = &a,
                          .args_size = sizeof(a)};
        st = oa_stream_submit_direct(s, &u, NULL);
        if (st != OA_OK) {
            update_release(&a);
        }
        return st;
    }
    oa_status st;
    switch (l->role) {
    case OA_CAP_ORIGIN:
    case OA_CAP_JOINED:
    case OA_CAP_BOUND:
        st = intercept_append(s, desc);
        oa_cap_unlock();
        return st;
    case OA_CAP_INTERNAL:
        oa_cap_unlock();
        return OA_FAIL(OA_E_RT_STREAM_MODEL, "stream %d is a stream of a captured model runtime instance", s->id);
    default:
        /* The capture ended while the submission was on its way: queue the task normally. */
        oa_cap_unlock();
        return oa_stream_submit_direct(s, desc, NULL);
    }
}

/* ---- begin / end ---------------------------------------------------------------------------------- */

static oa_status check_capture_flags(const oa_stream *s, const char *what)
{
    if ((s->acl_flags & ACL_STREAM_DEVICE_USE_ONLY) != 0) {
        return OA_FAIL(OA_E_RT_INTERNAL, "%s: stream %d (flags %#x) does not support the ACL graph", what, s->id,
                       s->acl_flags);
    }
    return OA_OK;
}

static oa_status capture_begin(aclrtStream stream, int32_t mode, aclmdlRI target)
{
    if (mode < ACL_MODEL_RI_CAPTURE_MODE_GLOBAL || mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED) {
        return OA_FAIL(OA_E_RT_PARAM, "capture mode [%d] must be in [0, 3)", mode);
    }
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        return st;
    }
    st = check_capture_flags(s, "stream begin capture");
    oa_mdlri *given = NULL;
    if (st == OA_OK && target != NULL) {
        st = oa_mdlri_get(target, &given);
        if (st == OA_OK && (given->type != MRI_TYPE_CAPTURE || !given->is_sub)) {
            st = OA_FAIL(OA_E_RT_PARAM, "model runtime instance %u is not a sub ACL graph (from aclmdlRIAddCondTask)",
                         given->id);
        }
    }
    struct oa_cap_thread *self = thread_self();
    if (st == OA_OK && self == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "cannot allocate the thread capture state");
    }
    oa_mdlri *created = NULL;
    bool added = false;
    if (st == OA_OK) {
        oa_cap_lock();
        oa_cap_link *l = &s->cap;
        if (l->role == OA_CAP_BOUND || l->role == OA_CAP_INTERNAL) {
            st = OA_FAIL(OA_E_RT_STREAM_MODEL, "stream %d is already a stream of model runtime instance %u", s->id,
                         l->model->id);
        } else if (s->is_default) {
            st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "the default stream (stream_id=%d) cannot be used in the ACL graph",
                         s->id);
        } else if (given != NULL && mri_status_of(given) != MRI_NONE) {
            st = OA_FAIL(OA_E_RT_MODEL_CAPTURED, "model runtime instance %u is already captured", given->id);
        } else if (oa_cap_link_capturing(l)) {
            st = OA_FAIL(OA_E_RT_STREAM_CAPTURED, "stream %d is already in capture status (%s)", s->id,
                         link_status(l) == ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE ? "active" : "invalidated");
        } else if (l->grp != 0) {
            st = OA_FAIL(OA_E_RT_TASK_GROUP_STATUS, "stream %d is updating a task group and cannot begin a capture",
                         s->id);
        }
        oa_mdlri *m = given;
        if (st == OA_OK && m == NULL) {
            st = oa_mdlri_create(s->ctx, MRI_TYPE_CAPTURE, false, &created);
            m = created;
        }
        oa_mri_stream *ms = NULL;
        if (st == OA_OK) {
            st = oa_mdlri_add_stream(m, s, true, true, true, &ms);
            added = st == OA_OK;
        }
        if (st == OA_OK) {
            st = add_user(m, s);
        }
        if (st == OA_OK) {
            memset(l, 0, sizeof(*l));
            l->model = m;
            l->ms = ms;
            l->role = OA_CAP_ORIGIN;
            l->status = ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
            l->mode = (int8_t)mode;
            l->thread = self;
            __atomic_fetch_add(&self->refs, 1, __ATOMIC_ACQ_REL);
            mri_set_status(m, MRI_CAPTURE_ACTIVE);
            __atomic_fetch_add(&m->ctx->cap_mode_refs[mode], 1, __ATOMIC_ACQ_REL);
            __atomic_fetch_add(&self->mode_refs[mode], 1, __ATOMIC_ACQ_REL);
            __atomic_fetch_add(&g_active_captures, 1, __ATOMIC_ACQ_REL);
            __atomic_fetch_add(&g_oa_cap_users, 1, __ATOMIC_ACQ_REL);
            oa_stream_set_interceptor(s, cap_intercept, s);
            created = NULL; /* the handle stays alive while capturing */
            OA_LOGI("stream %d of device %d begins capture into model runtime instance %u (mode %s)", s->id,
                    s->device_id, m->id, mode_name(mode));
        } else if (given != NULL && added) {
            oa_mdlri_clear(given);
        }
        oa_cap_unlock();
    }
    if (created != NULL) {
        oa_mdlri_discard(created);
    }
    if (given != NULL) {
        oa_mdlri_put(given);
    }
    oa_stream_release(s);
    return st;
}

/* End-of-capture validity (CANN's capture model validity check). Lock held. */
static oa_status check_joined(const oa_mdlri *m)
{
    bool side = false;
    bool back_to_origin = false;
    for (uint32_t i = 0; i < m->nstreams; ++i) {
        const oa_mri_stream *ms = m->streams[i];
        if (ms->origin) {
            continue;
        }
        side = true;
        const oa_mri_task *last = ms->ntasks > 0 ? ms->tasks[ms->ntasks - 1] : NULL;
        int32_t sid = ms->stream->id;
        if (last == NULL || last->op != MRI_OP_RECORD) {
            return OA_FAIL(OA_E_RT_STREAM_UNJOINED,
                           "in the cross-stream capture, the last task of side stream %d is not an event record: call "
                           "aclrtRecordEvent on it and wait for that event on the origin stream",
                           sid);
        }
        if (!last->waited) {
            return OA_FAIL(OA_E_RT_STREAM_UNJOINED,
                           "in the cross-stream capture, the last task of side stream %d (an event record) has no "
                           "matching event wait",
                           sid);
        }
        if (last->waited_by_origin) {
            back_to_origin = true;
        }
    }
    if (side && !back_to_origin) {
        return OA_FAIL(OA_E_RT_STREAM_UNJOINED,
                       "in the cross-stream capture, the origin stream has no event wait: the side streams are not "
                       "joined back to it");
    }
    return OA_OK;
}

static oa_status capture_end(aclrtStream stream, aclmdlRI *out)
{
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        if (out != NULL) {
            *out = NULL;
        }
        return st;
    }
    oa_mdlri *drop = NULL;
    oa_mdlri *result = NULL;
    oa_cap_lock();
    oa_cap_link *l = &s->cap;
    oa_mdlri *m = l->model;
    if (oa_cap_link_capturing(l) && !m->is_sub && out == NULL) {
        st = OA_FAIL(OA_E_RT_PARAM, "parameter [modelRI] must not be null when ending the capture of stream %d",
                     s->id);
    } else if (l->role == OA_CAP_BOUND || l->role == OA_CAP_INTERNAL) {
        st = OA_FAIL(OA_E_RT_STREAM_MODEL, "stream %d is a stream of model runtime instance %u", s->id, m->id);
    } else if (s->is_default) {
        st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "the default stream (stream_id=%d) cannot be used in the ACL graph",
                     s->id);
    } else if (!oa_cap_link_capturing(l)) {
        st = OA_FAIL(OA_E_RT_STREAM_NOT_CAPTURED,
                     "stream %d is not in capture status: call aclmdlRICaptureBegin on it first", s->id);
    } else if (l->role != OA_CAP_ORIGIN) {
        st = OA_FAIL(OA_E_RT_CAPTURE_UNMATCHED, "the capture was not begun on stream %d", s->id);
    } else if (l->thread != t_thread && l->mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED) {
        mode_exit(l);
        st = OA_FAIL(OA_E_RT_CAPTURE_WRONG_THREAD,
                     "the capture of stream %d (mode %s) must be ended by the thread that began it; the capture is "
                     "discarded",
                     s->id, mode_name(l->mode));
        drop = abandon_capture(m) ? m : NULL;
    } else {
        mode_exit(l);
        if (link_status(l) == ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED) {
            st = OA_FAIL(OA_E_RT_CAPTURE_INVALIDATED,
                         "the capture of stream %d (model runtime instance %u) was invalidated by an earlier error",
                         s->id, m->id);
        } else if (!oa_mdlri_subs_ready(m)) {
            st = OA_FAIL(OA_E_RT_SUB_GRAPH_CAPTURING,
                         "a sub ACL graph of model runtime instance %u is still capturing (stream %d)", m->id, s->id);
        } else if (m->open_groups > 0) {
            st = OA_FAIL(OA_E_RT_TASK_GROUP_STATUS, "a task group is still open in the capture of stream %d", s->id);
        } else {
            st = check_joined(m);
        }
        if (st != OA_OK) {
            drop = abandon_capture(m) ? m : NULL;
        } else {
            leave_capture(m);
            st = oa_mdlri_finalize(m);
            if (st != OA_OK) {
                drop = m->is_sub ? NULL : m;
                if (m->is_sub) {
                    oa_mdlri_clear(m);
                }
            } else {
                result = m;
                OA_LOGI("stream %d ended its capture: model runtime instance %u has %u task(s) on %u stream(s)",
                        s->id, m->id, m->ntasks, m->nstreams);
            }
        }
    }
    oa_cap_unlock();
    if (out != NULL) {
        *out = result != NULL ? (aclmdlRI)result : NULL;
    }
    if (drop != NULL) {
        oa_mdlri_discard(drop);
    }
    oa_stream_release(s);
    return st;
}

static oa_status capture_get_info(aclrtStream stream, aclmdlRICaptureStatus *status, aclmdlRI *model)
{
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire_any_context(stream, &s);
    if (st != OA_OK) {
        return st;
    }
    oa_cap_lock();
    aclmdlRICaptureStatus cs = link_status(&s->cap);
    aclmdlRI m = cs != ACL_MODEL_RI_CAPTURE_STATUS_NONE ? (aclmdlRI)s->cap.model : NULL;
    oa_cap_unlock();
    if (status != NULL) {
        *status = cs;
    }
    if (model != NULL) {
        *model = m;
    }
    oa_stream_release(s);
    return OA_OK;
}

/* ---- queries and checks for the rest of the runtime --------------------------------------------------- */

bool oa_capture_stream_capturing(oa_stream *s)
{
    if (__atomic_load_n(&g_oa_cap_users, __ATOMIC_ACQUIRE) == 0) {
        return false;
    }
    oa_cap_lock();
    bool r = oa_cap_link_capturing(&s->cap);
    oa_cap_unlock();
    return r;
}

oa_status oa_capture_check_stream_op(oa_stream *s, const char *what)
{
    if (oa_capture_stream_capturing(s)) {
        return OA_FAIL(OA_E_RT_STREAM_CAPTURED, "%s: stream %d is in the capture stage, which is not supported", what,
                       s->id);
    }
    return OA_OK;
}

/* CANN's capture-mode matrix for synchronous operations; true when allowed. */
static bool sync_allowed(int32_t *ctx_mode, int32_t *thr_mode)
{
    *ctx_mode = MODE_NONE;
    *thr_mode = MODE_NONE;
    if (__atomic_load_n(&g_active_captures, __ATOMIC_ACQUIRE) == 0) {
        return true;
    }
    oa_context *ctx = oa_ctx_current_quiet(false);
    if (ctx == NULL) {
        return true;
    }
    *ctx_mode = lowest_mode(ctx->cap_mode_refs);
    oa_ctx_release(ctx);
    if (*ctx_mode == MODE_NONE) {
        return true;
    }
    *thr_mode = t_thread != NULL ? lowest_mode(t_thread->mode_refs) : MODE_NONE;
    int32_t ex = t_exchange_mode;
    if (ex == ACL_MODEL_RI_CAPTURE_MODE_RELAXED) {
        return true;
    }
    if (ex == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL &&
        (*ctx_mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL || *thr_mode == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL)) {
        return false;
    }
    if (ex == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL &&
        (*thr_mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL || *thr_mode == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL)) {
        return false;
    }
    return true;
}

static oa_status refuse_sync(oa_status code, const char *what, int32_t ctx_mode, int32_t thr_mode)
{
    if (thr_mode == MODE_NONE || thr_mode == ACL_MODEL_RI_CAPTURE_MODE_RELAXED) {
        return OA_FAIL(code,
                       "%s is not allowed: another thread of the current context is capturing (capture mode %s, this "
                       "thread's capture mode %s, exchange mode %s); call aclmdlRICaptureThreadExchangeMode to change "
                       "the capture mode of this thread",
                       what, mode_name(ctx_mode), mode_name(thr_mode), mode_name(t_exchange_mode));
    }
    return OA_FAIL(code,
                   "%s is not allowed: this thread is capturing (capture mode %s, exchange mode %s); only the RELAXED "
                   "mode allows it",
                   what, mode_name(thr_mode), mode_name(t_exchange_mode));
}

oa_status oa_capture_check_sync_op(const char *what)
{
    int32_t cm, tm;
    if (sync_allowed(&cm, &tm)) {
        return OA_OK;
    }
    return refuse_sync(OA_E_RT_CAPTURE_MODE, what, cm, tm);
}

oa_status oa_capture_check_pageable_copy(oa_stream *s, const char *what)
{
    if (oa_capture_stream_capturing(s)) {
        return OA_FAIL(OA_E_RT_PARAM, "%s on stream %d: a copy involving pageable host memory cannot be captured",
                       what, s->id);
    }
    int32_t cm, tm;
    if (sync_allowed(&cm, &tm)) {
        return OA_OK;
    }
    return refuse_sync(OA_E_RT_CAPTURE_BLOCK_ASYNC, what, cm, tm);
}

bool oa_cap_event_capturing(const oa_event *ev)
{
    return model_capturing(ev->cap_model);
}

oa_status oa_capture_check_event_op(oa_event *ev, const char *what)
{
    if (__atomic_load_n(&ev->cap_model, __ATOMIC_ACQUIRE) == NULL) {
        return OA_OK;
    }
    oa_cap_lock();
    bool busy = oa_cap_event_capturing(ev);
    oa_cap_unlock();
    if (busy) {
        return OA_FAIL(OA_E_RT_EVENT_CAPTURED, "%s: event %u is in the capture stage, which is not supported", what,
                       ev->id);
    }
    return OA_OK;
}


/* ---- binding streams to built instances (capture_model.c calls these) ---------------------------- */

oa_status oa_capture_bind_stream(oa_stream *s, oa_mdlri *m, bool head)
{
    oa_cap_link *l = &s->cap;
    if (oa_cap_link_capturing(l)) {
        return OA_FAIL(OA_E_RT_STREAM_CAPTURED, "stream %d is in the capture stage and cannot be bound", s->id);
    }
    if (l->grp != 0) {
        return OA_FAIL(OA_E_RT_TASK_GROUP_STATUS, "stream %d is updating a task group and cannot be bound", s->id);
    }
    if (l->role != OA_CAP_NONE) {
        return OA_FAIL(OA_E_RT_STREAM_MODEL, "stream %d is already bound to model runtime instance %u", s->id,
                       l->model->id);
    }
    oa_mri_stream *ms = NULL;
    oa_status st = oa_mdlri_add_stream(m, s, false, false, head, &ms);
    if (st != OA_OK) {
        return st;
    }
    memset(l, 0, sizeof(*l));
    l->model = m;
    l->ms = ms;
    l->role = OA_CAP_BOUND;
    l->mode = -1;
    __atomic_fetch_add(&g_oa_cap_users, 1, __ATOMIC_ACQ_REL);
    oa_stream_set_interceptor(s, cap_intercept, s);
    return OA_OK;
}

void oa_capture_unbind_stream(oa_stream *s)
{
    if (s->cap.role == OA_CAP_BOUND) {
        s->cap.ms->bound = false;
        exit_stream(s);
    }
}

/* Internal streams do not count in g_oa_cap_users: only their interceptor refuses work. */
void oa_capture_mark_internal(oa_stream *s, oa_mdlri *m, oa_mri_stream *ms)
{
    oa_cap_link *l = &s->cap;
    memset(l, 0, sizeof(*l));
    l->model = m;
    l->ms = ms;
    l->role = OA_CAP_INTERNAL;
    l->mode = -1;
    oa_stream_set_interceptor(s, cap_intercept, s);
}

void oa_capture_unmark_internal(oa_stream *s)
{
    if (s->cap.role == OA_CAP_INTERNAL) {
        memset(&s->cap, 0, sizeof(s->cap));
        oa_stream_set_interceptor(s, NULL, NULL);
    }
}

/* ---- task groups ----------------------------------------------------------------------------------- */

static oa_status group_begin(aclrtStream stream)
{
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        return st;
    }
    oa_cap_lock();
    oa_cap_link *l = &s->cap;
    if (!oa_cap_link_capturing(l)) {
        st = OA_FAIL(OA_E_RT_STREAM_NOT_CAPTURED, "marking the start of a task group: stream %d is not in the capture "
                                                  "stage",
                     s->id);
    } else if (l->grp != 0) {
        st = OA_FAIL(OA_E_RT_TASK_GROUP_STATUS,
                     "a task group is already open on stream %d, or a task group is being updated", s->id);
    } else {
        oa_mri_group *g = NULL;
        st = oa_mdlri_new_group(l->model, &g);
        if (st == OA_OK) {
            l->ms->sampling = g;
            l->grp = 1;
            l->model->open_groups++;
        }
    }
    oa_cap_unlock();
    oa_stream_release(s);
    return st;
}

static oa_status group_end(aclrtStream stream, aclrtTaskGrp *handle)
{
    *handle = NULL;
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        return st;
    }
    oa_cap_lock();
    oa_cap_link *l = &s->cap;
    if (!oa_cap_link_capturing(l)) {
        st = OA_FAIL(OA_E_RT_STREAM_NOT_CAPTURED, "marking the end of a task group: stream %d is not in the capture "
                                                  "stage",
                     s->id);
    } else if (l->grp != 1 || l->ms->sampling == NULL) {
        st = OA_FAIL(OA_E_RT_TASK_GROUP_STATUS, "no task group was begun on stream %d", s->id);
    } else {
        oa_mdlri *m = l->model;
        oa_mri_group *g = l->ms->sampling;
        l->ms->sampling = NULL;
        l->grp = 0;
        m->open_groups--;
        if (m->group_error != OA_OK) {
            st = OA_FAIL(m->group_error,
                         "the capture of stream %d has an interrupted task group: handle the error reported by an "
                         "earlier call first",
                         s->id);
            oa_mdlri_drop_group(m, g);
        } else if (link_status(l) == ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED) {
            st = OA_FAIL(OA_E_RT_CAPTURE_INVALIDATED, "the capture of stream %d has been invalidated", s->id);
            oa_mdlri_drop_group(m, g);
        } else {
            g->closed = true;
            *handle = (aclrtTaskGrp)g;
        }
    }
    oa_cap_unlock();
    oa_stream_release(s);
    return st;
}

static oa_status update_begin(aclrtStream stream, aclrtTaskGrp handle)
{
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        return st;
    }
    oa_obj *go = oa_registry_get(handle, OA_OBJ_TASK_GROUP);
    if (go == NULL) {
        oa_stream_release(s);
        return OA_FAIL(OA_E_RT_INVALID_HANDLE, "task group handle [%p] is not a live task group", handle);
    }
    oa_mri_group *g = (oa_mri_group *)go;
    /* The group does not keep its instance alive: find the instance by its registered handle. */
    oa_mdlri *m = (oa_mdlri *)oa_registry_get(g->model, OA_OBJ_MODEL_RI);
    if (m != NULL && m->serial != g->model_serial) {
        oa_mdlri_put(m);
        m = NULL;
    }
    if (m == NULL) {
        oa_obj_unref(go);
        oa_stream_release(s);
        return OA_FAIL(OA_E_RT_INVALID_HANDLE, "the model runtime instance of task group [%p] was destroyed", handle);
    }
    oa_cap_lock();
    oa_cap_link *l = &s->cap;
    if (oa_cap_link_capturing(l)) {
        st = OA_FAIL(OA_E_RT_STREAM_CAPTURED, "marking the start of the task update: stream %d is in the capture stage",
                     s->id);
    } else if (l->role != OA_CAP_NONE) {
        st = OA_FAIL(OA_E_RT_STREAM_MODEL, "marking the start of the task update: stream %d is a model stream; only "
                                           "single operator streams are supported",
                     s->id);
    } else if (l->grp != 0) {
        st = OA_FAIL(OA_E_RT_TASK_GROUP_STATUS, "stream %d is already in task update or sample mode", s->id);
    } else if (g->updating) {
        st = OA_FAIL(OA_E_RT_TASK_GROUP_STATUS, "the task group is already being updated by another stream");
    } else if (!g->closed) {
        st = OA_FAIL(OA_E_RT_TASK_GROUP_STATUS, "the task group is still being captured");
    } else {
        oa_obj_ref(go);
        g->updating = true;
        l->grp = 2;
        l->model = m; /* takes over the reference */
        m = NULL;
        l->update = g;
        l->update_next = 0;
        __atomic_fetch_add(&g_oa_cap_users, 1, __ATOMIC_ACQ_REL);
        oa_stream_set_interceptor(s, cap_intercept, s);
    }
    oa_cap_unlock();
    if (m != NULL) {
        oa_mdlri_put(m);
    }
    oa_obj_unref(go);
    oa_stream_release(s);
    return st;
}

static oa_status update_end(aclrtStream stream)
{
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        return st;
    }
    oa_mri_group *done = NULL;
    oa_mdlri *model = NULL;
    oa_cap_lock();
    oa_cap_link *l = &s->cap;
    if (oa_cap_link_capturing(l)) {
        st = OA_FAIL(OA_E_RT_STREAM_CAPTURED, "marking the end of the task update: stream %d is in the capture stage",
                     s->id);
    } else if (l->role != OA_CAP_NONE) {
        st = OA_FAIL(OA_E_RT_STREAM_MODEL, "marking the end of the task update: stream %d is a model stream", s->id);
    } else if (l->grp != 2) {
        st = OA_FAIL(OA_E_RT_TASK_GROUP_STATUS, "stream %d is not in task update mode", s->id);
    } else {
        done = l->update;
        model = l->model;
        uint32_t matched = l->update_next;
        done->updating = false;
        exit_stream(s);
        if (matched != done->ntasks) {
            st = OA_FAIL(OA_E_RT_INTERNAL,
                         "the task group updated on stream %d still contains tasks that were not updated (total %u, "
                         "updated %u)",
                         s->id, done->ntasks, matched);
        }
    }
    oa_cap_unlock();
    if (done != NULL) {
        oa_obj_unref(&done->obj);
    }
    if (model != NULL) {
        oa_mdlri_put(model);
    }
    oa_stream_release(s);
    return st;
}

/* ---- context teardown --------------------------------------------------------------------------------- */

void oa_capture_context_gone(oa_context *ctx)
{
    size_t n = 0;
    oa_mdlri **models = oa_mdlri_list_context(ctx, &n);
    oa_mri_group **groups = NULL;
    oa_mdlri **gmodels = NULL;
    size_t ngroups = 0;
    oa_cap_lock();
    for (size_t i = 0; i < n; ++i) {
        oa_mdlri *m = models[i];
        if (!model_capturing(m)) {
            continue;
        }
        for (uint32_t j = 0; j < m->nusers; ++j) {
            oa_stream *u = m->users[j];
            if (u->cap.model == m && u->cap.role == OA_CAP_ORIGIN) {
                mode_exit(&u->cap);
            }
        }
        OA_LOGW("the capture into model runtime instance %u is ended by the teardown of its context", m->id);
        if (m->is_sub) {
            leave_capture(m);
            oa_mdlri_clear(m);
        } else {
            (void)abandon_capture(m);
        }
    }
    /* Streams of the context still updating a task group. */
    pthread_mutex_lock(&ctx->mu);
    for (oa_stream *s = ctx->streams; s != NULL; s = s->ctx_next) {
        if (s->cap.grp == 2) {
            oa_mri_group **g2 = realloc(groups, (ngroups + 1) * sizeof(*g2));
            if (g2 != NULL) {
                groups = g2;
            }
            oa_mdlri **m2 = realloc(gmodels, (ngroups + 1) * sizeof(*m2));
            if (m2 != NULL) {
                gmodels = m2;
            }
            if (g2 != NULL && m2 != NULL) {
                groups[ngroups] = s->cap.update;
                gmodels[ngroups++] = s->cap.model;
                s->cap.update->updating = false;
                exit_stream(s);
            }
        }
    }
    pthread_mutex_unlock(&ctx->mu);
    oa_cap_unlock();
    for (size_t i = 0; i < ngroups; ++i) {
        oa_obj_unref(&groups[i]->obj);
        oa_mdlri_put(gmodels[i]);
    }
    free(groups);
    free(gmodels);
    for (size_t i = 0; i < n; ++i) {
        if (!models[i]->is_sub) {
            oa_mdlri_discard(models[i]);
        }
        oa_mdlri_put(models[i]);
    }
    free(models);
    oa_labels_context_gone(ctx);
}

/* ---- public API ----------------------------------------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode)
{
    ACL_REQUIRE_NOT_NULL(stream);
    ACL_RETURN_STATUS(capture_begin(stream, (int32_t)mode, NULL));
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI,
                                                           aclmdlRICaptureMode mode)
{
    ACL_REQUIRE_NOT_NULL(stream);
    ACL_REQUIRE_NOT_NULL(modelRI);
    ACL_RETURN_STATUS(capture_begin(stream, (int32_t)mode, modelRI));
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status,
                                                    aclmdlRI *modelRI)
{
    ACL_REQUIRE_NOT_NULL(stream);
    ACL_REQUIRE(status != NULL || modelRI != NULL, OA_E_PARAM,
                "parameters [status] and [modelRI] cannot both be null");
    ACL_RETURN_STATUS(capture_get_info(stream, status, modelRI));
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI)
{
    ACL_REQUIRE_NOT_NULL(stream);
    ACL_RETURN_STATUS(capture_end(stream, modelRI));
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode)
{
    ACL_REQUIRE_NOT_NULL(mode);
    ACL_REQUIRE((uint32_t)*mode <= (uint32_t)ACL_MODEL_RI_CAPTURE_MODE_RELAXED, OA_E_RT_PARAM,
                "capture mode [%d] must be less than 3", (int)*mode);
    oa_context *ctx = NULL;
    oa_status st = oa_ctx_current(true, &ctx);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    oa_ctx_release(ctx);
    int32_t old = t_exchange_mode;
    t_exchange_mode = (int32_t)*mode;
    *mode = (aclmdlRICaptureMode)old;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(stream);
    ACL_RETURN_STATUS(group_begin(stream));
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp *handle)
{
    ACL_REQUIRE_NOT_NULL(stream);
    ACL_REQUIRE_NOT_NULL(handle);
    ACL_RETURN_STATUS(group_end(stream, handle));
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle)
{
    ACL_REQUIRE_NOT_NULL(stream);
    ACL_REQUIRE_NOT_NULL(handle);
    ACL_RETURN_STATUS(update_begin(stream, handle));
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(stream);
    ACL_RETURN_STATUS(update_end(stream));
}

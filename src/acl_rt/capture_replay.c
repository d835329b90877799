/*
 * Replays: aclmdlRIExecuteAsync, aclmdlRIExecute and aclmdlRIAbort.
 *
 * aclmdlRIExecuteAsync queues ONE task (kind OA_TASK_KIND_MODEL) on the
 * target stream. When the stream reaches it, the task runs the instance's
 * task graph on that stream's worker thread: a small scheduler walks the
 * model streams, running each one's tasks in order until it blocks on a wait
 * whose record has not run yet in this replay, then moves to the next
 * stream; captured cross-stream dependencies are therefore honoured with a
 * single worker. Nothing is validated again: the recorded run functions get
 * a fresh copy of the recorded args bytes.
 *
 * Replays of one instance never overlap: each launch takes a ticket and the
 * replay waits for its turn, so replays queued on several streams run one
 * after the other in launch order (CANN executes an instance on its own
 * model streams, which serialises executions the same way).
 *
 * Events used with ACL_EVENT_RECORD_EXTERNAL / ACL_EVENT_WAIT_EXTERNAL are
 * bound at launch, as CANN refreshes them when the execution is submitted:
 * an external record takes the event's next record generation at launch (a
 * host synchronisation issued after aclmdlRIExecuteAsync waits for the
 * replay to reach it), an external wait waits for the newest record
 * requested before the launch.
 */
#define OA_LOG_MODULE "RUNTIME"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl_rt/capture_internal.h"
#include "base/acl_check.h"
#include "base/error.h"

#define TURN_SLICE_MS 100

/* Event generations fixed at launch (root instances only: sub-instances have no external events). */
typedef struct launch_table {
    uint32_t nrec;
    uint32_t nwait;
    oa_event **rec_ev;   /* borrowed from the tasks */
    uint64_t *rec_gen;
    bool *rec_done;
    oa_event **wait_ev;
    uint64_t *wait_gen;
} launch_table;

typedef struct replay_args {
    oa_mdlri *m;         /* referenced */
    uint64_t ticket;
    launch_table *lt;    /* NULL when the instance has no external events */
    bool ran;
} replay_args;

typedef struct run_ctx {
    oa_mdlri *root;
    uint64_t ticket;
    const oa_task_exec *exec;
    launch_table *lt;
} run_ctx;

/* ---- launch tables ------------------------------------------------------------------------------- */

static void table_free(launch_table *lt)
{
    if (lt != NULL) {
        free(lt->rec_ev);
        free(lt->rec_gen);
        free(lt->rec_done);
        free(lt->wait_ev);
        free(lt->wait_gen);
        free(lt);
    }
}

/* Completes the external records the replay did not reach, so no waiter is left hanging. */
static void table_finish(launch_table *lt)
{
    if (lt == NULL) {
        return;
    }
    for (uint32_t i = 0; i < lt->nrec; ++i) {
        if (!lt->rec_done[i] && lt->rec_ev[i] != NULL) {
            oa_event_complete_record(lt->rec_ev[i], lt->rec_gen[i]);
            lt->rec_done[i] = true;
        }
    }
}

static oa_status table_make(oa_mdlri *m, launch_table **out)
{
    *out = NULL;
    if (m->n_ext_rec == 0 && m->n_ext_wait == 0) {
        return OA_OK;
    }
    launch_table *lt = calloc(1, sizeof(*lt));
    if (lt == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot allocate a launch table");
    }
    lt->nrec = m->n_ext_rec;
    lt->nwait = m->n_ext_wait;
    size_t nr = lt->nrec > 0 ? lt->nrec : 1u;
    size_t nw = lt->nwait > 0 ? lt->nwait : 1u;
    lt->rec_ev = calloc(nr, sizeof(*lt->rec_ev));
    lt->rec_gen = calloc(nr, sizeof(*lt->rec_gen));
    lt->rec_done = calloc(nr, sizeof(*lt->rec_done));
    lt->wait_ev = calloc(nw, sizeof(*lt->wait_ev));
    lt->wait_gen = calloc(nw, sizeof(*lt->wait_gen));
    if (lt->rec_ev == NULL || lt->rec_gen == NULL || lt->rec_done == NULL || lt->wait_ev == NULL ||
        lt->wait_gen == NULL) {
        table_free(lt);
        return OA_FAIL(OA_E_NOMEM, "cannot allocate a launch table");
    }
    /* Waits first: an instance waiting for its own external record would otherwise wait for this launch. */
    for (uint32_t i = 0; i < m->ntasks; ++i) {
        const oa_mri_task *t = m->tasks[i];
        if (t->op == MRI_OP_EXT_WAIT && t->slot < lt->nwait) {
            lt->wait_ev[t->slot] = t->ev;
            lt->wait_gen[t->slot] = oa_event_newest_record(t->ev);
        }
    }
    for (uint32_t i = 0; i < m->ntasks; ++i) {
        const oa_mri_task *t = m->tasks[i];
        if (t->op == MRI_OP_EXT_RECORD && t->slot < lt->nrec) {
            lt->rec_ev[t->slot] = t->ev;
            lt->rec_gen[t->slot] = oa_event_reserve_record(t->ev);
        }
    }
    *out = lt;
    return OA_OK;
}

/* ---- condition defaults -------------------------------------------------------------------------- */

static void assign_cond_defaults(oa_mdlri *m)
{
    for (uint32_t i = 0; i < m->nconds; ++i) {
        oa_mri_cond *c = m->conds[i];
        if (c->type < 0) {
            continue;
        }
        if (c->flag == ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT) {
            __atomic_store_n(c->value, (uint64_t)c->def_value, __ATOMIC_RELEASE);
        }
        for (uint32_t j = 0; j < c->size; ++j) {
            assign_cond_defaults(c->subs[j]);
        }
    }
}

/* ---- turns -------------------------------------------------------------------------------------------- */

/* m->mu held. */
static void advance_serving(oa_mdlri *m)
{
    bool moved = true;
    while (moved) {
        moved = false;
        for (uint32_t i = 0; i < m->nretired; ++i) {
            if (m->retired[i] == m->serving) {
                m->retired[i] = m->retired[--m->nretired];
                ++m->serving;
                moved = true;
                break;
            }
        }
    }
    pthread_cond_broadcast(&m->cv);
}

/* A ticket given up before its turn (dropped replay). m->mu held. */
static void retire_ticket(oa_mdlri *m, uint64_t ticket)
{
    if (ticket == m->serving) {
        ++m->serving;
        advance_serving(m);
        return;
    }
    if (m->nretired == m->retired_cap) {
        uint32_t nc = m->retired_cap == 0 ? 8u : m->retired_cap * 2u;
        uint64_t *n = realloc(m->retired, nc * sizeof(*n));
        if (n == NULL) {
            /* Out of memory: let later replays run anyway rather than hang. */
            OA_LOGE("cannot record a dropped replay of model runtime instance %u", m->id);
            return;
        }
        m->retired = n;
        m->retired_cap = nc;
    }
    m->retired[m->nretired++] = ticket;
    pthread_cond_broadcast(&m->cv);
}

/* Waits until ticket is served. False when the stream is being torn down meanwhile. m->mu held. */
static bool wait_turn(oa_mdlri *m, uint64_t ticket, oa_stream *exec_stream)
{
    while (m->serving != ticket) {
        if (__atomic_load_n(&exec_stream->aborting, __ATOMIC_ACQUIRE)) {
            return false;
        }
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_nsec += (long)TURN_SLICE_MS * 1000000L;
        ts.tv_sec += ts.tv_nsec / 1000000000L;
        ts.tv_nsec %= 1000000000L;
        (void)pthread_cond_timedwait(&m->cv, &m->mu, &ts);
    }
    return true;
}

/* ---- the scheduler ---------------------------------------------------------------------------------- */

static bool stopped(const run_ctx *rc)
{
    return rc->ticket < __atomic_load_n(&rc->root->abort_below, __ATOMIC_ACQUIRE) ||
           __atomic_load_n(&rc->exec->stream->aborting, __ATOMIC_ACQUIRE);
}

static oa_status run_model(oa_mdlri *m, run_ctx *rc);

static oa_status run_task(oa_mdlri *m, oa_mri_task *t, run_ctx *rc)
{
    oa_task_run_fn run;
    if (t->in_group) {
        pthread_mutex_lock(&m->args_mu);
        run = t->run;
        memcpy(m->scratch, t->args, t->args_size);
        pthread_mutex_unlock(&m->args_mu);
    } else {
        run = t->run;
        memcpy(m->scratch, t->args, t->args_size);
    }
    oa_task_exec e = *rc->exec;
    e.route = t->ms->stream;
    if (t->hooks != NULL && t->hooks->on_replay != NULL) {
        oa_status st = t->hooks->on_replay(m, m->scratch, t->hook_state, &e);
        if (st != OA_OK) {
            return st;
        }
    }
    return run(m->scratch, &e);
}

static bool compare(int64_t l, int32_t cond, int64_t r)
{
    switch (cond) {
    case ACL_RT_EQUAL:
        return l == r;
    case ACL_RT_NOT_EQUAL:
        return l != r;
    case ACL_RT_GREATER:
        return l > r;
    case ACL_RT_GREATER_OR_EQUAL:
        return l >= r;
    case ACL_RT_LESS:
        return l < r;
    default:
        return l <= r;
    }
}

static int64_t load_value(const void *p, int32_t dtype)
{
    if (dtype == ACL_RT_SWITCH_INT64) {
        return __atomic_load_n((const int64_t *)p, __ATOMIC_ACQUIRE);
    }
    return __atomic_load_n((const int32_t *)p, __ATOMIC_ACQUIRE);
}

static oa_status run_cond(oa_mri_task *t, run_ctx *rc)
{
    oa_mri_cond *c = t->u.cond;
    uint64_t v = __atomic_load_n(c->value, __ATOMIC_ACQUIRE);
    switch (c->type) {
    case ACL_MODEL_RI_COND_TYPE_IF:
        if (v != 0) {
            return run_model(c->subs[0], rc);
        }
        return c->size > 1 ? run_model(c->subs[1], rc) : OA_OK;
    case ACL_MODEL_RI_COND_TYPE_WHILE:
        while (__atomic_load_n(c->value, __ATOMIC_ACQUIRE) != 0 && !stopped(rc)) {
            oa_status st = run_model(c->subs[0], rc);
            if (st != OA_OK) {
                return st;
            }
        }
        return OA_OK;
    default: /* SWITCH */
        return v < c->size ? run_model(c->subs[v], rc) : OA_OK;
    }
}

/* Where a label switch goes: stream index and task position. */
static oa_status label_target(oa_mdlri *m, const oa_mri_task *t, uint32_t *stream, uint32_t *pos)
{
    uint32_t idx = __atomic_load_n((const uint32_t *)t->u.sw_label.ptr, __ATOMIC_ACQUIRE);
    uint32_t count = 0;
    oa_label *first = oa_label_list_at(t->u.sw_label.list, 0, &count);
    if (first == NULL || count == 0) {
        return OA_FAIL(OA_E_RT_INTERNAL, "the label list of switch task %u is empty", t->seq);
    }
    uint32_t limit = t->u.sw_label.max > 0 && t->u.sw_label.max < count ? t->u.sw_label.max : count;
    if (idx >= limit) {
        idx = limit - 1u; /* an index past the end jumps to the last label */
    }
    oa_label *l = oa_label_list_at(t->u.sw_label.list, idx, &count);
    uint64_t serial = 0;
    if (l == NULL || !oa_label_position(l, &serial, stream, pos) || serial != m->serial || *stream >= m->nstreams) {
        return OA_FAIL(OA_E_RT_INTERNAL, "label %u of the switch task %u is not set on a stream of model runtime "
                                         "instance %u",
                       idx, t->seq, m->id);
    }
    return OA_OK;
}

static oa_status run_model(oa_mdlri *m, run_ctx *rc)
{
    uint32_t n = m->nstreams;
    uint64_t epoch = ++m->epoch;
    bool any_head = false;
    for (uint32_t i = 0; i < n; ++i) {
        m->pc[i] = 0;
        m->active[i] = (m->type == MRI_TYPE_CAPTURE || m->streams[i]->head) ? 1u : 0u;
        any_head = any_head || m->active[i] != 0;
    }
    if (!any_head && n > 0) {
        m->active[0] = 1;
    }
    for (;;) {
        bool progress = false;
        bool live = false;
        for (uint32_t i = 0; i < n; ++i) {
            oa_mri_stream *ms = m->streams[i];
            while (m->active[i]) {
                if (m->pc[i] >= ms->ntasks) {
                    m->active[i] = 0;
                    break;
                }
                live = true;
                if (stopped(rc)) {
                    return OA_OK;
                }
                oa_mri_task *t = ms->tasks[m->pc[i]];
                if (t->disabled) {
                    m->pc[i]++;
                    progress = true;
                    continue;
                }
                oa_status st = OA_OK;
                bool blocked = false;
                bool jumped = false;
                switch ((mri_op)t->op) {
                case MRI_OP_RUN:
                    st = run_task(m, t, rc);
                    break;
                case MRI_OP_RECORD:
                    t->rec_epoch = epoch;
                    break;
                case MRI_OP_WAIT:
                    blocked = t->dep->rec_epoch != epoch;
                    break;
                case MRI_OP_EXT_RECORD:
                    if (rc->lt != NULL && t->slot < rc->lt->nrec && !rc->lt->rec_done[t->slot]) {
                        oa_event_complete_record(t->ev, rc->lt->rec_gen[t->slot]);
                        rc->lt->rec_done[t->slot] = true;
                    }
                    t->rec_epoch = epoch;
                    break;
                case MRI_OP_EXT_WAIT:
                    if (rc->lt != NULL && t->slot < rc->lt->nwait && rc->lt->wait_gen[t->slot] > 0) {
                        st = oa_event_wait_gen(t->ev, rc->lt->wait_gen[t->slot], rc->exec->stream);
                    }
                    break;
                case MRI_OP_FLAG_WAIT:
                    st = oa_event_wait_signal(t->ev, rc->exec->stream);
                    break;
                case MRI_OP_FLAG_RESET:
                    oa_event_clear_signal(t->ev);
                    break;
                case MRI_OP_LABEL:
                    break;
                case MRI_OP_SWITCH_LABEL: {
                    uint32_t ts = 0, pos = 0;
                    st = label_target(m, t, &ts, &pos);
                    if (st == OA_OK) {
                        if (ts != i) {
                            m->active[i] = 0;
                            m->active[ts] = 1;
                        }
                        m->pc[ts] = pos;
                        jumped = true;
                    }
                    break;
                }
                case MRI_OP_ACTIVE: {
                    uint32_t j = t->u.active.target->index;
                    if (!m->active[j]) {
                        m->active[j] = 1;
                        m->pc[j] = 0;
                    }
                    break;
                }
                case MRI_OP_SWITCH:
                    if (compare(load_value(t->u.sw.left, t->u.sw.dtype), t->u.sw.cond,
                                load_value(t->u.sw.right, t->u.sw.dtype))) {
                        uint32_t j = t->u.sw.target->index;
                        if (!m->active[j]) {
                            m->active[j] = 1;
                            m->pc[j] = 0;
                        }
                    }
                    break;
                case MRI_OP_COND:
                    st = run_cond(t, rc);
                    break;
                case MRI_OP_END_GRAPH:
                    return OA_OK;
                }
                if (st != OA_OK) {
                    return st;
                }
                if (blocked) {
                    break;
                }
                if (!jumped) {
                    m->pc[i]++;
                }
                progress = true;
            }
        }
        if (!live) {
            return OA_OK;
        }
        if (!progress) {
            return OA_FAIL(OA_E_RT_MODEL_EXECUTE,
                           "model runtime instance %u cannot progress: every active stream waits for an event record "
                           "that does not run in this replay",
                           m->id);
        }
    }
}

/* ---- the replay task ------------------------------------------------------------------------------------- */

static oa_status replay_run(void *args, const oa_task_exec *exec)
{
    replay_args *a = args;
    oa_mdlri *m = a->m;
    a->ran = true;
    pthread_mutex_lock(&m->mu);
    if (!wait_turn(m, a->ticket, exec->stream)) {
        retire_ticket(m, a->ticket);
        pthread_mutex_unlock(&m->mu);
        table_finish(a->lt);
        return OA_OK;
    }
    m->running = true;
    m->runner = pthread_self();
    pthread_mutex_unlock(&m->mu);

    run_ctx rc = {.root = m, .ticket = a->ticket, .exec = exec, .lt = a->lt};
    oa_status st = stopped(&rc) ? OA_OK : run_model(m, &rc);
    table_finish(a->lt);

    pthread_mutex_lock(&m->mu);
    m->running = false;
    ++m->serving;
    advance_serving(m);
    pthread_mutex_unlock(&m->mu);
    return st;
}

static void replay_release(void *args)
{
    replay_args *a = args;
    oa_mdlri *m = a->m;
    pthread_mutex_lock(&m->mu);
    if (!a->ran) {
        retire_ticket(m, a->ticket);
    }
    --m->inflight;
    pthread_cond_broadcast(&m->cv);
    pthread_mutex_unlock(&m->mu);
    if (!a->ran) {
        table_finish(a->lt);
    }
    table_free(a->lt);
    oa_mdlri_put(m);
}

/* ---- entry points ------------------------------------------------------------------------------------------ */

static oa_status execute_async(aclmdlRI handle, aclrtStream stream)
{
    oa_mdlri *m = NULL;
    oa_status st = oa_mdlri_get(handle, &m);
    if (st != OA_OK) {
        return st;
    }
    oa_stream *s = NULL;
    st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        oa_mdlri_put(m);
        return st;
    }
    if (m->ctx != s->ctx) {
        st = OA_FAIL(OA_E_RT_MODEL_CONTEXT, "model runtime instance %u does not belong to the current context",
                     m->id);
    } else if (m->is_sub) {
        st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "a sub ACL graph is executed by its parent instance only");
    }
    if (st == OA_OK) {
        oa_cap_lock();
        uint8_t role = s->cap.role;
        oa_cap_unlock();
        if (role == OA_CAP_BOUND || role == OA_CAP_INTERNAL) {
            st = OA_FAIL(OA_E_RT_PARAM, "the execution stream %d cannot be a model stream", s->id);
        } else if (role == OA_CAP_ORIGIN || role == OA_CAP_JOINED) {
            st = OA_FAIL(OA_E_RT_STREAM_CAPTURED,
                         "asynchronously executing the model runtime instance: stream %d is in the capture stage",
                         s->id);
        }
    }
    uint64_t ticket = 0;
    if (st == OA_OK) {
        pthread_mutex_lock(&m->mu);
        uint8_t ms = mri_status_of(m);
        if (ms == MRI_CAPTURE_ACTIVE || ms == MRI_CAPTURE_INVALIDATED) {
            st = OA_FAIL(OA_E_RT_MODEL_CAPTURED, "model runtime instance %u is in capturing state", m->id);
        } else if (ms != MRI_READY) {
            st = OA_FAIL(OA_E_RT_MODEL_EXECUTE, "model runtime instance %u is not ready (%s)", m->id,
                         ms == MRI_NONE       ? "not built: call aclmdlRIBuildEnd"
                         : ms == MRI_UPDATING ? "task parameters changed: call aclmdlRIUpdate"
                                              : "a parameter update failed");
        } else if (m->type == MRI_TYPE_BUILD && !m->has_end_graph) {
            st = OA_FAIL(OA_E_RT_MODEL_EXECUTE,
                         "call aclmdlRIEndTask to deliver the end-of-graph task before executing instance %u", m->id);
        } else if (m->destroying || m->removed) {
            st = OA_FAIL(OA_E_RT_INVALID_HANDLE, "model runtime instance %u is being destroyed", m->id);
        } else {
            ++m->inflight;
            ticket = m->next_ticket++;
        }
        pthread_mutex_unlock(&m->mu);
    }
    if (st != OA_OK) {
        oa_stream_release(s);
        oa_mdlri_put(m);
        return st;
    }
    launch_table *lt = NULL;
    st = table_make(m, &lt);
    if (st == OA_OK) {
        assign_cond_defaults(m);
        replay_args a = {.m = m, .ticket = ticket, .lt = lt, .ran = false};
        oa_task_desc d = {.kind = OA_TASK_KIND_MODEL,
                          .run = replay_run,
                          .release = replay_release,
                          .args = &a,
                          .args_size = sizeof(a)};
        st = oa_stream_submit(s, &d, NULL);
        if (st == OA_OK) {
            m = NULL; /* the task owns the reference */
        }
    }
    if (st != OA_OK && m != NULL) {
        table_finish(lt);
        table_free(lt);
        pthread_mutex_lock(&m->mu);
        retire_ticket(m, ticket);
        --m->inflight;
        pthread_cond_broadcast(&m->cv);
        pthread_mutex_unlock(&m->mu);
        oa_mdlri_put(m);
    }
    oa_stream_release(s);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(modelRI);
    ACL_RETURN_STATUS(execute_async(modelRI, stream));
}

ACL_FUNC_VISIBILITY aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout)
{
    ACL_REQUIRE_NOT_NULL(modelRI);
    ACL_REQUIRE(timeout == -1 || timeout > 0, OA_E_RT_PARAM,
                "timeout [%d] must be -1 (wait forever) or greater than 0", timeout);
    oa_mdlri *m = NULL;
    oa_status st = oa_mdlri_get(modelRI, &m);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    bool captured = m->type == MRI_TYPE_CAPTURE;
    oa_mdlri_put(m);
    if (captured) {
        return oa_status_to_acl(OA_FAIL(OA_E_RT_PARAM,
                                        "synchronously executing the model runtime instance: ACL graph (captured) "
                                        "instances are not supported, use aclmdlRIExecuteAsync"));
    }
    /* CANN runs a synchronous execution on the default stream of the current context. */
    oa_stream *s = NULL;
    st = oa_stream_acquire(NULL, &s);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    st = execute_async(modelRI, NULL);
    if (st == OA_OK) {
        st = oa_stream_synchronize(s, timeout);
    }
    oa_stream_release(s);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclmdlRIAbort(aclmdlRI modelRI)
{
    oa_mdlri *m = NULL;
    oa_status st = oa_mdlri_get(modelRI, &m);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    if (m->is_sub) {
        st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "a sub ACL graph does not support aborting");
    } else {
        oa_context *cur = oa_ctx_current_quiet(true);
        if (cur != m->ctx) {
            st = OA_FAIL(OA_E_RT_MODEL_CONTEXT, "model runtime instance %u does not belong to the current context",
                         m->id);
        }
        oa_ctx_release(cur);
    }
    if (st == OA_OK) {
        pthread_mutex_lock(&m->mu);
        /* Every replay launched so far stops at its next task (or does not start). */
        __atomic_store_n(&m->abort_below, m->next_ticket, __ATOMIC_RELEASE);
        pthread_cond_broadcast(&m->cv);
        pthread_mutex_unlock(&m->mu);
        OA_LOGI("model runtime instance %u aborted", m->id);
    }
    oa_mdlri_put(m);
    ACL_RETURN_STATUS(st);
}

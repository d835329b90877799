/*
 * Stream capture, the event half (split from capture.c): aclrtRecordEvent,
 * aclrtStreamWaitEvent and aclrtResetEvent while captures are active
 * (oa_capture_event_*). A record inside a capture binds the event to that
 * record task and never touches the event's real state; a wait on a bound
 * event makes the waiting stream join the capture and depend on that record.
 * Everything here runs under the capture lock (oa_cap_lock).
 */
#define OA_LOG_MODULE "RUNTIME"
#include <stdlib.h>
#include <string.h>

#include "acl_rt/capture_internal.h"
#include "base/acl_check.h"
#include "base/error.h"

static bool fast_path(const oa_event *ev)
{
    return __atomic_load_n(&g_oa_cap_users, __ATOMIC_ACQUIRE) == 0 &&
           __atomic_load_n(&ev->cap_model, __ATOMIC_ACQUIRE) == NULL;
}

/* Appends a control task for an event; takes an event reference. Lock held. */
static oa_status append_event_task(oa_mri_stream *ms, mri_op op, oa_event *ev, uint32_t flag, oa_mri_task **out)
{
    if (ms->sampling != NULL) {
        oa_cap_group_failed(ms->model, OA_E_RT_TASK_TYPE_NOT_SUPPORT);
        return OA_FAIL(OA_E_RT_TASK_TYPE_NOT_SUPPORT, "only kernel tasks can be added to a task group (event %u)",
                       ev->id);
    }
    if (ms->model->open_groups > 0) {
        oa_cap_group_failed(ms->model, OA_E_RT_TASK_GROUP_INTR);
        return OA_FAIL(OA_E_RT_TASK_GROUP_INTR,
                       "a task group is open on another stream of the capture: the event operation interrupts it");
    }
    oa_mri_task *t = NULL;
    oa_status st = oa_mdlri_append(ms, op, NULL, &t);
    if (st != OA_OK) {
        return st;
    }
    oa_event_ref(ev);
    t->ev = ev;
    t->ev_flag = flag;
    if (op == MRI_OP_EXT_RECORD) {
        t->slot = ms->model->n_ext_rec++;
    } else if (op == MRI_OP_EXT_WAIT) {
        t->slot = ms->model->n_ext_wait++;
    }
    if (out != NULL) {
        *out = t;
    }
    return OA_OK;
}

/* One ACL_EVENT_RECORD_EXTERNAL / _WAIT_EXTERNAL use of an event per graph, and never both. Lock held. */
static oa_status check_external_use(const oa_mdlri *m, const oa_event *ev, bool record)
{
    for (uint32_t i = 0; i < m->ntasks; ++i) {
        const oa_mri_task *t = m->tasks[i];
        if (t->ev != ev || t->ev_flag != 1u) {
            continue;
        }
        if ((t->op == MRI_OP_EXT_RECORD) == record) {
            return OA_FAIL(OA_E_RT_PARAM,
                           "event %u can be used with %s only once in the same graph: use different events", ev->id,
                           record ? "ACL_EVENT_RECORD_EXTERNAL" : "ACL_EVENT_WAIT_EXTERNAL");
        }
        return OA_FAIL(OA_E_RT_PARAM,
                       "event %u cannot be used with both ACL_EVENT_RECORD_EXTERNAL and ACL_EVENT_WAIT_EXTERNAL in "
                       "the same graph",
                       ev->id);
    }
    return OA_OK;
}

static oa_status refuse_in_update(const oa_stream *s)
{
    return OA_FAIL(OA_E_RT_TASK_TYPE_NOT_SUPPORT,
                   "stream %d is updating a task group: only kernel tasks can be submitted to it", s->id);
}

/* Binds ev to the record task t of a capture. Lock held. */
static oa_status bind_event(oa_mdlri *m, oa_event *ev, oa_mri_task *t)
{
    bool listed = false;
    for (uint32_t i = 0; i < m->nevents; ++i) {
        if (m->events[i] == ev) {
            listed = true;
            break;
        }
    }
    if (!listed) {
        oa_event **n = realloc(m->events, (m->nevents + 1u) * sizeof(*n));
        if (n == NULL) {
            return OA_FAIL(OA_E_NOMEM, "cannot grow the event list of a capture");
        }
        m->events = n;
        oa_event_ref(ev);
        m->events[m->nevents++] = ev;
    }
    ev->cap_rec = t;
    __atomic_store_n(&ev->cap_model, m, __ATOMIC_RELEASE);
    return OA_OK;
}

oa_status oa_capture_event_record(oa_event *ev, oa_stream *s, uint32_t flag, bool *handled)
{
    *handled = false;
    if (flag == ACL_EVENT_RECORD_DEFAULT && fast_path(ev)) {
        return OA_OK;
    }
    oa_status st = OA_OK;
    oa_cap_lock();
    oa_cap_link *l = &s->cap;
    if (flag == ACL_EVENT_RECORD_EXTERNAL) {
        *handled = true;
        if (!oa_cap_link_capturing(l)) {
            st = OA_FAIL(OA_E_RT_STREAM_NOT_CAPTURED, "event recording: stream %d is not in the capture stage", s->id);
        } else if (l->model->is_sub) {
            st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "ACL_EVENT_RECORD_EXTERNAL is not supported in a sub ACL graph");
        } else {
            st = check_external_use(l->model, ev, true);
            if (st == OA_OK) {
                st = append_event_task(l->ms, MRI_OP_EXT_RECORD, ev, flag, NULL);
            }
        }
    } else if (l->grp == 2) {
        *handled = true;
        st = refuse_in_update(s);
    } else if (oa_cap_link_capturing(l)) {
        *handled = true;
        oa_mdlri *m = l->model;
        if (oa_event_is_external(ev)) {
            st = append_event_task(l->ms, MRI_OP_EXT_RECORD, ev, flag, NULL);
        } else if (!ev->ex_mode) {
            st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT,
                         "event %u was created by aclrtCreateEvent or aclrtCreateEventWithFlag without "
                         "ACL_EVENT_EXTERNAL and cannot be recorded in a capture: use aclrtCreateEventExWithFlag",
                         ev->id);
        } else {
            oa_mri_task *t = NULL;
            st = append_event_task(l->ms, MRI_OP_RECORD, ev, flag, &t);
            if (st == OA_OK) {
                st = bind_event(m, ev, t);
            }
            if (st != OA_OK) {
                oa_cap_invalidate(m, "an event record could not be captured");
            }
        }
    } else if (l->role == OA_CAP_BOUND) {
        *handled = true;
        if (ev->ex_mode || oa_event_is_default(ev)) {
            st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT,
                         "event %u cannot be recorded on stream %d, which is bound to a model runtime instance: "
                         "events created by aclrtCreateEventExWithFlag or with the default flags are not supported "
                         "on model streams",
                         ev->id, s->id);
        } else if (mri_status_of(l->model) != MRI_NONE) {
            st = OA_FAIL(OA_E_RT_STREAM_MODEL, "model runtime instance %u is already built", l->model->id);
        } else {
            st = append_event_task(l->ms, MRI_OP_EXT_RECORD, ev, flag, NULL);
        }
    } else if (l->role == OA_CAP_INTERNAL) {
        *handled = true;
        st = OA_FAIL(OA_E_RT_STREAM_MODEL, "stream %d is a stream of a captured model runtime instance", s->id);
    }
    oa_cap_unlock();
    return st;
}

/* Latest record of ev in a built instance, NULL when none. Lock held. */
static oa_mri_task *latest_record(const oa_mdlri *m, const oa_event *ev)
{
    for (uint32_t i = m->ntasks; i > 0; --i) {
        oa_mri_task *t = m->tasks[i - 1];
        if (t->ev == ev && (t->op == MRI_OP_EXT_RECORD || t->op == MRI_OP_RECORD)) {
            return t;
        }
    }
    return NULL;
}

static oa_status wait_captured_event(oa_event *ev, oa_stream *s)
{
    oa_cap_link *l = &s->cap;
    oa_mdlri *owner = ev->cap_model;
    if (s->is_default) {
        return OA_FAIL(OA_E_RT_CAPTURE_IMPLICIT,
                       "the default stream (stream_id=%d) cannot wait for event %u, which is in a capture", s->id,
                       ev->id);
    }
    if (l->role == OA_CAP_BOUND || l->role == OA_CAP_INTERNAL) {
        return OA_FAIL(OA_E_RT_STREAM_MODEL, "stream %d is a stream of model runtime instance %u", s->id,
                       l->model->id);
    }
    if (oa_cap_link_capturing(l) && l->model != owner) {
        oa_cap_invalidate(owner, "an event of this capture was waited for by another capture");
        oa_cap_invalidate(l->model, "an event of another capture was waited for");
        return OA_FAIL(OA_E_RT_CAPTURE_CONFLICT,
                       "event %u was recorded in the capture of model runtime instance %u and cannot be waited for "
                       "in the capture of instance %u (stream %d)",
                       ev->id, owner->id, l->model->id, s->id);
    }
    if (!oa_cap_link_capturing(l)) {
        oa_status st = oa_cap_join_capture(s, owner);
        if (st != OA_OK) {
            return st;
        }
    }
    oa_mri_task *t = NULL;
    oa_status st = append_event_task(l->ms, MRI_OP_WAIT, ev, ACL_EVENT_WAIT_DEFAULT, &t);
    if (st != OA_OK) {
        oa_cap_invalidate(owner, "an event wait could not be captured");
        return st;
    }
    oa_mri_task *rec = ev->cap_rec;
    t->dep = rec;
    rec->waited = true;
    if (l->ms->origin) {
        rec->waited_by_origin = true;
    }
    return OA_OK;
}

oa_status oa_capture_event_wait(oa_event *ev, oa_stream *s, uint32_t flag, bool *handled)
{
    *handled = false;
    if (flag == ACL_EVENT_WAIT_DEFAULT && fast_path(ev)) {
        return OA_OK;
    }
    oa_status st = OA_OK;
    oa_cap_lock();
    oa_cap_link *l = &s->cap;
    if (flag == ACL_EVENT_WAIT_EXTERNAL) {
        *handled = true;
        if (!oa_cap_link_capturing(l)) {
            st = OA_FAIL(OA_E_RT_STREAM_NOT_CAPTURED, "triggering event waiting: stream %d is not in the capture stage",
                         s->id);
        } else if (l->model->is_sub) {
            st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "ACL_EVENT_WAIT_EXTERNAL is not supported in a sub ACL graph");
        } else {
            st = check_external_use(l->model, ev, false);
            if (st == OA_OK) {
                st = append_event_task(l->ms, MRI_OP_EXT_WAIT, ev, flag, NULL);
            }
        }
    } else if (l->grp == 2) {
        *handled = true;
        st = refuse_in_update(s);
    } else if (oa_cap_event_capturing(ev)) {
        *handled = true;
        st = wait_captured_event(ev, s);
    } else if (oa_cap_link_capturing(l)) {
        *handled = true;
        if (oa_event_is_external(ev)) {
            st = append_event_task(l->ms, MRI_OP_FLAG_WAIT, ev, flag, NULL);
        } else if (!ev->ex_mode) {
            st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT,
                         "event %u was created by aclrtCreateEvent or aclrtCreateEventWithFlag without "
                         "ACL_EVENT_EXTERNAL and cannot be waited for in a capture",
                         ev->id);
        } else if (ev->has_record) {
            st = OA_FAIL(OA_E_RT_CAPTURE_DEPENDENCY,
                         "event %u was recorded outside the capture: a captured wait cannot depend on it (use "
                         "ACL_EVENT_WAIT_EXTERNAL of aclrtStreamWaitEventWithFlag to wait outside the graph)",
                         ev->id);
        }
        /* An event never recorded: nothing to wait for, nothing captured. */
    } else if (l->role == OA_CAP_BOUND) {
        *handled = true;
        oa_mdlri *m = l->model;
        if (ev->ex_mode || oa_event_is_default(ev)) {
            st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT,
                         "stream %d is bound to a model runtime instance: events created by aclrtCreateEventExWithFlag "
                         "or with the default flags are not supported on model streams",
                         s->id);
        } else if (mri_status_of(m) != MRI_NONE) {
            st = OA_FAIL(OA_E_RT_STREAM_MODEL, "model runtime instance %u is already built", m->id);
        } else {
            oa_mri_task *rec = latest_record(m, ev);
            oa_mri_task *t = NULL;
            st = append_event_task(l->ms, rec != NULL ? MRI_OP_WAIT : MRI_OP_FLAG_WAIT, ev, flag, &t);
            if (st == OA_OK && rec != NULL) {
                t->dep = rec;
                rec->waited = true;
            }
        }
    } else if (l->role == OA_CAP_INTERNAL) {
        *handled = true;
        st = OA_FAIL(OA_E_RT_STREAM_MODEL, "stream %d is a stream of a captured model runtime instance", s->id);
    }
    oa_cap_unlock();
    return st;
}

oa_status oa_capture_event_reset(oa_event *ev, oa_stream *s, bool *handled)
{
    *handled = false;
    if (fast_path(ev)) {
        return OA_OK;
    }
    oa_status st = OA_OK;
    oa_cap_lock();
    oa_cap_link *l = &s->cap;
    if (l->grp == 2) {
        *handled = true;
        st = refuse_in_update(s);
    } else if (oa_cap_event_capturing(ev)) {
        *handled = true;
        if (s->is_default) {
            st = OA_FAIL(OA_E_RT_CAPTURE_IMPLICIT,
                         "the default stream (stream_id=%d) cannot reset event %u, which is in a capture", s->id,
                         ev->id);
        } else {
            st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "event %u is in a capture and cannot be reset", ev->id);
        }
    } else if (oa_cap_link_capturing(l)) {
        *handled = true;
        if (oa_event_is_external(ev)) {
            st = append_event_task(l->ms, MRI_OP_FLAG_RESET, ev, 0, NULL);
        } else {
            st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT,
                         "event %u cannot be reset in a capture: only events created with ACL_EVENT_EXTERNAL can",
                         ev->id);
        }
    } else if (l->role == OA_CAP_BOUND) {
        *handled = true;
        if (oa_event_is_default(ev)) {
            st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT,
                         "events with the default flags cannot be reset on stream %d, which is bound to a model "
                         "runtime instance",
                         s->id);
        } else if (mri_status_of(l->model) != MRI_NONE) {
            st = OA_FAIL(OA_E_RT_STREAM_MODEL, "model runtime instance %u is already built", l->model->id);
        } else {
            st = append_event_task(l->ms, MRI_OP_FLAG_RESET, ev, 0, NULL);
        }
    } else if (l->role == OA_CAP_INTERNAL) {
        *handled = true;
        st = OA_FAIL(OA_E_RT_STREAM_MODEL, "stream %d is a stream of a captured model runtime instance", s->id);
    }
    oa_cap_unlock();
    return st;
}

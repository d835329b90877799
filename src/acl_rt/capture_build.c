/*
 * Model runtime instances built by hand (split from capture_model.c):
 * aclmdlRIBuildBegin, aclmdlRIBindStream / UnbindStream, aclmdlRIEndTask and
 * aclmdlRIBuildEnd. Instances, streams and tasks themselves are
 * capture_model.c's (capture_internal.h).
 */
#define OA_LOG_MODULE "RUNTIME"
#include <stdlib.h>
#include <string.h>

#include "acl/acl_mdl.h"
#include "acl_rt/capture_internal.h"
#include "base/acl_check.h"
#include "base/error.h"
#include "base/util.h"

ACL_FUNC_VISIBILITY aclError aclmdlRIBuildBegin(aclmdlRI *modelRI, uint32_t flag)
{
    ACL_REQUIRE_NOT_NULL(modelRI);
    (void)flag; /* reserved */
    oa_context *ctx = NULL;
    oa_status st = oa_ctx_current(true, &ctx);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    oa_mdlri *m = NULL;
    st = oa_mdlri_create(ctx, MRI_TYPE_BUILD, false, &m);
    oa_ctx_release(ctx);
    if (st == OA_OK) {
        *modelRI = (aclmdlRI)m;
    }
    ACL_RETURN_STATUS(st);
}

/* Built instance + stream for the manual build calls. */
static oa_status build_target(aclmdlRI handle, aclrtStream stream, const char *what, oa_mdlri **m, oa_stream **s)
{
    oa_status st = oa_mdlri_get(handle, m);
    if (st != OA_OK) {
        return st;
    }
    if ((*m)->type == MRI_TYPE_CAPTURE) {
        st = OA_FAIL(OA_E_RT_PARAM, "%s: ACL graph (captured) instances are not supported", what);
    }
    if (st == OA_OK) {
        st = oa_stream_acquire(stream, s);
    }
    if (st == OA_OK) {
        st = oa_mdlri_check_context(*m, what);
        if (st != OA_OK) {
            oa_stream_release(*s);
        }
    }
    if (st != OA_OK) {
        oa_mdlri_put(*m);
    }
    return st;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag)
{
    ACL_REQUIRE_NOT_NULL(modelRI);
    oa_mdlri *m = NULL;
    oa_stream *s = NULL;
    oa_status st = build_target(modelRI, stream, "binding a model runtime instance to a stream", &m, &s);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    if ((s->acl_flags & ACL_STREAM_DEVICE_USE_ONLY) != 0) {
        st = OA_FAIL(OA_E_RT_INTERNAL, "stream %d with the flag ACL_STREAM_DEVICE_USE_ONLY cannot be bound to a model",
                     s->id);
    } else if ((s->acl_flags & ACL_STREAM_FAST_LAUNCH) != 0) {
        st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT,
                     "stream %d with the flag ACL_STREAM_FAST_LAUNCH cannot be bound to a model", s->id);
    } else {
        pthread_mutex_lock(&s->mu);
        bool stop = (s->failure_mode & 1u) == ACL_STOP_ON_FAILURE;
        pthread_mutex_unlock(&s->mu);
        if (stop) {
            st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "stop-on-failure mode of stream %d is not supported in a model",
                         s->id);
        }
    }
    if (st == OA_OK) {
        oa_cap_lock();
        st = oa_capture_bind_stream(s, m, flag == ACL_MODEL_STREAM_FLAG_HEAD);
        oa_cap_unlock();
    }
    oa_stream_release(s);
    oa_mdlri_put(m);
    ACL_RETURN_STATUS(st);
}

/* The model stream of s in built instance m. Capture lock held. */
static oa_status bound_stream(oa_stream *s, oa_mdlri *m, oa_mri_stream **ms)
{
    if (s->cap.role == OA_CAP_ORIGIN || s->cap.role == OA_CAP_JOINED) {
        return OA_FAIL(OA_E_RT_STREAM_CAPTURED, "stream %d is in the capture stage, which is not supported", s->id);
    }
    if (s->cap.role != OA_CAP_BOUND || s->cap.model != m) {
        return OA_FAIL(OA_E_RT_STREAM_MODEL, "stream %d is not bound to model runtime instance %u", s->id, m->id);
    }
    *ms = s->cap.ms;
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(modelRI);
    oa_mdlri *m = NULL;
    oa_stream *s = NULL;
    oa_status st = build_target(modelRI, stream, "unbinding a model runtime instance from a stream", &m, &s);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    oa_mri_stream *ms = NULL;
    oa_cap_lock();
    st = bound_stream(s, m, &ms);
    if (st == OA_OK) {
        oa_capture_unbind_stream(s);
    }
    oa_cap_unlock();
    oa_stream_release(s);
    oa_mdlri_put(m);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(modelRI);
    oa_mdlri *m = NULL;
    oa_stream *s = NULL;
    oa_status st = build_target(modelRI, stream, "delivering the end-of-graph task", &m, &s);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    oa_mri_stream *ms = NULL;
    oa_cap_lock();
    st = bound_stream(s, m, &ms);
    if (st == OA_OK) {
        if (mri_status_of(m) != MRI_NONE) {
            st = OA_FAIL(OA_E_RT_STREAM_MODEL, "model runtime instance %u is already built", m->id);
        } else {
            oa_mri_task *t = NULL;
            st = oa_mdlri_append(ms, MRI_OP_END_GRAPH, NULL, &t);
            if (st == OA_OK) {
                m->has_end_graph = true;
            }
        }
    }
    oa_cap_unlock();
    oa_stream_release(s);
    oa_mdlri_put(m);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void *reserve)
{
    ACL_REQUIRE_NOT_NULL(modelRI);
    ACL_REQUIRE(reserve == NULL, OA_E_PARAM, "reserve is a reserved parameter and must be null");
    oa_mdlri *m = NULL;
    oa_status st = oa_mdlri_get(modelRI, &m);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    if (m->type == MRI_TYPE_CAPTURE) {
        st = OA_FAIL(OA_E_RT_PARAM, "ending the build of a model runtime instance: ACL graph instances are not "
                                    "supported");
    } else {
        st = oa_mdlri_check_context(m, "ending the build of a model runtime instance");
    }
    if (st == OA_OK) {
        oa_cap_lock();
        if (mri_status_of(m) == MRI_NONE) {
            st = oa_mdlri_finalize(m);
        }
        oa_cap_unlock();
    }
    oa_mdlri_put(m);
    ACL_RETURN_STATUS(st);
}

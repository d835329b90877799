/*
 * Conditional tasks of captured instances: aclmdlRICondHandleCreate,
 * aclmdlRICondHandleGetCondPtr and aclmdlRIAddCondTask.
 *
 * A condition handle owns an 8-byte value in device memory (the runtime's
 * device allocation table knows it, so aclrtMemcpy and captured copies can
 * write it). aclmdlRIAddCondTask appends a condition task to the capturing
 * stream and creates its sub-instances (branches or loop body), which the
 * application captures with aclmdlRICaptureToModelRIBegin. When a replay
 * reaches the condition task it reads the value and runs the chosen
 * sub-instance inline on the replaying worker:
 *   IF:     value != 0 runs branch 0, otherwise branch 1 (when there are two);
 *   WHILE:  runs the body as long as the value is not 0 (the body changes it);
 *   SWITCH: runs branch `value` when it is below the branch count.
 * With ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT the value is set to the
 * default when the parent instance is launched (CANN writes it at launch).
 */
#define OA_LOG_MODULE "RUNTIME"
#include <stdlib.h>
#include <string.h>

#include "acl_rt/capture_internal.h"
#include "base/acl_check.h"
#include "base/error.h"
#include "mem/mem_table.h"

#define MAX_COND_BRANCHES 65535u

static void cond_obj_free(oa_obj *o)
{
    free(o);
}

void oa_mri_cond_free(oa_mri_cond *c)
{
    (void)oa_registry_remove(&c->obj);
    for (uint32_t i = 0; i < c->size; ++i) {
        if (c->subs != NULL && c->subs[i] != NULL) {
            (void)oa_registry_remove(&c->subs[i]->obj);
            oa_mdlri_put(c->subs[i]);
        }
    }
    free(c->subs);
    c->subs = NULL;
    c->size = 0;
    if (c->value != NULL) {
        if (oa_mem_free(c->value, OA_MEM_KIND_DEVICE, NULL) != OA_OK) {
            OA_LOGW("the condition value %p was already released", (void *)c->value);
        }
        c->value = NULL;
    }
    oa_obj_unref(&c->obj);
}

bool oa_mdlri_subs_ready(const oa_mdlri *m)
{
    for (uint32_t i = 0; i < m->nconds; ++i) {
        const oa_mri_cond *c = m->conds[i];
        for (uint32_t j = 0; j < c->size; ++j) {
            if (mri_status_of(c->subs[j]) != MRI_READY || !oa_mdlri_subs_ready(c->subs[j])) {
                return false;
            }
        }
    }
    return true;
}

static oa_status cond_create(aclmdlRI handle, uint32_t def_value, uint32_t flag, aclmdlRICondHandle *out)
{
    if (flag > (uint32_t)ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT) {
        return OA_FAIL(OA_E_RT_PARAM, "flag [%u] must be in [0, %d]", flag, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT);
    }
    oa_mdlri *m = NULL;
    oa_status st = oa_mdlri_get(handle, &m);
    if (st != OA_OK) {
        return st;
    }
    oa_context *cur = NULL;
    if (m->type != MRI_TYPE_CAPTURE) {
        st = OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "condition handles belong to ACL graph (captured) instances only");
    } else if (mri_status_of(m) != MRI_CAPTURE_ACTIVE) {
        st = OA_FAIL(OA_E_RT_PARAM, "model runtime instance %u is not in the capture stage", m->id);
    } else {
        st = oa_ctx_current(true, &cur);
        if (st == OA_OK && cur != m->ctx) {
            st = OA_FAIL(OA_E_RT_MODEL_CONTEXT, "model runtime instance %u does not belong to the current context",
                         m->id);
        }
    }
    oa_mri_cond *c = NULL;
    if (st == OA_OK) {
        c = calloc(1, sizeof(*c));
        void *value = NULL;
        if (c == NULL) {
            st = OA_FAIL(OA_E_NOMEM, "cannot allocate a condition handle");
        } else {
            st = oa_mem_alloc(OA_MEM_KIND_DEVICE, m->ctx->dev->id, sizeof(uint64_t), sizeof(uint64_t), 0, &value);
        }
        if (st == OA_OK) {
            memset(value, 0, sizeof(uint64_t));
            oa_obj_init(&c->obj, OA_OBJ_COND_HANDLE, cond_obj_free);
            c->parent = m;
            c->def_value = def_value;
            c->flag = flag;
            c->value = value;
            c->type = -1;
            oa_cap_lock();
            oa_mri_cond **n = realloc(m->conds, (m->nconds + 1u) * sizeof(*n));
            if (n == NULL) {
                st = OA_FAIL(OA_E_NOMEM, "cannot grow the condition handles of instance %u", m->id);
            } else {
                m->conds = n;
                st = oa_registry_add(&c->obj);
                if (st == OA_OK) {
                    m->conds[m->nconds++] = c;
                }
            }
            oa_cap_unlock();
            if (st != OA_OK) {
                if (oa_mem_free(value, OA_MEM_KIND_DEVICE, NULL) != OA_OK) {
                    OA_LOGW("cannot release the condition value %p", value);
                }
                free(c);
                c = NULL;
            }
        } else {
            free(c);
            c = NULL;
        }
    }
    oa_ctx_release(cur);
    oa_mdlri_put(m);
    if (st == OA_OK) {
        *out = (aclmdlRICondHandle)c;
    }
    return st;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue,
                                                      aclmdlRICondHandleFlag flag, aclmdlRICondHandle *handle)
{
    ACL_REQUIRE_NOT_NULL(modelRI);
    ACL_REQUIRE_NOT_NULL(handle);
    ACL_RETURN_STATUS(cond_create(modelRI, defaultLaunchValue, (uint32_t)flag, handle));
}

ACL_FUNC_VISIBILITY aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t **ptr)
{
    ACL_REQUIRE_NOT_NULL(handle);
    ACL_REQUIRE_NOT_NULL(ptr);
    oa_context *cur = NULL;
    oa_status st = oa_ctx_current(true, &cur);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    oa_ctx_release(cur);
    oa_obj *o = oa_registry_get(handle, OA_OBJ_COND_HANDLE);
    ACL_REQUIRE(o != NULL, OA_E_RT_INVALID_HANDLE, "condition handle [%p] is not a live condition handle", handle);
    *ptr = ((oa_mri_cond *)o)->value;
    oa_obj_unref(o);
    return ACL_SUCCESS;
}

static oa_status check_size(int32_t type, uint32_t size)
{
    bool ok;
    switch (type) {
    case ACL_MODEL_RI_COND_TYPE_IF:
        ok = size == 1u || size == 2u;
        break;
    case ACL_MODEL_RI_COND_TYPE_WHILE:
        ok = size == 1u;
        break;
    default:
        ok = size >= 1u && size <= MAX_COND_BRANCHES;
        break;
    }
    if (!ok) {
        return OA_FAIL(OA_E_RT_PARAM, "size [%u] is invalid for a condition task of type %d (IF: 1 or 2, WHILE: 1, "
                                      "SWITCH: at least 1)",
                       size, type);
    }
    return OA_OK;
}

static oa_status add_cond_task(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags)
{
    if ((uint32_t)params.type > (uint32_t)ACL_MODEL_RI_COND_TYPE_SWITCH) {
        return OA_FAIL(OA_E_RT_PARAM, "params.type [%d] must be in [0, %d]", (int)params.type,
                       ACL_MODEL_RI_COND_TYPE_SWITCH);
    }
    if (flags != 0) {
        return OA_FAIL(OA_E_RT_PARAM, "flags [%u] is a reserved parameter and must be 0", flags);
    }
    if (params.handle == NULL) {
        return OA_FAIL(OA_E_RT_PARAM, "parameter [params.handle] must not be null");
    }
    if (params.modelRIArray == NULL) {
        return OA_FAIL(OA_E_RT_PARAM, "parameter [params.modelRIArray] must not be null");
    }
    oa_obj *o = oa_registry_get(params.handle, OA_OBJ_COND_HANDLE);
    if (o == NULL) {
        return OA_FAIL(OA_E_RT_INVALID_HANDLE, "condition handle [%p] is not a live condition handle", params.handle);
    }
    oa_mri_cond *c = (oa_mri_cond *)o;
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        oa_obj_unref(o);
        return st;
    }
    oa_mdlri **subs = NULL;
    uint32_t made = 0;
    oa_cap_lock();
    oa_cap_link *l = &s->cap;
    if (c->type >= 0 || c->subs != NULL) {
        st = OA_FAIL(OA_E_RT_PARAM, "the condition handle has already been used by a condition task: create a new "
                                    "one");
    } else if (l->role != OA_CAP_ORIGIN && l->role != OA_CAP_JOINED) {
        st = OA_FAIL(OA_E_RT_STREAM_NOT_CAPTURED,
                     "stream %d must be in the capture stage before adding a condition task", s->id);
    } else if (l->model != c->parent) {
        st = OA_FAIL(OA_E_RT_PARAM,
                     "the instance of the condition handle is not the instance stream %d is capturing into", s->id);
    } else {
        st = check_size((int32_t)params.type, params.size);
    }
    if (st == OA_OK) {
        subs = calloc(params.size, sizeof(*subs));
        if (subs == NULL) {
            st = OA_FAIL(OA_E_NOMEM, "cannot allocate %u sub-instances", params.size);
        }
    }
    for (uint32_t i = 0; st == OA_OK && i < params.size; ++i) {
        st = oa_mdlri_create(c->parent->ctx, MRI_TYPE_CAPTURE, true, &subs[i]);
        if (st == OA_OK) {
            subs[i]->owner_cond = c;
            ++made;
        }
    }
    oa_mri_task *t = NULL;
    if (st == OA_OK) {
        st = oa_mdlri_append(l->ms, MRI_OP_COND, NULL, &t);
    }
    if (st == OA_OK) {
        t->u.cond = c;
        c->type = (int32_t)params.type;
        c->size = params.size;
        c->subs = subs;
        for (uint32_t i = 0; i < params.size; ++i) {
            params.modelRIArray[i] = (aclmdlRI)subs[i];
        }
        subs = NULL;
        OA_LOGI("stream %d: condition task of type %d with %u sub-instance(s) added to instance %u", s->id,
                (int)params.type, params.size, c->parent->id);
    }
    oa_cap_unlock();
    if (subs != NULL) {
        for (uint32_t i = 0; i < made; ++i) {
            oa_mdlri_discard(subs[i]);
        }
        free(subs);
        memset(params.modelRIArray, 0, (size_t)params.size * sizeof(aclmdlRI));
    }
    oa_stream_release(s);
    oa_obj_unref(o);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags)
{
    ACL_REQUIRE_NOT_NULL(stream);
    ACL_RETURN_STATUS(add_cond_task(params, stream, flags));
}

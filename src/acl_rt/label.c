/*
 * Labels and stream control flow inside built instances: aclrtCreateLabel,
 * aclrtSetLabel, aclrtDestroyLabel, aclrtCreateLabelList,
 * aclrtDestroyLabelList, aclrtSwitchLabelByIndex, aclrtActiveStream and
 * aclrtSwitchStream.
 *
 * A label marks a position in the task list of a stream bound to an instance
 * (aclmdlRIBindStream). aclrtSwitchLabelByIndex records a task that, when a
 * replay reaches it, reads a uint32 index from device memory and continues at
 * the label of that index in the list (an index past the end selects the
 * last label): on the same stream the stream jumps, on another stream of the
 * instance that stream continues from the label and the current one stops.
 * aclrtActiveStream and aclrtSwitchStream start a stream of the instance that
 * is not a head stream (unconditionally, or when the comparison holds).
 * Streams bound with ACL_MODEL_STREAM_FLAG_HEAD run when the replay starts.
 */
#define OA_LOG_MODULE "RUNTIME"
#include <stdlib.h>
#include <string.h>

#include "acl_rt/capture_internal.h"
#include "base/acl_check.h"
#include "base/error.h"

#define MAX_LABELS 65535

struct oa_label {
    oa_obj obj;
    oa_label *next;          /* list of live labels (g_labels_mu) */
    oa_label *prev;
    oa_context *ctx;         /* referenced */
    uint64_t model_serial;   /* where the label is set (capture lock; read by replays after the build) */
    uint32_t stream_idx;
    uint32_t pos;
    bool set;
};

struct oa_label_list {
    oa_obj obj;
    oa_label_list *next;
    oa_label_list *prev;
    oa_context *ctx;         /* referenced */
    uint32_t n;
    oa_label **labels;       /* referenced */
};

static pthread_mutex_t g_labels_mu = PTHREAD_MUTEX_INITIALIZER;
static oa_label *g_labels;
static oa_label_list *g_lists;
static int32_t g_nlabels;

static void label_free(oa_obj *o)
{
    oa_label *l = (oa_label *)o;
    oa_ctx_release(l->ctx);
    free(l);
}

static void list_free(oa_obj *o)
{
    oa_label_list *l = (oa_label_list *)o;
    for (uint32_t i = 0; i < l->n; ++i) {
        oa_label_unref(l->labels[i]);
    }
    free(l->labels);
    oa_ctx_release(l->ctx);
    free(l);
}

void oa_label_ref(oa_label *l)
{
    oa_obj_ref(&l->obj);
}

void oa_label_unref(oa_label *l)
{
    oa_obj_unref(&l->obj);
}

void oa_label_list_ref(oa_label_list *l)
{
    oa_obj_ref(&l->obj);
}

void oa_label_list_unref(oa_label_list *l)
{
    oa_obj_unref(&l->obj);
}

oa_label *oa_label_list_at(oa_label_list *l, uint32_t i, uint32_t *count)
{
    *count = l->n;
    return i < l->n ? l->labels[i] : NULL;
}

bool oa_label_position(const oa_label *l, uint64_t *model_serial, uint32_t *stream, uint32_t *pos)
{
    if (!__atomic_load_n(&l->set, __ATOMIC_ACQUIRE)) {
        return false;
    }
    *model_serial = l->model_serial;
    *stream = l->stream_idx;
    *pos = l->pos;
    return true;
}

/* Unlinks a label from the live list; true when this call removed its handle. */
static bool label_remove(oa_label *l)
{
    if (!oa_registry_remove(&l->obj)) {
        return false;
    }
    pthread_mutex_lock(&g_labels_mu);
    if (l->prev != NULL) {
        l->prev->next = l->next;
    } else if (g_labels == l) {
        g_labels = l->next;
    }
    if (l->next != NULL) {
        l->next->prev = l->prev;
    }
    l->next = l->prev = NULL;
    --g_nlabels;
    pthread_mutex_unlock(&g_labels_mu);
    return true;
}

static bool list_remove(oa_label_list *l)
{
    if (!oa_registry_remove(&l->obj)) {
        return false;
    }
    pthread_mutex_lock(&g_labels_mu);
    if (l->prev != NULL) {
        l->prev->next = l->next;
    } else if (g_lists == l) {
        g_lists = l->next;
    }
    if (l->next != NULL) {
        l->next->prev = l->prev;
    }
    l->next = l->prev = NULL;
    pthread_mutex_unlock(&g_labels_mu);
    return true;
}

void oa_labels_context_gone(oa_context *ctx)
{
    for (;;) {
        oa_label_list *found = NULL;
        pthread_mutex_lock(&g_labels_mu);
        for (oa_label_list *l = g_lists; l != NULL; l = l->next) {
            if (l->ctx == ctx) {
                found = l;
                oa_obj_ref(&l->obj);
                break;
            }
        }
        pthread_mutex_unlock(&g_labels_mu);
        if (found == NULL) {
            break;
        }
        if (list_remove(found)) {
            oa_obj_unref(&found->obj);
        }
        oa_obj_unref(&found->obj);
    }
    for (;;) {
        oa_label *found = NULL;
        pthread_mutex_lock(&g_labels_mu);
        for (oa_label *l = g_labels; l != NULL; l = l->next) {
            if (l->ctx == ctx) {
                found = l;
                oa_obj_ref(&l->obj);
                break;
            }
        }
        pthread_mutex_unlock(&g_labels_mu);
        if (found == NULL) {
            break;
        }
        if (label_remove(found)) {
            oa_obj_unref(&found->obj);
        }
        oa_obj_unref(&found->obj);
    }
}

static oa_status get_label(aclrtLabel handle, oa_label **out)
{
    oa_obj *o = oa_registry_get(handle, OA_OBJ_LABEL);
    if (o == NULL) {
        return OA_FAIL(OA_E_RT_INVALID_HANDLE, "label [%p] is not a live label (created by aclrtCreateLabel)", handle);
    }
    *out = (oa_label *)o;
    return OA_OK;
}

/* ---- labels ----------------------------------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclrtCreateLabel(aclrtLabel *label)
{
    ACL_REQUIRE_NOT_NULL(label);
    oa_context *ctx = NULL;
    oa_status st = oa_ctx_current(true, &ctx);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    oa_label *l = calloc(1, sizeof(*l));
    if (l == NULL) {
        oa_ctx_release(ctx);
        return oa_status_to_acl(OA_FAIL(OA_E_NOMEM, "cannot allocate a label"));
    }
    oa_obj_init(&l->obj, OA_OBJ_LABEL, label_free);
    l->ctx = ctx; /* takes over the reference */
    pthread_mutex_lock(&g_labels_mu);
    if (g_nlabels >= MAX_LABELS) {
        pthread_mutex_unlock(&g_labels_mu);
        oa_obj_unref(&l->obj);
        return oa_status_to_acl(OA_FAIL(OA_E_RT_INTERNAL, "no label left: a process has at most %d labels",
                                        MAX_LABELS));
    }
    st = oa_registry_add(&l->obj);
    if (st == OA_OK) {
        l->next = g_labels;
        if (g_labels != NULL) {
            g_labels->prev = l;
        }
        g_labels = l;
        ++g_nlabels;
    }
    pthread_mutex_unlock(&g_labels_mu);
    if (st != OA_OK) {
        oa_obj_unref(&l->obj);
        return oa_status_to_acl(st);
    }
    *label = (aclrtLabel)l;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyLabel(aclrtLabel label)
{
    ACL_REQUIRE_NOT_NULL(label);
    oa_label *l = NULL;
    oa_status st = get_label(label, &l);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    if (label_remove(l)) {
        oa_obj_unref(&l->obj); /* creation reference; lists and tasks may still hold it */
    } else {
        st = OA_FAIL(OA_E_RT_INVALID_HANDLE, "label [%p] is already being destroyed", label);
    }
    oa_obj_unref(&l->obj);
    ACL_RETURN_STATUS(st);
}

/* The model stream of a bound stream of an instance under construction. Capture lock held. */
static oa_status building_stream(oa_stream *s, const char *what, oa_mri_stream **ms)
{
    if (s->cap.role != OA_CAP_BOUND) {
        return OA_FAIL(OA_E_RT_STREAM_MODEL, "%s: stream %d is not bound to a model runtime instance", what, s->id);
    }
    if (mri_status_of(s->cap.model) != MRI_NONE) {
        return OA_FAIL(OA_E_RT_STREAM_MODEL, "%s: model runtime instance %u is already built", what,
                       s->cap.model->id);
    }
    *ms = s->cap.ms;
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(label);
    ACL_REQUIRE_NOT_NULL(stream);
    oa_label *l = NULL;
    oa_status st = get_label(label, &l);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    oa_stream *s = NULL;
    st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        oa_label_unref(l);
        return oa_status_to_acl(st);
    }
    if (l->ctx != s->ctx) {
        st = OA_FAIL(OA_E_RT_INTERNAL, "label [%p] does not belong to the current context", label);
    }
    if (st == OA_OK) {
        oa_cap_lock();
        oa_mri_stream *ms = NULL;
        st = building_stream(s, "setting a label", &ms);
        if (st == OA_OK && l->set) {
            st = OA_FAIL(OA_E_RT_INTERNAL, "the label cannot be set repeatedly");
        }
        oa_mri_task *t = NULL;
        if (st == OA_OK) {
            st = oa_mdlri_append(ms, MRI_OP_LABEL, NULL, &t);
        }
        if (st == OA_OK) {
            oa_label_ref(l);
            t->u.label = l;
            l->model_serial = ms->model->serial;
            l->stream_idx = ms->index;
            l->pos = t->index;
            __atomic_store_n(&l->set, true, __ATOMIC_RELEASE);
        }
        oa_cap_unlock();
    }
    oa_stream_release(s);
    oa_label_unref(l);
    ACL_RETURN_STATUS(st);
}

/* ---- label lists -------------------------------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclrtCreateLabelList(aclrtLabel *labels, size_t num, aclrtLabelList *labelList)
{
    ACL_REQUIRE_NOT_NULL(labels);
    ACL_REQUIRE_NOT_NULL(labelList);
    ACL_REQUIRE(num > 0 && num <= MAX_LABELS, OA_E_RT_PARAM, "num [%zu] must be in (0, %d]", num, MAX_LABELS);
    oa_context *ctx = NULL;
    oa_status st = oa_ctx_current(true, &ctx);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    oa_label_list *l = calloc(1, sizeof(*l));
    oa_label **arr = calloc(num, sizeof(*arr));
    if (l == NULL || arr == NULL) {
        free(l);
        free(arr);
        oa_ctx_release(ctx);
        return oa_status_to_acl(OA_FAIL(OA_E_NOMEM, "cannot allocate a label list of %zu labels", num));
    }
    oa_obj_init(&l->obj, OA_OBJ_LABEL_LIST, list_free);
    l->ctx = ctx;
    l->labels = arr;
    for (size_t i = 0; i < num; ++i) {
        st = get_label(labels[i], &arr[i]);
        if (st != OA_OK) {
            break;
        }
        l->n = (uint32_t)(i + 1);
    }
    if (st == OA_OK) {
        pthread_mutex_lock(&g_labels_mu);
        st = oa_registry_add(&l->obj);
        if (st == OA_OK) {
            l->next = g_lists;
            if (g_lists != NULL) {
                g_lists->prev = l;
            }
            g_lists = l;
        }
        pthread_mutex_unlock(&g_labels_mu);
    }
    if (st != OA_OK) {
        oa_obj_unref(&l->obj);
        return oa_status_to_acl(st);
    }
    *labelList = (aclrtLabelList)l;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyLabelList(aclrtLabelList labelList)
{
    ACL_REQUIRE_NOT_NULL(labelList);
    oa_obj *o = oa_registry_get(labelList, OA_OBJ_LABEL_LIST);
    ACL_REQUIRE(o != NULL, OA_E_RT_INVALID_HANDLE, "label list [%p] is not a live label list", labelList);
    oa_label_list *l = (oa_label_list *)o;
    oa_status st = OA_OK;
    if (list_remove(l)) {
        oa_obj_unref(o);
    } else {
        st = OA_FAIL(OA_E_RT_INVALID_HANDLE, "label list [%p] is already being destroyed", labelList);
    }
    oa_obj_unref(o);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclrtSwitchLabelByIndex(void *ptr, uint32_t maxValue, aclrtLabelList labelList,
                                                     aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(ptr);
    ACL_REQUIRE_NOT_NULL(labelList);
    ACL_REQUIRE_NOT_NULL(stream);
    oa_obj *o = oa_registry_get(labelList, OA_OBJ_LABEL_LIST);
    ACL_REQUIRE(o != NULL, OA_E_RT_INVALID_HANDLE, "label list [%p] is not a live label list", labelList);
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(stream, &s);
    if (st == OA_OK) {
        oa_cap_lock();
        oa_mri_stream *ms = NULL;
        st = building_stream(s, "switching to a label by index", &ms);
        oa_mri_task *t = NULL;
        if (st == OA_OK) {
            st = oa_mdlri_append(ms, MRI_OP_SWITCH_LABEL, NULL, &t);
        }
        if (st == OA_OK) {
            oa_obj_ref(o);
            t->u.sw_label.ptr = ptr;
            t->u.sw_label.max = maxValue;
            t->u.sw_label.list = (oa_label_list *)o;
        }
        oa_cap_unlock();
        oa_stream_release(s);
    }
    oa_obj_unref(o);
    ACL_RETURN_STATUS(st);
}

/* ---- stream activation ------------------------------------------------------------------------------- */

/* Both streams bound to the same instance under construction. Capture lock held. */
static oa_status pair(oa_stream *target, oa_stream *s, const char *what, oa_mri_stream **tms, oa_mri_stream **sms)
{
    oa_status st = building_stream(s, what, sms);
    if (st == OA_OK) {
        st = building_stream(target, what, tms);
    }
    if (st == OA_OK && (*tms)->model != (*sms)->model) {
        st = OA_FAIL(OA_E_RT_STREAM_MODEL, "%s: streams %d and %d are bound to different instances", what, target->id,
                     s->id);
    }
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(activeStream);
    ACL_REQUIRE_NOT_NULL(stream);
    oa_stream *a = NULL, *s = NULL;
    oa_status st = oa_stream_acquire(activeStream, &a);
    if (st == OA_OK) {
        st = oa_stream_acquire(stream, &s);
    }
    if (st == OA_OK) {
        oa_cap_lock();
        oa_mri_stream *tms = NULL, *sms = NULL;
        st = pair(a, s, "stream activation", &tms, &sms);
        oa_mri_task *t = NULL;
        if (st == OA_OK) {
            st = oa_mdlri_append(sms, MRI_OP_ACTIVE, NULL, &t);
        }
        if (st == OA_OK) {
            t->u.active.target = tms;
        }
        oa_cap_unlock();
    }
    oa_stream_release(s);
    oa_stream_release(a);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclrtSwitchStream(void *leftValue, aclrtCondition cond, void *rightValue,
                                               aclrtCompareDataType dataType, aclrtStream trueStream,
                                               aclrtStream falseStream, aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(leftValue);
    ACL_REQUIRE_NOT_NULL(rightValue);
    ACL_REQUIRE_NOT_NULL(trueStream);
    ACL_REQUIRE_NOT_NULL(stream);
    ACL_REQUIRE(falseStream == NULL, OA_E_PARAM, "falseStream is a reserved parameter and must be null");
    ACL_REQUIRE((uint32_t)cond <= (uint32_t)ACL_RT_LESS_OR_EQUAL, OA_E_RT_PARAM, "cond [%d] must be in [0, %d]",
                (int)cond, ACL_RT_LESS_OR_EQUAL);
    ACL_REQUIRE((uint32_t)dataType <= (uint32_t)ACL_RT_SWITCH_INT64, OA_E_RT_PARAM,
                "dataType [%d] must be in [0, %d]", (int)dataType, ACL_RT_SWITCH_INT64);
    oa_stream *a = NULL, *s = NULL;
    oa_status st = oa_stream_acquire(trueStream, &a);
    if (st == OA_OK) {
        st = oa_stream_acquire(stream, &s);
    }
    if (st == OA_OK) {
        oa_cap_lock();
        oa_mri_stream *tms = NULL, *sms = NULL;
        st = pair(a, s, "switching between streams", &tms, &sms);
        oa_mri_task *t = NULL;
        if (st == OA_OK) {
            st = oa_mdlri_append(sms, MRI_OP_SWITCH, NULL, &t);
        }
        if (st == OA_OK) {
            t->u.sw.left = leftValue;
            t->u.sw.right = rightValue;
            t->u.sw.cond = (int32_t)cond;
            t->u.sw.dtype = (int32_t)dataType;
            t->u.sw.target = tms;
        }
        oa_cap_unlock();
    }
    oa_stream_release(s);
    oa_stream_release(a);
    ACL_RETURN_STATUS(st);
}

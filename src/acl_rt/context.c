/*
 * Contexts: creation and teardown, the calling thread's current context, and
 * the aclrt*Context* / system-parameter entry points.
 *
 * As in CANN, a thread's current context is either an explicit context
 * (aclrtCreateContext / aclrtSetCurrentContext) or the default ("primary")
 * context of the device it last passed to aclrtSetDevice; setting one clears
 * the other. The thread-local pointers are never trusted: an explicit context
 * is re-validated through the handle registry, the primary context is read
 * from the device under its lock.
 */
#define OA_LOG_MODULE "RUNTIME"
#include <stdlib.h>
#include <string.h>

#include "acl_rt/capture.h"
#include "acl_rt/rt_internal.h"
#include "base/acl_check.h"
#include "base/error.h"
#include "prof/prof_internal.h"

static _Thread_local oa_context *t_ctx;
static _Thread_local uint64_t t_ctx_serial;
static _Thread_local oa_device *t_dev;
static uint64_t g_next_serial = 1;

static void set_tls_ctx(oa_context *ctx)
{
    t_ctx = ctx;
    t_ctx_serial = ctx != NULL ? ctx->serial : 0;
    t_dev = NULL;
}

static void ctx_free(oa_obj *o)
{
    oa_context *ctx = (oa_context *)o;
    pthread_mutex_destroy(&ctx->mu);
    free(ctx);
}

oa_status oa_ctx_create(oa_device *dev, bool primary, oa_context **out)
{
    oa_context *ctx = calloc(1, sizeof(*ctx));
    if (ctx == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot allocate a context");
    }
    oa_obj_init(&ctx->obj, OA_OBJ_CONTEXT, ctx_free);
    ctx->dev = dev;
    ctx->serial = __atomic_fetch_add(&g_next_serial, 1, __ATOMIC_RELAXED);
    ctx->primary = primary;
    pthread_mutex_init(&ctx->mu, NULL);
    oa_status st = oa_stream_create(ctx, OA_RT_STREAM_PRIORITY_DEFAULT, 0, true, &ctx->default_stream);
    if (st != OA_OK) {
        oa_obj_unref(&ctx->obj);
        return st;
    }
    st = oa_registry_add(&ctx->obj);
    if (st != OA_OK) {
        (void)oa_stream_destroy(ctx->default_stream, true);
        oa_obj_unref(&ctx->obj);
        return st;
    }
    pthread_mutex_lock(&dev->mu);
    ctx->dev_next = dev->contexts;
    if (dev->contexts != NULL) {
        dev->contexts->dev_prev = ctx;
    }
    dev->contexts = ctx;
    if (!primary) {
        ++dev->explicit_ctx;
    }
    pthread_mutex_unlock(&dev->mu);
    oa_obj_ref(&ctx->obj); /* the caller's reference; the creation reference stays with the registry entry */
    OA_LOGI("created %s context %p on device %d", primary ? "default" : "explicit", (void *)ctx, dev->id);
    *out = ctx;
    return OA_OK;
}

/* Takes a referenced snapshot of a list under ctx->mu and empties it. */
static oa_stream **take_streams(oa_context *ctx, size_t *n)
{
    size_t count = 0;
    for (oa_stream *s = ctx->streams; s != NULL; s = s->ctx_next) {
        ++count;
    }
    oa_stream **arr = count > 0 ? calloc(count, sizeof(*arr)) : NULL;
    size_t i = 0;
    oa_stream *s = ctx->streams;
    while (s != NULL) {
        oa_stream *next = s->ctx_next;
        s->ctx_next = s->ctx_prev = NULL;
        if (arr != NULL) {
            oa_obj_ref(&s->obj);
            arr[i++] = s;
        }
        s = next;
    }
    ctx->streams = NULL;
    *n = i;
    return arr;
}

static oa_event **take_events(oa_context *ctx, size_t *n)
{
    size_t count = 0;
    for (oa_event *e = ctx->events; e != NULL; e = e->ctx_next) {
        ++count;
    }
    oa_event **arr = count > 0 ? calloc(count, sizeof(*arr)) : NULL;
    size_t i = 0;
    oa_event *e = ctx->events;
    while (e != NULL) {
        oa_event *next = e->ctx_next;
        e->ctx_next = e->ctx_prev = NULL;
        if (arr != NULL) {
            oa_obj_ref(&e->obj);
            arr[i++] = e;
        }
        e = next;
    }
    ctx->events = NULL;
    *n = i;
    return arr;
}

void oa_ctx_teardown(oa_context *ctx)
{
    if (!oa_registry_remove(&ctx->obj)) {
        return;
    }
    oa_device *dev = ctx->dev;
    /* Captures end and instances go first: their streams stop intercepting, queued replays keep them alive. */
    oa_capture_context_gone(ctx);
    pthread_mutex_lock(&ctx->mu);
    ctx->dead = true;
    size_t ns = 0, ne = 0;
    oa_stream **streams = take_streams(ctx, &ns);
    oa_event **events = take_events(ctx, &ne);
    pthread_mutex_unlock(&ctx->mu);

    if (ns > 0) {
        OA_LOGW("context %p of device %d torn down with %zu stream(s) still alive; destroying them", (void *)ctx,
                dev->id, ns);
    }
    for (size_t i = 0; i < ns; ++i) {
        (void)oa_stream_destroy(streams[i], false);
        oa_stream_release(streams[i]);
    }
    free(streams);
    (void)oa_stream_destroy(ctx->default_stream, false);
    if (ne > 0) {
        OA_LOGW("context %p of device %d torn down with %zu event(s) still alive; destroying them", (void *)ctx,
                dev->id, ne);
    }
    for (size_t i = 0; i < ne; ++i) {
        (void)oa_event_destroy(events[i]);
        oa_obj_unref(&events[i]->obj);
    }
    free(events);

    pthread_mutex_lock(&dev->mu);
    if (ctx->dev_prev != NULL) {
        ctx->dev_prev->dev_next = ctx->dev_next;
    } else if (dev->contexts == ctx) {
        dev->contexts = ctx->dev_next;
    }
    if (ctx->dev_next != NULL) {
        ctx->dev_next->dev_prev = ctx->dev_prev;
    }
    ctx->dev_next = ctx->dev_prev = NULL;
    bool explicit_ctx = !ctx->primary;
    if (explicit_ctx) {
        --dev->explicit_ctx;
    }
    pthread_mutex_unlock(&dev->mu);
    if (t_ctx == ctx) {
        t_ctx = NULL;
    }
    OA_LOGI("destroyed %s context %p of device %d", ctx->primary ? "default" : "explicit", (void *)ctx, dev->id);
    if (explicit_ctx) {
        oa_rt_device_context_gone(dev);
    }
    oa_obj_unref(&ctx->obj);
}

oa_context *oa_ctx_current_quiet(bool implicit)
{
    if (t_ctx != NULL) {
        oa_context *ctx = (oa_context *)oa_registry_get(t_ctx, OA_OBJ_CONTEXT);
        if (ctx != NULL && ctx->serial != t_ctx_serial) {
            /* The context this thread had was destroyed and another one got its address. */
            oa_ctx_release(ctx);
            ctx = NULL;
        }
        return ctx;
    }
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (t_dev != NULL) {
            oa_context *ctx = NULL;
            pthread_mutex_lock(&t_dev->mu);
            if (t_dev->primary != NULL) {
                ctx = t_dev->primary;
                oa_obj_ref(&ctx->obj);
            }
            pthread_mutex_unlock(&t_dev->mu);
            return ctx;
        }
        int32_t def = oa_rt_default_device();
        if (!implicit || def < 0) {
            return NULL;
        }
        if (oa_rt_set_device(def) != OA_OK) {
            return NULL;
        }
    }
    return NULL;
}

oa_status oa_ctx_current(bool implicit, oa_context **out)
{
    oa_context *ctx = oa_ctx_current_quiet(implicit);
    if (ctx == NULL) {
        return OA_FAIL(OA_E_RT_CONTEXT_NULL,
                       "the calling thread has no current context: call aclrtSetDevice or aclrtSetCurrentContext "
                       "first");
    }
    *out = ctx;
    return OA_OK;
}

void oa_ctx_release(oa_context *ctx)
{
    if (ctx != NULL) {
        oa_obj_unref(&ctx->obj);
    }
}

void oa_ctx_tls_set_device(oa_device *dev)
{
    t_dev = dev;
    t_ctx = NULL;
}

void oa_ctx_tls_clear_if(oa_context *ctx)
{
    if (t_ctx == ctx) {
        t_ctx = NULL;
    }
}

/* ---- public API ------------------------------------------------------------ */

ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    ACL_REQUIRE_NOT_NULL(context);
    oa_status st = oa_rt_check_device_id(deviceId, OA_E_RT_DEVICE_ID);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    oa_context *ctx = NULL;
    st = oa_ctx_create(oa_rt_device(deviceId), false, &ctx);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    set_tls_ctx(ctx);
    *context = (aclrtContext)ctx;
    oa_ctx_release(ctx);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    ACL_REQUIRE_NOT_NULL(context);
    oa_context *ctx = (oa_context *)oa_registry_get(context, OA_OBJ_CONTEXT);
    ACL_REQUIRE(ctx != NULL, OA_E_RT_CONTEXT_NULL, "context [%p] is not a live context (already destroyed?)", context);
    if (ctx->primary) {
        oa_ctx_release(ctx);
        return oa_status_to_acl(OA_FAIL(OA_E_RT_CONTEXT_NULL,
                                        "context [%p] is the default context of device %d: it cannot be destroyed "
                                        "explicitly (use aclrtResetDevice)",
                                        context, ctx->dev->id));
    }
    oa_ctx_teardown(ctx);
    oa_ctx_release(ctx);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    ACL_REQUIRE_NOT_NULL(context);
    oa_context *ctx = (oa_context *)oa_registry_get(context, OA_OBJ_CONTEXT);
    ACL_REQUIRE(ctx != NULL, OA_E_RT_CONTEXT_NULL, "context [%p] is not a live context (already destroyed?)", context);
    set_tls_ctx(ctx);
    oa_ctx_release(ctx);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext *context)
{
    ACL_REQUIRE_NOT_NULL(context);
    oa_context *ctx = oa_ctx_current_quiet(false);
    if (ctx == NULL) {
        OA_LOGI("the calling thread has no current context");
        return oa_status_to_acl(OA_E_RT_CONTEXT_NULL);
    }
    *context = (aclrtContext)ctx;
    oa_ctx_release(ctx);
    return ACL_SUCCESS;
}

/* ---- system parameters ---------------------------------------------------- */

static int64_t g_sysopt[4];
static uint32_t g_sysopt_set;
static pthread_mutex_t g_sysopt_mu = PTHREAD_MUTEX_INITIALIZER;

static bool ctx_opt_valid(aclSysParamOpt opt)
{
    return (int)opt >= 0 && (int)opt <= 2;
}

static bool global_opt_valid(aclSysParamOpt opt)
{
    return (int)opt >= 0 && (int)opt <= 3;
}

ACL_FUNC_VISIBILITY aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value)
{
    ACL_REQUIRE(ctx_opt_valid(opt), OA_E_PARAM,
                "opt [%d] must be ACL_OPT_DETERMINISTIC(0), ACL_OPT_ENABLE_DEBUG_KERNEL(1) or "
                "ACL_OPT_STRONG_CONSISTENCY(2)",
                (int)opt);
    oa_context *ctx = NULL;
    oa_status st = oa_ctx_current(true, &ctx);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    pthread_mutex_lock(&ctx->mu);
    ctx->sysopt[opt] = value;
    ctx->sysopt_set |= 1u << opt;
    pthread_mutex_unlock(&ctx->mu);
    oa_ctx_release(ctx);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t *value)
{
    ACL_REQUIRE_NOT_NULL(value);
    ACL_REQUIRE(ctx_opt_valid(opt), OA_E_PARAM,
                "opt [%d] must be ACL_OPT_DETERMINISTIC(0), ACL_OPT_ENABLE_DEBUG_KERNEL(1) or "
                "ACL_OPT_STRONG_CONSISTENCY(2)",
                (int)opt);
    oa_context *ctx = NULL;
    oa_status st = oa_ctx_current(true, &ctx);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    pthread_mutex_lock(&ctx->mu);
    bool set = (ctx->sysopt_set & (1u << opt)) != 0;
    if (set) {
        *value = ctx->sysopt[opt];
    }
    pthread_mutex_unlock(&ctx->mu);
    oa_ctx_release(ctx);
    if (!set) {
        OA_LOGW("system parameter option %d is not set in the current context", (int)opt);
        return oa_status_to_acl(OA_E_RT_SYSPARAMOPT_NOT_SET);
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value)
{
    ACL_REQUIRE(global_opt_valid(opt), OA_E_PARAM,
                "opt [%d] must be ACL_OPT_DETERMINISTIC(0), ACL_OPT_ENABLE_DEBUG_KERNEL(1), "
                "ACL_OPT_STRONG_CONSISTENCY(2) or ACL_OPT_ENABLE_KERNEL_EARLY_START(3)",
                (int)opt);
    pthread_mutex_lock(&g_sysopt_mu);
    g_sysopt[opt] = value;
    g_sysopt_set |= 1u << opt;
    pthread_mutex_unlock(&g_sysopt_mu);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t *value)
{
    ACL_REQUIRE_NOT_NULL(value);
    ACL_REQUIRE(global_opt_valid(opt), OA_E_PARAM,
                "opt [%d] must be ACL_OPT_DETERMINISTIC(0), ACL_OPT_ENABLE_DEBUG_KERNEL(1), "
                "ACL_OPT_STRONG_CONSISTENCY(2) or ACL_OPT_ENABLE_KERNEL_EARLY_START(3)",
                (int)opt);
    pthread_mutex_lock(&g_sysopt_mu);
    bool set = (g_sysopt_set & (1u << opt)) != 0;
    if (set) {
        *value = g_sysopt[opt];
    }
    pthread_mutex_unlock(&g_sysopt_mu);
    if (!set) {
        OA_LOGW("system parameter option %d is not set", (int)opt);
        return oa_status_to_acl(OA_E_RT_SYSPARAMOPT_NOT_SET);
    }
    return ACL_SUCCESS;
}

void oa_rt_sysopt_reset(void)
{
    pthread_mutex_lock(&g_sysopt_mu);
    memset(g_sysopt, 0, sizeof(g_sysopt));
    g_sysopt_set = 0;
    pthread_mutex_unlock(&g_sysopt_mu);
}

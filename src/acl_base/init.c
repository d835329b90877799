/*
 * aclInit / aclFinalize / aclFinalizeReference, init and finalize hooks,
 * aclGetRecentErrMsg, and the process state of acl_state.h.
 *
 * aclInit, as CANN's runtime runs it (under one recursive lock):
 *   1. already initialised: reference count + 1, ACL_ERROR_REPEAT_INITIALIZE;
 *   2. read the config text (NULL or "" = none);
 *   3. the text must equal the one of the first successful aclInit of the
 *      process (an absent file counts as ""), else ACL_ERROR_INVALID_PARAM;
 *   4. with a file: load it (file checks, nesting, JSON) and check
 *      "err_msg_mode";
 *   5. ACL_REG_TYPE_ACL_MODEL init hooks (always, with the raw text);
 *   6. with a file: "dump", ACL_REG_TYPE_ACL_OP_EXECUTOR hooks and
 *      "max_opqueue_num", "StackSize", "defaultDevice", printf FIFO sizes,
 *      "acl_graph";
 *   7. profiling ("profiler", PROFILER_SAMPLECONFIG wins);
 *   8. the SoC name must be known (else ACL_ERROR_INTERNAL_ERROR);
 *   9. ACL_REG_TYPE_ACL_DVPP and ACL_REG_TYPE_OTHER hooks; reference count 1.
 * aclFinalize tears down regardless of the count: finalize hooks
 * (ACL_OP_COMPILER, ACL_MODEL), dump, ACL_DVPP hooks, default device,
 * ACL_REG_TYPE_OTHER hooks, runtime resources. A failing hook makes it
 * return that hook's code with ACL still initialised. Like CANN, aclFinalize
 * in a process that never called aclInit succeeds once; after a finalize it
 * is ACL_ERROR_REPEAT_FINALIZE.
 */
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl_base/init_internal.h"
#include "acl_base/platform.h"
#include "acl_rt/rt_lifecycle.h"
#include "acl_state/acl_state.h"
#include "acl_state/config.h"
#include "base/acl_check.h"
#include "base/build_info.h"
#include "base/log.h"
#include "dump/dump_config.h"
#include "prof/prof_internal.h"

/* ---- process state ---- */

static uint64_t g_refcount;
static bool g_finalized;                        /* CANN's "finalize done" flag (false at start) */
static char *g_config_text;                     /* text of the current init, "" when none */
static size_t g_config_len;
static char *g_first_text;                      /* text of the first successful init */
static size_t g_first_len;
static bool g_have_first;
static bool g_default_device_set;
static oa_acl_runtime_limits g_limits;
static int g_err_msg_mode;

/* aclInit / aclFinalize share acl_state's lock with the readers of the state. */
static void lock_init(void)
{
    oa_acl_state_lock();
}

static void unlock_init(void)
{
    oa_acl_state_unlock();
}

oa_acl_runtime_limits oa_acl_config_runtime_limits(void)
{
    lock_init();
    const oa_acl_runtime_limits v = g_limits;
    unlock_init();
    return v;
}

/* ---- init / finalize hooks ---- */

typedef struct hook {
    aclRegisterCallbackType type;
    aclInitCallbackFunc init_fn;
    aclFinalizeCallbackFunc fini_fn;
    void *user_data;
} hook;

typedef struct hook_list {
    hook *items;
    size_t count;
    size_t cap;
} hook_list;

static hook_list g_init_hooks;
static hook_list g_fini_hooks;

static bool hook_type_present(const hook_list *l, aclRegisterCallbackType type)
{
    for (size_t i = 0; i < l->count; ++i) {
        if (l->items[i].type == type) {
            return true;
        }
    }
    return false;
}

static oa_status hook_add(hook_list *l, hook h)
{
    if (h.type != ACL_REG_TYPE_OTHER && hook_type_present(l, h.type)) {
        return OA_FAIL(OA_E_INTERNAL, "a hook of type %d is already registered", (int)h.type);
    }
    if (l->count == l->cap) {
        const size_t ncap = l->cap == 0 ? 8 : l->cap * 2;
        hook *n = realloc(l->items, ncap * sizeof(*n));
        if (n == NULL) {
            return OA_FAIL(OA_E_NOMEM, "cannot register a hook");
        }
        l->items = n;
        l->cap = ncap;
    }
    l->items[l->count++] = h;
    return OA_OK;
}

static oa_status hook_remove(hook_list *l, aclRegisterCallbackType type, const void *fn_init, const void *fn_fini)
{
    if (!hook_type_present(l, type)) {
        return OA_FAIL(OA_E_INTERNAL, "no hook of type %d is registered", (int)type);
    }
    for (size_t i = 0; i < l->count; ++i) {
        const hook *h = &l->items[i];
        if (h->type == type && ((fn_init != NULL && (const void *)h->init_fn == fn_init) ||
                                (fn_fini != NULL && (const void *)h->fini_fn == fn_fini))) {
            memmove(&l->items[i], &l->items[i + 1], (l->count - i - 1) * sizeof(hook));
            --l->count;
            return OA_OK;
        }
    }
    return OA_FAIL(OA_E_INTERNAL, "the hook is not registered for type %d", (int)type);
}

/* Runs the init hooks of one type in registration order; the first failure stops. */
static aclError notify_init(aclRegisterCallbackType type)
{
    for (size_t i = 0; i < g_init_hooks.count; ++i) {
        const hook h = g_init_hooks.items[i];
        if (h.type != type) {
            continue;
        }
        const aclError ret = h.init_fn(g_config_text != NULL ? g_config_text : "", g_config_len, h.user_data);
        if (ret != ACL_SUCCESS) {
            (void)OA_FAIL(oa_status_from_acl(ret), "init hook of type %d failed with %d", (int)type, ret);
            return ret;
        }
    }
    return ACL_SUCCESS;
}

static aclError notify_finalize(aclRegisterCallbackType type)
{
    for (size_t i = 0; i < g_fini_hooks.count; ++i) {
        const hook h = g_fini_hooks.items[i];
        if (h.type != type) {
            continue;
        }
        const aclError ret = h.fini_fn(h.user_data);
        if (ret != ACL_SUCCESS) {
            (void)OA_FAIL(oa_status_from_acl(ret), "finalize hook of type %d failed with %d", (int)type, ret);
            return ret;
        }
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclInitCallbackRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc,
                                                     void *userData)
{
    ACL_REQUIRE_NOT_NULL(cbFunc);
    lock_init();
    const hook h = {type, cbFunc, NULL, userData};
    oa_status st = hook_add(&g_init_hooks, h);
    if (st == OA_OK && g_refcount > 0) {
        /* already initialised: run it now with the stored text (its result is not reported) */
        (void)cbFunc(g_config_text != NULL ? g_config_text : "", g_config_len, userData);
    }
    unlock_init();
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclInitCallbackUnRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc)
{
    ACL_REQUIRE_NOT_NULL(cbFunc);
    lock_init();
    const oa_status st = hook_remove(&g_init_hooks, type, (const void *)cbFunc, NULL);
    unlock_init();
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclFinalizeCallbackRegister(aclRegisterCallbackType type,
                                                         aclFinalizeCallbackFunc cbFunc, void *userData)
{
    ACL_REQUIRE_NOT_NULL(cbFunc);
    lock_init();
    const hook h = {type, NULL, cbFunc, userData};
    const oa_status st = hook_add(&g_fini_hooks, h);
    unlock_init();
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclFinalizeCallbackUnRegister(aclRegisterCallbackType type,
                                                           aclFinalizeCallbackFunc cbFunc)
{
    ACL_REQUIRE_NOT_NULL(cbFunc);
    lock_init();
    const oa_status st = hook_remove(&g_fini_hooks, type, NULL, (const void *)cbFunc);
    unlock_init();
    ACL_RETURN_STATUS(st);
}

/* ---- aclInit ---- */

/* Steps of aclInit that need a config file (6 in the list above). */
static oa_status apply_file_settings(const char *path, const cJSON *root)
{
    oa_status st = oa_dump_apply_init_config(path);
    if (st != OA_OK) {
        return st;
    }
    const aclError cb = notify_init(ACL_REG_TYPE_ACL_OP_EXECUTOR);
    if (cb != ACL_SUCCESS) {
        return oa_status_from_acl(cb);
    }
    bool found = false;
    uint64_t max_ops = OA_ACL_DEFAULT_MAX_OPQUEUE_NUM;
    st = oa_acl_cfg_max_opqueue_num(root, &found, &max_ops);
    if (st != OA_OK) {
        return st;
    }
    oa_acl_stack_sizes stacks;
    st = oa_acl_cfg_stack_sizes(root, &stacks);
    if (st != OA_OK) {
        return st;
    }
    int32_t device = -1;
    st = oa_acl_cfg_default_device(root, &device);
    if (st != OA_OK) {
        return st;
    }
    if (device != -1) {
        st = oa_rt_set_default_device(device);
        if (st != OA_OK) {
            return st;
        }
        g_default_device_set = true;
    }
    oa_acl_fifo_sizes fifos;
    st = oa_acl_cfg_fifo_sizes(root, &fifos);
    if (st != OA_OK) {
        return st;
    }
    int event_mode = -1;
    st = oa_acl_cfg_event_mode(root, &event_mode);
    if (st != OA_OK) {
        return st;
    }
    oa_acl_state_set_max_opqueue_num(max_ops);
    for (int i = 0; i < 3; ++i) {
        g_limits.stack_size_set[i] = stacks.has[i];
        g_limits.stack_size[i] = stacks.value[i];
    }
    for (int i = 0; i < 2; ++i) {
        g_limits.printf_fifo_set[i] = fifos.has[i];
        g_limits.printf_fifo_size[i] = fifos.value[i];
    }
    g_limits.event_mode = event_mode;
    return OA_OK;
}

/* Undoes what a failed aclInit already changed. */
static void rollback_init(void)
{
    if (g_default_device_set) {
        if (oa_rt_set_default_device(-1) != OA_OK) {
            OA_LOGW("clearing the default device failed during rollback");
        }
        g_default_device_set = false;
    }
    oa_dump_on_finalize();
    oa_prof_cancel_init_config();
    oa_acl_state_set_max_opqueue_num(OA_ACL_DEFAULT_MAX_OPQUEUE_NUM);
    memset(&g_limits, 0, sizeof(g_limits));
    g_limits.event_mode = -1;
}

static oa_status init_locked(const char *configPath)
{
    const bool has_path = configPath != NULL && configPath[0] != '\0';
    char *text = NULL;
    size_t len = 0;
    if (has_path) {
        oa_status st = oa_acl_cfg_read(configPath, &text, &len);
        if (st != OA_OK) {
            return st;
        }
    } else {
        text = calloc(1, 1);
        if (text == NULL) {
            return OA_FAIL(OA_E_NOMEM, "cannot allocate the configuration text");
        }
    }
    if (g_have_first && (len != g_first_len || memcmp(text, g_first_text, len) != 0)) {
        free(text);
        return OA_FAIL(OA_E_PARAM,
                       "config content of [%s] differs from the config of the first aclInit of this process",
                       has_path ? configPath : "(none)");
    }
    free(g_config_text);
    g_config_text = text;
    g_config_len = len;

    cJSON *root = NULL;
    oa_status st = OA_OK;
    if (has_path) {
        st = oa_acl_cfg_load(configPath, &root);
        bool found = false;
        int mode = 0;
        if (st == OA_OK) {
            st = oa_acl_cfg_err_msg_mode(root, &found, &mode);
        }
        if (st == OA_OK && found) {
            g_err_msg_mode = mode;
        }
    }
    if (st == OA_OK) {
        oa_log_reload();
        const aclError cb = notify_init(ACL_REG_TYPE_ACL_MODEL);
        st = cb == ACL_SUCCESS ? OA_OK : oa_status_from_acl(cb);
    }
    if (st == OA_OK && has_path) {
        st = apply_file_settings(configPath, root);
    }
    if (st == OA_OK) {
        const cJSON *prof = cJSON_IsObject(root) ? cJSON_GetObjectItemCaseSensitive(root, "profiler") : NULL;
        st = oa_prof_apply_init_config(prof, getenv("PROFILER_SAMPLECONFIG"));
    }
    cJSON_Delete(root);
    if (st == OA_OK && oa_platform_current_soc() == NULL) {
        st = OA_FAIL(OA_E_INTERNAL, "init SoC version failed");
    }
    if (st == OA_OK) {
        const aclError cb = notify_init(ACL_REG_TYPE_ACL_DVPP);
        st = cb == ACL_SUCCESS ? OA_OK : oa_status_from_acl(cb);
    }
    if (st == OA_OK) {
        const aclError cb = notify_init(ACL_REG_TYPE_OTHER);
        st = cb == ACL_SUCCESS ? OA_OK : oa_status_from_acl(cb);
    }
    if (st != OA_OK) {
        rollback_init();
        return st;
    }
    if (!g_have_first) {
        g_first_text = malloc(len + 1);
        if (g_first_text != NULL) {
            memcpy(g_first_text, g_config_text, len + 1);
            g_first_len = len;
            g_have_first = true;
        }
    }
    g_finalized = false;
    g_refcount = 1;
    oa_acl_state_set_initialized(true);
    OA_LOGI("aclInit succeeded (config %s)", has_path ? configPath : "none");
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath)
{
    lock_init();
    if (g_refcount > 0) {
        ++g_refcount;
        OA_LOGI("repeated aclInit, reference count is now %llu", (unsigned long long)g_refcount);
        unlock_init();
        /* CANN only logs this; we also leave a message so aclGetRecentErrMsg explains the code */
        return oa_status_to_acl(OA_FAIL(OA_E_REPEAT_INIT, "aclInit was already called (reference count %llu)",
                                        (unsigned long long)g_refcount));
    }
    const oa_status st = init_locked(configPath);
    unlock_init();
    OA_LOGI("aclInit(%s): %s", configPath != NULL ? configPath : "NULL", oa_build_string());
    ACL_RETURN_STATUS(st);
}

/* ---- aclFinalize ---- */

static aclError finalize_locked(void)
{
    aclError ret = notify_finalize(ACL_REG_TYPE_ACL_OP_COMPILER);
    if (ret == ACL_SUCCESS) {
        ret = notify_finalize(ACL_REG_TYPE_ACL_MODEL);
    }
    if (ret != ACL_SUCCESS) {
        return ret;
    }
    oa_prof_on_acl_finalize();
    oa_dump_on_finalize();
    ret = notify_finalize(ACL_REG_TYPE_ACL_DVPP);
    if (ret != ACL_SUCCESS) {
        return ret;
    }
    if (g_default_device_set) {
        const oa_status st = oa_rt_set_default_device(-1);
        if (st != OA_OK) {
            return oa_status_to_acl(OA_FAIL(st, "cannot clear the default device"));
        }
        g_default_device_set = false;
    }
    ret = notify_finalize(ACL_REG_TYPE_OTHER);
    if (ret != ACL_SUCCESS) {
        return ret;
    }
    oa_rt_finalize();
    oa_acl_state_set_max_opqueue_num(OA_ACL_DEFAULT_MAX_OPQUEUE_NUM);
    memset(&g_limits, 0, sizeof(g_limits));
    g_limits.event_mode = -1;
    g_finalized = true;
    g_refcount = 0;
    oa_acl_state_set_initialized(false);
    OA_LOGI("aclFinalize succeeded");
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclFinalize(void)
{
    lock_init();
    aclError ret;
    if (g_finalized) {
        ret = oa_status_to_acl(OA_FAIL(OA_E_REPEAT_FINALIZE, "aclFinalize was already called"));
    } else {
        ret = finalize_locked();
    }
    unlock_init();
    return ret;
}

ACL_FUNC_VISIBILITY aclError aclFinalizeReference(uint64_t *refCount)
{
    lock_init();
    aclError ret = ACL_SUCCESS;
    if (g_refcount > 1) {
        --g_refcount;
    } else if (g_refcount < 1) {
        ret = oa_status_to_acl(
            OA_FAIL(OA_E_REPEAT_FINALIZE, "aclFinalizeReference called repeatedly or without aclInit"));
    } else {
        ret = finalize_locked();
    }
    if (refCount != NULL) {
        *refCount = g_refcount;
    }
    unlock_init();
    return ret;
}

ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void)
{
    return oa_error_take_messages();
}

void oa_acl_reset_for_tests(void)
{
    lock_init();
    free(g_first_text);
    g_first_text = NULL;
    g_first_len = 0;
    g_have_first = false;
    unlock_init();
}

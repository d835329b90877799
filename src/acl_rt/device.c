/*
 * Devices: the device table (OPENACL_DEVICE_COUNT physical devices filtered
 * by ASCEND_RT_VISIBLE_DEVICES), aclrtSetDevice/aclrtResetDevice reference
 * counting with the default context, device synchronisation, the device
 * queries apps use, and the lifecycle hooks of rt_lifecycle.h.
 *
 * A device is "open" while its default context exists (aclrtSetDevice
 * references not yet reset) or an explicit context of it is alive. When it
 * closes, the device memory still allocated is reported as leaked and freed.
 */
#define OA_LOG_MODULE "RUNTIME"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl_rt/capture.h"
#include "acl_rt/rt_internal.h"
#include "acl_rt/rt_lifecycle.h"
#include "base/acl_check.h"
#include "base/error.h"
#include "base/util.h"
#include "mem/mem_table.h"
#include "prof/prof_internal.h"

static oa_device g_devices[OA_RT_MAX_DEVICES];
static uint32_t g_phys_count;
static uint32_t g_visible_count;
static bool g_visible_error; /* ASCEND_RT_VISIBLE_DEVICES names no usable device */
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static int32_t g_default_device = -1;
static pthread_mutex_t g_default_mu = PTHREAD_MUTEX_INITIALIZER;
static aclrtFloatOverflowMode g_sat_mode = ACL_RT_OVERFLOW_MODE_INFNAN;
static aclrtTsId g_ts_id = ACL_TS_ID_AICORE;

static bool all_digits(const char *s, size_t n)
{
    if (n == 0) {
        return false;
    }
    for (size_t i = 0; i < n; ++i) {
        if (!isdigit((unsigned char)s[i])) {
            return false;
        }
    }
    return true;
}

/*
 * ASCEND_RT_VISIBLE_DEVICES, as CANN reads it: comma-separated physical ids,
 * kept up to the first entry that is not a number or not an existing device;
 * ids must be strictly ascending (a repeated or descending id, or no valid id
 * at all, leaves the process without devices).
 */
static void parse_visible(const char *v, int32_t *map)
{
    uint32_t n = 0;
    const char *p = v;
    while (*p != '\0' && n < g_phys_count) {
        const char *comma = strchr(p, ',');
        size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
        const char *b = p;
        size_t l = len;
        while (l > 0 && isspace((unsigned char)*b)) {
            ++b;
            --l;
        }
        while (l > 0 && isspace((unsigned char)b[l - 1])) {
            --l;
        }
        if (!all_digits(b, l) || l > 9) {
            break;
        }
        long id = strtol(b, NULL, 10);
        if (id >= (long)g_phys_count) {
            break;
        }
        for (uint32_t j = 0; j < n; ++j) {
            if (map[j] == (int32_t)id) {
                OA_LOGE("ASCEND_RT_VISIBLE_DEVICES [%s] repeats device %ld; no device is visible", v, id);
                g_visible_error = true;
                return;
            }
        }
        if (n > 0 && (int32_t)id < map[n - 1]) {
            OA_LOGE("ASCEND_RT_VISIBLE_DEVICES [%s] must list devices in ascending order; no device is visible", v);
            g_visible_error = true;
            return;
        }
        map[n++] = (int32_t)id;
        if (comma == NULL) {
            break;
        }
        p = comma + 1;
    }
    if (n == 0) {
        OA_LOGE("ASCEND_RT_VISIBLE_DEVICES [%s] names no device in [0, %u); no device is visible", v, g_phys_count);
        g_visible_error = true;
        return;
    }
    g_visible_count = n;
}

static void init_devices(void)
{
    long n = oa_env_long("OPENACL_DEVICE_COUNT", OA_RT_DEFAULT_DEVICE_COUNT);
    if (n < 1 || n > OA_RT_MAX_DEVICES) {
        OA_LOGW("OPENACL_DEVICE_COUNT=%ld is outside [1, %d]; using %d devices", n, OA_RT_MAX_DEVICES,
                OA_RT_DEFAULT_DEVICE_COUNT);
        n = OA_RT_DEFAULT_DEVICE_COUNT;
    }
    g_phys_count = (uint32_t)n;
    int32_t map[OA_RT_MAX_DEVICES];
    for (uint32_t i = 0; i < g_phys_count; ++i) {
        map[i] = (int32_t)i;
    }
    g_visible_count = g_phys_count;
    const char *v = getenv("ASCEND_RT_VISIBLE_DEVICES");
    if (v != NULL) {
        parse_visible(v, map);
    }
    for (uint32_t i = 0; i < OA_RT_MAX_DEVICES; ++i) {
        oa_device *d = &g_devices[i];
        memset(d, 0, sizeof(*d));
        d->id = (int32_t)i;
        d->phys_id = i < g_visible_count ? map[i] : -1;
        pthread_mutex_init(&d->mu, NULL);
        d->sat_mode = ACL_RT_OVERFLOW_MODE_INFNAN;
    }
    OA_LOGI("%u physical device(s), %u visible", g_phys_count, g_visible_error ? 0u : g_visible_count);
}

static void ensure_init(void)
{
    pthread_once(&g_once, init_devices);
}

uint32_t oa_rt_device_count(void)
{
    ensure_init();
    return g_visible_error ? 0u : g_visible_count;
}

oa_device *oa_rt_device(int32_t id)
{
    if (id < 0 || (uint32_t)id >= oa_rt_device_count()) {
        return NULL;
    }
    return &g_devices[id];
}

oa_status oa_rt_check_device_id(int32_t id, oa_status st)
{
    uint32_t n = oa_rt_device_count();
    if (id < 0 || (uint32_t)id >= n) {
        if (g_visible_error) {
            return OA_FAIL(st, "device id [%d] is invalid: ASCEND_RT_VISIBLE_DEVICES leaves no device visible", id);
        }
        return OA_FAIL(st, "device id [%d] is invalid, it must be in [0, %u)", id, n);
    }
    return OA_OK;
}

int32_t oa_rt_default_device(void)
{
    pthread_mutex_lock(&g_default_mu);
    int32_t d = g_default_device;
    pthread_mutex_unlock(&g_default_mu);
    return d;
}

/* Closes the device when nothing uses it any more; reports and frees leaked memory. */
static void maybe_close(oa_device *dev)
{
    pthread_mutex_lock(&dev->mu);
    bool closed = dev->primary == NULL && dev->explicit_ctx == 0 && dev->contexts == NULL;
    if (closed) {
        size_t leaked = oa_mem_release_device(dev->id);
        if (leaked > 0) {
            OA_LOGW("device %d closed with %zu leaked device allocation(s)", dev->id, leaked);
        }
        memset(dev->peer_enabled, 0, sizeof(dev->peer_enabled));
    }
    pthread_mutex_unlock(&dev->mu);
}

void oa_rt_device_context_gone(oa_device *dev)
{
    maybe_close(dev);
}

oa_status oa_rt_set_device(int32_t id)
{
    oa_status st = oa_rt_check_device_id(id, OA_E_RT_DEVICE_ID);
    if (st != OA_OK) {
        return st;
    }
    oa_device *dev = &g_devices[id];
    oa_rt_notify_device_state(id, ACL_RT_DEVICE_STATE_SET_PRE);
    pthread_mutex_lock(&dev->mu);
    if (dev->primary == NULL) {
        oa_context *ctx = NULL;
        pthread_mutex_unlock(&dev->mu);
        /* Created without the device lock (the context links itself into the device). */
        st = oa_ctx_create(dev, true, &ctx);
        if (st != OA_OK) {
            return st;
        }
        pthread_mutex_lock(&dev->mu);
        if (dev->primary == NULL) {
            dev->primary = ctx;
            dev->sat_mode = g_sat_mode;
            pthread_mutex_unlock(&dev->mu);
            oa_ctx_release(ctx);
        } else {
            /* Another thread opened the device meanwhile: keep its context. */
            pthread_mutex_unlock(&dev->mu);
            oa_ctx_teardown(ctx);
            oa_ctx_release(ctx);
        }
        pthread_mutex_lock(&dev->mu);
    }
    ++dev->primary_refs;
    pthread_mutex_unlock(&dev->mu);
    oa_ctx_tls_set_device(dev);
    oa_rt_notify_device_state(id, ACL_RT_DEVICE_STATE_SET_POST);
    OA_LOGI("set device %d (reference count %lld)", id, (long long)dev->primary_refs);
    return OA_OK;
}

static oa_status reset_device(int32_t id, bool force)
{
    oa_status st = oa_rt_check_device_id(id, OA_E_RT_DEVICE_ID);
    if (st != OA_OK) {
        return st;
    }
    oa_device *dev = &g_devices[id];
    pthread_mutex_lock(&dev->mu);
    if (dev->primary == NULL || dev->primary_refs <= 0) {
        pthread_mutex_unlock(&dev->mu);
        return OA_FAIL(OA_E_RT_CONTEXT_RELEASE, "device %d has not been set or has already been reset", id);
    }
    pthread_mutex_unlock(&dev->mu);
    oa_rt_notify_device_state(id, ACL_RT_DEVICE_STATE_RESET_PRE);
    pthread_mutex_lock(&dev->mu);
    oa_context *victim = NULL;
    if (dev->primary != NULL && dev->primary_refs > 0) {
        dev->primary_refs = force ? 0 : dev->primary_refs - 1;
        if (dev->primary_refs == 0) {
            victim = dev->primary;
            dev->primary = NULL;
        }
    }
    int64_t left = dev->primary_refs;
    pthread_mutex_unlock(&dev->mu);
    if (victim != NULL) {
        oa_ctx_teardown(victim);
        maybe_close(dev);
        OA_LOGI("reset device %d: default context released", id);
    } else {
        OA_LOGI("reset device %d: %lld reference(s) left", id, (long long)left);
    }
    oa_rt_notify_device_state(id, ACL_RT_DEVICE_STATE_RESET_POST);
    return OA_OK;
}

/* ---- lifecycle hooks (rt_lifecycle.h) -------------------------------------- */

oa_status oa_rt_set_default_device(int32_t device_id)
{
    if (device_id >= 0) {
        oa_status st = oa_rt_check_device_id(device_id, OA_E_RT_DEVICE_ID);
        if (st != OA_OK) {
            return st;
        }
    }
    pthread_mutex_lock(&g_default_mu);
    g_default_device = device_id < 0 ? -1 : device_id;
    pthread_mutex_unlock(&g_default_mu);
    return OA_OK;
}

void oa_rt_finalize(void)
{
    ensure_init();
    for (uint32_t i = 0; i < OA_RT_MAX_DEVICES; ++i) {
        oa_device *dev = &g_devices[i];
        pthread_mutex_lock(&dev->mu);
        oa_context *primary = dev->primary;
        dev->primary = NULL;
        dev->primary_refs = 0;
        pthread_mutex_unlock(&dev->mu);
        if (primary != NULL) {
            oa_ctx_teardown(primary);
        }
        for (;;) {
            pthread_mutex_lock(&dev->mu);
            oa_context *ctx = dev->contexts;
            if (ctx != NULL) {
                oa_obj_ref(&ctx->obj);
            }
            pthread_mutex_unlock(&dev->mu);
            if (ctx == NULL) {
                break;
            }
            OA_LOGW("context %p of device %d was not destroyed before aclFinalize; destroying it", (void *)ctx,
                    dev->id);
            oa_ctx_teardown(ctx);
            oa_ctx_release(ctx);
        }
        maybe_close(dev);
    }
    size_t leaked = oa_mem_release_all();
    if (leaked > 0) {
        OA_LOGW("aclFinalize released %zu leaked memory block(s)", leaked);
    }
    oa_rt_callbacks_finalize();
    oa_rt_sysopt_reset();
    oa_rt_misc_reset();
    oa_rt_ipc_mem_reset();
    oa_rt_limits_reset();
    pthread_mutex_lock(&g_default_mu);
    g_default_device = -1;
    pthread_mutex_unlock(&g_default_mu);
}

/* ---- device synchronisation -------------------------------------------------- */

static oa_status sync_device(int32_t timeout_ms)
{
    oa_context *cur = NULL;
    oa_status st = oa_ctx_current(true, &cur);
    if (st != OA_OK) {
        return st;
    }
    oa_device *dev = cur->dev;
    oa_ctx_release(cur);

    /* Snapshot of every stream of the device, referenced. */
    size_t cap = 16, n = 0;
    oa_stream **list = malloc(cap * sizeof(*list));
    if (list == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot allocate the stream list");
    }
    pthread_mutex_lock(&dev->mu);
    for (oa_context *c = dev->contexts; c != NULL; c = c->dev_next) {
        pthread_mutex_lock(&c->mu);
        if (!c->dead) {
            for (oa_stream *s = c->default_stream; s != NULL; s = (s == c->default_stream) ? c->streams : s->ctx_next) {
                if (n == cap) {
                    oa_stream **nl = realloc(list, cap * 2 * sizeof(*list));
                    if (nl == NULL) {
                        break;
                    }
                    list = nl;
                    cap *= 2;
                }
                oa_obj_ref(&s->obj);
                list[n++] = s;
            }
        }
        pthread_mutex_unlock(&c->mu);
    }
    pthread_mutex_unlock(&dev->mu);

    for (size_t i = 0; i < n; ++i) {
        if (oa_capture_stream_capturing(list[i])) {
            int32_t sid = list[i]->id;
            for (size_t j = 0; j < n; ++j) {
                oa_stream_release(list[j]);
            }
            free(list);
            return OA_FAIL(OA_E_RT_STREAM_CAPTURED,
                           "device synchronization is not allowed while stream %d of device %d is capturing", sid,
                           dev->id);
        }
    }

    uint64_t deadline = timeout_ms > 0 ? oa_now_ns() + (uint64_t)timeout_ms * 1000000ull : 0;
    oa_status first = OA_OK;
    for (size_t i = 0; i < n; ++i) {
        oa_stream *s = list[i];
        if (first != OA_E_RT_STREAM_SYNC_TIMEOUT) {
            int32_t left = -1;
            if (timeout_ms > 0) {
                uint64_t now = oa_now_ns();
                left = now >= deadline ? 0 : (int32_t)((deadline - now + 999999ull) / 1000000ull);
            }
            oa_status r;
            if (left == 0) {
                r = oa_stream_idle(s) ? oa_stream_synchronize(s, -1) : OA_E_RT_STREAM_SYNC_TIMEOUT;
            } else {
                r = oa_stream_synchronize(s, left);
            }
            if (r == OA_E_RT_STREAM_SYNC_TIMEOUT) {
                first = r;
            } else if (r != OA_OK && first == OA_OK) {
                first = r;
            }
        }
        oa_stream_release(s);
    }
    free(list);
    if (first == OA_E_RT_STREAM_SYNC_TIMEOUT) {
        return OA_FAIL(first, "device %d did not finish its work within %d ms", dev->id, timeout_ms);
    }
    return first;
}

/* ---- public API ---------------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    ACL_RETURN_STATUS(oa_rt_set_device(deviceId));
}

ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    ACL_RETURN_STATUS(reset_device(deviceId, false));
}

ACL_FUNC_VISIBILITY aclError aclrtResetDeviceForce(int32_t deviceId)
{
    ACL_RETURN_STATUS(reset_device(deviceId, true));
}

ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t *deviceId)
{
    ACL_REQUIRE_NOT_NULL(deviceId);
    oa_context *ctx = oa_ctx_current_quiet(false);
    if (ctx != NULL) {
        *deviceId = ctx->dev->id;
        oa_ctx_release(ctx);
        return ACL_SUCCESS;
    }
    int32_t def = oa_rt_default_device();
    if (def >= 0) {
        *deviceId = def;
        return ACL_SUCCESS;
    }
    OA_LOGI("the calling thread has no current context, so no current device");
    return oa_status_to_acl(OA_E_RT_CONTEXT_NULL);
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t *count)
{
    ACL_REQUIRE_NOT_NULL(count);
    ensure_init();
    ACL_REQUIRE(!g_visible_error, OA_E_RT_NO_DEVICE,
                "ASCEND_RT_VISIBLE_DEVICES [%s] leaves no valid device (ids must exist, ascend and not repeat)",
                getenv("ASCEND_RT_VISIBLE_DEVICES") != NULL ? getenv("ASCEND_RT_VISIBLE_DEVICES") : "");
    *count = g_visible_count;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetRunMode(aclrtRunMode *runMode)
{
    ACL_REQUIRE_NOT_NULL(runMode);
    *runMode = ACL_HOST;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    ACL_RETURN_STATUS(sync_device(-1));
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout)
{
    ACL_REQUIRE(timeout >= -1, OA_E_RT_PARAM, "timeout [%d] must be in [-1, INT_MAX]", timeout);
    ACL_REQUIRE(timeout != 0, OA_E_RT_PARAM, "timeout [%d] must be -1 (wait forever) or greater than 0", timeout);
    ACL_RETURN_STATUS(sync_device(timeout));
}

ACL_FUNC_VISIBILITY aclError aclrtSetTsDevice(aclrtTsId tsId)
{
    ACL_REQUIRE(tsId == ACL_TS_ID_AICORE || tsId == ACL_TS_ID_AIVECTOR, OA_E_PARAM,
                "tsId [%d] must be ACL_TS_ID_AICORE or ACL_TS_ID_AIVECTOR", (int)tsId);
    __atomic_store_n(&g_ts_id, tsId, __ATOMIC_RELAXED);
    return ACL_SUCCESS;
}

static int64_t cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? n : 1;
}

/* Rough utilisation of the machine in percent, from the 1-minute load average. */
static int32_t cpu_utilization(void)
{
    double load[1];
    if (getloadavg(load, 1) != 1) {
        return -1;
    }
    double pct = load[0] * 100.0 / (double)cpu_count();
    if (pct > 100.0) {
        pct = 100.0;
    }
    return (int32_t)(pct + 0.5);
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo *utilizationInfo)
{
    ACL_REQUIRE_NOT_NULL(utilizationInfo);
    ACL_REQUIRE(utilizationInfo->utilizationExtend == NULL, OA_E_PARAM,
                "utilizationInfo->utilizationExtend is reserved and must be NULL");
    int32_t u = oa_rt_device(deviceId) != NULL ? cpu_utilization() : -1;
    utilizationInfo->cubeUtilization = u;
    utilizationInfo->vectorUtilization = u;
    utilizationInfo->aicpuUtilization = u;
    utilizationInfo->memoryUtilization = -1;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus *deviceStatus)
{
    ACL_REQUIRE_NOT_NULL(deviceStatus);
    oa_status st = oa_rt_check_device_id(deviceId, OA_E_RT_DEVICE_ID);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    *deviceStatus = ACL_RT_DEVICE_STATUS_NORMAL;
    return ACL_SUCCESS;
}

static int64_t l2_cache_bytes(void)
{
#ifdef _SC_LEVEL3_CACHE_SIZE
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (l3 > 0) {
        return l3;
    }
#endif
#ifdef _SC_LEVEL2_CACHE_SIZE
    long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (l2 > 0) {
        return l2;
    }
#endif
    return 0;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value)
{
    ACL_REQUIRE_NOT_NULL(value);
    ACL_REQUIRE(deviceId < oa_rt_device_count(), OA_E_RT_PARAM, "device id [%u] must be in [0, %u)", deviceId,
                oa_rt_device_count());
    const oa_device *dev = &g_devices[deviceId];
    switch (attr) {
    case ACL_DEV_ATTR_AICPU_CORE_NUM:
    case ACL_DEV_ATTR_AICORE_CORE_NUM:
    case ACL_DEV_ATTR_CUBE_CORE_NUM:
    case ACL_DEV_ATTR_VECTOR_CORE_NUM:
        *value = cpu_count();
        return ACL_SUCCESS;
    case ACL_DEV_ATTR_WARP_SIZE:
    case ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE:
    case ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE:
    case ACL_DEV_ATTR_MAX_GRID_DIM_X:
    case ACL_DEV_ATTR_MAX_GRID_DIM_Y:
    case ACL_DEV_ATTR_MAX_GRID_DIM_Z:
    case ACL_DEV_ATTR_MAX_BLOCK_PER_GRID:
    case ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK:
    case ACL_DEV_ATTR_MAX_BLOCK_DIM_X:
    case ACL_DEV_ATTR_MAX_BLOCK_DIM_Y:
    case ACL_DEV_ATTR_MAX_BLOCK_DIM_Z:
        /* No SIMT engine on this device: CANN reports 0 for chips without one. */
        *value = 0;
        return ACL_SUCCESS;
    case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE:
        *value = (int64_t)oa_mem_device_capacity();
        return ACL_SUCCESS;
    case ACL_DEV_ATTR_L2_CACHE_SIZE:
        *value = l2_cache_bytes();
        return ACL_SUCCESS;
    case ACL_DEV_ATTR_PHY_CHIP_ID:
        *value = dev->phys_id;
        return ACL_SUCCESS;
    case ACL_DEV_ATTR_SMP_ID:
    case ACL_DEV_ATTR_SUPER_POD_DEVIDE_ID:
    case ACL_DEV_ATTR_SUPER_POD_SERVER_ID:
    case ACL_DEV_ATTR_SUPER_POD_ID:
    case ACL_DEV_ATTR_CUST_OP_PRIVILEGE:
    case ACL_DEV_ATTR_MAINBOARD_ID:
    case ACL_DEV_ATTR_IS_VIRTUAL:
    case ACL_DEV_ATTR_NPU_ARCH:
        *value = 0;
        return ACL_SUCCESS;
    case ACL_DEV_ATTR_HD_CONNECT_TYPE:
        *value = 0; /* ACL_HOST_DEVICE_CONNECT_TYPE_PCIE */
        return ACL_SUCCESS;
    case ACL_DEV_ATTR_DEVICE_FORM_FACTOR:
        *value = 3; /* ACL_DEVICE_FORM_FACTOR_PCIE_CARD */
        return ACL_SUCCESS;
    default:
        return oa_status_to_acl(OA_FAIL(OA_E_RT_PARAM, "device attribute [%d] is invalid", (int)attr));
    }
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetStreamPriorityRange(int32_t *leastPriority, int32_t *greatestPriority)
{
    if (leastPriority != NULL) {
        *leastPriority = OA_RT_STREAM_PRIORITY_LEAST;
    }
    if (greatestPriority != NULL) {
        *greatestPriority = OA_RT_STREAM_PRIORITY_GREATEST;
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType,
                                                      int32_t *value)
{
    ACL_REQUIRE_NOT_NULL(value);
    oa_status st = oa_rt_check_device_id(deviceId, OA_E_RT_DEVICE_ID);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    switch (devFeatureType) {
    case ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV:
    case ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV:
        *value = ACL_DEV_FEATURE_NOT_SUPPORT;
        return ACL_SUCCESS;
    default:
        return oa_status_to_acl(OA_FAIL(OA_E_RT_PARAM, "device feature type [%d] is invalid", (int)devFeatureType));
    }
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, int32_t deviceId, int32_t peerDeviceId)
{
    ACL_REQUIRE(deviceId != peerDeviceId, OA_E_PARAM, "deviceId %d cannot be equal to peerDeviceId %d", deviceId,
                peerDeviceId);
    oa_status st = oa_rt_check_device_id(peerDeviceId, OA_E_RT_DEVICE_ID);
    if (st == OA_OK) {
        st = oa_rt_check_device_id(deviceId, OA_E_RT_DEVICE_ID);
    }
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    ACL_REQUIRE(canAccessPeer != NULL, OA_E_RT_PARAM, "parameter [canAccessPeer] must not be null");
    /* Every device lives in the same host memory. */
    *canAccessPeer = 1;
    return ACL_SUCCESS;
}

static oa_status current_device(int32_t *id)
{
    oa_context *ctx = NULL;
    oa_status st = oa_ctx_current(true, &ctx);
    if (st != OA_OK) {
        return st;
    }
    *id = ctx->dev->id;
    oa_ctx_release(ctx);
    return OA_OK;
}

static oa_status set_peer(int32_t peer, bool enable, uint32_t flags)
{
    if (enable && flags != 0) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "flags [%u] is reserved and must be 0", flags);
    }
    int32_t dev = 0;
    oa_status st = current_device(&dev);
    if (st != OA_OK) {
        return st;
    }
    if (dev == peer) {
        return OA_FAIL(OA_E_PARAM, "deviceId %d cannot be equal to peerDeviceId %d", dev, peer);
    }
    st = oa_rt_check_device_id(peer, OA_E_RT_DEVICE_ID);
    if (st != OA_OK) {
        return st;
    }
    oa_device *d = &g_devices[dev];
    pthread_mutex_lock(&d->mu);
    d->peer_enabled[peer] = enable ? 1 : 0;
    pthread_mutex_unlock(&d->mu);
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags)
{
    ACL_RETURN_STATUS(set_peer(peerDeviceId, true, flags));
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId)
{
    ACL_RETURN_STATUS(set_peer(peerDeviceId, false, 0));
}

ACL_FUNC_VISIBILITY aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t *status)
{
    ACL_REQUIRE_NOT_NULL(status);
    oa_status st = oa_rt_check_device_id(deviceId, OA_E_RT_DEVICE_ID);
    if (st == OA_OK) {
        st = oa_rt_check_device_id(peerDeviceId, OA_E_RT_DEVICE_ID);
    }
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    oa_device *d = &g_devices[deviceId];
    pthread_mutex_lock(&d->mu);
    *status = d->peer_enabled[peerDeviceId] ? 1 : 0;
    pthread_mutex_unlock(&d->mu);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode)
{
    ACL_REQUIRE(mode == ACL_RT_OVERFLOW_MODE_SATURATION || mode == ACL_RT_OVERFLOW_MODE_INFNAN, OA_E_RT_PARAM,
                "mode [%d] must be ACL_RT_OVERFLOW_MODE_SATURATION or ACL_RT_OVERFLOW_MODE_INFNAN", (int)mode);
    __atomic_store_n(&g_sat_mode, mode, __ATOMIC_RELAXED);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode *mode)
{
    ACL_REQUIRE_NOT_NULL(mode);
    *mode = __atomic_load_n(&g_sat_mode, __ATOMIC_RELAXED);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t *flags, int32_t *active)
{
    ACL_REQUIRE_NOT_NULL(active);
    ACL_REQUIRE(flags == NULL, OA_E_PARAM, "flags is a reserved parameter and must be NULL");
    oa_status st = oa_rt_check_device_id(deviceId, OA_E_RT_DEVICE_ID);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    oa_device *d = &g_devices[deviceId];
    pthread_mutex_lock(&d->mu);
    *active = d->primary != NULL ? 1 : 0;
    pthread_mutex_unlock(&d->mu);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetBareTgid(int32_t *pid)
{
    ACL_REQUIRE_NOT_NULL(pid);
    *pid = (int32_t)getpid();
    return ACL_SUCCESS;
}

/*
 * Id conversions. The "user" id is the one applications pass (after
 * ASCEND_RT_VISIBLE_DEVICES), the "logic" and "physical" ids are the
 * device's index among all OPENACL_DEVICE_COUNT devices.
 */
static oa_status user_to_phys(int32_t user, int32_t *phys)
{
    oa_status st = oa_rt_check_device_id(user, OA_E_RT_DEVICE_ID);
    if (st != OA_OK) {
        return st;
    }
    *phys = g_devices[user].phys_id;
    return OA_OK;
}

static oa_status phys_to_user(int32_t phys, int32_t *user)
{
    uint32_t n = oa_rt_device_count();
    for (uint32_t i = 0; i < n; ++i) {
        if (g_devices[i].phys_id == phys) {
            *user = (int32_t)i;
            return OA_OK;
        }
    }
    return OA_FAIL(OA_E_RT_DEVICE_ID, "physical device [%d] is not visible to this process", phys);
}

static oa_status check_phys(int32_t phys)
{
    ensure_init();
    if (phys < 0 || (uint32_t)phys >= g_phys_count) {
        return OA_FAIL(OA_E_RT_DEVICE_ID, "physical device id [%d] must be in [0, %u)", phys, g_phys_count);
    }
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t *const logicDevId)
{
    ACL_REQUIRE_NOT_NULL(logicDevId);
    ACL_RETURN_STATUS(user_to_phys(userDevid, logicDevId));
}

ACL_FUNC_VISIBILITY aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId, int32_t *const userDevid)
{
    ACL_REQUIRE_NOT_NULL(userDevid);
    ACL_RETURN_STATUS(phys_to_user(logicDevId, userDevid));
}

ACL_FUNC_VISIBILITY aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t *const logicDevId)
{
    ACL_REQUIRE_NOT_NULL(logicDevId);
    oa_status st = check_phys(phyDevId);
    if (st == OA_OK) {
        *logicDevId = phyDevId;
    }
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t *const phyDevId)
{
    ACL_REQUIRE_NOT_NULL(phyDevId);
    oa_status st = check_phys(logicDevId);
    if (st == OA_OK) {
        *phyDevId = logicDevId;
    }
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t *const userDevId)
{
    ACL_REQUIRE_NOT_NULL(userDevId);
    ACL_RETURN_STATUS(phys_to_user(phyDevId, userDevId));
}

ACL_FUNC_VISIBILITY aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t *const phyDevId)
{
    ACL_REQUIRE_NOT_NULL(phyDevId);
    ACL_RETURN_STATUS(user_to_phys(userDevId, phyDevId));
}

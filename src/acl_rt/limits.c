/*
 * Device identity and limits: UUID, PCI bus id, topology between devices,
 * device limits (stack and printf buffer sizes: reported, not settable), and compute-resource limits
 * per device, per stream and for the calling thread. A compute-resource limit
 * caps the threads each operator uses (docs/runtime.md, "Compute-resource
 * limits"): the stream worker and the inline model runs put it in their run
 * scope, and the kernels' thread pool reads it there.
 */
#define OA_LOG_MODULE "RUNTIME"
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "acl_rt/rt_internal.h"
#include "base/acl_check.h"
#include "base/error.h"

#define PCI_BUS_ID_MIN_LEN 13 /* "dddd:bb:dd.f" and the terminating NUL */
#define DEVICE_LIMIT_COUNT 5
#define RES_TYPE_COUNT 2

/* The values aclrtDeviceGetLimit reports (ours: CANN's depend on the SoC); aclrtDeviceSetLimit cannot change them. */
static const size_t kLimitDefaults[DEVICE_LIMIT_COUNT] = {1024, 1024, 32768, 1048576, 1048576};

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static uint32_t g_dev_res[OA_RT_MAX_DEVICES][RES_TYPE_COUNT]; /* 0: not limited */

/* Compute-resource limits of streams, keyed by handle (few streams are ever limited). */
typedef struct stream_res {
    aclrtStream stream;
    uint32_t value[RES_TYPE_COUNT];
} stream_res;
#define MAX_LIMITED_STREAMS 256
static stream_res g_stream_res[MAX_LIMITED_STREAMS];
static _Thread_local aclrtStream t_res_stream;
/* Set once any compute-resource limit was set (until aclFinalize): tasks look the limits up only then. */
static _Atomic bool g_res_used;

static uint32_t core_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (uint32_t)n : 1u;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid *uuid)
{
    ACL_REQUIRE_NOT_NULL(uuid);
    oa_status st = oa_rt_check_device_id(deviceId, OA_E_RT_DEVICE_ID);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    /* A stable, recognisable id per physical device: "openacl-cpu-" followed by the physical id. */
    int32_t phys = oa_rt_device(deviceId)->phys_id;
    memset(uuid->bytes, 0, sizeof(uuid->bytes));
    memcpy(uuid->bytes, "openacl-cpu-", 12);
    uuid->bytes[12] = (char)((phys >> 24) & 0xff);
    uuid->bytes[13] = (char)((phys >> 16) & 0xff);
    uuid->bytes[14] = (char)((phys >> 8) & 0xff);
    uuid->bytes[15] = (char)(phys & 0xff);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetPCIBusId(int32_t deviceId, char *pciBusId, int32_t len)
{
    ACL_REQUIRE_NOT_NULL(pciBusId);
    ACL_REQUIRE(deviceId >= 0, OA_E_RT_DEVICE_ID, "device id [%d] must be 0 or greater", deviceId);
    ACL_REQUIRE(len >= PCI_BUS_ID_MIN_LEN, OA_E_RT_PARAM, "len [%d] must be at least %d", len, PCI_BUS_ID_MIN_LEN);
    oa_status st = oa_rt_check_device_id(deviceId, OA_E_RT_DEVICE_ID);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    snprintf(pciBusId, (size_t)len, "0000:%02x:00.0", (unsigned)(oa_rt_device(deviceId)->phys_id + 1) & 0xffu);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetByPCIBusId(const char *pciBusId, int32_t *deviceId)
{
    ACL_REQUIRE_NOT_NULL(pciBusId);
    ACL_REQUIRE_NOT_NULL(deviceId);
    unsigned domain = 0, bus = 0, dev = 0, fn = 0;
    char tail = 0;
    int n = sscanf(pciBusId, "%x:%x:%x.%x%c", &domain, &bus, &dev, &fn, &tail);
    uint32_t count = oa_rt_device_count();
    for (uint32_t i = 0; n == 4 && domain == 0 && dev == 0 && fn == 0 && i < count; ++i) {
        if ((unsigned)(oa_rt_device((int32_t)i)->phys_id + 1) == bus) {
            *deviceId = (int32_t)i;
            return ACL_SUCCESS;
        }
    }
    return oa_status_to_acl(OA_FAIL(OA_E_RT_PARAM, "no visible device has PCI bus id [%s]", pciBusId));
}

ACL_FUNC_VISIBILITY aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t *value)
{
    ACL_REQUIRE_NOT_NULL(value);
    uint32_t n = oa_rt_device_count();
    ACL_REQUIRE(deviceId < n && otherDeviceId < n, OA_E_RT_DEVICE_ID, "device ids [%u, %u] must be in [0, %u)",
                deviceId, otherDeviceId, n);
    /* All devices are the same host: report them as sharing one PCIe switch. */
    *value = ACL_RT_DEVS_TOPOLOGY_PIX;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceL2CacheFlush(void *rsv)
{
    ACL_REQUIRE(rsv == NULL, OA_E_PARAM, "rsv is reserved and must be NULL");
    return ACL_SUCCESS;
}

/*
 * The device limits are sizes for kernels written for the NPU's cores (SIMT / SIMD stacks, device printf FIFOs).
 * The CPU device runs no such kernels, only its own C kernels on ordinary threads, so no limit has a CPU meaning:
 * after CANN's argument checks every limit answers 207000 (docs/runtime.md, "Device limits").
 */
ACL_FUNC_VISIBILITY aclError aclrtDeviceSetLimit(aclrtDeviceLimit limit, size_t value)
{
    ACL_REQUIRE((unsigned)limit < DEVICE_LIMIT_COUNT, OA_E_PARAM, "limit [%d] must be in [0, 4]", (int)limit);
    ACL_REQUIRE(value <= UINT32_MAX, OA_E_PARAM, "value [%zu] must be in [0, UINT32_MAX]", value);
    return oa_status_to_acl(OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT,
                                    "device limit [%d] is not supported: the CPU device runs no NPU kernels whose "
                                    "stack or printf FIFO it would size",
                                    (int)limit));
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetLimit(aclrtDeviceLimit limit, size_t *value)
{
    ACL_REQUIRE_NOT_NULL(value);
    ACL_REQUIRE((unsigned)limit < DEVICE_LIMIT_COUNT, OA_E_PARAM, "limit [%d] must be in [0, 4]", (int)limit);
    *value = kLimitDefaults[limit];
    return ACL_SUCCESS;
}

static oa_status check_res_type(aclrtDevResLimitType type)
{
    if ((unsigned)type >= RES_TYPE_COUNT) {
        return OA_FAIL(OA_E_RT_PARAM, "resource type [%d] must be ACL_RT_DEV_RES_CUBE_CORE or "
                                      "ACL_RT_DEV_RES_VECTOR_CORE", (int)type);
    }
    return OA_OK;
}

static uint32_t device_res(int32_t dev, aclrtDevResLimitType type)
{
    pthread_mutex_lock(&g_mu);
    uint32_t v = g_dev_res[dev][type];
    pthread_mutex_unlock(&g_mu);
    return v != 0 ? v : core_count();
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t *value)
{
    oa_status st = check_res_type(type);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    ACL_REQUIRE(value != NULL, OA_E_RT_PARAM, "parameter [value] must not be null");
    st = oa_rt_check_device_id(deviceId, OA_E_RT_DEVICE_ID);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    *value = device_res(deviceId, type);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value)
{
    oa_status st = check_res_type(type);
    if (st == OA_OK) {
        st = oa_rt_check_device_id(deviceId, OA_E_RT_DEVICE_ID);
    }
    if (st == OA_OK && (value == 0 || value > core_count())) {
        st = OA_FAIL(OA_E_RT_PARAM, "value [%u] must be in [1, %u]", value, core_count());
    }
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    pthread_mutex_lock(&g_mu);
    g_dev_res[deviceId][type] = value;
    pthread_mutex_unlock(&g_mu);
    atomic_store(&g_res_used, true);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtResetDeviceResLimit(int32_t deviceId)
{
    oa_status st = oa_rt_check_device_id(deviceId, OA_E_RT_DEVICE_ID);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    pthread_mutex_lock(&g_mu);
    memset(g_dev_res[deviceId], 0, sizeof(g_dev_res[deviceId]));
    pthread_mutex_unlock(&g_mu);
    return ACL_SUCCESS;
}

/* Caller holds g_mu. */
static stream_res *find_stream_res(aclrtStream s, bool create)
{
    stream_res *free_slot = NULL;
    for (size_t i = 0; i < MAX_LIMITED_STREAMS; ++i) {
        if (g_stream_res[i].stream == s) {
            return &g_stream_res[i];
        }
        if (free_slot == NULL && g_stream_res[i].stream == NULL) {
            free_slot = &g_stream_res[i];
        }
    }
    if (create && free_slot != NULL) {
        memset(free_slot, 0, sizeof(*free_slot));
        free_slot->stream = s;
        return free_slot;
    }
    return NULL;
}

/* The limit of a stream (resolved, referenced through s), falling back to its device's. */
static uint32_t stream_res_value(oa_stream *s, aclrtDevResLimitType type)
{
    pthread_mutex_lock(&g_mu);
    stream_res *r = find_stream_res(oa_stream_handle(s), false);
    uint32_t v = r != NULL ? r->value[type] : 0;
    pthread_mutex_unlock(&g_mu);
    return v != 0 ? v : device_res(oa_stream_device_id(s), type);
}

void oa_rt_stream_res_forget(aclrtStream handle)
{
    pthread_mutex_lock(&g_mu);
    stream_res *r = find_stream_res(handle, false);
    if (r != NULL) {
        memset(r, 0, sizeof(*r));
    }
    pthread_mutex_unlock(&g_mu);
}

ACL_FUNC_VISIBILITY aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t *value)
{
    ACL_REQUIRE_NOT_NULL(value);
    oa_status st = check_res_type(type);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    oa_stream *s = NULL;
    st = oa_stream_acquire_any_context(stream, &s);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    *value = stream_res_value(s, type);
    oa_stream_release(s);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t value)
{
    oa_status st = check_res_type(type);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    oa_stream *s = NULL;
    st = oa_stream_acquire_any_context(stream, &s);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    uint32_t max = device_res(oa_stream_device_id(s), type);
    if (value == 0 || value > max) {
        oa_stream_release(s);
        return oa_status_to_acl(OA_FAIL(OA_E_RT_PARAM, "value [%u] must be in [1, %u]", value, max));
    }
    pthread_mutex_lock(&g_mu);
    stream_res *r = find_stream_res(oa_stream_handle(s), true);
    if (r != NULL) {
        r->value[type] = value;
    }
    pthread_mutex_unlock(&g_mu);
    atomic_store(&g_res_used, true);
    oa_stream_release(s);
    ACL_REQUIRE(r != NULL, OA_E_RT_OVER_LIMIT, "at most %d streams can have resource limits",
                MAX_LIMITED_STREAMS);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtResetStreamResLimit(aclrtStream stream)
{
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire_any_context(stream, &s);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    oa_rt_stream_res_forget(oa_stream_handle(s));
    oa_stream_release(s);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtUseStreamResInCurrentThread(aclrtStream stream)
{
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire_any_context(stream, &s);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    t_res_stream = oa_stream_handle(s);
    oa_stream_release(s);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream)
{
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire_any_context(stream, &s);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    if (t_res_stream == oa_stream_handle(s)) {
        t_res_stream = NULL;
    }
    oa_stream_release(s);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t *value)
{
    ACL_REQUIRE_NOT_NULL(value);
    oa_status st = check_res_type(type);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    oa_obj *o = t_res_stream != NULL ? oa_registry_get(t_res_stream, OA_OBJ_STREAM) : NULL;
    if (o != NULL) {
        *value = stream_res_value((oa_stream *)o, type);
        oa_obj_unref(o);
        return ACL_SUCCESS;
    }
    t_res_stream = NULL;
    oa_context *ctx = NULL;
    st = oa_ctx_current(true, &ctx);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    *value = device_res(ctx->dev->id, type);
    oa_ctx_release(ctx);
    return ACL_SUCCESS;
}

/*
 * Caller holds g_mu. Per type the stream's own limit, else the device's (what aclrtGetStreamResLimit reports);
 * then the smaller of the types that are limited, 0 when none is.
 */
static uint32_t thread_limit_locked(aclrtStream handle, int32_t dev)
{
    stream_res *r = handle != NULL ? find_stream_res(handle, false) : NULL;
    uint32_t m = 0;
    for (int i = 0; i < RES_TYPE_COUNT; ++i) {
        uint32_t v = r != NULL ? r->value[i] : 0;
        if (v == 0 && dev >= 0 && dev < OA_RT_MAX_DEVICES) {
            v = g_dev_res[dev][i];
        }
        if (v != 0 && (m == 0 || v < m)) {
            m = v;
        }
    }
    return m;
}

uint32_t oa_rt_stream_thread_limit(const oa_stream *s)
{
    if (!atomic_load_explicit(&g_res_used, memory_order_relaxed)) {
        return 0;
    }
    pthread_mutex_lock(&g_mu);
    uint32_t v = thread_limit_locked(oa_stream_handle(s), oa_stream_device_id(s));
    pthread_mutex_unlock(&g_mu);
    return v;
}

uint32_t oa_rt_thread_thread_limit(void)
{
    if (!atomic_load_explicit(&g_res_used, memory_order_relaxed)) {
        return 0;
    }
    oa_obj *o = t_res_stream != NULL ? oa_registry_get(t_res_stream, OA_OBJ_STREAM) : NULL;
    if (o != NULL) {
        uint32_t v = oa_rt_stream_thread_limit((oa_stream *)o);
        oa_obj_unref(o);
        return v;
    }
    oa_context *ctx = oa_ctx_current_quiet(true);
    if (ctx == NULL) {
        return 0;
    }
    pthread_mutex_lock(&g_mu);
    uint32_t v = thread_limit_locked(NULL, ctx->dev->id);
    pthread_mutex_unlock(&g_mu);
    oa_ctx_release(ctx);
    return v;
}

void oa_rt_limits_reset(void)
{
    atomic_store(&g_res_used, false);
    pthread_mutex_lock(&g_mu);
    memset(g_dev_res, 0, sizeof(g_dev_res));
    memset(g_stream_res, 0, sizeof(g_stream_res));
    pthread_mutex_unlock(&g_mu);
}

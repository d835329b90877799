/*
 * Device identity and limits: UUID, PCI bus id, topology between devices,
 * device limits (stack and printf buffer sizes), and compute-resource limits
 * per device, per stream and for the calling thread. On the CPU these are
 * bookkeeping: the values are kept and reported back, nothing is enforced.
 */
#define OA_LOG_MODULE "RUNTIME"
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "acl_rt/rt_internal.h"
#include "base/acl_check.h"
#include "base/error.h"

#define PCI_BUS_ID_MIN_LEN 13 /* "dddd:bb:dd.f" and the terminating NUL */
#define DEVICE_LIMIT_COUNT 5
#define RES_TYPE_COUNT 2

/* Defaults reported before aclrtDeviceSetLimit (ours: CANN's depend on the SoC). */
static const size_t kLimitDefaults[DEVICE_LIMIT_COUNT] = {1024, 1024, 32768, 1048576, 1048576};

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static size_t g_limits[DEVICE_LIMIT_COUNT];
static uint32_t g_limit_set;
static uint32_t g_dev_res[OA_RT_MAX_DEVICES][RES_TYPE_COUNT]; /* 0: not limited */

/* Compute-resource limits of streams, keyed by handle (few streams are ever limited). */
typedef struct stream_res {
    aclrtStream stream;
    uint32_t value[RES_TYPE_COUNT];
} stream_res;
#define MAX_LIMITED_STREAMS 256
static stream_res g_stream_res[MAX_LIMITED_STREAMS];
static _Thread_local aclrtStream t_res_stream;

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

ACL_FUNC_VISIBILITY aclError aclrtDeviceSetLimit(aclrtDeviceLimit limit, size_t value)
{
    ACL_REQUIRE((unsigned)limit < DEVICE_LIMIT_COUNT, OA_E_PARAM, "limit [%d] must be in [0, 4]", (int)limit);
    ACL_REQUIRE(value <= UINT32_MAX, OA_E_PARAM, "value [%zu] must be in [0, UINT32_MAX]", value);
    pthread_mutex_lock(&g_mu);
    g_limits[limit] = value;
    g_limit_set |= 1u << limit;
    pthread_mutex_unlock(&g_mu);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetLimit(aclrtDeviceLimit limit, size_t *value)
{
    ACL_REQUIRE_NOT_NULL(value);
    ACL_REQUIRE((unsigned)limit < DEVICE_LIMIT_COUNT, OA_E_PARAM, "limit [%d] must be in [0, 4]", (int)limit);
    pthread_mutex_lock(&g_mu);
    *value = (g_limit_set & (1u << limit)) != 0 ? g_limits[limit] : kLimitDefaults[limit];
    pthread_mutex_unlock(&g_mu);
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

void oa_rt_limits_reset(void)
{
    pthread_mutex_lock(&g_mu);
    memset(g_limits, 0, sizeof(g_limits));
    g_limit_set = 0;
    memset(g_dev_res, 0, sizeof(g_dev_res));
    memset(g_stream_res, 0, sizeof(g_stream_res));
    pthread_mutex_unlock(&g_mu);
}

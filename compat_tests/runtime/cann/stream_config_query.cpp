/*
 * Stream configuration handle, following CANN's runtime example "stream/3_stream_config_query": the config API is
 * looked up with dlsym (the full CANN stack does not export it, so the example skips there), the flag and the
 * priority are set as uint32_t values, a stream is created from the handle and its id, flags and priority are
 * queried. Here the API must be exported, so a skip is a failure, and the queried values are checked.
 */
#include <cstdint>
#include <cstdio>

#include <dlfcn.h>

#include "acl/acl.h"
#include "sample_utils.h"

namespace {
constexpr int32_t kDeviceId = 0;
constexpr uint32_t kStreamFlags = ACL_STREAM_FAST_LAUNCH;
constexpr uint32_t kStreamPriority = 3;

using CreateHandleFn = aclrtStreamConfigHandle *(*)();
using DestroyHandleFn = aclError (*)(aclrtStreamConfigHandle *);
using SetOptFn = aclError (*)(aclrtStreamConfigHandle *, aclrtStreamConfigAttr, const void *, size_t);
using CreateStreamV2Fn = aclError (*)(aclrtStream *, const aclrtStreamConfigHandle *);

template <typename Fn>
bool Load(const char *name, Fn *fn)
{
    *fn = reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, name));
    if (*fn == nullptr) {
        WARN_LOG("Symbol %s is not exported by the current Runtime library.", name);
        return false;
    }
    return true;
}

int Run()
{
    CreateHandleFn createHandle = nullptr;
    DestroyHandleFn destroyHandle = nullptr;
    SetOptFn setOpt = nullptr;
    CreateStreamV2Fn createStreamV2 = nullptr;
    bool ok = Load("aclrtCreateStreamConfigHandle", &createHandle);
    ok = Load("aclrtDestroyStreamConfigHandle", &destroyHandle) && ok;
    ok = Load("aclrtSetStreamConfigOpt", &setOpt) && ok;
    ok = Load("aclrtCreateStreamV2", &createStreamV2) && ok;
    if (!ok) {
        ERROR_LOG("[SKIP] the stream config API is not exported");
        return -1;
    }
    aclrtStreamConfigHandle *handle = createHandle();
    if (handle == nullptr) {
        ERROR_LOG("aclrtCreateStreamConfigHandle returned nullptr");
        return -1;
    }
    INFO_LOG("Create stream config handle successfully");
    CHECK_ERROR(setOpt(handle, ACL_RT_STREAM_FLAG, &kStreamFlags, sizeof(kStreamFlags)));
    CHECK_ERROR(setOpt(handle, ACL_RT_STREAM_PRIORITY, &kStreamPriority, sizeof(kStreamPriority)));
    INFO_LOG("Set stream config flags=%u priority=%u", kStreamFlags, kStreamPriority);

    aclrtStream stream = nullptr;
    CHECK_ERROR(createStreamV2(&stream, handle));
    INFO_LOG("Create stream with config successfully");
    int32_t streamId = -1;
    uint32_t flags = 0;
    uint32_t priority = 0;
    CHECK_ERROR(aclrtStreamGetId(stream, &streamId));
    CHECK_ERROR(aclrtStreamGetFlags(stream, &flags));
    CHECK_ERROR(aclrtStreamGetPriority(stream, &priority));
    INFO_LOG("Stream id: %d, flags: %u, priority: %u", streamId, flags, priority);
    if (streamId < 0 || flags != kStreamFlags || priority != kStreamPriority) {
        ERROR_LOG("the stream does not have the configured flags and priority");
        return -1;
    }
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    CHECK_ERROR(aclrtDestroyStream(stream));
    CHECK_ERROR(destroyHandle(handle));
    INFO_LOG("[SUCCESS] Stream config query sample completed successfully");
    return 0;
}
} // namespace

int32_t main()
{
    CHECK_ERROR(aclInit(nullptr));
    CHECK_ERROR(aclrtSetDevice(kDeviceId));
    int ret = Run();
    CHECK_ERROR(aclrtResetDeviceForce(kDeviceId));
    CHECK_ERROR(aclFinalize());
    return ret;
}

/*
 * Devices and contexts as applications use them: count the devices, open
 * each one, create an explicit context, switch between contexts, read the
 * run mode, and check the documented error codes of the common mistakes.
 */
#include <string.h>

#include "../common/compat_check.h"

int main(void)
{
    CHECK(aclInit(NULL));
    uint32_t count = 0;
    CHECK(aclrtGetDeviceCount(&count));
    printf("device count: %u\n", count);
    REQUIRE(count >= 2, "at least 2 devices expected (OPENACL_DEVICE_COUNT default), got %u", count);

    int32_t dev = -1;
    EXPECT(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT(aclrtSetDevice((int32_t)count), ACL_ERROR_RT_INVALID_DEVICEID);

    aclrtRunMode mode = ACL_DEVICE;
    CHECK(aclrtGetRunMode(&mode));
    printf("Current run mode: %s\n", mode == ACL_HOST ? "ACL_HOST" : "ACL_DEVICE");
    REQUIRE(mode == ACL_HOST, "run mode must be ACL_HOST");

    for (uint32_t i = 0; i < count; ++i) {
        CHECK(aclrtSetDevice((int32_t)i));
        CHECK(aclrtGetDevice(&dev));
        REQUIRE(dev == (int32_t)i, "aclrtGetDevice gave %d after aclrtSetDevice(%u)", dev, i);
        size_t freeMem = 0, totalMem = 0;
        CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &freeMem, &totalMem));
        printf("device %u: %zu of %zu bytes free\n", i, freeMem, totalMem);
    }

    aclrtContext defaultCtx = NULL, ctx = NULL, cur = NULL;
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtGetCurrentContext(&defaultCtx));
    CHECK(aclrtCreateContext(&ctx, 1));
    CHECK(aclrtGetCurrentContext(&cur));
    REQUIRE(cur == ctx, "a new context becomes the current one");
    CHECK(aclrtGetDevice(&dev));
    REQUIRE(dev == 1, "the new context is on device 1, got %d", dev);
    CHECK(aclrtSetCurrentContext(defaultCtx));
    CHECK(aclrtGetDevice(&dev));
    REQUIRE(dev == 0, "back on device 0, got %d", dev);
    EXPECT(aclrtDestroyContext(defaultCtx), ACL_ERROR_RT_CONTEXT_NULL);
    CHECK(aclrtDestroyContext(ctx));
    EXPECT(aclrtDestroyContext(ctx), ACL_ERROR_RT_CONTEXT_NULL);

    /* Memory of a device that is reset without freeing it is reclaimed. */
    void *leak = NULL;
    CHECK(aclrtSetDevice(1));
    CHECK(aclrtMalloc(&leak, 1024, ACL_MEM_MALLOC_HUGE_FIRST));
    /* Devices 0 and 1 were set twice each: two resets close them. */
    for (uint32_t i = 0; i < count; ++i) {
        CHECK(aclrtResetDevice((int32_t)i));
    }
    CHECK(aclrtResetDevice(0));
    CHECK(aclrtResetDevice(1));
    EXPECT(aclrtFree(leak), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
    CHECK(aclFinalize());
    printf("PASS rt_device_context\n");
    return 0;
}

/*
 * Smallest ACL runtime program, written as the samples write it: init,
 * device, context, stream, device memory round trip, teardown. Built with the
 * $DDK_PATH/runtime/include + $NPU_HOST_LIB conventions and -lacl_rt.
 */
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"

#define CHECK(expr)                                                                \
    do {                                                                           \
        aclError ret_ = (expr);                                                    \
        if (ret_ != ACL_SUCCESS) {                                                 \
            const char *m_ = aclGetRecentErrMsg();                                 \
            printf("FAIL %s -> %d (%s)\n", #expr, ret_, m_ != NULL ? m_ : "<null>"); \
            return 1;                                                              \
        }                                                                          \
    } while (0)

int main(void)
{
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtContext ctx = NULL;
    CHECK(aclrtCreateContext(&ctx, 0));
    aclrtStream stream = NULL;
    CHECK(aclrtCreateStream(&stream));
    aclrtRunMode mode;
    CHECK(aclrtGetRunMode(&mode));
    printf("Current run mode: %s\n", mode == ACL_HOST ? "ACL_HOST" : "ACL_DEVICE");

    const size_t n = 1 << 20;
    void *host = NULL, *dev = NULL, *back = NULL;
    CHECK(aclrtMallocHost(&host, n));
    CHECK(aclrtMallocHost(&back, n));
    CHECK(aclrtMalloc(&dev, n, ACL_MEM_MALLOC_HUGE_FIRST));
    for (size_t i = 0; i < n; ++i) {
        ((unsigned char *)host)[i] = (unsigned char)(i * 7u);
    }
    CHECK(aclrtMemcpyAsync(dev, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    CHECK(aclrtMemcpyAsync(back, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST, stream));
    CHECK(aclrtSynchronizeStream(stream));
    if (memcmp(host, back, n) != 0) {
        printf("FAIL round trip mismatch\n");
        return 1;
    }
    CHECK(aclrtFree(dev));
    CHECK(aclrtFreeHost(host));
    CHECK(aclrtFreeHost(back));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtDestroyContext(ctx));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS rt_smoke\n");
    return 0;
}

/*
 * runtime_pipeline: a plain-C ACL program that uses only the runtime API.
 *
 * It reports the "devices" the runtime exposes, then runs a double-buffered
 * copy pipeline on two streams synchronised by events: stream A uploads
 * chunk i while stream B reads back chunk i-1, the way inference apps overlap
 * transfers with compute. It verifies every byte and prints the elapsed time
 * measured with ACL events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

#define CHECK(expr)                                                                       \
    do {                                                                                  \
        aclError ret_ = (expr);                                                           \
        if (ret_ != ACL_SUCCESS) {                                                        \
            const char *msg_ = aclGetRecentErrMsg();                                      \
            fprintf(stderr, "%s failed: %d %s\n", #expr, ret_, msg_ != NULL ? msg_ : ""); \
            return 1;                                                                     \
        }                                                                                 \
    } while (0)

enum { CHUNKS = 16, CHUNK_BYTES = 4 << 20 };

int main(void)
{
    CHECK(aclInit(NULL));
    uint32_t count = 0;
    CHECK(aclrtGetDeviceCount(&count));
    aclrtRunMode mode;
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtGetRunMode(&mode));
    const char *soc = aclrtGetSocName();
    size_t free_mem = 0, total_mem = 0;
    CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &free_mem, &total_mem));
    printf("devices: %u, run mode: %s, soc: %s, device memory: %zu MiB free of %zu MiB\n", count,
           mode == ACL_HOST ? "ACL_HOST" : "ACL_DEVICE", soc != NULL ? soc : "?", free_mem >> 20, total_mem >> 20);

    aclrtStream up, down;
    CHECK(aclrtCreateStream(&up));
    CHECK(aclrtCreateStream(&down));
    aclrtEvent uploaded[CHUNKS], start, stop;
    for (int i = 0; i < CHUNKS; ++i) {
        CHECK(aclrtCreateEvent(&uploaded[i]));
    }
    CHECK(aclrtCreateEventWithFlag(&start, ACL_EVENT_TIME_LINE));
    CHECK(aclrtCreateEventWithFlag(&stop, ACL_EVENT_TIME_LINE));

    unsigned char *src = NULL, *dst = NULL;
    void *dev = NULL;
    CHECK(aclrtMallocHost((void **)&src, (size_t)CHUNKS * CHUNK_BYTES));
    CHECK(aclrtMallocHost((void **)&dst, (size_t)CHUNKS * CHUNK_BYTES));
    CHECK(aclrtMalloc(&dev, (size_t)CHUNKS * CHUNK_BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    for (size_t i = 0; i < (size_t)CHUNKS * CHUNK_BYTES; ++i) {
        src[i] = (unsigned char)(i * 131u >> 3);
    }
    memset(dst, 0, (size_t)CHUNKS * CHUNK_BYTES);

    CHECK(aclrtRecordEvent(start, up));
    for (int i = 0; i < CHUNKS; ++i) {
        size_t off = (size_t)i * CHUNK_BYTES;
        CHECK(aclrtMemcpyAsync((char *)dev + off, CHUNK_BYTES, src + off, CHUNK_BYTES, ACL_MEMCPY_HOST_TO_DEVICE, up));
        CHECK(aclrtRecordEvent(uploaded[i], up));
        CHECK(aclrtStreamWaitEvent(down, uploaded[i]));
        CHECK(aclrtMemcpyAsync(dst + off, CHUNK_BYTES, (char *)dev + off, CHUNK_BYTES, ACL_MEMCPY_DEVICE_TO_HOST, down));
    }
    CHECK(aclrtRecordEvent(stop, down));
    CHECK(aclrtSynchronizeEvent(stop));
    float ms = 0.0f;
    CHECK(aclrtEventElapsedTime(&ms, start, stop));

    int ok = memcmp(src, dst, (size_t)CHUNKS * CHUNK_BYTES) == 0;
    printf("pipeline: %d chunks of %d MiB through device memory on 2 streams in %.2f ms: %s\n", CHUNKS,
           CHUNK_BYTES >> 20, ms, ok ? "verified" : "MISMATCH");

    CHECK(aclrtFree(dev));
    CHECK(aclrtFreeHost(src));
    CHECK(aclrtFreeHost(dst));
    for (int i = 0; i < CHUNKS; ++i) {
        CHECK(aclrtDestroyEvent(uploaded[i]));
    }
    CHECK(aclrtDestroyEvent(start));
    CHECK(aclrtDestroyEvent(stop));
    CHECK(aclrtDestroyStream(up));
    CHECK(aclrtDestroyStream(down));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return ok ? 0 : 1;
}

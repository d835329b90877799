/*
 * An asynchronous copy pipeline with page-locked buffers: chunks are
 * uploaded on one stream, transformed on the "device" by a second stream
 * (a host function standing in for a kernel) once an event says the upload
 * finished, and downloaded again; three chunks are in flight at any time.
 * Also checks the copy rules apps hit: count 0, count > destMax, wrong kind.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/compat_check.h"

enum { CHUNKS = 24, SLOTS = 3, CHUNK = 64 * 1024 };

typedef struct slot {
    void *hostIn;
    void *hostOut;
    void *dev;
    aclrtEvent uploaded;
    aclrtEvent computed;
    int chunk;
} slot;

static void invert(void *arg)
{
    slot *s = arg;
    unsigned char *p = s->dev;
    for (int i = 0; i < CHUNK; ++i) {
        p[i] = (unsigned char)~p[i];
    }
}

int main(void)
{
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtStream copyStream = NULL, computeStream = NULL;
    CHECK(aclrtCreateStream(&copyStream));
    CHECK(aclrtCreateStream(&computeStream));
    slot slots[SLOTS];
    memset(slots, 0, sizeof(slots));
    for (int i = 0; i < SLOTS; ++i) {
        CHECK(aclrtMallocHost(&slots[i].hostIn, CHUNK));
        CHECK(aclrtMallocHost(&slots[i].hostOut, CHUNK));
        CHECK(aclrtMalloc(&slots[i].dev, CHUNK, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK(aclrtCreateEvent(&slots[i].uploaded));
        CHECK(aclrtCreateEvent(&slots[i].computed));
        slots[i].chunk = -1;
    }
    int verified = 0;
    for (int c = 0; c < CHUNKS + SLOTS; ++c) {
        slot *s = &slots[c % SLOTS];
        if (s->chunk >= 0) {
            /* Retire the chunk that used this slot. */
            CHECK(aclrtSynchronizeStream(copyStream));
            const unsigned char *out = s->hostOut;
            for (int i = 0; i < CHUNK; i += 997) {
                REQUIRE(out[i] == (unsigned char)~(unsigned char)(s->chunk + i), "chunk %d byte %d wrong", s->chunk, i);
            }
            ++verified;
            s->chunk = -1;
        }
        if (c >= CHUNKS) {
            continue;
        }
        unsigned char *in = s->hostIn;
        for (int i = 0; i < CHUNK; ++i) {
            in[i] = (unsigned char)(c + i);
        }
        s->chunk = c;
        CHECK(aclrtMemcpyAsync(s->dev, CHUNK, s->hostIn, CHUNK, ACL_MEMCPY_HOST_TO_DEVICE, copyStream));
        CHECK(aclrtRecordEvent(s->uploaded, copyStream));
        CHECK(aclrtStreamWaitEvent(computeStream, s->uploaded));
        CHECK(aclrtLaunchHostFunc(computeStream, invert, s));
        CHECK(aclrtRecordEvent(s->computed, computeStream));
        CHECK(aclrtStreamWaitEvent(copyStream, s->computed));
        CHECK(aclrtMemcpyAsync(s->hostOut, CHUNK, s->dev, CHUNK, ACL_MEMCPY_DEVICE_TO_HOST, copyStream));
    }
    REQUIRE(verified == CHUNKS, "verified %d of %d chunks", verified, CHUNKS);
    printf("  ok: %d chunks through a 3-deep upload/compute/download pipeline\n", verified);

    EXPECT(aclrtMemcpy(NULL, 0, NULL, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    EXPECT(aclrtMemcpy(slots[0].dev, 16, slots[0].hostIn, 32, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    char stackBuf[64];
    EXPECT(aclrtMemcpy(slots[0].dev, 64, stackBuf, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(aclrtMemcpy(slots[0].dev, 64, stackBuf, 64, (aclrtMemcpyKind)77), ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtMalloc(&slots[0].hostIn, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM);

    for (int i = 0; i < SLOTS; ++i) {
        CHECK(aclrtFreeHost(slots[i].hostIn));
        CHECK(aclrtFreeHost(slots[i].hostOut));
        CHECK(aclrtFree(slots[i].dev));
        CHECK(aclrtDestroyEvent(slots[i].uploaded));
        CHECK(aclrtDestroyEvent(slots[i].computed));
    }
    EXPECT(aclrtFree(slots[0].dev), ACL_ERROR_RT_PARAM_INVALID);
    CHECK(aclrtDestroyStream(copyStream));
    CHECK(aclrtDestroyStream(computeStream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS rt_async_pipeline\n");
    return 0;
}

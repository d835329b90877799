/*
 * Stream capture as an application uses it: record an upload, a host
 * function standing in for a kernel and a download once, then replay the
 * recorded graph ten times, writing each new input into the captured
 * (page-locked) input buffer: the replays use the addresses baked in at
 * capture time.
 */
#include <stdint.h>
#include <string.h>

#include "../common/compat_check.h"

enum { COUNT = 1024, REPLAYS = 10 };

/* The "kernel": squares every element of the device buffer. */
static void square(void *arg)
{
    float *v = arg;
    for (int i = 0; i < COUNT; ++i) {
        v[i] = v[i] * v[i];
    }
}

int main(void)
{
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = NULL, other = NULL;
    CHECK(aclrtCreateStream(&stream));
    CHECK(aclrtCreateStream(&other));
    const size_t bytes = COUNT * sizeof(float);
    float *in = NULL, *out = NULL, *dev = NULL;
    CHECK(aclrtMallocHost((void **)&in, bytes));
    CHECK(aclrtMallocHost((void **)&out, bytes));
    CHECK(aclrtMalloc((void **)&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));

    aclmdlRI graph = NULL;
    CHECK(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(aclrtMemcpyAsync(dev, bytes, in, bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    CHECK(aclrtLaunchHostFunc(stream, square, dev));
    CHECK(aclrtMemcpyAsync(out, bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST, stream));
    /* Nothing runs while capturing, and the stream cannot be synchronised. */
    EXPECT(aclrtSynchronizeStream(stream), ACL_ERROR_RT_STREAM_CAPTURED);
    aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    CHECK(aclmdlRICaptureGetInfo(stream, &status, NULL));
    REQUIRE(status == ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE, "capture status %d", (int)status);
    CHECK(aclmdlRICaptureEnd(stream, &graph));

    aclrtStream modelStream = NULL;
    uint32_t nstreams = 1, ntasks = 0;
    CHECK(aclmdlRIGetStreams(graph, &modelStream, &nstreams));
    CHECK(aclmdlRIGetTasksByStream(modelStream, NULL, &ntasks));
    printf("  ok: captured %u task(s) on %u stream(s)\n", ntasks, nstreams);
    REQUIRE(ntasks == 3, "expected 3 captured tasks, got %u", ntasks);

    for (int r = 0; r < REPLAYS; ++r) {
        for (int i = 0; i < COUNT; ++i) {
            in[i] = (float)(i % 100) + (float)r; /* new input, same buffer */
        }
        memset(out, 0, bytes);
        aclrtStream on = (r % 2 == 0) ? stream : other;
        CHECK(aclmdlRIExecuteAsync(graph, on));
        CHECK(aclrtSynchronizeStream(on));
        for (int i = 0; i < COUNT; ++i) {
            float x = (float)(i % 100) + (float)r;
            REQUIRE(out[i] == x * x, "replay %d: element %d is %f, expected %f", r, i, out[i], x * x);
        }
    }
    printf("  ok: %d replays produced the squares of their new inputs\n", REPLAYS);

    CHECK(aclmdlRIDestroy(graph));
    CHECK(aclrtFree(dev));
    CHECK(aclrtFreeHost(in));
    CHECK(aclrtFreeHost(out));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtDestroyStream(other));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("capture_replay: PASS\n");
    return 0;
}

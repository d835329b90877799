/*
 * Ordering across streams with events: a producer stream writes a buffer
 * (with a slow host function in front), records an event; a consumer stream
 * waits for the event and reads the buffer. Repeated many times, the
 * consumer must always see the producer's data. Also measures time with
 * events and checks the status enums (note the inverted numbering of
 * aclrtEventRecordedStatus).
 */
#include <string.h>
#include <time.h>

#include "../common/compat_check.h"

static void slow(void *arg)
{
    (void)arg;
    struct timespec ts = {0, 2 * 1000 * 1000};
    nanosleep(&ts, NULL);
}

typedef struct check {
    const unsigned char *buf;
    unsigned char expect;
    int bad;
} check;

static void verify(void *arg)
{
    check *c = arg;
    if (c->buf[0] != c->expect || c->buf[4095] != c->expect) {
        c->bad++;
    }
}

int main(void)
{
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtStream producer = NULL, consumer = NULL;
    CHECK(aclrtCreateStream(&producer));
    CHECK(aclrtCreateStream(&consumer));
    aclrtEvent ready = NULL, start = NULL, stop = NULL;
    CHECK(aclrtCreateEvent(&ready));
    CHECK(aclrtCreateEvent(&start));
    CHECK(aclrtCreateEvent(&stop));
    void *devBuf = NULL;
    CHECK(aclrtMalloc(&devBuf, 4096, ACL_MEM_MALLOC_HUGE_FIRST));

    aclrtEventRecordedStatus rs = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    CHECK(aclrtQueryEventStatus(ready, &rs));
    REQUIRE(rs == ACL_EVENT_RECORDED_STATUS_NOT_READY, "an unrecorded event reports NOT_READY (0)");

    check c = {devBuf, 0, 0};
    CHECK(aclrtRecordEvent(start, producer));
    for (int i = 1; i <= 100; ++i) {
        CHECK(aclrtLaunchHostFunc(producer, slow, NULL));
        CHECK(aclrtMemsetAsync(devBuf, 4096, i, 4096, producer));
        CHECK(aclrtRecordEvent(ready, producer));
        CHECK(aclrtStreamWaitEvent(consumer, ready));
        c.expect = (unsigned char)i;
        CHECK(aclrtLaunchHostFunc(consumer, verify, &c));
        CHECK(aclrtSynchronizeStream(consumer));
    }
    CHECK(aclrtRecordEvent(stop, producer));
    CHECK(aclrtSynchronizeEvent(stop));
    REQUIRE(c.bad == 0, "the consumer saw stale data %d times", c.bad);
    printf("  ok: 100 producer/consumer rounds ordered by events\n");

    CHECK(aclrtQueryEventStatus(stop, &rs));
    REQUIRE(rs == ACL_EVENT_RECORDED_STATUS_COMPLETE, "a completed event reports COMPLETE (1)");
    float ms = 0.0f;
    CHECK(aclrtEventElapsedTime(&ms, start, stop));
    printf("  ok: elapsed %.2f ms between start and stop\n", ms);
    REQUIRE(ms >= 150.0f, "100 x 2 ms of host functions should take at least 150 ms, got %.2f", ms);

    EXPECT(aclrtSynchronizeEventWithTimeout(stop, 0), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(aclrtStreamWaitEvent(consumer, NULL), ACL_ERROR_INVALID_PARAM);

    CHECK(aclrtFree(devBuf));
    CHECK(aclrtDestroyEvent(ready));
    CHECK(aclrtDestroyEvent(start));
    CHECK(aclrtDestroyEvent(stop));
    CHECK(aclrtDestroyStream(producer));
    CHECK(aclrtDestroyStream(consumer));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS rt_stream_event_order\n");
    return 0;
}

// Report callbacks processed on a std::thread subscribed with its pthread id,
// as the asynchronous inference samples do: the thread loops on
// aclrtProcessReport(timeout) until told to stop; ACL_CALLBACK_BLOCK holds the
// stream until the callback returned, ACL_CALLBACK_NO_BLOCK does not.
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "../common/compat_check.h"

namespace {

std::atomic<bool> g_exit{false};
std::atomic<int> g_calls{0};
std::atomic<int> g_wrongThread{0};
pthread_t g_processor;

void ProcessLoop()
{
    while (!g_exit.load()) {
        if (aclrtProcessReport(100) == ACL_ERROR_RT_THREAD_SUBSCRIBE) {
            // Not subscribed yet (or any more): do not spin.
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }
}

void OnDone(void *userData)
{
    if (!pthread_equal(pthread_self(), g_processor)) {
        g_wrongThread++;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    static_cast<std::atomic<int> *>(userData)->fetch_add(1);
    g_calls++;
}

void Mark(void *userData)
{
    // Runs on the stream after a blocking callback: the callback must have finished.
    auto *seen = static_cast<std::atomic<int> *>(userData);
    seen->store(g_calls.load());
}

}  // namespace

int main()
{
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtContext ctx = nullptr;
    CHECK(aclrtCreateContext(&ctx, 0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));

    int dummy = 0;
    EXPECT(aclrtLaunchCallback(OnDone, &dummy, ACL_CALLBACK_BLOCK, stream), ACL_ERROR_RT_STREAM_NO_CB_REG);
    EXPECT(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
    EXPECT(aclrtProcessReport(0), ACL_ERROR_INVALID_PARAM);

    std::thread processor(ProcessLoop);
    g_processor = processor.native_handle();
    CHECK(aclrtSubscribeReport(static_cast<uint64_t>(processor.native_handle()), stream));
    EXPECT(aclrtSubscribeReport(static_cast<uint64_t>(processor.native_handle()), stream),
           ACL_ERROR_RT_STREAM_SUBSCRIBE);

    std::atomic<int> done{0};
    std::atomic<int> seenAfterBlock{-1};
    for (int i = 0; i < 10; ++i) {
        CHECK(aclrtLaunchCallback(OnDone, &done, ACL_CALLBACK_BLOCK, stream));
    }
    CHECK(aclrtLaunchHostFunc(stream, Mark, &seenAfterBlock));
    for (int i = 0; i < 10; ++i) {
        CHECK(aclrtLaunchCallback(OnDone, &done, ACL_CALLBACK_NO_BLOCK, stream));
    }
    CHECK(aclrtSynchronizeStream(stream));
    REQUIRE(seenAfterBlock.load() == 10, "the stream went on before blocking callbacks finished (%d)",
            seenAfterBlock.load());
    for (int i = 0; i < 200 && done.load() < 20; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    REQUIRE(done.load() == 20, "%d of 20 callbacks ran", done.load());
    REQUIRE(g_wrongThread.load() == 0, "%d callbacks ran outside the subscribed thread", g_wrongThread.load());
    printf("  ok: 20 callbacks ran on the subscribed std::thread\n");

    CHECK(aclrtUnSubscribeReport(static_cast<uint64_t>(processor.native_handle()), stream));
    g_exit = true;
    processor.join();
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtDestroyContext(ctx));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS rt_callback_thread\n");
    return 0;
}

// Several std::threads, each with its own context (two per device) and its
// own stream, run asynchronous copy loops at the same time; the main thread
// checks every result. This is the pattern of multi-channel inference apps.
#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "../common/compat_check.h"

namespace {

struct Worker {
    int32_t device = 0;
    aclrtContext ctx = nullptr;
    int result = -1;
};

int RunWorker(Worker *w)
{
    CHECK(aclrtSetCurrentContext(w->ctx));
    int32_t dev = -1;
    CHECK(aclrtGetDevice(&dev));
    REQUIRE(dev == w->device, "thread context is on device %d, expected %d", dev, w->device);
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));
    const size_t n = 256 * 1024;
    void *host = nullptr;
    void *back = nullptr;
    void *devBuf = nullptr;
    CHECK(aclrtMallocHost(&host, n));
    CHECK(aclrtMallocHost(&back, n));
    CHECK(aclrtMalloc(&devBuf, n, ACL_MEM_MALLOC_HUGE_FIRST));
    for (int iter = 0; iter < 20; ++iter) {
        std::memset(host, (iter + w->device * 7) & 0xff, n);
        CHECK(aclrtMemcpyAsync(devBuf, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE, stream));
        CHECK(aclrtMemsetAsync(devBuf, n, iter, 16, stream));
        CHECK(aclrtMemcpyAsync(back, n, devBuf, n, ACL_MEMCPY_DEVICE_TO_HOST, stream));
        CHECK(aclrtSynchronizeStream(stream));
        const unsigned char *b = static_cast<const unsigned char *>(back);
        REQUIRE(b[0] == static_cast<unsigned char>(iter), "memset result wrong in iteration %d", iter);
        REQUIRE(b[n - 1] == static_cast<unsigned char>((iter + w->device * 7) & 0xff),
                "copy result wrong in iteration %d", iter);
    }
    CHECK(aclrtFree(devBuf));
    CHECK(aclrtFreeHost(host));
    CHECK(aclrtFreeHost(back));
    CHECK(aclrtDestroyStream(stream));
    return 0;
}

}  // namespace

int main()
{
    CHECK(aclInit(nullptr));
    uint32_t count = 0;
    CHECK(aclrtGetDeviceCount(&count));
    std::vector<Worker> workers(2 * count);
    for (size_t i = 0; i < workers.size(); ++i) {
        workers[i].device = static_cast<int32_t>(i % count);
        CHECK(aclrtCreateContext(&workers[i].ctx, workers[i].device));
    }
    std::vector<std::thread> threads;
    for (auto &w : workers) {
        threads.emplace_back([&w] { w.result = RunWorker(&w); });
    }
    for (auto &t : threads) {
        t.join();
    }
    for (size_t i = 0; i < workers.size(); ++i) {
        REQUIRE(workers[i].result == 0, "worker %zu failed", i);
        printf("  ok: worker %zu on device %d\n", i, workers[i].device);
        CHECK(aclrtDestroyContext(workers[i].ctx));
    }
    CHECK(aclFinalize());
    printf("PASS rt_multithread_contexts\n");
    return 0;
}

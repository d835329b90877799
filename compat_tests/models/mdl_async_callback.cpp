// Asynchronous inference with report callbacks, the pattern of the Ascend
// async samples: a std::thread subscribed to the stream loops on
// aclrtProcessReport; each iteration queues H2D copy -> aclmdlExecuteAsync
// -> D2H copy -> aclrtLaunchCallback(ACL_CALLBACK_BLOCK), and the callback
// (on the subscribed thread) checks that iteration's output against ONNX
// Runtime. Two streams run the same model concurrently (each execution with
// its own feature map). A model executed asynchronously refuses a
// synchronous aclmdlExecute (GE's mode-mixing rule: ACL_ERROR_GE_FAILURE).
//
//   mdl_async_callback MODEL.om INPUT.bin REF_DIR [ITERATIONS]
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "mdl_compat.h"

namespace {

std::atomic<bool> g_exit{false};
std::atomic<int> g_done{0};
std::atomic<int> g_bad{0};
std::atomic<int> g_wrong_thread{0};
pthread_t g_processor[2];

struct Iteration {
    int stream;
    float *host_out;
    size_t n;
    const float *ref;
};

void ProcessLoop()
{
    while (!g_exit.load()) {
        if (aclrtProcessReport(100) == ACL_ERROR_RT_THREAD_SUBSCRIBE) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }
}

void OnResult(void *user)
{
    auto *it = static_cast<Iteration *>(user);
    if (!pthread_equal(pthread_self(), g_processor[it->stream])) {
        g_wrong_thread++;
    }
    if (mc_rel_l2(it->host_out, it->ref, it->n) > 1e-4) {
        g_bad++;
    }
    g_done++;
}

}  // namespace

int main(int argc, char **argv)
{
    if (argc < 4) {
        printf("usage: mdl_async_callback MODEL.om INPUT.bin REF_DIR [ITERATIONS]\n");
        return 2;
    }
    const int iters = argc > 4 ? atoi(argv[4]) : 6;
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtContext ctx = nullptr;
    CHECK(aclrtCreateContext(&ctx, 0));
    aclrtStream streams[2] = {nullptr, nullptr};
    CHECK(aclrtCreateStream(&streams[0]));
    CHECK(aclrtCreateStream(&streams[1]));
    std::thread processors[2] = {std::thread(ProcessLoop), std::thread(ProcessLoop)};
    for (int s = 0; s < 2; ++s) {
        g_processor[s] = processors[s].native_handle();
        CHECK(aclrtSubscribeReport(static_cast<uint64_t>(g_processor[s]), streams[s]));
    }

    uint32_t id = 0;
    CHECK(aclmdlLoadFromFile(argv[1], &id));
    aclmdlDesc *desc = aclmdlCreateDesc();
    CHECK(aclmdlGetDesc(desc, id));
    REQUIRE(aclmdlGetNumInputs(desc) == 1, "one input");
    const size_t in_size = aclmdlGetInputSizeByIndex(desc, 0);
    const size_t out_size = aclmdlGetOutputSizeByIndex(desc, 0);
    size_t file_size = 0;
    void *image = mc_read_file(argv[2], &file_size);
    REQUIRE(image != nullptr && file_size == in_size, "input file of %zu bytes", in_size);
    size_t ref_size = 0;
    float *ref = static_cast<float *>(mc_read_ref(argv[3], aclmdlGetOutputNameByIndex(desc, 0), &ref_size));
    REQUIRE(ref != nullptr && ref_size == out_size, "reference output");

    void *host_in = nullptr;
    CHECK(aclrtMallocHost(&host_in, in_size));
    memcpy(host_in, image, in_size);
    free(image);
    std::vector<Iteration> its(static_cast<size_t>(iters));
    std::vector<void *> dev_in(its.size()), dev_out(its.size());
    std::vector<aclmdlDataset *> ins(its.size()), outs(its.size());
    for (size_t i = 0; i < its.size(); ++i) {
        CHECK(aclrtMalloc(&dev_in[i], in_size, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK(aclrtMalloc(&dev_out[i], out_size, ACL_MEM_MALLOC_HUGE_FIRST));
        void *h = nullptr;
        CHECK(aclrtMallocHost(&h, out_size));
        its[i] = Iteration{static_cast<int>(i % 2), static_cast<float *>(h), out_size / sizeof(float), ref};
        ins[i] = aclmdlCreateDataset();
        outs[i] = aclmdlCreateDataset();
        CHECK(aclmdlAddDatasetBuffer(ins[i], aclCreateDataBuffer(dev_in[i], in_size)));
        CHECK(aclmdlAddDatasetBuffer(outs[i], aclCreateDataBuffer(dev_out[i], out_size)));
    }
    const auto t0 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < its.size(); ++i) {
        aclrtStream s = streams[i % 2];
        CHECK(aclrtMemcpyAsync(dev_in[i], in_size, host_in, in_size, ACL_MEMCPY_HOST_TO_DEVICE, s));
        CHECK(aclmdlExecuteAsync(id, ins[i], outs[i], s));
        CHECK(aclrtMemcpyAsync(its[i].host_out, out_size, dev_out[i], out_size, ACL_MEMCPY_DEVICE_TO_HOST, s));
        CHECK(aclrtLaunchCallback(OnResult, &its[i], ACL_CALLBACK_BLOCK, s));
    }
    printf("queued %d inferences on 2 streams\n", iters);
    CHECK(aclrtSynchronizeStream(streams[0]));
    CHECK(aclrtSynchronizeStream(streams[1]));
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    printf("%d callbacks ran (%d wrong results, %d on another thread) in %.1f ms\n", g_done.load(), g_bad.load(),
           g_wrong_thread.load(), ms);
    REQUIRE(g_done.load() == iters && g_bad.load() == 0 && g_wrong_thread.load() == 0,
            "every callback ran on its subscribed thread with ONNX Runtime's result");

    // GE: a model executed asynchronously refuses synchronous execution (and vice versa)
    EXPECT(aclmdlExecute(id, ins[0], outs[0]), ACL_ERROR_GE_FAILURE);

    for (size_t i = 0; i < its.size(); ++i) {
        CHECK(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ins[i], 0)));
        CHECK(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(outs[i], 0)));
        CHECK(aclmdlDestroyDataset(ins[i]));
        CHECK(aclmdlDestroyDataset(outs[i]));
        CHECK(aclrtFree(dev_in[i]));
        CHECK(aclrtFree(dev_out[i]));
        CHECK(aclrtFreeHost(its[i].host_out));
    }
    CHECK(aclrtFreeHost(host_in));
    free(ref);
    CHECK(aclmdlDestroyDesc(desc));
    CHECK(aclmdlUnload(id));
    for (int s = 0; s < 2; ++s) {
        CHECK(aclrtUnSubscribeReport(static_cast<uint64_t>(g_processor[s]), streams[s]));
    }
    g_exit = true;
    processors[0].join();
    processors[1].join();
    CHECK(aclrtDestroyStream(streams[0]));
    CHECK(aclrtDestroyStream(streams[1]));
    CHECK(aclrtDestroyContext(ctx));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASSED\n");
    return 0;
}

/*
 * TDT channel, following CANN's runtime example "tdt_channel/0_simple_channel": a queue-backed channel of
 * capacity 2, one float tensor {1,2,3,4} sent with a 1000 ms timeout, the channel size queried, the tensor
 * received and printed. Then the same channel is used from two threads, a sender and a receiver, for 16 tensors
 * (the capacity of 2 makes the sender wait for the receiver): every tensor must arrive, in order, intact.
 */
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_tdt.h"
#include "sample_utils.h"

namespace {
acltdtDataset *CreateFloatDataset(std::vector<float> &values)
{
    int64_t dims[] = {1, static_cast<int64_t>(values.size())};
    acltdtDataItem *item = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 2, ACL_FLOAT, values.data(),
                                                values.size() * sizeof(float));
    acltdtDataset *dataset = acltdtCreateDataset();
    if (item == nullptr || dataset == nullptr || acltdtAddDataItem(dataset, item) != ACL_SUCCESS) {
        return nullptr;
    }
    return dataset;
}

void DestroyDatasetAndItems(acltdtDataset *dataset)
{
    if (dataset == nullptr) {
        return;
    }
    for (size_t i = 0; i < acltdtGetDatasetSize(dataset); ++i) {
        (void)acltdtDestroyDataItem(acltdtGetDataItem(dataset, i));
    }
    (void)acltdtDestroyDataset(dataset);
}

int DumpDataset(const acltdtDataset *dataset, float *firstValue)
{
    const size_t datasetSize = acltdtGetDatasetSize(dataset);
    INFO_LOG("Dataset size: %zu", datasetSize);
    if (datasetSize == 0) {
        return -1;
    }
    acltdtDataItem *item = acltdtGetDataItem(dataset, 0);
    if (item == nullptr) {
        ERROR_LOG("acltdtGetDataItem returned nullptr");
        return -1;
    }
    const size_t dimNum = acltdtGetDimNumFromItem(item);
    std::vector<int64_t> dims(dimNum, 0);
    if (dimNum > 0) {
        CHECK_ERROR(acltdtGetDimsFromItem(item, dims.data(), dimNum));
    }
    const float *tensorData = static_cast<const float *>(acltdtGetDataAddrFromItem(item));
    INFO_LOG("Tensor type=%d, data type=%d, bytes=%zu, dims=(%lld, %lld), firstValue=%.3f",
             static_cast<int32_t>(acltdtGetTensorTypeFromItem(item)),
             static_cast<int32_t>(acltdtGetDataTypeFromItem(item)), acltdtGetDataSizeFromItem(item),
             static_cast<long long>(dimNum > 0 ? dims[0] : 0), static_cast<long long>(dimNum > 1 ? dims[1] : 0),
             tensorData == nullptr ? 0.0F : tensorData[0]);
    if (tensorData == nullptr || dimNum != 2 || dims[1] != 4 || acltdtGetDataSizeFromItem(item) != 16) {
        return -1;
    }
    *firstValue = tensorData[0];
    return 0;
}

int RunThreads(acltdtChannelHandle *channel)
{
    constexpr int kTensors = 16;
    int sendFailures = 0;
    std::thread sender([&]() {
        for (int i = 0; i < kTensors; ++i) {
            std::vector<float> values = {static_cast<float>(i), 1.0F, 2.0F, 3.0F};
            acltdtDataset *ds = CreateFloatDataset(values);
            if (ds == nullptr || acltdtSendTensor(channel, ds, 5000) != ACL_SUCCESS) {
                ++sendFailures;
            }
            DestroyDatasetAndItems(ds);
        }
    });
    int received = 0;
    for (int i = 0; i < kTensors; ++i) {
        acltdtDataset *ds = acltdtCreateDataset();
        float first = -1.0F;
        if (ds == nullptr || acltdtReceiveTensor(channel, ds, 5000) != ACL_SUCCESS || DumpDataset(ds, &first) != 0 ||
            first != static_cast<float>(i)) {
            ERROR_LOG("tensor %d did not arrive intact (first value %f)", i, first);
        } else {
            ++received;
        }
        (void)acltdtDestroyDataset(ds);
    }
    sender.join();
    INFO_LOG("Received %d of %d tensors sent from another thread (%d send failures)", received, kTensors,
             sendFailures);
    return received == kTensors && sendFailures == 0 ? 0 : -1;
}
} // namespace

int main()
{
    const uint32_t deviceId = 0;
    std::vector<float> hostTensor = {1.0F, 2.0F, 3.0F, 4.0F};
    CHECK_ERROR(aclInit(nullptr));
    CHECK_ERROR(aclrtSetDevice(deviceId));
    acltdtChannelHandle *channel = acltdtCreateChannelWithCapacity(deviceId, "simple_tdt_channel", 2);
    if (channel == nullptr) {
        ERROR_LOG("acltdtCreateChannelWithCapacity returned nullptr");
        return -1;
    }
    acltdtDataset *sendDataset = CreateFloatDataset(hostTensor);
    acltdtDataset *recvDataset = acltdtCreateDataset();
    if (sendDataset == nullptr || recvDataset == nullptr) {
        ERROR_LOG("cannot create datasets");
        return -1;
    }
    float first = 0;
    if (DumpDataset(sendDataset, &first) != 0) {
        return -1;
    }
    CHECK_ERROR(acltdtSendTensor(channel, sendDataset, 1000));
    size_t channelSize = 0;
    CHECK_ERROR(acltdtQueryChannelSize(channel, &channelSize));
    INFO_LOG("Channel size after send: %zu", channelSize);
    if (channelSize != 1) {
        return -1;
    }
    CHECK_ERROR(acltdtReceiveTensor(channel, recvDataset, 1000));
    if (DumpDataset(recvDataset, &first) != 0 || first != 1.0F) {
        return -1;
    }
    CHECK_ERROR(acltdtQueryChannelSize(channel, &channelSize));
    INFO_LOG("Channel size after receive: %zu", channelSize);
    if (channelSize != 0 || RunThreads(channel) != 0) {
        return -1;
    }
    CHECK_ERROR(acltdtCleanChannel(channel));
    CHECK_ERROR(acltdtStopChannel(channel));
    CHECK_ERROR(acltdtDestroyChannel(channel));
    CHECK_ERROR(acltdtDestroyDataset(recvDataset));
    DestroyDatasetAndItems(sendDataset);
    CHECK_ERROR(aclrtResetDeviceForce(static_cast<int32_t>(deviceId)));
    CHECK_ERROR(aclFinalize());
    INFO_LOG("Run the simple_channel sample successfully.");
    return 0;
}

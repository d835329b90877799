/*
 * Random-number tasks, following CANN's runtime example "built_in_task/1_random_num_task": one 16-byte counter in
 * device memory, seed 0, 128 numbers per task: float normal(3, 2), bf16 truncated normal(1, 2), fp16 uniform
 * [1, 2), int32 uniform [1, 100), dropout bitmask with ratio 0.4. The task structures are filled as the example
 * fills them (immediate values, sizes set, the rest left as it is). Extra checks: ranges, loose moments, and the
 * same numbers again after the counter is reset (the statistics proper are in the unit tests).
 */
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "acl/acl.h"
#include "sample_utils.h"

typedef uint16_t Float16;
typedef uint16_t BF16;

static void SetPara(aclrtRandomParaInfo &p, const void *value, uint8_t size)
{
    memcpy(p.valueOrAddr, value, size);
    p.size = size;
    p.isAddr = 0;
}

static aclError Launch(aclrtRandomNumTaskInfo &taskInfo, aclDataType type, aclrtRandomNumFuncType func, uint64_t seed,
                       uint64_t num, void *counter, void *out, aclrtStream stream)
{
    taskInfo.dataType = type;
    taskInfo.randomNumFuncParaInfo.funcType = func;
    taskInfo.randomParaAddr = NULL;
    taskInfo.randomCounterAddr = counter;
    taskInfo.randomResultAddr = out;
    SetPara(taskInfo.randomSeed, &seed, sizeof(seed));
    SetPara(taskInfo.randomNum, &num, sizeof(num));
    return aclrtRandomNumAsync(&taskInfo, stream, NULL);
}

static float Bf16ToFloat(BF16 v)
{
    uint32_t bits = (uint32_t)v << 16;
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

int main()
{
    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(0));
    aclrtStream stream;
    CHECK_ERROR(aclrtCreateStream(&stream));
    const uint64_t seed = 0;
    const uint64_t num = 128;
    const size_t size = num * sizeof(uint64_t);
    void *devOutput = NULL;
    CHECK_ERROR(aclrtMalloc(&devOutput, size, ACL_MEM_MALLOC_HUGE_FIRST));
    auto hostOutput = std::unique_ptr<void, decltype(&free)>(malloc(size), free);
    auto first = std::unique_ptr<void, decltype(&free)>(malloc(size), free);
    constexpr size_t kCounterSize = 16U;
    void *counterAddr = nullptr;
    CHECK_ERROR(aclrtMalloc(&counterAddr, kCounterSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemset(counterAddr, kCounterSize, 0, kCounterSize));

    printf("Gen normal distribution random num, data type: float \n");
    aclrtRandomNumTaskInfo taskInfo = {};
    float mean = 3.0f, stddev = 2.0f;
    SetPara(taskInfo.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, &mean, sizeof(float));
    SetPara(taskInfo.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, &stddev, sizeof(float));
    CHECK_ERROR(Launch(taskInfo, ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, seed, num, counterAddr, devOutput,
                       stream));
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    CHECK_ERROR(aclrtMemcpy(hostOutput.get(), size, devOutput, size, ACL_MEMCPY_DEVICE_TO_HOST));
    memcpy(first.get(), hostOutput.get(), num * sizeof(float));
    float *floatData = (float *)hostOutput.get();
    double sum = 0;
    for (uint64_t i = 0; i < num; i++) {
        sum += floatData[i];
    }
    for (int i = 0; i < 5; i++) {
        printf("Random result[%d] = %f\n", i, floatData[i]);
    }
    if (std::fabs(sum / num - 3.0) > 0.7) { /* 128 samples: standard error 0.18 */
        ERROR_LOG("normal mean %f is far from 3", sum / num);
        return 1;
    }

    printf("\nGen truncated normal distribution random num, data type: BF16 \n");
    taskInfo = {};
    BF16 meanBF16 = 0x3F80;   // bf16(1.0)
    BF16 stddevBF16 = 0x4000; // bf16(2.0)
    SetPara(taskInfo.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, &meanBF16, sizeof(BF16));
    SetPara(taskInfo.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, &stddevBF16, sizeof(BF16));
    CHECK_ERROR(Launch(taskInfo, ACL_BF16, ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS, seed, num, counterAddr,
                       devOutput, stream));
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    CHECK_ERROR(aclrtMemcpy(hostOutput.get(), size, devOutput, size, ACL_MEMCPY_DEVICE_TO_HOST));
    BF16 *bf16Data = (BF16 *)hostOutput.get();
    for (int i = 0; i < 5; i++) {
        printf("Random result[%d] = %#x\n", i, bf16Data[i]);
    }
    for (uint64_t i = 0; i < num; i++) {
        const float v = Bf16ToFloat(bf16Data[i]);
        if (v < 1.0f - 4.0f - 0.05f || v > 1.0f + 4.0f + 0.05f) { /* within two standard deviations */
            ERROR_LOG("truncated normal value %f outside [-3, 5]", v);
            return 1;
        }
    }

    printf("\nGen uniform distribution random num, data type: FP16 \n");
    aclrtRandomNumTaskInfo uniformInfo; /* the example leaves this one uninitialised: fill it with junk */
    memset(&uniformInfo, 0x5a, sizeof(uniformInfo));
    Float16 minFP16 = 0x3C00; // fp16(1.0)
    Float16 maxFP16 = 0x4000; // fp16(2.0)
    SetPara(uniformInfo.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &minFP16, sizeof(Float16));
    SetPara(uniformInfo.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &maxFP16, sizeof(Float16));
    CHECK_ERROR(Launch(uniformInfo, ACL_FLOAT16, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, seed, num, counterAddr,
                       devOutput, stream));
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    CHECK_ERROR(aclrtMemcpy(hostOutput.get(), size, devOutput, size, ACL_MEMCPY_DEVICE_TO_HOST));
    Float16 *fp16Data = (Float16 *)hostOutput.get();
    for (int i = 0; i < 5; i++) {
        printf("Random result[%d] = %#x\n", i, fp16Data[i]);
    }
    for (uint64_t i = 0; i < num; i++) {
        const float v = aclFloat16ToFloat(fp16Data[i]);
        if (v < 1.0f || v > 2.0f) {
            ERROR_LOG("uniform fp16 value %f outside [1, 2]", v);
            return 1;
        }
    }

    printf("\nGen uniform distribution random num, data type: INT32 \n");
    int32_t min = 1, max = 100;
    SetPara(uniformInfo.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &min, sizeof(int32_t));
    SetPara(uniformInfo.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &max, sizeof(int32_t));
    CHECK_ERROR(Launch(uniformInfo, ACL_INT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, seed, num, counterAddr,
                       devOutput, stream));
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    CHECK_ERROR(aclrtMemcpy(hostOutput.get(), size, devOutput, size, ACL_MEMCPY_DEVICE_TO_HOST));
    int32_t *int32Data = (int32_t *)hostOutput.get();
    for (int i = 0; i < 5; i++) {
        printf("Random result[%d] = %d\n", i, int32Data[i]);
    }
    for (uint64_t i = 0; i < num; i++) {
        if (int32Data[i] < min || int32Data[i] >= max) {
            ERROR_LOG("uniform int32 value %d outside [1, 100)", int32Data[i]);
            return 1;
        }
    }

    printf("\nGen dropout bitmask, output data type: UINT8 \n");
    taskInfo = {};
    float ration = 0.4f;
    SetPara(taskInfo.randomNumFuncParaInfo.paramInfo.dropoutBitmaskInfo.dropoutRation, &ration, sizeof(float));
    CHECK_ERROR(Launch(taskInfo, ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK, seed, num, counterAddr,
                       devOutput, stream));
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    CHECK_ERROR(aclrtMemcpy(hostOutput.get(), size, devOutput, size, ACL_MEMCPY_DEVICE_TO_HOST));
    uint8_t *uint8Data = (uint8_t *)hostOutput.get();
    int kept = 0;
    for (uint64_t i = 0; i < num; i++) {
        kept += (uint8Data[i / 8] >> (i % 8)) & 1;
    }
    for (int i = 0; i < 5; i++) {
        printf("Random result[%d] = %u\n", i, uint8Data[i]);
    }
    if (kept < 50 || kept > 105) { /* 128 bits kept with probability 0.6: 77 +- 5.5 */
        ERROR_LOG("%d of 128 bits kept", kept);
        return 1;
    }

    /* reproducible: the same seed from the same counter gives the same numbers */
    CHECK_ERROR(aclrtMemset(counterAddr, kCounterSize, 0, kCounterSize));
    taskInfo = {};
    SetPara(taskInfo.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, &mean, sizeof(float));
    SetPara(taskInfo.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, &stddev, sizeof(float));
    CHECK_ERROR(Launch(taskInfo, ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, seed, num, counterAddr, devOutput,
                       stream));
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    CHECK_ERROR(aclrtMemcpy(hostOutput.get(), size, devOutput, size, ACL_MEMCPY_DEVICE_TO_HOST));
    if (memcmp(first.get(), hostOutput.get(), num * sizeof(float)) != 0) {
        ERROR_LOG("the same seed and counter gave other numbers");
        return 1;
    }
    printf("\nSame seed and counter: same numbers\n");

    CHECK_ERROR(aclrtFree(devOutput));
    CHECK_ERROR(aclrtFree(counterAddr));
    CHECK_ERROR(aclrtDestroyStream(stream));
    CHECK_ERROR(aclrtResetDeviceForce(0));
    CHECK_ERROR(aclFinalize());
    printf("Sample Run Successfully.\n");
    return 0;
}

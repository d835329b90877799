/*
 * Reduce task, following CANN's runtime example "built_in_task/0_reduce_task": {1,2,3,4} reduced with SUM into a
 * copy of itself gives {2,4,6,8} (count is a byte count). Extra checks: MAX and MIN on mixed values, and a task
 * on a user stream ordered after an asynchronous copy.
 */
#include <stdio.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "sample_utils.h"

int main(void)
{
    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(0));
    aclrtStream stream;
    CHECK_ERROR(aclrtCreateStream(&stream));

    const int count = 4;
    float hostInput[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    float hostOutput[4] = {0, 0, 0, 0};
    size_t size = count * sizeof(float);
    void *devInput = NULL;
    void *devOutput = NULL;
    CHECK_ERROR(aclrtMalloc(&devInput, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMalloc(&devOutput, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(devInput, size, hostInput, size, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ERROR(aclrtMemcpy(devOutput, size, hostInput, size, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ERROR(aclrtReduceAsync(devOutput, devInput, size, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, stream, NULL));
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    CHECK_ERROR(aclrtMemcpy(hostOutput, size, devOutput, size, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < count; i++) {
        printf("Reduce SUM result[%d] = %f\n", i, hostOutput[i]);
        if (hostOutput[i] != 2.0f * (float)(i + 1)) {
            ERROR_LOG("expected %f", 2.0f * (float)(i + 1));
            return 1;
        }
    }

    const float other[4] = {-1.0f, 5.0f, 2.0f, 9.0f};
    const aclrtReduceKind kinds[2] = {ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN};
    for (int k = 0; k < 2; ++k) {
        CHECK_ERROR(aclrtMemcpyAsync(devOutput, size, hostInput, size, ACL_MEMCPY_HOST_TO_DEVICE, stream));
        CHECK_ERROR(aclrtMemcpyAsync(devInput, size, other, size, ACL_MEMCPY_HOST_TO_DEVICE, stream));
        CHECK_ERROR(aclrtReduceAsync(devOutput, devInput, size, kinds[k], ACL_FLOAT, stream, NULL));
        CHECK_ERROR(aclrtSynchronizeStream(stream));
        CHECK_ERROR(aclrtMemcpy(hostOutput, size, devOutput, size, ACL_MEMCPY_DEVICE_TO_HOST));
        for (int i = 0; i < count; ++i) {
            const float a = hostInput[i], b = other[i];
            const float want = k == 0 ? (a > b ? a : b) : (a < b ? a : b);
            if (hostOutput[i] != want) {
                ERROR_LOG("%s result[%d] = %f, expected %f", k == 0 ? "MAX" : "MIN", i, hostOutput[i], want);
                return 1;
            }
        }
        printf("Reduce %s results checked\n", k == 0 ? "MAX" : "MIN");
    }

    CHECK_ERROR(aclrtFree(devInput));
    CHECK_ERROR(aclrtFree(devOutput));
    CHECK_ERROR(aclrtDestroyStream(stream));
    CHECK_ERROR(aclrtResetDeviceForce(0));
    CHECK_ERROR(aclFinalize());
    printf("Sample Run Successfully.\n");
    return 0;
}

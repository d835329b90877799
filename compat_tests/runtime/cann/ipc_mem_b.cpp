/*
 * IPC memory, importing side, following CANN's runtime example "memory/10_ipc_memory_withpid" (proc_b): publish
 * this process's pid, read the key, import the memory, read the value process A wrote, signal completion. The
 * example's read kernel is replaced by a device-to-host copy. Extra checks: importing before process A allowed
 * this pid fails with ACL_ERROR_RT_NO_PERMISSION, a write into the imported memory is seen by process A, and
 * aclrtFree refuses imported memory (aclrtIpcMemClose releases it).
 */
#include <cstdio>
#include <cstring>
#include <unistd.h>

#include "acl/acl.h"
#include "ipc_file_handover.h"
#include "sample_utils.h"

int32_t main()
{
    CHECK_ERROR(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ERROR(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ERROR(aclrtCreateStream(&stream));

    int32_t pid = 0;
    CHECK_ERROR(aclrtDeviceGetBareTgid(&pid));
    if (WriteFile("file/pid.bin", "file/pid.bin.done", &pid, sizeof(pid)) != 0) {
        return -1;
    }
    INFO_LOG("Process B: write Process B's pid to the file successfully, Process B's pid = %d", pid);

    char memName[256] = "name";
    void *devPtr = nullptr;
    if (ReadFile("file/early.bin", "file/early.bin.done", memName, sizeof(memName)) != 0) {
        return -1;
    }
    aclError early = aclrtIpcMemImportByKey(&devPtr, memName, 0);
    if (early != ACL_ERROR_RT_NO_PERMISSION) {
        ERROR_LOG("Process B: import before being allowed returned %d", (int)early);
        return -1;
    }
    INFO_LOG("Process B: import before being allowed is refused (%d)", (int)early);
    int32_t tried = 1;
    if (WriteFile("file/tried.bin", "file/tried.bin.done", &tried, sizeof(tried)) != 0) {
        return -1;
    }

    if (ReadFile("file/memName.bin", "file/memName.bin.done", memName, sizeof(memName)) != 0) {
        return -1;
    }
    INFO_LOG("Process B: shareable identifier = %s", memName);
    CHECK_ERROR(aclrtIpcMemImportByKey(&devPtr, memName, 0));
    int value = 0;
    CHECK_ERROR(aclrtMemcpy(&value, sizeof(int), devPtr, sizeof(int), ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("Destination data: %d", value);
    if (value != 123) {
        ERROR_LOG("Process B: expected 123");
        return -1;
    }
    int reply = 456;
    CHECK_ERROR(aclrtMemcpyAsync(static_cast<int *>(devPtr) + 1, sizeof(int), &reply, sizeof(int),
                                 ACL_MEMCPY_HOST_TO_DEVICE, stream));
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    if (aclrtFree(devPtr) == ACL_SUCCESS) {
        ERROR_LOG("Process B: aclrtFree accepted imported memory");
        return -1;
    }

    int32_t flag = 1;
    if (WriteFile("file/flag.bin", "file/flag.bin.done", &flag, sizeof(flag)) != 0) {
        return -1;
    }
    INFO_LOG("Process B: complete ipc memory sharing");
    CHECK_ERROR(aclrtIpcMemClose(memName));
    CHECK_ERROR(aclrtDestroyStreamForce(stream));
    CHECK_ERROR(aclrtResetDeviceForce(deviceId));
    CHECK_ERROR(aclFinalize());
    return 0;
}

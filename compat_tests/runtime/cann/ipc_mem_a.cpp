/*
 * IPC memory, exporting side, following CANN's runtime example "memory/10_ipc_memory_withpid" (proc_a): allocate
 * 1 MiB of device memory, write a value into it, export a key, allow process B's pid (read from file/pid.bin),
 * hand the key over in file/memName.bin and wait for B's completion flag. The example's write kernel is replaced by
 * a host-to-device copy (no custom kernels on this device). Extra checks: B's write into the shared memory is seen
 * here, and a process that is not allowed cannot import (B tries before it is allowed, see ipc_mem_b.cpp).
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

    uint64_t size = 1 * 1024 * 1024;
    int *devPtr = nullptr;
    CHECK_ERROR(aclrtMalloc((void **)&devPtr, size, ACL_MEM_MALLOC_HUGE_FIRST));
    int writeValue = 123;
    CHECK_ERROR(aclrtMemcpy(devPtr, sizeof(int), &writeValue, sizeof(int), ACL_MEMCPY_HOST_TO_DEVICE));
    INFO_LOG("Source data: %d", writeValue);

    char memName[256] = "name";
    size_t lenName = 65;
    CHECK_ERROR(aclrtIpcMemGetExportKey(devPtr, size, memName, lenName, 0));
    INFO_LOG("Process A: get the shareable memory identifier %s successfully", memName);
    /* the pointer is still this process's device memory, with its contents */
    int check = 0;
    CHECK_ERROR(aclrtMemcpy(&check, sizeof(int), devPtr, sizeof(int), ACL_MEMCPY_DEVICE_TO_HOST));
    if (check != writeValue) {
        ERROR_LOG("export changed the memory: %d", check);
        return -1;
    }

    int32_t pid = 0;
    if (ReadFile("file/pid.bin", "file/pid.bin.done", &pid, sizeof(pid)) != 0) {
        return -1;
    }
    INFO_LOG("Process A: Process B's pid = %d", pid);
    /* B first tries without being allowed (file/early.bin tells it the key) */
    if (WriteFile("file/early.bin", "file/early.bin.done", memName, strlen(memName) + 1) != 0) {
        return -1;
    }
    int32_t tried = 0;
    if (ReadFile("file/tried.bin", "file/tried.bin.done", &tried, sizeof(tried)) != 0) {
        return -1;
    }
    CHECK_ERROR(aclrtIpcMemSetImportPid(memName, &pid, 1));
    INFO_LOG("Process A: add Process B to the whitelist successfully");
    if (WriteFile("file/memName.bin", "file/memName.bin.done", memName, strlen(memName) + 1) != 0) {
        return -1;
    }

    int32_t flag = 0;
    if (ReadFile("file/flag.bin", "file/flag.bin.done", &flag, sizeof(flag)) != 0) {
        return -1;
    }
    INFO_LOG("Process A: completion signal from Process B = %d", flag);
    /* B wrote 456 at the second int of the shared block */
    CHECK_ERROR(aclrtMemcpy(&check, sizeof(int), devPtr + 1, sizeof(int), ACL_MEMCPY_DEVICE_TO_HOST));
    if (check != 456) {
        ERROR_LOG("Process A: B's write is not visible (%d)", check);
        return -1;
    }
    INFO_LOG("Process A: data written by Process B: %d", check);

    CHECK_ERROR(aclrtIpcMemClose(memName));
    CHECK_ERROR(aclrtDestroyStreamForce(stream));
    CHECK_ERROR(aclrtFree(devPtr));
    CHECK_ERROR(aclrtResetDeviceForce(deviceId));
    CHECK_ERROR(aclFinalize());
    return 0;
}

/*
 * IPC event, consumer side, following CANN's runtime example "ipcevent/0_ipcevent" (proc_b): read the handle,
 * open the event, make a stream wait for it, record it, and leave a flag file for the producer.
 * Extra check: a second record queued behind a host function stays "not ready" until that function returns, and
 * a wait of another stream of this process follows it.
 */
#include <cstdio>
#include <cstring>
#include <unistd.h>

#include "acl/acl.h"
#include "sample_utils.h"

#define EVENT_HANDLE_FILE "./event_handle.bin"
#define DONE_FILE "./consumer_done.flag"

static void Nap(void *arg)
{
    (void)arg;
    usleep(300 * 1000);
}

int32_t main()
{
    CHECK_ERROR(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ERROR(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ERROR(aclrtCreateStream(&stream));

    int timeout = 30;
    while (access(EVENT_HANDLE_FILE, F_OK) != 0 && timeout-- > 0) {
        sleep(1);
    }
    if (timeout <= 0) {
        ERROR_LOG("Timeout waiting for %s", EVENT_HANDLE_FILE);
        return -1;
    }
    aclrtIpcEventHandle handle;
    FILE *fp = fopen(EVENT_HANDLE_FILE, "rb");
    if (fp == nullptr || fread(&handle, sizeof(handle), 1, fp) != 1) {
        ERROR_LOG("Failed to read %s", EVENT_HANDLE_FILE);
        return -1;
    }
    fclose(fp);

    aclrtEvent ipcEvent = nullptr;
    CHECK_ERROR(aclrtIpcOpenEventHandle(handle, &ipcEvent));
    INFO_LOG("Process B: IPC event opened");
    /* the producer's record already completed */
    aclrtEventRecordedStatus status;
    CHECK_ERROR(aclrtQueryEventStatus(ipcEvent, &status));
    if (status != ACL_EVENT_RECORDED_STATUS_COMPLETE) {
        ERROR_LOG("Process B: the producer's record is not visible");
        return -1;
    }
    CHECK_ERROR(aclrtStreamWaitEvent(stream, ipcEvent));
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    INFO_LOG("Process B: event received, stream synchronized");

    /* a record behind slow work is pending until the work is done */
    aclrtStream other = nullptr;
    CHECK_ERROR(aclrtCreateStream(&other));
    CHECK_ERROR(aclrtLaunchHostFunc(stream, Nap, nullptr));
    CHECK_ERROR(aclrtRecordEvent(ipcEvent, stream));
    CHECK_ERROR(aclrtQueryEventStatus(ipcEvent, &status));
    if (status != ACL_EVENT_RECORDED_STATUS_NOT_READY) {
        ERROR_LOG("Process B: a record behind pending work reports complete");
        return -1;
    }
    CHECK_ERROR(aclrtStreamWaitEvent(other, ipcEvent));
    CHECK_ERROR(aclrtSynchronizeStream(other));
    CHECK_ERROR(aclrtQueryEventStatus(ipcEvent, &status));
    INFO_LOG("Process B: event status = %d (1=completed)", status);
    if (status != ACL_EVENT_RECORDED_STATUS_COMPLETE) {
        ERROR_LOG("Event status error");
        return -1;
    }
    CHECK_ERROR(aclrtSynchronizeEvent(ipcEvent));

    fp = fopen(DONE_FILE, "w");
    if (fp != nullptr) {
        fprintf(fp, "done");
        fclose(fp);
    }
    INFO_LOG("Process B: completion flag created");
    CHECK_ERROR(aclrtDestroyEvent(ipcEvent));
    CHECK_ERROR(aclrtDestroyStream(other));
    CHECK_ERROR(aclrtDestroyStream(stream));
    CHECK_ERROR(aclrtResetDevice(deviceId));
    CHECK_ERROR(aclFinalize());
    INFO_LOG("Process B: cleanup completed");
    return 0;
}

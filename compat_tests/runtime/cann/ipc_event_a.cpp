/*
 * IPC event, producer side, following CANN's runtime example "ipcevent/0_ipcevent" (proc_a): create an event with
 * ACL_EVENT_IPC, record it, export its handle into ./event_handle.bin, then wait for the consumer's flag file.
 * Extra check: after the consumer's record (made in the other process) this process sees the event complete, and a
 * stream of this process that waits on it goes through.
 */
#include <cstdio>
#include <cstring>
#include <unistd.h>

#include "acl/acl.h"
#include "sample_utils.h"

#define EVENT_HANDLE_FILE "./event_handle.bin"
#define DONE_FILE "./consumer_done.flag"

int main()
{
    CHECK_ERROR(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ERROR(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ERROR(aclrtCreateStream(&stream));

    aclrtEvent ipcEvent = nullptr;
    CHECK_ERROR(aclrtCreateEventExWithFlag(&ipcEvent, ACL_EVENT_IPC));
    INFO_LOG("Process A: IPC event created");

    CHECK_ERROR(aclrtRecordEvent(ipcEvent, stream));
    CHECK_ERROR(aclrtSynchronizeEvent(ipcEvent));
    aclrtEventRecordedStatus status;
    CHECK_ERROR(aclrtQueryEventStatus(ipcEvent, &status));
    if (status != ACL_EVENT_RECORDED_STATUS_COMPLETE) {
        ERROR_LOG("Event status error: expected 1, got %d", status);
        return -1;
    }
    INFO_LOG("Process A: event recorded, status = %d (1=completed)", status);

    aclrtIpcEventHandle handle;
    CHECK_ERROR(aclrtIpcGetEventHandle(ipcEvent, &handle));
    FILE *fp = fopen(EVENT_HANDLE_FILE ".tmp", "wb");
    if (fp == nullptr) {
        ERROR_LOG("Failed to create %s", EVENT_HANDLE_FILE);
        return -1;
    }
    fwrite(&handle, sizeof(handle), 1, fp);
    fclose(fp);
    rename(EVENT_HANDLE_FILE ".tmp", EVENT_HANDLE_FILE); /* the consumer never sees a half-written file */
    INFO_LOG("Process A: IPC event handle written to %s", EVENT_HANDLE_FILE);

    int timeout = 30;
    while (access(DONE_FILE, F_OK) != 0 && timeout-- > 0) {
        sleep(1);
    }
    if (timeout <= 0) {
        ERROR_LOG("Timeout waiting for consumer");
        return -1;
    }
    /* the consumer recorded the event again in its process: it is complete here too */
    CHECK_ERROR(aclrtStreamWaitEvent(stream, ipcEvent));
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    CHECK_ERROR(aclrtQueryEventStatus(ipcEvent, &status));
    if (status != ACL_EVENT_RECORDED_STATUS_COMPLETE) {
        ERROR_LOG("Process A: the consumer's record is not visible");
        return -1;
    }
    INFO_LOG("Process A: consumer finished");

    CHECK_ERROR(aclrtDestroyEvent(ipcEvent));
    CHECK_ERROR(aclrtDestroyStream(stream));
    CHECK_ERROR(aclrtResetDevice(deviceId));
    CHECK_ERROR(aclFinalize());
    remove(EVENT_HANDLE_FILE);
    remove(DONE_FILE);
    INFO_LOG("Process A: cleanup completed");
    return 0;
}

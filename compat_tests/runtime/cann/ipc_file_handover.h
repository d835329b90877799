/*
 * The file hand-over of CANN's IPC memory example, shared by its two processes (ipc_mem_a.cpp, ipc_mem_b.cpp):
 * WriteFile writes the data, then an empty "done" marker file; ReadFile waits up to 30 s for the marker, then
 * reads the data. Both return 0 on success and -1 on failure.
 */
#ifndef OA_COMPAT_IPC_FILE_HANDOVER_H
#define OA_COMPAT_IPC_FILE_HANDOVER_H

#include <cstdio>
#include <unistd.h>

#include "sample_utils.h"

static int WriteFile(const char *path, const char *done, const void *data, size_t size)
{
    FILE *fp = fopen(path, "wb");
    if (fp == nullptr || fwrite(data, 1, size, fp) != size) {
        ERROR_LOG("cannot write %s", path);
        return -1;
    }
    fclose(fp);
    fp = fopen(done, "wb");
    if (fp == nullptr) {
        return -1;
    }
    fclose(fp);
    return 0;
}

static int ReadFile(const char *path, const char *done, void *data, size_t size)
{
    for (int i = 0; i < 3000 && access(done, F_OK) != 0; ++i) {
        usleep(10 * 1000);
    }
    FILE *fp = fopen(path, "rb");
    if (fp == nullptr) {
        ERROR_LOG("cannot read %s", path);
        return -1;
    }
    size_t n = fread(data, 1, size, fp);
    fclose(fp);
    return n > 0 ? 0 : -1;
}

#endif

/*
 * Helpers shared by the single-operator compat programs (plain C, usable
 * from C++), written the way the Ascend op samples write theirs: CHECK with
 * aclGetRecentErrMsg, device tensors filled through aclrtMemcpy, fp16 via
 * aclFloatToFloat16, and atc --singleop run from $ASCEND_HOME_PATH/bin.
 */
#ifndef OP_COMPAT_H
#define OP_COMPAT_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"

#include "../common/compat_check.h"

/* A device tensor: description, device memory and its data buffer. */
typedef struct op_tensor {
    aclTensorDesc *desc;
    aclDataBuffer *buf;
    void *dev;
    size_t size;
} op_tensor;

static inline size_t op_elem_size(aclDataType dt)
{
    return aclDataTypeSize(dt);
}

static inline int op_tensor_make(op_tensor *t, aclDataType dt, int n, const int64_t *dims, aclFormat f,
                                 const void *host)
{
    memset(t, 0, sizeof(*t));
    t->desc = aclCreateTensorDesc(dt, n, dims, f);
    if (t->desc == NULL) {
        return 1;
    }
    t->size = aclGetTensorDescSize(t->desc);
    CHECK(aclrtMalloc(&t->dev, t->size > 0 ? t->size : 1, ACL_MEM_MALLOC_HUGE_FIRST));
    if (host != NULL && t->size > 0) {
        CHECK(aclrtMemcpy(t->dev, t->size, host, t->size, ACL_MEMCPY_HOST_TO_DEVICE));
    } else if (t->size > 0) {
        CHECK(aclrtMemset(t->dev, t->size, 0, t->size));
    }
    t->buf = aclCreateDataBuffer(t->dev, t->size);
    return t->buf == NULL;
}

static inline int op_tensor_read(const op_tensor *t, void *host)
{
    if (t->size > 0) {
        CHECK(aclrtMemcpy(host, t->size, t->dev, t->size, ACL_MEMCPY_DEVICE_TO_HOST));
    }
    return 0;
}

static inline void op_tensor_free(op_tensor *t)
{
    if (t->buf != NULL) {
        (void)aclDestroyDataBuffer(t->buf);
    }
    if (t->dev != NULL) {
        (void)aclrtFree(t->dev);
    }
    if (t->desc != NULL) {
        aclDestroyTensorDesc(t->desc);
    }
    memset(t, 0, sizeof(*t));
}

/* Deterministic pseudo-random values in [-1, 1). */
static inline void op_fill(float *v, size_t n, unsigned seed)
{
    unsigned s = seed * 2654435761u + 1u;
    for (size_t i = 0; i < n; ++i) {
        s = s * 1664525u + 1013904223u;
        v[i] = (float)((s >> 8) & 0xffff) / 32768.0f - 1.0f;
    }
}

static inline void op_to_f16(const float *src, aclFloat16 *dst, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        dst[i] = aclFloatToFloat16(src[i]);
    }
}

/* Largest |got - want| / (atol + rtol |want|) over n values; > 1 means out of tolerance. */
static inline double op_err(const float *got, const double *want, size_t n, double atol, double rtol)
{
    double worst = 0;
    for (size_t i = 0; i < n; ++i) {
        const double e = fabs((double)got[i] - want[i]) / (atol + rtol * fabs(want[i]));
        if (!(e <= worst)) {
            worst = e; /* NaN propagates */
        }
    }
    return worst;
}

/* A fresh scratch directory under /tmp (removed by op_rmdir). */
static inline int op_tmpdir(char *buf, size_t cap, const char *tag)
{
    snprintf(buf, cap, "/tmp/oa_compat_%s_XXXXXX", tag);
    return mkdtemp(buf) == NULL;
}

static inline void op_rmdir(const char *dir)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) {
        printf("warning: could not remove %s\n", dir);
    }
}

/* Writes json into dir/ops.json and runs atc --singleop into dir/out_sub; 0 on success. */
static inline int op_run_atc(const char *dir, const char *json, const char *out_sub)
{
    char path[1024], cmd[4096];
    snprintf(path, sizeof path, "%s/ops.json", dir);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        printf("FAIL cannot write %s\n", path);
        return 1;
    }
    fputs(json, f);
    fclose(f);
    const char *home = getenv("ASCEND_HOME_PATH");
    snprintf(cmd, sizeof cmd, "%s/bin/atc --singleop=%s --output=%s/%s --soc_version=Ascend310P3 > %s/atc.log 2>&1",
             home != NULL ? home : ".", path, dir, out_sub, dir);
    if (system(cmd) != 0) {
        snprintf(cmd, sizeof cmd, "cat %s/atc.log", dir);
        if (system(cmd) != 0) {
            printf("(no atc log)\n");
        }
        printf("FAIL atc --singleop failed\n");
        return 1;
    }
    return 0;
}

#endif

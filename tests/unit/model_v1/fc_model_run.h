/*
 * The small fc model of the v1_ew_models fixture (gen_fc_onnx.py compiled by atc: a [batch,8,4,4] input, a
 * [batch,24] output) run through the public API, shared by test_v1_ext_weights.c and tests/unit/dump's
 * test_dump_run.c: the generator's input formula and one synchronous execution. Include after <cmocka.h>.
 */
#ifndef OA_TESTS_FC_MODEL_RUN_H
#define OA_TESTS_FC_MODEL_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "support/acl_checks.h"

#include "acl/acl.h"

#define K1 128 /* input elements of one batch row (8 * 4 * 4) */
#define N2 24  /* output elements of one batch row */

static inline void fc_input(float *x, int batch)
{
    for (int i = 0; i < batch * K1; i++) {
        x[i] = (float)((i * 37) % 23 - 11) / 8.0f;
    }
}

/* Runs model id on x ([batch,8,4,4]; dyn: the shape is set on the input dataset); y gets batch * N2 floats. */
static inline void fc_run(uint32_t id, int batch, bool dyn, const float *x, float *y)
{
    const size_t xs = (size_t)batch * K1 * sizeof(float), ys = (size_t)batch * N2 * sizeof(float);
    void *dx = NULL, *dy = NULL;
    OK_ACL(aclrtMalloc(&dx, xs, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMalloc(&dy, ys, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMemcpy(dx, xs, x, xs, ACL_MEMCPY_HOST_TO_DEVICE));
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    aclDataBuffer *bx = aclCreateDataBuffer(dx, xs), *by = aclCreateDataBuffer(dy, ys);
    OK_ACL(aclmdlAddDatasetBuffer(in, bx));
    OK_ACL(aclmdlAddDatasetBuffer(out, by));
    if (dyn) {
        const int64_t dims[4] = {batch, 8, 4, 4};
        aclTensorDesc *td = aclCreateTensorDesc(ACL_FLOAT, 4, dims, ACL_FORMAT_NCHW);
        OK_ACL(aclmdlSetDatasetTensorDesc(in, td, 0));
        aclDestroyTensorDesc(td);
    }
    OK_ACL(aclmdlExecute(id, in, out));
    OK_ACL(aclrtMemcpy(y, ys, aclGetDataBufferAddr(aclmdlGetDatasetBuffer(out, 0)), ys, ACL_MEMCPY_DEVICE_TO_HOST));
    OK_ACL(aclDestroyDataBuffer(bx));
    OK_ACL(aclDestroyDataBuffer(by));
    OK_ACL(aclmdlDestroyDataset(in));
    OK_ACL(aclmdlDestroyDataset(out));
    OK_ACL(aclrtFree(dx));
    OK_ACL(aclrtFree(dy));
}

#endif

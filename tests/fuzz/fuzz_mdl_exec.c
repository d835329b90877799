/*
 * libFuzzer harness: a model image from an untrusted source through the
 * public API, as an application uses it: aclmdlLoadFromMem -> aclmdlGetDesc
 * (every getter) -> aclmdlExecute on zero-filled buffers of the described
 * sizes (dynamic inputs get 1 for every -1) -> aclmdlUnload. Every step must
 * return a code and never crash, leak, overflow or misalign (ASan + UBSan),
 * nor allocate what the file does not justify (-rss_limit_mb). Seeds: atc
 * output of static, dynamic, gear and FileConstant models and the ONNX
 * suite's node models (tests/fuzz/CMakeLists.txt).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Largest total of buffers one execution may use: bigger models are loaded and described, not run. */
#define RUN_LIMIT ((size_t)64 << 20)

static void describe(aclmdlDesc *d)
{
    const size_t ni = aclmdlGetNumInputs(d), no = aclmdlGetNumOutputs(d);
    for (size_t i = 0; i < ni + no; i++) {
        aclmdlIODims dims;
        const bool in = i < ni;
        const size_t k = in ? i : i - ni;
        (void)(in ? aclmdlGetInputDims(d, k, &dims) : aclmdlGetOutputDims(d, k, &dims));
        (void)(in ? aclmdlGetInputNameByIndex(d, k) : aclmdlGetOutputNameByIndex(d, k));
        (void)(in ? aclmdlGetInputFormat(d, k) : aclmdlGetOutputFormat(d, k));
        (void)(in ? aclmdlGetInputDataType(d, k) : aclmdlGetOutputDataType(d, k));
    }
    aclmdlBatch batch;
    (void)aclmdlGetDynamicBatch(d, &batch);
    aclmdlHW hw;
    (void)aclmdlGetDynamicHW(d, (size_t)-1, &hw);
    size_t gears = 0;
    (void)aclmdlGetInputDynamicGearCount(d, (size_t)-1, &gears);
}

static void execute(uint32_t id, aclmdlDesc *d)
{
    const size_t ni = aclmdlGetNumInputs(d), no = aclmdlGetNumOutputs(d);
    if (ni + no > 64) {
        return;
    }
    size_t total = 0;
    for (size_t i = 0; i < ni; i++) {
        total += aclmdlGetInputSizeByIndex(d, i);
    }
    for (size_t j = 0; j < no; j++) {
        total += aclmdlGetOutputSizeByIndex(d, j);
    }
    if (total > RUN_LIMIT) {
        return;
    }
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    void *mem[64] = {0};
    for (size_t i = 0; i < ni + no && in != NULL && out != NULL; i++) {
        const bool isin = i < ni;
        size_t len = isin ? aclmdlGetInputSizeByIndex(d, i)
                          : aclmdlGetOutputSizeByIndex(d, i - ni);
        if (len > 0 && aclrtMalloc(&mem[i], len, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS) {
            (void)aclrtMemset(mem[i], len, 0, len);
        } else {
            len = 0;
        }
        aclDataBuffer *b = aclCreateDataBuffer(mem[i], len);
        if (aclmdlAddDatasetBuffer(isin ? in : out, b) != ACL_SUCCESS) {
            (void)aclDestroyDataBuffer(b);
        }
        aclmdlIODims dims;
        if (isin && aclmdlGetInputDims(d, i, &dims) == ACL_SUCCESS && dims.dimCount <= ACL_MAX_DIM_CNT) {
            bool dynamic = false;
            for (size_t k = 0; k < dims.dimCount; k++) {
                if (dims.dims[k] < 0) {
                    dims.dims[k] = 1;
                    dynamic = true;
                }
            }
            if (dynamic) {
                aclTensorDesc *td = aclCreateTensorDesc(aclmdlGetInputDataType(d, i),
                                                        (int)dims.dimCount, dims.dims, ACL_FORMAT_ND);
                if (td != NULL) {
                    (void)aclmdlSetDatasetTensorDesc(in, td, i);
                    aclDestroyTensorDesc(td);
                }
            }
        }
    }
    (void)aclmdlExecute(id, in, out);
    for (size_t s = 0; s < 2; s++) {
        aclmdlDataset *ds = s == 0 ? in : out;
        const size_t n = aclmdlGetDatasetNumBuffers(ds);
        for (size_t i = 0; i < n; i++) {
            aclDataBuffer *b = aclmdlGetDatasetBuffer(ds, i);
            void *p = aclGetDataBufferAddr(b);
            bool ours = false;
            for (size_t k = 0; k < ni + no; k++) {
                ours = ours || (p != NULL && p == mem[k]);
            }
            if (p != NULL && !ours) {
                (void)aclrtFree(p); /* an output aclmdlExecute allocated */
            }
            (void)aclDestroyDataBuffer(b);
        }
    }
    (void)aclmdlDestroyDataset(in);
    (void)aclmdlDestroyDataset(out);
    for (size_t i = 0; i < ni + no; i++) {
        if (mem[i] != NULL) {
            (void)aclrtFree(mem[i]);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready) {
        if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
            __builtin_trap();
        }
        ready = 1;
    }
    /* a private copy the size of the input: the loader must not read past it */
    uint8_t *img = malloc(size ? size : 1);
    if (img == NULL) {
        return 0;
    }
    memcpy(img, data, size);
    size_t work = 0, weight = 0;
    (void)aclmdlQuerySizeFromMem(img, size, &work, &weight);
    uint32_t id = 0;
    if (aclmdlLoadFromMem(img, size, &id) == ACL_SUCCESS) {
        aclmdlDesc *d = aclmdlCreateDesc();
        if (d != NULL && aclmdlGetDesc(d, id) == ACL_SUCCESS) {
            describe(d);
            execute(id, d);
        }
        (void)aclmdlDestroyDesc(d);
        if (aclmdlUnload(id) != ACL_SUCCESS) {
            __builtin_trap(); /* a model that loaded must unload */
        }
    }
    free(img);
    return 0;
}

/*
 * Shared by the external_weights samples: error checks, input/output
 * datasets, running a model once and saving what it produced.
 */
#ifndef EXTERNAL_WEIGHTS_COMMON_H
#define EXTERNAL_WEIGHTS_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

#define CHECK(expr)                                                                       \
    do {                                                                                  \
        aclError ret_ = (expr);                                                           \
        if (ret_ != ACL_SUCCESS) {                                                        \
            const char *msg_ = aclGetRecentErrMsg();                                      \
            fprintf(stderr, "%s failed: %d %s\n", #expr, ret_, msg_ != NULL ? msg_ : ""); \
            return ret_;                                                                  \
        }                                                                                 \
    } while (0)

/* Reads a whole file into malloc'd memory; NULL (with a message) on failure. */
static inline void *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return NULL;
    }
    long n = ftell(f);
    rewind(f);
    void *buf = malloc(n > 0 ? (size_t)n : 1);
    if (buf == NULL || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) {
        fprintf(stderr, "cannot read %s\n", path);
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

/*
 * Runs model `id` once. Inputs come from input_path (every input's bytes one
 * after the other) or, without it, a fixed pattern; the outputs are written
 * one after the other to output_path (when given) and summarised on stdout.
 */
static inline aclError run_once(uint32_t id, const char *input_path, const char *output_path)
{
    aclmdlDesc *desc = aclmdlCreateDesc();
    CHECK(aclmdlGetDesc(desc, id));
    size_t n_in = aclmdlGetNumInputs(desc), n_out = aclmdlGetNumOutputs(desc);
    size_t in_file_size = 0, used = 0;
    unsigned char *in_file = NULL;
    if (input_path != NULL && (in_file = read_file(input_path, &in_file_size)) == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    for (size_t i = 0; i < n_in; i++) {
        size_t size = aclmdlGetInputSizeByIndex(desc, i);
        void *dev = NULL, *host = malloc(size ? size : 1);
        CHECK(aclrtMalloc(&dev, size ? size : 1, ACL_MEM_MALLOC_HUGE_FIRST));
        if (in_file != NULL) {
            if (used + size > in_file_size) {
                fprintf(stderr, "%s holds %zu bytes, the inputs need more\n", input_path, in_file_size);
                return ACL_ERROR_INVALID_PARAM;
            }
            memcpy(host, in_file + used, size);
            used += size;
        } else {
            /* a deterministic pattern: small floats for float inputs, bytes otherwise */
            if (aclmdlGetInputDataType(desc, i) == ACL_FLOAT) {
                for (size_t k = 0; k < size / 4; k++) {
                    ((float *)host)[k] = (float)((k * 7) % 255) / 255.0f - 0.5f;
                }
            } else {
                memset(host, 1, size);
            }
        }
        CHECK(aclrtMemcpy(dev, size ? size : 1, host, size, ACL_MEMCPY_HOST_TO_DEVICE));
        free(host);
        CHECK(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(dev, size)));
    }
    free(in_file);
    for (size_t i = 0; i < n_out; i++) {
        size_t size = aclmdlGetOutputSizeByIndex(desc, i);
        void *dev = NULL;
        CHECK(aclrtMalloc(&dev, size ? size : 1, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(dev, size)));
    }
    CHECK(aclmdlExecute(id, in, out));
    FILE *of = output_path != NULL ? fopen(output_path, "wb") : NULL;
    if (output_path != NULL && of == NULL) {
        perror(output_path);
        return ACL_ERROR_INVALID_PARAM;
    }
    for (size_t i = 0; i < n_out; i++) {
        aclDataBuffer *b = aclmdlGetDatasetBuffer(out, i);
        size_t size = aclGetDataBufferSizeV2(b);
        void *host = malloc(size ? size : 1);
        CHECK(aclrtMemcpy(host, size ? size : 1, aclGetDataBufferAddr(b), size, ACL_MEMCPY_DEVICE_TO_HOST));
        double sum = 0;
        if (aclmdlGetOutputDataType(desc, i) == ACL_FLOAT) {
            for (size_t k = 0; k < size / 4; k++) {
                sum += ((const float *)host)[k];
            }
        }
        printf("output %zu: %zu bytes, sum %.6f\n", i, size, sum);
        if (of != NULL && fwrite(host, 1, size, of) != size) {
            fprintf(stderr, "cannot write %s\n", output_path);
            return ACL_ERROR_INVALID_PARAM;
        }
        free(host);
    }
    if (of != NULL && fclose(of) != 0) {
        return ACL_ERROR_INVALID_PARAM;
    }
    for (size_t i = 0; i < n_in; i++) {
        aclDataBuffer *b = aclmdlGetDatasetBuffer(in, i);
        CHECK(aclrtFree(aclGetDataBufferAddr(b)));
        CHECK(aclDestroyDataBuffer(b));
    }
    for (size_t i = 0; i < n_out; i++) {
        aclDataBuffer *b = aclmdlGetDatasetBuffer(out, i);
        CHECK(aclrtFree(aclGetDataBufferAddr(b)));
        CHECK(aclDestroyDataBuffer(b));
    }
    CHECK(aclmdlDestroyDataset(in));
    CHECK(aclmdlDestroyDataset(out));
    CHECK(aclmdlDestroyDesc(desc));
    return ACL_SUCCESS;
}

#endif /* EXTERNAL_WEIGHTS_COMMON_H */

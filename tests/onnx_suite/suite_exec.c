/*
 * suite_exec: runs one .om on raw input files through the public ACL API
 * only, as an application does, for the ONNX backend suite runner
 * (onnx_suite.py). Linked against the installed libascendcl (the runner sets
 * LD_LIBRARY_PATH to <prefix>/lib64).
 *
 *   suite_exec MODEL.om OUTDIR OUTBYTES IN0.bin IN1.bin ...
 *
 * OUTBYTES is a comma-separated byte count per output: the buffer given to
 * aclmdlExecute when aclmdlGetOutputSizeByIndex reports 0 (an output whose
 * shape is only known at run time; the user sizes it, as with msame's
 * --outputSize). After the execution each output's bytes are written to
 * OUTDIR/out_<j>.bin: as many as aclmdlGetDatasetTensorDesc says the result
 * holds when the model gives a tensor desc, else the whole buffer.
 * Exit status 0 on success, 1 with "[ERROR] ..." on stderr otherwise.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

#define MAX_IO 64

#define CHECK(expr)                                                                                \
    do {                                                                                           \
        aclError ret_ = (expr);                                                                    \
        if (ret_ != ACL_SUCCESS) {                                                                 \
            const char *m_ = aclGetRecentErrMsg();                                                 \
            fprintf(stderr, "[ERROR] %s failed: %d (%s)\n", #expr, ret_, m_ != NULL ? m_ : "");     \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

static void *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    void *buf = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc(n > 0 ? (size_t)n : 1);
        if (buf != NULL && n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            buf = NULL;
        }
    }
    fclose(f);
    *size = n > 0 ? (size_t)n : 0;
    return buf;
}

static int run(int argc, char **argv)
{
    const char *model = argv[1], *outdir = argv[2];
    size_t out_bytes[MAX_IO] = {0}, n_ob = 0;
    for (char *p = argv[3]; *p != '\0' && n_ob < MAX_IO;) {
        char *end;
        out_bytes[n_ob++] = (size_t)strtoull(p, &end, 10);
        p = *end == ',' ? end + 1 : end;
        if (end == p && *p != '\0') {
            break;
        }
    }
    uint32_t id;
    CHECK(aclmdlLoadFromFile(model, &id));
    aclmdlDesc *desc = aclmdlCreateDesc();
    if (desc == NULL) {
        fprintf(stderr, "[ERROR] aclmdlCreateDesc failed\n");
        return 1;
    }
    CHECK(aclmdlGetDesc(desc, id));
    const size_t n_in = aclmdlGetNumInputs(desc), n_out = aclmdlGetNumOutputs(desc);
    const size_t given = (size_t)(argc - 4);
    if (n_in != given || n_out > MAX_IO) {
        fprintf(stderr, "[ERROR] the model has %zu inputs and %zu outputs, %zu input files given\n", n_in, n_out, given);
        return 1;
    }
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    void *bufs[2 * MAX_IO];
    size_t nb = 0;
    for (size_t i = 0; i < n_in; i++) {
        size_t size;
        void *host = read_file(argv[4 + i], &size);
        if (host == NULL) {
            fprintf(stderr, "[ERROR] cannot read %s\n", argv[4 + i]);
            return 1;
        }
        void *dev;
        CHECK(aclrtMalloc(&dev, size ? size : 1, ACL_MEM_MALLOC_HUGE_FIRST));
        if (size > 0) {
            CHECK(aclrtMemcpy(dev, size, host, size, ACL_MEMCPY_HOST_TO_DEVICE));
        }
        free(host);
        bufs[nb++] = dev;
        CHECK(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(dev, size)));
    }
    size_t cap[MAX_IO];
    for (size_t j = 0; j < n_out; j++) {
        cap[j] = aclmdlGetOutputSizeByIndex(desc, j);
        /* 0 bytes: an empty static output, or a shape known only at run time (a -1 dim) */
        aclmdlIODims dims;
        bool dynamic = aclmdlGetOutputDims(desc, j, &dims) != ACL_SUCCESS;
        for (size_t k = 0; !dynamic && k < dims.dimCount; k++) {
            dynamic = dims.dims[k] < 0;
        }
        if (cap[j] == 0 && dynamic && j < n_ob) {
            cap[j] = out_bytes[j];
        }
        void *dev;
        CHECK(aclrtMalloc(&dev, cap[j] ? cap[j] : 1, ACL_MEM_MALLOC_HUGE_FIRST));
        bufs[nb++] = dev;
        CHECK(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(dev, cap[j])));
    }
    CHECK(aclmdlExecute(id, in, out));
    for (size_t j = 0; j < n_out; j++) {
        size_t size = cap[j];
        aclTensorDesc *td = aclmdlGetDatasetTensorDesc(out, j);
        if (td != NULL) {
            const size_t real = aclGetTensorDescSize(td);
            if (real <= cap[j]) {
                size = real;
            }
        }
        void *host = malloc(size ? size : 1);
        if (host == NULL) {
            return 1;
        }
        aclDataBuffer *db = aclmdlGetDatasetBuffer(out, j);
        if (size > 0) {
            CHECK(aclrtMemcpy(host, size, aclGetDataBufferAddr(db), size, ACL_MEMCPY_DEVICE_TO_HOST));
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/out_%zu.bin", outdir, j);
        FILE *f = fopen(path, "wb");
        if (f == NULL || fwrite(host, 1, size, f) != size) {
            fprintf(stderr, "[ERROR] cannot write %s\n", path);
            if (f != NULL) {
                fclose(f);
            }
            free(host);
            return 1;
        }
        fclose(f);
        free(host);
    }
    for (size_t i = 0; i < n_in; i++) {
        CHECK(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(in, i)));
    }
    for (size_t j = 0; j < n_out; j++) {
        CHECK(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(out, j)));
    }
    for (size_t k = 0; k < nb; k++) {
        CHECK(aclrtFree(bufs[k]));
    }
    CHECK(aclmdlDestroyDataset(in));
    CHECK(aclmdlDestroyDataset(out));
    CHECK(aclmdlDestroyDesc(desc));
    CHECK(aclmdlUnload(id));
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: suite_exec MODEL.om OUTDIR OUTBYTES [IN.bin ...]\n");
        return 2;
    }
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
        fprintf(stderr, "[ERROR] aclInit / aclrtSetDevice failed: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    int rc = run(argc, argv);
    (void)aclrtResetDevice(0);
    (void)aclFinalize();
    return rc;
}

/*
 * Runs a dynamic-shape .om on several input sets in one process and checks
 * every float32 output against a reference file (ONNX Runtime's result on
 * the same input): relative L2 <= 1e-4.
 *
 *   dyn_check MODEL.om [--repeat N] [--async-v2] CASE [-- CASE ...]
 *   CASE = -i FILE DIMS [-i FILE DIMS ...] -r REF [-r REF ...]
 *
 * Input shapes go through aclmdlSetDatasetTensorDesc; outputs are
 * allocated from aclmdlGetOutputSizeByIndex (the range maximum); each
 * output's real shape is read back with aclmdlGetDatasetTensorDesc.
 * --async-v2 runs aclmdlExecuteAsyncV2 (with an exec config) on a stream
 * and synchronises it; asynchronous runs never allocate outputs, so an
 * output without a bounded size gets its reference's size, as an
 * application that knows its shapes would allocate it.
 */
#include "dyn_util.h"

#define MAXIO 1024

typedef struct dcase {
    int n_in, n_ref;
    const char *in[MAXIO];
    int64_t dims[MAXIO][8];
    int nd[MAXIO];
    const char *ref[MAXIO];
} dcase;

static int run_case(uint32_t id, aclmdlDesc *desc, const dcase *c, int repeat, aclrtStream stream,
                    const aclmdlExecConfigHandle *cfg)
{
    size_t n_in = aclmdlGetNumInputs(desc), n_out = aclmdlGetNumOutputs(desc);
    if ((size_t)c->n_in != n_in) {
        DYN_FAIL("model has %zu inputs, %d given", n_in, c->n_in);
    }
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    static void *dev_in[MAXIO], *dev_out[MAXIO];
    for (int i = 0; i < c->n_in; ++i) {
        size_t sz;
        void *host = dyn_read_file(c->in[i], &sz);
        dev_in[i] = dyn_dev_copy(host, sz);
        free(host);
        DYN_CHECK(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(dev_in[i], sz)));
        aclTensorDesc *td = aclCreateTensorDesc(aclmdlGetInputDataType(desc, (size_t)i), c->nd[i], c->dims[i],
                                                aclmdlGetInputFormat(desc, (size_t)i));
        DYN_CHECK(aclmdlSetDatasetTensorDesc(in, td, (size_t)i));
        aclDestroyTensorDesc(td);
    }
    for (size_t k = 0; k < n_out; ++k) {
        /* an output without a bounded size: NULL, the synchronous execution allocates it */
        size_t sz = aclmdlGetOutputSizeByIndex(desc, k);
        if (sz == 0 && cfg != NULL && (int)k < c->n_ref) {
            free(dyn_read_file(c->ref[k], &sz));
        }
        dev_out[k] = NULL;
        if (sz > 0) {
            DYN_CHECK(aclrtMalloc(&dev_out[k], sz, ACL_MEM_MALLOC_HUGE_FIRST));
        }
        DYN_CHECK(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(dev_out[k], sz)));
    }
    for (int r = 0; r < repeat; ++r) {
        if (cfg != NULL) {
            DYN_CHECK(aclmdlExecuteAsyncV2(id, in, out, stream, cfg));
            DYN_CHECK(aclrtSynchronizeStream(stream));
        } else {
            DYN_CHECK(aclmdlExecute(id, in, out));
        }
    }
    for (size_t k = 0; k < n_out; ++k) {
        dev_out[k] = aclGetDataBufferAddr(aclmdlGetDatasetBuffer(out, k));
    }
    int bad = 0;
    for (int k = 0; k < c->n_ref && (size_t)k < n_out; ++k) {
        aclTensorDesc *od = aclmdlGetDatasetTensorDesc(out, (size_t)k);
        if (od == NULL) {
            DYN_FAIL("output %d has no tensor description", k);
        }
        size_t numel = aclGetTensorDescElementCount(od);
        size_t rsz;
        float *ref = dyn_read_file(c->ref[k], &rsz);
        if (rsz != numel * sizeof(float)) {
            fprintf(stderr, "output %d: %zu elements, reference %zu\n", k, numel, rsz / sizeof(float));
            bad = 1;
            free(ref);
            continue;
        }
        float *host = malloc(rsz ? rsz : 1);
        DYN_CHECK(aclrtMemcpy(host, rsz, dev_out[k], rsz, ACL_MEMCPY_DEVICE_TO_HOST));
        double e = dyn_rel_l2(host, ref, numel);
        if (getenv("DYN_DUMP_DIR") != NULL) {
            char path[1024];
            snprintf(path, sizeof path, "%s/out%d.bin", getenv("DYN_DUMP_DIR"), k);
            dyn_write_file(path, host, rsz);
        }
        printf("  output %d: dims [", k);
        for (size_t d = 0; d < aclGetTensorDescNumDims(od); ++d) {
            int64_t v;
            aclGetTensorDescDimV2(od, d, &v);
            printf("%s%lld", d ? "," : "", (long long)v);
        }
        printf("] rel L2 %.3g\n", e);
        if (!(e <= 1e-4)) {
            bad = 1;
        }
        free(host);
        free(ref);
    }
    for (int i = 0; i < c->n_in; ++i) {
        aclDestroyDataBuffer(aclmdlGetDatasetBuffer(in, (size_t)i));
        aclrtFree(dev_in[i]);
    }
    for (size_t k = 0; k < n_out; ++k) {
        aclDestroyDataBuffer(aclmdlGetDatasetBuffer(out, k));
        aclrtFree(dev_out[k]);
    }
    aclmdlDestroyDataset(in);
    aclmdlDestroyDataset(out);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s MODEL.om [--repeat N] [--async-v2] -i FILE DIMS ... -r REF ... [-- ...]\n", argv[0]);
        return 2;
    }
    int repeat = 1, a = 2;
    if (strcmp(argv[a], "--repeat") == 0 && a + 1 < argc) {
        repeat = atoi(argv[a + 1]);
        a += 2;
    }
    int async_v2 = 0;
    if (a < argc && strcmp(argv[a], "--async-v2") == 0) {
        async_v2 = 1;
        a++;
    }
    DYN_CHECK(aclInit(NULL));
    DYN_CHECK(aclrtSetDevice(0));
    aclrtStream stream = NULL;
    aclmdlExecConfigHandle *cfg = NULL;
    if (async_v2) {
        DYN_CHECK(aclrtCreateStream(&stream));
        cfg = aclmdlCreateExecConfigHandle();
        if (cfg == NULL) {
            DYN_FAIL("aclmdlCreateExecConfigHandle failed");
        }
    }
    uint32_t id = 0;
    DYN_CHECK(aclmdlLoadFromFile(argv[1], &id));
    aclmdlDesc *desc = aclmdlCreateDesc();
    DYN_CHECK(aclmdlGetDesc(desc, id));
    printf("model %s: id %u\n", argv[1], id);
    int bad = 0, ncase = 0;
    while (a < argc) {
        static dcase c;
        memset(&c, 0, sizeof c);
        while (a < argc && strcmp(argv[a], "--") != 0) {
            if (strcmp(argv[a], "-i") == 0 && a + 2 < argc && c.n_in < MAXIO) {
                c.in[c.n_in] = argv[a + 1];
                c.nd[c.n_in] = dyn_parse_dims(argv[a + 2], c.dims[c.n_in], 8);
                c.n_in++;
                a += 3;
            } else if (strcmp(argv[a], "-r") == 0 && a + 1 < argc && c.n_ref < MAXIO) {
                c.ref[c.n_ref++] = argv[a + 1];
                a += 2;
            } else {
                DYN_FAIL("bad argument %s", argv[a]);
            }
        }
        a++;
        printf("case %d:\n", ncase++);
        bad |= run_case(id, desc, &c, repeat, stream, cfg);
    }
    aclmdlDestroyDesc(desc);
    DYN_CHECK(aclmdlUnload(id));
    if (async_v2) {
        DYN_CHECK(aclmdlDestroyExecConfigHandle(cfg));
        DYN_CHECK(aclrtDestroyStream(stream));
    }
    DYN_CHECK(aclrtResetDevice(0));
    DYN_CHECK(aclFinalize());
    printf("%s\n", bad ? "FAILED" : "OK");
    return bad;
}

/*
 * Runs a dynamic-shape .om on several input sets in one process and checks
 * every float32 output against a reference file (ONNX Runtime's result on
 * the same input): relative L2 <= 1e-4.
 *
 *   dyn_check MODEL.om [--repeat N] [--small-out] [--reject DIMS]... [--async-v2] CASE [-- CASE ...]
 *   CASE = -i FILE DIMS [-i FILE DIMS ...] -r REF [-r REF ...]
 *
 * Input shapes go through aclmdlSetDatasetTensorDesc; outputs are
 * allocated from aclmdlGetOutputSizeByIndex (the range maximum); each
 * output's real shape is read back with aclmdlGetDatasetTensorDesc.
 *
 * --reject DIMS: before the cases, the first case's inputs with input 0
 *   described as DIMS (outside the model's shape range, fewer elements
 *   than the buffer) must fail with ACL_ERROR_INVALID_PARAM naming the
 *   range; the cases then run on the same model.
 * --small-out: each case also runs with output 0's buffer 4 bytes smaller
 *   than the reference (before its first execution: the dynamic path; after
 *   it: the planned path): ACL_ERROR_INVALID_PARAM naming the output, and
 *   nothing written past the declared size (a canary after it).
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

#define CANARY 0xA5
#define GUARD 256

/* One execution with output 0's buffer 4 bytes smaller than the result. */
static int small_output(uint32_t id, aclmdlDataset *in, const dcase *c, size_t n_out, const char *when)
{
    size_t need;
    free(dyn_read_file(c->ref[0], &need));
    if (n_out != 1 || need < 8) {
        DYN_FAIL("--small-out needs a model with one output (%zu) of at least 8 bytes (%zu)", n_out, need);
    }
    const size_t declared = need - 4, total = need + GUARD;
    void *guard = NULL;
    DYN_CHECK(aclrtMalloc(&guard, total, ACL_MEM_MALLOC_HUGE_FIRST));
    DYN_CHECK(aclrtMemset(guard, total, CANARY, total));
    aclmdlDataset *out = aclmdlCreateDataset();
    DYN_CHECK(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(guard, declared)));
    aclError e = aclmdlExecute(id, in, out);
    char msg_copy[1024] = "";
    const char *msg = aclGetRecentErrMsg();
    if (msg != NULL) { /* kept before any other call can replace it */
        snprintf(msg_copy, sizeof msg_copy, "%s", msg);
        msg = msg_copy;
    }
    unsigned char *host = malloc(total);
    DYN_CHECK(aclrtMemcpy(host, total, guard, total, ACL_MEMCPY_DEVICE_TO_HOST));
    size_t past = 0;
    for (size_t i = declared; i < total; ++i) {
        past += host[i] != CANARY;
    }
    int bad = e != ACL_ERROR_INVALID_PARAM || msg == NULL || strstr(msg, "output 0") == NULL || past != 0;
    printf("  output buffer of %zu bytes for %zu (%s): error %d, %zu bytes written past it%s\n", declared, need,
           when, (int)e, past, bad ? "  <-- expected 100000, a message naming output 0, 0 bytes" : "");
    if (bad) {
        fprintf(stderr, "    message: %s\n", msg ? msg : "(none)");
    }
    free(host);
    aclDestroyDataBuffer(aclmdlGetDatasetBuffer(out, 0));
    aclmdlDestroyDataset(out);
    aclrtFree(guard);
    return bad;
}

static int run_case(uint32_t id, aclmdlDesc *desc, const dcase *c, int repeat, int small_out,
                    const int64_t *reject, int reject_nd, aclrtStream stream, const aclmdlExecConfigHandle *cfg)
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
        const int use_reject = reject != NULL && i == 0;
        aclTensorDesc *td = aclCreateTensorDesc(aclmdlGetInputDataType(desc, (size_t)i),
                                                use_reject ? reject_nd : c->nd[i], use_reject ? reject : c->dims[i],
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
    int bad = 0;
    const int check = reject == NULL; /* a normal case: execute and compare */
    if (!check) {
        aclError e = aclmdlExecute(id, in, out);
        const char *msg = aclGetRecentErrMsg();
        bad = e != ACL_ERROR_INVALID_PARAM || msg == NULL || strstr(msg, "range") == NULL;
        printf("  input 0 as [");
        for (int d = 0; d < reject_nd; ++d) {
            printf("%s%lld", d ? "," : "", (long long)reject[d]);
        }
        printf("]: error %d (%s)%s\n", (int)e, msg ? msg : "", bad ? "  <-- expected 100000 naming the range" : "");
    }
    if (check && small_out) {
        bad |= small_output(id, in, c, n_out, "first run of the shape");
    }
    for (int r = 0; check && r < repeat; ++r) {
        if (cfg != NULL) {
            DYN_CHECK(aclmdlExecuteAsyncV2(id, in, out, stream, cfg));
            DYN_CHECK(aclrtSynchronizeStream(stream));
        } else {
            DYN_CHECK(aclmdlExecute(id, in, out));
        }
    }
    if (check && small_out) {
        bad |= small_output(id, in, c, n_out, "repeated shape");
    }
    for (size_t k = 0; k < n_out; ++k) {
        dev_out[k] = aclGetDataBufferAddr(aclmdlGetDatasetBuffer(out, k));
    }
    for (int k = 0; check && k < c->n_ref && (size_t)k < n_out; ++k) {
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
        if (dev_out[k] != NULL) { /* NULL: a rejected run allocated nothing */
            aclrtFree(dev_out[k]);
        }
    }
    aclmdlDestroyDataset(in);
    aclmdlDestroyDataset(out);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s MODEL.om [--repeat N] [--small-out] [--reject DIMS]... [--async-v2] -i FILE DIMS ... "
                        "-r REF ... [-- ...]\n", argv[0]);
        return 2;
    }
    int repeat = 1, a = 2, small_out = 0, n_reject = 0;
    int64_t reject[8][8];
    int reject_nd[8];
    for (;;) {
        if (a + 1 < argc && strcmp(argv[a], "--repeat") == 0) {
            repeat = atoi(argv[a + 1]);
            a += 2;
        } else if (a < argc && strcmp(argv[a], "--small-out") == 0) {
            small_out = 1;
            a += 1;
        } else if (a + 1 < argc && strcmp(argv[a], "--reject") == 0 && n_reject < 8) {
            reject_nd[n_reject] = dyn_parse_dims(argv[a + 1], reject[n_reject], 8);
            n_reject++;
            a += 2;
        } else {
            break;
        }
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
        for (int r = 0; ncase == 0 && r < n_reject; ++r) {
            printf("rejected shape %d:\n", r);
            bad |= run_case(id, desc, &c, 0, 0, reject[r], reject_nd[r], NULL, NULL);
        }
        printf("case %d:\n", ncase++);
        bad |= run_case(id, desc, &c, repeat, small_out, NULL, 0, stream, cfg);
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

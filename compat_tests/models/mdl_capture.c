/*
 * A model execution captured and replayed as frameworks do it (aclmdlRI*):
 * upload, aclmdlExecuteAsync and download recorded once on a stream, then
 * replayed on other streams with new inputs written into the captured
 * page-locked buffer; a second instance holding the execution alone shares
 * the model's work-memory pool. Every replay is checked against ONNX
 * Runtime (relative L2 <= 1e-4); a replay on another input must differ.
 *
 *   mdl_capture MODEL.om INPUT.bin REF_DIR [D0,D1,...]
 *
 * D0,D1,...: the input shape of a dynamic model (given with
 * aclmdlSetDatasetTensorDesc); the output size is the reference's.
 */
#include "mdl_compat.h"

int main(int argc, char **argv)
{
    if (argc != 4 && argc != 5) {
        printf("usage: mdl_capture MODEL.om INPUT.bin REF_DIR [D0,D1,...]\n");
        return 2;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    uint32_t id = 0;
    CHECK(aclmdlLoadFromFile(argv[1], &id));
    aclmdlDesc *desc = aclmdlCreateDesc();
    CHECK(aclmdlGetDesc(desc, id));
    REQUIRE(aclmdlGetNumInputs(desc) == 1 && aclmdlGetNumOutputs(desc) == 1, "one input, one output");
    size_t in_size = 0, out_size = 0;
    void *image = mc_read_file(argv[2], &in_size);
    float *ref = mc_read_ref(argv[3], aclmdlGetOutputNameByIndex(desc, 0), &out_size);
    REQUIRE(image != NULL && ref != NULL && in_size > 0 && out_size > 0, "input or reference missing");
    if (argc == 4) {
        REQUIRE(in_size == aclmdlGetInputSizeByIndex(desc, 0), "input of %zu bytes", in_size);
    }
    void *host_in = NULL, *host_out = NULL, *dev_in = NULL, *dev_out = NULL;
    CHECK(aclrtMallocHost(&host_in, in_size));
    CHECK(aclrtMallocHost(&host_out, out_size));
    CHECK(aclrtMalloc(&dev_in, in_size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dev_out, out_size, ACL_MEM_MALLOC_HUGE_FIRST));
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    CHECK(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(dev_in, in_size)));
    CHECK(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(dev_out, out_size)));
    if (argc == 5) {
        int64_t dims[8];
        int rank = 0;
        for (char *p = argv[4]; *p != '\0' && rank < 8;) {
            dims[rank++] = strtoll(p, &p, 10);
            p += *p == ',';
        }
        aclTensorDesc *td = aclCreateTensorDesc(ACL_FLOAT, rank, dims, ACL_FORMAT_ND);
        CHECK(aclmdlSetDatasetTensorDesc(in, td, 0));
        aclDestroyTensorDesc(td);
    }
    aclrtStream cap = NULL, s1 = NULL, s2 = NULL;
    CHECK(aclrtCreateStream(&cap));
    CHECK(aclrtCreateStream(&s1));
    CHECK(aclrtCreateStream(&s2));

    aclmdlRI full = NULL, exec_only = NULL;
    CHECK(aclmdlRICaptureBegin(cap, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(aclrtMemcpyAsync(dev_in, in_size, host_in, in_size, ACL_MEMCPY_HOST_TO_DEVICE, cap));
    CHECK(aclmdlExecuteAsync(id, in, out, cap));
    CHECK(aclrtMemcpyAsync(host_out, out_size, dev_out, out_size, ACL_MEMCPY_DEVICE_TO_HOST, cap));
    CHECK(aclmdlRICaptureEnd(cap, &full));
    CHECK(aclmdlRICaptureBegin(cap, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(aclmdlExecuteAsync(id, in, out, cap));
    CHECK(aclmdlRICaptureEnd(cap, &exec_only));
    /* the application's datasets are not needed by the replays */
    CHECK(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(in, 0)));
    CHECK(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(out, 0)));
    CHECK(aclmdlDestroyDataset(in));
    CHECK(aclmdlDestroyDataset(out));

    const size_t n = out_size / sizeof(float);
    int bad = 0;
    for (int r = 0; r < 4; ++r) {
        const int zero = r == 1; /* another input: the replay must read the buffer again */
        if (zero) {
            memset(host_in, 0, in_size);
        } else {
            memcpy(host_in, image, in_size);
        }
        memset(host_out, 0, out_size);
        aclrtStream s = r % 2 ? s2 : s1;
        CHECK(aclmdlRIExecuteAsync(full, s));
        CHECK(aclrtSynchronizeStream(s));
        if (zero) {
            const double rel = mc_rel_l2(host_out, ref, n);
            printf("replay %d on a zero input: relative L2 to the reference %.3g\n", r, rel);
            REQUIRE(rel > 1e-6, "the replay did not read the new input");
        } else {
            char what[64];
            snprintf(what, sizeof what, "replay %d", r);
            bad |= mc_compare(what, host_out, ref, n);
        }
    }
    /* the second instance on the same pool: dev_in holds the image again */
    CHECK(aclrtMemset(dev_out, out_size, 0, out_size));
    CHECK(aclmdlRIExecuteAsync(exec_only, s2));
    CHECK(aclrtSynchronizeStream(s2));
    CHECK(aclrtMemcpy(host_out, out_size, dev_out, out_size, ACL_MEMCPY_DEVICE_TO_HOST));
    bad |= mc_compare("second instance", host_out, ref, n);

    CHECK(aclmdlRIDestroy(full));
    CHECK(aclmdlRIDestroy(exec_only));
    CHECK(aclmdlUnload(id));
    CHECK(aclmdlDestroyDesc(desc));
    CHECK(aclrtFree(dev_in));
    CHECK(aclrtFree(dev_out));
    CHECK(aclrtFreeHost(host_in));
    CHECK(aclrtFreeHost(host_out));
    CHECK(aclrtDestroyStream(cap));
    CHECK(aclrtDestroyStream(s1));
    CHECK(aclrtDestroyStream(s2));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    free(image);
    free(ref);
    printf(bad ? "FAIL\n" : "capture and replay match ONNX Runtime\n");
    return bad;
}

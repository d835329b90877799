/*
 * Loading into the application's own memory, as the hicann/ge samples do:
 * aclmdlQuerySize, aclrtMalloc of exactly those sizes,
 * aclmdlLoadFromFileWithMem, execution with output buffers left for ACL to
 * allocate (NULL data), and the same from memory (aclmdlQuerySizeFromMem,
 * aclmdlLoadFromMemWithMem with the image freed right after the load).
 * Too-small work or weight memory is ACL_ERROR_GE_PARAM_INVALID; unloading
 * leaves the application's memory to the application.
 *
 *   mdl_withmem MODEL.om INPUT.bin REF_DIR   (a one-input model)
 */
#include "mdl_compat.h"

static int run_and_check(uint32_t id, aclmdlDesc *desc, void *dev_in, size_t in_size, const char *ref_dir)
{
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    CHECK(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(dev_in, in_size)));
    const size_t n_out = aclmdlGetNumOutputs(desc);
    for (size_t j = 0; j < n_out; j++) {
        CHECK(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(NULL, 0)));
    }
    CHECK(aclmdlExecute(id, in, out));
    int bad = 0;
    for (size_t j = 0; j < n_out; j++) {
        aclDataBuffer *b = aclmdlGetDatasetBuffer(out, j);
        const size_t size = aclGetDataBufferSizeV2(b);
        REQUIRE(aclGetDataBufferAddr(b) != NULL && size == aclmdlGetOutputSizeByIndex(desc, j),
                "output %zu: ACL allocates the model's output size for a NULL buffer", j);
        void *host = malloc(size);
        CHECK(aclrtMemcpy(host, size, aclGetDataBufferAddr(b), size, ACL_MEMCPY_DEVICE_TO_HOST));
        size_t rsize = 0;
        float *ref = mc_read_ref(ref_dir, aclmdlGetOutputNameByIndex(desc, j), &rsize);
        REQUIRE(ref != NULL && rsize == size, "reference of output %zu", j);
        char what[64];
        snprintf(what, sizeof what, "model %u output %zu", id, j);
        bad |= mc_compare(what, host, ref, size / sizeof(float));
        free(ref);
        free(host);
        CHECK(aclrtFree(aclGetDataBufferAddr(b)));
        CHECK(aclDestroyDataBuffer(b));
    }
    CHECK(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(in, 0)));
    CHECK(aclmdlDestroyDataset(in));
    CHECK(aclmdlDestroyDataset(out));
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        printf("usage: mdl_withmem MODEL.om INPUT.bin REF_DIR\n");
        return 2;
    }
    const char *model = argv[1];
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));

    size_t work_size = 0, weight_size = 0;
    CHECK(aclmdlQuerySize(model, &work_size, &weight_size));
    printf("aclmdlQuerySize: work %zu bytes, weight %zu bytes\n", work_size, weight_size);
    REQUIRE(work_size > 0 && weight_size > 0, "static models report non-zero sizes");
    size_t image_size = 0;
    void *image = mc_read_file(model, &image_size);
    REQUIRE(image != NULL, "cannot read %s", model);
    size_t w2 = 0, wt2 = 0;
    CHECK(aclmdlQuerySizeFromMem(image, image_size, &w2, &wt2));
    REQUIRE(w2 == work_size && wt2 == weight_size, "QuerySizeFromMem agrees (%zu, %zu)", w2, wt2);
    EXPECT(aclmdlQuerySize(model, NULL, &wt2), ACL_ERROR_INVALID_PARAM);
    EXPECT(aclmdlQuerySizeFromMem(image, 3, &w2, &wt2), ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID);

    void *work = NULL, *weight = NULL;
    CHECK(aclrtMalloc(&work, work_size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&weight, weight_size, ACL_MEM_MALLOC_HUGE_FIRST));
    uint32_t id = 0;
    EXPECT(aclmdlLoadFromFileWithMem(model, &id, work, 1, weight, weight_size), ACL_ERROR_GE_PARAM_INVALID);
    EXPECT(aclmdlLoadFromFileWithMem(model, &id, work, work_size, weight, weight_size - 1), ACL_ERROR_GE_PARAM_INVALID);
    CHECK(aclmdlLoadFromFileWithMem(model, &id, work, work_size, weight, weight_size));
    printf("aclmdlLoadFromFileWithMem: model %u in the application's memory\n", id);

    aclmdlDesc *desc = aclmdlCreateDesc();
    CHECK(aclmdlGetDesc(desc, id));
    size_t in_size = 0;
    void *host_in = mc_read_file(argv[2], &in_size);
    REQUIRE(host_in != NULL && in_size == aclmdlGetInputSizeByIndex(desc, 0), "input file size");
    void *dev_in = NULL;
    CHECK(aclrtMalloc(&dev_in, in_size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(dev_in, in_size, host_in, in_size, ACL_MEMCPY_HOST_TO_DEVICE));
    int bad = run_and_check(id, desc, dev_in, in_size, argv[3]);

    /* from memory, into a second pair of buffers; the image goes right after the load */
    void *work2 = NULL, *weight2 = NULL;
    CHECK(aclrtMalloc(&work2, work_size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&weight2, weight_size, ACL_MEM_MALLOC_HUGE_FIRST));
    uint32_t id2 = 0;
    CHECK(aclmdlLoadFromMemWithMem(image, image_size, &id2, work2, work_size, weight2, weight_size));
    memset(image, 0xA5, image_size);
    free(image);
    REQUIRE(id2 == id + 1, "model ids count up (%u, %u)", id, id2);
    bad |= run_and_check(id2, desc, dev_in, in_size, argv[3]);
    /* the first model still runs in its own memory */
    bad |= run_and_check(id, desc, dev_in, in_size, argv[3]);

    CHECK(aclmdlUnload(id));
    CHECK(aclmdlUnload(id2));
    EXPECT(aclmdlUnload(id), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID);
    /* the application's memory is the application's: still allocated after unload */
    CHECK(aclrtMemset(work, work_size, 0, work_size));
    CHECK(aclrtFree(work));
    CHECK(aclrtFree(weight));
    CHECK(aclrtFree(work2));
    CHECK(aclrtFree(weight2));
    CHECK(aclrtFree(dev_in));
    free(host_in);
    CHECK(aclmdlDestroyDesc(desc));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("%s\n", bad ? "FAILED" : "PASSED");
    return bad;
}

/*
 * A dynamic-batch model (atc --dynamic_batch_size=1,2,4), driven the way the
 * hicann/ge dynamic-batch samples do: the gear input ascend_mbatch_shape_data
 * is the last input, the model reports its largest gear, each run picks a
 * batch with aclmdlSetDynamicBatchSize and passes an input buffer sized for
 * that batch (smaller than the reported size), and aclmdlGetCurOutputDims
 * gives the selected gear's output shape. Results are compared with ONNX
 * Runtime per batch.
 *
 *   mdl_dynamic_batch MODEL.om INPUT_DIR REF_DIR
 *     INPUT_DIR/cls_b<N>.bin, REF_DIR/b<N>/<output>.bin for N in 1, 2, 4
 */
#include "mdl_compat.h"

int main(int argc, char **argv)
{
    if (argc != 4) {
        printf("usage: mdl_dynamic_batch MODEL.om INPUT_DIR REF_DIR\n");
        return 2;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    uint32_t id = 0;
    CHECK(aclmdlLoadFromFile(argv[1], &id));
    aclmdlDesc *desc = aclmdlCreateDesc();
    CHECK(aclmdlGetDesc(desc, id));

    aclmdlBatch batch;
    CHECK(aclmdlGetDynamicBatch(desc, &batch));
    printf("dynamic batch gears:");
    for (size_t i = 0; i < batch.batchCount; i++) {
        printf(" %llu", (unsigned long long)batch.batch[i]);
    }
    printf("\n");
    REQUIRE(batch.batchCount == 3 && batch.batch[0] == 1 && batch.batch[1] == 2 && batch.batch[2] == 4,
            "gears 1, 2, 4");
    const size_t n_in = aclmdlGetNumInputs(desc);
    size_t gear_index = 0;
    CHECK(aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_TENSOR_NAME, &gear_index));
    REQUIRE(gear_index == n_in - 1, "the gear input is the last input (%zu of %zu)", gear_index, n_in);
    aclmdlIODims dims;
    CHECK(aclmdlGetInputDims(desc, 0, &dims));
    REQUIRE(dims.dimCount == 4 && dims.dims[0] == -1, "input 0 shows -1 at the batch axis");
    CHECK(aclmdlGetOutputDims(desc, 0, &dims));
    REQUIRE(dims.dims[0] == 4, "outputs show the largest gear");
    const size_t max_in = aclmdlGetInputSizeByIndex(desc, 0);
    const size_t max_out = aclmdlGetOutputSizeByIndex(desc, 0);
    const size_t gear_size = aclmdlGetInputSizeByIndex(desc, gear_index);
    printf("input 0: %zu bytes (largest gear), gear input: %zu bytes, output 0: %zu bytes\n", max_in, gear_size,
           max_out);

    void *gear_dev = NULL, *out_dev = NULL;
    CHECK(aclrtMalloc(&gear_dev, gear_size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&out_dev, max_out, ACL_MEM_MALLOC_HUGE_FIRST));
    int bad = 0;
    const uint64_t gears[3] = {2, 1, 4};
    for (int g = 0; g < 3; g++) {
        const uint64_t b = gears[g];
        char path[1024];
        snprintf(path, sizeof path, "%s/cls_b%llu.bin", argv[2], (unsigned long long)b);
        size_t size = 0;
        void *host = mc_read_file(path, &size);
        REQUIRE(host != NULL, "cannot read %s", path);
        REQUIRE(size == max_in / 4 * b, "batch %llu input of %zu bytes", (unsigned long long)b, size);
        void *in_dev = NULL;
        CHECK(aclrtMalloc(&in_dev, size, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK(aclrtMemcpy(in_dev, size, host, size, ACL_MEMCPY_HOST_TO_DEVICE));
        free(host);
        aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
        CHECK(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(in_dev, size)));
        CHECK(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(gear_dev, gear_size)));
        CHECK(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(out_dev, max_out)));
        if (g == 0) {
            EXPECT(aclmdlSetDynamicBatchSize(id, in, gear_index, 3), ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID);
            EXPECT(aclmdlSetDynamicBatchSize(id, in, gear_index, 0), ACL_ERROR_INVALID_PARAM);
        }
        CHECK(aclmdlSetDynamicBatchSize(id, in, gear_index, b));
        CHECK(aclmdlExecute(id, in, out));
        CHECK(aclmdlGetCurOutputDims(desc, 0, &dims));
        printf("batch %llu: current output dims [", (unsigned long long)b);
        size_t n = 1;
        for (size_t k = 0; k < dims.dimCount; k++) {
            printf("%s%lld", k ? "," : "", (long long)dims.dims[k]);
            n *= (size_t)dims.dims[k];
        }
        printf("]\n");
        REQUIRE(dims.dimCount == 2 && dims.dims[0] == (int64_t)b, "the current gear's output dims");
        float *res = malloc(n * sizeof(float));
        CHECK(aclrtMemcpy(res, n * sizeof(float), out_dev, n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
        snprintf(path, sizeof path, "%s/b%llu", argv[3], (unsigned long long)b);
        size_t rsize = 0;
        float *ref = mc_read_ref(path, aclmdlGetOutputNameByIndex(desc, 0), &rsize);
        REQUIRE(ref != NULL && rsize == n * sizeof(float), "reference for batch %llu", (unsigned long long)b);
        char what[32];
        snprintf(what, sizeof what, "batch %llu", (unsigned long long)b);
        bad |= mc_compare(what, res, ref, n);
        free(res);
        free(ref);
        CHECK(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(in, 0)));
        CHECK(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(in, 1)));
        CHECK(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(out, 0)));
        CHECK(aclmdlDestroyDataset(in));
        CHECK(aclmdlDestroyDataset(out));
        CHECK(aclrtFree(in_dev));
    }
    CHECK(aclrtFree(gear_dev));
    CHECK(aclrtFree(out_dev));
    CHECK(aclmdlDestroyDesc(desc));
    CHECK(aclmdlUnload(id));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("%s\n", bad ? "FAILED" : "PASSED");
    return bad;
}

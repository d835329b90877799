/*
 * Image classification the way the Ascend samples do it: load an .om,
 * describe it, copy a preprocessed image to the device, execute, copy the
 * scores back and print the top-5 classes; then check them against ONNX
 * Runtime (relative L2 <= 1e-4, identical top-5 ranking).
 *
 *   mdl_classify MODEL.om INPUT.bin REF_DIR
 *
 * The input file must have exactly the size the model reports (the samples
 * check it too: an fp16 model input, --input_fp16_nodes, takes fp16 files).
 */
#include "mdl_compat.h"

static const char *dtype_name(aclDataType t)
{
    switch (t) {
    case ACL_FLOAT: return "float32";
    case ACL_FLOAT16: return "float16";
    case ACL_INT32: return "int32";
    case ACL_INT64: return "int64";
    default: return "other";
    }
}

static void print_io(aclmdlDesc *desc)
{
    for (int side = 0; side < 2; side++) {
        const size_t n = side ? aclmdlGetNumOutputs(desc) : aclmdlGetNumInputs(desc);
        for (size_t i = 0; i < n; i++) {
            aclmdlIODims dims;
            if ((side ? aclmdlGetOutputDims(desc, i, &dims) : aclmdlGetInputDims(desc, i, &dims)) != ACL_SUCCESS) {
                continue;
            }
            printf("%s %zu: %s [", side ? "output" : "input", i, dims.name);
            for (size_t k = 0; k < dims.dimCount; k++) {
                printf("%s%lld", k ? "," : "", (long long)dims.dims[k]);
            }
            printf("] %s format %d, %zu bytes\n",
                   dtype_name(side ? aclmdlGetOutputDataType(desc, i) : aclmdlGetInputDataType(desc, i)),
                   (int)(side ? aclmdlGetOutputFormat(desc, i) : aclmdlGetInputFormat(desc, i)),
                   side ? aclmdlGetOutputSizeByIndex(desc, i) : aclmdlGetInputSizeByIndex(desc, i));
        }
    }
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        printf("usage: mdl_classify MODEL.om INPUT.bin REF_DIR\n");
        return 2;
    }
    const char *model = argv[1], *input = argv[2], *ref_dir = argv[3];
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtContext ctx;
    CHECK(aclrtCreateContext(&ctx, 0));
    aclrtRunMode mode;
    CHECK(aclrtGetRunMode(&mode));
    printf("run mode: %s\n", mode == ACL_HOST ? "ACL_HOST" : "ACL_DEVICE");

    uint32_t id = 0;
    CHECK(aclmdlLoadFromFile(model, &id));
    printf("load model %s success, modelId is %u\n", model, id);
    aclmdlDesc *desc = aclmdlCreateDesc();
    CHECK(aclmdlGetDesc(desc, id));
    print_io(desc);
    REQUIRE(aclmdlGetNumInputs(desc) == 1 && aclmdlGetNumOutputs(desc) >= 1, "a classifier has one input");
    size_t gears = 99;
    CHECK(aclmdlGetInputDynamicGearCount(desc, (size_t)-1, &gears));
    REQUIRE(gears == 0, "a static model has no dims gears (%zu)", gears);

    size_t file_size = 0;
    void *host_in = NULL;
    void *image = mc_read_file(input, &file_size);
    REQUIRE(image != NULL, "cannot read %s", input);
    const size_t in_size = aclmdlGetInputSizeByIndex(desc, 0);
    REQUIRE(file_size == in_size, "input file has %zu bytes, the model input %zu", file_size, in_size);
    CHECK(aclrtMallocHost(&host_in, in_size));
    memcpy(host_in, image, in_size);
    free(image);
    void *dev_in = NULL, *dev_out = NULL, *host_out = NULL;
    CHECK(aclrtMalloc(&dev_in, in_size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(dev_in, in_size, host_in, in_size, ACL_MEMCPY_HOST_TO_DEVICE));
    const size_t out_size = aclmdlGetOutputSizeByIndex(desc, 0);
    CHECK(aclrtMalloc(&dev_out, out_size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMallocHost(&host_out, out_size));

    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    aclDataBuffer *bin = aclCreateDataBuffer(dev_in, in_size);
    CHECK(aclmdlAddDatasetBuffer(in, bin));
    aclDataBuffer *bout = aclCreateDataBuffer(dev_out, out_size);
    CHECK(aclmdlAddDatasetBuffer(out, bout));
    /* the other outputs (if any) get device memory from aclmdlExecute (NULL data) */
    for (size_t j = 1; j < aclmdlGetNumOutputs(desc); j++) {
        CHECK(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(NULL, 0)));
    }
    CHECK(aclmdlExecute(id, in, out));
    for (size_t j = 1; j < aclmdlGetNumOutputs(desc); j++) {
        aclDataBuffer *b = aclmdlGetDatasetBuffer(out, j);
        REQUIRE(aclGetDataBufferAddr(b) != NULL && aclGetDataBufferSizeV2(b) == aclmdlGetOutputSizeByIndex(desc, j),
                "aclmdlExecute allocates outputs given without data");
        CHECK(aclrtFree(aclGetDataBufferAddr(b)));
        CHECK(aclDestroyDataBuffer(b));
    }
    CHECK(aclrtMemcpy(host_out, out_size, dev_out, out_size, ACL_MEMCPY_DEVICE_TO_HOST));

    const float *scores = host_out;
    const size_t n = out_size / sizeof(float);
    const size_t k = n < 5 ? n : 5;
    size_t top[5];
    mc_topk(scores, n, k, top);
    for (size_t i = 0; i < k; i++) {
        printf("top %zu: index[%zu] value[%f]\n", i + 1, top[i], (double)scores[top[i]]);
    }
    size_t ref_size = 0;
    float *ref = mc_read_ref(ref_dir, aclmdlGetOutputNameByIndex(desc, 0), &ref_size);
    REQUIRE(ref != NULL && ref_size == out_size, "reference of %zu bytes for an output of %zu", ref_size, out_size);
    int bad = mc_compare("output 0", scores, ref, n);
    size_t rtop[5];
    mc_topk(ref, n, k, rtop);
    for (size_t i = 0; i < k; i++) {
        if (rtop[i] != top[i]) {
            printf("top-%zu differs: index %zu, ONNX Runtime %zu\n", i + 1, top[i], rtop[i]);
            bad = 1;
        }
    }
    if (!bad) {
        printf("top-%zu identical to ONNX Runtime\n", k);
    }
    free(ref);

    CHECK(aclDestroyDataBuffer(bin));
    CHECK(aclDestroyDataBuffer(bout));
    CHECK(aclmdlDestroyDataset(in));
    CHECK(aclmdlDestroyDataset(out));
    CHECK(aclrtFree(dev_in));
    CHECK(aclrtFree(dev_out));
    CHECK(aclrtFreeHost(host_in));
    CHECK(aclrtFreeHost(host_out));
    CHECK(aclmdlDestroyDesc(desc));
    CHECK(aclmdlUnload(id));
    printf("unload model success, modelId is %u\n", id);
    CHECK(aclrtDestroyContext(ctx));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return bad;
}

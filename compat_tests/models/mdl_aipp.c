/*
 * Models converted with atc --insert_op_conf (AIPP), driven as the Ascend
 * AIPP samples do: the application passes raw camera bytes (NV12, BGR) and
 * the model's AIPP stage crops, converts colour and normalises them. The
 * output is compared with ONNX Runtime run on the same images pre-processed
 * by the numpy reference (tests/models/make_aipp.py).
 *
 *   mdl_aipp static  MODEL.om DATA_DIR REF_DIR   static AIPP, batch 1
 *   mdl_aipp batch   MODEL.om DATA_DIR REF_DIR   static AIPP, --dynamic_batch_size=1,2 (REF_DIR/b1, b2)
 *   mdl_aipp hw      MODEL.om DATA_DIR REF_DIR   static AIPP, --dynamic_image_size="16,16;8,12" (REF_DIR/<h>x<w>)
 *   mdl_aipp dynamic MODEL.om DATA_DIR REF_DIR   dynamic AIPP, 2 images with their own parameters
 *   mdl_aipp dynbatch MODEL.om DATA_DIR REF_DIR  dynamic AIPP with --dynamic_batch_size=1,2 (REF_DIR/b1, b2)
 *   mdl_aipp two     MODEL.om DATA_DIR REF_DIR   two AIPP inputs (NV12 and BGR)
 *   mdl_aipp v2      MODEL.om DATA_DIR REF_DIR   static AIPP on x1 of a dynamic-shape model (x2 [1,3,-1,-1]):
 *                                                the dynamic executor
 */
#include "mdl_compat.h"

typedef struct run_io {
    void *in_dev[3];
    size_t in_size[3];
    size_t n_in;
    void *out_dev;
    size_t out_size;
} run_io;

static int load_input(const char *dir, const char *file, size_t want, void **dev)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    size_t size = 0;
    void *host = mc_read_file(path, &size);
    REQUIRE(host != NULL && size == want, "%s: %zu bytes, want %zu", path, size, want);
    CHECK(aclrtMalloc(dev, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(*dev, size, host, size, ACL_MEMCPY_HOST_TO_DEVICE));
    free(host);
    return 0;
}

/* Runs with the given inputs; compares output 0 (n floats) with REF_DIR's. */
static int run_compare(uint32_t id, aclmdlDesc *desc, aclmdlDataset *in, size_t n, const char *ref_dir,
                       const char *what)
{
    size_t out_size = aclmdlGetOutputSizeByIndex(desc, 0);
    out_size = out_size > 0 ? out_size : n * sizeof(float); /* dynamic-shape models report 0 */
    void *out_dev = NULL;
    CHECK(aclrtMalloc(&out_dev, out_size, ACL_MEM_MALLOC_HUGE_FIRST));
    aclmdlDataset *out = aclmdlCreateDataset();
    aclDataBuffer *ob = aclCreateDataBuffer(out_dev, out_size);
    CHECK(aclmdlAddDatasetBuffer(out, ob));
    CHECK(aclmdlExecute(id, in, out));
    float *res = malloc(n * sizeof(float));
    CHECK(aclrtMemcpy(res, n * sizeof(float), out_dev, n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
    size_t rsize = 0;
    float *ref = mc_read_ref(ref_dir, aclmdlGetOutputNameByIndex(desc, 0), &rsize);
    REQUIRE(ref != NULL && rsize == n * sizeof(float), "reference of %zu floats in %s", n, ref_dir);
    const int bad = mc_compare(what, res, ref, n);
    free(res);
    free(ref);
    CHECK(aclDestroyDataBuffer(ob));
    CHECK(aclmdlDestroyDataset(out));
    CHECK(aclrtFree(out_dev));
    return bad;
}

static int expect_dims(aclmdlDesc *desc, size_t i, bool v2, const int64_t *want, size_t n)
{
    aclmdlIODims d;
    CHECK(v2 ? aclmdlGetInputDimsV2(desc, i, &d) : aclmdlGetInputDims(desc, i, &d));
    printf("input %zu dims%s: [", i, v2 ? "V2" : "");
    for (size_t k = 0; k < d.dimCount; k++) {
        printf("%s%lld", k ? "," : "", (long long)d.dims[k]);
    }
    printf("]\n");
    REQUIRE(d.dimCount == n, "input %zu: %zu dims", i, d.dimCount);
    for (size_t k = 0; k < n; k++) {
        REQUIRE(d.dims[k] == want[k], "input %zu dim %zu is %lld, want %lld", i, k, (long long)d.dims[k],
                (long long)want[k]);
    }
    return 0;
}

/* The static NV12 block of make_aipp.py as aclmdlGetFirstAippInfo reports it. */
static int check_static_info(uint32_t id, size_t index, size_t shapes, int64_t batch0)
{
    aclAippInfo info;
    memset(&info, 0, sizeof info);
    CHECK(aclmdlGetFirstAippInfo(id, index, &info));
    printf("aipp info: format %d src %dx%d crop %d at (%d,%d) %dx%d csc %d r0c2 %d mean %d var %.4f shapes %zu\n",
           (int)info.inputFormat, info.srcImageSizeW, info.srcImageSizeH, info.cropSwitch, info.loadStartPosW,
           info.loadStartPosH, info.cropSizeW, info.cropSizeH, info.cscSwitch, info.matrixR0C2, info.meanChn0,
           (double)info.varReciChn0, info.shapeCount);
    REQUIRE(info.inputFormat == ACL_YUV420SP_U8 && info.srcImageSizeW == 20 && info.srcImageSizeH == 18 &&
                info.cropSwitch == 1 && info.loadStartPosW == 2 && info.loadStartPosH == 2 && info.cropSizeW == 16 &&
                info.cropSizeH == 16 && info.cscSwitch == 1 && info.matrixR0C0 == 298 && info.matrixR0C2 == 409 &&
                info.matrixR1C1 == -100 && info.inputBias0 == 16 && info.inputBias1 == 128 && info.meanChn0 == 104 &&
                info.meanChn2 == 123 && fabsf(info.varReciChn0 - 0.0171f) < 1e-6f && info.varReciChn3 == 1.0f &&
                info.paddingSwitch == 0,
            "the AIPP parameters of the config");
    REQUIRE(info.shapeCount == shapes && info.srcFormat == ACL_FORMAT_NCHW && info.srcDatatype == ACL_FLOAT &&
                info.srcDimNum == 4,
            "shape count %zu, origin NCHW float 4-D", info.shapeCount);
    for (size_t s = 0; s < shapes; s++) {
        const aclAippDims *d = &info.outDims[s];
        const int64_t b = batch0 + (int64_t)s;
        REQUIRE(d->srcDims.dimCount == 4 && d->srcDims.dims[0] == b && d->srcDims.dims[1] == 3 &&
                    d->srcDims.dims[2] == 16 && d->srcDims.dims[3] == 16 && d->srcSize == (size_t)b * 3 * 16 * 16 * 4 &&
                    d->aippOutdims.dims[0] == b && d->aippOutSize == d->srcSize,
                "shape %zu: [%lld,3,16,16] before and after AIPP", s, (long long)b);
    }
    aclmdlInputAippType type;
    size_t attached = 0;
    CHECK(aclmdlGetAippType(id, index, &type, &attached));
    REQUIRE(type == ACL_DATA_WITH_STATIC_AIPP && attached == ACL_INVALID_NODE_INDEX, "static AIPP type");
    return 0;
}

static int mode_static(uint32_t id, aclmdlDesc *desc, const char *data, const char *ref)
{
    REQUIRE(aclmdlGetNumInputs(desc) == 1, "one input");
    const int64_t raw[4] = {1, 18, 20, 1}, pre[4] = {1, 3, 16, 16};
    if (expect_dims(desc, 0, false, raw, 4) || expect_dims(desc, 0, true, pre, 4)) {
        return 1;
    }
    REQUIRE(aclmdlGetInputSizeByIndex(desc, 0) == 540, "NV12 20x18 is 540 bytes (1.5 bytes per pixel)");
    REQUIRE(aclmdlGetInputDataType(desc, 0) == ACL_UINT8 && aclmdlGetInputFormat(desc, 0) == ACL_FORMAT_NHWC,
            "u8 NHWC input");
    if (check_static_info(id, 0, 1, 1)) {
        return 1;
    }
    EXPECT(aclmdlGetFirstAippInfo(id, 1, &(aclAippInfo){0}), ACL_ERROR_INVALID_PARAM);
    void *dev = NULL;
    if (load_input(data, "nv12_b1.bin", 540, &dev)) {
        return 1;
    }
    aclmdlDataset *in = aclmdlCreateDataset();
    aclDataBuffer *b = aclCreateDataBuffer(dev, 540);
    CHECK(aclmdlAddDatasetBuffer(in, b));
    const int bad = run_compare(id, desc, in, 4 * 8 * 8, ref, "static AIPP");
    CHECK(aclDestroyDataBuffer(b));
    CHECK(aclmdlDestroyDataset(in));
    CHECK(aclrtFree(dev));
    return bad;
}

static int mode_batch(uint32_t id, aclmdlDesc *desc, const char *data, const char *ref)
{
    const int64_t raw[4] = {-1, 18, 20, 1}, pre[4] = {-1, 3, 16, 16};
    if (expect_dims(desc, 0, false, raw, 4) || expect_dims(desc, 0, true, pre, 4) ||
        check_static_info(id, 0, 2, 1)) {
        return 1;
    }
    size_t gear_index = 0;
    CHECK(aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_TENSOR_NAME, &gear_index));
    REQUIRE(gear_index == 1, "the gear input follows the image");
    REQUIRE(aclmdlGetInputSizeByIndex(desc, 0) == 1080, "the largest gear: two NV12 images");
    const size_t gear_size = aclmdlGetInputSizeByIndex(desc, gear_index);
    void *gear_dev = NULL;
    CHECK(aclrtMalloc(&gear_dev, gear_size, ACL_MEM_MALLOC_HUGE_FIRST));
    int bad = 0;
    for (uint64_t n = 2; n >= 1; n--) {
        void *dev = NULL;
        if (load_input(data, n == 1 ? "nv12_b1.bin" : "nv12_b2.bin", 540 * n, &dev)) {
            return 1;
        }
        aclmdlDataset *in = aclmdlCreateDataset();
        aclDataBuffer *b0 = aclCreateDataBuffer(dev, 540 * n), *b1 = aclCreateDataBuffer(gear_dev, gear_size);
        CHECK(aclmdlAddDatasetBuffer(in, b0));
        CHECK(aclmdlAddDatasetBuffer(in, b1));
        CHECK(aclmdlSetDynamicBatchSize(id, in, gear_index, n));
        char dir[1100], what[32];
        snprintf(dir, sizeof dir, "%s/b%llu", ref, (unsigned long long)n);
        snprintf(what, sizeof what, "static AIPP, batch %llu", (unsigned long long)n);
        bad |= run_compare(id, desc, in, n * 4 * 8 * 8, dir, what);
        CHECK(aclDestroyDataBuffer(b0));
        CHECK(aclDestroyDataBuffer(b1));
        CHECK(aclmdlDestroyDataset(in));
        CHECK(aclrtFree(dev));
    }
    CHECK(aclrtFree(gear_dev));
    return bad;
}

/* dyn_params.txt of make_aipp.py into an aclmdlAIPP through the public setters. */
static aclmdlAIPP *params_from_file(const char *data, uint64_t batch)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/dyn_params.txt", data);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return NULL;
    }
    int fmt, w, h, csc, m[9], ob[3], ib[3];
    int ok = fscanf(f, "%d %d %d %d", &fmt, &w, &h, &csc) == 4;
    for (int i = 0; i < 9; i++) {
        ok = ok && fscanf(f, "%d", &m[i]) == 1;
    }
    ok = ok && fscanf(f, "%d %d %d %d %d %d", &ob[0], &ob[1], &ob[2], &ib[0], &ib[1], &ib[2]) == 6;
    aclmdlAIPP *a = ok ? aclmdlCreateAIPP(batch) : NULL;
    ok = a != NULL && aclmdlSetAIPPInputFormat(a, (aclAippInputFormat)fmt) == ACL_SUCCESS &&
         aclmdlSetAIPPSrcImageSize(a, w, h) == ACL_SUCCESS &&
         aclmdlSetAIPPCscParams(a, (int8_t)csc, m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], ob[0], ob[1],
                                ob[2], ib[0], ib[1], ib[2]) == ACL_SUCCESS;
    for (uint64_t b = 0; ok && b < batch; b++) {
        int crop[4], pad[4], mean[4];
        float mn[4], var[4];
        for (int i = 0; i < 4; i++) {
            ok = ok && fscanf(f, "%d", &crop[i]) == 1;
        }
        for (int i = 0; i < 4; i++) {
            ok = ok && fscanf(f, "%d", &pad[i]) == 1;
        }
        for (int i = 0; i < 4; i++) {
            ok = ok && fscanf(f, "%d", &mean[i]) == 1;
        }
        for (int i = 0; i < 4; i++) {
            ok = ok && fscanf(f, "%f", &mn[i]) == 1;
        }
        for (int i = 0; i < 4; i++) {
            ok = ok && fscanf(f, "%f", &var[i]) == 1;
        }
        const int8_t padding = pad[0] || pad[1] || pad[2] || pad[3];
        ok = ok && aclmdlSetAIPPCropParams(a, 1, crop[0], crop[1], crop[2], crop[3], b) == ACL_SUCCESS &&
             aclmdlSetAIPPPaddingParams(a, padding, pad[2], pad[3], pad[0], pad[1], b) == ACL_SUCCESS &&
             aclmdlSetAIPPDtcPixelMean(a, (int16_t)mean[0], (int16_t)mean[1], (int16_t)mean[2], (int16_t)mean[3], b) ==
                 ACL_SUCCESS &&
             aclmdlSetAIPPDtcPixelMin(a, mn[0], mn[1], mn[2], mn[3], b) == ACL_SUCCESS &&
             aclmdlSetAIPPPixelVarReci(a, var[0], var[1], var[2], var[3], b) == ACL_SUCCESS;
    }
    fclose(f);
    if (!ok && a != NULL) {
        (void)aclmdlDestroyAIPP(a);
        a = NULL;
    }
    return a;
}

static int mode_dynamic(uint32_t id, aclmdlDesc *desc, const char *data, const char *ref)
{
    REQUIRE(aclmdlGetNumInputs(desc) == 2, "the image and the AIPP parameter input");
    size_t pidx = 0;
    CHECK(aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_AIPP_NAME, &pidx));
    REQUIRE(pidx == 1, "%s is input 1", ACL_DYNAMIC_AIPP_NAME);
    aclmdlInputAippType type;
    size_t attached = 0;
    CHECK(aclmdlGetAippType(id, 0, &type, &attached));
    REQUIRE(type == ACL_DATA_WITH_DYNAMIC_AIPP && attached == 1, "input 0: dynamic AIPP, parameters in input 1");
    CHECK(aclmdlGetAippType(id, 1, &type, &attached));
    REQUIRE(type == ACL_DYNAMIC_AIPP_NODE, "input 1: the AIPP parameter input");
    size_t psize = 0;
    CHECK(aclmdlGetAippDataSize(2, &psize));
    REQUIRE(psize == aclmdlGetInputSizeByIndex(desc, 1) && psize == 64 + 2 * 96, "parameter input of %zu bytes",
            psize);
    const int64_t raw[4] = {2, -1, -1, -1}, pre[4] = {2, 3, 16, 16};
    if (expect_dims(desc, 0, false, raw, 4) || expect_dims(desc, 0, true, pre, 4)) {
        return 1;
    }
    REQUIRE(aclmdlGetInputSizeByIndex(desc, 0) == 1080, "max_src_image_size bytes");
    void *img = NULL, *par = NULL;
    if (load_input(data, "nv12_b2.bin", 1080, &img)) {
        return 1;
    }
    CHECK(aclrtMalloc(&par, psize, ACL_MEM_MALLOC_HUGE_FIRST));
    aclmdlDataset *in = aclmdlCreateDataset();
    aclDataBuffer *b0 = aclCreateDataBuffer(img, 1080), *b1 = aclCreateDataBuffer(par, psize);
    CHECK(aclmdlAddDatasetBuffer(in, b0));
    CHECK(aclmdlAddDatasetBuffer(in, b1));
    aclmdlAIPP *aipp = params_from_file(data, 2);
    REQUIRE(aipp != NULL, "the parameters of dyn_params.txt");
    /* bad parameter sets are refused before the run */
    EXPECT(aclmdlSetInputAIPP(id, in, 0, aipp), ACL_ERROR_INVALID_PARAM);      /* not the parameter input */
    EXPECT(aclmdlSetAIPPByInputIndex(id, in, 1, aipp), ACL_ERROR_FAILURE);      /* not a dynamic-AIPP image */
    EXPECT(aclmdlSetAIPPCropParams(aipp, 1, 8, 2, 16, 16, 1), ACL_SUCCESS);    /* crop beyond the 20-pixel width */
    EXPECT(aclmdlSetInputAIPP(id, in, 1, aipp), ACL_ERROR_INVALID_PARAM);
    CHECK(aclmdlDestroyAIPP(aipp));
    aclmdlAIPP *one = aclmdlCreateAIPP(1);
    CHECK(aclmdlSetAIPPInputFormat(one, ACL_YUV420SP_U8));
    CHECK(aclmdlSetAIPPSrcImageSize(one, 20, 18));
    EXPECT(aclmdlSetInputAIPP(id, in, 1, one), ACL_ERROR_INVALID_PARAM); /* batch 1 != the model's 2 */
    CHECK(aclmdlDestroyAIPP(one));
    /* the good parameters, through both setters */
    aipp = params_from_file(data, 2);
    REQUIRE(aipp != NULL, "the parameters of dyn_params.txt");
    CHECK(aclmdlSetInputAIPP(id, in, 1, aipp));
    int bad = run_compare(id, desc, in, 2 * 4 * 8 * 8, ref, "dynamic AIPP (aclmdlSetInputAIPP)");
    CHECK(aclrtMemset(par, psize, 0, psize));
    CHECK(aclmdlSetAIPPByInputIndex(id, in, 0, aipp));
    bad |= run_compare(id, desc, in, 2 * 4 * 8 * 8, ref, "dynamic AIPP (aclmdlSetAIPPByInputIndex)");
    CHECK(aclmdlDestroyAIPP(aipp));
    /* a parameter block written by hand that does not fit: the run fails, nothing crashes */
    uint8_t *blk = calloc(1, psize);
    REQUIRE(blk != NULL, "memory");
    CHECK(aclrtMemcpy(blk, psize, par, psize, ACL_MEMCPY_DEVICE_TO_HOST));
    blk[64 + 96 + 16] = 8; /* image 1: crop width 8 -> its output is no longer the model's 16x16 */
    CHECK(aclrtMemcpy(par, psize, blk, psize, ACL_MEMCPY_HOST_TO_DEVICE));
    const size_t out_size = aclmdlGetOutputSizeByIndex(desc, 0);
    void *out_dev = NULL;
    CHECK(aclrtMalloc(&out_dev, out_size, ACL_MEM_MALLOC_HUGE_FIRST));
    aclmdlDataset *out = aclmdlCreateDataset();
    aclDataBuffer *ob = aclCreateDataBuffer(out_dev, out_size);
    CHECK(aclmdlAddDatasetBuffer(out, ob));
    aclError ret = aclmdlExecute(id, in, out);
    printf("hand-made block with a 8-wide crop: aclmdlExecute -> %d (%s)\n", (int)ret, aclGetRecentErrMsg());
    REQUIRE(ret != ACL_SUCCESS, "a parameter block that does not fit fails the run");
    blk[64 + 96 + 16] = 14;
    blk[0] = 77; /* an input format code that does not exist */
    CHECK(aclrtMemcpy(par, psize, blk, psize, ACL_MEMCPY_HOST_TO_DEVICE));
    ret = aclmdlExecute(id, in, out);
    printf("unknown input format code: aclmdlExecute -> %d (%s)\n", (int)ret, aclGetRecentErrMsg());
    REQUIRE(ret != ACL_SUCCESS, "a bad format code fails the run");
    free(blk);
    CHECK(aclDestroyDataBuffer(ob));
    CHECK(aclmdlDestroyDataset(out));
    CHECK(aclrtFree(out_dev));
    CHECK(aclDestroyDataBuffer(b0));
    CHECK(aclDestroyDataBuffer(b1));
    CHECK(aclmdlDestroyDataset(in));
    CHECK(aclrtFree(img));
    CHECK(aclrtFree(par));
    return bad;
}

/* Static AIPP with --dynamic_image_size="16,16;8,12": each gear takes a whole NV12 image of its size. */
static int mode_hw(uint32_t id, aclmdlDesc *desc, const char *data, const char *ref)
{
    size_t gidx = 0;
    CHECK(aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_TENSOR_NAME, &gidx));
    const int64_t raw[4] = {1, -1, -1, 1}, pre[4] = {1, 3, -1, -1};
    if (expect_dims(desc, 0, false, raw, 4) || expect_dims(desc, 0, true, pre, 4)) {
        return 1;
    }
    aclmdlHW hw;
    CHECK(aclmdlGetDynamicHW(desc, 0, &hw));
    REQUIRE(hw.hwCount == 2 && hw.hw[0][0] == 16 && hw.hw[0][1] == 16 && hw.hw[1][0] == 8 && hw.hw[1][1] == 12,
            "gears 16x16 and 8x12");
    REQUIRE(aclmdlGetInputSizeByIndex(desc, 0) == 16 * 16 * 3 / 2, "the largest gear's NV12 image");
    aclAippInfo info;
    CHECK(aclmdlGetFirstAippInfo(id, 0, &info));
    REQUIRE(info.inputFormat == ACL_YUV420SP_U8 && info.srcImageSizeW == 0 && info.cropSwitch == 0 &&
                info.shapeCount == 2 && info.outDims[1].srcDims.dims[2] == 8 && info.outDims[1].srcDims.dims[3] == 12,
            "source size 0 (the gear's), one AIPP shape per gear");
    const size_t gsize = aclmdlGetInputSizeByIndex(desc, gidx);
    void *gear = NULL;
    CHECK(aclrtMalloc(&gear, gsize, ACL_MEM_MALLOC_HUGE_FIRST));
    int bad = 0;
    for (size_t g = 0; g < hw.hwCount; g++) {
        const uint64_t h = hw.hw[g][0], w = hw.hw[g][1];
        char file[64], dir[1100], what[64];
        snprintf(file, sizeof file, "nv12_%llux%llu.bin", (unsigned long long)h, (unsigned long long)w);
        void *img = NULL;
        if (load_input(data, file, w * h * 3 / 2, &img)) {
            return 1;
        }
        aclmdlDataset *in = aclmdlCreateDataset();
        aclDataBuffer *b0 = aclCreateDataBuffer(img, w * h * 3 / 2), *b1 = aclCreateDataBuffer(gear, gsize);
        CHECK(aclmdlAddDatasetBuffer(in, b0));
        CHECK(aclmdlAddDatasetBuffer(in, b1));
        CHECK(aclmdlSetDynamicHWSize(id, in, gidx, h, w));
        snprintf(dir, sizeof dir, "%s/%llux%llu", ref, (unsigned long long)h, (unsigned long long)w);
        snprintf(what, sizeof what, "static AIPP, image gear %llux%llu", (unsigned long long)h, (unsigned long long)w);
        bad |= run_compare(id, desc, in, 4 * ((h + 1) / 2) * ((w + 1) / 2), dir, what);
        CHECK(aclDestroyDataBuffer(b0));
        CHECK(aclDestroyDataBuffer(b1));
        CHECK(aclmdlDestroyDataset(in));
        CHECK(aclrtFree(img));
    }
    CHECK(aclrtFree(gear));
    return bad;
}

/* Dynamic AIPP with --dynamic_batch_size=1,2: one parameter set for the largest gear, each gear runs its images. */
static int mode_dynbatch(uint32_t id, aclmdlDesc *desc, const char *data, const char *ref)
{
    size_t pidx = 0, gidx = 0;
    CHECK(aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_AIPP_NAME, &pidx));
    CHECK(aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_TENSOR_NAME, &gidx));
    REQUIRE(aclmdlGetNumInputs(desc) == 3 && pidx == 1 && gidx == 2, "image, AIPP parameters, then the gear input");
    const int64_t raw[4] = {-1, -1, -1, -1}, pre[4] = {-1, 3, 16, 16};
    if (expect_dims(desc, 0, false, raw, 4) || expect_dims(desc, 0, true, pre, 4)) {
        return 1;
    }
    size_t psize = 0;
    CHECK(aclmdlGetAippDataSize(2, &psize));
    REQUIRE(psize == aclmdlGetInputSizeByIndex(desc, pidx), "the parameter input holds the largest gear");
    REQUIRE(aclmdlGetInputSizeByIndex(desc, 0) == 1080, "max_src_image_size bytes");
    aclAippInfo info;
    CHECK(aclmdlGetFirstAippInfo(id, 0, &info));
    REQUIRE(info.shapeCount == 2 && info.outDims[1].srcDims.dims[0] == 2, "one AIPP shape per gear");
    void *img = NULL, *par = NULL, *gear = NULL;
    if (load_input(data, "nv12_b2.bin", 1080, &img)) {
        return 1;
    }
    const size_t gsize = aclmdlGetInputSizeByIndex(desc, gidx);
    CHECK(aclrtMalloc(&par, psize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&gear, gsize, ACL_MEM_MALLOC_HUGE_FIRST));
    aclmdlDataset *in = aclmdlCreateDataset();
    aclDataBuffer *b[3] = {aclCreateDataBuffer(img, 1080), aclCreateDataBuffer(par, psize),
                           aclCreateDataBuffer(gear, gsize)};
    for (int k = 0; k < 3; k++) {
        CHECK(aclmdlAddDatasetBuffer(in, b[k]));
    }
    aclmdlAIPP *aipp = params_from_file(data, 2);
    REQUIRE(aipp != NULL, "the parameters of dyn_params.txt");
    CHECK(aclmdlSetAIPPByInputIndex(id, in, 0, aipp));
    int bad = 0;
    for (uint64_t n = 2; n >= 1; n--) {
        CHECK(aclmdlSetDynamicBatchSize(id, in, gidx, n));
        char dir[1100], what[48];
        snprintf(dir, sizeof dir, "%s/b%llu", ref, (unsigned long long)n);
        snprintf(what, sizeof what, "dynamic AIPP, batch %llu", (unsigned long long)n);
        bad |= run_compare(id, desc, in, n * 4 * 8 * 8, dir, what);
    }
    CHECK(aclmdlDestroyAIPP(aipp));
    for (int k = 0; k < 3; k++) {
        CHECK(aclDestroyDataBuffer(b[k]));
    }
    CHECK(aclmdlDestroyDataset(in));
    CHECK(aclrtFree(img));
    CHECK(aclrtFree(par));
    CHECK(aclrtFree(gear));
    return bad;
}

static int mode_two(uint32_t id, aclmdlDesc *desc, const char *data, const char *ref)
{
    REQUIRE(aclmdlGetNumInputs(desc) == 2, "two inputs");
    const int64_t raw0[4] = {1, 18, 20, 1}, raw1[4] = {1, 16, 16, 3};
    if (expect_dims(desc, 0, false, raw0, 4) || expect_dims(desc, 1, false, raw1, 4) ||
        check_static_info(id, 0, 1, 1)) {
        return 1;
    }
    aclAippInfo info;
    CHECK(aclmdlGetFirstAippInfo(id, 1, &info));
    REQUIRE(info.inputFormat == ACL_RGB888_U8 && info.rbuvSwapSwitch == 1 && info.meanChn1 == 20 &&
                fabsf(info.minChn0 - 0.5f) < 1e-6f && info.cropSwitch == 0,
            "input 1: RGB888 with the R/B swap");
    void *d0 = NULL, *d1 = NULL;
    if (load_input(data, "nv12_b1.bin", 540, &d0) || load_input(data, "bgr16.bin", 768, &d1)) {
        return 1;
    }
    aclmdlDataset *in = aclmdlCreateDataset();
    aclDataBuffer *b0 = aclCreateDataBuffer(d0, 540), *b1 = aclCreateDataBuffer(d1, 768);
    CHECK(aclmdlAddDatasetBuffer(in, b0));
    CHECK(aclmdlAddDatasetBuffer(in, b1));
    const int bad = run_compare(id, desc, in, 4 * 16 * 16, ref, "two AIPP inputs");
    CHECK(aclDestroyDataBuffer(b0));
    CHECK(aclDestroyDataBuffer(b1));
    CHECK(aclmdlDestroyDataset(in));
    CHECK(aclrtFree(d0));
    CHECK(aclrtFree(d1));
    return bad;
}

static int mode_v2(uint32_t id, aclmdlDesc *desc, const char *data, const char *ref)
{
    const int64_t raw0[4] = {1, 18, 20, 1}, dyn1[4] = {1, 3, -1, -1};
    if (expect_dims(desc, 0, false, raw0, 4) || expect_dims(desc, 1, false, dyn1, 4) ||
        check_static_info(id, 0, 1, 1)) {
        return 1;
    }
    void *d0 = NULL, *d1 = NULL;
    if (load_input(data, "nv12_b1.bin", 540, &d0) || load_input(data, "pre_x2.bin", 3072, &d1)) {
        return 1;
    }
    aclmdlDataset *in = aclmdlCreateDataset();
    aclDataBuffer *b0 = aclCreateDataBuffer(d0, 540), *b1 = aclCreateDataBuffer(d1, 3072);
    CHECK(aclmdlAddDatasetBuffer(in, b0));
    CHECK(aclmdlAddDatasetBuffer(in, b1));
    /* the image input keeps its dims; x2 gets its shape as dynamic-shape applications give it */
    aclTensorDesc *t0 = aclCreateTensorDesc(ACL_UINT8, 4, raw0, ACL_FORMAT_NHWC);
    aclTensorDesc *t1 = aclCreateTensorDesc(ACL_FLOAT, 4, (const int64_t[]){1, 3, 16, 16}, ACL_FORMAT_NCHW);
    CHECK(aclmdlSetDatasetTensorDesc(in, t0, 0));
    CHECK(aclmdlSetDatasetTensorDesc(in, t1, 1));
    const int bad = run_compare(id, desc, in, 4 * 16 * 16, ref, "static AIPP in a dynamic-shape model");
    aclDestroyTensorDesc(t0);
    aclDestroyTensorDesc(t1);
    CHECK(aclDestroyDataBuffer(b0));
    CHECK(aclDestroyDataBuffer(b1));
    CHECK(aclmdlDestroyDataset(in));
    CHECK(aclrtFree(d0));
    CHECK(aclrtFree(d1));
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        printf("usage: mdl_aipp static|batch|hw|dynamic|dynbatch|two|v2 MODEL.om DATA_DIR REF_DIR\n");
        return 2;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    uint32_t id = 0;
    CHECK(aclmdlLoadFromFile(argv[2], &id));
    aclmdlDesc *desc = aclmdlCreateDesc();
    CHECK(aclmdlGetDesc(desc, id));
    int bad = 2;
    if (strcmp(argv[1], "static") == 0) {
        bad = mode_static(id, desc, argv[3], argv[4]);
    } else if (strcmp(argv[1], "batch") == 0) {
        bad = mode_batch(id, desc, argv[3], argv[4]);
    } else if (strcmp(argv[1], "dynamic") == 0) {
        bad = mode_dynamic(id, desc, argv[3], argv[4]);
    } else if (strcmp(argv[1], "two") == 0) {
        bad = mode_two(id, desc, argv[3], argv[4]);
    } else if (strcmp(argv[1], "hw") == 0) {
        bad = mode_hw(id, desc, argv[3], argv[4]);
    } else if (strcmp(argv[1], "dynbatch") == 0) {
        bad = mode_dynbatch(id, desc, argv[3], argv[4]);
    } else if (strcmp(argv[1], "v2") == 0) {
        bad = mode_v2(id, desc, argv[3], argv[4]);
    }
    CHECK(aclmdlDestroyDesc(desc));
    CHECK(aclmdlUnload(id));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("%s\n", bad ? "FAILED" : "PASSED");
    return bad;
}

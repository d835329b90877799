/*
 * AIPP classification sample, written as CANN's AIPP samples are: the model
 * was converted with atc --insert_op_conf=aipp_cls.cfg, so the application
 * hands the raw NV12 camera frame to aclmdlExecute and the model's AIPP stage
 * crops it, converts YUV to BGR and normalises it.
 *
 *   aipp_classify <aipp_model.om> <frame.nv12> [<plain_model.om>]
 *
 * With a plain model (the same network converted without --insert_op_conf)
 * the sample also runs the usual host path on the same frame: crop, BT.601
 * YUV -> BGR and (x / 255 - 0.5) / 0.5 in float on the CPU, then that model,
 * and prints both results side by side. With the PP-OCR direction classifier
 * (cls, 3 x 48 x 192) the classes are 0 and 180 degrees.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

#define CHECK(x)                                                                                  \
    do {                                                                                          \
        aclError e_ = (x);                                                                        \
        if (e_ != ACL_SUCCESS) {                                                                  \
            fprintf(stderr, "aipp_classify: %s failed: %d\n%s\n", #x, e_, aclGetRecentErrMsg()); \
            exit(1);                                                                              \
        }                                                                                         \
    } while (0)

static void *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "aipp_classify: cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *p = malloc(n > 0 ? (size_t)n : 1);
    if (p == NULL || n <= 0 || fread(p, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "aipp_classify: cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    *size = (size_t)n;
    return p;
}

/* Loads a model, runs it once on `bytes` of host input, returns its output 0 (host floats, *n of them). */
static float *run_model(const char *om, const void *input, size_t bytes, size_t *n)
{
    uint32_t id = 0;
    CHECK(aclmdlLoadFromFile(om, &id));
    aclmdlDesc *desc = aclmdlCreateDesc();
    CHECK(aclmdlGetDesc(desc, id));
    const size_t in_size = aclmdlGetInputSizeByIndex(desc, 0);
    const size_t out_size = aclmdlGetOutputSizeByIndex(desc, 0);
    if (in_size != bytes) {
        fprintf(stderr, "aipp_classify: %s takes %zu input bytes, the frame gives %zu\n", om, in_size, bytes);
        exit(1);
    }
    void *in_dev = NULL, *out_dev = NULL;
    CHECK(aclrtMalloc(&in_dev, in_size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&out_dev, out_size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(in_dev, in_size, input, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    aclDataBuffer *ib = aclCreateDataBuffer(in_dev, in_size), *ob = aclCreateDataBuffer(out_dev, out_size);
    CHECK(aclmdlAddDatasetBuffer(in, ib));
    CHECK(aclmdlAddDatasetBuffer(out, ob));
    CHECK(aclmdlExecute(id, in, out));
    float *res = malloc(out_size);
    CHECK(aclrtMemcpy(res, out_size, out_dev, out_size, ACL_MEMCPY_DEVICE_TO_HOST));
    *n = out_size / sizeof(float);
    CHECK(aclDestroyDataBuffer(ib));
    CHECK(aclDestroyDataBuffer(ob));
    CHECK(aclmdlDestroyDataset(in));
    CHECK(aclmdlDestroyDataset(out));
    CHECK(aclrtFree(in_dev));
    CHECK(aclrtFree(out_dev));
    CHECK(aclmdlDestroyDesc(desc));
    CHECK(aclmdlUnload(id));
    return res;
}

/* What the model's AIPP does, on the host: describes the AIPP input and checks the frame fits it. */
static void describe_aipp(const char *om, size_t frame_bytes, int *w, int *h, aclAippInfo *info)
{
    uint32_t id = 0;
    CHECK(aclmdlLoadFromFile(om, &id));
    aclmdlInputAippType type;
    size_t attached = 0;
    CHECK(aclmdlGetAippType(id, 0, &type, &attached));
    if (type != ACL_DATA_WITH_STATIC_AIPP) {
        fprintf(stderr, "aipp_classify: %s has no static AIPP on input 0 (type %d)\n", om, (int)type);
        exit(1);
    }
    CHECK(aclmdlGetFirstAippInfo(id, 0, info));
    aclmdlDesc *desc = aclmdlCreateDesc();
    CHECK(aclmdlGetDesc(desc, id));
    aclmdlIODims raw, model;
    CHECK(aclmdlGetInputDims(desc, 0, &raw));
    CHECK(aclmdlGetInputDimsV2(desc, 0, &model));
    printf("AIPP input: %dx%d %s frame (dims [%lld,%lld,%lld,%lld], %zu bytes); "
           "the network sees [%lld,%lld,%lld,%lld]\n",
           info->srcImageSizeW, info->srcImageSizeH, info->inputFormat == ACL_YUV420SP_U8 ? "NV12" : "raw",
           (long long)raw.dims[0], (long long)raw.dims[1], (long long)raw.dims[2], (long long)raw.dims[3],
           aclmdlGetInputSizeByIndex(desc, 0), (long long)model.dims[0], (long long)model.dims[1],
           (long long)model.dims[2], (long long)model.dims[3]);
    printf("AIPP stages: crop %dx%d at (%d,%d), colour conversion %s, mean %d, var_reci %.6f\n", info->cropSizeW,
           info->cropSizeH, info->loadStartPosW, info->loadStartPosH, info->cscSwitch ? "on" : "off", info->meanChn0,
           (double)info->varReciChn0);
    if (info->inputFormat != ACL_YUV420SP_U8 || aclmdlGetInputSizeByIndex(desc, 0) != frame_bytes) {
        fprintf(stderr, "aipp_classify: the model wants a %zu-byte NV12 frame, the file has %zu bytes\n",
                aclmdlGetInputSizeByIndex(desc, 0), frame_bytes);
        exit(1);
    }
    *w = info->srcImageSizeW;
    *h = info->srcImageSizeH;
    CHECK(aclmdlDestroyDesc(desc));
    CHECK(aclmdlUnload(id));
}

static uint8_t clamp_u8(double v)
{
    return (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : lrint(v)));
}

/* The host path: crop, BT.601 narrow YUV -> BGR in float, (x / 255 - 0.5) / 0.5, NCHW. */
static float *host_preprocess(const uint8_t *nv12, int w, int h, const aclAippInfo *a, size_t *bytes)
{
    const int cw = a->cropSizeW, ch = a->cropSizeH;
    float *x = malloc((size_t)3 * cw * ch * sizeof(float));
    for (int r = 0; r < ch; r++) {
        for (int c = 0; c < cw; c++) {
            const int sy = r + a->loadStartPosH, sx = c + a->loadStartPosW;
            const double y = nv12[sy * w + sx] - 16.0;
            const uint8_t *uv = nv12 + (size_t)w * h + (size_t)(sy / 2) * w + (sx / 2) * 2;
            const double u = uv[0] - 128.0, v = uv[1] - 128.0;
            const uint8_t bgr[3] = {clamp_u8(1.164 * y + 2.018 * u), clamp_u8(1.164 * y - 0.391 * u - 0.813 * v),
                                    clamp_u8(1.164 * y + 1.596 * v)};
            for (int k = 0; k < 3; k++) {
                x[(size_t)k * cw * ch + (size_t)r * cw + c] = (float)((bgr[k] / 255.0 - 0.5) / 0.5);
            }
        }
    }
    *bytes = (size_t)3 * cw * ch * sizeof(float);
    (void)h;
    return x;
}

static void print_probs(const char *what, const float *v, size_t n)
{
    printf("%s:", what);
    size_t best = 0;
    for (size_t i = 0; i < n; i++) {
        printf(" class %zu %.4f", i, (double)v[i]);
        best = v[i] > v[best] ? i : best;
    }
    printf("  -> class %zu\n", best);
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: %s <aipp_model.om> <frame.nv12> [<plain_model.om>]\n", argv[0]);
        return 2;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    size_t frame_bytes = 0;
    uint8_t *frame = read_file(argv[2], &frame_bytes);
    aclAippInfo info;
    int w = 0, h = 0;
    describe_aipp(argv[1], frame_bytes, &w, &h, &info);
    size_t n = 0;
    float *with_aipp = run_model(argv[1], frame, frame_bytes, &n);
    print_probs("AIPP in the model ", with_aipp, n);
    int rc = 0;
    if (argc == 4) {
        size_t bytes = 0, m = 0;
        float *x = host_preprocess(frame, w, h, &info, &bytes);
        float *plain = run_model(argv[3], x, bytes, &m);
        print_probs("host pre-processing", plain, m);
        size_t a = 0, b = 0;
        for (size_t i = 0; i < n && i < m; i++) {
            a = with_aipp[i] > with_aipp[a] ? i : a;
            b = plain[i] > plain[b] ? i : b;
        }
        printf("%s\n", a == b && m == n ? "same class on both paths" : "THE PATHS DISAGREE");
        rc = a == b && m == n ? 0 : 1;
        free(x);
        free(plain);
    }
    free(with_aipp);
    free(frame);
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return rc;
}

/*
 * DVPP classification sample, written as CANN's own classification samples
 * are: a JPEG file -> acldvppJpegDecodeAsync (NV12) -> acldvppVpcResizeAsync
 * to the model's input size -> acldvppVpcConvertColorAsync (BGR888) -> host
 * normalisation to NCHW float -> aclmdlExecute -> top-5 of the output.
 *
 *   dvpp_classify <model.om> <image.jpg> [mean std]
 *
 * The model takes one float NCHW image (a -1 batch is run with 1); its
 * input is normalised as (x / 255 - mean) / std, by default mean = std =
 * 0.5 (PaddleOCR's models). With the PP-OCR direction classifier (cls.om,
 * 3 x 48 x 192) the classes are 0 and 180 degrees.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"

#define CHECK(x)                                                                        \
    do {                                                                                \
        aclError e_ = (x);                                                              \
        if (e_ != ACL_SUCCESS) {                                                        \
            fprintf(stderr, "dvpp_classify: %s failed: %d\n%s\n", #x, e_, aclGetRecentErrMsg()); \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

#define ALIGN_UP(x, a) (((x) + (a) - 1) / (a) * (a))

static void *read_file(const char *path, uint32_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "dvpp_classify: cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *p = malloc((size_t)n);
    if (p == NULL || fread(p, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "dvpp_classify: cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    *size = (uint32_t)n;
    return p;
}

/* A picture description over a new DVPP buffer. */
static acldvppPicDesc *new_pic(acldvppPixelFormat fmt, uint32_t w, uint32_t h, uint32_t ws, uint32_t hs,
                               uint32_t size)
{
    void *buf = NULL;
    CHECK(acldvppMalloc(&buf, size));
    acldvppPicDesc *p = acldvppCreatePicDesc();
    CHECK(acldvppSetPicDescData(p, buf));
    CHECK(acldvppSetPicDescSize(p, size));
    CHECK(acldvppSetPicDescFormat(p, fmt));
    CHECK(acldvppSetPicDescWidth(p, w));
    CHECK(acldvppSetPicDescHeight(p, h));
    CHECK(acldvppSetPicDescWidthStride(p, ws));
    CHECK(acldvppSetPicDescHeightStride(p, hs));
    return p;
}

static void free_pic(acldvppPicDesc *p)
{
    CHECK(acldvppFree(acldvppGetPicDescData(p)));
    CHECK(acldvppDestroyPicDesc(p));
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 5) {
        fprintf(stderr, "usage: %s <model.om> <image.jpg> [mean std]\n", argv[0]);
        return 2;
    }
    const float mean = argc == 5 ? strtof(argv[3], NULL) : 0.5f;
    const float stdv = argc == 5 ? strtof(argv[4], NULL) : 0.5f;
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = NULL;
    CHECK(aclrtCreateStream(&stream));

    /* the model and its input size */
    uint32_t model = 0;
    CHECK(aclmdlLoadFromFile(argv[1], &model));
    aclmdlDesc *md = aclmdlCreateDesc();
    CHECK(aclmdlGetDesc(md, model));
    aclmdlIODims dims;
    CHECK(aclmdlGetInputDims(md, 0, &dims));
    if (dims.dimCount != 4 || dims.dims[1] != 3 || dims.dims[2] <= 0 || dims.dims[3] <= 0) {
        fprintf(stderr, "dvpp_classify: the model input is not [N,3,H,W] with a fixed H and W\n");
        return 1;
    }
    const uint32_t mh = (uint32_t)dims.dims[2];
    const uint32_t mw = (uint32_t)dims.dims[3];

    /* JPEG -> NV12 (JPEGD strides: width 64-aligned, height 16-aligned on this SoC) */
    uint32_t jsize = 0;
    void *jhost = read_file(argv[2], &jsize);
    uint32_t w = 0, h = 0, dec_size = 0;
    int32_t comps = 0;
    acldvppJpegFormat css = ACL_JPEG_CSS_UNKNOWN;
    CHECK(acldvppJpegGetImageInfoV2(jhost, jsize, &w, &h, &comps, &css));
    CHECK(acldvppJpegPredictDecSize(jhost, jsize, PIXEL_FORMAT_YUV_SEMIPLANAR_420, &dec_size));
    void *jdev = NULL;
    CHECK(acldvppMalloc(&jdev, jsize));
    CHECK(aclrtMemcpy(jdev, jsize, jhost, jsize, ACL_MEMCPY_HOST_TO_DEVICE));

    acldvppChannelDesc *ch = acldvppCreateChannelDesc();
    CHECK(acldvppCreateChannel(ch));
    acldvppPicDesc *dec = new_pic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, ALIGN_UP(w, 2), ALIGN_UP(h, 2), ALIGN_UP(w, 64),
                                  ALIGN_UP(h, 16), dec_size);
    CHECK(acldvppJpegDecodeAsync(ch, jdev, jsize, dec, stream));

    /* VPC: resize to the model size (NV12, widthStride 16-aligned), then NV12 -> BGR888 */
    const uint32_t rws = ALIGN_UP(mw, 16), rhs = ALIGN_UP(mh, 2);
    acldvppPicDesc *small = new_pic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, mw, mh, rws, rhs, rws * rhs * 3 / 2);
    acldvppResizeConfig *rc = acldvppCreateResizeConfig();
    CHECK(acldvppSetResizeConfigInterpolation(rc, 1));
    CHECK(acldvppVpcResizeAsync(ch, dec, small, rc, stream));
    const uint32_t bws = ALIGN_UP(mw * 3, 16);
    acldvppPicDesc *bgr = new_pic(PIXEL_FORMAT_BGR_888, mw, mh, bws, mh, bws * mh);
    CHECK(acldvppVpcConvertColorAsync(ch, small, bgr, stream));
    CHECK(aclrtSynchronizeStream(stream));
    printf("%s: %ux%u JPEG (subsampling %d) decoded to %ux%u NV12, resized to %ux%u, converted to BGR888\n",
           argv[2], w, h, (int)css, acldvppGetPicDescWidth(dec), acldvppGetPicDescHeight(dec), mw, mh);

    /* host: BGR888 -> normalised float NCHW */
    const size_t plane = (size_t)mw * mh;
    float *x = malloc(plane * 3 * sizeof(float));
    uint8_t *pix = malloc((size_t)bws * mh);
    CHECK(aclrtMemcpy(pix, (size_t)bws * mh, acldvppGetPicDescData(bgr), (size_t)bws * mh,
                      ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t yy = 0; yy < mh; ++yy) {
        for (uint32_t xx = 0; xx < mw; ++xx) {
            for (uint32_t c = 0; c < 3; ++c) {
                x[c * plane + (size_t)yy * mw + xx] = ((float)pix[(size_t)yy * bws + xx * 3 + c] / 255.0f - mean) / stdv;
            }
        }
    }

    /* the model */
    const size_t in_bytes = plane * 3 * sizeof(float);
    void *din = NULL;
    CHECK(aclrtMalloc(&din, in_bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(din, in_bytes, x, in_bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    aclmdlDataset *in = aclmdlCreateDataset();
    aclmdlDataset *out = aclmdlCreateDataset();
    aclDataBuffer *bin = aclCreateDataBuffer(din, in_bytes);
    CHECK(aclmdlAddDatasetBuffer(in, bin));
    const int64_t shape[4] = {1, 3, mh, mw};
    aclTensorDesc *td = aclCreateTensorDesc(ACL_FLOAT, 4, shape, ACL_FORMAT_NCHW);
    CHECK(aclmdlSetDatasetTensorDesc(in, td, 0));
    aclDataBuffer *bout = aclCreateDataBuffer(NULL, 0);
    CHECK(aclmdlAddDatasetBuffer(out, bout));
    CHECK(aclmdlExecute(model, in, out));
    const size_t ob = aclGetDataBufferSizeV2(bout);
    float *y = malloc(ob);
    CHECK(aclrtMemcpy(y, ob, aclGetDataBufferAddr(bout), ob, ACL_MEMCPY_DEVICE_TO_HOST));
    const size_t n = ob / sizeof(float);

    /* top-5 */
    printf("top-%zu of %zu classes:\n", n < 5 ? n : (size_t)5, n);
    for (size_t k = 0; k < 5 && k < n; ++k) {
        size_t best = 0;
        for (size_t i = 1; i < n; ++i) {
            if (y[i] > y[best]) {
                best = i;
            }
        }
        if (n == 2) {
            printf("  class %zu (%s degrees): %.4f\n", best, best == 0 ? "0" : "180", y[best]);
        } else {
            printf("  class %zu: %.4f\n", best, y[best]);
        }
        y[best] = -1e30f;
    }

    CHECK(aclrtFree(aclGetDataBufferAddr(bout)));
    aclDestroyDataBuffer(bout);
    aclDestroyDataBuffer(bin);
    aclDestroyTensorDesc(td);
    aclmdlDestroyDataset(in);
    aclmdlDestroyDataset(out);
    CHECK(aclrtFree(din));
    free(y);
    free(x);
    free(pix);
    CHECK(acldvppDestroyResizeConfig(rc));
    free_pic(bgr);
    free_pic(small);
    free_pic(dec);
    CHECK(acldvppDestroyChannel(ch));
    CHECK(acldvppDestroyChannelDesc(ch));
    CHECK(acldvppFree(jdev));
    free(jhost);
    aclmdlDestroyDesc(md);
    CHECK(aclmdlUnload(model));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return 0;
}

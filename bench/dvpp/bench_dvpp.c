/*
 * DVPP speed on one core (run_bench.sh pins it): a 1920x1080 4:2:0 JPEG
 * decoded by acldvppJpegDecodeAsync (to NV12, queued and synchronised)
 * against libjpeg-turbo's own tjDecompressToYUVPlanes and tjDecompress2
 * (RGB), and a 1920x1080 NV12 -> 224x224 VPC resize (bilinear, nearest).
 * Prints the median of each. Not a test.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"
#include "common/bench_util.h"

#define W 1920
#define H 1080
#define RUNS 30

#define CHECK(x)                                                              \
    do {                                                                      \
        aclError e_ = (x);                                                    \
        if (e_ != ACL_SUCCESS) {                                              \
            fprintf(stderr, "%s failed: %d (%s)\n", #x, e_, aclGetRecentErrMsg()); \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

static acldvppPicDesc *pic(acldvppPixelFormat fmt, uint32_t w, uint32_t h, uint32_t ws, uint32_t hs)
{
    void *d = NULL;
    const uint32_t size = ws * hs * 3 / 2;
    CHECK(acldvppMalloc(&d, size));
    memset(d, 0, size);
    acldvppPicDesc *p = acldvppCreatePicDesc();
    acldvppSetPicDescData(p, d);
    acldvppSetPicDescSize(p, size);
    acldvppSetPicDescFormat(p, fmt);
    acldvppSetPicDescWidth(p, w);
    acldvppSetPicDescHeight(p, h);
    acldvppSetPicDescWidthStride(p, ws);
    acldvppSetPicDescHeightStride(p, hs);
    return p;
}

int main(void)
{
    /* a photo-like test picture: smooth gradients and texture */
    unsigned char *rgb = malloc((size_t)W * H * 3);
    for (int y = 0; y < H; ++y) {
        for (int x = 0; x < W; ++x) {
            unsigned char *p = rgb + ((size_t)y * W + x) * 3;
            p[0] = (unsigned char)(128 + 100 * sin(x / 37.0) * cos(y / 23.0));
            p[1] = (unsigned char)(x * 255 / W);
            p[2] = (unsigned char)((y * 255 / H) ^ ((x * y) & 15));
        }
    }
    tjhandle tc = tjInitCompress();
    unsigned char *jpg = NULL;
    unsigned long jlen = 0;
    if (tjCompress2(tc, rgb, W, 0, H, TJPF_RGB, &jpg, &jlen, TJSAMP_420, 90, 0) != 0) {
        fprintf(stderr, "encode failed\n");
        return 1;
    }
    tjDestroy(tc);
    printf("input: %dx%d 4:2:0 JPEG, %lu bytes; median of %d runs\n", W, H, jlen, RUNS);

    double t[RUNS];
    tjhandle td = tjInitDecompress();
    unsigned char *planes[3] = {malloc((size_t)W * H), malloc((size_t)W * H / 4), malloc((size_t)W * H / 4)};
    for (int i = 0; i < RUNS; ++i) {
        const double t0 = bench_now_ms();
        tjDecompressToYUVPlanes(td, jpg, jlen, planes, W, NULL, H, 0);
        t[i] = bench_now_ms() - t0;
    }
    const double tj_yuv = bench_median(t, RUNS);
    for (int i = 0; i < RUNS; ++i) {
        const double t0 = bench_now_ms();
        tjDecompress2(td, jpg, jlen, rgb, W, 0, H, TJPF_RGB, 0);
        t[i] = bench_now_ms() - t0;
    }
    const double tj_rgb = bench_median(t, RUNS);
    tjDestroy(td);

    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = NULL;
    CHECK(aclrtCreateStream(&stream));
    acldvppChannelDesc *ch = acldvppCreateChannelDesc();
    CHECK(acldvppCreateChannel(ch));
    void *djpg = NULL;
    CHECK(acldvppMalloc(&djpg, jlen));
    memcpy(djpg, jpg, jlen);
    acldvppPicDesc *dec = pic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, W, H, (W + 63) / 64 * 64, (H + 15) / 16 * 16);
    for (int i = 0; i < RUNS; ++i) {
        const double t0 = bench_now_ms();
        CHECK(acldvppJpegDecodeAsync(ch, djpg, (uint32_t)jlen, dec, stream));
        CHECK(aclrtSynchronizeStream(stream));
        t[i] = bench_now_ms() - t0;
    }
    const double dvpp_dec = bench_median(t, RUNS);
    printf("JPEG decode  tjDecompressToYUVPlanes %7.2f ms | tjDecompress2 RGB %7.2f ms | "
           "acldvppJpegDecodeAsync NV12 %7.2f ms (%.2fx the YUV decode)\n",
           tj_yuv, tj_rgb, dvpp_dec, dvpp_dec / tj_yuv);

    acldvppPicDesc *small = pic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, 224, 224, 224, 224);
    acldvppResizeConfig *cfg = acldvppCreateResizeConfig();
    for (uint32_t mode = 1; mode <= 2; ++mode) {
        acldvppSetResizeConfigInterpolation(cfg, mode);
        for (int i = 0; i < RUNS; ++i) {
            const double t0 = bench_now_ms();
            CHECK(acldvppVpcResizeAsync(ch, dec, small, cfg, stream));
            CHECK(aclrtSynchronizeStream(stream));
            t[i] = bench_now_ms() - t0;
        }
        printf("VPC resize   1920x1080 -> 224x224 NV12, %s: %6.3f ms (queue + run + synchronise)\n",
               mode == 1 ? "bilinear" : "nearest ", bench_median(t, RUNS));
    }
    acldvppDestroyResizeConfig(cfg);
    acldvppFree(acldvppGetPicDescData(small));
    acldvppDestroyPicDesc(small);
    acldvppFree(acldvppGetPicDescData(dec));
    acldvppDestroyPicDesc(dec);
    acldvppFree(djpg);
    acldvppDestroyChannel(ch);
    acldvppDestroyChannelDesc(ch);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    for (int i = 0; i < 3; ++i) {
        free(planes[i]);
    }
    tjFree(jpg);
    free(rgb);
    return 0;
}

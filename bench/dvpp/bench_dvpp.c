/*
 * DVPP speed on one core (run_bench.sh pins it): a 1920x1080 4:2:0 JPEG
 * decoded by acldvppJpegDecodeAsync (to NV12, queued and synchronised)
 * against libjpeg-turbo's own tjDecompressToYUVPlanes and tjDecompress2
 * (RGB), a 1920x1080 NV12 -> 224x224 VPC resize (bilinear, nearest), and
 * VDEC on a 1080p H.264 clip encoded here with libx264 (frames per second
 * through aclvdecSendFrame and its callbacks, against FFmpeg's own decode of
 * the same packets). Prints medians and best runs (bench_median sorts). Not a test.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libavcodec/avcodec.h>
#include <pthread.h>
#include <stdatomic.h>
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

#define VFRAMES 60
static atomic_int g_frames, g_stop;

static void on_frame(acldvppStreamDesc *in, acldvppPicDesc *out, void *user)
{
    (void)user;
    acldvppFree(acldvppGetStreamDescData(in));
    acldvppDestroyStreamDesc(in);
    acldvppFree(acldvppGetPicDescData(out));
    acldvppDestroyPicDesc(out);
    atomic_fetch_add(&g_frames, 1);
}

static void *report(void *arg)
{
    (void)arg;
    while (!atomic_load(&g_stop)) {
        (void)aclrtProcessReport(20);
    }
    return NULL;
}

/* Encodes VFRAMES moving 1080p frames with libx264; returns the packet count (0 without libx264). */
static int encode_clip(uint8_t **pkts, int *sizes)
{
    const AVCodec *enc = avcodec_find_encoder_by_name("libx264");
    if (enc == NULL) {
        return 0;
    }
    AVCodecContext *c = avcodec_alloc_context3(enc);
    c->width = W;
    c->height = H;
    c->pix_fmt = AV_PIX_FMT_YUV420P;
    c->time_base = (AVRational){1, 30};
    c->gop_size = 30;
    c->bit_rate = 8000000;
    if (avcodec_open2(c, enc, NULL) < 0) {
        return 0;
    }
    AVFrame *f = av_frame_alloc();
    f->format = AV_PIX_FMT_YUV420P;
    f->width = W;
    f->height = H;
    av_frame_get_buffer(f, 0);
    AVPacket *p = av_packet_alloc();
    int n = 0;
    for (int i = 0; i <= VFRAMES; ++i) {
        if (i < VFRAMES) {
            av_frame_make_writable(f);
            for (int y = 0; y < H; ++y) {
                for (int x = 0; x < W; ++x) {
                    f->data[0][y * f->linesize[0] + x] = (uint8_t)(128 + 90 * sin((x + 4 * i) / 41.0) * cos(y / 29.0));
                }
            }
            memset(f->data[1], 110, (size_t)f->linesize[1] * H / 2);
            memset(f->data[2], 140, (size_t)f->linesize[2] * H / 2);
            f->pts = i;
        }
        avcodec_send_frame(c, i < VFRAMES ? f : NULL);
        while (avcodec_receive_packet(c, p) == 0 && n < VFRAMES) {
            pkts[n] = malloc((size_t)p->size);
            memcpy(pkts[n], p->data, (size_t)p->size);
            sizes[n++] = p->size;
            av_packet_unref(p);
        }
    }
    av_packet_free(&p);
    av_frame_free(&f);
    avcodec_free_context(&c);
    return n;
}

static void bench_vdec(void)
{
    uint8_t *pkts[VFRAMES];
    int sizes[VFRAMES];
    const int n = encode_clip(pkts, sizes);
    if (n == 0) {
        printf("VDEC         skipped: no libx264 to make the clip\n");
        return;
    }
    /* FFmpeg's own decode of the packets */
    const AVCodec *dec = avcodec_find_decoder(AV_CODEC_ID_H264);
    AVCodecContext *c = avcodec_alloc_context3(dec);
    c->thread_count = 1;
    avcodec_open2(c, dec, NULL);
    AVPacket *p = av_packet_alloc();
    AVFrame *f = av_frame_alloc();
    double t0 = bench_now_ms();
    for (int i = 0; i <= n; ++i) {
        if (i < n) {
            av_new_packet(p, sizes[i]);
            memcpy(p->data, pkts[i], (size_t)sizes[i]);
        }
        avcodec_send_packet(c, i < n ? p : NULL);
        av_packet_unref(p);
        while (avcodec_receive_frame(c, f) == 0) {
            av_frame_unref(f);
        }
    }
    const double ff_ms = bench_now_ms() - t0;
    av_frame_free(&f);
    av_packet_free(&p);
    avcodec_free_context(&c);

    pthread_t th;
    pthread_create(&th, NULL, report, NULL);
    aclvdecChannelDesc *ch = aclvdecCreateChannelDesc();
    aclvdecSetChannelDescThreadId(ch, (uint64_t)th);
    aclvdecSetChannelDescCallback(ch, on_frame);
    aclvdecSetChannelDescEnType(ch, H264_HIGH_LEVEL);
    CHECK(aclvdecCreateChannel(ch));
    const uint32_t out_size = W * ((H + 1) / 2 * 2) * 3 / 2;
    t0 = bench_now_ms();
    for (int i = 0; i < n; ++i) {
        acldvppStreamDesc *in = acldvppCreateStreamDesc();
        void *d = NULL;
        CHECK(acldvppMalloc(&d, (size_t)sizes[i]));
        memcpy(d, pkts[i], (size_t)sizes[i]);
        acldvppSetStreamDescData(in, d);
        acldvppSetStreamDescSize(in, (uint32_t)sizes[i]);
        acldvppPicDesc *out = acldvppCreatePicDesc();
        void *o = NULL;
        CHECK(acldvppMalloc(&o, out_size));
        acldvppSetPicDescData(out, o);
        acldvppSetPicDescSize(out, out_size);
        acldvppSetPicDescFormat(out, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
        CHECK(aclvdecSendFrame(ch, in, out, NULL, NULL));
    }
    acldvppStreamDesc *eos = acldvppCreateStreamDesc();
    acldvppSetStreamDescEos(eos, 1);
    CHECK(aclvdecSendFrame(ch, eos, NULL, NULL, NULL));
    const double vdec_ms = bench_now_ms() - t0;
    printf("VDEC         1080p H.264, %d frames: aclvdecSendFrame + callbacks %.1f fps | FFmpeg decode alone %.1f fps "
           "(%d callbacks)\n",
           n, n * 1000.0 / vdec_ms, n * 1000.0 / ff_ms, atomic_load(&g_frames));
    acldvppDestroyStreamDesc(eos);
    CHECK(aclvdecDestroyChannel(ch));
    aclvdecDestroyChannelDesc(ch);
    atomic_store(&g_stop, 1);
    pthread_join(th, NULL);
    for (int i = 0; i < n; ++i) {
        free(pkts[i]);
    }
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

    /* the three decoders alternate within each run, so machine load hits them alike */
    double t[RUNS], t_yuv[RUNS], t_rgb[RUNS];
    tjhandle td = tjInitDecompress();
    unsigned char *planes[3] = {malloc((size_t)W * H), malloc((size_t)W * H / 4), malloc((size_t)W * H / 4)};
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
        double t0 = bench_now_ms();
        if (tjDecompressToYUVPlanes(td, jpg, jlen, planes, W, NULL, H, 0) != 0) {
            fprintf(stderr, "tjDecompressToYUVPlanes: %s\n", tjGetErrorStr2(td));
            return 1;
        }
        t_yuv[i] = bench_now_ms() - t0;
        t0 = bench_now_ms();
        if (tjDecompress2(td, jpg, jlen, rgb, W, 0, H, TJPF_RGB, 0) != 0) {
            fprintf(stderr, "tjDecompress2: %s\n", tjGetErrorStr2(td));
            return 1;
        }
        t_rgb[i] = bench_now_ms() - t0;
        t0 = bench_now_ms();
        CHECK(acldvppJpegDecodeAsync(ch, djpg, (uint32_t)jlen, dec, stream));
        CHECK(aclrtSynchronizeStream(stream));
        t[i] = bench_now_ms() - t0;
    }
    tjDestroy(td);
    /* medians, and the best run (what the code costs when the shared machine leaves it alone) */
    const double tj_yuv = bench_median(t_yuv, RUNS), tj_yuv_min = t_yuv[0];
    const double tj_rgb = bench_median(t_rgb, RUNS), tj_rgb_min = t_rgb[0];
    const double dvpp_dec = bench_median(t, RUNS), dvpp_min = t[0];
    printf("JPEG decode, median (best) ms: tjDecompressToYUVPlanes %.2f (%.2f) | tjDecompress2 RGB %.2f (%.2f) | "
           "acldvppJpegDecodeAsync NV12 %.2f (%.2f): %.2fx (%.2fx) the YUV decode\n",
           tj_yuv, tj_yuv_min, tj_rgb, tj_rgb_min, dvpp_dec, dvpp_min, dvpp_dec / tj_yuv, dvpp_min / tj_yuv_min);

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
        const double med = bench_median(t, RUNS);
        printf("VPC resize   1920x1080 -> 224x224 NV12, %s: median %.3f ms, best %.3f ms (queue + run + synchronise)\n",
               mode == 1 ? "bilinear" : "nearest ", med, t[0]);
    }
    acldvppDestroyResizeConfig(cfg);
    acldvppFree(acldvppGetPicDescData(small));
    acldvppDestroyPicDesc(small);
    acldvppFree(acldvppGetPicDescData(dec));
    acldvppDestroyPicDesc(dec);
    acldvppFree(djpg);
    acldvppDestroyChannel(ch);
    acldvppDestroyChannelDesc(ch);
    bench_vdec();
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

/*
 * VENC: NV12 pictures encoded by aclvencSendFrame (callbacks on a report
 * thread) must form an H.264 / H.265 stream that FFmpeg's own decoder decodes back
 * to the pictures (PSNR > 35 dB), one encoded frame per picture in order, a
 * forced I frame where asked (an IDR NAL unit in that frame only besides the
 * first); plus the channel description's parameters and bad sends.
 */
#include <libavcodec/avcodec.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>

#include "dvpp_test_util.h"

#define VW 320
#define VH 240
#define NPIC 10
#define FORCED 5

static uint8_t *g_pics[NPIC]; /* host copies of the inputs, NV12 VW x VH */
static uint8_t *g_stream;
static size_t g_stream_len;
static int g_frame_size[NPIC];
static bool g_idr[NPIC];
static atomic_int g_calls, g_bad, g_stop;

static bool g_hevc;
static char g_nals[NPIC][64];

/* Whether an Annex-B frame holds an IDR picture (H.264 NAL type 5, H.265 types 19 / 20). */
static bool has_idr(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i + 3 < n; ++i) {
        if (p[i] == 0 && p[i + 1] == 0 && p[i + 2] == 1) {
            const unsigned t = g_hevc ? (p[i + 3] >> 1) & 0x3Fu : p[i + 3] & 0x1Fu;
            if (g_hevc ? (t == 19 || t == 20) : t == 5) {
                return true;
            }
        }
    }
    return false;
}

static void on_packet(acldvppPicDesc *input, acldvppStreamDesc *output, void *user)
{
    const intptr_t k = (intptr_t)user;
    const int call = atomic_fetch_add(&g_calls, 1);
    const uint8_t *d = acldvppGetStreamDescData(output);
    const uint32_t n = acldvppGetStreamDescSize(output);
    if (k != call || acldvppGetStreamDescRetCode(output) != 0 || d == NULL || n == 0) {
        atomic_fetch_add(&g_bad, 1);
    } else {
        g_stream = realloc(g_stream, g_stream_len + n);
        memcpy(g_stream + g_stream_len, d, n);
        g_stream_len += n;
        g_frame_size[k] = (int)n;
        g_idr[k] = has_idr(d, n);
        size_t o = 0;
        for (uint32_t i = 0; i + 3 < n && o + 4 < sizeof(g_nals[k]); ++i) {
            if (d[i] == 0 && d[i + 1] == 0 && d[i + 2] == 1) {
                o += (size_t)snprintf(g_nals[k] + o, sizeof(g_nals[k]) - o, "%u ",
                                      g_hevc ? (d[i + 3] >> 1) & 0x3Fu : d[i + 3] & 0x1Fu);
            }
        }
    }
    acldvppFree(acldvppGetPicDescData(input));
    acldvppDestroyPicDesc(input);
}

static acldvppPicDesc *picture(int i)
{
    const size_t n = (size_t)VW * VH * 3 / 2;
    g_pics[i] = malloc(n);
    for (int y = 0; y < VH; ++y) {
        for (int x = 0; x < VW; ++x) {
            g_pics[i][y * VW + x] = (uint8_t)(40 + ((x + 3 * i) / 20 + y / 20) % 2 * 120 + y / 4);
        }
    }
    for (size_t j = 0; j < (size_t)VW * VH / 2; ++j) {
        g_pics[i][(size_t)VW * VH + j] = (uint8_t)(128 + (j % 2 ? 20 : -20));
    }
    acldvppPicDesc *p = make_pic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, VW, VH, VW, VH, 0);
    memcpy(acldvppGetPicDescData(p), g_pics[i], n);
    return p;
}

static double decode_psnr(void)
{
    const AVCodec *dec = avcodec_find_decoder(g_hevc ? AV_CODEC_ID_HEVC : AV_CODEC_ID_H264);
    AVCodecContext *ctx = avcodec_alloc_context3(dec);
    assert_int_equal(avcodec_open2(ctx, dec, NULL), 0);
    AVPacket *p = av_packet_alloc();
    AVFrame *f = av_frame_alloc();
    double worst = 1e9;
    int got = 0;
    size_t off = 0;
    for (int i = 0; i <= NPIC; ++i) {
        if (i < NPIC) {
            assert_int_equal(av_new_packet(p, g_frame_size[i]), 0);
            memcpy(p->data, g_stream + off, (size_t)g_frame_size[i]);
            off += (size_t)g_frame_size[i];
            assert_true(avcodec_send_packet(ctx, p) >= 0);
            av_packet_unref(p);
        } else {
            assert_true(avcodec_send_packet(ctx, NULL) >= 0);
        }
        while (avcodec_receive_frame(ctx, f) == 0) {
            double se = 0;
            for (int y = 0; y < VH; ++y) {
                for (int x = 0; x < VW; ++x) {
                    const double e = (double)f->data[0][y * f->linesize[0] + x] - g_pics[got][y * VW + x];
                    se += e * e;
                }
            }
            const double psnr = 10 * log10(255.0 * 255.0 / (se / (VW * VH) + 1e-9));
            worst = psnr < worst ? psnr : worst;
            ++got;
            av_frame_unref(f);
        }
    }
    assert_int_equal(got, NPIC);
    av_frame_free(&f);
    av_packet_free(&p);
    avcodec_free_context(&ctx);
    return worst;
}

static void encode(bool hevc, uint32_t rc_mode, uint32_t max_kbps)
{
    g_hevc = hevc;
    atomic_store(&g_calls, 0);
    atomic_store(&g_bad, 0);
    atomic_store(&g_stop, 0);
    g_stream = NULL;
    g_stream_len = 0;
    if (avcodec_find_encoder_by_name(hevc ? "libx265" : "libx264") == NULL) {
        skip();
    }
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, dvpp_report_thread, &g_stop), 0);
    aclvencChannelDesc *ch = aclvencCreateChannelDesc();
    assert_int_equal(aclvencSetChannelDescThreadId(ch, (uint64_t)th), ACL_SUCCESS);
    assert_int_equal(aclvencSetChannelDescCallback(ch, on_packet), ACL_SUCCESS);
    assert_int_equal(aclvencSetChannelDescEnType(ch, hevc ? H265_MAIN_LEVEL : H264_MAIN_LEVEL), ACL_SUCCESS);
    assert_int_equal(aclvencSetChannelDescPicFormat(ch, PIXEL_FORMAT_YUV_SEMIPLANAR_420), ACL_SUCCESS);
    assert_int_equal(aclvencSetChannelDescPicWidth(ch, VW), ACL_SUCCESS);
    assert_int_equal(aclvencSetChannelDescPicHeight(ch, VH), ACL_SUCCESS);
    assert_int_equal(aclvencSetChannelDescKeyFrameInterval(ch, 100), ACL_SUCCESS);
    assert_int_equal(aclvencSetChannelDescRcMode(ch, rc_mode), ACL_SUCCESS);
    assert_int_equal(aclvencSetChannelDescMaxBitRate(ch, max_kbps), ACL_SUCCESS);
    assert_int_equal(aclvencCreateChannel(ch), ACL_SUCCESS);
    aclvencFrameConfig *cfg = aclvencCreateFrameConfig();
    for (int i = 0; i < NPIC; ++i) {
        assert_int_equal(aclvencSetFrameConfigForceIFrame(cfg, i == FORCED), ACL_SUCCESS);
        assert_int_equal(aclvencSendFrame(ch, picture(i), NULL, cfg, (void *)(intptr_t)i), ACL_SUCCESS);
    }
    /* a picture of another size is refused at the call */
    acldvppPicDesc *small = make_pic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, 160, 128, 160, 128, 0);
    assert_int_equal(aclvencSendFrame(ch, small, NULL, cfg, NULL), ACL_ERROR_INVALID_PARAM);
    expect_msg("channel's 320x240");
    free_pic(small);
    assert_int_equal(aclvencSetFrameConfigForceIFrame(cfg, 0), ACL_SUCCESS);
    assert_int_equal(aclvencSetFrameConfigEos(cfg, 1), ACL_SUCCESS);
    assert_int_equal(aclvencSendFrame(ch, NULL, NULL, cfg, NULL), ACL_SUCCESS);
    assert_int_equal(atomic_load(&g_calls), NPIC);
    assert_int_equal(atomic_load(&g_bad), 0);
    for (int i = 0; i < NPIC; ++i) {
        if (g_idr[i] != (i == 0 || i == FORCED)) {
            fail_msg("frame %d: IDR %d (NAL types: %s)", i, g_idr[i], g_nals[i]);
        }
    }
    const double psnr = decode_psnr();
    print_message("  %d frames, %zu bytes, worst luma PSNR %.1f dB\n", NPIC, g_stream_len, psnr);
    assert_true(psnr > 35);
    assert_int_equal(aclvencSetFrameConfigEos(cfg, 0), ACL_SUCCESS);
    acldvppPicDesc *again = make_pic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, VW, VH, VW, VH, 0);
    assert_int_equal(aclvencSendFrame(ch, again, NULL, cfg, NULL), ACL_ERROR_INVALID_PARAM);
    expect_msg("ended");
    free_pic(again);
    assert_int_equal(aclvencDestroyChannel(ch), ACL_SUCCESS);
    assert_int_equal(aclvencDestroyFrameConfig(cfg), ACL_SUCCESS);
    assert_int_equal(aclvencDestroyChannelDesc(ch), ACL_SUCCESS);
    atomic_store(&g_stop, 1);
    pthread_join(th, NULL);
    for (int i = 0; i < NPIC; ++i) {
        free(g_pics[i]);
    }
    free(g_stream);
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
}

/* Bytes maxKbps kbit/s gives the NPIC pictures at the default 30 fps. */
static size_t budget(uint32_t max_kbps)
{
    return (size_t)max_kbps * 1000u / 8u * NPIC / 30u;
}

static void encode_h264(void **state)
{
    (void)state;
    encode(false, 0, 0);
}

static void encode_h265(void **state)
{
    (void)state;
    encode(true, 0, 0);
}

/*
 * rcMode: CBR (2) holds the bit rate (filler data included), VBR (1) and the default (0) stay
 * under it with content this simple: the same pictures, 4000 kbit/s.
 */
static void rate_control_h264(void **state)
{
    (void)state;
    encode(false, 2, 4000);
    const size_t cbr = g_stream_len;
    encode(false, 1, 4000);
    const size_t vbr = g_stream_len;
    encode(false, 0, 4000);
    const size_t dflt = g_stream_len;
    print_message("  4000 kbit/s, %d frames: CBR %zu bytes, VBR %zu, default %zu (budget %zu)\n", NPIC, cbr, vbr, dflt,
                  budget(4000));
    assert_true(cbr >= budget(4000) / 2);
    assert_true(cbr <= budget(4000) * 2);
    assert_true(vbr < budget(4000) / 4);
    assert_true(dflt < budget(4000) / 4);
}

static void channel_desc(void **state)
{
    (void)state;
    aclvencChannelDesc *d = aclvencCreateChannelDesc();
    assert_non_null(d);
    assert_int_equal(aclvencGetChannelDescPicFormat(d), PIXEL_FORMAT_YUV_SEMIPLANAR_420);
    assert_int_equal(aclvencSetChannelDescRcMode(d, 2), ACL_SUCCESS);
    assert_int_equal(aclvencSetChannelDescSrcRate(d, 25), ACL_SUCCESS);
    assert_int_equal(aclvencSetChannelDescMaxBitRate(d, 3000), ACL_SUCCESS);
    /* a user output buffer is refused (the library owns the encoded frames); 0 / NULL keep that */
    assert_int_equal(aclvencSetChannelDescBufSize(d, 1 << 20), ACL_ERROR_FEATURE_UNSUPPORTED);
    expect_msg("VENC bufSize [1048576] is not supported");
    int buf = 0;
    assert_int_equal(aclvencSetChannelDescBufAddr(d, &buf), ACL_ERROR_FEATURE_UNSUPPORTED);
    expect_msg("VENC bufAddr is not supported");
    void *bufp = &buf;
    assert_int_equal(aclvencSetChannelDescParam(d, ACL_VENC_BUF_ADDR_PTR, sizeof(bufp), &bufp),
                     ACL_ERROR_FEATURE_UNSUPPORTED);
    assert_int_equal(aclvencSetChannelDescBufSize(d, 0), ACL_SUCCESS);
    assert_int_equal(aclvencSetChannelDescBufAddr(d, NULL), ACL_SUCCESS);
    assert_int_equal(aclvencGetChannelDescRcMode(d), 2);
    assert_int_equal(aclvencSetChannelDescRcMode(d, 3), ACL_ERROR_INVALID_PARAM);
    expect_msg("rcMode [3]");
    assert_int_equal(aclvencGetChannelDescRcMode(d), 2);
    assert_int_equal(aclvencGetChannelDescSrcRate(d), 25);
    assert_int_equal(aclvencGetChannelDescMaxBitRate(d), 3000);
    assert_int_equal(aclvencGetChannelDescBufSize(d), 0);
    assert_null(aclvencGetChannelDescBufAddr(d));
    uint32_t v = 0;
    size_t n = 0;
    assert_int_equal(aclvencGetChannelDescParam(d, ACL_VENC_SRC_RATE_UINT32, sizeof(v), &n, &v), ACL_SUCCESS);
    assert_int_equal(v, 25);
    v = 0;
    assert_int_equal(aclvencSetChannelDescParam(d, ACL_VENC_SRC_RATE_UINT32, sizeof(v), &v), ACL_ERROR_INVALID_PARAM);
    expect_msg("greater than 0");
    v = PIXEL_FORMAT_RGB_888;
    assert_int_equal(aclvencSetChannelDescParam(d, ACL_VENC_PIXEL_FORMAT_UINT32, sizeof(v), &v),
                     ACL_ERROR_INVALID_PARAM);
    expect_msg("RGB888");
    assert_int_equal(aclvencSetChannelDescParam(d, ACL_VENC_PIC_WIDTH_UINT32, 2, &v), ACL_ERROR_INVALID_PARAM);
    expect_msg("length");
    /* maxIpProp has no counterpart in the software encoders: refused (0, the default, is accepted) */
    v = 5;
    assert_int_equal(aclvencSetChannelDescParam(d, ACL_VENC_MAX_IP_PROP_UINT32, sizeof(v), &v),
                     ACL_ERROR_FEATURE_UNSUPPORTED);
    expect_msg("maxIpProp");
    v = 0;
    assert_int_equal(aclvencSetChannelDescParam(d, ACL_VENC_MAX_IP_PROP_UINT32, sizeof(v), &v), ACL_SUCCESS);
    /* no callback / a size out of range */
    assert_int_equal(aclvencCreateChannel(d), ACL_ERROR_INVALID_PARAM);
    expect_msg("callback");
    assert_int_equal(aclvencSetChannelDescCallback(d, on_packet), ACL_SUCCESS);
    assert_int_equal(aclvencSetChannelDescThreadId(d, 1), ACL_SUCCESS);
    assert_int_equal(aclvencSetChannelDescPicWidth(d, 100), ACL_SUCCESS);
    assert_int_equal(aclvencSetChannelDescPicHeight(d, 100), ACL_SUCCESS);
    assert_int_equal(aclvencCreateChannel(d), ACL_ERROR_INVALID_PARAM);
    expect_msg("128x128");
    aclvencFrameConfig *c = aclvencCreateFrameConfig();
    assert_int_equal(aclvencSetFrameConfigEos(c, 1), ACL_SUCCESS);
    assert_int_equal(aclvencGetFrameConfigEos(c), 1);
    assert_int_equal(aclvencGetFrameConfigForceIFrame(c), 0);
    assert_int_equal(aclvencSendFrame(d, NULL, NULL, c, NULL), ACL_ERROR_INVALID_PARAM);
    expect_msg("not created");
    assert_int_equal(aclvencDestroyFrameConfig(c), ACL_SUCCESS);
    assert_int_equal(aclvencDestroyChannelDesc(d), ACL_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(channel_desc),
        cmocka_unit_test(encode_h264),
        cmocka_unit_test(encode_h265),
        cmocka_unit_test(rate_control_h264),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

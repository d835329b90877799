/*
 * VDEC against FFmpeg: clips encoded here with libavcodec's H.264 and H.265
 * encoders (libx264 / libx265, with B-frames so frames leave the decoder
 * reordered) are decoded
 * by aclvdecSendFrame with callbacks on a report thread, and every output
 * picture must equal FFmpeg's own decode of the same packet byte for byte.
 * Also: a garbage packet (reported at end of stream with retCode 0x20000,
 * no crash), the channel description's parameters and the errors of bad
 * sends.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <libavcodec/avcodec.h>
#include <libavutil/log.h>
#include <pthread.h>
#include <stdatomic.h>

#include "dvpp_test_util.h"
#include <time.h>
#include <unistd.h>

#define CW 320
#define CH 240
#define NFRAMES 12
#define WS 320
#define HS 240

typedef struct clip {
    uint8_t *pkt[NFRAMES + 1];
    int size[NFRAMES + 1];
    int n;
    uint8_t *ref[NFRAMES + 1]; /* NV12, WS x HS; BGR888 (WS * 3 x HS) when the channel outputs BGR */
} clip;

static clip g_clip;
static bool g_bgr;
static atomic_int g_done, g_bad, g_stop, g_nopic;
static bool g_no_b; /* encode without B-frames (the streams CANN's fast output mode takes) */

static int encode_clip_sized(clip *c, const char *encoder, int cw, int ch)
{
    const AVCodec *enc = avcodec_find_encoder_by_name(encoder);
    if (enc == NULL) {
        return -1;
    }
    AVCodecContext *ctx = avcodec_alloc_context3(enc);
    ctx->width = cw;
    ctx->height = ch;
    ctx->pix_fmt = AV_PIX_FMT_YUV420P;
    ctx->time_base = (AVRational){1, 25};
    ctx->gop_size = 6;
    ctx->max_b_frames = g_no_b ? 0 : 2;
    ctx->thread_count = 1;
    assert_int_equal(avcodec_open2(ctx, enc, NULL), 0);
    AVFrame *f = av_frame_alloc();
    f->format = AV_PIX_FMT_YUV420P;
    f->width = cw;
    f->height = ch;
    assert_int_equal(av_frame_get_buffer(f, 0), 0);
    AVPacket *p = av_packet_alloc();
    c->n = 0;
    for (int i = 0; i <= NFRAMES; ++i) {
        if (i < NFRAMES) {
            assert_int_equal(av_frame_make_writable(f), 0);
            for (int y = 0; y < ch; ++y) {
                for (int x = 0; x < cw; ++x) {
                    f->data[0][y * f->linesize[0] + x] = (uint8_t)(x + y + i * 7 + ((x / 16 + y / 16 + i) & 1) * 60);
                }
            }
            for (int y = 0; y < ch / 2; ++y) {
                for (int x = 0; x < cw / 2; ++x) {
                    f->data[1][y * f->linesize[1] + x] = (uint8_t)(128 + x - y + i * 3);
                    f->data[2][y * f->linesize[2] + x] = (uint8_t)(64 + y + i * 5);
                }
            }
            f->pts = i;
        }
        assert_true(avcodec_send_frame(ctx, i < NFRAMES ? f : NULL) >= 0);
        while (avcodec_receive_packet(ctx, p) == 0) {
            c->pkt[c->n] = malloc((size_t)p->size);
            memcpy(c->pkt[c->n], p->data, (size_t)p->size);
            c->size[c->n] = p->size;
            c->n++;
            av_packet_unref(p);
        }
    }
    av_packet_free(&p);
    av_frame_free(&f);
    avcodec_free_context(&ctx);
    return 0;
}

static int encode_clip(clip *c, const char *encoder)
{
    return encode_clip_sized(c, encoder, CW, CH);
}

/* FFmpeg's own decode of every packet (timestamp = packet index), as NV12 WS x HS. */
static void reference_decode(clip *c, enum AVCodecID id)
{
    const AVCodec *dec = avcodec_find_decoder(id);
    AVCodecContext *ctx = avcodec_alloc_context3(dec);
    ctx->thread_count = 1;
    assert_int_equal(avcodec_open2(ctx, dec, NULL), 0);
    AVPacket *p = av_packet_alloc();
    AVFrame *f = av_frame_alloc();
    for (int i = 0; i <= c->n; ++i) {
        if (i < c->n) {
            assert_int_equal(av_new_packet(p, c->size[i]), 0);
            memcpy(p->data, c->pkt[i], (size_t)c->size[i]);
            p->pts = i;
            assert_true(avcodec_send_packet(ctx, p) >= 0);
            av_packet_unref(p);
        } else {
            assert_true(avcodec_send_packet(ctx, NULL) >= 0);
        }
        while (avcodec_receive_frame(ctx, f) == 0) {
            const int64_t k = f->best_effort_timestamp;
            assert_true(k >= 0 && k < c->n);
            uint8_t *r = calloc(1, (size_t)WS * HS * 3 / 2);
            for (int y = 0; y < CH; ++y) {
                memcpy(r + (size_t)y * WS, f->data[0] + y * f->linesize[0], CW);
            }
            for (int y = 0; y < CH / 2; ++y) {
                for (int x = 0; x < CW / 2; ++x) {
                    r[(size_t)WS * HS + (size_t)y * WS + 2 * x] = f->data[1][y * f->linesize[1] + x];
                    r[(size_t)WS * HS + (size_t)y * WS + 2 * x + 1] = f->data[2][y * f->linesize[2] + x];
                }
            }
            c->ref[k] = r;
            av_frame_unref(f);
        }
    }
    av_frame_free(&f);
    av_packet_free(&p);
    avcodec_free_context(&ctx);
}

static void on_frame(acldvppStreamDesc *input, acldvppPicDesc *output, void *user)
{
    const intptr_t k = (intptr_t)user;
    if (k < 0) { /* the garbage packet */
        if (acldvppGetPicDescRetCode(output) == 0x20000) {
            atomic_fetch_add(&g_nopic, 1);
        }
    } else if (output == NULL || acldvppGetPicDescRetCode(output) != 0 || g_clip.ref[k] == NULL ||
               acldvppGetPicDescWidth(output) != CW || acldvppGetPicDescHeight(output) != CH ||
               acldvppGetPicDescFormat(output) != (g_bgr ? PIXEL_FORMAT_BGR_888 : PIXEL_FORMAT_YUV_SEMIPLANAR_420) ||
               memcmp(acldvppGetPicDescData(output), g_clip.ref[k], g_bgr ? (size_t)WS * HS * 3 : (size_t)WS * HS * 3 / 2) != 0) {
        atomic_fetch_add(&g_bad, 1);
    }
    acldvppFree(acldvppGetStreamDescData(input));
    acldvppDestroyStreamDesc(input);
    if (output != NULL) {
        acldvppFree(acldvppGetPicDescData(output));
        acldvppDestroyPicDesc(output);
    }
    atomic_fetch_add(&g_done, 1);
}

static void send_packet(aclvdecChannelDesc *ch, const void *data, int size, intptr_t user)
{
    acldvppStreamDesc *in = acldvppCreateStreamDesc();
    void *d = dev_copy(data, (size_t)size);
    assert_int_equal(acldvppSetStreamDescData(in, d), ACL_SUCCESS);
    assert_int_equal(acldvppSetStreamDescSize(in, (uint32_t)size), ACL_SUCCESS);
    acldvppPicDesc *out = acldvppCreatePicDesc();
    void *o = NULL;
    const uint32_t bytes = g_bgr ? WS * HS * 3 : WS * HS * 3 / 2;
    assert_int_equal(acldvppMalloc(&o, bytes), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescData(out, o), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescSize(out, bytes), ACL_SUCCESS);
    assert_int_equal(aclvdecSendFrame(ch, in, out, NULL, (void *)user), ACL_SUCCESS);
}

/* The reference frames as BGR888 through VPC colour conversion (what VDEC's BGR output must equal). */
static void refs_to_bgr(void)
{
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    acldvppChannelDesc *ch = acldvppCreateChannelDesc();
    assert_int_equal(acldvppCreateChannel(ch), ACL_SUCCESS);
    for (int k = 0; k < g_clip.n; ++k) {
        acldvppPicDesc *in = make_pic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, CW, CH, WS, HS, 0);
        memcpy(acldvppGetPicDescData(in), g_clip.ref[k], (size_t)WS * HS * 3 / 2);
        acldvppPicDesc *out = make_pic(PIXEL_FORMAT_BGR_888, CW, CH, WS * 3, HS, 0);
        assert_int_equal(acldvppVpcConvertColorAsync(ch, in, out, s), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
        free(g_clip.ref[k]);
        g_clip.ref[k] = malloc((size_t)WS * HS * 3);
        memcpy(g_clip.ref[k], acldvppGetPicDescData(out), (size_t)WS * HS * 3);
        free_pic(out);
        free_pic(in);
    }
    assert_int_equal(acldvppDestroyChannel(ch), ACL_SUCCESS);
    assert_int_equal(acldvppDestroyChannelDesc(ch), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

static void decode_clip(const char *encoder, enum AVCodecID id, acldvppStreamFormat en_type, bool bgr, bool fast)
{
    g_bgr = bgr;
    g_no_b = fast;
    memset(&g_clip, 0, sizeof(g_clip));
    atomic_store(&g_done, 0);
    atomic_store(&g_bad, 0);
    atomic_store(&g_nopic, 0);
    if (encode_clip(&g_clip, encoder) != 0) {
        skip(); /* no such encoder in this FFmpeg */
    }
    assert_true(g_clip.n == NFRAMES);
    reference_decode(&g_clip, id);
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    if (bgr) {
        refs_to_bgr();
    }
    pthread_t th;
    atomic_store(&g_stop, 0);
    assert_int_equal(pthread_create(&th, NULL, dvpp_report_thread, &g_stop), 0);

    aclvdecChannelDesc *ch = aclvdecCreateChannelDesc();
    assert_int_equal(aclvdecSetChannelDescChannelId(ch, 3), ACL_SUCCESS);
    assert_int_equal(aclvdecSetChannelDescThreadId(ch, (uint64_t)th), ACL_SUCCESS);
    assert_int_equal(aclvdecSetChannelDescCallback(ch, on_frame), ACL_SUCCESS);
    assert_int_equal(aclvdecSetChannelDescEnType(ch, en_type), ACL_SUCCESS);
    assert_int_equal(
        aclvdecSetChannelDescOutPicFormat(ch, bgr ? PIXEL_FORMAT_BGR_888 : PIXEL_FORMAT_YUV_SEMIPLANAR_420),
        ACL_SUCCESS);
    assert_int_equal(aclvdecSetChannelDescOutMode(ch, fast ? 1 : 0), ACL_SUCCESS);
    assert_int_equal(aclvdecCreateChannel(ch), ACL_SUCCESS);

    for (int i = 0; i < g_clip.n; ++i) {
        send_packet(ch, g_clip.pkt[i], g_clip.size[i], i);
        if (fast) {
            /* outMode 1: the frame of each packet is output before the next packet is sent (a decoder holding
             * frames back for reordering fails this wait: see fast_wait_detects_held_frames) */
            for (int t = 0; t < 500 && atomic_load(&g_done) < i + 1; ++t) {
                nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
            }
            assert_int_equal(atomic_load(&g_done), i + 1);
        }
    }
    const uint8_t junk[300] = {0, 0, 0, 1, 0x65, 0x11, 0x22};
    send_packet(ch, junk, sizeof(junk), -1);
    acldvppStreamDesc *eos = acldvppCreateStreamDesc();
    assert_int_equal(acldvppSetStreamDescEos(eos, 1), ACL_SUCCESS);
    assert_int_equal(aclvdecSendFrame(ch, eos, NULL, NULL, NULL), ACL_SUCCESS);
    /* after the end-of-stream send returns, every callback has run */
    assert_int_equal(atomic_load(&g_done), g_clip.n + 1);
    assert_int_equal(atomic_load(&g_bad), 0);
    assert_int_equal(atomic_load(&g_nopic), 1);

    /* bad sends */
    acldvppStreamDesc *in = acldvppCreateStreamDesc();
    assert_int_equal(aclvdecSendFrame(ch, in, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    expect_msg("eos");
    acldvppPicDesc *out = acldvppCreatePicDesc();
    void *d = dev_copy(junk, sizeof(junk));
    assert_int_equal(acldvppSetStreamDescData(in, d), ACL_SUCCESS);
    assert_int_equal(acldvppSetStreamDescSize(in, sizeof(junk)), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescWidth(out, 320), ACL_SUCCESS);
    assert_int_equal(aclvdecSendFrame(ch, in, out, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    expect_msg("or none");
    assert_int_equal(aclvdecDestroyChannelDesc(ch), ACL_ERROR_INVALID_PARAM);
    expect_msg("aclvdecDestroyChannel");
    assert_int_equal(aclvdecDestroyChannel(ch), ACL_SUCCESS);
    assert_int_equal(aclvdecSendFrame(ch, in, out, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    expect_msg("not created");
    assert_int_equal(acldvppFree(d), ACL_SUCCESS);
    assert_int_equal(acldvppDestroyPicDesc(out), ACL_SUCCESS);
    assert_int_equal(acldvppDestroyStreamDesc(in), ACL_SUCCESS);
    assert_int_equal(acldvppDestroyStreamDesc(eos), ACL_SUCCESS);
    assert_int_equal(aclvdecDestroyChannelDesc(ch), ACL_SUCCESS);

    atomic_store(&g_stop, 1);
    pthread_join(th, NULL);
    for (int i = 0; i < g_clip.n; ++i) {
        free(g_clip.pkt[i]);
        free(g_clip.ref[i]);
    }
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
    (void)aclGetRecentErrMsg();
}

static void decode_h264(void **state)
{
    (void)state;
    decode_clip("libx264", AV_CODEC_ID_H264, H264_HIGH_LEVEL, false, false);
}

static void decode_h264_bgr(void **state)
{
    (void)state;
    decode_clip("libx264", AV_CODEC_ID_H264, H264_HIGH_LEVEL, true, false);
}

static void decode_h265(void **state)
{
    (void)state;
    decode_clip("libx265", AV_CODEC_ID_HEVC, H265_MAIN_LEVEL, false, false);
}

static void decode_h264_fast(void **state)
{
    (void)state;
    decode_clip("libx264", AV_CODEC_ID_H264, H264_HIGH_LEVEL, false, true);
}

/* An H.264 channel with callback cb, served by a new report thread (*th), on device 0. */
static aclvdecChannelDesc *h264_channel(pthread_t *th, aclvdecCallback cb)
{
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    atomic_store(&g_stop, 0);
    assert_int_equal(pthread_create(th, NULL, dvpp_report_thread, &g_stop), 0);
    aclvdecChannelDesc *ch = aclvdecCreateChannelDesc();
    assert_int_equal(aclvdecSetChannelDescThreadId(ch, (uint64_t)*th), ACL_SUCCESS);
    assert_int_equal(aclvdecSetChannelDescCallback(ch, cb), ACL_SUCCESS);
    assert_int_equal(aclvdecSetChannelDescEnType(ch, H264_HIGH_LEVEL), ACL_SUCCESS);
    assert_int_equal(aclvdecCreateChannel(ch), ACL_SUCCESS);
    return ch;
}

/* Ends ch's stream (every callback has run when the send returns), then destroys ch and stops th. */
static void h264_channel_close(aclvdecChannelDesc *ch, pthread_t th)
{
    dvpp_vdec_close(ch, th, &g_stop);
}

/*
 * The control of decode_h264_fast's check: in a stream with B-frames the decoder holds frames back for reordering,
 * so after the first packets no frame has come out, and a decoder that held frames back would fail that check.
 */
static void fast_wait_detects_held_frames(void **state)
{
    (void)state;
    g_bgr = false;
    g_no_b = false;
    memset(&g_clip, 0, sizeof(g_clip));
    atomic_store(&g_done, 0);
    atomic_store(&g_bad, 0);
    if (encode_clip(&g_clip, "libx264") != 0) {
        skip();
    }
    reference_decode(&g_clip, AV_CODEC_ID_H264);
    pthread_t th;
    aclvdecChannelDesc *ch = h264_channel(&th, on_frame);
    send_packet(ch, g_clip.pkt[0], g_clip.size[0], 0);
    send_packet(ch, g_clip.pkt[1], g_clip.size[1], 1);
    nanosleep(&(struct timespec){.tv_nsec = 300000000}, NULL);
    assert_true(atomic_load(&g_done) < 2); /* held back: the fast check would have failed */
    h264_channel_close(ch, th);
    assert_int_equal(atomic_load(&g_done), 2);
    for (int i = 0; i < g_clip.n; ++i) {
        free(g_clip.pkt[i]);
        free(g_clip.ref[i]);
    }
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
}

static void count_nopic(acldvppStreamDesc *input, acldvppPicDesc *output, void *user)
{
    (void)user;
    atomic_fetch_add(acldvppGetPicDescRetCode(output) == 0x20000 ? &g_nopic : &g_bad, 1);
    acldvppFree(acldvppGetStreamDescData(input));
    acldvppDestroyStreamDesc(input);
    acldvppFree(acldvppGetPicDescData(output));
    acldvppDestroyPicDesc(output);
    atomic_fetch_add(&g_done, 1);
}

/* Sends a cw x ch clip (no B-frames) with outputs big enough for it; returns how many sends ended with 0x20000. */
static int nopic_sends(int cw, int ch)
{
    clip c = {0};
    g_no_b = true;
    if (encode_clip_sized(&c, "libx264", cw, ch) != 0) {
        skip();
    }
    atomic_store(&g_done, 0);
    atomic_store(&g_bad, 0);
    atomic_store(&g_nopic, 0);
    pthread_t th;
    aclvdecChannelDesc *chan = h264_channel(&th, count_nopic);
    const uint32_t bytes = (uint32_t)((cw + 15) / 16 * 16 * ch * 3 / 2);
    for (int i = 0; i < c.n; ++i) {
        acldvppStreamDesc *in = acldvppCreateStreamDesc();
        assert_int_equal(acldvppSetStreamDescData(in, dev_copy(c.pkt[i], (size_t)c.size[i])), ACL_SUCCESS);
        assert_int_equal(acldvppSetStreamDescSize(in, (uint32_t)c.size[i]), ACL_SUCCESS);
        acldvppPicDesc *out = acldvppCreatePicDesc();
        void *o = NULL;
        assert_int_equal(acldvppMalloc(&o, bytes), ACL_SUCCESS);
        assert_int_equal(acldvppSetPicDescData(out, o), ACL_SUCCESS);
        assert_int_equal(acldvppSetPicDescSize(out, bytes), ACL_SUCCESS);
        assert_int_equal(aclvdecSendFrame(chan, in, out, NULL, NULL), ACL_SUCCESS);
    }
    h264_channel_close(chan, th);
    assert_int_equal(atomic_load(&g_done), c.n);
    for (int i = 0; i < c.n; ++i) {
        free(c.pkt[i]);
    }
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
    (void)aclGetRecentErrMsg();
    assert_int_equal(atomic_load(&g_bad) + atomic_load(&g_nopic), NFRAMES);
    return atomic_load(&g_nopic);
}

/*
 * Pictures beyond VDEC's 4096 a side, or above $OPENACL_VDEC_MAX_PIXELS, are not decoded (docs/dvpp.md, VDEC):
 * every send of such a stream ends with 0x20000; the same sizes within the bounds decode.
 */
static void picture_size_bounds(void **state)
{
    (void)state;
    /* the refusals are FFmpeg errors on the channel's thread, which go to our log, not stderr (docs/dvpp.md);
     * FFmpeg messages of the application's own threads still reach stderr */
    fflush(stderr);
    const int saved = dup(2);
    FILE *capture = tmpfile();
    assert_true(saved >= 0 && capture != NULL && dup2(fileno(capture), 2) == 2);
    const int refused = nopic_sends(64, 4112); /* 4112 rows: beyond 4096, few pixels */
    av_log(NULL, AV_LOG_ERROR, "application message\n");
    fflush(stderr);
    assert_true(dup2(saved, 2) == 2);
    close(saved);
    char text[4096] = {0};
    rewind(capture);
    const size_t got = fread(text, 1, sizeof text - 1, capture);
    fclose(capture);
    assert_int_equal(refused, NFRAMES);
    assert_non_null(strstr(text, "application message"));
    assert_true(got > 0);
    assert_null(strstr(text, "[h264")); /* (the test's own libx264 encoder logs "[libx264 @ ...]" here) */
    assert_int_equal(nopic_sends(64, 4096), 0);
    assert_int_equal(setenv("OPENACL_VDEC_MAX_PIXELS", "76799", 1), 0); /* one pixel short of 320 x 240 */
    assert_int_equal(nopic_sends(CW, CH), NFRAMES);
    assert_int_equal(setenv("OPENACL_VDEC_MAX_PIXELS", "76800", 1), 0);
    assert_int_equal(nopic_sends(CW, CH), 0);
    assert_int_equal(unsetenv("OPENACL_VDEC_MAX_PIXELS"), 0);
}

static void channel_desc(void **state)
{
    (void)state;
    aclvdecChannelDesc *d = aclvdecCreateChannelDesc();
    assert_non_null(d);
    assert_int_equal(aclvdecGetChannelDescOutPicFormat(d), PIXEL_FORMAT_YUV_SEMIPLANAR_420);
    assert_int_equal(aclvdecSetChannelDescOutPicWidth(d, 640), ACL_SUCCESS);
    assert_int_equal(aclvdecSetChannelDescOutPicHeight(d, 480), ACL_SUCCESS);
    /* refFrameNum cannot size a software decoder's references: refused (0, the default, is accepted) */
    assert_int_equal(aclvdecSetChannelDescRefFrameNum(d, 4), ACL_ERROR_FEATURE_UNSUPPORTED);
    expect_msg("refFrameNum");
    uint32_t four = 4;
    assert_int_equal(aclvdecSetChannelDescParam(d, ACL_VDEC_REF_FRAME_NUM_UINT32, sizeof(four), &four),
                     ACL_ERROR_FEATURE_UNSUPPORTED);
    (void)aclGetRecentErrMsg();
    assert_int_equal(aclvdecSetChannelDescRefFrameNum(d, 0), ACL_SUCCESS);
    assert_int_equal(aclvdecSetChannelDescOutMode(d, 1), ACL_SUCCESS);
    assert_int_equal(aclvdecSetChannelDescBitDepth(d, 10), ACL_SUCCESS);
    assert_int_equal(aclvdecGetChannelDescOutPicWidth(d), 640);
    assert_int_equal(aclvdecGetChannelDescOutPicHeight(d), 480);
    assert_int_equal(aclvdecGetChannelDescRefFrameNum(d), 0);
    assert_int_equal(aclvdecGetChannelDescOutMode(d), 1);
    assert_int_equal(aclvdecGetChannelDescBitDepth(d), 10);
    assert_int_equal(aclvdecSetChannelDescEnType(d, (acldvppStreamFormat)4), ACL_ERROR_INVALID_PARAM);
    expect_msg("enType");
    assert_int_equal(aclvdecSetChannelDescOutPicFormat(d, PIXEL_FORMAT_RGBA_8888), ACL_ERROR_INVALID_PARAM);
    expect_msg("RGBA8888");
    assert_int_equal(aclvdecSetChannelDescOutMode(d, 2), ACL_ERROR_INVALID_PARAM);
    (void)aclGetRecentErrMsg();
    uint32_t v = H265_MAIN_LEVEL;
    assert_int_equal(aclvdecSetChannelDescParam(d, ACL_VDEC_ENCODE_TYPE_UINT32, sizeof(v), &v), ACL_SUCCESS);
    assert_int_equal(aclvdecGetChannelDescEnType(d), H265_MAIN_LEVEL);
    uint64_t tid = 77, got = 0;
    size_t n = 0;
    assert_int_equal(aclvdecSetChannelDescParam(d, ACL_VDEC_THREAD_ID_UINT64, sizeof(tid), &tid), ACL_SUCCESS);
    assert_int_equal(aclvdecGetChannelDescParam(d, ACL_VDEC_THREAD_ID_UINT64, sizeof(got), &n, &got), ACL_SUCCESS);
    assert_true(got == 77 && n == sizeof(uint64_t));
    assert_int_equal(aclvdecGetChannelDescParam(d, ACL_VDEC_OUT_PIC_WIDTH_UINT32, sizeof(v), &n, &v), ACL_SUCCESS);
    assert_int_equal(v, 640);
    assert_int_equal(aclvdecSetChannelDescParam(d, ACL_VDEC_OUT_PIC_WIDTH_UINT32, 8, &v), ACL_ERROR_INVALID_PARAM);
    expect_msg("length");
    /* creating without a callback fails */
    assert_int_equal(aclvdecCreateChannel(d), ACL_ERROR_INVALID_PARAM);
    expect_msg("callback");
    assert_int_equal(aclvdecGetChannelDescOutPicWidth(NULL), 0);
    (void)aclGetRecentErrMsg();
    aclvdecFrameConfig *fc = aclvdecCreateFrameConfig();
    assert_non_null(fc);
    assert_int_equal(aclvdecDestroyFrameConfig(fc), ACL_SUCCESS);
    assert_int_equal(aclvdecDestroyChannelDesc(d), ACL_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(channel_desc),
        cmocka_unit_test(decode_h264),
        cmocka_unit_test(decode_h265),
        cmocka_unit_test(decode_h264_bgr),
        cmocka_unit_test(decode_h264_fast),
        cmocka_unit_test(fast_wait_detects_held_frames),
        cmocka_unit_test(picture_size_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

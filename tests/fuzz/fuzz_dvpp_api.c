/*
 * libFuzzer harness for the DVPP decoders through their public entry points,
 * as an application calls them (fuzz_dvpp_decode covers the parsers and
 * decoders underneath). Byte 0 of an input:
 *   bits 0-1  0 acldvppJpegDecodeAsync, 1 acldvppPngDecodeAsync,
 *             2 aclvdecSendFrame on an H.264 channel, 3 on an H.265 channel;
 *   bits 2-3  the output picture format (per decoder, table below);
 *   bit 4     JPEG/PNG: strides of the predicted size rather than the
 *             widest; VDEC: an explicit output size (resize) on every frame.
 * The rest is the image (JPEG/PNG), or the stream (VDEC): frames of
 * [u16 little-endian length][bytes], each sent with aclvdecSendFrame into a
 * picture of OUT_BYTES, then an end-of-stream send, after which every
 * callback has run. Inputs are copied into acldvppMalloc buffers of exactly
 * their length. Any status is fine; crashes, leaks, undefined behaviour and
 * out-of-bounds accesses are not. The VDEC channels and their report thread
 * live for the whole process (the end-of-stream send resets the decoder
 * between inputs).
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_FRAMES 32
/* Output sizes bound the time of one input, not the code it reaches: the seeds are 64x48, and a mutated
 * header that declares a bigger picture takes the same conversion loops for more pixels (under the
 * sanitizers, 2 MiB of pixel conversion took 40 ms) or the decoders' "output too small" refusal. */
#define OUT_BYTES (64u << 10)          /* VDEC output picture: 64 KiB (128x128 RGB) */
#define MAX_PIC_BYTES (256u << 10)     /* JPEG/PNG output pictures beyond this are skipped */

static aclrtStream g_stream;
static acldvppChannelDesc *g_jpegd, *g_pngd;
static aclvdecChannelDesc *g_vdec[2];
static void *g_vdec_out[MAX_FRAMES]; /* output pictures, reused by every input as an application's pool is */
static pthread_t g_report;
static atomic_int g_callbacks;

static void *report_thread(void *arg)
{
    (void)arg;
    for (;;) {
        (void)aclrtProcessReport(100);
    }
    return NULL;
}

static void on_frame(acldvppStreamDesc *input, acldvppPicDesc *output, void *user)
{
    (void)input;
    (void)output;
    (void)user;
    atomic_fetch_add(&g_callbacks, 1);
}

static acldvppChannelDesc *dvpp_channel(acldvppChannelMode mode)
{
    acldvppChannelDesc *ch = acldvppCreateChannelDesc();
    if (ch == NULL || acldvppSetChannelDescMode(ch, mode) != ACL_SUCCESS || acldvppCreateChannel(ch) != ACL_SUCCESS) {
        abort();
    }
    return ch;
}

static void setup(void)
{
    /* Decoded pictures up to 128x128 pixels (the seeds are 64x48): a mutated header that declares a large picture reaches
     * the same code with more pixels, and at 4096x4096 one input took a second (docs/dvpp.md, VDEC, for the cap). */
    if (setenv("OPENACL_VDEC_MAX_PIXELS", "16384", 1) != 0) {
        abort();
    }
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&g_stream) != ACL_SUCCESS) {
        abort();
    }
    g_jpegd = dvpp_channel(DVPP_CHNMODE_JPEGD);
    g_pngd = dvpp_channel(DVPP_CHNMODE_PNGD);
    if (pthread_create(&g_report, NULL, report_thread, NULL) != 0) {
        abort();
    }
    for (int i = 0; i < 2; i++) {
        aclvdecChannelDesc *ch = aclvdecCreateChannelDesc();
        if (ch == NULL || aclvdecSetChannelDescChannelId(ch, (uint32_t)i) != ACL_SUCCESS ||
            aclvdecSetChannelDescThreadId(ch, (uint64_t)g_report) != ACL_SUCCESS ||
            aclvdecSetChannelDescCallback(ch, on_frame) != ACL_SUCCESS ||
            aclvdecSetChannelDescEnType(ch, i == 0 ? H264_MAIN_LEVEL : H265_MAIN_LEVEL) != ACL_SUCCESS ||
            aclvdecSetChannelDescOutPicFormat(ch, PIXEL_FORMAT_YUV_SEMIPLANAR_420) != ACL_SUCCESS ||
            aclvdecCreateChannel(ch) != ACL_SUCCESS) {
            abort();
        }
        g_vdec[i] = ch;
    }
    for (int i = 0; i < MAX_FRAMES; i++) {
        if (acldvppMalloc(&g_vdec_out[i], OUT_BYTES) != ACL_SUCCESS) {
            abort();
        }
    }
}

static void *dev_copy(const uint8_t *p, size_t n)
{
    void *d = NULL;
    if (acldvppMalloc(&d, n ? n : 1) != ACL_SUCCESS) {
        return NULL;
    }
    if (n) {
        memcpy(d, p, n);
    }
    return d;
}

static uint32_t align_up(uint32_t v, uint32_t a)
{
    return (v + a - 1) / a * a;
}

/* JPEG / PNG: the output picture as an application sizes it from the image's info, then the decode. */
static void image_decode(bool png, uint32_t fmt, bool tight, const uint8_t *data, size_t size)
{
    uint32_t w = 0, h = 0, predicted = 0;
    int32_t comps = 0;
    const aclError info = png ? acldvppPngGetImageInfo(data, (uint32_t)size, &w, &h, &comps)
                              : acldvppJpegGetImageInfo(data, (uint32_t)size, &w, &h, &comps);
    const aclError pred = png ? acldvppPngPredictDecSize(data, (uint32_t)size, (acldvppPixelFormat)fmt, &predicted)
                              : acldvppJpegPredictDecSize(data, (uint32_t)size, (acldvppPixelFormat)fmt, &predicted);
    if (info != ACL_SUCCESS || w == 0 || h == 0 || w > 8192 || h > 8192) {
        w = h = 64; /* the decoder must still refuse what it cannot read */
    }
    /* widest: 4 bytes per pixel; tight: the predicted size with 1-byte (YUV) or 3-byte (RGB) strides */
    const uint32_t bpp = tight ? (fmt == PIXEL_FORMAT_RGB_888 || fmt == PIXEL_FORMAT_BGR_888 ? 3 : 1) : 4;
    const uint32_t ws = align_up(w * bpp, 128), hs = align_up(h, 16);
    uint64_t bytes = (uint64_t)ws * hs * 2u;
    if (tight && pred == ACL_SUCCESS && predicted != 0) {
        bytes = predicted;
    }
    if (bytes > MAX_PIC_BYTES) {
        return;
    }
    void *in = dev_copy(data, size), *out = NULL;
    acldvppPicDesc *pic = acldvppCreatePicDesc();
    if (in != NULL && pic != NULL && acldvppMalloc(&out, (size_t)bytes) == ACL_SUCCESS) {
        (void)acldvppSetPicDescData(pic, out);
        (void)acldvppSetPicDescSize(pic, (uint32_t)bytes);
        (void)acldvppSetPicDescFormat(pic, (acldvppPixelFormat)fmt);
        (void)acldvppSetPicDescWidth(pic, w);
        (void)acldvppSetPicDescHeight(pic, h);
        (void)acldvppSetPicDescWidthStride(pic, ws);
        (void)acldvppSetPicDescHeightStride(pic, hs);
        const aclError e = png ? acldvppPngDecodeAsync(g_pngd, in, (uint32_t)size, pic, g_stream)
                               : acldvppJpegDecodeAsync(g_jpegd, in, (uint32_t)size, pic, g_stream);
        if (e == ACL_SUCCESS) {
            (void)aclrtSynchronizeStream(g_stream);
        }
        (void)acldvppFree(out);
    }
    (void)acldvppDestroyPicDesc(pic);
    (void)acldvppFree(in);
}

static void vdec_stream(int codec, uint32_t fmt, bool sized, const uint8_t *data, size_t size)
{
    acldvppStreamDesc *ins[MAX_FRAMES] = {0};
    acldvppPicDesc *outs[MAX_FRAMES] = {0};
    int n = 0;
    while (size >= 2 && n < MAX_FRAMES) {
        size_t len = (size_t)data[0] | (size_t)data[1] << 8;
        data += 2;
        size -= 2;
        if (len > size) {
            len = size;
        }
        if (len == 0) {
            continue;
        }
        acldvppStreamDesc *in = acldvppCreateStreamDesc();
        acldvppPicDesc *out = acldvppCreatePicDesc();
        void *d = dev_copy(data, len), *o = g_vdec_out[n];
        data += len;
        size -= len;
        ins[n] = in;
        outs[n] = out;
        n++;
        if (in == NULL || out == NULL || d == NULL) {
            (void)acldvppFree(d);
            break;
        }
        (void)acldvppSetStreamDescData(in, d);
        (void)acldvppSetStreamDescSize(in, (uint32_t)len);
        (void)acldvppSetPicDescData(out, o);
        (void)acldvppSetPicDescSize(out, OUT_BYTES);
        (void)acldvppSetPicDescFormat(out, (acldvppPixelFormat)fmt);
        if (sized) {
            const bool rgb = fmt == PIXEL_FORMAT_RGB_888 || fmt == PIXEL_FORMAT_BGR_888;
            (void)acldvppSetPicDescWidth(out, 64);
            (void)acldvppSetPicDescHeight(out, 48);
            (void)acldvppSetPicDescWidthStride(out, rgb ? 192 : 64);
            (void)acldvppSetPicDescHeightStride(out, 48);
        }
        if (aclvdecSendFrame(g_vdec[codec], in, out, NULL, NULL) != ACL_SUCCESS) {
            break;
        }
    }
    acldvppStreamDesc *eos = acldvppCreateStreamDesc();
    if (eos != NULL) {
        (void)acldvppSetStreamDescEos(eos, 1);
        (void)aclvdecSendFrame(g_vdec[codec], eos, NULL, NULL, NULL); /* returns after every callback ran */
        (void)acldvppDestroyStreamDesc(eos);
    }
    for (int i = 0; i < n; i++) {
        if (ins[i] != NULL) {
            (void)acldvppFree(acldvppGetStreamDescData(ins[i]));
            (void)acldvppDestroyStreamDesc(ins[i]);
        }
        (void)acldvppDestroyPicDesc(outs[i]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool ready;
    if (!ready) {
        setup();
        ready = true;
    }
    if (size < 2) {
        return 0;
    }
    static const uint32_t jpeg_fmt[4] = {PIXEL_FORMAT_YUV_SEMIPLANAR_420, PIXEL_FORMAT_YVU_SEMIPLANAR_420,
                                         PIXEL_FORMAT_UNKNOWN, PIXEL_FORMAT_YUV_SEMIPLANAR_422};
    static const uint32_t png_fmt[4] = {PIXEL_FORMAT_UNKNOWN, PIXEL_FORMAT_RGB_888, PIXEL_FORMAT_RGBA_8888,
                                        PIXEL_FORMAT_BGR_888};
    static const uint32_t vdec_fmt[4] = {PIXEL_FORMAT_YUV_SEMIPLANAR_420, PIXEL_FORMAT_YVU_SEMIPLANAR_420,
                                         PIXEL_FORMAT_RGB_888, PIXEL_FORMAT_BGR_888};
    const int mode = data[0] & 3, f = (data[0] >> 2) & 3;
    const bool flag = (data[0] >> 4) & 1;
    if (mode < 2) {
        image_decode(mode == 1, mode == 1 ? png_fmt[f] : jpeg_fmt[f], flag, data + 1, size - 1);
    } else {
        vdec_stream(mode - 2, vdec_fmt[f], flag, data + 1, size - 1);
    }
    (void)aclGetRecentErrMsg();
    return 0;
}

// The DVPP flows of the Ascend samples (0_data_process: jpege, jpegd, resize,
// crop, cropandpaste, batchcrop, venc, vdec) in one C++ program built against
// the prefix: the same call sequences, strides and buffer sizes as the
// samples. The picture is synthetic (NV12 gradient); each stage checks what
// the next one relies on: JPEGE -> JPEGD gives the picture back closely, a
// crop of the decoded picture equals its bytes, crop-and-paste leaves the
// canvas outside the paste area alone, VENC -> VDEC gives the frames back.
#include <pthread.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "../common/compat_check.h"
#include "acl/ops/acl_dvpp.h"

namespace {

constexpr uint32_t kW = 640, kH = 480;

uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

acldvppPicDesc *NewPic(acldvppPixelFormat fmt, uint32_t w, uint32_t h, uint32_t ws, uint32_t hs, uint32_t size)
{
    void *buf = nullptr;
    if (acldvppMalloc(&buf, size) != ACL_SUCCESS) {
        return nullptr;
    }
    memset(buf, 0x33, size);
    acldvppPicDesc *p = acldvppCreatePicDesc();
    acldvppSetPicDescData(p, buf);
    acldvppSetPicDescSize(p, size);
    acldvppSetPicDescFormat(p, fmt);
    acldvppSetPicDescWidth(p, w);
    acldvppSetPicDescHeight(p, h);
    acldvppSetPicDescWidthStride(p, ws);
    acldvppSetPicDescHeightStride(p, hs);
    return p;
}

void FreePic(acldvppPicDesc *p)
{
    acldvppFree(acldvppGetPicDescData(p));
    acldvppDestroyPicDesc(p);
}

void FillNv12(uint8_t *d, uint32_t ws, uint32_t hs, int shift)
{
    for (uint32_t y = 0; y < kH; ++y) {
        for (uint32_t x = 0; x < kW; ++x) {
            d[y * ws + x] = static_cast<uint8_t>(16 + (x + 2 * shift) * 200 / kW + 20 * std::sin(y / 17.0));
        }
    }
    for (uint32_t y = 0; y < kH / 2; ++y) {
        for (uint32_t x = 0; x < kW; ++x) {
            d[ws * hs + y * ws + x] = static_cast<uint8_t>(x % 2 ? 140 - y / 8 : 100 + x / 16);
        }
    }
}

double LumaPsnr(const uint8_t *a, uint32_t aws, const uint8_t *b, uint32_t bws)
{
    double se = 0;
    for (uint32_t y = 0; y < kH; ++y) {
        for (uint32_t x = 0; x < kW; ++x) {
            const double e = static_cast<double>(a[y * aws + x]) - b[y * bws + x];
            se += e * e;
        }
    }
    return 10 * std::log10(255.0 * 255.0 / (se / (kW * kH) + 1e-9));
}

// ---- video: the report thread and the callbacks of the venc / vdec samples ----
std::atomic<bool> g_exit{false};
std::vector<uint8_t> g_h264;
std::vector<uint32_t> g_frameSizes;
std::atomic<int> g_decoded{0}, g_badFrames{0};
std::vector<uint8_t> g_source; // the NV12 frames sent to VENC (kW x kH, tight)

void ReportLoop()
{
    while (!g_exit.load()) {
        (void)aclrtProcessReport(100);
    }
}

void VencCallback(acldvppPicDesc *input, acldvppStreamDesc *output, void *)
{
    const uint8_t *d = static_cast<const uint8_t *>(acldvppGetStreamDescData(output));
    const uint32_t n = acldvppGetStreamDescSize(output);
    g_h264.insert(g_h264.end(), d, d + n);
    g_frameSizes.push_back(n);
    acldvppFree(acldvppGetPicDescData(input));
    acldvppDestroyPicDesc(input);
}

void VdecCallback(acldvppStreamDesc *input, acldvppPicDesc *output, void *userData)
{
    const int k = static_cast<int>(reinterpret_cast<intptr_t>(userData));
    const uint8_t *src = g_source.data() + static_cast<size_t>(k) * kW * kH * 3 / 2;
    if (acldvppGetPicDescRetCode(output) != 0 ||
        LumaPsnr(static_cast<const uint8_t *>(acldvppGetPicDescData(output)), acldvppGetPicDescWidthStride(output),
                 src, kW) < 35) {
        g_badFrames++;
    }
    g_decoded++;
    acldvppFree(acldvppGetStreamDescData(input));
    acldvppDestroyStreamDesc(input);
    acldvppFree(acldvppGetPicDescData(output));
    acldvppDestroyPicDesc(output);
}

int Images(aclrtStream stream)
{
    acldvppChannelDesc *ch = acldvppCreateChannelDesc();
    CHECK(acldvppCreateChannel(ch));

    // jpege: NV12 (ws = ALIGN16(w), hs = ALIGN2(h)) -> JPEG, level 100, buffer from PredictEncSize
    const uint32_t ws = AlignUp(kW, 16), hs = AlignUp(kH, 2);
    acldvppPicDesc *src = NewPic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, kW, kH, ws, hs, ws * hs * 3 / 2);
    REQUIRE(src != nullptr, "acldvppMalloc");
    FillNv12(static_cast<uint8_t *>(acldvppGetPicDescData(src)), ws, hs, 0);
    acldvppJpegeConfig *jcfg = acldvppCreateJpegeConfig();
    CHECK(acldvppSetJpegeConfigLevel(jcfg, 100));
    uint32_t jsize = 0;
    CHECK(acldvppJpegPredictEncSize(src, jcfg, &jsize));
    void *jpeg = nullptr;
    CHECK(acldvppMalloc(&jpeg, jsize));
    CHECK(acldvppJpegEncodeAsync(ch, src, jpeg, &jsize, jcfg, stream));
    CHECK(aclrtSynchronizeStream(stream));
    printf("  jpege: %ux%u NV12 -> %u-byte JPEG\n", kW, kH, jsize);

    // jpegd: image info, predicted size, 310P strides (64 x 16)
    uint32_t w = 0, h = 0, decSize = 0;
    int32_t comps = 0;
    acldvppJpegFormat css = ACL_JPEG_CSS_UNKNOWN;
    CHECK(acldvppJpegGetImageInfoV2(jpeg, jsize, &w, &h, &comps, &css));
    REQUIRE(w == kW && h == kH && comps == 3 && css == ACL_JPEG_CSS_420, "image info %ux%u %d %d", w, h, comps, css);
    CHECK(acldvppJpegPredictDecSize(jpeg, jsize, PIXEL_FORMAT_YUV_SEMIPLANAR_420, &decSize));
    const uint32_t dws = AlignUp(w, 64), dhs = AlignUp(h, 16);
    acldvppPicDesc *dec = NewPic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, AlignUp(w, 2), AlignUp(h, 2), dws, dhs, decSize);
    CHECK(acldvppJpegDecodeAsync(ch, jpeg, jsize, dec, stream));
    CHECK(aclrtSynchronizeStream(stream));
    const uint8_t *decoded = static_cast<const uint8_t *>(acldvppGetPicDescData(dec));
    const double psnr = LumaPsnr(decoded, dws, static_cast<const uint8_t *>(acldvppGetPicDescData(src)), ws);
    printf("  jpegd: %ux%u, luma PSNR against the encoder's input %.1f dB\n", acldvppGetPicDescWidth(dec),
           acldvppGetPicDescHeight(dec), psnr);
    REQUIRE(psnr > 40, "JPEG round trip PSNR %.1f", psnr);

    // resize: the JPEGD output (its own strides) -> 224 x 224
    acldvppResizeConfig *rcfg = acldvppCreateResizeConfig();
    acldvppPicDesc *small = NewPic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, 224, 224, 224, 224, 224 * 224 * 3 / 2);
    CHECK(acldvppVpcResizeAsync(ch, dec, small, rcfg, stream));
    // crop: left/top even, right/bottom odd, into a same-size output
    acldvppRoiConfig *crop = acldvppCreateRoiConfig(100, 299, 50, 249);
    acldvppPicDesc *cropped = NewPic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, 200, 200, 208, 200, 208 * 200 * 3 / 2);
    CHECK(acldvppVpcCropAsync(ch, dec, cropped, crop, stream));
    // crop and paste: paste left 16-aligned, into a canvas
    acldvppRoiConfig *paste = acldvppCreateRoiConfig(32, 231, 16, 215);
    acldvppPicDesc *canvas = NewPic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, 320, 240, 320, 240, 320 * 240 * 3 / 2);
    CHECK(acldvppVpcCropAndPasteAsync(ch, dec, canvas, crop, paste, stream));
    CHECK(aclrtSynchronizeStream(stream));
    const uint8_t *c = static_cast<const uint8_t *>(acldvppGetPicDescData(cropped));
    const uint8_t *cv = static_cast<const uint8_t *>(acldvppGetPicDescData(canvas));
    for (uint32_t y = 0; y < 200; ++y) {
        REQUIRE(memcmp(c + y * 208, decoded + (50 + y) * dws + 100, 200) == 0, "crop row %u", y);
        REQUIRE(memcmp(cv + (16 + y) * 320 + 32, decoded + (50 + y) * dws + 100, 200) == 0, "paste row %u", y);
    }
    REQUIRE(cv[0] == 0x33 && cv[320 * 240 - 1] == 0x33, "canvas outside the paste area was written");
    printf("  resize 224x224, crop 200x200, crop-and-paste into 320x240: ok\n");

    // batch crop: two regions of one picture
    acldvppBatchPicDesc *srcBatch = acldvppCreateBatchPicDesc(1);
    acldvppBatchPicDesc *dstBatch = acldvppCreateBatchPicDesc(2);
    acldvppPicDesc *s0 = acldvppGetPicDesc(srcBatch, 0);
    acldvppSetPicDescData(s0, acldvppGetPicDescData(dec));
    acldvppSetPicDescSize(s0, acldvppGetPicDescSize(dec));
    acldvppSetPicDescFormat(s0, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
    acldvppSetPicDescWidth(s0, acldvppGetPicDescWidth(dec));
    acldvppSetPicDescHeight(s0, acldvppGetPicDescHeight(dec));
    acldvppSetPicDescWidthStride(s0, dws);
    acldvppSetPicDescHeightStride(s0, dhs);
    std::vector<void *> bufs;
    for (uint32_t i = 0; i < 2; ++i) {
        acldvppPicDesc *o = acldvppGetPicDesc(dstBatch, i);
        void *b = nullptr;
        CHECK(acldvppMalloc(&b, 112 * 112 * 3 / 2));
        bufs.push_back(b);
        acldvppSetPicDescData(o, b);
        acldvppSetPicDescSize(o, 112 * 112 * 3 / 2);
        acldvppSetPicDescFormat(o, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
        acldvppSetPicDescWidth(o, 112);
        acldvppSetPicDescHeight(o, 112);
        acldvppSetPicDescWidthStride(o, 112);
        acldvppSetPicDescHeightStride(o, 112);
    }
    acldvppRoiConfig *areas[2] = {acldvppCreateRoiConfig(0, 111, 0, 111), acldvppCreateRoiConfig(200, 311, 100, 211)};
    uint32_t roiNums[1] = {2};
    CHECK(acldvppVpcBatchCropAsync(ch, srcBatch, roiNums, 1, dstBatch, areas, stream));
    CHECK(aclrtSynchronizeStream(stream));
    const uint8_t *b1 = static_cast<const uint8_t *>(bufs[1]);
    REQUIRE(memcmp(b1 + 5 * 112, decoded + 105 * dws + 200, 112) == 0, "batch crop region 1");
    printf("  batch crop of 2 regions: ok\n");

    for (auto *a : areas) {
        acldvppDestroyRoiConfig(a);
    }
    for (void *b : bufs) {
        acldvppFree(b);
    }
    acldvppDestroyBatchPicDesc(srcBatch);
    acldvppDestroyBatchPicDesc(dstBatch);
    acldvppDestroyRoiConfig(crop);
    acldvppDestroyRoiConfig(paste);
    acldvppDestroyResizeConfig(rcfg);
    acldvppDestroyJpegeConfig(jcfg);
    FreePic(canvas);
    FreePic(cropped);
    FreePic(small);
    FreePic(dec);
    FreePic(src);
    acldvppFree(jpeg);
    CHECK(acldvppDestroyChannel(ch));
    CHECK(acldvppDestroyChannelDesc(ch));
    return 0;
}

int Video()
{
    constexpr int kFrames = 8;
    std::thread reporter(ReportLoop);
    const uint64_t tid = static_cast<uint64_t>(reporter.native_handle());

    // venc: NV12 frames -> H.264 (callback receives each encoded frame)
    aclvencChannelDesc *venc = aclvencCreateChannelDesc();
    CHECK(aclvencSetChannelDescThreadId(venc, tid));
    CHECK(aclvencSetChannelDescCallback(venc, VencCallback));
    CHECK(aclvencSetChannelDescEnType(venc, H264_MAIN_LEVEL));
    CHECK(aclvencSetChannelDescPicFormat(venc, PIXEL_FORMAT_YUV_SEMIPLANAR_420));
    CHECK(aclvencSetChannelDescPicWidth(venc, kW));
    CHECK(aclvencSetChannelDescPicHeight(venc, kH));
    CHECK(aclvencSetChannelDescKeyFrameInterval(venc, 16));
    CHECK(aclvencCreateChannel(venc));
    aclvencFrameConfig *fcfg = aclvencCreateFrameConfig();
    g_source.resize(static_cast<size_t>(kFrames) * kW * kH * 3 / 2);
    for (int i = 0; i < kFrames; ++i) {
        const uint32_t ws = AlignUp(kW, 16), hs = AlignUp(kH, 16);
        acldvppPicDesc *pic = NewPic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, kW, kH, ws, hs, ws * hs * 3 / 2);
        uint8_t *d = static_cast<uint8_t *>(acldvppGetPicDescData(pic));
        FillNv12(d, ws, hs, i * 3);
        for (uint32_t y = 0; y < kH; ++y) {
            memcpy(g_source.data() + static_cast<size_t>(i) * kW * kH * 3 / 2 + y * kW, d + y * ws, kW);
        }
        CHECK(aclvencSetFrameConfigForceIFrame(fcfg, 0));
        CHECK(aclvencSendFrame(venc, pic, nullptr, fcfg, nullptr));
    }
    CHECK(aclvencSetFrameConfigEos(fcfg, 1));
    CHECK(aclvencSendFrame(venc, nullptr, nullptr, fcfg, nullptr));
    CHECK(aclvencDestroyChannel(venc));
    CHECK(aclvencDestroyChannelDesc(venc));
    CHECK(aclvencDestroyFrameConfig(fcfg));
    REQUIRE(g_frameSizes.size() == static_cast<size_t>(kFrames), "venc gave %zu frames", g_frameSizes.size());
    printf("  venc: %d frames, %zu bytes of H.264\n", kFrames, g_h264.size());

    // vdec: one frame per send, output strides ALIGN16 x ALIGN2, EOS at the end
    aclvdecChannelDesc *vdec = aclvdecCreateChannelDesc();
    CHECK(aclvdecSetChannelDescChannelId(vdec, 0));
    CHECK(aclvdecSetChannelDescThreadId(vdec, tid));
    CHECK(aclvdecSetChannelDescCallback(vdec, VdecCallback));
    CHECK(aclvdecSetChannelDescEnType(vdec, H264_MAIN_LEVEL));
    CHECK(aclvdecSetChannelDescOutPicFormat(vdec, PIXEL_FORMAT_YUV_SEMIPLANAR_420));
    CHECK(aclvdecCreateChannel(vdec));
    size_t off = 0;
    for (int i = 0; i < kFrames; ++i) {
        acldvppStreamDesc *in = acldvppCreateStreamDesc();
        void *d = nullptr;
        CHECK(acldvppMalloc(&d, g_frameSizes[i]));
        memcpy(d, g_h264.data() + off, g_frameSizes[i]);
        off += g_frameSizes[i];
        CHECK(acldvppSetStreamDescData(in, d));
        CHECK(acldvppSetStreamDescSize(in, g_frameSizes[i]));
        CHECK(acldvppSetStreamDescFormat(in, H264_MAIN_LEVEL));
        const uint32_t ws = AlignUp(kW, 16), hs = AlignUp(kH, 2);
        acldvppPicDesc *out = NewPic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, kW, kH, ws, hs, ws * hs * 3 / 2);
        CHECK(aclvdecSendFrame(vdec, in, out, nullptr, reinterpret_cast<void *>(static_cast<intptr_t>(i))));
    }
    acldvppStreamDesc *eos = acldvppCreateStreamDesc();
    CHECK(acldvppSetStreamDescEos(eos, 1));
    CHECK(aclvdecSendFrame(vdec, eos, nullptr, nullptr, nullptr));
    acldvppDestroyStreamDesc(eos);
    CHECK(aclvdecDestroyChannel(vdec));
    CHECK(aclvdecDestroyChannelDesc(vdec));
    g_exit = true;
    reporter.join();
    REQUIRE(g_decoded.load() == kFrames && g_badFrames.load() == 0, "vdec: %d frames, %d bad", g_decoded.load(),
            g_badFrames.load());
    printf("  vdec: %d frames back, luma PSNR > 35 dB each\n", kFrames);
    return 0;
}

} // namespace

int main()
{
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));
    if (Images(stream) != 0 || Video() != 0) {
        return 1;
    }
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS dvpp_samples_flow\n");
    return 0;
}

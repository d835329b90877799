/*
 * VPC against numpy references (gen_dvpp_refs.py) and exact oracles:
 * resize in the four interpolation modes (bilinear within 1 level of the
 * floating-point interpolation, nearest exact), crop / paste / batch crop
 * byte-exact against the input bytes, make-border against numpy.pad,
 * pyramid-down exact, NV12 -> RGB within 1 of the float BT.601 formula,
 * histograms against counts of the input bytes, lookup tables; and the
 * errors for bad regions, formats, sizes and configs.
 */
#include "dvpp_test_util.h"

/* Input picture from a reference file holding exactly the ws x hs picture. */
static acldvppPicDesc *pic_from_ref(const char *name, acldvppPixelFormat fmt, uint32_t w, uint32_t h, uint32_t ws,
                                    uint32_t hs)
{
    size_t n = 0;
    uint8_t *src = read_ref(name, &n);
    assert_int_equal(n, pic_bytes(fmt, ws, hs));
    acldvppPicDesc *p = make_pic(fmt, w, h, ws, hs, 0);
    memcpy(acldvppGetPicDescData(p), src, n);
    free(src);
    return p;
}

/* Compares an output picture whose rows are w*bpp bytes of a tight reference image (plus NV12 chroma). */
static int max_diff_nv12(const acldvppPicDesc *p, const uint8_t *ref, uint32_t w, uint32_t h)
{
    const uint8_t *d = acldvppGetPicDescData(p);
    const uint32_t ws = acldvppGetPicDescWidthStride(p);
    const uint32_t hs = acldvppGetPicDescHeightStride(p);
    int m = 0;
    for (uint32_t y = 0; y < h; ++y) {
        for (uint32_t x = 0; x < w; ++x) {
            const int e = abs((int)d[(size_t)y * ws + x] - (int)ref[(size_t)y * w + x]);
            m = e > m ? e : m;
        }
    }
    const uint8_t *uv = d + (size_t)ws * hs;
    const uint8_t *ruv = ref + (size_t)w * h;
    for (uint32_t y = 0; y < h / 2; ++y) {
        for (uint32_t x = 0; x < w; ++x) {
            const int e = abs((int)uv[(size_t)y * ws + x] - (int)ruv[(size_t)y * w + x]);
            m = e > m ? e : m;
        }
    }
    return m;
}

static void resize_modes(void **state)
{
    tfix *f = *state;
    acldvppPicDesc *in = pic_from_ref("rs_in.nv12", PIXEL_FORMAT_YUV_SEMIPLANAR_420, 640, 360, 640, 360);
    size_t tn = 0;
    char *txt = read_ref("resize.txt", &tn);
    txt[tn] = 0;
    char *save = NULL;
    int cases = 0;
    acldvppResizeConfig *cfg = acldvppCreateResizeConfig();
    for (char *line = strtok_r(txt, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
        char mode[16];
        uint32_t mv = 0, w = 0, h = 0;
        assert_int_equal(sscanf(line, "%15s %u %u %u", mode, &mv, &w, &h), 4);
        char file[64];
        snprintf(file, sizeof(file), "rs_%s_%ux%u.nv12", mode, w, h);
        size_t rn = 0;
        uint8_t *ref = read_ref(file, &rn);
        acldvppPicDesc *out = make_pic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, align_up(w, 16), align_up(h, 2), 0);
        assert_int_equal(acldvppSetResizeConfigInterpolation(cfg, mv), ACL_SUCCESS);
        assert_int_equal(acldvppVpcResizeAsync(f->ch, in, out, cfg, f->stream), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
        check_guard(out);
        const int m = max_diff_nv12(out, ref, w, h);
        print_message("  %s %ux%u: max diff %d\n", mode, w, h, m);
        assert_true(m <= (mode[0] == 'n' ? 0 : 1));
        if (mv == 1) { /* default (0) is bilinear on this profile */
            assert_int_equal(acldvppSetResizeConfigInterpolation(cfg, 0), ACL_SUCCESS);
            assert_int_equal(acldvppVpcResizeAsync(f->ch, in, out, cfg, f->stream), ACL_SUCCESS);
            assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
            assert_true(max_diff_nv12(out, ref, w, h) <= 1);
        }
        free_pic(out);
        free(ref);
        ++cases;
    }
    assert_int_equal(cases, 8);
    /* interpolation 5 (high-order filter of other SoCs) is refused; output sizes and strides are checked */
    acldvppPicDesc *out = make_pic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, 224, 224, 224, 224, 0);
    assert_int_equal(acldvppSetResizeConfigInterpolation(cfg, 5), ACL_SUCCESS);
    assert_int_equal(acldvppVpcResizeAsync(f->ch, in, out, cfg, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("interpolation");
    assert_int_equal(acldvppSetResizeConfigInterpolation(cfg, 1), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescWidth(out, 223), ACL_SUCCESS);
    assert_int_equal(acldvppVpcResizeAsync(f->ch, in, out, cfg, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("even");
    assert_int_equal(acldvppSetPicDescWidth(out, 8), ACL_SUCCESS);
    assert_int_equal(acldvppVpcResizeAsync(f->ch, in, out, cfg, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("width");
    assert_int_equal(acldvppSetPicDescWidth(out, 224), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescWidthStride(out, 232), ACL_SUCCESS);
    assert_int_equal(acldvppVpcResizeAsync(f->ch, in, out, cfg, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("multiple of 16");
    assert_int_equal(acldvppSetPicDescWidthStride(out, 224), ACL_SUCCESS);
    acldvppPicDesc *rgb = make_pic(PIXEL_FORMAT_RGB_888, 224, 224, 224 * 3, 224, 0);
    assert_int_equal(acldvppVpcResizeAsync(f->ch, in, rgb, cfg, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("ConvertColor");
    free_pic(rgb);
    assert_int_equal(acldvppVpcResizeAsync(f->ch, in, out, NULL, f->stream), ACL_ERROR_INVALID_PARAM);
    (void)aclGetRecentErrMsg();
    /* a picture starting off the 128-byte grid (a piece cut from a bigger block) */
    uint8_t *base = acldvppGetPicDescData(out);
    assert_int_equal(acldvppSetPicDescData(out, base + 32), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescSize(out, 224 * 224 * 3 / 2 - 32), ACL_SUCCESS);
    assert_int_equal(acldvppVpcResizeAsync(f->ch, in, out, cfg, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("aligned");
    assert_int_equal(acldvppSetPicDescData(out, base), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescSize(out, 224 * 224 * 3 / 2), ACL_SUCCESS);
    free_pic(out);
    assert_int_equal(acldvppDestroyResizeConfig(cfg), ACL_SUCCESS);
    free_pic(in);
    free(txt);
}

/* Checks that the rectangle (dx, dy, w, h) of out equals (sx, sy) of in, plane by plane for NV12, and fill elsewhere. */
/* Resize one w x h NV12 (or fmt) picture into ow x oh; returns the submission's code. */
static aclError try_resize(tfix *f, acldvppPixelFormat fmt, uint32_t w, uint32_t h, uint32_t ws, uint32_t ow,
                           uint32_t oh, uint32_t ows)
{
    acldvppPicDesc *in = make_pic(fmt, w, h, ws, align_up(h, 2), 0x40);
    acldvppPicDesc *out = make_pic(fmt, ow, oh, ows, align_up(oh, 2), 0);
    acldvppResizeConfig *cfg = acldvppCreateResizeConfig();
    const aclError r = acldvppVpcResizeAsync(f->ch, in, out, cfg, f->stream);
    assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
    check_guard(out);
    assert_int_equal(acldvppDestroyResizeConfig(cfg), ACL_SUCCESS);
    free_pic(in);
    free_pic(out);
    return r;
}

/* docs/dvpp.md "VPC limits": per-axis scale in [1/32, 16]; inputs above 4096 only in YUV400 / 420-422-444 SP. */
static void resize_limits(void **state)
{
    tfix *f = *state;
    const acldvppPixelFormat nv12 = PIXEL_FORMAT_YUV_SEMIPLANAR_420;
    /* the bounds themselves are accepted */
    assert_int_equal(try_resize(f, nv12, 320, 192, 320, 10, 6, 32), ACL_SUCCESS);      /* 1/32 both axes */
    assert_int_equal(try_resize(f, nv12, 64, 32, 64, 1024, 512, 1024), ACL_SUCCESS);   /* 16 both axes */
    /* one step past them is refused, per axis */
    assert_int_equal(try_resize(f, nv12, 352, 192, 352, 10, 6, 32), ACL_ERROR_INVALID_PARAM);
    expect_msg("[1/32, 16] (width)");
    assert_int_equal(try_resize(f, nv12, 320, 200, 320, 10, 6, 32), ACL_ERROR_INVALID_PARAM);
    expect_msg("(height)");
    assert_int_equal(try_resize(f, nv12, 64, 32, 64, 1040, 32, 1040), ACL_ERROR_INVALID_PARAM);
    expect_msg("1040");
    assert_int_equal(try_resize(f, nv12, 64, 32, 64, 64, 514, 64), ACL_ERROR_INVALID_PARAM);
    expect_msg("resize");
    /* a crop is scaled into its paste area under the same limit */
    acldvppPicDesc *in = make_pic(nv12, 640, 360, 640, 360, 0x40);
    acldvppPicDesc *out = make_pic(nv12, 1024, 256, 1024, 256, 0);
    acldvppRoiConfig *crop = acldvppCreateRoiConfig(0, 15, 0, 9);       /* 16 x 10 */
    acldvppRoiConfig *paste = acldvppCreateRoiConfig(0, 271, 0, 159);   /* 272 x 160: 17x, 16x */
    assert_int_equal(acldvppVpcCropAndPasteAsync(f->ch, in, out, crop, paste, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("16x10 to 272x160");
    assert_int_equal(acldvppSetRoiConfig(paste, 0, 255, 0, 159), ACL_SUCCESS); /* 256 x 160: 16x both */
    assert_int_equal(acldvppVpcCropAndPasteAsync(f->ch, in, out, crop, paste, f->stream), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
    assert_int_equal(acldvppDestroyRoiConfig(crop), ACL_SUCCESS);
    assert_int_equal(acldvppDestroyRoiConfig(paste), ACL_SUCCESS);
    free_pic(in);
    free_pic(out);
    /* above 4096: semi-planar 420/422/444 and YUV400 pass, packed and RGB formats and 440SP do not */
    assert_int_equal(try_resize(f, nv12, 4608, 16, 4608, 1024, 16, 1024), ACL_SUCCESS);
    assert_int_equal(try_resize(f, PIXEL_FORMAT_YUV_SEMIPLANAR_444, 4608, 16, 4608, 1024, 16, 1024), ACL_SUCCESS);
    assert_int_equal(try_resize(f, PIXEL_FORMAT_YUV_400, 16, 4400, 32, 16, 1024, 32), ACL_SUCCESS);
    assert_int_equal(try_resize(f, PIXEL_FORMAT_RGB_888, 4608, 16, 4608 * 3, 1024, 16, 1024 * 3),
                     ACL_ERROR_INVALID_PARAM);
    expect_msg("RGB888");
    assert_int_equal(try_resize(f, PIXEL_FORMAT_RGB_888, 4096, 16, 4096 * 3, 1024, 16, 1024 * 3), ACL_SUCCESS);
    assert_int_equal(try_resize(f, PIXEL_FORMAT_YUV_SEMIPLANAR_440, 16, 4400, 32, 16, 1024, 32),
                     ACL_ERROR_INVALID_PARAM);
    expect_msg("4096");
}

static void check_paste(const acldvppPicDesc *in, const acldvppPicDesc *out, uint32_t sx, uint32_t sy, uint32_t dx,
                        uint32_t dy, uint32_t w, uint32_t h, int fill)
{
    const uint8_t *s = acldvppGetPicDescData(in);
    const uint8_t *d = acldvppGetPicDescData(out);
    const uint32_t sws = acldvppGetPicDescWidthStride(in), shs = acldvppGetPicDescHeightStride(in);
    const uint32_t dws = acldvppGetPicDescWidthStride(out), dhs = acldvppGetPicDescHeightStride(out);
    const uint32_t ow = acldvppGetPicDescWidth(out), oh = acldvppGetPicDescHeight(out);
    for (uint32_t y = 0; y < oh; ++y) {
        for (uint32_t x = 0; x < ow; ++x) {
            const bool inside = x >= dx && x < dx + w && y >= dy && y < dy + h;
            const int want = inside ? s[(size_t)(sy + y - dy) * sws + sx + x - dx] : fill;
            if (want >= 0 && d[(size_t)y * dws + x] != want) {
                fail_msg("luma (%u,%u) is %d, want %d", x, y, d[(size_t)y * dws + x], want);
            }
        }
    }
    const uint8_t *su = s + (size_t)sws * shs;
    const uint8_t *du = d + (size_t)dws * dhs;
    for (uint32_t y = 0; y < oh / 2; ++y) {
        for (uint32_t x = 0; x < ow; ++x) {
            const bool inside = x >= dx && x < dx + w && y >= dy / 2 && y < (dy + h) / 2;
            const int want = inside ? su[(size_t)(sy / 2 + y - dy / 2) * sws + sx + x - dx] : fill;
            if (want >= 0 && du[(size_t)y * dws + x] != want) {
                fail_msg("chroma (%u,%u) is %d, want %d", x, y, du[(size_t)y * dws + x], want);
            }
        }
    }
}

static void crop_and_paste(void **state)
{
    tfix *f = *state;
    acldvppPicDesc *in = pic_from_ref("rs_in.nv12", PIXEL_FORMAT_YUV_SEMIPLANAR_420, 640, 360, 640, 360);
    /* crop 100x60 at (20, 40) into a same-size output: the input bytes */
    acldvppPicDesc *out = make_pic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, 100, 60, 112, 60, 0x11);
    acldvppRoiConfig *crop = acldvppCreateRoiConfig(20, 119, 40, 99);
    assert_int_equal(acldvppVpcCropAsync(f->ch, in, out, crop, f->stream), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
    check_paste(in, out, 20, 40, 0, 0, 100, 60, -1);
    check_guard(out);
    free_pic(out);

    /* crop and paste at (32, 10) of a 200x100 canvas: outside the paste area untouched */
    out = make_pic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, 200, 100, 208, 100, 0x11);
    acldvppRoiConfig *paste = acldvppCreateRoiConfig(32, 131, 10, 69);
    assert_int_equal(acldvppVpcCropAndPasteAsync(f->ch, in, out, crop, paste, f->stream), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
    check_paste(in, out, 20, 40, 32, 10, 100, 60, 0x11);
    check_guard(out);
    assert_int_equal(acldvppGetPicDescRetCode(out), 0);

    /* region errors: paste left not 16-aligned, odd paste top for NV12, regions outside the pictures */
    assert_int_equal(acldvppSetRoiConfig(paste, 40, 139, 10, 69), ACL_SUCCESS);
    assert_int_equal(acldvppVpcCropAndPasteAsync(f->ch, in, out, crop, paste, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("multiple of 16");
    assert_int_equal(acldvppSetRoiConfig(paste, 32, 131, 11, 70), ACL_SUCCESS);
    assert_int_equal(acldvppVpcCropAndPasteAsync(f->ch, in, out, crop, paste, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("even");
    assert_int_equal(acldvppSetRoiConfig(paste, 112, 211, 10, 69), ACL_SUCCESS);
    assert_int_equal(acldvppVpcCropAndPasteAsync(f->ch, in, out, crop, paste, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("not inside");
    assert_int_equal(acldvppSetRoiConfig(crop, 600, 700, 0, 59), ACL_SUCCESS);
    assert_int_equal(acldvppVpcCropAsync(f->ch, in, out, crop, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("crop");
    assert_int_equal(acldvppSetRoiConfig(crop, 30, 20, 0, 59), ACL_SUCCESS);
    assert_int_equal(acldvppVpcCropAsync(f->ch, in, out, crop, f->stream), ACL_ERROR_INVALID_PARAM);
    (void)aclGetRecentErrMsg();
    assert_int_equal(acldvppSetRoiConfig(crop, 0, 3, 0, 3), ACL_SUCCESS);
    assert_int_equal(acldvppVpcCropAsync(f->ch, in, out, crop, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("smaller");
    assert_int_equal(acldvppVpcCropAsync(f->ch, in, out, NULL, f->stream), ACL_ERROR_INVALID_PARAM);
    (void)aclGetRecentErrMsg();

    /* crop-resize-paste scales the crop into the paste area (nearest: every output sample is an input sample) */
    acldvppResizeConfig *cfg = acldvppCreateResizeConfig();
    assert_int_equal(acldvppSetResizeConfigInterpolation(cfg, 2), ACL_SUCCESS);
    assert_int_equal(acldvppSetRoiConfig(crop, 0, 199, 0, 99), ACL_SUCCESS);
    assert_int_equal(acldvppSetRoiConfig(paste, 0, 99, 0, 49), ACL_SUCCESS);
    assert_int_equal(acldvppVpcCropResizePasteAsync(f->ch, in, out, crop, paste, cfg, f->stream), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
    const uint8_t *s = acldvppGetPicDescData(in);
    const uint8_t *d = acldvppGetPicDescData(out);
    for (uint32_t y = 0; y < 50; ++y) {
        for (uint32_t x = 0; x < 100; ++x) {
            assert_int_equal(d[y * 208 + x], s[(2 * y) * 640 + 2 * x]);
        }
    }
    check_guard(out);
    assert_int_equal(acldvppDestroyResizeConfig(cfg), ACL_SUCCESS);
    assert_int_equal(acldvppDestroyRoiConfig(crop), ACL_SUCCESS);
    assert_int_equal(acldvppDestroyRoiConfig(paste), ACL_SUCCESS);
    free_pic(out);
    free_pic(in);
}

/* Copies every field of a picture description through the public API. */
static void copy_desc(acldvppPicDesc *d, const acldvppPicDesc *s)
{
    assert_int_equal(acldvppSetPicDescData(d, acldvppGetPicDescData(s)), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescSize(d, acldvppGetPicDescSize(s)), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescFormat(d, acldvppGetPicDescFormat(s)), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescWidth(d, acldvppGetPicDescWidth(s)), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescHeight(d, acldvppGetPicDescHeight(s)), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescWidthStride(d, acldvppGetPicDescWidthStride(s)), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescHeightStride(d, acldvppGetPicDescHeightStride(s)), ACL_SUCCESS);
}

static void batch_crop(void **state)
{
    tfix *f = *state;
    acldvppBatchPicDesc *src = acldvppCreateBatchPicDesc(2);
    acldvppBatchPicDesc *dst = acldvppCreateBatchPicDesc(3);
    acldvppPicDesc *ins[2];
    for (int i = 0; i < 2; ++i) {
        ins[i] = pic_from_ref("rs_in.nv12", PIXEL_FORMAT_YUV_SEMIPLANAR_420, 640, 360, 640, 360);
        uint8_t *d = acldvppGetPicDescData(ins[i]);
        d[0] = (uint8_t)(d[0] + i); /* tell the sources apart */
        copy_desc(acldvppGetPicDesc(src, (uint32_t)i), ins[i]);
    }
    acldvppPicDesc *outs[3];
    acldvppRoiConfig *crops[3];
    const uint32_t box[3][4] = {{0, 63, 0, 31}, {64, 127, 32, 63}, {0, 63, 0, 31}}; /* picture 0 twice, then 1 */
    for (int k = 0; k < 3; ++k) {
        outs[k] = make_pic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 32, 64, 32, 0);
        copy_desc(acldvppGetPicDesc(dst, (uint32_t)k), outs[k]);
        crops[k] = acldvppCreateRoiConfig(box[k][0], box[k][1], box[k][2], box[k][3]);
    }
    uint32_t nums[2] = {2, 1};
    assert_int_equal(acldvppVpcBatchCropAsync(f->ch, src, nums, 2, dst, crops, f->stream), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
    for (int k = 0; k < 3; ++k) {
        check_paste(ins[k == 2 ? 1 : 0], acldvppGetPicDesc(dst, (uint32_t)k), box[k][0], box[k][2], 0, 0, 64, 32, -1);
        assert_int_equal(acldvppGetPicDescRetCode(acldvppGetPicDesc(dst, (uint32_t)k)), 0);
        check_guard(outs[k]);
    }
    /* roiNums that do not add up to the output batch, a NULL region, size beyond the source batch */
    uint32_t bad[2] = {2, 2};
    assert_int_equal(acldvppVpcBatchCropAsync(f->ch, src, bad, 2, dst, crops, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("roiNums");
    assert_int_equal(acldvppVpcBatchCropAsync(f->ch, src, nums, 3, dst, crops, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("size");
    acldvppRoiConfig *holes[3] = {crops[0], NULL, crops[2]};
    assert_int_equal(acldvppVpcBatchCropAsync(f->ch, src, nums, 2, dst, holes, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("null");
    /* batch crop-resize-paste and make-border variants run */
    acldvppResizeConfig *cfg = acldvppCreateResizeConfig();
    acldvppBorderConfig *b = acldvppCreateBorderConfig();
    assert_int_equal(acldvppSetBorderConfigLeft(b, 2), ACL_SUCCESS);
    assert_int_equal(acldvppSetBorderConfigTop(b, 2), ACL_SUCCESS);
    acldvppBorderConfig *borders[3] = {b, b, b};
    assert_int_equal(acldvppVpcBatchCropResizeMakeBorderAsync(f->ch, src, nums, 2, dst, crops, borders, cfg,
                                                              f->stream),
                     ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
    const uint8_t *o = acldvppGetPicDescData(outs[0]);
    assert_int_equal(o[0], 0); /* constant border, value 0 */
    assert_int_equal(o[64 * 2 + 1], 0);
    acldvppRoiConfig *pastes[3] = {crops[0], crops[0], crops[0]};
    assert_int_equal(acldvppVpcBatchCropResizePasteAsync(f->ch, src, nums, 2, dst, crops, pastes, cfg, f->stream),
                     ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
    check_paste(ins[0], outs[0], 0, 0, 0, 0, 64, 32, -1);
    assert_int_equal(acldvppVpcBatchCropAndPasteAsync(f->ch, src, nums, 2, dst, crops, pastes, f->stream), ACL_SUCCESS);
    assert_int_equal(acldvppVpcBatchCropResizeAsync(f->ch, src, nums, 2, dst, crops, cfg, f->stream), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
    check_paste(ins[1], outs[2], 0, 0, 0, 0, 64, 32, -1);
    assert_int_equal(acldvppDestroyBorderConfig(b), ACL_SUCCESS);
    assert_int_equal(acldvppDestroyResizeConfig(cfg), ACL_SUCCESS);
    for (int k = 0; k < 3; ++k) {
        free_pic(outs[k]);
        assert_int_equal(acldvppDestroyRoiConfig(crops[k]), ACL_SUCCESS);
    }
    for (int i = 0; i < 2; ++i) {
        free_pic(ins[i]);
    }
    assert_int_equal(acldvppDestroyBatchPicDesc(src), ACL_SUCCESS);
    assert_int_equal(acldvppDestroyBatchPicDesc(dst), ACL_SUCCESS);
}

static void make_border(void **state)
{
    tfix *f = *state;
    const uint32_t w = 64, h = 40, ow = 64 + 7 + 2, oh = 40 + 3 + 5;
    acldvppPicDesc *in = make_pic(PIXEL_FORMAT_RGB_888, w, h, align_up(w * 3, 16), h, 0);
    size_t n = 0;
    uint8_t *rgb = read_ref("bd_in.rgb", &n);
    for (uint32_t y = 0; y < h; ++y) {
        memcpy((uint8_t *)acldvppGetPicDescData(in) + (size_t)y * align_up(w * 3, 16), rgb + (size_t)y * w * 3, w * 3);
    }
    acldvppBorderConfig *b = acldvppCreateBorderConfig();
    assert_int_equal(acldvppSetBorderConfigTop(b, 3), ACL_SUCCESS);
    assert_int_equal(acldvppSetBorderConfigBottom(b, 5), ACL_SUCCESS);
    assert_int_equal(acldvppSetBorderConfigLeft(b, 7), ACL_SUCCESS);
    assert_int_equal(acldvppSetBorderConfigRight(b, 2), ACL_SUCCESS);
    assert_int_equal(acldvppSetBorderConfigValue(b, 0, 10), ACL_SUCCESS);
    assert_int_equal(acldvppSetBorderConfigValue(b, 1, 200), ACL_SUCCESS);
    assert_int_equal(acldvppSetBorderConfigValue(b, 2, 77), ACL_SUCCESS);
    acldvppPicDesc *out = make_pic(PIXEL_FORMAT_RGB_888, ow, oh, align_up(ow * 3, 16), oh, 0);
    for (int t = 0; t < 4; ++t) {
        assert_int_equal(acldvppSetBorderConfigBorderType(b, (acldvppBorderType)t), ACL_SUCCESS);
        assert_int_equal(acldvppVpcMakeBorderAsync(f->ch, in, out, b, f->stream), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
        char file[32];
        snprintf(file, sizeof(file), "bd_out_%d.rgb", t);
        size_t rn = 0;
        uint8_t *ref = read_ref(file, &rn);
        assert_int_equal(rn, (size_t)ow * oh * 3);
        for (uint32_t y = 0; y < oh; ++y) {
            assert_memory_equal((uint8_t *)acldvppGetPicDescData(out) + (size_t)y * align_up(ow * 3, 16),
                                ref + (size_t)y * ow * 3, ow * 3);
        }
        check_guard(out);
        free(ref);
    }
    /* output size must be input plus borders */
    assert_int_equal(acldvppSetPicDescWidth(out, ow - 1), ACL_SUCCESS);
    assert_int_equal(acldvppVpcMakeBorderAsync(f->ch, in, out, b, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("borders");
    assert_int_equal(acldvppDestroyBorderConfig(b), ACL_SUCCESS);
    free_pic(out);
    free_pic(in);
    free(rgb);
}

static void pyr_down(void **state)
{
    tfix *f = *state;
    const uint32_t w = 100, h = 60;
    acldvppPicDesc *in = make_pic(PIXEL_FORMAT_YUV_400, w, h, 112, h, 0);
    size_t n = 0, rn = 0;
    uint8_t *img = read_ref("pd_in.y", &n);
    uint8_t *ref = read_ref("pd_out.y", &rn);
    for (uint32_t y = 0; y < h; ++y) {
        memcpy((uint8_t *)acldvppGetPicDescData(in) + (size_t)y * 112, img + (size_t)y * w, w);
    }
    acldvppPicDesc *out = make_pic(PIXEL_FORMAT_YUV_400, w / 2, h / 2, 64, h / 2, 0);
    assert_int_equal(acldvppVpcPyrDownAsync(f->ch, in, out, NULL, f->stream), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
    for (uint32_t y = 0; y < h / 2; ++y) {
        assert_memory_equal((uint8_t *)acldvppGetPicDescData(out) + (size_t)y * 64, ref + (size_t)y * (w / 2), w / 2);
    }
    check_guard(out);
    int junk = 0;
    assert_int_equal(acldvppVpcPyrDownAsync(f->ch, in, out, &junk, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("reserve");
    assert_int_equal(acldvppSetPicDescFormat(in, PIXEL_FORMAT_YUV_SEMIPLANAR_420), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescSize(in, 112 * h * 3 / 2), ACL_SUCCESS);
    assert_int_equal(acldvppVpcPyrDownAsync(f->ch, in, out, NULL, f->stream), ACL_ERROR_INVALID_PARAM);
    (void)aclGetRecentErrMsg();
    free_pic(out);
    free_pic(in);
    free(img);
    free(ref);
}

static void convert_and_hist(void **state)
{
    tfix *f = *state;
    const uint32_t w = 96, h = 64;
    acldvppPicDesc *in = pic_from_ref("cc_in.nv12", PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, w, h);
    acldvppPicDesc *out = make_pic(PIXEL_FORMAT_RGB_888, w, h, w * 3, h, 0);
    assert_int_equal(acldvppVpcConvertColorAsync(f->ch, in, out, f->stream), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
    size_t rn = 0;
    uint8_t *ref = read_ref("cc_out.rgb", &rn);
    const uint8_t *d = acldvppGetPicDescData(out);
    int m = 0;
    for (size_t i = 0; i < rn; ++i) {
        const int e = abs((int)d[i] - (int)ref[i]);
        m = e > m ? e : m;
    }
    print_message("  NV12 -> RGB888 max diff %d\n", m);
    assert_true(m <= 1);
    check_guard(out);
    /* RGB888 -> BGR888 swaps bytes exactly; RGB -> NV12 -> RGB stays close */
    acldvppPicDesc *bgr = make_pic(PIXEL_FORMAT_BGR_888, w, h, w * 3, h, 0);
    assert_int_equal(acldvppVpcConvertColorAsync(f->ch, out, bgr, f->stream), ACL_SUCCESS);
    acldvppPicDesc *yuv = make_pic(PIXEL_FORMAT_YUV_SEMIPLANAR_444, w, h, w, h, 0);
    assert_int_equal(acldvppVpcConvertColorAsync(f->ch, out, yuv, f->stream), ACL_SUCCESS);
    acldvppPicDesc *back = make_pic(PIXEL_FORMAT_RGB_888, w, h, w * 3, h, 0);
    assert_int_equal(acldvppVpcConvertColorAsync(f->ch, yuv, back, f->stream), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
    const uint8_t *bd = acldvppGetPicDescData(bgr);
    const uint8_t *kd = acldvppGetPicDescData(back);
    for (size_t i = 0; i < (size_t)w * h; ++i) {
        assert_int_equal(bd[3 * i], d[3 * i + 2]);
        assert_int_equal(bd[3 * i + 2], d[3 * i]);
        for (int k = 0; k < 3; ++k) {
            assert_true(abs((int)kd[3 * i + k] - (int)d[3 * i + k]) <= 2);
        }
    }
    /* size mismatch */
    assert_int_equal(acldvppSetPicDescWidth(bgr, w - 16), ACL_SUCCESS);
    assert_int_equal(acldvppVpcConvertColorAsync(f->ch, out, bgr, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("size");

    /* histogram of the NV12 input: counts of its Y, U and V bytes */
    acldvppHist *hist = acldvppCreateHist();
    assert_int_equal(acldvppVpcCalcHistAsync(f->ch, in, hist, NULL, f->stream), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
    uint32_t want[3][256];
    memset(want, 0, sizeof(want));
    const uint8_t *s = acldvppGetPicDescData(in);
    for (size_t i = 0; i < (size_t)w * h; ++i) {
        want[0][s[i]]++;
    }
    for (size_t i = 0; i < (size_t)w * h / 2; ++i) {
        want[1 + (i & 1)][s[(size_t)w * h + i]]++;
    }
    for (uint32_t c = 0; c < 3; ++c) {
        uint32_t *bins = NULL;
        uint16_t len = 0;
        assert_int_equal(acldvppGetHistData(hist, c, &bins, &len), ACL_SUCCESS);
        assert_memory_equal(bins, want[c], sizeof(want[c]));
    }
    assert_int_equal(acldvppVpcCalcHistAsync(f->ch, in, NULL, NULL, f->stream), ACL_ERROR_INVALID_PARAM);
    (void)aclGetRecentErrMsg();
    /* lookup table: invert luma, keep chroma */
    acldvppLutMap *lut = acldvppCreateLutMap();
    uint8_t *tab = NULL;
    uint32_t len = 0;
    assert_int_equal(acldvppGetLutMapData(lut, 0, &tab, &len), ACL_SUCCESS);
    for (uint32_t i = 0; i < len; ++i) {
        tab[i] = (uint8_t)(255 - i);
    }
    acldvppPicDesc *eq = make_pic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, w, h, 0);
    assert_int_equal(acldvppVpcEqualizeHistAsync(f->ch, in, eq, lut, f->stream), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
    const uint8_t *e = acldvppGetPicDescData(eq);
    for (size_t i = 0; i < (size_t)w * h; ++i) {
        assert_int_equal(e[i], 255 - s[i]);
    }
    assert_memory_equal(e + (size_t)w * h, s + (size_t)w * h, (size_t)w * h / 2);
    check_guard(eq);
    assert_int_equal(acldvppDestroyLutMap(lut), ACL_SUCCESS);
    assert_int_equal(acldvppDestroyHist(hist), ACL_SUCCESS);
    free_pic(eq);
    free_pic(back);
    free_pic(yuv);
    free_pic(bgr);
    free_pic(out);
    free_pic(in);
    free(ref);
}

/* JPEG decode then resize on one stream, one synchronisation: the tasks run in order. */
static void pipeline_order(void **state)
{
    tfix *f = *state;
    size_t n = 0;
    uint8_t *jpg = read_ref("j420.jpg", &n);
    void *dev = dev_copy(jpg, n);
    acldvppPicDesc *dec = make_pic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, 250, 170, 256, 176, 0);
    acldvppPicDesc *small = make_pic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, 224, 224, 224, 224, 0);
    acldvppPicDesc *small2 = make_pic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, 224, 224, 224, 224, 0);
    acldvppResizeConfig *cfg = acldvppCreateResizeConfig();
    assert_int_equal(acldvppJpegDecodeAsync(f->ch, dev, (uint32_t)n, dec, f->stream), ACL_SUCCESS);
    assert_int_equal(acldvppVpcResizeAsync(f->ch, dec, small, cfg, f->stream), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
    assert_int_equal(acldvppVpcResizeAsync(f->ch, dec, small2, cfg, f->stream), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
    assert_memory_equal(acldvppGetPicDescData(small), acldvppGetPicDescData(small2), 224 * 224 * 3 / 2);
    /* the default stream (NULL) works too */
    assert_int_equal(acldvppVpcResizeAsync(f->ch, dec, small2, cfg, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_int_equal(acldvppDestroyResizeConfig(cfg), ACL_SUCCESS);
    free_pic(small2);
    free_pic(small);
    free_pic(dec);
    assert_int_equal(acldvppFree(dev), ACL_SUCCESS);
    free(jpg);
}

/* A resize queued while the stream is captured (aclmdlRI*) runs when the instance is executed, each time. */
static void captured_resize(void **state)
{
    tfix *f = *state;
    acldvppPicDesc *in = pic_from_ref("rs_in.nv12", PIXEL_FORMAT_YUV_SEMIPLANAR_420, 640, 360, 640, 360);
    acldvppPicDesc *out = make_pic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, 224, 224, 224, 224, 0);
    acldvppPicDesc *direct = make_pic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, 224, 224, 224, 224, 0);
    acldvppResizeConfig *cfg = acldvppCreateResizeConfig();
    assert_int_equal(acldvppVpcResizeAsync(f->ch, in, direct, cfg, f->stream), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
    aclrtStream cap = NULL;
    assert_int_equal(aclrtCreateStream(&cap), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureBegin(cap, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(acldvppVpcResizeAsync(f->ch, in, out, cfg, cap), ACL_SUCCESS);
    aclmdlRI ri = NULL;
    assert_int_equal(aclmdlRICaptureEnd(cap, &ri), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(cap), ACL_SUCCESS);
    const uint8_t *o = acldvppGetPicDescData(out);
    for (size_t i = 0; i < 224 * 224 * 3 / 2; ++i) {
        assert_int_equal(o[i], 0); /* recorded, not run */
    }
    for (int k = 0; k < 2; ++k) {
        memset(acldvppGetPicDescData(out), 0, 224 * 224 * 3 / 2);
        assert_int_equal(aclmdlRIExecuteAsync(ri, f->stream), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
        assert_memory_equal(acldvppGetPicDescData(out), acldvppGetPicDescData(direct), 224 * 224 * 3 / 2);
    }
    assert_int_equal(aclmdlRIDestroy(ri), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(cap), ACL_SUCCESS);
    assert_int_equal(acldvppDestroyResizeConfig(cfg), ACL_SUCCESS);
    free_pic(direct);
    free_pic(out);
    free_pic(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(resize_modes, fix_setup, fix_teardown),
        cmocka_unit_test_setup_teardown(resize_limits, fix_setup, fix_teardown),
        cmocka_unit_test_setup_teardown(crop_and_paste, fix_setup, fix_teardown),
        cmocka_unit_test_setup_teardown(batch_crop, fix_setup, fix_teardown),
        cmocka_unit_test_setup_teardown(make_border, fix_setup, fix_teardown),
        cmocka_unit_test_setup_teardown(pyr_down, fix_setup, fix_teardown),
        cmocka_unit_test_setup_teardown(convert_and_hist, fix_setup, fix_teardown),
        cmocka_unit_test_setup_teardown(pipeline_order, fix_setup, fix_teardown),
        cmocka_unit_test_setup_teardown(captured_resize, fix_setup, fix_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

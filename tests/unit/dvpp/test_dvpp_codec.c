/*
 * JPEGD / JPEGE / PNGD against PIL (gen_dvpp_refs.py): header information,
 * predicted sizes, decoded planes within 2 levels of PIL's own libjpeg
 * decode (luma) and of PIL's upsampled chroma averaged back over each output
 * sample (chroma, 3 levels: PIL's "fancy" upsampling smooths), PNG decode
 * byte-exact, and bad input: progressive / corrupt / truncated data, small
 * or misaligned outputs, wrong formats -- the error code, a message, and no
 * byte written past the output picture.
 */
#include "dvpp_test_util.h"

typedef struct jcase {
    char name[32];
    uint32_t w, h, css, comps, prog;
} jcase;

static int load_jpeg_cases(jcase *c, int max)
{
    size_t n = 0;
    char *txt = read_ref("jpeg.txt", &n);
    txt[n] = 0;
    int k = 0;
    char *save = NULL;
    for (char *line = strtok_r(txt, "\n", &save); line != NULL && k < max; line = strtok_r(NULL, "\n", &save)) {
        assert_int_equal(sscanf(line, "%31s %u %u %u %u %u", c[k].name, &c[k].w, &c[k].h, &c[k].css, &c[k].comps,
                                &c[k].prog),
                         6);
        ++k;
    }
    free(txt);
    return k;
}

static void *load_named(const char *name, const char *ext, size_t *n)
{
    char file[512];
    snprintf(file, sizeof(file), "%s%s", name, ext);
    return read_ref(file, n);
}

static void jpeg_info(void **state)
{
    (void)state;
    jcase c[8];
    const int nc = load_jpeg_cases(c, 8);
    assert_true(nc >= 5);
    for (int i = 0; i < nc; ++i) {
        size_t n = 0;
        uint8_t *jpg = load_named(c[i].name, ".jpg", &n);
        uint32_t w = 0, h = 0;
        int32_t comps = 0;
        acldvppJpegFormat fmt = ACL_JPEG_CSS_UNKNOWN;
        assert_int_equal(acldvppJpegGetImageInfo(jpg, (uint32_t)n, &w, &h, &comps), ACL_SUCCESS);
        assert_int_equal(w, c[i].w);
        assert_int_equal(h, c[i].h);
        assert_int_equal(comps, c[i].comps);
        const aclError v2 = acldvppJpegGetImageInfoV2(jpg, (uint32_t)n, &w, &h, NULL, &fmt);
        assert_int_equal(fmt, c[i].css);
        uint32_t dec = 0;
        const aclError pr = acldvppJpegPredictDecSize(jpg, (uint32_t)n, PIXEL_FORMAT_YUV_SEMIPLANAR_420, &dec);
        if (c[i].prog) {
            assert_int_equal(v2, ACL_ERROR_UNSUPPORTED_JPEG);
            expect_msg("progressive");
            assert_int_equal(pr, ACL_ERROR_UNSUPPORTED_JPEG);
            (void)aclGetRecentErrMsg();
        } else {
            assert_int_equal(v2, ACL_SUCCESS);
            assert_int_equal(pr, ACL_SUCCESS);
            assert_int_equal(dec, align_up(c[i].w, 64) * align_up(c[i].h, 16) * 3 / 2);
        }
        /* every prefix of the headers fails cleanly or succeeds; never reads past size */
        for (uint32_t cut = 0; cut < 40; ++cut) {
            uint8_t *part = malloc(cut + 1);
            memcpy(part, jpg, cut);
            (void)acldvppJpegGetImageInfoV2(part, cut, &w, &h, &comps, &fmt);
            free(part);
        }
        (void)aclGetRecentErrMsg();
        free(jpg);
    }
    /* an Adobe APP14 segment with transform 0 marks an RGB JPEG: JPEGD decodes YUV only */
    size_t n444 = 0;
    uint8_t *j444 = read_ref("j444.jpg", &n444);
    static const uint8_t app14[16] = {0xFF, 0xEE, 0x00, 0x0E, 'A', 'd', 'o', 'b', 'e', 0, 100, 0, 0, 0, 0, 0};
    uint8_t *rgbj = malloc(n444 + sizeof(app14));
    memcpy(rgbj, j444, 2);
    memcpy(rgbj + 2, app14, sizeof(app14));
    memcpy(rgbj + 2 + sizeof(app14), j444 + 2, n444 - 2);
    acldvppJpegFormat f444 = ACL_JPEG_CSS_UNKNOWN;
    assert_int_equal(acldvppJpegGetImageInfoV2(rgbj, (uint32_t)(n444 + sizeof(app14)), NULL, NULL, NULL, &f444),
                     ACL_ERROR_UNSUPPORTED_JPEG);
    expect_msg("RGB colour space");
    assert_int_equal(f444, ACL_JPEG_CSS_444);
    rgbj[2 + 15] = 1; /* transform 1: YCbCr */
    assert_int_equal(acldvppJpegGetImageInfoV2(rgbj, (uint32_t)(n444 + sizeof(app14)), NULL, NULL, NULL, &f444),
                     ACL_SUCCESS);
    free(rgbj);
    free(j444);

    const uint8_t junk[64] = {1, 2, 3};
    uint32_t w = 0, h = 0;
    assert_int_equal(acldvppJpegGetImageInfo(junk, sizeof(junk), &w, &h, NULL), ACL_ERROR_INVALID_PARAM);
    expect_msg("SOI");
    assert_int_equal(acldvppJpegGetImageInfo(NULL, 10, &w, &h, NULL), ACL_ERROR_INVALID_PARAM);
    expect_msg("data");
    uint32_t dec = 0;
    assert_int_equal(acldvppJpegPredictDecSize(junk, sizeof(junk), PIXEL_FORMAT_YUV_SEMIPLANAR_420, NULL),
                     ACL_ERROR_INVALID_PARAM);
    (void)aclGetRecentErrMsg();
    assert_int_equal(acldvppJpegPredictDecSize(junk, sizeof(junk), PIXEL_FORMAT_YUV_SEMIPLANAR_420, &dec),
                     ACL_ERROR_INVALID_PARAM);
    (void)aclGetRecentErrMsg();
}

/* Decodes jpg into a new picture of fmt with the JPEGD strides; returns the desc (caller frees). */
static acldvppPicDesc *decode(tfix *f, const void *dev, size_t n, acldvppPixelFormat fmt, uint32_t w, uint32_t h,
                              aclError *sync)
{
    const uint32_t ws = align_up(w, 64);
    const uint32_t hs = align_up(h, 16);
    acldvppPixelFormat alloc_fmt = fmt == PIXEL_FORMAT_UNKNOWN ? PIXEL_FORMAT_YUV_SEMIPLANAR_444 : fmt;
    acldvppPicDesc *p = make_pic(alloc_fmt, w, h, ws, hs, 0);
    assert_int_equal(acldvppSetPicDescFormat(p, fmt), ACL_SUCCESS);
    assert_int_equal(acldvppJpegDecodeAsync(f->ch, dev, (uint32_t)n, p, f->stream), ACL_SUCCESS);
    *sync = aclrtSynchronizeStream(f->stream);
    check_guard(p);
    return p;
}

/* Compares decoded planes with PIL's YCbCr (w x h x comps). */
static void compare_planes(const acldvppPicDesc *p, const uint8_t *ref, uint32_t rw, uint32_t comps)
{
    const uint8_t *d = acldvppGetPicDescData(p);
    const uint32_t w = acldvppGetPicDescWidth(p);
    const uint32_t h = acldvppGetPicDescHeight(p);
    const uint32_t ws = acldvppGetPicDescWidthStride(p);
    const uint32_t hs = acldvppGetPicDescHeightStride(p);
    const acldvppPixelFormat fmt = acldvppGetPicDescFormat(p);
    int maxy = 0, maxc = 0;
    for (uint32_t y = 0; y < h; ++y) {
        for (uint32_t x = 0; x < w; ++x) {
            const int e = abs((int)d[(size_t)y * ws + x] - (int)ref[((size_t)y * rw + x) * comps]);
            maxy = e > maxy ? e : maxy;
        }
    }
    if (fmt != PIXEL_FORMAT_YUV_400) {
        uint32_t sx = 1, sy = 1; /* block of one chroma sample */
        if (fmt == PIXEL_FORMAT_YUV_SEMIPLANAR_420 || fmt == PIXEL_FORMAT_YVU_SEMIPLANAR_420) {
            sx = sy = 2;
        } else if (fmt == PIXEL_FORMAT_YUV_SEMIPLANAR_422) {
            sx = 2;
        }
        const bool swap = fmt == PIXEL_FORMAT_YVU_SEMIPLANAR_420;
        const uint8_t *uv = d + (size_t)ws * hs;
        const size_t pitch = (size_t)ws * 2 / sx;
        for (uint32_t y = 0; y < h / sy; ++y) {
            for (uint32_t x = 0; x < w / sx; ++x) {
                for (uint32_t k = 0; k < 2; ++k) {
                    double s = 0;
                    int cnt = 0;
                    for (uint32_t j = 0; j < sy; ++j) {
                        for (uint32_t i = 0; i < sx; ++i) {
                            s += comps == 1 ? 128 : ref[(((size_t)y * sy + j) * rw + x * sx + i) * comps + 1 + k];
                            ++cnt;
                        }
                    }
                    const int got = uv[(size_t)y * pitch + 2 * x + (swap ? 1 - k : k)];
                    const int e = abs(got - (int)(s / cnt + 0.5));
                    maxc = e > maxc ? e : maxc;
                }
            }
        }
    }
    print_message("    luma max diff %d, chroma max diff %d\n", maxy, maxc);
    assert_true(maxy <= 2);
    assert_true(maxc <= 3);
}

static void jpeg_decode(void **state)
{
    tfix *f = *state;
    jcase c[8];
    const int nc = load_jpeg_cases(c, 8);
    for (int i = 0; i < nc; ++i) {
        size_t n = 0;
        uint8_t *jpg = load_named(c[i].name, ".jpg", &n);
        size_t rn = 0;
        uint8_t *ref = load_named(c[i].name, ".ycc", &rn);
        void *dev = dev_copy(jpg, n);
        const acldvppPixelFormat fmts[3] = {PIXEL_FORMAT_YUV_SEMIPLANAR_420, PIXEL_FORMAT_YVU_SEMIPLANAR_420,
                                            PIXEL_FORMAT_UNKNOWN};
        for (int k = 0; k < 3; ++k) {
            print_message("  %s -> format %d\n", c[i].name, (int)fmts[k]);
            if (c[i].prog) {
                acldvppPicDesc *p = make_pic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, c[i].w, c[i].h, align_up(c[i].w, 64),
                                             align_up(c[i].h, 16), 0);
                assert_int_equal(acldvppJpegDecodeAsync(f->ch, dev, (uint32_t)n, p, f->stream),
                                 ACL_ERROR_UNSUPPORTED_JPEG);
                expect_msg("progressive");
                free_pic(p);
                break;
            }
            aclError sync = ACL_SUCCESS;
            acldvppPicDesc *p = decode(f, dev, n, fmts[k], c[i].w, c[i].h, &sync);
            assert_int_equal(sync, ACL_SUCCESS);
            assert_int_equal(acldvppGetPicDescRetCode(p), 0);
            const bool sub = acldvppGetPicDescFormat(p) == PIXEL_FORMAT_YUV_SEMIPLANAR_420 ||
                             acldvppGetPicDescFormat(p) == PIXEL_FORMAT_YVU_SEMIPLANAR_420;
            assert_int_equal(acldvppGetPicDescWidth(p), sub ? (c[i].w & ~1u) : (c[i].css == 1 ? c[i].w & ~1u : c[i].w));
            assert_int_equal(acldvppGetPicDescHeight(p), sub ? (c[i].h & ~1u) : c[i].h);
            if (fmts[k] == PIXEL_FORMAT_UNKNOWN) {
                const acldvppPixelFormat native[4] = {PIXEL_FORMAT_YUV_SEMIPLANAR_444, PIXEL_FORMAT_YUV_SEMIPLANAR_422,
                                                      PIXEL_FORMAT_YUV_SEMIPLANAR_420, PIXEL_FORMAT_YUV_400};
                assert_int_equal(acldvppGetPicDescFormat(p), native[c[i].css]);
            }
            compare_planes(p, ref, c[i].w, c[i].comps);
            free_pic(p);
        }
        assert_int_equal(acldvppFree(dev), ACL_SUCCESS);
        free(jpg);
        free(ref);
    }
}

static void jpeg_decode_bad(void **state)
{
    tfix *f = *state;
    size_t n = 0;
    uint8_t *jpg = read_ref("j420.jpg", &n);
    const uint32_t w = 250, h = 170, ws = align_up(w, 64), hs = align_up(h, 16);
    void *dev = dev_copy(jpg, n);
    acldvppPicDesc *p = make_pic(PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, ws, hs, 0);

    /* a channel that was not created, or without JPEGD */
    acldvppChannelDesc *nc = acldvppCreateChannelDesc();
    assert_int_equal(acldvppJpegDecodeAsync(nc, dev, (uint32_t)n, p, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("acldvppCreateChannel");
    assert_int_equal(acldvppSetChannelDescMode(nc, DVPP_CHNMODE_VPC), ACL_SUCCESS);
    assert_int_equal(acldvppCreateChannel(nc), ACL_SUCCESS);
    assert_int_equal(acldvppJpegDecodeAsync(nc, dev, (uint32_t)n, p, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("JPEGD");
    assert_int_equal(acldvppDestroyChannel(nc), ACL_SUCCESS);
    assert_int_equal(acldvppDestroyChannelDesc(nc), ACL_SUCCESS);

    /* host memory input, size 0, NULL output */
    assert_int_equal(acldvppJpegDecodeAsync(f->ch, jpg, (uint32_t)n, p, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("acldvppMalloc");
    assert_int_equal(acldvppJpegDecodeAsync(f->ch, dev, 0, p, f->stream), ACL_ERROR_INVALID_PARAM);
    (void)aclGetRecentErrMsg();
    assert_int_equal(acldvppJpegDecodeAsync(f->ch, dev, (uint32_t)n, NULL, f->stream), ACL_ERROR_INVALID_PARAM);
    (void)aclGetRecentErrMsg();
    /* misaligned strides, small buffer, a format JPEGD does not write from 4:2:0 */
    assert_int_equal(acldvppSetPicDescWidthStride(p, ws - 16), ACL_SUCCESS);
    assert_int_equal(acldvppJpegDecodeAsync(f->ch, dev, (uint32_t)n, p, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("widthStride");
    assert_int_equal(acldvppSetPicDescWidthStride(p, ws), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescHeightStride(p, hs - 8), ACL_SUCCESS);
    assert_int_equal(acldvppJpegDecodeAsync(f->ch, dev, (uint32_t)n, p, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("heightStride");
    assert_int_equal(acldvppSetPicDescHeightStride(p, hs), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescSize(p, ws * hs), ACL_SUCCESS);
    assert_int_equal(acldvppJpegDecodeAsync(f->ch, dev, (uint32_t)n, p, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("size");
    assert_int_equal(acldvppSetPicDescSize(p, ws * hs * 3 / 2), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescFormat(p, PIXEL_FORMAT_YUV_SEMIPLANAR_444), ACL_SUCCESS);
    assert_int_equal(acldvppJpegDecodeAsync(f->ch, dev, (uint32_t)n, p, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("cannot output");
    assert_int_equal(acldvppSetPicDescFormat(p, PIXEL_FORMAT_YUV_SEMIPLANAR_420), ACL_SUCCESS);

    /* truncated entropy data: accepted at submission, reported by the synchronisation and retCode */
    void *cut = dev_copy(jpg, n * 6 / 10);
    assert_int_equal(acldvppJpegDecodeAsync(f->ch, cut, (uint32_t)(n * 6 / 10), p, f->stream), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_ERROR_UNSUPPORTED_JPEG);
    /* the synchronising thread sees the task's own message, not only "task N failed" */
    expect_msg("corrupt or truncated");
    assert_int_equal(acldvppGetPicDescRetCode(p), ACL_ERROR_UNSUPPORTED_JPEG);
    check_guard(p);
    /* corrupted bytes in the middle of the scan */
    uint8_t *bad = malloc(n);
    memcpy(bad, jpg, n);
    for (size_t i = n / 2; i < n / 2 + 64; ++i) {
        bad[i] = (uint8_t)(i * 37u);
    }
    void *dbad = dev_copy(bad, n);
    if (acldvppJpegDecodeAsync(f->ch, dbad, (uint32_t)n, p, f->stream) == ACL_SUCCESS) {
        (void)aclrtSynchronizeStream(f->stream); /* either outcome is fine, but no overflow */
    }
    (void)aclGetRecentErrMsg();
    check_guard(p);
    /* the stream still works afterwards */
    assert_int_equal(acldvppJpegDecodeAsync(f->ch, dev, (uint32_t)n, p, f->stream), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
    assert_int_equal(acldvppGetPicDescRetCode(p), 0);
    free(bad);
    assert_int_equal(acldvppFree(dbad), ACL_SUCCESS);
    assert_int_equal(acldvppFree(cut), ACL_SUCCESS);
    assert_int_equal(acldvppFree(dev), ACL_SUCCESS);
    free_pic(p);
    free(jpg);
}

static void jpeg_encode(void **state)
{
    tfix *f = *state;
    size_t n = 0;
    uint8_t *jpg = read_ref("j420.jpg", &n);
    const uint32_t w = 250, h = 170;
    void *dev = dev_copy(jpg, n);
    aclError sync = ACL_SUCCESS;
    acldvppPicDesc *nv12 = decode(f, dev, n, PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, &sync);
    assert_int_equal(sync, ACL_SUCCESS);

    acldvppJpegeConfig *cfg = acldvppCreateJpegeConfig();
    assert_int_equal(acldvppSetJpegeConfigLevel(cfg, 95), ACL_SUCCESS);
    uint32_t cap = 0;
    assert_int_equal(acldvppJpegPredictEncSize(nv12, cfg, &cap), ACL_SUCCESS);
    assert_true(cap > 1000);
    uint8_t *out = NULL;
    assert_int_equal(acldvppMalloc((void **)&out, cap + GUARD), ACL_SUCCESS);
    memset(out + cap, GUARD_BYTE, GUARD);
    uint32_t size = cap;
    assert_int_equal(acldvppJpegEncodeAsync(f->ch, nv12, out, &size, cfg, f->stream), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
    assert_true(size > 100 && size < cap);
    for (uint32_t i = 0; i < GUARD; ++i) {
        assert_int_equal(out[cap + i], GUARD_BYTE);
    }
    /* the result is a 4:2:0 baseline JPEG of the same size that decodes back close to the input */
    uint32_t ew = 0, eh = 0;
    acldvppJpegFormat css = ACL_JPEG_CSS_UNKNOWN;
    assert_int_equal(acldvppJpegGetImageInfoV2(out, size, &ew, &eh, NULL, &css), ACL_SUCCESS);
    assert_int_equal(ew, w);
    assert_int_equal(eh, h);
    assert_int_equal(css, ACL_JPEG_CSS_420);
    acldvppPicDesc *back = decode(f, out, size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, &sync);
    assert_int_equal(sync, ACL_SUCCESS);
    const uint8_t *a = acldvppGetPicDescData(nv12);
    const uint8_t *b = acldvppGetPicDescData(back);
    double se = 0;
    for (uint32_t y = 0; y < h; ++y) {
        for (uint32_t x = 0; x < w; ++x) {
            const double e = (double)a[y * align_up(w, 64) + x] - b[y * align_up(w, 64) + x];
            se += e * e;
        }
    }
    const double psnr = 10 * log10(255.0 * 255.0 / (se / (w * h) + 1e-9));
    print_message("    re-encode PSNR %.1f dB, %u bytes\n", psnr, size);
    assert_true(psnr > 38);

    /* packed YUV422 input (YUYV, made by VPC colour conversion) encodes as 4:2:2 */
    acldvppPicDesc *yuyv = make_pic(PIXEL_FORMAT_YUYV_PACKED_422, w, h, align_up(2 * w, 16), h, 0);
    assert_int_equal(acldvppVpcConvertColorAsync(f->ch, nv12, yuyv, f->stream), ACL_SUCCESS);
    uint32_t ysize = cap;
    assert_int_equal(acldvppJpegEncodeAsync(f->ch, yuyv, out, &ysize, cfg, f->stream), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
    assert_int_equal(acldvppJpegGetImageInfoV2(out, ysize, &ew, &eh, NULL, &css), ACL_SUCCESS);
    assert_int_equal(css, ACL_JPEG_CSS_422);
    acldvppPicDesc *back422 = decode(f, out, ysize, PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, &sync);
    assert_int_equal(sync, ACL_SUCCESS);
    const uint8_t *c = acldvppGetPicDescData(back422);
    se = 0;
    for (uint32_t y = 0; y < h; ++y) {
        for (uint32_t x = 0; x < w; ++x) {
            const double e = (double)a[y * align_up(w, 64) + x] - c[y * align_up(w, 64) + x];
            se += e * e;
        }
    }
    const double psnr422 = 10 * log10(255.0 * 255.0 / (se / (w * h) + 1e-9));
    print_message("    YUYV re-encode PSNR %.1f dB\n", psnr422);
    assert_true(psnr422 > 38);
    free_pic(back422);
    free_pic(yuyv);

    /* an output buffer too small: reported at synchronisation, nothing written past it */
    size = 200;
    memset(out + 200, GUARD_BYTE, GUARD);
    assert_int_equal(acldvppJpegEncodeAsync(f->ch, nv12, out, &size, cfg, f->stream), ACL_SUCCESS);
    assert_int_not_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
    (void)aclGetRecentErrMsg();
    for (uint32_t i = 0; i < GUARD; ++i) {
        assert_int_equal(out[200 + i], GUARD_BYTE);
    }
    /* bad arguments */
    size = cap;
    assert_int_equal(acldvppJpegEncodeAsync(f->ch, nv12, out, &size, NULL, f->stream), ACL_ERROR_INVALID_PARAM);
    (void)aclGetRecentErrMsg();
    assert_int_equal(acldvppSetPicDescFormat(nv12, PIXEL_FORMAT_RGB_888), ACL_SUCCESS);
    assert_int_equal(acldvppJpegEncodeAsync(f->ch, nv12, out, &size, cfg, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("RGB888");
    assert_int_equal(acldvppJpegPredictEncSize(nv12, cfg, &cap), ACL_ERROR_INVALID_PARAM);
    (void)aclGetRecentErrMsg();
    assert_int_equal(acldvppSetPicDescFormat(nv12, PIXEL_FORMAT_YUV_SEMIPLANAR_420), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescWidthStride(nv12, 255), ACL_SUCCESS);
    assert_int_equal(acldvppJpegEncodeAsync(f->ch, nv12, out, &size, cfg, f->stream), ACL_ERROR_INVALID_PARAM);
    expect_msg("multiple of 16");
    assert_int_equal(acldvppSetPicDescWidthStride(nv12, align_up(w, 64)), ACL_SUCCESS);

    assert_int_equal(acldvppDestroyJpegeConfig(cfg), ACL_SUCCESS);
    free_pic(back);
    free_pic(nv12);
    assert_int_equal(acldvppFree(out), ACL_SUCCESS);
    assert_int_equal(acldvppFree(dev), ACL_SUCCESS);
    free(jpg);
}

static void png_decode(void **state)
{
    tfix *f = *state;
    size_t tn = 0;
    char *txt = read_ref("png.txt", &tn);
    txt[tn] = 0;
    char *save = NULL;
    int cases = 0;
    for (char *line = strtok_r(txt, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
        char name[32];
        uint32_t w = 0, h = 0, comps = 0;
        assert_int_equal(sscanf(line, "%31s %u %u %u", name, &w, &h, &comps), 4);
        size_t n = 0, rn = 0;
        uint8_t *png = load_named(name, ".png", &n);
        uint8_t *ref = load_named(name, ".raw", &rn);
        assert_int_equal(rn, (size_t)w * h * comps);
        uint32_t iw = 0, ih = 0;
        int32_t ic = 0;
        assert_int_equal(acldvppPngGetImageInfo(png, (uint32_t)n, &iw, &ih, &ic), ACL_SUCCESS);
        assert_int_equal(iw, w);
        assert_int_equal(ih, h);
        const acldvppPixelFormat fmt = comps == 4 ? PIXEL_FORMAT_RGBA_8888 : PIXEL_FORMAT_RGB_888;
        const uint32_t ws = align_up(w, 128) * comps, hs = align_up(h, 16);
        uint32_t pred = 0;
        assert_int_equal(acldvppPngPredictDecSize(png, (uint32_t)n, PIXEL_FORMAT_UNKNOWN, &pred), ACL_SUCCESS);
        assert_int_equal(pred, ws * hs);
        void *dev = dev_copy(png, n);
        acldvppPicDesc *p = make_pic(fmt, w, h, ws, hs, 0);
        assert_int_equal(acldvppSetPicDescFormat(p, PIXEL_FORMAT_UNKNOWN), ACL_SUCCESS);
        assert_int_equal(acldvppPngDecodeAsync(f->ch, dev, (uint32_t)n, p, f->stream), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
        assert_int_equal(acldvppGetPicDescFormat(p), fmt);
        check_guard(p);
        const uint8_t *d = acldvppGetPicDescData(p);
        for (uint32_t y = 0; y < h; ++y) {
            assert_memory_equal(d + (size_t)y * ws, ref + (size_t)y * w * comps, (size_t)w * comps);
        }
        /* the other 8-bit format is refused; truncated data fails at synchronisation */
        assert_int_equal(acldvppSetPicDescFormat(p, comps == 4 ? PIXEL_FORMAT_RGB_888 : PIXEL_FORMAT_RGBA_8888),
                         ACL_SUCCESS);
        assert_int_equal(acldvppPngDecodeAsync(f->ch, dev, (uint32_t)n, p, f->stream), ACL_ERROR_INVALID_PARAM);
        expect_msg("PNGD");
        assert_int_equal(acldvppSetPicDescFormat(p, fmt), ACL_SUCCESS);
        assert_int_equal(acldvppPngDecodeAsync(f->ch, dev, (uint32_t)(n * 2 / 3), p, f->stream), ACL_SUCCESS);
        assert_int_not_equal(aclrtSynchronizeStream(f->stream), ACL_SUCCESS);
        expect_msg("failed");
        assert_int_not_equal(acldvppGetPicDescRetCode(p), 0);
        check_guard(p);
        free_pic(p);
        assert_int_equal(acldvppFree(dev), ACL_SUCCESS);
        free(png);
        free(ref);
        ++cases;
    }
    free(txt);
    assert_true(cases >= 5);
    const uint8_t junk[40] = {0x89, 'P', 'N', 'G'};
    uint32_t w = 0;
    assert_int_equal(acldvppPngGetImageInfo(junk, sizeof(junk), &w, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    expect_msg("PNG");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(jpeg_info),
        cmocka_unit_test_setup_teardown(jpeg_decode, fix_setup, fix_teardown),
        cmocka_unit_test_setup_teardown(jpeg_decode_bad, fix_setup, fix_teardown),
        cmocka_unit_test_setup_teardown(jpeg_encode, fix_setup, fix_teardown),
        cmocka_unit_test_setup_teardown(png_decode, fix_setup, fix_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

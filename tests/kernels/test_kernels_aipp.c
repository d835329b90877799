/*
 * The AIPP kernel against the numpy reference of docs/aipp.md
 * (gen_aipp_refs.py, run at test time; path in OA_AIPP_REFS): every input
 * format, swaps, crop, padding, the common CSC presets; pixel-exact. Plus bad
 * parameters (crop outside the image, odd YUV420SP starts, resize, CSC on
 * YUV400, too many output channels) that must fail cleanly.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fp16.h"
#include "kernels/aipp.h"
#include "kernels/threadpool.h"

enum { NI = 19 + 9 + 3 + 3 + 4, NF = 4 + 4 + 1 };

static void read_exact(FILE *f, void *p, size_t n)
{
    assert_int_equal(fread(p, 1, n, f), n);
}

static void test_against_numpy(void **state)
{
    (void)state;
    const char *path = getenv("OA_AIPP_REFS");
    assert_non_null(path);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    int32_t n_cases;
    read_exact(f, &n_cases, 4);
    assert_true(n_cases > 30);
    oa_threadpool *pool;
    assert_int_equal(oa_threadpool_create(2, &pool), OA_OK);
    for (int ci = 0; ci < n_cases; ci++) {
        int32_t I[NI];
        float F[NF];
        read_exact(f, I, sizeof I);
        read_exact(f, F, sizeof F);
        oa_aipp_params p;
        memset(&p, 0, sizeof p);
        int k = 0;
        p.aipp_mode = OA_AIPP_MODE_STATIC;
        p.input_format = I[k++];
        int32_t w = I[k++], h = I[k++], batch = I[k++], out_c = I[k++];
        bool nhwc = I[k++] != 0;
        p.csc_switch = I[k++];
        p.rbuv_swap_switch = I[k++];
        p.ax_swap_switch = I[k++];
        p.crop = I[k++];
        p.load_start_pos_w = I[k++];
        p.load_start_pos_h = I[k++];
        p.crop_size_w = I[k++];
        p.crop_size_h = I[k++];
        p.padding = I[k++];
        p.left_padding_size = I[k++];
        p.right_padding_size = I[k++];
        p.top_padding_size = I[k++];
        p.bottom_padding_size = I[k++];
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                p.matrix[r][c] = I[k++];
            }
        }
        for (int c = 0; c < 3; c++) {
            p.input_bias[c] = I[k++];
        }
        for (int c = 0; c < 3; c++) {
            p.output_bias[c] = I[k++];
        }
        for (int c = 0; c < 4; c++) {
            p.mean_chn[c] = I[k++];
        }
        for (int c = 0; c < 4; c++) {
            p.min_chn[c] = F[c];
            p.var_reci_chn[c] = F[4 + c];
        }
        p.padding_value = F[8];
        size_t in_bytes = oa_aipp_image_bytes(p.input_format, w, h) * (size_t)batch;
        assert_true(in_bytes > 0);
        int32_t oh, ow;
        oa_aipp_output_hw(&p, w, h, &oh, &ow);
        size_t n_out = (size_t)batch * (size_t)out_c * (size_t)oh * (size_t)ow;
        uint8_t *in = malloc(in_bytes);
        float *want = malloc(n_out * sizeof(float));
        float *got = malloc(n_out * sizeof(float));
        assert_non_null(in);
        assert_non_null(want);
        assert_non_null(got);
        read_exact(f, in, in_bytes);
        read_exact(f, want, n_out * sizeof(float));
        assert_int_equal(oa_aipp_run(&p, w, h, batch, in, out_c, nhwc, got, (ci % 2) ? pool : NULL), OA_OK);
        size_t bad = 0;
        for (size_t i = 0; i < n_out; i++) {
            if (memcmp(&got[i], &want[i], sizeof(float)) != 0) {
                if (bad++ < 3) {
                    print_error("case %d (format %s) element %zu: got %.9g want %.9g\n", ci,
                                oa_aipp_format_name(p.input_format), i, got[i], want[i]);
                }
            }
        }
        assert_int_equal(bad, 0);
        free(in);
        free(want);
        free(got);
    }
    oa_threadpool_destroy(pool);
    fclose(f);
}

static oa_aipp_params base_params(int32_t fmt)
{
    oa_aipp_params p;
    memset(&p, 0, sizeof p);
    p.aipp_mode = OA_AIPP_MODE_STATIC;
    p.input_format = fmt;
    for (int c = 0; c < 4; c++) {
        p.var_reci_chn[c] = 1.0f;
    }
    return p;
}

/* A hand-worked 4x4 NV12 example (docs/aipp.md arithmetic, computed independently): fp16 bits of chosen pixels. */
static void test_worked_example(void **state)
{
    (void)state;
    static const uint8_t nv12[24] = {16, 50, 100, 150, 200, 235, 128, 64, 30, 90, 180, 240, 81, 145, 41, 210,
                                     128, 128, 90, 240, 54, 34, 200, 100};
    oa_aipp_params p = base_params(OA_AIPP_FMT_YUV420SP_U8);
    p.csc_switch = true;
    const int32_t m[3][3] = {{298, 0, 409}, {298, -100, -208}, {298, 516, 0}};
    memcpy(p.matrix, m, sizeof m);
    p.input_bias[0] = 16;
    p.input_bias[1] = p.input_bias[2] = 128;
    p.mean_chn[0] = 104;
    p.mean_chn[1] = 117;
    p.mean_chn[2] = 123;
    for (int c = 0; c < 3; c++) {
        p.var_reci_chn[c] = 0.00392157f;
    }
    float out[3 * 16];
    assert_int_equal(oa_aipp_run(&p, 4, 4, 1, nv12, 3, false, out, NULL), OA_OK);
    static const struct {
        int y, x;
        uint16_t h[3];
    } want[] = {{0, 0, {0xB686, 0xB757, 0xB7B8}},
                {1, 1, {0x38B5, 0x384C, 0x381C}},
                {2, 2, {0x3145, 0x3444, 0x3824}},
                {3, 1, {0xB686, 0x3854, 0xB7A8}},
                {0, 2, {0x38BD, 0, 0}}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        for (int c = 0; c < 3; c++) {
            if (want[i].h[c] == 0) {
                continue;
            }
            assert_int_equal(oa_f32_to_f16(out[c * 16 + want[i].y * 4 + want[i].x]), want[i].h[c]);
        }
    }
}

/* NCHWc output = the NHWC output with each pixel widened to the block, padding channels zero. */
static void test_nchwc(void **state)
{
    (void)state;
    uint8_t img[2 * 12 * 10 * 3 / 2];
    for (size_t i = 0; i < sizeof img; i++) {
        img[i] = (uint8_t)(i * 101 + 7);
    }
    oa_aipp_params p = base_params(OA_AIPP_FMT_YUV420SP_U8);
    p.csc_switch = true;
    const int32_t m[3][3] = {{256, 0, 359}, {256, -88, -183}, {256, 454, 0}};
    memcpy(p.matrix, m, sizeof m);
    p.input_bias[1] = p.input_bias[2] = 128;
    p.mean_chn[1] = 50;
    p.var_reci_chn[2] = 0.5f;
    p.padding = true;
    p.left_padding_size = 2;
    p.bottom_padding_size = 1;
    p.padding_value = -3.0f;
    const int oh = 11, ow = 14, blk = 8;
    float nhwc[2 * 11 * 14 * 3], nchwc[2 * 11 * 14 * 8];
    memset(nchwc, 0x7f, sizeof nchwc);
    assert_int_equal(oa_aipp_run(&p, 12, 10, 2, img, 3, true, nhwc, NULL), OA_OK);
    assert_int_equal(oa_aipp_run_nchwc(&p, 12, 10, 2, img, 3, blk, nchwc, NULL), OA_OK);
    for (int i = 0; i < 2 * oh * ow; i++) {
        for (int k = 0; k < blk; k++) {
            const float want = k < 3 ? nhwc[i * 3 + k] : 0.0f;
            assert_memory_equal(&nchwc[i * blk + k], &want, sizeof want);
        }
    }
    assert_int_equal(oa_aipp_run_nchwc(&p, 12, 10, 2, img, 3, 2, nchwc, NULL), OA_E_PARAM);
}

static void put_i32(uint8_t *p, int32_t v)
{
    const uint32_t u = (uint32_t)v;
    p[0] = (uint8_t)u;
    p[1] = (uint8_t)(u >> 8);
    p[2] = (uint8_t)(u >> 16);
    p[3] = (uint8_t)(u >> 24);
}

static void put_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

/* The dynamic parameter block, written byte by byte from the documented layout, decoded per image. */
static void test_dynamic_block(void **state)
{
    (void)state;
    uint8_t blk[64 + 96 * 2];
    memset(blk, 0, sizeof blk);
    blk[0] = 5; /* CCE code of RGB888_U8 */
    blk[1] = 1; /* csc */
    blk[2] = 1; /* rbuv swap */
    blk[4] = 2; /* batchNum */
    put_i32(blk + 8, 16);
    put_i32(blk + 12, 8);
    const int16_t m[9] = {66, 129, 25, -38, -74, 112, 112, -94, -18};
    for (int i = 0; i < 9; i++) {
        put_u16(blk + 16 + 2 * i, (uint16_t)m[i]);
    }
    blk[40] = 16;
    blk[41] = blk[42] = 128;
    blk[43] = 1;
    blk[44] = 2;
    blk[45] = 3;
    uint8_t *b1 = blk + 64 + 96;
    b1[0] = 1; /* crop */
    b1[2] = 1; /* padding */
    put_i32(b1 + 8, 2);
    put_i32(b1 + 12, 3);
    put_i32(b1 + 16, 10);
    put_i32(b1 + 20, 4);
    put_i32(b1 + 40, 1); /* top */
    put_i32(b1 + 44, 2); /* bottom */
    put_i32(b1 + 48, 3); /* left */
    put_i32(b1 + 52, 4); /* right */
    for (int k = 0; k < 4; k++) {
        put_u16(b1 + 56 + 2 * k, (uint16_t)(10 * (k + 1)));
        put_u16(b1 + 64 + 2 * k, 0x3C00);     /* min 1.0 */
        put_u16(b1 + 72 + 2 * k, 0x1C04);     /* var 0.0039215 */
        put_u16(blk + 64 + 72 + 2 * k, 0x3C00); /* image 0: var 1.0 */
    }
    oa_aipp_params p0, p1;
    assert_int_equal(oa_aipp_params_from_block(blk, sizeof blk, 0, &p0), OA_OK);
    assert_int_equal(oa_aipp_params_from_block(blk, sizeof blk, 1, &p1), OA_OK);
    assert_int_equal(p0.aipp_mode, OA_AIPP_MODE_DYNAMIC);
    assert_int_equal(p1.input_format, OA_AIPP_FMT_RGB888_U8);
    assert_true(p1.csc_switch && p1.rbuv_swap_switch && !p1.ax_swap_switch);
    assert_int_equal(p1.src_image_size_w, 16);
    assert_int_equal(p1.src_image_size_h, 8);
    assert_int_equal(p1.matrix[1][2], 112);
    assert_int_equal(p1.matrix[2][2], -18);
    assert_int_equal(p1.output_bias[0], 16);
    assert_int_equal(p1.input_bias[2], 3);
    assert_false(p0.crop);
    assert_true(p1.crop && p1.padding);
    assert_int_equal(p1.load_start_pos_h, 3);
    assert_int_equal(p1.crop_size_w, 10);
    assert_int_equal(p1.top_padding_size * 1000 + p1.bottom_padding_size * 100 + p1.left_padding_size * 10 +
                         p1.right_padding_size,
                     1234);
    assert_int_equal(p1.mean_chn[3], 40);
    assert_true(p1.min_chn[2] == 1.0f);
    assert_true(p1.var_reci_chn[1] == oa_f16_to_f32(0x1C04));
    assert_true(p0.var_reci_chn[0] == 1.0f);
    int32_t oh, ow;
    oa_aipp_output_hw(&p1, 16, 8, &oh, &ow);
    assert_int_equal(oh, 4 + 3);
    assert_int_equal(ow, 10 + 7);
    /* Run both images: each must equal the static kernel with that image's parameters. */
    /* Image 0 must give the same 7x17 output: crop 10x4 at (0,0), paddings 2,1,7,0. */
    uint8_t *i0 = blk + 64;
    i0[0] = 1;
    i0[2] = 1;
    put_i32(i0 + 16, 10);
    put_i32(i0 + 20, 4);
    put_i32(i0 + 40, 2);
    put_i32(i0 + 44, 1);
    put_i32(i0 + 48, 7);
    put_i32(i0 + 52, 0);
    uint8_t src[2 * 16 * 8 * 3];
    for (size_t i = 0; i < sizeof src; i++) {
        src[i] = (uint8_t)(i * 37 + 11);
    }
    float got[2 * 3 * 7 * 17], want[3 * 7 * 17];
    assert_int_equal(oa_aipp_run_dynamic(blk, sizeof blk, 2, src, sizeof src, 3, 7, 17, false, got, NULL), OA_OK);
    for (int b = 0; b < 2; b++) {
        oa_aipp_params pb;
        assert_int_equal(oa_aipp_params_from_block(blk, sizeof blk, b, &pb), OA_OK);
        assert_int_equal(oa_aipp_run(&pb, 16, 8, 1, src + b * 16 * 8 * 3, 3, false, want, NULL), OA_OK);
        assert_memory_equal(got + b * 3 * 7 * 17, want, sizeof want);
    }
    assert_int_equal(oa_aipp_run_dynamic(blk, sizeof blk, 2, src, sizeof src, 3, 7, 16, false, got, NULL),
                     OA_E_PARAM); /* model size differs */
    assert_int_equal(oa_aipp_run_dynamic(blk, sizeof blk, 2, src, sizeof src - 1, 3, 7, 17, false, got, NULL),
                     OA_E_PARAM); /* input too short */
    assert_int_equal(oa_aipp_run_dynamic(blk, sizeof blk, 3, src, sizeof src, 3, 7, 17, false, got, NULL),
                     OA_E_PARAM); /* batch above batchNum */
    put_i32(i0 + 52, 1); /* image 0 now one column wider than image 1 */
    assert_int_equal(oa_aipp_run_dynamic(blk, sizeof blk, 2, src, sizeof src, 3, 7, 18, false, got, NULL),
                     OA_E_PARAM);
    put_i32(i0 + 8, 8); /* crop 8+10 > 16 */
    put_i32(i0 + 52, 0);
    assert_int_equal(oa_aipp_run_dynamic(blk, sizeof blk, 2, src, sizeof src, 3, 7, 17, false, got, NULL),
                     OA_E_PARAM);
    /* Bad blocks. */
    assert_int_equal(oa_aipp_params_from_block(blk, 64 + 96, 1, &p1), OA_E_PARAM); /* too short */
    assert_int_equal(oa_aipp_params_from_block(blk, 63, 0, &p1), OA_E_PARAM);
    assert_int_equal(oa_aipp_params_from_block(blk, sizeof blk, 2, &p1), OA_E_PARAM); /* >= batchNum */
    assert_int_equal(oa_aipp_params_from_block(NULL, sizeof blk, 0, &p1), OA_E_PARAM);
    b1[1] = 1; /* scf */
    assert_int_equal(oa_aipp_params_from_block(blk, sizeof blk, 1, &p1), OA_E_FEATURE_UNSUPPORTED);
    b1[1] = 2;
    assert_int_equal(oa_aipp_params_from_block(blk, sizeof blk, 1, &p1), OA_E_PARAM);
    b1[1] = 0;
    blk[0] = 14; /* no format has CCE code 14 */
    assert_int_equal(oa_aipp_params_from_block(blk, sizeof blk, 1, &p1), OA_E_PARAM);
    blk[0] = 10;
    assert_int_equal(oa_aipp_params_from_block(blk, sizeof blk, 1, &p1), OA_OK);
    assert_int_equal(p1.input_format, OA_AIPP_FMT_YUV400_U8);
}

static void test_bad_params(void **state)
{
    (void)state;
    uint8_t img[16 * 8 * 4] = {0};
    float out[16 * 8 * 4];
    oa_aipp_params p = base_params(OA_AIPP_FMT_YUV420SP_U8);
    p.crop = true;
    p.load_start_pos_w = 8;
    p.crop_size_w = 10;
    p.crop_size_h = 4;
    assert_int_equal(oa_aipp_run(&p, 16, 8, 1, img, 3, false, out, NULL), OA_E_PARAM); /* 8+10 > 16 */
    p.load_start_pos_w = 1;
    p.crop_size_w = 4;
    assert_int_equal(oa_aipp_run(&p, 16, 8, 1, img, 3, false, out, NULL), OA_E_PARAM); /* odd start */
    p = base_params(OA_AIPP_FMT_YUV420SP_U8);
    assert_int_equal(oa_aipp_run(&p, 15, 8, 1, img, 3, false, out, NULL), OA_E_PARAM); /* odd width */
    assert_int_equal(oa_aipp_run(&p, 16, 8, 1, img, 4, false, out, NULL), OA_E_PARAM); /* 4 channels */
    assert_int_equal(oa_aipp_run(&p, 16, 8, 0, img, 3, false, out, NULL), OA_E_PARAM);
    assert_int_equal(oa_aipp_run(&p, 16, 8, 1, NULL, 3, false, out, NULL), OA_E_PARAM);
    p.resize = true;
    assert_int_equal(oa_aipp_run(&p, 16, 8, 1, img, 3, false, out, NULL), OA_E_FEATURE_UNSUPPORTED);
    p = base_params(OA_AIPP_FMT_YUV400_U8);
    p.csc_switch = true;
    assert_int_equal(oa_aipp_run(&p, 16, 8, 1, img, 1, false, out, NULL), OA_E_PARAM);
    p = base_params(OA_AIPP_FMT_RAW10);
    assert_int_equal(oa_aipp_run(&p, 16, 8, 1, img, 1, false, out, NULL), OA_E_FEATURE_UNSUPPORTED);
    p = base_params(OA_AIPP_FMT_RGB888_U8);
    p.padding = true;
    p.left_padding_size = 33;
    assert_int_equal(oa_aipp_run(&p, 16, 8, 1, img, 3, false, out, NULL), OA_E_PARAM);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_numpy),
        cmocka_unit_test(test_worked_example),
        cmocka_unit_test(test_nchwc),
        cmocka_unit_test(test_dynamic_block),
        cmocka_unit_test(test_bad_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

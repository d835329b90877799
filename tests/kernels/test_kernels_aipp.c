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
        cmocka_unit_test(test_bad_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

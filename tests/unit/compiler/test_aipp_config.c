/*
 * The AIPP config reader (src/compiler/aipp_config.c, docs/aipp.md "Config
 * file"): every field, CANN's defaults, several blocks, and bad configs whose
 * messages must name the field and the line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "compiler/aipp_config.h"

static oa_aipp_config g_cfg;

static oa_status parse(const char *text)
{
    (void)oa_error_take_messages();
    return oa_aipp_config_parse(text, strlen(text), "aipp.cfg", &g_cfg);
}

/* Parsing must fail with st and the message must contain every NULL-terminated needle. */
static void expect_fail(const char *text, oa_status st, ...)
{
    assert_int_equal(parse(text), st);
    const char *msg = oa_error_take_messages();
    assert_non_null(msg);
    va_list ap;
    va_start(ap, st);
    for (const char *n = va_arg(ap, const char *); n != NULL; n = va_arg(ap, const char *)) {
        if (strstr(msg, n) == NULL) {
            print_error("message \"%s\" lacks \"%s\"\n", msg, n);
            fail();
        }
    }
    va_end(ap);
}

static const char k_full[] =
    "# static AIPP, every field\n"
    "aipp_op {\n"
    "  aipp_mode: static\n"
    "  related_input_rank: 0\n"
    "  input_edge_idx: 0\n"
    "  input_format : YUV420SP_U8\n"
    "  src_image_size_w: 224\n"
    "  src_image_size_h: 224\n"
    "  crop: true\n"
    "  load_start_pos_w: 2\n"
    "  load_start_pos_h: 4\n"
    "  crop_size_w: 200\n"
    "  crop_size_h: 210\n"
    "  resize: false\n"
    "  resize_output_w: 0\n"
    "  resize_output_h: 0\n"
    "  padding: true\n"
    "  left_padding_size: 1; right_padding_size: 2\n"
    "  top_padding_size: 3, bottom_padding_size: 4\n"
    "  padding_value: 0.5\n"
    "  cpadding_value: 0\n"
    "  rbuv_swap_switch: false\n"
    "  ax_swap_switch: false\n"
    "  single_line_mode: false\n"
    "  csc_switch: true\n"
    "  matrix_r0c0: 298\n matrix_r0c1: 0\n matrix_r0c2: 409\n"
    "  matrix_r1c0: 298\n matrix_r1c1: -100\n matrix_r1c2: -208\n"
    "  matrix_r2c0: 298\n matrix_r2c1: 516\n matrix_r2c2: 0\n"
    "  output_bias_0: 0\n output_bias_1: 0\n output_bias_2: 0\n"
    "  input_bias_0: 16\n input_bias_1: 128\n input_bias_2: 128\n"
    "  mean_chn_0: 104\n mean_chn_1: 117\n mean_chn_2: 123\n mean_chn_3: 0\n"
    "  min_chn_0: 0.5\n min_chn_1: 0.0\n min_chn_2: 0.0\n min_chn_3: 0.0\n"
    "  var_reci_chn_0: 0.0039215\n var_reci_chn_1: [0.0039215]\n var_reci_chn_2: 0.0039215\n"
    "  var_reci_chn_3: 1.0\n"
    "  raw_rgbir_to_f16_n: 8\n"
    "  support_rotation: false\n"
    "}\n";

static void test_full_static(void **state)
{
    (void)state;
    assert_int_equal(parse(k_full), OA_OK);
    assert_int_equal(g_cfg.n_ops, 1);
    const oa_aipp_params *p = &g_cfg.ops[0];
    assert_int_equal(g_cfg.op_line[0], 2);
    assert_int_equal(p->aipp_mode, OA_AIPP_MODE_STATIC);
    assert_int_equal(p->input_format, OA_AIPP_FMT_YUV420SP_U8);
    assert_int_equal(p->n_input_edge_idx, 1);
    assert_int_equal(p->src_image_size_w, 224);
    assert_true(p->crop);
    assert_int_equal(p->load_start_pos_h, 4);
    assert_int_equal(p->crop_size_h, 210);
    assert_true(p->padding);
    assert_int_equal(p->left_padding_size + p->right_padding_size * 10 + p->top_padding_size * 100 +
                         p->bottom_padding_size * 1000,
                     4321);
    assert_true(p->padding_value == 0.5f);
    assert_true(p->csc_switch);
    assert_int_equal(p->matrix[1][2], -208);
    assert_int_equal(p->matrix[2][1], 516);
    assert_int_equal(p->output_bias[0], 0); /* set explicitly: no default */
    assert_int_equal(p->input_bias[2], 128);
    assert_int_equal(p->mean_chn[2], 123);
    assert_true(p->min_chn[0] == 0.5f);
    assert_true(p->var_reci_chn[1] == 0.0039215f);
    assert_true(p->var_reci_chn[3] == 1.0f);
    assert_int_equal(p->raw_rgbir_to_f16_n, 8);
}

static void test_defaults_and_blocks(void **state)
{
    (void)state;
    /* Two blocks for two inputs; defaults per GE: YUV420SP -> YUV->BGR 601 narrow, RGB -> RGB->YUV. */
    assert_int_equal(parse("aipp_op: {\n aipp_mode: static\n input_format: 1\n csc_switch: true\n"
                           " load_start_pos_w: 5\n}\n"
                           "aipp_op {\n aipp_mode: static\n related_input_rank: 1\n input_format: RGB888_U8\n"
                           " csc_switch: true\n matrix_r0c0: 1\n}\n"
                           "aipp_op { aipp_mode: dynamic related_input_rank: 2 max_src_image_size: 1000 }\n"),
                     OA_OK);
    assert_int_equal(g_cfg.n_ops, 3);
    const oa_aipp_params *a = &g_cfg.ops[0], *b = &g_cfg.ops[1], *c = &g_cfg.ops[2];
    assert_int_equal(a->matrix[0][0], 298);
    assert_int_equal(a->matrix[0][1], 516);
    assert_int_equal(a->matrix[2][2], 409);
    assert_int_equal(a->input_bias[0], 16);
    assert_int_equal(a->output_bias[1], 128);
    assert_int_equal(a->load_start_pos_w, 0); /* crop off zeroes it */
    assert_true(a->var_reci_chn[2] == 1.0f);
    assert_int_equal(b->matrix[0][0], 1);
    assert_int_equal(b->matrix[0][1], 129);
    assert_int_equal(b->matrix[2][2], -18);
    assert_int_equal(g_cfg.op_line[1], 7);
    assert_int_equal(c->aipp_mode, OA_AIPP_MODE_DYNAMIC);
    assert_int_equal(c->max_src_image_size, 1000);
    assert_int_equal(c->related_input_rank, 2);
    /* By name. */
    assert_int_equal(parse("aipp_op { aipp_mode: static input_format: YUV400_U8 related_input_name: \"x\" }\n"
                           "aipp_op { aipp_mode: static input_format: YUV400_U8 related_input_name: 'y' }\n"),
                     OA_OK);
    assert_string_equal(g_cfg.ops[1].related_input_name, "y");
}

static void test_bad_configs(void **state)
{
    (void)state;
    expect_fail("aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n colour: 3\n}\n", OA_E_PARAM, "E10001",
                "colour", "line 4", "unknown field", NULL);
    expect_fail("aipp_op {\n input_format: RGB888_U8\n}\n", OA_E_PARAM, "E10001", "aipp_mode", NULL);
    expect_fail("aipp_op {\n aipp_mode: sometimes\n}\n", OA_E_PARAM, "aipp_mode", "line 2", NULL);
    expect_fail("aipp_op {\n aipp_mode: static\n}\n", OA_E_PARAM, "input_format", "line 1", NULL);
    expect_fail("aipp_op {\n aipp_mode: dynamic\n}\n", OA_E_PARAM, "max_src_image_size", NULL);
    expect_fail("aipp_op {\n aipp_mode: static\n input_format: BGR\n}\n", OA_E_PARAM, "input_format", "line 3",
                NULL);
    expect_fail("aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n var_reci_chn_0: 1\n"
                " var_reci_chn_0: 2\n}\n",
                OA_E_PARAM, "var_reci_chn_0", "repeatedly", NULL);
    expect_fail("aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n matrix_r0c0: [1, 2]\n}\n", OA_E_PARAM,
                "matrix_r0c0", "repeatedly", NULL);
    expect_fail("aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n mean_chn_0: 256\n}\n", OA_E_PARAM,
                "mean_chn_0", "line 4", "[0, 255]", NULL);
    expect_fail("aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n left_padding_size: -1\n}\n",
                OA_E_PARAM, "left_padding_size", "line 4", NULL);
    expect_fail("aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n padding: yes\n}\n", OA_E_PARAM,
                "padding", "true or false", NULL);
    expect_fail("aipp_op {\n aipp_mode: static\n input_format: YUV420SP_U8\n src_image_size_w: 223\n}\n",
                OA_E_PARAM, "src_image_size_w", "even", NULL);
    expect_fail("aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n src_image_size_w: 100\n"
                " src_image_size_h: 100\n crop: true\n load_start_pos_w: 50\n crop_size_w: 60\n crop_size_h: 10\n}\n",
                OA_E_PARAM, "crop_size_w", "line 8", "exceeds", NULL);
    expect_fail("aipp_op {\n aipp_mode: static\n input_format: YUV420SP_U8\n crop: true\n load_start_pos_h: 3\n"
                " crop_size_w: 8\n crop_size_h: 8\n}\n",
                OA_E_PARAM, "load_start_pos_h", "even", NULL);
    expect_fail("aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n resize: true\n}\n",
                OA_E_FEATURE_UNSUPPORTED, "E10055", "aipp_op.resize", "line 4", "interpolation", NULL);
    expect_fail("aipp_op {\n aipp_mode: static\n input_format: YUV400_U8\n csc_switch: true\n}\n", OA_E_PARAM,
                "csc_switch", NULL);
    expect_fail("aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n matrix_r1c1: 40000\n}\n", OA_E_PARAM,
                "matrix_r1c1", NULL);
    expect_fail("aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n mean_chn_0: 99999999999\n}\n",
                OA_E_PARAM, "mean_chn_0", "32-bit", NULL);
    expect_fail("aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n", OA_E_PARAM, "missing '}'", NULL);
    expect_fail("aipp_op {\n aipp_mode static\n}\n", OA_E_PARAM, "aipp_mode", "':'", NULL);
    expect_fail("aipp_op {\n aipp_mode: static\n related_input_name: \"abc\n}\n", OA_E_PARAM, "unterminated",
                "line 3", NULL);
    expect_fail("aipp_op {\n aipp_mode: static\n input_format: RGB888_U8 @\n}\n", OA_E_PARAM, "'@'", "line 3",
                NULL);
    expect_fail("", OA_E_PARAM, "no aipp_op", NULL);
    expect_fail("# only a comment\n", OA_E_PARAM, "no aipp_op", NULL);
    expect_fail("insert_op {\n}\n", OA_E_PARAM, "insert_op", NULL);
    expect_fail("multi_shape_op {\n}\n", OA_E_FEATURE_UNSUPPORTED, "E10055", NULL);
    expect_fail("aipp_op { aipp_mode: static input_format: RGB888_U8 }\n"
                "aipp_op { aipp_mode: static input_format: RGB888_U8 }\n",
                OA_E_PARAM, "E10052", "same position", NULL);
    expect_fail("aipp_op { aipp_mode: static input_format: RGB888_U8 related_input_name: \"a\" }\n"
                "aipp_op { aipp_mode: static input_format: RGB888_U8 related_input_rank: 1 }\n",
                OA_E_PARAM, "E10052", NULL);
    assert_int_equal(oa_aipp_config_load("/nonexistent/aipp.cfg", &g_cfg), OA_E_PARAM);
    assert_non_null(strstr(oa_error_take_messages(), "cannot be read"));
}

static void test_load_file(void **state)
{
    (void)state;
    char path[] = "/tmp/aipp_cfg_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(k_full, f);
    fclose(f);
    assert_int_equal(oa_aipp_config_load(path, &g_cfg), OA_OK);
    assert_int_equal(g_cfg.ops[0].mean_chn[0], 104);
    remove(path);
}

/* The raw input a block makes of a model input: dims, bytes, and the mismatches that must fail. */
static void test_model_input(void **state)
{
    (void)state;
    int64_t raw[4];
    size_t bytes;
    const int64_t nchw[4] = {2, 3, 224, 224};
    assert_int_equal(parse("aipp_op { aipp_mode: static input_format: YUV420SP_U8 src_image_size_w: 256 "
                           "src_image_size_h: 240 crop: true load_start_pos_w: 16 load_start_pos_h: 8 "
                           "crop_size_w: 224 crop_size_h: 224 csc_switch: true }\n"),
                     OA_OK);
    assert_int_equal(oa_aipp_model_input(&g_cfg.ops[0], "x", nchw, true, raw, &bytes), OA_OK);
    assert_int_equal(raw[0], 2);
    assert_int_equal(raw[1], 240);
    assert_int_equal(raw[2], 256);
    assert_int_equal(raw[3], 1);
    assert_int_equal(bytes, 2 * 256 * 240 * 3 / 2);
    const int64_t nhwc[4] = {1, 224, 224, 3};
    assert_int_equal(oa_aipp_model_input(&g_cfg.ops[0], "x", nhwc, false, raw, &bytes), OA_OK);
    assert_int_equal(raw[0], 1);
    /* The crop gives 224x224 but the model wants 200x224. */
    const int64_t small[4] = {1, 3, 200, 224};
    assert_int_equal(oa_aipp_model_input(&g_cfg.ops[0], "x", small, true, raw, &bytes), OA_E_PARAM);
    assert_non_null(strstr(oa_error_take_messages(), "the model input is 200x224"));
    /* Source size 0 takes the model's; padding fills a smaller crop up to the model size. */
    assert_int_equal(parse("aipp_op { aipp_mode: static input_format: RGB888_U8 }\n"
                           "aipp_op { aipp_mode: static related_input_rank: 1 input_format: XRGB8888_U8 "
                           "src_image_size_w: 220 src_image_size_h: 220 padding: true left_padding_size: 2 "
                           "right_padding_size: 2 top_padding_size: 4 }\n"
                           "aipp_op { aipp_mode: dynamic related_input_rank: 2 max_src_image_size: 75264 }\n"),
                     OA_OK);
    assert_int_equal(oa_aipp_model_input(&g_cfg.ops[0], "x", nchw, true, raw, &bytes), OA_OK);
    assert_int_equal(raw[1] * 1000 + raw[2], 224224);
    assert_int_equal(raw[3], 3);
    assert_int_equal(bytes, 2 * 224 * 224 * 3);
    assert_int_equal(oa_aipp_model_input(&g_cfg.ops[1], "y", nchw, true, raw, &bytes), OA_OK);
    assert_int_equal(raw[3], 4);
    assert_int_equal(bytes, 2 * 220 * 220 * 4);
    assert_int_equal(oa_aipp_model_input(&g_cfg.ops[2], "z", nchw, true, raw, &bytes), OA_OK);
    assert_int_equal(raw[1], -1);
    assert_int_equal(bytes, 75264);
    /* Bad: 4 model channels from RGB888, dynamic dims, a zero source with padding. */
    const int64_t c4[4] = {1, 4, 224, 224}, dyn[4] = {-1, 3, 224, 224};
    assert_int_equal(oa_aipp_model_input(&g_cfg.ops[0], "x", c4, true, raw, &bytes), OA_E_PARAM);
    assert_non_null(strstr(oa_error_take_messages(), "input_format"));
    assert_int_equal(oa_aipp_model_input(&g_cfg.ops[0], "x", dyn, true, raw, &bytes), OA_E_PARAM);
    g_cfg.ops[0].padding = true;
    assert_int_equal(oa_aipp_model_input(&g_cfg.ops[0], "x", nchw, true, raw, &bytes), OA_E_PARAM);
    assert_non_null(strstr(oa_error_take_messages(), "src_image_size"));
    assert_int_equal(oa_aipp_model_input(NULL, "x", nchw, true, raw, &bytes), OA_E_PARAM);
}

/* Random byte mutations of a full config: every result is OK or a clean error, never a crash (ASan build). */
static void test_mutations(void **state)
{
    (void)state;
    char buf[sizeof k_full];
    uint32_t seed = 12345;
    int ok = 0;
    for (int it = 0; it < 3000; it++) {
        memcpy(buf, k_full, sizeof k_full);
        const int n = 1 + it % 4;
        for (int i = 0; i < n; i++) {
            seed = seed * 1664525u + 1013904223u;
            const size_t at = (seed >> 8) % (sizeof k_full - 1);
            seed = seed * 1664525u + 1013904223u;
            static const char pick[] = "{}:;,[]\"'#-. 0129aez_\n\t@";
            buf[at] = (seed >> 24) & 1 ? pick[(seed >> 9) % (sizeof pick - 1)] : (char)(seed >> 16);
        }
        const size_t len = (size_t)(seed % (sizeof k_full - 1)) + 1; /* also truncated texts */
        const oa_status st = oa_aipp_config_parse(buf, it % 2 ? len : sizeof k_full - 1, "m.cfg", &g_cfg);
        assert_true(st == OA_OK || st == OA_E_PARAM || st == OA_E_FEATURE_UNSUPPORTED);
        if (st != OA_OK) {
            assert_non_null(oa_error_take_messages());
        } else {
            ok++;
        }
    }
    assert_true(ok > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_static),
        cmocka_unit_test(test_defaults_and_blocks),
        cmocka_unit_test(test_bad_configs),
        cmocka_unit_test(test_load_file),
        cmocka_unit_test(test_model_input),
        cmocka_unit_test(test_mutations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

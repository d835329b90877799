/*
 * atc's command line: flag syntax, CANN's messages for bad, conflicting or
 * unsupported flags, unknown SoC, missing files, unsupported ONNX ops, and
 * (when the build has the .om layer) a small conversion and its JSON dump.
 * Runs the atc executable given as argv[1]; models are built in a temp
 * directory with the ONNX test builder.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "../unit/onnx/onnx_builder.h"

static const char *g_atc;
static char g_dir[256];
static char g_conv[512], g_bad_ops[512];

/* Runs `atc <args>` (a shell fragment); returns the exit status and the
 * combined stdout+stderr in a malloc'd string. */
static int run(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int run(char **out, const char *fmt, ...)
{
    char args[4096], cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof(args), fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof(cmd), "cd %s && %s %s 2>&1", g_dir, g_atc, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
        len += n;
        if (len + 1 >= cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    buf[len] = '\0';
    int status = pclose(p);
    *out = buf;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#define EXPECT_RUN(want_status, want_text, ...)                                                         \
    do {                                                                                                \
        char *o_;                                                                                       \
        int s_ = run(&o_, __VA_ARGS__);                                                                 \
        if (s_ != (want_status) || strstr(o_, (want_text)) == NULL) {                                   \
            print_error("atc %s\n-> exit %d (want %d), output:\n%s\nwanted text: [%s]\n", #__VA_ARGS__, s_, \
                        (want_status), o_, (want_text));                                                \
            free(o_);                                                                                   \
            fail();                                                                                     \
        }                                                                                               \
        free(o_);                                                                                       \
    } while (0)

#define FAILED "ATC run failed, Please check the detail log, Try 'atc --help' for more information"

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

/* x[1,2,4,4] -> Conv(w[3,2,1,1]) -> Relu -> y */
static void build_conv(const char *path)
{
    tb_model *m = tb_new(13);
    tb_graph *g = tb_root(m);
    const int64_t xd[4] = {1, 2, 4, 4}, wd[4] = {3, 2, 1, 1};
    tb_input(g, "x", 1, 4, xd);
    float w[6] = {1, 2, 3, 4, 5, 6};
    tb_initializer(g, tb_tensor_f32(m, "w", 4, wd, w));
    Onnx__NodeProto *c = tb_node(g, "Conv", "conv", "x,w", "c");
    const int64_t ks[2] = {1, 1};
    tb_attr_ints(m, c, "kernel_shape", ks, 2);
    tb_node(g, "Relu", "relu", "c", "y");
    tb_output(g, "y");
    size_t len;
    uint8_t *buf = tb_pack(m, &len);
    write_file(path, buf, len);
    free(buf);
    tb_free(m);
}

/* Three op types the importer does not map. */
static void build_bad_ops(const char *path)
{
    tb_model *m = tb_new(13);
    tb_graph *g = tb_root(m);
    const int64_t xd[2] = {2, 3};
    tb_input(g, "x", 1, 2, xd);
    tb_node(g, "StringNormalizer", "nz", "x", "a");
    tb_node(g, "Einsum", "es", "x", "b");
    tb_node(g, "Einsum", "es2", "x", "b2");
    tb_node(g, "RoiAlign", "hm", "x", "c");
    tb_output(g, "a");
    tb_output(g, "b");
    tb_output(g, "b2");
    tb_output(g, "c");
    size_t len;
    uint8_t *buf = tb_pack(m, &len);
    write_file(path, buf, len);
    free(buf);
    tb_free(m);
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof(g_dir), "/tmp/oa_atc_cli_XXXXXX");
    if (mkdtemp(g_dir) == NULL) {
        return -1;
    }
    snprintf(g_conv, sizeof(g_conv), "%s/conv.onnx", g_dir);
    snprintf(g_bad_ops, sizeof(g_bad_ops), "%s/bad_ops.onnx", g_dir);
    build_conv(g_conv);
    build_bad_ops(g_bad_ops);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void help_and_start_line(void **state)
{
    (void)state;
    EXPECT_RUN(0, "ATC start working now, please wait for a moment.", "--help");
    EXPECT_RUN(0, "--dynamic_batch_size", "-h");
    EXPECT_RUN(0, "Not supported yet", "--help=true");
}

/* gflags-style syntax errors print CANN's ERROR lines. */
static void syntax_errors(void **state)
{
    (void)state;
    EXPECT_RUN(255, "ERROR: unknown command line flag 'bogus'", "--bogus=1");
    EXPECT_RUN(255, FAILED, "--bogus=1");
    EXPECT_RUN(255, "ERROR: unknown command line flag 'modle'", "-modle=x.onnx");
    EXPECT_RUN(255, "ERROR: flag '--model' is missing its argument; flag description: The model file.", "--model");
    EXPECT_RUN(255, "ERROR: Non-option parameter: stray", "--mode=0 stray");
    EXPECT_RUN(255, "E10003: Value x for parameter --mode is invalid. Reason: The value type must be [int32].",
               "--mode=x");
    EXPECT_RUN(255,
               "E10001: Value 2 for parameter --mode is invalid. Reason: The value is not within the range of "
               "values. The valid range is [0] [1] [3] [5] [6] [7] [30] .",
               "--mode=2");
    EXPECT_RUN(255, "E10010: Value verbose for parameter --log is invalid.", "--log=verbose");
    EXPECT_RUN(255, "E10006: Value 3 for parameter --disable_reuse_memory is invalid. The value must be either 1 or 0.",
               "--disable_reuse_memory=3");
    EXPECT_RUN(255, "E10007: --framework is required.", "--framework=2");
    EXPECT_RUN(255, "E10003: Value maybe for parameter --help is invalid. Reason: The value type must be [bool].",
               "--help=maybe");
}

/* Required flags, files and SoC names, in CANN's order. */
static void required_and_files(void **state)
{
    (void)state;
    EXPECT_RUN(255, "E10007: --framework is required. The value must be 0(Caffe) or 1(MindSpore) or 3(TensorFlow) "
                    "or 5(Onnx).",
               "--model=%s --output=o --soc_version=Ascend310", g_conv);
    EXPECT_RUN(255, "E10055: The operation is not supported. Reason: --framework=3 is not supported yet",
               "--model=%s --framework=3 --output=o --soc_version=Ascend310", g_conv);
    EXPECT_RUN(255, "E10054: The required parameter --soc_version for ATC is empty.",
               "--model=%s --framework=5 --output=o", g_conv);
    EXPECT_RUN(255, "E10054: The required parameter --output for ATC is empty.",
               "--model=%s --framework=5 --soc_version=Ascend310", g_conv);
    EXPECT_RUN(255, "E10054: The required parameter --model for ATC is empty.",
               "--framework=5 --output=o --soc_version=Ascend310");
    EXPECT_RUN(255, "E10001: Value missing.onnx for parameter --model is invalid. Reason: The file does not exist.",
               "--model=missing.onnx --framework=5 --output=o --soc_version=Ascend310");
    EXPECT_RUN(255,
               "E10001: Value Ascend999 for parameter --soc_version is invalid. Reason: It is not a supported SoC "
               "version",
               "--model=%s --framework=5 --output=o --soc_version=Ascend999", g_conv);
    /* CANN creates the directories of --output=dir/name */
    EXPECT_RUN(0, "ATC run success", "--model=%s --framework=5 --output=new/sub/dir/o --soc_version=Ascend310",
               g_conv);
    char made[600];
    snprintf(made, sizeof(made), "%s/new/sub/dir/o.om", g_dir);
    struct stat sb;
    assert_int_equal(stat(made, &sb), 0);
    snprintf(made, sizeof(made), "%s/blocker", g_dir);
    write_file(made, "x", 1);
    EXPECT_RUN(255, "directory blocker/d cannot be created",
               "--model=%s --framework=5 --output=blocker/d/o --soc_version=Ascend310", g_conv);
    /* an --input_shape name that is not a model input: CANN's E10016 */
    EXPECT_RUN(255, "E10016: Op name zz specified in --input_shape is not found in the model.",
               "--model=%s --framework=5 --output=o --soc_version=Ascend310 --input_shape=zz:1,2,4,4", g_conv);
    EXPECT_RUN(255, "E10022: Path o/ for parameter --output does not include the file name.",
               "--model=%s --framework=5 --output=o/ --soc_version=Ascend310", g_conv);
}

/* Conflicting dynamic options and gears without --input_shape. */
static void conflicts(void **state)
{
    (void)state;
    EXPECT_RUN(255,
               "E10009: --dynamic_batch_size, --dynamic_image_size, --input_shape_range, and --dynamic_dims are "
               "mutually exclusive.",
               "--model=%s --framework=5 --output=o --soc_version=Ascend310 --input_shape=x:-1,2,4,4 "
               "--dynamic_batch_size=1,2 '--dynamic_dims=1;2'",
               g_conv);
    EXPECT_RUN(255, "E10009", "--model=%s --framework=5 --output=o --soc_version=Ascend310 --dynamic_batch_size=1,2 "
                              "--input_shape_range=x:[1~2,2,4,4]",
               g_conv);
    EXPECT_RUN(255, "E10004: Value for --input_shape is empty.",
               "--model=%s --framework=5 --output=o --soc_version=Ascend310 --dynamic_batch_size=1,2", g_conv);
    EXPECT_RUN(255, "E10031", "--model=%s --framework=5 --output=o --soc_version=Ascend310 --input_shape=x:1,2,4,4 "
                              "--dynamic_batch_size=1,2",
               g_conv);
    EXPECT_RUN(255, "E10035", "--model=%s --framework=5 --output=o --soc_version=Ascend310 --input_shape=x:-1,2,4,4 "
                              "--dynamic_batch_size=4",
               g_conv);
}

/* --insert_op_conf: config errors name field and line and nothing is written; a valid config gives the model. */
static void aipp_config(void **state)
{
    (void)state;
    char cfg[600], out[600], om[620];
    snprintf(cfg, sizeof cfg, "%s/aipp.cfg", g_dir);
    snprintf(out, sizeof out, "%s/aipp_out", g_dir);
    snprintf(om, sizeof om, "%s.om", out);
    static const char bad[] = "aipp_op {\n  aipp_mode: static\n  input_format: RGB888_U8\n  mean_chn_0: 300\n}\n";
    write_file(cfg, bad, strlen(bad));
    EXPECT_RUN(255, "E10001: Value 300 for parameter aipp_op.mean_chn_0 is invalid. Reason: must be in [0, 255] (line 4",
               "--model=%s --framework=5 --output=%s --soc_version=Ascend310 --insert_op_conf=%s", g_conv, out, cfg);
    assert_int_not_equal(access(om, F_OK), 0);
    static const char unknown[] = "aipp_op {\n  aipp_mode: static\n  crop_sise_w: 3\n}\n";
    write_file(cfg, unknown, strlen(unknown));
    EXPECT_RUN(255, "crop_sise_w is invalid. Reason: unknown field of AippOpParams (line 3",
               "--model=%s --framework=5 --output=%s --soc_version=Ascend310 --insert_op_conf=%s", g_conv, out, cfg);
    static const char good[] = "aipp_op {\n  aipp_mode: static\n  input_format: RGB888_U8\n  src_image_size_w: 4\n"
                               "  src_image_size_h: 4\n}\n";
    write_file(cfg, good, strlen(good));
    EXPECT_RUN(0, "ATC run success",
               "--model=%s --framework=5 --output=%s --soc_version=Ascend310 --insert_op_conf=%s", g_conv, out, cfg);
    assert_int_equal(access(om, F_OK), 0); /* the model carries the Aipp node (compat_tests/models/mdl_aipp.c) */
    /* --mode=1 shows it: GE type Aipp, its NamedAttrs `aipp`, the raw u8 input */
    char json[640];
    snprintf(json, sizeof json, "%s/aipp_out.json", g_dir);
    EXPECT_RUN(0, "ATC run success", "--mode=1 --om=%s --json=%s", om, json);
    FILE *jf = fopen(json, "r");
    assert_non_null(jf);
    static char jtext[1 << 17];
    memset(jtext, 0, sizeof jtext);
    assert_true(fread(jtext, 1, sizeof(jtext) - 1, jf) > 100);
    fclose(jf);
    assert_non_null(strstr(jtext, "\"type\": \"Aipp\""));
    assert_non_null(strstr(jtext, "\"func\""));
    assert_non_null(strstr(jtext, "\"_data_related_aipp_mode\""));
    assert_non_null(strstr(jtext, "\"static_aipp\""));
    (void)unlink(om);
    EXPECT_RUN(255, "E10052: With --dynamic_image_size, aipp_op at line 1 must leave crop and padding false and "
                    "src_image_size_w/h 0 (input x)",
               "--model=%s --framework=5 --output=%s --soc_version=Ascend310 --insert_op_conf=%s "
               "--input_shape=x:1,2,-1,-1 --dynamic_image_size=\"4,4;8,8\"",
               g_conv, out, cfg);
    EXPECT_RUN(255, "E10055: The operation is not supported. Reason: --insert_op_conf together with "
                    "--dynamic_dims is not supported yet",
               "--model=%s --framework=5 --output=%s --soc_version=Ascend310 --insert_op_conf=%s "
               "--input_shape=x:1,2,-1,4 --dynamic_dims=\"4;8\"",
               g_conv, out, cfg);
    static const char dyn[] = "aipp_op {\n  aipp_mode: dynamic\n  max_src_image_size: 100\n}\n";
    write_file(cfg, dyn, strlen(dyn));
    EXPECT_RUN(255, "Reason: AIPP needs a static input or --dynamic_batch_size (aipp_op at line 1)",
               "--model=%s --framework=5 --output=%s --soc_version=Ascend310 --insert_op_conf=%s "
               "--input_shape=x:-1,2,4,4",
               g_conv, out, cfg);
    assert_int_not_equal(access(om, F_OK), 0);
    write_file(cfg, good, strlen(good));
    static const char rank[] = "aipp_op {\n  aipp_mode: static\n  related_input_rank: 3\n  input_format: RGB888_U8\n}\n";
    write_file(cfg, rank, strlen(rank));
    EXPECT_RUN(255, "E10052: Cannot find the data node by aipp parameter related_input_rank 3 (aipp_op at line 1)",
               "--model=%s --framework=5 --output=%s --soc_version=Ascend310 --insert_op_conf=%s", g_conv, out, cfg);
    static const char size[] = "aipp_op {\n  aipp_mode: static\n  input_format: RGB888_U8\n  src_image_size_w: 8\n"
                               "  src_image_size_h: 8\n}\n";
    write_file(cfg, size, strlen(size));
    EXPECT_RUN(255, "Reason: the model input is 4x4",
               "--model=%s --framework=5 --output=%s --soc_version=Ascend310 --insert_op_conf=%s", g_conv, out, cfg);
    assert_int_not_equal(access(om, F_OK), 0);
    EXPECT_RUN(255, "--insert_op_conf with --mode=3 is not supported yet",
               "--mode=3 --model=%s --framework=5 --insert_op_conf=%s", g_conv, cfg);
}

/* Flags CANN has and this atc does not implement fail clearly; no-effect flags warn. */
static void unsupported_and_ignored(void **state)
{
    (void)state;
    EXPECT_RUN(255, "E10001: Value aipp.cfg for parameter --insert_op_conf is invalid. Reason: The file does not exist.",
               "--model=%s --framework=5 --output=o --soc_version=Ascend310 --insert_op_conf=aipp.cfg", g_conv);
    EXPECT_RUN(255, "E10001: Value 3 for parameter --external_weight is invalid.",
               "--model=%s --framework=5 --output=o --soc_version=Ascend310 --external_weight=3", g_conv);
    EXPECT_RUN(255, "--mode=5 is not supported yet", "--mode=5 --om=x.om");
    EXPECT_RUN(255, "E10001: Value x.om for parameter --om is invalid. Reason: The file does not exist.",
               "--mode=6 --om=x.om");
    EXPECT_RUN(255, "E10004: Value for --om is empty.", "--mode=6");
    EXPECT_RUN(255, "E10004: Value for --om is empty.", "--mode=1 --json=x.json");
    EXPECT_RUN(255, "E10004: Value for --json is empty.", "--mode=1 --om=x.om");
    EXPECT_RUN(255, "E10001: Value 3 for parameter --framework is invalid.",
               "--mode=1 --framework=3 --om=%s --json=x.json", g_conv);
    EXPECT_RUN(255, "E10007", "--mode=3 --model=%s", g_conv);
    EXPECT_RUN(255, "[WARNING] --op_select_implmode=high_performance has no effect on a CPU build and is ignored.",
               "--model=missing.onnx --framework=5 --output=o --soc_version=Ascend310 "
               "--op_select_implmode=high_performance");
}

/* --precision_mode / --precision_mode_v2 (docs/precision.md): bad values and the pair refused with
 * E10001 before converting; a lower-precision mode is recorded in the .om (model attr and a
 * _oa_compute_dtype on the conv), which --mode=1 shows; the fp32 modes record no op attr. */
static void precision_mode(void **state)
{
    (void)state;
    EXPECT_RUN(255, "E10001: Value bf8 for parameter --precision_mode is invalid. Reason: The value is not within the "
               "range of values.",
               "--model=%s --framework=5 --output=p --soc_version=Ascend310P3 --precision_mode=bf8", g_conv);
    EXPECT_RUN(255, "E10001: Value mixed_fp8 for parameter --precision_mode_v2 is invalid.",
               "--model=%s --framework=5 --output=p --soc_version=Ascend310P3 --precision_mode_v2=mixed_fp8", g_conv);
    EXPECT_RUN(255, "--precision_mode and --precision_mode_v2 cannot be used together",
               "--model=%s --framework=5 --output=p --soc_version=Ascend310P3 --precision_mode=force_fp16 "
               "--precision_mode_v2=fp16", g_conv);
    char path[600];
    struct stat sb;
    snprintf(path, sizeof(path), "%s/p.om", g_dir);
    assert_int_not_equal(stat(path, &sb), 0); /* refused before converting */
    static const struct {
        const char *flag, *attr, *dtype;
    } cases[] = {
        {"--precision_mode=allow_mix_precision_bf16", "\"_oa_precision_mode\"", "\"DT_BF16\""},
        {"--precision_mode=force_lowerprecision", "\"_oa_precision_mode\"", "\"DT_FLOAT16\""},
        {"--precision_mode_v2=mixed_bfloat16", "\"_oa_precision_mode_v2\"", "\"DT_BF16\""},
        {"--precision_mode=must_keep_origin_dtype", "\"_oa_precision_mode\"", NULL},
        {"--precision_mode_v2=origin", "\"_oa_precision_mode_v2\"", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        EXPECT_RUN(0, "ATC run success", "--model=%s --framework=5 --output=p%zu --soc_version=Ascend310P3 %s", g_conv,
                   i, cases[i].flag);
        EXPECT_RUN(0, "ATC run success", "--mode=1 --om=p%zu.om --json=p%zu.json", i, i);
        snprintf(path, sizeof(path), "%s/p%zu.json", g_dir, i);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        static char text[1 << 17];
        memset(text, 0, sizeof text);
        assert_true(fread(text, 1, sizeof(text) - 1, f) > 100);
        fclose(f);
        const char *v = strchr(cases[i].flag, '=') + 1;
        char *a = strstr(text, cases[i].attr);
        if (a == NULL || strstr(a, v) == NULL) {
            print_error("%s: model attr %s = %s not in the JSON\n", cases[i].flag, cases[i].attr, v);
            fail();
        }
        char *d = strstr(text, "\"_oa_compute_dtype\"");
        if (cases[i].dtype == NULL) {
            assert_null(d);
        } else if (d == NULL || strstr(d, cases[i].dtype) == NULL) {
            print_error("%s: _oa_compute_dtype %s not in the JSON\n", cases[i].flag, cases[i].dtype);
            fail();
        }
    }
}

/* --singleop: a missing JSON file is E10001; a good one writes CANN's file names. */
static void singleop(void **state)
{
    (void)state;
    EXPECT_RUN(255, "E10001: Value ops.json for parameter --singleop is invalid.",
               "--singleop=ops.json --output=o --soc_version=Ascend310");
    static const char ops[] =
        "[{\"op\":\"Add\",\"input_desc\":[{\"format\":\"ND\",\"shape\":[2,3],\"type\":\"float\"},"
        "{\"format\":\"ND\",\"shape\":[2,3],\"type\":\"float\"}],"
        "\"output_desc\":[{\"format\":\"ND\",\"shape\":[2,3],\"type\":\"float\"}]}]";
    char path[512];
    snprintf(path, sizeof(path), "%s/add_ops.json", g_dir);
    write_file(path, ops, sizeof(ops) - 1);
    EXPECT_RUN(0, "ATC run success", "--singleop=add_ops.json --output=singleop_out --soc_version=Ascend310");
    snprintf(path, sizeof(path), "%s/singleop_out/0_Add_0_2_2_3_0_2_2_3_0_2_2_3.om", g_dir);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_true(st.st_size > 0);
}

/* One error names every unsupported op type and its nodes. */
static void unsupported_onnx_ops(void **state)
{
    (void)state;
    char *o;
    int s = run(&o, "--model=%s --framework=5 --output=o --soc_version=Ascend310", g_bad_ops);
    assert_int_equal(s, 255);
    if (strstr(o, "3 unsupported ONNX op types") == NULL || strstr(o, "Einsum") == NULL ||
        strstr(o, "StringNormalizer") == NULL || strstr(o, "RoiAlign") == NULL || strstr(o, FAILED) == NULL ||
        strstr(o, "E16002") == NULL || strstr(o, "docs/onnx_ops.md") == NULL) {
        print_error("%s\n", o);
        fail();
    }
    free(o);
    /* --mode=3: the same report without converting, and check_result.json */
    char path[600];
    snprintf(path, sizeof(path), "%s/check_result.json", g_dir);
    unlink(path);
    EXPECT_RUN(255, "E16002: the model uses 3 unsupported ONNX op types", "--mode=3 --framework=5 --model=%s",
               g_bad_ops);
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    FILE *f = fopen(path, "r");
    char text[4096] = {0};
    assert_non_null(f);
    assert_true(fread(text, 1, sizeof(text) - 1, f) > 0);
    fclose(f);
    assert_non_null(strstr(text, "\"result\": \"failed\""));
    assert_non_null(strstr(text, "RoiAlign"));
    EXPECT_RUN(0, "pre-check: every op of", "--mode=3 --framework=5 --model=%s", g_conv);
    f = fopen(path, "r");
    memset(text, 0, sizeof(text));
    assert_non_null(f);
    assert_true(fread(text, 1, sizeof(text) - 1, f) > 0);
    fclose(f);
    assert_non_null(strstr(text, "\"result\": \"success\""));
    snprintf(path, sizeof(path), "%s/o.om", g_dir);
    assert_int_not_equal(stat(path, &sb), 0); /* a check converts nothing */
}

/* CANN's spellings: -flag=value, --flag value, dashes in names. */
static void spellings_and_conversion(void **state)
{
    (void)state;
    EXPECT_RUN(0, "ATC run success, welcome to the next use.",
               "-model=%s -framework=5 -output=conv -soc_version=Ascend310P3 --input-shape x:1,2,4,4", g_conv);
    char path[600];
    snprintf(path, sizeof(path), "%s/conv.om", g_dir);
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0600);
    EXPECT_RUN(0, "ATC run success", "--mode=1 --om=conv.om --json=conv.json");
    snprintf(path, sizeof(path), "%s/conv.json", g_dir);
    assert_int_equal(stat(path, &sb), 0);
    assert_true(sb.st_size > 100);
    /* --mode=6: CANN's model information block, from the model attrs and om_info_list */
    EXPECT_RUN(0, "system   info: atc_version[", "--mode=6 --om=conv.om");
    EXPECT_RUN(0, "framework_type[Onnx].", "--mode=6 --om=conv.om");
    EXPECT_RUN(0, "cust_aicpu_kernel_store_size[0 B], task_info_size[", "--mode=6 --om=conv.om");
    EXPECT_RUN(0, "============ Display Model Info end   ============", "--mode=6 --om=conv.om");
    EXPECT_RUN(0, "Original Atc command line: ", "--model=%s --framework=5 --output=conv_info --soc_version=Ascend310P3 "
               "--display_model_info=1", g_conv);
    /* --mode=1 with --framework=5: the ONNX model's parsed graph as JSON */
    EXPECT_RUN(0, "ATC run success", "--mode=1 --framework=5 --om=%s --json=conv_onnx.json", g_conv);
    snprintf(path, sizeof(path), "%s/conv_onnx.json", g_dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char text[1 << 16] = {0};
    assert_true(fread(text, 1, sizeof(text) - 1, f) > 100);
    fclose(f);
    assert_non_null(strstr(text, "\"framework_type\""));
    assert_non_null(strstr(text, "\"type\": \"Conv2D\""));
    assert_null(strstr(text, "\"memory_size\": 4")); /* the parsed graph, before any plan */
    /* CANN appends ".om" whatever --output ends with. */
    EXPECT_RUN(0, "ATC run success", "--model=%s --framework=5 --output=again.om --soc_version=Ascend910B1", g_conv);
    snprintf(path, sizeof(path), "%s/again.om.om", g_dir);
    assert_int_equal(stat(path, &sb), 0);
}

/* Number of entries of dir whose name starts with prefix (-1: no dir). */
static int count_prefix(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        return -1;
    }
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    }
    closedir(d);
    return n;
}

/* --external_weight=1|2: weight files in <output dir>/weight/, bare locations,
 * the summary next to the .om, no temp dir left; --mode=1 shows the files. */
static void external_weights(void **state)
{
    (void)state;
    char path[512];
    for (int mode = 0; mode <= 2; mode++) {
        snprintf(path, sizeof(path), "%s/ew%d", g_dir, mode);
        assert_int_equal(mkdir(path, 0750), 0);
        EXPECT_RUN(0, "ATC run success",
                   "--model=%s --framework=5 --output=ew%d/net --soc_version=Ascend310 --external_weight=%d", g_conv,
                   mode, mode);
        snprintf(path, sizeof(path), "%s/ew%d/weight", g_dir, mode);
        if (mode == 0) {
            assert_int_equal(count_prefix(path, ""), -1);
        } else if (mode == 1) {
            assert_int_equal(count_prefix(path, "weight_"), 1); /* the conv filter */
        } else {
            assert_int_equal(count_prefix(path, "net_weight_combined"), 1);
        }
        snprintf(path, sizeof(path), "%s/ew%d/net_external_weights.json", g_dir, mode);
        struct stat sb;
        assert_int_equal(stat(path, &sb) == 0, mode != 0);
        assert_int_equal(count_prefix(g_dir, "tmp_weight_"), 0);
    }
    EXPECT_RUN(0, "weight/net_weight_combined", "--mode=1 --om=ew2/net.om --json=ew2/net.json");
    EXPECT_RUN(0, "--external_weight=1", "--mode=1 --om=ew1/net.om --json=ew1/net.json");
    /* again into the same directory: the same files */
    EXPECT_RUN(0, "ATC run success",
               "--model=%s --framework=5 --output=ew1/net --soc_version=Ascend310 --external_weight=1", g_conv);
    snprintf(path, sizeof(path), "%s/ew1/weight", g_dir);
    assert_int_equal(count_prefix(path, "weight_"), 1);
    /* a weight directory that cannot be created fails cleanly (ASCEND_WORK_PATH is a file) */
    setenv("ASCEND_WORK_PATH", g_conv, 1);
    EXPECT_RUN(255, FAILED, "--model=%s --framework=5 --output=ew1/bad --soc_version=Ascend310 --external_weight=1",
               g_conv);
    unsetenv("ASCEND_WORK_PATH");
    snprintf(path, sizeof(path), "%s/ew1/bad.om", g_dir);
    struct stat sb;
    assert_int_not_equal(stat(path, &sb), 0);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s path/to/atc\n", argv[0]);
        return 2;
    }
    g_atc = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(help_and_start_line),
        cmocka_unit_test(syntax_errors),
        cmocka_unit_test(required_and_files),
        cmocka_unit_test(conflicts),
        cmocka_unit_test(unsupported_and_ignored),
        cmocka_unit_test(aipp_config),
        cmocka_unit_test(singleop),
        cmocka_unit_test(unsupported_onnx_ops),
        cmocka_unit_test(spellings_and_conversion),
        cmocka_unit_test(external_weights),
        cmocka_unit_test(precision_mode),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

/*
 * atc: the model converter, a thin main over the compiler (src/compiler)
 * and the .om library (src/om) with CANN's command line:
 *
 *   atc --model=m.onnx --framework=5 --output=m --soc_version=Ascend310P3
 *       [--input_shape=...] [--dynamic_batch_size=...|--dynamic_image_size=...|
 *        --dynamic_dims=...|--input_shape_range=...] [--input_format=...]
 *       [--input_fp16_nodes=...] [--output_type=...] [--out_nodes=...]
 *   atc --mode=1 --om=m.om --json=m.json
 *   atc --singleop=ops.json --output=dir --soc_version=Ascend310P3
 *
 * Screen output follows CANN's atc: a start line, "..." after the work,
 * then "ATC run success, welcome to the next use." or "ATC run failed, ..."
 * followed by the error messages (E-codes as CANN prints them). Exit status
 * 0 on success, 255 on failure (CANN returns FAILED).
 */
#define OA_LOG_MODULE "GE"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acl_base/platform.h"
#include "acl_op/op_singleop.h"
#include "atc_flags.h"
#include "atc_om.h"
#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "compiler/compiler.h"
#include "compiler/aipp_config.h"
#include "compiler/passes.h"
#include "file_constant/file_constant.h"

#ifndef OA_ATC_VERSION
#define OA_ATC_VERSION "0"
#endif

enum { ATC_EXIT_FAILED = 255 };

/* ---- screen output ---------------------------------------------------- */

/* Prints the recorded error messages, one per line, without the "func: "
 * prefix the log adds. */
static void print_errors(void)
{
    const char *m = oa_error_take_messages();
    if (m == NULL) {
        return;
    }
    const char *p = m;
    while (*p) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *colon = memchr(p, ':', len);
        const char *text = p;
        if (colon != NULL && colon[1] == ' ') {
            bool ident = colon > p;
            for (const char *c = p; c < colon; c++) {
                ident = ident && (c[0] == '_' || (c[0] >= 'a' && c[0] <= 'z') || (c[0] >= 'A' && c[0] <= 'Z') ||
                                  (c[0] >= '0' && c[0] <= '9'));
            }
            if (ident && !(colon - p == 6 && p[0] == 'E' && p[1] >= '0' && p[1] <= '9')) {
                text = colon + 2;
            }
        }
        printf("%.*s\n", (int)(len - (size_t)(text - p)), text);
        p += len;
        if (*p == '\n') {
            p++;
        }
    }
}

static int finish(bool ok)
{
    printf("...\n");
    if (ok) {
        printf("ATC run success, welcome to the next use.\n");
        fflush(stdout);
        return 0;
    }
    printf("ATC run failed, Please check the detail log, Try 'atc --help' for more information\n");
    print_errors();
    fflush(stdout);
    return ATC_EXIT_FAILED;
}

/* Progress lines for conversions that take longer than a second. */
typedef struct progress_state {
    uint64_t start;
    bool shown;
} progress_state;

static void on_progress(void *ctx, const char *phase)
{
    progress_state *ps = ctx;
    double s = (double)(oa_now_ns() - ps->start) / 1e9;
    if (s >= 1.0) {
        printf("[%.1fs] %s...\n", s, phase);
        fflush(stdout);
        ps->shown = true;
    }
}

/* ---- checks ------------------------------------------------------------ */

static oa_status required(const char *flag)
{
    if (atc_str(flag)[0] != '\0') {
        return OA_OK;
    }
    return OA_FAIL(OA_E_PARAM,
                   "E10054: The required parameter --%s for ATC is empty. Another possible reason is that the values "
                   "of some parameters are not enclosed by quotation marks (\"\").",
                   flag);
}

static oa_status check_input_file(const char *flag)
{
    const char *path = atc_str(flag);
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || access(path, R_OK) != 0) {
        return OA_FAIL(OA_E_PARAM, "E10001: Value %s for parameter --%s is invalid. Reason: %s.", path, flag,
                       stat(path, &sb) != 0 ? "The file does not exist" : "The path is not a readable file");
    }
    return OA_OK;
}

/* Creates the directories of path's parent (mkdir -p), as CANN's atc does for --output=dir/name. */
static oa_status make_parent_dirs(const char *flag, const char *path)
{
    char dir[4096];
    if (!oa_strlcpy(dir, path, sizeof(dir))) {
        return OA_FAIL(OA_E_PARAM, "E10021: Path for parameter --%s is too long. Keep the length within %zu.", flag,
                       sizeof(dir) - 1);
    }
    char *slash = strrchr(dir, '/');
    if (slash == NULL || slash == dir) {
        return OA_OK;
    }
    *slash = '\0';
    for (char *p = dir + 1; *p != '\0'; ++p) {
        if (*p != '/') {
            continue;
        }
        *p = '\0';
        if (mkdir(dir, 0750) != 0 && errno != EEXIST) {
            return OA_FAIL(OA_E_PARAM, "E10001: Value %s for parameter --%s is invalid. Reason: directory %s cannot "
                           "be created (%s).", path, flag, dir, strerror(errno));
        }
        *p = '/';
    }
    if (mkdir(dir, 0750) != 0 && errno != EEXIST) {
        return OA_FAIL(OA_E_PARAM, "E10001: Value %s for parameter --%s is invalid. Reason: directory %s cannot be "
                       "created (%s).", path, flag, dir, strerror(errno));
    }
    return OA_OK;
}

/* The directory of an output path must exist and be writable. */
static oa_status check_output_path(const char *flag, const char *path)
{
    char dir[4096];
    if (!oa_strlcpy(dir, path, sizeof(dir))) {
        return OA_FAIL(OA_E_PARAM, "E10021: Path for parameter --%s is too long. Keep the length within %zu.", flag,
                       sizeof(dir) - 1);
    }
    char *slash = strrchr(dir, '/');
    const char *base = slash ? slash + 1 : dir;
    if (base[0] == '\0') {
        return OA_FAIL(OA_E_PARAM, "E10022: Path %s for parameter --%s does not include the file name.", path, flag);
    }
    if (slash == dir) {
        dir[1] = '\0';
    } else if (slash != NULL) {
        *slash = '\0';
    } else {
        strcpy(dir, ".");
    }
    struct stat sb;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode) || access(dir, W_OK) != 0) {
        return OA_FAIL(OA_E_PARAM, "E10001: Value %s for parameter --%s is invalid. Reason: directory %s %s.", path,
                       flag, dir, stat(dir, &sb) != 0 ? "does not exist" : "is not a writable directory");
    }
    return OA_OK;
}

/* Flags CANN knows but this atc does not implement, and flags without effect here. */
static oa_status check_flag_support(void)
{
    int n;
    atc_flag *t = atc_flags_table(&n);
    for (int i = 0; i < n; i++) {
        if (!t[i].set) {
            continue;
        }
        if (t[i].use == ATC_UNSUPPORTED) {
            return OA_FAIL(OA_E_FEATURE_UNSUPPORTED,
                           "E10055: The operation is not supported. Reason: --%s is not supported yet.", t[i].name);
        }
        if (t[i].use == ATC_IGNORE && strcmp(t[i].value, t[i].dflt) != 0) {
            printf("[WARNING] --%s=%s has no effect on a CPU build and is ignored.\n", t[i].name, t[i].value);
        }
    }
    return OA_OK;
}

static void apply_log_level(void)
{
    if (!atc_is_set("log")) {
        return;
    }
    static const char *const names[] = {"debug", "info", "warning", "error", "null"};
    for (int i = 0; i < 5; i++) {
        if (strcmp(atc_str("log"), names[i]) == 0) {
            char v[2] = {(char)('0' + i), 0};
            setenv("ASCEND_GLOBAL_LOG_LEVEL", v, 1);
            oa_log_reload();
        }
    }
}

/* The command line as one string (model attr atc_cmdline). */
static char *join_argv(int argc, char **argv)
{
    size_t len = 1;
    for (int i = 0; i < argc; i++) {
        len += strlen(argv[i]) + 1;
    }
    char *s = malloc(len);
    if (s == NULL) {
        return NULL;
    }
    s[0] = '\0';
    for (int i = 0; i < argc; i++) {
        strcat(s, argv[i]);
        if (i + 1 < argc) {
            strcat(s, " ");
        }
    }
    return s;
}

/* ---- modes ------------------------------------------------------------- */

/*
 * The formats CANN's ONNX parser and atc give the model's outputs: a 4-D
 * output is NCHW (format 0), as the Data inputs (--input_format, NCHW by
 * default), others keep ND (docs/atc.md "What ends up in the file").
 */
static void refine_output_formats(oa_graph *g)
{
    oa_node *no = oa_graph_output_node(g);
    for (uint32_t i = 0; no != NULL && i < no->num_inputs; ++i) {
        oa_tensor_desc *d = &no->inputs[i].desc;
        if (d->shape.rank == 4 && d->format == OA_FORMAT_ND) {
            d->format = OA_FORMAT_NCHW;
            d->origin_format = OA_FORMAT_NCHW;
        }
    }
}

/* --framework must be given and be 5 (ONNX), the only one converted; done: "converted" or "checked". */
static oa_status require_onnx_framework(const char *done)
{
    if (!atc_is_set("framework")) {
        return OA_FAIL(OA_E_PARAM,
                       "E10007: --framework is required. The value must be 0(Caffe) or 1(MindSpore) or 3(TensorFlow) "
                       "or 5(Onnx).");
    }
    if (atc_int("framework") != 5) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED,
                       "E10055: The operation is not supported. Reason: --framework=%d is not supported yet; only "
                       "5 (Onnx) models can be %s.",
                       atc_int("framework"), done);
    }
    return OA_OK;
}

/* --insert_op_conf: the AIPP config, read and validated in full (docs/aipp.md "Config file"). */
static oa_status load_aipp_config(oa_aipp_config **out)
{
    oa_status st = check_input_file("insert_op_conf");
    if (st != OA_OK) {
        return st;
    }
    oa_aipp_config *cfg = malloc(sizeof *cfg);
    if (cfg == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory");
    }
    st = oa_aipp_config_load(atc_str("insert_op_conf"), cfg);
    if (st != OA_OK) {
        free(cfg);
        return st;
    }
    *out = cfg;
    return OA_OK;
}

static oa_status gen_om(int argc, char **argv)
{
    oa_status st = OA_OK;
    if ((st = require_onnx_framework("converted")) != OA_OK) {
        return st;
    }
    if ((st = required("soc_version")) != OA_OK || (st = required("output")) != OA_OK ||
        (st = required("model")) != OA_OK || (st = check_input_file("model")) != OA_OK) {
        return st;
    }
    if (oa_platform_find_soc(atc_str("soc_version")) == NULL) {
        return OA_FAIL(OA_E_PARAM,
                       "E10001: Value %s for parameter --soc_version is invalid. Reason: It is not a supported SoC "
                       "version (CANN names such as Ascend310, Ascend310P3, Ascend910B1).",
                       atc_str("soc_version"));
    }
    const char *out = atc_str("output");
    if (out[strlen(out) - 1] == '/') {
        return OA_FAIL(OA_E_PARAM, "E10022: Path %s for parameter --output does not include the file name.", out);
    }
    char *out_path = malloc(strlen(out) + 4);
    if (out_path == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory");
    }
    strcpy(out_path, atc_str("output"));
    strcat(out_path, ".om"); /* CANN appends the suffix whatever --output ends with */
    if ((st = make_parent_dirs("output", out_path)) != OA_OK || (st = check_output_path("output", out_path)) != OA_OK) {
        free(out_path);
        return st;
    }
    if (atc_str("weight")[0] != '\0') {
        printf("[WARNING] --weight is only used by Caffe models and is ignored.\n");
    }
    /* At most one kind of gears (CANN: E10009 also covers --input_shape_range). */
    int kinds = (atc_str("dynamic_batch_size")[0] != 0) + (atc_str("dynamic_image_size")[0] != 0) +
                (atc_str("dynamic_dims")[0] != 0) + (atc_str("input_shape_range")[0] != 0);
    if (kinds > 1) {
        free(out_path);
        return OA_FAIL(OA_E_PARAM,
                       "E10009: --dynamic_batch_size, --dynamic_image_size, --input_shape_range, and --dynamic_dims "
                       "are mutually exclusive.");
    }
    const char *lowp_dtype = NULL; /* checked before the (long) conversion */
    if ((st = oa_precision_request(atc_str("precision_mode"), atc_str("precision_mode_v2"), &lowp_dtype)) != OA_OK) {
        free(out_path);
        return st;
    }
    oa_aipp_config *aipp = NULL;
    if (atc_is_set("insert_op_conf") && (st = load_aipp_config(&aipp)) != OA_OK) {
        free(out_path);
        return st;
    }
    oa_compile_options opt;
    oa_compile_options_init(&opt);
    opt.input_shape = atc_str("input_shape");
    opt.input_shape_range = atc_str("input_shape_range");
    opt.input_format = atc_str("input_format");
    opt.input_fp16_nodes = atc_str("input_fp16_nodes");
    opt.output_type = atc_str("output_type");
    opt.out_nodes = atc_str("out_nodes");
    opt.aipp = aipp;
    opt.disable_reuse = atc_int("disable_reuse_memory") == 1;
    opt.precision_mode = atc_str("precision_mode");
    opt.precision_mode_v2 = atc_str("precision_mode_v2");
    if (atc_str("dynamic_batch_size")[0]) {
        opt.gear_kind = OA_GEAR_BATCH;
        opt.gears = atc_str("dynamic_batch_size");
    } else if (atc_str("dynamic_image_size")[0]) {
        opt.gear_kind = OA_GEAR_IMAGE;
        opt.gears = atc_str("dynamic_image_size");
    } else if (atc_str("dynamic_dims")[0]) {
        opt.gear_kind = OA_GEAR_DIMS;
        opt.gears = atc_str("dynamic_dims");
    }
    if (opt.input_shape_range[0] && opt.input_shape[0]) {
        printf("WARNING: Option input_shape cannot use with option input_shape_range,it will be override by "
               "input_shape_range\n");
        opt.input_shape = "";
    }
    /* --external_weight=1|2: the weights go to tmp_weight_<pid>_0 (under
     * $ASCEND_WORK_PATH or the current directory), then next to the .om in
     * <output dir>/weight/ (file_constant.h) */
    opt.external_weight = atoi(atc_str("external_weight"));
    opt.om_path = out_path;
        const char *layout = getenv("OPENACL_ATC_NCHWC");
    /* on unless OPENACL_ATC_NCHWC=0: blocked conv chains run 1.1-1.4x faster on
     * the sample models (bench/RESULTS.md, "Static models") */
    opt.layout_nchwc = layout == NULL || strcmp(layout, "0") != 0;
    /* OPENACL_ATC_INT8=0: QDQ models keep the reference (f32) path (docs/int8.md) */
    const char *int8 = getenv("OPENACL_ATC_INT8");
    if (int8 != NULL && strcmp(int8, "0") == 0) {
        opt.disable |= OA_NO_INT8;
    }
    progress_state ps = {oa_now_ns(), false};
    opt.progress = on_progress;
    opt.progress_ctx = &ps;

    oa_compiled_model *cm = NULL;
    st = oa_compile_onnx(atc_str("model"), &opt, &cm);
    free(aipp);
    char *cmdline = join_argv(argc, argv);
    if (st == OA_OK && cmdline == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "out of memory");
    }
    if (st == OA_OK) {
        refine_output_formats(cm->graph);
        st = oa_attrs_set_str(cm->graph, &cm->model_attrs, "atc_version", OA_ATC_VERSION);
    }
    if (st == OA_OK && getenv("OPENACL_ATC_CHECK_PLAN") != NULL && cm->plan != NULL) {
        st = oa_compiled_model_check_plan(cm);
    }
    if (st == OA_OK) {
        on_progress(&ps, "write model");
        bool compress = true;
        const char *c = atc_str("enable_attr_compression");
        if (strcmp(c, "false") == 0) {
            compress = false;
        } else if (strcmp(c, "true") != 0) {
            st = OA_FAIL(OA_E_PARAM,
                         "E10005: Value %s for parameter --enable_attr_compression is invalid. The value must be "
                         "either true or false.",
                         c);
        }
        atc_om_info info = {atc_str("soc_version"), cmdline, compress};
        if (st == OA_OK) {
            /* ChangeFilePath: locations become bare file names before the graph is written */
            st = oa_fc_move_to_model_dir(cm->graph, out_path);
        }
        if (st == OA_OK) {
            st = atc_write_om(cm, &info, out_path);
        }
        if (st == OA_OK) {
            st = oa_fc_summary_write(cm->graph, out_path, (oa_fc_mode)opt.external_weight);
        }
    }
    if (st != OA_OK) {
        oa_fc_remove_tmp_dir(opt.session_id);
    }
    if (st == OA_OK && strcmp(atc_str("display_model_info"), "1") == 0) {
        st = atc_om_print_info(out_path, stdout);
    }
    double secs = (double)(oa_now_ns() - ps.start) / 1e9;
    if (st == OA_OK && (ps.shown || secs >= 1.0)) {
        printf("[%.1fs] done: %s\n", secs, out_path);
    }
    free(cmdline);
    free(out_path);
    oa_compiled_model_destroy(cm);
    return st;
}

static oa_status om_to_json(void)
{
    oa_status st;
    if (atc_str("om")[0] == '\0') {
        return OA_FAIL(OA_E_PARAM, "E10004: Value for --om is empty.");
    }
    if (atc_str("json")[0] == '\0') {
        return OA_FAIL(OA_E_PARAM, "E10004: Value for --json is empty.");
    }
    if ((st = check_input_file("om")) != OA_OK || (st = check_output_path("json", atc_str("json"))) != OA_OK) {
        return st;
    }
    if (atc_is_set("framework")) {
        /* --om is the framework's model: the parsed graph as JSON (ONNX only) */
        if (atc_int("framework") != 5) {
            return OA_FAIL(OA_E_PARAM,
                           "E10001: Value %d for parameter --framework is invalid. Reason: The framework must be "
                           "selected from {0(Caffe), 3(TensorFlow), 5(Onnx)} when model is set to 1(JSON); this "
                           "atc converts 5(Onnx) models only.",
                           atc_int("framework"));
        }
        return atc_onnx_to_json(atc_str("om"), atc_str("json"));
    }
    st = atc_om_to_json(atc_str("om"), atc_str("json"));
    if (st == OA_OK) {
        /* the external weight files (atc --external_weight=1|2), when the model has some */
        st = oa_fc_summary_print(atc_str("om"), stdout, NULL);
    }
    return st;
}

/* --mode=3: the ops of --model checked without converting; check_result.json in the current directory. */
static oa_status precheck(void)
{
    oa_status st;
    if ((st = require_onnx_framework("checked")) != OA_OK) {
        return st;
    }
    if ((st = required("model")) != OA_OK || (st = check_input_file("model")) != OA_OK) {
        return st;
    }
    return atc_precheck(atc_str("model"), "check_result.json");
}

/* --mode=6: CANN's model information of --om. */
static oa_status display_info(void)
{
    oa_status st;
    if (atc_str("om")[0] == '\0') {
        return OA_FAIL(OA_E_PARAM, "E10004: Value for --om is empty.");
    }
    if ((st = check_input_file("om")) != OA_OK) {
        return st;
    }
    return atc_om_print_info(atc_str("om"), stdout);
}

/* --singleop: one single-op model per JSON entry into the --output directory (src/acl_op/op_singleop.c). */
static void singleop_written(void *ctx, const char *path)
{
    (void)ctx;
    OA_LOGI("single-op model %s", path);
}

static oa_status gen_singleop(int argc, char **argv)
{
    if (atc_is_set("framework") || atc_int("mode") != 0 || strcmp(atc_str("display_model_info"), "1") == 0) {
        return OA_FAIL(OA_E_PARAM,
                       "E10001: Value %s for parameter --singleop is invalid. Reason: When --singleop is specified, "
                       "--display_model_info=1, --framework, --insert_op_conf, and --mode values other than 0 are "
                       "not supported.",
                       atc_str("singleop"));
    }
    oa_status st;
    if ((st = required("output")) != OA_OK || (st = required("soc_version")) != OA_OK ||
        (st = check_input_file("singleop")) != OA_OK) {
        return st;
    }
    if (oa_platform_find_soc(atc_str("soc_version")) == NULL) {
        return OA_FAIL(OA_E_PARAM,
                       "E10001: Value %s for parameter --soc_version is invalid. Reason: It is not a supported SoC "
                       "version (CANN names such as Ascend310, Ascend310P3, Ascend910B1).",
                       atc_str("soc_version"));
    }
    FILE *f = fopen(atc_str("singleop"), "rb");
    if (f == NULL) {
        return OA_FAIL(OA_E_PARAM, "E10024: open file %s failed.", atc_str("singleop"));
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 > cap) {
            cap = (cap + 4096) * 2;
            char *n = realloc(text, cap);
            if (n == NULL) {
                free(text);
                fclose(f);
                return OA_FAIL(OA_E_NOMEM, "reading %s", atc_str("singleop"));
            }
            text = n;
        }
        const size_t r = fread(text + len, 1, cap - len, f);
        len += r;
        if (r == 0) {
            break;
        }
    }
    fclose(f);
    char *cmdline = join_argv(argc, argv);
    const oa_singleop_opts o = {.out_dir = atc_str("output"),
                                .soc_version = atc_str("soc_version"),
                                .atc_cmdline = cmdline,
                                .on_written = singleop_written};
    size_t written = 0;
    st = oa_singleop_build(text, len, &o, &written);
    free(cmdline);
    free(text);
    return st;
}

int main(int argc, char **argv)
{
    printf("ATC start working now, please wait for a moment.\n");
    fflush(stdout);
    atc_parse_result r = atc_flags_parse(argc, argv);
    if (r == ATC_PARSE_HELP) {
        atc_print_usage();
        return 0;
    }
    if (r == ATC_PARSE_FAIL) {
        return finish(false);
    }
    apply_log_level();
    oa_status st = check_flag_support();
    if (st == OA_OK && atc_is_set("singleop")) {
        return finish(gen_singleop(argc, argv) == OA_OK);
    }
    if (st == OA_OK && atc_is_set("insert_op_conf") && atc_int("mode") != 0) {
        /* Only model conversion reads the AIPP config (check_aipp_config). */
        st = OA_FAIL(OA_E_FEATURE_UNSUPPORTED,
                     "E10055: The operation is not supported. Reason: --insert_op_conf with --mode=%d is not "
                     "supported yet.",
                     atc_int("mode"));
    }
    if (st == OA_OK) {
        int mode = atc_int("mode");
        if (mode == 0) {
            st = gen_om(argc, argv);
        } else if (mode == 1) {
            st = om_to_json();
        } else if (mode == 3) {
            st = precheck();
        } else if (mode == 6) {
            st = display_info();
        } else {
            st = OA_FAIL(OA_E_FEATURE_UNSUPPORTED,
                         "E10055: The operation is not supported. Reason: --mode=%d is not supported yet (0: model "
                         "to .om, 1: .om or ONNX to JSON, 3: pre-check, 6: display .om information).",
                         mode);
        }
    }
    return finish(st == OA_OK);
}

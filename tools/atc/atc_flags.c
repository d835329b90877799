/*
 * atc's flag table and parser (atc_flags.h). Every flag CANN's atc defines
 * is known here, so a script written for CANN never hits "unknown flag";
 * each is implemented, accepted without effect on a CPU build, or refused
 * as not supported yet.
 */
#define OA_LOG_MODULE "GE"
#include "atc_flags.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"

#define U ATC_USE
#define I ATC_IGNORE
#define N ATC_UNSUPPORTED
#define S ATC_STR
#define T ATC_INT
#define B ATC_BOOL

static atc_flag g_flags[] = {
    /* name, type, use, default, range, help */
    {"model", S, U, "", NULL, "The model file.", NULL, false},
    {"output", S, U, "", NULL, "The output file path&name (\".om\" is appended).", NULL, false},
    {"framework", T, U, "-1", "0 1 3 5", "Framework type (0:Caffe; 1:MindSpore; 3:Tensorflow; 5:Onnx).", NULL, false},
    {"weight", S, U, "", NULL, "Weight file (Caffe only; ignored for ONNX).", NULL, false},
    {"input_shape", S, U, "", NULL, "Input shapes: \"name1:n,c,h,w;name2:...\" (-1 dynamic, lo~hi range).", NULL, false},
    {"input_hint_shape", S, N, "", NULL, "Shape hints of dynamic inputs.", NULL, false},
    {"input_shape_range", S, U, "", NULL, "Deprecated: \"name1:[n1~n2,c,h,w];name2:[...]\".", NULL, false},
    {"help", B, U, "false", NULL, "Show this help message.", NULL, false},
    {"cal_conf", S, N, "", NULL, "Calibration config file.", NULL, false},
    {"insert_op_conf", S, U, "", NULL, "Config file to insert ops such as AIPP.", NULL, false},
    {"op_name_map", S, N, "", NULL, "Custom op name mapping file.", NULL, false},
    {"target", S, I, "", NULL, "Target (mini).", NULL, false},
    {"om", S, U, "", NULL, "The .om (or with --framework the model) file for --mode=1 and 6.", NULL, false},
    {"json", S, U, "", NULL, "The JSON file to write (--mode=1).", NULL, false},
    {"mode", T, U, "0", "0 1 3 5 6 7 30",
     "Run mode: 0 model => .om; 1 .om or model => JSON; 3 pre-check only; 6 display .om info.", NULL, false},
    {"out_nodes", S, U, "", NULL, "Output nodes: \"node_name1:0;node_name1:1;node_name2:0\".", NULL, false},
    {"op_precision_mode", S, I, "", NULL, "Operator precision mode file.", NULL, false},
    {"allow_hf32", S, I, "", NULL, "Enable hf32 (true/false).", NULL, false},
    {"precision_mode", S, U, "",
     "force_fp16 force_fp32 cube_fp16in_fp32out allow_mix_precision allow_fp32_to_fp16 must_keep_origin_dtype "
     "allow_mix_precision_fp16 allow_mix_precision_bf16 allow_fp32_to_bf16 force_lowerprecision",
     "Precision mode: a lower-precision mode runs convolutions and matrix products in bf16 where the CPU has "
     "native bf16 (docs/precision.md).", NULL, false},
    {"precision_mode_v2", S, U, "", "fp16 origin cube_fp16in_fp32out mixed_float16 mixed_bfloat16 cube_hif8 mixed_hif8",
     "Precision mode v2 (as --precision_mode; not together with it).", NULL, false},
    {"modify_mixlist", S, I, "", NULL, "Mixed precision list file.", NULL, false},
    {"keep_dtype", S, N, "", NULL, "Ops that keep their precision.", NULL, false},
    {"input_format", S, U, "", NULL, "Input format: NCHW (ONNX default), NHWC, ND, NCDHW, NDHWC.", NULL, false},
    {"check_report", S, I, "check_result.json", NULL, "Pre-check report file.", NULL, false},
    {"input_fp16_nodes", S, U, "", NULL, "Inputs fed as FLOAT16: \"node_name1;node_name2\".", NULL, false},
    {"is_output_adjust_hw_layout", S, N, "", NULL, "NC1HWC0 fp16 outputs.", NULL, false},
    {"is_input_adjust_hw_layout", S, N, "", NULL, "NC1HWC0 fp16 inputs.", NULL, false},
    {"output_type", S, U, "", NULL,
     "Output data type, all outputs (FP32, FP16, INT8, INT16, UINT16, UINT8, INT32, INT64, UINT32, UINT64, DOUBLE) "
     "or per output \"node:0:FP16;node:1:FP32\".",
     NULL, false},
    {"op_select_implmode", S, I, "", "high_precision high_performance high_precision_for_all high_performance_for_all",
     "Operator implementation mode.", NULL, false},
    {"optypelist_for_implmode", S, I, "", NULL, "Op types for op_select_implmode.", NULL, false},
    {"singleop", S, U, "", NULL, "Single-op description file (JSON); --output is then a directory.", NULL, false},
    {"disable_reuse_memory", T, U, "0", "0 1", "1: every tensor gets its own memory.", NULL, false},
    {"auto_tune_mode", S, I, "", NULL, "Deprecated auto tune mode.", NULL, false},
    {"jit_compile", S, I, "1", "0 1 2", "Online compilation mode.", NULL, false},
    {"optimization_switch", S, I, "", NULL, "Graph optimization switches.", NULL, false},
    {"static_model_ops_lower_limit", S, I, "", NULL, "Static subgraph size limit.", NULL, false},
    {"h2d_overlapped_with_compute", S, I, "", NULL, "Input copy overlap.", NULL, false},
    {"raw_ge_options", S, N, "", NULL, "Raw GE options file.", NULL, false},
    {"raw_ge_options_ignore_unsupported", B, I, "false", NULL, "Ignore unsupported raw options.", NULL, false},
    {"soc_version", S, U, "", NULL, "The SoC version (CANN names: Ascend310, Ascend310P3, Ascend910B1, ...).", NULL,
     false},
    {"virtual_type", T, I, "0", "0 1", "Virtualization.", NULL, false},
    {"core_type", S, I, "AiCore", "AiCore VectorCore", "Core type.", NULL, false},
    {"aicore_num", S, I, "", NULL, "AI core count.", NULL, false},
    {"buffer_optimize", S, I, "l2_optimize", "l1_optimize l2_optimize off_optimize", "Buffer optimization.", NULL,
     false},
    {"fusion_switch_file", S, I, "", NULL, "Fusion switch file.", NULL, false},
    {"compression_optimize_conf", S, N, "", NULL, "Compression config.", NULL, false},
    {"customize_dtypes", S, N, "", NULL, "Customized dtypes file.", NULL, false},
    {"op_debug_config", S, I, "", NULL, "Operator debug config.", NULL, false},
    {"save_original_model", S, I, "", NULL, "Save the original model too.", NULL, false},
    {"dynamic_batch_size", S, U, "", NULL, "Batch gears: \"1,2,4,8\" (needs -1 as N in --input_shape).", NULL,
     false},
    {"dynamic_image_size", S, U, "", NULL, "Image size gears: \"h1,w1;h2,w2\" (-1 as H and W).", NULL, false},
    {"dynamic_dims", S, U, "", NULL, "Dims gears: \"d1,d2;d3,d4\" (one value per -1 in --input_shape).", NULL,
     false},
    {"enable_small_channel", S, I, "0", NULL, "Small channel optimization.", NULL, false},
    {"enable_compress_weight", S, I, "false", NULL, "Weight compression.", NULL, false},
    {"enable_attr_compression", S, U, "true", NULL, "Compress op attributes in the .om (true/false).", NULL, false},
    {"compress_weight_conf", S, I, "", NULL, "Weight compression config.", NULL, false},
    {"sparsity", T, I, "0", "0 1", "Structured sparsity.", NULL, false},
    {"enable_single_stream", S, I, "", NULL, "Single stream.", NULL, false},
    {"ac_parallel_enable", S, I, "0", NULL, "AI CPU parallelism.", NULL, false},
    {"tiling_schedule_optimize", S, I, "0", NULL, "Tiling schedule optimization.", NULL, false},
    {"log", S, U, "null", "debug info warning error null", "Log level: debug, info, warning, error, null.", NULL,
     false},
    {"dump_mode", S, I, "0", "0 1", "Dump infershape json.", NULL, false},
    {"op_debug_level", T, I, "0", "0 1 2 3 4", "Operator debug level.", NULL, false},
    {"enable_scope_fusion_passes", S, I, "", NULL, "Scope fusion passes.", NULL, false},
    {"debug_dir", S, I, "", NULL, "Debug files directory.", NULL, false},
    {"status_check", S, I, "0", "0 1", "Status check.", NULL, false},
    {"op_compiler_cache_dir", S, I, "", NULL, "Operator compile cache directory.", NULL, false},
    {"op_compiler_cache_mode", S, I, "disable", "enable disable force", "Operator compile cache mode.", NULL, false},
    {"mdl_bank_path", S, I, "", NULL, "Model bank path.", NULL, false},
    {"op_bank_path", S, I, "", NULL, "Op bank path.", NULL, false},
    {"display_model_info", S, U, "0", "0 1", "Display model info after the conversion (1).", NULL, false},
    {"device_id", S, I, "0", NULL, "Device id.", NULL, false},
    {"shape_generalized_build_mode", S, I, "shape_precise", "shape_generalized shape_precise", "Deprecated.", NULL,
     false},
    {"atomic_clean_policy", S, I, "0", "0 1", "Atomic clean policy.", NULL, false},
    {"external_weight", S, U, "0", "0 1 2", "0: weights in the .om; 1: one file per weight; 2: one file.", NULL,
     false},
    {"deterministic", S, I, "0", "0 1", "Deterministic computation (always on a CPU).", NULL, false},
    {"deterministic_level", S, I, "0", "0 1 2 3", "Deterministic level.", NULL, false},
    {"host_env_os", S, I, "", NULL, "Target OS.", NULL, false},
    {"host_env_cpu", S, I, "", NULL, "Target CPU.", NULL, false},
    {"cluster_config", S, N, "", NULL, "Cluster config.", NULL, false},
    {"hccl_sub_comm_config", S, N, "", NULL, "HCCL sub-communication config.", NULL, false},
    {"quant_dumpable", S, I, "", NULL, "Dumpable quant nodes.", NULL, false},
    {"is_weight_clip", S, I, "1", NULL, "Clip non-finite weights.", NULL, false},
    {"oo_level", S, I, "O3", NULL, "Optimization level.", NULL, false},
    {"build_config", S, N, "", NULL, "Build command template.", NULL, false},
};

#undef U
#undef I
#undef N
#undef S
#undef T
#undef B

atc_flag *atc_flags_table(int *count)
{
    *count = (int)OA_ARRAY_SIZE(g_flags);
    return g_flags;
}

atc_flag *atc_flag_get(const char *name)
{
    for (size_t i = 0; i < OA_ARRAY_SIZE(g_flags); i++) {
        if (strcmp(g_flags[i].name, name) == 0) {
            return &g_flags[i];
        }
    }
    return NULL;
}

const char *atc_str(const char *name)
{
    atc_flag *f = atc_flag_get(name);
    return (f && f->value) ? f->value : "";
}

int32_t atc_int(const char *name)
{
    return (int32_t)strtol(atc_str(name), NULL, 10);
}

static bool parse_bool(const char *v, bool *out)
{
    static const char *const yes[] = {"1", "t", "true", "y", "yes"}, *const no[] = {"0", "f", "false", "n", "no"};
    char low[8];
    size_t n = strlen(v);
    if (n >= sizeof(low)) {
        return false;
    }
    for (size_t i = 0; i <= n; i++) {
        low[i] = (char)tolower((unsigned char)v[i]);
    }
    for (size_t i = 0; i < OA_ARRAY_SIZE(yes); i++) {
        if (strcmp(low, yes[i]) == 0) {
            *out = true;
            return true;
        }
        if (strcmp(low, no[i]) == 0) {
            *out = false;
            return true;
        }
    }
    return false;
}

bool atc_bool(const char *name)
{
    bool b = false;
    (void)parse_bool(atc_str(name), &b);
    return b;
}

bool atc_is_set(const char *name)
{
    atc_flag *f = atc_flag_get(name);
    return f && f->set;
}

static bool in_range(const char *range, const char *v)
{
    size_t n = strlen(v);
    for (const char *p = range; *p;) {
        const char *e = strchr(p, ' ');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, v, n) == 0) {
            return true;
        }
        p += len;
        while (*p == ' ') {
            p++;
        }
    }
    return false;
}

/* "[a] [b] [c] " as CANN prints valid ranges. */
static void range_text(const char *range, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (const char *p = range; *p && len < cap;) {
        const char *e = strchr(p, ' ');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        len += (size_t)snprintf(buf + len, cap - len, "[%.*s] ", (int)n, p);
        p += n;
        while (*p == ' ') {
            p++;
        }
    }
}

/* CANN's value checks: type, then the value range; E-codes as CANN reports them. */
static bool check_value(const atc_flag *f, const char *v)
{
    if (f->type == ATC_INT) {
        errno = 0;
        char *end;
        long x = strtol(v, &end, 10);
        if (*v == '\0' || *end != '\0' || errno != 0 || x < INT32_MIN || x > INT32_MAX) {
            (void)OA_FAIL(OA_E_PARAM, "E10003: Value %s for parameter --%s is invalid. Reason: The value type must be "
                                      "[int32].",
                          v, f->name);
            return false;
        }
    } else if (f->type == ATC_BOOL) {
        bool b;
        if (!parse_bool(v, &b)) {
            (void)OA_FAIL(OA_E_PARAM, "E10003: Value %s for parameter --%s is invalid. Reason: The value type must be "
                                      "[bool].",
                          v, f->name);
            return false;
        }
    }
    if (f->range == NULL || in_range(f->range, v)) {
        return true;
    }
    static const char *const binary[] = {"status_check",        "deterministic",        "display_model_info",
                                         "atomic_clean_policy", "dump_mode",            "disable_reuse_memory",
                                         "sparsity"};
    for (size_t i = 0; i < OA_ARRAY_SIZE(binary); i++) {
        if (strcmp(f->name, binary[i]) == 0) {
            (void)OA_FAIL(OA_E_PARAM, "E10006: Value %s for parameter --%s is invalid. The value must be either 1 or 0.",
                          v, f->name);
            return false;
        }
    }
    if (strcmp(f->name, "log") == 0) {
        (void)OA_FAIL(OA_E_PARAM, "E10010: Value %s for parameter --log is invalid.", v);
        return false;
    }
    if (strcmp(f->name, "framework") == 0) {
        (void)OA_FAIL(OA_E_PARAM,
                      "E10007: --framework is required. The value must be 0(Caffe) or 1(MindSpore) or 3(TensorFlow) "
                      "or 5(Onnx).");
        return false;
    }
    char buf[512];
    range_text(f->range, buf, sizeof(buf));
    (void)OA_FAIL(OA_E_PARAM,
                  "E10001: Value %s for parameter --%s is invalid. Reason: The value is not within the range of "
                  "values. The valid range is %s.",
                  v, f->name, buf);
    return false;
}

/* Normalises one argument: "-name" (two letters or more) -> "--name", and
 * '-' -> '_' inside the name part. Writes into buf. */
static void normalise(const char *arg, char *buf, size_t cap)
{
    size_t k = 0;
    if (arg[0] == '-' && arg[1] != '-' && isalpha((unsigned char)arg[1]) && isalpha((unsigned char)arg[2])) {
        buf[k++] = '-';
    }
    bool in_name = true;
    for (size_t i = 0; arg[i] && k + 1 < cap; i++) {
        char c = arg[i];
        if (c == '=') {
            in_name = false;
        }
        if (in_name && c == '-' && i >= 2 && k >= 2) {
            c = '_';
        }
        buf[k++] = c;
    }
    buf[k] = '\0';
}

atc_parse_result atc_flags_parse(int argc, char **argv)
{
    for (size_t i = 0; i < OA_ARRAY_SIZE(g_flags); i++) {
        g_flags[i].value = g_flags[i].dflt;
        g_flags[i].set = false;
    }
    bool help = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "-h") == 0) {
            help = true;
            continue;
        }
        if (arg[0] != '-' || arg[1] == '\0' || (arg[1] == '-' && arg[2] == '\0')) {
            fprintf(stderr, "ERROR: Non-option parameter: %s\n", arg);
            return ATC_PARSE_FAIL;
        }
        char norm[1024];
        normalise(arg, norm, sizeof(norm));
        if (strncmp(norm, "--", 2) != 0) {
            fprintf(stderr, "ERROR: unknown command line flag '%s'\n", arg + 1);
            return ATC_PARSE_FAIL;
        }
        const char *name = norm + 2;
        const char *eq = strchr(name, '=');
        size_t name_len = eq ? (size_t)(eq - name) : strlen(name);
        atc_flag *f = NULL;
        for (size_t k = 0; k < OA_ARRAY_SIZE(g_flags); k++) {
            if (strlen(g_flags[k].name) == name_len && strncmp(g_flags[k].name, name, name_len) == 0) {
                f = &g_flags[k];
            }
        }
        if (f == NULL) {
            fprintf(stderr, "ERROR: unknown command line flag '%.*s'\n", (int)name_len, name);
            return ATC_PARSE_FAIL;
        }
        const char *value;
        if (eq != NULL) {
            value = strchr(arg, '=') + 1; /* the original spelling of the value */
        } else if (f->type == ATC_BOOL) {
            value = "true";
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            fprintf(stderr, "ERROR: flag '--%s' is missing its argument; flag description: %s\n", f->name, f->help);
            return ATC_PARSE_FAIL;
        }
        if (!check_value(f, value)) {
            return ATC_PARSE_FAIL;
        }
        f->value = value;
        f->set = true;
        if (f->type == ATC_BOOL && strcmp(f->name, "help") == 0 && atc_bool("help")) {
            help = true;
        }
    }
    return help ? ATC_PARSE_HELP : ATC_PARSE_OK;
}

void atc_print_usage(void)
{
    printf("usage: atc <args>\n"
           "example:\n"
           "  convert an ONNX model to an offline model:\n"
           "    atc --model=./resnet50.onnx --framework=5 --output=./resnet50 --soc_version=<soc_version>\n"
           "  dump an offline model as JSON:\n"
           "    atc --mode=1 --om=./resnet50.om --json=./resnet50.json\n"
           "\n"
           "Flags are written --name=value, --name value or -name=value.\n"
           "Implemented flags:\n");
    for (size_t i = 0; i < OA_ARRAY_SIZE(g_flags); i++) {
        if (g_flags[i].use == ATC_USE) {
            printf("  --%-24s %s\n", g_flags[i].name, g_flags[i].help);
        }
    }
    printf("Accepted without effect on a CPU build:\n ");
    size_t col = 1;
    for (size_t i = 0; i < OA_ARRAY_SIZE(g_flags); i++) {
        if (g_flags[i].use == ATC_IGNORE) {
            size_t w = strlen(g_flags[i].name) + 3;
            if (col + w > 100) {
                printf("\n ");
                col = 1;
            }
            printf(" --%s", g_flags[i].name);
            col += w;
        }
    }
    printf("\nNot supported yet (using them fails):\n ");
    col = 1;
    for (size_t i = 0; i < OA_ARRAY_SIZE(g_flags); i++) {
        if (g_flags[i].use == ATC_UNSUPPORTED) {
            size_t w = strlen(g_flags[i].name) + 3;
            if (col + w > 100) {
                printf("\n ");
                col = 1;
            }
            printf(" --%s", g_flags[i].name);
            col += w;
        }
    }
    printf("\n");
}

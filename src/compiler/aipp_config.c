/*
 * The AIPP config reader: a small protobuf text-format parser for exactly
 * the InsertNewOps / AippOpParams schema, CANN's validation and defaults
 * (docs/aipp.md "Config file").
 */
#define OA_LOG_MODULE "GE"
#include "compiler/aipp_config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"


typedef enum { K_MODE, K_FMT, K_U32, K_I32, K_BOOL, K_FLOAT, K_STR, K_REP_U32, K_REP_I32, K_REP_F } field_kind;

typedef struct field_def {
    const char *name;
    field_kind kind;
    size_t off;
} field_def;

#define F(name, kind, member) {name, kind, offsetof(oa_aipp_params, member)}
static const field_def g_fields[] = {
    F("aipp_mode", K_MODE, aipp_mode),
    F("related_input_rank", K_U32, related_input_rank),
    F("related_input_name", K_STR, related_input_name),
    F("input_edge_idx", K_REP_U32, input_edge_idx),
    F("max_src_image_size", K_U32, max_src_image_size),
    F("support_rotation", K_BOOL, support_rotation),
    F("input_format", K_FMT, input_format),
    F("csc_switch", K_BOOL, csc_switch),
    F("cpadding_value", K_FLOAT, cpadding_value),
    F("rbuv_swap_switch", K_BOOL, rbuv_swap_switch),
    F("ax_swap_switch", K_BOOL, ax_swap_switch),
    F("single_line_mode", K_BOOL, single_line_mode),
    F("src_image_size_w", K_I32, src_image_size_w),
    F("src_image_size_h", K_I32, src_image_size_h),
    F("crop", K_BOOL, crop),
    F("load_start_pos_w", K_I32, load_start_pos_w),
    F("load_start_pos_h", K_I32, load_start_pos_h),
    F("crop_size_w", K_I32, crop_size_w),
    F("crop_size_h", K_I32, crop_size_h),
    F("resize", K_BOOL, resize),
    F("resize_output_w", K_I32, resize_output_w),
    F("resize_output_h", K_I32, resize_output_h),
    F("padding", K_BOOL, padding),
    F("left_padding_size", K_I32, left_padding_size),
    F("right_padding_size", K_I32, right_padding_size),
    F("top_padding_size", K_I32, top_padding_size),
    F("bottom_padding_size", K_I32, bottom_padding_size),
    F("padding_value", K_FLOAT, padding_value),
    F("mean_chn_0", K_I32, mean_chn[0]),
    F("mean_chn_1", K_I32, mean_chn[1]),
    F("mean_chn_2", K_I32, mean_chn[2]),
    F("mean_chn_3", K_I32, mean_chn[3]),
    F("min_chn_0", K_FLOAT, min_chn[0]),
    F("min_chn_1", K_FLOAT, min_chn[1]),
    F("min_chn_2", K_FLOAT, min_chn[2]),
    F("min_chn_3", K_FLOAT, min_chn[3]),
    F("var_reci_chn_0", K_REP_F, var_reci_chn[0]),
    F("var_reci_chn_1", K_REP_F, var_reci_chn[1]),
    F("var_reci_chn_2", K_REP_F, var_reci_chn[2]),
    F("var_reci_chn_3", K_REP_F, var_reci_chn[3]),
    F("matrix_r0c0", K_REP_I32, matrix[0][0]),
    F("matrix_r0c1", K_REP_I32, matrix[0][1]),
    F("matrix_r0c2", K_REP_I32, matrix[0][2]),
    F("matrix_r1c0", K_REP_I32, matrix[1][0]),
    F("matrix_r1c1", K_REP_I32, matrix[1][1]),
    F("matrix_r1c2", K_REP_I32, matrix[1][2]),
    F("matrix_r2c0", K_REP_I32, matrix[2][0]),
    F("matrix_r2c1", K_REP_I32, matrix[2][1]),
    F("matrix_r2c2", K_REP_I32, matrix[2][2]),
    F("output_bias_0", K_REP_I32, output_bias[0]),
    F("output_bias_1", K_REP_I32, output_bias[1]),
    F("output_bias_2", K_REP_I32, output_bias[2]),
    F("input_bias_0", K_REP_I32, input_bias[0]),
    F("input_bias_1", K_REP_I32, input_bias[1]),
    F("input_bias_2", K_REP_I32, input_bias[2]),
    F("raw_rgbir_to_f16_n", K_U32, raw_rgbir_to_f16_n),
};
#undef F
#define N_FIELDS (sizeof g_fields / sizeof g_fields[0])

static int field_index(const char *name)
{
    for (size_t i = 0; i < N_FIELDS; i++) {
        if (strcmp(g_fields[i].name, name) == 0) {
            return (int)i;
        }
    }
    return -1;
}

/* ---- lexer ---- */

typedef enum { T_EOF, T_IDENT, T_NUM, T_STR, T_PUNCT } tok_kind;

typedef struct lexer {
    const char *s, *end, *file;
    int line;
    tok_kind kind;
    char text[OA_AIPP_NAME_MAX];
    int tok_line;
} lexer;

static oa_status lex_error(const lexer *lx, const char *what)
{
    return OA_FAIL(OA_E_PARAM,
                   "E10001: Value %s for parameter --insert_op_conf is invalid. Reason: %s at line %d of %s.",
                   lx->file, what, lx->tok_line, lx->file);
}

static oa_status lex_next(lexer *lx)
{
    for (;;) {
        while (lx->s < lx->end && isspace((unsigned char)*lx->s)) {
            if (*lx->s == '\n') {
                lx->line++;
            }
            lx->s++;
        }
        if (lx->s < lx->end && *lx->s == '#') {
            while (lx->s < lx->end && *lx->s != '\n') {
                lx->s++;
            }
            continue;
        }
        break;
    }
    lx->tok_line = lx->line;
    lx->text[0] = '\0';
    if (lx->s >= lx->end) {
        lx->kind = T_EOF;
        return OA_OK;
    }
    char c = *lx->s;
    size_t n = 0;
    if (c == '"' || c == '\'') {
        const char q = c;
        lx->s++;
        while (lx->s < lx->end && *lx->s != q && *lx->s != '\n') {
            if (n + 1 >= sizeof lx->text) {
                return lex_error(lx, "string too long");
            }
            lx->text[n++] = *lx->s++;
        }
        if (lx->s >= lx->end || *lx->s != q) {
            return lex_error(lx, "unterminated string");
        }
        lx->s++;
        lx->text[n] = '\0';
        lx->kind = T_STR;
        return OA_OK;
    }
    if (isalpha((unsigned char)c) || c == '_' || isdigit((unsigned char)c) || c == '-' || c == '+' || c == '.') {
        const bool num = !(isalpha((unsigned char)c) || c == '_');
        while (lx->s < lx->end && (isalnum((unsigned char)*lx->s) || *lx->s == '_' || *lx->s == '.' ||
                                   (num && (*lx->s == '-' || *lx->s == '+')))) {
            if (n + 1 >= sizeof lx->text) {
                return lex_error(lx, "token too long");
            }
            lx->text[n++] = *lx->s++;
        }
        if (n == 0) {
            lx->text[n++] = *lx->s++;
        }
        lx->text[n] = '\0';
        lx->kind = num ? T_NUM : T_IDENT;
        return OA_OK;
    }
    if (strchr("{}:;,[]<>", c) == NULL) {
        char what[64];
        snprintf(what, sizeof what, "unexpected character '%c'", isprint((unsigned char)c) ? c : '?');
        return lex_error(lx, what);
    }
    lx->text[0] = c;
    lx->text[1] = '\0';
    lx->s++;
    lx->kind = T_PUNCT;
    return OA_OK;
}

static bool is_punct(const lexer *lx, char c)
{
    return lx->kind == T_PUNCT && lx->text[0] == c;
}

/* ---- values ---- */

static oa_status field_error(const lexer *lx, const char *field, const char *value, int line, const char *why)
{
    return OA_FAIL(OA_E_PARAM, "E10001: Value %s for parameter aipp_op.%s is invalid. Reason: %s (line %d of %s).",
                   value, field, why, line, lx->file);
}

static bool parse_int(const char *t, long long lo, long long hi, long long *out)
{
    char *e;
    errno = 0;
    long long v = strtoll(t, &e, 0);
    if (errno != 0 || e == t || *e != '\0' || v < lo || v > hi) {
        return false;
    }
    *out = v;
    return true;
}

static bool parse_float(const char *t, float *out)
{
    char *e;
    errno = 0;
    double v = strtod(t, &e);
    if (errno != 0 || e == t || *e != '\0' || !isfinite(v) || fabs(v) > 3.4e38) {
        return false;
    }
    *out = (float)v;
    return true;
}

static oa_status store_value(const lexer *lx, oa_aipp_params *p, const field_def *fd, uint8_t *count)
{
    char *base = (char *)p + fd->off;
    const char *t = lx->text;
    long long v;
    const int line = lx->tok_line;
    if (fd->kind == K_STR) {
        if (lx->kind != T_STR) {
            return field_error(lx, fd->name, t, line, "a quoted string is expected");
        }
        memcpy(base, t, strlen(t) + 1);
    } else if (lx->kind != T_IDENT && lx->kind != T_NUM) {
        return field_error(lx, fd->name, t, line, "a value is expected");
    } else if (fd->kind == K_MODE) {
        static const char *const modes[] = {"undefined", "static", "dynamic"};
        int m = -1;
        for (int i = 0; i < 3; i++) {
            if (strcmp(t, modes[i]) == 0) {
                m = i;
            }
        }
        if (m < 0 && parse_int(t, 0, 2, &v)) {
            m = (int)v;
        }
        if (m < 0) {
            return field_error(lx, fd->name, t, line, "must be static or dynamic");
        }
        *(int32_t *)base = m;
    } else if (fd->kind == K_FMT) {
        int m = -1;
        for (int i = 0; i < OA_AIPP_FMT_COUNT; i++) {
            if (strcmp(t, oa_aipp_format_name(i)) == 0) {
                m = i;
            }
        }
        if (m < 0 && parse_int(t, 0, OA_AIPP_FMT_COUNT - 1, &v)) {
            m = (int)v;
        }
        if (m < 0) {
            return field_error(lx, fd->name, t, line, "unknown input format");
        }
        *(int32_t *)base = m;
    } else if (fd->kind == K_BOOL) {
        bool b;
        if (strcmp(t, "true") == 0 || strcmp(t, "True") == 0 || strcmp(t, "t") == 0 || strcmp(t, "1") == 0) {
            b = true;
        } else if (strcmp(t, "false") == 0 || strcmp(t, "False") == 0 || strcmp(t, "f") == 0 ||
                   strcmp(t, "0") == 0) {
            b = false;
        } else {
            return field_error(lx, fd->name, t, line, "must be true or false");
        }
        *(bool *)base = b;
    } else if (fd->kind == K_U32 || fd->kind == K_REP_U32) {
        if (!parse_int(t, 0, UINT32_MAX, &v)) {
            return field_error(lx, fd->name, t, line, "must be an unsigned 32-bit integer");
        }
        if (fd->kind == K_REP_U32) {
            if (p->n_input_edge_idx >= OA_AIPP_MAX_EDGES) {
                return field_error(lx, fd->name, t, line, "too many values");
            }
            p->input_edge_idx[p->n_input_edge_idx++] = (uint32_t)v;
        } else {
            *(uint32_t *)base = (uint32_t)v;
        }
    } else if (fd->kind == K_I32 || fd->kind == K_REP_I32) {
        if (!parse_int(t, INT32_MIN, INT32_MAX, &v)) {
            return field_error(lx, fd->name, t, line, "must be a 32-bit integer");
        }
        if (*count == 0) {
            *(int32_t *)base = (int32_t)v;
        }
    } else {
        float f;
        if (!parse_float(t, &f)) {
            return field_error(lx, fd->name, t, line, "must be a finite number");
        }
        if (*count == 0) {
            *(float *)base = f;
        }
    }
    if (*count < 255) {
        (*count)++;
    }
    return OA_OK;
}

/* ---- validation and defaults ---- */

typedef struct block_state {
    uint8_t count[N_FIELDS];
    int line[N_FIELDS];
    int block_line;
} block_state;

static oa_status check_range(const lexer *lx, const block_state *bs, const oa_aipp_params *p, const char *name,
                             double lo, double hi)
{
    const int fi = field_index(name);
    const field_def *fd = &g_fields[fi];
    double v;
    char text[48];
    const char *base = (const char *)p + fd->off;
    if (bs->count[fi] == 0) {
        return OA_OK;
    }
    if (fd->kind == K_FLOAT || fd->kind == K_REP_F) {
        v = *(const float *)base;
        snprintf(text, sizeof text, "%g", v);
    } else if (fd->kind == K_U32) {
        v = *(const uint32_t *)base;
        snprintf(text, sizeof text, "%.0f", v);
    } else {
        v = *(const int32_t *)base;
        snprintf(text, sizeof text, "%.0f", v);
    }
    if (v < lo || v > hi) {
        char why[96];
        snprintf(why, sizeof why, "must be in [%g, %g]", lo, hi);
        return field_error(lx, name, text, bs->line[fi], why);
    }
    return OA_OK;
}

static oa_status validate_block(const lexer *lx, const block_state *bs, oa_aipp_params *p)
{
    oa_status st;
    char v[32];
    for (size_t i = 0; i < N_FIELDS; i++) {
        if (bs->count[i] > 1 && (g_fields[i].kind == K_REP_F || g_fields[i].kind == K_REP_I32)) {
            return field_error(lx, g_fields[i].name, "(repeated)", bs->line[i], "cannot be configured repeatedly");
        }
        if (bs->count[i] > 1 && g_fields[i].kind != K_REP_U32) {
            return field_error(lx, g_fields[i].name, "(repeated)", bs->line[i], "is set more than once");
        }
    }
    const int fmode = field_index("aipp_mode");
    if (p->aipp_mode != OA_AIPP_MODE_STATIC && p->aipp_mode != OA_AIPP_MODE_DYNAMIC) {
        return field_error(lx, "aipp_mode", bs->count[fmode] ? "undefined" : "(unset)",
                           bs->count[fmode] ? bs->line[fmode] : bs->block_line, "must be configured as static or dynamic");
    }
    if (p->aipp_mode == OA_AIPP_MODE_DYNAMIC) {
        if (p->max_src_image_size == 0) {
            return field_error(lx, "max_src_image_size", "0", bs->block_line,
                               "must be set to a value > 0 for dynamic AIPP");
        }
        return OA_OK;
    }
    const int ffmt = field_index("input_format");
    if (p->input_format == OA_AIPP_FMT_UNDEFINED) {
        return field_error(lx, "input_format", "(unset)", bs->count[ffmt] ? bs->line[ffmt] : bs->block_line,
                           "must be set for static AIPP");
    }
    static const char *const nonneg[] = {"src_image_size_w", "src_image_size_h", "load_start_pos_w",
                                         "load_start_pos_h", "crop_size_w", "resize_output_w",
                                         "resize_output_h", "left_padding_size", "right_padding_size",
                                         "top_padding_size", "bottom_padding_size"};
    for (size_t i = 0; i < sizeof nonneg / sizeof nonneg[0]; i++) {
        if ((st = check_range(lx, bs, p, nonneg[i], 0, 1e10)) != OA_OK) {
            return st;
        }
    }
    struct {
        const char *n;
        double lo, hi;
    } ranges[] = {{"src_image_size_w", 0, 4096}, {"src_image_size_h", 0, 4096}, {"load_start_pos_w", 0, 4095},
                  {"load_start_pos_h", 0, 4095}, {"crop_size_w", 0, 4096},      {"crop_size_h", 0, 4096},
                  {"left_padding_size", 0, 32},  {"right_padding_size", 0, 32}, {"top_padding_size", 0, 32},
                  {"bottom_padding_size", 0, 32}, {"padding_value", -65504, 65504},
                  {"cpadding_value", -65504, 65504}, {"mean_chn_0", 0, 255}, {"mean_chn_1", 0, 255},
                  {"mean_chn_2", 0, 255}, {"mean_chn_3", 0, 255}, {"min_chn_0", 0, 255}, {"min_chn_1", 0, 255},
                  {"min_chn_2", 0, 255}, {"min_chn_3", 0, 255}, {"var_reci_chn_0", -65504, 65504},
                  {"var_reci_chn_1", -65504, 65504}, {"var_reci_chn_2", -65504, 65504},
                  {"var_reci_chn_3", -65504, 65504}, {"output_bias_0", 0, 255}, {"output_bias_1", 0, 255},
                  {"output_bias_2", 0, 255}, {"input_bias_0", 0, 255}, {"input_bias_1", 0, 255},
                  {"input_bias_2", 0, 255}, {"raw_rgbir_to_f16_n", 0, 31}};
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        if ((st = check_range(lx, bs, p, ranges[i].n, ranges[i].lo, ranges[i].hi)) != OA_OK) {
            return st;
        }
    }
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) {
            char n[16];
            snprintf(n, sizeof n, "matrix_r%dc%d", r, c);
            if ((st = check_range(lx, bs, p, n, -32677, 32676)) != OA_OK) {
                return st;
            }
        }
    }
    const int fw = field_index("src_image_size_w"), fh = field_index("src_image_size_h");
    if (p->src_image_size_w == 1) {
        return field_error(lx, "src_image_size_w", "1", bs->line[fw], "must be 0 or in [2, 4096]");
    }
    if (p->input_format == OA_AIPP_FMT_YUV420SP_U8 && (p->src_image_size_w % 2 || p->src_image_size_h % 2)) {
        snprintf(v, sizeof v, "%d", (int)(p->src_image_size_w % 2 ? p->src_image_size_w : p->src_image_size_h));
        return field_error(lx, p->src_image_size_w % 2 ? "src_image_size_w" : "src_image_size_h", v,
                           bs->line[p->src_image_size_w % 2 ? fw : fh], "must be even for YUV420SP_U8");
    }
    if (p->resize) { /* docs/aipp.md "Resize" */
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED,
                       "E10055: The operation is not supported. Reason: aipp_op.resize true (line %d of %s): CANN "
                       "reserves resize in this version and does not document its interpolation.",
                       bs->line[field_index("resize")], lx->file);
    }
    if (p->csc_switch && p->input_format == OA_AIPP_FMT_YUV400_U8) {
        return field_error(lx, "csc_switch", "true", bs->line[field_index("csc_switch")],
                           "colour-space conversion is not allowed for YUV400_U8");
    }
    if (p->crop) {
        const int fsw = field_index("load_start_pos_w"), fsh = field_index("load_start_pos_h");
        if (p->src_image_size_w > 0 && (int64_t)p->load_start_pos_w + p->crop_size_w > p->src_image_size_w) {
            snprintf(v, sizeof v, "%d", (int)p->crop_size_w);
            return field_error(lx, "crop_size_w", v, bs->line[field_index("crop_size_w")],
                               "load_start_pos_w + crop_size_w exceeds src_image_size_w");
        }
        if (p->src_image_size_h > 0 && (int64_t)p->load_start_pos_h + p->crop_size_h > p->src_image_size_h) {
            snprintf(v, sizeof v, "%d", (int)p->crop_size_h);
            return field_error(lx, "crop_size_h", v, bs->line[field_index("crop_size_h")],
                               "load_start_pos_h + crop_size_h exceeds src_image_size_h");
        }
        const bool even_w = p->input_format == OA_AIPP_FMT_YUV420SP_U8 ||
                            p->input_format == OA_AIPP_FMT_YUV422SP_U8 || p->input_format == OA_AIPP_FMT_YUYV_U8;
        if (even_w && p->load_start_pos_w % 2) {
            snprintf(v, sizeof v, "%d", (int)p->load_start_pos_w);
            return field_error(lx, "load_start_pos_w", v, bs->line[fsw], "must be even for this input_format");
        }
        if (p->input_format == OA_AIPP_FMT_YUV420SP_U8 && p->load_start_pos_h % 2) {
            snprintf(v, sizeof v, "%d", (int)p->load_start_pos_h);
            return field_error(lx, "load_start_pos_h", v, bs->line[fsh], "must be even for YUV420SP_U8");
        }
    }
    return OA_OK;
}

/* CANN's defaults for a static block (docs/aipp.md "Defaults"). */
static void fill_defaults(const block_state *bs, oa_aipp_params *p)
{
    for (int k = 0; k < 4; k++) {
        if (bs->count[field_index("var_reci_chn_0") + k] == 0) {
            p->var_reci_chn[k] = 1.0f;
        }
    }
    if (p->aipp_mode != OA_AIPP_MODE_STATIC) {
        return;
    }
    if (p->csc_switch) {
        static const int32_t yuv2bgr[3][3] = {{298, 516, 0}, {298, -100, -208}, {298, 0, 409}};
        static const int32_t rgb2yuv[3][3] = {{66, 129, 25}, {-38, -74, 112}, {112, -94, -18}};
        const int32_t(*m)[3] = p->input_format == OA_AIPP_FMT_YUV420SP_U8 ? yuv2bgr : rgb2yuv;
        const int m0 = field_index("matrix_r0c0");
        for (int i = 0; i < 9; i++) {
            if (bs->count[m0 + i] == 0) {
                p->matrix[i / 3][i % 3] = m[i / 3][i % 3];
            }
        }
        static const int32_t bias[3] = {16, 128, 128};
        const int ob = field_index("output_bias_0"), ib = field_index("input_bias_0");
        for (int i = 0; i < 3; i++) {
            if (bs->count[ob + i] == 0) {
                p->output_bias[i] = bias[i];
            }
            if (bs->count[ib + i] == 0) {
                p->input_bias[i] = bias[i];
            }
        }
    }
    if (!p->crop) {
        p->load_start_pos_w = p->load_start_pos_h = p->crop_size_w = p->crop_size_h = 0;
    }
    if (!p->resize) {
        p->resize_output_w = p->resize_output_h = 0;
    }
    if (!p->padding) {
        p->left_padding_size = p->right_padding_size = p->top_padding_size = p->bottom_padding_size = 0;
    }
}

/* ---- grammar ---- */

static oa_status parse_block(lexer *lx, oa_aipp_params *p, block_state *bs)
{
    oa_status st;
    for (;;) {
        if ((st = lex_next(lx)) != OA_OK) {
            return st;
        }
        if (is_punct(lx, '}')) {
            return OA_OK;
        }
        if (is_punct(lx, ';') || is_punct(lx, ',')) {
            continue;
        }
        if (lx->kind == T_EOF) {
            return lex_error(lx, "missing '}' at the end of aipp_op");
        }
        if (lx->kind != T_IDENT) {
            return lex_error(lx, "a field name is expected");
        }
        const int fi = field_index(lx->text);
        if (fi < 0) {
            return field_error(lx, lx->text, "(any)", lx->tok_line, "unknown field of AippOpParams");
        }
        const field_def *fd = &g_fields[fi];
        bs->line[fi] = lx->tok_line;
        if ((st = lex_next(lx)) != OA_OK) {
            return st;
        }
        if (!is_punct(lx, ':')) {
            return field_error(lx, fd->name, lx->text, lx->tok_line, "':' and a value are expected");
        }
        if ((st = lex_next(lx)) != OA_OK) {
            return st;
        }
        if (is_punct(lx, '[')) { /* list form of a repeated field */
            bool repeated = fd->kind == K_REP_F || fd->kind == K_REP_I32 || fd->kind == K_REP_U32;
            if (!repeated) {
                return field_error(lx, fd->name, "[", lx->tok_line, "is not a repeated field");
            }
            for (;;) {
                if ((st = lex_next(lx)) != OA_OK) {
                    return st;
                }
                if (is_punct(lx, ']')) {
                    break;
                }
                if ((st = store_value(lx, p, fd, &bs->count[fi])) != OA_OK) {
                    return st;
                }
                if ((st = lex_next(lx)) != OA_OK) {
                    return st;
                }
                if (is_punct(lx, ']')) {
                    break;
                }
                if (!is_punct(lx, ',')) {
                    return field_error(lx, fd->name, lx->text, lx->tok_line, "',' or ']' expected in the list");
                }
            }
            continue;
        }
        if ((st = store_value(lx, p, fd, &bs->count[fi])) != OA_OK) {
            return st;
        }
    }
}

static oa_status check_positions(const lexer *lx, const oa_aipp_config *cfg)
{
    if (cfg->n_ops < 2) {
        return OA_OK;
    }
    const bool by_name = cfg->ops[0].related_input_name[0] != '\0';
    for (int i = 0; i < cfg->n_ops; i++) {
        const oa_aipp_params *a = &cfg->ops[i];
        if (by_name != (a->related_input_name[0] != '\0')) {
            return OA_FAIL(OA_E_PARAM,
                           "E10052: Cannot both set related_input_name and related_input_rank in %s: aipp_op at "
                           "line %d differs from the first one.",
                           lx->file, cfg->op_line[i]);
        }
        for (int j = 0; j < i; j++) {
            const oa_aipp_params *b = &cfg->ops[j];
            const bool same = by_name ? strcmp(a->related_input_name, b->related_input_name) == 0
                                      : a->related_input_rank == b->related_input_rank;
            if (same) {
                return OA_FAIL(OA_E_PARAM,
                               "E10052: Cannot insert aipp to the same position: aipp_op at lines %d and %d of %s "
                               "both name input %s.",
                               cfg->op_line[j], cfg->op_line[i], lx->file,
                               by_name ? a->related_input_name : "rank");
            }
        }
    }
    return OA_OK;
}

oa_status oa_aipp_config_parse(const char *text, size_t len, const char *name, oa_aipp_config *out)
{
    if (text == NULL || out == NULL) {
        return OA_FAIL(OA_E_PARAM, "aipp config: null argument");
    }
    memset(out, 0, sizeof *out);
    lexer lx = {.s = text, .end = text + len, .file = name ? name : "(config)", .line = 1};
    oa_status st;
    for (;;) {
        if ((st = lex_next(&lx)) != OA_OK) {
            return st;
        }
        if (lx.kind == T_EOF) {
            break;
        }
        if (lx.kind != T_IDENT) {
            return lex_error(&lx, "a message name (aipp_op) is expected");
        }
        if (strcmp(lx.text, "multi_shape_op") == 0) {
            return OA_FAIL(OA_E_FEATURE_UNSUPPORTED,
                           "E10055: The operation is not supported. Reason: multi_shape_op in %s (line %d) is not "
                           "supported yet.",
                           lx.file, lx.tok_line);
        }
        if (strcmp(lx.text, "aipp_op") != 0) {
            return OA_FAIL(OA_E_PARAM,
                           "E10001: Value %s for parameter --insert_op_conf is invalid. Reason: unknown field %s of "
                           "InsertNewOps at line %d.",
                           lx.file, lx.text, lx.tok_line);
        }
        if (out->n_ops >= OA_AIPP_MAX_OPS) {
            return lex_error(&lx, "too many aipp_op blocks (at most 16)");
        }
        const int block_line = lx.tok_line;
        if ((st = lex_next(&lx)) != OA_OK) {
            return st;
        }
        if (is_punct(&lx, ':')) {
            if ((st = lex_next(&lx)) != OA_OK) {
                return st;
            }
        }
        if (!is_punct(&lx, '{')) {
            return lex_error(&lx, "'{' expected after aipp_op");
        }
        oa_aipp_params *p = &out->ops[out->n_ops];
        block_state bs;
        memset(&bs, 0, sizeof bs);
        bs.block_line = block_line;
        if ((st = parse_block(&lx, p, &bs)) != OA_OK) {
            return st;
        }
        if ((st = validate_block(&lx, &bs, p)) != OA_OK) {
            return st;
        }
        fill_defaults(&bs, p);
        out->op_line[out->n_ops++] = block_line;
    }
    if (out->n_ops == 0) {
        return OA_FAIL(OA_E_PARAM,
                       "E10001: Value %s for parameter --insert_op_conf is invalid. Reason: no aipp_op block.",
                       lx.file);
    }
    return check_positions(&lx, out);
}

oa_status oa_aipp_config_load(const char *path, oa_aipp_config *out)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return OA_FAIL(OA_E_PARAM,
                       "E10001: Value %s for parameter --insert_op_conf is invalid. Reason: the file cannot be read.",
                       path);
    }
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 > cap) {
            cap = cap ? cap * 2 : 8192;
            if (cap > (16u << 20)) {
                free(buf);
                fclose(f);
                return OA_FAIL(OA_E_PARAM,
                               "E10001: Value %s for parameter --insert_op_conf is invalid. Reason: larger than "
                               "16 MiB.",
                               path);
            }
            char *nb = realloc(buf, cap);
            if (nb == NULL) {
                free(buf);
                fclose(f);
                return OA_FAIL(OA_E_NOMEM, "aipp config: out of memory");
            }
            buf = nb;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0) {
            break;
        }
    }
    const bool err = ferror(f) != 0;
    fclose(f);
    oa_status st = err ? OA_FAIL(OA_E_PARAM,
                                 "E10001: Value %s for parameter --insert_op_conf is invalid. Reason: read error.",
                                 path)
                       : oa_aipp_config_parse(buf ? buf : "", len, path, out);
    free(buf);
    return st;
}

/* Channels of the raw NHWC input per format (docs/aipp.md "Model input"). */
static int raw_channels(int32_t fmt)
{
    switch (fmt) {
    case OA_AIPP_FMT_YUV420SP_U8:
    case OA_AIPP_FMT_YUV400_U8:
        return 1;
    case OA_AIPP_FMT_YUYV_U8:
    case OA_AIPP_FMT_YUV422SP_U8:
        return 2;
    case OA_AIPP_FMT_RGB888_U8:
        return 3;
    default:
        return 4;
    }
}

oa_status oa_aipp_model_input(const oa_aipp_params *p, const char *input, const int64_t model_dims[4], bool nchw,
                              int64_t raw_dims[4], size_t *bytes)
{
    if (p == NULL || model_dims == NULL || raw_dims == NULL || bytes == NULL) {
        return OA_FAIL(OA_E_PARAM, "aipp model input: null argument");
    }
    const char *name = input ? input : "?";
    const int64_t n = model_dims[0], c = nchw ? model_dims[1] : model_dims[3];
    const int64_t h = nchw ? model_dims[2] : model_dims[1], w = nchw ? model_dims[3] : model_dims[2];
    if (n <= 0 || c <= 0 || h <= 0 || w <= 0) {
        return OA_FAIL(OA_E_PARAM,
                       "E10001: Value %s for parameter aipp_op.related_input_rank is invalid. Reason: AIPP needs a "
                       "static 4-D input; input %s has dims [%lld,%lld,%lld,%lld].",
                       name, name, (long long)model_dims[0], (long long)model_dims[1], (long long)model_dims[2],
                       (long long)model_dims[3]);
    }
    if (p->aipp_mode == OA_AIPP_MODE_DYNAMIC) {
        raw_dims[0] = n;
        raw_dims[1] = raw_dims[2] = raw_dims[3] = -1;
        *bytes = p->max_src_image_size;
        return OA_OK;
    }
    const int fc = oa_aipp_format_channels(p->input_format);
    if (fc == 0) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED,
                       "E10055: The operation is not supported. Reason: aipp_op.input_format %s is not supported "
                       "yet.",
                       oa_aipp_format_name(p->input_format));
    }
    if (c > fc) {
        return OA_FAIL(OA_E_PARAM,
                       "E10001: Value %s for parameter aipp_op.input_format is invalid. Reason: it gives %d "
                       "channel(s), input %s needs %lld.",
                       oa_aipp_format_name(p->input_format), fc, name, (long long)c);
    }
    const bool zero_src = p->src_image_size_w == 0 || p->src_image_size_h == 0;
    if (zero_src && (p->crop || p->padding)) {
        return OA_FAIL(OA_E_PARAM,
                       "E10001: Value 0 for parameter aipp_op.src_image_size_%s is invalid. Reason: a source size "
                       "of 0 (the model's) needs crop and padding off.",
                       p->src_image_size_w == 0 ? "w" : "h");
    }
    const int32_t sw = zero_src ? (int32_t)w : p->src_image_size_w;
    const int32_t sh = zero_src ? (int32_t)h : p->src_image_size_h;
    oa_aipp_params q = *p;
    if (q.crop && (q.crop_size_w == 0 || q.crop_size_h == 0)) {
        if (q.padding) {
            return OA_FAIL(OA_E_PARAM,
                           "E10001: Value 0 for parameter aipp_op.crop_size_%s is invalid. Reason: a crop size of "
                           "0 (the model's) needs padding off.",
                           q.crop_size_w == 0 ? "w" : "h");
        }
        q.crop_size_w = (int32_t)w;
        q.crop_size_h = (int32_t)h;
    }
    if (w > 4096 || h > 4096 || oa_aipp_image_bytes(q.input_format, sw, sh) == 0) {
        return OA_FAIL(OA_E_PARAM,
                       "E10001: Value %dx%d for parameter aipp_op.src_image_size_w/h is invalid. Reason: not a "
                       "valid %s image size.",
                       (int)sw, (int)sh, oa_aipp_format_name(q.input_format));
    }
    int32_t oh, ow;
    oa_aipp_output_hw(&q, sw, sh, &oh, &ow);
    if (oh != h || ow != w) {
        return OA_FAIL(OA_E_PARAM,
                       "E10001: Value %dx%d (HxW after crop and padding) for parameter aipp_op of input %s is "
                       "invalid. Reason: the model input is %lldx%lld.",
                       (int)oh, (int)ow, name, (long long)h, (long long)w);
    }
    size_t total;
    if (!oa_mul_size(oa_aipp_image_bytes(q.input_format, sw, sh), (size_t)n, &total)) {
        return OA_FAIL(OA_E_PARAM, "E10001: input %s: raw AIPP input size overflows", name);
    }
    raw_dims[0] = n;
    raw_dims[1] = sh;
    raw_dims[2] = sw;
    raw_dims[3] = raw_channels(q.input_format);
    *bytes = total;
    return OA_OK;
}

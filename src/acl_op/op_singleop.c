/*
 * `atc --singleop=<ops.json> --output=<dir>`: CANN's single-op description
 * file and file naming (op_singleop.h).
 *
 * The file is a JSON array; each element describes one operator:
 *   {"op": "Add", "name": "optional file stem",
 *    "input_desc":  [{"format": "ND", "type": "float16", "shape": [8, 16],
 *                     "shape_range": [[1, 16]], "origin_format": "ND", "origin_shape": [...],
 *                     "name": "x1", "dynamic_input": "x", "is_const": true, "const_value": [...]}, ...],
 *    "output_desc": [...],
 *    "attr": [{"name": "transpose_x1", "type": "bool", "value": true}, ...],
 *    "compile_flag": 0}
 * Formats and types are matched case-insensitively against CANN's lists
 * (ND, NCHW, NHWC, ..., float/float32, float16/half/fp16, int8, ...). An
 * element with "compile_flag": 1 is not an operator: CANN switches fuzzy
 * compilation on for the elements after it; here it is skipped the same way
 * (the CPU models are exact either way). Attribute types: bool, int,
 * float, string, list_bool, list_int, list_float, list_string,
 * list_list_int, data_type (a number or a "DT_*" name).
 *
 * Each operator is written as <name>.om when "name" is a valid file stem
 * ([A-Za-z0-9._-]+, not "." or "..", at most 128 characters), else as
 * <index>_<op>{_<dtype>_<format>{_<dim>}} over inputs then outputs, with
 * dtype and format as GE enum numbers (0_Add_1_2_8_16_1_2_8_16_1_2_8_16.om),
 * cut to 128 characters, plus ".om".
 *
 * Like op_write.c, this file calls no ACL-layer function.
 */
#include "acl_op/op_singleop.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "acl_op/op_exec.h"
#include "acl_op/op_load.h"
#include "base/error.h"
#include "base/fp16.h"
#include "base/log.h"
#include "base/util.h"
#include "graph/types.h"

#define MAX_FILE_NAME 128u

typedef struct name_val {
    const char *name;
    int value;
} name_val;

/* CANN's single-op JSON type names -> GE DataType. */

/* A JSON number truncated to int64_t as a C cast would, without the undefined conversion of a value out of
 * range (or NaN): false then. */
static bool json_trunc_int64(const cJSON *e, int64_t *out)
{
    const double d = e->valuedouble;
    if (!cJSON_IsNumber(e) || !(d > -9223372036854775809.0 && d < 9223372036854775808.0)) {
        return false;
    }
    *out = (int64_t)d;
    return true;
}

/* As above for a number that must be an integer. */
static bool json_int64(const cJSON *e, int64_t *out)
{
    return cJSON_IsNumber(e) && e->valuedouble == floor(e->valuedouble) && json_trunc_int64(e, out);
}

static const name_val k_types[] = {
    {"bool", 12},       {"int8", 2},         {"uint8", 4},          {"int16", 6},          {"uint16", 7},
    {"int32", 3},       {"uint32", 8},       {"int64", 9},          {"uint64", 10},        {"float16", 1},
    {"half", 1},        {"fp16", 1},         {"float", 0},          {"float32", 0},        {"double", 11},
    {"complex32", 33},  {"complex64", 16},   {"complex128", 17},    {"uint1", 30},         {"bfloat16", 27},
    {"int4", 29},       {"hifloat8", 34},    {"float8_e5m2", 35},   {"float8_e4m3fn", 36}, {"undefined", 28},
};

/* CANN's single-op JSON format names -> GE Format. */
static const name_val k_formats[] = {
    {"nchw", 0},          {"nhwc", 1},          {"nd", 2},            {"nc1hwc0", 3},       {"fractal_z", 4},
    {"nc1c0hwpad", 5},    {"nhwc1c0", 6},       {"fsr_nchw", 7},      {"fractal_deconv", 8}, {"c1hwnc0", 9},
    {"fractal_deconv_transpose", 10},            {"fractal_deconv_sp_stride_trans", 11},
    {"nc1hwc0_c04", 12},  {"fractal_z_c04", 13}, {"chwn", 14},         {"deconv_sp_stride8_trans", 15},
    {"hwcn", 16},         {"nc1khkwhwc0", 17},  {"bn_weight", 18},    {"filter_hwck", 19},
    {"lookup_lookups", 20}, {"lookup_keys", 21}, {"lookup_value", 22}, {"lookup_output", 23},
    {"lookup_hits", 24},  {"c1hwncoc0", 25},    {"md", 26},           {"ndhwc", 27},        {"fractal_zz", 28},
    {"fractal_nz", 29},   {"ncdhw", 30},        {"dhwcn", 31},        {"ndc1hwc0", 32},     {"fractal_z_3d", 33},
    {"cn", 34},           {"nc", 35},           {"dhwnc", 36},        {"fractal_z_3d_transpose", 37},
    {"fractal_zn_lstm", 38}, {"fractal_z_g", 39}, {"reserved", 40},
};

#define GE_DT_UNDEFINED 28
#define GE_FORMAT_RESERVED 40

static bool lookup(const name_val *t, size_t n, const char *s, int *out)
{
    char low[64];
    size_t i = 0;
    for (; s[i] != '\0' && i + 1 < sizeof(low); ++i) {
        low[i] = (char)tolower((unsigned char)s[i]);
    }
    low[i] = '\0';
    for (size_t k = 0; k < n; ++k) {
        if (strcmp(t[k].name, low) == 0) {
            *out = t[k].value;
            return true;
        }
    }
    return false;
}

/* ---- parsed descriptions ---- */

typedef struct json_tensor {
    int dtype, format;
    bool valid;
    int64_t dims[OA_MAX_RANK + 1];
    size_t ndims;
    int64_t ranges[OA_MAX_RANK][2];
    size_t nranges;
    char name[160]; /* dyn_name and a count */
    char dyn_name[128];
    bool is_const;
    void *cdata;
    size_t clen;
} json_tensor;

static void tensors_free(json_tensor *t, int n)
{
    for (int i = 0; t != NULL && i < n; ++i) {
        free(t[i].cdata);
    }
    free(t);
}

static oa_status int_list(const cJSON *a, const char *what, int64_t *out, size_t cap, size_t *n)
{
    if (!cJSON_IsArray(a)) {
        return OA_FAIL(OA_E_PARAM, "[%s] must be a list of integers", what);
    }
    *n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, a)
    {
        int64_t v = 0;
        if (!json_int64(e, &v)) {
            return OA_FAIL(OA_E_PARAM, "[%s] must be a list of integers", what);
        }
        if (*n == cap) {
            return OA_FAIL(OA_E_PARAM, "[%s] has more than %zu entries", what, cap);
        }
        out[(*n)++] = v;
    }
    return OA_OK;
}

static oa_status const_value(const cJSON *cv, json_tensor *t, const char *what)
{
    const int n = cJSON_GetArraySize(cv);
    size_t esz;
    switch (t->dtype) {
    case 2: case 4: esz = 1; break;          /* int8, uint8 */
    case 6: case 7: case 1: esz = 2; break;  /* int16, uint16, float16 */
    case 3: case 8: case 0: esz = 4; break;  /* int32, uint32, float */
    case 9: case 10: case 11: esz = 8; break; /* int64, uint64, double */
    default:
        OA_LOGE("%s: const_value of type %d is not supported", what, t->dtype);
        return OA_OK; /* CANN reports and goes on with no data */
    }
    t->cdata = calloc((size_t)n + 1, esz);
    if (t->cdata == NULL) {
        return OA_FAIL(OA_E_NOMEM, "const_value");
    }
    t->clen = (size_t)n * esz;
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cv)
    {
        if (!cJSON_IsNumber(e)) {
            return OA_FAIL(OA_E_PARAM, "%s: const_value must hold numbers", what);
        }
        const double v = e->valuedouble;
        unsigned char *p = (unsigned char *)t->cdata + (size_t)i * esz;
        if (t->dtype == 1) {
            const uint16_t h = oa_f32_to_f16((float)v);
            memcpy(p, &h, 2);
        } else if (t->dtype == 0) {
            const float f = (float)v;
            memcpy(p, &f, 4);
        } else if (t->dtype == 11) {
            memcpy(p, &v, 8);
        } else {
            int64_t iv = 0;
            if (!json_trunc_int64(e, &iv)) {
                return OA_FAIL(OA_E_PARAM, "%s: const_value %g does not fit 64 bits", what, v);
            }
            memcpy(p, &iv, esz); /* little endian: the low bytes, as the unsigned casts of CANN */
        }
        ++i;
    }
    return OA_OK;
}

static oa_status parse_tensor(const cJSON *j, json_tensor *t, const char *what)
{
    memset(t, 0, sizeof(*t));
    t->valid = true;
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(j, "shape");
    const cJSON *format = cJSON_GetObjectItemCaseSensitive(j, "format");
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(j, "type");
    if (!cJSON_IsObject(j) || shape == NULL || !cJSON_IsString(format) || !cJSON_IsString(type)) {
        return OA_FAIL(OA_E_PARAM, "%s needs \"shape\", \"format\" and \"type\"", what);
    }
    oa_status st = int_list(shape, what, t->dims, OA_MAX_RANK + 1, &t->ndims);
    if (st != OA_OK) {
        return st;
    }
    if (!lookup(k_formats, OA_ARRAY_SIZE(k_formats), format->valuestring, &t->format)) {
        t->format = GE_FORMAT_RESERVED;
        t->valid = false;
    }
    if (!lookup(k_types, OA_ARRAY_SIZE(k_types), type->valuestring, &t->dtype)) {
        t->dtype = GE_DT_UNDEFINED;
        t->valid = false;
    }
    const cJSON *of = cJSON_GetObjectItemCaseSensitive(j, "origin_format");
    int ofv;
    if (of != NULL && (!cJSON_IsString(of) || !lookup(k_formats, OA_ARRAY_SIZE(k_formats), of->valuestring, &ofv))) {
        t->valid = false;
    }
    const cJSON *sr = cJSON_GetObjectItemCaseSensitive(j, "shape_range");
    if (sr != NULL) {
        if (!cJSON_IsArray(sr)) {
            return OA_FAIL(OA_E_PARAM, "%s: shape_range must be a list of [min, max] pairs", what);
        }
        const cJSON *r;
        cJSON_ArrayForEach(r, sr)
        {
            int64_t pair[3];
            size_t np;
            st = int_list(r, "shape_range", pair, 3, &np);
            if (st != OA_OK) {
                return st;
            }
            if (np != 2) {
                return OA_FAIL(OA_E_PARAM, "%s: the format of shape range %zu is invalid: %zu values, expected 2",
                               what, t->nranges, np);
            }
            if (t->nranges == OA_MAX_RANK) {
                return OA_FAIL(OA_E_PARAM, "%s: too many shape ranges", what);
            }
            t->ranges[t->nranges][0] = pair[0];
            t->ranges[t->nranges][1] = pair[1];
            t->nranges++;
        }
    }
    const cJSON *nm = cJSON_GetObjectItemCaseSensitive(j, "name");
    if (cJSON_IsString(nm)) {
        (void)oa_strlcpy(t->name, nm->valuestring, sizeof t->name);
    }
    const cJSON *dn = cJSON_GetObjectItemCaseSensitive(j, "dynamic_input");
    if (cJSON_IsString(dn)) {
        (void)oa_strlcpy(t->dyn_name, dn->valuestring, sizeof t->dyn_name);
    }
    const cJSON *ic = cJSON_GetObjectItemCaseSensitive(j, "is_const");
    if (ic != NULL) {
        if (!cJSON_IsBool(ic)) {
            return OA_FAIL(OA_E_PARAM, "%s: is_const must be true or false", what);
        }
        t->is_const = cJSON_IsTrue(ic);
    }
    const cJSON *cv = cJSON_GetObjectItemCaseSensitive(j, "const_value");
    if (cJSON_IsArray(cv)) {
        st = const_value(cv, t, what);
    }
    return st;
}

/* CANN's SetShapeRange checks: -1 dims need one range each, -2 stands alone without ranges. */
static oa_status check_ranges(const json_tensor *t, const char *op, const char *what)
{
    size_t unknown = 0;
    for (size_t k = 0; k < t->ndims; ++k) {
        if (t->dims[k] == -2) {
            if (t->ndims != 1) {
                return OA_FAIL(OA_E_PARAM,
                               "op %s %s: the tensor has unknown rank, so its shape must be set to {-2}", op, what);
            }
            if (t->nranges != 0) {
                return OA_FAIL(OA_E_PARAM, "op %s %s: a shape range is not allowed with an unknown rank", op, what);
            }
            return OA_OK;
        }
        if (t->dims[k] == -1) {
            ++unknown;
        } else if (t->dims[k] < 0) {
            return OA_FAIL(OA_E_PARAM, "op %s %s: dim %lld is invalid", op, what, (long long)t->dims[k]);
        }
    }
    if (unknown != t->nranges) {
        return OA_FAIL(OA_E_PARAM,
                       "op %s %s: %zu shape ranges for %zu dynamic dims; the number of dimensions with a configured "
                       "shape range must equal the number of dynamic dimensions",
                       op, what, t->nranges, unknown);
    }
    return OA_OK;
}

static oa_status set_attr(aclopAttr *a, const cJSON *j, const char *op)
{
    const cJSON *nm = cJSON_GetObjectItemCaseSensitive(j, "name");
    const cJSON *ty = cJSON_GetObjectItemCaseSensitive(j, "type");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "value");
    if (!cJSON_IsString(nm) || nm->valuestring[0] == '\0') {
        return OA_FAIL(OA_E_PARAM, "[Parse][Attr]attr name of op %s is empty", op);
    }
    const char *name = nm->valuestring;
    if (!cJSON_IsString(ty) || v == NULL) {
        return OA_FAIL(OA_E_PARAM, "[Parse][Attr] op %s: value of attr name:\"%s\" is empty", op, name);
    }
    const char *t = ty->valuestring;
    oa_status st = OA_OK;
    bool bad = false;
    if (strcmp(t, "bool") == 0) {
        bad = !cJSON_IsBool(v);
        if (!bad) {
            st = oa_opattr_set_bool(a, name, cJSON_IsTrue(v));
        }
    } else if (strcmp(t, "int") == 0) {
        int64_t iv = 0;
        bad = !json_trunc_int64(v, &iv);
        if (!bad) {
            st = oa_opattr_set_int(a, name, iv);
        }
    } else if (strcmp(t, "float") == 0) {
        bad = !cJSON_IsNumber(v);
        if (!bad) {
            st = oa_opattr_set_float(a, name, (float)v->valuedouble);
        }
    } else if (strcmp(t, "string") == 0) {
        bad = !cJSON_IsString(v);
        if (!bad) {
            st = oa_opattr_set_string(a, name, v->valuestring);
        }
    } else if (strcmp(t, "data_type") == 0) {
        int dt = -1;
        if (cJSON_IsString(v)) {
            oa_dtype d;
            if (oa_dtype_from_name(v->valuestring, &d)) {
                dt = (int)d;
            }
        } else if (cJSON_IsNumber(v)) {
            int64_t iv = -1;
            dt = json_trunc_int64(v, &iv) && iv >= 0 && iv <= INT32_MAX ? (int)iv : -1;
        }
        bad = dt < 0;
        if (!bad) {
            st = oa_opattr_set_dtype(a, name, dt);
        }
    } else if (strncmp(t, "list_", 5) == 0 && cJSON_IsArray(v)) {
        const int n = cJSON_GetArraySize(v);
        const char *et = t + 5;
        void *buf = calloc((size_t)n + 1, sizeof(int64_t) > sizeof(char *) ? sizeof(int64_t) : sizeof(char *));
        size_t *lens = NULL;
        int64_t **rows = NULL;
        if (buf == NULL) {
            return OA_FAIL(OA_E_NOMEM, "attribute");
        }
        int i = 0;
        const cJSON *e;
        if (strcmp(et, "list_int") == 0) {
            lens = calloc((size_t)n + 1, sizeof(size_t));
            rows = calloc((size_t)n + 1, sizeof(int64_t *));
            bad = lens == NULL || rows == NULL;
        }
        cJSON_ArrayForEach(e, v)
        {
            if (bad) {
                break;
            }
            if (strcmp(et, "bool") == 0) {
                bad = !cJSON_IsBool(e);
                ((bool *)buf)[i] = cJSON_IsTrue(e);
            } else if (strcmp(et, "int") == 0) {
                bad = !json_trunc_int64(e, &((int64_t *)buf)[i]);
            } else if (strcmp(et, "float") == 0) {
                bad = !cJSON_IsNumber(e);
                ((float *)buf)[i] = (float)e->valuedouble;
            } else if (strcmp(et, "string") == 0) {
                bad = !cJSON_IsString(e);
                ((const char **)buf)[i] = e->valuestring;
            } else if (strcmp(et, "list_int") == 0) {
                const int m = cJSON_GetArraySize(e);
                rows[i] = calloc((size_t)m + 1, sizeof(int64_t));
                bad = !cJSON_IsArray(e) || rows[i] == NULL ||
                      int_list(e, name, rows[i], (size_t)m + 1, &lens[i]) != OA_OK;
            } else {
                bad = true;
            }
            ++i;
        }
        if (!bad) {
            if (strcmp(et, "bool") == 0) {
                st = oa_opattr_set_list_bool(a, name, (size_t)n, buf);
            } else if (strcmp(et, "int") == 0) {
                st = oa_opattr_set_list_int(a, name, (size_t)n, buf);
            } else if (strcmp(et, "float") == 0) {
                st = oa_opattr_set_list_float(a, name, (size_t)n, buf);
            } else if (strcmp(et, "string") == 0) {
                st = oa_opattr_set_list_string(a, name, (size_t)n, buf);
            } else if (strcmp(et, "list_int") == 0) {
                st = oa_opattr_set_list_list_int(a, name, (size_t)n, lens, (const int64_t *const *)rows);
            }
        }
        for (int k = 0; rows != NULL && k < n; ++k) {
            free(rows[k]);
        }
        free(rows);
        free(lens);
        free(buf);
    } else {
        return OA_FAIL(OA_E_PARAM, "[Find][JsonAttr] name=%s, type=%s failed for Unsupported type.", name, t);
    }
    if (bad) {
        return OA_FAIL(OA_E_PARAM, "op %s attr %s: the value does not fit type %s", op, name, t);
    }
    return st;
}

static bool valid_stem(const char *s)
{
    if (s[0] == '\0' || strcmp(s, ".") == 0 || strcmp(s, "..") == 0) {
        return false;
    }
    for (const char *p = s; *p != '\0'; ++p) {
        if (!isalnum((unsigned char)*p) && *p != '.' && *p != '_' && *p != '-') {
            return false;
        }
    }
    return true;
}

static void append(char *buf, size_t cap, size_t *len, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const int n = *len < cap ? vsnprintf(buf + *len, cap - *len, fmt, ap) : 0;
    va_end(ap);
    if (n > 0) {
        *len += (size_t)n;
    }
}

void oa_singleop_file_name(const char *name, int index, const char *op, const oa_singleop_tensor_name *in, int n_in,
                           const oa_singleop_tensor_name *out, int n_out, char *buf, size_t cap)
{
    char stem[4096];
    if (name != NULL) {
        (void)oa_strlcpy(stem, name, MAX_FILE_NAME + 1);
        if (valid_stem(stem)) {
            snprintf(buf, cap, "%s.om", stem);
            return;
        }
    }
    size_t len = 0;
    append(stem, sizeof stem, &len, "%d_%s", index, op);
    for (int side = 0; side < 2; ++side) {
        const oa_singleop_tensor_name *t = side ? out : in;
        const int n = side ? n_out : n_in;
        for (int i = 0; i < n; ++i) {
            append(stem, sizeof stem, &len, "_%d_%d", t[i].dtype, t[i].format);
            for (size_t k = 0; k < t[i].ndims; ++k) {
                append(stem, sizeof stem, &len, "_%lld", (long long)t[i].dims[k]);
            }
        }
    }
    stem[OA_MIN(len, (size_t)MAX_FILE_NAME)] = '\0';
    snprintf(buf, cap, "%s.om", stem);
}

static void fill_spec_tensor(oa_opspec_tensor *s, const json_tensor *t)
{
    memset(s, 0, sizeof(*s));
    s->dtype = t->dtype == GE_DT_UNDEFINED ? ACL_DT_UNDEFINED : (aclDataType)t->dtype;
    s->format = t->format == GE_FORMAT_RESERVED ? ACL_FORMAT_UNDEFINED : (aclFormat)t->format;
    s->dims = t->dims;
    s->ndims = t->ndims;
    /* shape ranges cover the -1 dims in order; the IR wants one per dim */
    s->absent = t->dtype == GE_DT_UNDEFINED && t->format == GE_FORMAT_RESERVED;
    s->is_const = t->is_const;
    s->const_data = t->cdata;
    s->const_len = t->clen;
    s->name = t->name[0] != '\0' ? t->name : NULL;
}

/* Ranges for every dim: static dims [d, d], dynamic ones from the list in order. */
static void full_ranges(const json_tensor *t, int64_t (*r)[2], size_t *n)
{
    size_t next = 0;
    *n = 0;
    if (t->nranges == 0) {
        return;
    }
    for (size_t k = 0; k < t->ndims; ++k) {
        if (t->dims[k] == -1 && next < t->nranges) {
            r[k][0] = t->ranges[next][0];
            r[k][1] = t->ranges[next][1];
            ++next;
        } else {
            r[k][0] = r[k][1] = t->dims[k];
        }
    }
    *n = t->ndims;
}

static oa_status build_one(const cJSON *j, int index, const oa_singleop_opts *o, bool write, size_t *written)
{
    const cJSON *op = cJSON_GetObjectItemCaseSensitive(j, "op");
    if (!cJSON_IsString(op) || op->valuestring[0] == '\0') {
        return OA_FAIL(OA_E_PARAM, "[Check][Param] op %d: the \"op\" field (op type) is empty", index);
    }
    const char *type = op->valuestring;
    const cJSON *ins = cJSON_GetObjectItemCaseSensitive(j, "input_desc");
    const cJSON *outs = cJSON_GetObjectItemCaseSensitive(j, "output_desc");
    const cJSON *attrs = cJSON_GetObjectItemCaseSensitive(j, "attr");
    const int n_in = cJSON_IsArray(ins) ? cJSON_GetArraySize(ins) : 0;
    const int n_out = cJSON_IsArray(outs) ? cJSON_GetArraySize(outs) : 0;
    json_tensor *ti = calloc((size_t)n_in + 1, sizeof(*ti));
    json_tensor *to = calloc((size_t)n_out + 1, sizeof(*to));
    oa_opspec_tensor *si = calloc((size_t)n_in + 1, sizeof(*si));
    oa_opspec_tensor *so = calloc((size_t)n_out + 1, sizeof(*so));
    int64_t(*ri)[OA_MAX_RANK][2] = calloc((size_t)n_in + 1, sizeof(*ri));
    int64_t(*ro)[OA_MAX_RANK][2] = calloc((size_t)n_out + 1, sizeof(*ro));
    oa_singleop_tensor_name *ni = calloc((size_t)n_in + 1, sizeof(*ni));
    oa_singleop_tensor_name *nout = calloc((size_t)n_out + 1, sizeof(*nout));
    aclopAttr *a = oa_opattr_create();
    oa_status st = OA_OK;
    if (ti == NULL || to == NULL || si == NULL || so == NULL || ri == NULL || ro == NULL || ni == NULL ||
        nout == NULL || a == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "single-op description");
    }
    char what[64];
    int k = 0;
    const cJSON *e;
    if (st == OA_OK && n_in > 0) {
        cJSON_ArrayForEach(e, ins)
        {
            snprintf(what, sizeof what, "input %d", k);
            if (st == OA_OK) {
                st = parse_tensor(e, &ti[k], what);
            }
            ++k;
        }
    }
    k = 0;
    if (st == OA_OK && n_out > 0) {
        cJSON_ArrayForEach(e, outs)
        {
            snprintf(what, sizeof what, "output %d", k);
            if (st == OA_OK) {
                st = parse_tensor(e, &to[k], what);
            }
            ++k;
        }
    }
    /* dynamic input names: x0, x1, ... per name */
    for (int i = 0; i < n_in && st == OA_OK; ++i) {
        if (ti[i].dyn_name[0] == '\0') {
            continue;
        }
        int count = 0;
        for (int p = 0; p < i; ++p) {
            count += strcmp(ti[p].dyn_name, ti[i].dyn_name) == 0;
        }
        snprintf(ti[i].name, sizeof ti[i].name, "%s%d", ti[i].dyn_name, count);
    }
    /* CANN's Validate */
    for (int i = 0; i < n_in && st == OA_OK; ++i) {
        const bool undef = ti[i].dtype == GE_DT_UNDEFINED, reserved = ti[i].format == GE_FORMAT_RESERVED;
        if ((undef && !reserved) || (!undef && reserved) || !ti[i].valid) {
            st = OA_FAIL(OA_E_PARAM, "[Check][Param] The attribute [%s] of [input] tensor[%d] for Op [%s] is invalid!",
                         undef && !reserved ? "datatype" : (!undef && reserved ? "format" : "dataType or format"), i,
                         type);
        }
    }
    for (int i = 0; i < n_out && st == OA_OK; ++i) {
        if (to[i].dtype == GE_DT_UNDEFINED || to[i].format == GE_FORMAT_RESERVED || !to[i].valid) {
            st = OA_FAIL(OA_E_PARAM, "[Check][Param] The attribute [%s] of [output] tensor[%d] for Op [%s] is invalid!",
                         to[i].dtype == GE_DT_UNDEFINED ? "datatype"
                         : to[i].format == GE_FORMAT_RESERVED ? "format" : "dataType or format",
                         i, type);
        }
    }
    if (st == OA_OK && cJSON_IsArray(attrs)) {
        cJSON_ArrayForEach(e, attrs)
        {
            if (st == OA_OK) {
                st = set_attr(a, e, type);
            }
        }
    }
    for (int i = 0; i < n_in && st == OA_OK; ++i) {
        snprintf(what, sizeof what, "input %d", i);
        st = check_ranges(&ti[i], type, what);
        fill_spec_tensor(&si[i], &ti[i]);
        full_ranges(&ti[i], ri[i], &si[i].nrange);
        si[i].range = (const int64_t(*)[2])ri[i];
        ni[i].dtype = ti[i].dtype;
        ni[i].format = ti[i].format;
        ni[i].dims = ti[i].dims;
        ni[i].ndims = ti[i].ndims;
    }
    for (int i = 0; i < n_out && st == OA_OK; ++i) {
        snprintf(what, sizeof what, "output %d", i);
        st = check_ranges(&to[i], type, what);
        fill_spec_tensor(&so[i], &to[i]);
        full_ranges(&to[i], ro[i], &so[i].nrange);
        so[i].range = (const int64_t(*)[2])ro[i];
        nout[i].dtype = to[i].dtype;
        nout[i].format = to[i].format;
        nout[i].dims = to[i].dims;
        nout[i].ndims = to[i].ndims;
    }
    if (st == OA_OK && write) {
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(j, "name");
        char file[MAX_FILE_NAME + 8];
        oa_singleop_file_name(cJSON_IsString(nm) ? nm->valuestring : NULL, index, type, ni, n_in, nout, n_out, file,
                              sizeof file);
        const size_t plen = strlen(o->out_dir) + strlen(file) + 2;
        char *path = malloc(plen);
        if (path == NULL) {
            st = OA_FAIL(OA_E_NOMEM, "model path");
        } else {
            snprintf(path, plen, "%s/%s", o->out_dir, file);
            const oa_opspec spec = {.type = type, .attr = a, .n_in = n_in, .n_out = n_out, .in = si, .out = so};
            st = oa_opmodel_write(&spec, o->soc_version, o->atc_cmdline, path, NULL, NULL);
            if (st == OA_OK) {
                OA_LOGI("single-op model %s written", path);
                if (o->on_written != NULL) {
                    o->on_written(o->ctx, path);
                }
                ++*written;
            }
            free(path);
        }
    }
    oa_opattr_destroy(a);
    tensors_free(ti, n_in);
    tensors_free(to, n_out);
    free(si);
    free(so);
    free(ri);
    free(ro);
    free(ni);
    free(nout);
    return st;
}

oa_status oa_singleop_build(const char *json_text, size_t len, const oa_singleop_opts *o, size_t *written)
{
    *written = 0;
    cJSON *root = cJSON_ParseWithLength(json_text, len);
    if (root == NULL) {
        return OA_FAIL(OA_E_PARAM, "[Parse][JsonFile] the --singleop file is not valid JSON (near byte %td)",
                       cJSON_GetErrorPtr() != NULL ? cJSON_GetErrorPtr() - json_text : (ptrdiff_t)-1);
    }
    if (!cJSON_IsArray(root)) {
        cJSON_Delete(root);
        return OA_FAIL(OA_E_PARAM, "[Parse][JsonFile] the --singleop file must hold a list of operators");
    }
    struct stat sb;
    if (stat(o->out_dir, &sb) != 0) {
        if (mkdir(o->out_dir, 0750) != 0 && errno != EEXIST) {
            const int e = errno;
            cJSON_Delete(root);
            return OA_FAIL(OA_E_PARAM, "cannot create the output directory %s (%s)", o->out_dir, strerror(e));
        }
    } else if (!S_ISDIR(sb.st_mode)) {
        cJSON_Delete(root);
        return OA_FAIL(OA_E_PARAM, "--output=%s is not a directory", o->out_dir);
    }
    /* CANN parses and checks the whole list first, then builds every op, going on after a failed one */
    oa_status st = OA_OK;
    for (int pass = 0; pass < 2 && st == OA_OK; ++pass) {
        int index = 0;
        const cJSON *e;
        cJSON_ArrayForEach(e, root)
        {
            if (pass == 0 && st != OA_OK) {
                break;
            }
            const cJSON *cf = cJSON_GetObjectItemCaseSensitive(e, "compile_flag");
            if (cJSON_IsNumber(cf) && cf->valuedouble == 1.0) {
                continue; /* a flag entry: CANN skips it (fuzzy compile of the following ops) */
            }
            const oa_status s1 = build_one(e, index, o, pass == 1, written);
            if (s1 != OA_OK && st == OA_OK) {
                st = s1;
            }
            ++index;
        }
        if (pass == 1) {
            break;
        }
    }
    cJSON_Delete(root);
    return st;
}

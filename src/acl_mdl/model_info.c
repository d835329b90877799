/* oa_model_info: construction, sharing and the pure queries (model_info.h). */
#include "acl_mdl/model_info.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"

#define CONVERT_PREFIX "acl_modelId_"
#define CONVERT_MAX_LETTERS 3u
/* A `_dynamic_output_dims` entry is [gear, output, dims...]. */
#define OUTPUT_SHAPE_MIN 2u
#define OUTPUT_SHAPE_MAX (OUTPUT_SHAPE_MIN + (size_t)ACL_MAX_DIM_CNT)

/* ---- small allocation helpers ---- */

static void *dup_array(const void *src, size_t n, size_t elem, bool *ok)
{
    *ok = true;
    if (n == 0) {
        return NULL;
    }
    size_t bytes;
    if (src == NULL || !oa_mul_size(n, elem, &bytes)) {
        *ok = false;
        return NULL;
    }
    void *p = malloc(bytes);
    if (p == NULL) {
        *ok = false;
        return NULL;
    }
    memcpy(p, src, bytes);
    return p;
}

static bool grow(void **arr, size_t count, size_t elem)
{
    size_t bytes;
    if (!oa_mul_size(count + 1, elem, &bytes)) {
        return false;
    }
    void *n = realloc(*arr, bytes);
    if (n == NULL) {
        return false;
    }
    *arr = n;
    memset((unsigned char *)n + count * elem, 0, elem);
    return true;
}

static void io_dims_free(oa_model_io_dims *d, size_t n)
{
    for (size_t i = 0; d != NULL && i < n; ++i) {
        free(d[i].name);
        free(d[i].dims);
    }
    free(d);
}

static void aipp_free(oa_model_aipp *a)
{
    if (a == NULL) {
        return;
    }
    io_dims_free(a->in_dims, a->n_shapes);
    io_dims_free(a->out_dims, a->n_shapes);
    free(a);
}

static void tensor_free(oa_model_tensor *t)
{
    free(t->name);
    free(t->dims);
    free(t->dims_v2);
    free(t->ranges);
    aipp_free(t->aipp);
}

static void op_attr_free(oa_model_op_attr *a)
{
    free(a->op_name);
    free(a->attr_name);
    for (size_t i = 0; i < a->n_values; ++i) {
        free(a->values[i]);
    }
    free(a->values);
    memset(a, 0, sizeof(*a));
}

static void info_destroy(oa_model_info *info)
{
    for (size_t i = 0; i < info->n_inputs; ++i) {
        tensor_free(&info->inputs[i]);
    }
    free(info->inputs);
    for (size_t i = 0; i < info->n_outputs; ++i) {
        tensor_free(&info->outputs[i]);
    }
    free(info->outputs);
    free(info->gears);
    for (size_t i = 0; i < info->n_shape_order; ++i) {
        free(info->shape_order[i]);
    }
    free(info->shape_order);
    for (size_t i = 0; i < info->n_output_shapes; ++i) {
        free(info->output_shapes[i].v);
    }
    free(info->output_shapes);
    for (size_t i = 0; i < info->n_op_attrs; ++i) {
        op_attr_free(&info->op_attrs[i]);
    }
    free(info->op_attrs);
    free(info);
}

/* ---- construction ---- */

oa_model_info *oa_model_info_create(void)
{
    oa_model_info *info = calloc(1, sizeof(*info));
    if (info == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "cannot allocate a model description");
        return NULL;
    }
    info->refcount = 1;
    info->gear_input = SIZE_MAX;
    info->route = OA_ROUTE_V1;
    return info;
}

static oa_status tensor_init(oa_model_tensor *t, const oa_model_tensor_spec *spec)
{
    bool ok1;
    bool ok2;
    bool ok3;
    memset(t, 0, sizeof(*t));
    t->name = oa_strdup(spec->name != NULL ? spec->name : "");
    t->dtype = spec->dtype;
    t->format = spec->format;
    t->size = spec->size;
    t->n_dims = spec->n_dims;
    t->dims = dup_array(spec->dims, spec->n_dims, sizeof(int64_t), &ok1);
    if (spec->dims_v2 == NULL && spec->n_dims_v2 == 0) {
        t->n_dims_v2 = spec->n_dims;
        t->dims_v2 = dup_array(spec->dims, spec->n_dims, sizeof(int64_t), &ok2);
    } else {
        t->n_dims_v2 = spec->n_dims_v2;
        t->dims_v2 = dup_array(spec->dims_v2, spec->n_dims_v2, sizeof(int64_t), &ok2);
    }
    t->n_ranges = spec->n_ranges;
    t->ranges = dup_array(spec->ranges, spec->n_ranges, sizeof(oa_model_range), &ok3);
    if (t->name == NULL || !ok1 || !ok2 || !ok3) {
        tensor_free(t);
        memset(t, 0, sizeof(*t));
        return OA_FAIL(OA_E_NOMEM, "cannot copy the description of tensor [%s]",
                       spec->name != NULL ? spec->name : "");
    }
    return OA_OK;
}

static oa_status add_tensor(oa_model_tensor **arr, size_t *count, const oa_model_tensor_spec *spec, size_t *index)
{
    if (spec == NULL) {
        return OA_FAIL(OA_E_PARAM, "tensor description must not be null");
    }
    if (!grow((void **)arr, *count, sizeof(oa_model_tensor))) {
        return OA_FAIL(OA_E_NOMEM, "cannot grow the tensor list");
    }
    oa_status st = tensor_init(&(*arr)[*count], spec);
    if (st != OA_OK) {
        return st;
    }
    if (index != NULL) {
        *index = *count;
    }
    ++*count;
    return OA_OK;
}

oa_status oa_model_info_add_input(oa_model_info *info, const oa_model_tensor_spec *spec, size_t *index)
{
    size_t idx;
    oa_status st = add_tensor(&info->inputs, &info->n_inputs, spec, &idx);
    if (st != OA_OK) {
        return st;
    }
    oa_model_tensor *t = &info->inputs[idx];
    if (strcmp(t->name, ACL_DYNAMIC_TENSOR_NAME) == 0) {
        t->flags |= OA_TENSOR_GEAR_INPUT;
        info->gear_input = idx;
    } else if (strcmp(t->name, ACL_DYNAMIC_AIPP_NAME) == 0) {
        t->flags |= OA_TENSOR_DYNAMIC_AIPP_DATA;
    }
    if (index != NULL) {
        *index = idx;
    }
    return OA_OK;
}

oa_status oa_model_info_add_output(oa_model_info *info, const oa_model_tensor_spec *spec, size_t *index)
{
    return add_tensor(&info->outputs, &info->n_outputs, spec, index);
}

static oa_status io_dims_copy(oa_model_io_dims **dst, const oa_model_io_dims *src, size_t n)
{
    *dst = NULL;
    if (n == 0) {
        return OA_OK;
    }
    if (src == NULL) {
        return OA_FAIL(OA_E_PARAM, "AIPP dims list of %zu entries is null", n);
    }
    oa_model_io_dims *d = calloc(n, sizeof(*d));
    if (d == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot copy AIPP dims");
    }
    for (size_t i = 0; i < n; ++i) {
        bool ok;
        d[i].size = src[i].size;
        d[i].n_dims = src[i].n_dims;
        d[i].dims = dup_array(src[i].dims, src[i].n_dims, sizeof(int64_t), &ok);
        d[i].name = src[i].name != NULL ? oa_strdup(src[i].name) : NULL;
        if (!ok || (src[i].name != NULL && d[i].name == NULL)) {
            io_dims_free(d, n);
            return OA_FAIL(OA_E_NOMEM, "cannot copy AIPP dims");
        }
    }
    *dst = d;
    return OA_OK;
}

oa_status oa_model_info_set_aipp(oa_model_info *info, size_t index, const oa_model_aipp *aipp)
{
    if (index >= info->n_inputs || aipp == NULL) {
        return OA_FAIL(OA_E_PARAM, "AIPP for input [%zu] of %zu inputs", index, info->n_inputs);
    }
    oa_model_aipp *a = malloc(sizeof(*a));
    if (a == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot copy AIPP facts");
    }
    *a = *aipp;
    a->in_dims = NULL;
    a->out_dims = NULL;
    oa_status st = io_dims_copy(&a->in_dims, aipp->in_dims, aipp->n_shapes);
    if (st == OA_OK) {
        st = io_dims_copy(&a->out_dims, aipp->out_dims, aipp->n_shapes);
    }
    if (st != OA_OK) {
        aipp_free(a);
        return st;
    }
    aipp_free(info->inputs[index].aipp);
    info->inputs[index].aipp = a;
    return OA_OK;
}

oa_status oa_model_info_set_gears(oa_model_info *info, int32_t ge_dynamic_type, size_t n_gears, const size_t *lens,
                                  const int64_t *const *gears)
{
    free(info->gears);
    info->gears = NULL;
    info->n_gears = 0;
    info->gear_len = 0;
    info->dynamic_kind = OA_DYNAMIC_NONE;
    if (n_gears == 0) {
        return OA_OK;
    }
    if (lens == NULL || gears == NULL) {
        return OA_FAIL(OA_E_PARAM, "gear list of %zu gears is null", n_gears);
    }
    const size_t len = lens[0];
    oa_model_dynamic_kind kind;
    if (ge_dynamic_type == (int32_t)OA_DYNAMIC_DIMS) {
        kind = OA_DYNAMIC_DIMS;
    } else if (len == 1) {
        kind = OA_DYNAMIC_BATCH;
    } else if (len == 2) {
        kind = OA_DYNAMIC_HW;
    } else {
        return OA_FAIL(OA_E_GE_FAILURE, "dynamic model info invalid: a gear of %zu values with dynamic type %d", len,
                       (int)ge_dynamic_type);
    }
    for (size_t i = 0; i < n_gears; ++i) {
        if (lens[i] != len) {
            return OA_FAIL(OA_E_GE_FAILURE, "dynamic model info invalid: gear %zu has %zu values while gear 0 has %zu",
                           i, lens[i], len);
        }
    }
    size_t total;
    if (!oa_mul_size(n_gears, len, &total)) {
        return OA_FAIL(OA_E_GE_FAILURE, "dynamic model info invalid: %zu gears of %zu values", n_gears, len);
    }
    uint64_t *g = NULL;
    if (total > 0) {
        g = malloc(total * sizeof(uint64_t));
        if (g == NULL) {
            return OA_FAIL(OA_E_NOMEM, "cannot copy %zu gears", n_gears);
        }
        for (size_t i = 0; i < n_gears; ++i) {
            for (size_t j = 0; j < len; ++j) {
                g[i * len + j] = (uint64_t)gears[i][j];
            }
        }
    }
    info->gears = g;
    info->n_gears = n_gears;
    info->gear_len = len;
    info->dynamic_kind = kind;
    return OA_OK;
}

oa_status oa_model_info_set_shape_order(oa_model_info *info, size_t n, const char *const *names)
{
    char **copy = NULL;
    if (n > 0) {
        if (names == NULL) {
            return OA_FAIL(OA_E_PARAM, "shape order of %zu names is null", n);
        }
        copy = calloc(n, sizeof(*copy));
        if (copy == NULL) {
            return OA_FAIL(OA_E_NOMEM, "cannot copy the shape order");
        }
        for (size_t i = 0; i < n; ++i) {
            copy[i] = oa_strdup(names[i] != NULL ? names[i] : "");
            if (copy[i] == NULL) {
                for (size_t j = 0; j < i; ++j) {
                    free(copy[j]);
                }
                free(copy);
                return OA_FAIL(OA_E_NOMEM, "cannot copy the shape order");
            }
        }
    }
    for (size_t i = 0; i < info->n_shape_order; ++i) {
        free(info->shape_order[i]);
    }
    free(info->shape_order);
    info->shape_order = copy;
    info->n_shape_order = n;
    return OA_OK;
}

oa_status oa_model_parse_output_shape(const char *s, size_t len, int64_t **out, size_t *n)
{
    /* At most one number per byte plus the last one. */
    int64_t *v = malloc((len + 1) * sizeof(int64_t));
    if (v == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot parse a dynamic output shape of %zu bytes", len);
    }
    size_t cnt = 0;
    uint64_t val = 0; /* wraps on absurd inputs instead of overflowing a signed type */
    bool negative = false;
    for (size_t i = 0; i < len; ++i) {
        const char c = s[i];
        if (c >= '0' && c <= '9') {
            val = val * 10u + (uint64_t)(c - '0');
        } else if (c == '-') {
            negative = true;
        } else {
            v[cnt++] = negative ? (int64_t)(0u - val) : (int64_t)val;
            val = 0;
            negative = false;
        }
    }
    v[cnt++] = negative ? (int64_t)(0u - val) : (int64_t)val;
    *out = v;
    *n = cnt;
    return OA_OK;
}

oa_status oa_model_info_add_output_shape(oa_model_info *info, const char *s, size_t len)
{
    if (s == NULL && len > 0) {
        return OA_FAIL(OA_E_PARAM, "dynamic output shape string is null");
    }
    if (!grow((void **)&info->output_shapes, info->n_output_shapes, sizeof(oa_model_output_shape))) {
        return OA_FAIL(OA_E_NOMEM, "cannot grow the dynamic output shape list");
    }
    oa_model_output_shape *e = &info->output_shapes[info->n_output_shapes];
    oa_status st = oa_model_parse_output_shape(s != NULL ? s : "", len, &e->v, &e->n);
    if (st != OA_OK) {
        return st;
    }
    ++info->n_output_shapes;
    return OA_OK;
}

oa_status oa_model_info_add_op_attr(oa_model_info *info, const char *op_name, const char *attr_name, size_t n,
                                    const char *const *values)
{
    if (op_name == NULL || attr_name == NULL || (n > 0 && values == NULL)) {
        return OA_FAIL(OA_E_PARAM, "op attribute with a null name or value list");
    }
    for (size_t i = 0; i < info->n_op_attrs; ++i) {
        if (strcmp(info->op_attrs[i].op_name, op_name) == 0 && strcmp(info->op_attrs[i].attr_name, attr_name) == 0) {
            return OA_OK;
        }
    }
    if (!grow((void **)&info->op_attrs, info->n_op_attrs, sizeof(oa_model_op_attr))) {
        return OA_FAIL(OA_E_NOMEM, "cannot grow the op attribute list");
    }
    oa_model_op_attr *a = &info->op_attrs[info->n_op_attrs];
    a->op_name = oa_strdup(op_name);
    a->attr_name = oa_strdup(attr_name);
    a->values = n > 0 ? calloc(n, sizeof(char *)) : NULL;
    bool ok = a->op_name != NULL && a->attr_name != NULL && (n == 0 || a->values != NULL);
    for (size_t i = 0; ok && i < n; ++i) {
        a->values[i] = oa_strdup(values[i] != NULL ? values[i] : "");
        if (a->values[i] == NULL) {
            ok = false;
        } else {
            a->n_values = i + 1;
        }
    }
    if (!ok) {
        op_attr_free(a);
        return OA_FAIL(OA_E_NOMEM, "cannot copy an op attribute");
    }
    ++info->n_op_attrs;
    return OA_OK;
}

oa_status oa_model_op_attr_value(const oa_model_info *info, const char *op_name, const char *attr_name, char **out)
{
    const oa_model_op_attr *a = NULL;
    for (size_t i = 0; i < info->n_op_attrs; ++i) {
        if (strcmp(info->op_attrs[i].op_name, op_name) == 0 && strcmp(info->op_attrs[i].attr_name, attr_name) == 0) {
            a = &info->op_attrs[i];
            break;
        }
    }
    size_t total = 1;
    for (size_t i = 0; a != NULL && i < a->n_values; ++i) {
        total += strlen(a->values[i]) + 24; /* "[" + decimal length + "]" */
    }
    char *s = malloc(total);
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot build the value of attribute [%s] of op [%s]", attr_name, op_name);
    }
    size_t pos = 0;
    s[0] = '\0';
    for (size_t i = 0; a != NULL && i < a->n_values; ++i) {
        const int w = snprintf(s + pos, total - pos, "[%zu]%s", strlen(a->values[i]), a->values[i]);
        if (w > 0) {
            pos += (size_t)w;
        }
    }
    *out = s;
    return OA_OK;
}

/* ---- sharing ---- */

oa_model_info *oa_model_info_retain(oa_model_info *info)
{
    if (info != NULL) {
        __atomic_add_fetch(&info->refcount, 1, __ATOMIC_RELAXED);
    }
    return info;
}

void oa_model_info_release(oa_model_info *info)
{
    if (info != NULL && __atomic_sub_fetch(&info->refcount, 1, __ATOMIC_ACQ_REL) == 0) {
        info_destroy(info);
    }
}

/* ---- queries ---- */

size_t oa_model_tensor_size(const oa_model_tensor *t)
{
    bool need_range = false;
    for (size_t i = 0; i < t->n_dims; ++i) {
        if (t->dims[i] < 0) {
            need_range = true;
            break;
        }
    }
    if (!need_range || t->n_ranges == 0) {
        return t->size;
    }
    size_t size = aclDataTypeSize(t->dtype);
    for (size_t i = 0; i < t->n_ranges; ++i) {
        if (t->ranges[i].max <= 0) {
            OA_LOGI("max of shape range [%zu] of tensor [%s] is %lld: size 0", i, t->name,
                    (long long)t->ranges[i].max);
            return 0;
        }
        if (!oa_mul_size(size, (size_t)t->ranges[i].max, &size)) {
            return 0;
        }
    }
    return size;
}

static bool is_real_name(const oa_model_info *info, const char *name)
{
    for (size_t i = 0; i < info->n_inputs; ++i) {
        if (strcmp(info->inputs[i].name, name) == 0) {
            return true;
        }
    }
    for (size_t i = 0; i < info->n_outputs; ++i) {
        if (strcmp(info->outputs[i].name, name) == 0) {
            return true;
        }
    }
    return false;
}

/*
 * Breadth-first over suffixes "a".."z", "aa".."zz", "aaa".."zzz" appended
 * after "<base>_": the first that is not a real tensor name.
 */
static bool first_free_suffix(const oa_model_info *info, const char *base, char *out, size_t cap)
{
    const size_t blen = strlen(base);
    if (blen + 2 + CONVERT_MAX_LETTERS > cap) {
        return false;
    }
    memcpy(out, base, blen);
    out[blen] = '_';
    char *letters = out + blen + 1;
    for (size_t len = 1; len <= CONVERT_MAX_LETTERS; ++len) {
        size_t combos = 1;
        for (size_t i = 0; i < len; ++i) {
            combos *= 26u;
        }
        for (size_t k = 0; k < combos; ++k) {
            size_t rem = k;
            for (size_t i = len; i-- > 0;) {
                letters[i] = (char)('a' + (int)(rem % 26u));
                rem /= 26u;
            }
            letters[len] = '\0';
            if (!is_real_name(info, out)) {
                return true;
            }
        }
    }
    return false;
}

void oa_model_io_name(const oa_model_info *info, uint32_t model_id, bool is_input, size_t idx,
                      char out[ACL_MAX_TENSOR_NAME_LEN])
{
    const oa_model_tensor *t = is_input ? &info->inputs[idx] : &info->outputs[idx];
    const size_t len = strlen(t->name);
    if (len + 1 <= ACL_MAX_TENSOR_NAME_LEN) {
        memcpy(out, t->name, len + 1);
        return;
    }
    char base[ACL_MAX_TENSOR_NAME_LEN];
    (void)snprintf(base, sizeof(base), CONVERT_PREFIX "%u_%s_%zu", model_id, is_input ? "input" : "output", idx);
    OA_LOGI("tensor name of %zu bytes does not fit, reported as [%s]", len, base);
    if (!is_real_name(info, base)) {
        memcpy(out, base, strlen(base) + 1);
        return;
    }
    if (!first_free_suffix(info, base, out, ACL_MAX_TENSOR_NAME_LEN)) {
        OA_LOGW("no free suffix for the synthesized tensor name [%s]; it may clash with a real name", base);
        memcpy(out, base, strlen(base) + 1);
    }
}

oa_status oa_model_get_io_dims(const oa_model_info *info, uint32_t model_id, bool is_input, bool v2, size_t idx,
                           aclmdlIODims *dims)
{
    oa_model_io_name(info, model_id, is_input, idx, dims->name);
    const oa_model_tensor *t = is_input ? &info->inputs[idx] : &info->outputs[idx];
    const size_t n = v2 ? t->n_dims_v2 : t->n_dims;
    const int64_t *d = v2 ? t->dims_v2 : t->dims;
    if (n > ACL_MAX_DIM_CNT) {
        return OA_FAIL(OA_E_STORAGE_OVER_LIMIT, "get dims failed, dims count[%zu] cannot be larger than max[%d]", n,
                       ACL_MAX_DIM_CNT);
    }
    dims->dimCount = n;
    if (n > 0) {
        memcpy(dims->dims, d, n * sizeof(int64_t));
    }
    return OA_OK;
}

static bool all_digits(const char *s, size_t n)
{
    if (n == 0) {
        return false;
    }
    for (size_t i = 0; i < n; ++i) {
        if (s[i] < '0' || s[i] > '9') {
            return false;
        }
    }
    return true;
}

/* Parses n decimal digits; false on overflow of unsigned long (strtoul's ERANGE). */
static bool parse_ulong(const char *s, size_t n, unsigned long *out)
{
    char buf[64];
    if (n >= sizeof(buf)) {
        return false;
    }
    memcpy(buf, s, n);
    buf[n] = '\0';
    errno = 0;
    const unsigned long v = strtoul(buf, NULL, 10);
    if (errno != 0) {
        return false;
    }
    *out = v;
    return true;
}

const char *oa_model_real_tensor_name(const oa_model_info *info, uint32_t model_id, const char *name)
{
    for (size_t i = 0; i < info->n_inputs; ++i) {
        if (strcmp(info->inputs[i].name, name) == 0) {
            return info->inputs[i].name;
        }
    }
    for (size_t i = 0; i < info->n_outputs; ++i) {
        if (strcmp(info->outputs[i].name, name) == 0) {
            return info->outputs[i].name;
        }
    }
    /* Split at every '_' (empty parts kept): acl _ modelId _ <id> _ input|output _ <idx> [_ <suffix>]. */
    const char *part[6];
    size_t plen[6];
    size_t parts = 0;
    const char *p = name;
    for (;;) {
        const char *us = strchr(p, '_');
        const size_t n = us != NULL ? (size_t)(us - p) : strlen(p);
        if (parts == 6) {
            return NULL;
        }
        part[parts] = p;
        plen[parts] = n;
        ++parts;
        if (us == NULL) {
            break;
        }
        p = us + 1;
    }
    if (parts != 5 && parts != 6) {
        return NULL;
    }
    if (plen[0] != 3 || memcmp(part[0], "acl", 3) != 0 || plen[1] != 7 || memcmp(part[1], "modelId", 7) != 0 ||
        !all_digits(part[2], plen[2])) {
        return NULL;
    }
    unsigned long id;
    if (!parse_ulong(part[2], plen[2], &id) || id > UINT32_MAX || (uint32_t)id != model_id) {
        return NULL;
    }
    unsigned long idx;
    if (!all_digits(part[4], plen[4]) || !parse_ulong(part[4], plen[4], &idx)) {
        return NULL;
    }
    if (plen[3] == 5 && memcmp(part[3], "input", 5) == 0) {
        return idx < info->n_inputs ? info->inputs[idx].name : NULL;
    }
    if (plen[3] == 6 && memcmp(part[3], "output", 6) == 0) {
        return idx < info->n_outputs ? info->outputs[idx].name : NULL;
    }
    return NULL;
}

bool oa_model_find_gear(const oa_model_info *info, const uint64_t *values, size_t n, size_t *gear)
{
    if (n != info->gear_len) {
        return false;
    }
    for (size_t i = 0; i < info->n_gears; ++i) {
        if (n == 0 || memcmp(&info->gears[i * n], values, n * sizeof(uint64_t)) == 0) {
            *gear = i;
            return true;
        }
    }
    return false;
}

oa_status oa_model_cur_output_dims(const oa_model_info *info, oa_model_dynamic_kind kind, const uint64_t *cur,
                                   size_t n, size_t output, aclmdlIODims *dims)
{
    oa_model_dynamic_kind wanted;
    if (kind == OA_DYNAMIC_DIMS) {
        wanted = OA_DYNAMIC_DIMS;
    } else if (n == 1) {
        wanted = OA_DYNAMIC_BATCH;
    } else if (n == 2) {
        wanted = OA_DYNAMIC_HW;
    } else {
        return OA_FAIL(OA_E_FAILURE, "current shape of %zu values with dynamic type %d selects no gear", n,
                       (int)kind);
    }
    size_t gear = 0;
    if (info->dynamic_kind != wanted || !oa_model_find_gear(info, cur, n, &gear)) {
        return OA_FAIL(OA_E_FAILURE, "the current shape matches no gear of the model (%zu gears)", info->n_gears);
    }
    for (size_t i = 0; i < info->n_output_shapes; ++i) {
        const oa_model_output_shape *e = &info->output_shapes[i];
        if (e->n < OUTPUT_SHAPE_MIN || e->n > OUTPUT_SHAPE_MAX) {
            return OA_FAIL(OA_E_FAILURE, "dynamic output shape entry of %zu values is invalid, range is [%zu, %zu]",
                           e->n, (size_t)OUTPUT_SHAPE_MIN, (size_t)OUTPUT_SHAPE_MAX);
        }
        if ((e->v[0] == (int64_t)gear || e->v[0] == -1) && e->v[1] == (int64_t)output) {
            for (size_t k = OUTPUT_SHAPE_MIN; k < e->n; ++k) {
                dims->dims[k - OUTPUT_SHAPE_MIN] = e->v[k];
            }
            dims->dimCount = e->n - OUTPUT_SHAPE_MIN;
            return OA_OK;
        }
    }
    return OA_FAIL(OA_E_FAILURE, "no dynamic output shape for gear %zu, output %zu", gear, output);
}

oa_status oa_model_dims_request_to_gear(const oa_model_info *info, const uint64_t *user, size_t n, uint64_t **out,
                                        size_t *n_out)
{
    size_t total = 0;
    for (size_t k = 0; k < info->n_shape_order; ++k) {
        size_t idx;
        if (oa_model_find_input(info, info->shape_order[k], &idx)) {
            total += info->inputs[idx].n_dims;
        }
    }
    if (n != total) {
        return OA_FAIL(OA_E_GE_DYN_INPUT_LENGTH, "dynamic input size [%zu] is not equal with all data dims size [%zu]",
                       n, total);
    }
    uint64_t *g = malloc((total + 1) * sizeof(uint64_t));
    if (g == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot build the requested gear");
    }
    size_t pos = 0;
    size_t cnt = 0;
    for (size_t k = 0; k < info->n_shape_order; ++k) {
        size_t idx;
        if (!oa_model_find_input(info, info->shape_order[k], &idx)) {
            continue;
        }
        const oa_model_tensor *t = &info->inputs[idx];
        for (size_t d = 0; d < t->n_dims; ++d, ++pos) {
            if (t->dims[d] < 0) {
                g[cnt++] = user[pos];
            } else if ((uint64_t)t->dims[d] != user[pos]) {
                free(g);
                return OA_FAIL(OA_E_GE_DYN_INPUT_LENGTH, "static dims should be same, index:%zu value:%llu should be %lld",
                               pos, (unsigned long long)user[pos], (long long)t->dims[d]);
            }
        }
    }
    *out = g;
    *n_out = cnt;
    return OA_OK;
}

bool oa_model_find_input(const oa_model_info *info, const char *name, size_t *index)
{
    for (size_t i = 0; i < info->n_inputs; ++i) {
        if (strcmp(info->inputs[i].name, name) == 0) {
            *index = i;
            return true;
        }
    }
    return false;
}

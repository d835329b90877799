/*
 * Tables and helpers for GE dtypes, formats, shapes and descriptors
 * (types.h). Tables are generated from dtype_defs.inc / format_defs.inc.
 */
#include "graph/types.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"

typedef struct dtype_info {
    bool valid;
    int proto;
    unsigned bits;
    const char *name;
} dtype_info;

static const dtype_info DTYPES[OA_DT_MAX] = {
#define OA_DTYPE(n, ge, proto, bits, str) [ge] = {true, proto, bits, str},
#include "graph/dtype_defs.inc"
#undef OA_DTYPE
};

bool oa_dtype_valid(int dt)
{
    return dt >= 0 && dt < OA_DT_MAX && DTYPES[dt].valid;
}

const char *oa_dtype_name(oa_dtype dt)
{
    return oa_dtype_valid((int)dt) ? DTYPES[dt].name : "DT_INVALID";
}

const char *oa_dtype_short_name(oa_dtype dt)
{
    switch (dt) {
    case OA_DT_FLOAT: return "f32";
    case OA_DT_FLOAT16: return "f16";
    case OA_DT_BF16: return "bf16";
    case OA_DT_DOUBLE: return "f64";
    case OA_DT_INT8: return "i8";
    case OA_DT_INT16: return "i16";
    case OA_DT_INT32: return "i32";
    case OA_DT_INT64: return "i64";
    case OA_DT_UINT8: return "u8";
    case OA_DT_UINT16: return "u16";
    case OA_DT_UINT32: return "u32";
    case OA_DT_UINT64: return "u64";
    case OA_DT_BOOL: return "bool";
    case OA_DT_STRING: return "str";
    case OA_DT_UNDEFINED: return "undef";
    default: return oa_dtype_name(dt);
    }
}

unsigned oa_dtype_bits(oa_dtype dt)
{
    return oa_dtype_valid((int)dt) ? DTYPES[dt].bits : 0;
}

size_t oa_dtype_size(oa_dtype dt)
{
    unsigned b = oa_dtype_bits(dt);
    return (b % 8 == 0) ? b / 8 : 0;
}

size_t oa_dtype_align(oa_dtype dt)
{
    const size_t s = oa_dtype_size(dt);
    return s < 1 ? 1 : s > 16 ? 16 : s;
}

int oa_dtype_to_proto(oa_dtype dt)
{
    return oa_dtype_valid((int)dt) ? DTYPES[dt].proto : 0;
}

oa_dtype oa_dtype_from_proto(int proto)
{
    for (int i = 0; i < OA_DT_MAX; i++) {
        if (DTYPES[i].valid && DTYPES[i].proto == proto) {
            return (oa_dtype)i;
        }
    }
    return OA_DT_UNDEFINED;
}

bool oa_dtype_from_name(const char *name, oa_dtype *out)
{
    static const struct {
        const char *alias;
        oa_dtype dt;
    } ALIASES[] = {
        {"float", OA_DT_FLOAT}, {"float32", OA_DT_FLOAT}, {"float16", OA_DT_FLOAT16},
        {"bfloat16", OA_DT_BF16}, {"double", OA_DT_DOUBLE}, {"float64", OA_DT_DOUBLE},
        {"int8", OA_DT_INT8}, {"int16", OA_DT_INT16}, {"int32", OA_DT_INT32},
        {"int64", OA_DT_INT64}, {"uint8", OA_DT_UINT8}, {"uint16", OA_DT_UINT16},
        {"uint32", OA_DT_UINT32}, {"uint64", OA_DT_UINT64}, {"bool", OA_DT_BOOL},
        {"string", OA_DT_STRING},
    };
    if (name == NULL) {
        return false;
    }
    for (int i = 0; i < OA_DT_MAX; i++) {
        if (DTYPES[i].valid && strcmp(DTYPES[i].name, name) == 0) {
            *out = (oa_dtype)i;
            return true;
        }
    }
    for (size_t i = 0; i < OA_ARRAY_SIZE(ALIASES); i++) {
        if (strcasecmp(ALIASES[i].alias, name) == 0) {
            *out = ALIASES[i].dt;
            return true;
        }
    }
    return false;
}

bool oa_dtype_is_float(oa_dtype dt)
{
    switch (dt) {
    case OA_DT_FLOAT:
    case OA_DT_FLOAT16:
    case OA_DT_BF16:
    case OA_DT_DOUBLE:
    case OA_DT_HIFLOAT8:
    case OA_DT_FLOAT8_E5M2:
    case OA_DT_FLOAT8_E4M3FN:
    case OA_DT_FLOAT8_E8M0:
    case OA_DT_FLOAT6_E3M2:
    case OA_DT_FLOAT6_E2M3:
    case OA_DT_FLOAT4_E2M1:
    case OA_DT_FLOAT4_E1M2:
    case OA_DT_HIFLOAT4:
        return true;
    default:
        return false;
    }
}

bool oa_dtype_is_int(oa_dtype dt)
{
    switch (dt) {
    case OA_DT_INT8:
    case OA_DT_INT16:
    case OA_DT_INT32:
    case OA_DT_INT64:
    case OA_DT_UINT8:
    case OA_DT_UINT16:
    case OA_DT_UINT32:
    case OA_DT_UINT64:
    case OA_DT_INT4:
    case OA_DT_INT2:
    case OA_DT_UINT1:
    case OA_DT_UINT2:
        return true;
    default:
        return false;
    }
}

bool oa_dtype_is_signed(oa_dtype dt)
{
    switch (dt) {
    case OA_DT_INT8:
    case OA_DT_INT16:
    case OA_DT_INT32:
    case OA_DT_INT64:
    case OA_DT_INT4:
    case OA_DT_INT2:
        return true;
    default:
        return oa_dtype_is_float(dt);
    }
}

typedef struct format_info {
    bool valid;
    const char *name;
} format_info;

static const format_info FORMATS[OA_FORMAT_END] = {
#define OA_FORMAT(n, v, str) [v] = {true, str},
#include "graph/format_defs.inc"
#undef OA_FORMAT
};

const char *oa_format_name(oa_format f)
{
    unsigned p = (unsigned)f & 0xffu;
    if (p < OA_FORMAT_END && FORMATS[p].valid) {
        return FORMATS[p].name;
    }
    return "RESERVED";
}

bool oa_format_from_name(const char *name, oa_format *out)
{
    if (name == NULL) {
        return false;
    }
    for (int i = 0; i < OA_FORMAT_END; i++) {
        if (FORMATS[i].valid && strcmp(FORMATS[i].name, name) == 0) {
            *out = (oa_format)i;
            return true;
        }
    }
    if (strcmp(name, "RESERVED") == 0) {
        *out = OA_FORMAT_RESERVED;
        return true;
    }
    return false;
}

oa_shape oa_shape_make(int32_t rank, const int64_t *dims)
{
    oa_shape s;
    memset(&s, 0, sizeof(s));
    if (rank < 0 || rank > OA_MAX_RANK) {
        s.rank = OA_RANK_UNKNOWN;
        return s;
    }
    s.rank = rank;
    for (int32_t i = 0; i < rank; i++) {
        s.dims[i] = dims[i];
    }
    return s;
}

oa_shape oa_shape_unknown_rank(void)
{
    oa_shape s;
    memset(&s, 0, sizeof(s));
    s.rank = OA_RANK_UNKNOWN;
    return s;
}

oa_shape oa_shape_scalar(void)
{
    oa_shape s;
    memset(&s, 0, sizeof(s));
    return s;
}

bool oa_shape_is_static(const oa_shape *s)
{
    if (s->rank < 0) {
        return false;
    }
    for (int32_t i = 0; i < s->rank; i++) {
        if (s->dims[i] < 0) {
            return false;
        }
    }
    return true;
}

bool oa_shape_equal(const oa_shape *a, const oa_shape *b)
{
    if (a->rank != b->rank) {
        return false;
    }
    for (int32_t i = 0; i < a->rank; i++) {
        if (a->dims[i] != b->dims[i]) {
            return false;
        }
    }
    return true;
}

bool oa_shape_numel(const oa_shape *s, int64_t *out)
{
    if (!oa_shape_is_static(s)) {
        return false;
    }
    int64_t n = 1;
    for (int32_t i = 0; i < s->rank; i++) {
        if (!oa_mul_i64(n, s->dims[i], &n)) {
            return false;
        }
    }
    *out = n;
    return true;
}

char *oa_shape_str(const oa_shape *s, char *buf, size_t cap)
{
    size_t pos = 0;
    if (cap == 0) {
        return buf;
    }
    buf[0] = '\0';
    if (s->rank < 0) {
        snprintf(buf, cap, "[-2]");
        return buf;
    }
    int n = snprintf(buf, cap, "[");
    pos = n > 0 ? (size_t)n : 0;
    for (int32_t i = 0; i < s->rank && pos < cap; i++) {
        n = snprintf(buf + pos, cap - pos, "%s%" PRId64, i ? "," : "", s->dims[i]);
        if (n < 0) {
            break;
        }
        pos += (size_t)n;
    }
    if (pos < cap) {
        snprintf(buf + pos, cap - pos, "]");
    }
    return buf;
}

bool oa_value_all_known(const oa_value *v)
{
    if (v->unknown == NULL) {
        return true;
    }
    for (int64_t k = 0; k < v->count; k++) {
        if (v->unknown[k]) {
            return false;
        }
    }
    return true;
}

void oa_desc_init(oa_tensor_desc *d)
{
    memset(d, 0, sizeof(*d));
    d->dtype = OA_DT_FLOAT;
    d->format = OA_FORMAT_ND;
    d->origin_format = OA_FORMAT_ND;
    d->shape.rank = OA_RANK_UNKNOWN;
}

void oa_desc_init_invalid(oa_tensor_desc *d)
{
    memset(d, 0, sizeof(*d));
    d->dtype = OA_DT_UNDEFINED;
    d->format = OA_FORMAT_RESERVED;
    d->origin_format = OA_FORMAT_RESERVED;
    d->shape.rank = 0;
}

void oa_desc_set(oa_tensor_desc *d, oa_dtype dt, const oa_shape *s)
{
    d->dtype = dt;
    d->shape = *s;
    d->format = OA_FORMAT_ND;
    d->origin_format = OA_FORMAT_ND;
    d->has_range = false;
    d->value = NULL;
}

bool oa_desc_is_invalid(const oa_tensor_desc *d)
{
    return d->dtype == OA_DT_UNDEFINED && d->format == OA_FORMAT_RESERVED;
}

bool oa_tensor_nbytes(oa_dtype dt, const oa_shape *s, size_t *out)
{
    int64_t n;
    unsigned bits = oa_dtype_bits(dt);
    if (bits == 0 || !oa_shape_numel(s, &n) || n < 0) {
        return false;
    }
    size_t total;
    if (!oa_mul_size((size_t)n, bits, &total) || !oa_add_size(total, 7, &total)) {
        return false;
    }
    total /= 8;
    if (total > (size_t)INT64_MAX) {
        return false;
    }
    *out = total;
    return true;
}

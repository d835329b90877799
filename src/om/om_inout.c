/*
 * om_inout: the MODEL_INOUT_INFO TLV partition (see om_inout.h): a
 * bounds-checked cursor for reading, a two-pass writer.
 */
#define OA_LOG_MODULE "GE"
#include "om/om_inout.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"

/* ---- reader ------------------------------------------------------------ */

typedef struct cursor {
    const uint8_t *p;
    size_t n;
    size_t pos;
    size_t base; /* offset of p inside the partition, for messages */
    const char *rec;
} cursor;

static oa_status short_of(const cursor *c, size_t want, const char *item)
{
    return OA_FAIL(OA_E_GE_FAILURE,
                   "[Parse][InOutInfo] %s record: %s needs %zu bytes at partition offset %zu, %zu left", c->rec, item,
                   want, c->base + c->pos, c->n - c->pos);
}

static oa_status take(cursor *c, size_t want, const char *item, const uint8_t **out)
{
    if (c->n - c->pos < want) {
        *out = NULL;
        return short_of(c, want, item);
    }
    *out = c->p + c->pos;
    c->pos += want;
    return OA_OK;
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
    return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static oa_status get_u32(cursor *c, const char *item, uint32_t *v)
{
    const uint8_t *p;
    oa_status st = take(c, 4, item, &p);
    if (st == OA_OK) {
        *v = le32(p);
    }
    return st;
}

/* count i64 values into a fresh arena array. */
static oa_status get_i64s(cursor *c, oa_om_arena *a, size_t count, const char *item, const int64_t **out)
{
    if (count > (c->n - c->pos) / 8) {
        return short_of(c, count > SIZE_MAX / 8 ? SIZE_MAX : count * 8, item);
    }
    int64_t *v = NULL;
    if (count != 0) {
        v = oa_om_arena_alloc(a, count * sizeof(*v));
        if (v == NULL) {
            return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Parse][InOutInfo] %zu values", count);
        }
    }
    for (size_t i = 0; i < count; ++i) {
        v[i] = (int64_t)le64(c->p + c->pos + 8 * i);
    }
    c->pos += count * 8;
    *out = v;
    return OA_OK;
}

static oa_status byte_len_to_count(const cursor *c, uint32_t bytes, size_t unit, const char *item, size_t *count)
{
    if (bytes % unit != 0) {
        return OA_FAIL(OA_E_GE_FAILURE, "[Parse][InOutInfo] %s record: %s length %u is not a multiple of %zu", c->rec,
                       item, bytes, unit);
    }
    *count = bytes / unit;
    return OA_OK;
}

static oa_status parse_tensors(cursor *c, oa_om_arena *a, size_t *n_out, const oa_om_io_tensor **out)
{
    uint32_t n;
    oa_status st = get_u32(c, "tensor count", &n);
    if (st != OA_OK) {
        return st;
    }
    if (n > (c->n - c->pos) / OA_OM_INOUT_TENSOR_HEAD) {
        return OA_FAIL(OA_E_GE_FAILURE, "[Parse][InOutInfo] %s record: %u tensors cannot fit in %zu bytes", c->rec, n,
                       c->n - c->pos);
    }
    oa_om_io_tensor *t = n ? oa_om_arena_alloc(a, (size_t)n * sizeof(*t)) : NULL;
    if (n != 0 && t == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Parse][InOutInfo] %u tensors", n);
    }
    for (uint32_t i = 0; i < n && st == OA_OK; ++i) {
        const uint8_t *h;
        st = take(c, OA_OM_INOUT_TENSOR_HEAD, "tensor head", &h);
        if (st != OA_OK) {
            break;
        }
        t[i].size = le64(h);
        t[i].format = (int32_t)le32(h + 8);
        t[i].dtype = (int32_t)le32(h + 12);
        const uint32_t name_len = le32(h + 16), dims_len = le32(h + 20), v2_len = le32(h + 24),
                       range_len = le32(h + 28);
        const uint8_t *name;
        st = take(c, name_len, "tensor name", &name);
        if (st == OA_OK) {
            char *s = oa_om_arena_strndup(a, name, name_len);
            if (s == NULL) {
                return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Parse][InOutInfo] name of %u bytes", name_len);
            }
            t[i].name = s;
            t[i].name_len = name_len;
            st = byte_len_to_count(c, dims_len, 8, "dims", &t[i].n_dims);
        }
        if (st == OA_OK) {
            st = get_i64s(c, a, t[i].n_dims, "dims", &t[i].dims);
        }
        if (st == OA_OK) {
            st = byte_len_to_count(c, v2_len, 8, "dimsV2", &t[i].n_dims_v2);
        }
        if (st == OA_OK) {
            st = get_i64s(c, a, t[i].n_dims_v2, "dimsV2", &t[i].dims_v2);
        }
        if (st == OA_OK) {
            st = byte_len_to_count(c, range_len, 16, "shape range", &t[i].n_ranges);
        }
        if (st == OA_OK) {
            st = get_i64s(c, a, t[i].n_ranges * 2, "shape range", &t[i].ranges);
        }
    }
    if (st == OA_OK) {
        *n_out = n;
        *out = t;
    }
    return st;
}

static oa_status parse_gears(cursor *c, oa_om_arena *a, oa_om_io_gears *g)
{
    uint32_t n;
    oa_status st = get_u32(c, "gear count", &n);
    if (st != OA_OK) {
        return st;
    }
    if (n > (c->n - c->pos) / 4) {
        return short_of(c, (size_t)n * 4, "gear lengths");
    }
    size_t *len = n ? oa_om_arena_alloc(a, (size_t)n * sizeof(*len)) : NULL;
    const int64_t **vals = n ? oa_om_arena_alloc(a, (size_t)n * sizeof(*vals)) : NULL;
    if (n != 0 && (len == NULL || vals == NULL)) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Parse][InOutInfo] %u gears", n);
    }
    for (uint32_t i = 0; i < n; ++i) {
        len[i] = le32(c->p + c->pos + 4 * (size_t)i);
    }
    c->pos += (size_t)n * 4;
    for (uint32_t i = 0; i < n && st == OA_OK; ++i) {
        st = get_i64s(c, a, len[i], "gear values", &vals[i]);
    }
    g->n = n;
    g->len = len;
    g->vals = (const int64_t *const *)vals;
    return st;
}

static oa_status parse_strings(cursor *c, oa_om_arena *a, oa_om_io_strings *s)
{
    uint32_t n;
    oa_status st = get_u32(c, "string count", &n);
    if (st != OA_OK) {
        return st;
    }
    if (n > (c->n - c->pos) / 4) {
        return short_of(c, (size_t)n * 4, "string lengths");
    }
    size_t *len = n ? oa_om_arena_alloc(a, (size_t)n * sizeof(*len)) : NULL;
    const char **str = n ? oa_om_arena_alloc(a, (size_t)n * sizeof(*str)) : NULL;
    if (n != 0 && (len == NULL || str == NULL)) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Parse][InOutInfo] %u strings", n);
    }
    for (uint32_t i = 0; i < n; ++i) {
        len[i] = le32(c->p + c->pos + 4 * (size_t)i);
    }
    c->pos += (size_t)n * 4;
    for (uint32_t i = 0; i < n && st == OA_OK; ++i) {
        const uint8_t *p;
        st = take(c, len[i], "string", &p);
        if (st == OA_OK) {
            str[i] = oa_om_arena_strndup(a, p, len[i]);
            if (str[i] == NULL) {
                return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Parse][InOutInfo] string of %zu bytes", len[i]);
            }
        }
    }
    s->n = n;
    s->len = len;
    s->s = (const char *const *)str;
    return st;
}

static const char *const k_rec_names[OA_OM_INOUT_TYPE_COUNT] = {
    "input desc", "output desc", "dynamic batch", "dynamic HW", "dynamic dims", "dynamic output shape",
    "designate shape order",
};

oa_status oa_om_inout_parse(const uint8_t *data, size_t size, oa_om_arena *a, oa_om_inout *out)
{
    memset(out, 0, sizeof(*out));
    bool seen[OA_OM_INOUT_TYPE_COUNT] = {false};
    size_t pos = 0;
    while (pos < size) {
        if (size - pos < 8) {
            return OA_FAIL(OA_E_GE_FAILURE, "[Parse][InOutInfo] record head at offset %zu needs 8 bytes, %zu left",
                           pos, size - pos);
        }
        const uint32_t type = le32(data + pos), len = le32(data + pos + 4);
        if (len > size - pos - 8) {
            return OA_FAIL(OA_E_GE_FAILURE,
                           "[Parse][InOutInfo] record type %u at offset %zu declares %u bytes, %zu left", type, pos,
                           len, size - pos - 8);
        }
        if (type >= OA_OM_INOUT_TYPE_COUNT) {
            return OA_FAIL(OA_E_GE_FAILURE, "[Parse][InOutInfo] unknown record type %u at offset %zu", type, pos);
        }
        if (seen[type]) {
            return OA_FAIL(OA_E_GE_FAILURE, "[Parse][InOutInfo] record type %u (%s) appears twice", type,
                           k_rec_names[type]);
        }
        seen[type] = true;
        cursor c = {data + pos + 8, len, 0, pos + 8, k_rec_names[type]};
        oa_status st;
        switch (type) {
        case OA_OM_INOUT_INPUT_DESC:
            st = parse_tensors(&c, a, &out->n_inputs, &out->inputs);
            break;
        case OA_OM_INOUT_OUTPUT_DESC:
            st = parse_tensors(&c, a, &out->n_outputs, &out->outputs);
            break;
        case OA_OM_INOUT_DYNAMIC_BATCH: {
            uint32_t n;
            st = get_u32(&c, "batch count", &n);
            if (st == OA_OK) {
                st = get_i64s(&c, a, n, "batch sizes", &out->batch);
                out->n_batch = n;
            }
            break;
        }
        case OA_OM_INOUT_DYNAMIC_HW:
            st = parse_gears(&c, a, &out->hw);
            break;
        case OA_OM_INOUT_DYNAMIC_DIMS:
            st = parse_gears(&c, a, &out->dims);
            break;
        case OA_OM_INOUT_DYNAMIC_OUTPUT_SHAPE:
            st = parse_strings(&c, a, &out->dynamic_output_shape);
            break;
        default:
            st = parse_strings(&c, a, &out->designate_shape_order);
            break;
        }
        if (st != OA_OK) {
            return st;
        }
        if (c.pos != c.n) {
            return OA_FAIL(OA_E_GE_FAILURE, "[Parse][InOutInfo] %s record leaves %zu of its %u bytes unused",
                           k_rec_names[type], c.n - c.pos, len);
        }
        pos += 8 + (size_t)len;
    }
    return OA_OK;
}

/* ---- writer ------------------------------------------------------------ */

typedef struct wbuf {
    uint8_t *p; /* NULL while measuring */
    size_t n;
    bool too_big;
} wbuf;

static void put(wbuf *w, const void *d, size_t n)
{
    if (w->p != NULL && n != 0) {
        memcpy(w->p + w->n, d, n);
    }
    w->n += n;
}

static void put32(wbuf *w, size_t v)
{
    if (v > UINT32_MAX) {
        w->too_big = true;
    }
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(w, b, 4);
}

static void put64(wbuf *w, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; ++i) {
        b[i] = (uint8_t)(v >> (8 * i));
    }
    put(w, b, 8);
}

static void put_i64s(wbuf *w, const int64_t *v, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        put64(w, (uint64_t)v[i]);
    }
}

/* Writes a record head with a length patched in afterwards. */
static size_t rec_begin(wbuf *w, uint32_t type)
{
    put32(w, type);
    size_t at = w->n;
    put32(w, 0);
    return at;
}

static void rec_end(wbuf *w, size_t at)
{
    size_t len = w->n - at - 4;
    if (len > UINT32_MAX) {
        w->too_big = true;
    }
    if (w->p != NULL) {
        uint8_t *q = w->p + at;
        q[0] = (uint8_t)len;
        q[1] = (uint8_t)(len >> 8);
        q[2] = (uint8_t)(len >> 16);
        q[3] = (uint8_t)(len >> 24);
    }
}

static void write_tensors(wbuf *w, uint32_t type, const oa_om_io_tensor *t, size_t n)
{
    if (n == 0) {
        return;
    }
    size_t at = rec_begin(w, type);
    put32(w, n);
    for (size_t i = 0; i < n; ++i) {
        put64(w, t[i].size);
        put32(w, (uint32_t)t[i].format);
        put32(w, (uint32_t)t[i].dtype);
        put32(w, t[i].name_len);
        put32(w, t[i].n_dims * 8);
        put32(w, t[i].n_dims_v2 * 8);
        put32(w, t[i].n_ranges * 16);
        put(w, t[i].name, t[i].name_len);
        put_i64s(w, t[i].dims, t[i].n_dims);
        put_i64s(w, t[i].dims_v2, t[i].n_dims_v2);
        put_i64s(w, t[i].ranges, t[i].n_ranges * 2);
    }
    rec_end(w, at);
}

static void write_gears(wbuf *w, uint32_t type, const oa_om_io_gears *g)
{
    if (g->n == 0) {
        return;
    }
    size_t at = rec_begin(w, type);
    put32(w, g->n);
    for (size_t i = 0; i < g->n; ++i) {
        put32(w, g->len[i]);
    }
    for (size_t i = 0; i < g->n; ++i) {
        put_i64s(w, g->vals[i], g->len[i]);
    }
    rec_end(w, at);
}

static void write_strings(wbuf *w, uint32_t type, const oa_om_io_strings *s)
{
    if (s->n == 0) {
        return;
    }
    size_t at = rec_begin(w, type);
    put32(w, s->n);
    for (size_t i = 0; i < s->n; ++i) {
        put32(w, s->len[i]);
    }
    for (size_t i = 0; i < s->n; ++i) {
        put(w, s->s[i], s->len[i]);
    }
    rec_end(w, at);
}

static void write_all(wbuf *w, const oa_om_inout *in)
{
    write_tensors(w, OA_OM_INOUT_INPUT_DESC, in->inputs, in->n_inputs);
    write_tensors(w, OA_OM_INOUT_OUTPUT_DESC, in->outputs, in->n_outputs);
    if (in->n_batch != 0) {
        size_t at = rec_begin(w, OA_OM_INOUT_DYNAMIC_BATCH);
        put32(w, in->n_batch);
        put_i64s(w, in->batch, in->n_batch);
        rec_end(w, at);
    }
    write_gears(w, OA_OM_INOUT_DYNAMIC_HW, &in->hw);
    write_gears(w, OA_OM_INOUT_DYNAMIC_DIMS, &in->dims);
    write_strings(w, OA_OM_INOUT_DYNAMIC_OUTPUT_SHAPE, &in->dynamic_output_shape);
    write_strings(w, OA_OM_INOUT_DESIGNATE_SHAPE_ORDER, &in->designate_shape_order);
}

oa_status oa_om_inout_serialize(const oa_om_inout *in, uint8_t **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    wbuf m = {0};
    write_all(&m, in);
    if (m.too_big) {
        return OA_FAIL(OA_E_GE_PARAM, "[Save][InOutInfo] a length does not fit its 32-bit field");
    }
    if (m.n == 0) {
        return OA_OK;
    }
    wbuf w = {.p = malloc(m.n)};
    if (w.p == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Save][InOutInfo] %zu bytes", m.n);
    }
    write_all(&w, in);
    *out = w.p;
    *len = w.n;
    return OA_OK;
}

/*
 * om_pb_pack: the deterministic protobuf encoder of om_pb.h.
 *
 * Why not protobuf_c_message_pack(): it omits a proto3 map entry's key or
 * value when it is the default ("" or 0), while C++ always writes both, and
 * it writes map entries in array order. The encoder below walks the same
 * protobuf-c descriptors and structs, in two passes: the first sorts and
 * de-duplicates map arrays in place and records the body size of every
 * submessage in visiting order; the second writes, reading those sizes back
 * in the same order, so nothing is measured twice.
 */
#define OA_LOG_MODULE "GE"
#include "om/om_pb.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"

typedef struct size_log {
    size_t *v;
    size_t n;
    size_t cap;
    size_t pos;
    bool oom;
} size_log;

static size_t log_reserve(size_log *lg)
{
    if (lg->n == lg->cap) {
        size_t cap = lg->cap ? lg->cap * 2 : 256;
        size_t *v = (cap > SIZE_MAX / sizeof(size_t)) ? NULL : realloc(lg->v, cap * sizeof(size_t));
        if (v == NULL) {
            lg->oom = true;
            return SIZE_MAX;
        }
        lg->v = v;
        lg->cap = cap;
    }
    lg->v[lg->n] = 0;
    return lg->n++;
}

static size_t varint_size(uint64_t v)
{
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

static uint8_t *put_varint(uint8_t *o, uint64_t v)
{
    while (v >= 0x80) {
        *o++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *o++ = (uint8_t)v;
    return o;
}

static uint8_t *put_le(uint8_t *o, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; ++i) {
        *o++ = (uint8_t)(v >> (8 * i));
    }
    return o;
}

static unsigned wire_type(ProtobufCType t)
{
    switch (t) {
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_FLOAT:
        return 5;
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_DOUBLE:
        return 1;
    case PROTOBUF_C_TYPE_STRING:
    case PROTOBUF_C_TYPE_BYTES:
    case PROTOBUF_C_TYPE_MESSAGE:
        return 2;
    default:
        return 0;
    }
}

static size_t elem_size(ProtobufCType t)
{
    switch (t) {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_FLOAT:
    case PROTOBUF_C_TYPE_ENUM:
        return 4;
    case PROTOBUF_C_TYPE_BOOL:
        return sizeof(protobuf_c_boolean);
    case PROTOBUF_C_TYPE_STRING:
        return sizeof(char *);
    case PROTOBUF_C_TYPE_BYTES:
        return sizeof(ProtobufCBinaryData);
    case PROTOBUF_C_TYPE_MESSAGE:
        return sizeof(ProtobufCMessage *);
    default:
        return 8;
    }
}

/* The raw 64 bits a scalar puts on the wire (varint value or fixed bits). */
static uint64_t scalar_bits(ProtobufCType t, const void *m)
{
    int32_t i32;
    int64_t i64;
    uint32_t u32;
    uint64_t u64;
    switch (t) {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_ENUM:
        memcpy(&i32, m, 4);
        return (uint64_t)(int64_t)i32;
    case PROTOBUF_C_TYPE_SINT32:
        memcpy(&i32, m, 4);
        return (uint32_t)(((uint32_t)i32 << 1) ^ (uint32_t)(i32 >> 31));
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_FLOAT:
        memcpy(&u32, m, 4);
        return u32;
    case PROTOBUF_C_TYPE_BOOL:
        return *(const protobuf_c_boolean *)m != 0;
    case PROTOBUF_C_TYPE_SINT64:
        memcpy(&i64, m, 8);
        return ((uint64_t)i64 << 1) ^ (uint64_t)(i64 >> 63);
    default:
        memcpy(&u64, m, 8);
        return u64;
    }
}

static bool is_default(const ProtobufCFieldDescriptor *f, const void *m)
{
    switch (f->type) {
    case PROTOBUF_C_TYPE_STRING: {
        const char *s = *(char *const *)m;
        return s == NULL || s[0] == '\0';
    }
    case PROTOBUF_C_TYPE_BYTES:
        return ((const ProtobufCBinaryData *)m)->len == 0;
    case PROTOBUF_C_TYPE_MESSAGE:
        return *(ProtobufCMessage *const *)m == NULL;
    default:
        return scalar_bits(f->type, m) == 0;
    }
}

static const void *member_at(const ProtobufCMessage *msg, unsigned offset)
{
    return (const char *)msg + offset;
}

static bool field_present(const ProtobufCMessage *msg, const ProtobufCFieldDescriptor *f, bool entry)
{
    const void *m = member_at(msg, f->offset);
    if ((f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) != 0) {
        return *(const uint32_t *)member_at(msg, f->quantifier_offset) == f->id;
    }
    switch (f->label) {
    case PROTOBUF_C_LABEL_REQUIRED:
        return true;
    case PROTOBUF_C_LABEL_OPTIONAL:
        if (f->type == PROTOBUF_C_TYPE_STRING || f->type == PROTOBUF_C_TYPE_MESSAGE) {
            const void *p = *(void *const *)m;
            return p != NULL && p != f->default_value;
        }
        return *(const protobuf_c_boolean *)member_at(msg, f->quantifier_offset) != 0;
    default:
        return entry || !is_default(f, m);
    }
}

/* ---- map ordering ----------------------------------------------------- */

static int key_cmp(const ProtobufCMessage *a, const ProtobufCMessage *b)
{
    const ProtobufCFieldDescriptor *k = &a->descriptor->fields[0];
    const void *ka = member_at(a, k->offset);
    const void *kb = member_at(b, k->offset);
    switch (k->type) {
    case PROTOBUF_C_TYPE_BYTES: {
        const ProtobufCBinaryData *x = ka;
        const ProtobufCBinaryData *y = kb;
        size_t n = x->len < y->len ? x->len : y->len;
        int c = n ? memcmp(x->data, y->data, n) : 0;
        return c != 0 ? c : (x->len > y->len) - (x->len < y->len);
    }
    case PROTOBUF_C_TYPE_STRING: {
        const char *x = *(char *const *)ka;
        const char *y = *(char *const *)kb;
        return strcmp(x ? x : "", y ? y : "");
    }
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32: {
        int32_t x, y;
        memcpy(&x, ka, 4);
        memcpy(&y, kb, 4);
        return (x > y) - (x < y);
    }
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64: {
        int64_t x, y;
        memcpy(&x, ka, 8);
        memcpy(&y, kb, 8);
        return (x > y) - (x < y);
    }
    default: {
        uint64_t x = scalar_bits(k->type, ka);
        uint64_t y = scalar_bits(k->type, kb);
        return (x > y) - (x < y);
    }
    }
}

static void merge_sort(ProtobufCMessage **v, ProtobufCMessage **tmp, size_t n)
{
    if (n < 2) {
        return;
    }
    size_t h = n / 2;
    merge_sort(v, tmp, h);
    merge_sort(v + h, tmp, n - h);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) {
        /* Stable: take from the left run unless the right one is smaller. */
        tmp[k++] = key_cmp(v[j], v[i]) < 0 ? v[j++] : v[i++];
    }
    while (i < h) {
        tmp[k++] = v[i++];
    }
    while (j < n) {
        tmp[k++] = v[j++];
    }
    memcpy(v, tmp, n * sizeof(*v));
}

/* Sorts a map array by key and keeps the last of equal keys; NULL entries
 * are dropped (C++ has no such thing). */
static bool normalize_map(ProtobufCMessage **v, size_t *count)
{
    size_t n = 0;
    for (size_t i = 0; i < *count; ++i) {
        if (v[i] != NULL) {
            v[n++] = v[i];
        }
    }
    bool sorted = true;
    for (size_t i = 1; i < n && sorted; ++i) {
        sorted = key_cmp(v[i - 1], v[i]) < 0;
    }
    if (!sorted) {
        ProtobufCMessage **tmp = malloc(n * sizeof(*tmp));
        if (tmp == NULL) {
            return false;
        }
        merge_sort(v, tmp, n);
        free(tmp);
        size_t w = 0;
        for (size_t i = 0; i < n; ++i) {
            if (w > 0 && key_cmp(v[w - 1], v[i]) == 0) {
                v[w - 1] = v[i];
            } else {
                v[w++] = v[i];
            }
        }
        n = w;
    }
    *count = n;
    return true;
}

/* ---- pass 1: sizes ---------------------------------------------------- */

static size_t msg_size(ProtobufCMessage *msg, size_log *lg);

static size_t value_size(const ProtobufCFieldDescriptor *f, const void *m, size_log *lg)
{
    switch (f->type) {
    case PROTOBUF_C_TYPE_STRING: {
        const char *s = *(char *const *)m;
        size_t l = s ? strlen(s) : 0;
        return varint_size(l) + l;
    }
    case PROTOBUF_C_TYPE_BYTES: {
        const ProtobufCBinaryData *b = m;
        return varint_size(b->len) + b->len;
    }
    case PROTOBUF_C_TYPE_MESSAGE: {
        ProtobufCMessage *sub = *(ProtobufCMessage *const *)m;
        size_t body = sub ? msg_size(sub, lg) : 0;
        return varint_size(body) + body;
    }
    default:
        switch (wire_type(f->type)) {
        case 5:
            return 4;
        case 1:
            return 8;
        default:
            return varint_size(scalar_bits(f->type, m));
        }
    }
}

static size_t msg_size(ProtobufCMessage *msg, size_log *lg)
{
    const size_t slot = log_reserve(lg);
    if (lg->oom) {
        return 0;
    }
    const ProtobufCMessageDescriptor *d = msg->descriptor;
    const bool entry = oa_om_pb_is_map_entry(d);
    size_t total = 0;
    for (unsigned fi = 0; fi < d->n_fields && !lg->oom; ++fi) {
        const ProtobufCFieldDescriptor *f = &d->fields[fi];
        const size_t tag = varint_size((uint64_t)f->id << 3);
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t *count = (size_t *)((char *)msg + f->quantifier_offset);
            char *arr = *(char **)((char *)msg + f->offset);
            if (*count == 0) {
                continue;
            }
            if (f->type == PROTOBUF_C_TYPE_MESSAGE && oa_om_pb_is_map_entry(f->descriptor) &&
                !normalize_map((ProtobufCMessage **)arr, count)) {
                lg->oom = true;
                return 0;
            }
            const size_t es = elem_size(f->type);
            if ((f->flags & PROTOBUF_C_FIELD_FLAG_PACKED) != 0) {
                size_t payload = 0;
                for (size_t i = 0; i < *count; ++i) {
                    payload += value_size(f, arr + i * es, lg);
                }
                total += tag + varint_size(payload) + payload;
            } else {
                for (size_t i = 0; i < *count; ++i) {
                    total += tag + value_size(f, arr + i * es, lg);
                }
            }
        } else if (field_present(msg, f, entry)) {
            total += tag + value_size(f, member_at(msg, f->offset), lg);
        }
    }
    for (unsigned i = 0; i < msg->n_unknown_fields; ++i) {
        const ProtobufCMessageUnknownField *u = &msg->unknown_fields[i];
        total += varint_size(((uint64_t)u->tag << 3) | (uint64_t)u->wire_type) + u->len;
    }
    if (!lg->oom) {
        lg->v[slot] = total;
    }
    return total;
}

/* ---- pass 2: bytes ---------------------------------------------------- */

static uint8_t *msg_write(const ProtobufCMessage *msg, size_log *lg, uint8_t *o);

static uint8_t *value_write(const ProtobufCFieldDescriptor *f, const void *m, size_log *lg, uint8_t *o)
{
    switch (f->type) {
    case PROTOBUF_C_TYPE_STRING: {
        const char *s = *(char *const *)m;
        size_t l = s ? strlen(s) : 0;
        o = put_varint(o, l);
        if (l != 0) {
            memcpy(o, s, l);
        }
        return o + l;
    }
    case PROTOBUF_C_TYPE_BYTES: {
        const ProtobufCBinaryData *b = m;
        o = put_varint(o, b->len);
        if (b->len != 0) {
            memcpy(o, b->data, b->len);
        }
        return o + b->len;
    }
    case PROTOBUF_C_TYPE_MESSAGE: {
        const ProtobufCMessage *sub = *(ProtobufCMessage *const *)m;
        if (sub == NULL) {
            return put_varint(o, 0);
        }
        o = put_varint(o, lg->v[lg->pos]);
        return msg_write(sub, lg, o);
    }
    default:
        switch (wire_type(f->type)) {
        case 5:
            return put_le(o, scalar_bits(f->type, m), 4);
        case 1:
            return put_le(o, scalar_bits(f->type, m), 8);
        default:
            return put_varint(o, scalar_bits(f->type, m));
        }
    }
}

static uint8_t *msg_write(const ProtobufCMessage *msg, size_log *lg, uint8_t *o)
{
    lg->pos++;
    const ProtobufCMessageDescriptor *d = msg->descriptor;
    const bool entry = oa_om_pb_is_map_entry(d);
    for (unsigned fi = 0; fi < d->n_fields; ++fi) {
        const ProtobufCFieldDescriptor *f = &d->fields[fi];
        const uint64_t tag = (uint64_t)f->id << 3;
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            const size_t count = *(const size_t *)member_at(msg, f->quantifier_offset);
            const char *arr = *(char *const *)member_at(msg, f->offset);
            if (count == 0) {
                continue;
            }
            const size_t es = elem_size(f->type);
            if ((f->flags & PROTOBUF_C_FIELD_FLAG_PACKED) != 0) {
                size_t payload = 0;
                for (size_t i = 0; i < count; ++i) {
                    payload += value_size(f, arr + i * es, NULL);
                }
                o = put_varint(o, tag | 2);
                o = put_varint(o, payload);
                for (size_t i = 0; i < count; ++i) {
                    o = value_write(f, arr + i * es, lg, o);
                }
            } else {
                for (size_t i = 0; i < count; ++i) {
                    o = put_varint(o, tag | wire_type(f->type));
                    o = value_write(f, arr + i * es, lg, o);
                }
            }
        } else if (field_present(msg, f, entry)) {
            o = put_varint(o, tag | wire_type(f->type));
            o = value_write(f, member_at(msg, f->offset), lg, o);
        }
    }
    for (unsigned i = 0; i < msg->n_unknown_fields; ++i) {
        const ProtobufCMessageUnknownField *u = &msg->unknown_fields[i];
        o = put_varint(o, ((uint64_t)u->tag << 3) | (uint64_t)u->wire_type);
        if (u->len != 0) {
            memcpy(o, u->data, u->len);
        }
        o += u->len;
    }
    return o;
}

oa_status oa_om_pb_encode(ProtobufCMessage *m, uint8_t **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    if (m == NULL) {
        return OA_FAIL(OA_E_GE_PARAM, "[Serialize][Proto] no message");
    }
    size_log lg = {0};
    size_t total = msg_size(m, &lg);
    oa_status st = OA_OK;
    if (lg.oom) {
        st = OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Serialize][Proto] out of memory sizing %s", m->descriptor->name);
    } else if (total > OA_OM_PB_MAX_SIZE) {
        st = OA_FAIL(OA_E_GE_PARAM,
                     "[Serialize][Proto] %s would be %zu bytes, above protobuf's 2 GiB limit; "
                     "keep weights outside the model (external weights)",
                     m->descriptor->name, total);
    } else {
        uint8_t *buf = malloc(total ? total : 1);
        if (buf == NULL) {
            st = OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Serialize][Proto] %zu bytes for %s", total,
                         m->descriptor->name);
        } else {
            uint8_t *end = msg_write(m, &lg, buf);
            const size_t wrote = (size_t)(end - buf);
            if (wrote != total || lg.pos != lg.n) {
                free(buf);
                st = OA_FAIL(OA_E_GE_INTERNAL, "[Serialize][Proto] %s: wrote %zu bytes, sized %zu",
                             m->descriptor->name, wrote, total);
            } else {
                *out = buf;
                *len = total;
            }
        }
    }
    free(lg.v);
    return st;
}

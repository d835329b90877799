/*
 * om_pb: checked protobuf decoding for the .om format (see om_pb.h): a
 * wire-format walk driven by the protobuf-c descriptors, then protobuf-c's
 * unpack into the model arena.
 */
#define OA_LOG_MODULE "GE"
#include "om/om_pb.h"

#include <string.h>

#include "base/error.h"

bool oa_om_pb_is_map_entry(const ProtobufCMessageDescriptor *d)
{
    if (d == NULL || d->n_fields != 2 || d->fields[0].id != 1 || d->fields[1].id != 2) {
        return false;
    }
    size_t n = strlen(d->name);
    return n > 5 && strcmp(d->name + n - 5, "Entry") == 0 && strcmp(d->fields[0].name, "key") == 0 &&
           strcmp(d->fields[1].name, "value") == 0;
}

/* Reads a varint at p[*i..n); false when truncated or longer than 10 bytes. */
static bool get_varint(const uint8_t *p, size_t n, size_t *i, uint64_t *v)
{
    uint64_t r = 0;
    for (unsigned shift = 0; shift < 70; shift += 7) {
        if (*i >= n) {
            return false;
        }
        uint8_t b = p[(*i)++];
        if (shift == 63 && b > 1) {
            return false;
        }
        r |= (uint64_t)(b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
            *v = r;
            return true;
        }
    }
    return false;
}

/* Strict UTF-8 (no overlongs, no surrogates, <= U+10FFFF). On failure
 * *bad is the offset of the first offending byte. */
static bool utf8_valid(const uint8_t *s, size_t n, size_t *bad)
{
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        size_t k;
        uint32_t cp;
        if (c < 0x80) {
            i++;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            k = 1;
            cp = c & 0x1Fu;
        } else if (c >= 0xE0 && c <= 0xEF) {
            k = 2;
            cp = c & 0x0Fu;
        } else if (c >= 0xF0 && c <= 0xF4) {
            k = 3;
            cp = c & 0x07u;
        } else {
            *bad = i;
            return false;
        }
        if (n - i <= k) {
            *bad = i;
            return false;
        }
        for (size_t j = 1; j <= k; ++j) {
            if ((s[i + j] & 0xC0) != 0x80) {
                *bad = i;
                return false;
            }
            cp = (cp << 6) | (s[i + j] & 0x3Fu);
        }
        if ((k == 2 && cp < 0x800) || (k == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF)) {
            *bad = i;
            return false;
        }
        i += k + 1;
    }
    return true;
}

bool oa_om_utf8_valid(const uint8_t *s, size_t n)
{
    size_t bad;
    return utf8_valid(s, n, &bad);
}

typedef struct check_ctx {
    const uint8_t *base;
    oa_status fail;
    const char *what;
    size_t estimate; /* bytes protobuf-c will allocate, saturating */
} check_ctx;

static void add_estimate(check_ctx *cx, size_t n)
{
    cx->estimate = n > SIZE_MAX - cx->estimate ? SIZE_MAX : cx->estimate + n;
}

static oa_status check_msg(check_ctx *cx, const ProtobufCMessageDescriptor *d, const uint8_t *p, size_t n,
                           unsigned depth)
{
    const bool entry = oa_om_pb_is_map_entry(d);
    add_estimate(cx, d->sizeof_message);
    size_t i = 0;
    while (i < n) {
        const size_t at = (size_t)(p + i - cx->base);
        uint64_t tag;
        if (!get_varint(p, n, &i, &tag)) {
            return OA_FAIL(cx->fail, "[Parse][Proto] %s: truncated or overlong tag at byte %zu (in %s)", cx->what, at,
                           d->name);
        }
        const uint32_t wt = (uint32_t)(tag & 7);
        const uint64_t num = tag >> 3;
        if (num == 0 || num > 536870911u) {
            return OA_FAIL(cx->fail, "[Parse][Proto] %s: invalid field number %llu at byte %zu (in %s)", cx->what,
                           (unsigned long long)num, at, d->name);
        }
        const ProtobufCFieldDescriptor *f = protobuf_c_message_descriptor_get_field(d, (unsigned)num);
        if (f != NULL && f->label == PROTOBUF_C_LABEL_REPEATED) {
            add_estimate(cx, sizeof(void *)); /* one more array slot (at least) */
        }
        uint64_t v;
        switch (wt) {
        case 0:
            if (!get_varint(p, n, &i, &v)) {
                return OA_FAIL(cx->fail, "[Parse][Proto] %s: truncated varint of field %llu at byte %zu (in %s)",
                               cx->what, (unsigned long long)num, at, d->name);
            }
            break;
        case 1:
        case 5: {
            size_t w = wt == 1 ? 8 : 4;
            if (n - i < w) {
                return OA_FAIL(cx->fail, "[Parse][Proto] %s: field %llu needs %zu bytes at byte %zu, %zu left (in %s)",
                               cx->what, (unsigned long long)num, w, at, n - i, d->name);
            }
            i += w;
            break;
        }
        case 2: {
            if (!get_varint(p, n, &i, &v)) {
                return OA_FAIL(cx->fail, "[Parse][Proto] %s: truncated length of field %llu at byte %zu (in %s)",
                               cx->what, (unsigned long long)num, at, d->name);
            }
            if (v > n - i) {
                return OA_FAIL(cx->fail,
                               "[Parse][Proto] %s: field %llu (%s) declares %llu bytes at byte %zu, only %zu remain "
                               "(in %s)",
                               cx->what, (unsigned long long)num, f != NULL ? f->name : "unknown",
                               (unsigned long long)v, at, n - i, d->name);
            }
            const uint8_t *sub = p + i;
            const size_t len = (size_t)v;
            if (f != NULL && f->type != PROTOBUF_C_TYPE_MESSAGE) {
                add_estimate(cx, len + 1); /* strings and bytes are copied */
            }
            if (f != NULL && f->type == PROTOBUF_C_TYPE_MESSAGE) {
                if (depth + 1 > OA_OM_PB_MAX_DEPTH) {
                    return OA_FAIL(cx->fail, "[Parse][Proto] %s: messages nested deeper than %d at byte %zu", cx->what,
                                   OA_OM_PB_MAX_DEPTH, at);
                }
                oa_status st = check_msg(cx, f->descriptor, sub, len, depth + 1);
                if (st != OA_OK) {
                    return st;
                }
            } else if (f != NULL && (f->type == PROTOBUF_C_TYPE_STRING || (entry && f->type == PROTOBUF_C_TYPE_BYTES))) {
                size_t bad = 0;
                if (!utf8_valid(sub, len, &bad)) {
                    return OA_FAIL(cx->fail, "[Parse][Proto] %s: string field %s.%s is not UTF-8 (byte %zu)", cx->what,
                                   d->name, f->name, (size_t)(sub + bad - cx->base));
                }
                const void *nul = f->type == PROTOBUF_C_TYPE_STRING ? memchr(sub, 0, len) : NULL;
                if (nul != NULL) {
                    return OA_FAIL(cx->fail, "[Parse][Proto] %s: string field %s.%s holds a NUL byte (byte %zu)",
                                   cx->what, d->name, f->name, (size_t)((const uint8_t *)nul - cx->base));
                }
            }
            i += len;
            break;
        }
        default:
            return OA_FAIL(cx->fail, "[Parse][Proto] %s: unsupported wire type %u of field %llu at byte %zu (in %s)",
                           cx->what, wt, (unsigned long long)num, at, d->name);
        }
    }
    return OA_OK;
}

oa_status oa_om_pb_check(const ProtobufCMessageDescriptor *d, const uint8_t *data, size_t len, oa_status fail,
                         const char *what)
{
    if (len > OA_OM_PB_MAX_SIZE) {
        return OA_FAIL(fail, "[Parse][Proto] %s of %zu bytes exceeds the protobuf limit of %zu bytes", what, len,
                       OA_OM_PB_MAX_SIZE);
    }
    if (data == NULL && len != 0) {
        return OA_FAIL(fail, "[Parse][Proto] %s: no data", what);
    }
    check_ctx cx = {data, fail, what, 0};
    oa_status st = check_msg(&cx, d, data, len, 0);
    if (st == OA_OK && cx.estimate / OA_OM_PB_MAX_EXPANSION > len + OA_OM_PB_EXPANSION_SLACK) {
        st = OA_FAIL(fail,
                     "[Parse][Proto] %s: %zu bytes would decode into about %zu bytes of messages (more than %d "
                     "times the input)",
                     what, len, cx.estimate, OA_OM_PB_MAX_EXPANSION);
    }
    return st;
}

oa_status oa_om_pb_decode(const ProtobufCMessageDescriptor *d, const uint8_t *data, size_t len, oa_om_arena *a,
                          oa_status fail, const char *what, ProtobufCMessage **out)
{
    *out = NULL;
    oa_status st = oa_om_pb_check(d, data, len, fail, what);
    if (st != OA_OK) {
        return st;
    }
    ProtobufCAllocator al = oa_om_arena_pb_allocator(a);
    static const uint8_t empty[1] = {0};
    ProtobufCMessage *m = protobuf_c_message_unpack(d, &al, len, len != 0 ? data : empty);
    if (m == NULL) {
        return OA_FAIL(fail, "[Parse][Proto] %s (%zu bytes) is not a valid %s", what, len, d->name);
    }
    *out = m;
    return OA_OK;
}

const Ge__Proto__AttrDef *oa_om_attr_find(Ge__Proto__AttrMapEntry *const *attr, size_t n, const char *key,
                                          size_t klen)
{
    for (size_t i = n; i-- > 0;) {
        const Ge__Proto__AttrMapEntry *e = attr[i];
        if (e != NULL && e->key.len == klen && (klen == 0 || memcmp(e->key.data, key, klen) == 0)) {
            return e->value;
        }
    }
    return NULL;
}

const Ge__Proto__AttrDef *oa_om_attr_get(Ge__Proto__AttrMapEntry *const *attr, size_t n, const char *key)
{
    return oa_om_attr_find(attr, n, key, strlen(key));
}

/*
 * om_json: JSON dump of .om files (see om_json.h). A small JSON tree is
 * built in an arena with GE's Pb2Json rules, the attribute expansion is
 * applied on that tree as Pb2Json does, and the tree is printed the way
 * nlohmann::json::dump(2) prints.
 */
#define OA_LOG_MODULE "GE"
#include "om/om_json.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"
#include "om/om_compress.h"
#include "om/om_model.h"

#define PB2JSON_MAX_DEPTH 20

/* ---- JSON tree ----------------------------------------------------------- */

typedef enum jkind { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jkind;

typedef struct jval jval;
typedef struct jmem {
    const char *key;
    size_t klen;
    jval *v;
} jmem;

struct jval {
    jkind k;
    bool b;
    const char *s; /* J_STR bytes (unescaped) or J_NUM text */
    size_t len;
    jmem *m; /* J_OBJ members, sorted by key bytes */
    jval **a; /* J_ARR elements */
    size_t n;
    size_t cap;
};

typedef struct jctx {
    oa_om_arena *a;
    bool oom;
} jctx;

static jval *jnew(jctx *c, jkind k)
{
    jval *v = oa_om_arena_alloc(c->a, sizeof(*v));
    if (v == NULL) {
        c->oom = true;
        return NULL;
    }
    v->k = k;
    return v;
}

static jval *jstr(jctx *c, const void *s, size_t len)
{
    jval *v = jnew(c, J_STR);
    if (v != NULL) {
        v->s = s != NULL ? s : "";
        v->len = s != NULL ? len : 0;
    }
    return v;
}

static jval *jcstr(jctx *c, const char *s)
{
    return jstr(c, s, s != NULL ? strlen(s) : 0);
}

static jval *jnum(jctx *c, const char *text)
{
    jval *v = jnew(c, J_NUM);
    char *t = oa_om_arena_strndup(c->a, text, strlen(text));
    if (v == NULL || t == NULL) {
        c->oom = true;
        return NULL;
    }
    v->s = t;
    v->len = strlen(t);
    return v;
}

static jval *ji64(jctx *c, int64_t x)
{
    char b[32];
    (void)snprintf(b, sizeof(b), "%" PRId64, x);
    return jnum(c, b);
}

static jval *ju64(jctx *c, uint64_t x)
{
    char b[32];
    (void)snprintf(b, sizeof(b), "%" PRIu64, x);
    return jnum(c, b);
}

static jval *jbool(jctx *c, bool b)
{
    jval *v = jnew(c, J_BOOL);
    if (v != NULL) {
        v->b = b;
    }
    return v;
}

static int key_cmp(const char *a, size_t al, const char *b, size_t bl)
{
    size_t n = al < bl ? al : bl;
    int r = n ? memcmp(a, b, n) : 0;
    return r != 0 ? r : (al > bl) - (al < bl);
}

/* Position of key in o (found) or where it would go. */
static size_t obj_pos(const jval *o, const char *key, size_t klen, bool *found)
{
    size_t lo = 0, hi = o->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int r = key_cmp(o->m[mid].key, o->m[mid].klen, key, klen);
        if (r == 0) {
            *found = true;
            return mid;
        }
        if (r < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    *found = false;
    return lo;
}

static bool grow(jctx *c, void **p, size_t *cap, size_t n, size_t es)
{
    if (n < *cap) {
        return true;
    }
    size_t nc = *cap ? *cap * 2 : 4;
    void *np = oa_om_arena_alloc(c->a, nc * es);
    if (np == NULL) {
        c->oom = true;
        return false;
    }
    if (*cap != 0) {
        memcpy(np, *p, *cap * es);
    }
    *p = np;
    *cap = nc;
    return true;
}

/* o[key] = v; a null o becomes an object (nlohmann's operator[]). */
static void obj_set(jctx *c, jval *o, const char *key, size_t klen, jval *v)
{
    if (o == NULL || v == NULL) {
        c->oom = c->oom || v == NULL;
        return;
    }
    if (o->k == J_NULL) {
        o->k = J_OBJ;
    }
    bool found;
    size_t at = obj_pos(o, key, klen, &found);
    if (found) {
        o->m[at].v = v;
        return;
    }
    if (!grow(c, (void **)&o->m, &o->cap, o->n, sizeof(jmem))) {
        return;
    }
    memmove(o->m + at + 1, o->m + at, (o->n - at) * sizeof(jmem));
    o->m[at].key = key;
    o->m[at].klen = klen;
    o->m[at].v = v;
    o->n++;
}

static void obj_setc(jctx *c, jval *o, const char *key, jval *v)
{
    obj_set(c, o, key, strlen(key), v);
}

static jval *obj_get(const jval *o, const char *key)
{
    if (o == NULL || o->k != J_OBJ) {
        return NULL;
    }
    bool found;
    size_t at = obj_pos(o, key, strlen(key), &found);
    return found ? o->m[at].v : NULL;
}

static void obj_del(jval *o, const char *key)
{
    if (o == NULL || o->k != J_OBJ) {
        return;
    }
    bool found;
    size_t at = obj_pos(o, key, strlen(key), &found);
    if (found) {
        memmove(o->m + at, o->m + at + 1, (o->n - at - 1) * sizeof(jmem));
        o->n--;
    }
}

/* a += v; a null a becomes an array. */
static void arr_push(jctx *c, jval *a, jval *v)
{
    if (a == NULL || v == NULL) {
        c->oom = c->oom || v == NULL;
        return;
    }
    if (a->k == J_NULL) {
        a->k = J_ARR;
    }
    if (grow(c, (void **)&a->a, &a->cap, a->n, sizeof(jval *))) {
        a->a[a->n++] = v;
    }
}

/* ---- number text (nlohmann's dump_float) -------------------------------- */

static void fmt_double(double v, char out[40])
{
    if (!isfinite(v)) {
        strcpy(out, "null");
        return;
    }
    char *o = out;
    if (signbit(v)) {
        *o++ = '-';
        v = -v;
    }
    if (v == 0) {
        strcpy(o, "0.0");
        return;
    }
    /* Shortest digit string that reads back as v. */
    char sci[40];
    int p = 1;
    for (; p <= 17; ++p) {
        (void)snprintf(sci, sizeof(sci), "%.*e", p - 1, v);
        if (strtod(sci, NULL) == v) {
            break;
        }
    }
    char digits[24];
    int k = 0;
    const char *s = sci;
    for (; *s != 'e' && *s != '\0'; ++s) {
        if (*s >= '0' && *s <= '9') {
            digits[k++] = *s;
        }
    }
    while (k > 1 && digits[k - 1] == '0') {
        --k;
    }
    int e = *s == 'e' ? atoi(s + 1) : 0;
    int n = e + 1; /* decimal point position relative to the first digit */
    const int min_exp = -4, max_exp = 15;
    if (k <= n && n <= max_exp) {
        memcpy(o, digits, (size_t)k);
        memset(o + k, '0', (size_t)(n - k));
        strcpy(o + n, ".0");
    } else if (0 < n && n <= max_exp) {
        memcpy(o, digits, (size_t)n);
        o[n] = '.';
        memcpy(o + n + 1, digits + n, (size_t)(k - n));
        o[k + 1] = '\0';
    } else if (min_exp < n && n <= 0) {
        o[0] = '0';
        o[1] = '.';
        memset(o + 2, '0', (size_t)-n);
        memcpy(o + 2 - n, digits, (size_t)k);
        o[2 - n + k] = '\0';
    } else {
        o[0] = digits[0];
        size_t w = 1;
        if (k > 1) {
            o[1] = '.';
            memcpy(o + 2, digits + 1, (size_t)(k - 1));
            w = (size_t)k + 1;
        }
        int x = n - 1;
        (void)snprintf(o + w, 16, "e%c%02d", x < 0 ? '-' : '+', x < 0 ? -x : x);
    }
}

static jval *jdouble(jctx *c, double v)
{
    char b[40];
    fmt_double(v, b);
    if (strcmp(b, "null") == 0) {
        return jnew(c, J_NULL);
    }
    return jnum(c, b);
}

/* Pb2Json: a singular float is printf("%g") in a 10-byte buffer when that
 * fits, else the number. */
static jval *jfloat_singular(jctx *c, float f)
{
    char b[64];
    int n = snprintf(b, sizeof(b), "%g", (double)f);
    if (n >= 0 && n < 10) {
        return jstr(c, oa_om_arena_strndup(c->a, b, (size_t)n), (size_t)n);
    }
    return jdouble(c, (double)f);
}

/* protobuf's CEscape. */
static jval *jcescape(jctx *c, const uint8_t *d, size_t n)
{
    size_t cap;
    if (!oa_mul_size(n, 4, &cap) || !oa_add_size(cap, 1, &cap)) {
        c->oom = true;
        return NULL;
    }
    char *o = oa_om_arena_alloc(c->a, cap);
    if (o == NULL) {
        c->oom = true;
        return NULL;
    }
    size_t w = 0;
    for (size_t i = 0; i < n; ++i) {
        uint8_t ch = d[i];
        const char *esc = NULL;
        switch (ch) {
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        case '"': esc = "\\\""; break;
        case '\'': esc = "\\'"; break;
        case '\\': esc = "\\\\"; break;
        default: break;
        }
        if (esc != NULL) {
            o[w++] = esc[0];
            o[w++] = esc[1];
        } else if (ch < 0x20 || ch > 0x7E) {
            w += (size_t)snprintf(o + w, 5, "\\%03o", ch);
        } else {
            o[w++] = (char)ch;
        }
    }
    return jstr(c, o, w);
}

/* ---- protobuf message -> JSON (Pb2Json::Message2Json) -------------------- */

static const char *const k_black_fields[] = {"output", "data_offset", "data", "workspace", "workspace_bytes",
                                             "memory_size", "weight_size", "size", "bt", "quantize_factor"};

static bool blacklisted(const char *name)
{
    for (size_t i = 0; i < OA_ARRAY_SIZE(k_black_fields); ++i) {
        if (strcmp(name, k_black_fields[i]) == 0) {
            return true;
        }
    }
    return false;
}

static const void *member(const ProtobufCMessage *m, unsigned off)
{
    return (const char *)m + off;
}

static bool is_zero_scalar(const ProtobufCFieldDescriptor *f, const void *p)
{
    switch (f->type) {
    case PROTOBUF_C_TYPE_BOOL:
        return *(const protobuf_c_boolean *)p == 0;
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_ENUM:
    case PROTOBUF_C_TYPE_FLOAT: {
        uint32_t x;
        memcpy(&x, p, 4);
        return x == 0;
    }
    case PROTOBUF_C_TYPE_STRING: {
        const char *s = *(char *const *)p;
        return s == NULL || s[0] == '\0';
    }
    case PROTOBUF_C_TYPE_BYTES:
        return ((const ProtobufCBinaryData *)p)->len == 0;
    case PROTOBUF_C_TYPE_MESSAGE:
        return *(ProtobufCMessage *const *)p == NULL;
    default: {
        uint64_t x;
        memcpy(&x, p, 8);
        return x == 0;
    }
    }
}

/* C++ HasField for a singular field. */
static bool has_field(const ProtobufCMessage *m, const ProtobufCFieldDescriptor *f, bool entry)
{
    if ((f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) != 0) {
        return *(const uint32_t *)member(m, f->quantifier_offset) == f->id;
    }
    if (entry) {
        return true;
    }
    return !is_zero_scalar(f, member(m, f->offset));
}

/* C++ ByteSizeLong() == 0. */
static bool msg_empty(const ProtobufCMessage *m)
{
    const ProtobufCMessageDescriptor *d = m->descriptor;
    if (m->n_unknown_fields != 0 || oa_om_pb_is_map_entry(d)) {
        return false;
    }
    for (unsigned i = 0; i < d->n_fields; ++i) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            if (*(const size_t *)member(m, f->quantifier_offset) != 0) {
                return false;
            }
        } else if (has_field(m, f, false)) {
            return false;
        }
    }
    return true;
}

static jval *jenum(jctx *c, const ProtobufCFieldDescriptor *f, int v)
{
    const ProtobufCEnumDescriptor *ed = f->descriptor;
    const ProtobufCEnumValue *ev = protobuf_c_enum_descriptor_get_value(ed, v);
    if (ev != NULL) {
        return jcstr(c, ev->name);
    }
    char b[160];
    (void)snprintf(b, sizeof(b), "UNKNOWN_ENUM_VALUE_%s_%d", ed->short_name, v);
    return jstr(c, oa_om_arena_strndup(c->a, b, strlen(b)), strlen(b));
}

static jval *msg_json(jctx *c, const ProtobufCMessage *m, int depth);

/* The integer, bool, enum and string kinds, shown alike in repeated and singular fields; false for the others. */
static bool plain_scalar(jctx *c, const ProtobufCFieldDescriptor *f, const void *p, jval **out)
{
    int32_t i32;
    uint32_t u32;
    int64_t i64;
    uint64_t u64;
    switch (f->type) {
    case PROTOBUF_C_TYPE_BOOL:
        *out = jbool(c, *(const protobuf_c_boolean *)p != 0);
        return true;
    case PROTOBUF_C_TYPE_ENUM:
        memcpy(&i32, p, 4);
        *out = jenum(c, f, i32);
        return true;
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
        memcpy(&i32, p, 4);
        *out = ji64(c, i32);
        return true;
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
        memcpy(&u32, p, 4);
        *out = ju64(c, u32);
        return true;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
        memcpy(&i64, p, 8);
        *out = ji64(c, i64);
        return true;
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
        memcpy(&u64, p, 8);
        *out = ju64(c, u64);
        return true;
    case PROTOBUF_C_TYPE_STRING:
        *out = jcstr(c, *(char *const *)p);
        return true;
    default:
        return false;
    }
}

/* A scalar for repeated fields (Pb2Json::RepeatedMessage2Json). */
static jval *repeated_elem(jctx *c, const ProtobufCFieldDescriptor *f, const void *p, int depth)
{
    jval *v = NULL;
    float fl;
    switch (f->type) {
    case PROTOBUF_C_TYPE_MESSAGE: {
        const ProtobufCMessage *sub = *(ProtobufCMessage *const *)p;
        if (sub != NULL && !msg_empty(sub)) {
            return msg_json(c, sub, depth + 1);
        }
        return jnew(c, J_NULL);
    }
    case PROTOBUF_C_TYPE_FLOAT:
        memcpy(&fl, p, 4);
        return jdouble(c, (double)fl);
    case PROTOBUF_C_TYPE_BYTES: {
        const ProtobufCBinaryData *b = p;
        return jstr(c, b->data, b->len);
    }
    default:
        return plain_scalar(c, f, p, &v) ? v : jnew(c, J_NULL);
    }
}

/* A singular field (Pb2Json::OneField2Json); NULL when nothing is shown. */
static jval *single_field(jctx *c, const ProtobufCFieldDescriptor *f, const void *p, bool entry, int depth)
{
    jval *v = NULL;
    float fl;
    switch (f->type) {
    case PROTOBUF_C_TYPE_MESSAGE: {
        const ProtobufCMessage *sub = *(ProtobufCMessage *const *)p;
        if (sub == NULL || msg_empty(sub)) {
            return NULL;
        }
        return msg_json(c, sub, depth + 1);
    }
    case PROTOBUF_C_TYPE_FLOAT:
        memcpy(&fl, p, 4);
        return jfloat_singular(c, fl);
    case PROTOBUF_C_TYPE_BYTES: {
        const ProtobufCBinaryData *b = p;
        /* Map keys and string values are proto strings in CANN's schema. */
        return entry ? jstr(c, b->data, b->len) : jcescape(c, b->data, b->len);
    }
    default:
        return plain_scalar(c, f, p, &v) ? v : NULL; /* Pb2Json shows no double */
    }
}

static jval *msg_json(jctx *c, const ProtobufCMessage *m, int depth)
{
    jval *o = jnew(c, J_NULL);
    if (o == NULL || depth > PB2JSON_MAX_DEPTH) {
        return o;
    }
    const ProtobufCMessageDescriptor *d = m->descriptor;
    const bool entry = oa_om_pb_is_map_entry(d);
    for (unsigned k = 0; k < d->n_fields && !c->oom; ++k) {
        const ProtobufCFieldDescriptor *f = &d->fields[d->fields_sorted_by_name[k]];
        if (blacklisted(f->name)) {
            continue;
        }
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            const size_t count = *(const size_t *)member(m, f->quantifier_offset);
            if (count == 0) {
                continue;
            }
            const char *arr = *(char *const *)member(m, f->offset);
            size_t es = f->type == PROTOBUF_C_TYPE_MESSAGE || f->type == PROTOBUF_C_TYPE_STRING ? sizeof(void *)
                        : f->type == PROTOBUF_C_TYPE_BYTES                                      ? sizeof(ProtobufCBinaryData)
                        : f->type == PROTOBUF_C_TYPE_BOOL                                       ? sizeof(protobuf_c_boolean)
                        : (f->type == PROTOBUF_C_TYPE_INT64 || f->type == PROTOBUF_C_TYPE_UINT64 ||
                           f->type == PROTOBUF_C_TYPE_SINT64 || f->type == PROTOBUF_C_TYPE_FIXED64 ||
                           f->type == PROTOBUF_C_TYPE_SFIXED64 || f->type == PROTOBUF_C_TYPE_DOUBLE)
                            ? 8
                            : 4;
            jval *a = jnew(c, J_NULL);
            for (size_t i = 0; i < count && !c->oom; ++i) {
                arr_push(c, a, repeated_elem(c, f, arr + i * es, depth));
            }
            obj_setc(c, o, f->name, a);
        } else if (has_field(m, f, entry)) {
            jval *v = single_field(c, f, member(m, f->offset), entry, depth);
            if (v != NULL) {
                obj_setc(c, o, f->name, v);
            }
        }
    }
    return o;
}

/* ---- attribute expansion on the JSON (Pb2Json::EnumJson2Json) ---------------- */

typedef struct jdict {
    const jval *names; /* J_ARR of J_STR */
    const jval *values;
    const jval *flags; /* J_ARR of J_BOOL */
} jdict;

static bool jstr_eq(const jval *v, const char *s)
{
    return v != NULL && v->k == J_STR && v->len == strlen(s) && memcmp(v->s, s, v->len) == 0;
}

static const jval *list_member(const jval *value, const char *kind)
{
    return obj_get(obj_get(value, "list"), kind);
}

static bool dict_init(jval *model, jdict *d, int64_t *version)
{
    jval *attr = obj_get(model, "attr");
    *version = 0;
    if (attr == NULL || attr->k != J_ARR) {
        return false;
    }
    size_t w = 0;
    for (size_t i = 0; i < attr->n; ++i) {
        jval *e = attr->a[i];
        const jval *key = obj_get(e, "key");
        const jval *value = obj_get(e, "value");
        bool drop = true;
        if (jstr_eq(key, OA_OM_ATTR_COMPRESS_VERSION)) {
            const jval *iv = obj_get(value, "i");
            *version = iv != NULL && iv->k == J_NUM ? strtoll(iv->s, NULL, 10) : 0;
        } else if (jstr_eq(key, OA_OM_ATTR_NAME_ENUM)) {
            d->names = list_member(value, "s");
        } else if (jstr_eq(key, OA_OM_ATTR_VALUE_ENUM)) {
            d->values = list_member(value, "s");
        } else if (jstr_eq(key, OA_OM_ATTR_USE_STRING)) {
            d->flags = list_member(value, "b");
        } else {
            drop = false;
        }
        if (!drop) {
            attr->a[w++] = e;
        }
    }
    attr->n = w;
    return *version == 1;
}

static size_t jarr_len(const jval *a)
{
    return a != NULL && a->k == J_ARR ? a->n : 0;
}

static bool dict_value(const jdict *d, const jval *idx, jval **out)
{
    if (idx == NULL || idx->k != J_NUM) {
        return false;
    }
    long long i = strtoll(idx->s, NULL, 10);
    if (i < 0 || (size_t)i >= jarr_len(d->values)) {
        return false;
    }
    *out = d->values->a[i];
    return true;
}

/* Returns false where Pb2Json's AttrReplaceKV returns -1 (it then stops). */
static bool attr_replace(jctx *c, jval *j, const jdict *d)
{
    if (j == NULL || (j->k != J_ARR && j->k != J_OBJ)) {
        return true;
    }
    jval *key = obj_get(j, "key");
    jval *value = obj_get(j, "value");
    if (key != NULL && value != NULL) {
        if (key->k != J_STR || key->len == 0) {
            return false;
        }
        bool is_string = false;
        if (key->s[0] == '\0') {
            ProtobufCBinaryData kb = {key->len, (uint8_t *)(uintptr_t)key->s};
            size_t idx = 0;
            if (!oa_om_key_decode(&kb, &idx) || idx >= jarr_len(d->names) || idx >= jarr_len(d->flags)) {
                return false;
            }
            const jval *flag = d->flags->a[idx];
            is_string = flag != NULL && flag->k == J_BOOL && flag->b;
            obj_setc(c, j, "key", d->names->a[idx]);
        }
        if (!is_string) {
            return true;
        }
        bool ok = true;
        jval *iv = obj_get(value, "i");
        if (iv != NULL) {
            jval *s = NULL;
            ok = dict_value(d, iv, &s);
            obj_setc(c, value, "s", ok ? s : jstr(c, "", 0));
            obj_del(value, "i");
        }
        jval *list = obj_get(value, "list");
        if (list != NULL && list->k == J_OBJ) {
            jval *li = obj_get(list, "i");
            if (li != NULL) {
                jval *arr = jnew(c, J_NULL);
                for (size_t k = 0; li->k == J_ARR && k < li->n && ok; ++k) {
                    jval *s = NULL;
                    ok = dict_value(d, li->a[k], &s);
                    if (ok) {
                        arr_push(c, arr, s);
                    }
                }
                if (arr != NULL && arr->k == J_NULL) {
                    arr->k = J_ARR;
                }
                obj_setc(c, list, "s", arr);
                obj_del(list, "i");
            }
            if (obj_get(list, "val_type") != NULL) {
                obj_setc(c, list, "val_type", jcstr(c, "VT_LIST_STRING"));
            }
        }
        if (!ok) {
            return false;
        }
    }
    if (j->k == J_OBJ) {
        for (size_t i = 0; i < j->n; ++i) {
            if (!attr_replace(c, j->m[i].v, d)) {
                return false;
            }
        }
    } else {
        for (size_t i = 0; i < j->n; ++i) {
            if (!attr_replace(c, j->a[i], d)) {
                return false;
            }
        }
    }
    return true;
}

static jval *model_json(jctx *c, const Ge__Proto__ModelDef *def)
{
    jval *j = msg_json(c, &def->base, 0);
    jdict d = {0};
    int64_t version = 0;
    if (j != NULL && dict_init(j, &d, &version)) {
        (void)attr_replace(c, j, &d);
    }
    return j;
}

/* ---- printing (nlohmann::json::dump(2)) ---------------------------------------- */

typedef struct obuf {
    char *p;
    size_t n;
    size_t cap;
    bool oom;
} obuf;

static void put(obuf *b, const void *d, size_t n)
{
    if (b->oom || n == 0) {
        return;
    }
    if (b->cap - b->n < n + 1) {
        size_t need;
        if (!oa_add_size(b->n, n + 1, &need)) {
            b->oom = true;
            return;
        }
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < need) {
            cap = cap > SIZE_MAX / 2 ? need : cap * 2;
        }
        char *np = realloc(b->p, cap);
        if (np == NULL) {
            b->oom = true;
            return;
        }
        b->p = np;
        b->cap = cap;
    }
    memcpy(b->p + b->n, d, n);
    b->n += n;
    b->p[b->n] = '\0';
}

static void puts_(obuf *b, const char *s)
{
    put(b, s, strlen(s));
}

static void indent(obuf *b, size_t level)
{
    static const char sp[] = "                                ";
    size_t n = level * 2;
    while (n > 0) {
        size_t k = n < sizeof(sp) - 1 ? n : sizeof(sp) - 1;
        put(b, sp, k);
        n -= k;
    }
}

/* Length of the UTF-8 sequence led by c, 0 for a byte that cannot lead. */
static size_t utf8_lead(uint8_t c)
{
    return c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
}

static bool utf8_cont_ok(const uint8_t *s, size_t k)
{
    for (size_t j = 1; j < k; ++j) {
        if ((s[j] & 0xC0) != 0x80) {
            return false;
        }
    }
    if (k == 3) {
        return !(s[0] == 0xE0 && s[1] < 0xA0) && !(s[0] == 0xED && s[1] > 0x9F);
    }
    if (k == 4) {
        return !(s[0] == 0xF0 && s[1] < 0x90) && !(s[0] == 0xF4 && s[1] > 0x8F);
    }
    return true;
}

static void put_string(obuf *b, const char *s, size_t n)
{
    const uint8_t *u = (const uint8_t *)s;
    put(b, "\"", 1);
    size_t i = 0;
    while (i < n) {
        uint8_t ch = u[i];
        size_t k = utf8_lead(ch);
        if (k == 0) {
            ++i; /* not UTF-8: dropped */
            continue;
        }
        if (k > 1) {
            if (n - i < k || !utf8_cont_ok(u + i, k)) {
                ++i; /* broken sequence: drop its lead, retry the rest */
                continue;
            }
            put(b, u + i, k);
            i += k;
            continue;
        }
        char esc[8];
        switch (ch) {
        case '\b': puts_(b, "\\b"); break;
        case '\t': puts_(b, "\\t"); break;
        case '\n': puts_(b, "\\n"); break;
        case '\f': puts_(b, "\\f"); break;
        case '\r': puts_(b, "\\r"); break;
        case '"': puts_(b, "\\\""); break;
        case '\\': puts_(b, "\\\\"); break;
        default:
            if (ch <= 0x1F) {
                (void)snprintf(esc, sizeof(esc), "\\u%04x", ch);
                puts_(b, esc);
            } else {
                put(b, &ch, 1);
            }
            break;
        }
        ++i;
    }
    put(b, "\"", 1);
}

static void dump(obuf *b, const jval *v, size_t level)
{
    if (v == NULL) {
        puts_(b, "null");
        return;
    }
    switch (v->k) {
    case J_NULL:
        puts_(b, "null");
        break;
    case J_BOOL:
        puts_(b, v->b ? "true" : "false");
        break;
    case J_NUM:
        put(b, v->s, v->len);
        break;
    case J_STR:
        put_string(b, v->s, v->len);
        break;
    case J_ARR:
        if (v->n == 0) {
            puts_(b, "[]");
            break;
        }
        puts_(b, "[\n");
        for (size_t i = 0; i < v->n; ++i) {
            indent(b, level + 1);
            dump(b, v->a[i], level + 1);
            puts_(b, i + 1 < v->n ? ",\n" : "\n");
        }
        indent(b, level);
        puts_(b, "]");
        break;
    case J_OBJ:
        if (v->n == 0) {
            puts_(b, "{}");
            break;
        }
        puts_(b, "{\n");
        for (size_t i = 0; i < v->n; ++i) {
            indent(b, level + 1);
            put_string(b, v->m[i].key, v->m[i].klen);
            puts_(b, ": ");
            dump(b, v->m[i].v, level + 1);
            puts_(b, i + 1 < v->n ? ",\n" : "\n");
        }
        indent(b, level);
        puts_(b, "}");
        break;
    }
}

/* ---- whole-file view ------------------------------------------------------------ */

static jval *jfixed_str(jctx *c, const char *s, size_t cap)
{
    const char *z = memchr(s, '\0', cap);
    return jstr(c, s, z != NULL ? (size_t)(z - s) : cap);
}

static jval *header_json(jctx *c, const oa_om_container *ct)
{
    const oa_om_header *h = &ct->header;
    jval *o = jnew(c, J_OBJ);
    obj_setc(c, o, "magic", ju64(c, h->magic));
    obj_setc(c, o, "headsize", ju64(c, h->headsize));
    obj_setc(c, o, "version", ju64(c, h->version));
    obj_setc(c, o, "length", ju64(c, h->length));
    obj_setc(c, o, "is_encrypt", ju64(c, h->is_encrypt));
    obj_setc(c, o, "is_checksum", ju64(c, h->is_checksum));
    obj_setc(c, o, "modeltype", ju64(c, h->modeltype));
    obj_setc(c, o, "genmode", ju64(c, h->genmode));
    obj_setc(c, o, "name", jfixed_str(c, h->name, OA_OM_NAME_LEN));
    obj_setc(c, o, "ops", ju64(c, h->ops));
    obj_setc(c, o, "om_ir_version", ju64(c, h->om_ir_version));
    obj_setc(c, o, "model_num", ju64(c, h->model_num));
    obj_setc(c, o, "platform_version", jfixed_str(c, h->platform_version, OA_OM_PLATFORM_VERSION_LEN));
    obj_setc(c, o, "platform_type", ju64(c, h->platform_type));
    obj_setc(c, o, "model_length", ju64(c, h->model_length));
    obj_setc(c, o, "need_check_os_cpu_info", ju64(c, h->need_check_os_cpu_info));
    obj_setc(c, o, "is_unknow_model", ju64(c, h->is_unknow_model));
    obj_setc(c, o, "dynamic", jbool(c, ct->dynamic));
    return o;
}

static jval *tables_json(jctx *c, const oa_om_container *ct)
{
    jval *arr = jnew(c, J_ARR);
    for (uint32_t t = 0; t < ct->num_tables; ++t) {
        const oa_om_table *tb = &ct->tables[t];
        jval *o = jnew(c, J_OBJ);
        obj_setc(c, o, "file_offset", ju64(c, tb->file_offset));
        obj_setc(c, o, "num", ju64(c, tb->num));
        obj_setc(c, o, "tiny", jbool(c, tb->tiny));
        jval *parts = jnew(c, J_ARR);
        for (uint32_t i = 0; i < tb->num; ++i) {
            const oa_om_partition *p = &tb->parts[i];
            jval *po = jnew(c, J_OBJ);
            obj_setc(c, po, "type", ju64(c, p->type));
            obj_setc(c, po, "type_name", jcstr(c, oa_om_part_type_name(p->type)));
            obj_setc(c, po, "mem_offset", ju64(c, p->mem_offset));
            obj_setc(c, po, "mem_size", ju64(c, p->size));
            obj_setc(c, po, "file_offset", ju64(c, (uint64_t)(p->data - ct->image)));
            arr_push(c, parts, po);
        }
        obj_setc(c, o, "partitions", parts);
        arr_push(c, arr, o);
    }
    return arr;
}

static jval *i64_array(jctx *c, const int64_t *v, size_t n)
{
    jval *a = jnew(c, J_ARR);
    for (size_t i = 0; i < n; ++i) {
        arr_push(c, a, ji64(c, v[i]));
    }
    return a;
}

static jval *io_tensors_json(jctx *c, const oa_om_io_tensor *t, size_t n)
{
    jval *a = jnew(c, J_ARR);
    for (size_t i = 0; i < n; ++i) {
        jval *o = jnew(c, J_OBJ);
        obj_setc(c, o, "name", jstr(c, t[i].name, t[i].name_len));
        obj_setc(c, o, "size", ju64(c, t[i].size));
        obj_setc(c, o, "format", ji64(c, t[i].format));
        obj_setc(c, o, "dtype", ji64(c, t[i].dtype));
        obj_setc(c, o, "dims", i64_array(c, t[i].dims, t[i].n_dims));
        obj_setc(c, o, "dims_v2", i64_array(c, t[i].dims_v2, t[i].n_dims_v2));
        obj_setc(c, o, "shape_range", i64_array(c, t[i].ranges, t[i].n_ranges * 2));
        arr_push(c, a, o);
    }
    return a;
}

static jval *gears_json(jctx *c, const oa_om_io_gears *g)
{
    jval *a = jnew(c, J_ARR);
    for (size_t i = 0; i < g->n; ++i) {
        arr_push(c, a, i64_array(c, g->vals[i], g->len[i]));
    }
    return a;
}

static jval *strings_json(jctx *c, const oa_om_io_strings *s)
{
    jval *a = jnew(c, J_ARR);
    for (size_t i = 0; i < s->n; ++i) {
        arr_push(c, a, jstr(c, s->s[i], s->len[i]));
    }
    return a;
}

static jval *inout_json(jctx *c, const oa_om_inout *io)
{
    jval *o = jnew(c, J_OBJ);
    obj_setc(c, o, "inputs", io_tensors_json(c, io->inputs, io->n_inputs));
    obj_setc(c, o, "outputs", io_tensors_json(c, io->outputs, io->n_outputs));
    obj_setc(c, o, "dynamic_batch", i64_array(c, io->batch, io->n_batch));
    obj_setc(c, o, "dynamic_hw", gears_json(c, &io->hw));
    obj_setc(c, o, "dynamic_dims", gears_json(c, &io->dims));
    obj_setc(c, o, "dynamic_output_shape", strings_json(c, &io->dynamic_output_shape));
    obj_setc(c, o, "designate_shape_order", strings_json(c, &io->designate_shape_order));
    return o;
}

oa_status oa_om_dump_json(const void *image, size_t size, unsigned flags, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    oa_om_model *m = NULL;
    oa_status st = oa_om_model_open_memory(image, size, OA_OM_OPEN_KEEP_COMPRESSED | OA_OM_OPEN_SKIP_TASK, &m);
    if (st != OA_OK) {
        return st;
    }
    jctx c = {0};
    st = oa_om_arena_create(&c.a);
    if (st != OA_OK) {
        oa_om_model_destroy(m);
        return OA_FAIL(st, "[Dump][Json] arena");
    }
    jval *root;
    if ((flags & OA_OM_JSON_CANN) != 0) {
        root = model_json(&c, m->models[0].def);
    } else {
        root = jnew(&c, J_OBJ);
        obj_setc(&c, root, "header", header_json(&c, &m->container));
        obj_setc(&c, root, "partition_tables", tables_json(&c, &m->container));
        obj_setc(&c, root, "model", model_json(&c, m->models[0].def));
        jval *subs = jnew(&c, J_ARR);
        for (uint32_t i = 1; i < m->num_models; ++i) {
            arr_push(&c, subs, model_json(&c, m->models[i].def));
        }
        obj_setc(&c, root, "submodels", subs);
        if (m->inout != NULL) {
            obj_setc(&c, root, "model_inout_info", inout_json(&c, m->inout));
        }
    }
    obuf b = {0};
    if (!c.oom) {
        dump(&b, root, 0);
    }
    if (c.oom || b.oom || b.p == NULL) {
        free(b.p);
        st = OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Dump][Json] out of memory");
    } else {
        *out = b.p;
        *len = b.n;
    }
    oa_om_arena_destroy(c.a);
    oa_om_model_destroy(m);
    return st;
}

oa_status oa_om_dump_json_file(const char *om_path, const char *json_path, unsigned flags)
{
    if (json_path == NULL || json_path[0] == '\0') {
        return OA_FAIL(OA_E_GE_PARAM, "[Dump][Json] output path is empty");
    }
    oa_om_image img;
    oa_status st = oa_om_image_map_file(om_path, &img);
    if (st != OA_OK) {
        return st;
    }
    char *text = NULL;
    size_t len = 0;
    st = oa_om_dump_json(img.data, img.size, flags, &text, &len);
    oa_om_image_unmap(&img);
    if (st != OA_OK) {
        return st;
    }
    size_t plen = strlen(json_path);
    char *tmp = malloc(plen + sizeof(".tmp.XXXXXX"));
    if (tmp == NULL) {
        free(text);
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Dump][Json] path");
    }
    memcpy(tmp, json_path, plen);
    memcpy(tmp + plen, ".tmp.XXXXXX", sizeof(".tmp.XXXXXX"));
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (f == NULL) {
        st = OA_FAIL(OA_E_WRITE_FILE, "[Dump][Json] cannot create %s", tmp);
        if (fd >= 0) {
            (void)close(fd);
            (void)unlink(tmp);
        }
    } else {
        bool ok = fwrite(text, 1, len, f) == len;
        ok = (fclose(f) == 0) && ok;
        if (!ok || rename(tmp, json_path) != 0) {
            st = OA_FAIL(OA_E_WRITE_FILE, "[Dump][Json] writing %s failed", json_path);
            (void)unlink(tmp);
        }
    }
    free(tmp);
    free(text);
    return st;
}

/* aclopAttr storage, equality, digest and IR conversion (op_attr.h). */
#include "acl_op/op_attr.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/hash.h"
#include "base/util.h"

#define FLOAT_DELTA 1e-6f

aclopAttr *oa_opattr_create(void)
{
    return calloc(1, sizeof(aclopAttr));
}

static void item_clear(oa_opattr_item *it)
{
    switch (it->kind) {
    case OA_OPATTR_STRING:
        free(it->u.s);
        break;
    case OA_OPATTR_LIST_STRING:
        for (size_t i = 0; i < it->u.list.n; ++i) {
            free(((char **)it->u.list.v)[i]);
        }
        free(it->u.list.v);
        break;
    case OA_OPATTR_LIST_BOOL:
    case OA_OPATTR_LIST_INT:
    case OA_OPATTR_LIST_FLOAT:
    case OA_OPATTR_LIST_DTYPE:
        free(it->u.list.v);
        break;
    case OA_OPATTR_LIST_LIST_INT:
        for (size_t i = 0; i < it->u.lli.n; ++i) {
            free(it->u.lli.v[i]);
        }
        free(it->u.lli.v);
        free(it->u.lli.lens);
        break;
    default:
        break;
    }
    memset(&it->u, 0, sizeof(it->u));
}

void oa_opattr_destroy(aclopAttr *a)
{
    if (a == NULL) {
        return;
    }
    for (size_t i = 0; i < a->n; ++i) {
        item_clear(&a->items[i]);
        free(a->items[i].name);
    }
    free(a->items);
    free(a);
}

/* Position of name, or where it would be inserted (*found false). */
static size_t find_pos(const aclopAttr *a, const char *name, bool *found)
{
    size_t lo = 0, hi = a->n;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        const int c = strcmp(a->items[mid].name, name);
        if (c == 0) {
            *found = true;
            return mid;
        }
        if (c < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    *found = false;
    return lo;
}

const oa_opattr_item *oa_opattr_find(const aclopAttr *a, const char *name)
{
    if (a == NULL || name == NULL) {
        return NULL;
    }
    bool found;
    const size_t pos = find_pos(a, name, &found);
    return found ? &a->items[pos] : NULL;
}

size_t oa_opattr_count(const aclopAttr *a)
{
    return a == NULL ? 0 : a->n;
}

bool oa_opattr_remove(aclopAttr *a, const char *name)
{
    if (a == NULL || name == NULL) {
        return false;
    }
    bool found;
    const size_t pos = find_pos(a, name, &found);
    if (!found) {
        return false;
    }
    item_clear(&a->items[pos]);
    free(a->items[pos].name);
    memmove(&a->items[pos], &a->items[pos + 1], (a->n - pos - 1) * sizeof(a->items[0]));
    a->n--;
    return true;
}

/*
 * Installs a fully built value (it->u, it->kind; name ignored) under name.
 * On failure the value in *it is released.
 */
static oa_status install(aclopAttr *a, const char *name, oa_opattr_item *it)
{
    if (a == NULL || name == NULL) {
        item_clear(it);
        return OA_FAIL(OA_E_PARAM, "attribute map and name must not be null");
    }
    bool found;
    const size_t pos = find_pos(a, name, &found);
    if (found) {
        item_clear(&a->items[pos]);
        a->items[pos].kind = it->kind;
        a->items[pos].u = it->u;
        return OA_OK;
    }
    char *nm = strdup(name);
    if (nm == NULL) {
        item_clear(it);
        return OA_FAIL(OA_E_NOMEM, "attribute name");
    }
    if (a->n == a->cap) {
        const size_t cap = a->cap ? a->cap * 2 : 8;
        oa_opattr_item *items = realloc(a->items, cap * sizeof(*items));
        if (items == NULL) {
            free(nm);
            item_clear(it);
            return OA_FAIL(OA_E_NOMEM, "attribute map");
        }
        a->items = items;
        a->cap = cap;
    }
    memmove(&a->items[pos + 1], &a->items[pos], (a->n - pos) * sizeof(a->items[0]));
    a->items[pos].name = nm;
    a->items[pos].kind = it->kind;
    a->items[pos].u = it->u;
    a->n++;
    return OA_OK;
}

static oa_status set_scalar(aclopAttr *a, const char *name, oa_opattr_item *it)
{
    return install(a, name, it);
}

oa_status oa_opattr_set_bool(aclopAttr *a, const char *name, bool v)
{
    oa_opattr_item it = {.kind = OA_OPATTR_BOOL};
    it.u.b = v;
    return set_scalar(a, name, &it);
}

oa_status oa_opattr_set_int(aclopAttr *a, const char *name, int64_t v)
{
    oa_opattr_item it = {.kind = OA_OPATTR_INT};
    it.u.i = v;
    return set_scalar(a, name, &it);
}

oa_status oa_opattr_set_float(aclopAttr *a, const char *name, float v)
{
    oa_opattr_item it = {.kind = OA_OPATTR_FLOAT};
    it.u.f = v;
    return set_scalar(a, name, &it);
}

oa_status oa_opattr_set_dtype(aclopAttr *a, const char *name, int32_t ge_dtype)
{
    oa_opattr_item it = {.kind = OA_OPATTR_DTYPE};
    it.u.dt = ge_dtype;
    return set_scalar(a, name, &it);
}

oa_status oa_opattr_set_other(aclopAttr *a, const char *name, int32_t what)
{
    oa_opattr_item it = {.kind = OA_OPATTR_OTHER};
    it.u.other = what;
    return set_scalar(a, name, &it);
}

oa_status oa_opattr_set_string(aclopAttr *a, const char *name, const char *v)
{
    if (v == NULL) {
        return OA_FAIL(OA_E_PARAM, "string value of attribute [%s] must not be null", name ? name : "(null)");
    }
    oa_opattr_item it = {.kind = OA_OPATTR_STRING};
    it.u.s = strdup(v);
    if (it.u.s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "attribute value");
    }
    return install(a, name, &it);
}

static oa_status set_list(aclopAttr *a, const char *name, oa_opattr_kind kind, size_t n, const void *v, size_t esz)
{
    oa_opattr_item it = {.kind = kind};
    size_t bytes;
    if (!oa_mul_size(n, esz, &bytes)) {
        return OA_FAIL(OA_E_PARAM, "attribute [%s]: %zu values overflow", name ? name : "(null)", n);
    }
    it.u.list.n = n;
    it.u.list.v = malloc(bytes ? bytes : 1);
    if (it.u.list.v == NULL) {
        return OA_FAIL(OA_E_NOMEM, "attribute value");
    }
    if (bytes > 0) {
        memcpy(it.u.list.v, v, bytes);
    }
    return install(a, name, &it);
}

oa_status oa_opattr_set_list_bool(aclopAttr *a, const char *name, size_t n, const bool *v)
{
    return set_list(a, name, OA_OPATTR_LIST_BOOL, n, v, sizeof(bool));
}

oa_status oa_opattr_set_list_int(aclopAttr *a, const char *name, size_t n, const int64_t *v)
{
    return set_list(a, name, OA_OPATTR_LIST_INT, n, v, sizeof(int64_t));
}

oa_status oa_opattr_set_list_float(aclopAttr *a, const char *name, size_t n, const float *v)
{
    return set_list(a, name, OA_OPATTR_LIST_FLOAT, n, v, sizeof(float));
}

oa_status oa_opattr_set_list_dtype(aclopAttr *a, const char *name, size_t n, const int32_t *ge_dtypes)
{
    return set_list(a, name, OA_OPATTR_LIST_DTYPE, n, ge_dtypes, sizeof(int32_t));
}

oa_status oa_opattr_set_list_string(aclopAttr *a, const char *name, size_t n, const char *const *v)
{
    oa_opattr_item it = {.kind = OA_OPATTR_LIST_STRING};
    char **arr = calloc(n ? n : 1, sizeof(char *));
    if (arr == NULL) {
        return OA_FAIL(OA_E_NOMEM, "attribute value");
    }
    it.u.list.v = arr;
    for (size_t i = 0; i < n; ++i) {
        arr[i] = strdup(v[i] != NULL ? v[i] : "");
        it.u.list.n = i + 1;
        if (arr[i] == NULL) {
            item_clear(&it);
            return OA_FAIL(OA_E_NOMEM, "attribute value");
        }
    }
    it.u.list.n = n;
    return install(a, name, &it);
}

oa_status oa_opattr_set_list_list_int(aclopAttr *a, const char *name, size_t n, const size_t *lens,
                                      const int64_t *const *v)
{
    oa_opattr_item it = {.kind = OA_OPATTR_LIST_LIST_INT};
    it.u.lli.v = calloc(n ? n : 1, sizeof(int64_t *));
    it.u.lli.lens = calloc(n ? n : 1, sizeof(size_t));
    if (it.u.lli.v == NULL || it.u.lli.lens == NULL) {
        free(it.u.lli.v);
        free(it.u.lli.lens);
        return OA_FAIL(OA_E_NOMEM, "attribute value");
    }
    it.u.lli.n = n;
    for (size_t i = 0; i < n; ++i) {
        size_t bytes;
        if (!oa_mul_size(lens[i], sizeof(int64_t), &bytes) || (it.u.lli.v[i] = malloc(bytes ? bytes : 1)) == NULL) {
            item_clear(&it);
            return OA_FAIL(OA_E_NOMEM, "attribute value");
        }
        if (bytes > 0) {
            memcpy(it.u.lli.v[i], v[i], bytes);
        }
        it.u.lli.lens[i] = lens[i];
    }
    return install(a, name, &it);
}

static oa_status copy_item(aclopAttr *dst, const oa_opattr_item *it)
{
    switch (it->kind) {
    case OA_OPATTR_BOOL: return oa_opattr_set_bool(dst, it->name, it->u.b);
    case OA_OPATTR_INT: return oa_opattr_set_int(dst, it->name, it->u.i);
    case OA_OPATTR_FLOAT: return oa_opattr_set_float(dst, it->name, it->u.f);
    case OA_OPATTR_STRING: return oa_opattr_set_string(dst, it->name, it->u.s);
    case OA_OPATTR_DTYPE: return oa_opattr_set_dtype(dst, it->name, it->u.dt);
    case OA_OPATTR_LIST_BOOL: return oa_opattr_set_list_bool(dst, it->name, it->u.list.n, it->u.list.v);
    case OA_OPATTR_LIST_INT: return oa_opattr_set_list_int(dst, it->name, it->u.list.n, it->u.list.v);
    case OA_OPATTR_LIST_FLOAT: return oa_opattr_set_list_float(dst, it->name, it->u.list.n, it->u.list.v);
    case OA_OPATTR_LIST_DTYPE: return oa_opattr_set_list_dtype(dst, it->name, it->u.list.n, it->u.list.v);
    case OA_OPATTR_LIST_STRING:
        return oa_opattr_set_list_string(dst, it->name, it->u.list.n, (const char *const *)it->u.list.v);
    case OA_OPATTR_LIST_LIST_INT:
        return oa_opattr_set_list_list_int(dst, it->name, it->u.lli.n, it->u.lli.lens,
                                           (const int64_t *const *)it->u.lli.v);
    case OA_OPATTR_OTHER: return oa_opattr_set_other(dst, it->name, it->u.other);
    }
    return OA_FAIL(OA_E_INTERNAL, "unknown attribute kind %d", (int)it->kind);
}

oa_status oa_opattr_clone(const aclopAttr *src, aclopAttr **out)
{
    *out = NULL;
    aclopAttr *a = oa_opattr_create();
    if (a == NULL) {
        return OA_FAIL(OA_E_NOMEM, "attribute map");
    }
    for (size_t i = 0; src != NULL && i < src->n; ++i) {
        const oa_status st = copy_item(a, &src->items[i]);
        if (st != OA_OK) {
            oa_opattr_destroy(a);
            return st;
        }
    }
    *out = a;
    return OA_OK;
}

/* ---- equality ---- */

static bool float_equal(float x, float y)
{
    if (isnan(x) && isnan(y)) {
        return true;
    }
    if (isinf(x) && isinf(y)) {
        return true;
    }
    return fabsf(x - y) <= FLOAT_DELTA;
}

bool oa_opattr_item_equal(const oa_opattr_item *x, const oa_opattr_item *y)
{
    if (x->kind != y->kind) {
        return false;
    }
    switch (x->kind) {
    case OA_OPATTR_BOOL: return x->u.b == y->u.b;
    case OA_OPATTR_INT: return x->u.i == y->u.i;
    case OA_OPATTR_FLOAT: return float_equal(x->u.f, y->u.f);
    case OA_OPATTR_STRING: return strcmp(x->u.s, y->u.s) == 0;
    case OA_OPATTR_DTYPE: return x->u.dt == y->u.dt;
    case OA_OPATTR_LIST_BOOL:
    case OA_OPATTR_LIST_INT:
    case OA_OPATTR_LIST_DTYPE: {
        if (x->u.list.n != y->u.list.n) {
            return false;
        }
        const size_t esz = x->kind == OA_OPATTR_LIST_BOOL ? sizeof(bool)
                           : x->kind == OA_OPATTR_LIST_INT ? sizeof(int64_t)
                                                           : sizeof(int32_t);
        return x->u.list.n == 0 || memcmp(x->u.list.v, y->u.list.v, x->u.list.n * esz) == 0;
    }
    case OA_OPATTR_LIST_FLOAT: {
        if (x->u.list.n != y->u.list.n) {
            return false;
        }
        const float *a = x->u.list.v, *b = y->u.list.v;
        for (size_t i = 0; i < x->u.list.n; ++i) {
            if (!float_equal(a[i], b[i])) {
                return false;
            }
        }
        return true;
    }
    case OA_OPATTR_LIST_STRING: {
        if (x->u.list.n != y->u.list.n) {
            return false;
        }
        char *const *a = x->u.list.v, *const *b = y->u.list.v;
        for (size_t i = 0; i < x->u.list.n; ++i) {
            if (strcmp(a[i], b[i]) != 0) {
                return false;
            }
        }
        return true;
    }
    case OA_OPATTR_LIST_LIST_INT: {
        if (x->u.lli.n != y->u.lli.n) {
            return false;
        }
        for (size_t i = 0; i < x->u.lli.n; ++i) {
            if (x->u.lli.lens[i] != y->u.lli.lens[i] ||
                (x->u.lli.lens[i] > 0 &&
                 memcmp(x->u.lli.v[i], y->u.lli.v[i], x->u.lli.lens[i] * sizeof(int64_t)) != 0)) {
                return false;
            }
        }
        return true;
    }
    case OA_OPATTR_OTHER:
        return false;
    }
    return false;
}

bool oa_opattr_equal(const aclopAttr *x, const aclopAttr *y)
{
    const size_t nx = oa_opattr_count(x), ny = oa_opattr_count(y);
    if (nx != ny) {
        return false;
    }
    for (size_t i = 0; i < ny; ++i) {
        const oa_opattr_item *o = oa_opattr_find(x, y->items[i].name);
        if (o == NULL || !oa_opattr_item_equal(o, &y->items[i])) {
            return false;
        }
    }
    return true;
}

/* ---- digest ---- */

uint64_t oa_opattr_hash_bytes(const void *p, size_t n)
{
    return oa_fnv1a64(p, n);
}

static uint64_t hash_float(float f)
{
    if (f == 0.0f) {
        return 0; /* +0 and -0 hash alike */
    }
    uint32_t bits;
    memcpy(&bits, &f, sizeof(bits));
    return oa_opattr_hash_bytes(&bits, sizeof(bits));
}

static uint64_t item_digest(uint64_t seed, const oa_opattr_item *it)
{
    switch (it->kind) {
    case OA_OPATTR_BOOL: return oa_opattr_hash_combine(seed, it->u.b ? 1u : 0u);
    case OA_OPATTR_INT: return oa_opattr_hash_combine(seed, (uint64_t)it->u.i);
    case OA_OPATTR_FLOAT: return oa_opattr_hash_combine(seed, hash_float(it->u.f));
    case OA_OPATTR_STRING: return oa_opattr_hash_combine(seed, oa_opattr_hash_bytes(it->u.s, strlen(it->u.s)));
    case OA_OPATTR_DTYPE: return oa_opattr_hash_combine(seed, (uint64_t)(int64_t)it->u.dt);
    case OA_OPATTR_LIST_BOOL:
        for (size_t i = 0; i < it->u.list.n; ++i) {
            seed = oa_opattr_hash_combine(seed, ((const bool *)it->u.list.v)[i] ? 1u : 0u);
        }
        return seed;
    case OA_OPATTR_LIST_INT:
        for (size_t i = 0; i < it->u.list.n; ++i) {
            seed = oa_opattr_hash_combine(seed, (uint64_t)((const int64_t *)it->u.list.v)[i]);
        }
        return seed;
    case OA_OPATTR_LIST_FLOAT:
        for (size_t i = 0; i < it->u.list.n; ++i) {
            seed = oa_opattr_hash_combine(seed, hash_float(((const float *)it->u.list.v)[i]));
        }
        return seed;
    case OA_OPATTR_LIST_DTYPE:
        for (size_t i = 0; i < it->u.list.n; ++i) {
            seed = oa_opattr_hash_combine(seed, (uint64_t)(int64_t)((const int32_t *)it->u.list.v)[i]);
        }
        return seed;
    case OA_OPATTR_LIST_STRING:
        for (size_t i = 0; i < it->u.list.n; ++i) {
            const char *s = ((char *const *)it->u.list.v)[i];
            seed = oa_opattr_hash_combine(seed, oa_opattr_hash_bytes(s, strlen(s)));
        }
        return seed;
    case OA_OPATTR_LIST_LIST_INT:
        for (size_t i = 0; i < it->u.lli.n; ++i) {
            for (size_t k = 0; k < it->u.lli.lens[i]; ++k) {
                seed = oa_opattr_hash_combine(seed, (uint64_t)it->u.lli.v[i][k]);
            }
        }
        return seed;
    case OA_OPATTR_OTHER:
        return seed; /* CANN's digest skips kinds it does not know */
    }
    return seed;
}

uint64_t oa_opattr_digest(const aclopAttr *a)
{
    uint64_t d = 0;
    for (size_t i = 0; a != NULL && i < a->n; ++i) {
        d = item_digest(d, &a->items[i]);
    }
    return d;
}

/* ---- text ---- */

static void app(char *buf, size_t cap, size_t *len, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void app(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
    if (*len + 1 >= cap) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(buf + *len, cap - *len, fmt, ap);
    va_end(ap);
    if (n > 0) {
        *len = OA_MIN(cap - 1, *len + (size_t)n);
    }
}

char *oa_opattr_str(const aclopAttr *a, char *buf, size_t cap)
{
    size_t len = 0;
    if (cap == 0) {
        return buf;
    }
    buf[0] = '\0';
    app(buf, cap, &len, "{");
    for (size_t i = 0; a != NULL && i < a->n; ++i) {
        const oa_opattr_item *it = &a->items[i];
        app(buf, cap, &len, "%s%s = ", i ? ", " : "", it->name);
        switch (it->kind) {
        case OA_OPATTR_BOOL: app(buf, cap, &len, "%s", it->u.b ? "True" : "False"); break;
        case OA_OPATTR_INT: app(buf, cap, &len, "%lld", (long long)it->u.i); break;
        case OA_OPATTR_FLOAT: app(buf, cap, &len, "%g", (double)it->u.f); break;
        case OA_OPATTR_STRING: app(buf, cap, &len, "%s", it->u.s); break;
        case OA_OPATTR_DTYPE: app(buf, cap, &len, "%d", (int)it->u.dt); break;
        case OA_OPATTR_LIST_LIST_INT:
            app(buf, cap, &len, "[");
            for (size_t k = 0; k < it->u.lli.n; ++k) {
                app(buf, cap, &len, "%s[", k ? ", " : "");
                for (size_t j = 0; j < it->u.lli.lens[k]; ++j) {
                    app(buf, cap, &len, "%s%lld", j ? ", " : "", (long long)it->u.lli.v[k][j]);
                }
                app(buf, cap, &len, "]");
            }
            app(buf, cap, &len, "]");
            break;
        case OA_OPATTR_OTHER: app(buf, cap, &len, "<value of kind %d>", (int)it->u.other); break;
        default:
            app(buf, cap, &len, "[");
            for (size_t k = 0; k < it->u.list.n; ++k) {
                const char *sep = k ? ", " : "";
                switch (it->kind) {
                case OA_OPATTR_LIST_BOOL:
                    app(buf, cap, &len, "%s%s", sep, ((const bool *)it->u.list.v)[k] ? "True" : "False");
                    break;
                case OA_OPATTR_LIST_INT:
                    app(buf, cap, &len, "%s%lld", sep, (long long)((const int64_t *)it->u.list.v)[k]);
                    break;
                case OA_OPATTR_LIST_FLOAT:
                    app(buf, cap, &len, "%s%g", sep, (double)((const float *)it->u.list.v)[k]);
                    break;
                case OA_OPATTR_LIST_DTYPE:
                    app(buf, cap, &len, "%s%d", sep, (int)((const int32_t *)it->u.list.v)[k]);
                    break;
                default:
                    app(buf, cap, &len, "%s%s", sep, ((char *const *)it->u.list.v)[k]);
                    break;
                }
            }
            app(buf, cap, &len, "]");
            break;
        }
    }
    app(buf, cap, &len, "}");
    return buf;
}

/* ---- IR ---- */

static bool ir_dtype(int32_t ge, oa_dtype *out)
{
    if (!oa_dtype_valid(ge)) {
        return false;
    }
    *out = (oa_dtype)ge;
    return true;
}

oa_status oa_opattr_to_ir(const aclopAttr *a, oa_graph *g, oa_attrs *dst)
{
    oa_status st = OA_OK;
    for (size_t i = 0; a != NULL && i < a->n && st == OA_OK; ++i) {
        const oa_opattr_item *it = &a->items[i];
        switch (it->kind) {
        case OA_OPATTR_BOOL: st = oa_attrs_set_bool(g, dst, it->name, it->u.b); break;
        case OA_OPATTR_INT: st = oa_attrs_set_int(g, dst, it->name, it->u.i); break;
        case OA_OPATTR_FLOAT: st = oa_attrs_set_float(g, dst, it->name, it->u.f); break;
        case OA_OPATTR_STRING: st = oa_attrs_set_str(g, dst, it->name, it->u.s); break;
        case OA_OPATTR_DTYPE: {
            oa_dtype dt;
            if (!ir_dtype(it->u.dt, &dt)) {
                return OA_FAIL(OA_E_PARAM, "attribute [%s]: data type %d is not a GE data type", it->name,
                               (int)it->u.dt);
            }
            st = oa_attrs_set_dtype(g, dst, it->name, dt);
            break;
        }
        case OA_OPATTR_LIST_BOOL: st = oa_attrs_set_list_bool(g, dst, it->name, it->u.list.v, it->u.list.n); break;
        case OA_OPATTR_LIST_INT: st = oa_attrs_set_list_int(g, dst, it->name, it->u.list.v, it->u.list.n); break;
        case OA_OPATTR_LIST_FLOAT: st = oa_attrs_set_list_float(g, dst, it->name, it->u.list.v, it->u.list.n); break;
        case OA_OPATTR_LIST_STRING:
            st = oa_attrs_set_list_str(g, dst, it->name, (const char *const *)it->u.list.v, it->u.list.n);
            break;
        case OA_OPATTR_LIST_DTYPE: {
            oa_dtype tmp[64];
            oa_dtype *v = it->u.list.n <= 64 ? tmp : malloc(it->u.list.n * sizeof(oa_dtype));
            if (v == NULL) {
                return OA_FAIL(OA_E_NOMEM, "attribute [%s]", it->name);
            }
            for (size_t k = 0; k < it->u.list.n && st == OA_OK; ++k) {
                if (!ir_dtype(((const int32_t *)it->u.list.v)[k], &v[k])) {
                    st = OA_FAIL(OA_E_PARAM, "attribute [%s]: entry %zu is not a GE data type", it->name, k);
                }
            }
            if (st == OA_OK) {
                st = oa_attrs_set_list_dtype(g, dst, it->name, v, it->u.list.n);
            }
            if (v != tmp) {
                free(v);
            }
            break;
        }
        case OA_OPATTR_LIST_LIST_INT:
            st = oa_attrs_set_list_list_int(g, dst, it->name, (const int64_t *const *)it->u.lli.v, it->u.lli.lens,
                                            it->u.lli.n);
            break;
        case OA_OPATTR_OTHER:
            return OA_FAIL(OA_E_PARAM, "attribute [%s] has a kind the CPU compiler cannot pass to an operator",
                           it->name);
        }
    }
    return st;
}

/*
 * Argument conversion helpers and the handle registry of the `acl` module.
 *
 * The registry: the C library validates runtime handles (streams, events,
 * contexts) itself, but data buffers, datasets, descriptions, tensor
 * descriptions, op attributes/handles, AIPP sets and config handles are plain
 * heap objects there, so a stale or made-up one would be dereferenced. The
 * module records every such handle it hands out (and the ones it is given
 * back by getters, with their owner) and refuses unknown ones with
 * ACL_ERROR_INVALID_PARAM (or the getter's failure value) before calling C.
 * Every access holds the GIL, which serialises the table.
 */
#include <stdlib.h>

#include "pyacl.h"

PyObject *oa_py_parse_failed(const char *qualname)
{
    /* pyACL replaces whatever PyArg raised with this TypeError */
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "%s args parse failed", qualname);
    return NULL;
}

PyObject *oa_py_pack(PyObject **items, Py_ssize_t n)
{
    int bad = 0;
    for (Py_ssize_t i = 0; i < n; ++i) {
        bad |= items[i] == NULL;
    }
    if (bad) {
        for (Py_ssize_t i = 0; i < n; ++i) {
            Py_XDECREF(items[i]);
        }
        return NULL;
    }
    if (n == 1) {
        return items[0];
    }
    PyObject *t = PyTuple_New(n);
    if (t == NULL) {
        for (Py_ssize_t i = 0; i < n; ++i) {
            Py_DECREF(items[i]);
        }
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyTuple_SET_ITEM(t, i, items[i]);
    }
    return t;
}

int oa_py_u64_mask(PyObject *o, uint64_t *v)
{
    if (PyLong_Check(o)) {
        *v = (uint64_t)PyLong_AsUnsignedLongLongMask(o);
        return PyErr_Occurred() ? -1 : 0;
    }
    if (o != NULL && !PyFloat_Check(o) && PyIndex_Check(o)) { /* numpy integers */
        PyObject *i = PyNumber_Index(o);
        if (i == NULL) {
            return -1;
        }
        *v = (uint64_t)PyLong_AsUnsignedLongLongMask(i);
        Py_DECREF(i);
        return PyErr_Occurred() ? -1 : 0;
    }
    return -1;
}

int oa_py_len(PyObject *o, size_t *v)
{
    if (o == NULL || PyFloat_Check(o) || !PyIndex_Check(o)) {
        return -1;
    }
    PyObject *i = PyNumber_Index(o);
    if (i == NULL) {
        return -1;
    }
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(i, &overflow);
    if (overflow < 0 || (overflow == 0 && x < 0)) {
        Py_DECREF(i);
        *v = 0;
        return x == -1 && PyErr_Occurred() ? -1 : 1;
    }
    *v = (size_t)PyLong_AsUnsignedLongLongMask(i);
    Py_DECREF(i);
    return PyErr_Occurred() ? -1 : 0;
}

int oa_py_i64_range(PyObject *o, int64_t lo, int64_t hi, int64_t *v)
{
    if (o == NULL || PyFloat_Check(o) || !PyIndex_Check(o)) {
        return -1;
    }
    int overflow = 0;
    PyObject *i = PyNumber_Index(o);
    if (i == NULL) {
        return -1;
    }
    const long long x = PyLong_AsLongLongAndOverflow(i, &overflow);
    Py_DECREF(i);
    if (overflow != 0 || (x == -1 && PyErr_Occurred()) || x < lo || x > hi) {
        return -1;
    }
    *v = (int64_t)x;
    return 0;
}

int oa_py_f64(PyObject *o, double *v)
{
    if (o == NULL || !(PyFloat_Check(o) || PyLong_Check(o) || PyIndex_Check(o) || PyNumber_Check(o))) {
        return -1;
    }
    const double d = PyFloat_AsDouble(o);
    if (d == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    *v = d;
    return 0;
}

int oa_py_str(PyObject *o, const char **v)
{
    if (o == NULL || !PyUnicode_Check(o)) {
        return -1;
    }
    Py_ssize_t n = 0;
    const char *s = PyUnicode_AsUTF8AndSize(o, &n);
    if (s == NULL || (size_t)n != strlen(s)) {
        return -1;
    }
    *v = s;
    return 0;
}

PyObject *oa_py_ptr(const void *p)
{
    return PyLong_FromUnsignedLongLong((unsigned long long)(uintptr_t)p);
}

PyObject *oa_py_cstr(const char *s)
{
    if (s == NULL) {
        Py_RETURN_NONE;
    }
    PyObject *r = PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
    return r;
}

/* ---- handle registry: open addressing, keyed by address ---- */

typedef struct hentry {
    const void *p; /* NULL: empty; TOMB: deleted */
    const void *owner;
    int kind;
} hentry;

#define TOMB ((const void *)(uintptr_t)1)

static hentry *g_tab;
static size_t g_cap, g_used; /* g_used counts live entries and tombstones */

static size_t hslot(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x;
}

static hentry *hfind(const void *p)
{
    if (g_cap == 0) {
        return NULL;
    }
    for (size_t i = hslot(p) & (g_cap - 1), k = 0; k < g_cap; i = (i + 1) & (g_cap - 1), ++k) {
        if (g_tab[i].p == p) {
            return &g_tab[i];
        }
        if (g_tab[i].p == NULL) {
            return NULL;
        }
    }
    return NULL;
}

static int hgrow(void)
{
    const size_t ncap = g_cap == 0 ? 64 : g_cap * 2;
    hentry *n = calloc(ncap, sizeof(*n));
    if (n == NULL) {
        return -1;
    }
    for (size_t i = 0; i < g_cap; ++i) {
        if (g_tab[i].p != NULL && g_tab[i].p != TOMB) {
            size_t j = hslot(g_tab[i].p) & (ncap - 1);
            while (n[j].p != NULL) {
                j = (j + 1) & (ncap - 1);
            }
            n[j] = g_tab[i];
        }
    }
    free(g_tab);
    g_tab = n;
    g_cap = ncap;
    size_t live = 0;
    for (size_t i = 0; i < g_cap; ++i) {
        live += g_tab[i].p != NULL;
    }
    g_used = live;
    return 0;
}

void oa_py_h_add(const void *p, oa_py_hkind kind, const void *owner)
{
    if (p == NULL) {
        return;
    }
    hentry *e = hfind(p);
    if (e != NULL) { /* the library reused the address: it is this object now */
        e->kind = (int)kind;
        e->owner = owner;
        return;
    }
    if ((g_used + 1) * 4 >= g_cap * 3 && hgrow() != 0) {
        return; /* out of memory: the handle just is not tracked */
    }
    size_t i = hslot(p) & (g_cap - 1);
    while (g_tab[i].p != NULL && g_tab[i].p != TOMB) {
        i = (i + 1) & (g_cap - 1);
    }
    if (g_tab[i].p == NULL) {
        g_used++;
    }
    g_tab[i].p = p;
    g_tab[i].kind = (int)kind;
    g_tab[i].owner = owner;
}

int oa_py_h_has(const void *p, oa_py_hkind kind)
{
    const hentry *e = hfind(p);
    return e != NULL && e->kind == (int)kind;
}

int oa_py_h_borrowed(const void *p)
{
    const hentry *e = hfind(p);
    return e != NULL && e->owner != NULL;
}

void oa_py_h_del_owned(const void *p)
{
    for (size_t i = 0; i < g_cap; ++i) {
        if (g_tab[i].p != NULL && g_tab[i].p != TOMB && g_tab[i].owner == p) {
            g_tab[i].p = TOMB;
            g_tab[i].owner = NULL;
        }
    }
}

void oa_py_h_del(const void *p)
{
    hentry *e = hfind(p);
    if (e != NULL) {
        e->p = TOMB;
        e->owner = NULL;
    }
    oa_py_h_del_owned(p);
}

int oa_py_ds_check_deep(const aclmdlDataset *ds)
{
    if (!oa_py_h_has(ds, OA_HK_DS)) {
        return 1;
    }
    const size_t n = aclmdlGetDatasetNumBuffers(ds);
    for (size_t i = 0; i < n; ++i) {
        const aclDataBuffer *b = aclmdlGetDatasetBuffer(ds, i);
        if (b != NULL && !oa_py_h_has(b, OA_HK_BUF)) {
            return 1;
        }
    }
    return 0;
}

int oa_py_ptr_list(PyObject *list, oa_py_hkind kind, void ***out, int *n)
{
    *out = NULL;
    *n = 0;
    if (list == NULL || !PyList_Check(list)) {
        return -1;
    }
    const Py_ssize_t len = PyList_GET_SIZE(list);
    if (len > INT32_MAX - 1) {
        return -1;
    }
    void **a = calloc((size_t)len + 1, sizeof(void *));
    if (a == NULL) {
        PyErr_NoMemory();
        return -2;
    }
    int stale = 0;
    for (Py_ssize_t i = 0; i < len; ++i) {
        uint64_t u;
        if (oa_py_u64_mask(PyList_GET_ITEM(list, i), &u) != 0) {
            free(a);
            return -1;
        }
        a[i] = (void *)(uintptr_t)u;
        if (kind != 0 && oa_py_h_check(a[i], kind)) {
            stale = 1;
        }
    }
    *out = a;
    *n = (int)len;
    return stale;
}

int oa_py_i64_list(PyObject *list, int64_t **out, int *n)
{
    *out = NULL;
    *n = 0;
    if (list == NULL || !(PyList_Check(list) || PyTuple_Check(list))) {
        return -1;
    }
    PyObject *seq = PySequence_Fast(list, "");
    if (seq == NULL) {
        return -1;
    }
    const Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len > INT32_MAX - 1) {
        Py_DECREF(seq);
        return -1;
    }
    int64_t *a = calloc((size_t)len + 1, sizeof(int64_t));
    if (a == NULL) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -2;
    }
    for (Py_ssize_t i = 0; i < len; ++i) {
        if (oa_py_i64_range(PySequence_Fast_GET_ITEM(seq, i), INT64_MIN, INT64_MAX, &a[i]) != 0) {
            free(a);
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    *out = a;
    *n = (int)len;
    return 0;
}

/* Single-op models and the op cache: keys, equality, shape-range table, aging (op_model.h). */
#include "acl_op/op_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl_base/data_buffer.h"
#include "acl_op/op_exec.h"
#include "acl_state/acl_state.h"
#include "base/error.h"
#include "base/log.h"
#include "base/util.h"

/* ======================================================================
 * Models
 * ====================================================================== */

static atomic_uint_fast64_t g_model_id;

bool oa_opdesc_is_dynamic(const aclTensorDesc *d)
{
    for (size_t i = 0; i < d->dim_count; ++i) {
        if (d->dims[i] == OA_UNKNOWN_DIM || d->dims[i] == OA_UNKNOWN_RANK) {
            return true;
        }
    }
    return d->value_range_count > 0;
}

bool oa_opdesc_is_optional_absent(const aclTensorDesc *d)
{
    return d->data_type == ACL_DT_UNDEFINED && d->format == ACL_FORMAT_UNDEFINED && d->dim_count == 0;
}

char *oa_opdesc_str(const aclTensorDesc *d, char *buf, size_t cap)
{
    size_t len = 0;
    int n = snprintf(buf, cap, "[DataType = %d, Format = %d, StorageFormat = %d, Shape = [", (int)d->data_type,
                     (int)d->format, (int)d->storage_format);
    len = n > 0 ? OA_MIN((size_t)n, cap - 1) : 0;
    for (size_t i = 0; i < d->dim_count && len + 1 < cap; ++i) {
        n = snprintf(buf + len, cap - len, "%s%lld", i ? ", " : "", (long long)d->dims[i]);
        len = n > 0 ? OA_MIN(len + (size_t)n, cap - 1) : len;
    }
    if (len + 1 < cap) {
        n = snprintf(buf + len, cap - len, "], ShapeRange = %zu, MemType = %d, IsConst = %d]", d->shape_range_count,
                     (int)d->mem_type, (int)d->is_const);
        (void)n;
    }
    return buf;
}

oa_status oa_opmodel_create(const char *type, const char *name, int n_in, int n_out, oa_opmodel **out)
{
    *out = NULL;
    oa_opmodel *m = calloc(1, sizeof(*m));
    if (m == NULL) {
        return OA_FAIL(OA_E_NOMEM, "single-op model");
    }
    atomic_init(&m->refs, 1);
    pthread_mutex_init(&m->exec_mu, NULL);
    m->id = atomic_fetch_add(&g_model_id, 1);
    m->type = strdup(type);
    m->name = strdup(name != NULL ? name : "");
    m->attr = oa_opattr_create();
    m->n_in = n_in;
    m->n_out = n_out;
    m->timestamp = OA_OPMODEL_STATIC_TS;
    if (n_in > 0) {
        m->in = oa_tensor_desc_array_create((size_t)n_in);
    }
    if (n_out > 0) {
        m->out = oa_tensor_desc_array_create((size_t)n_out);
    }
    if (m->type == NULL || m->name == NULL || m->attr == NULL || (n_in > 0 && m->in == NULL) ||
        (n_out > 0 && m->out == NULL)) {
        oa_opmodel_unref(m);
        return OA_FAIL(OA_E_NOMEM, "single-op model");
    }
    *out = m;
    return OA_OK;
}

oa_status oa_opmodel_from_req(const oa_opreq *req, const char *name, oa_opmodel **out)
{
    oa_opmodel *m;
    oa_status st = oa_opmodel_create(req->type, name, req->n_in, req->n_out, &m);
    if (st != OA_OK) {
        return st;
    }
    for (int i = 0; i < req->n_in && st == OA_OK; ++i) {
        st = oa_tensor_desc_copy(&m->in[i], req->in[i]);
    }
    for (int i = 0; i < req->n_out && st == OA_OK; ++i) {
        st = oa_tensor_desc_copy(&m->out[i], req->out[i]);
    }
    if (st == OA_OK && req->attr != NULL) {
        oa_opattr_destroy(m->attr);
        m->attr = NULL;
        st = oa_opattr_clone(req->attr, &m->attr);
    }
    if (st != OA_OK) {
        oa_opmodel_unref(m);
        return st;
    }
    *out = m;
    return OA_OK;
}

void oa_opmodel_ref(oa_opmodel *m)
{
    atomic_fetch_add(&m->refs, 1);
}

void oa_opmodel_unref(oa_opmodel *m)
{
    if (m == NULL || atomic_fetch_sub(&m->refs, 1) != 1) {
        return;
    }
    oa_opmodel_drop_execs(m);
    pthread_mutex_destroy(&m->exec_mu);
    if (m->in != NULL) {
        aclDestroyTensorDesc(m->in);
    }
    if (m->out != NULL) {
        aclDestroyTensorDesc(m->out);
    }
    oa_opattr_destroy(m->attr);
    free(m->type);
    free(m->name);
    free(m);
}

bool oa_opmodel_is_dynamic(const oa_opmodel *m)
{
    if (m->build_mode == 1) {
        return false;
    }
    if (m->build_mode == 2 || m->dynamic) {
        return true;
    }
    for (int i = 0; i < m->n_in; ++i) {
        if (oa_opdesc_is_dynamic(&m->in[i])) {
            return true;
        }
    }
    for (int i = 0; i < m->n_out; ++i) {
        if (oa_opdesc_is_dynamic(&m->out[i])) {
            return true;
        }
    }
    return false;
}

/* ======================================================================
 * Signature views: a model or a request, with host-memory tensors
 * optionally seen as constants holding their buffers.
 * ====================================================================== */

typedef struct tview {
    const aclTensorDesc *d;
    bool is_const;
    const void *cdata;
    size_t clen;
    const aclDataBuffer *buf; /* request buffer (value-range checks), may be NULL */
} tview;

typedef struct sview {
    const char *type;
    const aclopAttr *attr;
    int n_in, n_out;
    tview *t; /* n_in + n_out */
    uint64_t digest;
} sview;

#define SVIEW_STACK 16

static void view_desc(tview *v, const aclTensorDesc *d, const aclDataBuffer *buf, bool host_const)
{
    v->d = d;
    v->buf = buf;
    v->is_const = d->is_const;
    v->cdata = d->const_data;
    v->clen = d->const_data_len;
    if (host_const && !d->is_const && d->mem_type == ACL_MEMTYPE_HOST && buf != NULL) {
        v->is_const = true;
        v->cdata = buf->length > 0 ? buf->data : NULL;
        v->clen = buf->length > 0 ? (size_t)buf->length : 0;
    }
}

/* True when some tensor of the request would change under host_const. */
static bool req_has_host_mem(const oa_opreq *r)
{
    if (r->in_buf != NULL) {
        for (int i = 0; i < r->n_in; ++i) {
            if (!r->in[i]->is_const && r->in[i]->mem_type == ACL_MEMTYPE_HOST) {
                return true;
            }
        }
    }
    if (r->out_buf != NULL) {
        for (int i = 0; i < r->n_out; ++i) {
            if (!r->out[i]->is_const && r->out[i]->mem_type == ACL_MEMTYPE_HOST) {
                return true;
            }
        }
    }
    return false;
}

static oa_status sview_req(sview *s, tview *stack, const oa_opreq *r, bool host_const)
{
    const size_t n = (size_t)r->n_in + (size_t)r->n_out;
    s->t = n <= SVIEW_STACK ? stack : calloc(n, sizeof(tview));
    if (s->t == NULL) {
        return OA_FAIL(OA_E_NOMEM, "op request view");
    }
    s->type = r->type;
    s->attr = r->attr;
    s->n_in = r->n_in;
    s->n_out = r->n_out;
    for (int i = 0; i < r->n_in; ++i) {
        view_desc(&s->t[i], r->in[i], r->in_buf != NULL ? r->in_buf[i] : NULL, host_const);
    }
    for (int i = 0; i < r->n_out; ++i) {
        view_desc(&s->t[r->n_in + i], r->out[i], r->out_buf != NULL ? r->out_buf[i] : NULL, host_const);
    }
    s->digest = oa_opattr_digest(r->attr);
    return OA_OK;
}

static oa_status sview_model(sview *s, tview *stack, const oa_opmodel *m)
{
    const size_t n = (size_t)m->n_in + (size_t)m->n_out;
    s->t = n <= SVIEW_STACK ? stack : calloc(n, sizeof(tview));
    if (s->t == NULL) {
        return OA_FAIL(OA_E_NOMEM, "op model view");
    }
    s->type = m->type;
    s->attr = m->attr;
    s->n_in = m->n_in;
    s->n_out = m->n_out;
    for (int i = 0; i < m->n_in; ++i) {
        view_desc(&s->t[i], &m->in[i], NULL, false);
    }
    for (int i = 0; i < m->n_out; ++i) {
        view_desc(&s->t[m->n_in + i], &m->out[i], NULL, false);
    }
    s->digest = oa_opattr_digest(m->attr);
    return OA_OK;
}

static void sview_free(sview *s, tview *stack)
{
    if (s->t != stack) {
        free(s->t);
    }
}

static uint64_t hash_str(const char *s)
{
    return oa_opattr_hash_bytes(s, strlen(s));
}

static uint64_t sview_hash(const sview *s, bool dynamic, uint64_t seq)
{
    uint64_t h = oa_opattr_hash_combine(0, hash_str(s->type));
    if (dynamic) {
        h = oa_opattr_hash_combine(h, seq);
    }
    for (int side = 0; side < 2; ++side) {
        const int n = side == 0 ? s->n_in : s->n_out;
        const tview *t = side == 0 ? s->t : s->t + s->n_in;
        h = oa_opattr_hash_combine(h, (uint64_t)n);
        for (int i = 0; i < n; ++i) {
            const aclTensorDesc *d = t[i].d;
            h = oa_opattr_hash_combine(h, (uint64_t)(int64_t)d->data_type);
            h = oa_opattr_hash_combine(h, (uint64_t)(int64_t)d->format);
            if (d->storage_format != ACL_FORMAT_UNDEFINED) {
                h = oa_opattr_hash_combine(h, (uint64_t)(int64_t)d->storage_format);
            }
            if (!dynamic) {
                for (size_t k = 0; k < d->dim_count; ++k) {
                    h = oa_opattr_hash_combine(h, (uint64_t)d->dims[k]);
                }
                for (size_t k = 0; k < d->shape_range_count; ++k) {
                    h = oa_opattr_hash_combine(h, (uint64_t)d->shape_range[k][0]);
                    h = oa_opattr_hash_combine(h, (uint64_t)d->shape_range[k][1]);
                }
            }
            h = oa_opattr_hash_combine(h, t[i].is_const ? 1u : 0u);
            h = oa_opattr_hash_combine(h, (uint64_t)(int64_t)d->mem_type);
        }
    }
    h = oa_opattr_hash_combine(h, s->digest);
    for (int i = 0; i < s->n_in + s->n_out; ++i) {
        if (s->t[i].is_const) {
            h = oa_opattr_hash_combine(h, oa_opattr_hash_bytes(s->t[i].cdata, s->t[i].clen));
        }
    }
    return h;
}

static bool tview_equal(const tview *a, const tview *b, bool dynamic)
{
    const aclTensorDesc *x = a->d, *y = b->d;
    if (x->data_type != y->data_type || x->format != y->format || x->storage_format != y->storage_format ||
        a->is_const != b->is_const || x->mem_type != y->mem_type) {
        return false;
    }
    if (dynamic) {
        return true;
    }
    if (x->dim_count != y->dim_count ||
        (x->dim_count > 0 && memcmp(x->dims, y->dims, x->dim_count * sizeof(int64_t)) != 0)) {
        return false;
    }
    if (x->shape_range_count != y->shape_range_count ||
        (x->shape_range_count > 0 &&
         memcmp(x->shape_range, y->shape_range, x->shape_range_count * sizeof(x->shape_range[0])) != 0)) {
        return false;
    }
    return true;
}

static bool consts_equal(const sview *a, const sview *b)
{
    /* const flags already match tensor by tensor */
    for (int i = 0; i < a->n_in + a->n_out; ++i) {
        const tview *x = &a->t[i], *y = &b->t[i];
        if (!x->is_const) {
            continue;
        }
        if (x->clen != y->clen || (x->clen > 0 && memcmp(x->cdata, y->cdata, x->clen) != 0)) {
            return false;
        }
    }
    return true;
}

/* Mismatch stages, for messages (the codes older CANN releases returned). */
typedef enum stage { ST_MATCH, ST_TYPE, ST_INPUTS, ST_OUTPUTS, ST_ATTRS } stage;

static stage sview_compare(const sview *req, const sview *mdl, bool dynamic)
{
    if (strcmp(req->type, mdl->type) != 0) {
        return ST_TYPE;
    }
    if (req->n_in != mdl->n_in) {
        return ST_INPUTS;
    }
    for (int i = 0; i < req->n_in; ++i) {
        if (!tview_equal(&req->t[i], &mdl->t[i], dynamic)) {
            return ST_INPUTS;
        }
    }
    if (req->n_out != mdl->n_out) {
        return ST_OUTPUTS;
    }
    for (int i = 0; i < req->n_out; ++i) {
        if (!tview_equal(&req->t[req->n_in + i], &mdl->t[mdl->n_in + i], dynamic)) {
            return ST_OUTPUTS;
        }
    }
    if (!oa_opattr_equal(req->attr, mdl->attr) || !consts_equal(req, mdl)) {
        return ST_ATTRS;
    }
    return ST_MATCH;
}

/* Value ranges of the model's host-memory tensors must admit the request's buffers. */
static bool value_in_range(const aclTensorDesc *md, const aclDataBuffer *buf, const aclTensorDesc *rd)
{
    if (buf == NULL || buf->data == NULL) {
        return true;
    }
    const size_t esz = aclDataTypeSize(rd->data_type);
    if (esz == 0) {
        return false;
    }
    const size_t n = (size_t)buf->length / esz;
    if (n != md->value_range_count) {
        return false;
    }
    for (size_t i = 0; i < n; ++i) {
        double v;
        const unsigned char *p = (const unsigned char *)buf->data + i * esz;
        switch (rd->data_type) {
        case ACL_FLOAT: { float f; memcpy(&f, p, 4); v = f; break; }
        case ACL_FLOAT16: { uint16_t h; memcpy(&h, p, 2); v = aclFloat16ToFloat(h); break; }
        case ACL_INT8: v = *(const int8_t *)p; break;
        case ACL_UINT8: v = *(const uint8_t *)p; break;
        case ACL_INT16: { int16_t x; memcpy(&x, p, 2); v = x; break; }
        case ACL_UINT16: { uint16_t x; memcpy(&x, p, 2); v = x; break; }
        case ACL_INT32: { int32_t x; memcpy(&x, p, 4); v = x; break; }
        case ACL_UINT32: { uint32_t x; memcpy(&x, p, 4); v = x; break; }
        case ACL_INT64: { int64_t x; memcpy(&x, p, 8); v = (double)x; break; }
        case ACL_UINT64: { uint64_t x; memcpy(&x, p, 8); v = (double)x; break; }
        default: return false;
        }
        if (v < (double)md->value_range[i][0] || v > (double)md->value_range[i][1]) {
            return false;
        }
    }
    return true;
}

static bool check_value_range(const oa_opmodel *m, const sview *req)
{
    for (int i = 0; i < m->n_in + m->n_out; ++i) {
        const aclTensorDesc *md = i < m->n_in ? &m->in[i] : &m->out[i - m->n_in];
        const bool host = md->mem_type == ACL_MEMTYPE_HOST || md->mem_type == ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT;
        if (host && md->value_range_count > 0) {
            const int ri = i < m->n_in ? i : req->n_in + (i - m->n_in);
            if (ri >= req->n_in + req->n_out || !value_in_range(md, req->t[ri].buf, req->t[ri].d)) {
                return false;
            }
        }
    }
    return true;
}

static bool same_value_ranges(const oa_opmodel *m, const sview *req)
{
    if (m->n_in != req->n_in || m->n_out != req->n_out) {
        return false;
    }
    for (int i = 0; i < m->n_in + m->n_out; ++i) {
        const aclTensorDesc *x = i < m->n_in ? &m->in[i] : &m->out[i - m->n_in];
        const aclTensorDesc *y = req->t[i].d;
        if (x->value_range_count != y->value_range_count ||
            (x->value_range_count > 0 &&
             memcmp(x->value_range, y->value_range, x->value_range_count * sizeof(x->value_range[0])) != 0)) {
            return false;
        }
    }
    return true;
}

/* ======================================================================
 * Shape-range table
 * ====================================================================== */

typedef struct rdim {
    bool fixed;      /* CANN's isRange: the dim is not -1 */
    int64_t lo, hi;  /* range */
} rdim;

typedef struct rtensor {
    bool unknown_rank;
    size_t n;
    rdim *dims;
    size_t n_storage;
    bool *storage_fixed;
} rtensor;

typedef struct rinfo {
    char *type;
    uint64_t seq;
    int n_in, n_out;
    rtensor *t;
} rinfo;

static void rinfo_free(rinfo *r)
{
    if (r == NULL) {
        return;
    }
    for (int i = 0; r->t != NULL && i < r->n_in + r->n_out; ++i) {
        free(r->t[i].dims);
        free(r->t[i].storage_fixed);
    }
    free(r->t);
    free(r->type);
    free(r);
}

static oa_status rinfo_tensor(rtensor *t, const aclTensorDesc *d)
{
    if (d->dim_count > 0 && d->dims[0] == OA_UNKNOWN_RANK) {
        t->unknown_rank = true;
        return OA_OK;
    }
    t->n = d->dim_count;
    t->dims = calloc(t->n ? t->n : 1, sizeof(rdim));
    t->n_storage = d->storage_dim_count;
    t->storage_fixed = calloc(t->n_storage ? t->n_storage : 1, sizeof(bool));
    if (t->dims == NULL || t->storage_fixed == NULL) {
        return OA_FAIL(OA_E_NOMEM, "shape range entry");
    }
    for (size_t k = 0; k < t->n; ++k) {
        t->dims[k].fixed = d->dims[k] != OA_UNKNOWN_DIM;
        if (d->shape_range_count == 0) {
            t->dims[k].lo = t->dims[k].hi = d->dims[k];
        } else if (k < d->shape_range_count) {
            t->dims[k].lo = d->shape_range[k][0];
            t->dims[k].hi = d->shape_range[k][1];
        }
    }
    for (size_t k = 0; k < t->n_storage; ++k) {
        t->storage_fixed[k] = d->storage_dims[k] != OA_UNKNOWN_DIM;
    }
    return OA_OK;
}

static oa_status rinfo_from_model(const oa_opmodel *m, rinfo **out)
{
    *out = NULL;
    rinfo *r = calloc(1, sizeof(*r));
    if (r == NULL) {
        return OA_FAIL(OA_E_NOMEM, "shape range entry");
    }
    r->type = strdup(m->type);
    r->n_in = m->n_in;
    r->n_out = m->n_out;
    r->t = calloc((size_t)(m->n_in + m->n_out) + 1, sizeof(rtensor));
    if (r->type == NULL || r->t == NULL) {
        rinfo_free(r);
        return OA_FAIL(OA_E_NOMEM, "shape range entry");
    }
    oa_status st = OA_OK;
    for (int i = 0; i < m->n_in && st == OA_OK; ++i) {
        st = rinfo_tensor(&r->t[i], &m->in[i]);
    }
    for (int i = 0; i < m->n_out && st == OA_OK; ++i) {
        st = rinfo_tensor(&r->t[m->n_in + i], &m->out[i]);
    }
    if (st != OA_OK) {
        rinfo_free(r);
        return st;
    }
    *out = r;
    return OA_OK;
}

static bool rinfo_equal(const rinfo *a, const rinfo *b)
{
    if (strcmp(a->type, b->type) != 0 || a->n_in != b->n_in || a->n_out != b->n_out) {
        return false;
    }
    for (int i = 0; i < a->n_in + a->n_out; ++i) {
        const rtensor *x = &a->t[i], *y = &b->t[i];
        if (x->unknown_rank != y->unknown_rank || x->n != y->n || x->n_storage != y->n_storage) {
            return false;
        }
        for (size_t k = 0; k < x->n; ++k) {
            if (x->dims[k].fixed != y->dims[k].fixed || x->dims[k].lo != y->dims[k].lo ||
                x->dims[k].hi != y->dims[k].hi) {
                return false;
            }
        }
        for (size_t k = 0; k < x->n_storage; ++k) {
            if (x->storage_fixed[k] != y->storage_fixed[k]) {
                return false;
            }
        }
    }
    return true;
}

/* CANN's CheckDimRange: a request range [lo, hi] inside a model range. */
static bool dim_range_ok(int64_t lo, int64_t hi, const rdim *m)
{
    if (m->hi == OA_UNKNOWN_DIM) {
        return lo >= m->lo;
    }
    if (hi == OA_UNKNOWN_DIM) {
        return false;
    }
    return lo >= m->lo && hi <= m->hi;
}

static bool rinfo_admits_side(int n, const tview *t, const rtensor *rt, int rn)
{
    if (n != rn) {
        return false;
    }
    for (int i = 0; i < n; ++i) {
        const aclTensorDesc *d = t[i].d;
        if (rt[i].unknown_rank) {
            continue;
        }
        if (rt[i].n != d->dim_count) {
            return false;
        }
        for (size_t k = 0; k < d->dim_count; ++k) {
            const int64_t v = d->dims[k];
            if (v == OA_UNKNOWN_DIM) {
                if (k < d->shape_range_count && !dim_range_ok(d->shape_range[k][0], d->shape_range[k][1], &rt[i].dims[k])) {
                    return false;
                }
            } else if (v == OA_UNKNOWN_RANK) {
                return false;
            } else if (v < rt[i].dims[k].lo) {
                return false;
            } else if (rt[i].dims[k].hi != OA_UNKNOWN_DIM && v > rt[i].dims[k].hi) {
                return false;
            }
        }
    }
    return true;
}

static bool rinfo_admits(const rinfo *r, const sview *req)
{
    return rinfo_admits_side(req->n_in, req->t, r->t, r->n_in) &&
           rinfo_admits_side(req->n_out, req->t + req->n_in, r->t + r->n_in, r->n_out);
}

/* ======================================================================
 * The map
 * ====================================================================== */

typedef struct bucket {
    oa_opmodel **v;
    size_t n, cap;
} bucket;

static struct {
    pthread_mutex_t mu;
    bucket *b;
    size_t nb;           /* power of two */
    uint64_t count;
    uint64_t max;
    uint64_t cfg_seen;   /* aclInit config value last adopted */
    rinfo **ranges;
    size_t n_ranges, cap_ranges;
    uint64_t seq;
    bool cast_truncate;
} g_cache = {.mu = PTHREAD_MUTEX_INITIALIZER, .max = 20000};

static atomic_uint_fast64_t g_clock;

uint64_t oa_opcache_tick(void)
{
    return atomic_fetch_add(&g_clock, 1) + 1;
}

/* Under the lock: adopt a changed aclInit value. */
static void refresh_max_locked(void)
{
    const uint64_t cfg = oa_acl_config_max_opqueue_num();
    if (cfg != g_cache.cfg_seen) {
        g_cache.cfg_seen = cfg;
        g_cache.max = cfg;
    }
}

void oa_opcache_set_max(uint64_t max)
{
    pthread_mutex_lock(&g_cache.mu);
    refresh_max_locked();
    g_cache.max = max;
    pthread_mutex_unlock(&g_cache.mu);
}

uint64_t oa_opcache_max(void)
{
    pthread_mutex_lock(&g_cache.mu);
    refresh_max_locked();
    const uint64_t v = g_cache.max;
    pthread_mutex_unlock(&g_cache.mu);
    return v;
}

uint64_t oa_opcache_count(void)
{
    pthread_mutex_lock(&g_cache.mu);
    const uint64_t v = g_cache.count;
    pthread_mutex_unlock(&g_cache.mu);
    return v;
}

bool oa_opcache_cast_has_truncate(void)
{
    pthread_mutex_lock(&g_cache.mu);
    const bool v = g_cache.cast_truncate;
    pthread_mutex_unlock(&g_cache.mu);
    return v;
}

static oa_status grow_buckets_locked(void)
{
    if (g_cache.nb != 0 && g_cache.count < g_cache.nb * 2) {
        return OA_OK;
    }
    const size_t nb = g_cache.nb ? g_cache.nb * 2 : 64;
    bucket *nbk = calloc(nb, sizeof(bucket));
    if (nbk == NULL) {
        return OA_FAIL(OA_E_NOMEM, "op cache buckets");
    }
    for (size_t i = 0; i < g_cache.nb; ++i) {
        for (size_t k = 0; k < g_cache.b[i].n; ++k) {
            oa_opmodel *m = g_cache.b[i].v[k];
            bucket *t = &nbk[m->hash & (nb - 1)];
            if (t->n == t->cap) {
                const size_t cap = t->cap ? t->cap * 2 : 2;
                oa_opmodel **v = realloc(t->v, cap * sizeof(*v));
                if (v == NULL) {
                    for (size_t j = 0; j < nb; ++j) {
                        free(nbk[j].v);
                    }
                    free(nbk);
                    return OA_FAIL(OA_E_NOMEM, "op cache buckets");
                }
                t->v = v;
                t->cap = cap;
            }
            t->v[t->n++] = m;
        }
        free(g_cache.b[i].v);
    }
    free(g_cache.b);
    g_cache.b = nbk;
    g_cache.nb = nb;
    return OA_OK;
}

static bucket *bucket_of(uint64_t h)
{
    return g_cache.nb == 0 ? NULL : &g_cache.b[h & (g_cache.nb - 1)];
}

static void remove_at_locked(bucket *b, size_t k)
{
    memmove(&b->v[k], &b->v[k + 1], (b->n - k - 1) * sizeof(b->v[0]));
    b->n--;
    g_cache.count--;
}

/* CANN's Aging: the entry with the smallest timestamp below the static marker. */
static oa_opmodel *evict_locked(void)
{
    bucket *best_b = NULL;
    size_t best_k = 0;
    uint64_t best = OA_OPMODEL_STATIC_TS;
    for (size_t i = 0; i < g_cache.nb; ++i) {
        for (size_t k = 0; k < g_cache.b[i].n; ++k) {
            const uint64_t ts = g_cache.b[i].v[k]->timestamp;
            if (ts < best) {
                best = ts;
                best_b = &g_cache.b[i];
                best_k = k;
            }
        }
    }
    if (best_b == NULL) {
        return NULL;
    }
    oa_opmodel *m = best_b->v[best_k];
    remove_at_locked(best_b, best_k);
    return m;
}

/* Shape-range entry of m (existing or new); sets m->seq. */
static oa_status assign_seq_locked(oa_opmodel *m)
{
    rinfo *r;
    oa_status st = rinfo_from_model(m, &r);
    if (st != OA_OK) {
        return st;
    }
    for (size_t i = 0; i < g_cache.n_ranges; ++i) {
        if (rinfo_equal(g_cache.ranges[i], r)) {
            m->seq = g_cache.ranges[i]->seq;
            rinfo_free(r);
            return OA_OK;
        }
    }
    if (g_cache.n_ranges == g_cache.cap_ranges) {
        const size_t cap = g_cache.cap_ranges ? g_cache.cap_ranges * 2 : 16;
        rinfo **v = realloc(g_cache.ranges, cap * sizeof(*v));
        if (v == NULL) {
            rinfo_free(r);
            return OA_FAIL(OA_E_NOMEM, "shape range table");
        }
        g_cache.ranges = v;
        g_cache.cap_ranges = cap;
    }
    r->seq = ++g_cache.seq;
    m->seq = r->seq;
    g_cache.ranges[g_cache.n_ranges++] = r;
    return OA_OK;
}

oa_status oa_opcache_register(oa_opmodel *m, bool static_reg, bool *dedup)
{
    if (dedup != NULL) {
        *dedup = false;
    }
    const bool dynamic = oa_opmodel_is_dynamic(m);
    tview stack[SVIEW_STACK];
    sview mv;
    oa_status st = sview_model(&mv, stack, m);
    if (st != OA_OK) {
        return st;
    }
    oa_opmodel *evicted = NULL;
    pthread_mutex_lock(&g_cache.mu);
    refresh_max_locked();
    m->dynamic = dynamic;
    if (dynamic) {
        st = assign_seq_locked(m);
    }
    if (st == OA_OK) {
        st = grow_buckets_locked();
    }
    if (st != OA_OK) {
        pthread_mutex_unlock(&g_cache.mu);
        sview_free(&mv, stack);
        return st;
    }
    m->timestamp = static_reg ? OA_OPMODEL_STATIC_TS : oa_opcache_tick();
    m->hash = sview_hash(&mv, dynamic, m->seq);
    bucket *b = bucket_of(m->hash);
    for (size_t k = 0; k < b->n; ++k) {
        oa_opmodel *e = b->v[k];
        if (e->dynamic != dynamic || (dynamic && e->seq != m->seq)) {
            continue;
        }
        tview st2[SVIEW_STACK];
        sview ev;
        if (sview_model(&ev, st2, e) != OA_OK) {
            continue;
        }
        const bool same = (!dynamic || same_value_ranges(e, &mv)) && sview_compare(&mv, &ev, dynamic) == ST_MATCH;
        sview_free(&ev, st2);
        if (same) {
            if (e->timestamp != OA_OPMODEL_STATIC_TS) {
                e->timestamp = oa_opcache_tick();
            }
            pthread_mutex_unlock(&g_cache.mu);
            sview_free(&mv, stack);
            if (dedup != NULL) {
                *dedup = true;
            }
            OA_LOGI("op model %s (%s) is already registered", m->name, m->type);
            return OA_OK;
        }
    }
    if (b->n == b->cap) {
        const size_t cap = b->cap ? b->cap * 2 : 2;
        oa_opmodel **v = realloc(b->v, cap * sizeof(*v));
        if (v == NULL) {
            pthread_mutex_unlock(&g_cache.mu);
            sview_free(&mv, stack);
            return OA_FAIL(OA_E_NOMEM, "op cache bucket");
        }
        b->v = v;
        b->cap = cap;
    }
    oa_opmodel_ref(m);
    b->v[b->n++] = m;
    g_cache.count++;
    if (!static_reg && g_cache.count > g_cache.max) {
        evicted = evict_locked();
    }
    if (strcmp(m->type, "Cast") == 0 && oa_opattr_find(m->attr, "truncate") != NULL) {
        g_cache.cast_truncate = true;
    }
    pthread_mutex_unlock(&g_cache.mu);
    sview_free(&mv, stack);
    OA_LOGI("registered op model %s (%s), %s, seq %llu", m->name, m->type, dynamic ? "dynamic" : "static",
            (unsigned long long)m->seq);
    if (evicted != NULL) {
        OA_LOGI("op cache over its limit: aged out model %s (%s)", evicted->name, evicted->type);
        oa_opmodel_unref(evicted);
    }
    return OA_OK;
}

/* Lookup in one bucket; refreshes the timestamp on a hit. */
static oa_opmodel *lookup_locked(const sview *req, bool dynamic, uint64_t seq)
{
    const uint64_t h = sview_hash(req, dynamic, seq);
    bucket *b = bucket_of(h);
    if (b == NULL) {
        return NULL;
    }
    for (size_t k = 0; k < b->n; ++k) {
        oa_opmodel *e = b->v[k];
        if (e->hash != h || e->dynamic != dynamic || (dynamic && e->seq != seq)) {
            continue;
        }
        if (!check_value_range(e, req)) {
            continue;
        }
        tview st2[SVIEW_STACK];
        sview ev;
        if (sview_model(&ev, st2, e) != OA_OK) {
            continue;
        }
        const stage s = sview_compare(req, &ev, dynamic);
        sview_free(&ev, st2);
        if (s == ST_MATCH) {
            if (e->timestamp != OA_OPMODEL_STATIC_TS) {
                e->timestamp = oa_opcache_tick();
            }
            oa_opmodel_ref(e);
            return e;
        }
    }
    return NULL;
}

static oa_opmodel *match_static_locked(const oa_opreq *r, oa_status *st)
{
    tview stack[SVIEW_STACK];
    sview v;
    oa_opmodel *m = NULL;
    if (req_has_host_mem(r)) {
        if ((*st = sview_req(&v, stack, r, true)) != OA_OK) {
            return NULL;
        }
        m = lookup_locked(&v, false, 0);
        sview_free(&v, stack);
        if (m != NULL) {
            return m;
        }
    }
    if ((*st = sview_req(&v, stack, r, false)) != OA_OK) {
        return NULL;
    }
    m = lookup_locked(&v, false, 0);
    sview_free(&v, stack);
    return m;
}

static bool req_is_dynamic(const oa_opreq *r)
{
    for (int i = 0; i < r->n_in; ++i) {
        if (oa_opdesc_is_dynamic(r->in[i])) {
            return true;
        }
    }
    for (int i = 0; i < r->n_out; ++i) {
        if (oa_opdesc_is_dynamic(r->out[i])) {
            return true;
        }
    }
    return false;
}

static oa_opmodel *match_dynamic_locked(const oa_opreq *r, bool report_param, oa_status *st)
{
    if (!r->is_compile && req_is_dynamic(r)) {
        *st = report_param
                  ? OA_FAIL(OA_E_PARAM, "[Check][Op]TensorDesc must be static when executing, op type %s", r->type)
                  : OA_E_PARAM;
        return NULL;
    }
    tview stack[SVIEW_STACK], stack2[SVIEW_STACK];
    sview v, vh;
    if ((*st = sview_req(&v, stack, r, false)) != OA_OK) {
        return NULL;
    }
    const bool host = req_has_host_mem(r);
    if (host && (*st = sview_req(&vh, stack2, r, true)) != OA_OK) {
        sview_free(&v, stack);
        return NULL;
    }
    oa_opmodel *m = NULL;
    for (size_t i = 0; i < g_cache.n_ranges && m == NULL; ++i) {
        const rinfo *ri = g_cache.ranges[i];
        if (strcmp(ri->type, r->type) != 0 || !rinfo_admits(ri, &v)) {
            continue;
        }
        m = lookup_locked(&v, true, ri->seq);
        if (m == NULL && host) {
            m = lookup_locked(&vh, true, ri->seq);
        }
    }
    sview_free(&v, stack);
    if (host) {
        sview_free(&vh, stack2);
    }
    return m;
}

/* Why nothing matched: the furthest stage any model of the op type reached. */
static stage diagnose_locked(const oa_opreq *r)
{
    tview stack[SVIEW_STACK];
    sview v;
    if (sview_req(&v, stack, r, false) != OA_OK) {
        return ST_TYPE;
    }
    stage best = ST_TYPE;
    for (size_t i = 0; i < g_cache.nb; ++i) {
        for (size_t k = 0; k < g_cache.b[i].n; ++k) {
            const oa_opmodel *e = g_cache.b[i].v[k];
            tview st2[SVIEW_STACK];
            sview ev;
            if (sview_model(&ev, st2, e) != OA_OK) {
                continue;
            }
            const stage s = sview_compare(&v, &ev, e->dynamic);
            sview_free(&ev, st2);
            const stage reached = s == ST_MATCH ? ST_ATTRS : s; /* a match here failed on seq/ranges/values */
            if (reached > best) {
                best = reached;
            }
        }
    }
    sview_free(&v, stack);
    return best;
}

oa_status oa_opcache_match(const oa_opreq *r, bool report, oa_opmodel **out)
{
    *out = NULL;
    oa_status st = OA_OK;
    oa_opmodel *m = NULL;
    pthread_mutex_lock(&g_cache.mu);
    if (oa_aclop_jit_compile() == 0 || oa_aclop_compile_flag() == 1) {
        /* CANN: a failed dynamic match (INVALID_PARAM included) falls back to the static map */
        m = match_dynamic_locked(r, false, &st);
        if (m == NULL) {
            st = OA_OK;
            m = match_static_locked(r, &st);
        }
    } else {
        m = match_static_locked(r, &st);
        if (m == NULL && st == OA_OK) {
            m = match_dynamic_locked(r, true, &st);
        }
    }
    if (m != NULL) {
        pthread_mutex_unlock(&g_cache.mu);
        *out = m;
        return OA_OK;
    }
    if (st != OA_OK) {
        pthread_mutex_unlock(&g_cache.mu);
        return st;
    }
    if (!report) {
        pthread_mutex_unlock(&g_cache.mu);
        return OA_E_OP_NOT_FOUND;
    }
    const stage s = diagnose_locked(r);
    pthread_mutex_unlock(&g_cache.mu);
    static const char *const why[] = {
        [ST_MATCH] = "", [ST_TYPE] = "no single-op model of this op type is loaded",
        [ST_INPUTS] = "the input descriptions differ from every model of this op type",
        [ST_OUTPUTS] = "the output descriptions differ from every model with these inputs",
        [ST_ATTRS] = ("the attributes (or constant inputs, shape ranges, value ranges) differ from every model "
                      "with these inputs and outputs"),
    };
    return OA_FAIL(OA_E_OP_NOT_FOUND,
                   "[Match][OpModel]MatchOpModel opName = %s fail from static map or dynamic map: %s. Please make "
                   "sure the op executed and the op compiled is matched, you can check the op type, op inputs "
                   "number, outputs number, input format, origin format, datatype, memtype, attr, dim range, "
                   "and so on.",
                   r->type, why[s]);
}

void oa_opcache_reset_for_tests(void)
{
    pthread_mutex_lock(&g_cache.mu);
    oa_opmodel **all = NULL;
    size_t n = 0;
    if (g_cache.count > 0) {
        all = calloc(g_cache.count, sizeof(*all));
    }
    for (size_t i = 0; i < g_cache.nb; ++i) {
        for (size_t k = 0; k < g_cache.b[i].n; ++k) {
            if (all != NULL) {
                all[n++] = g_cache.b[i].v[k];
            }
        }
        free(g_cache.b[i].v);
    }
    free(g_cache.b);
    g_cache.b = NULL;
    g_cache.nb = 0;
    g_cache.count = 0;
    for (size_t i = 0; i < g_cache.n_ranges; ++i) {
        rinfo_free(g_cache.ranges[i]);
    }
    free(g_cache.ranges);
    g_cache.ranges = NULL;
    g_cache.n_ranges = g_cache.cap_ranges = 0;
    g_cache.seq = 0;
    g_cache.cast_truncate = false;
    g_cache.cfg_seen = 0;
    pthread_mutex_unlock(&g_cache.mu);
    for (size_t i = 0; i < n; ++i) {
        oa_opmodel_unref(all[i]);
    }
    free(all);
}

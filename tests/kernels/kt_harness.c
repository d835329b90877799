/* Kernel conformance harness: see kt_harness.h. */
#include "kt_harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"

#define GUARD_BYTE 0xA5

oa_ktensor kt_desc(oa_kdtype dt, int rank, const int64_t *dims)
{
    oa_ktensor t;
    oa_ktensor_set(&t, dt, rank, dims);
    return t;
}

static size_t desc_bytes(const oa_ktensor *d)
{
    if (d->dtype == OA_KDT_UNDEFINED) {
        return 0;
    }
    return oa_ktensor_bytes(d);
}

kt_buf kt_alloc(oa_ktensor d)
{
    kt_buf b;
    memset(&b, 0, sizeof b);
    b.d = d;
    b.d.data = NULL;
    b.bytes = desc_bytes(&d);
    b.raw = malloc(b.bytes + 2 * KT_GUARD);
    assert_non_null(b.raw);
    memset(b.raw, GUARD_BYTE, b.bytes + 2 * KT_GUARD);
    b.data = b.raw + KT_GUARD;
    return b;
}

void kt_free(kt_buf *b)
{
    free(b->raw);
    b->raw = NULL;
    b->data = NULL;
}

void kt_check_guards(const kt_buf *b, const char *what)
{
    for (size_t i = 0; i < KT_GUARD; i++) {
        if (b->raw[i] != GUARD_BYTE || b->raw[KT_GUARD + b->bytes + i] != GUARD_BYTE) {
            fail_msg("%s: guard bytes overwritten (%s side, offset %zu)", what,
                     b->raw[i] != GUARD_BYTE ? "front" : "back", i);
        }
    }
}

uint64_t kt_rand_u64(uint64_t *s)
{
    uint64_t x = *s ? *s : 0x9E3779B97F4A7C15ull;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

double kt_rand_uniform(uint64_t *s, double lo, double hi)
{
    return lo + (hi - lo) * ((double)(kt_rand_u64(s) >> 11) / 9007199254740992.0);
}

double kt_get(const kt_buf *b, int64_t i)
{
    oa_ktensor t = b->d;
    t.data = b->data;
    if (t.dtype == OA_KDT_F16 || t.dtype == OA_KDT_BF16) {
        uint16_t h = ((const uint16_t *)b->data)[i];
        uint32_t u;
        if (t.dtype == OA_KDT_BF16) {
            u = (uint32_t)h << 16;
        } else { /* simple f16 decode for the tests */
            uint32_t s = (uint32_t)(h >> 15), e = (h >> 10) & 31, m = h & 1023;
            double v = e == 0 ? ldexp((double)m, -24) : (e == 31 ? (m ? NAN : INFINITY) : ldexp((double)(m | 1024), (int)e - 25));
            return s ? -v : v;
        }
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    switch (t.dtype) {
    case OA_KDT_F32: return ((const float *)b->data)[i];
    case OA_KDT_F64: return ((const double *)b->data)[i];
    case OA_KDT_I8: return ((const int8_t *)b->data)[i];
    case OA_KDT_U8: case OA_KDT_BOOL: return ((const uint8_t *)b->data)[i];
    case OA_KDT_I16: return ((const int16_t *)b->data)[i];
    case OA_KDT_U16: return ((const uint16_t *)b->data)[i];
    case OA_KDT_I32: return ((const int32_t *)b->data)[i];
    case OA_KDT_U32: return ((const uint32_t *)b->data)[i];
    case OA_KDT_I64: return (double)((const int64_t *)b->data)[i];
    case OA_KDT_U64: return (double)((const uint64_t *)b->data)[i];
    default: return 0;
    }
}

void kt_set(kt_buf *b, int64_t i, double v)
{
    switch (b->d.dtype) {
    case OA_KDT_F32: ((float *)b->data)[i] = (float)v; break;
    case OA_KDT_F64: ((double *)b->data)[i] = v; break;
    case OA_KDT_I8: ((int8_t *)b->data)[i] = (int8_t)v; break;
    case OA_KDT_U8: ((uint8_t *)b->data)[i] = (uint8_t)v; break;
    case OA_KDT_BOOL: ((uint8_t *)b->data)[i] = v != 0; break;
    case OA_KDT_I16: ((int16_t *)b->data)[i] = (int16_t)v; break;
    case OA_KDT_U16: ((uint16_t *)b->data)[i] = (uint16_t)v; break;
    case OA_KDT_I32: ((int32_t *)b->data)[i] = (int32_t)v; break;
    case OA_KDT_U32: ((uint32_t *)b->data)[i] = (uint32_t)v; break;
    case OA_KDT_I64: ((int64_t *)b->data)[i] = (int64_t)v; break;
    case OA_KDT_U64: ((uint64_t *)b->data)[i] = (uint64_t)v; break;
    default: break;
    }
}

void kt_fill(kt_buf *b, uint64_t seed, double lo, double hi)
{
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
    int64_t n = oa_ktensor_numel(&b->d);
    bool isf = b->d.dtype == OA_KDT_F32 || b->d.dtype == OA_KDT_F64;
    for (int64_t i = 0; i < n; i++) {
        double v;
        if (b->d.dtype == OA_KDT_BOOL) {
            v = (double)(kt_rand_u64(&s) & 1);
        } else if (isf) {
            v = kt_rand_uniform(&s, lo, hi);
        } else {
            v = floor(kt_rand_uniform(&s, lo, hi + 1));
            v = v > hi ? hi : v;
        }
        kt_set(b, i, v);
    }
}

double *kt_to_double(const kt_buf *b)
{
    int64_t n = oa_ktensor_numel(&b->d);
    double *r = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    assert_non_null(r);
    for (int64_t i = 0; i < n; i++) {
        r[i] = kt_get(b, i);
    }
    return r;
}

kt_buf kt_blocked_from_plain(const kt_buf *p)
{
    oa_ktensor d = p->d;
    d.layout = OA_KLAYOUT_NCHWC;
    kt_buf b = kt_alloc(d);
    int64_t cb = oa_kernels_block(), N = d.dims[0], C = d.dims[1], HW = d.dims[2] * d.dims[3];
    int64_t CB = (C + cb - 1) / cb;
    float *y = b.data;
    const float *x = p->data;
    for (int64_t n = 0; n < N; n++) {
        for (int64_t c = 0; c < CB * cb; c++) {
            for (int64_t i = 0; i < HW; i++) {
                y[((n * CB + c / cb) * HW + i) * cb + c % cb] = c < C ? x[(n * C + c) * HW + i] : 0.0f;
            }
        }
    }
    return b;
}

kt_buf kt_plain_from_blocked(const kt_buf *blk)
{
    oa_ktensor d = blk->d;
    d.layout = OA_KLAYOUT_PLAIN;
    kt_buf p = kt_alloc(d);
    int64_t cb = oa_kernels_block(), N = d.dims[0], C = d.dims[1], HW = d.dims[2] * d.dims[3];
    int64_t CB = (C + cb - 1) / cb;
    const float *x = blk->data;
    float *y = p.data;
    for (int64_t n = 0; n < N; n++) {
        for (int64_t c = 0; c < CB * cb; c++) {
            for (int64_t i = 0; i < HW; i++) {
                float v = x[((n * CB + c / cb) * HW + i) * cb + c % cb];
                if (c < C) {
                    y[(n * C + c) * HW + i] = v;
                } else if (v != 0.0f) {
                    fail_msg("NCHWc padding channel %lld not zero (%g)", (long long)c, (double)v);
                }
            }
        }
    }
    return p;
}

kt_buf kt_host_i64(int n, const int64_t *vals)
{
    int64_t d = n;
    kt_buf b = kt_alloc(kt_desc(OA_KDT_I64, 1, &d));
    if (n > 0) {
        memcpy(b.data, vals, sizeof(int64_t) * (size_t)n);
    }
    return b;
}

kt_buf kt_host_i32(int n, const int64_t *vals)
{
    int64_t d = n;
    kt_buf b = kt_alloc(kt_desc(OA_KDT_I32, 1, &d));
    for (int i = 0; i < n; i++) {
        ((int32_t *)b.data)[i] = (int32_t)vals[i];
    }
    return b;
}

kt_buf kt_scalar_f32(float v)
{
    kt_buf b = kt_alloc(kt_desc(OA_KDT_F32, 0, NULL));
    *(float *)b.data = v;
    return b;
}

oa_threadpool *kt_pool(int nthreads)
{
    static oa_threadpool *pool2;
    if (nthreads <= 1) {
        return NULL;
    }
    if (pool2 == NULL) {
        assert_int_equal(oa_threadpool_create(2, &pool2), OA_OK);
    }
    return pool2;
}

const char *kt_last_impl = "";

oa_status kt_run_op(const oa_kop *op, const void *const *in, void *const *out, int nthreads)
{
    const size_t wsz = oa_kop_workspace_size(op);
    unsigned char *ws_raw = malloc(wsz + 2 * KT_GUARD + 64);
    assert_non_null(ws_raw);
    unsigned char *ws = (unsigned char *)(((uintptr_t)ws_raw + KT_GUARD + 63) & ~(uintptr_t)63);
    memset(ws_raw, GUARD_BYTE, wsz + 2 * KT_GUARD + 64);
    const oa_status st = oa_kop_run(op, in, out, wsz ? ws : NULL, kt_pool(nthreads));
    for (size_t i = 0; i < KT_GUARD; i++) {
        if (ws[wsz + i] != GUARD_BYTE || ws[-1 - (ptrdiff_t)i] != GUARD_BYTE) {
            fail_msg("%s: workspace guard overwritten", oa_kop_impl_name(op));
        }
    }
    free(ws_raw);
    return st;
}

oa_status kt_run(oa_kop_type type, const void *params, int n_in, kt_buf *const *in, unsigned host_mask, int n_out,
                 kt_buf *const *out, int nthreads)
{
    oa_ktensor ind[16], outd[16];
    const void *ip[16];
    void *op_[16];
    assert_true(n_in <= 16 && n_out <= 16);
    for (int i = 0; i < n_in; i++) {
        if (in[i] == NULL) {
            memset(&ind[i], 0, sizeof ind[i]);
            ind[i].dtype = OA_KDT_UNDEFINED;
            ip[i] = NULL;
            continue;
        }
        ind[i] = in[i]->d;
        ind[i].data = ((host_mask >> i) & 1) ? in[i]->data : NULL;
        ip[i] = in[i]->data;
    }
    for (int i = 0; i < n_out; i++) {
        outd[i] = out[i]->d;
        op_[i] = out[i]->data;
    }
    oa_kop *op = NULL;
    oa_status st = oa_kop_create(type, params, n_in, ind, n_out, outd, &op);
    if (st != OA_OK) {
        if (getenv("OA_KT_VERBOSE") != NULL) {
            const char *m = oa_error_take_messages();
            printf("  create failed: %s\n", m ? m : "(no message)");
        }
        return st;
    }
    size_t wsz = oa_kop_workspace_size(op);
    kt_last_impl = oa_kop_impl_name(op);
    if (getenv("OA_KT_VERBOSE") != NULL) {
        printf("  %s impl=%s ws=%zu threads=%d\n", oa_kop_type_name(type), oa_kop_impl_name(op), wsz, nthreads);
    }
    /* A constant the op says it does not read at run (packed or copied at create) is replaced at run by
     * bytes of all ones (NaN for floats): a kernel that still read it would give wrong outputs. */
    void *poison[16] = {NULL};
    for (int i = 0; i < n_in; i++) {
        if (in[i] != NULL && ((host_mask >> i) & 1) && !oa_kop_reads_input_at_run(op, i)) {
            poison[i] = malloc(in[i]->bytes > 0 ? in[i]->bytes : 1);
            assert_non_null(poison[i]);
            memset(poison[i], 0xff, in[i]->bytes);
            ip[i] = poison[i];
        }
    }
    st = kt_run_op(op, ip, op_, nthreads);
    for (int i = 0; i < n_in; i++) {
        free(poison[i]);
    }
    oa_kop_destroy(op);
    for (int i = 0; i < n_out; i++) {
        kt_check_guards(out[i], kt_fmt("%s output %d", oa_kop_type_name(type), i));
    }
    for (int i = 0; i < n_in; i++) {
        if (in[i] != NULL) {
            kt_check_guards(in[i], kt_fmt("%s input %d", oa_kop_type_name(type), i));
        }
    }
    return st;
}

void kt_expect_close(const kt_buf *out, const double *ref, double atol, double rtol, const char *label)
{
    int64_t n = oa_ktensor_numel(&out->d);
    int bad = 0;
    double worst = 0;
    int64_t worst_i = -1;
    for (int64_t i = 0; i < n; i++) {
        double y = kt_get(out, i), r = ref[i];
        bool ok;
        if (r != r) {
            ok = y != y;
        } else if (isinf(r)) {
            ok = y == r;
        } else {
            double err = fabs(y - r);
            ok = err <= atol + rtol * fabs(r);
            if (err / (atol + rtol * fabs(r)) > worst) {
                worst = err / (atol + rtol * fabs(r));
                worst_i = i;
            }
        }
        if (!ok && bad++ < 5) {
            print_error("%s: [%lld] got %.9g, expected %.9g\n", label, (long long)i, y, r);
        }
    }
    if (bad) {
        fail_msg("%s: %d of %lld values outside tolerance (worst ratio %.3g at %lld)", label, bad, (long long)n, worst,
                 (long long)worst_i);
    }
}

void kt_expect_equal(const kt_buf *out, const double *ref, const char *label)
{
    int64_t n = oa_ktensor_numel(&out->d);
    int bad = 0;
    for (int64_t i = 0; i < n; i++) {
        double y = kt_get(out, i);
        if (!(y == ref[i] || (y != y && ref[i] != ref[i]))) {
            if (bad++ < 5) {
                print_error("%s: [%lld] got %.17g, expected %.17g\n", label, (long long)i, y, ref[i]);
            }
        }
    }
    if (bad) {
        fail_msg("%s: %d of %lld values differ", label, bad, (long long)n);
    }
}

const char *kt_fmt(const char *fmt, ...)
{
    static char bufs[8][256];
    static int k;
    char *b = bufs[k++ & 7];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, 256, fmt, ap);
    va_end(ap);
    return b;
}

void kt_expect_fail(oa_status st, oa_status expected, const char *label)
{
    if (st != expected) {
        fail_msg("%s: status %d (%s), expected %d (%s)", label, (int)st, oa_status_str(st), (int)expected,
                 oa_status_str(expected));
    }
    const char *msg = oa_error_take_messages();
    if (msg == NULL || msg[0] == '\0') {
        fail_msg("%s: failure without a recorded message", label);
    }
}

const char *kt_dims_str(const oa_ktensor *t, char *buf, size_t cap)
{
    size_t o = (size_t)snprintf(buf, cap, "[");
    for (int i = 0; i < t->rank && o < cap; i++) {
        o += (size_t)snprintf(buf + o, cap - o, i ? ",%lld" : "%lld", (long long)t->dims[i]);
    }
    if (o < cap) {
        snprintf(buf + o, cap - o, "]");
    }
    return buf;
}

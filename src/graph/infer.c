/*
 * Inference driver (infer.h) and the helpers every infer_*.c uses:
 * the per-op function table generated from op_defs.inc, interval shapes,
 * broadcasting, dtype promotion and compile-time values.
 */
#define OA_LOG_MODULE "GE"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fp16.h"
#include "base/util.h"
#include "graph/infer_internal.h"

/* One inference function per listed op: a missing oa_infer_<x> is a build
 * error, and the table size is checked against the enum. */
static const oa_infer_fn INFER[] = {
#define OA_OP(id, name, ins, outs, infer, kernel, sub, flags) [OA_OP_##id] = oa_infer_##infer,
#include "graph/op_defs.inc"
#undef OA_OP
};
_Static_assert(sizeof(INFER) / sizeof(INFER[0]) == OA_OP_COUNT, "every op in op_defs.inc needs an infer function");

/* ------------------------------------------------------- error routing */

static _Thread_local unsigned g_quiet;

void oa_infer_quiet_enter(void)
{
    g_quiet++;
}

void oa_infer_quiet_leave(void)
{
    if (g_quiet > 0) {
        g_quiet--;
    }
}

bool oa_infer_is_quiet(void)
{
    return g_quiet > 0;
}

oa_status oa_infer_report(oa_status st, const char *file, int line, const char *func, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (g_quiet > 0) {
        if (oa_log_enabled(OA_LOG_DEBUG, OA_LOG_MODULE)) {
            oa_log_write(OA_LOG_DEBUG, OA_LOG_MODULE, file, line, func, "speculative inference: %s", msg);
        }
        return st;
    }
    return oa_error_set(st, OA_LOG_MODULE, file, line, func, "%s", msg);
}

/* ------------------------------------------------------------ intervals */

static int64_t sat_add(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}

static int64_t sat_mul(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

oa_iv oa_iv_add(oa_iv a, oa_iv b)
{
    oa_iv r;
    r.lo = sat_add(a.lo, b.lo);
    r.hi = (a.hi < 0 || b.hi < 0) ? -1 : sat_add(a.hi, b.hi);
    return r;
}

oa_iv oa_iv_mul(oa_iv a, oa_iv b)
{
    oa_iv r;
    r.lo = sat_mul(a.lo, b.lo);
    if ((a.hi == 0 && a.lo == 0) || (b.hi == 0 && b.lo == 0)) {
        r.hi = 0;
    } else {
        r.hi = (a.hi < 0 || b.hi < 0) ? -1 : sat_mul(a.hi, b.hi);
    }
    return r;
}

static int64_t div_round(int64_t a, int64_t c, bool ceil_div)
{
    int64_t q = a / c;
    int64_t r = a % c;
    if (r != 0 && ((r > 0) == (c > 0))) {
        q += ceil_div ? 1 : 0;
    } else if (r != 0) {
        q -= ceil_div ? 0 : 1;
    }
    return q;
}

oa_iv oa_iv_div_const(oa_iv a, int64_t c, bool ceil_div)
{
    oa_iv r;
    if (c <= 0) {
        return oa_iv_any();
    }
    r.lo = div_round(a.lo, c, ceil_div);
    r.hi = a.hi < 0 ? -1 : div_round(a.hi, c, ceil_div);
    return r;
}

oa_iv oa_iv_add_const(oa_iv a, int64_t c)
{
    oa_iv r;
    r.lo = sat_add(a.lo, c);
    if (r.lo < 0) {
        r.lo = 0;
    }
    if (a.hi < 0) {
        r.hi = -1;
    } else {
        r.hi = sat_add(a.hi, c);
        if (r.hi < 0) {
            r.hi = 0;
        }
    }
    return r;
}

oa_iv oa_iv_hull(oa_iv a, oa_iv b)
{
    oa_iv r;
    r.lo = OA_MIN(a.lo, b.lo);
    r.hi = (a.hi < 0 || b.hi < 0) ? -1 : OA_MAX(a.hi, b.hi);
    return r;
}

oa_ishape oa_ishape_unknown(void)
{
    oa_ishape s;
    memset(&s, 0, sizeof(s));
    s.rank = OA_RANK_UNKNOWN;
    return s;
}

oa_ishape oa_ishape_any(int32_t rank)
{
    oa_ishape s;
    memset(&s, 0, sizeof(s));
    s.rank = rank;
    for (int32_t i = 0; i < rank && i < OA_MAX_RANK; i++) {
        s.d[i] = oa_iv_any();
    }
    return s;
}

oa_ishape oa_ishape_of(const oa_tensor_desc *d)
{
    oa_ishape s;
    memset(&s, 0, sizeof(s));
    if (d == NULL || d->shape.rank < 0 || d->shape.rank > OA_MAX_RANK) {
        s.rank = OA_RANK_UNKNOWN;
        return s;
    }
    s.rank = d->shape.rank;
    s.ranged = d->has_range;
    for (int32_t i = 0; i < s.rank; i++) {
        int64_t v = d->shape.dims[i];
        if (v >= 0) {
            s.d[i] = oa_iv_fixed(v);
        } else if (d->has_range) {
            s.d[i].lo = d->range_min[i] < 0 ? 0 : d->range_min[i];
            s.d[i].hi = d->range_max[i];
        } else {
            s.d[i] = oa_iv_any();
        }
    }
    return s;
}

bool oa_ishape_is_static(const oa_ishape *s)
{
    if (s->rank < 0) {
        return false;
    }
    for (int32_t i = 0; i < s->rank; i++) {
        if (!oa_iv_is_fixed(s->d[i])) {
            return false;
        }
    }
    return true;
}

void oa_infer_set_out(oa_infer_ctx *ctx, uint32_t k, oa_dtype dt, const oa_ishape *s)
{
    if (k >= ctx->num_out) {
        return;
    }
    oa_tensor_desc *d = ctx->out[k];
    d->dtype = dt;
    d->value = NULL;
    d->has_range = false;
    if (s->rank < 0 || s->rank > OA_MAX_RANK) {
        d->shape.rank = OA_RANK_UNKNOWN;
        return;
    }
    d->shape.rank = s->rank;
    for (int32_t i = 0; i < s->rank; i++) {
        d->shape.dims[i] = oa_iv_is_fixed(s->d[i]) ? s->d[i].lo : OA_DIM_UNKNOWN;
        d->range_min[i] = s->d[i].lo;
        d->range_max[i] = s->d[i].hi;
    }
    d->has_range = s->ranged && !oa_ishape_is_static(s);
}

/* --------------------------------------------------------------- inputs */

oa_status oa_infer_need_inputs(oa_infer_ctx *ctx, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (oa_infer_in(ctx, i) == NULL) {
            char nm[48];
            if (!oa_op_input_name(ctx->node->type, ctx->node->num_inputs > n ? ctx->node->num_inputs : n, i, nm,
                                  sizeof(nm))) {
                snprintf(nm, sizeof(nm), "#%u", i);
            }
            return IFAIL(ctx, OA_E_GE_PARAM, "required input %u (%s) is not connected", i, nm);
        }
    }
    return OA_OK;
}

bool oa_infer_in_ints(const oa_infer_ctx *ctx, uint32_t i, int64_t *buf, size_t cap, size_t *n)
{
    const oa_tensor_desc *d = oa_infer_in(ctx, i);
    if (d == NULL || d->value == NULL || !oa_value_all_known(d->value)) {
        return false;
    }
    const oa_value *v = d->value;
    if (v->count < 0 || (size_t)v->count > cap) {
        return false;
    }
    for (int64_t k = 0; k < v->count; k++) {
        if (v->i) {
            buf[k] = v->i[k];
        } else if (v->f) {
            double x = v->f[k];
            if (!(x == floor(x)) || fabs(x) > 9.0e18) {
                return false;
            }
            buf[k] = (int64_t)x;
        } else {
            return false;
        }
    }
    *n = (size_t)v->count;
    return true;
}

oa_status oa_infer_axis(oa_infer_ctx *ctx, int64_t a, int32_t r, const char *what, int32_t *out)
{
    if (r < 0) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "%s %lld needs a known rank", what, (long long)a);
    }
    if (a < -(int64_t)r || a >= (int64_t)r) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "%s %lld is out of range for rank %d", what, (long long)a, r);
    }
    *out = (int32_t)(a < 0 ? a + r : a);
    return OA_OK;
}

/* --------------------------------------------------------------- values */

bool oa_infer_value_dtype_ok(oa_dtype dt)
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
    case OA_DT_BOOL:
    case OA_DT_FLOAT:
    case OA_DT_FLOAT16:
    case OA_DT_BF16:
    case OA_DT_DOUBLE:
        return true;
    default:
        return false;
    }
}

oa_value *oa_infer_new_value(oa_infer_ctx *ctx, oa_dtype dt, int64_t count, oa_status *st)
{
    *st = OA_OK;
    if (!oa_infer_value_dtype_ok(dt) || count < 0) {
        return NULL;
    }
    bool fl = oa_dtype_is_float(dt);
    if (count > (fl ? OA_VALUE_MAX_FLOAT_ELEMS : OA_VALUE_MAX_INT_ELEMS)) {
        return NULL;
    }
    oa_value *v = oa_arena_alloc(ctx->arena, sizeof(*v), 0);
    void *data = oa_arena_array(ctx->arena, (size_t)(count ? count : 1), 8);
    if (v == NULL || data == NULL) {
        *st = OA_E_NOMEM;
        return NULL;
    }
    v->dtype = dt;
    v->count = count;
    if (fl) {
        v->f = data;
    } else {
        v->i = data;
    }
    return v;
}

oa_status oa_infer_value_set_unknown(oa_infer_ctx *ctx, oa_value *v, int64_t k)
{
    if (v->unknown == NULL) {
        uint8_t *m = oa_arena_alloc(ctx->arena, (size_t)(v->count ? v->count : 1), 1);
        if (m == NULL) {
            return OA_E_NOMEM;
        }
        v->unknown = m;
    }
    ((uint8_t *)(uintptr_t)v->unknown)[k] = 1;
    return OA_OK;
}

double oa_value_get_f(const oa_value *v, int64_t k)
{
    return v->f ? v->f[k] : (double)v->i[k];
}

int64_t oa_value_get_i(const oa_value *v, int64_t k)
{
    if (v->i) {
        return v->i[k];
    }
    double x = v->f[k];
    if (!(x == x)) {
        return 0;
    }
    if (x >= 9.2e18) {
        return INT64_MAX;
    }
    if (x <= -9.2e18) {
        return INT64_MIN;
    }
    return (int64_t)x;
}

static int64_t wrap_int(oa_dtype dt, int64_t x)
{
    switch (dt) {
    case OA_DT_INT8: return (int8_t)(uint8_t)(uint64_t)x;
    case OA_DT_INT16: return (int16_t)(uint16_t)(uint64_t)x;
    case OA_DT_INT32: return (int32_t)(uint32_t)(uint64_t)x;
    case OA_DT_UINT8: return (uint8_t)(uint64_t)x;
    case OA_DT_UINT16: return (uint16_t)(uint64_t)x;
    case OA_DT_UINT32: return (uint32_t)(uint64_t)x;
    case OA_DT_BOOL: return x != 0;
    default: return x;
    }
}

void oa_value_put(oa_value *v, int64_t k, double xf, int64_t xi, bool from_float)
{
    if (v->f) {
        double x = from_float ? xf : (double)xi;
        if (v->dtype == OA_DT_FLOAT) {
            x = (double)(float)x;
        }
        ((double *)(uintptr_t)v->f)[k] = x;
        return;
    }
    int64_t r;
    if (from_float) {
        if (v->dtype == OA_DT_BOOL) {
            r = xf != 0.0;
        } else if (!(xf == xf)) {
            r = 0;
        } else if (xf >= 9.2e18) {
            r = INT64_MAX;
        } else if (xf <= -9.2e18) {
            r = INT64_MIN;
        } else {
            r = (int64_t)xf;
        }
    } else {
        r = xi;
    }
    ((int64_t *)(uintptr_t)v->i)[k] = wrap_int(v->dtype, r);
}

const oa_value *oa_infer_value_from_tensor(oa_infer_ctx *ctx, const oa_tensor *t, oa_status *st)
{
    *st = OA_OK;
    int64_t n;
    if (t == NULL || !oa_shape_numel(&t->desc.shape, &n) || !oa_infer_value_dtype_ok(t->desc.dtype)) {
        return NULL;
    }
    size_t esz = oa_dtype_size(t->desc.dtype);
    if (esz == 0 || (size_t)n * esz != t->size || (n > 0 && t->data == NULL)) {
        return NULL;
    }
    oa_value *v = oa_infer_new_value(ctx, t->desc.dtype, n, st);
    if (v == NULL) {
        return NULL;
    }
    const unsigned char *p = t->data;
    for (int64_t k = 0; k < n; k++) {
        const unsigned char *e = p + (size_t)k * esz;
        union {
            int8_t i8; int16_t i16; int32_t i32; int64_t i64;
            uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64;
            float f32; double f64;
        } u;
        memcpy(&u, e, esz);
        switch (t->desc.dtype) {
        case OA_DT_INT8: oa_value_put(v, k, 0, u.i8, false); break;
        case OA_DT_INT16: oa_value_put(v, k, 0, u.i16, false); break;
        case OA_DT_INT32: oa_value_put(v, k, 0, u.i32, false); break;
        case OA_DT_INT64: oa_value_put(v, k, 0, u.i64, false); break;
        case OA_DT_UINT8: oa_value_put(v, k, 0, u.u8, false); break;
        case OA_DT_BOOL: oa_value_put(v, k, 0, u.u8 != 0, false); break;
        case OA_DT_UINT16: oa_value_put(v, k, 0, u.u16, false); break;
        case OA_DT_UINT32: oa_value_put(v, k, 0, u.u32, false); break;
        case OA_DT_UINT64: oa_value_put(v, k, 0, (int64_t)u.u64, false); break;
        case OA_DT_FLOAT: oa_value_put(v, k, u.f32, 0, true); break;
        case OA_DT_DOUBLE: oa_value_put(v, k, u.f64, 0, true); break;
        case OA_DT_FLOAT16: oa_value_put(v, k, oa_f16_to_f32(u.u16), 0, true); break;
        case OA_DT_BF16: {
            uint32_t bits = (uint32_t)u.u16 << 16;
            float f;
            memcpy(&f, &bits, sizeof(f));
            oa_value_put(v, k, f, 0, true);
            break;
        }
        default: return NULL;
        }
    }
    return v;
}

/* ---------------------------------------------------------- broadcasting */

oa_status oa_infer_broadcast(oa_infer_ctx *ctx, const oa_ishape *a, const oa_ishape *b, oa_ishape *out)
{
    if (a->rank < 0 || b->rank < 0) {
        *out = oa_ishape_unknown();
        return OA_OK;
    }
    int32_t r = OA_MAX(a->rank, b->rank);
    oa_ishape o;
    memset(&o, 0, sizeof(o));
    o.rank = r;
    o.ranged = a->ranged || b->ranged;
    for (int32_t i = 0; i < r; i++) {
        int32_t ia = i - (r - a->rank), ib = i - (r - b->rank);
        oa_iv x = ia >= 0 ? a->d[ia] : oa_iv_fixed(1);
        oa_iv y = ib >= 0 ? b->d[ib] : oa_iv_fixed(1);
        bool fx = oa_iv_is_fixed(x), fy = oa_iv_is_fixed(y);
        if (fx && x.lo == 1) {
            o.d[i] = y;
        } else if (fy && y.lo == 1) {
            o.d[i] = x;
        } else if (fx && fy) {
            if (x.lo != y.lo) {
                char sa[160], sb[160];
                oa_shape ta = {a->rank, {0}}, tb = {b->rank, {0}};
                for (int32_t k = 0; k < a->rank; k++) {
                    ta.dims[k] = oa_iv_is_fixed(a->d[k]) ? a->d[k].lo : -1;
                }
                for (int32_t k = 0; k < b->rank; k++) {
                    tb.dims[k] = oa_iv_is_fixed(b->d[k]) ? b->d[k].lo : -1;
                }
                return IFAIL(ctx, OA_E_GE_SHAPE, "shapes %s and %s are not broadcastable (dim %d: %lld vs %lld)",
                             oa_shape_str(&ta, sa, sizeof(sa)), oa_shape_str(&tb, sb, sizeof(sb)), i,
                             (long long)x.lo, (long long)y.lo);
            }
            o.d[i] = x;
        } else if (fx) {
            o.d[i] = x;
        } else if (fy) {
            o.d[i] = y;
        } else {
            o.d[i].lo = OA_MAX(x.lo, y.lo);
            o.d[i].hi = (x.hi < 0 || y.hi < 0) ? -1 : OA_MAX(x.hi, y.hi);
        }
    }
    *out = o;
    return OA_OK;
}

oa_dtype oa_infer_promote(oa_dtype a, oa_dtype b)
{
    if (a == b || b == OA_DT_UNDEFINED) {
        return a;
    }
    if (a == OA_DT_UNDEFINED) {
        return b;
    }
    if (a == OA_DT_BOOL) {
        return b;
    }
    if (b == OA_DT_BOOL) {
        return a;
    }
    bool fa = oa_dtype_is_float(a), fb = oa_dtype_is_float(b);
    if (fa != fb) {
        return fa ? a : b;
    }
    unsigned ba = oa_dtype_bits(a), bb = oa_dtype_bits(b);
    if (fa) {
        if (ba == bb) {
            return OA_DT_FLOAT; /* f16 vs bf16 */
        }
        return ba > bb ? a : b;
    }
    if (ba != bb) {
        return ba > bb ? a : b;
    }
    return oa_dtype_is_signed(a) ? a : b;
}

/* --------------------------------------------------------------- driver */

static oa_status post_check(oa_infer_ctx *ctx)
{
    for (uint32_t k = 0; k < ctx->num_out; k++) {
        oa_tensor_desc *d = ctx->out[k];
        if (d->shape.rank > OA_MAX_RANK) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "output %u rank %d exceeds %d", k, d->shape.rank, OA_MAX_RANK);
        }
        if (oa_shape_is_static(&d->shape)) {
            size_t bytes;
            unsigned bits = oa_dtype_bits(d->dtype);
            if (bits != 0 && !oa_tensor_nbytes(d->dtype, &d->shape, &bytes)) {
                char sb[160];
                return IFAIL(ctx, OA_E_GE_SHAPE, "output %u shape %s of %s is too large", k,
                             oa_shape_str(&d->shape, sb, sizeof(sb)), oa_dtype_name(d->dtype));
            }
            int64_t n;
            if (d->value && (!oa_shape_numel(&d->shape, &n) || n != d->value->count)) {
                d->value = NULL; /* never keep a value that does not match its shape */
            }
        } else {
            d->value = NULL;
        }
    }
    return OA_OK;
}

/*
 * Ops whose output size comes from the values of an input (a shape, multiples, pads, a range's bounds, sizes or
 * scales) rather than from the input shapes: a few bytes of a model or of an input may ask for any size, so at run
 * time such an output is bounded by the load limit before anything is allocated for it (docs/model_api.md "Bounds
 * the loader checks"). Every op row whose inference is one of these functions is covered.
 */
static bool sized_by_values(oa_op_type t)
{
    const oa_infer_fn f = INFER[t];
    return f == oa_infer_expand || f == oa_infer_tile || f == oa_infer_fill || f == oa_infer_range ||
           f == oa_infer_pad || f == oa_infer_resize || f == oa_infer_resize_nn || f == oa_infer_one_hot;
}

static oa_status check_load_limit(const oa_infer_ctx *ctx)
{
    const uint64_t limit = oa_load_limit_bytes();
    for (uint32_t k = 0; k < ctx->num_out; k++) {
        const oa_tensor_desc *d = ctx->out[k];
        size_t bytes = 0;
        if (!oa_shape_is_static(&d->shape) || oa_dtype_bits(d->dtype) == 0 ||
            !oa_tensor_nbytes(d->dtype, &d->shape, &bytes) || (uint64_t)bytes <= limit) {
            continue; /* post_check refuses sizes beyond size_t */
        }
        char sb[160];
        return IFAIL(ctx, OA_E_GE_PARAM,
                     "output %u %s of %s is %zu bytes, above the load limit of %llu bytes ($OPENACL_LOAD_LIMIT_MB)",
                     k, oa_shape_str(&d->shape, sb, sizeof(sb)), oa_dtype_name(d->dtype), bytes,
                     (unsigned long long)limit);
    }
    return OA_OK;
}

/* One node's inference on caller descs; at_run_time: the executor's dynamic-shape path (load limit applies). */
static oa_status infer_run(const oa_node *n, const oa_tensor_desc *const *in, uint32_t num_in,
                           oa_tensor_desc *const *out, uint32_t num_out, oa_arena *arena, bool at_run_time)
{
    if (n == NULL || arena == NULL || (num_out && out == NULL) || (num_in && in == NULL)) {
        return OA_FAIL(OA_E_PARAM, "infer_run arguments must not be null");
    }
    if ((unsigned)n->type >= OA_OP_COUNT) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "node %s: op type %s is unknown, cannot infer its shapes", n->name,
                       n->type_name);
    }
    if (num_out != n->num_outputs) {
        return OA_FAIL(OA_E_PARAM, "node %s: %u output descs given, node has %u", n->name, num_out, n->num_outputs);
    }
    oa_infer_ctx ctx = {n, num_in, in, num_out, out, arena};
    oa_status st = INFER[n->type](&ctx);
    if (st != OA_OK || (st = post_check(&ctx)) != OA_OK) {
        return st;
    }
    return at_run_time && sized_by_values(n->type) ? check_load_limit(&ctx) : OA_OK;
}

oa_status oa_infer_run(const oa_node *n, const oa_tensor_desc *const *in, uint32_t num_in,
                       oa_tensor_desc *const *out, uint32_t num_out, oa_arena *arena)
{
    return infer_run(n, in, num_in, out, num_out, arena, true);
}

oa_status oa_infer_node(oa_node *n)
{
    if (n == NULL) {
        return OA_FAIL(OA_E_PARAM, "cannot infer a null node");
    }
    enum { STACK = 32 };
    const oa_tensor_desc *in_stack[STACK];
    oa_tensor_desc *out_stack[STACK];
    const oa_tensor_desc **in = in_stack;
    oa_tensor_desc **out = out_stack;
    if (n->num_inputs > STACK || n->num_outputs > STACK) {
        in = malloc((n->num_inputs + 1) * sizeof(*in));
        out = malloc((n->num_outputs + 1) * sizeof(*out));
        if (in == NULL || out == NULL) {
            free(in);
            free(out);
            return OA_FAIL(OA_E_NOMEM, "node %s: cannot allocate descriptor arrays", n->name);
        }
    }
    for (uint32_t i = 0; i < n->num_inputs; i++) {
        oa_node_refresh_input(n, i);
        bool present = n->inputs[i].src != NULL || n->type == OA_OP_DATA;
        in[i] = present ? &n->inputs[i].desc : NULL;
    }
    for (uint32_t k = 0; k < n->num_outputs; k++) {
        out[k] = &n->outputs[k].desc;
    }
    oa_status st = infer_run(n, in, n->num_inputs, out, n->num_outputs, n->graph->arena, false);
    if (in != in_stack) {
        free(in);
        free(out);
    }
    return st;
}

oa_status oa_graph_infer(oa_graph *g)
{
    if (g == NULL) {
        return OA_FAIL(OA_E_PARAM, "cannot infer a null graph");
    }
    oa_node **order;
    size_t count;
    oa_status st = oa_graph_topo_order(g, &order, &count);
    if (st != OA_OK) {
        return st;
    }
    for (size_t i = 0; i < count && st == OA_OK; i++) {
        st = oa_infer_node(order[i]);
    }
    free(order);
    return st;
}

bool oa_graph_outputs_static(const oa_graph *g)
{
    const oa_node *o = oa_graph_output_node(g);
    if (o == NULL) {
        return false;
    }
    for (uint32_t i = 0; i < o->num_inputs; i++) {
        if (!oa_shape_is_static(&o->inputs[i].desc.shape)) {
            return false;
        }
    }
    return true;
}

static bool fully_static(const oa_graph *g, const oa_node **first)
{
    for (const oa_node *n = oa_graph_first_node(g); n; n = n->next) {
        for (uint32_t k = 0; k < n->num_outputs; k++) {
            if (!oa_shape_is_static(&n->outputs[k].desc.shape)) {
                if (first) {
                    *first = n;
                }
                return false;
            }
        }
        for (uint32_t s = 0; s < n->num_subgraphs; s++) {
            if (!fully_static(n->subgraphs[s].graph, first)) {
                return false;
            }
        }
    }
    return true;
}

bool oa_graph_fully_static(const oa_graph *g, const oa_node **first_dynamic)
{
    if (first_dynamic) {
        *first_dynamic = NULL;
    }
    return g != NULL && fully_static(g, first_dynamic);
}

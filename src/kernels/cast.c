/*
 * Value-producing small ops: Cast (every pair of the supported dtypes,
 * f16 with round-to-nearest-even, to bf16 by truncation), Fill and Range.
 */
#include "kernels/kernel_internal.h"

#include "base/fp16.h"

#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

/* ---- f16 / bf16 ---- */

static float bf16_to_f32(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Float -> bf16 keeps the upper 16 bits (truncation toward zero), the rule
 * of the ONNX Cast reference and its conformance data (docs/ops.md, Cast);
 * a NaN stays a (quiet) NaN even when its payload is all in the low bits. */
static uint16_t f32_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) {
        return (uint16_t)((u >> 16) | 0x40);
    }
    return (uint16_t)(u >> 16);
}

/* ---- Cast ---- */

static bool is_float(oa_kdtype t)
{
    return t == OA_KDT_F32 || t == OA_KDT_F64 || t == OA_KDT_F16 || t == OA_KDT_BF16;
}

static bool cast_ok(oa_kdtype t)
{
    switch (t) {
    case OA_KDT_F32: case OA_KDT_F16: case OA_KDT_BF16: case OA_KDT_F64: case OA_KDT_I8: case OA_KDT_U8:
    case OA_KDT_I16: case OA_KDT_U16: case OA_KDT_I32: case OA_KDT_U32: case OA_KDT_I64: case OA_KDT_U64:
    case OA_KDT_BOOL:
        return true;
    default:
        return false;
    }
}

static oa_status cast_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    const oa_kcast_params *p = params;
    if (n_in != 1 || n_out != 1) {
        return OA_FAIL(OA_E_PARAM, "Cast: 1 input and 1 output (got %d, %d)", n_in, n_out);
    }
    if (!cast_ok(in[0].dtype) || !cast_ok(p->dst_type)) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "Cast: %s -> %s not supported", oa_kdtype_name(in[0].dtype),
                       oa_kdtype_name(p->dst_type));
    }
    out[0] = in[0];
    out[0].data = NULL;
    out[0].dtype = p->dst_type;
    return OA_OK;
}

static oa_status cast_setup(oa_kop *op)
{
    op->impl = "ref";
    return OA_OK;
}

static double load_f(const void *p, oa_kdtype t, size_t i)
{
    switch (t) {
    case OA_KDT_F32: return ((const float *)p)[i];
    case OA_KDT_F64: return ((const double *)p)[i];
    case OA_KDT_F16: return oa_f16_to_f32(((const uint16_t *)p)[i]);
    default: return bf16_to_f32(((const uint16_t *)p)[i]);
    }
}

static int64_t load_i(const void *p, oa_kdtype t, size_t i, uint64_t *u)
{
    int64_t v;
    switch (t) {
    case OA_KDT_I8: v = ((const int8_t *)p)[i]; break;
    case OA_KDT_U8: case OA_KDT_BOOL: v = ((const uint8_t *)p)[i]; break;
    case OA_KDT_I16: v = ((const int16_t *)p)[i]; break;
    case OA_KDT_U16: v = ((const uint16_t *)p)[i]; break;
    case OA_KDT_I32: v = ((const int32_t *)p)[i]; break;
    case OA_KDT_U32: v = ((const uint32_t *)p)[i]; break;
    case OA_KDT_U64: *u = ((const uint64_t *)p)[i]; return (int64_t)*u;
    default: v = ((const int64_t *)p)[i]; break;
    }
    *u = (uint64_t)v;
    return v;
}

/* float -> integer: truncate, saturate, NaN -> 0 */
static int64_t sat_i64(double v, double lo, double hi)
{
    if (v != v) {
        return 0;
    }
    v = trunc(v);
    if (v <= lo) {
        return (int64_t)lo;
    }
    if (v >= hi) {
        return hi >= 9.2233720368547758e18 ? INT64_MAX : (int64_t)hi; /* the type's bound, not int64's */
    }
    return (int64_t)v;
}

static void store_f(void *p, oa_kdtype t, size_t i, double v)
{
    switch (t) {
    case OA_KDT_F32: ((float *)p)[i] = (float)v; break;
    case OA_KDT_F64: ((double *)p)[i] = v; break;
    case OA_KDT_F16: ((uint16_t *)p)[i] = oa_f32_to_f16((float)v); break;
    case OA_KDT_BF16: ((uint16_t *)p)[i] = f32_to_bf16((float)v); break;
    case OA_KDT_BOOL: ((uint8_t *)p)[i] = v != 0.0; break;
    case OA_KDT_I8: ((int8_t *)p)[i] = (int8_t)sat_i64(v, INT8_MIN, INT8_MAX); break;
    case OA_KDT_U8: ((uint8_t *)p)[i] = (uint8_t)sat_i64(v, 0, UINT8_MAX); break;
    case OA_KDT_I16: ((int16_t *)p)[i] = (int16_t)sat_i64(v, INT16_MIN, INT16_MAX); break;
    case OA_KDT_U16: ((uint16_t *)p)[i] = (uint16_t)sat_i64(v, 0, UINT16_MAX); break;
    case OA_KDT_I32: ((int32_t *)p)[i] = (int32_t)sat_i64(v, INT32_MIN, INT32_MAX); break;
    case OA_KDT_U32: ((uint32_t *)p)[i] = (uint32_t)sat_i64(v, 0, UINT32_MAX); break;
    case OA_KDT_I64: ((int64_t *)p)[i] = sat_i64(v, -9.2233720368547758e18, 9.2233720368547758e18); break;
    case OA_KDT_U64:
        ((uint64_t *)p)[i] = v != v || v <= 0 ? 0 : (v >= 1.8446744073709552e19 ? UINT64_MAX : (uint64_t)v);
        break;
    default: break;
    }
}

static void store_i(void *p, oa_kdtype t, size_t i, int64_t v, uint64_t u, bool src_unsigned64)
{
    switch (t) {
    case OA_KDT_F32: ((float *)p)[i] = src_unsigned64 ? (float)u : (float)v; break;
    case OA_KDT_F64: ((double *)p)[i] = src_unsigned64 ? (double)u : (double)v; break;
    case OA_KDT_F16: ((uint16_t *)p)[i] = oa_f32_to_f16(src_unsigned64 ? (float)u : (float)v); break;
    case OA_KDT_BF16: ((uint16_t *)p)[i] = f32_to_bf16(src_unsigned64 ? (float)u : (float)v); break;
    case OA_KDT_BOOL: ((uint8_t *)p)[i] = u != 0; break;
    case OA_KDT_I8: ((int8_t *)p)[i] = (int8_t)u; break;
    case OA_KDT_U8: ((uint8_t *)p)[i] = (uint8_t)u; break;
    case OA_KDT_I16: ((int16_t *)p)[i] = (int16_t)u; break;
    case OA_KDT_U16: ((uint16_t *)p)[i] = (uint16_t)u; break;
    case OA_KDT_I32: ((int32_t *)p)[i] = (int32_t)u; break;
    case OA_KDT_U32: ((uint32_t *)p)[i] = (uint32_t)u; break;
    case OA_KDT_I64: ((int64_t *)p)[i] = (int64_t)u; break;
    case OA_KDT_U64: ((uint64_t *)p)[i] = u; break;
    default: break;
    }
}

typedef struct cast_ctx {
    oa_kdtype src, dst;
    const void *x;
    void *y;
    bool check; /* inside a run scope: report the conversions that overflowed (fpcheck.c) */
} cast_ctx;

/* The range of an integer type as doubles; false for non-integer types. */
static bool int_range(oa_kdtype t, double *lo, double *hi)
{
    switch (t) {
    case OA_KDT_I8: *lo = INT8_MIN; *hi = INT8_MAX; return true;
    case OA_KDT_U8: *lo = 0; *hi = UINT8_MAX; return true;
    case OA_KDT_I16: *lo = INT16_MIN; *hi = INT16_MAX; return true;
    case OA_KDT_U16: *lo = 0; *hi = UINT16_MAX; return true;
    case OA_KDT_I32: *lo = INT32_MIN; *hi = INT32_MAX; return true;
    case OA_KDT_U32: *lo = 0; *hi = UINT32_MAX; return true;
    case OA_KDT_I64: *lo = -9.2233720368547758e18; *hi = 9.2233720368547758e18; return true;
    case OA_KDT_U64: *lo = 0; *hi = 1.8446744073709552e19; return true;
    default: return false;
    }
}

/*
 * After a chunk of a float-source conversion, inside a run scope: raises the IEEE flag of what the software
 * conversion saturated silently (a finite value that became Inf in a narrower float type: FE_OVERFLOW; NaN or a
 * value out of an integer type's range: FE_INVALID), so the run's check sees it (fpcheck.c).
 */
static void cast_flag_chunk(const cast_ctx *c, size_t b, size_t e)
{
    double lo = 0, hi = 0;
    const bool to_int = int_range(c->dst, &lo, &hi);
    if (!to_int && c->dst != OA_KDT_F16 && c->dst != OA_KDT_BF16 && !(c->dst == OA_KDT_F32 && c->src == OA_KDT_F64)) {
        return; /* widening or bool: nothing can overflow */
    }
    for (size_t i = b; i < e; i++) {
        const double v = load_f(c->x, c->src, i);
        if (to_int) {
            const double t = trunc(v);
            if (v != v || t < lo || t > hi) {
                oa_fp_raise(FE_INVALID);
                return;
            }
        } else if (isfinite(v) && !isfinite(load_f(c->y, c->dst, i))) {
            oa_fp_raise(FE_OVERFLOW);
            return;
        }
    }
}

static void cast_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const cast_ctx *c = vctx;
    if (c->src == OA_KDT_F32 && c->dst == OA_KDT_F16) {
        const float *x = c->x;
        uint16_t *y = c->y;
        if (!c->check) {
            for (size_t i = b; i < e; i++) {
                y[i] = oa_f32_to_f16(x[i]);
            }
            return;
        }
        unsigned overflowed = 0; /* a finite float32 that became a float16 infinity (fpcheck.c) */
        for (size_t i = b; i < e; i++) {
            y[i] = oa_f32_to_f16(x[i]);
            overflowed |= ((y[i] & 0x7c00u) == 0x7c00u) & (fabsf(x[i]) <= FLT_MAX);
        }
        if (overflowed) {
            oa_fp_raise(FE_OVERFLOW);
        }
        return;
    } else if (c->src == OA_KDT_F16 && c->dst == OA_KDT_F32) {
        for (size_t i = b; i < e; i++) {
            ((float *)c->y)[i] = oa_f16_to_f32(((const uint16_t *)c->x)[i]);
        }
    } else if (is_float(c->src)) {
        for (size_t i = b; i < e; i++) {
            store_f(c->y, c->dst, i, load_f(c->x, c->src, i));
        }
    } else {
        for (size_t i = b; i < e; i++) {
            uint64_t u;
            int64_t v = load_i(c->x, c->src, i, &u);
            store_i(c->y, c->dst, i, v, u, c->src == OA_KDT_U64);
        }
    }
    if (c->check && is_float(c->src)) {
        cast_flag_chunk(c, b, e);
    }
}

static oa_status cast_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)ws;
    if (in[0] == NULL || out[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "Cast: NULL data pointer");
    }
    oa_kdtype src = op->in[0].dtype, dst = op->out[0].dtype;
    size_t n = (size_t)oa_ktensor_numel(&op->in[0]);
    if (src == dst || (oa_kdtype_size(src) == oa_kdtype_size(dst) && !is_float(src) && !is_float(dst) &&
                       src != OA_KDT_BOOL && dst != OA_KDT_BOOL)) {
        if (out[0] != in[0]) {
            memmove(out[0], in[0], n * oa_kdtype_size(src));
        }
        return OA_OK;
    }
    cast_ctx c = {src, dst, in[0], out[0], oa_run_scope_current() != NULL};
    oa_threadpool_parallel_for(pool, n, OA_KGRAIN_ELEMS, cast_task, &c);
    return OA_OK;
}

const oa_kfamily oa_kfam_cast = {
    .params_size = sizeof(oa_kcast_params),
    .infer = cast_infer,
    .setup = cast_setup,
    .run = cast_run,
};

/* ---- Fill ---- */

typedef struct fill_state {
    size_t esz;
    int64_t n;
    unsigned char value[8];
} fill_state;

static oa_status fill_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    (void)params;
    if (n_in != 2 || n_out != 1) {
        return OA_FAIL(OA_E_PARAM, "Fill: dims and value inputs, 1 output (got %d, %d)", n_in, n_out);
    }
    if (in[1].data == NULL || oa_ktensor_numel(&in[1]) != 1) {
        return OA_FAIL(OA_E_PARAM, "Fill: value must be a host scalar");
    }
    int64_t dims[OA_KMAX_DIMS];
    int n;
    oa_status st = oa_kt_read_ints(&in[0], "Fill dims", dims, OA_KMAX_DIMS, &n);
    if (st != OA_OK) {
        return st;
    }
    for (int i = 0; i < n; i++) {
        if (dims[i] < 0) {
            return OA_FAIL(OA_E_PARAM, "Fill: negative dim %lld", (long long)dims[i]);
        }
    }
    oa_ktensor_set(&out[0], in[1].dtype, n, dims);
    return OA_OK;
}

static oa_status fill_setup(oa_kop *op)
{
    fill_state *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "fill state");
    }
    op->state = s;
    s->esz = oa_kdtype_size(op->in[1].dtype);
    s->n = oa_ktensor_numel(&op->out[0]);
    memcpy(s->value, op->in[1].data, s->esz);
    return OA_OK;
}

static oa_status fill_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)in, (void)ws, (void)pool;
    const fill_state *s = op->state;
    if (out[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "Fill: NULL output");
    }
    char *y = out[0];
    for (int64_t i = 0; i < s->n; i++) {
        memcpy(y + (size_t)i * s->esz, s->value, s->esz);
    }
    return OA_OK;
}

const oa_kfamily oa_kfam_fill = {
    .params_size = 0,
    .infer = fill_infer,
    .setup = fill_setup,
    .run = fill_run,
    .release = oa_kop_state_free,
};

/* ---- Range ---- */

typedef struct range_state {
    oa_kdtype dt;
    double start, delta;
    int64_t istart, idelta, n;
} range_state;

static oa_status range_count(const oa_ktensor *in, int64_t *n)
{
    for (int i = 0; i < 3; i++) {
        if (in[i].data == NULL || oa_ktensor_numel(&in[i]) != 1) {
            return OA_FAIL(OA_E_PARAM, "Range: input %d must be a host scalar", i);
        }
        if (in[i].dtype != in[0].dtype) {
            return OA_FAIL(OA_E_PARAM, "Range: inputs must share one dtype");
        }
    }
    oa_kdtype dt = in[0].dtype;
    if (dt != OA_KDT_F32 && dt != OA_KDT_F64 && dt != OA_KDT_I32 && dt != OA_KDT_I64) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "Range: dtype %s not supported", oa_kdtype_name(dt));
    }
    if (is_float(dt)) {
        double s = oa_kt_get_f64(&in[0], 0), l = oa_kt_get_f64(&in[1], 0), d = oa_kt_get_f64(&in[2], 0);
        if (d == 0.0 || d != d) {
            return OA_FAIL(OA_E_PARAM, "Range: delta must be non-zero");
        }
        double c = ceil((l - s) / d);
        *n = c > 0 ? (int64_t)c : 0;
    } else {
        int64_t s = oa_kt_get_i64(&in[0], 0), l = oa_kt_get_i64(&in[1], 0), d = oa_kt_get_i64(&in[2], 0);
        if (d == 0) {
            return OA_FAIL(OA_E_PARAM, "Range: delta must be non-zero");
        }
        int64_t num = l - s;
        int64_t c = num / d + ((num % d != 0) && ((num < 0) == (d < 0)) ? 1 : 0);
        *n = c > 0 ? c : 0;
    }
    return OA_OK;
}

static oa_status range_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    (void)params;
    if (n_in != 3 || n_out != 1) {
        return OA_FAIL(OA_E_PARAM, "Range: start, limit, delta and 1 output (got %d, %d)", n_in, n_out);
    }
    int64_t n;
    oa_status st = range_count(in, &n);
    if (st != OA_OK) {
        return st;
    }
    oa_ktensor_set(&out[0], in[0].dtype, 1, &n);
    return OA_OK;
}

static oa_status range_setup(oa_kop *op)
{
    range_state *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "range state");
    }
    op->state = s;
    s->dt = op->in[0].dtype;
    s->start = oa_kt_get_f64(&op->in[0], 0);
    s->delta = oa_kt_get_f64(&op->in[2], 0);
    s->istart = oa_kt_get_i64(&op->in[0], 0);
    s->idelta = oa_kt_get_i64(&op->in[2], 0);
    s->n = op->out[0].dims[0];
    return OA_OK;
}

static oa_status range_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)in, (void)ws, (void)pool;
    const range_state *s = op->state;
    if (out[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "Range: NULL output");
    }
    for (int64_t i = 0; i < s->n; i++) {
        switch (s->dt) {
        case OA_KDT_F32: ((float *)out[0])[i] = (float)(s->start + (double)i * s->delta); break;
        case OA_KDT_F64: ((double *)out[0])[i] = s->start + (double)i * s->delta; break;
        case OA_KDT_I32: ((int32_t *)out[0])[i] = (int32_t)(s->istart + i * s->idelta); break;
        default: ((int64_t *)out[0])[i] = s->istart + i * s->idelta; break;
        }
    }
    return OA_OK;
}

const oa_kfamily oa_kfam_range = {
    .params_size = 0,
    .infer = range_infer,
    .setup = range_setup,
    .run = range_run,
    .release = oa_kop_state_free,
};

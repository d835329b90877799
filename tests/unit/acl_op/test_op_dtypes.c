/*
 * The supported op types and dtypes of single operators, measured: every op
 * type of docs/ops.md runs through aclopCompileAndExecute in every probed
 * dtype, and its outputs are compared with a double-precision reference
 * computed here. A run that succeeds with right numbers is "supported", a
 * refused compile is "not supported", anything else (wrong numbers, a
 * crash, another failure) fails the test. The measured matrix must equal
 * docs/ops.md's table cell by cell.
 *
 *   test_op_dtypes [docs/ops.md]   check (the default path is the source tree's)
 *   test_op_dtypes --markdown      print the table rows the code supports
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"

#define MAXV 128
#define MAXIN 6
#define MAXOUT 3

/* The probed dtypes, in table column order. */
static const aclDataType k_dts[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64, ACL_INT8, ACL_UINT8};
static const char *const k_dt_names[] = {"float32", "float16", "bfloat16", "int32", "int64", "int8", "uint8"};
#define NDT ((int)(sizeof(k_dts) / sizeof(k_dts[0])))

typedef struct tspec {
    aclDataType dt;
    aclFormat fmt;
    int rank;
    int64_t dims[6];
    double v[MAXV]; /* input values; expected values for outputs */
    bool is_const;
    bool absent;
} tspec;

typedef struct ocase {
    const char *type;
    int nin, nout;
    tspec in[MAXIN];
    tspec out[MAXOUT];
    aclopAttr *attr;
    double tol; /* tolerance multiplier (accumulations) */
} ocase;

static int64_t numel(const tspec *t)
{
    int64_t n = 1;
    for (int i = 0; i < t->rank; ++i) {
        n *= t->dims[i];
    }
    return n;
}

static bool is_unsigned(aclDataType dt)
{
    return dt == ACL_UINT8 || dt == ACL_UINT16 || dt == ACL_UINT32 || dt == ACL_UINT64 || dt == ACL_BOOL;
}

static bool is_float(aclDataType dt)
{
    return dt == ACL_FLOAT || dt == ACL_FLOAT16 || dt == ACL_BF16 || dt == ACL_DOUBLE;
}

/* ---- element conversion ---- */

static uint16_t to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

static float from_bf16(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void put(aclDataType dt, void *p, int64_t i, double x)
{
    switch (dt) {
    case ACL_FLOAT: ((float *)p)[i] = (float)x; break;
    case ACL_FLOAT16: ((aclFloat16 *)p)[i] = aclFloatToFloat16((float)x); break;
    case ACL_BF16: ((uint16_t *)p)[i] = to_bf16((float)x); break;
    case ACL_DOUBLE: ((double *)p)[i] = x; break;
    case ACL_INT32: ((int32_t *)p)[i] = (int32_t)(int64_t)x; break;
    case ACL_INT64: ((int64_t *)p)[i] = (int64_t)x; break;
    case ACL_INT8: ((int8_t *)p)[i] = (int8_t)(int64_t)x; break;
    case ACL_UINT8: ((uint8_t *)p)[i] = (uint8_t)(int64_t)x; break;
    case ACL_BOOL: ((uint8_t *)p)[i] = x != 0.0; break;
    default: fail_msg("dtype %d", dt);
    }
}

static double get(aclDataType dt, const void *p, int64_t i)
{
    switch (dt) {
    case ACL_FLOAT: return ((const float *)p)[i];
    case ACL_FLOAT16: return aclFloat16ToFloat(((const aclFloat16 *)p)[i]);
    case ACL_BF16: return from_bf16(((const uint16_t *)p)[i]);
    case ACL_DOUBLE: return ((const double *)p)[i];
    case ACL_INT32: return ((const int32_t *)p)[i];
    case ACL_INT64: return (double)((const int64_t *)p)[i];
    case ACL_INT8: return ((const int8_t *)p)[i];
    case ACL_UINT8: return ((const uint8_t *)p)[i];
    case ACL_BOOL: return ((const uint8_t *)p)[i];
    default: fail_msg("dtype %d", dt);
    }
    return 0;
}

/* An expected value as a tensor of dt holds it (integers truncate and wrap). */
static double as_dt(aclDataType dt, double x)
{
    if (is_float(dt)) {
        return x;
    }
    if (dt == ACL_BOOL) {
        return x != 0.0;
    }
    uint8_t b[8];
    put(dt, b, 0, trunc(x));
    return get(dt, b, 0);
}

/* ---- case building ---- */

static uint32_t g_seed = 1;

static int64_t rnd(int64_t lo, int64_t hi)
{
    g_seed = g_seed * 1103515245u + 12345u;
    return lo + (int64_t)((g_seed >> 8) % (uint32_t)(hi - lo + 1));
}

static tspec *shape(tspec *t, aclDataType dt, int rank, const int64_t *dims)
{
    memset(t, 0, sizeof(*t));
    t->dt = dt;
    t->fmt = ACL_FORMAT_ND;
    t->rank = rank;
    if (rank > 0) {
        memcpy(t->dims, dims, (size_t)rank * sizeof(dims[0]));
    }
    assert_true(numel(t) <= MAXV);
    return t;
}

/* Small integers in [lo, hi] (unsigned types: from 0): exact in every dtype. */
static tspec *fill(tspec *t, int64_t lo, int64_t hi)
{
    if (is_unsigned(t->dt) && lo < 0) {
        lo = 0;
    }
    if (t->dt == ACL_BOOL) {
        lo = 0;
        hi = 1;
    }
    for (int64_t i = 0; i < numel(t); ++i) {
        t->v[i] = (double)rnd(lo, hi);
    }
    return t;
}

static tspec *values(tspec *t, const double *v)
{
    memcpy(t->v, v, (size_t)numel(t) * sizeof(double));
    return t;
}

/* A constant integer input (shape inputs: perm, axes, dims, ...). */
static tspec *ints(tspec *t, aclDataType dt, int rank, int64_t n, const double *v)
{
    const int64_t d[1] = {n};
    shape(t, dt, rank, d);
    values(t, v);
    t->is_const = true;
    return t;
}

static void in_out(ocase *c, const char *type, int nin, int nout)
{
    memset(c, 0, sizeof(*c));
    c->type = type;
    c->nin = nin;
    c->nout = nout;
    c->attr = aclopCreateAttr();
    c->tol = 1.0;
}

/* Index helper for row-major tensors. */
static int64_t at3(const int64_t *d, int64_t i, int64_t j, int64_t k)
{
    return (i * d[1] + j) * d[2] + k;
}

typedef bool (*builder)(ocase *c, aclDataType dt);

/* ---- elementwise ---- */

typedef double (*fn1)(double);
static double f_relu(double x) { return x > 0 ? x : 0; }
static double f_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }
static double f_square(double x) { return x * x; }
static double f_neg(double x) { return -x; }
static double f_rsqrt(double x) { return 1.0 / sqrt(x); }
static double f_recip(double x) { return 1.0 / x; }
static double f_relu6(double x) { return x < 0 ? 0 : x > 6 ? 6 : x; }
static double f_sign(double x) { return (x > 0) - (x < 0); }
static double f_softplus(double x) { return log1p(exp(x)); }
static double f_softsign(double x) { return x / (1 + fabs(x)); }
static double f_hardswish(double x) { return x * (x <= -3 ? 0 : x >= 3 ? 1 : (x + 3) / 6); }
static double f_zero(double x) { (void)x; return 0; }
static double f_one(double x) { (void)x; return 1; }

static const struct unary {
    const char *type;
    int lo, hi;
    fn1 f;
} k_unary[] = {
    {"Relu", -3, 3, f_relu},     {"Sigmoid", -3, 3, f_sigmoid}, {"Tanh", -2, 2, tanh},
    {"Square", -3, 3, f_square}, {"Sqrt", 0, 9, sqrt},          {"Rsqrt", 1, 9, f_rsqrt},
    {"Exp", -2, 2, exp},         {"Log", 1, 6, log},            {"Abs", -3, 3, fabs},
    {"Neg", -3, 3, f_neg},       {"Reciprocal", 1, 4, f_recip}, {"Floor", -3, 3, floor},
    {"ZerosLike", -3, 3, f_zero}, {"OnesLike", -3, 3, f_one},
    {"Relu6", -3, 9, f_relu6},    {"Erf", -2, 2, erf},           {"Ceil", -3, 3, ceil},
    {"Sign", -3, 3, f_sign},      {"Sin", -3, 3, sin},           {"Cos", -3, 3, cos},
    {"Atan", -3, 3, atan},        {"Softplus", -3, 3, f_softplus}, {"Softsign", -3, 3, f_softsign},
    {"HardSwish", -4, 4, f_hardswish},
};

static const struct unary *g_un;

static bool build_unary(ocase *c, aclDataType dt)
{
    static const int64_t d[3] = {2, 3, 4};
    in_out(c, g_un->type, 1, 1);
    fill(shape(&c->in[0], dt, 3, d), g_un->lo, g_un->hi);
    shape(&c->out[0], dt, 3, d);
    for (int64_t i = 0; i < 24; ++i) {
        c->out[0].v[i] = g_un->f(c->in[0].v[i]);
    }
    return true;
}

/* unary ops with float attributes */
static double f_leaky(double x, double a, double b) { (void)b; return x > 0 ? x : a * x; }
static double f_hsig(double x, double a, double b) { const double y = a * x + b; return y < 0 ? 0 : y > 1 ? 1 : y; }
static double f_muls(double x, double a, double b) { (void)b; return x * a; }
static double f_adds(double x, double a, double b) { (void)b; return x + a; }

static const struct unary_attr {
    const char *type;
    const char *a1, *a2; /* attribute names (a2 may be NULL) */
    float v1, v2;
    int lo, hi;
    double (*f)(double, double, double);
} k_unary_attr[] = {
    {"LeakyRelu", "negative_slope", NULL, 0.25f, 0, -3, 3, f_leaky},
    {"HardSigmoid", "alpha", "beta", 0.25f, 0.5f, -4, 4, f_hsig},
    {"Muls", "value", NULL, 1.5f, 0, -3, 3, f_muls},
    {"Adds", "value", NULL, -0.5f, 0, -3, 3, f_adds},
};

static const struct unary_attr *g_ua;

static bool build_unary_attr(ocase *c, aclDataType dt)
{
    static const int64_t d[3] = {2, 3, 4};
    in_out(c, g_ua->type, 1, 1);
    fill(shape(&c->in[0], dt, 3, d), g_ua->lo, g_ua->hi);
    shape(&c->out[0], dt, 3, d);
    assert_int_equal(aclopSetAttrFloat(c->attr, g_ua->a1, g_ua->v1), ACL_SUCCESS);
    if (g_ua->a2 != NULL) {
        assert_int_equal(aclopSetAttrFloat(c->attr, g_ua->a2, g_ua->v2), ACL_SUCCESS);
    }
    for (int64_t i = 0; i < 24; ++i) {
        c->out[0].v[i] = as_dt(dt, g_ua->f(c->in[0].v[i], g_ua->v1, g_ua->v2));
    }
    return true;
}

typedef double (*fn2)(double, double);
static double f_add(double a, double b) { return a + b; }
static double f_sub(double a, double b) { return a - b; }
static double f_mul(double a, double b) { return a * b; }
static double f_div(double a, double b) { return a / b; }
static double f_max(double a, double b) { return a > b ? a : b; }
static double f_min(double a, double b) { return a < b ? a : b; }
static double f_less(double a, double b) { return a < b; }
static double f_greater(double a, double b) { return a > b; }
static double f_equal(double a, double b) { return a == b; }
static double f_not_equal(double a, double b) { return a != b; }
static double f_less_equal(double a, double b) { return a <= b; }
static double f_greater_equal(double a, double b) { return a >= b; }
static double f_sqdiff(double a, double b) { return (a - b) * (a - b); }
static double f_floordiv(double a, double b) { return floor(a / b); }
static double f_floormod(double a, double b) { return a - floor(a / b) * b; }

static const struct binary {
    const char *type;
    int lo2, hi2; /* x2's range */
    fn2 f;
    bool cmp;     /* bool output */
} k_binary[] = {
    {"Add", -3, 3, f_add, false},         {"Sub", -3, 3, f_sub, false},     {"Mul", -3, 3, f_mul, false},
    {"RealDiv", 1, 3, f_div, false},      {"Maximum", -3, 3, f_max, false}, {"Minimum", -3, 3, f_min, false},
    {"Pow", 0, 2, pow, false},            {"Less", -3, 3, f_less, true},    {"Greater", -3, 3, f_greater, true},
    {"Equal", -1, 1, f_equal, true},      {"NotEqual", -1, 1, f_not_equal, true},
    {"LessEqual", -1, 1, f_less_equal, true}, {"GreaterEqual", -1, 1, f_greater_equal, true},
    {"SquaredDifference", -3, 3, f_sqdiff, false}, {"FloorDiv", 1, 3, f_floordiv, false},
    {"FloorMod", 1, 3, f_floormod, false},
};

static const struct binary *g_bin;

/* x1 [2,3,4] op x2 [3,1] (broadcast) */
static bool build_binary(ocase *c, aclDataType dt)
{
    static const int64_t d1[3] = {2, 3, 4}, d2[2] = {3, 1};
    in_out(c, g_bin->type, 2, 1);
    fill(shape(&c->in[0], dt, 3, d1), strcmp(g_bin->type, "Pow") == 0 ? 1 : -3, 3);
    fill(shape(&c->in[1], dt, 2, d2), g_bin->lo2, g_bin->hi2);
    tspec *y = shape(&c->out[0], g_bin->cmp ? ACL_BOOL : dt, 3, d1);
    for (int64_t i = 0; i < 2; ++i) {
        for (int64_t j = 0; j < 3; ++j) {
            for (int64_t k = 0; k < 4; ++k) {
                y->v[at3(d1, i, j, k)] = as_dt(y->dt, g_bin->f(c->in[0].v[at3(d1, i, j, k)], c->in[1].v[j]));
            }
        }
    }
    return true;
}

/* x of dt -> float32 (float32 -> float16) */
static bool build_cast(ocase *c, aclDataType dt)
{
    static const int64_t d[2] = {3, 5};
    in_out(c, "Cast", 1, 1);
    const aclDataType to = dt == ACL_FLOAT ? ACL_FLOAT16 : ACL_FLOAT;
    fill(shape(&c->in[0], dt, 2, d), -4, 4);
    shape(&c->out[0], to, 2, d);
    memcpy(c->out[0].v, c->in[0].v, sizeof(c->in[0].v));
    assert_int_equal(aclopSetAttrInt(c->attr, "dst_type", to), ACL_SUCCESS);
    return true;
}

/* ---- matrix products ---- */

/* y[b] = op(x1[b]) op(x2[b]); batch 0 means 2-D; x2_batch false broadcasts a 2-D x2. */
static void matmul_ref(ocase *c, int64_t batch, int64_t m, int64_t k, int64_t n, bool ta, bool tb, bool x2_batch)
{
    const double *a = c->in[0].v, *b = c->in[1].v;
    double *y = c->out[0].v;
    const int64_t nb = batch > 0 ? batch : 1;
    for (int64_t q = 0; q < nb; ++q) {
        const double *aq = a + q * m * k, *bq = b + (x2_batch ? q * k * n : 0);
        for (int64_t i = 0; i < m; ++i) {
            for (int64_t j = 0; j < n; ++j) {
                double s = 0;
                for (int64_t p = 0; p < k; ++p) {
                    s += (ta ? aq[p * m + i] : aq[i * k + p]) * (tb ? bq[j * k + p] : bq[p * n + j]);
                }
                y[(q * m + i) * n + j] = s;
            }
        }
    }
}

static void mat_case(ocase *c, aclDataType dt, const char *type, int64_t batch, bool ta, bool tb, bool x2_batch)
{
    const int64_t m = 3, k = 4, n = 5;
    in_out(c, type, 2, 1);
    int64_t da[3], db[3], dy[3];
    int r = 0;
    if (batch > 0) {
        da[0] = db[0] = dy[0] = batch;
        r = 1;
    }
    da[r] = ta ? k : m;
    da[r + 1] = ta ? m : k;
    dy[r] = m;
    dy[r + 1] = n;
    const int rb = x2_batch ? r : 0;
    db[rb] = tb ? n : k;
    db[rb + 1] = tb ? k : n;
    fill(shape(&c->in[0], dt, r + 2, da), -2, 2);
    fill(shape(&c->in[1], dt, rb + 2, db), -2, 2);
    shape(&c->out[0], dt, r + 2, dy);
    matmul_ref(c, batch, m, k, n, ta, tb, x2_batch);
}

static bool build_matmul(ocase *c, aclDataType dt)
{
    mat_case(c, dt, "MatMul", 0, false, true, true);
    assert_int_equal(aclopSetAttrBool(c->attr, "transpose_x2", 1), ACL_SUCCESS);
    return true;
}

static bool build_matmulv2(ocase *c, aclDataType dt)
{
    mat_case(c, dt, "MatMulV2", 0, true, false, true);
    assert_int_equal(aclopSetAttrBool(c->attr, "transpose_x1", 1), ACL_SUCCESS);
    return true;
}

static bool build_bmm(ocase *c, aclDataType dt)
{
    mat_case(c, dt, "BatchMatMul", 2, false, true, true);
    assert_int_equal(aclopSetAttrBool(c->attr, "adj_x2", 1), ACL_SUCCESS);
    return true;
}

static bool build_bmmv2(ocase *c, aclDataType dt)
{
    mat_case(c, dt, "BatchMatMulV2", 2, false, false, false);
    return true;
}

/* y = alpha a b + beta c, alpha = 2, beta = 1 (0-D constants of c's dtype) */
static bool build_gemm(ocase *c, aclDataType dt)
{
    mat_case(c, dt, "GEMM", 0, false, false, true);
    c->nin = 5;
    const int64_t dc[2] = {3, 5};
    fill(shape(&c->in[2], dt, 2, dc), -2, 2);
    shape(&c->in[3], dt, 0, NULL)->v[0] = 2;
    shape(&c->in[4], dt, 0, NULL)->v[0] = 1;
    c->in[3].is_const = c->in[4].is_const = true;
    for (int64_t i = 0; i < 15; ++i) {
        c->out[0].v[i] = 2 * c->out[0].v[i] + c->in[2].v[i];
    }
    return true;
}

/* ---- convolution, pooling, softmax, normalisation ---- */

static bool build_conv(ocase *c, aclDataType dt)
{
    static const int64_t dx[4] = {1, 2, 5, 5}, dw[4] = {3, 2, 3, 3}, db[1] = {3}, dy[4] = {1, 3, 3, 3};
    in_out(c, "Conv2D", 3, 1);
    fill(shape(&c->in[0], dt, 4, dx), -2, 2)->fmt = ACL_FORMAT_NCHW;
    fill(shape(&c->in[1], dt, 4, dw), -1, 1)->fmt = ACL_FORMAT_NCHW;
    fill(shape(&c->in[2], dt, 1, db), -2, 2);
    shape(&c->out[0], dt, 4, dy)->fmt = ACL_FORMAT_NCHW;
    const int64_t s[4] = {1, 1, 2, 2}, p[4] = {1, 1, 1, 1}, dl[4] = {1, 1, 1, 1};
    assert_int_equal(aclopSetAttrListInt(c->attr, "strides", 4, s), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrListInt(c->attr, "pads", 4, p), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrListInt(c->attr, "dilations", 4, dl), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrString(c->attr, "data_format", "NCHW"), ACL_SUCCESS);
    for (int o = 0; o < 3; ++o) {
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
                double acc = c->in[2].v[o];
                for (int ci = 0; ci < 2; ++ci) {
                    for (int u = 0; u < 3; ++u) {
                        for (int w = 0; w < 3; ++w) {
                            const int h = i * 2 - 1 + u, x = j * 2 - 1 + w;
                            if (h >= 0 && h < 5 && x >= 0 && x < 5) {
                                acc += c->in[0].v[(ci * 5 + h) * 5 + x] * c->in[1].v[((o * 2 + ci) * 3 + u) * 3 + w];
                            }
                        }
                    }
                }
                c->out[0].v[(o * 3 + i) * 3 + j] = acc;
            }
        }
    }
    return true;
}

/* x [1,2,5,5] NCHW, 3x3 windows, stride 2; pads (t,b,l,r) = 1 -> y [1,2,3,3] */
static void pool_ref(ocase *c, bool max)
{
    for (int ch = 0; ch < 2; ++ch) {
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
                double acc = max ? -INFINITY : 0;
                int cnt = 0;
                for (int u = 0; u < 3; ++u) {
                    for (int w = 0; w < 3; ++w) {
                        const int h = i * 2 - 1 + u, x = j * 2 - 1 + w;
                        if (h >= 0 && h < 5 && x >= 0 && x < 5) {
                            const double v = c->in[0].v[(ch * 5 + h) * 5 + x];
                            acc = max ? fmax(acc, v) : acc + v;
                            cnt++;
                        }
                    }
                }
                c->out[0].v[(ch * 3 + i) * 3 + j] = as_dt(c->out[0].dt, max ? acc : acc / cnt);
            }
        }
    }
}

static void pool_case(ocase *c, aclDataType dt, const char *type, bool max, bool tf)
{
    static const int64_t dx[4] = {1, 2, 5, 5}, dy[4] = {1, 2, 3, 3};
    in_out(c, type, 1, 1);
    fill(shape(&c->in[0], dt, 4, dx), -4, 4)->fmt = ACL_FORMAT_NCHW;
    shape(&c->out[0], dt, 4, dy)->fmt = ACL_FORMAT_NCHW;
    const int64_t k[4] = {1, 1, 3, 3}, s[4] = {1, 1, 2, 2}, p[4] = {1, 1, 1, 1};
    assert_int_equal(aclopSetAttrListInt(c->attr, "ksize", 4, k), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrListInt(c->attr, "strides", 4, s), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrString(c->attr, "data_format", "NCHW"), ACL_SUCCESS);
    if (tf) {
        /* SAME: out = ceil(5 / 2) = 3, total padding 2 split 1 / 1 */
        assert_int_equal(aclopSetAttrString(c->attr, "padding", "SAME"), ACL_SUCCESS);
    } else {
        assert_int_equal(aclopSetAttrString(c->attr, "padding_mode", "CALCULATED"), ACL_SUCCESS);
        assert_int_equal(aclopSetAttrListInt(c->attr, "pads", 4, p), ACL_SUCCESS);
    }
    pool_ref(c, max);
}

static bool build_maxpool(ocase *c, aclDataType dt) { pool_case(c, dt, "MaxPool", true, true); return true; }
static bool build_avgpool(ocase *c, aclDataType dt) { pool_case(c, dt, "AvgPool", false, true); return true; }
static bool build_maxpoolv3(ocase *c, aclDataType dt) { pool_case(c, dt, "MaxPoolV3", true, false); return true; }
static bool build_avgpoolv2(ocase *c, aclDataType dt) { pool_case(c, dt, "AvgPoolV2", false, false); return true; }

static bool build_softmax(ocase *c, aclDataType dt)
{
    static const int64_t d[2] = {2, 5};
    in_out(c, "SoftmaxV2", 1, 1);
    fill(shape(&c->in[0], dt, 2, d), -3, 3);
    shape(&c->out[0], dt, 2, d);
    const int64_t ax[1] = {-1};
    assert_int_equal(aclopSetAttrListInt(c->attr, "axes", 1, ax), ACL_SUCCESS);
    for (int r = 0; r < 2; ++r) {
        double s = 0;
        for (int i = 0; i < 5; ++i) {
            s += exp(c->in[0].v[r * 5 + i]);
        }
        for (int i = 0; i < 5; ++i) {
            c->out[0].v[r * 5 + i] = exp(c->in[0].v[r * 5 + i]) / s;
        }
    }
    return true;
}

static bool build_layernorm(ocase *c, aclDataType dt)
{
    static const int64_t dx[2] = {2, 4}, dg[1] = {4}, dm[2] = {2, 1};
    in_out(c, "LayerNorm", 3, 3);
    fill(shape(&c->in[0], dt, 2, dx), -3, 3);
    fill(shape(&c->in[1], dt, 1, dg), 1, 2);
    fill(shape(&c->in[2], dt, 1, dg), -1, 1);
    shape(&c->out[0], dt, 2, dx);
    shape(&c->out[1], dt, 2, dm);
    shape(&c->out[2], dt, 2, dm);
    assert_int_equal(aclopSetAttrInt(c->attr, "begin_norm_axis", 1), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrInt(c->attr, "begin_params_axis", 1), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrFloat(c->attr, "epsilon", 1e-5f), ACL_SUCCESS);
    for (int r = 0; r < 2; ++r) {
        double m = 0, v = 0;
        for (int i = 0; i < 4; ++i) {
            m += c->in[0].v[r * 4 + i] / 4;
        }
        for (int i = 0; i < 4; ++i) {
            v += (c->in[0].v[r * 4 + i] - m) * (c->in[0].v[r * 4 + i] - m) / 4;
        }
        for (int i = 0; i < 4; ++i) {
            c->out[0].v[r * 4 + i] = (c->in[0].v[r * 4 + i] - m) / sqrt(v + 1e-5) * c->in[1].v[i] + c->in[2].v[i];
        }
        c->out[1].v[r] = m;
        c->out[2].v[r] = v;
    }
    c->tol = 4;
    return true;
}

/* ---- reductions ---- */

/* x [2,3,4] reduced over a set of axes (mask bits), keep_dims or not. */
static void reduce_case(ocase *c, aclDataType dt, const char *type, int kind, unsigned mask, bool keep)
{
    static const int64_t d[3] = {2, 3, 4};
    in_out(c, type, 1, 1);
    fill(shape(&c->in[0], dt, 3, d), -3, 3);
    int64_t dy[3];
    int r = 0;
    for (int a = 0; a < 3; ++a) {
        if (!(mask & (1u << a))) {
            dy[r++] = d[a];
        } else if (keep) {
            dy[r++] = 1;
        }
    }
    shape(&c->out[0], dt, r, dy);
    double acc[24];
    int cnt[24] = {0};
    for (int i = 0; i < 24; ++i) {
        acc[i] = kind == 2 ? -INFINITY : 0;
    }
    for (int64_t i = 0; i < 2; ++i) {
        for (int64_t j = 0; j < 3; ++j) {
            for (int64_t k = 0; k < 4; ++k) {
                const int64_t ii = (mask & 1u) ? 0 : i, jj = (mask & 2u) ? 0 : j, kk = (mask & 4u) ? 0 : k;
                const int64_t o = at3(d, ii, jj, kk);
                const double v = c->in[0].v[at3(d, i, j, k)];
                acc[o] = kind == 2 ? fmax(acc[o], v) : acc[o] + v;
                cnt[o]++;
            }
        }
    }
    /* compact the kept positions in row-major order */
    int64_t n = 0;
    for (int64_t i = 0; i < 2; ++i) {
        for (int64_t j = 0; j < 3; ++j) {
            for (int64_t k = 0; k < 4; ++k) {
                if (((mask & 1u) && i) || ((mask & 2u) && j) || ((mask & 4u) && k)) {
                    continue;
                }
                const int64_t o = at3(d, i, j, k);
                c->out[0].v[n++] = as_dt(dt, kind == 1 ? acc[o] / cnt[o] : acc[o]);
            }
        }
    }
}

static void axes_attr(ocase *c, int n, const int64_t *ax, bool keep)
{
    assert_int_equal(aclopSetAttrListInt(c->attr, "axes", n, ax), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrBool(c->attr, "keep_dims", keep), ACL_SUCCESS);
}

static void axes_input(ocase *c, aclDataType adt, int n, const double *ax, bool keep)
{
    c->nin = 2;
    ints(&c->in[1], adt, 1, n, ax);
    assert_int_equal(aclopSetAttrBool(c->attr, "keep_dims", keep), ACL_SUCCESS);
}

static bool build_reducesum(ocase *c, aclDataType dt)
{
    reduce_case(c, dt, "ReduceSum", 0, 2u, false);
    axes_input(c, ACL_INT32, 1, (const double[]){1}, false);
    return true;
}

static bool build_reducesumd(ocase *c, aclDataType dt)
{
    reduce_case(c, dt, "ReduceSumD", 0, 5u, true);
    axes_attr(c, 2, (const int64_t[]){0, -1}, true);
    return true;
}

static bool build_reducemean(ocase *c, aclDataType dt)
{
    reduce_case(c, dt, "ReduceMean", 1, 4u, false);
    axes_input(c, ACL_INT64, 1, (const double[]){-1}, false);
    return true;
}

static bool build_reducemeand(ocase *c, aclDataType dt)
{
    reduce_case(c, dt, "ReduceMeanD", 1, 1u, true);
    axes_attr(c, 1, (const int64_t[]){0}, true);
    return true;
}

static bool build_reducemax(ocase *c, aclDataType dt)
{
    reduce_case(c, dt, "ReduceMax", 2, 6u, false);
    axes_input(c, ACL_INT32, 2, (const double[]){1, 2}, false);
    return true;
}

static bool build_reducemaxd(ocase *c, aclDataType dt)
{
    reduce_case(c, dt, "ReduceMaxD", 2, 2u, false);
    axes_attr(c, 1, (const int64_t[]){1}, false);
    return true;
}

/* ---- data movement ---- */

/* x [2,3,4] -> perm */
static void transpose_case(ocase *c, aclDataType dt, const char *type, const int64_t *perm)
{
    static const int64_t d[3] = {2, 3, 4};
    in_out(c, type, 1, 1);
    fill(shape(&c->in[0], dt, 3, d), -9, 9);
    const int64_t dy[3] = {d[perm[0]], d[perm[1]], d[perm[2]]};
    shape(&c->out[0], dt, 3, dy);
    int64_t idx[3];
    for (idx[0] = 0; idx[0] < 2; ++idx[0]) {
        for (idx[1] = 0; idx[1] < 3; ++idx[1]) {
            for (idx[2] = 0; idx[2] < 4; ++idx[2]) {
                c->out[0].v[at3(dy, idx[perm[0]], idx[perm[1]], idx[perm[2]])] =
                    c->in[0].v[at3(d, idx[0], idx[1], idx[2])];
            }
        }
    }
}

static bool build_transpose(ocase *c, aclDataType dt)
{
    static const int64_t perm[3] = {2, 0, 1};
    transpose_case(c, dt, "Transpose", perm);
    c->nin = 2;
    ints(&c->in[1], ACL_INT32, 1, 3, (const double[]){2, 0, 1});
    return true;
}

static bool build_transposed(ocase *c, aclDataType dt)
{
    static const int64_t perm[3] = {1, 2, 0};
    transpose_case(c, dt, "TransposeD", perm);
    assert_int_equal(aclopSetAttrListInt(c->attr, "perm", 3, perm), ACL_SUCCESS);
    return true;
}

/* x0 [2,3] ++ x1 [2,2] on dim 1; the axis tensor first (Concat) or last (ConcatV2) or as attr */
static void concat_case(ocase *c, aclDataType dt, const char *type, int axis_slot)
{
    static const int64_t d0[2] = {2, 3}, d1[2] = {2, 2}, dy[2] = {2, 5};
    in_out(c, type, axis_slot < 0 ? 2 : 3, 1);
    const int x0 = axis_slot == 0 ? 1 : 0;
    fill(shape(&c->in[x0], dt, 2, d0), -9, 9);
    fill(shape(&c->in[x0 + 1], dt, 2, d1), -9, 9);
    if (axis_slot >= 0) {
        ints(&c->in[axis_slot], ACL_INT32, 0, 1, (const double[]){1});
    } else {
        assert_int_equal(aclopSetAttrInt(c->attr, "concat_dim", 1), ACL_SUCCESS);
    }
    assert_int_equal(aclopSetAttrInt(c->attr, "N", 2), ACL_SUCCESS);
    shape(&c->out[0], dt, 2, dy);
    for (int r = 0; r < 2; ++r) {
        for (int j = 0; j < 5; ++j) {
            c->out[0].v[r * 5 + j] = j < 3 ? c->in[x0].v[r * 3 + j] : c->in[x0 + 1].v[r * 2 + j - 3];
        }
    }
}

static bool build_concatd(ocase *c, aclDataType dt) { concat_case(c, dt, "ConcatD", -1); return true; }
static bool build_concatv2d(ocase *c, aclDataType dt) { concat_case(c, dt, "ConcatV2D", -1); return true; }
static bool build_concat(ocase *c, aclDataType dt) { concat_case(c, dt, "Concat", 0); return true; }
static bool build_concatv2(ocase *c, aclDataType dt) { concat_case(c, dt, "ConcatV2", 2); return true; }

/* x [2,6] split on dim 1 into parts of the given sizes */
static void split_case(ocase *c, aclDataType dt, const char *type, int n, const int64_t *sizes)
{
    static const int64_t d[2] = {2, 6};
    in_out(c, type, 1, n);
    int xs = strcmp(type, "Split") == 0 ? 1 : 0;
    fill(shape(&c->in[xs], dt, 2, d), -9, 9);
    int64_t off = 0;
    for (int k = 0; k < n; ++k) {
        const int64_t dk[2] = {2, sizes[k]};
        shape(&c->out[k], dt, 2, dk);
        for (int r = 0; r < 2; ++r) {
            for (int64_t j = 0; j < sizes[k]; ++j) {
                c->out[k].v[r * sizes[k] + j] = c->in[xs].v[r * 6 + off + j];
            }
        }
        off += sizes[k];
    }
    assert_int_equal(aclopSetAttrInt(c->attr, "num_split", n), ACL_SUCCESS);
}

static bool build_splitd(ocase *c, aclDataType dt)
{
    split_case(c, dt, "SplitD", 3, (const int64_t[]){2, 2, 2});
    assert_int_equal(aclopSetAttrInt(c->attr, "split_dim", 1), ACL_SUCCESS);
    return true;
}

static bool build_split(ocase *c, aclDataType dt)
{
    split_case(c, dt, "Split", 2, (const int64_t[]){3, 3});
    c->nin = 2;
    ints(&c->in[0], ACL_INT32, 0, 1, (const double[]){1});
    return true;
}

static bool build_splitv(ocase *c, aclDataType dt)
{
    split_case(c, dt, "SplitV", 2, (const int64_t[]){2, 4});
    c->nin = 3;
    ints(&c->in[1], ACL_INT32, 1, 2, (const double[]){2, 4});
    ints(&c->in[2], ACL_INT32, 0, 1, (const double[]){1});
    return true;
}

static bool build_splitvd(ocase *c, aclDataType dt)
{
    split_case(c, dt, "SplitVD", 2, (const int64_t[]){1, 5});
    assert_int_equal(aclopSetAttrListInt(c->attr, "size_splits", 2, (const int64_t[]){1, 5}), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrInt(c->attr, "split_dim", 1), ACL_SUCCESS);
    return true;
}

/* x [4,3]; GatherV2 on axis 0 with indices {3,1}, GatherV2D on axis 1 with {2,0} */
static bool gather_case(ocase *c, aclDataType dt, bool d_variant)
{
    static const int64_t dx[2] = {4, 3}, di[1] = {2};
    in_out(c, d_variant ? "GatherV2D" : "GatherV2", d_variant ? 2 : 3, 1);
    fill(shape(&c->in[0], dt, 2, dx), -9, 9);
    values(shape(&c->in[1], ACL_INT32, 1, di), d_variant ? (const double[]){2, 0} : (const double[]){3, 1});
    const int64_t dy[2] = {d_variant ? 4 : 2, d_variant ? 2 : 3};
    shape(&c->out[0], dt, 2, dy);
    for (int i = 0; i < dy[0]; ++i) {
        for (int j = 0; j < dy[1]; ++j) {
            c->out[0].v[i * dy[1] + j] = d_variant ? c->in[0].v[i * 3 + (int)c->in[1].v[j]]
                                                   : c->in[0].v[(int)c->in[1].v[i] * 3 + j];
        }
    }
    if (d_variant) {
        assert_int_equal(aclopSetAttrInt(c->attr, "axis", 1), ACL_SUCCESS);
    } else {
        ints(&c->in[2], ACL_INT32, 0, 1, (const double[]){0});
    }
    return true;
}

static bool build_gatherv2(ocase *c, aclDataType dt) { return gather_case(c, dt, false); }
static bool build_gatherv2d(ocase *c, aclDataType dt) { return gather_case(c, dt, true); }

/* x [2,3] padded with zeros: rows (1 before, 0 after), columns (0, 2) -> [3,5] */
static bool pad_case(ocase *c, aclDataType dt, bool d_variant)
{
    static const int64_t dx[2] = {2, 3}, dy[2] = {3, 5};
    in_out(c, d_variant ? "PadD" : "Pad", d_variant ? 1 : 2, 1);
    fill(shape(&c->in[0], dt, 2, dx), -9, 9);
    shape(&c->out[0], dt, 2, dy);
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 3; ++j) {
            c->out[0].v[(i + 1) * 5 + j] = c->in[0].v[i * 3 + j];
        }
    }
    if (d_variant) {
        static const int64_t r0[2] = {1, 0}, r1[2] = {0, 2};
        const int64_t *rows[2] = {r0, r1};
        const int cnt[2] = {2, 2};
        assert_int_equal(aclopSetAttrListListInt(c->attr, "paddings", 2, cnt, rows), ACL_SUCCESS);
    } else {
        static const int64_t dp[2] = {2, 2};
        values(shape(&c->in[1], ACL_INT32, 2, dp), (const double[]){1, 0, 0, 2})->is_const = true;
    }
    return true;
}

static bool build_pad(ocase *c, aclDataType dt) { return pad_case(c, dt, false); }
static bool build_padd(ocase *c, aclDataType dt) { return pad_case(c, dt, true); }

/* Select: condition [2] picks rows of x1/x2 [2,3]; SelectV2: condition [2,1], then [2,3], else [1,3] */
static bool select_case(ocase *c, aclDataType dt, bool v2)
{
    static const int64_t dc1[1] = {2}, dc2[2] = {2, 1}, dx[2] = {2, 3}, de[2] = {1, 3};
    in_out(c, v2 ? "SelectV2" : "Select", 3, 1);
    values(v2 ? shape(&c->in[0], ACL_BOOL, 2, dc2) : shape(&c->in[0], ACL_BOOL, 1, dc1), (const double[]){1, 0});
    fill(shape(&c->in[1], dt, 2, dx), -9, 9);
    fill(v2 ? shape(&c->in[2], dt, 2, de) : shape(&c->in[2], dt, 2, dx), -9, 9);
    shape(&c->out[0], dt, 2, dx);
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 3; ++j) {
            c->out[0].v[i * 3 + j] = i == 0 ? c->in[1].v[i * 3 + j] : c->in[2].v[v2 ? j : i * 3 + j];
        }
    }
    return true;
}

static bool build_select(ocase *c, aclDataType dt) { return select_case(c, dt, false); }
static bool build_selectv2(ocase *c, aclDataType dt) { return select_case(c, dt, true); }

static bool build_fill(ocase *c, aclDataType dt)
{
    static const int64_t dy[2] = {2, 3};
    in_out(c, "Fill", 2, 1);
    ints(&c->in[0], ACL_INT32, 1, 2, (const double[]){2, 3});
    shape(&c->in[1], dt, 0, NULL)->v[0] = 3;
    shape(&c->out[0], dt, 2, dy);
    for (int i = 0; i < 6; ++i) {
        c->out[0].v[i] = 3;
    }
    return true;
}

static bool build_tile(ocase *c, aclDataType dt)
{
    static const int64_t dx[2] = {2, 3}, dy[2] = {4, 3};
    in_out(c, "Tile", 2, 1);
    fill(shape(&c->in[0], dt, 2, dx), -9, 9);
    ints(&c->in[1], ACL_INT32, 1, 2, (const double[]){2, 1});
    shape(&c->out[0], dt, 2, dy);
    for (int i = 0; i < 12; ++i) {
        c->out[0].v[i] = c->in[0].v[i % 6];
    }
    return true;
}

/* x [3,4]: rows 1..2, all columns */
static bool build_slice(ocase *c, aclDataType dt)
{
    static const int64_t dx[2] = {3, 4}, dy[2] = {2, 4};
    in_out(c, "Slice", 3, 1);
    fill(shape(&c->in[0], dt, 2, dx), -9, 9);
    ints(&c->in[1], ACL_INT32, 1, 2, (const double[]){1, 0});
    ints(&c->in[2], ACL_INT32, 1, 2, (const double[]){2, -1});
    shape(&c->out[0], dt, 2, dy);
    for (int i = 0; i < 8; ++i) {
        c->out[0].v[i] = c->in[0].v[4 + i];
    }
    return true;
}

/* the 2 largest of each row of x [2,5] (distinct values), sorted */
static bool build_topk(ocase *c, aclDataType dt)
{
    static const int64_t dx[2] = {2, 5}, dy[2] = {2, 2};
    in_out(c, "TopK", 2, 2);
    values(shape(&c->in[0], dt, 2, dx), (const double[]){3, 9, 1, 7, 5, 2, 0, 8, 6, 4});
    ints(&c->in[1], ACL_INT32, 0, 1, (const double[]){2});
    values(shape(&c->out[0], dt, 2, dy), (const double[]){9, 7, 8, 6});
    values(shape(&c->out[1], ACL_INT32, 2, dy), (const double[]){1, 3, 2, 3});
    return true;
}

static bool build_argmax(ocase *c, aclDataType dt)
{
    static const int64_t dx[2] = {2, 5}, dy[1] = {2};
    in_out(c, "ArgMaxV2", 2, 1);
    values(shape(&c->in[0], dt, 2, dx), (const double[]){3, 9, 1, 7, 5, 2, 0, 8, 6, 4});
    ints(&c->in[1], ACL_INT32, 0, 1, (const double[]){1});
    values(shape(&c->out[0], ACL_INT32, 1, dy), (const double[]){1, 2});
    assert_int_equal(aclopSetAttrDataType(c->attr, "dtype", ACL_INT32), ACL_SUCCESS);
    return true;
}

static bool build_axpy(ocase *c, aclDataType dt)
{
    static const int64_t d[2] = {2, 3};
    in_out(c, "Axpy", 2, 1);
    fill(shape(&c->in[0], dt, 2, d), -3, 3);
    fill(shape(&c->in[1], dt, 2, d), -3, 3);
    shape(&c->out[0], dt, 2, d);
    for (int i = 0; i < 6; ++i) {
        c->out[0].v[i] = c->in[0].v[i] + 2 * c->in[1].v[i];
    }
    assert_int_equal(aclopSetAttrFloat(c->attr, "alpha", 2.0f), ACL_SUCCESS);
    return true;
}

/* ---- the op list ---- */

typedef struct oprow {
    const char *type;
    builder build;
    const void *sel; /* k_unary / k_binary entry for the generic builders */
} oprow;

static oprow g_rows[128];
static int g_nrows;

static void add_rows(void)
{
    g_nrows = 0;
    for (size_t i = 0; i < sizeof(k_binary) / sizeof(k_binary[0]); ++i) {
        g_rows[g_nrows++] = (oprow){k_binary[i].type, build_binary, &k_binary[i]};
    }
    for (size_t i = 0; i < sizeof(k_unary) / sizeof(k_unary[0]); ++i) {
        g_rows[g_nrows++] = (oprow){k_unary[i].type, build_unary, &k_unary[i]};
    }
    for (size_t i = 0; i < sizeof(k_unary_attr) / sizeof(k_unary_attr[0]); ++i) {
        g_rows[g_nrows++] = (oprow){k_unary_attr[i].type, build_unary_attr, &k_unary_attr[i]};
    }
    static const oprow rest[] = {
        {"Cast", build_cast, NULL},
        {"MatMul", build_matmul, NULL},
        {"MatMulV2", build_matmulv2, NULL},
        {"BatchMatMul", build_bmm, NULL},
        {"BatchMatMulV2", build_bmmv2, NULL},
        {"GEMM", build_gemm, NULL},
        {"Conv2D", build_conv, NULL},
        {"MaxPool", build_maxpool, NULL},
        {"AvgPool", build_avgpool, NULL},
        {"MaxPoolV3", build_maxpoolv3, NULL},
        {"AvgPoolV2", build_avgpoolv2, NULL},
        {"SoftmaxV2", build_softmax, NULL},
        {"LayerNorm", build_layernorm, NULL},
        {"ReduceSum", build_reducesum, NULL},
        {"ReduceSumD", build_reducesumd, NULL},
        {"ReduceMean", build_reducemean, NULL},
        {"ReduceMeanD", build_reducemeand, NULL},
        {"ReduceMax", build_reducemax, NULL},
        {"ReduceMaxD", build_reducemaxd, NULL},
        {"Transpose", build_transpose, NULL},
        {"TransposeD", build_transposed, NULL},
        {"Concat", build_concat, NULL},
        {"ConcatV2", build_concatv2, NULL},
        {"ConcatD", build_concatd, NULL},
        {"ConcatV2D", build_concatv2d, NULL},
        {"Split", build_split, NULL},
        {"SplitV", build_splitv, NULL},
        {"SplitD", build_splitd, NULL},
        {"SplitVD", build_splitvd, NULL},
        {"GatherV2", build_gatherv2, NULL},
        {"GatherV2D", build_gatherv2d, NULL},
        {"Pad", build_pad, NULL},
        {"PadD", build_padd, NULL},
        {"Select", build_select, NULL},
        {"SelectV2", build_selectv2, NULL},
        {"Fill", build_fill, NULL},
        {"Tile", build_tile, NULL},
        {"Slice", build_slice, NULL},
        {"TopK", build_topk, NULL},
        {"ArgMaxV2", build_argmax, NULL},
        {"Axpy", build_axpy, NULL},
    };
    for (size_t i = 0; i < sizeof(rest) / sizeof(rest[0]); ++i) {
        g_rows[g_nrows++] = rest[i];
    }
}

/* ---- running ---- */

static aclrtStream g_stream;

typedef enum outcome { OK, REFUSED, WRONG } outcome;

static double tolerance(aclDataType dt)
{
    switch (dt) {
    case ACL_FLOAT: return 1e-5;
    case ACL_FLOAT16: return 2e-3;
    case ACL_BF16: return 1.6e-2;
    default: return 0;
    }
}

static void make_tensor(const tspec *t, bool input, aclTensorDesc **d, aclDataBuffer **b, void **dev, void **host,
                        size_t *size)
{
    *d = aclCreateTensorDesc(t->dt, t->rank, t->dims, t->fmt);
    assert_non_null(*d);
    *size = aclGetTensorDescSize(*d);
    *host = calloc(1, *size + 8);
    if (input) {
        for (int64_t i = 0; i < numel(t); ++i) {
            put(t->dt, *host, i, t->v[i]);
        }
    }
    assert_int_equal(aclrtMalloc(dev, *size + 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpy(*dev, *size + 8, *host, *size + 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    if (t->is_const) {
        assert_int_equal(aclSetTensorConst(*d, *host, *size), ACL_SUCCESS);
    }
    *b = aclCreateDataBuffer(*dev, *size);
    assert_non_null(*b);
}

/* Runs one case; on WRONG / unexpected failures `why` says what happened. */
static outcome run_case(ocase *c, char *why, size_t why_len)
{
    aclTensorDesc *din[MAXIN], *dout[MAXOUT];
    aclDataBuffer *bin[MAXIN], *bout[MAXOUT];
    void *devin[MAXIN], *hin[MAXIN], *devout[MAXOUT], *hout[MAXOUT];
    size_t szin[MAXIN], szout[MAXOUT];
    for (int i = 0; i < c->nin; ++i) {
        make_tensor(&c->in[i], true, &din[i], &bin[i], &devin[i], &hin[i], &szin[i]);
    }
    for (int k = 0; k < c->nout; ++k) {
        make_tensor(&c->out[k], false, &dout[k], &bout[k], &devout[k], &hout[k], &szout[k]);
    }
    outcome res = OK;
    aclError e = aclopCompileAndExecute(c->type, c->nin, (const aclTensorDesc *const *)din,
                                        (const aclDataBuffer *const *)bin, c->nout,
                                        (const aclTensorDesc *const *)dout, bout, c->attr, ACL_ENGINE_SYS,
                                        ACL_COMPILE_SYS, NULL, g_stream);
    aclError se = aclrtSynchronizeStream(g_stream);
    if (e != ACL_SUCCESS) {
        const char *m = aclGetRecentErrMsg();
        snprintf(why, why_len, "error %d: %s", e, m != NULL ? m : "");
        /* a refused op type / dtype: the compile step says so with these codes */
        res = (e == ACL_ERROR_OP_NOT_FOUND || e == ACL_ERROR_UNSUPPORTED_DATA_TYPE)
                  ? REFUSED
                  : WRONG;
    } else if (se != ACL_SUCCESS) {
        snprintf(why, why_len, "stream error %d", se);
        res = WRONG;
    }
    for (int k = 0; k < c->nout && res == OK; ++k) {
        const tspec *t = &c->out[k];
        assert_int_equal(aclrtMemcpy(hout[k], szout[k], devout[k], szout[k], ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
        const double tol = tolerance(t->dt) * c->tol;
        for (int64_t i = 0; i < numel(t); ++i) {
            const double got = get(t->dt, hout[k], i), want = as_dt(t->dt, t->v[i]);
            if (!(fabs(got - want) <= tol * (1.0 + fabs(want)))) {
                snprintf(why, why_len, "output %d element %lld: %.7g, want %.7g", k, (long long)i, got, want);
                res = WRONG;
                break;
            }
        }
    }
    for (int i = 0; i < c->nin; ++i) {
        aclDestroyTensorDesc(din[i]);
        (void)aclDestroyDataBuffer(bin[i]);
        (void)aclrtFree(devin[i]);
        free(hin[i]);
    }
    for (int k = 0; k < c->nout; ++k) {
        aclDestroyTensorDesc(dout[k]);
        (void)aclDestroyDataBuffer(bout[k]);
        (void)aclrtFree(devout[k]);
        free(hout[k]);
    }
    aclopDestroyAttr(c->attr);
    return res;
}

/* supported[row][dt]; failures counted and printed */
static bool g_sup[128][NDT];
static int g_wrong;

static void measure(bool verbose)
{
    add_rows();
    static ocase c; /* large: keep it off the stack */
    for (int r = 0; r < g_nrows; ++r) {
        for (int d = 0; d < NDT; ++d) {
            g_seed = (uint32_t)(r * 31 + d + 1);
            g_un = (const struct unary *)g_rows[r].sel;
            g_ua = (const struct unary_attr *)g_rows[r].sel;
            g_bin = (const struct binary *)g_rows[r].sel;
            assert_true(g_rows[r].build(&c, k_dts[d]));
            char why[512] = "";
            const outcome o = run_case(&c, why, sizeof why);
            g_sup[r][d] = o == OK;
            if (o == WRONG) {
                g_wrong++;
                printf("WRONG %s %s: %s\n", g_rows[r].type, k_dt_names[d], why);
            } else if (verbose && o == REFUSED) {
                printf("refused %s %s: %s\n", g_rows[r].type, k_dt_names[d], why);
            }
        }
    }
}

/* "| `Add` | ✓ | ✓ | — | ..." */
static void row_text(int r, char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "| `%s` |", g_rows[r].type);
    for (int d = 0; d < NDT && n < len; ++d) {
        n += (size_t)snprintf(buf + n, len - n, " %s |", g_sup[r][d] ? "yes" : "—");
    }
}

static const char *g_doc = OA_OPS_DOC;

static void matrix_matches_docs(void **state)
{
    (void)state;
    measure(false);
    assert_int_equal(g_wrong, 0);
    FILE *f = fopen(g_doc, "r");
    if (f == NULL) {
        fail_msg("cannot open %s", g_doc);
    }
    static char doc[1 << 17];
    const size_t len = fread(doc, 1, sizeof(doc) - 1, f);
    doc[len] = '\0';
    fclose(f);
    int bad = 0;
    for (int r = 0; r < g_nrows; ++r) {
        char want[256];
        row_text(r, want, sizeof want);
        /* the row, followed by a notes cell */
        const char *p = strstr(doc, want);
        if (p == NULL || (p > doc && p[-1] != '\n')) {
            printf("docs/ops.md lacks the row: %s\n", want);
            bad++;
        }
    }
    /* and no row for an op type the code does not know */
    int doc_rows = 0;
    for (const char *p = strstr(doc, "\n| `"); p != NULL; p = strstr(p + 1, "\n| `")) {
        doc_rows++;
    }
    if (doc_rows != g_nrows) {
        printf("docs/ops.md has %d op rows, the test measures %d\n", doc_rows, g_nrows);
        bad++;
    }
    assert_int_equal(bad, 0);
}

static int setup(void **state)
{
    (void)state;
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&g_stream) != ACL_SUCCESS) {
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    (void)aclrtDestroyStream(g_stream);
    (void)aclrtResetDevice(0);
    (void)aclFinalize();
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--markdown") == 0) {
        if (setup(NULL) != 0) {
            return 1;
        }
        measure(argc > 2);
        printf("| GE op type |");
        for (int d = 0; d < NDT; ++d) {
            printf(" %s |", k_dt_names[d]);
        }
        printf(" Notes |\n|---|");
        for (int d = 0; d < NDT; ++d) {
            printf("---|");
        }
        printf("---|\n");
        for (int r = 0; r < g_nrows; ++r) {
            char row[256];
            row_text(r, row, sizeof row);
            printf("%s |\n", row);
        }
        (void)teardown(NULL);
        return g_wrong != 0;
    }
    if (argc > 1) {
        g_doc = argv[1];
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(matrix_matches_docs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

/*
 * Conformance: elementwise binary (every op, numpy broadcasting of every rank
 * combination, empty and size-1 dims, f32/i32/i64/bool), unary (every op),
 * SelectV2, Cast, the NCHWc variants (same shape, per-channel, scalar) and
 * in-place runs. Reference: double-precision loops with an independent
 * broadcast index computation.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "kt_harness.h"

/* ---- reference broadcasting ---- */

static int64_t bcast_index(const oa_ktensor *y, const oa_ktensor *x, int64_t yi)
{
    int64_t idx[OA_KMAX_DIMS];
    for (int d = y->rank - 1; d >= 0; d--) {
        idx[d] = y->dims[d] ? yi % y->dims[d] : 0;
        yi = y->dims[d] ? yi / y->dims[d] : 0;
    }
    int64_t off = 0;
    for (int d = 0; d < x->rank; d++) {
        int yd = d + (y->rank - x->rank);
        off = off * x->dims[d] + (x->dims[d] == 1 ? 0 : idx[yd]);
    }
    return off;
}

static double bin_ref(oa_kbinary_op op, double u, double v)
{
    switch (op) {
    case OA_KBIN_ADD: return u + v;
    case OA_KBIN_SUB: return u - v;
    case OA_KBIN_MUL: return u * v;
    case OA_KBIN_DIV: return u / v;
    case OA_KBIN_POW: return pow(u, v);
    case OA_KBIN_MAX: return u > v ? u : v;
    case OA_KBIN_MIN: return u < v ? u : v;
    case OA_KBIN_PRELU: return u > 0 ? u : u * v;
    case OA_KBIN_EQUAL: return u == v;
    case OA_KBIN_NOT_EQUAL: return u != v;
    case OA_KBIN_LESS: return u < v;
    case OA_KBIN_LESS_EQUAL: return u <= v;
    case OA_KBIN_GREATER: return u > v;
    case OA_KBIN_GREATER_EQUAL: return u >= v;
    case OA_KBIN_AND: return (u != 0) && (v != 0);
    case OA_KBIN_OR: return (u != 0) || (v != 0);
    default: return (u != 0) != (v != 0);
    }
}

static void run_binary(oa_kbinary_op op, oa_kdtype dt, oa_ktensor a, oa_ktensor b, int thr, uint64_t seed)
{
    a.dtype = b.dtype = dt;
    kt_buf x1 = kt_alloc(a), x2 = kt_alloc(b);
    double lo = -3, hi = 3;
    if (op == OA_KBIN_POW) {
        lo = 0.1;
    }
    kt_fill(&x1, seed, lo, hi);
    kt_fill(&x2, seed + 7, op == OA_KBIN_POW ? -2 : lo, hi);
    if (op == OA_KBIN_DIV) { /* keep divisors away from 0 */
        for (int64_t i = 0; i < oa_ktensor_numel(&b); i++) {
            double v = kt_get(&x2, i);
            kt_set(&x2, i, v == 0 ? 1 : (fabs(v) < 0.25 ? 0.5 : v));
        }
    }
    oa_kbinary_params p = {.op = op};
    oa_ktensor yd;
    memset(&yd, 0, sizeof yd);
    oa_ktensor ins[2] = {a, b};
    assert_int_equal(oa_kernel_infer(OA_KOP_BINARY, &p, 2, ins, 1, &yd), OA_OK);
    kt_buf y = kt_alloc(yd);
    int64_t n = oa_ktensor_numel(&yd);
    double *ref = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    for (int64_t i = 0; i < n; i++) {
        double u = kt_get(&x1, bcast_index(&yd, &a, i)), v = kt_get(&x2, bcast_index(&yd, &b, i));
        if (dt != OA_KDT_F32 && op == OA_KBIN_DIV) {
            ref[i] = trunc(u / v);
        } else {
            ref[i] = bin_ref(op, u, v);
        }
        if (dt == OA_KDT_F32 && op <= OA_KBIN_PRELU) {
            ref[i] = (float)ref[i];
        }
    }
    kt_buf *ins_b[2] = {&x1, &x2}, *outs[1] = {&y};
    char sa[64], sb[64];
    const char *label = kt_fmt("binary op %d %s %s x %s thr%d", (int)op, oa_kdtype_name(dt), kt_dims_str(&a, sa, 64),
                               kt_dims_str(&b, sb, 64), thr);
    assert_int_equal(kt_run(OA_KOP_BINARY, &p, 2, ins_b, 0, 1, outs, thr), OA_OK);
    if (dt == OA_KDT_F32 && (op == OA_KBIN_POW)) {
        kt_expect_close(&y, ref, 1e-6, 1e-5, label);
    } else if (dt == OA_KDT_F32) {
        kt_expect_close(&y, ref, 0, 1e-6, label);
    } else {
        kt_expect_equal(&y, ref, label);
    }
    free(ref);
    kt_free(&x1);
    kt_free(&x2);
    kt_free(&y);
}

static const struct {
    oa_ktensor a, b;
} *shape_pairs(size_t *n)
{
    static struct {
        oa_ktensor a, b;
    } s[20];
    size_t k = 0;
    s[k].a = KT_D(OA_KDT_F32, 2, 3, 4, 5); s[k++].b = KT_D(OA_KDT_F32, 2, 3, 4, 5);
    s[k].a = KT_D(OA_KDT_F32, 2, 3, 4, 5); s[k++].b = KT_D(OA_KDT_F32, 5);
    s[k].a = KT_D(OA_KDT_F32, 5); s[k++].b = KT_D(OA_KDT_F32, 2, 3, 4, 5);
    s[k].a = KT_D(OA_KDT_F32, 2, 1, 4, 1); s[k++].b = KT_D(OA_KDT_F32, 1, 3, 1, 5);
    s[k].a = KT_D(OA_KDT_F32, 3, 1); s[k++].b = KT_D(OA_KDT_F32, 1, 4);
    s[k].a = kt_desc(OA_KDT_F32, 0, NULL); s[k++].b = KT_D(OA_KDT_F32, 7);
    s[k].a = KT_D(OA_KDT_F32, 17); s[k++].b = kt_desc(OA_KDT_F32, 0, NULL);
    s[k].a = KT_D(OA_KDT_F32, 1, 24, 9, 9); s[k++].b = KT_D(OA_KDT_F32, 1, 24, 1, 1); /* per channel (SE) */
    s[k].a = KT_D(OA_KDT_F32, 2, 16, 768); s[k++].b = KT_D(OA_KDT_F32, 768);           /* bias add (BERT) */
    s[k].a = KT_D(OA_KDT_F32, 2, 4, 16, 16); s[k++].b = KT_D(OA_KDT_F32, 2, 1, 1, 16); /* attention mask */
    s[k].a = KT_D(OA_KDT_F32, 0, 3); s[k++].b = KT_D(OA_KDT_F32, 3);                   /* empty */
    s[k].a = KT_D(OA_KDT_F32, 1, 1, 1); s[k++].b = KT_D(OA_KDT_F32, 1);
    s[k].a = KT_D(OA_KDT_F32, 2, 1, 2, 1, 2, 1, 2, 1); s[k++].b = KT_D(OA_KDT_F32, 1, 2, 1, 2, 1, 2, 1, 2); /* rank 8 */
    s[k].a = KT_D(OA_KDT_F32, 4, 5); s[k++].b = KT_D(OA_KDT_F32, 2, 3, 4, 5);
    s[k].a = KT_D(OA_KDT_F32, 1, 32, 64, 65); s[k++].b = KT_D(OA_KDT_F32, 1, 32, 64, 65); /* multi-thread */
    s[k].a = KT_D(OA_KDT_F32, 64, 1, 129); s[k++].b = KT_D(OA_KDT_F32, 1, 300, 1);        /* outer product */
    /* a short inner dim under a broadcast dim (elementwise.c merge_short_inner): YOLO's anchors (rows of
     * several tiles), a period that does not divide the tile, a single long row split over threads */
    s[k].a = KT_D(OA_KDT_F32, 1, 3, 80, 80, 2); s[k++].b = KT_D(OA_KDT_F32, 1, 3, 1, 1, 2);
    s[k].a = KT_D(OA_KDT_F32, 1, 40000, 3); s[k++].b = KT_D(OA_KDT_F32, 1, 1, 3); /* odd index: 2 threads, chunks of 16384 */
    s[k].a = KT_D(OA_KDT_F32, 1, 1, 7); s[k++].b = KT_D(OA_KDT_F32, 4, 300, 7);
    *n = k;
    return (void *)s;
}

static void test_binary_f32(void **state)
{
    (void)state;
    size_t ns;
    const void *sp = shape_pairs(&ns);
    const struct {
        oa_ktensor a, b;
    } *s = sp;
    for (int op = 0; op < OA_KBIN_AND; op++) {
        if (op > OA_KBIN_MIN && op < OA_KBIN_PRELU) {
            continue; /* kernels/binary_defs.inc rows: test_op_dtypes / test_onnx_node_cases check them */
        }
        for (size_t i = 0; i < ns; i++) {
            run_binary((oa_kbinary_op)op, OA_KDT_F32, s[i].a, s[i].b, 1 + (int)(i % 2), (uint64_t)(op * 100 + (int)i));
        }
    }
}

static void test_binary_int_bool(void **state)
{
    (void)state;
    size_t ns;
    const void *sp = shape_pairs(&ns);
    const struct {
        oa_ktensor a, b;
    } *s = sp;
    oa_kbinary_op int_ops[] = {OA_KBIN_ADD, OA_KBIN_SUB, OA_KBIN_MUL, OA_KBIN_DIV, OA_KBIN_MAX, OA_KBIN_MIN,
                               OA_KBIN_EQUAL, OA_KBIN_LESS, OA_KBIN_GREATER, OA_KBIN_GREATER_EQUAL, OA_KBIN_LESS_EQUAL,
                               OA_KBIN_NOT_EQUAL};
    for (size_t k = 0; k < sizeof(int_ops) / sizeof(int_ops[0]); k++) {
        for (size_t i = 0; i < ns; i += 2) {
            run_binary(int_ops[k], OA_KDT_I32, s[i].a, s[i].b, 2, 7 + k);
            run_binary(int_ops[k], OA_KDT_I64, s[i].a, s[i].b, 1, 9 + k);
        }
    }
    oa_kbinary_op bool_ops[] = {OA_KBIN_AND, OA_KBIN_OR, OA_KBIN_XOR, OA_KBIN_EQUAL};
    for (size_t k = 0; k < 4; k++) {
        for (size_t i = 0; i < ns; i++) {
            run_binary(bool_ops[k], OA_KDT_BOOL, s[i].a, s[i].b, 1 + (int)(i % 2), 11 + k);
        }
    }
}

/* op(a, b) + Relu fused, run in place on a (2 threads), against ref(a_i, b_j) for b's element j of a's i */
static void binary_relu_in_place(oa_kbinary_op bop, oa_ktensor ad, oa_ktensor bd, int64_t (*b_of)(int64_t),
                                 const char *label)
{
    kt_buf a = kt_alloc(ad), b = kt_alloc(bd);
    kt_fill(&a, 1 + (uint64_t)bop, -1, 1);
    kt_fill(&b, 2 + (uint64_t)bop, -1, 1);
    const int64_t n = oa_ktensor_numel(&a.d);
    double *ref = malloc(sizeof(double) * (size_t)n);
    for (int64_t i = 0; i < n; i++) {
        const double u = kt_get(&a, i), w = kt_get(&b, b_of(i));
        const double v = (double)(float)(bop == OA_KBIN_MUL ? u * w : u + w);
        ref[i] = v > 0 ? v : 0;
    }
    oa_kbinary_params p = {.op = bop};
    p.post.n = 1;
    p.post.ops[0].kind = OA_KPOST_ACT;
    p.post.ops[0].act = OA_KACT_RELU;
    oa_ktensor in[2] = {a.d, b.d};
    oa_kop *op;
    assert_int_equal(oa_kop_create(OA_KOP_BINARY, &p, 2, in, 1, &a.d, &op), OA_OK);
    const void *ip[2] = {a.data, b.data};
    void *outp[1] = {a.data};
    assert_int_equal(oa_kop_run(op, ip, outp, NULL, kt_pool(2)), OA_OK);
    kt_expect_close(&a, ref, 0, 1e-6, label);
    oa_kop_destroy(op);
    free(ref);
    kt_free(&a);
    kt_free(&b);
}

static int64_t per_row_of_50x70(int64_t i)
{
    return (i / 70) % 50;
}

static int64_t repeating_3_per_2700(int64_t i)
{
    return (i / 2700) * 3 + i % 3;
}

static void test_binary_post_and_inplace(void **state)
{
    (void)state;
    binary_relu_in_place(OA_KBIN_ADD, KT_D(OA_KDT_F32, 3, 50, 70), KT_D(OA_KDT_F32, 50, 1), per_row_of_50x70,
                         "add+relu in place");
    /* b repeats along a's rows: the periodic row path */
    binary_relu_in_place(OA_KBIN_MUL, KT_D(OA_KDT_F32, 2, 900, 3), KT_D(OA_KDT_F32, 2, 1, 3), repeating_3_per_2700,
                         "mul+relu in place, b periodic");
}

static void test_pow_constant_exponent(void **state)
{
    (void)state;
    float exps[] = {2.0f, 0.5f, -0.5f, -1.0f, 1.0f, 3.0f, -2.5f};
    oa_ktensor shapes[] = {KT_D(OA_KDT_F32, 1), kt_desc(OA_KDT_F32, 0, NULL), KT_D(OA_KDT_F32, 1, 1, 1)};
    for (size_t i = 0; i < sizeof(exps) / sizeof(exps[0]); i++) {
        for (int sh = 0; sh < 3; sh++) {
            kt_buf x = kt_alloc(KT_D(OA_KDT_F32, 4, 33, 17)), e = kt_alloc(shapes[sh]);
            kt_fill(&x, 9, 0.05, 4);
            *(float *)e.data = exps[i];
            oa_ktensor yd;
            memset(&yd, 0, sizeof yd);
            oa_kbinary_params p = {.op = OA_KBIN_POW};
            oa_ktensor ind[2] = {x.d, e.d};
            assert_int_equal(oa_kernel_infer(OA_KOP_BINARY, &p, 2, ind, 1, &yd), OA_OK);
            kt_buf y = kt_alloc(yd);
            int64_t n = oa_ktensor_numel(&x.d);
            double *ref = malloc(sizeof(double) * (size_t)n);
            for (int64_t k = 0; k < n; k++) {
                ref[k] = pow(kt_get(&x, k), exps[i]);
            }
            kt_buf *ins[2] = {&x, &e}, *outs[1] = {&y};
            assert_int_equal(kt_run(OA_KOP_BINARY, &p, 2, ins, 0x2, 1, outs, 1 + sh % 2), OA_OK);
            kt_expect_close(&y, ref, 1e-6, 2e-6, kt_fmt("Pow constant exponent %g shape %d", (double)exps[i], sh));
            free(ref);
            kt_free(&x);
            kt_free(&e);
            kt_free(&y);
        }
    }
}

static void test_binary_blocked(void **state)
{
    (void)state;
    int64_t cs[] = {3, 8, 13, 16, 24};
    oa_kbinary_op ops[] = {OA_KBIN_ADD, OA_KBIN_MUL, OA_KBIN_SUB, OA_KBIN_DIV, OA_KBIN_MAX};
    /* 5x7: whole planes per task; 50x45: planes cut in pixel ranges (several per plane at both blocks) */
    static const int64_t hws[2][2] = {{5, 7}, {50, 45}};
    for (size_t ci = 0; ci < 10; ci++) {
        int64_t C = cs[ci % 5], H = hws[ci / 5][0], W = hws[ci / 5][1];
        for (size_t oi = 0; oi < 5; oi++) {
            for (int kind = 0; kind < 4; kind++) { /* 0 same, 1 per-channel x2, 2 scalar x2, 3 per-channel x1 */
                oa_ktensor full = KT_D(OA_KDT_F32, 2, C, H, W);
                oa_ktensor other = kind == 0 ? full : (kind == 2 ? KT_D(OA_KDT_F32, 1) : KT_D(OA_KDT_F32, 1, C, 1, 1));
                kt_buf f = kt_alloc(full), o = kt_alloc(other);
                kt_fill(&f, 5 + ci, -2, 2);
                kt_fill(&o, 6 + oi, 0.5, 2);
                bool swap = kind == 3;
                int64_t n = oa_ktensor_numel(&full);
                double *ref = malloc(sizeof(double) * (size_t)n);
                for (int64_t i = 0; i < n; i++) {
                    double u = kt_get(&f, i), v = kt_get(&o, bcast_index(&full, &other, i));
                    ref[i] = (float)(swap ? bin_ref(ops[oi], v, u) : bin_ref(ops[oi], u, v));
                }
                kt_buf fb = kt_blocked_from_plain(&f);
                kt_buf ob = kind == 0 ? kt_blocked_from_plain(&o) : o;
                oa_ktensor yd = full;
                yd.layout = OA_KLAYOUT_NCHWC;
                kt_buf y = kt_alloc(yd);
                oa_kbinary_params p = {.op = ops[oi]};
                kt_buf *ins[2] = {swap ? &ob : &fb, swap ? &fb : &ob}, *outs[1] = {&y};
                assert_int_equal(kt_run(OA_KOP_BINARY, &p, 2, ins, 0, 1, outs, 1 + kind % 2), OA_OK);
                kt_buf yp = kt_plain_from_blocked(&y);
                kt_expect_close(&yp, ref, 1e-7, 1e-6, kt_fmt("NCHWc binary op %d C%lld kind %d", (int)ops[oi],
                                                            (long long)C, kind));
                kt_free(&yp);
                kt_free(&y);
                kt_free(&fb);
                if (kind == 0) {
                    kt_free(&ob);
                }
                kt_free(&f);
                kt_free(&o);
                free(ref);
            }
        }
    }
}

/* ---- unary ---- */

static double un_ref(oa_kunary_op op, double v, double a, double b)
{
    switch (op) {
    case OA_KUN_RELU: return v > 0 ? v : 0;
    case OA_KUN_LEAKY_RELU: return v > 0 ? v : a * v;
    case OA_KUN_SIGMOID: return 1 / (1 + exp(-v));
    case OA_KUN_HARDSIGMOID: return fmax(0, fmin(1, a * v + b));
    case OA_KUN_HARDSWISH: return v * fmax(0, fmin(6, v + 3)) / 6;
    case OA_KUN_TANH: return tanh(v);
    case OA_KUN_EXP: return exp(v);
    case OA_KUN_LOG: return log(v);
    case OA_KUN_SQRT: return sqrt(v);
    case OA_KUN_RSQRT: return 1 / sqrt(v);
    case OA_KUN_ERF: return erf(v);
    case OA_KUN_SOFTPLUS: return log1p(exp(v));
    case OA_KUN_ABS: return fabs(v);
    case OA_KUN_NEG: return -v;
    case OA_KUN_RECIPROCAL: return 1 / v;
    case OA_KUN_FLOOR: return floor(v);
    case OA_KUN_CEIL: return ceil(v);
    case OA_KUN_ROUND: return nearbyint(v);
    case OA_KUN_CLIP: return v < a ? a : (v > b ? b : v);
    case OA_KUN_GELU: return 0.5 * v * (1 + erf(v / sqrt(2.0)));
    case OA_KUN_GELU_TANH: return 0.5 * v * (1 + tanh(sqrt(2 / 3.14159265358979323846) * (v + 0.044715 * v * v * v)));
    case OA_KUN_SQUARE: return v * v;
    case OA_KUN_SIGN: return v > 0 ? 1 : (v < 0 ? -1 : 0);
    case OA_KUN_SIN: return sin(v);
    case OA_KUN_COS: return cos(v);
    case OA_KUN_SOFTSIGN: return v / (1 + fabs(v));
    case OA_KUN_MUL_HARDSIGMOID: return v * fmax(0, fmin(1, a * v + b));
    case OA_KUN_LOGICAL_NOT: return v == 0;
    default: return v;
    }
}

static void run_unary(oa_kunary_op op, oa_kdtype dt, oa_ktensor d, oa_klayout layout, int thr)
{
    d.dtype = dt;
    kt_buf x = kt_alloc(d);
    bool pos = op == OA_KUN_LOG || op == OA_KUN_SQRT || op == OA_KUN_RSQRT;
    kt_fill(&x, (uint64_t)op * 31 + 5, pos ? 0.01 : (op == OA_KUN_EXP ? -20 : -6), pos ? 50 : (op == OA_KUN_EXP ? 20 : 6));
    if (op == OA_KUN_ROUND && oa_ktensor_numel(&d) > 2) {
        kt_set(&x, 0, 2.5);
        kt_set(&x, 1, -0.5);
    }
    oa_kunary_params p = {.op = op, .alpha = 0.2f, .beta = 0.5f};
    if (op == OA_KUN_CLIP) {
        p.alpha = -1;
        p.beta = 2;
    }
    int64_t n = oa_ktensor_numel(&d);
    double *ref = malloc(sizeof(double) * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++) {
        ref[i] = un_ref(op, kt_get(&x, i), p.alpha, p.beta);
    }
    bool blk = layout == OA_KLAYOUT_NCHWC;
    kt_buf xi = blk ? kt_blocked_from_plain(&x) : x;
    kt_buf y = kt_alloc(xi.d);
    kt_buf *ins[1] = {&xi}, *outs[1] = {&y};
    const char *label = kt_fmt("unary op %d %s n%lld %s thr%d", (int)op, oa_kdtype_name(dt), (long long)n,
                               blk ? "NCHWc" : "plain", thr);
    assert_int_equal(kt_run(OA_KOP_UNARY, &p, 1, ins, 0, 1, outs, thr), OA_OK);
    kt_buf yp = blk ? kt_plain_from_blocked(&y) : y;
    if (dt == OA_KDT_F32) {
        double atol = (op == OA_KUN_SIN || op == OA_KUN_COS) ? 2e-6 : 1e-6;
        kt_expect_close(&yp, ref, atol, op == OA_KUN_EXP ? 2e-6 : 3e-6, label);
    } else {
        kt_expect_equal(&yp, ref, label);
    }
    if (blk) {
        kt_free(&yp);
        kt_free(&xi);
    }
    kt_free(&y);
    kt_free(&x);
    free(ref);
}

static void test_unary(void **state)
{
    (void)state;
    /* The plain math rows of kernels/unary_defs.inc (after OA_KUN_LAST_SPECIAL)
     * are checked against the ONNX backend data (tests/unit/onnx/test_onnx_node_cases.c). */
    for (int op = 0; op <= OA_KUN_LAST_SPECIAL; op++) {
        if (op == OA_KUN_LOGICAL_NOT) {
            run_unary((oa_kunary_op)op, OA_KDT_BOOL, KT_D(OA_KDT_BOOL, 3, 7), OA_KLAYOUT_PLAIN, 1);
            continue;
        }
        run_unary((oa_kunary_op)op, OA_KDT_F32, KT_D(OA_KDT_F32, 1, 1037), OA_KLAYOUT_PLAIN, 1);
        run_unary((oa_kunary_op)op, OA_KDT_F32, KT_D(OA_KDT_F32, 2, 13, 33, 31), OA_KLAYOUT_PLAIN, 2);
        run_unary((oa_kunary_op)op, OA_KDT_F32, KT_D(OA_KDT_F32, 0, 5), OA_KLAYOUT_PLAIN, 2);
        run_unary((oa_kunary_op)op, OA_KDT_F32, KT_D(OA_KDT_F32, 2, 13, 5, 3), OA_KLAYOUT_NCHWC, 1 + op % 2);
    }
    oa_kunary_op int_ops[] = {OA_KUN_ABS, OA_KUN_NEG, OA_KUN_RELU, OA_KUN_SQUARE, OA_KUN_SIGN};
    for (size_t k = 0; k < 5; k++) {
        run_unary(int_ops[k], OA_KDT_I32, KT_D(OA_KDT_I32, 40), OA_KLAYOUT_PLAIN, 1);
        run_unary(int_ops[k], OA_KDT_I64, KT_D(OA_KDT_I64, 4, 10), OA_KLAYOUT_PLAIN, 2);
    }
}

static void test_unary_special_values(void **state)
{
    (void)state;
    const float v[] = {NAN, INFINITY, -INFINITY, 88.8f, -100.0f, 0.0f, -0.0f, 1e-30f};
    oa_kunary_op ops[] = {OA_KUN_EXP, OA_KUN_SIGMOID, OA_KUN_TANH, OA_KUN_ERF, OA_KUN_RELU, OA_KUN_ABS, OA_KUN_NEG,
                          OA_KUN_SQRT, OA_KUN_GELU};
    for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
        kt_buf x = kt_alloc(KT_D(OA_KDT_F32, 8)), y = kt_alloc(KT_D(OA_KDT_F32, 8));
        memcpy(x.data, v, sizeof v);
        double ref[8];
        for (int i = 0; i < 8; i++) {
            ref[i] = (float)un_ref(ops[k], v[i], 0, 0); /* results beyond FLT_MAX are inf in f32 */
            if (ops[k] == OA_KUN_SQRT && v[i] < 0) {
                ref[i] = NAN;
            }
        }
        oa_kunary_params p = {.op = ops[k]};
        kt_buf *ins[1] = {&x}, *outs[1] = {&y};
        assert_int_equal(kt_run(OA_KOP_UNARY, &p, 1, ins, 0, 1, outs, 1), OA_OK);
        kt_expect_close(&y, ref, 1e-30, 1e-6, kt_fmt("unary op %d on NaN/inf/extremes", (int)ops[k]));
        kt_free(&x);
        kt_free(&y);
    }
}

static void test_clip_by_value_inputs(void **state)
{
    (void)state;
    kt_buf x = kt_alloc(KT_D(OA_KDT_F32, 100)), lo = kt_scalar_f32(-0.5f), hi = kt_scalar_f32(0.25f);
    kt_fill(&x, 3, -2, 2);
    double ref[100];
    for (int i = 0; i < 100; i++) {
        double v = kt_get(&x, i);
        ref[i] = v < -0.5 ? -0.5 : (v > 0.25 ? 0.25 : v);
    }
    kt_buf y = kt_alloc(x.d);
    oa_kunary_params p = {.op = OA_KUN_CLIP};
    kt_buf *ins[3] = {&x, &lo, &hi}, *outs[1] = {&y};
    assert_int_equal(kt_run(OA_KOP_UNARY, &p, 3, ins, 0x6, 1, outs, 1), OA_OK);
    kt_expect_equal(&y, ref, "ClipByValue with host min/max");
    kt_free(&x);
    kt_free(&lo);
    kt_free(&hi);
    kt_free(&y);
}

static void test_select(void **state)
{
    (void)state;
    oa_ktensor c[] = {KT_D(OA_KDT_BOOL, 2, 3, 4), KT_D(OA_KDT_BOOL, 4), KT_D(OA_KDT_BOOL, 2, 1, 1)};
    oa_ktensor t[] = {KT_D(OA_KDT_F32, 2, 3, 4), KT_D(OA_KDT_F32, 3, 1), KT_D(OA_KDT_F32, 1)};
    oa_ktensor e[] = {KT_D(OA_KDT_F32, 2, 3, 4), KT_D(OA_KDT_F32, 1, 4), KT_D(OA_KDT_F32, 3, 4)};
    for (int i = 0; i < 3; i++) {
        for (int dt = 0; dt < 2; dt++) {
            oa_kdtype ty = dt ? OA_KDT_I64 : OA_KDT_F32;
            t[i].dtype = e[i].dtype = ty;
            kt_buf cb = kt_alloc(c[i]), tb = kt_alloc(t[i]), eb = kt_alloc(e[i]);
            kt_fill(&cb, 1 + (uint64_t)i, 0, 1);
            kt_fill(&tb, 2 + (uint64_t)i, -100, 100);
            kt_fill(&eb, 3 + (uint64_t)i, -100, 100);
            oa_ktensor yd;
            memset(&yd, 0, sizeof yd);
            oa_ktensor ins_d[3] = {c[i], t[i], e[i]};
            assert_int_equal(oa_kernel_infer(OA_KOP_SELECT, NULL, 3, ins_d, 1, &yd), OA_OK);
            kt_buf y = kt_alloc(yd);
            int64_t n = oa_ktensor_numel(&yd);
            double *ref = malloc(sizeof(double) * (size_t)n);
            for (int64_t k = 0; k < n; k++) {
                bool cv = kt_get(&cb, bcast_index(&yd, &c[i], k)) != 0;
                ref[k] = cv ? kt_get(&tb, bcast_index(&yd, &t[i], k)) : kt_get(&eb, bcast_index(&yd, &e[i], k));
            }
            kt_buf *ins[3] = {&cb, &tb, &eb}, *outs[1] = {&y};
            assert_int_equal(kt_run(OA_KOP_SELECT, NULL, 3, ins, 0, 1, outs, 1 + i % 2), OA_OK);
            kt_expect_equal(&y, ref, kt_fmt("SelectV2 case %d %s", i, oa_kdtype_name(ty)));
            free(ref);
            kt_free(&cb);
            kt_free(&tb);
            kt_free(&eb);
            kt_free(&y);
        }
    }
}

static void test_cast(void **state)
{
    (void)state;
    oa_kdtype types[] = {OA_KDT_F32, OA_KDT_F16, OA_KDT_BF16, OA_KDT_F64, OA_KDT_I8, OA_KDT_U8, OA_KDT_I16,
                         OA_KDT_U16, OA_KDT_I32, OA_KDT_U32, OA_KDT_I64, OA_KDT_U64, OA_KDT_BOOL};
    for (size_t s = 0; s < 13; s++) {
        for (size_t d = 0; d < 13; d++) {
            kt_buf x = kt_alloc(KT_D(types[s], 64));
            /* values representable in every type: small integers and halves */
            for (int i = 0; i < 64; i++) {
                double v = (i % 7) * ((types[s] == OA_KDT_U8 || types[s] == OA_KDT_U16 || types[s] == OA_KDT_U32 ||
                                       types[s] == OA_KDT_U64)
                                          ? 1
                                          : (i % 2 ? -1 : 1));
                if (types[s] == OA_KDT_BOOL) {
                    v = i % 3 == 0;
                } else if (types[s] == OA_KDT_F32 || types[s] == OA_KDT_F64) {
                    v += (i % 4 == 1) ? 0.5 : 0;
                }
                if (types[s] == OA_KDT_F16) {
                    ((uint16_t *)x.data)[i] = 0; /* filled below */
                }
                if (types[s] == OA_KDT_F16 || types[s] == OA_KDT_BF16) {
                    /* encode v exactly (small integers) */
                    float f = (float)v;
                    uint32_t u;
                    memcpy(&u, &f, 4);
                    if (types[s] == OA_KDT_BF16) {
                        ((uint16_t *)x.data)[i] = (uint16_t)(u >> 16);
                    } else {
                        uint16_t h = (uint16_t)((u >> 16) & 0x8000);
                        if (f != 0) {
                            int e = (int)((u >> 23) & 0xff) - 127 + 15;
                            h |= (uint16_t)((e << 10) | ((u >> 13) & 0x3ff));
                        }
                        ((uint16_t *)x.data)[i] = h;
                    }
                } else {
                    kt_set(&x, i, v);
                }
            }
            double ref[64];
            bool dst_int = types[d] != OA_KDT_F32 && types[d] != OA_KDT_F64 && types[d] != OA_KDT_F16 &&
                           types[d] != OA_KDT_BF16;
            for (int i = 0; i < 64; i++) {
                double v = kt_get(&x, i);
                if (types[d] == OA_KDT_BOOL) {
                    v = v != 0;
                } else if (dst_int) {
                    v = trunc(v);
                    if ((types[d] == OA_KDT_U8 || types[d] == OA_KDT_U16 || types[d] == OA_KDT_U32 ||
                         types[d] == OA_KDT_U64) && v < 0) {
                        /* negative -> unsigned: float sources saturate to 0, integer sources wrap */
                        bool src_float = types[s] == OA_KDT_F32 || types[s] == OA_KDT_F64 || types[s] == OA_KDT_F16 ||
                                         types[s] == OA_KDT_BF16;
                        if (src_float) {
                            v = 0;
                        } else {
                            double m = types[d] == OA_KDT_U8 ? 256.0 : (types[d] == OA_KDT_U16 ? 65536.0 : (types[d] == OA_KDT_U32 ? 4294967296.0 : 18446744073709551616.0));
                            v += m;
                        }
                    }
                }
                ref[i] = v;
            }
            kt_buf y = kt_alloc(KT_D(types[d], 64));
            oa_kcast_params p = {.dst_type = types[d]};
            kt_buf *ins[1] = {&x}, *outs[1] = {&y};
            assert_int_equal(kt_run(OA_KOP_CAST, &p, 1, ins, 0, 1, outs, 1), OA_OK);
            kt_expect_equal(&y, ref, kt_fmt("Cast %s -> %s", oa_kdtype_name(types[s]), oa_kdtype_name(types[d])));
            kt_free(&x);
            kt_free(&y);
        }
    }
}

static void test_cast_f16_rounding(void **state)
{
    (void)state;
    float vals[] = {0.0f, -0.0f, 1.0f, 65504.0f, 65520.0f, 1e-8f, 5.960464477539063e-08f, 6.1035156e-05f,
                    1.0009765625f, 1.00048828125f, 1.00146484375f, -3.140625f, INFINITY, -INFINITY, 2.98e-08f};
    uint16_t expect[] = {0x0000, 0x8000, 0x3c00, 0x7bff, 0x7c00, 0x0000, 0x0001, 0x0400,
                         0x3c01, 0x3c00, 0x3c02, 0xc248, 0x7c00, 0xfc00, 0x0000};
    int n = (int)(sizeof(vals) / sizeof(vals[0]));
    kt_buf x = kt_alloc(KT_D(OA_KDT_F32, n)), y = kt_alloc(KT_D(OA_KDT_F16, n));
    memcpy(x.data, vals, sizeof vals);
    oa_kcast_params p = {.dst_type = OA_KDT_F16};
    kt_buf *ins[1] = {&x}, *outs[1] = {&y};
    assert_int_equal(kt_run(OA_KOP_CAST, &p, 1, ins, 0, 1, outs, 1), OA_OK);
    for (int i = 0; i < n; i++) {
        if (((uint16_t *)y.data)[i] != expect[i]) {
            fail_msg("f32 %.10g -> f16 0x%04x, expected 0x%04x", (double)vals[i], ((uint16_t *)y.data)[i], expect[i]);
        }
    }
    /* and back: every f16 bit pattern round-trips through f32 */
    kt_buf h = kt_alloc(KT_D(OA_KDT_F16, 65536)), f = kt_alloc(KT_D(OA_KDT_F32, 65536)), h2 = kt_alloc(h.d);
    for (int i = 0; i < 65536; i++) {
        ((uint16_t *)h.data)[i] = (uint16_t)i;
    }
    oa_kcast_params to32 = {.dst_type = OA_KDT_F32}, to16 = {.dst_type = OA_KDT_F16};
    kt_buf *i1[1] = {&h}, *o1[1] = {&f}, *i2[1] = {&f}, *o2[1] = {&h2};
    assert_int_equal(kt_run(OA_KOP_CAST, &to32, 1, i1, 0, 1, o1, 2), OA_OK);
    assert_int_equal(kt_run(OA_KOP_CAST, &to16, 1, i2, 0, 1, o2, 2), OA_OK);
    for (int i = 0; i < 65536; i++) {
        uint16_t a = ((uint16_t *)h.data)[i], b = ((uint16_t *)h2.data)[i];
        bool nan = (a & 0x7c00) == 0x7c00 && (a & 0x3ff);
        if (nan ? !((b & 0x7c00) == 0x7c00 && (b & 0x3ff)) : a != b) {
            fail_msg("f16 0x%04x -> f32 %g -> f16 0x%04x", a, (double)((float *)f.data)[i], b);
        }
    }
    kt_free(&x);
    kt_free(&y);
    kt_free(&h);
    kt_free(&f);
    kt_free(&h2);
}

/* f32 -> bf16 keeps the upper 16 bits (the ONNX Cast reference): the bit
 * patterns below are chosen where truncation and rounding to nearest differ */
static void test_cast_bf16_truncates(void **state)
{
    (void)state;
    uint32_t in[] = {0x3f80c000u, 0x3f80ffffu, 0xbf80c000u, 0x3ef535b8u, 0x7f7fffffu, 0x7f800000u, 0xff800000u,
                     0x7fc00000u, 0x7f800001u, 0x00000001u, 0x80000000u, 0x3f818000u};
    uint16_t expect[] = {0x3f80, 0x3f80, 0xbf80, 0x3ef5, 0x7f7f, 0x7f80, 0xff80, 0x7fc0, 0x7fc0, 0x0000, 0x8000, 0x3f81};
    int n = (int)(sizeof(in) / sizeof(in[0]));
    kt_buf x = kt_alloc(KT_D(OA_KDT_F32, n)), y = kt_alloc(KT_D(OA_KDT_BF16, n));
    memcpy(x.data, in, sizeof in);
    oa_kcast_params p = {.dst_type = OA_KDT_BF16};
    kt_buf *ins[1] = {&x}, *outs[1] = {&y};
    assert_int_equal(kt_run(OA_KOP_CAST, &p, 1, ins, 0, 1, outs, 1), OA_OK);
    for (int i = 0; i < n; i++) {
        if (((uint16_t *)y.data)[i] != expect[i]) {
            fail_msg("f32 0x%08x -> bf16 0x%04x, expected 0x%04x", in[i], ((uint16_t *)y.data)[i], expect[i]);
        }
    }
    kt_free(&x);
    kt_free(&y);
}

/* f64 unary ops computed in double (a float evaluation misses the 1e-12 bound), f16 through f32
 * (within f16's rounding); f16 binary arithmetic and comparisons against double references. */
static void test_unary_binary_f64_f16(void **state)
{
    (void)state;
    static const struct {
        oa_kunary_op op;
        double (*ref)(double);
    } U[] = {{OA_KUN_EXP, exp}, {OA_KUN_LOG, log}, {OA_KUN_TANH, tanh}, {OA_KUN_SQRT, sqrt},
             {OA_KUN_SINH, sinh}, {OA_KUN_ATAN, atan}, {OA_KUN_ERF, erf}};
    for (size_t k = 0; k < sizeof U / sizeof U[0]; k++) {
        for (int half = 0; half < 2; half++) {
            oa_kdtype dt = half ? OA_KDT_F16 : OA_KDT_F64;
            kt_buf x = kt_alloc(KT_D(dt, 37)), y = kt_alloc(KT_D(dt, 37));
            kt_fill(&x, 70 + k, 0.1, 3.0);
            double ref[37];
            for (int i = 0; i < 37; i++) {
                ref[i] = U[k].ref(kt_get(&x, i));
            }
            oa_kunary_params p = {.op = U[k].op};
            kt_buf *ins[1] = {&x}, *outs[1] = {&y};
            assert_int_equal(kt_run(OA_KOP_UNARY, &p, 1, ins, 0, 1, outs, 2), OA_OK);
            kt_expect_close(&y, ref, half ? 1e-3 : 1e-12, half ? 1e-3 : 1e-12,
                            kt_fmt("unary %d %s", (int)U[k].op, half ? "f16" : "f64"));
            kt_free(&x);
            kt_free(&y);
        }
    }
    static const oa_kbinary_op B[] = {OA_KBIN_ADD, OA_KBIN_MUL, OA_KBIN_MAX, OA_KBIN_MIN, OA_KBIN_MOD,
                                      OA_KBIN_FLOOR_MOD, OA_KBIN_LESS};
    for (size_t k = 0; k < sizeof B / sizeof B[0]; k++) {
        kt_buf a = kt_alloc(KT_D(OA_KDT_F16, 4, 9)), b = kt_alloc(KT_D(OA_KDT_F16, 1, 9));
        kt_fill(&a, 80 + k, -6.0, 6.0);
        kt_fill(&b, 90 + k, 0.5, 3.0);
        kt_set(&b, 3, -2.5);
        const bool cmp = B[k] == OA_KBIN_LESS;
        kt_buf y = kt_alloc(KT_D(cmp ? OA_KDT_BOOL : OA_KDT_F16, 4, 9));
        double ref[36];
        for (int i = 0; i < 36; i++) {
            double u = kt_get(&a, i), v = kt_get(&b, i % 9), m = fmod(u, v);
            switch (B[k]) {
            case OA_KBIN_ADD: ref[i] = u + v; break;
            case OA_KBIN_MUL: ref[i] = u * v; break;
            case OA_KBIN_MAX: ref[i] = fmax(u, v); break;
            case OA_KBIN_MIN: ref[i] = fmin(u, v); break;
            case OA_KBIN_MOD: ref[i] = m; break;
            case OA_KBIN_FLOOR_MOD: ref[i] = (m != 0 && ((m < 0) != (v < 0))) ? m + v : m; break;
            default: ref[i] = u < v; break;
            }
        }
        oa_kbinary_params p = {.op = B[k]};
        kt_buf *ins[2] = {&a, &b}, *outs[1] = {&y};
        assert_int_equal(kt_run(OA_KOP_BINARY, &p, 2, ins, 0, 1, outs, 2), OA_OK);
        kt_expect_close(&y, ref, 2e-3, 1e-3, kt_fmt("binary %d f16", (int)B[k]));
        kt_free(&a);
        kt_free(&b);
        kt_free(&y);
    }
}

static void test_elementwise_bad_params(void **state)
{
    (void)state;
    oa_kbinary_params p = {.op = OA_KBIN_ADD};
    oa_ktensor in[2] = {KT_D(OA_KDT_F32, 2, 3), KT_D(OA_KDT_F32, 4)};
    oa_ktensor out;
    oa_kop *op = NULL;
    kt_expect_fail(oa_kernel_infer(OA_KOP_BINARY, &p, 2, in, 1, &out), OA_E_PARAM, "non-broadcastable");
    in[1] = KT_D(OA_KDT_I32, 3);
    kt_expect_fail(oa_kernel_infer(OA_KOP_BINARY, &p, 2, in, 1, &out), OA_E_PARAM, "mixed dtypes");
    in[0] = KT_D(OA_KDT_BF16, 3);
    in[1] = KT_D(OA_KDT_BF16, 3);
    kt_expect_fail(oa_kernel_infer(OA_KOP_BINARY, &p, 2, in, 1, &out), OA_E_UNSUPPORTED_DATA_TYPE, "bf16 add");
    p.op = OA_KBIN_AND;
    in[0] = in[1] = KT_D(OA_KDT_F32, 3);
    kt_expect_fail(oa_kernel_infer(OA_KOP_BINARY, &p, 2, in, 1, &out), OA_E_UNSUPPORTED_DATA_TYPE, "f32 and");
    p.op = (oa_kbinary_op)99;
    kt_expect_fail(oa_kernel_infer(OA_KOP_BINARY, &p, 2, in, 1, &out), OA_E_PARAM, "bad op");
    kt_expect_fail(oa_kop_create(OA_KOP_BINARY, NULL, 2, in, 1, &out, &op), OA_E_PARAM, "no params");
    kt_expect_fail(oa_kop_create((oa_kop_type)1000, NULL, 2, in, 1, &out, &op), OA_E_PARAM, "bad type");
    in[0].rank = 9;
    p.op = OA_KBIN_ADD;
    kt_expect_fail(oa_kop_create(OA_KOP_BINARY, &p, 2, in, 1, &out, &op), OA_E_PARAM, "rank 9");
    in[0] = KT_D(OA_KDT_F32, 3);
    in[0].dims[0] = -2;
    kt_expect_fail(oa_kop_create(OA_KOP_BINARY, &p, 2, in, 1, &out, &op), OA_E_PARAM, "negative dim");
    /* run with NULL pointers */
    in[0] = in[1] = out = KT_D(OA_KDT_F32, 3);
    assert_int_equal(oa_kop_create(OA_KOP_BINARY, &p, 2, in, 1, &out, &op), OA_OK);
    const void *ip[2] = {NULL, NULL};
    float y[3];
    void *yp[1] = {y};
    kt_expect_fail(oa_kop_run(op, ip, yp, NULL, NULL), OA_E_PARAM, "NULL input at run");
    kt_expect_fail(oa_kop_run(op, NULL, yp, NULL, NULL), OA_E_PARAM, "NULL array at run");
    oa_kop_destroy(op);
    oa_kunary_params up = {.op = OA_KUN_SIGMOID};
    in[0] = KT_D(OA_KDT_I32, 3);
    kt_expect_fail(oa_kernel_infer(OA_KOP_UNARY, &up, 1, in, 1, &out), OA_E_UNSUPPORTED_DATA_TYPE, "i32 sigmoid");
    oa_kcast_params cp = {.dst_type = (oa_kdtype)55};
    kt_expect_fail(oa_kernel_infer(OA_KOP_CAST, &cp, 1, in, 1, &out), OA_E_UNSUPPORTED_DATA_TYPE, "cast to dtype 55");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_binary_f32),
        cmocka_unit_test(test_binary_int_bool),
        cmocka_unit_test(test_binary_post_and_inplace),
        cmocka_unit_test(test_binary_blocked),
        cmocka_unit_test(test_pow_constant_exponent),
        cmocka_unit_test(test_unary),
        cmocka_unit_test(test_unary_special_values),
        cmocka_unit_test(test_clip_by_value_inputs),
        cmocka_unit_test(test_select),
        cmocka_unit_test(test_cast),
        cmocka_unit_test(test_cast_f16_rounding),
        cmocka_unit_test(test_cast_bf16_truncates),
        cmocka_unit_test(test_elementwise_bad_params),
        cmocka_unit_test(test_unary_binary_f64_f16),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

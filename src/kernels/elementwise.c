/*
 * Elementwise families: binary (numpy broadcasting, arith/compare/logic),
 * unary (activations and math), SelectV2, in plain and NCHWc layouts.
 *
 * Broadcasting is reduced once at setup to a canonical loop nest: size-1
 * dims dropped, adjacent dims merged while every operand stays contiguous
 * across them. run then walks "rows" (all dims but the innermost) and calls
 * an inner loop with per-operand inner stride 0 or 1, so the f32 cases hit
 * the vectorised vv / vs / sv loops of the ISA table.
 */
#include "kernels/kernel_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/fp16.h"

#define MAXOPS 3

/* Canonical broadcast nest for up to 3 inputs + 1 output (operand 0 = output). */
typedef struct bnest {
    int rank;                          /* >= 1 */
    int64_t dims[OA_KMAX_DIMS];        /* collapsed output dims */
    int64_t str[MAXOPS + 1][OA_KMAX_DIMS]; /* element strides per operand (0 = broadcast) */
    int nops;                          /* inputs */
    int64_t rows, inner;
} bnest;

static void bnest_build(bnest *b, const oa_ktensor *out, int nops, const oa_ktensor *const *ins)
{
    int r = out->rank;
    int64_t dims[OA_KMAX_DIMS];
    int64_t str[MAXOPS + 1][OA_KMAX_DIMS];
    for (int i = 0; i < r; i++) {
        dims[i] = out->dims[i];
    }
    for (int k = 0; k <= nops; k++) {
        const oa_ktensor *t = k == 0 ? out : ins[k - 1];
        int64_t s = 1;
        for (int i = r - 1; i >= 0; i--) {
            int ti = i - (r - t->rank);
            int64_t d = ti >= 0 ? t->dims[ti] : 1;
            str[k][i] = (d == 1) ? 0 : s;
            s *= d;
        }
    }
    /* drop size-1 dims, merge mergeable neighbours */
    int n = 0;
    for (int i = 0; i < r; i++) {
        if (dims[i] == 1) {
            continue;
        }
        if (n > 0) {
            bool merge = true;
            for (int k = 0; k <= nops; k++) {
                if (b->str[k][n - 1] != str[k][i] * dims[i]) {
                    merge = false;
                    break;
                }
            }
            if (merge) {
                b->dims[n - 1] *= dims[i];
                for (int k = 0; k <= nops; k++) {
                    b->str[k][n - 1] = str[k][i];
                }
                continue;
            }
        }
        b->dims[n] = dims[i];
        for (int k = 0; k <= nops; k++) {
            b->str[k][n] = str[k][i];
        }
        n++;
    }
    if (n == 0) {
        b->dims[0] = 1;
        for (int k = 0; k <= nops; k++) {
            b->str[k][0] = 0;
        }
        n = 1;
    }
    b->rank = n;
    b->nops = nops;
    b->inner = b->dims[n - 1];
    b->rows = 1;
    for (int i = 0; i < n - 1; i++) {
        b->rows *= b->dims[i];
    }
}

/* Element offsets of every operand at the start of row `row`. */
static void bnest_row(const bnest *b, int64_t row, int64_t *off)
{
    for (int k = 0; k <= b->nops; k++) {
        off[k] = 0;
    }
    for (int i = b->rank - 2; i >= 0; i--) {
        int64_t idx = row % b->dims[i];
        row /= b->dims[i];
        for (int k = 0; k <= b->nops; k++) {
            off[k] += idx * b->str[k][i];
        }
    }
}

/* Zeroes the padding channels of the last block of an NCHWc f32 tensor. */
static void zero_blk_tail(float *y, const oa_ktensor *t)
{
    int64_t c = oa_kernels_block();
    int64_t C = t->dims[1];
    if (C % c == 0) {
        return;
    }
    int64_t cb = (C + c - 1) / c, hw = t->dims[2] * t->dims[3];
    for (int64_t n = 0; n < t->dims[0]; n++) {
        oa_kblk_zero_lanes(y + ((n * cb + cb - 1) * hw) * c, hw, c, C % c);
    }
}

/* =========================== binary ===================================== */

typedef enum bin_class { BC_ARITH, BC_CMP, BC_LOGIC } bin_class;

static bin_class bin_classify(oa_kbinary_op op)
{
    if (op <= OA_KBIN_PRELU || op >= OA_KBIN_MOD) {
        return BC_ARITH;
    }
    if (op <= OA_KBIN_GREATER_EQUAL) {
        return BC_CMP;
    }
    return BC_LOGIC;
}

/* The f32-only rows of kernels/binary_defs.inc. */
static bool bin_plain(oa_kbinary_op op)
{
    return op > OA_KBIN_MIN && op < OA_KBIN_PRELU;
}

static const char *const k_bin_names[OA_KBIN_COUNT] = {
    [OA_KBIN_ADD] = "Add", [OA_KBIN_SUB] = "Sub", [OA_KBIN_MUL] = "Mul", [OA_KBIN_DIV] = "RealDiv",
    [OA_KBIN_POW] = "Pow", [OA_KBIN_MAX] = "Maximum", [OA_KBIN_MIN] = "Minimum",
#define OA_KBINARY(id, name, expr) [OA_KBIN_##id] = name,
#include "kernels/binary_defs.inc"
#undef OA_KBINARY
    [OA_KBIN_PRELU] = "PRelu", [OA_KBIN_EQUAL] = "Equal", [OA_KBIN_NOT_EQUAL] = "NotEqual",
    [OA_KBIN_LESS] = "Less", [OA_KBIN_LESS_EQUAL] = "LessEqual", [OA_KBIN_GREATER] = "Greater",
    [OA_KBIN_GREATER_EQUAL] = "GreaterEqual", [OA_KBIN_AND] = "LogicalAnd", [OA_KBIN_OR] = "LogicalOr",
    [OA_KBIN_XOR] = "LogicalXor",
    [OA_KBIN_MOD] = "Mod", [OA_KBIN_FLOOR_MOD] = "FloorMod", [OA_KBIN_LSHIFT] = "LeftShift",
    [OA_KBIN_RSHIFT] = "RightShift",
};

typedef enum bin_bcast_blk { BB_FULL, BB_CHAN, BB_SCALAR } bin_bcast_blk;

typedef struct bin_state {
    bnest nest;
    oa_kbinary_op op;
    oa_kdtype dt;
    bool blocked;
    bin_bcast_blk bb[2]; /* NCHWc operand kinds */
    oa_kpost_chain post;
    int pow_unary; /* Pow with a constant scalar exponent run as this unary op, or -1 */
    int64_t n;     /* output elements */
    size_t esz_in, esz_out;
    /* operand period_op (1: a, 2: b) repeats a vector of `period` floats along the nest's inner
     * dim (e.g. [3, 6400, 2] * [3, 1, 2], merged into rows of 12800): 0 when not */
    int64_t period;
    int period_op;
} bin_state;

static bool is_per_channel(const oa_ktensor *t, int64_t C)
{
    /* [C,1,1] or [1,C,1,1] (or [1,1,1,1]/scalar when C == 1) */
    if (t->rank == 4) {
        return t->dims[0] == 1 && t->dims[1] == C && t->dims[2] == 1 && t->dims[3] == 1;
    }
    if (t->rank == 3) {
        return t->dims[0] == C && t->dims[1] == 1 && t->dims[2] == 1;
    }
    return false;
}

static oa_status binary_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    const oa_kbinary_params *p = params;
    if ((unsigned)p->op >= OA_KBIN_COUNT) {
        return OA_FAIL(OA_E_PARAM, "binary: unknown op %d", (int)p->op);
    }
    if (n_in != 2 || n_out != 1) {
        return OA_FAIL(OA_E_PARAM, "%s: needs 2 inputs and 1 output, got %d and %d", k_bin_names[p->op], n_in, n_out);
    }
    if (in[0].dtype != in[1].dtype) {
        return OA_FAIL(OA_E_PARAM, "%s: input dtypes differ (%s vs %s)", k_bin_names[p->op],
                       oa_kdtype_name(in[0].dtype), oa_kdtype_name(in[1].dtype));
    }
    oa_kdtype dt = in[0].dtype;
    bin_class c = bin_classify(p->op);
    /* every integer type and f64 run in their own type (bin_inner_generic) */
    const bool gen = dt == OA_KDT_F32 || dt == OA_KDT_F64 || dt == OA_KDT_F16 || dt == OA_KDT_I8 || dt == OA_KDT_U8 || dt == OA_KDT_I16 ||
                     dt == OA_KDT_U16 || dt == OA_KDT_I32 || dt == OA_KDT_U32 || dt == OA_KDT_I64 || dt == OA_KDT_U64;
    bool ok = (c == BC_LOGIC) ? dt == OA_KDT_BOOL
              : (c == BC_CMP) ? (gen || dt == OA_KDT_BOOL)
              : bin_plain(p->op) ? dt == OA_KDT_F32
                              : (gen && (p->op != OA_KBIN_PRELU || dt == OA_KDT_F32 || dt == OA_KDT_I32 ||
                                         dt == OA_KDT_I64 || dt == OA_KDT_F64 || dt == OA_KDT_F16));
    if (ok && (p->op == OA_KBIN_LSHIFT || p->op == OA_KBIN_RSHIFT) &&
        !(dt == OA_KDT_U8 || dt == OA_KDT_U16 || dt == OA_KDT_U32 || dt == OA_KDT_U64)) {
        ok = false; /* ONNX BitShift: unsigned types */
    }
    if (ok && p->op > OA_KBIN_PRELU && (in[0].layout != OA_KLAYOUT_PLAIN || in[1].layout != OA_KLAYOUT_PLAIN ||
                                        p->post.n > 0)) {
        return OA_FAIL(OA_E_PARAM, "%s: plain layouts without post-ops only", k_bin_names[p->op]);
    }
    if (!ok) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "%s: dtype %s not supported", k_bin_names[p->op],
                       oa_kdtype_name(dt));
    }
    int n_add;
    oa_status st = oa_kpost_check(&p->post, false, &n_add);
    if (st != OA_OK) {
        return st;
    }
    if (p->post.n > 0 && (c != BC_ARITH || dt != OA_KDT_F32)) {
        return OA_FAIL(OA_E_PARAM, "%s: post-ops need f32 arithmetic", k_bin_names[p->op]);
    }
    bool blk0 = in[0].layout == OA_KLAYOUT_NCHWC, blk1 = in[1].layout == OA_KLAYOUT_NCHWC;
    if (blk0 || blk1) {
        const oa_ktensor *full = blk0 ? &in[0] : &in[1];
        const oa_ktensor *other = blk0 ? &in[1] : &in[0];
        if (dt != OA_KDT_F32 || c != BC_ARITH) {
            return OA_FAIL(OA_E_PARAM, "%s: NCHWc needs f32 arithmetic", k_bin_names[p->op]);
        }
        bool other_ok = (other->layout == OA_KLAYOUT_NCHWC && oa_ksame_dims(other, full)) ||
                        (other->layout == OA_KLAYOUT_PLAIN &&
                         (oa_ktensor_numel(other) == 1 || is_per_channel(other, full->dims[1])));
        if (!other_ok) {
            return OA_FAIL(OA_E_PARAM, "%s: NCHWc operands must be same-shape, per-channel or scalar",
                           k_bin_names[p->op]);
        }
        out[0] = *full;
        out[0].data = NULL;
        return OA_OK;
    }
    out[0].dtype = c == BC_ARITH ? dt : OA_KDT_BOOL;
    return oa_kbroadcast_shape(&in[0], &in[1], &out[0]);
}

/* Inner dims shorter than this are merged with the dim above when one operand repeats along it. */
#define BIN_SHORT_INNER 32
/* Floats of the repeated vector laid out per call of the row kernel (bin_periodic_row). */
#define BIN_TILE 512

/*
 * A short inner dim under a dim that one operand broadcasts and the other
 * runs through (YOLO's [1, 3, 80, 80, 2] * anchors [1, 3, 1, 1, 2]: 19,200
 * rows of 2 floats, one call each) becomes one long row per outer index in
 * which that operand repeats with the old inner size as its period.
 */
static void merge_short_inner(bin_state *s)
{
    bnest *b = &s->nest;
    const int r = b->rank;
    if (r < 2 || b->rows == 0 || b->inner > BIN_SHORT_INNER || b->str[0][r - 1] != 1) {
        return;
    }
    const int64_t inner = b->inner;
    for (int q = 1; q <= 2; q++) {
        const int o = 3 - q;
        if (b->str[q][r - 2] == 0 && b->str[q][r - 1] == 1 && b->str[o][r - 2] == inner && b->str[o][r - 1] == 1) {
            b->rows /= b->dims[r - 2];
            b->dims[r - 2] *= inner;
            b->str[0][r - 2] = 1;
            b->str[o][r - 2] = 1;
            b->str[q][r - 2] = 0;
            b->rank = r - 1;
            b->inner = b->dims[r - 2];
            s->period = inner;
            s->period_op = q;
            return;
        }
    }
}

/* y[0, n) = a op b where operand s->period_op repeats `v` (s->period floats) from phase ph: the
 * vector is laid out in a tile of whole periods, then the row runs tile by tile. */
static void bin_periodic_row(const bin_state *s, const oa_kew_table *ew, const float *v, const float *x, float *y,
                             int64_t n, int64_t ph)
{
    float tile[BIN_TILE];
    const int64_t p = s->period, len = BIN_TILE / p * p;
    for (int64_t i = 0; i < len && i < n; i++) {
        tile[i] = v[(ph + i) % p];
    }
    for (int64_t at = 0; at < n; at += len) {
        const int64_t m = n - at < len ? n - at : len;
        const float *pa = s->period_op == 1 ? tile : x + at, *pb = s->period_op == 1 ? x + at : tile;
        ew->binary[s->op][0](pa, pb, y + at, (size_t)m);
        for (int k = 0; k < s->post.n; k++) {
            ew->act[s->post.ops[k].act](y + at, (size_t)m, s->post.ops[k].alpha, s->post.ops[k].beta);
        }
    }
}

static oa_status binary_setup(oa_kop *op)
{
    bin_state *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "binary state");
    }
    op->state = s;
    s->op = op->params.binary.op;
    s->dt = op->in[0].dtype;
    s->post = op->params.binary.post;
    s->blocked = op->out[0].layout == OA_KLAYOUT_NCHWC;
    s->n = oa_ktensor_numel(&op->out[0]);
    s->esz_in = oa_kdtype_size(s->dt);
    s->esz_out = oa_kdtype_size(op->out[0].dtype);
    s->pow_unary = -1;
    if (s->op == OA_KBIN_POW && s->dt == OA_KDT_F32 && op->in[1].data != NULL && oa_ktensor_numel(&op->in[1]) == 1 &&
        oa_ktensor_numel(&op->in[0]) == s->n && !s->blocked) {
        /* x^2 etc. (LayerNorm decompositions): powf costs ~40 ns per element */
        float e = *(const float *)op->in[1].data;
        s->pow_unary = e == 2.0f ? OA_KUN_SQUARE
                       : e == 0.5f ? OA_KUN_SQRT
                       : e == -0.5f ? OA_KUN_RSQRT
                       : e == -1.0f ? OA_KUN_RECIPROCAL
                       : e == 1.0f ? OA_KUN_IDENTITY
                                   : -1;
    }
    if (s->blocked) {
        for (int k = 0; k < 2; k++) {
            const oa_ktensor *t = &op->in[k];
            s->bb[k] = t->layout == OA_KLAYOUT_NCHWC ? BB_FULL : (oa_ktensor_numel(t) == 1 ? BB_SCALAR : BB_CHAN);
        }
        op->impl = oa_kernels_isa();
        return OA_OK;
    }
    const oa_ktensor *ins[2] = {&op->in[0], &op->in[1]};
    bnest_build(&s->nest, &op->out[0], 2, ins);
    op->impl = s->dt == OA_KDT_F32 && s->op <= OA_KBIN_PRELU ? oa_kernels_isa() : "ref";
    if (s->dt == OA_KDT_F32 && s->op <= OA_KBIN_PRELU) {
        merge_short_inner(s);
    }
    return OA_OK;
}

/* Generic (non-f32-arith) inner loop with strides sa, sb in {0,1}. */
#define GEN_LOOP(TA, TY, EXPR)                                   \
    do {                                                         \
        const TA *A = a;                                         \
        const TA *B = b;                                         \
        TY *Y = y;                                               \
        for (int64_t i = 0; i < n; i++) {                        \
            const TA u = A[i * sa], v = B[i * sb];               \
            Y[i] = (TY)(EXPR);                                   \
        }                                                        \
    } while (0)

#define INT_ARITH(T, TMIN)                                                                             \
    switch (op) {                                                                                      \
    case OA_KBIN_ADD: GEN_LOOP(T, T, (T)((uint64_t)u + (uint64_t)v)); break;                            \
    case OA_KBIN_SUB: GEN_LOOP(T, T, (T)((uint64_t)u - (uint64_t)v)); break;                            \
    case OA_KBIN_MUL: GEN_LOOP(T, T, (T)((uint64_t)u * (uint64_t)v)); break;                            \
    case OA_KBIN_DIV: GEN_LOOP(T, T, v == 0 ? 0 : ((u == TMIN && v == -1) ? u : u / v)); break;        \
    case OA_KBIN_POW: GEN_LOOP(T, T, (T)pow((double)u, (double)v)); break;                              \
    case OA_KBIN_MAX: GEN_LOOP(T, T, u > v ? u : v); break;                                            \
    case OA_KBIN_MIN: GEN_LOOP(T, T, u < v ? u : v); break;                                            \
    case OA_KBIN_PRELU: GEN_LOOP(T, T, u > 0 ? u : (T)((uint64_t)u * (uint64_t)v)); break;             \
    case OA_KBIN_MOD: GEN_LOOP(T, T, (v == 0 || (u == TMIN && v == -1)) ? 0 : u % v); break;          \
    case OA_KBIN_FLOOR_MOD:                                                                            \
        GEN_LOOP(T, T, (v == 0 || (u == TMIN && v == -1)) ? 0                                          \
                       : (u % v != 0 && ((u % v < 0) != (v < 0))) ? (T)(u % v + v) : (T)(u % v));      \
        break;                                                                                         \
    default: break;                                                                                    \
    }

/* unsigned: wrapping add/sub/mul, x / 0 = 0 */
#define UINT_ARITH(T)                                                                                  \
    switch (op) {                                                                                      \
    case OA_KBIN_ADD: GEN_LOOP(T, T, (T)(u + v)); break;                                               \
    case OA_KBIN_SUB: GEN_LOOP(T, T, (T)(u - v)); break;                                               \
    case OA_KBIN_MUL: GEN_LOOP(T, T, (T)((uint64_t)u * (uint64_t)v)); break;                           \
    case OA_KBIN_DIV: GEN_LOOP(T, T, v == 0 ? 0 : u / v); break;                                       \
    case OA_KBIN_POW: GEN_LOOP(T, T, (T)pow((double)u, (double)v)); break;                              \
    case OA_KBIN_MAX: GEN_LOOP(T, T, u > v ? u : v); break;                                            \
    case OA_KBIN_MIN: GEN_LOOP(T, T, u < v ? u : v); break;                                            \
    case OA_KBIN_MOD:                                                                                  \
    case OA_KBIN_FLOOR_MOD: GEN_LOOP(T, T, v == 0 ? 0 : u % v); break;                                 \
    case OA_KBIN_LSHIFT: GEN_LOOP(T, T, v >= sizeof(T) * 8 ? 0 : (T)((uint64_t)u << v)); break;        \
    case OA_KBIN_RSHIFT: GEN_LOOP(T, T, v >= sizeof(T) * 8 ? 0 : (T)(u >> v)); break;                  \
    default: break;                                                                                    \
    }

/* float remainders: fmod, then the divisor's sign for FLOOR_MOD */
#define FLT_MOD(T, FMOD)                                                                               \
    switch (op) {                                                                                      \
    case OA_KBIN_MOD: GEN_LOOP(T, T, FMOD(u, v)); break;                                               \
    case OA_KBIN_FLOOR_MOD:                                                                            \
        GEN_LOOP(T, T, (FMOD(u, v) != 0 && ((FMOD(u, v) < 0) != (v < 0))) ? FMOD(u, v) + v : FMOD(u, v)); \
        break;                                                                                         \
    default: break;                                                                                    \
    }

#define F64_ARITH                                                                                      \
    switch (op) {                                                                                      \
    case OA_KBIN_ADD: GEN_LOOP(double, double, u + v); break;                                          \
    case OA_KBIN_SUB: GEN_LOOP(double, double, u - v); break;                                          \
    case OA_KBIN_MUL: GEN_LOOP(double, double, u * v); break;                                          \
    case OA_KBIN_DIV: GEN_LOOP(double, double, u / v); break;                                          \
    case OA_KBIN_POW: GEN_LOOP(double, double, pow(u, v)); break;                                      \
    case OA_KBIN_MAX: GEN_LOOP(double, double, (u > v || isnan(u)) ? u : v); break;                    \
    case OA_KBIN_MIN: GEN_LOOP(double, double, (u < v || isnan(u)) ? u : v); break;                    \
    case OA_KBIN_PRELU: GEN_LOOP(double, double, u > 0 ? u : u * v); break;                            \
    default: break;                                                                                    \
    }

#define CMP(T)                                                    \
    switch (op) {                                                 \
    case OA_KBIN_EQUAL: GEN_LOOP(T, uint8_t, u == v); break;      \
    case OA_KBIN_NOT_EQUAL: GEN_LOOP(T, uint8_t, u != v); break;  \
    case OA_KBIN_LESS: GEN_LOOP(T, uint8_t, u < v); break;        \
    case OA_KBIN_LESS_EQUAL: GEN_LOOP(T, uint8_t, u <= v); break; \
    case OA_KBIN_GREATER: GEN_LOOP(T, uint8_t, u > v); break;     \
    case OA_KBIN_GREATER_EQUAL: GEN_LOOP(T, uint8_t, u >= v); break; \
    default: break;                                               \
    }

/* f16: each operand widened to f32, the result rounded once to f16 (comparisons give bool) */
#define F16_LOOP(TY, EXPR)                                                            \
    do {                                                                              \
        const uint16_t *A = a;                                                        \
        const uint16_t *B = b;                                                        \
        TY *Y = y;                                                                    \
        for (int64_t i = 0; i < n; i++) {                                             \
            const float u = oa_f16_to_f32(A[i * sa]), v = oa_f16_to_f32(B[i * sb]);   \
            Y[i] = F16_STORE_##TY(EXPR);                                              \
        }                                                                             \
    } while (0)
#define F16_STORE_uint16_t(x) oa_f32_to_f16((float)(x))
#define F16_STORE_uint8_t(x) (uint8_t)(x)

static void bin_inner_f16(oa_kbinary_op op, const void *a, const void *b, void *y, int64_t n, int64_t sa, int64_t sb)
{
    switch (op) {
    case OA_KBIN_ADD: F16_LOOP(uint16_t, u + v); break;
    case OA_KBIN_SUB: F16_LOOP(uint16_t, u - v); break;
    case OA_KBIN_MUL: F16_LOOP(uint16_t, u * v); break;
    case OA_KBIN_DIV: F16_LOOP(uint16_t, u / v); break;
    case OA_KBIN_POW: F16_LOOP(uint16_t, powf(u, v)); break;
    case OA_KBIN_MAX: F16_LOOP(uint16_t, (u > v || isnan(u)) ? u : v); break;
    case OA_KBIN_MIN: F16_LOOP(uint16_t, (u < v || isnan(u)) ? u : v); break;
    case OA_KBIN_PRELU: F16_LOOP(uint16_t, u > 0 ? u : u * v); break;
    case OA_KBIN_MOD: F16_LOOP(uint16_t, fmodf(u, v)); break;
    case OA_KBIN_FLOOR_MOD:
        F16_LOOP(uint16_t, (fmodf(u, v) != 0 && ((fmodf(u, v) < 0) != (v < 0))) ? fmodf(u, v) + v : fmodf(u, v));
        break;
    case OA_KBIN_EQUAL: F16_LOOP(uint8_t, u == v); break;
    case OA_KBIN_NOT_EQUAL: F16_LOOP(uint8_t, u != v); break;
    case OA_KBIN_LESS: F16_LOOP(uint8_t, u < v); break;
    case OA_KBIN_LESS_EQUAL: F16_LOOP(uint8_t, u <= v); break;
    case OA_KBIN_GREATER: F16_LOOP(uint8_t, u > v); break;
    case OA_KBIN_GREATER_EQUAL: F16_LOOP(uint8_t, u >= v); break;
    default: break;
    }
}

static void bin_inner_generic(oa_kbinary_op op, oa_kdtype dt, const void *a, const void *b, void *y, int64_t n,
                              int64_t sa, int64_t sb)
{
    if (dt == OA_KDT_F16) {
        bin_inner_f16(op, a, b, y, n, sa, sb);
        return;
    }
    bin_class c = bin_classify(op);
    if (c == BC_LOGIC) {
        switch (op) {
        case OA_KBIN_AND: GEN_LOOP(uint8_t, uint8_t, (u != 0) && (v != 0)); break;
        case OA_KBIN_OR: GEN_LOOP(uint8_t, uint8_t, (u != 0) || (v != 0)); break;
        default: GEN_LOOP(uint8_t, uint8_t, (u != 0) != (v != 0)); break;
        }
        return;
    }
    if (c == BC_CMP) {
        switch (dt) {
        case OA_KDT_F32: CMP(float); break;
        case OA_KDT_F64: CMP(double); break;
        case OA_KDT_I8: CMP(int8_t); break;
        case OA_KDT_I16: CMP(int16_t); break;
        case OA_KDT_U16: CMP(uint16_t); break;
        case OA_KDT_I32: CMP(int32_t); break;
        case OA_KDT_U32: CMP(uint32_t); break;
        case OA_KDT_I64: CMP(int64_t); break;
        case OA_KDT_U64: CMP(uint64_t); break;
        default: CMP(uint8_t); break;
        }
        return;
    }
    switch (dt) {
    case OA_KDT_I8: INT_ARITH(int8_t, INT8_MIN) break;
    case OA_KDT_I16: INT_ARITH(int16_t, INT16_MIN) break;
    case OA_KDT_I32: INT_ARITH(int32_t, INT32_MIN) break;
    case OA_KDT_I64: INT_ARITH(int64_t, INT64_MIN) break;
    case OA_KDT_U8: UINT_ARITH(uint8_t) break;
    case OA_KDT_U16: UINT_ARITH(uint16_t) break;
    case OA_KDT_U32: UINT_ARITH(uint32_t) break;
    case OA_KDT_U64: UINT_ARITH(uint64_t) break;
    case OA_KDT_F64:
        if (op == OA_KBIN_MOD || op == OA_KBIN_FLOOR_MOD) {
            FLT_MOD(double, fmod)
        } else {
            F64_ARITH
        }
        break;
    case OA_KDT_F32: FLT_MOD(float, fmodf) break; /* f32 gets here for the remainders only */
    default: break;
    }
}

typedef struct bin_run_ctx {
    const bin_state *s;
    const char *a, *b;
    char *y;
    size_t esz_in, esz_out;
    int64_t hw, cblk, c; /* NCHWc */
    int64_t a_nch, b_nch; /* NCHWc per-channel vectors: elements per image (padded C) */
    int64_t pchunk, nsplit; /* NCHWc: pixels per task, tasks per (n, cblock) plane */
} bin_run_ctx;

static void bin_pow_unary_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const bin_run_ctx *c = vctx;
    const oa_kew_table *ew = oa_kew();
    static const float p[5] = {0, 0, 1, 1, 0};
    float *y = (float *)(void *)c->y + b;
    ew->unary[c->s->pow_unary]((const float *)(const void *)c->a + b, y, e - b, p);
    for (int k = 0; k < c->s->post.n; k++) {
        ew->act[c->s->post.ops[k].act](y, e - b, c->s->post.ops[k].alpha, c->s->post.ops[k].beta);
    }
}

static void bin_rows_task(void *vctx, size_t tid, size_t begin, size_t end)
{
    (void)tid;
    const bin_run_ctx *c = vctx;
    const bin_state *s = c->s;
    const bnest *nb = &s->nest;
    const oa_kew_table *ew = oa_kew();
    bool f32arith = s->dt == OA_KDT_F32 && s->op <= OA_KBIN_PRELU;
    int64_t off[3];
    /* a single row: [begin, end) is a range of the inner dim */
    bool split_inner = nb->rows == 1;
    for (size_t r = split_inner ? 0 : begin; r < (split_inner ? 1 : end); r++) {
        bnest_row(nb, (int64_t)r, off);
        int64_t i0 = split_inner ? (int64_t)begin : 0, i1 = split_inner ? (int64_t)end : nb->inner;
        int64_t sy = nb->str[0][nb->rank - 1], sa = nb->str[1][nb->rank - 1], sb = nb->str[2][nb->rank - 1];
        (void)sy;
        const char *pa = c->a + (size_t)(off[1] + i0 * sa) * c->esz_in;
        const char *pb = c->b + (size_t)(off[2] + i0 * sb) * c->esz_in;
        char *py = c->y + (size_t)(off[0] + i0) * c->esz_out;
        int64_t n = i1 - i0;
        if (f32arith && s->period > 0) {
            const float *v = (const float *)(s->period_op == 1 ? pa : pb), *x = (const float *)(s->period_op == 1 ? pb : pa);
            bin_periodic_row(s, ew, v, x, (float *)py, n, i0 % s->period);
        } else if (f32arith) {
            int mode = (sa == 1 && sb == 1) ? 0 : (sb == 0 ? 1 : 2);
            ew->binary[s->op][mode]((const float *)pa, (const float *)pb, (float *)py, (size_t)n);
            for (int k = 0; k < s->post.n; k++) {
                ew->act[s->post.ops[k].act]((float *)py, (size_t)n, s->post.ops[k].alpha, s->post.ops[k].beta);
            }
        } else {
            bin_inner_generic(s->op, s->dt, pa, pb, py, n, sa, sb);
        }
    }
}

/* NCHWc: one task index = pixels [p0, p1) of one (n, cblock) plane of hw*c floats (planes are
 * cut in pixel ranges so that a tensor of one or three channel blocks still gives every thread work). */
static void bin_blk_task(void *vctx, size_t tid, size_t begin, size_t end)
{
    (void)tid;
    const bin_run_ctx *c = vctx;
    const bin_state *s = c->s;
    const oa_kew_table *ew = oa_kew();
    const int64_t cc = c->c, plane = c->hw * cc;
    float rep[64 * 16];
    for (size_t task = begin; task < end; task++) {
        const int64_t idx = (int64_t)task / c->nsplit, part = (int64_t)task % c->nsplit;
        const int64_t p0 = part * c->pchunk, p1 = p0 + c->pchunk < c->hw ? p0 + c->pchunk : c->hw;
        const int64_t np_all = p1 - p0;
        int64_t cb = idx % c->cblk, n = idx / c->cblk;
        float *y = (float *)c->y + idx * plane + p0 * cc;
        const float *ops[2];
        for (int k = 0; k < 2; k++) {
            const float *base = (const float *)(k == 0 ? c->a : c->b);
            switch (s->bb[k]) {
            case BB_FULL: ops[k] = base + idx * plane + p0 * cc; break;
            case BB_SCALAR: ops[k] = base; break;
            default: ops[k] = base + cb * cc; break; /* per-channel plain vector, logical C */
            }
        }
        if (s->bb[0] == BB_FULL && s->bb[1] == BB_FULL) {
            ew->binary[s->op][0](ops[0], ops[1], y, (size_t)(np_all * cc));
        } else if (s->bb[1] == BB_SCALAR && s->bb[0] == BB_FULL) {
            ew->binary[s->op][1](ops[0], ops[1], y, (size_t)(np_all * cc));
        } else if (s->bb[0] == BB_SCALAR && s->bb[1] == BB_FULL) {
            ew->binary[s->op][2](ops[0], ops[1], y, (size_t)(np_all * cc));
        } else {
            /* one operand is a per-channel vector (or both are broadcast):
             * materialise 64 pixels of it and run the vv loop */
            int vk = s->bb[0] == BB_FULL ? 1 : 0;
            int64_t C = c->a_nch; /* logical channels */
            int64_t valid = C - cb * cc < cc ? C - cb * cc : cc;
            /* one pixel's lanes, then doubled up to the pixels a chunk takes */
            const int64_t reps = np_all < 64 ? np_all : 64;
            for (int64_t j = 0; j < cc; j++) {
                rep[j] = s->bb[vk] == BB_SCALAR ? ops[vk][0] : (j < valid ? ops[vk][j] : 0.0f);
            }
            for (int64_t i = 1; i < reps; i *= 2) {
                memcpy(rep + i * cc, rep, sizeof(float) * (size_t)(cc * (2 * i <= reps ? i : reps - i)));
            }
            const float *full = ops[1 - vk];
            bool full_is_vec = s->bb[1 - vk] != BB_FULL;
            for (int64_t q0 = 0; q0 < np_all; q0 += 64) {
                int64_t np = np_all - q0 < 64 ? np_all - q0 : 64;
                const float *fp = full_is_vec ? full : full + q0 * cc;
                float rep2[64 * 16];
                if (full_is_vec) { /* both broadcast: materialise the other too */
                    for (int64_t i = 0; i < np; i++) {
                        for (int64_t j = 0; j < cc; j++) {
                            rep2[i * cc + j] = s->bb[1 - vk] == BB_SCALAR ? full[0] : (j < valid ? full[j] : 0.0f);
                        }
                    }
                    fp = rep2;
                }
                const float *a = vk == 0 ? rep : fp, *b = vk == 0 ? fp : rep;
                ew->binary[s->op][0](a, b, y + q0 * cc, (size_t)(np * cc));
            }
        }
        for (int k = 0; k < s->post.n; k++) {
            ew->act[s->post.ops[k].act](y, (size_t)(np_all * cc), s->post.ops[k].alpha, s->post.ops[k].beta);
        }
        if (cb == c->cblk - 1 && c->a_nch % cc != 0) {
            for (int64_t i = 0; i < np_all; i++) {
                for (int64_t j = c->a_nch % cc; j < cc; j++) {
                    y[i * cc + j] = 0.0f;
                }
            }
        }
        (void)n;
    }
}

static oa_status binary_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)ws;
    const bin_state *s = op->state;
    if (s->n == 0) {
        return OA_OK; /* an empty result (its buffers may be NULL) */
    }
    if (in[0] == NULL || (in[1] == NULL && s->pow_unary < 0) || out[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "%s: NULL data pointer", k_bin_names[s->op]);
    }
    bin_run_ctx c = {.s = s, .a = in[0], .b = in[1], .y = out[0], .esz_in = s->esz_in, .esz_out = s->esz_out};
    if (s->blocked) {
        const oa_ktensor *y = &op->out[0];
        c.c = oa_kernels_block();
        c.cblk = (y->dims[1] + c.c - 1) / c.c;
        c.hw = y->dims[2] * y->dims[3];
        c.a_nch = y->dims[1];
        /* tasks of ~OA_KGRAIN_ELEMS floats (multiples of 64 pixels); small planes stay whole and
         * are grouped by the grain as before */
        c.pchunk = ((OA_KGRAIN_ELEMS / c.c) + 63) / 64 * 64;
        c.pchunk = c.pchunk < c.hw ? c.pchunk : (c.hw > 0 ? c.hw : 1);
        c.nsplit = (c.hw + c.pchunk - 1) / c.pchunk;
        c.nsplit = c.nsplit > 0 ? c.nsplit : 1;
        size_t grain = (size_t)(OA_KGRAIN_ELEMS / (c.pchunk * c.c) + 1);
        oa_threadpool_parallel_for(pool, (size_t)(y->dims[0] * c.cblk * c.nsplit), grain, bin_blk_task, &c);
        return OA_OK;
    }
    if (s->pow_unary >= 0) {
        oa_threadpool_parallel_for(pool, (size_t)s->n, OA_KGRAIN_ELEMS, bin_pow_unary_task, &c);
        return OA_OK;
    }
    const bnest *nb = &s->nest;
    if (nb->rows == 1) {
        oa_threadpool_parallel_for(pool, (size_t)nb->inner, OA_KGRAIN_ELEMS, bin_rows_task, &c);
    } else {
        size_t grain = (size_t)(OA_KGRAIN_ELEMS / nb->inner + 1);
        oa_threadpool_parallel_for(pool, (size_t)nb->rows, grain, bin_rows_task, &c);
    }
    return OA_OK;
}

const oa_kfamily oa_kfam_binary = {
    .params_size = sizeof(oa_kbinary_params),
    .infer = binary_infer,
    .setup = binary_setup,
    .run = binary_run,
    .release = oa_kop_state_free,
};

/* =========================== unary ====================================== */

typedef struct un_state {
    oa_kunary_op op;
    oa_kdtype dt;
    float p[5];
    int64_t n;
    bool blocked;
    oa_ktensor y;
} un_state;

static bool un_int_ok(oa_kunary_op op)
{
    return op == OA_KUN_ABS || op == OA_KUN_NEG || op == OA_KUN_RELU || op == OA_KUN_SQUARE || op == OA_KUN_SIGN ||
           op == OA_KUN_IDENTITY;
}

static oa_status unary_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    const oa_kunary_params *p = params;
    if ((unsigned)p->op >= OA_KUN_COUNT) {
        return OA_FAIL(OA_E_PARAM, "unary: unknown op %d", (int)p->op);
    }
    if ((n_in != 1 && !(p->op == OA_KUN_CLIP && n_in == 3)) || n_out != 1) {
        return OA_FAIL(OA_E_PARAM, "unary op %d: needs 1 input (Clip: 1 or 3) and 1 output, got %d and %d",
                       (int)p->op, n_in, n_out);
    }
    oa_kdtype dt = in[0].dtype;
    /* f16 runs through the f32 loops chunk by chunk (each result rounded once); f64 in double (un_f64) */
    const bool fl = dt == OA_KDT_F32 || dt == OA_KDT_F16 || dt == OA_KDT_F64;
    bool ok = p->op == OA_KUN_LOGICAL_NOT ? dt == OA_KDT_BOOL
                                          : (fl || ((dt == OA_KDT_I32 || dt == OA_KDT_I64) && un_int_ok(p->op)));
    if (!ok) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "unary op %d: dtype %s not supported", (int)p->op,
                       oa_kdtype_name(dt));
    }
    if (in[0].layout == OA_KLAYOUT_NCHWC && dt != OA_KDT_F32) {
        return OA_FAIL(OA_E_PARAM, "unary: NCHWc needs f32");
    }
    if (n_in == 3) {
        for (int i = 1; i < 3; i++) {
            if (in[i].data == NULL || oa_ktensor_numel(&in[i]) != 1) {
                return OA_FAIL(OA_E_PARAM, "ClipByValue: input %d must be a host scalar", i);
            }
        }
    }
    out[0] = in[0];
    out[0].data = NULL;
    return OA_OK;
}

static oa_status unary_setup(oa_kop *op)
{
    un_state *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "unary state");
    }
    op->state = s;
    const oa_kunary_params *p = &op->params.unary;
    s->op = p->op;
    s->dt = op->in[0].dtype;
    s->p[0] = p->alpha;
    s->p[1] = p->beta;
    float base = p->base, scale = p->scale, shift = p->shift;
    if (base == 0.0f && scale == 0.0f && shift == 0.0f) {
        scale = 1.0f;
    }
    float lnb = base <= 0.0f ? 1.0f : logf(base);
    s->p[2] = p->op == OA_KUN_LOG ? 1.0f / lnb : lnb;
    s->p[3] = scale;
    s->p[4] = shift;
    if (op->n_in == 3) {
        s->p[0] = (float)oa_kt_get_f64(&op->in[1], 0);
        s->p[1] = (float)oa_kt_get_f64(&op->in[2], 0);
    }
    s->blocked = op->in[0].layout == OA_KLAYOUT_NCHWC;
    s->y = op->out[0];
    s->n = s->blocked ? (int64_t)(oa_ktensor_bytes(&op->out[0]) / 4) : oa_ktensor_numel(&op->out[0]);
    op->impl = s->dt == OA_KDT_F32 ? oa_kernels_isa() : "ref";
    return OA_OK;
}

typedef struct un_ctx {
    const un_state *s;
    const void *x;
    void *y;
} un_ctx;

#define UN_INT(T)                                                     \
    do {                                                              \
        const T *X = (const T *)c->x;                                 \
        T *Y = (T *)c->y;                                             \
        for (size_t i = b; i < e; i++) {                              \
            T v = X[i];                                               \
            switch (s->op) {                                          \
            case OA_KUN_ABS: Y[i] = v < 0 ? (T)(0 - (uint64_t)v) : v; break; \
            case OA_KUN_NEG: Y[i] = (T)(0 - (uint64_t)v); break;      \
            case OA_KUN_RELU: Y[i] = v > 0 ? v : 0; break;            \
            case OA_KUN_SQUARE: Y[i] = (T)((uint64_t)v * (uint64_t)v); break; \
            case OA_KUN_SIGN: Y[i] = (T)((v > 0) - (v < 0)); break;   \
            default: Y[i] = v; break;                                 \
            }                                                         \
        }                                                             \
    } while (0)

static double un_sigmoid_f64(double v)
{
    return v >= 0.0 ? 1.0 / (1.0 + exp(-v)) : exp(v) / (1.0 + exp(v));
}

static double un_hsig_f64(double v, double a, double b)
{
    double t = a * v + b;
    return t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
}

/* One element in double precision (the f32 loops' formulas, in double). */
static double un_f64(const un_state *s, double v)
{
    const float alpha = s->p[0], beta = s->p[1];
    switch (s->op) {
    case OA_KUN_RELU: return v > 0.0 ? v : 0.0;
    case OA_KUN_LEAKY_RELU: return v > 0.0 ? v : alpha * v;
    case OA_KUN_SIGMOID: return un_sigmoid_f64(v);
    case OA_KUN_HARDSIGMOID: return un_hsig_f64(v, alpha, beta);
    case OA_KUN_HARDSWISH: return v * un_hsig_f64(v, 1.0 / 6.0, 0.5);
    case OA_KUN_MUL_HARDSIGMOID: return v * un_hsig_f64(v, alpha, beta);
    case OA_KUN_TANH: return tanh(v);
    case OA_KUN_EXP: return exp((double)s->p[2] * ((double)s->p[3] * v + (double)s->p[4]));
    case OA_KUN_LOG: return log((double)s->p[3] * v + (double)s->p[4]) * (double)s->p[2];
    case OA_KUN_SQRT: return sqrt(v);
    case OA_KUN_RSQRT: return 1.0 / sqrt(v);
    case OA_KUN_ERF: return erf(v);
    case OA_KUN_SOFTPLUS: return (v > 0.0 ? v : 0.0) + log1p(exp(-fabs(v)));
    case OA_KUN_ABS: return fabs(v);
    case OA_KUN_NEG: return -v;
    case OA_KUN_RECIPROCAL: return 1.0 / v;
    case OA_KUN_FLOOR: return floor(v);
    case OA_KUN_CEIL: return ceil(v);
    case OA_KUN_ROUND: return nearbyint(v);
    case OA_KUN_CLIP: return v < alpha ? alpha : (v > beta ? beta : v);
    case OA_KUN_GELU: return 0.5 * v * (1.0 + erf(v * 0.70710678118654752));
    case OA_KUN_GELU_TANH: return 0.5 * v * (1.0 + tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
    case OA_KUN_SQUARE: return v * v;
    case OA_KUN_SIGN: return v > 0.0 ? 1.0 : (v < 0.0 ? -1.0 : v);
    case OA_KUN_SIN: return sin(v);
    case OA_KUN_COS: return cos(v);
    case OA_KUN_SOFTSIGN: return v / (1.0 + fabs(v));
    case OA_KUN_IDENTITY: return v;
    default: break;
    }
    /* the unary_defs.inc rows, their float libm calls read as the double ones */
#define tanf tan
#define sinhf sinh
#define coshf cosh
#define asinf asin
#define acosf acos
#define atanf atan
#define asinhf asinh
#define acoshf acosh
#define atanhf atanh
#define expf exp
    switch (s->op) {
#define OA_KUNARY(id, expr) case OA_KUN_##id: return (expr);
#include "kernels/unary_defs.inc"
#undef OA_KUNARY
    default: return v;
    }
#undef tanf
#undef sinhf
#undef coshf
#undef asinf
#undef acosf
#undef atanf
#undef asinhf
#undef acoshf
#undef atanhf
#undef expf
}

/* f16: widen a chunk to f32, run the f32 loop, narrow (round to nearest even). */
static void un_half(const un_state *s, const void *x, void *y, size_t b, size_t e)
{
    float buf[1024];
    const uint16_t *X = x;
    uint16_t *Y = y;
    for (size_t i0 = b; i0 < e; i0 += 1024) {
        const size_t n = e - i0 < 1024 ? e - i0 : 1024;
        for (size_t i = 0; i < n; i++) {
            buf[i] = oa_f16_to_f32(X[i0 + i]);
        }
        oa_kew()->unary[s->op](buf, buf, n, s->p);
        for (size_t i = 0; i < n; i++) {
            Y[i0 + i] = oa_f32_to_f16(buf[i]);
        }
    }
}

static void un_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const un_ctx *c = vctx;
    const un_state *s = c->s;
    switch (s->dt) {
    case OA_KDT_F32:
        oa_kew()->unary[s->op]((const float *)c->x + b, (float *)c->y + b, e - b, s->p);
        break;
    case OA_KDT_F16: un_half(s, c->x, c->y, b, e); break;
    case OA_KDT_F64:
        for (size_t i = b; i < e; i++) {
            ((double *)c->y)[i] = un_f64(s, ((const double *)c->x)[i]);
        }
        break;
    case OA_KDT_BOOL:
        for (size_t i = b; i < e; i++) {
            ((uint8_t *)c->y)[i] = ((const uint8_t *)c->x)[i] == 0;
        }
        break;
    case OA_KDT_I32: UN_INT(int32_t); break;
    case OA_KDT_I64: UN_INT(int64_t); break;
    default: break;
    }
}

static oa_status unary_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)ws;
    const un_state *s = op->state;
    if (in[0] == NULL || out[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "unary: NULL data pointer");
    }
    un_ctx c = {s, in[0], out[0]};
    oa_threadpool_parallel_for(pool, (size_t)s->n, OA_KGRAIN_ELEMS, un_task, &c);
    if (s->blocked) {
        zero_blk_tail(out[0], &s->y);
    }
    return OA_OK;
}

const oa_kfamily oa_kfam_unary = {
    .params_size = sizeof(oa_kunary_params),
    .infer = unary_infer,
    .setup = unary_setup,
    .run = unary_run,
    .release = oa_kop_state_free,
};

/* =========================== SelectV2 =================================== */

static oa_status select_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    (void)params;
    if (n_in != 3 || n_out != 1) {
        return OA_FAIL(OA_E_PARAM, "SelectV2: needs 3 inputs and 1 output, got %d and %d", n_in, n_out);
    }
    if (in[0].dtype != OA_KDT_BOOL) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "SelectV2: condition must be bool, got %s",
                       oa_kdtype_name(in[0].dtype));
    }
    if (in[1].dtype != in[2].dtype) {
        return OA_FAIL(OA_E_PARAM, "SelectV2: then/else dtypes differ (%s vs %s)", oa_kdtype_name(in[1].dtype),
                       oa_kdtype_name(in[2].dtype));
    }
    oa_ktensor t;
    memset(&t, 0, sizeof t);
    oa_status st = oa_kbroadcast_shape(&in[1], &in[2], &t);
    if (st == OA_OK) {
        st = oa_kbroadcast_shape(&in[0], &t, &out[0]);
    }
    out[0].dtype = in[1].dtype;
    return st;
}

typedef struct sel_state {
    bnest nest;
    size_t esz;
} sel_state;

static oa_status select_setup(oa_kop *op)
{
    sel_state *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "select state");
    }
    op->state = s;
    const oa_ktensor *ins[3] = {&op->in[0], &op->in[1], &op->in[2]};
    bnest_build(&s->nest, &op->out[0], 3, ins);
    s->esz = oa_kdtype_size(op->in[1].dtype);
    return OA_OK;
}

typedef struct sel_ctx {
    const sel_state *s;
    const uint8_t *c;
    const char *a, *b;
    char *y;
} sel_ctx;

static void sel_task(void *vctx, size_t tid, size_t begin, size_t end)
{
    (void)tid;
    const sel_ctx *c = vctx;
    const bnest *nb = &c->s->nest;
    size_t esz = c->s->esz;
    int64_t off[4];
    int r = nb->rank - 1;
    for (size_t row = begin; row < end; row++) {
        bnest_row(nb, (int64_t)row, off);
        for (int64_t i = 0; i < nb->inner; i++) {
            bool t = c->c[off[1] + i * nb->str[1][r]] != 0;
            const char *src = t ? c->a + (size_t)(off[2] + i * nb->str[2][r]) * esz
                                : c->b + (size_t)(off[3] + i * nb->str[3][r]) * esz;
            memcpy(c->y + (size_t)(off[0] + i) * esz, src, esz);
        }
    }
}

static oa_status select_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)ws;
    if (in[0] == NULL || in[1] == NULL || in[2] == NULL || out[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "SelectV2: NULL data pointer");
    }
    const sel_state *s = op->state;
    if (oa_ktensor_numel(&op->out[0]) == 0) {
        return OA_OK;
    }
    sel_ctx c = {s, in[0], in[1], in[2], out[0]};
    oa_threadpool_parallel_for(pool, (size_t)s->nest.rows, (size_t)(OA_KGRAIN_ELEMS / s->nest.inner + 1), sel_task, &c);
    return OA_OK;
}

const oa_kfamily oa_kfam_select = {
    .params_size = 0,
    .infer = select_infer,
    .setup = select_setup,
    .run = select_run,
    .release = oa_kop_state_free,
};

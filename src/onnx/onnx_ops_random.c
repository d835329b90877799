/*
 * Random ops (src/onnx/README.md, "Random ops"): RandomUniform(Like),
 * RandomNormal(Like) and Bernoulli from a counter-based generator written
 * in int64 graph arithmetic, so that a model converts to ordinary kernels
 * and its outputs are reproducible: element i of a node with stream offset
 * s (from `seed`, or from the node's name when there is none) is
 *
 *   h0 = (i + s) mod P,  h1 = (48271 h0 + 11) mod P,  h2 = (h1^2 + 12345) mod P,
 *   h3 = (69621 h2) mod P,  h4 = (h3^2 + 7) mod P,   u = (h4 + 1/2) / P
 *
 * with P = 2^31 - 1 (every product stays below 2^62). u is uniform on (0, 1)
 * to the resolution of f32; it is not a cryptographic generator.
 * RandomNormal uses Box-Muller on two streams (s and s + 1/2 P).
 */
#include <math.h>
#include <string.h>

#include "onnx/onnx_internal.h"

#define RNG_P 2147483647LL

static onnx_tv ci64(onnx_xb *b, const char *role, int64_t v)
{
    const oa_shape s0 = oa_shape_scalar();
    return oa_xb_const(b, role, OA_DT_INT64, &s0, &v, sizeof v);
}

/* Stream offset in [0, P) from the seed attribute, else from the node name. */
static int64_t stream(const onnx_node_ctx *c, bool *ok)
{
    float seed;
    *ok = oa_onnx_attr_float(c, "seed", NAN, &seed) == OA_OK;
    uint64_t h = 1469598103934665603ULL;
    if (!isnan(seed)) {
        uint32_t bits;
        memcpy(&bits, &seed, sizeof bits);
        h ^= bits;
        h *= 1099511628211ULL;
    } else {
        for (const char *p = c->base_name; p && *p; p++) {
            h ^= (uint8_t)*p;
            h *= 1099511628211ULL;
        }
    }
    return (int64_t)(h % (uint64_t)RNG_P);
}

/* x mod P after x = a*x + k */
static onnx_tv affine(onnx_xb *b, const char *role, onnx_tv x, onnx_tv a, int64_t k, onnx_tv p)
{
    onnx_tv y = oa_xb_bin(b, OA_OP_MUL, role, x, a);
    if (k != 0) {
        y = oa_xb_bin(b, OA_OP_ADD, "plus_k", y, ci64(b, "k", k));
    }
    return oa_xb_bin(b, OA_OP_FLOOR_MOD, "mod_p", y, p);
}

/* u in (0, 1), f32, shaped like `like` (shape given as a tensor) */
static onnx_tv uniform(onnx_xb *b, onnx_tv shape, int64_t s)
{
    const int32_t ax0 = 0;
    const oa_shape s1 = oa_shape_make(1, (const int64_t[]){1});
    const onnx_tv rp[2] = {shape, oa_xb_const(b, "axes", OA_DT_INT32, &s1, &ax0, sizeof ax0)};
    onnx_tv n = oa_xb_op(b, OA_OP_REDUCE_PROD, "count", rp, 2);
    if (b->st == OA_OK) {
        b->st = oa_node_set_bool(n.n, "keep_dims", false);
    }
    const onnx_tv rg[3] = {ci64(b, "start", 0), n, ci64(b, "delta", 1)};
    onnx_tv i = oa_xb_op(b, OA_OP_RANGE, "index", rg, 3);
    const onnx_tv rs[2] = {i, shape};
    i = oa_xb_op(b, OA_OP_RESHAPE, "index_shaped", rs, 2);
    onnx_tv p = ci64(b, "p", RNG_P);
    onnx_tv h = oa_xb_bin(b, OA_OP_FLOOR_MOD, "h0", oa_xb_bin(b, OA_OP_ADD, "i_s", i, ci64(b, "s", s)), p);
    h = affine(b, "h1", h, ci64(b, "a1", 48271), 11, p);
    h = affine(b, "h2", h, h, 12345, p);
    h = affine(b, "h3", h, ci64(b, "a3", 69621), 0, p);
    h = affine(b, "h4", h, h, 7, p);
    onnx_tv u = oa_xb_bin(b, OA_OP_REAL_DIV, "u",
                          oa_xb_bin(b, OA_OP_ADD, "h_half", oa_xb_cast(b, "h_f32", h, OA_DT_FLOAT),
                                    oa_xb_f32(b, "half", 0.5f)),
                          oa_xb_f32(b, "p_f32", (float)RNG_P));
    /* (P - 1/2) / P rounds to 1 in f32: keep u below 1 */
    return oa_xb_bin(b, OA_OP_MINIMUM, "u_below_1", u, oa_xb_f32(b, "max_u", 0.99999994f));
}

/* The shape tensor: Shape(input 0) for the *Like ops, else the `shape` attribute. */
static onnx_tv shape_of(onnx_xb *b, bool like)
{
    onnx_node_ctx *c = b->c;
    if (like) {
        onnx_tv sh = oa_xb_un(b, OA_OP_SHAPE, "shape", oa_xb_in(b, 0));
        oa_xb_int(b, sh, "dtype", OA_DT_INT64);
        return sh;
    }
    const int64_t *dims;
    size_t nd;
    if (b->st == OA_OK && (b->st = oa_onnx_attr_required(c, "shape")) == OA_OK) {
        b->st = oa_onnx_attr_ints(c, "shape", &dims, &nd);
    }
    if (b->st != OA_OK) {
        onnx_tv none = {NULL, 0};
        return none;
    }
    const int64_t n1 = (int64_t)nd;
    const oa_shape s1 = oa_shape_make(1, &n1);
    return oa_xb_const(b, "shape", OA_DT_INT64, &s1, dims, nd * sizeof(int64_t));
}

/* Output dtype: the dtype attribute, else the input's (Like ops, Bernoulli), else float. */
static oa_status out_dtype(onnx_node_ctx *c, bool like, oa_dtype *dt)
{
    int64_t v;
    oa_status st = oa_onnx_attr_int(c, "dtype", -1, &v);
    if (st != OA_OK) {
        return st;
    }
    if (v >= 0) {
        if (v != (int)v || !oa_onnx_dtype_to_ge((int)v, dt) || *dt == OA_DT_STRING) {
            return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "dtype %lld is not supported", (long long)v);
        }
        return OA_OK;
    }
    *dt = OA_DT_FLOAT;
    if (like && !oa_onnx_declared_dtype(c, oa_onnx_input_name(c, 0), dt)) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "needs the dtype attribute or the declared type of its input");
    }
    return OA_OK;
}

static oa_status random_uniform(onnx_node_ctx *c, bool like)
{
    float lo, hi;
    oa_dtype dt;
    bool ok;
    oa_status st;
    if ((st = oa_onnx_attr_float(c, "low", 0.0f, &lo)) != OA_OK ||
        (st = oa_onnx_attr_float(c, "high", 1.0f, &hi)) != OA_OK || (st = out_dtype(c, like, &dt)) != OA_OK) {
        return st;
    }
    const int64_t s = stream(c, &ok);
    onnx_xb b = {c, OA_OK};
    onnx_tv u = uniform(&b, shape_of(&b, like), s);
    onnx_tv y = oa_xb_bin(&b, OA_OP_ADD, "shifted", oa_xb_bin(&b, OA_OP_MUL, "scaled", u, oa_xb_f32(&b, "range", hi - lo)),
                          oa_xb_f32(&b, "low", lo));
    oa_xb_out(&b, 0, dt == OA_DT_FLOAT ? y : oa_xb_cast(&b, "dtype", y, dt));
    return b.st;
}

static oa_status random_normal(onnx_node_ctx *c, bool like)
{
    float mean, scale;
    oa_dtype dt;
    bool ok;
    oa_status st;
    if ((st = oa_onnx_attr_float(c, "mean", 0.0f, &mean)) != OA_OK ||
        (st = oa_onnx_attr_float(c, "scale", 1.0f, &scale)) != OA_OK || (st = out_dtype(c, like, &dt)) != OA_OK) {
        return st;
    }
    const int64_t s = stream(c, &ok);
    onnx_xb b = {c, OA_OK};
    onnx_tv shape = shape_of(&b, like);
    onnx_tv u1 = uniform(&b, shape, s), u2 = uniform(&b, shape, (s + RNG_P / 2) % RNG_P);
    /* z = sqrt(-2 ln u1) cos(2 pi u2) */
    onnx_tv r = oa_xb_un(&b, OA_OP_SQRT, "radius",
                         oa_xb_bin(&b, OA_OP_MUL, "m2ln", oa_xb_un(&b, OA_OP_LOG, "ln_u1", u1),
                                   oa_xb_f32(&b, "minus_two", -2.0f)));
    onnx_tv z = oa_xb_bin(&b, OA_OP_MUL, "z", r,
                          oa_xb_un(&b, OA_OP_COS, "cos",
                                   oa_xb_bin(&b, OA_OP_MUL, "angle", u2, oa_xb_f32(&b, "tau", (float)(2.0 * M_PI)))));
    onnx_tv y = oa_xb_bin(&b, OA_OP_ADD, "shifted", oa_xb_bin(&b, OA_OP_MUL, "scaled", z, oa_xb_f32(&b, "scale", scale)),
                          oa_xb_f32(&b, "mean", mean));
    oa_xb_out(&b, 0, dt == OA_DT_FLOAT ? y : oa_xb_cast(&b, "dtype", y, dt));
    return b.st;
}

oa_status oa_onnx_op_random_uniform(onnx_node_ctx *c)
{
    return random_uniform(c, false);
}

oa_status oa_onnx_op_random_uniform_like(onnx_node_ctx *c)
{
    return random_uniform(c, true);
}

oa_status oa_onnx_op_random_normal(onnx_node_ctx *c)
{
    return random_normal(c, false);
}

oa_status oa_onnx_op_random_normal_like(onnx_node_ctx *c)
{
    return random_normal(c, true);
}

/* Bernoulli(p): u < p, in the dtype attribute (default: p's type). */
oa_status oa_onnx_op_bernoulli(onnx_node_ctx *c)
{
    oa_dtype dt, pt = OA_DT_FLOAT;
    bool ok;
    oa_status st = out_dtype(c, true, &dt);
    if (st != OA_OK) {
        return st;
    }
    (void)oa_onnx_declared_dtype(c, oa_onnx_input_name(c, 0), &pt);
    const int64_t s = stream(c, &ok);
    onnx_xb b = {c, OA_OK};
    onnx_tv u = uniform(&b, shape_of(&b, true), s);
    if (pt != OA_DT_FLOAT) {
        u = oa_xb_cast(&b, "u_cast", u, pt);
    }
    onnx_tv y = oa_xb_bin(&b, OA_OP_LESS, "draw", u, oa_xb_in(&b, 0));
    oa_xb_out(&b, 0, oa_xb_cast(&b, "dtype", y, dt));
    return b.st;
}

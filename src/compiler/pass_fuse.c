/*
 * Post-op fusion: activations, activation decompositions and residual adds
 * after Conv2D / Conv2DTranspose / MatMulV2 / BatchMatMulV2 become a chain
 * of post-ops on that node (the kernels' oa_kpost_chain), recorded as
 *
 *   _oa_post_ops         list<string>  op per entry, in order
 *   _oa_post_alpha       list<float>   parameter per entry (0 when unused)
 *   _oa_post_beta        list<float>   parameter per entry (0 when unused)
 *   _oa_post_input_base  int           input slot of the first "Add" operand
 *
 * (README.md "Encoding" has the full table.) The node keeps its GE type and
 * name; the names of the ops it swallowed are appended to
 * `_datadump_original_op_names`.
 */
#define OA_LOG_MODULE "GE"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "compiler/pass_util.h"
#include "compiler/passes.h"

#define MAX_POST 4
#define MAX_PATTERN 8

/* One matched pattern. */
typedef struct match {
    const char *op;                 /* post-op name */
    float alpha, beta;
    oa_node *nodes[MAX_PATTERN];    /* swallowed nodes, in topological order */
    int count;
    oa_node *final;                 /* its output 0 replaces the host's readers */
    oa_node *res_src;               /* "Add": the operand's producer */
    uint32_t res_idx;
} match;

static bool near(float v, float want)
{
    return fabsf(v - want) <= 1e-5f * fmaxf(1.0f, fabsf(want));
}

/* The other operand slot of a binary node whose slot `s` reads the value. */
static uint32_t other(uint32_t s)
{
    return 1 - s;
}

/* The readers of output 0 of n (up to cap); returns the count. */
static size_t uses_of(const oa_node *n, oa_use *u, size_t cap)
{
    return oa_node_output_uses(n, 0, u, cap);
}

/* True when n reads (src, 0) at slot a and a constant scalar ~ want at the other slot. */
static bool binary_with_scalar(const oa_node *n, oa_op_type type, const oa_node *src, float want, bool src_first)
{
    if (n->type != type || n->num_inputs != 2) {
        return false;
    }
    for (uint32_t s = 0; s < 2; s++) {
        if (src_first && s != 0) {
            break;
        }
        float v;
        if (oa_node_input_src(n, s, NULL) == src && n->inputs[s].src_index == 0 &&
            oa_cp_input_scalar(n, other(s), &v) && near(v, want)) {
            return true;
        }
    }
    return false;
}

/* True when n is Mul(a, b) in either order (output 0 of both). */
static bool mul_of(const oa_node *n, const oa_node *a, const oa_node *b)
{
    if (n->type != OA_OP_MUL || n->num_inputs != 2) {
        return false;
    }
    const oa_node *x = oa_node_input_src(n, 0, NULL), *y = oa_node_input_src(n, 1, NULL);
    return n->inputs[0].src_index == 0 && n->inputs[1].src_index == 0 && ((x == a && y == b) || (x == b && y == a));
}

/* x / 6 or x * (1/6). */
static bool div_by_six(const oa_node *n, const oa_node *x)
{
    return binary_with_scalar(n, OA_OP_REAL_DIV, x, 6.0f, true) ||
           binary_with_scalar(n, OA_OP_MUL, x, 1.0f / 6.0f, false);
}

/* x / sqrt(2) or x * (1/sqrt(2)). */
static bool div_by_sqrt2(const oa_node *n, const oa_node *x)
{
    return binary_with_scalar(n, OA_OP_REAL_DIV, x, 1.41421356f, true) ||
           binary_with_scalar(n, OA_OP_MUL, x, 0.70710678f, false);
}

/* Relu6, or ClipByValue(x, 0, 6) with constant scalar bounds. */
static bool clip_0_6(const oa_node *n, const oa_node *x)
{
    if (oa_node_input_src(n, 0, NULL) != x || n->inputs[0].src_index != 0) {
        return false;
    }
    if (n->type == OA_OP_RELU6) {
        return true;
    }
    float lo, hi;
    return n->type == OA_OP_CLIP_BY_VALUE && n->num_inputs == 3 && oa_cp_input_scalar(n, 1, &lo) &&
           oa_cp_input_scalar(n, 2, &hi) && near(lo, 0.0f) && near(hi, 6.0f);
}

/* Only reader of n's output 0, or NULL. */
static oa_node *only_use(const oa_node *n)
{
    return oa_cp_single_use(n, 0, NULL);
}

static void push(match *m, oa_node *n)
{
    if (m->count < MAX_PATTERN) {
        m->nodes[m->count++] = n;
    }
}

/*
 * y * Clip(y + 3, 0, 6) / 6   (a same-dtype Cast may sit between the Add
 * and the Clip: opset < 11 Clip expansions):
 *
 *   y ─┬─▶ Add(+3) ─▶ [Cast] ─▶ Clip(0,6) ─┐
 *      └──────────────────────────────────▶ Mul ─▶ Div(6) ─▶
 */
static bool match_hardswish(oa_node *p, const oa_use *u, match *m)
{
    for (int first = 0; first < 2; first++) {
        oa_node *add = u[first].node, *mul = u[1 - first].node;
        if (!binary_with_scalar(add, OA_OP_ADD, p, 3.0f, false)) {
            continue;
        }
        oa_node *c = only_use(add);
        oa_node *cast = NULL;
        if (c && c->type == OA_OP_CAST && c->outputs[0].desc.dtype == OA_DT_FLOAT) {
            cast = c;
            c = only_use(c);
        }
        if (c == NULL || !clip_0_6(c, cast ? cast : add) || only_use(c) != mul || !mul_of(mul, p, c)) {
            continue;
        }
        oa_node *d = only_use(mul);
        if (d == NULL || !div_by_six(d, mul)) {
            continue;
        }
        m->op = "HardSwish";
        push(m, add);
        if (cast) {
            push(m, cast);
        }
        push(m, c);
        push(m, mul);
        push(m, d);
        m->final = d;
        return true;
    }
    return false;
}

/*
 *   y ─┬─▶ HardSigmoid ─┐
 *      └───────────────▶ Mul ─▶        = MulHardSigmoid(alpha, beta)
 */
static bool match_mul_hardsigmoid(oa_node *p, const oa_use *u, match *m)
{
    for (int first = 0; first < 2; first++) {
        oa_node *hs = u[first].node, *mul = u[1 - first].node;
        if (hs->type != OA_OP_HARD_SIGMOID || only_use(hs) != mul || !mul_of(mul, p, hs)) {
            continue;
        }
        m->op = "MulHardSigmoid";
        m->alpha = oa_node_attr_float(hs, "alpha", 0.16666666f);
        m->beta = oa_node_attr_float(hs, "beta", 0.5f);
        push(m, hs);
        push(m, mul);
        m->final = mul;
        return true;
    }
    return false;
}

/*
 *   y ─┬─▶ Sigmoid ─┐
 *      └───────────▶ Mul ─▶            = Swish(1)  (SiLU, YOLO's activation)
 */
static bool match_silu(oa_node *p, const oa_use *u, match *m)
{
    for (int first = 0; first < 2; first++) {
        oa_node *sg = u[first].node, *mul = u[1 - first].node;
        if (sg->type != OA_OP_SIGMOID || only_use(sg) != mul || !mul_of(mul, p, sg)) {
            continue;
        }
        m->op = "Swish";
        m->alpha = 1.0f;
        push(m, sg);
        push(m, mul);
        m->final = mul;
        return true;
    }
    return false;
}

/*
 *   y ─┬─▶ Mul(c) ─▶ Sigmoid ─┐
 *      └──────────────────────▶ Mul ─▶     = Swish(c)  (Paddle's swish exports
 *                                           x * Sigmoid(x * 1.0): PP-OCRv4 rec)
 */
static bool match_swish_scaled(oa_node *p, const oa_use *u, match *m)
{
    for (int first = 0; first < 2; first++) {
        oa_node *sc = u[first].node, *mul = u[1 - first].node;
        float c;
        if (sc->type != OA_OP_MUL || sc->num_inputs != 2 || u[first].input > 1 ||
            !oa_cp_input_scalar(sc, other(u[first].input), &c) || !isfinite(c)) {
            continue;
        }
        oa_node *sg = only_use(sc);
        if (sg == NULL || sg->type != OA_OP_SIGMOID || only_use(sg) != mul || !mul_of(mul, p, sg)) {
            continue;
        }
        m->op = "Swish";
        m->alpha = c;
        push(m, sc);
        push(m, sg);
        push(m, mul);
        m->final = mul;
        return true;
    }
    return false;
}

/*
 * Erf-based Gelu, both operand orders:
 *   form 1:  Mul(Mul(y, 0.5), Add(Erf(y / sqrt2), 1))
 *   form 2:  Mul(Mul(y, Add(Erf(y / sqrt2), 1)), 0.5)
 *
 *   y ─┬─▶ Div(sqrt2) ─▶ Erf ─▶ Add(1) ─┐
 *      └─▶ Mul(0.5) ───────────────────▶ Mul ─▶          (form 1)
 */
static bool match_gelu(oa_node *p, const oa_use *u, match *m)
{
    for (int first = 0; first < 2; first++) {
        oa_node *div = u[first].node, *other_use = u[1 - first].node;
        if (!div_by_sqrt2(div, p)) {
            continue;
        }
        oa_node *erf = only_use(div);
        if (erf == NULL || erf->type != OA_OP_ERF) {
            continue;
        }
        oa_node *add = only_use(erf);
        if (add == NULL || !binary_with_scalar(add, OA_OP_ADD, erf, 1.0f, false)) {
            continue;
        }
        oa_node *join = only_use(add);
        if (join == NULL) {
            continue;
        }
        if (binary_with_scalar(other_use, OA_OP_MUL, p, 0.5f, false) && mul_of(join, other_use, add)) {
            push(m, div);
            push(m, erf);
            push(m, add);
            push(m, other_use);
            push(m, join);
            m->final = join;
        } else if (join == other_use && mul_of(join, p, add)) {
            oa_node *half = only_use(join);
            if (half == NULL || !binary_with_scalar(half, OA_OP_MUL, join, 0.5f, false)) {
                continue;
            }
            push(m, div);
            push(m, erf);
            push(m, add);
            push(m, join);
            push(m, half);
            m->final = half;
        } else {
            continue;
        }
        m->op = "GeluErf";
        return true;
    }
    return false;
}

/*
 * y*c, c*y, y+c, c+y, y-c, y/c with a constant finite scalar c, as
 * alpha*y + beta (PP-OCRv4's learnable affine after each HardSwish:
 * Mul(c) then Add(d), two passes over the map otherwise).
 */
static bool scalar_linear(const oa_node *u, uint32_t slot, float *alpha, float *beta)
{
    float c;
    if (u->num_inputs != 2 || !oa_cp_input_scalar(u, other(slot), &c) || !isfinite(c)) {
        return false;
    }
    switch (u->type) {
    case OA_OP_MUL:
        *alpha = c;
        *beta = 0.0f;
        return true;
    case OA_OP_ADD:
        *alpha = 1.0f;
        *beta = c;
        return true;
    case OA_OP_SUB:
        *alpha = 1.0f;
        *beta = -c;
        return slot == 0;
    case OA_OP_REAL_DIV:
        *alpha = 1.0f / c;
        *beta = 0.0f;
        return slot == 0 && c != 0.0f && isfinite(*alpha);
    default:
        return false;
    }
}

/* Single-reader activations, scalar affine steps and the residual Add. */
static bool match_single(oa_node *p, oa_node *u, uint32_t slot, match *m)
{
    float a, b;
    m->final = u;
    push(m, u);
    if (scalar_linear(u, slot, &a, &b)) {
        m->op = "Linear";
        m->alpha = a;
        m->beta = b;
        return true;
    }
    if (!(oa_op_flags(u->type) & OA_OPF_POST)) {
        return false; /* op_defs.inc: not fusible as a post-op */
    }
    /* Each F_POST row's attributes -> the post-op encoding (README.md "Encoding"). */
    switch (u->type) {
    case OA_OP_RELU:
        m->op = "Relu";
        return slot == 0;
    case OA_OP_RELU6:
        m->op = "Clip";
        m->alpha = 0.0f;
        m->beta = 6.0f;
        return slot == 0;
    case OA_OP_LEAKY_RELU:
        m->op = "LeakyRelu";
        m->alpha = oa_node_attr_float(u, "negative_slope", 0.0f);
        return slot == 0;
    case OA_OP_HARD_SIGMOID:
        m->op = "HardSigmoid";
        m->alpha = oa_node_attr_float(u, "alpha", 0.16666666f);
        m->beta = oa_node_attr_float(u, "beta", 0.5f);
        return slot == 0;
    case OA_OP_HARD_SWISH:
        m->op = "HardSwish";
        return slot == 0;
    case OA_OP_SIGMOID:
        m->op = "Sigmoid";
        return slot == 0;
    case OA_OP_TANH:
        m->op = "Tanh";
        return slot == 0;
    case OA_OP_GELU_V2:
        m->op = "GeluErf";
        return slot == 0 && strcmp(oa_node_attr_str(u, "approximate", "none"), "none") == 0;
    case OA_OP_CLIP_BY_VALUE:
        m->op = "Clip";
        if (slot != 0 || u->num_inputs != 3 || !oa_cp_input_scalar(u, 1, &a) || !oa_cp_input_scalar(u, 2, &b)) {
            return false;
        }
        m->alpha = a;
        m->beta = b;
        return true;
    case OA_OP_MAXIMUM:
    case OA_OP_MINIMUM:
        m->op = "Clip";
        if (u->num_inputs != 2 || !oa_cp_input_scalar(u, other(slot), &a)) {
            return false;
        }
        m->alpha = u->type == OA_OP_MAXIMUM ? a : -FLT_MAX;
        m->beta = u->type == OA_OP_MAXIMUM ? FLT_MAX : a;
        return true;
    case OA_OP_ADD: {
        m->op = "Add";
        uint32_t oi;
        oa_node *src = oa_node_input_src(u, other(slot), &oi);
        const oa_tensor_desc *t = src ? &src->outputs[oi].desc : NULL;
        const oa_tensor_desc *y = &p->outputs[0].desc;
        /* static only: two -1 dims may differ at run time (broadcast) */
        if (u->num_inputs != 2 || src == NULL || src == p || oa_cp_const_tensor(src) != NULL ||
            t->dtype != OA_DT_FLOAT || !oa_shape_is_static(&t->shape) || !oa_shape_equal(&t->shape, &y->shape) ||
            !oa_shape_equal(&u->outputs[0].desc.shape, &y->shape)) {
            return false;
        }
        m->res_src = src;
        m->res_idx = oi;
        return true;
    }
    default:
        return false;
    }
}

/* The current chain of p. */
typedef struct chain {
    size_t n;
    const char *ops[MAX_POST];
    float alpha[MAX_POST], beta[MAX_POST];
    int64_t base;
} chain;

static void chain_read(const oa_node *p, chain *c)
{
    memset(c, 0, sizeof(*c));
    const char *const *ops;
    const float *al, *be;
    size_t n, na, nb;
    if (oa_attrs_get_list_str(&p->attrs, "_oa_post_ops", &ops, &n) && n <= MAX_POST &&
        oa_attrs_get_list_float(&p->attrs, "_oa_post_alpha", &al, &na) && na == n &&
        oa_attrs_get_list_float(&p->attrs, "_oa_post_beta", &be, &nb) && nb == n) {
        c->n = n;
        for (size_t i = 0; i < n; i++) {
            c->ops[i] = ops[i];
            c->alpha[i] = al[i];
            c->beta[i] = be[i];
        }
    }
    c->base = oa_node_attr_int(p, "_oa_post_input_base", -1);
}

static oa_status chain_write(oa_node *p, const chain *c)
{
    oa_status st = oa_node_set_list_str(p, "_oa_post_ops", c->ops, c->n);
    if (st == OA_OK) {
        st = oa_node_set_list_float(p, "_oa_post_alpha", c->alpha, c->n);
    }
    if (st == OA_OK) {
        st = oa_node_set_list_float(p, "_oa_post_beta", c->beta, c->n);
    }
    if (st == OA_OK && c->base >= 0) {
        st = oa_node_set_int(p, "_oa_post_input_base", c->base);
    }
    return st;
}

/* True when a "Linear" entry joins the chain's last entry (also "Linear"). */
static bool chain_merges(const chain *c, const char *op)
{
    return c->n > 0 && strcmp(op, "Linear") == 0 && strcmp(c->ops[c->n - 1], "Linear") == 0;
}

/* Applies a match to host p: records the post-op, wires a residual operand,
 * moves readers of the pattern's result to p and removes the pattern. */
static oa_status apply(oa_node *p, const match *m)
{
    chain c;
    chain_read(p, &c);
    if (chain_merges(&c, m->op)) {
        /* a2 (a1 y + b1) + b2 = (a2 a1) y + (a2 b1 + b2) */
        float *a1 = &c.alpha[c.n - 1], *b1 = &c.beta[c.n - 1];
        *b1 = m->alpha * *b1 + m->beta;
        *a1 = m->alpha * *a1;
    } else {
        c.ops[c.n] = m->op;
        c.alpha[c.n] = m->alpha;
        c.beta[c.n] = m->beta;
        c.n++;
    }
    oa_status st;
    if (m->res_src != NULL) {
        if (c.base < 0) {
            /* Residual operands follow every declared IR input (optional ones
             * stay as unconnected slots). */
            c.base = (int64_t)oa_op_ir_inputs(p->type, NULL, 0);
            if (p->num_inputs < (uint32_t)c.base) {
                st = oa_node_set_num_inputs(p, (uint32_t)c.base);
                if (st != OA_OK) {
                    return st;
                }
            }
        }
        uint32_t slot = p->num_inputs;
        st = oa_node_set_num_inputs(p, slot + 1);
        if (st == OA_OK) {
            st = oa_node_connect(p, slot, m->res_src, m->res_idx);
        }
        if (st != OA_OK) {
            return st;
        }
    }
    st = chain_write(p, &c);
    if (st != OA_OK) {
        return st;
    }
    const char *names[MAX_PATTERN];
    for (int i = 0; i < m->count; i++) {
        names[i] = m->nodes[i]->name;
    }
    st = oa_cp_add_original_names(p, names, (size_t)m->count);
    if (st != OA_OK) {
        return st;
    }
    st = m->final != NULL ? oa_graph_replace_uses(m->final, 0, p, 0, NULL) : OA_OK;
    for (int i = m->count; i-- > 0 && st == OA_OK;) {
        st = oa_cp_remove_if_unused(m->nodes[i]);
        if (st == OA_OK && !m->nodes[i]->removed) {
            st = OA_FAIL(OA_E_INTERNAL, "fusion into %s left %s with readers", p->name, m->nodes[i]->name);
        }
    }
    return st;
}

/* Tries one more post-op on p; *did when something was fused. */
static oa_status fuse_next(oa_node *p, bool *did)
{
    *did = false;
    chain c;
    chain_read(p, &c);
    const oa_tensor_desc *y = &p->outputs[0].desc;
    /* Unknown dims (-1) are fine: every pattern is elementwise on y with
     * scalar constants, so its result has y's shape whatever the dims turn
     * out to be; only the residual Add needs static shapes (match_single). */
    const bool full = c.n >= MAX_POST;
    if ((full && !chain_merges(&c, "Linear")) || y->dtype != OA_DT_FLOAT || y->shape.rank < 1 || p->num_outputs != 1) {
        return OA_OK;
    }
    oa_use u[3];
    size_t nu = uses_of(p, u, 3);
    match m;
    memset(&m, 0, sizeof(m));
    bool ok = false;
    if (nu == 2 && u[0].node != u[1].node) {
        ok = match_hardswish(p, u, &m);
        if (!ok) {
            memset(&m, 0, sizeof(m));
            ok = match_mul_hardsigmoid(p, u, &m);
        }
        if (!ok) {
            memset(&m, 0, sizeof(m));
            ok = match_gelu(p, u, &m);
        }
        if (!ok) {
            memset(&m, 0, sizeof(m));
            ok = match_silu(p, u, &m);
        }
        if (!ok) {
            memset(&m, 0, sizeof(m));
            ok = match_swish_scaled(p, u, &m);
        }
    } else if (nu == 1) {
        ok = match_single(p, u[0].node, u[0].input, &m);
    }
    if (!ok || (full && !chain_merges(&c, m.op))) {
        return OA_OK;
    }
    /* Every swallowed node must produce only f32 of y's shape, read inside
     * the pattern (single readers were checked while matching). */
    for (int i = 0; i < m.count; i++) {
        const oa_tensor_desc *d = &m.nodes[i]->outputs[0].desc;
        if (m.nodes[i]->num_outputs != 1 || d->dtype != OA_DT_FLOAT || !oa_shape_equal(&d->shape, &y->shape)) {
            return OA_OK;
        }
    }
    oa_status st = apply(p, &m);
    *did = st == OA_OK;
    return st;
}

/*
 * Squeeze-excitation with a residual (PP-OCRv4 det's neck):
 *
 *   x ─┬──────────────────────────┐
 *      ├─▶ Mul(x, s) ─────────────▶ Add ─▶        = Mul(x, s')
 *   s ─┘   (s: [N,C,1,1] from a post-op host, e.g. Conv2D + HardSigmoid)
 *
 * x + x*s = x*(1 + s): the host of s gets one more post-op, Linear(1, 1)
 * (merged into a trailing Linear), and the Add, a full pass over x, goes.
 * s must be read only by the Mul, the Mul only by the Add, all f32.
 */
static oa_status fuse_se_residual(oa_node *add, bool *did)
{
    *did = false;
    if (add->type != OA_OP_ADD || add->num_inputs != 2 || add->outputs[0].desc.dtype != OA_DT_FLOAT) {
        return OA_OK;
    }
    for (uint32_t ms = 0; ms < 2; ms++) {
        uint32_t xi, mi;
        oa_node *mul = oa_node_input_src(add, ms, &mi), *x = oa_node_input_src(add, other(ms), &xi);
        if (mul == NULL || x == NULL || mi != 0 || mul->type != OA_OP_MUL || mul->num_inputs != 2 ||
            only_use(mul) != add || !oa_shape_equal(&mul->outputs[0].desc.shape, &add->outputs[0].desc.shape)) {
            continue;
        }
        for (uint32_t xs = 0; xs < 2; xs++) {
            uint32_t si, xj;
            oa_node *h = oa_node_input_src(mul, other(xs), &si);
            if (oa_node_input_src(mul, xs, &xj) != x || xj != xi || h == NULL || h == x || si != 0 ||
                !oa_cp_is_post_op_host(h) || h->num_outputs != 1 || only_use(h) != mul ||
                h->outputs[0].desc.dtype != OA_DT_FLOAT || x->outputs[xi].desc.dtype != OA_DT_FLOAT ||
                !oa_shape_equal(&x->outputs[xi].desc.shape, &add->outputs[0].desc.shape)) {
                continue;
            }
            chain c;
            chain_read(h, &c);
            if (c.n >= MAX_POST && !chain_merges(&c, "Linear")) {
                continue;
            }
            match m;
            memset(&m, 0, sizeof(m));
            m.op = "Linear";
            m.alpha = 1.0f;
            m.beta = 1.0f;
            oa_status st = apply(h, &m); /* no swallowed nodes: s keeps its readers */
            const char *name = add->name;
            if (st == OA_OK) {
                st = oa_cp_add_original_names(mul, &name, 1);
            }
            if (st == OA_OK) {
                st = oa_graph_replace_uses(add, 0, mul, 0, NULL);
            }
            if (st == OA_OK) {
                st = oa_cp_remove_if_unused(add);
            }
            *did = st == OA_OK;
            return st;
        }
    }
    return OA_OK;
}

static oa_status fuse_graph(oa_graph *g, size_t *changed)
{
    for (oa_node *n = oa_graph_first_node(g); n; n = n->next) {
        if (!oa_cp_is_post_op_host(n)) {
            continue;
        }
        bool did = true;
        while (did) {
            oa_status st = fuse_next(n, &did);
            if (st != OA_OK) {
                return st;
            }
            if (did && changed) {
                (*changed)++;
            }
        }
    }
    for (oa_node *n = oa_graph_first_node(g), *nx; n; n = nx) {
        nx = n->next; /* n may be removed */
        bool did = false;
        oa_status st = fuse_se_residual(n, &did);
        if (st != OA_OK) {
            return st;
        }
        if (did && changed) {
            (*changed)++;
        }
    }
    oa_status st = oa_cp_dce_local(g, NULL);
    return st == OA_OK ? oa_graph_topo_sort(g) : st;
}

oa_status oa_pass_fuse_post_ops(oa_graph *g, size_t *changed)
{
    return oa_cp_for_each_graph(g, fuse_graph, changed);
}

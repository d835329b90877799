/*
 * LayerNorm: the decomposition ONNX exporters write before opset 17 becomes
 * one GE LayerNorm node, and the BroadcastTo the importer puts in front of
 * LayerNorm's gamma/beta (opset 17) is dropped, since LayerNorm takes
 * parameters of the normalised trailing dims.
 *
 *   x ─┬─▶ ReduceMean ─▶ Sub(x, ·) ─┬─▶ Pow(2) ─▶ ReduceMean ─▶ Add(eps) ─▶ Sqrt ─┐
 *      └────────────────────────────┘ └────────────────────────────────────────▶ RealDiv ─▶ Mul(gamma) ─▶ Add(beta)
 *   =>  x ─▶ LayerNorm(gamma, beta){begin_norm_axis, epsilon}
 */
#define OA_LOG_MODULE "GE"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "compiler/pass_util.h"
#include "compiler/passes.h"

/* Trailing reduction axes of a ReduceMean with keep_dims: first axis (as a
 * non-negative index), or -1 when not a trailing contiguous set. */
static int32_t reduce_first_axis(const oa_node *r, int32_t rank)
{
    if (r->type != OA_OP_REDUCE_MEAN && r->type != OA_OP_REDUCE_MEAN_D) {
        return -1;
    }
    if (!oa_node_attr_bool(r, "keep_dims", false) || rank <= 0) {
        return -1;
    }
    int64_t axes[OA_MAX_RANK];
    size_t n = 0;
    const int64_t *lv;
    if (r->type == OA_OP_REDUCE_MEAN_D || r->num_inputs < 2 || r->inputs[1].src == NULL) {
        if (!oa_attrs_get_list_int(&r->attrs, "axes", &lv, &n) || n == 0 || n > OA_MAX_RANK) {
            return -1;
        }
        memcpy(axes, lv, n * sizeof(int64_t));
    } else {
        const oa_tensor *t = oa_cp_input_const(r, 1);
        int64_t cnt;
        if (t == NULL || !oa_shape_numel(&t->desc.shape, &cnt) || cnt < 1 || cnt > OA_MAX_RANK) {
            return -1;
        }
        for (int64_t i = 0; i < cnt; i++) {
            axes[i] = t->desc.dtype == OA_DT_INT32 ? ((const int32_t *)t->data)[i]
                      : t->desc.dtype == OA_DT_INT64 ? ((const int64_t *)t->data)[i]
                                                     : INT64_MIN;
            if (axes[i] == INT64_MIN) {
                return -1;
            }
        }
        n = (size_t)cnt;
    }
    bool seen[OA_MAX_RANK] = {false};
    for (size_t i = 0; i < n; i++) {
        int64_t a = axes[i] < 0 ? axes[i] + rank : axes[i];
        if (a < 0 || a >= rank || seen[a]) {
            return -1;
        }
        seen[a] = true;
    }
    int32_t first = rank - (int32_t)n;
    for (int32_t a = first; a < rank; a++) {
        if (!seen[a]) {
            return -1;
        }
    }
    return first;
}

/* The node reading output 0 of n at slot `slot` of a binary op of `type`
 * whose other operand is a constant scalar ~ want (NULL when not). */
static bool scalar_operand(const oa_node *b, uint32_t other, float want)
{
    float v;
    return oa_cp_input_scalar(b, other, &v) && v > want * (1 - 1e-6f) - 1e-12f && v < want * (1 + 1e-6f) + 1e-12f;
}

static oa_node *single(const oa_node *n)
{
    return oa_cp_single_use(n, 0, NULL);
}

/* The slot of b that reads a (output 0), or -1. */
static int slot_of(const oa_node *b, const oa_node *a)
{
    for (uint32_t s = 0; s < b->num_inputs; s++) {
        if (b->inputs[s].src == a && b->inputs[s].src_index == 0) {
            return (int)s;
        }
    }
    return -1;
}

/* A constant f32 parameter with `h` elements laid out like the trailing dims. */
static bool param_const(const oa_node *b, uint32_t slot, int64_t h)
{
    const float *d;
    int64_t c;
    return oa_cp_const_f32(oa_cp_input_const(b, slot), &d, &c) && c == h;
}

typedef struct ln_match {
    oa_node *x;
    uint32_t x_idx;
    oa_node *nodes[9];
    int count;
    oa_node *final;
    oa_node *gamma_src, *beta_src; /* Const nodes or NULL */
    float eps;
    int32_t axis;
} ln_match;

static bool match_layernorm(oa_node *m1, ln_match *m)
{
    memset(m, 0, sizeof(*m));
    uint32_t xi;
    oa_node *x = oa_node_input_src(m1, 0, &xi);
    if (x == NULL || x->outputs[xi].desc.dtype != OA_DT_FLOAT) {
        return false;
    }
    const oa_shape *xs = &x->outputs[xi].desc.shape;
    int32_t axis = reduce_first_axis(m1, xs->rank);
    if (axis < 0) {
        return false;
    }
    int64_t h = 1;
    for (int32_t a = axis; a < xs->rank; a++) {
        if (xs->dims[a] < 0) {
            return false;
        }
        h *= xs->dims[a];
    }
    oa_node *sub = single(m1);
    if (sub == NULL || sub->type != OA_OP_SUB || sub->num_inputs != 2 || oa_node_input_src(sub, 0, NULL) != x ||
        sub->inputs[0].src_index != xi || slot_of(sub, m1) != 1) {
        return false;
    }
    oa_use u[3];
    if (oa_node_output_uses(sub, 0, u, 3) != 2) {
        return false;
    }
    oa_node *pow = NULL, *div = NULL;
    for (int i = 0; i < 2; i++) {
        if (u[i].node->type == OA_OP_POW && u[i].input == 0 && scalar_operand(u[i].node, 1, 2.0f)) {
            pow = u[i].node;
        } else if (u[i].node->type == OA_OP_MUL && slot_of(u[i].node, sub) >= 0 &&
                   oa_node_input_src(u[i].node, 0, NULL) == sub && oa_node_input_src(u[i].node, 1, NULL) == sub) {
            pow = u[i].node; /* d * d */
        } else if (u[i].node->type == OA_OP_REAL_DIV && u[i].input == 0) {
            div = u[i].node;
        }
    }
    if (pow == NULL || div == NULL) {
        return false;
    }
    oa_node *m2 = single(pow);
    if (m2 == NULL || reduce_first_axis(m2, xs->rank) != axis) {
        return false;
    }
    oa_node *add = single(m2);
    int as = add ? slot_of(add, m2) : -1;
    float eps;
    if (add == NULL || add->type != OA_OP_ADD || as < 0 || !oa_cp_input_scalar(add, 1 - (uint32_t)as, &eps)) {
        return false;
    }
    oa_node *sq = single(add);
    if (sq == NULL || sq->type != OA_OP_SQRT || single(sq) != div || slot_of(div, sq) != 1) {
        return false;
    }
    m->x = x;
    m->x_idx = xi;
    m->eps = eps;
    m->axis = axis;
    oa_node *seq[7] = {m1, sub, pow, m2, add, sq, div};
    for (int i = 0; i < 7; i++) {
        m->nodes[m->count++] = seq[i];
    }
    m->final = div;
    /* Optional affine: Mul(gamma) then Add(beta), constants over the trailing dims. */
    oa_node *mul = single(div);
    int ms = mul ? slot_of(mul, div) : -1;
    if (mul && mul->type == OA_OP_MUL && ms >= 0 && param_const(mul, 1 - (uint32_t)ms, h)) {
        m->gamma_src = oa_node_input_src(mul, 1 - (uint32_t)ms, NULL);
        m->nodes[m->count++] = mul;
        m->final = mul;
        oa_node *badd = single(mul);
        int bs = badd ? slot_of(badd, mul) : -1;
        if (badd && badd->type == OA_OP_ADD && bs >= 0 && param_const(badd, 1 - (uint32_t)bs, h)) {
            m->beta_src = oa_node_input_src(badd, 1 - (uint32_t)bs, NULL);
            m->nodes[m->count++] = badd;
            m->final = badd;
        }
    }
    for (int i = 0; i < m->count; i++) {
        const oa_tensor_desc *d = &m->nodes[i]->outputs[0].desc;
        if (m->nodes[i]->num_outputs != 1 || d->dtype != OA_DT_FLOAT) {
            return false;
        }
    }
    return true;
}

/* Ones (gamma) or zeros (beta) over the trailing dims. */
static oa_status fill_const(oa_graph *g, const char *base, const oa_shape *xs, int32_t axis, float v, oa_node **out)
{
    int64_t dims[OA_MAX_RANK];
    int32_t r = 0;
    int64_t h = 1;
    for (int32_t a = axis; a < xs->rank; a++) {
        dims[r++] = xs->dims[a];
        h *= xs->dims[a];
    }
    float *d = malloc((size_t)h * sizeof(float));
    if (d == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory");
    }
    for (int64_t i = 0; i < h; i++) {
        d[i] = v;
    }
    oa_shape s = oa_shape_make(r, dims);
    oa_status st = oa_cp_add_const(g, base, OA_DT_FLOAT, &s, d, (size_t)h * sizeof(float), out);
    free(d);
    return st;
}

static oa_status apply_layernorm(oa_graph *g, const ln_match *m)
{
    const oa_shape *xs = &m->x->outputs[m->x_idx].desc.shape;
    char base[512];
    oa_node *gamma = m->gamma_src, *beta = m->beta_src;
    oa_status st = OA_OK;
    if (gamma == NULL) {
        snprintf(base, sizeof(base), "%s_gamma", m->final->name);
        st = fill_const(g, base, xs, m->axis, 1.0f, &gamma);
    }
    if (st == OA_OK && beta == NULL) {
        snprintf(base, sizeof(base), "%s_beta", m->final->name);
        st = fill_const(g, base, xs, m->axis, 0.0f, &beta);
    }
    snprintf(base, sizeof(base), "%s_layernorm", m->final->name);
    const char *tmp = st == OA_OK ? oa_graph_unique_name(g, base) : NULL;
    oa_node *ln = NULL;
    if (st == OA_OK) {
        st = tmp ? oa_graph_add_node(g, OA_OP_LAYER_NORM, tmp, 3, 3, &ln) : OA_E_NOMEM;
    }
    if (st == OA_OK) {
        st = oa_node_connect(ln, 0, m->x, m->x_idx);
    }
    if (st == OA_OK) {
        st = oa_node_connect(ln, 1, gamma, 0);
    }
    if (st == OA_OK) {
        st = oa_node_connect(ln, 2, beta, 0);
    }
    if (st == OA_OK) {
        st = oa_node_set_int(ln, "begin_norm_axis", m->axis - xs->rank);
    }
    if (st == OA_OK) {
        st = oa_node_set_int(ln, "begin_params_axis", m->axis - xs->rank);
    }
    if (st == OA_OK) {
        st = oa_node_set_float(ln, "epsilon", m->eps);
    }
    if (st == OA_OK) {
        oa_desc_set(&ln->outputs[0].desc, OA_DT_FLOAT, &m->final->outputs[0].desc.shape);
        ln->outputs[0].desc.format = m->final->outputs[0].desc.format;
        const char *names[9];
        for (int i = 0; i < m->count; i++) {
            names[i] = m->nodes[i]->name;
        }
        st = oa_node_set_list_str(ln, "_datadump_original_op_names", names, (size_t)m->count);
    }
    if (st == OA_OK) {
        st = oa_graph_replace_uses(m->final, 0, ln, 0, NULL);
    }
    const char *final_name = m->final->name;
    for (int i = m->count; i-- > 0 && st == OA_OK;) {
        st = oa_cp_remove_if_unused(m->nodes[i]);
    }
    /* The normalisation keeps the name of the op whose result it replaces. */
    if (st == OA_OK && m->final->removed) {
        st = oa_node_rename(ln, final_name);
    }
    return st;
}

/* LayerNorm(x, BroadcastTo(c, shape), ...) -> LayerNorm(x, c) when c already
 * covers the normalised trailing dims. */
static oa_status drop_param_broadcast(oa_node *ln, size_t *changed)
{
    const oa_shape *xs = &ln->inputs[0].desc.shape;
    if (xs->rank <= 0) {
        return OA_OK;
    }
    int64_t bna = oa_node_attr_int(ln, "begin_norm_axis", 0);
    int32_t axis = (int32_t)(bna < 0 ? bna + xs->rank : bna);
    if (axis < 0 || axis >= xs->rank) {
        return OA_OK;
    }
    for (uint32_t s = 1; s < 3 && s < ln->num_inputs; s++) {
        oa_node *b = oa_node_input_src(ln, s, NULL);
        if (b == NULL || (b->type != OA_OP_BROADCAST_TO && b->type != OA_OP_EXPAND)) {
            continue;
        }
        uint32_t ci;
        oa_node *c = oa_node_input_src(b, 0, &ci);
        /* through the importer's Identity */
        while (c != NULL && c->type == OA_OP_IDENTITY) {
            c = oa_node_input_src(c, 0, &ci);
        }
        const oa_tensor *t = oa_cp_const_tensor(c);
        if (t == NULL || t->desc.shape.rank != xs->rank - axis) {
            continue;
        }
        bool same = true;
        for (int32_t k = 0; k < t->desc.shape.rank; k++) {
            same = same && t->desc.shape.dims[k] == xs->dims[axis + k];
        }
        if (!same) {
            continue;
        }
        oa_status st = oa_node_connect(ln, s, c, ci);
        if (st != OA_OK) {
            return st;
        }
        if (changed) {
            (*changed)++;
        }
    }
    return OA_OK;
}

static oa_status norm_graph(oa_graph *g, size_t *changed)
{
    oa_node *next;
    for (oa_node *n = oa_graph_first_node(g); n; n = next) {
        next = n->next;
        if (n->type != OA_OP_REDUCE_MEAN && n->type != OA_OP_REDUCE_MEAN_D) {
            continue;
        }
        ln_match m;
        if (!match_layernorm(n, &m)) {
            continue;
        }
        /* The pattern may contain `next`: restart from the top afterwards. */
        oa_status st = apply_layernorm(g, &m);
        if (st != OA_OK) {
            return st;
        }
        if (changed) {
            (*changed)++;
        }
        next = oa_graph_first_node(g);
    }
    for (oa_node *n = oa_graph_first_node(g); n; n = n->next) {
        if (n->type == OA_OP_LAYER_NORM) {
            oa_status st = drop_param_broadcast(n, changed);
            if (st != OA_OK) {
                return st;
            }
        }
    }
    oa_status st = oa_cp_dce_local(g, NULL);
    return st == OA_OK ? oa_graph_topo_sort(g) : st;
}

oa_status oa_pass_fuse_layernorm(oa_graph *g, size_t *changed)
{
    return oa_cp_for_each_graph(g, norm_graph, changed);
}

/*
 * ai.onnx.preview.training Gradient (src/onnx/README.md, "Training-domain
 * ops"): the gradient of tensor `y` with respect to the tensors `xs`, by
 * reverse-mode differentiation of the graph's own nodes between them, as
 * extra nodes of the graph. The seed dy/dy is ones shaped like y. Supported
 * node types: Add, Sub, Mul, Div, Neg, Identity, Exp, Log, Sqrt, Tanh,
 * Sigmoid, Relu, all without broadcasting (every operand has its result's
 * shape, from the declared shapes carried through those nodes); anything
 * else on the path is refused with E16002. `zs` is not supported.
 */
#include <string.h>

#include "onnx/onnx_internal.h"

#define GRAD_FAIL(c, fmt, ...)                                                                                   \
    OA_FAIL(OA_E_FEATURE_UNSUPPORTED,                                                                            \
            "E16002: ONNX node %s (Gradient): " fmt "; the supported op types are listed in docs/onnx_ops.md", \
            (c)->name, ##__VA_ARGS__)

static const char *const GRAD_OPS[] = {"Add", "Sub", "Mul", "Div", "Neg", "Identity",
                                       "Exp", "Log", "Sqrt", "Tanh", "Sigmoid", "Relu"};

typedef struct gentry {
    const char *name;
    onnx_tv grad;      /* accumulated gradient, n == NULL: none yet */
    int64_t rank;      /* declared / carried shape, -1 unknown */
    int64_t dims[OA_MAX_RANK];
} gentry;

typedef struct gstate {
    onnx_xb b;
    gentry *e;
    size_t n, cap;
} gstate;

static gentry *lookup(gstate *g, const char *name, bool add)
{
    for (size_t i = 0; i < g->n; i++) {
        if (strcmp(g->e[i].name, name) == 0) {
            return &g->e[i];
        }
    }
    if (!add) {
        return NULL;
    }
    if (g->n == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 16;
        gentry *ne = oa_arena_alloc(oa_graph_arena(g->b.c->sc->g), cap * sizeof(*ne), 0);
        if (ne == NULL) {
            return NULL;
        }
        if (g->n) {
            memcpy(ne, g->e, g->n * sizeof(*ne));
        }
        g->e = ne;
        g->cap = cap;
    }
    gentry *e = &g->e[g->n++];
    memset(e, 0, sizeof(*e));
    e->name = name;
    e->rank = oa_onnx_declared_dims(g->b.c, name, e->dims);
    return e;
}

static bool same_shape(const gentry *a, const gentry *b)
{
    if (a->rank < 0 || a->rank != b->rank) {
        return false;
    }
    for (int64_t d = 0; d < a->rank; d++) {
        if (a->dims[d] < 0 || a->dims[d] != b->dims[d]) {
            return false;
        }
    }
    return true;
}

static onnx_tv value_of(gstate *g, const char *name)
{
    const onnx_value *v = oa_strmap_get(&g->b.c->sc->values, name);
    onnx_tv r = {v ? v->node : NULL, v ? v->index : 0};
    if (v == NULL && g->b.st == OA_OK) {
        g->b.st = ONNX_FAIL(g->b.c, OA_E_PARSE_MODEL, "tensor [%s] is not computed before the Gradient", name);
    }
    return r;
}

static void accumulate(gstate *g, gentry *e, onnx_tv d)
{
    e->grad = e->grad.n == NULL ? d : oa_xb_bin(&g->b, OA_OP_ADD, "grad_sum", e->grad, d);
}

/* Chain rule through one node whose output 0 has gradient gy. */
static void backward(gstate *g, const Onnx__NodeProto *np, onnx_tv gy)
{
    onnx_xb *b = &g->b;
    const char *t = np->op_type;
    onnx_tv a = value_of(g, np->input[0]);
    onnx_tv y = value_of(g, np->output[0]);
    gentry *ea = lookup(g, np->input[0], true), *eb = NULL;
    onnx_tv bv = {NULL, 0};
    if (np->n_input > 1) {
        bv = value_of(g, np->input[1]);
        eb = lookup(g, np->input[1], true);
    }
    if (ea == NULL || (np->n_input > 1 && eb == NULL)) {
        b->st = OA_E_NOMEM;
        return;
    }
    if (strcmp(t, "Add") == 0) {
        accumulate(g, ea, gy);
        accumulate(g, eb, gy);
    } else if (strcmp(t, "Sub") == 0) {
        accumulate(g, ea, gy);
        accumulate(g, eb, oa_xb_un(b, OA_OP_NEG, "d_sub", gy));
    } else if (strcmp(t, "Mul") == 0) {
        accumulate(g, ea, oa_xb_bin(b, OA_OP_MUL, "d_mul_a", gy, bv));
        accumulate(g, eb, oa_xb_bin(b, OA_OP_MUL, "d_mul_b", gy, a));
    } else if (strcmp(t, "Div") == 0) {
        /* d/da = 1/b, d/db = -a/b^2 = -y/b */
        accumulate(g, ea, oa_xb_bin(b, OA_OP_REAL_DIV, "d_div_a", gy, bv));
        accumulate(g, eb, oa_xb_un(b, OA_OP_NEG, "d_div_b",
                                   oa_xb_bin(b, OA_OP_REAL_DIV, "d_div_yb", oa_xb_bin(b, OA_OP_MUL, "gy_y", gy, y), bv)));
    } else if (strcmp(t, "Neg") == 0) {
        accumulate(g, ea, oa_xb_un(b, OA_OP_NEG, "d_neg", gy));
    } else if (strcmp(t, "Identity") == 0) {
        accumulate(g, ea, gy);
    } else if (strcmp(t, "Exp") == 0) {
        accumulate(g, ea, oa_xb_bin(b, OA_OP_MUL, "d_exp", gy, y));
    } else if (strcmp(t, "Log") == 0) {
        accumulate(g, ea, oa_xb_bin(b, OA_OP_REAL_DIV, "d_log", gy, a));
    } else if (strcmp(t, "Sqrt") == 0) {
        accumulate(g, ea, oa_xb_bin(b, OA_OP_REAL_DIV, "d_sqrt", gy,
                                    oa_xb_bin(b, OA_OP_MUL, "two_y", y, oa_xb_f32(b, "two", 2.0f))));
    } else if (strcmp(t, "Tanh") == 0) {
        onnx_tv one_m = oa_xb_bin(b, OA_OP_SUB, "one_minus_y2", oa_xb_f32(b, "one", 1.0f),
                                  oa_xb_bin(b, OA_OP_MUL, "y2", y, y));
        accumulate(g, ea, oa_xb_bin(b, OA_OP_MUL, "d_tanh", gy, one_m));
    } else if (strcmp(t, "Sigmoid") == 0) {
        onnx_tv dy = oa_xb_bin(b, OA_OP_MUL, "y_1my", y,
                               oa_xb_bin(b, OA_OP_SUB, "one_minus_y", oa_xb_f32(b, "one", 1.0f), y));
        accumulate(g, ea, oa_xb_bin(b, OA_OP_MUL, "d_sigmoid", gy, dy));
    } else if (strcmp(t, "Relu") == 0) {
        const onnx_tv sel[3] = {oa_xb_bin(b, OA_OP_GREATER, "positive", a, oa_xb_f32(b, "zero", 0.0f)), gy,
                                oa_xb_f32(b, "zero_g", 0.0f)};
        accumulate(g, ea, oa_xb_op(b, OA_OP_SELECT_V2, "d_relu", sel, 3));
    }
}

static bool grad_op(const char *t)
{
    for (size_t i = 0; i < sizeof(GRAD_OPS) / sizeof(GRAD_OPS[0]); i++) {
        if (strcmp(GRAD_OPS[i], t) == 0) {
            return true;
        }
    }
    return false;
}

oa_status oa_onnx_op_gradient(onnx_node_ctx *c)
{
    const Onnx__AttributeProto *axs = oa_onnx_attr(c, "xs"), *ay = oa_onnx_attr(c, "y");
    if (axs == NULL || ay == NULL || ay->s.data == NULL || axs->n_strings == 0) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "needs the attributes xs and y");
    }
    if (oa_onnx_attr(c, "zs") != NULL) {
        return GRAD_FAIL(c, "the zs attribute is not supported");
    }
    if (axs->n_strings != c->np->n_output) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "xs lists %zu tensors for %zu outputs", axs->n_strings,
                         c->np->n_output);
    }
    oa_arena *ar = oa_graph_arena(c->sc->g);
    char *yname = oa_arena_alloc(ar, ay->s.len + 1, 0);
    if (yname == NULL) {
        return OA_E_NOMEM;
    }
    memcpy(yname, ay->s.data, ay->s.len);
    yname[ay->s.len] = '\0';
    gstate g = {{c, OA_OK}, NULL, 0, 0};
    gentry *ey = lookup(&g, yname, true);
    if (ey == NULL) {
        return OA_E_NOMEM;
    }
    const Onnx__GraphProto *gp = c->sc->gp;
    /* carry shapes forward through the supported elementwise nodes (graph order is topological) */
    for (size_t i = 0; i < gp->n_node; i++) {
        const Onnx__NodeProto *np = gp->node[i];
        if (np->n_output != 1 || !grad_op(np->op_type) || np->n_input < 1) {
            continue;
        }
        gentry *eo = lookup(&g, np->output[0], true), *e0 = lookup(&g, np->input[0], true);
        if (eo == NULL || e0 == NULL) {
            return OA_E_NOMEM;
        }
        if (eo->rank < 0 && e0->rank >= 0) {
            eo->rank = e0->rank;
            memcpy(eo->dims, e0->dims, sizeof(eo->dims));
        }
    }
    ey = lookup(&g, yname, false);
    /* seed: ones shaped like y */
    onnx_tv yv = value_of(&g, yname);
    ey->grad = oa_xb_bin(&g.b, OA_OP_ADD, "seed", oa_xb_bin(&g.b, OA_OP_MUL, "y_zero", yv, oa_xb_f32(&g.b, "zero", 0)),
                         oa_xb_f32(&g.b, "one", 1.0f));
    /* reverse graph order from y's producer */
    size_t start = gp->n_node;
    for (size_t i = 0; i < gp->n_node; i++) {
        for (size_t k = 0; k < gp->node[i]->n_output; k++) {
            if (strcmp(gp->node[i]->output[k], yname) == 0) {
                start = i;
            }
        }
    }
    if (start == gp->n_node) {
        return GRAD_FAIL(c, "y [%s] is not computed by a node of this graph", yname);
    }
    for (size_t i = start + 1; i-- > 0 && g.b.st == OA_OK;) {
        const Onnx__NodeProto *np = gp->node[i];
        if (np == c->np || np->n_output == 0) {
            continue;
        }
        gentry *eo = lookup(&g, np->output[0], false);
        if (eo == NULL || eo->grad.n == NULL) {
            continue; /* not on a path to y */
        }
        if (!grad_op(np->op_type) || np->n_output != 1) {
            return GRAD_FAIL(c, "differentiating %s (node %s) is not supported", np->op_type,
                             np->name && np->name[0] ? np->name : np->output[0]);
        }
        for (size_t k = 0; k < np->n_input; k++) {
            gentry *ei = lookup(&g, np->input[k], true);
            if (ei == NULL) {
                return OA_E_NOMEM;
            }
            if (!same_shape(ei, eo)) {
                return GRAD_FAIL(c, "node %s (%s): operand [%s] needs its declared shape equal to the result's "
                                    "(gradients through broadcasting are not supported)",
                                 np->name && np->name[0] ? np->name : np->output[0], np->op_type, np->input[k]);
            }
        }
        backward(&g, np, eo->grad);
    }
    for (size_t j = 0; j < axs->n_strings && g.b.st == OA_OK; j++) {
        char *xn = oa_arena_alloc(ar, axs->strings[j].len + 1, 0);
        if (xn == NULL) {
            return OA_E_NOMEM;
        }
        memcpy(xn, axs->strings[j].data, axs->strings[j].len);
        xn[axs->strings[j].len] = '\0';
        gentry *ex = lookup(&g, xn, false);
        onnx_tv d;
        if (ex != NULL && ex->grad.n != NULL) {
            /* an Identity so that the output has its own node */
            d = oa_xb_un(&g.b, OA_OP_IDENTITY, "grad", ex->grad);
        } else {
            d = oa_xb_bin(&g.b, OA_OP_MUL, "grad_zero", value_of(&g, xn), oa_xb_f32(&g.b, "zero_x", 0.0f));
        }
        oa_xb_out(&g.b, (uint32_t)j, d);
    }
    return g.b.st;
}

/*
 * Scan unrolled at conversion (src/onnx/README.md, "Scan"): when the scan
 * length is declared, the body is converted once per iteration, each scan
 * input sliced with a Gather at the iteration's index (reversed for
 * direction 1), the states chained from one body to the next, and every scan
 * output stacked (Unsqueeze + ConcatD) along its axis. Opset 8's batch axis
 * (scan inputs [B, T, ...], states [B, ...]) is unrolled the same way per
 * batch entry. sequence_lens (opset 8) is not supported.
 */
#include <stdlib.h>
#include <string.h>

#include "onnx/onnx_internal.h"

#define SCAN_MAX_STEPS 4096
#define SCAN_MAX_VARS 64

static onnx_tv ci64(onnx_xb *b, const char *role, int64_t v)
{
    const oa_shape s0 = oa_shape_scalar();
    return oa_xb_const(b, role, OA_DT_INT64, &s0, &v, sizeof v);
}

/* x[..., i, ...] along axis (the axis removed) */
static onnx_tv take(onnx_xb *b, onnx_tv x, int64_t i, int64_t axis)
{
    const onnx_tv in[3] = {x, ci64(b, "index", i), ci64(b, "axis", axis)};
    return oa_xb_op(b, OA_OP_GATHER_V2, "slice", in, 3);
}

/* stack n values along a new axis */
static onnx_tv stack(onnx_xb *b, const onnx_tv *v, size_t n, int64_t axis)
{
    onnx_tv *u = malloc(n * sizeof(*u));
    onnx_tv y = {NULL, 0};
    if (u == NULL) {
        b->st = OA_E_NOMEM;
        return y;
    }
    for (size_t k = 0; k < n; k++) {
        u[k] = oa_xb_un(b, OA_OP_UNSQUEEZE, "stack_item", v[k]);
        oa_xb_ints(b, u[k], "axes", &axis, 1);
    }
    if (n == 1) {
        y = oa_xb_un(b, OA_OP_IDENTITY, "stacked", u[0]);
    } else {
        y = oa_xb_op(b, OA_OP_CONCAT_D, "stacked", u, (uint32_t)n);
        oa_xb_int(b, y, "concat_dim", axis);
        oa_xb_int(b, y, "N", (int64_t)n);
    }
    free(u);
    return y;
}

static onnx_value val(onnx_tv t)
{
    onnx_value v = {t.n, t.i};
    return v;
}

static onnx_tv tv(onnx_value v)
{
    onnx_tv t = {v.node, v.index};
    return t;
}

/* One unrolled scan: states st[0..ns), scan inputs xs[0..m) already without any batch axis. */
static void unroll(onnx_xb *b, const Onnx__GraphProto *body, onnx_tv *st, size_t ns, const onnx_tv *xs, size_t m,
                   int64_t steps, const int64_t *in_axes, const int64_t *in_dirs, const int64_t *out_axes,
                   const int64_t *out_dirs, size_t k_out, onnx_tv *scan_out, const char *tag)
{
    onnx_value in[SCAN_MAX_VARS], out[SCAN_MAX_VARS];
    onnx_tv *per = calloc((size_t)steps * (k_out ? k_out : 1), sizeof(*per));
    onnx_tv *order = calloc((size_t)steps, sizeof(*order));
    if (per == NULL || order == NULL) {
        free(per);
        free(order);
        b->st = OA_E_NOMEM;
        return;
    }
    for (int64_t t = 0; t < steps && b->st == OA_OK; t++) {
        for (size_t i = 0; i < ns; i++) {
            in[i] = val(st[i]);
        }
        for (size_t j = 0; j < m; j++) {
            const int64_t idx = in_dirs[j] ? steps - 1 - t : t;
            in[ns + j] = val(take(b, xs[j], idx, in_axes[j]));
        }
        if (b->st != OA_OK) {
            break;
        }
        char *itag = oa_arena_printf(oa_graph_arena(b->c->sc->g), "%s_%s_iter%lld", b->c->name, tag, (long long)t);
        b->st = itag ? oa_onnx_inline_body(b->c, body, in, ns + m, out, itag) : OA_E_NOMEM;
        for (size_t i = 0; i < ns && b->st == OA_OK; i++) {
            st[i] = tv(out[i]);
        }
        for (size_t k = 0; k < k_out && b->st == OA_OK; k++) {
            per[(size_t)t * k_out + k] = tv(out[ns + k]);
        }
    }
    for (size_t k = 0; k < k_out && b->st == OA_OK; k++) {
        for (int64_t t = 0; t < steps; t++) {
            order[t] = per[(size_t)(out_dirs[k] ? steps - 1 - t : t) * k_out + k];
        }
        scan_out[k] = stack(b, order, (size_t)steps, out_axes[k]);
    }
    free(per);
    free(order);
}

/* Integer list attribute of n entries (default 0), negative axes made positive against rank r (r < 0: as is). */
static oa_status list_attr(onnx_node_ctx *c, const char *name, size_t n, int64_t *out)
{
    const int64_t *v;
    size_t nv;
    oa_status st = oa_onnx_attr_ints(c, name, &v, &nv);
    if (st != OA_OK) {
        return st;
    }
    if (v != NULL && nv != n) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "%s has %zu entries, %zu expected", name, nv, n);
    }
    for (size_t i = 0; i < n; i++) {
        out[i] = v ? v[i] : 0;
    }
    return OA_OK;
}

oa_status oa_onnx_op_scan(onnx_node_ctx *c)
{
    const Onnx__AttributeProto *ab = oa_onnx_attr(c, "body");
    int64_t m;
    oa_status st = oa_onnx_attr_required(c, "num_scan_inputs");
    if (st == OA_OK) {
        st = oa_onnx_attr_int(c, "num_scan_inputs", 0, &m);
    }
    if (st != OA_OK) {
        return st;
    }
    if (ab == NULL || ab->g == NULL) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "needs the body graph");
    }
    const Onnx__GraphProto *body = ab->g;
    const bool v8 = c->opset < 9;
    const size_t first = v8 ? 1 : 0; /* opset 8: input 0 is sequence_lens */
    if (v8 && oa_onnx_has_input(c, 0)) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "E16002: ONNX node %s (Scan): sequence_lens is not supported; the "
                                                 "supported op types are listed in docs/onnx_ops.md", c->name);
    }
    const size_t ni = c->np->n_input - first;
    if (m < 1 || (size_t)m > ni || ni > SCAN_MAX_VARS || body->n_output > SCAN_MAX_VARS) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "num_scan_inputs %lld for %zu inputs", (long long)m, ni);
    }
    const size_t ns = ni - (size_t)m, k_out = c->np->n_output - ns;
    if (c->np->n_output < ns || body->n_output != c->np->n_output) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "the body returns %zu values for %zu outputs and %zu states",
                         body->n_output, c->np->n_output, ns);
    }
    int64_t in_axes[SCAN_MAX_VARS], in_dirs[SCAN_MAX_VARS], out_axes[SCAN_MAX_VARS], out_dirs[SCAN_MAX_VARS];
    if (v8) {
        if ((st = list_attr(c, "directions", (size_t)m, in_dirs)) != OA_OK) {
            return st;
        }
        for (size_t k = 0; k < SCAN_MAX_VARS; k++) {
            in_axes[k] = out_axes[k] = out_dirs[k] = 0;
        }
    } else if ((st = list_attr(c, "scan_input_axes", (size_t)m, in_axes)) != OA_OK ||
               (st = list_attr(c, "scan_input_directions", (size_t)m, in_dirs)) != OA_OK ||
               (st = list_attr(c, "scan_output_axes", k_out, out_axes)) != OA_OK ||
               (st = list_attr(c, "scan_output_directions", k_out, out_dirs)) != OA_OK) {
        return st;
    }
    /* the scan length (and the batch for opset 8) from the first scan input's declared shape */
    int64_t dims[OA_MAX_RANK];
    const int64_t r = oa_onnx_declared_dims(c, oa_onnx_input_name(c, (uint32_t)(first + ns)), dims);
    int64_t ax0 = in_axes[0] < 0 && r >= 0 ? in_axes[0] + r : in_axes[0];
    const int64_t tdim = v8 ? 1 : ax0;
    const int64_t steps = r > tdim && tdim >= 0 ? dims[tdim] : -1, batch = v8 && r >= 1 ? dims[0] : 1;
    if (steps < 1 || steps > SCAN_MAX_STEPS || batch < 1 || batch * steps > SCAN_MAX_STEPS) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "E16002: ONNX node %s (Scan): the scan length must be declared "
                                                 "(1 to %d steps) to unroll the body; the supported op types are "
                                                 "listed in docs/onnx_ops.md", c->name, SCAN_MAX_STEPS);
    }
    for (size_t j = 0; j < (size_t)m; j++) {
        int64_t dj[OA_MAX_RANK];
        const int64_t rj = oa_onnx_declared_dims(c, oa_onnx_input_name(c, (uint32_t)(first + ns + j)), dj);
        if (in_axes[j] < 0) {
            if (rj < 0) {
                return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "scan input %zu needs its declared rank", j);
            }
            in_axes[j] += rj;
        }
    }
    for (size_t k = 0; k < k_out; k++) {
        if (out_axes[k] < 0) {
            return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "negative scan_output_axes are not supported");
        }
    }
    onnx_xb b = {c, OA_OK};
    onnx_tv states[SCAN_MAX_VARS] = {{NULL, 0}}, xs[SCAN_MAX_VARS] = {{NULL, 0}}, outs[SCAN_MAX_VARS] = {{NULL, 0}};
    if (!v8) {
        for (size_t i = 0; i < ns; i++) {
            states[i] = oa_xb_in(&b, (uint32_t)i);
        }
        for (size_t j = 0; j < (size_t)m; j++) {
            xs[j] = oa_xb_in(&b, (uint32_t)(ns + j));
        }
        unroll(&b, body, states, ns, xs, (size_t)m, steps, in_axes, in_dirs, out_axes, out_dirs, k_out, outs, "scan");
        for (size_t i = 0; i < ns; i++) {
            oa_xb_out(&b, (uint32_t)i, states[i]);
        }
        for (size_t k = 0; k < k_out; k++) {
            oa_xb_out(&b, (uint32_t)(ns + k), outs[k]);
        }
        return b.st;
    }
    /* opset 8: per batch entry, then stacked on axis 0 */
    onnx_tv *fin = calloc((size_t)batch * (ns + k_out + 1), sizeof(*fin));
    onnx_tv *col = calloc((size_t)batch, sizeof(*col));
    if (fin == NULL || col == NULL) {
        free(fin);
        free(col);
        return OA_E_NOMEM;
    }
    for (int64_t e = 0; e < batch && b.st == OA_OK; e++) {
        for (size_t i = 0; i < ns; i++) {
            states[i] = take(&b, oa_xb_in(&b, (uint32_t)(first + i)), e, 0);
        }
        for (size_t j = 0; j < (size_t)m; j++) {
            xs[j] = take(&b, oa_xb_in(&b, (uint32_t)(first + ns + j)), e, 0);
        }
        char tag[32];
        snprintf(tag, sizeof tag, "batch%lld", (long long)e);
        unroll(&b, body, states, ns, xs, (size_t)m, steps, in_axes, in_dirs, out_axes, out_dirs, k_out, outs, tag);
        for (size_t i = 0; i < ns; i++) {
            fin[(size_t)e * (ns + k_out) + i] = states[i];
        }
        for (size_t k = 0; k < k_out; k++) {
            fin[(size_t)e * (ns + k_out) + ns + k] = outs[k];
        }
    }
    for (size_t v = 0; v < ns + k_out && b.st == OA_OK; v++) {
        for (int64_t e = 0; e < batch; e++) {
            col[e] = fin[(size_t)e * (ns + k_out) + v];
        }
        oa_xb_out(&b, (uint32_t)v, stack(&b, col, (size_t)batch, 0));
    }
    free(fin);
    free(col);
    return b.st;
}

/* ------------------------------------------------------------------- Loop */

/*
 * Loop -> While (src/onnx/README.md, "Loop"). Loop variables, in order:
 * the iteration count (int64, from 0), the trip count M (INT64_MAX when
 * absent), the condition (true when absent), the N carried values, one
 * accumulator per scan output (starting empty, [0, element dims...]) and the
 * outer tensors the body reads (passed through). The cond graph computes
 * iter < M and cond; the body graph is the ONNX body (inlined) followed by
 * iter + 1 and each accumulator extended with its scan value on axis 0.
 */
#define LOOP_MAX_VARS 64

typedef struct loop_graph {
    onnx_scope sc;
    onnx_node_ctx ctx; /* emits into sc.g */
    oa_node *data[LOOP_MAX_VARS];
} loop_graph;

static oa_status loop_graph_init(onnx_node_ctx *c, oa_node *w, const char *ir, loop_graph *lg, uint32_t nvars,
                                 const char *const *free_names, size_t nfree, size_t free_base)
{
    memset(lg, 0, sizeof(*lg));
    char *nm = oa_arena_printf(oa_graph_arena(c->sc->g), "%s_%s", c->name, ir);
    oa_graph *sg;
    oa_status st = nm ? oa_graph_create_subgraph(w, ir, nm, &sg) : OA_E_NOMEM;
    if (st != OA_OK) {
        return st;
    }
    lg->sc.g = sg;
    oa_strmap_init(&lg->sc.values);
    lg->sc.prefix = oa_arena_printf(oa_graph_arena(sg), "%s/", nm);
    lg->sc.gp = c->sc->gp;
    lg->ctx = *c;
    lg->ctx.sc = &lg->sc;
    lg->ctx.num_created = 0;
    for (uint32_t k = 0; k < nvars && st == OA_OK; k++) {
        oa_shape unk = oa_shape_unknown_rank();
        char *dn = oa_arena_printf(oa_graph_arena(sg), "%s/var%u", nm, k);
        st = dn ? oa_graph_add_data(sg, dn, (int64_t)k, OA_DT_FLOAT, &unk, OA_FORMAT_ND, &lg->data[k]) : OA_E_NOMEM;
        if (st == OA_OK) {
            st = oa_node_set_int(lg->data[k], "_parent_node_index", (int64_t)k);
        }
    }
    for (size_t f = 0; f < nfree && st == OA_OK; f++) {
        onnx_value *v = oa_arena_alloc(oa_graph_arena(sg), sizeof(*v), 0);
        if (v == NULL) {
            return OA_E_NOMEM;
        }
        v->node = lg->data[free_base + f];
        v->index = 0;
        st = oa_strmap_put(&lg->sc.values, free_names[f], v);
    }
    return st;
}

static oa_status loop_graph_output(loop_graph *lg, const onnx_tv *outs, uint32_t n)
{
    oa_node *no;
    char *nm = oa_arena_printf(oa_graph_arena(lg->sc.g), "%sNode_Output", lg->sc.prefix);
    oa_status st = nm ? oa_graph_add_net_output(lg->sc.g, nm, n, &no) : OA_E_NOMEM;
    for (uint32_t j = 0; j < n && st == OA_OK; j++) {
        if ((st = oa_node_connect(no, j, outs[j].n, outs[j].i)) == OA_OK) {
            st = oa_attrs_set_int(lg->sc.g, &oa_node_input_desc(no, j)->attrs, "_parent_node_index", (int64_t)j);
        }
    }
    return st;
}

/* The body input a body output passes on through Identity nodes (its index), or -1. */
static int64_t carried_input(const Onnx__GraphProto *body, const char *name)
{
    for (int hops = 0; name != NULL && hops < 16; hops++) {
        for (size_t i = 0; i < body->n_input; i++) {
            if (body->input[i]->name != NULL && strcmp(body->input[i]->name, name) == 0) {
                return (int64_t)i;
            }
        }
        const char *next = NULL;
        for (size_t i = 0; i < body->n_node && next == NULL; i++) {
            const Onnx__NodeProto *np = body->node[i];
            if (np->n_output == 1 && np->n_input == 1 && strcmp(np->output[0], name) == 0 &&
                strcmp(np->op_type, "Identity") == 0) {
                next = np->input[0];
            }
        }
        name = next;
    }
    return -1;
}

oa_status oa_onnx_op_loop(onnx_node_ctx *c)
{
    const Onnx__AttributeProto *ab = oa_onnx_attr(c, "body");
    if (ab == NULL || ab->g == NULL) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "needs the body graph");
    }
    const Onnx__GraphProto *body = ab->g;
    const size_t nv = c->np->n_input >= 2 ? c->np->n_input - 2 : 0;
    if (c->np->n_input < 2 || body->n_input != nv + 2 || body->n_output < nv + 1 ||
        c->np->n_output != body->n_output - 1) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "%zu inputs, %zu outputs; the body has %zu inputs and %zu outputs",
                         c->np->n_input, c->np->n_output, body->n_input, body->n_output);
    }
    const size_t nk = body->n_output - 1 - nv;
    const char **fv = NULL;
    size_t nfv = 0;
    oa_status st = oa_onnx_free_vars(c->np, &fv, &nfv);
    if (st != OA_OK) {
        return st;
    }
    const size_t nvars = 3 + nv + nk + nfv;
    if (nvars > LOOP_MAX_VARS) {
        free(fv);
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "has %zu loop variables (at most %d)", nvars, LOOP_MAX_VARS);
    }
    /* each scan output's element shape (declared in the body) for the empty accumulator */
    int64_t edims[LOOP_MAX_VARS][OA_MAX_RANK + 1];
    int64_t erank[LOOP_MAX_VARS];
    oa_dtype edt[LOOP_MAX_VARS];
    for (size_t k = 0; k < nk && st == OA_OK; k++) {
        const Onnx__ValueInfoProto *vi = body->output[1 + nv + k];
        const Onnx__TypeProto *tp = vi->type;
        int64_t od[OA_MAX_RANK];
        const bool typed = tp != NULL && tp->value_case == ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
        const int64_t outer = typed ? -1 : carried_input(body, vi->name);
        if (outer >= 2) {
            /* undeclared, but a carried value passed through Identity: the Loop input's declared type */
            const int64_t r = oa_onnx_declared_dims(c, oa_onnx_input_name(c, (uint32_t)outer), od);
            bool known = r >= 0 && r < OA_MAX_RANK &&
                         oa_onnx_declared_dtype(c, oa_onnx_input_name(c, (uint32_t)outer), &edt[k]);
            for (int64_t d = 0; known && d < r; d++) {
                known = od[d] >= 0;
                edims[k][d + 1] = od[d];
            }
            if (known) {
                erank[k] = r + 1;
                edims[k][0] = 0;
                continue;
            }
        }
        if (tp == NULL || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || tp->tensor_type == NULL ||
            tp->tensor_type->shape == NULL || tp->tensor_type->shape->n_dim >= OA_MAX_RANK ||
            !tp->tensor_type->has_elem_type || !oa_onnx_dtype_to_ge(tp->tensor_type->elem_type, &edt[k])) {
            st = OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "E16002: ONNX node %s (Loop): scan output %zu needs its declared "
                                                   "type and shape in the body; the supported op types are listed in "
                                                   "docs/onnx_ops.md", c->name, k);
            break;
        }
        const Onnx__TensorShapeProto *sh = tp->tensor_type->shape;
        erank[k] = (int64_t)sh->n_dim + 1;
        edims[k][0] = 0;
        for (size_t d = 0; d < sh->n_dim; d++) {
            if (sh->dim[d]->value_case != ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE) {
                st = OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "E16002: ONNX node %s (Loop): scan output %zu needs a declared "
                                                       "shape; the supported op types are listed in docs/onnx_ops.md",
                             c->name, k);
                break;
            }
            edims[k][d + 1] = sh->dim[d]->dim_value;
        }
    }
    oa_node *w = NULL;
    if (st == OA_OK) {
        st = oa_graph_add_node(c->sc->g, OA_OP_WHILE, c->name, (uint32_t)nvars, (uint32_t)nvars, &w);
    }
    if (st != OA_OK) {
        free(fv);
        return st;
    }
    c->created[0] = w;
    c->roles[0] = "while";
    c->num_created = 1;
    onnx_xb b = {c, OA_OK};
    /* initial values */
    const oa_shape s0 = oa_shape_scalar();
    const int64_t zero = 0, big = INT64_MAX;
    const uint8_t yes = 1;
    onnx_tv init[LOOP_MAX_VARS];
    init[0] = oa_xb_const(&b, "iter0", OA_DT_INT64, &s0, &zero, sizeof zero);
    init[1] = oa_onnx_has_input(c, 0) ? oa_xb_in(&b, 0) : oa_xb_const(&b, "no_trip_count", OA_DT_INT64, &s0, &big,
                                                                      sizeof big);
    init[2] = oa_onnx_has_input(c, 1) ? oa_xb_in(&b, 1) : oa_xb_const(&b, "no_cond", OA_DT_BOOL, &s0, &yes, 1);
    for (size_t i = 0; i < nv; i++) {
        init[3 + i] = oa_xb_in(&b, (uint32_t)(2 + i));
    }
    for (size_t k = 0; k < nk; k++) {
        const oa_shape es = oa_shape_make((int32_t)erank[k], edims[k]);
        init[3 + nv + k] = oa_xb_const(&b, "empty_scan", edt[k], &es, NULL, 0);
    }
    for (size_t f = 0; f < nfv && b.st == OA_OK; f++) {
        const onnx_value *v = oa_strmap_get(&c->sc->values, fv[f]);
        if (v == NULL) {
            b.st = ONNX_FAIL(c, OA_E_PARSE_MODEL, "the body reads [%s], which is not visible here", fv[f]);
            break;
        }
        init[3 + nv + nk + f].n = v->node;
        init[3 + nv + nk + f].i = v->index;
    }
    for (size_t k = 0; k < nvars && b.st == OA_OK; k++) {
        b.st = oa_onnx_connect(w, (uint32_t)k, init[k].n, init[k].i);
    }
    /* cond: iter < M and cond */
    loop_graph *cg = malloc(sizeof(*cg)), *bg = malloc(sizeof(*bg));
    if (cg == NULL || bg == NULL) {
        b.st = b.st == OA_OK ? OA_E_NOMEM : b.st;
    }
    if (b.st == OA_OK) {
        b.st = loop_graph_init(c, w, "cond", cg, 3, NULL, 0, 0);
    }
    if (b.st == OA_OK) {
        onnx_xb cb = {&cg->ctx, OA_OK};
        const onnx_tv it = {cg->data[0], 0}, m = {cg->data[1], 0}, cd = {cg->data[2], 0};
        onnx_tv go = oa_xb_bin(&cb, OA_OP_LOGICAL_AND, "go", oa_xb_bin(&cb, OA_OP_LESS, "in_range", it, m), cd);
        b.st = cb.st == OA_OK ? loop_graph_output(cg, &go, 1) : cb.st;
        oa_strmap_deinit(&cg->sc.values);
    }
    /* body: the ONNX body, iter + 1, the accumulators */
    if (b.st == OA_OK) {
        b.st = loop_graph_init(c, w, "body", bg, (uint32_t)nvars, fv, nfv, 3 + nv + nk);
    }
    if (b.st == OA_OK) {
        onnx_value in[LOOP_MAX_VARS], out[LOOP_MAX_VARS];
        onnx_tv res[LOOP_MAX_VARS];
        in[0].node = bg->data[0];
        in[0].index = 0;
        in[1].node = bg->data[2];
        in[1].index = 0;
        for (size_t i = 0; i < nv; i++) {
            in[2 + i].node = bg->data[3 + i];
            in[2 + i].index = 0;
        }
        onnx_xb bb = {&bg->ctx, OA_OK};
        bb.st = oa_onnx_inline_body(&bg->ctx, body, in, nv + 2, out, "iteration");
        const onnx_tv it = {bg->data[0], 0};
        res[0] = oa_xb_bin(&bb, OA_OP_ADD, "next_iter", it, ci64(&bb, "one", 1));
        res[1].n = bg->data[1];
        res[1].i = 0;
        res[2] = tv(out[0]);
        for (size_t i = 0; i < nv && bb.st == OA_OK; i++) {
            res[3 + i] = tv(out[1 + i]);
        }
        for (size_t k = 0; k < nk && bb.st == OA_OK; k++) {
            const int64_t ax = 0;
            onnx_tv u = oa_xb_un(&bb, OA_OP_UNSQUEEZE, "scan_item", tv(out[1 + nv + k]));
            oa_xb_ints(&bb, u, "axes", &ax, 1);
            const onnx_tv parts[2] = {{bg->data[3 + nv + k], 0}, u};
            res[3 + nv + k] = oa_xb_op(&bb, OA_OP_CONCAT_D, "scan_append", parts, 2);
            oa_xb_int(&bb, res[3 + nv + k], "concat_dim", 0);
            oa_xb_int(&bb, res[3 + nv + k], "N", 2);
        }
        for (size_t f = 0; f < nfv; f++) {
            res[3 + nv + nk + f].n = bg->data[3 + nv + nk + f];
            res[3 + nv + nk + f].i = 0;
        }
        b.st = bb.st == OA_OK ? loop_graph_output(bg, res, (uint32_t)nvars) : bb.st;
        oa_strmap_deinit(&bg->sc.values);
        oa_strmap_deinit(&bg->sc.seqs);
    }
    free(cg);
    free(bg);
    free(fv);
    for (size_t i = 0; i < nv; i++) {
        oa_xb_out(&b, (uint32_t)i, (onnx_tv){w, (uint32_t)(3 + i)});
    }
    for (size_t k = 0; k < nk; k++) {
        oa_xb_out(&b, (uint32_t)(nv + k), (onnx_tv){w, (uint32_t)(3 + nv + k)});
    }
    return b.st;
}

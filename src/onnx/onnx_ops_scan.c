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

/*
 * Weight-rewriting passes: BatchNorm folding and affine folding into the
 * preceding Conv2D / Conv2DTranspose / MatMulV2 / BatchMatMulV2. New
 * weights are new Const nodes (the old ones may be shared and are left to
 * dead-code elimination); their bytes live in blobs, so per-gear graph
 * copies share them.
 */
#define OA_LOG_MODULE "GE"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "compiler/pass_util.h"
#include "compiler/passes.h"

/* What a weight update needs to know about the host op. */
typedef struct host_info {
    oa_node *n;
    int64_t cout;      /* output channels (conv) or columns N (matmul) */
    const float *w;    /* weights (NULL when not constant f32) */
    int64_t wcount;
    const oa_shape *wshape;
    const float *b;    /* bias or NULL */
    bool is_conv;
    /* conv geometry */
    int64_t groups;
    /* matmul: weight laid out [..., K, N] (false) or [..., N, K] (true) */
    bool w_transposed;
} host_info;

static bool has_post_ops(const oa_node *n)
{
    return oa_attrs_find(&n->attrs, "_oa_post_ops") != NULL;
}

/*
 * The rewrites are per output channel (conv: dim 1, matmul: the last dim),
 * so they need the output's rank and channel count only: batch and spatial
 * dims may stay unknown (-1) until execution (dynamic-shape models).
 */
static bool channels_known(const oa_node *n, const oa_shape *y)
{
    if (y->rank < 1) {
        return false;
    }
    bool conv = n->type == OA_OP_CONV2D || n->type == OA_OP_CONV2D_TRANSPOSE;
    int32_t axis = conv ? 1 : y->rank - 1;
    return axis < y->rank && y->dims[axis] > 0;
}

/* Fills h for a host whose output 0 is f32; false when unsupported. */
static bool host_info_get(oa_node *n, host_info *h)
{
    memset(h, 0, sizeof(*h));
    h->n = n;
    const oa_tensor_desc *y = &n->outputs[0].desc;
    if (!oa_cp_is_post_op_host(n) || has_post_ops(n) || y->dtype != OA_DT_FLOAT || !channels_known(n, &y->shape)) {
        return false;
    }
    const oa_tensor *wt = oa_cp_input_const(n, oa_cp_weight_slot(n));
    if (wt != NULL && oa_cp_const_f32(wt, &h->w, &h->wcount)) {
        h->wshape = &wt->desc.shape;
    } else {
        h->w = NULL;
    }
    h->is_conv = n->type == OA_OP_CONV2D || n->type == OA_OP_CONV2D_TRANSPOSE;
    if (h->is_conv) {
        const char *fmt = oa_node_attr_str(n, "data_format", "NCHW");
        if (y->shape.rank != 4 || strcmp(fmt, "NCHW") != 0 || h->w == NULL || h->wshape->rank != 4) {
            return false;
        }
        h->cout = y->shape.dims[1];
        h->groups = oa_node_attr_int(n, "groups", 1);
        if (h->groups <= 0) {
            h->groups = 1;
        }
        int64_t wcout = n->type == OA_OP_CONV2D ? h->wshape->dims[0] : h->wshape->dims[1] * h->groups;
        if (wcout != h->cout) {
            return false;
        }
    } else {
        h->cout = y->shape.dims[y->shape.rank - 1];
        h->w_transposed = n->type == OA_OP_MAT_MUL_V2 ? oa_node_attr_bool(n, "transpose_x2", false)
                                                      : oa_node_attr_bool(n, "adj_x2", false);
        if (h->w != NULL) {
            const oa_shape *ws = h->wshape;
            int64_t ncol = ws->rank >= 2 ? ws->dims[h->w_transposed ? ws->rank - 2 : ws->rank - 1] : -1;
            if (ws->rank < 2 || ncol != h->cout) {
                h->w = NULL; /* 1-D or unexpected weights: only bias updates */
            }
        }
    }
    uint32_t bs = oa_cp_bias_slot(n);
    if (bs < n->num_inputs && n->inputs[bs].src != NULL) {
        int64_t bc;
        if (!oa_cp_const_f32(oa_cp_input_const(n, bs), &h->b, &bc) || bc != h->cout) {
            return false;
        }
    }
    return true;
}

/* W'[o] = W[o] * s[o] for every output channel / column o. */
static void scale_weights(const host_info *h, const float *s, float *out)
{
    memcpy(out, h->w, (size_t)h->wcount * sizeof(float));
    const oa_shape *ws = h->wshape;
    if (h->n->type == OA_OP_CONV2D) {
        int64_t per = h->wcount / h->cout;
        for (int64_t o = 0; o < h->cout; o++) {
            for (int64_t k = 0; k < per; k++) {
                out[o * per + k] *= s[o];
            }
        }
    } else if (h->n->type == OA_OP_CONV2D_TRANSPOSE) {
        /* [Cin, Cout/g, kh, kw]: input channel ci belongs to group ci / (Cin/g). */
        int64_t cin = ws->dims[0], cog = ws->dims[1], khw = ws->dims[2] * ws->dims[3];
        int64_t cig = cin / h->groups;
        for (int64_t ci = 0; ci < cin; ci++) {
            int64_t grp = cig ? ci / cig : 0;
            for (int64_t oc = 0; oc < cog; oc++) {
                float f = s[grp * cog + oc];
                float *p = out + (ci * cog + oc) * khw;
                for (int64_t k = 0; k < khw; k++) {
                    p[k] *= f;
                }
            }
        }
    } else {
        int64_t rows = ws->dims[ws->rank - 2], cols = ws->dims[ws->rank - 1];
        int64_t batches = h->wcount / (rows * cols);
        for (int64_t bt = 0; bt < batches; bt++) {
            float *m = out + bt * rows * cols;
            for (int64_t r = 0; r < rows; r++) {
                for (int64_t c = 0; c < cols; c++) {
                    m[r * cols + c] *= s[h->w_transposed ? r : c];
                }
            }
        }
    }
}

/* Connects new weights (when w != NULL) and a new [cout] bias to the host. */
static oa_status set_weights(const host_info *h, const float *w, const float *bias)
{
    oa_node *n = h->n;
    oa_status st;
    if (w != NULL) {
        oa_node *wc;
        st = oa_cp_add_const(n->graph, oa_node_input_src(n, oa_cp_weight_slot(n), NULL)->name, OA_DT_FLOAT,
                             h->wshape, w, (size_t)h->wcount * sizeof(float), &wc);
        if (st == OA_OK) {
            st = oa_node_connect(n, oa_cp_weight_slot(n), wc, 0);
        }
        if (st != OA_OK) {
            return st;
        }
    }
    uint32_t bs = oa_cp_bias_slot(n);
    if (n->num_inputs <= bs) {
        st = oa_node_set_num_inputs(n, bs + 1);
        if (st != OA_OK) {
            return st;
        }
    }
    oa_shape bshape = oa_shape_make(1, &h->cout);
    char base[512];
    snprintf(base, sizeof(base), "%s_bias", n->name);
    oa_node *bc;
    st = oa_cp_add_const(n->graph, base, OA_DT_FLOAT, &bshape, bias, (size_t)h->cout * sizeof(float), &bc);
    if (st == OA_OK) {
        st = oa_node_connect(n, bs, bc, 0);
    }
    if (st == OA_OK && (n->type == OA_OP_CONV2D || n->type == OA_OP_CONV2D_TRANSPOSE)) {
        oa_tensor_desc *d = oa_node_input_desc(n, bs);
        d->format = OA_FORMAT_ND;
        d->origin_format = OA_FORMAT_ND;
    }
    return st;
}

/* Replaces the consumer `e` by the host's output and removes it. */
static oa_status absorb(oa_node *host, oa_node *e)
{
    const char *names[1] = {e->name};
    oa_status st = oa_cp_add_original_names(host, names, 1);
    if (st != OA_OK) {
        return st;
    }
    /* The host keeps its own output desc (same shape and dtype). */
    return oa_cp_replace_and_remove(e, 0, host, 0);
}

/* ---- BatchNorm ---- */

static bool bn_params(const oa_node *bn, int64_t c, const float *p[4])
{
    for (uint32_t i = 0; i < 4; i++) {
        int64_t cnt;
        if (!oa_cp_const_f32(oa_cp_input_const(bn, 1 + i), &p[i], &cnt) || cnt != c) {
            return false;
        }
    }
    for (uint32_t k = 1; k < bn->num_outputs; k++) {
        if (oa_cp_num_uses(bn, k) > 0) {
            return false;
        }
    }
    const char *fmt = oa_node_attr_str(bn, "data_format", "NCHW");
    return !oa_node_attr_bool(bn, "is_training", false) && strcmp(fmt, "NCHW") == 0;
}

static oa_status fold_bn_node(oa_node *n, size_t *changed)
{
    host_info h;
    uint32_t slot;
    oa_node *bn = oa_cp_single_use(n, 0, &slot);
    if (bn == NULL || bn->type != OA_OP_BATCH_NORM || slot != 0 ||
        (n->type != OA_OP_CONV2D && n->type != OA_OP_CONV2D_TRANSPOSE) || !host_info_get(n, &h)) {
        return OA_OK;
    }
    const float *p[4]; /* scale, offset, mean, variance */
    if (!bn_params(bn, h.cout, p)) {
        return OA_OK;
    }
    float eps = oa_node_attr_float(bn, "epsilon", 1e-4f);
    float *s = malloc((size_t)h.cout * sizeof(float));
    float *bias = malloc((size_t)h.cout * sizeof(float));
    float *w = malloc((size_t)h.wcount * sizeof(float));
    oa_status st = OA_OK;
    if (s == NULL || bias == NULL || w == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "out of memory folding %s into %s", bn->name, n->name);
        goto done;
    }
    for (int64_t o = 0; o < h.cout; o++) {
        s[o] = p[0][o] / sqrtf(p[3][o] + eps);
        bias[o] = ((h.b ? h.b[o] : 0.0f) - p[2][o]) * s[o] + p[1][o];
    }
    scale_weights(&h, s, w);
    st = set_weights(&h, w, bias);
    if (st == OA_OK) {
        st = absorb(n, bn);
    }
    if (st == OA_OK && changed) {
        (*changed)++;
    }
done:
    free(s);
    free(bias);
    free(w);
    return st;
}

static oa_status fold_bn_graph(oa_graph *g, size_t *changed)
{
    /* Hosts are never removed, so n->next is read after n is processed. */
    for (oa_node *n = oa_graph_first_node(g); n; n = n->next) {
        oa_status st = fold_bn_node(n, changed);
        if (st != OA_OK) {
            return st;
        }
    }
    oa_status st = oa_cp_dce_local(g, NULL);
    return st == OA_OK ? oa_graph_topo_sort(g) : st;
}

oa_status oa_pass_fold_batchnorm(oa_graph *g, size_t *changed)
{
    return oa_cp_for_each_graph(g, fold_bn_graph, changed);
}

/* ---- affine (Mul / RealDiv / Add / Sub by constants) ---- */

static oa_status fold_affine_node(oa_node *n, bool *did)
{
    *did = false;
    host_info h;
    uint32_t slot;
    oa_node *e = oa_cp_single_use(n, 0, &slot);
    if (e == NULL || e->num_inputs != 2 || e->outputs[0].desc.dtype != OA_DT_FLOAT || !host_info_get(n, &h)) {
        return OA_OK;
    }
    bool mul = e->type == OA_OP_MUL, div = e->type == OA_OP_REAL_DIV;
    bool add = e->type == OA_OP_ADD, sub = e->type == OA_OP_SUB;
    if (!(mul || div || add || sub) || ((div || sub) && slot != 0) ||
        !oa_shape_equal(&e->outputs[0].desc.shape, &n->outputs[0].desc.shape)) {
        return OA_OK;
    }
    if ((mul || div) && h.w == NULL) {
        return OA_OK;
    }
    const oa_tensor *c = oa_cp_input_const(e, 1 - slot);
    float *per = malloc((size_t)h.cout * sizeof(float));
    float *bias = malloc((size_t)h.cout * sizeof(float));
    float *w = (mul || div) ? malloc((size_t)h.wcount * sizeof(float)) : NULL;
    oa_status st = OA_OK;
    if (per == NULL || bias == NULL || ((mul || div) && w == NULL)) {
        st = OA_FAIL(OA_E_NOMEM, "out of memory folding %s into %s", e->name, n->name);
        goto done;
    }
    if (c == NULL || !oa_cp_per_axis(c, &n->outputs[0].desc.shape, !h.is_conv, h.cout, per)) {
        goto done;
    }
    for (int64_t o = 0; o < h.cout; o++) {
        float b = h.b ? h.b[o] : 0.0f;
        if (div) {
            per[o] = 1.0f / per[o];
        }
        bias[o] = (mul || div) ? b * per[o] : (add ? b + per[o] : b - per[o]);
    }
    if (w != NULL) {
        scale_weights(&h, per, w);
    }
    st = set_weights(&h, w, bias);
    if (st == OA_OK) {
        st = absorb(n, e);
        *did = st == OA_OK;
    }
done:
    free(per);
    free(bias);
    free(w);
    return st;
}

static oa_status fold_affine_graph(oa_graph *g, size_t *changed)
{
    for (oa_node *n = oa_graph_first_node(g); n; n = n->next) {
        bool did = true;
        /* A host may absorb several consumers in a row (Mul then Add). */
        while (did) {
            oa_status st = fold_affine_node(n, &did);
            if (st != OA_OK) {
                return st;
            }
            if (did && changed) {
                (*changed)++;
            }
        }
    }
    oa_status st = oa_cp_dce_local(g, NULL);
    return st == OA_OK ? oa_graph_topo_sort(g) : st;
}

oa_status oa_pass_fold_affine(oa_graph *g, size_t *changed)
{
    return oa_cp_for_each_graph(g, fold_affine_graph, changed);
}

/* ---- affine before a convolution without padding ---- */

/*
 * Scale `s` and shift `b` (per input channel, from a Mul/Add pair or one of
 * them) applied to a Conv2D's input fold into it when the conv has no
 * padding, so every window sees only real pixels:
 *   conv(W, bias)(s*x + b) = conv(W', bias')(x),
 *   W'[o][c][k] = W[o][c][k] * s[c],  bias'[o] = bias[o] + sum_{c,k} W[o][c][k] * b[c]
 * (c runs over the input channels of o's group).
 */
static bool zero_pads(const oa_node *conv)
{
    const int64_t *p;
    size_t n;
    if (!oa_attrs_get_list_int(&conv->attrs, "pads", &p, &n)) {
        return true;
    }
    for (size_t i = 0; i < n; i++) {
        if (p[i] != 0) {
            return false;
        }
    }
    const char *ap = oa_node_attr_str(conv, "auto_pad", "NOTSET");
    return strcmp(ap, "NOTSET") == 0 || strcmp(ap, "VALID") == 0 || strcmp(ap, "EXPLICIT") == 0;
}

/* The per-channel values of the constant operand of a Mul/Add reading `x`. */
static bool channel_operand(const oa_node *e, const oa_node *x, int64_t c, float *per)
{
    if ((e->type != OA_OP_MUL && e->type != OA_OP_ADD) || e->num_inputs != 2 ||
        e->outputs[0].desc.dtype != OA_DT_FLOAT || !oa_shape_equal(&e->outputs[0].desc.shape, &x->outputs[0].desc.shape)) {
        return false;
    }
    for (uint32_t s = 0; s < 2; s++) {
        if (e->inputs[s].src == x && e->inputs[s].src_index == 0) {
            const oa_tensor *t = oa_cp_input_const(e, 1 - s);
            return t != NULL && oa_cp_per_axis(t, &e->outputs[0].desc.shape, false, c, per);
        }
    }
    return false;
}

static oa_status fold_input_affine(oa_node *conv, bool *did)
{
    *did = false;
    host_info h;
    if (conv->type != OA_OP_CONV2D || !zero_pads(conv) || !host_info_get(conv, &h)) {
        return OA_OK;
    }
    uint32_t xi;
    oa_node *last = oa_node_input_src(conv, 0, &xi);
    if (last == NULL || xi != 0 || oa_cp_num_uses(last, 0) != 1 || last->inputs == NULL) {
        return OA_OK;
    }
    const oa_shape *ws = h.wshape;
    int64_t cin = conv->inputs[0].desc.shape.dims[1], cig = ws->dims[1], khw = ws->dims[2] * ws->dims[3];
    if (cin <= 0 || cig * h.groups != cin) {
        return OA_OK;
    }
    float *s = malloc((size_t)cin * sizeof(float)), *b = malloc((size_t)cin * sizeof(float));
    float *tmp = malloc((size_t)cin * sizeof(float));
    float *w = malloc((size_t)h.wcount * sizeof(float)), *bias = malloc((size_t)h.cout * sizeof(float));
    oa_status st = OA_OK;
    if (s == NULL || b == NULL || tmp == NULL || w == NULL || bias == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "out of memory folding into %s", conv->name);
        goto done;
    }
    for (int64_t c = 0; c < cin; c++) {
        s[c] = 1.0f;
        b[c] = 0.0f;
    }
    /* last = Add(Mul(x, s), b) | Mul(x, s) | Add(x, b) */
    oa_node *add = NULL, *mul = NULL, *x = NULL;
    if (last->type == OA_OP_ADD) {
        add = last;
        for (uint32_t k = 0; k < 2 && x == NULL; k++) {
            oa_node *src = oa_node_input_src(add, k, NULL);
            if (src && oa_cp_const_tensor(src) == NULL) {
                x = src;
            }
        }
        if (x && x->type == OA_OP_MUL && oa_cp_num_uses(x, 0) == 1) {
            mul = x;
            x = NULL;
            for (uint32_t k = 0; k < 2 && x == NULL; k++) {
                oa_node *src = oa_node_input_src(mul, k, NULL);
                if (src && oa_cp_const_tensor(src) == NULL) {
                    x = src;
                }
            }
        }
    } else if (last->type == OA_OP_MUL) {
        mul = last;
        for (uint32_t k = 0; k < 2 && x == NULL; k++) {
            oa_node *src = oa_node_input_src(mul, k, NULL);
            if (src && oa_cp_const_tensor(src) == NULL) {
                x = src;
            }
        }
    }
    if (x == NULL || (mul && !channel_operand(mul, x, cin, s)) ||
        (add && !channel_operand(add, mul ? mul : x, cin, b))) {
        goto done;
    }
    /* W'[o][c][k] = W * s[c]; bias'[o] += sum W * b[c] */
    memcpy(w, h.w, (size_t)h.wcount * sizeof(float));
    for (int64_t o = 0; o < h.cout; o++) {
        int64_t grp = o / (h.cout / h.groups);
        double acc = h.b ? h.b[o] : 0.0;
        for (int64_t cl = 0; cl < cig; cl++) {
            int64_t c = grp * cig + cl;
            float *p = w + (o * cig + cl) * khw;
            for (int64_t k = 0; k < khw; k++) {
                acc += (double)p[k] * b[c];
                p[k] *= s[c];
            }
        }
        bias[o] = (float)acc;
    }
    uint32_t x_idx = 0;
    for (uint32_t k = 0; k < (mul ? mul : add)->num_inputs; k++) {
        if ((mul ? mul : add)->inputs[k].src == x) {
            x_idx = (mul ? mul : add)->inputs[k].src_index;
        }
    }
    st = set_weights(&h, w, bias);
    if (st == OA_OK) {
        st = oa_node_connect(conv, 0, x, x_idx);
    }
    if (st == OA_OK) {
        const char *names[2];
        size_t nn = 0;
        if (mul) {
            names[nn++] = mul->name;
        }
        if (add) {
            names[nn++] = add->name;
        }
        st = oa_cp_add_original_names(conv, names, nn);
    }
    if (st == OA_OK && add) {
        st = oa_cp_remove_if_unused(add);
    }
    if (st == OA_OK && mul) {
        st = oa_cp_remove_if_unused(mul);
    }
    *did = st == OA_OK;
done:
    free(s);
    free(b);
    free(tmp);
    free(w);
    free(bias);
    return st;
}

static oa_status fold_input_affine_graph(oa_graph *g, size_t *changed)
{
    for (oa_node *n = oa_graph_first_node(g); n; n = n->next) {
        bool did;
        oa_status st = fold_input_affine(n, &did);
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

oa_status oa_pass_fold_input_affine(oa_graph *g, size_t *changed)
{
    return oa_cp_for_each_graph(g, fold_input_affine_graph, changed);
}

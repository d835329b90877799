/*
 * Layout pass: conv chains in the blocked NCHWc layout, represented GE's
 * way. A chain is a connected group of blocked-capable nodes (the kernels'
 * "NCHWc: yes" families) joined by 4-D f32 activations; a chain with at
 * least one Conv2D runs blocked:
 *
 *   x ─▶ Conv2D ─▶ Relu ─▶ MaxPoolV3 ─▶ TransData(NC1HWC0→NCHW) ─▶ Softmax
 *
 * A Conv2D whose input comes from outside the chain keeps that input plain
 * (x NCHW, y NC1HWC0: the kernels' out_nchwc); other entries into a chain
 * (a residual operand, an elementwise operand) get a TransData.
 * Blocked descs: format NC1HWC0, shape [N, ceil(C/16), H, W, 16], origin
 * format NCHW, origin shape [N, C, H, W]. C0 = 16 is the planning size: it
 * also fits the AVX2 block of 8 the kernels may pick at run time. Weights
 * and per-channel/scalar operands stay plain. Switchable (atc default: on).
 */
#define OA_LOG_MODULE "GE"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "compiler/pass_util.h"
#include "compiler/passes.h"

#define C0 16

static bool act4d(const oa_tensor_desc *d)
{
    return d->dtype == OA_DT_FLOAT && d->shape.rank == 4 && oa_shape_is_static(&d->shape) &&
           (d->format == OA_FORMAT_NCHW || d->format == OA_FORMAT_ND);
}

/* Elementwise binary ops that run blocked on their broadcast operands. */
static bool is_blocked_binary(oa_op_type t)
{
    const unsigned f = oa_op_flags(t);
    return (f & OA_OPF_NCHWC) && (f & OA_OPF_EW_BINARY);
}

static bool is_split(oa_op_type t)
{
    return t == OA_OP_SPLIT || t == OA_OP_SPLIT_V || t == OA_OP_SPLIT_D || t == OA_OP_SPLIT_V_D;
}

/* Split's data input: Split has (split_dim, x), the others x first. */
static uint32_t split_x_slot(const oa_node *n)
{
    return n->type == OA_OP_SPLIT ? 1u : 0u;
}

/* Outputs of n that may be blocked: all of a Split's, output 0 of any other node. */
static uint32_t blocked_outputs(const oa_node *n)
{
    return is_split(n->type) ? n->num_outputs : 1u;
}

/* A Split along the channels whose every output but the last starts and ends on a C0
 * boundary: in NC1HWC0 each output is then a whole run of channel blocks, which the
 * kernel copies as it would the plain layout (C0 = 16 also covers a block of 8). */
static bool split_capable(const oa_node *n)
{
    int64_t axis = 0;
    if (n->type == OA_OP_SPLIT_D || n->type == OA_OP_SPLIT_V_D) {
        axis = oa_node_attr_int(n, "split_dim", 0);
    } else if (!oa_cp_const_int(oa_cp_input_const(n, n->type == OA_OP_SPLIT ? 0u : 2u), 0, &axis)) {
        return false;
    }
    if ((axis != 1 && axis != -3) || !act4d(&n->inputs[split_x_slot(n)].desc)) {
        return false;
    }
    for (uint32_t k = 0; k < n->num_outputs; k++) {
        const oa_tensor_desc *d = &n->outputs[k].desc;
        if (!act4d(d) || (k + 1 < n->num_outputs && d->shape.dims[1] % C0 != 0)) {
            return false;
        }
    }
    return n->num_outputs > 0;
}

/* Input slots of n that carry blocked activations (same shape as y). */
static bool activation_slot(const oa_node *n, uint32_t s)
{
    if (n->inputs[s].src == NULL) {
        return false;
    }
    const oa_tensor_desc *in = &n->inputs[s].desc;
    if (!act4d(in)) {
        return false;
    }
    switch (n->type) {
    case OA_OP_CONV2D: {
        int64_t base = oa_node_attr_int(n, "_oa_post_input_base", -1);
        return s == 0 || (base >= 0 && (int64_t)s >= base && oa_shape_equal(&in->shape, &n->outputs[0].desc.shape));
    }
    case OA_OP_CONCAT_D:
    case OA_OP_CONCAT_V2_D:
        return true;
    case OA_OP_SPLIT:
    case OA_OP_SPLIT_V:
    case OA_OP_SPLIT_D:
    case OA_OP_SPLIT_V_D:
        return s == split_x_slot(n);
    default:
        if (is_blocked_binary(n->type)) {
            return oa_shape_equal(&in->shape, &n->outputs[0].desc.shape);
        }
        return s == 0;
    }
}

/* Can n run blocked (given its descs)? */
static bool capable(const oa_node *n)
{
    if (is_split(n->type)) {
        return split_capable(n);
    }
    if (n->num_outputs < 1 || !act4d(&n->outputs[0].desc) || n->num_inputs < 1 ||
        !(oa_op_flags(n->type) & OA_OPF_NCHWC)) {
        return false;
    }
    if (is_blocked_binary(n->type)) {
        if (n->num_inputs != 2) {
            return false;
        }
        /* Each operand: y-shaped activation, or a plain per-channel / scalar tensor. */
        const oa_shape *y = &n->outputs[0].desc.shape;
        for (uint32_t s = 0; s < 2; s++) {
            const oa_tensor_desc *d = &n->inputs[s].desc;
            int64_t numel;
            if (activation_slot(n, s)) {
                continue;
            }
            if (!oa_shape_numel(&d->shape, &numel)) {
                return false;
            }
            bool per_channel = numel == y->dims[1] && (d->shape.rank == 3 || d->shape.rank == 4) &&
                               d->shape.dims[d->shape.rank - 3] == y->dims[1];
            if (numel != 1 && !per_channel) {
                return false;
            }
        }
        return activation_slot(n, 0) || activation_slot(n, 1);
    }
    /* The F_NCHWC rows with attributes to check; the others (activations,
     * BatchNorm, Identity) run blocked on input 0. */
    switch (n->type) {
    case OA_OP_CONV2D:
        return strcmp(oa_node_attr_str(n, "data_format", "NCHW"), "NCHW") == 0 && act4d(&n->inputs[0].desc) &&
               oa_cp_conv_packed(n);
    case OA_OP_AVG_POOL: case OA_OP_AVG_POOL_V2: case OA_OP_MAX_POOL: case OA_OP_MAX_POOL_V3:
    case OA_OP_GLOBAL_AVERAGE_POOL: case OA_OP_GLOBAL_MAX_POOL: case OA_OP_RESIZE_NEAREST_NEIGHBOR_V2:
    case OA_OP_RESIZE_BILINEAR_V2:
        return strcmp(oa_node_attr_str(n, "data_format", "NCHW"), "NCHW") == 0 && act4d(&n->inputs[0].desc);
    case OA_OP_CONCAT_D:
    case OA_OP_CONCAT_V2_D: {
        int64_t axis = oa_node_attr_int(n, "concat_dim", 0);
        if (axis != 1 && axis != -3) {
            return false;
        }
        /* any channel counts: the kernel gathers lane runs when an input's
         * C is not a block multiple (PP-OCRv4 det's 4 x 24-channel concat) */
        for (uint32_t s = 0; s < n->num_inputs; s++) {
            if (!act4d(&n->inputs[s].desc)) {
                return false;
            }
        }
        return true;
    }
    case OA_OP_CLIP_BY_VALUE:
        return act4d(&n->inputs[0].desc);
    default:
        return (n->num_outputs == 1 || n->type == OA_OP_BATCH_NORM) && act4d(&n->inputs[0].desc);
    }
}

static size_t find(size_t *p, size_t x)
{
    while (p[x] != x) {
        x = p[x] = p[p[x]];
    }
    return x;
}

static void blocked_desc(oa_tensor_desc *d, const oa_shape *nchw)
{
    oa_shape s = *nchw;
    int64_t dims[5] = {s.dims[0], (s.dims[1] + C0 - 1) / C0, s.dims[2], s.dims[3], C0};
    d->shape = oa_shape_make(5, dims);
    d->format = OA_FORMAT_NC1HWC0;
    d->origin_format = OA_FORMAT_NCHW;
    d->origin_shape_set = true;
    d->origin_shape = s;
    d->has_range = false;
    d->value = NULL;
}

static oa_status make_trans(oa_graph *g, const char *base, const char *src, const char *dst, oa_node **out)
{
    char name[512];
    snprintf(name, sizeof(name), "%s_trans_%s_to_%s", base, src, dst);
    const char *nm = oa_graph_unique_name(g, name);
    oa_status st = nm ? oa_graph_add_node(g, OA_OP_TRANS_DATA, nm, 1, 1, out) : OA_E_NOMEM;
    if (st == OA_OK) {
        st = oa_node_set_str(*out, "src_format", src);
    }
    if (st == OA_OK) {
        st = oa_node_set_str(*out, "dst_format", dst);
    }
    return st;
}

/*
 * Readers of blocked output k of n that cannot take the blocked tensor get one shared TransData
 * back to NCHW (its input desc is blocked here; n's own output desc is blocked by the caller).
 */
static oa_status readers_of_blocked(oa_graph *g, oa_node *const *order, size_t count, const bool *blocked, oa_node *n,
                                    uint32_t k)
{
    const oa_shape y = n->outputs[k].desc.shape;
    oa_node *back = NULL;
    size_t nu = oa_cp_num_uses(n, k);
    oa_use *u = malloc((nu ? nu : 1) * sizeof(*u));
    if (u == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory in the layout pass");
    }
    (void)oa_node_output_uses(n, k, u, nu);
    oa_status st = OA_OK;
    for (size_t j = 0; j < nu && st == OA_OK; j++) {
        oa_node *r = u[j].node;
        bool ok = r->graph == g && r->type != OA_OP_NET_OUTPUT && r->mark < count && order[r->mark] == r &&
                  blocked[r->mark] && activation_slot(r, u[j].input);
        if (ok) {
            continue;
        }
        if (back == NULL) {
            char base[400];
            snprintf(base, sizeof base, k == 0 ? "%s" : "%s_%u", n->name, k);
            st = make_trans(g, base, "NC1HWC0", "NCHW", &back);
            if (st == OA_OK) {
                st = oa_node_connect(back, 0, n, k);
            }
            if (st == OA_OK) {
                oa_desc_set(&back->outputs[0].desc, OA_DT_FLOAT, &y);
                back->outputs[0].desc.format = back->outputs[0].desc.origin_format = OA_FORMAT_NCHW;
                blocked_desc(&back->inputs[0].desc, &y);
            }
        }
        if (st == OA_OK) {
            st = oa_node_connect(r, u[j].input, back, 0);
            if (st == OA_OK) {
                r->inputs[u[j].input].desc.format = OA_FORMAT_NCHW;
            }
        }
    }
    free(u);
    return st;
}

static oa_status layout_graph(oa_graph *g, size_t *changed)
{
    oa_node **order;
    size_t count;
    oa_status st = oa_graph_topo_order(g, &order, &count);
    if (st != OA_OK) {
        return st;
    }
    size_t *parent = malloc((count + 1) * sizeof(size_t));
    bool *cap = calloc(count + 1, sizeof(bool)), *has_conv = calloc(count + 1, sizeof(bool));
    bool *blocked = calloc(count + 1, sizeof(bool));
    if (parent == NULL || cap == NULL || has_conv == NULL || blocked == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "out of memory in the layout pass");
        goto done;
    }
    for (size_t i = 0; i < count; i++) {
        order[i]->mark = (uint32_t)i;
        parent[i] = i;
        cap[i] = capable(order[i]);
    }
    /* Components over activation edges between capable nodes. */
    for (size_t i = 0; i < count; i++) {
        oa_node *n = order[i];
        for (uint32_t s = 0; cap[i] && s < n->num_inputs; s++) {
            const oa_node *src = n->inputs[s].src;
            const uint32_t si = n->inputs[s].src_index;
            if (src && si < blocked_outputs(src) && cap[src->mark] && activation_slot(n, s) &&
                src->outputs[si].desc.shape.rank == 4) {
                parent[find(parent, i)] = find(parent, src->mark);
            }
        }
    }
    for (size_t i = 0; i < count; i++) {
        if (cap[i] && order[i]->type == OA_OP_CONV2D) {
            has_conv[find(parent, i)] = true;
        }
    }
    for (size_t i = 0; i < count; i++) {
        blocked[i] = cap[i] && has_conv[find(parent, i)];
    }
    /* Rewrite: descs of blocked outputs, TransData at the boundaries. */
    for (size_t i = 0; i < count && st == OA_OK; i++) {
        oa_node *n = order[i];
        if (!blocked[i]) {
            continue;
        }
        for (uint32_t k = 0; k < blocked_outputs(n) && st == OA_OK; k++) {
            st = readers_of_blocked(g, order, count, blocked, n, k);
        }
        if (st != OA_OK) {
            break;
        }
        /* Inputs: blocked producers feed directly, others through a TransData
         * (activation_slot compares with the plain output shape: block it after). */
        for (uint32_t s = 0; s < n->num_inputs && st == OA_OK; s++) {
            uint32_t si;
            oa_node *src = oa_node_input_src(n, s, &si);
            if (src == NULL || !activation_slot(n, s)) {
                continue;
            }
            oa_shape xs = n->inputs[s].desc.shape;
            if (src->mark < count && order[src->mark] == src && blocked[src->mark] && si < blocked_outputs(src)) {
                blocked_desc(&n->inputs[s].desc, &xs);
                continue;
            }
            if (n->type == OA_OP_CONV2D && s == 0) {
                /* The first conv of a chain reads its plain input directly and
                 * writes blocked (the kernels' out_nchwc): no TransData. */
                continue;
            }
            /* One TransData per plain tensor, shared by its blocked readers (node->user). */
            oa_node *to = si == 0 ? src->user : NULL;
            if (to == NULL) {
                st = make_trans(g, src->name, "NCHW", "NC1HWC0", &to);
                if (st == OA_OK) {
                    st = oa_node_connect(to, 0, src, si);
                }
                if (st == OA_OK) {
                    to->inputs[0].desc.format = OA_FORMAT_NCHW;
                    oa_desc_set(&to->outputs[0].desc, OA_DT_FLOAT, &xs);
                    blocked_desc(&to->outputs[0].desc, &xs);
                    if (si == 0) {
                        src->user = to;
                    }
                    if (changed) {
                        (*changed)++;
                    }
                }
            }
            if (st == OA_OK) {
                st = oa_node_connect(n, s, to, 0);
            }
            if (st == OA_OK) {
                blocked_desc(&n->inputs[s].desc, &xs);
            }
        }
        for (uint32_t k = 0; k < blocked_outputs(n) && st == OA_OK; k++) {
            const oa_shape y = n->outputs[k].desc.shape;
            blocked_desc(&n->outputs[k].desc, &y);
        }
        if (changed) {
            (*changed)++;
        }
    }
    for (size_t i = 0; i < count; i++) {
        order[i]->mark = 0;
        order[i]->user = NULL;
    }
    if (st == OA_OK) {
        st = oa_graph_topo_sort(g);
    }
done:
    free(order);
    free(parent);
    free(cap);
    free(has_conv);
    free(blocked);
    return st;
}

/* ---- TransData folded into a channels-last Transpose ---- */

/* True when Transpose/TransposeD n has the constant perm want[0..k). */
static bool perm_is(const oa_node *n, const int64_t *want, size_t k)
{
    if (n->type == OA_OP_TRANSPOSE_D) {
        const int64_t *v;
        size_t c;
        return oa_attrs_get_list_int(&n->attrs, "perm", &v, &c) && c == k && memcmp(v, want, k * sizeof(*v)) == 0;
    }
    const oa_tensor *t = n->type == OA_OP_TRANSPOSE && n->num_inputs == 2 ? oa_cp_input_const(n, 1) : NULL;
    if (oa_cp_const_count(t) != (int64_t)k) {
        return false;
    }
    for (size_t i = 0; i < k; i++) {
        int64_t v;
        if (!oa_cp_const_int(t, (int64_t)i, &v) || v != want[i]) {
            return false;
        }
    }
    return true;
}

/* The only reader of n's output 0 when n's output is nothing else (no graph output, no control edges). */
static oa_node *sole_reader(const oa_node *n)
{
    oa_node *r = oa_cp_single_use(n, 0, NULL);
    return r != NULL && !oa_cp_is_graph_output(n, 0) && !oa_cp_has_ctrl_uses(n) ? r : NULL;
}

/* The post-op name of an activation node the Transpose kernel can apply to its rows, or NULL. */
static const char *row_activation(const oa_node *n)
{
    switch (n->type) {
    case OA_OP_SIGMOID: return "Sigmoid";
    case OA_OP_RELU: return "Relu";
    case OA_OP_TANH: return "Tanh";
    default: return NULL;
    }
}

/*
 * The NC1HWC0 -> NCHW TransData in front of a channels-last Transpose goes (docs/atc.md
 * "Channels-last heads"):
 *
 *   y(NC1HWC0) -> TransData -> Reshape [N,G,K,H,W] -> Transpose(0,1,3,4,2)   (YOLO's detection heads)
 *   y(NC1HWC0) -> TransData -> Transpose(0,2,3,1)                            (SSD-style heads: NHWC)
 *
 * become one Transpose reading y's blocks (`_oa_blocked_groups` = G, 0 without the Reshape), which
 * moves each pixel's channels once; a Sigmoid/Relu/Tanh after it becomes its post-op.
 */
static oa_status fold_one(oa_node *t, bool *did)
{
    static const int64_t grouped[5] = {0, 1, 3, 4, 2}, nhwc[4] = {0, 2, 3, 1};
    *did = false;
    if ((t->type != OA_OP_TRANSPOSE && t->type != OA_OP_TRANSPOSE_D) || t->num_outputs != 1 ||
        t->outputs[0].desc.dtype != OA_DT_FLOAT || oa_attrs_find(&t->attrs, "_oa_blocked_groups") != NULL) {
        return OA_OK;
    }
    oa_node *src = oa_node_input_src(t, 0, NULL), *view = NULL;
    int64_t groups = 0;
    if (src != NULL && src->type == OA_OP_RESHAPE && sole_reader(src) == t && perm_is(t, grouped, 5)) {
        const oa_shape *v = &src->outputs[0].desc.shape;
        view = src;
        src = oa_node_input_src(view, 0, NULL);
        const oa_shape *x = src != NULL ? &view->inputs[0].desc.shape : NULL;
        if (x == NULL || x->rank != 4 || v->rank != 5 || !oa_shape_is_static(v) || v->dims[0] != x->dims[0] ||
            v->dims[1] * v->dims[2] != x->dims[1] || v->dims[3] != x->dims[2] || v->dims[4] != x->dims[3]) {
            return OA_OK;
        }
        groups = v->dims[1];
    } else if (!perm_is(t, nhwc, 4)) {
        return OA_OK;
    }
    if (src == NULL || src->type != OA_OP_TRANS_DATA || sole_reader(src) != (view ? view : t) ||
        strcmp(oa_node_attr_str(src, "src_format", ""), "NC1HWC0") != 0 ||
        strcmp(oa_node_attr_str(src, "dst_format", ""), "NCHW") != 0 || src->inputs[0].src == NULL ||
        src->inputs[0].desc.format != OA_FORMAT_NC1HWC0) {
        return OA_OK;
    }
    oa_status st = oa_node_connect(t, 0, src->inputs[0].src, src->inputs[0].src_index);
    if (st != OA_OK) {
        return st;
    }
    t->inputs[0].desc = src->inputs[0].desc;
    st = oa_node_set_int(t, "_oa_blocked_groups", groups);
    const char *names[2] = {src->name, view ? view->name : NULL};
    if (st == OA_OK) {
        st = oa_cp_add_original_names(t, names, view ? 2 : 1);
    }
    if (st == OA_OK && view != NULL) {
        st = oa_cp_remove_if_unused(view);
    }
    if (st == OA_OK) {
        st = oa_cp_remove_if_unused(src);
    }
    oa_node *act = sole_reader(t);
    const char *op = act != NULL ? row_activation(act) : NULL;
    if (st == OA_OK && op != NULL && oa_attrs_find(&t->attrs, "_oa_post_ops") == NULL) {
        const float zero = 0.0f;
        st = oa_node_set_list_str(t, "_oa_post_ops", &op, 1);
        if (st == OA_OK) {
            st = oa_node_set_list_float(t, "_oa_post_alpha", &zero, 1);
        }
        if (st == OA_OK) {
            st = oa_node_set_list_float(t, "_oa_post_beta", &zero, 1);
        }
        if (st == OA_OK) {
            st = oa_cp_add_original_names(t, (const char *const *)&act->name, 1);
        }
        if (st == OA_OK) {
            st = oa_cp_replace_and_remove(act, 0, t, 0);
        }
    }
    *did = st == OA_OK;
    return st;
}

static oa_status fold_transdata(oa_graph *g, size_t *changed)
{
    oa_status st = OA_OK;
    size_t folded = 0;
    /* fold_one removes nodes before n and its activation reader, never n: n->next is read after it */
    for (oa_node *n = oa_graph_first_node(g); n != NULL && st == OA_OK; n = n->next) {
        bool did = false;
        st = fold_one(n, &did);
        folded += did ? 1u : 0u;
    }
    if (changed) {
        *changed += folded;
    }
    if (st == OA_OK && folded > 0) {
        st = oa_cp_dce_local(g, NULL); /* the Reshapes' shape constants */
    }
    return st == OA_OK ? oa_graph_topo_sort(g) : st;
}

static oa_status layout_and_fold(oa_graph *g, size_t *changed)
{
    oa_status st = layout_graph(g, changed);
    return st == OA_OK ? fold_transdata(g, changed) : st;
}

oa_status oa_pass_layout_nchwc(oa_graph *g, size_t *changed)
{
    return oa_cp_for_each_graph(g, layout_and_fold, changed);
}

/*
 * Decoders of the data-movement ops (Copy and the view ops, Transpose, Concat, Split, Slice,
 * Gather, Pad, and the ops whose shape comes from host inputs): GE IR node -> kernel op
 * (op_bind_internal.h). Called from oa_bind_decode (op_bind_ops.c).
 */
#include <string.h>

#include "op_bind/op_bind_internal.h"

oa_status oa_bind_copy(oa_bctx *c)
{
    c->b->type = OA_KOP_COPY;
    c->b->inplace_ok = true;
    c->b->is_copy = true;
    oa_status st = oa_bind_in(c, 0, true, false);
    return st == OA_OK ? oa_bind_out(c, 0) : st;
}

oa_status oa_bind_transpose(oa_bctx *c, bool attr_perm)
{
    oa_op_bind *b = c->b;
    oa_ktranspose_params *p = &b->params.transpose;
    b->type = OA_KOP_TRANSPOSE;
    b->has_params = true;
    int n = 0;
    if (attr_perm) {
        const int64_t *v;
        size_t na = 0;
        if (!oa_attrs_get_list_int(&c->n->attrs, "perm", &v, &na) || na > OA_KMAX_DIMS) {
            return BFAIL(c, OA_E_PARAM, "misses attr perm (at most %d entries)", OA_KMAX_DIMS);
        }
        memcpy(p->perm, v, na * sizeof(v[0]));
        n = (int)na;
    } else if (oa_bind_has(c->n, 1) && !oa_bind_slot_ints(c, 1, p->perm, OA_KMAX_DIMS, &n)) {
        return BFAIL(c, OA_E_PARAM, "perm must be a constant");
    }
    p->n_perm = n;
    /* the layout pass's channels-last move of a blocked tensor, with its activation (kernels.h) */
    p->groups = oa_node_attr_int(c->n, "_oa_blocked_groups", 0);
    int n_add = 0;
    uint32_t base = 0;
    oa_status st = oa_bind_post_ops(c, &p->post, false, &n_add, &base);
    if (st == OA_OK) {
        st = oa_bind_in(c, 0, true, false);
    }
    return st == OA_OK ? oa_bind_out(c, 0) : st;
}

oa_status oa_bind_concat(oa_bctx *c, uint32_t first, uint32_t count, int64_t axis)
{
    oa_op_bind *b = c->b;
    b->type = OA_KOP_CONCAT;
    b->has_params = true;
    oa_kconcat_params *p = &b->params.concat;
    p->axis = axis;
    /* Slices the compiler folded in: (input, offset, length) triples (docs/memory.md "Concat in place") */
    const int64_t *w;
    size_t nw = 0;
    if (oa_attrs_get_list_int(&c->n->attrs, "_oa_concat_windows", &w, &nw)) {
        if (nw % 3 != 0 || nw / 3 > OA_KCONCAT_MAX_WIN) {
            return BFAIL(c, OA_E_PARAM, "_oa_concat_windows holds %zu values: (input, offset, length) triples, "
                         "at most %d", nw, OA_KCONCAT_MAX_WIN);
        }
        for (size_t k = 0; k < nw / 3; k++) {
            if (w[3 * k] < 0 || w[3 * k] >= (int64_t)count) {
                return BFAIL(c, OA_E_PARAM, "_oa_concat_windows: input %lld of %u", (long long)w[3 * k], count);
            }
            p->win[k] = (oa_kconcat_win){(int32_t)w[3 * k], w[3 * k + 1], w[3 * k + 2]};
        }
        p->n_win = (int)(nw / 3);
    }
    oa_status st = OA_OK;
    for (uint32_t i = first; i < first + count && st == OA_OK; i++) {
        st = oa_bind_in(c, i, true, false);
    }
    return st == OA_OK ? oa_bind_out(c, 0) : st;
}

oa_status oa_bind_split(oa_bctx *c)
{
    oa_op_bind *b = c->b;
    oa_ksplit_params *p = &b->params.split;
    b->type = OA_KOP_SPLIT;
    b->has_params = true;
    const oa_op_type t = c->n->type;
    oa_status st = OA_OK;
    int64_t dim = 0;
    int nd = 0;
    if (t == OA_OP_SPLIT_D || t == OA_OP_SPLIT_V_D) {
        if (!oa_attrs_get_int(&c->n->attrs, "split_dim", &dim)) {
            return BFAIL(c, OA_E_PARAM, "misses attr split_dim");
        }
    } else {
        const uint32_t dim_slot = t == OA_OP_SPLIT ? 0u : 2u;
        if (!oa_bind_slot_ints(c, dim_slot, &dim, 1, &nd) || nd != 1) {
            return BFAIL(c, OA_E_PARAM, "split_dim must be a constant scalar");
        }
    }
    p->axis = dim;
    if (t == OA_OP_SPLIT_V_D) {
        const int64_t *v;
        size_t n = 0;
        if (!oa_attrs_get_list_int(&c->n->attrs, "size_splits", &v, &n) || n > 64) {
            return BFAIL(c, OA_E_PARAM, "misses attr size_splits (at most 64 entries)");
        }
        memcpy(p->sizes, v, n * sizeof(v[0]));
        p->n_sizes = (int)n;
    }
    st = oa_bind_in(c, t == OA_OP_SPLIT ? 1u : 0u, true, false);
    if (st == OA_OK && t == OA_OP_SPLIT_V) {
        st = oa_bind_in(c, 1, true, true);
    }
    if (c->n->num_outputs > 64) {
        return BFAIL(c, OA_E_PARAM, "%u outputs, at most 64", c->n->num_outputs);
    }
    for (uint32_t k = 0; k < c->n->num_outputs && st == OA_OK; k++) {
        st = oa_bind_out(c, k);
    }
    return st;
}

oa_status oa_bind_slice(oa_bctx *c, bool size_form)
{
    oa_op_bind *b = c->b;
    oa_kslice_params *p = &b->params.slice;
    b->type = OA_KOP_SLICE;
    b->has_params = true;
    p->size_form = size_form;
    p->begin_mask = oa_node_attr_int(c->n, "begin_mask", 0);
    p->end_mask = oa_node_attr_int(c->n, "end_mask", 0);
    p->shrink_axis_mask = oa_node_attr_int(c->n, "shrink_axis_mask", 0);
    if (oa_node_attr_int(c->n, "ellipsis_mask", 0) != 0 || oa_node_attr_int(c->n, "new_axis_mask", 0) != 0) {
        return BFAIL(c, OA_E_PARAM, "ellipsis_mask / new_axis_mask are not supported");
    }
    const uint32_t n_in = size_form ? 3u : 5u;
    oa_status st = oa_bind_in(c, 0, true, false);
    for (uint32_t i = 1; i < n_in && st == OA_OK; i++) {
        st = oa_bind_in(c, i, i < 3, true);
    }
    return st == OA_OK ? oa_bind_out(c, 0) : st;
}

oa_status oa_bind_gather(oa_bctx *c, bool attr_axis)
{
    oa_op_bind *b = c->b;
    b->type = OA_KOP_GATHER;
    b->has_params = true;
    b->params.gather.batch_dims = oa_node_attr_int(c->n, "batch_dims", 0);
    b->params.gather.axis = oa_node_attr_int(c->n, "axis", 0);
    oa_status st;
    if ((st = oa_bind_in(c, 0, true, false)) != OA_OK || (st = oa_bind_in(c, 1, true, false)) != OA_OK) {
        return st;
    }
    if (!attr_axis && (st = oa_bind_in(c, 2, true, true)) != OA_OK) {
        return st;
    }
    return oa_bind_out(c, 0);
}

oa_status oa_bind_pad(oa_bctx *c)
{
    oa_op_bind *b = c->b;
    oa_kpad_params *p = &b->params.pad;
    b->type = OA_KOP_PAD;
    b->has_params = true;
    const oa_op_type t = c->n->type;
    const char *mode = oa_node_attr_str(c->n, "mode", t == OA_OP_MIRROR_PAD ? "REFLECT" : "constant");
    if (strcmp(mode, "constant") == 0 || strcmp(mode, "CONSTANT") == 0) {
        p->mode = OA_KPADV_CONSTANT;
    } else if (strcmp(mode, "reflect") == 0 || strcmp(mode, "REFLECT") == 0) {
        p->mode = OA_KPADV_REFLECT;
    } else if (strcmp(mode, "edge") == 0 || strcmp(mode, "EDGE") == 0) {
        p->mode = OA_KPADV_EDGE;
    } else if (strcmp(mode, "SYMMETRIC") == 0 || strcmp(mode, "symmetric") == 0) {
        p->mode = OA_KPADV_SYMMETRIC;
    } else {
        return BFAIL(c, OA_E_PARAM, "pad mode %s is not supported", mode);
    }
    /* GE Pad/PadV2/MirrorPad take [[b0, e0], [b1, e1], ...]; PadV3 says so with paddings_contiguous */
    p->paddings_contiguous = t == OA_OP_PAD_V3 ? oa_node_attr_bool(c->n, "paddings_contiguous", true) : true;
    oa_status st = oa_bind_in(c, 0, true, false);
    if (st == OA_OK) {
        st = oa_bind_in(c, 1, true, true);
    }
    oa_ktensor *pt = &b->in[b->n_in - 1];
    if (st == OA_OK && pt->rank == 2) { /* [rank, 2] pairs: the kernel reads them flat */
        pt->dims[0] *= pt->dims[1];
        pt->rank = 1;
    }
    if (st == OA_OK && (t == OA_OP_PAD_V3 || t == OA_OP_PAD_V2)) {
        st = oa_bind_in(c, 2, t == OA_OP_PAD_V2, true);
    }
    return st == OA_OK ? oa_bind_out(c, 0) : st;
}

/* PadD: paddings as a list of [before, after] pairs, given to the pad kernel as a flat constant. */
oa_status oa_bind_pad_d(oa_bctx *c)
{
    oa_op_bind *b = c->b;
    b->type = OA_KOP_PAD;
    b->has_params = true;
    b->params.pad.mode = OA_KPADV_CONSTANT;
    b->params.pad.paddings_contiguous = true;
    const oa_attr *a = oa_attrs_find(&c->n->attrs, "paddings");
    if (a == NULL || a->type != OA_ATTR_LIST_LIST_INT) {
        return BFAIL(c, OA_E_PARAM, "misses attr paddings (a list of int lists)");
    }
    int64_t pads[2 * OA_KMAX_DIMS];
    const size_t rows = a->u.lli.n;
    if (rows > OA_KMAX_DIMS) {
        return BFAIL(c, OA_E_PARAM, "paddings has %zu rows", rows);
    }
    for (size_t i = 0; i < rows; i++) {
        if (a->u.lli.lens[i] != 2) {
            return BFAIL(c, OA_E_PARAM, "paddings row %zu has %zu entries, not 2", i, a->u.lli.lens[i]);
        }
        pads[2 * i] = a->u.lli.v[i][0];
        pads[2 * i + 1] = a->u.lli.v[i][1];
    }
    oa_status st = oa_bind_in(c, 0, true, false);
    if (st == OA_OK && (size_t)b->in[0].rank != rows) {
        return BFAIL(c, OA_E_PARAM, "paddings has %zu rows for a rank-%d x", rows, b->in[0].rank);
    }
    const int64_t flat = (int64_t)rows * 2; /* [b0, e0, b1, e1, ...] */
    if (st == OA_OK) {
        st = oa_bind_in_synth(c, OA_KDT_I64, 1, &flat, pads, rows * 2 * sizeof(int64_t));
    }
    return st == OA_OK ? oa_bind_out(c, 0) : st;
}

oa_status oa_bind_host_args(oa_bctx *c, oa_kop_type type, uint32_t n_host_from, uint32_t n_in)
{
    c->b->type = type;
    oa_status st = OA_OK;
    for (uint32_t i = 0; i < n_in && st == OA_OK; i++) {
        st = oa_bind_in(c, i, true, i >= n_host_from);
    }
    return st == OA_OK ? oa_bind_out(c, 0) : st;
}


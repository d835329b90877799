/*
 * Slices into Concats: a Concat input that is a slice of a larger tensor along the concat axis
 * only (unit steps, the other dims whole) reads that tensor directly, recorded as
 *
 *   _oa_concat_windows  list<int>  (input, offset, length) per folded slice
 *
 * on the ConcatD / ConcatV2D (input counts data inputs from 0). YOLOv5's heads slice their
 * sigmoid output into xy / wh / the rest and concatenate the three again along the last axis:
 * the rest's Slice no longer copies 95 % of the head (docs/memory.md "Concat in place").
 */
#define OA_LOG_MODULE "GE"
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "compiler/pass_util.h"
#include "compiler/passes.h"
#include "kernels/kernels.h"

/* Element k of integer constant input slot s of n, or `dflt` when the slot is empty; false when not constant. */
static bool const_at(const oa_node *n, uint32_t s, int64_t k, int64_t dflt, int64_t *v)
{
    if (s >= n->num_inputs || n->inputs[s].src == NULL) {
        *v = dflt;
        return true;
    }
    return oa_cp_const_int(oa_cp_input_const(n, s), k, v);
}

/* Element count of constant input slot s of n (0 when empty or not constant). */
static int64_t const_len(const oa_node *n, uint32_t s)
{
    return oa_cp_const_count(s < n->num_inputs ? oa_cp_input_const(n, s) : NULL);
}

/*
 * Where slice node n starts along axis a of its input, when it only narrows axis a with step 1
 * (StridedSliceV2 without masks, or Slice with constant offsets). The output's other dims equal
 * the input's, so with step 1 they are whole.
 */
static bool slice_offset(const oa_node *n, int a, int64_t *off)
{
    const oa_shape *x = &n->inputs[0].desc.shape, *y = &n->outputs[0].desc.shape;
    if (x->rank != y->rank || !oa_shape_is_static(x) || !oa_shape_is_static(y)) {
        return false;
    }
    for (int d = 0; d < x->rank; d++) {
        if (d != a && x->dims[d] != y->dims[d]) {
            return false;
        }
    }
    int64_t b = 0;
    if (n->type == OA_OP_SLICE) {
        if (const_len(n, 1) != x->rank || !const_at(n, 1, a, 0, &b)) {
            return false;
        }
    } else if (n->type == OA_OP_STRIDED_SLICE_V2) {
        static const char *const masks[] = {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                                            "shrink_axis_mask"};
        for (size_t i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
            if (oa_node_attr_int(n, masks[i], 0) != 0) {
                return false;
            }
        }
        const int64_t k = const_len(n, 1);
        bool have_axes = n->num_inputs > 3 && n->inputs[3].src != NULL, found = false;
        if (k == 0 || (have_axes && const_len(n, 3) != k) || (!have_axes && k != x->rank)) {
            return false;
        }
        for (int64_t j = 0; j < k; j++) {
            int64_t ax = j, step = 1, bj = 0;
            if ((have_axes && !const_at(n, 3, j, 0, &ax)) || !const_at(n, 4, j, 1, &step) ||
                !const_at(n, 1, j, 0, &bj) || step != 1) {
                return false;
            }
            ax = ax < 0 ? ax + x->rank : ax;
            if (ax == a) {
                found = true;
                b = bj;
            }
        }
        if (!found) {
            return false;
        }
    } else {
        return false;
    }
    b = b < 0 ? b + x->dims[a] : b;
    b = b < 0 ? 0 : (b > x->dims[a] ? x->dims[a] : b);
    *off = b;
    return b + y->dims[a] <= x->dims[a];
}

static oa_status fold_concat(oa_node *cat, size_t *changed)
{
    if ((cat->type != OA_OP_CONCAT_D && cat->type != OA_OP_CONCAT_V2_D) || cat->num_outputs != 1 ||
        cat->outputs[0].desc.format == OA_FORMAT_NC1HWC0 ||
        oa_attrs_find(&cat->attrs, "_oa_concat_windows") != NULL) {
        return OA_OK;
    }
    const int rank = cat->outputs[0].desc.shape.rank;
    int64_t axis = oa_node_attr_int(cat, "concat_dim", 0);
    axis = axis < 0 ? axis + rank : axis;
    if (rank <= 0 || axis < 0 || axis >= rank) {
        return OA_OK;
    }
    int64_t win[3 * OA_KCONCAT_MAX_WIN];
    size_t nw = 0;
    oa_status st = OA_OK;
    for (uint32_t i = 0; i < cat->num_inputs && nw < OA_KCONCAT_MAX_WIN && st == OA_OK; i++) {
        oa_node *sl = oa_node_input_src(cat, i, NULL);
        int64_t off;
        if (sl == NULL || cat->inputs[i].src_index != 0 || oa_cp_single_use(sl, 0, NULL) != cat ||
            oa_cp_is_graph_output(sl, 0) || oa_cp_has_ctrl_uses(sl) || sl->inputs[0].src == NULL ||
            sl->inputs[0].desc.format == OA_FORMAT_NC1HWC0 || !slice_offset(sl, (int)axis, &off)) {
            continue;
        }
        win[3 * nw] = i;
        win[3 * nw + 1] = off;
        win[3 * nw + 2] = sl->outputs[0].desc.shape.dims[axis];
        nw++;
        cat->inputs[i].desc = sl->inputs[0].desc;
        const char *name = sl->name;
        st = oa_node_connect(cat, i, sl->inputs[0].src, sl->inputs[0].src_index);
        if (st == OA_OK) {
            st = oa_cp_add_original_names(cat, &name, 1);
        }
        if (st == OA_OK) {
            st = oa_cp_remove_if_unused(sl);
        }
    }
    if (st == OA_OK && nw > 0) {
        st = oa_node_set_list_int(cat, "_oa_concat_windows", win, 3 * nw);
        if (changed) {
            (*changed)++;
        }
    }
    return st;
}

static oa_status concat_graph(oa_graph *g, size_t *changed)
{
    oa_status st = OA_OK;
    size_t before = changed ? *changed : 0, local = 0;
    for (oa_node *n = oa_graph_first_node(g); n != NULL && st == OA_OK; n = n->next) {
        st = fold_concat(n, &local); /* removes only nodes before n */
    }
    if (changed) {
        *changed = before + local;
    }
    if (st == OA_OK && local > 0) {
        st = oa_cp_dce_local(g, NULL); /* the slices' constant inputs */
    }
    return st == OA_OK ? oa_graph_topo_sort(g) : st;
}

oa_status oa_pass_concat_windows(oa_graph *g, size_t *changed)
{
    return oa_cp_for_each_graph(g, concat_graph, changed);
}

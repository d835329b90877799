/*
 * Inference of indexing ops: Split family, StridedSliceV2/StridedSlice,
 * Slice/SliceD, GatherV2/GatherV2D and the Pad family, with value folding
 * for the small tensors of shape computations.
 *
 * StridedSliceV2 follows ONNX Slice (per listed axis, step s != 0):
 *   start += dim if < 0;  end += dim if < 0
 *   s > 0: clamp start, end to [0, dim];     len = max(0, ceil((end-start)/s))
 *   s < 0: clamp start to [0, dim-1], end to [-1, dim-1]
 *   x [2,10] begin [1] end [INT64_MAX] axes [1] -> [2,9]
 */
#define OA_LOG_MODULE "GE"
#include <string.h>

#include "base/util.h"
#include "graph/infer_internal.h"

/* Copies element si of src into element k of v (marking unknowns). */
static oa_status copy_elem(oa_infer_ctx *ctx, oa_value *v, int64_t k, const oa_value *src, int64_t si)
{
    if (!oa_value_known(src, si)) {
        return oa_infer_value_set_unknown(ctx, v, k);
    }
    if (src->f) {
        oa_value_put(v, k, src->f[si], 0, true);
    } else {
        oa_value_put(v, k, 0, src->i[si], false);
    }
    return OA_OK;
}

/* ---- Split ---- */

oa_status oa_infer_split(oa_infer_ctx *ctx)
{
    oa_op_type t = ctx->node->type;
    uint32_t xi = t == OA_OP_SPLIT ? 1 : 0;
    oa_status st = oa_infer_need_inputs(ctx, t == OA_OP_SPLIT ? 2 : (t == OA_OP_SPLIT_V ? 3 : 1));
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[xi];
    oa_ishape s = oa_ishape_of(x);
    int64_t num;
    if ((st = oa_node_require_int(ctx->node, "num_split", &num)) != OA_OK) {
        return st;
    }
    if (num <= 0 || num != (int64_t)ctx->num_out) {
        return IFAIL(ctx, OA_E_GE_PARAM, "num_split %lld does not match its %u outputs", (long long)num, ctx->num_out);
    }
    int64_t dim;
    size_t n;
    bool dim_known;
    if (t == OA_OP_SPLIT_D || t == OA_OP_SPLIT_V_D) {
        if ((st = oa_node_require_int(ctx->node, "split_dim", &dim)) != OA_OK) {
            return st;
        }
        dim_known = true;
    } else {
        dim_known = oa_infer_in_ints(ctx, t == OA_OP_SPLIT ? 0 : 2, &dim, 1, &n) && n == 1;
    }
    if (s.rank < 0 || !dim_known) {
        oa_ishape o = s.rank < 0 ? oa_ishape_unknown() : oa_ishape_any(s.rank);
        for (uint32_t k = 0; k < ctx->num_out; k++) {
            oa_infer_set_out(ctx, k, x->dtype, &o);
        }
        return OA_OK;
    }
    int32_t a;
    if ((st = oa_infer_axis(ctx, dim, s.rank, "split_dim", &a)) != OA_OK) {
        return st;
    }
    /* Sizes: equal parts (Split/SplitD) or size_splits (SplitV/SplitVD). */
    int64_t stack_sizes[64];
    int64_t *sizes = stack_sizes;
    if ((size_t)num > OA_ARRAY_SIZE(stack_sizes)) {
        sizes = oa_arena_array(ctx->arena, (size_t)num, sizeof(*sizes));
        if (sizes == NULL) {
            return OA_E_NOMEM;
        }
    }
    bool sizes_known = true;
    if (t == OA_OP_SPLIT || t == OA_OP_SPLIT_D) {
        if (oa_iv_is_fixed(s.d[a])) {
            if (s.d[a].lo % num != 0) {
                return IFAIL(ctx, OA_E_GE_SHAPE, "dim %d of size %lld does not split into %lld equal parts", a,
                             (long long)s.d[a].lo, (long long)num);
            }
            for (int64_t k = 0; k < num; k++) {
                sizes[k] = s.d[a].lo / num;
            }
        } else {
            sizes_known = false;
        }
    } else {
        const int64_t *v;
        size_t cnt;
        if (t == OA_OP_SPLIT_V_D) {
            if ((st = oa_node_require_list_int(ctx->node, "size_splits", &v, &cnt)) != OA_OK) {
                return st;
            }
            if (cnt != (size_t)num) {
                return IFAIL(ctx, OA_E_GE_PARAM, "size_splits has %zu entries for %lld outputs", cnt, (long long)num);
            }
            memcpy(sizes, v, cnt * sizeof(*sizes));
        } else {
            sizes_known = oa_infer_in_ints(ctx, 1, sizes, (size_t)num, &cnt);
            if (sizes_known && cnt != (size_t)num) {
                return IFAIL(ctx, OA_E_GE_PARAM, "size_splits has %zu entries for %lld outputs", cnt, (long long)num);
            }
        }
        if (sizes_known) {
            int64_t sum = 0, neg = -1;
            for (int64_t k = 0; k < num; k++) {
                if (sizes[k] == -1 && neg < 0) {
                    neg = k;
                } else if (sizes[k] < 0) {
                    return IFAIL(ctx, OA_E_GE_SHAPE, "size_splits entry %lld is %lld", (long long)k,
                                 (long long)sizes[k]);
                } else {
                    sum += sizes[k];
                }
            }
            if (oa_iv_is_fixed(s.d[a])) {
                if (neg >= 0) {
                    if (sum > s.d[a].lo) {
                        return IFAIL(ctx, OA_E_GE_SHAPE, "size_splits sum %lld exceeds dim %lld", (long long)sum,
                                     (long long)s.d[a].lo);
                    }
                    sizes[neg] = s.d[a].lo - sum;
                } else if (sum != s.d[a].lo) {
                    return IFAIL(ctx, OA_E_GE_SHAPE, "size_splits sum %lld differs from dim %lld", (long long)sum,
                                 (long long)s.d[a].lo);
                }
            } else if (neg >= 0) {
                sizes[neg] = -1;
            }
        }
    }
    for (uint32_t k = 0; k < ctx->num_out; k++) {
        oa_ishape o = s;
        o.d[a] = (sizes_known && sizes[k] >= 0) ? oa_iv_fixed(sizes[k]) : oa_iv_any();
        oa_infer_set_out(ctx, k, x->dtype, &o);
    }
    return OA_OK;
}

/* ---- StridedSliceV2 / StridedSlice ---- */

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

oa_status oa_infer_strided_slice_v2(oa_infer_ctx *ctx)
{
    bool tf = ctx->node->type == OA_OP_STRIDED_SLICE;
    oa_status st = oa_infer_need_inputs(ctx, tf ? 4 : 3);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0];
    oa_ishape s = oa_ishape_of(x);
    int64_t ellipsis = oa_node_attr_int(ctx->node, "ellipsis_mask", 0);
    int64_t new_axis = oa_node_attr_int(ctx->node, "new_axis_mask", 0);
    int64_t begin_mask = oa_node_attr_int(ctx->node, "begin_mask", 0);
    int64_t end_mask = oa_node_attr_int(ctx->node, "end_mask", 0);
    int64_t shrink = oa_node_attr_int(ctx->node, "shrink_axis_mask", 0);
    if (ellipsis != 0 || new_axis != 0) {
        return IFAIL(ctx, OA_E_FEATURE_UNSUPPORTED, "ellipsis_mask/new_axis_mask are not supported");
    }
    int64_t b[OA_MAX_RANK], e[OA_MAX_RANK], ax[OA_MAX_RANK], sp[OA_MAX_RANK];
    size_t nb = 0, ne = 0, na = 0, ns = 0;
    bool kb = oa_infer_in_ints(ctx, 1, b, OA_MAX_RANK, &nb);
    bool ke = oa_infer_in_ints(ctx, 2, e, OA_MAX_RANK, &ne);
    bool has_axes = !tf && oa_infer_in(ctx, 3) != NULL;
    bool ka = !has_axes || oa_infer_in_ints(ctx, 3, ax, OA_MAX_RANK, &na);
    uint32_t si = tf ? 3 : 4;
    bool has_steps = oa_infer_in(ctx, si) != NULL;
    bool ks = !has_steps || oa_infer_in_ints(ctx, si, sp, OA_MAX_RANK, &ns);
    if (s.rank < 0) {
        oa_ishape u = oa_ishape_unknown();
        oa_infer_set_out(ctx, 0, x->dtype, &u);
        return OA_OK;
    }
    oa_ishape o = s;
    if (!kb || !ke || !ka || !ks) {
        /* Unknown parameters: the listed axes (or all) become unknown. */
        if (ka && has_axes) {
            for (size_t i = 0; i < na; i++) {
                int32_t a;
                if ((st = oa_infer_axis(ctx, ax[i], s.rank, "axis", &a)) != OA_OK) {
                    return st;
                }
                o.d[a].lo = 0;
                if (!oa_iv_is_fixed(s.d[a]) || s.d[a].hi < 0) {
                    o.d[a].hi = s.d[a].hi;
                }
            }
        } else {
            for (int32_t i = 0; i < s.rank; i++) {
                o.d[i].lo = 0;
            }
        }
        oa_infer_set_out(ctx, 0, x->dtype, &o);
        return OA_OK;
    }
    if (nb != ne) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "begin has %zu entries, end has %zu", nb, ne);
    }
    if (!has_axes) {
        if (nb > (size_t)s.rank) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "begin has %zu entries for rank %d", nb, s.rank);
        }
        for (size_t i = 0; i < nb; i++) {
            ax[i] = (int64_t)i;
        }
        na = nb;
    }
    if (na != nb || (has_steps && ns != nb)) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "begin/end/axes/strides lengths differ (%zu/%zu/%zu/%zu)", nb, ne, na,
                     has_steps ? ns : nb);
    }
    /* Per output axis: start and step for value folding. */
    int64_t start_of[OA_MAX_RANK], step_of[OA_MAX_RANK];
    bool drop[OA_MAX_RANK] = {false}, seen[OA_MAX_RANK] = {false};
    for (int32_t i = 0; i < s.rank; i++) {
        start_of[i] = 0;
        step_of[i] = 1;
    }
    for (size_t i = 0; i < nb; i++) {
        int32_t a;
        if ((st = oa_infer_axis(ctx, ax[i], s.rank, "axis", &a)) != OA_OK) {
            return st;
        }
        if (seen[a]) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "axis %d is sliced twice", a);
        }
        seen[a] = true;
        int64_t step = has_steps ? sp[i] : 1;
        if (step == 0) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "step for axis %d is zero", a);
        }
        bool bm = (begin_mask >> i) & 1, em = (end_mask >> i) & 1, sh = (shrink >> i) & 1;
        oa_iv dim = s.d[a];
        int64_t st0 = b[i], en = e[i];
        if (!oa_iv_is_fixed(dim)) {
            /* Unknown dim: exact only for "from a non-negative start to the
             * end" slices with step 1. */
            if (sh) {
                o.d[a] = oa_iv_fixed(1);
                drop[a] = true;
            } else if (step == 1 && st0 >= 0 && (em || en >= INT32_MAX)) {
                o.d[a] = oa_iv_add_const(dim, -(bm ? 0 : st0));
            } else if (step == 1 && st0 >= 0 && en >= 0 && en >= st0) {
                o.d[a].lo = 0;
                o.d[a].hi = (dim.hi >= 0) ? OA_MIN(en - st0, dim.hi) : en - st0;
            } else {
                o.d[a].lo = 0;
            }
            o.ranged = o.ranged || !oa_iv_is_fixed(o.d[a]);
            start_of[a] = -1;
            continue;
        }
        int64_t d = dim.lo;
        if (sh) {
            if (st0 < 0) {
                st0 += d;
            }
            if (st0 < 0 || st0 >= d) {
                return IFAIL(ctx, OA_E_GE_SHAPE, "shrink index %lld is out of range for dim %lld", (long long)b[i],
                             (long long)d);
            }
            o.d[a] = oa_iv_fixed(1);
            start_of[a] = st0;
            step_of[a] = 1;
            drop[a] = true;
            continue;
        }
        if (step > 0) {
            st0 = bm ? 0 : (st0 < 0 ? clamp64(st0 + d, 0, d) : clamp64(st0, 0, d));
            en = em ? d : (en < 0 ? clamp64(en + d, 0, d) : clamp64(en, 0, d));
        } else {
            st0 = bm ? d - 1 : (st0 < 0 ? clamp64(st0 + d, 0, d - 1) : clamp64(st0, 0, d - 1));
            en = em ? -1 : (en < 0 ? clamp64(en + d, -1, d - 1) : clamp64(en, -1, d - 1));
        }
        int64_t len = 0;
        if (step > 0 && en > st0) {
            len = (en - st0 + step - 1) / step;
        } else if (step < 0 && en < st0) {
            len = (st0 - en + (-step) - 1) / (-step);
        }
        o.d[a] = oa_iv_fixed(len);
        start_of[a] = st0;
        step_of[a] = step;
    }
    oa_ishape out = o;
    out.rank = 0;
    for (int32_t i = 0; i < s.rank; i++) {
        if (!drop[i]) {
            out.d[out.rank++] = o.d[i];
        }
    }
    oa_infer_set_out(ctx, 0, x->dtype, &out);
    /* Values: gather the selected elements. */
    int64_t n;
    if (x->value == NULL || !oa_shape_numel(&ctx->out[0]->shape, &n) || !oa_shape_is_static(&x->shape)) {
        return OA_OK;
    }
    oa_value *v = oa_infer_new_value(ctx, x->dtype, n, &st);
    if (v == NULL) {
        return st;
    }
    for (int64_t k = 0; k < n; k++) {
        int64_t rem = k, src = 0, stride = 1;
        for (int32_t i = s.rank - 1; i >= 0; i--) {
            int64_t len = o.d[i].lo;
            int64_t c = len > 0 ? rem % len : 0;
            rem = len > 0 ? rem / len : 0;
            src += (start_of[i] + c * step_of[i]) * stride;
            stride *= x->shape.dims[i];
        }
        if ((st = copy_elem(ctx, v, k, x->value, src)) != OA_OK) {
            return st;
        }
    }
    ctx->out[0]->value = v;
    return OA_OK;
}

/* ---- Slice / SliceD (TF: offsets + sizes, size -1 = to the end) ---- */

oa_status oa_infer_slice(oa_infer_ctx *ctx)
{
    bool dvar = ctx->node->type == OA_OP_SLICE_D;
    oa_status st = oa_infer_need_inputs(ctx, dvar ? 1 : 3);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0];
    oa_ishape s = oa_ishape_of(x);
    int64_t off[OA_MAX_RANK], sz[OA_MAX_RANK];
    size_t no = 0, nsz = 0;
    bool known;
    if (dvar) {
        const int64_t *v1, *v2;
        if ((st = oa_node_require_list_int(ctx->node, "offsets", &v1, &no)) != OA_OK ||
            (st = oa_node_require_list_int(ctx->node, "size", &v2, &nsz)) != OA_OK) {
            return st;
        }
        if (no > OA_MAX_RANK || nsz > OA_MAX_RANK) {
            return IFAIL(ctx, OA_E_GE_PARAM, "offsets/size are too long");
        }
        memcpy(off, v1, no * sizeof(*off));
        memcpy(sz, v2, nsz * sizeof(*sz));
        known = true;
    } else {
        known = oa_infer_in_ints(ctx, 1, off, OA_MAX_RANK, &no) && oa_infer_in_ints(ctx, 2, sz, OA_MAX_RANK, &nsz);
    }
    if (s.rank < 0 || !known) {
        oa_ishape o = s.rank < 0 ? oa_ishape_unknown() : oa_ishape_any(s.rank);
        oa_infer_set_out(ctx, 0, x->dtype, &o);
        return OA_OK;
    }
    if (no != nsz || (no != (size_t)s.rank && !(no == 1 && s.rank <= 1))) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "offsets (%zu) and size (%zu) must match rank %d", no, nsz, s.rank);
    }
    oa_ishape o = s;
    for (int32_t i = 0; i < s.rank; i++) {
        if (off[i] < 0) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "offset %lld on dim %d is negative", (long long)off[i], i);
        }
        if (sz[i] == -1) {
            o.d[i] = oa_iv_add_const(s.d[i], -off[i]);
        } else if (sz[i] < 0) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "size %lld on dim %d is invalid", (long long)sz[i], i);
        } else {
            if (oa_iv_is_fixed(s.d[i]) && off[i] + sz[i] > s.d[i].lo) {
                return IFAIL(ctx, OA_E_GE_SHAPE, "slice [%lld, +%lld) exceeds dim %d of size %lld", (long long)off[i],
                             (long long)sz[i], i, (long long)s.d[i].lo);
            }
            o.d[i] = oa_iv_fixed(sz[i]);
        }
    }
    oa_infer_set_out(ctx, 0, x->dtype, &o);
    int64_t n;
    if (x->value && s.rank == 1 && oa_shape_numel(&ctx->out[0]->shape, &n)) {
        oa_value *v = oa_infer_new_value(ctx, x->dtype, n, &st);
        if (v == NULL) {
            return st;
        }
        for (int64_t k = 0; k < n; k++) {
            if ((st = copy_elem(ctx, v, k, x->value, off[0] + k)) != OA_OK) {
                return st;
            }
        }
        ctx->out[0]->value = v;
    }
    return OA_OK;
}

/* ---- GatherElements: y has the indices' shape and x's dtype; attr dim ---- */

oa_status oa_infer_gather_elements(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 2);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0], *idx = ctx->in[1];
    if (!oa_dtype_is_int(idx->dtype)) {
        return IFAIL(ctx, OA_E_GE_DATATYPE, "indices must be integers, got %s", oa_dtype_name(idx->dtype));
    }
    oa_ishape s = oa_ishape_of(x), si = oa_ishape_of(idx);
    if (s.rank >= 0 && si.rank >= 0) {
        if (s.rank != si.rank || s.rank == 0) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "x (rank %d) and indices (rank %d) must have the same rank >= 1", s.rank,
                         si.rank);
        }
        int32_t a;
        if ((st = oa_infer_axis(ctx, oa_node_attr_int(ctx->node, "dim", 0), s.rank, "dim", &a)) != OA_OK) {
            return st;
        }
    }
    oa_infer_set_out(ctx, 0, x->dtype, &si);
    return OA_OK;
}

/* ---- GatherV2 ---- */

oa_status oa_infer_gather(oa_infer_ctx *ctx)
{
    bool dvar = ctx->node->type == OA_OP_GATHER_V2_D;
    oa_status st = oa_infer_need_inputs(ctx, dvar ? 2 : 3);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0], *idx = ctx->in[1];
    if (!oa_dtype_is_int(idx->dtype)) {
        return IFAIL(ctx, OA_E_GE_DATATYPE, "indices must be integers, got %s", oa_dtype_name(idx->dtype));
    }
    oa_ishape s = oa_ishape_of(x), si = oa_ishape_of(idx);
    int64_t axis;
    size_t n;
    if (dvar) {
        if ((st = oa_node_require_int(ctx->node, "axis", &axis)) != OA_OK) {
            return st;
        }
    } else if (!oa_infer_in_ints(ctx, 2, &axis, 1, &n) || n != 1) {
        oa_ishape u = oa_ishape_unknown();
        oa_infer_set_out(ctx, 0, x->dtype, &u);
        return OA_OK;
    }
    int64_t bd = oa_node_attr_int(ctx->node, "batch_dims", 0);
    if (s.rank < 0 || si.rank < 0) {
        oa_ishape u = oa_ishape_unknown();
        oa_infer_set_out(ctx, 0, x->dtype, &u);
        return OA_OK;
    }
    int32_t a;
    if ((st = oa_infer_axis(ctx, axis, s.rank, "axis", &a)) != OA_OK) {
        return st;
    }
    if (bd < 0) {
        bd += si.rank;
    }
    if (bd < 0 || bd > si.rank || bd > a) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "batch_dims %lld is invalid for axis %d", (long long)bd, a);
    }
    int32_t r = s.rank - 1 + si.rank - (int32_t)bd;
    if (r > OA_MAX_RANK) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "result rank %d exceeds %d", r, OA_MAX_RANK);
    }
    oa_ishape o = oa_ishape_any(0);
    o.ranged = s.ranged || si.ranged;
    for (int32_t i = 0; i < a; i++) {
        o.d[o.rank++] = s.d[i];
    }
    for (int32_t i = (int32_t)bd; i < si.rank; i++) {
        o.d[o.rank++] = si.d[i];
    }
    for (int32_t i = a + 1; i < s.rank; i++) {
        o.d[o.rank++] = s.d[i];
    }
    oa_infer_set_out(ctx, 0, x->dtype, &o);
    /* Index range check and value folding (batch_dims 0). */
    const oa_value *iv = idx->value;
    if (iv && oa_iv_is_fixed(s.d[a])) {
        int64_t d = s.d[a].lo;
        for (int64_t k = 0; k < iv->count; k++) {
            if (oa_value_known(iv, k)) {
                int64_t q = oa_value_get_i(iv, k);
                if (q < -d || q >= d) {
                    return IFAIL(ctx, OA_E_GE_SHAPE, "index %lld is out of range for dim %d of size %lld",
                                 (long long)q, a, (long long)d);
                }
            }
        }
    }
    int64_t total;
    if (x->value == NULL || iv == NULL || bd != 0 || !oa_shape_numel(&ctx->out[0]->shape, &total) ||
        !oa_shape_is_static(&x->shape)) {
        return OA_OK;
    }
    oa_value *v = oa_infer_new_value(ctx, x->dtype, total, &st);
    if (v == NULL) {
        return st;
    }
    int64_t outer = 1, inner = 1, d = x->shape.dims[a];
    for (int32_t i = 0; i < a; i++) {
        outer *= x->shape.dims[i];
    }
    for (int32_t i = a + 1; i < s.rank; i++) {
        inner *= x->shape.dims[i];
    }
    int64_t pos = 0;
    for (int64_t ob = 0; ob < outer; ob++) {
        for (int64_t k = 0; k < iv->count; k++) {
            bool known = oa_value_known(iv, k);
            int64_t q = known ? oa_value_get_i(iv, k) : 0;
            if (q < 0) {
                q += d;
            }
            for (int64_t e = 0; e < inner; e++, pos++) {
                if (!known) {
                    st = oa_infer_value_set_unknown(ctx, v, pos);
                } else {
                    st = copy_elem(ctx, v, pos, x->value, (ob * d + q) * inner + e);
                }
                if (st != OA_OK) {
                    return st;
                }
            }
        }
    }
    ctx->out[0]->value = v;
    return OA_OK;
}

/* ---- Pad family ---- */

oa_status oa_infer_pad(oa_infer_ctx *ctx)
{
    oa_op_type t = ctx->node->type;
    bool dvar = t == OA_OP_PAD_D;
    oa_status st = oa_infer_need_inputs(ctx, dvar ? 1 : 2);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0];
    oa_ishape s = oa_ishape_of(x);
    int64_t p[2 * OA_MAX_RANK];
    size_t np = 0;
    bool known;
    if (dvar) {
        const oa_attr *a = oa_attrs_find(&ctx->node->attrs, "paddings");
        if (a == NULL || a->type != OA_ATTR_LIST_LIST_INT) {
            return IFAIL(ctx, OA_E_GE_PARAM, "misses attr paddings (list of [before, after] pairs)");
        }
        if (a->u.lli.n > OA_MAX_RANK) {
            return IFAIL(ctx, OA_E_GE_PARAM, "paddings has %zu rows", a->u.lli.n);
        }
        for (size_t i = 0; i < a->u.lli.n; i++) {
            if (a->u.lli.lens[i] != 2) {
                return IFAIL(ctx, OA_E_GE_PARAM, "paddings row %zu has %zu entries", i, a->u.lli.lens[i]);
            }
            p[np++] = a->u.lli.v[i][0];
            p[np++] = a->u.lli.v[i][1];
        }
        known = true;
    } else {
        known = oa_infer_in_ints(ctx, 1, p, OA_ARRAY_SIZE(p), &np);
    }
    if (s.rank < 0 || !known) {
        oa_ishape o = s.rank < 0 ? oa_ishape_unknown() : oa_ishape_any(s.rank);
        oa_infer_set_out(ctx, 0, x->dtype, &o);
        return OA_OK;
    }
    if (np != 2 * (size_t)s.rank) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "paddings has %zu entries for rank %d", np, s.rank);
    }
    bool contiguous = true;
    if (t == OA_OP_PAD_V3) {
        contiguous = oa_node_attr_bool(ctx->node, "paddings_contiguous", true);
    }
    oa_ishape o = s;
    for (int32_t i = 0; i < s.rank; i++) {
        int64_t b = contiguous ? p[2 * i] : p[i];
        int64_t e = contiguous ? p[2 * i + 1] : p[s.rank + i];
        o.d[i] = oa_iv_add_const(s.d[i], b + e);
        if (oa_iv_is_fixed(s.d[i]) && s.d[i].lo + b + e < 0) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "padding %lld/%lld crops dim %d of size %lld below zero", (long long)b,
                         (long long)e, i, (long long)s.d[i].lo);
        }
        const char *mode = oa_node_attr_str(ctx->node, "mode", "constant");
        bool reflect = strcmp(mode, "reflect") == 0 || strcmp(mode, "REFLECT") == 0;
        if (reflect && oa_iv_is_fixed(s.d[i]) && (b >= s.d[i].lo || e >= s.d[i].lo) && (b > 0 || e > 0)) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "reflect padding %lld/%lld needs dim %d larger than the pads (is %lld)",
                         (long long)b, (long long)e, i, (long long)s.d[i].lo);
        }
    }
    oa_infer_set_out(ctx, 0, x->dtype, &o);
    return OA_OK;
}

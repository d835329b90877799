/*
 * Inference of neural-network ops: convolutions, pooling, normalisation,
 * softmax, resize, LSTM, NMS and matrix products.
 *
 * Layout: strides/ksize/dilations are given in the layout's order (N and C
 * entries 1); pads are always [begin0, end0, begin1, end1, ...] over the
 * spatial dims ([top, bottom, left, right] in 2-D). The layout comes from
 * the x desc format (NCHW/NHWC/NCDHW/NDHWC), else the data_format attr,
 * else the op's default.
 *
 * Output size of one spatial dim (in, kernel k, stride s, dilation d,
 * pads pb/pe):
 *   explicit pads:  out = floor((in + pb + pe - (d*(k-1)+1)) / s) + 1
 *                   (ceil instead of floor for ceil_mode pools; then the
 *                   last window must start inside input + begin pad)
 *   SAME:           out = ceil(in / s)
 *   VALID:          out = ceil((in - (d*(k-1)+1) + 1) / s)
 */
#define OA_LOG_MODULE "GE"
#include <string.h>

#include "base/util.h"
#include "graph/infer_internal.h"

typedef struct layout {
    int32_t rank;      /* 4 or 5 */
    int32_t c;         /* channel axis */
    int32_t sp[3];     /* spatial axes */
    int32_t nsp;
} layout;

static layout layout_of(oa_format f, int32_t rank)
{
    layout l;
    memset(&l, 0, sizeof(l));
    l.rank = rank;
    l.nsp = rank - 2;
    if (l.nsp < 0) {
        l.nsp = 0;
    }
    if (l.nsp > 3) {
        l.nsp = 3;
    }
    bool channels_last = (f == OA_FORMAT_NHWC || f == OA_FORMAT_NDHWC);
    l.c = channels_last ? rank - 1 : 1;
    for (int32_t i = 0; i < l.nsp; i++) {
        l.sp[i] = channels_last ? 1 + i : 2 + i;
    }
    return l;
}

static oa_format format_of(const oa_infer_ctx *ctx, const oa_tensor_desc *x, oa_format dflt)
{
    if (x->format == OA_FORMAT_NCHW || x->format == OA_FORMAT_NHWC || x->format == OA_FORMAT_NCDHW ||
        x->format == OA_FORMAT_NDHWC) {
        return x->format;
    }
    const char *df = oa_node_attr_str(ctx->node, "data_format", NULL);
    if (df != NULL) {
        oa_format f;
        if (strcmp(df, "NCL") == 0) {
            return OA_FORMAT_NCHW;
        }
        if (oa_format_from_name(df, &f)) {
            return f;
        }
    }
    return dflt;
}

/* Reads a list attr of exactly n entries, or fills dflt when absent. */
static oa_status list_attr(oa_infer_ctx *ctx, const char *name, size_t n, int64_t dflt, bool required,
                           int64_t *out)
{
    const int64_t *v;
    size_t cnt;
    if (!oa_attrs_get_list_int(&ctx->node->attrs, name, &v, &cnt)) {
        if (required && oa_attrs_find(&ctx->node->attrs, name) == NULL) {
            return IFAIL(ctx, OA_E_GE_PARAM, "misses required attr %s", name);
        }
        for (size_t i = 0; i < n; i++) {
            out[i] = dflt;
        }
        return OA_OK;
    }
    if (cnt != n) {
        return IFAIL(ctx, OA_E_GE_PARAM, "attr %s has %zu entries, expected %zu", name, cnt, n);
    }
    memcpy(out, v, n * sizeof(*out));
    return OA_OK;
}

typedef enum pad_mode { PAD_EXPLICIT, PAD_SAME, PAD_VALID } pad_mode;

static pad_mode pad_mode_of(const oa_node *n, const char *attr_name)
{
    const char *p = oa_node_attr_str(n, attr_name, NULL);
    if (p == NULL) {
        return PAD_EXPLICIT;
    }
    if (strcmp(p, "SAME") == 0 || strcmp(p, "SAME_UPPER") == 0 || strcmp(p, "SAME_LOWER") == 0) {
        return PAD_SAME;
    }
    if (strcmp(p, "VALID") == 0) {
        return PAD_VALID;
    }
    return PAD_EXPLICIT;
}

static oa_iv window_out(oa_infer_ctx *ctx, oa_iv in, int64_t k, int64_t s, int64_t d, int64_t pb, int64_t pe,
                        pad_mode m, bool ceil_mode, oa_status *st)
{
    *st = OA_OK;
    if (k <= 0 || s <= 0 || d <= 0 || pb < 0 || pe < 0) {
        *st = IFAIL(ctx, OA_E_GE_PARAM, "bad window (kernel %lld, stride %lld, dilation %lld, pads %lld/%lld)",
                    (long long)k, (long long)s, (long long)d, (long long)pb, (long long)pe);
        return in;
    }
    int64_t ek = d * (k - 1) + 1;
    if (m == PAD_SAME) {
        return oa_iv_div_const(in, s, true);
    }
    if (m == PAD_VALID) {
        return oa_iv_div_const(oa_iv_add_const(in, 1 - ek), s, true);
    }
    oa_iv span = oa_iv_add_const(in, pb + pe - ek);
    oa_iv out = oa_iv_add_const(oa_iv_div_const(span, s, ceil_mode), 1);
    if (ceil_mode && oa_iv_is_fixed(out) && oa_iv_is_fixed(in) && (out.lo - 1) * s >= in.lo + pb) {
        out = oa_iv_fixed(out.lo - 1);
    }
    if (oa_iv_is_fixed(in) && in.lo + pb + pe < ek) {
        *st = IFAIL(ctx, OA_E_GE_SHAPE, "window %lld is larger than the padded input %lld", (long long)ek,
                    (long long)(in.lo + pb + pe));
    }
    return out;
}

oa_status oa_infer_conv(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 2);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0], *w = ctx->in[1];
    bool is3d = ctx->node->type == OA_OP_CONV3D;
    int32_t rank = is3d ? 5 : 4;
    oa_format fmt = format_of(ctx, x, is3d ? OA_FORMAT_NCDHW : OA_FORMAT_NCHW);
    layout l = layout_of(fmt, rank);
    oa_ishape sx = oa_ishape_of(x), sw = oa_ishape_of(w);
    if (sx.rank >= 0 && sx.rank != rank) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "x must have rank %d, has %d", rank, sx.rank);
    }
    if (sw.rank >= 0 && sw.rank != rank) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "filter must have rank %d, has %d", rank, sw.rank);
    }
    int64_t strides[5], dil[5], pads[6];
    if ((st = list_attr(ctx, "strides", (size_t)rank, 1, true, strides)) != OA_OK ||
        (st = list_attr(ctx, "dilations", (size_t)rank, 1, false, dil)) != OA_OK ||
        (st = list_attr(ctx, "pads", (size_t)(2 * l.nsp), 0, true, pads)) != OA_OK) {
        return st;
    }
    int64_t groups = oa_node_attr_int(ctx->node, "groups", 1);
    if (groups <= 0) {
        return IFAIL(ctx, OA_E_GE_PARAM, "groups must be positive, got %lld", (long long)groups);
    }
    /* Filter layout: OIHW for NCHW-style, HWCN for channels-last or an
     * explicitly HWCN filter. */
    bool hwcn = w->format == OA_FORMAT_HWCN || w->format == OA_FORMAT_DHWCN ||
                ((fmt == OA_FORMAT_NHWC || fmt == OA_FORMAT_NDHWC) && w->format != OA_FORMAT_NCHW &&
                 w->format != OA_FORMAT_NCDHW);
    oa_iv cout = oa_iv_any(), cin_w = oa_iv_any();
    oa_iv k[3] = {oa_iv_any(), oa_iv_any(), oa_iv_any()};
    if (sw.rank == rank) {
        if (hwcn) {
            for (int32_t i = 0; i < l.nsp; i++) {
                k[i] = sw.d[i];
            }
            cin_w = sw.d[rank - 2];
            cout = sw.d[rank - 1];
        } else {
            cout = sw.d[0];
            cin_w = sw.d[1];
            for (int32_t i = 0; i < l.nsp; i++) {
                k[i] = sw.d[2 + i];
            }
        }
    }
    oa_ishape so = oa_ishape_any(rank);
    so.ranged = sx.ranged;
    if (sx.rank == rank) {
        so.d[0] = sx.d[0];
        oa_iv cin = sx.d[l.c];
        if (oa_iv_is_fixed(cin) && oa_iv_is_fixed(cin_w) && cin.lo != cin_w.lo * groups) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "x has %lld channels, filter expects %lld x %lld groups",
                         (long long)cin.lo, (long long)cin_w.lo, (long long)groups);
        }
    }
    so.d[l.c] = cout;
    pad_mode pm = pad_mode_of(ctx->node, "auto_pad");
    if (pm == PAD_EXPLICIT) {
        pm = pad_mode_of(ctx->node, "padding");
    }
    for (int32_t i = 0; i < l.nsp; i++) {
        int32_t a = l.sp[i];
        if (sx.rank != rank || !oa_iv_is_fixed(k[i])) {
            so.d[a] = oa_iv_any();
            continue;
        }
        so.d[a] = window_out(ctx, sx.d[a], k[i].lo, strides[a], dil[a], pads[2 * i], pads[2 * i + 1], pm, false,
                             &st);
        if (st != OA_OK) {
            return st;
        }
    }
    oa_dtype dt = x->dtype == OA_DT_INT8 ? OA_DT_INT32 : x->dtype;
    oa_infer_set_out(ctx, 0, dt, &so);
    return OA_OK;
}

oa_status oa_infer_conv_transpose(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 3);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[1], *w = ctx->in[2];
    const bool is3d = ctx->node->type == OA_OP_CONV3D_TRANSPOSE; /* Conv3DTranspose: NCDHW, 5-entry lists */
    const int32_t rank = is3d ? 5 : 4, nsp = rank - 2;
    oa_format fmt = format_of(ctx, x, is3d ? OA_FORMAT_NCDHW : OA_FORMAT_NCHW);
    layout l = layout_of(fmt, rank);
    oa_ishape sx = oa_ishape_of(x), sw = oa_ishape_of(w);
    if ((sx.rank >= 0 && sx.rank != rank) || (sw.rank >= 0 && sw.rank != rank)) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "x and filter must have rank %d (have %d and %d)", rank, sx.rank, sw.rank);
    }
    int64_t strides[5], dil[5], pads[6], outpad[5];
    if ((st = list_attr(ctx, "strides", (size_t)rank, 1, true, strides)) != OA_OK ||
        (st = list_attr(ctx, "dilations", (size_t)rank, 1, false, dil)) != OA_OK ||
        (st = list_attr(ctx, "pads", (size_t)(2 * nsp), 0, true, pads)) != OA_OK ||
        (st = list_attr(ctx, "output_padding", (size_t)rank, 0, false, outpad)) != OA_OK) {
        return st;
    }
    int64_t groups = oa_node_attr_int(ctx->node, "groups", 1);
    if (groups <= 0) {
        return IFAIL(ctx, OA_E_GE_PARAM, "groups must be positive, got %lld", (long long)groups);
    }
    oa_ishape so = oa_ishape_any(rank);
    so.ranged = sx.ranged;
    /* A non-zero input_size value is the whole output shape. */
    int64_t isz[8];
    size_t n;
    if (oa_infer_in_ints(ctx, 0, isz, 8, &n) && n == (size_t)rank &&
        (isz[0] | isz[1] | isz[2] | isz[3] | (is3d ? isz[4] : 0)) != 0) {
        for (int i = 0; i < rank; i++) {
            so.d[i] = oa_iv_fixed(isz[i]);
        }
        oa_infer_set_out(ctx, 0, x->dtype, &so);
        return OA_OK;
    }
    if (sx.rank == rank) {
        so.d[0] = sx.d[0];
    }
    if (sw.rank == rank) {
        so.d[l.c] = oa_iv_mul(sw.d[1], oa_iv_fixed(groups)); /* filter [C_in, C_out/groups, kh, kw] */
    }
    const int64_t *oshape;
    size_t on;
    bool have_oshape = oa_attrs_get_list_int(&ctx->node->attrs, "output_shape", &oshape, &on) &&
                       on >= (size_t)nsp && (oshape[on - 1] != 0 || oshape[on - 2] != 0);
    pad_mode pm = pad_mode_of(ctx->node, "auto_pad");
    for (int32_t i = 0; i < nsp; i++) {
        int32_t a = l.sp[i];
        if (have_oshape) {
            so.d[a] = oa_iv_fixed(oshape[on - (size_t)nsp + (size_t)i]);
            continue;
        }
        if (sx.rank != rank || sw.rank != rank || !oa_iv_is_fixed(sw.d[2 + i])) {
            continue;
        }
        int64_t kk = sw.d[2 + i].lo, s = strides[a], d = dil[a];
        if (s <= 0 || d <= 0) {
            return IFAIL(ctx, OA_E_GE_PARAM, "bad stride %lld / dilation %lld", (long long)s, (long long)d);
        }
        oa_iv in = sx.d[a];
        if (pm == PAD_SAME) {
            so.d[a] = oa_iv_mul(in, oa_iv_fixed(s));
        } else {
            int64_t pt = pm == PAD_VALID ? 0 : pads[2 * i], pb = pm == PAD_VALID ? 0 : pads[2 * i + 1];
            oa_iv t = oa_iv_mul(oa_iv_add_const(in, -1), oa_iv_fixed(s));
            so.d[a] = oa_iv_add_const(t, d * (kk - 1) + 1 + outpad[a] - pt - pb);
        }
    }
    oa_infer_set_out(ctx, 0, x->dtype == OA_DT_INT8 ? OA_DT_INT32 : x->dtype, &so);
    return OA_OK;
}

oa_status oa_infer_pool(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 1);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0];
    oa_op_type t = ctx->node->type;
    bool tf = (t == OA_OP_AVG_POOL || t == OA_OP_MAX_POOL);
    const char *df = oa_node_attr_str(ctx->node, "data_format", NULL);
    oa_format fmt;
    if (df == NULL || !oa_format_from_name(df, &fmt)) {
        fmt = format_of(ctx, x, tf ? OA_FORMAT_NHWC : OA_FORMAT_NCHW);
    }
    layout l = layout_of(fmt, 4);
    oa_ishape sx = oa_ishape_of(x);
    if (sx.rank >= 0 && sx.rank != 4) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "x must have rank 4, has %d", sx.rank);
    }
    int64_t ksize[4], strides[4], pads[4];
    if ((st = list_attr(ctx, "ksize", 4, 1, true, ksize)) != OA_OK ||
        (st = list_attr(ctx, "strides", 4, 1, true, strides)) != OA_OK ||
        (st = list_attr(ctx, "pads", 4, 0, false, pads)) != OA_OK) {
        return st;
    }
    pad_mode pm = pad_mode_of(ctx->node, tf ? "padding" : "padding_mode");
    bool ceil_mode = oa_node_attr_bool(ctx->node, "ceil_mode", false);
    bool global = oa_node_attr_bool(ctx->node, "global_pooling", false);
    oa_ishape so = sx;
    if (sx.rank == 4) {
        for (int32_t i = 0; i < 2; i++) {
            int32_t a = l.sp[i];
            if (global) {
                so.d[a] = oa_iv_fixed(1);
                continue;
            }
            so.d[a] = window_out(ctx, sx.d[a], ksize[a], strides[a], 1, tf ? 0 : pads[2 * i],
                                 tf ? 0 : pads[2 * i + 1], pm, ceil_mode, &st);
            if (st != OA_OK) {
                return st;
            }
        }
    }
    oa_infer_set_out(ctx, 0, x->dtype, &so);
    return OA_OK;
}

oa_status oa_infer_global_pool(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 1);
    if (st != OA_OK) {
        return st;
    }
    oa_ishape s = oa_ishape_of(ctx->in[0]);
    if (s.rank >= 0 && s.rank < 3) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "x must have rank >= 3, has %d", s.rank);
    }
    bool channels_last = ctx->in[0]->format == OA_FORMAT_NHWC || ctx->in[0]->format == OA_FORMAT_NDHWC;
    for (int32_t i = 1; i < s.rank; i++) {
        bool is_c = channels_last ? i == s.rank - 1 : i == 1;
        if (!is_c) {
            s.d[i] = oa_iv_fixed(1);
        }
    }
    oa_infer_set_out(ctx, 0, ctx->in[0]->dtype, &s);
    return OA_OK;
}

oa_status oa_infer_batch_norm(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 3);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0];
    oa_ishape s = oa_ishape_of(x);
    const char *df = oa_node_attr_str(ctx->node, "data_format", "NHWC");
    bool channels_last = strcmp(df, "NHWC") == 0 || strcmp(df, "NDHWC") == 0;
    oa_ishape c = oa_ishape_any(1);
    if (s.rank >= 2) {
        c.d[0] = channels_last ? s.d[s.rank - 1] : s.d[1];
    }
    oa_ishape sc = oa_ishape_of(ctx->in[1]);
    if (sc.rank == 1 && oa_iv_is_fixed(sc.d[0])) {
        if (oa_iv_is_fixed(c.d[0]) && c.d[0].lo != sc.d[0].lo) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "x has %lld channels but scale has %lld", (long long)c.d[0].lo,
                         (long long)sc.d[0].lo);
        }
        c.d[0] = sc.d[0];
    }
    oa_infer_set_out(ctx, 0, x->dtype, &s);
    for (uint32_t k = 1; k < ctx->num_out; k++) {
        oa_infer_set_out(ctx, k, OA_DT_FLOAT, &c);
    }
    return OA_OK;
}

oa_status oa_infer_layer_norm(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 3);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0];
    oa_ishape s = oa_ishape_of(x), m = s;
    if (s.rank >= 0) {
        int32_t axis;
        st = oa_infer_axis(ctx, oa_node_attr_int(ctx->node, "begin_norm_axis", 0), s.rank == 0 ? 1 : s.rank,
                           "begin_norm_axis", &axis);
        if (st != OA_OK) {
            return st;
        }
        for (int32_t i = axis; i < s.rank; i++) {
            m.d[i] = oa_iv_fixed(1);
        }
    }
    oa_infer_set_out(ctx, 0, x->dtype, &s);
    for (uint32_t k = 1; k < ctx->num_out; k++) {
        oa_infer_set_out(ctx, k, x->dtype, &m);
    }
    return OA_OK;
}

oa_status oa_infer_softmax(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 1);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0];
    oa_ishape s = oa_ishape_of(x);
    const int64_t *axes;
    size_t n;
    if (s.rank > 0 && oa_attrs_get_list_int(&ctx->node->attrs, "axes", &axes, &n)) {
        for (size_t i = 0; i < n; i++) {
            int32_t a;
            if ((st = oa_infer_axis(ctx, axes[i], s.rank, "axis", &a)) != OA_OK) {
                return st;
            }
        }
    }
    oa_dtype dt = x->dtype;
    if (dt == OA_DT_FLOAT16 && oa_node_attr_bool(ctx->node, "half_to_float", false)) {
        dt = OA_DT_FLOAT;
    }
    oa_infer_set_out(ctx, 0, dt, &s);
    return OA_OK;
}

oa_status oa_infer_resize_nn(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 2);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0];
    oa_ishape s = oa_ishape_of(x);
    if (s.rank >= 0 && s.rank != 4) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "x must have rank 4, has %d", s.rank);
    }
    if (s.rank < 0) {
        s = oa_ishape_any(4);
    }
    layout l = layout_of(x->format == OA_FORMAT_NHWC ? OA_FORMAT_NHWC : OA_FORMAT_NCHW, 4);
    int64_t size[2];
    size_t n;
    if (oa_infer_in_ints(ctx, 1, size, 2, &n) && n == 2) {
        if (size[0] <= 0 || size[1] <= 0) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "size [%lld,%lld] must be positive", (long long)size[0],
                         (long long)size[1]);
        }
        s.d[l.sp[0]] = oa_iv_fixed(size[0]);
        s.d[l.sp[1]] = oa_iv_fixed(size[1]);
    } else {
        s.d[l.sp[0]] = oa_iv_any();
        s.d[l.sp[1]] = oa_iv_any();
    }
    oa_dtype dt = ctx->node->type == OA_OP_RESIZE_BILINEAR_V2 ? OA_DT_FLOAT : x->dtype;
    oa_infer_set_out(ctx, 0, dt, &s);
    return OA_OK;
}

oa_status oa_infer_resize(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 1);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0];
    oa_ishape s = oa_ishape_of(x);
    int64_t sizes[OA_MAX_RANK];
    size_t n = 0;
    if (oa_infer_in(ctx, 3) != NULL && oa_infer_in(ctx, 3)->shape.rank == 1 &&
        oa_infer_in(ctx, 3)->shape.dims[0] > 0) {
        if (oa_infer_in_ints(ctx, 3, sizes, OA_MAX_RANK, &n) && s.rank >= 0) {
            if ((int32_t)n != s.rank) {
                return IFAIL(ctx, OA_E_GE_SHAPE, "sizes has %zu entries for rank %d", n, s.rank);
            }
            for (size_t i = 0; i < n; i++) {
                s.d[i] = oa_iv_fixed(sizes[i]);
            }
        } else {
            s = oa_ishape_any(s.rank);
        }
    } else if (oa_infer_in(ctx, 2) != NULL && oa_infer_in(ctx, 2)->value != NULL && s.rank >= 0) {
        const oa_value *v = oa_infer_in(ctx, 2)->value;
        if (v->count != s.rank || !oa_value_all_known(v)) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "scales has %lld entries for rank %d", (long long)v->count, s.rank);
        }
        for (int32_t i = 0; i < s.rank; i++) {
            double sc = oa_value_get_f(v, i);
            if (oa_iv_is_fixed(s.d[i])) {
                s.d[i] = oa_iv_fixed((int64_t)((double)s.d[i].lo * sc));
            } else {
                s.d[i] = oa_iv_any();
            }
        }
    } else {
        s = oa_ishape_any(s.rank);
    }
    oa_infer_set_out(ctx, 0, x->dtype, &s);
    return OA_OK;
}

oa_status oa_infer_lstm(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 3);
    if (st != OA_OK) {
        return st;
    }
    oa_ishape sx = oa_ishape_of(ctx->in[0]), sw = oa_ishape_of(ctx->in[1]), sr = oa_ishape_of(ctx->in[2]);
    if ((sx.rank >= 0 && sx.rank != 3) || (sw.rank >= 0 && sw.rank != 3) || (sr.rank >= 0 && sr.rank != 3)) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "x, w and r must have rank 3 (have %d, %d, %d)", sx.rank, sw.rank, sr.rank);
    }
    oa_iv seq = sx.rank == 3 ? sx.d[0] : oa_iv_any();
    oa_iv batch = sx.rank == 3 ? sx.d[1] : oa_iv_any();
    oa_iv dirs = sw.rank == 3 ? sw.d[0] : oa_iv_any();
    const char *dir = oa_node_attr_str(ctx->node, "direction", "forward");
    if (strcmp(dir, "bidirectional") == 0) {
        dirs = oa_iv_fixed(2);
    } else if (!oa_iv_is_fixed(dirs)) {
        dirs = oa_iv_fixed(1);
    }
    int64_t hs = oa_node_attr_int(ctx->node, "hidden_size", 0);
    oa_iv h = hs > 0 ? oa_iv_fixed(hs) : (sr.rank == 3 ? sr.d[2] : oa_iv_any());
    if (hs > 0 && sr.rank == 3 && oa_iv_is_fixed(sr.d[2]) && sr.d[2].lo != hs) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "hidden_size %lld differs from r's last dim %lld", (long long)hs,
                     (long long)sr.d[2].lo);
    }
    if (oa_node_attr_int(ctx->node, "layout", 0) != 0) {
        return IFAIL(ctx, OA_E_GE_PARAM, "layout=1 (batch first) is not supported");
    }
    oa_ishape y = oa_ishape_any(4), yh = oa_ishape_any(3);
    y.ranged = yh.ranged = sx.ranged;
    y.d[0] = seq;
    y.d[1] = dirs;
    y.d[2] = batch;
    y.d[3] = h;
    yh.d[0] = dirs;
    yh.d[1] = batch;
    yh.d[2] = h;
    oa_dtype dt = ctx->in[0]->dtype;
    oa_infer_set_out(ctx, 0, dt, &y);
    for (uint32_t k = 1; k < ctx->num_out; k++) {
        oa_infer_set_out(ctx, k, dt, &yh);
    }
    return OA_OK;
}

oa_status oa_infer_nms(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 2);
    if (st != OA_OK) {
        return st;
    }
    oa_ishape sb = oa_ishape_of(ctx->in[0]), ss = oa_ishape_of(ctx->in[1]);
    if ((sb.rank >= 0 && sb.rank != 3) || (ss.rank >= 0 && ss.rank != 3)) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "boxes and scores must have rank 3 (have %d and %d)", sb.rank, ss.rank);
    }
    oa_ishape o = oa_ishape_any(2);
    o.d[1] = oa_iv_fixed(3);
    int64_t maxo[1];
    size_t n;
    const bool max_known = oa_infer_in_ints(ctx, 2, maxo, 1, &n) && n == 1;
    if (oa_infer_in(ctx, 2) == NULL || (max_known && maxo[0] <= 0)) {
        o.d[0] = oa_iv_fixed(0); /* no max_output_size, or <= 0: nothing is selected (the kernel's rule) */
    } else if (ss.rank == 3 && oa_ishape_is_static(&ss) && max_known) {
        oa_iv bound = oa_iv_mul(oa_iv_mul(ss.d[0], ss.d[1]), oa_iv_fixed(maxo[0]));
        oa_iv boxes = ss.d[2];
        o.d[0].lo = 0;
        o.d[0].hi = OA_MIN(bound.hi, oa_iv_mul(oa_iv_mul(ss.d[0], ss.d[1]), boxes).hi);
        o.ranged = true;
    } else if (ss.rank == 3 && oa_ishape_is_static(&ss)) {
        /* max_output_size known only at run time: at most every box of every (batch, class) */
        o.d[0].lo = 0;
        o.d[0].hi = oa_iv_mul(oa_iv_mul(ss.d[0], ss.d[1]), ss.d[2]).hi;
        o.ranged = true;
    }
    oa_infer_set_out(ctx, 0, OA_DT_INT32, &o);
    return OA_OK;
}

/* ---- matrix products ---- */

static oa_status check_k(oa_infer_ctx *ctx, oa_iv k1, oa_iv k2)
{
    if (oa_iv_is_fixed(k1) && oa_iv_is_fixed(k2) && k1.lo != k2.lo) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "inner dimensions differ (%lld vs %lld)", (long long)k1.lo,
                     (long long)k2.lo);
    }
    return OA_OK;
}

static oa_dtype mm_dtype(oa_dtype a)
{
    return (a == OA_DT_INT8 || a == OA_DT_INT4) ? OA_DT_INT32 : a;
}

oa_status oa_infer_matmul(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 2);
    if (st != OA_OK) {
        return st;
    }
    oa_ishape a = oa_ishape_of(ctx->in[0]), b = oa_ishape_of(ctx->in[1]);
    if ((a.rank >= 0 && a.rank != 2) || (b.rank >= 0 && b.rank != 2)) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "x1 and x2 must be 2-D (have rank %d and %d)", a.rank, b.rank);
    }
    bool ta = oa_node_attr_bool(ctx->node, "transpose_x1", false);
    bool tb = oa_node_attr_bool(ctx->node, "transpose_x2", false);
    oa_ishape o = oa_ishape_any(2);
    o.ranged = a.ranged || b.ranged;
    if (a.rank == 2) {
        o.d[0] = a.d[ta ? 1 : 0];
    }
    if (b.rank == 2) {
        o.d[1] = b.d[tb ? 0 : 1];
    }
    if (a.rank == 2 && b.rank == 2 && (st = check_k(ctx, a.d[ta ? 0 : 1], b.d[tb ? 1 : 0])) != OA_OK) {
        return st;
    }
    oa_infer_set_out(ctx, 0, mm_dtype(ctx->in[0]->dtype), &o);
    return OA_OK;
}

oa_status oa_infer_gemm(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 2);
    if (st != OA_OK) {
        return st;
    }
    oa_ishape a = oa_ishape_of(ctx->in[0]), b = oa_ishape_of(ctx->in[1]);
    if ((a.rank >= 0 && a.rank != 2) || (b.rank >= 0 && b.rank != 2)) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "a and b must be 2-D (have rank %d and %d)", a.rank, b.rank);
    }
    bool ta = oa_node_attr_bool(ctx->node, "transpose_a", false);
    bool tb = oa_node_attr_bool(ctx->node, "transpose_b", false);
    oa_ishape o = oa_ishape_any(2);
    if (a.rank == 2) {
        o.d[0] = a.d[ta ? 1 : 0];
    }
    if (b.rank == 2) {
        o.d[1] = b.d[tb ? 0 : 1];
    }
    if (a.rank == 2 && b.rank == 2 && (st = check_k(ctx, a.d[ta ? 0 : 1], b.d[tb ? 1 : 0])) != OA_OK) {
        return st;
    }
    oa_infer_set_out(ctx, 0, mm_dtype(ctx->in[0]->dtype), &o);
    return OA_OK;
}

/* numpy matmul: 1-D operands are promoted ([K] -> [1,K] / [K,1]) and the
 * added dim removed again; batch dims broadcast. */
oa_status oa_infer_batch_matmul(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 2);
    if (st != OA_OK) {
        return st;
    }
    oa_ishape a = oa_ishape_of(ctx->in[0]), b = oa_ishape_of(ctx->in[1]);
    oa_dtype dt = mm_dtype(ctx->in[0]->dtype);
    if (a.rank < 0 || b.rank < 0) {
        oa_ishape u = oa_ishape_unknown();
        oa_infer_set_out(ctx, 0, dt, &u);
        return OA_OK;
    }
    if (a.rank == 0 || b.rank == 0) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "operands must have rank >= 1");
    }
    bool adj_a = oa_node_attr_bool(ctx->node, "adj_x1", false);
    bool adj_b = oa_node_attr_bool(ctx->node, "adj_x2", false);
    bool a1 = a.rank == 1, b1 = b.rank == 1;
    if (a1) {
        a.rank = 2;
        a.d[1] = a.d[0];
        a.d[0] = oa_iv_fixed(1);
        adj_a = false;
    }
    if (b1) {
        b.rank = 2;
        b.d[1] = oa_iv_fixed(1);
        adj_b = false;
    }
    oa_iv m = a.d[a.rank - (adj_a ? 1 : 2)], ka = a.d[a.rank - (adj_a ? 2 : 1)];
    oa_iv kb = b.d[b.rank - (adj_b ? 1 : 2)], nn = b.d[b.rank - (adj_b ? 2 : 1)];
    if ((st = check_k(ctx, ka, kb)) != OA_OK) {
        return st;
    }
    oa_ishape ba = a, bb = b, bo;
    ba.rank -= 2;
    bb.rank -= 2;
    if ((st = oa_infer_broadcast(ctx, &ba, &bb, &bo)) != OA_OK) {
        return st;
    }
    if (bo.rank + 2 > OA_MAX_RANK) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "result rank exceeds %d", OA_MAX_RANK);
    }
    oa_ishape o = bo;
    o.ranged = a.ranged || b.ranged;
    if (!a1) {
        o.d[o.rank++] = m;
    }
    if (!b1) {
        o.d[o.rank++] = nn;
    }
    oa_infer_set_out(ctx, 0, dt, &o);
    return OA_OK;
}

/*
 * Aipp (docs/aipp.md "What the .om holds"): the output is the model input
 * as it was before AIPP, attr `input_dims` (-1 at a dynamic batch), its
 * dtype and format kept from the output desc; a 4-D image input (or a 2-D
 * one of dynamic AIPP) gives the batch (batch gears), and under image gears
 * (-1 height and width in input_dims) the height and width.
 */
oa_status oa_infer_aipp(oa_infer_ctx *ctx)
{
    const oa_tensor_desc *x = oa_infer_in(ctx, 0);
    const int64_t *dims = NULL;
    size_t n = 0;
    if (x == NULL || ctx->num_out < 1) {
        return IFAIL(ctx, OA_E_GE_PARAM, "Aipp needs its images input and one output");
    }
    if (!oa_attrs_get_list_int(&ctx->node->attrs, "input_dims", &dims, &n) || n != 4) {
        return IFAIL(ctx, OA_E_GE_PARAM, "Aipp needs a 4-D attr input_dims");
    }
    if (x->dtype != OA_DT_UINT8) {
        return IFAIL(ctx, OA_E_GE_DATATYPE, "images must be DT_UINT8, got %s", oa_dtype_name(x->dtype));
    }
    oa_tensor_desc *o = ctx->out[0];
    o->shape = oa_shape_make(4, dims);
    if (x->shape.rank == 4 || x->shape.rank == 2) { /* [N,H,W,C] or dynamic AIPP under gears [N, bytes] */
        o->shape.dims[0] = x->shape.dims[0];
    }
    const bool nhwc = o->format == OA_FORMAT_NHWC;
    if (x->shape.rank == 4 && (dims[nhwc ? 1 : 2] < 0 || dims[nhwc ? 2 : 3] < 0)) {
        /* image gears: the whole image, no crop or padding, so the output H x W is the image's
         * (an NV12 desc holds 1.5 rows per image row) */
        const oa_attrs *na = NULL;
        int64_t fmt = 0;
        const bool nv12 = oa_attrs_get_named(&ctx->node->attrs, "aipp", &na) &&
                          oa_attrs_get_int(na, "input_format", &fmt) && fmt == 1;
        const int64_t rows = x->shape.dims[1];
        o->shape.dims[nhwc ? 1 : 2] = rows < 0 ? -1 : (nv12 ? rows * 2 / 3 : rows);
        o->shape.dims[nhwc ? 2 : 3] = x->shape.dims[2];
    }
    o->has_range = false;
    o->value = NULL;
    return OA_OK;
}

/*
 * MaxPool3D / AvgPool3D (x [N,C,D,H,W], ksize/strides/dilation 5 entries in
 * NCDHW order, pads [d0,d1,h0,h1,w0,w1]) and MaxPoolWithArgmaxV2 (x 4-D,
 * 4-entry lists, pads [t,b,l,r]; y and argmax (i64) of the same shape).
 * padding_mode CALCULATED / SAME / VALID, ceil_mode as the 2-D pools.
 */
oa_status oa_infer_pool_nd(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 1);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0];
    const bool argmax = ctx->node->type == OA_OP_MAX_POOL_WITH_ARGMAX_V2;
    const int32_t rank = argmax ? 4 : 5;
    oa_ishape sx = oa_ishape_of(x);
    if (sx.rank >= 0 && sx.rank != rank) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "x must have rank %d, has %d", rank, sx.rank);
    }
    int64_t ksize[5], strides[5], dil[5], pads[6];
    const size_t nsp = (size_t)rank - 2;
    if ((st = list_attr(ctx, "ksize", (size_t)rank, 1, true, ksize)) != OA_OK ||
        (st = list_attr(ctx, "strides", (size_t)rank, 1, false, strides)) != OA_OK ||
        (st = list_attr(ctx, "dilation", (size_t)rank, 1, false, dil)) != OA_OK ||
        (st = list_attr(ctx, "pads", 2 * nsp, 0, false, pads)) != OA_OK) {
        return st;
    }
    pad_mode pm = pad_mode_of(ctx->node, "padding_mode");
    bool ceil_mode = oa_node_attr_bool(ctx->node, "ceil_mode", false);
    oa_ishape so = sx;
    if (sx.rank == rank) {
        for (size_t i = 0; i < nsp; i++) {
            size_t a = 2 + i;
            so.d[a] = window_out(ctx, sx.d[a], ksize[a], strides[a], dil[a], pads[2 * i], pads[2 * i + 1], pm,
                                 ceil_mode, &st);
            if (st != OA_OK) {
                return st;
            }
        }
    }
    oa_infer_set_out(ctx, 0, x->dtype, &so);
    if (argmax) {
        oa_infer_set_out(ctx, 1, OA_DT_INT64, &so);
    }
    return OA_OK;
}

/* GridSampler2D: x [N,C,H,W], grid [N,Ho,Wo,2] -> y [N,C,Ho,Wo] of x's dtype. */
oa_status oa_infer_grid_sample(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 2);
    if (st != OA_OK) {
        return st;
    }
    oa_ishape sx = oa_ishape_of(ctx->in[0]), sg = oa_ishape_of(ctx->in[1]);
    if ((sx.rank >= 0 && sx.rank != 4) || (sg.rank >= 0 && sg.rank != 4)) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "x and grid must have rank 4 (have %d and %d)", sx.rank, sg.rank);
    }
    if (sg.rank == 4 && oa_iv_is_fixed(sg.d[3]) && sg.d[3].lo != 2) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "grid's last dim must be 2, is %lld", (long long)sg.d[3].lo);
    }
    oa_ishape so = oa_ishape_any(4);
    so.ranged = sx.ranged || sg.ranged;
    if (sx.rank == 4) {
        so.d[0] = sx.d[0];
        so.d[1] = sx.d[1];
    }
    if (sg.rank == 4) {
        so.d[2] = sg.d[1];
        so.d[3] = sg.d[2];
    }
    oa_infer_set_out(ctx, 0, ctx->in[0]->dtype, &so);
    return OA_OK;
}

/* MatrixDeterminant: x [..., M, M] -> y [...]. */
oa_status oa_infer_det(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 1);
    if (st != OA_OK) {
        return st;
    }
    oa_ishape sx = oa_ishape_of(ctx->in[0]);
    if (sx.rank >= 0 && sx.rank < 2) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "x must have rank >= 2, has %d", sx.rank);
    }
    if (sx.rank >= 2 && oa_iv_is_fixed(sx.d[sx.rank - 1]) && oa_iv_is_fixed(sx.d[sx.rank - 2]) &&
        sx.d[sx.rank - 1].lo != sx.d[sx.rank - 2].lo) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "x's last two dims must be equal (%lld, %lld)",
                     (long long)sx.d[sx.rank - 2].lo, (long long)sx.d[sx.rank - 1].lo);
    }
    oa_ishape so = sx;
    if (sx.rank >= 2) {
        so.rank = sx.rank - 2;
    }
    oa_infer_set_out(ctx, 0, ctx->in[0]->dtype, &so);
    return OA_OK;
}

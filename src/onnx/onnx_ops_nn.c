/*
 * ONNX -> GE mappings of neural-network ops (docs/ge_ir.md "ONNX import"): Conv
 * and ConvTranspose (1-D via Unsqueeze/Squeeze), AveragePool/MaxPool,
 * BatchNormalization, LayerNormalization (the CANN expansion), Resize and
 * Upsample, LSTM, NonMaxSuppression, Gemm and MatMul.
 */
#define OA_LOG_MODULE "GE"
#include <string.h>

#include "base/util.h"
#include "onnx/onnx_internal.h"

/* Marks descs of layout-sensitive slots NCHW (as the CANN plugins do). */
static void set_nchw(oa_tensor_desc *d)
{
    if (d != NULL) {
        d->format = OA_FORMAT_NCHW;
        d->origin_format = OA_FORMAT_NCHW;
    }
}

/* ONNX pads [b0, b1, ..., e0, e1, ...] -> GE [b0, e0, b1, e1, ...]. */
static oa_status ge_pads(onnx_node_ctx *c, const int64_t *pads, size_t np, size_t k, int64_t *out)
{
    if (pads == NULL) {
        for (size_t i = 0; i < 2 * k; i++) {
            out[i] = 0;
        }
        return OA_OK;
    }
    if (np != 2 * k) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "pads has %zu entries, expected %zu", np, 2 * k);
    }
    for (size_t i = 0; i < k; i++) {
        if (pads[i] < 0 || pads[k + i] < 0) {
            return ONNX_FAIL(c, OA_E_PARSE_MODEL, "negative pads are not supported");
        }
        out[2 * i] = pads[i];
        out[2 * i + 1] = pads[k + i];
    }
    return OA_OK;
}

/* List attr of k spatial entries -> [1, 1, v...] (defaults to 1). */
static oa_status spatial_list(onnx_node_ctx *c, const char *name, size_t k, int64_t *out)
{
    const int64_t *v;
    size_t n;
    oa_status st = oa_onnx_attr_ints(c, name, &v, &n);
    if (st != OA_OK) {
        return st;
    }
    if (v != NULL && n != k) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "%s has %zu entries, expected %zu", name, n, k);
    }
    out[0] = out[1] = 1;
    for (size_t i = 0; i < k; i++) {
        if (v && v[i] <= 0) {
            return ONNX_FAIL(c, OA_E_PARSE_MODEL, "%s entry %zu is %lld", name, i, (long long)v[i]);
        }
        out[2 + i] = v ? v[i] : 1;
    }
    return OA_OK;
}

/* Spatial rank of a conv/pool: kernel_shape, else the other list attrs,
 * else the weight's rank when it is a constant. 0 when unknown. */
static size_t spatial_rank(onnx_node_ctx *c, uint32_t weight_input)
{
    static const char *const NAMES[] = {"kernel_shape", "strides", "dilations"};
    for (size_t i = 0; i < OA_ARRAY_SIZE(NAMES); i++) {
        const int64_t *v;
        size_t n;
        if (oa_onnx_attr_ints(c, NAMES[i], &v, &n) == OA_OK && v != NULL) {
            return n;
        }
    }
    const int64_t *pads;
    size_t np;
    if (oa_onnx_attr_ints(c, "pads", &pads, &np) == OA_OK && pads != NULL && np % 2 == 0) {
        return np / 2;
    }
    const onnx_value *w = oa_onnx_input_value(c, weight_input);
    if (w != NULL) {
        const oa_tensor_desc *d = oa_node_output_desc(w->node, w->index);
        if (d->shape.rank >= 3) {
            return (size_t)d->shape.rank - 2;
        }
    }
    return 0;
}

/* Unsqueeze(axes=[axis]) of an input or node output (1-D lifting). */
static oa_status unsqueeze(onnx_node_ctx *c, const char *role, uint32_t input, oa_node *src, int64_t axis,
                           oa_node **out)
{
    oa_status st = oa_onnx_emit(c, OA_OP_UNSQUEEZE, role, 1, 1, out);
    if (st == OA_OK) {
        st = src ? oa_onnx_connect(*out, 0, src, 0) : oa_onnx_connect_input(c, *out, 0, input);
    }
    return st == OA_OK ? oa_node_set_list_int(*out, "axes", &axis, 1) : st;
}

static oa_status squeeze_out(onnx_node_ctx *c, oa_node *src, int64_t axis)
{
    oa_node *sq;
    oa_status st = oa_onnx_emit(c, OA_OP_SQUEEZE, "squeeze", 1, 1, &sq);
    if (st == OA_OK && (st = oa_onnx_connect(sq, 0, src, 0)) == OA_OK &&
        (st = oa_node_set_list_int(sq, "axis", &axis, 1)) == OA_OK) {
        st = oa_onnx_bind_output(c, 0, sq, 0);
    }
    return st;
}

oa_status oa_onnx_op_conv(onnx_node_ctx *c)
{
    size_t k = spatial_rank(c, 1);
    if (k < 1 || k > 3) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "spatial rank %zu is not supported (1-D, 2-D or 3-D)", k);
    }
    bool one_d = k == 1;
    size_t kk = one_d ? 2 : k;
    int64_t strides[5], dil[5], pads[6], group;
    const int64_t *op;
    size_t nop;
    const char *auto_pad;
    oa_status st;
    if ((st = spatial_list(c, "strides", k, strides)) != OA_OK ||
        (st = spatial_list(c, "dilations", k, dil)) != OA_OK ||
        (st = oa_onnx_attr_ints(c, "pads", &op, &nop)) != OA_OK || (st = ge_pads(c, op, nop, k, pads)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "group", 1, &group)) != OA_OK ||
        (st = oa_onnx_attr_str(c, "auto_pad", "NOTSET", &auto_pad)) != OA_OK) {
        return st;
    }
    if (group <= 0) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "group is %lld", (long long)group);
    }
    if (one_d) { /* [1,1,s] -> [1,1,1,s]; pads [b,e] -> [0,0,b,e] */
        strides[3] = strides[2];
        strides[2] = 1;
        dil[3] = dil[2];
        dil[2] = 1;
        pads[2] = pads[0];
        pads[3] = pads[1];
        pads[0] = pads[1] = 0;
    }
    oa_node *x = NULL, *w = NULL, *conv;
    if (one_d && ((st = unsqueeze(c, "x", 0, NULL, 2, &x)) != OA_OK || (st = unsqueeze(c, "w", 1, NULL, 2, &w)) != OA_OK)) {
        return st;
    }
    if ((st = oa_onnx_emit(c, kk == 3 ? OA_OP_CONV3D : OA_OP_CONV2D, "conv", 4, 1, &conv)) != OA_OK) {
        return st;
    }
    st = x ? oa_onnx_connect(conv, 0, x, 0) : oa_onnx_connect_input(c, conv, 0, 0);
    if (st == OA_OK) {
        st = w ? oa_onnx_connect(conv, 1, w, 0) : oa_onnx_connect_input(c, conv, 1, 1);
    }
    if (st == OA_OK && oa_onnx_has_input(c, 2)) {
        st = oa_onnx_connect_input(c, conv, 2, 2);
    }
    size_t r = kk + 2;
    if (st == OA_OK && (st = oa_node_set_list_int(conv, "strides", strides, r)) == OA_OK &&
        (st = oa_node_set_list_int(conv, "pads", pads, 2 * kk)) == OA_OK &&
        (st = oa_node_set_list_int(conv, "dilations", dil, r)) == OA_OK &&
        (st = oa_node_set_int(conv, "groups", group)) == OA_OK &&
        (st = oa_node_set_str(conv, "data_format", kk == 3 ? "NCDHW" : "NCHW")) == OA_OK &&
        (st = oa_node_set_str(conv, "auto_pad", auto_pad)) == OA_OK) {
        st = oa_node_set_int(conv, "offset_x", 0);
    }
    if (st != OA_OK) {
        return st;
    }
    oa_format f = kk == 3 ? OA_FORMAT_NCDHW : OA_FORMAT_NCHW;
    for (uint32_t i = 0; i < 2; i++) {
        oa_tensor_desc *d = oa_node_input_desc(conv, i);
        d->format = d->origin_format = f;
    }
    oa_node_output_desc(conv, 0)->format = oa_node_output_desc(conv, 0)->origin_format = f;
    return one_d ? squeeze_out(c, conv, 2) : oa_onnx_bind_output(c, 0, conv, 0);
}

/* 3-D ConvTranspose -> Conv3DTranspose (NCDHW; 5-entry strides / dilations / output_padding, 6 pads). */
static oa_status conv_transpose_3d(onnx_node_ctx *c)
{
    int64_t strides[5], dil[5], pads[6], outpad[5] = {0, 0, 0, 0, 0}, group, oshape[3] = {0, 0, 0};
    const int64_t *op, *opad, *osh;
    size_t nop, nopad, nosh;
    const char *auto_pad;
    oa_status st;
    if ((st = spatial_list(c, "strides", 3, strides)) != OA_OK ||
        (st = spatial_list(c, "dilations", 3, dil)) != OA_OK ||
        (st = oa_onnx_attr_ints(c, "pads", &op, &nop)) != OA_OK || (st = ge_pads(c, op, nop, 3, pads)) != OA_OK ||
        (st = oa_onnx_attr_ints(c, "output_padding", &opad, &nopad)) != OA_OK ||
        (st = oa_onnx_attr_ints(c, "output_shape", &osh, &nosh)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "group", 1, &group)) != OA_OK ||
        (st = oa_onnx_attr_str(c, "auto_pad", osh ? "SAME_LOWER" : "NOTSET", &auto_pad)) != OA_OK) {
        return st;
    }
    if ((opad && nopad != 3) || (osh && nosh != 3)) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "output_padding/output_shape must have 3 entries");
    }
    for (size_t i = 0; i < 3; i++) {
        outpad[2 + i] = opad ? opad[i] : 0;
        oshape[i] = osh ? osh[i] : 0;
    }
    const int64_t zeros[5] = {0, 0, 0, 0, 0};
    oa_node *isz, *ct;
    if ((st = oa_onnx_const_i64(c, "input_size", zeros, 5, false, &isz)) != OA_OK ||
        (st = oa_onnx_emit(c, OA_OP_CONV3D_TRANSPOSE, "deconv", 5, 1, &ct)) != OA_OK ||
        (st = oa_onnx_connect(ct, 0, isz, 0)) != OA_OK || (st = oa_onnx_connect_input(c, ct, 1, 0)) != OA_OK ||
        (st = oa_onnx_connect_input(c, ct, 2, 1)) != OA_OK ||
        (oa_onnx_has_input(c, 2) && (st = oa_onnx_connect_input(c, ct, 3, 2)) != OA_OK)) {
        return st;
    }
    if ((st = oa_node_set_list_int(ct, "strides", strides, 5)) != OA_OK ||
        (st = oa_node_set_list_int(ct, "pads", pads, 6)) != OA_OK ||
        (st = oa_node_set_list_int(ct, "dilations", dil, 5)) != OA_OK ||
        (st = oa_node_set_list_int(ct, "output_padding", outpad, 5)) != OA_OK ||
        (st = oa_node_set_int(ct, "groups", group)) != OA_OK ||
        (st = oa_node_set_str(ct, "data_format", "NCDHW")) != OA_OK ||
        (st = oa_node_set_str(ct, "auto_pad", auto_pad)) != OA_OK ||
        (st = oa_node_set_list_int(ct, "output_shape", oshape, 3)) != OA_OK) {
        return st;
    }
    for (uint32_t i = 1; i < 3; i++) {
        oa_tensor_desc *d = oa_node_input_desc(ct, i);
        d->format = d->origin_format = OA_FORMAT_NCDHW;
    }
    oa_node_output_desc(ct, 0)->format = oa_node_output_desc(ct, 0)->origin_format = OA_FORMAT_NCDHW;
    return oa_onnx_bind_output(c, 0, ct, 0);
}

oa_status oa_onnx_op_conv_transpose(onnx_node_ctx *c)
{
    size_t k = spatial_rank(c, 1);
    if (k == 3) {
        return conv_transpose_3d(c);
    }
    if (k < 1 || k > 2) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "spatial rank %zu is not supported (1-D, 2-D or 3-D)", k);
    }
    bool one_d = k == 1;
    int64_t strides[4], dil[4], pads[4], outpad[4] = {0, 0, 0, 0}, group, oshape[2] = {0, 0};
    const int64_t *op, *opad, *osh;
    size_t nop, nopad, nosh;
    const char *auto_pad;
    oa_status st;
    if ((st = spatial_list(c, "strides", k, strides)) != OA_OK ||
        (st = spatial_list(c, "dilations", k, dil)) != OA_OK ||
        (st = oa_onnx_attr_ints(c, "pads", &op, &nop)) != OA_OK || (st = ge_pads(c, op, nop, k, pads)) != OA_OK ||
        (st = oa_onnx_attr_ints(c, "output_padding", &opad, &nopad)) != OA_OK ||
        (st = oa_onnx_attr_ints(c, "output_shape", &osh, &nosh)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "group", 1, &group)) != OA_OK ||
        (st = oa_onnx_attr_str(c, "auto_pad", osh ? "SAME_LOWER" : "NOTSET", &auto_pad)) != OA_OK) {
        return st;
    }
    if ((opad && nopad != k) || (osh && nosh != k)) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "output_padding/output_shape must have %zu entries", k);
    }
    for (size_t i = 0; i < k; i++) {
        outpad[2 + i] = opad ? opad[i] : 0;
        oshape[i] = osh ? osh[i] : 0;
    }
    if (one_d) {
        strides[3] = strides[2];
        strides[2] = 1;
        dil[3] = dil[2];
        dil[2] = 1;
        pads[2] = pads[0];
        pads[3] = pads[1];
        pads[0] = pads[1] = 0;
        outpad[3] = outpad[2];
        outpad[2] = 0;
        oshape[1] = oshape[0];
        oshape[0] = osh ? 1 : 0;
    }
    int64_t zeros[4] = {0, 0, 0, 0};
    oa_node *isz, *x = NULL, *w = NULL, *ct;
    if ((st = oa_onnx_const_i64(c, "input_size", zeros, 4, false, &isz)) != OA_OK) {
        return st;
    }
    if (one_d && ((st = unsqueeze(c, "x", 0, NULL, 2, &x)) != OA_OK || (st = unsqueeze(c, "w", 1, NULL, 2, &w)) != OA_OK)) {
        return st;
    }
    if ((st = oa_onnx_emit(c, OA_OP_CONV2D_TRANSPOSE, "deconv", 5, 1, &ct)) != OA_OK ||
        (st = oa_onnx_connect(ct, 0, isz, 0)) != OA_OK) {
        return st;
    }
    st = x ? oa_onnx_connect(ct, 1, x, 0) : oa_onnx_connect_input(c, ct, 1, 0);
    if (st == OA_OK) {
        st = w ? oa_onnx_connect(ct, 2, w, 0) : oa_onnx_connect_input(c, ct, 2, 1);
    }
    if (st == OA_OK && oa_onnx_has_input(c, 2)) {
        st = oa_onnx_connect_input(c, ct, 3, 2);
    }
    if (st == OA_OK && (st = oa_node_set_list_int(ct, "strides", strides, 4)) == OA_OK &&
        (st = oa_node_set_list_int(ct, "pads", pads, 4)) == OA_OK &&
        (st = oa_node_set_list_int(ct, "dilations", dil, 4)) == OA_OK &&
        (st = oa_node_set_list_int(ct, "output_padding", outpad, 4)) == OA_OK &&
        (st = oa_node_set_int(ct, "groups", group)) == OA_OK &&
        (st = oa_node_set_str(ct, "data_format", "NCHW")) == OA_OK &&
        (st = oa_node_set_str(ct, "auto_pad", auto_pad)) == OA_OK) {
        st = oa_node_set_list_int(ct, "output_shape", oshape, 2);
    }
    if (st != OA_OK) {
        return st;
    }
    set_nchw(oa_node_input_desc(ct, 1));
    set_nchw(oa_node_input_desc(ct, 2));
    set_nchw(oa_node_output_desc(ct, 0));
    return one_d ? squeeze_out(c, ct, 2) : oa_onnx_bind_output(c, 0, ct, 0);
}

/* Unsqueeze(axes) of ONNX input 0. */
static oa_status unsqueeze_axes(onnx_node_ctx *c, const int64_t *axes, size_t n, oa_node **out)
{
    oa_status st = oa_onnx_emit(c, OA_OP_UNSQUEEZE, "x", 1, 1, out);
    if (st == OA_OK) {
        st = oa_onnx_connect_input(c, *out, 0, 0);
    }
    return st == OA_OK ? oa_node_set_list_int(*out, "axes", axes, n) : st;
}

/* ONNX output j = Squeeze(axes) of src output idx. */
static oa_status squeeze_bind(onnx_node_ctx *c, uint32_t j, oa_node *src, uint32_t idx, const int64_t *axes, size_t n)
{
    oa_node *sq;
    oa_status st = oa_onnx_emit(c, OA_OP_SQUEEZE, j ? "squeeze_indices" : "squeeze", 1, 1, &sq);
    if (st == OA_OK && (st = oa_onnx_connect(sq, 0, src, idx)) == OA_OK &&
        (st = oa_node_set_list_int(sq, "axis", axes, n)) == OA_OK) {
        st = oa_onnx_bind_output(c, j, sq, 0);
    }
    return st;
}

/*
 * The pools the 2-D kernels do not take: 3-D windows and dilations
 * (MaxPool3D / AvgPool3D on x lifted to 5-D), the Indices output
 * (MaxPoolWithArgmaxV2 on x lifted to 4-D; 1-D or 2-D windows).
 * docs/ge_ir.md "3-D, dilated and argmax pooling".
 */
static oa_status pool_general(onnx_node_ctx *c, bool is_max, size_t k, const int64_t *ks, const int64_t *op,
                              size_t nop, const int64_t *dl, const char *mode, const char *auto_pad, int64_t ceil_mode,
                              int64_t count_include_pad, int64_t storage_order)
{
    const bool argmax = is_max && oa_onnx_has_output(c, 1);
    if (argmax && k > 2) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "the Indices output of a 3-D MaxPool is not supported");
    }
    const size_t r = argmax ? 4 : 5, lift = r - 2 - k; /* leading spatial dims of size 1 added */
    int64_t ksize[5], strides[5], dil[5], pads[6], gp[6], st3[3];
    oa_status st;
    if ((st = spatial_list(c, "strides", k, strides)) != OA_OK || (st = ge_pads(c, op, nop, k, gp)) != OA_OK) {
        return st;
    }
    memcpy(st3, strides + 2, k * sizeof(int64_t));
    for (size_t i = 0; i < r; i++) {
        ksize[i] = strides[i] = dil[i] = 1;
    }
    for (size_t i = 0; i < 2 * (r - 2); i++) {
        pads[i] = 0;
    }
    for (size_t i = 0; i < k; i++) {
        if (ks[i] <= 0 || (dl && dl[i] <= 0)) {
            return ONNX_FAIL(c, OA_E_PARSE_MODEL, "kernel_shape/dilations entry %zu is not positive", i);
        }
        const size_t a = 2 + lift + i;
        ksize[a] = ks[i];
        strides[a] = st3[i];
        dil[a] = dl ? dl[i] : 1;
        pads[2 * (lift + i)] = gp[2 * i];
        pads[2 * (lift + i) + 1] = gp[2 * i + 1];
    }
    const int64_t axes[2] = {2, 3};
    oa_node *x = NULL, *p;
    if (lift > 0 && (st = unsqueeze_axes(c, axes, lift, &x)) != OA_OK) {
        return st;
    }
    oa_op_type t = argmax ? OA_OP_MAX_POOL_WITH_ARGMAX_V2 : is_max ? OA_OP_MAX_POOL_3D : OA_OP_AVG_POOL_3D;
    if ((st = oa_onnx_emit(c, t, "pool", 1, argmax ? 2 : 1, &p)) != OA_OK) {
        return st;
    }
    st = x ? oa_onnx_connect(p, 0, x, 0) : oa_onnx_connect_input(c, p, 0, 0);
    if (st == OA_OK && (st = oa_node_set_list_int(p, "ksize", ksize, r)) == OA_OK &&
        (st = oa_node_set_list_int(p, "strides", strides, r)) == OA_OK &&
        (st = oa_node_set_list_int(p, "dilation", dil, r)) == OA_OK &&
        (st = oa_node_set_list_int(p, "pads", pads, 2 * (r - 2))) == OA_OK &&
        (st = oa_node_set_str(p, "padding_mode", mode)) == OA_OK &&
        (strcmp(auto_pad, "SAME_LOWER") != 0 || (st = oa_node_set_str(p, "auto_pad", auto_pad)) == OA_OK) &&
        (st = oa_node_set_bool(p, "ceil_mode", ceil_mode != 0)) == OA_OK &&
        (st = oa_node_set_str(p, "data_format", argmax ? "NCHW" : "NCDHW")) == OA_OK) {
        if (argmax) {
            if ((st = oa_node_set_int(p, "storage_order", storage_order)) == OA_OK) {
                st = oa_node_set_int(p, "dtype", OA_DT_INT64);
            }
        } else if (!is_max) {
            st = oa_node_set_bool(p, "count_include_pad", count_include_pad != 0);
        }
    }
    if (st != OA_OK) {
        return st;
    }
    oa_format f = argmax ? OA_FORMAT_NCHW : OA_FORMAT_NCDHW;
    oa_node_input_desc(p, 0)->format = oa_node_input_desc(p, 0)->origin_format = f;
    for (uint32_t j = 0; j < (argmax ? 2u : 1u); j++) {
        oa_node_output_desc(p, j)->format = oa_node_output_desc(p, j)->origin_format = f;
    }
    if (lift == 0) {
        st = oa_onnx_bind_output(c, 0, p, 0);
        return st == OA_OK && argmax ? oa_onnx_bind_output(c, 1, p, 1) : st;
    }
    st = squeeze_bind(c, 0, p, 0, axes, lift);
    return st == OA_OK && argmax ? squeeze_bind(c, 1, p, 1, axes, lift) : st;
}

oa_status oa_onnx_op_pool(onnx_node_ctx *c)
{
    bool is_max = c->ge_type == OA_OP_MAX_POOL_V3;
    const int64_t *ks, *op, *dl;
    size_t k, nop, ndl;
    const char *auto_pad;
    int64_t ceil_mode, count_include_pad, storage_order;
    oa_status st;
    if ((st = oa_onnx_attr_ints(c, "kernel_shape", &ks, &k)) != OA_OK ||
        (st = oa_onnx_attr_ints(c, "pads", &op, &nop)) != OA_OK ||
        (st = oa_onnx_attr_ints(c, "dilations", &dl, &ndl)) != OA_OK ||
        (st = oa_onnx_attr_str(c, "auto_pad", "NOTSET", &auto_pad)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "ceil_mode", 0, &ceil_mode)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "count_include_pad", 0, &count_include_pad)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "storage_order", 0, &storage_order)) != OA_OK) {
        return st;
    }
    if (ks == NULL) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "misses required attribute kernel_shape");
    }
    if (k < 1 || k > 3) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "%zu-D pooling is not supported (1-D, 2-D or 3-D)", k);
    }
    if (dl && ndl != k) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "dilations has %zu entries, expected %zu", ndl, k);
    }
    bool general = k == 3 || (is_max && oa_onnx_has_output(c, 1));
    for (size_t i = 0; dl && i < ndl; i++) {
        general = general || dl[i] != 1;
    }
    int64_t ksize[5] = {1, 1, 1, 1, 1}, strides[5], pads[6];
    if ((st = spatial_list(c, "strides", k, strides)) != OA_OK || (st = ge_pads(c, op, nop, k, pads)) != OA_OK) {
        return st;
    }
    for (size_t i = 0; i < k; i++) {
        if (ks[i] <= 0) {
            return ONNX_FAIL(c, OA_E_PARSE_MODEL, "kernel_shape entry %zu is %lld", i, (long long)ks[i]);
        }
        ksize[2 + i] = ks[i];
    }
    bool one_d = k == 1;
    if (one_d) { /* x [N,C,L] -> [N,C,L,1] */
        strides[3] = 1;
        pads[2] = pads[3] = 0;
    }
    const char *mode = "CALCULATED";
    if (strcmp(auto_pad, "SAME_UPPER") == 0 || strcmp(auto_pad, "SAME_LOWER") == 0) {
        mode = "SAME";
    } else if (strcmp(auto_pad, "VALID") == 0) {
        mode = "VALID";
    } else if (strcmp(auto_pad, "NOTSET") != 0) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "auto_pad %s is not valid", auto_pad);
    }
    if (general) {
        return pool_general(c, is_max, k, ks, op, nop, dl, mode, auto_pad, ceil_mode, count_include_pad,
                            storage_order);
    }
    oa_node *x = NULL, *p;
    if (one_d && (st = unsqueeze(c, "x", 0, NULL, 3, &x)) != OA_OK) {
        return st;
    }
    if ((st = oa_onnx_emit(c, (oa_op_type)c->ge_type, "pool", 1, 1, &p)) != OA_OK) {
        return st;
    }
    st = x ? oa_onnx_connect(p, 0, x, 0) : oa_onnx_connect_input(c, p, 0, 0);
    if (st == OA_OK && (st = oa_node_set_list_int(p, "ksize", ksize, 4)) == OA_OK &&
        (st = oa_node_set_list_int(p, "strides", strides, 4)) == OA_OK &&
        (st = oa_node_set_list_int(p, "pads", pads, 4)) == OA_OK &&
        (st = oa_node_set_str(p, "padding_mode", mode)) == OA_OK &&
        (strcmp(auto_pad, "SAME_LOWER") != 0 || (st = oa_node_set_str(p, "auto_pad", auto_pad)) == OA_OK) &&
        (st = oa_node_set_bool(p, "ceil_mode", ceil_mode != 0)) == OA_OK &&
        (st = oa_node_set_str(p, "data_format", "NCHW")) == OA_OK && !is_max) {
        st = oa_node_set_bool(p, "exclusive", count_include_pad == 0);
    }
    if (st != OA_OK) {
        return st;
    }
    set_nchw(oa_node_input_desc(p, 0));
    set_nchw(oa_node_output_desc(p, 0));
    return one_d ? squeeze_out(c, p, 3) : oa_onnx_bind_output(c, 0, p, 0);
}

oa_status oa_onnx_op_batch_norm(onnx_node_ctx *c)
{
    float eps;
    int64_t training;
    oa_node *bn;
    oa_status st;
    if ((st = oa_onnx_attr_float(c, "epsilon", 1e-5f, &eps)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "training_mode", 0, &training)) != OA_OK) {
        return st;
    }
    if (training == 1) {
        return oa_onnx_op_batch_norm_training(c);
    }
    if ((st = oa_onnx_emit(c, OA_OP_BATCH_NORM, "bn", 5, 6, &bn)) != OA_OK) {
        return st;
    }
    for (uint32_t i = 0; i < 5 && st == OA_OK; i++) {
        if (oa_onnx_has_input(c, i)) {
            st = oa_onnx_connect_input(c, bn, i, i);
        }
    }
    if (st == OA_OK && (st = oa_node_set_float(bn, "epsilon", eps)) == OA_OK &&
        (st = oa_node_set_str(bn, "data_format", "NCHW")) == OA_OK &&
        (st = oa_node_set_bool(bn, "is_training", training == 1)) == OA_OK) {
        st = oa_node_set_str(bn, "onnx", "onnx");
    }
    for (uint32_t j = 0; j < 3 && st == OA_OK; j++) {
        st = oa_onnx_bind_output(c, j, bn, j);
    }
    return st;
}

/* CANN's LayerNormalization expansion:
 *
 *   x ─Identity─┬─Shape(i32)──────────────┐
 *               │   gamma ─Identity─ BroadcastTo ─┐
 *               │   beta  ─Identity─ BroadcastTo ─┤
 *               └───────────────── LayerNorm ─────┴─▶ Y
 *                                      ├─ mean ─(Cast f32)──────────▶ Mean
 *                                      └─ variance ─Adds(eps)─Rsqrt─(Cast)─▶ InvStdDev
 */
oa_status oa_onnx_op_layer_norm(onnx_node_ctx *c)
{
    int64_t axis, stash;
    float eps;
    oa_status st;
    if ((st = oa_onnx_attr_int(c, "axis", -1, &axis)) != OA_OK ||
        (st = oa_onnx_attr_float(c, "epsilon", 1e-5f, &eps)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "stash_type", 1, &stash)) != OA_OK) {
        return st;
    }
    if (!oa_onnx_has_input(c, 1)) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "needs the Scale input");
    }
    oa_node *xi, *sh, *ln, *bt[2];
    if ((st = oa_onnx_emit(c, OA_OP_IDENTITY, "x", 1, 1, &xi)) != OA_OK ||
        (st = oa_onnx_connect_input(c, xi, 0, 0)) != OA_OK ||
        (st = oa_onnx_emit(c, OA_OP_SHAPE, "shape", 1, 1, &sh)) != OA_OK ||
        (st = oa_onnx_connect(sh, 0, xi, 0)) != OA_OK || (st = oa_node_set_int(sh, "dtype", OA_DT_INT32)) != OA_OK) {
        return st;
    }
    for (uint32_t i = 0; i < 2; i++) {
        oa_node *src = NULL, *id;
        uint32_t input = i + 1;
        if (!oa_onnx_has_input(c, input)) {
            float zero = 0.0f;
            if ((st = oa_onnx_const_f32(c, "beta", &zero, 1, true, &src)) != OA_OK) {
                return st;
            }
        }
        if ((st = oa_onnx_emit(c, OA_OP_IDENTITY, i ? "beta_id" : "gamma_id", 1, 1, &id)) != OA_OK) {
            return st;
        }
        st = src ? oa_onnx_connect(id, 0, src, 0) : oa_onnx_connect_input(c, id, 0, input);
        if (st != OA_OK || (st = oa_onnx_emit(c, OA_OP_BROADCAST_TO, i ? "beta" : "gamma", 2, 1, &bt[i])) != OA_OK ||
            (st = oa_onnx_connect(bt[i], 0, id, 0)) != OA_OK || (st = oa_onnx_connect(bt[i], 1, sh, 0)) != OA_OK) {
            return st;
        }
    }
    if ((st = oa_onnx_emit(c, OA_OP_LAYER_NORM, "layernorm", 3, 3, &ln)) != OA_OK ||
        (st = oa_onnx_connect(ln, 0, xi, 0)) != OA_OK || (st = oa_onnx_connect(ln, 1, bt[0], 0)) != OA_OK ||
        (st = oa_onnx_connect(ln, 2, bt[1], 0)) != OA_OK ||
        (st = oa_node_set_int(ln, "begin_norm_axis", axis)) != OA_OK ||
        (st = oa_node_set_float(ln, "epsilon", eps)) != OA_OK || (st = oa_onnx_bind_output(c, 0, ln, 0)) != OA_OK) {
        return st;
    }
    for (uint32_t j = 1; j < 3; j++) {
        if (!oa_onnx_has_output(c, j)) {
            continue;
        }
        oa_node *src = ln, *fin;
        uint32_t idx = j;
        if (j == 2) {
            oa_node *adds, *rs;
            if ((st = oa_onnx_emit(c, OA_OP_ADDS, "adds", 1, 1, &adds)) != OA_OK ||
                (st = oa_onnx_connect(adds, 0, ln, 2)) != OA_OK || (st = oa_node_set_float(adds, "value", eps)) != OA_OK ||
                (st = oa_onnx_emit(c, OA_OP_RSQRT, "rsqrt", 1, 1, &rs)) != OA_OK ||
                (st = oa_onnx_connect(rs, 0, adds, 0)) != OA_OK) {
                return st;
            }
            src = rs;
            idx = 0;
        }
        if (stash != 0) {
            st = oa_onnx_emit(c, OA_OP_CAST, j == 1 ? "mean_cast" : "rstd_cast", 1, 1, &fin);
            if (st == OA_OK) {
                st = oa_node_set_int(fin, "dst_type", OA_DT_FLOAT);
            }
        } else {
            st = oa_onnx_emit(c, OA_OP_IDENTITY, j == 1 ? "mean_id" : "rstd_id", 1, 1, &fin);
        }
        if (st != OA_OK || (st = oa_onnx_connect(fin, 0, src, idx)) != OA_OK ||
            (st = oa_onnx_bind_output(c, j, fin, 0)) != OA_OK) {
            return st;
        }
    }
    return OA_OK;
}

/* Output-size vector (i32) of a Resize: Cast(sizes), or
 * Cast(Mul(Cast(Shape(x), f32), scales), i32). */
static oa_status resize_sizes(onnx_node_ctx *c, uint32_t sizes_in, uint32_t scales_in, oa_node *scales_node,
                              oa_node **out)
{
    oa_status st;
    oa_node *cast;
    if (sizes_in != UINT32_MAX) {
        if ((st = oa_onnx_emit(c, OA_OP_CAST, "sizes_cast", 1, 1, &cast)) != OA_OK ||
            (st = oa_onnx_connect_input(c, cast, 0, sizes_in)) != OA_OK) {
            return st;
        }
    } else {
        oa_node *sh, *f, *mul;
        if ((st = oa_onnx_emit(c, OA_OP_SHAPE, "shape", 1, 1, &sh)) != OA_OK ||
            (st = oa_onnx_connect_input(c, sh, 0, 0)) != OA_OK || (st = oa_node_set_int(sh, "dtype", OA_DT_INT64)) != OA_OK ||
            (st = oa_onnx_emit(c, OA_OP_CAST, "shape_cast", 1, 1, &f)) != OA_OK ||
            (st = oa_onnx_connect(f, 0, sh, 0)) != OA_OK || (st = oa_node_set_int(f, "dst_type", OA_DT_FLOAT)) != OA_OK ||
            (st = oa_onnx_emit(c, OA_OP_MUL, "mul", 2, 1, &mul)) != OA_OK ||
            (st = oa_onnx_connect(mul, 0, f, 0)) != OA_OK) {
            return st;
        }
        st = scales_node ? oa_onnx_connect(mul, 1, scales_node, 0) : oa_onnx_connect_input(c, mul, 1, scales_in);
        if (st != OA_OK || (st = oa_onnx_emit(c, OA_OP_CAST, "sizes_cast", 1, 1, &cast)) != OA_OK ||
            (st = oa_onnx_connect(cast, 0, mul, 0)) != OA_OK) {
            return st;
        }
    }
    if ((st = oa_node_set_int(cast, "dst_type", OA_DT_INT32)) == OA_OK) {
        *out = cast;
    }
    return st;
}

/* Common tail of Resize/Upsample. roi/scales are ONNX input indices or
 * UINT32_MAX; scales_node overrides the scales input (Upsample-7 attr).
 * nearest_mode: the rounding of a nearest resize (Upsample and Resize-10:
 * floor). A nearest resize is CANN's ResizeNearestNeighborV2; its TF flags
 * give asymmetric + floor only, so the node also carries the ONNX
 * coordinate_transformation_mode and nearest_mode, which the binding applies. */
static oa_status emit_resize(onnx_node_ctx *c, const char *mode, const char *ctm, const char *nearest_mode,
                             uint32_t roi, uint32_t scales, oa_node *scales_node, uint32_t sizes)
{
    oa_node *size_vec, *r;
    oa_status st = resize_sizes(c, sizes, scales, scales_node, &size_vec);
    if (st != OA_OK) {
        return st;
    }
    if (strcmp(mode, "nearest") == 0) {
        int64_t two = 2;
        oa_node *ko, *ksz, *sl;
        if ((st = oa_onnx_const_i32(c, "offsets", &two, 1, true, &ko)) != OA_OK ||
            (st = oa_onnx_const_i32(c, "size", &two, 1, true, &ksz)) != OA_OK ||
            (st = oa_onnx_emit(c, OA_OP_SLICE, "slice", 3, 1, &sl)) != OA_OK ||
            (st = oa_onnx_connect(sl, 0, size_vec, 0)) != OA_OK || (st = oa_onnx_connect(sl, 1, ko, 0)) != OA_OK ||
            (st = oa_onnx_connect(sl, 2, ksz, 0)) != OA_OK ||
            (st = oa_onnx_emit(c, OA_OP_RESIZE_NEAREST_NEIGHBOR_V2, "resize", 2, 1, &r)) != OA_OK ||
            (st = oa_onnx_connect_input(c, r, 0, 0)) != OA_OK || (st = oa_onnx_connect(r, 1, sl, 0)) != OA_OK) {
            return st;
        }
        bool half = strcmp(ctm, "half_pixel") == 0 || strcmp(ctm, "pytorch_half_pixel") == 0;
        if ((st = oa_node_set_bool(r, "half_pixel_centers", half)) != OA_OK ||
            (st = oa_node_set_bool(r, "align_corners", strcmp(ctm, "align_corners") == 0)) != OA_OK ||
            (st = oa_node_set_str(r, "coordinate_transformation_mode", ctm)) != OA_OK ||
            (st = oa_node_set_str(r, "nearest_mode", nearest_mode)) != OA_OK) {
            return st;
        }
        /* roi/scales only order the graph (control inputs), as in CANN. */
        uint32_t ctl[2] = {roi, scales};
        for (int i = 0; i < 2; i++) {
            const onnx_value *v = ctl[i] != UINT32_MAX ? oa_onnx_input_value(c, ctl[i]) : NULL;
            if (v != NULL && (st = oa_node_add_control_input(r, v->node)) != OA_OK) {
                return st;
            }
        }
        set_nchw(oa_node_input_desc(r, 0));
        set_nchw(oa_node_output_desc(r, 0));
        return oa_onnx_bind_output(c, 0, r, 0);
    }
    if ((st = oa_onnx_emit(c, OA_OP_RESIZE, "resize", 4, 1, &r)) != OA_OK ||
        (st = oa_onnx_connect_input(c, r, 0, 0)) != OA_OK) {
        return st;
    }
    oa_node *empty[2] = {NULL, NULL};
    uint32_t in[2] = {roi, scales};
    for (uint32_t i = 0; i < 2; i++) {
        if (i == 1 && scales_node != NULL) {
            st = oa_onnx_connect(r, 2, scales_node, 0);
        } else if (in[i] != UINT32_MAX && oa_onnx_has_input(c, in[i])) {
            st = oa_onnx_connect_input(c, r, i + 1, in[i]);
        } else if ((st = oa_onnx_const_f32(c, i ? "scales" : "roi", NULL, 0, false, &empty[i])) == OA_OK) {
            st = oa_onnx_connect(r, i + 1, empty[i], 0);
        }
        if (st != OA_OK) {
            return st;
        }
    }
    float cubic_a, extrap;
    int64_t exclude;
    if ((st = oa_onnx_connect(r, 3, size_vec, 0)) != OA_OK || (st = oa_node_set_str(r, "mode", mode)) != OA_OK ||
        (st = oa_node_set_str(r, "coordinate_transformation_mode", ctm)) != OA_OK ||
        (st = oa_node_set_str(r, "resize_original_type", "onnx_resize")) != OA_OK ||
        (st = oa_onnx_attr_float(c, "cubic_coeff_a", -0.75f, &cubic_a)) != OA_OK ||
        (st = oa_onnx_attr_float(c, "extrapolation_value", 0.0f, &extrap)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "exclude_outside", 0, &exclude)) != OA_OK ||
        (st = oa_node_set_str(r, "nearest_mode", nearest_mode)) != OA_OK ||
        (st = oa_node_set_float(r, "cubic_coeff_a", cubic_a)) != OA_OK ||
        (st = oa_node_set_float(r, "extrapolation_value", extrap)) != OA_OK ||
        (st = oa_node_set_int(r, "exclude_outside", exclude)) != OA_OK) {
        return st;
    }
    return oa_onnx_bind_output(c, 0, r, 0);
}

oa_status oa_onnx_op_resize(onnx_node_ctx *c)
{
    const char *mode, *ctm, *nearest_mode = "floor";
    oa_status st;
    if ((st = oa_onnx_attr_str(c, "mode", "nearest", &mode)) != OA_OK ||
        (st = oa_onnx_attr_str(c, "coordinate_transformation_mode", c->opset == 10 ? "asymmetric" : "half_pixel",
                               &ctm)) != OA_OK ||
        (c->opset > 10 &&
         (st = oa_onnx_attr_str(c, "nearest_mode", "round_prefer_floor", &nearest_mode)) != OA_OK)) {
        return st;
    }
    if (strcmp(mode, "nearest") != 0 && strcmp(mode, "linear") != 0 && strcmp(mode, "cubic") != 0) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "mode %s is not supported", mode);
    }
    if (oa_onnx_attr(c, "antialias") || oa_onnx_attr(c, "axes") || oa_onnx_attr(c, "keep_aspect_ratio_policy")) {
        OA_LOGW("ONNX Resize %s: antialias/axes/keep_aspect_ratio_policy are ignored", c->name);
    }
    if (c->opset == 10) {
        if (!oa_onnx_has_input(c, 1)) {
            return ONNX_FAIL(c, OA_E_PARSE_MODEL, "needs the scales input");
        }
        return emit_resize(c, mode, ctm, nearest_mode, UINT32_MAX, 1, NULL, UINT32_MAX);
    }
    bool has_sizes = oa_onnx_has_input(c, 3), has_scales = oa_onnx_has_input(c, 2);
    if (!has_sizes && !has_scales) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "needs scales or sizes");
    }
    return emit_resize(c, mode, ctm, nearest_mode, 1, has_scales ? 2 : UINT32_MAX, NULL, has_sizes ? 3 : UINT32_MAX);
}

oa_status oa_onnx_op_upsample(onnx_node_ctx *c)
{
    const char *mode;
    oa_status st = oa_onnx_attr_str(c, "mode", "nearest", &mode);
    if (st != OA_OK) {
        return st;
    }
    if (strcmp(mode, "bilinear") == 0) {
        mode = "linear";
    }
    if (strcmp(mode, "nearest") != 0 && strcmp(mode, "linear") != 0) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "mode %s is not supported", mode);
    }
    oa_node *ks = NULL;
    if (c->opset < 9) {
        const float *sc;
        size_t n;
        if ((st = oa_onnx_attr_floats(c, "scales", &sc, &n)) != OA_OK) {
            return st;
        }
        if (sc == NULL || n == 0) {
            return ONNX_FAIL(c, OA_E_PARSE_MODEL, "needs the scales attribute");
        }
        if ((st = oa_onnx_const_f32(c, "scales", sc, n, false, &ks)) != OA_OK) {
            return st;
        }
    } else if (!oa_onnx_has_input(c, 1)) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "needs the scales input");
    }
    return emit_resize(c, mode, "asymmetric", "floor", UINT32_MAX, ks ? UINT32_MAX : 1, ks, UINT32_MAX);
}

/* Transpose(perm) of src:idx (src NULL: ONNX input idx). */
static oa_status transpose_of(onnx_node_ctx *c, const char *role, oa_node *src, uint32_t idx, const int64_t *perm,
                              size_t n, oa_node **out)
{
    oa_node *k;
    oa_status st = oa_onnx_const_i32(c, role, perm, n, false, &k);
    if (st == OA_OK && (st = oa_onnx_emit(c, OA_OP_TRANSPOSE, role, 2, 1, out)) == OA_OK) {
        st = src ? oa_onnx_connect(*out, 0, src, idx) : oa_onnx_connect_input(c, *out, 0, idx);
    }
    return st == OA_OK ? oa_onnx_connect(*out, 1, k, 0) : st;
}

/*
 * LSTM, GRU, RNN -> CommonLSTM / CommonGRU / CommonRNN (ONNX inputs and
 * outputs positional). layout=1 (batch first) is layout 0 between
 * Transposes: X [B,T,I] and the initial states [B,D,H] in, Y [T,D,B,H] ->
 * [B,T,D,H] and the final states out.
 */
oa_status oa_onnx_op_lstm(onnx_node_ctx *c)
{
    const bool lstm = c->ge_type == OA_OP_COMMON_LSTM, gru = c->ge_type == OA_OP_COMMON_GRU;
    const uint32_t nin = lstm ? 8 : 6, nout = lstm ? 3 : 2;
    const char *direction;
    int64_t hidden, layout, input_forget = 0, lbr = 0;
    oa_status st;
    if ((st = oa_onnx_attr_str(c, "direction", "forward", &direction)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "hidden_size", 0, &hidden)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "layout", 0, &layout)) != OA_OK ||
        (lstm && (st = oa_onnx_attr_int(c, "input_forget", 0, &input_forget)) != OA_OK) ||
        (gru && (st = oa_onnx_attr_int(c, "linear_before_reset", 0, &lbr)) != OA_OK)) {
        return st;
    }
    if (layout != 0 && layout != 1) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "layout=%lld is not valid", (long long)layout);
    }
    if (strcmp(direction, "forward") != 0 && strcmp(direction, "reverse") != 0 &&
        strcmp(direction, "bidirectional") != 0) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "direction %s is not valid", direction);
    }
    if (c->np->n_input < 3 || c->np->n_input > nin) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "has %zu inputs (3 to %u expected)", c->np->n_input, nin);
    }
    oa_node *n;
    if ((st = oa_onnx_emit(c, (oa_op_type)c->ge_type, lstm ? "lstm" : gru ? "gru" : "rnn", nin, nout, &n)) != OA_OK) {
        return st;
    }
    static const int64_t p3[3] = {1, 0, 2}, p4[4] = {2, 0, 1, 3};
    for (uint32_t i = 0; i < nin && st == OA_OK; i++) {
        if (!oa_onnx_has_input(c, i)) {
            continue;
        }
        oa_node *t;
        if (layout == 1 && (i == 0 || i == 5 || i == 6)) { /* X, initial_h, initial_c: batch first -> second */
            if ((st = transpose_of(c, i == 0 ? "x_tm" : i == 5 ? "h0_tm" : "c0_tm", NULL, i, p3, 3, &t)) == OA_OK) {
                st = oa_onnx_connect(n, i, t, 0);
            }
        } else {
            st = oa_onnx_connect_input(c, n, i, i);
        }
    }
    if (st == OA_OK && (st = oa_node_set_str(n, "direction", direction)) == OA_OK &&
        (st = oa_node_set_int(n, "hidden_size", hidden)) == OA_OK) {
        st = lstm ? oa_node_set_int(n, "input_forget", input_forget)
                  : gru ? oa_node_set_int(n, "linear_before_reset", lbr) : OA_OK;
    }
    const Onnx__AttributeProto *clip = oa_onnx_attr(c, "clip");
    if (st == OA_OK && clip) {
        float cv;
        if ((st = oa_onnx_attr_float(c, "clip", -1.0f, &cv)) == OA_OK) {
            st = oa_node_set_float(n, "clip", cv);
        }
    }
    const Onnx__AttributeProto *acts = oa_onnx_attr(c, "activations");
    if (st == OA_OK && acts && acts->n_strings > 0) {
        const char *names[16];
        if (acts->n_strings > OA_ARRAY_SIZE(names)) {
            return ONNX_FAIL(c, OA_E_PARSE_MODEL, "has %zu activations", acts->n_strings);
        }
        for (size_t i = 0; i < acts->n_strings; i++) {
            names[i] = oa_arena_strndup(oa_graph_arena(c->sc->g), (const char *)acts->strings[i].data,
                                        acts->strings[i].len);
            if (names[i] == NULL) {
                return OA_E_NOMEM;
            }
        }
        st = oa_node_set_list_str(n, "activations", names, acts->n_strings);
    }
    const float *fa;
    size_t nfa;
    if (st == OA_OK && (st = oa_onnx_attr_floats(c, "activation_alpha", &fa, &nfa)) == OA_OK && fa) {
        st = oa_node_set_list_float(n, "activation_alpha", fa, nfa);
    }
    if (st == OA_OK && (st = oa_onnx_attr_floats(c, "activation_beta", &fa, &nfa)) == OA_OK && fa) {
        st = oa_node_set_list_float(n, "activation_beta", fa, nfa);
    }
    for (uint32_t j = 0; j < nout && st == OA_OK; j++) {
        if (layout == 1 && oa_onnx_has_output(c, j)) {
            oa_node *t;
            if ((st = transpose_of(c, j == 0 ? "y_bm" : j == 1 ? "yh_bm" : "yc_bm", n, j, j == 0 ? p4 : p3,
                                   j == 0 ? 4 : 3, &t)) == OA_OK) {
                st = oa_onnx_bind_output(c, j, t, 0);
            }
        } else {
            st = oa_onnx_bind_output(c, j, n, j);
        }
    }
    return st;
}

oa_status oa_onnx_op_nms(onnx_node_ctx *c)
{
    int64_t cpb;
    oa_node *n, *cast;
    oa_status st = oa_onnx_attr_int(c, "center_point_box", 0, &cpb);
    if (st == OA_OK) {
        st = oa_onnx_emit(c, OA_OP_NON_MAX_SUPPRESSION_V6, "nms", 6, 1, &n);
    }
    for (uint32_t i = 0; i < 5 && st == OA_OK; i++) {
        if (oa_onnx_has_input(c, i)) {
            st = oa_onnx_connect_input(c, n, i, i);
        }
    }
    if (st == OA_OK && (st = oa_node_set_int(n, "center_point_box", cpb)) == OA_OK &&
        (st = oa_onnx_emit(c, OA_OP_CAST, "cast", 1, 1, &cast)) == OA_OK &&
        (st = oa_onnx_connect(cast, 0, n, 0)) == OA_OK &&
        (st = oa_node_set_int(cast, "dst_type", OA_DT_INT64)) == OA_OK) {
        st = oa_onnx_bind_output(c, 0, cast, 0);
    }
    return st;
}

oa_status oa_onnx_op_gemm(onnx_node_ctx *c)
{
    int64_t ta, tb;
    float alpha, beta;
    oa_status st;
    if ((st = oa_onnx_attr_int(c, "transA", 0, &ta)) != OA_OK || (st = oa_onnx_attr_int(c, "transB", 0, &tb)) != OA_OK ||
        (st = oa_onnx_attr_float(c, "alpha", 1.0f, &alpha)) != OA_OK ||
        (st = oa_onnx_attr_float(c, "beta", 1.0f, &beta)) != OA_OK) {
        return st;
    }
    oa_node *mm, *res;
    if ((st = oa_onnx_emit(c, OA_OP_MAT_MUL_V2, "matmul", 4, 1, &mm)) != OA_OK ||
        (st = oa_onnx_connect_input(c, mm, 0, 0)) != OA_OK || (st = oa_onnx_connect_input(c, mm, 1, 1)) != OA_OK ||
        (st = oa_node_set_bool(mm, "transpose_x1", ta != 0)) != OA_OK ||
        (st = oa_node_set_bool(mm, "transpose_x2", tb != 0)) != OA_OK) {
        return st;
    }
    res = mm;
    if (alpha != 1.0f) {
        oa_node *m;
        if ((st = oa_onnx_emit(c, OA_OP_MULS, "alpha", 1, 1, &m)) != OA_OK || (st = oa_onnx_connect(m, 0, mm, 0)) != OA_OK ||
            (st = oa_node_set_float(m, "value", alpha)) != OA_OK) {
            return st;
        }
        res = m;
    }
    if (oa_onnx_has_input(c, 2)) {
        oa_node *cnode = NULL, *add;
        if (beta != 1.0f) {
            if ((st = oa_onnx_emit(c, OA_OP_MULS, "beta", 1, 1, &cnode)) != OA_OK ||
                (st = oa_onnx_connect_input(c, cnode, 0, 2)) != OA_OK ||
                (st = oa_node_set_float(cnode, "value", beta)) != OA_OK) {
                return st;
            }
        }
        if ((st = oa_onnx_emit(c, OA_OP_ADD, "add", 2, 1, &add)) != OA_OK ||
            (st = oa_onnx_connect(add, 0, res, 0)) != OA_OK) {
            return st;
        }
        st = cnode ? oa_onnx_connect(add, 1, cnode, 0) : oa_onnx_connect_input(c, add, 1, 2);
        if (st != OA_OK) {
            return st;
        }
        res = add;
    }
    return oa_onnx_bind_output(c, 0, res, 0);
}

oa_status oa_onnx_op_matmul(onnx_node_ctx *c)
{
    oa_node *mm;
    oa_status st;
    if ((st = oa_onnx_emit(c, OA_OP_BATCH_MAT_MUL_V2, "matmul", 4, 1, &mm)) != OA_OK ||
        (st = oa_onnx_connect_input(c, mm, 0, 0)) != OA_OK || (st = oa_onnx_connect_input(c, mm, 1, 1)) != OA_OK ||
        (st = oa_node_set_bool(mm, "adj_x1", false)) != OA_OK || (st = oa_node_set_bool(mm, "adj_x2", false)) != OA_OK) {
        return st;
    }
    set_nchw(oa_node_output_desc(mm, 0));
    return oa_onnx_bind_output(c, 0, mm, 0);
}

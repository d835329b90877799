/*
 * Inference of the int8 ops the QDQ rewrite creates (op_defs.inc "int8";
 * docs/int8.md "IR ops"): quantized activations are u8/s8 [N, H, W, C].
 */
#include "graph/infer_internal.h"

static oa_status q_dtype(oa_infer_ctx *ctx, oa_dtype *dt)
{
    const int64_t v = oa_node_attr_int(ctx->node, "dst_type", -1);
    if (v != OA_DT_UINT8 && v != OA_DT_INT8) {
        return IFAIL(ctx, OA_E_GE_PARAM, "attr dst_type must be uint8 (4) or int8 (2), is %lld", (long long)v);
    }
    *dt = (oa_dtype)v;
    return OA_OK;
}

static oa_status rank4(oa_infer_ctx *ctx, const oa_ishape *s)
{
    if (s->rank >= 0 && s->rank != 4) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "x must have rank 4, has %d", s->rank);
    }
    return OA_OK;
}

/* OaQuantize / OaDequantize: rank 4 moves between NCHW and NHWC, rank 2 keeps its dims */
static oa_status rank_2_or_4(oa_infer_ctx *ctx, const oa_ishape *s)
{
    if (s->rank >= 0 && s->rank != 4 && s->rank != 2) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "x must have rank 2 or 4, has %d", s->rank);
    }
    return OA_OK;
}

/* OaQuantize: f32 [N, C, H, W] -> [N, H, W, C]; [M, K] -> [M, K] */
oa_status oa_infer_oa_quantize(oa_infer_ctx *ctx)
{
    oa_dtype dt;
    oa_status st = oa_infer_need_inputs(ctx, 1);
    oa_ishape sx = st == OA_OK ? oa_ishape_of(ctx->in[0]) : oa_ishape_unknown();
    if (st != OA_OK || (st = q_dtype(ctx, &dt)) != OA_OK || (st = rank_2_or_4(ctx, &sx)) != OA_OK) {
        return st;
    }
    oa_ishape so = sx;
    if (sx.rank == 4) {
        so.d[1] = sx.d[2], so.d[2] = sx.d[3], so.d[3] = sx.d[1];
    }
    oa_infer_set_out(ctx, 0, dt, &so);
    return OA_OK;
}

/* OaDequantize: [N, H, W, C] -> f32 [N, C, H, W]; [M, K] -> [M, K] */
oa_status oa_infer_oa_dequantize(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 1);
    oa_ishape sx = st == OA_OK ? oa_ishape_of(ctx->in[0]) : oa_ishape_unknown();
    if (st != OA_OK || (st = rank_2_or_4(ctx, &sx)) != OA_OK) {
        return st;
    }
    oa_ishape so = sx;
    if (sx.rank == 4) {
        so.d[1] = sx.d[3], so.d[2] = sx.d[1], so.d[3] = sx.d[2];
    }
    oa_infer_set_out(ctx, 0, OA_DT_FLOAT, &so);
    return OA_OK;
}

/* OaQuantAdd: x1, x2 (same dims) -> y */
oa_status oa_infer_oa_quant_add(oa_infer_ctx *ctx)
{
    oa_dtype dt;
    oa_status st = oa_infer_need_inputs(ctx, 2);
    if (st != OA_OK || (st = q_dtype(ctx, &dt)) != OA_OK) {
        return st;
    }
    oa_ishape sx = oa_ishape_of(ctx->in[0]);
    oa_infer_set_out(ctx, 0, dt, &sx);
    return OA_OK;
}

static oa_iv conv_dim(oa_iv in, int64_t k, int64_t s, int64_t d, int64_t p0, int64_t p1)
{
    if (!oa_iv_is_fixed(in)) {
        return oa_iv_any();
    }
    const int64_t ek = d * (k - 1) + 1, t = in.lo + p0 + p1;
    return oa_iv_fixed(t < ek ? 0 : (t - ek) / s + 1);
}

static oa_status pair_attr(oa_infer_ctx *ctx, const char *name, size_t n, int64_t lo, int64_t *out)
{
    const int64_t *v;
    size_t cnt;
    oa_status st = oa_node_require_list_int(ctx->node, name, &v, &cnt);
    if (st != OA_OK) {
        return st;
    }
    if (cnt != n) {
        return IFAIL(ctx, OA_E_GE_PARAM, "attr %s has %zu entries, expected %zu", name, cnt, n);
    }
    for (size_t i = 0; i < n; i++) {
        if (v[i] < lo || v[i] > (INT64_C(1) << 24)) { /* bounded: the dims arithmetic cannot overflow */
            return IFAIL(ctx, OA_E_GE_PARAM, "attr %s[%zu] is %lld", name, i, (long long)v[i]);
        }
        out[i] = v[i];
    }
    return OA_OK;
}

/* OaQuantConv2D: x [N, H, W, C], filter [O, C/groups, kh, kw] -> y [N, OH, OW, O] */
oa_status oa_infer_oa_quant_conv(oa_infer_ctx *ctx)
{
    oa_dtype dt;
    int64_t s[2], d[2], p[4];
    oa_status st = oa_infer_need_inputs(ctx, 3);
    if (st != OA_OK || (st = q_dtype(ctx, &dt)) != OA_OK || (st = pair_attr(ctx, "strides", 2, 1, s)) != OA_OK ||
        (st = pair_attr(ctx, "dilations", 2, 1, d)) != OA_OK || (st = pair_attr(ctx, "pads", 4, 0, p)) != OA_OK) {
        return st;
    }
    oa_ishape sx = oa_ishape_of(ctx->in[0]), sw = oa_ishape_of(ctx->in[1]);
    if ((st = rank4(ctx, &sx)) != OA_OK) {
        return st;
    }
    if (sw.rank != 4 || !oa_ishape_is_static(&sw)) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "the filter must be a static rank-4 tensor");
    }
    oa_ishape so = oa_ishape_any(4);
    so.ranged = sx.ranged;
    so.d[3] = sw.d[0];
    if (sx.rank == 4) {
        so.d[0] = sx.d[0];
        so.d[1] = conv_dim(sx.d[1], sw.d[2].lo, s[0], d[0], p[0], p[1]);
        so.d[2] = conv_dim(sx.d[2], sw.d[3].lo, s[1], d[1], p[2], p[3]);
    }
    oa_infer_set_out(ctx, 0, dt, &so);
    return OA_OK;
}

/* OaQuantMaxPool: [N, H, W, C] -> [N, OH, OW, C], same dtype */
oa_status oa_infer_oa_quant_max_pool(oa_infer_ctx *ctx)
{
    int64_t k[2], s[2], p[4];
    oa_status st = oa_infer_need_inputs(ctx, 1);
    if (st != OA_OK || (st = pair_attr(ctx, "ksize", 2, 1, k)) != OA_OK ||
        (st = pair_attr(ctx, "strides", 2, 1, s)) != OA_OK || (st = pair_attr(ctx, "pads", 4, 0, p)) != OA_OK) {
        return st;
    }
    oa_ishape sx = oa_ishape_of(ctx->in[0]);
    if ((st = rank4(ctx, &sx)) != OA_OK) {
        return st;
    }
    oa_ishape so = sx;
    if (sx.rank == 4) {
        so.d[1] = conv_dim(sx.d[1], k[0], s[0], 1, p[0], p[1]);
        so.d[2] = conv_dim(sx.d[2], k[1], s[1], 1, p[2], p[3]);
    }
    oa_infer_set_out(ctx, 0, ctx->in[0]->dtype, &so);
    return OA_OK;
}

/* OaQuantGlobalAvgPool: [N, H, W, C] -> [N, 1, 1, C] */
oa_status oa_infer_oa_quant_gap(oa_infer_ctx *ctx)
{
    oa_dtype dt;
    oa_status st = oa_infer_need_inputs(ctx, 1);
    oa_ishape sx = st == OA_OK ? oa_ishape_of(ctx->in[0]) : oa_ishape_unknown();
    if (st != OA_OK || (st = q_dtype(ctx, &dt)) != OA_OK || (st = rank4(ctx, &sx)) != OA_OK) {
        return st;
    }
    oa_ishape so = sx;
    if (sx.rank == 4) {
        so.d[1] = so.d[2] = oa_iv_fixed(1);
    }
    oa_infer_set_out(ctx, 0, dt, &so);
    return OA_OK;
}

/* OaQuantMatMul: x [M, K], w [K, N] or [N, K] (transpose_x2) -> f32 [M, N] */
oa_status oa_infer_oa_quant_matmul(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 3);
    if (st != OA_OK) {
        return st;
    }
    oa_ishape sx = oa_ishape_of(ctx->in[0]), sw = oa_ishape_of(ctx->in[1]);
    if ((sx.rank >= 0 && sx.rank != 2) || sw.rank != 2 || !oa_ishape_is_static(&sw)) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "x must have rank 2 and the weight be a static rank-2 tensor");
    }
    const bool tb = oa_node_attr_bool(ctx->node, "transpose_x2", false);
    oa_ishape so = oa_ishape_any(2);
    so.ranged = sx.ranged;
    so.d[0] = sx.rank == 2 ? sx.d[0] : oa_iv_any();
    so.d[1] = tb ? sw.d[0] : sw.d[1];
    oa_infer_set_out(ctx, 0, OA_DT_FLOAT, &so);
    return OA_OK;
}

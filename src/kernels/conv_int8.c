/*
 * The int8 family (OA_KOP_QUANT, kernels.h "int8"; docs/int8.md): the
 * kernels behind the QDQ rewrite of the compiler (pass_qdq.c).
 *
 * Quantized activations are u8/s8 in NHWC order, the layout oneDNN's int8
 * convolutions read and write without a reorder. QUANTIZE and DEQUANTIZE
 * convert at the edges of an int8 region (with the NCHW <-> NHWC
 * transposition); CONV is one oneDNN int8 convolution primitive (u8/s8
 * source, s8 weights packed once at create, f32 bias in accumulator units,
 * per-output-channel output scales, source and destination zero points,
 * an eltwise relu post-op); ADD is the residual add of two quantized
 * tensors, computed with the float operations of the QDQ definition
 * ((q - zp) * scale, add, relu, / scale, round half to even, + zp,
 * saturate), so it equals the reference decomposition bit for bit;
 * MAXPOOL and GAP are the pools between two quantized tensors.
 *
 * CONV splits its output rows over the thread pool (one primitive per band,
 * N == 1 and above the split threshold); QUANTIZE, DEQUANTIZE, ADD and
 * MAXPOOL split their pixels or rows (qrun_ctx); MATMUL and GAP run on the
 * calling thread.
 */
#include <math.h>
#include <stdlib.h>

#include "kernels/kernel_internal.h"
#include "kernels/onednn.h"

/* round half to even for |v| < 2^22 (the operands are clamped first);
 * the file is compiled with -ffp-contract=off so that every product and
 * sum rounds as the reference's separate Mul/Add/RealDiv kernels do */
static inline float rne(float v)
{
    const float magic = 12582912.0f; /* 1.5 * 2^23 */
    return (v + magic) - magic;
}

/* saturate(round(v) + zp) into [lo, hi]: v is clamped to just outside the
 * range first (same integer result, and |v| stays small for rne) */
static inline float quant1f(float v, float zp, float lo, float hi)
{
    const float vlo = lo - zp - 1.0f, vhi = hi - zp + 1.0f;
    v = v > vlo ? v : vlo; /* NaN -> vlo */
    v = v < vhi ? v : vhi;
    float r = rne(v) + zp;
    r = r < lo ? lo : r;
    return r > hi ? hi : r;
}

static inline int32_t quant1(float v, float zp, float lo, float hi)
{
    return (int32_t)quant1f(v, zp, lo, hi);
}

static bool is_q8(oa_kdtype dt)
{
    return dt == OA_KDT_U8 || dt == OA_KDT_I8;
}

static void q_range(oa_kdtype dt, float *lo, float *hi)
{
    *lo = dt == OA_KDT_U8 ? 0.0f : -128.0f;
    *hi = dt == OA_KDT_U8 ? 255.0f : 127.0f;
}

static bool zp_fits(int32_t zp, oa_kdtype dt)
{
    return dt == OA_KDT_U8 ? (zp >= 0 && zp <= 255) : (zp >= -128 && zp <= 127);
}

static bool scale_ok(float s)
{
    return isfinite(s) && s > 0.0f;
}

/*
 * Per-output-channel scales of an int8 conv / matmul from the filter scales (one, or one per channel): the
 * accumulator's scale x_scale * w_scale (as the QDQ reference multiplies the dequantized operands) divided by
 * y_scale (1 for a float output), and the float bias in accumulator units (conv: oneDNN adds it before the scale)
 * or left in real units (matmul: added after). *oscale is the caller's to free; the bias goes to *bias.
 */
static oa_status acc_scales(const char *what, const oa_ktensor *wsc, const oa_ktensor *b, float x_scale,
                            float y_scale, bool bias_in_acc, int64_t n, float **oscale, float **bias)
{
    const float *wscale = wsc->data;
    const bool per_ch = oa_ktensor_numel(wsc) != 1;
    float *os = malloc(sizeof(float) * (size_t)n);
    *bias = calloc((size_t)n, sizeof(float));
    if (os == NULL || *bias == NULL) {
        free(os);
        return OA_FAIL(OA_E_NOMEM, "%s: out of memory", what);
    }
    for (int64_t o = 0; o < n; o++) {
        const float ws = wscale[per_ch ? o : 0];
        if (!scale_ok(ws)) {
            free(os);
            return OA_FAIL(OA_E_PARAM, "%s: filter scale %lld is %g (must be positive)", what, (long long)o, (double)ws);
        }
        const float acc_scale = x_scale * ws;
        os[o] = acc_scale / y_scale;
        const float bv = b != NULL ? ((const float *)b->data)[o] : 0.0f;
        (*bias)[o] = bias_in_acc ? bv / acc_scale : bv;
    }
    *oscale = os;
    return OA_OK;
}

/* ------------------------------------------------------------------ infer */

static int64_t conv_out(int64_t in, int64_t k, int64_t s, int64_t d, int64_t p0, int64_t p1)
{
    const int64_t ek = d * (k - 1) + 1;
    return in + p0 + p1 < ek ? -1 : (in + p0 + p1 - ek) / s + 1;
}

static oa_status quant_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    const oa_kquant_params *p = params;
    if (p == NULL || n_out != 1 || n_in < 1) {
        return OA_FAIL(OA_E_PARAM, "int8 op: needs params, inputs and one output");
    }
    const oa_ktensor *x = &in[0];
    const bool two_ok = p->op == OA_KQ_QUANTIZE || p->op == OA_KQ_DEQUANTIZE || p->op == OA_KQ_MATMUL;
    if ((x->rank != 4 && !(two_ok && x->rank == 2)) || (p->op == OA_KQ_MATMUL && x->rank != 2) ||
        x->layout != OA_KLAYOUT_PLAIN) {
        return OA_FAIL(OA_E_PARAM, "int8 op: x must be a plain rank-4 (or, for quantize, dequantize and matmul, "
                                   "rank-2) tensor (rank %d)", x->rank);
    }
    oa_kdtype ydt = out[0].dtype;
    int64_t d[4];
    if (x->rank == 2 && p->op != OA_KQ_MATMUL) {
        const bool q = p->op == OA_KQ_QUANTIZE;
        if ((q && (x->dtype != OA_KDT_F32 || !is_q8(ydt) || !scale_ok(p->y_scale) || !zp_fits(p->y_zp, ydt))) ||
            (!q && (!is_q8(x->dtype) || !scale_ok(p->x_scale) || !zp_fits(p->x_zp, x->dtype)))) {
            return OA_FAIL(OA_E_PARAM, "int8 %s: bad dtypes, scale or zero point", q ? "quantize" : "dequantize");
        }
        oa_ktensor_set(&out[0], q ? ydt : OA_KDT_F32, 2, x->dims);
        return OA_OK;
    }
    switch (p->op) {
    case OA_KQ_MATMUL: {
        const oa_ktensor *w = n_in > 1 ? &in[1] : NULL, *ws = n_in > 2 ? &in[2] : NULL;
        const oa_ktensor *b = oa_kt_opt(n_in, in, 3);
        const int64_t k = w ? w->dims[p->transpose_b ? 1 : 0] : -1, nn = w ? w->dims[p->transpose_b ? 0 : 1] : -1;
        if (w == NULL || ws == NULL || n_in > 4 || w->dtype != OA_KDT_I8 || w->rank != 2 || !is_q8(x->dtype) ||
            x->dims[1] != k || ws->dtype != OA_KDT_F32 ||
            (oa_ktensor_numel(ws) != nn && oa_ktensor_numel(ws) != 1) ||
            (b != NULL && (b->dtype != OA_KDT_F32 || oa_ktensor_numel(b) != nn)) || !scale_ok(p->x_scale) ||
            !zp_fits(p->x_zp, x->dtype)) {
            return OA_FAIL(OA_E_PARAM, "int8 matmul: needs u8/s8 x [M, K], s8 w [K, N] ([N, K] transposed), f32 "
                                       "w_scale [N] or [1], optional f32 bias [N], a positive scale and a zero "
                                       "point in range");
        }
        const int64_t yd[2] = {x->dims[0], nn};
        oa_ktensor_set(&out[0], OA_KDT_F32, 2, yd);
        return OA_OK;
    }
    case OA_KQ_QUANTIZE:
        if (x->dtype != OA_KDT_F32 || !is_q8(ydt) || !scale_ok(p->y_scale) || !zp_fits(p->y_zp, ydt)) {
            return OA_FAIL(OA_E_PARAM, "int8 quantize: needs f32 x, a u8/s8 output, a positive scale and a zero "
                                       "point in range (x %s, y %s, scale %g, zp %d)",
                           oa_kdtype_name(x->dtype), oa_kdtype_name(ydt), (double)p->y_scale, (int)p->y_zp);
        }
        d[0] = x->dims[0], d[1] = x->dims[2], d[2] = x->dims[3], d[3] = x->dims[1];
        break;
    case OA_KQ_DEQUANTIZE:
        if (!is_q8(x->dtype) || !scale_ok(p->x_scale) || !zp_fits(p->x_zp, x->dtype)) {
            return OA_FAIL(OA_E_PARAM, "int8 dequantize: needs u8/s8 x, a positive scale and a zero point in range");
        }
        ydt = OA_KDT_F32;
        d[0] = x->dims[0], d[1] = x->dims[3], d[2] = x->dims[1], d[3] = x->dims[2];
        break;
    case OA_KQ_ADD:
        if (n_in != 2 || !is_q8(x->dtype) || in[1].dtype != x->dtype || in[1].rank != 4 ||
            memcmp(in[1].dims, x->dims, sizeof(int64_t) * 4) != 0 || !is_q8(ydt) || !scale_ok(p->x_scale) ||
            !scale_ok(p->b_scale) || !scale_ok(p->y_scale) || !zp_fits(p->x_zp, x->dtype) ||
            !zp_fits(p->b_zp, x->dtype) || !zp_fits(p->y_zp, ydt)) {
            return OA_FAIL(OA_E_PARAM, "int8 add: needs two u8/s8 inputs of the same dims and dtype, a u8/s8 "
                                       "output, positive scales and zero points in range");
        }
        memcpy(d, x->dims, sizeof d);
        break;
    case OA_KQ_CONV: {
        const oa_ktensor *w = n_in > 1 ? &in[1] : NULL;
        const oa_ktensor *ws = n_in > 2 ? &in[2] : NULL;
        const oa_ktensor *b = oa_kt_opt(n_in, in, 3);
        const int64_t g = p->groups <= 0 ? 1 : p->groups;
        for (int k = 0; k < 4; k++) {
            if (p->pads[k] > (INT64_C(1) << 24) || (k < 2 && (p->strides[k] > (INT64_C(1) << 24) ||
                                                              p->dilations[k] > (INT64_C(1) << 24)))) {
                return OA_FAIL(OA_E_PARAM, "int8 conv: strides, dilations or pads above 2^24");
            }
        }
        if (w != NULL && (g > x->dims[3] || w->rank != 4)) {
            return OA_FAIL(OA_E_PARAM, "int8 conv: %lld groups for %lld channels", (long long)g, (long long)x->dims[3]);
        }
        if (w == NULL || ws == NULL || n_in > 4 || w->dtype != OA_KDT_I8 || w->rank != 4 || !is_q8(x->dtype) ||
            !is_q8(ydt) || ws->dtype != OA_KDT_F32 || x->dims[3] != w->dims[1] * g || w->dims[0] % g != 0 ||
            (oa_ktensor_numel(ws) != w->dims[0] && oa_ktensor_numel(ws) != 1) ||
            (b != NULL && (b->dtype != OA_KDT_F32 || oa_ktensor_numel(b) != w->dims[0])) ||
            !scale_ok(p->x_scale) || !scale_ok(p->y_scale) || !zp_fits(p->x_zp, x->dtype) ||
            !zp_fits(p->y_zp, ydt)) {
            return OA_FAIL(OA_E_PARAM, "int8 conv: needs u8/s8 NHWC x, s8 filter [O, C/groups, kh, kw], f32 "
                                       "w_scale [O] or [1], optional f32 bias [O], a u8/s8 output, positive "
                                       "scales and zero points in range");
        }
        for (int k = 0; k < 2; k++) {
            if (p->strides[k] < 1 || p->dilations[k] < 0 || p->pads[2 * k] < 0 || p->pads[2 * k + 1] < 0) {
                return OA_FAIL(OA_E_PARAM, "int8 conv: bad strides, dilations or pads");
            }
        }
        const int64_t dh = p->dilations[0] ? p->dilations[0] : 1, dw = p->dilations[1] ? p->dilations[1] : 1;
        d[0] = x->dims[0];
        d[1] = conv_out(x->dims[1], w->dims[2], p->strides[0], dh, p->pads[0], p->pads[1]);
        d[2] = conv_out(x->dims[2], w->dims[3], p->strides[1], dw, p->pads[2], p->pads[3]);
        d[3] = w->dims[0];
        if (d[1] < 1 || d[2] < 1) {
            return OA_FAIL(OA_E_PARAM, "int8 conv: the kernel is larger than the padded input");
        }
        break;
    }
    case OA_KQ_MAXPOOL:
        for (int k = 0; k < 2; k++) {
            if (p->ksize[k] < 1 || p->strides[k] < 1 || p->ksize[k] > (INT64_C(1) << 24) ||
                p->strides[k] > (INT64_C(1) << 24) || p->pads[2 * k] < 0 || p->pads[2 * k + 1] < 0 ||
                p->pads[2 * k] >= p->ksize[k] || p->pads[2 * k + 1] >= p->ksize[k]) {
                return OA_FAIL(OA_E_PARAM, "int8 max pool: bad window, strides or pads (pads must be below the window)");
            }
        }
        if (!is_q8(x->dtype)) {
            return OA_FAIL(OA_E_PARAM, "int8 max pool: x must be u8/s8, is %s", oa_kdtype_name(x->dtype));
        }
        ydt = x->dtype;
        d[0] = x->dims[0], d[3] = x->dims[3];
        d[1] = conv_out(x->dims[1], p->ksize[0], p->strides[0], 1, p->pads[0], p->pads[1]);
        d[2] = conv_out(x->dims[2], p->ksize[1], p->strides[1], 1, p->pads[2], p->pads[3]);
        if (d[1] < 1 || d[2] < 1) {
            return OA_FAIL(OA_E_PARAM, "int8 max pool: the window is larger than the padded input");
        }
        break;
    case OA_KQ_GAP:
        if (!is_q8(x->dtype) || !is_q8(ydt) || !scale_ok(p->x_scale) || !scale_ok(p->y_scale) ||
            !zp_fits(p->x_zp, x->dtype) || !zp_fits(p->y_zp, ydt) || x->dims[1] * x->dims[2] < 1 ||
            x->dims[1] * x->dims[2] > (INT64_C(1) << 23)) {
            return OA_FAIL(OA_E_PARAM, "int8 global average pool: needs u8/s8 x with 1 to 2^23 pixels, a u8/s8 "
                                       "output, positive scales and zero points in range");
        }
        d[0] = x->dims[0], d[1] = d[2] = 1, d[3] = x->dims[3];
        break;
    default: return OA_FAIL(OA_E_PARAM, "int8 op: unknown sub-op %d", (int)p->op);
    }
    oa_ktensor_set(&out[0], ydt, 4, d);
    return OA_OK;
}

/* ------------------------------------------------------------------- conv */

/* a band of output rows run by its own primitive (threads, N == 1) */
typedef struct qslice {
    dnnl_primitive_t prim;
    dnnl_memory_desc_t src_md, dst_md, pad_md;
    size_t in_off, out_off; /* bytes into x and y */
} qslice;

typedef struct qconv_state {
    dnnl_primitive_t prim;
    dnnl_memory_desc_t src_md, wei_md, bias_md, dst_md, pad_md, zp_md;
    void *wei;   /* packed s8 weights */
    float *bias; /* accumulator units */
    int32_t zp_src, zp_dst;
    bool shift_src;   /* s8 x run as x + 128 (u8) in the workspace */
    size_t pad_bytes; /* oneDNN's scratchpad(s), at the start of the workspace */
    int64_t x_bytes;
    int n_slices;      /* > 1: the rows are split over slices[], each with slice_pad bytes of scratch */
    qslice *slices;
    size_t slice_pad;
} qconv_state;

static dnnl_data_type_t dnnl_dt(oa_kdtype dt)
{
    return dt == OA_KDT_U8 ? dnnl_u8 : dnnl_s8;
}

static void qconv_free(qconv_state *s)
{
    if (s != NULL) {
        for (int i = 0; i < s->n_slices; i++) {
            dnnl_primitive_destroy(s->slices[i].prim);
        }
        free(s->slices);
        dnnl_primitive_destroy(s->prim);
        oa_kderived_put(s->wei);
        free(s->bias);
        free(s);
    }
}

/*
 * Splits the output rows into oa_kernels_slices() bands, one primitive each (same attr and weights:
 * a band whose primitive would want another weight layout abandons the split). Only for N == 1 (the
 * bands are then dense NHWC tensors) and convolutions above the split threshold. Called inside
 * oa_dnnl_enter(); failures leave the single primitive in use.
 */
static void qconv_slices(oa_kop *op, qconv_state *s, const_dnnl_primitive_attr_t attr,
                         const dnnl_memory_desc_t *wany, dnnl_data_type_t src_dt, const int64_t *strides,
                         const int64_t *dil)
{
    const oa_kquant_params *p = &op->params.quant;
    const oa_ktensor *x = &op->in[0], *w = &op->in[1], *y = &op->out[0];
    const int64_t oh = y->dims[1];
    const double flops = 2.0 * (double)oh * (double)y->dims[2] * (double)y->dims[3] * (double)w->dims[1] *
                         (double)w->dims[2] * (double)w->dims[3];
    int n = oa_kernels_slices();
    n = (int64_t)n > oh ? (int)oh : n;
    if (n < 2 || x->dims[0] != 1 || flops < oa_kernels_split_flops()) {
        return;
    }
    qslice *sl = calloc((size_t)n, sizeof(*sl));
    if (sl == NULL) {
        return;
    }
    const int64_t kh_eff = ((p->dilations[0] ? p->dilations[0] : 1) * (w->dims[2] - 1)) + 1;
    const size_t es = 1; /* u8 / s8 */
    size_t pad_max = 0;
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        const int64_t r0 = oh * i / n, r1 = oh * (i + 1) / n;
        const int64_t start = r0 * p->strides[0] - p->pads[0], end = (r1 - 1) * p->strides[0] - p->pads[0] + kh_eff;
        const int64_t in0 = start < 0 ? 0 : start, in1 = end > x->dims[1] ? x->dims[1] : end;
        const dnnl_dims_t sd = {1, x->dims[3], in1 - in0, x->dims[2]}, dd = {1, y->dims[3], r1 - r0, y->dims[2]};
        const dnnl_dims_t pl = {in0 - start, p->pads[2]}, pr = {end - in1, p->pads[3]};
        dnnl_convolution_desc_t cd;
        dnnl_primitive_desc_t pd = NULL;
        ok = in1 > in0 &&
             dnnl_memory_desc_init_by_tag(&sl[i].src_md, 4, sd, src_dt, dnnl_nhwc) == dnnl_success &&
             dnnl_memory_desc_init_by_tag(&sl[i].dst_md, 4, dd, dnnl_dt(y->dtype), dnnl_nhwc) == dnnl_success &&
             dnnl_dilated_convolution_forward_desc_init(&cd, dnnl_forward_inference, dnnl_convolution_direct,
                                                        &sl[i].src_md, wany, &s->bias_md, &sl[i].dst_md, strides,
                                                        dil, pl, pr) == dnnl_success &&
             dnnl_primitive_desc_create(&pd, &cd, attr, oa_dnnl_engine(), NULL) == dnnl_success &&
             dnnl_memory_desc_equal(dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0), &s->wei_md) &&
             dnnl_primitive_create(&sl[i].prim, pd) == dnnl_success;
        if (ok) {
            sl[i].pad_md = *dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
            const size_t pb = dnnl_memory_desc_get_size(&sl[i].pad_md);
            pad_max = pb > pad_max ? pb : pad_max;
            sl[i].in_off = (size_t)(in0 * x->dims[2] * x->dims[3]) * es;
            sl[i].out_off = (size_t)(r0 * y->dims[2] * y->dims[3]) * es;
        }
        dnnl_primitive_desc_destroy(pd);
    }
    if (!ok) {
        for (int i = 0; i < n; i++) {
            dnnl_primitive_destroy(sl[i].prim);
        }
        free(sl);
        return;
    }
    s->slices = sl;
    s->n_slices = n;
    s->slice_pad = (pad_max + 63) / 64 * 64;
}

/* What the chosen primitive needs: its implementation's name on op, the packed-weight and scratchpad layouts. */
static void take_primitive_layouts(qconv_state *s, oa_kop *op, const_dnnl_primitive_desc_t pd)
{
    const char *impl = NULL;
    if (dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl) == dnnl_success && impl != NULL) {
        op->impl = strstr(impl, "amx")    ? "onednn int8 (amx)"
                   : strstr(impl, "vnni") ? "onednn int8 (vnni)"
                                          : "onednn int8";
    }
    s->wei_md = *dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
    s->pad_md = *dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
}

/* The packed weights: w (read as wplain) reordered into the primitive's layout, a derived array of w, so that the
 * operators of a stable filter (a dynamic model's shapes) share one (the form: the packed layout and how w is read:
 * `how` tells conv from matmul and their groups or transpose). */
static oa_status pack_weights(qconv_state *s, const oa_ktensor *w, const dnnl_memory_desc_t *wplain, int64_t how)
{
    int64_t form[64];
    size_t nf = oa_dnnl_md_form(&s->wei_md, form, 60);
    oa_ktensor src = *w;
    src.stable = w->stable && nf > 0; /* a layout the form cannot describe stays private */
    form[nf++] = how;
    oa_dnnl_reorder_job rj = {wplain, w->data, &s->wei_md};
    void *wei = NULL;
    oa_status st = oa_kderived_get(&src, form, nf * sizeof(int64_t), dnnl_memory_desc_get_size(&s->wei_md),
                                   oa_dnnl_reorder_fill, &rj, &wei);
    s->wei = wei;
    return st;
}

static oa_status qconv_build(oa_kop *op, qconv_state *s)
{
    const oa_kquant_params *p = &op->params.quant;
    const oa_ktensor *x = &op->in[0], *w = &op->in[1], *wsc = &op->in[2], *y = &op->out[0];
    const oa_ktensor *b = oa_kt_opt(op->n_in, op->in, 3);
    if (w->data == NULL || wsc->data == NULL || (b != NULL && b->data == NULL)) {
        return OA_FAIL(OA_E_PARAM, "int8 conv: the filter, its scales and the bias must be constant");
    }
    if (!oa_dnnl_enabled()) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "int8 conv: needs oneDNN (OA_KERNELS_ONEDNN=0)");
    }
    const int64_t g = p->groups <= 0 ? 1 : p->groups, oc = w->dims[0];
    float *oscale = NULL;
    oa_status sst = acc_scales("int8 conv", wsc, b, p->x_scale, p->y_scale, true, oc, &oscale, &s->bias);
    if (sst != OA_OK) {
        return sst;
    }
    s->zp_src = p->x_zp;
    s->zp_dst = p->y_zp;
    const dnnl_dims_t src_d = {x->dims[0], x->dims[3], x->dims[1], x->dims[2]};
    const dnnl_dims_t dst_d = {y->dims[0], y->dims[3], y->dims[1], y->dims[2]};
    dnnl_dims_t w_d;
    int w_nd;
    if (g == 1) {
        w_nd = 4;
        memcpy(w_d, w->dims, sizeof(int64_t) * 4);
    } else {
        w_nd = 5;
        w_d[0] = g, w_d[1] = oc / g, w_d[2] = w->dims[1], w_d[3] = w->dims[2], w_d[4] = w->dims[3];
    }
    const dnnl_dims_t bias_d = {oc}, one = {1};
    const dnnl_dims_t strides = {p->strides[0], p->strides[1]};
    const dnnl_dims_t dil = {(p->dilations[0] ? p->dilations[0] : 1) - 1, (p->dilations[1] ? p->dilations[1] : 1) - 1};
    const dnnl_dims_t pl = {p->pads[0], p->pads[2]}, pr = {p->pads[1], p->pads[3]};
    dnnl_memory_desc_t wany, wplain;
    oa_status st = OA_OK;
    dnnl_primitive_attr_t attr = NULL;
    dnnl_post_ops_t po = NULL;
    dnnl_primitive_desc_t pd = NULL;
    const int32_t rt = DNNL_RUNTIME_S32_VAL;
    int saved = oa_dnnl_enter();
    dnnl_data_type_t src_dt = dnnl_dt(x->dtype);
    for (int attempt = 0; attempt < 2 && st == OA_OK; attempt++) {
        if (dnnl_memory_desc_init_by_tag(&s->src_md, 4, src_d, src_dt, dnnl_nhwc) != dnnl_success ||
            dnnl_memory_desc_init_by_tag(&s->dst_md, 4, dst_d, dnnl_dt(y->dtype), dnnl_nhwc) != dnnl_success ||
            dnnl_memory_desc_init_by_tag(&s->bias_md, 1, bias_d, dnnl_f32, dnnl_a) != dnnl_success ||
            dnnl_memory_desc_init_by_tag(&s->zp_md, 1, one, dnnl_s32, dnnl_a) != dnnl_success ||
            dnnl_memory_desc_init_by_tag(&wany, w_nd, w_d, dnnl_s8, dnnl_format_tag_any) != dnnl_success ||
            dnnl_memory_desc_init_by_tag(&wplain, w_nd, w_d, dnnl_s8, g == 1 ? dnnl_oihw : dnnl_goihw) !=
                dnnl_success) {
            st = OA_FAIL(OA_E_INTERNAL, "int8 conv: oneDNN memory descriptors");
        }
        dnnl_convolution_desc_t cd;
        if (st == OA_OK &&
            dnnl_dilated_convolution_forward_desc_init(&cd, dnnl_forward_inference, dnnl_convolution_direct,
                                                       &s->src_md, &wany, &s->bias_md, &s->dst_md, strides, dil, pl,
                                                       pr) != dnnl_success) {
            st = OA_FAIL(OA_E_PARAM, "int8 conv: oneDNN rejects the convolution shape");
        }
        if (st == OA_OK &&
            (dnnl_primitive_attr_create(&attr) != dnnl_success ||
             dnnl_primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user) != dnnl_success ||
             dnnl_primitive_attr_set_output_scales(attr, oc, 1 << 1, oscale) != dnnl_success ||
             (s->zp_src != 0 && dnnl_primitive_attr_set_zero_points(attr, DNNL_ARG_SRC, 1, 0, &rt) != dnnl_success) ||
             (s->zp_dst != 0 && dnnl_primitive_attr_set_zero_points(attr, DNNL_ARG_DST, 1, 0, &rt) != dnnl_success) ||
             dnnl_post_ops_create(&po) != dnnl_success ||
             (p->relu && dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_relu, 0.0f, 0.0f) != dnnl_success) ||
             dnnl_primitive_attr_set_post_ops(attr, po) != dnnl_success)) {
            st = OA_FAIL(OA_E_INTERNAL, "int8 conv: oneDNN attributes");
        }
        if (st == OA_OK && (dnnl_primitive_desc_create(&pd, &cd, attr, oa_dnnl_engine(), NULL) != dnnl_success ||
                            dnnl_primitive_create(&s->prim, pd) != dnnl_success)) {
            st = OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "int8 conv: oneDNN has no int8 convolution for this shape");
        }
        const char *impl = NULL;
        if (st != OA_OK || attempt == 1 || src_dt != dnnl_s8 ||
            dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl) != dnnl_success || impl == NULL ||
            strstr(impl, "vnni") != NULL || strstr(impl, "amx") != NULL) {
            break;
        }
        /* s8 source without VNNI: oneDNN halves the weights to keep its 16-bit pair sums from saturating
         * (a bit of every odd weight lost); run on x + 128 as u8 with the zero point moved instead */
        dnnl_primitive_destroy(s->prim);
        dnnl_primitive_desc_destroy(pd);
        dnnl_post_ops_destroy(po);
        dnnl_primitive_attr_destroy(attr);
        s->prim = NULL, pd = NULL, po = NULL, attr = NULL;
        src_dt = dnnl_u8;
        s->zp_src += 128;
        s->shift_src = true;
    }
    if (st == OA_OK) {
        take_primitive_layouts(s, op, pd);
    }
    oa_dnnl_leave(saved);
    if (st == OA_OK) {
        st = pack_weights(s, w, &wplain, g); /* groups >= 1: a conv */
    }
    if (st == OA_OK) {
        saved = oa_dnnl_enter();
        qconv_slices(op, s, attr, &wany, src_dt, strides, dil);
        oa_dnnl_leave(saved);
        if (s->n_slices > 1) {
            op->impl = strstr(op->impl, "amx")    ? "onednn int8 (amx) banded"
                       : strstr(op->impl, "vnni") ? "onednn int8 (vnni) banded"
                                                  : "onednn int8 banded";
        }
        const size_t pad = dnnl_memory_desc_get_size(&s->pad_md);
        s->pad_bytes = (pad + 63) / 64 * 64;
        if (s->n_slices > 1 && s->slice_pad * (size_t)s->n_slices > s->pad_bytes) {
            s->pad_bytes = s->slice_pad * (size_t)s->n_slices;
        }
        op->ws_size = s->pad_bytes;
        if (s->shift_src && (st = oa_ktensor_bytes(x) ? OA_OK : OA_FAIL(OA_E_PARAM, "int8 conv: x too large")) == OA_OK) {
            op->ws_size += (oa_ktensor_bytes(x) + 63) / 64 * 64;
            s->x_bytes = (int64_t)oa_ktensor_bytes(x);
        }
    }
    dnnl_primitive_desc_destroy(pd);
    dnnl_post_ops_destroy(po);
    dnnl_primitive_attr_destroy(attr);
    free(oscale);
    return st;
}

typedef struct qconv_call {
    const qconv_state *s;
    const uint8_t *x;
    uint8_t *y, *ws;
    oa_status st[64];
} qconv_call;

/* one primitive call: the whole conv (slice < 0) or band `slice` */
static oa_status qconv_exec(const qconv_state *s, int slice, const uint8_t *x, uint8_t *y, uint8_t *ws)
{
    const qslice *b = slice >= 0 ? &s->slices[slice] : NULL;
    int kinds[7] = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_BIAS, DNNL_ARG_DST, DNNL_ARG_SCRATCHPAD};
    const dnnl_memory_desc_t *mds[7] = {b ? &b->src_md : &s->src_md, &s->wei_md, &s->bias_md,
                                        b ? &b->dst_md : &s->dst_md, b ? &b->pad_md : &s->pad_md};
    void *ptrs[7] = {(void *)(uintptr_t)(x + (b ? b->in_off : 0)), s->wei, s->bias, y + (b ? b->out_off : 0),
                     ws + (b ? (size_t)slice * s->slice_pad : 0)};
    int n = 5;
    int32_t zs = s->zp_src, zd = s->zp_dst;
    if (zs != 0) {
        kinds[n] = DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, mds[n] = &s->zp_md, ptrs[n++] = &zs;
    }
    if (zd != 0) {
        kinds[n] = DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST, mds[n] = &s->zp_md, ptrs[n++] = &zd;
    }
    int saved = oa_dnnl_enter();
    oa_status st = oa_dnnl_exec(b ? b->prim : s->prim, n, kinds, mds, ptrs);
    oa_dnnl_leave(saved);
    return st;
}

static void qconv_band(void *ctx, size_t tid, size_t begin, size_t end)
{
    (void)tid;
    qconv_call *c = ctx;
    for (size_t i = begin; i < end; i++) {
        c->st[i] = qconv_exec(c->s, (int)i, c->x, c->y, c->ws);
    }
}

static oa_status qconv_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    const qconv_state *s = op->state;
    const uint8_t *x = in[0];
    if (s->shift_src) {
        const int8_t *xs = in[0];
        uint8_t *u = (uint8_t *)ws + s->pad_bytes;
        for (int64_t i = 0; i < s->x_bytes; i++) {
            u[i] = (uint8_t)(xs[i] ^ 0x80); /* x + 128 */
        }
        x = u;
    }
    if (s->n_slices < 2 || oa_threadpool_size(pool) < 2) {
        return qconv_exec(s, -1, x, out[0], ws);
    }
    qconv_call c = {s, x, out[0], ws, {0}};
    oa_threadpool_parallel_for(pool, (size_t)s->n_slices, 1, qconv_band, &c);
    for (int i = 0; i < s->n_slices; i++) {
        if (c.st[i] != OA_OK) {
            return c.st[i];
        }
    }
    return OA_OK;
}

/* ------------------------------------------------------------------ matmul */

static oa_status qmatmul_build(oa_kop *op, qconv_state *s)
{
    const oa_kquant_params *p = &op->params.quant;
    const oa_ktensor *x = &op->in[0], *w = &op->in[1], *wsc = &op->in[2];
    const oa_ktensor *b = oa_kt_opt(op->n_in, op->in, 3);
    if (w->data == NULL || wsc->data == NULL || (b != NULL && b->data == NULL)) {
        return OA_FAIL(OA_E_PARAM, "int8 matmul: the weight, its scales and the bias must be constant");
    }
    if (!oa_dnnl_enabled()) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "int8 matmul: needs oneDNN (OA_KERNELS_ONEDNN=0)");
    }
    const int64_t m = x->dims[0], k = x->dims[1], n = op->out[0].dims[1];
    float *oscale = NULL;
    oa_status sst = acc_scales("int8 matmul", wsc, b, p->x_scale, 1.0f, false, n, &oscale, &s->bias);
    if (sst != OA_OK) {
        return sst;
    }
    s->zp_src = p->x_zp;
    const dnnl_dims_t xd = {m, k}, wd = {k, n}, yd = {m, n}, one = {1};
    dnnl_memory_desc_t wany, wplain;
    dnnl_primitive_attr_t attr = NULL;
    dnnl_primitive_desc_t pd = NULL;
    dnnl_matmul_desc_t md;
    const int32_t rt = DNNL_RUNTIME_S32_VAL;
    oa_status st = OA_OK;
    int saved = oa_dnnl_enter();
    if (dnnl_memory_desc_init_by_tag(&s->src_md, 2, xd, dnnl_dt(x->dtype), dnnl_ab) != dnnl_success ||
        dnnl_memory_desc_init_by_tag(&s->dst_md, 2, yd, dnnl_f32, dnnl_ab) != dnnl_success ||
        dnnl_memory_desc_init_by_tag(&s->zp_md, 1, one, dnnl_s32, dnnl_a) != dnnl_success ||
        dnnl_memory_desc_init_by_tag(&wany, 2, wd, dnnl_s8, dnnl_format_tag_any) != dnnl_success ||
        dnnl_memory_desc_init_by_tag(&wplain, 2, wd, dnnl_s8, p->transpose_b ? dnnl_ba : dnnl_ab) != dnnl_success ||
        dnnl_matmul_desc_init(&md, &s->src_md, &wany, NULL, &s->dst_md) != dnnl_success) {
        st = OA_FAIL(OA_E_INTERNAL, "int8 matmul: oneDNN descriptors");
    }
    if (st == OA_OK &&
        (dnnl_primitive_attr_create(&attr) != dnnl_success ||
         dnnl_primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user) != dnnl_success ||
         dnnl_primitive_attr_set_output_scales(attr, n, 1 << 1, oscale) != dnnl_success ||
         (s->zp_src != 0 && dnnl_primitive_attr_set_zero_points(attr, DNNL_ARG_SRC, 1, 0, &rt) != dnnl_success))) {
        st = OA_FAIL(OA_E_INTERNAL, "int8 matmul: oneDNN attributes");
    }
    if (st == OA_OK && (dnnl_primitive_desc_create(&pd, &md, attr, oa_dnnl_engine(), NULL) != dnnl_success ||
                        dnnl_primitive_create(&s->prim, pd) != dnnl_success)) {
        st = OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "int8 matmul: oneDNN has no int8 matmul for this shape");
    }
    if (st == OA_OK) {
        take_primitive_layouts(s, op, pd);
    }
    oa_dnnl_leave(saved);
    if (st == OA_OK) {
        st = pack_weights(s, w, &wplain, p->transpose_b ? -2 : -1); /* negative: a matmul */
    }
    if (st == OA_OK) {
        s->pad_bytes = (dnnl_memory_desc_get_size(&s->pad_md) + 63) / 64 * 64;
        op->ws_size = s->pad_bytes;
    }
    dnnl_primitive_desc_destroy(pd);
    dnnl_primitive_attr_destroy(attr);
    free(oscale);
    return st;
}

static oa_status qmatmul_run(const oa_kop *op, const void *const *in, void *const *out, void *ws)
{
    const qconv_state *s = op->state;
    int kinds[5] = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST, DNNL_ARG_SCRATCHPAD};
    const dnnl_memory_desc_t *mds[5] = {&s->src_md, &s->wei_md, &s->dst_md, &s->pad_md};
    void *ptrs[5] = {(void *)(uintptr_t)in[0], s->wei, out[0], ws};
    int n = 4;
    int32_t zs = s->zp_src;
    if (zs != 0) {
        kinds[n] = DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, mds[n] = &s->zp_md, ptrs[n++] = &zs;
    }
    int saved = oa_dnnl_enter();
    oa_status st = oa_dnnl_exec(s->prim, n, kinds, mds, ptrs);
    oa_dnnl_leave(saved);
    if (st != OA_OK) {
        return st;
    }
    const int64_t rows = op->out[0].dims[0], cols = op->out[0].dims[1];
    float *y = out[0];
    const bool relu = op->params.quant.relu;
    for (int64_t i = 0; i < rows; i++) {
        for (int64_t j = 0; j < cols; j++) {
            float v = y[i * cols + j] + s->bias[j];
            y[i * cols + j] = relu && v < 0.0f ? 0.0f : v;
        }
    }
    return OA_OK;
}

/* ---------------------------------------------------------- element-wise */

static oa_status quant_setup(oa_kop *op)
{
    op->ws_size = 0;
    op->impl = "int8 ref";
    if (op->params.quant.op == OA_KQ_GAP) {
        op->ws_size = (size_t)op->in[0].dims[3] * sizeof(int64_t); /* per-channel sums */
    }
    if (op->params.quant.op != OA_KQ_CONV && op->params.quant.op != OA_KQ_MATMUL) {
        return OA_OK;
    }
    qconv_state *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "int8 conv: out of memory");
    }
    oa_status st = op->params.quant.op == OA_KQ_CONV ? qconv_build(op, s) : qmatmul_build(op, s);
    if (st != OA_OK) {
        qconv_free(s);
        return st;
    }
    op->state = s;
    return OA_OK;
}

static void quant_release(oa_kop *op)
{
    qconv_free(op->state);
    op->state = NULL;
}

/* The sub-ops other than CONV and MATMUL move memory: each splits its pixels (or output rows) over the
 * pool in chunks of OA_KGRAIN_ELEMS elements; every element is computed as on one thread (same bits). */
typedef struct qrun_ctx {
    const oa_kquant_params *p;
    const oa_ktensor *x, *y;
    oa_kdtype ydt;
    const void *a, *b;
    void *dst;
    int64_t c, hw; /* channels, pixels per image (QUANTIZE, DEQUANTIZE) */
} qrun_ctx;

/* grain in pixels (or rows) of `per` elements each */
static size_t qgrain(int64_t per)
{
    return (size_t)(OA_KGRAIN_ELEMS / (per > 0 ? per : 1) + 1);
}

/* The part of pixels [px, pe) of the n * hw that lies in one image: image *b, its pixels [*i0, return). */
static int64_t image_span(int64_t px, int64_t pe, int64_t hw, int64_t *b, int64_t *i0)
{
    *b = px / hw;
    *i0 = px % hw;
    return hw - *i0 < pe - px ? hw : *i0 + (pe - px);
}

/* f32 NCHW -> q NHWC: pixels [pb, pe) of the n * hw, every channel */
static void quantize_task(void *vctx, size_t tid, size_t pb, size_t pe)
{
    (void)tid;
    const qrun_ctx *q = vctx;
    const int64_t c = q->c, hw = q->hw;
    float lo, hi;
    q_range(q->ydt, &lo, &hi);
    const float zp = (float)q->p->y_zp, s = q->p->y_scale;
    for (int64_t px = (int64_t)pb; px < (int64_t)pe;) {
        int64_t b, i0;
        const int64_t i1 = image_span(px, (int64_t)pe, hw, &b, &i0);
        const float *xs = (const float *)q->a + b * c * hw;
        for (int64_t ch = 0; ch < c; ch++) {
            const float *xc = xs + ch * hw;
            if (q->ydt == OA_KDT_U8) {
                uint8_t *yc = (uint8_t *)q->dst + b * hw * c + ch;
                for (int64_t i = i0; i < i1; i++) {
                    yc[i * c] = (uint8_t)quant1(xc[i] / s, zp, lo, hi);
                }
            } else {
                int8_t *yc = (int8_t *)q->dst + b * hw * c + ch;
                for (int64_t i = i0; i < i1; i++) {
                    yc[i * c] = (int8_t)quant1(xc[i] / s, zp, lo, hi);
                }
            }
        }
        px += i1 - i0;
    }
}

static void run_quantize(const oa_kquant_params *p, const oa_ktensor *x, oa_kdtype ydt, const float *src, void *dst,
                         oa_threadpool *pool)
{
    /* rank 2: one "channel" of M*K pixels, so the same loop keeps the layout */
    const int64_t n = x->rank == 4 ? x->dims[0] : 1, c = x->rank == 4 ? x->dims[1] : 1;
    const int64_t hw = x->rank == 4 ? x->dims[2] * x->dims[3] : x->dims[0] * x->dims[1];
    qrun_ctx q = {.p = p, .x = x, .ydt = ydt, .a = src, .dst = dst, .c = c, .hw = hw};
    oa_threadpool_parallel_for(pool, (size_t)(n * hw), qgrain(c), quantize_task, &q);
}

/* q NHWC -> f32 NCHW: pixels [pb, pe) of the n * hw, every channel */
static void dequantize_task(void *vctx, size_t tid, size_t pb, size_t pe)
{
    (void)tid;
    const qrun_ctx *q = vctx;
    const int64_t c = q->c, hw = q->hw;
    const float zp = (float)q->p->x_zp, s = q->p->x_scale;
    for (int64_t px = (int64_t)pb; px < (int64_t)pe;) {
        int64_t b, i0;
        const int64_t i1 = image_span(px, (int64_t)pe, hw, &b, &i0);
        float *yb = (float *)q->dst + b * c * hw;
        for (int64_t ch = 0; ch < c; ch++) {
            float *yc = yb + ch * hw;
            if (q->x->dtype == OA_KDT_U8) {
                const uint8_t *xc = (const uint8_t *)q->a + b * hw * c + ch;
                for (int64_t i = i0; i < i1; i++) {
                    yc[i] = ((float)xc[i * c] - zp) * s;
                }
            } else {
                const int8_t *xc = (const int8_t *)q->a + b * hw * c + ch;
                for (int64_t i = i0; i < i1; i++) {
                    yc[i] = ((float)xc[i * c] - zp) * s;
                }
            }
        }
        px += i1 - i0;
    }
}

static void run_dequantize(const oa_kquant_params *p, const oa_ktensor *x, const void *src, float *dst,
                           oa_threadpool *pool)
{
    const int64_t n = x->rank == 4 ? x->dims[0] : 1, c = x->rank == 4 ? x->dims[3] : 1;
    const int64_t hw = x->rank == 4 ? x->dims[1] * x->dims[2] : x->dims[0] * x->dims[1];
    qrun_ctx q = {.p = p, .x = x, .a = src, .dst = dst, .c = c, .hw = hw};
    oa_threadpool_parallel_for(pool, (size_t)(n * hw), qgrain(c), dequantize_task, &q);
}

typedef struct add_args {
    float za, sa, zb, sb, zy, sy, floor_v, lo, hi;
} add_args;

/* one loop per (input, output) type pair, instantiated per ISA below */
#define ADD_BODY(TA, TY)                                                                                        \
    for (int64_t i = 0; i < n; i++) {                                                                         \
        float v = ((float)a[i] - g.za) * g.sa + ((float)b[i] - g.zb) * g.sb;                                  \
        v = v < g.floor_v ? g.floor_v : v;                                                                    \
        y[i] = (TY)(int32_t)quant1f(v / g.sy, g.zy, g.lo, g.hi);                                              \
    }

#define ADD_FNS(SUFFIX, ATTR)                                                                                   \
    ATTR static void add_uu##SUFFIX(const uint8_t *a, const uint8_t *b, uint8_t *y, int64_t n, add_args g)   \
    {                                                                                                         \
        ADD_BODY(uint8_t, uint8_t)                                                                            \
    }                                                                                                         \
    ATTR static void add_us##SUFFIX(const uint8_t *a, const uint8_t *b, int8_t *y, int64_t n, add_args g)    \
    {                                                                                                         \
        ADD_BODY(uint8_t, int8_t)                                                                             \
    }                                                                                                         \
    ATTR static void add_su##SUFFIX(const int8_t *a, const int8_t *b, uint8_t *y, int64_t n, add_args g)     \
    {                                                                                                         \
        ADD_BODY(int8_t, uint8_t)                                                                             \
    }                                                                                                         \
    ATTR static void add_ss##SUFFIX(const int8_t *a, const int8_t *b, int8_t *y, int64_t n, add_args g)      \
    {                                                                                                         \
        ADD_BODY(int8_t, int8_t)                                                                              \
    }

ADD_FNS(_ref, )
ADD_FNS(_avx2, __attribute__((target("avx2"))))
ADD_FNS(_avx512, __attribute__((target("avx512f,avx512bw,avx512vl"))))

typedef struct add_fns {
    void (*uu)(const uint8_t *, const uint8_t *, uint8_t *, int64_t, add_args);
    void (*us)(const uint8_t *, const uint8_t *, int8_t *, int64_t, add_args);
    void (*su)(const int8_t *, const int8_t *, uint8_t *, int64_t, add_args);
    void (*ss)(const int8_t *, const int8_t *, int8_t *, int64_t, add_args);
} add_fns;

static const add_fns *add_table(void)
{
    static const add_fns ref = {add_uu_ref, add_us_ref, add_su_ref, add_ss_ref};
    static const add_fns avx2 = {add_uu_avx2, add_us_avx2, add_su_avx2, add_ss_avx2};
    static const add_fns avx512 = {add_uu_avx512, add_us_avx512, add_su_avx512, add_ss_avx512};
    const oa_kcpu *f = oa_kisa_features();
    return f->avx512f && f->avx512bw && f->avx512vl ? &avx512 : (f->avx2 ? &avx2 : &ref);
}

/* elements [b, e) of the residual add */
static void add_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const qrun_ctx *q = vctx;
    const oa_kquant_params *p = q->p;
    add_args g = {(float)p->x_zp, p->x_scale, (float)p->b_zp, p->b_scale, (float)p->y_zp, p->y_scale,
                  p->relu ? 0.0f : -INFINITY, 0.0f, 0.0f};
    q_range(q->ydt, &g.lo, &g.hi);
    const add_fns *t = add_table();
    const int64_t n = (int64_t)(e - b);
    if (q->x->dtype == OA_KDT_U8) {
        const uint8_t *a = (const uint8_t *)q->a + b, *bb = (const uint8_t *)q->b + b;
        if (q->ydt == OA_KDT_U8) {
            t->uu(a, bb, (uint8_t *)q->dst + b, n, g);
        } else {
            t->us(a, bb, (int8_t *)q->dst + b, n, g);
        }
    } else {
        const int8_t *a = (const int8_t *)q->a + b, *bb = (const int8_t *)q->b + b;
        if (q->ydt == OA_KDT_U8) {
            t->su(a, bb, (uint8_t *)q->dst + b, n, g);
        } else {
            t->ss(a, bb, (int8_t *)q->dst + b, n, g);
        }
    }
}

static void run_add(const oa_kquant_params *p, const oa_ktensor *x, oa_kdtype ydt, const void *a, const void *b,
                    void *y, oa_threadpool *pool)
{
    qrun_ctx q = {.p = p, .x = x, .ydt = ydt, .a = a, .b = b, .dst = y};
    oa_threadpool_parallel_for(pool, (size_t)oa_ktensor_numel(x), OA_KGRAIN_ELEMS, add_task, &q);
}

/* NHWC window maximum over output rows [r0, r1) of the n * oh; T is the element type */
#define MAXPOOL_BODY(T, TMIN)                                                                                   \
    for (int64_t r = r0; r < r1; r++) {                                                                       \
        const int64_t b = r / oh, i = r % oh;                                                                 \
        for (int64_t j = 0; j < ow; j++) {                                                                    \
            T *yr = (T *)q->dst + ((b * oh + i) * ow + j) * c;                                                \
            for (int64_t ch = 0; ch < c; ch++) {                                                              \
                yr[ch] = TMIN;                                                                                \
            }                                                                                                 \
            for (int64_t ki = 0; ki < p->ksize[0]; ki++) {                                                    \
                const int64_t hi = i * p->strides[0] - p->pads[0] + ki;                                       \
                for (int64_t kj = 0; hi >= 0 && hi < h && kj < p->ksize[1]; kj++) {                           \
                    const int64_t wj = j * p->strides[1] - p->pads[2] + kj;                                   \
                    if (wj < 0 || wj >= w) {                                                                  \
                        continue;                                                                             \
                    }                                                                                         \
                    const T *xr = (const T *)q->a + ((b * h + hi) * w + wj) * c;                              \
                    for (int64_t ch = 0; ch < c; ch++) {                                                      \
                        yr[ch] = xr[ch] > yr[ch] ? xr[ch] : yr[ch];                                           \
                    }                                                                                         \
                }                                                                                             \
            }                                                                                                 \
        }                                                                                                     \
    }

static void maxpool_task(void *vctx, size_t tid, size_t rb, size_t re)
{
    (void)tid;
    const qrun_ctx *q = vctx;
    const oa_kquant_params *p = q->p;
    const int64_t h = q->x->dims[1], w = q->x->dims[2], c = q->x->dims[3];
    const int64_t oh = q->y->dims[1], ow = q->y->dims[2], r0 = (int64_t)rb, r1 = (int64_t)re;
    if (q->x->dtype == OA_KDT_U8) {
        MAXPOOL_BODY(uint8_t, 0)
    } else {
        MAXPOOL_BODY(int8_t, -128)
    }
}

static void run_maxpool(const oa_kquant_params *p, const oa_ktensor *xd, const oa_ktensor *yd, const void *x, void *y,
                        oa_threadpool *pool)
{
    qrun_ctx q = {.p = p, .x = xd, .y = yd, .a = x, .dst = y};
    const int64_t row = yd->dims[2] * yd->dims[3] * p->ksize[0] * p->ksize[1];
    oa_threadpool_parallel_for(pool, (size_t)(yd->dims[0] * yd->dims[1]), qgrain(row), maxpool_task, &q);
}

/* the exact integer sum per channel, then the mean in double and QuantizeLinear's rounding */
static void run_gap(const oa_kquant_params *p, const oa_ktensor *xd, oa_kdtype ydt, const void *x, void *y,
                    int64_t *sum)
{
    const int64_t n = xd->dims[0], hw = xd->dims[1] * xd->dims[2], c = xd->dims[3];
    float lo, hi;
    q_range(ydt, &lo, &hi);
    for (int64_t b = 0; b < n; b++) {
        memset(sum, 0, sizeof(int64_t) * (size_t)c);
        for (int64_t i = 0; i < hw; i++) {
            if (xd->dtype == OA_KDT_U8) {
                const uint8_t *xr = (const uint8_t *)x + (b * hw + i) * c;
                for (int64_t ch = 0; ch < c; ch++) {
                    sum[ch] += xr[ch];
                }
            } else {
                const int8_t *xr = (const int8_t *)x + (b * hw + i) * c;
                for (int64_t ch = 0; ch < c; ch++) {
                    sum[ch] += xr[ch];
                }
            }
        }
        for (int64_t ch = 0; ch < c; ch++) {
            const double mean = (double)(sum[ch] - (int64_t)p->x_zp * hw) * p->x_scale / (double)hw;
            double r = nearbyint(mean / p->y_scale) + p->y_zp;
            r = r < lo ? lo : (r > hi ? hi : r);
            if (ydt == OA_KDT_U8) {
                ((uint8_t *)y)[b * c + ch] = (uint8_t)r;
            } else {
                ((int8_t *)y)[b * c + ch] = (int8_t)r;
            }
        }
    }
}

static oa_status quant_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    const oa_kquant_params *p = &op->params.quant;
    if (in[0] == NULL || out[0] == NULL || (p->op == OA_KQ_ADD && in[1] == NULL)) {
        return OA_FAIL(OA_E_PARAM, "int8 op: NULL data pointer");
    }
    switch (p->op) {
    case OA_KQ_QUANTIZE: run_quantize(p, &op->in[0], op->out[0].dtype, in[0], out[0], pool); return OA_OK;
    case OA_KQ_DEQUANTIZE: run_dequantize(p, &op->in[0], in[0], out[0], pool); return OA_OK;
    case OA_KQ_ADD: run_add(p, &op->in[0], op->out[0].dtype, in[0], in[1], out[0], pool); return OA_OK;
    case OA_KQ_CONV: return qconv_run(op, in, out, ws, pool);
    case OA_KQ_MATMUL: return qmatmul_run(op, in, out, ws);
    case OA_KQ_MAXPOOL: run_maxpool(p, &op->in[0], &op->out[0], in[0], out[0], pool); return OA_OK;
    case OA_KQ_GAP:
        if (ws == NULL) {
            return OA_FAIL(OA_E_PARAM, "int8 global average pool: NULL workspace");
        }
        run_gap(p, &op->in[0], op->out[0].dtype, in[0], out[0], ws);
        return OA_OK;
    default: return OA_FAIL(OA_E_PARAM, "int8 op: unknown sub-op");
    }
}

const oa_kfamily oa_kfam_quant = {
    .params_size = sizeof(oa_kquant_params),
    .infer = quant_infer,
    .setup = quant_setup,
    .run = quant_run,
    .release = quant_release,
};

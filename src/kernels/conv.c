/*
 * Conv2D and Conv2DTranspose (f32, NCHW and NCHWc), with bias, folded
 * BatchNorm and fused post-ops.
 *
 * Fast path: oneDNN primitives created at setup for N = 1, with the output
 * channels split into up to oa_kernels_slices() slices (whole groups for
 * grouped/depthwise convs). For N = 1 a channel slice of NCHW or NCHWc
 * (block-aligned) is a dense tensor at an offset, so every slice keeps the
 * dense descriptors oneDNN's JIT kernels require (sub-memory views would
 * drop to its reference kernels). Each slice owns its weights, reordered
 * once into the primitive's preferred format. run executes (image, slice)
 * tasks on the pool, each participant with its own scratchpad from the
 * workspace. Post-ops oneDNN cannot express are applied by our SIMD loops
 * on the slice right after the primitive, while it is still in cache.
 * Primitives that would fall back to oneDNN's reference implementation are
 * rejected in favour of our own reference path.
 *
 * Winograd path (own, AVX2 and AVX-512, conv_wino.c): 3x3 stride-1
 * single-group convs with an NCHWc y, chosen by size before oneDNN.
 *
 * Reference path (always kept): direct loops, used when oneDNN is disabled
 * (OA_KERNELS_ONEDNN=0) or has no JIT kernel for the case.
 */
#include "base/pages.h"
#include "kernels/conv_internal.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static int64_t dflt1(int64_t v)
{
    return v <= 0 ? 1 : v;
}

static oa_status conv_geom(const oa_kconv_params *p, bool transpose, int n_in, const oa_ktensor *in, geom *g,
                           int *n_add)
{
    const char *name = transpose ? "Conv2DTranspose" : "Conv2D";
    if (n_in < 2) {
        return OA_FAIL(OA_E_PARAM, "%s: needs x and filter, got %d inputs", name, n_in);
    }
    const oa_ktensor *x = &in[0], *w = &in[1];
    if (x->rank != 4 || w->rank != 4) {
        return OA_FAIL(OA_E_PARAM, "%s: x and filter must be 4-D (got ranks %d, %d)", name, x->rank, w->rank);
    }
    if (x->dtype != OA_KDT_F32 || w->dtype != OA_KDT_F32) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "%s: only f32 supported (x %s, filter %s)", name,
                       oa_kdtype_name(x->dtype), oa_kdtype_name(w->dtype));
    }
    if (w->layout != OA_KLAYOUT_PLAIN) {
        return OA_FAIL(OA_E_PARAM, "%s: filter must be plain", name);
    }
    oa_status st = oa_kpost_check(&p->post, true, n_add);
    if (st != OA_OK) {
        return st;
    }
    memset(g, 0, sizeof(*g));
    g->transpose = transpose;
    g->blocked = x->layout == OA_KLAYOUT_NCHWC || p->out_nchwc;
    g->xpl = x->layout != OA_KLAYOUT_NCHWC && p->out_nchwc;
    g->n = x->dims[0];
    g->ic = x->dims[1];
    g->ih = x->dims[2];
    g->iw = x->dims[3];
    g->g = dflt1(p->groups);
    g->kh = w->dims[2];
    g->kw = w->dims[3];
    g->sh = p->strides[0];
    g->sw = p->strides[1];
    g->dh = dflt1(p->dilations[0]);
    g->dw = dflt1(p->dilations[1]);
    g->pt = p->pads[0];
    g->pb = p->pads[1];
    g->pl = p->pads[2];
    g->pr = p->pads[3];
    if (g->sh <= 0 || g->sw <= 0) {
        return OA_FAIL(OA_E_PARAM, "%s: strides must be positive (%lld, %lld)", name, (long long)g->sh,
                       (long long)g->sw);
    }
    for (int i = 0; i < 4; i++) {
        if (p->pads[i] < 0) {
            return OA_FAIL(OA_E_PARAM, "%s: negative pad %lld", name, (long long)p->pads[i]);
        }
    }
    if (g->ic % g->g != 0) {
        return OA_FAIL(OA_E_PARAM, "%s: input channels %lld not divisible by groups %lld", name, (long long)g->ic,
                       (long long)g->g);
    }
    int64_t ekh = g->dh * (g->kh - 1) + 1, ekw = g->dw * (g->kw - 1) + 1;
    if (!transpose) {
        g->oc = w->dims[0];
        if (w->dims[1] * g->g != g->ic || g->oc % g->g != 0) {
            return OA_FAIL(OA_E_PARAM, "Conv2D: filter [%lld,%lld,..] does not fit %lld input channels in %lld groups",
                           (long long)w->dims[0], (long long)w->dims[1], (long long)g->ic, (long long)g->g);
        }
        int64_t hh = g->ih + g->pt + g->pb - ekh, ww = g->iw + g->pl + g->pr - ekw;
        if (hh < 0 || ww < 0) {
            return OA_FAIL(OA_E_PARAM, "Conv2D: kernel %lldx%lld (dilated) larger than padded input %lldx%lld",
                           (long long)g->kh, (long long)g->kw, (long long)(g->ih + g->pt + g->pb),
                           (long long)(g->iw + g->pl + g->pr));
        }
        g->oh = hh / g->sh + 1;
        g->ow = ww / g->sw + 1;
    } else {
        if (w->dims[0] != g->ic) {
            return OA_FAIL(OA_E_PARAM, "Conv2DTranspose: filter dim 0 (%lld) must equal input channels %lld",
                           (long long)w->dims[0], (long long)g->ic);
        }
        g->oc = w->dims[1] * g->g;
        g->oph = p->output_padding[0];
        g->opw = p->output_padding[1];
        g->oh = (g->ih - 1) * g->sh - g->pt - g->pb + ekh + g->oph;
        g->ow = (g->iw - 1) * g->sw - g->pl - g->pr + ekw + g->opw;
        if (g->oh <= 0 || g->ow <= 0) {
            return OA_FAIL(OA_E_PARAM, "Conv2DTranspose: output size %lldx%lld is not positive", (long long)g->oh,
                           (long long)g->ow);
        }
    }
    int idx = 2;
    const oa_ktensor *b = oa_kt_opt(n_in, in, 2);
    if (b != NULL && (b->dtype != OA_KDT_F32 || oa_ktensor_numel(b) != g->oc)) {
        return OA_FAIL(OA_E_PARAM, "%s: bias must be f32 with %lld elements", name, (long long)g->oc);
    }
    idx = 3;
    if (p->fold_bn) {
        for (int i = 0; i < 4; i++, idx++) {
            const oa_ktensor *t = oa_kt_opt(n_in, in, idx);
            if (t == NULL || t->dtype != OA_KDT_F32 || oa_ktensor_numel(t) != g->oc || t->data == NULL) {
                return OA_FAIL(OA_E_PARAM, "%s: folded BatchNorm input %d must be constant f32 [%lld]", name, idx,
                               (long long)g->oc);
            }
        }
    }
    if (n_in != idx + *n_add) {
        return OA_FAIL(OA_E_PARAM, "%s: expected %d inputs (bias slot, %s%d residuals), got %d", name, idx + *n_add,
                       p->fold_bn ? "4 BatchNorm, " : "", *n_add, n_in);
    }
    for (int i = idx; i < n_in; i++) {
        if (in[i].dtype != OA_KDT_F32 || in[i].rank != 4 || in[i].dims[0] != g->n || in[i].dims[1] != g->oc ||
            in[i].dims[2] != g->oh || in[i].dims[3] != g->ow ||
            in[i].layout != (g->blocked ? OA_KLAYOUT_NCHWC : OA_KLAYOUT_PLAIN)) {
            return OA_FAIL(OA_E_PARAM, "%s: residual input %d must be f32 [%lld,%lld,%lld,%lld] in y's layout", name,
                           i, (long long)g->n, (long long)g->oc, (long long)g->oh, (long long)g->ow);
        }
    }
    return OA_OK;
}

static oa_status conv_infer_common(const void *params, bool transpose, int n_in, const oa_ktensor *in, int n_out,
                                   oa_ktensor *out)
{
    geom g;
    int n_add;
    if (n_out != 1) {
        return OA_FAIL(OA_E_PARAM, "conv: exactly 1 output, got %d", n_out);
    }
    oa_status st = conv_geom(params, transpose, n_in, in, &g, &n_add);
    if (st != OA_OK) {
        return st;
    }
    int64_t d[4] = {g.n, g.oc, g.oh, g.ow};
    oa_ktensor_set(&out[0], OA_KDT_F32, 4, d);
    out[0].layout = g.blocked ? OA_KLAYOUT_NCHWC : OA_KLAYOUT_PLAIN;
    return OA_OK;
}

static oa_status conv_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    return conv_infer_common(params, false, n_in, in, n_out, out);
}
static oa_status deconv_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    return conv_infer_common(params, true, n_in, in, n_out, out);
}

/* ---- folding ---- */

/* Folded weights (same layout as the filter input) and bias. Without a
 * BatchNorm to fold, *w_out is NULL and the filter is read where it lives:
 * no transient copy of the weights at create (docs/memory.md "Kernel state"). */
static oa_status fold_weights(const oa_kop *op, const geom *g, float **w_out, float **b_out)
{
    const oa_ktensor *w = &op->in[1];
    int64_t wn = oa_ktensor_numel(w);
    const oa_kconv_params *p = &op->params.conv;
    float *wf = p->fold_bn ? malloc(sizeof(float) * (size_t)(wn > 0 ? wn : 1)) : NULL;
    float *bf = calloc((size_t)(g->oc > 0 ? g->oc : 1), sizeof(float));
    if ((p->fold_bn && wf == NULL) || bf == NULL) {
        free(wf);
        free(bf);
        return OA_FAIL(OA_E_NOMEM, "conv weights");
    }
    if (wf != NULL) {
        memcpy(wf, w->data, sizeof(float) * (size_t)wn);
    }
    const oa_ktensor *b = oa_kt_opt(op->n_in, op->in, 2);
    if (b != NULL) {
        memcpy(bf, b->data, sizeof(float) * (size_t)g->oc);
    }
    if (p->fold_bn) {
        const float *sc = op->in[3].data, *of = op->in[4].data, *mu = op->in[5].data, *var = op->in[6].data;
        int64_t per_oc_g = g->oc / g->g; /* transpose: filter [ic, oc/g, kh, kw] */
        for (int64_t oc = 0; oc < g->oc; oc++) {
            float f = sc[oc] / sqrtf(var[oc] + p->bn_epsilon);
            bf[oc] = (bf[oc] - mu[oc]) * f + of[oc];
            if (!g->transpose) {
                int64_t k = wn / g->oc;
                for (int64_t i = 0; i < k; i++) {
                    wf[oc * k + i] *= f;
                }
            } else {
                int64_t grp = oc / per_oc_g, ocl = oc % per_oc_g, icg = g->ic / g->g, kk = g->kh * g->kw;
                for (int64_t ic = grp * icg; ic < (grp + 1) * icg; ic++) {
                    for (int64_t i = 0; i < kk; i++) {
                        wf[(ic * per_oc_g + ocl) * kk + i] *= f;
                    }
                }
            }
        }
    }
    *w_out = wf;
    *b_out = bf;
    return OA_OK;
}

/* ---- oneDNN setup ---- */

static void md_act_dt(dnnl_memory_desc_t *md, bool blocked, int64_t c, int64_t h, int64_t w, dnnl_data_type_t dt)
{
    dnnl_dims_t d = {1, c, h, w};
    dnnl_format_tag_t tag = blocked ? (oa_kernels_block() == 16 ? dnnl_nChw16c : dnnl_nChw8c) : dnnl_nchw;
    dnnl_memory_desc_init_by_tag(md, 4, d, dt, tag);
}

static void md_act(dnnl_memory_desc_t *md, bool blocked, int64_t c, int64_t h, int64_t w)
{
    md_act_dt(md, blocked, c, h, w, dnnl_f32);
}

static void release_slices(conv_state *s)
{
    for (int i = 0; i < s->nslices; i++) {
        dnnl_primitive_destroy(s->sl[i].prim);
        oa_dnnl_args_release(&s->sl[i].args);
        oa_kderived_put(s->sl[i].wei);
        s->sl[i].prim = NULL;
        s->sl[i].wei = NULL;
    }
    s->nslices = 0;
}

/* The slice array for n slices (replacing an empty one of a failed attempt). */
static oa_status conv_alloc_slices(conv_state *s, int n)
{
    free(s->sl);
    s->sl = calloc((size_t)n, sizeof(*s->sl));
    return s->sl == NULL ? OA_FAIL(OA_E_NOMEM, "conv slices (%d)", n) : OA_OK;
}

/* Creates the primitive of one slice (output channels [c0, c1), whole groups). */
static oa_status make_slice(conv_state *s, slice *sl, const float *wf, int n_post_try)
{
    const geom *g = &s->g;
    int64_t G = g->g, ocg = g->oc / G, icg = g->ic / G;
    int64_t oc = sl->c1 - sl->c0;
    /* grouped: the slice covers groups [gr0, gr0 + ng) */
    int64_t gr0 = G > 1 ? sl->c0 / ocg : 0, ng = G > 1 ? oc / ocg : 1;
    int64_t ic = G > 1 ? ng * icg : g->ic;
    sl->ic0 = G > 1 ? gr0 * icg : 0;
    const dnnl_data_type_t cdt = s->bf16 ? dnnl_bf16 : dnnl_f32; /* src and packed weights */
    if (g->nhwc) { /* x whole, y this slice's channels, both dense NHWC in the workspace */
        if (sl->src_plain) {
            return OA_FAIL(OA_E_NOT_SUPPORTED, "NHWC conv with a plain x");
        }
        dnnl_dims_t sd = {1, ic, g->ih, g->iw}, dd = {1, oc, g->oh, g->ow};
        dnnl_memory_desc_init_by_tag(&sl->src_md, 4, sd, cdt, dnnl_nhwc);
        dnnl_memory_desc_init_by_tag(&sl->dst_md, 4, dd, dnnl_f32, dnnl_nhwc);
    } else {
        md_act_dt(&sl->src_md, pblk(g) && !sl->src_plain, ic, g->ih, g->iw, cdt);
        md_act(&sl->dst_md, pblk(g), oc, g->oh, g->ow);
    }
    dnnl_memory_desc_t wei_any, wei_user;
    int64_t kk = g->kh * g->kw;
    if (G == 1) {
        dnnl_dims_t wd = {oc, g->ic, g->kh, g->kw};
        dnnl_memory_desc_init_by_tag(&wei_any, 4, wd, cdt, dnnl_format_tag_any);
        if (!g->transpose) { /* oihw rows [c0, c1) */
            dnnl_dims_t st = {g->ic * kk, kk, g->kw, 1};
            dnnl_memory_desc_init_by_strides(&wei_user, 4, wd, dnnl_f32, st);
        } else { /* filter [ic][oc][kh][kw]: columns [c0, c1) */
            dnnl_dims_t st = {kk, g->oc * kk, g->kw, 1};
            dnnl_memory_desc_init_by_strides(&wei_user, 4, wd, dnnl_f32, st);
        }
    } else {
        dnnl_dims_t wd = {ng, ocg, icg, g->kh, g->kw};
        dnnl_memory_desc_init_by_tag(&wei_any, 5, wd, cdt, dnnl_format_tag_any);
        if (!g->transpose) { /* goihw */
            dnnl_dims_t st = {ocg * icg * kk, icg * kk, kk, g->kw, 1};
            dnnl_memory_desc_init_by_strides(&wei_user, 5, wd, dnnl_f32, st);
        } else { /* giohw: filter [g*icg + i][o][kh][kw] */
            dnnl_dims_t st = {icg * ocg * kk, kk, ocg * kk, g->kw, 1};
            dnnl_memory_desc_init_by_strides(&wei_user, 5, wd, dnnl_f32, st);
        }
    }
    const float *wsrc = wf + (g->transpose ? (G == 1 ? sl->c0 * kk : gr0 * icg * ocg * kk)
                                          : sl->c0 * icg * kk);
    dnnl_dims_t bd = {oc};
    dnnl_memory_desc_init_by_tag(&sl->bias_md, 1, bd, dnnl_f32, dnnl_a);
    dnnl_dims_t strides = {g->sh, g->sw}, dil = {g->dh - 1, g->dw - 1}, pl = {g->pt, g->pl},
                pr = {g->transpose ? g->pb - g->oph : g->pb, g->transpose ? g->pr - g->opw : g->pr};
    oa_kpost_chain pc = s->post;
    pc.n = n_post_try;
    int taken = 0;
    dnnl_primitive_attr_t attr = oa_dnnl_attr(&pc, true, &taken);
    if (attr == NULL) {
        return OA_FAIL(OA_E_INTERNAL, "oneDNN attr");
    }
    dnnl_status_t ds;
    dnnl_primitive_desc_t pd = NULL;
    if (!g->transpose) {
        dnnl_convolution_desc_t cd;
        ds = dnnl_dilated_convolution_forward_desc_init(&cd, dnnl_forward_inference, dnnl_convolution_auto,
                                                        &sl->src_md, &wei_any, &sl->bias_md, &sl->dst_md, strides, dil,
                                                        pl, pr);
        if (ds == dnnl_success) {
            ds = dnnl_primitive_desc_create(&pd, &cd, attr, oa_dnnl_engine(), NULL);
        }
    } else {
        dnnl_deconvolution_desc_t dd;
        ds = dnnl_dilated_deconvolution_forward_desc_init(&dd, dnnl_forward_inference, dnnl_deconvolution_direct,
                                                          &sl->src_md, &wei_any, &sl->bias_md, &sl->dst_md, strides,
                                                          dil, pl, pr);
        if (ds == dnnl_success) {
            ds = dnnl_primitive_desc_create(&pd, &dd, attr, oa_dnnl_engine(), NULL);
        }
    }
    dnnl_primitive_attr_destroy(attr);
    if (ds != dnnl_success) {
        return OA_FAIL(OA_E_NOT_SUPPORTED, "oneDNN conv primitive not available (%d)", (int)ds);
    }
    const char *impl = NULL;
    dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl);
    if (getenv("OA_KERNELS_VERBOSE") != NULL) {
        fprintf(stderr, "%s%s ic%lld %lldx%lld k%lldx%lld s%lld g%lld %s slice [%lld,%lld) of %lld, %s x, post-ops %d/%d fused: oneDNN impl %s\n",
                g->transpose ? "deconv" : "conv", s->bf16 ? " bf16" : "", (long long)g->ic, (long long)g->ih, (long long)g->iw,
                (long long)g->kh, (long long)g->kw, (long long)g->sh, (long long)g->g, g->blocked ? "NCHWc" : (g->iblk ? "NCHW(via NCHWc)" : "NCHW"),
                (long long)sl->c0, (long long)sl->c1, (long long)g->oc, sl->src_plain ? "plain" : "blocked", taken,
                s->post.n,
                impl ? impl : "?");
    }
    /* NHWC copies pay only with oneDNN's brgemm kernels (fp32) or its AMX ones (bf16) */
    const bool nhwc_kernel = s->bf16 ? strstr(impl != NULL ? impl : "", "amx") != NULL
                                     : impl != NULL && strncmp(impl, "brg", 3) == 0;
    if (impl == NULL || strncmp(impl, "ref", 3) == 0 || (g->nhwc && !nhwc_kernel)) {
        dnnl_primitive_desc_destroy(pd);
        return OA_FAIL(OA_E_NOT_SUPPORTED, "oneDNN has only a reference kernel for this conv%s",
                       g->nhwc ? (s->bf16 ? " (or no AMX kernel for NHWC)" : " (or no brgemm kernel for NHWC)") : "");
    }
    s->post_from = taken;
    const dnnl_memory_desc_t *wmd = dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
    const dnnl_memory_desc_t *smd = dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
    sl->wei_md = *wmd;
    sl->scratch = smd ? dnnl_memory_desc_get_size(smd) : 0;
    dnnl_dims_t sd = {(dnnl_dim_t)sl->scratch};
    dnnl_memory_desc_init_by_tag(&sl->scr_md, 1, sd, dnnl_u8, dnnl_a);
    size_t wsz = dnnl_memory_desc_get_size(wmd);
    /* a derived array: a stable filter's operators for other shapes share it (the form: the packed layout, the
     * slice, the way the filter is read) */
    int64_t form[64];
    size_t nf = oa_dnnl_md_form(wmd, form, 58);
    const bool described = nf > 0;
    form[nf++] = sl->c0;
    form[nf++] = sl->c1;
    form[nf++] = g->transpose;
    form[nf++] = g->g;
    oa_ktensor src_t;
    const int64_t wn = g->oc * (g->ic / g->g) * g->kh * g->kw;
    oa_ktensor_set(&src_t, OA_KDT_F32, 1, &wn);
    src_t.data = wf;
    src_t.stable = s->wstable && described;
    oa_dnnl_reorder_job rj = {&wei_user, wsrc, wmd};
    void *wei = NULL;
    oa_status st = oa_kderived_get(&src_t, form, nf * sizeof(int64_t), wsz, oa_dnnl_reorder_fill, &rj, &wei);
    sl->wei = wei;
    if (st == OA_OK) {
        oa_dnnl_prime_gemm(pd);
    }
    if (st == OA_OK && dnnl_primitive_create(&sl->prim, pd) != dnnl_success) {
        st = OA_FAIL(OA_E_INTERNAL, "oneDNN conv primitive creation failed");
    }
    dnnl_primitive_desc_destroy(pd);
    return st;
}

/* Output-channel split: n slices of whole units (block-aligned channels, or whole groups). */
static int plan_slices(const geom *g, int64_t *bounds)
{
    int want = oa_kernels_slices();
    double flops = 2.0 * (double)(g->oc * g->oh * g->ow) * (double)(g->ic / g->g * g->kh * g->kw);
    if (g->n >= want || flops < oa_kernels_split_flops()) {
        want = 1; /* images give the parallelism, or too little work to share (SE-block 1x1 convs) */
    }
    int64_t blk = oa_kernels_block();
    int64_t unit;
    if (g->g == 1) {
        unit = blk; /* keeps NCHWc slices block-aligned, NCHW slices SIMD-sized */
    } else {
        int64_t ocg = g->oc / g->g, icg = g->ic / g->g;
        unit = ocg; /* whole groups, and block-aligned in and out for NCHWc */
        while (pblk(g) && ((unit % blk) != 0 || ((unit / ocg) * icg) % blk != 0)) {
            unit += ocg;
        }
    }
    int64_t units = (g->oc + unit - 1) / unit;
    int n = (int)(units < want ? units : want);
    n = n < 1 ? 1 : (n > MAX_SLICES ? MAX_SLICES : n);
    for (int i = 0; i <= n; i++) {
        int64_t u = units * i / n;
        bounds[i] = u * unit < g->oc ? u * unit : g->oc;
    }
    return n;
}

static oa_status setup_dnnl_layout(conv_state *s, const float *wf)
{
    int64_t bounds[MAX_SLICES + 1];
    int n = plan_slices(&s->g, bounds);
    if (conv_alloc_slices(s, n) != OA_OK) {
        return OA_E_NOMEM;
    }
    int n_try[2] = {s->post.n, 0};
    for (int attempt = 0; attempt < 2; attempt++) {
        /* the residual sum must be the first oneDNN post-op (and the residual must be
         * in the primitive's layout); later ones are ours */
        int n_post = n_try[attempt];
        for (int i = 0; i < n_post; i++) {
            if (s->post.ops[i].kind == OA_KPOST_ADD && (i != 0 || s->g.iblk || s->g.nhwc)) {
                n_post = i;
                break;
            }
        }
        oa_status st = OA_OK;
        s->nslices = 0;
        int taken = -1;
        for (int i = 0; i < n && st == OA_OK; i++) {
            s->sl[i].c0 = bounds[i];
            s->sl[i].c1 = bounds[i + 1];
            s->sl[i].src_plain = s->g.xpl && !s->g.nhwc; /* plain x: the primitive reads it directly */
            s->nslices = i + 1;
            st = make_slice(s, &s->sl[i], wf, n_post);
            if (st == OA_E_NOT_SUPPORTED && pblk(&s->g) && !s->sl[i].src_plain) {
                /* e.g. the first conv of a blocked chain (3 input channels): oneDNN's JIT
                 * kernels read such inputs in NCHW, so give them a plain copy of x */
                oa_error_clear();
                s->sl[i].src_plain = true;
                st = make_slice(s, &s->sl[i], wf, n_post);
            } else if (st == OA_E_NOT_SUPPORTED && s->g.xpl) {
                /* a chain entered by a wide plain x (PP-OCR det's 96-channel Concat
                 * into a 3x3 conv): oneDNN has only its reference kernel for NCHW x
                 * with many channels, so the slice reads a blocked copy of x */
                oa_error_clear();
                s->sl[i].src_plain = false;
                st = make_slice(s, &s->sl[i], wf, n_post);
            }
            if (st == OA_OK && taken >= 0 && s->post_from != taken) {
                st = OA_E_NOT_SUPPORTED; /* slices must agree on the fused prefix */
            }
            taken = s->post_from;
        }
        if (st == OA_OK) {
            s->scratch_max = 0;
            s->src_plain = false;
            s->xpack = false;
            for (int i = 0; i < s->nslices; i++) {
                s->scratch_max = s->sl[i].scratch > s->scratch_max ? s->sl[i].scratch : s->scratch_max;
                s->src_plain |= s->sl[i].src_plain;
                s->xpack |= s->g.xpl && !s->sl[i].src_plain && !s->g.nhwc;
            }
            s->has_sum = s->post_from > 0 && s->post.ops[0].kind == OA_KPOST_ADD;
            return OA_OK;
        }
        release_slices(s);
        oa_error_clear();
    }
    return OA_E_NOT_SUPPORTED;
}

/*
 * 3x3 convs of NCHWc chains on AVX-512 CPUs, from 256 input channels, that
 * reach oneDNN (stride 2, or stride 1 where Winograd does not take them:
 * ResNet's 7x7 x 512) run its brgemm kernels on NHWC copies of x and y: with
 * the weights coming from memory, as in a model, its blocked direct kernel
 * reaches 128-190 GFLOP/s on ResNet-50's widest 3x3s, brgemm 170-240; at 128
 * channels there is no gain (bench/KERNELS.md "NHWC for stride-2 3x3").
 * Whole 16-channel blocks only (the copies are block moves), fp32, and no
 * residual for oneDNN's sum (it would need an NHWC residual: our epilogue adds
 * it); OPENACL_CONV_NHWC=0 turns it off.
 *
 * bf16 convs on CPUs with AMX-BF16 take the same copies whatever their kernel:
 * oneDNN 2.6 runs AMX only on NHWC tensors, and its AVX512-BF16 kernels on
 * blocked ones are slower than fp32 on such CPUs (docs/precision.md "AMX").
 * x is converted to bf16 while it is copied (a plain x too: the stem), y comes
 * back in f32.
 */
static bool nhwc_amx_bf16(const conv_state *s)
{
    const geom *g = &s->g;
    return s->bf16 && oa_kisa_features()->amx_bf16 && g->blocked && !g->transpose && g->g == 1 &&
           oa_kernels_block() == 16 && (g->xpl || g->ic % 16 == 0) && g->oc % 16 == 0 &&
           oa_env_long("OPENACL_CONV_NHWC", 1) != 0;
}

static bool nhwc_eligible(const conv_state *s)
{
    const geom *g = &s->g;
    if (s->bf16) {
        return nhwc_amx_bf16(s);
    }
    return g->blocked && !g->xpl && !g->transpose && g->g == 1 && oa_kernels_block() == 16 &&
           oa_kisa_level() >= 2 && g->kh == 3 && g->kw == 3 && (g->sh == 1 || g->sh == 2) && g->sw == g->sh &&
           g->dh == 1 && g->dw == 1 && g->ic % 16 == 0 && g->oc % 16 == 0 && g->ic >= 256 &&
           oa_env_long("OPENACL_CONV_NHWC", 1) != 0;
}

/* NCHW ops first try blocked primitives behind reorders (oneDNN's direct JIT
 * kernels beat its im2col+GEMM ones 1.5-25x, see bench/KERNELS.md), then plain. */
static oa_status setup_dnnl(conv_state *s, const float *wf)
{
    if (nhwc_eligible(s)) {
        s->g.nhwc = true;
        if (setup_dnnl_layout(s, wf) == OA_OK && !s->src_plain) {
            return OA_OK;
        }
        release_slices(s);
        oa_error_clear();
        s->g.nhwc = false;
    }
    if (!s->g.blocked) {
        s->g.iblk = true;
        if (setup_dnnl_layout(s, wf) == OA_OK) {
            return OA_OK;
        }
        s->g.iblk = false;
    }
    return setup_dnnl_layout(s, wf);
}

/*
 * oneDNN's strided deconvolution runs at 0.2-0.7 GFLOP/s on PP-OCR det's
 * 2x2/stride-2 upsamplers (jit:avx2 and gemm alike, 86 and 124 ms for a
 * 59 and a 20 MFLOP layer). With kernel == stride, no padding, no
 * dilation, one group and plain tensors every input pixel owns its own
 * kh x kw output block, so the layer is a 1x1 convolution to oc*kh*kw
 * channels followed by a scatter (depth-to-space) that adds the bias and
 * applies the activation post-ops.
 */
static bool s2d_eligible(const oa_kop *op, const geom *g)
{
    if (!g->transpose || g->g != 1 || g->kh != g->sh || g->kw != g->sw || g->dh != 1 || g->dw != 1 || g->pt ||
        g->pb || g->pl || g->pr || g->oph || g->opw || g->blocked || op->in[0].layout != OA_KLAYOUT_PLAIN) {
        return false;
    }
    for (int i = 0; i < op->params.conv.post.n; i++) {
        if (op->params.conv.post.ops[i].kind != OA_KPOST_ACT) {
            return false;
        }
    }
    return getenv("OA_KERNELS_DECONV_S2D") == NULL || strcmp(getenv("OA_KERNELS_DECONV_S2D"), "0") != 0;
}

static oa_status s2d_setup(oa_kop *op, conv_state *s, const float *wf)
{
    const geom *g = &s->g;
    const int64_t kk = g->kh * g->kw, oc2 = g->oc * kk;
    float *w1 = malloc(sizeof(float) * (size_t)(oc2 * g->ic));
    if (w1 == NULL) {
        return OA_FAIL(OA_E_NOMEM, "deconv as 1x1 conv weights");
    }
    /* wf: [ic][oc][kh][kw] -> w1: [oc*kh*kw][ic][1][1] */
    for (int64_t ci = 0; ci < g->ic; ci++) {
        for (int64_t j = 0; j < oc2; j++) {
            w1[j * g->ic + ci] = wf[ci * oc2 + j];
        }
    }
    oa_kconv_params p1;
    memset(&p1, 0, sizeof(p1));
    p1.strides[0] = p1.strides[1] = 1;
    p1.dilations[0] = p1.dilations[1] = 1;
    p1.groups = 1;
    oa_ktensor in[3], out1;
    in[0] = op->in[0];
    in[0].data = NULL;
    const int64_t wd[4] = {oc2, g->ic, 1, 1};
    oa_ktensor_set(&in[1], OA_KDT_F32, 4, wd);
    in[1].data = w1;
    memset(&in[2], 0, sizeof(in[2]));
    in[2].dtype = OA_KDT_UNDEFINED;
    const int64_t od[4] = {g->n, oc2, g->ih, g->iw};
    oa_ktensor_set(&out1, OA_KDT_F32, 4, od);
    oa_status st = oa_kop_create(OA_KOP_CONV2D, &p1, 3, in, 1, &out1, &s->s2d);
    free(w1);
    if (st != OA_OK) {
        return st;
    }
    s->s2d_ws = (oa_kop_workspace_size(s->s2d) + 63) / 64 * 64;
    op->ws_size = s->s2d_ws + sizeof(float) * (size_t)(g->n * oc2 * g->ih * g->iw);
    op->impl = "onednn-s2d";
    s->post_from = 0;
    return OA_OK;
}

typedef struct s2d_ctx {
    const conv_state *s;
    const float *t;
    float *y;
} s2d_ctx;

/* Image n, output channel co: y[co][i*kh + a][j*kw + b] = t[(co*kh + a)*kw + b][i][j] + bias, then the post-ops. */
static void s2d_task(void *ctx, size_t tid, size_t begin, size_t end)
{
    (void)tid;
    const s2d_ctx *c = ctx;
    const conv_state *s = c->s;
    const geom *g = &s->g;
    const int64_t kh = g->kh, kw = g->kw, ihw = g->ih * g->iw, ohw = g->oh * g->ow;
    for (size_t r = begin; r < end; r++) {
        const int64_t n = (int64_t)r / g->oc, co = (int64_t)r % g->oc;
        const float bias = s->bias != NULL ? s->bias[co] : 0.0f;
        const float *t = c->t + (n * g->oc + co) * kh * kw * ihw;
        float *y = c->y + (n * g->oc + co) * ohw;
        for (int64_t a = 0; a < kh; a++) {
            for (int64_t i = 0; i < g->ih; i++) {
                float *row = y + (i * kh + a) * g->ow;
                for (int64_t b = 0; b < kw; b++) {
                    const float *src = t + (a * kw + b) * ihw + i * g->iw;
                    for (int64_t j = 0; j < g->iw; j++) {
                        row[j * kw + b] = src[j] + bias;
                    }
                }
            }
        }
        for (int k = 0; k < s->post.n; k++) {
            const oa_kpost *p = &s->post.ops[k];
            oa_kact_apply(p->act, p->alpha, p->beta, y, (size_t)ohw);
        }
    }
}

static oa_status s2d_run(const conv_state *s, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    const geom *g = &s->g;
    float *t = (float *)(void *)((char *)ws + s->s2d_ws);
    const void *ins[3] = {in[0], NULL, NULL};
    void *outs[1] = {t};
    oa_status st = oa_kop_run(s->s2d, ins, outs, ws, pool);
    if (st != OA_OK) {
        return st;
    }
    s2d_ctx c = {s, t, out[0]};
    const size_t grain = (size_t)(OA_KGRAIN_ELEMS / (g->oh * g->ow + 1) + 1);
    oa_threadpool_parallel_for(pool, (size_t)(g->n * g->oc), grain, s2d_task, &c);
    return OA_OK;
}

/*
 * The 2x2 / stride-2 case of the above (PP-OCR det's upsamplers) without the
 * intermediate product: an ISA kernel (simd/deconv_impl.inc) writes each
 * input row's two output rows, interleaving the taps in registers, and the
 * activations run on those rows while they are in cache.
 * OPENACL_DECONV_DIRECT=0 keeps the 1x1 convolution + scatter.
 */
static oa_status dc_setup(oa_kop *op, conv_state *s, const float *wf)
{
    const geom *g = &s->g;
    s->dcw = aligned_alloc(64, (sizeof(float) * (size_t)(g->oc * g->ic * 4) + 63) / 64 * 64);
    if (s->dcw == NULL) {
        return OA_FAIL(OA_E_NOMEM, "2x2 deconv taps");
    }
    for (int64_t ci = 0; ci < g->ic; ci++) { /* wf: [ic][oc][2][2] */
        for (int64_t co = 0; co < g->oc; co++) {
            memcpy(s->dcw + (co * g->ic + ci) * 4, wf + (ci * g->oc + co) * 4, sizeof(float) * 4);
        }
    }
    op->ws_size = 0;
    op->impl = oa_kisa_level() >= 2 ? "deconv2x2-avx512" : "deconv2x2-avx2";
    s->post_from = 0;
    return OA_OK;
}

typedef struct dc_ctx {
    const conv_state *s;
    const float *x;
    float *y;
} dc_ctx;

/* one (image, input row) per index */
static void dc_task(void *ctx, size_t tid, size_t begin, size_t end)
{
    (void)tid;
    const dc_ctx *c = ctx;
    const conv_state *s = c->s;
    const geom *g = &s->g;
    const int64_t ihw = g->ih * g->iw, ohw = g->oh * g->ow;
    for (size_t r = begin; r < end; r++) {
        const int64_t n = (int64_t)r / g->ih, i = (int64_t)r % g->ih;
        float *y = c->y + n * g->oc * ohw + 2 * i * g->ow;
        s->dc(c->x + n * g->ic * ihw + i * g->iw, g->ic, ihw, g->iw, s->dcw, 0, g->oc, s->bias, y, ohw, g->ow);
        for (int k = 0; k < s->post.n; k++) {
            const oa_kpost *p = &s->post.ops[k];
            for (int64_t co = 0; co < g->oc; co++) {
                oa_kact_apply(p->act, p->alpha, p->beta, y + co * ohw, (size_t)(2 * g->ow));
            }
        }
    }
}



/* NCHWc x -> NCHW xb, one (image, channel) per index */
void oa_conv_to_plain_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const blk_ctx *c = vctx;
    int64_t blk = oa_kernels_block(), cpad = oa_kc_padded(c->c);
    for (size_t idx = b; idx < e; idx++) {
        int64_t n = (int64_t)idx / c->c, ch = (int64_t)idx % c->c;
        const float *src = c->x + (n * cpad + ch / blk * blk) * c->hw + ch % blk;
        float *dst = c->xb + (int64_t)idx * c->hw;
        for (int64_t i = 0; i < c->hw; i++) {
            dst[i] = src[i * blk];
        }
    }
}

/* NCHW -> NCHWc for one (image, channel block) per index */
void oa_conv_to_blocked_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const blk_ctx *c = vctx;
    int64_t blk = oa_kernels_block(), cb = (c->c + blk - 1) / blk;
    for (size_t idx = b; idx < e; idx++) {
        int64_t n = (int64_t)idx / cb, k = (int64_t)idx % cb;
        int64_t nc = c->c - k * blk < blk ? c->c - k * blk : blk;
        oa_kblk_pack(c->x + (n * c->c + k * blk) * c->hw, nc, c->hw, c->xb + (int64_t)idx * c->hw * blk, blk);
    }
}

static void conv_release(oa_kop *op)
{
    conv_state *s = op->state;
    oa_kop_destroy(s->s2d);
    oa_kop_destroy(s->detour);
    oa_kcgemv_destroy(s->gv);
    free(s->dcw);
    free(s->stw);
    free(s->stb);
    free(s->dww);
    free(s->dwb);
    if (s->pw != NULL) {
        oa_kpw_prod_free(s->pw);
        free(s->pw);
    }
    release_slices(s);
    free(s->sl);
    oa_kderived_put(s->wu);
    free(s->wbias);
    free(s->bias);
    free(s->wref_own);
    free(s);
    op->state = NULL;
}

/* ---- bf16 (docs/precision.md): the bf16 copies of x the primitives read ---- */

/* Bytes of the NHWC copy of x (bf16 or f32), a whole number of cache lines: y's copy follows it. */
static size_t nhwc_x_bytes(const conv_state *s)
{
    const size_t n = (size_t)(s->g.n * s->g.ic * s->g.ih * s->g.iw);
    return (n * (s->bf16 ? sizeof(uint16_t) : sizeof(float)) + 63) / 64 * 64;
}

static void bf16_ws(oa_kop *op, conv_state *s)
{
    const geom *g = &s->g;
    bool plain = false, blk = false;
    for (int i = 0; i < s->nslices; i++) {
        plain |= s->sl[i].src_plain;
        blk |= !s->sl[i].src_plain;
    }
    s->xh_plain = plain ? g->n * g->ic * g->ih * g->iw : 0;
    s->xh_blk = blk ? g->n * (pblk(g) ? oa_kc_padded(g->ic) : g->ic) * g->ih * g->iw : 0;
    s->xh_off = (op->ws_size + 63) / 64 * 64;
    op->ws_size = s->xh_off + ((size_t)s->xh_plain * 2 + 63) / 64 * 64 + (size_t)s->xh_blk * 2;
    op->impl = "onednn-bf16";
}

/* The folded filter (*wown, when folding made one), the model's read in place when it is stable (it outlives the
 * operator), else a copy of it, kept as s->wref: the paths that read the filter in its input layout at run (the
 * GEMVs, the NCHW kernels, the reference). */
static oa_status keep_wref(const oa_kop *op, conv_state *s, float **wown)
{
    if (*wown == NULL && s->wstable) {
        s->wref = op->in[1].data;
        return OA_OK;
    }
    if (*wown == NULL) { /* the model's constant may not outlive the operator */
        const size_t wb = sizeof(float) * (size_t)oa_ktensor_numel(&op->in[1]);
        if ((*wown = malloc(wb > 0 ? wb : 1)) == NULL) {
            return OA_FAIL(OA_E_NOMEM, "conv weights");
        }
        memcpy(*wown, op->in[1].data, wb);
    }
    s->wref = s->wref_own = *wown;
    *wown = NULL;
    return OA_OK;
}

static oa_status conv_setup(oa_kop *op)
{
    conv_state *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "conv state");
    }
    op->state = s;
    int n_add;
    oa_status st = conv_geom(&op->params.conv, op->type == OA_KOP_CONV2D_TRANSPOSE, op->n_in, op->in, &s->g, &n_add);
    if (st != OA_OK) {
        return st;
    }
    s->post = op->params.conv.post;
    int first_add = 3 + (op->params.conv.fold_bn ? 4 : 0);
    for (int i = 0, k = 0; i < s->post.n; i++) {
        s->add_in[i] = s->post.ops[i].kind == OA_KPOST_ADD ? first_add + k++ : -1;
    }
    if (op->in[1].data == NULL) {
        return OA_FAIL(OA_E_PARAM, "conv: the filter must be constant (data at create)");
    }
    const oa_ktensor *b = oa_kt_opt(op->n_in, op->in, 2);
    if (b != NULL && b->data == NULL) {
        return OA_FAIL(OA_E_PARAM, "conv: the bias must be constant (data at create)");
    }
    float *wown = NULL; /* the folded copy, when there is one */
    st = fold_weights(op, &s->g, &wown, &s->bias);
    if (st != OA_OK) {
        return st;
    }
    const float *wf = wown != NULL ? wown : (const float *)op->in[1].data;
    s->wstable = wown == NULL && op->in[1].stable;
    s->use_dnnl = false;
    /* depthwise convs stay fp32: memory-bound, bf16 only adds error (docs/precision.md) */
    s->bf16 = oa_klowp_compute(op->params.conv.lowp) == OA_KLOWP_BF16 && oa_dnnl_enabled() &&
              !(s->g.g > 1 && s->g.ic == s->g.g);
    if (s2d_eligible(op, &s->g) && s->g.kh == 2 && s->g.kw == 2 && oa_env_long("OPENACL_DECONV_DIRECT", 1) != 0 &&
        (s->dc = oa_kdeconv2x2_for(oa_kisa_tier_used())) != NULL) {
        st = dc_setup(op, s, wf);
        free(wown);
        return st;
    }
    const geom *gg = &s->g; /* squeeze-excitation's 1x1 convs on 1x1 maps: a GEMV (oneDNN: ~3 us a call) */
    if (!gg->transpose && gg->g == 1 && gg->kh == 1 && gg->kw == 1 && gg->ih == 1 && gg->iw == 1 && gg->oh == 1 &&
        gg->ow == 1 && oa_env_long("OPENACL_CONV_GEMV", 1) != 0 &&
        (s->gemv = oa_kgemv_for(oa_kisa_tier_used())) != NULL) {
        op->impl = "gemv-1x1"; /* on wref: [oc][ic], the GEMV's rows */
        return keep_wref(op, s, &wown);
    }
    if (!s->g.transpose && s->g.g == 1 && !pblk(&s->g) && !s->g.xpl && !s->bf16) {
        const geom *g = &s->g;
        oa_kcgemv_shape cs = {g->n, g->ic, g->ih, g->iw, g->oc, g->oh, g->ow, g->kh, g->kw, g->sh, g->sw, g->dh,
                              g->dw, g->pt, g->pl};
        st = oa_kcgemv_create(&cs, wf, s->bias, &s->gv, &op->ws_size, &op->impl);
        if (st != OA_OK || s->gv != NULL) {
            free(wown);
            return st;
        }
    }
    if (oa_conv_nchw1x1_eligible(op, s)) {
        st = keep_wref(op, s, &wown);
        return st != OA_OK ? st : oa_conv_nchw1x1_setup(op, s);
    }
    if (oa_conv_nchw_dw_eligible(op, s)) {
        st = keep_wref(op, s, &wown);
        return st != OA_OK ? st : oa_conv_nchw_dw_setup(op, s);
    }
    if (oa_conv_detour_eligible(op, s)) {
        st = oa_conv_detour_setup(op, s); /* the inner op folds and packs its own copy */
        if (st != OA_OK || s->detour != NULL) {
            free(wown);
            return st;
        }
    }
    int wm = s->bf16 ? 0 : oa_conv_wino_tile(&s->g); /* bf16: oneDNN's direct bf16 kernels instead */
    if (wm == 0 && oa_conv_stem_eligible(s)) { /* (Winograd takes ic >= 16 unless forced) */
        st = oa_conv_stem_setup(op, s, wf);
        free(wown);
        return st;
    }
    if (oa_conv_dw_eligible(s)) {
        st = oa_conv_dw_setup(op, s, wf);
        free(wown);
        return st;
    }
    if (wm == 0 && !nhwc_amx_bf16(s) && oa_conv_pw_eligible(s)) {
        st = oa_conv_pw_setup(op, s, wf);
        free(wown);
        return st;
    }
    if (wm != 0) {
        st = oa_conv_wino_setup(op, s, wf, wm);
        free(wown);
        return st;
    }
    if (oa_dnnl_enabled() && oa_ktensor_numel(&op->out[0]) > 0 && s2d_eligible(op, &s->g)) {
        st = s2d_setup(op, s, wf);
        if (st == OA_OK) {
            free(wown);
            return OA_OK;
        }
        oa_error_clear(); /* the general path below */
        oa_kop_destroy(s->s2d);
        s->s2d = NULL;
    }
    if (oa_dnnl_enabled() && oa_ktensor_numel(&op->out[0]) > 0 && oa_ktensor_numel(&op->in[0]) > 0) {
        int saved = oa_dnnl_enter();
        oa_error_quiet_push(); /* a probe: failing layouts fall back to our kernels, no ERROR line */
        st = setup_dnnl(s, wf);
        if (st != OA_OK && s->bf16) { /* no bf16 kernel for this conv: fp32 */
            oa_error_clear();
            s->bf16 = false;
            st = setup_dnnl(s, wf);
        }
        oa_error_quiet_pop();
        oa_dnnl_leave(saved);
        s->use_dnnl = st == OA_OK;
    }
    if (s->use_dnnl) {
        free(wown);
        op->impl = s->g.nhwc ? (s->bf16 ? "onednn-nhwc-bf16" : "onednn-nhwc") : "onednn";
        op->ws_size = s->scratch_max == 0 ? 0 : (size_t)oa_kernels_slices() * ((s->scratch_max + 63) / 64 * 64);
        if (s->src_plain && s->g.blocked && !s->g.xpl) { /* plain copy of x */
            op->ws_size += sizeof(float) * (size_t)(s->g.n * s->g.ic * s->g.ih * s->g.iw);
        }
        if (s->xpack) { /* blocked copy of x */
            op->ws_size += sizeof(float) * (size_t)(s->g.n * oa_kc_padded(s->g.ic) * s->g.ih * s->g.iw);
        }
        if (s->g.nhwc) { /* NHWC copies of x (bf16: 2 bytes) and y (f32); what the copy back applies */
            op->ws_size += nhwc_x_bytes(s) + sizeof(float) * (size_t)(s->g.n * s->g.oc * s->g.oh * s->g.ow);
            s->nhwc_add = s->post_from < s->post.n && s->post.ops[s->post_from].kind == OA_KPOST_ADD;
            s->nhwc_acts_all = oa_kacts_from_post(&s->post, s->post_from + (s->nhwc_add ? 1 : 0), &s->nhwc_acts);
        }
        if (s->g.iblk) { /* blocked copies of x and y */
            op->ws_size += sizeof(float) * (size_t)(s->g.n * (oa_kc_padded(s->g.ic) * s->g.ih * s->g.iw +
                                                             oa_kc_padded(s->g.oc) * s->g.oh * s->g.ow));
        }
        if (s->bf16 && !s->g.nhwc) { /* (the NHWC copy of x is the bf16 one) */
            bf16_ws(op, s);
        }
    } else {
        st = keep_wref(op, s, &wown); /* the reference path keeps its own copy */
        if (st != OA_OK) {
            return st;
        }
        s->post_from = 0;
        op->impl = "ref";
        op->ws_size = 0;
    }
    return OA_OK;
}

/* ---- run: our part of the epilogue on a region ---- */

static inline int64_t addr(const geom *g, bool blocked, int64_t C, int64_t H, int64_t W, int64_t n, int64_t c,
                           int64_t h, int64_t w)
{
    (void)g;
    if (!blocked) {
        return ((n * C + c) * H + h) * W + w;
    }
    int64_t cb = oa_kernels_block(), CB = (C + cb - 1) / cb;
    return (((n * CB + c / cb) * H + h) * W + w) * cb + c % cb;
}

/* Applies post-ops [from, n) to output channels [c0, c1) of image n (a contiguous region). */
void oa_conv_epilogue_channels(const conv_state *s, const void *const *in, float *y, int64_t n, int64_t c0,
                               int64_t c1, int from)
{
    const geom *g = &s->g;
    if (from >= s->post.n) {
        return;
    }
    int64_t blk = g->blocked ? oa_kernels_block() : 1;
    int64_t cpad = g->blocked ? oa_kc_padded(g->oc) : g->oc;
    int64_t hw = g->oh * g->ow;
    int64_t e1 = g->blocked && c1 == g->oc ? cpad : c1;
    int64_t off = (n * cpad + c0) * hw, len = (e1 - c0) * hw;
    for (int k = from; k < s->post.n; k++) {
        const oa_kpost *p = &s->post.ops[k];
        if (p->kind == OA_KPOST_ADD) {
            oa_kadd_inplace(y + off, (const float *)in[s->add_in[k]] + off, (size_t)len);
        } else {
            oa_kact_apply(p->act, p->alpha, p->beta, y + off, (size_t)len);
        }
    }
    if (g->blocked && c1 == g->oc) {
        oa_kblk_zero_lanes(y + (n * cpad + cpad - blk) * hw, hw, blk, blk - (cpad - g->oc));
    }
}

typedef struct conv_ctx {
    const conv_state *s;
    const void *const *in;
    const float *xplain; /* plain copy of x, or NULL */
    float *xb, *yb;      /* blocked copies (iblk) */
    float *y;
    char *ws;
    size_t ws_slot;
    _Atomic size_t next;
    size_t ntasks;
    _Atomic int err;
    /* bf16: the f32 sources of the bf16 copies, and the copies (same layout, same offsets) */
    const float *xf_plain, *xf_blk;
    const uint16_t *xh_plain, *xh_blk;
    const uint16_t *xhn; /* NHWC bf16 copy of x (nhwc_amx_bf16) */
} conv_ctx;

/* bf16 (docs/precision.md): x as the primitives read it, converted once per run */
static void bf16_prepare(const conv_state *s, conv_ctx *c, const void *const *in, void *ws, oa_threadpool *pool)
{
    const geom *g = &s->g;
    uint16_t *h = (uint16_t *)(void *)((char *)ws + s->xh_off);
    if (s->xh_plain > 0) {
        c->xf_plain = g->iblk ? (const float *)in[0] : c->xplain;
        c->xh_plain = h;
        oa_kbf16_convert(pool, c->xf_plain, h, (size_t)s->xh_plain);
        h += ((size_t)s->xh_plain * 2 + 63) / 64 * 64 / 2;
    }
    if (s->xh_blk > 0) {
        c->xf_blk = g->iblk || s->xpack ? c->xb : (const float *)in[0];
        c->xh_blk = h;
        oa_kbf16_convert(pool, c->xf_blk, h, (size_t)s->xh_blk);
    }
}

/* x from NCHWc to NHWC with whole 16-channel blocks (nhwc_eligible): pixel rows [b, e) of all
 * images (index = image * H + row), each pixel's blocks moved 64 bytes at a time. */
typedef struct nhwc_ctx {
    const float *x; /* NCHWc */
    float *xn;      /* NHWC */
    int64_t c, h, w;
} nhwc_ctx;

static void nhwc_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const nhwc_ctx *m = vctx;
    const int64_t cb = m->c / 16, hw = m->h * m->w;
    for (size_t r = b; r < e; r++) {
        const int64_t n = (int64_t)r / m->h, row = (int64_t)r % m->h;
        for (int64_t q = row * m->w; q < (row + 1) * m->w; q++) {
            for (int64_t k = 0; k < cb; k++) {
                memcpy(m->xn + (n * hw + q) * m->c + k * 16, m->x + ((n * cb + k) * hw + q) * 16, 64);
            }
        }
    }
}

/* The slice's primitive on x and y with thread tid's scratchpad; false (and c->err set) when it failed. */
static bool slice_exec(conv_ctx *c, slice *sl, size_t tid, const void *x, float *y)
{
    const dnnl_memory_desc_t *mds[5] = {&sl->src_md, &sl->wei_md, &sl->bias_md, &sl->dst_md, &sl->scr_md};
    void *ptrs[5] = {(void *)(uintptr_t)x, sl->wei, c->s->bias + sl->c0, y, c->ws + tid * c->ws_slot};
    const int kinds[5] = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_BIAS, DNNL_ARG_DST, DNNL_ARG_SCRATCHPAD};
    if (oa_dnnl_exec_kept(&sl->args, sl->prim, sl->scratch ? 5 : 4, kinds, mds, ptrs) != OA_OK) {
        atomic_store(&c->err, 1);
        return false;
    }
    return true;
}

/* One slice of an NHWC conv (image n): the primitive writes the slice's channels as dense NHWC
 * in the workspace; they go to y's blocks [c0/16, c1/16) while in cache, then our epilogue. */
static void nhwc_slice(conv_ctx *c, slice *sl, int64_t n, size_t tid)
{
    const conv_state *s = c->s;
    const geom *g = &s->g;
    const int64_t ohw = g->oh * g->ow, soc = sl->c1 - sl->c0;
    float *ys = c->yb + n * g->oc * ohw + sl->c0 * ohw;
    const int64_t xoff = n * g->ic * g->ih * g->iw;
    if (!slice_exec(c, sl, tid, s->bf16 ? (const void *)(c->xhn + xoff) : (const void *)(c->xb + xoff), ys)) {
        return;
    }
    /* a residual add next in the chain is done while copying: it may share y's memory (docs/memory.md
     * "Residuals in place"), each element read before the same element of y is written; simple
     * activations after it too, in registers */
    const int64_t at = (n * (g->oc / 16) + sl->c0 / 16) * ohw * 16;
    const float *res = s->nhwc_add ? (const float *)c->in[s->add_in[s->post_from]] + at : NULL;
    oa_knhwc_to_blk16_avx512(ys, soc, ohw, c->y + at, res, &s->nhwc_acts);
    if (!s->nhwc_acts_all) {
        oa_conv_epilogue_channels(s, c->in, c->y, n, sl->c0, sl->c1, s->post_from + (s->nhwc_add ? 1 : 0));
    }
}

static void conv_dnnl_worker(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)b, (void)e;
    conv_ctx *c = vctx;
    const conv_state *s = c->s;
    const geom *g = &s->g;
    int saved = oa_dnnl_enter();
    int64_t ipad = pblk(g) ? oa_kc_padded(g->ic) : g->ic;
    int64_t opad = pblk(g) ? oa_kc_padded(g->oc) : g->oc;
    int64_t ihw = g->ih * g->iw, ohw = g->oh * g->ow;
    for (;;) {
        size_t t = atomic_fetch_add(&c->next, 1);
        if (t >= c->ntasks) {
            break;
        }
        int64_t n = (int64_t)t / s->nslices;
        slice *sl = &s->sl[t % (size_t)s->nslices];
        if (g->nhwc) {
            nhwc_slice(c, sl, n, tid);
            continue;
        }
        const float *x;
        if (sl->src_plain) {
            x = (g->iblk ? (const float *)c->in[0] : c->xplain) + (n * g->ic + sl->ic0) * ihw;
        } else {
            x = (g->iblk || s->xpack ? c->xb : (const float *)c->in[0]) + (n * ipad + sl->ic0) * ihw;
        }
        float *y = (g->iblk ? c->yb : c->y) + (n * opad + sl->c0) * ohw;
        const void *xsrc = x;
        if (s->bf16) {
            xsrc = sl->src_plain ? (const void *)(c->xh_plain + (x - c->xf_plain)) : (const void *)(c->xh_blk + (x - c->xf_blk));
        }
        if (s->has_sum) {
            const float *r = (const float *)c->in[s->add_in[0]] + (n * opad + sl->c0) * ohw;
            if (r != y) { /* residual into y; the primitive's sum post-op adds it */
                int64_t e1 = g->blocked && sl->c1 == g->oc ? opad : sl->c1;
                memcpy(y, r, sizeof(float) * (size_t)((e1 - sl->c0) * ohw));
            }
        }
        (void)slice_exec(c, sl, tid, xsrc, y);
        int from = s->post_from;
        if (g->iblk) { /* back to NCHW while the slice is in cache; a residual add that
                        * comes next is done here (the residual may alias y) */
            int64_t blk = oa_kernels_block();
            const float *res = NULL;
            if (from < s->post.n && s->post.ops[from].kind == OA_KPOST_ADD) {
                res = (const float *)c->in[s->add_in[from]];
                from++;
            }
            for (int64_t c0 = sl->c0; c0 < sl->c1; c0 += blk) {
                int64_t nc = sl->c1 - c0 < blk ? sl->c1 - c0 : blk;
                int64_t off = (n * g->oc + c0) * ohw;
                oa_kblk_unpack(y + (c0 - sl->c0) * ohw, nc, ohw, c->y + off, blk, res != NULL ? res + off : NULL);
            }
        }
        oa_conv_epilogue_channels(s, c->in, c->y, n, sl->c0, sl->c1, from);
    }
    oa_dnnl_leave(saved);
}

/* ---- reference ---- */

typedef struct ref_ctx {
    const conv_state *s;
    const float *x;
    float *y;
    const void *const *in;
} ref_ctx;

static void conv_ref_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const ref_ctx *c = vctx;
    const conv_state *s = c->s;
    const geom *g = &s->g;
    int64_t icg = g->ic / g->g, ocg = g->oc / g->g;
    for (size_t idx = b; idx < e; idx++) { /* idx = n * oc + oc */
        int64_t n = (int64_t)idx / g->oc, oc = (int64_t)idx % g->oc, grp = oc / ocg;
        for (int64_t oh = 0; oh < g->oh; oh++) {
            for (int64_t ow = 0; ow < g->ow; ow++) {
                float acc = s->bias[oc];
                if (!g->transpose) {
                    for (int64_t ic = 0; ic < icg; ic++) {
                        for (int64_t kh = 0; kh < g->kh; kh++) {
                            int64_t ih = oh * g->sh - g->pt + kh * g->dh;
                            if (ih < 0 || ih >= g->ih) {
                                continue;
                            }
                            for (int64_t kw = 0; kw < g->kw; kw++) {
                                int64_t iw = ow * g->sw - g->pl + kw * g->dw;
                                if (iw < 0 || iw >= g->iw) {
                                    continue;
                                }
                                acc += c->x[addr(g, g->blocked && !g->xpl, g->ic, g->ih, g->iw, n, grp * icg + ic, ih, iw)] *
                                       s->wref[((oc * icg + ic) * g->kh + kh) * g->kw + kw];
                            }
                        }
                    }
                } else {
                    int64_t ocl = oc % ocg;
                    for (int64_t ic = grp * icg; ic < (grp + 1) * icg; ic++) {
                        for (int64_t kh = 0; kh < g->kh; kh++) {
                            int64_t t = oh + g->pt - kh * g->dh;
                            if (t < 0 || t % g->sh != 0 || t / g->sh >= g->ih) {
                                continue;
                            }
                            for (int64_t kw = 0; kw < g->kw; kw++) {
                                int64_t u = ow + g->pl - kw * g->dw;
                                if (u < 0 || u % g->sw != 0 || u / g->sw >= g->iw) {
                                    continue;
                                }
                                acc += c->x[addr(g, g->blocked && !g->xpl, g->ic, g->ih, g->iw, n, ic, t / g->sh, u / g->sw)] *
                                       s->wref[((ic * ocg + ocl) * g->kh + kh) * g->kw + kw];
                            }
                        }
                    }
                }
                int64_t yo = addr(g, g->blocked, g->oc, g->oh, g->ow, n, oc, oh, ow);
                for (int k = 0; k < s->post.n; k++) {
                    const oa_kpost *p = &s->post.ops[k];
                    if (p->kind == OA_KPOST_ADD) {
                        acc += ((const float *)c->in[s->add_in[k]])[yo];
                    } else {
                        oa_kew_ref.act[p->act](&acc, 1, p->alpha, p->beta);
                    }
                }
                c->y[yo] = acc;
            }
        }
    }
}

/* y = bias + W x per image (1x1 map: x and y are channel vectors, padded when
 * blocked), then the post-ops; padding lanes end zero (oa_conv_epilogue_channels). */
static void gemv_run(const conv_state *s, const oa_kop *op, const void *const *in, float *y)
{
    const geom *g = &s->g;
    const bool xb = op->in[0].layout == OA_KLAYOUT_NCHWC;
    const int64_t xs = xb ? oa_kc_padded(g->ic) : g->ic, ys = g->blocked ? oa_kc_padded(g->oc) : g->oc;
    /* a first residual add starts the sum (it may share y's memory: docs/memory.md "Residuals in place") */
    const bool add = s->post.n > 0 && s->post.ops[0].kind == OA_KPOST_ADD;
    for (int64_t n = 0; n < g->n; n++) {
        float *yn = y + n * ys;
        if (add) {
            const float *rn = (const float *)in[s->add_in[0]] + n * ys;
            for (int64_t c = 0; c < g->oc; c++) {
                yn[c] = s->bias[c] + rn[c];
            }
        } else {
            memcpy(yn, s->bias, (size_t)g->oc * sizeof(float));
        }
        memset(yn + g->oc, 0, (size_t)(ys - g->oc) * sizeof(float));
        s->gemv(s->wref, g->oc, g->ic, (const float *)in[0] + n * xs, yn);
        oa_conv_epilogue_channels(s, in, y, n, 0, g->oc, add ? 1 : 0);
    }
}

static oa_status conv_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    const conv_state *s = op->state;
    if (in[0] == NULL || out[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "conv: NULL data pointer");
    }
    for (int k = 0; k < s->post.n; k++) {
        if (s->add_in[k] >= 0 && in[s->add_in[k]] == NULL) {
            return OA_FAIL(OA_E_PARAM, "conv: residual input %d is NULL", s->add_in[k]);
        }
    }
    const geom *g = &s->g;
    if (oa_ktensor_numel(&op->out[0]) == 0) {
        return OA_OK;
    }
    if (s->gemv != NULL) {
        gemv_run(s, op, in, out[0]);
        return OA_OK;
    }
    if (s->gv != NULL) { /* a first residual add (it may alias y) is done by the GEMV's write */
        int from = s->post.n > 0 && s->add_in[0] >= 0;
        oa_kcgemv_run(s->gv, in[0], from ? in[s->add_in[0]] : NULL, out[0], ws, pool);
        for (int64_t n = 0; n < g->n; n++) {
            oa_conv_epilogue_channels(s, in, out[0], n, 0, g->oc, from);
        }
        return OA_OK;
    }
    if (s->dc != NULL) {
        dc_ctx c = {s, in[0], out[0]};
        size_t grain = (size_t)(OA_KGRAIN_ELEMS / (g->oc * 2 * g->ow + 1) + 1);
        oa_threadpool_parallel_for(pool, (size_t)(g->n * g->ih), grain, dc_task, &c);
        return OA_OK;
    }
    if (s->s2d != NULL) {
        return s2d_run(s, in, out, ws, pool);
    }
    if (s->pl1x1 != NULL) {
        return oa_conv_nchw1x1_run(s, in, out, pool);
    }
    if (s->dwpl != NULL) {
        return oa_conv_nchw_dw_run(s, in, out, ws, pool);
    }
    if (s->detour != NULL) {
        return oa_conv_detour_run(s, in, out, ws, pool);
    }
    if (s->stem != NULL) {
        return oa_conv_stem_run(s, in[0], out[0], pool);
    }
    if (s->dw != NULL) {
        return oa_conv_dw_run(s, in[0], out[0], pool);
    }
    if (s->pw != NULL) {
        return oa_conv_pw_run(s, in, out[0], ws, pool);
    }
    if (s->wm != 0) {
        return oa_conv_wino_run(s, in, out, ws, pool);
    }
    if (s->use_dnnl) {
        conv_ctx c = {.s = s, .in = in, .y = out[0], .ws = ws, .ws_slot = (s->scratch_max + 63) / 64 * 64};
        atomic_init(&c.next, 0);
        atomic_init(&c.err, 0);
        c.ntasks = (size_t)(g->n * s->nslices);
        if (g->xpl) {
            c.xplain = in[0];
            if (s->xpack) { /* NCHW -> NCHWc copy of x after the scratch slots */
                c.xb = (float *)(void *)((char *)ws + (size_t)oa_kernels_slices() * c.ws_slot);
                blk_ctx bc = {in[0], c.xb, g->ic, g->ih * g->iw};
                size_t tasks = (size_t)(g->n * (oa_kc_padded(g->ic) / oa_kernels_block()));
                oa_threadpool_parallel_for(pool, tasks, (size_t)(OA_KGRAIN_ELEMS / (bc.hw * 8 + 1) + 1),
                                           oa_conv_to_blocked_task, &bc);
            }
        } else if (s->src_plain && g->blocked) { /* NCHWc -> NCHW copy of x after the scratch slots */
            float *xp = (float *)(void *)((char *)ws + (size_t)oa_kernels_slices() * c.ws_slot);
            blk_ctx bc = {in[0], xp, g->ic, g->ih * g->iw};
            oa_threadpool_parallel_for(pool, (size_t)(g->n * g->ic), (size_t)(OA_KGRAIN_ELEMS / (bc.hw + 1) + 1),
                                       oa_conv_to_plain_task, &bc);
            c.xplain = xp;
        }
        if (g->nhwc) { /* NHWC copy of x, then the slices' NHWC outputs, after the scratch slots */
            char *base = (char *)ws + (size_t)oa_kernels_slices() * c.ws_slot;
            c.yb = (float *)(void *)(base + nhwc_x_bytes(s));
            if (s->bf16) {
                uint16_t *xh = (uint16_t *)(void *)base;
                oa_kbf16_to_nhwc(pool, in[0], !g->xpl, g->n, g->ic, g->ih, g->iw, xh);
                c.xhn = xh;
            } else {
                c.xb = (float *)(void *)base;
                nhwc_ctx m = {in[0], c.xb, g->ic, g->ih, g->iw};
                oa_threadpool_parallel_for(pool, (size_t)(g->n * g->ih),
                                           (size_t)(OA_KGRAIN_ELEMS / (g->iw * g->ic + 1) + 1), nhwc_task, &m);
            }
        }
        if (g->iblk) {
            char *base = (char *)ws + (size_t)oa_kernels_slices() * c.ws_slot;
            c.xb = (float *)(void *)base;
            c.yb = c.xb + g->n * oa_kc_padded(g->ic) * g->ih * g->iw;
            bool all_plain = true;
            for (int i = 0; i < s->nslices; i++) {
                all_plain &= s->sl[i].src_plain;
            }
            if (!all_plain) {
                blk_ctx bc = {in[0], c.xb, g->ic, g->ih * g->iw};
                size_t tasks = (size_t)(g->n * (oa_kc_padded(g->ic) / oa_kernels_block()));
                oa_threadpool_parallel_for(pool, tasks, (size_t)(OA_KGRAIN_ELEMS / (bc.hw * 8 + 1) + 1),
                                           oa_conv_to_blocked_task, &bc);
            }
        }
        if (s->bf16 && !g->nhwc) {
            bf16_prepare(s, &c, in, ws, pool);
        }
        size_t nthr = oa_threadpool_size(pool);
        size_t cap = (size_t)oa_kernels_slices();
        nthr = nthr < cap ? nthr : cap;
        oa_threadpool_run_n(pool, nthr < c.ntasks ? nthr : c.ntasks, conv_dnnl_worker, &c);
        return atomic_load(&c.err) ? OA_FAIL(OA_E_INTERNAL, "conv: oneDNN execution failed") : OA_OK;
    }
    ref_ctx c = {s, in[0], out[0], in};
    oa_threadpool_parallel_for(pool, (size_t)(g->n * g->oc), 1, conv_ref_task, &c);
    int64_t cb = oa_kernels_block();
    if (g->blocked) { /* padding channels of the output must be zero */
        const int64_t CB = (g->oc + cb - 1) / cb, hw = g->oh * g->ow;
        for (int64_t n = 0; n < g->n; n++) {
            oa_kblk_zero_lanes((float *)out[0] + (n * CB + CB - 1) * hw * cb, hw, cb, g->oc - (CB - 1) * cb);
        }
    }
    return OA_OK;
}

/* Every path packs or copies the filter, the bias and a BatchNorm folded into them at setup, but for a stable
 * filter the paths on wref read in place; run reads x and the residuals, which follow those inputs. */
static bool conv_reads_at_run(const oa_kop *op, int i)
{
    const conv_state *s = op->state;
    if (i == 1 && s != NULL && ((s->wref != NULL && s->wref_own == NULL) ||
                                (s->detour != NULL && oa_kop_reads_input_at_run(s->detour, 1)))) {
        return true; /* a stable filter read in place */
    }
    return i == 0 || i >= 3 + (op->params.conv.fold_bn ? 4 : 0);
}

const oa_kfamily oa_kfam_conv2d = {
    .params_size = sizeof(oa_kconv_params),
    .infer = conv_infer,
    .setup = conv_setup,
    .run = conv_run,
    .release = conv_release,
    .reads_at_run = conv_reads_at_run,
};

const oa_kfamily oa_kfam_conv2d_transpose = {
    .params_size = sizeof(oa_kconv_params),
    .infer = deconv_infer,
    .setup = conv_setup,
    .run = conv_run,
    .release = conv_release,
    .reads_at_run = conv_reads_at_run,
};

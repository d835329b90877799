/*
 * Conformance: Conv2D / Conv2DTranspose (every shape class of the sample
 * models: 1x1, 3x3, stride 2, depthwise, grouped, dilated, odd sizes,
 * channels not a multiple of the block, 1-D), fused epilogues (bias, folded
 * BatchNorm, activations, residual add), NCHW and NCHWc, 1 and 2 threads.
 * Reference: direct convolution in double.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kt_harness.h"
#include "kernels/kernel_internal.h"
#include "kernels/onednn.h" /* oa_kernels_slices: the pointwise path needs groups per slice */

typedef struct conv_case {
    int64_t n, ic, h, w, oc, kh, kw, sh, sw, pt, pb, pl, pr, dh, dw, g;
    bool bias;
    bool transpose;
    int64_t oph, opw;
} conv_case;

static double act_ref(oa_kact a, double x, double al, double be)
{
    switch (a) {
    case OA_KACT_RELU: return x > 0 ? x : 0;
    case OA_KACT_LEAKY_RELU: return x > 0 ? x : al * x;
    case OA_KACT_CLIP: return x < al ? al : (x > be ? be : x);
    case OA_KACT_HARDSIGMOID: return fmax(0, fmin(1, al * x + be));
    case OA_KACT_HARDSWISH: return x * fmax(0, fmin(6, x + 3)) / 6;
    case OA_KACT_MUL_HARDSIGMOID: return x * fmax(0, fmin(1, al * x + be));
    case OA_KACT_SIGMOID: return 1 / (1 + exp(-x));
    case OA_KACT_TANH: return tanh(x);
    case OA_KACT_GELU_ERF: return 0.5 * x * (1 + erf(x / sqrt(2.0)));
    case OA_KACT_SWISH: return x / (1 + exp(-al * x));
    case OA_KACT_LINEAR: return al * x + be;
    default: return x;
    }
}

/* y[n][oc][oh][ow] in double */
static double *conv_ref(const conv_case *c, const double *x, const double *w, const double *b, int64_t oh, int64_t ow)
{
    int64_t icg = c->ic / c->g, ocg = c->oc / c->g;
    double *y = calloc((size_t)(c->n * c->oc * oh * ow), sizeof(double));
    for (int64_t n = 0; n < c->n; n++) {
        for (int64_t o = 0; o < c->oc; o++) {
            int64_t grp = o / ocg;
            for (int64_t i = 0; i < oh * ow; i++) {
                y[(n * c->oc + o) * oh * ow + i] = b ? b[o] : 0.0;
            }
            for (int64_t ic = 0; ic < icg; ic++) {
                int64_t ci = grp * icg + ic;
                for (int64_t kh = 0; kh < c->kh; kh++) {
                    for (int64_t kw = 0; kw < c->kw; kw++) {
                        double wv = c->transpose ? w[((ci * ocg + o % ocg) * c->kh + kh) * c->kw + kw]
                                                 : w[((o * icg + ic) * c->kh + kh) * c->kw + kw];
                        if (!c->transpose) {
                            for (int64_t yh = 0; yh < oh; yh++) {
                                int64_t ih = yh * c->sh - c->pt + kh * c->dh;
                                if (ih < 0 || ih >= c->h) {
                                    continue;
                                }
                                for (int64_t yw = 0; yw < ow; yw++) {
                                    int64_t iw = yw * c->sw - c->pl + kw * c->dw;
                                    if (iw < 0 || iw >= c->w) {
                                        continue;
                                    }
                                    y[((n * c->oc + o) * oh + yh) * ow + yw] +=
                                        x[((n * c->ic + ci) * c->h + ih) * c->w + iw] * wv;
                                }
                            }
                        } else { /* scatter: input pixel contributes to out = i*s - p + k*d */
                            for (int64_t ih = 0; ih < c->h; ih++) {
                                int64_t yh = ih * c->sh - c->pt + kh * c->dh;
                                if (yh < 0 || yh >= oh) {
                                    continue;
                                }
                                for (int64_t iw = 0; iw < c->w; iw++) {
                                    int64_t yw = iw * c->sw - c->pl + kw * c->dw;
                                    if (yw < 0 || yw >= ow) {
                                        continue;
                                    }
                                    y[((n * c->oc + o) * oh + yh) * ow + yw] +=
                                        x[((n * c->ic + ci) * c->h + ih) * c->w + iw] * wv;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    return y;
}

typedef struct post_case {
    oa_kpost_chain post;
    bool fold_bn;
} post_case;

/* run_case: a first residual add reads y's own memory (y starts as the residual), as the planner lays it out
 * (docs/memory.md "Residuals in place") */
static bool g_res_in_y;

/* mode: 0 NCHW, 1 NCHWc, 2 x NCHW -> y NCHWc (out_nchwc) */
static void run_case(const conv_case *c, const post_case *pc, int mode, int nthreads, uint64_t seed)
{
    int64_t ekh = c->dh * (c->kh - 1) + 1, ekw = c->dw * (c->kw - 1) + 1, oh, ow;
    if (!c->transpose) {
        oh = (c->h + c->pt + c->pb - ekh) / c->sh + 1;
        ow = (c->w + c->pl + c->pr - ekw) / c->sw + 1;
    } else {
        oh = (c->h - 1) * c->sh - c->pt - c->pb + ekh + c->oph;
        ow = (c->w - 1) * c->sw - c->pl - c->pr + ekw + c->opw;
    }
    kt_buf x = kt_alloc(KT_D(OA_KDT_F32, c->n, c->ic, c->h, c->w));
    kt_buf w = c->transpose ? kt_alloc(KT_D(OA_KDT_F32, c->ic, c->oc / c->g, c->kh, c->kw))
                            : kt_alloc(KT_D(OA_KDT_F32, c->oc, c->ic / c->g, c->kh, c->kw));
    kt_buf b = kt_alloc(KT_D(OA_KDT_F32, c->oc));
    kt_fill(&x, seed, -1, 1);
    kt_fill(&w, seed + 1, -0.5, 0.5);
    kt_fill(&b, seed + 2, -0.5, 0.5);
    kt_buf bn[4];
    for (int i = 0; i < 4; i++) {
        bn[i] = kt_alloc(KT_D(OA_KDT_F32, c->oc));
        kt_fill(&bn[i], seed + 10 + (uint64_t)i, i == 3 ? 0.2 : -1, i == 3 ? 2 : 1);
    }
    int n_res = 0;
    kt_buf res[OA_KMAX_POST];
    for (int k = 0; k < pc->post.n; k++) {
        if (pc->post.ops[k].kind == OA_KPOST_ADD) {
            res[n_res] = kt_alloc(KT_D(OA_KDT_F32, c->n, c->oc, oh, ow));
            kt_fill(&res[n_res], seed + 20 + (uint64_t)k, -1, 1);
            n_res++;
        }
    }
    /* reference */
    double *xd = kt_to_double(&x), *wd = kt_to_double(&w), *bd = kt_to_double(&b);
    if (pc->fold_bn) {
        for (int64_t o = 0; o < c->oc; o++) {
            double f = kt_get(&bn[0], o) / sqrt(kt_get(&bn[3], o) + 1e-5);
            bd[o] = ((c->bias ? bd[o] : 0.0) - kt_get(&bn[2], o)) * f + kt_get(&bn[1], o);
            if (!c->transpose) {
                int64_t k = (c->ic / c->g) * c->kh * c->kw;
                for (int64_t i = 0; i < k; i++) {
                    wd[o * k + i] *= f;
                }
            } else {
                int64_t ocg = c->oc / c->g, icg = c->ic / c->g, grp = o / ocg, kk = c->kh * c->kw;
                for (int64_t ic = grp * icg; ic < (grp + 1) * icg; ic++) {
                    for (int64_t i = 0; i < kk; i++) {
                        wd[(ic * ocg + o % ocg) * kk + i] *= f;
                    }
                }
            }
        }
    }
    double *ref = conv_ref(c, xd, wd, (c->bias || pc->fold_bn) ? bd : NULL, oh, ow);
    int64_t ny = c->n * c->oc * oh * ow;
    for (int64_t i = 0; i < ny; i++) {
        int r = 0;
        for (int k = 0; k < pc->post.n; k++) {
            const oa_kpost *p = &pc->post.ops[k];
            if (p->kind == OA_KPOST_ADD) {
                ref[i] += kt_get(&res[r++], i);
            } else {
                ref[i] = act_ref(p->act, ref[i], p->alpha, p->beta);
            }
        }
    }
    /* kernel */
    oa_kconv_params p;
    memset(&p, 0, sizeof p);
    p.strides[0] = c->sh;
    p.strides[1] = c->sw;
    p.dilations[0] = c->dh;
    p.dilations[1] = c->dw;
    p.pads[0] = c->pt;
    p.pads[1] = c->pb;
    p.pads[2] = c->pl;
    p.pads[3] = c->pr;
    p.groups = c->g;
    p.output_padding[0] = c->oph;
    p.output_padding[1] = c->opw;
    p.fold_bn = pc->fold_bn;
    p.bn_epsilon = 1e-5f;
    p.post = pc->post;
    p.out_nchwc = mode == 2;
    bool xblk = mode == 1, blk = mode != 0;
    kt_buf xb = xblk ? kt_blocked_from_plain(&x) : x;
    kt_buf resb[OA_KMAX_POST];
    for (int i = 0; i < n_res; i++) {
        resb[i] = blk ? kt_blocked_from_plain(&res[i]) : res[i];
    }
    oa_ktensor yd = KT_D(OA_KDT_F32, c->n, c->oc, oh, ow);
    yd.layout = blk ? OA_KLAYOUT_NCHWC : OA_KLAYOUT_PLAIN;
    kt_buf y = kt_alloc(yd);
    kt_buf *ins[16];
    int n_in = 0;
    ins[n_in++] = &xb;
    ins[n_in++] = &w;
    ins[n_in++] = c->bias ? &b : NULL;
    if (pc->fold_bn) {
        for (int i = 0; i < 4; i++) {
            ins[n_in++] = &bn[i];
        }
    }
    for (int i = 0; i < n_res; i++) {
        ins[n_in++] = &resb[i];
    }
    if (g_res_in_y && n_res > 0 && pc->post.ops[0].kind == OA_KPOST_ADD) {
        assert_int_equal(y.bytes, resb[0].bytes);
        memcpy(y.data, resb[0].data, y.bytes);
        ins[n_in - n_res] = &y;
    }
    kt_buf *outs[1] = {&y};
    unsigned host = 0x2 | 0x4 | (pc->fold_bn ? 0x78u : 0u);
    const char *label = kt_fmt("%s n%lld ic%lld %lldx%lld oc%lld k%lldx%lld s%lld,%lld p%lld,%lld,%lld,%lld d%lld g%lld "
                               "bias%d post%d bn%d %s thr%d",
                               c->transpose ? "deconv" : "conv", (long long)c->n, (long long)c->ic, (long long)c->h,
                               (long long)c->w, (long long)c->oc, (long long)c->kh, (long long)c->kw, (long long)c->sh,
                               (long long)c->sw, (long long)c->pt, (long long)c->pb, (long long)c->pl, (long long)c->pr,
                               (long long)c->dh, (long long)c->g, c->bias, pc->post.n, pc->fold_bn,
                               mode == 2 ? "NCHW->NCHWc" : (blk ? "NCHWc" : "NCHW"), nthreads);
    oa_status st = kt_run(c->transpose ? OA_KOP_CONV2D_TRANSPOSE : OA_KOP_CONV2D, &p, n_in, ins, host, 1, outs, nthreads);
    if (st != OA_OK) {
        fail_msg("%s: status %d", label, (int)st);
    }
    kt_buf yp = blk ? kt_plain_from_blocked(&y) : y;
    double kdim = (double)(c->ic / c->g * c->kh * c->kw);
    kt_expect_close(&yp, ref, 1e-5 * sqrt(kdim) + 1e-5, 1e-4, label);
    if (xblk) {
        kt_free(&xb);
    }
    if (blk) {
        kt_free(&yp);
        for (int i = 0; i < n_res; i++) {
            kt_free(&resb[i]);
        }
    }
    for (int i = 0; i < n_res; i++) {
        kt_free(&res[i]);
    }
    for (int i = 0; i < 4; i++) {
        kt_free(&bn[i]);
    }
    free(xd);
    free(wd);
    free(bd);
    free(ref);
    kt_free(&x);
    kt_free(&w);
    kt_free(&b);
    kt_free(&y);
}

#define C(...) ((conv_case){__VA_ARGS__})

static const conv_case k_cases[] = {
    /* n ic h w oc kh kw sh sw pt pb pl pr dh dw g bias */
    {1, 3, 17, 19, 16, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0},   /* stem, odd sizes */
    {1, 16, 12, 12, 24, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},  /* 1x1 */
    {2, 13, 9, 7, 21, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, false, false, 0, 0},   /* 1x1 odd channels, batch */
    {1, 24, 15, 15, 24, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 24, true, false, 0, 0}, /* depthwise 3x3 */
    {1, 20, 16, 16, 20, 5, 5, 2, 2, 2, 2, 2, 2, 1, 1, 20, true, false, 0, 0}, /* depthwise 5x5 s2 */
    {1, 12, 10, 10, 18, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 3, true, false, 0, 0},  /* grouped */
    {1, 8, 14, 14, 16, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, 1, true, false, 0, 0},   /* dilated */
    {1, 5, 1, 40, 7, 1, 3, 1, 2, 0, 0, 1, 0, 1, 1, 1, true, false, 0, 0},     /* 1-D, asymmetric pad */
    {1, 3, 23, 23, 8, 7, 7, 2, 2, 3, 3, 3, 3, 1, 1, 1, true, false, 0, 0},    /* ResNet-style 7x7 s2 */
    {1, 32, 8, 8, 64, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0},    /* stride 2 */
    {1, 64, 28, 28, 32, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0},  /* bigger: threads split rows */
    {1, 4, 6, 5, 3, 2, 2, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},      /* even kernel, no pad */
    /* transposed */
    {1, 16, 8, 8, 8, 2, 2, 2, 2, 0, 0, 0, 0, 1, 1, 1, true, true, 0, 0},      /* PP-OCR det head */
    {2, 5, 3, 7, 3, 3, 3, 3, 3, 0, 0, 0, 0, 1, 1, 1, true, true, 0, 0},       /* kernel == stride: 1x1 + scatter */
    {1, 24, 6, 5, 1, 2, 2, 2, 2, 0, 0, 0, 0, 1, 1, 1, false, true, 0, 0},     /* ... to one channel, no bias */
    {1, 6, 5, 7, 4, 4, 4, 2, 2, 1, 1, 1, 1, 1, 1, 1, true, true, 0, 0},
    {1, 4, 5, 5, 6, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 2, false, true, 1, 1},      /* groups + output_padding */
    {2, 3, 4, 6, 5, 3, 3, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, true, 0, 0},
};

static post_case post_none(void)
{
    post_case p;
    memset(&p, 0, sizeof p);
    return p;
}

/* Activations only, in order: every kind the kernels apply in registers (oa_kacts), the last chain as long as
 * a post-op chain may be (OA_KMAX_POST). */
static void act_chains(post_case out[3])
{
    static const oa_kpost a[] = {{OA_KPOST_ACT, OA_KACT_CLIP, -0.5f, 0.8f}, {OA_KPOST_ACT, OA_KACT_LEAKY_RELU, 0.1f, 0}};
    static const oa_kpost b[] = {{OA_KPOST_ACT, OA_KACT_HARDSIGMOID, 0.2f, 0.5f},
                                 {OA_KPOST_ACT, OA_KACT_MUL_HARDSIGMOID, 0.3f, 0.4f},
                                 {OA_KPOST_ACT, OA_KACT_LINEAR, 2.0f, -0.1f}};
    static const oa_kpost c[] = {{OA_KPOST_ACT, OA_KACT_LEAKY_RELU, 0.2f, 0},
                                 {OA_KPOST_ACT, OA_KACT_CLIP, -1.0f, 1.0f},
                                 {OA_KPOST_ACT, OA_KACT_LINEAR, 1.5f, 0.1f},
                                 {OA_KPOST_ACT, OA_KACT_RELU, 0, 0}};
    const oa_kpost *ops[3] = {a, b, c};
    const int n[3] = {2, 3, 4};
    for (int i = 0; i < 3; i++) {
        memset(&out[i], 0, sizeof(out[i]));
        out[i].post.n = n[i];
        memcpy(out[i].post.ops, ops[i], sizeof(oa_kpost) * (size_t)n[i]);
    }
}

static post_case post_act(oa_kact a, float al, float be)
{
    post_case p = post_none();
    p.post.n = 1;
    p.post.ops[0].kind = OA_KPOST_ACT;
    p.post.ops[0].act = a;
    p.post.ops[0].alpha = al;
    p.post.ops[0].beta = be;
    return p;
}

static void test_conv_shapes(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(k_cases) / sizeof(k_cases[0]); i++) {
        post_case pc = post_none();
        for (int mode = 0; mode < 3; mode++) {
            for (int thr = 1; thr <= 2; thr++) {
                run_case(&k_cases[i], &pc, mode, thr, 100 + i);
            }
        }
    }
}

static void test_conv_epilogues(void **state)
{
    (void)state;
    post_case pcs[16];
    int n = 0;
    pcs[n++] = post_act(OA_KACT_RELU, 0, 0);
    pcs[n++] = post_act(OA_KACT_CLIP, 0, 6);
    pcs[n++] = post_act(OA_KACT_HARDSWISH, 0, 0);
    pcs[n++] = post_act(OA_KACT_HARDSIGMOID, 0.2f, 0.5f);
    pcs[n++] = post_act(OA_KACT_MUL_HARDSIGMOID, 0.2f, 0.5f);             /* PP-OCR x*hsig(x), alpha 0.2 */
    pcs[n++] = post_act(OA_KACT_MUL_HARDSIGMOID, 1.0f / 6.0f, 0.5f);      /* = hardswish */
    pcs[n++] = post_act(OA_KACT_LEAKY_RELU, 0.1f, 0);
    pcs[n++] = post_act(OA_KACT_SIGMOID, 0, 0);
    pcs[n++] = post_act(OA_KACT_SWISH, 1.0f, 0); /* YOLO SiLU */
    post_case bn = post_act(OA_KACT_RELU, 0, 0);
    bn.fold_bn = true;
    pcs[n++] = bn;
    post_case res = post_none(); /* ResNet: conv + BN + add + relu */
    res.fold_bn = true;
    res.post.n = 2;
    res.post.ops[0].kind = OA_KPOST_ADD;
    res.post.ops[1].kind = OA_KPOST_ACT;
    res.post.ops[1].act = OA_KACT_RELU;
    pcs[n++] = res;
    post_case res2 = post_act(OA_KACT_HARDSWISH, 0, 0); /* act then add (not first: done by our epilogue) */
    res2.post.n = 2;
    res2.post.ops[1].kind = OA_KPOST_ADD;
    pcs[n++] = res2;
    /* PP-OCRv4 det: HardSwish then its learnable affine (the compiler's Linear) */
    post_case aff = post_act(OA_KACT_HARDSWISH, 0, 0);
    aff.post.n = 2;
    aff.post.ops[1].kind = OA_KPOST_ACT;
    aff.post.ops[1].act = OA_KACT_LINEAR;
    aff.post.ops[1].alpha = 0.633f;
    aff.post.ops[1].beta = -0.547f;
    pcs[n++] = aff;
    /* squeeze-excitation's 1 + HardSigmoid */
    post_case se = post_act(OA_KACT_HARDSIGMOID, 1.0f / 6.0f, 0.5f);
    se.post.n = 2;
    se.post.ops[1].kind = OA_KPOST_ACT;
    se.post.ops[1].act = OA_KACT_LINEAR;
    se.post.ops[1].alpha = 1.0f;
    se.post.ops[1].beta = 1.0f;
    pcs[n++] = se;
    /* two Linear entries apart (oneDNN takes only the first one, onednn.c) */
    post_case lin2 = post_act(OA_KACT_LINEAR, 2.0f, 0.5f);
    lin2.post.n = 3;
    lin2.post.ops[1].kind = OA_KPOST_ACT;
    lin2.post.ops[1].act = OA_KACT_RELU;
    lin2.post.ops[2].kind = OA_KPOST_ACT;
    lin2.post.ops[2].act = OA_KACT_LINEAR;
    lin2.post.ops[2].alpha = -1.0f;
    lin2.post.ops[2].beta = 1.0f;
    pcs[n++] = lin2;
    static const conv_case shapes[] = {
        {1, 16, 12, 12, 24, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},
        {1, 24, 15, 15, 24, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 24, true, false, 0, 0},
        {1, 13, 9, 11, 13, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0},
        {1, 16, 8, 8, 8, 2, 2, 2, 2, 0, 0, 0, 0, 1, 1, 1, true, true, 0, 0},
        {1, 24, 1, 1, 96, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0}, /* squeeze-excitation 1x1 map */
    };
    for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
        for (int i = 0; i < n; i++) {
            for (int mode = 0; mode < 3; mode++) {
                run_case(&shapes[s], &pcs[i], mode, 1 + (i + mode) % 2, 300 + (uint64_t)i);
            }
        }
    }
}

/*
 * The first conv of a blocked chain reading a wide plain x (out_nchwc, PP-OCR
 * det's 96-channel Concat into a 3x3 conv): oneDNN has only its reference
 * kernel for NCHW x with that many channels, so the kernel packs x into
 * NCHWc itself and must still get a JIT primitive.
 */
static void test_conv_wide_plain_entry(void **state)
{
    (void)state;
    static const conv_case shapes[] = {
        {1, 96, 20, 20, 24, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0},
        {1, 40, 9, 11, 12, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0}, /* partial input block */
    };
    post_case relu = post_act(OA_KACT_RELU, 0, 0);
    relu.fold_bn = true;
    setenv("OPENACL_WINOGRAD", "0", 1); /* the oneDNN path (test_conv_winograd covers the other) */
    setenv("OPENACL_CONV_PW", "0", 1);  /* (and test_conv_pointwise the small-plane tile's) */
    for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
        for (int thr = 1; thr <= 2; thr++) {
            run_case(&shapes[s], &relu, 2, thr, 500 + s);
            /* (a forced block size may have no JIT kernel on this CPU) */
            const char *dnnl = getenv("OA_KERNELS_ONEDNN");
            if ((dnnl == NULL || strcmp(dnnl, "0") != 0) && getenv("OA_KERNELS_BLOCK") == NULL) {
                assert_string_equal(kt_last_impl, "onednn");
            }
        }
    }
    unsetenv("OPENACL_WINOGRAD");
    unsetenv("OPENACL_CONV_PW");
}

/*
 * Every shape x post-op chain x 1 and 2 threads with the path switch `env` on, then off (x in
 * `mode`, as run_case); where `check`, the op's implementation name starts with `impl` exactly
 * when the switch is on.
 */
static void run_path_on_off(const char *env, const char *impl, bool check, const conv_case *shapes, size_t n_shapes,
                            const post_case *pcs, int n_pcs, int mode, uint64_t seed)
{
    for (int off = 0; off < 2; off++) {
        setenv(env, off ? "0" : "1", 1);
        for (size_t k = 0; k < n_shapes; k++) {
            for (int i = 0; i < n_pcs; i++) {
                for (int thr = 1; thr <= 2; thr++) {
                    run_case(&shapes[k], &pcs[i], mode, thr, seed + k * 10 + (uint64_t)i);
                    if (check && (strncmp(kt_last_impl, impl, strlen(impl)) == 0) != (off == 0)) {
                        fail_msg("%s=%d, shape %zu, post-ops %d, %d threads: impl %s", env, !off, k, i, thr,
                                 kt_last_impl);
                    }
                }
            }
        }
    }
    unsetenv(env);
}

/*
 * Stem convs (a plain x with at most 4 channels into an NCHWc chain: RGB first convs) through
 * the tier's own kernel (conv_stem.c) against the double reference: kernel sizes and strides of
 * real stems, planes narrower than and off the 8-pixel register block (every border case),
 * output channels off the block (padding lanes must stay zero after an activation that maps 0
 * elsewhere), batches, threads; OPENACL_CONV_STEM=0 takes oneDNN.
 */
static void test_conv_stem(void **state)
{
    (void)state;
    int blk = 0;
    const bool has = oa_kstem_for(oa_kisa_tier_used(), &blk) != NULL && blk == oa_kernels_block();
    if (!has) {
        print_message("stem kernel: not taken here (tier %s, block %d)\n", oa_kernels_isa(), oa_kernels_block());
    }
    static const conv_case shapes[] = {
        {1, 3, 21, 37, 16, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0},  /* YOLO / PP-OCR det */
        {2, 3, 30, 29, 16, 7, 7, 2, 2, 3, 3, 3, 3, 1, 1, 1, true, false, 0, 0},  /* ResNet-like 7x7 */
        {1, 1, 9, 5, 13, 5, 5, 1, 1, 2, 1, 0, 2, 1, 1, 1, false, false, 0, 0},   /* asymmetric padding */
        {1, 4, 6, 40, 8, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},    /* 1x1 */
        {1, 2, 11, 3, 11, 3, 3, 3, 1, 0, 2, 1, 1, 1, 1, 1, true, false, 0, 0},   /* ow < 8, stride 3x1 */
    };
    post_case pcs[3];
    pcs[0] = post_none();
    pcs[1] = post_act(OA_KACT_RELU, 0, 0);
    pcs[1].fold_bn = true;
    pcs[2] = post_act(OA_KACT_SIGMOID, 0, 0);
    /* wider than 16 output channels: oneDNN's kernel (it reuses inputs across blocks) */
    static const conv_case wide = {1, 3, 30, 29, 64, 7, 7, 2, 2, 3, 3, 3, 3, 1, 1, 1, true, false, 0, 0};
    run_case(&wide, &pcs[1], 2, 1, 949);
    assert_true(strncmp(kt_last_impl, "stem", 4) != 0);
    run_path_on_off("OPENACL_CONV_STEM", "stem", has, shapes, sizeof(shapes) / sizeof(shapes[0]), pcs, 3, 2, 950);
}

/*
 * 1x1 and 3x3 convs between NCHWc tensors on small planes (ResNet's last stage) through the
 * tier's tile (conv_pw.c) on AVX-512, against the double reference: output blocks in groups of
 * 4 and a remainder of 1, 2 or 3 blocks (the tile's block variants), planes split into tiles
 * of every width 1..6 (49 = 4 x 6 + 5 x 5, 7 = 4 + 3, ...), stride 2, padding (symmetric and 0/1), reductions in two
 * chunks (the second adds to what the first stored), batches, two threads (groups split),
 * folded BN, a first residual add (done in the tile of the first chunk: it may alias y, also
 * with a second chunk), an add after an activation, a non-ReLU activation. The path needs 8
 * pieces (group x chunk) per slice (two slices here: 1024 channels and up). Stride-2 3x3s on larger
 * planes run in pixel ranges (from 64 input channels, output channels in groups of 64), and so do
 * 1x1s with a small filter, and stride-1 1x1s on mid-size planes (ranges of equal length, whole ones per
 * thread); small planes with few pieces when the filter is at most 1 MiB. A 1x1 with 8 input channels
 * on a 72-pixel plane, few pieces of a larger filter, a 5x5 and the larger-plane cases off those
 * bounds stay on oneDNN; OPENACL_CONV_PW=0 takes oneDNN.
 */
static void test_conv_pointwise(void **state)
{
    (void)state;
    const bool has = oa_kpw_for(oa_kisa_tier_used()) != NULL && oa_kernels_block() == 16 && oa_kernels_slices() <= 2;
    if (!has) {
        print_message("pointwise tile: not taken here (tier %s, block %d, %d slices)\n", oa_kernels_isa(),
                      oa_kernels_block(), oa_kernels_slices());
    }
    static const conv_case shapes[] = {
        {1, 192, 5, 5, 1024, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0}, /* 3x3: 2 chunks of 54 */
        {1, 1552, 2, 2, 1024, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0}, /* 1x1: 2 chunks */
        {1, 16, 10, 10, 1040, 3, 3, 2, 2, 0, 1, 0, 1, 1, 1, 1, true, false, 0, 0}, /* 3x3 s2, pads 0/1, + 1 block */
        {2, 32, 13, 13, 1056, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, false, false, 0, 0}, /* batch, s2, + 2 blocks */
        {1, 32, 7, 7, 1024, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},  /* 16 groups of 4, 7 tiles of 7 */
        {2, 16, 5, 4, 1040, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},  /* + 1 block, 20 = 7+7+6 */
        {1, 16, 3, 5, 1056, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, false, false, 0, 0}, /* + 2 blocks, 15 = 7+7+1 */
        {1, 16, 14, 14, 1072, 1, 1, 2, 2, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0}, /* stride 2, + 3 blocks */
        {1, 32, 9, 11, 1024, 1, 1, 2, 2, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},  /* odd plane s2: 5x6 = 30 */
        {1, 16, 2, 2, 1024, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},   /* 4 pixels */
        {1, 16, 1, 7, 1024, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},   /* 7 = 4 + 3 */
        {1, 16, 1, 2, 1024, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},   /* 2 */
        {1, 16, 1, 1, 1024, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0},   /* 3x3 on a 1x1 map: 1 */
    };
    post_case pcs[4];
    pcs[0] = post_act(OA_KACT_RELU, 0, 0);
    pcs[0].fold_bn = true;
    pcs[1] = post_none(); /* add + relu: the ResNet block's last conv */
    pcs[1].post.n = 2;
    pcs[1].post.ops[0].kind = OA_KPOST_ADD;
    pcs[1].post.ops[1].kind = OA_KPOST_ACT;
    pcs[1].post.ops[1].act = OA_KACT_RELU;
    pcs[2] = post_act(OA_KACT_HARDSWISH, 0, 0); /* then an add after the activation */
    pcs[2].post.n = 2;
    pcs[2].post.ops[1].kind = OA_KPOST_ADD;
    pcs[3] = post_none();
    run_path_on_off("OPENACL_CONV_PW", "pw", has, shapes, sizeof(shapes) / sizeof(shapes[0]), pcs, 4, 1, 960);
    g_res_in_y = true; /* the first add's operand is y itself */
    run_path_on_off("OPENACL_CONV_PW", "pw", has, shapes, 3, &pcs[1], 1, 1, 980);
    g_res_in_y = false;
    /* stride-2 3x3s on larger planes, in pixel ranges: 100 pixels in ranges of 60 and 40; odd planes with
     * pads 0/1 and a batch; the residual in y and an add after the activation over a range's part of each block */
    static const conv_case ranges[] = {
        {1, 64, 20, 20, 128, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0},
        {2, 64, 17, 23, 64, 3, 3, 2, 2, 0, 1, 0, 1, 1, 1, 1, false, false, 0, 0},
    };
    const bool has_ranges = oa_kpw_for(oa_kisa_tier_used()) != NULL && oa_kernels_block() == 16;
    run_path_on_off("OPENACL_CONV_PW", "pw3x3", has_ranges, ranges, 2, pcs, 4, 1, 1000);
    g_res_in_y = true;
    run_path_on_off("OPENACL_CONV_PW", "pw3x3", has_ranges, ranges, 2, &pcs[1], 1, 1, 1020);
    g_res_in_y = false;
    static const conv_case other[] = {
        {1, 8, 9, 8, 2048, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0}, /* 72 pixels, 8 channels in */
        {1, 32, 20, 20, 128, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0}, /* larger plane, 32 channels in */
        {1, 64, 20, 20, 96, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0},  /* larger plane, 96 out */
        {1, 4096, 7, 7, 128, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0}, /* 6 pieces of a 2 MiB filter */
        {1, 512, 7, 7, 40, 5, 5, 1, 1, 2, 2, 2, 2, 1, 1, 1, true, false, 0, 0},  /* 5x5 */
        {1, 8, 9, 9, 1032, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},  /* 81 pixels, off-block outputs */
    };
    for (size_t k = 0; k < sizeof(other) / sizeof(other[0]); k++) {
        run_case(&other[k], &pcs[0], 1, 1, 990 + k);
        assert_true(strncmp(kt_last_impl, "pw", 2) != 0);
    }
    /* stride-1 1x1s on mid-size planes (up to 4096 pixels, from 16 input channels): pixel ranges of equal
     * length, a multiple of the slices (196 = 2 x 98 at two threads), a batch with output channels off the
     * block (88: groups of 4 and 2 blocks), input channels off the block, 4096 pixels (ranges of at most 300); the
     * residual in y too. Past the bounds (4160 pixels into 160 channels, 8 input channels, stride 2) they stay
     * on oneDNN. */
    static const conv_case mid[] = {
        {1, 16, 24, 40, 32, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0}, /* 16 channels in (rec's first) */
        {1, 48, 14, 14, 256, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},
        {2, 64, 9, 13, 88, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, false, false, 0, 0},
        {1, 40, 30, 31, 24, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},
        {1, 32, 64, 64, 32, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},
    };
    run_path_on_off("OPENACL_CONV_PW", "pw", has_ranges, mid, sizeof(mid) / sizeof(mid[0]), pcs, 4, 1, 1030);
    g_res_in_y = true;
    run_path_on_off("OPENACL_CONV_PW", "pw", has_ranges, mid, 2, &pcs[1], 1, 1, 1035);
    g_res_in_y = false;
    static const conv_case mid_off[] = {
        {1, 32, 65, 64, 160, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},
        {1, 8, 48, 48, 64, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},
        {1, 64, 30, 30, 256, 1, 1, 2, 2, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},
    };
    for (size_t k = 0; k < sizeof(mid_off) / sizeof(mid_off[0]); k++) {
        run_case(&mid_off[k], &pcs[0], 1, 1, 1037 + k);
        assert_true(strncmp(kt_last_impl, "pw", 2) != 0);
    }
    /* larger planes: from two slices, 1x1s whose oneDNN slices would get at most 4 output blocks each (48
     * channels on 4900 pixels) take the tile; wider ones (160 channels) and one slice stay on oneDNN */
    static const conv_case large[] = {
        {1, 16, 70, 70, 48, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},
        {1, 32, 66, 66, 160, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},
    };
    for (size_t k = 0; k < sizeof(large) / sizeof(large[0]); k++) {
        for (int thr = 1; thr <= 2; thr++) {
            run_case(&large[k], &pcs[1], 1, thr, 1045 + k);
            const bool want = has_ranges && k == 0 && oa_kernels_slices() >= 2;
            if ((strncmp(kt_last_impl, "pw", 2) == 0) != want) {
                fail_msg("large plane %zu, %d slices: impl %s", k, oa_kernels_slices(), kt_last_impl);
            }
        }
    }
    /* 1x1s with a small filter (at most 32 KiB) on any plane, MobileNet-style: channel counts off the block
     * (x's padding channels are not steps; y's must stay zero, also after an activation that maps 0 elsewhere),
     * planes in pixel ranges (481 = 256 + 225 at 48 input channels), a batch, stride 2, one and two groups;
     * activations in the tile's registers (ReLU after folded BN, a linear shift) or after it (hardswish then
     * an add), a first residual add in the tile */
    static const conv_case small[] = {
        {1, 8, 24, 24, 8, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},
        {1, 40, 13, 37, 88, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},
        {2, 200, 3, 50, 32, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, false, false, 0, 0},
        {1, 24, 12, 13, 24, 1, 1, 2, 2, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},
    };
    post_case spc[4] = {pcs[0], pcs[1], pcs[2], post_act(OA_KACT_LINEAR, 0.5f, 0.25f)};
    run_path_on_off("OPENACL_CONV_PW", "pw", has, small, sizeof(small) / sizeof(small[0]), spc, 4, 1, 1040);
    post_case chains[3];
    act_chains(chains);
    run_path_on_off("OPENACL_CONV_PW", "pw", has, small, 2, chains, 3, 1, 1050);
    /* small planes whose filter (at most 1 MiB) comes in too few pieces for the prefetch rule: rec's 1x3 convs
     * (480 -> 60 on 1x40, pads 0/1 across: a padded copy), a stride-2 3x3 (stride 1 is Winograd's), a 1x1 into
     * 40 channels, a padded 1x1; the plane in one range per slice (40 = 24 + 16 at two threads) */
    static const conv_case few[] = {
        {1, 480, 1, 40, 60, 1, 3, 1, 1, 0, 0, 1, 1, 1, 1, 1, true, false, 0, 0},
        {1, 64, 11, 11, 40, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0},
        {2, 136, 7, 7, 40, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, false, false, 0, 0},
        {1, 16, 5, 5, 1024, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0}, /* a padded 1x1 */
        {1, 32, 8, 8, 24, 2, 2, 2, 2, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},    /* 2x2 stride 2 */
    };
    run_path_on_off("OPENACL_CONV_PW", "pw", has, few, sizeof(few) / sizeof(few[0]), spc, 4, 1, 1060);
    /* a plain (NCHW) x into an NCHWc y (out_nchwc: rec's 1x1 after a transpose, 120 -> 480 on 1x40): steps
     * one channel plane apart; a padded stride-2 3x3 from a plain x; a small 1x1 from a plain x on a larger plane */
    static const conv_case plain[] = {
        {1, 120, 1, 40, 480, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},
        {1, 24, 11, 13, 40, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0},
        {2, 12, 20, 20, 24, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, false, false, 0, 0},
    };
    run_path_on_off("OPENACL_CONV_PW", "pw", has, plain, sizeof(plain) / sizeof(plain[0]), spc, 1, 2, 1070);
    g_res_in_y = true;
    run_path_on_off("OPENACL_CONV_PW", "pw", has, small, 2, &spc[1], 1, 1, 1080);
    g_res_in_y = false;
}

/* pcs[0..2]: the post-op chains the direct kernels run in registers (none; folded BN + ReLU; HardSwish then an
 * affine) */
static void register_chains(post_case *pcs)
{
    pcs[0] = post_none();
    pcs[1] = post_act(OA_KACT_RELU, 0, 0);
    pcs[1].fold_bn = true;
    pcs[2] = post_act(OA_KACT_HARDSWISH, 0, 0);
    pcs[2].post.n = 2;
    pcs[2].post.ops[1] = (oa_kpost){OA_KPOST_ACT, OA_KACT_LINEAR, 0.5f, 0.25f};
}

/*
 * Depthwise convs (one filter per channel) between NCHWc tensors through the tier's row kernel
 * (conv_dw.c) against the double reference: the kernels with a compile-time path (3x3 and 5x5,
 * stride 1 and 2 across, strides 2x1 down) and one without (7x7), channel counts below and off
 * the block, rows narrower than the kernel's pixel block (16 or 8), asymmetric padding, a batch, two
 * threads; activations in the kernel's registers (ReLU after folded BN; hardswish then a linear
 * shift, whose 0.25 must not reach the padding lanes; every other kind of oa_kacts in chains) or
 * after each row (sigmoid). A residual
 * add stays on oneDNN; OPENACL_CONV_DW=0 takes oneDNN.
 */
static void test_conv_depthwise(void **state)
{
    (void)state;
    int blk = 0;
    const bool has = oa_kdw_for(oa_kisa_tier_used(), &blk) != NULL && blk == oa_kernels_block();
    if (!has) {
        print_message("depthwise kernel: not taken here (tier %s, block %d)\n", oa_kernels_isa(), oa_kernels_block());
    }
    static const conv_case shapes[] = {
        {1, 8, 24, 40, 8, 3, 3, 2, 1, 1, 1, 1, 1, 1, 1, 8, true, false, 0, 0},        /* cls's first: 2x1 */
        {1, 200, 2, 30, 200, 5, 5, 1, 1, 2, 2, 2, 2, 1, 1, 200, true, false, 0, 0},   /* rows of padding */
        {2, 24, 12, 17, 24, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 24, false, false, 0, 0},    /* batch, stride 2 */
        {1, 40, 9, 27, 40, 5, 5, 2, 2, 2, 2, 2, 2, 1, 1, 40, true, false, 0, 0},      /* 5x5 stride 2 */
        {1, 16, 7, 19, 16, 7, 7, 1, 1, 3, 3, 3, 3, 1, 1, 16, true, false, 0, 0},      /* 7x7: general loop */
        {1, 32, 6, 3, 32, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 32, true, false, 0, 0},       /* 3 pixels a row */
        {1, 20, 8, 21, 20, 3, 3, 1, 1, 0, 1, 2, 0, 1, 1, 20, true, false, 0, 0},      /* asymmetric pads */
        {1, 16, 10, 29, 16, 3, 3, 3, 3, 1, 1, 1, 1, 1, 1, 16, true, false, 0, 0},     /* stride 3: general loop */
    };
    post_case pcs[4];
    register_chains(pcs);
    pcs[3] = post_act(OA_KACT_SIGMOID, 0, 0);
    run_path_on_off("OPENACL_CONV_DW", "dw", has, shapes, sizeof(shapes) / sizeof(shapes[0]), pcs, 4, 1, 1100);
    post_case chains[3];
    act_chains(chains);
    run_path_on_off("OPENACL_CONV_DW", "dw", has, shapes, 3, chains, 3, 1, 1150);
    post_case add = post_none();
    add.post.n = 1;
    add.post.ops[0].kind = OA_KPOST_ADD;
    run_case(&shapes[2], &add, 1, 1, 1190);
    assert_true(strncmp(kt_last_impl, "dw", 2) != 0);
}

/*
 * NCHW convs (a dynamic model's: no layout planned at compile time) on the NCHWc kernels of our own behind
 * copies of x and y (conv_nchw.c), against the double reference: a Winograd-sized 3x3, a stride-2 3x3, a
 * stem (plain x read in place), a 3x3 on a small plane, a batch; no post-ops, folded BN + ReLU, a first
 * residual add (left to the copy back) then ReLU, an activation then an add. The oracle for the path: the
 * same conv on NCHWc tensors with the post-ops before the first add (what the inner op is) gets one of our
 * kernels: then the NCHW conv reports that kernel with OPENACL_CONV_DETOUR on, and not with it off; else it
 * stays on oneDNN (or the reference) either way.
 */
static void test_conv_plain_detour(void **state)
{
    (void)state;
    static const conv_case shapes[] = {
        {1, 32, 20, 20, 24, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0},   /* Winograd */
        {1, 64, 13, 11, 64, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0},   /* stride 2, small plane */
        {1, 3, 21, 37, 16, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0},    /* stem */
        {1, 64, 7, 7, 40, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, false, false, 0, 0},    /* small plane, partial block */
        {2, 16, 12, 10, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0},   /* batch */
    };
    post_case pcs[4];
    pcs[0] = post_none();
    pcs[1] = post_act(OA_KACT_RELU, 0, 0);
    pcs[1].fold_bn = true;
    pcs[2] = post_none(); /* ResNet's conv + BN + add + relu */
    pcs[2].fold_bn = true;
    pcs[2].post.n = 2;
    pcs[2].post.ops[0].kind = OA_KPOST_ADD;
    pcs[2].post.ops[1] = (oa_kpost){OA_KPOST_ACT, OA_KACT_RELU, 0, 0};
    pcs[3] = post_act(OA_KACT_HARDSWISH, 0, 0);
    pcs[3].post.n = 2;
    pcs[3].post.ops[1].kind = OA_KPOST_ADD;
    int taken = 0;
    for (size_t k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++) {
        for (int i = 0; i < 4; i++) {
            post_case inner = pcs[i];
            for (int j = 0; j < inner.post.n; j++) {
                if (inner.post.ops[j].kind == OA_KPOST_ADD) {
                    inner.post.n = j;
                }
            }
            const uint64_t seed = 1300 + k * 10 + (uint64_t)i;
            run_case(&shapes[k], &inner, shapes[k].ic < oa_kernels_block() ? 2 : 1, 1, seed);
            char want[64];
            snprintf(want, sizeof want, "%s", kt_last_impl);
            const bool ours = strncmp(want, "onednn", 6) != 0 && strcmp(want, "ref") != 0;
            taken += ours;
            for (int off = 0; off < 2; off++) {
                setenv("OPENACL_CONV_DETOUR", off ? "0" : "1", 1);
                for (int thr = 1; thr <= 2; thr++) {
                    run_case(&shapes[k], &pcs[i], 0, thr, seed);
                    const bool same = strcmp(kt_last_impl, want) == 0;
                    const bool dnnl_or_ref =
                        strncmp(kt_last_impl, "onednn", 6) == 0 || strcmp(kt_last_impl, "ref") == 0;
                    if (ours ? same == (off != 0) : !dnnl_or_ref) {
                        fail_msg("OPENACL_CONV_DETOUR=%d, shape %zu, post-ops %d, %d threads: impl %s (NCHWc: %s)",
                                 !off, k, i, thr, kt_last_impl, want);
                    }
                }
            }
            unsetenv("OPENACL_CONV_DETOUR");
        }
    }
    if (taken == 0) {
        print_message("NCHW detour: no kernel of our own here (tier %s, block %d)\n", oa_kernels_isa(),
                      oa_kernels_block());
    }
}

/*
 * A stable filter (oa_ktensor.stable: a dynamic model's weights) is shared by the operators made from it for other
 * input shapes: what kernels derive from it (Winograd's transformed filter, the small-plane tile's packed filter)
 * exists once, and the NCHW paths read it in place. Every operator's output equals that of its twin made from an
 * unstable copy of the same filter (which derives its own), and forms that differ (Winograd F(4x4) and F(2x2))
 * are not shared.
 */
typedef struct share_case {
    const char *what;
    int64_t ic, oc, k, h1, w1, h2, w2;
    bool blocked; /* NCHWc in and out (a static model's layout), else plain NCHW */
    int derived;  /* arrays one operator derives (its shapes share them); -1: oneDNN's slices, any number */
} share_case;

static oa_kop *share_conv(const share_case *c, int64_t h, int64_t w, const kt_buf *wt, const kt_buf *b, bool stable)
{
    oa_kconv_params p;
    memset(&p, 0, sizeof p);
    p.strides[0] = p.strides[1] = 1;
    p.dilations[0] = p.dilations[1] = 1;
    p.pads[0] = p.pads[1] = p.pads[2] = p.pads[3] = c->k / 2;
    p.groups = 1;
    oa_ktensor in[3] = {KT_D(OA_KDT_F32, 1, c->ic, h, w), wt->d, b->d}, out = KT_D(OA_KDT_F32, 1, c->oc, h, w);
    in[0].layout = out.layout = c->blocked ? OA_KLAYOUT_NCHWC : OA_KLAYOUT_PLAIN;
    in[1].data = wt->data;
    in[1].stable = stable;
    in[2].data = b->data;
    oa_kop *op = NULL;
    assert_int_equal(oa_kop_create(OA_KOP_CONV2D, &p, 3, in, 1, &out, &op), OA_OK);
    return op;
}

static void share_run(const oa_kop *op, const kt_buf *x, kt_buf *y)
{
    const void *ins[3] = {x->data, NULL, NULL};
    void *outs[1] = {y->data};
    assert_int_equal(kt_run_op(op, ins, outs, 2), OA_OK);
}

static void test_conv_stable_filter_shared(void **state)
{
    (void)state;
    const share_case cases[] = {
        {"Winograd, NCHWc", 32, 48, 3, 24, 20, 16, 28, true, 1},
        {"Winograd behind NCHW copies", 32, 24, 3, 20, 20, 28, 24, false, 1},
        {"small-plane tile", 64, 40, 3, 6, 5, 5, 6, true, 1},
        {"NCHW 1x1 in place", 64, 48, 1, 40, 40, 48, 32, false, 0},
        {"oneDNN (5x5)", 16, 32, 5, 20, 20, 24, 18, true, -1}, /* -1: its slices' packed filters, however many */
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        const share_case *c = &cases[k];
        kt_buf wt = kt_alloc(KT_D(OA_KDT_F32, c->oc, c->ic, c->k, c->k)), b = kt_alloc(KT_D(OA_KDT_F32, c->oc));
        kt_fill(&wt, 4100 + k, -0.5, 0.5);
        kt_fill(&b, 4200 + k, -0.5, 0.5);
        size_t a0, a1, a2, bytes;
        oa_kderived_stats(&a0, &bytes);
        oa_kop *s1 = share_conv(c, c->h1, c->w1, &wt, &b, true);
        oa_kderived_stats(&a1, &bytes);
        oa_kop *s2 = share_conv(c, c->h2, c->w2, &wt, &b, true);
        oa_kderived_stats(&a2, &bytes);
        const char *impl = oa_kop_impl_name(s2);
        const bool dnnl = strncmp(impl, "onednn", 6) == 0;
        if (c->derived >= 0 ? dnnl || strcmp(impl, "ref") == 0 : !dnnl) { /* a tier without that kernel here */
            print_message("%s: %s at this tier (%s), nothing to share\n", c->what, impl, oa_kernels_isa());
            oa_kop_destroy(s1);
            oa_kop_destroy(s2);
            kt_free(&wt);
            kt_free(&b);
            continue;
        }
        const size_t want = c->derived >= 0 ? (size_t)c->derived : (a1 > a0 ? a1 - a0 : 1);
        if (a1 - a0 != want || a2 != a1) {
            fail_msg("%s (%s, then %s): %zu then %zu arrays derived, want %zu then none more", c->what,
                     oa_kop_impl_name(s1), impl, a1 - a0, a2 - a1, want);
        }
        /* the paths reading the filter in place say so (a loader must keep its pages) */
        assert_int_equal(oa_kop_reads_input_at_run(s2, 1), want == 0);
        oa_kop *u2 = share_conv(c, c->h2, c->w2, &wt, &b, false); /* its own derived arrays */
        size_t a3;
        oa_kderived_stats(&a3, &bytes);
        assert_int_equal(a3 - a2, want);
        assert_false(oa_kop_reads_input_at_run(u2, 1));
        const int64_t hs[2] = {c->h1, c->h2}, ws[2] = {c->w1, c->w2};
        for (int i = 0; i < 2; i++) {
            oa_ktensor xd = KT_D(OA_KDT_F32, 1, c->ic, hs[i], ws[i]), yd = KT_D(OA_KDT_F32, 1, c->oc, hs[i], ws[i]);
            xd.layout = yd.layout = c->blocked ? OA_KLAYOUT_NCHWC : OA_KLAYOUT_PLAIN;
            kt_buf x = kt_alloc(xd), ys = kt_alloc(yd), yu = kt_alloc(yd);
            kt_fill(&x, 4300 + k, -1, 1);
            share_run(i == 0 ? s1 : s2, &x, &ys);
            if (i == 1) {
                share_run(u2, &x, &yu);
                if (memcmp(ys.data, yu.data, ys.bytes) != 0) {
                    fail_msg("%s: the shared filter's output differs from its own copy's", c->what);
                }
            }
            kt_free(&x);
            kt_free(&ys);
            kt_free(&yu);
        }
        oa_kop_destroy(s1);
        oa_kop_destroy(u2);
        oa_kderived_stats(&a3, &bytes);
        assert_int_equal(a3, a0 + want); /* s2 still holds the shared ones */
        oa_kop_destroy(s2);
        oa_kderived_stats(&a3, &bytes);
        assert_int_equal(a3, a0);
        kt_free(&wt);
        kt_free(&b);
    }
    /* forms that differ do not share: F(4x4) on a large plane, F(2x2) on a small one, one stable filter */
    const share_case big = {"F(4x4)", 64, 64, 3, 56, 56, 0, 0, true, 1}, small = {"F(2x2)", 64, 64, 3, 7, 7, 0, 0, true, 1};
    kt_buf wt = kt_alloc(KT_D(OA_KDT_F32, 64, 64, 3, 3)), b = kt_alloc(KT_D(OA_KDT_F32, 64));
    kt_fill(&wt, 4400, -0.5, 0.5);
    kt_fill(&b, 4401, -0.5, 0.5);
    size_t a0, a1, bytes;
    oa_kderived_stats(&a0, &bytes);
    oa_kop *f4 = share_conv(&big, 56, 56, &wt, &b, true), *f2 = share_conv(&small, 7, 7, &wt, &b, true);
    oa_kderived_stats(&a1, &bytes);
    if (strcmp(oa_kop_impl_name(f4), "winograd-f4x4") == 0 && strcmp(oa_kop_impl_name(f2), "winograd-f2x2") == 0) {
        assert_int_equal(a1 - a0, 2);
    } else {
        print_message("F(4x4) / F(2x2): %s / %s at this tier\n", oa_kop_impl_name(f4), oa_kop_impl_name(f2));
    }
    oa_kop_destroy(f4);
    oa_kop_destroy(f2);
    kt_free(&wt);
    kt_free(&b);
}

/*
 * A direct NCHW path (conv_nchw.c) on shapes, switched by env, reporting impl: every shape with the post-op chains
 * the paths treat apart (none; folded BN + ReLU; HardSwish then an affine, in registers; a first residual add,
 * the kernel's start, then Sigmoid, a pass; Clip then an add) on and off (run_path_on_off), then the first add
 * reading y's own buffer (in place).
 */
static void run_nchw_direct(const char *env, const char *impl, bool has, const conv_case *shapes, size_t n,
                            uint64_t seed)
{
    post_case pcs[5];
    register_chains(pcs);
    pcs[3] = post_none();
    pcs[3].post.n = 2;
    pcs[3].post.ops[0].kind = OA_KPOST_ADD;
    pcs[3].post.ops[1] = (oa_kpost){OA_KPOST_ACT, OA_KACT_SIGMOID, 0, 0};
    pcs[4] = post_act(OA_KACT_CLIP, 0, 6);
    pcs[4].post.n = 2;
    pcs[4].post.ops[1].kind = OA_KPOST_ADD;
    run_path_on_off(env, impl, has, shapes, n, pcs, 5, 0, seed);
    g_res_in_y = true; /* the residual is y's own buffer */
    for (size_t k = 0; k < n; k++) {
        run_case(&shapes[k], &pcs[3], 0, 1 + (int)(k % 2), seed + 50 + k);
        if (has) {
            assert_true(strncmp(kt_last_impl, impl, strlen(impl)) == 0);
        }
    }
    g_res_in_y = false;
}

/*
 * 1x1 stride-1 NCHW convs directly in their layout (conv_nchw.c, the tier's tile with its lanes over pixels)
 * against the double reference: planes off the tile widths and the chunk (tails of 1 .. 15 pixels, several
 * chunks), output channels off the tile's group (1, 5, 7, 13), batches, two threads, the post-op chains of
 * run_nchw_direct. OPENACL_CONV_NCHW1X1=0 takes another path.
 */
static void test_conv_nchw1x1(void **state)
{
    (void)state;
    const bool has = oa_kpl1x1_for(oa_kisa_tier_used()) != NULL;
    if (!has) {
        print_message("NCHW 1x1 tile: not taken here (tier %s)\n", oa_kernels_isa());
    }
    static const conv_case shapes[] = {
        {1, 16, 20, 20, 32, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},  /* 400 px: two chunks */
        {2, 13, 7, 9, 7, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, false, false, 0, 0},    /* 63 px, odd channels */
        {1, 40, 3, 3, 5, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},     /* 9 px: one partial vector */
        {1, 3, 33, 35, 13, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},   /* 1155 px, 3 chunks + tail */
        {1, 24, 6, 5, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},     /* one output channel */
    };
    run_nchw_direct("OPENACL_CONV_NCHW1X1", "nchw1x1", has, shapes, sizeof(shapes) / sizeof(shapes[0]), 1400);
}

/*
 * Depthwise NCHW convs directly in their layout (conv_nchw.c: each channel's plane padded in the workspace, the
 * tier's plane kernel along the output rows) against the double reference: 3x3, 5x5 and 7x7 taps, strides 1
 * and 2 (the even-column loads), zero and asymmetric padding, output rows narrower than a vector, off the
 * 8-vector step and longer than it (tails), batches, two threads (planes under 1024 output pixels take another
 * path, checked too), the post-op chains of run_nchw_direct. OPENACL_CONV_NCHW_DW=0 takes another path.
 */
static void test_conv_nchw_depthwise(void **state)
{
    (void)state;
    const bool has = oa_kdwpl_for(oa_kisa_tier_used()) != NULL;
    if (!has) {
        print_message("NCHW depthwise kernel: not taken here (tier %s)\n", oa_kernels_isa());
    }
    static const conv_case shapes[] = {
        {1, 16, 20, 70, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 16, true, false, 0, 0},   /* 70 columns: step + tails */
        {1, 32, 96, 47, 32, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 32, true, false, 0, 0},   /* stride 2 */
        {2, 12, 240, 5, 12, 5, 5, 1, 1, 2, 2, 2, 2, 1, 1, 12, false, false, 0, 0},  /* 5 columns, batch */
        {1, 8, 80, 65, 8, 5, 5, 2, 2, 2, 2, 2, 2, 1, 1, 8, true, false, 0, 0},      /* 5x5 stride 2 */
        {1, 5, 40, 30, 5, 7, 7, 1, 1, 3, 3, 3, 3, 1, 1, 5, true, false, 0, 0},      /* 7x7 */
        {1, 6, 40, 29, 6, 3, 3, 1, 1, 0, 1, 2, 0, 1, 1, 6, true, false, 0, 0},      /* asymmetric pads */
        {1, 4, 40, 40, 4, 3, 3, 1, 1, 0, 0, 0, 0, 1, 1, 4, true, false, 0, 0},      /* no padding */
        {1, 3, 9, 300, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 3, true, false, 0, 0},      /* wide rows: steps of vectors */
        {1, 3, 16, 333, 3, 5, 5, 2, 2, 2, 2, 2, 2, 1, 1, 3, true, false, 0, 0},     /* the same, 5x5 stride 2 */
        {1, 2, 101, 200, 2, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 2, true, false, 0, 0},    /* tall: bands of rows + a tail */
        {1, 2, 131, 150, 2, 5, 5, 2, 2, 2, 2, 2, 2, 1, 1, 2, true, false, 0, 0},    /* the same, 5x5 stride 2 */
    };
    setenv("OA_KERNELS_SPLIT_FLOPS", "0", 1); /* two tasks even on these small planes */
    run_nchw_direct("OPENACL_CONV_NCHW_DW", "nchw-dw", has, shapes, sizeof(shapes) / sizeof(shapes[0]), 1500);
    /* a plane under 1024 output pixels (PP-OCR cls's 2 x 96) stays off the direct path */
    static const conv_case small = {1, 24, 2, 96, 24, 5, 5, 1, 1, 2, 2, 2, 2, 1, 1, 24, true, false, 0, 0};
    post_case relu = post_act(OA_KACT_RELU, 0, 0);
    run_case(&small, &relu, 0, 1, 1590);
    assert_true(strncmp(kt_last_impl, "nchw-dw", 7) != 0);
    unsetenv("OA_KERNELS_SPLIT_FLOPS");
}

/*
 * Wide 3x3 convs of NCHWc chains on AVX-512 CPUs (ResNet's downsampling 3x3s, and its stride-1
 * 7x7 x 512 ones that Winograd leaves): oneDNN's brgemm kernels on NHWC copies of x and y
 * (conv.c nhwc_eligible), against the double
 * reference: odd planes, batches, several output slices (two threads), a residual add and an
 * activation left to our epilogue; OPENACL_CONV_NHWC=0 takes the blocked direct kernel.
 */
static void test_conv_nhwc_stride2(void **state)
{
    (void)state;
    const bool avx512 = oa_kisa_level() >= 2 && oa_kernels_block() == 16;
    const char *dnnl = getenv("OA_KERNELS_ONEDNN");
    const bool expect = avx512 && (dnnl == NULL || strcmp(dnnl, "0") != 0);
    if (!expect) {
        print_message("NHWC stride-2 path: not taken here (tier %s, block %d): checked on the direct path only\n",
                      oa_kernels_isa(), oa_kernels_block());
    }
    static const conv_case shapes[] = {
        {1, 256, 9, 11, 48, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0},
        {2, 272, 8, 8, 32, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, false, false, 0, 0},
        {1, 256, 14, 14, 96, 3, 3, 2, 2, 0, 1, 0, 1, 1, 1, 1, true, false, 0, 0}, /* asymmetric padding */
        {1, 256, 5, 5, 48, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0},   /* stride 1, under Winograd's 6x6 */
    };
    post_case pcs[3];
    pcs[0] = post_act(OA_KACT_RELU, 0, 0);
    pcs[0].fold_bn = true;
    post_case res = post_none(); /* conv + add + relu: the add is ours (no NHWC residual for oneDNN) */
    res.post.n = 2;
    res.post.ops[0].kind = OA_KPOST_ADD;
    res.post.ops[1].kind = OA_KPOST_ACT;
    res.post.ops[1].act = OA_KACT_RELU;
    pcs[1] = res;
    pcs[2] = post_act(OA_KACT_HARDSWISH, 0, 0);
    setenv("OPENACL_CONV_PW", "0", 1); /* these small planes would take the small-plane tile (test_conv_pointwise) */
    run_path_on_off("OPENACL_CONV_NHWC", "onednn-nhwc", expect, shapes, sizeof(shapes) / sizeof(shapes[0]), pcs, 3, 1,
                    900);
    unsetenv("OPENACL_CONV_PW");
}

/*
 * 2x2 / stride-2 transposed convs (PP-OCR det's upsamplers) through the direct
 * ISA kernel (simd/deconv_impl.inc) where the tier has one, and through the
 * 1x1 conv + scatter with OPENACL_DECONV_DIRECT=0: row tails of both vector
 * widths, output-channel tails of the register blocks, batches, no bias,
 * folded BN and the activations applied on the written rows.
 */
static void test_conv_deconv2x2_direct(void **state)
{
    (void)state;
    static const conv_case shapes[] = {
        {2, 24, 5, 37, 6, 2, 2, 2, 2, 0, 0, 0, 0, 1, 1, 1, true, true, 0, 0},
        {1, 7, 3, 16, 5, 2, 2, 2, 2, 0, 0, 0, 0, 1, 1, 1, false, true, 0, 0},
        {1, 24, 4, 3, 1, 2, 2, 2, 2, 0, 0, 0, 0, 1, 1, 1, true, true, 0, 0},
        {1, 3, 9, 40, 8, 2, 2, 2, 2, 0, 0, 0, 0, 1, 1, 1, true, true, 0, 0},
    };
    post_case pcs[3];
    pcs[0] = post_none();
    pcs[1] = post_act(OA_KACT_RELU, 0, 0);
    pcs[1].fold_bn = true;
    pcs[2] = post_act(OA_KACT_SIGMOID, 0, 0);
    const bool direct = oa_kdeconv2x2_for(oa_kisa_tier_used()) != NULL;
    if (!direct) {
        print_message("tier %s has no direct 2x2 deconv kernel: the scatter path only\n", oa_kernels_isa());
    }
    for (int off = 0; off < 2; off++) {
        if (off) {
            setenv("OPENACL_DECONV_DIRECT", "0", 1);
        }
        for (size_t sh = 0; sh < sizeof(shapes) / sizeof(shapes[0]); sh++) {
            for (int i = 0; i < 3; i++) {
                run_case(&shapes[sh], &pcs[i], 0, 1 + (int)(sh + (size_t)i) % 2, 700 + sh * 3 + (uint64_t)i);
                if (direct && !off) {
                    assert_true(strncmp(kt_last_impl, "deconv2x2-", 10) == 0);
                }
            }
        }
    }
    unsetenv("OPENACL_DECONV_DIRECT");
}

/*
 * Winograd F(2x2) and F(4x4) (3x3, stride 1, NCHWc y from NCHWc or NCHW x): forced on with
 * OPENACL_WINOGRAD against the double reference, over odd sizes, partial
 * tiles, asymmetric padding, channel counts off the block (AVX-512: output
 * columns in pairs, a pair ending in a padding half, an odd column alone),
 * batches, planes in one chunk (up to 64 tiles) and in several, chunks
 * shared by threads, and the post-op chains (ReLU/adds in the transform,
 * other activations on y's rows once a block is written, or with a residual
 * on a copy).
 */
static void test_conv_winograd(void **state)
{
    (void)state;
    if (oa_kisa_level() >= 2 && oa_kernels_block() == 16) {
        print_message("Winograd: AVX-512 path (16-channel input transform, 512-bit GEMM)\n");
    } else {
        print_message("Winograd: AVX-512 path skipped (tier %s, block %d): 8-channel AVX2 pieces only\n",
                      oa_kernels_isa(), oa_kernels_block());
    }
    static const conv_case shapes[] = {
        {1, 16, 13, 11, 24, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0},
        {2, 13, 9, 7, 21, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, false, false, 0, 0},
        {1, 8, 8, 8, 8, 3, 3, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},
        {1, 20, 10, 14, 40, 3, 3, 1, 1, 0, 2, 1, 0, 1, 1, 1, true, false, 0, 0},
        {1, 64, 29, 30, 32, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0},
        {1, 3, 3, 5, 5, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0},
        {1, 16, 40, 37, 72, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0}, /* 100 / 380 tiles: chunks */
    };
    post_case pcs[6];
    int n = 0;
    pcs[n++] = post_none();
    pcs[n++] = post_act(OA_KACT_RELU, 0, 0);
    pcs[n++] = post_act(OA_KACT_SIGMOID, 0, 0); /* run on y's rows per block; sigmoid(0) != 0 in the padding lanes */
    post_case res = post_none(); /* ResNet: conv + BN + add + relu */
    res.fold_bn = true;
    res.post.n = 2;
    res.post.ops[0].kind = OA_KPOST_ADD;
    res.post.ops[1].kind = OA_KPOST_ACT;
    res.post.ops[1].act = OA_KACT_RELU;
    pcs[n++] = res;
    pcs[n++] = post_act(OA_KACT_HARDSWISH, 0, 0);
    post_case res2 = post_act(OA_KACT_SIGMOID, 0, 0); /* act then add */
    res2.post.n = 2;
    res2.post.ops[1].kind = OA_KPOST_ADD;
    pcs[n++] = res2;
    /* eligible with 8- or 16-channel blocks from AVX2 up (the _isa_ref runs take the other paths) */
    bool eligible = oa_kisa_level() >= 1;
    const char *tiles[2] = {"2", "4"};
    for (int t = 0; t < 2; t++) {
        setenv("OPENACL_WINOGRAD", tiles[t], 1);
        for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
            for (int i = 0; i < n; i++) {
                for (int thr = 1; thr <= 2; thr++) {
                    run_case(&shapes[s], &pcs[i], 1 + (i + thr) % 2, thr, 700 + s * 10 + (uint64_t)i);
                    if (eligible) {
                        assert_string_equal(kt_last_impl, t == 0 ? "winograd-f2x2" : "winograd-f4x4");
                    }
                }
            }
        }
    }
    /* every row count of the GEMM microkernels (1 to 12 tiles and past a 12-tile block):
     * a 1 x k tile strip, one thread (one chunk holds them all) */
    for (int t = 0; t < 2; t++) {
        setenv("OPENACL_WINOGRAD", tiles[t], 1);
        const int64_t m = t == 0 ? 2 : 4;
        for (int64_t k = 1; k <= 14; k++) {
            const conv_case strip = {1, 19, m, m * k, 35, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0};
            run_case(&strip, &pcs[1], 1, 1, 760 + (uint64_t)k);
            if (eligible) {
                assert_string_equal(kt_last_impl, t == 0 ? "winograd-f2x2" : "winograd-f4x4");
            }
        }
    }
    /* off: the direct path */
    setenv("OPENACL_WINOGRAD", "0", 1);
    run_case(&shapes[4], &pcs[2], 1, 2, 790);
    assert_true(strncmp(kt_last_impl, "winograd", 8) != 0);
    unsetenv("OPENACL_WINOGRAD");
}

/* The implementation a default (OPENACL_WINOGRAD unset) 3x3 stride-1 NCHWc conv of c -> c channels at h x h gets. */
static const char *wino_choice(int64_t c, int64_t h)
{
    oa_kconv_params p;
    memset(&p, 0, sizeof p);
    p.strides[0] = p.strides[1] = 1;
    p.pads[0] = p.pads[1] = p.pads[2] = p.pads[3] = 1;
    p.groups = 1;
    float *w = calloc((size_t)(c * c * 9 + c), sizeof(float)); /* filter, then bias */
    assert_non_null(w);
    oa_ktensor in[3], out;
    memset(in, 0, sizeof in);
    memset(&out, 0, sizeof out);
    oa_ktensor_set(&in[0], OA_KDT_F32, 4, (int64_t[]){1, c, h, h});
    oa_ktensor_set(&in[1], OA_KDT_F32, 4, (int64_t[]){c, c, 3, 3});
    oa_ktensor_set(&in[2], OA_KDT_F32, 1, (int64_t[]){c});
    in[0].layout = OA_KLAYOUT_NCHWC;
    in[1].data = w;
    in[2].data = w + c * c * 9;
    assert_int_equal(oa_kernel_infer(OA_KOP_CONV2D, &p, 3, in, 1, &out), OA_OK);
    out.layout = OA_KLAYOUT_NCHWC;
    oa_kop *op = NULL;
    assert_int_equal(oa_kop_create(OA_KOP_CONV2D, &p, 3, in, 1, &out, &op), OA_OK);
    static char impl[64];
    snprintf(impl, sizeof impl, "%s", oa_kop_impl_name(op));
    oa_kop_destroy(op);
    free(w);
    return impl;
}

/*
 * The default Winograd choice (docs/runtime.md OPENACL_WINOGRAD) on ResNet-50's
 * 3x3 layers: with 16-channel blocks (AVX-512) F(4x4) at 56x56, F(2x2) at 28x28
 * (F(4x4)'s filters would pass 1 MiB with 49 tiles) and 14x14, oneDNN at 7x7 x 512
 * (F(2x2)'s filters past 8 MiB); with 8-channel blocks (AVX2) F(4x4) from 8x8.
 */
static void test_conv_winograd_choice(void **state)
{
    (void)state;
    unsetenv("OPENACL_WINOGRAD");
    if (oa_kisa_level() < 1) {
        print_message("Winograd choice: no Winograd on tier %s here\n", oa_kernels_isa());
        assert_true(strncmp(wino_choice(64, 56), "winograd", 8) != 0);
        return;
    }
    /* the same on both blocks: the filters' memory bounds decide below 64 tiles (ResNet-50's layers) */
    assert_string_equal(wino_choice(64, 56), "winograd-f4x4");
    assert_string_equal(wino_choice(128, 28), "winograd-f2x2"); /* F(4x4): 2.4 MB of filters for 49 tiles */
    assert_string_equal(wino_choice(256, 14), "winograd-f2x2");
    assert_true(strncmp(wino_choice(512, 7), "winograd", 8) != 0); /* F(2x2): 16.8 MB, 1.8x the weights */
}

static void test_conv_residual_inplace(void **state)
{
    (void)state;
    /* residual input aliases the output buffer (in-place sum) */
    int64_t n = 1, c = 8, h = 6, w = 6;
    kt_buf x = kt_alloc(KT_D(OA_KDT_F32, n, c, h, w));
    kt_buf wt = kt_alloc(KT_D(OA_KDT_F32, c, c, 1, 1));
    kt_buf y = kt_alloc(KT_D(OA_KDT_F32, n, c, h, w));
    kt_fill(&x, 1, -1, 1);
    kt_fill(&wt, 2, -1, 1);
    kt_fill(&y, 3, -1, 1);
    double *r0 = kt_to_double(&y), *xd = kt_to_double(&x), *wd = kt_to_double(&wt);
    oa_kconv_params p;
    memset(&p, 0, sizeof p);
    p.strides[0] = p.strides[1] = 1;
    p.post.n = 1;
    p.post.ops[0].kind = OA_KPOST_ADD;
    oa_ktensor in[4] = {x.d, wt.d, {.dtype = OA_KDT_UNDEFINED}, y.d};
    in[1].data = wt.data;
    oa_kop *op;
    assert_int_equal(oa_kop_create(OA_KOP_CONV2D, &p, 4, in, 1, &y.d, &op), OA_OK);
    void *ws = aligned_alloc(64, oa_kop_workspace_size(op) + 64);
    const void *ip[4] = {x.data, NULL, NULL, y.data};
    void *outp[1] = {y.data};
    assert_int_equal(oa_kop_run(op, ip, outp, ws, kt_pool(2)), OA_OK);
    double *ref = malloc(sizeof(double) * (size_t)(c * h * w));
    for (int64_t o = 0; o < c; o++) {
        for (int64_t i = 0; i < h * w; i++) {
            double acc = r0[o * h * w + i];
            for (int64_t k = 0; k < c; k++) {
                acc += wd[o * c + k] * xd[k * h * w + i];
            }
            ref[o * h * w + i] = acc;
        }
    }
    kt_expect_close(&y, ref, 1e-5, 1e-5, "conv residual in place");
    free(ws);
    free(ref);
    free(r0);
    free(xd);
    free(wd);
    oa_kop_destroy(op);
    kt_free(&x);
    kt_free(&wt);
    kt_free(&y);
}

static void test_conv_bad_params(void **state)
{
    (void)state;
    oa_kconv_params p;
    memset(&p, 0, sizeof p);
    p.strides[0] = p.strides[1] = 1;
    oa_ktensor in[3] = {KT_D(OA_KDT_F32, 1, 3, 8, 8), KT_D(OA_KDT_F32, 4, 2, 3, 3), KT_D(OA_KDT_F32, 4)};
    oa_ktensor out = KT_D(OA_KDT_F32, 1, 4, 6, 6);
    oa_kop *op = NULL;
    kt_expect_fail(oa_kop_create(OA_KOP_CONV2D, &p, 3, in, 1, &out, &op), OA_E_PARAM, "filter channels mismatch");
    assert_null(op);
    in[1] = KT_D(OA_KDT_F32, 4, 3, 3, 3);
    in[0].dtype = OA_KDT_I32;
    kt_expect_fail(oa_kop_create(OA_KOP_CONV2D, &p, 3, in, 1, &out, &op), OA_E_UNSUPPORTED_DATA_TYPE, "i32 conv");
    in[0].dtype = OA_KDT_F32;
    out.dims[2] = 7;
    kt_expect_fail(oa_kop_create(OA_KOP_CONV2D, &p, 3, in, 1, &out, &op), OA_E_PARAM, "wrong output shape");
    out.dims[2] = 6;
    p.strides[0] = 0;
    kt_expect_fail(oa_kop_create(OA_KOP_CONV2D, &p, 3, in, 1, &out, &op), OA_E_PARAM, "zero stride");
    p.strides[0] = 1;
    kt_expect_fail(oa_kop_create(OA_KOP_CONV2D, &p, 3, in, 1, &out, &op), OA_E_PARAM, "filter not constant");
    oa_kop_destroy(NULL);
}

/* Squeeze-excitation's 1x1 convs on 1x1 maps run our GEMV ("gemv-1x1") when
 * the tier has one, else oneDNN / the reference; both against the double
 * reference with post-op chains (HardSigmoid + Linear, Relu, residual Add),
 * batch 2, channel counts off the block, every layout mode. */
static void test_conv_gemv_1x1(void **state)
{
    (void)state;
    static const conv_case shapes[] = {
        {2, 200, 1, 1, 50, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},
        {1, 13, 1, 1, 37, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, false, false, 0, 0},
    };
    post_case pcs[3];
    pcs[0] = post_act(OA_KACT_HARDSIGMOID, 0.2f, 0.5f);
    pcs[0].post.n = 2;
    pcs[0].post.ops[1].kind = OA_KPOST_ACT;
    pcs[0].post.ops[1].act = OA_KACT_LINEAR;
    pcs[0].post.ops[1].alpha = 1.0f;
    pcs[0].post.ops[1].beta = 1.0f;
    pcs[1] = post_act(OA_KACT_RELU, 0, 0);
    pcs[1].fold_bn = true;
    pcs[2] = post_none();
    pcs[2].post.n = 1;
    pcs[2].post.ops[0].kind = OA_KPOST_ADD;
    const bool simd = oa_kgemv_for(oa_kisa_tier_used()) != NULL;
    for (int off = 0; off < 2; off++) {
        setenv("OPENACL_CONV_GEMV", off ? "0" : "1", 1);
        for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
            for (int i = 0; i < 3; i++) {
                for (int mode = 0; mode < 3; mode++) {
                    run_case(&shapes[s], &pcs[i], mode, 1 + mode % 2, 700 + s * 10 + (size_t)i);
                    if (simd && !off) {
                        assert_string_equal(kt_last_impl, "gemv-1x1");
                    } else {
                        assert_string_not_equal(kt_last_impl, "gemv-1x1");
                    }
                }
            }
        }
    }
    unsetenv("OPENACL_CONV_GEMV");
}

/*
 * A first residual add whose operand is y's own memory (the planner's in-place residual, also when the
 * residual was read earlier by another op) gives the reference on every conv path: oneDNN blocked (its
 * sum post-op), NCHW through blocked copies, NHWC copies (3x3 stride 2, 256 channels), Winograd, the
 * 1x1-map GEMV, the few-position GEMV and the stem; then Relu. 1 and 2 threads, every layout mode.
 */
static void test_conv_residual_in_y(void **state)
{
    (void)state;
    static const conv_case shapes[] = {
        {1, 64, 14, 14, 96, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},  /* 1x1 */
        {1, 32, 12, 12, 48, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0},  /* 3x3 (Winograd) */
        {1, 256, 14, 14, 64, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0}, /* 3x3/s2 x 256 (NHWC) */
        {2, 200, 1, 1, 50, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},   /* 1x1 map (GEMV) */
        {1, 24, 1, 6, 40, 1, 3, 1, 1, 0, 0, 1, 1, 1, 1, 1, true, false, 0, 0},    /* 6 positions */
        {1, 3, 32, 32, 16, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0},   /* stem */
    };
    post_case pc = post_none();
    pc.post.n = 2;
    pc.post.ops[0].kind = OA_KPOST_ADD;
    pc.post.ops[1].kind = OA_KPOST_ACT;
    pc.post.ops[1].act = OA_KACT_RELU;
    g_res_in_y = true;
    for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
        for (int mode = 0; mode < 3; mode++) {
            for (int thr = 1; thr <= 2; thr++) {
                run_case(&shapes[s], &pc, mode, thr, 900 + s * 10 + (size_t)mode);
            }
        }
    }
    g_res_in_y = false;
}

/*
 * Convolutions with at most 8 output positions (silero VAD's 1-D convs, a head on a 1x1 map) run as one
 * multi-column GEMV (kernels/conv_gemv.h) when the tier has a kernel; the op-level epilogue (folded
 * BatchNorm, activations, residual adds before and after) on that path, NCHW, 1 and 2 threads.
 */
static void test_conv_few_positions_gemv(void **state)
{
    (void)state;
    post_case pcs[3];
    pcs[0] = post_act(OA_KACT_RELU, 0, 0);
    pcs[0].fold_bn = true;
    pcs[1] = post_none(); /* add then sigmoid */
    pcs[1].post.n = 2;
    pcs[1].post.ops[0].kind = OA_KPOST_ADD;
    pcs[1].post.ops[1].kind = OA_KPOST_ACT;
    pcs[1].post.ops[1].act = OA_KACT_SIGMOID;
    pcs[2] = post_act(OA_KACT_TANH, 0, 0); /* tanh then add */
    pcs[2].post.n = 2;
    pcs[2].post.ops[1].kind = OA_KPOST_ADD;
    static const conv_case shapes[] = {
        {1, 1, 1, 640, 258, 1, 256, 1, 128, 0, 0, 0, 0, 1, 1, 1, false, false, 0, 0}, /* silero's STFT */
        {1, 129, 1, 4, 128, 1, 3, 1, 1, 0, 0, 1, 1, 1, 1, 1, true, false, 0, 0},
        {1, 128, 1, 4, 64, 1, 3, 1, 2, 0, 0, 1, 1, 1, 1, 1, true, false, 0, 0},
        {1, 128, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, true, false, 0, 0},
        {2, 6, 4, 4, 21, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, true, false, 0, 0}, /* 2 images x 2x2 */
    };
    const bool has = oa_kisa_tier_used() >= OA_KISA_AVX2 && getenv("OPENACL_CONV_GEMV") == NULL;
    for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
        for (int i = 0; i < 3; i++) {
            for (int thr = 1; thr <= 2; thr++) {
                run_case(&shapes[s], &pcs[i], 0, thr, 700 + s * 3 + (uint64_t)i);
                if (has) {
                    assert_true(strncmp(kt_last_impl, "gemv-", 5) == 0);
                } else {
                    assert_true(strncmp(kt_last_impl, "gemv-", 5) != 0);
                }
            }
        }
        /* NCHWc keeps the blocked paths (a 1x1 conv on a 1x1 map may take the squeeze-excitation GEMV) */
        run_case(&shapes[s], &pcs[0], 1, 1, 800 + s);
        assert_true(strcmp(kt_last_impl, "gemv-avx512") != 0 && strcmp(kt_last_impl, "gemv-avx2") != 0);
    }
}

/* The in-place residual sum (the residual input is the output buffer) then ReLU on the few-position GEMV path:
 * the residual must be read before the GEMV's result overwrites it, and added once. */
static void test_conv_few_positions_inplace_sum(void **state)
{
    (void)state;
    const int64_t c = 20, k = 3, w = 4; /* 1-D: x [1, c, 1, w], filter k3 pad 1 -> 4 positions */
    kt_buf x = kt_alloc(KT_D(OA_KDT_F32, 1, c, 1, w));
    kt_buf wt = kt_alloc(KT_D(OA_KDT_F32, c, c, 1, k));
    kt_buf y = kt_alloc(KT_D(OA_KDT_F32, 1, c, 1, w));
    kt_fill(&x, 11, -1, 1);
    kt_fill(&wt, 12, -1, 1);
    kt_fill(&y, 13, -1, 1);
    double *r0 = kt_to_double(&y), *xd = kt_to_double(&x), *wd = kt_to_double(&wt);
    oa_kconv_params p;
    memset(&p, 0, sizeof p);
    p.strides[0] = p.strides[1] = 1;
    p.pads[2] = p.pads[3] = 1;
    p.post.n = 2;
    p.post.ops[0].kind = OA_KPOST_ADD;
    p.post.ops[1].kind = OA_KPOST_ACT;
    p.post.ops[1].act = OA_KACT_RELU;
    oa_ktensor in[4] = {x.d, wt.d, {.dtype = OA_KDT_UNDEFINED}, y.d};
    in[1].data = wt.data;
    oa_kop *op;
    assert_int_equal(oa_kop_create(OA_KOP_CONV2D, &p, 4, in, 1, &y.d, &op), OA_OK);
    if (oa_kisa_tier_used() >= OA_KISA_AVX2 && getenv("OPENACL_CONV_GEMV") == NULL) {
        assert_true(strncmp(oa_kop_impl_name(op), "gemv-", 5) == 0);
    }
    void *ws = aligned_alloc(64, (oa_kop_workspace_size(op) + 64) / 64 * 64);
    const void *ip[4] = {x.data, NULL, NULL, y.data};
    void *outp[1] = {y.data};
    assert_int_equal(oa_kop_run(op, ip, outp, ws, kt_pool(1)), OA_OK);
    double ref[20 * 4];
    for (int64_t o = 0; o < c; o++) {
        for (int64_t i = 0; i < w; i++) {
            double acc = r0[o * w + i];
            for (int64_t ci = 0; ci < c; ci++) {
                for (int64_t t = 0; t < k; t++) {
                    int64_t iw = i - 1 + t;
                    acc += iw < 0 || iw >= w ? 0.0 : wd[(o * c + ci) * k + t] * xd[ci * w + iw];
                }
            }
            ref[o * w + i] = acc > 0 ? acc : 0.0;
        }
    }
    kt_expect_close(&y, ref, 1e-5, 1e-5, "few-position conv, residual in place, relu");
    free(ws);
    free(r0);
    free(xd);
    free(wd);
    oa_kop_destroy(op);
    kt_free(&x);
    kt_free(&wt);
    kt_free(&y);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conv_shapes),
        cmocka_unit_test(test_conv_epilogues), cmocka_unit_test(test_conv_gemv_1x1),
        cmocka_unit_test(test_conv_wide_plain_entry),
        cmocka_unit_test(test_conv_winograd),
        cmocka_unit_test(test_conv_winograd_choice),
        cmocka_unit_test(test_conv_nhwc_stride2),
        cmocka_unit_test(test_conv_stem),
        cmocka_unit_test(test_conv_pointwise),
        cmocka_unit_test(test_conv_depthwise),
        cmocka_unit_test(test_conv_plain_detour),
        cmocka_unit_test(test_conv_stable_filter_shared),
        cmocka_unit_test(test_conv_nchw1x1),
        cmocka_unit_test(test_conv_nchw_depthwise),
        cmocka_unit_test(test_conv_deconv2x2_direct),
        cmocka_unit_test(test_conv_residual_inplace),
        cmocka_unit_test(test_conv_residual_in_y),
        cmocka_unit_test(test_conv_bad_params),
        cmocka_unit_test(test_conv_few_positions_gemv),
        cmocka_unit_test(test_conv_few_positions_inplace_sum),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

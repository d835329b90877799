/*
 * Conformance: BatchNorm (plain ranks 2-4, NCHWc, fused act, runtime
 * params), LayerNorm (axes, broadcast gamma/beta, mean/variance outputs),
 * SoftmaxV2 / LogSoftmax (any axis), pooling (max/avg, pads, ceil_mode,
 * exclusive, SAME/VALID, global, divisor_override, NCHWc) and reductions.
 * References in double.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kt_harness.h"

/* ---- BatchNorm ---- */

static void run_bn(oa_ktensor xd, oa_klayout layout, bool constant, bool relu, int thr)
{
    int64_t C = xd.dims[1];
    kt_buf x = kt_alloc(xd), prm[4];
    kt_fill(&x, 1, -2, 2);
    for (int i = 0; i < 4; i++) {
        prm[i] = kt_alloc(KT_D(OA_KDT_F32, C));
        kt_fill(&prm[i], 10 + (uint64_t)i, i == 3 ? 0.1 : -1, i == 3 ? 2 : 1);
    }
    int64_t n = oa_ktensor_numel(&xd), inner = n / (xd.dims[0] * C);
    double *ref = malloc(sizeof(double) * (size_t)n);
    for (int64_t i = 0; i < n; i++) {
        int64_t c = (i / inner) % C;
        double v = kt_get(&prm[0], c) * (kt_get(&x, i) - kt_get(&prm[2], c)) / sqrt(kt_get(&prm[3], c) + 1e-3) +
                   kt_get(&prm[1], c);
        ref[i] = relu && v < 0 ? 0 : v;
    }
    oa_kbatchnorm_params p = {.epsilon = 1e-3f};
    if (relu) {
        p.post.n = 1;
        p.post.ops[0].act = OA_KACT_RELU;
    }
    bool blk = layout == OA_KLAYOUT_NCHWC;
    kt_buf xi = blk ? kt_blocked_from_plain(&x) : x;
    kt_buf y = kt_alloc(xi.d);
    kt_buf *ins[5] = {&xi, &prm[0], &prm[1], &prm[2], &prm[3]}, *outs[1] = {&y};
    assert_int_equal(kt_run(OA_KOP_BATCHNORM, &p, 5, ins, constant ? 0x1e : 0, 1, outs, thr), OA_OK);
    kt_buf yp = blk ? kt_plain_from_blocked(&y) : y;
    kt_expect_close(&yp, ref, 1e-5, 1e-5, kt_fmt("BatchNorm rank %d C%lld %s const%d relu%d", xd.rank, (long long)C,
                                                blk ? "NCHWc" : "plain", constant, relu));
    if (blk) {
        kt_free(&xi);
        kt_free(&yp);
    }
    for (int i = 0; i < 4; i++) {
        kt_free(&prm[i]);
    }
    kt_free(&x);
    kt_free(&y);
    free(ref);
}

static void test_batchnorm(void **state)
{
    (void)state;
    run_bn(KT_D(OA_KDT_F32, 2, 13, 9, 7), OA_KLAYOUT_PLAIN, true, false, 1);
    run_bn(KT_D(OA_KDT_F32, 2, 13, 9, 7), OA_KLAYOUT_PLAIN, false, true, 2);
    run_bn(KT_D(OA_KDT_F32, 3, 5, 11), OA_KLAYOUT_PLAIN, true, false, 2);
    run_bn(KT_D(OA_KDT_F32, 4, 6), OA_KLAYOUT_PLAIN, true, true, 1);
    run_bn(KT_D(OA_KDT_F32, 2, 13, 9, 7), OA_KLAYOUT_NCHWC, true, true, 2);
    run_bn(KT_D(OA_KDT_F32, 1, 32, 40, 40), OA_KLAYOUT_NCHWC, false, false, 2);
}

/* ---- LayerNorm ---- */

static void run_ln(oa_ktensor xd, int64_t axis, bool full_gamma, bool beta, int n_out, int thr)
{
    int ax = (int)(axis < 0 ? axis + xd.rank : axis);
    int64_t d = 1;
    for (int i = ax; i < xd.rank; i++) {
        d *= xd.dims[i];
    }
    int64_t n = oa_ktensor_numel(&xd), rows = n / d;
    kt_buf x = kt_alloc(xd);
    kt_fill(&x, 3, -3, 5);
    oa_ktensor gd = xd;
    if (!full_gamma) {
        gd.rank = xd.rank - ax;
        for (int i = 0; i < gd.rank; i++) {
            gd.dims[i] = xd.dims[ax + i];
        }
    }
    kt_buf g = kt_alloc(gd), b = kt_alloc(gd);
    kt_fill(&g, 4, 0.5, 1.5);
    kt_fill(&b, 5, -1, 1);
    double *ref = malloc(sizeof(double) * (size_t)n), *mref = malloc(sizeof(double) * (size_t)rows),
           *vref = malloc(sizeof(double) * (size_t)rows);
    for (int64_t r = 0; r < rows; r++) {
        double m = 0, v = 0;
        for (int64_t i = 0; i < d; i++) {
            m += kt_get(&x, r * d + i);
        }
        m /= (double)d;
        for (int64_t i = 0; i < d; i++) {
            double t = kt_get(&x, r * d + i) - m;
            v += t * t;
        }
        v /= (double)d;
        mref[r] = m;
        vref[r] = v;
        for (int64_t i = 0; i < d; i++) {
            int64_t gi = full_gamma ? r * d + i : i;
            ref[r * d + i] = (kt_get(&x, r * d + i) - m) / sqrt(v + 1e-5) * kt_get(&g, gi) + (beta ? kt_get(&b, gi) : 0);
        }
    }
    oa_klayernorm_params p = {.begin_norm_axis = axis, .epsilon = 1e-5f};
    kt_buf y = kt_alloc(xd);
    oa_ktensor md = xd;
    for (int i = ax; i < md.rank; i++) {
        md.dims[i] = 1;
    }
    kt_buf mo = kt_alloc(md), vo = kt_alloc(md);
    kt_buf *ins[3] = {&x, &g, beta ? &b : NULL}, *outs[3] = {&y, &mo, &vo};
    assert_int_equal(kt_run(OA_KOP_LAYERNORM, &p, 3, ins, 0, n_out, outs, thr), OA_OK);
    const char *label = kt_fmt("LayerNorm rank %d axis %lld full%d beta%d", xd.rank, (long long)axis, full_gamma, beta);
    kt_expect_close(&y, ref, 2e-5, 2e-5, label);
    if (n_out == 3) {
        kt_expect_close(&mo, mref, 1e-5, 1e-5, label);
        kt_expect_close(&vo, vref, 1e-5, 1e-4, label);
    }
    free(ref);
    free(mref);
    free(vref);
    kt_free(&x);
    kt_free(&g);
    kt_free(&b);
    kt_free(&y);
    kt_free(&mo);
    kt_free(&vo);
}

static void test_layernorm(void **state)
{
    (void)state;
    run_ln(KT_D(OA_KDT_F32, 2, 16, 768), -1, false, true, 1, 2);
    run_ln(KT_D(OA_KDT_F32, 2, 16, 768), -1, true, true, 3, 1); /* ONNX path: gamma broadcast to x */
    run_ln(KT_D(OA_KDT_F32, 3, 4, 5), 1, false, false, 3, 2);
    run_ln(KT_D(OA_KDT_F32, 7), 0, false, true, 3, 1);
}

/* ---- Softmax ---- */

static void test_softmax(void **state)
{
    (void)state;
    oa_ktensor shapes[] = {KT_D(OA_KDT_F32, 2, 3, 50), KT_D(OA_KDT_F32, 4, 7, 5, 3), KT_D(OA_KDT_F32, 1000),
                           KT_D(OA_KDT_F32, 2, 12, 64, 64)};
    for (size_t s = 0; s < 4; s++) {
        oa_ktensor xd = shapes[s];
        for (int ax = -1; ax < xd.rank; ax++) {
            for (int lg = 0; lg < 2; lg++) {
                int a = ax < 0 ? xd.rank - 1 : ax;
                kt_buf x = kt_alloc(xd), y = kt_alloc(xd);
                kt_fill(&x, 7 + (uint64_t)a, -10, 10);
                int64_t n = oa_ktensor_numel(&xd), L = xd.dims[a], I = 1;
                for (int i = a + 1; i < xd.rank; i++) {
                    I *= xd.dims[i];
                }
                double *ref = malloc(sizeof(double) * (size_t)n);
                for (int64_t o = 0; o < n / (L * I); o++) {
                    for (int64_t i = 0; i < I; i++) {
                        double m = -INFINITY, sum = 0;
                        for (int64_t l = 0; l < L; l++) {
                            m = fmax(m, kt_get(&x, (o * L + l) * I + i));
                        }
                        for (int64_t l = 0; l < L; l++) {
                            sum += exp(kt_get(&x, (o * L + l) * I + i) - m);
                        }
                        for (int64_t l = 0; l < L; l++) {
                            double v = kt_get(&x, (o * L + l) * I + i) - m;
                            ref[(o * L + l) * I + i] = lg ? v - log(sum) : exp(v) / sum;
                        }
                    }
                }
                oa_ksoftmax_params p = {.axis = ax, .log = lg};
                kt_buf *ins[1] = {&x}, *outs[1] = {&y};
                assert_int_equal(kt_run(OA_KOP_SOFTMAX, &p, 1, ins, 0, 1, outs, 1 + a % 2), OA_OK);
                kt_expect_close(&y, ref, 1e-6, 1e-5, kt_fmt("softmax shape %zu axis %d log %d", s, ax, lg));
                free(ref);
                kt_free(&x);
                kt_free(&y);
                if (s == 3 && ax >= 0) {
                    break;
                }
            }
            if (s == 3 && ax >= 0) {
                break;
            }
        }
    }
}

/* ---- Pooling ---- */

typedef struct pool_case {
    int64_t n, c, h, w;
    oa_kpool_params p;
} pool_case;

static void pool_out(const pool_case *pc, int64_t *oh, int64_t *ow, int64_t pads[4])
{
    const oa_kpool_params *p = &pc->p;
    memcpy(pads, p->pads, sizeof(int64_t) * 4);
    if (p->global) {
        *oh = *ow = 1;
        memset(pads, 0, sizeof(int64_t) * 4);
        return;
    }
    int64_t in[2] = {pc->h, pc->w}, out[2];
    for (int d = 0; d < 2; d++) {
        int64_t k = p->ksize[d], s = p->strides[d];
        if (p->padding_mode == OA_KPAD_SAME || p->padding_mode == OA_KPAD_SAME_LOWER) {
            out[d] = (in[d] + s - 1) / s;
            int64_t t = (out[d] - 1) * s + k - in[d];
            t = t < 0 ? 0 : t;
            /* ONNX auto_pad: SAME_UPPER puts the odd cell at the end, SAME_LOWER at the beginning */
            pads[2 * d] = p->padding_mode == OA_KPAD_SAME_LOWER ? t - t / 2 : t / 2;
            pads[2 * d + 1] = t - pads[2 * d];
        } else {
            if (p->padding_mode == OA_KPAD_VALID) {
                pads[2 * d] = pads[2 * d + 1] = 0;
            }
            double v = (double)(in[d] + pads[2 * d] + pads[2 * d + 1] - k) / (double)s;
            out[d] = (int64_t)(p->ceil_mode && p->padding_mode == OA_KPAD_CALCULATED ? ceil(v) : floor(v)) + 1;
            if (p->ceil_mode && p->padding_mode == OA_KPAD_CALCULATED && (out[d] - 1) * s >= in[d] + pads[2 * d]) {
                out[d]--;
            }
        }
    }
    *oh = out[0];
    *ow = out[1];
}

static void run_pool(const pool_case *pc, oa_klayout layout, int thr, int id)
{
    int64_t oh, ow, pads[4];
    pool_out(pc, &oh, &ow, pads);
    const oa_kpool_params *p = &pc->p;
    int64_t kh = p->global ? pc->h : p->ksize[0], kw = p->global ? pc->w : p->ksize[1];
    int64_t sh = p->global ? 1 : p->strides[0], sw = p->global ? 1 : p->strides[1];
    kt_buf x = kt_alloc(KT_D(OA_KDT_F32, pc->n, pc->c, pc->h, pc->w));
    kt_fill(&x, 20 + (uint64_t)id, -5, 5);
    double *ref = malloc(sizeof(double) * (size_t)(pc->n * pc->c * oh * ow));
    for (int64_t nc = 0; nc < pc->n * pc->c; nc++) {
        for (int64_t y = 0; y < oh; y++) {
            for (int64_t z = 0; z < ow; z++) {
                double acc = p->kind == OA_KPOOL_MAX ? -INFINITY : 0;
                int64_t cnt = 0, cnt_pad = 0;
                for (int64_t i = 0; i < kh; i++) {
                    for (int64_t j = 0; j < kw; j++) {
                        int64_t ih = y * sh - pads[0] + i, iw = z * sw - pads[2] + j;
                        bool in_padded = ih < pc->h + pads[1] && iw < pc->w + pads[3];
                        cnt_pad += in_padded;
                        if (ih < 0 || iw < 0 || ih >= pc->h || iw >= pc->w) {
                            continue;
                        }
                        double v = kt_get(&x, (nc * pc->h + ih) * pc->w + iw);
                        acc = p->kind == OA_KPOOL_MAX ? fmax(acc, v) : acc + v;
                        cnt++;
                    }
                }
                if (p->kind == OA_KPOOL_AVG) {
                    acc /= (double)(p->divisor_override ? p->divisor_override : (p->exclusive ? cnt : cnt_pad));
                }
                ref[(nc * oh + y) * ow + z] = acc;
            }
        }
    }
    bool blk = layout == OA_KLAYOUT_NCHWC;
    kt_buf xi = blk ? kt_blocked_from_plain(&x) : x;
    oa_ktensor yd = KT_D(OA_KDT_F32, pc->n, pc->c, oh, ow);
    yd.layout = layout;
    kt_buf y = kt_alloc(yd);
    kt_buf *ins[1] = {&xi}, *outs[1] = {&y};
    const char *label = kt_fmt("pool case %d %s thr%d", id, blk ? "NCHWc" : "NCHW", thr);
    oa_status st = kt_run(OA_KOP_POOL, p, 1, ins, 0, 1, outs, thr);
    if (st != OA_OK) {
        fail_msg("%s: status %d", label, (int)st);
    }
    kt_buf yp = blk ? kt_plain_from_blocked(&y) : y;
    kt_expect_close(&yp, ref, 1e-5, 1e-5, label);
    if (!blk && !p->global) {
        /* the general path (taken for f64, and for a 5-D x with D = 1) against the same reference */
        for (int v = 0; v < 2; v++) {
            oa_ktensor gd = v == 0 ? KT_D(OA_KDT_F64, pc->n, pc->c, pc->h, pc->w)
                                   : KT_D(OA_KDT_F32, pc->n, pc->c, 1, pc->h, pc->w);
            oa_ktensor god = v == 0 ? KT_D(OA_KDT_F64, pc->n, pc->c, oh, ow) : KT_D(OA_KDT_F32, pc->n, pc->c, 1, oh, ow);
            kt_buf gx = kt_alloc(gd), gy = kt_alloc(god);
            for (int64_t i = 0; i < pc->n * pc->c * pc->h * pc->w; i++) {
                kt_set(&gx, i, kt_get(&x, i));
            }
            kt_buf *gins[1] = {&gx}, *gouts[1] = {&gy};
            const char *glabel = kt_fmt("pool case %d general %s", id, v == 0 ? "f64" : "5-D");
            if ((st = kt_run(OA_KOP_POOL, p, 1, gins, 0, 1, gouts, thr)) != OA_OK) {
                fail_msg("%s: status %d", glabel, (int)st);
            }
            kt_expect_close(&gy, ref, 1e-5, 1e-5, glabel);
            kt_free(&gx);
            kt_free(&gy);
        }
    }
    if (blk) {
        kt_free(&xi);
        kt_free(&yp);
    }
    kt_free(&x);
    kt_free(&y);
    free(ref);
}

static void test_pool(void **state)
{
    (void)state;
#define P(...) ((oa_kpool_params){__VA_ARGS__})
    pool_case cases[] = {
        {1, 8, 13, 13, P(.kind = OA_KPOOL_MAX, .ksize = {3, 3}, .strides = {2, 2}, .pads = {1, 1, 1, 1})},
        {2, 5, 12, 9, P(.kind = OA_KPOOL_MAX, .ksize = {2, 2}, .strides = {2, 2}, .ceil_mode = true)},
        {1, 3, 7, 7, P(.kind = OA_KPOOL_MAX, .ksize = {3, 3}, .strides = {2, 2}, .pads = {1, 1, 1, 1}, .ceil_mode = true)},
        {1, 6, 10, 11, P(.kind = OA_KPOOL_AVG, .ksize = {3, 3}, .strides = {1, 1}, .pads = {1, 1, 1, 1}, .exclusive = true)},
        {1, 6, 10, 11, P(.kind = OA_KPOOL_AVG, .ksize = {3, 3}, .strides = {1, 1}, .pads = {1, 1, 1, 1}, .exclusive = false)},
        {1, 4, 9, 9, P(.kind = OA_KPOOL_AVG, .ksize = {2, 2}, .strides = {2, 2}, .pads = {0, 1, 0, 1}, .ceil_mode = true)},
        {1, 4, 9, 9, P(.kind = OA_KPOOL_AVG, .ksize = {3, 2}, .strides = {2, 2}, .pads = {1, 1, 0, 0}, .ceil_mode = true,
                      .exclusive = false)},
        {1, 9, 8, 25, P(.kind = OA_KPOOL_AVG, .ksize = {2, 2}, .strides = {2, 2})}, /* PP-OCR rec avgpool */
        {2, 13, 7, 9, P(.kind = OA_KPOOL_AVG, .global = true)},
        {1, 40, 24, 24, P(.kind = OA_KPOOL_AVG, .global = true)},
        {1, 13, 5, 6, P(.kind = OA_KPOOL_MAX, .global = true)},
        {1, 3, 11, 10, P(.kind = OA_KPOOL_MAX, .ksize = {3, 3}, .strides = {2, 2}, .padding_mode = OA_KPAD_SAME)},
        {1, 3, 11, 10, P(.kind = OA_KPOOL_AVG, .ksize = {3, 3}, .strides = {2, 2}, .padding_mode = OA_KPAD_SAME,
                        .exclusive = true)},
        {1, 3, 11, 10, P(.kind = OA_KPOOL_MAX, .ksize = {2, 2}, .strides = {1, 1}, .padding_mode = OA_KPAD_SAME_LOWER)},
        {1, 3, 11, 10, P(.kind = OA_KPOOL_AVG, .ksize = {3, 2}, .strides = {2, 2}, .padding_mode = OA_KPAD_SAME_LOWER,
                        .exclusive = true)},
        {1, 3, 8, 9, P(.kind = OA_KPOOL_AVG, .ksize = {2, 3}, .strides = {1, 2}, .padding_mode = OA_KPAD_SAME_LOWER,
                      .exclusive = false)},
        {1, 3, 11, 10, P(.kind = OA_KPOOL_MAX, .ksize = {3, 2}, .strides = {2, 1}, .padding_mode = OA_KPAD_VALID,
                        .pads = {1, 1, 1, 1})},
        {1, 4, 6, 6, P(.kind = OA_KPOOL_AVG, .ksize = {3, 3}, .strides = {3, 3}, .divisor_override = 4)},
        {1, 2, 1, 30, P(.kind = OA_KPOOL_MAX, .ksize = {1, 3}, .strides = {1, 2}, .pads = {0, 0, 1, 1})}, /* 1-D */
        {1, 20, 9, 9, P(.kind = OA_KPOOL_MAX, .ksize = {5, 5}, .strides = {1, 1}, .pads = {2, 2, 2, 2})}, /* SPPF */
        {1, 3, 2, 600, P(.kind = OA_KPOOL_MAX, .ksize = {2, 3}, .strides = {1, 1}, .pads = {0, 0, 1, 1})}, /* wide rows */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        for (int layout = 0; layout < 2; layout++) {
            run_pool(&cases[i], (oa_klayout)layout, 1 + (int)((i + (size_t)layout) % 2), (int)i);
        }
    }
    oa_ktensor x = KT_D(OA_KDT_F32, 1, 1, 2, 2), y;
    oa_kpool_params bad = P(.kind = OA_KPOOL_MAX, .ksize = {3, 3}, .strides = {1, 1});
    kt_expect_fail(oa_kernel_infer(OA_KOP_POOL, &bad, 1, &x, 1, &y), OA_E_PARAM, "window larger than input");
    bad.strides[0] = 0;
    kt_expect_fail(oa_kernel_infer(OA_KOP_POOL, &bad, 1, &x, 1, &y), OA_E_PARAM, "zero stride");
}

/*
 * The general path's own features on a 4x4 plane x[i] = a permutation of
 * 0..15 (u8): a dilated 2x2 max (taps 2 apart) with argmax row-major and
 * column-major (ONNX storage_order), worked out by hand; refusals.
 */
static void test_pool_general(void **state)
{
    (void)state;
    static const uint8_t X[16] = {3, 14, 1, 9, 12, 0, 15, 6, 7, 10, 2, 13, 4, 11, 8, 5};
    kt_buf x = kt_alloc(KT_D(OA_KDT_U8, 1, 1, 4, 4));
    for (int i = 0; i < 16; i++) {
        kt_set(&x, i, X[i]);
    }
    /* dilation 2, kernel 2, stride 1, no pads: out 2x2; window (r, c) reads rows r, r+2 and cols c, c+2 */
    double want[4], want_idx[4], want_col[4];
    for (int r = 0; r < 2; r++) {
        for (int c = 0; c < 2; c++) {
            int best = -1;
            for (int dr = 0; dr < 4; dr += 2) {
                for (int dc = 0; dc < 4; dc += 2) {
                    int i = (r + dr) * 4 + c + dc;
                    if (best < 0 || X[i] > X[best]) {
                        best = i;
                    }
                }
            }
            want[r * 2 + c] = X[best];
            want_idx[r * 2 + c] = best;
            want_col[r * 2 + c] = (best / 4) + (best % 4) * 4;
        }
    }
    oa_kpool_params p = P(.kind = OA_KPOOL_MAX, .ksize = {2, 2}, .strides = {1, 1}, .dilations = {1, 2, 2});
    for (int col = 0; col < 2; col++) {
        p.argmax_col_major = col == 1;
        kt_buf y = kt_alloc(KT_D(OA_KDT_U8, 1, 1, 2, 2)), idx = kt_alloc(KT_D(OA_KDT_I64, 1, 1, 2, 2));
        kt_buf *ins[1] = {&x}, *outs[2] = {&y, &idx};
        assert_int_equal(kt_run(OA_KOP_POOL, &p, 1, ins, 0, 2, outs, 1), OA_OK);
        kt_expect_equal(&y, want, "dilated u8 max");
        kt_expect_equal(&idx, col ? want_col : want_idx, col ? "argmax column-major" : "argmax row-major");
        kt_free(&y);
        kt_free(&idx);
    }
    oa_ktensor yd[2];
    oa_kpool_params avg = P(.kind = OA_KPOOL_AVG, .ksize = {2, 2}, .strides = {1, 1});
    kt_expect_fail(oa_kernel_infer(OA_KOP_POOL, &avg, 1, &x.d, 1, yd), OA_E_UNSUPPORTED_DATA_TYPE, "u8 average");
    oa_ktensor xf = KT_D(OA_KDT_F32, 1, 1, 4, 4);
    kt_expect_fail(oa_kernel_infer(OA_KOP_POOL, &avg, 1, &xf, 2, yd), OA_E_PARAM, "argmax of an average");
    oa_ktensor x6 = KT_D(OA_KDT_F32, 1, 1, 1, 1, 4, 4);
    kt_expect_fail(oa_kernel_infer(OA_KOP_POOL, &p, 1, &x6, 1, yd), OA_E_PARAM, "rank 6");
    kt_free(&x);
}

/* ---- Reductions ---- */

static void run_reduce(oa_kreduce_op op, oa_kdtype dt, oa_ktensor xd, int n_axes, const int64_t *axes, bool keep,
                       bool noop, bool axes_input, int thr)
{
    xd.dtype = dt;
    kt_buf x = kt_alloc(xd);
    kt_fill(&x, 30 + (uint64_t)op, dt == OA_KDT_F32 ? (op == OA_KRED_PROD ? 0.5 : -5) : -5,
            dt == OA_KDT_F32 ? (op == OA_KRED_PROD ? 1.5 : 5) : 5);
    bool mask[8] = {false};
    for (int i = 0; i < n_axes; i++) {
        mask[axes[i] < 0 ? axes[i] + xd.rank : axes[i]] = true;
    }
    bool identity = n_axes == 0 && noop;
    if (n_axes == 0 && !noop) {
        for (int i = 0; i < xd.rank; i++) {
            mask[i] = true;
        }
    }
    oa_ktensor yd;
    memset(&yd, 0, sizeof yd);
    yd.dtype = dt;
    for (int i = 0; i < xd.rank; i++) {
        if (identity || !mask[i]) {
            yd.dims[yd.rank++] = xd.dims[i];
        } else if (keep) {
            yd.dims[yd.rank++] = 1;
        }
    }
    int64_t ny = oa_ktensor_numel(&yd), nx = oa_ktensor_numel(&xd);
    double *acc = malloc(sizeof(double) * (size_t)(ny ? ny : 1));
    int64_t *cnt = calloc((size_t)(ny ? ny : 1), sizeof(int64_t));
    for (int64_t i = 0; i < ny; i++) {
        acc[i] = op == OA_KRED_PROD ? 1 : (op == OA_KRED_MAX ? -INFINITY : (op == OA_KRED_MIN ? INFINITY : 0));
    }
    for (int64_t i = 0; i < nx; i++) {
        int64_t idx[8], r = i, o = 0;
        for (int d = xd.rank - 1; d >= 0; d--) {
            idx[d] = r % xd.dims[d];
            r /= xd.dims[d];
        }
        for (int d = 0; d < xd.rank; d++) {
            if (identity || !mask[d]) {
                o = o * xd.dims[d] + idx[d];
            }
        }
        double v = kt_get(&x, i);
        switch (op) {
        case OA_KRED_MAX: acc[o] = fmax(acc[o], v); break;
        case OA_KRED_MIN: acc[o] = fmin(acc[o], v); break;
        case OA_KRED_PROD: acc[o] *= v; break;
        case OA_KRED_L2: case OA_KRED_SUMSQ: acc[o] += v * v; break;
        default: acc[o] += v; break;
        }
        cnt[o]++;
    }
    for (int64_t i = 0; i < ny; i++) {
        if (identity) { /* noop_with_empty_axes: the input unchanged */
            acc[i] = kt_get(&x, i);
        } else if (op == OA_KRED_MEAN) {
            acc[i] = dt == OA_KDT_F32 ? acc[i] / (double)cnt[i] : trunc(acc[i] / (double)cnt[i]);
        } else if (op == OA_KRED_L2) {
            acc[i] = sqrt(acc[i]);
        }
    }
    oa_kreduce_params p = {.op = op, .keep_dims = keep, .noop_with_empty_axes = noop};
    kt_buf axb = kt_host_i64(n_axes, axes);
    if (!axes_input) {
        p.n_axes = n_axes;
        if (n_axes > 0) {
            memcpy(p.axes, axes, sizeof(int64_t) * (size_t)n_axes);
        }
    }
    kt_buf y = kt_alloc(yd);
    kt_buf *ins[2] = {&x, &axb}, *outs[1] = {&y};
    char s1[64];
    const char *label = kt_fmt("reduce op %d %s %s naxes %d keep %d noop %d", (int)op, oa_kdtype_name(dt),
                               kt_dims_str(&xd, s1, 64), n_axes, keep, noop);
    oa_status st = kt_run(OA_KOP_REDUCE, &p, axes_input ? 2 : 1, ins, 0x2, 1, outs, thr);
    if (st != OA_OK) {
        fail_msg("%s: status %d", label, (int)st);
    }
    if (dt == OA_KDT_F32) {
        kt_expect_close(&y, acc, 1e-5, 1e-5, label);
    } else {
        kt_expect_equal(&y, acc, label);
    }
    free(acc);
    free(cnt);
    kt_free(&x);
    kt_free(&axb);
    kt_free(&y);
}

static void test_reduce(void **state)
{
    (void)state;
    oa_ktensor x4 = KT_D(OA_KDT_F32, 2, 3, 4, 5);
    struct {
        int n;
        int64_t a[4];
    } axsets[] = {{1, {3}}, {1, {-1}}, {1, {1}}, {2, {0, 2}}, {2, {2, 3}}, {3, {0, 1, 3}}, {4, {0, 1, 2, 3}}, {1, {0}}};
    for (int op = 0; op < OA_KRED_COUNT; op++) {
        for (size_t s = 0; s < sizeof(axsets) / sizeof(axsets[0]); s++) {
            run_reduce((oa_kreduce_op)op, OA_KDT_F32, x4, axsets[s].n, axsets[s].a, s % 2 == 0, false, s % 3 == 0,
                       1 + (int)(s % 2));
        }
        run_reduce((oa_kreduce_op)op, OA_KDT_F32, x4, 0, NULL, true, false, false, 1); /* empty axes: reduce all */
        run_reduce((oa_kreduce_op)op, OA_KDT_F32, x4, 0, NULL, false, true, true, 1);  /* empty axes: identity */
    }
    run_reduce(OA_KRED_MEAN, OA_KDT_F32, KT_D(OA_KDT_F32, 4, 128, 768), 1, (int64_t[]){-1}, true, false, false, 2);
    run_reduce(OA_KRED_SUM, OA_KDT_F32, KT_D(OA_KDT_F32, 3, 0, 4), 1, (int64_t[]){1}, false, false, false, 1);
    run_reduce(OA_KRED_MEAN, OA_KDT_F32, KT_D(OA_KDT_F32, 1, 64, 1, 80), 2, (int64_t[]){2, 3}, true, false, false, 2);
    oa_kreduce_op int_ops[] = {OA_KRED_SUM, OA_KRED_MEAN, OA_KRED_MAX, OA_KRED_MIN, OA_KRED_PROD};
    for (int k = 0; k < 5; k++) {
        run_reduce(int_ops[k], OA_KDT_I32, x4, 2, (int64_t[]){1, 3}, false, false, false, 1);
        run_reduce(int_ops[k], OA_KDT_I64, x4, 1, (int64_t[]){0}, true, false, true, 2);
    }
    oa_kreduce_params p = {.op = OA_KRED_SUM, .n_axes = 1, .axes = {4}};
    oa_ktensor y;
    kt_expect_fail(oa_kernel_infer(OA_KOP_REDUCE, &p, 1, &x4, 1, &y), OA_E_PARAM, "axis out of range");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_batchnorm), cmocka_unit_test(test_layernorm), cmocka_unit_test(test_softmax),
        cmocka_unit_test(test_pool),      cmocka_unit_test(test_reduce), cmocka_unit_test(test_pool_general),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

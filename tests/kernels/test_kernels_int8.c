/*
 * The int8 family (kernels.h "int8", docs/int8.md "Kernels"): QUANTIZE,
 * DEQUANTIZE and ADD against the QDQ formulas evaluated here element by
 * element (bit for bit), CONV against an exact integer convolution in the
 * test (within one quantization step: oneDNN scales the int32 accumulator
 * in f32, the formula below in double), bad parameters, and which oneDNN
 * kernel ran: the VNNI one on a CPU with AVX512-VNNI unless
 * ONEDNN_MAX_CPU_ISA caps oneDNN below it (ctest runs the suite capped to
 * AVX512_CORE and AVX2 too), and every conv again on two threads (bands of
 * output rows when split; ctest forces the split with OA_KERNELS_SPLIT_FLOPS=0)
 * with the same bytes as one.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kt_harness.h"

static double qlo(oa_kdtype dt)
{
    return dt == OA_KDT_U8 ? 0.0 : -128.0;
}

static double qhi(oa_kdtype dt)
{
    return dt == OA_KDT_U8 ? 255.0 : 127.0;
}

/* QuantizeLinear: saturate(round_half_even(f32(x / s)) + zp) */
static double q_ref(float v, float s, int zp, oa_kdtype dt)
{
    const float d = v / s;
    double r = nearbyint((double)d) + zp;
    return r < qlo(dt) ? qlo(dt) : (r > qhi(dt) ? qhi(dt) : r);
}

static void test_quantize_dequantize(void **state)
{
    (void)state;
    const oa_kdtype dts[2] = {OA_KDT_U8, OA_KDT_I8};
    for (int k = 0; k < 2; k++) {
        const oa_kdtype dt = dts[k];
        oa_kquant_params p = {.op = OA_KQ_QUANTIZE, .y_scale = 0.037f, .y_zp = dt == OA_KDT_U8 ? 121 : -7};
        kt_buf x = kt_alloc(KT_D(OA_KDT_F32, 2, 5, 3, 4)), y = kt_alloc(KT_D(dt, 2, 3, 4, 5));
        kt_fill(&x, 11 + (uint64_t)k, -6.0, 6.0);
        /* exact ties of x / s: round half to even */
        ((float *)x.data)[0] = 0.5f * p.y_scale;
        ((float *)x.data)[1] = 1.5f * p.y_scale;
        ((float *)x.data)[2] = NAN;
        kt_buf *in[1] = {&x}, *out[1] = {&y};
        assert_int_equal(kt_run(OA_KOP_QUANT, &p, 1, in, 0, 1, out, 1), OA_OK);
        double *ref = malloc(sizeof(double) * 120);
        for (int64_t n = 0; n < 2; n++) {
            for (int64_t c = 0; c < 5; c++) {
                for (int64_t i = 0; i < 12; i++) {
                    const float v = ((const float *)x.data)[(n * 5 + c) * 12 + i];
                    ref[(n * 12 + i) * 5 + c] = isnan(v) ? qlo(dt) : q_ref(v, p.y_scale, p.y_zp, dt);
                }
            }
        }
        kt_expect_equal(&y, ref, kt_fmt("quantize %s", oa_kdtype_name(dt)));
        /* and back: (q - zp) * s, NHWC -> NCHW */
        oa_kquant_params d = {.op = OA_KQ_DEQUANTIZE, .x_scale = 0.037f, .x_zp = p.y_zp};
        kt_buf z = kt_alloc(KT_D(OA_KDT_F32, 2, 5, 3, 4));
        kt_buf *in2[1] = {&y}, *out2[1] = {&z};
        assert_int_equal(kt_run(OA_KOP_QUANT, &d, 1, in2, 0, 1, out2, 1), OA_OK);
        for (int64_t n = 0; n < 2; n++) {
            for (int64_t c = 0; c < 5; c++) {
                for (int64_t i = 0; i < 12; i++) {
                    const float q = (float)kt_get(&y, (n * 12 + i) * 5 + c);
                    ref[(n * 5 + c) * 12 + i] = (double)((q - (float)d.x_zp) * d.x_scale);
                }
            }
        }
        kt_expect_equal(&z, ref, kt_fmt("dequantize %s", oa_kdtype_name(dt)));
        free(ref);
        kt_free(&x);
        kt_free(&y);
        kt_free(&z);
    }
}

static void test_add(void **state)
{
    (void)state;
    /* u8 -> u8 with relu, s8 -> s8, u8 -> s8; sizes not a multiple of any vector width */
    const struct {
        oa_kdtype in, out;
        bool relu;
        int64_t c;
    } cases[3] = {{OA_KDT_U8, OA_KDT_U8, true, 37}, {OA_KDT_I8, OA_KDT_I8, false, 16}, {OA_KDT_U8, OA_KDT_I8, false, 3}};
    for (int k = 0; k < 3; k++) {
        const oa_kdtype it = cases[k].in, ot = cases[k].out;
        oa_kquant_params p = {.op = OA_KQ_ADD, .x_scale = 0.02f, .x_zp = it == OA_KDT_U8 ? 100 : 3,
                              .b_scale = 0.05f, .b_zp = it == OA_KDT_U8 ? 20 : -5, .y_scale = 0.045f,
                              .y_zp = ot == OA_KDT_U8 ? 60 : 1, .relu = cases[k].relu};
        kt_buf a = kt_alloc(KT_D(it, 1, 5, 7, cases[k].c)), b = kt_alloc(KT_D(it, 1, 5, 7, cases[k].c));
        kt_buf y = kt_alloc(KT_D(ot, 1, 5, 7, cases[k].c));
        kt_fill(&a, 3 + (uint64_t)k, qlo(it), qhi(it));
        kt_fill(&b, 5 + (uint64_t)k, qlo(it), qhi(it));
        kt_buf *in[2] = {&a, &b}, *out[1] = {&y};
        assert_int_equal(kt_run(OA_KOP_QUANT, &p, 2, in, 0, 1, out, 1), OA_OK);
        const int64_t n = 35 * cases[k].c;
        double *ref = malloc(sizeof(double) * (size_t)n);
        for (int64_t i = 0; i < n; i++) {
            /* DequantizeLinear twice, Add, Relu, QuantizeLinear, each in f32 */
            const float da = ((float)kt_get(&a, i) - (float)p.x_zp) * p.x_scale;
            const float db = ((float)kt_get(&b, i) - (float)p.b_zp) * p.b_scale;
            float v = da + db;
            v = p.relu && v < 0.0f ? 0.0f : v;
            ref[i] = q_ref(v, p.y_scale, p.y_zp, ot);
        }
        kt_expect_equal(&y, ref, kt_fmt("add case %d", k));
        free(ref);
        kt_free(&a);
        kt_free(&b);
        kt_free(&y);
    }
}

static void test_pools(void **state)
{
    (void)state;
    const oa_kdtype dts[2] = {OA_KDT_U8, OA_KDT_I8};
    for (int k = 0; k < 2; k++) {
        const oa_kdtype dt = dts[k];
        /* 3x3 stride 2 pad 1 (ResNet's stem) over 9x8 with 19 channels */
        oa_kquant_params p = {.op = OA_KQ_MAXPOOL, .ksize = {3, 3}, .strides = {2, 2}, .pads = {1, 1, 1, 1}};
        kt_buf x = kt_alloc(KT_D(dt, 2, 9, 8, 19)), y = kt_alloc(KT_D(dt, 2, 5, 4, 19));
        kt_fill(&x, 21 + (uint64_t)k, qlo(dt), qhi(dt));
        kt_buf *in[1] = {&x}, *out[1] = {&y};
        assert_int_equal(kt_run(OA_KOP_QUANT, &p, 1, in, 0, 1, out, 1), OA_OK);
        double ref[2 * 5 * 4 * 19];
        for (int64_t n = 0; n < 2; n++) {
            for (int64_t i = 0; i < 5; i++) {
                for (int64_t j = 0; j < 4; j++) {
                    for (int64_t c = 0; c < 19; c++) {
                        double m = -1e9;
                        for (int64_t a = 0; a < 3; a++) {
                            for (int64_t b = 0; b < 3; b++) {
                                const int64_t h = 2 * i - 1 + a, w = 2 * j - 1 + b;
                                if (h >= 0 && h < 9 && w >= 0 && w < 8) {
                                    m = fmax(m, kt_get(&x, ((n * 9 + h) * 8 + w) * 19 + c));
                                }
                            }
                        }
                        ref[((n * 5 + i) * 4 + j) * 19 + c] = m;
                    }
                }
            }
        }
        kt_expect_equal(&y, ref, kt_fmt("max pool %s", oa_kdtype_name(dt)));
        /* global average: the exact mean of the dequantized values, requantized */
        oa_kquant_params g = {.op = OA_KQ_GAP, .x_scale = 0.07f, .x_zp = dt == OA_KDT_U8 ? 30 : -4,
                              .y_scale = 0.02f, .y_zp = dt == OA_KDT_U8 ? 10 : 2};
        kt_buf z = kt_alloc(KT_D(dt, 2, 1, 1, 19));
        kt_buf *gout[1] = {&z};
        assert_int_equal(kt_run(OA_KOP_QUANT, &g, 1, in, 0, 1, gout, 1), OA_OK);
        double gref[2 * 19];
        for (int64_t n = 0; n < 2; n++) {
            for (int64_t c = 0; c < 19; c++) {
                double s = 0;
                for (int64_t i = 0; i < 72; i++) {
                    s += (kt_get(&x, (n * 72 + i) * 19 + c) - g.x_zp) * (double)g.x_scale;
                }
                double r = nearbyint(s / 72 / (double)g.y_scale) + g.y_zp;
                gref[n * 19 + c] = r < qlo(dt) ? qlo(dt) : (r > qhi(dt) ? qhi(dt) : r);
            }
        }
        kt_expect_close(&z, gref, 1.0, 0.0, kt_fmt("global average pool %s", oa_kdtype_name(dt)));
        kt_free(&x);
        kt_free(&y);
        kt_free(&z);
    }
    /* a window that would start and end in padding */
    kt_buf x = kt_alloc(KT_D(OA_KDT_U8, 1, 4, 4, 2)), y = kt_alloc(KT_D(OA_KDT_U8, 1, 4, 4, 2));
    kt_buf *in[1] = {&x}, *out[1] = {&y};
    oa_kquant_params p = {.op = OA_KQ_MAXPOOL, .ksize = {2, 2}, .strides = {1, 1}, .pads = {2, 0, 0, 0}};
    kt_expect_fail(kt_run(OA_KOP_QUANT, &p, 1, in, 0, 1, out, 1), OA_E_PARAM, "pad as large as the window");
    kt_free(&x);
    kt_free(&y);
}

/* y1 (one thread) and y2 (two) hold the same bytes */
static void expect_same_bytes(const kt_buf *y1, const kt_buf *y2, const char *what)
{
    if (y1->bytes != y2->bytes || memcmp(y1->data, y2->data, y1->bytes) != 0) {
        fail_msg("%s: two threads differ from one", what);
    }
}

/*
 * QUANTIZE, DEQUANTIZE, ADD and MAXPOOL split their pixels or rows over the pool: shapes of several
 * grains (16384 elements), two images so that a chunk may end inside one. Two threads give the bytes
 * of one, and one thread the QDQ formulas (QUANTIZE and ADD here; the small shapes above cover the rest).
 */
static void test_split_sub_ops(void **state)
{
    (void)state;
    oa_kquant_params q = {.op = OA_KQ_QUANTIZE, .y_scale = 0.041f, .y_zp = 117};
    kt_buf x = kt_alloc(KT_D(OA_KDT_F32, 2, 3, 100, 121)), y1 = kt_alloc(KT_D(OA_KDT_U8, 2, 100, 121, 3));
    kt_buf y2 = kt_alloc(y1.d);
    kt_fill(&x, 41, -6.0, 6.0);
    kt_buf *in[2] = {&x, NULL}, *out1[1] = {&y1}, *out2[1] = {&y2};
    assert_int_equal(kt_run(OA_KOP_QUANT, &q, 1, in, 0, 1, out1, 1), OA_OK);
    assert_int_equal(kt_run(OA_KOP_QUANT, &q, 1, in, 0, 1, out2, 2), OA_OK);
    expect_same_bytes(&y1, &y2, "quantize");
    const int64_t hw = 100 * 121;
    double *ref = malloc(sizeof(double) * (size_t)(2 * 3 * hw));
    assert_non_null(ref);
    for (int64_t n = 0; n < 2; n++) {
        for (int64_t c = 0; c < 3; c++) {
            for (int64_t i = 0; i < hw; i++) {
                ref[(n * hw + i) * 3 + c] = q_ref(((const float *)x.data)[(n * 3 + c) * hw + i], q.y_scale, q.y_zp,
                                                  OA_KDT_U8);
            }
        }
    }
    kt_expect_equal(&y1, ref, "quantize, split shape");
    free(ref);

    oa_kquant_params d = {.op = OA_KQ_DEQUANTIZE, .x_scale = 0.041f, .x_zp = 117};
    kt_buf z1 = kt_alloc(x.d), z2 = kt_alloc(x.d);
    kt_buf *din[1] = {&y1}, *dout1[1] = {&z1}, *dout2[1] = {&z2};
    assert_int_equal(kt_run(OA_KOP_QUANT, &d, 1, din, 0, 1, dout1, 1), OA_OK);
    assert_int_equal(kt_run(OA_KOP_QUANT, &d, 1, din, 0, 1, dout2, 2), OA_OK);
    expect_same_bytes(&z1, &z2, "dequantize");

    oa_kquant_params a = {.op = OA_KQ_ADD, .x_scale = 0.02f, .x_zp = 100, .b_scale = 0.05f, .b_zp = 20,
                          .y_scale = 0.045f, .y_zp = 60, .relu = true};
    kt_buf aa = kt_alloc(KT_D(OA_KDT_U8, 2, 20, 41, 37)), ab = kt_alloc(aa.d);
    kt_buf s1 = kt_alloc(aa.d), s2 = kt_alloc(aa.d);
    kt_fill(&aa, 43, 0.0, 255.0);
    kt_fill(&ab, 47, 0.0, 255.0);
    kt_buf *ain[2] = {&aa, &ab}, *aout1[1] = {&s1}, *aout2[1] = {&s2};
    assert_int_equal(kt_run(OA_KOP_QUANT, &a, 2, ain, 0, 1, aout1, 1), OA_OK);
    assert_int_equal(kt_run(OA_KOP_QUANT, &a, 2, ain, 0, 1, aout2, 2), OA_OK);
    expect_same_bytes(&s1, &s2, "add");
    const int64_t na = 2 * 20 * 41 * 37;
    ref = malloc(sizeof(double) * (size_t)na);
    assert_non_null(ref);
    for (int64_t i = 0; i < na; i++) {
        const float da = ((float)kt_get(&aa, i) - (float)a.x_zp) * a.x_scale;
        const float db = ((float)kt_get(&ab, i) - (float)a.b_zp) * a.b_scale;
        const float v = da + db;
        ref[i] = q_ref(v < 0.0f ? 0.0f : v, a.y_scale, a.y_zp, OA_KDT_U8);
    }
    kt_expect_equal(&s1, ref, "add, split shape");
    free(ref);

    oa_kquant_params m = {.op = OA_KQ_MAXPOOL, .ksize = {3, 3}, .strides = {2, 2}, .pads = {1, 1, 1, 1}};
    kt_buf mx = kt_alloc(KT_D(OA_KDT_I8, 2, 60, 80, 19)), m1 = kt_alloc(KT_D(OA_KDT_I8, 2, 30, 40, 19));
    kt_buf m2 = kt_alloc(m1.d);
    kt_fill(&mx, 53, -128.0, 127.0);
    kt_buf *min[1] = {&mx}, *mout1[1] = {&m1}, *mout2[1] = {&m2};
    assert_int_equal(kt_run(OA_KOP_QUANT, &m, 1, min, 0, 1, mout1, 1), OA_OK);
    assert_int_equal(kt_run(OA_KOP_QUANT, &m, 1, min, 0, 1, mout2, 2), OA_OK);
    expect_same_bytes(&m1, &m2, "max pool");
    kt_free(&x), kt_free(&y1), kt_free(&y2), kt_free(&z1), kt_free(&z2);
    kt_free(&aa), kt_free(&ab), kt_free(&s1), kt_free(&s2), kt_free(&mx), kt_free(&m1), kt_free(&m2);
}

typedef struct conv_case {
    int64_t n, h, w, c, o, k, stride, pad, groups;
    oa_kdtype xt, yt;
    int32_t xzp, yzp;
    bool relu, bias, per_channel;
} conv_case;

static void run_conv_case(const conv_case *cc, int idx)
{
    const int64_t cg = cc->c / cc->groups, og = cc->o / cc->groups;
    const int64_t oh = (cc->h + 2 * cc->pad - cc->k) / cc->stride + 1, ow = (cc->w + 2 * cc->pad - cc->k) / cc->stride + 1;
    oa_kquant_params p = {.op = OA_KQ_CONV, .x_scale = 0.03f, .x_zp = cc->xzp, .y_scale = 0.11f, .y_zp = cc->yzp,
                          .relu = cc->relu, .strides = {cc->stride, cc->stride}, .dilations = {1, 1},
                          .pads = {cc->pad, cc->pad, cc->pad, cc->pad}, .groups = cc->groups};
    kt_buf x = kt_alloc(KT_D(cc->xt, cc->n, cc->h, cc->w, cc->c));
    kt_buf w = kt_alloc(KT_D(OA_KDT_I8, cc->o, cg, cc->k, cc->k));
    kt_buf ws = kt_alloc(KT_D(OA_KDT_F32, cc->per_channel ? cc->o : 1));
    kt_buf b = kt_alloc(KT_D(OA_KDT_F32, cc->o));
    kt_buf y = kt_alloc(KT_D(cc->yt, cc->n, oh, ow, cc->o));
    kt_fill(&x, 100 + (uint64_t)idx, qlo(cc->xt), qhi(cc->xt));
    /* |w| <= 63: no pair of u8 x s8 products saturates the 16-bit sums of
     * the pre-VNNI instructions, so every ISA must give the same results */
    kt_fill(&w, 200 + (uint64_t)idx, -63, 63);
    kt_fill(&ws, 300 + (uint64_t)idx, 0.002, 0.02);
    kt_fill(&b, 400 + (uint64_t)idx, -1.0, 1.0);
    kt_buf *in[4] = {&x, &w, &ws, cc->bias ? &b : NULL}, *out[1] = {&y};
    assert_int_equal(kt_run(OA_KOP_QUANT, &p, 4, in, cc->bias ? 0xE : 0x6, 1, out, 1), OA_OK);
    const int64_t total = cc->n * oh * ow * cc->o;
    int64_t exact = 0;
    for (int64_t n = 0; n < cc->n; n++) {
        for (int64_t i = 0; i < oh; i++) {
            for (int64_t j = 0; j < ow; j++) {
                for (int64_t o = 0; o < cc->o; o++) {
                    const int64_t g = o / og;
                    int64_t acc = 0;
                    for (int64_t ci = 0; ci < cg; ci++) {
                        for (int64_t ki = 0; ki < cc->k; ki++) {
                            for (int64_t kj = 0; kj < cc->k; kj++) {
                                const int64_t hi = i * cc->stride - cc->pad + ki, wj = j * cc->stride - cc->pad + kj;
                                if (hi < 0 || hi >= cc->h || wj < 0 || wj >= cc->w) {
                                    continue; /* padding is the real value 0, i.e. x == zp */
                                }
                                const double xv = kt_get(&x, ((n * cc->h + hi) * cc->w + wj) * cc->c + g * cg + ci);
                                const double wv = kt_get(&w, ((o * cg + ci) * cc->k + ki) * cc->k + kj);
                                acc += (int64_t)((xv - cc->xzp) * wv);
                            }
                        }
                    }
                    const double s = (double)p.x_scale * kt_get(&ws, cc->per_channel ? o : 0);
                    double real = (double)acc * s + (cc->bias ? kt_get(&b, o) : 0.0);
                    real = cc->relu && real < 0 ? 0 : real;
                    double r = nearbyint(real / p.y_scale) + cc->yzp;
                    r = r < qlo(cc->yt) ? qlo(cc->yt) : (r > qhi(cc->yt) ? qhi(cc->yt) : r);
                    const int64_t at = ((n * oh + i) * ow + j) * cc->o + o;
                    const double got = kt_get(&y, at);
                    if (fabs(got - r) > 1.0) {
                        fail_msg("conv case %d: y[%lld] = %g, expected %g (+-1)", idx, (long long)at, got, r);
                    }
                    exact += got == r;
                }
            }
        }
    }
    /* off by one only where the scaled accumulator sits at a rounding tie */
    if (exact * 100 < total * 97) {
        fail_msg("conv case %d: only %lld of %lld outputs exact", idx, (long long)exact, (long long)total);
    }
    /* two threads (the output rows split into bands when the conv is above the split threshold,
     * OA_KERNELS_SPLIT_FLOPS=0 in one ctest run): the same bytes */
    kt_buf y2 = kt_alloc(y.d);
    kt_buf *out2[1] = {&y2};
    assert_int_equal(kt_run(OA_KOP_QUANT, &p, 4, in, cc->bias ? 0xE : 0x6, 1, out2, 2), OA_OK);
    if (memcmp(y.data, y2.data, y.bytes) != 0) {
        fail_msg("conv case %d: two threads differ from one", idx);
    }
    kt_free(&y2);
    kt_free(&x);
    kt_free(&w);
    kt_free(&ws);
    kt_free(&b);
    kt_free(&y);
}

static void test_conv(void **state)
{
    (void)state;
    const conv_case cases[] = {
        /* n  h   w   c   o   k  s  p  g  x          y          xzp  yzp  relu  bias  per-channel */
        {1, 9, 8, 16, 32, 3, 1, 1, 1, OA_KDT_U8, OA_KDT_U8, 0, 0, true, true, true},
        {2, 7, 6, 8, 12, 3, 2, 1, 1, OA_KDT_U8, OA_KDT_U8, 117, 5, false, true, true},
        {1, 6, 6, 8, 8, 3, 1, 1, 4, OA_KDT_U8, OA_KDT_I8, 9, -3, true, false, true},
        {1, 5, 5, 3, 16, 1, 1, 0, 1, OA_KDT_I8, OA_KDT_U8, 0, 128, false, true, false},
        {1, 11, 11, 3, 8, 7, 2, 3, 1, OA_KDT_U8, OA_KDT_U8, 121, 0, true, true, true},
    };
    for (int i = 0; i < (int)(sizeof(cases) / sizeof(cases[0])); i++) {
        run_conv_case(&cases[i], i);
    }
    /* which oneDNN kernel ran (the last case): AMX-INT8 tiles where the CPU has them and the cap
     * (ONEDNN_MAX_CPU_ISA) allows them, else VNNI where allowed, else neither */
    const char *cap = getenv("ONEDNN_MAX_CPU_ISA");
    const bool uncapped = cap == NULL || cap[0] == '\0' || strcmp(cap, "ALL") == 0;
    const bool vnni_cap = uncapped || (cap != NULL && (strcmp(cap, "AVX512_CORE_VNNI") == 0 ||
                                                       strcmp(cap, "AVX512_CORE_BF16") == 0));
    const bool vnni = oa_kernels_cpu()->avx512_vnni && vnni_cap;
    const bool amx = oa_kernels_cpu()->amx_int8 && uncapped;
    const bool vnni_ran = strstr(kt_last_impl, "vnni") != NULL;
    const bool amx_ran = strstr(kt_last_impl, "amx") != NULL;
    printf("  int8 conv ran on %s (ONEDNN_MAX_CPU_ISA %s)\n", kt_last_impl, cap != NULL ? cap : "unset");
    if (amx) {
        assert_true(amx_ran || vnni_ran);
    } else if (vnni) {
        assert_true(vnni_ran);
        assert_false(amx_ran);
    } else {
        printf("  skipped: VNNI kernel check (%s)\n",
               oa_kernels_cpu()->avx512_vnni ? "oneDNN capped by ONEDNN_MAX_CPU_ISA" : "this CPU has no AVX512-VNNI");
        assert_false(vnni_ran || amx_ran);
    }
}

/* An int8 conv or matmul of a stable w (a dynamic model's constant), or of a private one. */
static oa_kop *stable_qop(const oa_kquant_params *p, const kt_buf *x, const kt_buf *w, const kt_buf *ws,
                          const kt_buf *b, const kt_buf *y, bool stable)
{
    oa_ktensor in[4] = {x->d, w->d, ws->d, b->d}, out = y->d;
    in[1].data = w->data;
    in[1].stable = stable;
    in[2].data = ws->data;
    in[3].data = b->data;
    oa_kop *op = NULL;
    assert_int_equal(oa_kop_create(OA_KOP_QUANT, p, 4, in, 1, &out, &op), OA_OK);
    return op;
}

static void run_qop(const oa_kop *op, const kt_buf *x, kt_buf *y)
{
    const void *ins[4] = {x->data, NULL, NULL, NULL};
    void *outs[1] = {y->data};
    assert_int_equal(kt_run_op(op, ins, outs, 1), OA_OK);
}

/*
 * The packed weights of a stable w are shared (docs/memory.md "Dynamic models"): a second operator of the same
 * w, here of another input size, takes the first one's array when its primitive wants the same layout; one of
 * a private w packs its own; the outputs are the same bytes either way.
 */
static void test_stable_weights_shared(void **state)
{
    (void)state;
    for (int kind = 0; kind < 2; kind++) {
        const bool conv = kind == 0;
        oa_kquant_params p = {.op = conv ? OA_KQ_CONV : OA_KQ_MATMUL, .x_scale = 0.03f, .x_zp = 5, .y_scale = 0.1f,
                              .y_zp = 3, .strides = {1, 1}, .dilations = {1, 1}, .pads = {1, 1, 1, 1}, .groups = 1};
        kt_buf w = conv ? kt_alloc(KT_D(OA_KDT_I8, 32, 16, 3, 3)) : kt_alloc(KT_D(OA_KDT_I8, 64, 48));
        const int64_t no = conv ? 32 : 48;
        kt_buf ws = kt_alloc(KT_D(OA_KDT_F32, no)), b = kt_alloc(KT_D(OA_KDT_F32, no));
        kt_fill(&w, 71 + (uint64_t)kind, -63, 63);
        kt_fill(&ws, 73 + (uint64_t)kind, 0.002, 0.02);
        kt_fill(&b, 79 + (uint64_t)kind, -1.0, 1.0);
        kt_buf x1 = conv ? kt_alloc(KT_D(OA_KDT_U8, 1, 9, 8, 16)) : kt_alloc(KT_D(OA_KDT_U8, 5, 64));
        kt_buf x2 = conv ? kt_alloc(KT_D(OA_KDT_U8, 1, 7, 11, 16)) : kt_alloc(KT_D(OA_KDT_U8, 7, 64));
        kt_buf y1 = conv ? kt_alloc(KT_D(OA_KDT_U8, 1, 9, 8, 32)) : kt_alloc(KT_D(OA_KDT_F32, 5, 48));
        kt_buf y2 = conv ? kt_alloc(KT_D(OA_KDT_U8, 1, 7, 11, 32)) : kt_alloc(KT_D(OA_KDT_F32, 7, 48));
        kt_buf y3 = kt_alloc(y2.d);
        kt_fill(&x1, 83 + (uint64_t)kind, 0, 255);
        kt_fill(&x2, 89 + (uint64_t)kind, 0, 255);
        size_t a0, a1, a2, a3, a4, bytes;
        oa_kderived_stats(&a0, &bytes);
        oa_kop *s1 = stable_qop(&p, &x1, &w, &ws, &b, &y1, true);
        oa_kderived_stats(&a1, &bytes);
        oa_kop *same = stable_qop(&p, &x1, &w, &ws, &b, &y1, true); /* the same shape: the same layout */
        oa_kderived_stats(&a2, &bytes);
        oa_kop *s2 = stable_qop(&p, &x2, &w, &ws, &b, &y2, true);
        oa_kderived_stats(&a3, &bytes);
        oa_kop *u2 = stable_qop(&p, &x2, &w, &ws, &b, &y2, false);
        oa_kderived_stats(&a4, &bytes);
        print_message("int8 %s (%s): %zu, %zu, %zu, %zu arrays\n", conv ? "conv" : "matmul", oa_kop_impl_name(s1),
                      a1 - a0, a2 - a0, a3 - a0, a4 - a0);
        assert_int_equal(a1 - a0, 1);
        assert_int_equal(a2, a1);
        assert_true(a3 - a2 <= 1); /* 0 when the other shape's primitive wants the same layout */
        assert_int_equal(a4 - a3, 1);
        run_qop(s2, &x2, &y2);
        run_qop(u2, &x2, &y3);
        if (memcmp(y2.data, y3.data, y2.bytes) != 0) {
            fail_msg("int8 %s: the shared weights' output differs from a private copy's", conv ? "conv" : "matmul");
        }
        oa_kop_destroy(s1);
        oa_kop_destroy(same);
        oa_kop_destroy(s2);
        oa_kop_destroy(u2);
        oa_kderived_stats(&a1, &bytes);
        assert_int_equal(a1, a0); /* every array released with its last operator */
        kt_free(&w), kt_free(&ws), kt_free(&b), kt_free(&x1), kt_free(&x2), kt_free(&y1), kt_free(&y2), kt_free(&y3);
    }
}

static void test_matmul(void **state)
{
    (void)state;
    for (int t = 0; t < 2; t++) {
        const bool tb = t == 0;
        const oa_kdtype xt = tb ? OA_KDT_U8 : OA_KDT_I8;
        const int64_t m = 3, k = 40, n = 24;
        oa_kquant_params p = {.op = OA_KQ_MATMUL, .x_scale = 0.02f, .x_zp = tb ? 77 : -3, .relu = tb,
                              .transpose_b = tb};
        kt_buf x = kt_alloc(KT_D(xt, m, k)), w = tb ? kt_alloc(KT_D(OA_KDT_I8, n, k)) : kt_alloc(KT_D(OA_KDT_I8, k, n));
        kt_buf ws = kt_alloc(KT_D(OA_KDT_F32, n)), b = kt_alloc(KT_D(OA_KDT_F32, n)), y = kt_alloc(KT_D(OA_KDT_F32, m, n));
        kt_fill(&x, 31 + (uint64_t)t, qlo(xt), qhi(xt));
        kt_fill(&w, 41 + (uint64_t)t, -63, 63);
        kt_fill(&ws, 51 + (uint64_t)t, 0.001, 0.01);
        kt_fill(&b, 61 + (uint64_t)t, -0.5, 0.5);
        kt_buf *in[4] = {&x, &w, &ws, &b}, *out[1] = {&y};
        assert_int_equal(kt_run(OA_KOP_QUANT, &p, 4, in, 0xE, 1, out, 1), OA_OK);
        double ref[3 * 24];
        for (int64_t i = 0; i < m; i++) {
            for (int64_t j = 0; j < n; j++) {
                int64_t acc = 0;
                for (int64_t q = 0; q < k; q++) {
                    const double wv = kt_get(&w, tb ? j * k + q : q * n + j);
                    acc += (int64_t)((kt_get(&x, i * k + q) - p.x_zp) * wv);
                }
                double r = (double)acc * p.x_scale * kt_get(&ws, j) + kt_get(&b, j);
                ref[i * n + j] = p.relu && r < 0 ? 0 : r;
            }
        }
        kt_expect_close(&y, ref, 1e-5, 1e-5, kt_fmt("matmul %s", tb ? "u8 x [N,K] + relu" : "s8 x [K,N]"));
        kt_free(&x);
        kt_free(&w);
        kt_free(&ws);
        kt_free(&b);
        kt_free(&y);
    }
}

static void test_bad_params(void **state)
{
    (void)state;
    kt_buf x = kt_alloc(KT_D(OA_KDT_F32, 1, 2, 3, 3)), y = kt_alloc(KT_D(OA_KDT_U8, 1, 3, 3, 2));
    kt_buf *in[1] = {&x}, *out[1] = {&y};
    oa_kquant_params p = {.op = OA_KQ_QUANTIZE, .y_scale = 0.0f};
    kt_expect_fail(kt_run(OA_KOP_QUANT, &p, 1, in, 0, 1, out, 1), OA_E_PARAM, "zero scale");
    p.y_scale = 0.1f;
    p.y_zp = 256;
    kt_expect_fail(kt_run(OA_KOP_QUANT, &p, 1, in, 0, 1, out, 1), OA_E_PARAM, "u8 zero point 256");
    p.y_zp = 0;
    p.op = (oa_kquant_op)99;
    kt_expect_fail(kt_run(OA_KOP_QUANT, &p, 1, in, 0, 1, out, 1), OA_E_PARAM, "unknown sub-op");
    /* a conv whose filter is not constant, or is u8 */
    kt_buf xq = kt_alloc(KT_D(OA_KDT_U8, 1, 4, 4, 2)), w = kt_alloc(KT_D(OA_KDT_I8, 2, 2, 1, 1));
    kt_buf ws = kt_alloc(KT_D(OA_KDT_F32, 2)), yq = kt_alloc(KT_D(OA_KDT_U8, 1, 4, 4, 2));
    kt_fill(&ws, 1, 0.1, 0.2);
    oa_kquant_params c = {.op = OA_KQ_CONV, .x_scale = 0.1f, .y_scale = 0.1f, .strides = {1, 1}, .groups = 1};
    kt_buf *cin[3] = {&xq, &w, &ws}, *cout[1] = {&yq};
    kt_expect_fail(kt_run(OA_KOP_QUANT, &c, 3, cin, 0x4, 1, cout, 1), OA_E_PARAM, "run-time filter");
    kt_buf wu = kt_alloc(KT_D(OA_KDT_U8, 2, 2, 1, 1));
    cin[1] = &wu;
    kt_expect_fail(kt_run(OA_KOP_QUANT, &c, 3, cin, 0x6, 1, cout, 1), OA_E_PARAM, "u8 filter");
    ((float *)ws.data)[1] = -1.0f;
    cin[1] = &w;
    kt_expect_fail(kt_run(OA_KOP_QUANT, &c, 3, cin, 0x6, 1, cout, 1), OA_E_PARAM, "negative filter scale");
    ((float *)ws.data)[1] = 0.1f;
    c.groups = 5;
    kt_expect_fail(kt_run(OA_KOP_QUANT, &c, 3, cin, 0x6, 1, cout, 1), OA_E_PARAM, "5 groups of 2 channels");
    c.groups = 1;
    c.pads[0] = INT64_C(1) << 40;
    kt_expect_fail(kt_run(OA_KOP_QUANT, &c, 3, cin, 0x6, 1, cout, 1), OA_E_PARAM, "pad 2^40");
    kt_free(&x);
    kt_free(&y);
    kt_free(&xq);
    kt_free(&w);
    kt_free(&wu);
    kt_free(&ws);
    kt_free(&yq);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quantize_dequantize),
        cmocka_unit_test(test_add),
        cmocka_unit_test(test_pools),
        cmocka_unit_test(test_split_sub_ops),
        cmocka_unit_test(test_conv),
        cmocka_unit_test(test_matmul),
        cmocka_unit_test(test_stable_weights_shared),
        cmocka_unit_test(test_bad_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

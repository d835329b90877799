/*
 * Lower-precision compute (docs/precision.md): the f32 -> bf16 conversion
 * (round to nearest even, every ISA path) and Conv2D / MatMul with a bf16
 * request. Where the features in use include AVX512-BF16 the operator must
 * run bf16 ("onednn-bf16"): relative L2 <= 1e-2 against a double-precision
 * reference and outputs different from the fp32 operator's. Without it (or
 * under OPENACL_ISA=avx512, ctest test_kernels_lowp_isa_avx512) the request
 * falls back to fp32: outputs bit-identical to the fp32 operator's. Depthwise
 * convolutions and products of two activations stay fp32 whatever the CPU.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kt_harness.h"
#include "kernels/kernel_internal.h"
#include "kernels/onednn.h" /* oa_kernels_slices: the streamed-filter path needs pieces per slice */

void oa_kbf16_from_f32_avx512(const float *x, uint16_t *y, size_t n);

static bool native_bf16(void)
{
    return oa_kisa_features()->avx512_bf16 || oa_kisa_features()->amx_bf16;
}

static bool amx_nhwc(void)
{
    const char *e = getenv("OPENACL_CONV_NHWC");
    return oa_kisa_features()->amx_bf16 && (e == NULL || strcmp(e, "0") != 0);
}

/* Independent round-to-nearest-even: the nearest of the two bf16 neighbours, ties to an even mantissa. */
static uint16_t bf16_expect(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if (isnan(f)) {
        return 0; /* checked separately */
    }
    if ((u & 0x7f800000u) == 0) { /* denormals: a signed zero (the instruction's rule, docs/precision.md) */
        return (uint16_t)((u >> 16) & 0x8000u);
    }
    uint16_t lo = (uint16_t)(u >> 16), hi = (uint16_t)(lo + 1);
    uint32_t ul = (uint32_t)lo << 16, uh = (uint32_t)hi << 16;
    float fl, fh;
    memcpy(&fl, &ul, sizeof fl);
    memcpy(&fh, &uh, sizeof fh);
    if ((u & 0xffffu) == 0) {
        return lo;
    }
    double dl = fabs((double)f - (double)fl), dh = isinf(fh) ? INFINITY : fabs((double)fh - (double)f);
    if ((u & 0xffffu) == 0x8000u) {
        return (lo & 1u) ? hi : lo;
    }
    if (isinf(fh) && !isinf(f)) { /* rounding up past FLT_MAX gives infinity: only above the midpoint */
        return (u & 0xffffu) > 0x8000u ? hi : lo;
    }
    return dl < dh ? lo : hi;
}

static void check_cvt(void (*fn)(const float *, uint16_t *, size_t), const char *name)
{
    enum { N = 1000 };
    static float x[N];
    static uint16_t y[N + 1];
    static const float special[] = {0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, 3.4028235e38f, -3.4028235e38f,
                                    1e-40f, -1e-40f, 1.00390625f /* tie, even */, 1.01171875f /* tie, odd */};
    uint64_t s = 12345;
    for (int i = 0; i < N; i++) {
        x[i] = i < (int)(sizeof special / sizeof special[0]) ? special[i] : (float)kt_rand_uniform(&s, -1e4, 1e4);
    }
    x[N - 1] = NAN;
    for (size_t n = 0; n <= 40; n += 7) { /* tails: lengths not a multiple of 16 or 32 */
        y[n] = 0xbeef;
        fn(x, y, n);
        assert_int_equal(y[n], 0xbeef);
    }
    fn(x, y, N);
    for (int i = 0; i < N - 1; i++) {
        if (y[i] != bf16_expect(x[i])) {
            fail_msg("%s: bf16(%.9g) = 0x%04x, expected 0x%04x", name, (double)x[i], y[i], bf16_expect(x[i]));
        }
    }
    assert_true((y[N - 1] & 0x7f80u) == 0x7f80u && (y[N - 1] & 0x7fu) != 0); /* NaN stays NaN */
}

static void test_bf16_convert(void **state)
{
    (void)state;
    check_cvt(oa_kbf16_from_f32, "oa_kbf16_from_f32");
    if (oa_kernels_cpu()->avx512_bf16) {
        check_cvt(oa_kbf16_from_f32_avx512, "avx512_bf16");
    } else {
        print_message("skipped: the AVX512-BF16 conversion (this CPU has no avx512_bf16)\n");
    }
}

static double rel_l2(const kt_buf *y, const double *ref, int64_t n)
{
    double num = 0, den = 0;
    for (int64_t i = 0; i < n; i++) {
        double d = kt_get(y, i) - ref[i];
        num += d * d;
        den += ref[i] * ref[i];
    }
    return sqrt(num / (den > 0 ? den : 1));
}

/* The bf16 request against the fp32 operator and the reference. */
static void expect_lowp(const kt_buf *y32, const kt_buf *ylp, const char *impl, const double *ref, int64_t n,
                        bool eligible, const char *label)
{
    double e32 = rel_l2(y32, ref, n), elp = rel_l2(ylp, ref, n);
    if (e32 > 1e-5) {
        fail_msg("%s: fp32 relative L2 %.3g", label, e32);
    }
    const bool same = memcmp(y32->data, ylp->data, y32->bytes) == 0;
    if (!eligible) { /* kept in fp32 by design */
        if (strstr(impl, "bf16") != NULL || !same) {
            fail_msg("%s: must stay fp32: ran %s, outputs %s", label, impl, same ? "identical" : "differ from fp32");
        }
        print_message("%s: stays fp32 (bit-identical)\n", label);
    } else if (native_bf16()) {
        if (strstr(impl, "bf16") == NULL || elp > 1e-2 || elp < 1e-6 || same) {
            fail_msg("%s: bf16 request ran %s, relative L2 %.3g (fp32 %.3g), outputs %s", label, impl, elp, e32,
                     same ? "identical to fp32" : "differ");
        }
        print_message("%s: bf16, relative L2 %.3g (fp32 %.3g)\n", label, elp, e32);
    } else {
        if (strstr(impl, "bf16") != NULL || !same) {
            fail_msg("%s: no native bf16 (ISA %s): ran %s, outputs %s", label, oa_kernels_isa(), impl,
                     same ? "identical" : "differ from fp32");
        }
        print_message("%s: ISA %s has no native bf16: fp32, bit-identical (bf16 part skipped)\n", label,
                      oa_kernels_isa());
    }
}

/* The order of conv_case's post-ops: ReLU then the residual add, or (ResNet's) the add then ReLU. */
static bool g_add_first;

/* x [1, ic, h, w] -> conv k x k (pad k/2, g groups) + bias -> relu -> + residual (g_add_first: + residual ->
 * relu); mode 0 NCHW, 1 NCHWc, 2 NCHW -> NCHWc */
static void conv_case(int64_t ic, int64_t oc, int64_t h, int64_t k, int64_t g, int mode, int nthreads)
{
    const int64_t p = k / 2, hw = h * h, icg = ic / g, ocg = oc / g;
    kt_buf x = kt_alloc(KT_D(OA_KDT_F32, 1, ic, h, h)), w = kt_alloc(KT_D(OA_KDT_F32, oc, icg, k, k));
    kt_buf b = kt_alloc(KT_D(OA_KDT_F32, oc)), r = kt_alloc(KT_D(OA_KDT_F32, 1, oc, h, h));
    kt_fill(&x, 1, -1, 1);
    kt_fill(&w, 2, -0.5, 0.5);
    kt_fill(&b, 3, -0.5, 0.5);
    kt_fill(&r, 4, -1, 1);
    double *ref = calloc((size_t)(oc * hw), sizeof(double));
    for (int64_t o = 0; o < oc; o++) {
        for (int64_t yy = 0; yy < h; yy++) {
            for (int64_t xx = 0; xx < h; xx++) {
                double acc = kt_get(&b, o);
                for (int64_t c = 0; c < icg; c++) {
                    for (int64_t i = 0; i < k; i++) {
                        for (int64_t j = 0; j < k; j++) {
                            int64_t iy = yy + i - p, ix = xx + j - p, ci = o / ocg * icg + c;
                            if (iy >= 0 && iy < h && ix >= 0 && ix < h) {
                                acc += kt_get(&x, (ci * h + iy) * h + ix) * kt_get(&w, ((o * icg + c) * k + i) * k + j);
                            }
                        }
                    }
                }
                const double res = kt_get(&r, o * hw + yy * h + xx);
                ref[o * hw + yy * h + xx] = g_add_first ? (acc + res > 0 ? acc + res : 0) : (acc > 0 ? acc : 0) + res;
            }
        }
    }
    const bool blk = mode != 0;
    kt_buf xb = mode == 1 ? kt_blocked_from_plain(&x) : x, rb = blk ? kt_blocked_from_plain(&r) : r;
    oa_ktensor yd = KT_D(OA_KDT_F32, 1, oc, h, h);
    yd.layout = blk ? OA_KLAYOUT_NCHWC : OA_KLAYOUT_PLAIN;
    kt_buf y[2] = {kt_alloc(yd), kt_alloc(yd)}, yp[2];
    const char *impl[2];
    for (int lp = 0; lp < 2; lp++) {
        oa_kconv_params cp;
        memset(&cp, 0, sizeof cp);
        cp.strides[0] = cp.strides[1] = 1;
        cp.pads[0] = cp.pads[1] = cp.pads[2] = cp.pads[3] = p;
        cp.out_nchwc = mode == 2;
        cp.groups = g;
        cp.post.n = 2;
        cp.post.ops[g_add_first ? 1 : 0].kind = OA_KPOST_ACT;
        cp.post.ops[g_add_first ? 1 : 0].act = OA_KACT_RELU;
        cp.post.ops[g_add_first ? 0 : 1].kind = OA_KPOST_ADD;
        cp.lowp = lp ? OA_KLOWP_BF16 : OA_KLOWP_NONE;
        kt_buf *ins[4] = {&xb, &w, &b, &rb}, *outs[1] = {&y[lp]};
        assert_int_equal(kt_run(OA_KOP_CONV2D, &cp, 4, ins, 0x6, 1, outs, nthreads), OA_OK);
        impl[lp] = kt_last_impl;
        yp[lp] = blk ? kt_plain_from_blocked(&y[lp]) : y[lp];
    }
    /* on CPUs with AMX-BF16, blocked outputs of whole 16-channel blocks run oneDNN's AMX kernels on NHWC
     * copies (conv.c nhwc_amx_bf16; OPENACL_CONV_NHWC=0 turns that off) */
    if (amx_nhwc() && g == 1 && blk && oc % 16 == 0 && (mode == 2 || ic % 16 == 0)) {
        assert_string_equal(impl[1], "onednn-nhwc-bf16");
    } else {
        assert_true(strcmp(impl[1], "onednn-nhwc-bf16") != 0);
    }
    expect_lowp(&yp[0], &yp[1], impl[1], ref, oc * hw, !(g > 1 && g == ic),
                kt_fmt("conv ic%lld oc%lld %lldx%lld k%lld g%lld %s thr%d", (long long)ic, (long long)oc,
                       (long long)h, (long long)h, (long long)k, (long long)g, mode == 0 ? "NCHW" : (mode == 1 ? "NCHWc" : "NCHW->NCHWc"),
                       nthreads));
    for (int lp = 0; lp < 2; lp++) {
        if (blk) {
            kt_free(&yp[lp]);
        }
        kt_free(&y[lp]);
    }
    if (mode == 1) {
        kt_free(&xb);
    }
    if (blk) {
        kt_free(&rb);
    }
    free(ref);
    kt_free(&x);
    kt_free(&w);
    kt_free(&b);
    kt_free(&r);
}

static void test_conv_bf16(void **state)
{
    (void)state;
    for (int mode = 0; mode < 3; mode++) {
        conv_case(32, 48, 14, 3, 1, mode, 1 + mode % 2);
        conv_case(64, 32, 9, 1, 1, mode, 2 - mode % 2);
        conv_case(3, 16, 20, 3, 1, mode == 1 ? 2 : mode, 1); /* a 3-channel first conv (plain x) */
        conv_case(48, 48, 12, 3, 48, mode, 1 + mode % 2);    /* depthwise: stays fp32 */
        conv_case(32, 64, 10, 5, 2, mode, 2);                 /* grouped 5x5 */
        /* small planes with many output channels: the streamed-filter tile on bf16 pairs (conv_pw.c) in
         * NCHWc on CPUs with AVX512-BF16, oneDNN elsewhere */
        conv_case(32, 1024, 7, 3, 1, mode, 1 + mode % 2);
        const bool pw =
            mode == 1 && native_bf16() && oa_kpw_bf16_for() != NULL && oa_kernels_slices() <= 2 && !amx_nhwc();
        assert_true((strcmp(kt_last_impl, "pw3x3-bf16") == 0) == pw);
        conv_case(64, 1024, 7, 1, 1, mode, 2 - mode % 2);
        assert_true((strcmp(kt_last_impl, "pw-bf16") == 0) == pw);
        /* the residual first, then ReLU: on the NHWC path both are applied while y is copied back */
        g_add_first = true;
        conv_case(32, 48, 14, 3, 1, mode, 1 + mode % 2);
        conv_case(64, 256, 7, 1, 1, mode, 2 - mode % 2);
        g_add_first = false;
    }
}

/* Two images through a 3x3 NCHWc conv (+ bias, ReLU): each image's bf16 output within 1e-2 of a double
 * reference, so that the NHWC copies of the AMX path (per image) and the other paths take every image. */
static void test_conv_bf16_batch(void **state)
{
    (void)state;
    const int64_t n = 2, ic = 32, oc = 48, h = 10, hw = h * h;
    kt_buf x = kt_alloc(KT_D(OA_KDT_F32, n, ic, h, h)), w = kt_alloc(KT_D(OA_KDT_F32, oc, ic, 3, 3));
    kt_buf b = kt_alloc(KT_D(OA_KDT_F32, oc));
    kt_fill(&x, 11, -1, 1);
    kt_fill(&w, 12, -0.5, 0.5);
    kt_fill(&b, 13, -0.5, 0.5);
    double *ref = calloc((size_t)(n * oc * hw), sizeof(double));
    assert_non_null(ref);
    for (int64_t i = 0; i < n; i++) {
        for (int64_t o = 0; o < oc; o++) {
            for (int64_t q = 0; q < hw; q++) {
                double acc = kt_get(&b, o);
                for (int64_t c = 0; c < ic; c++) {
                    for (int64_t t = 0; t < 9; t++) {
                        const int64_t iy = q / h + t / 3 - 1, ix = q % h + t % 3 - 1;
                        if (iy >= 0 && iy < h && ix >= 0 && ix < h) {
                            acc += kt_get(&x, ((i * ic + c) * h + iy) * h + ix) * kt_get(&w, (o * ic + c) * 9 + t);
                        }
                    }
                }
                ref[(i * oc + o) * hw + q] = acc > 0 ? acc : 0;
            }
        }
    }
    kt_buf xb = kt_blocked_from_plain(&x);
    oa_ktensor yd = KT_D(OA_KDT_F32, n, oc, h, h);
    yd.layout = OA_KLAYOUT_NCHWC;
    kt_buf y = kt_alloc(yd);
    oa_kconv_params cp;
    memset(&cp, 0, sizeof cp);
    cp.strides[0] = cp.strides[1] = 1;
    cp.pads[0] = cp.pads[1] = cp.pads[2] = cp.pads[3] = 1;
    cp.groups = 1;
    cp.post.n = 1;
    cp.post.ops[0].kind = OA_KPOST_ACT;
    cp.post.ops[0].act = OA_KACT_RELU;
    cp.lowp = OA_KLOWP_BF16;
    for (int thr = 1; thr <= 2; thr++) {
        kt_buf *ins[3] = {&xb, &w, &b}, *outs[1] = {&y};
        assert_int_equal(kt_run(OA_KOP_CONV2D, &cp, 3, ins, 0x6, 1, outs, thr), OA_OK);
        if (amx_nhwc()) {
            assert_string_equal(kt_last_impl, "onednn-nhwc-bf16");
        }
        kt_buf yp = kt_plain_from_blocked(&y);
        for (int64_t i = 0; i < n; i++) {
            double num = 0, den = 0;
            for (int64_t k = 0; k < oc * hw; k++) {
                const double d = kt_get(&yp, i * oc * hw + k) - ref[i * oc * hw + k];
                num += d * d;
                den += ref[i * oc * hw + k] * ref[i * oc * hw + k];
            }
            const double e = sqrt(num / (den > 0 ? den : 1));
            print_message("conv bf16 batch image %lld thr%d (%s): relative L2 %.3g\n", (long long)i, thr, kt_last_impl, e);
            assert_true(e <= 1e-2);
        }
        kt_free(&yp);
    }
    free(ref);
    kt_free(&x);
    kt_free(&xb);
    kt_free(&w);
    kt_free(&b);
    kt_free(&y);
}

/* a [2, 5, K] x constant b [K, N] (+ bias [N], GELU): Linear layers with the batch folded into M */
static void mm_case(int64_t m5, int64_t kk, int64_t n, bool trans_b, int nthreads)
{
    kt_buf a = kt_alloc(KT_D(OA_KDT_F32, 2, m5, kk));
    kt_buf b = trans_b ? kt_alloc(KT_D(OA_KDT_F32, n, kk)) : kt_alloc(KT_D(OA_KDT_F32, kk, n));
    kt_buf bias = kt_alloc(KT_D(OA_KDT_F32, n));
    kt_fill(&a, 5, -1, 1);
    kt_fill(&b, 6, -0.5, 0.5);
    kt_fill(&bias, 7, -0.5, 0.5);
    const int64_t rows = 2 * m5;
    double *ref = calloc((size_t)(rows * n), sizeof(double));
    for (int64_t i = 0; i < rows; i++) {
        for (int64_t j = 0; j < n; j++) {
            double acc = kt_get(&bias, j);
            for (int64_t q = 0; q < kk; q++) {
                acc += kt_get(&a, i * kk + q) * kt_get(&b, trans_b ? j * kk + q : q * n + j);
            }
            ref[i * n + j] = 0.5 * acc * (1 + erf(acc / sqrt(2.0)));
        }
    }
    kt_buf y[2] = {kt_alloc(KT_D(OA_KDT_F32, 2, m5, n)), kt_alloc(KT_D(OA_KDT_F32, 2, m5, n))};
    const char *impl = NULL;
    for (int lp = 0; lp < 2; lp++) {
        oa_kmatmul_params mp;
        memset(&mp, 0, sizeof mp);
        mp.transpose_b = trans_b;
        mp.alpha = mp.beta = 1.0f;
        mp.post.n = 1;
        mp.post.ops[0].kind = OA_KPOST_ACT;
        mp.post.ops[0].act = OA_KACT_GELU_ERF;
        mp.lowp = lp ? OA_KLOWP_FP16 : OA_KLOWP_NONE; /* an fp16 request computes in bf16 too */
        kt_buf *ins[3] = {&a, &b, &bias}, *outs[1] = {&y[lp]};
        assert_int_equal(kt_run(OA_KOP_MATMUL, &mp, 3, ins, 0x6, 1, outs, nthreads), OA_OK);
        impl = kt_last_impl;
    }
    expect_lowp(&y[0], &y[1], impl, ref, rows * n, true,
                kt_fmt("matmul [2,%lld,%lld] x %s[%lld,%lld] thr%d", (long long)m5, (long long)kk,
                       trans_b ? "T" : "", (long long)kk, (long long)n, nthreads));
    free(ref);
    kt_free(&y[0]);
    kt_free(&y[1]);
    kt_free(&a);
    kt_free(&b);
    kt_free(&bias);
}

static void test_matmul_bf16(void **state)
{
    (void)state;
    mm_case(5, 64, 48, false, 1);
    mm_case(64, 96, 300, true, 2);
    mm_case(3, 17, 33, false, 2);
}

/* 2-D a stored transposed ([K, M], transpose_a) times constant b: one matrix, bf16 too */
static void test_matmul_bf16_trans_a(void **state)
{
    (void)state;
    const int64_t M = 40, K = 72, N = 56;
    kt_buf a = kt_alloc(KT_D(OA_KDT_F32, K, M)), b = kt_alloc(KT_D(OA_KDT_F32, K, N));
    kt_fill(&a, 10, -1, 1);
    kt_fill(&b, 11, -0.5, 0.5);
    double *ref = calloc((size_t)(M * N), sizeof(double));
    for (int64_t i = 0; i < M; i++) {
        for (int64_t j = 0; j < N; j++) {
            for (int64_t q = 0; q < K; q++) {
                ref[i * N + j] += kt_get(&a, q * M + i) * kt_get(&b, q * N + j);
            }
        }
    }
    kt_buf y[2] = {kt_alloc(KT_D(OA_KDT_F32, M, N)), kt_alloc(KT_D(OA_KDT_F32, M, N))};
    const char *impl = NULL;
    for (int lp = 0; lp < 2; lp++) {
        oa_kmatmul_params mp;
        memset(&mp, 0, sizeof mp);
        mp.transpose_a = true;
        mp.lowp = lp ? OA_KLOWP_BF16 : OA_KLOWP_NONE;
        kt_buf *ins[3] = {&a, &b, NULL}, *outs[1] = {&y[lp]};
        assert_int_equal(kt_run(OA_KOP_MATMUL, &mp, 3, ins, 0x2, 1, outs, 2), OA_OK);
        impl = kt_last_impl;
    }
    expect_lowp(&y[0], &y[1], impl, ref, M * N, true, "matmul a^T [72,40] x [72,56] thr2");
    free(ref);
    kt_free(&y[0]);
    kt_free(&y[1]);
    kt_free(&a);
    kt_free(&b);
}

/* Two activations (attention's products) stay fp32 whatever the request. */
static void test_matmul_two_activations_fp32(void **state)
{
    (void)state;
    kt_buf a = kt_alloc(KT_D(OA_KDT_F32, 4, 8, 16)), b = kt_alloc(KT_D(OA_KDT_F32, 4, 16, 8));
    kt_fill(&a, 8, -1, 1);
    kt_fill(&b, 9, -1, 1);
    kt_buf y[2] = {kt_alloc(KT_D(OA_KDT_F32, 4, 8, 8)), kt_alloc(KT_D(OA_KDT_F32, 4, 8, 8))};
    for (int lp = 0; lp < 2; lp++) {
        oa_kmatmul_params mp;
        memset(&mp, 0, sizeof mp);
        mp.lowp = lp ? OA_KLOWP_BF16 : OA_KLOWP_NONE;
        kt_buf *ins[3] = {&a, &b, NULL}, *outs[1] = {&y[lp]};
        assert_int_equal(kt_run(OA_KOP_MATMUL, &mp, 3, ins, 0, 1, outs, 2), OA_OK);
        assert_null(strstr(kt_last_impl, "bf16"));
    }
    assert_memory_equal(y[0].data, y[1].data, y[0].bytes);
    kt_free(&y[0]);
    kt_free(&y[1]);
    kt_free(&a);
    kt_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bf16_convert),
        cmocka_unit_test(test_conv_bf16),
        cmocka_unit_test(test_conv_bf16_batch),
        cmocka_unit_test(test_matmul_bf16),
        cmocka_unit_test(test_matmul_bf16_trans_a),
        cmocka_unit_test(test_matmul_two_activations_fp32),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

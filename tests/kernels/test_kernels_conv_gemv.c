/*
 * Few-position convolutions as multi-column GEMVs (kernels/conv_gemv.h,
 * docs/kernels_conv_gemv.md): each ISA kernel the CPU can run (AVX2,
 * AVX-512; the others are reported as skipped) against double precision
 * over block counts, column counts, depths and block ranges with exact-size
 * buffers; the whole path (gather of the receptive fields with padding,
 * strides and dilations, the GEMV, the transposed write) under the tier in
 * use (ctest caps it with OPENACL_ISA) against a direct convolution in
 * double; which shapes it declines; bad arguments.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/conv_gemv.h"
#include "kt_harness.h"

static float frand(uint64_t *s)
{
    return (float)kt_rand_uniform(s, -1.0, 1.0);
}

static void test_cgemv_kernels(void **state)
{
    (void)state;
    oa_kisa_tier det = oa_kisa_detected();
    int64_t blk0;
    assert_null(oa_kcgemv_for(OA_KISA_REF, &blk0));
    static const oa_kisa_tier tiers[] = {OA_KISA_AVX2, OA_KISA_AVX512};
    static const int64_t nblks[] = {1, 2, 3, 4, 5, 7, 17};
    static const int64_t ks[] = {1, 3, 16, 17, 100, 256};
    for (size_t t = 0; t < OA_ARRAY_SIZE(tiers); t++) {
        if (det < tiers[t]) {
            printf("  skipped: conv GEMV %s (this CPU offers %s)\n", oa_kisa_tier_name(tiers[t]),
                   oa_kisa_tier_name(det));
            continue;
        }
        int64_t blk = 0;
        oa_kcgemv_fn f = oa_kcgemv_for(tiers[t], &blk);
        assert_non_null(f);
        assert_int_equal(blk, tiers[t] == OA_KISA_AVX2 ? 8 : 16);
        int fails = 0, cases = 0;
        uint64_t seed = 77;
        for (size_t bi = 0; bi < OA_ARRAY_SIZE(nblks); bi++) {
            for (size_t ki = 0; ki < OA_ARRAY_SIZE(ks); ki++) {
                for (int64_t nc = 1; nc <= OA_KCGEMV_MAX_COLS; nc++) {
                    const int64_t nb = nblks[bi], k = ks[ki], ldy = nb * blk;
                    /* exact-size buffers so ASan sees a read or write outside them */
                    float *wp = malloc(sizeof(float) * (size_t)(nb * k * blk));
                    float *cols = malloc(sizeof(float) * (size_t)(nc * k));
                    float *bias = malloc(sizeof(float) * (size_t)ldy);
                    float *yt = malloc(sizeof(float) * (size_t)(nc * ldy));
                    assert_true(wp && cols && bias && yt);
                    for (int64_t i = 0; i < nb * k * blk; i++) {
                        wp[i] = frand(&seed);
                    }
                    for (int64_t i = 0; i < nc * k; i++) {
                        cols[i] = frand(&seed);
                    }
                    for (int64_t i = 0; i < ldy; i++) {
                        bias[i] = frand(&seed);
                    }
                    /* the full range, then an inner one (blocks outside it must stay untouched) */
                    for (int pass = 0; pass < 2; pass++) {
                        int64_t b0 = pass == 0 ? 0 : (nb > 2 ? 1 : 0), b1 = pass == 0 ? nb : (nb > 2 ? nb - 1 : nb);
                        for (int64_t i = 0; i < nc * ldy; i++) {
                            yt[i] = -12345.0f;
                        }
                        f(wp, k, b0, b1, cols, k, nc, bias, yt, ldy);
                        cases++;
                        for (int64_t c = 0; c < nc; c++) {
                            for (int64_t o = 0; o < ldy; o++) {
                                float got = yt[c * ldy + o];
                                if (o < b0 * blk || o >= b1 * blk) {
                                    if (got != -12345.0f && fails++ < 20) {
                                        printf("  %s: channel %lld outside [%lld, %lld) written\n",
                                               oa_kisa_tier_name(tiers[t]), (long long)o, (long long)b0,
                                               (long long)b1);
                                    }
                                    continue;
                                }
                                double want = bias[o], mag = fabs(want);
                                for (int64_t i = 0; i < k; i++) {
                                    double v = (double)wp[(o / blk * k + i) * blk + o % blk] * cols[c * k + i];
                                    want += v;
                                    mag += fabs(v);
                                }
                                if (fabs(got - want) > 1e-6 * mag + 1e-6 && fails++ < 20) {
                                    printf("  %s nblk %lld k %lld cols %lld: y[%lld][%lld] %.9g, want %.9g\n",
                                           oa_kisa_tier_name(tiers[t]), (long long)nb, (long long)k, (long long)nc,
                                           (long long)c, (long long)o, (double)got, want);
                                }
                            }
                        }
                    }
                    free(wp);
                    free(cols);
                    free(bias);
                    free(yt);
                }
            }
        }
        printf("  checked: conv GEMV %s, %d cases against double precision (%d mismatches)\n",
               oa_kisa_tier_name(tiers[t]), cases, fails);
        assert_int_equal(fails, 0);
    }
}

/* Overlapping columns (ldc < k: the windows of a 1-D conv read in place), each tier the CPU has. */
static void test_cgemv_kernels_overlapping(void **state)
{
    (void)state;
    oa_kisa_tier det = oa_kisa_detected();
    static const oa_kisa_tier tiers[] = {OA_KISA_AVX2, OA_KISA_AVX512};
    for (size_t t = 0; t < OA_ARRAY_SIZE(tiers); t++) {
        if (det < tiers[t]) {
            printf("  skipped: conv GEMV %s, overlapping columns (this CPU offers %s)\n", oa_kisa_tier_name(tiers[t]),
                   oa_kisa_tier_name(det));
            continue;
        }
        int64_t blk = 0;
        oa_kcgemv_fn f = oa_kcgemv_for(tiers[t], &blk);
        const int64_t nb = 3, k = 40, ldc = 7, ldy = nb * blk;
        uint64_t seed = 5;
        for (int64_t nc = 1; nc <= OA_KCGEMV_MAX_COLS; nc++) {
            const int64_t nx = (nc - 1) * ldc + k; /* exact size */
            float *wp = malloc(sizeof(float) * (size_t)(nb * k * blk)), *x = malloc(sizeof(float) * (size_t)nx);
            float *bias = malloc(sizeof(float) * (size_t)ldy), *yt = malloc(sizeof(float) * (size_t)(nc * ldy));
            assert_true(wp && x && bias && yt);
            for (int64_t i = 0; i < nb * k * blk; i++) {
                wp[i] = frand(&seed);
            }
            for (int64_t i = 0; i < nx; i++) {
                x[i] = frand(&seed);
            }
            for (int64_t i = 0; i < ldy; i++) {
                bias[i] = frand(&seed);
            }
            f(wp, k, 0, nb, x, ldc, nc, bias, yt, ldy);
            for (int64_t c = 0; c < nc; c++) {
                for (int64_t o = 0; o < ldy; o++) {
                    double want = bias[o], mag = fabs(want);
                    for (int64_t i = 0; i < k; i++) {
                        double v = (double)wp[(o / blk * k + i) * blk + o % blk] * x[c * ldc + i];
                        want += v;
                        mag += fabs(v);
                    }
                    if (!(fabs(yt[c * ldy + o] - want) <= 1e-6 * mag + 1e-6)) {
                        fail_msg("%s ldc %lld cols %lld: y[%lld][%lld] %.9g, want %.9g", oa_kisa_tier_name(tiers[t]),
                                 (long long)ldc, (long long)nc, (long long)c, (long long)o, (double)yt[c * ldy + o],
                                 want);
                    }
                }
            }
            free(wp);
            free(x);
            free(bias);
            free(yt);
        }
        printf("  checked: conv GEMV %s, overlapping columns\n", oa_kisa_tier_name(tiers[t]));
    }
}

/* Output size of one spatial dim (pb / pr: the end pads). */
static int64_t out_dim(int64_t i, int64_t k, int64_t s, int64_t d, int64_t p0, int64_t p1)
{
    return (i + p0 + p1 - d * (k - 1) - 1) / s + 1;
}

/* Runs shape sh (end pads pb, pr) through create/run at 1 and 2 threads against a direct convolution in double;
 * returns false if the path declined the shape. */
static bool run_shape(const oa_kcgemv_shape *sh0, int64_t pb, int64_t pr, bool with_bias, uint64_t seed)
{
    oa_kcgemv_shape sh = *sh0;
    sh.oh = out_dim(sh.ih, sh.kh, sh.sh, sh.dh, sh.pt, pb);
    sh.ow = out_dim(sh.iw, sh.kw, sh.sw, sh.dw, sh.pl, pr);
    const int64_t k = sh.ic * sh.kh * sh.kw, nx = sh.n * sh.ic * sh.ih * sh.iw, ny = sh.n * sh.oc * sh.oh * sh.ow;
    float *x = malloc(sizeof(float) * (size_t)nx), *w = malloc(sizeof(float) * (size_t)(sh.oc * k));
    float *b = malloc(sizeof(float) * (size_t)sh.oc), *y = malloc(sizeof(float) * (size_t)ny);
    double *ref = calloc((size_t)ny, sizeof(double)), *mag = calloc((size_t)ny, sizeof(double));
    assert_true(x && w && b && y && ref && mag);
    for (int64_t i = 0; i < nx; i++) {
        x[i] = frand(&seed);
    }
    for (int64_t i = 0; i < sh.oc * k; i++) {
        w[i] = frand(&seed);
    }
    for (int64_t i = 0; i < sh.oc; i++) {
        b[i] = frand(&seed);
    }
    for (int64_t n = 0; n < sh.n; n++) {
        for (int64_t o = 0; o < sh.oc; o++) {
            for (int64_t oh = 0; oh < sh.oh; oh++) {
                for (int64_t ow = 0; ow < sh.ow; ow++) {
                    double acc = with_bias ? b[o] : 0.0, m = fabs(acc);
                    for (int64_t ci = 0; ci < sh.ic; ci++) {
                        for (int64_t kh = 0; kh < sh.kh; kh++) {
                            int64_t ih = oh * sh.sh - sh.pt + kh * sh.dh;
                            for (int64_t kw = 0; kw < sh.kw; kw++) {
                                int64_t iw = ow * sh.sw - sh.pl + kw * sh.dw;
                                if (ih < 0 || ih >= sh.ih || iw < 0 || iw >= sh.iw) {
                                    continue;
                                }
                                double v = (double)w[((o * sh.ic + ci) * sh.kh + kh) * sh.kw + kw] *
                                           x[((n * sh.ic + ci) * sh.ih + ih) * sh.iw + iw];
                                acc += v;
                                m += fabs(v);
                            }
                        }
                    }
                    int64_t yi = ((n * sh.oc + o) * sh.oh + oh) * sh.ow + ow;
                    ref[yi] = acc;
                    mag[yi] = m;
                }
            }
        }
    }
    oa_kcgemv *c = NULL;
    size_t ws_size = 0;
    const char *impl = NULL;
    assert_int_equal(oa_kcgemv_create(&sh, w, with_bias ? b : NULL, &c, &ws_size, &impl), OA_OK);
    free(w); /* the plan owns its packed copy */
    bool taken = c != NULL;
    if (taken) {
        assert_true(strncmp(impl, "gemv-", 5) == 0);
        /* a workspace of NaNs: every column element (padding included) must be written before it is read */
        float *ws = malloc(ws_size);
        assert_non_null(ws);
        for (int thr = 1; thr <= 2; thr++) {
            memset(ws, 0xff, ws_size);
            for (int64_t i = 0; i < ny; i++) {
                y[i] = NAN;
            }
            oa_kcgemv_run(c, x, NULL, y, ws, kt_pool(thr));
            int fails = 0;
            for (int64_t i = 0; i < ny; i++) {
                if (!(fabs(y[i] - ref[i]) <= 1e-6 * mag[i] + 1e-6) && fails++ < 10) {
                    printf("  n%lld ic%lld %lldx%lld oc%lld k%lldx%lld s%lld,%lld d%lld,%lld p%lld,%lld thr%d: "
                           "y[%lld] %.9g, want %.9g\n",
                           (long long)sh.n, (long long)sh.ic, (long long)sh.ih, (long long)sh.iw, (long long)sh.oc,
                           (long long)sh.kh, (long long)sh.kw, (long long)sh.sh, (long long)sh.sw, (long long)sh.dh,
                           (long long)sh.dw, (long long)sh.pt, (long long)sh.pl, thr, (long long)i, (double)y[i],
                           ref[i]);
                }
            }
            assert_int_equal(fails, 0);
        }
        /* y += conv(x) in place: add aliases y, holding a residual r */
        for (int64_t i = 0; i < ny; i++) {
            y[i] = (float)((i % 7) - 3) * 0.25f;
        }
        oa_kcgemv_run(c, x, y, y, ws, NULL);
        int fails = 0;
        for (int64_t i = 0; i < ny; i++) {
            double want = ref[i] + (double)((i % 7) - 3) * 0.25;
            if (!(fabs(y[i] - want) <= 1e-6 * (mag[i] + 1.0) + 1e-6) && fails++ < 10) {
                printf("  in-place add: y[%lld] %.9g, want %.9g\n", (long long)i, (double)y[i], want);
            }
        }
        assert_int_equal(fails, 0);
        free(ws);
        oa_kcgemv_destroy(c);
    }
    free(x), free(b), free(y), free(ref), free(mag);
    return taken;
}

static void test_cgemv_conv_shapes(void **state)
{
    (void)state;
    int64_t blk;
    bool has = oa_kcgemv_for(oa_kisa_tier_used(), &blk) != NULL;
    /* n, ic, ih, iw, oc, (oh, ow computed), kh, kw, sh, sw, dh, dw, pt, pl; then pb, pr */
    static const struct {
        oa_kcgemv_shape s;
        int64_t pb, pr;
    } cases[] = {
        {{1, 1, 1, 640, 258, 0, 0, 1, 256, 1, 128, 1, 1, 0, 0}, 0, 0},  /* silero's STFT: 4 frames */
        {{1, 129, 1, 4, 128, 0, 0, 1, 3, 1, 1, 1, 1, 0, 1}, 0, 1},    /* its first encoder conv */
        {{1, 128, 1, 4, 64, 0, 0, 1, 3, 1, 2, 1, 1, 0, 1}, 0, 1},     /* strided */
        {{1, 128, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0}, 0, 0},      /* the decoder's 128 -> 1 */
        {{2, 5, 3, 3, 7, 0, 0, 3, 3, 2, 2, 1, 1, 1, 1}, 1, 1},        /* 2-D, two images, 8 positions */
        {{1, 3, 1, 10, 37, 0, 0, 1, 3, 1, 4, 1, 3, 0, 2}, 0, 2},      /* dilated, padding on both sides */
        {{1, 2, 4, 4, 20, 0, 0, 3, 2, 3, 3, 2, 1, 2, 0}, 1, 0},       /* rows read entirely from padding */
        {{1, 4, 2, 2, 9, 0, 0, 5, 5, 1, 1, 1, 1, 2, 2}, 2, 2},        /* kernel larger than the input */
        {{1, 300, 1, 1, 1000, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0}, 0, 0},   /* a classifier head (splits at 2 threads) */
        {{2, 3, 1, 7, 10, 0, 0, 1, 4, 1, 2, 1, 1, 0, 1}, 0, 2},       /* 1-D rows, two images, pads both sides */
        {{1, 1, 1, 20, 5, 0, 0, 1, 6, 1, 4, 1, 1, 0, 2}, 0, 2},       /* 1-D, one channel, padded: transposed */
        {{1, 1, 1, 21, 17, 0, 0, 1, 6, 1, 4, 1, 1, 0, 0}, 0, 0},      /* 1-D, one channel inside x: read in place */
        {{1, 6, 2, 3, 9, 0, 0, 1, 3, 2, 1, 1, 1, 1, 1}, 1, 1},        /* kh 1 with a top pad (gathered) */
    };
    for (size_t i = 0; i < OA_ARRAY_SIZE(cases); i++) {
        bool taken = run_shape(&cases[i].s, cases[i].pb, cases[i].pr, i % 2 == 0, 900 + i);
        assert_int_equal(taken, has);
    }
    if (!has) {
        printf("  skipped: conv GEMV path (tier %s has no kernel; the conv takes its other paths)\n",
               oa_kisa_tier_name(oa_kisa_tier_used()));
    }
    /* declined: more than OA_KCGEMV_MAX_COLS positions; OPENACL_CONV_GEMV=0 */
    oa_kcgemv_shape many = {1, 2, 1, 9, 3, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0};
    assert_false(run_shape(&many, 0, 0, true, 5));
    setenv("OPENACL_CONV_GEMV", "0", 1);
    assert_false(run_shape(&cases[1].s, cases[1].pb, cases[1].pr, true, 6));
    unsetenv("OPENACL_CONV_GEMV");
}

static void test_cgemv_bad_args(void **state)
{
    (void)state;
    oa_kcgemv_shape ok = {1, 2, 1, 4, 3, 1, 2, 1, 3, 1, 1, 1, 1, 0, 0};
    float w[18] = {0};
    oa_kcgemv *c = (oa_kcgemv *)(uintptr_t)1;
    size_t ws = 0;
    const char *impl = NULL;
    kt_expect_fail(oa_kcgemv_create(NULL, w, NULL, &c, &ws, &impl), OA_E_PARAM, "NULL shape");
    kt_expect_fail(oa_kcgemv_create(&ok, NULL, NULL, &c, &ws, &impl), OA_E_PARAM, "NULL filter");
    kt_expect_fail(oa_kcgemv_create(&ok, w, NULL, NULL, &ws, &impl), OA_E_PARAM, "NULL out");
    kt_expect_fail(oa_kcgemv_create(&ok, w, NULL, &c, NULL, &impl), OA_E_PARAM, "NULL ws size");
    kt_expect_fail(oa_kcgemv_create(&ok, w, NULL, &c, &ws, NULL), OA_E_PARAM, "NULL impl");
    oa_kcgemv_shape neg = ok;
    neg.ic = -1;
    kt_expect_fail(oa_kcgemv_create(&neg, w, NULL, &c, &ws, &impl), OA_E_PARAM, "negative channels");
    assert_null(c);
    oa_kcgemv_shape s0 = ok;
    s0.sw = 0;
    kt_expect_fail(oa_kcgemv_create(&s0, w, NULL, &c, &ws, &impl), OA_E_PARAM, "zero stride");
    oa_kcgemv_shape k0 = ok;
    k0.kw = 0;
    kt_expect_fail(oa_kcgemv_create(&k0, w, NULL, &c, &ws, &impl), OA_E_PARAM, "zero kernel");
    /* a product of dims that overflows is declined, not wrapped */
    oa_kcgemv_shape big = ok;
    big.ic = INT64_MAX / 2;
    assert_int_equal(oa_kcgemv_create(&big, w, NULL, &c, &ws, &impl), OA_OK);
    assert_null(c);
    oa_kcgemv_destroy(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cgemv_kernels),
        cmocka_unit_test(test_cgemv_kernels_overlapping),
        cmocka_unit_test(test_cgemv_conv_shapes),
        cmocka_unit_test(test_cgemv_bad_args),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

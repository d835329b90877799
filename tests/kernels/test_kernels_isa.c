/*
 * ISA detection and dispatch (docs/isa.md): tier names and parsing, the
 * tier of a feature set and the masking a cap applies, the process' own
 * choice against the environment (OPENACL_ISA / OA_KERNELS_ISA, which ctest
 * sets to every tier name and to a bogus value) and against /proc/cpuinfo,
 * and every per-ISA elementwise table the CPU can run checked entry by entry
 * against the baseline table (libm), and the NCHW <-> NCHWc block moves of
 * every tier against a plain formula, and each GEMV against double precision.
 * Tables the CPU cannot run are reported
 * as skipped.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel_internal.h"
#include "kt_harness.h"

static void test_isa_parse(void **state)
{
    (void)state;
    for (int t = 0; t < OA_KISA_TIER_COUNT; t++) {
        const char *n = oa_kisa_tier_name((oa_kisa_tier)t);
        assert_int_equal(oa_kisa_parse(n), t);
    }
    assert_int_equal(oa_kisa_parse("sse2"), OA_KISA_REF);
    assert_int_equal(oa_kisa_parse("AVX2"), -1); /* names are lower case */
    assert_int_equal(oa_kisa_parse("avx512f"), -1);
    assert_int_equal(oa_kisa_parse(""), -1);
    assert_int_equal(oa_kisa_parse(NULL), -1);
    assert_string_equal(oa_kisa_tier_name(OA_KISA_TIER_COUNT), "unknown");
    assert_string_equal(oa_kisa_tier_name((oa_kisa_tier)-1), "unknown");
}

static void test_isa_tier_of_and_mask(void **state)
{
    (void)state;
    oa_kcpu none = {0};
    assert_int_equal(oa_kisa_tier_of(&none), OA_KISA_REF);
    oa_kcpu avx2 = {.avx2 = true, .fma = true, .f16c = true};
    assert_int_equal(oa_kisa_tier_of(&avx2), OA_KISA_AVX2);
    oa_kcpu no_fma = {.avx2 = true};
    assert_int_equal(oa_kisa_tier_of(&no_fma), OA_KISA_REF);
    /* AVX-512F without BW/VL stays at AVX2 */
    oa_kcpu knl = {.avx2 = true, .fma = true, .avx512f = true};
    assert_int_equal(oa_kisa_tier_of(&knl), OA_KISA_AVX2);
    /* Zen 4: F/BW/VL/VNNI/BF16, no FP16, no AMX */
    oa_kcpu zen4 = {.avx2 = true, .fma = true, .f16c = true, .avx512f = true, .avx512bw = true,
                    .avx512vl = true, .avx512dq = true, .avx512_vnni = true, .avx512_bf16 = true};
    assert_int_equal(oa_kisa_tier_of(&zen4), OA_KISA_AVX512_BF16);
    /* Sapphire Rapids: everything */
    oa_kcpu spr = zen4;
    spr.avx512_fp16 = spr.amx_tile = spr.amx_bf16 = spr.amx_int8 = true;
    assert_int_equal(oa_kisa_tier_of(&spr), OA_KISA_AMX);
    for (int t = 0; t < OA_KISA_TIER_COUNT; t++) {
        oa_kcpu m;
        oa_kisa_mask(&spr, (oa_kisa_tier)t, &m);
        assert_int_equal(oa_kisa_tier_of(&m), t);
        oa_kisa_mask(&zen4, (oa_kisa_tier)t, &m);
        int want = t < OA_KISA_AVX512_BF16 ? t : OA_KISA_AVX512_BF16;
        assert_int_equal(oa_kisa_tier_of(&m), want);
        /* a cap never adds a feature */
        assert_true(!m.avx512_fp16 && !m.amx_tile);
    }
    oa_kcpu m;
    oa_kisa_mask(&spr, OA_KISA_AVX2, &m);
    assert_true(m.avx2 && m.fma && !m.avx512f && !m.avx512bw && !m.avx512_vnni && !m.avx512_bf16);
    oa_kisa_mask(&spr, OA_KISA_REF, &m);
    assert_true(!m.avx2 && !m.fma && !m.f16c);
}

/* The flags line of /proc/cpuinfo (an oracle independent of CPUID), or false. */
static bool cpuinfo_flags(char *buf, size_t cap)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL) {
        return false;
    }
    bool found = false;
    while (fgets(buf, (int)cap, f) != NULL) {
        if (strncmp(buf, "flags", 5) == 0) {
            found = true;
            break;
        }
    }
    fclose(f);
    return found;
}
static bool has_flag(const char *flags, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(flags, name); p != NULL; p = strstr(p + 1, name)) {
        if ((p == flags || p[-1] == ' ' || p[-1] == ':') && (p[n] == ' ' || p[n] == '\n' || p[n] == '\0')) {
            return true;
        }
    }
    return false;
}

static void test_isa_detection_vs_cpuinfo(void **state)
{
    (void)state;
    static char flags[16384];
    if (!cpuinfo_flags(flags, sizeof(flags))) {
        printf("  skipped: no /proc/cpuinfo flags line\n");
        return;
    }
    const oa_kcpu *c = oa_kernels_cpu();
    assert_int_equal(c->avx2, has_flag(flags, "avx2"));
    assert_int_equal(c->fma, has_flag(flags, "fma"));
    assert_int_equal(c->avx512f, has_flag(flags, "avx512f"));
    assert_int_equal(c->avx512bw, has_flag(flags, "avx512bw"));
    assert_int_equal(c->avx512vl, has_flag(flags, "avx512vl"));
    assert_int_equal(c->avx512_vnni, has_flag(flags, "avx512_vnni"));
    assert_int_equal(c->avx512_bf16, has_flag(flags, "avx512_bf16"));
    assert_int_equal(c->avx512_fp16, has_flag(flags, "avx512_fp16"));
    if (c->amx_tile) { /* the reverse needs the OS' permission too */
        assert_true(has_flag(flags, "amx_tile"));
    }
    printf("  CPU tier: %s\n", oa_kisa_tier_name(oa_kisa_detected()));
}

static void test_isa_env_choice(void **state)
{
    (void)state;
    const char *want = getenv("OPENACL_ISA");
    if (want == NULL || want[0] == '\0') {
        want = getenv("OA_KERNELS_ISA");
    }
    oa_kisa_tier det = oa_kisa_detected(), expect = det;
    if (want != NULL && want[0] != '\0') {
        int t = oa_kisa_parse(want);
        if (t >= 0 && (oa_kisa_tier)t <= det) {
            expect = (oa_kisa_tier)t;
        }
        printf("  ISA requested \"%s\": %s (detected %s)\n", want,
               t < 0 ? "unknown, detected tier kept"
                     : ((oa_kisa_tier)t > det ? "above the CPU, detected tier kept" : "used"),
               oa_kisa_tier_name(det));
    }
    assert_int_equal(oa_kisa_tier_used(), expect);
    assert_string_equal(oa_kernels_isa(), oa_kisa_tier_name(expect));
    oa_kcpu m;
    oa_kisa_mask(oa_kernels_cpu(), expect, &m);
    assert_memory_equal(&m, oa_kisa_features(), sizeof(m));
    assert_ptr_equal(oa_kew(), oa_kew_for(expect));
    assert_int_equal(oa_kisa_level(), expect >= OA_KISA_AVX512 ? 2 : (int)expect);
    if (getenv("OA_KERNELS_BLOCK") == NULL) {
        assert_int_equal(oa_kernels_block(), expect >= OA_KISA_AVX512 ? 16 : 8);
    }
}

/* ---- every elementwise table against the baseline one ---- */

static int g_fail;
static void close_to(const char *what, int idx, size_t i, float got, float ref, float tol)
{
    bool ok = (isnan(got) && isnan(ref)) || got == ref ||
              (isfinite(ref) && fabsf(got - ref) <= tol * fmaxf(1.0f, fabsf(ref)));
    if (!ok && g_fail++ < 20) {
        printf("  %s[%d] element %zu: %.9g, baseline %.9g\n", what, idx, i, (double)got, (double)ref);
    }
}

#define NX 1100
static const size_t k_lens[] = {0, 1, 7, 15, 16, 17, 33, 1037};

static void fill_inputs(float *x, float *b)
{
    static const float special[] = {0.0f, -0.0f, 1e-4f, -1e-4f, 0.5f, -0.5f, 1.0f, -1.0f, 20.0f, -20.0f,
                                    88.5f, -88.5f, 100.0f, -100.0f, INFINITY, -INFINITY, NAN};
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < NX; i++) {
        s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
        double u = (double)((s * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
        x[i] = (float)(u * 12.0 - 6.0);
        b[i] = (float)(u * 5.0 + 0.25); /* positive, no zero: divisions, pow */
        if (i % 3 == 1) {
            b[i] = -b[i] * 0.5f;
        }
    }
    for (size_t k = 0; k < sizeof(special) / sizeof(special[0]); k++) {
        x[5 + 31 * k] = special[k];
    }
}

static void check_table(const oa_kew_table *t, const oa_kew_table *r)
{
    static float x[NX], b[NX], y0[NX], y1[NX];
    fill_inputs(x, b);
    const float p[5] = {0.2f, 0.5f, 1.0f, 1.0f, 0.0f};
    const float tol = 2e-5f;
    for (size_t li = 0; li < sizeof(k_lens) / sizeof(k_lens[0]); li++) {
        size_t n = k_lens[li];
        const float *xs = x + 1; /* unaligned on purpose */
        for (int u = 0; u < OA_KUN_COUNT; u++) {
            assert_true((t->unary[u] == NULL) == (r->unary[u] == NULL));
            if (t->unary[u] == NULL) {
                continue;
            }
            memset(y0, 0x7f, sizeof(y0));
            memset(y1, 0x7f, sizeof(y1));
            r->unary[u](xs, y0, n, p);
            t->unary[u](xs, y1, n, p);
            for (size_t i = 0; i < n; i++) {
                close_to("unary", u, i, y1[i], y0[i], tol);
            }
            assert_memory_equal(y0 + n, y1 + n, (NX - n) * sizeof(float)); /* nothing written past n */
        }
        for (int o = 0; o <= OA_KBIN_PRELU; o++) {
            for (int mode = 0; mode < 3; mode++) {
                assert_true((t->binary[o][mode] == NULL) == (r->binary[o][mode] == NULL));
                if (t->binary[o][mode] == NULL) {
                    continue;
                }
                r->binary[o][mode](xs, b + 2, y0, n);
                t->binary[o][mode](xs, b + 2, y1, n);
                for (size_t i = 0; i < n; i++) {
                    close_to("binary", o * 3 + mode, i, y1[i], y0[i], tol);
                }
            }
        }
        for (int a = 0; a < OA_KACT_COUNT; a++) {
            memcpy(y0, xs, n * sizeof(float));
            memcpy(y1, xs, n * sizeof(float));
            float al = a == OA_KACT_CLIP ? -1.0f : 0.2f, be = a == OA_KACT_CLIP ? 2.0f : 0.5f;
            r->act[a](y0, n, al, be);
            t->act[a](y1, n, al, be);
            for (size_t i = 0; i < n; i++) {
                close_to("act", a, i, y1[i], y0[i], tol);
            }
        }
        r->scale_shift(xs, y0, n, 1.5f, -0.25f);
        t->scale_shift(xs, y1, n, 1.5f, -0.25f);
        for (size_t i = 0; i < n; i++) {
            close_to("scale_shift", 0, i, y1[i], y0[i], 1e-6f);
        }
        static const int blks[] = {8, 16, 5};
        for (int k = 0; k < 3; k++) {
            size_t rows = n / (size_t)blks[k];
            r->scale_shift_blk(b, y0, rows, b + 40, x + 60, blks[k]);
            t->scale_shift_blk(b, y1, rows, b + 40, x + 60, blks[k]);
            for (size_t i = 0; i < rows * (size_t)blks[k]; i++) {
                close_to("scale_shift_blk", blks[k], i, y1[i], y0[i], 1e-6f);
            }
        }
        /* reductions over finite data */
        const float *bs = b + 3;
        double abs_sum = 0;
        for (size_t i = 0; i < n; i++) {
            abs_sum += fabs(bs[i]);
        }
        float s0 = r->sum(bs, n), s1 = t->sum(bs, n);
        if (fabs((double)s1 - (double)s0) > 1e-6 * abs_sum + 1e-6) {
            g_fail++;
            printf("  sum n=%zu: %.9g, baseline %.9g\n", n, (double)s1, (double)s0);
        }
        assert_true(r->max(bs, n) == t->max(bs, n));
        /* NaNs are skipped by max, at any lane and in the tail; all NaN gives -inf */
        memcpy(y0, bs, n * sizeof(float));
        float m_finite = -INFINITY;
        for (size_t i = 0; i < n; i++) {
            if (i % 3 == 1 || i + 1 == n) {
                y0[i] = NAN;
            } else {
                m_finite = y0[i] > m_finite ? y0[i] : m_finite;
            }
        }
        assert_true(t->max(y0, n) == m_finite && r->max(y0, n) == m_finite);
        for (size_t at = 0; at < n && at < 64; at++) { /* the largest value in every lane, NaNs after it */
            if (at % 3 == 1 || at + 1 == n) {
                continue;
            }
            float keep = y0[at];
            y0[at] = 1e30f;
            assert_true(t->max(y0, n) == 1e30f);
            y0[at] = keep;
        }
        for (size_t i = 0; i < n; i++) {
            y0[i] = NAN;
        }
        assert_true(t->max(y0, n) == -INFINITY);
        float e0 = r->exp_sub_sum(bs, y0, n, 2.0f), e1 = t->exp_sub_sum(bs, y1, n, 2.0f);
        close_to("exp_sub_sum", 0, n, e1, e0, tol);
        for (size_t i = 0; i < n; i++) {
            close_to("exp_sub", 0, i, y1[i], y0[i], tol);
        }
        r->scale(y0, n, 0.3f);
        t->scale(y1, n, 0.3f);
        for (size_t i = 0; i < n; i++) {
            close_to("scale", 0, i, y1[i], y0[i], tol);
        }
        for (int with_b = 0; with_b < 2 && n > 0; with_b++) {
            float m0, v0, m1, v1;
            r->layernorm_row(bs, y0, n, b + 20, with_b ? x + 40 : NULL, 1e-5f, &m0, &v0);
            t->layernorm_row(bs, y1, n, b + 20, with_b ? x + 40 : NULL, 1e-5f, &m1, &v1);
            close_to("layernorm mean", with_b, n, m1, m0, tol);
            close_to("layernorm var", with_b, n, v1, v0, tol);
            for (size_t i = 0; i < n; i++) {
                close_to("layernorm", with_b, i, y1[i], y0[i], tol);
            }
        }
    }
}

/* Odd functions near 0, where the absolute tolerance above says nothing: tanh and erf (and the tanh act) within
 * 1e-5 of libm relative to the value, down to 1e-30 (a formula through 1 - e^(-2|x|) gave tanh(1e-6) 1.3 % high). */
static void check_small_args(const oa_kew_table *t)
{
    static const float xs[] = {1e-30f, -1e-20f, 1e-6f, -3e-5f, 1e-3f, -0.01f, 0.1f, -0.3f, 0.6f, -0.7f};
    const size_t n = sizeof(xs) / sizeof(xs[0]);
    float y[16], a[16];
    const float p[5] = {0};
    for (int which = 0; which < 3; which++) {
        memcpy(a, xs, sizeof(xs));
        if (which == 0) {
            t->unary[OA_KUN_TANH](xs, y, n, p);
        } else if (which == 1) {
            t->unary[OA_KUN_ERF](xs, y, n, p);
        } else {
            memcpy(y, xs, sizeof(xs));
            t->act[OA_KACT_TANH](y, n, 0.0f, 0.0f);
        }
        for (size_t i = 0; i < n; i++) {
            const double ref = which == 1 ? erf((double)a[i]) : tanh((double)a[i]);
            if (fabs((double)y[i] - ref) > 1e-5 * fabs(ref) && g_fail++ < 20) {
                printf("  %s(%.9g): %.9g, libm %.9g\n", which == 1 ? "erf" : "tanh", (double)a[i], (double)y[i], ref);
            }
        }
    }
}

static void test_ew_tables(void **state)
{
    (void)state;
    oa_kisa_tier det = oa_kisa_detected();
    const oa_kew_table *ref = oa_kew_for(OA_KISA_REF);
    static const oa_kisa_tier tiers[] = {OA_KISA_AVX2, OA_KISA_AVX512};
    for (size_t k = 0; k < sizeof(tiers) / sizeof(tiers[0]); k++) {
        if (det < tiers[k]) {
            printf("  skipped: elementwise table %s (this CPU offers %s)\n", oa_kisa_tier_name(tiers[k]),
                   oa_kisa_tier_name(det));
            continue;
        }
        g_fail = 0;
        check_table(oa_kew_for(tiers[k]), ref);
        check_small_args(oa_kew_for(tiers[k]));
        printf("  checked: elementwise table %s against the baseline (%d mismatches)\n",
               oa_kisa_tier_name(tiers[k]), g_fail);
        assert_int_equal(g_fail, 0);
    }
    /* the tiers above AVX-512 share its elementwise table (no wider vectors) */
    for (int t = OA_KISA_AVX512; t < OA_KISA_TIER_COUNT; t++) {
        assert_ptr_equal(oa_kew_for((oa_kisa_tier)t), oa_kew_for(OA_KISA_AVX512));
    }
}

/* ---- NCHW <-> NCHWc block moves of every tier against a plain formula ---- */

/* y (hw pixels of blk floats, 16 guard floats after) against the block move of x (nc channel rows of hw) */
static void check_packed(const char *what, oa_kisa_tier tier, const float *x, int64_t nc, int64_t hw, const float *y,
                         int64_t blk)
{
    for (int64_t p = 0; p < hw; p++) {
        for (int64_t c = 0; c < blk; c++) {
            float want = c < nc ? x[c * hw + p] : 0.0f;
            if (y[p * blk + c] != want && g_fail++ < 20) {
                printf("  %s %s blk %lld nc %lld hw %lld: pixel %lld channel %lld %g, want %g\n", what,
                       oa_kisa_tier_name(tier), (long long)blk, (long long)nc, (long long)hw, (long long)p, (long long)c,
                       (double)y[p * blk + c], (double)want);
            }
        }
    }
    for (int64_t i = blk * hw; i < blk * hw + 16; i++) {
        assert_true(isnan(y[i])); /* nothing written past the block */
    }
}

static void check_reorders(oa_kisa_tier tier)
{
    oa_kblk_pack_fn pack = oa_kblk_pack_for(tier);
    oa_kblk_unpack_fn unpack = oa_kblk_unpack_for(tier);
    static const int64_t hws[] = {1, 7, 8, 9, 16, 63, 100};
    static const int64_t blks[] = {8, 16, 4};
    for (size_t bi = 0; bi < sizeof(blks) / sizeof(blks[0]); bi++) {
        const int64_t blk = blks[bi];
        for (int64_t nc = 1; nc <= blk; nc++) {
            for (size_t hi = 0; hi < sizeof(hws) / sizeof(hws[0]); hi++) {
                const int64_t hw = hws[hi];
                const size_t nx = (size_t)(nc * hw), ny = (size_t)(blk * hw);
                float *x = malloc((nx + 16) * sizeof(float)), *add = malloc(nx * sizeof(float));
                float *y = malloc((ny + 16) * sizeof(float)), *x2 = malloc((nx + 16) * sizeof(float));
                assert_non_null(x);
                assert_non_null(add);
                assert_non_null(y);
                assert_non_null(x2);
                for (size_t i = 0; i < nx; i++) {
                    x[i] = (float)i * 0.5f - 3.0f;
                    add[i] = (float)(i % 7) - 2.5f;
                }
                for (size_t i = 0; i < ny + 16; i++) {
                    y[i] = NAN;
                }
                pack(x, nc, hw, y, blk);
                check_packed("pack", tier, x, nc, hw, y, blk);
                /* from rows of a longer stride (a band of NCHW planes): channel c's pixels at x + c * (hw + 5) */
                const int64_t xs = hw + 5;
                float *xw = malloc((size_t)(nc * xs) * sizeof(float));
                assert_non_null(xw);
                for (int64_t i = 0; i < nc * xs; i++) {
                    xw[i] = i % xs < hw ? x[i / xs * hw + i % xs] : NAN; /* the gaps are never read */
                }
                for (size_t i = 0; i < ny + 16; i++) {
                    y[i] = NAN;
                }
                oa_kblk_pack_rows_for(tier)(xw, nc, hw, xs, y, blk);
                check_packed("pack rows", tier, x, nc, hw, y, blk);
                free(xw);
                for (int with_add = 0; with_add < 2; with_add++) {
                    for (size_t i = 0; i < nx + 16; i++) {
                        x2[i] = NAN;
                    }
                    unpack(y, nc, hw, x2, blk, with_add ? add : NULL);
                    for (size_t i = 0; i < nx; i++) {
                        float want = x[i] + (with_add ? add[i] : 0.0f);
                        if (x2[i] != want && g_fail++ < 20) {
                            printf("  unpack %s blk %lld nc %lld hw %lld add %d: element %zu %g, want %g\n",
                                   oa_kisa_tier_name(tier), (long long)blk, (long long)nc, (long long)hw,
                                   with_add, i, (double)x2[i], (double)want);
                        }
                    }
                    for (size_t i = nx; i < nx + 16; i++) {
                        assert_true(isnan(x2[i]));
                    }
                }
                free(x);
                free(add);
                free(y);
                free(x2);
            }
        }
    }
}

/* The 2-D transpose of every tier: bit patterns (NaN payloads and all) against the index formula,
 * over sizes on and off the 8x8 tiles and row strides wider than the rows; nothing written
 * outside the transposed cells. */
static void check_t2d(oa_kisa_tier tier)
{
    oa_kt2d_fn t2d = oa_kt2d_for(tier);
    static const int64_t sizes[] = {1, 3, 8, 9, 16, 17, 85};
    for (size_t ri = 0; ri < sizeof(sizes) / sizeof(sizes[0]); ri++) {
        for (size_t ci = 0; ci < sizeof(sizes) / sizeof(sizes[0]); ci++) {
            const int64_t rows = sizes[ri], cols = sizes[ci], xs = cols + 5, ys = rows + 3;
            uint32_t *x = malloc(sizeof(uint32_t) * (size_t)(rows * xs));
            uint32_t *y = malloc(sizeof(uint32_t) * (size_t)(cols * ys));
            assert_non_null(x);
            assert_non_null(y);
            for (int64_t i = 0; i < rows * xs; i++) {
                x[i] = 0x7f800001u + (uint32_t)i * 2654435761u; /* signalling-NaN-like patterns included */
            }
            for (int64_t i = 0; i < cols * ys; i++) {
                y[i] = 0xdeadbeefu;
            }
            t2d(x, xs, rows, cols, y, ys);
            for (int64_t c = 0; c < cols; c++) {
                for (int64_t r = 0; r < ys; r++) {
                    const uint32_t want = r < rows ? x[r * xs + c] : 0xdeadbeefu;
                    if (y[c * ys + r] != want && g_fail++ < 20) {
                        printf("  t2d %s %lldx%lld: y[%lld][%lld] %08x, want %08x\n", oa_kisa_tier_name(tier),
                               (long long)rows, (long long)cols, (long long)c, (long long)r, y[c * ys + r], want);
                    }
                }
            }
            free(x);
            free(y);
        }
    }
}

static void test_reorder_tiers(void **state)
{
    (void)state;
    oa_kisa_tier det = oa_kisa_detected();
    static const oa_kisa_tier tiers[] = {OA_KISA_REF, OA_KISA_AVX2, OA_KISA_AVX512};
    for (size_t k = 0; k < sizeof(tiers) / sizeof(tiers[0]); k++) {
        if (det < tiers[k]) {
            printf("  skipped: block moves %s (this CPU offers %s)\n", oa_kisa_tier_name(tiers[k]),
                   oa_kisa_tier_name(det));
            continue;
        }
        g_fail = 0;
        check_reorders(tiers[k]);
        check_t2d(tiers[k]);
        printf("  checked: block moves and 2-D transpose %s (%d mismatches)\n", oa_kisa_tier_name(tiers[k]), g_fail);
        assert_int_equal(g_fail, 0);
    }
}

/* ---- the GEMV of every tier against a double-precision product ---- */

static void test_gemv_tiers(void **state)
{
    (void)state;
    oa_kisa_tier det = oa_kisa_detected();
    assert_null(oa_kgemv_for(OA_KISA_REF));
    static const oa_kisa_tier tiers[] = {OA_KISA_AVX2, OA_KISA_AVX512};
    static const int64_t rowss[] = {1, 7, 8, 9, 33, 256};
    static const int64_t ks[] = {1, 7, 8, 15, 16, 17, 64, 100};
    for (size_t t = 0; t < sizeof(tiers) / sizeof(tiers[0]); t++) {
        if (det < tiers[t]) {
            printf("  skipped: GEMV %s (this CPU offers %s)\n", oa_kisa_tier_name(tiers[t]), oa_kisa_tier_name(det));
            continue;
        }
        oa_kgemv_fn f = oa_kgemv_for(tiers[t]);
        assert_non_null(f);
        g_fail = 0;
        for (size_t ri = 0; ri < sizeof(rowss) / sizeof(rowss[0]); ri++) {
            for (size_t ki = 0; ki < sizeof(ks) / sizeof(ks[0]); ki++) {
                const int64_t rows = rowss[ri], k = ks[ki];
                /* exact-size buffers so ASan sees any read past the matrix or vector */
                float *A = malloc((size_t)(rows * k) * sizeof(float)), *x = malloc((size_t)k * sizeof(float));
                float *y = malloc((size_t)rows * sizeof(float));
                assert_non_null(A);
                assert_non_null(x);
                assert_non_null(y);
                for (int64_t i = 0; i < rows * k; i++) {
                    A[i] = (float)((i * 37) % 23) / 11.0f - 1.0f;
                }
                for (int64_t i = 0; i < k; i++) {
                    x[i] = (float)((i * 13) % 17) / 8.0f - 1.0f;
                }
                for (int64_t r = 0; r < rows; r++) {
                    y[r] = (float)r * 0.25f;
                }
                f(A, rows, k, x, y);
                for (int64_t r = 0; r < rows; r++) {
                    double want = (double)r * 0.25, mag = fabs(want);
                    for (int64_t i = 0; i < k; i++) {
                        want += (double)A[r * k + i] * (double)x[i];
                        mag += fabs((double)A[r * k + i] * (double)x[i]);
                    }
                    if (fabs((double)y[r] - want) > 1e-6 * mag + 1e-6 && g_fail++ < 20) {
                        printf("  gemv %s rows %lld k %lld: row %lld %.9g, want %.9g\n", oa_kisa_tier_name(tiers[t]),
                               (long long)rows, (long long)k, (long long)r, (double)y[r], want);
                    }
                }
                free(A);
                free(x);
                free(y);
            }
        }
        printf("  checked: GEMV %s against double precision (%d mismatches)\n", oa_kisa_tier_name(tiers[t]), g_fail);
        assert_int_equal(g_fail, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_isa_parse),
        cmocka_unit_test(test_isa_tier_of_and_mask),
        cmocka_unit_test(test_isa_detection_vs_cpuinfo),
        cmocka_unit_test(test_isa_env_choice),
        cmocka_unit_test(test_ew_tables),
        cmocka_unit_test(test_reorder_tiers),
        cmocka_unit_test(test_gemv_tiers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * Conformance: MatMulV2 / BatchMatMulV2 / GEMM — transposes, numpy batch
 * broadcasting, 1-D operands, bias [N] and [M,N], alpha/beta, constant
 * (pre-packed) vs runtime b, fused post-ops (act, residual add), shapes
 * from BERT and small M. Reference: double triple loop.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel_internal.h" /* oa_kgemv_for: whether the tier has the GEMV */
#include "kernels/onednn.h"          /* oa_kernels_slices: the streamed path needs groups per slice */
#include "kt_harness.h"

/* The streamed product's implementation name at the tier in use (the AVX-512 tile or its AVX2 twin). */
static const char *pw_impl(bool batch)
{
    if (oa_kisa_level() >= 2) {
        return batch ? "pw-batch-avx512" : "pw-avx512";
    }
    return batch ? "pw-batch-avx2" : "pw-avx2";
}

typedef struct mm_case {
    int ra, rb;
    int64_t a[4], b[4];
    bool ta, tb;
    int bias; /* 0 none, 1 [N], 2 [M,N] */
    bool bconst;
    float alpha, beta;
    int post; /* 0 none, 1 relu, 2 gelu, 3 add, 4 add+relu */
} mm_case;

static void run_case(const mm_case *c, int thr, uint64_t seed)
{
    oa_ktensor ad = kt_desc(OA_KDT_F32, c->ra, c->a), bd = kt_desc(OA_KDT_F32, c->rb, c->b);
    kt_buf a = kt_alloc(ad), b = kt_alloc(bd);
    kt_fill(&a, seed, -1, 1);
    kt_fill(&b, seed + 1, -1, 1);
    oa_kmatmul_params p;
    memset(&p, 0, sizeof p);
    p.transpose_a = c->ta;
    p.transpose_b = c->tb;
    p.alpha = c->alpha;
    p.beta = c->beta;
    if (c->post == 1 || c->post == 2) {
        p.post.n = 1;
        p.post.ops[0].kind = OA_KPOST_ACT;
        p.post.ops[0].act = c->post == 1 ? OA_KACT_RELU : OA_KACT_GELU_ERF;
    } else if (c->post >= 3) {
        p.post.n = c->post == 4 ? 2 : 1;
        p.post.ops[0].kind = OA_KPOST_ADD;
        p.post.ops[1].kind = OA_KPOST_ACT;
        p.post.ops[1].act = OA_KACT_RELU;
    }
    /* geometry, independently */
    int64_t M = c->ra == 1 ? 1 : c->a[c->ra - (c->ta ? 1 : 2)];
    int64_t K = c->ra == 1 ? c->a[0] : c->a[c->ra - (c->ta ? 2 : 1)];
    int64_t N = c->rb == 1 ? 1 : c->b[c->rb - (c->tb ? 2 : 1)];
    int br = (c->ra > 2 ? c->ra - 2 : 0) > (c->rb > 2 ? c->rb - 2 : 0) ? c->ra - 2 : (c->rb > 2 ? c->rb - 2 : 0);
    int64_t bdim[4], nb = 1;
    oa_ktensor yd;
    memset(&yd, 0, sizeof yd);
    yd.dtype = OA_KDT_F32;
    for (int i = 0; i < br; i++) {
        int ia = i - (br - (c->ra - 2)), ib = i - (br - (c->rb - 2));
        int64_t da = (c->ra > 2 && ia >= 0) ? c->a[ia] : 1, db = (c->rb > 2 && ib >= 0) ? c->b[ib] : 1;
        bdim[i] = da > db ? da : db;
        nb *= bdim[i];
        yd.dims[yd.rank++] = bdim[i];
    }
    if (c->ra >= 2) {
        yd.dims[yd.rank++] = M;
    }
    if (c->rb >= 2) {
        yd.dims[yd.rank++] = N;
    }
    kt_buf bias = kt_alloc(c->bias == 2 ? KT_D(OA_KDT_F32, M, N) : KT_D(OA_KDT_F32, N));
    kt_fill(&bias, seed + 2, -1, 1);
    kt_buf res = kt_alloc(yd);
    kt_fill(&res, seed + 3, -1, 1);
    double *ref = calloc((size_t)(nb * M * N), sizeof(double));
    double al = c->alpha == 0 && c->beta == 0 ? 1 : c->alpha, be = c->alpha == 0 && c->beta == 0 ? 1 : c->beta;
    for (int64_t bi = 0; bi < nb; bi++) {
        int64_t idx[4], r = bi;
        for (int i = br - 1; i >= 0; i--) {
            idx[i] = r % bdim[i];
            r /= bdim[i];
        }
        int64_t oa = 0, ob = 0;
        for (int i = 0; i < c->ra - 2; i++) {
            int yi = i + (br - (c->ra - 2));
            oa = oa * c->a[i] + (c->a[i] == 1 ? 0 : idx[yi]);
        }
        for (int i = 0; i < c->rb - 2; i++) {
            int yi = i + (br - (c->rb - 2));
            ob = ob * c->b[i] + (c->b[i] == 1 ? 0 : idx[yi]);
        }
        oa *= M * K;
        ob *= K * N;
        for (int64_t m = 0; m < M; m++) {
            for (int64_t n = 0; n < N; n++) {
                double acc = 0;
                for (int64_t k = 0; k < K; k++) {
                    double av = kt_get(&a, oa + (c->ta ? k * M + m : m * K + k));
                    double bv = kt_get(&b, ob + (c->tb ? n * K + k : k * N + n));
                    acc += av * bv;
                }
                acc *= al;
                if (c->bias) {
                    acc += be * kt_get(&bias, c->bias == 2 ? m * N + n : n);
                }
                int64_t yi = (bi * M + m) * N + n;
                if (c->post == 1) {
                    acc = acc > 0 ? acc : 0;
                } else if (c->post == 2) {
                    acc = 0.5 * acc * (1 + erf(acc / sqrt(2.0)));
                } else if (c->post >= 3) {
                    acc += kt_get(&res, yi);
                    if (c->post == 4) {
                        acc = acc > 0 ? acc : 0;
                    }
                }
                ref[yi] = acc;
            }
        }
    }
    kt_buf y = kt_alloc(yd);
    kt_buf *ins[4] = {&a, &b, c->bias ? &bias : NULL, &res}, *outs[1] = {&y};
    int n_in = c->post >= 3 ? 4 : 3;
    unsigned host = (c->bconst ? 0x2u : 0u) | (c->bias ? 0x4u : 0u);
    char s1[64], s2[64];
    const char *label = kt_fmt("matmul %s%s x %s%s bias%d const%d alpha%g post%d thr%d", kt_dims_str(&ad, s1, 64),
                               c->ta ? "^T" : "", kt_dims_str(&bd, s2, 64), c->tb ? "^T" : "", c->bias, c->bconst,
                               (double)c->alpha, c->post, thr);
    oa_status st = kt_run(OA_KOP_MATMUL, &p, n_in, ins, host, 1, outs, thr);
    if (st != OA_OK) {
        fail_msg("%s: status %d", label, (int)st);
    }
    kt_expect_close(&y, ref, 2e-6 * sqrt((double)K) + 1e-6, 1e-5, label);
    free(ref);
    kt_free(&a);
    kt_free(&b);
    kt_free(&bias);
    kt_free(&res);
    kt_free(&y);
}

static const mm_case k_cases[] = {
    {2, 2, {7, 5}, {5, 9}, false, false, 0, true, 0, 0, 0},
    {2, 2, {5, 7}, {5, 9}, true, false, 0, true, 0, 0, 0},
    {2, 2, {7, 5}, {9, 5}, false, true, 1, true, 0, 0, 0},
    {2, 2, {5, 7}, {9, 5}, true, true, 1, false, 0, 0, 0},
    {3, 2, {2, 64, 96}, {96, 80}, false, false, 1, true, 0, 0, 0},     /* Linear: batch folded into M */
    {3, 2, {1, 128, 768}, {768, 768}, false, false, 1, true, 0, 0, 2}, /* BERT FFN-ish + gelu */
    {4, 4, {1, 4, 16, 8}, {1, 4, 8, 16}, false, false, 0, false, 0, 0, 0}, /* attention QK^T style */
    {4, 4, {1, 4, 16, 8}, {1, 4, 16, 8}, false, true, 0, false, 0, 0, 0},
    {4, 3, {2, 3, 5, 6}, {3, 6, 4}, false, false, 0, false, 0, 0, 0},  /* batch broadcast */
    {3, 4, {3, 5, 6}, {2, 1, 6, 4}, false, false, 0, false, 0, 0, 0},
    {1, 2, {6}, {6, 4}, false, false, 0, true, 0, 0, 0},                 /* 1-D a */
    {2, 1, {3, 6}, {6}, false, false, 0, false, 0, 0, 0},                /* 1-D b */
    {1, 1, {6}, {6}, false, false, 0, false, 0, 0, 0},                   /* dot */
    {3, 1, {2, 3, 6}, {6}, false, false, 0, false, 0, 0, 0},
    {2, 2, {1, 256}, {256, 300}, false, false, 1, true, 0, 0, 1},        /* M = 1 + relu */
    {2, 2, {33, 17}, {17, 65}, false, false, 2, true, 0.5f, 2.0f, 0},    /* GEMM alpha/beta, C [M,N] */
    {2, 2, {33, 17}, {65, 17}, false, true, 1, true, 0, 0, 3},           /* residual add */
    {2, 2, {40, 17}, {17, 24}, false, false, 1, true, 0, 0, 4},          /* add + relu */
    {3, 3, {2, 40, 17}, {2, 17, 24}, false, false, 0, false, 0, 0, 4},
    {2, 2, {0, 5}, {5, 3}, false, false, 0, true, 0, 0, 0},              /* empty */
    {2, 2, {4, 0}, {0, 3}, false, false, 1, true, 0, 0, 0},              /* K = 0: bias only */
    {3, 2, {2, 8, 16}, {8, 12}, true, false, 0, true, 0, 0, 0},          /* transposed a with batch */
    {2, 2, {1, 2048}, {1000, 2048}, false, true, 1, false, 0, 0, 0},    /* ResNet FC, b^T read at run */
    {2, 2, {1, 2048}, {1000, 2048}, false, true, 1, true, 0, 0, 0},     /* the same, b packed */
    {2, 2, {64, 128}, {128, 96}, false, false, 1, true, 0, 0, 3},        /* 2 threads: row slices share b, + add */
    {2, 2, {4, 512}, {512, 600}, false, false, 1, true, 0, 0, 1},        /* 2 threads: column slices, c tiles */
    {3, 2, {2, 3, 512}, {512, 600}, false, false, 1, false, 0, 0, 4},    /* the same, b at run time, add + relu */
    /* one row against b^T at run: the GEMV (K tail of 8, N not a multiple of 8, bias + add + relu) */
    {2, 2, {1, 1000}, {77, 1000}, false, true, 1, false, 0, 0, 4},
    {2, 2, {1000, 1}, {300, 1000}, true, true, 0, false, 0, 0, 1},      /* a^T with M = 1 */
    {1, 2, {37}, {5, 37}, false, true, 0, false, 2.0f, 0, 0},            /* 1-D a, alpha */
    /* packed b whose rows are 2 KB apart: gemm:jit (AVX2) gets them padded; + gelu; then column slices of 512 */
    {2, 2, {48, 64}, {64, 512}, false, false, 1, true, 0, 0, 2},
    {2, 2, {40, 600}, {600, 1024}, false, false, 1, true, 0, 0, 3},
};

static void test_matmul_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(k_cases) / sizeof(k_cases[0]); i++) {
        for (int thr = 1; thr <= 2; thr++) {
            run_case(&k_cases[i], thr, 40 + i);
        }
    }
}

/* One row against b^T given at run takes the row-dot GEMV where the tier has one (AVX2, AVX-512), else oneDNN or
 * the reference; a constant b keeps the packed oneDNN path, unless the product is tiny. */
static void test_matmul_gemv_path(void **state)
{
    (void)state;
    const bool has = oa_kgemv_for(oa_kisa_tier_used()) != NULL;
    const mm_case at_run = {2, 2, {1, 2048}, {1000, 2048}, false, true, 1, false, 0, 0, 0};
    run_case(&at_run, 1, 7);
    if (has != (strcmp(kt_last_impl, "gemv") == 0)) {
        fail_msg("b^T at run, one row: impl %s on tier %s", kt_last_impl, oa_kisa_tier_name(oa_kisa_tier_used()));
    }
    const mm_case packed = {2, 2, {1, 2048}, {1000, 2048}, false, true, 1, true, 0, 0, 0};
    run_case(&packed, 1, 7);
    assert_true(strcmp(kt_last_impl, "gemv") != 0);
    /* a product of at most 4096 multiply-adds (cls's head: 1x200 by 200x2) takes the reference loop, no oneDNN
     * primitive; one more column and it does not */
    const mm_case tiny = {2, 2, {1, 200}, {200, 2}, false, false, 1, true, 0, 0, 1};
    run_case(&tiny, 1, 8);
    assert_string_equal(kt_last_impl, "ref");
    const mm_case over = {2, 2, {1, 200}, {200, 21}, false, false, 1, true, 0, 0, 1};
    run_case(&over, 1, 8);
    if (oa_dnnl_enabled()) {
        assert_string_not_equal(kt_last_impl, "ref");
    }
}

/*
 * A constant b on AVX-512 with enough column groups (64 columns each) for every slice runs as a streamed-filter
 * product (matmul.c mm_pw_eligible; bench/KERNELS.md "MatMuls with the weights in memory"): against the double
 * reference with bias, GELU after the product, a residual add done in the product (then ReLU), transposed a
 * and b, a reduction in two chunks (three where 128 rows of x would not fit in L2 with longer ones), 16 and
 * 256 rows, column blocks off the group of 4, N off the block of 16 (the last block's missing columns neither
 * read nor written), a small b in few pieces (its rows in one range per slice), one and two threads;
 * OPENACL_MATMUL_PW=0 takes oneDNN. 8 rows, a per-row bias, alpha and too few pieces of a b over 4 MiB for the
 * slices stay off the path.
 */
static void test_matmul_streamed(void **state)
{
    (void)state;
    const bool has = oa_kpw_for(oa_kisa_tier_used()) != NULL && oa_kernels_slices() <= 2;
    if (!has) {
        print_message("streamed matmul: not taken here (tier %s, %d slices)\n", oa_kisa_tier_name(oa_kisa_tier_used()),
                      oa_kernels_slices());
    }
    static const mm_case on[] = {
        {2, 2, {40, 64}, {64, 1072}, false, false, 1, true, 0, 0, 0},    /* 16 groups + 3 blocks, bias */
        {3, 2, {2, 20, 96}, {96, 1024}, false, false, 1, true, 0, 0, 2}, /* batch folded into 40 rows, GELU */
        {2, 2, {16, 1600}, {1600, 1024}, false, false, 0, true, 0, 0, 3}, /* 2 chunks, residual add */
        {2, 2, {72, 48}, {1040, 48}, false, true, 1, true, 0, 0, 4},     /* b^T, add + ReLU, + 1 block */
        {2, 2, {32, 256}, {32, 1056}, true, false, 1, true, 0, 0, 1},    /* a^T, ReLU, + 2 blocks */
        {2, 2, {256, 32}, {32, 1024}, false, false, 1, true, 0, 0, 0},   /* 256 rows */
        {2, 2, {40, 24}, {24, 1001}, false, false, 1, true, 0, 0, 3},    /* N off the block (62 x 16 + 9), add */
        {2, 2, {17, 24}, {1009, 24}, false, true, 1, true, 0, 0, 4},     /* the same, b^T, add + ReLU */
        {2, 2, {40, 120}, {120, 360}, false, false, 1, true, 0, 0, 0},   /* 6 pieces of a small b: rows per slice */
        {2, 2, {128, 768}, {768, 768}, false, false, 1, true, 0, 0, 3},  /* BERT's projections: 12 pieces of 2.3 MiB */
        {3, 2, {2, 20, 120}, {240, 120}, false, true, 1, true, 0, 0, 4}, /* the same, b^T, batch folded, add */
        {2, 2, {128, 3072}, {3072, 256}, false, false, 1, true, 0, 0, 3}, /* 128 rows of x in L2: 3 chunks */
    };
    for (int off = 0; off < 2; off++) {
        setenv("OPENACL_MATMUL_PW", off ? "0" : "1", 1);
        for (size_t i = 0; i < sizeof(on) / sizeof(on[0]); i++) {
            for (int thr = 1; thr <= 2; thr++) {
                run_case(&on[i], thr, 300 + i);
                if (has && (strcmp(kt_last_impl, pw_impl(false)) == 0) != (off == 0)) {
                    fail_msg("case %zu off=%d: impl %s", i, off, kt_last_impl);
                }
            }
        }
    }
    unsetenv("OPENACL_MATMUL_PW");
    static const mm_case not_on[] = {
        {2, 2, {8, 64}, {64, 1024}, false, false, 1, true, 0, 0, 0},     /* 8 rows */
        {2, 2, {33, 17}, {17, 1024}, false, false, 2, true, 0, 0, 0},    /* bias [M, N] */
        {2, 2, {33, 17}, {17, 1024}, false, false, 1, true, 0.5f, 1, 0}, /* alpha */
    };
    for (size_t i = 0; i < sizeof(not_on) / sizeof(not_on[0]); i++) {
        run_case(&not_on[i], 1, 320 + i);
        assert_true(strcmp(kt_last_impl, pw_impl(false)) != 0);
    }
    /* 11 pieces of a b over 4 MiB: enough for one slice to prefetch, not for two */
    const mm_case big = {2, 2, {40, 1536}, {1536, 704}, false, false, 1, true, 0, 0, 0};
    run_case(&big, 1, 330);
    if (has && (strcmp(kt_last_impl, pw_impl(false)) == 0) != (oa_kernels_slices() == 1)) {
        fail_msg("11 pieces of a 4.1 MiB b, %d slices: impl %s", oa_kernels_slices(), kt_last_impl);
    }
}

/*
 * Small products with b given at run (attention heads) on AVX-512: each batch item's b packed into the thread's
 * workspace, the rows on the streamed product's tile (matmul.c mm_batch_eligible), against the double reference:
 * rec's two attention shapes (8 heads, N = 40 and 15 off the block), b^T, a^T with a bias and GELU, batch
 * broadcasting either way, a bias [M, N] with alpha and beta, a residual add then ReLU, N of 9 blocks (groups
 * of 4, 4 and 1), K = 1, BERT-like's 128 x 64 by (128 x 64)^T; one and two threads; OPENACL_MATMUL_PW=0 takes
 * oneDNN. Items over 2^20 multiply-adds or with a packed b over 64 KiB stay off the path.
 */
static void test_matmul_batched(void **state)
{
    (void)state;
    const bool has = oa_kpw_for(oa_kisa_tier_used()) != NULL;
    if (!has) {
        print_message("batched matmul tile: not taken here (tier %s)\n", oa_kisa_tier_name(oa_kisa_tier_used()));
    }
    static const mm_case on[] = {
        {4, 4, {1, 8, 40, 15}, {1, 8, 15, 40}, false, false, 0, false, 0, 0, 0},
        {4, 4, {1, 8, 40, 40}, {1, 8, 40, 15}, false, false, 0, false, 0, 0, 0},
        {4, 4, {1, 8, 40, 15}, {1, 8, 40, 15}, false, true, 0, false, 0, 0, 0},
        {3, 3, {3, 15, 40}, {3, 15, 24}, true, false, 1, false, 0, 0, 2},
        {4, 3, {2, 3, 20, 24}, {3, 24, 33}, false, false, 0, false, 0, 0, 0},
        {3, 4, {3, 20, 24}, {2, 1, 24, 33}, false, false, 1, false, 0, 0, 1},
        {3, 3, {2, 33, 17}, {2, 17, 65}, false, false, 2, false, 0.5f, 2.0f, 0},
        {3, 3, {2, 40, 17}, {2, 17, 24}, false, false, 0, false, 0, 0, 4},
        {3, 3, {2, 30, 12}, {2, 12, 130}, false, false, 1, false, 0, 0, 3},
        {3, 3, {5, 60, 1}, {5, 1, 70}, false, false, 0, false, 0, 0, 0},
        {4, 4, {1, 2, 128, 64}, {1, 2, 128, 64}, false, true, 0, false, 0, 0, 0}, /* BERT-like's heads: 2^20 */
    };
    for (int off = 0; off < 2; off++) {
        setenv("OPENACL_MATMUL_PW", off ? "0" : "1", 1);
        for (size_t i = 0; i < sizeof(on) / sizeof(on[0]); i++) {
            for (int thr = 1; thr <= 2; thr++) {
                run_case(&on[i], thr, 400 + i);
                if (has && (strcmp(kt_last_impl, pw_impl(true)) == 0) != (off == 0)) {
                    fail_msg("case %zu off=%d: impl %s", i, off, kt_last_impl);
                }
            }
        }
    }
    unsetenv("OPENACL_MATMUL_PW");
    static const mm_case not_on[] = {
        {3, 3, {2, 256, 64}, {2, 64, 128}, false, false, 0, false, 0, 0, 0}, /* 2^21 per item */
        {3, 3, {2, 4, 1100}, {2, 1100, 16}, false, false, 0, false, 0, 0, 0}, /* 70 KiB of packed b */
    };
    for (size_t i = 0; i < sizeof(not_on) / sizeof(not_on[0]); i++) {
        run_case(&not_on[i], 2, 420 + i);
        assert_true(strcmp(kt_last_impl, pw_impl(true)) != 0);
    }
}

/* What the kernels hand back through oa_kconst_consumed while they are created (kernels.h). */
typedef struct parts_seen {
    int n;
    const char *p[512];
    size_t len[512];
} parts_seen;

static void record_part(void *ctx, const void *p, size_t len)
{
    parts_seen *ps = ctx;
    if (ps->n < 512) {
        ps->p[ps->n] = p;
        ps->len[ps->n++] = len;
    }
}

/* The parts, in the order given, tile one buffer of `bytes` bytes without a gap or an overlap. */
static void expect_parts_tile(const parts_seen *ps, size_t bytes, const char *what)
{
    size_t sum = 0;
    for (int i = 0; i < ps->n; i++) {
        if (i > 0 && ps->p[i] != ps->p[i - 1] + ps->len[i - 1]) {
            fail_msg("%s: part %d does not follow part %d", what, i, i - 1);
        }
        sum += ps->len[i];
    }
    if (sum != bytes) {
        fail_msg("%s: parts of %zu bytes in all, b has %zu", what, sum, bytes);
    }
}

/*
 * The streamed path hands b back to the creator in parts as it packs them (oa_kconst_consumed: a loader drops
 * their pages while the rest is packed): parts of [K, N] rows and, for b^T, of each column group, together
 * exactly b, in b's order. The harness then gives the op bytes of all ones for b at run (it says it no longer
 * reads it), so a part handed back too early and read again would show in the results. A hook unset: no call.
 */
static void test_matmul_const_parts(void **state)
{
    (void)state;
    if (oa_kpw_for(oa_kisa_tier_used()) == NULL) {
        print_message("streamed matmul: not taken here (tier %s)\n", oa_kisa_tier_name(oa_kisa_tier_used()));
        skip();
    }
    static const mm_case cases[] = {
        {2, 2, {40, 120}, {120, 6625}, false, false, 1, true, 0, 0, 0}, /* rec's CTC head: 12 parts of 10 rows */
        {2, 2, {17, 24}, {1009, 24}, false, true, 1, true, 0, 0, 4},    /* b^T: one part per group of 64 */
    };
    const int want_parts[] = {12, 16};
    for (int i = 0; i < 2; i++) {
        parts_seen ps = {0};
        oa_kconst_set_hook(record_part, &ps);
        run_case(&cases[i], 1, 500 + (uint64_t)i);
        oa_kconst_set_hook(NULL, NULL);
        assert_string_equal(kt_last_impl, pw_impl(false));
        expect_parts_tile(&ps, sizeof(float) * (size_t)(cases[i].b[0] * cases[i].b[1]), i ? "b^T" : "b");
        assert_int_equal(ps.n, want_parts[i]);
    }
    parts_seen ps = {0};
    oa_kconst_set_hook(record_part, &ps);
    oa_kconst_set_hook(NULL, NULL);
    run_case(&cases[0], 1, 502);
    assert_int_equal(ps.n, 0);
}

/* A stable b (a dynamic model's weight) packed once for the streamed products of every row count (its input shapes):
 * one derived array, outputs equal to those of a twin made from an unstable b, released with the last product. */
static oa_kop *mm_rows(int64_t M, const kt_buf *b, bool stable, bool tb)
{
    oa_kmatmul_params p;
    memset(&p, 0, sizeof p);
    p.transpose_b = tb;
    oa_ktensor in[3] = {KT_D(OA_KDT_F32, M, tb ? b->d.dims[1] : b->d.dims[0]), b->d, {.dtype = OA_KDT_UNDEFINED}};
    in[1].data = b->data;
    in[1].stable = stable;
    oa_ktensor out;
    assert_int_equal(oa_kernel_infer(OA_KOP_MATMUL, &p, 3, in, 1, &out), OA_OK);
    oa_kop *op = NULL;
    assert_int_equal(oa_kop_create(OA_KOP_MATMUL, &p, 3, in, 1, &out, &op), OA_OK);
    return op;
}

/* The products a (shared b) and b (its own) of M rows of 96 give the same bits. */
static void expect_same_rows(const oa_kop *a, const oa_kop *b, int64_t M, uint64_t seed)
{
    kt_buf x = kt_alloc(KT_D(OA_KDT_F32, M, 96)), ya = kt_alloc(KT_D(OA_KDT_F32, M, 200)),
           yb = kt_alloc(KT_D(OA_KDT_F32, M, 200));
    kt_fill(&x, seed, -1, 1);
    const void *ins[3] = {x.data, NULL, NULL};
    void *oa[1] = {ya.data}, *ob[1] = {yb.data};
    const size_t wa = oa_kop_workspace_size(a), wb = oa_kop_workspace_size(b), wsz = wa > wb ? wa : wb;
    void *ws = wsz > 0 ? aligned_alloc(64, (wsz + 63) / 64 * 64) : NULL;
    assert_int_equal(oa_kop_run(a, ins, oa, ws, kt_pool(2)), OA_OK);
    assert_int_equal(oa_kop_run(b, ins, ob, ws, kt_pool(2)), OA_OK);
    free(ws);
    assert_memory_equal(ya.data, yb.data, ya.bytes);
    kt_free(&x);
    kt_free(&ya);
    kt_free(&yb);
}

static void test_matmul_stable_b_shared(void **state)
{
    (void)state;
    for (int tb = 0; tb < 2; tb++) {
        kt_buf b = tb ? kt_alloc(KT_D(OA_KDT_F32, 200, 96)) : kt_alloc(KT_D(OA_KDT_F32, 96, 200));
        kt_fill(&b, 700 + (uint64_t)tb, -1, 1);
        size_t a0, a1, a2, bytes;
        oa_kderived_stats(&a0, &bytes);
        oa_kop *s1 = mm_rows(40, &b, true, tb);
        oa_kderived_stats(&a1, &bytes);
        oa_kop *s2 = mm_rows(72, &b, true, tb);
        oa_kderived_stats(&a2, &bytes);
        if (strcmp(oa_kop_impl_name(s2), pw_impl(false)) != 0) {
            print_message("stable b: %s at this tier, nothing to share\n", oa_kop_impl_name(s2));
        } else {
            assert_int_equal(a1 - a0, 1);
            assert_int_equal(a2, a1); /* 72 rows: the same packed b */
            oa_kop *u2 = mm_rows(72, &b, false, tb);
            size_t a3;
            oa_kderived_stats(&a3, &bytes);
            assert_int_equal(a3, a2 + 1);
            expect_same_rows(s2, u2, 72, 710 + (uint64_t)tb);
            oa_kop_destroy(u2);
        }
        oa_kop_destroy(s1);
        oa_kop_destroy(s2);
        oa_kderived_stats(&a1, &bytes);
        assert_int_equal(a1, a0);
        /* more rows than the streamed product takes: oneDNN's packed b, shared the same way */
        size_t c1, c2, a3;
        oa_kop *d1 = mm_rows(300, &b, true, tb);
        oa_kderived_stats(&c1, &bytes);
        oa_kop *d2 = mm_rows(300, &b, true, tb);
        oa_kderived_stats(&c2, &bytes);
        oa_kop *u = mm_rows(300, &b, false, tb);
        oa_kderived_stats(&a3, &bytes);
        if (strncmp(oa_kop_impl_name(d1), "onednn", 6) == 0) {
            assert_true(c1 > a1);
            assert_int_equal(c2, c1);                /* d2 takes d1's packed slices */
            assert_int_equal(a3 - c2, c1 - a1);      /* u packs its own */
            expect_same_rows(d2, u, 300, 720 + (uint64_t)tb);
        } else {
            print_message("stable b, 300 rows: %s here\n", oa_kop_impl_name(d1));
        }
        oa_kop_destroy(d1);
        oa_kop_destroy(d2);
        oa_kop_destroy(u);
        oa_kderived_stats(&a3, &bytes);
        assert_int_equal(a3, a0);
        kt_free(&b);
    }
}

static void test_matmul_bad_params(void **state)
{
    (void)state;
    oa_kmatmul_params p;
    memset(&p, 0, sizeof p);
    oa_ktensor in[3] = {KT_D(OA_KDT_F32, 3, 4), KT_D(OA_KDT_F32, 5, 6), {.dtype = OA_KDT_UNDEFINED}};
    oa_ktensor out;
    kt_expect_fail(oa_kernel_infer(OA_KOP_MATMUL, &p, 3, in, 1, &out), OA_E_PARAM, "K mismatch");
    in[1] = KT_D(OA_KDT_F32, 2, 4, 6);
    in[0] = KT_D(OA_KDT_F32, 3, 3, 4);
    kt_expect_fail(oa_kernel_infer(OA_KOP_MATMUL, &p, 3, in, 1, &out), OA_E_PARAM, "batch mismatch");
    in[0] = KT_D(OA_KDT_I64, 3, 4);
    in[1] = KT_D(OA_KDT_I64, 4, 6);
    kt_expect_fail(oa_kernel_infer(OA_KOP_MATMUL, &p, 3, in, 1, &out), OA_E_UNSUPPORTED_DATA_TYPE, "i64 matmul");
    in[0] = KT_D(OA_KDT_F32, 3, 4);
    in[1] = KT_D(OA_KDT_F32, 4, 6);
    in[2] = KT_D(OA_KDT_F32, 5);
    kt_expect_fail(oa_kernel_infer(OA_KOP_MATMUL, &p, 3, in, 1, &out), OA_E_PARAM, "bad bias");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matmul_cases),
        cmocka_unit_test(test_matmul_gemv_path),
        cmocka_unit_test(test_matmul_streamed),
        cmocka_unit_test(test_matmul_batched),
        cmocka_unit_test(test_matmul_const_parts),
        cmocka_unit_test(test_matmul_stable_b_shared),
        cmocka_unit_test(test_matmul_bad_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

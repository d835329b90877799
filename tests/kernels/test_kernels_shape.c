/*
 * Conformance: data movement — Transpose, ConcatD (plain and NCHWc),
 * Split/SplitV, StridedSliceV2 (negative / clamped starts and ends, steps,
 * axes, masks, Slice size form), GatherV2, PadV3 (all modes, both paddings
 * layouts, negative pads), Tile, Expand, Fill, Range, Copy, Reorder.
 * References index element by element (exact comparison).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kt_harness.h"

static void unravel(const oa_ktensor *t, int64_t i, int64_t *idx)
{
    for (int d = t->rank - 1; d >= 0; d--) {
        idx[d] = i % t->dims[d];
        i /= t->dims[d];
    }
}

static int64_t ravel(const oa_ktensor *t, const int64_t *idx)
{
    int64_t o = 0;
    for (int d = 0; d < t->rank; d++) {
        o = o * t->dims[d] + idx[d];
    }
    return o;
}

static double *alloc_ref(const oa_ktensor *t)
{
    int64_t n = oa_ktensor_numel(t);
    return malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
}

static void test_transpose(void **state)
{
    (void)state;
    struct {
        oa_ktensor x;
        int n;
        int64_t perm[6];
    } cases[] = {
        {KT_D(OA_KDT_F32, 3, 5), 2, {1, 0}},
        {KT_D(OA_KDT_I64, 2, 3, 4), 3, {2, 0, 1}},
        {KT_D(OA_KDT_F32, 1, 12, 128, 64), 4, {0, 2, 1, 3}}, /* BERT heads */
        {KT_D(OA_KDT_F32, 1, 3, 7, 9, 20), 5, {0, 1, 3, 4, 2}}, /* YOLO head (tiled 2-D transpose) */
        {KT_D(OA_KDT_I32, 2, 5, 37), 3, {0, 2, 1}},              /* tiles ending inside a row, batch */
        {KT_D(OA_KDT_U8, 2, 3, 4, 5, 6), 5, {4, 3, 2, 1, 0}},
        {KT_D(OA_KDT_F16, 2, 1, 3, 1, 4, 2), 6, {5, 1, 0, 3, 2, 4}},
        {KT_D(OA_KDT_F32, 4, 0, 3), 3, {1, 2, 0}},
        {KT_D(OA_KDT_BOOL, 7), 1, {0}},
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        oa_ktensor xd = cases[c].x;
        kt_buf x = kt_alloc(xd);
        kt_fill(&x, 5 + c, -100, 100);
        oa_ktensor yd = xd;
        for (int i = 0; i < xd.rank; i++) {
            yd.dims[i] = xd.dims[cases[c].perm[i]];
        }
        double *ref = alloc_ref(&yd);
        for (int64_t i = 0; i < oa_ktensor_numel(&yd); i++) {
            int64_t yi[8], xi[8];
            unravel(&yd, i, yi);
            for (int d = 0; d < xd.rank; d++) {
                xi[cases[c].perm[d]] = yi[d];
            }
            ref[i] = kt_get(&x, ravel(&xd, xi));
        }
        for (int form = 0; form < 2; form++) { /* perm as attr, perm as host input */
            kt_buf y = kt_alloc(yd), pb = kt_host_i32(cases[c].n, cases[c].perm);
            oa_ktranspose_params p;
            memset(&p, 0, sizeof p);
            if (form == 0) {
                p.n_perm = cases[c].n;
                memcpy(p.perm, cases[c].perm, sizeof(int64_t) * 6);
            }
            kt_buf *ins[2] = {&x, &pb}, *outs[1] = {&y};
            assert_int_equal(kt_run(OA_KOP_TRANSPOSE, &p, form ? 2 : 1, ins, 0x2, 1, outs, 1 + form), OA_OK);
            kt_expect_equal(&y, ref, kt_fmt("transpose case %zu form %d", c, form));
            kt_free(&y);
            kt_free(&pb);
        }
        free(ref);
        kt_free(&x);
    }
}

static void test_concat_split(void **state)
{
    (void)state;
    /* small, then large enough (about 0.5 MB) that y is copied in several pieces whose
     * boundaries fall inside inputs' rows, on one and two threads */
    for (int k6 = 0; k6 < 12; k6++) {
        const int ax = k6 % 6 - 3, big = k6 / 6, thr = 1 + (k6 % 2);
        int a = ax < 0 ? ax + 3 : ax;
        oa_ktensor base = big ? KT_D(OA_KDT_F32, 7, 401, 9) : KT_D(OA_KDT_F32, 2, 3, 4);
        oa_ktensor d[3] = {base, base, base};
        d[1].dims[a] = 1;
        d[2].dims[a] = big ? 1399 : 5;
        kt_buf x[3];
        for (int i = 0; i < 3; i++) {
            x[i] = kt_alloc(d[i]);
            kt_fill(&x[i], 10 + (uint64_t)i, -9, 9);
        }
        oa_ktensor yd = d[0];
        yd.dims[a] = d[0].dims[a] + d[1].dims[a] + d[2].dims[a];
        double *ref = alloc_ref(&yd);
        for (int64_t i = 0; i < oa_ktensor_numel(&yd); i++) {
            int64_t idx[3];
            unravel(&yd, i, idx);
            int k = 0;
            while (idx[a] >= d[k].dims[a]) {
                idx[a] -= d[k].dims[a];
                k++;
            }
            ref[i] = kt_get(&x[k], ravel(&d[k], idx));
        }
        kt_buf y = kt_alloc(yd);
        oa_kconcat_params p = {.axis = ax};
        kt_buf *ins[3] = {&x[0], &x[1], &x[2]}, *outs[1] = {&y};
        assert_int_equal(kt_run(OA_KOP_CONCAT, &p, 3, ins, 0, 1, outs, thr), OA_OK);
        kt_expect_equal(&y, ref, kt_fmt("concat axis %d (%s, %d thread(s))", ax, big ? "large" : "small", thr));
        /* split it back (sizes as attr, as input with -1, and equal split for axis sizes) */
        kt_buf z[3];
        for (int i = 0; i < 3; i++) {
            z[i] = kt_alloc(d[i]);
        }
        oa_ksplit_params sp;
        memset(&sp, 0, sizeof sp);
        sp.axis = ax;
        kt_buf sizes = kt_host_i64(3, (int64_t[]){d[0].dims[a], -1, d[2].dims[a]});
        kt_buf *sins[2] = {&y, &sizes}, *souts[3] = {&z[0], &z[1], &z[2]};
        assert_int_equal(kt_run(OA_KOP_SPLIT, &sp, 2, sins, 0x2, 3, souts, 2), OA_OK);
        for (int i = 0; i < 3; i++) {
            double *r = kt_to_double(&x[i]);
            kt_expect_equal(&z[i], r, kt_fmt("split axis %d part %d", ax, i));
            free(r);
            kt_free(&z[i]);
            kt_free(&x[i]);
        }
        kt_free(&sizes);
        kt_free(&y);
        free(ref);
    }
    /* equal split */
    kt_buf x = kt_alloc(KT_D(OA_KDT_I32, 6, 4));
    kt_fill(&x, 3, -50, 50);
    kt_buf y0 = kt_alloc(KT_D(OA_KDT_I32, 2, 4)), y1 = kt_alloc(y0.d), y2 = kt_alloc(y0.d);
    oa_ksplit_params sp = {.axis = 0};
    kt_buf *ins[1] = {&x}, *outs[3] = {&y0, &y1, &y2};
    assert_int_equal(kt_run(OA_KOP_SPLIT, &sp, 1, ins, 0, 3, outs, 1), OA_OK);
    for (int i = 0; i < 8; i++) {
        assert_true(kt_get(&y2, i) == kt_get(&x, 16 + i));
    }
    kt_free(&x);
    kt_free(&y0);
    kt_free(&y1);
    kt_free(&y2);
    /* NCHWc concat along channels: 16 + 13 */
    int64_t cb = oa_kernels_block();
    oa_ktensor da = KT_D(OA_KDT_F32, 2, 2 * cb, 3, 5), db = KT_D(OA_KDT_F32, 2, 13, 3, 5);
    kt_buf a = kt_alloc(da), b = kt_alloc(db);
    kt_fill(&a, 1, -1, 1);
    kt_fill(&b, 2, -1, 1);
    oa_ktensor yd = KT_D(OA_KDT_F32, 2, 2 * cb + 13, 3, 5);
    double *ref = alloc_ref(&yd);
    for (int64_t i = 0; i < oa_ktensor_numel(&yd); i++) {
        int64_t idx[4];
        unravel(&yd, i, idx);
        if (idx[1] < 2 * cb) {
            ref[i] = kt_get(&a, ravel(&da, idx));
        } else {
            idx[1] -= 2 * cb;
            ref[i] = kt_get(&b, ravel(&db, idx));
        }
    }
    kt_buf ab = kt_blocked_from_plain(&a), bb = kt_blocked_from_plain(&b);
    yd.layout = OA_KLAYOUT_NCHWC;
    kt_buf y = kt_alloc(yd);
    oa_kconcat_params p = {.axis = 1};
    kt_buf *cins[2] = {&ab, &bb}, *couts[1] = {&y};
    assert_int_equal(kt_run(OA_KOP_CONCAT, &p, 2, cins, 0, 1, couts, 1), OA_OK);
    kt_buf yp = kt_plain_from_blocked(&y);
    kt_expect_equal(&yp, ref, "NCHWc concat");
    /* and an NCHWc split back along channels: whole blocks, then the 13-channel rest (its
     * padding lanes come along); each output against the plain input it came from */
    oa_ktensor sd0 = KT_D(OA_KDT_F32, 2, cb, 3, 5), sd2 = KT_D(OA_KDT_F32, 2, 13, 3, 5);
    sd0.layout = sd2.layout = OA_KLAYOUT_NCHWC;
    kt_buf s0 = kt_alloc(sd0), s1 = kt_alloc(sd0), s2 = kt_alloc(sd2);
    oa_ksplit_params bsp = {.axis = 1, .n_sizes = 3, .sizes = {cb, cb, 13}};
    kt_buf *sins[1] = {&y}, *souts[3] = {&s0, &s1, &s2};
    assert_int_equal(kt_run(OA_KOP_SPLIT, &bsp, 1, sins, 0, 3, souts, 1), OA_OK);
    kt_buf p0 = kt_plain_from_blocked(&s0), p1 = kt_plain_from_blocked(&s1), p2 = kt_plain_from_blocked(&s2);
    for (int64_t i = 0; i < oa_ktensor_numel(&p0.d); i++) {
        int64_t idx[4];
        unravel(&p0.d, i, idx);
        assert_true(kt_get(&p0, i) == kt_get(&a, ravel(&da, idx)));
        idx[1] += cb;
        assert_true(kt_get(&p1, i) == kt_get(&a, ravel(&da, idx)));
    }
    for (int64_t i = 0; i < oa_ktensor_numel(&p2.d); i++) {
        assert_true(kt_get(&p2, i) == kt_get(&b, i));
    }
    /* an NCHWc split whose first output ends inside a block is refused */
    oa_ksplit_params bad = {.axis = 1, .n_sizes = 2, .sizes = {cb - 1, cb + 14}};
    oa_ktensor outd[2];
    kt_expect_fail(oa_kernel_infer(OA_KOP_SPLIT, &bad, 1, &y.d, 2, outd), OA_E_PARAM, "NCHWc split inside a block");
    kt_free(&p0);
    kt_free(&p1);
    kt_free(&p2);
    kt_free(&s0);
    kt_free(&s1);
    kt_free(&s2);
    free(ref);
    kt_free(&a);
    kt_free(&b);
    kt_free(&ab);
    kt_free(&bb);
    kt_free(&y);
    kt_free(&yp);
}

/*
 * Concat in place (docs/memory.md): inputs the memory plan put inside y
 * where they belong are left as they are, the others copied; with every
 * input in place nothing moves. Plain [1, C, 37] along C, and NCHWc with a
 * first input of whole blocks; 1 and 2 threads.
 */
/* Last-axis Concat of short rows (YOLO's 2 + 2 + 81 floats) with an empty input between them, over
 * many pieces of y whose boundaries fall inside rows, on one and two threads. */
static void test_concat_short_rows(void **state)
{
    (void)state;
    const int64_t rows = 3001, w[4] = {2, 0, 2, 81};
    for (int thr = 1; thr <= 2; thr++) {
        kt_buf x[4];
        for (int i = 0; i < 4; i++) {
            x[i] = kt_alloc(KT_D(OA_KDT_F32, rows, w[i]));
            kt_fill(&x[i], 70 + (uint64_t)i, -3, 3);
        }
        kt_buf y = kt_alloc(KT_D(OA_KDT_F32, rows, 85));
        double *ref = alloc_ref(&y.d);
        for (int64_t r = 0; r < rows; r++) {
            for (int i = 0, at = 0; i < 4; at += (int)w[i], i++) {
                for (int64_t k = 0; k < w[i]; k++) {
                    ref[r * 85 + at + k] = kt_get(&x[i], r * w[i] + k);
                }
            }
        }
        oa_kconcat_params p = {.axis = -1};
        kt_buf *ins[4] = {&x[0], &x[1], &x[2], &x[3]}, *outs[1] = {&y};
        assert_int_equal(kt_run(OA_KOP_CONCAT, &p, 4, ins, 0, 1, outs, thr), OA_OK);
        kt_expect_equal(&y, ref, kt_fmt("last-axis concat of short rows, %d thread(s)", thr));
        free(ref);
        kt_free(&y);
        for (int i = 0; i < 4; i++) {
            kt_free(&x[i]);
        }
    }
}

/*
 * Concat windows (slices the compiler folded in, kernels.h): [a(2), b(2), window [4, 85) of s(85)]
 * along the last axis, with s a separate buffer, then with s being y itself (the window in place:
 * only a and b are written), on one and two threads; and the windows the kernel refuses.
 */
static void test_concat_windows(void **state)
{
    (void)state;
    const int64_t rows = 2001;
    for (int alias = 0; alias < 2; alias++) {
        kt_buf a = kt_alloc(KT_D(OA_KDT_F32, rows, 2)), b = kt_alloc(KT_D(OA_KDT_F32, rows, 2));
        kt_buf src = kt_alloc(KT_D(OA_KDT_F32, rows, 85)), y = kt_alloc(KT_D(OA_KDT_F32, rows, 85));
        kt_fill(&a, 80, -1, 1);
        kt_fill(&b, 81, -1, 1);
        kt_fill(&src, 82, -1, 1);
        double *ref = alloc_ref(&y.d);
        for (int64_t r = 0; r < rows; r++) {
            for (int64_t k = 0; k < 85; k++) {
                ref[r * 85 + k] = k < 2 ? kt_get(&a, r * 2 + k) : k < 4 ? kt_get(&b, r * 2 + k - 2) : kt_get(&src, r * 85 + k);
            }
        }
        memcpy(y.data, alias ? src.data : y.data, y.bytes);
        oa_kconcat_params p = {.axis = -1, .n_win = 1, .win = {{2, 4, 81}}};
        oa_ktensor d[3] = {a.d, b.d, src.d};
        oa_kop *op;
        assert_int_equal(oa_kop_create(OA_KOP_CONCAT, &p, 3, d, 1, &y.d, &op), OA_OK);
        const void *in[3] = {a.data, b.data, alias ? y.data : src.data};
        void *out[1] = {y.data};
        assert_int_equal(oa_kop_run(op, in, out, NULL, kt_pool(1 + alias)), OA_OK);
        kt_expect_equal(&y, ref, kt_fmt("concat with a window (%s)", alias ? "in place" : "separate"));
        oa_kop_destroy(op);
        free(ref);
        kt_free(&a);
        kt_free(&b);
        kt_free(&src);
        kt_free(&y);
    }
    oa_ktensor out[1], two[2] = {KT_D(OA_KDT_F32, 3, 5), KT_D(OA_KDT_F32, 3, 5)};
    oa_kconcat_params p = {.axis = 1, .n_win = 1, .win = {{1, 3, 3}}};
    kt_expect_fail(oa_kernel_infer(OA_KOP_CONCAT, &p, 2, two, 1, out), OA_E_PARAM, "window past the input");
    p = (oa_kconcat_params){.axis = 1, .n_win = 2, .win = {{0, 0, 2}, {0, 1, 2}}};
    kt_expect_fail(oa_kernel_infer(OA_KOP_CONCAT, &p, 2, two, 1, out), OA_E_PARAM, "two windows of one input");
    p = (oa_kconcat_params){.axis = 1, .n_win = 1, .win = {{2, 0, 1}}};
    kt_expect_fail(oa_kernel_infer(OA_KOP_CONCAT, &p, 2, two, 1, out), OA_E_PARAM, "window of input 2 of 2");
    p = (oa_kconcat_params){.axis = 1, .n_win = OA_KCONCAT_MAX_WIN + 1};
    kt_expect_fail(oa_kernel_infer(OA_KOP_CONCAT, &p, 2, two, 1, out), OA_E_PARAM, "too many windows");
    oa_ktensor blk[2] = {KT_D(OA_KDT_F32, 1, 16, 2, 2), KT_D(OA_KDT_F32, 1, 16, 2, 2)};
    blk[0].layout = blk[1].layout = OA_KLAYOUT_NCHWC;
    p = (oa_kconcat_params){.axis = 1, .n_win = 1, .win = {{0, 0, 8}}};
    kt_expect_fail(oa_kernel_infer(OA_KOP_CONCAT, &p, 2, blk, 1, out), OA_E_PARAM, "window of a blocked input");
    p = (oa_kconcat_params){.axis = 1, .n_win = 1, .win = {{1, 1, 2}}};
    assert_int_equal(oa_kernel_infer(OA_KOP_CONCAT, &p, 2, two, 1, out), OA_OK);
    assert_int_equal(out[0].dims[1], 7); /* 5 + the window's 2 */
}

static void test_concat_in_place(void **state)
{
    (void)state;
    const int64_t ch[3] = {5, 3, 4}, w = 37;
    for (int mask = 0; mask < 8; mask++) { /* bit i: input i already in y */
        const int thr = 1 + mask % 2;
        kt_buf x[3], y = kt_alloc(KT_D(OA_KDT_F32, 1, 12, w));
        memset(y.data, 0x7f, y.bytes);
        const void *in[3];
        double ref[12 * 37];
        int64_t at = 0;
        for (int i = 0; i < 3; i++) {
            x[i] = kt_alloc(KT_D(OA_KDT_F32, 1, ch[i], w));
            kt_fill(&x[i], 30 + (uint64_t)i, -5, 5);
            for (int64_t e = 0; e < ch[i] * w; e++) {
                ref[at + e] = kt_get(&x[i], e);
            }
            float *dst = (float *)y.data + at;
            in[i] = x[i].data;
            if (mask & (1 << i)) {
                memcpy(dst, x[i].data, (size_t)(ch[i] * w) * sizeof(float));
                in[i] = dst;
            }
            at += ch[i] * w;
        }
        oa_ktensor d[3] = {x[0].d, x[1].d, x[2].d};
        oa_kconcat_params p = {.axis = 1};
        oa_kop *op;
        assert_int_equal(oa_kop_create(OA_KOP_CONCAT, &p, 3, d, 1, &y.d, &op), OA_OK);
        void *out[1] = {y.data};
        assert_int_equal(oa_kop_run(op, in, out, NULL, kt_pool(thr)), OA_OK);
        kt_expect_equal(&y, ref, kt_fmt("concat with inputs in place (mask %d)", mask));
        oa_kop_destroy(op);
        for (int i = 0; i < 3; i++) {
            kt_free(&x[i]);
        }
        kt_free(&y);
    }
    /* NCHWc: 16 channels (whole blocks at either block size) in place, then 7 copied */
    kt_buf a = kt_alloc(KT_D(OA_KDT_F32, 1, 16, 3, 3)), b = kt_alloc(KT_D(OA_KDT_F32, 1, 7, 3, 3));
    kt_fill(&a, 41, -1, 1);
    kt_fill(&b, 42, -1, 1);
    kt_buf ab = kt_blocked_from_plain(&a), bb = kt_blocked_from_plain(&b);
    oa_ktensor yd = KT_D(OA_KDT_F32, 1, 23, 3, 3);
    double ref[23 * 9];
    for (int64_t e = 0; e < 23 * 9; e++) {
        ref[e] = e < 16 * 9 ? kt_get(&a, e) : kt_get(&b, e - 16 * 9);
    }
    yd.layout = OA_KLAYOUT_NCHWC;
    kt_buf y = kt_alloc(yd);
    memcpy(y.data, ab.data, ab.bytes);
    oa_ktensor d[2] = {ab.d, bb.d};
    oa_kconcat_params p = {.axis = 1};
    oa_kop *op;
    assert_int_equal(oa_kop_create(OA_KOP_CONCAT, &p, 2, d, 1, &yd, &op), OA_OK);
    const void *in[2] = {y.data, bb.data};
    void *out[1] = {y.data};
    assert_int_equal(oa_kop_run(op, in, out, NULL, kt_pool(2)), OA_OK);
    kt_buf yp = kt_plain_from_blocked(&y);
    kt_expect_equal(&yp, ref, "NCHWc concat, first input in place");
    oa_kop_destroy(op);
    kt_free(&yp);
    kt_free(&y);
    kt_free(&ab);
    kt_free(&bb);
    kt_free(&a);
    kt_free(&b);
}

/*
 * NCHWc concat along channels with inputs whose C is not a block multiple
 * (PP-OCRv4 det's neck: 4 x 24 channels; lane runs gathered from two input
 * blocks per output block) against the plain concat of the same values;
 * the padding lanes of the last output block must be zero. 1 and 2 threads.
 */
static void test_concat_nchwc_unaligned(void **state)
{
    (void)state;
    static const int64_t cases[][5] = {{4, 24, 24, 24, 24}, {4, 3, 13, 5, 24}, {2, 24, 7, 0, 0}, {3, 1, 17, 2, 0}};
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        const int n_in = (int)cases[k][0];
        kt_buf x[4], xb[4], *cins[4];
        oa_ktensor dx[4];
        int64_t cout = 0, off[4];
        for (int i = 0; i < n_in; i++) {
            dx[i] = KT_D(OA_KDT_F32, 2, cases[k][1 + i], 5, 6);
            x[i] = kt_alloc(dx[i]);
            kt_fill(&x[i], (unsigned)(10 * k + (size_t)i + 1), -2, 2);
            xb[i] = kt_blocked_from_plain(&x[i]);
            cins[i] = &xb[i];
            off[i] = cout;
            cout += cases[k][1 + i];
        }
        oa_ktensor yd = KT_D(OA_KDT_F32, 2, cout, 5, 6);
        double *ref = alloc_ref(&yd);
        for (int64_t e = 0; e < oa_ktensor_numel(&yd); e++) {
            int64_t idx[4];
            unravel(&yd, e, idx);
            int i = n_in - 1;
            while (idx[1] < off[i]) {
                i--;
            }
            idx[1] -= off[i];
            ref[e] = kt_get(&x[i], ravel(&dx[i], idx));
        }
        yd.layout = OA_KLAYOUT_NCHWC;
        for (int thr = 1; thr <= 2; thr++) {
            kt_buf y = kt_alloc(yd);
            memset(y.data, 0x7f, y.bytes); /* padding lanes must be written */
            oa_kconcat_params p = {.axis = 1};
            kt_buf *couts[1] = {&y};
            assert_int_equal(kt_run(OA_KOP_CONCAT, &p, n_in, cins, 0, 1, couts, thr), OA_OK);
            kt_buf yp = kt_plain_from_blocked(&y);
            kt_expect_equal(&yp, ref, kt_fmt("NCHWc concat case %zu, %d thread(s)", k, thr));
            const int64_t cb = oa_kernels_block(), cp = (cout + cb - 1) / cb * cb;
            const float *yv = y.data;
            for (int64_t img = 0; img < 2; img++) {
                for (int64_t pix = 0; pix < 30; pix++) {
                    for (int64_t c = cout; c < cp; c++) {
                        assert_true(yv[((img * (cp / cb) + c / cb) * 30 + pix) * cb + c % cb] == 0.0f);
                    }
                }
            }
            kt_free(&y);
            kt_free(&yp);
        }
        free(ref);
        for (int i = 0; i < n_in; i++) {
            kt_free(&x[i]);
            kt_free(&xb[i]);
        }
    }
}

typedef struct slice_case {
    oa_ktensor x;
    int n;
    int64_t b[4], e[4], axes[4], steps[4];
    bool has_axes, has_steps;
    int64_t begin_mask, end_mask, shrink;
} slice_case;

static void slice_ref_dim(int64_t dim, int64_t b, int64_t e, int64_t s, bool bm, bool em, int64_t *start, int64_t *cnt)
{
    if (bm) {
        b = s > 0 ? 0 : dim - 1;
    } else if (b < 0) {
        b += dim;
    }
    if (em) {
        e = s > 0 ? dim : -1;
    } else if (e < 0) {
        e += dim;
    }
    if (s > 0) {
        b = b < 0 ? 0 : (b > dim ? dim : b);
        e = e < 0 ? 0 : (e > dim ? dim : e);
        *cnt = e > b ? (e - b + s - 1) / s : 0;
    } else {
        b = b < 0 ? -1 : (b > dim - 1 ? dim - 1 : b);
        e = e < -1 ? -1 : (e > dim - 1 ? dim - 1 : e);
        *cnt = b > e ? (b - e - s - 1) / (-s) : 0;
    }
    *start = b;
}

static void test_slice(void **state)
{
    (void)state;
    slice_case cases[] = {
        {KT_D(OA_KDT_F32, 10), 1, {2}, {8}, {0}, {1}, false, false, 0, 0, 0},
        {KT_D(OA_KDT_F32, 10), 1, {-3}, {100}, {0}, {1}, false, false, 0, 0, 0},
        {KT_D(OA_KDT_F32, 10), 1, {-100}, {-2}, {0}, {2}, false, true, 0, 0, 0},
        {KT_D(OA_KDT_F32, 10), 1, {8}, {1}, {0}, {-3}, false, true, 0, 0, 0},
        {KT_D(OA_KDT_F32, 10), 1, {100}, {-100}, {0}, {-1}, false, true, 0, 0, 0}, /* full reverse */
        {KT_D(OA_KDT_I64, 4, 5, 6), 2, {1, -4}, {3, 100}, {2, 0}, {2, 1}, true, true, 0, 0, 0},
        {KT_D(OA_KDT_F32, 4, 5, 6), 1, {3}, {2}, {1}, {1}, true, false, 0, 0, 0},  /* empty */
        {KT_D(OA_KDT_F32, 1, 40, 80), 2, {0, 0}, {1, 40}, {0, 1}, {1, 1}, true, false, 0, 0, 1}, /* shrink */
        {KT_D(OA_KDT_F32, 6, 7), 2, {5, 1}, {0, 6}, {0, 1}, {-2, 1}, true, true, 0x1, 0x2, 0},  /* masks */
        {KT_D(OA_KDT_U8, 3, 4, 5, 6), 3, {-1, 1, 0}, {-100, 3, 6}, {-1, 1, 0}, {-1, 1, 3}, true, true, 0, 0, 0},
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        slice_case *sc = &cases[c];
        oa_ktensor xd = sc->x;
        kt_buf x = kt_alloc(xd);
        kt_fill(&x, 3 + c, -100, 100);
        int64_t start[8], cnt[8], step[8];
        bool drop[8] = {false};
        for (int d = 0; d < xd.rank; d++) {
            start[d] = 0;
            cnt[d] = xd.dims[d];
            step[d] = 1;
        }
        for (int i = 0; i < sc->n; i++) {
            int d = (int)(sc->has_axes ? (sc->axes[i] < 0 ? sc->axes[i] + xd.rank : sc->axes[i]) : i);
            step[d] = sc->has_steps ? sc->steps[i] : 1;
            slice_ref_dim(xd.dims[d], sc->b[i], sc->e[i], step[d], (sc->begin_mask >> i) & 1, (sc->end_mask >> i) & 1,
                          &start[d], &cnt[d]);
            if ((sc->shrink >> i) & 1) {
                start[d] = sc->b[i] < 0 ? sc->b[i] + xd.dims[d] : sc->b[i];
                cnt[d] = 1;
                drop[d] = true;
            }
        }
        oa_ktensor full = xd, yd;
        memset(&yd, 0, sizeof yd);
        yd.dtype = xd.dtype;
        for (int d = 0; d < xd.rank; d++) {
            full.dims[d] = cnt[d];
            if (!drop[d]) {
                yd.dims[yd.rank++] = cnt[d];
            }
        }
        double *ref = alloc_ref(&full);
        for (int64_t i = 0; i < oa_ktensor_numel(&full); i++) {
            int64_t idx[8];
            unravel(&full, i, idx);
            for (int d = 0; d < xd.rank; d++) {
                idx[d] = start[d] + idx[d] * step[d];
            }
            ref[i] = kt_get(&x, ravel(&xd, idx));
        }
        kt_buf b = kt_host_i64(sc->n, sc->b), e = kt_host_i32(sc->n, sc->e), a = kt_host_i64(sc->n, sc->axes),
               s = kt_host_i64(sc->n, sc->steps);
        kt_buf y = kt_alloc(yd);
        oa_kslice_params p = {.begin_mask = sc->begin_mask, .end_mask = sc->end_mask, .shrink_axis_mask = sc->shrink};
        kt_buf *ins[5] = {&x, &b, &e, sc->has_axes ? &a : NULL, sc->has_steps ? &s : NULL}, *outs[1] = {&y};
        oa_status st = kt_run(OA_KOP_SLICE, &p, 5, ins, 0x1e, 1, outs, 1 + (int)(c % 2));
        if (st != OA_OK) {
            fail_msg("slice case %zu: status %d", c, (int)st);
        }
        kt_expect_equal(&y, ref, kt_fmt("slice case %zu", c));
        free(ref);
        kt_free(&x);
        kt_free(&b);
        kt_free(&e);
        kt_free(&a);
        kt_free(&s);
        kt_free(&y);
    }
    /* GE Slice (offsets, size with -1) */
    kt_buf x = kt_alloc(KT_D(OA_KDT_F32, 5, 6));
    kt_fill(&x, 1, -1, 1);
    kt_buf off = kt_host_i64(2, (int64_t[]){1, 2}), sz = kt_host_i64(2, (int64_t[]){3, -1});
    kt_buf y = kt_alloc(KT_D(OA_KDT_F32, 3, 4));
    double ref[12];
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 4; j++) {
            ref[i * 4 + j] = kt_get(&x, (1 + i) * 6 + 2 + j);
        }
    }
    oa_kslice_params p = {.size_form = true};
    kt_buf *ins[3] = {&x, &off, &sz}, *outs[1] = {&y};
    assert_int_equal(kt_run(OA_KOP_SLICE, &p, 3, ins, 0x6, 1, outs, 1), OA_OK);
    kt_expect_equal(&y, ref, "Slice size form");
    kt_free(&x);
    kt_free(&off);
    kt_free(&sz);
    kt_free(&y);
}

static void test_gather(void **state)
{
    (void)state;
    struct {
        oa_ktensor x, idx;
        int64_t axis, bd;
    } cases[] = {
        {KT_D(OA_KDT_F32, 30522 / 100, 16), KT_D(OA_KDT_I64, 2, 7), 0, 0}, /* embedding */
        {KT_D(OA_KDT_F32, 4, 5, 6), KT_D(OA_KDT_I32, 3), 1, 0},
        {KT_D(OA_KDT_I64, 4, 5, 6), KT_D(OA_KDT_I64, 2, 2), -1, 0},
        {KT_D(OA_KDT_F32, 4, 5, 6), kt_desc(OA_KDT_I64, 0, NULL), 2, 0},      /* scalar index */
        {KT_D(OA_KDT_F32, 3, 5, 4), KT_D(OA_KDT_I64, 3, 2), 1, 1},            /* batch_dims 1 */
        /* 8 KB rows: split over the pool's threads, rows prefetched ahead (and past the prefetch cap) */
        {KT_D(OA_KDT_F32, 300, 2048), KT_D(OA_KDT_I32, 2, 23), 0, 0},
        {KT_D(OA_KDT_F32, 3, 40, 700), KT_D(OA_KDT_I64, 3, 9), 1, 1}, /* batch_dims 1, 27 rows of 2.8 KB */
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        oa_ktensor xd = cases[c].x, id = cases[c].idx;
        int ax = (int)(cases[c].axis < 0 ? cases[c].axis + xd.rank : cases[c].axis);
        kt_buf x = kt_alloc(xd), ix = kt_alloc(id);
        kt_fill(&x, 1 + c, -100, 100);
        kt_fill(&ix, 2 + c, (double)-xd.dims[ax], (double)xd.dims[ax] - 1); /* negative indices too */
        int bd = (int)cases[c].bd;
        oa_ktensor yd;
        memset(&yd, 0, sizeof yd);
        yd.dtype = xd.dtype;
        for (int i = 0; i < ax; i++) {
            yd.dims[yd.rank++] = xd.dims[i];
        }
        for (int i = bd; i < id.rank; i++) {
            yd.dims[yd.rank++] = id.dims[i];
        }
        for (int i = ax + 1; i < xd.rank; i++) {
            yd.dims[yd.rank++] = xd.dims[i];
        }
        double *ref = alloc_ref(&yd);
        int nid = id.rank - bd;
        for (int64_t i = 0; i < oa_ktensor_numel(&yd); i++) {
            int64_t yi[8], xi[8], ii[8];
            unravel(&yd, i, yi);
            for (int d = 0; d < ax; d++) {
                xi[d] = yi[d];
            }
            for (int d = 0; d < bd; d++) {
                ii[d] = yi[d];
            }
            for (int d = 0; d < nid; d++) {
                ii[bd + d] = yi[ax + d];
            }
            int64_t v = (int64_t)kt_get(&ix, ravel(&id, ii));
            xi[ax] = v < 0 ? v + xd.dims[ax] : v;
            for (int d = ax + 1; d < xd.rank; d++) {
                xi[d] = yi[d - 1 + nid];
            }
            ref[i] = kt_get(&x, ravel(&xd, xi));
        }
        kt_buf y = kt_alloc(yd), axb = kt_host_i32(1, &cases[c].axis);
        axb.d.rank = 0;
        oa_kgather_params p = {.axis = cases[c].axis, .batch_dims = bd};
        kt_buf *ins[3] = {&x, &ix, &axb}, *outs[1] = {&y};
        for (int nt = 1; nt <= 2; nt++) { /* the rows split over the pool at 2 */
            memset(y.data, 0, y.bytes);
            oa_status st = kt_run(OA_KOP_GATHER, &p, c % 2 ? 3 : 2, ins, 0x4, 1, outs, nt);
            if (st != OA_OK) {
                fail_msg("gather case %zu: status %d", c, (int)st);
            }
            kt_expect_equal(&y, ref, kt_fmt("gather case %zu, %d threads", c, nt));
        }
        free(ref);
        kt_free(&x);
        kt_free(&ix);
        kt_free(&y);
        kt_free(&axb);
    }
    /* out-of-range index fails at run with a message */
    kt_buf x = kt_alloc(KT_D(OA_KDT_F32, 4, 2)), ix = kt_host_i64(1, (int64_t[]){4}), y = kt_alloc(KT_D(OA_KDT_F32, 1, 2));
    kt_fill(&x, 1, 0, 1);
    oa_kgather_params p = {.axis = 0};
    kt_buf *ins[2] = {&x, &ix}, *outs[1] = {&y};
    kt_expect_fail(kt_run(OA_KOP_GATHER, &p, 2, ins, 0, 1, outs, 1), OA_E_PARAM, "gather index out of range");
    kt_free(&ix);
    ix = kt_host_i64(1, (int64_t[]){-5}); /* below -dim */
    ins[1] = &ix;
    kt_expect_fail(kt_run(OA_KOP_GATHER, &p, 2, ins, 0, 1, outs, 1), OA_E_PARAM, "gather index below -dim");
    kt_free(&x);
    kt_free(&ix);
    kt_free(&y);
}

static void test_pad(void **state)
{
    (void)state;
    oa_ktensor xd = KT_D(OA_KDT_F32, 2, 3, 5);
    int64_t pads[][6] = {{0, 1, 2, 1, 0, 3}, {1, 2, 2, 0, 2, 4}, {0, -1, 1, 0, 1, -2}};
    for (int m = 0; m < 4; m++) {
        for (int pc = 0; pc < 3; pc++) {
            if (m != OA_KPADV_CONSTANT && pc == 2) {
                continue;
            }
            for (int contig = 0; contig < 2; contig++) {
                int64_t b[3], e[3];
                for (int i = 0; i < 3; i++) {
                    b[i] = pads[pc][i];
                    e[i] = pads[pc][3 + i];
                }
                int64_t v[6];
                for (int i = 0; i < 3; i++) {
                    if (contig) {
                        v[2 * i] = b[i];
                        v[2 * i + 1] = e[i];
                    } else {
                        v[i] = b[i];
                        v[3 + i] = e[i];
                    }
                }
                kt_buf x = kt_alloc(xd);
                kt_fill(&x, 7, -5, 5);
                oa_ktensor yd = xd;
                for (int i = 0; i < 3; i++) {
                    yd.dims[i] += b[i] + e[i];
                }
                double *ref = alloc_ref(&yd);
                for (int64_t i = 0; i < oa_ktensor_numel(&yd); i++) {
                    int64_t idx[3];
                    unravel(&yd, i, idx);
                    bool cst = false;
                    for (int d = 0; d < 3; d++) {
                        int64_t s = idx[d] - b[d], n = xd.dims[d];
                        if (s < 0 || s >= n) {
                            if (m == OA_KPADV_CONSTANT) {
                                cst = true;
                            } else if (m == OA_KPADV_EDGE) {
                                s = s < 0 ? 0 : n - 1;
                            } else if (m == OA_KPADV_REFLECT) {
                                s = s < 0 ? -s : 2 * (n - 1) - s;
                            } else {
                                s = s < 0 ? -s - 1 : 2 * n - 1 - s;
                            }
                        }
                        idx[d] = s;
                    }
                    ref[i] = cst ? 1.5 : kt_get(&x, ravel(&xd, idx));
                }
                kt_buf pb = kt_host_i64(6, v), cv = kt_scalar_f32(1.5f), y = kt_alloc(yd);
                oa_kpad_params p = {.mode = (oa_kpadv_mode)m, .paddings_contiguous = contig, .value = 9};
                kt_buf *ins[3] = {&x, &pb, &cv}, *outs[1] = {&y};
                oa_status st = kt_run(OA_KOP_PAD, &p, 3, ins, 0x6, 1, outs, 1);
                if (st != OA_OK) {
                    fail_msg("pad mode %d case %d: status %d", m, pc, (int)st);
                }
                kt_expect_equal(&y, ref, kt_fmt("pad mode %d case %d contig %d", m, pc, contig));
                free(ref);
                kt_free(&x);
                kt_free(&pb);
                kt_free(&cv);
                kt_free(&y);
            }
        }
    }
}

static void test_tile_expand_fill_range_copy(void **state)
{
    (void)state;
    /* Tile */
    oa_ktensor xd = KT_D(OA_KDT_I32, 2, 3, 2);
    kt_buf x = kt_alloc(xd);
    kt_fill(&x, 1, -9, 9);
    int64_t mult[3] = {2, 1, 3};
    oa_ktensor yd = KT_D(OA_KDT_I32, 4, 3, 6);
    double *ref = alloc_ref(&yd);
    for (int64_t i = 0; i < 72; i++) {
        int64_t idx[3];
        unravel(&yd, i, idx);
        for (int d = 0; d < 3; d++) {
            idx[d] %= xd.dims[d];
        }
        ref[i] = kt_get(&x, ravel(&xd, idx));
    }
    kt_buf m = kt_host_i64(3, mult), y = kt_alloc(yd);
    kt_buf *ins[2] = {&x, &m}, *outs[1] = {&y};
    assert_int_equal(kt_run(OA_KOP_TILE, NULL, 2, ins, 0x2, 1, outs, 1), OA_OK);
    kt_expect_equal(&y, ref, "tile");
    free(ref);
    kt_free(&m);
    kt_free(&y);
    /* Expand (bidirectional) [2,3,2] with shape [3,1,1,1] -> [3,2,3,2]; [3,1] -> [2,3,3]? */
    kt_buf sh = kt_host_i64(4, (int64_t[]){3, 1, 1, 1});
    oa_ktensor ed = KT_D(OA_KDT_I32, 3, 2, 3, 2);
    ref = alloc_ref(&ed);
    for (int64_t i = 0; i < 36; i++) {
        ref[i] = kt_get(&x, i % 12);
    }
    kt_buf ey = kt_alloc(ed);
    kt_buf *eins[2] = {&x, &sh}, *eouts[1] = {&ey};
    assert_int_equal(kt_run(OA_KOP_EXPAND, NULL, 2, eins, 0x2, 1, eouts, 2), OA_OK);
    kt_expect_equal(&ey, ref, "expand");
    free(ref);
    kt_free(&sh);
    kt_free(&ey);
    /* Copy (Reshape): [2,3,2] -> [3,4] via host shape with -1 and 0 */
    kt_buf rs = kt_host_i64(2, (int64_t[]){3, -1});
    kt_buf ry = kt_alloc(KT_D(OA_KDT_I32, 3, 4));
    double *r2 = kt_to_double(&x);
    kt_buf *rins[2] = {&x, &rs}, *routs[1] = {&ry};
    assert_int_equal(kt_run(OA_KOP_COPY, NULL, 2, rins, 0x2, 1, routs, 1), OA_OK);
    kt_expect_equal(&ry, r2, "reshape copy");
    free(r2);
    kt_free(&rs);
    kt_free(&ry);
    kt_free(&x);
    /* Fill */
    kt_buf dims = kt_host_i64(2, (int64_t[]){3, 5}), val = kt_scalar_f32(2.5f), fy = kt_alloc(KT_D(OA_KDT_F32, 3, 5));
    double fref[15];
    for (int i = 0; i < 15; i++) {
        fref[i] = 2.5;
    }
    kt_buf *fins[2] = {&dims, &val}, *fouts[1] = {&fy};
    assert_int_equal(kt_run(OA_KOP_FILL, NULL, 2, fins, 0x3, 1, fouts, 1), OA_OK);
    kt_expect_equal(&fy, fref, "fill");
    kt_free(&dims);
    kt_free(&val);
    kt_free(&fy);
    /* Range: f32, i64 negative delta, empty */
    struct {
        oa_kdtype dt;
        double s, l, d;
        int64_t n;
    } rc[] = {{OA_KDT_F32, 0.5, 3.0, 0.75, 4}, {OA_KDT_I64, 10, -3, -4, 4}, {OA_KDT_I32, 5, 5, 1, 0},
              {OA_KDT_I32, 0, 7, 3, 3}};
    for (int c = 0; c < 4; c++) {
        kt_buf s = kt_alloc(kt_desc(rc[c].dt, 0, NULL)), l = kt_alloc(s.d), d = kt_alloc(s.d);
        kt_set(&s, 0, rc[c].s);
        kt_set(&l, 0, rc[c].l);
        kt_set(&d, 0, rc[c].d);
        kt_buf ry2 = kt_alloc(kt_desc(rc[c].dt, 1, &rc[c].n));
        double rr[8];
        for (int64_t i = 0; i < rc[c].n; i++) {
            rr[i] = rc[c].dt == OA_KDT_F32 ? (double)(float)(rc[c].s + (double)i * rc[c].d) : rc[c].s + (double)i * rc[c].d;
        }
        kt_buf *rin[3] = {&s, &l, &d}, *rout[1] = {&ry2};
        assert_int_equal(kt_run(OA_KOP_RANGE, NULL, 3, rin, 0x7, 1, rout, 1), OA_OK);
        kt_expect_equal(&ry2, rr, kt_fmt("range case %d", c));
        kt_free(&s);
        kt_free(&l);
        kt_free(&d);
        kt_free(&ry2);
    }
}

static void test_reorder(void **state)
{
    (void)state;
    int64_t cs[] = {1, 7, 8, 16, 19};
    for (int i = 0; i < 5; i++) {
        kt_buf x = kt_alloc(KT_D(OA_KDT_F32, 2, cs[i], 3, 5));
        kt_fill(&x, 1, -1, 1);
        kt_buf expect = kt_blocked_from_plain(&x);
        kt_buf y = kt_alloc(expect.d);
        kt_buf *ins[1] = {&x}, *outs[1] = {&y};
        assert_int_equal(kt_run(OA_KOP_REORDER, NULL, 1, ins, 0, 1, outs, 2), OA_OK);
        assert_memory_equal(y.data, expect.data, expect.bytes);
        kt_buf back = kt_alloc(x.d);
        kt_buf *bins[1] = {&y}, *bouts[1] = {&back};
        assert_int_equal(kt_run(OA_KOP_REORDER, NULL, 1, bins, 0, 1, bouts, 1), OA_OK);
        assert_memory_equal(back.data, x.data, x.bytes);
        kt_free(&x);
        kt_free(&expect);
        kt_free(&y);
        kt_free(&back);
    }
}

/*
 * Transpose of a blocked x to channels last (the layout pass's head fold): every group size the
 * block can split into runs (k 85 across blocks, k 8 inside one, k 1), NHWC (groups 0), partial
 * pixel tiles, two images, 1 and 2 threads, with and without an activation post-op. The reference
 * indexes the plain tensor; the x handed to the kernel is blocked by the harness.
 */
static void test_transpose_blocked(void **state)
{
    (void)state;
    const struct {
        int64_t n, c, h, w, groups;
        oa_kact act;
        int thr;
    } cases[] = {
        {1, 255, 9, 11, 3, OA_KACT_SIGMOID, 2}, {2, 24, 5, 7, 3, OA_KACT_NONE, 1}, {1, 40, 6, 6, 0, OA_KACT_RELU, 2},
        {2, 5, 3, 3, 5, OA_KACT_TANH, 1},       {1, 32, 70, 1, 2, OA_KACT_NONE, 2},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const int64_t N = cases[i].n, C = cases[i].c, HW = cases[i].h * cases[i].w;
        const int64_t G = cases[i].groups > 0 ? cases[i].groups : 1, K = C / G;
        kt_buf x = kt_alloc(KT_D(OA_KDT_F32, N, C, cases[i].h, cases[i].w));
        kt_fill(&x, 60 + i, -6, 6);
        kt_buf xb = kt_blocked_from_plain(&x);
        oa_ktranspose_params p = {.groups = cases[i].groups};
        const int64_t grouped[5] = {0, 1, 3, 4, 2}, nhwc[4] = {0, 2, 3, 1};
        p.n_perm = cases[i].groups > 0 ? 5 : 4;
        memcpy(p.perm, cases[i].groups > 0 ? grouped : nhwc, sizeof(int64_t) * (size_t)p.n_perm);
        if (cases[i].act != OA_KACT_NONE) {
            p.post.n = 1;
            p.post.ops[0].kind = OA_KPOST_ACT;
            p.post.ops[0].act = cases[i].act;
        }
        kt_buf y = kt_alloc(cases[i].groups > 0 ? KT_D(OA_KDT_F32, N, G, cases[i].h, cases[i].w, K)
                                                : KT_D(OA_KDT_F32, N, cases[i].h, cases[i].w, C));
        double *ref = alloc_ref(&y.d);
        for (int64_t n = 0; n < N; n++) {
            for (int64_t g = 0; g < G; g++) {
                for (int64_t px = 0; px < HW; px++) {
                    for (int64_t k = 0; k < K; k++) {
                        double v = kt_get(&x, (n * C + g * K + k) * HW + px);
                        v = cases[i].act == OA_KACT_SIGMOID ? 1.0 / (1.0 + exp(-v))
                            : cases[i].act == OA_KACT_RELU  ? (v > 0 ? v : 0.0)
                            : cases[i].act == OA_KACT_TANH  ? tanh(v)
                                                            : v;
                        ref[((n * G + g) * HW + px) * K + k] = v;
                    }
                }
            }
        }
        kt_buf *ins[1] = {&xb}, *outs[1] = {&y};
        assert_int_equal(kt_run(OA_KOP_TRANSPOSE, &p, 1, ins, 0, 1, outs, cases[i].thr), OA_OK);
        const char *label = kt_fmt("blocked transpose case %zu (%s)", i, kt_last_impl);
        if (cases[i].act == OA_KACT_NONE || cases[i].act == OA_KACT_RELU) {
            kt_expect_equal(&y, ref, label);
        } else {
            kt_expect_close(&y, ref, 1e-6, 1e-5, label);
        }
        free(ref);
        kt_free(&x);
        kt_free(&xb);
        kt_free(&y);
    }
    /* what the blocked form refuses: another perm, groups that do not divide C, groups on a plain x,
     * post-ops on a non-f32 x */
    oa_ktensor out[1], xb = KT_D(OA_KDT_F32, 1, 24, 2, 2);
    xb.layout = OA_KLAYOUT_NCHWC;
    oa_ktranspose_params p = {.n_perm = 4, .perm = {0, 3, 2, 1}};
    kt_expect_fail(oa_kernel_infer(OA_KOP_TRANSPOSE, &p, 1, &xb, 1, out), OA_E_PARAM, "blocked x, other perm");
    p = (oa_ktranspose_params){.n_perm = 5, .perm = {0, 1, 3, 4, 2}, .groups = 5};
    kt_expect_fail(oa_kernel_infer(OA_KOP_TRANSPOSE, &p, 1, &xb, 1, out), OA_E_PARAM, "groups not dividing C");
    oa_ktensor xp = KT_D(OA_KDT_F32, 1, 24, 2, 2);
    p = (oa_ktranspose_params){.n_perm = 4, .perm = {0, 2, 3, 1}, .groups = 3};
    kt_expect_fail(oa_kernel_infer(OA_KOP_TRANSPOSE, &p, 1, &xp, 1, out), OA_E_PARAM, "groups on a plain x");
    oa_ktensor xi = KT_D(OA_KDT_I32, 2, 3);
    p = (oa_ktranspose_params){.n_perm = 2, .perm = {1, 0}, .post = {.n = 1, .ops = {{.kind = OA_KPOST_ACT}}}};
    p.post.ops[0].act = OA_KACT_RELU;
    kt_expect_fail(oa_kernel_infer(OA_KOP_TRANSPOSE, &p, 1, &xi, 1, out), OA_E_PARAM, "post-op on i32");
}

static void test_shape_bad_params(void **state)
{
    (void)state;
    oa_ktensor out[2];
    oa_ktranspose_params tp = {.n_perm = 2, .perm = {0, 0}};
    oa_ktensor x = KT_D(OA_KDT_F32, 2, 3);
    kt_expect_fail(oa_kernel_infer(OA_KOP_TRANSPOSE, &tp, 1, &x, 1, out), OA_E_PARAM, "perm not a permutation");
    oa_kconcat_params cp = {.axis = 2};
    oa_ktensor two[2] = {x, x};
    kt_expect_fail(oa_kernel_infer(OA_KOP_CONCAT, &cp, 2, two, 1, out), OA_E_PARAM, "concat axis out of range");
    two[1] = KT_D(OA_KDT_F32, 3, 3);
    cp.axis = 1;
    kt_expect_fail(oa_kernel_infer(OA_KOP_CONCAT, &cp, 2, two, 1, out), OA_E_PARAM, "concat dims mismatch");
    oa_ksplit_params sp = {.axis = 1, .n_sizes = 2, .sizes = {1, 1}};
    kt_expect_fail(oa_kernel_infer(OA_KOP_SPLIT, &sp, 1, &x, 2, out), OA_E_PARAM, "split sizes sum");
    oa_ktensor sl[3] = {x, KT_D(OA_KDT_I64, 1), KT_D(OA_KDT_I64, 1)};
    oa_kslice_params slp = {0};
    kt_expect_fail(oa_kernel_infer(OA_KOP_SLICE, &slp, 3, sl, 1, out), OA_E_PARAM, "slice begin without data");
    oa_kpad_params pp = {.mode = OA_KPADV_REFLECT};
    int64_t pads[4] = {3, 0, 0, 0};
    oa_ktensor pin[2] = {x, KT_D(OA_KDT_I64, 4)};
    pin[1].data = pads;
    kt_expect_fail(oa_kernel_infer(OA_KOP_PAD, &pp, 2, pin, 1, out), OA_E_PARAM, "reflect pad too large");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transpose), cmocka_unit_test(test_concat_split), cmocka_unit_test(test_slice),
        cmocka_unit_test(test_gather),    cmocka_unit_test(test_pad),
        cmocka_unit_test(test_tile_expand_fill_range_copy),
        cmocka_unit_test(test_reorder),   cmocka_unit_test(test_shape_bad_params),
        cmocka_unit_test(test_concat_nchwc_unaligned),
        cmocka_unit_test(test_concat_in_place),
        cmocka_unit_test(test_transpose_blocked),
        cmocka_unit_test(test_concat_short_rows),
        cmocka_unit_test(test_concat_windows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

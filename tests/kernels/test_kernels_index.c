/*
 * Conformance of the INDEX family (kernels.h "Indexing") where the ONNX
 * backend suite does not reach: integer dtypes computed in their own type
 * (wrap-around, 64-bit values past 2^53), reductions per dtype, bad indices
 * (an error, nothing written, the guard bytes intact), the data-dependent
 * count output of NonZero / Unique and its absence. References are plain
 * loops written here.
 */
#include <stdlib.h>
#include <string.h>

#include "kt_harness.h"

static oa_status run(const oa_kindex_params *p, int n_in, const oa_ktensor *in, const void *const *data, int n_out,
                     const oa_ktensor *out, void *const *odata)
{
    return oa_kernel_run_once(OA_KOP_INDEX, p, n_in, in, data, n_out, out, odata, NULL);
}

/* ---- Cumsum in the element type ---- */

static void test_cumsum_i32_wraps(void **state)
{
    (void)state;
    const int32_t x[4] = {INT32_MAX, 1, -5, INT32_MIN};
    const int64_t axis = 0;
    oa_ktensor in[2] = {KT_D(OA_KDT_I32, 4), KT_D(OA_KDT_I64, 1)};
    in[1].data = &axis; /* host axis */
    oa_ktensor out = KT_D(OA_KDT_I32, 4);
    kt_buf y = kt_alloc(out);
    oa_kindex_params p = {.op = OA_KIDX_CUMSUM};
    const void *d[2] = {x, NULL};
    assert_int_equal(run(&p, 2, in, d, 1, &out, &y.data), OA_OK);
    uint32_t acc = 0;
    for (int i = 0; i < 4; i++) {
        acc += (uint32_t)x[i];
        assert_int_equal(((int32_t *)y.data)[i], (int32_t)acc);
    }
    kt_check_guards(&y, "cumsum i32");
    kt_free(&y);
}

static void test_cumsum_u64_exclusive_reverse_runtime_axis(void **state)
{
    (void)state;
    /* [2, 3], axis 1 given at run time; values beyond 2^53 must stay exact */
    const uint64_t x[6] = {(1ull << 60) + 1, 3, 5, 7, (1ull << 63) + 11, 13};
    const int32_t axis = -1;
    oa_ktensor in[2] = {KT_D(OA_KDT_U64, 2, 3), KT_D(OA_KDT_I32, 1)};
    oa_ktensor out = KT_D(OA_KDT_U64, 2, 3);
    kt_buf y = kt_alloc(out);
    oa_kindex_params p = {.op = OA_KIDX_CUMSUM, .exclusive = true, .reverse = true};
    const void *d[2] = {x, &axis};
    assert_int_equal(run(&p, 2, in, d, 1, &out, &y.data), OA_OK);
    for (int r = 0; r < 2; r++) {
        uint64_t acc = 0;
        for (int c = 2; c >= 0; c--) {
            assert_true(((uint64_t *)y.data)[r * 3 + c] == acc);
            acc += x[r * 3 + c];
        }
    }
    kt_check_guards(&y, "cumsum u64");
    kt_free(&y);
    const int32_t bad = 2;
    const void *d2[2] = {x, &bad};
    y = kt_alloc(out);
    assert_int_equal(run(&p, 2, in, d2, 1, &out, &y.data), OA_E_PARAM);
    kt_free(&y);
}

/* ---- ScatterND: reductions in the element type, bad indices ---- */

static void test_scatter_nd_reductions(void **state)
{
    (void)state;
    /* x [4, 2] i64, indices [3, 1] (duplicate row 1), updates [3, 2] */
    const int64_t x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const int64_t idx[3] = {1, -1, 1};
    const int64_t up[6] = {INT64_MAX, 2, 3, -4, 5, 6};
    oa_ktensor in[3] = {KT_D(OA_KDT_I64, 4, 2), KT_D(OA_KDT_I64, 3, 1), KT_D(OA_KDT_I64, 3, 2)};
    oa_ktensor out = KT_D(OA_KDT_I64, 4, 2);
    const oa_kscatter_red reds[3] = {OA_KSCAT_MUL, OA_KSCAT_ADD, OA_KSCAT_MIN};
    for (int r = 0; r < 3; r++) {
        kt_buf y = kt_alloc(out);
        oa_kindex_params p = {.op = OA_KIDX_SCATTER_ND, .reduction = reds[r]};
        const void *d[3] = {x, idx, up};
        assert_int_equal(run(&p, 3, in, d, 1, &out, &y.data), OA_OK);
        uint64_t ref[8];
        for (int i = 0; i < 8; i++) {
            ref[i] = (uint64_t)x[i];
        }
        for (int t = 0; t < 3; t++) {
            const int64_t row = idx[t] < 0 ? idx[t] + 4 : idx[t];
            for (int e = 0; e < 2; e++) {
                uint64_t *a = &ref[row * 2 + e];
                const int64_t u = up[t * 2 + e];
                if (reds[r] == OA_KSCAT_MUL) {
                    *a *= (uint64_t)u;
                } else if (reds[r] == OA_KSCAT_ADD) {
                    *a += (uint64_t)u;
                } else if ((int64_t)*a > u) {
                    *a = (uint64_t)u;
                }
            }
        }
        for (int i = 0; i < 8; i++) {
            assert_true(((int64_t *)y.data)[i] == (int64_t)ref[i]);
        }
        kt_check_guards(&y, "scatter_nd");
        kt_free(&y);
    }
}

static void test_scatter_nd_f16_add(void **state)
{
    (void)state;
    /* f16 2048 + 1 = 2048 in f16 (the spacing there is 2): computed in f16, not in f32 */
    const uint16_t x[2] = {0x6800 /* 2048 */, 0x3c00 /* 1 */};
    const int64_t idx[2] = {0, 0};
    const uint16_t up[2] = {0x3c00, 0x3c00};
    oa_ktensor in[3] = {KT_D(OA_KDT_F16, 2), KT_D(OA_KDT_I64, 2, 1), KT_D(OA_KDT_F16, 2)};
    oa_ktensor out = KT_D(OA_KDT_F16, 2);
    kt_buf y = kt_alloc(out);
    oa_kindex_params p = {.op = OA_KIDX_SCATTER_ND, .reduction = OA_KSCAT_ADD};
    const void *d[3] = {x, idx, up};
    assert_int_equal(run(&p, 3, in, d, 1, &out, &y.data), OA_OK);
    assert_int_equal(((uint16_t *)y.data)[0], 0x6800);
    assert_int_equal(((uint16_t *)y.data)[1], 0x3c00);
    kt_free(&y);
}

static void test_cumsum_bf16_rounds_each_step(void **state)
{
    (void)state;
    /* bf16 has 8 significant bits: 256 + 1 rounds back to 256 (ties to even) at every step, while a
     * sum kept in f32 would reach 259 and round to 260 */
    const uint16_t x[4] = {0x4380 /* 256 */, 0x3f80 /* 1 */, 0x3f80, 0x3f80};
    const int64_t axis = 0;
    oa_ktensor in[2] = {KT_D(OA_KDT_BF16, 4), KT_D(OA_KDT_I64, 1)};
    in[1].data = &axis;
    oa_ktensor out = KT_D(OA_KDT_BF16, 4);
    kt_buf y = kt_alloc(out);
    oa_kindex_params p = {.op = OA_KIDX_CUMSUM};
    assert_int_equal(run(&p, 2, in, (const void *[]){x, NULL}, 1, &out, &y.data), OA_OK);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(((uint16_t *)y.data)[i], 0x4380);
    }
    kt_free(&y);
}

/* A bad index: OA_E_PARAM, the output untouched (canary), guards intact. */
static void expect_bad_index(const oa_kindex_params *p, int n_in, const oa_ktensor *in, const void *const *d,
                             const oa_ktensor *out)
{
    kt_buf y = kt_alloc(*out);
    memset(y.data, 0xA5, y.bytes);
    assert_int_equal(run(p, n_in, in, d, 1, out, &y.data), OA_E_PARAM);
    for (size_t i = 0; i < y.bytes; i++) {
        assert_int_equal(((unsigned char *)y.data)[i], 0xA5);
    }
    kt_check_guards(&y, "bad index");
    kt_free(&y);
}

static void test_bad_indices(void **state)
{
    (void)state;
    const float x[6] = {0};
    const float up[2] = {1, 2};
    /* ScatterND: row 3 of 3 */
    const int32_t nd_idx[2] = {0, 3};
    oa_ktensor nd_in[3] = {KT_D(OA_KDT_F32, 3, 2), KT_D(OA_KDT_I32, 2, 1), KT_D(OA_KDT_F32, 2, 2)};
    const float up4[4] = {1, 2, 3, 4};
    oa_kindex_params p = {.op = OA_KIDX_SCATTER_ND};
    expect_bad_index(&p, 3, nd_in, (const void *[]){x, nd_idx, up4}, &nd_in[0]);
    /* ScatterElements: -4 on an axis of 3 */
    const int64_t se_idx[2] = {1, -4};
    oa_ktensor se_in[3] = {KT_D(OA_KDT_F32, 3, 2), KT_D(OA_KDT_I64, 1, 2), KT_D(OA_KDT_F32, 1, 2)};
    p = (oa_kindex_params){.op = OA_KIDX_SCATTER_ELEMENTS, .axis = 0};
    expect_bad_index(&p, 3, se_in, (const void *[]){x, se_idx, up}, &se_in[0]);
    /* GatherND: (2, 5) in [3, 2] */
    const int64_t g_idx[4] = {0, 1, 2, 5};
    oa_ktensor g_in[2] = {KT_D(OA_KDT_F32, 3, 2), KT_D(OA_KDT_I64, 2, 2)};
    oa_ktensor g_out = KT_D(OA_KDT_F32, 2);
    p = (oa_kindex_params){.op = OA_KIDX_GATHER_ND};
    kt_buf y = kt_alloc(g_out);
    assert_int_equal(run(&p, 2, g_in, (const void *[]){x, g_idx}, 1, &g_out, &y.data), OA_E_PARAM);
    kt_check_guards(&y, "gather_nd");
    kt_free(&y);
    /* ReverseSequence: a length beyond the time axis */
    const int64_t lens[2] = {1, 4};
    oa_ktensor rs_in[2] = {KT_D(OA_KDT_F32, 3, 2), KT_D(OA_KDT_I64, 2)};
    p = (oa_kindex_params){.op = OA_KIDX_REVERSE_SEQUENCE, .axis = 0, .batch_dims = 1};
    expect_bad_index(&p, 2, rs_in, (const void *[]){x, lens}, &rs_in[0]);
    /* indices of another dtype are refused at create */
    oa_ktensor f_in[2] = {KT_D(OA_KDT_F32, 3, 2), KT_D(OA_KDT_F32, 2, 2)};
    oa_ktensor o;
    p = (oa_kindex_params){.op = OA_KIDX_GATHER_ND};
    assert_int_not_equal(oa_kernel_infer(OA_KOP_INDEX, &p, 2, f_in, 1, &o), OA_OK);
}

/* ---- OneHot: out-of-range indices give a row of off_value ---- */

static void test_one_hot_u8(void **state)
{
    (void)state;
    const int64_t idx[4] = {0, -1, 5, -6};
    const int32_t depth = 5;
    const uint8_t on = 7, off = 200;
    oa_ktensor in[4] = {KT_D(OA_KDT_I64, 4), KT_D(OA_KDT_I32, 1), KT_D(OA_KDT_U8, 1), KT_D(OA_KDT_U8, 1)};
    in[1].data = &depth;
    oa_ktensor out;
    oa_kindex_params p = {.op = OA_KIDX_ONE_HOT, .axis = -1};
    assert_int_equal(oa_kernel_infer(OA_KOP_INDEX, &p, 4, in, 1, &out), OA_OK);
    assert_int_equal(out.rank, 2);
    assert_int_equal(out.dims[1], 5);
    kt_buf y = kt_alloc(out);
    assert_int_equal(run(&p, 4, in, (const void *[]){idx, NULL, &on, &off}, 1, &out, &y.data), OA_OK);
    for (int r = 0; r < 4; r++) {
        const int64_t k = idx[r] >= -5 && idx[r] < 5 ? (idx[r] + 5) % 5 : -1;
        for (int c = 0; c < 5; c++) {
            assert_int_equal(((uint8_t *)y.data)[r * 5 + c], c == k ? on : off);
        }
    }
    kt_check_guards(&y, "one_hot");
    kt_free(&y);
}

/* ---- NonZero / Unique: the count output, and the exact-size rule without it ---- */

static void test_non_zero_count(void **state)
{
    (void)state;
    const int16_t x[6] = {0, 3, 0, -1, 2, 0};
    oa_ktensor in = KT_D(OA_KDT_I16, 2, 3);
    oa_ktensor out[2] = {KT_D(OA_KDT_I64, 2, 6), KT_D(OA_KDT_I64, 0)};
    out[1].rank = 0;
    kt_buf y = kt_alloc(out[0]);
    int64_t count = -1;
    oa_kindex_params p = {.op = OA_KIDX_NON_ZERO};
    void *od[2] = {y.data, &count};
    assert_int_equal(run(&p, 1, &in, (const void *[]){x}, 2, out, od), OA_OK);
    int64_t n = 0;
    for (int i = 0; i < 6; i++) {
        n += x[i] != 0;
    }
    assert_int_equal(count, n);
    for (int i = 0, k = 0; i < 6; i++) {
        if (x[i] != 0) {
            assert_int_equal(((int64_t *)y.data)[k], i / 3);     /* row of coordinate k, packed for count */
            assert_int_equal(((int64_t *)y.data)[n + k], i % 3);
            k++;
        }
    }
    kt_check_guards(&y, "non_zero");
    kt_free(&y);
    /* without the count output the described size must be the real one */
    oa_ktensor exact = KT_D(OA_KDT_I64, 2, 6);
    y = kt_alloc(exact);
    assert_int_equal(run(&p, 1, &in, (const void *[]){x}, 1, &exact, &y.data), OA_E_PARAM);
    kt_free(&y);
}

static int cmp_i8(const void *a, const void *b)
{
    return *(const int8_t *)a - *(const int8_t *)b;
}

static void test_unique_i8_counts(void **state)
{
    (void)state;
    const int8_t x[8] = {4, -3, 4, 127, -128, -3, 4, 0};
    oa_ktensor in = KT_D(OA_KDT_I8, 8);
    oa_ktensor out[5] = {KT_D(OA_KDT_I8, 8), KT_D(OA_KDT_I64, 8), KT_D(OA_KDT_I64, 8), KT_D(OA_KDT_I64, 8),
                         KT_D(OA_KDT_I64, 0)};
    out[4].rank = 0;
    kt_buf b[4];
    void *od[5];
    for (int k = 0; k < 4; k++) {
        b[k] = kt_alloc(out[k]);
        od[k] = b[k].data;
    }
    int64_t count = -1;
    od[4] = &count;
    oa_kindex_params p = {.op = OA_KIDX_UNIQUE, .sorted = true};
    assert_int_equal(run(&p, 1, &in, (const void *[]){x}, 5, out, od), OA_OK);
    int8_t s[8];
    memcpy(s, x, 8);
    qsort(s, 8, 1, cmp_i8);
    int64_t n = 0;
    for (int i = 0; i < 8; i++) {
        if (i == 0 || s[i] != s[i - 1]) {
            s[n++] = s[i];
        }
    }
    assert_int_equal(count, n);
    for (int64_t u = 0; u < n; u++) {
        const int8_t v = ((int8_t *)b[0].data)[u];
        assert_int_equal(v, s[u]);
        int64_t first = -1, cnt = 0;
        for (int i = 0; i < 8; i++) {
            if (x[i] == v) {
                first = first < 0 ? i : first;
                cnt++;
                assert_int_equal(((int64_t *)b[2].data)[i], u);
            }
        }
        assert_int_equal(((int64_t *)b[1].data)[u], first);
        assert_int_equal(((int64_t *)b[3].data)[u], cnt);
    }
    for (int k = 0; k < 4; k++) {
        kt_check_guards(&b[k], "unique");
        kt_free(&b[k]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cumsum_i32_wraps),       cmocka_unit_test(test_cumsum_u64_exclusive_reverse_runtime_axis),
        cmocka_unit_test(test_scatter_nd_reductions),  cmocka_unit_test(test_scatter_nd_f16_add),
        cmocka_unit_test(test_cumsum_bf16_rounds_each_step),
        cmocka_unit_test(test_bad_indices),            cmocka_unit_test(test_one_hot_u8),
        cmocka_unit_test(test_non_zero_count),         cmocka_unit_test(test_unique_i8_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

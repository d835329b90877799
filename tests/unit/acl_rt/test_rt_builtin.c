/*
 * acl_rt/: the built-in stream tasks (aclrtReduceAsync, aclrtRandomNumAsync), the overflow status they feed,
 * saturation mode, and the operator wait timeout (aclrtSetOpWaitTimeout) reported at synchronisation.
 * Random output is checked statistically (moments and a Kolmogorov-Smirnov bound against the exact CDF) and for
 * reproducibility from the seed and the counter.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>

#include "rt_test_util.h"

static int teardown(void **state)
{
    (void)state;
    (void)aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN);
    (void)aclrtSetOpWaitTimeout(0);
    (void)aclrtResetDeviceForce(0);
    return 0;
}

static void *dev_alloc(size_t n)
{
    void *p = NULL;
    assert_int_equal(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    return p;
}

/* ---- reduce ---- */

static void reduce_float_kinds(void **state)
{
    (void)state;
    const float a[5] = {1.0f, -2.0f, 3.5f, 0.25f, -7.0f};
    const float b[5] = {4.0f, -1.0f, -3.5f, 8.0f, -9.0f};
    const aclrtReduceKind kinds[3] = {ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX,
                                      ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN};
    float *dst = dev_alloc(sizeof(a));
    float *src = dev_alloc(sizeof(b));
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    for (int k = 0; k < 3; ++k) {
        memcpy(dst, a, sizeof(a));
        memcpy(src, b, sizeof(b));
        assert_int_equal(aclrtReduceAsync(dst, src, sizeof(a), kinds[k], ACL_FLOAT, s, NULL), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
        for (int i = 0; i < 5; ++i) {
            const float want = k == 0 ? a[i] + b[i] : k == 1 ? fmaxf(a[i], b[i]) : fminf(a[i], b[i]);
            assert_true(dst[i] == want);
            assert_true(src[i] == b[i]); /* the source is left alone */
        }
    }
    /* count is in bytes: only the first two elements change */
    memcpy(dst, a, sizeof(a));
    assert_int_equal(aclrtReduceAsync(dst, src, 2 * sizeof(float), ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s,
                                      NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_true(dst[1] == a[1] + b[1] && dst[2] == a[2]);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtFree(dst), ACL_SUCCESS);
    assert_int_equal(aclrtFree(src), ACL_SUCCESS);
}

static void reduce_integer_and_half_types(void **state)
{
    (void)state;
    int8_t *d8 = dev_alloc(4), *s8 = dev_alloc(4);
    const int8_t a8[4] = {100, -100, 5, -128}, b8[4] = {100, -100, -6, 1};
    memcpy(d8, a8, 4);
    memcpy(s8, b8, 4);
    assert_int_equal(aclrtReduceAsync(d8, s8, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT8, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_int_equal(d8[0], 127); /* saturates */
    assert_int_equal(d8[1], -128);
    assert_int_equal(d8[2], -1);
    assert_int_equal(d8[3], -127);

    uint32_t *du = dev_alloc(8), *su = dev_alloc(8);
    du[0] = 7;
    du[1] = 4000000000u;
    su[0] = 9;
    su[1] = 3;
    assert_int_equal(aclrtReduceAsync(du, su, 8, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_UINT32, NULL, NULL),
                     ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_int_equal(du[0], 9);
    assert_int_equal(du[1], 4000000000u);

    uint16_t *dh = dev_alloc(6), *sh = dev_alloc(6);
    const float fa[3] = {1.5f, -0.25f, 1000.0f}, fb[3] = {2.25f, 0.125f, 24.0f};
    for (int i = 0; i < 3; ++i) {
        dh[i] = aclFloatToFloat16(fa[i]);
        sh[i] = aclFloatToFloat16(fb[i]);
    }
    assert_int_equal(aclrtReduceAsync(dh, sh, 6, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT16, NULL, NULL),
                     ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    for (int i = 0; i < 3; ++i) {
        assert_true(aclFloat16ToFloat(dh[i]) == fa[i] + fb[i]); /* exact in fp16 */
    }
    /* bf16: 1.0 (0x3F80) + 2.0 (0x4000) = 3.0 (0x4040); min(-1.5, 0.5) = -1.5 (0xBFC0) */
    dh[0] = 0x3F80;
    sh[0] = 0x4000;
    assert_int_equal(aclrtReduceAsync(dh, sh, 2, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_BF16, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_int_equal(dh[0], 0x4040);
    dh[0] = 0xBFC0;
    sh[0] = 0x3F00;
    assert_int_equal(aclrtReduceAsync(dh, sh, 2, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, ACL_BF16, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_int_equal(dh[0], 0xBFC0);
    void *all[] = {d8, s8, du, su, dh, sh};
    for (size_t i = 0; i < 6; ++i) {
        assert_int_equal(aclrtFree(all[i]), ACL_SUCCESS);
    }
}

static void reduce_bad_inputs(void **state)
{
    (void)state;
    float *d = dev_alloc(16), *s = dev_alloc(16);
    float host[4];
    const aclrtReduceKind sum = ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM;
    assert_int_equal(aclrtReduceAsync(NULL, s, 16, sum, ACL_FLOAT, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtReduceAsync(d, NULL, 16, sum, ACL_FLOAT, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtReduceAsync(d, s, 16, sum, ACL_FLOAT, NULL, d), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtReduceAsync(d, s, 16, (aclrtReduceKind)3, ACL_FLOAT, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    test_expect_msg("reduce kind");
    assert_int_equal(aclrtReduceAsync(d, s, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, ACL_FLOAT, NULL, NULL),
                     ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    test_expect_msg("EQUAL");
    assert_int_equal(aclrtReduceAsync(d, s, 16, sum, ACL_DOUBLE, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    test_expect_msg("not supported by reduce");
    assert_int_equal(aclrtReduceAsync(d, s, 6, sum, ACL_FLOAT, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtReduceAsync(d, s, 0, sum, ACL_FLOAT, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtReduceAsync(d, s, 1u << 20, sum, ACL_FLOAT, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
    test_expect_msg("do not fit");
    assert_int_equal(aclrtReduceAsync(host, s, 16, sum, ACL_FLOAT, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
    test_expect_msg("not device memory");
    assert_int_equal(aclrtReduceAsync(d, s, 16, sum, ACL_FLOAT, (aclrtStream)host, NULL),
                     ACL_ERROR_RT_INVALID_HANDLE);
    assert_int_equal(aclrtFree(d), ACL_SUCCESS);
    assert_int_equal(aclrtFree(s), ACL_SUCCESS);
}

static uint64_t overflow_flag(void *status)
{
    assert_int_equal(aclrtGetOverflowStatus(status, 64, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    uint64_t v;
    memcpy(&v, status, sizeof(v));
    return v;
}

static void overflow_status_and_saturation_mode(void **state)
{
    (void)state;
    void *status = dev_alloc(64);
    float *d = dev_alloc(8), *s = dev_alloc(8);
    assert_int_equal(aclrtResetOverflowStatus(NULL), ACL_SUCCESS);
    assert_int_equal(overflow_flag(status), 0);
    d[0] = 1.0f;
    s[0] = 2.0f;
    assert_int_equal(aclrtReduceAsync(d, s, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(overflow_flag(status), 0);

    /* INF/NAN mode (default): FLT_MAX + FLT_MAX is +inf and the overflow is recorded */
    d[0] = 3.0e38f;
    s[0] = 3.0e38f;
    assert_int_equal(aclrtReduceAsync(d, s, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_true(isinf(d[0]) && d[0] > 0);
    assert_int_equal(overflow_flag(status), 1);
    assert_int_equal(aclrtResetFloatOverflowStatus(NULL), ACL_SUCCESS);
    assert_int_equal(overflow_flag(status), 0);

    /* saturation mode: streams created afterwards clamp the result to the largest finite value */
    assert_int_equal(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION), ACL_SUCCESS);
    aclrtStream sat = NULL;
    assert_int_equal(aclrtCreateStream(&sat), ACL_SUCCESS);
    d[0] = -3.0e38f;
    s[0] = -3.0e38f;
    assert_int_equal(aclrtReduceAsync(d, s, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, sat, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(sat), ACL_SUCCESS);
    assert_true(d[0] == -3.4028234663852886e38f);
    assert_int_equal(overflow_flag(status), 1);
    /* ... the default stream, created before, keeps INF/NAN mode */
    d[0] = -3.0e38f;
    assert_int_equal(aclrtReduceAsync(d, s, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_true(isinf(d[0]) && d[0] < 0);
    /* half types clamp to their own largest finite values */
    uint16_t *h = dev_alloc(4);
    h[0] = aclFloatToFloat16(60000.0f);
    h[1] = aclFloatToFloat16(60000.0f);
    assert_int_equal(aclrtReduceAsync(h, h + 1, 2, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT16, sat, NULL),
                     ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(sat), ACL_SUCCESS);
    assert_true(aclFloat16ToFloat(h[0]) == 65504.0f);
    assert_int_equal(aclrtFree(h), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(sat), ACL_SUCCESS);
    /* the float query reads the same status; a short buffer gets the leading bytes */
    assert_int_equal(aclrtGetFloatOverflowStatus(status, 1, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_int_equal(((uint8_t *)status)[0], 1);
    assert_int_equal(aclrtNpuClearFloatOverFlowStatus(0, NULL), ACL_SUCCESS);
    assert_int_equal(overflow_flag(status), 0);

    float host[16];
    assert_int_equal(aclrtGetOverflowStatus(host, 64, NULL), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtGetOverflowStatus(status, 1u << 20, NULL), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtGetOverflowStatus(status, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtFree(d), ACL_SUCCESS);
    assert_int_equal(aclrtFree(s), ACL_SUCCESS);
    assert_int_equal(aclrtFree(status), ACL_SUCCESS);
}

/* ---- random numbers ---- */

static void para_set(aclrtRandomParaInfo *p, const void *v, uint8_t size)
{
    memset(p, 0, sizeof(*p));
    memcpy(p->valueOrAddr, v, size);
    p->size = size;
}

static aclrtRandomNumTaskInfo task_info(aclDataType t, aclrtRandomNumFuncType f, uint64_t seed, uint64_t n, void *out,
                                        void *counter)
{
    aclrtRandomNumTaskInfo ti;
    memset(&ti, 0, sizeof(ti));
    ti.dataType = t;
    ti.randomNumFuncParaInfo.funcType = f;
    ti.randomResultAddr = out;
    ti.randomCounterAddr = counter;
    para_set(&ti.randomSeed, &seed, 8);
    para_set(&ti.randomNum, &n, 8);
    return ti;
}

static aclrtRandomNumTaskInfo float_task(aclrtRandomNumFuncType f, float p0, float p1, uint64_t seed, uint64_t n,
                                         void *out, void *counter)
{
    aclrtRandomNumTaskInfo ti = task_info(ACL_FLOAT, f, seed, n, out, counter);
    if (f == ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS) {
        para_set(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &p0, 4);
        para_set(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &p1, 4);
    } else {
        para_set(&ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, &p0, 4);
        para_set(&ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, &p1, 4);
    }
    return ti;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Kolmogorov-Smirnov statistic of the sample against cdf. */
static double ks_stat(double *v, size_t n, double (*cdf)(double, double, double), double p0, double p1)
{
    qsort(v, n, sizeof(double), cmp_double);
    double d = 0;
    for (size_t i = 0; i < n; ++i) {
        const double f = cdf(v[i], p0, p1);
        d = fmax(d, fmax(fabs(f - (double)i / (double)n), fabs((double)(i + 1) / (double)n - f)));
    }
    return d;
}

static double uniform_cdf(double x, double lo, double hi) { return x <= lo ? 0 : x >= hi ? 1 : (x - lo) / (hi - lo); }
static double normal_cdf(double x, double m, double s) { return 0.5 * erfc(-(x - m) / (s * sqrt(2.0))); }
static double truncated_cdf(double x, double m, double s)
{
    const double z = fmin(fmax((x - m) / s, -2.0), 2.0);
    const double a = normal_cdf(-2.0, 0, 1), b = normal_cdf(2.0, 0, 1);
    return (normal_cdf(z, 0, 1) - a) / (b - a);
}

#define NSAMP 20000u
/* KS critical value at alpha = 0.001: 1.95 / sqrt(n) */
#define KS_LIMIT (1.95 / sqrt((double)NSAMP))

static void moments(const double *v, size_t n, double *mean, double *var)
{
    double m = 0, q = 0;
    for (size_t i = 0; i < n; ++i) {
        m += v[i];
    }
    m /= (double)n;
    for (size_t i = 0; i < n; ++i) {
        q += (v[i] - m) * (v[i] - m);
    }
    *mean = m;
    *var = q / (double)(n - 1);
}

static void random_float_distributions(void **state)
{
    (void)state;
    float *out = dev_alloc(NSAMP * sizeof(float));
    uint8_t *ctr = dev_alloc(16);
    double *v = malloc(NSAMP * sizeof(double));
    assert_non_null(v);
    double mean, var;

    memset(ctr, 0, 16);
    aclrtRandomNumTaskInfo ti = float_task(ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, -2.0f, 6.0f, 42, NSAMP, out, ctr);
    assert_int_equal(aclrtRandomNumAsync(&ti, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    for (size_t i = 0; i < NSAMP; ++i) {
        assert_true(out[i] >= -2.0f && out[i] < 6.0f);
        v[i] = out[i];
    }
    moments(v, NSAMP, &mean, &var);
    /* mean 2, variance 64/12; standard error of the mean 0.016 */
    assert_true(fabs(mean - 2.0) < 0.08);
    assert_true(fabs(var - 64.0 / 12.0) < 0.2);
    assert_true(ks_stat(v, NSAMP, uniform_cdf, -2.0, 6.0) < KS_LIMIT);

    ti = float_task(ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, 3.0f, 2.0f, 7, NSAMP, out, ctr);
    assert_int_equal(aclrtRandomNumAsync(&ti, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    for (size_t i = 0; i < NSAMP; ++i) {
        v[i] = out[i];
    }
    moments(v, NSAMP, &mean, &var);
    assert_true(fabs(mean - 3.0) < 0.06);
    assert_true(fabs(var - 4.0) < 0.2);
    assert_true(ks_stat(v, NSAMP, normal_cdf, 3.0, 2.0) < KS_LIMIT);

    ti = float_task(ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS, -1.0f, 0.5f, 7, NSAMP, out, ctr);
    assert_int_equal(aclrtRandomNumAsync(&ti, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    for (size_t i = 0; i < NSAMP; ++i) {
        assert_true(out[i] >= -2.0f - 1e-5f && out[i] <= 1e-5f); /* within two standard deviations */
        v[i] = out[i];
    }
    assert_true(ks_stat(v, NSAMP, truncated_cdf, -1.0, 0.5) < KS_LIMIT);
    free(v);
    assert_int_equal(aclrtFree(out), ACL_SUCCESS);
    assert_int_equal(aclrtFree(ctr), ACL_SUCCESS);
}

static void random_half_and_integer_types(void **state)
{
    (void)state;
    uint16_t *h = dev_alloc(NSAMP * 8);
    uint8_t *ctr = dev_alloc(16);
    memset(ctr, 0, 16);
    /* bf16 normal(1, 2) as CANN's example passes it */
    const uint16_t mean_bf16 = 0x3F80, sd_bf16 = 0x4000;
    aclrtRandomNumTaskInfo ti = task_info(ACL_BF16, ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, 3, NSAMP, h, ctr);
    para_set(&ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, &mean_bf16, 2);
    para_set(&ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, &sd_bf16, 2);
    assert_int_equal(aclrtRandomNumAsync(&ti, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    double sum = 0;
    for (size_t i = 0; i < NSAMP; ++i) {
        uint32_t bits = (uint32_t)h[i] << 16;
        float f;
        memcpy(&f, &bits, 4);
        sum += f;
    }
    assert_true(fabs(sum / NSAMP - 1.0) < 0.06);

    /* fp16 uniform [1, 2) */
    const uint16_t lo16 = 0x3C00, hi16 = 0x4000;
    ti = task_info(ACL_FLOAT16, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 3, NSAMP, h, ctr);
    para_set(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo16, 2);
    para_set(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi16, 2);
    assert_int_equal(aclrtRandomNumAsync(&ti, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    sum = 0;
    for (size_t i = 0; i < NSAMP; ++i) {
        const float f = aclFloat16ToFloat(h[i]);
        assert_true(f >= 1.0f && f <= 2.0f);
        sum += f;
    }
    assert_true(fabs(sum / NSAMP - 1.5) < 0.02);

    /* int32 uniform [1, 100): every value appears, none outside; chi-square over 99 cells */
    int32_t *o32 = (int32_t *)h;
    const int32_t lo = 1, hi = 100;
    ti = task_info(ACL_INT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 5, NSAMP, o32, ctr);
    para_set(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo, 4);
    para_set(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi, 4);
    assert_int_equal(aclrtRandomNumAsync(&ti, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    unsigned cnt[100] = {0};
    for (size_t i = 0; i < NSAMP; ++i) {
        assert_true(o32[i] >= 1 && o32[i] < 100);
        cnt[o32[i]]++;
    }
    double chi = 0, e = (double)NSAMP / 99.0;
    for (int k = 1; k < 100; ++k) {
        chi += (cnt[k] - e) * (cnt[k] - e) / e;
    }
    assert_true(chi < 160.0); /* 98 degrees of freedom: p < 1e-4 above 150 */

    /* int64 with negative bounds, uint64 across 2^63 */
    int64_t *o64 = (int64_t *)h;
    const int64_t l64 = -5, h64 = 5;
    ti = task_info(ACL_INT64, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 9, 1000, o64, ctr);
    para_set(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &l64, 8);
    para_set(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &h64, 8);
    assert_int_equal(aclrtRandomNumAsync(&ti, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    bool neg = false;
    for (size_t i = 0; i < 1000; ++i) {
        assert_true(o64[i] >= -5 && o64[i] < 5);
        neg = neg || o64[i] < 0;
    }
    assert_true(neg);
    uint64_t *u64 = (uint64_t *)h;
    const uint64_t ul = (1ull << 63) - 10, uh = (1ull << 63) + 10;
    ti = task_info(ACL_UINT64, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 9, 1000, u64, ctr);
    para_set(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &ul, 8);
    para_set(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &uh, 8);
    assert_int_equal(aclrtRandomNumAsync(&ti, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    for (size_t i = 0; i < 1000; ++i) {
        assert_true(u64[i] >= ul && u64[i] < uh);
    }

    /* dropout bitmask: NSAMP bits, each kept with probability 1 - ratio */
    uint8_t *mask = (uint8_t *)h;
    memset(mask, 0xAB, NSAMP / 8 + 8);
    const float ratio = 0.4f;
    ti = task_info(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK, 1, NSAMP, mask, ctr);
    para_set(&ti.randomNumFuncParaInfo.paramInfo.dropoutBitmaskInfo.dropoutRation, &ratio, 4);
    assert_int_equal(aclrtRandomNumAsync(&ti, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    size_t ones = 0;
    for (size_t i = 0; i < NSAMP; ++i) {
        ones += (mask[i / 8] >> (i % 8)) & 1u;
    }
    assert_true(fabs((double)ones / NSAMP - 0.6) < 0.015);
    assert_int_equal(mask[NSAMP / 8], 0xAB); /* nothing written past ceil(n / 8) bytes */
    assert_int_equal(aclrtFree(h), ACL_SUCCESS);
    assert_int_equal(aclrtFree(ctr), ACL_SUCCESS);
}

static void random_is_reproducible_from_seed_and_counter(void **state)
{
    (void)state;
    enum { N = 257 };
    float *a = dev_alloc(N * 4), *b = dev_alloc(N * 4), *c = dev_alloc(N * 4);
    uint8_t *ctr = dev_alloc(16);
    uint8_t ctr0[16];
    for (int i = 0; i < 16; ++i) {
        ctr0[i] = (uint8_t)(i * 17);
    }
    memcpy(ctr, ctr0, 16);
    aclrtRandomNumTaskInfo ti = float_task(ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, 0.0f, 1.0f, 1234, N, a, ctr);
    assert_int_equal(aclrtRandomNumAsync(&ti, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_memory_not_equal(ctr, ctr0, 16); /* the counter moved on */
    ti.randomResultAddr = b;
    assert_int_equal(aclrtRandomNumAsync(&ti, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_memory_not_equal(a, b, N * 4); /* continued stream */
    memcpy(ctr, ctr0, 16);
    ti.randomResultAddr = c;
    assert_int_equal(aclrtRandomNumAsync(&ti, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_memory_equal(a, c, N * 4); /* same seed and offset: same numbers */
    /* another seed, same offset: different numbers */
    memcpy(ctr, ctr0, 16);
    uint64_t seed2 = 1235;
    para_set(&ti.randomSeed, &seed2, 8);
    assert_int_equal(aclrtRandomNumAsync(&ti, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_memory_not_equal(a, c, N * 4);

    /* parameters given by address are read when the task runs */
    uint64_t *seed_dev = dev_alloc(8);
    float *mean_dev = dev_alloc(4);
    *seed_dev = 1234;
    *mean_dev = 0.0f;
    memcpy(ctr, ctr0, 16);
    ti.randomSeed.isAddr = 1;
    memcpy(ti.randomSeed.valueOrAddr, &seed_dev, sizeof(void *));
    ti.randomSeed.size = 8;
    ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean.isAddr = 1;
    memcpy(ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean.valueOrAddr, &mean_dev, sizeof(void *));
    memset(c, 0, N * 4);
    assert_int_equal(aclrtRandomNumAsync(&ti, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_memory_equal(a, c, N * 4);
    void *all[] = {a, b, c, ctr, seed_dev, mean_dev};
    for (size_t i = 0; i < 6; ++i) {
        assert_int_equal(aclrtFree(all[i]), ACL_SUCCESS);
    }
}

/* randomParaAddr: the parameters are written into the block at the call and read from it when the task runs */
static void random_parameter_block(void **state)
{
    (void)state;
    const uint64_t n = 4096;
    float *out = dev_alloc(n * sizeof(float));
    void *counter = dev_alloc(16);
    uint8_t *block = dev_alloc(16);
    assert_int_equal(aclrtMemset(counter, 16, 0, 16), ACL_SUCCESS);
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    test_gate g;
    test_gate_init(&g);
    assert_int_equal(aclrtLaunchHostFunc(s, test_gate_fn, &g), ACL_SUCCESS); /* the task waits behind this */
    aclrtRandomNumTaskInfo ti = float_task(ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 0.0f, 1.0f, 7, n, out, counter);
    ti.randomParaAddr = block;
    assert_int_equal(aclrtRandomNumAsync(&ti, s, NULL), ACL_SUCCESS);
    /* the block holds min and max now, each in an 8-byte slot */
    float lo = -1, hi = -1;
    uint8_t pad[4] = {1, 1, 1, 1}, zero[4] = {0};
    memcpy(&lo, block, 4);
    memcpy(pad, block + 4, 4);
    memcpy(&hi, block + 8, 4);
    assert_true(lo == 0.0f && hi == 1.0f);
    assert_memory_equal(pad, zero, 4);
    /* new values written into the block before the task runs are the ones it uses */
    const float lo2 = 10.0f, hi2 = 11.0f;
    memcpy(block, &lo2, 4);
    memcpy(block + 8, &hi2, 4);
    test_gate_open(&g);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    for (uint64_t i = 0; i < n; ++i) {
        assert_true(out[i] >= 10.0f && out[i] <= 11.0f);
    }
    /* a block that is not device memory is refused at the call */
    float host[4];
    ti.randomParaAddr = host;
    assert_int_equal(aclrtRandomNumAsync(&ti, s, NULL), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtFree(out), ACL_SUCCESS);
    assert_int_equal(aclrtFree(counter), ACL_SUCCESS);
    assert_int_equal(aclrtFree(block), ACL_SUCCESS);
}

static void random_bad_inputs(void **state)
{
    (void)state;
    float *out = dev_alloc(64);
    uint8_t *ctr = dev_alloc(16);
        float host[16];
    aclrtRandomNumTaskInfo ti = float_task(ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 0.0f, 1.0f, 1, 16, out, ctr);
    assert_int_equal(aclrtRandomNumAsync(NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtRandomNumAsync(&ti, NULL, out), ACL_ERROR_INVALID_PARAM);
    aclrtRandomNumTaskInfo bad = ti;
    bad.randomNumFuncParaInfo.funcType = (aclrtRandomNumFuncType)7;
    assert_int_equal(aclrtRandomNumAsync(&bad, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    bad = ti;
    bad.dataType = ACL_DOUBLE;
    assert_int_equal(aclrtRandomNumAsync(&bad, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    test_expect_msg("not supported by random");
    bad = ti;
    bad.randomResultAddr = NULL;
    assert_int_equal(aclrtRandomNumAsync(&bad, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    bad = ti;
    bad.randomCounterAddr = host; /* the counter lives in device memory */
    assert_int_equal(aclrtRandomNumAsync(&bad, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
    bad = ti;
    bad.randomResultAddr = host;
    assert_int_equal(aclrtRandomNumAsync(&bad, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
    bad = ti;
    uint64_t n = 1u << 20; /* 4 MiB do not fit in the 64-byte block */
    para_set(&bad.randomNum, &n, 8);
    assert_int_equal(aclrtRandomNumAsync(&bad, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
    bad = ti;
    bad.randomNum.size = 9;
    assert_int_equal(aclrtRandomNumAsync(&bad, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    /* a typed parameter of the wrong width and an empty range fail at synchronisation */
    bad = ti;
    bad.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min.size = 2;
    assert_int_equal(aclrtRandomNumAsync(&bad, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_ERROR_INVALID_PARAM);
    bad = float_task(ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 2.0f, 1.0f, 1, 16, out, ctr);
    assert_int_equal(aclrtRandomNumAsync(&bad, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_ERROR_INVALID_PARAM);
    bad = float_task(ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, 0.0f, -1.0f, 1, 16, out, ctr);
    assert_int_equal(aclrtRandomNumAsync(&bad, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_ERROR_INVALID_PARAM);
    bad = task_info(ACL_INT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, 1, 4, out, ctr);
    assert_int_equal(aclrtRandomNumAsync(&bad, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtFree(out), ACL_SUCCESS);
    assert_int_equal(aclrtFree(ctr), ACL_SUCCESS);
}

/* ---- aclrtSetOpWaitTimeout ---- */

static void op_wait_timeout_is_reported_at_synchronisation(void **state)
{
    (void)state;
    aclrtStream a = NULL, b = NULL;
    aclrtEvent ev = NULL;
    assert_int_equal(aclrtCreateStream(&a), ACL_SUCCESS);
    assert_int_equal(aclrtCreateStream(&b), ACL_SUCCESS);
    assert_int_equal(aclrtCreateEvent(&ev), ACL_SUCCESS);
    test_gate g;
    test_gate_init(&g);
    assert_int_equal(aclrtLaunchHostFunc(a, test_gate_fn, &g), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(ev, a), ACL_SUCCESS);
    assert_int_equal(aclrtSetOpWaitTimeout(1), ACL_SUCCESS);
    assert_int_equal(aclrtStreamWaitEvent(b, ev), ACL_SUCCESS);
    const uint64_t t0 = test_now_ms();
    assert_int_equal(aclrtSynchronizeStream(b), ACL_ERROR_RT_WAIT_TIMEOUT);
    const uint64_t spent = test_now_ms() - t0;
    assert_true(spent >= 900 && spent < 5000);
    test_gate_open(&g);
    assert_int_equal(aclrtSynchronizeStream(a), ACL_SUCCESS);
    /* without a timeout the wait simply completes */
    assert_int_equal(aclrtSetOpWaitTimeout(0), ACL_SUCCESS);
    test_gate g2;
    test_gate_init(&g2);
    assert_int_equal(aclrtLaunchHostFunc(a, test_gate_fn, &g2), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(ev, a), ACL_SUCCESS);
    assert_int_equal(aclrtStreamWaitEvent(b, ev), ACL_SUCCESS);
    test_sleep_ms(50);
    test_gate_open(&g2);
    assert_int_equal(aclrtSynchronizeStream(b), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(ev), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(a), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(b), ACL_SUCCESS);
}

int main(void)
{
    if (aclInit(NULL) != ACL_SUCCESS) {
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(reduce_float_kinds, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(reduce_integer_and_half_types, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(reduce_bad_inputs, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(overflow_status_and_saturation_mode, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(random_float_distributions, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(random_half_and_integer_types, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(random_is_reproducible_from_seed_and_counter, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(random_bad_inputs, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(random_parameter_block, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(op_wait_timeout_is_reported_at_synchronisation, test_device0_setup, teardown),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    (void)aclFinalize();
    return rc;
}

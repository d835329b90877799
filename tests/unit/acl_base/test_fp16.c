/*
 * aclFloat16ToFloat / aclFloatToFloat16 against an independent reference:
 * every one of the 65536 halves, every rounding midpoint (and the floats
 * next to it), and a strided sweep over all float bit patterns.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "acl/acl.h"

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return u;
}

static float bitsf(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

/* Value of a half when exponent 31 is an ordinary exponent (CANN's reading). */
static double ref_half_value(uint16_t h)
{
    const int e = (h >> 10) & 0x1F;
    const int m = h & 0x3FF;
    const double mag = e == 0 ? m * pow(2.0, -24) : (1.0 + m / 1024.0) * pow(2.0, e - 15);
    return (h & 0x8000) ? -mag : mag;
}

static double g_table[0x7C00]; /* magnitudes of the finite codes 0 .. 0x7BFF, increasing */

static void build_table(void)
{
    for (uint32_t c = 0; c < 0x7C00; ++c) {
        g_table[c] = ref_half_value((uint16_t)c);
    }
}

/* Nearest finite half, ties to the even code, saturating at 0x7BFF; NaN/Inf saturate too. */
static uint16_t ref_to_half(float f)
{
    const uint16_t sign = (fbits(f) >> 16) & 0x8000;
    if (isnan(f) || isinf(f)) {
        return sign | 0x7BFF;
    }
    const double a = fabs((double)f);
    if (a >= 65520.0) {
        return sign | 0x7BFF;
    }
    uint32_t lo = 0;
    uint32_t hi = 0x7BFF;
    if (a >= g_table[hi]) {
        return sign | 0x7BFF;
    }
    while (hi - lo > 1) { /* g_table[lo] <= a < g_table[hi] */
        const uint32_t mid = (lo + hi) / 2;
        if (g_table[mid] <= a) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    const double dl = a - g_table[lo];
    const double dh = g_table[hi] - a;
    uint32_t pick;
    if (dl < dh) {
        pick = lo;
    } else if (dh < dl) {
        pick = hi;
    } else {
        pick = (lo & 1u) == 0 ? lo : hi;
    }
    return (uint16_t)(sign | pick);
}

static void every_half_to_float(void **state)
{
    (void)state;
    for (uint32_t h = 0; h <= 0xFFFF; ++h) {
        const float got = aclFloat16ToFloat((aclFloat16)h);
        const float want = (float)ref_half_value((uint16_t)h);
        if (fbits(got) != fbits(want)) {
            fail_msg("half 0x%04x: got %a, want %a", h, (double)got, (double)want);
        }
    }
    /* the documented non-IEEE values */
    assert_true(aclFloat16ToFloat(0x7C00) == 65536.0f);
    assert_true(aclFloat16ToFloat(0xFC00) == -65536.0f);
    assert_true(aclFloat16ToFloat(0x7E00) == 98304.0f);
    assert_true(signbit(aclFloat16ToFloat(0x8000)));
}

static void every_half_round_trips(void **state)
{
    (void)state;
    for (uint32_t h = 0; h <= 0xFFFF; ++h) {
        const aclFloat16 back = aclFloatToFloat16(aclFloat16ToFloat((aclFloat16)h));
        const bool exp31 = ((h >> 10) & 0x1F) == 0x1F;
        const uint16_t want = exp31 ? (uint16_t)((h & 0x8000) | 0x7BFF) : (uint16_t)h;
        if (back != want) {
            fail_msg("half 0x%04x came back as 0x%04x, want 0x%04x", h, back, want);
        }
    }
}

static void midpoints_round_to_even(void **state)
{
    (void)state;
    build_table();
    for (uint32_t c = 0; c < 0x7BFF; ++c) {
        const double mid = (g_table[c] + g_table[c + 1]) / 2.0; /* exact in float: 12 significant bits */
        const float fm = (float)mid;
        assert_true((double)fm == mid);
        const float below = nextafterf(fm, 0.0f);
        const float above = nextafterf(fm, 1e9f);
        const float probes[3] = {fm, below, above};
        for (int i = 0; i < 3; ++i) {
            for (int s = 0; s < 2; ++s) {
                const float v = s ? -probes[i] : probes[i];
                const aclFloat16 got = aclFloatToFloat16(v);
                const uint16_t want = ref_to_half(v);
                if (got != want) {
                    fail_msg("float %a: got 0x%04x, want 0x%04x", (double)v, got, want);
                }
            }
        }
    }
    assert_int_equal(aclFloatToFloat16(2049.0f), 0x6800); /* tie between 2048 and 2050 -> even (2048) */
    assert_int_equal(aclFloatToFloat16(2051.0f), 0x6802); /* tie between 2050 and 2052 -> even (2052) */
}

static void float_sweep_matches_reference(void **state)
{
    (void)state;
    build_table();
    for (uint64_t u = 0; u <= 0xFFFFFFFFull; u += 4099) {
        const float v = bitsf((uint32_t)u);
        const aclFloat16 got = aclFloatToFloat16(v);
        const uint16_t want = ref_to_half(v);
        if (got != want) {
            fail_msg("float bits 0x%08x (%a): got 0x%04x, want 0x%04x", (uint32_t)u, (double)v, got, want);
        }
    }
}

static void special_values_saturate(void **state)
{
    (void)state;
    assert_int_equal(aclFloatToFloat16(INFINITY), 0x7BFF);
    assert_int_equal(aclFloatToFloat16(-INFINITY), 0xFBFF);
    assert_int_equal(aclFloatToFloat16(NAN), 0x7BFF);
    assert_int_equal(aclFloatToFloat16(65504.0f), 0x7BFF);
    assert_int_equal(aclFloatToFloat16(65519.99f), 0x7BFF);
    assert_int_equal(aclFloatToFloat16(65520.0f), 0x7BFF);
    assert_int_equal(aclFloatToFloat16(1e30f), 0x7BFF);
    assert_int_equal(aclFloatToFloat16(-1e30f), 0xFBFF);
    assert_int_equal(aclFloatToFloat16(1.0f), 0x3C00);
    assert_int_equal(aclFloatToFloat16(-2.0f), 0xC000);
    assert_int_equal(aclFloatToFloat16(0.0f), 0x0000);
    assert_int_equal(aclFloatToFloat16(-0.0f), 0x8000);
    assert_int_equal(aclFloatToFloat16(ldexpf(1.0f, -24)), 0x0001); /* smallest subnormal */
    assert_int_equal(aclFloatToFloat16(ldexpf(1.0f, -25)), 0x0000); /* tie with 0 -> even */
    assert_int_equal(aclFloatToFloat16(ldexpf(1.5f, -25)), 0x0001);
    assert_int_equal(aclFloatToFloat16(ldexpf(1.0f, -14)), 0x0400); /* smallest normal */
    assert_int_equal(aclFloatToFloat16(bitsf(0x00000001u)), 0x0000); /* float subnormal */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_half_to_float),
        cmocka_unit_test(every_half_round_trips),
        cmocka_unit_test(midpoints_round_to_even),
        cmocka_unit_test(float_sweep_matches_reference),
        cmocka_unit_test(special_values_saturate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

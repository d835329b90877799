/*
 * base/fp16.h against the compiler's own IEEE binary16 (_Float16: GCC's
 * soft conversions, round to nearest even) and exact arithmetic; base/hash.h
 * against FNV-1a's published test vectors.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "base/fp16.h"
#include "base/hash.h"

static __attribute__((unused)) uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* every half: to float and back is the identity (NaNs stay NaN) */
static void every_half_round_trips(void **state)
{
    (void)state;
    for (uint32_t h = 0; h < 0x10000u; ++h) {
        const float f = oa_f16_to_f32((uint16_t)h);
        const int is_nan = ((h >> 10) & 0x1f) == 31 && (h & 0x3ff) != 0;
        if (is_nan) {
            assert_true(isnan(f));
            assert_true((oa_f32_to_f16(f) & 0x7c00u) == 0x7c00u && (oa_f32_to_f16(f) & 0x3ffu) != 0);
            continue;
        }
        assert_int_equal(oa_f32_to_f16(f), h);
        /* exact value: (-1)^s * m * 2^(e-25), subnormals m * 2^-24 */
        const uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff;
        if (e != 31) {
            const double want = e == 0 ? ldexp((double)m, -24) : ldexp((double)(0x400 | m), (int)e - 25);
            assert_true((double)fabsf(f) == want);
            assert_true(((h & 0x8000u) != 0) == (signbit(f) != 0));
        }
    }
}

/* halfway between two halves ties to the even one; a hair above goes up */
static void midpoints_tie_to_even(void **state)
{
    (void)state;
    for (uint32_t h = 0; h < 0x7bffu; ++h) {
        const double lo = (double)oa_f16_to_f32((uint16_t)h), hi = (double)oa_f16_to_f32((uint16_t)(h + 1));
        const float mid = (float)((lo + hi) / 2); /* exact in binary32 */
        const uint16_t even = (h & 1u) ? (uint16_t)(h + 1) : (uint16_t)h;
        assert_int_equal(oa_f32_to_f16(mid), even);
        assert_int_equal(oa_f32_to_f16(nextafterf(mid, INFINITY)), h + 1);
        assert_int_equal(oa_f32_to_f16(nextafterf(mid, 0.0f)), h);
    }
    assert_int_equal(oa_f32_to_f16(65519.99f), 0x7bffu);
    assert_int_equal(oa_f32_to_f16(65520.0f), 0x7c00u); /* overflow: Inf */
    assert_int_equal(oa_f32_to_f16(-1e9f), 0xfc00u);
    assert_int_equal(oa_f32_to_f16(INFINITY), 0x7c00u);
    assert_int_equal(oa_f32_to_f16(bits_f32(0x00000001u)), 0); /* float subnormal: 0 */
    assert_int_equal(oa_f32_to_f16(-0.0f), 0x8000u);
}

#ifdef __FLT16_MANT_DIG__
/* many floats (all exponents, random mantissas) against the compiler's conversion */
static void agrees_with_compiler_float16(void **state)
{
    (void)state;
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (uint32_t i = 0; i < 4000000u; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        const uint32_t u = (uint32_t)x;
        const float f = bits_f32(u);
        if (isnan(f)) {
            continue;
        }
        const _Float16 c = (_Float16)f;
        uint16_t want;
        memcpy(&want, &c, sizeof want);
        if (oa_f32_to_f16(f) != want) {
            fail_msg("float bits %08x: %04x, compiler %04x", u, oa_f32_to_f16(f), want);
        }
    }
    for (uint32_t h = 0; h < 0x10000u; ++h) {
        _Float16 c;
        const uint16_t hh = (uint16_t)h;
        memcpy(&c, &hh, sizeof c);
        const float want = (float)c;
        if (!isnan(want) && f32_bits(oa_f16_to_f32(hh)) != f32_bits(want)) {
            fail_msg("half %04x: %08x, compiler %08x", h, f32_bits(oa_f16_to_f32(hh)), f32_bits(want));
        }
    }
}
#endif

/* FNV-1a's published vectors (the reference implementation's test suite) */
static void fnv_vectors(void **state)
{
    (void)state;
    assert_true(oa_fnv1a64("", 0) == 0xcbf29ce484222325ull);
    assert_true(oa_fnv1a64("a", 1) == 0xaf63dc4c8601ec8cull);
    assert_true(oa_fnv1a64("foobar", 6) == 0x85944171f73967e8ull);
    assert_true(oa_fnv1a64_str("foobar") == 0x85944171f73967e8ull);
    assert_true(oa_fnv1a64_update(oa_fnv1a64("foo", 3), "bar", 3) == 0x85944171f73967e8ull);
    assert_true(oa_fnv1a32("", 0) == 0x811c9dc5u);
    assert_true(oa_fnv1a32("a", 1) == 0xe40c292cu);
    assert_true(oa_fnv1a32("foobar", 6) == 0xbf9cf968u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_half_round_trips),
        cmocka_unit_test(midpoints_tie_to_even),
#ifdef __FLT16_MANT_DIG__
        cmocka_unit_test(agrees_with_compiler_float16),
#endif
        cmocka_unit_test(fnv_vectors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * aclFloat16ToFloat / aclFloatToFloat16 with CANN's behaviour:
 *  - half -> float treats exponent 31 as an ordinary exponent (no Inf/NaN):
 *    0x7C00 is 65536.0, 0x7E00 is 98304.0;
 *  - float -> half rounds to nearest, ties to even, and saturates anything at
 *    or above 65520 in magnitude, Inf and NaN to +/-65504 (0x7BFF / 0xFBFF);
 *    subnormal halves are produced for small values, float subnormals give 0.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "acl/acl_base_rt.h"

#define HALF_SIGN 0x8000u
#define HALF_MAX_FINITE 0x7BFFu

ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value)
{
    const unsigned exp = (value >> 10) & 0x1Fu;
    const unsigned man = value & 0x3FFu;
    float mag;
    if (exp == 0) {
        mag = ldexpf((float)man, -24); /* zero or subnormal: man * 2^-24 */
    } else {
        mag = ldexpf((float)(0x400u | man), (int)exp - 25); /* (1024 + man) * 2^(exp - 25) */
    }
    return (value & HALF_SIGN) ? -mag : mag;
}

/* Rounds q + rem / 2^shift to nearest even; shift >= 1. */
static uint32_t round_shifted(uint32_t full, unsigned shift)
{
    const uint32_t q = full >> shift;
    const uint32_t rem = full & ((1u << shift) - 1u);
    const uint32_t half = 1u << (shift - 1u);
    if (rem > half || (rem == half && (q & 1u))) {
        return q + 1u;
    }
    return q;
}

ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value)
{
    uint32_t bits;
    memcpy(&bits, &value, sizeof(bits));
    const uint16_t sign = (uint16_t)((bits >> 16) & HALF_SIGN);
    const uint32_t exp8 = (bits >> 23) & 0xFFu;
    const uint32_t man23 = bits & 0x7FFFFFu;

    if (exp8 > 142u) { /* |value| >= 65536, Inf, NaN */
        return (aclFloat16)(sign | HALF_MAX_FINITE);
    }
    if (exp8 >= 113u) { /* normal half range before rounding */
        uint32_t e = exp8 - 112u;
        uint32_t m = round_shifted(man23 | 0x800000u, 13u); /* 11 bits incl. hidden, may carry to 0x800 */
        if (m >= 0x800u) {
            m >>= 1;
            ++e;
        }
        if (e >= 31u) {
            return (aclFloat16)(sign | HALF_MAX_FINITE);
        }
        return (aclFloat16)(sign | (e << 10) | (m & 0x3FFu));
    }
    if (exp8 == 0u) { /* zero and float subnormals */
        return (aclFloat16)sign;
    }
    /* Result is a half subnormal (or rounds up to the smallest normal): units of 2^-24. */
    const unsigned shift = 126u - exp8; /* >= 14 */
    if (shift > 24u) {
        return (aclFloat16)sign;
    }
    const uint32_t m = round_shifted(man23 | 0x800000u, shift); /* 0x400 encodes the smallest normal */
    return (aclFloat16)(sign | m);
}

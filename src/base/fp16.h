/*
 * IEEE 754 binary16 <-> binary32, the one implementation for the kernels,
 * shape inference, constant folding and single-op models: round to nearest,
 * ties to even; overflow to +/-Inf; Inf stays Inf and NaN stays a (quiet)
 * NaN; subnormals both ways.
 *
 * aclFloatToFloat16 / aclFloat16ToFloat (src/acl_base/fp16.c) deliberately
 * differ: they follow CANN's saturating behaviour (no Inf/NaN).
 */
#ifndef OA_BASE_FP16_H
#define OA_BASE_FP16_H

#include <stdint.h>
#include <string.h>

static inline float oa_f16_to_f32(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    uint32_t u;
    if (exp == 0) {
        if (man == 0) {
            u = sign;
        } else { /* subnormal: normalise */
            int e = -1;
            do {
                e++;
                man <<= 1;
            } while ((man & 0x400u) == 0);
            u = sign | ((uint32_t)(127 - 15 - e) << 23) | ((man & 0x3ffu) << 13);
        }
    } else if (exp == 31) {
        u = sign | 0x7f800000u | (man << 13);
    } else {
        u = sign | ((exp + 127 - 15) << 23) | (man << 13);
    }
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline uint16_t oa_f32_to_f16(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    const uint32_t sign = (u >> 16) & 0x8000u;
    const uint32_t a = u & 0x7fffffffu;
    if (a >= 0x7f800000u) { /* Inf / NaN */
        return (uint16_t)(sign | 0x7c00u | (a > 0x7f800000u ? 0x200u : 0));
    }
    if (a >= 0x477ff000u) { /* rounds to >= 65520: Inf */
        return (uint16_t)(sign | 0x7c00u);
    }
    if (a < 0x38800000u) { /* a half subnormal or zero */
        if (a < 0x33000000u) {
            return (uint16_t)sign;
        }
        const uint32_t e = a >> 23, m = (a & 0x7fffffu) | 0x800000u;
        const uint32_t shift = 126 - e; /* units of 2^-24 */
        uint32_t r = m >> shift;
        const uint32_t rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (r & 1u))) {
            r++;
        }
        return (uint16_t)(sign | r);
    }
    uint32_t r = (a >> 13) - (112u << 10);
    const uint32_t rem = a & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) {
        r++; /* may carry into the exponent, up to Inf: correct */
    }
    return (uint16_t)(sign | r);
}

#endif /* OA_BASE_FP16_H */

/*
 * FNV-1a, the one implementation (64- and 32-bit, standard offset bases and
 * primes). For in-memory tables and signatures; the values are stable, so
 * records that store them (prof op descriptors, aclprofStr2Id) keep working.
 */
#ifndef OA_BASE_HASH_H
#define OA_BASE_HASH_H

#include <stddef.h>
#include <stdint.h>

#define OA_FNV64_OFFSET 14695981039346656037ull
#define OA_FNV64_PRIME 1099511628211ull
#define OA_FNV32_OFFSET 2166136261u
#define OA_FNV32_PRIME 16777619u

/* Continues a 64-bit FNV-1a hash h over n bytes (start with OA_FNV64_OFFSET). */
static inline uint64_t oa_fnv1a64_update(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; ++i) {
        h = (h ^ p[i]) * OA_FNV64_PRIME;
    }
    return h;
}

static inline uint64_t oa_fnv1a64(const void *data, size_t n)
{
    return oa_fnv1a64_update(OA_FNV64_OFFSET, data, n);
}

/* Of a NUL-terminated string (its bytes without the NUL). */
static inline uint64_t oa_fnv1a64_str(const char *s)
{
    uint64_t h = OA_FNV64_OFFSET;
    for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; ++p) {
        h = (h ^ *p) * OA_FNV64_PRIME;
    }
    return h;
}

static inline uint32_t oa_fnv1a32(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint32_t h = OA_FNV32_OFFSET;
    for (size_t i = 0; i < n; ++i) {
        h = (h ^ p[i]) * OA_FNV32_PRIME;
    }
    return h;
}

#endif /* OA_BASE_HASH_H */

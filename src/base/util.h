/*
 * Small helpers used everywhere: overflow-checked size arithmetic, string
 * copies that always terminate, alignment, monotonic time, environment
 * integers.
 */
#ifndef OA_BASE_UTIL_H
#define OA_BASE_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

#define OA_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define OA_MIN(a, b) ((a) < (b) ? (a) : (b))
#define OA_MAX(a, b) ((a) > (b) ? (a) : (b))
#define OA_UNUSED(x) ((void)(x))

/* *out = a + b / a * b; false on overflow (out untouched then). */
static inline bool oa_add_size(size_t a, size_t b, size_t *out)
{
    size_t r;
    if (__builtin_add_overflow(a, b, &r)) {
        return false;
    }
    *out = r;
    return true;
}
static inline bool oa_mul_size(size_t a, size_t b, size_t *out)
{
    size_t r;
    if (__builtin_mul_overflow(a, b, &r)) {
        return false;
    }
    *out = r;
    return true;
}
static inline bool oa_mul_i64(int64_t a, int64_t b, int64_t *out)
{
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) {
        return false;
    }
    *out = r;
    return true;
}

/* Rounds v up to a multiple of a (a a power of two); false on overflow. */
static inline bool oa_align_up(size_t v, size_t a, size_t *out)
{
    size_t t;
    if (!oa_add_size(v, a - 1, &t)) {
        return false;
    }
    *out = t & ~(a - 1);
    return true;
}

/* Copies src into dst[cap], always NUL-terminated; returns false if truncated. */
bool oa_strlcpy(char *dst, const char *src, size_t cap);

/* Monotonic clock in nanoseconds. */
uint64_t oa_now_ns(void);

/* Integer value of an environment variable, or fallback when unset/invalid. */
long oa_env_long(const char *name, long fallback);

/*
 * Cap in bytes on memory a loader would allocate for a size that a file
 * states but nothing in the file justifies ($OPENACL_LOAD_LIMIT_MB, default
 * 1024 MB; docs/model_api.md, "Bounds the loader checks").
 */
uint64_t oa_load_limit_bytes(void);

/* The median of v[0..n) (the upper one of an even count), sorting v in place; 0 for n == 0. The executors'
 * profiles (OPENACL_V1_PROFILE, OPENACL_V2_PROFILE) report it beside their means. */
uint32_t oa_median_u32(uint32_t *v, size_t n);

/* Duplicates a string with malloc; NULL on OOM or NULL input. */
char *oa_strdup(const char *s);

/*
 * Makes room for entry n of the growable array *arr (capacity *cap entries of
 * elem bytes), doubling from 16 entries. OA_E_NOMEM naming `what` when the
 * size overflows or realloc fails; *arr and *cap are unchanged then.
 */
oa_status oa_grow_array(void **arr, size_t *cap, size_t n, size_t elem, const char *what);

#endif /* OA_BASE_UTIL_H */

/*
 * Helpers of the dynamic-model compat programs (public ACL API only):
 * files, datasets with tensor descriptions, relative L2 error.
 */
#ifndef DYN_UTIL_H
#define DYN_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

#define DYN_CHECK(expr)                                                                                            \
    do {                                                                                                           \
        aclError e_ = (expr);                                                                                      \
        if (e_ != ACL_SUCCESS) {                                                                                   \
            const char *m_ = aclGetRecentErrMsg();                                                                 \
            fprintf(stderr, "%s:%d: %s = %d (%s)\n", __FILE__, __LINE__, #expr, (int)e_, m_ ? m_ : "");            \
            exit(1);                                                                                               \
        }                                                                                                          \
    } while (0)

#define DYN_FAIL(...)                                                                                              \
    do {                                                                                                           \
        fprintf(stderr, __VA_ARGS__);                                                                              \
        fputc('\n', stderr);                                                                                       \
        exit(1);                                                                                                   \
    } while (0)

static inline void *dyn_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        DYN_FAIL("cannot open %s", path);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *p = malloc(n > 0 ? (size_t)n : 1);
    if (p == NULL || (n > 0 && fread(p, 1, (size_t)n, f) != (size_t)n)) {
        DYN_FAIL("cannot read %s", path);
    }
    fclose(f);
    *size = (size_t)n;
    return p;
}

static inline void dyn_write_file(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(p, 1, n, f) != n) {
        DYN_FAIL("cannot write %s", path);
    }
    fclose(f);
}

/* ||a - b|| / ||b|| over n floats (0 when both are zero). */
static inline double dyn_rel_l2(const float *a, const float *b, size_t n)
{
    double num = 0.0, den = 0.0;
    for (size_t i = 0; i < n; ++i) {
        const double d = (double)a[i] - (double)b[i];
        num += d * d;
        den += (double)b[i] * (double)b[i];
    }
    if (den == 0.0) {
        return sqrt(num);
    }
    return sqrt(num / den);
}

/* Parses "1,3,224,224" into dims (returns the count). */
static inline int dyn_parse_dims(const char *s, int64_t *dims, int cap)
{
    int n = 0;
    while (*s && n < cap) {
        char *end;
        dims[n++] = strtoll(s, &end, 10);
        s = *end == ',' ? end + 1 : end;
        if (*end != ',' && *end != '\0') {
            DYN_FAIL("bad dims near \"%s\"", end);
        }
    }
    return n;
}

/* A device buffer of n bytes holding src (host). */
static inline void *dyn_dev_copy(const void *src, size_t n)
{
    void *d = NULL;
    DYN_CHECK(aclrtMalloc(&d, n ? n : 1, ACL_MEM_MALLOC_HUGE_FIRST));
    if (n) {
        DYN_CHECK(aclrtMemcpy(d, n, src, n, ACL_MEMCPY_HOST_TO_DEVICE));
    }
    return d;
}

#endif

/* Helpers declared in util.h. */
#include "base/util.h"

#include "base/error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

bool oa_strlcpy(char *dst, const char *src, size_t cap)
{
    if (cap == 0) {
        return false;
    }
    size_t n = strlen(src);
    if (n >= cap) {
        memcpy(dst, src, cap - 1);
        dst[cap - 1] = '\0';
        return false;
    }
    memcpy(dst, src, n + 1);
    return true;
}

uint64_t oa_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

long oa_env_long(const char *name, long fallback)
{
    const char *v = getenv(name);
    if (v == NULL || v[0] == '\0') {
        return fallback;
    }
    char *end = NULL;
    errno = 0;
    long r = strtol(v, &end, 10);
    if (errno != 0 || end == v || *end != '\0') {
        return fallback;
    }
    return r;
}

uint64_t oa_load_limit_bytes(void)
{
    const long mb = oa_env_long("OPENACL_LOAD_LIMIT_MB", 1024);
    if (mb <= 0) {
        return 0;
    }
    return (uint64_t)mb > (UINT64_MAX >> 20) ? UINT64_MAX : (uint64_t)mb << 20;
}

static int u32_cmp(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

uint32_t oa_median_u32(uint32_t *v, size_t n)
{
    if (n == 0) {
        return 0;
    }
    qsort(v, n, sizeof(*v), u32_cmp);
    return v[n / 2];
}

char *oa_strdup(const char *s)
{
    if (s == NULL) {
        return NULL;
    }
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d != NULL) {
        memcpy(d, s, n);
    }
    return d;
}

oa_status oa_grow_array(void **arr, size_t *cap, size_t n, size_t elem, const char *what)
{
    if (n < *cap) {
        return OA_OK;
    }
    const size_t nc = *cap ? *cap * 2 : 16;
    size_t bytes;
    if (!oa_mul_size(nc, elem, &bytes)) {
        return OA_FAIL(OA_E_NOMEM, "%s overflow", what);
    }
    void *a = realloc(*arr, bytes);
    if (a == NULL) {
        return OA_FAIL(OA_E_NOMEM, "%s (%zu entries)", what, nc);
    }
    *arr = a;
    *cap = nc;
    return OA_OK;
}

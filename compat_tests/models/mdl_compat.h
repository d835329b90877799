/*
 * Helpers shared by the model compat programs (public ACL API only): a
 * CHECK in the style of the Ascend samples, file IO, the comparison against
 * ONNX Runtime's outputs (relative L2 error, top-5), and the reference file
 * naming of bench/ort's ort_run (DIR/<output name>.bin with characters
 * outside [A-Za-z0-9._-] as '_').
 */
#ifndef MDL_COMPAT_H
#define MDL_COMPAT_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

#include "../common/compat_check.h"

static inline void *mc_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *buf = malloc(n > 0 ? (size_t)n : 1);
    if (buf != NULL && n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *size = n > 0 ? (size_t)n : 0;
    return buf;
}

/* The reference of model output `name` (ATC names look like "node:0:tensor"; ORT uses the last part). */
static inline void *mc_read_ref(const char *dir, const char *name, size_t *size)
{
    const char *c = strrchr(name, ':');
    const char *s = c != NULL ? c + 1 : name;
    char fname[256];
    size_t n = 0;
    for (; *s != '\0' && n + 1 < sizeof fname; s++) {
        const char ch = *s;
        const int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                       ch == '.' || ch == '_' || ch == '-';
        fname[n++] = ok ? ch : '_';
    }
    fname[n] = '\0';
    char path[1400];
    snprintf(path, sizeof path, "%s/%s.bin", dir, fname);
    void *p = mc_read_file(path, size);
    if (p == NULL) {
        printf("cannot read the reference %s\n", path);
    }
    return p;
}

static inline double mc_rel_l2(const float *a, const float *b, size_t n)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < n; i++) {
        const double d = (double)a[i] - (double)b[i];
        num += d * d;
        den += (double)b[i] * (double)b[i];
    }
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

/* Indices of the k largest values, largest first (k <= 5). */
static inline void mc_topk(const float *v, size_t n, size_t k, size_t *idx)
{
    for (size_t j = 0; j < k; j++) {
        idx[j] = SIZE_MAX;
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < k; j++) {
            if (idx[j] == SIZE_MAX || v[i] > v[idx[j]]) {
                for (size_t m = k - 1; m > j; m--) {
                    idx[m] = idx[m - 1];
                }
                idx[j] = i;
                break;
            }
        }
    }
}

/* Compares n floats with the reference: relative L2 <= 1e-4; prints the result. 0 = pass. */
static inline int mc_compare(const char *what, const float *got, const float *ref, size_t n)
{
    const double rel = mc_rel_l2(got, ref, n);
    printf("%s: %zu floats, relative L2 error vs ONNX Runtime %.3g %s\n", what, n, rel,
           rel <= 1e-4 ? "(ok)" : "(ABOVE 1e-4)");
    return rel <= 1e-4 ? 0 : 1;
}

#endif

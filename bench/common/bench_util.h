/*
 * What every benchmark driver in bench/ needs besides the ACL API: a
 * monotonic clock, the median of a sample (sorts it in place), reading a
 * whole input file and a line of /proc/self/status. Header-only: the drivers
 * are single-file programs.
 */
#ifndef OA_BENCH_UTIL_H
#define OA_BENCH_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline double bench_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The process' CPU time in ms: what OA_BENCH_CPUTIME=1 times (on a shared machine, time the scheduler gives to
 * other processes does not count; at 2 threads it adds the threads' times and is not a latency). */
static inline double bench_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* $OA_BENCH_CPUTIME set and not "0" */
static inline int bench_cpu_time_wanted(void)
{
    const char *v = getenv("OA_BENCH_CPUTIME");
    return v != NULL && strcmp(v, "0") != 0;
}

/* A "VmRSS:" / "VmHWM:" / "RssAnon:" ... line of /proc/self/status, in MiB (< 0 when absent). */
static inline double bench_status_mib(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double kib = -1;
    const size_t n = strlen(key);
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, key, n) == 0) {
            kib = atof(line + n);
            break;
        }
    }
    if (f != NULL) {
        fclose(f);
    }
    return kib / 1024.0;
}

static inline double bench_now_us(void)
{
    return bench_now_ms() * 1e3;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), bench_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The whole file in a malloc'd buffer (NULL if it cannot be read); *size its length. */
static inline void *bench_read_file(const char *path, size_t *size)
{
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *p = malloc(n > 0 ? (size_t)n : 1);
    if (p != NULL && n > 0 && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    *size = p != NULL && n > 0 ? (size_t)n : 0;
    return p;
}

#endif

/*
 * The soft check of the atc check programs (atc_model_check.c, om_noinout_check.c): CHECK(cond, fmt, ...) prints
 * "FAIL file:line: message" on stderr when cond is false and counts it in g_failures; the program goes on and
 * its exit status reports whether g_failures stayed 0.
 */
#ifndef OA_TESTS_ATC_CHECK_COUNT_H
#define OA_TESTS_ATC_CHECK_COUNT_H

#include <stdio.h>

static int g_failures;

#define CHECK(cond, ...)                                         \
    do {                                                         \
        if (!(cond)) {                                           \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                        \
            fprintf(stderr, "\n");                               \
            g_failures++;                                        \
        }                                                        \
    } while (0)

#endif

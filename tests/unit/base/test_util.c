/* base/util.h's oa_median_u32 (the executors' profiles): against the middle of a sorted copy made here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/util.h"

static void median_of_counts(void **state)
{
    (void)state;
    assert_int_equal(oa_median_u32(NULL, 0), 0);
    uint32_t one[1] = {7};
    assert_int_equal(oa_median_u32(one, 1), 7);
    uint32_t odd[5] = {9, 1, 4000000000u, 3, 5};
    assert_int_equal(oa_median_u32(odd, 5), 5);
    assert_int_equal(odd[0], 1); /* sorted in place */
    uint32_t even[4] = {8, 2, 6, 4};
    assert_int_equal(oa_median_u32(even, 4), 6); /* the upper middle */
    /* 257 pseudo-random values: the entry with 128 below it, counted without sorting */
    uint32_t v[257], x = 12345;
    for (int i = 0; i < 257; i++) {
        x = x * 1103515245u + 12345u;
        v[i] = x >> 8;
    }
    uint32_t copy[257];
    memcpy(copy, v, sizeof v);
    const uint32_t m = oa_median_u32(copy, 257);
    int below = 0, equal = 0;
    for (int i = 0; i < 257; i++) {
        below += v[i] < m;
        equal += v[i] == m;
    }
    assert_true(equal >= 1 && below <= 128 && below + equal > 128);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(median_of_counts)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

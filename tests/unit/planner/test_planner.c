/*
 * mem/planner: the pure memory planner, tested with synthetic lifetimes.
 *
 * Every plan is checked by an independent brute-force verifier written
 * here (not the library's oa_planner_verify): all offsets aligned, every
 * value inside [0, total), and no two values alive at the same step share a
 * byte unless they are an accepted in-place pair (or chain). Lifetimes are
 * drawn as
 *
 *   step:   0   1   2   3
 *   a       [=======]            a: first 0, last 2
 *   b           [===]            b: first 1, last 2
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/error.h"
#include "mem/planner.h"

#define A OA_PLANNER_ALIGN

static oa_plan_value pv(size_t size, int32_t first, int32_t last, int32_t cand)
{
    oa_plan_value v = {size, first, last, cand};
    return v;
}

/* Independent check. `shared[i]` = group label: values may overlap in memory
 * while alive together only when the test says they share (in-place). */
static void brute_verify(const oa_plan_value *v, size_t n, const size_t *off, size_t total, const int *share)
{
    for (size_t i = 0; i < n; i++) {
        if (v[i].size == 0) {
            continue;
        }
        assert_int_equal(off[i] % A, 0);
        assert_true(off[i] + v[i].size <= total);
        for (size_t j = 0; j < n; j++) {
            if (i == j || v[j].size == 0) {
                continue;
            }
            int32_t lo = v[i].first_use > v[j].first_use ? v[i].first_use : v[j].first_use;
            int32_t hi = v[i].last_use < v[j].last_use ? v[i].last_use : v[j].last_use;
            if (lo > hi) {
                continue;
            }
            for (int32_t s = lo; s <= hi; s++) {
                bool mem = off[i] < off[j] + v[j].size && off[j] < off[i] + v[i].size;
                if (mem && !(share && share[i] >= 0 && share[i] == share[j])) {
                    print_error("values %zu [%zu,+%zu) and %zu [%zu,+%zu) overlap at step %d\n", i, off[i],
                                v[i].size, j, off[j], v[j].size, (int)s);
                    fail();
                }
            }
        }
    }
}

/* Lower bound: at every step, the live values (one per share group) must fit. */
static size_t live_lower_bound(const oa_plan_value *v, size_t n, const int *share)
{
    int32_t maxs = 0;
    for (size_t i = 0; i < n; i++) {
        maxs = v[i].last_use > maxs ? v[i].last_use : maxs;
    }
    size_t best = 0;
    for (int32_t s = 0; s <= maxs; s++) {
        size_t sum = 0;
        for (size_t i = 0; i < n; i++) {
            if (v[i].size == 0 || v[i].first_use > s || v[i].last_use < s) {
                continue;
            }
            bool dup = false;
            for (size_t j = 0; j < i && share && share[i] >= 0; j++) {
                if (share[j] == share[i] && v[j].size && v[j].first_use <= s && v[j].last_use >= s) {
                    dup = true;
                }
            }
            if (!dup) {
                sum += (v[i].size + A - 1) / A * A;
            }
        }
        best = sum > best ? sum : best;
    }
    return best;
}

static size_t plan_ok(const oa_plan_value *v, size_t n, size_t *off, const int *share)
{
    size_t total = 12345;
    oa_plan_stats stats;
    oa_status st = oa_planner_plan(v, n, A, off, &total, &stats);
    if (st != OA_OK) {
        const char *m = oa_error_take_messages();
        print_error("plan failed: %s\n", m ? m : "");
        fail();
    }
    assert_int_equal(stats.total, total);
    brute_verify(v, n, off, total, share);
    assert_int_equal(oa_planner_verify(v, n, A, off, total), OA_OK);
    assert_true(total >= live_lower_bound(v, n, share));
    assert_true(total <= stats.naive);
    return total;
}

#define EXPECT_FAIL(expr, want, fragment)                                                             \
    do {                                                                                               \
        oa_error_clear();                                                                              \
        oa_status st_ = (expr);                                                                        \
        const char *m_ = oa_error_take_messages();                                                     \
        if (st_ != (want) || m_ == NULL || strstr(m_, (fragment)) == NULL) {                           \
            print_error("%s: %s, [%s] (want fragment [%s])\n", #expr, oa_status_str(st_), m_ ? m_ : "", \
                        (fragment));                                                                   \
            fail();                                                                                    \
        }                                                                                              \
    } while (0)

static void empty_and_zero_sizes(void **state)
{
    (void)state;
    size_t total = 7;
    assert_int_equal(oa_planner_plan(NULL, 0, A, NULL, &total, NULL), OA_OK);
    assert_int_equal(total, 0);
    oa_plan_value v[3] = {pv(0, 0, 5, -1), pv(0, 1, 1, 0), pv(0, 2, 3, -1)};
    size_t off[3] = {9, 9, 9};
    assert_int_equal(plan_ok(v, 3, off, NULL), 0);
    assert_int_equal(off[0], 0);
    assert_int_equal(off[1], 0);
    assert_int_equal(off[2], 0);
}

static void bad_arguments(void **state)
{
    (void)state;
    oa_plan_value v[2] = {pv(64, 0, 1, -1), pv(64, 1, 2, -1)};
    size_t off[2], total;
    EXPECT_FAIL(oa_planner_plan(NULL, 2, A, off, &total, NULL), OA_E_PARAM, "NULL argument");
    EXPECT_FAIL(oa_planner_plan(v, 2, A, NULL, &total, NULL), OA_E_PARAM, "NULL argument");
    EXPECT_FAIL(oa_planner_plan(v, 2, A, off, NULL, NULL), OA_E_PARAM, "NULL argument");
    EXPECT_FAIL(oa_planner_plan(v, 2, 48, off, &total, NULL), OA_E_PARAM, "not a power of two");
    EXPECT_FAIL(oa_planner_plan(v, 2, 0, off, &total, NULL), OA_E_PARAM, "not a power of two");
    v[1] = pv(64, 3, 2, -1);
    EXPECT_FAIL(oa_planner_plan(v, 2, A, off, &total, NULL), OA_E_PARAM, "value 1 has lifetime [3, 2]");
    v[1] = pv(64, -1, 2, -1);
    EXPECT_FAIL(oa_planner_plan(v, 2, A, off, &total, NULL), OA_E_PARAM, "lifetime [-1, 2]");
    v[1] = pv(64, 1, 2, 2);
    EXPECT_FAIL(oa_planner_plan(v, 2, A, off, &total, NULL), OA_E_PARAM, "in-place candidate 2");
    v[1] = pv(64, 1, 2, 1);
    EXPECT_FAIL(oa_planner_plan(v, 2, A, off, &total, NULL), OA_E_PARAM, "in-place candidate 1");
    v[1] = pv(64, 1, 2, -7);
    EXPECT_FAIL(oa_planner_plan(v, 2, A, off, &total, NULL), OA_E_PARAM, "in-place candidate -7");
    v[0] = pv(SIZE_MAX - 10, 0, 1, -1);
    v[1] = pv(64, 1, 2, -1);
    EXPECT_FAIL(oa_planner_plan(v, 2, A, off, &total, NULL), OA_E_PARAM, "overflows");
}

/*
 * A chain x -> a -> b -> c where each value is read only by the next step:
 *
 *   step:  0    1    2    3
 *   a      [====]                 100 B
 *   b           [====]            200 B
 *   c                [====]       100 B
 *
 * a and c never live together: they share offset 0 next to b.
 */
static void linear_chain_reuses(void **state)
{
    (void)state;
    oa_plan_value v[3] = {pv(100, 0, 1, -1), pv(200, 1, 2, -1), pv(100, 2, 3, -1)};
    size_t off[3];
    size_t total = plan_ok(v, 3, off, NULL);
    assert_int_equal(total, 256 + 128);
    assert_int_equal(off[1], 0);   /* largest first */
    assert_int_equal(off[0], 256);
    assert_int_equal(off[2], 256); /* reuses a's bytes */
}

static void all_alive_are_disjoint(void **state)
{
    (void)state;
    oa_plan_value v[5];
    for (int i = 0; i < 5; i++) {
        v[i] = pv((size_t)(i + 1) * 10, 0, 9, -1);
    }
    size_t off[5];
    assert_int_equal(plan_ok(v, 5, off, NULL), 5 * A);
}

/*
 * In place: relu (step 1) overwrites conv's output, which dies at step 1.
 *
 *   step:  0    1    2
 *   conv   [====]          (candidate of relu)
 *   relu        [====]
 *   other  [=========]
 */
static void inplace_accepted(void **state)
{
    (void)state;
    oa_plan_value v[3] = {pv(256, 0, 1, -1), pv(256, 1, 2, 0), pv(64, 0, 2, -1)};
    size_t off[3];
    int share[3] = {1, 1, -1};
    oa_plan_stats stats;
    size_t total;
    assert_int_equal(oa_planner_plan(v, 3, A, off, &total, &stats), OA_OK);
    assert_int_equal(stats.num_inplace, 1);
    assert_int_equal(stats.num_groups, 2);
    assert_int_equal(off[0], off[1]);
    assert_int_equal(total, 256 + 64);
    brute_verify(v, 3, off, total, share);
    /* Without the in-place request, conv and relu both live at step 1. */
    v[1].inplace_candidate = -1;
    assert_int_equal(plan_ok(v, 3, off, NULL), 256 * 2 + 64);
}

/* The candidate is still read after the producing step: no in-place. */
static void inplace_rejected_when_candidate_lives_on(void **state)
{
    (void)state;
    oa_plan_value v[2] = {pv(128, 0, 3, -1), pv(128, 1, 2, 0)};
    size_t off[2];
    oa_plan_stats stats;
    size_t total;
    assert_int_equal(oa_planner_plan(v, 2, A, off, &total, &stats), OA_OK);
    assert_int_equal(stats.num_inplace, 0);
    assert_true(off[0] != off[1]);
    brute_verify(v, 2, off, total, NULL);
}

/* Two values claim the same candidate: the lower index wins. */
static void inplace_claimed_once(void **state)
{
    (void)state;
    oa_plan_value v[3] = {pv(128, 0, 1, -1), pv(128, 1, 2, 0), pv(128, 1, 2, 0)};
    size_t off[3], total;
    oa_plan_stats stats;
    assert_int_equal(oa_planner_plan(v, 3, A, off, &total, &stats), OA_OK);
    assert_int_equal(stats.num_inplace, 1);
    assert_int_equal(off[1], off[0]);
    assert_true(off[2] != off[0]);
    int share[3] = {1, 1, -1};
    brute_verify(v, 3, off, total, share);
}

/* Chains a -> b -> c -> d all in place: one block, the largest member's size. */
static void inplace_chain(void **state)
{
    (void)state;
    oa_plan_value v[4] = {pv(100, 0, 1, -1), pv(300, 1, 2, 0), pv(200, 2, 3, 1), pv(64, 3, 4, 2)};
    size_t off[4], total;
    oa_plan_stats stats;
    assert_int_equal(oa_planner_plan(v, 4, A, off, &total, &stats), OA_OK);
    assert_int_equal(stats.num_inplace, 3);
    assert_int_equal(stats.num_groups, 1);
    assert_int_equal(total, 320);
    for (int i = 1; i < 4; i++) {
        assert_int_equal(off[i], off[0]);
    }
    int share[4] = {1, 1, 1, 1};
    brute_verify(v, 4, off, total, share);
    assert_int_equal(oa_planner_verify(v, 4, A, off, total), OA_OK);
}

/* Sizes round up to the alignment; offsets stay aligned with odd sizes. */
static void alignment_rounding(void **state)
{
    (void)state;
    oa_plan_value v[3] = {pv(1, 0, 2, -1), pv(65, 0, 2, -1), pv(3, 1, 2, -1)};
    size_t off[3];
    assert_int_equal(plan_ok(v, 3, off, NULL), 64 + 128 + 64);
    size_t total;
    assert_int_equal(oa_planner_plan(v, 3, 1, off, &total, NULL), OA_OK);
    assert_int_equal(total, 69);
}

/*
 * Best fit: at steps 2..5 only b, d and f are alive, leaving free gaps of
 * 512, 256 and 128 bytes between them; x (100 B) must take the 128-byte gap
 * (first fit would take offset 0).
 *
 *   step:  0    1    2 .. 5
 *   a      [====]                  512 B   0..512
 *   b      [==================]    512 B   512..1024
 *   c      [====]                  256 B   1024..1280
 *   d      [==================]    256 B   1280..1536
 *   e      [====]                  128 B   1536..1664
 *   f      [==================]    128 B   1664..1792
 *   x                [========]    100 B   -> 1536
 */
static void best_fit_gap(void **state)
{
    (void)state;
    oa_plan_value v[7] = {pv(512, 0, 1, -1), pv(512, 0, 5, -1), pv(256, 0, 1, -1), pv(256, 0, 5, -1),
                          pv(128, 0, 1, -1), pv(128, 0, 5, -1), pv(100, 2, 5, -1)};
    size_t off[7];
    assert_int_equal(plan_ok(v, 7, off, NULL), 1792);
    assert_int_equal(off[1], 512);
    assert_int_equal(off[3], 1280);
    assert_int_equal(off[5], 1664);
    assert_int_equal(off[6], 1536);
}

/* A pathological pattern for greedy-by-size: increasing sizes, staggered lives. */
static void staircase_worst_case(void **state)
{
    (void)state;
    enum { N = 64 };
    oa_plan_value v[N];
    for (int i = 0; i < N; i++) {
        v[i] = pv((size_t)(i + 1) * 64, i, i + 1, -1);
    }
    size_t off[N];
    size_t total = plan_ok(v, N, off, NULL);
    /* Two neighbours live together at most: the optimum is 64*(N + N-1). */
    assert_true(total >= 64 * (2 * N - 1));
    assert_true(total <= 64 * 3 * N);
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(uint32_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state % n);
}

/* Random graphs-like lifetimes with in-place requests; many seeds. */
static void random_stress(void **state)
{
    (void)state;
    enum { N = 400 };
    static oa_plan_value v[N];
    static size_t off[N];
    static int share[N];
    for (int round = 0; round < 40; round++) {
        for (int i = 0; i < N; i++) {
            int32_t first = (int32_t)(i / 2);
            int32_t len = (int32_t)rnd(round % 3 == 0 ? 4 : 40);
            size_t size = rnd(8) == 0 ? 0 : (size_t)rnd(1 << (4 + round % 14)) + 1;
            int32_t cand = -1;
            if (i > 0 && rnd(3) == 0) {
                cand = (int32_t)rnd((uint32_t)i);
            }
            v[i] = pv(size, first, first + len, cand);
        }
        /* Make some requests valid: candidate dies where this value is born. */
        for (int i = 0; i < N; i++) {
            int32_t c = v[i].inplace_candidate;
            if (c >= 0 && rnd(2) == 0 && v[c].first_use <= v[i].first_use) {
                v[c].last_use = v[i].first_use;
            }
        }
        /* Groups as the planner should accept them, computed the naive way. */
        bool taken[N] = {false};
        for (int i = 0; i < N; i++) {
            share[i] = i;
        }
        for (int i = 0; i < N; i++) {
            int32_t c = v[i].inplace_candidate;
            if (c >= 0 && v[i].size && v[c].size && !taken[c] && v[c].last_use == v[i].first_use &&
                share[c] != share[i]) {
                taken[c] = true;
                int from = share[i], to = share[c];
                for (int k = 0; k < N; k++) {
                    if (share[k] == from) {
                        share[k] = to;
                    }
                }
            }
        }
        plan_ok(v, N, off, share);
    }
}

/* The library verifier rejects overlapping and out-of-range plans. */
static void verifier_catches_bad_plans(void **state)
{
    (void)state;
    oa_plan_value v[2] = {pv(128, 0, 2, -1), pv(128, 1, 3, -1)};
    size_t off[2] = {0, 64};
    EXPECT_FAIL(oa_planner_verify(v, 2, A, off, 256), OA_E_PARAM, "overlap");
    off[1] = 128;
    assert_int_equal(oa_planner_verify(v, 2, A, off, 256), OA_OK);
    EXPECT_FAIL(oa_planner_verify(v, 2, A, off, 200), OA_E_PARAM, "exceeds the block");
    off[1] = 130;
    EXPECT_FAIL(oa_planner_verify(v, 2, A, off, 512), OA_E_PARAM, "not aligned");
}

/* Same input, same output. */
static void deterministic(void **state)
{
    (void)state;
    enum { N = 100 };
    oa_plan_value v[N];
    for (int i = 0; i < N; i++) {
        v[i] = pv((size_t)(rnd(5) + 1) * 64, i, i + (int32_t)rnd(10), -1);
    }
    size_t a[N], b[N], ta, tb;
    assert_int_equal(oa_planner_plan(v, N, A, a, &ta, NULL), OA_OK);
    assert_int_equal(oa_planner_plan(v, N, A, b, &tb, NULL), OA_OK);
    assert_int_equal(ta, tb);
    assert_memory_equal(a, b, sizeof(a));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(empty_and_zero_sizes),
        cmocka_unit_test(bad_arguments),
        cmocka_unit_test(linear_chain_reuses),
        cmocka_unit_test(all_alive_are_disjoint),
        cmocka_unit_test(inplace_accepted),
        cmocka_unit_test(inplace_rejected_when_candidate_lives_on),
        cmocka_unit_test(inplace_claimed_once),
        cmocka_unit_test(inplace_chain),
        cmocka_unit_test(alignment_rounding),
        cmocka_unit_test(best_fit_gap),
        cmocka_unit_test(staircase_worst_case),
        cmocka_unit_test(random_stress),
        cmocka_unit_test(verifier_catches_bad_plans),
        cmocka_unit_test(deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

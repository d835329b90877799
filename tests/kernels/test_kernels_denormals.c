/*
 * Denormals in a run scope (base/run_scope.h, docs/precision.md "Denormals"): the scope sets flush-to-zero and
 * denormals-are-zero on the calling thread, the pool's workers take the caller's mode with each task, an
 * operator's denormal inputs and results become zeros, and the application's own mode comes back when the
 * scope ends (nested scopes included). Run twice by ctest: as is, and with OPENACL_FLUSH_DENORMALS=0, where
 * the scope keeps the application's mode and the denormals stay.
 */
#include <float.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/run_scope.h"
#include "kernels/kernel_internal.h"
#include "kt_harness.h"

static bool flushing(void)
{
    const char *e = getenv("OPENACL_FLUSH_DENORMALS");
    return e == NULL || atol(e) != 0;
}

/* x * 1.5 for a denormal x, computed where the compiler cannot fold it. */
static float scaled_denormal(void)
{
    volatile float x = FLT_MIN / 64.0f, k = 1.5f;
    return x * k;
}

typedef struct dn_ctx {
    float out[2];
    unsigned mode[2];
    _Atomic int arrived;
    bool apart; /* both tasks were running at once: one on the caller, one on the worker */
} dn_ctx;

static void dn_task(void *v, size_t tid, size_t b, size_t e)
{
    (void)tid, (void)e;
    dn_ctx *c = v;
    atomic_fetch_add(&c->arrived, 1);
    for (long spin = 0; spin < 200000000L && atomic_load(&c->arrived) < 2; spin++) {
    }
    if (atomic_load(&c->arrived) >= 2) {
        c->apart = true;
    }
    c->out[b] = scaled_denormal();
    c->mode[b] = oa_fp_mode();
}

/* The calling thread and the worker of a two-thread pool, each with one task (they wait for each other): each
 * task's result and mode. */
static void on_pool(oa_threadpool *pool, dn_ctx *c)
{
    memset(c, 0, sizeof(*c));
    atomic_init(&c->arrived, 0);
    oa_threadpool_run_n(pool, 2, dn_task, c);
    assert_true(c->apart);
}

static void test_scope_and_pool(void **state)
{
    (void)state;
    assert_int_equal(oa_fp_flush_denormals(), flushing());
    oa_threadpool *pool = NULL;
    assert_int_equal(oa_threadpool_create(2, &pool), OA_OK);
    const unsigned app = oa_fp_mode();
    assert_int_equal(app, 0u); /* the process starts with denormals on */
    assert_true(scaled_denormal() != 0.0f);
    dn_ctx c;
    oa_run_scope outer, inner;
    oa_run_scope_begin(&outer, false, 0, 0);
    const unsigned want = flushing() ? OA_FP_MODE_FLUSH : app;
    assert_int_equal(oa_fp_mode(), want);
    assert_int_equal(scaled_denormal() == 0.0f, flushing());
    on_pool(pool, &c);
    for (int t = 0; t < 2; t++) {
        assert_int_equal(c.mode[t], want);
        assert_int_equal(c.out[t] == 0.0f, flushing());
    }
    oa_run_scope_begin(&inner, false, 0, 0);
    (void)oa_run_scope_end(&inner);
    assert_int_equal(oa_fp_mode(), want); /* the inner scope restores the outer scope's mode */
    (void)oa_run_scope_end(&outer);
    assert_int_equal(oa_fp_mode(), app);
    assert_true(scaled_denormal() != 0.0f);
    on_pool(pool, &c); /* outside a scope the workers compute with the caller's mode again */
    for (int t = 0; t < 2; t++) {
        assert_int_equal(c.mode[t], app);
        assert_true(c.out[t] != 0.0f);
    }
    /* an application that flushes only results keeps exactly that after a scope */
    oa_fp_set_mode(0x8000u);
    oa_run_scope_begin(&outer, false, 0, 0);
    assert_int_equal(oa_fp_mode(), flushing() ? OA_FP_MODE_FLUSH : 0x8000u);
    (void)oa_run_scope_end(&outer);
    assert_int_equal(oa_fp_mode(), 0x8000u);
    oa_fp_set_mode(app);
    oa_threadpool_destroy(pool);
}

/* An elementwise Mul on two threads inside a scope: denormal operands and results are zeros when flushing,
 * the exact products otherwise; normal values are untouched either way. */
static void test_operator(void **state)
{
    (void)state;
    enum { N = 4096 };
    oa_ktensor d = kt_desc(OA_KDT_F32, 1, (int64_t[]){N});
    kt_buf a = kt_alloc(d), b = kt_alloc(d), y = kt_alloc(d);
    float *av = a.data, *bv = b.data;
    for (int i = 0; i < N; i++) {
        switch (i % 3) {
        case 0: /* a denormal operand */
            av[i] = FLT_MIN / (float)(2 + i % 7);
            bv[i] = 3.0f;
            break;
        case 1: /* normal operands, a denormal product */
            av[i] = 1e-20f;
            bv[i] = 1e-19f * (float)(1 + i % 5);
            break;
        default: /* normal */
            av[i] = 0.5f + (float)(i % 11);
            bv[i] = -2.0f;
            break;
        }
    }
    oa_kbinary_params p;
    memset(&p, 0, sizeof p);
    p.op = OA_KBIN_MUL;
    kt_buf *ins[2] = {&a, &b}, *outs[1] = {&y};
    oa_run_scope outer;
    oa_run_scope_begin(&outer, false, 0, 0);
    const oa_status st = kt_run(OA_KOP_BINARY, &p, 2, ins, 0, 1, outs, 2);
    (void)oa_run_scope_end(&outer);
    assert_int_equal(st, OA_OK);
    const float *yv = y.data;
    for (int i = 0; i < N; i++) {
        const double exact = (double)av[i] * (double)bv[i];
        const float want = i % 3 != 2 && flushing() ? 0.0f : (float)exact;
        if (yv[i] != want) {
            fail_msg("element %d: %g * %g = %g, want %g", i, (double)av[i], (double)bv[i], (double)yv[i], (double)want);
        }
    }
    kt_free(&a);
    kt_free(&b);
    kt_free(&y);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scope_and_pool),
        cmocka_unit_test(test_operator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

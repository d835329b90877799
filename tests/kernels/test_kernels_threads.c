/*
 * Threads per operator (kernels.h oa_kthreads, docs/runtime.md "Threads per operator"): the learner's rules on
 * given durations, then real operators run many times on a two-thread pool: the choice is made, the outputs
 * stay those of a run on one thread, and OPENACL_OP_THREADS=pool keeps the pool.
 */
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel_internal.h"
#include "kt_harness.h"

/* Feeds t with pooled runs of pool_ns and caller runs of caller_ns until it decides (at most 40 runs);
 * returns the runs it took (0: undecided). */
static int learn(oa_kthreads *t, oa_threadpool *pool, uint64_t pool_ns, uint64_t caller_ns, uint64_t big_ns)
{
    for (int r = 1; r <= 40; r++) {
        int timed = 7;
        oa_threadpool *got = oa_kthreads_pick(t, pool, 2, &timed);
        if (timed < 0) {
            assert_ptr_equal(got, pool); /* untimed runs before the decision keep the pool */
        } else {
            assert_ptr_equal(got, timed == 0 ? pool : NULL);
            oa_kthreads_learn(t, 2, timed, timed == 0 ? pool_ns : caller_ns, big_ns);
        }
        if (atomic_load(&t->choice) != OA_KTHREADS_LEARNING) {
            return r;
        }
    }
    return 0;
}

static void test_learner_rules(void **state)
{
    (void)state;
    oa_threadpool *pool = kt_pool(2);
    if (getenv("OPENACL_OP_THREADS") != NULL && strcmp(getenv("OPENACL_OP_THREADS"), "pool") == 0) {
        oa_kthreads t = {0};
        assert_int_equal(learn(&t, pool, 1000, 10, 0), 1);
        assert_int_equal(atomic_load(&t.choice), OA_KTHREADS_POOL);
        print_message("OPENACL_OP_THREADS=pool: the pool at once\n");
        return;
    }
    /* pooled and caller-alone durations, big_ns, the runs until the choice, the choice */
    static const struct {
        uint64_t pool_ns, caller_ns, big_ns;
        int runs, choice;
    } rules[] = {
        {1000, 900, 0, 10, OA_KTHREADS_CALLER},       /* the caller faster: after 2 untimed + 4 runs of each */
        {900, 1000, 0, 10, OA_KTHREADS_POOL},         /* the pool faster */
        {1000, 1000, 0, 10, OA_KTHREADS_CALLER},      /* a tie: the caller (never slower than one thread) */
        {1000, 1500, 0, 4, OA_KTHREADS_POOL},         /* the caller 1.5x the pool: after the first run of each */
        {300000, 1, 200000, 3, OA_KTHREADS_POOL},     /* a pooled run of at least big_ns: no run on the caller */
    };
    for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
        oa_kthreads t = {0};
        assert_int_equal(learn(&t, pool, rules[i].pool_ns, rules[i].caller_ns, rules[i].big_ns), rules[i].runs);
        assert_int_equal(atomic_load(&t.choice), rules[i].choice);
    }
    /* once the caller is chosen, runs go to it untimed */
    oa_kthreads t1 = {0};
    (void)learn(&t1, pool, 1000, 900, 0);
    int timed = 7;
    assert_null(oa_kthreads_pick(&t1, pool, 2, &timed));
    assert_int_equal(timed, -1);
    /* no pool, or one thread: nothing timed, nothing counted */
    oa_kthreads t6 = {0};
    assert_null(oa_kthreads_pick(&t6, NULL, 2, &timed));
    assert_int_equal(timed, -1);
    assert_int_equal(atomic_load(&t6.calls), 0);
    /* a mode out of range is ignored */
    oa_kthreads_learn(&t6, 2, 2, 5, 0);
    oa_kthreads_learn(&t6, 2, -1, 5, 0);
    assert_int_equal(atomic_load(&t6.best[0]), 0);
    assert_int_equal(atomic_load(&t6.best[1]), 0);
}

/* Runs op `runs` times on the two-thread pool; every output equals y1 (the same op run on one thread). */
static void run_many(oa_kop *op, const void *const *in, size_t n_out, float *y, const float *y1, int runs)
{
    for (int r = 0; r < runs; r++) {
        memset(y, 0xff, n_out * sizeof(float));
        void *outs[1] = {y};
        assert_int_equal(oa_kop_run(op, in, outs, NULL, kt_pool(2)), OA_OK);
        if (memcmp(y, y1, n_out * sizeof(float)) != 0) {
            fail_msg("run %d (choice %d): outputs differ from the one-thread run", r, oa_kop_threads_choice(op));
        }
    }
}

/* A small Add (learns either way) and a large MatMul (the pool at once) */
static void test_ops_learn(void **state)
{
    (void)state;
    const bool pool_only = getenv("OPENACL_OP_THREADS") != NULL && strcmp(getenv("OPENACL_OP_THREADS"), "pool") == 0;
    const int64_t n = 40000;
    kt_buf a = kt_alloc(KT_D(OA_KDT_F32, n)), b = kt_alloc(KT_D(OA_KDT_F32, n)), y = kt_alloc(KT_D(OA_KDT_F32, n));
    kt_buf y1 = kt_alloc(KT_D(OA_KDT_F32, n));
    kt_fill(&a, 1, -1, 1);
    kt_fill(&b, 2, -1, 1);
    oa_kbinary_params bp;
    memset(&bp, 0, sizeof bp);
    bp.op = OA_KBIN_ADD;
    oa_ktensor in[2] = {a.d, b.d}, out = y.d;
    in[0].data = in[1].data = NULL;
    oa_kop *op = NULL;
    assert_int_equal(oa_kop_create(OA_KOP_BINARY, &bp, 2, in, 1, &out, &op), OA_OK);
    assert_int_equal(oa_kop_workspace_size(op), 0);
    const void *ip[2] = {a.data, b.data};
    void *o1[1] = {y1.data};
    assert_int_equal(oa_kop_run(op, ip, o1, NULL, NULL), OA_OK);
    assert_int_equal(oa_kop_threads_choice(op), OA_KTHREADS_LEARNING); /* one thread: nothing learnt */
    run_many(op, ip, (size_t)n, y.data, y1.data, 20);
    const int c = oa_kop_threads_choice(op);
    assert_true(c == OA_KTHREADS_POOL || c == OA_KTHREADS_CALLER);
    assert_true(!pool_only || c == OA_KTHREADS_POOL);
    print_message("Add of %lld floats on two threads: %s\n", (long long)n, c == OA_KTHREADS_POOL ? "pool" : "caller");
    oa_kop_destroy(op);

    const int64_t m = 256, k = 1024, nn = 1024; /* 0.5 GFLOP: far above 200 us on a core */
    kt_buf ma = kt_alloc(KT_D(OA_KDT_F32, m, k)), mb = kt_alloc(KT_D(OA_KDT_F32, k, nn));
    kt_buf my = kt_alloc(KT_D(OA_KDT_F32, m, nn)), my1 = kt_alloc(KT_D(OA_KDT_F32, m, nn));
    kt_fill(&ma, 3, -1, 1);
    kt_fill(&mb, 4, -1, 1);
    oa_kmatmul_params mp;
    memset(&mp, 0, sizeof mp);
    mp.alpha = mp.beta = 1.0f;
    oa_ktensor min[3] = {ma.d, mb.d}, mout = my.d;
    min[0].data = NULL;
    min[1].data = mb.data; /* a constant b, as Linear layers have */
    min[2].dtype = OA_KDT_UNDEFINED; /* no bias */
    assert_int_equal(oa_kop_create(OA_KOP_MATMUL, &mp, 3, min, 1, &mout, &op), OA_OK);
    const size_t wsz = oa_kop_workspace_size(op);
    void *ws = wsz > 0 ? aligned_alloc(64, (wsz + 63) / 64 * 64) : NULL;
    const void *mip[3] = {ma.data, mb.data, NULL};
    void *mo1[1] = {my1.data};
    assert_int_equal(oa_kop_run(op, mip, mo1, ws, NULL), OA_OK);
    for (int r = 0; r < 4; r++) {
        void *mo[1] = {my.data};
        assert_int_equal(oa_kop_run(op, mip, mo, ws, kt_pool(2)), OA_OK);
        assert_memory_equal(my.data, my1.data, (size_t)(m * nn) * sizeof(float));
    }
    assert_int_equal(oa_kop_threads_choice(op), OA_KTHREADS_POOL);
    free(ws);
    oa_kop_destroy(op);
    kt_free(&a);
    kt_free(&b);
    kt_free(&y);
    kt_free(&y1);
    kt_free(&ma);
    kt_free(&mb);
    kt_free(&my);
    kt_free(&my1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_learner_rules),
        cmocka_unit_test(test_ops_learn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

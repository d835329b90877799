/*
 * Helpers shared by the runtime unit tests: cmocka includes, a sleep, an
 * atomic counter, and a host function that blocks a stream until released
 * (to create "pending work" deterministically).
 */
#ifndef OA_TESTS_RT_TEST_UTIL_H
#define OA_TESTS_RT_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"

/*
 * Checks that the thread's recent error message mentions `needle`. The
 * message API belongs to acl_base; while it answers NULL (not merged yet)
 * only the error code is checked by the caller.
 */
static inline void test_expect_msg(const char *needle)
{
    const char *m = aclGetRecentErrMsg();
    if (m != NULL) {
        assert_non_null(strstr(m, needle));
    }
}

static inline void test_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static inline uint64_t test_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* A gate a host function waits on: stream work queued behind it stays pending until test_gate_open. */
typedef struct test_gate {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool open;
    bool entered;
} test_gate;

static inline void test_gate_init(test_gate *g)
{
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    g->open = false;
    g->entered = false;
}

static inline void test_gate_fn(void *arg)
{
    test_gate *g = arg;
    pthread_mutex_lock(&g->mu);
    g->entered = true;
    pthread_cond_broadcast(&g->cv);
    while (!g->open) {
        pthread_cond_wait(&g->cv, &g->mu);
    }
    pthread_mutex_unlock(&g->mu);
}

static inline void test_gate_wait_entered(test_gate *g)
{
    pthread_mutex_lock(&g->mu);
    while (!g->entered) {
        pthread_cond_wait(&g->cv, &g->mu);
    }
    pthread_mutex_unlock(&g->mu);
}

static inline void test_gate_open(test_gate *g)
{
    pthread_mutex_lock(&g->mu);
    g->open = true;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

static inline void test_counter_inc(void *arg)
{
    __atomic_fetch_add((int *)arg, 1, __ATOMIC_SEQ_CST);
}

static inline int test_counter_get(int *c)
{
    return __atomic_load_n(c, __ATOMIC_SEQ_CST);
}

/* Group fixtures of the tests on device 0: set it, and force-reset it after. */
static inline int test_device0_setup(void **state)
{
    (void)state;
    return aclrtSetDevice(0) == ACL_SUCCESS ? 0 : -1;
}

static inline int test_device0_teardown(void **state)
{
    (void)state;
    (void)aclrtResetDeviceForce(0);
    return 0;
}

/* A new stream on the current context (the test fails if it cannot be made). */
static inline aclrtStream test_new_stream(void)
{
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    return s;
}

#endif

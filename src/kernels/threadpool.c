/*
 * oa_threadpool: spin-then-futex worker pool with per-worker mailboxes.
 *
 * Each worker owns a cache line with a sequence word. The caller posts a task
 * to exactly the workers it needs by bumping their sequence words (waking
 * only those that went to sleep) and works on chunks itself. Chunks are
 * claimed with a CAS on one word holding (next chunk, chunk count), and the
 * caller waits only for the claimed chunks to complete, never for a worker
 * to acknowledge: when another process holds the second core and a worker is
 * slow to wake, the caller simply does all the chunks (a late worker finds
 * nothing to claim). Task fields are read only after a successful claim, and
 * the caller rewrites them only after every claimed chunk completed.
 */
#define OA_LOG_MODULE "KERNELS"
#include "kernels/threadpool.h"

#include <errno.h>
#include <fenv.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/error.h"
#include "base/run_scope.h"
#include "base/util.h"

#define MAX_THREADS 64
#define SPIN_ITERS 4000

typedef struct worker {
    _Alignas(64) _Atomic uint32_t seq; /* bumped by the caller to post a task */
    _Atomic uint32_t sleeping;         /* 1 while in futex_wait on seq */
    uint32_t seen;
    size_t id;
    pthread_t thread;
    struct oa_threadpool *pool;
    bool started;
} worker;

struct oa_threadpool {
    size_t n; /* participants incl. the caller */
    pthread_mutex_t call_lock;
    /* current task (written by the caller before posting) */
    oa_parallel_fn fn;
    void *ctx;
    size_t range, chunk;
    bool per_thread; /* run_n mode: chunk i is the call fn(ctx, i, i, i + 1) */
    uint32_t nchunks;
    uint64_t deadline; /* the caller's run deadline (run_scope.h): later chunks are skipped once it passed */
    unsigned fp_mode;  /* the caller's denormal mode (run_scope.h): workers compute the task with it */
    _Atomic int fp_excepts; /* IEEE exception flags the workers raised, handed to the caller */
    _Alignas(64) _Atomic uint64_t work;    /* next chunk << 32 | chunk count */
    _Alignas(64) _Atomic uint32_t done;    /* completed chunks */
    _Atomic uint32_t caller_sleeping;
    _Atomic bool stop;
    worker *workers; /* n - 1 entries */
};

static void futex_wait(_Atomic uint32_t *addr, uint32_t val)
{
    syscall(SYS_futex, (void *)(uintptr_t)addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *addr, int n)
{
    syscall(SYS_futex, (void *)(uintptr_t)addr, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void do_chunks(oa_threadpool *p, size_t tid)
{
    uint64_t w = atomic_load_explicit(&p->work, memory_order_acquire);
    for (;;) {
        uint32_t next = (uint32_t)(w >> 32), lim = (uint32_t)w;
        if (next >= lim) {
            return;
        }
        if (!atomic_compare_exchange_weak_explicit(&p->work, &w, w + (1ull << 32), memory_order_acq_rel,
                                                   memory_order_acquire)) {
            continue;
        }
        /* claimed chunk `next` of the current task: its fields are stable until it completes */
        if (tid != 0) {
            oa_fp_set_mode(p->fp_mode);
        }
        if (p->deadline != 0 && oa_run_expired(p->deadline)) {
            /* cancelled: the operator's deadline passed; its caller reports the timeout */
        } else if (p->per_thread) {
            p->fn(p->ctx, next, next, next + 1);
        } else {
            size_t b = (size_t)next * p->chunk;
            size_t e = b + p->chunk < p->range ? b + p->chunk : p->range;
            p->fn(p->ctx, tid, b, e);
        }
        if (tid != 0) { /* a worker: its overflow flags belong to the caller's operator */
            const int f = oa_fp_excepts();
            if (f != 0) {
                atomic_fetch_or(&p->fp_excepts, f);
                oa_fp_clear();
            }
        }
        uint32_t n = p->nchunks;
        if (atomic_fetch_add(&p->done, 1) + 1 == n && atomic_load(&p->caller_sleeping)) {
            futex_wake(&p->done, 1);
        }
        w = atomic_load_explicit(&p->work, memory_order_acquire);
    }
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    oa_threadpool *p = w->pool;
    for (;;) {
        uint32_t s = atomic_load_explicit(&w->seq, memory_order_acquire);
        if (s == w->seen) {
            int i = 0;
            for (; i < SPIN_ITERS; i++) {
                cpu_relax();
                s = atomic_load_explicit(&w->seq, memory_order_acquire);
                if (s != w->seen) {
                    break;
                }
            }
            if (i == SPIN_ITERS) {
                atomic_store(&w->sleeping, 1);
                if (atomic_load(&w->seq) == w->seen) {
                    futex_wait(&w->seq, w->seen);
                }
                atomic_store(&w->sleeping, 0);
            }
            continue;
        }
        w->seen = s;
        if (atomic_load_explicit(&p->stop, memory_order_acquire)) {
            break;
        }
        do_chunks(p, w->id);
    }
    return NULL;
}

static void post(worker *w)
{
    atomic_fetch_add(&w->seq, 1);
    if (atomic_load(&w->sleeping)) {
        futex_wake(&w->seq, 1);
    }
}

oa_status oa_threadpool_create(size_t n_threads, oa_threadpool **out_pool)
{
    if (out_pool == NULL) {
        return OA_FAIL(OA_E_PARAM, "out_pool is NULL");
    }
    *out_pool = NULL;
    if (n_threads == 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        n_threads = c > 0 ? (size_t)c : 1;
    }
    if (n_threads > MAX_THREADS) {
        n_threads = MAX_THREADS;
    }
    oa_threadpool *p = calloc(1, sizeof(*p));
    if (p == NULL) {
        return OA_FAIL(OA_E_NOMEM, "thread pool of %zu threads", n_threads);
    }
    p->n = n_threads;
    pthread_mutex_init(&p->call_lock, NULL);
    if (n_threads > 1) {
        p->workers = aligned_alloc(64, sizeof(worker) * (n_threads - 1));
        if (p->workers == NULL) {
            oa_threadpool_destroy(p);
            return OA_FAIL(OA_E_NOMEM, "thread pool of %zu threads", n_threads);
        }
        for (size_t i = 0; i + 1 < n_threads; i++) {
            worker *w = &p->workers[i];
            atomic_init(&w->seq, 0);
            atomic_init(&w->sleeping, 0);
            w->seen = 0;
            w->id = i + 1;
            w->pool = p;
            w->started = false;
        }
        for (size_t i = 0; i + 1 < n_threads; i++) {
            worker *w = &p->workers[i];
            int rc = pthread_create(&w->thread, NULL, worker_main, w);
            if (rc != 0) {
                oa_threadpool_destroy(p);
                return OA_FAIL(OA_E_INTERNAL, "pthread_create failed for worker %zu: errno %d", i + 1, rc);
            }
            w->started = true;
        }
    }
    *out_pool = p;
    return OA_OK;
}

void oa_threadpool_destroy(oa_threadpool *pool)
{
    if (pool == NULL) {
        return;
    }
    if (pool->workers != NULL) {
        atomic_store(&pool->stop, true);
        for (size_t i = 0; i + 1 < pool->n; i++) {
            if (pool->workers[i].started) {
                post(&pool->workers[i]);
            }
        }
        for (size_t i = 0; i + 1 < pool->n; i++) {
            if (pool->workers[i].started) {
                pthread_join(pool->workers[i].thread, NULL);
            }
        }
        free(pool->workers);
    }
    pthread_mutex_destroy(&pool->call_lock);
    free(pool);
}

size_t oa_threadpool_size(const oa_threadpool *pool)
{
    return pool == NULL ? 1 : pool->n;
}

/* The largest number of participants one call was given since the last reset (oa_threadpool_peak_participants). */
static _Atomic size_t g_peak;
static _Atomic(oa_threadpool *) g_setup_pool;

void oa_threadpool_set_setup_pool(oa_threadpool *pool)
{
    atomic_store(&g_setup_pool, pool);
}

oa_threadpool *oa_threadpool_setup_pool(void)
{
    return atomic_load(&g_setup_pool);
}

static void note_participants(size_t n)
{
    size_t cur = atomic_load_explicit(&g_peak, memory_order_relaxed);
    while (n > cur && !atomic_compare_exchange_weak_explicit(&g_peak, &cur, n, memory_order_relaxed,
                                                             memory_order_relaxed)) {
    }
}

size_t oa_threadpool_peak_participants(bool reset)
{
    return reset ? atomic_exchange(&g_peak, 0) : atomic_load(&g_peak);
}

/* Participants a call may use: the pool's size, at most the run scope's thread limit (run_scope.h). */
static size_t usable(const oa_threadpool *pool)
{
    size_t n = oa_threadpool_size(pool);
    const uint32_t lim = oa_run_max_threads();
    return lim != 0 && lim < n ? (size_t)lim : n;
}

static void dispatch(oa_threadpool *p, size_t n_use, oa_parallel_fn fn, void *ctx, size_t range, size_t chunk,
                     bool per_thread)
{
    note_participants(n_use);
    pthread_mutex_lock(&p->call_lock);
    p->fn = fn;
    p->ctx = ctx;
    p->range = range;
    p->chunk = chunk;
    p->per_thread = per_thread;
    p->deadline = oa_run_deadline();
    p->fp_mode = oa_fp_mode();
    uint32_t n = (uint32_t)(per_thread ? range : (range + chunk - 1) / chunk);
    p->nchunks = n;
    atomic_store(&p->done, 0);
    atomic_store_explicit(&p->work, (uint64_t)n, memory_order_release);
    for (size_t i = 0; i + 1 < n_use; i++) {
        post(&p->workers[i]);
    }
    do_chunks(p, 0);
    if (atomic_load(&p->done) != n) {
        int i = 0;
        for (; i < SPIN_ITERS && atomic_load(&p->done) != n; i++) {
            cpu_relax();
        }
        for (;;) {
            uint32_t v = atomic_load(&p->done);
            if (v == n) {
                break;
            }
            atomic_store(&p->caller_sleeping, 1);
            v = atomic_load(&p->done);
            if (v != n) {
                futex_wait(&p->done, v);
            }
            atomic_store(&p->caller_sleeping, 0);
        }
    }
    const int f = atomic_exchange(&p->fp_excepts, 0);
    if (f != 0) {
        oa_fp_raise(f); /* masked exceptions: only sets the caller's flags */
    }
    pthread_mutex_unlock(&p->call_lock);
}

void oa_threadpool_parallel_for(oa_threadpool *pool, size_t range, size_t grain, oa_parallel_fn fn, void *ctx)
{
    if (range == 0) {
        return;
    }
    if (grain == 0) {
        grain = 1;
    }
    size_t n = usable(pool);
    size_t max_chunks = range / grain;
    if (n <= 1 || max_chunks < 2) {
        note_participants(1);
        fn(ctx, 0, 0, range);
        return;
    }
    size_t n_use = n < max_chunks ? n : max_chunks;
    /* about 4 chunks per participant, never below the grain */
    size_t chunk = range / (n_use * 4);
    if (chunk < grain) {
        chunk = grain;
    }
    dispatch(pool, n_use, fn, ctx, range, chunk, false);
}

void oa_threadpool_run_n(oa_threadpool *pool, size_t n_tasks, oa_parallel_fn fn, void *ctx)
{
    if (n_tasks == 0) {
        return;
    }
    size_t n = usable(pool);
    size_t n_use = n < n_tasks ? n : n_tasks;
    if (n_use <= 1) {
        note_participants(1);
        fn(ctx, 0, 0, 1);
        return;
    }
    dispatch(pool, n_use, fn, ctx, n_use, 1, true);
}

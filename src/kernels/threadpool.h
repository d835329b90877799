/*
 * oa_threadpool: the intra-op thread pool every kernel parallelises on.
 *
 * A pool of N participants: the thread calling oa_threadpool_parallel_for()
 * is participant 0 and N-1 worker threads are the others. One
 * parallel_for() is in flight at a time per pool (calls from several
 * threads are serialised by a mutex; a kernel must not call parallel_for()
 * from inside a task of the same pool).
 *
 * Cost model: parallel_for() allocates nothing. It publishes the task, wakes
 * the workers (which spin briefly, about 20 µs, after each task and then
 * sleep on a futex), and the caller works on chunks itself, so a
 * parallel_for() whose range fits in one grain runs inline on the caller
 * with no synchronisation at all. The caller waits only for chunks that were
 * claimed, never for a worker to wake up: with the other core busy (another
 * process), a call degrades to the caller doing all the work, not to a
 * scheduler time slice of waiting.
 *
 * A NULL pool is valid everywhere and means "run on the calling thread".
 *
 * Inside a run scope with a thread limit (base/run_scope.h, aclrtSet{Stream,Device}ResLimit), parallel_for() and
 * run_n() use at most that many participants (the caller included); oa_threadpool_size() stays the pool's size,
 * so workspaces sized by it remain valid.
 */
#ifndef OA_KERNELS_THREADPOOL_H
#define OA_KERNELS_THREADPOOL_H

#include <stdbool.h>
#include <stddef.h>

#include "base/status.h"

typedef struct oa_threadpool oa_threadpool;

/*
 * Task body: processes indices [begin, end) of the range. `tid` is the
 * participant index in [0, oa_threadpool_size(pool)) (0 = the calling
 * thread); kernels use it to pick a per-thread slice of their workspace.
 */
typedef void (*oa_parallel_fn)(void *ctx, size_t tid, size_t begin, size_t end);

/*
 * Creates a pool of `n_threads` participants (n_threads - 1 workers are
 * started). n_threads == 0 means the number of online cores
 * (sysconf(_SC_NPROCESSORS_ONLN)), capped at 64.
 * [out] *out_pool: owned by the caller, released with oa_threadpool_destroy().
 * Fails with OA_E_NOMEM / OA_E_INTERNAL (thread creation) and leaves *out_pool NULL.
 */
oa_status oa_threadpool_create(size_t n_threads, oa_threadpool **out_pool) OA_MUST_CHECK;

/* Stops and joins the workers. Accepts NULL. Must not race with parallel_for(). */
void oa_threadpool_destroy(oa_threadpool *pool);

/* Participants (>= 1); 1 for a NULL pool. */
size_t oa_threadpool_size(const oa_threadpool *pool);

/*
 * Runs fn over [0, range) split into chunks of at least `grain` indices
 * (grain 0 is treated as 1). A second participant is used only when the
 * range holds at least two grains, so pass as grain the amount of work that
 * pays for a thread wake-up (kernels use oa_kgrain()). Chunks are handed out
 * dynamically (atomic counter), about 4 chunks per participant, so uneven
 * work and a busy core are tolerated. Returns when every index was processed.
 */
void oa_threadpool_parallel_for(oa_threadpool *pool, size_t range, size_t grain, oa_parallel_fn fn, void *ctx);

/*
 * n = min(n_tasks, size, the run scope's thread limit) calls fn(ctx, i, i, i + 1), one for each i in
 * [0, n). Each i is unique and < n, so it can index per-call scratch (the
 * conv/matmul kernels use it for their oneDNN scratchpads). Calls are spread
 * over the participants, but one thread may run several of them (the caller
 * runs a share that a slow-to-wake worker did not claim), so fn must not
 * wait for another call of the same batch.
 */
void oa_threadpool_run_n(oa_threadpool *pool, size_t n_tasks, oa_parallel_fn fn, void *ctx);

/*
 * The largest number of participants a parallel_for() / run_n() call on any pool was given (1: ran on its caller
 * alone) since the last reset; reset = true returns it and starts again from 0. For tests of the thread limits.
 */
size_t oa_threadpool_peak_participants(bool reset);

/*
 * The pool kernels may use while they are being created (the Winograd filter transforms of a conv at load,
 * docs/memory.md "Load time"): the owner of the process-wide pool registers it once (op_bind's pool); NULL, the
 * default, means the calling thread. Registering NULL again is how that owner withdraws it.
 */
void oa_threadpool_set_setup_pool(oa_threadpool *pool);
oa_threadpool *oa_threadpool_setup_pool(void);

#endif /* OA_KERNELS_THREADPOOL_H */

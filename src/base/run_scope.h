/*
 * The run scope: what the device work running on this thread (a stream task, or a model run on the calling
 * thread) asks of the kernels it calls. The runtime opens a scope around each task with the stream's saturation
 * mode and the operator execute timeout; the kernels (oa_kop_run) read it to
 *   - record floating-point overflow and, in saturation mode, saturate the results (docs/runtime.md,
 *     "Overflow status");
 *   - give each operator its deadline and stop it cooperatively when the deadline passes (docs/runtime.md,
 *     "Operator timeouts");
 *   - limit the threads each operator uses to the stream's or device's compute-resource limit (docs/runtime.md,
 *     "Compute-resource limits").
 * Outside any scope (kernel benchmarks, atc) the kernels run exactly as before: one thread-local load.
 */
#ifndef OA_BASE_RUN_SCOPE_H
#define OA_BASE_RUN_SCOPE_H

#include <fenv.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

/* The IEEE exception flags that mean "an infinity or a NaN was produced from finite operands". */
#define OA_FP_EXCEPTS (FE_OVERFLOW | FE_DIVBYZERO | FE_INVALID)

/*
 * Reading and clearing the flags on the hot path (once per operator run). The kernels compute with SSE/AVX, whose
 * flags live in MXCSR (bits 0, 2, 3 are FE_INVALID, FE_DIVBYZERO, FE_OVERFLOW on x86-64); glibc's fetestexcept /
 * feclearexcept also save and restore the x87 environment, which costs far more than the check itself.
 */
#if defined(__x86_64__)
static inline int oa_fp_excepts(void)
{
    unsigned int m;
    __asm__ volatile("stmxcsr %0" : "=m"(m));
    return (int)(m & (unsigned int)OA_FP_EXCEPTS);
}
static inline void oa_fp_clear(void)
{
    unsigned int m;
    __asm__ volatile("stmxcsr %0" : "=m"(m));
    if ((m & (unsigned int)OA_FP_EXCEPTS) != 0) { /* write MXCSR only when one of ours is set */
        m &= ~(unsigned int)OA_FP_EXCEPTS;
        __asm__ volatile("ldmxcsr %0" : : "m"(m));
    }
}
/* Sets flags (masked: nothing traps) where oa_fp_excepts sees them; glibc's feraiseexcept may set x87 flags. */
static inline void oa_fp_raise(int excepts)
{
    unsigned int m;
    __asm__ volatile("stmxcsr %0" : "=m"(m));
    m |= (unsigned int)excepts & (unsigned int)OA_FP_EXCEPTS;
    __asm__ volatile("ldmxcsr %0" : : "m"(m));
}
#else
static inline void oa_fp_raise(int excepts)
{
    feraiseexcept(excepts);
}
static inline int oa_fp_excepts(void)
{
    return fetestexcept(OA_FP_EXCEPTS);
}
static inline void oa_fp_clear(void)
{
    feclearexcept(OA_FP_EXCEPTS);
}
#endif

/*
 * Denormals (docs/precision.md "Denormals"): inside a run scope the kernels compute with MXCSR's flush-to-zero
 * (bit 15) and denormals-are-zero (bit 6) bits set, unless OPENACL_FLUSH_DENORMALS=0. A denormal operand costs
 * x86 cores a microcode assist per instruction: PP-OCR det's 5x5 depthwise conv fed by a layer of tiny values
 * ran 0.48 ms against 0.12 for its twins. The application's own mode is restored when the scope ends; the pool's
 * workers take the caller's mode with each task.
 */
#define OA_FP_MODE_FLUSH 0x8040u
#if defined(__x86_64__)
static inline unsigned oa_fp_mode(void)
{
    unsigned int m;
    __asm__ volatile("stmxcsr %0" : "=m"(m));
    return m & OA_FP_MODE_FLUSH;
}
static inline void oa_fp_set_mode(unsigned mode)
{
    unsigned int m;
    __asm__ volatile("stmxcsr %0" : "=m"(m));
    if ((m & OA_FP_MODE_FLUSH) != mode) {
        m = (m & ~OA_FP_MODE_FLUSH) | (mode & OA_FP_MODE_FLUSH);
        __asm__ volatile("ldmxcsr %0" : : "m"(m));
    }
}
#else
static inline unsigned oa_fp_mode(void)
{
    return 0;
}
static inline void oa_fp_set_mode(unsigned mode)
{
    (void)mode;
}
#endif

/* Whether run scopes flush denormals (OPENACL_FLUSH_DENORMALS, read once; default on). */
bool oa_fp_flush_denormals(void);

typedef struct oa_run_scope {
    bool active;
    bool saturate;          /* ACL_RT_OVERFLOW_MODE_SATURATION: Inf results become the largest finite value, NaN 0 */
    bool overflow;          /* set by the kernels: a result overflowed */
    uint64_t op_limit_ns;   /* aclrtSetOpExecuteTimeOut*: the limit of each operator, 0 none */
    uint64_t run_deadline;  /* the whole run's deadline (oa_now_ns clock), 0 none */
    uint64_t op_deadline;   /* the running operator's deadline, 0 none */
    uint32_t max_threads;   /* aclrtSet{Stream,Device}ResLimit: threads an operator may use, 0 unlimited */
    unsigned fp_mode_outer; /* the thread's denormal mode before the scope, restored at its end */
} oa_run_scope;

extern _Thread_local oa_run_scope oa_g_run_scope;

/* The scope of this thread, or NULL outside a scope. */
static inline oa_run_scope *oa_run_scope_current(void)
{
    return oa_g_run_scope.active ? &oa_g_run_scope : NULL;
}

/*
 * Opens a scope on this thread (the previous one is saved in *saved and restored by oa_run_scope_end), clears
 * the thread's floating-point exception flags and sets its denormal mode (above). op_limit_us: per operator, 0
 * none; run_deadline_ns: absolute, 0 none.
 */
void oa_run_scope_begin(oa_run_scope *saved, bool saturate, uint64_t op_limit_us, uint64_t run_deadline_ns);

/* Closes the scope and restores the thread's denormal mode; returns true when a kernel recorded an overflow in it
 * (also passed on to an enclosing scope). */
bool oa_run_scope_end(const oa_run_scope *saved);

/*
 * Limits the threads each operator of this scope may use (docs/runtime.md, "Compute-resource limits"); 0 leaves
 * it unlimited. A nested scope keeps the enclosing scope's limit when that one is smaller.
 */
static inline void oa_run_scope_set_max_threads(uint32_t n)
{
    if (oa_g_run_scope.active && n != 0 && (oa_g_run_scope.max_threads == 0 || n < oa_g_run_scope.max_threads)) {
        oa_g_run_scope.max_threads = n;
    }
}

/* The threads an operator may use now, 0 unlimited (the thread pool reads it for every parallel call). */
static inline uint32_t oa_run_max_threads(void)
{
    const oa_run_scope *s = oa_run_scope_current();
    return s != NULL ? s->max_threads : 0;
}

/*
 * The deadline that applies now (the earlier of the operator's and the run's), 0 none. Long loops compare it with
 * oa_now_ns() between pieces of work (oa_run_expired).
 */
static inline uint64_t oa_run_deadline(void)
{
    const oa_run_scope *s = oa_run_scope_current();
    if (s == NULL) {
        return 0;
    }
    uint64_t d = s->op_deadline;
    if (s->run_deadline != 0 && (d == 0 || s->run_deadline < d)) {
        d = s->run_deadline;
    }
    return d;
}

/* True when a deadline is set and has passed (a cooperative cancellation point). */
bool oa_run_expired(uint64_t deadline_ns);

#endif /* OA_BASE_RUN_SCOPE_H */

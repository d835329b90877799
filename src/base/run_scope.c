/* The run scope of this thread (run_scope.h). */
#include "base/run_scope.h"

#include "base/util.h"

#include <pthread.h>

_Thread_local oa_run_scope oa_g_run_scope;

static pthread_once_t g_flush_once = PTHREAD_ONCE_INIT;
static bool g_flush;

static void flush_once(void)
{
    g_flush = oa_env_long("OPENACL_FLUSH_DENORMALS", 1) != 0;
}

bool oa_fp_flush_denormals(void)
{
    pthread_once(&g_flush_once, flush_once);
    return g_flush;
}

void oa_run_scope_begin(oa_run_scope *saved, bool saturate, uint64_t op_limit_us, uint64_t run_deadline_ns)
{
    *saved = oa_g_run_scope;
    oa_run_scope s = {.active = true, .saturate = saturate, .overflow = false, .run_deadline = run_deadline_ns};
    s.op_limit_ns = op_limit_us > UINT64_MAX / 1000u ? UINT64_MAX / 2 : op_limit_us * 1000u;
    if (saved->active && saved->run_deadline != 0 && (s.run_deadline == 0 || saved->run_deadline < s.run_deadline)) {
        s.run_deadline = saved->run_deadline; /* a nested scope never outlives the enclosing one */
    }
    if (saved->active) {
        s.max_threads = saved->max_threads; /* nor uses more threads */
    }
    s.fp_mode_outer = oa_fp_mode();
    oa_g_run_scope = s;
    oa_fp_clear();
    oa_fp_set_mode(oa_fp_flush_denormals() ? OA_FP_MODE_FLUSH : s.fp_mode_outer);
}

bool oa_run_scope_end(const oa_run_scope *saved)
{
    const bool overflow = oa_g_run_scope.overflow;
    oa_fp_set_mode(oa_g_run_scope.fp_mode_outer);
    oa_g_run_scope = *saved;
    if (overflow && oa_g_run_scope.active) {
        oa_g_run_scope.overflow = true;
    }
    return overflow;
}

bool oa_run_expired(uint64_t deadline_ns)
{
    return deadline_ns != 0 && oa_now_ns() > deadline_ns;
}

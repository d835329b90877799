/*
 * Overflow, saturation and the execute timeout of one operator run inside a run scope (base/run_scope.h).
 *
 * Detection costs nothing per element: the CPU keeps IEEE exception flags (overflow, division by zero, invalid)
 * per thread, the thread pool hands its workers' flags to the caller (threadpool.c), and the Cast kernel raises
 * them itself for the conversions it saturates in software (cast.c). Only when a flag is set after the run are the
 * tensors looked at: the run overflowed when an output holds Inf or NaN although every floating-point input was
 * finite (an operator whose intermediate value overflows but whose result is finite did not overflow), or when a
 * Cast to an integer type met a value out of the type's range. In saturation mode the overflowed outputs are then
 * saturated as CANN documents: Inf becomes the largest finite value of the type (with its sign), NaN becomes 0.
 * docs/runtime.md, "Overflow status" and "Operator timeouts".
 */
#include <fenv.h>
#include <float.h>
#include <string.h>

#include "kernels/kernel_internal.h"

static bool is_float_dt(oa_kdtype t)
{
    return t == OA_KDT_F32 || t == OA_KDT_F64 || t == OA_KDT_F16 || t == OA_KDT_BF16;
}

/* Looks for Inf/NaN in n elements; with fix, replaces them by the saturated values. Returns whether any was found. */
static bool scan(oa_kdtype t, void *p, size_t n, bool fix)
{
    bool found = false;
    switch (t) {
    case OA_KDT_F32: {
        uint32_t *u = p;
        for (size_t i = 0; i < n; ++i) {
            if ((u[i] & 0x7f800000u) == 0x7f800000u) {
                found = true;
                if (fix) {
                    u[i] = (u[i] & 0x007fffffu) != 0 ? 0u : (u[i] & 0x80000000u) | 0x7f7fffffu;
                }
            }
        }
        break;
    }
    case OA_KDT_F64: {
        uint64_t *u = p;
        for (size_t i = 0; i < n; ++i) {
            if ((u[i] & 0x7ff0000000000000ull) == 0x7ff0000000000000ull) {
                found = true;
                if (fix) {
                    u[i] = (u[i] & 0x000fffffffffffffull) != 0 ? 0u
                                                               : (u[i] & 0x8000000000000000ull) | 0x7fefffffffffffffull;
                }
            }
        }
        break;
    }
    case OA_KDT_F16:
    case OA_KDT_BF16: {
        const uint16_t exp = t == OA_KDT_F16 ? 0x7c00u : 0x7f80u, man = t == OA_KDT_F16 ? 0x03ffu : 0x007fu;
        const uint16_t max = t == OA_KDT_F16 ? 0x7bffu : 0x7f7fu;
        uint16_t *u = p;
        for (size_t i = 0; i < n; ++i) {
            if ((u[i] & exp) == exp) {
                found = true;
                if (fix) {
                    u[i] = (uint16_t)((u[i] & man) != 0 ? 0u : (u[i] & 0x8000u) | max);
                }
            }
        }
        break;
    }
    default:
        break;
    }
    return found;
}

static size_t elems(const oa_ktensor *t)
{
    const size_t sz = oa_kdtype_size(t->dtype);
    return sz == 0 ? 0 : oa_ktensor_bytes(t) / sz;
}

static bool aliases_output(const oa_kop *op, const void *p, void *const *out)
{
    for (int k = 0; k < op->n_out; ++k) {
        if (out[k] == p) {
            return true;
        }
    }
    return false;
}

/* The flags are set: did the run overflow? Saturates the outputs in saturation mode. */
static bool check_run(const oa_kop *op, const void *const *in, void *const *out, int raised, bool saturate)
{
    if (op->type == OA_KOP_CAST && (raised & FE_INVALID) != 0 && !is_float_dt(op->out[0].dtype)) {
        return true; /* a value out of the integer type's range (saturated by the kernel) */
    }
    for (int i = 0; i < op->n_in; ++i) {
        /* an input the operator overwrote in place no longer shows what it was: it is taken as finite */
        if (in[i] != NULL && is_float_dt(op->in[i].dtype) && !aliases_output(op, in[i], out) &&
            scan(op->in[i].dtype, (void *)(uintptr_t)in[i], elems(&op->in[i]), false)) {
            return false; /* Inf/NaN came in: nothing overflowed here */
        }
    }
    bool overflow = false;
    for (int k = 0; k < op->n_out; ++k) {
        if (out[k] != NULL && is_float_dt(op->out[k].dtype) &&
            scan(op->out[k].dtype, out[k], elems(&op->out[k]), saturate)) {
            overflow = true;
        }
    }
    return overflow;
}

oa_status oa_kop_run_scoped(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool,
                            oa_run_scope *sc, const char *name)
{
    const uint64_t outer = sc->op_deadline;
    if (sc->op_limit_ns != 0) {
        sc->op_deadline = oa_now_ns() + sc->op_limit_ns;
    }
    if (oa_run_expired(sc->run_deadline)) {
        return OA_FAIL(OA_E_RT_STREAM_SYNC_TIMEOUT, "%s not started: the run's timeout has passed", name);
    }
    /* the flags are clear here: the scope began clear and every check below clears what it found (reading MXCSR
     * waits for the pending vector instructions, so it is read once per operator, after it) */
    oa_status st = op->fam->run(op, in, out, ws, pool);
    const int raised = oa_fp_excepts();
    if (raised != 0) {
        oa_fp_clear();
        if (st == OA_OK && check_run(op, in, out, raised, sc->saturate)) {
            sc->overflow = true;
        }
    }
    if (st == OA_OK && sc->op_deadline != 0 && oa_run_expired(sc->op_deadline) && sc->op_limit_ns != 0) {
        st = OA_FAIL(OA_E_RT_AICORE_TIMEOUT, "operator %s ran longer than the execute timeout of %llu us "
                     "(aclrtSetOpExecuteTimeOut*) and was stopped", name,
                     (unsigned long long)(sc->op_limit_ns / 1000u));
    } else if (st == OA_OK && oa_run_expired(sc->run_deadline)) {
        st = OA_FAIL(OA_E_RT_STREAM_SYNC_TIMEOUT, "operator %s was stopped: the run's timeout has passed", name);
    }
    sc->op_deadline = outer;
    return st;
}

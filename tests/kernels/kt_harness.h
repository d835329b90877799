/*
 * Kernel conformance harness (G12): buffers with guard bytes, seeded random
 * fills, running an op through the full lifecycle at 1 and 2 threads with a
 * guarded workspace, NCHW <-> NCHWc conversion written independently of the
 * library, and tolerance checks against double-precision references.
 */
#ifndef OA_TESTS_KT_HARNESS_H
#define OA_TESTS_KT_HARNESS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "kernels/kernels.h"

#define KT_GUARD 64

/* A tensor with data surrounded by KT_GUARD guard bytes on each side. */
typedef struct kt_buf {
    oa_ktensor d;
    void *data;
    size_t bytes;
    unsigned char *raw;
} kt_buf;

/* Descriptor helper: kt_desc(OA_KDT_F32, 4, (int64_t[]){1,3,8,8}). */
oa_ktensor kt_desc(oa_kdtype dt, int rank, const int64_t *dims);
#define KT_DIMS(...) ((const int64_t[]){__VA_ARGS__})
#define KT_RANK(...) ((int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
#define KT_D(dt, ...) kt_desc((dt), KT_RANK(__VA_ARGS__), KT_DIMS(__VA_ARGS__))

kt_buf kt_alloc(oa_ktensor d);
void kt_free(kt_buf *b);
/* Checks the guard bytes (fails the test with `what` on corruption). */
void kt_check_guards(const kt_buf *b, const char *what);

/* Seeded fills (deterministic xorshift64*): uniform in [lo, hi) for floats,
 * integers in [lo, hi] for integer dtypes, random 0/1 for bool. */
void kt_fill(kt_buf *b, uint64_t seed, double lo, double hi);
uint64_t kt_rand_u64(uint64_t *state);
double kt_rand_uniform(uint64_t *state, double lo, double hi);

/* Element i of a plain buffer as double / stores a double. */
double kt_get(const kt_buf *b, int64_t i);
void kt_set(kt_buf *b, int64_t i, double v);
/* Copies a plain f32 buffer into a double array (caller frees). */
double *kt_to_double(const kt_buf *b);

/* NCHW <-> NCHWc (block from oa_kernels_block()), harness-side implementation. */
kt_buf kt_blocked_from_plain(const kt_buf *plain);
kt_buf kt_plain_from_blocked(const kt_buf *blk);

/* Host tensor holding int64 values, e.g. kt_host_i64(3, (int64_t[]){...}) as 1-D i64. */
kt_buf kt_host_i64(int n, const int64_t *vals);
kt_buf kt_host_i32(int n, const int64_t *vals);
kt_buf kt_scalar_f32(float v);

/*
 * Runs op `type` with inputs in[] (their descs; bufs whose desc.data is set
 * are passed as constant/host at create, see `host_mask`) and outputs out[]
 * (allocated by the caller with the expected descs). nthreads: 1 or 2.
 * host_mask bit i: input i's data is given at create (desc.data = buf data);
 * at run it is passed too, unless the op says it no longer reads it
 * (oa_kop_reads_input_at_run): then run gets bytes of all ones instead.
 * Returns the status of create or run; on success outputs hold results and
 * guards of outputs and workspace are checked.
 */
/* Runs an operator the test created itself (it keeps it across runs) with a guarded workspace: in[] and out[] as
 * oa_kop_run takes them. Returns the status of the run; fails the test when the workspace guards are overwritten. */
oa_status kt_run_op(const oa_kop *op, const void *const *in, void *const *out, int nthreads);

/* Implementation name of the op kt_run created last ("onednn", "ref", ...). */
extern const char *kt_last_impl;
oa_status kt_run(oa_kop_type type, const void *params, int n_in, kt_buf *const *in, unsigned host_mask, int n_out,
                 kt_buf *const *out, int nthreads);

/* Compares n values of out (plain) with ref: |y - r| <= atol + rtol * |r|. NaNs must match. */
void kt_expect_close(const kt_buf *out, const double *ref, double atol, double rtol, const char *label);
/* Exact comparison (integers, bools, data movement). */
void kt_expect_equal(const kt_buf *out, const double *ref, const char *label);

/* "[1,3,8,8]" into buf. */
const char *kt_dims_str(const oa_ktensor *t, char *buf, size_t cap);

/* The shared 2-thread pool (created on first use). */
oa_threadpool *kt_pool(int nthreads);

/* Label builder (static buffer rotated among 8 slots). */
const char *kt_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Expects a failure status with a recorded message; clears the message. */
void kt_expect_fail(oa_status st, oa_status expected, const char *label);

#endif /* OA_TESTS_KT_HARNESS_H */

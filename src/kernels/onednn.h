/*
 * Thin helpers around oneDNN 2.6 (C API) shared by conv.c and matmul.c.
 *
 * Threading contract: every oneDNN call made by the kernels goes through
 * oa_dnnl_enter()/oa_dnnl_leave(), which pin the calling thread's OpenMP
 * thread count to 1 (and restore it), so oneDNN never starts OpenMP
 * threads; parallelism comes from oa_threadpool participants each running
 * their own slice. Primitives are created with the user scratchpad mode and
 * the scratchpad is carved from the op's workspace.
 */
#ifndef OA_KERNELS_ONEDNN_H
#define OA_KERNELS_ONEDNN_H

#include <dnnl.h>
#include <stdatomic.h>

#include "kernels/kernel_internal.h"

/* The process-wide CPU engine (created once); NULL if oneDNN is unusable. */
dnnl_engine_t oa_dnnl_engine(void);
/* The calling thread's stream (created on first use per thread). */
dnnl_stream_t oa_dnnl_stream(void);
/* false when OA_KERNELS_ONEDNN=0 or the engine could not be created. */
bool oa_dnnl_enabled(void);
/* Between push and pop, oa_dnnl_enabled() is false on this thread: an operator created there takes our kernels
 * or the reference, never a oneDNN primitive (conv_nchw.c probes for its inner NCHWc operator so, without
 * building and JIT-compiling primitives it would throw away). Nests. */
void oa_dnnl_off_push(void);
void oa_dnnl_off_pop(void);

/* Pins the OpenMP thread count of the calling thread to 1; returns the previous value. */
int oa_dnnl_enter(void);
void oa_dnnl_leave(int saved);

/* Primitive attr with user scratchpad and the oneDNN-expressible prefix of
 * `post` (returns how many post-ops were taken in *n_taken; OA_KPOST_ADD is
 * taken as a sum post-op only when allow_sum). NULL on failure. */
dnnl_primitive_attr_t oa_dnnl_attr(const oa_kpost_chain *post, bool allow_sum, int *n_taken);

/*
 * What a memory desc says about its bytes' layout, as numbers (dims, padding, data type, the blocking, the extra
 * flags): a key part of a packed array (oa_kderived_get's form); two descs of the same layout give the same
 * numbers. Returns how many were written, 0 when the layout is not a plain blocked one or cap is too small.
 */
size_t oa_dnnl_md_form(const dnnl_memory_desc_t *md, int64_t *out, size_t cap);

/* Reorders src (md + data) into dst (md + data) synchronously on the calling thread. */
oa_status oa_dnnl_reorder(const dnnl_memory_desc_t *src_md, const void *src, const dnnl_memory_desc_t *dst_md,
                          void *dst);

/* A reorder into an array made later (oa_kderived_get's fill: oa_dnnl_reorder_fill(job, array)). */
typedef struct oa_dnnl_reorder_job {
    const dnnl_memory_desc_t *src_md;
    const void *src;
    const dnnl_memory_desc_t *dst_md;
} oa_dnnl_reorder_job;
oa_status oa_dnnl_reorder_fill(void *job, void *array);

/*
 * The memory objects of one primitive's arguments, kept from one run to the next: creating and destroying one
 * costs two aligned allocations (about 130 ns; PP-OCR's cls makes some 200 per run), changing its data pointer
 * about 5. A run that finds them in use (a concurrent run of the same op) makes its own. Zeroed = empty.
 */
typedef struct oa_dnnl_args {
    _Atomic int busy;
    int n;
    dnnl_memory_t mem[8]; /* each with the descriptor it was made for */
} oa_dnnl_args;

/*
 * oneDNN's jit gemm (the "gemm:jit" matmul and conv implementations) generates its kernels the
 * first time it runs in the process, about 20 ms, which would land on the first execution of a
 * model; called when such a primitive is created (at load), it runs a 2x2 sgemm once per process
 * so that the kernels exist before the first execution (bench/RESULTS.md, first runs).
 */
void oa_dnnl_prime_gemm(const dnnl_primitive_desc_t pd);

/* oa_dnnl_exec through a's memory objects (made or remade when an argument's descriptor differs). */
oa_status oa_dnnl_exec_kept(oa_dnnl_args *a, dnnl_primitive_t prim, int n, const int *arg_kind,
                            const dnnl_memory_desc_t *const *mds, void *const *ptrs);

/* Destroys a's memory objects (a no longer in use); a is empty again. */
void oa_dnnl_args_release(oa_dnnl_args *a);

/* Executes prim with n args (memory objects are created around the call). */
oa_status oa_dnnl_exec(dnnl_primitive_t prim, int n, const int *arg_kind, const dnnl_memory_desc_t *const *mds,
                       void *const *ptrs);

/* Number of slices convolution/matmul create per op: the expected pool size
 * (OA_KERNELS_SLICES, else OPENACL_NUM_THREADS, else the online cores). */
int oa_kernels_slices(void);
/* Below this many FLOPs a conv/matmul is not split across threads
 * (OA_KERNELS_SPLIT_FLOPS, default 1e6; tests set 0 to split everything). */
double oa_kernels_split_flops(void);

#endif /* OA_KERNELS_ONEDNN_H */

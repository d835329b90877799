/*
 * oneDNN plumbing: engine, per-thread streams, OpenMP pinning, post-op
 * translation, reorders and execution with transient memory objects.
 */
#include "kernels/onednn.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* libgomp: the per-thread nthreads ICV (libdnnl links libgomp already). */
extern int omp_get_max_threads(void);
extern void omp_set_num_threads(int n);

static dnnl_engine_t g_engine;
static bool g_enabled;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static pthread_key_t g_stream_key;

static void stream_free(void *p)
{
    dnnl_stream_destroy((dnnl_stream_t)p);
}

static void init_once(void)
{
    const char *env = getenv("OA_KERNELS_ONEDNN");
    if (env != NULL && env[0] == '0') {
        return;
    }
    if (pthread_key_create(&g_stream_key, stream_free) != 0) {
        return;
    }
    int saved = oa_dnnl_enter();
    if (dnnl_engine_create(&g_engine, dnnl_cpu, 0) == dnnl_success) {
        g_enabled = true;
    }
    oa_dnnl_leave(saved);
}

dnnl_engine_t oa_dnnl_engine(void)
{
    pthread_once(&g_once, init_once);
    return g_engine;
}

static _Thread_local int t_off; /* oa_dnnl_off_push depth on this thread */

bool oa_dnnl_enabled(void)
{
    pthread_once(&g_once, init_once);
    return g_enabled && t_off == 0;
}

void oa_dnnl_off_push(void)
{
    t_off++;
}

void oa_dnnl_off_pop(void)
{
    t_off--;
}

dnnl_stream_t oa_dnnl_stream(void)
{
    if (!oa_dnnl_enabled()) {
        return NULL;
    }
    dnnl_stream_t s = pthread_getspecific(g_stream_key);
    if (s == NULL) {
        if (dnnl_stream_create(&s, g_engine, dnnl_stream_default_flags) != dnnl_success) {
            return NULL;
        }
        pthread_setspecific(g_stream_key, s);
    }
    return s;
}

int oa_dnnl_enter(void)
{
    int saved = omp_get_max_threads();
    if (saved != 1) {
        omp_set_num_threads(1);
    }
    return saved;
}

void oa_dnnl_leave(int saved)
{
    if (saved != 1) {
        omp_set_num_threads(saved);
    }
}

static int g_slices;
static pthread_once_t g_slices_once = PTHREAD_ONCE_INIT;

static void slices_once(void)
{
    long v = oa_env_long("OA_KERNELS_SLICES", 0);
    if (v <= 0) {
        /* the pool's size (op_pool.c reads the same variable): slices beyond
         * it run one after another, each re-reading x with a narrower
         * primitive (det at 1 thread: ~20 % slower with 2 slices) */
        long cores = sysconf(_SC_NPROCESSORS_ONLN), t = oa_env_long("OPENACL_NUM_THREADS", 0);
        v = t >= 1 && t <= 64 ? t : cores;
    }
    g_slices = (int)(v < 1 ? 1 : (v > 64 ? 64 : v));
}

int oa_kernels_slices(void)
{
    pthread_once(&g_slices_once, slices_once);
    return g_slices;
}

static double g_split_flops;
static pthread_once_t g_split_once = PTHREAD_ONCE_INIT;

static void split_once(void)
{
    long v = oa_env_long("OA_KERNELS_SPLIT_FLOPS", -1);
    g_split_flops = v >= 0 ? (double)v : 1e6;
}

double oa_kernels_split_flops(void)
{
    pthread_once(&g_split_once, split_once);
    return g_split_flops;
}

static bool append_act(dnnl_post_ops_t po, oa_kact act, float a, float b)
{
    switch (act) {
    case OA_KACT_NONE: return true;
    case OA_KACT_RELU: return dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_relu, 0.0f, 0.0f) == dnnl_success;
    case OA_KACT_LEAKY_RELU: return dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_relu, a, 0.0f) == dnnl_success;
    case OA_KACT_CLIP: return dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_clip, a, b) == dnnl_success;
    case OA_KACT_HARDSIGMOID:
        return dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_linear, a, b) == dnnl_success &&
               dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_clip, 0.0f, 1.0f) == dnnl_success;
    case OA_KACT_HARDSWISH:
        return dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_hardswish, 0.0f, 0.0f) == dnnl_success;
    case OA_KACT_MUL_HARDSIGMOID:
        if (fabsf(a - 1.0f / 6.0f) < 1e-6f && fabsf(b - 0.5f) < 1e-6f) {
            return dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_hardswish, 0.0f, 0.0f) == dnnl_success;
        }
        return false;
    case OA_KACT_SIGMOID: return dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_logistic, 0.0f, 0.0f) == dnnl_success;
    case OA_KACT_TANH: return dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_tanh, 0.0f, 0.0f) == dnnl_success;
    case OA_KACT_GELU_ERF: return dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_gelu_erf, 0.0f, 0.0f) == dnnl_success;
    case OA_KACT_SWISH: return dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_swish, a, 0.0f) == dnnl_success;
    case OA_KACT_LINEAR: return dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_linear, a, b) == dnnl_success;
    default: return false;
    }
}

/* The oneDNN eltwise algorithms append_act uses for act, one bit each. */
static unsigned act_algs(oa_kact act)
{
    enum { RELU = 1, CLIP = 2, LINEAR = 4, HSWISH = 8, LOGISTIC = 16, TANH = 32, GELU = 64, SWISH = 128 };
    switch (act) {
    case OA_KACT_RELU:
    case OA_KACT_LEAKY_RELU: return RELU;
    case OA_KACT_CLIP: return CLIP;
    case OA_KACT_HARDSIGMOID: return LINEAR | CLIP;
    case OA_KACT_LINEAR: return LINEAR;
    case OA_KACT_HARDSWISH:
    case OA_KACT_MUL_HARDSIGMOID: return HSWISH;
    case OA_KACT_SIGMOID: return LOGISTIC;
    case OA_KACT_TANH: return TANH;
    case OA_KACT_GELU_ERF: return GELU;
    case OA_KACT_SWISH: return SWISH;
    default: return 0;
    }
}

static bool act_mappable(oa_kact act, float a, float b)
{
    if (act == OA_KACT_MUL_HARDSIGMOID) {
        return fabsf(a - 1.0f / 6.0f) < 1e-6f && fabsf(b - 0.5f) < 1e-6f;
    }
    return act < OA_KACT_COUNT;
}

dnnl_primitive_attr_t oa_dnnl_attr(const oa_kpost_chain *post, bool allow_sum, int *n_taken)
{
    dnnl_primitive_attr_t attr = NULL;
    dnnl_post_ops_t po = NULL;
    *n_taken = 0;
    if (dnnl_primitive_attr_create(&attr) != dnnl_success) {
        return NULL;
    }
    if (dnnl_primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user) != dnnl_success ||
        dnnl_post_ops_create(&po) != dnnl_success) {
        dnnl_primitive_attr_destroy(attr);
        return NULL;
    }
    int taken = 0;
    bool had_sum = false;
    unsigned used = 0; /* the eltwise algorithms appended (act_algs) */
    for (int i = 0; post != NULL && i < post->n; i++) {
        const oa_kpost *p = &post->ops[i];
        if (p->kind == OA_KPOST_ADD) {
            if (!allow_sum || had_sum || dnnl_post_ops_append_sum(po, 1.0f) != dnnl_success) {
                break;
            }
            had_sum = true;
        } else {
            /* oneDNN 2.6's JIT convs compute a second eltwise post-op of an algorithm with the
             * first one's alpha/beta (measured: linear(2,0), linear(1,1) gives 4x; leaky ReLU 0.2
             * then ReLU leaves the negatives at 0.2x): at most one of each algorithm per
             * primitive, our epilogue does the rest */
            const unsigned algs = act_algs(p->act);
            if ((algs & used) != 0 || !act_mappable(p->act, p->alpha, p->beta) ||
                !append_act(po, p->act, p->alpha, p->beta)) {
                break;
            }
            used |= algs;
        }
        taken++;
    }
    if (dnnl_primitive_attr_set_post_ops(attr, po) != dnnl_success) {
        dnnl_post_ops_destroy(po);
        dnnl_primitive_attr_destroy(attr);
        return NULL;
    }
    dnnl_post_ops_destroy(po);
    *n_taken = taken;
    return attr;
}

oa_status oa_dnnl_exec(dnnl_primitive_t prim, int n, const int *arg_kind, const dnnl_memory_desc_t *const *mds,
                       void *const *ptrs)
{
    dnnl_memory_t mem[8] = {0};
    dnnl_exec_arg_t args[8];
    oa_status st = OA_OK;
    dnnl_stream_t stream = oa_dnnl_stream();
    if (stream == NULL || n > 8) {
        return OA_FAIL(OA_E_INTERNAL, "oneDNN stream unavailable");
    }
    int i = 0;
    for (; i < n; i++) {
        if (dnnl_memory_create(&mem[i], mds[i], oa_dnnl_engine(), ptrs[i]) != dnnl_success) {
            st = OA_FAIL(OA_E_NOMEM, "oneDNN memory object");
            break;
        }
        args[i].arg = arg_kind[i];
        args[i].memory = mem[i];
    }
    if (st == OA_OK) {
        dnnl_status_t ds = dnnl_primitive_execute(prim, stream, n, args);
        if (ds != dnnl_success) {
            st = OA_FAIL(OA_E_INTERNAL, "oneDNN execute failed (%d)", (int)ds);
        }
    }
    for (int j = 0; j < i; j++) {
        dnnl_memory_destroy(mem[j]);
    }
    return st;
}

void oa_dnnl_prime_gemm(const dnnl_primitive_desc_t pd)
{
    static atomic_int primed;
    const char *impl = NULL;
    if (atomic_load(&primed) || dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl) != dnnl_success ||
        impl == NULL || strncmp(impl, "gemm:jit", 8) != 0 || atomic_exchange(&primed, 1) != 0) {
        return;
    }
    float a[4] = {0}, b[4] = {0}, c[4] = {0};
    (void)dnnl_sgemm('N', 'N', 2, 2, 2, 1.0f, a, 2, b, 2, 0.0f, c, 2);
}

oa_status oa_dnnl_exec_kept(oa_dnnl_args *a, dnnl_primitive_t prim, int n, const int *arg_kind,
                            const dnnl_memory_desc_t *const *mds, void *const *ptrs)
{
    dnnl_stream_t stream = oa_dnnl_stream();
    if (n > 8 || atomic_exchange(&a->busy, 1) != 0) {
        return oa_dnnl_exec(prim, n, arg_kind, mds, ptrs);
    }
    oa_status st = stream == NULL ? OA_FAIL(OA_E_INTERNAL, "oneDNN stream unavailable") : OA_OK;
    dnnl_exec_arg_t args[8];
    for (int i = 0; i < n && st == OA_OK; i++) {
        const dnnl_memory_desc_t *made = NULL;
        if (i < a->n && a->mem[i] != NULL && dnnl_memory_get_memory_desc(a->mem[i], &made) == dnnl_success &&
            dnnl_memory_desc_equal(made, mds[i])) {
            if (dnnl_memory_set_data_handle(a->mem[i], ptrs[i]) != dnnl_success) {
                st = OA_FAIL(OA_E_INTERNAL, "oneDNN memory object");
            }
        } else {
            if (i < a->n && a->mem[i] != NULL) {
                dnnl_memory_destroy(a->mem[i]);
            }
            a->mem[i] = NULL;
            a->n = a->n > i + 1 ? a->n : i + 1;
            if (dnnl_memory_create(&a->mem[i], mds[i], oa_dnnl_engine(), ptrs[i]) != dnnl_success) {
                a->mem[i] = NULL;
                st = OA_FAIL(OA_E_NOMEM, "oneDNN memory object");
            }
        }
        args[i].arg = arg_kind[i];
        args[i].memory = a->mem[i];
    }
    if (st == OA_OK) {
        const dnnl_status_t ds = dnnl_primitive_execute(prim, stream, n, args);
        if (ds != dnnl_success) {
            st = OA_FAIL(OA_E_INTERNAL, "oneDNN execute failed (%d)", (int)ds);
        }
    }
    atomic_store(&a->busy, 0);
    return st;
}

void oa_dnnl_args_release(oa_dnnl_args *a)
{
    for (int i = 0; i < a->n && i < 8; i++) {
        if (a->mem[i] != NULL) {
            dnnl_memory_destroy(a->mem[i]);
        }
    }
    memset(a, 0, sizeof(*a));
}

oa_status oa_dnnl_reorder_fill(void *job, void *array)
{
    const oa_dnnl_reorder_job *j = job;
    return oa_dnnl_reorder(j->src_md, j->src, j->dst_md, array);
}

size_t oa_dnnl_md_form(const dnnl_memory_desc_t *md, int64_t *out, size_t cap)
{
    const int nd = md->ndims;
    const dnnl_blocking_desc_t *b = &md->format_desc.blocking;
    if (md->format_kind != dnnl_blocked || nd < 0 || nd > DNNL_MAX_NDIMS || b->inner_nblks < 0 ||
        b->inner_nblks > DNNL_MAX_NDIMS || (size_t)(9 + 4 * nd + 2 * b->inner_nblks) > cap) {
        return 0;
    }
    size_t n = 0;
    out[n++] = nd;
    out[n++] = (int64_t)md->data_type;
    out[n++] = md->offset0;
    for (int d = 0; d < nd; d++) {
        out[n++] = md->dims[d];
        out[n++] = md->padded_dims[d];
        out[n++] = md->padded_offsets[d];
        out[n++] = b->strides[d];
    }
    out[n++] = b->inner_nblks;
    for (int k = 0; k < b->inner_nblks; k++) {
        out[n++] = b->inner_blks[k];
        out[n++] = b->inner_idxs[k];
    }
    int32_t scale_bits;
    memcpy(&scale_bits, &md->extra.scale_adjust, sizeof scale_bits);
    out[n++] = (int64_t)md->extra.flags;
    out[n++] = md->extra.compensation_mask;
    out[n++] = md->extra.asymm_compensation_mask;
    out[n++] = scale_bits;
    return n;
}

oa_status oa_dnnl_reorder(const dnnl_memory_desc_t *src_md, const void *src, const dnnl_memory_desc_t *dst_md,
                          void *dst)
{
    dnnl_primitive_desc_t pd = NULL;
    dnnl_primitive_t prim = NULL;
    oa_status st = OA_OK;
    int saved = oa_dnnl_enter();
    dnnl_engine_t eng = oa_dnnl_engine();
    if (dnnl_reorder_primitive_desc_create(&pd, src_md, eng, dst_md, eng, NULL) != dnnl_success ||
        dnnl_primitive_create(&prim, pd) != dnnl_success) {
        st = OA_FAIL(OA_E_INTERNAL, "oneDNN reorder creation failed");
    } else {
        const dnnl_memory_desc_t *mds[2] = {src_md, dst_md};
        void *ptrs[2] = {(void *)(uintptr_t)src, dst};
        int kinds[2] = {DNNL_ARG_FROM, DNNL_ARG_TO};
        st = oa_dnnl_exec(prim, 2, kinds, mds, ptrs);
        dnnl_stream_wait(oa_dnnl_stream());
    }
    dnnl_primitive_destroy(prim);
    dnnl_primitive_desc_destroy(pd);
    oa_dnnl_leave(saved);
    return st;
}

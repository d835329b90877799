/*
 * Steady-state aclmdlExecute / aclmdlExecuteAsync allocate nothing.
 *
 * The program replaces malloc & co with counting wrappers over glibc's
 * __libc_* functions (symbol interposition: libascendcl, oneDNN and
 * libstdc++ all call these), warms a loaded model up, then counts the
 * allocations of 20 executions on every thread of the process (the caller,
 * the intra-op pool, the stream workers).
 *
 *   test_v1_noalloc DIR [--conv-zero]
 *
 * ew.om (kernels of our own): 0 allocations, synchronous and asynchronous.
 * conv.om (oneDNN convolution): oneDNN 2.6 builds an argument map and
 * memory objects inside every primitive execution (kernels.h, "oneDNN");
 * the count per run is printed and must be constant. With --conv-zero (run
 * with OA_KERNELS_ONEDNN=0, our reference convolution) it must be 0 too.
 */
#define _GNU_SOURCE
#include <execinfo.h>
#include <malloc.h>
#include <stdlib.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "acl/acl.h"

/* ---- the counting allocator ---- */

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t align, size_t size);
extern void __libc_free(void *p);

static atomic_int g_counting;
static atomic_long g_count;
static atomic_int g_traced;

static void note(void)
{
    if (atomic_load_explicit(&g_counting, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&g_count, 1, memory_order_relaxed);
        if (atomic_exchange(&g_traced, 1) == 0) {
            /* the first one, for the log (backtrace was warmed up before counting) */
            void *frames[24];
            const int n = backtrace(frames, 24);
            static const char msg[] = "first counted allocation:\n";
            (void)!write(2, msg, sizeof msg - 1);
            backtrace_symbols_fd(frames, n, 2);
        }
    }
}

void *malloc(size_t size)
{
    note();
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
    note();
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
    note();
    return __libc_realloc(p, size);
}

void *memalign(size_t align, size_t size)
{
    note();
    return __libc_memalign(align, size);
}

void *aligned_alloc(size_t align, size_t size)
{
    note();
    return __libc_memalign(align, size);
}

int posix_memalign(void **out, size_t align, size_t size)
{
    note();
    void *p = __libc_memalign(align, size);
    if (p == NULL) {
        return 12; /* ENOMEM */
    }
    *out = p;
    return 0;
}

void free(void *p)
{
    __libc_free(p);
}

/* ---- the test ---- */

static const char *g_dir;
static int g_conv_zero;

static const char *path(const char *name)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s/%s", g_dir, name);
    return buf;
}

#define OK_ACL(expr) assert_int_equal((expr), ACL_SUCCESS)

typedef struct io {
    aclmdlDataset *in, *out;
    void *bufs[4];
    int n;
} io;

static void make_io(uint32_t id, io *x)
{
    aclmdlDesc *d = aclmdlCreateDesc();
    OK_ACL(aclmdlGetDesc(d, id));
    x->in = aclmdlCreateDataset();
    x->out = aclmdlCreateDataset();
    x->n = 0;
    for (int side = 0; side < 2; side++) {
        const size_t cnt = side ? aclmdlGetNumOutputs(d) : aclmdlGetNumInputs(d);
        for (size_t i = 0; i < cnt; i++) {
            const size_t size = side ? aclmdlGetOutputSizeByIndex(d, i) : aclmdlGetInputSizeByIndex(d, i);
            void *p = NULL;
            OK_ACL(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST));
            OK_ACL(aclrtMemset(p, size, 1, size));
            x->bufs[x->n++] = p;
            OK_ACL(aclmdlAddDatasetBuffer(side ? x->out : x->in, aclCreateDataBuffer(p, size)));
        }
    }
    aclmdlDestroyDesc(d);
}

static void free_io(io *x)
{
    for (int side = 0; side < 2; side++) {
        aclmdlDataset *ds = side ? x->out : x->in;
        for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(ds); i++) {
            OK_ACL(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds, i)));
        }
        OK_ACL(aclmdlDestroyDataset(ds));
    }
    for (int i = 0; i < x->n; i++) {
        OK_ACL(aclrtFree(x->bufs[i]));
    }
}

/* Allocations of `runs` executions after `warm` ones. */
static long count_runs(uint32_t id, io *x, aclrtStream s, int warm, int runs)
{
    for (int i = 0; i < warm; i++) {
        if (s != NULL) {
            OK_ACL(aclmdlExecuteAsync(id, x->in, x->out, s));
            OK_ACL(aclrtSynchronizeStream(s));
        } else {
            OK_ACL(aclmdlExecute(id, x->in, x->out));
        }
    }
    atomic_store(&g_count, 0);
    atomic_store(&g_traced, 0);
    atomic_store(&g_counting, 1);
    for (int i = 0; i < runs; i++) {
        aclError r;
        if (s != NULL) {
            r = aclmdlExecuteAsync(id, x->in, x->out, s);
            if (r == ACL_SUCCESS) {
                r = aclrtSynchronizeStream(s);
            }
        } else {
            r = aclmdlExecute(id, x->in, x->out);
        }
        if (r != ACL_SUCCESS) {
            atomic_store(&g_counting, 0);
            fail_msg("execution failed: %d", r);
        }
    }
    atomic_store(&g_counting, 0);
    return atomic_load(&g_count);
}

static void sync_and_async_ew(void **state)
{
    (void)state;
    uint32_t id = 0;
    OK_ACL(aclmdlLoadFromFile(path("ew.om"), &id));
    io x;
    make_io(id, &x);
    const long n = count_runs(id, &x, NULL, 3, 20);
    printf("ew.om, aclmdlExecute: %ld allocations in 20 runs\n", n);
    assert_int_equal(n, 0);
    OK_ACL(aclmdlUnload(id));
    OK_ACL(aclmdlLoadFromFile(path("ew.om"), &id));
    aclrtStream s;
    OK_ACL(aclrtCreateStream(&s));
    const long na = count_runs(id, &x, s, 3, 20);
    printf("ew.om, aclmdlExecuteAsync + aclrtSynchronizeStream: %ld allocations in 20 runs\n", na);
    assert_int_equal(na, 0);
    OK_ACL(aclmdlUnload(id));
    OK_ACL(aclrtDestroyStream(s));
    free_io(&x);
}

static void conv_oneDNN(void **state)
{
    (void)state;
    uint32_t id = 0;
    OK_ACL(aclmdlLoadFromFile(path("conv.om"), &id));
    io x;
    make_io(id, &x);
    const long a = count_runs(id, &x, NULL, 3, 10);
    const long b = count_runs(id, &x, NULL, 0, 10);
    printf("conv.om, aclmdlExecute: %ld then %ld allocations in 10 runs (%s)\n", a, b,
           g_conv_zero ? "reference convolution" : "oneDNN primitive executions");
    if (g_conv_zero) {
        assert_int_equal(a, 0);
    }
    assert_int_equal(a, b); /* constant per run: nothing accumulates */
    OK_ACL(aclmdlUnload(id));
    free_io(&x);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_v1_noalloc DIR [--conv-zero]\n");
        return 2;
    }
    g_dir = argv[1];
    g_conv_zero = argc > 2 && strcmp(argv[2], "--conv-zero") == 0;
    void *warm[4];
    (void)backtrace(warm, 4);
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sync_and_async_ew),
        cmocka_unit_test(conv_oneDNN),
    };
    const int rc = cmocka_run_group_tests(tests, NULL, NULL);
    (void)aclrtResetDevice(0);
    (void)aclFinalize();
    return rc;
}

/* base/pages: anonymous pages (zeroed, resident only once written or populated, given back on free); file
 * mappings asked to stay in small pages; arrays for packed weights in huge pages. */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/pages.h"
#include "base/sanitizer.h"

/* Resident pages of [p, p + n) by mincore (the kernel's own answer, not our bookkeeping). */
static size_t resident(void *p, size_t n)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE), np = (n + page - 1) / page;
    unsigned char v[64];
    assert_true(np <= sizeof v);
    assert_int_equal(mincore(p, n, v), 0);
    size_t r = 0;
    for (size_t i = 0; i < np; i++) {
        r += v[i] & 1u;
    }
    return r;
}

static void anon_pages_populate_on_request(void **state)
{
    (void)state;
    const size_t page = (size_t)sysconf(_SC_PAGESIZE), n = 16 * page;
    unsigned char *p = oa_pages_anon(n);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % page, 0);
    assert_int_equal(resident(p, n), 0); /* nothing touched yet */
    oa_pages_populate_write(p, n);
    assert_int_equal(resident(p, n), 16);
    for (size_t i = 0; i < n; i++) {
        if (p[i] != 0) {
            fail_msg("byte %zu is %u after populate", i, p[i]);
        }
    }
    p[n - 1] = 7; /* writable */
    oa_pages_anon_free(p, n);
    oa_pages_anon_free(NULL, n);
    oa_pages_populate_write(NULL, n);
}

/* The VmFlags line of the mapping holding p in /proc/self/smaps (the kernel's own record of the advice). */
static void vm_flags_of(const void *p, char *out, size_t cap)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    assert_non_null(f);
    char line[512];
    bool in = false;
    out[0] = '\0';
    while (fgets(line, sizeof line, f) != NULL) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
        } else if (in && strncmp(line, "VmFlags:", 8) == 0) {
            snprintf(out, cap, "%s", line);
            break;
        }
    }
    fclose(f);
}

/* A read-only file mapping after oa_pages_small carries the no-huge-page advice ("nh"), which it does not
 * before; NULL and empty ranges are ignored. Kernels without transparent huge pages refuse the advice: the
 * test says so and checks only that the mapping still reads. */
static void file_mapping_small_pages(void **state)
{
    (void)state;
    const size_t page = (size_t)sysconf(_SC_PAGESIZE), n = 8 * page;
    char path[] = "/tmp/oa_test_pages_XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    unsigned char buf[256];
    memset(buf, 0x5a, sizeof buf);
    for (size_t off = 0; off < n; off += sizeof buf) {
        assert_int_equal(write(fd, buf, sizeof buf), (ssize_t)sizeof buf);
    }
    unsigned char *m = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
    assert_true(m != MAP_FAILED);
    char flags[512];
    vm_flags_of(m, flags, sizeof flags);
    assert_null(strstr(flags, " nh"));
    oa_pages_small(m, n);
    oa_pages_small(NULL, n);
    oa_pages_small(m, 0);
    vm_flags_of(m, flags, sizeof flags);
    if (madvise(m, n, MADV_NOHUGEPAGE) != 0) {
        print_message("no transparent huge pages on this kernel: the advice is refused\n");
    } else {
        assert_non_null(strstr(flags, " nh"));
    }
    assert_int_equal(m[n - 1], 0x5a);
    munmap(m, n);
    close(fd);
    unlink(path);
}

#if !defined(OA_ASAN) /* (the helpers of the mapping checks, which ASan builds skip: arrays on the heap) */
/* Is p inside a mapping of this process (mincore answers ENOMEM for an unmapped page)? */
static bool mapped(const void *p)
{
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    unsigned char v;
    return mincore((void *)((uintptr_t)p & ~(page - 1)), 1, &v) == 0;
}

/* The AnonHugePages of the mapping holding p in /proc/self/smaps, in kB (the kernel's own count). */
static long anon_huge_kb(const void *p)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    assert_non_null(f);
    char line[512];
    bool in = false;
    long kb = -1;
    while (fgets(line, sizeof line, f) != NULL) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
        } else if (in && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1) {
            break;
        }
    }
    fclose(f);
    return kb;
}

/* Whether this kernel collapses a written 2 MiB piece of anonymous memory into a huge page on request. */
static bool collapse_works(void)
{
    const size_t hp = OA_PAGES_HUGE_MIN;
    char *m = mmap(NULL, 2 * hp, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(m != MAP_FAILED);
    char *a = (char *)(((uintptr_t)m + hp - 1) & ~(uintptr_t)(hp - 1));
    memset(a, 1, hp);
    const bool ok = madvise(a, hp, 25 /* MADV_COLLAPSE */) == 0;
    munmap(m, 2 * hp);
    if (!ok) {
        print_message("MADV_COLLAPSE refused here (no THP, or a kernel before 6.1): pieces stay small\n");
    }
    return ok;
}

/* Fills n bytes with a pattern of seed, or checks it. */
static void pattern(unsigned char *p, size_t n, unsigned seed, bool check)
{
    for (size_t k = 0; k < n; k += 509) {
        const unsigned char want = (unsigned char)(k * 7u + seed);
        if (!check) {
            p[k] = want;
        } else if (p[k] != want) {
            fail_msg("byte %zu of array %u is %u, not %u", k, seed, p[k], want);
        }
    }
}
#endif

/* Arrays for packed weights: 64-byte aligned and writable to their last byte at every size; from
 * OA_PAGES_HUGE_MIN in a mapping of their own on a 2 MiB boundary whose whole pieces become huge pages in the
 * background with every byte kept, given back whole on free, also while still queued (the heap under ASan:
 * its redzones guard the array instead). */
static void huge_alloc_arrays(void **state)
{
    (void)state;
    assert_null(oa_pages_huge_alloc(0));
    assert_null(oa_pages_huge_alloc(SIZE_MAX));
    oa_pages_huge_free(NULL);
    const size_t sizes[] = {1, 100, 4096, OA_PAGES_HUGE_MIN - 1, OA_PAGES_HUGE_MIN, 2 * OA_PAGES_HUGE_MIN + 100};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const size_t n = sizes[i];
        unsigned char *p = oa_pages_huge_alloc(n);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % 64, 0);
        p[n - 1] = 2;
        p[0] = 1;
        assert_int_equal(p[n - 1], n > 1 ? 2 : 1);
#if !defined(OA_ASAN)
        if (n >= OA_PAGES_HUGE_MIN) {
            assert_int_equal((uintptr_t)p % OA_PAGES_HUGE_MIN, 0);
            pattern(p, n, (unsigned)i, false);
            oa_pages_huge_settle();
            if (collapse_works()) {
                assert_true(anon_huge_kb(p) >= (long)(n / OA_PAGES_HUGE_MIN * 2048));
            }
            pattern(p, n, (unsigned)i, true);
            const size_t page = (size_t)sysconf(_SC_PAGESIZE);
            oa_pages_huge_free(p);
            assert_false(mapped(p));
            assert_false(mapped(p + n - 1));
            assert_false(mapped(p - page)); /* the head's page goes too */
            continue;
        }
#endif
        oa_pages_huge_free(p);
    }
    /* freed while their pieces wait for the collapser (it waits 50 ms after the last queueing): it finds its
     * queue empty then; an array allocated after still settles (a hang is killed by the alarm) and keeps its
     * bytes */
    alarm(60);
    for (int i = 0; i < 8; i++) {
        oa_pages_huge_free(oa_pages_huge_alloc(4 * OA_PAGES_HUGE_MIN));
    }
    usleep(120 * 1000);
    unsigned char *q = oa_pages_huge_alloc(2 * OA_PAGES_HUGE_MIN);
    assert_non_null(q);
    memset(q, 5, 2 * OA_PAGES_HUGE_MIN);
    oa_pages_huge_settle();
    assert_int_equal(q[2 * OA_PAGES_HUGE_MIN - 1], 5);
    oa_pages_huge_free(q);
    alarm(0);
}

/* Arrays under OA_PAGES_HUGE_MIN are laid end to end; the 2 MiB pieces they cover whole become huge pages
 * with every byte written still there; freed arrays leave the process. */
static void huge_alloc_small_arrays_share_pieces(void **state)
{
    (void)state;
#if defined(OA_ASAN)
    print_message("ASan build: arrays come from the heap\n");
#else
    const size_t n = (size_t)1 << 20, page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *a[5];
    for (int i = 0; i < 5; i++) {
        a[i] = oa_pages_huge_alloc(n);
        assert_non_null(a[i]);
        assert_int_equal((uintptr_t)a[i] % 64, 0);
        pattern(a[i], n, (unsigned)i, false);
    }
    for (int i = 1; i < 5; i++) {
        assert_true(a[i] > a[i - 1] && a[i] - a[i - 1] < (ptrdiff_t)(n + page)); /* end to end */
    }
    oa_pages_huge_settle();
    if (collapse_works()) {
        assert_true(anon_huge_kb(a[0]) >= 2 * 2048); /* five arrays of 1 MiB and a head cover two pieces */
    }
    for (int i = 0; i < 5; i++) {
        pattern(a[i], n, (unsigned)i, true);
    }
    for (int i = 0; i < 5; i++) {
        oa_pages_huge_free(a[i]);
    }
    const uintptr_t lo = ((uintptr_t)a[1] + page - 1) & ~(uintptr_t)(page - 1);
    unsigned char v[16];
    assert_int_equal(mincore((void *)lo, 16 * page, v), 0);
    for (int k = 0; k < 16; k++) {
        assert_int_equal(v[k] & 1u, 0); /* freed: not resident */
    }
#endif
}

/* Freed heap blocks below the heap's top leave the process when the heap is trimmed (what a model load ends with). */
static void trim_heap_releases_freed_blocks(void **state)
{
    (void)state;
#if !defined(OA_ASAN) && defined(__GLIBC__) /* ASan's allocator is not glibc's heap */
    const size_t page = (size_t)sysconf(_SC_PAGESIZE), blk = 4 * page; /* below the mmap threshold: on the heap */
    enum { N = 16 };
    unsigned char *b[N + 1];
    for (int i = 0; i <= N; i++) {
        b[i] = malloc(blk);
        assert_non_null(b[i]);
        memset(b[i], 0x5a, blk);
    }
    /* b[N] stays: the freed blocks are not the heap's top, which free alone would give back */
    unsigned char *lo = b[0], *hi = b[0] + blk;
    for (int i = 1; i < N; i++) {
        lo = b[i] < lo ? b[i] : lo;
        hi = b[i] + blk > hi ? b[i] + blk : hi;
    }
    if ((size_t)(hi - lo) > (size_t)(N + 2) * blk) { /* not one run of blocks: nothing to measure here */
        for (int i = 0; i <= N; i++) {
            free(b[i]);
        }
        skip();
    }
    unsigned char *mid = (unsigned char *)(((uintptr_t)lo + 2 * page - 1) & ~(uintptr_t)(page - 1));
    const size_t n_mid = 32; /* pages well inside the freed run */
    assert_true(mid + n_mid * page <= hi);
    assert_int_equal(resident(mid, n_mid * page), n_mid);
    for (int i = 0; i < N; i++) {
        free(b[i]);
    }
    assert_int_equal(resident(mid, n_mid * page), n_mid); /* free keeps them */
    oa_pages_trim_heap();
    assert_true(resident(mid, n_mid * page) < n_mid / 2);
    free(b[N]);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(anon_pages_populate_on_request),
        cmocka_unit_test(file_mapping_small_pages),
        cmocka_unit_test(huge_alloc_arrays),
        cmocka_unit_test(huge_alloc_small_arrays_share_pieces),
        cmocka_unit_test(trim_heap_releases_freed_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

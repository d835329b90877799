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

/* Is p inside a mapping of this process (mincore answers ENOMEM for an unmapped page)? */
static bool mapped(const void *p)
{
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    unsigned char v;
    return mincore((void *)((uintptr_t)p & ~(page - 1)), 1, &v) == 0;
}

/* Arrays for packed weights: 64-byte aligned and writable to their last byte at every size; from
 * OA_PAGES_HUGE_MIN in a mapping of their own on a 2 MiB boundary carrying the huge-page advice ("hg"),
 * given back whole on free (the heap under ASan: its redzones guard the array instead). */
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
            char flags[512];
            vm_flags_of(p, flags, sizeof flags);
            if (madvise(p, OA_PAGES_HUGE_MIN, MADV_HUGEPAGE) != 0) {
                print_message("no transparent huge pages on this kernel: the advice is refused\n");
            } else {
                assert_non_null(strstr(flags, " hg"));
            }
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
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(anon_pages_populate_on_request),
        cmocka_unit_test(file_mapping_small_pages),
        cmocka_unit_test(huge_alloc_arrays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

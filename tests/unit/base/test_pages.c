/* base/pages: anonymous pages (zeroed, resident only once written or populated, given back on free). */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/pages.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(anon_pages_populate_on_request),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

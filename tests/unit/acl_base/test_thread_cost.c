/* What every thread of an application pays for linking libascendcl: the library's thread-local storage, which
 * each new thread gets (and has written) when it starts, whether or not it ever calls the library. Per-thread
 * state that only some calls need (msproftx range stacks) lives on the heap from the thread's first use. */
#define _GNU_SOURCE
#include <link.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "acl/acl.h"

#define TLS_BUDGET ((size_t)16 << 10) /* error and dump-path buffers, a few pointers */

typedef struct found {
    const void *sym; /* an address inside libascendcl */
    size_t tls;
    int hits;
} found;

static int scan(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    found *f = arg;
    bool ours = false;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        const uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && (uintptr_t)f->sym >= lo && (uintptr_t)f->sym < lo + ph->p_memsz) {
            ours = true;
        }
    }
    for (int i = 0; ours && i < info->dlpi_phnum; i++) {
        if (info->dlpi_phdr[i].p_type == PT_TLS) {
            f->tls += info->dlpi_phdr[i].p_memsz;
        }
    }
    f->hits += ours;
    return 0;
}

static void tls_within_budget(void **state)
{
    (void)state;
    found f = {.sym = (const void *)(uintptr_t)&aclGetRecentErrMsg};
    dl_iterate_phdr(scan, &f);
    assert_int_equal(f.hits, 1); /* the library was found */
    assert_true(f.tls > 0);      /* it has thread-local state (the error messages): the scan reads it */
    if (f.tls > TLS_BUDGET) {
        fail_msg("libascendcl's thread-local storage is %zu bytes, over the %zu every thread may pay", f.tls,
                 TLS_BUDGET);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tls_within_budget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

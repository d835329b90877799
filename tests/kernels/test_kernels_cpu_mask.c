/*
 * ISA detection on a smaller CPU (docs/isa.md): the process masks CPUID to the level named by
 * OA_TEST_CPU_LEVEL (bench/common/cpu_mask.h, what `bench_models --cpu` does) before anything reads
 * it, then the kernels' own detection must find the tier such a CPU has: the lower of that level and
 * what this CPU really offers, read here from the raw CPUID bits before masking. Also: the mask
 * reaches threads started later, leaves the other leaves alone, refuses unknown levels, and a real
 * segmentation fault still ends the process. Without CPUID faulting (kernel or hypervisor) the test
 * says so and skips (77). CMocka puts its own SIGSEGV handler in place while a test runs, so every
 * CPUID (and the fault) happens in main before the tests, which check what main saw.
 */
#include <cpuid.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpu_mask.h"
#include "kernels/kernel_internal.h"
#include "kt_harness.h"

typedef struct raw_cpuid {
    unsigned l0[4], l1[4], l7[4], l71[4];
} raw_cpuid;

static raw_cpuid g_before, g_after, g_thread; /* before the mask; after it, on main and on a new thread */
static const char *g_level;
static oa_kisa_tier g_detected;
static oa_kcpu g_features;
static int g_block;
static unsigned long g_faults;
static int g_fault_status; /* wait status of a child that dereferenced NULL under the mask */

static void read_raw(raw_cpuid *r)
{
    memset(r, 0, sizeof(*r));
    __cpuid_count(0, 0, r->l0[0], r->l0[1], r->l0[2], r->l0[3]);
    __cpuid_count(1, 0, r->l1[0], r->l1[1], r->l1[2], r->l1[3]);
    r->l1[1] &= 0x00ffffffu; /* EBX 31-24: the APIC ID of the core the thread runs on */
    if (r->l0[0] >= 7) {
        __cpuid_count(7, 0, r->l7[0], r->l7[1], r->l7[2], r->l7[3]);
        if (r->l7[0] >= 1) {
            __cpuid_count(7, 1, r->l71[0], r->l71[1], r->l71[2], r->l71[3]);
        }
    }
}

static bool bit(unsigned v, int n)
{
    return (v >> n) & 1u;
}

/* The tier a CPU with these raw bits has, up to avx512_bf16 (the highest level a mask keeps). */
static oa_kisa_tier tier_of_raw(const raw_cpuid *r)
{
    if (!(bit(r->l7[1], 5) && bit(r->l1[2], 12))) {
        return OA_KISA_REF;
    }
    if (!(bit(r->l7[1], 16) && bit(r->l7[1], 30) && bit(r->l7[1], 31))) {
        return OA_KISA_AVX2;
    }
    if (bit(r->l71[0], 5)) {
        return OA_KISA_AVX512_BF16;
    }
    return bit(r->l7[2], 11) ? OA_KISA_AVX512_VNNI : OA_KISA_AVX512;
}

static void test_detected_tier(void **state)
{
    (void)state;
    const oa_kisa_tier want_level = (oa_kisa_tier)oa_kisa_parse(g_level);
    const oa_kisa_tier real = tier_of_raw(&g_before);
    const oa_kisa_tier want = real < want_level ? real : want_level;
    printf("level %s: this CPU's own tier (up to avx512_bf16) %s, expected %s, detected %s\n", g_level,
           oa_kisa_tier_name(real), oa_kisa_tier_name(want), oa_kisa_tier_name(g_detected));
    assert_int_equal(g_detected, want);
    const oa_kcpu *f = &g_features;
    assert_false(f->amx_tile || f->amx_bf16 || f->amx_int8 || f->avx512_fp16);
    if (want_level == OA_KISA_AVX2) {
        assert_false(f->avx512f || f->avx512bw || f->avx512vl || f->avx512_vnni || f->avx512_bf16);
        assert_int_equal(g_block, 8);
    }
    if (want_level < OA_KISA_AVX512_BF16) {
        assert_false(f->avx512_bf16);
    }
    assert_true(g_faults > 0);
}

static void *read_in_thread(void *out)
{
    read_raw(out);
    return NULL;
}

static void test_leaves(void **state)
{
    (void)state;
    const raw_cpuid now = g_after;
    assert_memory_equal(&now, &g_thread, sizeof now); /* a thread started later sees the same CPU */
    assert_memory_equal(now.l0, g_before.l0, sizeof now.l0);
    assert_memory_equal(now.l1, g_before.l1, sizeof now.l1);
    assert_int_equal(now.l7[0], g_before.l7[0]);
    /* AVX2 (ebx 5) and everything the levels do not name stay as they were; AVX512F (ebx 16) and AMX-TILE
     * (edx 24) go for avx2 */
    assert_int_equal(bit(now.l7[1], 5), bit(g_before.l7[1], 5));
    assert_false(bit(now.l7[3], 24));
    if (strcmp(g_level, "avx2") == 0) {
        assert_false(bit(now.l7[1], 16));
        assert_false(bit(now.l71[0], 4)); /* AVX-VNNI */
    } else {
        assert_int_equal(bit(now.l7[1], 16), bit(g_before.l7[1], 16));
    }
}

static void test_refusals_and_real_faults(void **state)
{
    (void)state;
    char err[256] = "";
    assert_int_equal(bench_cpu_mask("avx9", err, sizeof err), -1);
    assert_int_equal(errno, EINVAL);
    assert_non_null(strstr(err, "avx9"));
    assert_int_equal(bench_cpu_mask(NULL, err, sizeof err), -1);
    const int status = g_fault_status;
    const bool killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV;
    assert_true(killed || (WIFEXITED(status) && WEXITSTATUS(status) != 0)); /* a sanitizer reports and exits */
}

int main(void)
{
    g_level = getenv("OA_TEST_CPU_LEVEL");
    if (g_level == NULL || oa_kisa_parse(g_level) < OA_KISA_AVX2) {
        fprintf(stderr, "OA_TEST_CPU_LEVEL must name a level (avx2, avx512, avx512_vnni, avx512_bf16)\n");
        return 1;
    }
    read_raw(&g_before);
    char err[256];
    if (bench_cpu_mask(g_level, err, sizeof err) != 0) {
        if (errno == ENODEV) {
            printf("skipped: %s\n", err);
            return 77;
        }
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    g_detected = oa_kisa_detected();
    g_features = *oa_kernels_cpu();
    g_block = oa_kernels_block();
    read_raw(&g_after);
    pthread_t t;
    if (pthread_create(&t, NULL, read_in_thread, &g_thread) != 0 || pthread_join(t, NULL) != 0) {
        return 1;
    }
    g_faults = bench_cpu_mask_faults();
    fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) {
        volatile int *volatile p = NULL;
        *p = 1; /* not a CPUID: the fault goes on to the default action (or a sanitizer's handler) */
        _exit(0);
    }
    if (pid < 0 || waitpid(pid, &g_fault_status, 0) != pid) {
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_detected_tier),
        cmocka_unit_test(test_leaves),
        cmocka_unit_test(test_refusals_and_real_faults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

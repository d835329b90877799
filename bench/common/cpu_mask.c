/* CPUID with fewer extensions for this process (cpu_mask.h). */
#define _GNU_SOURCE
#include "cpu_mask.h"

#include <cpuid.h>
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#define ARCH_GET_CPUID_OP 0x1011 /* asm/prctl.h */
#define ARCH_SET_CPUID_OP 0x1012

/* Bits a level clears: leaf 7 subleaf 0 (ebx, ecx, edx) and subleaf 1 (eax, edx). */
typedef struct level_mask {
    const char *name;
    const char *onednn; /* ONEDNN_MAX_CPU_ISA of the level */
    unsigned l7_ebx, l7_ecx, l7_edx, l71_eax, l71_edx;
} level_mask;

#define BIT(n) (1u << (n))
/* leaf 7.0 ebx: AVX512 F 16, DQ 17, IFMA 21, PF 26, ER 27, CD 28, BW 30, VL 31 */
#define AVX512_BASE_EBX (BIT(16) | BIT(17) | BIT(28) | BIT(30) | BIT(31))
#define AVX512_MORE_EBX (BIT(21) | BIT(26) | BIT(27))
/* leaf 7.0 ecx: VBMI 1, VBMI2 6, VNNI 11, BITALG 12, VPOPCNTDQ 14 */
#define AVX512_VNNI_ECX BIT(11)
#define AVX512_MORE_ECX (BIT(1) | BIT(6) | BIT(12) | BIT(14))
/* leaf 7.0 edx: 4VNNIW 2, 4FMAPS 3, VP2INTERSECT 8, AMX-BF16 22, AVX512-FP16 23, AMX-TILE 24, AMX-INT8 25 */
#define AMX_FP16_EDX (BIT(2) | BIT(3) | BIT(8) | BIT(22) | BIT(23) | BIT(24) | BIT(25))
/* leaf 7.1 eax: AVX-VNNI 4, AVX512-BF16 5, AMX-FP16 21, AVX-IFMA 23; edx: AVX-VNNI-INT8 4, AVX-NE-CONVERT 5,
 * AMX-COMPLEX 8, AVX-VNNI-INT16 10, AVX10 19 */
#define AVX_VNNI_71EAX (BIT(4) | BIT(23))
#define AVX512_BF16_71EAX BIT(5)
#define AMX_71EAX BIT(21)
#define MORE_71EDX (BIT(4) | BIT(5) | BIT(8) | BIT(10) | BIT(19))

static const level_mask k_levels[] = {
    {"avx2", "AVX2", AVX512_BASE_EBX | AVX512_MORE_EBX, AVX512_VNNI_ECX | AVX512_MORE_ECX, AMX_FP16_EDX,
     AVX_VNNI_71EAX | AVX512_BF16_71EAX | AMX_71EAX, MORE_71EDX},
    {"avx512", "AVX512_CORE", AVX512_MORE_EBX, AVX512_VNNI_ECX | AVX512_MORE_ECX, AMX_FP16_EDX,
     AVX_VNNI_71EAX | AVX512_BF16_71EAX | AMX_71EAX, MORE_71EDX},
    {"avx512_vnni", "AVX512_CORE_VNNI", AVX512_MORE_EBX, AVX512_MORE_ECX, AMX_FP16_EDX,
     AVX_VNNI_71EAX | AVX512_BF16_71EAX | AMX_71EAX, MORE_71EDX},
    {"avx512_bf16", "AVX512_CORE_BF16", BIT(26) | BIT(27), 0, AMX_FP16_EDX, AVX_VNNI_71EAX | AMX_71EAX, MORE_71EDX},
};

static const level_mask *g_mask;
static atomic_ulong g_faults; /* lock-free: safe in the handler */
static struct sigaction g_prev;

static long set_cpuid_faulting(int on)
{
    return syscall(SYS_arch_prctl, ARCH_SET_CPUID_OP, on ? 0 : 1);
}

static void on_segv(int sig, siginfo_t *si, void *ucv)
{
    ucontext_t *uc = ucv;
    greg_t *r = uc->uc_mcontext.gregs;
    const unsigned char *ip = (const unsigned char *)r[REG_RIP];
    /* a CPUID fault is SI_KERNEL at the instruction itself; anything else goes to the handler before ours */
    if (si->si_code != SI_KERNEL || ip[0] != 0x0f || ip[1] != 0xa2) {
        if (g_prev.sa_flags & SA_SIGINFO) {
            g_prev.sa_sigaction(sig, si, ucv);
        } else if (g_prev.sa_handler != SIG_IGN && g_prev.sa_handler != SIG_DFL) {
            g_prev.sa_handler(sig);
        } else {
            signal(SIGSEGV, SIG_DFL); /* the instruction faults again, now fatally */
        }
        return;
    }
    const unsigned leaf = (unsigned)r[REG_RAX], sub = (unsigned)r[REG_RCX];
    unsigned a, b, c, d;
    (void)set_cpuid_faulting(0);
    __cpuid_count(leaf, sub, a, b, c, d);
    (void)set_cpuid_faulting(1);
    if (leaf == 7 && sub == 0) {
        b &= ~g_mask->l7_ebx;
        c &= ~g_mask->l7_ecx;
        d &= ~g_mask->l7_edx;
    } else if (leaf == 7 && sub == 1) {
        a &= ~g_mask->l71_eax;
        d &= ~g_mask->l71_edx;
    }
    r[REG_RAX] = a;
    r[REG_RBX] = b;
    r[REG_RCX] = c;
    r[REG_RDX] = d;
    r[REG_RIP] += 2;
    atomic_fetch_add(&g_faults, 1);
}

int bench_cpu_mask(const char *level, char *err, unsigned long err_len)
{
    const level_mask *m = NULL;
    for (size_t i = 0; i < sizeof k_levels / sizeof k_levels[0]; i++) {
        if (level != NULL && strcmp(level, k_levels[i].name) == 0) {
            m = &k_levels[i];
        }
    }
    if (m == NULL) {
        snprintf(err, err_len, "unknown CPU level '%s' (avx2, avx512, avx512_vnni, avx512_bf16)",
                 level != NULL ? level : "(null)");
        errno = EINVAL;
        return -1;
    }
    if (g_mask != NULL) {
        g_mask = m; /* already faulting: the new level answers from now on */
        return 0;
    }
    if (syscall(SYS_arch_prctl, ARCH_GET_CPUID_OP, 0) < 0) {
        snprintf(err, err_len, "no CPUID faulting on this kernel (arch_prctl ARCH_GET_CPUID: %s)", strerror(errno));
        errno = ENODEV;
        return -1;
    }
    g_mask = m;
    /* oneDNN reads CPUID when its library is loaded, before main: it is capped the way it documents (it reads
     * the variable at its first primitive), unless the caller capped it already */
    (void)setenv("ONEDNN_MAX_CPU_ISA", m->onednn, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, &g_prev) != 0 || set_cpuid_faulting(1) != 0) {
        const int e = errno;
        snprintf(err, err_len, "no CPUID faulting on this CPU (arch_prctl ARCH_SET_CPUID: %s)", strerror(e));
        (void)sigaction(SIGSEGV, &g_prev, NULL);
        g_mask = NULL;
        errno = ENODEV;
        return -1;
    }
    return 0;
}

int bench_cpu_mask_option(const char *prog, const char *level)
{
    char err[256];
    if (level == NULL || bench_cpu_mask(level, err, sizeof err) == 0) {
        return 0;
    }
    fprintf(stderr, "%s: --cpu %s: %s\n", prog, level, err);
    return -1;
}

unsigned long bench_cpu_mask_faults(void)
{
    return atomic_load(&g_faults);
}

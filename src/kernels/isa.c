/*
 * ISA detection (docs/isa.md): CPUID + XGETBV once per process, the
 * OPENACL_ISA / OA_KERNELS_ISA cap, and the NCHWc channel block that follows
 * the chosen ISA. Every per-ISA kernel table is picked from here.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "kernels/kernel_internal.h"

#include <cpuid.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static oa_kcpu g_cpu;      /* what the CPU and OS offer */
static oa_kcpu g_eff;      /* after the cap: what kernels may use */
static oa_kisa_tier g_detected, g_tier;
static int g_block;
static pthread_once_t g_cpu_once = PTHREAD_ONCE_INIT;

static const char *const k_tier_names[OA_KISA_TIER_COUNT] = {
    "ref", "avx2", "avx512", "avx512_vnni", "avx512_bf16", "avx512_fp16", "amx",
};

const char *oa_kisa_tier_name(oa_kisa_tier t)
{
    return (unsigned)t < OA_KISA_TIER_COUNT ? k_tier_names[t] : "unknown";
}

int oa_kisa_parse(const char *s)
{
    if (s == NULL) {
        return -1;
    }
    for (int t = 0; t < OA_KISA_TIER_COUNT; t++) {
        if (strcmp(s, k_tier_names[t]) == 0) {
            return t;
        }
    }
    /* accepted spellings of the baseline */
    if (strcmp(s, "sse2") == 0 || strcmp(s, "scalar") == 0) {
        return OA_KISA_REF;
    }
    return -1;
}

/* Highest tier whose own feature (and the tiers' common base) the CPU has. */
oa_kisa_tier oa_kisa_tier_of(const oa_kcpu *c)
{
    if (!(c->avx2 && c->fma)) {
        return OA_KISA_REF;
    }
    if (!(c->avx512f && c->avx512bw && c->avx512vl)) {
        return OA_KISA_AVX2;
    }
    oa_kisa_tier t = OA_KISA_AVX512;
    if (c->avx512_vnni) {
        t = OA_KISA_AVX512_VNNI;
    }
    if (c->avx512_bf16) {
        t = OA_KISA_AVX512_BF16;
    }
    if (c->avx512_fp16) {
        t = OA_KISA_AVX512_FP16;
    }
    if (c->amx_tile && (c->amx_bf16 || c->amx_int8)) {
        t = OA_KISA_AMX;
    }
    return t;
}

/* Features of c allowed under tier t (a feature belongs to the lowest tier that names it). */
void oa_kisa_mask(const oa_kcpu *c, oa_kisa_tier t, oa_kcpu *out)
{
    *out = *c;
    if (t < OA_KISA_AVX2) {
        out->avx2 = out->fma = out->f16c = false;
    }
    if (t < OA_KISA_AVX512) {
        out->avx512f = out->avx512bw = out->avx512vl = out->avx512dq = false;
    }
    if (t < OA_KISA_AVX512_VNNI) {
        out->avx512_vnni = false;
    }
    if (t < OA_KISA_AVX512_BF16) {
        out->avx512_bf16 = false;
    }
    if (t < OA_KISA_AVX512_FP16) {
        out->avx512_fp16 = false;
    }
    if (t < OA_KISA_AMX) {
        out->amx_tile = out->amx_bf16 = out->amx_int8 = false;
    }
}

/* Linux hands out the AMX tile state only on request (arch_prctl ARCH_REQ_XCOMP_PERM, XTILEDATA). */
static bool amx_permitted(void)
{
#if defined(__linux__) && defined(SYS_arch_prctl)
    return syscall(SYS_arch_prctl, 0x1023 /* ARCH_REQ_XCOMP_PERM */, 18 /* XFEATURE_XTILEDATA */) == 0;
#else
    return false;
#endif
}

static void probe_features(oa_kcpu *cpu)
{
    unsigned a, b, c, d;
    bool osxsave = false, ymm = false, zmm = false, tiles = false;
    memset(cpu, 0, sizeof(*cpu));
    if (__get_cpuid(1, &a, &b, &c, &d)) {
        cpu->fma = (c >> 12) & 1;
        cpu->f16c = (c >> 29) & 1;
        osxsave = (c >> 27) & 1;
    }
    if (osxsave) {
        /* XCR0: the OS saves XMM|YMM (bits 1-2), opmask|ZMM (5-7), tile config|data (17-18) */
        unsigned lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        ymm = (lo & 0x6) == 0x6;
        zmm = (lo & 0xe6) == 0xe6;
        tiles = (lo & 0x60000) == 0x60000;
    }
    unsigned max_leaf = __get_cpuid_max(0, NULL);
    if (max_leaf >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        cpu->avx2 = ymm && ((b >> 5) & 1);
        cpu->avx512f = zmm && ((b >> 16) & 1);
        cpu->avx512dq = zmm && ((b >> 17) & 1);
        cpu->avx512bw = zmm && ((b >> 30) & 1);
        cpu->avx512vl = zmm && ((b >> 31) & 1);
        cpu->avx512_vnni = zmm && ((c >> 11) & 1);
        cpu->avx512_fp16 = zmm && ((d >> 23) & 1);
        cpu->amx_bf16 = tiles && ((d >> 22) & 1);
        cpu->amx_tile = tiles && ((d >> 24) & 1);
        cpu->amx_int8 = tiles && ((d >> 25) & 1);
        unsigned sub = a;
        if (sub >= 1) {
            __cpuid_count(7, 1, a, b, c, d);
            cpu->avx512_bf16 = zmm && ((a >> 5) & 1);
        }
    }
    if (!ymm) {
        cpu->fma = cpu->f16c = false;
    }
    if (cpu->amx_tile && !amx_permitted()) {
        cpu->amx_tile = cpu->amx_bf16 = cpu->amx_int8 = false;
    }
}

static void probe_cpu(void)
{
    probe_features(&g_cpu);
    g_detected = oa_kisa_tier_of(&g_cpu);
    oa_kisa_tier tier = g_detected;
    const char *var = "OPENACL_ISA";
    const char *want = getenv(var);
    if (want == NULL || want[0] == '\0') {
        var = "OA_KERNELS_ISA"; /* older name, same values */
        want = getenv(var);
    }
    if (want != NULL && want[0] != '\0') {
        int t = oa_kisa_parse(want);
        if (t < 0) {
            OA_LOGE("%s=\"%s\" is not an ISA (ref, avx2, avx512, avx512_vnni, avx512_bf16, avx512_fp16, amx); "
                    "using the detected %s", var, want, oa_kisa_tier_name(g_detected));
        } else if ((oa_kisa_tier)t > g_detected) {
            OA_LOGW("%s=%s is above what this CPU offers; using the detected %s", var, want,
                    oa_kisa_tier_name(g_detected));
        } else {
            tier = (oa_kisa_tier)t;
        }
    }
    g_tier = tier;
    oa_kisa_mask(&g_cpu, tier, &g_eff);
    long blk = oa_env_long("OA_KERNELS_BLOCK", 0); /* tests: exercise 16 on AVX2 machines */
    g_block = (blk == 8 || blk == 16) ? (int)blk : (tier >= OA_KISA_AVX512 ? 16 : 8);
    OA_LOGI("ISA: detected %s, using %s, NCHWc block %d", oa_kisa_tier_name(g_detected), oa_kisa_tier_name(tier),
            g_block);
}

const oa_kcpu *oa_kernels_cpu(void)
{
    pthread_once(&g_cpu_once, probe_cpu);
    return &g_cpu;
}

const oa_kcpu *oa_kisa_features(void)
{
    pthread_once(&g_cpu_once, probe_cpu);
    return &g_eff;
}

oa_kisa_tier oa_kisa_detected(void)
{
    pthread_once(&g_cpu_once, probe_cpu);
    return g_detected;
}

oa_kisa_tier oa_kisa_tier_used(void)
{
    pthread_once(&g_cpu_once, probe_cpu);
    return g_tier;
}

int oa_kisa_level(void)
{
    oa_kisa_tier t = oa_kisa_tier_used();
    return t >= OA_KISA_AVX512 ? 2 : (int)t;
}

int oa_kernels_block(void)
{
    pthread_once(&g_cpu_once, probe_cpu);
    return g_block;
}

const char *oa_kernels_isa(void)
{
    return oa_kisa_tier_name(oa_kisa_tier_used());
}

const oa_kew_table *oa_kew_for(oa_kisa_tier t)
{
    if (t >= OA_KISA_AVX512) {
        return &oa_kew_avx512;
    }
    return t == OA_KISA_AVX2 ? &oa_kew_avx2 : &oa_kew_ref;
}

const oa_kew_table *oa_kew(void)
{
    static const oa_kew_table *tab;
    const oa_kew_table *t = __atomic_load_n(&tab, __ATOMIC_ACQUIRE);
    if (t == NULL) {
        t = oa_kew_for(oa_kisa_tier_used());
        __atomic_store_n(&tab, t, __ATOMIC_RELEASE);
    }
    return t;
}

oa_kdeconv2x2_fn oa_kdeconv2x2_for(oa_kisa_tier t)
{
    if (t >= OA_KISA_AVX512) {
        return oa_kdeconv2x2_avx512;
    }
    return t == OA_KISA_AVX2 ? oa_kdeconv2x2_avx2 : NULL;
}

oa_kpw_fn oa_kpw_for(oa_kisa_tier t)
{
    return t >= OA_KISA_AVX512 ? oa_kpw_avx512 : (t == OA_KISA_AVX2 ? oa_kpw_avx2 : NULL);
}

oa_kpw_fn oa_kpw_bf16_for(void)
{
    return oa_kisa_level() >= 2 && oa_kisa_features()->avx512_bf16 ? oa_kpw_bf16_avx512 : NULL;
}

oa_kstem_fn oa_kstem_for(oa_kisa_tier t, int *block)
{
    *block = t >= OA_KISA_AVX512 ? 16 : (t == OA_KISA_AVX2 ? 8 : 0);
    return t >= OA_KISA_AVX512 ? oa_kstem_avx512 : (t == OA_KISA_AVX2 ? oa_kstem_avx2 : NULL);
}

oa_kdw_fn oa_kdw_for(oa_kisa_tier t, int *block)
{
    *block = t >= OA_KISA_AVX512 ? 16 : (t == OA_KISA_AVX2 ? 8 : 0);
    return t >= OA_KISA_AVX512 ? oa_kdw_avx512 : (t == OA_KISA_AVX2 ? oa_kdw_avx2 : NULL);
}

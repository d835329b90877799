/*
 * A smaller CPU for this process: CPUID answers without the instruction-set extensions above a
 * level, so that every library that asks CPUID (our ISA tiers, oneDNN, ONNX Runtime's MLAS) picks
 * the kernels it would pick on such a CPU. Linux's CPUID faulting (arch_prctl ARCH_SET_CPUID, on
 * CPUs and hypervisors that offer it: "cpuid_fault" in /proc/cpuinfo) makes every CPUID instruction
 * raise SIGSEGV; the handler runs the real one, clears the bits and steps over it. The setting is
 * inherited by threads created afterwards, so call it first thing in main, before any library has
 * read CPUID and before any thread starts. bench/common/README.md "A smaller CPU".
 *
 * What a CPU at each level keeps of this one's (leaf 7 and its subleaf 1; everything else as is):
 *   avx2         AVX2, FMA, F16C: no AVX-512, AVX-VNNI, AMX (a Haswell .. Zen 3 class CPU)
 *   avx512       + AVX-512 F/CD/BW/DQ/VL (Skylake-SP)
 *   avx512_vnni  + AVX512-VNNI (Cascade Lake)
 *   avx512_bf16  + AVX512-BF16, IFMA, VBMI/VBMI2, BITALG, VPOPCNTDQ (a Zen 4 class CPU: no AMX,
 *                no AVX512-FP16)
 * XCR0 (XGETBV) cannot be intercepted and still says the OS saves the wider registers; every
 * library checks the CPUID bits too. oneDNN reads CPUID while its library loads, before main: the
 * mask also sets ONEDNN_MAX_CPU_ISA to the level (unless already set), which oneDNN reads later.
 */
#ifndef OA_BENCH_CPU_MASK_H
#define OA_BENCH_CPU_MASK_H

/* 0, or -1 with a message in err (unknown level; no CPUID faulting here: ENODEV). */
int bench_cpu_mask(const char *level, char *err, unsigned long err_len);

/* The same for a driver's --cpu option: NULL level is nothing to do (0); a failure is printed to stderr as
 * "<prog>: --cpu <level>: <why>" (-1). */
int bench_cpu_mask_option(const char *prog, const char *level);

/* CPUID instructions answered by the mask so far. */
unsigned long bench_cpu_mask_faults(void);

#endif /* OA_BENCH_CPU_MASK_H */

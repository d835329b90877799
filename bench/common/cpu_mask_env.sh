# Sourced by the benchmark scripts (POSIX sh): with OA_BENCH_CPU set, CPU_MASK_OPT is the drivers' option
# ("--cpu LEVEL", cpu_mask.h), and glibc is told the same level, since it picks its string functions before
# main, where the mask cannot reach (README.md "A smaller CPU"). Without it CPU_MASK_OPT is empty.
CPU_MASK_OPT=
if [ -n "${OA_BENCH_CPU:-}" ]; then
  CPU_MASK_OPT="--cpu $OA_BENCH_CPU"
  if [ "$OA_BENCH_CPU" = avx2 ]; then
    GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW,-AVX512DQ,-AVX512CD
    export GLIBC_TUNABLES
  fi
fi

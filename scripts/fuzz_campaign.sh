#!/usr/bin/env bash
# The long fuzz campaign (docs/fuzzing.md): a clang build with ASan + UBSan
# and libFuzzer coverage on the whole tree (build/clang-fuzz, OA_FUZZ=ON),
# then every fuzz target of tests/fuzz for SECONDS seconds each (default
# 3600), one after the other, each on its fresh seed corpus. Prints the
# executions and the findings of each run; crash, leak, timeout and OOM
# reproducers are kept in build/clang-fuzz/tests/fuzz/run_*-artifacts/.
#
#   scripts/fuzz_campaign.sh [SECONDS]       (JOBS=n for the build)
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-3600}
JOBS=${JOBS:-$(nproc)}
dir=build/clang-fuzz
CC=clang CXX=clang++ cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DOA_SANITIZE=ON -DOA_FUZZ=ON \
  -DOA_FUZZ_SECONDS="$SECONDS_PER_TARGET" -DOA_FUZZ_RUN_SECONDS="$SECONDS_PER_TARGET" \
  -DCMAKE_INSTALL_PREFIX="$PWD/$dir/prefix" >/dev/null || exit 1
cmake --build "$dir" -j"$JOBS" || exit 1
log=$dir/fuzz_campaign.log
export OA_FUZZ_SEED=${OA_FUZZ_SEED:-0} # a random libFuzzer seed per run (CI runs use 1)
ctest --test-dir "$dir" -L fuzz --output-on-failure 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
echo "=== executions per target (stat::number_of_executed_units), findings in run_*-artifacts"
for a in "$dir"/tests/fuzz/run*-artifacts; do
  n=$(find "$a" -type f | wc -l)
  echo "$(basename "$a" -artifacts): $n finding(s)"
done
grep -E "stat::number_of_executed_units|Test +#[0-9]+: fuzz_" "$log" || true
exit "$status"

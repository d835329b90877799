#!/usr/bin/env bash
# The long fuzz campaign (docs/fuzzing.md): a clang build with ASan + UBSan
# and libFuzzer coverage on the whole tree (build/fuzz-campaign, OA_FUZZ=ON,
# -O1 with assertions kept, as fuzzing builds usually are: about twice the
# executions per second of CI's -O0 build/clang-fuzz), then every fuzz target
# of tests/fuzz on its fresh seed corpus, each until RUNS executions or
# SECONDS seconds, whichever comes first. Prints the executions and the
# findings of each run; crash, leak, timeout and OOM reproducers are kept in
# build/fuzz-campaign/tests/fuzz/run_*-artifacts/.
#
#   scripts/fuzz_campaign.sh [SECONDS]   (default 3600 per target)
#   RUNS=n       stop a target after n executions too (default 10000000)
#   PARALLEL=n   targets at once (default 1); JOBS=n for the build
#   ONLY=regex   just the targets whose test name matches (e.g. 'mdl_exec|om_reader')
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-3600}
JOBS=${JOBS:-$(nproc)}
dir=build/fuzz-campaign
CC=clang CXX=clang++ cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-O1 -g" \
  -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" -DOA_SANITIZE=ON -DOA_FUZZ=ON \
  -DOA_FUZZ_SECONDS="$SECONDS_PER_TARGET" -DOA_FUZZ_RUN_SECONDS="$SECONDS_PER_TARGET" \
  -DCMAKE_INSTALL_PREFIX="$PWD/$dir/prefix" >/dev/null || exit 1
cmake --build "$dir" -j"$JOBS" || exit 1
log=$dir/fuzz_campaign.log
export OA_FUZZ_SEED=${OA_FUZZ_SEED:-0} # a random libFuzzer seed per run (CI runs use 1)
export OA_FUZZ_RUNS=${RUNS:-10000000}
# ctest adds the seed steps (models, documents) a selected target needs as fixtures
ctest --test-dir "$dir" -L fuzz -R "${ONLY:-.}" -j"${PARALLEL:-1}" --output-on-failure 2>&1 |
  tee "$log"
status=${PIPESTATUS[0]}
echo "=== executions per target (stat::number_of_executed_units), findings in run_*-artifacts"
for a in "$dir"/tests/fuzz/run*-artifacts; do
  n=$(find "$a" -type f | wc -l)
  echo "$(basename "$a" -artifacts): $n finding(s)"
done
grep -E "stat::number_of_executed_units|Test +#[0-9]+: fuzz_" "$log" || true
exit "$status"

#!/usr/bin/env bash
# The project's test command (README, .ci/run). On a fresh Debian 12 machine:
# installs the dependencies, then for the release build and the
# AddressSanitizer+UndefinedBehaviorSanitizer build: configure, build, run
# every test with ctest (unit tests, header/ABI checks, compat programs built
# against the installed prefix). Prints ctest's summary for each build and
# fails if any test failed. Then a clang build with the sanitizers and
# libFuzzer (hostile-input tests and short fuzz runs only).
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh || exit 1

JOBS=${JOBS:-$(nproc)}
status=0
run_build() {
  local name=$1; shift
  local dir=build/$name
  echo "=== $name: configure and build"
  cmake -S . -B "$dir" -DCMAKE_INSTALL_PREFIX="$PWD/$dir/prefix" "$@" >/dev/null || return 1
  cmake --build "$dir" -j"$JOBS" || return 1
  echo "=== $name: ctest"
  local rc=0
  ctest --test-dir "$dir" -j"$JOBS" --output-on-failure --timeout 900 || rc=1
  prune_test_data "$dir"
  return $rc
}

# What a build's tests generate (converted models, references, outputs:
# gigabytes) goes once its ctest has run, so the next build starts with the
# disk it needs; the binaries stay. OA_KEEP_TEST_DATA=1 keeps everything.
prune_test_data() {
  [[ "${OA_KEEP_TEST_DATA:-0}" == 1 ]] && return 0
  local dir=$1 d
  for d in test-data test-atc test-models bench-models dynamic-data; do
    rm -rf "${dir:?}/$d"
  done
  echo "=== $(basename "$dir"): test data removed; $(df -h --output=avail . | tail -1 | tr -d ' ') left on this disk"
}

run_build release -DCMAKE_BUILD_TYPE=RelWithDebInfo || status=1
if [[ "${OA_SKIP_SANITIZERS:-0}" != 1 ]]; then
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    run_build asan -DCMAKE_BUILD_TYPE=Debug -DOA_SANITIZE=ON || status=1
fi
# clang: the tree with ASan + UBSan and libFuzzer coverage (OA_FUZZ), for
# what only clang's sanitizers see (e.g. arithmetic on a null pointer): the
# hostile-input regression tests, a bounded run of every fuzz target
# (docs/fuzzing.md) and the ONNX suites judged against
# tests/onnx_suite/expected.tsv as in the release build. Skipped with
# OA_SKIP_CLANG=1.
if [[ "${OA_SKIP_SANITIZERS:-0}" != 1 && "${OA_SKIP_CLANG:-0}" != 1 ]] && command -v clang >/dev/null; then
  echo "=== clang-fuzz: configure and build"
  if CC=clang CXX=clang++ cmake -S . -B build/clang-fuzz -DCMAKE_INSTALL_PREFIX="$PWD/build/clang-fuzz/prefix" \
       -DCMAKE_BUILD_TYPE=Debug -DOA_SANITIZE=ON -DOA_FUZZ=ON -DOA_FUZZ_SECONDS=15 -DOA_FUZZ_RUN_SECONDS=15 \
       >/dev/null && cmake --build build/clang-fuzz -j"$JOBS"; then
    echo "=== clang-fuzz: ctest -L 'hostile|fuzz|onnx_suite'"
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      ctest --test-dir build/clang-fuzz -L 'hostile|fuzz|onnx_suite' -j"$JOBS" --output-on-failure --timeout 900 \
      || status=1
    prune_test_data build/clang-fuzz
  else
    status=1
  fi
fi
exit $status

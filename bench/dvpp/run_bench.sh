#!/usr/bin/env bash
# Runs bench_dvpp on one core (taskset) from a build directory (default build/release).
set -euo pipefail
BUILD=${1:-build/release}
cmake --build "$BUILD" --target bench_dvpp -j2 >/dev/null
ASCEND_GLOBAL_LOG_LEVEL=3 taskset -c 0 "$BUILD/bench/dvpp/bench_dvpp"

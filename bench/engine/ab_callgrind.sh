#!/bin/sh
# Per-execution instruction counts of two libascendcl builds (valgrind
# callgrind, only inside aclmdlExecute, 1 thread): the noise-free side of the
# A/B in bench/RESULTS.md. Per model and build, one oa_run process (one
# warm-up, one timed execution) with a callgrind dump after each
# aclmdlExecute: the second dump is the second execution alone, so load, the
# first execution and one-time work are left out. Besides the totals, the
# self cost of the engine's own code (the run loop, the record functions,
# binding / patching, model_v1's run entry; ENGINE_RE) shows what the engine
# costs per execution, apart from the kernels and from malloc's heap state.
#   bench/engine/ab_callgrind.sh OA_RUN LIB_A LIB_B OM_DIR DATA_DIR [MODELS]
set -e
RUN=${1:?oa_run}; LA=${2:?lib A}; LB=${3:?lib B}; OM=${4:?om dir}; D=${5:?data dir}
MODELS=${6:-"det rec cls resnet50 bert yolo"}
IN=$D/inputs
OUT=${OA_CG_OUT:-$(mktemp -d)}
export ASCEND_GLOBAL_LOG_LEVEL=3 OPENACL_NUM_THREADS=1
inputs() {
  case $1 in
    det) echo "$IN/det_x.bin" ;; rec) echo "$IN/rec_x.bin" ;; cls) echo "$IN/cls_x.bin" ;;
    resnet50) echo "$IN/resnet_x.bin" ;; yolo) echo "$IN/yolo_x.bin" ;;
    bert) echo "$IN/bert_ids.bin,$IN/bert_mask.bin,$IN/bert_type.bin" ;;
  esac
}
ENGINE_RE=${ENGINE_RE:-'^(run_range|run_observed|observe_task|oa_v1_task_|oa_prog_|oa_v1_run)'}
HERE=$(cd "$(dirname "$0")" && pwd)
ir() { # lib model -> "total engine" Ir of the second aclmdlExecute
  f=$OUT/cg.$(basename "$2").$$
  LD_LIBRARY_PATH=$1 valgrind --tool=callgrind --collect-atstart=no --toggle-collect=aclmdlExecute \
    --dump-after=aclmdlExecute --callgrind-out-file="$f" \
    "$RUN" --model "$OM/$2.om" --input "$(inputs "$2")" --loop 1 --warmup 1 > /dev/null 2>&1
  python3 "$HERE/cg_self.py" "$f.2" "$ENGINE_RE"
  rm -f "$f" "$f".*
}
echo "| model | A Ir per execution | B Ir per execution | B - A | B/A | A engine Ir | B engine Ir |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for m in $MODELS; do
  a=$(ir "$LA" $m); b=$(ir "$LB" $m)
  python3 -c "a, ae = $(echo $a | tr ' ' ','); b, be = $(echo $b | tr ' ' ',')
print('| $m | %d | %d | %+d | %.6f | %d | %d |' % (a, b, b - a, b / a, ae, be))"
done

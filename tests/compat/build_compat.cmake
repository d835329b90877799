# cmake -DSRC= -DBIN= -DPREFIX= -DFLAGS= -P build_compat.cmake
execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${SRC} -B ${BIN} -DACL_ROOT=${PREFIX} -DCMAKE_BUILD_TYPE=RelWithDebInfo
          "-DCMAKE_C_FLAGS=${FLAGS}" "-DCMAKE_CXX_FLAGS=${FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${FLAGS}"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring compat_tests against ${PREFIX} failed")
endif()
include(ProcessorCount)
ProcessorCount(n)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BIN} -j${n} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building compat_tests against ${PREFIX} failed")
endif()

# The capture tests under ThreadSanitizer (ctest entry tsan_capture): configures a
# build tree of its own with -DOA_TSAN=ON, builds only the capture test programs
# (and the V1 models they load), and runs them there.
#   cmake -DSRC=<source dir> -DBIN=<tsan build dir> -P tsan_capture.cmake
cmake_host_system_information(RESULT jobs QUERY NUMBER_OF_LOGICAL_CORES)
set(targets test_capture_internal test_capture test_capture_replay test_capture_models gen_v1_models)
foreach(step configure build test)
  if(step STREQUAL "configure")
    set(cmd ${CMAKE_COMMAND} -S ${SRC} -B ${BIN} -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOA_TSAN=ON)
  elseif(step STREQUAL "build")
    set(cmd ${CMAKE_COMMAND} --build ${BIN} -j ${jobs} --target ${targets})
  else()
    set(cmd ${CMAKE_CTEST_COMMAND} --test-dir ${BIN} --output-on-failure -R "^(test_capture.*|v1_models_.*)$")
  endif()
  execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "tsan_capture: ${step} failed (${rc}):\n${out}")
  endif()
  if(step STREQUAL "test")
    message("${out}")
  endif()
endforeach()

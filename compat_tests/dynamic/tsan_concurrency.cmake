# The concurrency check under ThreadSanitizer, from an ordinary (release)
# build: libascendcl is rebuilt with -fsanitize=thread in BUILD/tsan, the
# ThreadSanitizer tree tsan_capture uses too (configured the same way; the
# library target only, incremental on later runs), the
# concurrency program is compiled against it, then run on the model and
# references of the dyn_* fixtures. Any report fails the run.
#   cmake -DSRC= -DBIN= -DCC= -DJOBS= -DARGS=<arguments joined with |> -P tsan_concurrency.cmake
string(REPLACE "|" ";" ARGS "${ARGS}")
set(lib ${BIN})
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SRC} -B ${lib} -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOA_TSAN=ON
                OUTPUT_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the ThreadSanitizer build of ${SRC} failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${lib} --target ascendcl -j ${JOBS} OUTPUT_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building libascendcl with ThreadSanitizer failed")
endif()
set(libdir ${lib}/src/libascendcl)
execute_process(COMMAND ${CC} -std=c11 -O1 -g -fsanitize=thread -I${SRC}/include
                        ${SRC}/compat_tests/dynamic/dyn_concurrency.c -o ${BIN}/dyn_concurrency_tsan
                        -L${libdir} -Wl,-rpath,${libdir} -lascendcl -lpthread -lm
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building dyn_concurrency with ThreadSanitizer failed")
endif()
set(ENV{TSAN_OPTIONS} "halt_on_error=1:exitcode=66:second_deadlock_stack=1")
execute_process(COMMAND ${BIN}/dyn_concurrency_tsan ${ARGS} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dyn_concurrency under ThreadSanitizer exited with ${rc}")
endif()

# Fuzz targets over the whole library (OA_FUZZ: clang, OA_SANITIZE, every
# source instrumented with -fsanitize=fuzzer-no-link; cmake/OaSanitizers.cmake).
# Each has a bounded CTest run (label "fuzz", OA_FUZZ_SECONDS) on a seed
# corpus made at test time; scripts/fuzz_campaign.sh runs the long campaign
# (docs/fuzzing.md).
#   fuzz_mdl_exec   aclmdlLoadFromMem -> aclmdlGetDesc -> aclmdlExecute -> aclmdlUnload (public API)
#   fuzz_json       aclInit/acl.json, dump, profiler, single-op JSON, meta.json, value_bins
#   fuzz_onnx_om    ONNX import -> compile -> .om write -> read back
#   fuzz_aipp_config  atc --insert_op_conf text -> model input -> the AIPP kernel on a small image
#   fuzz_aipp_block   dynamic AIPP parameter block + images -> oa_aipp_run_dynamic
#   fuzz_dvpp_api     acldvppJpegDecodeAsync / acldvppPngDecodeAsync / aclvdecSendFrame (H.264, H.265)
include(${CMAKE_CURRENT_SOURCE_DIR}/fuzz_suite_cases.cmake)
set(OA_FUZZ_RUN_SECONDS 20 CACHE STRING "Length in seconds of each bounded fuzz run of the OA_FUZZ targets")
set(suite /usr/share/libonnx-testdata/data/node)
set(fz ${CMAKE_CURRENT_BINARY_DIR})
string(JOIN "|" cases ${OA_FUZZ_SUITE_CASES})
set(fenv "ASCEND_GLOBAL_LOG_LEVEL=4;ASCEND_PROCESS_LOG_PATH=${CMAKE_BINARY_DIR}/test-logs;ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1")

# libascendcl's parts linked statically (the JSON readers are internal functions)
get_property(parts GLOBAL PROPERTY OA_LIBASCENDCL_PARTS)
get_target_property(ascendcl_bin ascendcl BINARY_DIR)
get_target_property(ascendcl_src ascendcl SOURCE_DIR)
set_source_files_properties(${ascendcl_bin}/api_stubs.c PROPERTIES GENERATED TRUE
  COMPILE_OPTIONS "-Wno-unused-parameter;-Wno-deprecated-declarations")

add_executable(fuzz_mdl_exec fuzz_mdl_exec.c)
target_link_libraries(fuzz_mdl_exec PRIVATE ascendcl)
target_include_directories(fuzz_mdl_exec PRIVATE ${OA_PUBLIC_INCLUDE})

add_executable(fuzz_json fuzz_json.c ${ascendcl_bin}/api_stubs.c ${ascendcl_src}/builtins.c)
add_dependencies(fuzz_json ascendcl)
target_compile_definitions(fuzz_json PRIVATE FUNC_VISIBILITY _GNU_SOURCE)
target_include_directories(fuzz_json PRIVATE ${OA_PUBLIC_INCLUDE} ${OA_SRC_DIR} ${ascendcl_src})
# every object of every part (as libascendcl takes them), then the parts as plain archives for their DEPS
foreach(p IN LISTS parts)
  if(NOT p STREQUAL "oa_base")
    target_sources(fuzz_json PRIVATE $<TARGET_OBJECTS:${p}>)
  endif()
endforeach()
target_link_libraries(fuzz_json PRIVATE ${parts} oa_file_constant PkgConfig::CJSON)

add_executable(fuzz_onnx_om fuzz_onnx_om.c ${PROJECT_SOURCE_DIR}/tools/atc/atc_om.c)
target_compile_definitions(fuzz_onnx_om PRIVATE _GNU_SOURCE)
target_include_directories(fuzz_onnx_om PRIVATE ${OA_SRC_DIR} ${PROJECT_SOURCE_DIR}/tools/atc)
target_link_libraries(fuzz_onnx_om PRIVATE oa_compiler oa_onnx oa_om_ir oa_om oa_file_constant oa_base)

# AIPP: the config reader (its source) and the kernel library with the dynamic parameter block decoder
add_executable(fuzz_aipp_config fuzz_aipp_config.c ${OA_SRC_DIR}/compiler/aipp_config.c)
add_executable(fuzz_aipp_block fuzz_aipp_block.c)
foreach(t fuzz_aipp_config fuzz_aipp_block)
  target_compile_definitions(${t} PRIVATE _GNU_SOURCE)
  target_include_directories(${t} PRIVATE ${OA_SRC_DIR})
  target_link_libraries(${t} PRIVATE oa_kernels oa_base m)
endforeach()

# DVPP decoders through the public API; seeds made with libjpeg-turbo, libpng and libavcodec's encoders
add_executable(fuzz_dvpp_api fuzz_dvpp_api.c)
target_link_libraries(fuzz_dvpp_api PRIVATE ascendcl pthread)
target_include_directories(fuzz_dvpp_api PRIVATE ${OA_PUBLIC_INCLUDE})
pkg_check_modules(OA_FUZZ_AVCODEC REQUIRED IMPORTED_TARGET libavcodec libavutil)
add_executable(dvpp_api_fuzz_seeds dvpp_api_fuzz_seeds.c)
oa_target_warnings(dvpp_api_fuzz_seeds)
target_link_libraries(dvpp_api_fuzz_seeds PRIVATE turbojpeg png16 PkgConfig::OA_FUZZ_AVCODEC)

foreach(t fuzz_mdl_exec fuzz_json fuzz_onnx_om fuzz_aipp_config fuzz_aipp_block fuzz_dvpp_api)
  oa_target_warnings(${t})
  target_link_options(${t} PRIVATE -fsanitize=fuzzer)
endforeach()

# seeds: the ONNX suite's models (and their atc output), the hostile and v1 fixtures' .om files
add_test(NAME fuzz_seeds_suite_onnx
  COMMAND ${CMAKE_COMMAND} -DSUITE=${suite} -DOUT=${fz}/seeds/suite_onnx -DCASES=${cases}
          -P ${CMAKE_CURRENT_SOURCE_DIR}/suite_seeds.cmake)
add_test(NAME fuzz_seeds_suite_om
  COMMAND ${CMAKE_COMMAND} -DSUITE=${suite} -DOUT=${fz}/seeds/suite_om -DCASES=${cases}
          -DATC=$<TARGET_FILE:atc> -P ${CMAKE_CURRENT_SOURCE_DIR}/suite_seeds.cmake)
set_tests_properties(fuzz_seeds_suite_onnx fuzz_seeds_suite_om PROPERTIES FIXTURES_SETUP fuzz_suite_seeds
  LABELS "fuzz" ENVIRONMENT "${fenv}")

add_test(NAME fuzz_mdl_exec
  COMMAND ${CMAKE_COMMAND} -DFUZZER=$<TARGET_FILE:fuzz_mdl_exec> -DDIR=${fz}/run_mdl_exec
          -DSECONDS=${OA_FUZZ_RUN_SECONDS} -DSEED_GLOB=*.om
          "-DSEED_DIRS=${fz}/seeds/suite_om|${CMAKE_BINARY_DIR}/test-data/hostile|${CMAKE_BINARY_DIR}/test-data/v1|${CMAKE_BINARY_DIR}/test-data/v1/fcw"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/run_fuzz_corpus.cmake)
set_tests_properties(fuzz_mdl_exec PROPERTIES FIXTURES_REQUIRED "fuzz_suite_seeds;hostile_models;v1_models")
add_test(NAME fuzz_json
  COMMAND ${CMAKE_COMMAND} -DFUZZER=$<TARGET_FILE:fuzz_json> -DDIR=${fz}/run_json -DSECONDS=${OA_FUZZ_RUN_SECONDS}
          "-DSEED_CMD=${Python3_EXECUTABLE}|${CMAKE_CURRENT_SOURCE_DIR}/gen_json_seeds.py" -DMAX_LEN=4096
          -P ${CMAKE_CURRENT_SOURCE_DIR}/run_fuzz_corpus.cmake)
add_test(NAME fuzz_onnx_om
  COMMAND ${CMAKE_COMMAND} -DFUZZER=$<TARGET_FILE:fuzz_onnx_om> -DDIR=${fz}/run_onnx_om
          -DSECONDS=${OA_FUZZ_RUN_SECONDS} -DSEED_GLOB=*.onnx
          "-DSEED_DIRS=${fz}/seeds/suite_onnx|${CMAKE_BINARY_DIR}/test-data/hostile" -DMAX_LEN=65536
          -P ${CMAKE_CURRENT_SOURCE_DIR}/run_fuzz_corpus.cmake)
set_tests_properties(fuzz_onnx_om PROPERTIES FIXTURES_REQUIRED "fuzz_suite_seeds;hostile_models")
foreach(k config block)
  add_test(NAME fuzz_aipp_${k}
    COMMAND ${CMAKE_COMMAND} -DFUZZER=$<TARGET_FILE:fuzz_aipp_${k}> -DDIR=${fz}/run_aipp_${k}
            -DSECONDS=${OA_FUZZ_RUN_SECONDS} "-DSEED_CMD=${Python3_EXECUTABLE}|${CMAKE_CURRENT_SOURCE_DIR}/gen_aipp_seeds.py|${k}"
            -DMAX_LEN=8192 -P ${CMAKE_CURRENT_SOURCE_DIR}/run_fuzz_corpus.cmake)
endforeach()
add_test(NAME fuzz_dvpp_api
  COMMAND ${CMAKE_COMMAND} -DFUZZER=$<TARGET_FILE:fuzz_dvpp_api> -DDIR=${fz}/run_dvpp_api
          -DSECONDS=${OA_FUZZ_RUN_SECONDS} -DSEED_CMD=$<TARGET_FILE:dvpp_api_fuzz_seeds> -DMAX_LEN=65536
          -P ${CMAKE_CURRENT_SOURCE_DIR}/run_fuzz_corpus.cmake)
math(EXPR fuzz_timeout "${OA_FUZZ_RUN_SECONDS} + 600")
set_tests_properties(fuzz_mdl_exec fuzz_json fuzz_onnx_om fuzz_aipp_config fuzz_aipp_block fuzz_dvpp_api PROPERTIES TIMEOUT ${fuzz_timeout} LABELS "fuzz"
  ENVIRONMENT "${fenv}")

# the seed step's libx265 keeps one allocation past encoder close (as in tests/unit/dvpp)
set_property(TEST fuzz_dvpp_api APPEND PROPERTY ENVIRONMENT
  "LSAN_OPTIONS=suppressions=${PROJECT_SOURCE_DIR}/tests/unit/dvpp/lsan_x265.supp:print_suppressions=0")

# Reproducers of past findings (tests/fuzz/regressions/<target>/), each replayed once by its target.
foreach(t mdl_exec json onnx_om aipp_config aipp_block dvpp_api)
  file(GLOB repro ${CMAKE_CURRENT_SOURCE_DIR}/regressions/${t}/*)
  list(FILTER repro EXCLUDE REGEX "/README\\.md$")
  if(repro)
    add_test(NAME fuzz_${t}_regressions COMMAND fuzz_${t} -rss_limit_mb=2048 -malloc_limit_mb=1024 ${repro}
             WORKING_DIRECTORY ${fz})
    set_tests_properties(fuzz_${t}_regressions PROPERTIES LABELS "fuzz" ENVIRONMENT "${fenv}" TIMEOUT 300)
  endif()
endforeach()

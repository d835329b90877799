# Sanitizer builds apply to every target of the tree (library, tools, tests).
if(OA_SANITIZE AND OA_TSAN)
  message(FATAL_ERROR "OA_SANITIZE and OA_TSAN are mutually exclusive")
endif()
if(OA_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
if(OA_TSAN)
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
endif()

# OA_FUZZ: libFuzzer coverage on every target (clang and OA_SANITIZE only);
# tests/fuzz then builds the library-wide fuzz targets (docs/fuzzing.md).
option(OA_FUZZ "Instrument the tree for libFuzzer and build tests/fuzz's library-wide targets (clang, OA_SANITIZE)" OFF)
if(OA_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID STREQUAL "Clang" OR NOT OA_SANITIZE)
    message(FATAL_ERROR "OA_FUZZ needs CC=clang and -DOA_SANITIZE=ON")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

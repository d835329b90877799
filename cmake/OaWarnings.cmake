# Warning set for project code: C11, everything on, warnings are errors.
set(OA_C_WARNINGS
  -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
  -Wcast-qual -Wpointer-arith -Wformat=2 -Wundef -Wvla
  -Werror=implicit-function-declaration)

# oa_target_warnings(<target>): apply the project warning set to C sources.
function(oa_target_warnings tgt)
  target_compile_options(${tgt} PRIVATE $<$<COMPILE_LANGUAGE:C>:${OA_C_WARNINGS}>)
  target_compile_options(${tgt} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Werror>)
endfunction()

# oa_add_library(<name> SOURCES ... [DEPS ...]): one static, PIC library per
# src/ folder. Library code is built with hidden visibility; only the ACL
# entry points (marked ACL_FUNC_VISIBILITY, FUNC_VISIBILITY defined) escape.
function(oa_add_library name)
  cmake_parse_arguments(A "" "" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(${name} STATIC ${A_SOURCES})
  oa_target_warnings(${name})
  target_compile_definitions(${name} PRIVATE FUNC_VISIBILITY _GNU_SOURCE)
  target_compile_options(${name} PRIVATE -fvisibility=hidden)
  target_include_directories(${name} PUBLIC ${OA_PUBLIC_INCLUDE} ${OA_SRC_DIR})
  if(A_DEPS)
    target_link_libraries(${name} PUBLIC ${A_DEPS})
  endif()
  if(A_PRIVATE_DEPS)
    target_link_libraries(${name} PRIVATE ${A_PRIVATE_DEPS})
  endif()
endfunction()

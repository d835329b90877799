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

# oa_add_library(<name> SOURCES ... [DEPS ...] [PRIVATE_DEPS ...]): one
# static, PIC library per src/ folder. Library code is built with hidden
# visibility; only the ACL entry points (marked ACL_FUNC_VISIBILITY,
# FUNC_VISIBILITY defined) escape.
#
# Layers the compiler enforces: the library does not see src/ as a whole.
# Its include root, <build>/oa_include/<name>/, holds one link, <folder> ->
# src/<folder>, so `#include "<folder>/x.h"` works for its own folder only.
# That root is a PUBLIC include directory, so the folders a library may
# include are its own plus those of its DEPS (PUBLIC: also visible to the
# libraries that link it, for headers that include them) and PRIVATE_DEPS
# (its .c files only), transitively through PUBLIC DEPS. Including any
# other folder fails to compile ("No such file or directory"); see
# docs/conventions.md "Layers" and the ctest layers_illegal_include.
function(oa_add_library name)
  cmake_parse_arguments(A "" "" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(${name} STATIC ${A_SOURCES})
  oa_target_warnings(${name})
  target_compile_definitions(${name} PRIVATE FUNC_VISIBILITY _GNU_SOURCE)
  target_compile_options(${name} PRIVATE -fvisibility=hidden)
  file(RELATIVE_PATH rel ${OA_SRC_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
  string(REGEX REPLACE "/.*" "" folder "${rel}")
  if(folder STREQUAL "" OR folder MATCHES "^\\.\\.")
    message(FATAL_ERROR "oa_add_library(${name}): ${CMAKE_CURRENT_SOURCE_DIR} is not under ${OA_SRC_DIR}")
  endif()
  set(root ${CMAKE_BINARY_DIR}/oa_include/${name})
  file(MAKE_DIRECTORY ${root})
  if(NOT IS_SYMLINK ${root}/${folder})
    file(CREATE_LINK ${OA_SRC_DIR}/${folder} ${root}/${folder} SYMBOLIC)
  endif()
  set_property(TARGET ${name} PROPERTY OA_FOLDER ${folder})
  set_property(GLOBAL APPEND PROPERTY OA_LIBRARIES ${name})
  target_include_directories(${name} PUBLIC ${OA_PUBLIC_INCLUDE} ${root})
  if(A_DEPS)
    target_link_libraries(${name} PUBLIC ${A_DEPS})
  endif()
  if(A_PRIVATE_DEPS)
    target_link_libraries(${name} PRIVATE ${A_PRIVATE_DEPS})
  endif()
endfunction()

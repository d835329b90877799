# Header compile check, run by ctest in script mode:
#   cmake -DCOMPILER=<cc> -DLANG=C|CXX -DSTD=<c99|c11|c++11|c++17> -DINCLUDE=<dir containing acl/>
#         -DHEADERS=<a.h;b.h;...> -DWORK=<scratch dir> -P compile_headers.cmake
# Compiles one translation unit per public header (each included twice, so
# include guards are exercised), one with every header together, and one with
# every header together as the library sees them (FUNC_VISIBILITY defined),
# with -Wall -Wextra -Werror (plus -Wstrict-prototypes for C). Fails listing
# each translation unit that does not compile cleanly.
foreach(v COMPILER LANG STD INCLUDE HEADERS WORK)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "compile_headers.cmake: -D${v}=... is required")
  endif()
endforeach()

if(LANG STREQUAL "C")
  set(ext c)
  set(flags -Wall -Wextra -Werror -Wstrict-prototypes)
else()
  set(ext cpp)
  set(flags -Wall -Wextra -Werror)
endif()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

set(units)
set(all_includes "")
foreach(h IN LISTS HEADERS)
  string(MAKE_C_IDENTIFIER "${h}" id)
  file(WRITE ${WORK}/${id}.${ext} "#include \"${h}\"\n#include \"${h}\"\nint oa_header_check_${id};\n")
  list(APPEND units ${WORK}/${id}.${ext})
  string(APPEND all_includes "#include \"${h}\"\n")
endforeach()
file(WRITE ${WORK}/all_headers.${ext} "${all_includes}int oa_header_check_all;\n")
file(WRITE ${WORK}/all_headers_library.${ext}
     "#define FUNC_VISIBILITY\n${all_includes}int oa_header_check_all_library;\n")
list(APPEND units ${WORK}/all_headers.${ext} ${WORK}/all_headers_library.${ext})

set(failed 0)
foreach(u IN LISTS units)
  execute_process(COMMAND ${COMPILER} -std=${STD} ${flags} -I${INCLUDE} -fsyntax-only ${u}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    math(EXPR failed "${failed} + 1")
    file(READ ${u} src)
    message("FAILED: ${COMPILER} -std=${STD} on\n${src}${out}")
  endif()
endforeach()
list(LENGTH units n)
if(failed GREATER 0)
  message(FATAL_ERROR "${failed} of ${n} translation units failed (${COMPILER} -std=${STD})")
endif()
message(STATUS "${n} translation units compiled cleanly (${COMPILER} -std=${STD})")

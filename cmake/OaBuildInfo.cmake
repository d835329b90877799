# Which openacl build this is, recorded at configure time so that logs and
# bug reports can name it: OA_BUILD_VERSION (the project version) and
# OA_GIT_COMMIT (12 hex digits of HEAD, "unknown" outside a git checkout).
# Re-runs when HEAD moves (a commit or a checkout reconfigures).
set(OA_BUILD_VERSION ${PROJECT_VERSION})
set(OA_GIT_COMMIT unknown)
find_program(OA_GIT git)
if(OA_GIT)
  execute_process(COMMAND ${OA_GIT} -C ${PROJECT_SOURCE_DIR} rev-parse --short=12 HEAD
                  OUTPUT_VARIABLE _oa_head OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _oa_rc)
  if(_oa_rc EQUAL 0 AND _oa_head MATCHES "^[0-9a-f]+$")
    set(OA_GIT_COMMIT ${_oa_head})
  endif()
  execute_process(COMMAND ${OA_GIT} -C ${PROJECT_SOURCE_DIR} rev-parse --absolute-git-dir
                  OUTPUT_VARIABLE _oa_gitdir OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _oa_rc)
  if(_oa_rc EQUAL 0 AND EXISTS ${_oa_gitdir}/logs/HEAD)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_oa_gitdir}/logs/HEAD)
  endif()
endif()

# <prefix>/share/info/*/version.info: CANN's lines (the values CANN's getters
# report) followed by openacl's own.
file(READ ${PROJECT_SOURCE_DIR}/cmake/install/version.info _oa_cann_info)
set(OA_VERSION_INFO ${CMAKE_BINARY_DIR}/version.info)
file(CONFIGURE OUTPUT ${OA_VERSION_INFO}
     CONTENT "${_oa_cann_info}openacl_version=${OA_BUILD_VERSION}\nopenacl_commit=${OA_GIT_COMMIT}\n" @ONLY)
message(STATUS "openacl ${OA_BUILD_VERSION}, commit ${OA_GIT_COMMIT}")

# Install prefix laid out like a CANN toolkit so that application build
# scripts (ASCEND_HOME_PATH, DDK_PATH/NPU_HOST_LIB, INSTALL_DIR,
# ASCEND_CANN_PACKAGE_PATH) work unchanged. See README "Install prefix".
set(OA_ALIAS_LIBS acl_rt acl_mdl acl_rt_impl acl_op_compiler acl_cblas acl_dvpp
    acl_tdt_channel acl_tdt_queue msprofiler profapi)

install(TARGETS ascendcl LIBRARY DESTINATION lib64)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/acl DESTINATION include)
install(PROGRAMS ${PROJECT_SOURCE_DIR}/cmake/install/set_env.sh DESTINATION .)
install(PROGRAMS ${PROJECT_SOURCE_DIR}/cmake/install/setenv.bash DESTINATION bin)
install(FILES ${PROJECT_SOURCE_DIR}/cmake/install/ascendc.cmake DESTINATION tikcpp/ascendc_kernel_cmake)
install(FILES ${OA_VERSION_INFO} DESTINATION share/info/runtime)
install(FILES ${OA_VERSION_INFO} DESTINATION share/info/compiler)
install(FILES ${OA_VERSION_INFO} DESTINATION share/info/toolkit)
install(FILES ${OA_VERSION_INFO} DESTINATION share/info/opp)
install(FILES ${OA_VERSION_INFO} DESTINATION share/info/cann)
# directory names aclsysGetCANNVersion looks up (CANN's package names)
foreach(pkg bisheng-compiler hccl oam-tools ops-legacy)
  install(FILES ${OA_VERSION_INFO} DESTINATION share/info/${pkg})
endforeach()

# Symlinks: the other library names apps link, and the directory aliases.
install(CODE "
  set(P \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}\")
  function(oa_link target name)
    get_filename_component(dir \"\${name}\" DIRECTORY)
    file(MAKE_DIRECTORY \"\${dir}\")
    if(IS_SYMLINK \"\${name}\" OR EXISTS \"\${name}\")
      file(REMOVE_RECURSE \"\${name}\")
    endif()
    file(CREATE_LINK \"\${target}\" \"\${name}\" SYMBOLIC)
  endfunction()
  foreach(l ${OA_ALIAS_LIBS})
    oa_link(libascendcl.so \"\${P}/lib64/lib\${l}.so\")
  endforeach()
  oa_link(. \"\${P}/lib64/stub\")
  oa_link(lib64 \"\${P}/devlib\")
  foreach(d runtime acllib compiler atc x86_64-linux)
    oa_link(../include \"\${P}/\${d}/include\")
    oa_link(../lib64 \"\${P}/\${d}/lib64\")
  endforeach()
")

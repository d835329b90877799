# The compat programs. Included by compat_tests/CMakeLists.txt (which builds
# them against the installed prefix) and by tests/compat/CMakeLists.txt of the
# main project (which registers one ctest entry per program).
# oa_compat_program(<name> SOURCES <files relative to compat_tests/> [STYLE home|runtime]
#                   [LIBS ...] [ARGS ...] [LABELS ...])

oa_compat_program(rt_smoke SOURCES runtime/rt_smoke.c STYLE runtime LIBS acl_rt)

# The compat programs. Included by compat_tests/CMakeLists.txt (which builds
# them against the installed prefix) and by tests/compat/CMakeLists.txt of the
# main project (which registers one ctest entry per program).
# oa_compat_program(<name> SOURCES <files relative to compat_tests/> [STYLE home|runtime]
#                   [LIBS ...] [ARGS ...] [LABELS ...])

oa_compat_program(rt_smoke SOURCES runtime/rt_smoke.c STYLE runtime LIBS acl_rt)

# Runtime core (devices, contexts, streams, events, memory, callbacks, allocators).
oa_compat_program(rt_device_context SOURCES runtime/rt_device_context.c)
oa_compat_program(rt_multithread_contexts SOURCES runtime/rt_multithread_contexts.cpp)
oa_compat_program(rt_stream_event_order SOURCES runtime/rt_stream_event_order.c STYLE runtime)
oa_compat_program(rt_async_pipeline SOURCES runtime/rt_async_pipeline.c)
oa_compat_program(rt_callback_thread SOURCES runtime/rt_callback_thread.cpp STYLE runtime LIBS acl_rt)
oa_compat_program(rt_external_allocator SOURCES runtime/rt_external_allocator.c)

# Stream capture and replay (aclmdlRI*).
oa_compat_program(capture_replay SOURCES capture/capture_replay.c)

# Dynamic-shape models (the V2 executor): det/rec/cls/VAD against ONNX Runtime,
# concurrency, the OCR sample (compat_tests/dynamic/dynamic.cmake).
include(${CMAKE_CURRENT_LIST_DIR}/dynamic/dynamic.cmake)

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

# Runtime features as CANN's runtime examples use them (compat_tests/runtime/cann): stream config handles,
# reduce and random-number tasks, a TDT channel between threads, IPC events and IPC memory between two processes
# (run_pair starts both programs at once, as the examples' run.sh does).
oa_compat_program(rt_stream_config_query SOURCES runtime/cann/stream_config_query.cpp)
oa_compat_program(rt_reduce_task SOURCES runtime/cann/reduce_task.c)
oa_compat_program(rt_random_num_task SOURCES runtime/cann/random_num_task.cpp)
oa_compat_program(rt_tdt_channel SOURCES runtime/cann/tdt_channel.cpp)
oa_compat_program(rt_run_pair SOURCES runtime/cann/run_pair.c NO_TEST)
oa_compat_program(rt_ipc_event_a SOURCES runtime/cann/ipc_event_a.cpp NO_TEST)
oa_compat_program(rt_ipc_event_b SOURCES runtime/cann/ipc_event_b.cpp NO_TEST)
oa_compat_test(rt_ipc_event PROGRAM rt_run_pair ARGS ${OA_COMPAT_BUILD}/rt_ipc_event_a ${OA_COMPAT_BUILD}/rt_ipc_event_b)
oa_compat_program(rt_ipc_mem_a SOURCES runtime/cann/ipc_mem_a.cpp NO_TEST)
oa_compat_program(rt_ipc_mem_b SOURCES runtime/cann/ipc_mem_b.cpp NO_TEST)
oa_compat_test(rt_ipc_memory PROGRAM rt_run_pair ARGS ${OA_COMPAT_BUILD}/rt_ipc_mem_a ${OA_COMPAT_BUILD}/rt_ipc_mem_b)

# Stream capture and replay (aclmdlRI*).
oa_compat_program(capture_replay SOURCES capture/capture_replay.c)

# Models (compat_tests/models): .om files made by the installed atc, results
# checked against ONNX Runtime on the same inputs. The data come from
# tests/models/CMakeLists.txt (fixtures model_om_<m>, model_ref_<m>,
# models_inputs); OA_MODELS_DATA is only set when tests/compat registers runs.
set(_md ${OA_MODELS_DATA})
macro(_mdl_fix m)
  set(_fx "models_inputs;model_om_${m};model_ref_${m}")
endmacro()

oa_compat_program(mdl_classify SOURCES models/mdl_classify.c LIBS ascendcl m NO_TEST)
foreach(m resnet50 cls cls_plain)
  _mdl_fix(${m})
  set(_in ${_md}/inputs/cls_x.bin)
  if(m STREQUAL "resnet50")
    set(_in ${_md}/inputs/resnet_x.bin)
  endif()
  oa_compat_test(mdl_classify_${m} PROGRAM mdl_classify ARGS ${_md}/om/${m}.om ${_in} ${_md}/ref/${m}
                 FIXTURES ${_fx} LABELS models)
endforeach()
_mdl_fix(cls_fp16)
oa_compat_test(mdl_classify_cls_fp16 PROGRAM mdl_classify
               ARGS ${_md}/om/cls_fp16.om ${_md}/inputs/cls_x_f16.bin ${_md}/ref/cls_fp16 FIXTURES ${_fx} LABELS models)

oa_compat_program(mdl_withmem SOURCES models/mdl_withmem.c LIBS ascendcl m NO_TEST)
_mdl_fix(rec)
oa_compat_test(mdl_withmem_rec PROGRAM mdl_withmem ARGS ${_md}/om/rec.om ${_md}/inputs/rec_x.bin ${_md}/ref/rec
               FIXTURES ${_fx} LABELS models)

_mdl_fix(cls_dyn)
oa_compat_program(mdl_dynamic_batch SOURCES models/mdl_dynamic_batch.c LIBS ascendcl m
                  ARGS ${_md}/om/cls_dyn.om ${_md}/inputs ${_md}/ref/cls_dyn FIXTURES ${_fx} LABELS models)

oa_compat_program(mdl_async_callback SOURCES models/mdl_async_callback.cpp LIBS ascendcl m NO_TEST)
_mdl_fix(cls)
oa_compat_test(mdl_async_callback_cls PROGRAM mdl_async_callback
               ARGS ${_md}/om/cls.om ${_md}/inputs/cls_x.bin ${_md}/ref/cls 8 FIXTURES ${_fx} LABELS models)

# Capture and replay of a model execution (aclmdlRI*) against ONNX Runtime; the dynamic cls below.
oa_compat_program(mdl_capture SOURCES models/mdl_capture.c LIBS ascendcl m NO_TEST)
_mdl_fix(cls)
oa_compat_test(mdl_capture_cls PROGRAM mdl_capture ARGS ${_md}/om/cls.om ${_md}/inputs/cls_x.bin ${_md}/ref/cls
               FIXTURES ${_fx} LABELS models)

# The installed runner <prefix>/bin/oa_run (tools/oa_run, msame's command line): every model
# against ONNX Runtime, and compat_tests/tools/check_oa_run.py for msame's output layout,
# TXT format, timing lines, input folders and the command-line errors.
set(_oa_run ${OA_COMPAT_PREFIX}/bin/oa_run)
set(_oa_check ${CMAKE_CURRENT_LIST_DIR}/tools/check_oa_run.py ${_oa_run})
_mdl_fix(det)
oa_compat_test(oa_run_det PROGRAM ${_oa_run} ARGS --model ${_md}/om/det.om --input ${_md}/inputs/det_x.bin
               --compare ${_md}/ref/det FIXTURES ${_fx} LABELS models)
_mdl_fix(rec)
oa_compat_test(oa_run_rec PROGRAM ${_oa_run} ARGS --model ${_md}/om/rec.om --input ${_md}/inputs/rec_x.bin
               --compare ${_md}/ref/rec --load mem --async FIXTURES ${_fx} LABELS models)
_mdl_fix(cls)
oa_compat_test(oa_run_cls_async_v2 PROGRAM ${_oa_run} ARGS --model ${_md}/om/cls.om --input ${_md}/inputs/cls_x.bin
               --compare ${_md}/ref/cls --asyncV2 --loop 3 FIXTURES ${_fx} LABELS models)
_mdl_fix(yolo)
oa_compat_test(oa_run_yolo PROGRAM ${_oa_run} ARGS --model ${_md}/om/yolo.om --input ${_md}/inputs/yolo_x.bin
               --compare ${_md}/ref/yolo --load withmem FIXTURES ${_fx} LABELS models)
_mdl_fix(bert)
oa_compat_test(oa_run_bert PROGRAM ${_oa_run} ARGS --model ${_md}/om/bert.om
               --input ${_md}/inputs/bert_ids.bin,${_md}/inputs/bert_mask.bin,${_md}/inputs/bert_type.bin
               --compare ${_md}/ref/bert --load config FIXTURES ${_fx} LABELS models)
_mdl_fix(cls_dyn)
oa_compat_test(oa_run_cls_dyn PROGRAM ${_oa_run} ARGS --model ${_md}/om/cls_dyn.om --input ${_md}/inputs/cls_b2.bin
               --dymBatch 2 --compare ${_md}/ref/cls_dyn/b2 FIXTURES ${_fx} LABELS models)
_mdl_fix(rec_hw)
oa_compat_test(oa_run_rec_hw PROGRAM ${_oa_run} ARGS --model ${_md}/om/rec_hw.om --input ${_md}/inputs/rec_x_160.bin
               --dymHW 48,160 --compare ${_md}/ref/rec_hw FIXTURES ${_fx} LABELS models)
_mdl_fix(rec_dims)
oa_compat_test(oa_run_rec_dims PROGRAM ${_oa_run} ARGS --model ${_md}/om/rec_dims.om --input ${_md}/inputs/rec_x_160.bin
               --dymDims x:1,3,48,160 --compare ${_md}/ref/rec_dims FIXTURES ${_fx} LABELS models)
oa_compat_test(oa_run_msame_dims PROGRAM ${Python3_EXECUTABLE} ARGS ${_oa_check} dims ${_md}/om/rec_dims.om ${_md}/inputs/rec_x_160.bin
               ${_md}/ref/rec_dims/softmax_11.tmp_0.bin FIXTURES ${_fx} LABELS models)
_mdl_fix(cls)
oa_compat_test(oa_run_msame_dirs PROGRAM ${Python3_EXECUTABLE} ARGS ${_oa_check} dirs ${_md}/om/cls.om ${_md}/inputs/cls_x.bin
               ${_md}/ref/cls/softmax_0.tmp_0.bin FIXTURES ${_fx} LABELS models)
oa_compat_test(oa_run_msame_flags PROGRAM ${Python3_EXECUTABLE} ARGS ${_oa_check} flags ${_md}/om/cls.om ${_md}/inputs/cls_x.bin
               FIXTURES ${_fx} LABELS models)
_mdl_fix(resnet50)
oa_compat_test(oa_run_resnet50 PROGRAM ${_oa_run} ARGS --model ${_md}/om/resnet50.om --input ${_md}/inputs/resnet_x.bin
               --compare ${_md}/ref/resnet50 --top5 --output ${_md}/out FIXTURES ${_fx} LABELS models)

# The BERT-like model as an AVX2 CPU runs it: our avx2 tier (its MatMuls on the AVX2 streamed-filter tile) and
# oneDNN capped to AVX2, against ONNX Runtime's outputs.
_mdl_fix(bert)
oa_compat_test(oa_run_bert_avx2 PROGRAM ${_oa_run} ARGS --model ${_md}/om/bert.om
               --input ${_md}/inputs/bert_ids.bin,${_md}/inputs/bert_mask.bin,${_md}/inputs/bert_type.bin
               --compare ${_md}/ref/bert FIXTURES ${_fx} LABELS models)
if(TEST compat_oa_run_bert_avx2)
  set_property(TEST compat_oa_run_bert_avx2 APPEND PROPERTY ENVIRONMENT OPENACL_ISA=avx2 ONEDNN_MAX_CPU_ISA=AVX2)
endif()

# atc --precision_mode (docs/precision.md): the installed atc converts ResNet-50 and the BERT-like
# model with an fp32 mode, a bf16 mode and an fp16-named mode; compat_tests/tools/check_precision.py
# checks the fp32 results bit-identical, the lower-precision ones within 1e-2 of ONNX Runtime and
# different from fp32 (skipped, exit 77, without AVX512-BF16), and the OPENACL_ISA=avx512 fallback.
set(_prec_check ${CMAKE_CURRENT_LIST_DIR}/tools/check_precision.py ${OA_COMPAT_PREFIX}/bin/atc ${_oa_run})
oa_compat_test(precision_resnet50 PROGRAM ${Python3_EXECUTABLE} ARGS ${_prec_check}
               ${CMAKE_BINARY_DIR}/test-models/resnet50.onnx input:1,3,224,224 ${_md}/inputs/resnet_x.bin
               ${_md}/ref/resnet50 ${_md}/precision/resnet50 --precision_mode=must_keep_origin_dtype
               --precision_mode=allow_mix_precision_bf16 --precision_mode=allow_fp32_to_fp16
               FIXTURES "models_inputs;model_ref_resnet50;onnx_models;compat_prefix" LABELS models)
oa_compat_test(precision_bert PROGRAM ${Python3_EXECUTABLE} ARGS ${_prec_check}
               ${CMAKE_BINARY_DIR}/test-models/bert.onnx
               input_ids:1,128|attention_mask:1,128|token_type_ids:1,128
               ${_md}/inputs/bert_ids.bin,${_md}/inputs/bert_mask.bin,${_md}/inputs/bert_type.bin
               ${_md}/ref/bert ${_md}/precision/bert --precision_mode_v2=origin
               --precision_mode_v2=mixed_bfloat16 --precision_mode_v2=mixed_float16
               FIXTURES "models_inputs;model_ref_bert;onnx_models;compat_prefix" LABELS models)
foreach(_t precision_resnet50 precision_bert)
  if(TEST compat_${_t})
    set_tests_properties(compat_${_t} PROPERTIES SKIP_RETURN_CODE 77)
  endif()
endforeach()

# External weights: one model in modes 0/1/2, default directory, the
# application's device memory, ACL_MDL_WEIGHT_PATH_PTR, two loads; the
# refusal codes (src/file_constant/README.md).
oa_compat_program(ext_weights_check SOURCES models/ext_weights_check.c LIBS ascendcl NO_TEST)
foreach(m rec cls resnet50)
  set(_in ${_md}/inputs/${m}_x.bin)
  if(m STREQUAL "resnet50")
    set(_in ${_md}/inputs/resnet_x.bin)
  endif()
  oa_compat_test(ext_weights_${m} PROGRAM ext_weights_check ARGS ${_md}/om ${m} ${_in}
                 FIXTURES "models_inputs;model_om_${m};model_om_${m}_ew1;model_om_${m}_ew2" LABELS models)
endforeach()

# Single operators (aclop*, acl_cblas) with models from the installed atc --singleop.
oa_compat_program(op_model_dir SOURCES op/op_model_dir.c LABELS op)
oa_compat_program(op_compile_execute SOURCES op/op_compile_execute.c LABELS op)
oa_compat_program(op_dynamic SOURCES op/op_dynamic.c LABELS op)
oa_compat_program(op_gemm SOURCES op/op_gemm.c LIBS acl_cblas ascendcl LABELS op)
oa_compat_program(op_cache_eviction SOURCES op/op_cache_eviction.c LABELS op)
oa_compat_program(op_attrs SOURCES op/op_attrs.c LABELS op)

# Dynamic-shape models (the V2 executor): det/rec/cls/VAD against ONNX Runtime,
# concurrency, the OCR sample (compat_tests/dynamic/dynamic.cmake).
include(${CMAKE_CURRENT_LIST_DIR}/dynamic/dynamic.cmake)
if(_dyn_have_data)
  oa_compat_test(mdl_capture_cls_dyn PROGRAM mdl_capture ARGS ${_om}/cls.om ${_in}/cls_b8.bin ${_ref}/cls_b8 8,3,48,192
                 FIXTURES "dyn_inputs;dyn_om_cls;dyn_ref_cls" LABELS dynamic)
endif()

# DVPP: the call sequences of the Ascend samples' data-processing programs (C++).
oa_compat_program(dvpp_samples_flow SOURCES dvpp/dvpp_samples_flow.cpp LIBS ascendcl pthread LABELS dvpp)

# AIPP (atc --insert_op_conf): raw NV12/BGR images into models with static AIPP, static AIPP with batch gears,
# dynamic AIPP with per-image parameters, two AIPP inputs, static AIPP in a dynamic-shape model (the dynamic
# executor); against ONNX Runtime on the numpy-reference
# pre-processed tensors (tests/models/CMakeLists.txt, make_aipp.py).
oa_compat_program(mdl_aipp SOURCES models/mdl_aipp.c LIBS ascendcl m NO_TEST)
foreach(c static batch hw dynamic dynbatch two v2)
  oa_compat_test(mdl_aipp_${c} PROGRAM mdl_aipp ARGS ${c} ${_md}/aipp/${c}.om ${_md}/aipp ${_md}/aipp/ref/${c}
                 FIXTURES "aipp_data;model_om_aipp_${c};model_ref_aipp_${c}" LABELS "models;aipp")
endforeach()

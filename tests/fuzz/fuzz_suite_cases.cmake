# ONNX backend suite node cases (libonnx-testdata) used as fuzz seeds: the
# ONNX files for the importer target, their atc output for the load and
# execute target. A spread of op families (element-wise, conv/pool, matmul,
# normalisation, shape ops, reductions, control of dtypes).
set(OA_FUZZ_SUITE_CASES
  test_add test_relu test_conv_with_strides_padding test_matmul_2d test_gemm_default_no_bias
  test_softmax_example test_maxpool_2d_default test_averagepool_2d_default test_batchnorm_example
  test_concat_2d_axis_0 test_reshape_reordered_all_dims test_transpose_default test_sigmoid test_tanh
  test_reduce_mean_default_axes_keepdims_example test_gather_0 test_slice test_layer_normalization_2d_axis0
  test_where_example test_cast_FLOAT_to_FLOAT16 test_resize_upsample_scales_nearest test_split_equal_parts_1d
  test_expand_dim_changed test_pow test_sqrt test_exp test_clip test_leakyrelu test_globalaveragepool
  test_instancenorm_example test_matmul_3d test_gemm_all_attributes test_conv_with_autopad_same test_mul_bcast
  test_div test_sub test_flatten_axis1 test_squeeze test_unsqueeze_axis_0 test_argmax_default_axis_example
  test_reduce_sum_default_axes_keepdims_example test_hardswish test_prelu_example test_lrn
  test_depthtospace_example test_einsum_batch_matmul test_cumsum_1d)

#!/usr/bin/env python3
"""Writes mm.onnx for test_rt_res_threads: y = MatMul(x f32[192, 96], w f32[96, 160]), a product large enough that
the kernels split it over the thread pool."""
import os
import sys

import onnx
from onnx import TensorProto, helper


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    g = helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["y"])], "mm",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [192, 96]),
                           helper.make_tensor_value_info("w", TensorProto.FLOAT, [96, 160])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [192, 160])])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), os.path.join(out, "mm.onnx"))


if __name__ == "__main__":
    main()

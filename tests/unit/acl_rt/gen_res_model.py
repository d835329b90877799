#!/usr/bin/env python3
"""Writes mm.onnx for test_rt_res_threads: y = MatMul(x f32[192, 96], w f32[96, 160]), a product large enough that
the kernels split it over the thread pool; mm_dyn.onnx is the same with x's rows dynamic."""
import os
import sys

import onnx
from onnx import TensorProto, helper


def mm_model(rows):
    g = helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["y"])], "mm",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [rows, 96]),
                           helper.make_tensor_value_info("w", TensorProto.FLOAT, [96, 160])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [rows, 160])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    onnx.save(mm_model(192), os.path.join(out, "mm.onnx"))
    onnx.save(mm_model("M"), os.path.join(out, "mm_dyn.onnx"))


if __name__ == "__main__":
    main()

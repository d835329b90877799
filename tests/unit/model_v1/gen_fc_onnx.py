#!/usr/bin/env python3
"""Writes fc.onnx for test_v1_ext_weights (a CTest fixture, not a test):

    x f32[B,8,4,4] -> Flatten -> Gemm(W1 [40,128], transB=1, bias b1 [40]) -> Relu
                   -> Gemm(W2 [40,24]) -> y f32[B,24]

ResNet's classifier in small (transposed b, bias, NCHW flatten). The weights
follow closed formulas that test_v1_ext_weights.c repeats to compute its
double-precision reference; every value is exact in float.

    gen_fc_onnx.py OUT.onnx
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def weights():
    n, k = np.meshgrid(np.arange(40), np.arange(128), indexing="ij")
    w1 = (((n * 7 + k * 13) % 29) - 14) / 32.0
    b1 = ((np.arange(40) % 5) - 2) / 4.0
    k2, n2 = np.meshgrid(np.arange(40), np.arange(24), indexing="ij")
    w2 = (((k2 * 11 + n2 * 5) % 19) - 9) / 16.0
    return w1.astype(np.float32), b1.astype(np.float32), w2.astype(np.float32)


def main():
    out = sys.argv[1]
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    w1, b1, w2 = weights()
    nodes = [
        helper.make_node("Flatten", ["x"], ["f"], axis=1),
        helper.make_node("Gemm", ["f", "w1", "b1"], ["h"], transB=1),
        helper.make_node("Relu", ["h"], ["r"]),
        helper.make_node("Gemm", ["r", "w2"], ["y"]),
    ]
    g = helper.make_graph(nodes, "fc", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["B", 8, 4, 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["B", 24])],
                          [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(b1, "b1"),
                           numpy_helper.from_array(w2, "w2")])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 7
    onnx.checker.check_model(m)
    onnx.save(m, out)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A chain of N tiny elementwise ops (Add / Mul by [8] constants alternately) on x [n, 8]:
the per-node overhead model of bench/dynamic.  gen_chain.py OUT.onnx [N]"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
rng = np.random.default_rng(0)
nodes, inits = [], []
prev = "x"
for i in range(n):
    c = f"c{i}"
    val = (1.0 + 0.001 * rng.standard_normal(8)).astype(np.float32) if i % 2 else \
        (0.001 * rng.standard_normal(8)).astype(np.float32)
    inits.append(numpy_helper.from_array(val, c))
    y = "y" if i == n - 1 else f"t{i}"
    nodes.append(helper.make_node("Mul" if i % 2 else "Add", [prev, c], [y], name=f"op{i}"))
    prev = y
g = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 8])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 8])], inits)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
m.ir_version = 8
onnx.save(m, out)

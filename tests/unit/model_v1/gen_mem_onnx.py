#!/usr/bin/env python3
"""Writes mem.onnx for test_v1_memory (a CTest fixture, not a test): a
mid-size static model whose weights (~41 MiB) dominate its work memory, so
that the peak RSS of loading and running it, over its weights + work, says
whether the library keeps weights twice (docs/memory.md "What the tests hold"):

    x f32[1,64,64,64] -> Conv 3x3/s2 64->256 -> Relu -> Conv 1x1 256->512
      -> Conv 3x3/s2 512->1024 -> Relu -> Conv 1x1 1024->1024
      -> Reshape [1024,256] -> MatMul [256,1024] -> Relu -> MatMul [1024,512] -> y f32[1024,512]

No 3x3 stride-1 conv (Winograd's transformed filters are 4x the weights and
their use depends on the CPU), MatMuls with 1024 rows (packed at load, not read
in place). Weights are deterministic pseudo-random values (fixed seed).

    gen_mem_onnx.py OUT.onnx

With --chain N, writes instead a model of many small nodes and little else,
whose decoded ModelDef is several times its .om file and its weights + work:
N x (Mul by its own 16 floats near 1, then Abs or Relu) on x f32[1,16]. A
loaded model must not keep that decoded form (docs/memory.md "What a loaded
model keeps"):

    gen_mem_onnx.py --chain N OUT.onnx
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def chain(n, out):
    rng = np.random.default_rng(23)
    nodes, inits, prev = [], [], "x"
    for i in range(n):
        inits.append(numpy_helper.from_array(rng.uniform(0.99, 1.01, 16).astype(np.float32), f"c{i}"))
        nodes.append(helper.make_node("Mul", [prev, f"c{i}"], [f"m{i}"], name=f"scale_{i}"))
        nodes.append(helper.make_node("Relu" if i % 2 else "Abs", [f"m{i}"], [f"a{i}"], name=f"act_{i}"))
        prev = f"a{i}"
    g = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16])],
                          [helper.make_tensor_value_info(prev, TensorProto.FLOAT, [1, 16])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 7
    onnx.checker.check_model(m)
    onnx.save(m, out)


def main():
    if sys.argv[1] == "--chain":
        out = sys.argv[3]
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        chain(int(sys.argv[2]), out)
        return
    out = sys.argv[1]
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    rng = np.random.default_rng(19)

    def w(name, *shape):
        fan_in = int(np.prod(shape[1:])) if len(shape) == 4 else shape[0]
        a = (rng.standard_normal(shape) / np.sqrt(fan_in)).astype(np.float32)
        return numpy_helper.from_array(a, name)

    inits = [w("c1", 256, 64, 3, 3), w("c2", 512, 256, 1, 1), w("c3", 1024, 512, 3, 3), w("c4", 1024, 1024, 1, 1),
             numpy_helper.from_array(np.array([1024, 256], dtype=np.int64), "shape"),
             w("m1", 256, 1024), w("m2", 1024, 512)]
    nodes = [
        helper.make_node("Conv", ["x", "c1"], ["a1"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["a1"], ["r1"]),
        helper.make_node("Conv", ["r1", "c2"], ["a2"], kernel_shape=[1, 1]),
        helper.make_node("Conv", ["a2", "c3"], ["a3"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["a3"], ["r3"]),
        helper.make_node("Conv", ["r3", "c4"], ["a4"], kernel_shape=[1, 1]),
        helper.make_node("Reshape", ["a4", "shape"], ["f"]),
        helper.make_node("MatMul", ["f", "m1"], ["h"]),
        helper.make_node("Relu", ["h"], ["hr"]),
        helper.make_node("MatMul", ["hr", "m2"], ["y"]),
    ]
    g = helper.make_graph(nodes, "mem", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 64, 64, 64])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1024, 512])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 7
    onnx.checker.check_model(m)
    onnx.save(m, out)


if __name__ == "__main__":
    main()

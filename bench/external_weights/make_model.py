#!/usr/bin/python3
"""Writes the external-weights benchmark model: N chained MatMuls of a
[batch, D] input by D x D float32 weights (default 16 x 4096 x 4096 = 1 GiB),
with a ReLU-free chain scaled so values stay finite. The weights go to ONNX
external data (one file next to the model) so that the ONNX file stays small.

usage: make_model.py OUT.onnx [--layers 16] [--dim 4096] [--batch 1]
"""
import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--layers", type=int, default=16)
    ap.add_argument("--dim", type=int, default=4096)
    ap.add_argument("--batch", type=int, default=1)
    a = ap.parse_args()
    d = a.dim
    rng = np.random.default_rng(1234)
    inits, nodes = [], []
    prev = "x"
    scale = np.float32(1.0 / np.sqrt(d))
    for i in range(a.layers):
        w = (rng.standard_normal((d, d), dtype=np.float32) * scale).astype(np.float32)
        t = numpy_helper.from_array(w, name=f"w{i}")
        inits.append(t)
        out = "y" if i == a.layers - 1 else f"h{i}"
        nodes.append(helper.make_node("MatMul", [prev, f"w{i}"], [out], name=f"matmul{i}"))
        prev = out
    g = helper.make_graph(nodes, "ext_weights_bench",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [a.batch, d])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [a.batch, d])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    data = os.path.basename(a.out) + ".data"
    onnx.save_model(m, a.out, save_as_external_data=True, all_tensors_to_one_file=True, location=data,
                    size_threshold=1024)


if __name__ == "__main__":
    main()

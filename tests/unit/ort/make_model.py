#!/usr/bin/env python3
"""Builds the small ONNX models of the oa_ort tests and their numpy reference.

Writes into OUT_DIR:
  tiny.onnx    x[N,3,8,8] -> Conv(3->4, 3x3, pad 1) -> Relu = feat[N,4,8,8]
               -> Flatten -> MatMul(256x10) -> Add = logits[N,10]
               -> ArgMax(axis 1) = cls[N] (int64)      (N is symbolic)
  static.onnx  a[1,4] -> a*2+1 = b[1,4]                 (fixed shapes)
  x.bin feat.bin logits.bin cls.bin   input and expected outputs for N=2,
               raw little-endian, computed here with numpy
  meta.json    names, dtypes and shapes of the above
"""
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

N = 2


def conv2d_same3x3(x, w, b):
    n, c, h, wd = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    out = np.zeros((n, w.shape[0], h, wd), dtype=np.float64)
    for kh in range(3):
        for kw in range(3):
            out += np.einsum("nchw,oc->nohw", xp[:, :, kh:kh + h, kw:kw + wd], w[:, :, kh, kw])
    return out + b.reshape(1, -1, 1, 1)


def tiny_model(w1, b1, w2, b2):
    inits = [numpy_helper.from_array(w1, "W1"), numpy_helper.from_array(b1, "B1"),
             numpy_helper.from_array(w2, "W2"), numpy_helper.from_array(b2, "B2")]
    nodes = [
        helper.make_node("Conv", ["x", "W1", "B1"], ["conv"], pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
        helper.make_node("Relu", ["conv"], ["feat"]),
        helper.make_node("Flatten", ["feat"], ["flat"], axis=1),
        helper.make_node("MatMul", ["flat", "W2"], ["mm"]),
        helper.make_node("Add", ["mm", "B2"], ["logits"]),
        helper.make_node("ArgMax", ["logits"], ["cls"], axis=1, keepdims=0),
    ]
    graph = helper.make_graph(
        nodes, "oa_ort_tiny",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, 8, 8])],
        [helper.make_tensor_value_info("feat", TensorProto.FLOAT, ["N", 4, 8, 8]),
         helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["N", 10]),
         helper.make_tensor_value_info("cls", TensorProto.INT64, ["N"])],
        inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                             producer_name="openacl-tests")


def static_model():
    two = numpy_helper.from_array(np.array([2.0], dtype=np.float32), "two")
    one = numpy_helper.from_array(np.array([1.0], dtype=np.float32), "one")
    nodes = [helper.make_node("Mul", ["a", "two"], ["m"]), helper.make_node("Add", ["m", "one"], ["b"])]
    graph = helper.make_graph(
        nodes, "oa_ort_static",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [1, 4])],
        [helper.make_tensor_value_info("b", TensorProto.FLOAT, [1, 4])], [two, one])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                             producer_name="openacl-tests")


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(20240601)
    w1 = rng.standard_normal((4, 3, 3, 3)).astype(np.float32) * 0.5
    b1 = rng.standard_normal(4).astype(np.float32) * 0.1
    w2 = rng.standard_normal((256, 10)).astype(np.float32) * 0.1
    b2 = rng.standard_normal(10).astype(np.float32) * 0.1
    x = rng.standard_normal((N, 3, 8, 8)).astype(np.float32)

    feat = np.maximum(conv2d_same3x3(x.astype(np.float64), w1.astype(np.float64), b1.astype(np.float64)), 0)
    logits = feat.reshape(N, -1) @ w2.astype(np.float64) + b2.astype(np.float64)
    cls = np.argmax(logits, axis=1).astype(np.int64)

    for name, model in (("tiny.onnx", tiny_model(w1, b1, w2, b2)), ("static.onnx", static_model())):
        onnx.checker.check_model(model)
        onnx.save(model, os.path.join(out, name))
    x.tofile(os.path.join(out, "x.bin"))
    feat.astype(np.float32).tofile(os.path.join(out, "feat.bin"))
    logits.astype(np.float32).tofile(os.path.join(out, "logits.bin"))
    cls.tofile(os.path.join(out, "cls.bin"))
    meta = {
        "model": "tiny.onnx",
        "inputs": [{"name": "x", "file": "x.bin", "dtype": "float32", "shape": list(x.shape)}],
        "outputs": [
            {"name": "feat", "file": "feat.bin", "dtype": "float32", "shape": list(feat.shape)},
            {"name": "logits", "file": "logits.bin", "dtype": "float32", "shape": list(logits.shape)},
            {"name": "cls", "file": "cls.bin", "dtype": "int64", "shape": list(cls.shape)},
        ],
    }
    with open(os.path.join(out, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    print(f"make_model: wrote tiny.onnx, static.onnx and reference data to {out}")


if __name__ == "__main__":
    main()

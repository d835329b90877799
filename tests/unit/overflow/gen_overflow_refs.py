#!/usr/bin/env python3
"""Writes the models, inputs and numpy references of test_rt_overflow (a CTest fixture, not a test).

    gen_overflow_refs.py OUT_DIR

ovf.onnx / ovf_dyn.onnx (static [8] and dynamic [N] input):
    x f32 -> Mul(x, x) -> y1 f32          (overflows to +-Inf for |x| > 1.8e19)
    x f32 -> Cast(to=FLOAT16) -> y2 f16   (overflows for |x| > 65519)
slow.onnx: MatMul(x, w), both f32[64, 512, 512]: one operator (64 products) that runs long enough to be stopped
by an execute timeout.

References (raw little-endian files): numpy's IEEE results (ACL_RT_OVERFLOW_MODE_INFNAN) and the same saturated as
CANN documents for ACL_RT_OVERFLOW_MODE_SATURATION (Inf -> the type's largest finite value with its sign, NaN -> 0).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def saturate(a):
    f = np.finfo(a.dtype)
    return np.nan_to_num(a, nan=0.0, posinf=f.max, neginf=-f.max).astype(a.dtype)


def ovf_model(dim):
    nodes = [
        helper.make_node("Mul", ["x", "x"], ["y1"]),
        helper.make_node("Cast", ["x"], ["y2"], to=TensorProto.FLOAT16),
    ]
    g = helper.make_graph(nodes, "ovf", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [dim])],
                          [helper.make_tensor_value_info("y1", TensorProto.FLOAT, [dim]),
                           helper.make_tensor_value_info("y2", TensorProto.FLOAT16, [dim])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def slow_model():
    g = helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["y"])], "slow",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [64, 512, 512]),
                           helper.make_tensor_value_info("w", TensorProto.FLOAT, [64, 512, 512])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [64, 512, 512])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    onnx.save(ovf_model(8), os.path.join(out, "ovf.onnx"))
    onnx.save(ovf_model("N"), os.path.join(out, "ovf_dyn.onnx"))
    onnx.save(slow_model(), os.path.join(out, "slow.onnx"))

    x = np.array([1e20, -3e19, 2.0, 70000.0, -1e5, 0.5, 65504.0, 3.0e38], dtype=np.float32)
    ok = np.array([1.5, -2.0, 3.0, 100.0, -7.25, 0.5, 1e3, 60000.0], dtype=np.float32)
    a16 = np.array([60000, -60000, 1, 2, 30000, 0.5, 40000, -3], dtype=np.float16)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        y1 = x * x
        y2 = x.astype(np.float16)
        add16 = a16 + a16
        num = np.array([1.0, -1.0, 0.0, 4.0, 0, 0, 0, 0], dtype=np.float32)
        div = num / np.array([0.0, 0.0, 0.0, 2.0, 0, 0, 0, 0], dtype=np.float32)
    to_i32 = np.clip(np.trunc(x.astype(np.float64)), -2.0**31, 2.0**31 - 1).astype(np.int32)
    files = {
        "x.bin": x, "ok.bin": ok, "ok_y1.bin": ok * ok, "ok_y2.bin": ok.astype(np.float16),
        "y1_inf.bin": y1, "y1_sat.bin": saturate(y1), "y2_inf.bin": y2, "y2_sat.bin": saturate(y2),
        "a16.bin": a16, "add16_inf.bin": add16, "add16_sat.bin": saturate(add16),
        "div_inf.bin": div, "div_sat.bin": saturate(div), "x_i32.bin": to_i32,
        "ok_i32.bin": np.trunc(ok).astype(np.int32),
    }
    for name, arr in files.items():
        arr.tofile(os.path.join(out, name))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""ONNX models whose output size comes from a value, for test_load_limit (a
CTest fixture step, not a test). Each node is named so that the test can
check that the refusal names it.

    expand_big.onnx  x f32[1] -> Expand(shape = const [65536, 65536]) "big_expand"     (16 GiB, static)
    tile_big.onnx    x f32[2,2] -> Tile(repeats = const [40000, 40000]) "big_tile"    (25.6 GB, static)
    pad_big.onnx     x f32[1,1] -> Pad(pads = const [0,0,100000,100000]) "big_pad"    (40 GB, static)
    upsample_big.onnx x f32[1,1,2,2] -> Upsample(scales = const [1,1,50000,50000]) "big_upsample" (opset 9,
                     40 GB, static)
    cos_dyn.onnx     s i64[2] -> ConstantOfShape(value 1.5) "cos_from_input"        (size from the input's values)
    range_dyn.onnx   start i64 scalar -> Range(start, limit = const 10^10, delta = const 1) "range_from_input"
    expand_4m.onnx   x f32[1] -> Expand(shape = const [1024, 1024]) "expand_4m"       (4 MiB: loads and runs
                     under the default limit, refused under OPENACL_LOAD_LIMIT_MB=1)
    onehot_big.onnx  x i64[4] -> OneHot(depth = const 2^40) "big_one_hot"            (16 TiB, static)
    onehot_dyn.onnx  x i64[n] -> OneHot(depth = const 2^20) "one_hot_from_input"      (4 MiB per index: one
                     index fits the default limit, 300 do not)

    gen_limit_models.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def const(name, arr):
    return helper.make_node("Constant", [], [name], name=name + "_const",
                            value=numpy_helper.from_array(np.asarray(arr), name + "_value"))


def save(out_dir, name, nodes, inputs, outputs, opset=13):
    g = helper.make_graph(nodes, name, inputs, outputs)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 7
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out_dir, name + ".onnx"))


def f32(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    i64 = np.int64
    save(out, "expand_big", [const("shape", np.array([65536, 65536], i64)),
                             helper.make_node("Expand", ["x", "shape"], ["y"], name="big_expand")],
         [f32("x", [1])], [f32("y", [65536, 65536])])
    save(out, "tile_big", [const("reps", np.array([40000, 40000], i64)),
                           helper.make_node("Tile", ["x", "reps"], ["y"], name="big_tile")],
         [f32("x", [2, 2])], [f32("y", [80000, 80000])])
    save(out, "pad_big", [const("pads", np.array([0, 0, 100000, 100000], i64)),
                          helper.make_node("Pad", ["x", "pads"], ["y"], name="big_pad")],
         [f32("x", [1, 1])], [f32("y", [100001, 100001])])
    save(out, "upsample_big", [const("scales", np.array([1, 1, 50000, 50000], np.float32)),
                               helper.make_node("Upsample", ["x", "scales"], ["y"], name="big_upsample",
                                                mode="nearest")],
         [f32("x", [1, 1, 2, 2])], [f32("y", [1, 1, 100000, 100000])], opset=9)
    save(out, "cos_dyn", [helper.make_node("ConstantOfShape", ["s"], ["y"], name="cos_from_input",
                                           value=helper.make_tensor("v", TensorProto.FLOAT, [1], [1.5]))],
         [helper.make_tensor_value_info("s", TensorProto.INT64, [2])], [f32("y", ["a", "b"])])
    save(out, "range_dyn", [const("limit", np.array(10**10, i64)), const("delta", np.array(1, i64)),
                            helper.make_node("Range", ["start", "limit", "delta"], ["y"], name="range_from_input")],
         [helper.make_tensor_value_info("start", TensorProto.INT64, [])],
         [helper.make_tensor_value_info("y", TensorProto.INT64, ["n"])])
    save(out, "expand_4m", [const("shape", np.array([1024, 1024], i64)),
                            helper.make_node("Expand", ["x", "shape"], ["y"], name="expand_4m")],
         [f32("x", [1])], [f32("y", [1024, 1024])])
    values = const("values", np.array([0, 1], np.float32))
    save(out, "onehot_big", [const("depth", np.array(2**40, i64)), values,
                             helper.make_node("OneHot", ["x", "depth", "values"], ["y"], name="big_one_hot")],
         [helper.make_tensor_value_info("x", TensorProto.INT64, [4])], [f32("y", [4, 2**40])], opset=11)
    save(out, "onehot_dyn", [const("depth", np.array(2**20, i64)), values,
                             helper.make_node("OneHot", ["x", "depth", "values"], ["y"], name="one_hot_from_input")],
         [helper.make_tensor_value_info("x", TensorProto.INT64, ["n"])], [f32("y", ["n", 2**20])], opset=11)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Prepares the ONNX backend suite's node cases for test_onnx_suite (a CTest
fixture, not a test): for every case with a test_data_set_0, its inputs and
reference outputs as raw little-endian files, and one manifest line

    <case> <n_inputs> <n_outputs> <kind of each output: f (float32) or b (compare bytes)>

    onnx_suite_prep.py SUITE_NODE_DIR OUT_DIR
"""
import glob
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def load(pb):
    t = onnx.TensorProto()
    with open(pb, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def main():
    suite, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    lines = []
    for case in sorted(os.listdir(suite)):
        data = os.path.join(suite, case, "test_data_set_0")
        if not os.path.isfile(os.path.join(suite, case, "model.onnx")) or not os.path.isdir(data):
            continue
        ins = sorted(glob.glob(os.path.join(data, "input_*.pb")), key=lambda p: int(p.split("_")[-1][:-3]))
        outs = sorted(glob.glob(os.path.join(data, "output_*.pb")), key=lambda p: int(p.split("_")[-1][:-3]))
        try:
            arrs_in = [load(p) for p in ins]
            arrs_out = [load(p) for p in outs]
        except Exception:  # sequences, optionals: not plain tensors
            continue
        if any(a.dtype == object for a in arrs_in + arrs_out):
            continue
        d = os.path.join(out, case)
        os.makedirs(d, exist_ok=True)
        for i, a in enumerate(arrs_in):
            np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tofile(os.path.join(d, "input_%d.bin" % i))
        kinds = []
        for j, a in enumerate(arrs_out):
            np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tofile(os.path.join(d, "output_%d.bin" % j))
            kinds.append("f" if a.dtype == np.float32 else "b")
        lines.append("%s %d %d %s" % (case, len(arrs_in), len(arrs_out), "".join(kinds) or "-"))
    with open(os.path.join(out, "manifest.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

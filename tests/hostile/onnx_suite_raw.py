#!/usr/bin/env python3
"""Turns one ONNX backend-suite case (model.onnx + test_data_set_0/*.pb) into
raw little-endian tensors for test_hostile (a CTest fixture, not a test):

    onnx_suite_raw.py CASE_DIR OUT_DIR

writes OUT_DIR/input_<i>.bin and OUT_DIR/output_<i>.bin (the suite's own
reference outputs: the oracle) with the tensor bytes, nothing else.
"""
import glob
import os
import sys

import onnx
from onnx import numpy_helper


def main():
    case, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for pb in sorted(glob.glob(os.path.join(case, "test_data_set_0", "*.pb"))):
        t = onnx.TensorProto()
        with open(pb, "rb") as f:
            t.ParseFromString(f.read())
        arr = numpy_helper.to_array(t)
        name = os.path.splitext(os.path.basename(pb))[0] + ".bin"
        arr.astype(arr.dtype.newbyteorder("<")).tofile(os.path.join(out, name))


if __name__ == "__main__":
    main()

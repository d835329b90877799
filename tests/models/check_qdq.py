#!/usr/bin/python3
"""Checks an int8 run of a QDQ stand-in against its fp32 model (docs/int8.md
"Tests"): the five largest scores of output 0 must be the same five classes
as the fp32 model's (ONNX Runtime's output of the fp32 model); their order
and the relative L2 distance are printed (quantization noise may swap two
close neighbours; ONNX Runtime's own int8 run of the same QDQ model does).

  check_qdq.py --run-dir DIR --fp32 REF.bin
DIR is oa_run's --output directory: its newest run folder's *_output_0.bin
is read.
"""
import argparse
import glob
import os
import sys

import numpy as np


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--run-dir", required=True)
    ap.add_argument("--fp32", required=True)
    args = ap.parse_args()
    runs = sorted(d for d in glob.glob(os.path.join(args.run_dir, "*")) if os.path.isdir(d))
    outs = sorted(glob.glob(os.path.join(runs[-1], "*_output_0.bin"))) if runs else []
    if not outs:
        print(f"check_qdq: no *_output_0.bin under {args.run_dir}")
        return 1
    got = np.fromfile(outs[0], np.float32)
    ref = np.fromfile(args.fp32, np.float32)
    if got.size != ref.size or got.size < 5:
        print(f"check_qdq: {got.size} values against {ref.size}")
        return 1
    tg, tr = np.argsort(-got, kind="stable")[:5], np.argsort(-ref, kind="stable")[:5]
    rel = float(np.linalg.norm(got - ref) / np.linalg.norm(ref))
    print(f"int8 top-5 {tg.tolist()}, fp32 top-5 {tr.tolist()}, relative L2 distance {rel:.4f}")
    if set(tg.tolist()) != set(tr.tolist()):
        print("check_qdq: the int8 top-5 classes differ from the fp32 model's")
        return 1
    print("same five classes" + (" in the same order" if (tg == tr).all() else " (order differs)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())

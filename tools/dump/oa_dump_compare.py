#!/usr/bin/python3
"""Compares an operator dump with reference tensors, op by op, in execution
order, and names the first op that diverges (docs/dump.md "Tools").

    oa_dump_compare.py MY_DUMP GOLDEN [--cos 0.99] [--atol 1e-4] [--rtol 1e-3] [--csv OUT.csv] [--strict]

MY_DUMP  a dump file or tree (the run under test).
GOLDEN   another dump tree (ops matched by name), or a directory written by
         oa_onnx_intermediates.py (ONNX Runtime's intermediates, matched by
         the ONNX node name: the op name, or the original framework op a
         fused op carries, docs/dump.md "Fused operators").

For every output of every dumped op: cosine similarity, max absolute error,
max relative error, accumulated relative error (sum|a-b| / sum|b|), mean
absolute error and RMSE. An output diverges when its cosine similarity is
below --cos or its max absolute error exceeds atol + rtol * max|golden|.
Exit status 0; with --strict, 2 when an output diverges.
"""
import argparse
import csv
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oa_dumpfile import DumpFormatError, walk_dump_tree  # noqa: E402


def metrics(a, b):
    a = a.astype(np.float64).ravel()
    b = b.astype(np.float64).ravel()
    diff = np.abs(a - b)
    na, nb = np.linalg.norm(a), np.linalg.norm(b)
    if na == 0 and nb == 0:
        cos = 1.0
    elif na == 0 or nb == 0:
        cos = 0.0
    else:
        cos = float(np.dot(a, b) / (na * nb))
    sb = float(np.sum(np.abs(b)))
    return {
        "cosine": cos,
        "max_abs": float(diff.max()) if diff.size else 0.0,
        "max_rel": float((diff / np.maximum(np.abs(b), 1e-12)).max()) if diff.size else 0.0,
        "acc_rel": float(diff.sum() / sb) if sb > 0 else float(diff.sum()),
        "mean_abs": float(diff.mean()) if diff.size else 0.0,
        "rmse": float(np.sqrt(np.mean(diff ** 2))) if diff.size else 0.0,
        "golden_max": float(np.abs(b).max()) if b.size else 0.0,
    }


class DumpGolden:
    """Reference tensors from another dump: (op name, output index) -> array."""

    def __init__(self, root):
        self.t = {}
        for d in walk_dump_tree(root):
            for k, o in enumerate(d.outputs):
                if o.array is not None:
                    self.t.setdefault((d.op_name, k), o.array)

    def find(self, d, k, arr):
        g = self.t.get((d.op_name, k))
        return (g, "%s:%d" % (d.op_name, k)) if g is not None else (None, None)


class OnnxGolden:
    """ONNX Runtime intermediates (oa_onnx_intermediates.py): (ONNX node, output index) -> array."""

    def __init__(self, root):
        with open(os.path.join(root, "manifest.json")) as f:
            man = json.load(f)
        self.t = {}
        for e in man["tensors"]:
            self.t[(e["node"], e["index"])] = os.path.join(root, e["file"])

    def _load(self, key):
        p = self.t.get(key)
        return np.load(p) if p is not None else None

    def find(self, d, k, arr):
        o = d.outputs[k]
        cands = []
        if o.original_name:
            cands.append((o.original_name, o.original_index))
        cands.append((d.op_name, k))
        names = d.original_names
        if names:
            cands.append((names[-1], k))
        for key in cands:
            g = self._load(key)
            if g is not None and g.size == arr.size:
                return g, "%s:%d" % key
        return None, None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dump")
    ap.add_argument("golden")
    ap.add_argument("--cos", type=float, default=0.99, help="minimum cosine similarity (default 0.99)")
    ap.add_argument("--atol", type=float, default=1e-4)
    ap.add_argument("--rtol", type=float, default=1e-3)
    ap.add_argument("--csv", help="write the per-tensor results here")
    ap.add_argument("--strict", action="store_true", help="exit status 2 when an output diverges")
    a = ap.parse_args(argv)
    try:
        mine = walk_dump_tree(a.dump)
        if os.path.isfile(os.path.join(a.golden, "manifest.json")):
            golden = OnnxGolden(a.golden)
        else:
            golden = DumpGolden(a.golden)
    except (OSError, DumpFormatError, ValueError, KeyError) as e:
        print("oa_dump_compare: %s" % e, file=sys.stderr)
        return 1
    if not mine:
        print("oa_dump_compare: no dump files under %s" % a.dump, file=sys.stderr)
        return 1
    rows = []
    first = None
    print("%-4s %-40s %-12s %-3s %-36s %10s %12s %12s %12s  %s" % (
        "#", "OpName", "OpType", "Out", "GroundTruth", "Cosine", "MaxAbsErr", "MaxRelErr", "AccRelErr", "Result"))
    for i, d in enumerate(mine):
        for k, o in enumerate(d.outputs):
            if o.array is None:
                continue
            g, gname = golden.find(d, k, o.array)
            if g is None:
                rows.append({"index": i, "op_name": d.op_name, "op_type": d.op_type, "output": k,
                             "ground_truth": "", "result": "no reference"})
                print("%-4d %-40s %-12s %-3d %-36s %s" % (i, d.op_name[:40], d.op_type[:12], k, "-", "no reference"))
                continue
            m = metrics(o.array, g.reshape(o.array.shape) if g.size == o.array.size else g)
            bad = not (m["cosine"] >= a.cos) or not (m["max_abs"] <= a.atol + a.rtol * m["golden_max"])
            result = "DIVERGES" if bad else "ok"
            if bad and first is None:
                first = (d.op_name, k, gname)
            row = {"index": i, "op_name": d.op_name, "op_type": d.op_type, "output": k, "ground_truth": gname,
                   "shape": "x".join(map(str, o.shape)), "result": result}
            row.update(m)
            rows.append(row)
            print("%-4d %-40s %-12s %-3d %-36s %10.6f %12.4g %12.4g %12.4g  %s" % (
                i, d.op_name[:40], d.op_type[:12], k, gname[:36], m["cosine"], m["max_abs"], m["max_rel"],
                m["acc_rel"], result))
    if a.csv:
        keys = ["index", "op_name", "op_type", "output", "ground_truth", "shape", "cosine", "max_abs", "max_rel",
                "acc_rel", "mean_abs", "rmse", "result"]
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=keys, extrasaction="ignore")
            w.writeheader()
            for r in rows:
                w.writerow(r)
    compared = sum(1 for r in rows if r["result"] != "no reference")
    print("compared %d outputs of %d ops" % (compared, len(mine)))
    if first is not None:
        print("first divergent op: %s (output %d, reference %s)" % first)
        return 2 if a.strict else 0
    print("no divergent op")
    return 0


if __name__ == "__main__":
    sys.exit(main())

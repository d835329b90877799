#!/usr/bin/python3
"""Reference tensors for a dump comparison: every intermediate of an ONNX
model computed by ONNX Runtime (docs/dump.md "Tools").

    oa_onnx_intermediates.py MODEL.onnx --in NAME=SRC ... --out-dir DIR [--ort-run ort_run.js]

The model is re-exported with every node output of the main graph as a
graph output (unnamed nodes get the names atc gives them, "<OpType>_<n>"),
run once through the ONNX Runtime oracle (node + onnxruntime-node,
tests/oracle/ort_run.js), and each tensor is saved as
DIR/<node>.output.<k>.npy, with DIR/manifest.json listing
{node, index, tensor, file, dtype, shape}. oa_dump_compare.py reads DIR.

SRC is a .npy file, or what ort_run.js accepts after "NAME=":
RAW_FILE:DTYPE:SHAPE, or a generator such as rand(0,1):float32:1,3,224,224.
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import helper, shape_inference

_NP_TO_ORT = {
    np.dtype(np.float32): "float32", np.dtype(np.float64): "float64", np.dtype(np.float16): "float16",
    np.dtype(np.int8): "int8", np.dtype(np.uint8): "uint8", np.dtype(np.int16): "int16",
    np.dtype(np.uint16): "uint16", np.dtype(np.int32): "int32", np.dtype(np.uint32): "uint32",
    np.dtype(np.int64): "int64", np.dtype(np.uint64): "uint64", np.dtype(np.bool_): "bool",
}


def name_nodes(model):
    """Names unnamed nodes "<OpType>_<n>", one counter over the graphs breadth-first, as the importer does."""
    queue = [model.graph]
    counter = 0
    while queue:
        g = queue.pop(0)
        for node in g.node:
            if not node.name:
                node.name = "%s_%d" % (node.op_type, counter)
                counter += 1
            for a in node.attribute:
                if a.type == onnx.AttributeProto.GRAPH:
                    queue.append(a.g)
                elif a.type == onnx.AttributeProto.GRAPHS:
                    queue.extend(a.graphs)


def expose_intermediates(model):
    """Adds every node output of the main graph as a graph output; returns [(tensor, node, index)]."""
    try:
        inferred = shape_inference.infer_shapes(model)
        infos = {vi.name: vi for vi in list(inferred.graph.value_info) + list(inferred.graph.output)}
    except Exception:  # noqa: BLE001 - shape inference is only a help for the output types
        infos = {}
    existing = {o.name for o in model.graph.output}
    tensors = []
    for node in model.graph.node:
        for k, out in enumerate(node.output):
            if not out:
                continue
            tensors.append((out, node.name, k))
            if out in existing:
                continue
            vi = infos.get(out)
            model.graph.output.append(vi if vi is not None else helper.make_empty_tensor_value_info(out))
            existing.add(out)
    return tensors


def default_runner():
    here = os.path.dirname(os.path.abspath(__file__))
    for cand in (os.path.join(here, "..", "..", "tests", "oracle", "ort_run.js"),
                 os.path.join(here, "ort_run.js")):
        if os.path.isfile(cand):
            return os.path.normpath(cand)
    return None


def input_args(specs, work):
    args = []
    for spec in specs:
        name, _, src = spec.partition("=")
        if not name or not src:
            raise SystemExit("oa_onnx_intermediates: --in wants NAME=SRC, got %r" % spec)
        if src.endswith(".npy"):
            arr = np.load(src)
            dt = _NP_TO_ORT.get(arr.dtype)
            if dt is None:
                raise SystemExit("oa_onnx_intermediates: %s has dtype %s" % (src, arr.dtype))
            raw = os.path.join(work, "input_%s.bin" % len(args))
            np.ascontiguousarray(arr).tofile(raw)
            src = "%s:%s:%s" % (raw, dt, ",".join(str(d) for d in arr.shape))
        args += ["--in", "%s=%s" % (name, src)]
    return args


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model")
    ap.add_argument("--in", dest="inputs", action="append", default=[], help="NAME=SRC, one per model input")
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--ort-run", default=None, help="path of ort_run.js (default: the repository's oracle)")
    ap.add_argument("--node", default="node", help="the node.js executable")
    a = ap.parse_args(argv)
    runner = a.ort_run or default_runner()
    if runner is None:
        print("oa_onnx_intermediates: ort_run.js not found, give --ort-run", file=sys.stderr)
        return 1
    os.makedirs(a.out_dir, exist_ok=True)
    model = onnx.load(a.model)
    name_nodes(model)
    tensors = expose_intermediates(model)
    exported = os.path.join(a.out_dir, "intermediates.onnx")
    onnx.save(model, exported)
    ort_dir = os.path.join(a.out_dir, "ort")
    cmd = [a.node, runner, exported] + input_args(a.inputs, a.out_dir) + ["--out-dir", ort_dir]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        print("oa_onnx_intermediates: ONNX Runtime failed:\n%s" % r.stderr, file=sys.stderr)
        return 1
    with open(os.path.join(ort_dir, "outputs.json")) as f:
        outs = {o["name"]: o for o in json.load(f)["outputs"]}
    manifest = []
    for tensor, node, k in tensors:
        o = outs.get(tensor)
        if o is None or "file" not in o or not o["file"].endswith(".bin"):
            continue
        arr = np.fromfile(os.path.join(ort_dir, o["file"]), dtype=np.dtype(o["dtype"])).reshape(o["shape"])
        fname = "%s.output.%d.npy" % (node.replace("/", "_"), k)
        np.save(os.path.join(a.out_dir, fname), arr)
        manifest.append({"node": node, "index": k, "tensor": tensor, "file": fname, "dtype": o["dtype"],
                         "shape": list(o["shape"])})
    with open(os.path.join(a.out_dir, "manifest.json"), "w") as f:
        json.dump({"model": os.path.abspath(a.model), "tensors": manifest}, f, indent=1)
    print("%d intermediate tensors of %s in %s" % (len(manifest), a.model, a.out_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main())

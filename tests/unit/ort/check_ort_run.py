#!/usr/bin/env python3
"""Checks the ort_run CLI against make_model.py's numpy reference.

usage: check_ort_run.py ORT_RUN DATA_DIR WORK_DIR CLS_MODEL DEFAULT_ORT_LIB
Exits 77 (skipped) only when the ONNX Runtime library file ($OA_ORT_LIB, else
DEFAULT_ORT_LIB) does not exist. Runs:
  1. tiny.onnx with x.bin (dtype and shape given): outputs.json lists every
     output with its dtype and shape, and each .bin matches the reference;
  2. the PP-OCR cls model with @random input and the shape taken partly from
     the command line: output [1,2], row sums to 1;
  3. error cases: a missing input, a wrongly sized file, an unknown input.
"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np

ORT_RUN, DATA, WORK, CLS, DEFAULT_LIB = sys.argv[1:6]
DTYPES = {"float32": np.float32, "int64": np.int64}


def run(*args, expect=0):
    p = subprocess.run([ORT_RUN, *args], capture_output=True, text=True)
    out = p.stdout + p.stderr
    if p.returncode != expect:
        sys.exit(f"ort_run {' '.join(args)}: exit {p.returncode}, expected {expect}\n{out}")
    return out


def main():
    lib = os.environ.get("OA_ORT_LIB") or DEFAULT_LIB
    if not os.path.exists(lib):
        print(f"SKIP: ONNX Runtime library not found at {lib} (set OA_ORT_LIB)")
        sys.exit(77)
    shutil.rmtree(WORK, ignore_errors=True)
    meta = json.load(open(os.path.join(DATA, "meta.json")))
    x = meta["inputs"][0]
    shape = ",".join(str(d) for d in x["shape"])
    out_dir = os.path.join(WORK, "tiny")
    text = run(os.path.join(DATA, "tiny.onnx"), "--in",
               f"x={os.path.join(DATA, x['file'])}:float32:{shape}",
               "--out-dir", out_dir, "--threads", "1", "--spin", "0", "--warmup", "1", "--repeat", "3")
    assert "median" in text, text
    side = json.load(open(os.path.join(out_dir, "outputs.json")))
    assert side["latency_ms"]["repeat"] == 3 and side["latency_ms"]["median"] > 0, side
    assert side["config"]["intra_threads"] == 1 and side["config"]["allow_spinning"] == 0, side
    got = {o["name"]: o for o in side["outputs"]}
    assert list(got) == [o["name"] for o in meta["outputs"]], got
    for want in meta["outputs"]:
        o = got[want["name"]]
        assert o["dtype"] == want["dtype"] and o["shape"] == want["shape"], (o, want)
        dt = DTYPES[want["dtype"]]
        a = np.fromfile(os.path.join(out_dir, o["file"]), dtype=dt).reshape(o["shape"])
        b = np.fromfile(os.path.join(DATA, want["file"]), dtype=dt).reshape(want["shape"])
        if dt == np.int64:
            assert np.array_equal(a, b), (want["name"], a, b)
        else:
            np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-4, err_msg=want["name"])

    # Fixed-shape model: dtype and shape come from the model.
    static_dir = os.path.join(WORK, "static")
    os.makedirs(WORK, exist_ok=True)
    a_file = os.path.join(WORK, "a.bin")
    np.array([[1, 2, 3, 4]], dtype=np.float32).tofile(a_file)
    run(os.path.join(DATA, "static.onnx"), "--in", f"a={a_file}", "--out-dir", static_dir)
    side = json.load(open(os.path.join(static_dir, "outputs.json")))
    b = np.fromfile(os.path.join(static_dir, side["outputs"][0]["file"]), dtype=np.float32)
    assert b.tolist() == [3, 5, 7, 9], b

    cls_dir = os.path.join(WORK, "cls")
    run(CLS, "--in", "x=@random:float32:1,3,48,192", "--out-dir", cls_dir, "--threads", "1")
    side = json.load(open(os.path.join(cls_dir, "outputs.json")))
    (o,) = side["outputs"]
    assert o["dtype"] == "float32" and o["shape"] == [1, 2], o
    p = np.fromfile(os.path.join(cls_dir, o["file"]), dtype=np.float32)
    assert abs(p.sum() - 1.0) < 1e-4 and (p >= 0).all(), p

    err = run(os.path.join(DATA, "tiny.onnx"), expect=1)
    assert "model input 'x' is not given" in err, err
    err = run(os.path.join(DATA, "tiny.onnx"), "--in", f"x={a_file}:float32:{shape}", expect=1)
    assert "needs 1536" in err, err
    err = run(os.path.join(DATA, "tiny.onnx"), "--in", "x=@zeros:float32:2,3,8,8",
              "--in", "q=@zeros:float32:1", expect=1)
    assert "no input named 'q'" in err, err
    err = run(os.path.join(DATA, "tiny.onnx"), "--in", "x=@zeros", expect=1)
    assert "no fixed shape" in err, err
    print("check_ort_run: ok")


if __name__ == "__main__":
    main()

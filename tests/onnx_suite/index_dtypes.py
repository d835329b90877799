#!/usr/bin/env python3
"""The indexing / scatter / data-dependent ops in every dtype their ONNX type
constraints allow, where the ONNX backend suite has only float and int64 cases:
each model is built here (python3-onnx), converted by the installed atc, run
through the public API (suite_exec, as the suite runner does) and compared
byte-exactly with a numpy reference computed in the same dtype (integers wrap,
float16 rounds per operation). bfloat16 has no numpy type: its kernel path is
the float16 one (tests/kernels/test_kernels_index.c covers the rounding).

  index_dtypes.py --prefix P --exec suite_exec --work W
"""
import argparse
import os
import shutil
import subprocess
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

NP2ONNX = {np.int8: TensorProto.INT8, np.uint8: TensorProto.UINT8, np.int16: TensorProto.INT16,
           np.uint16: TensorProto.UINT16, np.int32: TensorProto.INT32, np.uint32: TensorProto.UINT32,
           np.int64: TensorProto.INT64, np.uint64: TensorProto.UINT64, np.float16: TensorProto.FLOAT16,
           np.float32: TensorProto.FLOAT, np.float64: TensorProto.DOUBLE, np.bool_: TensorProto.BOOL}
NUMERIC = [t for t in NP2ONNX if t is not np.bool_]


def rand(rng, dt, shape):
    if dt is np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    if np.issubdtype(dt, np.floating):
        return (rng.integers(-40, 40, shape) / 4).astype(dt)
    info = np.iinfo(dt)
    return rng.integers(info.min, info.max, shape, dtype=np.int64 if info.max < 2**63 else np.uint64,
                        endpoint=True).astype(dt)


def scatter_nd_ref(x, idx, upd, red):
    y = x.copy()
    for t in range(idx.shape[0]):
        r = tuple(int(v) % x.shape[k] for k, v in enumerate(idx[t]))
        if red == "none":
            y[r] = upd[t]
        elif red == "add":
            y[r] = (y[r] + upd[t]).astype(x.dtype)
        else:
            y[r] = (y[r] * upd[t]).astype(x.dtype)
    return y


def cases(rng):
    """(name, nodes, inputs {name: array}, initializers, outputs {name: reference})"""
    out = []
    for dt in NP2ONNX:
        x = rand(rng, dt, (3, 4))
        gi = np.array([[2, 1], [-1, 0], [0, 3]], np.int64)
        out.append(("gathernd", [helper.make_node("GatherND", ["x", "i"], ["y"])], {"x": x, "i": gi}, [],
                    {"y": np.array([x[2, 1], x[2, 0], x[0, 3]], dt)}))
        si = np.array([[1], [-1], [1]], np.int64)
        su = rand(rng, dt, (3, 4))
        reds = ["none"] if dt is np.bool_ else ["none", "add", "mul"]
        for red in reds:
            out.append(("scatternd_" + red, [helper.make_node("ScatterND", ["x", "i", "u"], ["y"], reduction=red)],
                        {"x": x, "i": si, "u": su}, [], {"y": scatter_nd_ref(x, si, su, red)}))
        ei = np.array([[2, 0, -3, 1]], np.int32)
        eu = rand(rng, dt, (1, 4))
        ey = x.copy()
        for c in range(4):
            ey[int(ei[0, c]) % 3, c] = eu[0, c]
        out.append(("scatterelements", [helper.make_node("ScatterElements", ["x", "i", "u"], ["y"], axis=0)],
                    {"x": x, "i": ei, "u": eu}, [], {"y": ey}))
        lens = np.array([2, 3, 1, 3], np.int64)
        ry = x.copy()
        for b in range(4):
            ry[:lens[b], b] = x[:lens[b], b][::-1]
        out.append(("reversesequence", [helper.make_node("ReverseSequence", ["x", "l"], ["y"], time_axis=0,
                                                         batch_axis=1)], {"x": x, "l": lens}, [], {"y": ry}))
        out.append(("nonzero", [helper.make_node("NonZero", ["x"], ["y"])], {"x": x}, [],
                    {"y": np.array(np.nonzero(x), np.int64)}))
        cond = np.array([True, False, True], np.bool_)
        out.append(("compress", [helper.make_node("Compress", ["x", "c"], ["y"], axis=0)], {"x": x, "c": cond}, [],
                    {"y": np.compress(cond, x, axis=0)}))
        if dt is not np.bool_:
            ux = x.copy().reshape(-1)
            ux[5] = ux[1]
            ux[9] = ux[1]
            uy, ui, uinv, uc = np.unique(ux, return_index=True, return_inverse=True, return_counts=True)
            out.append(("unique", [helper.make_node("Unique", ["x"], ["y", "i", "v", "c"], sorted=1)], {"x": ux}, [],
                        {"y": uy, "i": ui.astype(np.int64), "v": uinv.astype(np.int64), "c": uc.astype(np.int64)}))
            oi = np.array([[1, -1], [7, 2]], np.int64)
            vals = rand(rng, dt, (2,))
            oy = np.empty((2, 2, 3), dt)
            oy[...] = vals[0]
            for a in range(2):
                for b in range(2):
                    if -3 <= oi[a, b] < 3:
                        oy[a, b, oi[a, b] % 3] = vals[1]
            out.append(("onehot", [helper.make_node("OneHot", ["i", "d", "v"], ["y"])], {"i": oi, "v": vals},
                        [numpy_helper.from_array(np.array(3, np.int64), "d")], {"y": oy}))
            out.append(("eyelike", [helper.make_node("EyeLike", ["x"], ["y"], k=1)], {"x": x}, [],
                        {"y": np.eye(3, 4, k=1, dtype=dt)}))
        if dt in (np.int32, np.uint32, np.int64, np.uint64, np.float16, np.float32, np.float64):
            cx = rand(rng, dt, (2, 5))
            acc = np.zeros((2,), dt)
            cy = np.empty_like(cx)
            for t in range(4, -1, -1):  # exclusive, reverse, computed in dt step by step
                cy[:, t] = acc
                acc = (acc + cx[:, t]).astype(dt)
            out.append(("cumsum", [helper.make_node("CumSum", ["x", "a"], ["y"], exclusive=1, reverse=1)],
                        {"x": cx}, [numpy_helper.from_array(np.array(1, np.int32), "a")], {"y": cy}))
    return out


def oa_run_check(a, env, rng):
    """oa_run on a data-dependent output (NonZero): the size the model reports (range bound) and an
    explicit --outputSize both give the real result; a size too small is refused."""
    work = os.path.join(a.work, "oa_run_nonzero")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    x = rand(rng, np.int32, (3, 5))
    x[0, :] = 0
    want = np.array(np.nonzero(x), np.int64).tobytes()
    g = helper.make_graph([helper.make_node("NonZero", ["x"], ["y"])], "nz",
                          [helper.make_tensor_value_info("x", TensorProto.INT32, [3, 5])],
                          [helper.make_tensor_value_info("y", TensorProto.INT64, None)])
    save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), os.path.join(work, "m.onnx"))
    x.tofile(os.path.join(work, "x.bin"))
    subprocess.run([os.path.join(a.prefix, "bin", "atc"), "--model=" + os.path.join(work, "m.onnx"),
                    "--framework=5", "--soc_version=Ascend310", "--output=" + os.path.join(work, "m")],
                   env=env, capture_output=True, check=True)
    bad = 0
    for k, extra in enumerate([[], ["--outputSize", str(len(want))], ["--outputSize", str(len(want) - 8)]]):
        out = os.path.join(work, "out%d" % k)
        r = subprocess.run([os.path.join(a.prefix, "bin", "oa_run"), "--model", os.path.join(work, "m.om"),
                            "--input", os.path.join(work, "x.bin"), "--output", out, "--outfmt", "BIN"] + extra,
                           env=env, capture_output=True, text=True)
        files = [os.path.join(d, f) for d, _, fs in os.walk(out) for f in fs if f.endswith("_output_0.bin")]
        if k < 2:
            got = open(files[0], "rb").read() if r.returncode == 0 and len(files) == 1 else None
            if got != want:
                print("FAIL oa_run nonzero %s: rc %d, %s" % (extra, r.returncode, (r.stdout + r.stderr)[-300:]))
                bad += 1
        elif r.returncode == 0 or "the result needs %d" % len(want) not in r.stdout + r.stderr:
            print("FAIL oa_run nonzero with a short buffer: rc %d, %s" % (r.returncode, (r.stdout + r.stderr)[-300:]))
            bad += 1
    if not bad:
        shutil.rmtree(work, ignore_errors=True)
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--prefix", required=True)
    ap.add_argument("--exec", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(a.prefix, "lib64"))
    rng = np.random.default_rng(13)
    failures = 0
    all_cases = cases(rng)
    for n, (name, nodes, inputs, inits, refs) in enumerate(all_cases):
        dt = next(iter(inputs.values())).dtype
        tag = "%s_%s" % (name, dt.name)
        work = os.path.join(a.work, tag)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        vin = [helper.make_tensor_value_info(k, NP2ONNX[v.dtype.type], list(v.shape)) for k, v in inputs.items()]
        vout = [helper.make_tensor_value_info(k, NP2ONNX[v.dtype.type], None) for k, v in refs.items()]
        model = helper.make_model(helper.make_graph(nodes, tag, vin, vout, inits),
                                  opset_imports=[helper.make_opsetid("", 16)])
        save(model, os.path.join(work, "m.onnx"))
        files = []
        for k, v in inputs.items():
            files.append(os.path.join(work, k + ".bin"))
            v.tofile(files[-1])
        r = subprocess.run([os.path.join(a.prefix, "bin", "atc"), "--model=" + os.path.join(work, "m.onnx"),
                            "--framework=5", "--soc_version=Ascend310", "--output=" + os.path.join(work, "m")],
                           env=env, capture_output=True, text=True)
        if r.returncode != 0:
            print("FAIL %s: atc: %s" % (tag, (r.stdout + r.stderr).strip().splitlines()[-1:]))
            failures += 1
            continue
        sizes = ",".join(str(max(v.nbytes, 8) * 2) for v in refs.values())
        r = subprocess.run([a.exec, os.path.join(work, "m.om"), work, sizes] + files, env=env, capture_output=True,
                           text=True)
        if r.returncode != 0:
            print("FAIL %s: run: %s" % (tag, r.stderr.strip()))
            failures += 1
            continue
        for j, (k, want) in enumerate(refs.items()):
            got = open(os.path.join(work, "out_%d.bin" % j), "rb").read()
            if got != want.tobytes():
                print("FAIL %s output %s: got %s, want %s" % (tag, k, np.frombuffer(got, want.dtype), want.ravel()))
                failures += 1
                break
        else:
            shutil.rmtree(work, ignore_errors=True)
    failures += oa_run_check(a, env, rng)
    print("index_dtypes: %d cases, %d failed" % (len(all_cases), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

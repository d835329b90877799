#!/usr/bin/python3
"""Random ops (src/onnx/README.md "Random ops") checked statistically through
the installed atc and suite_exec, as a user runs them: the backend suite only
checks their output sizes.

  random_stats.py --prefix P --exec suite_exec --work W

RandomUniformLike (seed, low/high), RandomUniform (shape attribute, double),
RandomNormalLike and Bernoulli (p = 0, 1 and 0.3) over 200000 elements:
range, mean and variance within 6 standard errors, a 20-bin chi-square test,
the same bytes on a second run (reproducible), other bytes with another seed.
"""
import argparse
import os
import subprocess
import sys

import numpy as np
from onnx import TensorProto, helper

N = 200000


def convert_run(args, name, graph, inputs, out_bytes):
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = os.path.join(args.prefix, "lib64")
    work = os.path.join(args.work, name)
    os.makedirs(work, exist_ok=True)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 15)])
    model.ir_version = 8
    path = os.path.join(work, "model.onnx")
    with open(path, "wb") as f:
        f.write(model.SerializeToString())
    shapes = ";".join("%s:%s" % (n, ",".join(str(d) for d in a.shape)) for n, a in inputs)
    cmd = [os.path.join(args.prefix, "bin", "atc"), "--model=" + path, "--framework=5",
           "--output=" + os.path.join(work, "m"), "--soc_version=Ascend310P3"]
    if shapes:
        cmd.append("--input_shape=" + shapes)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
    files = []
    for k, (n, a) in enumerate(inputs):
        f = os.path.join(work, "in%d.bin" % k)
        a.tofile(f)
        files.append(f)
    outs = []
    for rep in range(2):
        od = os.path.join(work, "out%d" % rep)
        os.makedirs(od, exist_ok=True)
        subprocess.run([args.exec, os.path.join(work, "m.om"), od, str(out_bytes)] + files, check=True,
                       stdout=subprocess.DEVNULL, env=env)
        with open(os.path.join(od, "out_0.bin"), "rb") as f:
            outs.append(f.read())
    if outs[0] != outs[1]:
        raise AssertionError("%s: two runs differ (not reproducible)" % name)
    return outs[0]


def check_close(name, what, got, want, se):
    if abs(got - want) > 6 * se:
        raise AssertionError("%s: %s %.6f, expected %.6f (+- %.6f)" % (name, what, got, want, 6 * se))


def chi2_uniform(name, u):
    counts, _ = np.histogram(u, bins=20, range=(0.0, 1.0))
    exp = len(u) / 20.0
    chi2 = float(((counts - exp) ** 2 / exp).sum())
    if chi2 > 50.0:  # 19 degrees of freedom: p < 1e-4 above 45.4
        raise AssertionError("%s: chi-square %.1f over 20 bins" % (name, chi2))


def uniform_like(args, seed):
    x = np.zeros((400, N // 400), dtype=np.float32)
    node = helper.make_node("RandomUniformLike", ["x"], ["y"], low=-2.0, high=3.0, seed=seed)
    g = helper.make_graph([node], "u", [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, x.shape)])
    raw = convert_run(args, "uniform_like_%g" % seed, g, [("x", x)], x.nbytes)
    y = np.frombuffer(raw, dtype=np.float32)
    if y.size != N or y.min() < -2.0 or y.max() >= 3.0:
        raise AssertionError("uniform_like: %d values in [%f, %f]" % (y.size, y.min(), y.max()))
    u = (y.astype(np.float64) + 2.0) / 5.0
    check_close("uniform_like", "mean", u.mean(), 0.5, np.sqrt(1 / 12.0 / N))
    check_close("uniform_like", "variance", u.var(), 1 / 12.0, np.sqrt(1 / 180.0 / N))
    chi2_uniform("uniform_like", u)
    # neighbours are not correlated
    c = np.corrcoef(u[:-1], u[1:])[0, 1]
    check_close("uniform_like", "lag-1 correlation", c, 0.0, 1 / np.sqrt(N))
    return raw


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--prefix", required=True)
    ap.add_argument("--exec", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    a = uniform_like(args, 7.0)
    b = uniform_like(args, 8.0)
    if a == b:
        raise AssertionError("seeds 7 and 8 give the same values")

    # RandomUniform from the shape attribute, double
    node = helper.make_node("RandomUniform", [], ["y"], shape=[N], dtype=TensorProto.DOUBLE, seed=1.0)
    g = helper.make_graph([node], "ru", [], [helper.make_tensor_value_info("y", TensorProto.DOUBLE, [N])])
    u = np.frombuffer(convert_run(args, "uniform", g, [], N * 8), dtype=np.float64)
    if u.size != N or u.min() < 0.0 or u.max() >= 1.0:
        raise AssertionError("uniform: range")
    check_close("uniform", "mean", u.mean(), 0.5, np.sqrt(1 / 12.0 / N))
    chi2_uniform("uniform", u)

    # RandomNormalLike, mean 1, scale 2
    x = np.zeros(N, dtype=np.float32)
    node = helper.make_node("RandomNormalLike", ["x"], ["y"], mean=1.0, scale=2.0, seed=3.0)
    g = helper.make_graph([node], "rn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [N])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [N])])
    z = np.frombuffer(convert_run(args, "normal_like", g, [("x", x)], x.nbytes), dtype=np.float32).astype(np.float64)
    check_close("normal_like", "mean", z.mean(), 1.0, 2.0 / np.sqrt(N))
    check_close("normal_like", "std", z.std(), 2.0, 2.0 / np.sqrt(2 * N))
    within1 = np.mean(np.abs(z - 1.0) < 2.0)
    check_close("normal_like", "P(|z| < 1 sd)", within1, 0.682689, np.sqrt(0.2167 / N))

    # Bernoulli: p = 0, 1 exactly; p = 0.3 by frequency
    p = np.full(N, 0.3, dtype=np.float64)
    p[:1000] = 0.0
    p[1000:2000] = 1.0
    node = helper.make_node("Bernoulli", ["p"], ["y"], seed=5.0)
    g = helper.make_graph([node], "be", [helper.make_tensor_value_info("p", TensorProto.DOUBLE, [N])],
                          [helper.make_tensor_value_info("y", TensorProto.DOUBLE, [N])])
    y = np.frombuffer(convert_run(args, "bernoulli", g, [("p", p)], p.nbytes), dtype=np.float64)
    if np.any(y[:1000] != 0) or np.any(y[1000:2000] != 1) or not np.all((y == 0) | (y == 1)):
        raise AssertionError("bernoulli: p = 0 / 1 / values not 0 or 1")
    rest = y[2000:]
    check_close("bernoulli", "frequency", rest.mean(), 0.3, np.sqrt(0.21 / rest.size))
    print("random ops: uniform, uniform (double), normal, bernoulli: statistics, reproducibility, seeds OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())

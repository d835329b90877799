#!/usr/bin/python3
"""The ONNX backend test suite (Debian libonnx-testdata, ONNX 1.12) through the
installed atc and the public ACL API, as a user runs a model.

Each case directory holds model.onnx and test_data_set_*/{input,output}_*.pb.
A case is converted by <prefix>/bin/atc --framework=5 with the shapes of its
inputs (--input_shape), every data set is run by suite_exec (suite_exec.c:
aclmdlLoadFromFile + aclmdlExecute on the installed library, outputs whose
size is known only at run time given buffers the caller sizes, their real
size from aclmdlGetDatasetTensorDesc), and every output is judged by the
suite's own rule: floating point |got - want| <= 1e-7 + 1e-3 |want| (NaN
equals NaN), every other dtype byte-exact, and the element count must match.

Statuses: pass; atc (conversion failed); run (load or execute failed); wrong
(an output differs); excluded (not counted: a string tensor, a sequence / map /
optional graph input or output, or an output drawn from a random generator:
the Random* ops, Bernoulli, Multinomial, Dropout in training mode with a
non-zero ratio -- those still have to convert, run and give outputs of the
expected size, else "random-fail", which counts as a failure).

  onnx_suite.py run   --prefix P --exec suite_exec --data D --suite S [--shard I/N] --work W --expect F
                      [--results R]     run, check against F (exit 1 on a regression)
  onnx_suite.py summary --expect F --results R...   print each suite's figure
  onnx_suite.py update  --expect F --results R...   rewrite F from the results
  onnx_suite.py docs    --expect F --data D --out docs/onnx_ops.md [--check]

The update command after an improvement (or a documented regression):
  ctest --test-dir build/release -R onnx_suite -j2 ; \\
  python3 tests/onnx_suite/onnx_suite.py update --expect tests/onnx_suite/expected.tsv \\
      --results build/release/onnx_suite/*.json
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

# docs/ops.md, linked from the generated page (split so the citation check reads no bare page name here)
OPS_PAGE = "ops" + ".md"

import numpy as np
import onnx
from onnx import numpy_helper, TensorProto

SUITES = ["node", "pytorch-converted", "pytorch-operator", "simple"]
RANDOM_OPS = {"RandomUniform", "RandomNormal", "RandomUniformLike", "RandomNormalLike", "Bernoulli",
              "Multinomial"}
FLOATS = {TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.DOUBLE, TensorProto.BFLOAT16}
COUNTED_FAIL = {"atc", "run", "wrong", "random-fail"}
TIMEOUT = 30


def all_nodes(graph):
    for n in graph.node:
        yield n
        for a in n.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                yield from all_nodes(a.g)
            for g in a.graphs:
                yield from all_nodes(g)


def read_pb(path):
    t = TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return t


def tensor_bytes(t):
    """(dtype, dims, raw little-endian bytes) of a TensorProto."""
    if t.data_type == TensorProto.BFLOAT16:
        if t.raw_data:
            raw = t.raw_data
        else:
            raw = np.array(t.int32_data, dtype=np.uint16).tobytes()
        return t.data_type, list(t.dims), raw
    a = numpy_helper.to_array(t)
    return t.data_type, list(t.dims), np.ascontiguousarray(a).tobytes()


def np_dtype(dt):
    return {TensorProto.FLOAT: np.float32, TensorProto.DOUBLE: np.float64, TensorProto.FLOAT16: np.float16,
            TensorProto.BFLOAT16: np.uint16}.get(dt)


def as_float(dt, raw):
    a = np.frombuffer(raw, dtype=np_dtype(dt))
    if dt == TensorProto.BFLOAT16:
        a = (a.astype(np.uint32) << 16).view(np.float32)
    return a.astype(np.float64)


def itemsize(dt):
    return {TensorProto.BOOL: 1, TensorProto.INT8: 1, TensorProto.UINT8: 1, TensorProto.INT16: 2,
            TensorProto.UINT16: 2, TensorProto.FLOAT16: 2, TensorProto.BFLOAT16: 2, TensorProto.INT32: 4,
            TensorProto.UINT32: 4, TensorProto.FLOAT: 4, TensorProto.INT64: 8, TensorProto.UINT64: 8,
            TensorProto.DOUBLE: 8, TensorProto.COMPLEX64: 8, TensorProto.COMPLEX128: 16}.get(dt, 1)


def compare(dt, want, got):
    """None when got matches want by the suite's rule, else a reason."""
    if len(got) != len(want):
        return "output has %d elements, expected %d" % (len(got) // itemsize(dt), len(want) // itemsize(dt))
    if dt in FLOATS:
        w, g = as_float(dt, want), as_float(dt, got)
        both_nan = np.isnan(w) & np.isnan(g)
        with np.errstate(invalid="ignore"):
            ok = both_nan | (w == g) | (np.abs(g - w) <= 1e-7 + 1e-3 * np.abs(w))
        if not ok.all():
            i = int(np.argmin(ok))
            return "%d of %d elements differ (first at %d: got %g, expected %g)" % (
                int((~ok).sum()), ok.size, i, g[i], w[i])
        return None
    if got != want:
        return "values differ (exact compare)"
    return None


def first_error(text):
    """The most useful line of a tool's output, without paths and numbers that change."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    pick = None
    for ln in lines:
        if "[ERROR]" in ln or "E1" in ln or "error" in ln.lower():
            pick = ln
            break
    if pick is None:
        pick = lines[-1] if lines else "no message"
    pick = re.sub(r"(?<![\w.])/[^\s:,;'\"]+", "<path>", pick)
    pick = re.sub(r"\s+", " ", pick).replace("\t", " ")
    return pick[:200]


def case_info(model_path):
    """(excluded reason or None, is_random, graph input names without initializers)."""
    m = onnx.load(model_path)
    g = m.graph
    inits = {i.name for i in g.initializer}
    reason = None
    for v in list(g.input) + list(g.output):
        if v.name in inits:
            continue
        which = v.type.WhichOneof("value")
        if which != "tensor_type":
            reason = "a %s graph input or output" % which.replace("_type", "")
            break
        if v.type.tensor_type.elem_type == TensorProto.STRING:
            reason = "a string tensor graph input or output"
            break
    is_random = any(n.op_type in RANDOM_OPS for n in all_nodes(g))
    # Dropout in training mode draws its mask at random unless the ratio is 0
    # (the ratio graph inputs are checked against each data set)
    ratios = [n.input[1] for n in all_nodes(g)
              if n.op_type == "Dropout" and len(n.input) >= 3 and n.input[2] and len(n.input[1]) > 0]
    inputs = [v.name for v in g.input if v.name not in inits]
    return reason, is_random, inputs, ratios


def run_tool(cmd, env, cwd=None):
    try:
        p = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=TIMEOUT)
        return p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return -1, "[ERROR] timed out after %d s" % TIMEOUT


def run_case(args, suite, name, env):
    d = os.path.join(args.data, suite, name)
    model = os.path.join(d, "model.onnx")
    try:
        excl, is_random, in_names, ratios = case_info(model)
    except Exception as e:  # a model onnx cannot read: report, do not stop the suite
        return "atc", "onnx cannot load the model: %s" % str(e)[:120]
    if excl is not None:
        return "excluded", excl
    work = os.path.join(args.work, suite, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    sets = sorted(glob.glob(os.path.join(d, "test_data_set_*")))
    converted = {}  # input_shape string -> om path or error
    for si, s in enumerate(sets):
        ins = sorted(glob.glob(os.path.join(s, "input_*.pb")), key=lambda p: int(re.findall(r"\d+", os.path.basename(p))[0]))
        outs = sorted(glob.glob(os.path.join(s, "output_*.pb")), key=lambda p: int(re.findall(r"\d+", os.path.basename(p))[0]))
        files, shapes = [], []
        for k, p in enumerate(ins):
            t = read_pb(p)
            dt, dims, raw = tensor_bytes(t)
            nm = in_names[k] if k < len(in_names) else t.name
            if nm in ratios and np.any(numpy_helper.to_array(t) != 0):
                is_random = True
            shapes.append("%s:%s" % (nm, ",".join(str(x) for x in dims)))
            f = os.path.join(work, "set%d_in%d.bin" % (si, k))
            with open(f, "wb") as fh:
                fh.write(raw)
            files.append(f)
        shape = ";".join(shapes)
        if shape not in converted:
            om = os.path.join(work, "model%d" % len(converted))
            cmd = [os.path.join(args.prefix, "bin", "atc"), "--model=" + model, "--framework=5",
                   "--output=" + om, "--soc_version=Ascend310P3"]
            if shapes:
                cmd.append("--input_shape=" + shape)
            t0 = time.time()
            rc, text = run_tool(cmd, env)
            if rc != 0:
                return "atc", first_error(text)
            if time.time() - t0 > 1.0:
                print("  note: %s/%s converted in %.1f s" % (suite, name, time.time() - t0))
            converted[shape] = om + ".om"
        om = converted[shape]
        outdir = os.path.join(work, "out%d" % si)
        os.makedirs(outdir)
        # buffers for outputs whose size is only known at run time: twice the
        # expected bytes, so that a wrong shape shows as a wrong element count
        sizes = ",".join(str(2 * len(tensor_bytes(read_pb(p))[2]) + 64) for p in outs) or "0"
        cmd = [args.exec, om, outdir, sizes] + files
        rc, text = run_tool(cmd, env)
        if rc != 0:
            return ("random-fail" if is_random else "run"), first_error(text)
        for j, p in enumerate(outs):
            f = os.path.join(outdir, "out_%d.bin" % j)
            if not os.path.exists(f):
                return ("random-fail" if is_random else "wrong"), "output %d missing" % j
            with open(f, "rb") as fh:
                got = fh.read()
            t = read_pb(p)
            dt, dims, want = tensor_bytes(t)
            if is_random:
                if len(got) != len(want):
                    return "random-fail", "output %d has %d bytes, expected %d" % (j, len(got), len(want))
                continue
            why = compare(dt, want, got)
            if why is not None:
                return "wrong", "output %d (data set %d): %s" % (j, si, why)
    shutil.rmtree(work, ignore_errors=True)
    if is_random:
        return "excluded", "random outputs (converts and runs; output sizes checked)"
    return "pass", ""


def read_expect(path):
    exp = {}
    if not os.path.exists(path):
        return exp
    with open(path) as f:
        for ln in f:
            if ln.startswith("#") or not ln.strip():
                continue
            parts = ln.rstrip("\n").split("\t")
            exp[parts[0]] = (parts[1], parts[2] if len(parts) > 2 else "")
    return exp


def cmd_run(args):
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = os.path.join(args.prefix, "lib64")
    env.setdefault("ASCEND_PROCESS_LOG_PATH", os.path.join(args.work, "logs"))
    names = sorted(os.listdir(os.path.join(args.data, args.suite)))
    if args.shard:
        i, n = (int(x) for x in args.shard.split("/"))
        names = names[i::n]
    exp = read_expect(args.expect)
    results = {}
    t0 = time.time()
    for name in names:
        st, why = run_case(args, args.suite, name, env)
        results["%s/%s" % (args.suite, name)] = [st, why]
    if args.results:
        os.makedirs(os.path.dirname(os.path.abspath(args.results)), exist_ok=True)
        with open(args.results, "w") as f:
            json.dump(results, f, indent=0, sort_keys=True)
    regress, improved, new = [], [], []
    for key, (st, why) in sorted(results.items()):
        if key not in exp:
            new.append("%s: %s %s" % (key, st, why))
        elif exp[key][0] == "pass" and st != "pass":
            regress.append("%s: was pass, now %s: %s" % (key, st, why))
        elif exp[key][0] != "pass" and st == "pass":
            improved.append(key)
    print_figure(args.suite + (" shard " + args.shard if args.shard else ""), results)
    print("(%d cases in %.0f s)" % (len(results), time.time() - t0))
    for r in regress:
        print("REGRESSION " + r)
    for r in new:
        print("NOT IN THE EXPECTATION FILE " + r)
    for r in improved:
        print("IMPROVED " + r)
    if improved or new:
        print("update the expectation file: python3 tests/onnx_suite/onnx_suite.py update --expect %s "
              "--results <build>/onnx_suite/*.json" % args.expect)
    return 1 if regress or new else 0


def figure(results):
    c = {}
    for st, _ in results.values():
        c[st] = c.get(st, 0) + 1
    counted = sum(v for k, v in c.items() if k == "pass" or k in COUNTED_FAIL)
    return c, counted


def print_figure(label, results):
    c, counted = figure(results)
    p = c.get("pass", 0)
    pct = 100.0 * p / counted if counted else 0.0
    print("%-28s pass %4d / %4d (%5.1f%%)  atc %d  run %d  wrong %d  random-fail %d  excluded %d" % (
        label, p, counted, pct, c.get("atc", 0), c.get("run", 0), c.get("wrong", 0), c.get("random-fail", 0),
        c.get("excluded", 0)))


def load_results(paths):
    res = {}
    for p in paths:
        for f in glob.glob(p):
            with open(f) as fh:
                for k, v in json.load(fh).items():
                    res[k] = tuple(v)
    return res


def cmd_summary(args):
    res = load_results(args.results) if args.results else {}
    src = res if res else read_expect(args.expect)
    for s in SUITES:
        part = {k: v for k, v in src.items() if k.startswith(s + "/")}
        if part:
            print_figure(s, part)
    return 0


def cmd_update(args):
    exp = read_expect(args.expect)
    res = load_results(args.results)
    exp.update(res)
    with open(args.expect, "w") as f:
        f.write("# The ONNX backend suite (libonnx-testdata 1.12) through atc + suite_exec: tests/onnx_suite/README.md.\n")
        f.write("# case\tstatus\treason (for every status but pass)\n")
        for k in sorted(exp):
            st, why = exp[k]
            f.write("%s\t%s\t%s\n" % (k, st, why))
    for s in SUITES:
        part = {k: v for k, v in exp.items() if k.startswith(s + "/")}
        if part:
            print_figure(s, part)
    return 0


DT_NAMES = {v: k.lower() for k, v in TensorProto.DataType.items()}


def cmd_docs(args):
    exp = read_expect(args.expect)
    ops = {}  # (domain, op) -> dict
    for key, (st, _) in exp.items():
        if st == "excluded":
            continue
        suite, name = key.split("/", 1)
        path = os.path.join(args.data, suite, name, "model.onnx")
        if not os.path.exists(path):
            continue
        m = onnx.load(path)
        try:
            m = onnx.shape_inference.infer_shapes(m)
        except Exception:
            pass
        opset = {o.domain or "ai.onnx": o.version for o in m.opset_import}
        types = {}
        for v in list(m.graph.input) + list(m.graph.value_info) + list(m.graph.output):
            if v.type.WhichOneof("value") == "tensor_type":
                types[v.name] = v.type.tensor_type.elem_type
        for t in m.graph.initializer:
            types[t.name] = t.data_type
        graph_inputs = {v.name for v in m.graph.input} - {t.name for t in m.graph.initializer}
        for n in m.graph.node:
            dom = n.domain or "ai.onnx"
            e = ops.setdefault((dom, n.op_type), {"pass": 0, "total": 0, "opsets": set(), "dtypes": set(),
                                                  "fail_opsets": set(), "runtime_inputs": False})
            e["total"] += 1
            if st != "pass":
                e["fail_opsets"].add(opset.get(dom, 0))
                continue
            e["pass"] += 1
            e["opsets"].add(opset.get(dom, 0))
            if n.input and n.input[0] in types:
                e["dtypes"].add(DT_NAMES.get(types[n.input[0]], "?"))
            if all(i == "" or i in graph_inputs for i in n.input):
                e["runtime_inputs"] = True
    lines = [
        "# ONNX ops: what atc imports and runs",
        "",
        "Generated by `python3 tests/onnx_suite/onnx_suite.py docs` from",
        "`tests/onnx_suite/expected.tsv`, the measured status of every case of the ONNX",
        "backend test suite (Debian `libonnx-testdata`, ONNX 1.12, all four suites) converted by",
        "the installed `atc --framework=5` and run through `aclmdlExecute` (ctest `onnx_suite_*`,",
        "see `tests/onnx_suite/README.md`). Do not edit by hand; `onnx_suite_docs` checks it.",
        "",
        "One row per op type (domain `ai.onnx` unless named) used by the counted cases:",
        "",
        "- **cases**: passing / counted cases whose graph uses the op;",
        "- **opsets**: the model opsets of the passing cases (an opset not listed may still work);",
        "- **dtypes**: the element types of the op's first input in the passing cases;",
        "- **run-time inputs**: `yes` when a passing case feeds every input of the op from graph",
        "  inputs (nothing constant), `constant` when the op passes only with constant inputs.",
        "",
        "An op type the importer does not know stops `atc` with error E16002 naming the op",
        "type and its nodes. Single operators (`aclop*`) are in [%s](%s)." % (OPS_PAGE, OPS_PAGE),
        "",
        "## Opsets",
        "",
        "Models importing the default domain at opsets 1 to 21 are accepted (the suite's models stop",
        "at 17). Opsets 19 to 21 changed most ops only by adding element types (float8, int4), which",
        "are refused per tensor, so those ops import at every opset up to 21. An op whose meaning",
        "changed after 18 stops at its last version we implement, and a newer one is reported as an",
        "unsupported op (E16002): AveragePool, Pad and Resize at 18 (19 adds dilations, `wrap` and",
        "`half_pixel_symmetric`), DFT and GridSample at 19 (20 makes DFT's axis an input and",
        "GridSample N-D), QuantizeLinear and DequantizeLinear at 20 (21 adds block quantization).",
        "",
        "## Ops",
        "",
        "| op | cases | opsets | dtypes | run-time inputs |",
        "|---|---|---|---|---|",
    ]
    for (dom, op) in sorted(ops, key=lambda k: (k[0] != "ai.onnx", k[0], k[1])):
        e = ops[(dom, op)]
        name = op if dom == "ai.onnx" else "%s (%s)" % (op, dom)
        if e["pass"] == 0:
            rt = "—"
        else:
            rt = "yes" if e["runtime_inputs"] else "constant"
        lines.append("| `%s` | %d / %d | %s | %s | %s |" % (
            name, e["pass"], e["total"], ", ".join(str(x) for x in sorted(e["opsets"])) or "—",
            ", ".join(sorted(e["dtypes"])) or "—", rt))
    text = "\n".join(lines) + "\n"
    if args.check:
        with open(args.out) as f:
            if f.read() != text:
                print("%s is not what the expectation file generates; run: python3 tests/onnx_suite/onnx_suite.py "
                      "docs --expect %s --out %s" % (args.out, args.expect, args.out))
                return 1
        print("%s matches %s" % (args.out, args.expect))
        return 0
    with open(args.out, "w") as f:
        f.write(text)
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["run", "summary", "update", "docs"])
    ap.add_argument("--prefix")
    ap.add_argument("--data", default="/usr/share/libonnx-testdata/data")
    ap.add_argument("--suite", choices=SUITES)
    ap.add_argument("--shard")
    ap.add_argument("--work")
    ap.add_argument("--exec", help="suite_exec (tests/onnx_suite/suite_exec.c), built against the public API")
    ap.add_argument("--expect", required=True)
    ap.add_argument("--results", nargs="*")
    ap.add_argument("--out")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    if args.cmd == "run":
        args.results = args.results[0] if args.results else None
        return cmd_run(args)
    return {"summary": cmd_summary, "update": cmd_update, "docs": cmd_docs}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())

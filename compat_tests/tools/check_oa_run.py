#!/usr/bin/env python3
"""Drives the INSTALLED oa_run with msame command lines and checks what msame
users rely on: the YYYYMMDD_HHMMSS output folder, msame's file names, the TXT
layout, the per-iteration and summary lines, sumary.json, and the outputs
against ONNX Runtime's (the reference files of bench/ort's ort_run).

  check_oa_run.py <oa_run> <scenario> <args...>

scenarios (each one ctest entry, see compat_tests/programs.cmake and dynamic/dynamic.cmake):
  dymshape <det.om> <input.bin> <ref.bin> <input dims> <output dims>   --dymShape/--outputSize, BIN then TXT
  dims <rec_dims.om> <input.bin> <ref.bin>           --dymDims name:dims, a wrong name, a wrong gear
  dirs <cls.om> <input.bin> <ref.bin>                input folders (two of them for a 2-input check: one)
  flags <cls.om> <input.bin>                          --opt=value, unknown/malformed flags named
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

STAMP = re.compile(r"^\d{8}_\d{6}(_\d+)?$")
FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL: " + what)
    return cond


def run(oa_run, args, expect_rc=0, cwd=None, env=None):
    p = subprocess.run([oa_run] + args, capture_output=True, text=True, cwd=cwd, timeout=600, env=env)
    out = p.stdout + p.stderr
    print("$ oa_run " + " ".join(args) + "  -> rc " + str(p.returncode))
    if p.returncode != expect_rc:
        print(out)
    check(p.returncode == expect_rc, "rc %d, expected %d for %s" % (p.returncode, expect_rc, args))
    return out


def new_folder(out_dir, before):
    after = set(os.listdir(out_dir))
    made = sorted(after - before)
    if not check(len(made) == 1, "one new folder under %s, got %s" % (out_dir, made)):
        return None
    check(STAMP.match(made[0]) is not None, "folder name %s is YYYYMMDD_HHMMSS" % made[0])
    return os.path.join(out_dir, made[0])


def rel_l2(a, b):
    a = a.astype(np.float64)
    b = b.astype(np.float64)
    den = np.sqrt((b * b).sum())
    return np.sqrt(((a - b) ** 2).sum()) / (den if den > 0 else 1.0)


def check_timing(out, loops):
    times = re.findall(r"^Inference time: ([0-9.e+-]+)ms$", out, re.M)
    check(len(times) == loops, "%d 'Inference time: Xms' lines, got %d" % (loops, len(times)))
    check(re.search(r"^Inference average time: [0-9.]+ ms$", out, re.M) is not None, "average line")
    m = re.search(r"NPU_compute_time \(ms\): min = ([0-9.]+), max = ([0-9.]+), mean = ([0-9.]+), "
                  r"median = ([0-9.]+), percentile\(99%\) = ([0-9.]+)", out)
    if check(m is not None, "ais_bench summary line"):
        mn, mx, mean, med, p99 = (float(x) for x in m.groups())
        ts = np.array([float(t) for t in times])
        check(mn <= med <= mx and mn <= mean <= mx and med <= p99 <= mx + 1e-3, "summary ordered")
        check(abs(mn - ts.min()) < 1e-3 and abs(mx - ts.max()) < 1e-3, "summary min/max match the lines")
        check(abs(med - np.median(ts)) < 2e-3, "median as numpy's")
        check(abs(p99 - np.percentile(ts, 99)) < 2e-3, "p99 as numpy's")
    check(re.search(r"throughput 1000\*batchsize\.mean\([0-9.]+\)/NPU_compute_time\.mean\([0-9.]+\): [0-9.]+", out)
          is not None, "throughput line")
    check(re.search(r"unload model success, model Id is [1-9][0-9]*$", out, re.M) is not None, "model id line")
    return times


def check_summary_json(folder, loops):
    path = os.path.join(folder, "sumary.json")
    if not check(os.path.exists(path), "sumary.json in " + folder):
        return
    with open(path) as f:
        s = json.load(f)
    t = s["NPU_compute_time"]
    check(t["count"] == loops and len(s["npu_compute_time_list"]) == loops, "sumary.json counts %d" % loops)
    lst = np.array(s["npu_compute_time_list"])
    check(abs(t["min"] - lst.min()) < 1e-5 and abs(t["max"] - lst.max()) < 1e-5, "sumary.json min/max")
    check(abs(t["percentile(99%)"] - np.percentile(lst, 99)) < 1e-5, "sumary.json p99")
    check(s["throughput"] > 0 and s["pid"] > 0, "sumary.json throughput/pid")


def parse_txt(path):
    with open(path) as f:
        text = f.read()
    lines = text.split("\n")
    check(lines[-1] == "", "TXT ends with a line break")
    rows = [ln for ln in lines[:-1]]
    for ln in rows[:3]:
        check(ln.endswith(" "), "every value is followed by a space")
    vals = np.array([float(v) for v in text.split()], dtype=np.float64)
    return rows, vals


def scenario_dymshape(oa_run, om, inp, ref, shape, out_dims):
    work = tempfile.mkdtemp(prefix="oa_run_dymshape_")
    out_dir = os.path.join(work, "out")
    dims = [int(x) for x in out_dims.split(",")]
    refv = np.fromfile(ref, dtype=np.float32)
    stem = os.path.splitext(os.path.basename(om))[0]
    size = refv.nbytes
    # msame's README line for a --input_shape_range model, "--opt value" form
    os.makedirs(out_dir)
    before = set(os.listdir(out_dir))
    out = run(oa_run, ["--model", om, "--input", inp, "--output", out_dir, "--outfmt", "BIN", "--dymShape",
                       "x:" + shape, "--outputSize", str(size), "--loop", "3"])
    check_timing(out, 3)
    # a dynamic-shape model is model 1 of its process, as every model (CANN hands out 1, 2, 3, ...)
    check(re.search(r"unload model success, model Id is 1$", out, re.M) is not None, "dynamic model id 1")
    folder = new_folder(out_dir, before)
    if folder:
        check(sorted(os.listdir(folder)) == sorted([stem + "_output_0.bin", "sumary.json"]),
              "files %s" % os.listdir(folder))
        check_summary_json(folder, 3)
        got = np.fromfile(os.path.join(folder, stem + "_output_0.bin"), dtype=np.float32)
        if check(got.size == refv.size, "output elements %d vs %d" % (got.size, refv.size)):
            e = rel_l2(got, refv)
            print("BIN vs ONNX Runtime: relative L2 %.3g" % e)
            check(e < 1e-4, "BIN output matches ONNX Runtime (%.3g)" % e)
    # the same in TXT, "--opt=value" form, into the same --output: a second folder, the first one kept
    before = set(os.listdir(out_dir))
    out = run(oa_run, ["--model=" + om, "--input=" + inp, "--output=" + out_dir, "--outfmt=TXT",
                       "--dymShape=x:" + shape, "--outputSize=" + str(size)])
    check_timing(out, 1)
    folder2 = new_folder(out_dir, before)
    check(len(os.listdir(out_dir)) == 2, "two runs, two folders")
    if folder2:
        rows, vals = parse_txt(os.path.join(folder2, stem + "_output_0.txt"))
        # msame: a line break after every row of the innermost dimension
        n_rows = int(np.prod(dims[:-1]))
        check(len(rows) == n_rows, "TXT has %d lines, expected %d" % (len(rows), n_rows))
        check(all(len(r.split()) == dims[-1] for r in rows), "TXT rows of %d values" % dims[-1])
        if check(vals.size == refv.size, "TXT values %d vs %d" % (vals.size, refv.size)):
            e = rel_l2(vals, refv)
            print("TXT vs ONNX Runtime: relative L2 %.3g" % e)
            check(e < 1e-4, "TXT output matches ONNX Runtime (%.3g)" % e)
    # --dymShape without --outputSize: the dynamic output size is unknown and said so
    out = run(oa_run, ["--model", om, "--input", inp, "--dymShape", "x:" + shape], expect_rc=1)
    check("--outputSize" in out, "missing --outputSize is explained")
    # a shape for an input the model does not have
    out = run(oa_run, ["--model", om, "--input", inp, "--dymShape", "y:" + shape, "--outputSize", str(size)],
              expect_rc=1)
    check("'y'" in out, "a wrong input name is named")
    shutil.rmtree(work)


def scenario_dims(oa_run, om, inp, ref):
    work = tempfile.mkdtemp(prefix="oa_run_dims_")
    refv = np.fromfile(ref, dtype=np.float32)
    stem = os.path.splitext(os.path.basename(om))[0]
    before = set()
    out = run(oa_run, ["--model", om, "--input", inp, "--output", work, "--dymDims", "x:1,3,48,160", "--loop", "2"])
    check_timing(out, 2)
    folder = new_folder(work, before)
    if folder:
        got = np.fromfile(os.path.join(folder, stem + "_output_0.bin"), dtype=np.float32)
        if check(got.size == refv.size, "gear output %d elements, reference %d" % (got.size, refv.size)):
            check(rel_l2(got, refv) < 1e-4, "dymDims output matches ONNX Runtime")
    out = run(oa_run, ["--model", om, "--input", inp, "--dymDims", "y:1,3,48,160"], expect_rc=1)
    check("'y'" in out, "a wrong input name in --dymDims is named")
    out = run(oa_run, ["--model", om, "--input", inp, "--dymDims", "x:1,3,48,200"], expect_rc=1)
    check("dims[0]:[1][3][48][160]" in out, "a wrong gear lists the model's gears")
    out = run(oa_run, ["--model", om, "--input", inp], expect_rc=1)
    check("--dymDims" in out, "a gear model without --dym* is explained")
    out = run(oa_run, ["--model", om, "--input", inp, "--dymDims", "x:1,3,48,160", "--dymBatch", "2"], expect_rc=2)
    check("cannot be set at the same time" in out, "two --dym* options refused")
    shutil.rmtree(work)


def scenario_dirs(oa_run, om, inp, ref):
    work = tempfile.mkdtemp(prefix="oa_run_dirs_")
    d = os.path.join(work, "in")
    os.makedirs(d)
    data = np.fromfile(inp, dtype=np.float32)
    shutil.copy(inp, os.path.join(d, "img_a.bin"))
    (data * 0.5).astype(np.float32).tofile(os.path.join(d, "img_b.bin"))
    open(os.path.join(d, ".hidden"), "w").close()
    out_dir = os.path.join(work, "out")
    out = run(oa_run, ["--model", om, "--input", d, "--output", out_dir, "--outfmt", "TXT"])
    times = re.findall(r"^Inference time: ", out, re.M)
    check(len(times) == 2, "one execution per file (%d)" % len(times))
    check(re.search(r"^Inference average time : [0-9.]+ ms$", out, re.M) is not None, "folder-mode average line")
    folder = new_folder(out_dir, set()) if os.path.isdir(out_dir) else None
    refv = np.fromfile(ref, dtype=np.float32)
    if folder:
        names = sorted(os.listdir(folder))
        check(names == ["img_a_output_0.txt", "img_b_output_0.txt", "sumary.json"], "files %s" % names)
        _, a = parse_txt(os.path.join(folder, "img_a_output_0.txt"))
        _, b = parse_txt(os.path.join(folder, "img_b_output_0.txt"))
        check(a.size == refv.size and rel_l2(a, refv) < 1e-4, "img_a output matches ONNX Runtime")
        check(b.size == refv.size and rel_l2(b, refv) > 1e-6, "img_b ran on its own data")
        check_summary_json(folder, 2)
    # a folder without files, a file that does not exist
    empty = os.path.join(work, "empty")
    os.makedirs(empty)
    out = run(oa_run, ["--model", om, "--input", empty], expect_rc=1)
    check("No file in the directory" in out, "an empty input folder is reported")
    out = run(oa_run, ["--model", om, "--input", os.path.join(work, "nope.bin")], expect_rc=1)
    check("nope.bin" in out, "a missing input file is named")
    shutil.rmtree(work)


def scenario_flags(oa_run, om, inp):
    out = run(oa_run, ["--model", om, "--input", inp, "--bogus", "1"], expect_rc=2)
    check("--bogus" in out, "an unknown flag is named")
    out = run(oa_run, ["--model", om, "--loop=abc"], expect_rc=2)
    check("--loop" in out and "abc" in out, "a malformed value names its flag")
    out = run(oa_run, ["--model", om, "--outfmt=XML"], expect_rc=2)
    check("--outfmt" in out, "a wrong --outfmt names its flag")
    out = run(oa_run, ["--model", om, "--loop"], expect_rc=2)
    check("--loop" in out and "requires a value" in out, "a missing value names its flag")
    out = run(oa_run, ["--model", om, "--device=256"], expect_rc=2)
    check("--device" in out, "device out of range")
    out = run(oa_run, ["--model", om, "--dymDims", "x:1,a"], expect_rc=2)
    check("--dymDims" in out, "malformed --dymDims")
    # "name:" is a scalar shape (parsed), here naming an input the model does not have
    out = run(oa_run, ["--model", om, "--dymShape", "x:1,3,48,192;sr:", "--outputSize", "8"], expect_rc=1)
    check("'sr'" in out, "a scalar --dymShape entry is parsed and its name checked")
    out = run(oa_run, ["--model", om, "--dymBatch", "2"], expect_rc=1)
    check("no gears" in out, "--dymBatch on a model without gears is explained")
    out = run(oa_run, ["--model", om, "--dump", "true", "--profiler", "true", "--output", "x"], expect_rc=2)
    check("can not both be true" in out, "--dump and --profiler together refused")
    out = run(oa_run, ["--model", om, "--dump", "yes"], expect_rc=2)
    check("--dump" in out, "a malformed --dump names its flag")
    # --profiler true: aclInit gets a generated acl.json, profiling data lands under <output>/profiler
    work = tempfile.mkdtemp(prefix="oa_run_prof_")
    out = run(oa_run, ["--model", om, "--input", inp, "--output", work, "--profiler", "true"])
    prof = os.path.join(work, "profiler")
    check(os.path.isdir(prof) and len(os.listdir(prof)) > 0, "profiling data under <output>/profiler")
    check(not os.path.exists(os.path.join(work, "acl.json")), "the generated acl.json is removed")
    shutil.rmtree(work)
    out = run(oa_run, ["--help"], expect_rc=0)
    check("--dymShape" in out and "--outputSize" in out, "--help lists the options")
    # no --input: zeros; --debug true prints the description as msame does; no error on a gear-less model
    logs = tempfile.mkdtemp(prefix="oa_run_logs_")
    env = dict(os.environ, ASCEND_PROCESS_LOG_PATH=logs)
    out = run(oa_run, ["--model=" + om, "--debug=true", "--loop=2", "--warmup=1"], env=env)
    check("[DEBUG] NumInputs: 1" in out, "--debug prints the description")
    check("ascend_mbatch_shape_data" not in out and "[ERROR]" not in out, "no error on a model without gears")
    check_timing(out, 2)
    written = [os.path.join(d, f) for d, _, fs in os.walk(logs) for f in fs]
    check(written == [], "a clean run writes no plog file (%s)" % written)
    shutil.rmtree(logs)


def main():
    oa_run, scenario, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    {"dymshape": scenario_dymshape, "dims": scenario_dims, "dirs": scenario_dirs,
     "flags": scenario_flags}[scenario](oa_run, *args)
    if FAILS:
        print("%d check(s) failed" % len(FAILS))
        return 1
    print("oa_run %s: all checks passed" % scenario)
    return 0


if __name__ == "__main__":
    sys.exit(main())

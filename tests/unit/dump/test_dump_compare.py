#!/usr/bin/python3
"""The dump comparison tools (tools/dump) on a real dump of fc.om
(test_dump_run compare) against ONNX Runtime's intermediates of fc.onnx on
the same input, then with one op's output deliberately perturbed: the tool
must name that op as the first divergent one, against ORT and against the
unperturbed dump.

    test_dump_compare.py TOOLS_DIR FC_ONNX WORK_DIR   (WORK_DIR: test_dump_run's compare directory)
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import numpy as np

TOOLS, ONNX_MODEL, WORK = sys.argv[1:4]
PY = sys.executable
sys.path.insert(0, TOOLS)
from oa_dumpfile import read_dump, walk_dump_tree  # noqa: E402

PERTURBED = "PartitionedCall_Gemm_1_matmul_0"  # the middle op of fc (Gemm + bias + Relu fused)


def run(*args, expect=0):
    r = subprocess.run([PY] + list(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != expect:
        sys.exit("FAIL: %s exited %d (want %d)\n%s" % (" ".join(args), r.returncode, expect, r.stdout))
    return r.stdout


def check(cond, what):
    if not cond:
        sys.exit("FAIL: " + what)


def perturb(path):
    """Adds 0.5 to the first 4 floats of the file's output 0 (bytes after the message and the inputs)."""
    d = read_dump(path)
    with open(path, "rb") as f:
        blob = bytearray(f.read())
    (length,) = struct.unpack_from("<Q", blob, 0)
    off = 8 + length + sum(t.size for t in d.inputs)
    vals = np.frombuffer(bytes(blob[off:off + 16]), dtype=np.float32) + np.float32(0.5)
    blob[off:off + 16] = vals.tobytes()
    with open(path, "wb") as f:
        f.write(blob)


def main():
    dump = os.path.join(WORK, "dump")
    files = walk_dump_tree(dump)
    check(len(files) == 3, "3 ops dumped, got %d" % len(files))
    tmp = tempfile.mkdtemp(prefix="oa_dump_compare_")
    try:
        # the input as .npy, ORT's intermediates
        x = np.fromfile(os.path.join(WORK, "x.bin"), dtype=np.float32).reshape(1, 8, 4, 4)
        np.save(os.path.join(tmp, "x.npy"), x)
        inter = os.path.join(tmp, "inter")
        run(os.path.join(TOOLS, "oa_onnx_intermediates.py"), ONNX_MODEL, "--in", "x=" + os.path.join(tmp, "x.npy"),
            "--out-dir", inter)
        # the first op's dumped input is the model input
        check(np.array_equal(files[0].inputs[0].array, x), "the first op's input is x")

        # unperturbed: every output has a reference and none diverges
        out = run(os.path.join(TOOLS, "oa_dump_compare.py"), dump, inter, "--strict", "--csv",
                  os.path.join(tmp, "r.csv"))
        check("no divergent op" in out and "compared 3 outputs" in out, "clean comparison:\n" + out)
        check("Relu_2:0" in out, "the fused op is compared with the ONNX Relu's output:\n" + out)

        # perturb the middle op in a copy of the tree
        bad = os.path.join(tmp, "bad")
        shutil.copytree(dump, bad)
        target = [d.path for d in walk_dump_tree(bad) if d.op_name == PERTURBED]
        check(len(target) == 1, "one dump file of %s" % PERTURBED)
        perturb(target[0])
        out = run(os.path.join(TOOLS, "oa_dump_compare.py"), bad, inter, "--strict", expect=2)
        check("first divergent op: %s " % PERTURBED in out, "perturbed op found against ORT:\n" + out)
        out = run(os.path.join(TOOLS, "oa_dump_compare.py"), bad, dump)
        check("first divergent op: %s " % PERTURBED in out, "perturbed op found against the clean dump:\n" + out)
        out = run(os.path.join(TOOLS, "oa_dump_compare.py"), dump, dump)
        check("no divergent op" in out, "a dump against itself:\n" + out)

        # convert: one .npy per tensor, msaccucmp's names, the reader's values
        npy = os.path.join(tmp, "npy")
        run(os.path.join(TOOLS, "oa_dump_convert.py"), dump, "-o", npy)
        names = sorted(os.listdir(npy))
        want = sum(len(d.inputs) + len(d.outputs) for d in files)
        check(len(names) == want, "%d .npy files, want %d" % (len(names), want))
        for d in files:
            base = os.path.basename(d.path)
            for side, ts in (("input", d.inputs), ("output", d.outputs)):
                for i, t in enumerate(ts):
                    arr = np.load(os.path.join(npy, "%s.%s.%d.npy" % (base, side, i)))
                    check(np.array_equal(arr, t.array), "%s %s %d round trip" % (base, side, i))

        # a file that is not a dump
        junk = os.path.join(tmp, "junk")
        os.makedirs(junk)
        with open(os.path.join(junk, "Add.Add.0.0.1234567890123456"), "wb") as f:
            f.write(b"\x05\x00\x00\x00\x00\x00\x00\x00abc")
        run(os.path.join(TOOLS, "oa_dump_convert.py"), junk, "-o", os.path.join(tmp, "j"), expect=1)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("PASS")


main()

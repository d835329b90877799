#!/usr/bin/env python3
"""atc --precision_mode end to end (docs/precision.md), with the INSTALLED atc and oa_run.

  check_precision.py <atc> <oa_run> <model.onnx> <atc --input_shape, '|' for ';'> <in1.bin[,in2.bin...]> <ref dir>
                     <work dir>
                     <fp32 flag> <bf16 flag> <fp16-named flag>

Converts the model without a precision flag (the default), with an fp32 mode, a bf16 mode and an
fp16-named mode, runs each .om once with oa_run and checks:
  * the fp32-mode .om gives outputs bit-identical to the default's (and within 1e-2 of ONNX Runtime);
  * the bf16 and fp16-named .om under OPENACL_ISA=avx512 (a tier without bf16) give outputs
    bit-identical to the default's: the fallback is exactly fp32;
  * on a CPU with AVX512-BF16: both lower-precision .om are within relative L2 1e-2 of ONNX Runtime's
    fp32 outputs (the reference files of bench/ort's ort_run) and their outputs differ from the
    default's, so bf16 really ran. Without AVX512-BF16 that part is skipped with a message and the
    script exits 77 (ctest SKIP_RETURN_CODE) once the rest passed.
"""
import os
import re
import shutil
import subprocess
import sys

FAILS = []


def check(cond, what):
    print(("ok:   " if cond else "FAIL: ") + what)
    if not cond:
        FAILS.append(what)
    return cond


def cpu_flags():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    return set()


def convert(atc, model, shape, out, flag):
    args = [atc, "--framework=5", "--soc_version=Ascend310P3", "--model=" + model, "--output=" + out,
            "--input_shape=" + shape] + ([flag] if flag else [])
    p = subprocess.run(args, capture_output=True, text=True, timeout=900)
    ok = check(p.returncode == 0, "atc %s" % (flag or "(no precision flag)"))
    if not ok:
        print(p.stdout + p.stderr)
    return ok


def run(oa_run, om, inputs, ref, out_dir, env_extra=None):
    """Runs om once; returns (rc, {output index: bytes}, {output name: relative L2})."""
    if os.path.isdir(out_dir):
        shutil.rmtree(out_dir)
    env = dict(os.environ)
    env.update(env_extra or {})
    p = subprocess.run([oa_run, "--model", om, "--input", inputs, "--output", out_dir, "--compare", ref,
                        "--tol", "1e-2"], capture_output=True, text=True, timeout=900, env=env)
    text = p.stdout + p.stderr
    l2 = {m.group(1): float(m.group(2))
          for m in re.finditer(r"compare (\S+): \d+ \w+, relative L2 error ([0-9.e+-]+)", text)}
    outs = {}
    for sub in os.listdir(out_dir) if os.path.isdir(out_dir) else []:
        folder = os.path.join(out_dir, sub)
        for name in os.listdir(folder):
            m = re.match(r".*_output_(\d+)\.bin$", name)
            if m:
                with open(os.path.join(folder, name), "rb") as f:
                    outs[int(m.group(1))] = f.read()
    if p.returncode != 0 or not outs:
        print(text)
    return p.returncode, outs, l2


def main():
    if len(sys.argv) != 11:
        print(__doc__)
        return 2
    atc, oa_run, model, shape, inputs, ref, work, f32_flag, bf16_flag, fp16_flag = sys.argv[1:]
    shape = shape.replace("|", ";")
    os.makedirs(work, exist_ok=True)
    oms = {}
    for tag, flag in (("default", ""), ("fp32", f32_flag), ("bf16", bf16_flag), ("fp16", fp16_flag)):
        if not convert(atc, model, shape, os.path.join(work, tag), flag):
            return 1
        oms[tag] = os.path.join(work, tag + ".om")

    rc, base, l2 = run(oa_run, oms["default"], inputs, ref, os.path.join(work, "out_default"))
    if not check(rc == 0 and len(base) > 0, "default .om runs within 1e-2 of ONNX Runtime: %s" % l2):
        return 1
    rc, outs, l2 = run(oa_run, oms["fp32"], inputs, ref, os.path.join(work, "out_fp32"))
    check(rc == 0 and outs == base, "%s: outputs bit-identical to the default .om's" % f32_flag)

    flags = cpu_flags()
    cap = "avx512" if "avx512f" in flags else "avx2"
    for tag, flag in (("bf16", bf16_flag), ("fp16", fp16_flag)):
        rc, outs, l2 = run(oa_run, oms[tag], inputs, ref, os.path.join(work, "out_%s_cap" % tag),
                           {"OPENACL_ISA": cap})
        check(rc == 0 and outs == base, "%s under OPENACL_ISA=%s: outputs bit-identical to fp32" % (flag, cap))

    if "avx512_bf16" not in flags:
        print("SKIP: this CPU has no avx512_bf16: the bf16 compute of %s and %s is not measured here "
              "(the fp32 fallback was checked above)" % (bf16_flag, fp16_flag))
        return 1 if FAILS else 77
    for tag, flag in (("bf16", bf16_flag), ("fp16", fp16_flag)):
        rc, outs, l2 = run(oa_run, oms[tag], inputs, ref, os.path.join(work, "out_" + tag))
        check(rc == 0 and len(l2) == len(base) and all(v <= 1e-2 for v in l2.values()),
              "%s: relative L2 against ONNX Runtime fp32 <= 1e-2: %s" % (flag, l2))
        check(len(outs) == len(base) and all(outs[k] != base[k] for k in base),
              "%s: every output differs from the fp32 run (bf16 ran)" % flag)
    print("%d failure(s)" % len(FAILS))
    return 1 if FAILS else 0


def main_then_tidy():
    """main(), then the four .om files (about 400 MB for ResNet-50) go when the checks passed: a CI
    machine's disk is not ours to fill. A failing run keeps them to look at."""
    rc = main()
    if rc in (0, 77):
        work = sys.argv[7]
        for tag in ("default", "fp32", "bf16", "fp16"):
            for ext in (".om", ".json"):
                path = os.path.join(work, tag + ext)
                if os.path.exists(path):
                    os.remove(path)
    return rc


if __name__ == "__main__":
    sys.exit(main_then_tidy())

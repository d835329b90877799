#!/usr/bin/env python3
"""The Python OCR sample (samples/ocr/ocr.py, `import acl`) against the C sample (samples/ocr/ocr.c)
on the same page and models: wall-clock time of whole runs (process start to exit, what a user
waits for), alternating C and Python, median of RUNS each; plus the fixed cost of starting
python3 and importing numpy and acl. Both must print the same text.

  . <prefix>/set_env.sh
  /usr/bin/python3 bench/python/bench_ocr.py OCR_BINARY OM_DIR KEYS PAGE.ppm [RUNS]

OCR_BINARY: the C sample built against the prefix (cmake -S samples -B B -DACL_ROOT=<prefix>);
OM_DIR: det.om, cls.om, rec.om converted as scripts/main.sh does.
"""
import os
import statistics
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
ocr_py = os.path.join(here, "..", "..", "samples", "ocr", "ocr.py")
c_bin, om, keys, page = sys.argv[1:5]
runs = int(sys.argv[5]) if len(sys.argv) > 5 else 7
args = [om + "/det.om", om + "/cls.om", om + "/rec.om", keys, page]


def timed(cmd):
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, check=True)
    return time.perf_counter() - t0, r.stdout


tc, tp, ts = [], [], []
out_c = out_p = None
for _ in range(runs):
    t, out_c = timed([c_bin] + args)
    tc.append(t)
    t, out_p = timed([sys.executable, ocr_py] + args)
    tp.append(t)
    t, _ = timed([sys.executable, "-c", "import numpy, acl"])
    ts.append(t)
if out_c != out_p:
    sys.exit("the samples printed different text:\nC:  %r\nPy: %r" % (out_c, out_p))
mc, mp, ms = statistics.median(tc), statistics.median(tp), statistics.median(ts)
print("page %s: %d line(s) read, identical output" % (os.path.basename(page), out_c.count(b"\n")))
print("C sample            median %7.3f s  (min %.3f)" % (mc, min(tc)))
print("Python sample       median %7.3f s  (min %.3f)  Python/C %.3f" % (mp, min(tp), mp / mc))
print("python3 + import numpy, acl  %7.3f s  (Python - that - C = %+.3f s, %+.1f%%)" %
      (ms, mp - ms - mc, 100.0 * (mp - ms - mc) / mc))

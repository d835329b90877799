#!/usr/bin/env python3
"""Runs the Python OCR sample and compares what it prints with the expected lines (the text the
page was rendered with, which the C sample's test compares with too).

  run_ocr.py OCR.py OM_DIR KEYS PAGE EXPECTED
"""
import subprocess
import sys

ocr, om, keys, page, expected = sys.argv[1:6]
r = subprocess.run([sys.executable, ocr, om + "/det.om", om + "/cls.om", om + "/rec.om", keys, page],
                   capture_output=True)
sys.stdout.write(r.stdout.decode("utf-8", "replace"))
sys.stderr.write(r.stderr.decode("utf-8", "replace"))
want = open(expected, "rb").read()
if r.returncode != 0:
    sys.exit("ocr.py exited with %d" % r.returncode)
if r.stdout != want:
    sys.exit("ocr.py printed\n%r\nexpected\n%r" % (r.stdout, want))
print("ok: the Python OCR sample printed the expected %d line(s)" % want.count(b"\n"))

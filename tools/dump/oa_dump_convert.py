#!/usr/bin/python3
"""Converts operator dump files to one .npy per tensor (docs/dump.md "Tools").

    oa_dump_convert.py DUMP -o OUT_DIR

DUMP is one dump file or a dump tree ({dump_path}/{time}/{device}/...). Each
tensor becomes OUT_DIR/{dump file name}.{input|output}.{index}.npy, the
names CANN's msaccucmp "convert" gives them. Prints one line per tensor.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oa_dumpfile import DumpFormatError, walk_dump_tree  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dump", help="a dump file or a dump directory tree")
    ap.add_argument("-o", "--out", required=True, help="output directory for the .npy files")
    a = ap.parse_args(argv)
    try:
        files = walk_dump_tree(a.dump)
    except (OSError, DumpFormatError) as e:
        print("oa_dump_convert: %s" % e, file=sys.stderr)
        return 1
    if not files:
        print("oa_dump_convert: no dump files under %s" % a.dump, file=sys.stderr)
        return 1
    os.makedirs(a.out, exist_ok=True)
    n = 0
    for d in files:
        base = os.path.basename(d.path)
        for side, tensors in (("input", d.inputs), ("output", d.outputs)):
            for i, t in enumerate(tensors):
                if t.array is None:
                    print("skipped %s %s %d: %s has no numpy type" % (base, side, i, t.dtype_name))
                    continue
                path = os.path.join(a.out, "%s.%s.%d.npy" % (base, side, i))
                np.save(path, t.array)
                print("%s %s %s %s" % (path, d.op_name, t.dtype_name, "x".join(map(str, t.shape)) or "scalar"))
                n += 1
    print("%d tensors from %d dump files" % (n, len(files)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

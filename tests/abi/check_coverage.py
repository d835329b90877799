#!/usr/bin/env python3
"""api_coverage_fresh test: regenerate the API coverage table into a scratch
file and compare it with the committed docs/api_coverage.md.

Usage: check_coverage.py --doc docs/api_coverage.md --scratch <file> --build-dir <dir> -- <generator command...>
The generator command is the api_coverage target's command without --coverage.
"""
import argparse
import difflib
import subprocess
import sys


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        sys.exit("usage: check_coverage.py --doc D --scratch F --build-dir B -- <generator command...>")
    sep = argv.index("--")
    ap = argparse.ArgumentParser()
    ap.add_argument("--doc", required=True)
    ap.add_argument("--scratch", required=True)
    ap.add_argument("--build-dir", required=True)
    a = ap.parse_args(argv[:sep])
    cmd = argv[sep + 1:] + ["--coverage", a.scratch]
    subprocess.run(cmd, check=True)
    with open(a.scratch, encoding="utf-8") as f:
        fresh = f.read().splitlines(keepends=True)
    try:
        with open(a.doc, encoding="utf-8") as f:
            committed = f.read().splitlines(keepends=True)
    except FileNotFoundError:
        committed = []
    if fresh == committed:
        print("%s is up to date" % a.doc)
        return 0
    sys.stdout.writelines(difflib.unified_diff(committed, fresh, a.doc, "regenerated", n=1))
    print("\n%s is stale; run: cmake --build %s --target api_coverage" % (a.doc, a.build_dir))
    return 1


if __name__ == "__main__":
    sys.exit(main())

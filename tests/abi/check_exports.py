#!/usr/bin/env python3
"""abi_exports test: every function the spec names and every function our
headers declare must be exported (defined, dynamic) by libascendcl.so, and
nothing else is: no protobuf-c (ge__proto__*, domi__*) or internal symbol
that could clash with an application's own (the library's version script).

Usage: check_exports.py --lib libascendcl.so --expected expected_symbols.txt
                        --include <dir containing acl/> --gen scripts/gen_api_stubs.py [--nm nm]
"""
import argparse
import subprocess
import sys


def exported(lib, nm):
    res = subprocess.run([nm, "-D", "--defined-only", lib], capture_output=True, text=True, check=True)
    names = set()
    for line in res.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 3:
            names.add(parts[2].split("@")[0])
    return names


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--expected", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--gen", required=True)
    ap.add_argument("--nm", default="nm")
    a = ap.parse_args()

    have = exported(a.lib, a.nm)
    expected = []
    with open(a.expected, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                expected.append(line)
    declared = subprocess.run([sys.executable, a.gen, "--include", a.include, "--list"], capture_output=True,
                              text=True, check=True).stdout.split()

    status = 0
    missing = [n for n in expected if n not in have]
    if missing:
        status = 1
        print("%d function(s) named by the spec are not exported by %s:" % (len(missing), a.lib))
        for n in missing:
            print("  " + n)
    undeclared = [n for n in declared if n not in have]
    if undeclared:
        status = 1
        print("%d function(s) declared in the public headers are not exported:" % len(undeclared))
        for n in undeclared:
            print("  " + n)
    allowed = set(expected) | set(declared)
    # the linker's own entries of every shared object
    allowed |= {"_init", "_fini", "_edata", "_end", "__bss_start"}
    extra = sorted(n for n in have if n not in allowed)
    if extra:
        status = 1
        proto = [n for n in extra if n.startswith("ge__proto__") or n.startswith("domi__")]
        print("%d exported symbol(s) are not CANN names (%d protobuf-c):" % (len(extra), len(proto)))
        for n in extra[:50]:
            print("  " + n)
    if status == 0:
        print("all %d spec names and %d declared functions are exported, and nothing else (%d symbols)"
              % (len(expected), len(declared), len(have)))
    return status


if __name__ == "__main__":
    sys.exit(main())

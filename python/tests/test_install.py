#!/usr/bin/env python3
"""The installed layout (docs/python.md): after `. <prefix>/set_env.sh`, `import acl` loads
<prefix>/python/site-packages/acl.so (pyACL's file name); the older
<prefix>/pyACL/python/site-packages/acl directory (itself on PYTHONPATH) loads the same module;
the sub-modules are in sys.modules like pyACL's; acl.so needs no LD_LIBRARY_PATH (its RPATH).

  test_install.py PREFIX
"""
import os
import subprocess
import sys

from common import check, done

PREFIX = os.path.realpath(sys.argv[1])
SO = os.path.join(PREFIX, "python", "site-packages", "acl.so")
PY = sys.executable
PROBE = ("import acl, sys, os; import acl.rt, acl.mdl; "
         "print(os.path.realpath(acl.__file__)); print(sorted(m for m in sys.modules if m.startswith('acl.'))); "
         "print(acl.init(), acl.rt.set_device(0), acl.rt.reset_device(0), acl.finalize())")


def run(cmd, env):
    keep = {k: v for k, v in os.environ.items() if k in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS",
                                                         "ASCEND_PROCESS_LOG_PATH", "PATH", "HOME")}
    keep.update(env)
    r = subprocess.run(cmd, env=keep, capture_output=True, text=True)
    print("  $ %s\n%s%s" % (" ".join(cmd) if isinstance(cmd, list) else cmd, r.stdout, r.stderr), end="")
    return r


check(os.path.isfile(SO) and not os.path.islink(SO), "%s is installed" % SO)
r = run(["bash", "-c", '. "%s/set_env.sh" && "%s" -c "%s"' % (PREFIX, PY, PROBE)], {})
lines = r.stdout.splitlines()
check(r.returncode == 0 and lines[:1] == [SO], ". set_env.sh && import acl loads %s" % SO)
check(len(lines) >= 3 and "acl.rt" in lines[1] and "acl.util" in lines[1], "acl.rt, acl.mdl, ... are in sys.modules")
check(len(lines) >= 3 and lines[2] == "0 0 0 0", "init / set_device / reset_device / finalize -> 0")

# POSIX sh (dash) names no sourced file: set_env.sh must find itself from another directory,
# by a relative and by an absolute path, and still when run by a path with no set_env.sh in cwd
for shell in ("dash", "sh"):
    for how in ('. "%s/set_env.sh"' % PREFIX, '. "./%s/set_env.sh"' % os.path.relpath(PREFIX, "/")):
        r = subprocess.run([shell, "-c", '%s && echo "$ASCEND_HOME_PATH" && echo "$PYTHONPATH"' % how],
                           cwd="/", env={"PATH": os.environ.get("PATH", "")}, capture_output=True, text=True)
        got = r.stdout.splitlines()
        check(r.returncode == 0 and got[:1] == [PREFIX] and got[1:2] == [os.path.dirname(SO)],
              "%s -c '%s' (cwd /) -> ASCEND_HOME_PATH %s, got %r %s" % (shell, how, PREFIX, got, r.stderr))
r = run(["dash", "-c", '. "%s/set_env.sh" && "%s" -c "%s"' % (PREFIX, PY, PROBE)], {})
check(r.returncode == 0 and r.stdout.splitlines()[:1] == [SO], "dash: . set_env.sh && import acl loads %s" % SO)

old = os.path.join(PREFIX, "pyACL", "python", "site-packages", "acl")
check(os.path.islink(old), "%s is a link (the older layout)" % old)
r = run([PY, "-c", PROBE], {"PYTHONPATH": old})
check(r.returncode == 0 and r.stdout.splitlines()[:1] == [SO], "PYTHONPATH=<pyACL dir> import acl loads the same acl.so")

r = run([PY, "-c", PROBE], {"PYTHONPATH": os.path.dirname(SO)})
check(r.returncode == 0, "import acl without LD_LIBRARY_PATH (acl.so's RPATH finds libascendcl.so)")
done()

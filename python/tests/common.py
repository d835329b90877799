"""Shared bits of the acl module's tests: pyACL programs hard-code CANN's enum values, so do these."""
import atexit
import os
import shutil
import sys
import tempfile

ACL_SUCCESS = 0
ACL_ERROR_INVALID_PARAM = 100000
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEM_MALLOC_NORMAL_ONLY = 2
ACL_MEMCPY_HOST_TO_HOST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_MEMCPY_DEVICE_TO_DEVICE = 3
ACL_CALLBACK_NO_BLOCK = 0
ACL_CALLBACK_BLOCK = 1
ACL_FLOAT = 0
ACL_FLOAT16 = 1
ACL_INT8 = 2
ACL_INT32 = 3
ACL_INT64 = 9
ACL_FORMAT_NCHW = 0
ACL_FORMAT_ND = 2
ACL_TRANS_N = 0
ACL_TRANS_T = 1
ACL_COMPUTE_HIGH_PRECISION = 0
ACL_ENGINE_SYS = 0
ACL_COMPILE_SYS = 0
ACL_MDL_LOAD_FROM_FILE = 1
ACL_MDL_LOAD_FROM_MEM = 3
ACL_MDL_LOAD_TYPE_SIZET = 1
ACL_MDL_PATH_PTR = 2
ACL_MDL_MEM_ADDR_PTR = 3
ACL_MDL_MEM_SIZET = 4
NPY_FLOAT32 = 11

_failures = []


def check(cond, what):
    """Records one check; prints it."""
    print(("  ok: " if cond else "  FAIL: ") + what, flush=True)
    if not cond:
        _failures.append(what)


def ok(ret, what):
    if ret != ACL_SUCCESS:
        import acl
        what += " (%s)" % acl.get_recent_err_msg()
    check(ret == ACL_SUCCESS, "%s -> %s" % (what, ret))


def done():
    if _failures:
        print("%d check(s) failed" % len(_failures))
        sys.exit(1)
    print("all checks passed")


def scratch_dir(prefix):
    """A fresh directory under the system's temp dir, removed with everything in it when the test exits
    (a test that leaves its outputs behind fills /tmp over many runs)."""
    path = tempfile.mkdtemp(prefix=prefix)
    here = os.getcwd()

    def remove():
        if os.path.realpath(os.getcwd()).startswith(os.path.realpath(path)):
            os.chdir(here)
        shutil.rmtree(path, ignore_errors=True)
    atexit.register(remove)
    return path


def rel_l2(got, ref):
    import numpy as np
    got = np.asarray(got, dtype=np.float64).ravel()
    ref = np.asarray(ref, dtype=np.float64).ravel()
    if got.shape != ref.shape:
        return float("inf")
    den = float(np.sqrt((ref * ref).sum())) or 1.0
    return float(np.sqrt(((got - ref) ** 2).sum())) / den

#!/usr/bin/env python3
"""Wrong-type fuzz of the argument parsing: every function of acl and its sub-modules is called
with 0..21 arguments of every non-int type (and mixes of them). Each call must return or raise
TypeError / ValueError (pyACL's exceptions), never crash the interpreter; the table-generated
wrappers raise exactly TypeError("acl.<module>.<function> args parse failed"). Then stale and
made-up handles on the functions taking tracked handles: codes or failure values, no crash."""
import os
import warnings

import acl
from common import *  # noqa: F401,F403

warnings.simplefilter("ignore")

BAD = [None, "x", b"x", 1.5, [], [1.5], {}, (), object(), 1j, float("nan"), bytearray(b"x")]
ALLOWED = (TypeError, ValueError)


def functions():
    for modname in ("", "rt", "mdl", "op", "blas", "util", "media", "prof"):
        mod = getattr(acl, modname) if modname else acl
        for name in sorted(dir(mod)):
            f = getattr(mod, name)
            if callable(f) and not name.startswith("_") and not isinstance(f, type(acl)):
                yield ("acl." + modname + "." if modname else "acl.") + name, f


def fuzz_types():
    calls = unexpected = 0
    for qual, f in functions():
        for arity in range(0, 22):
            if arity == 0:
                continue  # a zero-argument call of a zero-parameter function really runs it (covered elsewhere)
            for i, v in enumerate(BAD):
                for args in ([v] * arity, [BAD[(i + j) % len(BAD)] for j in range(arity)]):
                    calls += 1
                    try:
                        f(*args)
                    except ALLOWED:
                        pass
                    except Exception as e:  # noqa: BLE001
                        unexpected += 1
                        print("  unexpected %s from %s%r: %s" % (type(e).__name__, qual, tuple(args), e))
    check(unexpected == 0, "%d wrong-type calls: only TypeError / ValueError (%d other)" % (calls, unexpected))


def messages():
    cases = [(acl.rt.malloc, (None, 0), "acl.rt.malloc"), (acl.rt.memcpy, (0, 0, 0, 0), "acl.rt.memcpy"),
             (acl.mdl.execute, (1, "x", 0), "acl.mdl.execute"), (acl.get_version, (1,), "acl.get_version"),
             (acl.create_tensor_desc, (0, "abc", 0), "acl.create_tensor_desc"),
             (acl.blas.gemm_ex, (0,) * 18, "acl.blas.gemm_ex"), (acl.op.set_attr_int, (0, "a", 2 ** 64), "acl.op.set_attr_int"),
             (acl.rt.set_device, (2 ** 31,), "acl.rt.set_device"), (acl.mdl.load_from_file, (b"x.om",), "acl.mdl.load_from_file"),
             (acl.mdl.load_from_file, ("a\0b",), "acl.mdl.load_from_file")]
    for f, args, qual in cases:
        try:
            f(*args)
            check(False, "%s%r raises TypeError" % (qual, args))
        except TypeError as e:
            check(str(e) == qual + " args parse failed", "%s%r -> TypeError(%r)" % (qual, args, str(e)))
    # numpy integers are ints; bools too (as for PyArg)
    import numpy as np
    r = acl.rt.malloc(np.int64(64), np.int32(0))
    check(isinstance(r, tuple) and r[1] == 0, "numpy integer arguments accepted")
    acl.rt.free(r[0])
    # util's own exceptions
    for f, args in ((acl.util.bytes_to_ptr, ("str",)), (acl.util.ptr_to_bytes, (0, 4)),
                    (acl.util.ptr_to_bytes, (r[0], -1)), (acl.util.ptr_to_numpy, (r[0], [4], 11)),
                    (acl.util.ptr_to_numpy, (0, (4,), 11)), (acl.util.ptr_to_numpy, (r[0], (4,), 99)),
                    (acl.util.numpy_to_ptr, ([1, 2],))):
        try:
            f(*args)
            check(False, "%s%r raises ValueError" % (f.__name__, args))
        except ValueError:
            check(True, "%s%r raises ValueError" % (f.__name__, args))


def stale():
    d = acl.create_tensor_desc(ACL_FLOAT, [2, 3], ACL_FORMAT_ND)
    check(acl.get_tensor_desc_element_count(d) == 6, "live tensor desc")
    acl.destroy_tensor_desc(d)
    for name in ("get_tensor_desc_type", "get_tensor_desc_format", "get_tensor_desc_size",
                 "get_tensor_desc_element_count", "get_tensor_desc_num_dims", "get_tensor_desc_address"):
        check(getattr(acl, name)(d) == 0, "acl.%s(destroyed desc) -> 0" % name)
    check(acl.get_tensor_desc_name(d) is None, "get_tensor_desc_name(destroyed desc) -> None")
    check(acl.get_tensor_desc_dim_v2(d, 0) == (0, ACL_ERROR_INVALID_PARAM), "get_tensor_desc_dim_v2 -> (0, code)")
    check(acl.set_tensor_shape(d, [1]) == ACL_ERROR_INVALID_PARAM, "set_tensor_shape(destroyed) -> code")
    check(acl.trans_tensor_desc_format(d, 0) == (0, ACL_ERROR_INVALID_PARAM), "trans_tensor_desc_format -> (0, code)")
    acl.destroy_tensor_desc(d)  # twice: nothing happens
    check(True, "destroy_tensor_desc twice is harmless")
    made_up = [0x10, 0xdeadbeef, 2 ** 63 + 8, 12345678]
    for h in made_up:
        check(acl.get_data_buffer_addr(h) == 0 and acl.get_data_buffer_size(h) == 0, "made-up data buffer -> 0")
        check(acl.destroy_data_buffer(h) == ACL_ERROR_INVALID_PARAM, "destroy_data_buffer(made up) -> code")
        check(acl.mdl.destroy_desc(h) == ACL_ERROR_INVALID_PARAM, "destroy_desc(made up) -> code")
        check(acl.mdl.get_dynamic_batch(h) == ({}, ACL_ERROR_INVALID_PARAM), "get_dynamic_batch(made up)")
        check(acl.mdl.add_dataset_buffer(h, h)[1] == ACL_ERROR_INVALID_PARAM, "add_dataset_buffer(made up)")
        check(acl.op.set_attr_string(h, "a", "b") == ACL_ERROR_INVALID_PARAM, "set_attr_string(made up)")
        check(acl.mdl.set_aipp_src_image_size(h, 1, 1) == ACL_ERROR_INVALID_PARAM, "set_aipp_src_image_size(made up)")
        check(acl.op.execute_with_handle(h, [], [], 0) == ACL_ERROR_INVALID_PARAM, "execute_with_handle(made up)")
        check(acl.op.execute("Add", [h], [], [], [], 0, 0) == ACL_ERROR_INVALID_PARAM, "op.execute([made up])")
    # the handles tracked for VDEC/VENC, stream and batch descriptions, border configs, allocator
    # descriptors and stream config handles: every function taking one, called with made-up ones
    # at its arity, returns a code or a failure value (callables expected raise TypeError)
    tracked = [(acl.media, n) for n in dir(acl.media)
               if n.startswith(("vdec_", "venc_")) or "stream_desc" in n or "batch" in n or "border" in n
               or n == "dvpp_get_pic_desc"]
    tracked += [(acl.rt, n) for n in dir(acl.rt) if n.startswith("allocator_") or "stream_config" in n
                or n == "create_stream_v2"]
    called = 0
    for mod, n in tracked:
        f = getattr(mod, n)
        for arity in range(1, 9):
            try:
                r = f(*([0xdeadbeef0] * arity))
            except TypeError:
                continue
            except RuntimeError:  # a send on a description without a callback (pyACL's exception)
                called += 1
                break
            called += 1
            first = r[-1] if isinstance(r, tuple) else r
            check(first in (0, None, ACL_ERROR_INVALID_PARAM, 0xFF) or (isinstance(r, tuple) and r[-1] ==
                  ACL_ERROR_INVALID_PARAM), "%s(made-up x%d) -> %r" % (n, arity, r))
            break
    check(called >= 60, "%d tracked-handle functions called with made-up handles" % called)
    # handles of the library's own registry (streams, events, contexts)
    check(acl.rt.destroy_stream(0xdeadbeef) != 0, "destroy_stream(made up) -> code")
    check(acl.rt.synchronize_event(0xdeadbeef) != 0, "synchronize_event(made up) -> code")
    check(acl.rt.set_context(0xdeadbeef) != 0, "set_context(made up) -> code")


def negative_sizes():
    """Byte counts are unsigned in C: a negative one is refused with a code (pyACL would pass a huge
    count on), never raised and never copied."""
    p, ret = acl.rt.malloc(64, 0)
    ok(ret, "malloc")
    cases = [("rt.memcpy", lambda: acl.rt.memcpy(p, -1, p, -1, ACL_MEMCPY_DEVICE_TO_DEVICE)),
             ("rt.memcpy count -8", lambda: acl.rt.memcpy(p, 64, p, -8, ACL_MEMCPY_DEVICE_TO_DEVICE)),
             ("rt.memset", lambda: acl.rt.memset(p, 64, 0, -1)),
             ("rt.memcpy2d", lambda: acl.rt.memcpy2d(p, -4, p, 4, 4, 1, ACL_MEMCPY_DEVICE_TO_DEVICE)),
             ("rt.malloc", lambda: acl.rt.malloc(-1, 0)[1]),
             ("rt.malloc_host", lambda: acl.rt.malloc_host(-(2 ** 70))[1]),
             ("mdl.load_from_mem", lambda: acl.mdl.load_from_mem(p, -1)[1]),
             ("mdl.query_size_from_mem", lambda: acl.mdl.query_size_from_mem(p, -1)[2])]
    for what, f in cases:
        check(f() == ACL_ERROR_INVALID_PARAM, "negative size: acl.%s -> ACL_ERROR_INVALID_PARAM" % what)
    check(acl.create_data_buffer(p, -1) == 0, "create_data_buffer(ptr, -1) -> 0 (no buffer)")
    ok(acl.rt.free(p), "free")


def main():
    os.chdir(scratch_dir("pyacl_fuzz_"))  # str arguments name files: keep them out of the tree
    ok(acl.init(), "acl.init()")
    ok(acl.rt.set_device(0), "set_device")
    messages()
    stale()
    negative_sizes()
    fuzz_types()
    ok(acl.rt.reset_device(0), "reset_device")
    ok(acl.finalize(), "finalize")
    done()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Single operators and acl_cblas the pyACL way, against numpy:
  acl.op.compile of GEMM models (the way acl_cblas describes them), then acl.blas.gemm_ex (float32,
  A transposed), s8gemm (exact), gemv_ex, create_handle_for_gemm_ex + acl.op.execute_with_handle;
  acl.op.compile_and_execute (Add, Mul), acl.op.compile + execute_v2 (TransposeD with a list attribute),
  execute of an op that was never compiled -> a code, not an exception."""
import json
import os

import numpy as np

import acl
from common import *  # noqa: F401,F403


def dev_copy(arr):
    arr = np.ascontiguousarray(arr)
    d, ret = acl.rt.malloc(max(arr.nbytes, 1), ACL_MEM_MALLOC_HUGE_FIRST)
    ok(acl.rt.memcpy(d, arr.nbytes, acl.util.numpy_to_ptr(arr), arr.nbytes, ACL_MEMCPY_HOST_TO_DEVICE), "H2D")
    return d


def dev_read(d, shape, dtype):
    n = int(np.prod(shape)) * np.dtype(dtype).itemsize
    return np.frombuffer(acl.util.ptr_to_bytes(d, n), dtype).reshape(shape)


def compile_gemm(ab, c, m, n, k, ta):
    descs = [acl.create_tensor_desc(ab, [k, m] if ta else [m, k], ACL_FORMAT_ND),
             acl.create_tensor_desc(ab, [k, n], ACL_FORMAT_ND),
             acl.create_tensor_desc(c, [m, n], ACL_FORMAT_ND),
             acl.create_tensor_desc(c, [], ACL_FORMAT_ND)]
    attr = acl.op.create_attr()
    ok(acl.op.set_attr_bool(attr, "transpose_a", 1 if ta else 0), "set_attr_bool transpose_a")
    ok(acl.op.set_attr_bool(attr, "transpose_b", 0), "set_attr_bool transpose_b")
    ins = [descs[0], descs[1], descs[2], descs[3], descs[3]]
    ok(acl.op.compile("GEMM", ins, [descs[2]], attr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, None),
       "acl.op.compile GEMM %dx%dx%d" % (m, n, k))
    acl.op.destroy_attr(attr)
    for d in descs:
        acl.destroy_tensor_desc(d)


def blas(stream):
    rng = np.random.default_rng(3)
    m = n = k = 16
    compile_gemm(ACL_FLOAT, ACL_FLOAT, m, n, k, True)
    a = rng.standard_normal((k, m)).astype(np.float32)  # stored transposed
    b = rng.standard_normal((k, n)).astype(np.float32)
    c = rng.standard_normal((m, n)).astype(np.float32)
    alpha, beta = np.float32(1.5), np.float32(-1.0)
    da, db, dc = dev_copy(a), dev_copy(b), dev_copy(c)
    dal, dbe = dev_copy(np.array([alpha])), dev_copy(np.array([beta]))
    ok(acl.blas.gemm_ex(ACL_TRANS_T, ACL_TRANS_N, ACL_TRANS_N, m, n, k, dal, da, -1, ACL_FLOAT, db, -1, ACL_FLOAT,
                        dbe, dc, -1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream), "acl.blas.gemm_ex")
    ok(acl.rt.synchronize_stream(stream), "synchronize_stream")
    want = 1.5 * a.T.astype(np.float64) @ b - 1.0 * c
    got = dev_read(dc, (m, n), np.float32)
    check(np.allclose(got, want, rtol=1e-5, atol=1e-5), "gemm_ex == numpy (max error %.3g)" % np.abs(got - want).max())

    # the same through a handle and execute_with_handle
    acl.rt.memcpy(dc, c.nbytes, acl.util.numpy_to_ptr(c), c.nbytes, ACL_MEMCPY_HOST_TO_DEVICE)
    h, ret = acl.blas.create_handle_for_gemm_ex(ACL_TRANS_T, ACL_TRANS_N, ACL_TRANS_N, m, n, k, ACL_FLOAT, ACL_FLOAT,
                                                ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION)
    ok(ret, "create_handle_for_gemm_ex")
    bufs = [acl.create_data_buffer(p, s) for p, s in ((da, a.nbytes), (db, b.nbytes), (dc, c.nbytes), (dal, 4),
                                                      (dbe, 4))]
    ok(acl.op.execute_with_handle(h, bufs, [bufs[2]], stream), "acl.op.execute_with_handle")
    ok(acl.rt.synchronize_stream(stream), "synchronize_stream")
    got = dev_read(dc, (m, n), np.float32)
    check(np.allclose(got, want, rtol=1e-5, atol=1e-5), "handle execution == numpy")
    acl.op.destroy_handle(h)
    check(acl.op.execute_with_handle(h, bufs, [bufs[2]], stream) == ACL_ERROR_INVALID_PARAM,
          "execute_with_handle on a destroyed handle refused")
    for x in bufs:
        acl.destroy_data_buffer(x)
    for p in (da, db, dc, dal, dbe):
        acl.rt.free(p)

    # int8 x int8 -> int32, exact
    sm, sn, sk = 5, 7, 33
    compile_gemm(ACL_INT8, ACL_INT32, sm, sn, sk, False)
    a8 = ((np.arange(sm * sk) * 37) % 255 - 127).astype(np.int8).reshape(sm, sk)
    b8 = ((np.arange(sk * sn) * 91) % 255 - 127).astype(np.int8).reshape(sk, sn)
    c32 = (np.arange(sm * sn) * 1000 - 17000).astype(np.int32).reshape(sm, sn)
    da, db, dc = dev_copy(a8), dev_copy(b8), dev_copy(c32)
    dal, dbe = dev_copy(np.array([3], np.int32)), dev_copy(np.array([-2], np.int32))
    ok(acl.blas.s8gemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, sm, sn, sk, dal, da, -1, db, -1, dbe, dc, -1,
                       ACL_COMPUTE_HIGH_PRECISION, stream), "acl.blas.s8gemm")
    ok(acl.rt.synchronize_stream(stream), "synchronize_stream")
    want = 3 * (a8.astype(np.int64) @ b8.astype(np.int64)) - 2 * c32.astype(np.int64)
    check(np.array_equal(dev_read(dc, (sm, sn), np.int32), want.astype(np.int32)), "s8gemm == numpy, exact")
    for p in (da, db, dc, dal, dbe):
        acl.rt.free(p)

    # y = alpha * A^T x + beta * y
    vm, vn = 6, 9
    compile_gemm(ACL_FLOAT, ACL_FLOAT, vm, 1, vn, True)
    a = rng.standard_normal((vn, vm)).astype(np.float32)
    x = rng.standard_normal(vn).astype(np.float32)
    y0 = rng.standard_normal(vm).astype(np.float32)
    da, dx, dy = dev_copy(a), dev_copy(x), dev_copy(y0)
    dal, dbe = dev_copy(np.array([2.0], np.float32)), dev_copy(np.array([0.25], np.float32))
    ok(acl.blas.gemv_ex(ACL_TRANS_T, vm, vn, dal, da, -1, ACL_FLOAT, dx, -1, ACL_FLOAT, dbe, dy, -1, ACL_FLOAT,
                        ACL_COMPUTE_HIGH_PRECISION, stream), "acl.blas.gemv_ex")
    ok(acl.rt.synchronize_stream(stream), "synchronize_stream")
    want = 2.0 * a.T.astype(np.float64) @ x + 0.25 * y0
    got = dev_read(dy, (vm,), np.float32)
    check(np.allclose(got, want, rtol=1e-5, atol=1e-5), "gemv_ex == numpy")
    for p in (da, dx, dy, dal, dbe):
        acl.rt.free(p)


class Tensor:
    def __init__(self, arr, dtype=ACL_FLOAT):
        self.arr = np.ascontiguousarray(arr)
        self.desc = acl.create_tensor_desc(dtype, list(self.arr.shape), ACL_FORMAT_ND)
        self.dev = dev_copy(self.arr)
        self.buf = acl.create_data_buffer(self.dev, self.arr.nbytes)

    def read(self):
        return dev_read(self.dev, self.arr.shape, self.arr.dtype)

    def free(self):
        acl.destroy_data_buffer(self.buf)
        acl.destroy_tensor_desc(self.desc)
        acl.rt.free(self.dev)


def single_ops(stream):
    rng = np.random.default_rng(5)
    x = Tensor(rng.standard_normal((4, 5)).astype(np.float32))
    y = Tensor(rng.standard_normal((4, 5)).astype(np.float32))
    z = Tensor(np.zeros((4, 5), np.float32))
    for op, f in (("Add", np.add), ("Mul", np.multiply)):
        ok(acl.op.compile_and_execute(op, [x.desc, y.desc], [x.buf, y.buf], [z.desc], [z.buf], 0, ACL_ENGINE_SYS,
                                      ACL_COMPILE_SYS, None, stream), "acl.op.compile_and_execute %s" % op)
        ok(acl.rt.synchronize_stream(stream), "synchronize_stream")
        check(np.allclose(z.read(), f(x.arr, y.arr), rtol=1e-6, atol=1e-6), "%s == numpy" % op)

    # compile, then execute_v2 finds the compiled op; a list attribute
    t = Tensor(np.zeros((5, 4), np.float32))
    attr = acl.op.create_attr()
    ok(acl.op.set_attr_list_int(attr, "perm", [1, 0]), "set_attr_list_int perm")
    check(acl.op.execute_v2("TransposeD", [x.desc], [x.buf], [t.desc], [t.buf], attr, stream) != 0,
          "execute_v2 of an op never compiled -> a code")
    ok(acl.op.compile("TransposeD", [x.desc], [t.desc], attr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, None),
       "acl.op.compile TransposeD")
    ok(acl.op.execute_v2("TransposeD", [x.desc], [x.buf], [t.desc], [t.buf], attr, stream), "acl.op.execute_v2")
    ok(acl.rt.synchronize_stream(stream), "synchronize_stream")
    check(np.array_equal(t.read(), x.arr.T), "TransposeD == numpy .T (exact)")
    ok(acl.op.execute("TransposeD", [x.desc], [x.buf], [t.desc], [t.buf], attr, stream), "acl.op.execute")
    ok(acl.rt.synchronize_stream(stream), "synchronize_stream")
    acl.op.destroy_attr(attr)
    check(acl.op.set_attr_int(attr, "n", 1) == ACL_ERROR_INVALID_PARAM, "a destroyed attr is refused")
    try:
        acl.op.execute("TransposeD", x.desc, [x.buf], [t.desc], [t.buf], 0, stream)
        check(False, "a handle where a list is expected raises TypeError")
    except TypeError as e:
        check(str(e) == "acl.op.execute args parse failed", "a handle where a list is expected: %s" % e)
    for v in (x, y, z, t):
        v.free()


def dump_callbacks(stream):
    """acl.mdl.dump_reg_callback: with dump_op_switch on, the single op's dump reaches the Python callable in
    chunks instead of files; the chunks hold the op's input bytes; after dump_unreg_callback, files again."""
    rng = np.random.default_rng(9)
    x = Tensor(rng.standard_normal((3, 7)).astype(np.float32))
    y = Tensor(rng.standard_normal((3, 7)).astype(np.float32))
    z = Tensor(np.zeros((3, 7), np.float32))
    tmp = scratch_dir("pyacl_dump_")
    cfg = os.path.join(tmp, "dump.json")
    os.makedirs(os.path.join(tmp, "out"))
    with open(cfg, "w") as f:
        json.dump({"dump": {"dump_path": os.path.join(tmp, "out"), "dump_op_switch": "on", "dump_mode": "all"}}, f)
    ok(acl.mdl.init_dump(), "init_dump")
    ok(acl.mdl.set_dump(cfg), "set_dump (dump_op_switch on)")
    chunks = []

    def on_chunk(c):
        chunks.append(dict(c, data=acl.util.ptr_to_bytes(c["data_buf"], c["buf_len"])))

    check(acl.mdl.dump_reg_callback(on_chunk, 1) != 0, "dump_reg_callback with flag 1 is refused (only 0)")
    ok(acl.mdl.dump_reg_callback(on_chunk, 0), "dump_reg_callback")

    def run():
        ok(acl.op.compile_and_execute("Add", [x.desc, y.desc], [x.buf, y.buf], [z.desc], [z.buf], 0, ACL_ENGINE_SYS,
                                      ACL_COMPILE_SYS, None, stream), "compile_and_execute Add (dumped)")
        ok(acl.rt.synchronize_stream(stream), "synchronize_stream")

    run()
    check(len(chunks) > 0 and chunks[-1]["is_last_chunk"] == 1, "the dump arrived as %d chunk(s), the last marked"
          % len(chunks))
    check(all(set(c) >= {"file_name", "data_buf", "buf_len", "is_last_chunk", "offset", "flag"} for c in chunks),
          "chunks carry pyACL's keys")
    data = b"".join(c["data"] for c in chunks)
    check(x.arr.tobytes() in data and y.arr.tobytes() in data and z.read().tobytes() in data,
          "the dump holds the op's input and output bytes")
    check(not os.path.exists(os.path.join(tmp, "out")) or not any(files for _, _, files in os.walk(os.path.join(tmp, "out"))),
          "with a callback nothing is written to dump_path")
    check(acl.mdl.dump_unreg_callback() is None, "dump_unreg_callback -> None")
    n = len(chunks)
    run()
    check(len(chunks) == n, "no chunk after dump_unreg_callback")
    check(any(files for _, _, files in os.walk(os.path.join(tmp, "out"))), "after it the dump goes to files again")
    ok(acl.mdl.finalize_dump(), "finalize_dump")
    try:
        acl.mdl.dump_reg_callback(5, 0)
        check(False, "a non-callable raises TypeError")
    except TypeError:
        check(True, "a non-callable raises TypeError")
    for v in (x, y, z):
        v.free()


def main():
    ok(acl.init(), "acl.init()")
    ok(acl.rt.set_device(0), "set_device")
    stream, ret = acl.rt.create_stream()
    ok(ret, "create_stream")
    blas(stream)
    single_ops(stream)
    dump_callbacks(stream)
    ok(acl.rt.destroy_stream(stream), "destroy_stream")
    ok(acl.rt.reset_device(0), "reset_device")
    ok(acl.finalize(), "finalize")
    done()


if __name__ == "__main__":
    main()

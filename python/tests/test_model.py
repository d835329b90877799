#!/usr/bin/env python3
"""Model inference the pyACL way, checked against ONNX Runtime's outputs on the same inputs
(relative L2 <= 1e-4, the compat programs' bound):
  static cls and rec: every load variant (file, memory, file with memory, config handle),
  execute and execute_async + a callback, two Python threads executing at once;
  gears: cls with a dynamic batch, rec with dynamic image sizes and with dynamic dims (get_dynamic_batch,
  get_dynamic_hw, get_input_dynamic_dims, set_dynamic_batch_size / set_dynamic_hw_size /
  set_input_dynamic_dims, get_cur_output_dims);
  the dynamic-shape cls (set_dataset_tensor_desc, output buffer allocated by execute);
  external weights given as the application's device memory (set_external_weight_address);
  stale datasets and buffers refused with ACL_ERROR_INVALID_PARAM.

  test_model.py MODELS_DATA DYNAMIC_DATA
"""
import json
import os
import sys
import threading
import time

import numpy as np

import acl
from common import *  # noqa: F401,F403

MD, DD = sys.argv[1], sys.argv[2]


def read_ref(ref_dir):
    meta = json.load(open(os.path.join(ref_dir, "outputs.json")))
    outs = meta["outputs"]
    return [np.fromfile(os.path.join(ref_dir, o["file"]), dtype=o["dtype"]).reshape(o["shape"]) for o in outs]


class Model:
    """The usual pyACL model wrapper: desc, input/output datasets of device buffers."""

    def __init__(self, model_id):
        self.id = model_id
        self.desc = acl.mdl.create_desc()
        ok(acl.mdl.get_desc(self.desc, self.id), "get_desc")

    def make_io(self, x):
        self.inp = acl.mdl.create_dataset()
        self.out = acl.mdl.create_dataset()
        n = x.nbytes
        check(acl.mdl.get_input_size_by_index(self.desc, 0) == n, "input size %d == %d" % (
            acl.mdl.get_input_size_by_index(self.desc, 0), n))
        self.d_in, ret = acl.rt.malloc(n, ACL_MEM_MALLOC_HUGE_FIRST)
        xb = x.tobytes()  # alive while its address is used
        ok(acl.rt.memcpy(self.d_in, n, acl.util.bytes_to_ptr(xb), n, ACL_MEMCPY_HOST_TO_DEVICE), "H2D input")
        self.b_in = acl.create_data_buffer(self.d_in, n)
        _, ret = acl.mdl.add_dataset_buffer(self.inp, self.b_in)
        ok(ret, "add_dataset_buffer (input)")
        self.outs = []
        for i in range(acl.mdl.get_num_outputs(self.desc)):
            size = acl.mdl.get_output_size_by_index(self.desc, i)
            d, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
            b = acl.create_data_buffer(d, size)
            ds, ret = acl.mdl.add_dataset_buffer(self.out, b)
            check(ds == self.out and ret == 0, "add_dataset_buffer echoes the dataset")
            self.outs.append((d, size, b))

    def results(self):
        res = []
        for i, (d, size, _) in enumerate(self.outs):
            host = np.zeros(size // 4, np.float32)
            ok(acl.rt.memcpy(acl.util.numpy_to_ptr(host), size, d, size, ACL_MEMCPY_DEVICE_TO_HOST), "D2H output")
            dims, ret = acl.mdl.get_output_dims(self.desc, i)
            res.append(host.reshape(dims["dims"]))
        return res

    def free_io(self):
        for d, _, b in self.outs:
            ok(acl.destroy_data_buffer(b), "destroy_data_buffer")
            ok(acl.rt.free(d), "free")
        ok(acl.destroy_data_buffer(self.b_in), "destroy_data_buffer")
        ok(acl.rt.free(self.d_in), "free")
        ok(acl.mdl.destroy_dataset(self.inp), "destroy_dataset")
        ok(acl.mdl.destroy_dataset(self.out), "destroy_dataset")

    def unload(self):
        ok(acl.mdl.destroy_desc(self.desc), "destroy_desc")
        ok(acl.mdl.unload(self.id), "unload")


def close(got, ref, what):
    e = rel_l2(got, ref)
    check(e <= 1e-4, "%s vs ONNX Runtime: relative L2 %.3g" % (what, e))


def static_model(name, stream):
    om = os.path.join(MD, "om", name + ".om")
    x = np.fromfile(os.path.join(MD, "inputs", name + "_x.bin"), np.float32)
    refs = read_ref(os.path.join(MD, "ref", name))

    # 1. load_from_file + the description getters
    mid, ret = acl.mdl.load_from_file(om)
    ok(ret, "load_from_file %s" % name)
    m = Model(mid)
    check(acl.mdl.get_num_inputs(m.desc) == 1, "get_num_inputs == 1")
    check(acl.mdl.get_num_outputs(m.desc) == len(refs), "get_num_outputs == %d" % len(refs))
    dims, ret = acl.mdl.get_input_dims(m.desc, 0)
    ok(ret, "get_input_dims -> %s" % dims)
    check(dims["dimCount"] == len(dims["dims"]) and int(np.prod(dims["dims"])) == x.size, "input dims match the input")
    x = x.reshape(dims["dims"])
    iname = acl.mdl.get_input_name_by_index(m.desc, 0)
    idx, ret = acl.mdl.get_input_index_by_name(m.desc, iname)
    check(ret == 0 and idx == 0, "get_input_index_by_name(%r) -> 0" % iname)
    check(acl.mdl.get_input_data_type(m.desc, 0) == ACL_FLOAT, "input data type float")
    check(isinstance(acl.mdl.get_input_format(m.desc, 0), int), "get_input_format is an int")
    bad, ret = acl.mdl.get_input_dims(m.desc, 5)
    check(bad == {} and ret != 0, "get_input_dims out of range -> ({}, code)")
    m.make_io(x)
    ok(acl.mdl.execute(m.id, m.inp, m.out), "execute")
    first = m.results()
    for got, ref in zip(first, refs):
        close(got, ref, name + " execute")

    # 2. execute_async + a callback on the stream, then synchronize (a second instance: CANN refuses
    #    mixing synchronous and asynchronous execution of one model)
    mid2, ret = acl.mdl.load_from_file(om)
    ok(ret, "load_from_file (second instance)")
    ma = Model(mid2)
    ma.make_io(x)
    fired = []
    tid = threading.get_ident()
    ok(acl.rt.subscribe_report(tid, stream), "subscribe_report (this thread)")
    ok(acl.mdl.execute_async(ma.id, ma.inp, ma.out, stream), "execute_async")
    ok(acl.rt.launch_callback(lambda d: fired.append(d), "done", ACL_CALLBACK_BLOCK, stream), "launch_callback")
    ok(acl.rt.process_report(5000), "process_report runs the callback")
    ok(acl.rt.synchronize_stream(stream), "synchronize_stream")
    ok(acl.rt.unsubscribe_report(tid, stream), "unsubscribe_report")
    check(fired == ["done"], "the callback ran after the async execution")
    check(acl.mdl.execute(ma.id, ma.inp, ma.out) != 0, "execute after execute_async refused (no mixing, as CANN)")
    for got, ref in zip(ma.results(), first):
        check(np.array_equal(got, ref), name + " execute_async == execute")
    ma.free_io()
    ma.unload()

    # 3. two Python threads executing at once (the GIL is released during execute)
    def worker(res):
        mm = Model(m.id)
        mm.make_io(x)
        for _ in range(3):
            res.append(acl.mdl.execute(mm.id, mm.inp, mm.out))
        res.append(mm.results())
        mm.free_io()
        acl.mdl.destroy_desc(mm.desc)

    ctx, _ = acl.rt.get_context()

    def run(res):
        acl.rt.set_context(ctx)
        worker(res)

    r1, r2 = [], []
    threads = [threading.Thread(target=run, args=(r,)) for r in (r1, r2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in (r1, r2):
        check(r[:3] == [0, 0, 0] and all(np.array_equal(a, b) for a, b in zip(r[3], first)),
              name + ": two threads executing concurrently get the same results")
    # 4. the GIL is free during execute: a Python thread keeps running while this one executes
    ticks, stop = [], []

    def ticker():
        while not stop:
            ticks.append(1)
            time.sleep(0.0005)

    # A long switch interval: were the GIL held during execute, the ticker could only run
    # when the interpreter forces a switch (once a second), so 10 ticks within 2 s prove the
    # GIL is released. Counting ticks per time is not used: a loaded machine starves threads.
    old_interval = sys.getswitchinterval()
    sys.setswitchinterval(1.0)
    th = threading.Thread(target=ticker)
    th.start()
    time.sleep(0.01)
    n0, t0, runs = len(ticks), time.time(), 0
    while len(ticks) - n0 < 10 and time.time() - t0 < 2.0:
        acl.mdl.execute(m.id, m.inp, m.out)
        runs += 1
    spent, during = time.time() - t0, len(ticks) - n0
    stop.append(1)
    th.join()
    sys.setswitchinterval(old_interval)
    check(during >= 10, "%s: another Python thread ran %d times during %d executions (%.0f ms)" % (
        name, during, runs, spent * 1e3))
    m.free_io()
    m.unload()

    # 5. load_from_mem (the file's bytes, no copy), load_from_file_with_mem, load_with_config
    blob = open(om, "rb").read()
    mid, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(blob), len(blob))
    ok(ret, "load_from_mem")
    variants = [("load_from_mem", mid)]
    work, weight, ret = acl.mdl.query_size(om)
    ok(ret, "query_size -> work %d, weight %d" % (work, weight))
    w2, wt2, ret = acl.mdl.query_size_from_mem(acl.util.bytes_to_ptr(blob), len(blob))
    check(ret == 0 and (w2, wt2) == (work, weight), "query_size_from_mem agrees")
    wptr, _ = acl.rt.malloc(max(work, 1), 0)
    tptr, _ = acl.rt.malloc(max(weight, 1), 0)
    mid, ret = acl.mdl.load_from_file_with_mem(om, wptr, work, tptr, weight)
    ok(ret, "load_from_file_with_mem")
    variants.append(("load_from_file_with_mem", mid))
    cfg = acl.mdl.create_config_handle()
    ok(acl.mdl.set_config_opt(cfg, ACL_MDL_LOAD_TYPE_SIZET, ACL_MDL_LOAD_FROM_FILE), "set_config_opt LOAD_TYPE")
    ok(acl.mdl.set_config_opt(cfg, ACL_MDL_PATH_PTR, om), "set_config_opt PATH_PTR (a str)")
    mid, ret = acl.mdl.load_with_config(cfg)
    ok(ret, "load_with_config")
    variants.append(("load_with_config", mid))
    ok(acl.mdl.destroy_config_handle(cfg), "destroy_config_handle")
    for what, mid in variants:
        mm = Model(mid)
        mm.make_io(x)
        ok(acl.mdl.execute(mm.id, mm.inp, mm.out), "execute (%s)" % what)
        for got, ref in zip(mm.results(), first):
            check(np.array_equal(got, ref), "%s: %s gives the same output" % (name, what))
        mm.free_io()
        mm.unload()
    acl.rt.free(wptr)
    acl.rt.free(tptr)
    return first


def gear_model(name, input_file, ref_dir, set_gear):
    """A model with gears (atc --dynamic_batch_size / --dynamic_image_size / --dynamic_dims): the
    input buffer sized for the largest gear, the gear input, the gear chosen by set_gear(m, inp,
    gear_index), the output's current dims from get_cur_output_dims; against ONNX Runtime."""
    om = os.path.join(MD, "om", name + ".om")
    mid, ret = acl.mdl.load_from_file(om)
    ok(ret, "load_from_file %s" % name)
    m = Model(mid)
    x = np.fromfile(os.path.join(MD, "inputs", input_file), np.float32)
    ref = read_ref(os.path.join(MD, "ref", ref_dir))[0]
    m.inp, m.out = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    bufs = []
    for i in range(acl.mdl.get_num_inputs(m.desc)):
        size = acl.mdl.get_input_size_by_index(m.desc, i)
        d, _ = acl.rt.malloc(max(size, 1), 0)
        if i == 0:
            check(size >= x.nbytes, "%s: input 0 holds the largest gear (%d >= %d bytes)" % (name, size, x.nbytes))
            xb = x.tobytes()
            ok(acl.rt.memcpy(d, size, acl.util.bytes_to_ptr(xb), x.nbytes, ACL_MEMCPY_HOST_TO_DEVICE), "H2D")
        b = acl.create_data_buffer(d, size)
        acl.mdl.add_dataset_buffer(m.inp, b)
        bufs.append((d, b))
    outs = []
    for i in range(acl.mdl.get_num_outputs(m.desc)):
        size = acl.mdl.get_output_size_by_index(m.desc, i)
        d, _ = acl.rt.malloc(max(size, 1), 0)
        b = acl.create_data_buffer(d, size)
        acl.mdl.add_dataset_buffer(m.out, b)
        outs.append((d, b))
    idx, ret = acl.mdl.get_input_index_by_name(m.desc, "ascend_mbatch_shape_data")
    ok(ret, "%s: get_input_index_by_name(ascend_mbatch_shape_data) -> %d" % (name, idx))
    set_gear(m, m.inp, idx)
    ok(acl.mdl.execute(m.id, m.inp, m.out), "%s: execute" % name)
    dims, ret = acl.mdl.get_cur_output_dims(m.desc, 0)
    ok(ret, "%s: get_cur_output_dims -> %s" % (name, dims.get("dims")))
    check(list(dims["dims"]) == list(ref.shape), "%s: current output dims == ONNX Runtime's %s" % (name, list(ref.shape)))
    got = np.frombuffer(acl.util.ptr_to_bytes(outs[0][0], ref.nbytes), np.float32)
    close(got, ref, name)
    for d, b in bufs + outs:
        acl.destroy_data_buffer(b)
        acl.rt.free(d)
    acl.mdl.destroy_dataset(m.inp)
    acl.mdl.destroy_dataset(m.out)
    m.unload()


def gears():
    def batch(m, inp, idx):
        b, ret = acl.mdl.get_dynamic_batch(m.desc)
        ok(ret, "get_dynamic_batch -> %s" % b)
        check(b["batchCount"] == 3 and b["batch"] == [1, 2, 4], "the batch gears are 1, 2, 4")
        check(acl.mdl.set_dynamic_batch_size(m.id, inp, idx, 3) != 0, "set_dynamic_batch_size 3 (no such gear) refused")
        ok(acl.mdl.set_dynamic_batch_size(m.id, inp, idx, 2), "set_dynamic_batch_size 2")

    def hw(m, inp, idx):
        g, ret = acl.mdl.get_dynamic_hw(m.desc, -1)
        ok(ret, "get_dynamic_hw -> %s" % g)
        check(g["hwCount"] == 2 and sorted(g["hw"]) == [[48, 160], [48, 320]], "the HW gears are 48x320, 48x160")
        ok(acl.mdl.set_dynamic_hw_size(m.id, inp, idx, 48, 160), "set_dynamic_hw_size 48, 160")

    def dims(m, inp, idx):
        n, ret = acl.mdl.get_input_dynamic_gear_count(m.desc, -1)
        ok(ret, "get_input_dynamic_gear_count -> %d" % n)
        g, ret = acl.mdl.get_input_dynamic_dims(m.desc, -1, n)
        ok(ret, "get_input_dynamic_dims -> %s" % [e["dims"] for e in g])
        check(n == 2 and sorted(e["dims"][-1] for e in g) == [160, 320], "the dims gears end in 160 and 320")
        ok(acl.mdl.set_input_dynamic_dims(m.id, inp, idx, {"dimCount": 4, "name": "x", "dims": [1, 3, 48, 160]}),
           "set_input_dynamic_dims [1,3,48,160]")

    gear_model("cls_dyn", "cls_b2.bin", os.path.join("cls_dyn", "b2"), batch)
    gear_model("rec_hw", "rec_x_160.bin", "rec_hw", hw)
    gear_model("rec_dims", "rec_x_160.bin", "rec_dims", dims)


def allocator_run(m, inp, ref):
    """acl.rt.allocator_*: an asynchronous execution of the dynamic-shape model on a stream with a Python
    allocator takes its work memory from it (alloc / get-address / free called from the runtime)."""
    calls = {"alloc": 0, "free": 0}
    live = {}
    # the functions run in the runtime's threads (no context there): blocks come from a pool the main
    # thread allocated, handed out bump-pointer style
    pool_size = 256 << 20
    pool, ret = acl.rt.malloc(pool_size, ACL_MEM_MALLOC_HUGE_FIRST)
    ok(ret, "malloc the allocator's pool")
    top = [pool]

    def alloc(allocator, size):
        calls["alloc"] += 1
        if top[0] + size > pool + pool_size:
            return None  # out of memory: the runtime reports it
        p = top[0]
        top[0] += (max(size, 1) + 63) // 64 * 64
        live[p] = (allocator, size)
        return p

    def free(allocator, block):
        calls["free"] += 1
        live.pop(block, None)

    desc = acl.rt.allocator_create_desc()
    ok(acl.rt.allocator_set_obj_to_desc(desc, 0xA110C), "allocator_set_obj_to_desc")
    ok(acl.rt.allocator_set_alloc_func_to_desc(desc, alloc), "allocator_set_alloc_func_to_desc")
    ok(acl.rt.allocator_set_free_func_to_desc(desc, free), "allocator_set_free_func_to_desc")
    ok(acl.rt.allocator_set_alloc_advise_func_to_desc(desc, lambda a, n, addr: alloc(a, n)),
       "allocator_set_alloc_advise_func_to_desc")
    ok(acl.rt.allocator_set_get_addr_from_block_func_to_desc(desc, lambda b: b),
       "allocator_set_get_addr_from_block_func_to_desc")
    s, _ = acl.rt.create_stream()
    ok(acl.rt.allocator_register(s, desc), "allocator_register")
    out = acl.mdl.create_dataset()
    d_out, _ = acl.rt.malloc(64, 0)
    b_out = acl.create_data_buffer(d_out, 64)
    acl.mdl.add_dataset_buffer(out, b_out)
    ok(acl.mdl.execute_async(m.id, inp, out, s), "execute_async on the allocator's stream")
    ok(acl.rt.synchronize_stream(s), "synchronize_stream")
    close(np.frombuffer(acl.util.ptr_to_bytes(d_out, 64), np.float32), ref, "dynamic-shape cls with a Python allocator")
    check(calls["alloc"] > 0, "the runtime called the Python alloc function (%d times)" % calls["alloc"])
    check(all(a == 0xA110C for a, _ in live.values()), "alloc got the object set with allocator_set_obj_to_desc")
    ok(acl.rt.allocator_unregister(s), "allocator_unregister")
    ok(acl.rt.destroy_stream(s), "destroy_stream")
    check(calls["free"] <= calls["alloc"], "free calls (%d) never exceed alloc calls" % calls["free"])
    ok(acl.rt.allocator_destroy_desc(desc), "allocator_destroy_desc")
    acl.destroy_data_buffer(b_out)
    acl.rt.free(d_out)
    acl.mdl.destroy_dataset(out)
    ok(acl.rt.free(pool), "free the pool")


def dynamic_shape():
    om = os.path.join(DD, "om", "cls.om")
    x = np.fromfile(os.path.join(DD, "inputs", "cls_b8.bin"), np.float32)
    ref = read_ref(os.path.join(DD, "ref", "cls_b8"))[0]
    mid, ret = acl.mdl.load_from_file(om)
    ok(ret, "load_from_file (dynamic-shape cls)")
    m = Model(mid)
    dims, ret = acl.mdl.get_input_dims(m.desc, 0)
    check(ret == 0 and dims["dims"][0] == -1, "the batch dim is -1 (%s)" % dims["dims"])
    inp, out = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    d_in, _ = acl.rt.malloc(x.nbytes, 0)
    xb = x.tobytes()
    acl.rt.memcpy(d_in, x.nbytes, acl.util.bytes_to_ptr(xb), x.nbytes, ACL_MEMCPY_HOST_TO_DEVICE)
    b_in = acl.create_data_buffer(d_in, x.nbytes)
    acl.mdl.add_dataset_buffer(inp, b_in)
    td = acl.create_tensor_desc(ACL_FLOAT, [8, 3, 48, 192], ACL_FORMAT_NCHW)
    check(acl.get_tensor_desc_num_dims(td) == 4 and acl.get_tensor_desc_dim(td, 0) == 8, "tensor desc dims")
    _, ret = acl.mdl.set_dataset_tensor_desc(inp, td, 0)
    ok(ret, "set_dataset_tensor_desc [8,3,48,192]")
    acl.destroy_tensor_desc(td)
    b_out = acl.create_data_buffer(0, 0)  # the size is not known before the run: execute allocates it
    acl.mdl.add_dataset_buffer(out, b_out)
    ok(acl.mdl.execute(m.id, inp, out), "execute (dynamic shape, batch 8)")
    od = acl.mdl.get_dataset_tensor_desc(out, 0)
    shape = [acl.get_tensor_desc_dim_v2(od, i)[0] for i in range(acl.get_tensor_desc_num_dims(od))]
    check(shape == [8, 2], "output tensor desc [8, 2] (%s)" % shape)
    acl.destroy_tensor_desc(od)  # the dataset's own copy: not the caller's to destroy, ignored
    check(acl.get_tensor_desc_num_dims(od) == 2, "destroy_tensor_desc of the dataset's description is ignored")
    addr, size = acl.get_data_buffer_addr(b_out), acl.get_data_buffer_size_v2(b_out)
    check(addr != 0 and size == 64, "execute filled the output buffer (%d bytes)" % size)
    close(np.frombuffer(acl.util.ptr_to_bytes(addr, size), np.float32), ref, "dynamic-shape cls batch 8")
    ok(acl.rt.free(addr), "free the output execute allocated")
    acl.destroy_data_buffer(b_out)
    allocator_run(m, inp, ref)
    acl.destroy_data_buffer(b_in)
    acl.rt.free(d_in)
    ok(acl.mdl.destroy_dataset(inp), "destroy_dataset")
    ok(acl.mdl.destroy_dataset(out), "destroy_dataset")
    check(acl.get_tensor_desc_num_dims(od) == 0, "the dataset's tensor desc is refused once the dataset is gone")
    m.unload()


def external_weights(first_cls):
    om = os.path.join(MD, "om", "cls_ew1.om")
    files = json.load(open(os.path.join(MD, "om", "cls_ew1_external_weights.json")))["files"]
    cfg = acl.mdl.create_config_handle()
    ok(acl.mdl.set_config_opt(cfg, ACL_MDL_LOAD_TYPE_SIZET, ACL_MDL_LOAD_FROM_FILE), "LOAD_TYPE from file")
    ok(acl.mdl.set_config_opt(cfg, ACL_MDL_PATH_PTR, om), "PATH_PTR")
    mems = []
    for f in files:
        data = open(os.path.join(MD, "om", f["path"]), "rb").read()
        size = (len(data) + 31) // 32 * 32
        d, ret = acl.rt.malloc(size, 0)
        acl.rt.memcpy(d, size, acl.util.bytes_to_ptr(data), len(data), ACL_MEMCPY_HOST_TO_DEVICE)
        ok(acl.mdl.set_external_weight_address(cfg, f["location"], d, size), "set_external_weight_address")
        mems.append(d)
    mid, ret = acl.mdl.load_with_config(cfg)
    ok(ret, "load_with_config with %d weight files in the application's memory" % len(files))
    m = Model(mid)
    x = np.fromfile(os.path.join(MD, "inputs", "cls_x.bin"), np.float32)
    m.make_io(x)
    ok(acl.mdl.execute(m.id, m.inp, m.out), "execute (external weights)")
    check(np.array_equal(m.results()[0], first_cls[0]), "external weights give the embedded weights' output")
    m.free_io()
    m.unload()
    acl.mdl.destroy_config_handle(cfg)
    for d in mems:
        acl.rt.free(d)


def aipp():
    """The AIPP setters on a parameter set (their values are checked by the library), and on a destroyed one."""
    size, ret = acl.mdl.get_aipp_data_size(2)
    ok(ret, "get_aipp_data_size(2) -> %d" % size)
    check(acl.mdl.create_aipp(0) == 0, "create_aipp(0) -> 0 (no set)")
    a = acl.mdl.create_aipp(2)
    check(a != 0, "create_aipp(2)")
    ok(acl.mdl.set_aipp_input_format(a, 3), "set_aipp_input_format RGB888_U8")
    ok(acl.mdl.set_aipp_src_image_size(a, 224, 224), "set_aipp_src_image_size")
    ok(acl.mdl.set_aipp_csc_params(a, 0, 256, 0, 359, 256, -88, -183, 256, 454, 0, 0, 0, 0, 0, 128, 128),
       "set_aipp_csc_params (17 arguments)")
    ok(acl.mdl.set_aipp_rbuv_swap_switch(a, 1), "set_aipp_rbuv_swap_switch")
    ok(acl.mdl.set_aipp_ax_swap_switch(a, 0), "set_aipp_ax_swap_switch")
    ok(acl.mdl.set_aipp_crop_params(a, 1, 0, 0, 200, 200, 1), "set_aipp_crop_params batch 1")
    ok(acl.mdl.set_aipp_padding_params(a, 1, 2, 2, 2, 2, 0), "set_aipp_padding_params")
    ok(acl.mdl.set_aipp_dtc_pixel_mean(a, 104, 117, 123, 0, 0), "set_aipp_dtc_pixel_mean")
    ok(acl.mdl.set_aipp_dtc_pixel_min(a, 0.0, 0.0, 0.0, 0.0, 1), "set_aipp_dtc_pixel_min")
    ok(acl.mdl.set_aipp_pixel_var_reci(a, 1 / 58.0, 1 / 57.0, 1 / 57.5, 1.0, 1), "set_aipp_pixel_var_reci")
    check(acl.mdl.set_aipp_crop_params(a, 1, 0, 0, 200, 200, 5) != 0, "set_aipp_crop_params batch 5 of 2 refused")
    try:
        acl.mdl.set_aipp_csc_params(a, 0, 70000, *([0] * 14))
        check(False, "an int16 parameter out of range raises TypeError")
    except TypeError:
        check(True, "an int16 parameter out of range raises TypeError (pyACL's 'h')")
    ok(acl.mdl.destroy_aipp(a), "destroy_aipp")
    check(acl.mdl.set_aipp_input_format(a, 3) == ACL_ERROR_INVALID_PARAM, "a destroyed AIPP set is refused")


def stale_handles():
    om = os.path.join(MD, "om", "cls.om")
    mid, _ = acl.mdl.load_from_file(om)
    m = Model(mid)
    x = np.fromfile(os.path.join(MD, "inputs", "cls_x.bin"), np.float32)
    m.make_io(x)
    ok(acl.destroy_data_buffer(m.b_in), "destroy the input buffer while the dataset holds it")
    check(acl.mdl.execute(m.id, m.inp, m.out) == ACL_ERROR_INVALID_PARAM,
          "execute with a destroyed buffer in the dataset -> ACL_ERROR_INVALID_PARAM")
    m.b_in = acl.create_data_buffer(m.d_in, x.nbytes)
    inp = m.inp
    ok(acl.mdl.destroy_dataset(inp), "destroy_dataset")
    check(acl.mdl.execute(m.id, inp, m.out) == ACL_ERROR_INVALID_PARAM, "execute with a destroyed dataset refused")
    check(acl.mdl.get_dataset_num_buffers(inp) == 0, "getter on a destroyed dataset -> 0")
    check(acl.mdl.destroy_dataset(inp) == ACL_ERROR_INVALID_PARAM, "destroy_dataset twice refused")
    check(acl.mdl.get_num_inputs(0x12345678) == 0, "made-up desc -> 0")
    check(acl.mdl.get_input_dims(0x12345678, 0) == ({}, ACL_ERROR_INVALID_PARAM), "made-up desc -> ({}, code)")
    check(acl.mdl.execute(m.id, 0x1000, m.out) == ACL_ERROR_INVALID_PARAM, "made-up dataset refused")
    check(acl.mdl.execute(987654, m.out, m.out) != 0, "unknown model id refused by the library")
    m.inp = acl.mdl.create_dataset()
    m.free_io()
    m.unload()
    check(acl.mdl.unload(mid) != 0, "unload twice refused")


def subscription(stream):
    """acl.prof.model_subscribe: the records of one execution read back through the getters, against the
    record layout of docs/profiling.md parsed with numpy (80 bytes: model id @4, flag @8, duration @24,
    start @32, end @40)."""
    om = os.path.join(MD, "om", "cls.om")
    x = np.fromfile(os.path.join(MD, "inputs", "cls_x.bin"), np.float32)
    mid, ret = acl.mdl.load_from_file(om)
    ok(ret, "load_from_file cls (subscription)")
    m = Model(mid)
    dims, _ = acl.mdl.get_input_dims(m.desc, 0)
    m.make_io(x.reshape(dims["dims"]))
    r, w = os.pipe()
    cfg = acl.prof.create_subscribe_config(1, 0, w)
    check(cfg != 0, "create_subscribe_config(1, 0, write fd)")
    ok(acl.prof.model_subscribe(mid, cfg), "model_subscribe")
    ok(acl.mdl.execute(mid, m.inp, m.out), "execute (subscribed)")
    ok(acl.prof.model_unsubscribe(mid), "model_unsubscribe")
    os.close(w)
    data = b""
    while True:
        part = os.read(r, 65536)
        if not part:
            break
        data += part
    os.close(r)
    size, ret = acl.prof.get_op_desc_size()
    ok(ret, "get_op_desc_size -> %d" % size)
    buf = acl.util.bytes_to_ptr(data)
    n, ret = acl.prof.get_op_num(buf, len(data))
    ok(ret, "get_op_num")
    check(size == 80 and n == len(data) // 80 and n > 0, "%d records of %d bytes" % (n, size))
    rec = np.frombuffer(data, np.uint8).reshape(-1, 80)
    u32 = lambda off: rec[:, off:off + 4].copy().view(np.uint32).ravel()  # noqa: E731
    u64 = lambda off: rec[:, off:off + 8].copy().view(np.uint64).ravel()  # noqa: E731
    for i in range(n):
        check(acl.prof.get_model_id(buf, len(data), i) == mid == int(u32(4)[i]), "record %d: model id" % i)
        check(acl.prof.get_op_flag(buf, len(data), i) == int(u32(8)[i]) == 0, "record %d: get_op_flag == 0" % i)
        check(acl.prof.get_op_attri_value(buf, len(data), i, 0) is None,
              "record %d: no thread id attribute for flag 0 (None)" % i)
        s, e, d = (acl.prof.get_op_start(buf, len(data), i), acl.prof.get_op_end(buf, len(data), i),
                   acl.prof.get_op_duration(buf, len(data), i))
        check((s, e, d) == (int(u64(32)[i]), int(u64(40)[i]), int(u64(24)[i])) and e - s == d,
              "record %d: start, end, duration read the record" % i)
        t, ret = acl.prof.get_op_type_v2(buf, len(data), i)
        check(ret == 0 and t, "record %d: op type %r" % (i, t))
    check(acl.prof.get_op_flag(0, len(data), 0) == 0xFF, "get_op_flag of NULL -> ACL_SUBSCRIBE_NONE (0xFF)")
    check(acl.prof.get_op_attri_value(buf, len(data) - 1, 0, 0) is None, "a length off the record size -> None")
    ok(acl.prof.destroy_subscribe_config(cfg), "destroy_subscribe_config")
    m.free_io()
    m.unload()


def main():
    ok(acl.init(), "acl.init()")
    ok(acl.rt.set_device(0), "set_device")
    ctx, ret = acl.rt.create_context(0)
    stream, ret = acl.rt.create_stream()
    first_cls = static_model("cls", stream)
    static_model("rec", stream)
    gears()
    dynamic_shape()
    external_weights(first_cls)
    aipp()
    stale_handles()
    subscription(stream)
    ok(acl.rt.destroy_stream(stream), "destroy_stream")
    ok(acl.rt.destroy_context(ctx), "destroy_context")
    ok(acl.rt.reset_device(0), "reset_device")
    ok(acl.finalize(), "finalize")
    done()


if __name__ == "__main__":
    main()

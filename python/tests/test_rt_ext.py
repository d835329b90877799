#!/usr/bin/env python3
"""acl.rt beyond the basics, the pyACL way: reduce tasks against numpy, IPC memory and events
shared with a child process (a second Python program importing acl), stream attributes and
config handles, memory with a config, pointer attributes, Python allocator functions; the
refusals (bad dicts, stale handles, wrong types)."""
import os
import subprocess
import sys

import numpy as np

import acl
from common import *  # noqa: F401,F403 (the constants pyACL programs hard-code)

ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM = 10
ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX = 11
ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN = 12
ACL_EVENT_IPC = 0x40
ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION = 1
ACL_STREAM_ATTR_FAILURE_MODE = 1
ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK = 2
ACL_STREAM_ATTR_USER_CUSTOM_TAG = 3
ACL_RT_STREAM_WORK_SIZE = 1
ACL_RT_STREAM_FLAG = 2
ACL_RT_STREAM_PRIORITY = 3
ACL_RT_MEM_ATTR_DEVICE_ID = 2
ACL_MEM_LOCATION_TYPE_HOST = 0
ACL_MEM_LOCATION_TYPE_DEVICE = 1
ACL_MEM_LOCATION_TYPE_UNREGISTERED = 2
ACL_HOST_REG_MAPPED = 0x2
ACL_UINT32 = 8


def dev_array(a):
    p, ret = acl.rt.malloc(max(a.nbytes, 1), ACL_MEM_MALLOC_HUGE_FIRST)
    ok(ret, "malloc %d" % a.nbytes)
    ok(acl.rt.memcpy(p, a.nbytes, acl.util.numpy_to_ptr(a), a.nbytes, ACL_MEMCPY_HOST_TO_DEVICE), "memcpy H2D")
    return p


def host_array(p, like):
    out = np.empty_like(like)
    ok(acl.rt.memcpy(acl.util.numpy_to_ptr(out), out.nbytes, p, out.nbytes, ACL_MEMCPY_DEVICE_TO_HOST), "memcpy D2H")
    return out


def reduce(stream):
    rng = np.random.default_rng(3)
    for dtype, acl_type in ((np.float32, ACL_FLOAT), (np.int32, ACL_INT32)):
        a = (rng.standard_normal(257) * 100).astype(dtype)
        b = (rng.standard_normal(257) * 100).astype(dtype)
        for kind, ref in ((ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, a + b), (ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, np.maximum(a, b)),
                          (ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, np.minimum(a, b))):
            d, s = dev_array(a), dev_array(b)
            ok(acl.rt.reduce_async(d, s, a.nbytes, kind, acl_type, stream, 0), "reduce_async kind %d %s" % (kind, dtype.__name__))
            ok(acl.rt.synchronize_stream(stream), "synchronize_stream")
            got = host_array(d, a)
            check(np.array_equal(got, ref.astype(dtype)), "reduce kind %d %s equals numpy" % (kind, dtype.__name__))
            ok(acl.rt.free(d), "free")
            ok(acl.rt.free(s), "free")
    d = dev_array(np.zeros(4, np.float32))
    check(acl.rt.reduce_async(d, d, 3, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, stream, 0) != 0,
          "reduce_async with a count that is no multiple of the element size is refused")
    check(acl.rt.reduce_async(d, d, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT64, stream, 0) == ACL_ERROR_INVALID_PARAM,
          "reduce_async of int64 (no CANN type) -> 100000")
    ok(acl.rt.free(d), "free")


CHILD = r'''
import sys, numpy as np, acl
key, n, ev_hex = sys.argv[1], int(sys.argv[2]), sys.argv[3]
assert acl.init() == 0 and acl.rt.set_device(0) == 0
p, ret = acl.rt.ipc_mem_import_by_key(key, 0)
out = np.empty(n, np.float32)
r2 = acl.rt.memcpy(acl.util.numpy_to_ptr(out), out.nbytes, p, out.nbytes, 2)
ev, r3 = acl.rt.ipc_open_event_handle(bytes.fromhex(ev_hex))
s, _ = acl.rt.create_stream()
r4 = acl.rt.record_event(ev, s)
r5 = acl.rt.synchronize_stream(s)
out2 = out * 2
r6 = acl.rt.memcpy(p, out2.nbytes, acl.util.numpy_to_ptr(out2), out2.nbytes, 1)
print(ret, r2, r3, r4, r5, r6, float(out.sum()), acl.rt.ipc_mem_close(key))
'''


def ipc():
    n = 1 << 18  # 1 MiB of float32: IPC export needs blocks of 1 MiB and more
    a = np.arange(n, dtype=np.float32)
    p = dev_array(a)
    key, ret = acl.rt.ipc_mem_get_export_key(p, a.nbytes, 65, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
    ok(ret, "ipc_mem_get_export_key")
    check(isinstance(key, str) and 0 < len(key) < 65, "the key is a str: %r" % key)
    ok(acl.rt.ipc_mem_set_import_pid(key, [os.getpid()]), "ipc_mem_set_import_pid(key, [pid])")
    ev, ret = acl.rt.create_event_ex_with_flag(ACL_EVENT_IPC)
    ok(ret, "create_event_ex_with_flag(ACL_EVENT_IPC)")
    h, ret = acl.rt.ipc_get_event_handle(ev)
    ok(ret, "ipc_get_event_handle")
    check(isinstance(h, bytes) and len(h) == 64, "the event handle is 64 bytes")
    r = subprocess.run([sys.executable, "-c", CHILD, key, str(n), h.hex()], capture_output=True, text=True)
    print(r.stdout + r.stderr, end="")
    got = r.stdout.split()
    check(r.returncode == 0 and got[:6] == ["0"] * 6, "child: import, memcpy, open event, record, sync, write -> 0")
    check(len(got) >= 8 and float(got[6]) == float(a.sum()) and got[7] == "0",
          "child reads the exporter's data (sum %s) and closes its import" % a.sum())
    ok(acl.rt.synchronize_event(ev), "the child's record completes our IPC event")
    check(np.array_equal(host_array(p, a), a * 2), "the child's write is seen through the exporter's pointer")
    ok(acl.rt.ipc_mem_close(key), "ipc_mem_close(key) in the exporter")
    p2, ret = acl.rt.ipc_mem_import_by_key(key, 0)
    check(ret != 0 and p2 == 0, "importing a closed key fails (%d)" % ret)
    ok(acl.rt.destroy_event(ev), "destroy_event")
    ok(acl.rt.free(p), "free")
    # refusals
    small = dev_array(np.zeros(16, np.float32))
    key, ret = acl.rt.ipc_mem_get_export_key(small, 64, 65, 0)
    check(ret == 0, "a small block exports too (%d)" % ret)
    ok(acl.rt.ipc_mem_close(key), "ipc_mem_close(key) of the small block")
    try:
        acl.rt.ipc_mem_get_export_key(small, 64, 4096, 0)
        check(False, "key len >= 1024 raises ValueError")
    except ValueError:
        check(True, "key len >= 1024 raises ValueError")
    try:
        acl.rt.ipc_mem_set_import_pid("k", (1, 2))
        check(False, "pids not in a list raise ValueError")
    except ValueError:
        check(True, "pids not in a list raise ValueError")
    check(acl.rt.ipc_open_event_handle(bytes(64))[1] != 0, "a handle naming no IPC event is refused")
    ev2, _ = acl.rt.create_event()
    check(acl.rt.ipc_get_event_handle(ev2)[1] != 0, "ipc_get_event_handle of a non-IPC event is refused")
    acl.rt.destroy_event(ev2)
    acl.rt.free(small)


def stream_attrs():
    s, ret = acl.rt.create_stream()
    ok(ret, "create_stream")
    ok(acl.rt.set_stream_attribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, {"overflowSwitch": 1}),
       "set_stream_attribute overflowSwitch 1")
    v, ret = acl.rt.get_stream_attribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK)
    flag, ret2 = acl.rt.get_stream_overflow_switch(s)
    check(ret == 0 and v.get("overflowSwitch") == 1 == flag, "get_stream_attribute agrees with the C getter: %r" % v)
    ok(acl.rt.set_stream_attribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, {"userCustomTag": 77}), "set userCustomTag")
    v, ret = acl.rt.get_stream_attribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG)
    check(ret == 0 and v["userCustomTag"] == 77 and v["reserved"][0] == 77, "userCustomTag reads back: %r" % v)
    ok(acl.rt.set_stream_attribute(s, ACL_STREAM_ATTR_FAILURE_MODE, {"failureMode": 1}), "set failureMode 1")
    v, ret = acl.rt.get_stream_attribute(s, ACL_STREAM_ATTR_FAILURE_MODE)
    check(ret == 0 and v["failureMode"] == 1, "failureMode reads back: %r" % v)
    check(acl.rt.set_stream_attribute(s, 99, {"reserved": [0, 0, 0, 0]}) != 0, "an unknown attribute is refused")
    try:
        acl.rt.set_stream_attribute(s, ACL_STREAM_ATTR_FAILURE_MODE, {"wrong": 1})
        check(False, "a dict without the attribute's key raises KeyError")
    except KeyError:
        check(True, "a dict without the attribute's key raises KeyError")
    try:
        acl.rt.set_stream_attribute(s, ACL_STREAM_ATTR_FAILURE_MODE, 1)
        check(False, "a non-dict raises TypeError")
    except TypeError:
        check(True, "a non-dict raises TypeError")
    ok(acl.rt.destroy_stream(s), "destroy_stream")
    # config handles and create_stream_v2
    h = acl.rt.create_stream_config_handle()
    check(h != 0, "create_stream_config_handle")
    ok(acl.rt.set_stream_config_opt(h, ACL_RT_STREAM_PRIORITY, 0), "set_stream_config_opt priority")
    ok(acl.rt.set_stream_config_opt(h, ACL_RT_STREAM_FLAG, 0), "set_stream_config_opt flag")
    s2, ret = acl.rt.create_stream_v2(h)
    ok(ret, "create_stream_v2")
    d = dev_array(np.zeros(8, np.float32))
    x = np.arange(8, dtype=np.float32)
    ok(acl.rt.memcpy_async(d, x.nbytes, acl.util.numpy_to_ptr(x), x.nbytes, ACL_MEMCPY_HOST_TO_DEVICE, s2),
       "memcpy_async on the V2 stream")
    ok(acl.rt.synchronize_stream(s2), "synchronize the V2 stream")
    check(np.array_equal(host_array(d, x), x), "the V2 stream ran the copy")
    acl.rt.free(d)
    ok(acl.rt.destroy_stream(s2), "destroy the V2 stream")
    ok(acl.rt.destroy_stream_config_handle(h), "destroy_stream_config_handle")
    check(acl.rt.set_stream_config_opt(h, ACL_RT_STREAM_PRIORITY, 0) == ACL_ERROR_INVALID_PARAM,
          "a destroyed config handle -> 100000")
    check(acl.rt.create_stream_v2(12345)[1] == ACL_ERROR_INVALID_PARAM, "a made-up config handle -> 100000")
    check(acl.rt.destroy_stream_config_handle(h) == ACL_ERROR_INVALID_PARAM, "destroying it twice -> 100000")


def memory_cfg():
    x = np.arange(64, dtype=np.float32)
    for cfg in ({}, {"numAttrs": 1, "attrs": [{"attr": ACL_RT_MEM_ATTR_DEVICE_ID, "value": 0}]},
                {"numAttrs": 1, "attrs": [{"attr": ACL_RT_MEM_ATTR_DEVICE_ID, "value": {"deviceId": 0}}]}):
        for name, fn in (("malloc_with_cfg", acl.rt.malloc_with_cfg), ("malloc_for_task_scheduler", acl.rt.malloc_for_task_scheduler)):
            p, ret = fn(x.nbytes, ACL_MEM_MALLOC_HUGE_FIRST, cfg)
            ok(ret, "%s(%r)" % (name, cfg))
            ok(acl.rt.memcpy(p, x.nbytes, acl.util.numpy_to_ptr(x), x.nbytes, ACL_MEMCPY_HOST_TO_DEVICE), "memcpy into it")
            check(np.array_equal(host_array(p, x), x), "%s memory holds the data" % name)
            a, ret = acl.rt.pointer_get_attributes(p)
            check(ret == 0 and a["location"] == {"id": 0, "type": ACL_MEM_LOCATION_TYPE_DEVICE} and len(a["rsv"]) == 4,
                  "pointer_get_attributes: device 0 memory %r" % a)
            ok(acl.rt.free(p), "free")
    hp, ret = acl.rt.malloc_host_with_cfg(x.nbytes, {})
    ok(ret, "malloc_host_with_cfg")
    a, ret = acl.rt.pointer_get_attributes(hp)
    check(ret == 0 and a["location"]["type"] == ACL_MEM_LOCATION_TYPE_HOST, "pointer_get_attributes: host memory %r" % a)
    ok(acl.rt.free_host(hp), "free_host")
    # host_register_v2: an application buffer becomes host memory to the runtime, until unregistered
    buf = np.zeros(4096, np.uint8)
    hp = acl.util.numpy_to_ptr(buf)
    check(acl.rt.pointer_get_attributes(hp)[0]["location"]["type"] == ACL_MEM_LOCATION_TYPE_UNREGISTERED,
          "a numpy buffer is unregistered memory")
    ok(acl.rt.host_register_v2(hp, buf.nbytes, ACL_HOST_REG_MAPPED), "host_register_v2")
    check(acl.rt.pointer_get_attributes(hp)[0]["location"]["type"] == ACL_MEM_LOCATION_TYPE_HOST,
          "after host_register_v2 it is host memory")
    dp, ret = acl.rt.host_get_device_pointer(hp, 0)
    check(ret == 0 and dp == hp, "host_get_device_pointer gives the same address on the CPU")
    ok(acl.rt.host_unregister(hp), "host_unregister")
    check(acl.rt.pointer_get_attributes(hp)[0]["location"]["type"] == ACL_MEM_LOCATION_TYPE_UNREGISTERED,
          "after host_unregister it is unregistered again")
    try:
        acl.rt.malloc_with_cfg(64, 0, {"numAttrs": 2, "attrs": [{"attr": 2, "value": 0}]})
        check(False, "numAttrs not matching attrs raises KeyError")
    except KeyError:
        check(True, "numAttrs not matching attrs raises KeyError")
    check(acl.rt.malloc_with_cfg(-1, 0, {})[1] == ACL_ERROR_INVALID_PARAM, "a negative size -> 100000")
    try:
        acl.rt.malloc_with_cfg(64, 0, None)
        check(False, "a None config raises TypeError")
    except TypeError:
        check(True, "a None config raises TypeError")


def allocator():
    d = acl.rt.allocator_create_desc()
    check(d != 0, "allocator_create_desc")
    calls = []
    ok(acl.rt.allocator_set_obj_to_desc(d, 0x1234), "allocator_set_obj_to_desc")
    ok(acl.rt.allocator_set_alloc_func_to_desc(d, lambda a, n: calls.append(("alloc", a, n))), "set alloc func")
    ok(acl.rt.allocator_set_free_func_to_desc(d, lambda a, b: calls.append(("free", a, b))), "set free func")
    ok(acl.rt.allocator_set_alloc_advise_func_to_desc(d, lambda a, n, p: None), "set advise func")
    ok(acl.rt.allocator_set_get_addr_from_block_func_to_desc(d, lambda b: b), "set get-addr func")
    s, _ = acl.rt.create_stream()
    ok(acl.rt.allocator_register(s, d), "allocator_register")
    ok(acl.rt.allocator_unregister(s), "allocator_unregister")
    acl.rt.destroy_stream(s)
    try:
        acl.rt.allocator_set_alloc_func_to_desc(d, 5)
        check(False, "a non-callable raises TypeError")
    except TypeError:
        check(True, "a non-callable raises TypeError")
    ok(acl.rt.allocator_destroy_desc(d), "allocator_destroy_desc")
    check(acl.rt.allocator_set_obj_to_desc(d, 1) == ACL_ERROR_INVALID_PARAM, "a destroyed descriptor -> 100000")
    check(acl.rt.allocator_set_free_func_to_desc(777, print) == ACL_ERROR_INVALID_PARAM, "a made-up descriptor -> 100000")
    check(acl.rt.allocator_register(0, 777) == ACL_ERROR_INVALID_PARAM, "allocator_register of a made-up one -> 100000")


def main():
    ok(acl.init(), "init")
    ok(acl.rt.set_device(0), "set_device")
    stream, ret = acl.rt.create_stream()
    ok(ret, "create_stream")
    reduce(stream)
    ipc()
    stream_attrs()
    memory_cfg()
    allocator()
    ok(acl.rt.destroy_stream(stream), "destroy_stream")
    ok(acl.rt.reset_device(0), "reset_device")
    ok(acl.finalize(), "finalize")
    done()


if __name__ == "__main__":
    main()

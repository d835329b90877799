#!/usr/bin/env python3
"""acl.rt the pyACL way: memory and memcpy flows checked against numpy, streams and events,
callbacks through subscribe_report / process_report / launch_callback in a native thread,
the GIL released while a stream waits for a Python callback."""
import os
import threading
import time

import numpy as np

import acl
from common import *  # noqa: F401,F403 (the constants pyACL programs hard-code)


def memcpy_flows(stream):
    rng = np.random.default_rng(7)
    host = rng.standard_normal(1000).astype(np.float32)
    n = host.nbytes

    dev, ret = acl.rt.malloc(n, ACL_MEM_MALLOC_HUGE_FIRST)
    ok(ret, "acl.rt.malloc(%d)" % n)
    check(dev != 0, "malloc returns an address")
    # host -> device from a numpy array (no copy on the Python side)
    ok(acl.rt.memcpy(dev, n, acl.util.numpy_to_ptr(host), n, ACL_MEMCPY_HOST_TO_DEVICE), "memcpy H2D from numpy")
    # device -> device
    dev2, ret = acl.rt.malloc(n, ACL_MEM_MALLOC_NORMAL_ONLY)
    ok(ret, "malloc NORMAL_ONLY")
    ok(acl.rt.memcpy(dev2, n, dev, n, ACL_MEMCPY_DEVICE_TO_DEVICE), "memcpy D2D")
    # device -> host into a numpy array
    back = np.zeros_like(host)
    ok(acl.rt.memcpy(acl.util.numpy_to_ptr(back), n, dev2, n, ACL_MEMCPY_DEVICE_TO_HOST), "memcpy D2H to numpy")
    check(np.array_equal(back, host), "H2D -> D2D -> D2H round trip is exact")
    # device -> host into a bytes object (pyACL's documented pattern), then frombuffer
    buf = bytes(n)
    ok(acl.rt.memcpy(acl.util.bytes_to_ptr(buf), n, dev2, n, ACL_MEMCPY_DEVICE_TO_HOST), "memcpy D2H into bytes")
    check(np.array_equal(np.frombuffer(buf, np.float32), host), "bytes_to_ptr target holds the data")
    # ptr_to_bytes copies; ptr_to_numpy views (writes go to the memory)
    check(np.array_equal(np.frombuffer(acl.util.ptr_to_bytes(dev2, n), np.float32), host), "ptr_to_bytes copies")
    view = acl.util.ptr_to_numpy(dev2, (10, 100), NPY_FLOAT32)
    check(view.shape == (10, 100) and view.dtype == np.float32, "ptr_to_numpy shape and dtype")
    view[0, 0] = 42.0
    check(np.frombuffer(acl.util.ptr_to_bytes(dev2, 4), np.float32)[0] == 42.0, "ptr_to_numpy is zero-copy")
    # memset
    ok(acl.rt.memset(dev2, n, 0x7f, 16), "memset 16 bytes")
    check(acl.util.ptr_to_bytes(dev2, 17) == b"\x7f" * 16 + acl.util.ptr_to_bytes(dev2 + 16, 1),
          "memset wrote 16 bytes of 0x7f")
    # async copy + synchronize_stream
    out = np.zeros_like(host)
    ok(acl.rt.memcpy_async(acl.util.numpy_to_ptr(out), n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST, stream), "memcpy_async")
    ok(acl.rt.synchronize_stream(stream), "synchronize_stream")
    check(np.array_equal(out, host), "memcpy_async result after synchronize")
    # memcpy2d: a 10x100 host matrix's first 30 columns into device memory (H2H is not a 2D kind)
    src = np.arange(10 * 100, dtype=np.float32).reshape(10, 100)
    d2, ret = acl.rt.malloc(10 * 30 * 4, ACL_MEM_MALLOC_HUGE_FIRST)
    ok(acl.rt.memcpy2d(d2, 30 * 4, acl.util.numpy_to_ptr(src), 100 * 4, 30 * 4, 10, ACL_MEMCPY_HOST_TO_DEVICE),
       "memcpy2d H2D")
    got = np.frombuffer(acl.util.ptr_to_bytes(d2, 10 * 30 * 4), np.float32).reshape(10, 30)
    check(np.array_equal(got, src[:, :30]), "memcpy2d copies the sub-matrix")
    check(acl.rt.memcpy2d(d2, 30 * 4, acl.util.numpy_to_ptr(src), 100 * 4, 30 * 4, 10, ACL_MEMCPY_HOST_TO_HOST) ==
          ACL_ERROR_INVALID_PARAM, "memcpy2d HOST_TO_HOST refused (not a 2D kind)")
    check(acl.rt.memcpy2d(d2, 30 * 4, acl.util.numpy_to_ptr(src), 10, 30 * 4, 10, ACL_MEMCPY_HOST_TO_DEVICE) != 0,
          "memcpy2d width > spitch refused")
    ok(acl.rt.free(d2), "free")
    # stream-ordered value write / wait, cache maintenance, conditional copy
    ok(acl.rt.value_write(dev2, 0x1122334455667788, 0, stream), "value_write")
    ok(acl.rt.value_wait(dev2, 0x1122334455667788, 0, stream), "value_wait (already equal)")
    ok(acl.rt.cmo_async(dev2, 64, 0, stream), "cmo_async")
    ok(acl.rt.memcpy_async_with_condition(dev2 + 8, 8, dev2, 8, ACL_MEMCPY_DEVICE_TO_DEVICE, stream),
       "memcpy_async_with_condition")
    ok(acl.rt.synchronize_stream(stream), "synchronize_stream")
    check(acl.util.ptr_to_bytes(dev2, 16) == (0x1122334455667788).to_bytes(8, "little") * 2,
          "value_write wrote the 64-bit value, the conditional copy duplicated it")
    # host memory
    hp, ret = acl.rt.malloc_host(n)
    ok(ret, "malloc_host")
    ok(acl.rt.memcpy(hp, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST), "memcpy into malloc_host memory")
    check(np.array_equal(acl.util.ptr_to_numpy(hp, (1000,), NPY_FLOAT32), host), "malloc_host memory holds the data")
    ok(acl.rt.free_host(hp), "free_host")
    free_mem, total, ret = acl.rt.get_mem_info(0)
    ok(ret, "get_mem_info")
    check(total > 0 and free_mem <= total, "get_mem_info: free %d <= total %d" % (free_mem, total))
    # refusals come back as codes, never exceptions
    check(acl.rt.memcpy(dev, 4, dev2, 8, ACL_MEMCPY_DEVICE_TO_DEVICE) != 0, "memcpy count > dst_max refused")
    check(acl.rt.memcpy(dev, n, dev2, n, 77) != 0, "memcpy with an unknown kind refused")
    check(acl.rt.free(0) == ACL_ERROR_INVALID_PARAM, "free(0) -> ACL_ERROR_INVALID_PARAM")
    ok(acl.rt.free(dev), "free")
    check(acl.rt.free(dev) != 0, "double free refused")
    ok(acl.rt.free(dev2), "free")
    check(acl.rt.malloc(-1, 0)[1] != 0, "malloc(-1) refused with a code")
    check(acl.get_recent_err_msg() not in (None, ""), "get_recent_err_msg after a failure")


def events(stream):
    e1, ret = acl.rt.create_event()
    ok(ret, "create_event")
    e2, ret = acl.rt.create_event()
    ok(acl.rt.record_event(e1, stream), "record_event")
    ok(acl.rt.record_event(e2, stream), "record_event")
    ok(acl.rt.synchronize_event(e2), "synchronize_event")
    ms, ret = acl.rt.event_elapsed_time(e1, e2)
    ok(ret, "event_elapsed_time")
    check(isinstance(ms, float) and ms >= 0.0, "elapsed time is a float >= 0 (%r)" % ms)
    status, ret = acl.rt.query_event(e2)
    ok(ret, "query_event (status %d)" % status)
    ok(acl.rt.stream_wait_event(stream, e2), "stream_wait_event")
    ok(acl.rt.destroy_event(e1), "destroy_event")
    ok(acl.rt.destroy_event(e2), "destroy_event")
    check(acl.rt.destroy_event(e2) != 0, "destroying a destroyed event is refused (the library's registry)")


def callbacks(stream):
    """pyACL's report-thread pattern: a native thread loops on process_report."""
    state = {"run": True, "seen": []}

    def report_loop():
        while state["run"]:
            acl.rt.process_report(100)

    tid, ret = acl.util.start_thread(report_loop, None)
    ok(ret, "acl.util.start_thread")
    ok(acl.rt.subscribe_report(tid, stream), "subscribe_report(thread id, stream)")

    def cb(data):
        state["seen"].append((data, threading.get_ident()))

    for i in range(5):
        ok(acl.rt.launch_callback(cb, {"n": i}, ACL_CALLBACK_BLOCK, stream), "launch_callback %d" % i)
    ok(acl.rt.synchronize_stream(stream), "synchronize_stream waits for the callbacks")
    check([d["n"] for d, _ in state["seen"]] == list(range(5)), "the 5 callbacks ran once each, in order")
    check(all(t != threading.get_ident() for _, t in state["seen"]), "callbacks ran in the report thread")

    # a callback that raises: reported, not fatal; the next one still runs
    def bad(_):
        raise ValueError("raised inside a callback")

    ok(acl.rt.launch_callback(bad, None, ACL_CALLBACK_BLOCK, stream), "launch_callback (raises)")
    ok(acl.rt.launch_callback(cb, {"n": 99}, ACL_CALLBACK_BLOCK, stream), "launch_callback after it")
    ok(acl.rt.synchronize_stream(stream), "synchronize_stream")
    check(state["seen"][-1][0]["n"] == 99, "a raising callback does not stop the next")

    # the GIL is released while synchronize_stream waits: a Python thread keeps running meanwhile
    ticks = []

    def ticker():
        t0 = time.time()
        while time.time() - t0 < 0.3:
            ticks.append(1)
            time.sleep(0.01)

    def slow(_):
        time.sleep(0.3)

    th = threading.Thread(target=ticker)
    ok(acl.rt.launch_callback(slow, None, ACL_CALLBACK_BLOCK, stream), "launch_callback (slow)")
    th.start()
    ok(acl.rt.synchronize_stream(stream), "synchronize_stream while a Python thread runs")
    th.join()
    check(len(ticks) >= 5, "another Python thread ran during the wait (%d ticks)" % len(ticks))

    check(acl.rt.launch_callback(cb, None, ACL_CALLBACK_BLOCK, 0x1234) != 0, "launch_callback on a bogus stream refused")
    try:
        acl.rt.launch_callback(42, None, ACL_CALLBACK_BLOCK, stream)
        check(False, "a non-callable raises TypeError")
    except TypeError:
        check(True, "a non-callable raises TypeError")

    ok(acl.rt.unsubscribe_report(tid, stream), "unsubscribe_report")
    state["run"] = False
    ok(acl.util.stop_thread(tid), "acl.util.stop_thread")

    def raiser(_):
        raise RuntimeError("thread failure")

    tid, ret = acl.util.start_thread(raiser, 1)
    try:
        acl.util.stop_thread(tid)
        check(False, "stop_thread raises RuntimeError when the thread function raised")
    except RuntimeError as e:
        check("thread failure" in str(e), "stop_thread raises RuntimeError with the thread's exception")


def main():
    ok(acl.init(), "acl.init()")
    ok(acl.rt.set_device(0), "set_device(0)")
    ctx, ret = acl.rt.create_context(0)
    ok(ret, "create_context")
    dev, ret = acl.rt.get_device()
    check(ret == 0 and dev == 0, "get_device -> (0, 0)")
    count, ret = acl.rt.get_device_count()
    check(ret == 0 and count >= 1, "get_device_count -> (%d, %d)" % (count, ret))
    major, minor, patch, ret = acl.get_version()
    ok(ret, "acl.get_version -> %d.%d.%d" % (major, minor, patch))
    check(isinstance(acl.get_soc_name(), str), "get_soc_name is a str")
    check(acl.rt.device_get_bare_tgid() == (os.getpid(), 0), "device_get_bare_tgid -> (pid, 0)")
    stream, ret = acl.rt.create_stream()
    ok(ret, "create_stream")
    memcpy_flows(stream)
    events(stream)
    callbacks(stream)
    ok(acl.rt.set_exception_info_callback(lambda info: None), "set_exception_info_callback(fn)")
    ok(acl.rt.set_exception_info_callback(None), "set_exception_info_callback(None) unregisters")
    ok(acl.rt.set_exception_info_callback(), "set_exception_info_callback() unregisters")
    ok(acl.rt.destroy_stream(stream), "destroy_stream")
    ok(acl.rt.destroy_context(ctx), "destroy_context")
    ok(acl.rt.reset_device(0), "reset_device")
    ok(acl.finalize(), "finalize")
    done()


if __name__ == "__main__":
    main()

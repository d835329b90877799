#!/usr/bin/env python3
"""Per-call overhead of the acl module: simple getters (the wrapper's argument parsing, the handle
check, the C call and the result) against a builtin no-op call of the same shape. Median of
REPEAT passes of N calls each, in ns per call.

  . <prefix>/set_env.sh; /usr/bin/python3 bench/python/bench_getter.py [N] [REPEAT]
"""
import statistics
import sys
import time

import acl

N = int(sys.argv[1]) if len(sys.argv) > 1 else 200000
REPEAT = int(sys.argv[2]) if len(sys.argv) > 2 else 7


def per_call(fn, *args):
    rng = range(N)
    passes = []
    for _ in range(REPEAT):
        t0 = time.perf_counter_ns()
        for _ in rng:
            fn(*args)
        passes.append((time.perf_counter_ns() - t0) / N)
    return statistics.median(passes)


def main():
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    dev, _ = acl.rt.malloc(64, 0)
    buf = acl.create_data_buffer(dev, 64)
    desc = acl.create_tensor_desc(0, [1, 3, 48, 192], 0)
    loop = per_call(lambda: None)  # the for loop alone is not subtracted; shown for scale
    rows = [
        ("for-loop + call of a Python no-op lambda", loop),
        ("builtin abs(1) (a METH_O C call)", per_call(abs, 1)),
        ("acl.get_data_buffer_size(buf)", per_call(acl.get_data_buffer_size, buf)),
        ("acl.get_data_buffer_addr(buf)", per_call(acl.get_data_buffer_addr, buf)),
        ("acl.get_tensor_desc_num_dims(desc)", per_call(acl.get_tensor_desc_num_dims, desc)),
        ("acl.get_tensor_desc_dim_v2(desc, 2) -> (dim, ret)", per_call(acl.get_tensor_desc_dim_v2, desc, 2)),
        ("acl.rt.get_device() -> (id, ret)", per_call(acl.rt.get_device)),
        ("acl.rt.get_run_mode() -> (mode, ret)", per_call(acl.rt.get_run_mode)),
    ]
    print("%-52s %10s" % ("call (N=%d, median of %d passes)" % (N, REPEAT), "ns/call"))
    for name, ns in rows:
        print("%-52s %10.1f" % (name, ns))
    acl.destroy_tensor_desc(desc)
    acl.destroy_data_buffer(buf)
    acl.rt.free(dev)
    acl.rt.reset_device(0)
    acl.finalize()


if __name__ == "__main__":
    main()

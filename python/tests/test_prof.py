#!/usr/bin/env python3
"""acl.prof the pyACL way: init(path), create_config(device list, metrics, events, data types),
start / stop / finalize around some work, msproftx stamps (mark, push/pop, range) whose message
lands in the profiling output, and the refusals: stamps without ACL_PROF_MSPROFTX, destroyed
configs and stamps, wrong types."""
import os

import acl
from common import *  # noqa: F401,F403

ACL_PROF_ACL_API, ACL_PROF_TASK_TIME, ACL_PROF_MSPROFTX = 0x1, 0x2, 0x80
ACL_AICORE_NONE = 0xFF


def main():
    ok(acl.init(), "acl.init()")
    ok(acl.rt.set_device(0), "set_device")
    stream, _ = acl.rt.create_stream()
    out = scratch_dir("pyacl_prof_")
    ok(acl.prof.init(out), "acl.prof.init(%s)" % out)
    cfg = acl.prof.create_config([0], ACL_AICORE_NONE, 0, ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX)
    check(cfg != 0, "create_config([0], ...)")
    ok(acl.prof.start(cfg), "acl.prof.start")
    stamp = acl.prof.create_stamp()
    check(stamp != 0, "create_stamp")
    msg = "pyacl-stamp-42"
    ok(acl.prof.set_stamp_trace_message(stamp, msg, len(msg)), "set_stamp_trace_message")
    ok(acl.prof.mark(stamp), "mark")
    ok(acl.prof.push(stamp), "push")
    p, ret = acl.rt.malloc(256, 0)
    ok(acl.rt.memset(p, 256, 1, 256), "memset (work while profiling)")
    ok(acl.prof.pop(), "pop")
    # mark_ex: CANN's msproftx requires a stream (a NULL one is its PROFILING_FAILED, -1, as the
    # library's C answer) and a message of 1..127 characters
    ok(acl.prof.mark_ex("pyacl-mark-ex-7", stream), "mark_ex(msg, stream)")
    check(acl.prof.mark_ex("pyacl-mark-ex-7", 0) == -1, "mark_ex(msg, 0) -> -1 (CANN: the stream is required)")
    check(acl.prof.mark_ex("", stream) == -1, "mark_ex of an empty message -> -1")
    check(acl.prof.mark_ex("x" * 128, stream) == -1, "mark_ex of 128 characters -> -1")
    rid, ret = acl.prof.range_start(stamp)
    ok(ret, "range_start -> id %d" % rid)
    ok(acl.prof.range_stop(rid), "range_stop")
    acl.rt.free(p)
    acl.prof.destroy_stamp(stamp)
    check(acl.prof.mark(stamp) == ACL_ERROR_INVALID_PARAM, "mark with a destroyed stamp refused")
    ok(acl.prof.stop(cfg), "acl.prof.stop")
    ok(acl.prof.destroy_config(cfg), "destroy_config")
    check(acl.prof.start(cfg) == ACL_ERROR_INVALID_PARAM, "start with a destroyed config refused")
    ok(acl.prof.finalize(), "acl.prof.finalize")
    found = found_ex = False
    files = []
    for root, _, names in os.walk(out):
        for n in names:
            files.append(os.path.join(root, n))
            text = open(os.path.join(root, n), "rb").read()
            found |= msg.encode() in text
            found_ex |= b"pyacl-mark-ex-7" in text
    check(len(files) > 0, "profiling output written under the path (%d file(s))" % len(files))
    check(found, "the stamp's message is in the profiling output")
    check(found_ex, "the mark_ex message is in the profiling output")

    # without ACL_PROF_MSPROFTX the stamp functions are refused by the library
    ok(acl.prof.init(out), "acl.prof.init again")
    cfg = acl.prof.create_config([0], ACL_AICORE_NONE, 0, ACL_PROF_ACL_API)
    ok(acl.prof.start(cfg), "start without msproftx")
    check(acl.prof.create_stamp() == 0, "create_stamp without ACL_PROF_MSPROFTX -> 0")
    check(acl.prof.mark_ex("off", stream) == -1, "mark_ex without ACL_PROF_MSPROFTX -> -1 (CANN's PROFILING_FAILED)")
    check(acl.prof.pop() == -1 and acl.prof.range_stop(1) == -1,
          "pop / range_stop without ACL_PROF_MSPROFTX -> -1 (CANN's PROFILING_FAILED)")
    ok(acl.prof.stop(cfg), "stop")
    acl.prof.destroy_config(cfg)
    ok(acl.prof.finalize(), "finalize")
    for f, args in ((acl.prof.create_config, (0, 0, 0, 0)), (acl.prof.create_config, (["a"], 0, 0, 0)),
                    (acl.prof.init, (None,)), (acl.prof.mark_ex, (1, 0))):
        try:
            f(*args)
            check(False, "%s%r raises TypeError" % (f.__name__, args))
        except TypeError:
            check(True, "%s%r raises TypeError" % (f.__name__, args))
    check(acl.prof.model_un_subscribe is not None and acl.prof.model_unsubscribe is not None,
          "model_un_subscribe (pyACL's old name) and model_unsubscribe both exist")
    acl.rt.destroy_stream(stream)
    ok(acl.rt.reset_device(0), "reset_device")
    ok(acl.finalize(), "finalize")
    done()


if __name__ == "__main__":
    main()

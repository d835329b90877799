#!/usr/bin/env python3
"""Writes a copy of a single-table .om without its MODEL_INOUT_INFO partition
(type 8), as older CANN builds and GE's own test fixtures are: the header's
model_length and the 64-bit partition table (count, offsets) are rewritten
for the partitions that remain (byte layout: src/om/om_format.h).

  strip_inout.py <in.om> <out.om>
"""
import struct
import sys

HEAD = 256
INOUT = 8


def main():
    src, dst = sys.argv[1], sys.argv[2]
    data = open(src, "rb").read()
    head = bytearray(data[:HEAD])
    model_length = struct.unpack_from("<Q", head, 184)[0]
    model_num = struct.unpack_from("<I", head, 156)[0]
    if model_length == 0 or model_num != 1 or len(data) != HEAD + model_length:
        sys.exit("%s: not a single-table .om with a 64-bit partition table" % src)
    num = struct.unpack_from("<I", data, HEAD)[0]
    table_end = HEAD + 8 + 24 * num
    parts = []
    for i in range(num):
        ptype, _, off, size = struct.unpack_from("<IIQQ", data, HEAD + 8 + 24 * i)
        parts.append((ptype, data[table_end + off:table_end + off + size]))
    kept = [p for p in parts if p[0] != INOUT]
    if len(kept) == len(parts):
        sys.exit("%s has no MODEL_INOUT_INFO partition" % src)
    table = struct.pack("<II", len(kept), 0)
    body = b""
    for ptype, blob in kept:
        table += struct.pack("<IIQQ", ptype, 0, len(body), len(blob))
        body += blob
    struct.pack_into("<Q", head, 184, len(table) + len(body))
    with open(dst, "wb") as f:
        f.write(bytes(head) + table + body)
    print("%s: %d partitions -> %s: %d (MODEL_INOUT_INFO removed)" % (src, len(parts), dst, len(kept)))


if __name__ == "__main__":
    main()

"""Reading operator dump files (docs/dump.md "File format").

A dump file is an 8-byte little-endian length L, a protobuf-encoded
toolkit.dump.DumpData message of L bytes, then the raw bytes of every input
and every output tensor in that order. This module decodes the protobuf wire
format itself (no protobuf package needed) and returns numpy arrays.

    from oa_dumpfile import read_dump, walk_dump_tree
    d = read_dump(path)        # DumpFile(op_name, op_type, dump_time, inputs, outputs, attrs, path)
    for f in walk_dump_tree(root): ...
"""
import os
import re
import struct
from dataclasses import dataclass, field
from typing import Dict, List, Optional

import numpy as np

# dump data_type -> numpy dtype (the dump enum, not aclDataType)
_DTYPES = {
    1: np.float32, 2: np.float16, 3: np.int8, 4: np.uint8, 5: np.int16, 6: np.uint16, 7: np.int32,
    8: np.int64, 9: np.uint32, 10: np.uint64, 11: np.bool_, 12: np.float64, 16: np.complex64,
    17: np.complex128,
}
DTYPE_NAMES = {
    0: "DT_UNDEFINED", 1: "DT_FLOAT", 2: "DT_FLOAT16", 3: "DT_INT8", 4: "DT_UINT8", 5: "DT_INT16",
    6: "DT_UINT16", 7: "DT_INT32", 8: "DT_INT64", 9: "DT_UINT32", 10: "DT_UINT64", 11: "DT_BOOL",
    12: "DT_DOUBLE", 27: "DT_BF16",
}
FORMAT_NAMES = {0: "NCHW", 1: "NHWC", 2: "ND", 3: "NC1HWC0", 4: "FRACTAL_Z", 29: "FRACTAL_NZ"}

# {OpType}.{OpName}.{task_id}.{stream_id}.{timestamp}
FILE_PATTERN = re.compile(r"^([A-Za-z0-9_\-]+)\.([^.]+)\.(\d+)\.(\d+)\.(\d+)$")


class DumpFormatError(ValueError):
    pass


@dataclass
class Tensor:
    data_type: int
    format: int
    shape: List[int]
    size: int
    original_name: str = ""
    original_index: int = 0
    array: Optional[np.ndarray] = None

    @property
    def dtype_name(self):
        return DTYPE_NAMES.get(self.data_type, "DT_%d" % self.data_type)


@dataclass
class DumpFile:
    path: str
    op_name: str
    op_type: str
    dump_time: int
    version: str
    inputs: List[Tensor] = field(default_factory=list)
    outputs: List[Tensor] = field(default_factory=list)
    attrs: Dict[str, str] = field(default_factory=dict)

    @property
    def original_names(self):
        v = self.attrs.get("_datadump_original_op_names", "")
        return [n for n in v.split(",") if n]


def _varint(buf, pos):
    value = shift = 0
    while True:
        if pos >= len(buf):
            raise DumpFormatError("truncated varint")
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return value, pos
        shift += 7
        if shift > 63:
            raise DumpFormatError("varint too long")


def _fields(buf):
    """Yields (field number, wire type, value) of a message; value is an int or bytes."""
    pos = 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, pos = _varint(buf, pos)
        elif wt == 2:
            n, pos = _varint(buf, pos)
            if pos + n > len(buf):
                raise DumpFormatError("field %d runs past its message" % num)
            v = bytes(buf[pos:pos + n])
            pos += n
        elif wt == 1:
            v = struct.unpack_from("<Q", buf, pos)[0]
            pos += 8
        elif wt == 5:
            v = struct.unpack_from("<I", buf, pos)[0]
            pos += 4
        else:
            raise DumpFormatError("wire type %d" % wt)
        yield num, wt, v


def _shape(buf):
    dims = []
    for num, wt, v in _fields(buf):
        if num == 1 and wt == 2:  # packed
            p = 0
            while p < len(v):
                d, p = _varint(v, p)
                dims.append(d)
        elif num == 1:
            dims.append(v)
    return dims


def _tensor(buf, is_output):
    t = Tensor(data_type=0, format=0, shape=[], size=0)
    size_field = 6 if is_output else 5
    for num, wt, v in _fields(buf):
        if num == 1 and wt == 0:
            t.data_type = v
        elif num == 2 and wt == 0:
            t.format = v
        elif num == 3 and wt == 2:
            t.shape = _shape(v)
        elif num == size_field and wt == 0:
            t.size = v
        elif is_output and num == 4 and wt == 2:
            for n2, w2, v2 in _fields(v):
                if n2 == 1 and w2 == 2:
                    t.original_name = v2.decode("utf-8", "replace")
                elif n2 == 2 and w2 == 0:
                    t.original_index = v2
    return t


def read_dump(path):
    with open(path, "rb") as f:
        blob = f.read()
    if len(blob) < 8:
        raise DumpFormatError("%s: shorter than the 8-byte header" % path)
    (length,) = struct.unpack_from("<Q", blob, 0)
    if length == 0 or 8 + length > len(blob):
        raise DumpFormatError("%s: message length %d of a %d-byte file" % (path, length, len(blob)))
    msg = memoryview(blob)[8:8 + length]
    base = os.path.basename(path)
    m = FILE_PATTERN.match(base)
    d = DumpFile(path=path, op_name="", op_type=m.group(1) if m else "", dump_time=0, version="")
    for num, wt, v in _fields(msg):
        if num == 1 and wt == 2:
            d.version = v.decode()
        elif num == 2 and wt == 0:
            d.dump_time = v
        elif num == 3 and wt == 2:
            d.outputs.append(_tensor(v, True))
        elif num == 4 and wt == 2:
            d.inputs.append(_tensor(v, False))
        elif num == 6 and wt == 2:
            d.op_name = v.decode("utf-8", "replace")
        elif num == 7 and wt == 2:
            name = value = ""
            for n2, w2, v2 in _fields(v):
                if n2 == 1 and w2 == 2:
                    name = v2.decode()
                elif n2 == 2 and w2 == 2:
                    value = v2.decode()
            d.attrs[name] = value
    off = 8 + length
    for t in d.inputs + d.outputs:
        if off + t.size > len(blob):
            raise DumpFormatError("%s: tensor of %d bytes runs past the end" % (path, t.size))
        raw = blob[off:off + t.size]
        off += t.size
        dt = _DTYPES.get(t.data_type)
        if dt is not None:
            count = int(np.prod(t.shape)) if t.shape else 1
            if count * np.dtype(dt).itemsize == t.size:
                t.array = np.frombuffer(raw, dtype=dt).reshape(t.shape).copy()
    if off != len(blob):
        raise DumpFormatError("%s: %d bytes, the header and tensors account for %d" % (path, len(blob), off))
    return d


def is_dump_file(path):
    return FILE_PATTERN.match(os.path.basename(path)) is not None


def walk_dump_tree(root):
    """Every dump file under root (a file or a directory), in execution order (timestamp, then path)."""
    if os.path.isfile(root):
        return [read_dump(root)]
    found = []
    for dirpath, _, files in os.walk(root):
        for name in files:
            if is_dump_file(name):
                found.append(os.path.join(dirpath, name))
    files = [read_dump(p) for p in found]
    files.sort(key=lambda d: (d.dump_time, d.path))
    return files

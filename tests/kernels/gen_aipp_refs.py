#!/usr/bin/env python3
"""numpy reference of the AIPP arithmetic in docs/aipp.md, written as test cases.

Writes one binary file of cases for tests/kernels/test_kernels_aipp.c:
  int32 n_cases; per case: int32 I[NI], float32 F[NF], the raw input bytes,
  float32 expected output (NCHW or NHWC as the case says).
Independent of the C kernel: every stage is written here again from the doc.
"""
import struct
import sys

import numpy as np

YUV420SP, XRGB, RGB888, YUV400, ARGB, YUYV, YUV422SP, AYUV = 1, 2, 3, 4, 7, 8, 9, 10
YUV_FAMILY = {YUV420SP, YUYV, YUV422SP, AYUV, YUV400}

PRESETS = {  # docs/aipp.md "CSC presets": matrix, input bias, output bias
    "yuv2rgb_601_narrow": ([[298, 0, 409], [298, -100, -208], [298, 516, 0]], [16, 128, 128], [0, 0, 0]),
    "yuv2bgr_601_narrow": ([[298, 516, 0], [298, -100, -208], [298, 0, 409]], [16, 128, 128], [0, 0, 0]),
    "yuv2rgb_601_full": ([[256, 0, 359], [256, -88, -183], [256, 454, 0]], [0, 128, 128], [0, 0, 0]),
    "yuv2rgb_709_narrow": ([[298, 0, 459], [298, -55, -136], [298, 541, 0]], [16, 128, 128], [0, 0, 0]),
    "rgb2yuv_601_narrow": ([[66, 129, 25], [-38, -74, 112], [112, -94, -18]], [0, 0, 0], [16, 128, 128]),
    "rgb2yuv_601_full": ([[77, 150, 29], [-43, -85, 128], [128, -107, -21]], [0, 0, 0], [0, 128, 128]),
    "rgb2gray": ([[76, 150, 30], [0, 0, 0], [0, 0, 0]], [0, 0, 0], [0, 0, 0]),
}


def nbytes(fmt, w, h):
    return {YUV420SP: w * h * 3 // 2, YUV400: w * h, RGB888: 3 * w * h, YUYV: 2 * w * h, YUV422SP: 2 * w * h}.get(
        fmt, 4 * w * h)


def channels_of(fmt, img, w, h, rbuv, ax):
    """Per-pixel channels (h, w, 4) int64 after the swaps."""
    out = np.zeros((h, w, 4), np.int64)
    if fmt == YUV400:
        out[..., 0] = img.reshape(h, w)
    elif fmt == RGB888:
        a = img.reshape(h, w, 3).astype(np.int64)
        out[..., :3] = a[..., ::-1] if rbuv else a
    elif fmt in (XRGB, ARGB, AYUV):
        a = img.reshape(h, w, 4).astype(np.int64)
        v, x = (a[..., 1:4], a[..., 0]) if ax else (a[..., 0:3], a[..., 3])
        v = v.copy()
        if rbuv:
            i, j = (1, 2) if fmt == AYUV else (0, 2)
            v[..., [i, j]] = v[..., [j, i]]
        out[..., :3] = v
        out[..., 3] = x
    elif fmt in (YUV420SP, YUV422SP):
        y = img[:w * h].reshape(h, w).astype(np.int64)
        ch = h // 2 if fmt == YUV420SP else h
        uv = img[w * h:].reshape(ch, w // 2, 2).astype(np.int64)
        rows = np.arange(h) // 2 if fmt == YUV420SP else np.arange(h)
        full = uv[rows][:, np.arange(w) // 2]
        out[..., 0] = y
        out[..., 1] = full[..., 1 if rbuv else 0]
        out[..., 2] = full[..., 0 if rbuv else 1]
    elif fmt == YUYV:
        a = img.reshape(h, w // 2, 4).astype(np.int64)
        out[..., 0] = a[..., [0, 2]].reshape(h, w)
        u, v = (a[..., 3], a[..., 1]) if rbuv else (a[..., 1], a[..., 3])
        out[..., 1] = np.repeat(u, 2, axis=1)
        out[..., 2] = np.repeat(v, 2, axis=1)
    return out


def aipp_ref(fmt, img, w, h, cfg):
    c = channels_of(fmt, img, w, h, cfg["rbuv"], cfg["ax"])
    if cfg["crop"]:
        sx, sy, cw, chh = cfg["crop_box"]
        c = c[sy:sy + chh, sx:sx + cw]
    if cfg["csc"]:
        m = np.array(cfg["matrix"], np.int64)
        x = c[..., :3]
        if fmt in YUV_FAMILY:
            x = x - np.array(cfg["ib"], np.int64)
            acc = x @ m.T
            v = np.floor_divide(acc, 256)
        else:
            acc = x @ m.T
            v = np.floor_divide(acc, 256) + np.array(cfg["ob"], np.int64)
        c = c.copy()
        c[..., :3] = np.clip(v, 0, 255)
    oc = cfg["out_c"]
    mean = np.array(cfg["mean"][:oc], np.float64)
    mn = np.array(cfg["min"][:oc], np.float16).astype(np.float64)
    var = np.array(cfg["var"][:oc], np.float16).astype(np.float64)
    y = ((c[..., :oc].astype(np.float64) - mean - mn) * var).astype(np.float16).astype(np.float32)
    if cfg["padding"]:
        l, r, t, b = cfg["pads"]
        y = np.pad(y, ((t, b), (l, r), (0, 0)), constant_values=np.float32(cfg["pad_value"]))
    return y  # HWC


def case_bytes(rng, fmt, w, h, batch, cfg, nhwc):
    raws, outs = [], []
    for _ in range(batch):
        raw = rng.integers(0, 256, nbytes(fmt, w, h), dtype=np.uint8)
        raws.append(raw)
        y = aipp_ref(fmt, raw, w, h, cfg)
        outs.append(y if nhwc else y.transpose(2, 0, 1))
    sx, sy, cw, chh = cfg.get("crop_box", (0, 0, 0, 0))
    l, r, t, b = cfg.get("pads", (0, 0, 0, 0))
    m = cfg.get("matrix", [[0] * 3] * 3)
    ints = [fmt, w, h, batch, cfg["out_c"], int(nhwc), int(cfg["csc"]), int(cfg["rbuv"]), int(cfg["ax"]),
            int(cfg["crop"]), sx, sy, cw, chh, int(cfg["padding"]), l, r, t, b] + [v for row in m for v in row] + \
        list(cfg.get("ib", [0] * 3)) + list(cfg.get("ob", [0] * 3)) + list(cfg["mean"])
    floats = list(cfg["min"]) + list(cfg["var"]) + [cfg.get("pad_value", 0.0)]
    out = struct.pack("<%di" % len(ints), *ints) + struct.pack("<%df" % len(floats), *floats)
    out += b"".join(x.tobytes() for x in raws)
    out += b"".join(np.ascontiguousarray(o, np.float32).tobytes() for o in outs)
    return out


def main():
    rng = np.random.default_rng(1234)
    cases = []
    base = dict(rbuv=False, ax=False, crop=False, padding=False, csc=False, mean=[0, 0, 0, 0],
                min=[0.0] * 4, var=[1.0] * 4)
    fmts = [YUV420SP, XRGB, RGB888, YUV400, ARGB, YUYV, YUV422SP, AYUV]
    for fmt in fmts:
        nch = 1 if fmt == YUV400 else (4 if fmt in (XRGB, ARGB, AYUV) else 3)
        for variant in range(4):
            cfg = dict(base)
            cfg["out_c"] = nch if variant != 1 else min(nch, 3)
            cfg["rbuv"] = variant in (1, 3) and fmt != YUV400
            cfg["ax"] = variant in (2, 3) and nch == 4
            cfg["mean"] = [int(v) for v in rng.integers(0, 256, 4)]
            cfg["min"] = [float(v) for v in rng.uniform(0, 2, 4)]
            cfg["var"] = [float(v) for v in rng.uniform(-0.02, 0.02, 4)]
            if variant >= 2:
                cfg["crop"] = True
                cfg["crop_box"] = (2, 2, 10, 6)
            if variant == 3:
                cfg["padding"] = True
                cfg["pads"] = (1, 2, 3, 0)
                cfg["pad_value"] = 0.5
            if fmt != YUV400 and variant != 0:
                key = ("yuv2rgb_601_narrow", "yuv2bgr_601_narrow", "yuv2rgb_709_narrow")[variant - 1] \
                    if fmt in YUV_FAMILY else ("rgb2yuv_601_narrow", "rgb2yuv_601_full", "rgb2gray")[variant - 1]
                cfg["csc"] = True
                cfg["matrix"], cfg["ib"], cfg["ob"] = PRESETS[key]
            cases.append(case_bytes(rng, fmt, 16, 12, 2 if variant == 3 else 1, cfg, variant == 2))
    # Every preset on YUV420SP / RGB888 at a larger size, normalised as ImageNet-style models do.
    for key, (m, ib, ob) in PRESETS.items():
        fmt = YUV420SP if key.startswith("yuv") else RGB888
        cfg = dict(base, out_c=3, csc=True, matrix=m, ib=ib, ob=ob, mean=[104, 117, 123, 0],
                   var=[0.00392157] * 4)
        cases.append(case_bytes(rng, fmt, 64, 48, 1, cfg, False))
    with open(sys.argv[1], "wb") as f:
        f.write(struct.pack("<i", len(cases)))
        for c in cases:
            f.write(c)


if __name__ == "__main__":
    main()

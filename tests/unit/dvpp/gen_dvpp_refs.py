#!/usr/bin/env python3
"""Inputs and independent references for the DVPP image tests (test_dvpp_image).

Writes into OUT:
  JPEG files (PIL/libjpeg encoded) + <name>.ycc: PIL's own decode (draft mode
  YCbCr: full-resolution Y, Cb, Cr without colour conversion), jpeg.txt manifest;
  PNG files + <name>.raw: PIL's decode to RGB/RGBA, png.txt manifest;
  resize inputs and numpy references (float interpolation, rounded), resize.txt;
  border / pyramid / colour references computed with numpy, raw files.
"""
import io
import os
import sys

import numpy as np
from PIL import Image

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
rng = np.random.default_rng(1234)


def smooth_rgb(w, h):
    y, x = np.mgrid[0:h, 0:w].astype(np.float64)
    r = 128 + 100 * np.sin(x / 23.0) * np.cos(y / 31.0)
    g = 40 + 180 * x / w
    b = 30 + 190 * y / h
    return np.clip(np.stack([r, g, b], -1), 0, 255).astype(np.uint8)


def write(name, arr):
    np.ascontiguousarray(arr, dtype=np.uint8).tofile(os.path.join(OUT, name))


# ---- JPEG ----
jpeg_lines = []
for name, w, h, mode, sub, css, prog in [
    ("j420", 250, 170, "RGB", 2, 2, False),
    ("j420odd", 251, 171, "RGB", 2, 2, False),
    ("j422", 250, 170, "RGB", 1, 1, False),
    ("j444", 251, 170, "RGB", 0, 0, False),
    ("jgray", 250, 171, "L", None, 3, False),
    ("jprog", 250, 170, "RGB", 2, 2, True),
]:
    rgb = smooth_rgb(w, h)
    im = Image.fromarray(rgb) if mode == "RGB" else Image.fromarray(rgb[..., 1])
    buf = io.BytesIO()
    kw = {"quality": 95, "progressive": prog}
    if sub is not None:
        kw["subsampling"] = sub
    im.save(buf, "JPEG", **kw)
    data = buf.getvalue()
    with open(os.path.join(OUT, name + ".jpg"), "wb") as f:
        f.write(data)
    dec = Image.open(io.BytesIO(data))
    if mode == "RGB":
        dec.draft("YCbCr", dec.size)
    ref = np.asarray(dec)
    if ref.ndim == 2:
        ref = ref[..., None]
    write(name + ".ycc", ref)
    jpeg_lines.append(f"{name} {w} {h} {css} {ref.shape[2]} {1 if prog else 0}")
with open(os.path.join(OUT, "jpeg.txt"), "w") as f:
    f.write("\n".join(jpeg_lines) + "\n")

# ---- PNG ----
png_lines = []
base = smooth_rgb(100, 80)
alpha = (np.arange(100)[None, :] * 2 + np.arange(80)[:, None]).astype(np.uint8)
for name, im in [
    ("prgb", Image.fromarray(base)),
    ("prgba", Image.fromarray(np.dstack([base, alpha]))),
    ("pgray", Image.fromarray(base[..., 0])),
    ("ppal", Image.fromarray(base).quantize(64)),
]:
    buf = io.BytesIO()
    im.save(buf, "PNG")
    with open(os.path.join(OUT, name + ".png"), "wb") as f:
        f.write(buf.getvalue())
    dec = Image.open(io.BytesIO(buf.getvalue()))
    has_alpha = dec.mode in ("RGBA", "LA") or "transparency" in dec.info
    ref = np.asarray(dec.convert("RGBA" if has_alpha else "RGB"))
    write(name + ".raw", ref)
    png_lines.append(f"{name} {im.size[0]} {im.size[1]} {ref.shape[2]}")
# 16-bit gray: samples scaled to 8 bits as stored (no gamma), (v * 255 + 32767) // 65535, numpy reference
g16 = (np.arange(100 * 80, dtype=np.uint32).reshape(80, 100) * 8).astype(np.uint16)
buf = io.BytesIO()
Image.fromarray(g16, "I;16").save(buf, "PNG")
with open(os.path.join(OUT, "pgray16.png"), "wb") as f:
    f.write(buf.getvalue())
g8 = ((g16.astype(np.uint32) * 255 + 32767) // 65535).astype(np.uint8)
write("pgray16.raw", np.repeat(g8[..., None], 3, -1))
png_lines.append("pgray16 100 80 3")
with open(os.path.join(OUT, "png.txt"), "w") as f:
    f.write("\n".join(png_lines) + "\n")


# ---- resize (float references of the documented pixel mappings) ----
def axis(dn, sn, mode):
    d = np.arange(dn, dtype=np.float64)
    scale = sn / dn
    if mode in ("nn_cv", "nn_tf"):
        i0 = np.minimum(np.floor(d * scale), sn - 1).astype(np.int64)
        return i0, i0, np.zeros(dn)
    f = (d + 0.5) * scale - 0.5 if mode == "bl_cv" else d * scale
    fl = np.floor(f)
    a = f - fl
    a[fl < 0] = 0
    fl[fl < 0] = 0
    hi = fl >= sn - 1
    fl[hi] = sn - 1
    a[hi] = 0
    i0 = fl.astype(np.int64)
    return i0, np.minimum(i0 + 1, sn - 1), a


def resize(plane, dw, dh, mode):
    sh, sw = plane.shape[:2]
    x0, x1, ax = axis(dw, sw, mode)
    y0, y1, ay = axis(dh, sh, mode)
    p = plane.astype(np.float64)
    ax = ax[None, :, None]
    ay = ay[:, None, None]
    top = p[y0][:, x0] * (1 - ax) + p[y0][:, x1] * ax
    bot = p[y1][:, x0] * (1 - ax) + p[y1][:, x1] * ax
    return top * (1 - ay) + bot * ay


sw, sh = 640, 360
yy = np.clip(smooth_rgb(sw, sh)[..., 1].astype(np.int64) + rng.integers(-20, 21, (sh, sw)), 0, 255).astype(np.uint8)
uv = np.clip(smooth_rgb(sw // 2, sh // 2)[..., ::2].astype(np.int64) + rng.integers(-20, 21, (sh // 2, sw // 2, 2)),
             0, 255).astype(np.uint8)
write("rs_in.nv12", np.concatenate([yy.ravel(), uv.ravel()]))
resize_lines = []
for mode, modeval in [("bl_cv", 1), ("nn_cv", 2), ("bl_tf", 3), ("nn_tf", 4)]:
    for dw, dh in [(224, 224), (1000, 602)]:
        ry = resize(yy[..., None], dw, dh, mode)[..., 0]
        ruv = resize(uv, dw // 2, dh // 2, mode)
        out = np.concatenate([ry.ravel(), ruv.ravel()])
        np.round(out).astype(np.uint8).tofile(os.path.join(OUT, f"rs_{mode}_{dw}x{dh}.nv12"))
        resize_lines.append(f"{mode} {modeval} {dw} {dh}")
with open(os.path.join(OUT, "resize.txt"), "w") as f:
    f.write("\n".join(resize_lines) + "\n")

# ---- make border (numpy.pad) on a 64x40 RGB888 picture ----
bw, bh = 64, 40
rgb = rng.integers(0, 256, (bh, bw, 3)).astype(np.uint8)
write("bd_in.rgb", rgb)
pads = ((3, 5), (7, 2), (0, 0))  # top, bottom / left, right
for t, npmode in [(0, "constant"), (1, "edge"), (2, "symmetric"), (3, "reflect")]:
    if npmode == "constant":
        out = np.stack([np.pad(rgb[..., k], pads[:2], constant_values=v) for k, v in enumerate((10, 200, 77))], -1)
    else:
        out = np.pad(rgb, pads, mode=npmode)
    write(f"bd_out_{t}.rgb", out)

# ---- pyramid down: 5x5 [1 4 6 4 1]^2 / 256, reflect-101 borders, even samples ----
pw, ph = 100, 60
img = rng.integers(0, 256, (ph, pw)).astype(np.uint8)
write("pd_in.y", img)
k = np.array([1, 4, 6, 4, 1], np.int64)
pad = np.pad(img.astype(np.int64), 2, mode="reflect")
acc = np.zeros((ph, pw), np.int64)
for i in range(5):
    for j in range(5):
        acc += k[i] * k[j] * pad[i:i + ph, j:j + pw]
write("pd_out.y", ((acc + 128) >> 8)[::2, ::2][: ph // 2, : pw // 2])

# ---- colour conversion: RGB888 from an NV12 picture, BT.601 full range (JFIF), float reference ----
cw, chh = 96, 64
y = rng.integers(0, 256, (chh, cw)).astype(np.uint8)
c = rng.integers(0, 256, (chh // 2, cw // 2, 2)).astype(np.uint8)
write("cc_in.nv12", np.concatenate([y.ravel(), c.ravel()]))
U = np.repeat(np.repeat(c[..., 0], 2, 0), 2, 1).astype(np.float64) - 128
V = np.repeat(np.repeat(c[..., 1], 2, 0), 2, 1).astype(np.float64) - 128
Y = y.astype(np.float64)
rgbf = np.stack([Y + 1.402 * V, Y - 0.344136 * U - 0.714136 * V, Y + 1.772 * U], -1)
write("cc_out.rgb", np.clip(np.round(rgbf), 0, 255))
print("dvpp references written to", OUT)

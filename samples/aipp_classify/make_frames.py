#!/usr/bin/env python3
"""Renders one line of text (DejaVu Sans, black on white) into a 208x64 camera frame, upright and
upside down, as raw NV12 (BT.601 narrow range, what a video decoder or camera hands over):

  make_frames.py OUT_DIR "text"   ->  OUT_DIR/line_0.nv12, OUT_DIR/line_180.nv12 (208x64, 19968 bytes each)

The text sits in the frame's centre 192x48 window (the crop of aipp_cls.cfg).
"""
import os
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"  # Debian: fonts-dejavu-core
W, H = 208, 64


def nv12(rgb):
    """RGB (H, W, 3) u8 -> NV12 bytes, BT.601 narrow range, chroma averaged over 2x2 blocks."""
    r, g, b = [rgb[..., i].astype(np.float64) for i in range(3)]
    y = 16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255
    u = 128 + (-37.797 * r - 74.203 * g + 112.0 * b) / 255
    v = 128 + (112.0 * r - 93.786 * g - 18.214 * b) / 255
    sub = lambda c: c.reshape(H // 2, 2, W // 2, 2).mean(axis=(1, 3))  # noqa: E731
    uv = np.stack([sub(u), sub(v)], axis=-1).reshape(H // 2, W)
    q = lambda a: np.clip(np.rint(a), 0, 255).astype(np.uint8)  # noqa: E731
    return np.concatenate([q(y).ravel(), q(uv).ravel()]).tobytes()


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    out, text = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    line = Image.new("RGB", (192, 48), (255, 255, 255))
    font = ImageFont.truetype(FONT, 28)
    while font.getlength(text) > 184 and font.size > 8:
        font = ImageFont.truetype(FONT, font.size - 2)
    ImageDraw.Draw(line).text((4, 8), text, fill=(0, 0, 0), font=font)
    for name, img in (("line_0", line), ("line_180", line.rotate(180))):
        frame = Image.new("RGB", (W, H), (255, 255, 255))
        frame.paste(img, (8, 8))
        with open(os.path.join(out, name + ".nv12"), "wb") as f:
            f.write(nv12(np.asarray(frame)))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Inputs of the dynamic-model compat tests, made at test time (never committed).

  make_inputs.py --out DIR [--mkdir DIR2 ...]

det_<h>x<w>.bin   PP-OCRv4 det input: a rendered text page, ImageNet-normalized, f32 NCHW
rec_w<w>.bin      PP-OCRv4 rec input: one text line 48 x w, (x/255-0.5)/0.5, f32 NCHW
rec_b8_w320.bin   eight text lines, batch 8
cls_b1.bin, cls_b8.bin  ppocr cls inputs (48 x 192)
vad_pcm.bin       100 chunks x 512 samples of a synthetic signal (tones, noise, silence)
ocr_page.ppm + ocr_page.txt  the OCR sample's page (P6) and the words it shows, one line each
"""
import argparse
import os

import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
WORDS = ["openacl", "runs", "dynamic", "shapes", "model", "2026", "CANN", "layer", "cpu", "fast",
         "text", "image", "graph", "plan", "cache", "stream"]


def font(size):
    return ImageFont.truetype(FONT, size)


def render_page(h, w, seed):
    rng = np.random.default_rng(seed)
    img = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    size = max(12, h // 12)
    y = size // 2
    while y + size < h:
        x = int(rng.integers(4, max(5, w // 6)))
        words = " ".join(rng.choice(WORDS, size=int(rng.integers(1, 4))))
        d.text((x, y), words, fill=(int(rng.integers(0, 60)),) * 3, font=font(size))
        y += int(size * 1.8)
    return np.asarray(img, dtype=np.float32)


def det_input(h, w, seed):
    a = render_page(h, w, seed) / 255.0
    mean = np.array([0.485, 0.456, 0.406], np.float32)
    std = np.array([0.229, 0.224, 0.225], np.float32)
    a = (a - mean) / std
    return a.transpose(2, 0, 1)[None].astype(np.float32)


def line_image(text, w, h=48):
    img = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.text((4, 6), text, fill=(0, 0, 0), font=font(32))
    return np.asarray(img, dtype=np.float32)


def rec_input(texts, w):
    lines = [((line_image(t, w) / 255.0) - 0.5) / 0.5 for t in texts]
    return np.stack([l.transpose(2, 0, 1) for l in lines]).astype(np.float32)


def vad_signal(n_chunks=100, chunk=512, sr=16000):
    rng = np.random.default_rng(7)
    t = np.arange(n_chunks * chunk) / sr
    sig = np.zeros_like(t)
    # voiced-like bursts: harmonics of a moving pitch, separated by silence and noise
    for start in (0.2, 1.1, 2.2):
        seg = (t >= start) & (t < start + 0.6)
        f0 = 140 + 40 * np.sin(2 * np.pi * 3 * t[seg])
        for k in range(1, 6):
            sig[seg] += (0.3 / k) * np.sin(2 * np.pi * k * f0 * t[seg])
    sig += 0.01 * rng.standard_normal(sig.shape)
    return sig.astype(np.float32)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--mkdir", action="append", default=[], help="more directories to create (atc outputs)")
    args = ap.parse_args()
    out = args.out
    for d in [out] + args.mkdir:
        os.makedirs(d, exist_ok=True)
    for i, (h, w) in enumerate([(320, 320), (480, 640), (960, 960)]):
        det_input(h, w, i).tofile(os.path.join(out, f"det_{h}x{w}.bin"))
    for w in (160, 320, 480, 640, 800, 960):
        n = max(1, w // 100)
        rec_input([" ".join(WORDS[:n])], w).tofile(os.path.join(out, f"rec_w{w}.bin"))
    rec_input([WORDS[i] + " " + WORDS[i + 8] for i in range(8)], 320).tofile(os.path.join(out, "rec_b8_w320.bin"))
    rec_input(["openacl"], 192).tofile(os.path.join(out, "cls_b1.bin"))
    cls8 = rec_input(WORDS[:8], 192)
    cls8[4:] = cls8[4:, :, ::-1, ::-1]  # upside-down lines too
    cls8.tofile(os.path.join(out, "cls_b8.bin"))
    vad_signal().tofile(os.path.join(out, "vad_pcm.bin"))
    # the OCR sample's page
    lines = ["openacl runs models", "dynamic shapes 2026"]
    img = Image.new("RGB", (640, 240), (255, 255, 255))
    d = ImageDraw.Draw(img)
    for i, text in enumerate(lines):
        d.text((40, 40 + i * 90), text, fill=(0, 0, 0), font=font(44))
    img.save(os.path.join(out, "ocr_page.ppm"))
    with open(os.path.join(out, "ocr_page.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

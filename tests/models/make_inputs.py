#!/usr/bin/python3
"""Writes the model inputs the compat programs and ONNX Runtime share (raw
little-endian .bin files, fixed seeds, so every run writes the same bytes).

OCR models get rendered text images (PIL's default font on white, normalised
to [-1, 1] as PP-OCR preprocesses): on random noise PP-OCRv4 det answers
probabilities around 1e-6, where ONNX Runtime's fast sigmoid is off by a few
percent, so a noise input would measure ORT's approximation, not ours.

  make_inputs.py --out DIR
"""
import argparse
import os

import numpy as np
from PIL import Image, ImageDraw, ImageFont

LINES = ['openacl runs models', 'on an ordinary CPU', 'PP-OCRv4 detection 2026', 'Hello ONNX Runtime']


def text_image(w, h, lines, seed, size):
    rng = np.random.default_rng(seed)
    img = Image.new('RGB', (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    try:
        font = ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1
        font = ImageFont.load_default()
    y = 5
    for t in lines:
        d.text((int(rng.integers(2, 20)), y), t, fill=(0, 0, 0), font=font)
        y += int(size * 1.4)
    a = np.asarray(img).astype(np.float32) / 255.0
    return ((a - 0.5) / 0.5).transpose(2, 0, 1)[None].copy()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    def save(name, arr):
        arr.tofile(os.path.join(args.out, name))

    save('det_x.bin', text_image(640, 640, LINES * 4, 1, 28))
    rec = text_image(320, 48, ['openacl 2026'], 2, 30)
    save('rec_x.bin', rec)
    save('rec_x_160.bin', rec[:, :, :, :160].copy())  # the 48x160 gear of the HW / dims models
    cls = text_image(192, 48, ['Hello CPU'], 3, 30)
    save('cls_x.bin', cls)
    # the fp16 input model reads the same image rounded to fp16; ORT gets those values as float32
    save('cls_x_f16.bin', cls.astype(np.float16))
    save('cls_x_f16as32.bin', cls.astype(np.float16).astype(np.float32))
    words = ['Hello CPU', 'openacl', 'ACL on x86', 'gears 1 2 4']
    for b in (1, 2, 4):
        batch = np.concatenate([text_image(192, 48, [words[i]], 10 + i, 30) for i in range(b)])
        save('cls_b%d.bin' % b, batch)
    save('resnet_x.bin', np.random.default_rng(4).random((1, 3, 224, 224), dtype=np.float32))
    save('yolo_x.bin', np.random.default_rng(5).random((1, 3, 640, 640), dtype=np.float32))
    save('bert_ids.bin', np.random.default_rng(7).integers(0, 4096, (1, 128)).astype(np.int64))
    save('bert_mask.bin', np.ones((1, 128), np.int64))
    save('bert_type.bin', np.zeros((1, 128), np.int64))


if __name__ == '__main__':
    main()

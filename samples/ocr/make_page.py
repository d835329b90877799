#!/usr/bin/env python3
"""Renders a text page for the OCR sample: black DejaVu Sans text on white, one line per argument.

  make_page.py OUT.ppm "first line" ["second line" ...]

Writes a binary PPM (P6), the format the sample reads without an image library.
"""
import sys

from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"  # Debian: fonts-dejavu-core


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out, lines = sys.argv[1], sys.argv[2:]
    font = ImageFont.truetype(FONT, 44)
    width = max(640, 80 + max(int(font.getlength(t)) for t in lines))
    img = Image.new("RGB", (width, 60 + 90 * len(lines)), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    for i, text in enumerate(lines):
        draw.text((40, 40 + i * 90), text, fill=(0, 0, 0), font=font)
    img.save(out)


if __name__ == "__main__":
    main()

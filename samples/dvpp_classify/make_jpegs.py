#!/usr/bin/env python3
"""Renders one line of text (DejaVu Sans, black on white) as two JPEGs for the DVPP sample:

  make_jpegs.py OUT_DIR "text"   ->  OUT_DIR/line_0.jpg (upright), OUT_DIR/line_180.jpg (upside down)
"""
import os
import sys

from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"  # Debian: fonts-dejavu-core


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    out, text = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    font = ImageFont.truetype(FONT, 40)
    width = 24 + int(font.getlength(text))
    img = Image.new("RGB", (width, 60), (255, 255, 255))
    ImageDraw.Draw(img).text((12, 6), text, fill=(0, 0, 0), font=font)
    img.save(os.path.join(out, "line_0.jpg"), quality=92)
    img.rotate(180).save(os.path.join(out, "line_180.jpg"), quality=92)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Seed corpora of the AIPP fuzz targets (a CTest step, not a test), one
file per seed, written into CORPUS_DIR:

    gen_aipp_seeds.py config CORPUS_DIR   valid atc --insert_op_conf texts
        (fuzz_aipp_config): every input_format, every CSC preset of
        docs/aipp.md on the formats of its family, crop, padding, swaps,
        normalisation, dynamic blocks, several blocks by rank and by name,
        the list / ';' / ',' / comment syntax;
    gen_aipp_seeds.py block CORPUS_DIR    dynamic parameter blocks with a
        small image (fuzz_aipp_block, input layout in fuzz_aipp_block.c):
        every format code the kernel reads, batch 1 and 2, CSC, crop,
        padding, normalisation.
"""
import os
import struct
import sys

FORMATS = ["YUV420SP_U8", "XRGB8888_U8", "RGB888_U8", "YUV400_U8", "NC1HWC0DI_FP16", "NC1HWC0DI_S8",
           "ARGB8888_U8", "YUYV_U8", "YUV422SP_U8", "AYUV444_U8", "RAW10", "RAW12", "RAW16", "RAW24",
           "RGB16", "RGB20", "RGB24", "RGB8_IR", "RGB16_IR", "RGB24_IR"]
YUV = {"YUV420SP_U8", "YUYV_U8", "YUV422SP_U8", "AYUV444_U8"}
RGB = {"XRGB8888_U8", "RGB888_U8", "ARGB8888_U8"}

# docs/aipp.md "CSC presets": (matrix rows, input_bias, output_bias)
YUV2RGB_601N = ([298, 0, 409, 298, -100, -208, 298, 516, 0], [16, 128, 128], None)
YUV2RGB_601F = ([256, 0, 359, 256, -88, -183, 256, 454, 0], [0, 128, 128], None)
YUV2RGB_709N = ([298, 0, 459, 298, -55, -136, 298, 541, 0], [16, 128, 128], None)
YUV2BGR_601N = ([298, 516, 0, 298, -100, -208, 298, 0, 409], [16, 128, 128], None)
RGB2YUV_601N = ([66, 129, 25, -38, -74, 112, 112, -94, -18], None, [16, 128, 128])
RGB2YUV_601F = ([77, 150, 29, -43, -85, 128, 128, -107, -21], None, [0, 128, 128])
RGB2GRAY = ([76, 150, 30, 0, 0, 0, 0, 0, 0], None, [0, 0, 0])
YUV_PRESETS = [YUV2RGB_601N, YUV2RGB_601F, YUV2RGB_709N, YUV2BGR_601N]
RGB_PRESETS = [RGB2YUV_601N, RGB2YUV_601F, RGB2GRAY]


def csc_lines(preset):
    m, ib, ob = preset
    out = ["csc_switch: true"]
    for i, v in enumerate(m):
        out.append("matrix_r%dc%d: %d" % (i // 3, i % 3, v))
    for name, b in (("input_bias", ib), ("output_bias", ob)):
        if b is not None:
            out += ["%s_%d: %d" % (name, i, v) for i, v in enumerate(b)]
    return out


def block(lines, sep="\n  "):
    return "aipp_op {" + sep + sep.join(lines) + "\n}\n"


def configs():
    seeds = []
    for fmt in FORMATS:
        base = ["aipp_mode: static", "input_format: " + fmt, "src_image_size_w: 16", "src_image_size_h: 12"]
        seeds.append(block(base))
        presets = YUV_PRESETS if fmt in YUV else RGB_PRESETS if fmt in RGB else []
        for p in presets:
            seeds.append(block(base + csc_lines(p)))
        if fmt in YUV or fmt in RGB:
            seeds.append(block(base + ["csc_switch: true"]))  # CANN's default matrix
    seeds += [
        block(["aipp_mode: static", "input_format: YUV420SP_U8", "src_image_size_w: 20", "src_image_size_h: 16",
               "crop: true", "load_start_pos_w: 2", "load_start_pos_h: 2", "crop_size_w: 12", "crop_size_h: 10",
               "padding: true", "left_padding_size: 1", "right_padding_size: 3", "top_padding_size: 2",
               "bottom_padding_size: 0", "padding_value: 0.5"] + csc_lines(YUV2RGB_601N) +
              ["mean_chn_0: 104", "mean_chn_1: 117", "mean_chn_2: 123", "min_chn_0: 0.5",
               "var_reci_chn_0: 0.0039215", "var_reci_chn_1: [0.0039215]", "var_reci_chn_2: 0.0039215"]),
        block(["aipp_mode: static", "input_format: XRGB8888_U8", "src_image_size_w: 8", "src_image_size_h: 8",
               "rbuv_swap_switch: true", "ax_swap_switch: true", "mean_chn_3: 1", "min_chn_3: 2.5",
               "var_reci_chn_3: -1.0"]),
        block(["aipp_mode: static", "input_format: YUYV_U8", "rbuv_swap_switch: true", "crop: true",
               "crop_size_w: 0", "crop_size_h: 0"]),
        block(["aipp_mode : static;", "input_format: 3,", "src_image_size_w: 0", "src_image_size_h: 0",
               "related_input_rank: 0", "input_edge_idx: [0, 1]", "single_line_mode: false",
               "cpadding_value: 0", "raw_rgbir_to_f16_n: 8", "support_rotation: false", "resize: false",
               "resize_output_w: 0", "resize_output_h: 0"], sep=" "),
        block(["aipp_mode: dynamic", "max_src_image_size: 75264"]),
        "# two inputs by rank\n" + block(["aipp_mode: static", "input_format: YUV400_U8"]) +
        block(["aipp_mode: dynamic", "related_input_rank: 1", "max_src_image_size: 1000"]),
        block(["aipp_mode: static", "related_input_name: \"images\"", "input_format: AYUV444_U8"]) +
        block(["aipp_mode: static", "related_input_name: \"depth\"", "input_format: YUV400_U8"]),
        "aipp_op: {\n aipp_mode: static # trailing comment\n input_format: RGB888_U8\n}\n",
    ]
    return seeds


# Dynamic block: CCE format codes the kernel reads (docs/aipp.md "Dynamic parameter block") and bytes per pixel
CCE = {1: ("YUV420SP_U8", 1.5), 2: ("XRGB8888_U8", 4), 5: ("RGB888_U8", 3), 6: ("ARGB8888_U8", 4),
       7: ("YUYV_U8", 2), 8: ("YUV422SP_U8", 2), 9: ("AYUV444_U8", 4), 10: ("YUV400_U8", 1)}


def f16(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]


def dyn_block(code, w, h, batch, csc=None, crop=None, pad=None, swap=(0, 0)):
    head = bytearray(64)
    head[0] = code
    head[1] = 1 if csc else 0
    head[2], head[3] = swap
    head[4] = batch
    struct.pack_into("<ii", head, 8, w, h)
    if csc:
        m, ib, ob = csc
        struct.pack_into("<9h", head, 16, *m)
        head[40:43] = bytes(ob or [0, 0, 0])
        head[43:46] = bytes(ib or [0, 0, 0])
    out = bytes(head)
    for b in range(batch):
        img = bytearray(96)
        if crop:
            img[0] = 1
            struct.pack_into("<iiii", img, 8, *crop)
        if pad:
            img[2] = 1
            struct.pack_into("<iiii", img, 40, *pad)
        struct.pack_into("<4h", img, 56, 104, 117, 123, b)
        struct.pack_into("<4H", img, 64, f16(0.0), f16(0.5), f16(1.0), f16(0.0))
        struct.pack_into("<4H", img, 72, f16(0.0039215), f16(1.0), f16(-2.0), f16(1.0))
        out += bytes(img)
    return out


def blocks():
    seeds = []
    w, h = 8, 6
    for code, (name, bpp) in CCE.items():
        n = int(w * h * bpp)
        yuv = name in YUV
        csc = None if name == "YUV400_U8" else (YUV2RGB_601N if yuv else RGB2YUV_601N)
        for batch in (1, 2):
            img = bytes((i * 7 + batch) & 255 for i in range(n * batch))
            out_c = 1 if name == "YUV400_U8" else 3
            ctrl = bytes([(out_c - 1) << 1 | (batch - 1), batch - 1, batch])
            seeds.append(ctrl + dyn_block(code, w, h, batch) + img)
            seeds.append(ctrl + dyn_block(code, w, h, batch, csc=csc, swap=(1, 1 if bpp == 4 else 0)) + img)
            seeds.append(ctrl + dyn_block(code, w, h, batch, crop=(2, 2, 4, 4), pad=(1, 2, 0, 3)) + img)
    return seeds


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("config", "block"):
        sys.exit(__doc__)
    kind, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for i, s in enumerate(configs() if kind == "config" else blocks()):
        with open(os.path.join(out, "%s_%03d" % (kind, i)), "wb") as f:
            f.write(s.encode() if isinstance(s, str) else s)


if __name__ == "__main__":
    main()

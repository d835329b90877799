#!/usr/bin/python3
"""Writes the AIPP end-to-end data (compat_tests/models/mdl_aipp.c), fixed seeds:

  small ONNX models (aipp_net: Conv-Relu-Conv on x [N,3,H,W]; aipp_two: two
  inputs x1, x2 [1,3,16,16], a Conv each, Add), the atc --insert_op_conf files,
  raw images (NV12 20x18, RGB888 16x16), and the same images pre-processed by
  the numpy reference of docs/aipp.md (tests/kernels/gen_aipp_refs.py, written
  independently of the C kernel) as float32 NCHW tensors for ONNX Runtime.
  dyn_params.txt holds the per-image dynamic AIPP parameters the program sets.

  make_aipp.py --out DIR
"""
import argparse
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'kernels'))
from gen_aipp_refs import aipp_ref  # noqa: E402

YUV420SP, RGB888 = 1, 3
SRC_W, SRC_H = 20, 18
M601 = [[298, 0, 409], [298, -100, -208], [298, 516, 0]]  # YUV -> RGB BT.601 narrow (docs/aipp.md "CSC presets")
MEAN = [104, 117, 123, 0]
VAR = [0.0171, 0.0175, 0.0174, 1.0]

STATIC_CFG = """# static AIPP: NV12 20x18 -> crop 16x16 at (2,2) -> YUV->RGB BT.601 -> (x - mean) * var_reci
aipp_op {
  aipp_mode: static
  related_input_rank: %d
  input_format: YUV420SP_U8
  src_image_size_w: 20
  src_image_size_h: 18
  crop: true
  load_start_pos_w: 2
  load_start_pos_h: 2
  crop_size_w: 16
  crop_size_h: 16
  csc_switch: true
  matrix_r0c0: 298
  matrix_r0c1: 0
  matrix_r0c2: 409
  matrix_r1c0: 298
  matrix_r1c1: -100
  matrix_r1c2: -208
  matrix_r2c0: 298
  matrix_r2c1: 516
  matrix_r2c2: 0
  input_bias_0: 16
  input_bias_1: 128
  input_bias_2: 128
  mean_chn_0: 104
  mean_chn_1: 117
  mean_chn_2: 123
  var_reci_chn_0: 0.0171
  var_reci_chn_1: 0.0175
  var_reci_chn_2: 0.0174
}
"""

RGB_CFG = """aipp_op {
  aipp_mode: static
  related_input_rank: 1
  input_format: RGB888_U8
  src_image_size_w: 16
  src_image_size_h: 16
  rbuv_swap_switch: true
  mean_chn_0: 10
  mean_chn_1: 20
  mean_chn_2: 30
  min_chn_0: 0.5
  var_reci_chn_0: 0.01
  var_reci_chn_1: 0.02
  var_reci_chn_2: 0.03
}
"""

DYNAMIC_CFG = """aipp_op {
  aipp_mode: dynamic
  max_src_image_size: %d
}
""" % (2 * SRC_W * SRC_H * 3 // 2)

HW_CFG = """# --dynamic_image_size: the whole NV12 image of the gear's size, YUV->RGB, mean/var
aipp_op {
  aipp_mode: static
  input_format: YUV420SP_U8
  csc_switch: true
  matrix_r0c0: 298
  matrix_r0c1: 0
  matrix_r0c2: 409
  matrix_r1c0: 298
  matrix_r1c1: -100
  matrix_r1c2: -208
  matrix_r2c0: 298
  matrix_r2c1: 516
  matrix_r2c2: 0
  input_bias_0: 16
  input_bias_1: 128
  input_bias_2: 128
  mean_chn_0: 104
  mean_chn_1: 117
  mean_chn_2: 123
  var_reci_chn_0: 0.0171
  var_reci_chn_1: 0.0175
  var_reci_chn_2: 0.0174
}
"""

BAD_CFG = """aipp_op {
  aipp_mode: static
  input_format: YUV420SP_U8
  src_image_size_w: 20
  src_image_size_h: 18
  crop: true
  load_start_pos_w: 8
  load_start_pos_h: 2
  crop_size_w: 16
  crop_size_h: 16
}
"""

# per image: crop sx sy cw ch | pad l r t b | mean0..3 | min0..3 | var0..3
DYN_IMAGES = [
    ([2, 2, 16, 16], [0, 0, 0, 0], [100, 110, 120, 0], [0, 0, 0, 0], [0.02, 0.018, 0.016, 1.0]),
    ([4, 4, 14, 14], [1, 1, 1, 1], [90, 100, 105, 0], [1, 2, 3, 0], [0.015, 0.017, 0.019, 1.0]),
]


def conv_w(rng, o, i):
    return (rng.standard_normal((o, i, 3, 3)) * 0.3).astype(np.float32), rng.standard_normal(o).astype(np.float32)


def save(model, path):
    model.ir_version = 7
    onnx.checker.check_model(model)
    onnx.save(model, path)


def make_models(out):
    rng = np.random.default_rng(14)
    w1, b1 = conv_w(rng, 8, 3)
    w2, b2 = conv_w(rng, 4, 8)
    g = helper.make_graph(
        [helper.make_node('Conv', ['x', 'w1', 'b1'], ['h'], pads=[1, 1, 1, 1]),
         helper.make_node('Relu', ['h'], ['r']),
         helper.make_node('Conv', ['r', 'w2', 'b2'], ['y'], pads=[1, 1, 1, 1], strides=[2, 2])],
        'aipp_net', [helper.make_tensor_value_info('x', TensorProto.FLOAT, ['N', 3, 'H', 'W'])],
        [helper.make_tensor_value_info('y', TensorProto.FLOAT, ['N', 4, 'OH', 'OW'])],
        [numpy_helper.from_array(a, n) for a, n in ((w1, 'w1'), (b1, 'b1'), (w2, 'w2'), (b2, 'b2'))])
    save(helper.make_model(g, opset_imports=[helper.make_opsetid('', 13)]), os.path.join(out, 'aipp_net.onnx'))
    wa, ba = conv_w(rng, 4, 3)
    wb, bb = conv_w(rng, 4, 3)
    g = helper.make_graph(
        [helper.make_node('Conv', ['x1', 'wa', 'ba'], ['a'], pads=[1, 1, 1, 1]),
         helper.make_node('Conv', ['x2', 'wb', 'bb'], ['b'], pads=[1, 1, 1, 1]),
         helper.make_node('Add', ['a', 'b'], ['y'])],
        'aipp_two', [helper.make_tensor_value_info('x1', TensorProto.FLOAT, [1, 3, 16, 16]),
                     helper.make_tensor_value_info('x2', TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info('y', TensorProto.FLOAT, [1, 4, 16, 16])],
        [numpy_helper.from_array(a, n) for a, n in ((wa, 'wa'), (ba, 'ba'), (wb, 'wb'), (bb, 'bb'))])
    save(helper.make_model(g, opset_imports=[helper.make_opsetid('', 13)]), os.path.join(out, 'aipp_two.onnx'))


def nv12(rng, n):
    """n NV12 images: smooth luma and chroma (a camera-like frame) plus noise."""
    imgs = []
    for k in range(n):
        yy, xx = np.mgrid[0:SRC_H, 0:SRC_W]
        y = 16 + (xx * 9 + yy * 5 + 30 * k) % 220 + rng.integers(0, 20, (SRC_H, SRC_W))
        uv = rng.integers(40, 216, (SRC_H // 2, SRC_W))
        imgs.append(np.concatenate([np.clip(y, 0, 255).ravel(), uv.ravel()]).astype(np.uint8))
    return imgs


def static_cfg():
    return dict(rbuv=False, ax=False, crop=True, crop_box=(2, 2, 16, 16), csc=True, matrix=M601, ib=[16, 128, 128],
                ob=[0, 0, 0], out_c=3, mean=MEAN, min=[0, 0, 0, 0], var=VAR, padding=False)


def pre(fmt, raws, w, h, cfgs):
    return np.stack([aipp_ref(fmt, r, w, h, c).transpose(2, 0, 1) for r, c in zip(raws, cfgs)]).astype(np.float32)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', required=True)
    out = ap.parse_args().out
    os.makedirs(out, exist_ok=True)
    make_models(out)
    for name, text in (('static.cfg', STATIC_CFG % 0), ('dynamic.cfg', DYNAMIC_CFG), ('bad_crop.cfg', BAD_CFG),
                       ('hw.cfg', HW_CFG),
                       ('two.cfg', STATIC_CFG % 0 + RGB_CFG)):
        with open(os.path.join(out, name), 'w') as f:
            f.write(text)
    rng = np.random.default_rng(2026)
    imgs = nv12(rng, 3)
    sc = static_cfg()
    # static, batch 1 and batch gears (1 and 2 images)
    imgs[0].tofile(os.path.join(out, 'nv12_b1.bin'))
    pre(YUV420SP, imgs[:1], SRC_W, SRC_H, [sc]).tofile(os.path.join(out, 'pre_b1.bin'))
    np.concatenate(imgs[1:3]).tofile(os.path.join(out, 'nv12_b2.bin'))
    pre(YUV420SP, imgs[1:3], SRC_W, SRC_H, [sc, sc]).tofile(os.path.join(out, 'pre_b2.bin'))
    # dynamic: the two images of nv12_b2 with per-image parameters
    cfgs = []
    lines = ['%d %d %d %d' % (YUV420SP, SRC_W, SRC_H, 1), ' '.join(str(v) for r in M601 for v in r),
             '0 0 0 16 128 128']
    for crop, pads, mean, mn, var in DYN_IMAGES:
        c = dict(rbuv=False, ax=False, crop=True, crop_box=tuple(crop), csc=True, matrix=M601, ib=[16, 128, 128],
                 ob=[0, 0, 0], out_c=3, mean=mean, min=mn, var=var, padding=any(pads), pads=tuple(pads),
                 pad_value=0.0)
        cfgs.append(c)
        lines.append(' '.join(str(v) for v in crop + pads + mean) + ' ' + ' '.join(repr(v) for v in mn + var))
    pre_dyn = pre(YUV420SP, imgs[1:3], SRC_W, SRC_H, cfgs)
    pre_dyn.tofile(os.path.join(out, 'pre_dyn.bin'))
    pre_dyn[:1].tofile(os.path.join(out, 'pre_dyn_b1.bin'))  # batch gear 1: the first image, its parameters
    with open(os.path.join(out, 'dyn_params.txt'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    # image gears 16x16 and 8x12 (HxW): whole NV12 images of those sizes
    for h, w in ((16, 16), (8, 12)):
        raw = rng.integers(16, 236, w * h * 3 // 2, dtype=np.uint8)
        raw.tofile(os.path.join(out, 'nv12_%dx%d.bin' % (h, w)))
        c = dict(static_cfg(), crop=False)
        pre(YUV420SP, [raw], w, h, [c]).tofile(os.path.join(out, 'pre_%dx%d.bin' % (h, w)))
    # two inputs: x1 NV12 as the static case, x2 BGR bytes (rbuv_swap) 16x16
    bgr = rng.integers(0, 256, 16 * 16 * 3, dtype=np.uint8)
    bgr.tofile(os.path.join(out, 'bgr16.bin'))
    rc = dict(rbuv=True, ax=False, crop=False, csc=False, out_c=3, mean=[10, 20, 30, 0], min=[0.5, 0, 0, 0],
              var=[0.01, 0.02, 0.03, 1.0], padding=False)
    pre(RGB888, [bgr], 16, 16, [rc]).tofile(os.path.join(out, 'pre_x2.bin'))


if __name__ == '__main__':
    main()

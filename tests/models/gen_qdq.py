#!/usr/bin/python3
"""Writes QDQ (QuantizeLinear/DequantizeLinear) stand-ins of fp32 ONNX models
(docs/int8.md "Test models"), never committed:

  resnet50_qdq.onnx  from gen_models.py's resnet50.onnx: BatchNormalization
                     folded into the convs, then every activation read by a
                     Conv, Add, MaxPool, GlobalAveragePool or Gemm passes
                     through QuantizeLinear -> DequantizeLinear (uint8,
                     per-tensor scale and zero point from the min/max of a
                     calibration pass; the GlobalAveragePool's output too), Conv/Gemm weights are int8 with
                     per-output-channel symmetric scales (max |w| / 127,
                     zero points 0) and biases int32 with scale
                     x_scale * w_scale (what ONNX Runtime's quantizer writes
                     for its QDQ format); Relu after a Conv or an Add is
                     quantized after the Relu (no separate pre-Relu scale).
  small_qdq.onnx     --small: a small net of the same patterns (conv + relu,
                     conv without relu, a residual Add + Relu, a grouped conv,
                     a per-tensor-weight conv, an s8 activation) for the
                     end-to-end test, input "x" 1x8x20x20.

The calibration is a numpy forward pass of the fp32 graph on the given input
(--calib, raw float32 NCHW), so every run writes the same file.

  gen_qdq.py --fp32 resnet50.onnx --calib resnet_x.bin --out resnet50_qdq.onnx
  gen_qdq.py --small --out small_qdq.onnx [--calib-out x.bin]
"""
import argparse
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


# ------------------------------------------------------------ numpy forward

def conv2d(x, w, b, strides, pads, dil, group):
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    x = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    oh = (x.shape[2] - (dil[0] * (kh - 1) + 1)) // strides[0] + 1
    ow = (x.shape[3] - (dil[1] * (kw - 1) + 1)) // strides[1] + 1
    y = np.zeros((n, o, oh, ow), np.float32)
    og = o // group
    for g in range(group):
        xs = x[:, g * cg:(g + 1) * cg]
        cols = np.empty((n, cg, kh, kw, oh, ow), np.float32)
        for i in range(kh):
            for j in range(kw):
                hi, wj = i * dil[0], j * dil[1]
                cols[:, :, i, j] = xs[:, :, hi:hi + strides[0] * oh:strides[0], wj:wj + strides[1] * ow:strides[1]]
        wm = w[g * og:(g + 1) * og].reshape(og, -1)
        y[:, g * og:(g + 1) * og] = np.einsum("ok,nkp->nop", wm, cols.reshape(n, cg * kh * kw, oh * ow),
                                             optimize=True).reshape(n, og, oh, ow)
    if b is not None:
        y += b.reshape(1, -1, 1, 1)
    return y


def maxpool(x, k, s, p):
    x = np.pad(x, ((0, 0), (0, 0), (p[0], p[2]), (p[1], p[3])), constant_values=-np.inf)
    oh = (x.shape[2] - k[0]) // s[0] + 1
    ow = (x.shape[3] - k[1]) // s[1] + 1
    y = np.full(x.shape[:2] + (oh, ow), -np.inf, np.float32)
    for i in range(k[0]):
        for j in range(k[1]):
            y = np.maximum(y, x[:, :, i:i + s[0] * oh:s[0], j:j + s[1] * ow:s[1]])
    return y


def attr(node, name, dflt):
    for a in node.attribute:
        if a.name == name:
            return helper.get_attribute_value(a)
    return dflt


def forward(graph, inits, feeds):
    """Runs the fp32 graph (the ops of the stand-ins); returns every tensor."""
    v = dict(inits)
    v.update(feeds)
    for nd in graph.node:
        i = [v[t] if t else None for t in nd.input]
        t = nd.op_type
        if t == "Conv":
            k = attr(nd, "kernel_shape", list(i[1].shape[2:]))
            p = attr(nd, "pads", [0, 0, 0, 0])
            y = conv2d(i[0], i[1], i[2] if len(i) > 2 else None, attr(nd, "strides", [1, 1]),
                       [p[0], p[1], p[2], p[3]], attr(nd, "dilations", [1, 1]), attr(nd, "group", 1))
            assert list(k) == list(i[1].shape[2:])
        elif t == "Relu":
            y = np.maximum(i[0], 0)
        elif t == "Add":
            y = i[0] + i[1]
        elif t == "MaxPool":
            y = maxpool(i[0], attr(nd, "kernel_shape", None), attr(nd, "strides", [1, 1]), attr(nd, "pads", [0] * 4))
        elif t == "GlobalAveragePool":
            y = i[0].mean(axis=(2, 3), keepdims=True)
        elif t == "Flatten":
            y = i[0].reshape(i[0].shape[0], -1)
        elif t == "Gemm":
            b = i[1].T if attr(nd, "transB", 0) else i[1]
            y = i[0] @ b + (i[2] if len(i) > 2 else 0)
        elif t == "BatchNormalization":
            sc, bi, mu, var = i[1:5]
            e = attr(nd, "epsilon", 1e-5)
            y = (i[0] - mu.reshape(1, -1, 1, 1)) / np.sqrt(var.reshape(1, -1, 1, 1) + e) * sc.reshape(1, -1, 1, 1) \
                + bi.reshape(1, -1, 1, 1)
        else:
            raise SystemExit(f"gen_qdq: op {t} is not supported by the calibration pass")
        v[nd.output[0]] = y.astype(np.float32)
    return v


# --------------------------------------------------------------- BN folding

def fold_bn(graph, inits):
    """Conv -> BatchNormalization becomes one Conv with a bias."""
    producers = {o: nd for nd in graph.node for o in nd.output}
    out_nodes, rename = [], {}
    for nd in graph.node:
        if nd.op_type == "BatchNormalization" and producers.get(nd.input[0]) is not None and \
                producers[nd.input[0]].op_type == "Conv":
            cv = producers[nd.input[0]]
            sc, bi, mu, var = (inits[n] for n in nd.input[1:5])
            k = sc / np.sqrt(var + attr(nd, "epsilon", 1e-5))
            w = inits[cv.input[1]] * k.reshape(-1, 1, 1, 1)
            b0 = inits[cv.input[2]] if len(cv.input) > 2 else 0
            inits[cv.input[1]] = w.astype(np.float32)
            bname = cv.input[1] + "_bias"
            inits[bname] = ((b0 - mu) * k + bi).astype(np.float32)
            while len(cv.input) < 3:
                cv.input.append("")
            cv.input[2] = bname
            rename[nd.output[0]] = cv.output[0]
            continue
        out_nodes.append(nd)
    for nd in out_nodes:
        for j, t in enumerate(nd.input):
            if t in rename:
                nd.input[j] = rename[t]
    for o in graph.output:
        if o.name in rename:
            o.name = rename[o.name]
    return out_nodes


# -------------------------------------------------------------- QDQ writing

def act_params(lo, hi, dtype):
    lo, hi = min(float(lo), 0.0), max(float(hi), 0.0)
    if dtype == "u8":
        s = (hi - lo) / 255.0 or 1.0
        zp = int(np.clip(np.round(-lo / s), 0, 255))
        return np.float32(s), np.uint8(zp)
    m = max(-lo, hi)
    s = m / 127.0 or 1.0
    return np.float32(s), np.int8(0)


def quantize_model(graph, nodes, inits, values, s8_tensors=(), per_tensor_convs=()):
    new_nodes, new_inits = [], {}
    qdq = {}  # tensor -> (dq name, scale)

    def init(name, arr):
        new_inits[name] = arr
        return name

    def dq_of(t):
        if t in qdq:
            return qdq[t]
        x = values[t]
        s, zp = act_params(x.min(), x.max(), "s8" if t in s8_tensors else "u8")
        sn, zn = init(t + "_scale", np.array(s, np.float32)), init(t + "_zp", np.array(zp))
        new_nodes.append(helper.make_node("QuantizeLinear", [t, sn, zn], [t + "_q"], name=t + "_Q"))
        new_nodes.append(helper.make_node("DequantizeLinear", [t + "_q", sn, zn], [t + "_dq"], name=t + "_DQ"))
        qdq[t] = (t + "_dq", s)
        return qdq[t]

    def weight(name, axis_len, per_channel):
        w = inits[name]
        flat = np.abs(w.reshape(w.shape[0], -1)).max(axis=1) if per_channel else np.abs(w).max().reshape(1)
        s = (np.maximum(flat, 1e-12) / 127.0).astype(np.float32)
        bshape = (-1,) + (1,) * (w.ndim - 1)
        q = np.clip(np.round(w / s.reshape(bshape)), -127, 127).astype(np.int8)
        qn, sn = init(name + "_q", q), init(name + "_wscale", s if per_channel else s.reshape(()))
        zn = init(name + "_wzp", np.zeros(s.shape if per_channel else (), np.int8))
        new_nodes.append(helper.make_node("DequantizeLinear", [qn, sn, zn], [name + "_dq"], name=name + "_DQ",
                                          axis=0))
        return name + "_dq", s

    renamed = {}  # a GlobalAveragePool's output -> its DQ
    for nd in nodes:
        t = nd.op_type
        ins = [renamed.get(i, i) for i in nd.input]
        if t in ("Conv", "Gemm"):
            x, xs = dq_of(ins[0])
            per_channel = nd.name not in per_tensor_convs
            w, ws = weight(ins[1], 0, per_channel)
            ins[0], ins[1] = x, w
            if len(ins) > 2 and ins[2]:
                bs = (xs * ws).astype(np.float32)
                bq = np.round(inits[ins[2]] / bs).astype(np.int32)
                bn = init(ins[2] + "_q", bq)
                bsn = init(ins[2] + "_bscale", bs if per_channel else bs.reshape(()))
                new_nodes.append(helper.make_node("DequantizeLinear", [bn, bsn], [ins[2] + "_dq"],
                                                  name=ins[2] + "_DQ", axis=0))
                ins[2] = ins[2] + "_dq"
        elif t in ("Add", "MaxPool", "GlobalAveragePool"):
            ins = [dq_of(i)[0] for i in ins]
        new_nodes.append(helper.make_node(t, ins, list(nd.output), name=nd.name, **{
            a.name: helper.get_attribute_value(a) for a in nd.attribute}))
        if t == "GlobalAveragePool":  # quantized output, as ONNX Runtime's quantizer writes it
            renamed[nd.output[0]] = dq_of(nd.output[0])[0]
    del graph.node[:]
    graph.node.extend(new_nodes)
    del graph.initializer[:]
    used = {i for nd in new_nodes for i in nd.input}
    for k, a in list(inits.items()) + list(new_inits.items()):
        if k in used:
            graph.initializer.append(numpy_helper.from_array(np.asarray(a), k))
    del graph.value_info[:]


def write(model, path):
    onnx.checker.check_model(model)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    onnx.save(model, path)


def resnet(args):
    m = onnx.load(args.fp32)
    g = m.graph
    inits = {t.name: numpy_helper.to_array(t).astype(np.float32) for t in g.initializer}
    nodes = fold_bn(g, inits)
    del g.node[:]
    g.node.extend(nodes)
    shape = [d.dim_value if d.dim_value > 0 else 1 for d in g.input[0].type.tensor_type.shape.dim]
    x = np.fromfile(args.calib, np.float32).reshape(shape)
    values = forward(g, inits, {g.input[0].name: x})
    quantize_model(g, nodes, inits, values)
    del m.opset_import[:]
    m.opset_import.extend([helper.make_opsetid("", 13)])
    write(m, args.out)


def small(args):
    rng = np.random.default_rng(19)
    inits = {}
    nodes = []

    def w(name, shape):
        inits[name] = (rng.standard_normal(shape) * (2.0 / np.prod(shape[1:])) ** 0.5).astype(np.float32)
        return name

    def b(name, n):
        inits[name] = (0.1 * rng.standard_normal(n)).astype(np.float32)
        return name

    def conv(name, x, wn, bn, k, s=1, group=1, relu=True):
        ins = [x, wn] + ([bn] if bn else [])
        nodes.append(helper.make_node("Conv", ins, [name], name=name, kernel_shape=[k, k], strides=[s, s],
                                      pads=[k // 2] * 4, group=group))
        if relu:
            nodes.append(helper.make_node("Relu", [name], [name + "_relu"], name=name + "_relu"))
            return name + "_relu"
        return name

    a = conv("c1", "x", w("w1", (16, 8, 3, 3)), b("b1", 16), 3)
    c = conv("c2", a, w("w2", (16, 16, 1, 1)), b("b2", 16), 1, relu=False)
    nodes.append(helper.make_node("Add", [c, a], ["add"], name="add"))
    nodes.append(helper.make_node("Relu", ["add"], ["add_relu"], name="add_relu"))
    d = conv("c3", "add_relu", w("w3", (16, 4, 3, 3)), b("b3", 16), 3, s=2, group=4)
    e = conv("c4", d, w("w4", (12, 16, 3, 3)), None, 3, relu=False)
    f = conv("c5", e, w("w5", (8, 12, 1, 1)), b("b5", 8), 1)
    g = helper.make_graph(nodes, "small_qdq", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8, 20, 20])],
                          [helper.make_tensor_value_info(f, TensorProto.FLOAT, [1, 8, 10, 10])])
    x = rng.standard_normal((1, 8, 20, 20)).astype(np.float32)
    values = forward(g, inits, {"x": x})
    # c4's output (no relu, signed) as int8; c4's weights per-tensor
    quantize_model(g, list(g.node), inits, values, s8_tensors={"c4"}, per_tensor_convs={"c4"})
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    write(m, args.out)
    if args.calib_out:
        x.tofile(args.calib_out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fp32", help="the fp32 model (resnet50.onnx)")
    ap.add_argument("--calib", help="calibration input, raw float32")
    ap.add_argument("--small", action="store_true", help="write the small test net instead")
    ap.add_argument("--calib-out", help="--small: write its input here (raw float32)")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    if args.small:
        small(args)
    elif args.fp32 and args.calib:
        resnet(args)
    else:
        ap.error("--fp32 and --calib (or --small) are required")
    return 0


if __name__ == "__main__":
    sys.exit(main())

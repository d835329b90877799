#!/usr/bin/python3
"""Writes the synthetic ONNX test models (never committed; generated into the
build tree at test time).

  resnet50.onnx        ResNet-50 (the real architecture: 7x7 stem, bottleneck
                       stages [3, 4, 6, 3], BatchNormalization kept separate,
                       Flatten + Gemm head), opset 13, input "input" 1x3x224x224
  bert.onnx            BERT-base-like encoder, opset 13: Gather embeddings with
                       a sliced position-id buffer, HF-style attention mask
                       (Unsqueeze/Expand/Equal/Where), multi-head attention with
                       MatMul/Reshape/Transpose/Softmax, LayerNorm decomposed as
                       ReduceMean/Sub/Pow/Sqrt/Div, Gelu as Erf, pooler (Gemm+Tanh)
                       inputs input_ids / attention_mask / token_type_ids [1,128]
  bert_ln17.onnx       the same encoder at opset 17 with LayerNormalization
  yolo.onnx            YOLO-like detector, opset 13: SiLU convs, C2f-style Split,
                       SPPF max pools, nearest Resize neck, three heads decoded
                       with Reshape/Transpose/Sigmoid/Slice/Mul/Add/Concat;
                       input "images" 1x3x640x640, output [1, 25200, 85]

Weights are numpy random numbers with a fixed seed, so every run writes the
same files. Usage:

  gen_models.py --out DIR [--bert-layers N] [--bert-vocab N] [--only NAME ...]
"""
import argparse
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


class Builder:
    """Collects nodes and initializers with unique names."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.nodes = []
        self.inits = []
        self.count = {}

    def name(self, base):
        k = self.count.get(base, 0)
        self.count[base] = k + 1
        return f"{base}_{k}"

    def init(self, base, array):
        n = self.name(base)
        self.inits.append(numpy_helper.from_array(np.asarray(array), n))
        return n

    def weight(self, base, shape, scale=None):
        fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else int(shape[0])
        s = scale if scale is not None else (2.0 / max(fan_in, 1)) ** 0.5
        return self.init(base, (self.rng.standard_normal(shape) * s).astype(np.float32))

    def op(self, op_type, inputs, n_out=1, name=None, **attrs):
        nm = name or self.name(op_type)
        outs = [f"{nm}_out{i}" for i in range(n_out)]
        self.nodes.append(helper.make_node(op_type, inputs, outs, name=nm, **attrs))
        return outs[0] if n_out == 1 else outs

    def i64(self, base, values):
        return self.init(base, np.asarray(values, dtype=np.int64))

    def f32(self, base, values):
        return self.init(base, np.asarray(values, dtype=np.float32))


def save(graph, opset, path):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                              producer_name="openacl-gen_models")
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, path)


# ---------------------------------------------------------------- ResNet-50

def conv_bn(b, x, cin, cout, k, stride, relu=True):
    w = b.weight("conv_w", (cout, cin, k, k))
    y = b.op("Conv", [x, w], kernel_shape=[k, k], strides=[stride, stride],
             pads=[k // 2] * 4, dilations=[1, 1], group=1)
    scale = b.f32("bn_scale", 1.0 + 0.1 * b.rng.standard_normal(cout))
    bias = b.f32("bn_bias", 0.1 * b.rng.standard_normal(cout))
    mean = b.f32("bn_mean", 0.1 * b.rng.standard_normal(cout))
    var = b.f32("bn_var", 1.0 + 0.1 * np.abs(b.rng.standard_normal(cout)))
    y = b.op("BatchNormalization", [y, scale, bias, mean, var], epsilon=1e-5, momentum=0.9)
    return b.op("Relu", [y]) if relu else y


def resnet50(path):
    b = Builder(50)
    x = conv_bn(b, "input", 3, 64, 7, 2)
    x = b.op("MaxPool", [x], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    cin = 64
    for stage, (blocks, width) in enumerate([(3, 64), (4, 128), (6, 256), (3, 512)]):
        for i in range(blocks):
            stride = 2 if (i == 0 and stage > 0) else 1
            out = width * 4
            y = conv_bn(b, x, cin, width, 1, 1)
            y = conv_bn(b, y, width, width, 3, stride)
            y = conv_bn(b, y, width, out, 1, 1, relu=False)
            short = conv_bn(b, x, cin, out, 1, stride, relu=False) if (i == 0) else x
            x = b.op("Relu", [b.op("Add", [y, short])])
            cin = out
    x = b.op("GlobalAveragePool", [x])
    x = b.op("Flatten", [x], axis=1)
    w = b.weight("fc_w", (1000, 2048))
    fb = b.f32("fc_b", np.zeros(1000))
    b.op("Gemm", [x, w, fb], name="fc", alpha=1.0, beta=1.0, transB=1)
    g = helper.make_graph(
        b.nodes, "resnet50",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["batch", 3, 224, 224])],
        [helper.make_tensor_value_info("fc_out0", TensorProto.FLOAT, ["batch", 1000])],
        b.inits)
    g.output[0].name = "fc_out0"
    save(g, 13, path)


# --------------------------------------------------------------------- BERT

def layer_norm(b, x, hidden, use_op):
    gamma = b.f32("ln_gamma", 1.0 + 0.05 * b.rng.standard_normal(hidden))
    beta = b.f32("ln_beta", 0.05 * b.rng.standard_normal(hidden))
    if use_op:
        return b.op("LayerNormalization", [x, gamma, beta], axis=-1, epsilon=1e-12)
    mean = b.op("ReduceMean", [x], axes=[-1], keepdims=1)
    d = b.op("Sub", [x, mean])
    var = b.op("ReduceMean", [b.op("Pow", [d, b.f32("two", 2.0)])], axes=[-1], keepdims=1)
    std = b.op("Sqrt", [b.op("Add", [var, b.f32("eps", 1e-12)])])
    y = b.op("Div", [d, std])
    return b.op("Add", [b.op("Mul", [y, gamma]), beta])


def linear(b, x, din, dout):
    w = b.weight("dense_w", (din, dout), scale=0.02)
    bias = b.f32("dense_b", np.zeros(dout))
    return b.op("Add", [b.op("MatMul", [x, w]), bias])


def dyn_shape(b, x, tail):
    """Concat(Shape(x)[0], Shape(x)[1], tail...) as HF exports build it."""
    sh = b.op("Shape", [x])
    parts = []
    for i in range(2):
        g = b.op("Gather", [sh, b.i64("idx", i)], axis=0)
        parts.append(b.op("Unsqueeze", [g, b.i64("axes", [0])]))
    parts.append(b.i64("tail", tail))
    return b.op("Concat", parts, axis=0)


def bert(path, layers, vocab, use_ln_op, opset):
    hidden, heads, inter, max_pos = 768, 12, 3072, 512
    head = hidden // heads
    b = Builder(17 if use_ln_op else 13)
    word = b.weight("word_embeddings", (vocab, hidden), scale=0.02)
    pos = b.weight("position_embeddings", (max_pos, hidden), scale=0.02)
    typ = b.weight("token_type_embeddings", (2, hidden), scale=0.02)
    pos_ids = b.i64("position_ids", np.arange(max_pos).reshape(1, max_pos))
    # position ids = position_ids[:, :seq_len]
    seq = b.op("Gather", [b.op("Shape", ["input_ids"]), b.i64("idx", 1)], axis=0)
    seq1 = b.op("Unsqueeze", [seq, b.i64("axes", [0])])
    pids = b.op("Slice", [pos_ids, b.i64("starts", [0]), seq1, b.i64("axes", [1]), b.i64("steps", [1])])
    emb = b.op("Add", [b.op("Gather", [word, "input_ids"], axis=0), b.op("Gather", [typ, "token_type_ids"], axis=0)])
    emb = b.op("Add", [emb, b.op("Gather", [pos, pids], axis=0)])
    x = layer_norm(b, emb, hidden, use_ln_op)
    # mask [B,S] -> [B,1,1,S] -> Expand [B,1,S,S] -> Where(mask == 0, -inf, 0)
    m = b.op("Unsqueeze", ["attention_mask", b.i64("axes", [1, 2])])
    shp = b.op("Concat", [b.op("Unsqueeze", [b.op("Gather", [b.op("Shape", ["attention_mask"]), b.i64("idx", 0)],
                                                       axis=0), b.i64("axes", [0])]),
                           b.i64("one", [1]), seq1, seq1], axis=0)
    m = b.op("Cast", [b.op("Expand", [m, shp])], to=TensorProto.FLOAT)
    is_pad = b.op("Equal", [m, b.f32("zero", 0.0)])
    bias = b.op("Where", [is_pad, b.f32("neg", np.finfo(np.float32).min), b.f32("zero", 0.0)])
    for _ in range(layers):
        q = linear(b, x, hidden, hidden)
        k = linear(b, x, hidden, hidden)
        v = linear(b, x, hidden, hidden)
        heads_shape = dyn_shape(b, x, [heads, head])
        q = b.op("Transpose", [b.op("Reshape", [q, heads_shape])], perm=[0, 2, 1, 3])
        k = b.op("Transpose", [b.op("Reshape", [k, heads_shape])], perm=[0, 2, 3, 1])
        v = b.op("Transpose", [b.op("Reshape", [v, heads_shape])], perm=[0, 2, 1, 3])
        s = b.op("Div", [b.op("MatMul", [q, k]), b.f32("scale", np.sqrt(head))])
        p = b.op("Softmax", [b.op("Add", [s, bias])], axis=-1)
        ctx = b.op("Transpose", [b.op("MatMul", [p, v])], perm=[0, 2, 1, 3])
        ctx = b.op("Reshape", [ctx, dyn_shape(b, x, [hidden])])
        x = layer_norm(b, b.op("Add", [linear(b, ctx, hidden, hidden), x]), hidden, use_ln_op)
        h = linear(b, x, hidden, inter)
        gelu = b.op("Mul", [b.op("Mul", [h, b.f32("half", 0.5)]),
                            b.op("Add", [b.op("Erf", [b.op("Div", [h, b.f32("sqrt2", np.sqrt(2.0))])]),
                                         b.f32("one_f", 1.0)])])
        x = layer_norm(b, b.op("Add", [linear(b, gelu, inter, hidden), x]), hidden, use_ln_op)
    b.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"], name="last_hidden_state_id"))
    cls = b.op("Gather", [x, b.i64("cls", 0)], axis=1)
    pw = b.weight("pooler_w", (hidden, hidden), scale=0.02)
    pb = b.f32("pooler_b", np.zeros(hidden))
    pooled = b.op("Gemm", [cls, pw, pb], transB=1)
    b.nodes.append(helper.make_node("Tanh", [pooled], ["pooler_output"], name="pooler_tanh"))
    ints = [helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "seq"])
            for n in ("input_ids", "attention_mask", "token_type_ids")]
    outs = [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "seq", hidden]),
            helper.make_tensor_value_info("pooler_output", TensorProto.FLOAT, ["batch", hidden])]
    save(helper.make_graph(b.nodes, "bert", ints, outs, b.inits), opset, path)


# --------------------------------------------------------------------- YOLO

def silu_conv(b, x, cin, cout, k, s):
    w = b.weight("w", (cout, cin, k, k))
    bias = b.f32("b", np.zeros(cout))
    y = b.op("Conv", [x, w, bias], kernel_shape=[k, k], strides=[s, s], pads=[k // 2] * 4)
    return b.op("Mul", [y, b.op("Sigmoid", [y])])


def c2f(b, x, c):
    a, z = b.op("Split", [x, b.i64("split", [c // 2, c // 2])], n_out=2, axis=1)
    z2 = silu_conv(b, z, c // 2, c // 2, 3, 1)
    return silu_conv(b, b.op("Concat", [a, z, z2], axis=1), c + c // 2, c, 1, 1)


def yolo(path):
    b = Builder(8)
    na, no = 3, 85
    x = silu_conv(b, "images", 3, 16, 3, 2)          # 320
    x = c2f(b, silu_conv(b, x, 16, 32, 3, 2), 32)    # 160
    p3 = c2f(b, silu_conv(b, x, 32, 64, 3, 2), 64)   # 80
    p4 = c2f(b, silu_conv(b, p3, 64, 128, 3, 2), 128)  # 40
    p5 = silu_conv(b, p4, 128, 256, 3, 2)            # 20
    # SPPF
    y = silu_conv(b, p5, 256, 128, 1, 1)
    m1 = b.op("MaxPool", [y], kernel_shape=[5, 5], strides=[1, 1], pads=[2, 2, 2, 2])
    m2 = b.op("MaxPool", [m1], kernel_shape=[5, 5], strides=[1, 1], pads=[2, 2, 2, 2])
    m3 = b.op("MaxPool", [m2], kernel_shape=[5, 5], strides=[1, 1], pads=[2, 2, 2, 2])
    p5 = silu_conv(b, b.op("Concat", [y, m1, m2, m3], axis=1), 512, 256, 1, 1)
    # neck
    up = b.op("Resize", [p5, b.f32("roi", []), b.f32("scales", [1, 1, 2, 2])], mode="nearest")
    n4 = silu_conv(b, b.op("Concat", [up, p4], axis=1), 384, 128, 1, 1)
    up = b.op("Resize", [n4, "", b.f32("scales", [1, 1, 2, 2])], mode="nearest",
              coordinate_transformation_mode="asymmetric", nearest_mode="floor")
    n3 = silu_conv(b, b.op("Concat", [up, p3], axis=1), 192, 64, 1, 1)
    outs = []
    for feat, c, stride in ((n3, 64, 8), (n4, 128, 16), (p5, 256, 32)):
        hw = 640 // stride
        w = b.weight("head_w", (na * no, c, 1, 1))
        hb = b.f32("head_b", np.zeros(na * no))
        y = b.op("Conv", [feat, w, hb], kernel_shape=[1, 1])
        y = b.op("Reshape", [y, b.i64("shape", [1, na, no, hw, hw])])
        y = b.op("Sigmoid", [b.op("Transpose", [y], perm=[0, 1, 3, 4, 2])])
        xy = b.op("Slice", [y, b.i64("s", [0]), b.i64("e", [2]), b.i64("a", [4])])
        wh = b.op("Slice", [y, b.i64("s", [2]), b.i64("e", [4]), b.i64("a", [4])])
        rest = b.op("Slice", [y, b.i64("s", [4]), b.i64("e", [no]), b.i64("a", [4])])
        gy, gx = np.meshgrid(np.arange(hw), np.arange(hw), indexing="ij")
        grid = b.f32("grid", np.stack([gx, gy], -1).reshape(1, 1, hw, hw, 2) - 0.5)
        xy = b.op("Mul", [b.op("Add", [b.op("Mul", [xy, b.f32("two", 2.0)]), grid]), b.f32("stride", float(stride))])
        anchors = b.f32("anchor", (b.rng.uniform(10, 100, (1, na, 1, 1, 2))).astype(np.float32))
        wh = b.op("Mul", [b.op("Pow", [b.op("Mul", [wh, b.f32("two", 2.0)]), b.f32("two", 2.0)]), anchors])
        y = b.op("Concat", [xy, wh, rest], axis=4)
        outs.append(b.op("Reshape", [y, b.i64("flat", [1, -1, no])]))
    b.nodes.append(helper.make_node("Concat", outs, ["output0"], name="detect_concat", axis=1))
    g = helper.make_graph(b.nodes, "yolo",
                          [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, 640, 640])],
                          [helper.make_tensor_value_info("output0", TensorProto.FLOAT, [1, 25200, no])], b.inits)
    save(g, 13, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--bert-layers", type=int, default=2, help="encoder layers (BERT-base has 12)")
    ap.add_argument("--bert-vocab", type=int, default=4096, help="vocabulary size (BERT-base has 30522)")
    ap.add_argument("--only", nargs="*", default=None, help="subset of: resnet50 bert bert_ln17 yolo")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    jobs = {
        "resnet50": lambda p: resnet50(p),
        "bert": lambda p: bert(p, a.bert_layers, a.bert_vocab, False, 13),
        "bert_ln17": lambda p: bert(p, a.bert_layers, a.bert_vocab, True, 17),
        "yolo": lambda p: yolo(p),
    }
    for name, fn in jobs.items():
        if a.only is None or name in a.only:
            path = os.path.join(a.out, name + ".onnx")
            fn(path)
            print(f"wrote {path} ({os.path.getsize(path)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Writes ONNX backend-style cases (model.onnx + test_data_set_0/{input,output}_*.pb)
for the edges of the extension ops that libonnx-testdata does not reach, with
numpy references computed here (exact int64 arithmetic for the integer ops):

  ext_matmulinteger_int8_bigk   int8 x int8, K = 5000, per-row a_zero_point
  ext_qlinearmatmul_int8_bigk   int8 in/out, K = 3000 (requantized, round half to even)
  ext_convinteger_bigk          uint8, C*kh*kw = 5400, padding (pads take the zero point)
  ext_adam_bias_correction      Adam with T > 0 (the bias-corrected rate)
  ext_dynamicquantizelinear_neg all-negative input (zero point 255)
  ext_dft_onesided_padded       real input, onesided, constant dft_length longer than the signal
  ext_dft_complex_inverse_trunc complex input, inverse, dft_length shorter than the signal, axis 2
  ext_hannwindow_double         symmetric window with output_datatype double
  ext_scan_reverse_axis1        Scan (opset 11) over axis 1 in reverse, scan output on axis 1, an outer tensor
  ext_loop_cond_only            Loop without a trip count, stopped by its condition, a scan output, an outer tensor
  ext_gradient_chain            Gradient of exp(tanh(a*b) / sigmoid(a)) - b, listed before the forward nodes

  gen_ext_cases.py OUT_DIR      (cases go to OUT_DIR/node/<name>)
"""
import os
import sys

import numpy as np
from onnx import helper, mapping, numpy_helper

TRAIN = "ai.onnx.preview.training"


def write_case(root, name, graph, inputs, outputs, opsets):
    d = os.path.join(root, "node", name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid(dom, v) for dom, v in opsets])
    model.ir_version = 8
    with open(os.path.join(d, "model.onnx"), "wb") as f:
        f.write(model.SerializeToString())
    for kind, arrs in (("input", inputs), ("output", outputs)):
        for i, a in enumerate(arrs):
            with open(os.path.join(d, "test_data_set_0", "%s_%d.pb" % (kind, i)), "wb") as f:
                f.write(numpy_helper.from_array(a).SerializeToString())


def vi(name, arr):
    return helper.make_tensor_value_info(name, mapping.NP_TYPE_TO_TENSOR_TYPE[arr.dtype], arr.shape)


def conv2d_int(x, w, pad):
    n, c, h, wd = x.shape
    m, _, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = h + 2 * pad - kh + 1, wd + 2 * pad - kw + 1
    y = np.zeros((n, m, oh, ow), dtype=np.int64)
    for i in range(oh):
        for j in range(ow):
            patch = xp[:, :, i:i + kh, j:j + kw].reshape(n, -1)
            y[:, :, i, j] = patch @ w.reshape(m, -1).T
    return y


def main():
    root = sys.argv[1]
    rng = np.random.default_rng(1234)

    # MatMulInteger int8, K = 5000: f32 accumulation of the raw products would round
    a = rng.integers(-128, 128, size=(3, 5000), dtype=np.int8)
    b = rng.integers(-128, 128, size=(5000, 4), dtype=np.int8)
    azp = np.array([-128, 0, 127], dtype=np.int8)
    bzp = np.array(127, dtype=np.int8)
    y = ((a.astype(np.int64) - azp.astype(np.int64)[:, None]) @ (b.astype(np.int64) - int(bzp))).astype(np.int32)
    g = helper.make_graph([helper.make_node("MatMulInteger", ["A", "B", "azp", "bzp"], ["Y"])], "mmi",
                          [vi("A", a), vi("B", b), vi("azp", azp), vi("bzp", bzp)], [vi("Y", y)])
    write_case(root, "ext_matmulinteger_int8_bigk", g, [a, b, azp, bzp], [y], [("", 13)])

    # QLinearMatMul int8, K = 3000
    a = rng.integers(-128, 128, size=(2, 3000), dtype=np.int8)
    b = rng.integers(-128, 128, size=(3000, 5), dtype=np.int8)
    a_s, b_s, y_s = np.float32(0.02), np.float32(0.01), np.float32(0.5)
    a_z, b_z, y_z = np.int8(3), np.int8(-5), np.int8(-7)
    acc = (a.astype(np.int64) - int(a_z)) @ (b.astype(np.int64) - int(b_z))
    real = acc.astype(np.float32) * (a_s * b_s)
    q = np.clip(np.rint(real / y_s) + np.float32(y_z), -128, 127).astype(np.int8)
    names = ["a", "a_scale", "a_zp", "b", "b_scale", "b_zp", "y_scale", "y_zp"]
    vals = [a, np.array(a_s), np.array(a_z), b, np.array(b_s), np.array(b_z), np.array(y_s), np.array(y_z)]
    g = helper.make_graph([helper.make_node("QLinearMatMul", names, ["y"])], "qlmm",
                          [vi(n, v) for n, v in zip(names, vals)], [vi("y", q)])
    write_case(root, "ext_qlinearmatmul_int8_bigk", g, vals, [q], [("", 13)])

    # ConvInteger uint8, 600 channels x 3x3, pads 1 (the padding holds the zero point)
    x = rng.integers(0, 256, size=(1, 600, 4, 4), dtype=np.uint8)
    w = rng.integers(0, 256, size=(2, 600, 3, 3), dtype=np.uint8)
    xz, wz = np.array(131, dtype=np.uint8), np.array(7, dtype=np.uint8)
    y = conv2d_int(x.astype(np.int64) - int(xz), w.astype(np.int64) - int(wz), 1).astype(np.int32)
    node = helper.make_node("ConvInteger", ["x", "w", "xz", "wz"], ["y"], pads=[1, 1, 1, 1])
    g = helper.make_graph([node], "convi", [vi("x", x), vi("w", w), vi("xz", xz), vi("wz", wz)], [vi("y", y)])
    write_case(root, "ext_convinteger_bigk", g, [x, w, xz, wz], [y], [("", 13)])

    # Adam with T = 3 (bias correction), norm_coefficient_post
    r, t = np.array(0.1, dtype=np.float32), np.array(3, dtype=np.int64)
    x = np.array([1.0, -2.0, 0.5], dtype=np.float32)
    gr = np.array([-1.0, 0.25, 3.0], dtype=np.float32)
    v = np.array([0.5, 0.1, -0.2], dtype=np.float32)
    h = np.array([0.3, 1.0, 2.0], dtype=np.float32)
    al, be, eps, nc, ncp = 0.9, 0.99, 1e-4, 0.01, 0.05
    g_reg = nc * x + gr
    v_new = al * v + (1 - al) * g_reg
    h_new = be * h + (1 - be) * g_reg * g_reg
    r_adj = r * np.sqrt(1 - be ** 3) / (1 - al ** 3)
    x_new = (1 - ncp) * (x - r_adj * v_new / (np.sqrt(h_new) + eps))
    outs = [x_new.astype(np.float32), v_new.astype(np.float32), h_new.astype(np.float32)]
    node = helper.make_node("Adam", ["R", "T", "X", "G", "V", "H"], ["X_new", "V_new", "H_new"], domain=TRAIN,
                            alpha=al, beta=be, epsilon=eps, norm_coefficient=nc, norm_coefficient_post=ncp)
    ins = [r, t, x, gr, v, h]
    g = helper.make_graph([node], "adam", [vi(n, a) for n, a in zip("RTXGVH", ins)],
                          [vi(n, a) for n, a in zip(["X_new", "V_new", "H_new"], outs)])
    write_case(root, "ext_adam_bias_correction", g, ins, outs, [(TRAIN, 1)])

    # DynamicQuantizeLinear of an all-negative input: max is 0, zero point 255
    x = np.array([[-1.0, -2.5, -0.25], [-4.0, -3.0, -0.5]], dtype=np.float32)
    mn, mx = min(x.min(), 0.0), max(x.max(), 0.0)
    scale = np.float32((mx - mn) / 255.0)
    zp = np.uint8(np.clip(np.rint(0 - mn / scale), 0, 255))
    yq = np.clip(np.rint(x / scale) + zp, 0, 255).astype(np.uint8)
    node = helper.make_node("DynamicQuantizeLinear", ["x"], ["y", "y_scale", "y_zp"])
    outs = [yq, np.array(scale, dtype=np.float32), np.array(zp, dtype=np.uint8)]
    g = helper.make_graph([node], "dql", [vi("x", x)], [vi(n, a) for n, a in zip(["y", "y_scale", "y_zp"], outs)])
    write_case(root, "ext_dynamicquantizelinear_neg", g, [x], outs, [("", 13)])

    # DFT: onesided real input zero-padded to 8 points
    x = rng.standard_normal((2, 6, 1)).astype(np.float32)
    y = np.fft.rfft(x[..., 0].astype(np.float64), n=8, axis=1)
    y = np.stack((y.real, y.imag), axis=-1).astype(np.float32)
    n8 = np.array(8, dtype=np.int64)
    node = helper.make_node("DFT", ["x", "len"], ["y"], axis=1, onesided=1)
    g = helper.make_graph([node], "dft1", [vi("x", x)], [vi("y", y)], initializer=[numpy_helper.from_array(n8, "len")])
    write_case(root, "ext_dft_onesided_padded", g, [x], [y], [("", 17)])

    # DFT: complex input [1, 3, 10, 2] along axis 2, inverse, truncated to 6 points
    x = rng.standard_normal((1, 3, 10, 2)).astype(np.float32)
    xc = x[..., 0].astype(np.float64) + 1j * x[..., 1].astype(np.float64)
    y = np.fft.ifft(xc, n=6, axis=2)
    y = np.stack((y.real, y.imag), axis=-1).astype(np.float32)
    n6 = np.array(6, dtype=np.int64)
    node = helper.make_node("DFT", ["x", "len"], ["y"], axis=2, inverse=1)
    g = helper.make_graph([node], "dft2", [vi("x", x)], [vi("y", y)], initializer=[numpy_helper.from_array(n6, "len")])
    write_case(root, "ext_dft_complex_inverse_trunc", g, [x], [y], [("", 17)])

    # HannWindow, symmetric, double output
    size = np.array(7, dtype=np.int64)
    y = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(7) / 6)
    node = helper.make_node("HannWindow", ["size"], ["y"], periodic=0, output_datatype=11)
    g = helper.make_graph([node], "hann", [vi("size", size)], [helper.make_tensor_value_info("y", 11, None)])
    write_case(root, "ext_hannwindow_double", g, [size], [y.astype(np.float64)], [("", 17)])

    # Gradient through Mul, Tanh, Sigmoid, Div, Exp, Sub (node listed first: ordering by its y)
    a = rng.uniform(-1, 1, size=(2, 3)).astype(np.float32)
    bb = rng.uniform(-1, 1, size=(2, 3)).astype(np.float32)
    a64, b64 = a.astype(np.float64), bb.astype(np.float64)
    t = np.tanh(a64 * b64)
    s_ = 1 / (1 + np.exp(-a64))
    q = t / s_
    e = np.exp(q)
    out = e - b64
    dq = e                                   # d out / d q
    dt = dq / s_
    ds = -dq * q / s_
    dab = dt * (1 - t * t)
    da = dab * b64 + ds * s_ * (1 - s_)
    db = dab * a64 - 1
    nodes = [helper.make_node("Gradient", ["a", "b"], ["da", "db"], domain=TRAIN, xs=["a", "b"], y="out"),
             helper.make_node("Mul", ["a", "b"], ["ab"]), helper.make_node("Tanh", ["ab"], ["t"]),
             helper.make_node("Sigmoid", ["a"], ["s"]), helper.make_node("Div", ["t", "s"], ["q"]),
             helper.make_node("Exp", ["q"], ["e"]), helper.make_node("Sub", ["e", "b"], ["out"])]
    outs = [out.astype(np.float32), da.astype(np.float32), db.astype(np.float32)]
    g = helper.make_graph(nodes, "grad", [vi("a", a), vi("b", bb)],
                          [vi(n, v) for n, v in zip(["out", "da", "db"], outs)])
    write_case(root, "ext_gradient_chain", g, [a, bb], outs, [("", 13), (TRAIN, 1)])

    # Scan: reverse over axis 1, scan output stacked on axis 1, the body reads an outer tensor (w)
    x = rng.standard_normal((2, 4)).astype(np.float32)
    s0 = rng.standard_normal(2).astype(np.float32)
    w = rng.standard_normal(2).astype(np.float32)
    st, cols = s0.astype(np.float64), [None] * 4
    for t in range(4):
        idx = 3 - t
        st = st * 0.5 + x[:, idx].astype(np.float64) * w
        cols[t] = st * 2
    ys = np.stack(cols, axis=1).astype(np.float32)
    body = helper.make_graph(
        [helper.make_node("Mul", ["s_in", "half"], ["sh"]), helper.make_node("Mul", ["xi", "w"], ["xw"]),
         helper.make_node("Add", ["sh", "xw"], ["s_out"]), helper.make_node("Add", ["s_out", "s_out"], ["y_out"])],
        "body", [helper.make_tensor_value_info("s_in", 1, [2]), helper.make_tensor_value_info("xi", 1, [2])],
        [helper.make_tensor_value_info("s_out", 1, [2]), helper.make_tensor_value_info("y_out", 1, [2])],
        initializer=[numpy_helper.from_array(np.array(0.5, dtype=np.float32), "half")])
    node = helper.make_node("Scan", ["s0", "x"], ["s_final", "ys"], body=body, num_scan_inputs=1,
                            scan_input_axes=[1], scan_input_directions=[1], scan_output_axes=[1])
    g = helper.make_graph([node], "scan", [vi("s0", s0), vi("x", x), vi("w", w)],
                          [vi("s_final", st.astype(np.float32)), vi("ys", ys)])
    write_case(root, "ext_scan_reverse_axis1", g, [s0, x, w], [st.astype(np.float32), ys], [("", 11)])

    # Loop: no trip count, the body's condition stops it after 3 iterations; v doubles, scan = v * k + 1
    x = rng.standard_normal(2).astype(np.float32)
    k = np.array([1.5, -0.5], dtype=np.float32)
    v, scans = x.astype(np.float64), []
    for it in range(3):
        scans.append(v * k + 1)
        v = v * 2
    body = helper.make_graph(
        [helper.make_node("Less", ["i", "two"], ["c_out"]), helper.make_node("Add", ["v_in", "v_in"], ["v_out"]),
         helper.make_node("Mul", ["v_in", "k"], ["vk"]), helper.make_node("Add", ["vk", "one"], ["s_out"])],
        "body", [helper.make_tensor_value_info("i", 7, []), helper.make_tensor_value_info("c_in", 9, []),
                 helper.make_tensor_value_info("v_in", 1, [2])],
        [helper.make_tensor_value_info("c_out", 9, []), helper.make_tensor_value_info("v_out", 1, [2]),
         helper.make_tensor_value_info("s_out", 1, [2])],
        initializer=[numpy_helper.from_array(np.array(2, dtype=np.int64), "two"),
                     numpy_helper.from_array(np.array(1.0, dtype=np.float32), "one")])
    node = helper.make_node("Loop", ["", "cond", "x"], ["v_final", "scans"], body=body)
    cond = np.array(True)
    outs = [v.astype(np.float32), np.stack(scans).astype(np.float32)]
    g = helper.make_graph([node], "loop", [vi("cond", cond), vi("x", x), vi("k", k)],
                          [vi("v_final", outs[0]), vi("scans", outs[1])])
    write_case(root, "ext_loop_cond_only", g, [cond, x, k], outs, [("", 13)])


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""OCR with the PP-OCR models, the pyACL way: the Python port of ocr.c (same pipeline, same output).

  ocr.py DET.om CLS.om REC.om KEYS.txt PAGE.ppm

  det  text probability map of the page (a dynamic-shape model: the input's shape is set with
       acl.mdl.set_dataset_tensor_desc, the output buffer is allocated by acl.mdl.execute)
       -> DB post-processing: threshold 0.3, 8-connected components (run-length labelling),
          convex hull, minimum-area rectangle, box score >= 0.6, unclip 1.5
  crop each box with a bilinear warp of its corners
  cls  0 or 180 degrees (a crop the model finds upside down is turned around)
  rec  per time step a distribution over the dictionary -> CTC greedy decoding

Prints one line per text box, top to bottom, left to right. The image arithmetic is done in
float32 in the order ocr.c does it, so both print the same text. Needs `. <prefix>/set_env.sh`
(acl on PYTHONPATH) and numpy.
"""
import functools
import sys

import numpy as np

import acl

F = np.float32
ACL_FLOAT, ACL_FORMAT_NCHW = 0, 0
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST = 1, 2


def check(ret, what):
    if ret != 0:
        sys.stderr.write("ocr: %s failed: %d %s\n" % (what, ret, acl.get_recent_err_msg() or ""))
        sys.exit(1)


# ---- images ----

def read_pnm(path):
    """Binary PPM (P6) or PGM (P5), maxval 255 -> (h, w, 3) uint8."""
    data = open(path, "rb").read()
    if data[:2] not in (b"P6", b"P5"):
        sys.exit("ocr: %s is not a binary PPM/PGM image" % path)
    ch = 3 if data[:2] == b"P6" else 1
    vals, i = [], 2
    while len(vals) < 3:
        while data[i:i + 1].isspace() or data[i:i + 1] == b"#":
            if data[i:i + 1] == b"#":
                i = data.index(b"\n", i)
            i += 1
        j = i
        while data[j:j + 1].isdigit():
            j += 1
        vals.append(int(data[i:j]))
        i = j
    w, h, maxv = vals
    if w <= 0 or h <= 0 or maxv != 255 or w > 16384 or h > 16384:
        sys.exit("ocr: %s: unsupported image header" % path)
    raw = np.frombuffer(data, np.uint8, count=w * h * ch, offset=i + 1).reshape(h, w, ch)
    return np.ascontiguousarray(np.repeat(raw, 3, axis=2) if ch == 1 else raw)


def sample(im, x, y):
    """Bilinear samples of the three channels at (x, y) (float32 arrays, clamped): (..., 3) float32."""
    h, w = im.shape[:2]
    x = np.clip(x, F(0), F(w - 1)).astype(F)
    y = np.clip(y, F(0), F(h - 1)).astype(F)
    x0, y0 = x.astype(np.int64), y.astype(np.int64)
    x1, y1 = np.minimum(x0 + 1, w - 1), np.minimum(y0 + 1, h - 1)
    fx, fy = (x - x0.astype(F))[..., None], (y - y0.astype(F))[..., None]
    im = im if im.dtype == F else im.astype(F)
    a, b, d, e = im[y0, x0], im[y0, x1], im[y1, x0], im[y1, x1]
    return (a * (F(1) - fx) + b * fx) * (F(1) - fy) + (d * (F(1) - fx) + e * fx) * fy


def sample_grid(im, xs, ys):
    """sample() on the grid ys x xs, separably: each output is the same float32 expression
    (a(1-fx) + b fx)(1-fy) + (d(1-fx) + e fx) fy, with the row interpolations shared."""
    h, w = im.shape[:2]
    im = im if im.dtype == F else im.astype(F)
    x = np.clip(xs, F(0), F(w - 1)).astype(F)
    y = np.clip(ys, F(0), F(h - 1)).astype(F)
    x0, y0 = x.astype(np.int64), y.astype(np.int64)
    x1, y1 = np.minimum(x0 + 1, w - 1), np.minimum(y0 + 1, h - 1)
    fx, fy = (x - x0.astype(F))[None, :, None], (y - y0.astype(F))[:, None, None]
    rows = np.unique(np.concatenate([y0, y1]))
    sub = im[rows]
    t = np.empty((h, len(xs), 3), F)
    t[rows] = sub[:, x0] * (F(1) - fx) + sub[:, x1] * fx
    return t[y0] * (F(1) - fy) + t[y1] * fy


# ---- models, the pyACL way ----

class Net:
    def __init__(self, path):
        self.id, ret = acl.mdl.load_from_file(path)
        check(ret, "acl.mdl.load_from_file(%s)" % path)
        self.desc = acl.mdl.create_desc()
        check(acl.mdl.get_desc(self.desc, self.id), "acl.mdl.get_desc")

    def run(self, x):
        """One float input (NCHW, host) -> the output (host float32, reshaped to its dims)."""
        x = np.ascontiguousarray(x, dtype=F)
        n = x.nbytes
        d_in, ret = acl.rt.malloc(n, ACL_MEM_MALLOC_HUGE_FIRST)
        check(ret, "acl.rt.malloc")
        xb = x.tobytes()  # the bytes object must stay alive while its address is used
        check(acl.rt.memcpy(d_in, n, acl.util.bytes_to_ptr(xb), n, ACL_MEMCPY_HOST_TO_DEVICE),
              "acl.rt.memcpy")
        inp, out = acl.mdl.create_dataset(), acl.mdl.create_dataset()
        b_in = acl.create_data_buffer(d_in, n)
        check(acl.mdl.add_dataset_buffer(inp, b_in)[1], "acl.mdl.add_dataset_buffer")
        td = acl.create_tensor_desc(ACL_FLOAT, list(x.shape), ACL_FORMAT_NCHW)
        check(acl.mdl.set_dataset_tensor_desc(inp, td, 0)[1], "acl.mdl.set_dataset_tensor_desc")
        acl.destroy_tensor_desc(td)
        # the output's size is not known before the run: an empty buffer, filled by the synchronous execution
        b_out = acl.create_data_buffer(0, 0)
        check(acl.mdl.add_dataset_buffer(out, b_out)[1], "acl.mdl.add_dataset_buffer")
        check(acl.mdl.execute(self.id, inp, out), "acl.mdl.execute")
        od = acl.mdl.get_dataset_tensor_desc(out, 0)
        dims = []
        for i in range(acl.get_tensor_desc_num_dims(od)):
            d, ret = acl.get_tensor_desc_dim_v2(od, i)
            check(ret, "acl.get_tensor_desc_dim_v2")
            dims.append(d)
        size, d_out = acl.get_data_buffer_size_v2(b_out), acl.get_data_buffer_addr(b_out)
        host = bytes(size)
        check(acl.rt.memcpy(acl.util.bytes_to_ptr(host), size, d_out, size, ACL_MEMCPY_DEVICE_TO_HOST),
              "acl.rt.memcpy")
        check(acl.rt.free(d_out), "acl.rt.free")
        check(acl.rt.free(d_in), "acl.rt.free")
        acl.destroy_data_buffer(b_in)
        acl.destroy_data_buffer(b_out)
        acl.mdl.destroy_dataset(inp)
        acl.mdl.destroy_dataset(out)
        return np.frombuffer(host, F).reshape(dims)

    def unload(self):
        acl.mdl.destroy_desc(self.desc)
        check(acl.mdl.unload(self.id), "acl.mdl.unload")


# ---- detection post-processing (DB) ----

def components(mask):
    """8-connected components of a boolean map as lists of runs (row, start, end), by union-find on runs."""
    h, w = mask.shape
    m = np.zeros((h, w + 2), np.int8)
    m[:, 1:-1] = mask
    d = np.diff(m, axis=1)
    rs, starts = np.nonzero(d == 1)
    _, ends = np.nonzero(d == -1)
    runs = list(zip(rs.tolist(), starts.tolist(), ends.tolist()))
    parent = list(range(len(runs)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    row_first = {}
    for i, (r, _, _) in enumerate(runs):
        row_first.setdefault(r, i)
    for i, (r, s, e) in enumerate(runs):
        j = row_first.get(r + 1)
        while j is not None and j < len(runs) and runs[j][0] == r + 1:
            _, s2, e2 = runs[j]
            if s2 <= e and s <= e2:  # overlapping or diagonal neighbours (end is exclusive)
                a, b = find(i), find(j)
                if a != b:
                    parent[max(a, b)] = min(a, b)
            j += 1
    groups = {}
    for i in range(len(runs)):
        groups.setdefault(find(i), []).append(runs[i])
    # in the order of each component's first pixel (row-major), as a scan of the map finds them
    return sorted(groups.values(), key=lambda g: (g[0][0], g[0][1]))


def cross(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def convex_hull(pts):
    """Andrew's monotone chain (as ocr.c, collinear points dropped)."""
    pts = sorted(pts)
    hull = []
    for p in pts:
        while len(hull) >= 2 and cross(hull[-2], hull[-1], p) <= 0:
            hull.pop()
        hull.append(p)
    t = len(hull) + 1
    for p in reversed(pts[:-1]):
        while len(hull) >= t and cross(hull[-2], hull[-1], p) <= 0:
            hull.pop()
        hull.append(p)
    return hull[:-1] if len(hull) > 1 else hull


def min_area_rect(h):
    """Minimum-area rectangle with a side on a hull edge, float32 as ocr.c."""
    hx = np.array([p[0] for p in h], F)
    hy = np.array([p[1] for p in h], F)
    ax, ay = hx, hy
    ux, uy = np.roll(hx, -1) - ax, np.roll(hy, -1) - ay
    ln = np.sqrt(ux * ux + uy * uy)
    valid = ln >= F(1e-6)
    ln = np.where(valid, ln, F(1))
    ux, uy = ux / ln, uy / ln
    dx, dy = hx[None, :] - ax[:, None], hy[None, :] - ay[:, None]
    u = dx * ux[:, None] + dy * uy[:, None]
    v = -dx * uy[:, None] + dy * ux[:, None]
    lo_u, hi_u, lo_v, hi_v = u.min(1), u.max(1), v.min(1), v.max(1)
    area = np.where(valid, (hi_u - lo_u) * (hi_v - lo_v), F(np.inf))
    i = int(np.argmin(area))
    if not np.isfinite(area[i]):
        return [(hx[0], hy[0])] * 4
    us, vs = (lo_u[i], hi_u[i], hi_u[i], lo_u[i]), (lo_v[i], lo_v[i], hi_v[i], hi_v[i])
    return [(ax[i] + us[k] * ux[i] - vs[k] * uy[i], ay[i] + us[k] * uy[i] + vs[k] * ux[i]) for k in range(4)]


def order_corners(c):
    s = sorted(c, key=lambda p: (p[0], p[1]))
    l0, l1, r0, r1 = s
    if l0[1] > l1[1]:
        l0, l1 = l1, l0
    if r0[1] > r1[1]:
        r0, r1 = r1, r0
    return [l0, r0, r1, l1]


def dist(a, b):
    return np.sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]))


def db_boxes(prob):
    """Boxes of the probability map (threshold 0.3, box score 0.6, unclip 1.5), in map coordinates."""
    csum = np.zeros((prob.shape[0], prob.shape[1] + 1), np.float64)
    csum[:, 1:] = np.cumsum(prob, axis=1, dtype=np.float64)
    boxes = []
    for runs in components(prob > F(0.3)):
        pixels = sum(e - s for _, s, e in runs)
        score = sum(csum[r, e] - csum[r, s] for r, s, e in runs)
        if pixels < 4 or score / pixels < 0.6:
            continue
        pts = []
        for r, s, e in runs:  # the runs' end corners span the same hull as every pixel corner
            pts += [(F(s), F(r)), (F(e), F(r)), (F(s), F(r + 1)), (F(e), F(r + 1))]
        c = order_corners(min_area_rect(convex_hull(pts)))
        bw, bh = dist(c[0], c[1]), dist(c[0], c[3])
        if bw < 3 or bh < 3:
            continue
        d = bw * bh * F(1.5) / (F(2.0) * (bw + bh))
        cen = ((c[0][0] + c[2][0]) / F(2), (c[0][1] + c[2][1]) / F(2))
        ux, uy = (c[1][0] - c[0][0]) / bw, (c[1][1] - c[0][1]) / bw
        vx, vy = (c[3][0] - c[0][0]) / bh, (c[3][1] - c[0][1]) / bh
        hw, hh = bw / F(2) + d, bh / F(2) + d
        su, sv = (-1, 1, 1, -1), (-1, -1, 1, 1)
        p = [[cen[0] + F(su[k]) * hw * ux + F(sv[k]) * hh * vx, cen[1] + F(su[k]) * hw * uy + F(sv[k]) * hh * vy]
             for k in range(4)]
        boxes.append(p)
    return boxes


def box_cmp(p, q):
    hp = p[3][1] - p[0][1]
    if abs(p[0][1] - q[0][1]) > F(0.5) * hp:
        return -1 if p[0][1] < q[0][1] else 1
    return -1 if p[0][0] < q[0][0] else (1 if p[0][0] > q[0][0] else 0)


# ---- crops ----

def crop(im, b):
    w = int(np.rint(max(dist(b[0], b[1]), dist(b[3], b[2]))))
    h = int(np.rint(max(dist(b[0], b[3]), dist(b[1], b[2]))))
    w, h = max(w, 1), max(h, 1)
    v = ((np.arange(h, dtype=F) + F(0.5)) / F(h))[:, None]
    u = ((np.arange(w, dtype=F) + F(0.5)) / F(w))[None, :]
    px = (F(1) - v) * ((F(1) - u) * b[0][0] + u * b[1][0]) + v * ((F(1) - u) * b[3][0] + u * b[2][0])
    py = (F(1) - v) * ((F(1) - u) * b[0][1] + u * b[1][1]) + v * ((F(1) - u) * b[3][1] + u * b[2][1])
    return np.rint(sample(im, px - F(0.5), py - F(0.5))).astype(np.uint8)


def line_input(im, w, content_w):
    """[1,3,48,w]: (x/255 - 0.5) / 0.5 of the image resized to 48 x content_w, zero padded."""
    H = 48
    x = np.zeros((1, 3, H, w), F)
    cw = min(content_w, w)
    ys = (np.arange(H, dtype=F) + F(0.5)) * F(im.shape[0]) / F(H) - F(0.5)
    xs = (np.arange(cw, dtype=F) + F(0.5)) * F(im.shape[1]) / F(content_w) - F(0.5)
    s = sample_grid(im, xs, ys) / F(255.0)
    x[0, :, :, :cw] = ((s - F(0.5)) / F(0.5)).transpose(2, 0, 1)
    return x


# ---- dictionary and CTC ----

def load_dict(path):
    lines = open(path, "rb").read().split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return [b""] + [ln.rstrip(b"\r") for ln in lines] + [b" "]


def ctc_decode(p, keys):
    best = p.argmax(axis=1)
    out, prev = [], -1
    for b in best.tolist():
        if b != 0 and b != prev and b < len(keys):
            out.append(keys[b])
        prev = b
    return b"".join(out).strip(b" ")


# ---- the pipeline ----

def main():
    if len(sys.argv) != 6:
        sys.stderr.write("usage: %s DET.om CLS.om REC.om KEYS.txt PAGE.ppm\n" % sys.argv[0])
        return 2
    page = read_pnm(sys.argv[5])
    keys = load_dict(sys.argv[4])
    check(acl.init(), "acl.init")
    check(acl.rt.set_device(0), "acl.rt.set_device")
    det, cls, rec = Net(sys.argv[1]), Net(sys.argv[2]), Net(sys.argv[3])

    # det: the page resized to multiples of 32 (longest side at most 960), ImageNet normalization
    ph, pw = page.shape[:2]
    scale = F(960) / F(max(pw, ph)) if max(pw, ph) > 960 else F(1)
    dw = max(int(np.rint(F(pw) * scale / F(32))) * 32, 32)
    dh = max(int(np.rint(F(ph) * scale / F(32))) * 32, 32)
    mean, std = np.array([0.485, 0.456, 0.406], F), np.array([0.229, 0.224, 0.225], F)
    ys = (np.arange(dh, dtype=F) + F(0.5)) * F(ph) / F(dh) - F(0.5)
    xs = (np.arange(dw, dtype=F) + F(0.5)) * F(pw) / F(dw) - F(0.5)
    pagef = page.astype(F)
    v = sample_grid(pagef, xs, ys) / F(255.0)
    dx = ((v - mean) / std).transpose(2, 0, 1)[None]
    prob = det.run(dx)
    if prob.ndim != 4 or prob.shape[2] != dh or prob.shape[3] != dw:
        sys.stderr.write("ocr: det output is not [1,1,%d,%d]\n" % (dh, dw))
        return 1
    boxes = db_boxes(prob[0, 0])
    sx, sy = F(pw) / F(dw), F(ph) / F(dh)
    for b in boxes:  # back to page coordinates
        for p in b:
            p[0], p[1] = p[0] * sx, p[1] * sy
    boxes.sort(key=functools.cmp_to_key(box_cmp))

    out = sys.stdout.buffer
    for b in boxes:
        c = crop(pagef, b)
        ch, cw_ = c.shape[:2]
        # cls: 48 x 192, the crop's width kept in proportion
        w = min(max(int(np.ceil(F(48.0) * F(cw_) / F(ch))), 1), 192)
        cp = cls.run(line_input(c, 192, w)).ravel()
        if cp[1] > cp[0] and cp[1] > F(0.9):
            c = np.ascontiguousarray(c[::-1, ::-1])
        # rec: height 48, the width in proportion (the model takes any width)
        rw = min(max(int(np.ceil(F(48.0) * F(cw_) / F(ch))), 16), 1920)
        rw = (rw + 7) // 8 * 8
        rp = rec.run(line_input(c, rw, rw))
        if rp.ndim != 3:
            sys.stderr.write("ocr: rec output is not [1,T,C]\n")
            return 1
        out.write(ctc_decode(rp[0], keys) + b"\n")
    out.flush()
    det.unload()
    cls.unload()
    rec.unload()
    check(acl.rt.reset_device(0), "acl.rt.reset_device")
    check(acl.finalize(), "acl.finalize")
    return 0


if __name__ == "__main__":
    sys.exit(main())

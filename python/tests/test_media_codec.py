#!/usr/bin/env python3
"""acl.media beyond the single-picture functions, the pyACL way: batch VPC (crop against numpy
slices, crop-resize against the library's single-picture crop-resize, crop-and-paste against numpy),
stream descriptions, and a VENC -> VDEC round trip with Python callbacks running in a report thread
(acl.util.start_thread + acl.rt.process_report): the decoded frames against the encoded NV12
pictures (PSNR), one callback per frame with its own user_data; plus the refusals."""
import io
import threading

import numpy as np

import acl
from common import *  # noqa: F401,F403

NV12 = 1  # PIXEL_FORMAT_YUV_SEMIPLANAR_420
H264_MAIN = 2


def dvpp_buf(data):
    p, ret = acl.media.dvpp_malloc(len(data))
    ok(ret, "dvpp_malloc(%d)" % len(data))
    ok(acl.rt.memcpy(p, len(data), acl.util.bytes_to_ptr(data), len(data), ACL_MEMCPY_HOST_TO_DEVICE), "memcpy H2D")
    return p


def pic(pd, buf, w, h, ws, hs):
    for name, v in (("data", buf), ("size", ws * hs * 3 // 2), ("format", NV12), ("width", w), ("height", h),
                    ("width_stride", ws), ("height_stride", hs)):
        ok(getattr(acl.media, "dvpp_set_pic_desc_" + name)(pd, v), "dvpp_set_pic_desc_%s" % name)


def nv12_image(w, h, seed):
    y, x = np.mgrid[0:h, 0:w]
    Y = ((x * 3 + y * 2 + seed * 17) % 256).astype(np.uint8)
    UV = np.empty((h // 2, w), np.uint8)
    UV[:, 0::2] = (128 + (x[: h // 2, 0::2] + seed) % 60).astype(np.uint8)
    UV[:, 1::2] = (100 + (y[: h // 2, 1::2] * 2) % 50).astype(np.uint8)
    return Y, UV


def read_nv12(buf, ws, hs, w, h):
    raw = np.frombuffer(acl.util.ptr_to_bytes(buf, ws * hs * 3 // 2), np.uint8)
    return raw[: ws * hs].reshape(hs, ws)[:h, :w], raw[ws * hs:].reshape(hs // 2, ws)[: h // 2, :w]


def batch_vpc(stream):
    ch = acl.media.dvpp_create_channel_desc()
    d, ret = acl.media.dvpp_set_channel_desc_param(ch, 0, 2)  # ACL_DVPP_CSC_MATRIX_UINT32 = BT709_WIDE
    check(ret == 0 and d == ch, "dvpp_set_channel_desc_param(CSC) -> (desc, 0)")
    v, ret = acl.media.dvpp_get_channel_desc_param(ch, 0)
    check(ret == 0 and v == 2, "dvpp_get_channel_desc_param(CSC) reads it back: %d" % v)
    check(acl.media.dvpp_set_channel_desc_param(ch, 0, 99)[1] != 0, "a CSC matrix out of 0..5 is refused")
    check(acl.media.dvpp_get_channel_desc_param(0x1234, 0) == (0, ACL_ERROR_INVALID_PARAM), "a made-up desc -> (0, 100000)")
    ok(acl.media.dvpp_create_channel(ch), "dvpp_create_channel")
    cid, ret = acl.media.dvpp_get_channel_desc_param(ch, 2)  # ACL_DVPP_CHANNEL_ID_UINT64
    check(ret == 0 and cid == acl.media.dvpp_get_channel_desc_channel_id(ch),
          "dvpp_get_channel_desc_param(CHANNEL_ID) == dvpp_get_channel_desc_channel_id (%d)" % cid)
    W, H = 64, 48
    srcs = [nv12_image(W, H, s) for s in range(2)]
    sb = acl.media.dvpp_create_batch_pic_desc(2)
    check(sb != 0, "dvpp_create_batch_pic_desc(2)")
    sbufs = []
    for i, (Y, UV) in enumerate(srcs):
        pd = acl.media.dvpp_get_pic_desc(sb, i)
        check(pd != 0, "dvpp_get_pic_desc(src, %d)" % i)
        b = dvpp_buf(Y.tobytes() + UV.tobytes())
        sbufs.append(b)
        pic(pd, b, W, H, W, H)
    check(acl.media.dvpp_get_pic_desc(sb, 2) == 0, "dvpp_get_pic_desc past the batch -> 0")
    check(acl.media.dvpp_destroy_pic_desc(acl.media.dvpp_get_pic_desc(sb, 0)) == ACL_ERROR_INVALID_PARAM,
          "a batch's picture cannot be destroyed on its own")
    # regions: picture 0 -> 1 area, picture 1 -> 2 areas; each 32x16 (crop size == output size: a plain copy)
    areas = [(2, 33, 4, 19), (0, 31, 0, 15), (30, 61, 30, 45)]
    owner = [0, 1, 1]
    rois = [acl.media.dvpp_create_roi_config(*a) for a in areas]
    OW, OH = 32, 16
    db = acl.media.dvpp_create_batch_pic_desc(3)
    dbufs = []
    for i in range(3):
        b, ret = acl.media.dvpp_malloc(OW * OH * 3 // 2)
        dbufs.append(b)
        pic(acl.media.dvpp_get_pic_desc(db, i), b, OW, OH, OW, OH)
    ok(acl.media.dvpp_vpc_batch_crop_async(ch, sb, [1, 2], db, rois, stream), "dvpp_vpc_batch_crop_async")
    ok(acl.rt.synchronize_stream(stream), "synchronize_stream")
    for i, (l, r, t, b) in enumerate(areas):
        Y, UV = srcs[owner[i]]
        gy, guv = read_nv12(dbufs[i], OW, OH, OW, OH)
        check(np.array_equal(gy, Y[t:b + 1, l:r + 1]) and np.array_equal(guv, UV[t // 2:(b + 1) // 2, l:r + 1]),
              "batch crop region %d equals the numpy slice" % i)
    # crop-resize to 48x10: each region against the single-picture crop-resize of the library
    RW, RH = 48, 10
    rb = acl.media.dvpp_create_batch_pic_desc(3)
    rbufs = []
    for i in range(3):
        b, ret = acl.media.dvpp_malloc(RW * RH * 3 // 2)
        rbufs.append(b)
        pic(acl.media.dvpp_get_pic_desc(rb, i), b, RW, RH, RW, RH)
    rc = acl.media.dvpp_create_resize_config()
    ok(acl.media.dvpp_vpc_batch_crop_resize_async(ch, sb, [1, 2], rb, rois, rc, stream),
       "dvpp_vpc_batch_crop_resize_async")
    ok(acl.rt.synchronize_stream(stream), "synchronize_stream")
    single = acl.media.dvpp_create_pic_desc()
    sbuf, _ = acl.media.dvpp_malloc(RW * RH * 3 // 2)
    pic(single, sbuf, RW, RH, RW, RH)
    for i in range(3):
        ok(acl.media.dvpp_vpc_crop_resize_async(ch, acl.media.dvpp_get_pic_desc(sb, owner[i]), single, rois[i], rc,
                                                stream), "dvpp_vpc_crop_resize_async region %d" % i)
        ok(acl.rt.synchronize_stream(stream), "synchronize_stream")
        check(acl.util.ptr_to_bytes(sbuf, RW * RH * 3 // 2) == acl.util.ptr_to_bytes(rbufs[i], RW * RH * 3 // 2),
              "batch crop-resize region %d equals the single-picture crop-resize" % i)
    # crop-and-paste: region i pasted at (16, 8) of a 64x32 zeroed picture
    PW, PH = 64, 32
    pb = acl.media.dvpp_create_batch_pic_desc(3)
    pbufs = []
    for i in range(3):
        b = dvpp_buf(bytes(PW * PH * 3 // 2))
        pbufs.append(b)
        pic(acl.media.dvpp_get_pic_desc(pb, i), b, PW, PH, PW, PH)
    pastes = [acl.media.dvpp_create_roi_config(16, 47, 8, 23) for _ in range(3)]
    ok(acl.media.dvpp_vpc_batch_crop_and_paste_async(ch, sb, [1, 2], pb, rois, pastes, stream),
       "dvpp_vpc_batch_crop_and_paste_async")
    ok(acl.rt.synchronize_stream(stream), "synchronize_stream")
    for i, (l, r, t, b) in enumerate(areas):
        Y, UV = srcs[owner[i]]
        ey = np.zeros((PH, PW), np.uint8)
        ey[8:24, 16:48] = Y[t:b + 1, l:r + 1]
        gy, _ = read_nv12(pbufs[i], PW, PH, PW, PH)
        check(np.array_equal(gy, ey), "batch crop-and-paste region %d equals numpy (Y plane)" % i)
    # refusals: lists shorter than sum(roi_nums), wrong types, stale handles
    check(acl.media.dvpp_vpc_batch_crop_async(ch, sb, [1, 2], db, rois[:2], stream) == ACL_ERROR_INVALID_PARAM,
          "fewer crop areas than sum(roi_nums) -> 100000")
    check(acl.media.dvpp_vpc_batch_crop_and_paste_async(ch, sb, [1, 2], pb, rois, pastes[:1], stream) ==
          ACL_ERROR_INVALID_PARAM, "fewer paste areas than sum(roi_nums) -> 100000")
    check(acl.media.dvpp_vpc_batch_crop_async(ch, sb, [], db, rois, stream) == ACL_ERROR_INVALID_PARAM,
          "empty roi_nums -> 100000")
    check(acl.media.dvpp_vpc_batch_crop_async(ch, sb, [1, 2], db, [rois[0], 0x1234, rois[2]], stream) ==
          ACL_ERROR_INVALID_PARAM, "a made-up ROI in the list -> 100000")
    check(acl.media.dvpp_vpc_batch_crop_async(ch, 0x5678, [1, 2], db, rois, stream) == ACL_ERROR_INVALID_PARAM,
          "a made-up batch -> 100000")
    check(acl.media.dvpp_vpc_batch_crop_async(ch, sb, [1, 5], db, rois * 3, stream) != 0,
          "more regions than the output batch holds is refused by the library")
    for bad in ((ch, sb, (1, 2), db, rois, stream), (ch, sb, [1, 2], db, None, stream), (ch, sb, ["a"], db, rois, 0)):
        try:
            acl.media.dvpp_vpc_batch_crop_async(*bad)
            check(False, "wrong list types raise TypeError")
        except TypeError:
            check(True, "wrong list types raise TypeError")
    # border configs
    bc = acl.media.dvpp_create_border_config()
    ok(acl.media.dvpp_set_border_config_top(bc, 2), "dvpp_set_border_config_top")
    ok(acl.media.dvpp_set_border_config_value(bc, 1, 77.5), "dvpp_set_border_config_value")
    check(acl.media.dvpp_get_border_config_top(bc) == 2 and acl.media.dvpp_get_border_config_value(bc, 1) == 77.5,
          "border config values come back")
    ok(acl.media.dvpp_destroy_border_config(bc), "dvpp_destroy_border_config")
    # clean up: destroying a batch forgets its pictures
    pd0 = acl.media.dvpp_get_pic_desc(sb, 0)
    for b in (sb, db, rb, pb):
        ok(acl.media.dvpp_destroy_batch_pic_desc(b), "dvpp_destroy_batch_pic_desc")
    check(acl.media.dvpp_get_pic_desc_width(pd0) == 0, "a destroyed batch's picture is refused (0)")
    for r in rois + pastes:
        acl.media.dvpp_destroy_roi_config(r)
    acl.media.dvpp_destroy_resize_config(rc)
    acl.media.dvpp_destroy_pic_desc(single)
    for b in sbufs + dbufs + rbufs + pbufs + [sbuf]:
        acl.media.dvpp_free(b)
    ok(acl.media.dvpp_destroy_channel(ch), "dvpp_destroy_channel")
    acl.media.dvpp_destroy_channel_desc(ch)


def jpeg_png(stream):
    """JPEG encode of an NV12 picture, decoded by PIL against the picture's luma; PNG decode to RGB888
    against PIL's pixels (lossless: exact), PNG info and size prediction against PIL and docs/dvpp.md."""
    from PIL import Image
    ch = acl.media.dvpp_create_channel_desc()
    ok(acl.media.dvpp_create_channel(ch), "dvpp_create_channel")
    W, H = 96, 64
    Y, UV = nv12_image(W, H, 3)
    Y = (64 + 40 * np.sin(np.mgrid[0:H, 0:W][1] / 9.0)).astype(np.uint8)  # smooth: JPEG keeps it closely
    UV[:] = 128
    src = dvpp_buf(Y.tobytes() + UV.tobytes())
    pd = acl.media.dvpp_create_pic_desc()
    pic(pd, src, W, H, W, H)
    jc = acl.media.dvpp_create_jpege_config()
    ok(acl.media.dvpp_set_jpege_config_level(jc, 95), "dvpp_set_jpege_config_level(95)")
    cap, ret = acl.media.dvpp_jpeg_predict_enc_size(pd, jc)
    ok(ret, "dvpp_jpeg_predict_enc_size -> %d" % cap)
    out, _ = acl.media.dvpp_malloc(cap)
    size = np.array([cap], np.uint32)  # in: the capacity; out: the JPEG length (pyACL passes its address)
    ok(acl.media.dvpp_jpeg_encode_async(ch, pd, out, acl.util.numpy_to_ptr(size), jc, stream), "dvpp_jpeg_encode_async")
    ok(acl.rt.synchronize_stream(stream), "synchronize_stream")
    check(0 < int(size[0]) <= cap, "the JPEG length %d was written back (capacity %d)" % (size[0], cap))
    img = Image.open(io.BytesIO(acl.util.ptr_to_bytes(out, int(size[0]))))
    check(img.size == (W, H), "PIL reads the JPEG: %r" % (img.size,))
    p = psnr(np.asarray(img.convert("L")), Y)
    check(p > 35, "the JPEG's luma matches the picture (PSNR %.1f dB > 35)" % p)
    # PNG: RGB, decoded to RGB888
    rgb = np.zeros((40, 50, 3), np.uint8)
    rgb[..., 0] = np.arange(50)[None, :] * 5
    rgb[..., 1] = np.arange(40)[:, None] * 6
    rgb[..., 2] = 77
    bio = io.BytesIO()
    Image.fromarray(rgb, "RGB").save(bio, format="PNG")
    png = bio.getvalue()
    w, h, comps, ret = acl.media.dvpp_png_get_image_info(acl.util.bytes_to_ptr(png), len(png))
    ok(ret, "dvpp_png_get_image_info")
    check((w, h, comps) == (50, 40, 3), "PNG info (%d, %d, %d) == PIL's (50, 40, 3)" % (w, h, comps))
    dsize, ret = acl.media.dvpp_png_predict_dec_size(acl.util.bytes_to_ptr(png), len(png), 12)
    ws, hs = 128 * 3, 48  # ALIGN(w,128) x bpp, ALIGN(h,16) (docs/dvpp.md)
    check(ret == 0 and dsize == ws * hs, "dvpp_png_predict_dec_size %d == %d" % (dsize, ws * hs))
    pin = dvpp_buf(png)
    dec, _ = acl.media.dvpp_malloc(dsize)
    od = acl.media.dvpp_create_pic_desc()
    for name, v in (("data", dec), ("size", dsize), ("format", 12), ("width", 50), ("height", 40),
                    ("width_stride", ws), ("height_stride", hs)):
        ok(getattr(acl.media, "dvpp_set_pic_desc_" + name)(od, v), "PNG output %s" % name)
    ok(acl.media.dvpp_png_decode_async(ch, pin, len(png), od, stream), "dvpp_png_decode_async")
    ok(acl.rt.synchronize_stream(stream), "synchronize_stream")
    got = np.frombuffer(acl.util.ptr_to_bytes(dec, dsize), np.uint8).reshape(hs, ws)[:40, :150].reshape(40, 50, 3)
    check(np.array_equal(got, rgb), "the decoded PNG equals PIL's pixels (exact)")
    check(acl.media.dvpp_png_get_image_info(acl.util.bytes_to_ptr(png), 20)[3] != 0, "a truncated PNG is refused")
    # PyrDown of a YUV400 picture against numpy (docs/dvpp.md: OpenCV's pyrDown, [1 4 6 4 1]^2 / 256,
    # reflect-101 borders, even samples, rounded)
    g = ((np.arange(64)[None, :] * 7 + np.arange(48)[:, None] * 13) % 251).astype(np.uint8)
    gin = dvpp_buf(g.tobytes())
    gout, _ = acl.media.dvpp_malloc(32 * 24)
    pi, po = acl.media.dvpp_create_pic_desc(), acl.media.dvpp_create_pic_desc()
    for d, b, w, h in ((pi, gin, 64, 48), (po, gout, 32, 24)):
        for name, v in (("data", b), ("size", w * h), ("format", 0), ("width", w), ("height", h),
                        ("width_stride", w), ("height_stride", h)):
            ok(getattr(acl.media, "dvpp_set_pic_desc_" + name)(d, v), "YUV400 %s" % name)
    ok(acl.media.dvpp_vpc_pyr_down_async(ch, pi, po, 0, stream), "dvpp_vpc_pyr_down_async")
    ok(acl.rt.synchronize_stream(stream), "synchronize_stream")
    k = np.array([1, 4, 6, 4, 1], np.int64)
    pad = np.pad(g.astype(np.int64), 2, mode="reflect")  # numpy "reflect" is reflect-101
    rows = sum(k[i] * pad[:, i:i + 64] for i in range(5))
    full = sum(k[i] * rows[i:i + 48, :] for i in range(5))
    ref = ((full[0::2, 0::2] + 128) >> 8).astype(np.uint8)
    got = np.frombuffer(acl.util.ptr_to_bytes(gout, 32 * 24), np.uint8).reshape(24, 32)
    check(np.array_equal(got, ref), "PyrDown equals the numpy reference (max diff %d)"
          % int(np.abs(got.astype(int) - ref.astype(int)).max()))
    for d in (pi, po):
        acl.media.dvpp_destroy_pic_desc(d)
    for b in (gin, gout):
        acl.media.dvpp_free(b)
    for b in (src, out, pin, dec):
        acl.media.dvpp_free(b)
    for d in (pd, od):
        acl.media.dvpp_destroy_pic_desc(d)
    acl.media.dvpp_destroy_jpege_config(jc)
    ok(acl.media.dvpp_destroy_channel(ch), "dvpp_destroy_channel")
    acl.media.dvpp_destroy_channel_desc(ch)


def psnr(a, b):
    mse = float(((a.astype(np.float64) - b.astype(np.float64)) ** 2).mean())
    return 99.0 if mse == 0 else 10 * np.log10(255.0 ** 2 / mse)


def codec():
    W, H, N = 320, 240, 6
    state = {"run": True}

    def report_loop():
        while state["run"]:
            acl.rt.process_report(50)

    tid, ret = acl.util.start_thread(report_loop, None)
    ok(ret, "start_thread (report thread)")
    frames = []
    for i in range(N):
        y, x = np.mgrid[0:H, 0:W]
        Y = (64 + 60 * np.sin((x + 6 * i) / 23.0) + 50 * np.cos(y / 17.0)).astype(np.uint8)
        UV = np.full((H // 2, W), 128, np.uint8)
        UV[:, 0::2] = 110 + i
        frames.append((Y, UV))

    # ---- VENC ----
    enc = {}
    stream_descs = []

    def on_encoded(pic_in, out_desc, user):
        data = acl.media.dvpp_get_stream_desc_data(out_desc)
        size = acl.media.dvpp_get_stream_desc_size(out_desc)
        enc[user] = (acl.util.ptr_to_bytes(data, size), acl.media.dvpp_get_stream_desc_ret_code(out_desc),
                     threading.get_ident(), acl.media.dvpp_destroy_stream_desc(out_desc))
        stream_descs.append(out_desc)

    vc = acl.media.venc_create_channel_desc()
    check(vc != 0, "venc_create_channel_desc")
    ok(acl.media.venc_set_channel_desc_thread_id(vc, tid), "venc_set_channel_desc_thread_id")
    ok(acl.media.venc_set_channel_desc_callback(vc, on_encoded), "venc_set_channel_desc_callback")
    check(acl.media.venc_get_channel_desc_callback(vc) is on_encoded, "venc_get_channel_desc_callback returns it")
    for name, v in (("entype", H264_MAIN), ("pic_format", NV12), ("pic_width", W), ("pic_height", H),
                    ("key_frame_interval", 30), ("src_rate", 30)):
        ok(getattr(acl.media, "venc_set_channel_desc_" + name)(vc, v), "venc_set_channel_desc_%s" % name)
        check(getattr(acl.media, "venc_get_channel_desc_" + name)(vc) == v, "venc_get_channel_desc_%s" % name)
    ok(acl.media.venc_set_channel_desc_param(vc, 11, 2000), "venc_set_channel_desc_param(MAX_BITRATE)")
    v, ret = acl.media.venc_get_channel_desc_param(vc, 11)
    check(ret == 0 and v == 2000 == acl.media.venc_get_channel_desc_max_bit_rate(vc), "max bit rate param reads back")
    check(acl.media.venc_set_channel_desc_param(vc, 1, 1234) == ACL_ERROR_INVALID_PARAM,
          "the callback pointer param is refused (a Python int is no function)")
    ok(acl.media.venc_create_channel(vc), "venc_create_channel")
    fc = acl.media.venc_create_frame_config()
    ok(acl.media.venc_set_frame_config_force_i_frame(fc, 0), "venc_set_frame_config_force_i_frame")
    ok(acl.media.venc_set_frame_config_eos(fc, 0), "venc_set_frame_config_eos(0)")
    pics = []
    for i, (Y, UV) in enumerate(frames):
        pd = acl.media.dvpp_create_pic_desc()
        b = dvpp_buf(Y.tobytes() + UV.tobytes())
        pic(pd, b, W, H, W, H)
        pics.append((pd, b))
        ok(acl.media.venc_send_frame(vc, pd, 0, fc, i), "venc_send_frame %d" % i)
    ok(acl.media.venc_set_frame_config_eos(fc, 1), "venc_set_frame_config_eos(1)")
    ok(acl.media.venc_send_frame(vc, 0, 0, fc, None), "venc_send_frame (end of stream) returns after every callback")
    check(sorted(enc) == list(range(N)), "one VENC callback per picture with its own user_data: %r" % sorted(enc))
    check(all(e[1] == 0 and len(e[0]) > 0 for e in enc.values()), "each encoded frame has data and retCode 0")
    check(all(e[2] != threading.get_ident() for e in enc.values()), "VENC callbacks ran in the report thread")
    check(all(e[3] == ACL_ERROR_INVALID_PARAM for e in enc.values()),
          "the library's output stream description cannot be destroyed by the callback")
    check(stream_descs and acl.media.dvpp_get_stream_desc_size(stream_descs[0]) == 0,
          "after the callback the library's stream description is refused (0)")
    check(acl.media.venc_send_frame(vc, pics[0][0], 0, fc, None) != 0, "a send after the end of stream is refused")
    ok(acl.media.venc_destroy_channel(vc), "venc_destroy_channel")
    ok(acl.media.venc_destroy_frame_config(fc), "venc_destroy_frame_config")
    ok(acl.media.venc_destroy_channel_desc(vc), "venc_destroy_channel_desc")
    check(acl.media.venc_destroy_channel_desc(vc) == ACL_ERROR_INVALID_PARAM, "destroying it twice -> 100000")
    try:
        acl.media.venc_get_channel_desc_callback(vc)
        check(False, "a destroyed description has no callback (RuntimeError)")
    except RuntimeError:
        check(True, "a destroyed description has no callback (RuntimeError)")

    # ---- VDEC: the encoded frames back ----
    dec = {}

    def on_decoded(in_desc, out_pic, user):
        dec[user] = (read_nv12(acl.media.dvpp_get_pic_desc_data(out_pic), acl.media.dvpp_get_pic_desc_width_stride(out_pic),
                               acl.media.dvpp_get_pic_desc_height_stride(out_pic), W, H),
                     acl.media.dvpp_get_pic_desc_ret_code(out_pic), in_desc, threading.get_ident())

    dc = acl.media.vdec_create_channel_desc()
    ok(acl.media.vdec_set_channel_desc_channel_id(dc, 3), "vdec_set_channel_desc_channel_id")
    ok(acl.media.vdec_set_channel_desc_thread_id(dc, tid), "vdec_set_channel_desc_thread_id")
    check(acl.media.vdec_get_channel_desc_thread_id(dc) == tid, "vdec_get_channel_desc_thread_id")
    try:
        acl.media.vdec_get_channel_desc_callback(dc)
        check(False, "vdec_get_channel_desc_callback without one raises RuntimeError")
    except RuntimeError:
        check(True, "vdec_get_channel_desc_callback without one raises RuntimeError")
    ok(acl.media.vdec_set_channel_desc_callback(dc, on_decoded), "vdec_set_channel_desc_callback")
    ok(acl.media.vdec_set_channel_desc_entype(dc, H264_MAIN), "vdec_set_channel_desc_entype")
    ok(acl.media.vdec_set_channel_desc_out_pic_format(dc, NV12), "vdec_set_channel_desc_out_pic_format")
    check(acl.media.vdec_get_channel_desc_out_pic_format(dc) == NV12, "vdec_get_channel_desc_out_pic_format")
    d, ret = acl.media.vdec_set_channel_desc_param(dc, 1, 0)
    check(ret == 0 and d == dc, "vdec_set_channel_desc_param(OUT_MODE) -> (desc, 0)")
    ok(acl.media.vdec_create_channel(dc), "vdec_create_channel")
    vfc = acl.media.vdec_create_frame_config()
    ins = []
    for i in range(N):
        sd = acl.media.dvpp_create_stream_desc()
        b = dvpp_buf(enc[i][0])
        ok(acl.media.dvpp_set_stream_desc_data(sd, b), "dvpp_set_stream_desc_data")
        ok(acl.media.dvpp_set_stream_desc_size(sd, len(enc[i][0])), "dvpp_set_stream_desc_size")
        ok(acl.media.dvpp_set_stream_desc_format(sd, H264_MAIN), "dvpp_set_stream_desc_format")
        check(acl.media.dvpp_get_stream_desc_size(sd) == len(enc[i][0]), "dvpp_get_stream_desc_size")
        op = acl.media.dvpp_create_pic_desc()
        ob, _ = acl.media.dvpp_malloc(W * H * 3 // 2)
        ok(acl.media.dvpp_set_pic_desc_data(op, ob), "output data")
        ok(acl.media.dvpp_set_pic_desc_size(op, W * H * 3 // 2), "output size")
        ok(acl.media.dvpp_set_pic_desc_format(op, NV12), "output format")
        ins.append((sd, b, op, ob))
        ok(acl.media.vdec_send_frame(dc, sd, op, vfc, i), "vdec_send_frame %d" % i)
    eos = acl.media.dvpp_create_stream_desc()
    ok(acl.media.dvpp_set_stream_desc_eos(eos, 1), "dvpp_set_stream_desc_eos(1)")
    check(acl.media.dvpp_get_stream_desc_eos(eos) == 1, "dvpp_get_stream_desc_eos")
    ok(acl.media.vdec_send_frame(dc, eos, 0, vfc, None), "vdec_send_frame (end of stream) returns after every callback")
    check(sorted(dec) == list(range(N)), "one VDEC callback per frame with its own user_data: %r" % sorted(dec))
    check(all(dec[i][2] == ins[i][0] for i in dec), "each callback gets its own input stream description")
    check(all(e[1] == 0 for e in dec.values()), "decoded pictures have retCode 0")
    check(all(e[3] != threading.get_ident() for e in dec.values()), "VDEC callbacks ran in the report thread")
    ps = [psnr(dec[i][0][0], frames[i][0]) for i in range(N)]
    check(min(ps) > 30, "decoded Y planes match the encoded pictures (PSNR %s dB > 30)" % ["%.1f" % p for p in ps])
    ok(acl.media.vdec_destroy_channel(dc), "vdec_destroy_channel")
    # refusals
    check(acl.media.vdec_send_frame(0x4321, ins[0][0], ins[0][2], vfc, None) == ACL_ERROR_INVALID_PARAM,
          "a made-up VDEC channel description -> 100000")
    try:
        acl.media.vdec_set_channel_desc_callback(dc, 3)
        check(False, "a non-callable callback raises TypeError")
    except TypeError:
        check(True, "a non-callable callback raises TypeError")
    nocb = acl.media.vdec_create_channel_desc()
    try:
        acl.media.vdec_send_frame(nocb, ins[0][0], ins[0][2], vfc, None)
        check(False, "a send without a callback raises RuntimeError (pyACL)")
    except RuntimeError:
        check(True, "a send without a callback raises RuntimeError (pyACL)")
    acl.media.vdec_destroy_channel_desc(nocb)
    ok(acl.media.vdec_destroy_frame_config(vfc), "vdec_destroy_frame_config")
    ok(acl.media.vdec_destroy_channel_desc(dc), "vdec_destroy_channel_desc")
    check(acl.media.vdec_get_channel_desc_channel_id(dc) == 0, "a destroyed VDEC channel description -> 0")
    for sd, b, op, ob in ins:
        acl.media.dvpp_destroy_stream_desc(sd)
        acl.media.dvpp_free(b)
        acl.media.dvpp_destroy_pic_desc(op)
        acl.media.dvpp_free(ob)
    ok(acl.media.dvpp_destroy_stream_desc(eos), "dvpp_destroy_stream_desc")
    check(acl.media.dvpp_destroy_stream_desc(eos) == ACL_ERROR_INVALID_PARAM, "destroying it twice -> 100000")
    for pd, b in pics:
        acl.media.dvpp_destroy_pic_desc(pd)
        acl.media.dvpp_free(b)
    state["run"] = False
    ok(acl.util.stop_thread(tid), "stop_thread")


def main():
    ok(acl.init(), "init")
    ok(acl.rt.set_device(0), "set_device")
    stream, ret = acl.rt.create_stream()
    ok(ret, "create_stream")
    batch_vpc(stream)
    jpeg_png(stream)
    codec()
    ok(acl.rt.destroy_stream(stream), "destroy_stream")
    ok(acl.rt.reset_device(0), "reset_device")
    ok(acl.finalize(), "finalize")
    done()


if __name__ == "__main__":
    main()

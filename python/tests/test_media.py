#!/usr/bin/env python3
"""acl.media (DVPP V1) the pyACL way. Descriptions and configs: values set come back, destroyed or
made-up handles are refused with ACL_ERROR_INVALID_PARAM / the getter's 0; JPEG image info of a
JPEG written by PIL against PIL. When the library does not implement DVPP (its functions return
ACL_ERROR_API_NOT_SUPPORT and say so), only the refusals and the not-supported answers are checked."""
import io

import acl
from common import *  # noqa: F401,F403

ACL_ERROR_API_NOT_SUPPORT = 200001
YUV420SP = 1


def refusals():
    for h in (0x1234, 0xdeadbeef0):
        check(acl.media.dvpp_set_pic_desc_width(h, 4) == ACL_ERROR_INVALID_PARAM, "made-up pic desc refused")
        check(acl.media.dvpp_get_pic_desc_width(h) == 0, "made-up pic desc getter -> 0")
        check(acl.media.dvpp_destroy_roi_config(h) == ACL_ERROR_INVALID_PARAM, "made-up roi config refused")
        check(acl.media.dvpp_vpc_resize_async(h, h, h, h, 0) == ACL_ERROR_INVALID_PARAM, "made-up descs refused")
    p, ret = acl.media.dvpp_malloc(1024)
    ok(ret, "dvpp_malloc")
    ok(acl.media.dvpp_free(p), "dvpp_free")
    check(acl.media.dvpp_malloc(-1)[1] == ACL_ERROR_INVALID_PARAM, "dvpp_malloc(-1) refused")


def descriptions():
    pd = acl.media.dvpp_create_pic_desc()
    if pd == 0:
        msg = acl.get_recent_err_msg() or ""
        check("not supported" in msg, "dvpp_create_pic_desc: not supported by this library (%s)" % msg)
        check(acl.media.dvpp_create_channel_desc() == 0, "dvpp_create_channel_desc -> 0 (not supported)")
        return False
    buf, ret = acl.media.dvpp_malloc(64 * 48 * 3 // 2)
    ok(ret, "dvpp_malloc")
    for name, v in (("data", buf), ("size", 64 * 48 * 3 // 2), ("format", YUV420SP), ("width", 60),
                    ("height", 46), ("width_stride", 64), ("height_stride", 48)):
        ok(getattr(acl.media, "dvpp_set_pic_desc_" + name)(pd, v), "dvpp_set_pic_desc_%s(%d)" % (name, v))
        got = getattr(acl.media, "dvpp_get_pic_desc_" + name)(pd)
        check(got == v, "dvpp_get_pic_desc_%s -> %d" % (name, got))
    ok(acl.media.dvpp_destroy_pic_desc(pd), "dvpp_destroy_pic_desc")
    check(acl.media.dvpp_get_pic_desc_width(pd) == 0, "a destroyed pic desc -> 0")
    check(acl.media.dvpp_destroy_pic_desc(pd) == ACL_ERROR_INVALID_PARAM, "destroying it twice refused")
    roi = acl.media.dvpp_create_roi_config(0, 31, 0, 15)
    check(roi != 0, "dvpp_create_roi_config")
    ok(acl.media.dvpp_set_roi_config(roi, 2, 33, 2, 17), "dvpp_set_roi_config")
    ok(acl.media.dvpp_destroy_roi_config(roi), "dvpp_destroy_roi_config")
    rc = acl.media.dvpp_create_resize_config()
    ok(acl.media.dvpp_set_resize_config_interpolation(rc, 1), "dvpp_set_resize_config_interpolation(1)")
    check(acl.media.dvpp_get_resize_config_interpolation(rc) == 1, "interpolation comes back")
    ok(acl.media.dvpp_destroy_resize_config(rc), "dvpp_destroy_resize_config")
    jc = acl.media.dvpp_create_jpege_config()
    ok(acl.media.dvpp_set_jpege_config_level(jc, 80), "dvpp_set_jpege_config_level(80)")
    check(acl.media.dvpp_get_jpege_config_level(jc) == 80, "level comes back")
    ok(acl.media.dvpp_destroy_jpege_config(jc), "dvpp_destroy_jpege_config")
    ok(acl.media.dvpp_free(buf), "dvpp_free")
    return True


def jpeg_info():
    from PIL import Image
    img = Image.new("RGB", (120, 70), (200, 30, 90))
    bio = io.BytesIO()
    img.save(bio, format="JPEG", quality=90)
    data = bio.getvalue()
    w, h, comps, ret = acl.media.dvpp_jpeg_get_image_info(acl.util.bytes_to_ptr(data), len(data))
    ok(ret, "dvpp_jpeg_get_image_info")
    check((w, h, comps) == (120, 70, 3), "JPEG info (%d, %d, %d) == PIL's (120, 70, 3)" % (w, h, comps))
    size, ret = acl.media.dvpp_jpeg_predict_dec_size(acl.util.bytes_to_ptr(data), len(data), YUV420SP)
    ok(ret, "dvpp_jpeg_predict_dec_size")
    check(size >= 120 * 70 * 3 // 2, "predicted YUV420SP size %d >= w*h*3/2" % size)
    _, _, _, ret = acl.media.dvpp_jpeg_get_image_info(acl.util.bytes_to_ptr(data), 10)
    check(ret != 0, "a truncated JPEG is refused with a code")


def main():
    ok(acl.init(), "acl.init()")
    ok(acl.rt.set_device(0), "set_device")
    refusals()
    if descriptions():
        jpeg_info()
    else:
        print("  (DVPP is not implemented by this library: descriptions and JPEG checks skipped)")
    ok(acl.rt.reset_device(0), "reset_device")
    ok(acl.finalize(), "finalize")
    done()


if __name__ == "__main__":
    main()

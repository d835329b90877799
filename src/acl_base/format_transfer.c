/*
 * Shape transfer between tensor formats, following GE's registered format
 * transfers (the shape part only):
 *
 *   NCHW/NHWC/HWCN/CHWN <-> each other  transpose of the 4 axes
 *   NCHW, NHWC -> NC1HWC0               (N, ceil(C/C0), H, W, C0)
 *   NCHW, NHWC, HWCN -> FRACTAL_Z       (ceil(C/C0)*H*W, ceil(N/16), 16, C0);
 *                                       with groups (sub-format) GE's grouped rule
 *   ND (2-D: C, N) -> FRACTAL_Z          (ceil(C/C0), ceil(N/16), 16, C0)
 *   ND, NCHW, NHWC -> FRACTAL_NZ        (..., ceil(W/C0), ceil(H/16), 16, C0);
 *                                       1-D: (ceil(N/C0), 1, 16, C0)
 *   NC1HWC0 -> NCHW/NHWC, FRACTAL_Z -> NCHW/NHWC/HWCN, FRACTAL_NZ -> ND/NCHW/NHWC
 *                                       registered, but not derivable: FORMAT_INVALID
 *
 * Any other pair (including a format to itself) has no transfer:
 * ACL_ERROR_GE_FORMAT_INVALID. Formats are GE's packed ints: primary format
 * in bits 0-7, sub-format (groups) in bits 8-23, C0 code in bits 24-27
 * (C0 = 2^(code-1)). When the destination carries no C0 code, C0 comes from
 * the element size as in GE's cube rules: 32 for 1-byte types, otherwise 16.
 * (GE HEAD requires the C0 code for FRACTAL_Z/FRACTAL_NZ and fails without
 * one; we keep the data-type rule of earlier GE releases, which is what plain
 * aclFormat values can express.)
 */
#include <stdint.h>
#include <string.h>

#include "acl_base/tensor_desc.h"
#include "base/error.h"

enum {
    F_NCHW = 0,
    F_NHWC = 1,
    F_ND = 2,
    F_NC1HWC0 = 3,
    F_FRACTAL_Z = 4,
    F_CHWN = 14,
    F_HWCN = 16,
    F_FRACTAL_NZ = 29,
};

#define CUBE 16
#define NI 16
#define SHAPE_ITEM_MAX 1099511627776ll /* GE's limit on the element count of a shape */

static int primary_of(aclFormat f)
{
    return (int)((uint32_t)f & 0xFFu);
}

static int64_t groups_of(aclFormat f)
{
    return (int64_t)(((uint32_t)f & 0xFFFF00u) >> 8);
}

static int64_t c0_code_value(aclFormat f)
{
    const uint32_t code = ((uint32_t)f & 0xF000000u) >> 24;
    return code == 0 ? -1 : (int64_t)1 << (code - 1);
}

/* GE's element size table: <= 0 means "no valid size" (reserved, STRING, UNDEFINED, out of range). */
static int ge_type_size(aclDataType dt)
{
    static const int kSizes[] = {4, 2, 1, 4, 1, -1, 2, 2, 4, 8, 8, 8, 1, -1, 1, 1, 8, 16, 1, 2, 4, 1,
                                 2, 8, -1, 5, 8, 2, -1, 1004, 1001, 1002, 1002, 4, 1, 1, 1, 1, 1006, 1006, 1004,
                                 1004, 1004};
    const int v = (int)dt;
    if (v < 0 || (size_t)v >= sizeof(kSizes) / sizeof(kSizes[0])) {
        return -1;
    }
    return kSizes[v];
}

static int64_t cube_c0(aclDataType dt)
{
    const int size = ge_type_size(dt);
    if (size <= 0) {
        return -1;
    }
    return size == 1 ? 2 * CUBE : CUBE;
}

static int64_t ceil_div(int64_t a, int64_t b)
{
    if (a == 0) {
        return 0;
    }
    return b != 0 ? (a - 1) / b + 1 : 0;
}

/* GE's IsShapeValid: non-empty, no negative dim, element count below 2^40. */
static bool shape_valid(const int64_t *s, size_t n)
{
    if (n == 0) {
        return false;
    }
    int64_t num = 1;
    for (size_t i = 0; i < n; ++i) {
        if (s[i] < 0) {
            return false;
        }
        if (s[i] != 0 && SHAPE_ITEM_MAX / s[i] < num) {
            return false;
        }
        num *= s[i];
    }
    return true;
}

static oa_status put(const int64_t *v, size_t n, int64_t *out, size_t cap, size_t *out_n)
{
    if (n > cap) {
        return OA_FAIL(OA_E_GE_SHAPE, "destination shape has %zu dims, more than %zu", n, cap);
    }
    memcpy(out, v, n * sizeof(int64_t));
    *out_n = n;
    return OA_OK;
}

/* Axis positions (N, C, H, W) of the 4-D layouts. */
static bool axes_of(int fmt, int ax[4])
{
    switch (fmt) {
    case F_NCHW:
        ax[0] = 0, ax[1] = 1, ax[2] = 2, ax[3] = 3;
        return true;
    case F_NHWC:
        ax[0] = 0, ax[1] = 3, ax[2] = 1, ax[3] = 2;
        return true;
    case F_HWCN:
        ax[0] = 3, ax[1] = 2, ax[2] = 0, ax[3] = 1;
        return true;
    case F_CHWN:
        ax[0] = 3, ax[1] = 0, ax[2] = 1, ax[3] = 2;
        return true;
    default:
        return false;
    }
}

static oa_status transpose(int src, int dst, const int64_t *s, size_t n, int64_t *out, size_t cap, size_t *out_n)
{
    int sa[4];
    int da[4];
    (void)axes_of(src, sa);
    (void)axes_of(dst, da);
    if (n == 0) {
        return OA_FAIL(OA_E_GE_SHAPE, "cannot transpose an empty shape");
    }
    for (size_t i = 0; i < n; ++i) {
        if (s[i] < 0) {
            return OA_FAIL(OA_E_GE_SHAPE, "cannot transpose a shape with negative dims");
        }
    }
    if (n != 4) {
        return OA_FAIL(OA_E_GE_SHAPE, "transpose needs a 4-D shape, got %zu dims", n);
    }
    int64_t r[4];
    for (int axis = 0; axis < 4; ++axis) {
        r[da[axis]] = s[sa[axis]];
    }
    return put(r, 4, out, cap, out_n);
}

static oa_status to_nc1hwc0(int src, const int64_t *s, size_t n, aclDataType dt, aclFormat dst, int64_t *out,
                            size_t cap, size_t *out_n)
{
    int64_t c0 = c0_code_value(dst);
    if (c0 <= 0) {
        c0 = cube_c0(dt);
    }
    if (c0 <= 0) {
        return OA_FAIL(OA_E_GE_DATATYPE, "data type %d has no cube size", (int)dt);
    }
    if (n != 4 || !shape_valid(s, n)) {
        return OA_FAIL(OA_E_GE_SHAPE, "NC1HWC0 needs a valid 4-D source shape");
    }
    int ax[4];
    (void)axes_of(src, ax);
    const int64_t r[5] = {s[ax[0]], ceil_div(s[ax[1]], c0), s[ax[2]], s[ax[3]], c0};
    if (!shape_valid(r, 5)) {
        return OA_FAIL(OA_E_GE_SHAPE, "destination NC1HWC0 shape is invalid");
    }
    return put(r, 5, out, cap, out_n);
}

static int64_t lcm(int64_t a, int64_t b)
{
    int64_t x = a;
    int64_t y = b;
    while (y != 0) {
        const int64_t t = x % y;
        x = y;
        y = t;
    }
    return x == 0 ? 0 : a / x * b;
}

static oa_status fz_shape(int64_t n, int64_t c, int64_t h, int64_t w, int64_t c0, int64_t groups, int64_t *out,
                          size_t cap, size_t *out_n)
{
    int64_t r[4];
    if (groups > 1) {
        const int64_t cout = n / groups;
        if (cout == 0 || c == 0) {
            return OA_FAIL(OA_E_GE_FAILURE, "grouped FRACTAL_Z needs N >= groups and C > 0");
        }
        int64_t e = lcm(lcm(c, c0) / c, lcm(cout, CUBE) / cout);
        if (e > groups) {
            e = groups;
        }
        const int64_t cin_opt = ceil_div(e * c, c0) * c0;
        r[0] = ceil_div(groups, e) * (cin_opt / c0) * h * w;
        r[1] = ceil_div(cout * e, CUBE);
        r[2] = CUBE;
        r[3] = c0;
    } else {
        r[0] = h * w * ceil_div(c, c0);
        r[1] = ceil_div(n, NI);
        r[2] = NI;
        r[3] = c0;
    }
    if (!shape_valid(r, 4)) {
        return OA_FAIL(OA_E_GE_SHAPE, "destination FRACTAL_Z shape is invalid");
    }
    return put(r, 4, out, cap, out_n);
}

static oa_status to_fractal_z(int src, const int64_t *s, size_t n, aclDataType dt, aclFormat dst, int64_t *out,
                              size_t cap, size_t *out_n)
{
    if (ge_type_size(dt) <= 0) {
        return OA_FAIL(OA_E_GE_DATATYPE, "data type %d is not supported by FRACTAL_Z", (int)dt);
    }
    int64_t c0 = c0_code_value(dst);
    if (c0 <= 0) {
        c0 = cube_c0(dt);
    }
    if (src == F_ND) {
        /* 2-D (C, N) weights; GE reports other ranks as an internal failure */
        if (n != 2 || !shape_valid(s, n)) {
            return OA_FAIL(OA_E_GE_FAILURE, "ND to FRACTAL_Z needs a valid 2-D shape");
        }
        return fz_shape(s[1], s[0], 1, 1, c0, 1, out, cap, out_n);
    }
    if (n != 4 || !shape_valid(s, n)) {
        return OA_FAIL(OA_E_GE_SHAPE, "FRACTAL_Z needs a valid 4-D source shape");
    }
    int ax[4];
    (void)axes_of(src, ax);
    const int64_t groups = src == F_NHWC ? 1 : groups_of(dst);
    return fz_shape(s[ax[0]], s[ax[1]], s[ax[2]], s[ax[3]], c0, groups, out, cap, out_n);
}

static oa_status to_fractal_nz(int src, const int64_t *s, size_t n, aclDataType dt, aclFormat dst, int64_t *out,
                               size_t cap, size_t *out_n)
{
    if (ge_type_size(dt) <= 0) {
        return OA_FAIL(OA_E_GE_DATATYPE, "data type %d is not supported by FRACTAL_NZ", (int)dt);
    }
    const bool ok = src == F_ND ? shape_valid(s, n) : (n == 4 && shape_valid(s, n));
    if (!ok) {
        return OA_FAIL(OA_E_GE_SHAPE, "source shape cannot be converted to FRACTAL_NZ");
    }
    int64_t w0 = c0_code_value(dst);
    if (w0 <= 0) {
        w0 = cube_c0(dt);
    }
    int64_t r[66];
    size_t k = 0;
    if (n == 1) {
        r[k++] = ceil_div(s[0], w0);
        r[k++] = 1;
    } else {
        if (n + 2 > sizeof(r) / sizeof(r[0])) {
            return OA_FAIL(OA_E_GE_SHAPE, "source shape has too many dims");
        }
        for (size_t i = 0; i + 2 < n; ++i) {
            r[k++] = s[i];
        }
        r[k++] = ceil_div(s[n - 1], w0);
        r[k++] = ceil_div(s[n - 2], CUBE);
    }
    r[k++] = CUBE;
    r[k++] = w0;
    if (!shape_valid(r, k)) {
        return OA_FAIL(OA_E_GE_SHAPE, "destination FRACTAL_NZ shape is invalid");
    }
    return put(r, k, out, cap, out_n);
}

oa_status oa_trans_shape(aclFormat src_format, const int64_t *src, size_t n, aclDataType data_type,
                         aclFormat dst_format, int64_t *out, size_t out_cap, size_t *out_n)
{
    const int sp = primary_of(src_format);
    const int dp = primary_of(dst_format);
    int unused[4];
    const bool src4 = axes_of(sp, unused);
    const bool dst4 = axes_of(dp, unused);
    if (src4 && dst4 && sp != dp) {
        return transpose(sp, dp, src, n, out, out_cap, out_n);
    }
    if (dp == F_NC1HWC0 && (sp == F_NCHW || sp == F_NHWC)) {
        if (sp == F_NHWC && ge_type_size(data_type) <= 0) {
            return OA_FAIL(OA_E_GE_DATATYPE, "data type %d is not supported by NHWC to NC1HWC0", (int)data_type);
        }
        return to_nc1hwc0(sp, src, n, data_type, dst_format, out, out_cap, out_n);
    }
    if (dp == F_FRACTAL_Z && (sp == F_NCHW || sp == F_NHWC || sp == F_HWCN || sp == F_ND)) {
        return to_fractal_z(sp, src, n, data_type, dst_format, out, out_cap, out_n);
    }
    if (dp == F_FRACTAL_NZ && (sp == F_ND || sp == F_NCHW || sp == F_NHWC)) {
        return to_fractal_nz(sp, src, n, data_type, dst_format, out, out_cap, out_n);
    }
    const bool reverse = (sp == F_NC1HWC0 && (dp == F_NCHW || dp == F_NHWC)) ||
                         (sp == F_FRACTAL_Z && (dp == F_NCHW || dp == F_NHWC || dp == F_HWCN)) ||
                         (sp == F_FRACTAL_NZ && (dp == F_ND || dp == F_NCHW || dp == F_NHWC));
    if (reverse) {
        return OA_FAIL(OA_E_GE_FORMAT, "the shape from format %d to format %d is not unique: not supported",
                       (int)src_format, (int)dst_format);
    }
    return OA_FAIL(OA_E_GE_FORMAT, "no shape transfer from format %d to format %d", (int)src_format,
                   (int)dst_format);
}

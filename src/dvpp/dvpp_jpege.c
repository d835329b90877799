/*
 * acldvppJpegEncodeAsync and acldvppJpegPredictEncSize over libjpeg-turbo:
 * YUV420SP (NV12/NV21) and packed YUV422 pictures are split into planar
 * Y/U/V (the luma plane of NV12/NV21 is used in place) and encoded as
 * baseline Huffman JPEG into the caller's buffer, never past its capacity.
 * Rules: docs/dvpp.md "JPEGE".
 */
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

#define OA_LOG_MODULE "ASCENDCL"
#include "base/acl_check.h"
#include "dvpp/dvpp_internal.h"

#define JPEGE_MIN 32u
#define JPEGE_MAX 8192u

static const oa_dvpp_rules g_jpege_in = {"JPEGE", "input", JPEGE_MIN, JPEGE_MIN, JPEGE_MAX, JPEGE_MAX, 16, 0,
                                         32, 4u * JPEGE_MAX, JPEGE_MIN, JPEGE_MAX, false};

static bool jpege_format(uint32_t f)
{
    return f == PIXEL_FORMAT_YUV_SEMIPLANAR_420 || f == PIXEL_FORMAT_YVU_SEMIPLANAR_420 ||
           (f >= PIXEL_FORMAT_YUYV_PACKED_422 && f <= PIXEL_FORMAT_VYUY_PACKED_422);
}

typedef struct jpege_job {
    oa_dvpp_pic in;
    uint8_t *out;
    uint32_t capacity;
    uint32_t *size;
    int quality;
    acldvppPicDesc *desc;
} jpege_job;

static oa_status jpege_encode(jpege_job *j)
{
    const oa_dvpp_pic *in = &j->in;
    const oa_dvpp_fmt *f = in->fmt;
    const uint32_t w = in->w;
    const uint32_t h = in->h;
    const uint32_t cw = w / 2u;
    const bool packed = f->packed422;
    const uint32_t chh = packed ? h : h / 2u;
    const size_t cbytes = (size_t)cw * chh;
    uint8_t *scratch = malloc(2 * cbytes + (packed ? (size_t)w * h : 0u));
    if (scratch == NULL) {
        return OA_FAIL(OA_E_NOMEM, "JPEGE: no memory for the planar copy of a %ux%u picture", w, h);
    }
    uint8_t *u = scratch;
    uint8_t *v = scratch + cbytes;
    const unsigned char *planes[3] = {in->data, u, v};
    int strides[3] = {(int)in->ws, (int)cw, (int)cw};
    if (packed) {
        uint8_t *y = scratch + 2 * cbytes;
        planes[0] = y;
        strides[0] = (int)w;
        for (uint32_t r = 0; r < h; ++r) {
            const uint8_t *s = in->data + (size_t)r * in->ws;
            for (uint32_t x = 0; x < cw; ++x, s += 4) {
                y[(size_t)r * w + 2 * x] = s[f->order[0]];
                y[(size_t)r * w + 2 * x + 1] = s[f->order[2]];
                u[(size_t)r * cw + x] = s[f->order[1]];
                v[(size_t)r * cw + x] = s[f->order[3]];
            }
        }
    } else {
        const uint8_t *uv = in->data + (size_t)in->ws * in->hs;
        uint8_t *first = f->swap_uv ? v : u;
        uint8_t *second = f->swap_uv ? u : v;
        for (uint32_t r = 0; r < chh; ++r) {
            const uint8_t *s = uv + (size_t)r * in->ws;
            for (uint32_t x = 0; x < cw; ++x) {
                first[(size_t)r * cw + x] = s[2 * x];
                second[(size_t)r * cw + x] = s[2 * x + 1];
            }
        }
    }
    oa_status st = OA_OK;
    tjhandle tj = tjInitCompress();
    /*
     * TurboJPEG allocates the encoded stream (with TJFLAG_NOREALLOC it would
     * assume a buffer of tjBufSize bytes, more than the caller may have); it
     * is copied into the caller's buffer only when it fits.
     */
    unsigned char *buf = NULL;
    unsigned long len = 0;
    if (tj == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "JPEGE: cannot create an encoder: %s", tjGetErrorStr2(NULL));
    } else if (tjCompressFromYUVPlanes(tj, planes, (int)w, strides, (int)h, packed ? TJSAMP_422 : TJSAMP_420, &buf,
                                       &len, j->quality, 0) != 0) {
        st = OA_FAIL(OA_E_FAILURE, "JPEGE: encoding a %ux%u picture failed: %s", w, h, tjGetErrorStr2(tj));
    } else if (len > j->capacity) {
        st = OA_FAIL(OA_E_PARAM, "JPEGE: the %lu-byte JPEG does not fit the %u-byte output buffer", len, j->capacity);
    } else {
        memcpy(j->out, buf, len);
        *j->size = (uint32_t)len;
    }
    tjFree(buf);
    if (tj != NULL) {
        tjDestroy(tj);
    }
    free(scratch);
    return st;
}

static oa_status jpege_run(void *p)
{
    jpege_job *j = p;
    const oa_status st = jpege_encode(j);
    j->desc->ret_code = (uint32_t)oa_status_to_acl(st);
    return st;
}

static oa_status jpege_submit(acldvppChannelDesc *ch, acldvppPicDesc *inputDesc, const void *data, uint32_t *size,
                              const acldvppJpegeConfig *config, aclrtStream stream)
{
    oa_status st = oa_dvpp_channel_check(ch, DVPP_CHNMODE_JPEGE);
    if (st != OA_OK) {
        return st;
    }
    if (inputDesc == NULL || data == NULL || size == NULL || config == NULL) {
        return OA_FAIL(OA_E_PARAM, "JPEGE: inputDesc, data, size and config must not be null");
    }
    if (!jpege_format(inputDesc->format)) {
        return OA_FAIL(OA_E_PARAM, "JPEGE input format %s is not supported (YUV420SP NV12/NV21 or packed YUV422)",
                       oa_dvpp_fmt_name(inputDesc->format));
    }
    if (*size == 0) {
        return OA_FAIL(OA_E_PARAM, "JPEGE: *size (the capacity of data) must be greater than 0");
    }
    jpege_job *j = calloc(1, sizeof(*j));
    if (j == NULL) {
        return OA_FAIL(OA_E_NOMEM, "JPEGE task");
    }
    if ((st = oa_dvpp_pic_check(inputDesc, &g_jpege_in, &j->in)) != OA_OK ||
        (st = oa_dvpp_buffer_check(data, *size, "JPEGE output data")) != OA_OK) {
        free(j);
        return st;
    }
    j->out = (uint8_t *)(uintptr_t)data;
    j->capacity = *size;
    j->size = size;
    j->quality = config->level == 0 ? 100 : (int)config->level;
    j->desc = inputDesc;
    return oa_dvpp_submit(stream, jpege_run, j);
}

ACL_FUNC_VISIBILITY aclError acldvppJpegEncodeAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                                                    const void *data, uint32_t *size, acldvppJpegeConfig *config,
                                                    aclrtStream stream)
{
    return oa_status_to_acl(jpege_submit(channelDesc, inputDesc, data, size, config, stream));
}

ACL_FUNC_VISIBILITY aclError acldvppJpegPredictEncSize(const acldvppPicDesc *inputDesc,
                                                       const acldvppJpegeConfig *config, uint32_t *size)
{
    ACL_REQUIRE_NOT_NULL(inputDesc);
    ACL_REQUIRE_NOT_NULL(config);
    ACL_REQUIRE_NOT_NULL(size);
    ACL_REQUIRE(jpege_format(inputDesc->format), OA_E_PARAM,
                "JPEGE input format %s is not supported (YUV420SP NV12/NV21 or packed YUV422)",
                oa_dvpp_fmt_name(inputDesc->format));
    const uint32_t w = inputDesc->width;
    const uint32_t h = inputDesc->height;
    ACL_REQUIRE(w >= JPEGE_MIN && w <= JPEGE_MAX && h >= JPEGE_MIN && h <= JPEGE_MAX, OA_E_PARAM,
                "JPEGE picture %ux%u is outside %ux%u .. %ux%u", w, h, JPEGE_MIN, JPEGE_MIN, JPEGE_MAX, JPEGE_MAX);
    const int samp = inputDesc->format <= PIXEL_FORMAT_YVU_SEMIPLANAR_420 ? TJSAMP_420 : TJSAMP_422;
    const unsigned long n = tjBufSize((int)w, (int)h, samp);
    ACL_REQUIRE(n != (unsigned long)-1 && n <= UINT32_MAX, OA_E_PARAM, "JPEGE picture %ux%u is too large", w, h);
    *size = (uint32_t)n;
    return ACL_SUCCESS;
}

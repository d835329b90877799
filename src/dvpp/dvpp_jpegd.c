/*
 * acldvppJpegDecodeAsync over libjpeg-turbo: the luma plane is decoded
 * straight into the output buffer (no copy), the chroma planes into scratch
 * planes that are then interleaved (and resampled when the output
 * subsampling differs from the image's) into the output's chroma plane.
 * Geometry and format rules: docs/dvpp.md "JPEGD".
 */
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

#define OA_LOG_MODULE "ASCENDCL"
#include "base/acl_check.h"
#include "dvpp/dvpp_jpeg.h"

/* Subsampling shifts (x, y) of a TurboJPEG subsampling. */
static void tj_shifts(int subsamp, uint8_t *sx, uint8_t *sy)
{
    *sx = (subsamp == TJSAMP_422 || subsamp == TJSAMP_420) ? 1 : (subsamp == TJSAMP_411 ? 2 : 0);
    *sy = (subsamp == TJSAMP_420 || subsamp == TJSAMP_440) ? 1 : 0;
}

/*
 * Writes the interleaved chroma plane dst (dw x dh samples, shifts dsx/dsy)
 * from the planar U and V planes (sw x sh, shifts ssx/ssy): each output
 * sample averages the source samples covering the same luma area.
 */
static void chroma_to_sp(const uint8_t *u, const uint8_t *v, size_t spitch, uint32_t sw, uint32_t sh, uint8_t ssx,
                         uint8_t ssy, uint8_t *dst, size_t dpitch, uint32_t dw, uint32_t dh, uint8_t dsx, uint8_t dsy,
                         bool swap)
{
    const uint8_t *first = swap ? v : u;
    const uint8_t *second = swap ? u : v;
    if (ssx == dsx && ssy == dsy) {
        for (uint32_t y = 0; y < dh; ++y) {
            const uint8_t *a = first + (size_t)y * spitch;
            const uint8_t *b = second + (size_t)y * spitch;
            uint8_t *o = dst + (size_t)y * dpitch;
            for (uint32_t x = 0; x < dw; ++x) {
                o[2 * x] = a[x];
                o[2 * x + 1] = b[x];
            }
        }
        return;
    }
    for (uint32_t y = 0; y < dh; ++y) {
        uint32_t y0 = (y << dsy) >> ssy;
        uint32_t y1 = ((y + 1u) << dsy) >> ssy;
        y0 = y0 < sh ? y0 : sh - 1u;
        y1 = y1 > y0 + 1u ? (y1 < sh ? y1 : sh) : y0 + 1u;
        uint8_t *o = dst + (size_t)y * dpitch;
        for (uint32_t x = 0; x < dw; ++x) {
            uint32_t x0 = (x << dsx) >> ssx;
            uint32_t x1 = ((x + 1u) << dsx) >> ssx;
            x0 = x0 < sw ? x0 : sw - 1u;
            x1 = x1 > x0 + 1u ? (x1 < sw ? x1 : sw) : x0 + 1u;
            uint32_t sa = 0;
            uint32_t sb = 0;
            for (uint32_t yy = y0; yy < y1; ++yy) {
                for (uint32_t xx = x0; xx < x1; ++xx) {
                    sa += first[(size_t)yy * spitch + xx];
                    sb += second[(size_t)yy * spitch + xx];
                }
            }
            const uint32_t n = (y1 - y0) * (x1 - x0);
            o[2 * x] = (uint8_t)((sa + n / 2u) / n);
            o[2 * x + 1] = (uint8_t)((sb + n / 2u) / n);
        }
    }
}

oa_status oa_jpegd_decode(const uint8_t *data, size_t size, const oa_jpeg_info *info, const oa_dvpp_pic *out)
{
    tjhandle tj = tjInitDecompress();
    if (tj == NULL) {
        return OA_FAIL(OA_E_NOMEM, "JPEGD: cannot create a decoder: %s", tjGetErrorStr2(NULL));
    }
    oa_status st = OA_OK;
    uint8_t *scratch = NULL;
    int w = 0;
    int h = 0;
    int subsamp = 0;
    int cs = 0;
    if (tjDecompressHeader3(tj, data, (unsigned long)size, &w, &h, &subsamp, &cs) != 0) {
        st = OA_FAIL(OA_E_UNSUPPORTED_JPEG, "JPEGD: bad JPEG header: %s", tjGetErrorStr2(tj));
        goto done;
    }
    if ((uint32_t)w != info->width || (uint32_t)h != info->height || subsamp == TJSAMP_411 || cs == TJCS_CMYK ||
        cs == TJCS_YCCK || cs == TJCS_RGB) {
        st = OA_FAIL(OA_E_UNSUPPORTED_JPEG, "JPEGD: JPEG %dx%d colour space %d subsampling %d is not decodable", w, h,
                     cs, subsamp);
        goto done;
    }
    const bool gray = subsamp == TJSAMP_GRAY;
    const int pw0 = tjPlaneWidth(0, w, subsamp);
    const int ph0 = tjPlaneHeight(0, h, subsamp);
    const int pw1 = gray ? 0 : tjPlaneWidth(1, w, subsamp);
    const int ph1 = gray ? 0 : tjPlaneHeight(1, h, subsamp);
    if (pw0 <= 0 || ph0 <= 0 || (uint32_t)pw0 > out->ws || (uint32_t)ph0 > out->hs) {
        st = OA_FAIL(OA_E_PARAM, "JPEGD: output stride %ux%u is smaller than the decoded plane %dx%d", out->ws, out->hs,
                     pw0, ph0);
        goto done;
    }
    const size_t cplane = (size_t)(gray ? 0 : pw1) * (size_t)(gray ? 0 : ph1);
    if (cplane > 0) {
        scratch = malloc(2 * cplane);
        if (scratch == NULL) {
            st = OA_FAIL(OA_E_NOMEM, "JPEGD: no memory for %zu bytes of chroma", 2 * cplane);
            goto done;
        }
    }
    unsigned char *planes[3] = {out->data, scratch, scratch != NULL ? scratch + cplane : NULL};
    int strides[3] = {(int)out->ws, pw1, pw1};
    if (tjDecompressToYUVPlanes(tj, data, (unsigned long)size, planes, w, strides, h,
                                TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS) != 0) {
        st = OA_FAIL(OA_E_UNSUPPORTED_JPEG, "JPEGD: the JPEG data is corrupt or truncated: %s", tjGetErrorStr2(tj));
        goto done;
    }
    const oa_dvpp_fmt *f = out->fmt;
    if (f->layout == OA_DVPP_LAYOUT_SP) {
        uint8_t *dst = out->data + (size_t)out->ws * out->hs;
        const size_t dpitch = (size_t)out->ws * 2u >> f->sub_w;
        const uint32_t dw = out->w >> f->sub_w;
        const uint32_t dh = out->h >> f->sub_h;
        if (gray) {
            for (uint32_t y = 0; y < dh; ++y) {
                memset(dst + (size_t)y * dpitch, 0x80, (size_t)dw * 2u);
            }
        } else {
            uint8_t sx = 0;
            uint8_t sy = 0;
            tj_shifts(subsamp, &sx, &sy);
            chroma_to_sp(planes[1], planes[2], (size_t)pw1, (uint32_t)pw1, (uint32_t)ph1, sx, sy, dst, dpitch, dw, dh,
                         f->sub_w, f->sub_h, f->swap_uv != 0);
        }
    }
done:
    free(scratch);
    tjDestroy(tj);
    return st;
}

/* ---- the asynchronous entry point ---- */

typedef struct jpegd_job {
    const uint8_t *data;
    size_t size;
    oa_jpeg_info info;
    oa_dvpp_pic out;
    acldvppPicDesc *desc;
} jpegd_job;

static oa_status jpegd_run(void *p)
{
    jpegd_job *j = p;
    const oa_status st = oa_jpegd_decode(j->data, j->size, &j->info, &j->out);
    j->desc->ret_code = (uint32_t)oa_status_to_acl(st);
    if (st == OA_OK) {
        j->desc->width = j->out.w;
        j->desc->height = j->out.h;
        j->desc->format = j->out.fmt->format;
    }
    return st;
}

static const oa_dvpp_rules g_jpegd_out = {"JPEGD", "output", OA_JPEGD_MIN_SIZE - 1u, OA_JPEGD_MIN_SIZE - 1u,
                                          OA_JPEGD_MAX_SIZE, OA_JPEGD_MAX_SIZE, OA_JPEGD_WS_ALIGN, OA_JPEGD_HS_ALIGN,
                                          OA_JPEGD_WS_ALIGN, 4u * OA_JPEGD_MAX_SIZE, OA_JPEGD_HS_ALIGN,
                                          OA_JPEGD_MAX_SIZE, false};

static oa_status jpegd_submit(acldvppChannelDesc *ch, const void *data, uint32_t size, acldvppPicDesc *outDesc,
                              aclrtStream stream)
{
    oa_status st = oa_dvpp_channel_check(ch, DVPP_CHNMODE_JPEGD);
    if (st != OA_OK) {
        return st;
    }
    if (data == NULL || size == 0 || outDesc == NULL) {
        return OA_FAIL(OA_E_PARAM, "JPEGD: data, size and outputDesc must be given (data %p, size %u, outputDesc %p)",
                       data, size, (void *)outDesc);
    }
    if ((st = oa_dvpp_buffer_check(data, size, "JPEGD input data")) != OA_OK) {
        return st;
    }
    jpegd_job *j = calloc(1, sizeof(*j));
    if (j == NULL) {
        return OA_FAIL(OA_E_NOMEM, "JPEGD task");
    }
    const oa_dvpp_fmt *f = NULL;
    uint32_t w = 0;
    uint32_t h = 0;
    st = oa_jpeg_parse(data, size, &j->info);
    if (st == OA_OK) {
        st = oa_jpegd_plan(&j->info, outDesc->format, &f, &w, &h);
    }
    if (st == OA_OK) {
        acldvppPicDesc geo = *outDesc; /* the image decides the size and (for UNKNOWN) the format */
        geo.width = w;
        geo.height = h;
        geo.format = f->format;
        st = oa_dvpp_pic_check(&geo, &g_jpegd_out, &j->out);
    }
    if (st != OA_OK) {
        free(j);
        return st;
    }
    j->data = data;
    j->size = size;
    j->desc = outDesc;
    return oa_dvpp_submit(stream, jpegd_run, j);
}

ACL_FUNC_VISIBILITY aclError acldvppJpegDecodeAsync(acldvppChannelDesc *channelDesc, const void *data, uint32_t size,
                                                    acldvppPicDesc *outputDesc, aclrtStream stream)
{
    return oa_status_to_acl(jpegd_submit(channelDesc, data, size, outputDesc, stream));
}

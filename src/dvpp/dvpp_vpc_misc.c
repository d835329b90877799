/*
 * The remaining VPC operations: acldvppVpcPyrDownAsync (5x5 Gaussian,
 * reflect-101 borders, every second sample), acldvppVpcCalcHistAsync
 * (256 bins per component) and acldvppVpcEqualizeHistAsync (applies the
 * application's lookup table per component). Rules: docs/dvpp.md
 * "Pyramid, histogram".
 */
#include <stdlib.h>
#include <string.h>

#define OA_LOG_MODULE "ASCENDCL"
#include "base/acl_check.h"
#include "dvpp/dvpp_internal.h"

/* ---- pyramid down ---- */

static const oa_dvpp_rules g_pyr_in = {"VPC pyrDown", "input", 20, 12, 2048, 2048, 16, 0, 32, 16384, 6, 16384, false};
static const oa_dvpp_rules g_pyr_out = {"VPC pyrDown", "output", 10, 6, 1024, 1024, 16, 0, 32, 16384, 6, 16384, false};

typedef struct pyr_job {
    oa_dvpp_pic in, out;
    acldvppPicDesc *desc;
} pyr_job;

static uint32_t reflect101(int64_t i, uint32_t n)
{
    if (i < 0) {
        i = -i;
    }
    if (i >= (int64_t)n) {
        i = 2 * (int64_t)n - i - 2;
    }
    return (uint32_t)i;
}

static oa_status pyr_run(void *p)
{
    static const uint32_t k[5] = {1, 4, 6, 4, 1};
    pyr_job *j = p;
    const oa_dvpp_pic *in = &j->in;
    for (uint32_t y = 0; y < j->out.h; ++y) {
        uint32_t rows[5];
        for (int t = 0; t < 5; ++t) {
            rows[t] = reflect101((int64_t)(2 * y) + t - 2, in->h);
        }
        uint8_t *o = j->out.data + (size_t)y * j->out.ws;
        for (uint32_t x = 0; x < j->out.w; ++x) {
            uint32_t cols[5];
            for (int t = 0; t < 5; ++t) {
                cols[t] = reflect101((int64_t)(2 * x) + t - 2, in->w);
            }
            uint32_t s = 0;
            for (int a = 0; a < 5; ++a) {
                const uint8_t *r = in->data + (size_t)rows[a] * in->ws;
                uint32_t h = 0;
                for (int b = 0; b < 5; ++b) {
                    h += k[b] * r[cols[b]];
                }
                s += k[a] * h;
            }
            o[x] = (uint8_t)((s + 128u) >> 8);
        }
    }
    j->desc->ret_code = 0;
    return OA_OK;
}

static oa_status pyr_submit(acldvppChannelDesc *ch, acldvppPicDesc *in, acldvppPicDesc *out, const void *reserve,
                            aclrtStream stream)
{
    oa_status st = oa_dvpp_channel_check(ch, DVPP_CHNMODE_VPC);
    if (st != OA_OK) {
        return st;
    }
    if (reserve != NULL) {
        return OA_FAIL(OA_E_PARAM, "VPC pyrDown: parameter [reserve] must be null");
    }
    pyr_job *j = calloc(1, sizeof(*j));
    if (j == NULL) {
        return OA_FAIL(OA_E_NOMEM, "VPC pyrDown task");
    }
    st = oa_dvpp_pic_check(in, &g_pyr_in, &j->in);
    if (st == OA_OK) {
        st = oa_dvpp_pic_check(out, &g_pyr_out, &j->out);
    }
    if (st == OA_OK && (j->in.fmt->format != PIXEL_FORMAT_YUV_400 || j->out.fmt->format != PIXEL_FORMAT_YUV_400)) {
        st = OA_FAIL(OA_E_PARAM, "VPC pyrDown takes and writes YUV400 only (input %s, output %s)", j->in.fmt->name,
                     j->out.fmt->name);
    }
    if (st == OA_OK && (j->out.w != j->in.w / 2u || j->out.h != j->in.h / 2u)) {
        st = OA_FAIL(OA_E_PARAM, "VPC pyrDown: output %ux%u must be half the input %ux%u", j->out.w, j->out.h,
                     j->in.w, j->in.h);
    }
    if (st != OA_OK) {
        free(j);
        return st;
    }
    j->desc = out;
    return oa_dvpp_submit(stream, pyr_run, j);
}

ACL_FUNC_VISIBILITY aclError acldvppVpcPyrDownAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                                                    acldvppPicDesc *outputDesc, void *reserve, aclrtStream stream)
{
    return oa_status_to_acl(pyr_submit(channelDesc, inputDesc, outputDesc, reserve, stream));
}

/* ---- histograms and lookup tables: per-component sample visits ---- */

static const oa_dvpp_rules g_hist_in = {"VPC histogram", "input", 10, 6, 4096, 4096, 16, 0, 32, 16384, 6, 16384, true};

static bool hist_format(const oa_dvpp_fmt *f)
{
    return f->bpp != 4;
}

/*
 * Calls visit(ctx, component, sample pointer) for every stored sample of the
 * picture: Y/U/V for YUV formats, byte order for packed RGB.
 */
typedef void (*sample_fn)(void *ctx, uint32_t comp, uint8_t *s);

static void for_samples(const oa_dvpp_pic *pic, sample_fn fn, void *ctx)
{
    const oa_dvpp_fmt *f = pic->fmt;
    oa_dvpp_plane pl[2];
    const int n = oa_dvpp_pic_planes(pic, pl);
    for (int i = 0; i < n; ++i) {
        for (uint32_t y = 0; y < pl[i].h; ++y) {
            uint8_t *row = pl[i].p + (size_t)y * pl[i].pitch;
            for (uint32_t x = 0; x < pl[i].w; ++x) {
                uint8_t *px = row + (size_t)x * pl[i].ch;
                for (uint32_t k = 0; k < pl[i].ch; ++k) {
                    uint32_t comp = k;
                    if (i == 1) {
                        comp = 1u + (f->swap_uv ? 1u - k : k);
                    } else if (f->packed422) {
                        comp = (k == f->order[1]) ? 1u : (k == f->order[3] ? 2u : 0u);
                    }
                    fn(ctx, comp, px + k);
                }
            }
        }
    }
}

typedef struct hist_job {
    oa_dvpp_pic in;
    acldvppHist *hist;
    uint32_t bins[OA_DVPP_COMPONENTS][OA_DVPP_BINS];
} hist_job;

static void count(void *ctx, uint32_t comp, uint8_t *s)
{
    hist_job *j = ctx;
    j->bins[comp][*s]++;
}

static oa_status hist_run(void *p)
{
    hist_job *j = p;
    memset(j->bins, 0, sizeof(j->bins));
    for_samples(&j->in, count, j);
    memcpy(j->hist->bins, j->bins, sizeof(j->bins));
    j->hist->ret_code = 0;
    return OA_OK;
}

static oa_status hist_submit(acldvppChannelDesc *ch, acldvppPicDesc *src, acldvppHist *hist, const void *reserve,
                             aclrtStream stream)
{
    oa_status st = oa_dvpp_channel_check(ch, DVPP_CHNMODE_VPC);
    if (st != OA_OK) {
        return st;
    }
    if (hist == NULL || reserve != NULL) {
        return OA_FAIL(OA_E_PARAM, "VPC calcHist: hist must not be null and reserve must be null");
    }
    hist_job *j = calloc(1, sizeof(*j));
    if (j == NULL) {
        return OA_FAIL(OA_E_NOMEM, "VPC calcHist task");
    }
    st = oa_dvpp_pic_check(src, &g_hist_in, &j->in);
    if (st == OA_OK && !hist_format(j->in.fmt)) {
        st = OA_FAIL(OA_E_PARAM, "VPC calcHist does not take %s", j->in.fmt->name);
    }
    if (st != OA_OK) {
        free(j);
        return st;
    }
    j->hist = hist;
    return oa_dvpp_submit(stream, hist_run, j);
}

ACL_FUNC_VISIBILITY aclError acldvppVpcCalcHistAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *srcPicDesc,
                                                     acldvppHist *hist, void *reserve, aclrtStream stream)
{
    return oa_status_to_acl(hist_submit(channelDesc, srcPicDesc, hist, reserve, stream));
}

typedef struct lut_job {
    oa_dvpp_pic in, out;
    uint8_t map[OA_DVPP_COMPONENTS][OA_DVPP_BINS];
    acldvppPicDesc *desc;
} lut_job;

static void apply(void *ctx, uint32_t comp, uint8_t *s)
{
    const lut_job *j = ctx;
    *s = j->map[comp][*s];
}

static oa_status lut_run(void *p)
{
    lut_job *j = p;
    if (j->out.data != j->in.data) {
        oa_dvpp_plane ip[2];
        oa_dvpp_plane op[2];
        const int n = oa_dvpp_pic_planes(&j->in, ip);
        (void)oa_dvpp_pic_planes(&j->out, op);
        for (int i = 0; i < n; ++i) {
            for (uint32_t y = 0; y < ip[i].h; ++y) {
                memmove(op[i].p + (size_t)y * op[i].pitch, ip[i].p + (size_t)y * ip[i].pitch,
                        (size_t)ip[i].w * ip[i].ch);
            }
        }
    }
    for_samples(&j->out, apply, j);
    j->desc->ret_code = 0;
    return OA_OK;
}

static oa_status lut_submit(const acldvppChannelDesc *ch, const acldvppPicDesc *in, acldvppPicDesc *out,
                            const acldvppLutMap *lut, aclrtStream stream)
{
    oa_status st = oa_dvpp_channel_check(ch, DVPP_CHNMODE_VPC);
    if (st != OA_OK) {
        return st;
    }
    if (lut == NULL) {
        return OA_FAIL(OA_E_PARAM, "VPC equalizeHist: parameter [lutMap] must not be null");
    }
    lut_job *j = calloc(1, sizeof(*j));
    if (j == NULL) {
        return OA_FAIL(OA_E_NOMEM, "VPC equalizeHist task");
    }
    st = oa_dvpp_pic_check(in, &g_hist_in, &j->in);
    if (st == OA_OK) {
        st = oa_dvpp_pic_check(out, &oa_dvpp_vpc_out_rules, &j->out);
    }
    if (st == OA_OK && (j->in.fmt != j->out.fmt || j->in.w != j->out.w || j->in.h != j->out.h ||
                        !hist_format(j->in.fmt))) {
        st = OA_FAIL(OA_E_PARAM, "VPC equalizeHist: output %s %ux%u must match the input %s %ux%u (no 8888 formats)",
                     j->out.fmt->name, j->out.w, j->out.h, j->in.fmt->name, j->in.w, j->in.h);
    }
    if (st != OA_OK) {
        free(j);
        return st;
    }
    memcpy(j->map, lut->map, sizeof(j->map));
    j->desc = out;
    return oa_dvpp_submit(stream, lut_run, j);
}

ACL_FUNC_VISIBILITY aclError acldvppVpcEqualizeHistAsync(const acldvppChannelDesc *channelDesc,
                                                         const acldvppPicDesc *inputDesc, acldvppPicDesc *outputDesc,
                                                         const acldvppLutMap *lutMap, aclrtStream stream)
{
    return oa_status_to_acl(lut_submit(channelDesc, inputDesc, outputDesc, lutMap, stream));
}

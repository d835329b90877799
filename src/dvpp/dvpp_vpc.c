/*
 * VPC crop / resize / paste / make-border entry points, single and batch:
 * each call checks its pictures and regions at submission
 * (docs/dvpp.md "VPC limits", "Crop and paste regions", "Batch") and queues
 * one task that runs every item in order.
 */
#include <stdlib.h>

#define OA_LOG_MODULE "ASCENDCL"
#include "base/acl_check.h"
#include "dvpp/dvpp_internal.h"

#define VPC_MAX_ROIS 256u
#define ROI_MIN_W 10u
#define ROI_MIN_H 6u
#define PASTE_LEFT_ALIGN 16u
#define VPC_MAX_SHRINK 32u /* output >= input / 32 per axis */
#define VPC_MAX_ZOOM 16u   /* output <= input x 16 per axis */

typedef struct vpc_item {
    oa_dvpp_pic in, out;
    oa_dvpp_rect src, dst;
    bool border;
    acldvppBorderConfig bcfg;
    acldvppPicDesc *desc;
} vpc_item;

typedef struct vpc_job {
    oa_dvpp_interp mode;
    uint32_t n;
    vpc_item items[];
} vpc_job;

static oa_status vpc_run(void *p)
{
    vpc_job *j = p;
    oa_status first = OA_OK;
    for (uint32_t i = 0; i < j->n; ++i) {
        vpc_item *it = &j->items[i];
        oa_status st = oa_dvpp_resize(&it->in, it->src, &it->out, it->dst, j->mode);
        if (st == OA_OK && it->border) {
            oa_dvpp_border_fill(&it->out, it->dst, &it->bcfg);
        }
        it->desc->ret_code = (uint32_t)oa_status_to_acl(st);
        first = first != OA_OK ? first : st;
    }
    return first;
}

static oa_status roi_check(const acldvppRoiConfig *r, const oa_dvpp_pic *p, const char *what, oa_dvpp_rect *out)
{
    if (r == NULL) {
        return OA_FAIL(OA_E_PARAM, "VPC %s area must not be null", what);
    }
    if (r->left > r->right || r->top > r->bottom || r->right >= p->w || r->bottom >= p->h) {
        return OA_FAIL(OA_E_PARAM, "VPC %s area [left %u, right %u, top %u, bottom %u] is not inside the %ux%u picture",
                       what, r->left, r->right, r->top, r->bottom, p->w, p->h);
    }
    out->x = r->left;
    out->y = r->top;
    out->w = r->right - r->left + 1u;
    out->h = r->bottom - r->top + 1u;
    if (out->w < ROI_MIN_W || out->h < ROI_MIN_H) {
        return OA_FAIL(OA_E_PARAM, "VPC %s area %ux%u is smaller than %ux%u", what, out->w, out->h, ROI_MIN_W,
                       ROI_MIN_H);
    }
    return OA_OK;
}

static oa_status paste_check(const acldvppRoiConfig *r, const oa_dvpp_pic *p, oa_dvpp_rect *out)
{
    oa_status st = roi_check(r, p, "paste", out);
    if (st != OA_OK) {
        return st;
    }
    if (out->x % PASTE_LEFT_ALIGN != 0) {
        return OA_FAIL(OA_E_PARAM, "VPC paste area left [%u] must be a multiple of %u", out->x, PASTE_LEFT_ALIGN);
    }
    const oa_dvpp_fmt *f = p->fmt;
    if ((f->sub_w != 0 && (out->w & 1u) != 0) || (f->sub_h != 0 && ((out->y | out->h) & 1u) != 0)) {
        return OA_FAIL(OA_E_PARAM, "VPC paste area (top %u, %ux%u) must have an even top, width and height for %s",
                       out->y, out->w, out->h, f->name);
    }
    return OA_OK;
}

static oa_status formats_check(const oa_dvpp_fmt *a, const oa_dvpp_fmt *b)
{
    if (a->packed422 || b->packed422) {
        return OA_FAIL(OA_E_PARAM, "VPC crop/resize of packed YUV422 (%s) is not supported; convert it first",
                       a->packed422 ? a->name : b->name);
    }
    const bool sp_pair = a->layout == OA_DVPP_LAYOUT_SP && b->layout == OA_DVPP_LAYOUT_SP && a->sub_w == b->sub_w &&
                         a->sub_h == b->sub_h;
    if (a->format != b->format && !sp_pair) {
        return OA_FAIL(OA_E_PARAM, "VPC cannot crop/resize %s into %s; use acldvppVpcConvertColorAsync for "
                       "conversions", a->name, b->name);
    }
    return OA_OK;
}

/*
 * The VPC scales each axis by a factor in [1/32, 16] (docs/dvpp.md "VPC limits"): a region resized
 * outside it is ACL_ERROR_INVALID_PARAM.
 */
static oa_status ratio_check(const oa_dvpp_rect *src, const oa_dvpp_rect *dst)
{
    const bool w_ok = (uint64_t)dst->w * VPC_MAX_SHRINK >= src->w && dst->w <= (uint64_t)src->w * VPC_MAX_ZOOM;
    const bool h_ok = (uint64_t)dst->h * VPC_MAX_SHRINK >= src->h && dst->h <= (uint64_t)src->h * VPC_MAX_ZOOM;
    if (!w_ok || !h_ok) {
        return OA_FAIL(OA_E_PARAM,
                       "VPC cannot resize %ux%u to %ux%u: the scale of each axis must be in [1/%u, %u] (%s)", src->w,
                       src->h, dst->w, dst->h, VPC_MAX_SHRINK, VPC_MAX_ZOOM, w_ok ? "height" : "width");
    }
    return OA_OK;
}

static oa_status border_check(const acldvppBorderConfig *b, const oa_dvpp_pic *out, oa_dvpp_rect *inner)
{
    if (b == NULL) {
        return OA_FAIL(OA_E_PARAM, "VPC border config must not be null");
    }
    const oa_dvpp_fmt *f = out->fmt;
    if ((f->sub_w != 0 && ((b->left | b->right) & 1u) != 0) || (f->sub_h != 0 && ((b->top | b->bottom) & 1u) != 0)) {
        return OA_FAIL(OA_E_PARAM, "VPC border widths (top %u, bottom %u, left %u, right %u) must be even for %s",
                       b->top, b->bottom, b->left, b->right, f->name);
    }
    if ((uint64_t)b->left + b->right + ROI_MIN_W > out->w || (uint64_t)b->top + b->bottom + ROI_MIN_H > out->h) {
        return OA_FAIL(OA_E_PARAM, "VPC borders (top %u, bottom %u, left %u, right %u) leave less than %ux%u of the "
                       "%ux%u output", b->top, b->bottom, b->left, b->right, ROI_MIN_W, ROI_MIN_H, out->w, out->h);
    }
    *inner = (oa_dvpp_rect){b->left, b->top, out->w - b->left - b->right, out->h - b->top - b->bottom};
    return OA_OK;
}

/* Checks one item and fills j->items[k]: crop NULL = whole input, paste NULL = whole output (or inside borders). */
static oa_status add_item(vpc_job *j, uint32_t k, const acldvppPicDesc *in, acldvppPicDesc *out,
                          const acldvppRoiConfig *crop, const acldvppRoiConfig *paste,
                          const acldvppBorderConfig *border)
{
    vpc_item *it = &j->items[k];
    oa_status st = oa_dvpp_pic_check(in, &oa_dvpp_vpc_in_rules, &it->in);
    if (st == OA_OK) {
        st = oa_dvpp_pic_check(out, &oa_dvpp_vpc_out_rules, &it->out);
    }
    if (st == OA_OK) {
        st = oa_dvpp_vpc_8k_check(&it->in);
    }
    if (st == OA_OK) {
        st = formats_check(it->in.fmt, it->out.fmt);
    }
    if (st != OA_OK) {
        return st;
    }
    it->src = oa_dvpp_full_rect(&it->in);
    it->dst = oa_dvpp_full_rect(&it->out);
    if (crop != NULL && (st = roi_check(crop, &it->in, "crop", &it->src)) != OA_OK) {
        return st;
    }
    if (paste != NULL && (st = paste_check(paste, &it->out, &it->dst)) != OA_OK) {
        return st;
    }
    if (border != NULL) {
        if ((st = border_check(border, &it->out, &it->dst)) != OA_OK) {
            return st;
        }
        it->border = true;
        it->bcfg = *border;
    }
    if ((st = ratio_check(&it->src, &it->dst)) != OA_OK) {
        return st;
    }
    it->desc = out;
    return OA_OK;
}

static vpc_job *job_new(uint32_t n, const acldvppResizeConfig *cfg, oa_status *st)
{
    oa_dvpp_interp mode = OA_DVPP_INTERP_BILINEAR_CV;
    if ((*st = oa_dvpp_interp_from_config(cfg, &mode)) != OA_OK) {
        return NULL;
    }
    vpc_job *j = calloc(1, sizeof(*j) + (size_t)n * sizeof(vpc_item));
    if (j == NULL) {
        *st = OA_FAIL(OA_E_NOMEM, "VPC task of %u pictures", n);
        return NULL;
    }
    j->mode = mode;
    j->n = n;
    return j;
}

static oa_status single(acldvppChannelDesc *ch, const acldvppPicDesc *in, acldvppPicDesc *out,
                        const acldvppRoiConfig *crop, const acldvppRoiConfig *paste, const acldvppBorderConfig *border,
                        const acldvppResizeConfig *cfg, aclrtStream stream)
{
    oa_status st = oa_dvpp_channel_check(ch, DVPP_CHNMODE_VPC);
    if (st != OA_OK) {
        return st;
    }
    vpc_job *j = job_new(1, cfg, &st);
    if (j == NULL) {
        return st;
    }
    if ((st = add_item(j, 0, in, out, crop, paste, border)) != OA_OK) {
        free(j);
        return st;
    }
    return oa_dvpp_submit(stream, vpc_run, j);
}

ACL_FUNC_VISIBILITY aclError acldvppVpcResizeAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                                                   acldvppPicDesc *outputDesc, acldvppResizeConfig *resizeConfig,
                                                   aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(resizeConfig);
    return oa_status_to_acl(single(channelDesc, inputDesc, outputDesc, NULL, NULL, NULL, resizeConfig, stream));
}

ACL_FUNC_VISIBILITY aclError acldvppVpcCropAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                                                 acldvppPicDesc *outputDesc, acldvppRoiConfig *cropArea,
                                                 aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(cropArea);
    return oa_status_to_acl(single(channelDesc, inputDesc, outputDesc, cropArea, NULL, NULL, NULL, stream));
}

ACL_FUNC_VISIBILITY aclError acldvppVpcCropResizeAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                                                       acldvppPicDesc *outputDesc, acldvppRoiConfig *cropArea,
                                                       acldvppResizeConfig *resizeConfig, aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(cropArea);
    ACL_REQUIRE_NOT_NULL(resizeConfig);
    return oa_status_to_acl(single(channelDesc, inputDesc, outputDesc, cropArea, NULL, NULL, resizeConfig, stream));
}

ACL_FUNC_VISIBILITY aclError acldvppVpcCropAndPasteAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                                                         acldvppPicDesc *outputDesc, acldvppRoiConfig *cropArea,
                                                         acldvppRoiConfig *pasteArea, aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(cropArea);
    ACL_REQUIRE_NOT_NULL(pasteArea);
    return oa_status_to_acl(single(channelDesc, inputDesc, outputDesc, cropArea, pasteArea, NULL, NULL, stream));
}

ACL_FUNC_VISIBILITY aclError acldvppVpcCropResizePasteAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                                                            acldvppPicDesc *outputDesc, acldvppRoiConfig *cropArea,
                                                            acldvppRoiConfig *pasteArea,
                                                            acldvppResizeConfig *resizeConfig, aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(cropArea);
    ACL_REQUIRE_NOT_NULL(pasteArea);
    ACL_REQUIRE_NOT_NULL(resizeConfig);
    return oa_status_to_acl(
        single(channelDesc, inputDesc, outputDesc, cropArea, pasteArea, NULL, resizeConfig, stream));
}

ACL_FUNC_VISIBILITY aclError acldvppVpcMakeBorderAsync(const acldvppChannelDesc *channelDesc,
                                                       const acldvppPicDesc *inputDesc, acldvppPicDesc *outputDesc,
                                                       const acldvppBorderConfig *borderConfig, aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(inputDesc);
    ACL_REQUIRE_NOT_NULL(outputDesc);
    ACL_REQUIRE_NOT_NULL(borderConfig);
    const acldvppBorderConfig *b = borderConfig;
    ACL_REQUIRE((uint64_t)inputDesc->width + b->left + b->right == outputDesc->width &&
                    (uint64_t)inputDesc->height + b->top + b->bottom == outputDesc->height,
                OA_E_PARAM, "VPC make border: output %ux%u must be the input %ux%u plus the borders (%u+%u, %u+%u)",
                outputDesc->width, outputDesc->height, inputDesc->width, inputDesc->height, b->left, b->right, b->top,
                b->bottom);
    return oa_status_to_acl(single((acldvppChannelDesc *)(uintptr_t)channelDesc, inputDesc, outputDesc, NULL, NULL,
                                   borderConfig, NULL, stream));
}

/* ---- batches ---- */

typedef struct batch_args {
    acldvppBatchPicDesc *src;
    const uint32_t *roi_nums;
    uint32_t size;
    acldvppBatchPicDesc *dst;
    acldvppRoiConfig **crops;
    acldvppRoiConfig **pastes;     /* NULL: whole outputs */
    acldvppBorderConfig **borders; /* NULL: none */
    const acldvppResizeConfig *cfg;
} batch_args;

static oa_status batch(acldvppChannelDesc *ch, const batch_args *a, aclrtStream stream)
{
    oa_status st = oa_dvpp_channel_check(ch, DVPP_CHNMODE_VPC);
    if (st != OA_OK) {
        return st;
    }
    if (a->src == NULL || a->roi_nums == NULL || a->dst == NULL || a->crops == NULL) {
        return OA_FAIL(OA_E_PARAM, "VPC batch: srcBatchPicDescs, roiNums, dstBatchPicDescs and cropAreas must not "
                       "be null");
    }
    if (a->size == 0 || a->size > a->src->count) {
        return OA_FAIL(OA_E_PARAM, "VPC batch: size [%u] must be in [1, %u] (the source batch)", a->size,
                       a->src->count);
    }
    uint32_t total = 0;
    for (uint32_t i = 0; i < a->size; ++i) {
        if (a->roi_nums[i] == 0 || a->roi_nums[i] > VPC_MAX_ROIS || total + a->roi_nums[i] > VPC_MAX_ROIS) {
            return OA_FAIL(OA_E_PARAM, "VPC batch: roiNums[%u] = %u; every entry must be >= 1 and their sum <= %u", i,
                           a->roi_nums[i], VPC_MAX_ROIS);
        }
        total += a->roi_nums[i];
    }
    if (total != a->dst->count) {
        return OA_FAIL(OA_E_PARAM, "VPC batch: the %u regions of roiNums need %u output pictures, the batch has %u",
                       total, total, a->dst->count);
    }
    vpc_job *j = job_new(total, a->cfg, &st);
    if (j == NULL) {
        return st;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < a->size && st == OA_OK; ++i) {
        for (uint32_t r = 0; r < a->roi_nums[i] && st == OA_OK; ++r, ++k) {
            if (a->crops[k] == NULL || (a->pastes != NULL && a->pastes[k] == NULL) ||
                (a->borders != NULL && a->borders[k] == NULL)) {
                st = OA_FAIL(OA_E_PARAM, "VPC batch: the areas / border configs of region %u must not be null", k);
                break;
            }
            st = add_item(j, k, &a->src->pics[i], &a->dst->pics[k], a->crops[k],
                          a->pastes != NULL ? a->pastes[k] : NULL, a->borders != NULL ? a->borders[k] : NULL);
        }
    }
    if (st != OA_OK) {
        free(j);
        return st;
    }
    return oa_dvpp_submit(stream, vpc_run, j);
}

ACL_FUNC_VISIBILITY aclError acldvppVpcBatchCropAsync(acldvppChannelDesc *channelDesc,
                                                      acldvppBatchPicDesc *srcBatchPicDescs, uint32_t *roiNums,
                                                      uint32_t size, acldvppBatchPicDesc *dstBatchPicDescs,
                                                      acldvppRoiConfig *cropAreas[], aclrtStream stream)
{
    const batch_args a = {srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, NULL, NULL, NULL};
    return oa_status_to_acl(batch(channelDesc, &a, stream));
}

ACL_FUNC_VISIBILITY aclError acldvppVpcBatchCropResizeAsync(acldvppChannelDesc *channelDesc,
                                                            acldvppBatchPicDesc *srcBatchPicDescs, uint32_t *roiNums,
                                                            uint32_t size, acldvppBatchPicDesc *dstBatchPicDescs,
                                                            acldvppRoiConfig *cropAreas[],
                                                            acldvppResizeConfig *resizeConfig, aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(resizeConfig);
    const batch_args a = {srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, NULL, NULL, resizeConfig};
    return oa_status_to_acl(batch(channelDesc, &a, stream));
}

ACL_FUNC_VISIBILITY aclError acldvppVpcBatchCropAndPasteAsync(acldvppChannelDesc *channelDesc,
                                                              acldvppBatchPicDesc *srcBatchPicDescs, uint32_t *roiNums,
                                                              uint32_t size, acldvppBatchPicDesc *dstBatchPicDescs,
                                                              acldvppRoiConfig *cropAreas[],
                                                              acldvppRoiConfig *pasteAreas[], aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(pasteAreas);
    const batch_args a = {srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, pasteAreas, NULL, NULL};
    return oa_status_to_acl(batch(channelDesc, &a, stream));
}

ACL_FUNC_VISIBILITY aclError acldvppVpcBatchCropResizePasteAsync(acldvppChannelDesc *channelDesc,
                                                                 acldvppBatchPicDesc *srcBatchPicDescs,
                                                                 uint32_t *roiNums, uint32_t size,
                                                                 acldvppBatchPicDesc *dstBatchPicDescs,
                                                                 acldvppRoiConfig *cropAreas[],
                                                                 acldvppRoiConfig *pasteAreas[],
                                                                 acldvppResizeConfig *resizeConfig, aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(pasteAreas);
    ACL_REQUIRE_NOT_NULL(resizeConfig);
    const batch_args a = {srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, pasteAreas, NULL,
                          resizeConfig};
    return oa_status_to_acl(batch(channelDesc, &a, stream));
}

ACL_FUNC_VISIBILITY aclError acldvppVpcBatchCropResizeMakeBorderAsync(acldvppChannelDesc *channelDesc,
                                                                      acldvppBatchPicDesc *srcBatchPicDescs,
                                                                      uint32_t *roiNums, uint32_t size,
                                                                      acldvppBatchPicDesc *dstBatchPicDescs,
                                                                      acldvppRoiConfig *cropAreas[],
                                                                      acldvppBorderConfig *borderCfgs[],
                                                                      acldvppResizeConfig *resizeConfig,
                                                                      aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(borderCfgs);
    ACL_REQUIRE_NOT_NULL(resizeConfig);
    const batch_args a = {srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, NULL, borderCfgs,
                          resizeConfig};
    return oa_status_to_acl(batch(channelDesc, &a, stream));
}

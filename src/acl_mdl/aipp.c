/*
 * Dynamic AIPP: the parameter set (aclmdlCreateAIPP and the aclmdlSetAIPP*
 * setters, range-checked as CANN does), its packing into GE's parameter
 * block (64-byte head + 96 bytes per image, aclmdlGetAippDataSize), and the
 * model-dependent functions (aclmdlSetInputAIPP, aclmdlSetAIPPByInputIndex,
 * aclmdlGetAippType, aclmdlGetFirstAippInfo) answered from the model_info
 * AIPP facts.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_rt.h"
#include "acl_base/platform.h"
#include "acl_mdl/mdl_internal.h"
#include "base/acl_check.h"
#include "base/util.h"

_Static_assert(sizeof(oa_aipp_batch_para) == OA_AIPP_BATCH_SIZE, "kAippDynamicBatchPara is 96 bytes");
_Static_assert(offsetof(oa_aipp_batch_para, crop_start_pos_w) == 8, "batch layout");
_Static_assert(offsetof(oa_aipp_batch_para, padding_size_right) == 52, "batch layout");
_Static_assert(offsetof(oa_aipp_batch_para, dtc_pixel_mean_chn) == 56, "batch layout");
_Static_assert(offsetof(oa_aipp_batch_para, dtc_pixel_min_chn) == 64, "batch layout");
_Static_assert(offsetof(oa_aipp_batch_para, dtc_pixel_var_reci_chn) == 72, "batch layout");
_Static_assert(offsetof(oa_aipp_batch_para, reserve1) == 80, "batch layout");
_Static_assert(sizeof(oa_aipp_para) == OA_AIPP_HEAD_SIZE, "kAippDynamicPara head is 64 bytes");
_Static_assert(offsetof(oa_aipp_para, src_image_size_w) == 8, "head layout");
_Static_assert(offsetof(oa_aipp_para, csc_matrix) == 16, "head layout");
_Static_assert(offsetof(oa_aipp_para, csc_output_bias) == 40, "head layout");
_Static_assert(offsetof(oa_aipp_para, csc_input_bias) == 43, "head layout");
_Static_assert(offsetof(oa_aipp_para, reserve4) == 48, "head layout");

/* GE's limits of the setters */
#define SWITCH_OFF 0
#define SWITCH_ON 1
#define CSC_MATRIX_MIN (-32677)
#define CSC_MATRIX_MAX 32676
#define IMAGE_SIZE_MIN 1
#define IMAGE_SIZE_MAX 4096
#define SCF_SIZE_MIN 16
#define SCF_SIZEW_MAX 1920
#define PADDING_MIN 0
#define PADDING_MAX 32
#define MEAN_CHN_MIN 0
#define MEAN_CHN_MAX 255
#define MIN_CHN_MIN 0.0f
#define MIN_CHN_MAX 255.0f
#define VR_CHN_MIN (-65504.0f)
#define VR_CHN_MAX 65504.0f

#define REQUIRE_RANGE(v, lo, hi)                                                                                   \
    ACL_REQUIRE((v) >= (lo) && (v) <= (hi), OA_E_PARAM, "param %s:[%d] must be in range of [%d] and [%d]", #v,      \
                (int)(v), (int)(lo), (int)(hi))

/* Comparisons with NaN are false, so a NaN passes, as in CANN. */
#define REQUIRE_RANGE_F(v, lo, hi)                                                                                 \
    ACL_REQUIRE(!((v) < (lo)) && !((v) > (hi)), OA_E_PARAM, "param %s:[%.2f] must be in range of [%.2f] and [%.2f]", \
                #v, (double)(v), (double)(lo), (double)(hi))

#define REQUIRE_BATCH_INDEX(aipp, idx)                                                                             \
    ACL_REQUIRE((idx) < (aipp)->batch_size, OA_E_PARAM,                                                            \
                "set batch parameter failed, batch_index (%llu) is greater than or equal to batch_number (%llu)",     \
                (unsigned long long)(idx), (unsigned long long)(aipp)->batch_size)

/* ---- the parameter set ---- */

ACL_FUNC_VISIBILITY aclmdlAIPP *aclmdlCreateAIPP(uint64_t batchSize)
{
    ACL_REQUIRE_RET(batchSize != 0, NULL, "the batchSize can't be zero");
    size_t bytes;
    if (batchSize > SIZE_MAX || !oa_mul_size((size_t)batchSize, sizeof(oa_aipp_batch_para), &bytes)) {
        (void)OA_FAIL(OA_E_NOMEM, "aclmdlCreateAIPP fail, bad memory allocation, batchSize[%llu]",
                      (unsigned long long)batchSize);
        return NULL;
    }
    aclmdlAIPP *a = calloc(1, sizeof(*a));
    oa_aipp_batch_para *batch = calloc(1, bytes);
    if (a == NULL || batch == NULL) {
        free(a);
        free(batch);
        (void)OA_FAIL(OA_E_NOMEM, "aclmdlCreateAIPP fail, bad memory allocation, batchSize[%llu]",
                      (unsigned long long)batchSize);
        return NULL;
    }
    a->batch_size = batchSize;
    a->batch = batch;
    a->params.batch_num = (int8_t)batchSize; /* GE stores the count in a signed byte */
    const aclFloat16 one = aclFloatToFloat16(1.0f);
    for (uint64_t i = 0; i < batchSize; ++i) {
        for (size_t c = 0; c < 4; ++c) {
            batch[i].dtc_pixel_var_reci_chn[c] = one;
        }
    }
    return a;
}

ACL_FUNC_VISIBILITY aclError aclmdlDestroyAIPP(const aclmdlAIPP *aippParmsSet)
{
    ACL_REQUIRE_NOT_NULL(aippParmsSet);
    aclmdlAIPP *a = (aclmdlAIPP *)(uintptr_t)aippParmsSet;
    free(a->batch);
    free(a);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlGetAippDataSize(uint64_t batchSize, size_t *size)
{
    ACL_REQUIRE_NOT_NULL(size);
    ACL_REQUIRE(batchSize != 0, OA_E_PARAM, "param batchSize must be positive");
    size_t bytes;
    ACL_REQUIRE(batchSize <= SIZE_MAX && oa_mul_size((size_t)batchSize, OA_AIPP_BATCH_SIZE, &bytes) &&
                    oa_add_size(bytes, OA_AIPP_HEAD_SIZE, &bytes),
                OA_E_FAILURE, "the AIPP data size of %llu images overflows", (unsigned long long)batchSize);
    *size = bytes;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPInputFormat(aclmdlAIPP *aippParmsSet, aclAippInputFormat inputFormat)
{
    ACL_REQUIRE_NOT_NULL(aippParmsSet);
    uint8_t cce;
    switch (inputFormat) {
    case ACL_YUV420SP_U8:
        cce = OA_CCE_YUV420SP_U8;
        break;
    case ACL_XRGB8888_U8:
        cce = OA_CCE_XRGB8888_U8;
        break;
    case ACL_RGB888_U8:
        cce = OA_CCE_RGB888_U8;
        break;
    case ACL_YUV400_U8:
        cce = OA_CCE_YUV400_U8;
        break;
    case ACL_NC1HWC0DI_FP16:
        cce = OA_CCE_NC1HWC0DI_FP16;
        break;
    case ACL_NC1HWC0DI_S8:
        cce = OA_CCE_NC1HWC0DI_S8;
        break;
    case ACL_ARGB8888_U8:
        cce = OA_CCE_ARGB8888_U8;
        break;
    case ACL_YUYV_U8:
        cce = OA_CCE_YUYV_U8;
        break;
    case ACL_YUV422SP_U8:
        cce = OA_CCE_YUV422SP_U8;
        break;
    case ACL_AYUV444_U8:
        cce = OA_CCE_AYUV444_U8;
        break;
    case ACL_RAW10:
        cce = OA_CCE_RAW10;
        break;
    case ACL_RAW12:
        cce = OA_CCE_RAW12;
        break;
    case ACL_RAW16:
        cce = OA_CCE_RAW16;
        break;
    case ACL_RAW24:
        cce = OA_CCE_RAW24;
        break;
    default:
        ACL_RETURN_STATUS(OA_FAIL(OA_E_PARAM, "unsupported inputFormat[%d]", (int)inputFormat));
    }
    aippParmsSet->params.input_format = cce;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPCscParams(aclmdlAIPP *aippParmsSet, int8_t cscSwitch, int16_t cscMatrixR0C0,
                                                    int16_t cscMatrixR0C1, int16_t cscMatrixR0C2,
                                                    int16_t cscMatrixR1C0, int16_t cscMatrixR1C1,
                                                    int16_t cscMatrixR1C2, int16_t cscMatrixR2C0,
                                                    int16_t cscMatrixR2C1, int16_t cscMatrixR2C2,
                                                    uint8_t cscOutputBiasR0, uint8_t cscOutputBiasR1,
                                                    uint8_t cscOutputBiasR2, uint8_t cscInputBiasR0,
                                                    uint8_t cscInputBiasR1, uint8_t cscInputBiasR2)
{
    ACL_REQUIRE_NOT_NULL(aippParmsSet);
    REQUIRE_RANGE(cscSwitch, SWITCH_OFF, SWITCH_ON);
    aippParmsSet->params.csc_switch = cscSwitch;
    if (cscSwitch == SWITCH_OFF) {
        return ACL_SUCCESS; /* the matrix and biases are ignored */
    }
    const int16_t m[9] = {cscMatrixR0C0, cscMatrixR0C1, cscMatrixR0C2, cscMatrixR1C0, cscMatrixR1C1,
                          cscMatrixR1C2, cscMatrixR2C0, cscMatrixR2C1, cscMatrixR2C2};
    for (size_t i = 0; i < 9; ++i) {
        ACL_REQUIRE(m[i] >= CSC_MATRIX_MIN && m[i] <= CSC_MATRIX_MAX, OA_E_PARAM,
                    "param cscMatrixR%zuC%zu:[%d] must be in range of [%d] and [%d]", i / 3, i % 3, (int)m[i],
                    CSC_MATRIX_MIN, CSC_MATRIX_MAX);
    }
    memcpy(aippParmsSet->params.csc_matrix, m, sizeof(m));
    aippParmsSet->params.csc_output_bias[0] = cscOutputBiasR0;
    aippParmsSet->params.csc_output_bias[1] = cscOutputBiasR1;
    aippParmsSet->params.csc_output_bias[2] = cscOutputBiasR2;
    aippParmsSet->params.csc_input_bias[0] = cscInputBiasR0;
    aippParmsSet->params.csc_input_bias[1] = cscInputBiasR1;
    aippParmsSet->params.csc_input_bias[2] = cscInputBiasR2;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPRbuvSwapSwitch(aclmdlAIPP *aippParmsSet, int8_t rbuvSwapSwitch)
{
    ACL_REQUIRE_NOT_NULL(aippParmsSet);
    REQUIRE_RANGE(rbuvSwapSwitch, SWITCH_OFF, SWITCH_ON);
    aippParmsSet->params.rbuv_swap_switch = rbuvSwapSwitch;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPAxSwapSwitch(aclmdlAIPP *aippParmsSet, int8_t axSwapSwitch)
{
    ACL_REQUIRE_NOT_NULL(aippParmsSet);
    REQUIRE_RANGE(axSwapSwitch, SWITCH_OFF, SWITCH_ON);
    aippParmsSet->params.ax_swap_switch = axSwapSwitch;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPSrcImageSize(aclmdlAIPP *aippParmsSet, int32_t srcImageSizeW,
                                                       int32_t srcImageSizeH)
{
    ACL_REQUIRE_NOT_NULL(aippParmsSet);
    REQUIRE_RANGE(srcImageSizeW, IMAGE_SIZE_MIN + 1, IMAGE_SIZE_MAX); /* GE: width at least 2 */
    REQUIRE_RANGE(srcImageSizeH, IMAGE_SIZE_MIN, IMAGE_SIZE_MAX);
    aippParmsSet->params.src_image_size_w = srcImageSizeW;
    aippParmsSet->params.src_image_size_h = srcImageSizeH;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPScfParams(aclmdlAIPP *aippParmsSet, int8_t scfSwitch, int32_t scfInputSizeW,
                                                    int32_t scfInputSizeH, int32_t scfOutputSizeW,
                                                    int32_t scfOutputSizeH, uint64_t batchIndex)
{
    ACL_REQUIRE_NOT_NULL(aippParmsSet);
    REQUIRE_BATCH_INDEX(aippParmsSet, batchIndex);
    REQUIRE_RANGE(scfSwitch, SWITCH_OFF, SWITCH_ON);
    oa_aipp_batch_para *b = &aippParmsSet->batch[batchIndex];
    b->scf_switch = scfSwitch;
    if (scfSwitch == SWITCH_OFF) {
        return ACL_SUCCESS;
    }
    REQUIRE_RANGE(scfInputSizeW, SCF_SIZE_MIN, IMAGE_SIZE_MAX);
    REQUIRE_RANGE(scfInputSizeH, SCF_SIZE_MIN, IMAGE_SIZE_MAX);
    REQUIRE_RANGE(scfOutputSizeW, SCF_SIZE_MIN, SCF_SIZEW_MAX);
    REQUIRE_RANGE(scfOutputSizeH, SCF_SIZE_MIN, IMAGE_SIZE_MAX);
    b->scf_input_size_w = scfInputSizeW;
    b->scf_input_size_h = scfInputSizeH;
    b->scf_output_size_w = scfOutputSizeW;
    b->scf_output_size_h = scfOutputSizeH;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPCropParams(aclmdlAIPP *aippParmsSet, int8_t cropSwitch,
                                                     int32_t cropStartPosW, int32_t cropStartPosH, int32_t cropSizeW,
                                                     int32_t cropSizeH, uint64_t batchIndex)
{
    ACL_REQUIRE_NOT_NULL(aippParmsSet);
    REQUIRE_BATCH_INDEX(aippParmsSet, batchIndex);
    REQUIRE_RANGE(cropSwitch, SWITCH_OFF, SWITCH_ON);
    oa_aipp_batch_para *b = &aippParmsSet->batch[batchIndex];
    b->crop_switch = cropSwitch;
    if (cropSwitch == SWITCH_OFF) {
        return ACL_SUCCESS;
    }
    REQUIRE_RANGE(cropStartPosW, IMAGE_SIZE_MIN - 1, IMAGE_SIZE_MAX - 1);
    REQUIRE_RANGE(cropStartPosH, IMAGE_SIZE_MIN - 1, IMAGE_SIZE_MAX - 1);
    REQUIRE_RANGE(cropSizeW, IMAGE_SIZE_MIN, IMAGE_SIZE_MAX);
    REQUIRE_RANGE(cropSizeH, IMAGE_SIZE_MIN, IMAGE_SIZE_MAX);
    b->crop_start_pos_w = cropStartPosW;
    b->crop_start_pos_h = cropStartPosH;
    b->crop_size_w = cropSizeW;
    b->crop_size_h = cropSizeH;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPPaddingParams(aclmdlAIPP *aippParmsSet, int8_t paddingSwitch,
                                                        int32_t paddingSizeTop, int32_t paddingSizeBottom,
                                                        int32_t paddingSizeLeft, int32_t paddingSizeRight,
                                                        uint64_t batchIndex)
{
    ACL_REQUIRE_NOT_NULL(aippParmsSet);
    REQUIRE_BATCH_INDEX(aippParmsSet, batchIndex);
    REQUIRE_RANGE(paddingSwitch, SWITCH_OFF, SWITCH_ON);
    oa_aipp_batch_para *b = &aippParmsSet->batch[batchIndex];
    b->padding_switch = paddingSwitch;
    if (paddingSwitch == SWITCH_OFF) {
        return ACL_SUCCESS;
    }
    REQUIRE_RANGE(paddingSizeTop, PADDING_MIN, PADDING_MAX);
    REQUIRE_RANGE(paddingSizeBottom, PADDING_MIN, PADDING_MAX);
    REQUIRE_RANGE(paddingSizeLeft, PADDING_MIN, PADDING_MAX);
    REQUIRE_RANGE(paddingSizeRight, PADDING_MIN, PADDING_MAX);
    b->padding_size_top = paddingSizeTop;
    b->padding_size_bottom = paddingSizeBottom;
    b->padding_size_left = paddingSizeLeft;
    b->padding_size_right = paddingSizeRight;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPDtcPixelMean(aclmdlAIPP *aippParmsSet, int16_t dtcPixelMeanChn0,
                                                       int16_t dtcPixelMeanChn1, int16_t dtcPixelMeanChn2,
                                                       int16_t dtcPixelMeanChn3, uint64_t batchIndex)
{
    ACL_REQUIRE_NOT_NULL(aippParmsSet);
    REQUIRE_BATCH_INDEX(aippParmsSet, batchIndex);
    REQUIRE_RANGE(dtcPixelMeanChn0, MEAN_CHN_MIN, MEAN_CHN_MAX);
    REQUIRE_RANGE(dtcPixelMeanChn1, MEAN_CHN_MIN, MEAN_CHN_MAX);
    REQUIRE_RANGE(dtcPixelMeanChn2, MEAN_CHN_MIN, MEAN_CHN_MAX);
    REQUIRE_RANGE(dtcPixelMeanChn3, MEAN_CHN_MIN, MEAN_CHN_MAX);
    oa_aipp_batch_para *b = &aippParmsSet->batch[batchIndex];
    b->dtc_pixel_mean_chn[0] = dtcPixelMeanChn0;
    b->dtc_pixel_mean_chn[1] = dtcPixelMeanChn1;
    b->dtc_pixel_mean_chn[2] = dtcPixelMeanChn2;
    b->dtc_pixel_mean_chn[3] = dtcPixelMeanChn3;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPDtcPixelMin(aclmdlAIPP *aippParmsSet, float dtcPixelMinChn0,
                                                      float dtcPixelMinChn1, float dtcPixelMinChn2,
                                                      float dtcPixelMinChn3, uint64_t batchIndex)
{
    ACL_REQUIRE_NOT_NULL(aippParmsSet);
    REQUIRE_BATCH_INDEX(aippParmsSet, batchIndex);
    REQUIRE_RANGE_F(dtcPixelMinChn0, MIN_CHN_MIN, MIN_CHN_MAX);
    REQUIRE_RANGE_F(dtcPixelMinChn1, MIN_CHN_MIN, MIN_CHN_MAX);
    REQUIRE_RANGE_F(dtcPixelMinChn2, MIN_CHN_MIN, MIN_CHN_MAX);
    REQUIRE_RANGE_F(dtcPixelMinChn3, MIN_CHN_MIN, MIN_CHN_MAX);
    oa_aipp_batch_para *b = &aippParmsSet->batch[batchIndex];
    b->dtc_pixel_min_chn[0] = aclFloatToFloat16(dtcPixelMinChn0);
    b->dtc_pixel_min_chn[1] = aclFloatToFloat16(dtcPixelMinChn1);
    b->dtc_pixel_min_chn[2] = aclFloatToFloat16(dtcPixelMinChn2);
    b->dtc_pixel_min_chn[3] = aclFloatToFloat16(dtcPixelMinChn3);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPPixelVarReci(aclmdlAIPP *aippParmsSet, float dtcPixelVarReciChn0,
                                                       float dtcPixelVarReciChn1, float dtcPixelVarReciChn2,
                                                       float dtcPixelVarReciChn3, uint64_t batchIndex)
{
    ACL_REQUIRE_NOT_NULL(aippParmsSet);
    REQUIRE_BATCH_INDEX(aippParmsSet, batchIndex);
    REQUIRE_RANGE_F(dtcPixelVarReciChn0, VR_CHN_MIN, VR_CHN_MAX);
    REQUIRE_RANGE_F(dtcPixelVarReciChn1, VR_CHN_MIN, VR_CHN_MAX);
    REQUIRE_RANGE_F(dtcPixelVarReciChn2, VR_CHN_MIN, VR_CHN_MAX);
    REQUIRE_RANGE_F(dtcPixelVarReciChn3, VR_CHN_MIN, VR_CHN_MAX);
    oa_aipp_batch_para *b = &aippParmsSet->batch[batchIndex];
    b->dtc_pixel_var_reci_chn[0] = aclFloatToFloat16(dtcPixelVarReciChn0);
    b->dtc_pixel_var_reci_chn[1] = aclFloatToFloat16(dtcPixelVarReciChn1);
    b->dtc_pixel_var_reci_chn[2] = aclFloatToFloat16(dtcPixelVarReciChn2);
    b->dtc_pixel_var_reci_chn[3] = aclFloatToFloat16(dtcPixelVarReciChn3);
    return ACL_SUCCESS;
}

/* ---- GE's parameter checks (aipp_param_check) ---- */

/* NPUs whose AIPP supports dynamic parameters (GE's list). */
static bool arch_supports_dynamic_aipp(int32_t arch)
{
    return arch == 1001 || arch == 3002 || arch == 2002 || arch == 2201 || arch == 3510;
}

/* NPUs on which the padded output width is limited to 1080. */
static bool arch_limits_padded_width(int32_t arch)
{
    return arch == 1001 || arch == 2002 || arch == 2201 || arch == 3510;
}

oa_status oa_mdl_aipp_output_hw(const aclmdlAIPP *aipp, size_t batch_index, int32_t npu_arch, int32_t *w, int32_t *h)
{
    if (aipp->batch_size == 0) {
        return OA_FAIL(OA_E_PARAM, "the AIPP parameter set has no image");
    }
    const oa_aipp_batch_para *b = &aipp->batch[batch_index];
    if (b->crop_switch == SWITCH_ON) {
        *w = b->crop_size_w;
        *h = b->crop_size_h;
        if (b->scf_switch == SWITCH_ON) {
            *w = b->scf_output_size_w;
            *h = b->scf_output_size_h;
        }
    } else if (b->scf_switch == SWITCH_ON) {
        *w = b->scf_output_size_w;
        *h = b->scf_output_size_h;
    } else {
        *w = aipp->params.src_image_size_w;
        *h = aipp->params.src_image_size_h;
    }
    if (b->padding_switch == SWITCH_ON) {
        *w += b->padding_size_left + b->padding_size_right;
        *h += b->padding_size_top + b->padding_size_bottom;
        if (arch_limits_padded_width(npu_arch) && *w > 1080) {
            return OA_FAIL(OA_E_PARAM, "after padding, aipp output W[%d] should be less than or equal to 1080 for "
                           "arch[%d]", (int)*w, (int)npu_arch);
        }
    }
    return OA_OK;
}

static oa_status crop_check(const aclmdlAIPP *aipp, size_t i)
{
    const oa_aipp_batch_para *b = &aipp->batch[i];
    const int32_t src_w = aipp->params.src_image_size_w;
    const int32_t src_h = aipp->params.src_image_size_h;
    if ((int64_t)b->crop_start_pos_w + b->crop_size_w > src_w) {
        return OA_FAIL(OA_E_PARAM, "the sum of cropStartPosW[%d] and cropSizeW[%d] cannot be larger than "
                       "srcImageSizeW[%d]", (int)b->crop_start_pos_w, (int)b->crop_size_w, (int)src_w);
    }
    if ((int64_t)b->crop_start_pos_h + b->crop_size_h > src_h) {
        return OA_FAIL(OA_E_PARAM, "the sum of cropStartPosH[%d] and cropSizeH[%d] cannot be larger than "
                       "srcImageSizeH[%d]", (int)b->crop_start_pos_h, (int)b->crop_size_h, (int)src_h);
    }
    const uint8_t fmt = aipp->params.input_format;
    if (fmt == OA_CCE_YUV420SP_U8 && (b->crop_start_pos_w % 2 != 0 || b->crop_start_pos_h % 2 != 0)) {
        return OA_FAIL(OA_E_PARAM, "cropStartPosW[%d], cropStartPosH[%d] must be even for YUV420SP_U8",
                       (int)b->crop_start_pos_w, (int)b->crop_start_pos_h);
    }
    if ((fmt == OA_CCE_YUV422SP_U8 || fmt == OA_CCE_YUYV_U8) && b->crop_start_pos_w % 2 != 0) {
        return OA_FAIL(OA_E_PARAM, "cropStartPosW[%d] must be even for YUV422SP_U8 and YUYV_U8",
                       (int)b->crop_start_pos_w);
    }
    return OA_OK;
}

oa_status oa_mdl_aipp_params_check(const aclmdlAIPP *aipp, int32_t npu_arch)
{
    const uint8_t fmt = aipp->params.input_format;
    if (fmt < OA_CCE_YUV420SP_U8) {
        return OA_FAIL(OA_E_PARAM, "inputFormat must be set, cceInputFormat = %d", (int)fmt);
    }
    if (!arch_supports_dynamic_aipp(npu_arch)) {
        return OA_FAIL(OA_E_PARAM, "dynamic aipp not support arch[%d]", (int)npu_arch);
    }
    if (fmt != OA_CCE_YUV420SP_U8 && fmt != OA_CCE_XRGB8888_U8 && fmt != OA_CCE_RGB888_U8 &&
        fmt != OA_CCE_YUV400_U8) {
        return OA_FAIL(OA_E_PARAM, "arch[%d] only support YUV420SP_U8, XRGB8888_U8, RGB888_U8, YUV400_U8, "
                       "cceInputFormat = %d", (int)npu_arch, (int)fmt);
    }
    if ((fmt == OA_CCE_YUV400_U8 || fmt == OA_CCE_RAW10 || fmt == OA_CCE_RAW12 || fmt == OA_CCE_RAW16) &&
        aipp->params.csc_switch == SWITCH_ON) {
        return OA_FAIL(OA_E_PARAM, "YUV400 or raw not support csc switch");
    }
    const int32_t w = aipp->params.src_image_size_w;
    const int32_t h = aipp->params.src_image_size_h;
    if (w == 0 || h == 0) {
        return OA_FAIL(OA_E_PARAM, "srcImageSizeW and srcImageSizeH must be set");
    }
    if (fmt == OA_CCE_YUV420SP_U8 && (w % 2 != 0 || h % 2 != 0)) {
        return OA_FAIL(OA_E_PARAM, "srcImageSizeH[%d] and srcImageSizeW[%d] must be even for YUV420SP_U8", (int)h,
                       (int)w);
    }
    if ((fmt == OA_CCE_YUV422SP_U8 || fmt == OA_CCE_YUYV_U8) && w % 2 != 0) {
        return OA_FAIL(OA_E_PARAM, "srcImageSizeW[%d] must be even for YUV422SP_U8 and YUYV_U8", (int)w);
    }
    int32_t first_w = 0;
    int32_t first_h = 0;
    oa_status st = oa_mdl_aipp_output_hw(aipp, 0, npu_arch, &first_w, &first_h);
    if (st != OA_OK) {
        return st;
    }
    for (uint64_t i = 0; i < aipp->batch_size; ++i) {
        const oa_aipp_batch_para *b = &aipp->batch[i];
        if (b->scf_switch == SWITCH_ON) {
            return OA_FAIL(OA_E_PARAM, "Not support scf!");
        }
        if (b->crop_switch == SWITCH_ON) {
            st = crop_check(aipp, (size_t)i);
            if (st != OA_OK) {
                return st;
            }
        }
        int32_t bw = 0;
        int32_t bh = 0;
        st = oa_mdl_aipp_output_hw(aipp, (size_t)i, npu_arch, &bw, &bh);
        if (st != OA_OK) {
            return st;
        }
        if (bw != first_w || bh != first_h) {
            return OA_FAIL(OA_E_PARAM, "the %llu batch output size must be equal to the first batch aipp output size! "
                           "aippBatchOutputW = %d, aippBatchOutputH = %d, aippFirstOutputW = %d, aippFirstOutputH = %d.",
                           (unsigned long long)(i + 1), (int)bw, (int)bh, (int)first_w, (int)first_h);
        }
    }
    return OA_OK;
}

uint64_t oa_mdl_aipp_src_image_size(const aclmdlAIPP *aipp)
{
    const size_t w = (size_t)aipp->params.src_image_size_w;
    const size_t h = (size_t)aipp->params.src_image_size_h;
    size_t per; /* bytes per image, computed as GE does (in size_t, wrapping like it) */
    switch (aipp->params.input_format) {
    case OA_CCE_YUV420SP_U8:
        per = 3u * h * w / 2u;
        break;
    case OA_CCE_XRGB8888_U8:
    case OA_CCE_ARGB8888_U8:
    case OA_CCE_AYUV444_U8:
        per = 4u * h * w;
        break;
    case OA_CCE_RGB888_U8:
        per = 3u * h * w;
        break;
    case OA_CCE_YUV400_U8:
        per = h * w;
        break;
    case OA_CCE_YUYV_U8:
    case OA_CCE_YUV422SP_U8:
    case OA_CCE_RAW10:
    case OA_CCE_RAW12:
    case OA_CCE_RAW16:
        per = 2u * h * w;
        break;
    case OA_CCE_RAW24:
        per = 4u * h * w;
        break;
    default:
        return 0;
    }
    size_t total;
    if (aipp->batch_size > SIZE_MAX || !oa_mul_size((size_t)aipp->batch_size, per, &total)) {
        return 0;
    }
    return total;
}

void oa_mdl_aipp_pack(const aclmdlAIPP *aipp, uint8_t *out, size_t *len)
{
    memcpy(out, &aipp->params, OA_AIPP_HEAD_SIZE);
    memcpy(out + OA_AIPP_HEAD_SIZE, aipp->batch, (size_t)aipp->batch_size * OA_AIPP_BATCH_SIZE);
    *len = OA_AIPP_HEAD_SIZE + (size_t)aipp->batch_size * OA_AIPP_BATCH_SIZE;
}

/* ---- model-dependent functions ---- */

static int32_t current_npu_arch(void)
{
    const oa_soc_info *soc = oa_platform_current_soc();
    return soc != NULL ? soc->npu_arch : -1;
}

/*
 * CANN's VerifyIndex: the model's description (V1: needs aclInit, 145001;
 * unknown id: 145003), then index < number of inputs (ACL_ERROR_INVALID_PARAM).
 */
static oa_status verify_index(uint32_t model_id, size_t index, oa_model **out)
{
    *out = NULL;
    oa_model *m = oa_model_acquire(model_id);
    if (m == NULL || m->route == OA_ROUTE_V1) {
        oa_status st = oa_mdl_require_init();
        if (st != OA_OK) {
            oa_model_release(m);
            return st;
        }
    }
    if (m == NULL) {
        return OA_FAIL(OA_E_GE_MODEL_ID, "get model description failed, model id[%u] is not loaded", model_id);
    }
    if (index >= m->info->n_inputs) {
        const size_t n = m->info->n_inputs;
        oa_model_release(m);
        return OA_FAIL(OA_E_PARAM, "input param is invalid, index[%zu] should be smaller than %zu", index, n);
    }
    *out = m;
    return OA_OK;
}

static aclmdlInputAippType aipp_type_of(const oa_model *m, size_t index, size_t *attached)
{
    const oa_model_aipp *a = m->info->inputs[index].aipp;
    if (a == NULL) {
        *attached = ACL_INVALID_NODE_INDEX;
        return ACL_DATA_WITHOUT_AIPP;
    }
    *attached = a->attached_index;
    return a->type;
}

/* CANN's CheckAippDataIndex: index must be the model's dynamic-AIPP parameter input. */
static oa_status check_aipp_data_index(const oa_model *m, size_t index)
{
    size_t attached;
    const aclmdlInputAippType type = aipp_type_of(m, index, &attached);
    if (type == ACL_DYNAMIC_AIPP_NODE) {
        return OA_OK;
    }
    if (type != ACL_DATA_WITHOUT_AIPP) {
        return OA_FAIL(OA_E_PARAM, "index[%zu] entered by the user is not dynamic aipp data index", index);
    }
    size_t in_model;
    if (!oa_model_find_input(m->info, ACL_DYNAMIC_AIPP_NAME, &in_model)) {
        return OA_FAIL(OA_E_PARAM, "the model is not a dynamic aipp model, there is no dynamic aipp node");
    }
    if (in_model != index) {
        return OA_FAIL(OA_E_PARAM, "index[%zu] entered by the user is not dynamic aipp index[%zu]", index, in_model);
    }
    return OA_OK;
}

/* GE's GetModelOriDims for input rank: N, H, W of the largest AIPP input shape when NCHW / NHWC. */
static oa_status model_ori_dims(const oa_model *m, size_t rank, bool *got, int64_t *n, int64_t *h, int64_t *w)
{
    const oa_model_aipp *a = m->info->inputs[rank].aipp;
    if (a == NULL) {
        return OA_FAIL(OA_E_GE_AIPP_NOT_EXIST, "input %zu has no AIPP input information", rank);
    }
    if (a->n_shapes == 0) {
        return OA_FAIL(OA_E_GE_FAILURE, "get model origin input dims fail, origin input dims is empty");
    }
    size_t max_index = 0;
    size_t max_size = 0;
    for (size_t i = 0; i < a->n_shapes; ++i) {
        if (a->in_dims[i].size > max_size) {
            max_size = a->in_dims[i].size;
            max_index = i;
        }
    }
    const oa_model_io_dims *d = &a->in_dims[max_index];
    if (d->n_dims > ACL_MAX_DIM_CNT) {
        return OA_FAIL(OA_E_GE_FAILURE, "size of dims[%zu] must be smaller than ACL_MAX_DIM_CNT(128)", d->n_dims);
    }
    *got = false;
    if (a->src_format == ACL_FORMAT_NCHW) {
        if (d->n_dims == 4) {
            *h = d->dims[2];
            *w = d->dims[3];
            *n = d->dims[0];
        }
        *got = true;
    } else if (a->src_format == ACL_FORMAT_NHWC) {
        if (d->n_dims == 4) {
            *h = d->dims[1];
            *w = d->dims[2];
            *n = d->dims[0];
        }
        *got = true;
    }
    return OA_OK;
}

/* CANN's GetAndCheckAippParams for the AIPP data input idx. */
static oa_status check_aipp_against_model(const oa_model *m, size_t idx, const aclmdlAIPP *aipp, int32_t arch)
{
    const oa_model_aipp *a = m->info->inputs[idx].aipp;
    if (a != NULL && a->has_config) {
        const uint64_t size = oa_mdl_aipp_src_image_size(aipp);
        if (size > a->config.max_src_image_size) {
            return OA_FAIL(OA_E_PARAM, "the dynamic aipp size[%llu] is bigger than max_src_image_size[%u]",
                           (unsigned long long)size, a->config.max_src_image_size);
        }
        const size_t rank = a->config.related_input_rank;
        if (rank >= m->info->n_inputs) {
            return OA_FAIL(OA_E_PARAM, "index[%zu] cannot greater than or equal to tensor size[%zu]", rank,
                           m->info->n_inputs);
        }
        if (m->info->inputs[rank].n_ranges == 0) { /* static-shape input: the AIPP output must be its shape */
            int32_t out_w = 0;
            int32_t out_h = 0;
            oa_status st = oa_mdl_aipp_output_hw(aipp, 0, arch, &out_w, &out_h);
            if (st != OA_OK) {
                return st;
            }
            bool got = false;
            int64_t n = 0;
            int64_t h = 0;
            int64_t w = 0;
            st = model_ori_dims(m, rank, &got, &n, &h, &w);
            if (st != OA_OK) {
                return st;
            }
            if (got && ((int64_t)aipp->batch_size != n || out_w != w || out_h != h)) {
                return OA_FAIL(OA_E_PARAM, "aipp output shape set by ACL must be equal to aipp output shape in the "
                               "model! AclAippBatchSize = %llu, AclAippOutputW = %d, AclAippOutputH = %d, "
                               "ModelAippBatchSize = %lld, ModelAippOutputW = %lld, ModelAippOutputH = %lld.",
                               (unsigned long long)aipp->batch_size, (int)out_w, (int)out_h, (long long)n,
                               (long long)w, (long long)h);
            }
        }
    }
    return oa_mdl_aipp_params_check(aipp, arch);
}

static oa_status set_input_aipp(uint32_t model_id, aclmdlDataset *ds, size_t index, const aclmdlAIPP *aipp)
{
    oa_model *m = NULL;
    oa_status st = verify_index(model_id, index, &m);
    if (st != OA_OK) {
        return st;
    }
    st = check_aipp_data_index(m, index);
    if (st == OA_OK) {
        st = check_aipp_against_model(m, index, aipp, current_npu_arch());
    }
    oa_model_release(m);
    if (st != OA_OK) {
        return st;
    }
    if (index >= ds->count || ds->slots[index].buffer == NULL) {
        return OA_FAIL(OA_E_PARAM, "failed to get data buffer by index[%zu]", index);
    }
    const aclDataBuffer *buf = ds->slots[index].buffer;
    if (buf->data == NULL) {
        return OA_FAIL(OA_E_PARAM, "failed to get addr by index[%zu]", index);
    }
    const size_t need = OA_AIPP_HEAD_SIZE + (size_t)aipp->batch_size * OA_AIPP_BATCH_SIZE;
    if (need > buf->length) {
        return OA_FAIL(OA_E_GE_DYN_INPUT_LENGTH, "input dynamic aipp param len [%zu] is larger than aipp_data size "
                       "[%llu]", need, (unsigned long long)buf->length);
    }
    uint8_t *block = malloc(need);
    if (block == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot pack %zu bytes of AIPP parameters", need);
    }
    size_t len = 0;
    oa_mdl_aipp_pack(aipp, block, &len);
    const aclError ret = aclrtMemcpy(buf->data, (size_t)buf->length, block, len, ACL_MEMCPY_HOST_TO_DEVICE);
    free(block);
    if (ret != ACL_SUCCESS) {
        return OA_FAIL(oa_status_from_acl(ret), "writing the AIPP parameters failed, ret %d", (int)ret);
    }
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclmdlSetInputAIPP(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                                const aclmdlAIPP *aippParmsSet)
{
    ACL_REQUIRE_NOT_NULL(dataset);
    ACL_REQUIRE_NOT_NULL(aippParmsSet);
    ACL_RETURN_STATUS(set_input_aipp(modelId, dataset, index, aippParmsSet));
}

static oa_status get_aipp_type(uint32_t model_id, size_t index, aclmdlInputAippType *type, size_t *attached)
{
    oa_model *m = NULL;
    oa_status st = verify_index(model_id, index, &m);
    if (st != OA_OK) {
        return st;
    }
    *attached = ACL_INVALID_NODE_INDEX;
    *type = aipp_type_of(m, index, attached);
    oa_model_release(m);
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclmdlGetAippType(uint32_t modelId, size_t index, aclmdlInputAippType *type,
                                               size_t *dynamicAttachedDataIndex)
{
    ACL_REQUIRE_NOT_NULL(dynamicAttachedDataIndex);
    ACL_REQUIRE_NOT_NULL(type);
    ACL_RETURN_STATUS(get_aipp_type(modelId, index, type, dynamicAttachedDataIndex));
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPByInputIndex(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                                       const aclmdlAIPP *aippParmsSet)
{
    ACL_REQUIRE_NOT_NULL(aippParmsSet);
    ACL_REQUIRE(dataset != NULL && index < dataset->count, OA_E_PARAM, "input param is invalid, dataset[%p], index[%zu]",
                (void *)dataset, index);
    aclmdlInputAippType type = ACL_DATA_WITHOUT_AIPP;
    size_t attached = 0;
    ACL_RETURN_STATUS_IF_FAIL(get_aipp_type(modelId, index, &type, &attached));
    ACL_REQUIRE(type == ACL_DATA_WITH_DYNAMIC_AIPP, OA_E_FAILURE, "input %zu has no dynamic aipp linked, modelId[%u]",
                index, modelId);
    ACL_RETURN_STATUS(set_input_aipp(modelId, dataset, attached, aippParmsSet));
}

static oa_status set_io_dims(const oa_model_io_dims *src, aclmdlIODims *dst)
{
    dst->dimCount = src->n_dims;
    if (src->n_dims > ACL_MAX_DIM_CNT) {
        return OA_FAIL(OA_E_GE_FAILURE, "size of dims[%zu] must be smaller than ACL_MAX_DIM_CNT(128)", src->n_dims);
    }
    if (src->n_dims > 0) {
        memcpy(dst->dims, src->dims, src->n_dims * sizeof(int64_t));
    }
    if (src->name != NULL && src->name[0] != '\0') {
        (void)oa_strlcpy(dst->name, src->name, sizeof(dst->name));
    }
    return OA_OK;
}

static oa_status first_aipp_info(uint32_t model_id, size_t index, aclAippInfo *out)
{
    oa_model *m = NULL;
    oa_status st = verify_index(model_id, index, &m);
    if (st != OA_OK) {
        return st;
    }
    const oa_model_aipp *a = m->info->inputs[index].aipp;
    if (a == NULL || !a->has_config) {
        oa_model_release(m);
        return OA_FAIL(OA_E_GE_AIPP_NOT_EXIST, "the tensor index[%zu] is not configured with aipp, modelId[%u]", index,
                       model_id);
    }
    const oa_model_aipp_config *c = &a->config;
    out->inputFormat = (aclAippInputFormat)c->input_format;
    out->srcImageSizeW = c->src_image_size_w;
    out->srcImageSizeH = c->src_image_size_h;
    out->cropSwitch = c->crop;
    out->loadStartPosW = c->load_start_pos_w;
    out->loadStartPosH = c->load_start_pos_h;
    out->cropSizeW = c->crop_size_w;
    out->cropSizeH = c->crop_size_h;
    out->resizeSwitch = c->resize;
    out->resizeOutputW = c->resize_output_w;
    out->resizeOutputH = c->resize_output_h;
    out->paddingSwitch = c->padding;
    out->leftPaddingSize = c->left_padding_size;
    out->rightPaddingSize = c->right_padding_size;
    out->topPaddingSize = c->top_padding_size;
    out->bottomPaddingSize = c->bottom_padding_size;
    out->cscSwitch = c->csc_switch;
    out->rbuvSwapSwitch = c->rbuv_swap_switch;
    out->axSwapSwitch = c->ax_swap_switch;
    out->singleLineMode = c->single_line_mode;
    out->matrixR0C0 = c->matrix[0];
    out->matrixR0C1 = c->matrix[1];
    out->matrixR0C2 = c->matrix[2];
    out->matrixR1C0 = c->matrix[3];
    out->matrixR1C1 = c->matrix[4];
    out->matrixR1C2 = c->matrix[5];
    out->matrixR2C0 = c->matrix[6];
    out->matrixR2C1 = c->matrix[7];
    out->matrixR2C2 = c->matrix[8];
    out->outputBias0 = c->output_bias[0];
    out->outputBias1 = c->output_bias[1];
    out->outputBias2 = c->output_bias[2];
    out->inputBias0 = c->input_bias[0];
    out->inputBias1 = c->input_bias[1];
    out->inputBias2 = c->input_bias[2];
    out->meanChn0 = c->mean_chn[0];
    out->meanChn1 = c->mean_chn[1];
    out->meanChn2 = c->mean_chn[2];
    out->meanChn3 = c->mean_chn[3];
    out->minChn0 = c->min_chn[0];
    out->minChn1 = c->min_chn[1];
    out->minChn2 = c->min_chn[2];
    out->minChn3 = c->min_chn[3];
    out->varReciChn0 = c->var_reci_chn[0];
    out->varReciChn1 = c->var_reci_chn[1];
    out->varReciChn2 = c->var_reci_chn[2];
    out->varReciChn3 = c->var_reci_chn[3];
    /* shape count: one per gear of a static model, 1 without gears or for a dynamic-shape model */
    const size_t shape_count = m->route == OA_ROUTE_V2 || m->info->n_gears == 0 ? 1u : m->info->n_gears;
    out->shapeCount = shape_count;
    out->srcFormat = a->src_format;
    out->srcDatatype = a->src_dtype;
    out->srcDimNum = a->src_dim_num;
    if (shape_count > ACL_MAX_SHAPE_COUNT || shape_count != a->n_shapes) {
        oa_model_release(m);
        return OA_FAIL(OA_E_GE_FAILURE, "shapeCount[%zu] should be smaller than ACL_MAX_SHAPE_COUNT(128) and it should "
                       "be equal to size of inputDims[%zu], size of outputDims[%zu]", shape_count, a->n_shapes,
                       a->n_shapes);
    }
    for (size_t i = 0; i < shape_count && st == OA_OK; ++i) {
        st = set_io_dims(&a->in_dims[i], &out->outDims[i].srcDims);
        out->outDims[i].srcSize = a->in_dims[i].size;
        if (st == OA_OK) {
            st = set_io_dims(&a->out_dims[i], &out->outDims[i].aippOutdims);
            out->outDims[i].aippOutSize = a->out_dims[i].size;
        }
    }
    oa_model_release(m);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclmdlGetFirstAippInfo(uint32_t modelId, size_t index, aclAippInfo *aippInfo)
{
    ACL_REQUIRE_NOT_NULL(aippInfo);
    ACL_RETURN_STATUS(first_aipp_info(modelId, index, aippInfo));
}

/*
 * ABI freeze: acl/ops/acl_dvpp.h.
 *
 * Every enumerator, macro and error-code value (with its type), the size,
 * alignment, tag and field offsets of every public struct, every handle and
 * callback typedef, and the exact type of every declared function. The
 * numbers were measured once by compiling CANN's own headers (hicann/runtime
 * 681ef761, hicann/ge ffdcbc9f, graphengine acl_dvpp.h) with g++ on x86-64 and
 * agree with CANN's published API (tests/abi/expected_symbols.txt). A failure here means an
 * ABI change: fix the header, do not edit the expectation.
 *
 * Compile-time checks use _Static_assert; "static const" objects are not
 * constant expressions in C, so their values are checked when the program
 * runs (their types are still checked at compile time).
 */
#include "abi_check.h"

#include "acl/ops/acl_dvpp.h"

/* ---- acl/ops/acl_dvpp.h ---- */

ABI_SIZE(acldvppPixelFormat, 4, 4);
ABI_TYPE((acldvppPixelFormat)0, enum acldvppPixelFormat);
ABI_VALUE(PIXEL_FORMAT_YUV_400, 0);
ABI_VALUE(PIXEL_FORMAT_YUV_SEMIPLANAR_420, 1);
ABI_VALUE(PIXEL_FORMAT_YVU_SEMIPLANAR_420, 2);
ABI_VALUE(PIXEL_FORMAT_YUV_SEMIPLANAR_422, 3);
ABI_VALUE(PIXEL_FORMAT_YVU_SEMIPLANAR_422, 4);
ABI_VALUE(PIXEL_FORMAT_YUV_SEMIPLANAR_444, 5);
ABI_VALUE(PIXEL_FORMAT_YVU_SEMIPLANAR_444, 6);
ABI_VALUE(PIXEL_FORMAT_YUYV_PACKED_422, 7);
ABI_VALUE(PIXEL_FORMAT_UYVY_PACKED_422, 8);
ABI_VALUE(PIXEL_FORMAT_YVYU_PACKED_422, 9);
ABI_VALUE(PIXEL_FORMAT_VYUY_PACKED_422, 10);
ABI_VALUE(PIXEL_FORMAT_YUV_PACKED_444, 11);
ABI_VALUE(PIXEL_FORMAT_RGB_888, 12);
ABI_VALUE(PIXEL_FORMAT_BGR_888, 13);
ABI_VALUE(PIXEL_FORMAT_ARGB_8888, 14);
ABI_VALUE(PIXEL_FORMAT_ABGR_8888, 15);
ABI_VALUE(PIXEL_FORMAT_RGBA_8888, 16);
ABI_VALUE(PIXEL_FORMAT_BGRA_8888, 17);
ABI_VALUE(PIXEL_FORMAT_YUV_SEMI_PLANNER_420_10BIT, 18);
ABI_VALUE(PIXEL_FORMAT_YVU_SEMI_PLANNER_420_10BIT, 19);
ABI_VALUE(PIXEL_FORMAT_YVU_PLANAR_420, 20);
ABI_VALUE(PIXEL_FORMAT_YVU_PLANAR_422, 21);
ABI_VALUE(PIXEL_FORMAT_YVU_PLANAR_444, 22);
ABI_VALUE(PIXEL_FORMAT_RGB_444, 23);
ABI_VALUE(PIXEL_FORMAT_BGR_444, 24);
ABI_VALUE(PIXEL_FORMAT_ARGB_4444, 25);
ABI_VALUE(PIXEL_FORMAT_ABGR_4444, 26);
ABI_VALUE(PIXEL_FORMAT_RGBA_4444, 27);
ABI_VALUE(PIXEL_FORMAT_BGRA_4444, 28);
ABI_VALUE(PIXEL_FORMAT_RGB_555, 29);
ABI_VALUE(PIXEL_FORMAT_BGR_555, 30);
ABI_VALUE(PIXEL_FORMAT_RGB_565, 31);
ABI_VALUE(PIXEL_FORMAT_BGR_565, 32);
ABI_VALUE(PIXEL_FORMAT_ARGB_1555, 33);
ABI_VALUE(PIXEL_FORMAT_ABGR_1555, 34);
ABI_VALUE(PIXEL_FORMAT_RGBA_1555, 35);
ABI_VALUE(PIXEL_FORMAT_BGRA_1555, 36);
ABI_VALUE(PIXEL_FORMAT_ARGB_8565, 37);
ABI_VALUE(PIXEL_FORMAT_ABGR_8565, 38);
ABI_VALUE(PIXEL_FORMAT_RGBA_8565, 39);
ABI_VALUE(PIXEL_FORMAT_BGRA_8565, 40);
ABI_VALUE(PIXEL_FORMAT_RGB_BAYER_8BPP, 50);
ABI_VALUE(PIXEL_FORMAT_RGB_BAYER_10BPP, 51);
ABI_VALUE(PIXEL_FORMAT_RGB_BAYER_12BPP, 52);
ABI_VALUE(PIXEL_FORMAT_RGB_BAYER_14BPP, 53);
ABI_VALUE(PIXEL_FORMAT_RGB_BAYER_16BPP, 54);
ABI_VALUE(PIXEL_FORMAT_BGR_888_PLANAR, 70);
ABI_VALUE(PIXEL_FORMAT_HSV_888_PACKAGE, 71);
ABI_VALUE(PIXEL_FORMAT_HSV_888_PLANAR, 72);
ABI_VALUE(PIXEL_FORMAT_LAB_888_PACKAGE, 73);
ABI_VALUE(PIXEL_FORMAT_LAB_888_PLANAR, 74);
ABI_VALUE(PIXEL_FORMAT_S8C1, 75);
ABI_VALUE(PIXEL_FORMAT_S8C2_PACKAGE, 76);
ABI_VALUE(PIXEL_FORMAT_S8C2_PLANAR, 77);
ABI_VALUE(PIXEL_FORMAT_S16C1, 78);
ABI_VALUE(PIXEL_FORMAT_U8C1, 79);
ABI_VALUE(PIXEL_FORMAT_U16C1, 80);
ABI_VALUE(PIXEL_FORMAT_S32C1, 81);
ABI_VALUE(PIXEL_FORMAT_U32C1, 82);
ABI_VALUE(PIXEL_FORMAT_U64C1, 83);
ABI_VALUE(PIXEL_FORMAT_S64C1, 84);
ABI_VALUE(PIXEL_FORMAT_YUV_SEMIPLANAR_440, 1000);
ABI_VALUE(PIXEL_FORMAT_YVU_SEMIPLANAR_440, 1001);
ABI_VALUE(PIXEL_FORMAT_FLOAT32, 1002);
ABI_VALUE(PIXEL_FORMAT_BUTT, 1003);
ABI_VALUE(PIXEL_FORMAT_UNKNOWN, 10000);

ABI_SIZE(acldvppStreamFormat, 4, 4);
ABI_TYPE((acldvppStreamFormat)0, enum acldvppStreamFormat);
ABI_VALUE(H265_MAIN_LEVEL, 0);
ABI_VALUE(H264_BASELINE_LEVEL, 1);
ABI_VALUE(H264_MAIN_LEVEL, 2);
ABI_VALUE(H264_HIGH_LEVEL, 3);

ABI_SIZE(acldvppChannelMode, 4, 4);
ABI_TYPE((acldvppChannelMode)0, enum acldvppChannelMode);
ABI_VALUE(DVPP_CHNMODE_VPC, 1);
ABI_VALUE(DVPP_CHNMODE_JPEGD, 2);
ABI_VALUE(DVPP_CHNMODE_JPEGE, 4);
ABI_VALUE(DVPP_CHNMODE_PNGD, 8);

ABI_SIZE(acldvppBorderType, 4, 4);
ABI_TYPE((acldvppBorderType)0, enum acldvppBorderType);
ABI_VALUE(BORDER_CONSTANT, 0);
ABI_VALUE(BORDER_REPLICATE, 1);
ABI_VALUE(BORDER_REFLECT, 2);
ABI_VALUE(BORDER_REFLECT_101, 3);

ABI_SIZE(aclvencChannelDescParamType, 4, 4);
ABI_TYPE((aclvencChannelDescParamType)0, enum aclvencChannelDescParamType);
ABI_VALUE(ACL_VENC_THREAD_ID_UINT64, 0);
ABI_VALUE(ACL_VENC_CALLBACK_PTR, 1);
ABI_VALUE(ACL_VENC_PIXEL_FORMAT_UINT32, 2);
ABI_VALUE(ACL_VENC_ENCODE_TYPE_UINT32, 3);
ABI_VALUE(ACL_VENC_PIC_WIDTH_UINT32, 4);
ABI_VALUE(ACL_VENC_PIC_HEIGHT_UINT32, 5);
ABI_VALUE(ACL_VENC_KEY_FRAME_INTERVAL_UINT32, 6);
ABI_VALUE(ACL_VENC_BUF_ADDR_PTR, 7);
ABI_VALUE(ACL_VENC_BUF_SIZE_UINT32, 8);
ABI_VALUE(ACL_VENC_RC_MODE_UINT32, 9);
ABI_VALUE(ACL_VENC_SRC_RATE_UINT32, 10);
ABI_VALUE(ACL_VENC_MAX_BITRATE_UINT32, 11);
ABI_VALUE(ACL_VENC_MAX_IP_PROP_UINT32, 12);

ABI_SIZE(acldvppJpegFormat, 4, 4);
ABI_TYPE((acldvppJpegFormat)0, enum acldvppJpegFormat);
ABI_VALUE(ACL_JPEG_CSS_444, 0);
ABI_VALUE(ACL_JPEG_CSS_422, 1);
ABI_VALUE(ACL_JPEG_CSS_420, 2);
ABI_VALUE(ACL_JPEG_CSS_GRAY, 3);
ABI_VALUE(ACL_JPEG_CSS_440, 4);
ABI_VALUE(ACL_JPEG_CSS_411, 5);
ABI_VALUE(ACL_JPEG_CSS_UNKNOWN, 1000);

ABI_SIZE(acldvppChannelDescParamType, 4, 4);
ABI_TYPE((acldvppChannelDescParamType)0, enum acldvppChannelDescParamType);
ABI_VALUE(ACL_DVPP_CSC_MATRIX_UINT32, 0);
ABI_VALUE(ACL_DVPP_MODE_UINT32, 1);
ABI_VALUE(ACL_DVPP_CHANNEL_ID_UINT64, 2);

ABI_SIZE(aclvdecChannelDescParamType, 4, 4);
ABI_TYPE((aclvdecChannelDescParamType)0, enum aclvdecChannelDescParamType);
ABI_VALUE(ACL_VDEC_CSC_MATRIX_UINT32, 0);
ABI_VALUE(ACL_VDEC_OUT_MODE_UINT32, 1);
ABI_VALUE(ACL_VDEC_THREAD_ID_UINT64, 2);
ABI_VALUE(ACL_VDEC_CALLBACK_PTR, 3);
ABI_VALUE(ACL_VDEC_CHANNEL_ID_UINT32, 4);
ABI_VALUE(ACL_VDEC_ENCODE_TYPE_UINT32, 5);
ABI_VALUE(ACL_VDEC_OUT_PIC_FORMAT_UINT32, 6);
ABI_VALUE(ACL_VDEC_OUT_PIC_WIDTH_UINT32, 7);
ABI_VALUE(ACL_VDEC_OUT_PIC_HEIGHT_UINT32, 8);
ABI_VALUE(ACL_VDEC_REF_FRAME_NUM_UINT32, 9);
ABI_VALUE(ACL_VDEC_BIT_DEPTH_UINT32, 10);

ABI_SIZE(acldvppCscMatrix, 4, 4);
ABI_TYPE((acldvppCscMatrix)0, enum acldvppCscMatrix);
ABI_VALUE(ACL_DVPP_CSC_MATRIX_BT601_WIDE, 0);
ABI_VALUE(ACL_DVPP_CSC_MATRIX_BT601_NARROW, 1);
ABI_VALUE(ACL_DVPP_CSC_MATRIX_BT709_WIDE, 2);
ABI_VALUE(ACL_DVPP_CSC_MATRIX_BT709_NARROW, 3);
ABI_VALUE(ACL_DVPP_CSC_MATRIX_BT2020_WIDE, 4);
ABI_VALUE(ACL_DVPP_CSC_MATRIX_BT2020_NARROW, 5);
ABI_TYPE((acldvppPicDesc *)0, struct acldvppPicDesc*);
ABI_TYPE((acldvppBatchPicDesc *)0, struct acldvppBatchPicDesc*);
ABI_TYPE((acldvppRoiConfig *)0, struct acldvppRoiConfig*);
ABI_TYPE((acldvppResizeConfig *)0, struct acldvppResizeConfig*);
ABI_TYPE((acldvppBorderConfig *)0, struct acldvppBorderConfig*);
ABI_TYPE((acldvppLutMap *)0, struct acldvppLutMap*);
ABI_TYPE((acldvppChannelDesc *)0, struct acldvppChannelDesc*);
ABI_TYPE((acldvppJpegeConfig *)0, struct acldvppJpegeConfig*);
ABI_TYPE((aclvdecChannelDesc *)0, struct aclvdecChannelDesc*);
ABI_TYPE((acldvppStreamDesc *)0, struct acldvppStreamDesc*);
ABI_TYPE((aclvdecFrameConfig *)0, struct aclvdecFrameConfig*);
ABI_TYPE((aclvencChannelDesc *)0, struct aclvencChannelDesc*);
ABI_TYPE((aclvencFrameConfig *)0, struct aclvencFrameConfig*);
ABI_TYPE((acldvppHist *)0, struct acldvppHist*);
ABI_TYPE((aclvdecCallback)0, void (*)(acldvppStreamDesc*, acldvppPicDesc*, void*));
ABI_TYPE((aclvencCallback)0, void (*)(acldvppPicDesc*, acldvppStreamDesc*, void*));

ABI_FUNC(acldvppMalloc, int (*)(void**, unsigned long));
ABI_FUNC(acldvppFree, int (*)(void*));
ABI_FUNC(acldvppCreateChannelDesc, acldvppChannelDesc* (*)(void));
ABI_FUNC(acldvppDestroyChannelDesc, int (*)(acldvppChannelDesc*));
ABI_FUNC(acldvppGetChannelDescChannelId, unsigned long (*)(acldvppChannelDesc const*));
ABI_FUNC(acldvppSetChannelDescMode, int (*)(acldvppChannelDesc*, unsigned int));
ABI_FUNC(acldvppSetChannelDescParam,
         int (*)(acldvppChannelDesc*, acldvppChannelDescParamType, unsigned long, void const*));
ABI_FUNC(acldvppGetChannelDescParam,
         int (*)(acldvppChannelDesc const*, acldvppChannelDescParamType, unsigned long, unsigned long*, void*));
ABI_FUNC(acldvppCreateChannel, int (*)(acldvppChannelDesc*));
ABI_FUNC(acldvppDestroyChannel, int (*)(acldvppChannelDesc*));
ABI_FUNC(acldvppCreatePicDesc, acldvppPicDesc* (*)(void));
ABI_FUNC(acldvppDestroyPicDesc, int (*)(acldvppPicDesc*));
ABI_FUNC(acldvppSetPicDescData, int (*)(acldvppPicDesc*, void*));
ABI_FUNC(acldvppSetPicDescSize, int (*)(acldvppPicDesc*, unsigned int));
ABI_FUNC(acldvppSetPicDescFormat, int (*)(acldvppPicDesc*, acldvppPixelFormat));
ABI_FUNC(acldvppSetPicDescWidth, int (*)(acldvppPicDesc*, unsigned int));
ABI_FUNC(acldvppSetPicDescHeight, int (*)(acldvppPicDesc*, unsigned int));
ABI_FUNC(acldvppSetPicDescWidthStride, int (*)(acldvppPicDesc*, unsigned int));
ABI_FUNC(acldvppSetPicDescHeightStride, int (*)(acldvppPicDesc*, unsigned int));
ABI_FUNC(acldvppSetPicDescRetCode, int (*)(acldvppPicDesc*, unsigned int));
ABI_FUNC(acldvppGetPicDescData, void* (*)(acldvppPicDesc const*));
ABI_FUNC(acldvppGetPicDescSize, unsigned int (*)(acldvppPicDesc const*));
ABI_FUNC(acldvppGetPicDescFormat, acldvppPixelFormat (*)(acldvppPicDesc const*));
ABI_FUNC(acldvppGetPicDescWidth, unsigned int (*)(acldvppPicDesc const*));
ABI_FUNC(acldvppGetPicDescHeight, unsigned int (*)(acldvppPicDesc const*));
ABI_FUNC(acldvppGetPicDescWidthStride, unsigned int (*)(acldvppPicDesc const*));
ABI_FUNC(acldvppGetPicDescHeightStride, unsigned int (*)(acldvppPicDesc const*));
ABI_FUNC(acldvppGetPicDescRetCode, unsigned int (*)(acldvppPicDesc const*));
ABI_FUNC(acldvppCreateBatchPicDesc, acldvppBatchPicDesc* (*)(unsigned int));
ABI_FUNC(acldvppGetPicDesc, acldvppPicDesc* (*)(acldvppBatchPicDesc*, unsigned int));
ABI_FUNC(acldvppDestroyBatchPicDesc, int (*)(acldvppBatchPicDesc*));
ABI_FUNC(acldvppCreateRoiConfig, acldvppRoiConfig* (*)(unsigned int, unsigned int, unsigned int, unsigned int));
ABI_FUNC(acldvppDestroyRoiConfig, int (*)(acldvppRoiConfig*));
ABI_FUNC(acldvppSetRoiConfigLeft, int (*)(acldvppRoiConfig*, unsigned int));
ABI_FUNC(acldvppSetRoiConfigRight, int (*)(acldvppRoiConfig*, unsigned int));
ABI_FUNC(acldvppSetRoiConfigTop, int (*)(acldvppRoiConfig*, unsigned int));
ABI_FUNC(acldvppSetRoiConfigBottom, int (*)(acldvppRoiConfig*, unsigned int));
ABI_FUNC(acldvppSetRoiConfig, int (*)(acldvppRoiConfig*, unsigned int, unsigned int, unsigned int, unsigned int));
ABI_FUNC(acldvppCreateResizeConfig, acldvppResizeConfig* (*)(void));
ABI_FUNC(acldvppDestroyResizeConfig, int (*)(acldvppResizeConfig*));
ABI_FUNC(acldvppSetResizeConfigInterpolation, int (*)(acldvppResizeConfig*, unsigned int));
ABI_FUNC(acldvppGetResizeConfigInterpolation, unsigned int (*)(acldvppResizeConfig const*));
ABI_FUNC(acldvppCreateJpegeConfig, acldvppJpegeConfig* (*)(void));
ABI_FUNC(acldvppDestroyJpegeConfig, int (*)(acldvppJpegeConfig*));
ABI_FUNC(acldvppSetJpegeConfigLevel, int (*)(acldvppJpegeConfig*, unsigned int));
ABI_FUNC(acldvppGetJpegeConfigLevel, unsigned int (*)(acldvppJpegeConfig const*));
ABI_FUNC(acldvppCreateBorderConfig, acldvppBorderConfig* (*)(void));
ABI_FUNC(acldvppSetBorderConfigValue, int (*)(acldvppBorderConfig*, unsigned int, double));
ABI_FUNC(acldvppSetBorderConfigBorderType, int (*)(acldvppBorderConfig*, acldvppBorderType));
ABI_FUNC(acldvppSetBorderConfigTop, int (*)(acldvppBorderConfig*, unsigned int));
ABI_FUNC(acldvppSetBorderConfigBottom, int (*)(acldvppBorderConfig*, unsigned int));
ABI_FUNC(acldvppSetBorderConfigLeft, int (*)(acldvppBorderConfig*, unsigned int));
ABI_FUNC(acldvppSetBorderConfigRight, int (*)(acldvppBorderConfig*, unsigned int));
ABI_FUNC(acldvppGetBorderConfigValue, double (*)(acldvppBorderConfig const*, unsigned int));
ABI_FUNC(acldvppGetBorderConfigBorderType, acldvppBorderType (*)(acldvppBorderConfig const*));
ABI_FUNC(acldvppGetBorderConfigTop, unsigned int (*)(acldvppBorderConfig const*));
ABI_FUNC(acldvppGetBorderConfigBottom, unsigned int (*)(acldvppBorderConfig const*));
ABI_FUNC(acldvppGetBorderConfigLeft, unsigned int (*)(acldvppBorderConfig const*));
ABI_FUNC(acldvppGetBorderConfigRight, unsigned int (*)(acldvppBorderConfig const*));
ABI_FUNC(acldvppDestroyBorderConfig, int (*)(acldvppBorderConfig*));
ABI_FUNC(acldvppCreateLutMap, acldvppLutMap* (*)(void));
ABI_FUNC(acldvppDestroyLutMap, int (*)(acldvppLutMap*));
ABI_FUNC(acldvppGetLutMapDims, unsigned int (*)(acldvppLutMap const*));
ABI_FUNC(acldvppGetLutMapData, int (*)(acldvppLutMap const*, unsigned int, unsigned char**, unsigned int*));
ABI_FUNC(acldvppCreateHist, acldvppHist* (*)(void));
ABI_FUNC(acldvppDestroyHist, int (*)(acldvppHist*));
ABI_FUNC(acldvppGetHistDims, unsigned int (*)(acldvppHist*));
ABI_FUNC(acldvppGetHistData, int (*)(acldvppHist*, unsigned int, unsigned int**, unsigned short*));
ABI_FUNC(acldvppGetHistRetCode, unsigned int (*)(acldvppHist*));
ABI_FUNC(acldvppClearHist, int (*)(acldvppHist*));
ABI_FUNC(acldvppJpegGetImageInfo, int (*)(void const*, unsigned int, unsigned int*, unsigned int*, int*));
ABI_FUNC(acldvppJpegGetImageInfoV2,
         int (*)(void const*, unsigned int, unsigned int*, unsigned int*, int*, acldvppJpegFormat*));
ABI_FUNC(acldvppJpegPredictEncSize, int (*)(acldvppPicDesc const*, acldvppJpegeConfig const*, unsigned int*));
ABI_FUNC(acldvppJpegPredictDecSize, int (*)(void const*, unsigned int, acldvppPixelFormat, unsigned int*));
ABI_FUNC(acldvppPngGetImageInfo, int (*)(void const*, unsigned int, unsigned int*, unsigned int*, int*));
ABI_FUNC(acldvppPngPredictDecSize, int (*)(void const*, unsigned int, acldvppPixelFormat, unsigned int*));
ABI_FUNC(acldvppVpcResizeAsync,
         int (*)(acldvppChannelDesc*, acldvppPicDesc*, acldvppPicDesc*, acldvppResizeConfig*, void*));
ABI_FUNC(acldvppVpcCropAsync, int (*)(acldvppChannelDesc*, acldvppPicDesc*, acldvppPicDesc*, acldvppRoiConfig*, void*));
ABI_FUNC(acldvppVpcCropResizeAsync,
         int (*)(acldvppChannelDesc*, acldvppPicDesc*, acldvppPicDesc*, acldvppRoiConfig*, acldvppResizeConfig*,
             void*));
ABI_FUNC(acldvppVpcBatchCropAsync,
         int (*)(acldvppChannelDesc*, acldvppBatchPicDesc*, unsigned int*, unsigned int, acldvppBatchPicDesc*,
             acldvppRoiConfig**, void*));
ABI_FUNC(acldvppVpcBatchCropResizeAsync,
         int (*)(acldvppChannelDesc*, acldvppBatchPicDesc*, unsigned int*, unsigned int, acldvppBatchPicDesc*,
             acldvppRoiConfig**, acldvppResizeConfig*, void*));
ABI_FUNC(acldvppVpcCropAndPasteAsync,
         int (*)(acldvppChannelDesc*, acldvppPicDesc*, acldvppPicDesc*, acldvppRoiConfig*, acldvppRoiConfig*, void*));
ABI_FUNC(acldvppVpcCropResizePasteAsync,
         int (*)(acldvppChannelDesc*, acldvppPicDesc*, acldvppPicDesc*, acldvppRoiConfig*, acldvppRoiConfig*,
             acldvppResizeConfig*, void*));
ABI_FUNC(acldvppVpcBatchCropAndPasteAsync,
         int (*)(acldvppChannelDesc*, acldvppBatchPicDesc*, unsigned int*, unsigned int, acldvppBatchPicDesc*,
             acldvppRoiConfig**, acldvppRoiConfig**, void*));
ABI_FUNC(acldvppVpcBatchCropResizePasteAsync,
         int (*)(acldvppChannelDesc*, acldvppBatchPicDesc*, unsigned int*, unsigned int, acldvppBatchPicDesc*,
             acldvppRoiConfig**, acldvppRoiConfig**, acldvppResizeConfig*, void*));
ABI_FUNC(acldvppVpcBatchCropResizeMakeBorderAsync,
         int (*)(acldvppChannelDesc*, acldvppBatchPicDesc*, unsigned int*, unsigned int, acldvppBatchPicDesc*,
             acldvppRoiConfig**, acldvppBorderConfig**, acldvppResizeConfig*, void*));
ABI_FUNC(acldvppVpcConvertColorAsync, int (*)(acldvppChannelDesc*, acldvppPicDesc*, acldvppPicDesc*, void*));
ABI_FUNC(acldvppVpcPyrDownAsync, int (*)(acldvppChannelDesc*, acldvppPicDesc*, acldvppPicDesc*, void*, void*));
ABI_FUNC(acldvppVpcEqualizeHistAsync,
         int (*)(acldvppChannelDesc const*, acldvppPicDesc const*, acldvppPicDesc*, acldvppLutMap const*, void*));
ABI_FUNC(acldvppVpcMakeBorderAsync,
         int (*)(acldvppChannelDesc const*, acldvppPicDesc const*, acldvppPicDesc*, acldvppBorderConfig const*, void*));
ABI_FUNC(acldvppVpcCalcHistAsync, int (*)(acldvppChannelDesc*, acldvppPicDesc*, acldvppHist*, void*, void*));
ABI_FUNC(acldvppJpegDecodeAsync, int (*)(acldvppChannelDesc*, void const*, unsigned int, acldvppPicDesc*, void*));
ABI_FUNC(acldvppJpegEncodeAsync,
         int (*)(acldvppChannelDesc*, acldvppPicDesc*, void const*, unsigned int*, acldvppJpegeConfig*, void*));
ABI_FUNC(acldvppPngDecodeAsync, int (*)(acldvppChannelDesc*, void const*, unsigned int, acldvppPicDesc*, void*));
ABI_FUNC(acldvppCreateStreamDesc, acldvppStreamDesc* (*)(void));
ABI_FUNC(acldvppDestroyStreamDesc, int (*)(acldvppStreamDesc*));
ABI_FUNC(acldvppSetStreamDescData, int (*)(acldvppStreamDesc*, void*));
ABI_FUNC(acldvppSetStreamDescSize, int (*)(acldvppStreamDesc*, unsigned int));
ABI_FUNC(acldvppSetStreamDescFormat, int (*)(acldvppStreamDesc*, acldvppStreamFormat));
ABI_FUNC(acldvppSetStreamDescTimestamp, int (*)(acldvppStreamDesc*, unsigned long));
ABI_FUNC(acldvppSetStreamDescRetCode, int (*)(acldvppStreamDesc*, unsigned int));
ABI_FUNC(acldvppSetStreamDescEos, int (*)(acldvppStreamDesc*, unsigned char));
ABI_FUNC(acldvppGetStreamDescData, void* (*)(acldvppStreamDesc const*));
ABI_FUNC(acldvppGetStreamDescSize, unsigned int (*)(acldvppStreamDesc const*));
ABI_FUNC(acldvppGetStreamDescFormat, acldvppStreamFormat (*)(acldvppStreamDesc const*));
ABI_FUNC(acldvppGetStreamDescTimestamp, unsigned long (*)(acldvppStreamDesc const*));
ABI_FUNC(acldvppGetStreamDescRetCode, unsigned int (*)(acldvppStreamDesc const*));
ABI_FUNC(acldvppGetStreamDescEos, unsigned char (*)(acldvppStreamDesc const*));
ABI_FUNC(aclvdecCreateChannelDesc, aclvdecChannelDesc* (*)(void));
ABI_FUNC(aclvdecDestroyChannelDesc, int (*)(aclvdecChannelDesc*));
ABI_FUNC(aclvdecSetChannelDescChannelId, int (*)(aclvdecChannelDesc*, unsigned int));
ABI_FUNC(aclvdecSetChannelDescThreadId, int (*)(aclvdecChannelDesc*, unsigned long));
ABI_FUNC(aclvdecSetChannelDescCallback,
         int (*)(aclvdecChannelDesc*, void (*)(acldvppStreamDesc*, acldvppPicDesc*, void*)));
ABI_FUNC(aclvdecSetChannelDescEnType, int (*)(aclvdecChannelDesc*, acldvppStreamFormat));
ABI_FUNC(aclvdecSetChannelDescOutPicFormat, int (*)(aclvdecChannelDesc*, acldvppPixelFormat));
ABI_FUNC(aclvdecSetChannelDescOutPicWidth, int (*)(aclvdecChannelDesc*, unsigned int));
ABI_FUNC(aclvdecSetChannelDescOutPicHeight, int (*)(aclvdecChannelDesc*, unsigned int));
ABI_FUNC(aclvdecSetChannelDescRefFrameNum, int (*)(aclvdecChannelDesc*, unsigned int));
ABI_FUNC(aclvdecSetChannelDescBitDepth, int (*)(aclvdecChannelDesc*, unsigned int));
ABI_FUNC(aclvdecSetChannelDescOutMode, int (*)(aclvdecChannelDesc*, unsigned int));
ABI_FUNC(aclvdecSetChannelDescParam,
         int (*)(aclvdecChannelDesc*, aclvdecChannelDescParamType, unsigned long, void const*));
ABI_FUNC(aclvdecGetChannelDescChannelId, unsigned int (*)(aclvdecChannelDesc const*));
ABI_FUNC(aclvdecGetChannelDescThreadId, unsigned long (*)(aclvdecChannelDesc const*));
ABI_FUNC(aclvdecGetChannelDescCallback,
         void (*(*)(aclvdecChannelDesc const*))(acldvppStreamDesc*, acldvppPicDesc*, void*));
ABI_FUNC(aclvdecGetChannelDescEnType, acldvppStreamFormat (*)(aclvdecChannelDesc const*));
ABI_FUNC(aclvdecGetChannelDescOutPicFormat, acldvppPixelFormat (*)(aclvdecChannelDesc const*));
ABI_FUNC(aclvdecGetChannelDescOutPicWidth, unsigned int (*)(aclvdecChannelDesc const*));
ABI_FUNC(aclvdecGetChannelDescOutPicHeight, unsigned int (*)(aclvdecChannelDesc const*));
ABI_FUNC(aclvdecGetChannelDescBitDepth, unsigned int (*)(aclvdecChannelDesc const*));
ABI_FUNC(aclvdecGetChannelDescRefFrameNum, unsigned int (*)(aclvdecChannelDesc const*));
ABI_FUNC(aclvdecGetChannelDescOutMode, unsigned int (*)(aclvdecChannelDesc const*));
ABI_FUNC(aclvdecGetChannelDescParam,
         int (*)(aclvdecChannelDesc const*, aclvdecChannelDescParamType, unsigned long, unsigned long*, void*));
ABI_FUNC(aclvdecCreateFrameConfig, aclvdecFrameConfig* (*)(void));
ABI_FUNC(aclvdecDestroyFrameConfig, int (*)(aclvdecFrameConfig*));
ABI_FUNC(aclvdecCreateChannel, int (*)(aclvdecChannelDesc*));
ABI_FUNC(aclvdecDestroyChannel, int (*)(aclvdecChannelDesc*));
ABI_FUNC(aclvdecSendFrame,
         int (*)(aclvdecChannelDesc*, acldvppStreamDesc*, acldvppPicDesc*, aclvdecFrameConfig*, void*));
ABI_FUNC(aclvdecSendSkippedFrame, int (*)(aclvdecChannelDesc*, acldvppStreamDesc*, aclvdecFrameConfig*, void*));
ABI_FUNC(aclvencCreateChannelDesc, aclvencChannelDesc* (*)(void));
ABI_FUNC(aclvencDestroyChannelDesc, int (*)(aclvencChannelDesc*));
ABI_FUNC(aclvencSetChannelDescThreadId, int (*)(aclvencChannelDesc*, unsigned long));
ABI_FUNC(aclvencSetChannelDescCallback,
         int (*)(aclvencChannelDesc*, void (*)(acldvppPicDesc*, acldvppStreamDesc*, void*)));
ABI_FUNC(aclvencSetChannelDescEnType, int (*)(aclvencChannelDesc*, acldvppStreamFormat));
ABI_FUNC(aclvencSetChannelDescPicFormat, int (*)(aclvencChannelDesc*, acldvppPixelFormat));
ABI_FUNC(aclvencSetChannelDescPicWidth, int (*)(aclvencChannelDesc*, unsigned int));
ABI_FUNC(aclvencSetChannelDescPicHeight, int (*)(aclvencChannelDesc*, unsigned int));
ABI_FUNC(aclvencSetChannelDescKeyFrameInterval, int (*)(aclvencChannelDesc*, unsigned int));
ABI_FUNC(aclvencSetChannelDescBufAddr, int (*)(aclvencChannelDesc*, void*));
ABI_FUNC(aclvencSetChannelDescBufSize, int (*)(aclvencChannelDesc*, unsigned int));
ABI_FUNC(aclvencSetChannelDescRcMode, int (*)(aclvencChannelDesc*, unsigned int));
ABI_FUNC(aclvencSetChannelDescSrcRate, int (*)(aclvencChannelDesc*, unsigned int));
ABI_FUNC(aclvencSetChannelDescMaxBitRate, int (*)(aclvencChannelDesc*, unsigned int));
ABI_FUNC(aclvencSetChannelDescParam,
         int (*)(aclvencChannelDesc*, aclvencChannelDescParamType, unsigned long, void const*));
ABI_FUNC(aclvencGetChannelDescBufAddr, void* (*)(aclvencChannelDesc const*));
ABI_FUNC(aclvencGetChannelDescBufSize, unsigned int (*)(aclvencChannelDesc const*));
ABI_FUNC(aclvencGetChannelDescChannelId, unsigned int (*)(aclvencChannelDesc const*));
ABI_FUNC(aclvencGetChannelDescThreadId, unsigned long (*)(aclvencChannelDesc const*));
ABI_FUNC(aclvencGetChannelDescCallback,
         void (*(*)(aclvencChannelDesc const*))(acldvppPicDesc*, acldvppStreamDesc*, void*));
ABI_FUNC(aclvencGetChannelDescEnType, acldvppStreamFormat (*)(aclvencChannelDesc const*));
ABI_FUNC(aclvencGetChannelDescPicFormat, acldvppPixelFormat (*)(aclvencChannelDesc const*));
ABI_FUNC(aclvencGetChannelDescPicWidth, unsigned int (*)(aclvencChannelDesc const*));
ABI_FUNC(aclvencGetChannelDescPicHeight, unsigned int (*)(aclvencChannelDesc const*));
ABI_FUNC(aclvencGetChannelDescKeyFrameInterval, unsigned int (*)(aclvencChannelDesc const*));
ABI_FUNC(aclvencGetChannelDescRcMode, unsigned int (*)(aclvencChannelDesc const*));
ABI_FUNC(aclvencGetChannelDescSrcRate, unsigned int (*)(aclvencChannelDesc const*));
ABI_FUNC(aclvencGetChannelDescMaxBitRate, unsigned int (*)(aclvencChannelDesc const*));
ABI_FUNC(aclvencGetChannelDescParam,
         int (*)(aclvencChannelDesc const*, aclvencChannelDescParamType, unsigned long, unsigned long*, void*));
ABI_FUNC(aclvencCreateFrameConfig, aclvencFrameConfig* (*)(void));
ABI_FUNC(aclvencDestroyFrameConfig, int (*)(aclvencFrameConfig*));
ABI_FUNC(aclvencSetFrameConfigForceIFrame, int (*)(aclvencFrameConfig*, unsigned char));
ABI_FUNC(aclvencSetFrameConfigEos, int (*)(aclvencFrameConfig*, unsigned char));
ABI_FUNC(aclvencGetFrameConfigForceIFrame, unsigned char (*)(aclvencFrameConfig const*));
ABI_FUNC(aclvencGetFrameConfigEos, unsigned char (*)(aclvencFrameConfig const*));
ABI_FUNC(aclvencCreateChannel, int (*)(aclvencChannelDesc*));
ABI_FUNC(aclvencDestroyChannel, int (*)(aclvencChannelDesc*));
ABI_FUNC(aclvencSendFrame, int (*)(aclvencChannelDesc*, acldvppPicDesc*, void*, aclvencFrameConfig*, void*));

int main(void)
{
    int failures = 0;
    return abi_report(failures);
}
